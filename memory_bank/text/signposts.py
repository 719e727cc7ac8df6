"""A sentence that says where the document discusses a thing, not what it says of it.

"• Section 5 discusses threats to an enterprise using a ZTA." (the NIST publication's "Structure of This Document")
shares the words of "What dangers does the document see in handing ZTA administration tasks to AI …?" and led its
answer, above the sentences of section 5.7 that name the dangers; a reader is pointed elsewhere, not answered. Such
a sentence is cited only when no other sentence answers, unless the question asks where a thing is discussed
("Which section of the publication covers threats?").
"""

from __future__ import annotations

import re

# "Section 5 discusses …", "• Appendix B identifies …", "Chapter 3 of this document describes …", "This section
# presents …" (a bullet or a mark may open it; the verb within three words of the part's name). Verbs of what a
# part of a document does for its reader only: "Section 230 provides immunity …" is a law's content. Not "This
# document contains …": an abstract's account of the whole is what some questions ask ("What does it give?")
_SIGNPOST = re.compile(
    r"^\W{0,3}(?:(?:section|appendix|chapter|annex|part)\s+[\dA-Z][\w.]{0,9}|this\s+(?:section|appendix|chapter))\s+"
    r"(?:[\w,]+\s+){0,3}?(?:discuss|describ|list|document|present|defin|contain|give|cover|introduc|outlin|summar|"
    r"explain|examin|identif|detail|address|focus)\w*\b", re.IGNORECASE)
_ASKS_WHERE = re.compile(r"\b(?:sections?|appendix|appendices|chapters?|annex|where)\b", re.IGNORECASE)


def points_elsewhere(sentence: str) -> bool:
    """Does the sentence only say which part of the document discusses something?"""
    return _SIGNPOST.match(sentence[:300]) is not None


def asks_where(question: str) -> bool:
    """Does the question ask which part of the document discusses a thing (where the signposts answer it)?"""
    return _ASKS_WHERE.search(question) is not None
