"""Goal-based extraction for the `visit` tool: a fetched page -> what on it serves the goal (DESIGN §4).

A web page is mostly navigation and boilerplate; handing all of it to the ReAct agent burns its context. This
agent keeps the evidence (copied, so facts stay checkable) and a short summary. It is cut to its window first.
"""

from __future__ import annotations

from pydantic import BaseModel

from ...modules.text import estimate_tokens
from .common import PromptedAgent


class PageInput(BaseModel):
    goal: str
    url: str
    text: str


class PageExtract(BaseModel):
    relevant: bool = True
    evidence: str = ""
    summary: str = ""


class LLMExtractor(PromptedAgent):
    name = "visit"
    prompt_name = "visit_extract"
    sampling_fallback = "structure"  # faithful compression, like the structure agent

    def run(self, inp: PageInput) -> PageExtract:
        budget_chars = int(self._settings.window(self.name) * self._settings.chunk_ratio) * 4
        text = inp.text
        page = text if len(text) <= budget_chars else text[:budget_chars] + "\n[... page truncated ...]"
        return self._ask(PageExtract, goal=inp.goal or "(none given)", url=inp.url, content=page)

    def extract(self, goal: str, url: str, text: str) -> str:
        """The tool's observation text: summary first, then the evidence, or a clear 'nothing relevant'."""
        found = self.run(PageInput(goal=goal, url=url, text=text))
        if not found.relevant and not found.evidence.strip():
            return f"{url}: nothing on this page bears on the goal. {found.summary}".strip()
        parts = [f"Summary: {found.summary.strip()}" if found.summary.strip() else "",
                 f"Evidence:\n{found.evidence.strip()}" if found.evidence.strip() else ""]
        return f"{url} ({estimate_tokens(text)} tokens read)\n" + "\n\n".join(p for p in parts if p)
