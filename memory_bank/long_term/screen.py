"""Is a note instruction-like? The check a long-term record passes before it is kept or shown to a model.

A long-term note states what happened in an earlier task or what the documents say. Text that does anything else
is how a prompt injection outlives its task: it claims authority over the assistant's instructions ("ignore
previous instructions", "system note", "for all future tasks"), addresses the reader with a directive (an
imperative clause, "you must", "the assistant should"), names something to act on (a network address, a tool
call, a secret to disclose), or carries prompt markup. Each is a class of signal below, looked for in text
normalised first (NFKC, invisible characters removed, case folded, "[.]" and "(dot)" read as dots), and a word
that mixes Latin with Cyrillic or Greek letters is a signal of its own, since nothing but disguise does that.

Who wrote the words decides which classes apply. A note the user typed may legitimately be a directive ("always
answer in French") or name a site: only the classes nothing legitimate needs are checked (`ALWAYS`). Text from
documents or a model gets every class (`STRICT`).
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from ..text.split import split_sentences


class Signal(StrEnum):
    OVERRIDE = "override"  # claims authority over the assistant's instructions
    SECRET = "secret"  # asks for a key, password or credential, or holds one
    MARKUP = "markup"  # tool-call tags, chat-template tokens
    OBFUSCATED = "obfuscated"  # a word mixing scripts
    ADDRESS = "address"  # speaks to the assistant: "you must", "the assistant should", "your instructions"
    DIRECTIVE = "directive"  # an imperative clause
    NETWORK = "network"  # a URL, an IP address, a host name
    TOOL = "tool"  # asks for a tool call


ALWAYS = frozenset({Signal.OVERRIDE, Signal.SECRET, Signal.MARKUP, Signal.OBFUSCATED})
STRICT = frozenset(Signal)


@dataclass(frozen=True)
class Finding:
    signal: Signal
    excerpt: str  # the normalised text that showed it, clipped


def _words(*items: str) -> str:
    return "(?:" + "|".join(items) + ")"


_SET_ASIDE = _words("ignore", "disregard", "forget", "override", "overrule", "bypass", "discard", "abandon", "neglect",
                    "skip", "drop")
_INSTRUCTIONS = _words(r"instructions?", r"prompts?", r"rules?", r"directions?", r"directives?", r"guidelines?",
                       "guidance", "context", r"messages?", r"constraints?", "polic(?:y|ies)", r"orders?",
                       r"commands?", "programming", "training", r"safeguards?", r"restrictions?")
_QUALIFIED = _words("previous", "prior", "above", "earlier", "preceding", "original", "existing", "former", "initial",
                    "system", "safety", "developer", "other", "old")
_OVERRIDE = re.compile("|".join([
    rf"\b{_SET_ASIDE}\b(?:\W+\w+){{0,3}}?\W+{_QUALIFIED}\W+(?:\w+\W+)?{_INSTRUCTIONS}\b",
    rf"\b{_SET_ASIDE}\W+(?:(?:all|any|your|the|my|these|those|of)\W+){{0,3}}(?:instructions?|system prompts?|prompts?"
    r"|guidelines|programming|training|safeguards|restrictions)\b",
    rf"\b{_SET_ASIDE}\W+(?:everything|anything|all|whatever)\W+(?:\w+\W+)?(?:above|before|prior|previously|earlier"
    r"|said|written|you were told)\b",
    r"\b(?:system|developer|admin|administrator)\s*(?:note|prompt|message|instruction|override|directive)s?\b",
    r"\b(?:for|in|during|across)\s+(?:all|every|any|each)?\s*(?:future|subsequent|upcoming)\s+(?:tasks?|sessions?"
    r"|conversations?|chats?|quer(?:y|ies)|questions?|answers?|responses?|interactions?|prompts?)\b",
    r"\bfrom now on\b", r"\bhenceforth\b", r"\byou are (?:now|no longer)\b", r"\bjailbreak", r"\bdeveloper mode\b",
    r"\bnew (?:instructions?|rules?|role|persona|system prompt)\b", r"\bpretend (?:to be|you)\b",
    r"\b(?:act|behave|respond) as (?:an? |the )?(?:unrestricted|jailbroken|root|admin|administrator|developer|dan)\b",
    r"\bdo anything now\b",
]))
_SECRET_NOUN = _words(r"api[\s_-]?keys?", r"api[\s_-]?tokens?", r"access[\s_-]?(?:keys?|tokens?)",
                      r"secret[\s_-]?keys?", r"secrets?", r"passwords?", "passphrase", "passcode",
                      r"credentials?", r"private[\s_-]?keys?", r"bearer[\s_-]?tokens?", r"auth(?:entication)?"
                      r"[\s_-]?tokens?", r"session[\s_-]?tokens?", r"ssh[\s_-]?keys?", r"env(?:ironment)?[\s_-]?"
                      r"var(?:iable)?s?", r"\.env\b", r"(?:system|hidden|initial|original) (?:prompt|instructions)")
_DISCLOSE = "(?:" + _words("include", "reveal", "disclose", "print", "output", "send", "share", "leak", "expose",
                           "show", "tell", "give", "post", "upload", "email", "paste", "append", "return", "dump",
                           "echo", "exfiltrate", "provide", "repeat", "attach", "display") \
    + r"(?:s|es|ed|d|ing)?|sent|told|gave|given|shown)\b"
_SECRET = re.compile("|".join([
    rf"\b{_DISCLOSE}(?:\W+\S+){{0,8}}?\W+{_SECRET_NOUN}", rf"{_SECRET_NOUN}(?:\W+\S+){{0,4}}?\W+{_DISCLOSE}",
    rf"{_SECRET_NOUN}(?:\W+\S+){{0,6}}?\W+(?:to|into|in|with|at)\W+(?:\S+\W+){{0,3}}?(?:every|each|all|your|the)"
    r"\s+(?:answers?|responses?|replies|outputs?|messages?|requests?)",
    rf"\b(?:your|the user'?s|the assistant'?s|the system'?s|the server'?s|its own)\s+{_SECRET_NOUN}",
    r"\bsk-[a-z0-9_-]{16,}", r"\bakia[0-9a-z]{16}\b", r"\bgh[pousr]_[a-z0-9]{20,}", r"\bxox[abp]-[a-z0-9-]{10,}",
]))
_SECRET_HINT = re.compile(rf"{_SECRET_NOUN}|sk-|akia|gh[pousr]_|xox[abp]-")  # the cheap test first
_MARKUP = re.compile(r"(?:<|&lt;)\s*/?\s*(?:tool[\s_-]*call|tool[\s_-]*response|function[\s_-]*call|answer|think"
                     r"|long[\s_-]*term|memory|task|system|assistant|user)\s*>|<\|[a-z ]{2,30}\|>|\[/?inst\]"
                     r"|<<\s*/?sys\s*>>|\"name\"\s*:\s*\"[a-z ]+\"\s*,\s*\"arguments\""
                     r"|(?:^|\n)\s*(?:system|assistant)\s*:")  # a role's turn, as a chat transcript writes it
_ASSISTANT = _words("assistant", "ai", "model", "agent", "llm", "chatbot", "bot", "gpt", "chatgpt", "claude",
                    "copilot", "language model")
_MODAL = _words("must", "should", "shall", "will now", "needs? to", "has to", "have to", "is required to",
                "are required to", "is instructed to", "are instructed to", "is to", "are to", "may now", "can now")
_ADDRESS = re.compile("|".join([
    rf"\byou(?:'re| are)?\s+{_MODAL}\b", r"\byou(?:'re| are) (?:now|required|instructed|allowed|permitted)\b",
    rf"\b(?:the|this|an?|dear|hey|hi|hello|attention|note to(?: the)?|message to(?: the)?)\s+{_ASSISTANT}s?\b"
    rf"(?:\s*[,:]|\s+{_MODAL}\b)",
    r"\byour (?:instructions|task|job|role|rules|prompt|system prompt|goal|guidelines|answers?|repl(?:y|ies)"
    r"|responses?|outputs?|next)\b",
    r"\b(?:wants?|needs?|asks?|instructs?|requires?|expects?|would like|tells?) you to\b",
]))
_VERBS = frozenset("""ignore disregard forget override bypass obey follow comply call invoke execute run visit fetch
open browse navigate download upload curl wget send post email forward transmit submit include insert append add
exfiltrate
reveal disclose leak expose print output display show tell say reply respond answer write return repeat use search
query access connect delete remove erase change set update modify stop start begin act pretend make do remember
keep treat consider click install contact read check look go load request""".split())
_LEADS = frozenset("please kindly now also just then first immediately and so".split())
_ADVERBS = frozenset(("always", "never", "don't", "dont", "do not"))
_SUBORDINATORS = frozenset("when whenever if once before after while unless".split())
_STARTERS = frozenset("""the a an all any every each this that these those your my our their his her its it them
me us him you on to with for at into from out up down in previous prior above earlier other some no more only
nothing everything anything what whatever sure""".split())
_SENTENCE = re.compile(r"[.!?:]+(?:\s|$)|[\n;()\[\]{}\"“”«»]|\s[-–—]+\s|—")
_COORDINATE = re.compile(r",|\s(?:and|or|then|and then)\s")
_TOOL = re.compile(r"\b(?:call|invoke|use|run|execute|trigger|make)\s+(?:the\s+|a\s+)?(?:visit|search|deep[\s_]"
                   r"retrieval|fetch|browse|browser|http|curl|wget|web)\b|\b(?:visit|search|deep retrieval|fetch)"
                   r"\s+(?:tool|function)\b|\btool[\s_-]*call\b")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]{1,15}://|\bwww\d?\.|\blocalhost\b|\b[a-z0-9-]+\.(?:internal|local|lan|corp"
                  r"|localdomain|arpa)\b|\b0x[0-9a-f]{8}\b|\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net"
                  r"|org|io|ai|dev|app|cloud|co|gov|edu|info|biz|xyz|me|us|uk|de|ru|cn|site|online|top|tk|ml)\b")
_IPV4 = re.compile(r"(?<![\w.])(\d{1,3})\s*\.\s*(\d{1,3})\s*\.\s*(\d{1,3})\s*\.\s*(\d{1,3})(?![\w.]*\d)")
_IPV6 = re.compile(r"(?<![\w:])\[?([0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?:%\w+)?)\]?(?![\w:])")
_DOTS = re.compile(r"\s*(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\{dot\}|\s+dot\s+)\s*")
_NON_ASCII_WORD = re.compile(r"\w*[^\x00-\x7f]\w*")
_LOOK_ALIKES = frozenset("аеорсухіјѕԁԛԝһӏԌАВЕКМНОРСТХІЈЅοιкνραυχΑΒΕΗΙΚΜΝΟΡΤΥΧΖ")  # Cyrillic and Greek


def normalise(text: str) -> str:
    """The text a reader sees: compatibility forms folded, invisible characters gone, case folded, '_' read as a
    space ("ignore_previous_instructions" says what it says), spaces collapsed, obfuscated dots restored."""
    text = unicodedata.normalize("NFKC", text).replace("_", " ")
    if not text.isascii():
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return re.sub(r"[^\S\n]+", " ", _DOTS.sub(".", text.casefold())).strip()


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:79] + "…"


def _mixed_script(text: str) -> str | None:
    """A word of Latin letters with a Cyrillic or Greek look-alike among them ("ignоre" with a Cyrillic o).
    Only look-alikes count: "5 μm" or a phonetic "ˈluːθər" mixes scripts without disguising anything."""
    if text.isascii():
        return None
    for word in _NON_ASCII_WORD.findall(text):
        if any(ch in _LOOK_ALIKES for ch in word) and sum(ch.isascii() and ch.isalpha() for ch in word) >= 2:
            return word
    return None


def _network(text: str) -> str | None:
    found = _URL.search(text)
    if found:
        return found.group(0)
    for m in _IPV4.finditer(text):
        if all(int(part) <= 255 for part in m.groups()):
            return m.group(0)
    for m in _IPV6.finditer(text):
        candidate = m.group(1).split("%", 1)[0]
        if candidate.count(":") >= 2 and ("::" in candidate or candidate.count(":") == 7):
            try:
                ipaddress.IPv6Address(candidate)
            except ValueError:
                continue
            return m.group(0)
    return None


def _imperative(segment: str) -> bool:
    """A clause in the imperative mood: it opens (after "please", "now" and the like) with a directive verb,
    or "always" / "never" / "do not", followed by an object (a determiner, a pronoun, a quoted string, an
    address) or a preposition, so "visit the site" is one and "visit counts rose" is not."""
    words = segment.split()
    while words and words[0] in _LEADS:
        words = words[1:]
    for size in (2, 1):  # "do not ...", "never ...": a rule, whatever verb follows
        if len(words) > size and " ".join(words[:size]) in _ADVERBS:
            return True
    if len(words) < 2 or words[0].strip("'") not in _VERBS:
        return False
    quoted = words[1][0] in "'\"`“‘«"  # a quoted string is an object: add 'PWNED', say "yes"
    nxt = words[1].strip("'\"`*“”‘’«»")
    return quoted or nxt in _STARTERS or nxt in _VERBS or bool(_network(nxt)) or nxt.isdigit()


def _directive(text: str) -> str | None:
    """An imperative clause, or one coordinated with one ("ignore X, call Y and include Z"): the first clause
    of a sentence counts alone, a later one only after an imperative, so a list of verbs in a statement ("the
    vendor will review, answer questions and sign") is not read as orders."""
    for sentence in _SENTENCE.split(text):
        previous_imperative = True  # a sentence's first clause stands on its own
        for segment in _COORDINATE.split(sentence):
            segment = segment.strip(" '`*")
            if not segment:
                continue
            if previous_imperative and _imperative(segment):
                return segment
            # after "when you answer," or "if asked," the main clause opens as a sentence would
            previous_imperative = segment.split(" ", 1)[0] in _SUBORDINATORS
    return None


_CHECKS = {
    Signal.OVERRIDE: lambda t: (m := _OVERRIDE.search(t)) and m.group(0),
    Signal.SECRET: lambda t: _SECRET_HINT.search(t) and (m := _SECRET.search(t)) and m.group(0),
    Signal.MARKUP: lambda t: (m := _MARKUP.search(t)) and m.group(0),
    Signal.ADDRESS: lambda t: (m := _ADDRESS.search(t)) and m.group(0),
    Signal.TOOL: lambda t: (m := _TOOL.search(t)) and m.group(0),
    Signal.NETWORK: _network,
    Signal.DIRECTIVE: _directive,
}


def screen(text: str, *, own_words: bool = False) -> list[Finding]:
    """Every class of signal found in `text`, one finding each. `own_words`: the user typed it (see module doc)."""
    wanted = ALWAYS if own_words else STRICT
    findings = []
    mixed = _mixed_script(unicodedata.normalize("NFKC", text))
    if mixed:
        findings.append(Finding(Signal.OBFUSCATED, _clip(mixed)))
    plain = normalise(text)
    for signal, check in _CHECKS.items():
        if signal in wanted:
            hit = check(plain)
            if hit:
                findings.append(Finding(signal, _clip(hit)))
    return findings


def instruction_like(text: str, *, own_words: bool = False) -> bool:
    return bool(screen(text, own_words=own_words))


def reasons(findings: list[Finding]) -> str:
    """'override, network': what a refusal says (never the text itself, which is what was refused)."""
    return ", ".join(dict.fromkeys(f.signal.value for f in findings))


WITHHELD = "[a passage withheld: instruction-like text]"


def neutralise(text: str) -> str:
    """`text` with every line or sentence that screens as instruction-like replaced by a marker: what a model
    may read of an untrusted text when it must read some of it (the digest a distiller works from)."""
    return "\n".join(" ".join(WITHHELD if instruction_like(p) else p for p in split_sentences(line))
                     for line in text.splitlines())
