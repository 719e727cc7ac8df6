"""Ingestion: text -> chunks -> clusters -> structured summaries -> nodes with entries (DESIGN §4).

The document's structure (`memory_bank.structure`: sections, lists, tables, conversation turns) is read first;
chunks are cut between its units at `window x chunk_ratio` tokens, the classification agent is told where the
units are, and every node and raw entry carries the section it was read from. After the last wave, each section
becomes a node of its own that summarises its children (`sections.py`). Classification of the chunks and
structuring of the clusters are independent calls and run concurrently (an LLM structure agent carries several
clusters a call); everything that touches memory goes
through the graph operations, in input order, so the same input gives the same graph. Linking the new nodes into the
graph (retrieve -> analyse -> apply) is `Linker`'s job.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter

from ..engines.base import Engine
from ..engines.models import ClassificationInput, Cluster, StructureInput
from ..errors import IngestTimeSpent, MemoryBankError, RunError
from ..events import ChunksStored, ErrorRaised, EventBus, Progress, ReadingStopped
from ..loaders.document import Document
from ..memory.interaction_tree import Attachment, new_id
from ..memory.query_graph import Node, Source
from ..retrieval.embedding import Embedder
from ..settings import Settings
from ..structure.build import StructureBuilder
from ..structure.chunking import chunk_units
from ..structure.model import DocStructure
from ..text.chunks import Chunk
from ..text.furniture import FurnitureDetector, Role
from .graph_ops import GraphOps, RawEntry
from .linker import Linker
from .parallel import agent_concurrency, map_agent, parallel_map
from .placement import Place, hints, place
from .provenance import PageLocator
from .sections import STRUCTURE_KEY, SectionNodes
from .titles import Titles

STOPPED_WHERE = "ingestion time budget"


@dataclass
class IngestReport:
    source: str
    node_ids: list[str] = field(default_factory=list)
    failures: list[RunError] = field(default_factory=list)
    seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)
    stopped: RunError | None = None  # why the ingestion stopped before the end of the document (what was built
    # stays)


def node_kind(doc: Document) -> str:
    """An image's description makes image nodes (drawn and previewed as such); everything else is text."""
    return "image" if doc.kind == "image" else "text"


class _WaveProgress:
    """Progress of one document across waves: counts add up, and a stage's total grows as clusters are found
    (the number of clusters is known only once every chunk is classified)."""

    def __init__(self, events: EventBus, name: str, chunks: int) -> None:
        self.events, self.name, self.chunks = events, name, chunks
        self.done: dict[str, int] = {}
        self.total: dict[str, int] = {"classify": chunks}

    def stage(self, stage: str, count: int) -> Callable[[int], None]:
        base = self.done.get(stage, 0)
        if stage != "classify":
            self.total[stage] = base + count

        def report(done: int) -> None:
            self.done[stage] = base + done
            self.events.publish(Progress(stage=stage, done=base + done, total=self.total[stage],
                                         message=self.name))

        return report


@dataclass
class _Reading:
    """What one ingestion of a document knows beyond its chunks: its structure and the titles taken so far."""

    doc: Document
    structure: DocStructure
    titles: Titles
    attachments: tuple[Attachment, ...]


class IngestPipeline:
    def __init__(self, engine: Engine, ops: GraphOps, linker: Linker, embedder: Embedder,
                 settings: Settings, events: EventBus, check_cancel: Callable[[], None],
                 structure: StructureBuilder, sections: SectionNodes) -> None:
        self.engine, self.ops, self.linker = engine, ops, linker
        self.embedder, self.settings, self.events = embedder, settings, events
        self.check_cancel = check_cancel
        self.structure, self.sections = structure, sections

    def run(self, doc: Document, task_goal: str = "", attachments: tuple[Attachment, ...] = (),
            start_chunk: int = 0, known: set[tuple[str, str]] | None = None) -> IngestReport:
        """Read the document in waves of chunks, each wave stored and linked before the next is read, so nodes
        appear while a long document is still being read. A wave is as many chunks as run concurrently.
        `attachments` go on every entry made from the document (the file itself, or an image).

        After each wave a `ChunksStored` event says how far it got. Resuming an interrupted ingestion starts at
        `start_chunk` and skips the clusters whose raw text is already an entry of this source (`known`: pairs
        of source name and entry text), so a wave half stored before a crash is not stored twice."""
        report = IngestReport(source=doc.name)
        start = perf_counter()
        structure = self._timed(report, "shape", lambda: self.structure.run(doc))
        reading = _Reading(doc, structure, Titles(self._titles_taken()), attachments)
        chunks = self._chunks(structure)
        size = agent_concurrency(self.engine, self.settings)
        progress = _WaveProgress(self.events, doc.name, len(chunks))
        furniture = FurnitureDetector(doc.page_texts)
        budget = self.settings.ingest_time_budget
        for first in range(start_chunk, len(chunks), size):
            self.check_cancel()
            if first > start_chunk and perf_counter() - start > budget:  # between waves: the first runs whole
                self._stop(report, doc, budget, chunks, first)
                break
            # after the first wave, before every call too: on a local model one wave ran ~48 min past its budget
            check = self._within(start, budget) if first > start_chunk else self.check_cancel
            try:
                self._wave(reading, chunks[first:first + size], first, task_goal, report, progress, furniture,
                           check, known)
            except IngestTimeSpent:
                self._stop(report, doc, budget, chunks, first, between_calls=True)
                break
            self.events.publish(ChunksStored(source=doc.name, done=min(first + size, len(chunks)),
                                             total=len(chunks)))
        self.check_cancel()
        made = self._timed(report, "sections", lambda: self.sections.run(doc, structure, reading.titles,
                                                                         attachments))
        report.node_ids.extend(n.id for n in made)
        report.seconds = perf_counter() - start
        return report

    def _titles_taken(self) -> list[str]:
        with self.ops.memory.read():
            return [node.title for node in self.ops.graph.nodes() if node.title]

    def _within(self, start: float, budget: float) -> Callable[[], None]:
        """The check before each call of a wave: the cancellation, then the document's time budget."""
        def check() -> None:
            self.check_cancel()
            if perf_counter() - start > budget:
                raise IngestTimeSpent(f"the ingestion time budget of {budget:g} s is spent")
        return check

    def _stop(self, report: IngestReport, doc: Document, budget: float, chunks: list[Chunk], read: int,
              between_calls: bool = False) -> None:
        """Say where the budget cut the document, in pages when it has them (parts of the text otherwise): the
        waves read whole; a wave cut `between_calls` keeps what it had stored, beyond the count."""
        pages = [c.page_end for c in chunks if c.page_end is not None]
        if pages:
            done, total, unit = chunks[read - 1].page_end or 0, max(pages), "pages"
        else:
            done, total, unit = read, len(chunks), "parts"
        part = f", and the next {unit} in part: it stopped between two model calls" if between_calls else ""
        reason = (f"Stopped reading {doc.name} after {budget:g} s: {done} of {total} {unit} read{part}. The "
                  f"per-document time budget (INGEST_TIME_BUDGET) ended it; what was read is kept.")
        report.stopped = RunError(where=STOPPED_WHERE, message=reason)
        report.failures.append(report.stopped)
        self.events.publish(ReadingStopped(where=STOPPED_WHERE, message=reason, source=doc.name,
                                           seconds=budget, done=done, total=total, unit=unit))

    def _wave(self, reading: _Reading, chunks: list[Chunk], offset: int, goal: str, report: IngestReport,
              progress: _WaveProgress, furniture: FurnitureDetector, check: Callable[[], None],
              known: set[tuple[str, str]] | None = None) -> None:
        """One wave; `check` runs before each agent call (the cancellation, and after the first wave the time
        budget: it raises `IngestTimeSpent`, and what the wave stored so far stays)."""
        doc = reading.doc
        clusters = self._timed(report, "classify", lambda: self._classify(chunks, offset, goal, reading, report,
                                                                          progress, check))
        if known:
            clusters = [(c, chunk) for c, chunk in clusters if (doc.name, c.content) not in known]
        locators: dict[int, PageLocator] = {}
        pages = [self._pages_of(doc, cluster, chunk, locators) for cluster, chunk in clusters]
        # furniture is told from the cluster's own text and place, so it is the same whichever engine made it
        roles = [furniture.role(cluster.content, p[0] if p else None) for (cluster, _), p in zip(clusters, pages)]
        summaries = self._timed(report, "structure", lambda: self._structure(clusters, roles, report, progress,
                                                                             check))
        places = [place(chunk, reading.structure, cluster.content) for cluster, chunk in clusters]
        nodes = self._timed(report, "embed", lambda: self._build_nodes(reading, clusters, places, summaries, pages,
                                                                       roles))
        built = sum(n is not None for n in nodes)
        progress.stage("embed", built)(built)
        self._timed(report, "link", lambda: self._store_and_link(reading, nodes, clusters, places, report,
                                                                 progress.stage("link", built), check))

    def _timed(self, report: IngestReport, stage: str, fn):  # noqa: ANN001, ANN202
        t0 = perf_counter()
        try:
            return fn()
        finally:
            report.stage_seconds[stage] = report.stage_seconds.get(stage, 0.0) + perf_counter() - t0

    def _chunks(self, structure: DocStructure) -> list[Chunk]:
        budget = int(self.settings.window("classification") * self.settings.chunk_ratio)
        if self.engine.chunk_tokens:
            budget = min(budget, self.engine.chunk_tokens)
        return chunk_units(structure, budget)

    def _fail(self, report: IngestReport, where: str, exc: MemoryBankError) -> None:
        report.failures.append(RunError.of(where, exc))
        self.events.publish(ErrorRaised(where=where, message=str(exc)))

    def _classify(self, chunks: list[Chunk], offset: int, goal: str, reading: _Reading, report: IngestReport,
                  progress: _WaveProgress, check: Callable[[], None]) -> list[tuple[Cluster, Chunk]]:
        agent, doc = self.engine.classification, reading.doc
        results = parallel_map(
            lambda c: agent.run(ClassificationInput(context=c.text, task_goal=goal, source=doc.name,
                                                    units=hints(c, reading.structure))),
            chunks, agent_concurrency(self.engine, self.settings), progress.stage("classify", len(chunks)), check)
        clusters: list[tuple[Cluster, Chunk]] = []
        for i, (chunk, result) in enumerate(zip(chunks, results)):
            if isinstance(result, MemoryBankError):
                self._fail(report, f"classification of {doc.name} chunk {offset + i + 1}", result)
                continue
            clusters.extend((c, chunk) for c in result.clusters if c.content.strip())
        return clusters

    def _structure(self, clusters: list[tuple[Cluster, Chunk]], roles: list[Role], report: IngestReport,
                   progress: _WaveProgress, check: Callable[[], None]) -> list[str | None]:
        inputs = [StructureInput(content=c.content, context=c.context, keywords=c.keywords,
                                 furniture=role.is_furniture) for (c, _), role in zip(clusters, roles)]
        results = map_agent(self.engine.structure, inputs, agent_concurrency(self.engine, self.settings),
                            progress.stage("structure", len(clusters)), check)
        summaries: list[str | None] = []
        for (cluster, _), result in zip(clusters, results):
            if isinstance(result, MemoryBankError):
                self._fail(report, f"structure of cluster '{cluster.context[:60]}'", result)
                summaries.append(None)
            else:
                summaries.append(result.summary)
        return summaries

    def _build_nodes(self, reading: _Reading, clusters: list[tuple[Cluster, Chunk]], places: list[Place | None],
                     summaries: list[str | None], spans: list[tuple[int, int] | None],
                     roles: list[Role]) -> list[Node | None]:
        """Nodes with their pages, section and role (body, or a kind of furniture), embedded in one batch."""
        doc = reading.doc
        printed = doc.page_labels  # PDF page -> printed page: provenance keeps both
        nodes: list[Node | None] = []
        for (cluster, _), where, summary, pages, role in zip(clusters, places, summaries, spans, roles):
            if summary is None:
                nodes.append(None)
                continue
            source = Source(name=doc.name, page_start=pages[0] if pages else None,
                            page_end=pages[1] if pages else None, url=doc.url,
                            printed_start=printed.get(pages[0]) if pages else None,
                            printed_end=printed.get(pages[1]) if pages else None,
                            section=where.path if where else ())
            base = where.section.title if where and where.section else cluster.context
            nodes.append(Node(id=new_id(), summary=summary, context=cluster.context,
                              keywords=list(cluster.keywords), sources=[source], kind=node_kind(doc),
                              role=role,
                              title=reading.titles.passage(base, list(cluster.keywords))))
        live = [n for n in nodes if n is not None]
        self.check_cancel()
        vectors = self.embedder.embed([n.embedding_text() for n in live])
        for node, vec in zip(live, vectors):
            node.embedding = vec
        return nodes

    def _pages_of(self, doc: Document, cluster: Cluster, chunk: Chunk,
                  locators: dict[int, PageLocator]) -> tuple[int, int] | None:
        if chunk.page_start is None or chunk.page_end is None:  # a chunk has both page numbers or neither
            return None
        start, end = chunk.page_start, chunk.page_end
        key = id(chunk)
        if key not in locators:
            in_chunk = [(p.number, p.text) for p in doc.pages if p.number is not None and start <= p.number <= end]
            locators[key] = PageLocator(in_chunk)
        return locators[key].locate(cluster.content) or (start, end)

    def _store_and_link(self, reading: _Reading, nodes: list[Node | None], clusters: list[tuple[Cluster, Chunk]],
                        places: list[Place | None], report: IngestReport, on_linked: Callable[[int], None],
                        check: Callable[[], None]) -> None:
        doc = reading.doc
        built = [(node, cluster, where) for node, (cluster, _), where in zip(nodes, clusters, places)
                 if node is not None]
        raw = [RawEntry(cluster.content, {"source": doc.name, "path": doc.path, "url": doc.url, "kind": doc.kind,
                                          "page_start": node.sources[0].page_start,
                                          "page_end": node.sources[0].page_end,
                                          "printed_start": node.sources[0].printed_start,
                                          "printed_end": node.sources[0].printed_end,
                                          **_structure_metadata(where, cluster.content)}, reading.attachments)
               for node, cluster, where in built]
        live = self.ops.add_nodes([node for node, _, _ in built], raw)
        report.node_ids.extend(n.id for n in live)
        failures = self.linker.link_new(live, on_linked, check)
        report.failures.extend(failures)


def _structure_metadata(where: Place | None, content: str) -> dict:
    """What an entry says of its place in the structure: the section path, the unit's kind (a table's rows and
    a section's outline are read line by line), a turn's speaker and date, and for a table the label of each of
    its rows the entry holds (`rows`: [row line, label, [[column, value], ...], unit]: an export's metadata
    keys are short names, a row line is not one) and the column headers, so a question that names a row and a
    column finds the row and its value without the line being parsed back."""
    if where is None:
        return {}
    unit = where.unit
    out: dict = {STRUCTURE_KEY: unit.kind, "section": list(where.path)}
    tables = [u.table for u in where.units if u.table is not None]
    if tables:
        lines = {" ".join(line.split()) for line in content.split("\n")}
        out["rows"] = [[key, row.label, [[c, v] for c, v in zip(table.columns, row.cells) if c and v], table.unit]
                       for table in tables for row in table.rows
                       if row.label and (key := " ".join(table.row_text(row).split())) in lines]
        out["columns"] = list(dict.fromkeys(c for table in tables for c in table.columns if c))
    if unit.speaker:
        out["speaker"] = unit.speaker
    date = unit.date or (where.section.date if where.section else None)
    if date:
        out["date"] = date
    return out
