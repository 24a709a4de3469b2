"""Each part of a question with its own period: "how many homicides in 2020, and what percent of 2016-2022
homicides there led to an arrest", "in the area with the most homicides in 2021, what was the arrest rate over
2016-2020".

Read as one span, every measure got the widest period and the figure asked of the other part was missing (a silent
miss: the 2016-2022 count stood where the 2020 count was asked). Here each clause's period is read with the same
grammar as the whole question's (``extract_years``) and bound to the timed measure that clause names; the query
then carries each measure with its own period (semantic/query.py).

No word list lives here: the clauses' measures come from the analyzer's own metric reading and the ranking words
from its own ranking reading, both passed in.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# Where a question's parts divide: punctuation, a dash between words, or "and"/"but" opening a new question
# ("... in 2020 and what percent of ..."). "2019 and 2020" is one part (the lookahead needs a question word).
_CLAUSE_RE = re.compile(r"[;:?!]|,(?!\d)|\s[-\u2013\u2014]\s|\b(?:and|but|while|whereas)\s+(?=(?:what|how|which|who|"
                        r"its|their|did|was|were|is|are|has|had|then)\b)")
# A percent or share asked of the arrests ("what percent ... led to an arrest"): the arrest rate, not the count.
_SHARE_RE = re.compile(r"%|\bper\s?cent|\bshare\b|\bproportion\b|\bfraction\b|\brate\b|\bratio\b")


# A change between two years, written with both ends ("the percent change in homicides from 2019 to 2020",
# "how much did they rise between 2019 and 2021"): the two years, not the span between them.
_CHANGE_RE = re.compile(r"\b(?:change[ds]?|rise|rose|risen|increase[ds]?|decrease[ds]?|drop(?:ped)?|fell|fall|grew|"
                        r"growth|jump(?:ed)?|went)\b[^;:?!]{0,60}?\b(?:from|between)\s+(?:19|20)\d\d\s+(?:to|and|through|"
                        r"-)\s+(?:19|20)\d\d\b")


@dataclass(frozen=True)
class BoundPeriod:
    measure: str  # the layer's measure ("homicides", "arrest_rate", "homicide_rate", ...)
    period: dict  # {"year": 2020} or {"start": "2016", "end": "2022"}
    ranks: bool = False  # the clause that ranks the places ("the area with the most homicides in 2021")
    months: tuple = ()  # months of the year the clause keeps ("summer 2022 (June through August)")
    change: bool = False  # the clause asks the change between its span's two years ("the % change from 2019 to 2020")


def _clauses(low: str) -> list[str]:
    out, start = [], 0
    for m in _CLAUSE_RE.finditer(low):
        out.append(low[start:m.start()])
        start = m.end()
    out.append(low[start:])
    return [c for c in out if c.strip()]


def _period(when: dict) -> dict | None | bool:
    """The clause's one period; None where it names none; False where it names more than one (a comparison)."""
    periods, years = when.get("periods") or [], when.get("years") or []
    if len(periods) == 1 and set(years) <= {periods[0]["start"], periods[0]["end"]}:
        span = periods[0]
        if span["start"] == span["end"]:
            return {"year": span["start"]}
        return {"start": str(span["start"]), "end": str(span["end"])}
    if not periods and len(years) == 1:
        return {"year": years[0]}
    return None if not periods and not years else False


def _measure(metrics: list, clause: str, per_capita: bool) -> str | None:
    """The timed measure a clause names: a rate, the arrests (as a share where one is asked), the domestic ones or
    the homicides; None where it names none."""
    if "homicides" not in metrics and "arrests" not in metrics:
        return None
    if "arrests" in metrics:  # "the arrest rate" is no rate per resident
        return "arrest_rate" if _SHARE_RE.search(clause) else "arrests"
    if per_capita:
        return "homicide_rate"
    if "domestic" in metrics:
        return "domestic_homicides"
    return "homicides"


def read_bound_periods(low: str, years_of, metrics_of, per_capita_of, ranks_of, months_of) -> list[BoundPeriod]:
    """The (measure, period) of each clause that names both, in the question's order; [] unless at least two
    clauses do with different periods, every dated clause names a timed measure, and either the measures differ or
    the first ranks the places (the same measure over two periods is a comparison the rest of the reader makes).
    A dated clause naming no measure ("Summer 2022 (June through August): which area had the most homicides")
    dates the next clause that names one and no date of its own.

    ``years_of(text)``: the analyzer's years and periods of a text; ``metrics_of(text)``: its metrics;
    ``per_capita_of(text)``: whether it asks for a rate; ``ranks_of(text)``: whether it ranks places;
    ``months_of(text)``: the months of the year it names."""
    bound: list[BoundPeriod] = []
    carried = None
    for clause in _clauses(low):
        period, months = _period(years_of(clause)), tuple(months_of(clause))
        if period is False:
            return []
        measure = _measure(metrics_of(clause), clause, per_capita_of(clause))
        if period is None and carried and measure:
            (period, months), carried = carried, None
        if period is None:
            continue
        if measure is None:
            if carried:
                return []
            carried = (period, months)
            continue
        change = "start" in period and bool(_CHANGE_RE.search(clause))
        if change and ranks_of(clause):
            return []  # "the biggest jump in homicides from 2019 to 2021": a change ranked (rules' ranked_change)
        bound.append(BoundPeriod(measure, period, ranks_of(clause), months, change))
    if carried or len(bound) < 2 or len({(str(b.period), b.months) for b in bound}) < 2:
        return []
    if len({b.measure for b in bound}) < 2 and not bound[0].ranks:
        return []
    if any(b.ranks for b in bound[1:]):
        return []  # a ranking after the first part ("and which had the most in 2022") is a question of its own
    return bound
