"""The structured-call helper: JSON found in messy model text, validated, re-asked with the error, then failed."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.llm.structured import (
    OutputInvalid,
    extract_json_object,
    parse_model,
    response_schema,
    structured_call,
)
from memory_bank.errors import AgentOutputError
from memory_bank.settings import Sampling
from tests.support.fake_openai import FakeOpenAI, error, ok, truncated

SAMPLING = Sampling(temperature=0.1, top_p=0.8)
ASK = [{"role": "system", "content": "Reply in JSON."}, {"role": "user", "content": "Summarise."}]


class Summary(BaseModel):
    summary: str = Field(min_length=1)
    score: int = 0


def call(client: OpenAIClient, retries: int = 2, **kw: object) -> Summary:
    return structured_call(client, agent="structure", messages=ASK, output_model=Summary, sampling=SAMPLING,
                           retries=retries, **kw)


@pytest.mark.parametrize("text", [
    '{"summary": "plain"}',
    'Here you go:\n```json\n{"summary": "plain"}\n```\nHope it helps.',
    '```\n{"summary": "plain"}\n```',
    'Sure! The object is {"summary": "plain"} as requested.',
    '<think>maybe {"summary": "draft"} first... no</think>\n{"summary": "plain"}',
    'I use {braces} loosely, then: {"summary": "plain"}',
])
def test_json_is_found_in_messy_text(text: str) -> None:
    assert extract_json_object(text)["summary"] == "plain"


def test_braces_and_quotes_inside_strings_do_not_confuse_the_scanner() -> None:
    text = 'x {"summary": "a } tricky \\" {string", "score": 3} y'
    assert extract_json_object(text) == {"summary": 'a } tricky " {string', "score": 3}


@pytest.mark.parametrize("text, problem", [
    ('{"summary": "cut off in the mid', "truncated"),
    ('```json\n{"summary": "x", "score": \n```', "truncated"),
    ("no json here at all", "no JSON object"),
    ("   ", "empty"),
    ('{"summary": \'single quotes\'}', "invalid JSON"),
    ('["a list", "not an object"]', "no JSON object"),
])
def test_unusable_text_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(OutputInvalid, match=problem):
        extract_json_object(text)


def test_parse_model_reports_the_failing_field() -> None:
    with pytest.raises(OutputInvalid, match=r"summary: String should have at least 1 character"):
        parse_model('{"summary": ""}', Summary)


def test_fenced_json_through_the_real_client(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok('```json\n{"summary": "s", "score": 2}\n```'))
    assert call(client) == Summary(summary="s", score=2)
    (req,) = fake.chat_requests
    assert req.response_format == {"type": "json_object"}
    assert (req.temperature, req.top_p) == (0.1, 0.8)


def test_garbage_then_valid_re_asks_with_the_error(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok('{"summary": 42, "score": "many"}'), ok('{"summary": "fixed", "score": 1}'))
    assert call(client).summary == "fixed"
    first, second = fake.chat_requests
    assert first.messages == ASK
    assert second.messages[:2] == ASK
    assert second.messages[2] == {"role": "assistant", "content": '{"summary": 42, "score": "many"}'}
    correction = second.messages[3]["content"]
    assert correction.startswith("Your previous reply could not be used")
    assert "summary: Input should be a valid string" in correction and "score:" in correction


def test_truncated_json_counts_as_invalid(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(truncated('{"summary": "the model ran out of tokens"}'), ok('{"summary": "whole"}'))
    assert call(client).summary == "whole"
    assert "truncated" in fake.chat_requests[1].messages[-1]["content"]


def test_always_garbage_raises_agent_output_error(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok("I cannot do that."), ok("Still no."), ok("Nope."))
    with pytest.raises(AgentOutputError, match="structure agent returned invalid output") as info:
        call(client, retries=2)
    assert info.value.agent == "structure"
    assert "after 3 attempts" in info.value.detail and "no JSON object" in info.value.detail
    assert len(fake.chat_requests) == 3
    assert fake.remaining == 0


def test_zero_retries_means_one_attempt(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok("nothing"))
    with pytest.raises(AgentOutputError, match="after 1 attempt\\)"):
        call(client, retries=0)


def test_check_failure_is_quoted_back_like_a_validation_error(fake: FakeOpenAI, client: OpenAIClient) -> None:
    def positive(s: Summary) -> None:
        if s.score <= 0:
            raise ValueError("score must be positive for this input")

    fake.push(ok('{"summary": "a", "score": 0}'), ok('{"summary": "a", "score": 4}'))
    assert call(client, check=positive).score == 4
    assert "score must be positive for this input" in fake.chat_requests[1].messages[-1]["content"]


# -- json_schema response format, probed once; replies cut at max_tokens ------------------------------------------

SCHEMA = response_schema(Summary, max_string=80, max_items=4)


def test_the_schema_is_bounded_and_sent_as_json_schema(fake: FakeOpenAI, client: OpenAIClient) -> None:
    class Listing(BaseModel):
        names: list[str]
        note: str | None = None

    bounded = response_schema(Listing, max_string=50, max_items=3).schema
    assert bounded["properties"]["names"] == {"type": "array", "items": {"type": "string", "maxLength": 50},
                                              "maxItems": 3}
    assert {"type": "string", "maxLength": 50} in bounded["properties"]["note"]["anyOf"]
    fake.push(ok('{"summary": "s"}'))
    assert call(client, schema=SCHEMA, max_tokens=100).summary == "s"
    sent = fake.chat_requests[0].response_format
    assert sent["type"] == "json_schema" and sent["json_schema"]["schema"] == SCHEMA.schema
    assert fake.chat_requests[0].body["max_tokens"] == 100 and client.schema_supported


def test_an_endpoint_that_rejects_json_schema_is_probed_once(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(error(400, "response_format type json_schema is not supported"), ok('{"summary": "a"}'),
              ok('{"summary": "b"}'))
    assert call(client, schema=SCHEMA).summary == "a"
    assert call(client, schema=SCHEMA).summary == "b"
    kinds = [(r.response_format or {}).get("type") for r in fake.chat_requests]
    assert kinds == ["json_schema", "json_object", "json_object"], "remembered: no second probe"
    assert not client.schema_supported and client.json_mode_supported


def test_a_reply_cut_at_max_tokens_is_asked_again_with_more_room(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(truncated('{"summary": "a long summary that did not fit"}'), ok('{"summary": "whole"}'))
    assert call(client, retries=0, schema=SCHEMA, max_tokens=50).summary == "whole"
    first, second = fake.chat_requests
    assert (first.body["max_tokens"], second.body["max_tokens"]) == (50, 100)
    assert second.messages == ASK, "the same request with more room: the cut text is not echoed back"


def test_a_reply_still_cut_at_the_cap_asks_for_less_then_fails_clearly(fake: FakeOpenAI,
                                                                       client: OpenAIClient) -> None:
    long = '{"summary": "' + "word " * 40 + '"}'
    fake.push(*[truncated(long) for _ in range(4)])
    with pytest.raises(AgentOutputError, match=r"truncated at the token limit \(100 tokens\).*after 2 attempts; "
                                                "shorten the input"):
        call(client, retries=1, max_tokens=50, max_tokens_cap=100)
    assert [r.body["max_tokens"] for r in fake.chat_requests] == [50, 100, 100]
    assert "keep every field shorter" in fake.chat_requests[2].messages[-1]["content"]
