"""What ingestion made, as one canonical JSON file per document, so a speed change can be shown to keep the memory.

Ingests the NIST SP 800-207 PDF and the 300-page SQuAD book of `ingest_speed.py` with the offline engine and
writes each bank's export with what differs between two runs of the same code taken out: random ids become
their order of first appearance (nodes, merged nodes, entries, merge events, conflicts, attachments, the
insight doc), timestamps, the run log and the usage are dropped, a stored file's random folder is starred, and
edges (undirected: the graph keeps each pair in its ids' order) are sorted. Two checkouts' files are then
compared byte for byte:

    python bench/ingest_identity.py --out /tmp/before      # in the old checkout
    python bench/ingest_identity.py --out /tmp/after       # in the new one
    cmp /tmp/before/nist.json /tmp/after/nist.json && cmp /tmp/before/book.json /tmp/after/book.json

`--compare DIR` does the comparison itself and says which part differs first; `--pdf PATH` adds a document.
The book is made once and kept (`--book`, default in the system's temporary folder) so both checkouts read the
same file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ingest_speed import NIST, make_squad_pdf  # noqa: E402

_ID = re.compile(r"\b(?:doc-)?[0-9a-f]{12}\b")  # `new_id`: 12 hex digits (an attachment: "doc-" and 12)
STORED = re.compile(r"storage/[0-9a-f]{12}/")  # a stored file's folder is named at random too
DROPPED = {"timestamp", "created", "resolved_at", "run_log", "usage"}


def ids_in_order(export: dict[str, Any]) -> dict[str, str]:
    """Every random id the export holds, numbered in the order the export lists what it names."""
    tree = export["interaction_tree"]
    found = [n["id"] for n in export["query_graph"]["nodes"]]
    for event in tree["merge_events"]:  # merged-away nodes are named only here, in merged_from and merged_into
        found += [*event["merged_node_ids"], event["new_node_id"]]
    found += [e["entry_id"] for e in tree["entries"]]
    found += [m["event_id"] for m in tree["merge_events"]]
    found += [c["id"] for c in export["conflicts"]]
    found += [a["id"] for a in export["attachments"]]
    found.append(export["insight_doc"]["doc_id"])
    return {old: f"#{i}" for i, old in enumerate(dict.fromkeys(found))}


def canonical(value: Any, ids: dict[str, str]) -> Any:  # noqa: ANN401
    if isinstance(value, dict):
        return {ids.get(k, k): canonical(v, ids) for k, v in value.items() if k not in DROPPED}
    if isinstance(value, list):
        return [canonical(v, ids) for v in value]
    if isinstance(value, str):  # an id may stand alone or sit in a text ("Merged near-duplicate nodes 1a2b…")
        return STORED.sub("storage/*/", _ID.sub(lambda m: ids.get(m.group(0), m.group(0)), value))
    return value


def _number(ordinal: str) -> int:
    return int(ordinal.removeprefix("#"))


def canonical_export(export: dict[str, Any]) -> dict[str, Any]:
    out = canonical(export, ids_in_order(export))
    out["query_graph"]["edges"] = sorted(({**e, "a": a, "b": b} for e in out["query_graph"]["edges"]
                                          for a, b in [sorted((e["a"], e["b"]), key=_number)]),
                                         key=lambda e: (_number(e["a"]), _number(e["b"])))
    out["interaction_tree"]["node_to_entries"] = dict(sorted(out["interaction_tree"]["node_to_entries"].items()))
    return out


def ingest(path: Path, runtime: str) -> dict[str, Any]:
    from memory_bank import MemoryBank, Settings
    from memory_bank.retrieval.embedding import load_embedder

    bank = MemoryBank(Settings(engine="offline", ingest_time_budget=3600), embedder=load_embedder(runtime=runtime))
    try:
        bank.ingest_file(path)
        return canonical_export(bank.export())
    finally:
        bank.clear()


def first_difference(a: Any, b: Any, where: str = "") -> str | None:  # noqa: ANN401
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{where}: keys {sorted(set(a) ^ set(b)) or 'in another order'}"
        return next((d for k in a if (d := first_difference(a[k], b[k], f"{where}.{k}"))), None)
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := first_difference(x, y, f"{where}[{i}]"))),
                    None)
    return None if a == b else f"{where}: {str(a)[:80]!r} vs {str(b)[:80]!r}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder the canonical exports are written to")
    parser.add_argument("--compare", type=Path, help="folder of another checkout's canonical exports")
    parser.add_argument("--book", type=Path, default=Path(tempfile.gettempdir()) / "ingest_identity_book.pdf")
    parser.add_argument("--runtime", default="onnx-int8")
    parser.add_argument("--pdf", type=Path, action="append", default=[], help="another document (repeatable)")
    args = parser.parse_args()
    if not args.book.is_file():
        make_squad_pdf(args.book)
    args.out.mkdir(parents=True, exist_ok=True)
    differ = False
    for name, path in (("nist", NIST), ("book", args.book), *((pdf.stem, pdf) for pdf in args.pdf)):
        text = json.dumps(ingest(path, args.runtime), ensure_ascii=False, indent=1, sort_keys=False)
        (args.out / f"{name}.json").write_text(text, encoding="utf-8")
        print(f"{name}: {len(text):,} characters, sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}")
        if args.compare:
            other = json.loads((args.compare / f"{name}.json").read_text(encoding="utf-8"))
            diff = first_difference(other, json.loads(text))
            differ |= diff is not None
            print(f"  vs {args.compare}: {'identical' if diff is None else 'DIFFERS at ' + diff}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
