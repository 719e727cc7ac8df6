"""Runs wait in line for the server's slots (`MEMORY_BANK_MAX_CONCURRENT_RUNS`): a started run shows its place on
the Run page, Cancel takes it out of the line, and it starts by itself when a slot frees. The slot is held by the
test through the server's own `RunSlots` (the one every session's runs wait in), so nothing depends on how long
another run takes."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from memory_bank import MemoryBank, NodeAdded, RunSlots, Settings
from memory_bank.retrieval.embedding import HashingEmbedder
from ui.tasks import run_slots
from ui.worker import start_resume, start_run

from .test_app_pages import finish_runs, new_app, task_of, wait_for_start

GUARD = 120.0


@pytest.fixture
def one_slot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201 - RunSlots
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    monkeypatch.setenv("MEMORY_BANK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MEMORY_BANK_MAX_CONCURRENT_RUNS", "1")
    return run_slots(Settings(max_concurrent_runs=1))


def _start_notes(one_slot) -> object:  # noqa: ANN001
    at = new_app()
    at.run()
    at.button(key="run-sample-notes").click().run()
    wait_for_start(at)
    return at


def test_a_run_waits_for_the_held_slot_shows_its_place_and_cancel_takes_it_out(one_slot) -> None:  # noqa: ANN001
    held = one_slot.enter()
    try:
        at = _start_notes(one_slot)
        run = task_of(at).current_run
        view = run.monitor.view()
        assert view.status == "queued" and view.ahead == 0 and run.alive
        assert any("Queued: yours is next" in i.value for i in at.info)
        assert one_slot.load() == (1, 1)
        cancel = next(b for b in at.button if b.label == "Cancel")
        cancel.click().run()
        run.join(GUARD)
        assert not run.alive
        view = run.monitor.view()
        assert view.status == "cancelled" and view.result is None and "NodeAdded" not in view.counts
        assert one_slot.load() == (1, 0)
        at.run()
        assert any("Cancelled before it started" in c.value for c in at.caption)
    finally:
        one_slot.leave(held)


def test_a_queued_run_starts_when_the_slot_frees_and_answers(one_slot) -> None:  # noqa: ANN001
    held = one_slot.enter()
    try:
        at = _start_notes(one_slot)
        assert task_of(at).current_run.monitor.view().status == "queued"
    finally:
        one_slot.leave(held)
    finish_runs(at)
    view = task_of(at).current_run.monitor.view()
    assert view.status == "done" and "Northwind" in view.question and view.result.answer
    assert one_slot.load() == (0, 0)


def test_the_worker_runs_one_bank_at_a_time_and_a_failed_run_frees_its_slot(tmp_path: Path) -> None:
    """Three banks on a pool of one: the first run is held inside (its first node blocks), the others wait;
    the one that fails (resume of a task never stored) still gives its slot to the last."""
    slots = RunSlots(1)
    inside, most, lock = [0], [0], threading.Lock()
    hold = threading.Event()

    def bank() -> MemoryBank:
        made = MemoryBank(Settings(engine="offline", temp_dir=str(tmp_path)), embedder=HashingEmbedder())
        made.subscribe(lambda e: hold.wait(GUARD) if isinstance(e, NodeAdded) else None)
        return made

    first_bank, failing_bank, last_bank = bank(), bank(), bank()
    text = "The pump moves 40 litres a minute. The valve was replaced in March."

    def measured(b: MemoryBank):  # noqa: ANN202
        run = b.run

        def wrapped(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            try:
                return run(*args, **kwargs)
            finally:
                with lock:
                    inside[0] -= 1
        b.run = wrapped  # type: ignore[method-assign]
        return b

    first = start_run(measured(first_bank), "How fast is the pump?", text=text, slots=slots)
    failing = start_resume(failing_bank, "never stored", slots=slots)
    last = start_run(measured(last_bank), "When was the valve replaced?", text=text, slots=slots)
    assert [h.monitor.view().status for h in (first, failing, last)] == ["running", "queued", "queued"]
    assert [h.monitor.view().ahead for h in (failing, last)] == [0, 1]
    hold.set()
    for handle in (first, failing, last):
        handle.join(GUARD)
        assert not handle.alive
    assert first.monitor.view().status == "done" and last.monitor.view().status == "done"
    failed = failing.monitor.view()
    assert failed.status == "failed" and failed.error.message == "only a stored task can be resumed"
    assert most[0] == 1 and slots.load() == (0, 0)
