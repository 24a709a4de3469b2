"""A ranking in one year, then the place it finds in another: "whichever ward had the most murders in 2020, how many
did that same ward have the next year", "which district led in 2016 and how many did it have in 2019".

Read as one span (2020-2021), the ranking would be over both years and the follow-up's count never given: an answer
to another question. The ranking keeps the years named before the place is referred back to; the follow-up gets the
year named (or "the next year") after it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# The place the ranking found, referred back to: "that same ward", "the same district", "it", "there".
_BACK_REF_RE = re.compile(r"\b(?:(?:that|the\s+same|this|same)\s+(?:same\s+)?(?:ward|district|area|neighbou?rhood|"
                          r"community(?:\s+area)?|one|place|part)|(?:did|does|do|had|has|have|was)\s+(?:it|they)|"
                          r"(?:it|they)\s+(?:have|had|see|saw|get|got)|there\s+in)\b")
_NEXT_YEAR_RE = re.compile(r"\b(?:the\s+)?(?:next|following)\s+year\b|\bthe\s+year\s+after(?:\s+that)?\b|"
                           r"\ba\s+year\s+later\b")
_YEAR_RE = re.compile(r"(?<![\d$,.])((?:19|20)\d{2})(?![\d,.]\d)")


@dataclass
class FollowYear:
    ranked: list[int]  # the ranking's year(s)
    year: int  # the follow-up's year
    spans: list[tuple[int, int]]  # the words that said so


def read_follow_year(low: str, years: list[int], periods: list) -> FollowYear | None:
    """The ranking's year and the follow-up's year, when ``low`` refers back to the ranked place with a year of its
    own; None otherwise (one year for both, or a range)."""
    if periods or not years:
        return None
    back = _BACK_REF_RE.search(low)
    if not back:
        return None
    before = sorted({int(y) for y in _YEAR_RE.findall(low[:back.start()])})
    after = sorted({int(y) for y in _YEAR_RE.findall(low[back.start():])} - set(before))
    nxt = _NEXT_YEAR_RE.search(low, back.start())
    if len(before) != 1 or len(after) > 1 or (after and nxt) or not (after or nxt):
        return None
    year = after[0] if after else before[0] + 1
    return FollowYear(ranked=before, year=year, spans=[back.span()] + ([nxt.span()] if nxt else []))
