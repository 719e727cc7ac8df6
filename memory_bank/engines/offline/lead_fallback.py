"""When the best sentence is refused, which of the next ones may lead the answer instead.

Two cases, each narrow because a refused lead is most often a near miss's mark (bench/squad_near_miss.py):

- The lead lacks a name the question asks about, which the next sentence says, meeting every constraint and rated
  higher by the found model: "Why did Japan's net sales fall in 2022 while most of Apple's other regions grew?"
  ranked the Rest of Asia Pacific's sentence above Japan's own. Only names (any other unmet constraint is a near
  miss's mark: "support" of a sentence saying the church "opposes conscription", and a fallback on those refused 6
  fewer of the 275 near misses); prose only (a table's row is shown as a row).
- The lead judged no answer by the found model alone (every constraint met): one of the next two the model accepts
  clearly, meeting every constraint ("How were the gaps found in the vendor technology survey grouped …?": the
  survey's opening sentence led, "These gaps can be categorized into …" next). Clearly: a sentence the model barely
  accepts after a refused lead is a near miss's neighbour ("Who is Apple's chief medical officer?"); and not for a
  yes/no question, whose verdict is its lead's.

Neither is a sentence another part of the reply shows (that part says it).
"""

from __future__ import annotations

from collections.abc import Callable

from .constraints import said_term
from .found import FoundModel
from .ranking import Ranked
from .verdict import is_yes_no

RUNNERS_UP = 2  # the sentences after a lead the found model alone refused that may answer instead
RUNNER_LOGIT = 0.5  # the found model's logit such a sentence needs (its threshold is 0)


def fallback_lead(question: str, ranked: Ranked, found: Callable[[int], bool], model: FoundModel,
                  said: frozenset[str]) -> int | None:
    """The index of the sentence to lead with instead of the refused `ranked.body()[0]`, or None. `found` judges a
    sentence as the answerer does (model, constraints, dates)."""
    body, pool = ranked.body(), ranked.pool
    if not body:
        return None
    lead = ranked.signals(body[0])
    # the cheap checks first: the constraints (`near_miss`) are the costly reading
    if (len(body) > 1 and not pool[body[1]].row and pool[body[1]].text not in said
            and model.found(lead)  # refused for the name alone
            and model.logit(ranked.signals(body[1])) > model.logit(lead)
            and (unmet := ranked.near_miss(body[0]))
            and all(t[:1].isupper() and said_term(t, pool[body[1]].text) for t in unmet) and found(body[1])):
        return body[1]
    if is_yes_no(question) or model.found(lead) or ranked.near_miss(body[0]):
        return None
    return next((j for j in body[1:RUNNERS_UP + 1] if not pool[j].row and pool[j].text not in said
                 and model.logit(ranked.signals(j)) >= RUNNER_LOGIT and found(j)), None)
