from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from .local_server import LocalServer


@pytest.fixture()
def server() -> Iterator[LocalServer]:
    local = LocalServer().start()
    yield local
    local.stop()


@pytest.fixture()
def session() -> Iterator[requests.Session]:
    with requests.Session() as http:
        http.trust_env = False  # no proxy from the environment between the test and 127.0.0.1
        yield http
