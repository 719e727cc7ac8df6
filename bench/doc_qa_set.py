"""The project's document-QA dev set (`bench/data/doc_qa_dev.json`) and the rules that score against it.

One module holds the rules so that the bench (`bench/doc_qa.py`) and the schema test read the file the same way:
an evidence string the test finds on its PDF page is found by the bench with the same function, so a miss in the
bench is a miss of the method, not of the matching. Matching is deliberately plain (case, whitespace, quotes,
dashes and trademark signs normalised; numbers compared as printed, thousands separators aside) so that a held-out
set written the same way is measured the same way.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEV_SET = ROOT / "bench" / "data" / "doc_qa_dev.json"
PDF_DIR = ROOT.parent / "shared" / "data" / "pdf"
KINDS = ("list", "steps", "how_many", "compare", "figure", "yes_no", "who", "unanswerable")
FIELDS = ("id", "doc", "kind", "question", "key_terms", "evidence_pages", "evidence", "answerable")
ROW = " => "  # 'label => number': a table figure, the number in the label's row

_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-")
_QUOTES = {ord("\u2018"): "'", ord("\u2019"): "'", ord("\u201c"): '"', ord("\u201d"): '"'}
_DROPPED = dict.fromkeys(map(ord, "\u00ae\u2122\u00a9\u2120\ufffe\u00ad\u200b"), None)
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b")


def load(path: Path = DEV_SET) -> tuple[dict, list[dict]]:
    """The file's `about` (the scoring fractions live there, beside the questions they apply to) and questions."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["about"], data["questions"]


def normalise(text: str) -> str:
    """Lower case, one space for any whitespace, straight quotes, one kind of dash, no trademark signs: what a
    PDF's extraction and a block's formatting vary in without changing what the text says."""
    text = text.translate(_DASHES).translate(_QUOTES).translate(_DROPPED)
    return " ".join(text.lower().split())


def _term_text(text: str) -> str:
    """Text for key-term matching: hyphens and slashes read as spaces ('micro-segmentation', 'agent/gateway'),
    '10,708' as '10708', 'seven' as '7' — an answer may print a number either way."""
    text = _THOUSANDS.sub("", normalise(text)).replace("-", " ").replace("/", " ")
    return " ".join(_NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1)], text).split())


def _has_term(text: str, term: str) -> bool:
    """Whole words only: '7' is not met by '17' nor '16.2' by '16.25'."""
    pattern = r"(?<![0-9a-z])(?<!\d\.)" + re.escape(_term_text(term)) + r"(?![0-9a-z]|\.\d)"
    return re.search(pattern, text) is not None


def term_share(answer: str, terms: list) -> float:
    """Share of the key terms the answer holds; a term given as a list is met by any of its alternatives."""
    if not terms:
        return 0.0
    text = _term_text(answer)
    met = sum(any(_has_term(text, t) for t in (term if isinstance(term, list) else [term])) for term in terms)
    return met / len(terms)


def says_verdict(answer: str, verdict: str) -> bool:
    return _has_term(_term_text(answer), verdict)


def carries(answer: str, question: dict, fractions: dict[str, float]) -> bool:
    """The answer holds enough of the key terms for its kind (and, for a yes/no question, says yes or no)."""
    if question.get("verdict") and not says_verdict(answer, question["verdict"]):
        return False
    return term_share(answer, question["key_terms"]) >= fractions[question["kind"]]


def _number(token: str) -> str:
    return token.strip("$()%:|,;")


def _row_holds(text: str, label: str, number: str) -> bool:
    """The number follows the label with only numbers, symbols and column headers between: one table row,
    whether the extraction kept the row on its own line, ran rows together (the next row starts with its
    label's words), or wrote each value after its column's header ('label | september 24, 2022: (10,708)')."""
    want = _number(normalise(number))
    start = text.find(label)
    while start >= 0:
        tokens = text[start + len(label):].split()[:40]
        i = 0
        while i < len(tokens):
            if any(c.isalpha() for c in tokens[i]):
                # words are the row's end unless they are a column header closed by ':' within a few tokens
                header_end = next((k for k in range(i, min(i + 5, len(tokens))) if tokens[k].endswith(":")), None)
                if header_end is None:
                    break
                i = header_end + 1
                continue
            if _number(tokens[i]) == want:
                return True
            i += 1
        start = text.find(label, start + 1)
    return False


def holds(text: str, requirement: str | list[str]) -> bool:
    """One evidence entry in `text` (normalise it first): verbatim, or a table figure 'label => number'; a list
    is met by any of its alternatives."""
    if isinstance(requirement, list):
        return any(holds(text, r) for r in requirement)
    if ROW in requirement:
        label, number = requirement.split(ROW)
        return _row_holds(text, normalise(label), number)
    return normalise(requirement) in text


def evidence_share(text: str, evidence: list) -> float:
    """Share of a question's evidence entries the text holds (a list question has one entry per item)."""
    if not evidence:
        return 0.0
    norm = normalise(text)
    return sum(holds(norm, e) for e in evidence) / len(evidence)


def page_texts(pdf: Path) -> list[str]:
    """Each page's raw text as pdfium extracts it: what the dev set's evidence strings were copied from."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()
