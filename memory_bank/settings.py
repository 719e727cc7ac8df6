"""Settings: built once (environment, `.env`, or the UI) and passed down.

Nothing else in the package reads the environment; every component receives the values it needs. The API key is
a `SecretStr` and `public_dict()` leaves every secret out, so an export or a log can never carry it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator

from .errors import ConfigError
from .limits import MAX_RETRY_WAIT

AGENT_NAMES = ("classification", "structure", "analysis", "integration", "planning", "react")
# The engine slots a person can put on either engine; "react" is the answering executor, "image" the recogniser.
AGENT_SLOTS = ("classification", "structure", "analysis", "integration", "planning", "react", "image")
EngineName = Literal["offline", "llm"]
_INGESTION = ("classification", "structure", "analysis", "integration", "planning", "image")
# Presets of `agent_engines`. "answers": offline ingestion; the LLM writes the answer through the ReAct loop and
# judges cross-validation (both are the executor's tasks), which keeps a slow local model to a few calls; with the
# local model the answer is one grounded call and cross-validation offline (`answers_in_one_call`).
PRESETS: dict[str, dict[str, str]] = {
    "offline": dict.fromkeys(AGENT_SLOTS, "offline"),
    "answers": {**dict.fromkeys(_INGESTION, "offline"), "react": "llm"},
    "llm": dict.fromkeys(AGENT_SLOTS, "llm"),
}


class Sampling(BaseModel):
    """Per-agent sampling; the defaults follow DESIGN §3."""

    model_config = ConfigDict(frozen=True)
    temperature: float = Field(ge=0.0, le=2.0)
    top_p: float = Field(gt=0.0, le=1.0)


DEFAULT_SAMPLING: dict[str, Sampling] = {
    "classification": Sampling(temperature=0.4, top_p=0.9),
    "structure": Sampling(temperature=0.1, top_p=0.8),
    "analysis": Sampling(temperature=0.4, top_p=0.9),
    "integration": Sampling(temperature=0.2, top_p=0.85),
    "planning": Sampling(temperature=0.6, top_p=0.95),
    "react": Sampling(temperature=0.6, top_p=0.95),
}

# a database URL may carry a password: it is a secret like the keys
SECRET_FIELDS = frozenset({"llm_api_key", "serper_api_key", "jina_api_key", "database_url"})

# env var -> field name; only these are read, so a stray variable cannot change behaviour.
ENV_FIELDS: dict[str, str] = {
    "MEMORY_BANK_ENGINE": "engine",
    "LLM_BASE_URL": "llm_base_url",
    "LLM_API_KEY": "llm_api_key",
    "OPENAI_API_KEY": "llm_api_key",
    "LLM_MODEL": "llm_model",
    "LLM_VISION_MODEL": "llm_vision_model",
    "LLM_TIMEOUT": "llm_timeout",
    "LLM_MAX_RETRIES": "llm_max_retries",
    "LLM_CONCURRENCY": "llm_concurrency",
    "LLM_MAX_CONSECUTIVE_FAILURES": "llm_max_consecutive_failures",
    "RETRIEVAL_K": "retrieval_k",
    "RETRIEVAL_ALPHA": "retrieval_alpha",
    "MEMORY_BUDGET_TOKENS": "memory_budget_tokens",
    "AGENT_WINDOW": "agent_window",
    "MAX_ROUNDS": "max_rounds",
    "MAX_LLM_CALLS": "max_llm_calls",
    "MAX_TOKENS": "max_tokens",
    "MAX_COST": "max_cost",
    "LLM_BATCH_ITEMS": "llm_batch_items",
    "ANALYSIS_MIN_SIMILARITY": "analysis_min_similarity",
    "PRICE_INPUT": "price_input",
    "PRICE_CACHED": "price_cached",
    "PRICE_OUTPUT": "price_output",
    "SERPER_API_KEY": "serper_api_key",
    "SEARXNG_URL": "searxng_url",
    "JINA_API_KEY": "jina_api_key",
    "VISIT_ALLOW_PRIVATE": "visit_allow_private",
    "EMBEDDING_MODEL_PATH": "embedding_model_path",
    "EMBEDDING_RUNTIME": "embedding_runtime",
    "MEMORY_BANK_TEMP_DIR": "temp_dir",
    "MEMORY_BANK_DATA_DIR": "data_dir",
    "LONG_TERM_BUDGET_TOKENS": "long_term_budget_tokens",
    "LONG_TERM_HALF_LIFE_DAYS": "long_term_half_life_days",
    "LONG_TERM_MIN_CONFIDENCE": "long_term_min_confidence",
    "INGEST_TIME_BUDGET": "ingest_time_budget",
    "MAX_ANSWER_CHARS": "max_answer_chars",
    "DATABASE_URL": "database_url",
    "MEMORY_BANK_RETENTION_DAYS": "retention_days",
    "MEMORY_BANK_SHARED": "shared",
    "LLM_PROVIDER": "llm_provider",
    "MEMORY_BANK_PRESET": "preset",
    "MEMORY_BANK_USERS_FILE": "users_file",
    "MEMORY_BANK_SESSION_IDLE_MINUTES": "session_idle_minutes",
    "MEMORY_BANK_SESSION_MAX_HOURS": "session_max_hours",
    "MEMORY_BANK_ANSWER_MODE": "answer_mode",
    "MEMORY_BANK_SUMMARY_MODE": "summary_mode",
    "MEMORY_BANK_MAX_CONCURRENT_RUNS": "max_concurrent_runs",
}


def default_data_dir() -> Path:
    """Where the app keeps what outlives a process (task store, local model, long-term memory): the user's XDG
    data folder, never the working directory, so a checkout stays clean and a restart finds its data."""
    return Path.home() / ".local" / "share" / "agentic-memory-bank"


class Settings(BaseModel):
    """Everything configurable about one memory bank. Immutable: derive a changed copy with `model_copy`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    engine: EngineName = "offline"
    # per agent slot (AGENT_SLOTS), the engine that runs it; a slot not named here runs on `engine`
    agent_engines: dict[str, EngineName] = Field(default_factory=dict)
    # LLM endpoint: "openai" is any OpenAI-compatible server at llm_base_url; "local" is the llama.cpp server this
    # process starts (on a private Unix socket, with a per-process key) with the model fetched into data_dir/models/
    llm_provider: Literal["openai", "local"] = "openai"
    llm_base_url: str | None = None
    # a Unix socket the endpoint listens on instead of a TCP port (the local server: no web page can reach it);
    # set by LocalModelServer.settings_for, never read from the environment
    llm_socket: str | None = None
    llm_api_key: SecretStr | None = None
    llm_model: str | None = None
    llm_vision_model: str | None = None
    llm_timeout: float = Field(default=60.0, gt=0)
    llm_max_retries: int = Field(default=4, ge=0, le=10)
    llm_backoff_base: float = Field(default=1.0, ge=0, le=MAX_RETRY_WAIT)
    llm_backoff_max: float = Field(default=30.0, ge=0, le=MAX_RETRY_WAIT)  # the longest wait before a retry
    llm_concurrency: int = Field(default=4, ge=1, le=64)
    # a run stops after this many LLM calls in a row failed (each after its retries); a rejected key stops it at once
    llm_max_consecutive_failures: int = Field(default=2, ge=1, le=20)
    structured_retries: int = Field(default=2, ge=0, le=5)
    # batched ingestion: how many clusters (structure) or new nodes (analysis) one call may carry, the prompt
    # tokens of those items, and the reply tokens they may need; 1 item is one call per item (no batching)
    llm_batch_items: int = Field(default=16, ge=1, le=64)
    llm_batch_tokens: int = Field(default=12_000, ge=256)
    llm_batch_reply_tokens: int = Field(default=12_288, ge=256)
    # an LLM analysis judges only candidates at least this similar (embedding cosine) to the new node; the
    # offline analysis calls anything below 0.40 unrelated unless the texts align, which needs far more. 0: all
    analysis_min_similarity: float = Field(default=0.4, ge=0.0, le=1.0)
    # prices in money per million tokens (prompt, cached prompt, completion): empty, no cost is shown
    price_input: float | None = Field(default=None, ge=0)
    price_cached: float | None = Field(default=None, ge=0)
    price_output: float | None = Field(default=None, ge=0)
    sampling: dict[str, Sampling] = Field(default_factory=lambda: dict(DEFAULT_SAMPLING))
    # agents
    agent_window: int = Field(default=32_000, ge=512)
    agent_windows: dict[str, int] = Field(default_factory=dict)
    chunk_ratio: float = Field(default=0.9, gt=0.1, le=1.0)
    # retrieval
    retrieval_k: int = Field(default=5, ge=1, le=100)
    retrieval_alpha: float = Field(default=0.5, ge=0.0, le=1.0)
    # what the agent is handed: the <memory> block and the <task> block, each within its token budget
    memory_budget_tokens: int = Field(default=2_000, ge=16)
    task_budget_tokens: int = Field(default=800, ge=64)
    # loop and budgets
    max_rounds: int = Field(default=8, ge=1, le=100)
    max_llm_calls: int = Field(default=2_000, ge=1)
    max_tokens: int = Field(default=5_000_000, ge=1_000)
    max_cost: float | None = Field(default=None, gt=0)  # a run's budget in money (needs the prices)
    react_max_calls: int = Field(default=12, ge=1, le=100)
    react_max_context_tokens: int = Field(default=28_000, ge=1_000)
    react_reply_tokens: int = Field(default=1_024, ge=64, le=32_000)  # max_tokens of one ReAct step
    # how the LLM writes an answer: "react" (the tool loop), "one_call" (one streamed completion over the memory
    # block, citations checked), "auto": one call for the local model when it writes the answers only (on 2
    # cores the loop took 115-165 s an answer and was right less often than the offline answer)
    answer_mode: Literal["auto", "react", "one_call"] = "auto"
    # how the LLM structure agent summarises a cluster: "write" (its own words), "select" (it names the sentences
    # of the cluster to keep, a few tokens a cluster), "auto": select for the local model, where written summaries
    # were the whole cost of ingestion (NIST, 19 pages: 7,709 reply tokens, 1,794 of ~2,000 model seconds)
    summary_mode: Literal["auto", "write", "select"] = "auto"
    # the longest answer a run keeps; a longer one is cut with a marker saying so (`cap_answer`). At most
    # 1,000,000, so a cut answer (with its marker) stays within what an export may hold and imports again.
    max_answer_chars: int = Field(default=100_000, ge=1_000, le=1_000_000)
    # tools
    serper_api_key: SecretStr | None = None
    searxng_url: str | None = None
    jina_api_key: SecretStr | None = None
    visit_timeout: float = Field(default=15.0, gt=0)
    visit_max_bytes: int = Field(default=5_000_000, ge=1_000)
    visit_allow_private: bool = False
    # inputs and storage
    embedding_model_path: str | None = None
    # how MiniLM runs: "auto"/"onnx-int8" (ONNX Runtime, sentence vectors on an int8 file made once into
    # data_dir/models/embedding: ~2x the fp32 file on 2 cores, cosine >= 0.995 to PyTorch; token vectors on fp32),
    # "onnx" (the fp32 file: PyTorch's vectors, 1.3-1.5x PyTorch's speed) or "torch"; each falls back to the next
    embedding_runtime: Literal["auto", "onnx", "onnx-int8", "torch"] = "auto"
    temp_dir: str | None = None
    max_file_mb: int = Field(default=200, ge=1)
    max_image_pixels: int = Field(default=40_000_000, ge=10_000)
    data_dir: Path = Field(default_factory=default_data_dir)
    # long-term memory (seed 004): the <long_term> block's budget, time decay and the cleanup threshold
    long_term_budget_tokens: int = Field(default=400, ge=16)
    long_term_half_life_days: float = Field(default=30.0, gt=0)
    long_term_min_confidence: float = Field(default=0.2, ge=0.0, le=1.0)
    # seconds one document's ingestion may take; then it stops between chunks, keeps what it built and says so
    # in the run log ("Stopped reading X after 120 s: N of M pages read"). Two minutes reads a few hundred pages
    # on the offline engine; a pathological file (megabytes of one repeated line) is cut instead of running on.
    ingest_time_budget: float = Field(default=120.0, gt=0)
    # the task store: SQLite in data_dir by default, or any SQLAlchemy URL (postgresql+psycopg://...)
    database_url: SecretStr | None = None
    retention_days: int | None = Field(default=None, ge=1)  # tasks untouched this long are deleted
    shared: bool = False  # one server, many people: each browser lists only the tasks it created
    # multi-user mode: the accounts file (`python -m memory_bank users add NAME`); unset, the app has no sign-in
    users_file: Path | None = None
    # a signed-in session ends after this long without a page view, and after `session_max_hours` in any case
    session_idle_minutes: float = Field(default=30.0, gt=0, le=24 * 60)
    session_max_hours: float = Field(default=12.0, gt=0, le=24 * 30)
    # runs (ingestion and answering) going at once in one server process; the others wait in line, first come,
    # first served, their place shown on the Run page. Each run keeps a core busy: 2 suits a 2-core server
    max_concurrent_runs: int = Field(default=2, ge=1, le=64)

    @field_validator("llm_base_url", "searxng_url", "llm_model", "llm_vision_model", "embedding_model_path")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value.strip() or None if isinstance(value, str) else value

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, env_file: str | Path | None = ".env") -> Settings:
        """Read the known variables from a `.env` file, then the process environment (which wins).

        The engine defaults to `llm` only when an endpoint or model is configured, so a fresh machine with no
        key lands on the offline engine.
        """
        merged = _merged_env(env, env_file)
        values = {field: merged[var] for var, field in ENV_FIELDS.items() if merged.get(var, "").strip()}
        if "engine" not in values and (values.get("llm_model") or values.get("llm_base_url")
                                       or values.get("llm_provider") == "local"):
            values["engine"] = "llm"
        preset = values.pop("preset", None)
        try:
            settings = cls.model_validate(values)
            return settings.with_preset(preset) if preset else settings
        except ValidationError as exc:
            raise ConfigError(_env_problems(exc)) from None

    @classmethod
    def from_env_or_defaults(cls, env: Mapping[str, str] | None = None,
                             env_file: str | Path | None = ".env") -> tuple[Settings, str | None]:
        """What the app runs on, and the problem when a variable is wrong: then the defaults, except who may sign
        in and where the data is (`KEPT_ON_ERROR`), so a typo in an unrelated variable never turns multi-user
        mode into an app open to everyone, nor shows another data folder."""
        try:
            return cls.from_env(env, env_file), None
        except ConfigError as exc:
            merged, kept = _merged_env(env, env_file), {}
            for var, field in ENV_FIELDS.items():
                if field in KEPT_ON_ERROR and merged.get(var, "").strip():
                    try:
                        cls.model_validate({field: merged[var]})
                        kept[field] = merged[var]
                    except ValidationError:
                        continue  # itself wrong: its default, and the problem is in the message already
            return cls.model_validate(kept), str(exc)

    @model_validator(mode="after")
    def _cost_needs_prices(self) -> Settings:
        if self.max_cost is not None and (self.price_input is None or self.price_output is None):
            raise ValueError("a budget in money (max_cost) needs the input and output prices per million tokens")
        return self

    @field_validator("agent_engines")
    @classmethod
    def _known_slots(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(value) - set(AGENT_SLOTS))
        if unknown:
            raise ValueError(f"unknown agents {unknown}; the agents are {', '.join(AGENT_SLOTS)}")
        return value

    def engine_for(self, agent: str) -> EngineName:
        """Which engine runs one agent slot."""
        return self.agent_engines.get(agent, self.engine)

    @property
    def needs_llm(self) -> bool:
        return any(self.engine_for(a) == "llm" for a in AGENT_SLOTS)

    @property
    def needs_local_server(self) -> bool:
        """Whether this task needs the local model server started: an LLM agent runs, the local provider serves
        it, and no endpoint is set yet (`LocalModelServer.settings_for` sets it). The app, the CLI and the wiring
        all ask here."""
        return self.needs_llm and self.llm_provider == "local" and not self.llm_base_url

    def with_preset(self, name: str) -> Settings:
        """A copy with one of `PRESETS`; any preset with an LLM agent selects the LLM engine as the default."""
        if name not in PRESETS:
            raise ConfigError(f"unknown preset {name!r}; the presets are {', '.join(PRESETS)}")
        engines = PRESETS[name]
        return self.model_copy(update={"agent_engines": dict(engines),
                                       "engine": "llm" if "llm" in engines.values() else "offline"})

    def preset_name(self) -> str | None:
        """The preset these settings amount to, or None for a custom mix."""
        mine = {a: self.engine_for(a) for a in AGENT_SLOTS}
        return next((name for name, engines in PRESETS.items() if engines == mine), None)

    def answers_in_one_call(self) -> bool:
        """Whether the answer is one grounded completion (`answer_mode`) instead of the ReAct loop."""
        if self.engine_for("react") != "llm" or self.answer_mode == "react":
            return False
        return self.answer_mode == "one_call" or (
            self.llm_provider == "local" and all(self.engine_for(s) == "offline" for s in _INGESTION))

    def summaries_by_selection(self) -> bool:
        """Whether the LLM structure agent picks a cluster's sentences (`summary_mode`) instead of writing."""
        return self.summary_mode == "select" or (self.summary_mode == "auto" and self.llm_provider == "local")

    def window(self, agent: str) -> int:
        """The context window of one agent, in (estimated) tokens."""
        return self.agent_windows.get(agent, self.agent_window)

    def sampling_for(self, agent: str) -> Sampling:
        return self.sampling.get(agent, DEFAULT_SAMPLING["react"])

    def secret(self, name: str) -> str | None:
        value = getattr(self, name)
        return value.get_secret_value() if value is not None else None

    def secret_values(self) -> tuple[str, ...]:
        """The configured secrets themselves, for redacting text that comes back from outside (an echoed key)."""
        return tuple(v for v in (self.secret(name) for name in sorted(SECRET_FIELDS)) if v)

    def check_llm(self) -> None:
        """Raise a clear error when the LLM engine is selected without what it needs."""
        if self.needs_llm and not self.llm_model and self.llm_provider != "local":
            raise ConfigError("The LLM engine needs a model name (LLM_MODEL or the Settings page).")

    def public_dict(self) -> dict:
        """Settings without secrets, for exports and logs."""
        data = self.model_dump(mode="json", exclude=set(SECRET_FIELDS))
        data["secrets_configured"] = sorted(f for f in SECRET_FIELDS if getattr(self, f) is not None)
        return data


# what a wrong variable elsewhere does not reset to its default (see `Settings.from_env_or_defaults`)
KEPT_ON_ERROR = frozenset({"users_file", "session_idle_minutes", "session_max_hours", "data_dir", "database_url",
                           "shared", "max_concurrent_runs"})


def _merged_env(env: Mapping[str, str] | None, env_file: str | Path | None) -> dict[str, str]:
    """The `.env` file's variables, then the process environment's (which win)."""
    merged: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        from dotenv import dotenv_values

        merged.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    merged.update(os.environ if env is None else env)
    return merged


def _env_problems(exc: ValidationError) -> str:
    """Which variables are wrong and why, naming the variable a person set; never the value (it may be a key)."""
    names = {field: var for var, field in ENV_FIELDS.items()}
    problems = [f"{names.get(str(e['loc'][0]), e['loc'][0]) if e['loc'] else 'settings'}: {e['msg']}"
                for e in exc.errors()]
    return "bad setting: " + "; ".join(problems)
