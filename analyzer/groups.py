"""Two sets of places compared, each with its own figure: "split the areas into those above the median poverty
rate and the rest: how many times higher is the higher group's homicide rate", "majority-Black areas vs
majority-Hispanic ones: each group's pooled rate", "the gap in home values between the 5 lowest-hardship areas and
the 5 highest". The sets come from the condition or the ranking the question already has; this reading says only
that two sets are compared, which ones, and whether a set's figure is pooled from its sums or its members' plain mean.
"""
from __future__ import annotations

import re

from analyzer.conditions import group_bounds
from analyzer.lexicon import COMPARE_RE, GAP_RE, NUM, TIMES_RE, number

# The set a condition leaves: "and the rest", "all other areas", "those below it", "above vs below the median".
_REST_RE = re.compile(r"\b(?:(?:all\s+)?the\s+(?:rest|others|remaining\s+(?:\w+\s+){0,2}?(?:areas|ones|neighbou?rhoods|"
                      r"communities))|everywhere\s+else|every(?:\s+other|one\s+else)\b(?:\s+(?:area|neighbou?rhood|"
                      r"community\s+area))?|all\s+other\s+(?:community\s+)?(?:areas|neighbou?rhoods|communities)|"
                      r"(?:the\s+)?other\s+(?:half|group|side)|(?:those|areas|ones)\s+(?:at\s+or\s+)?(?:below|under)\s+"
                      r"(?:it|that)|(?:above|over)\s+(?:vs\.?|versus|or|and)\s+(?:at\s+or\s+)?(?:below|under)|"
                      r"(?:below|under)\s+(?:vs\.?|versus|or|and)\s+(?:above|over))\b", re.I)
# Words that say two sets are meant (a group named by its side, "each group", "split", "the two halves").
_SETS_RE = re.compile(r"\b(?:each|both|the\s+two|two)\s+(?:groups?|sets|halves)\b|\b(?:higher|lower|richer|poorer)"
                      r"[\s-]+\w+\s+(?:group|half|set)\b|\bsplit\b|\bdivid\w+\b", re.I)
# A set's figure as its members' plain average, not pooled from the set's sums.
MEAN_RE = re.compile(r"\b(?:simple|plain|unweighted|straight|ordinary)\s+(?:average|mean)s?\b|\bnot\s+(?:pooled|"
                     r"weighted)\b|\baverage\s+of\s+(?:each|the)\s+(?:group'?s\s+)?(?:\w+\s+)?(?:values|figures|"
                     r"numbers|areas)\b", re.I)


def compared_groups(low: str, condition, ranking: dict | None, consumed: list) -> dict | None:
    """{"kind": "rest" | "each" | "ends", "figure": "pooled" | "mean", "bounds": [(group, side, value)]} when
    the question compares two sets of places, else None; the words read are added to ``consumed``."""
    figure = "mean" if MEAN_RE.search(low) else "pooled"
    words = [m.span() for rx in (MEAN_RE, _SETS_RE) for m in rx.finditer(low)]
    rest = _REST_RE.search(low)
    if condition is not None and rest and condition.metric not in ("population_change", "home_value_change"):
        consumed += [rest.span(), *words]
        return {"kind": "rest", "figure": figure, "bounds": []}
    bounds = group_bounds(low)
    if len(bounds) == 2 and (COMPARE_RE.search(low) or _SETS_RE.search(low)):
        consumed += [span for *_, spans in bounds for span in spans] + words
        return {"kind": "each", "figure": figure, "bounds": [b[:3] for b in bounds]}
    if ranking and ranking.get("both_ends") and ranking.get("top_n") and (GAP_RE.search(low) or TIMES_RE.search(low)):
        consumed += words + [m.span() for m in re.finditer(rf"\b{NUM}\b", low) if number(m.group(1)) == ranking["top_n"]]
        return {"kind": "ends", "figure": figure, "bounds": []}
    return None
