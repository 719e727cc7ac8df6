"""A question is asked again in the acronyms the documents use only when their sentences do use those: a question
already in their words, refused as a near miss, is not asked again to take a lesser sentence for an answer."""

from __future__ import annotations

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import CachedEmbedder

CHURCH = (
    "The United Methodist Church (UMC) is a mainline Protestant denomination. The United Methodist Church has "
    "about twelve million members worldwide, and the United Methodist Church holds a General Conference every "
    "four years.\n\n"
    "The United Methodist Church opposes conscription as incompatible with the teaching of Scripture. Therefore, "
    "the Church supports and extends its ministry to those persons who conscientiously oppose all war, or any "
    "particular war, and who therefore refuse to serve in the armed forces or to cooperate with systems of military "
    "conscription. The UMC also supports those who choose to serve.\n\n"
    "The United Methodist Church ordains women as elders, and the UMC allows bishops to serve for life.")


def test_a_false_premise_in_the_documents_words_is_not_found(tmp_path, embedder: CachedEmbedder) -> None:  # noqa: ANN001
    """"Why does the United Methodist Church support conscription?" was refused ("opposes" is said of it), then
    asked again as "Why does the UMC support conscription?", which took "Therefore, the Church supports … those
    persons who conscientiously oppose all war …" for an answer."""
    bank = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path)
    bank.ingest_text(CHURCH, source="church.txt")
    answer = bank.run("Why does the United Methodist Church support conscription?").answer
    assert answer.startswith("Not found"), answer
    assert "opposes conscription" in answer, answer  # the closest thing the document says, labelled
