"""What a run does to memory, the same for every engine: near-duplicates merge, a contradiction is flagged,
cross-validated and merged, an answer cites live nodes with their source file and pages, and an image given to a
run is described and becomes memory."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from memory_bank import MemoryBank
from memory_bank.memory.insight_doc import TaskStatus, TaskType

from .documents import write_pdf

PLAN = ("The migration to a zero trust architecture starts with an inventory of all enterprise resources, subjects "
        "and workflows. Each access request is evaluated by the policy engine before a session is granted, and the "
        "policy enforcement points in front of every resource carry out its decision.")
PLAN_COPY = PLAN.replace("in front of every resource", "in front of each resource").replace("  ", " ")


def _side_source(bank: MemoryBank, node_id: str) -> set[str]:
    return {s.name for s in bank.node(node_id).sources}


class MemoryEffectsContract:
    """What a run does to memory, for every engine: collected from a subclass named `Test...` whose fixtures give
    `bank` (a `MemoryBank` on the engine under test) and `northwind` (the three sample notes)."""

    def test_near_duplicates_merge_into_one_node(self, bank: MemoryBank) -> None:
        (first,) = bank.ingest_text(PLAN, source="plan.txt")
        bank.ingest_text(PLAN_COPY, source="plan-copy.txt")
        snap = bank.snapshot()
        (merged,) = snap.nodes
        (event,) = snap.merge_events
        assert event.kind == "merge" and event.new_node_id == merged.id
        olds = event.merged_node_ids
        assert first in olds and len(olds) == 2 and set(merged.merged_from) == set(olds)
        assert all(old not in bank.memory.graph and bank.memory.resolve_id(old) == merged.id for old in olds)
        assert set(merged.source_names) == {"plan.txt", "plan-copy.txt"}
        tree = bank.memory.tree
        relinked = {e.entry_id for e in tree.entries_for(merged.id)}
        for old in olds:
            old_entries = {e.entry_id for e in tree.entries_for(old)}
            assert old_entries and old_entries <= relinked, "the old nodes' entries are re-linked to the new node"
        texts = [e.entry.text for e in bank.deep_retrieve(merged.id).entries]
        assert any("every resource" in t for t in texts) and any("each resource" in t for t in texts)

    def test_conflict_is_cross_validated_and_merged(self, bank: MemoryBank, northwind: list[Path]) -> None:
        """project-overview.md and finance-review.md state the budget as 5 and 9 million; board-minutes.md says 5."""
        for path in northwind:
            bank.ingest_file(path)
        (pending,) = bank.memory.pending_conflicts()
        sides = {pending.node_a, pending.node_b}
        by_source = {frozenset(_side_source(bank, s)): s for s in sides}
        assert set(by_source) == {frozenset({"project-overview.md"}), frozenset({"finance-review.md"})}
        refuted = by_source[frozenset({"finance-review.md"})]

        result = bank.run("What is the Northwind project budget, and who approved it?")

        first = result.insight_doc.completed_tasks[0]
        assert (first.type, first.status) == (TaskType.CROSS_VALIDATE, TaskStatus.SUCCESS), "the conflict comes first"
        conflict = bank.conflict(pending.id)
        assert conflict.status == "resolved" and conflict.merged_into and not bank.memory.pending_conflicts()
        merged = bank.node(conflict.merged_into)
        assert set(merged.merged_from) == sides and not any(s in bank.memory.graph for s in sides)
        events = [e for e in bank.memory.tree.merge_events if e.new_node_id == merged.id]
        assert [e.kind for e in events] == ["conflict"] and set(events[0].merged_node_ids) == sides
        assert conflict.rejected_node == refuted, "the side the third document contradicts is the rejected one"
        deep = bank.deep_retrieve(merged.id)
        assert {e.entry.metadata["source"] for e in deep.entries if e.rejected} == {"finance-review.md"}
        assert {e.entry.metadata["source"] for e in deep.entries if not e.rejected} == {"project-overview.md"}
        assert "5 million" in result.answer and "9 million" not in result.answer
        assert result.errors == [] and result.termination == "done"

    def test_answer_cites_live_nodes_with_source_and_pages(self, bank: MemoryBank, tmp_path: Path) -> None:
        pdf = write_pdf(tmp_path / "report.pdf", [
            [["The Harbour project renews the quay walls of the old port."],
             ["Work began in spring and is run by the port authority."]],
            [["The Harbour project budget is 12 million euros for the whole renewal."],
             ["The city council approved the budget in its June session."]],
        ])
        bank.ingest_file(pdf)
        result = bank.run("What is the Harbour project budget?")
        assert "12 million" in result.answer and result.citations and result.errors == []
        for citation in result.citations:
            node = bank.node(citation.node_id)  # raises if the cited node is not live
            assert citation.node_id in bank.memory.graph
            assert citation.source == "report.pdf"
            assert citation.pages and set(citation.pages) <= set(node.pages()) <= {1, 2}
        assert any(2 in c.pages for c in result.citations), "the page that holds the budget is cited"

    def test_image_given_to_a_run_is_described_into_memory(self, bank: MemoryBank, tmp_path: Path) -> None:
        path = tmp_path / "site-plan.png"
        image = Image.new("RGB", (160, 100), "white")
        ImageDraw.Draw(image).ellipse((40, 20, 120, 80), outline="black", width=3)
        image.save(path)
        result = bank.run("What does the site plan show?", files=[path])
        first = result.insight_doc.completed_tasks[0]
        assert (first.type, first.status) == (TaskType.IMAGE_RECOGNITION, TaskStatus.SUCCESS)
        (node,) = [n for n in bank.snapshot().nodes if n.kind == "image"]
        assert node.source_names == ("site-plan.png",) and node.id in result.new_node_ids
        assert not bank.images.pending(), "the image no longer waits"
