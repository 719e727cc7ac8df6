"""The single escaping function for untrusted text placed inside the agent's prompt.

Text from documents, web pages and tool output reaches the ReAct agent between our own tags. If that text could
write `</memory>` or `<tool_call>`, a web page could end the memory block or forge a tool call (DESIGN §4). Every
open or close tag of ours (any case, with whitespace inside, hyphen or space for the underscore) has its `<`
replaced by `&lt;`: the text stays readable to the model but can no longer form a tag our parsers accept.
"""

from __future__ import annotations

import re

TAG_NAMES = ("task", "memory", "long_term", "tool_call", "tool_response", "answer", "think")


def _name_pattern(name: str) -> str:
    return r"[\s_-]*".join(re.escape(part) for part in name.split("_"))


_OUR_TAG = re.compile(
    r"<(?=\s*/?\s*(?:" + "|".join(_name_pattern(n) for n in TAG_NAMES) + r")(?![A-Za-z0-9_]))",
    re.IGNORECASE,
)


def escape_tags(text: str) -> str:
    """Neutralise our tags in `text`; anything else (HTML, code, maths with `<`) is left as it was."""
    return _OUR_TAG.sub("&lt;", text)
