"""Long-term memory across tasks (seed 004, DESIGN §9), beside the task memory bank.

`models` (L2 records, typed and versioned), `store` (the seed's file layout, atomic and locked), `routing` (query
intent and categories), `index` (numpy search: relevance x confidence x reward x decay; `vectors` keeps the
record vectors on disk so an open does not embed again), `injection` (the
<long_term> block within its budget), `memory` (`LongTermMemory`, the facade), `feedback`, `markdown` (L3
reflections), `recovery` (error-recovery strategies around the tools), `distill` (task end -> lessons) and
`llm_agents` (the LLM engine's distiller and error analyst). No Streamlit here.
"""
