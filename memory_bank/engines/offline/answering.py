"""Extractive answering: the best sentences of the evidence for a question, within ~50 words.

The sentences are ranked by `ranking.SentenceRanker`; the honest "not found" is `found.FoundModel`'s judgement
of the best body sentence, or its passage dating its facts by other years than the question asks about, or the
sentence missing a constraint of the question (a name or number it does not say, a word it says the other way
round: constraints.py): near misses whose words all match (bench/squad_near_miss.py). The answer is the best
sentence, completed with the next best ones while the word limit allows, cut around the question's words when a
sentence alone is too long. Document furniture (a table of contents, an acronym list, a notice) is cited only
when no body sentence answers: it names topics, body text explains them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ...retrieval.embedding import Embedder
from ...structure.lists import item_marker
from ...text.asks import asks_for_items, asks_sequence, explains
from ...text.tokens import stems
from .evidence import GOES_ON, Evidence
from .found import FoundModel
from .kind_named import asked_kind, explain_accepts, kind_accepts
from .lead_fallback import fallback_lead
from .long_sentence import window
from .question_types import WHO, expected_type, has_type
from .ranking import Ranked, SentenceModel, SentenceRanker
from .sides import Sides, asked_aspects, asked_difference, compared_sides, states_difference
from .since_when import since_lead
from .verdict import is_yes_no

MIN_EXTRA_WORDS = 4  # a next-best sentence shorter than this is a name or a label, not a second sentence
WHOLE_LIMIT = 2  # a best sentence up to twice the word budget is shown whole
SEQUENCE_SHARE = 2.5  # a course of events ("what happens from ... until ...?") may take this many budgets
SEQUENCE_BEST = 4  # the best sentences of the ranking a course of events may start from
ASPECT_POOL = 12  # the best sentences a question for gains and losses picks those saying one from
LIST_LEAD_TOP = 3  # the best sentences a lead-in with its items may be taken from, for a question asking for items
DIFFERENCE_SHARE = 2  # what sets one side apart ("How does X differ from Y?") may take this many budgets
_PRONOUN_SUBJECT = re.compile(r"^\s*(?:we|he|she|they|i|our|his|her|their)\b", re.IGNORECASE)
# a sentence opening with a word that points back to the sentence before it in its passage
_POINTS_BACK = re.compile(r"^\s*(?:he|she|it|its|they|their|his|her|this|these|those)\b", re.IGNORECASE)
# one that offers another way or more of the same ("Alternatively (or additionally), the enterprise may …"): what it
# is the alternative to is the sentence before, which the answer cannot leave out, so it is read past the budget
_GOES_BESIDE = re.compile(r"^\s*(?:alternatively|likewise|similarly|otherwise|instead)\b",
                          re.IGNORECASE)
# one that sets a scene ("In another example, an accountant who typically accesses the financial system … is now
# trying to access the system in the middle of the night …"): what happens in it is the sentence after it
_SETS_SCENE = re.compile(r"^\s*(?:(?:in\s+(?:another|one|this|that)\s+|as\s+an\s+|for\s+)(?:example|instance)\b|"
                         r"suppose\b|consider\b|imagine\b)", re.IGNORECASE)
_FOLLOWS = re.compile(r"\b(?:as\s+follows|the\s+following)\b", re.IGNORECASE)
_ANNOUNCES = re.compile(r":\s*(?:1[.)])?\s*$")  # "... the following tenets:" or "... tenets: 1."


@dataclass(frozen=True)
class AnswerConfig:
    """How long an answer may be, how sentences are ranked, and the model that decides whether the evidence
    answers at all."""

    max_words: int = 50
    ranking: SentenceModel = field(default_factory=SentenceModel)
    found: FoundModel = field(default_factory=FoundModel)


@dataclass
class Answer:
    text: str
    used: list[Evidence] = field(default_factory=list)
    score: float = 0.0
    found: bool = True


class Answerer:
    def __init__(self, embedder: Embedder, config: AnswerConfig | None = None,
                 acronyms: Callable[[], Mapping[str, str]] | None = None) -> None:
        self.config = config or AnswerConfig()
        self.ranker = SentenceRanker(embedder, self.config.ranking, acronyms)

    def answer(self, question: str, evidence: list[Evidence], said: frozenset[str] = frozenset()) -> Answer:
        return self.answer_ranked(question, self.rank(question, evidence), said)

    def answer_ranked(self, question: str, ranked: Ranked | None, said: frozenset[str] = frozenset()) -> Answer:
        """`said`: sentences another part of the same reply shows (or opens with); they are not used as filler."""
        if ranked is None:
            return Answer(text="", found=False)
        pool, order = ranked.pool, ranked.order
        sides = compared_sides(question)

        kind = asked_kind(question)  # "What risks …?": a sentence naming a risk is accepted a little lower

        def found(i: int, account: bool = False) -> bool:
            """`account`: also a sentence rated a little below the threshold for a question asking for an account
            ("How does …?", "What happens …?"), once no runner-up is accepted outright."""
            unmet = [t for t in ranked.near_miss(i)  # a comparison's sentence on one side need not name the other
                     if not any(s.other_sides(t, pool[i].text, _titled(pool[i])) for s in sides)]
            signals, model = ranked.signals(i), self.config.found
            accepted = (model.found(signals) or kind_accepts(kind, pool[i].text, model.logit(signals))
                        or (account and explain_accepts(question, model.logit(signals))))
            return accepted and not ranked.misdated(i) and not unmet

        body = ranked.body()
        since = since_lead(question, ranked)
        if since is not None:  # "… since what year has it done so?": the sentence saying since which year
            return self.compose(question, pool, [since, *(i for i in body if i != since)], ranked.scores[since], said)
        if body and found(body[0]):
            return self.compose(question, pool, body, ranked.scores[body[0]], said)
        other = fallback_lead(question, ranked, found, self.config.found, said)  # lead_fallback.py
        if other is not None:
            return self.compose(question, pool, [other, *(i for i in body if i != other)], ranked.scores[other], said)
        if body and explains(question) and found(body[0], account=True):
            # an account asked for: the best sentence a little below the found model's threshold (kind_named.py),
            # once no runner-up is accepted outright. (The better rated of the two best, tried first, answered a
            # near miss from the sentence after one refused for its mark: "Why does the church support
            # conscription?" of "… opposes conscription …" and "… also supports and extends its ministry …".)
            return self.compose(question, pool, body, ranked.scores[body[0]], said)
        best = order[0]
        if (body and best == body[0]) or not found(best):  # body[0] was judged just above
            return Answer(text="", used=[pool[best]], score=ranked.scores[best], found=False)
        return self.compose(question, pool, order, ranked.scores[best], said)

    @staticmethod
    def opening(ranked: Ranked | None) -> str | None:
        """The sentence an answer from this ranking opens with when it is found: the best body sentence, else the
        best of all."""
        if ranked is None:
            return None
        return ranked.pool[ranked.lead()].text

    def rank(self, question: str, evidence: list[Evidence]) -> Ranked | None:
        """The distinct sentences of the evidence scored for the question, best first (None without any)."""
        return self.ranker.run(question, evidence)

    def compose(self, question: str, pool: list[Evidence], order: list[int], score: float,
                 said: frozenset[str] = frozenset()) -> Answer:
        """Best sentence first; then the next best ones, whole, while they fit (a second sentence often holds
        the answer next to the matching one). A reader gets whole sentences, never a fragment that opens or ends
        mid-sentence: a next-best sentence too long for the room left is left out, and only a best sentence
        longer than `WHOLE_LIMIT` times the budget is cut around the question's words. A best sentence ending in
        a colon announces a list: the sentences that follow it in its source come next."""
        limit = self.config.max_words
        order = _aspects_first(question, pool, order)
        apart = _differences(question, pool, order)
        if apart:  # "How does X differ from Y?": what sets X apart, before what it shares with Y
            order = apart + [i for i in order if i not in apart]
            limit = DIFFERENCE_SHARE * limit
        if _bare_lead_in(pool[order[0]]) and not _fits(pool, order[0], _items(pool, order[0])[:1], limit):
            # a lead-in whose list is not among the evidence, or has no room, says nothing: the best sentence that
            # says something opens the answer (one ending "… of Einstein's theory of relativity, saying:" does)
            order = [*(i for i in order if not _bare_lead_in(pool[i])), order[0]]
        items_asked = asks_for_items(question) and not is_yes_no(question)
        if items_asked:  # "What are the main risks …?": a lead-in among the best, with its items
            lead = next((i for i in order[:LIST_LEAD_TOP] if announces_list(pool[i].text) and _items(pool, i)), None)
            if lead is not None and lead != order[0]:
                order = [lead, *(i for i in order if i != lead)]
        first = pool[order[0]]
        if asks_sequence(question):
            told = _in_order(pool, order, SEQUENCE_SHARE * limit)
            if told:
                return Answer(text=_joined(pool[i].text for i in told), used=[pool[i] for i in told], score=score)
        if len(first.text.split()) > WHOLE_LIMIT * limit:
            return Answer(text=window(first.text, question, limit), used=[first], score=score)
        used, parts = [first], [first.text]
        size = len(first.text.split())
        announced = _items(pool, order[0]) if announces_list(first.text) else []
        # a next-best sentence that announces a list ("X includes:") would end the answer on a colon: left out
        # nor does a bare name a page's footer left as a sentence ("Apple Inc.") add anything
        # a sentence its passage ties to the best one (the one it points back to, or one pointing back to it) is
        # read with it before the next best ones: "He died in 1227 after defeating the Western Xia." says what the
        # best sentence on Genghis Khan's death leaves for the next one to say
        before, after = _tied(pool, order[0])
        if is_yes_no(question):
            before = None  # a verdict is read from the sentence judged, which opens the answer
        extras = [i for i in dict.fromkeys([*(j for j in (before, after) if j is not None), *order[1:4]])
                  if i != order[0] and i not in announced and pool[i].text not in said
                  and not announces_list(pool[i].text) and len(pool[i].text.split()) >= MIN_EXTRA_WORDS]
        for i in announced + extras:
            extra = len(pool[i].text.split())
            if i not in announced and _repeats(pool[i].text, parts):
                continue  # a caption said again with a table's first words is no second sentence
            beside = i == before and _GOES_BESIDE.match(first.text) is not None
            scene = i == after and _SETS_SCENE.match(first.text) is not None  # what happens in it comes next
            room = WHOLE_LIMIT * limit if beside or scene or (i in announced and items_asked) else limit
            if size + extra > room:
                if i in announced:
                    break  # a list's items in order, or none past the room
                continue
            used.append(pool[i])
            parts.append(pool[i].text)
            size += extra
        if before is not None and pool[before] in used:  # what a sentence points back to is read before it
            used.remove(pool[before])
            used.insert(0, pool[before])
            parts = [ev.text for ev in used]
        for i in _other_side(question, pool, order, used, said, limit):
            used.append(pool[i])
            parts.append(pool[i].text)
        if not announced:
            used = _named_first(question, used)
            parts = [ev.text for ev in used]
        return _without_dangling(used, parts, score)


def _without_dangling(used: list[Evidence], parts: list[str], score: float) -> Answer:
    """The answer never ends on a lead-in whose items it does not show ("Operating expenses … were as follows
    (dollars in millions):", "… on Oracle's five D&I Imperatives:"): a bare one is left out when another sentence
    remains; one that says something itself ends as the statement it is, its colon a full stop."""
    if len(parts) > 1 and announces_list(parts[-1]) and _bare_lead_in(used[-1]):
        used, parts = used[:-1], parts[:-1]
    text = _joined(parts)
    if announces_list(parts[-1]):
        text = _ANNOUNCES.sub("", text).rstrip() + "."
    return Answer(text=text, used=used, score=score)


def _bare_lead_in(ev: Evidence) -> bool:
    """A lead-in that says nothing without what follows it: a short one ("The risks include:") or one that
    announces "as follows:" / "the following:"."""
    return ev.lead_in or (announces_list(ev.text) and _FOLLOWS.search(ev.text) is not None)


def _fits(pool: list[Evidence], index: int, more: list[int], limit: int) -> bool:
    """Do `pool[index]` and the sentences `more` fit in `limit` words, `more` being at least one?"""
    return bool(more) and sum(len(pool[i].text.split()) for i in [index, *more]) <= limit


def _tied(pool: list[Evidence], index: int) -> tuple[int | None, int | None]:
    """The sentences of `pool[index]`'s passage tied to it: the one just before it when it opens by pointing back
    ("This created new orders …", "Its architect was …"), and the one just after it when that one goes on telling
    of the same subject ("He died in 1227 …", not "His friends thought …"); None where there is no such sentence
    among the evidence."""
    ev = pool[index]
    if ev.position < 0:
        return None, None
    at = {e.position: j for j, e in enumerate(pool) if e.node_id == ev.node_id}
    before = at.get(ev.position - 1) if _POINTS_BACK.match(ev.text) or _GOES_BESIDE.match(ev.text) else None
    after = at.get(ev.position + 1)
    goes_on = after is not None and (GOES_ON.match(pool[after].text) or _SETS_SCENE.match(ev.text))
    return before, after if goes_on else None


def _joined(sentences: Iterable[str]) -> str:
    """The sentences as the answer's prose: a list item's bullet or number ("• Policy engine (PE): …", "5. The data
    plane …") marks its place in the document's list, not in the answer, where it read as a stray "- •". A
    sentence the document ends without a stop (a signature block's lines, a heading) gets one before the next, or
    the two read as one: "By: /s/ Timothy D. Cook Timothy D. Cook Chief Executive Officer Management, including …"."""
    texts = [unmarked(s).strip() for s in sentences]
    return " ".join(t if i == len(texts) - 1 or _GOES_INTO_NEXT.search(t) else f"{t}." for i, t in enumerate(texts))


# ended already, or a list item running into the next ("… operating systems; and", "… ID management,")
_GOES_INTO_NEXT = re.compile(r"(?:[.?!:;,…][\"'”’)\]]*|\b(?:and|or|nor|but|then))$", re.IGNORECASE)


def unmarked(sentence: str) -> str:
    """The sentence without the marker that made it a list item ("• ", "5. ", "(a) "), as the list reader knows
    them (`structure.lists.item_marker`)."""
    marker = item_marker(sentence)
    return sentence[marker.length:] if marker else sentence


def _repeats(text: str, parts: list[str]) -> bool:
    """Is the text said already, inside a sentence of the answer (a table's caption, once with the table's first
    words and once alone)? A text that says more than a part is not a repeat: it may hold what the part lacks."""
    plain = " ".join(unmarked(text).split()).lower()  # "5. The data plane …" says "The data plane …" again
    return any(plain in " ".join(p.split()).lower() for p in parts)


def _aspects_first(question: str, pool: list[Evidence], order: list[int]) -> list[int]:
    """A question for what is for and against a thing ("What does the portal model gain and lose …?") is answered
    by the best sentences that say a gain or a loss ("The primary benefit …", "… more flexible for BYOD …",
    "However, limited information …"), before those that only name the thing ("This model is a variation of
    …"): among the best `ASPECT_POOL` of the ranking, those come first, each kind in rank order."""
    aspects = asked_aspects(question)
    if aspects is None:
        return order
    told = [i for i in order[:ASPECT_POOL] if not pool[i].row and aspects.said(pool[i].text)]
    return told + [i for i in order if i not in told]


def _differences(question: str, pool: list[Evidence], order: list[int]) -> list[int]:
    """For "How does X differ from Y?", the sentences on X that set it apart (a contrast, a limit, a downside:
    `sides.states_difference`), in rank order: among the best `ASPECT_POOL` of the ranking, and any read in X's own
    sub-section (a downside repeats few of the question's words). Empty for any other question."""
    sides = asked_difference(question)
    if sides is None:
        return []
    best = set(order[:ASPECT_POOL])
    return [i for i in order if not pool[i].row and states_difference(pool[i].text)
            and (i in best or 0 in sides.said("", _titled(pool[i])))
            and 0 in sides.said(pool[i].text, _titled(pool[i]))]


def _other_side(question: str, pool: list[Evidence], order: list[int], used: list[Evidence],
                said: frozenset[str], limit: int) -> list[int]:
    """A comparison's answer says both sides (`sides.py`: the two things compared, and what is for and what is
    against the thing asked about when it asks both): when the sentences chosen describe one side only, the other
    gets as much room, past the word budget if need be."""
    out: list[int] = []
    for sides in compared_sides(question):
        out += _missing_side(sides, pool, order, used + [pool[i] for i in out], said, limit)
    return out


def _missing_side(sides: Sides, pool: list[Evidence], order: list[int], used: list[Evidence],
                  said: frozenset[str], limit: int) -> list[int]:
    """The side the sentences chosen leave out: the best sentence describing it (prose, at most `limit` words), then the
    sentences that carry on from it in its passage while they say nothing of the first side ("A score-based TA
    computes a confidence level … If the score is greater than the configured threshold …"). One from the
    passage the answer opens with comes first: a document sets two things side by side in one place."""
    told = set().union(*(sides.said(ev.text, _titled(ev)) for ev in used))
    if len(told) != 1:
        return []  # both sides told, or neither: the sentences chosen answer in other words
    first = told.pop()
    taken = {ev.text for ev in used} | said
    # a lead-in ("An operative definition of zero trust and zero trust architecture is as follows:") names the
    # side but says nothing of it: what it announces does
    other = [i for i in order if pool[i].text not in taken and len(pool[i].text.split()) <= limit
             and not pool[i].row and not announces_list(pool[i].text)
             and 1 - first in sides.said(pool[i].text, _titled(pool[i]))]
    if not other:
        return []
    pick = min(other, key=lambda i: pool[i].node_id != used[0].node_id)  # stable: the best of the first passage
    room = sum(len(ev.text.split()) for ev in used) - len(pool[pick].text.split())
    out = [pick]
    for j in _following(pool, pick):
        size = len(pool[j].text.split())
        if size > room or pool[j].text in taken or first in sides.said(pool[j].text) or announces_list(pool[j].text):
            break
        out.append(j)
        room -= size
    return out


def _named_first(question: str, used: list[Evidence]) -> list[Evidence]:
    """A "who" answer opens with a sentence that names someone: when the best one speaks of its subject as "we",
    "he" or "they" ("We have served as Apple Inc.'s auditor since 2009.") and a sentence shown after it names
    someone the question does not ("The Company's independent registered public accounting firm, Ernst & Young
    LLP, …"), that one comes first."""
    if expected_type(question) != WHO or not _PRONOUN_SUBJECT.match(used[0].text):
        return used
    asked = set(stems(question))
    k = next((k for k, ev in enumerate(used) if has_type(ev.text, WHO, asked)), 0)
    return [used[k], *used[:k], *used[k + 1:]] if k else used


def _titled(ev: Evidence) -> str:
    """The sub-section a sentence was read in (a top section names the whole document's subject)."""
    return ev.section[-1] if len(ev.section) >= 2 else ""


def announces_list(sentence: str) -> bool:
    """Does the sentence open a list its next sentences hold ("... the following tenets:")?"""
    return _ANNOUNCES.search(sentence) is not None


def _in_order(pool: list[Evidence], order: list[int], limit: float) -> list[int]:
    """A course of events from the best sentence's passage in the document's order: from the earliest of its best
    sentences (the best few of the ranking in that passage) on, while `limit` words allow; [] when that leaves the
    best sentence out."""
    lead = order[0]
    start = min(i for i in order[:SEQUENCE_BEST] if pool[i].node_id == pool[lead].node_id)
    told, size = [], 0
    for i in [start, *_following(pool, start, limit=len(pool))]:
        size += len(pool[i].text.split())
        if size > limit:
            break
        told.append(i)
    return told if lead in told else []


def _items(pool: list[Evidence], index: int) -> list[int]:
    """The items of the list `pool[index]` announces: the sentences right after it up to the next lead-in ("Third
    Quarter 2022: • … • … Fourth Quarter 2022:" ends before the fourth quarter's lead-in). Only those next to it
    in its passage: when what it introduces is not among the evidence ("Operating expenses … were as follows
    (dollars in millions):" without its table's rows), the sentence after the table is no item of it, and the
    lead-in has none to show."""
    following = _following(pool, index)
    end = next((k for k, j in enumerate(following) if announces_list(pool[j].text)), len(following))
    if pool[index].position >= 0:
        end = next((k for k, j in enumerate(following[:end]) if pool[j].position != pool[index].position + k + 1),
                   end)
    return following[:end]


def _following(pool: list[Evidence], index: int, limit: int = 6) -> list[int]:
    """The sentences after `pool[index]` from the same node, in source order (the pool keeps that order)."""
    out: list[int] = []
    for j in range(index + 1, min(len(pool), index + 1 + limit)):
        if pool[j].node_id != pool[index].node_id:
            break
        out.append(j)
    return out
