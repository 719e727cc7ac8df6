from __future__ import annotations

import threading

import pytest

from memory_bank.errors import ConfigError
from memory_bank.events import EventBus, Progress, SubscriberFailed
from memory_bank.settings import Settings


def test_from_env_defaults_to_offline_and_switches_with_a_model(tmp_path) -> None:
    assert Settings.from_env({}, env_file=None).engine == "offline"
    s = Settings.from_env({"LLM_MODEL": "m", "LLM_BASE_URL": "http://127.0.0.1:1/v1", "RETRIEVAL_K": "7"},
                          env_file=None)
    assert (s.engine, s.llm_model, s.retrieval_k) == ("llm", "m", 7)
    env = tmp_path / ".env"
    env.write_text("LLM_MODEL=from-file\nRETRIEVAL_ALPHA=0.3\n")
    s = Settings.from_env({"LLM_MODEL": "from-env"}, env_file=env)
    assert (s.llm_model, s.retrieval_alpha) == ("from-env", 0.3)


def test_secrets_never_in_public_dict() -> None:
    s = Settings(llm_api_key="sk-1", serper_api_key="sk-2", jina_api_key="sk-3")
    text = str(s.public_dict())
    assert "sk-" not in text
    assert s.public_dict()["secrets_configured"] == ["jina_api_key", "llm_api_key", "serper_api_key"]
    assert "sk-1" not in repr(s)


def test_llm_engine_without_model_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="model name"):
        Settings(engine="llm").check_llm()


def test_event_bus_is_thread_safe_and_reports_failing_subscribers() -> None:
    bus = EventBus()
    seen = []
    bus.subscribe(seen.append)
    bus.subscribe(lambda e: 1 / 0)

    def publish() -> None:
        for i in range(200):
            bus.publish(Progress(stage="x", done=i, total=200))

    threads = [threading.Thread(target=publish) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    progress = [e for e in seen if isinstance(e, Progress)]
    assert len(progress) == 800
    assert any(isinstance(e, SubscriberFailed) for e in bus.log())
    unsubscribe = bus.subscribe(seen.append)
    unsubscribe()


def test_a_bad_variable_is_a_config_error_naming_the_variable_not_its_value() -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_env({"MEMORY_BUDGET_TOKENS": "lots", "RETRIEVAL_K": "0", "LLM_API_KEY": "sk-secret"},
                          env_file=None)
    message = str(info.value)
    assert "MEMORY_BUDGET_TOKENS" in message and "RETRIEVAL_K" in message
    assert "lots" not in message and "sk-secret" not in message
