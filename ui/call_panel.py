"""The Run page's live LLM panel: the call in progress and the time left (issue 29 item 4).

A call on a small local model takes 10-60 s; without this the page shows nothing moving meanwhile. Drawn in the
Run page's status fragment from the snapshot's `LiveProgress` (the worker thread never draws). The item a call is
for comes from data (a file name, a node's topic), so it is escaped; so is everything else, to be sure.
"""

from __future__ import annotations

import streamlit as st

from memory_bank import LiveCall, LiveProgress

from .format import md_escape

SHOWN_CALLS = 4  # calls in flight at once: as many as the local server's slots, a few more on an API
HOW = ("From the calls this run already knows it will make (chunks still to classify, the batches of the current "
       "wave, pending conflicts, the answer), each at its agent's measured seconds a call. Calls decided later "
       "(the next waves' batches, planning steps, further ReAct steps) are not in it yet, so the run may take "
       "longer.")


def rough(seconds: float) -> str:
    """A time left as a person says it: seconds under a minute and a half, then whole minutes."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    return f"{round(seconds / 60)} min"


def call_line(call: LiveCall) -> str:
    """'Calling analysis for node 'Budget' · 12 s · 38 tokens at 11.8 tok/s', as escaped markdown."""
    head = f"Calling **{md_escape(call.agent)}**" + (f" for {md_escape(call.item)}" if call.item else "")
    if call.tokens_so_far:
        rate = f" at {call.tokens_per_s:.1f} tok/s" if call.tokens_per_s else ""
        reply = f"{call.tokens_so_far:,} token{'s' if call.tokens_so_far != 1 else ''}{rate}"
    else:
        reply = f"waiting for the first token ({call.prompt_tokens:,} prompt tokens)"
    return f"{head} · {call.elapsed_s:.0f} s · {reply}"


def time_left_line(live: LiveProgress) -> str:
    left = live.time_left
    if left is None:
        return "Time left: estimating… (no LLM call has been measured yet)"
    if not left.calls:
        return f"About {rough(left.seconds)} left (the call in progress)"
    calls = f"{left.calls} call{'s' if left.calls != 1 else ''}"
    return f"About {rough(left.seconds)} left (≈{calls} at ~{left.seconds_per_call:.0f} s)"


def speed_line(live: LiveProgress) -> str | None:
    """The measured speeds, over every agent's recent calls."""
    gen, prompt = live.gen_per_s, live.prompt_per_s
    parts = ([f"writes {gen:.1f} tok/s"] if gen else []) + ([f"reads the prompt at {prompt:.0f} tok/s"]
                                                              if prompt else [])
    return "Model measured: " + ", ".join(parts) if parts else None


def live_calls_panel(live: LiveProgress, *, running: bool, uses_llm: bool) -> None:
    """Nothing unless a run is going on with an LLM agent (the offline engine makes no calls to follow)."""
    if not (running and uses_llm):
        return
    with st.container(border=True):
        for call in live.calls[:SHOWN_CALLS]:
            st.markdown(call_line(call))
        if len(live.calls) > SHOWN_CALLS:
            st.caption(f"and {len(live.calls) - SHOWN_CALLS} more calls in flight")
        if not live.calls:
            st.markdown("No LLM call in flight at this moment (the run is doing offline work).")
        st.caption(md_escape(time_left_line(live)), help=HOW)
        speeds = speed_line(live)
        if speeds:
            st.caption(speeds)
