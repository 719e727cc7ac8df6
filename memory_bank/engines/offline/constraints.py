"""What the question says about the asked slot that the answering sentence does not: a near miss.

A SQuAD 2.0 style near miss repeats its passage's words ("On what date did WXYZ-TV in Chicago sign on the air?"
beside "WENR-TV in Chicago signed on the air on September 17, while WXYZ-TV in Detroit went on the air on
October 9, 1948"), so cosine, phrase overlap and alignment all rate the passage as answering it. What gives it
away is one constraint of the question the sentence does not meet: a name, number or year it never says near
there ("Who mutated the Thals of the planet Skaro?" read against "The Daleks are Kaleds from the planet Skaro,
mutated by the scientist Davros"), a word it says the other way round ("In what year did RCA decide to buy NBC
Blue?" / "RCA decided to sell NBC Blue in 1941"; "photosynthetic" / "nonphotosynthetic"), or a word of a closed set
it answers with another member ("breakfast" / "dinner"). Each check reads the sentence with its neighbours in the
document (a sentence's subject is often named in the one before), and a name its section is titled by is the
topic, not a constraint (a passage on Luther calls him "he"). Measured on bench/squad_near_miss.py (fit and
check halves, bench/OFFLINE_RESULTS.md).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from ...text.counts import (
    MARK,
    count_marks,
    counted_marks,
    counted_phrase,
    counted_word,
    counts_head,
    says_count,
    vague_question,
)
from ...text.periods import asks_dated_event, says_time
from ...text.spelling import misspelt, words
from ...text.statement_terms import everyday_words, owned_words
from ...text.tokens import STOPWORDS, hyphenated, singular_acronym, stem
from .share_of import share_of_other
from .specifics import specific_terms

_YEAR = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})s?$")
_ANY_YEAR = re.compile(r"(?<![\d,.])(?:1[0-9]{3}|20[0-9]{2})(?!\d|,\d)")  # "In 2012, the nation": a year before a comma
# the last word of a name that only says its kind ("Cambridge University"): the name is met by its first word
_GENERIC = frozenset({"university", "college", "school", "church", "street", "road", "avenue", "center", "centre",
                      "museum", "river", "lake", "mount", "company", "department", "institute", "bay", "area",
                      "region", "island", "city", "county", "state", "gallery", "room", "park", "hall", "house"})
_DECADE = re.compile(r"^\d0s$")  # "the 70s": a decade a sentence writes many ways
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")
_CAPS_RUN = re.compile(r"[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)+")
# a word the question asks by, and the words a sentence says the other way round with (each side stemmed)
_OPPOSITES = (("buy", "sell"), ("bought", "sold"), ("purchas", "sold"), ("inner", "outer"),
              ("interior", "exterior"), ("younger", "older"), ("youngest", "oldest"), ("highest", "lowest"),
              ("least", "most"), ("fail", "pass"), ("failed", "passed"), ("warmer", "cooler"),
              ("hotter", "colder"), ("earliest", "latest"), ("minimum", "maximum"), ("import", "export"),
              ("win", "lose"), ("won", "lost"), ("accept", "reject"), ("support", "oppos"), ("increas", "decreas"),
              ("warm", "cool"), ("hot", "cold"))
_PAIRS = _OPPOSITES + tuple((b, a) for a, b in _OPPOSITES)
# the same, as every form of each side (a stem would join "lost" to "lose" but not to "win"; "positively" to
# nothing): SQuAD 2.0's commonest unanswerable kinds after an entity swap are an antonym ("What color did the
# Broncos wear when they lost Super Bowl XXXII?" of "their only other Super Bowl win") and a compass point turned
# ("the northeast corner" of "the northwest corner", "Eastern Xia" of "Western Xia")
_FAMILIES = (
    ({"buy", "buys", "buying", "bought"}, {"sell", "sells", "selling", "sold"}),
    ({"win", "wins", "winning", "won", "beat", "beats"}, {"lose", "loses", "losing", "lost", "beaten"}),
    ({"join", "joins", "joined", "joining"}, {"left", "leave", "leaves", "leaving", "separated", "quit", "quits"}),
    ({"accept", "accepts", "accepted", "accepting"}, {"dismiss", "dismisses", "dismissed", "dismissing"}),
    ({"peak", "peaks", "peaked"}, {"lowest", "trough"}),
    ({"inside"}, {"outside"}), ({"born", "birth"}, {"died", "death"}),
    ({"add", "adds", "added", "adding"}, {"cancel", "cancels", "cancelled", "canceled", "cancelling", "canceling"}),
    ({"positive", "positively"}, {"negative", "negatively"}),
    ({"internal", "internally"}, {"external", "externally"}),
    ({"larger", "bigger"}, {"smaller"}), ({"largest", "biggest"}, {"smallest"}),
    ({"higher"}, {"lower"}), ({"upper"}, {"lower"}), ({"majority"}, {"minority"}),
    ({"private", "privately"}, {"public", "publicly"}), ({"male", "males"}, {"female", "females"}),
    ({"stronger"}, {"weaker"}), ({"strongest"}, {"weakest"}), ({"richest", "wealthiest"}, {"poorest"}),
    ({"wettest"}, {"driest"}), ({"ancient"}, {"modern"}),
    ({"temporary", "temporarily"}, {"permanent", "permanently"}),
    ({"allow", "allows", "allowed", "allowing", "permit", "permits", "permitted"},
     {"forbid", "forbids", "forbade", "forbidden", "prohibit", "prohibits", "prohibited", "ban", "bans", "banned"}),
    ({"include", "includes", "included", "including"}, {"exclude", "excludes", "excluded", "excluding"}),
    ({"success", "successful", "successfully", "succeed", "succeeded"}, {"failure", "unsuccessful", "failed",
                                                                                  "fail", "fails"}),
    ({"donate", "donated", "donates", "give", "gives", "gave"}, {"sell", "sells", "selling", "sold"}),
    ({"north", "northern", "northward"}, {"south", "southern", "southward"}),
    ({"east", "eastern", "eastward"}, {"west", "western", "westward"}),
    ({"northeast", "north-east", "northeastern"}, {"northwest", "north-west", "northwestern"}),
    ({"northeast", "north-east", "northeastern"}, {"southeast", "south-east", "southeastern"}),
    ({"southwest", "south-west", "southwestern"}, {"northwest", "north-west", "northwestern"}),
    ({"southwest", "south-west", "southwestern"}, {"southeast", "south-east", "southeastern"}),
)
_FORM_PAIRS = _FAMILIES + tuple((b, a) for a, b in _FAMILIES)
# "photosynthetic" said as "nonphotosynthetic", "certain" as "uncertain"; not "dis": "covered" / "discovered"
_NEGATING = ("non", "un")  # a hyphen ("non-religious") is a kind named apart, not the word negated
_NEGATED_LENGTH = 5  # a word this long at least: "unable" is not "able" turned, "union" not "ion"
# "certain" before a noun or "of" says "some" ("the technical merits of certain of Apple's tax positions"), no
# opposite of "uncertain": it says "sure" only after a copula or a degree word ("is certain", "reasonably certain")
_CERTAIN_SAYS_SURE = re.compile(r"\b(?:is|are|was|were|be|been|being|not|very|quite|more|less|most|least|fully|"
                                r"reasonably|virtually|almost|seems?|seemed|remains?|remained)\s+certain\b",
                                re.IGNORECASE)
# a term and the other ways prose writes it ("TV" said as "television"; "3D" as "three-dimensional")
_SAME = {"tv": ("television",), "3d": ("three-dimensional", "3-d", "three dimensional"),
         "2d": ("two-dimensional", "2-d", "two dimensional"), "us": ("united states", "u.s.", "american"),
         "usa": ("united states", "u.s.", "american"), "uk": ("united kingdom", "u.k.", "britain", "british"),
         "eu": ("european union",), "un": ("united nations",), "ai": ("artificial intelligence",),
         "euros": ("€", "eur"), "euro": ("€", "eur"), "dollars": ("$",), "pounds": ("£",),
         # a compass adjective is said by its noun ("Middle Eastern" of "in the Middle East")
         "eastern": ("east",), "western": ("west",), "northern": ("north",), "southern": ("south",)}


def other_forms(term: str) -> tuple[str, ...]:
    """The other ways prose writes a term ("Euros" as "€", "TV" as "television", "NPEs" as "NPE"); none for most
    terms."""
    singular = singular_acronym(term)
    styled = _STYLED.match(term)  # "enclave-style" of documents that write "enclave-based"
    return (_SAME.get(term.lower(), ()) + ((singular,) if singular != term.lower() else ())
            + ((styled.group(1),) if styled else ()))


# a word made into a manner or kind by its suffix: the word itself is what the documents must say
_STYLED = re.compile(r"^([A-Za-z]{3,})-(?:style|like|type|based|oriented|driven|centric|focused|related)$",
                     re.IGNORECASE)


def _plain(text: str) -> str:
    """Lower case without accents, a dash as a hyphen: "Gospic" is "Gospić", "2000-01" is "2000–01"."""
    text = hyphenated(text)
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _said(term: str, text: str) -> bool:
    """Does the text say the term: a whole word, any case, accents aside; a long word by its stem ("Canada" /
    "Canadian" do not meet, "Merkits"/"Merkit" do)."""
    core = _plain(singular_acronym(term))  # lower case already; "NPEs" is said by "NPE"
    stemmed = stem(core) if core.isalpha() and len(core) > 3 else core
    if core.startswith(stemmed):
        core = stemmed  # a prefix of the word ("Merkit" of "Merkits"); an irregular past's present is not
    forms = {core} | {core[: -len(end)] for end in ("n", "ian") if core.endswith(end) and len(core) - len(end) >= 5}
    plain = _plain(text)  # "Australian" asked of a sentence on Australia: a demonym is its country's
    return any(re.search(r"(?<![\w])" + re.escape(form), plain) is not None for form in forms)


def said_term(term: str, text: str) -> bool:
    """Does the text say the term, as the near-miss checks read it (`_said`)?"""
    return _said(term, text)


def named(question: str, terms: list[str]) -> list[tuple[list[str], str]]:
    """The terms grouped into the question's names, each with the word that meets it (`unmet_terms`)."""
    return [(group, _meeting_word(group)) for group in _names(question, terms)]


def _meeting_word(group: list[str]) -> str:
    """The word that meets a name: its last ("Lombardi" of "Vince Lombardi"), its first when the last only says
    its kind ("Cambridge University")."""
    return group[-1] if group[-1].lower() not in _GENERIC or len(group) == 1 else group[0]


def _abbreviated(name: str, text: str) -> bool:
    """"Most Valuable Player" said as "MVP", "United States" as "U.S." (initials with stops)."""
    parts = name.split()
    initials = r"\.?\s?".join(re.escape(p[0].upper()) for p in parts)
    return len(parts) > 1 and re.search(r"\b" + initials + r"\b", text) is not None


def _initials(acronym: str, text: str) -> bool:
    """"UMC" said as "United Methodist Church": capitalised words whose initials spell the acronym."""
    letters = acronym.upper()
    return any("".join(w[0] for w in run.split()) == letters for run in _CAPS_RUN.findall(text)
               if len(run.split()) == len(letters))


def _spelled(acronym: str, text: str) -> bool:
    """"AI" spelled "Artificial intelligence": a run of content words, the first capitalised, whose initials spell
    the acronym (a passage spells a term out in sentence case, its first word capitalised by the sentence)."""
    letters = acronym.lower()
    said = _WORD.findall(text)
    return any(said[i][:1].isupper() and "".join(w[0] for w in said[i:i + len(letters)]).lower() == letters
               and not any(w.lower() in STOPWORDS for w in said[i:i + len(letters)])
               for i in range(len(said) - len(letters) + 1))


def _names(question: str, terms: list[str]) -> list[list[str]]:
    """The terms grouped into names: consecutive capitalised words are one name ("Galileo Ferraris")."""
    groups: list[list[str]] = []
    runs = [run.split() for run in _CAPS_RUN.findall(question)]
    taken: set[str] = set()
    for term in terms:
        if term in taken:
            continue
        run = next((r for r in runs if term in (w.strip("?,.'’s") for w in r) and len(r) > 1), None)
        group = [t for t in terms if run and t in (w.strip("?,.") for w in run)] if run else [term]
        groups.append(group or [term])
        taken.update(group)
    return groups


def unmet_terms(question: str, near: str, topic: str, sentence: str = "", passage: str = "") -> list[str]:
    """The question's names, numbers and acronyms that the sentence and its neighbours (`near`) do not say,
    leaving out those of the `topic` (its section's title, an acronym of it too). A name of several words is met
    by its last one ("Lombardi" for "Vince Lombardi") or its acronym; an acronym by its spelled-out words; a
    year only fails against a sentence dating its facts by another year (a sentence with no year leaves the date
    to its context), or against the `sentence` itself dating its own facts by other years ("Why did Disney
    discontinue ABC1 in 2004?" read against "on September 8, 2007, Disney announced that it would discontinue
    ABC1": the neighbour saying "launched in 2004" is another fact). An acronym is met by its words spelled anywhere
    in the sentence's `passage` too: a passage (or its section) spells a term out once, then goes on about it."""
    terms = [t for t in specific_terms(question)
             if not _said(t, topic) and (not re.search(r"[a-z]-[a-z]", t) or not t.islower())]
    years_near = _ANY_YEAR.findall(near)
    years_said = _ANY_YEAR.findall(sentence)
    out: list[str] = []
    for group in _names(question, terms):
        last = _meeting_word(group)
        if _YEAR.match(last):
            year = last.rstrip("s")[: 3 if last.endswith("s") else 4]
            if (years_near and not _said(year, near)) or (years_said and not _said(year, sentence)):
                out.append(last)
            continue
        if _DECADE.match(last) or ("-" in last and any(_said(part, near) for part in last.split("-")
                                                        if len(part) > 2 and not part.isdigit())):
            continue  # a hyphenated term is met by a word of it ("Halloween-themed" by "Halloween")
        acronym = last.isupper() and len(last) > 1
        if (_said(last, near) or (acronym and _initials(last, near)) or _abbreviated(" ".join(group), near)
                or misspelt(_plain(last), words(_plain(near)))
                or any(_said(other, near) for other in other_forms(last))):
            continue
        if acronym and (_initials(last, topic) or _spelled(last, passage)):  # "ABC" in a section on the American
            continue  # Broadcasting Company; "AI" in a passage opening "Artificial intelligence and other software …"
        out.append(" ".join(group))
    return out


def opposite_words(question: str, sentence: str) -> list[str]:
    """The question's words the sentence says the other way round: it says the opposite and not the word
    ("buy" asked, "sell" said)."""
    asked = [w.lower() for w in _WORD.findall(question)]
    said = [w.lower() for w in _WORD.findall(sentence)]
    out = []
    for word in asked:
        for key, other in _PAIRS:
            if (_is(word, key) and any(_is(w, other) for w in said) and not any(_is(w, key) for w in said)
                    and not any(_is(w, other) for w in asked)):  # "support ..., even if not oppose ..." asks both
                out.append(word)
    said_set, asked_set = set(said), set(asked)
    if "certain" in said_set and not _CERTAIN_SAYS_SURE.search(sentence):
        said_set.discard("certain")  # "certain of our tax positions": some of them
    out += turned_forms(asked_set, said_set, _FORM_PAIRS)
    out += [w for w in asked_set if w not in said_set and _negated(w, said_set)]
    return sorted(set(out))


def turned_forms(asked: set[str], said: set[str], families: Iterable[tuple[set[str], set[str]]]) -> list[str]:
    """The asked words (lower-cased) of a family whose other side the sentence says instead: a family's forms
    ("bought", "buying"), not stems, since a stem joins "lost" to "lose" but not to "win"."""
    return [min(asked & one) for one, other in families
            if asked & one and said & other and not said & one and not asked & other]


def _negated(word: str, said: set[str]) -> bool:
    """Does the sentence say the word with a negating prefix ("nonphotosynthetic" for "photosynthetic"), or the
    word without the prefix it is asked with ("photosynthetic" for "nonphotosynthetic")?"""
    if len(word) < _NEGATED_LENGTH or not word.replace("-", "").isalpha():
        return False
    if any(prefix + word in said for prefix in _NEGATING):
        return True
    return any(word.startswith(prefix) and len(word) - len(prefix) >= _NEGATED_LENGTH and word[len(prefix):] in said
               for prefix in _NEGATING)


# closed sets whose members exclude each other: a question asking one that the passage answers with another is a
# near miss ("At which restaurant did he eat breakfast?" of "... with dinner at Delmonico's restaurant"; "the
# concentration of nitrogen" of "a 100% oxygen atmosphere")
_EXCLUSIVE = (frozenset({"breakfast", "lunch", "dinner", "supper"}),
              frozenset({"spring", "summer", "autumn", "winter"}),
              frozenset({"red", "blue", "green", "yellow", "black", "white", "orange", "purple", "pink", "brown",
                         "grey", "gray", "silver", "gold"}),
              frozenset({"father", "mother", "son", "daughter", "brother", "sister", "wife", "husband", "uncle",
                         "aunt", "grandfather", "grandmother", "nephew", "niece", "cousin"}),
              frozenset({"oxygen", "nitrogen", "hydrogen", "carbon", "helium", "sulfur", "sulphur", "iron", "copper",
                         "tungsten", "zinc"}),
              frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}),
              frozenset({"morning", "afternoon", "evening", "night"}),
              frozenset({"daily", "weekly", "monthly", "yearly", "annually"}),
              frozenset({"men", "women"}), frozenset({"boys", "girls"}), frozenset({"king", "queen"}),
              # what a plant burns, what carries people: "By when does Kenya aim to build a coal power plant?" of
              # "a nuclear power plant by 2017"; "Tesla's wireless controlled airship" of "a wireless controlled
              # boat". Not a programme's genre: "a comedy" is said as "the … sitcom" beside "drama/reality". Each
              # member one kind, said one way: no two names of one thing ("ship"/"boat", "plane"/"aircraft"), no
              # word that is a verb as often ("wind", "train", "rocket"): either would refuse a question worded
              # apart from its sentence
              frozenset({"coal", "nuclear", "solar", "hydroelectric", "geothermal", "diesel", "petroleum"}),
              frozenset({"boat", "airship", "submarine", "car", "airplane", "helicopter", "balloon", "bicycle",
                         "truck", "bus"}))


def other_member(question: str, sentence: str, near: str) -> list[str]:
    """The question's words of a closed set ("breakfast") that the sentence answers with another member
    ("dinner") while neither it nor its neighbours (`near`) say the asked one."""
    asked = {w.lower() for w in _WORD.findall(question)}
    said = {w.lower() for w in _WORD.findall(sentence)}
    context = {w.lower() for w in _WORD.findall(near)} | said
    return sorted(w for members in _EXCLUSIVE for w in asked & members
                  if w not in context and (said & members) - asked)


def _is(word: str, key: str) -> bool:
    return word == key or stem(word) == key or (len(key) >= 5 and word.startswith(key))


# "What share of federal agencies …?" asks a share too ("What share price …" asks a price)
_PERCENT_Q = re.compile(r"\bwhat (?:percentage|percent|proportion|fraction|portion|(?:share)(?!\s+(?:price|prices|"
                        r"count|capital|repurchases?|buybacks?)\b))\b", re.IGNORECASE)
_PERCENT = re.compile(r"%|\bper ?cent|\bhalf\b|\bthird\b|\bquarter\b", re.IGNORECASE)


# "What price per share did Oracle pay …?", "How much did it cost …?", "How much budget does NIST recommend …?": a
# sum of money, which a sentence gives in figures or number words ("at an excessive price" gives none); "What
# trust score threshold does NIST recommend?" a value ("the configured threshold value" gives none)
_PRICE_Q = re.compile(r"\bhow much\b[^?]*\b(?:pay|paid|cost|costs|spend|spent|price|worth|charge|charged|money|"
                      r"budget|budgets|fund|funds|funding|invest|invested|investment|revenues?|earn|earned|"
                      r"income|profits?)\b|"
                      r"\bwhat (?:\w+\s+){0,2}(?:price|cost|amount|fee|sum|budget|threshold)s?\b", re.IGNORECASE)
# "What were Oracle's revenues in China in fiscal 2023?": a reported amount, its measure the head of what is asked
# ("… revenue recognition policies" asks no amount)
_AMOUNT_Q = re.compile(r"\bwhat\s+(?:was|were|is|are)\s+(?:[\w'’&.-]+\s+){0,3}?(?:revenues?|net\s+sales|sales|"
                       r"net\s+income|income|earnings|expenses?|profits?|losses?)(?=\s+(?:in|for|during|from|at|of)\b|"
                       r"\s*\?)", re.IGNORECASE)
# ("one" is left out: "if one provider has a security issue …" gives no amount)
_ANY_NUMBER = re.compile(r"\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
                         r"forty|fifty|hundred|thousand|million|billion|trillion|dozen|half|third|twice|double|"
                         r"triple)\b", re.IGNORECASE)
_COUNT_Q = re.compile(r"\bhow many\b", re.IGNORECASE)
_YEARS = re.compile(r"(?<![\d$€£.,])(?:19|20)\d\d(?![\d,.]\d)|\b(?:fiscal|FY)\s*\d{2,4}\b", re.IGNORECASE)
# "What is the largest number of users …?", "How large a fine …?": a number gives it ("How big a role …?" asks none)
_NUMBER_Q = re.compile(r"\bwhat\s+(?:is|was|are|were)\s+the\s+(?:\w+\s+)?number\s+of\b|\bhow\s+(?:large|big|small)"
                       r"\s+(?:a|an)\s+(?!(?:role|part|impact|effect|influence|difference|deal|problem|risk|threat|"
                       r"factor|concern|step|challenge|change|shift)\b)\w+", re.IGNORECASE)
# a measure asked for ("What minimum password length …?", "How far …?", "How accurately …?"): a number gives it; a
# sentence that names the measure and gives none ("… may institute policies regarding password length …") does not
_MEASURE_Q = re.compile(r"\bhow (?:far|fast|old|tall|high|deep|accurate(?:ly)?)\b|\bwhat (?:\w+\s+){0,2}?(?:length|"
                        r"size|duration|distance|height|weight|speed|age)s?\b", re.IGNORECASE)
# how long something lasts is given by a number or by a span's unit ("for decades", "several years")
_DURATION_Q = re.compile(r"\bhow long\b(?!\s+ago)", re.IGNORECASE)
_SPAN = re.compile(r"\b(?:decades?|century|centuries|years?|months?|weeks?|days?|hours?|minutes?|seconds?|"
                   r"indefinite(?:ly)?|permanent(?:ly)?|forever)\b", re.IGNORECASE)
# a share of those counted ("42% of UK teachers", "half of Kenyans"); not a calendar's "fourth quarter of 2021"
_SHARE_OF = re.compile(r"%|\bper ?cent\b|\b(?:half|(?:a|one|two|three)[- ](?:third|quarter)s?)\s+of\b", re.IGNORECASE)
_HOW_MUCH = re.compile(r"\bhow much\b", re.IGNORECASE)


# "In what year …?": a sentence that dates nothing, nor do its neighbours, does not answer it ("Co-teaching has also
# become a new trend"); a decade, a century or "'98" is a date
_YEAR_Q = re.compile(r"\b(?:what|which) (?:year|decade|century)\b", re.IGNORECASE)
_DATED = re.compile(r"(?<![\d.])(?:1[0-9]{3}|20[0-9]{2})s?(?!\d|,\d)|\bcentury\b|\bdecade\b|\b\d0s\b|'\d\d\b",
                    re.IGNORECASE)


def _names_uncounted(question: str, sentence: str) -> bool:
    """Does the sentence name what a "how many" question counts without counting it: "How many data centers did
    Oracle operate?" against "$9.1 billion of … lease commitments, primarily for data centers, … for terms of three
    to fifteen years" (its numbers count other things)."""
    marks = counted_marks(question)
    said = {stem(w) for w in re.findall(r"[a-z]+", sentence.lower())}
    return bool(marks) and all(m.removeprefix(MARK) in said for m in marks) and not set(marks) & count_marks(sentence)


def _counts_other(question: str, sentence: str) -> bool:
    """Does no count of the sentence count the noun a "how many" question counts: "How many federal agencies have
    fully deployed a ZTA?" against "Several existing federal policies … intersect with … a ZTA" (it counts
    policies, and vaguely). A vague quantity ("several", "dozens of") counts only for a question that asks for no
    exact number ("Roughly how many …?")."""
    phrase = counted_phrase(question)
    return phrase is not None and not counts_head(sentence, *phrase, vague=vague_question(question))


def unsaid_measure(question: str, sentence: str, near: str) -> list[str]:
    """What the question counts or measures that the sentence does not give: a share ("What percentage ...?"
    read against a sentence with no percentage), a price, a cost or a measure (a length, "how far") read against a
    sentence with no number, a duration against one with no number nor span of time, a
    year asked of a passage that gives none (the sentence and its neighbours), a count read against a sentence
    with no number counting anything (a year counts nothing), whose amount a "how much" asks ("Apple's
    advertising business") when the passage never names it, or the thing counted ("How many zebras ...?"
    against "Two million wildebeest migrate ...", the counted noun absent from the sentence and its
    neighbours)."""
    out = []
    if _YEAR_Q.search(question) and not _DATED.search(near):
        out.append("year")
    if asks_dated_event(question) and not (_DATED.search(near) or says_time(near)):
        out.append("date")  # "When is the ZTA use case for TIC 3.0 scheduled to be released?": "it is likely that
        # a ZTA TIC use case will be developed" gives no time
    if _PERCENT_Q.search(question) and (not _PERCENT.search(sentence) or share_of_other(question, sentence)):
        out.append("percentage")  # none, or only shares of another whole ("… of the members of our Board")
    # a year is no sum of money ("How much did Apple spend on advertising?" of "… increased during 2022 compared to
    # 2021 due … to advertising"); "What were iPhone net sales in 2022?" (a comparison's side) keeps a sentence
    # that dates how they moved
    if (_PRICE_Q.search(question) and not _ANY_NUMBER.search(_YEARS.sub(" ", sentence))
            or _AMOUNT_Q.search(question) and not _ANY_NUMBER.search(sentence)):
        out.append("amount")
    if _MEASURE_Q.search(question) and not _ANY_NUMBER.search(sentence):
        out.append("measure")
    if _NUMBER_Q.search(question) and not _ANY_NUMBER.search(sentence):
        out.append("number")
    if _DURATION_Q.search(question) and not (_ANY_NUMBER.search(sentence) or _SPAN.search(sentence)):
        out.append("duration")
    if _HOW_MUCH.search(question):  # "How much revenue did Apple's advertising business generate?": whose amount
        everyday = everyday_words(question)
        out += [w for w in owned_words(question) if stem(w) not in everyday and not _said(w, near)]
    # "How many iPhones did Apple sell?" against "iPhone net sales increased during 2022"; a share of those
    # counted answers it ("How many Kenyans live below the poverty level?": "Half of Kenyans …", "42% of …")
    if _COUNT_Q.search(question) and not _SHARE_OF.search(sentence) and (not says_count(sentence)
                                                                          or _names_uncounted(question, sentence)
                                                                          or _counts_other(question, sentence)):
        out.append("count")
    counted = counted_word(question)
    if (counted and counted.islower() and "-" not in counted
            and not _said(counted, near)):  # a capitalised or hyphenated word: a name, not what is counted
        out.append(counted)
    return out
