"""The engines: the agents' typed contracts (`models`, `base`), the prompt-tag protocol (`protocol/`), and the
two implementations behind them, the LLM engine (`llm/`) and the offline engine (`offline/`)."""
