"""Holidays whose date moves from year to year, each year's own dates: "on Thanksgiving since 2010" is November 25,
2010, November 24, 2011, ... A fixed calendar day (Christmas, July 4) is a ``month_day`` instead.

The rules live in the semantic layer (the ``holiday`` dimension filters rows by them); the homicide tool imports
them from here, so both count the same days.

A weekend is said with its days ("Memorial Day weekend, Saturday to Monday"), since people and newspapers draw
it differently; the answer names the days it counted."""
from __future__ import annotations

import calendar
import datetime

from dateutil.easter import easter  # pandas' own dependency: Western Easter by the Gregorian computus


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> datetime.date:
    """The ``n``-th ``weekday`` (0 = Monday) of a month; n = -1 is the last."""
    days = [d for d in range(1, calendar.monthrange(year, month)[1] + 1)
            if datetime.date(year, month, d).weekday() == weekday]
    return datetime.date(year, month, days[n if n < 0 else n - 1])


def _run(first: datetime.date, days: int) -> list[datetime.date]:
    return [first + datetime.timedelta(days=n) for n in range(days)]


# name -> (how it is said, with its preposition; its rule in words; the dates of a year)
HOLIDAYS = {
    "mlk_day": ("on Martin Luther King Jr. Day", "the third Monday of January",
                lambda y: [_nth_weekday(y, 1, 0, 3)]),
    "presidents_day": ("on Presidents' Day", "the third Monday of February", lambda y: [_nth_weekday(y, 2, 0, 3)]),
    "easter": ("on Easter Sunday", "Western Easter", lambda y: [easter(y)]),
    "mothers_day": ("on Mother's Day", "the second Sunday of May", lambda y: [_nth_weekday(y, 5, 6, 2)]),
    "memorial_day": ("on Memorial Day", "the last Monday of May", lambda y: [_nth_weekday(y, 5, 0, -1)]),
    "memorial_day_weekend": ("on Memorial Day weekend", "Saturday to Memorial Day Monday",
                             lambda y: _run(_nth_weekday(y, 5, 0, -1) - datetime.timedelta(days=2), 3)),
    "fathers_day": ("on Father's Day", "the third Sunday of June", lambda y: [_nth_weekday(y, 6, 6, 3)]),
    "labor_day": ("on Labor Day", "the first Monday of September", lambda y: [_nth_weekday(y, 9, 0, 1)]),
    "labor_day_weekend": ("on Labor Day weekend", "Saturday to Labor Day Monday",
                          lambda y: _run(_nth_weekday(y, 9, 0, 1) - datetime.timedelta(days=2), 3)),
    "memorial_day_to_labor_day": ("from Memorial Day to Labor Day", "both days included",
                                  lambda y: _run(_nth_weekday(y, 5, 0, -1), (_nth_weekday(y, 9, 0, 1)
                                                                             - _nth_weekday(y, 5, 0, -1)).days + 1)),
    "thanksgiving": ("on Thanksgiving", "the fourth Thursday of November", lambda y: [_nth_weekday(y, 11, 3, 4)]),
    "black_friday": ("on Black Friday", "the day after Thanksgiving",
                     lambda y: [_nth_weekday(y, 11, 3, 4) + datetime.timedelta(days=1)]),
    "thanksgiving_weekend": ("on Thanksgiving weekend", "Thanksgiving Thursday to Sunday",
                             lambda y: _run(_nth_weekday(y, 11, 3, 4), 4)),
}
HOLIDAY_NAMES = list(HOLIDAYS)


def holiday_dates(names: list[str], years: range | list[int]) -> list[datetime.date]:
    """Every date the holidays ``names`` fall on in ``years``, in order."""
    return sorted({d for name in names for y in years for d in HOLIDAYS[name][2](y)})


def _day(date: datetime.date, year: bool) -> str:
    return f"{calendar.month_name[date.month]} {date.day}" + (f", {date.year}" if year else "")


def holidays_phrase(names: list[str], year: int | None = None) -> str:
    """"on Thanksgiving (the fourth Thursday of November, each year)"; with one year, the dates themselves: "on Memorial Day
    weekend (May 25 to May 27, 2019)"."""
    parts = []
    for name in names:
        label, rule, dates_of = HOLIDAYS[name]
        if year is None:
            parts.append(f"{label} ({rule}, each year)")
            continue
        dates = dates_of(year)
        when = _day(dates[0], True) if len(dates) == 1 else f"{_day(dates[0], False)} to {_day(dates[-1], True)}"
        parts.append(f"{label} ({when})")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def holiday_day_strings(names: list[str], years) -> set[str]:
    """The holidays' dates in ``years`` as YYYY-MM-DD, the way the layer's frames write a date."""
    return {d.isoformat() for d in holiday_dates(names, years)}


def earliest_day(names: list[str], years) -> str | None:
    """The earliest MM-DD any of the holidays falls on in ``years``: a partial last year that ended before it
    holds none of them (its yearly average leaves that year out)."""
    dates = holiday_dates(names, years)
    return min(f"{d.month:02d}-{d.day:02d}" for d in dates) if dates else None
