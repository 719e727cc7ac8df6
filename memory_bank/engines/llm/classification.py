"""Classification agent (LLM): one chunk of text -> topic clusters (DESIGN §3.1).

The model never copies text. The chunk is cut into numbered passages and the model assigns passage numbers to
clusters; each cluster's `content` is then cut from the input itself. So the content is verbatim by
construction (the pipeline finds its PDF pages from it), nothing is lost or invented on the way, and the reply
is a few hundred tokens instead of the whole chunk again.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ...text.split import Span, clause_ends, paragraph_spans, stripped_span
from ..models import ClassificationInput, ClassificationOutput, Cluster
from .common import PromptedAgent

MAX_PASSAGE_CHARS = 1_200


class PassageCluster(BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True)

    cluster_id: str = ""
    context: str = Field(min_length=1)
    keywords: list[str] = Field(default_factory=list)
    passages: list[int] = Field(min_length=1)

    @field_validator("cluster_id", mode="before")
    @classmethod
    def _id_as_text(cls, value: object) -> str:
        return "" if value is None else str(value)


class ClassificationReply(BaseModel):
    should_cluster: bool = True
    clusters: list[PassageCluster] = Field(min_length=1)


def _cut_point(text: str, start: int, limit: int) -> int:
    """Where to end a piece of an over-long paragraph: a sentence end, else a space, else the hard limit."""
    window = text[start:limit]
    ends = [e for e in clause_ends(window) if e > len(window) // 3]
    if ends:
        return start + ends[-1]
    space = window.rfind(" ", len(window) // 3)
    return start + space if space > 0 else limit


def _split_long(text: str, span: Span) -> list[Span]:
    start, end = span.start, span.end
    pieces: list[Span] = []
    while end - start > MAX_PASSAGE_CHARS:
        piece = stripped_span(text, start, _cut_point(text, start, start + MAX_PASSAGE_CHARS))
        if piece:
            pieces.append(piece)
            start = piece.end
        else:
            start += MAX_PASSAGE_CHARS
    rest = stripped_span(text, start, end)
    return [*pieces, rest] if rest else pieces


def passage_spans(text: str) -> list[Span]:
    """Paragraphs (blank-line separated), long ones cut at sentence ends, as verbatim spans of `text`."""
    return [piece for paragraph in paragraph_spans(text) for piece in _split_long(text, paragraph)]


def _owners(reply: ClassificationReply, count: int) -> list[int]:
    """Cluster index of every passage: the first cluster naming it; unnamed ones join the preceding passage's."""
    owner: list[int | None] = [None] * count
    for index, cluster in enumerate(reply.clusters):
        for p in cluster.passages:
            if owner[p] is None:
                owner[p] = index
    first = next(o for o in owner if o is not None)
    filled: list[int] = []
    for o in owner:
        filled.append(o if o is not None else (filled[-1] if filled else first))
    return filled


def _content(text: str, spans: list[Span], passages: list[int]) -> str:
    """The passages' original text; consecutive passages as one slice, separate runs joined by a blank line."""
    runs: list[list[int]] = []
    for p in passages:
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return "\n\n".join(text[spans[r[0]].start:spans[r[-1]].end] for r in runs)


class ClassificationAgent(PromptedAgent):
    name = "classification"
    prompt_name = "classification"

    def run(self, inp: ClassificationInput) -> ClassificationOutput:
        text = inp.context
        spans = passage_spans(text)
        if not spans:
            return ClassificationOutput(should_cluster=False, clusters=[])
        listing = "\n\n".join(f"[P{i}] {s.text}" for i, s in enumerate(spans))
        reply = self._ask(ClassificationReply, check=lambda r: _check_numbers(r, len(spans)),
                          task_goal=inp.task_goal or "(none given)", source=inp.source or "(unnamed)",
                          passage_count=len(spans), last_passage=len(spans) - 1, passages=listing)
        return _clusters(reply, text, spans)


def _check_numbers(reply: ClassificationReply, count: int) -> None:
    bad = sorted({p for c in reply.clusters for p in c.passages if not 0 <= p < count})
    if bad:
        raise ValueError(f"passages {bad} do not exist: the passages are numbered 0 to {count - 1}")


def _clusters(reply: ClassificationReply, text: str, spans: list[Span]) -> ClassificationOutput:
    owner = _owners(reply, len(spans))
    clusters: list[Cluster] = []
    used_ids: set[str] = set()
    for index, proposed in enumerate(reply.clusters):
        mine = [p for p, o in enumerate(owner) if o == index]
        if not mine:
            continue
        cid = proposed.cluster_id or f"c{index + 1}"
        while cid in used_ids:
            cid = f"{cid}-{index + 1}"
        used_ids.add(cid)
        clusters.append(Cluster(cluster_id=cid, context=proposed.context,
                                content=_content(text, spans, mine), keywords=proposed.keywords))
    return ClassificationOutput(should_cluster=len(clusters) > 1, clusters=clusters)
