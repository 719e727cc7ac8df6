"""Per-browser-session state, and which stored task the session shows.

Streamlit shares imported modules between all users, so everything that belongs to one browser session lives in
one `TaskSession` inside `st.session_state`: its settings (an API key typed in the UI stays here and nowhere
else), its upload folder and its selection. The task itself (bank and runs) belongs to the process-wide registry
(`ui.tasks`), found again by the `?task=` id in the URL: a reload, a second tab or the link shows the same task,
and its run goes on while no page watches it. Shared through `st.cache_resource` too: the embedding model,
read-only and thread-safe. The upload folder goes when Streamlit drops the session (its `weakref.finalize`,
also at exit); the task's files were copied into the store when its run started.
"""

from __future__ import annotations

import logging
import shutil
import sys
import threading
import uuid
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from memory_bank import (
    LOCAL_USER,
    MAX_TASK_NAME,
    CancelToken,
    InputError,
    MemoryBank,
    Settings,
    describe_engine,
    ingestion_estimate,
    load_embedder,
    safe_name,
    shorten_name,
)

from . import tempdirs
from .pending import PendingStart, PendingStarts
from .signin import current_user
from .tasks import LiveTask, registry_for, run_slots
from .worker import RunHandle, start_run

log = logging.getLogger(__name__)
KEY = "task_session"
SAMPLES_DIR = Path(__file__).resolve().parents[1] / "samples"
APP = Path(__file__).resolve().parents[1] / "app.py"


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


def _embedder_key(settings: Settings) -> tuple[str | None, str, str]:
    """What picks the model: its path, the runtime, and the folder its ONNX file is kept in."""
    return settings.embedding_model_path, settings.embedding_runtime, str(settings.data_dir / "models" / "embedding")


def shared_embedder(settings: Settings) -> Any:
    return _shared_embedder(*_embedder_key(settings))


@st.cache_resource(show_spinner="Loading the embedding model…")
def _shared_embedder(model_path: str | None, runtime: str, cache_dir: str) -> Any:
    """One embedding model per process: it is read-only and guards its own inference with a lock."""
    return load_embedder(model_path, runtime=runtime, cache_dir=Path(cache_dir))


def warm_up_embedder(settings: Settings) -> threading.Thread:
    return _warm_up_embedder(*_embedder_key(settings))


@st.cache_resource(show_spinner=False)
def _warm_up_embedder(model_path: str | None, runtime: str, cache_dir: str) -> threading.Thread:
    """Load the model in the background from the first page view (once per process): loading takes seconds (the
    first time also the ONNX export), and a user who has just clicked Start should not wait for it on top of the
    ingestion."""
    thread = threading.Thread(target=_shared_embedder, args=(model_path, runtime, cache_dir),
                              name="embedder-warm-up", daemon=True)
    thread.start()
    return thread


@st.cache_resource(show_spinner=False)
def pending_starts() -> PendingStarts:
    """The starts waiting for the embedding model, for the whole process: a reload finds its start again."""
    return PendingStarts()


def model_ready(settings: Settings) -> bool:
    """Whether the shared embedding model is loaded (the warm-up thread has finished)."""
    return not warm_up_embedder(settings).is_alive()


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


def _cleanup(workdir: Path) -> None:
    """A dropped session takes its upload folder along, never its task's run: that goes on in the registry."""
    _remove(workdir)


@dataclass
class TaskSession:
    settings: Settings
    workdir: Path
    task_id: str | None = None  # the stored task shown (None: none yet; the next Start creates one)
    bank: MemoryBank | None = None
    runs: list[RunHandle] = field(default_factory=list)
    graph_id: str = field(default_factory=lambda: uuid.uuid4().hex[:10])
    selected: str | None = None
    highlight: list[str] = field(default_factory=list)
    click_nonce: str | None = None
    origin: str = ""  # "run" or "import: <file name>"
    tokens: list[CancelToken] = field(default_factory=list)
    settings_error: str | None = None  # a bad variable in the environment or .env: the defaults run instead
    created_here: set[str] = field(default_factory=set)  # shared mode: ids this browser is to remember
    browser_ids: list[str] | None = None  # shared mode: what the browser remembers (None until it says)
    pending: PendingStart | None = None  # a Start waiting for the embedding model (the Run page starts it)
    read_only: str = ""  # why the task shown is a read-only copy (a shared link, or open on another server)
    viewing: LiveTask | None = None  # that copy (its folder goes with it)
    viewing_key: str = ""  # the link it came from, so a page view does not load it again
    user: str = LOCAL_USER  # whose tasks and long-term memory these are (the signed-in user in multi-user mode)

    @property
    def current_run(self) -> RunHandle | None:
        return self.runs[-1] if self.runs else None

    @property
    def running(self) -> bool:
        """A run is going, or is about to (a Start waits for the model): no second Start meanwhile."""
        return self.pending is not None or any(r.alive for r in self.runs)

    @property
    def uploads(self) -> Path:
        folder = self.workdir / "uploads"
        folder.mkdir(parents=True, exist_ok=True)
        return folder


def task_embedder(task: TaskSession) -> Any:
    return shared_embedder(task.settings)


def _new_workdir() -> Path:
    _sweep_once()
    return tempdirs.make("session")


@st.cache_resource(show_spinner=False)
def _sweep_once() -> list[Path]:
    """Once per server process: the temp folders of app processes that were killed (they could not clean up)."""
    return tempdirs.sweep_orphans()


def _route_through_app() -> None:
    """Until a server process has run app.py's `st.navigation` once, Streamlit serves a first request for a
    sub-page URL (a task link `/run?task=…` right after a restart) with its legacy `pages/` folder router: the
    page file runs alone and app.py (URL -> task, navigation, sidebar) never does. Switch that router off and
    rerun: the same URL then goes through app.py. Once per process; Streamlit has no public switch for it."""
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory and not _inside(APP):
        PagesManager.uses_pages_directory = False
        st.rerun()


def _inside(script: Path) -> bool:
    """Whether `script` is running further up this call stack (app.py runs every page through `st.navigation`)."""
    frame = sys._getframe(1)
    while frame is not None:
        if Path(frame.f_code.co_filename).resolve() == script:
            return True
        frame = frame.f_back
    return False


def get_task() -> TaskSession:
    """This browser session's task, created on first use. In multi-user mode every page's first call: a session
    that is not signed in gets the sign-in page, and the script stops there, before anything is made for it."""
    task = st.session_state.get(KEY)
    if task is not None:
        task.user = current_user(task.settings)
        return task
    _route_through_app()  # a session's first run: no click or input to lose by a rerun
    # a bad variable: the page says so and runs on the defaults (keeping the accounts file and the data folder)
    settings, error = Settings.from_env_or_defaults()
    user = current_user(settings)
    task = TaskSession(settings=settings, workdir=_new_workdir(), settings_error=error, user=user)
    weakref.finalize(task, _cleanup, task.workdir)
    st.session_state[KEY] = task
    warm_up_embedder(task.settings)
    return task


def attach(task: TaskSession, live: LiveTask) -> None:
    """Show `live` in this session (and put its id in the URL): its bank, and its runs list itself, so a run
    started from another tab appears here too."""
    task.task_id, task.bank, task.runs = live.task_id, live.bank, live.runs
    task.read_only, task.viewing, task.viewing_key = "", None, ""
    st.query_params.pop("share", None)
    task.origin = live.origin or "run"
    task.selected, task.highlight, task.graph_id = None, [], uuid.uuid4().hex[:10]
    st.query_params["task"] = live.task_id


def forget_pending(task: TaskSession) -> None:
    """The session moved on: its waiting start (if any) will not begin."""
    if task.pending is not None:
        pending_starts().drop(task.pending.token)
        task.pending = None
    st.query_params.pop("start", None)


def follow_pending(task: TaskSession) -> None:
    """Every page view: a session that shows no task takes up the waiting start its URL names (`?start=`, the
    page reloaded while the start waited); a session with one keeps it named in the URL."""
    wanted = st.query_params.get("start")
    if task.pending is not None:
        if wanted != task.pending.token:
            st.query_params["start"] = task.pending.token
    elif wanted and task.task_id is None and task.bank is None:
        task.pending = pending_starts().get(wanted, task.user)
        if task.pending is None:
            st.query_params.pop("start", None)  # begun (or dropped) meanwhile


def detach(task: TaskSession) -> None:
    """Show no task (the stored one stays as it is); the next Start creates a new one."""
    task.task_id, task.bank, task.runs, task.selected, task.highlight, task.origin = None, None, [], None, [], ""
    forget_pending(task)
    task.read_only, task.viewing, task.viewing_key = "", None, ""
    task.graph_id = uuid.uuid4().hex[:10]
    st.query_params.pop("task", None)
    st.query_params.pop("share", None)


def open_task(task: TaskSession, task_id: str) -> LiveTask:
    """Show a stored task by id: the live one if this server has it open, else loaded from the store
    (`TaskNotFound` for an unknown id)."""
    live = registry_for(task.settings).open(task_id, task.settings, task_embedder(task), task.user)
    attach(task, live)
    return live


def end_task(task: TaskSession) -> None:
    """End the task (the seeds' end of a task): stop its run and clear its memory, in the store too, and drop
    this session's uploads."""
    if task.task_id is not None:
        registry = registry_for(task.settings)
        live = registry.open(task.task_id, task.settings, task_embedder(task), task.user)
        for run in live.runs:
            run.cancel()
        for run in live.runs:
            run.join(timeout=10)
        live.bank.clear()
        live.runs.clear()
        registry.close(task.task_id)
    for child in task.workdir.iterdir() if task.workdir.is_dir() else ():
        _remove(child)  # this session's uploads (the task's runs copied them into the store)
    detach(task)


def import_task(task: TaskSession, name: str, data: bytes) -> MemoryBank:
    """An export becomes a new task (graph, answers, Insight Doc and run log); on a bad file
    (ImportFormatError) nothing is created and the current task stays."""
    live = registry_for(task.settings).create(task.settings, task_embedder(task),
                                              f"import: {shorten_name(name, MAX_TASK_NAME - 8)}", task.user,
                                              export=data)
    task.created_here.add(live.task_id)
    attach(task, live)
    return live.bank


def save_upload(task: TaskSession, name: str, data: bytes) -> Path:
    folder = task.uploads / uuid.uuid4().hex[:8]
    folder.mkdir()
    path = folder / safe_name(name, default="upload")
    path.write_bytes(data)
    return path


def launch(task: TaskSession, question: str, files: list[Path], text: str | None) -> None:
    """Start a run on the session's task (a new stored task on first use; follow-ups reuse the memory). While
    the embedding model still loads, a new task's start waits as `task.pending` (see `PendingStart`)."""
    if task.read_only:  # a question asked over a read-only copy starts a task of one's own
        detach(task)
    if task.task_id is None and not model_ready(task.settings):
        task.pending = pending_starts().add(question, files, text, task.user)
        st.query_params["start"] = task.pending.token
        return
    registry = registry_for(task.settings)
    follow_up = task.bank is not None
    if task.task_id is None:
        live = registry.create(task.settings, task_embedder(task), question[:80], task.user)
        task.created_here.add(live.task_id)
        attach(task, live)
    handle = start_run(task.bank, question, files, text, follow_up=follow_up,
                       estimate=cost_estimate(task.settings, files), slots=run_slots(task.settings))
    task.tokens.append(handle.cancel_token)
    task.runs.append(handle)


def cost_estimate(settings: Settings, files: Sequence[Path]) -> tuple[int, float] | None:
    """(pages, cost) of reading `files` with these prices, or None. A file that cannot be opened gets no
    estimate here: the run itself reports it (as 'not read', with the reason) a moment later."""
    try:
        return ingestion_estimate(settings, files)
    except InputError:
        return None


def start_pending(task: TaskSession) -> bool:
    """The Run page asks about once a second: once the model is ready, the waiting start begins. True when it
    did (the page then redraws with the run)."""
    pending = task.pending
    if pending is None or not model_ready(task.settings):
        return False
    task.pending = None
    st.query_params.pop("start", None)
    taken = pending_starts().take(pending.token, task.user, task.uploads)
    if taken is not None:  # else another view of the page (a second tab) began it
        launch(task, taken.question, list(taken.files), taken.text)
    return True


def resume(task: TaskSession) -> RunHandle:
    """Continue the task's interrupted run (see `MemoryBank.resume`)."""
    live = registry_for(task.settings).open(task.task_id or "", task.settings, task_embedder(task), task.user)
    return registry_for(task.settings).resume(live, run_slots(task.settings))


def start_sample(task: TaskSession, sample: Sample) -> None:
    """A sample is a task of its own: it never adds its documents to the memory already in the session (that
    task stays stored, listed on the Tasks page)."""
    if task.bank is not None:
        detach(task)
    launch(task, sample.question, list(sample.files), None)


def apply_settings(task: TaskSession, settings: Settings) -> None:
    """New settings for this session; an open task is reopened on them (its memory as stored)."""
    if task.running:
        raise RuntimeError("a run is in progress: cancel it or wait for it before changing the engine")
    task.settings = settings
    if task.task_id is not None:
        attach(task, registry_for(settings).reopen(task.task_id, settings,
                                                   shared_embedder(settings), task.user))


def engine_label(task: TaskSession) -> str:
    """What the UI shows about the engine: the bank's own label, or the one the settings will give."""
    if task.bank is not None:
        return task.bank.engine.label
    return describe_engine(task.settings)
