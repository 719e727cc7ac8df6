"""Goal-based extraction for the `visit` tool: a fetched page -> what on it serves the goal (DESIGN §4).

A web page is mostly navigation and boilerplate; handing all of it to the ReAct agent burns its context. This
agent keeps the evidence (copied, so facts stay checkable) and a short summary. It is cut to its window first.
"""

from __future__ import annotations

from pydantic import BaseModel

from ...text.tokens import chars_for_tokens
from .common import PromptedAgent


class PageInput(BaseModel):
    goal: str
    text: str


class PageExtract(BaseModel):
    relevant: bool = True
    evidence: str = ""
    summary: str = ""


class LLMExtractor(PromptedAgent):
    """Also the `visit` tool's `Extractor`: called with (goal, page text), it returns the text to keep."""

    name = "visit"
    prompt_name = "visit_extract"
    sampling_fallback = "structure"  # faithful compression, like the structure agent
    max_tokens = 1_536
    max_string = 3_000

    def run(self, inp: PageInput) -> PageExtract:
        budget_chars = chars_for_tokens(int(self._settings.window(self.name) * self._settings.chunk_ratio))
        text = inp.text
        page = text if len(text) <= budget_chars else text[:budget_chars] + "\n[... page truncated ...]"
        return self._ask(PageExtract, goal=inp.goal or "(none given)", content=page)

    def __call__(self, goal: str, text: str) -> str:
        """Summary then evidence; empty when nothing on the page serves the goal (the tool says so)."""
        found = self.run(PageInput(goal=goal, text=text))
        summary, evidence = found.summary.strip(), found.evidence.strip()
        if not found.relevant and not evidence:
            return ""
        parts = [f"Summary: {summary}" if summary else "", f"Evidence:\n{evidence}" if evidence else ""]
        return "\n\n".join(p for p in parts if p)
