"""What a homicide count covers beyond its places and times: a floor on the places ranked or listed ("among wards
with at least 50 homicides", "which areas had more than 20 killings") and kinds of place counted together ("on a
street or in an alley").
"""
from __future__ import annotations

import re

from analyzer.lexicon import LOCATION_RE

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
