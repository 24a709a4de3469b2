"""Periods against data: which rows a period picks, whether the data covers it, and how much of each year it is.

A dataset's frame carries its time as columns: ``date`` (YYYY-MM-DD), ``month`` (YYYY-MM), ``quarter``
(YYYYQn) and ``year``; a period is applied through the finest of them the frame has.
"""
from __future__ import annotations

import calendar
import datetime as dt

import pandas as pd

from semantic.errors import QueryError
from semantic.query import Period


def bounds_of(text: str, end: bool) -> str:
    """A coverage bound ("2001-01-01", "2024-09", "2025Q4", "2012") as a day."""
    text = str(text)
    if len(text) == 10:
        return text
    if "Q" in text:
        year, q = int(text[:4]), int(text[-1])
        month = q * 3 if end else q * 3 - 2
    elif len(text) == 7:
        year, month = int(text[:4]), int(text[5:7])
    else:
        year, month = int(text[:4]), 12 if end else 1
    day = calendar.monthrange(year, month)[1] if end else 1
    return f"{year:04d}-{month:02d}-{day:02d}"


def member_bounds(kind: str, value) -> tuple[str, str]:
    """The first and last day of one member of a period."""
    if kind == "years":
        return f"{value}-01-01", f"{value}-12-31"
    return bounds_of(value, False), bounds_of(value, True)


def period_bounds(period: Period) -> tuple[str, str]:
    if period.kind == "span":
        return period.start, period.end
    first, last = member_bounds(period.kind, period.values[0]), member_bounds(period.kind, period.values[-1])
    return first[0], last[1]


def check_coverage(period: Period, title: str, coverage: tuple, caveats: list) -> None:
    """Refuse a period member wholly outside the data, by name; say where a period runs past its edge."""
    first, last = bounds_of(coverage[0], False), bounds_of(coverage[1], True)
    members = [(period.label(), *period_bounds(period))] if period.kind == "span" else [
        (str(v), *member_bounds(period.kind, v)) for v in period.values]
    for label, start, end in members:
        if end < first or start > last:
            raise QueryError(f"{label} is not in the data: {title} covers {coverage[0]} to {coverage[1]}",
                             "period_out_of_range")
        if start < first or end > last:
            caveats.append(f"{label} is only partly in the data: {title} covers {coverage[0]} to {coverage[1]}.")


def latest_held(period: Period, coverage: tuple) -> Period | None:
    """Where a period asks for a fallback and the data ends before every member of it, the latest period of the same
    kind the data holds ("latest_full": the latest whole one, so 2022 where homicides end on 2023-07-19), or the
    period the user named instead where the data holds none of it; else None."""
    if not period.fallback or period.kind == "span":
        return None
    first, last = bounds_of(coverage[0], False), bounds_of(coverage[1], True)
    if isinstance(period.fallback, Period):  # the user's own: where the data holds none of the period asked
        held = [v for v in period.values if member_bounds(period.kind, v)[1] >= first
                and member_bounds(period.kind, v)[0] <= last]
        return None if held else period.fallback
    if any(member_bounds(period.kind, v)[0] <= last for v in period.values):
        return None
    full = period.fallback == "latest_full"
    if period.kind == "years":
        year = int(last[:4]) - (1 if full and not last.endswith("-12-31") else 0)
        return Period("years", [year])
    if period.kind == "months":
        month = last[:7]
        if full and bounds_of(month, True) != last:
            month = (pd.Period(month, "M") - 1).strftime("%Y-%m")
        return Period("months", [month])
    quarter = f"{last[:4]}Q{(int(last[5:7]) - 1) // 3 + 1}"
    if full and bounds_of(quarter, True) != last:
        quarter = str(pd.Period(quarter, "Q") - 1)
    return Period("quarters", [quarter])


def _quarter_of(month: pd.Series) -> pd.Series:
    return month.str[:4] + "Q" + ((month.str[5:7].astype(int) - 1) // 3 + 1).astype(str)


def apply(frame: pd.DataFrame, period: Period, what: str) -> pd.DataFrame:
    """The rows of ``frame`` inside ``period``; a period finer than the frame's time is a QueryError."""
    cols = frame.columns
    if period.kind == "years":
        return frame[frame["year"].isin(period.values)]
    if period.kind == "span":
        if "date" in cols and "year" in cols and period.start.endswith("-01-01") and period.end.endswith("-12-31"):
            # whole years: the rows' year (the same rows as their dates, compared as numbers, not text)
            return frame[frame["year"].between(int(period.start[:4]), int(period.end[:4]))]
        if "date" in cols:
            return frame[(frame["date"] >= period.start) & (frame["date"] <= period.end)]
        if "month" in cols:
            return frame[(frame["month"] >= period.start[:7]) & (frame["month"] <= period.end[:7])]
        if "quarter" in cols:
            first = _quarter_of(pd.Series([period.start[:7]])).iloc[0]
            last = _quarter_of(pd.Series([period.end[:7]])).iloc[0]
            return frame[(frame["quarter"] >= first) & (frame["quarter"] <= last)]
        return frame[frame["year"].between(int(period.start[:4]), int(period.end[:4]))]
    if period.kind == "months":
        if "month" in cols:
            return frame[frame["month"].isin(period.values)]
        if "date" in cols:
            return frame[frame["date"].str[:7].isin(period.values)]
        raise QueryError(f"{what} is not published by month", "invalid_period")
    if "quarter" in cols:
        return frame[frame["quarter"].isin(period.values)]
    if "month" in cols:
        return frame[_quarter_of(frame["month"]).isin(period.values)]
    if "date" in cols:
        return frame[_quarter_of(frame["date"].str[:7]).isin(period.values)]
    raise QueryError(f"{what} is not published by quarter", "invalid_period")


def year_fractions(period: Period | None, years: list[int]) -> dict[int, float]:
    """How much of each year a period covers (1.0 for a whole year): the person-years of a rate."""
    if period is None:
        return {y: 1.0 for y in years}
    if period.kind == "years":
        return {y: 1.0 for y in period.values}
    start, end = period_bounds(period) if period.kind != "span" else (period.start, period.end)
    out: dict[int, float] = {}
    spans = [(start, end)] if period.kind == "span" else [member_bounds(period.kind, v) for v in period.values]
    for lo, hi in spans:
        day, last = dt.date.fromisoformat(lo), dt.date.fromisoformat(hi)
        for year in range(day.year, last.year + 1):
            a, b = max(day, dt.date(year, 1, 1)), min(last, dt.date(year, 12, 31))
            length = 366 if calendar.isleap(year) else 365
            out[year] = out.get(year, 0.0) + ((b - a).days + 1) / length
    return out


def domain(dimension: str, period: Period | None, coverage: tuple) -> list | None:
    """Every member a time dimension takes in the period (inside the data), so empty ones count as 0."""
    first, last = bounds_of(coverage[0], False), bounds_of(coverage[1], True)
    if period is not None:
        lo, hi = period_bounds(period)
        first, last = max(first, lo), min(last, hi)
    if first > last:
        return []
    if dimension == "year":
        years = range(int(first[:4]), int(last[:4]) + 1)
        return [y for y in years if period is None or period.kind != "years" or y in period.values]
    if dimension == "month":
        months = pd.period_range(first[:7], last[:7], freq="M").strftime("%Y-%m").tolist()
        return [m for m in months if period is None or period.kind != "months" or m in period.values]
    if dimension == "quarter":
        quarters = [f"{p.year}Q{p.quarter}" for p in pd.period_range(first[:7], last[:7], freq="Q")]
        return [q for q in quarters if period is None or period.kind != "quarters" or q in period.values]
    if dimension == "calendar_month":
        return list(range(1, 13))
    return None
