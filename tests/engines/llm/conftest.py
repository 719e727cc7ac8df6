"""Fixtures for the LLM engine's tests: a scripted OpenAI-compatible server on 127.0.0.1 per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memory_bank.engines.llm.openai_client import OpenAIClient
from tests.support.fake_openai import FakeOpenAI


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def client(fake: FakeOpenAI) -> OpenAIClient:
    return OpenAIClient(fake.settings())
