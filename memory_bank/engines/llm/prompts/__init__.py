"""Prompt files, one per agent (`<agent>.md`), read by `engines.llm.prompt_loader`; this package holds only data."""
