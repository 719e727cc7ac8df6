"""A prompt's size before the server counts it: what a call in flight shows, and the usage of a server that
reports none."""

from __future__ import annotations

from typing import Any

from ...text.tokens import tokens_for_chars

IMAGE_PART_TOKENS = 765  # rough cost of one image part; its data URI length says nothing about tokens


def estimate_message_tokens(messages: list[dict[str, Any]]) -> int:
    """The text estimate, plus a fixed cost per image."""
    chars = 0
    images = 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if part.get("type") == "image_url":
                    images += 1
                else:
                    chars += len(str(part.get("text", "")))
        else:
            chars += len(str(content or ""))
    return tokens_for_chars(chars) + images * IMAGE_PART_TOKENS


def has_image(messages: list[dict[str, Any]]) -> bool:
    return any(isinstance(m.get("content"), list) and any(p.get("type") == "image_url" for p in m["content"])
               for m in messages)
