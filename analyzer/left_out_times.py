"""Years and months a question leaves out: "from 2014 thru 2022 but don't count 2020", "every year but 2020",
"2017 not counting June, July or August", "2019 except the summer".

A year or month left out is taken out of the years or months asked about. Read as one asked about, it would answer
the opposite question (the summer's count for "not counting the summer"), so this runs before anything counts them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzer.years import _MONTH_WORD, _SEASONS, _month_number

_Y = r"(?:19|20)\d{2}"
_CUE = (r"\b(?:except(?:\s+for)?|excluding|exclude|excludes|but\s+not|not\s+counting|not\s+including|"
        r"(?:but\s+)?(?:do\s+not|don'?t|dont|doesn'?t|without)\s+(?:count(?:ing)?|includ(?:e|ing))|skip(?:ping|s)?|"
        r"leav(?:e|ing)\s+out|(?<![0-9]\s)(?<![0-9])minus|other\s+than|apart\s+from|aside\s+from|besides|ignoring|"
        r"with\s+the\s+exception\s+of|(?<=years)\s+but|(?<=year)\s+but)")
# ("2022 minus 2012" is a difference of two years asked, not a year left out: no cue after a number.)
_SEP = r"(?:\s*,\s*(?:and\s+|or\s+|&\s*)?|\s+and\s+|\s+or\s+|\s*&\s*)"
_LEFT_YEARS_RE = re.compile(_CUE + r"\s+(?:the\s+)?(?:years?\s+(?:of\s+)?)?(" + _Y + r"(?:" + _SEP + _Y +
                            r")*)(?:\s+at\s+all)?\b(?!\s*(?:-|–|to|through|thru)\s*\d)", re.I)
# "leave 2020 out of it", "take 2020 and 2021 out": the cue around the years, a verb before and "out" after.
_AROUND = (r"\b(?:leav(?:e|es|ing)|left|tak(?:e|es|ing)|took|drop(?:s|ping)?|cut(?:s|ting)?|knock(?:s|ing)?|"
           r"throw(?:s|ing)?|toss(?:es|ing)?|keep(?:s|ing)?|kept)\s+")
_OUT = r"\s+(?:out|off|away)\b(?:\s+of\s+(?:it|that|this|them|the\s+\w+))?"
_LEFT_YEARS_AROUND_RE = re.compile(_AROUND + r"(?:the\s+)?(?:years?\s+(?:of\s+)?)?(" + _Y + r"(?:" + _SEP + _Y + r")*)" +
                                   _OUT, re.I)
_SEASON_WORD = r"(?:summer(?:time|s)?|winter(?:time|s)?|spring(?:time)?|autumn|fall)"
_MONTHISH = r"(?:" + _MONTH_WORD.replace("(", "(?:", 1) + "|" + _SEASON_WORD + r")"
# Month names need no comma between them ("not counting june july and august").
_LEFT_MONTHS_RE = re.compile(_CUE + r"\s+(?:(?:the|in|during)\s+)*(?:months?\s+(?:of\s+)?)?(" + _MONTHISH +
                             r"(?:(?:" + _SEP + r"|\s+)(?:(?:the|in)\s+)?" + _MONTHISH + r")*)(?:\s+at\s+all)?\b",
                             re.I)
# "Every year but 2020", "all years except 2020": the whole record, less those years.
ALL_YEARS_RE = re.compile(r"\b(?:all|every|each)\s+(?:the\s+|of\s+the\s+)?years?\b|\ball\s+time\b|"
                          r"\b(?:since\s+records\s+began|in\s+the\s+(?:whole|entire)\s+(?:data|record))\b|"
                          # "other than 2021, what's the deadliest year": the years ranked are the record's
                          r"\b(?:which|what)\s+year\b|\b(?:deadliest|worst|bloodiest|safest|best|quietest|"
                          r"most\s+violent|least\s+violent)\s+year\b|\byear\s+(?:with|had)\s+the\s+(?:most|fewest|"
                          r"least|highest|lowest)\b", re.I)


@dataclass
class LeftOut:
    years: list[int] = field(default_factory=list)
    months: list[int] = field(default_factory=list)
    year_spans: list[tuple] = field(default_factory=list)
    month_spans: list[tuple] = field(default_factory=list)


def read_left_out(low: str) -> LeftOut:
    """The years and the months (1-12) ``low`` leaves out, with the text that says so."""
    out = LeftOut()
    for m in [*_LEFT_YEARS_RE.finditer(low), *_LEFT_YEARS_AROUND_RE.finditer(low)]:
        out.years += [int(y) for y in re.findall(_Y, m.group(1)) if int(y) not in out.years]
        out.year_spans.append(m.span())
    for m in _LEFT_MONTHS_RE.finditer(low):
        for word in re.findall(_MONTHISH, m.group(1), re.I):
            out.months += [n for n in _months_of(word) if n not in out.months]
        out.month_spans.append(m.span())
    return out


def _months_of(word: str) -> list[int]:
    for pattern, months in _SEASONS:
        if pattern.search(word if not word.lower().startswith("fall") else "the fall"):
            return list(months)
    return [_month_number(word)]


def kept_years(left: LeftOut, low: str, periods: list, coverage: dict) -> list[int]:
    """The years asked about once ``left.years`` are taken out of the range they lie in (the question's range, as
    extract_years reads it, or the whole record for "every year but 2020"); [] when no range holds them."""
    if not left.years:
        return []
    span = next((p for p in periods if all(p["start"] <= y <= p["end"] for y in left.years)), None)
    if span is not None:
        first, last = span["start"], span["end"]
    elif not periods and ALL_YEARS_RE.search(low):
        first, last = coverage["first"], coverage["last"]
    else:
        return []
    return [y for y in range(first, last + 1) if y not in left.years]


def kept_months(left: LeftOut, named: list[int]) -> list[int]:
    """The months asked about: those named (else the whole year) less those left out."""
    return [m for m in (named or range(1, 13)) if m not in left.months]

