"""escape_tags: untrusted text cannot open or close any of our tags, and other text is left alone."""

from __future__ import annotations

import re

import pytest

from memory_bank.engines.protocol.escaping import TAG_NAMES, escape_tags

# What a lenient reader of our protocol would still take for one of our tags.
LENIENT_TAG = re.compile(r"<\s*/?\s*(task|memory|tool[\s_-]*call|tool[\s_-]*response|answer|think)\b", re.I)


@pytest.mark.parametrize("name", TAG_NAMES)
@pytest.mark.parametrize("template", ["<{}>", "</{}>", "< {} >", "</ {}>", "< / {}\n>", "<{} attr='x'>", "<{}/>"])
def test_every_tag_variant_is_neutralised(name: str, template: str) -> None:
    for variant in (name, name.upper(), name.title()):
        text = f"before {template.format(variant)} after"
        escaped = escape_tags(text)
        assert LENIENT_TAG.search(escaped) is None
        assert escaped.replace("&lt;", "<") == text  # only the `<` changed: still readable


@pytest.mark.parametrize("text", ["<tool-call>", "<tool call>", "<TOOL_RESPONSE", "x<answer>y", "<think"])
def test_separator_variants_and_unclosed_tags(text: str) -> None:
    assert LENIENT_TAG.search(escape_tags(text)) is None


@pytest.mark.parametrize("text", ["a < b and c > d", "<div><p>html</p></div>", "<answers>", "<taskforce>",
                                  "<memory_bank>", "List<Tasks> items", "&lt;already escaped"])
def test_other_text_is_unchanged(text: str) -> None:
    assert escape_tags(text) == text
