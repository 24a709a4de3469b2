"""Holidays whose date moves from year to year ("on Thanksgiving", "Memorial Day weekend 2019"), read as the
homicide tool's ``holidays`` (tools/homicide/holidays.py: each year's own date); and runs of days that start or end
on one ("from Memorial Day to Labor Day", "between thanksgiving and christmas 2019").

A run between a moving holiday and another day is a date span when the question names one year. Without one (and
other than Memorial Day to Labor Day, which the tool counts in every year), its words are left unread, and the days
at its ends are not read alone: Christmas Day by itself would answer another question."""
from __future__ import annotations

import datetime
import functools
import re

from tools.homicide.holidays import HOLIDAYS

# Longest first: "memorial day weekend" before "memorial day", "thanksgiving weekend" before "thanksgiving".
_WORDS = (
    ("memorial_day_weekend", r"memorial\s+day\s+weekend"),
    ("memorial_day", r"memorial\s+day"),
    ("labor_day_weekend", r"labou?r\s+day\s+weekend"),
    ("labor_day", r"labou?r\s+day"),
    ("thanksgiving_weekend", r"thanksgiving(?:\s+day)?\s+weekend"),
    ("black_friday", r"black\s+friday"),
    ("thanksgiving", r"thanksgiving(?:\s+day)?"),
    ("mothers_day", r"mother'?s'?\s+day"),
    ("fathers_day", r"father'?s'?\s+day"),
    ("mlk_day", r"(?:mlk|martin\s+luther\s+king)(?:,?\s+jr\.?)?\s+day"),
    ("presidents_day", r"presidents?'?\s+day"),
    ("easter", r"easter(?:\s+sunday)?"),
)
_HOLIDAY_RE = re.compile(r"\b(?:" + "|".join(f"(?P<{name}>{words})" for name, words in _WORDS) + r")(?![\w'])", re.I)
_SEP = r"\s*(?:-|–|to|through|thru|till|until|and)\s*"


def _one(name: str, year: int) -> tuple[datetime.date, datetime.date]:
    dates = HOLIDAYS[name][2](year)
    return dates[0], dates[-1]


@functools.lru_cache(maxsize=2)
def _patterns(day_word: str) -> tuple[re.Pattern, re.Pattern]:
    """A run of days with a moving holiday at one end, and a fixed day's weekend: built once, not per question."""
    end = r"(?:" + _HOLIDAY_RE.pattern + r"|(?P<fixed_b>" + day_word + r"))"
    start = r"(?:" + _HOLIDAY_RE.pattern.replace("(?P<", "(?P<a_") + r"|(?P<fixed_a>" + day_word + r"))"
    run_re = re.compile(r"(?:\b(?P<open>from|between)\s+)?(?:the\s+)?" + start + _SEP + r"(?:the\s+)?" + end, re.I)
    return run_re, re.compile(r"(?:" + day_word + r")\s+weekend\b", re.I)


def read_moving_holidays(low: str, day_word: str, day_of, named_years: list[int],
                         written: list[tuple[str, str]] | None = None) -> tuple[list, list, list, list]:
    """(holiday names, date spans as (first, last) ISO days, the text spans read, the text spans left unread: no
    other reader may take their words, and they are reported as not used) of ``low``. ``day_word`` is the pattern
    of a fixed day ("christmas eve", "december 24") and ``day_of`` its (month, day); ``named_years``: the years the
    question writes; ``written``: the date spans read from its dates."""
    names, spans_read, runs, unread = [], [], [], []
    run_re, weekend_re = _patterns(day_word)
    for m in run_re.finditer(low):
        first = next((n for n, _ in _WORDS if m.group("a_" + n)), None)
        last = next((n for n, _ in _WORDS if m.group(n)), None)
        if not (first or last) or (" and" in m.group(0).lower() and not m.group("open")):
            continue  # two fixed days are times.py's; "memorial day and labor day": two days, not a run
        if first == "memorial_day" and last == "labor_day":
            names.append("memorial_day_to_labor_day")
            spans_read.append(m.span())
            continue
        if len(set(named_years)) != 1:
            unread.append(m.span())
            continue
        try:
            runs.append(_run(first, last, m, named_years[0], day_of))
            spans_read.append(m.span())
        except (TypeError, ValueError):  # a day no calendar of that year has ("february 29 2019")
            unread.append(m.span())
    # "the 4th of July weekend": which days it holds moves with the weekday July 4 falls on, and people draw it
    # differently; read as July 4 on a weekend it would answer another question.
    unread += [m.span() for m in weekend_re.finditer(low)]
    for m in _HOLIDAY_RE.finditer(low):
        if any(s <= m.start() < e for s, e in spans_read + unread):
            continue
        names.append(next(n for n, _ in _WORDS if m.group(n)))
        spans_read.append(m.span())
    if len(set(named_years)) == 1:
        # "between memorial day and labor day 2019 (may 27 to sept 2)": the dates written are the same days
        names = [n for n in names if _iso(n, named_years[0]) not in runs + (written or [])]
    return sorted(set(names), key=list(HOLIDAYS).index), runs, spans_read, unread


def _run(first: str | None, last: str | None, m: re.Match, year: int, day_of) -> tuple[str, str]:
    """The run's first and last ISO days in ``year``; one that passes December 31 ends the next year."""
    begin = _one(first, year)[0] if first else datetime.date(year, *day_of(m.group("fixed_a")))
    if last:
        finish = _one(last, year + (_one(last, year)[1] < begin))[1]
    else:
        finish = datetime.date(year, *day_of(m.group("fixed_b")))
        finish = finish if finish >= begin else finish.replace(year=year + 1)
    return begin.isoformat(), finish.isoformat()


def weekdays_beyond(weekdays: list[int], holidays: list[str]) -> list[int]:
    """The days of the week kept (1 = Monday), or none when they only restate the holidays' own days: "memorial day
    weekend (sat thru the monday)" asks for the weekend, not for every Saturday to Monday in it."""
    days = {d.isoweekday() for name in holidays for year in (2019, 2020, 2021) for d in HOLIDAYS[name][2](year)}
    return [] if holidays and days <= set(weekdays) else weekdays


def _iso(name: str, year: int) -> tuple[str, str]:
    first, last = _one(name, year)
    return first.isoformat(), last.isoformat()
