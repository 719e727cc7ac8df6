"""A question in another language than the documents': the "not found" says so, so the reader can ask again.

Retrieval and every check of the offline answer match words, so a question in Spanish or Chinese shares none
with an English filing and gets "Not found in the documents", which reads as if the documents lacked the answer
("¿Cuáles son los principios básicos de la confianza cero?" of NIST SP 800-207, whose seven tenets are the
answer). The offline answer translates nothing; it can say why it found nothing. A question is taken for another
language when most of its letters are of another script than the documents' Latin one, or when it is written in
Latin letters without a single English function word and most of its words appear nowhere in the documents
(a paraphrase in English keeps its "the", "what", "of").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from ..protocol.not_found import is_not_found

MIN_WORDS = 3  # "Kubernetes RBAC?" is too short to tell a language by
UNSAID_SHARE = 0.5  # the share of a Latin-letter question's words the documents never say
OTHER_SCRIPT_SHARE = 0.5  # the share of the question's letters in another script than Latin
_WORD = re.compile(r"[^\W\d_]+")
# words nearly every English question has one of; none of them is a word of the common European languages
# spelled the same (Spanish "de", "la", "que" or French "les" are not here)
_ENGLISH = frozenset("""the a an of to in on for with by from and or is are was were be been do does did what which
who whom whose when where why how many much this that these those it its their there has have had can could should
would will may might must not than as at about into""".split())
_DOCUMENTS_ENGLISH = ["the", "and", "of"]  # words an English document says, whatever its subject
HINT = ("The documents are written in English and the question seems not to be: asked in English, it may find "
        "what they say.")

Mentions = Callable[[list[str]], dict[str, bool]]


def other_language(question: str, mentions: Mentions) -> bool:
    """Is the question in another language than the documents (which must be English for this to say so)?"""
    letters = [c for c in question if c.isalpha()]
    if not letters or not all(mentions(_DOCUMENTS_ENGLISH).values()):
        return False
    other = sum(not unicodedata.name(c, "").startswith("LATIN") for c in letters)
    if other > OTHER_SCRIPT_SHARE * len(letters):
        return True
    words = [w.casefold() for w in _WORD.findall(question)]
    if len(words) < MIN_WORDS or any(w in _ENGLISH for w in words):
        return False
    unsaid = [w for w, said in mentions(list(dict.fromkeys(words))).items() if not said]
    return len(unsaid) > UNSAID_SHARE * len(set(words))


def hinted(answer: str | None, question: str, mentions: Mentions) -> str | None:
    """The answer, with `HINT` after a "not found" to a question in another language than the documents'."""
    if answer and is_not_found(answer) and other_language(question, mentions):
        return f"{answer}\n{HINT}"
    return answer
