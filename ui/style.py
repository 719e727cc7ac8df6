"""The app's look: a little CSS on top of the theme in `.streamlit/config.toml`, and the sidebar.

The CSS is a constant (no user or document text ever goes into it); it tightens spacing and gives metrics and
bordered containers a card look, so the pages read as one product in a stakeholder demo.
"""

from __future__ import annotations

import streamlit as st

from .format import md_escape
from .session import TaskSession, engine_label, warm_up_embedder

CSS = """
<style>
.block-container { padding-top: 2.2rem; padding-bottom: 3rem; max-width: 1500px; }
h1 { font-weight: 700; letter-spacing: -0.01em; }
div[data-testid="stMetric"] {
  background: #f8f9fc; border: 1px solid #e3e8ef; border-radius: 12px; padding: 10px 14px;
}
div[data-testid="stMetricLabel"] p { color: #64748b; font-size: 0.82rem; }
div[data-testid="stMetricValue"] { font-size: 1.45rem; }
div[data-testid="stVerticalBlockBorderWrapper"] { border-radius: 12px; }
section[data-testid="stSidebar"] { background: #f7f8fc; }
.amb-node-title { font-size: 1.2rem; font-weight: 650; line-height: 1.35; margin: 2px 0 2px; color: #1f2933;
  overflow-wrap: anywhere; }
.amb-pill {
  display: inline-block; padding: 2px 10px; border-radius: 999px; font-size: 0.8rem; font-weight: 600;
}
.amb-running { background: #e7f0ff; color: #1d4ed8; }
.amb-done { background: #e6f6ec; color: #15803d; }
.amb-cancelled { background: #fff4e5; color: #b45309; }
.amb-failed { background: #fdecec; color: #b91c1c; }
.amb-partly { background: #fff1e6; color: #c2410c; }
/* long answers, lists and table cells wrap instead of running off the side */
div[data-testid="stMarkdownContainer"] { overflow-wrap: anywhere; }
div[data-testid="stMarkdownContainer"] pre, div[data-testid="stText"] {
  white-space: pre-wrap; overflow-wrap: anywhere;
}
</style>
"""

STATUS = {"running": ("Running", "amb-running"), "done": ("Done", "amb-done"),
          "cancelled": ("Cancelled", "amb-cancelled"), "failed": ("Failed", "amb-failed"),
          "interrupted": ("Interrupted", "amb-cancelled"), "starting": ("Starting", "amb-running"),
          "queued": ("Queued", "amb-running"),
          "running on another server": ("Running on another server", "amb-running"),
          "running in its owner's session": ("Running (read-only here)", "amb-running"),
          "partly failed": ("Partly failed", "amb-partly")}


def apply_style() -> None:
    st.html(CSS)


def status_pill(status: str) -> None:
    label, css = STATUS.get(status, (status, "amb-running"))
    st.html(f'<span class="amb-pill {css}">{label}</span>')


def nav_links(pages: dict[str, list]) -> None:
    """The page links in the sidebar, drawn by the app itself: Streamlit's own sidebar navigation is off
    (`client.showSidebarNavigation`), because on a server's first session it first lists the `pages/` folder's
    file names and only then the titles given to `st.navigation`: a flash of the wrong menu on first paint."""
    with st.sidebar:
        for section, entries in pages.items():
            st.caption(section)
            for page in entries:
                st.page_link(page)


def _embedder_status(task: TaskSession) -> None:
    """Polls while the model loads, so "loading" turns into "ready" by itself. It does not redraw the app when
    the model is ready (that would stop the polling): the model is ready a few seconds after the first page
    view, just when a user clicks Start, and a full rerun asked for by the script at that moment would compete
    with the click's own run. The polling stops at the next full run. (A Start clicked before the model is
    ready waits on the Run page: `pending.PendingStart`.)"""
    loading = warm_up_embedder(task.settings).is_alive()

    @st.fragment(run_every=1.0 if loading else None)
    def status() -> None:
        still = warm_up_embedder(task.settings).is_alive()
        st.caption("Embedding model: loading in the background…" if still else "Embedding model: ready")

    status()


def sidebar(task: TaskSession) -> None:
    with st.sidebar:
        st.caption(md_escape(engine_label(task)))
        _embedder_status(task)
        if task.bank is None:
            st.caption("No task in memory yet.")
            return
        _memory_status(task, task.running)


def _memory_status(task: TaskSession, running: bool) -> None:
    """While a run is alive this polls, and redraws the whole app once the run has ended: a run that ends
    between the sidebar and the page being drawn would otherwise leave "in progress" here for good."""

    @st.fragment(run_every=1.0 if running else None)
    def status() -> None:
        if running and not task.running:
            st.rerun()
        if task.running:  # live numbers are on the Run page
            st.caption("A run is in progress — live numbers on the Run page.")
            return
        counts = task.bank.snapshot().counts
        st.caption(md_escape(f"{counts['nodes']} nodes · {counts['edges']} edges · {counts['merges']} merges · "
                             f"{counts['pending_conflicts']} pending conflicts — from {task.origin or 'a run'}"))

    status()
