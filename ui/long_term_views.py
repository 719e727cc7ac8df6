"""Long-term memory in the app (seed 004): the user's memory object, feedback under answers, what a run took.

One memory per user: `LOCAL_USER` in single-user mode, the signed-in user in multi-user mode. It lives in
`data_dir/long_term/<user>/` and outlives sessions; each browser session opens its own `LongTermMemory` on the
same files (writes are locked and atomic, and each instance re-reads what another wrote). A corrupt index does
not stop the app: runs go on without long-term memory and the Long-term memory page says what is wrong and where
the backup is.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from memory_bank import (
    InjectedItem,
    LongTermMemory,
    LongTermStoreError,
    MemoryBankError,
    MemoryRecord,
    Settings,
    record_withheld,
)

from .format import md_escape, short
from .worker import RunView

KEY = "long_term"
ERROR_KEY = "long_term_error"
RATED_KEY = "long_term_rated"


def long_term_for(settings: Settings, user: str, embedder: Any) -> LongTermMemory | None:
    """`user`'s long-term memory under `settings.data_dir`, held by this session (None while its index cannot be
    read). The user is the signed-in one (`LOCAL_USER` in single-user mode): one user's records never reach
    another's prompts."""
    where = (str(settings.data_dir), user, settings.long_term_half_life_days, settings.long_term_min_confidence,
             settings.long_term_budget_tokens)
    held = st.session_state.get(KEY)
    if held is not None and held[0] == where:
        return held[1]
    try:
        ltm = LongTermMemory.from_settings(settings, user, embedder=embedder)
    except LongTermStoreError as exc:
        st.session_state[ERROR_KEY] = str(exc)
        return None
    st.session_state.pop(ERROR_KEY, None)
    st.session_state[KEY] = (where, ltm)
    return ltm


def long_term_error() -> str | None:
    return st.session_state.get(ERROR_KEY)


# -- under each answer on the Run page -------------------------------------------------------------------------

def long_term_answer(view: RunView, ltm: LongTermMemory | None, *, key: str) -> None:
    """Feedback buttons and "from long-term memory" for one finished answer."""
    result = view.result
    if result is None or result.long_term is None or ltm is None:
        return
    use = result.long_term
    _feedback(ltm, use.answer_id, key)
    injection = use.injection
    count = len(injection.items) if injection else 0
    with st.expander(f"From long-term memory ({count} record{'s' if count != 1 else ''})"):
        if injection is None or not injection.items:
            st.caption("Nothing in long-term memory matched this question.")
        else:
            st.caption(f"Intent: {injection.analysis.intent.value}; searched: "
                       f"{', '.join(c.value for c in injection.analysis.categories)}; "
                       f"{injection.tokens} of {injection.budget_tokens} tokens"
                       + (f"; {len(injection.dropped)} over budget" if injection.dropped else ""))
            for item in injection.items:
                st.markdown(injected_markdown(item))
            if injection.withheld:
                st.caption(f"{len(injection.withheld)} matching record(s) withheld: their text reads as an "
                           f"instruction ({'; '.join(w.reasons for w in injection.withheld)}).")
        if use.strategies_applied:
            st.markdown("Recovery strategies applied: " + ", ".join(f"`{i}`" for i in use.strategies_applied))
        if use.distilled:
            st.markdown(f"Learnt from this task: {len(use.distilled)} record(s) "
                        "(see the Long-term memory page).")
        if use.refused:
            st.caption(f"Not learnt: {len(use.refused)} lesson(s) refused "
                       f"({'; '.join(r.reasons for r in use.refused)}).")


def injected_markdown(item: InjectedItem) -> str:
    """One record as the prompt had it: a quotation, under the source it is quoted from and why it ranked."""
    kind = "L3 summary" if item.as_summary else f"tier {item.tier}"
    who = item.provenance.value.replace("_", "-")
    source = ("the user's own note" if item.own_words
              else f"quoted from task {item.source_task}" if item.source_task else "quoted from an earlier task")
    return (f"**{md_escape(item.category.value)}** ({kind}) · {md_escape(source)} · {md_escape(who)} · "
            f"{md_escape(item.memory_id)}\n\n"
            f"> {md_escape(short(item.quote, 300))}\n\n_{md_escape(item.why)}_")


def _feedback(ltm: LongTermMemory, answer_id: str, key: str) -> None:
    rated: dict[str, str] = st.session_state.setdefault(RATED_KEY, {})
    if answer_id in rated:
        st.caption(rated[answer_id])
        return
    up, down, reason_col = st.columns([1, 1, 6], vertical_alignment="bottom")
    reason = reason_col.text_input("Why? (optional)", key=f"{key}-reason", max_chars=500,
                                   placeholder="optional reason, kept with the rating")
    if up.button("👍", key=f"{key}-up", help="A good answer: the long-term records it used gain weight"):
        _rate(ltm, answer_id, "up", reason, rated)
    if down.button("👎", key=f"{key}-down", help="A bad answer: the records it used lose weight and are flagged"):
        _rate(ltm, answer_id, "down", reason, rated)


def _rate(ltm: LongTermMemory, answer_id: str, rating: str, reason: str, rated: dict[str, str]) -> None:
    try:
        changed = ltm.feedback(answer_id, rating, reason)
    except MemoryBankError as exc:
        st.error(f"The feedback was not saved: {exc}")
        return
    mark = "👍" if rating == "up" else "👎"
    rated[answer_id] = f"{mark} saved; {len(changed)} long-term record(s) updated."
    st.rerun()


# -- the Long-term memory page -----------------------------------------------------------------------------

def in_prompts(record: MemoryRecord) -> str:
    """'yes', or why the record is withheld from prompts."""
    withheld = record_withheld(record)
    return f"withheld: {withheld.reasons}" if withheld else "yes"


def record_rows(ltm: LongTermMemory, records: list[MemoryRecord]) -> list[dict[str, Any]]:
    return [{"id": r.memory_id, "category": r.category.value, "subcategory": r.subcategory,
             "content": short(r.content, 200), "provenance": r.provenance.value.replace("_", "-"),
             "source task": r.source_task or "", "in prompts": in_prompts(r), "tags": ", ".join(r.tags),
             "confidence": r.confidence, "reward": (r.reward + 1) / 2, "decay": ltm.decay_of(r),
             "uses": r.access_count, "needs revision": "⚠ yes" if r.needs_revision else ""} for r in records]
