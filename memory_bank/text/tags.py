"""Tagged blocks in model replies (`<think>`, `<answer>`, ...): finding them and dropping reasoning.

Reading is lenient because models are sloppy with tags: any case, and a block the model never closed (it hit
its token limit) runs to the end of the reply.
"""

from __future__ import annotations

import re


def tag_block(name: str, *, capture: bool = False, spaced: bool = True) -> re.Pattern[str]:
    """`<name>...</name>`; with `capture`, group 1 is the body. `spaced` also accepts stray spaces inside the
    tags (`< / think >`), as the ReAct reader does; the structured-output parser reads only the exact tags, and
    keeps doing so (widening it would change which JSON object a sloppy reply yields)."""
    gap = r"\s*" if spaced else ""
    body = "(.*?)" if capture else ".*?"
    return re.compile(rf"<{gap}{name}{gap}>{body}(?:<{gap}/{gap}{name}{gap}>|$)", re.DOTALL | re.IGNORECASE)


def strip_think(text: str, *, spaced: bool = True) -> str:
    """`text` without its `<think>` blocks: reasoning is neither an answer nor an object to parse."""
    return tag_block("think", spaced=spaced).sub("", text)
