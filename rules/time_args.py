"""The homicide tool's time arguments from the reading's time expressions (analyzer/times.py): separate years, a
month or date span, hours of the day; and one call per span when the question sets spans against each other
("so far this year vs the same stretch last year", "at night or during the day")."""
from __future__ import annotations

from analyzer.analysis import Analysis

_YEAR_ARGS = ("year", "start_year", "end_year")
MAX_VARIANTS = 4


def has_time_filters(analysis: Analysis) -> bool:
    return bool(analysis.year_list or analysis.date_spans or analysis.hour_spans or analysis.weekdays
                or analysis.month_days or analysis.holidays)


def with_times(analysis: Analysis, base: dict) -> dict:
    """``base`` with the first date span (or the separate years) in place of its year range and months, and the
    first hours; the tool takes a date span or a list of years, never both with a range."""
    out = dict(base)
    if analysis.date_spans:
        for key in (*_YEAR_ARGS, "months"):
            out.pop(key, None)
        out["start_date"], out["end_date"] = analysis.date_spans[0].start, analysis.date_spans[0].end
        if out.get("group_by") == "year":
            del out["group_by"]  # the years only date the span
    elif analysis.year_list:
        for key in _YEAR_ARGS:
            out.pop(key, None)
        out["years"] = list(analysis.year_list)
        out.setdefault("group_by", "year")  # each year listed, not only their total
    if analysis.hour_spans:
        out["hours"] = list(analysis.hour_spans[0].hours)
    if analysis.weekdays:
        out["weekdays"] = list(analysis.weekdays)
    if analysis.month_days:
        out["month_days"] = list(analysis.month_days)
    if analysis.holidays:
        out["holidays"] = list(analysis.holidays)
    return out


def time_variants(analysis: Analysis, base: dict) -> list[dict]:
    """One set of arguments per date span and per hours span named (each count stated, then their change)."""
    variants = [base]
    if len(analysis.date_spans) >= 2:
        variants = [{**v, "start_date": d.start, "end_date": d.end} for v in variants for d in analysis.date_spans]
    if len(analysis.hour_spans) >= 2:
        variants = [{**v, "hours": list(h.hours)} for v in variants for h in analysis.hour_spans]
    return variants[:MAX_VARIANTS]
