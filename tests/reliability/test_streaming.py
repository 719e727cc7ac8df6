"""A streamed answer costs in proportion to its length (issue 23 §3): each `AnswerDelta` carries only its new
text, the deltas are kept in neither the bus's log nor the store (the finished answer is), both logs are
bounded, and an answer longer than `max_answer_chars` is cut with a marker, so its export imports again.

The model is the scripted OpenAI-compatible server, streaming a few characters a chunk through the real SDK;
the store is real SQLite, counted with `sqlite3`. Sizes are counted, never timed."""

from __future__ import annotations

import json
import sqlite3
from itertools import accumulate
from pathlib import Path

import pytest

from memory_bank import AnswerDelta, AnswerDraft, CancelToken, MemoryBank, Progress, Settings, SqlTaskStore
from memory_bank.engines.llm.client import Completion, MeteredClient, UsageMeter
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.llm.react import ReactAgent
from memory_bank.engines.models import ExecutionInput
from memory_bank.engines.protocol.answer_cap import cap_answer, cut_marker
from memory_bank.engines.protocol.answer_stream import AnswerStream
from memory_bank.engines.protocol.react_format import Step
from memory_bank.errors import BudgetExceeded, RunCancelled
from memory_bank.events import EventBus
from memory_bank.memory.import_rules import MAX_JSON_STRING
from memory_bank.memory.insight_doc import PendingTask
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.store import writes
from memory_bank.text.buffer import TextBuffer
from memory_bank.tools.base import ToolBox
from tests.support.fake_openai import FakeOpenAI, RecordedRequest, Reply

from .support import within_deadline

QUESTION = "What does the ALPHA pump do?"
NOTES = "The ALPHA pump moves water every hour."


def prose(chars: int) -> str:
    """An answer of exactly `chars` characters, with no space at either end."""
    line = "The ALPHA pump moves water every hour and the BETA valve closes at night. "
    return (line * (chars // len(line) + 1))[: chars - 1] + "."


def answering(answer: str, piece: int = 4):  # noqa: ANN201 - a FakeOpenAI handler
    """A model whose every reply is `answer` in <answer> tags, streamed `piece` characters a chunk."""
    return lambda _request: Reply(text=f"<answer>{answer}</answer>", piece=piece)


def answers_bank(fake: FakeOpenAI, tmp_path: Path, **overrides: object) -> MemoryBank:
    """The LLM writes the answer (through the streaming ReAct loop); ingestion stays offline."""
    settings = fake.settings(**overrides).with_preset("answers")
    return MemoryBank(settings, embedder=HashingEmbedder(), workdir=tmp_path / "work")


def heard_deltas(bank: MemoryBank) -> list[AnswerDelta]:
    deltas: list[AnswerDelta] = []
    bank.subscribe(lambda e: deltas.append(e) if isinstance(e, AnswerDelta) else None)
    return deltas


def folded(deltas: list[AnswerDelta]) -> str:
    draft = AnswerDraft()
    for delta in deltas:
        draft.add(delta)
    return draft.text


def test_each_delta_carries_only_the_new_text(tmp_path: Path) -> None:
    answer = prose(4_000)
    with FakeOpenAI(handler=answering(answer)) as fake:
        bank = answers_bank(fake, tmp_path)
        deltas = heard_deltas(bank)
        result = within_deadline(lambda: bank.run(QUESTION, text=NOTES))
    assert result.answer == answer
    assert len(deltas) >= len(answer) // 8, "streamed a few characters at a time"
    assert sum(len(d.text) for d in deltas) == len(answer), "every character once (snapshots: ~2,000,000)"
    assert [d.offset for d in deltas] == list(accumulate([0] + [len(d.text) for d in deltas[:-1]]))
    assert folded(deltas) == answer
    assert not [e for e in bank.events.log() if isinstance(e, AnswerDelta)], "heard as they come, not logged"


def _stored_rows(tmp_path: Path, answer: str) -> tuple[int, int, str]:
    """(event rows of the task, answer_delta rows, the stored run's answer) after one streamed run."""
    store = SqlTaskStore(tmp_path / "data")
    with FakeOpenAI(handler=answering(answer)) as fake:
        bank = MemoryBank(fake.settings().with_preset("answers"), embedder=HashingEmbedder(), store=store)
        within_deadline(lambda: bank.run(QUESTION, text=NOTES))
        [run] = bank.stored_runs()
        bank.close()
    with sqlite3.connect(tmp_path / "data" / "tasks.sqlite3") as db:
        rows = db.execute("SELECT count(*) FROM events WHERE task_id = ?", (bank.task_id,)).fetchone()[0]
        deltas = db.execute("SELECT count(*) FROM events WHERE data LIKE '%answer_delta%'").fetchone()[0]
    return rows, deltas, (run.result or {}).get("answer", "")


def test_a_streamed_answer_is_stored_in_as_many_rows_whatever_its_length(tmp_path: Path) -> None:
    """A 4,000-character answer streamed 4 characters at a time stored 1,000 event rows (one per delta, each with
    the whole text so far: 2.1 MB); now it stores as many rows as a 400-character one, and the answer itself."""
    short_answer, long_answer = prose(400), prose(4_000)
    short_rows, short_deltas, _ = _stored_rows(tmp_path / "short", short_answer)
    long_rows, long_deltas, stored = _stored_rows(tmp_path / "long", long_answer)
    assert short_deltas == long_deltas == 0
    assert long_rows == short_rows, "O(1) rows in the answer's length"
    assert stored == long_answer


def test_the_bus_log_is_bounded_and_keeps_no_delta() -> None:
    bus = EventBus(keep=50)
    heard: list = []
    bus.subscribe(heard.append)
    for i in range(500):
        bus.publish(Progress(stage="classify", done=i))
        bus.publish(AnswerDelta(text="abcd", offset=4 * i))
    log = bus.log()
    assert len(log) == 50 and all(isinstance(e, Progress) for e in log) and log[-1].done == 499
    assert len(heard) == 1_000, "every event still reaches the subscribers"


def test_the_stored_run_log_is_bounded_and_keeps_every_answer(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(writes, "MAX_LOG_EVENTS", 10)
    store = SqlTaskStore(tmp_path / "data")
    questions = [f"What does the pump do, part {i}?" for i in range(3)]
    with FakeOpenAI(handler=answering(prose(200))) as fake:
        settings = fake.settings().with_preset("answers")
        bank = MemoryBank(settings, embedder=HashingEmbedder(), store=store)
        for i, question in enumerate(questions):
            within_deadline(lambda q=question, i=i: bank.run(q, text=f"Note {i}: " + NOTES))
        written = len(bank.events.log())
        bank.close()
    with sqlite3.connect(tmp_path / "data" / "tasks.sqlite3") as db:
        kinds = [json.loads(d)["kind"] for (d,) in db.execute("SELECT data FROM events WHERE task_id = ?",
                                                              (bank.task_id,))]
    assert kinds.count("answer") == 3, "every answer is kept: an export's runs are rebuilt from them"
    assert written > 2 * (10 + 3) and len(kinds) - 3 <= 10, "the oldest other events went"
    reopened = MemoryBank.open(bank.task_id, store, settings, embedder=HashingEmbedder())
    imported = MemoryBank.from_export(json.dumps(reopened.export()), settings, embedder=HashingEmbedder(),
                                      store=store)
    assert [r.question for r in imported.stored_runs()] == questions
    reopened.close()
    imported.close()


def test_an_answer_past_the_cap_is_cut_with_a_marker_and_the_draft_shows_the_same(tmp_path: Path) -> None:
    answer = prose(5_000)
    with FakeOpenAI(handler=answering(answer, piece=16)) as fake:
        bank = answers_bank(fake, tmp_path, max_answer_chars=1_000)
        deltas = heard_deltas(bank)
        result = within_deadline(lambda: bank.run(QUESTION, text=NOTES))
    assert result.answer == answer[:1_000] + cut_marker(1_000)
    assert cap_answer(result.answer, 1_000) is result.answer, "an answer cut once is not cut (copied) again"
    assert "the answer was cut here" in result.answer and "1,000 characters" in result.answer
    assert folded(deltas) == result.answer, "the page's draft is what the run keeps"
    assert sum(len(d.text) for d in deltas) == len(result.answer), "nothing handed on past the cap"
    [ready] = [e for e in bank.events.log() if e.kind == "answer"]
    assert ready.answer == result.answer


def test_an_export_with_an_answer_cut_at_the_largest_cap_imports_again(tmp_path: Path) -> None:
    """A 50 MB answer made an export that no longer imported; the cap keeps any answer within the export's
    bounds, at the largest cap a person can set."""
    largest = next(m.le for m in Settings.model_fields["max_answer_chars"].metadata if hasattr(m, "le"))
    assert largest + len(cut_marker(largest)) <= MAX_JSON_STRING
    with pytest.raises(ValueError):
        Settings(max_answer_chars=largest + 1)
    answer = prose(largest + 200_000)
    with FakeOpenAI(handler=answering(answer, piece=65_536)) as fake:
        bank = answers_bank(fake, tmp_path, max_answer_chars=largest)
        result = within_deadline(lambda: bank.run(QUESTION, text=NOTES))
    assert result.answer == answer[:largest] + cut_marker(largest)
    exported = json.dumps(bank.export())
    imported = MemoryBank.from_export(exported, bank.settings, embedder=HashingEmbedder(),
                                      workdir=tmp_path / "imported")
    [ready] = [e for e in imported.event_log() if e["kind"] == "answer"]
    assert ready["answer"] == result.answer
    assert imported.snapshot().counts["nodes"] == bank.snapshot().counts["nodes"]


def test_a_retried_stream_starts_the_draft_again(tmp_path: Path) -> None:
    """A stream that breaks is retried from its start: the reader's draft must not keep the broken half."""
    answer = prose(300)
    replies = iter([Reply(text=f"<answer>{prose(900)}</answer>", drop=True, piece=4)])

    def handler(request: RecordedRequest) -> Reply:
        return next(replies, None) or answering(answer)(request)

    with FakeOpenAI(handler=handler) as fake:
        bank = answers_bank(fake, tmp_path)
        deltas = heard_deltas(bank)
        result = within_deadline(lambda: bank.run(QUESTION, text=NOTES))
    assert result.answer == answer
    assert folded(deltas) == answer
    assert any(d.offset == 0 and d is not deltas[0] for d in deltas), "the retry started the draft again"


class EchoesTheKey:
    """An inner client that streams a reply echoing the keys, 3 characters a piece (a key split across pieces)."""

    REPLY = "<answer>keys: sk-llm-123456 and serper-abcdef, jina-zzzzzz.</answer>"

    def complete(self, messages: list, *, on_text=None, **kwargs: object) -> Completion:  # noqa: ANN001
        for start in range(0, len(self.REPLY), 3):
            on_text(self.REPLY[start:start + 3], start)
        return Completion(self.REPLY, 1, 1)


def test_a_key_split_across_streamed_pieces_is_redacted_in_every_piece() -> None:
    settings = Settings(llm_api_key="sk-llm-123456", serper_api_key="serper-abcdef", jina_api_key="jina-zzzzzz")
    metered = MeteredClient(EchoesTheKey(), UsageMeter(10, 10_000), EventBus(), CancelToken(),
                            secrets=settings.secret_values())
    heard: list[tuple[str, int]] = []
    completion = metered.complete([{"role": "user", "content": "hi"}], agent="react", temperature=0.1, top_p=0.8,
                                  on_text=lambda text, offset: heard.append((text, offset)))
    streamed = "".join(text for text, _ in heard)
    assert streamed == completion.text == "<answer>keys: *** and ***, ***.</answer>"
    assert [offset for _, offset in heard] == list(accumulate([0] + [len(t) for t, _ in heard[:-1]]))
    assert all(s not in streamed for s in settings.secret_values())


def _streamed(reply: str, limit: int, piece: int) -> tuple[Completion, str, int]:
    """`reply` streamed by the scripted server through the real SDK to an `AnswerStream`: the completion the
    client read, the answer heard, and how many requests were made."""
    heard: list[str] = []
    stream = AnswerStream(lambda text, _offset: heard.append(text), limit)
    with FakeOpenAI(handler=lambda _request: Reply(text=reply, piece=piece)) as fake:
        completion = OpenAIClient(fake.settings()).complete([{"role": "user", "content": "hi"}], agent="react",
                                                            temperature=0.1, top_p=0.8, on_text=stream.hear)
        requests = len(fake.chat_requests)
    return completion, "".join(heard), requests


def test_a_reply_that_writes_on_past_its_answer_is_read_no_further() -> None:
    """What comes after a closed answer is never used (an answer that opened first wins): the client stops
    reading there, and the connection is closed, so the server stops generating."""
    answer = prose(300)
    completion, heard, requests = _streamed(f"<answer>{answer}</answer>" + "and on " * 40_000, 10_000, 64)
    assert heard == answer and requests == 1
    assert completion.text.startswith(f"<answer>{answer}</answer>")
    assert len(completion.text) < len(answer) + len("<answer></answer>") + 2 * 64, "read a chunk past it at most"


def test_a_reply_past_the_answer_cap_is_read_to_the_cap_only() -> None:
    answer = prose(200_000)
    completion, heard, _ = _streamed(f"<answer>{answer}</answer>", 1_000, 64)
    assert heard == answer[:1_000] + cut_marker(1_000)
    assert len(completion.text) < 1_000 + len("<answer>") + 2 * 64 + 64, "not the 200,000 characters"


@pytest.mark.parametrize("stop", [RunCancelled("the run was cancelled"), BudgetExceeded("out of tokens")])
def test_a_stop_raised_while_the_answer_streams_is_raised_as_itself(stop: Exception) -> None:
    """The run cancelled (or out of budget) while the answer streams stops the call as that, never as a broken
    stream to retry."""
    pieces: list[str] = []

    def listener(text: str, _offset: int) -> None:
        pieces.append(text)
        if len(pieces) == 3:
            raise stop

    with FakeOpenAI(handler=answering(prose(5_000), piece=16)) as fake:
        client = OpenAIClient(fake.settings(llm_max_retries=3))
        with pytest.raises(type(stop), match=str(stop)):
            client.complete([{"role": "user", "content": "hi"}], agent="react", temperature=0.1, top_p=0.8,
                            on_text=listener)
        assert len(fake.chat_requests) == 1, "not retried"
    assert len(pieces) == 3


def test_the_answering_reply_is_kept_once_and_an_ascii_answer_stays_ascii(tmp_path: Path) -> None:
    """What a run keeps of a long answer, counted: the ReAct transcript holds the answer itself in place of its
    reply (the same string, not a second copy), the answer is cut out of the reply once, already capped, and the
    cut marker is ASCII, so a cut ASCII answer stays one byte a character (one '…' made all of it two)."""
    answer = prose(5_000)
    with FakeOpenAI(handler=lambda _request: Reply(text=f"  <answer>\n{answer}  \n</answer>\n", piece=16)) as fake:
        settings = fake.settings(max_answer_chars=1_000)
        heard: list[str] = []
        react = ReactAgent(OpenAIClient(settings), settings, ToolBox([]),
                           on_answer_text=lambda text, _offset: heard.append(text))
        result = react.run(ExecutionInput(prompt=QUESTION, task=PendingTask(description=QUESTION), task_goal=QUESTION))
    assert result.answer == answer[:1_000] + cut_marker(1_000) == "".join(heard)
    assert result.messages[-1]["role"] == "assistant" and result.messages[-1]["content"] is result.answer
    assert cut_marker(1_000).isascii() and result.answer.isascii()
    assert cap_answer(result.answer, 1_000) is result.answer


def test_a_step_copies_nothing_it_does_not_keep() -> None:
    """`Step` reads a reply without copying it: with nothing to strip, the text that goes back into the
    conversation is the reply itself; an answer within the cap is one slice, with the spaces around it left out."""
    reply = "<think>plan</think>" + '<tool_call>{"name": "search", "arguments": {}}</tool_call>'
    plain = "I will look it up."
    assert Step(plain).kept_text is plain
    assert Step(reply).kept_text == '<tool_call>{"name": "search", "arguments": {}}</tool_call>'
    assert Step(" <answer>\n 1995 \n</answer> ", 10).answer == "1995"
    assert Step("<answer>" + "x" * 50, 10).answer == "x" * 10 + cut_marker(10)
    assert Step("<answer>" + "x" * 10, 10).answer == "x" * 10, "an answer of exactly the cap is not cut"


def test_a_text_buffer_reads_back_exactly_what_was_written() -> None:
    """The buffer keeps the text as UTF-8 bytes: wide characters, a character outside the BMP and a lone
    surrogate (a model can stream one) come back as they went in, and its length counts characters."""
    pieces = ["The ", "café ", "costs ", "☕ ", "\ud800", " 𝄞", "."]
    buffer = TextBuffer()
    for piece in pieces:
        buffer.write(piece)
    assert buffer.getvalue() == "".join(pieces) and len(buffer) == len("".join(pieces))
    draft = AnswerDraft()
    draft.add(AnswerDelta(text="".join(pieces), offset=0))
    draft.add(AnswerDelta(text=" again", offset=5))  # taken up from earlier on: the rest is dropped
    assert draft.text == "The c again" and len(draft) == len("The c again")
