"""What a person is told about an engine before one is built: its label, and whether its endpoint answers.

The UI shows both on pages that have no bank yet (Settings, New task), so they take `Settings` alone. The label
is the one the built engine will carry, taken from each engine's own module so the two never disagree.
"""

from __future__ import annotations

from ..settings import Settings

PROBE_TIMEOUT = 20.0  # seconds: a connection check is a person waiting on a button, not a run


def describe_engine(settings: Settings) -> str:
    """The label `build_engine` would give the engine these settings choose."""
    if not settings.needs_llm:
        from .offline.engine import LABEL

        return LABEL
    from .compose import mixed_label
    from .llm.engine import engine_label

    return mixed_label(settings, engine_label(settings))


def check_connection(settings: Settings) -> str:
    """Ask the configured LLM endpoint for one word; a one-line success message, or an `LLMError`/`ConfigError`.

    No retries and a short timeout, since a person is waiting: an endpoint that needs either is reported as
    failing, with the SDK's reason. The OpenAI SDK is imported only here, when a check is asked for.
    """
    from .llm.openai_client import OpenAIClient

    probe = settings.model_copy(update={"llm_timeout": min(settings.llm_timeout, PROBE_TIMEOUT),
                                        "llm_max_retries": 0})
    return OpenAIClient(probe).check_connection()
