"""A sentence presenting a graph the text does not hold answers what is graphed, nothing else."""

from __future__ import annotations

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.graphic import asks_about_graphic, presents_graphic
from memory_bank.retrieval.embedding import CachedEmbedder

# Oracle's 10-K (fiscal 2023), Item 5 and note 11: the sentences as the filing says them
FILING = (
    "Oracle Corporation Annual Report on Form 10-K\n\nStock Performance Graph and Cumulative Total Return\n\n"
    "The graph below compares the cumulative total stockholder return on our common stock with the cumulative total "
    "return of the S&P 500 Index, the S&P Information Technology Index and the Dow Jones U.S. Technology Total "
    "Return Index for each of the last five fiscal years ended May 31, 2023, assuming an investment of $100 at the "
    "beginning of such period and the reinvestment of any dividends.\n\n"
    "Stockholders' Equity\n\n"
    "During fiscal 2023, 2022 and 2021, our Board of Directors declared cash dividends of $1.36, $1.28 and $1.04 per "
    "share of our outstanding common stock, respectively, which we paid during the same period. Our Board of "
    "Directors has approved a program for us to repurchase shares of our common stock.")


def test_a_sentence_presenting_a_graph_answers_only_what_is_graphed(tmp_path, embedder: CachedEmbedder) -> None:  # noqa: ANN001
    """"How does Oracle return capital to its stockholders?" was answered by the graph's sentence (its "total
    stockholder return" and "reinvestment of any dividends" meet the question's words), not by the dividends and
    the repurchase program."""
    bank = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path)
    bank.ingest_text(FILING, source="oracle_10k.txt")
    answer = bank.run("How does Oracle return capital to its stockholders?").answer
    assert "declared cash dividends" in answer and not answer.startswith("The graph below"), answer
    compared = bank.run("Which indexes does Oracle compare its cumulative total stockholder return with?").answer
    assert "S&P 500 Index" in compared, compared


def test_what_presents_a_graph_and_what_asks_about_one() -> None:
    assert presents_graphic("The following graph shows a comparison of cumulative total shareholder return …")
    assert not presents_graphic("The following table shows net sales by category.")  # its rows are in the text
    assert asks_about_graphic("Which indexes does Apple compare its return with?")
    assert not asks_about_graphic("How does Oracle return capital to its stockholders?")
