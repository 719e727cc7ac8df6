"""One set of bounds at every entry: a name, heading or model output too long for the export schema is shortened
where it comes in (a file name keeps its extension), so the store can always write what the memory holds.

Each case ends the same way: the memory built before the hostile input is still there, the task saves without
an error, and a reopen of the store finds exactly the memory the bank held (the bug was a writer that died on a
1,001-character source name and saved nothing more, while `close()` reported success).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.limits import (
    MAX_LINE,
    MAX_NAME,
    MAX_SECTION_DEPTH,
    MAX_SOURCE_NAME,
    MAX_TASK_NAME,
    shorten_name,
)
from memory_bank.memory.query_graph import Source
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.store import SqlTaskStore
from tests.support.fake_openai import FakeOpenAI
from tests.support.scripted_llm import ScriptedLLM

from .stored import node_ids, reopened_equal, source_names, stored_bank
from .support import NOTES, SECRET

ROOT = Path(__file__).resolve().parents[2]
LENGTHS = [1_001, 100_000]
TEXT = "The DELTA gateway routes traffic between sites.\n\nThe OMEGA tank holds forty litres."


def _saved(bank: MemoryBank) -> None:
    bank.flush()
    status = bank.save_status()
    assert status is not None and status.ok, status


@pytest.mark.parametrize("length", LENGTHS)
def test_a_long_source_name_through_the_api_is_shortened_and_saved(tmp_path: Path, length: int) -> None:
    bank, store, settings = stored_bank(tmp_path)
    before = node_ids(bank)
    name = "n" * length
    new = bank.ingest_text(TEXT, source=name)
    assert new and before <= node_ids(bank)
    assert all(len(n) <= MAX_SOURCE_NAME for n in source_names(bank))
    assert shorten_name(name) in source_names(bank)
    _saved(bank)
    assert len(json.dumps(bank.export())) > 0, "the live export works too"
    reopened_equal(bank, store, settings)


@pytest.mark.parametrize("length", LENGTHS)
def test_a_long_file_name_given_to_ingest_file_keeps_its_extension(tmp_path: Path, length: int) -> None:
    bank, store, settings = stored_bank(tmp_path)
    before = node_ids(bank)
    doc = tmp_path / "doc.md"
    doc.write_text("# OMEGA\n\nThe OMEGA tank holds forty litres.\n\n## DELTA\n\nThe DELTA gateway routes traffic.")
    assert bank.ingest_file(doc, name="m" * length + ".md")
    assert before <= node_ids(bank)
    long_names = [n for n in source_names(bank) if n.startswith("mmm")]
    assert long_names and all(len(n) == MAX_SOURCE_NAME and n.endswith("….md") for n in long_names)
    sections = {s.section for n in bank.memory.graph.nodes() for s in n.sources if s.name in long_names}
    assert ("OMEGA",) in sections, "read as Markdown: the extension that tells the kind survived the cut"
    _saved(bank)
    (summary,) = store.list_tasks([bank.task_id or ""])
    assert all(len(s) <= MAX_SOURCE_NAME for s in summary.sources)
    reopened_equal(bank, store, settings)


@pytest.mark.parametrize("stem", ["u" * 1_001, "u" * 100_000, "睳" * 1_001], ids=["1001", "100000", "wide"])
def test_a_crafted_upload_name_is_stored_under_a_safe_name_with_its_extension(tmp_path: Path, stem: str) -> None:
    """The upload is saved under a name the file system takes (it counts bytes: 120 CJK characters are too
    many) and that keeps its extension, then run like any file."""
    from ui.session import TaskSession, save_upload

    bank, store, settings = stored_bank(tmp_path)
    before = node_ids(bank)
    session = TaskSession(settings=settings, workdir=tmp_path / "session")
    path = save_upload(session, "../" + stem + ".md", b"# OMEGA\n\nThe OMEGA tank holds forty litres.")
    assert path.parent.parent == session.uploads and path.name.endswith(".md")
    assert len(path.name) <= 120 and len(path.name.encode()) <= 255
    result = bank.run("How much does the OMEGA tank hold?", files=[path])
    assert not result.errors and result.new_node_ids
    assert before <= node_ids(bank)
    (run,) = bank.stored_runs()
    assert run.inputs["files"][0]["name"] == path.name
    _saved(bank)
    reopened_equal(bank, store, settings)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "OPENAI_", "MEMORY_BANK_"))}
    env.update(PYTHONPATH=str(ROOT), EMBEDDING_MODEL_PATH=str(cwd / "no-model"), LLM_API_KEY=SECRET)
    return subprocess.run([sys.executable, "-m", "memory_bank", "ask", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("length", LENGTHS)
def test_the_cli_refuses_a_name_the_system_cannot_take_in_one_short_line(tmp_path: Path, length: int) -> None:
    proc = _cli("x" * length + ".txt", "-q", "What is it?", "--quiet", cwd=tmp_path)
    assert proc.returncode == 2
    [line] = [x for x in proc.stderr.splitlines() if x.startswith("error:")]
    assert "Traceback" not in proc.stderr and "File name too long" in line
    assert len(line) < 400 and line.rstrip().endswith(".txt: File name too long")


def test_the_cli_ingests_the_longest_name_a_file_can_have_and_exports_it(tmp_path: Path) -> None:
    folder = tmp_path
    for i in range(6):  # a long path too: about 1,500 characters
        folder = folder / (f"{i}" * 250)
    folder.mkdir(parents=True)
    doc = folder / ("y" * 251 + ".txt")  # 255 bytes: the longest a Linux file name can be
    doc.write_text(NOTES, encoding="utf-8")
    out = tmp_path / "memory.json"
    proc = _cli(str(doc), "-q", "What does the BETA valve do?", "--export", str(out), "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {s["name"] for n in data["query_graph"]["nodes"] for s in n["sources"]} == {doc.name}
    again = MemoryBank.from_export(data, embedder=HashingEmbedder())
    assert again.snapshot().counts["nodes"] == len(data["query_graph"]["nodes"]) > 0


def test_a_heading_of_30000_characters_is_shortened_and_saved(tmp_path: Path) -> None:
    bank, store, settings = stored_bank(tmp_path)
    before = node_ids(bank)
    doc = tmp_path / "huge-heading.md"
    doc.write_text("# " + "Word " * 6_000 + "\n\nThe OMEGA tank holds forty litres.\n\n## DELTA\n\nIt routes.")
    assert bank.ingest_file(doc)
    assert before <= node_ids(bank)
    titles = [t for n in bank.memory.graph.nodes() for s in n.sources for t in s.section]
    assert titles and max(len(t) for t in titles) == MAX_LINE
    _saved(bank)
    reopened_equal(bank, store, settings)


def test_a_section_path_deeper_than_the_schema_keeps_its_top_and_its_own_heading() -> None:
    path = tuple(f"{i} heading" for i in range(40))
    source = Source(name="doc.pdf", section=path)
    assert len(source.section) == MAX_SECTION_DEPTH
    assert source.section[0] == "0 heading" and source.section[-1] == "39 heading"


class OversizedModel(ScriptedLLM):
    """A model whose topics, keywords and planned sub-tasks are far longer than any line the memory keeps."""

    def _classification(self, text: str, request) -> str:  # noqa: ANN001
        out = json.loads(super()._classification(text, request))
        for topic in out["topics"]:
            topic["context"] = "topic " * 6_000
            topic["keywords"] = ["k" * 25_000, *topic["keywords"]]
        return json.dumps(out)

    def _planning(self, text: str, request) -> str:  # noqa: ANN001
        out = json.loads(super()._planning(text, request))
        for task in out["pending_tasks"]:
            task["description"] = "answer " + "at length " * 3_000
        return json.dumps(out)


def test_model_output_longer_than_the_schema_is_shortened_and_saved(tmp_path: Path) -> None:
    with FakeOpenAI(handler=OversizedModel(per_cluster=1)) as fake:
        settings = fake.settings(llm_api_key=SECRET, data_dir=tmp_path / "data")
        store = SqlTaskStore(settings.data_dir)
        bank = MemoryBank(settings, store=store, embedder=HashingEmbedder())
        assert bank.ingest_text(NOTES, source="notes.txt")
        before = node_ids(bank)
        result = bank.run("What does the BETA valve do?", text=TEXT)
        assert before <= node_ids(bank)
        nodes = list(bank.memory.graph.nodes())
        assert max(len(n.context) for n in nodes) == MAX_LINE
        assert max(len(k) for n in nodes for k in n.keywords) == MAX_LINE
        planned = [t.description for t in result.insight_doc.completed_tasks]
        assert planned and max(len(d) for d in planned) <= MAX_LINE
        _saved(bank)
        reopened_equal(bank, store, settings)


def test_an_imported_task_name_is_capped_like_a_rename(tmp_path: Path) -> None:
    bank, store, settings = stored_bank(tmp_path)
    exported = bank.export()
    huge = "import: " + "i" * 1_000_000
    imported = MemoryBank.from_export(exported, settings, store=store, embedder=HashingEmbedder(), task_name=huge)
    names = {t.id: t.name for t in store.list_tasks()}
    assert len(names[imported.task_id or ""]) == MAX_TASK_NAME and names[imported.task_id or ""].startswith("import: ")
    store.rename_task(bank.task_id or "", "r" * 1_000_000)
    assert len({t.id: t.name for t in store.list_tasks()}[bank.task_id or ""]) == MAX_TASK_NAME
    assert imported.export()["query_graph"] == exported["query_graph"]
    reopened_equal(imported, store, settings)
    reopened_equal(bank, store, settings)


def test_limits_are_the_schema_s_limits() -> None:
    """The schema reads its bounds from `limits`: a name one character over the entry bound is refused on import,
    so an entry that shortens less than the schema allows would show up here."""
    from memory_bank.errors import ImportFormatError
    from memory_bank.memory.export import import_memory

    bank = MemoryBank(Settings(), embedder=HashingEmbedder())
    bank.ingest_text(TEXT, source="ok.txt")
    doc = bank.export()
    doc["query_graph"]["nodes"][0]["sources"][0]["name"] = "z" * (MAX_NAME + 1)
    with pytest.raises(ImportFormatError, match=r"sources\.0\.name"):
        import_memory(doc)
    doc["query_graph"]["nodes"][0]["sources"][0]["name"] = "z" * MAX_NAME
    assert import_memory(doc).graph.nodes()
