"""The LLM engine: the one LLM seam (`client`, `openai_client`, `structured`), the prompts, and one module per
agent, all behind the `LLMClient` protocol."""
