from __future__ import annotations

from collections.abc import Iterator

import pytest

from .local_server import LocalServer


@pytest.fixture()
def server() -> Iterator[LocalServer]:
    local = LocalServer().start()
    yield local
    local.stop()
