"""How long a run takes to stop against a dead or rejecting endpoint, with the default retry settings.

A run of a question (over an empty memory: it plans, then the agent works) against a local OpenAI-compatible
server that fails every call in one way (connection refused, 401, 500, 429, a body dripped past the deadline).
Printed: seconds until `run()` returned, requests the server received, and how the run ended. Before the breaker
a 401 made 19 requests and a 500 made 57, every round played to the cap (issue 10).

    python bench/dead_endpoint.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory_bank import MemoryBank, Settings  # noqa: E402
from memory_bank.retrieval.embedding import HashingEmbedder  # noqa: E402
from tests.support.fake_openai import FakeOpenAI, Reply, drip, error  # noqa: E402

QUESTION = "When were ALPHA reactors first deployed?"


def defaults(base_url: str, **overrides: object) -> Settings:
    """The shipped defaults (retries, backoff, breaker) but for the endpoint."""
    return Settings(engine="llm", llm_base_url=base_url, llm_model="fake-model", llm_api_key="sk-bench",
                    **overrides)


def measure(name: str, fault: Reply | None, **overrides: object) -> None:
    with FakeOpenAI(handler=(lambda r: fault)) as fake:
        base_url = fake.base_url
        if fault is None:
            fake.stop()  # nothing listens: every connection is refused
        bank = MemoryBank(defaults(base_url, **overrides), embedder=HashingEmbedder())
        start = time.perf_counter()
        result = bank.run(QUESTION)
        seconds = time.perf_counter() - start
        requests = len(fake.chat_requests)
    print(f"{name:<34} {seconds:6.1f} s  {requests:3d} requests  termination={result.termination}")


def main() -> None:
    print("fault                              time     requests  (defaults: 4 retries, backoff 1..30 s, 2 failures)")
    measure("connection refused", None)
    measure("401 invalid key", error(401, "invalid api key"))
    measure("500 internal error", error(500, "internal"))
    measure("429 Retry-After 1", error(429, "slow down", retry_after="1"))
    measure("body dripped past a 5 s deadline", drip(0.2, "x" * 5000), llm_timeout=5.0, llm_max_retries=1)


if __name__ == "__main__":
    main()
