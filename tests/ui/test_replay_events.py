"""The run log → the timeline's compact events: a live bank's log, an imported one, and a log that lies."""

from __future__ import annotations

import json

from memory_bank import MemoryBank, Settings
from ui.replay import MAX_EVENTS, replay_events

NOTES = ("Northwind project overview\n\nThe Northwind project budget is 5 million dollars for the fiscal year "
         "2021, approved by the steering board.\n\nZero trust plan\n\nEach access request is evaluated by the "
         "policy engine before a session is granted.\n")


def test_an_imported_memory_replays_its_own_history(embedder, tmp_path) -> None:  # noqa: ANN001
    bank = MemoryBank(Settings(temp_dir=str(tmp_path)), embedder=embedder, workdir=tmp_path / "a")
    bank.ingest_text(NOTES, source="notes.md")
    live = replay_events(bank.event_log())
    added = [e[2] for e in live if e[1] == "n"]
    assert added and set(added) <= {n.id for n in bank.snapshot().nodes}
    assert all(e[0] > 1e9 for e in live)  # wall-clock seconds, oldest first
    assert [e[0] for e in live] == sorted(e[0] for e in live)

    imported = MemoryBank.from_export(json.dumps(bank.export()), Settings(temp_dir=str(tmp_path)),
                                      embedder=embedder, workdir=tmp_path / "b")
    assert replay_events(imported.event_log()) == live


def test_a_log_from_outside_is_taken_only_where_it_makes_sense() -> None:
    log = [{"kind": "node_added", "ts": 5.0, "node_id": "a", "context": "x" * 500},
           {"kind": "node_added", "ts": "soon"},  # no id: left out
           {"kind": "edge_added", "ts": float("nan"), "a": "a", "b": "b"},
           {"kind": "nodes_merged", "ts": 6.0, "new_node_id": "m", "merged_ids": "not a list"},
           {"kind": "conflict_flagged", "ts": 7.0, "conflict_id": "c", "node_a": "a", "node_b": "b",
            "description": "<script>x</script>"},
           {"kind": "progress", "ts": 8.0, "stage": "embed"}]
    events = replay_events(log)
    assert [e[1] for e in events] == ["n", "e", "c"]
    assert len(events[0][4]) <= 90 and events[1][0] == 0.0  # cut short; a time that is no number is 0
    assert events[2][4] == "<script>x</script>"  # text stays text: the component sets it with textContent
    assert len(replay_events([{"kind": "edge_added", "a": "a", "b": str(i)} for i in range(MAX_EVENTS + 5)])) \
        == MAX_EVENTS
