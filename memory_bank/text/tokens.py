"""Words and token counts: the vocabulary of BM25 and keyword matching, and the one token estimate.

Token counts are estimates (no tokenizer download: `tiktoken` fetches its tables from the network). One token is
taken as ~4 characters of English, which errs on the large side for prose, so text sized by these estimates
stays inside the window. Every conversion between characters and tokens goes through this module.
"""

from __future__ import annotations

import re

CHARS_PER_TOKEN = 4

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-']*[A-Za-z0-9]|[A-Za-z0-9]")
_PLURAL_ACRONYM = re.compile(r"[A-Z][A-Z0-9&]{1,8}s")

STOPWORDS = frozenset("""
a an and are as at be been being but by can could did do does doing for from had has have having he her here
hers him his how i if in into is it its itself just me more most my no nor not of off on once only or other
our ours out over own same she should so some such than that the their theirs them then there these they this
those through to too under until up very was we were what when where which while who whom why will with would
you your yours also may might must shall about above after again against all any because before below between
both during each few further s t don now ve ll re d m o y use used using within without via per e g i e
isn't aren't wasn't weren't doesn't don't didn't hasn't haven't hadn't can't cannot won't wouldn't shouldn't
couldn't mustn't isn aren wasn weren doesn didn hasn haven hadn wouldn shouldn couldn mustn
""".split())  # a negated auxiliary ("Isn't …?", "isn’t" split at its curly mark) names nothing, as "is" does


_DASHES = re.compile(r"[‐‑‒–—]")


def hyphenated(text: str) -> str:
    """Lower case, every dash a hyphen: "2000–01" is "2000-01", "15–1" is "15-1" when words are compared."""
    return _DASHES.sub("-", text.lower())


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens without stopwords: the vocabulary of BM25 and keyword matching. An acronym's
    plural is its singular ("NPEs", "PEPs", "CODMs"): too short for `stem`, and only its capitals tell it apart
    from a word ending in "s"."""
    return [w for w in map(singular_acronym, _WORD.findall(text)) if w not in STOPWORDS]


def singular_acronym(word: str) -> str:
    """"NPEs" -> "npe"; any other word lower-cased."""
    # every word of every passage indexed comes here: the regex only for a capitalised word ending in "s"
    plural = word[-1:] == "s" and word[:1].isupper() and _PLURAL_ACRONYM.fullmatch(word) is not None
    return word[:-1].lower() if plural else word.lower()


# the past forms of common verbs that no suffix stripping meets: "Does Apple pay a dividend?" is answered by
# "… paid dividends …", which "The Company offers payment services, including … Apple Pay" outranked on "pay";
# forms that are also other words ("found", "left", "saw", "lead", "won", "met", "lent", "bore"; "born" would
# meet the Chicago Bears) are left out
_IRREGULAR = {
    "paid": "pay", "sold": "sell", "bought": "buy", "grew": "grow", "grown": "grow", "fell": "fall",
    "fallen": "fall", "rose": "rise", "risen": "rise", "held": "hold", "built": "build", "spent": "spend",
    "began": "begin", "begun": "begin", "took": "take", "taken": "take", "gave": "give", "given": "give",
    "brought": "bring", "taught": "teach", "caught": "catch", "sought": "seek", "thought": "think",
    "wrote": "write", "written": "write", "drove": "drive", "driven": "drive", "chose": "choose",
    "chosen": "choose", "became": "become", "knew": "know", "known": "know", "threw": "throw", "thrown": "throw",
    "spoke": "speak", "spoken": "speak", "stole": "steal", "stolen": "steal", "sent": "send", "fought": "fight",
    "forgave": "forgive", "forbade": "forbid", "sang": "sing", "sung": "sing", "swam": "swim",
    "withdrew": "withdraw", "withdrawn": "withdraw", "undertook": "undertake", "overtook": "overtake",
    "shot": "shoot", "struck": "strike", "slew": "slay", "slain": "slay", "dug": "dig", "fled": "flee",
    "froze": "freeze", "frozen": "freeze", "hid": "hide", "hidden": "hide", "rode": "ride", "ridden": "ride",
    "wore": "wear", "worn": "wear", "tore": "tear", "torn": "tear", "swore": "swear", "sworn": "swear",
    "arose": "arise", "arisen": "arise", "awoke": "awake", "forgot": "forget", "forgotten": "forget",
    "understood": "understand", "stood": "stand", "told": "tell", "oversaw": "oversee", "overseen": "oversee",
    "saw": "see", "seen": "see", "led": "lead", "made": "make", "kept": "keep", "meant": "mean",
    "dealt": "deal", "ran": "run", "lost": "lose", "met": "meet", "broke": "break", "broken": "break",
}


def stem(word: str) -> str:
    """Crude suffix stripping so that "founded" meets "found" and "elections" meets "election" in word
    matching. A final "e" goes too, so that the singular meets the plural it loses with "-es" ("revenue" and
    "revenues", "service" and "services", "increase" and "increased" are one stem; before, "What was total
    revenue?" named no "Total revenues" row). A common verb's irregular past meets its present (`_IRREGULAR`)."""
    base = _IRREGULAR.get(word)
    if base is not None:
        word = base
    for suffix in ("ies", "ing", "ed", "es", "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word[:-1] if word.endswith("e") and len(word) >= 5 else word


def bare_stem(stemmed: str) -> str:
    """A stem without its possessive ("apple'" of "Apple's" is "appl", the stem of "Apple"): the question's
    "Apple's" meets the documents' "Apple". Only a stem that had a possessive is stemmed again: stemming a stem
    twice would take "cross" of "crossing" to "cros"."""
    bare = stemmed.removesuffix("'s").rstrip("'")
    return stem(bare) if bare != stemmed else stemmed


def stems(text: str) -> list[str]:
    return [stem(w) for w in tokenize(text)]


def bare_stems(text: str) -> set[str]:
    """The text's stems without possessives: a question's "Apple's" and a sentence's "Apple" are one word."""
    return {bare_stem(s) for s in stems(text)}


def words(text: str) -> list[str]:
    return text.split()


def tokens_for_chars(chars: int) -> int:
    """Tokens that `chars` characters take, rounded up: a budget check must not let a partial token through."""
    return (chars + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def estimate_tokens(text: str) -> int:
    return tokens_for_chars(len(text))


def chars_for_tokens(tokens: int) -> int:
    """How much text fits in `tokens`: the inverse of `tokens_for_chars`, for cutting text to a token budget."""
    return tokens * CHARS_PER_TOKEN
