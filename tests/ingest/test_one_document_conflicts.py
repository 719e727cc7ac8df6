"""A document's parallel passages are not conflicts. Two sections of one filing written to one template ("Greater
China net sales increased ..." / "Europe net sales increased ...") align like an edited copy with a name changed,
and two reference lists like one list with a title changed; the offline analysis flagged 35 such pairs on the
Apple 10-K and one on the NIST PDF's references. A claim changed between two sources is still a conflict."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import CachedEmbedder

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "pdf"


def _pages(name: str, pages: list[int], folder: Path) -> Path:
    source = DATA / name
    if not source.is_file():
        pytest.skip(f"shared data missing: {source}")
    part = pdfium.PdfDocument.new()
    part.import_pages(pdfium.PdfDocument(str(source)), pages)
    path = folder / name
    part.save(str(path))
    return path


def test_two_sections_written_to_one_template_are_no_conflict(embedder: CachedEmbedder, tmp_path: Path) -> None:
    bank = MemoryBank(Settings(), embedder=embedder, workdir=tmp_path / "w")
    bank.ingest_file(_pages("APPLE_2022_10K.pdf", [24, 25], tmp_path))  # segment operating performance
    texts = {n.id: bank.memory.source_text(n.id) for n in bank.memory.graph.nodes()}
    china = {i for i, t in texts.items() if "Greater China net sales increased" in t}
    europe = {i for i, t in texts.items() if "Europe net sales increased" in t and i not in china}
    pairs = [{c.node_a, c.node_b} for c in bank.memory.conflicts.values()]
    bank.clear()
    assert china and europe, "both regions' passages are in memory"
    assert not [p for p in pairs if p & china and p & europe], "one region's sales against another's"


REFERENCES = """## References

[DHS15] Department of Homeland Security (2015) Continuous Diagnostics and Mitigation: {} Asset Management ({}).
Available at https://www.us-cert.gov/sites/default/files/cdm_files/{}_CDM_Capability.pdf

[NIST17] National Institute of Standards and Technology (2017) Framework for Improving Critical Infrastructure
Cybersecurity. Available at https://doi.org/10.6028/NIST.CSWP.04162018

[OMB18] Office of Management and Budget (2018) Delivering Government Solutions in the 21st Century. Available at
https://www.whitehouse.gov/wp-content/uploads/2018/12/M-19-03.pdf
"""


def test_reference_lists_state_no_claim_to_contradict(embedder: CachedEmbedder, tmp_path: Path) -> None:
    """Two reference lists citing one agency's "Software" and "Hardware" asset management papers after the same
    words: furniture, related but no conflict (the NIST PDF's two reference lists were one)."""
    bank = MemoryBank(Settings(), embedder=embedder, workdir=tmp_path / "w")
    for name, kind in (("a.md", ("Software", "SWAM", "SWAM")), ("b.md", ("Hardware", "HWAM", "HWAM"))):
        (tmp_path / name).write_text(REFERENCES.format(*kind), encoding="utf-8")
        bank.ingest_file(tmp_path / name)
    roles = {n.role.value for n in bank.memory.graph.nodes()}
    conflicts = list(bank.memory.conflicts.values())
    bank.clear()
    assert roles == {"references"}
    assert conflicts == [], [c.description for c in conflicts]


def test_a_figure_changed_between_two_files_is_still_a_conflict(embedder: CachedEmbedder, tmp_path: Path) -> None:
    text = ("## Budget\n\nThe steering board approved a project budget of {} million dollars in March 2021, "
            "after a review of the pilot's costs and the vendor's quote for the rollout.")
    bank = MemoryBank(Settings(), embedder=embedder, workdir=tmp_path / "w")
    for name, figure in (("minutes.md", 5), ("review.md", 9)):
        (tmp_path / name).write_text(text.format(figure), encoding="utf-8")
        bank.ingest_file(tmp_path / name)
    conflicts = list(bank.memory.conflicts.values())
    bank.clear()
    assert len(conflicts) == 1 and '"5"' in conflicts[0].description and '"9"' in conflicts[0].description


def test_an_index_of_exhibits_states_no_claim_to_contradict(embedder: CachedEmbedder, tmp_path: Path) -> None:
    """The 10-K's Item 15 lists documents filed elsewhere ("4.14 Officer's Certificate … dated as of May 11, 2017"
    / "4.5 … dated as of November 10, 2014"): each line read as body text by its shape, but under an index of
    exhibits; three pairs of them were pending conflicts on the Apple 10-K."""
    bank = MemoryBank(Settings(), embedder=embedder, workdir=tmp_path / "w")
    bank.ingest_file(_pages("APPLE_2022_10K.pdf", [57, 58], tmp_path))
    certificates = [n for n in bank.memory.graph.nodes() if "Officer’s Certificate" in bank.memory.source_text(n.id)]
    conflicts = [c.description for c in bank.memory.conflicts.values()]
    bank.clear()
    assert len(certificates) >= 2, "the exhibit lines are in memory"
    assert conflicts == []
