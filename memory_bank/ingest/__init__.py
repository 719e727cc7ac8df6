"""Ingestion: document -> chunks -> clusters -> summaries -> nodes (`pipeline`), linking new nodes into the
graph (`linker`), and the graph operations that are the one path by which memory changes (`graph_ops`)."""
