"""Settings: the engine (offline, or an OpenAI-compatible endpoint) and the memory's knobs, for this session.

An API key typed here lives only in this browser session's settings object: the field is never pre-filled,
the key is never shown back, and exports and logs carry `public_dict()` only.
"""

from __future__ import annotations

import streamlit as st
from pydantic import ValidationError

from memory_bank import AGENT_SLOTS, PRESETS, PRICE_PRESETS, MemoryBankError, Settings, check_connection
from ui.format import md_escape
from ui.local_model import with_endpoint
from ui.session import apply_settings, engine_label, get_task

PRESET_LABELS = {"llm": "LLM for everything", "answers": "LLM for answers only (offline ingestion; with the local "
                 "model: *Local model for answers*)", "custom": "Custom: choose per agent"}
AGENT_LABELS = {"classification": "Classification", "structure": "Structure (summaries)", "analysis": "Analysis "
                "(relations)", "integration": "Integration (merges)", "planning": "Planning",
                "react": "Answer (ReAct) and cross-validation", "image": "Image recognition"}

task = get_task()
current = task.settings
st.title("Settings")
header = st.empty()  # filled last, so it names the engine after a save in this same run


def candidate(values: dict) -> Settings:
    """The current settings with the form's values; a blank key field keeps the key already set."""
    update = {k: v for k, v in values.items() if k != "llm_api_key"}
    data = {**current.model_dump(), **update}
    if values.get("llm_api_key"):
        data["llm_api_key"] = values["llm_api_key"]
    return Settings.model_validate(data)


with st.form("settings", border=True):
    st.subheader("Engine")
    engine = st.radio("Engine", ["offline", "llm"], index=0 if current.engine == "offline" else 1, horizontal=True,
                      label_visibility="collapsed",
                      format_func={"offline": "Offline (classical NLP, no LLM, no network)",
                                   "llm": "LLM (any OpenAI-compatible endpoint)"}.get)
    provider = st.radio("LLM provider", ["openai", "local"], index=1 if current.llm_provider == "local" else 0,
                        horizontal=True, format_func={
                            "openai": "An OpenAI-compatible endpoint (below)",
                            "local": "The local model on this machine (Qwen2.5-Coder-1.5B, llama.cpp; no network)"}.get)
    url_col, model_col = st.columns(2)
    base_url = url_col.text_input("Base URL", value=current.llm_base_url or "",
                                  placeholder="https://api.openai.com/v1 · http://localhost:11434/v1 (Ollama)")
    model = model_col.text_input("Model", value=current.llm_model or "", placeholder="gpt-4o-mini, deepseek-chat…")
    key_hint = "A key is set for this session (hidden). Type a new one to replace it." if current.llm_api_key \
        else "Kept in this browser session only; never exported, logged or shown again."
    # a fresh widget key after each save empties the field: a saved key is never sent back to the browser
    api_key = st.text_input("API key", value="", type="password", help=key_hint, placeholder=key_hint,
                            key=f"api-key-{st.session_state.get('settings_saves', 0)}")
    preset_now = {None: "custom", "offline": "llm"}.get(current.preset_name(), current.preset_name())
    preset = st.selectbox("Which agents use the LLM", list(PRESET_LABELS), index=list(PRESET_LABELS).index(
        preset_now), format_func=PRESET_LABELS.get, help="With the offline engine chosen above, none do.")
    with st.expander("Engine per agent (used by Custom)"):
        per_agent = {slot: st.radio(AGENT_LABELS[slot], ["offline", "llm"], horizontal=True, key=f"agent-{slot}",
                                    index=1 if current.engine_for(slot) == "llm" else 0)
                     for slot in AGENT_SLOTS}
    st.subheader("Memory and loop")
    c1, c2, c3 = st.columns(3)
    k = c1.slider("Retrieval k", 1, 30, current.retrieval_k)
    alpha = c2.slider("α (BM25 weight; 1 − α for cosine)", 0.0, 1.0, current.retrieval_alpha, 0.05)
    window = c3.number_input("Agent window (tokens)", 512, 1_000_000, current.agent_window, step=1000)
    c4, c5, c6, c7 = st.columns(4)
    concurrency = c4.number_input("LLM concurrency", 1, 64, current.llm_concurrency)
    max_calls = c5.number_input("Budget: LLM calls", 1, 1_000_000, current.max_llm_calls)
    max_tokens = c6.number_input("Budget: tokens", 1_000, 1_000_000_000, current.max_tokens, step=10_000)
    max_rounds = c7.number_input("Max rounds", 1, 100, current.max_rounds)
    st.subheader("Cost")
    st.caption("Prices per million tokens, as your provider lists them. Empty: no cost is shown. A preset fills "
               "the three prices when saved; edit them after.")
    p0, p1, p2, p3, p4 = st.columns(5)
    price_preset = p0.selectbox("Preset", ["(my prices)", *PRICE_PRESETS], help="US dollars per million tokens")
    price_input = p1.number_input("Input", 0.0, 1_000.0, current.price_input, step=0.05, format="%.3f")
    price_cached = p2.number_input("Cached input", 0.0, 1_000.0, current.price_cached, step=0.05, format="%.3f",
                                   help="Prompt tokens the provider served from its cache; empty: the input price")
    price_output = p3.number_input("Output", 0.0, 1_000.0, current.price_output, step=0.05, format="%.3f")
    max_cost = p4.number_input("Budget: money", 0.0, 1_000_000.0, current.max_cost, step=1.0, format="%.2f",
                               help="A run stops when its cost reaches this (needs the input and output prices)")
    save, test = st.columns(2)
    saved = save.form_submit_button("Save", type="primary", icon=":material/save:")
    tested = test.form_submit_button("Test connection", icon=":material/lan:")

agent_engines = {} if engine == "offline" else dict(PRESETS[preset]) if preset in PRESETS else per_agent
values = {"engine": engine, "llm_provider": provider, "agent_engines": agent_engines,
          "llm_base_url": base_url, "llm_model": model, "llm_api_key": api_key,
          "retrieval_k": k, "retrieval_alpha": alpha, "agent_window": int(window),
          "llm_concurrency": int(concurrency), "max_llm_calls": int(max_calls), "max_tokens": int(max_tokens),
          "max_rounds": int(max_rounds), "max_cost": max_cost or None,
          **dict(zip(("price_input", "price_cached", "price_output"),
                     PRICE_PRESETS.get(price_preset, (price_input, price_cached, price_output))))}

if saved or tested:
    try:
        settings = candidate(values)
        settings.check_llm()
    except ValidationError as exc:
        st.error("These settings are not valid: " + "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()))
        st.stop()
    except MemoryBankError as exc:
        st.error(str(exc))
        st.stop()
    if tested:
        if not settings.needs_llm:
            st.warning("Choose the LLM engine and a model to test a connection; the offline engine needs none.")
        else:
            with st.spinner("Asking the endpoint for one word…"):
                try:
                    st.success(md_escape(check_connection(with_endpoint(settings))))
                except MemoryBankError as exc:
                    st.error(md_escape(f"Connection failed: {exc}"))
    if saved:
        # saving an LLM endpoint tests it too: a dead or rejecting endpoint is said plainly now, not discovered
        # as a run that stops; it is saved anyway (the server may be started later)
        down = None
        if settings.needs_llm and settings.llm_provider != "local":  # the local model is tested when it starts
            with st.spinner("Testing the connection…"):
                try:
                    check_connection(settings)
                except MemoryBankError as exc:
                    down = exc
        try:
            apply_settings(task, settings)
        except (RuntimeError, MemoryBankError) as exc:
            st.error(md_escape(f"Settings not applied: {exc}"))
        else:
            st.session_state["settings_saves"] = st.session_state.get("settings_saves", 0) + 1
            st.session_state["settings_flash"] = f"Saved for this session. Engine: {engine_label(task)}."
            if down is not None:
                st.session_state["settings_down"] = (
                    f"The LLM endpoint is not answering: {down}. Runs will stop at once with this message until "
                    "it does: check the base URL, key and model, or start the server.")
            st.rerun()

flash = st.session_state.pop("settings_flash", None)
if flash:
    st.success(md_escape(flash))
endpoint_down = st.session_state.pop("settings_down", None)
if endpoint_down:
    st.error(md_escape(endpoint_down))

header.caption(f"Now: {md_escape(engine_label(task))}. Changes apply to this browser session only.")
with st.expander("Effective settings (no secrets)"):
    st.json(task.settings.public_dict())
