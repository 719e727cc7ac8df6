"""The LLM engine's agents: one module per agent, all behind the `LLMClient` seam."""
