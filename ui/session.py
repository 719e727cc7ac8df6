"""Per-browser-session task state.

Streamlit shares imported modules between all users, so everything that belongs to one browser session lives in
one `TaskSession` inside `st.session_state`: its settings (an API key typed in the UI stays here and nowhere
else), its memory bank, its temp folder, its runs and its selection. Only the embedding model, read-only and
thread-safe, is shared, through `st.cache_resource`. The temp folder goes when the task ends (New task) or when
Streamlit drops the session: the object is garbage-collected and its `weakref.finalize` runs (also at exit).
"""

from __future__ import annotations

import logging
import re
import shutil
import tempfile
import threading
import uuid
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from memory_bank import (
    CancelToken,
    ConfigError,
    LocalModelServer,
    MemoryBank,
    Settings,
    describe_engine,
    load_embedder,
)

from .worker import RunHandle, start_run

log = logging.getLogger(__name__)
KEY = "task_session"
SAMPLES_DIR = Path(__file__).resolve().parents[1] / "samples"


@dataclass(frozen=True)
class Sample:
    """A one-click task on the New task page: files shipped in samples/ and a question."""

    key: str
    button: str
    title: str
    blurb: str
    files: tuple[Path, ...]
    question: str

    def missing(self) -> list[Path]:
        return [f for f in self.files if not f.is_file()]


SAMPLES = (
    Sample(key="run-sample", button="Run the sample", title="NIST SP 800-207 — Zero Trust Architecture",
           blurb="A long PDF (public domain, 59 pages): watch the graph grow page by page.",
           files=(SAMPLES_DIR / "NIST.SP.800-207.pdf",),
           question=("What are the core components of a zero trust architecture, and how does the policy engine "
                     "decide whether to grant access to a resource?")),
    Sample(key="run-sample-notes", button="Run the notes sample", title="Conflicting project notes",
           blurb=("Three short notes: one repeats a paragraph word for word (a merge) and copies the budget "
                  "with a different figure (a conflict, cross-validated against the other notes)."),
           files=tuple(SAMPLES_DIR / "northwind" / name
                       for name in ("project-overview.md", "finance-review.md", "board-minutes.md")),
           question="What is the Northwind project budget, and who approved it?"),
)


@st.cache_resource(show_spinner="Loading the embedding model…")
def shared_embedder(model_path: str | None) -> Any:
    """One embedding model per process: it is read-only and guards its own inference with a lock."""
    return load_embedder(model_path)


@st.cache_resource(show_spinner=False)
def warm_up_embedder(model_path: str | None) -> threading.Thread:
    """Load the model in the background from the first page view (once per process): loading takes seconds,
    and a user who has just clicked Start should not wait for it on top of the ingestion."""
    thread = threading.Thread(target=shared_embedder, args=(model_path,), name="embedder-warm-up", daemon=True)
    thread.start()
    return thread


@st.cache_resource(show_spinner="Starting the local model (llama.cpp on this machine)…",
                   on_release=lambda server: server.stop())
def shared_local_server(data_dir: str) -> LocalModelServer:
    """One local model server per app process, shared by every session (the model takes 2 GB of memory); it
    stops when the app stops or the cache is cleared. A missing model file is a ConfigError saying how to
    fetch it (scripts/start.sh does)."""
    server = LocalModelServer.for_data_dir(Path(data_dir))
    server.start()
    return server


def with_endpoint(settings: Settings) -> Settings:
    """Settings for a bank: pointed at the shared local server when the local provider is chosen."""
    if settings.needs_llm and settings.llm_provider == "local" and not settings.llm_base_url:
        return shared_local_server(str(settings.data_dir)).settings_for(settings)
    return settings


def _remove(path: Path) -> None:
    """Delete a temp file or folder; a failure is logged (the OS cleans temp eventually), never raised at exit."""
    def report(_func, failed, exc_info) -> None:  # noqa: ANN001 - shutil.rmtree's onerror signature
        log.warning("could not remove temp path %s: %s", failed, exc_info[1])

    if path.is_dir():
        shutil.rmtree(path, onerror=report)
    elif path.exists():
        try:
            path.unlink()
        except OSError as exc:
            log.warning("could not remove temp file %s: %s", path, exc)


def _cleanup(workdir: Path, tokens: list[CancelToken]) -> None:
    for token in tokens:
        token.cancel()
    _remove(workdir)


@dataclass
class TaskSession:
    settings: Settings
    workdir: Path
    bank: MemoryBank | None = None
    runs: list[RunHandle] = field(default_factory=list)
    graph_id: str = field(default_factory=lambda: uuid.uuid4().hex[:10])
    selected: str | None = None
    highlight: list[str] = field(default_factory=list)
    click_nonce: str | None = None
    origin: str = ""  # "run" or "import: <file name>"
    tokens: list[CancelToken] = field(default_factory=list)
    settings_error: str | None = None  # a bad variable in the environment or .env: the defaults run instead

    @property
    def current_run(self) -> RunHandle | None:
        return self.runs[-1] if self.runs else None

    @property
    def running(self) -> bool:
        return any(r.alive for r in self.runs)

    @property
    def uploads(self) -> Path:
        folder = self.workdir / "uploads"
        folder.mkdir(parents=True, exist_ok=True)
        return folder


def _new_workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="amb-session-"))


def get_task() -> TaskSession:
    """This browser session's task, created on first use."""
    task = st.session_state.get(KEY)
    if task is None:
        try:
            settings, error = Settings.from_env(), None
        except ConfigError as exc:  # the page says so and runs on the defaults rather than failing on every view
            settings, error = Settings(), str(exc)
        task = TaskSession(settings=settings, workdir=_new_workdir(), settings_error=error)
        weakref.finalize(task, _cleanup, task.workdir, task.tokens)
        st.session_state[KEY] = task
        warm_up_embedder(task.settings.embedding_model_path)
    return task


def make_bank(task: TaskSession, settings: Settings | None = None, export: Any = None) -> tuple[MemoryBank, Path]:
    """A bank whose temp files live in its own folder inside the session's; from an export when one is given.

    Returns the bank and its folder. A failed import leaves no folder behind and raises as the core does.
    """
    settings = with_endpoint(settings or task.settings).model_copy(update={"temp_dir": str(task.workdir)})
    embedder = shared_embedder(settings.embedding_model_path)
    folder = Path(tempfile.mkdtemp(prefix="bank-", dir=task.workdir))
    try:
        if export is not None:
            return MemoryBank.from_export(export, settings, embedder=embedder, workdir=folder), folder
        return MemoryBank(settings, embedder=embedder, workdir=folder), folder
    except BaseException:
        _remove(folder)
        raise


def end_task(task: TaskSession, keep: Path | None = None) -> None:
    """Stop any run, drop the memory and every temp file of the session (except the folder `keep`)."""
    for run in task.runs:
        run.cancel()
    for run in task.runs:
        run.thread.join(timeout=10)
    if task.bank is not None:
        task.bank.clear()
    task.workdir.mkdir(parents=True, exist_ok=True)
    for child in task.workdir.iterdir():
        if child != keep:
            _remove(child)
    task.bank, task.runs, task.selected, task.highlight, task.origin = None, [], None, [], ""
    task.tokens.clear()
    task.graph_id = uuid.uuid4().hex[:10]


def import_task(task: TaskSession, name: str, data: bytes) -> MemoryBank:
    """Replace the session's task by an export; on a bad file (ImportFormatError) the current task stays."""
    bank, folder = make_bank(task, export=data)
    end_task(task, keep=folder)
    task.bank, task.origin = bank, f"import: {name}"
    return bank


def safe_name(name: str) -> str:
    """An uploaded file's name as a harmless single path component (the user sees the original name)."""
    cleaned = re.sub(r"[^\w.\- ]+", "_", Path(name).name).strip(" .")
    return cleaned[:120] or "upload"


def save_upload(task: TaskSession, name: str, data: bytes) -> Path:
    folder = task.uploads / uuid.uuid4().hex[:8]
    folder.mkdir()
    path = folder / safe_name(name)
    path.write_bytes(data)
    return path


def launch(task: TaskSession, question: str, files: list[Path], text: str | None) -> RunHandle:
    """Start a run on the session's bank (built on first use). Follow-ups reuse the memory as it is."""
    follow_up = task.bank is not None
    if task.bank is None:
        task.bank, _ = make_bank(task)
        task.origin = "run"
    handle = start_run(task.bank, question, files, text, follow_up=follow_up)
    task.tokens.append(handle.cancel_token)
    task.runs.append(handle)
    return handle


def apply_settings(task: TaskSession, settings: Settings) -> None:
    """New settings for this session; an existing memory is carried over into a bank built with them."""
    if task.running:
        raise RuntimeError("a run is in progress: cancel it or wait for it before changing the engine")
    if task.bank is not None:
        task.bank, _ = make_bank(task, settings, export=task.bank.export())
    task.settings = settings


def engine_label(task: TaskSession) -> str:
    """What the UI shows about the engine: the bank's own label, or the one the settings will give."""
    if task.bank is not None:
        return task.bank.engine.label
    return describe_engine(task.settings)
