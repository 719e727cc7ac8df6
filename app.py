"""Agentic Memory Bank — the browser app. Start it with `streamlit run app.py` (see README).

This file only sets the page up and routes; each page in `pages/` draws, and `ui/` holds the session state, the
run worker and the shared drawing blocks.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from components.task_ids import browser_task_ids
from memory_bank import StoreError
from ui.links import sync_with_url
from ui.session import get_task
from ui.signin import sign_out_button
from ui.style import apply_style, nav_links, sidebar

LOGO = Path(__file__).resolve().parent / "ui" / "logo.svg"
LOGO_ICON = LOGO.with_name("icon.svg")

st.set_page_config(page_title="Agentic Memory Bank", page_icon=str(LOGO_ICON), layout="wide")
st.logo(str(LOGO), size="large")
apply_style()
task = get_task()  # multi-user mode: the sign-in page, and nothing else, until signed in
if task.settings_error:
    st.warning(f"{task.settings_error}. The app runs with the default settings (offline engine) until the "
               "variable is fixed and the app restarted.", icon=":material/warning:")
try:
    if problem := sync_with_url(task):
        st.warning(problem, icon=":material/link_off:")
    if task.read_only:
        st.info(task.read_only, icon=":material/visibility:")
except StoreError as exc:  # a damaged or newer database: said once, plainly, instead of a traceback per page
    st.error(f"{exc}", icon=":material/database:")
    st.stop()
pages = {
    "Task": [
        st.Page("pages/new_task.py", title="New task", icon=":material/add_circle:", default=True),
        st.Page("pages/run.py", title="Run", icon=":material/play_circle:"),
        st.Page("pages/tasks.py", title="Tasks", icon=":material/list:"),
    ],
    "Memory": [
        st.Page("pages/graph.py", title="Query Graph", icon=":material/hub:"),
        st.Page("pages/timeline.py", title="Merges & conflicts", icon=":material/call_merge:"),
        st.Page("pages/export_import.py", title="Export / import", icon=":material/download:"),
        st.Page("pages/long_term.py", title="Long-term memory", icon=":material/psychology:"),
    ],
    "Configure": [st.Page("pages/settings.py", title="Settings", icon=":material/settings:")],
}
navigation = st.navigation(pages)
nav_links(pages)
sidebar(task)
sign_out_button(task.user)
if task.settings.shared:  # each browser lists the tasks it created (kept in its local storage)
    with st.sidebar:  # read back only on the Tasks page, the one that lists them (see browser_task_ids)
        ids = browser_task_ids(add=sorted(task.created_here), known=task.browser_ids,
                               report=navigation.url_path == "tasks")
        if ids is not None:
            task.browser_ids = ids
navigation.run()
