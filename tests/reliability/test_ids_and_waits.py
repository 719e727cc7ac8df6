"""Strict ids (matched in full: "local\\n" once passed a `^…$` check and made a folder with a newline) and bounded
waits (a server's `Retry-After: 3600` once held every call of a run for minutes of backoff)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from memory_bank import MemoryBank
from memory_bank.control import CancelToken
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.errors import ImportFormatError, LLMError, LongTermStoreError, RunCancelled, TaskNotFound
from memory_bank.long_term.memory import LongTermMemory
from memory_bank.memory.export import DROPPED_NOTE
from memory_bank.retrieval.embedding import HashingEmbedder
from tests.support.fake_openai import FakeOpenAI, error, ok
from tests.support.scripted_llm import ScriptedLLM

from .stored import node_ids, reopened_equal, stored_bank
from .support import NOTES, SECRET

HOSTILE_IDS = ["local\n", "local\r", "\nlocal", "../local", "lo/cal", "", "a" * 65, "lo cal", "ｌocal", "local\x00"]
USER = [{"role": "user", "content": "hello"}]
GUARD = 60.0  # a hang guard for the threads below, never a timing


@pytest.mark.parametrize("user_id", HOSTILE_IDS)
def test_a_user_id_must_match_in_full(tmp_path: Path, user_id: str) -> None:
    root = tmp_path / "long_term"
    LongTermMemory(root, "local", embedder=HashingEmbedder())
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    with pytest.raises(LongTermStoreError, match="user id"):
        LongTermMemory(root, user_id, embedder=HashingEmbedder())
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before, "no folder made, none touched"
    assert not any("\n" in p.name for p in root.rglob("*"))


@pytest.mark.parametrize("task_id", HOSTILE_IDS)
def test_a_task_id_must_match_in_full(tmp_path: Path, task_id: str) -> None:
    bank, store, settings = stored_bank(tmp_path)
    with pytest.raises(ValueError, match="not a task id"):
        store.task_folder(task_id)
    with pytest.raises(TaskNotFound):
        MemoryBank.open(task_id, store, settings, embedder=HashingEmbedder())
    assert not any("\n" in p.name for p in (tmp_path / "data").rglob("*"))
    reopened_equal(bank, store, settings)


def test_an_imported_id_or_attachment_path_with_a_trailing_newline_is_refused(tmp_path: Path) -> None:
    bank, store, settings = stored_bank(tmp_path)
    exported = bank.export()
    bad_id = {**exported, "query_graph": {**exported["query_graph"], "nodes": [
        {**exported["query_graph"]["nodes"][0], "id": exported["query_graph"]["nodes"][0]["id"] + "\n"}]}}
    with pytest.raises(ImportFormatError, match=r"query_graph\.nodes\.0\.id"):
        MemoryBank.from_export(bad_id, settings, store=store, embedder=HashingEmbedder())

    entries = exported["interaction_tree"]["entries"]
    with_file = next(e for e in entries if e["attachments"])
    path = with_file["attachments"][0]["path"]
    with_file["attachments"][0]["path"] = path + "\n"
    imported = MemoryBank.from_export(exported, embedder=HashingEmbedder())
    (attachment,) = [a for e in imported.memory.tree.entries.values() for a in e.attachments]
    assert attachment.path == "" and DROPPED_NOTE in attachment.description
    assert len(store.list_tasks()) == 1, "the refused import left no task behind"
    reopened_equal(bank, store, settings)


# -- Retry-After ---------------------------------------------------------------------------------------------


def test_retry_after_an_hour_fails_the_call_without_waiting(fake: FakeOpenAI) -> None:
    waits: list[float] = []
    client = OpenAIClient(fake.settings(llm_max_retries=4, llm_backoff_max=30.0), sleep=waits.append)
    fake.push(error(429, "slow down", retry_after="3600"), ok("never asked for"))
    with pytest.raises(LLMError, match=r"asks to retry after 3,600 s, longer than the 30 s this app waits"):
        client.complete(USER, agent="structure", temperature=0.1, top_p=0.8)
    assert waits == [] and len(fake.chat_requests) == 1


def test_a_wait_within_the_cap_is_taken_once_and_a_cancel_cuts_it(fake: FakeOpenAI) -> None:
    token = CancelToken()
    waits: list[float] = []

    def wait(seconds: float) -> None:
        waits.append(seconds)
        token.wait(seconds)

    client = OpenAIClient(fake.settings(llm_max_retries=4, llm_backoff_max=300.0), sleep=wait)
    fake.push(error(503, retry_after="200"), ok("too late"))
    outcome: list[BaseException | str] = []

    def call() -> None:
        try:
            outcome.append(client.complete(USER, agent="structure", temperature=0.1, top_p=0.8).text)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    while not waits and worker.is_alive():
        worker.join(0.01)
    token.cancel()
    worker.join(GUARD)
    assert not worker.is_alive(), "the cancel did not cut the wait short"
    assert waits == [200.0] and len(fake.chat_requests) == 1
    assert len(outcome) == 1 and isinstance(outcome[0], RunCancelled)


def test_a_run_against_a_server_asking_for_an_hour_stops_at_once_keeping_its_memory(tmp_path: Path) -> None:
    model = ScriptedLLM(per_cluster=1)
    faulty = threading.Event()

    def handler(request):  # noqa: ANN001, ANN202
        return error(429, "come back later", retry_after="3600") if faulty.is_set() else model(request)

    with FakeOpenAI(handler=handler) as fake:
        settings = fake.settings(llm_api_key=SECRET, llm_max_retries=4, llm_backoff_max=30.0,
                                 llm_max_consecutive_failures=2, llm_concurrency=1, data_dir=tmp_path / "data")
        from memory_bank.store import SqlTaskStore

        store = SqlTaskStore(settings.data_dir)
        bank = MemoryBank(settings, store=store, embedder=HashingEmbedder())
        assert bank.ingest_text(NOTES, source="notes.txt")
        before, asked = node_ids(bank), len(fake.chat_requests)
        faulty.set()
        result = bank.run("What does the BETA valve do?")
        assert result.termination == "endpoint_down" and "3,600 s" in result.stop_reason
        assert len(fake.chat_requests) - asked == 2, "one attempt per call, two calls: no blind retries"
        assert node_ids(bank) == before
        reopened_equal(bank, store, settings)


@pytest.fixture()
def fake():  # noqa: ANN201
    with FakeOpenAI() as server:
        yield server
