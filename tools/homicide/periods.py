"""The period a homicide count covers: a year range, a list of separate years, or a date span; plus hours of day.

A period is resolved once per call into the semantic layer's period (the query's ``period``) and the words the
answer uses for it, so the rest of the tool (grouping, caveats, the per-year average) reads one object instead of
re-deriving years from arguments.
"""
from __future__ import annotations

import calendar
import datetime
import re
from dataclasses import dataclass

from tools.common import check_year_range, fmt_num
from tools.errors import ToolArgumentError
from tools.homicide.common import number_set, resolve_years, years_label, years_phrase

_DATE = re.compile(r"(\d{4})-(\d{1,2})(?:-(\d{1,2}))?")


@dataclass
class Period:
    """Rows of one period: ``start``/``end`` are its first and last calendar years."""

    start: int
    end: int
    query: dict  # the layer's period: {"years": [...]} or {"start": ..., "end": ...}
    phrase: str  # how the answer names it: "years 2019-2022", "2019-12-01 to 2020-01-31"
    filters: dict
    years: list | None = None  # separate years, when the call listed them
    first_day: str | None = None  # a date span, when the call gave one
    last_day: str | None = None

    @property
    def year_count(self) -> int:
        return len(self.years) if self.years else self.end - self.start + 1

    @property
    def each_year(self) -> list[int]:
        return list(self.years) if self.years else list(range(self.start, self.end + 1))


def resolve_period(data, year=None, start_year=None, end_year=None, years=None,
                   start_date=None, end_date=None, months=None) -> Period:
    """One of: year / start_year-end_year, years (a list), or start_date-end_date; mixing them is an error."""
    year_fields = [name for name, value in (("year", year), ("start_year", start_year), ("end_year", end_year))
                   if value is not None]
    if start_date is not None or end_date is not None:
        mixed = year_fields + (["years"] if years else []) + (["months"] if months else [])
        if mixed:
            raise ToolArgumentError(f"give start_date/end_date or {', '.join(mixed)}, not both: a date span "
                                    "already fixes the years and months", "conflicting_arguments")
        return _date_period(data, start_date, end_date)
    if years:
        if year_fields:
            # A list inside the range it is given with means the list ("start_year 2011, end_year 2019, years 2011,
            # 2013, ..."; a model wrote "years": [2020] beside start_year = end_year = 2020): the range only bounds it.
            start, end = resolve_years(data, year, start_year, end_year)
            if not all(isinstance(y, int) and start <= y <= end for y in years):
                raise ToolArgumentError(f"give 'years' (a list of separate years) or {', '.join(year_fields)}, "
                                        "not both", "conflicting_arguments")
        chosen = sorted({check_year_range(data, y, y)[0] for y in years})
        label = number_set(chosen)
        return Period(chosen[0], chosen[-1], {"years": chosen}, f"years {label}",
                      {"years": label, "year_list": chosen}, years=chosen)
    start, end = resolve_years(data, year, start_year, end_year)
    return Period(start, end, {"start": str(start), "end": str(end)}, years_phrase(start, end),
                  {"years": years_label(start, end)})


def _date_period(data, start_date, end_date) -> Period:
    cov = data.coverage["homicides"]
    first = _parse_date(start_date, "start_date", first=True) if start_date is not None else cov["start"]
    last = _parse_date(end_date, "end_date", first=False) if end_date is not None else cov["end"]
    # A whole month named as the end ("2023-07") may run past the snapshot: it means "to the data's end".
    if end_date is not None and _is_month(end_date) and first <= cov["end"] < last:
        last = cov["end"]
    for name, day in (("start_date", first), ("end_date", last)):
        if not cov["start"] <= day <= cov["end"]:
            raise ToolArgumentError(f"{name} {day} is outside the homicide data, which covers {cov['start']} to "
                                    f"{cov['end']}", "out_of_range")
    if first > last:
        raise ToolArgumentError(f"start_date {first} is after end_date {last}", "out_of_range")
    return Period(int(first[:4]), int(last[:4]), {"start": first, "end": last}, f"{first} to {last}",
                  {"years": years_label(int(first[:4]), int(last[:4])), "start_date": first, "end_date": last},
                  first_day=first, last_day=last)


def _is_month(text) -> bool:
    match = _DATE.fullmatch(str(text).strip())
    return bool(match) and match.group(3) is None


def _parse_date(text, name: str, first: bool) -> str:
    """'YYYY-MM-DD' as is, or 'YYYY-MM' as the month's first (start) or last (end) day; ISO text back."""
    match = _DATE.fullmatch(str(text).strip())
    problem = f"'{name}' = {str(text)[:40]!r} is not a date; use YYYY-MM-DD (e.g. 2019-12-01) or YYYY-MM (a whole month)"
    if not match:
        raise ToolArgumentError(problem, "invalid_argument")
    y, m = int(match.group(1)), int(match.group(2))
    if not 1 <= m <= 12:
        raise ToolArgumentError(problem, "invalid_argument")
    last_day = calendar.monthrange(y, m)[1]
    d = int(match.group(3)) if match.group(3) else (1 if first else last_day)
    if not 1 <= d <= last_day:
        raise ToolArgumentError(problem, "invalid_argument")
    return f"{y:04d}-{m:02d}-{d:02d}"


# ------------------------------------------------------------------ hours of the day

def hour_runs(hours: list[int]) -> list[list[int]]:
    """Hours as runs that may wrap past midnight: [21, 22, 23, 0, 1] is one run, 21 first."""
    chosen = sorted(set(hours))
    if len(chosen) == 24:
        return [list(range(24))]
    runs: list[list[int]] = []
    for h in chosen:
        if runs and runs[-1][-1] == h - 1:
            runs[-1].append(h)
        else:
            runs.append([h])
    if len(runs) > 1 and runs[0][0] == 0 and runs[-1][-1] == 23:  # the night run crosses midnight
        runs[0] = runs.pop() + runs[0]
    return runs


def hours_phrase(hours: list[int]) -> str:
    spans = [f"between {run[0]:02d}:00 and {run[-1]:02d}:59" for run in hour_runs(hours)]
    return " or ".join(spans)


# ------------------------------------------------------------------ the per-year average

def yearly_average(data, period: Period, total: int, window_start: str | None = None) -> tuple[dict, str, str]:
    """Values, words ("an average of 586.3 a year") and a partial-year note, when the period spans several
    whole years; a date span gets none (a December-January span is not two years of homicides).
    ``window_start`` ("12-25", "06-01") is the first calendar day the call's month or day filter keeps: a partial
    last year whose data end before it holds none of those days, so it is left out of the divisor and said to be
    (Christmas Day 2001-2023 is 22 Christmases in the data, not 23)."""
    if period.first_day or period.year_count < 2:
        return {}, "", ""
    cov = data.coverage["homicides"]
    last = cov["last_year"]
    in_period = last in period.years if period.years else period.start <= last <= period.end
    partial_last = in_period and not cov["end"].endswith("-12-31")
    years = period.year_count
    if partial_last and window_start and cov["end"][5:] < window_start:
        years -= 1
        average = round(total / years, 1)
        values = {"per_year_average": average, "per_year_years": years,
                  "year_left_out": {"year": last, "data_end": cov["end"]}}
        return (values, f"an average of {fmt_num(average)} a year",
                f" ({last} left out: its data end {cov['end']}, before the days asked)")
    average = round(total / years, 1)
    values = {"per_year_average": average, "per_year_years": years}
    partial = ""
    if partial_last:  # the average counts the partial year as a year
        values["partial_year"] = {"year": last, "data_end": cov["end"]}
        partial = f" ({last} is partial: data end {cov['end']})"
    return values, f"an average of {fmt_num(average)} a year", partial


def daily_average(data, period: Period, total: int, days_filtered: bool) -> dict:
    """The per-day average over the calendar days the period covers ("how many a day in 2021": 804 / 365 = 2.2),
    a partial last year counted to the data's end and a date span by its own days; {} where months, weekdays or
    hours narrow the days counted (their days are not the period's)."""
    if days_filtered:
        return {}
    end = datetime.date.fromisoformat(data.coverage["homicides"]["end"][:10])
    if period.first_day and period.last_day:
        spans = [(datetime.date.fromisoformat(period.first_day[:10]), datetime.date.fromisoformat(period.last_day[:10]))]
    else:
        spans = [(datetime.date(y, 1, 1), datetime.date(y, 12, 31)) for y in period.each_year]
    days = sum(max(0, (min(b, end) - a).days + 1) for a, b in spans)
    return {"per_day_average": round(total / days, 2), "per_day_days": days} if days else {}


def monthly_average(data, period: Period, total: int, months_filtered: bool) -> dict:
    """The per-month average over the months a whole-year period covers ("how many a month on average in 2020":
    787 / 12 = 65.6); {} for a date span, a month filter, or a period reaching into the partial last year, whose
    last month is itself partial."""
    if period.first_day or months_filtered:
        return {}
    cov = data.coverage["homicides"]
    years = period.years or range(period.start, period.end + 1)
    if cov["last_year"] in years and not cov["end"].endswith("-12-31"):
        return {}
    months = period.year_count * 12
    return {"per_month_average": round(total / months, 1), "per_month_months": months}
