"""The local model server the app shares between sessions (LLM_PROVIDER=local), and the settings that point a bank
at it. Apart from `session` so the task registry can use it too."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from memory_bank import LocalModelServer, Settings


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
    if settings.needs_local_server:
        return shared_local_server(str(settings.data_dir)).settings_for(settings)
    return settings
