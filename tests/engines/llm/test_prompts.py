"""Prompt files and their loader."""

from __future__ import annotations

import pytest

from memory_bank.engines.llm.prompt_loader import PromptError, load_prompt, parse_prompt

PROMPTS = ("classification", "structure", "analysis", "integration", "planning", "react", "image", "visit_extract",
           "structure_batch", "analysis_batch")


@pytest.mark.parametrize("name", PROMPTS)
def test_every_prompt_loads_and_states_its_output(name: str) -> None:
    prompt = load_prompt(name)
    assert prompt.placeholders
    system = prompt.system.template
    if name == "react":
        assert "<tool_call>" in system and "<answer>" in system and "[node:ID]" in system
    else:
        assert "Reply with one JSON object and nothing else, exactly this shape:" in system


def test_render_fills_every_placeholder() -> None:
    messages = load_prompt("structure").render(context="c", keywords="k", content="THE TEXT $5", word_count=3,
                                               min_words=20, max_words=40)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "THE TEXT $5" in messages[1]["content"] and "aim for 20 to 40 words" in messages[1]["content"]
    assert "${" not in messages[0]["content"] + messages[1]["content"]


def test_missing_or_unexpected_values_fail_clearly() -> None:
    prompt = load_prompt("structure")
    with pytest.raises(PromptError, match=r"'structure': missing placeholders \['content'"):
        prompt.render(context="c", keywords="k", word_count=3, min_words=1, max_words=2)
    with pytest.raises(PromptError, match=r"unexpected values \['typo'\]"):
        prompt.render(context="c", keywords="k", content="x", word_count=3, min_words=1, max_words=2, typo=1)


def test_malformed_prompt_files_are_rejected() -> None:
    with pytest.raises(PromptError, match="exactly once"):
        parse_prompt("bad", "no user section")
    with pytest.raises(PromptError, match="invalid placeholder"):
        parse_prompt("bad", "costs $ 5\n<!-- user -->\n${x}")
    with pytest.raises(PromptError, match="no prompt file nothing.md"):
        load_prompt("nothing")
