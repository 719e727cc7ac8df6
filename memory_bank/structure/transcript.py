"""Conversations (speaker turns in dated sessions): read by a teammate's parser, merged separately."""

from __future__ import annotations

from .model import DocStructure


def read_transcript(text: str) -> DocStructure | None:  # replaced by the conversation parser on merge
    return None
