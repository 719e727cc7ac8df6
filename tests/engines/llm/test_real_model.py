"""The LLM engine against the REAL local model (Qwen2.5-Coder-1.5B on llama.cpp, 127.0.0.1), not a script.

`scripts/test.sh` fetches and verifies the model first, so CI runs these; on a machine without the model they
skip with the command that fetches it (and fail under CI, where a skipped real-model test would hide a broken
setup). Assertions are about structure and contracts (typed outputs, ids that exist, how the run ended), never
the model's wording. Sizes are kept small (short replies, a small memory block) so the whole module takes a few
minutes on 2 cores; a busy machine makes it slower, never different.
`python -m pytest -m "not real_model"` leaves them out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.control import CancelToken
from memory_bank.engines.llm.classification import ClassificationAgent
from memory_bank.engines.llm.client import MeteredClient, ResponseSchema, UsageMeter
from memory_bank.engines.llm.local_server import LocalModelServer
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.llm.structure import StructureAgent
from memory_bank.engines.models import ClassificationInput, StructureInput
from memory_bank.engines.protocol.not_found import is_not_found
from memory_bank.events import EventBus
from tests.support.local_model import local_model_server

pytestmark = pytest.mark.real_model

NOTES = sorted((Path(__file__).resolve().parents[3] / "samples" / "northwind").glob("*.md"))
QUESTION = "What is the Northwind project budget, and who approved it?"


@pytest.fixture(scope="module")
def server() -> Iterator[LocalModelServer]:
    local = local_model_server()
    local.start()
    try:
        yield local
    finally:
        local.stop()


def small(server: LocalModelServer, tmp_path: Path, **overrides: object) -> Settings:
    """Settings for the local model with short replies and a small memory block (speed, not behaviour)."""
    base = Settings(data_dir=tmp_path, memory_budget_tokens=400, task_budget_tokens=200, react_max_calls=3,
                    react_reply_tokens=200, max_rounds=4, **overrides)
    return server.settings_for(base)


def test_the_server_takes_a_json_schema_and_the_agents_get_typed_output(server: LocalModelServer,
                                                                       tmp_path: Path) -> None:
    settings = small(server, tmp_path)
    client = OpenAIClient(settings)
    events = EventBus()
    metered = MeteredClient(client, UsageMeter(100, 1_000_000), events, CancelToken())
    text = (NOTES[0].read_text(encoding="utf-8"))  # board-minutes.md: the file the model once dropped
    out = ClassificationAgent(metered, settings).run(ClassificationInput(context=text, source=NOTES[0].name))
    assert client.schema_supported and client.grammar_supported, "llama.cpp takes the schema as a grammar"
    assert out.clusters and all(c.content.strip() and c.context.strip() for c in out.clusters)
    assert all(part in text for c in out.clusters for part in c.content.split("\n\n")), "verbatim content"
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    placed = [sum(p.strip() in c.content for c in out.clusters) for p in paragraphs]
    assert placed == [1] * len(paragraphs), "every paragraph in exactly one cluster"
    cluster = max(out.clusters, key=lambda c: len(c.content))
    summary = StructureAgent(metered, settings).run(StructureInput(content=cluster.content, context=cluster.context,
                                                                   keywords=cluster.keywords))
    assert summary.summary.strip()
    calls = [e for e in events.log() if e.kind == "llm_usage"]
    # the model's output varies between identical calls, so a re-ask may be needed; the schema bounds every
    # reply (one label per passage, numbers from 0), so each agent ends with typed output within its re-asks
    assert 2 <= len(calls) <= 2 * (1 + settings.structured_retries), "typed output within the re-asks"


def test_the_notes_sample_through_the_whole_loop(server: LocalModelServer, tmp_path: Path) -> None:
    """Local model for answers: offline ingestion flags the budget conflict, the offline executor cross-validates
    it, and the real model writes the answer in one grounded call, streamed (issue 22: the ReAct loop took the
    1.5B model minutes on 2 cores)."""
    settings = small(server, tmp_path).with_preset("answers")
    bank = MemoryBank(settings, workdir=tmp_path / "work")
    drafts: list = []
    bank.subscribe(lambda e: drafts.append(e) if e.kind == "answer_delta" else None)
    result = bank.run(QUESTION, files=NOTES)
    log = bank.events.log()
    snap = bank.snapshot()
    assert result.termination == "done", (result.termination, result.errors)
    assert not any("invalid output" in str(e) for e in result.errors), result.errors
    assert [c for c in log if c.kind == "conflict_flagged"], "the copied budget with another figure is a conflict"
    kinds = [t.type.value for t in result.insight_doc.completed_tasks]
    assert "CROSS_VALIDATE" in kinds and kinds[-1] == "NORMAL"
    validated = [t for t in result.insight_doc.completed_tasks if t.type.value == "CROSS_VALIDATE"]
    assert all(t.status.value == "success" for t in validated), validated
    assert all(not c.pending for c in snap.conflicts), "every conflict was cross-validated"
    assert result.answer.strip() and "No answer was produced" not in result.answer
    live = {n.id for n in snap.nodes}
    assert all(c.node_id in live for c in result.citations), "citations point at nodes that exist"
    usage = bank.usage()["per_agent"]
    assert set(usage) == {"answer"} and usage["answer"]["calls"] == 1
    assert drafts, "the reply streamed"
    # the 1.5B model sometimes refuses this two-part question (seen once at load 20): kept as "not found", never
    # an uncited answer; otherwise a cited answer that streamed in pieces
    assert is_not_found(result.answer) or (result.citations and len(drafts) > 1), (result.answer, drafts)


def test_the_local_server_writes_compact_json_when_asked_for_indented(server: LocalModelServer,
                                                                      tmp_path: Path) -> None:
    """The grammar leaves no room for whitespace between JSON tokens, whatever the prompt asks: through
    `response_format` the model indented every key, each newline and indent a token or two to write."""
    client = OpenAIClient(small(server, tmp_path))
    schema = ResponseSchema("Colours", {"type": "object", "properties": {"colours": {
        "type": "array", "items": {"type": "string", "maxLength": 12}, "minItems": 2, "maxItems": 2}},
        "required": ["colours"]})
    reply = client.complete([{"role": "user", "content": "Name two colours as pretty-printed, indented JSON."}],
                            agent="structure", temperature=0.0, top_p=1.0, max_tokens=40, schema=schema)
    assert client.grammar_supported
    assert "\n" not in reply.text and ": " not in reply.text and ", " not in reply.text, reply.text
    assert len(json.loads(reply.text)["colours"]) == 2
