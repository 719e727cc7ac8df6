"""Yes/no questions: the answer says "Yes" or "No" first, read off the sentence that answers.

"Is network location alone enough to trust a request?" is answered by "network location alone does not imply
trust": the reader wants the verdict before the quote. The verdict is the polarity of the answering sentence
where it speaks about what the question asks (a negation within a few words of the question's own words), set
against a negation inside the question's proposition ("Is it true that X does not …?"). A negation elsewhere in
the sentence ("if the request is not authorized …" far from the asked words) does not flip it.

"Is the policy engine the same thing as the policy decision point?" asks an identity, which no negation states:
the answering sentence says "the PDP is broken down into two logical components: the policy engine and …", so a
part, a kind or a difference is a "No", and an alias ("also called", "also known as") a "Yes".
"""

from __future__ import annotations

import re

from ...text.tokens import STOPWORDS, stem
from ...text.trends import FALLING, RISING
from .constraints import opposite_words, turned_forms

# "Under a ZTA, can visitors …?", "If a ZTA is built on one provider's formats, can …?": a setting or a condition
# before the auxiliary (bounded, no comma inside: one pass over any text)
_YES_NO = re.compile(r"^\s*(?:(?:under|in|for|as\s+of|during|after|before|if|when|once|since|given|with|without|"
                     r"at|on|assuming|according\s+to)\b[^,?]{1,120},\s*)?"
                     r"(?:do|does|did|is|are|was|were|can|could|should|would|will|has|have|had|may|might|must|"
                     r"shall|isn't|aren't|doesn't|don't|didn't|wasn't|weren't|can't|won't|hasn't|haven't)\b",
                     re.IGNORECASE)
# "Is the UMC pro-life or pro-choice?" asks which, not whether: an "or" whose second choice ends the question.
# Possessive runs: "… or x" and 50,000 spaces was tried at every split of the spaces between the two "\s*" (7 s)
_CHOICE_END = re.compile(r"\bor\s++(?!not\b)(?:[\w'’-]++\s++)?[\w'’-]++\s*+\?*+\s*+$", re.IGNORECASE)
_TOKEN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_NEGATORS = frozenset({"not", "no", "never", "cannot", "nor", "neither", "none", "nothing", "nobody"})
_BEFORE, _AFTER = 2, 5  # a negation bears on the asked words this close to it (before, after)
# "Did net sales in Japan grow?" is answered by "net sales in Japan decreased": a change the other way is a no
# ("contract" is no fall: a filing's contracts are customers' agreements, and they made every growth question a no)
_UP = frozenset({*RISING, "grown", "risen", "gain", "higher", "more", "up", "exceed", "exceeded", "above", "larger",
                 "greater"})
_DOWN = frozenset({*FALLING, "fallen", "reduc", "lower", "less", "down", "worsen", "below", "smaller", "fewer"})


# an identity asked ("the same as", "identical to", "another name for", "equivalent to")
_SAME_ASKED = re.compile(r"\b(?:the\s+same(?:\s+(?:thing|as|one))?\b|identical|synonymous|another\s+(?:name|word|"
                         r"term)\s+for|equivalent\s+to|interchangeable)", re.IGNORECASE)
# a part, a kind or a difference: not the same
_NOT_SAME = re.compile(r"\b(?:broken\s+(?:down\s+)?into|split\s+into|divided\s+into|consists?\s+of|comprises?|"
                       r"composed\s+of|made\s+up\s+of|includes?|including|components?|parts?\s+of|one\s+of|"
                       r"subsets?\s+of|kinds?\s+of|types?\s+of|differs?|different|distinct|unlike|separate\s+from)\b",
                       re.IGNORECASE)
_ALIAS = re.compile(r"\b(?:also\s+(?:called|known\s+as|referred\s+to\s+as|named)|otherwise\s+known\s+as|"
                    r"synonym)\b", re.IGNORECASE)


# "Does multifactor authentication remove the risk …?" answered by "… reduce the risk …": an absolute asked (the
# risk gone, an outcome guaranteed), a lesser one said, is a no however closely the other words agree
_ABSOLUTE = frozenset(stem(w) for w in ("remove", "eliminate", "eradicate", "prevent", "stop", "guarantee",
                                        "ensure", "completely", "entirely", "fully", "totally", "always"))
_LESSER = frozenset(stem(w) for w in ("reduce", "mitigate", "lessen", "limit", "lower", "decrease", "minimize",
                                      "minimise", "curb", "partially", "partly"))


# "Is Oracle still operating in Russia?" answered by "we withdrew our operations from the Russian Federation": a
# going on asked, an end said, is a no
_GOING_ON = frozenset(stem(w) for w in ("still", "continue", "continues", "continuing", "remain", "remains",
                                        "ongoing"))
_ENDED = frozenset(stem(w) for w in ("withdrew", "withdrawn", "withdraw", "exited", "ceased", "discontinued",
                                     "stopped", "halted", "suspended", "terminated", "abandoned",
                                     "divested"))


def _ended(question_tokens: list[str], sentence_tokens: list[str]) -> bool:
    """The question asks whether something goes on; the sentence says it was ended (and the question does not
    ask about the ending itself)."""
    asked = {stem(t) for t in question_tokens}
    return bool(asked & _GOING_ON) and not asked & _ENDED and bool({stem(t) for t in sentence_tokens} & _ENDED)


def _lesser(question_tokens: list[str], sentence_tokens: list[str]) -> bool:
    """The question asks an absolute the sentence does not say, and the sentence says a lesser degree."""
    asked = {stem(t) for t in question_tokens} & _ABSOLUTE
    said = {stem(t) for t in sentence_tokens}
    return bool(asked) and not asked & said and bool(said & _LESSER)


def _identity(question: str, sentence: str) -> str | None:
    """The verdict on an identity question, where the sentence states one (see the module's docstring)."""
    if not _SAME_ASKED.search(question):
        return None
    if _ALIAS.search(sentence):
        return "Yes"
    return "No" if _NOT_SAME.search(sentence) else None


def is_yes_no(question: str) -> bool:
    """A question that opens with an auxiliary verb ("Does …", "Is …", "Should …") asks for a verdict, unless it
    ends on a choice between short alternatives ("… pro-life or pro-choice?"): a "Yes" answers no such question."""
    return _YES_NO.match(question) is not None and _CHOICE_END.search(question) is None


def lower_words(text: str) -> list[str]:
    """The text's words lower-cased, an apostrophe's ending kept on its word ("didn't", "Luther's")."""
    return _TOKEN.findall(text.lower().replace("’", "'"))


def _negators(tokens: list[str]) -> list[int]:
    return [i for i, t in enumerate(tokens) if t in _NEGATORS or t.endswith("n't")]


def _content(tokens: list[str]) -> set[str]:
    return {stem(t) for t in tokens if t not in STOPWORDS and t not in _NEGATORS and len(t) > 2}


# "it might not be desirable to use a single-vendor solution" answers "Should an enterprise get its ZTA from a
# single vendor?": the negation bears on a judgement, and the judgement on the clause after it, so the asked words
# sit further off than a plain negation's reach
_JUDGEMENTS = frozenset(stem(w) for w in ("desirable", "advisable", "recommended", "wise", "necessary", "needed",
                                          "required", "appropriate", "feasible", "possible", "practical",
                                          "realistic", "sensible", "enough", "sufficient", "suitable", "good",
                                          "best", "ideal", "optimal"))
_JUDGED = 10  # the judged clause's reach after the judgement
# "That does not mean that the enterprise is unable to analyze encrypted traffic": a negation of what a clause
# would mean bears on the clause, and a negative inside it ("unable", "not") turns the two into a yes
_META = frozenset(stem(w) for w in ("mean", "means", "imply", "implies", "follow", "follows", "suggest", "entail",
                                    "necessarily", "indicate", "true", "case"))
_NEGATIVE = frozenset({"unable", "impossible", "incapable", "unlikely", "unnecessary"})


def _reach(stems_: list[str], at: int) -> int:
    """How far after the negation at `at` its bearing reaches: past a judgement ("not be desirable to …") or
    what a clause would mean ("does not mean that …") to the clause it bears on."""
    following = [s for s in stems_[at + 1: at + 4] if s not in ("be", "been", "alway", "a", "an", "the")]  # stems
    return _JUDGED if following[:1] and (following[0] in _JUDGEMENTS or following[0] in _META) else _AFTER


def _negations(tokens: list[str], asked: set[str]) -> list[bool]:
    """The negations bearing on the asked words, each True where it stands and False where a negative in its
    reach cancels it ("not … unable", "does not mean that … cannot"): a double negation says yes."""
    stems_ = [stem(t) for t in tokens]
    negators = _negators(tokens)
    out: list[bool] = []
    cancelled: set[int] = set()
    for i in negators:
        if i in cancelled:
            continue
        reach = _reach(stems_, i)
        end = min(len(tokens), i + reach + 1)
        if not asked & set(stems_[max(0, i - _BEFORE): end]):
            continue
        # a second negator cancels only past a judgement or a meaning ("not necessary … not"); a plain negation
        # five words from another ("cannot connect … not approved") negates something else
        second = next((j for j in range(i + 1, end)
                       if tokens[j] in _NEGATIVE or (reach == _JUDGED and j in negators)), None)
        if second is not None:
            cancelled.add(second)
        out.append(second is None)
    return out


def _negated_near(tokens: list[str], asked: set[str]) -> bool:
    return any(_negations(tokens, asked))


def _stems_near(tokens: list[str], at: int, before: int = _BEFORE) -> list[str]:
    """The stems a negation at `at` bears on (from `before` words before it)."""
    stems_ = [stem(t) for t in tokens]
    return stems_[max(0, at - before): at + _reach(stems_, at) + 1]


# what a sentence holds that the question asks whether it owns, the one excluding the other (constraints.py's
# families are near misses of any question; these only turn a verdict: "Does Oracle own its main plant?")
_OWNED = {"own", "owns", "owned", "owning"}
_LEASED = {"lease", "leases", "leased", "leasing", "rent", "rents", "rented", "renting"}
_TURNED = ((_OWNED, _LEASED), (_LEASED, _OWNED))
# "There is a misconception that ZTA is … incompatible with the existing view of cybersecurity": the claim after
# it is what the sentence denies
_REFUTING = re.compile(r"\b(?:misconceptions?|myths?|misperceptions?|misunderstandings?|mistaken(?:ly)?|"
                       r"fallac(?:y|ies)|false\s+(?:beliefs?|impressions?|assumptions?)|wrongly\s+(?:believed?|"
                       r"assumed?|thought))\b", re.IGNORECASE)
CLAIM_WORDS = 2  # the question's words a refuted claim says: what the question asks, not a side remark
# "resources rather than network segments": the words after it are what the sentence sets aside
_INSTEAD_OF = re.compile(r"\b(?:rather\s+than|instead\s+of)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;:()]|\.(?!\d)")  # not a decimal point: "instead of 6.8%, for fiscal 2023"


def _refuted(question: str, sentence: str, asked: set[str]) -> bool:
    """Does the sentence call a claim of the question's words a misconception (the question not itself asking
    whether it is one)?"""
    match = _REFUTING.search(sentence)
    if match is None or _REFUTING.search(question):
        return False
    claim = {stem(t) for t in lower_words(sentence[match.end():])}
    return len(asked & claim) >= CLAIM_WORDS


def _set_aside(question: str, sentence: str, asked: set[str]) -> bool:
    """Does the sentence set aside ("X rather than Y", "Y instead of X") more of what is asked than it keeps? The
    set-aside side runs to its clause's end; the kept side is read as long, back from the words: its parallel
    phrase."""
    match = _INSTEAD_OF.search(sentence)
    if match is None or _INSTEAD_OF.search(question):
        return False
    aside = lower_words(_CLAUSE_END.split(sentence[match.end():], maxsplit=1)[0])
    kept = lower_words(sentence[:match.start()])[-(len(aside) + 1):]
    return len(asked & _content(aside)) > len(asked & _content(kept))


def _direction(tokens: list[str]) -> int:
    """+1 when the words speak of a change up only, -1 of a change down only, 0 otherwise."""
    stems_ = {stem(t) for t in tokens} | set(tokens)
    up, down = bool(stems_ & _UP), bool(stems_ & _DOWN)
    return 0 if up == down else (1 if up else -1)


def _asked_tokens(question: str) -> list[str]:
    """The question's words, a negated opening aside: "Isn't X Y?" asks the same as "Is X Y?"."""
    q = lower_words(question)
    return q[1:] if q and (q[0].endswith("n't") or q[0] == "cannot") else q


_UNCONTRACTED = {"ca": "can", "wo": "will", "sha": "shall"}  # "can't" is "can" + "not", "won't" is "will" + "not"
_EDGES = "\"'“”‘’()[]{}.,;:!?"


def _negation(word: str) -> bool:
    low = word.lower()
    return low in ("not", "cannot") or low.endswith(("n't", "n’t"))


def positive_reading(question: str) -> str | None:
    """A question asked with two negations ("Isn't the hardware margin not improving?"), without them ("Is the
    hardware margin improving?"); None for any other. The opening "Isn't" alone only asks for agreement, so it
    was dropped and the "not" after it made the question ask whether the margin is not improving: "No." to a
    margin that improved, which reads as "No, it is not improving". Two negations cancel, and the verdict says
    which question it answers."""
    words = question.split()
    # "… or not?" offers the other answer: no negation of what is asked
    negations = [i for i, w in enumerate(words) if _negation(w.strip(_EDGES))
                 and not (i and words[i - 1].lower() == "or" and w.strip(_EDGES).lower() == "not")]
    if len(negations) != 2:
        return None
    out: list[str] = []
    for i, word in enumerate(words):
        core = word.strip(_EDGES)
        if i not in negations:
            out.append(word)
        elif core.lower() != "not":  # "Isn't" -> "Is", "cannot" -> "can"
            stem_ = core[:-3] if core.lower() != "cannot" else core[:3]
            plain = _UNCONTRACTED.get(stem_.lower(), stem_.lower())
            out.append(word.replace(core, plain.capitalize() if core[:1].isupper() else plain, 1))
        elif out and word != core:  # "… not?": the mark stays
            out[-1] += word[word.index(core) + len(core):]
    return " ".join(out)


def _answering(said: str, plain: str) -> str:
    return f"{said} (answering “{plain}”)"


def trend_verdict(question: str, trend: int | None) -> str | None:
    """'Yes' or 'No' read off a figure's own years: "Is the hardware margin improving?" of a row that went from
    1,878 to 1,932 is a yes whatever the discussion's first sentence says ("… lower operating margins than our
    cloud business" compares two businesses, not two years). None when the question asks no direction or the
    row gives none."""
    plain = positive_reading(question)
    if plain is not None:
        said = trend_verdict(plain, trend)
        return _answering(said, plain) if said else None
    q = _asked_tokens(question)
    asked = _direction(q)
    if not asked or not trend or _negators(q):
        return None
    return "Yes" if asked == trend else "No"


def verdict(question: str, sentence: str) -> str:
    """'Yes' or 'No': whether the sentence affirms what the question asks (saying which question, when it was
    asked with two negations)."""
    plain = positive_reading(question)
    if plain is not None:
        return _answering(verdict(plain, sentence), plain)
    return _read(question, sentence)[0]


IMPLIED, SAID = 1, 2  # how plainly a sentence states a verdict: by a lesser degree, or outright


def stated(question: str, sentence: str, words: int = 1) -> int:
    """How plainly the sentence states the verdict, rather than only not contradicting it (0): outright (`SAID`) by
    a negation bearing on `words` of the question's words or more (standing or cancelled) or on the absolute asked
    ("does not eliminate it" of "fully remove"), a change or a word the other way round, a part or an alias, a
    claim it calls a misconception or sets aside ("rather than"); by a lesser degree than the absolute asked
    (`IMPLIED`: "mitigate" of "fully remove"). A sentence saying none is a "Yes" only because it says no "No"."""
    plain = positive_reading(question)
    return _read(plain if plain is not None else question, sentence, words)[1]


def _read(question: str, sentence: str, words: int = 1) -> tuple[str, int]:
    """The verdict and how plainly the sentence states it (`stated`)."""
    identity = _identity(question, sentence)
    if identity is not None:
        return identity, SAID
    q = _asked_tokens(question)
    asked = _content(q)
    said = lower_words(sentence)
    if not _negators(q) and (_refuted(question, sentence, asked) or _set_aside(question, sentence, asked)
                             or _absolute_denied(q, said) or _ended(q, said)):
        return "No", SAID
    if not _negators(q) and _lesser(q, said):
        return "No", IMPLIED
    negations = _negations(said, asked)
    said_no = any(negations)
    asked_no = bool(_negators(q)) and _negated_near(q, asked)
    asked_way, said_way = _direction(q), _direction(said)
    # asked about a rise, told of a fall (or the other way); "own" asked, "lease" said
    opposite = asked_way * said_way < 0 or bool(opposite_words(question, sentence)
                                                 or turned_forms(set(q), set(said), _TURNED))
    said_of = max((len(asked & set(_stems_near(said, i))) for i in _negators(said)), default=0)
    # a change the other way is said of what is asked in the answer's sentence; a neighbour's "reduce the exposure
    # of resources" is of something else ("Does a ZTA improve security?")
    turned = asked_way * said_way < 0 and words <= 1 or bool(opposite_words(question, sentence)
                                                             or turned_forms(set(q), set(said), _TURNED))
    plain = bool(negations) and said_of >= words or turned or asked_no
    return ("No" if (said_no != asked_no) != opposite else "Yes"), SAID if plain else 0


def _absolute_denied(question_tokens: list[str], sentence_tokens: list[str]) -> bool:
    """The question asks an absolute ("fully remove") and the sentence negates one ("does not eliminate it")."""
    if not {stem(t) for t in question_tokens} & _ABSOLUTE:
        return False
    return any(set(_stems_near(sentence_tokens, i, 0)) & _ABSOLUTE for i in _negators(sentence_tokens))
