"""What a bank is given, into memory: files, pasted text and images, for a run or on their own.

One place decides how each kind of input is ingested (a document is copied into the bank's storage and attached; an
image is described at once, or waits among the pending images for the run's IMAGE_RECOGNITION task) and keeps the
reports, so that `RunSession`, a lone `ingest_file` and a resumed run ingest the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from ..errors import EndpointDown, InputError, MemoryBankError, RunCancelled, RunError
from ..events import ErrorRaised, EventBus
from ..ingest.pipeline import IngestPipeline, IngestReport
from ..loaders import Document, load_file
from ..memory.interaction_tree import Attachment, AttachmentType, new_id
from ..memory.pending_images import PendingImages, TempImage
from ..memory.store import Memory
from ..settings import Settings
from .runner import TaskRunner

PASTED = "pasted text"  # the name a run's pasted text goes by, in errors and in a resumed run's inputs


class PlannedInput(Protocol):
    """One input of an interrupted run still to ingest (the store's `ResumeInput`): a stored file, or the text."""

    @property
    def name(self) -> str: ...
    @property
    def path(self) -> Path | None: ...
    @property
    def text(self) -> str | None: ...
    @property
    def start_chunk(self) -> int: ...


class InputIngestion:
    def __init__(self, settings: Settings, memory: Memory, images: PendingImages, pipeline: IngestPipeline,
                 runner: TaskRunner, events: EventBus) -> None:
        self.settings, self.memory, self.images, self.pipeline = settings, memory, images, pipeline
        self.runner, self.events = runner, events
        self.reports: list[IngestReport] = []

    def load(self, path: str | Path, name: str | None = None) -> Document:
        return load_file(path, name=name, max_bytes=self.settings.max_file_mb * 1024 * 1024,
                         max_image_pixels=self.settings.max_image_pixels)

    def file(self, path: str | Path, name: str | None = None, goal: str | None = None,
             defer_images: bool = False) -> list[str]:
        """Ingest a loaded file; an image is described at once, or with `defer_images` waits among the pending images
        for the run's IMAGE_RECOGNITION task."""
        doc = self.load(path, name)
        if doc.kind == "image":
            image = self.images.add_image(Path(doc.path or ""), doc.name, doc.metadata)
            return [] if defer_images else self._image(image, goal)
        return self.document(doc, goal, (self._attachment(doc),))

    def image(self, path: str | Path, name: str | None = None) -> str:
        """Queue an image for the next run's IMAGE_RECOGNITION task; returns its temp id."""
        doc = self.load(path, name)
        if doc.kind != "image":
            raise InputError("is not an image", source=doc.name)
        return self.images.add_image(Path(doc.path or ""), doc.name, doc.metadata).image_id

    def document(self, doc: Document, goal: str | None = None,
                 attachments: tuple[Attachment, ...] = ()) -> list[str]:
        return self._checked(self.pipeline.run(doc, self._goal(goal), attachments))

    def run_inputs(self, files: Sequence[tuple[Path, str]], text: str | None,
                   goal: str) -> tuple[list[str], list[RunError]]:
        """Ingest a run's files and pasted text; one that fails is recorded (error event, `result.errors`)
        and the others go on, whatever the kind of input."""
        inputs: list[tuple[str, Callable[[], list[str]]]] = [
            (name, lambda f=f, name=name: self.file(f, name=name, goal=goal, defer_images=True))
            for f, name in files]
        if text and text.strip():
            inputs.append((PASTED, lambda: self.document(Document.from_text(text, PASTED), goal)))
        new_ids: list[str] = []
        errors: list[RunError] = []
        for name, ingest in inputs:
            done = len(self.reports)
            try:
                new_ids.extend(ingest())
                errors.extend(r.stopped for r in self.reports[done:] if r.stopped)  # stopped early, kept, said
            except (RunCancelled, EndpointDown):
                raise
            except MemoryBankError as exc:
                errors.append(RunError.of(f"ingest {name}", exc))
                self.events.publish(ErrorRaised(where=f"ingest {name}", message=str(exc)))
        return new_ids, errors

    def resumed(self, inputs: Sequence[PlannedInput], goal: str) -> list[str]:
        """An interrupted run's inputs, each from the chunk where it stopped; what a crash left half stored (the
        same source and text) is not stored twice. A cancel keeps what was ingested before it."""
        with self.memory.read():
            known = {(str(e.metadata.get("source")), e.text) for e in self.memory.tree.entries.values()}
        new_ids: list[str] = []
        try:
            for item in inputs:
                doc = (self.load(item.path, item.name) if item.path is not None
                       else Document.from_text(item.text or "", item.name))
                attachments = (self._attachment(doc),) if item.path is not None else ()
                report = self.pipeline.run(doc, goal, attachments, item.start_chunk, known)
                new_ids.extend(self._checked(report) if report.node_ids else [])
        except RunCancelled:
            pass
        return new_ids

    def _attachment(self, doc: Document) -> Attachment:
        """The document copied into the bank's storage (a link where it can be): the attachment names that copy."""
        file_id = new_id()
        stored = self.images.files.adopt(Path(doc.path or ""), file_id, doc.name)
        return Attachment(id=f"doc-{file_id}", type=AttachmentType.DOCUMENT, path=stored,
                          mime=str(doc.metadata.get("mime", "")))

    def _goal(self, goal: str | None) -> str:
        if goal is not None:
            return goal
        with self.memory.read():
            return self.memory.insight_doc.task_goal

    def _checked(self, report: IngestReport) -> list[str]:
        self.reports.append(report)
        if not report.node_ids and report.failures:
            raise MemoryBankError(f"{report.source}: nothing could be ingested ({report.failures[0]})")
        return report.node_ids

    def _image(self, image: TempImage, goal: str | None) -> list[str]:
        return self._checked(self.runner.recognise_image(image, self._goal(goal))[1])
