"""Light query analysis (seed 004 §5.1): intent and categories, so only the relevant L2 subset is searched.

Word lists, not a model: it runs on every query before anything is embedded, and a miss costs little because
explicit preferences are always searched and a query that names no category searches them all.
"""

from __future__ import annotations

from ..text.tokens import stem, tokenize
from .models import Category, Intent, QueryAnalysis

_REFLECT = {"reflect", "reflection", "lesson", "learn", "learned", "learnt", "retrospective",
            "mistake", "wrong", "improve", "experience", "summarise", "summarize", "retro"}
_DECIDE = {"should", "choose", "decide", "decision", "recommend", "best", "better", "prefer", "option",
           "which", "whether", "pick", "versus", "vs", "tradeoff", "trade-off"}
_CATEGORY_WORDS: dict[Category, set[str]] = {
    Category.WORK: {"work", "project", "report", "code", "api", "deploy", "deployment", "meeting", "budget",
                    "architecture", "system", "policy", "document", "data", "client", "customer", "release",
                    "design", "security", "server", "database", "deadline", "team", "business", "technical"},
    Category.LIFE: {"home", "family", "travel", "trip", "food", "health", "weekend", "holiday", "friend",
                    "cook", "house", "doctor", "sport", "exercise", "shopping"},
    Category.PREFERENCE: {"prefer", "preference", "like", "dislike", "want", "always", "never", "style",
                          "format", "tone", "concise", "short", "detailed", "language", "favourite", "favorite"},
    Category.EMOTION: {"feel", "feeling", "happy", "sad", "angry", "frustrated", "worried", "stress",
                       "stressed", "upset", "anxious", "excited", "mood"},
    Category.STRATEGY: {"how", "approach", "strategy", "method", "error", "fail", "failure", "retry", "tool",
                        "step", "steps", "plan", "fix", "recover", "timeout", "search", "workflow"},
}
_STEMMED = {c: {stem(w) for w in ws} for c, ws in _CATEGORY_WORDS.items()}
_REFLECT_STEMS = {stem(w) for w in _REFLECT}
_DECIDE_STEMS = {stem(w) for w in _DECIDE}


def analyse_query(query: str) -> QueryAnalysis:
    words = {stem(w) for w in tokenize(query)} | {stem(w) for w in query.lower().split()}
    if words & _REFLECT_STEMS:
        intent = Intent.REFLECT
    elif words & _DECIDE_STEMS:
        intent = Intent.DECIDE
    else:
        intent = Intent.ASK
    named = [c for c in Category if words & _STEMMED[c]]
    if not named or intent is Intent.REFLECT:
        return QueryAnalysis(intent=intent, categories=list(Category))
    wanted = set(named) | {Category.PREFERENCE}  # explicit preferences and constraints come first always
    if intent is Intent.DECIDE:
        wanted.add(Category.STRATEGY)  # a decision draws on what worked before
    return QueryAnalysis(intent=intent, categories=[c for c in Category if c in wanted])
