"""A pathological file is cut by the per-document time budget (issue 23 §6): the reading stops between chunks,
what was built stays, and the run log says where it stopped, in pages when the document has them. The budget in
these tests is tiny, so the first wave is all that runs; what is checked is counted, never timed."""

from __future__ import annotations

from pathlib import Path

from memory_bank import ReadingStopped, Settings
from tests.loaders.pdf_raw import body_lines, write_raw_pdf
from ui.worker import RunMonitor

from .support import make_bank, within_deadline


def _cut(tmp_path: Path, path: Path) -> tuple[list[str], ReadingStopped, object]:
    bank = make_bank(tmp_path / "bank", ingest_time_budget=1e-9, agent_window=512)
    events: list = []
    bank.subscribe(events.append)
    ids = within_deadline(lambda: bank.ingest_file(path))
    [stop] = [e for e in events if isinstance(e, ReadingStopped)]
    return ids, stop, bank


def test_the_default_budget_is_two_minutes() -> None:
    assert Settings().ingest_time_budget == 120


def test_a_one_line_markdown_file_is_cut_and_keeps_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "one-line.md"
    path.write_text("ALPHA pumps **move** water [every](hour) and `the` BETA valve closes. " * 8_000,
                    encoding="utf-8")
    ids, stop, bank = _cut(tmp_path, path)
    assert (stop.source, stop.unit, stop.done) == ("one-line.md", "parts", 1) and stop.total > 10
    assert stop.message.startswith(f"Stopped reading one-line.md after 1e-09 s: 1 of {stop.total} parts read.")
    assert "INGEST_TIME_BUDGET" in stop.message and "what was read is kept" in stop.message
    [report] = bank.reports
    assert ids and report.node_ids == ids and report.stopped.message == stop.message
    assert {n.id for n in bank.snapshot().nodes} >= set(ids), "what was built stays in memory"


def test_a_pdf_is_cut_in_pages_and_the_run_page_log_shows_it(tmp_path: Path) -> None:
    lines = [f"Line {i}: the ALPHA pump on this page moves water every hour to the BETA tank." for i in range(40)]
    path = write_raw_pdf(tmp_path / "long.pdf", [body_lines(740, lines) for _ in range(12)])
    ids, stop, _ = _cut(tmp_path, path)
    assert stop.unit == "pages" and stop.total == 12 and 1 <= stop.done < 12 and ids
    assert f"{stop.done} of 12 pages read" in stop.message
    monitor = RunMonitor("What does the pump do?", ("long.pdf",))
    monitor.on_event(stop)
    [line] = monitor.view().errors
    assert line.text == stop.message
