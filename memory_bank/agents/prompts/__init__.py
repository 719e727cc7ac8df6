"""Prompt files, one per agent (`<agent>.md`), read by `agents.prompt_loader`; this package holds only data."""
