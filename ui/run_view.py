"""The Run page's meters, progress, citations and event log: numbers that say what the run did.

Offline there are no LLM calls to count, so the meters show the work done instead (pages read, nodes, seconds
per stage, pages per second); with an LLM they show calls and tokens against the run's budget. A document that
could not be read, or a stage that stopped short, is shown in red with its error, never as a full bar.
"""

from __future__ import annotations

import time

import pandas as pd
import streamlit as st
import streamlit.components.v1 as components

from memory_bank import BankSnapshot, RunResult, money, place_label

from .format import STAGE_TITLES, clock, duration, md_escape, short
from .session import TaskSession
from .worker import RunView, Stage

SCROLL_KEY = "scroll_to_deep_retrieval"
NAME_CHARS = 44  # a citation's file name longer than this is shortened in the middle (full name on hover)


def pages_read(snapshot: BankSnapshot) -> int:
    """Distinct pages (per source document) that the nodes were made from."""
    return len({(name, page) for n in snapshot.nodes for name in n.source_names[:1] for page in n.pages})


def _ingest_seconds(view: RunView) -> float:
    if not view.stages:
        return 0.0
    end = max(s.updated for s in view.stages) if not view.running else time.time()
    return max(0.0, end - min(s.started for s in view.stages))


def queued_text(ahead: int) -> str:
    """What a run waiting for a free slot says: the server runs a few at a time (`max_concurrent_runs`)."""
    if ahead <= 0:
        return "Queued: yours is next. It starts by itself as soon as a run on this server finishes."
    runs = "run" if ahead == 1 else "runs"
    return (f"Queued: {ahead} {runs} ahead of yours. It starts by itself when its turn comes; Cancel takes it "
            "out of the line.")


def cost_line(cost: float | None, estimate: tuple[int, float] | None) -> str | None:
    """The run's cost so far, with the estimate told before it started: None without prices."""
    if cost is None:
        return None
    if estimate is None:
        return f"cost {money(cost)}"
    pages, expected = estimate
    return f"cost {money(cost)} · est. {money(expected)} for {pages:,} page{'s' if pages != 1 else ''}"


def metrics_row(snapshot: BankSnapshot, view: RunView | None, *, uses_llm: bool) -> None:
    usage, counts = snapshot.usage, snapshot.counts
    cols = st.columns(6)
    cols[0].metric("Elapsed", duration(view.elapsed) if view else "—")
    cols[1].metric("Nodes", f"{counts['nodes']:,}")
    cols[2].metric("Related edges", f"{counts['edges']:,}")
    settled = counts["conflicts"] - counts["pending_conflicts"]
    cols[3].metric("Merges / conflicts", f"{counts['merges']} / {counts['conflicts']}",
                   delta=f"{counts['pending_conflicts']} pending" if counts["pending_conflicts"] else
                   (f"{settled} settled" if settled else None), delta_color="off", delta_arrow="off",
                   help="merge events / conflicts flagged (pending ones wait for cross-validation)")
    calls = usage.task.calls
    if uses_llm or calls:
        run, max_calls, max_cost, cached = usage.run, usage.max_llm_calls, usage.max_cost, usage.task.cached_tokens
        run_calls, cost = run.calls, run.cost
        cols[4].metric("LLM calls (run)", f"{run_calls:,} / {max_calls:,}",
                       help=f"this run / its budget; {calls:,} calls in this task so far")
        estimate = view.estimate if view else None
        cols[5].metric("Tokens (run)", f"{run.tokens:,}", help=f"this run's tokens; budget {usage.max_tokens:,}" + (
                       f"; {cached:,} prompt tokens served from the provider's cache in this task" if cached else ""),
                       delta=cost_line(cost, estimate), delta_color="off", delta_arrow="off")
        if max_calls:
            st.progress(min(1.0, run_calls / max_calls), text=f"LLM call budget used: {run_calls / max_calls:.0%}")
        if max_cost and cost is not None:
            st.progress(min(1.0, cost / max_cost), text=f"Money budget used: {money(cost)} of {money(max_cost)}")
        return
    pages, seconds = pages_read(snapshot), _ingest_seconds(view) if view else 0.0
    cols[4].metric("Pages read", f"{pages:,}", help="distinct document pages behind the nodes (whole task)")
    cols[5].metric("Reading speed", f"{pages / seconds:.1f} pages/s" if pages and seconds > 0.05 else "—",
                   help="pages read per second of ingestion in this run (offline engine: no LLM calls to count)")


def progress_view(view: RunView) -> None:
    """Per document: its stages with counts and seconds, or in red why it was not read; then the loop's counters."""
    errors = [line.text for line in view.errors]
    documents: dict[str, list[Stage]] = {}
    for stage in view.stages:
        documents.setdefault(stage.message, []).append(stage)
    for name in view.files:
        documents.setdefault(name, [])
    if not documents:
        st.caption("Reading the inputs…" if view.running else "No new input in this run: a follow-up on the memory.")
    order = list(STAGE_TITLES)
    for document, stages in documents.items():
        mine = [e for e in errors if document and document in e]
        if not stages:
            if view.running:
                st.markdown(f"**{md_escape(document)}** · waiting")
            else:
                st.markdown(f":red[**✗ {md_escape(document)}** — not read]")
                for error in mine[:3]:
                    st.caption(f":red[{md_escape(short(error, 300))}]")
            continue
        began, last = min(s.started for s in stages), max(s.updated for s in stages)
        finished = all(s.done >= s.total for s in stages) and "link" in {s.name for s in stages}
        took = (last if finished or not view.running else time.time()) - began
        mark = ":red[✗] " if mine or (not finished and not view.running) else ""
        st.markdown(f"{mark}**{md_escape(document or 'input')}** · {duration(took)}")
        for stage in sorted(stages, key=lambda s: order.index(s.name) if s.name in order else 99):
            frac = stage.done / stage.total if stage.total else 1.0
            text = f"{STAGE_TITLES.get(stage.name, stage.name)} — {stage.done}/{stage.total} · " \
                   f"{duration(stage.busy)}"
            if stage.done < stage.total and not view.running:
                st.markdown(f":red[✗ {md_escape(text)} — stopped]")
            else:
                st.progress(min(1.0, frac), text=md_escape(text))
        for error in mine[:3]:
            st.caption(f":red[{md_escape(short(error, 300))}]")
    tasks = view.counts.get("task_completed", 0)
    tools = view.counts.get("tool_called", 0)
    st.caption(f"Loop: {tasks} sub-task(s) done · {tools} tool call(s) · {view.counts.get('node_added', 0)} nodes "
               f"added · {view.counts.get('nodes_merged', 0)} merges · {view.counts.get('conflict_flagged', 0)} "
               "conflicts flagged")


def middle(text: str, limit: int = NAME_CHARS) -> str:
    """A long file name shortened in the middle, so its start and its extension both stay readable."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    head = (limit - 1) * 3 // 5
    return text[:head].rstrip() + "…" + text[len(text) - (limit - 1 - head):].lstrip()


def citations_view(task: TaskSession, result: RunResult, *, key: str) -> None:
    """Each citation as a button naming its file and printed pages in full (a long name shortened in the middle,
    the whole of it on hover), its quote beneath; a click opens the node and brings deep retrieval into view."""
    for i, cite in enumerate(result.citations, start=1):
        where = place_label("", cite.section, cite.pages, cite.printed_pages)
        label = md_escape(f"[{i}] {middle(cite.source)}" + (f", {where}" if where else ""))
        st.button(label, key=f"{key}-cite-{i}", help=md_escape(f"Open this source: {cite.source}, {where}"),
                  icon=":material/description:", on_click=_open, args=(task, cite.node_id))
        if cite.quote:
            st.caption(md_escape(short(cite.quote, 300)))
    scroll_to_deep_retrieval()


def _open(task: TaskSession, node_id: str) -> None:
    """A callback, so the selection is in place before the page draws the deep-retrieval panel."""
    task.selected = node_id
    st.session_state[SCROLL_KEY] = True


def scroll_to_deep_retrieval() -> None:
    """After a citation click, bring the deep-retrieval panel into view once. Drawn where the click was (an
    iframe out of view may never load), it looks for the panel's title for up to two seconds."""
    if not st.session_state.pop(SCROLL_KEY, False):
        return
    components.html("""<script>
      let tries = 0;
      const find = () => {
        const target = window.parent.document.querySelector('.amb-node-title');
        if (target) { target.scrollIntoView({behavior: 'smooth', block: 'start'}); return; }
        if (++tries < 20) setTimeout(find, 100);
      };
      find();
    </script>""", height=0)


def log_view(view: RunView) -> None:
    lines = list(view.log)[::-1][:400]
    if not lines:
        st.caption("No events yet.")
        return
    st.dataframe(pd.DataFrame([{"time": clock(line.ts), "kind": line.level, "event": line.text} for line in lines]),
                 hide_index=True, height=min(260, 38 + 35 * len(lines)))
