"""Cost: prices per million tokens, cached prompt tokens as the endpoint reports them, a budget in money."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from memory_bank.engines.llm.client import UsageMeter
from memory_bank.engines.llm.cost import Prices, estimate_ingestion, money, prices_from
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.errors import BudgetExceeded
from memory_bank.settings import Settings
from tests.support.fake_openai import FakeOpenAI, Reply


def ask(client: OpenAIClient, text: str = "hello"):  # noqa: ANN201
    return client.complete([{"role": "system", "content": "fixed instructions " * 50},
                            {"role": "user", "content": text}], agent="structure", temperature=0.1, top_p=0.8)


def test_cost_prices_cached_prompt_tokens_apart() -> None:
    prices = Prices(input=2.0, output=8.0, cached=0.5)
    assert prices.cost(1_000_000, 0) == pytest.approx(2.0)
    assert prices.cost(1_000_000, 500_000, cached_tokens=400_000) == pytest.approx(1.2 + 0.2 + 4.0)
    assert Prices(input=2.0, output=8.0).cost(100, 0, cached_tokens=100) == pytest.approx(2.0 * 100 / 1e6)
    assert prices.cost(10, 0, cached_tokens=50) == pytest.approx(0.5 * 10 / 1e6)  # never more cached than sent
    assert estimate_ingestion(100, prices) > estimate_ingestion(10, prices) > 0
    assert (money(0), money(0.0012), money(12.345)) == ("$0", "$0.0012", "$12.35")


def test_no_prices_no_cost_and_a_money_budget_needs_them() -> None:
    assert prices_from(Settings()) is None
    assert prices_from(Settings(price_input=0.15, price_output=0.6)) == Prices(input=0.15, output=0.6)
    with pytest.raises(ValidationError, match="needs the input and output prices"):
        Settings(max_cost=1.0)


def test_the_money_budget_stops_the_run_like_the_token_budget(fake: FakeOpenAI) -> None:
    meter = UsageMeter(max_calls=100, max_tokens=10_000_000, prices=Prices(input=10.0, output=10.0), max_cost=0.01)
    meter.check()
    client = OpenAIClient(fake.settings())
    fake.push(Reply(text="x", usage=(600, 400)))
    meter.record("structure", ask(client), 0.1)  # 1,000 tokens at $10 per million: exactly the budget
    with pytest.raises(BudgetExceeded, match=r"cost budget used up \(\$0\.01 of \$0\.01\)"):
        meter.check()
    assert meter.run_usage().cost(meter.prices) == pytest.approx(0.01)


def test_openai_cached_tokens_are_read_from_the_usage_details() -> None:
    with FakeOpenAI(prefix_cache=True) as fake:
        client = OpenAIClient(fake.settings())
        fake.push(Reply(text="a"), Reply(text="b"))
        first, second = ask(client, "one"), ask(client, "two")
    assert first.cached_tokens == 0
    assert 0 < second.cached_tokens < second.prompt_tokens  # the shared instructions, not the question


def test_llama_cpp_cached_tokens_are_read_from_its_timings(fake: FakeOpenAI) -> None:
    body = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 2, "total_tokens": 122},
            "timings": {"cache_n": 96, "prompt_n": 24}}
    fake.push(Reply(body=json.dumps(body).encode()))
    completion = ask(OpenAIClient(fake.settings()))
    assert (completion.prompt_tokens, completion.cached_tokens) == (120, 96)


def test_a_stream_closed_at_its_tool_call_still_counts_the_prompt_llama_cpp_read(fake: FakeOpenAI) -> None:
    """A ReAct step is read only up to its tool call, so its stream closes before the usage chunk. The local
    server is asked for its timings with every chunk (`timings_per_token`): the prompt it read and the part its
    cache served are counted as it said, not the whole prompt as read (issue 29's processed-token measure)."""
    fake.push(Reply(text='{"tool": "deep_retrieval", "node_id": "n1"} and then more words', piece=4,
                    usage=(1_400, 30), timings={"cache_n": 1_300, "prompt_n": 100, "prompt_per_second": 60.0,
                                                "predicted_per_second": 12.0}))
    seen: list[str] = []
    completion = OpenAIClient(fake.settings(llm_provider="local")).complete(
        [{"role": "user", "content": "hello"}], agent="react", temperature=0.3, top_p=0.7,
        on_text=lambda text, at: seen.append(text) or len(seen) > 2)
    assert fake.chat_requests[0].body["timings_per_token"] is True
    assert len(seen) == 3 and completion.text == '{"tool": "de'  # closed early: no usage chunk was read
    assert (completion.prompt_tokens, completion.cached_tokens) == (1_400, 1_300)
    assert completion.prompt_tokens - completion.cached_tokens == 100  # what the model processed
    assert completion.prompt_per_s == 60.0
