"""Whether a question asks for several items of one kind: a list, steps, kinds, components, "how many".

Such a question is answered by a section or a list as a whole, not by the two sentences that share its words,
so retrieval brings the section that holds the list forward and the memory block shows its items first.
"""

from __future__ import annotations

import re

from .tokens import STOPWORDS

_ITEM_NOUNS = (
    r"steps?|stages?|phases?|kinds?|types?|categories|components?|elements?|parts?|pieces|threats?|risks?|"
    r"tenets?|principles?|models?|variations?|approaches|scenarios|use cases?|cases|factors|requirements?|"
    r"features?|functions?|roles?|actions?|measures?|options?|ways?|methods?|strategies|recommendations?|"
    r"goals?|objectives?|benefits?|advantages?|disadvantages?|challenges?|gaps?|areas?|items?|examples?|"
    r"segments?|products?|services?|assumptions?|questions?|attributes?|sources?|uses|deployments?|"
    r"variants?|properties|tasks?|activities|responsibilities|capabilities|limitations?|concerns?|issues?|"
    r"polic(?:y|ies)|compan(?:y|ies)|competitors?|imperatives?|applications?|offerings?|programs?|initiatives?|"
    r"priorities|controls?|standards?|markets?|regions?|countries|subsidiaries|suppliers?|partners?|platforms?|"
    r"technologies|tools?|devices?|brands?|businesses|divisions?|obligations?|criteria|conditions?|reasons?|"
    r"drivers?|trends?|practices?|guidelines?|rules?|milestones?|metrics?|indicators?|layers?|levels?|tiers?|"
    r"inputs?|outputs?|characteristics|causes|effects|consequences|lessons|stakeholders|participants|actors|"
    r"mechanisms?|techniques?|considerations?|strengths|weaknesses|opportunities|dependencies|prerequisites|"
    r"dangers?|hazards?|drawbacks?|downsides?|pitfalls?|shortcomings?|vulnerabilities|(?:sub-?)?sections|chapters|"
    r"appendices|topics"
)
# "how many tenets / deployment models" counts a list; "how many employees / shares" asks for a quantity
_HOW_MANY = re.compile(rf"\bhow many\s+(?:\S+\s+){{0,2}}?(?:{_ITEM_NOUNS})\b", re.IGNORECASE)
_QUANTITY = re.compile(r"\W*how\s+(?:much|many)\b", re.IGNORECASE)  # an amount; a count of items is _HOW_MANY
# "How does Oracle recognize revenues from its hardware products?": a manner asked; the plural is what it acts on
_MANNER = re.compile(r"\W*how\s+(?:do|does|did|is|are|was|were|should|can|could|would|will|might|must)\b",
                     re.IGNORECASE)
_LIST_VERB = re.compile(r"\b(?:list|enumerate|name all|outline|summari[sz]e the)\b", re.IGNORECASE)
_ITEMS = re.compile(rf"\b(?:what|which)\b(?:\s+\S+){{0,5}}?\s+(?P<noun>{_ITEM_NOUNS})\b", re.IGNORECASE)
_NOUN_FIRST = re.compile(rf"\b(?:the|its|their|\w+['’]s)\s+(?:\S+\s+){{0,3}}(?P<noun>{_ITEM_NOUNS})\b.*\?",
                         re.IGNORECASE)


# "the company's main businesses": a possessive names whose items they are, not the kind of item
_NOUN = re.compile(rf"\b({_ITEM_NOUNS})\b(?!['’](?:s\b|\s))", re.IGNORECASE)
# an item of a list by its place: the words and the positions they name ("last" counts from the end)
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
            "ninth": 9, "tenth": 10, "last": -1}
# "the eighth tenet", "the last step": one item of a list, found in the list (which tells too when there is none)
_ORDINAL_ITEM = re.compile(rf"\bthe\s+(?:{'|'.join(ORDINALS)})\s+(?:\S+\s+){{0,2}}?(?P<noun>{_ITEM_NOUNS})\b",
                           re.IGNORECASE)
# "How should an enterprise begin migrating to ZTA?" asks for the steps of a change, though it names no steps
_BEGIN_CHANGE = re.compile(r"^\W*how\s+(?:do|does|should|can|could|would|might|to|is|are)\b.{0,80}?\b(?:begin|start|"
                           r"get started|migrat\w*|transition\w*|mov(?:e|ing)\s+to|introduc\w*|adopt\w*|"
                           r"roll(?:ing)?\s+out)\b"
                           # "What should an enterprise do before deploying ZTA?": the steps that come first
                           r"|^\W*what\s+(?:should|must|would|does|do|can)\b.{0,60}?\bdo\s+(?:first|before|"
                           r"to\s+(?:begin|start|prepare|get\s+ready))\b", re.IGNORECASE)
# "How should an agency decide which business process to move to ZTA first?" asks how one choice is made, not the
# steps of the change it names: a verb of choosing before the change asks for the grounds of the choice
_CHOOSING = re.compile(r"\b(?:decide|decides|deciding|choose|chooses|choosing|select|selects|selecting|determine|"
                       r"determines|determining|pick|picks|picking|prioriti[sz]e|prioriti[sz]ing)\s+"
                       r"(?:which|what|whether|where|when)\b", re.IGNORECASE)
# "What is a PDP made of?", "What does the PDP consist of?": its components, though no components are named
# "What does an enterprise's network have to provide before it can support a ZTA?": an obligation asked, whose
# items a document lists as its "requirements" (the question names no kind of item)
_OBLIGED = re.compile(r"^\W*what\s+(?:(?:does|do|would|should)\b.{1,80}?\b(?:have\s+to|has\s+to|needs?\s+to|"
                      r"required\s+to)|must\b.{1,80}?)\s+(?:provide|have|meet|satisfy|offer|support|ensure|"
                      r"be\s+able\s+to)\b", re.IGNORECASE)
_MADE_OF = re.compile(r"^\W*what\s+(?:is|are|does|do)\b.{1,60}?\b(?:made\s+(?:up\s+)?of|composed\s+of|comprised\s+of|"
                      r"consists?\s+of|broken\s+(?:down\s+)?into|divided\s+into)", re.IGNORECASE)
# "What should enterprise architects ask of a vendor's solution?": what is asked is questions (a list of them)
_ASK_OF = re.compile(r"^\W*what\s+(?:should|would|could|might|must|can)\b.{1,60}?\bask\b(?!\s+for\b)",
                     re.IGNORECASE)
# "Besides the core components, which data sources …?": what the question sets aside is not what it asks for
# the clause runs to the comma before the question word, over a list of its own ("Besides the policy engine,
# administrator and enforcement point, how many …?"), else to its first comma, else to the question's end ("How many
# data sources are there besides the policy engine?"); bounded pieces, one pass over any text
_SET_ASIDE = re.compile(r"\b(?:besides|apart from|other than|aside from|in addition to|except(?: for)?|excluding|"
                        r"beyond)\b(?:[^?]{1,120}?,\s*(?=(?:what|which|how|who)\b)|[^,?]{1,80}(?:,|"
                        r"(?=\s+(?:what|which|how|who)\b))|[^,?]{1,120}(?=\?\s*$))", re.IGNORECASE)


# "Which deployment scenarios or use cases …?": two words for one kind of item, not a choice between things named
_NOT_A_VERB = r"(?!(?:is|are|was|were|has|have|had|do|does|did)\b)"
_KINDS_JOINED = re.compile(rf"\b(?:what|which)\s+(?:{_NOT_A_VERB}[\w-]+\s+){{0,2}}?"
                           rf"(?:{_ITEM_NOUNS})\s+(?:and/)?or\s+[\w\s-]{{0,30}}?\b(?:{_ITEM_NOUNS})\b", re.IGNORECASE)


def kinds_joined(question: str) -> bool:
    """Does the question name the kind of item it asks for in two words joined by "or" ("scenarios or use
    cases", "products or services")? Such an "or" offers no choice between two things."""
    return any(_plural(m.group(0).split()[-1]) for m in _KINDS_JOINED.finditer(question))


def ordinal_word(position: int) -> str:
    """The word for an item's place: 8 -> "eighth", -1 -> "last"."""
    return next((word for word, n in ORDINALS.items() if n == position), f"{position}th")


def asked_part(question: str) -> str:
    """The question without the clause that sets something aside ("Besides the core components, …"), the part
    that says what is asked for."""
    return " ".join(_SET_ASIDE.sub(" ", " ".join(question.split())).split())


def asks_for_items(question: str) -> bool:
    """'How many tenets', 'list ...', 'what/which ... components', 'the threats ...?': the kind of item named in
    the plural ('what is the policy engine?' names one thing), or one item by its place ('the eighth tenet')."""
    q = asked_part(question)
    if (_HOW_MANY.search(q) or _LIST_VERB.search(q) or _ORDINAL_ITEM.search(q) or begins_change(q)
            or _MADE_OF.match(q) or _OBLIGED.match(q) or _ASK_OF.match(q)):
        return True
    if _QUANTITY.match(q) or _MANNER.match(q):
        return False  # "How much cash did its operating activities provide?" asks an amount, not the activities
    return any(_plural(_head(q, m.start("noun"))) and not _modifier(q, m.start("noun"))
               for pattern in (_ITEMS, _NOUN_FIRST) for m in pattern.finditer(q))


def begins_change(question: str) -> bool:
    """Does the question ask how a change is begun or made ("How should an enterprise begin migrating to ZTA?"),
    which the steps of that change answer? Not when it asks how to choose what to change first ("How should an
    agency decide which business process to move to ZTA first?"): the grounds of one choice are no steps."""
    match = _BEGIN_CHANGE.match(question)
    return match is not None and _CHOOSING.search(question, 0, match.end()) is None


_NEXT_WORD = re.compile(r"\s+([a-z]+)\b")


def _modifier(q: str, start: int) -> bool:
    """Is the item noun at `start` (the last of a run) a modifier of the plural noun after it: "its cloud services
    contracts" asks about contracts, not services. A verb after a plural subject takes no "-s" ("Which use cases
    lend themselves …?"), and a function word ("does", "is") or a name ("NIST") is no noun."""
    head = _NOUN.match(q, start)
    while head is not None and (following := _NOUN.match(q, head.end() + 1)) is not None:
        head = following
    after = _NEXT_WORD.match(q, head.end()) if head is not None else None
    word = after.group(1) if after else ""
    return word.endswith("s") and not word.endswith("ss") and word not in STOPWORDS


def _plural(noun: str) -> bool:
    words = noun.lower().split()
    if not words:
        return False  # no item noun there ("company's": a possessive)
    word = words[-1]
    return word.endswith("s") or word in {"criteria"}


# "What are the two planes of a ZTA?": a count before the noun makes it a kind of item, whatever the noun
COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_COUNTED_KIND = re.compile(rf"^\W*(?:what|which)\s+(?:are|were)\s+(?:the|its|their|[\w.&-]+['’]s?)\s+"
                           rf"(?P<count>{'|'.join(COUNT_WORDS)}|[2-9])\s+(?P<noun>(?:[\w-]+\s+){{0,2}}?[a-z][\w-]*[a-rt-z]s)"
                           r"(?=\s+(?:of|in|for|that|which|and|on|at|used|does|do|did|are|is)\b|\s*[?,;]|\s*$)",
                           re.IGNORECASE)


def counted_kind(question: str) -> tuple[int, str] | None:
    """How many items of which kind a question says there are ("What are the two planes of a ZTA?" -> (2,
    "planes")): the last word before the question goes on is the noun. None when it states no count."""
    match = _COUNTED_KIND.search(asked_part(question))
    if match is None:
        return None
    count = match.group("count").lower()
    return COUNT_WORDS.get(count) or int(count), match.group("noun").split()[-1].lower()


# "How many building blocks …?", "How many separate systems feed …?": a count of a noun the item nouns do not know,
# its last plural word before the question goes on. Such a count is a list's only where the document lists items of
# that kind (the block's section choice checks); else it asks a quantity ("How many employees …?")
# (an auxiliary ends the noun: "How many people does Oracle name …?" counts no "does")
_AUX = r"(?:is|was|has|does|do|did|are|were|have|had|can|could|will|would|should|may|might|must)\b"
_OPEN_COUNT = re.compile(rf"\bhow\s+many\s+(?P<noun>(?:(?!{_AUX})[a-z][\w-]*\s+){{0,3}}?(?!{_AUX})[a-z][\w-]*[a-rt-z]s)"
                         r"\b(?!['’])", re.IGNORECASE)


def open_count(question: str) -> str | None:
    """The noun a "how many" question counts when it is no item noun ("How many building blocks …?" ->
    "blocks"), else None; "How many sorts of users …?" counts the users."""
    match = _OPEN_COUNT.search(asked_part(question))
    if match is None or asks_for_items(question):
        return None
    words = match.group("noun").lower().split()
    of = _OPEN_OF.match(asked_part(question), match.end()) if words[-1] in _VAGUE_OPEN else None
    return of.group("noun").lower() if of else words[-1]


def listed_noun(question: str) -> str | None:
    """The kind of item a list answering the question is of: its item noun, else the noun a "how many" counts
    (`open_count`), which only a list of that kind answers (the sentence answerers keep to `item_noun`: "How
    many qualified doctors …?" asks no sentence naming "the first two Doctors")."""
    return item_noun(question) or open_count(question)


# "Which industries does Oracle build applications for?": the head plural of a which/what question the item nouns
# do not know (up to two words before it, no verb between); not the plural of "What kind of chloroplasts …?" or
# "What type of beings …?", which ask for one kind, not several items
_OPEN_KIND = re.compile(r"^\W*(?:(?:if|when|once|after|under|during|given)\b[^,?]{1,150},\s*)?(?:which|what)\s+"
                        r"(?:(?!(?:is|are|was|were|do|does|did|has|have|had|of)\b)[a-z][\w-]*\s+)"
                        r"{0,2}?(?P<noun>[a-z][\w-]*[a-rt-z]s)\b(?!['’])"
                        # a noun, not a verb ("What gives rise to …?"): the question goes on with its verb, or
                        # with a second noun ("If a defect turns up, what costs and damage … could it face?")
                        r"(?=\s*[,?]|\s+(?:do|does|did|are|is|was|were|have|has|had|can|could|would|should|might|"
                        r"may|will|must)\b|\s+(?:and|or)\s+[a-z][\w-]*\s+(?:to\s+[\w\s]{1,40}?\s+)?(?:do|does|did|"
                        r"are|is|was|were|can|could|would|should|might|may|will|must)\b)", re.IGNORECASE)


def open_kind(question: str) -> str | None:
    """The plural a which/what question asks for when it is no item noun ("Which industries …?" -> "industries"):
    a sentence naming several such items answers it, though no list of that kind is known. None for a question
    whose head the item nouns already read, or one asking a time or measure ("What years …?")."""
    if item_noun(question) and kind_is_head(question):
        return None  # "Which industry-specific applications …?": a kind the item nouns read
    match = _OPEN_KIND.match(asked_part(question))
    noun = match.group("noun").lower() if match else ""
    return noun if noun and noun not in STOPWORDS and noun not in _MEASURES else None


_MEASURES = frozenset({"years", "months", "days", "dates", "times", "hours", "percents", "amounts", "numbers"})
_VAGUE_OPEN = frozenset({"sorts", "varieties", "flavors", "flavours"})
_OPEN_OF = re.compile(r"\s+of\s+(?:[\w-]+\s+){0,2}?(?P<noun>[a-z][\w-]*[a-rt-z]s)\b", re.IGNORECASE)


def item_noun(question: str) -> str | None:
    """The kind of item a list question asks for ("tenets", "models", "steps"), when it names one: the section
    titled by that kind, or whose items are of that kind, is the one that holds the list."""
    if not asks_for_items(question):
        counted = counted_kind(question)  # "the two planes": a kind of item the noun list does not know
        return counted[1] if counted else None
    words = asked_part(question)
    if _MADE_OF.match(words):  # "What is a policy enforcement point made of?": its "policy" is no kind of item
        return "components"
    pointed = _ORDINAL_ITEM.search(words)
    asking = _ASKING.search(words)  # "Under the DHS CDM program, how many basic questions …": not "program"
    match = _NOUN.search(words, pointed.start("noun") if pointed else asking.start() if asking else 0)
    if match is None and begins_change(words):
        return "steps"
    if match is None and _OBLIGED.match(words):
        return "requirements"
    if match is None and _ASK_OF.match(words):
        return "questions"
    if match is None:
        return None
    head = _head(words, match.start())
    of = _KIND_OF.match(words, match.end())  # "what kinds of devices": devices are what is asked for
    named = _head(words, of.start("noun")) if head in _VAGUE and of is not None else ""
    return named if _plural(named) else head  # "categories of input" stay categories: "5 input" reads wrong


_ASKING = re.compile(r"\b(?:how\s+many|what|which|list|name)\b", re.IGNORECASE)  # where the asking begins
_VAGUE = frozenset({"kinds", "kind", "types", "type", "categories", "ways", "items", "examples", "forms"})
_KIND_OF = re.compile(rf"\s+of\s+(?:[\w-]+\s+){{0,2}}?(?P<noun>{_ITEM_NOUNS})\b", re.IGNORECASE)


# the kind asked for as the question's head: "which shared components …", "what are the common elements …", not
# "What runs from the riverside to higher parts of …" (a preposition before it: the head was passed)
_HEAD_KIND = re.compile(rf"\b(?:what|which)\s+(?:(?!(?:from|to|in|into|of|at|on|by|for|with|about)\b)[\w'’-]+\s+)"
                        rf"{{0,3}}?(?:{_ITEM_NOUNS})\b", re.IGNORECASE)


def kind_is_head(question: str) -> bool:
    """Is the kind of item asked for the question's head noun, not a word of what it says about something else?"""
    return _HEAD_KIND.search(asked_part(question)) is not None


def _head(words: str, start: int) -> str:
    """The item noun at `start`, or the last of a run of them ("deployment models" -> "models")."""
    match = _NOUN.match(words, start)
    while match is not None:
        following = _NOUN.match(words, match.end() + 1)
        if following is None or words[match.end():match.end() + 1] != " ":
            break
        match = following
    return match.group(1).lower() if match else ""


# "What happens from the moment a subject requests a resource until the connection ends?", "How would it go about
# it?": a course of events or of steps, told in the document's order, not its best sentences by score
_SEQUENCE = re.compile(r"\bwhat happens\b|\b(?:walk|take)\s+(?:me\s+|us\s+)?through\b|\bsequence of\b|"
                       r"\bstep[- ]by[- ]step\b|\bfrom the (?:moment|time)\b|\bin what order\b|"
                       r"\bwhat (?:is|are) the (?:process|flow|workflow)\b|\bgo(?:es)?\s+about\b", re.IGNORECASE)


def asks_sequence(question: str) -> bool:
    return _SEQUENCE.search(question) is not None


# "How should an agency decide which business process to move first?", "What must an enterprise do before …?":
# advice, which a document gives as a course of sentences ("… start with a low-risk business process … Once enough
# experience is gained, more critical business processes can become candidates.")
_ADVICE = re.compile(r"^(?:[^?,]{0,120},\s*)?how\s+(?:should|must|ought)\b|"
                     r"^\W*what\s+(?:should|must)\b[^?]{0,80}?\bdo\b", re.IGNORECASE)


def asks_advice(question: str) -> bool:
    return _ADVICE.search(question) is not None


# "How does an app in the sandbox reach a resource?", "What happens to a session when …?", "Why did margins fall?":
# an account asked for, in the document's words, not a name or number a near miss would put in another's place
_EXPLAINS = re.compile(r"^(?:[^?]{0,120}?[,:;]\s*)?(?:how\s+(?!many\b|much\b|long\b|old\b|far\b|often\b|big\b|large\b)"
                       r"\w+|why\b)|\bwhat\b[^?]{0,60}?\b(?:has|have|needs?|must|should)\s+(?:to\s+)?be\s+done\b",
                       re.IGNORECASE)


def explains(question: str) -> bool:
    """Does the question ask how, why or what happens (not how many, how much or how long)?"""
    return asks_sequence(question) or asks_advice(question) or _EXPLAINS.search(question.strip()) is not None
