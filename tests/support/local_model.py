"""The real local model server for the tests that need it, or a skip where the model was not fetched."""

from __future__ import annotations

import os

import pytest

from memory_bank.engines.llm.local_server import LocalModelServer
from memory_bank.errors import ConfigError
from memory_bank.settings import default_data_dir


def local_model_server() -> LocalModelServer:
    """Not started. Without the model the test skips with the command that fetches it, except under CI, where
    `scripts/test.sh` fetches it first and a skipped real-model test would hide a broken setup."""
    try:
        return LocalModelServer.for_data_dir(default_data_dir())
    except ConfigError as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(str(exc))
