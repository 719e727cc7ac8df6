"""Classification agent (LLM): one chunk of text -> topic clusters (DESIGN §3.1).

The model never copies text. The chunk is cut into numbered passages; the model names the topics and gives one
topic number per passage (a schema with exactly one label per passage, so no passage sits in two clusters or in
none: free-form clustering by a small model put the same passages in several); each cluster's `content` is then
cut from the input itself. So the content is verbatim by
construction (the pipeline finds its PDF pages from it), nothing is lost or invented on the way, and the reply
is a few hundred tokens instead of the whole chunk again.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...text.split import Span, cut_point, is_heading, paragraph_spans, stripped_span
from ..models import ClassificationInput, ClassificationOutput, Cluster
from .client import ResponseSchema
from .common import PromptedAgent

MAX_PASSAGE_CHARS = 1_200


MAX_TOPICS = 12


class Topic(BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True)

    context: str = Field(min_length=1)
    keywords: list[str] = Field(default_factory=list)


class ClassificationReply(BaseModel):
    """Topics, then one topic number per passage: a passage cannot land in two clusters or in none."""

    topics: list[Topic] = Field(min_length=1)
    labels: list[int]

    @model_validator(mode="after")
    def _numbered_from_one(self) -> ClassificationReply:
        """Topics numbered 1..n instead of 0..n-1 (the local 1.5B model did so on all three tries for one
        notes file, and lost the file to the offline agent): unambiguous when no label is 0 and the highest is
        n, so it is read as meant rather than re-asked. Any other out-of-range label is still an error."""
        if self.labels and min(self.labels) >= 1 and max(self.labels) == len(self.topics):
            self.labels = [label - 1 for label in self.labels]
        return self


def _split_long(text: str, span: Span) -> list[Span]:
    start, end = span.start, span.end
    pieces: list[Span] = []
    while end - start > MAX_PASSAGE_CHARS:
        piece = stripped_span(text, start, cut_point(text, start, start + MAX_PASSAGE_CHARS))
        if piece:
            pieces.append(piece)
            start = piece.end
        else:
            start += MAX_PASSAGE_CHARS
    rest = stripped_span(text, start, end)
    return [*pieces, rest] if rest else pieces


def passage_spans(text: str) -> list[Span]:
    """Paragraphs (blank-line separated), long ones cut at sentence ends, as verbatim spans of `text`. A
    Markdown heading is one passage with the paragraph it heads: a heading is no topic of its own. Given it
    alone, the local 1.5B model labelled headings as topics of their own ("## Budget" became a memory node),
    each such node costing an analysis, a merge call and a re-analysis on the notes sample."""
    spans: list[Span] = []
    heading: int | None = None  # where the headings waiting for their paragraph start
    for paragraph in paragraph_spans(text):
        if is_heading(paragraph.text):
            heading = paragraph.start if heading is None else heading
            continue
        if heading is not None:
            paragraph = Span(heading, paragraph.end, text[heading:paragraph.end])
            heading = None
        spans.extend(_split_long(text, paragraph))
    last = stripped_span(text, heading, len(text)) if heading is not None else None
    return [*spans, *_split_long(text, last)] if last else spans


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
    max_string = 120
    max_items = 8

    def run(self, inp: ClassificationInput) -> ClassificationOutput:
        text = inp.context
        spans = passage_spans(text)
        if not spans:
            return ClassificationOutput(should_cluster=False, clusters=[])
        listing = "\n\n".join(f"[P{i}] {s.text}" for i, s in enumerate(spans))
        topics = min(MAX_TOPICS, len(spans))
        reply = self._ask(ClassificationReply, check=lambda r: _check_labels(r, len(spans)),
                          schema=_schema(len(spans), topics, self.max_string, self.max_items),
                          max_tokens=self._reply_tokens(len(spans), topics),
                          task_goal=inp.task_goal or "(none given)", source=inp.source or "(unnamed)",
                          passage_count=len(spans), last_passage=len(spans) - 1, max_topic=topics - 1,
                          passages=listing)
        return _clusters(reply, text, spans)

    def _reply_tokens(self, passages: int, topics: int) -> int:
        """Room for every topic at its bounds and one label per passage (a number, a comma, a space)."""
        per_topic = (self.max_string + self.max_items * 40) // 3 + 16
        return 64 + topics * per_topic + passages * 3


def _schema(passages: int, topics: int, max_string: int, max_items: int) -> ResponseSchema:
    topic = {"type": "object", "properties": {
        "context": {"type": "string", "minLength": 1, "maxLength": max_string},
        "keywords": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": max_items}},
        "required": ["context", "keywords"]}
    return ResponseSchema("ClassificationReply", {"type": "object", "properties": {
        "topics": {"type": "array", "items": topic, "minItems": 1, "maxItems": topics},
        "labels": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": topics - 1},
                   "minItems": passages, "maxItems": passages}},
        "required": ["topics", "labels"]})


def _check_labels(reply: ClassificationReply, count: int) -> None:
    if len(reply.labels) != count:
        raise ValueError(f"labels has {len(reply.labels)} entries; it needs exactly {count}, one per passage "
                         f"P0 to P{count - 1} in order")
    if any(t < 0 for t in reply.labels):
        raise ValueError("labels are topic numbers from 0; a negative label names no topic")


def _clusters(reply: ClassificationReply, text: str, spans: list[Span]) -> ClassificationOutput:
    """One cluster per topic number used. A number beyond the topics listed keeps the model's grouping (the
    passages labelled with it stay together) and is named after its first passage: the 1.5B model sometimes
    lists three topics and labels six groups, identically on every re-ask, which would otherwise cost three
    calls and hand the chunk to the offline agent."""
    clusters: list[Cluster] = []
    for index in sorted(set(reply.labels)):
        mine = [p for p, label in enumerate(reply.labels) if label == index]
        named = reply.topics[index] if index < len(reply.topics) else None
        context = named.context if named else _first_line(spans[mine[0]].text)
        clusters.append(Cluster(cluster_id=f"c{index + 1}", context=context, content=_content(text, spans, mine),
                                keywords=named.keywords if named else []))
    return ClassificationOutput(should_cluster=len(clusters) > 1, clusters=clusters)


def _first_line(passage: str, limit: int = 120) -> str:
    line = " ".join(passage.strip().splitlines()[0].split()).lstrip("#").strip() if passage.strip() else ""
    return (line[: limit - 1] + "…" if len(line) > limit else line) or "(untitled)"
