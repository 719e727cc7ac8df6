"""Finding memory: embeddings, the incremental hybrid index, the retriever and its question-aware re-ranker,
passage search over raw entries, deep retrieval, and the read-only view the engines read memory through."""
