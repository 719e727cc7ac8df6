"""A sentence that presents a graph the text does not hold ("The graph below compares the cumulative total
stockholder return on our common stock with … the S&P 500 Index …") says what the picture compares, and nothing
else: its words ("return", "stockholder", "dividends") meet questions it does not answer ("How does Oracle return
capital to its stockholders?"). It answers only a question about what is graphed or compared."""

from __future__ import annotations

import re

_PRESENTS = re.compile(r"^\s*(?:the|this)\s+(?:following\s+|above\s+|accompanying\s+)?(?:graph|chart|figure|diagram)s?"
                       r"(?:\s+(?:below|above))?\s+(?:shows?|compares?|illustrates?|depicts?|presents?|summari[sz]es?)\b",
                       re.IGNORECASE)
_ABOUT = re.compile(r"\b(?:graph\w*|charts?|figures?|diagrams?|compar\w*|index\w*|indices|benchmarks?|performance)\b",
                    re.IGNORECASE)


def presents_graphic(sentence: str) -> bool:
    return _PRESENTS.match(sentence) is not None


def asks_about_graphic(question: str) -> bool:
    """Does the question ask what a graph shows or compares (so a sentence presenting one may answer it)?"""
    return _ABOUT.search(question) is not None
