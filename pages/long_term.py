"""Long-term memory: the user's records across tasks, their weights, reflections and recovery strategies."""

from __future__ import annotations

import json

import streamlit as st

from memory_bank import Category, MemoryBankError, RecoveryMetadata, Source, reflection_body, source_line
from ui.format import md_escape, safe_markdown
from ui.long_term_views import in_prompts, long_term_error, long_term_for, record_rows
from ui.session import get_task, shared_embedder

task = get_task()
st.title("Long-term memory")
ltm = long_term_for(task.settings, task.user, shared_embedder(task.settings))
if ltm is None:
    st.error(long_term_error() or "Long-term memory is not available.", icon=":material/error:")
    st.stop()
st.caption(f"User `{task.user}` · {md_escape(str(ltm.store.root))} · decay half-life {ltm.half_life_days:g} days · "
           f"strategies under confidence {ltm.min_confidence:g} (after decay) are cleaned up at task end")

everything = ltm.records()
left, right = st.columns([1, 2])
category = left.selectbox("Category", ["all", *(c.value for c in Category)], key="lt-category")
all_tags = sorted({t for r in everything for t in r.tags})
tags = right.multiselect("Tags (all must match)", all_tags, key="lt-tags")
shown = ltm.records(None if category == "all" else category, tags)
if not shown:
    st.info("No records yet: they come from finished tasks, feedback on answers and recovered tool errors.")
else:
    st.dataframe(record_rows(ltm, shown), hide_index=True, width="stretch", column_config={
        "confidence": st.column_config.ProgressColumn("confidence", min_value=0.0, max_value=1.0, format="%.2f"),
        "reward": st.column_config.ProgressColumn("reward", min_value=0.0, max_value=1.0, format="%.2f",
                                                  help="-1 .. 1 shown as 0 .. 1"),
        "decay": st.column_config.ProgressColumn("decay", min_value=0.0, max_value=1.0, format="%.2f",
                                                 help="the weight left after time decay since the last use"),
    })
    flagged = sum(r.needs_revision for r in shown)
    if flagged:
        st.warning(f"{flagged} record(s) need revision (an answer that used them was rated down).",
                   icon=":material/flag:")

    ids = [r.memory_id for r in shown]
    chosen = st.selectbox("Open a record", ids, key="lt-open",
                          format_func=lambda i: next(f"{r.memory_id} · {r.content[:60]}" for r in shown
                                                     if r.memory_id == i))
    record = next(r for r in shown if r.memory_id == chosen)
    with st.container(border=True):
        st.markdown(f"**{md_escape(record.category.value)}**"
                    + (f" / {md_escape(record.subcategory)}" if record.subcategory else "")
                    + (" · ⚠ needs revision" if record.needs_revision else ""))
        st.caption(md_escape(source_line(record)))
        st.text(record.content)
        withheld = in_prompts(record)
        if withheld != "yes":
            st.warning(f"Kept out of every prompt ({withheld.removeprefix('withheld: ')}): its text reads as an "
                       "instruction. Saving new content here makes it your own words.", icon=":material/block:")
        if record.subcategory == "error_recovery":
            meta = RecoveryMetadata.model_validate(record.metadata)
            st.markdown(f"Fix pattern for **{md_escape(meta.tool_name)}** on **{md_escape(meta.error_type)}** "
                        f"(used {meta.uses}×, {meta.successes} successful)")
            before, after = st.columns(2)
            before.caption("original")
            before.json(meta.fix_pattern.original)
            after.caption("fixed")
            after.json(meta.fix_pattern.fixed)
        markdown = ltm.reflection(record.memory_id)
        if markdown:
            with st.expander("Reflection (L3)", expanded=record.subcategory == "reflection"):
                st.markdown(safe_markdown(reflection_body(markdown)))
        with st.form(f"edit-{record.memory_id}"):
            content = st.text_area("Content", record.content, max_chars=2000)
            tag_text = st.text_input("Tags (comma-separated)", ", ".join(record.tags))
            confidence = st.slider("Confidence", 0.0, 1.0, float(record.confidence), 0.05)
            reward = st.slider("Reward", -1.0, 1.0, float(record.reward), 0.05)
            revise = st.checkbox("Needs revision", record.needs_revision)
            if st.form_submit_button("Save", icon=":material/save:"):
                try:
                    ltm.update(record.memory_id, content=" ".join(content.split()),
                               tags=[t.strip() for t in tag_text.split(",") if t.strip()],
                               confidence=confidence, reward=reward, needs_revision=revise)
                except (MemoryBankError, ValueError) as exc:
                    st.error(f"Not saved: {exc}")
                else:
                    st.rerun()
        sure = st.checkbox("I want to delete this record", key=f"sure-{record.memory_id}")
        if st.button("Delete", key=f"delete-{record.memory_id}", disabled=not sure, icon=":material/delete:"):
            ltm.delete(record.memory_id)
            st.rerun()

st.subheader("Reflections")
cols = st.columns(len(Category))
for col, cat in zip(cols, Category):
    if col.button(f"Reflect: {cat.value}", key=f"reflect-{cat.value}", width="stretch"):
        made = ltm.reflect(cat)
        st.toast(f"Reflection written for {cat.value}." if made else f"Nothing to reflect on in {cat.value} yet.")

with st.expander("Add a record (a preference, a constraint, a fact)"):
    with st.form("lt-add", clear_on_submit=True):
        text = st.text_input("Content", max_chars=2000)
        kind = st.selectbox("Category", [c.value for c in Category])
        extra = st.text_input("Tags (comma-separated; 'constraint' puts it first in every prompt)")
        if st.form_submit_button("Add", icon=":material/add:") and text.strip():
            ltm.add(text, kind, source=Source.USER_INPUT, tags=[t.strip() for t in extra.split(",") if t.strip()],
                    title="Added by the user")
            st.rerun()

st.subheader("Export")
a, b = st.columns(2)
a.download_button("Long-term memory (JSON)", json.dumps(ltm.export(), ensure_ascii=False, indent=1),
                  file_name="long-term-memory.json", mime="application/json", icon=":material/download:")
b.download_button("Feedback pairs (JSONL, chosen / rejected)", ltm.feedback_jsonl(),
                  file_name="feedback-pairs.jsonl", mime="application/jsonl", icon=":material/download:")
