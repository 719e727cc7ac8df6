"""Sign-in for multi-user mode (`MEMORY_BANK_USERS_FILE` set): the page shown before anything else, the sign-out,
and the session's end.

Single-user mode has none of it: every view is `LOCAL_USER`'s. In multi-user mode a browser session that is not
signed in gets the sign-in form and nothing else (app.py stops before any page or task is touched). Who signed in
is kept on the server, in the session's state (a browser holds nothing it could forge); a reload or a new tab is
a new session and signs in again. The session ends after `session_idle_minutes` without a page view, after
`session_max_hours` in any case, and when the user is removed from the accounts file; sign-out and the end both
drop everything the session held. An accounts file that goes bad refuses everyone, never falls back to single-user.
"""

from __future__ import annotations

import time
from pathlib import Path

import streamlit as st

from memory_bank import LOCAL_USER, MAX_PASSWORD, Accounts, ConfigError, SessionPolicy, Settings, Throttle, sign_in

KEY = "signed_in"
ENDED_KEY = "signed_in_ended"


@st.cache_resource(show_spinner=False)
def _accounts(path: str) -> Accounts:
    """One per server process and file: it re-reads the file when it changes."""
    return Accounts(Path(path))


@st.cache_resource(show_spinner=False)
def _throttle(path: str) -> Throttle:
    """The failed sign-ins against one accounts file, for the whole server process (every session shares it, or
    a reload would reset it)."""
    return Throttle()


def current_user(settings: Settings) -> str:
    """Who this page view is for: `LOCAL_USER` without accounts; with them, the signed-in user, or the sign-in
    page is drawn and the script stops here."""
    if settings.users_file is None:
        return LOCAL_USER
    accounts = _accounts(str(settings.users_file))
    try:
        accounts.users()
    except ConfigError as exc:
        st.error(f"Multi-user mode cannot start: {exc}", icon=":material/lock:")
        st.stop()
    held = st.session_state.get(KEY)
    if held is not None:
        fresh = SessionPolicy.from_settings(settings).touch(held, time.time())
        if fresh is not None and accounts.exists(fresh.user):
            st.session_state[KEY] = fresh
            return fresh.user
        _forget()
        st.session_state[ENDED_KEY] = True
    _form(accounts)
    st.stop()
    raise AssertionError("unreachable: st.stop() ends the script")


def _forget() -> None:
    """Drop everything the session held: its task, its long-term memory, its sign-in."""
    for key in list(st.session_state.keys()):
        del st.session_state[key]


def _form(accounts: Accounts) -> None:
    st.title("Sign in")
    if st.session_state.pop(ENDED_KEY, False):
        st.info("Your session has ended: sign in again.", icon=":material/schedule:")
    with st.form("sign-in", clear_on_submit=True):
        name = st.text_input("User name", key="signin-name", max_chars=64, autocomplete="username")
        password = st.text_input("Password", type="password", key="signin-password", max_chars=MAX_PASSWORD,
                                 autocomplete="current-password")
        submitted = st.form_submit_button("Sign in", key="signin-submit", type="primary")
    if not submitted:
        return
    result = sign_in(accounts, _throttle(str(accounts.path)), name.strip(), password, st.context.ip_address)
    if result.session is None:
        st.error(result.message, icon=":material/lock:")
        return
    st.session_state[KEY] = result.session
    st.rerun()


def sign_out_button(user: str) -> None:
    """In the sidebar of multi-user mode: who is signed in, and the way out."""
    if user == LOCAL_USER and KEY not in st.session_state:
        return
    with st.sidebar:
        st.caption(f"Signed in as **{user}**")
        if st.button("Sign out", key="sign-out", icon=":material/logout:"):
            _forget()
            st.query_params.clear()
            st.rerun()
