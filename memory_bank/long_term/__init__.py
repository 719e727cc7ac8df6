"""Long-term memory across tasks (seed 004, DESIGN §9), beside the task memory bank.

`models` (L2 records, typed and versioned), `store` (the seed's file layout, atomic and locked), `routing` (query
intent and categories), `index` (numpy search: relevance x confidence x reward x decay; `vectors` keeps the
record vectors on disk so an open does not embed again), `injection` (the
<long_term> block within its budget, every record quoted under its source), `memory` (`LongTermMemory`, the
facade), `feedback`, `markdown` and `reflect` (L3 reflections), `exchange` (reading an export), `recovery`
(error-recovery strategies around the tools), `distill` (task end -> lessons), `screen` (is a text
instruction-like?), `vetting` (which lessons are kept, with which provenance; which records stay out of prompts)
and `llm_agents` (the LLM engine's distiller and error analyst). No Streamlit here.
"""
