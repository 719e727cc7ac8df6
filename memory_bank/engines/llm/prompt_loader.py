"""Prompts are data files, one per agent, in `engines/llm/prompts/` (DESIGN §3).

A prompt file holds the system message, a line `<!-- user -->`, then the user message. Placeholders are
`$name` / `${name}` (`string.Template`), so the JSON shapes written in the prompts need no brace escaping; a
literal dollar sign is `$$`. Rendering demands exactly the file's placeholders: a missing or an unexpected value
is a programming error and fails at once, naming the prompt and the names.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from string import Template

from .client import Message

USER_MARK = "<!-- user -->"
PROMPT_PACKAGE = "memory_bank.engines.llm.prompts"


class PromptError(ValueError):
    """A prompt file is missing, malformed, or rendered with the wrong placeholders."""


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    system: Template
    user: Template

    @property
    def placeholders(self) -> frozenset[str]:
        return frozenset(self.system.get_identifiers()) | frozenset(self.user.get_identifiers())

    def render(self, **values: object) -> list[Message]:
        """System and user messages with every placeholder filled."""
        missing = self.placeholders - values.keys()
        unexpected = values.keys() - self.placeholders
        if missing or unexpected:
            raise PromptError(f"prompt {self.name!r}: missing placeholders {sorted(missing)}, "
                              f"unexpected values {sorted(unexpected)}")
        text = {k: str(v) for k, v in values.items()}
        return [{"role": "system", "content": self.system.substitute(text).strip()},
                {"role": "user", "content": self.user.substitute(text).strip()}]


def parse_prompt(name: str, source: str) -> PromptTemplate:
    if source.count(USER_MARK) != 1:
        raise PromptError(f"prompt {name!r} must contain the line {USER_MARK} exactly once")
    system, user = (Template(part) for part in source.split(USER_MARK))
    for part in (system, user):
        if not part.is_valid():
            raise PromptError(f"prompt {name!r} has an invalid placeholder (write a literal $ as $$)")
    return PromptTemplate(name, system, user)


def load_prompt(name: str) -> PromptTemplate:
    """Read `engines/llm/prompts/<name>.md` from the installed package."""
    resource = resources.files(PROMPT_PACKAGE).joinpath(f"{name}.md")
    if not resource.is_file():
        raise PromptError(f"no prompt file {name}.md in {PROMPT_PACKAGE}")
    return parse_prompt(name, resource.read_text(encoding="utf-8"))
