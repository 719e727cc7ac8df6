"""The structured-call helper: JSON found in messy model text, validated, re-asked with the error, then failed."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.llm.structured import OutputInvalid, extract_json_object, parse_model, structured_call
from memory_bank.errors import AgentOutputError
from memory_bank.settings import Sampling
from tests.support.fake_openai import FakeOpenAI, ok, truncated

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
