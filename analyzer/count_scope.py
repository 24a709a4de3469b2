"""What a count covers beyond its places and times: a floor on the places ranked or listed ("among wards with at
least 50 homicides", "which areas had more than 20 killings"), kinds of place counted together ("on a street or in
an alley"), and whether a ranking of a group of residents is by how many there are or by their share ("the second
biggest Black population" against "the highest share of Black residents").
"""
from __future__ import annotations

import re

from analyzer.lexicon import CENSUS_GROUP_RES, LOCATION_RE

# "among wards with at least 50 homicides", "districts with 30 or more homicides", "more than 20 killings".
COUNT_FLOOR_RE = re.compile(r"\b(?:(?P<least>at\s+least|a\s+minimum\s+of|no\s+fewer\s+than)|(?P<more>more\s+than|over|"
                            r"above))\s+(?P<n>\d{1,5})\s+(?:homicides|murders|killings|cases|deaths)\b|"
                            r"\b(?P<n2>\d{1,5})\s+(?:or\s+more|\+)\s+(?:homicides|murders|killings|cases|deaths)\b")


def count_floor(match: re.Match) -> int:
    """The smallest count a ranked place must have: "more than 20" is 21."""
    n = int(match.group("n") or match.group("n2"))
    return n + 1 if match.group("more") else n


# "on a street or in an alley", "streets or alleys": one count over the kinds of place joined by "or".
_LOCATIONS_OR_RE = re.compile(r"\b(?:on|in|at|inside)?\s*(?:a|an|the)?\s*(?:" + LOCATION_RE.pattern + r")\s*,?\s+or\s+"
                              r"(?:on|in|at|inside)?\s*(?:a|an|the)?\s*(?:" + LOCATION_RE.pattern + r")", re.I)
_WEIGHED_RE = re.compile(r"\b(?:vs\.?|versus|compared?|comparison|more|fewer|less|most|which|"
                         r"where\s+(?:do|did|are|were))\b")


def locations_together(low: str, locations: list) -> bool:
    """Two kinds of place joined by "or" in a count, not weighed against each other ("more on the street or in an
    apartment?" compares them)."""
    return len(locations) >= 2 and bool(_LOCATIONS_OR_RE.search(low)) and not _WEIGHED_RE.search(low)


# A share, said any way: then the group's share ranks the areas, however the rest is worded.
_SHARE_CUE_RE = re.compile(r"\b(?:shares?|percent(?:age)?s?|proportions?|fractions?|concentrat\w*|ratio|majority|"
                           r"mostly|predominantly|heavily|per\s+capita|relative\s+to|rates?|densest|density)\b|%",
                           re.I)
# How many: the group named as people counted ("Black population", "Latino residents", "seniors", "Asians"), not
# as an adjective ("the most Latino area").
_PEOPLE_AFTER_RE = re.compile(r"^[\s-]*(?:american\s+)?(?:population|residents|people|persons|folks|inhabitants|"
                              r"families|households|individuals)\b", re.I)
# The homicide rate asked beside a group ("its homicide rate per 100k") says nothing of how the group is ranked.
_RATE_ASKED_RE = re.compile(r"\b(?:homicide|murder|killing|crime)s?\s+rates?\b|\brates?\s+per\b|\bper\s+100\s*k\b|"
                            r"\bper\s+100,?000\b|\bper\s+capita\s+(?:homicide|murder)", re.I)
_HEAD_COUNT_RE = re.compile(r"\bhead[\s-]?counts?\b|\bin\s+raw\s+numbers\b|\bby\s+count\b", re.I)
# "the most residents aged 65+": the people counted named before the group
_PEOPLE_BEFORE_RE = re.compile(r"\b(?:residents|people|persons|folks|inhabitants|individuals)\s+(?:aged?\s+|ages\s+)?$",
                               re.I)
_PEOPLE_IN_RE = re.compile(r"\b(?:people|residents|adults|folks|folk|population|households|children|kids|minors|"
                           r"youth)\b|s$")


# "most people, not highest percent": a share set aside is no share cue.
_NOT_SHARE_RE = re.compile(r"\b(?:not|rather\s+than|instead\s+of)\s+(?:by\s+)?(?:the\s+)?(?:\w+\s+){0,2}?"
                           r"(?:shares?|percent(?:age)?s?|proportions?|%)(?:[\s-]*wise)?", re.I)


_NOT_COUNT_RE = re.compile(r"\b(?:not|rather\s+than|instead\s+of)\s+(?:by\s+)?(?:the\s+)?(?:most|biggest|largest|"
                           r"highest|raw)?\s*(?:number|count|people|residents|headcount)\b", re.I)


def set_aside_shares(low: str) -> list[tuple[int, int]]:
    """Spans of "not (the) highest percent", "rather than the share", "not the most people": read, as the measure
    the question points away from."""
    return [m.span() for rx in (_NOT_SHARE_RE, _NOT_COUNT_RE) for m in rx.finditer(low)]


def census_by_count(low: str, group: str | None) -> bool:
    """Whether areas ranked or compared on a group of residents are set by how many, not by what share: "which area
    has the second biggest black population", "the most seniors", "more Latino residents, Austin or Englewood?". A
    bare adjective ("the most Latino area") or any share word ("highest share of", "percentage-wise") is a share."""
    if not group or _SHARE_CUE_RE.search(_RATE_ASKED_RE.sub(" ", _NOT_SHARE_RE.sub(" ", low))):
        return False
    if _HEAD_COUNT_RE.search(low):
        return True
    pattern = dict(CENSUS_GROUP_RES)[group]
    return any(_PEOPLE_IN_RE.search(m.group(0)) or _PEOPLE_AFTER_RE.match(low[m.end():])
               or _PEOPLE_BEFORE_RE.search(low, 0, m.start()) for m in pattern.finditer(low))
