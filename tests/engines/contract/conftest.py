"""One contract, every engine: each case in this folder runs once per engine (`engine_kind`).

The offline engine runs as shipped. The LLM engine runs through the real `openai` client against a scripted
model served over HTTP on 127.0.0.1 (`ContractLLM` on `FakeOpenAI`), so every reply goes through the same
prompt rendering, JSON validation and retry path a real model's would. Both engines get the same real embedding
model, loaded once for the session, so retrieval and linking see the same vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.base import Engine
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.engines.contract.scripted_model import ContractLLM
from tests.support.fake_openai import FakeOpenAI

ENGINES = ("offline", "llm")
NORTHWIND = Path(__file__).resolve().parents[3] / "samples" / "northwind"

BankFactory = Callable[[], MemoryBank]


@pytest.fixture(params=ENGINES)
def engine_kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def model_server(engine_kind: str) -> Iterator[FakeOpenAI | None]:
    """The scripted model the LLM engine talks to; the offline engine talks to nothing."""
    if engine_kind == "offline":
        yield None
        return
    with FakeOpenAI(handler=ContractLLM()) as fake:
        yield fake


@pytest.fixture
def settings(model_server: FakeOpenAI | None) -> Settings:
    return Settings(engine="offline") if model_server is None else model_server.settings()


@pytest.fixture
def make_bank(settings: Settings, embedder: CachedEmbedder, tmp_path: Path) -> Iterator[BankFactory]:
    banks: list[MemoryBank] = []

    def make() -> MemoryBank:
        banks.append(MemoryBank(settings, embedder=embedder, workdir=tmp_path / f"bank{len(banks)}"))
        return banks[-1]

    yield make
    for bank in banks:
        bank.clear()


@pytest.fixture
def bank(make_bank: BankFactory) -> MemoryBank:
    return make_bank()


@pytest.fixture
def engine(bank: MemoryBank, engine_kind: str) -> Engine:
    """The engine `build_engine` wired for this bank (the bank is its memory view and deep retriever)."""
    assert bank.engine.name == engine_kind and bank.engine.uses_llm == (engine_kind == "llm")
    return bank.engine


@pytest.fixture
def northwind() -> list[Path]:
    files = sorted(NORTHWIND.glob("*.md"))
    assert [f.name for f in files] == ["board-minutes.md", "finance-review.md", "project-overview.md"]
    return files
