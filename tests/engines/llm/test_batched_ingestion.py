"""Batched LLM ingestion of the notes sample: far fewer calls and prompt tokens, the same memory.

Both runs read samples/northwind through the real `openai` client against the contract suite's scripted model
(which reads prose: figures that differ are a conflict). One item a call with every candidate judged is how
ingestion worked before batching; the defaults batch. Calls and tokens are counted, never timed.
"""

from __future__ import annotations

from pathlib import Path

from memory_bank import MemoryBank
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.engines.contract.scripted_model import ContractLLM
from tests.support.fake_openai import FakeOpenAI
from tests.support.scripted_llm import batch_items

NORTHWIND = sorted((Path(__file__).resolve().parents[3] / "samples" / "northwind").glob("*.md"))
ONE_A_CALL = {"llm_batch_items": 1, "analysis_min_similarity": 0.0}


def ingest(embedder: CachedEmbedder, tmp_path: Path, **overrides: object) -> tuple[dict, dict, FakeOpenAI]:
    with FakeOpenAI(handler=ContractLLM(), prefix_cache=True) as fake:
        bank = MemoryBank(fake.settings(**overrides), embedder=embedder, workdir=tmp_path / str(len(overrides)))
        for path in NORTHWIND:
            bank.ingest_file(path)
        counts, usage = bank.snapshot().counts, bank.meter.snapshot()
        bank.clear()
    return counts, usage, fake


def test_batched_agents_make_fewer_calls_and_build_the_same_memory(embedder: CachedEmbedder,
                                                                   tmp_path: Path) -> None:
    before, before_usage, _ = ingest(embedder, tmp_path, **ONE_A_CALL)
    after, after_usage, fake = ingest(embedder, tmp_path)
    assert after_usage["analysis"]["calls"] < before_usage["analysis"]["calls"]
    # a cluster of a sentence or two is its own summary, batched or not (no call): the notes' few longer ones
    assert after_usage["structure"]["calls"] <= before_usage["structure"]["calls"]
    structure_calls = after_usage["structure"]["calls"]
    assert structure_calls <= len(NORTHWIND)  # at most one a document: each document's clusters share a call
    prompt = sum(u["prompt_tokens"] for u in after_usage.values())
    assert prompt < 0.7 * sum(u["prompt_tokens"] for u in before_usage.values())
    for key in ("nodes", "merges", "conflicts", "pending_conflicts"):
        assert after[key] == before[key], key
    assert after["conflicts"] == 1  # the 5 vs 9 million budget, flagged either way
    batched = [r for r in fake.chat_requests if r.agent == "structure" and batch_items(r.messages[-1]["content"])]
    assert batched, "the clusters went in the batch prompt"


def test_cached_prompt_tokens_are_counted_where_the_endpoint_reports_them(embedder: CachedEmbedder,
                                                                         tmp_path: Path) -> None:
    """The batched prompts start with the same instructions and schema: the provider's cache serves them."""
    _, usage, _ = ingest(embedder, tmp_path)
    assert usage["analysis"]["calls"] >= 2 and usage["analysis"]["cached_tokens"] > 0
    assert all(u["cached_tokens"] <= u["prompt_tokens"] for u in usage.values())


def judged_pairs(fake: FakeOpenAI) -> int:
    """(new node, candidate) pairs the analysis requests carried."""
    text = [r.messages[-1]["content"] for r in fake.chat_requests if r.agent == "analysis"]
    return sum(len(item["candidates"]) for t in text for item in batch_items(t.partition("New nodes (")[2]))


def test_only_candidates_close_enough_are_sent_to_the_llm(embedder: CachedEmbedder, tmp_path: Path) -> None:
    every, _, sent_all = ingest(embedder, tmp_path, analysis_min_similarity=0.0)
    close, _, sent_close = ingest(embedder, tmp_path)
    assert 0 < judged_pairs(sent_close) < judged_pairs(sent_all)
    for key in ("nodes", "merges", "conflicts", "pending_conflicts"):
        assert close[key] == every[key], key
    # the scripted model relates any two nodes naming the same capitalised word: some far pairs lose that edge
    assert 0 < close["edges"] <= every["edges"]
