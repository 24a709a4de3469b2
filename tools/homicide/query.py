"""Homicide counts with filters and one grouping: the workhorse homicide tool.

A thin view of the semantic layer: the call's arguments become a query's period and filters (the homicides
dataset's dimensions: places, calendar month, day of the year, moving holiday, weekday, hour, arrest, domestic,
kind of place), and every count is a query of its ``homicides`` and ``arrests`` measures: the total, each group of
a breakdown, the count before the kind filters, the city's, and the rows with no place recorded. "Friday nights"
(hours running past midnight with days of the week) is two disjoint queries added: the hours before midnight on
the days asked, the hours after it on the days after. The tool keeps its schema, the words for its filters, the
order of a ranking (ties, the places with none, a floor) and the per-year and per-month averages of the queried
total, and shapes the answer.
"""
from __future__ import annotations

import calendar
import datetime
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from tools.common import (
    AREA_SCHEMA,
    HOMICIDE_CODE_CAVEAT,
    SORT_SCHEMA,
    fit_text,
    fmt_int,
    fmt_num,
    fmt_pct,
    make_result,
    partial_year_caveat,
)
from tools.errors import ToolArgumentError
from tools.homicide.common import (
    homicide_query,
    ARREST_CAVEAT,
    SMALL_NUMBER_LIMIT,
    WARD_MAP_CAVEAT,
    HomicideArrays,
    location_codes,
    places_set,
    district_name,
    geo_missing_caveat,
    homicide_arrays,
    number_set,
    pct,
)
from semantic.holidays import HOLIDAY_NAMES, earliest_day, holidays_phrase
from tools.homicide.periods import (Period, daily_average, hour_runs, hours_phrase, monthly_average, resolve_period,
                                    yearly_average)
from tools.map_hints import area_map
from tools.registry import Tool
from tools import names

TOOL_NAME = names.HOMICIDES

GROUP_BY = ["year", "month", "weekday", "hour", "ward", "district", "community_area", "location_type", "arrest",
            "domestic"]
TIME_GROUPS = ("year", "month", "weekday", "hour")  # listed in time order, with the peak named
RANK_BY = ["homicides", "arrest_rate"]
# An arrest rate from a handful of cases says little: rank only groups with at least this many.
MIN_FOR_RATE_RANK = 5
ARREST_STATUS = ["any", "arrested", "not_arrested"]
RANKING_GROUPS = {"ward", "district", "community_area", "location_type"}
GEO_COLUMNS = {"ward": "ward", "district": "district", "community_area": "community_area"}

# ------------------------------------------------------------------ the tool

PARAMETERS = {
    "type": "object",
    "properties": {
        "year": {"type": "integer", "description": "a single year 2001-2023 (same as start_year = end_year)"},
        "start_year": {"type": "integer", "description": "first year, 2001-2023 (default 2001)"},
        "end_year": {"type": "integer", "description": "last year, 2001-2023 (default 2023; 2023 is partial)"},
        "ward": {"type": "integer", "minimum": 1, "maximum": 50, "description": "city ward 1-50"},
        "wards": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 50}, "maxItems": 50,
                  "description": "several wards counted together, e.g. [1, 2, 3]"},
        "district": {"type": "integer", "minimum": 1, "maximum": 25,
                     "description": "police district 1-25 (no 13, 21, 23)"},
        "districts": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 25}, "maxItems": 25,
                      "description": "several police districts counted together"},
        "community_area": AREA_SCHEMA,
        "community_areas": {"type": "array", "items": {"type": ["integer", "string"]}, "maxItems": 77,
                            "description": "several community areas counted together (names or numbers)"},
        "city_share": {"type": "boolean",
                       "description": "also give the place's share of the city-wide count (same years and filters)"},
        "arrest_status": {"type": "string", "enum": ARREST_STATUS, "default": "any",
                          "description": "arrested = an arrest was made, not_arrested = none, any = both"},
        "domestic": {"type": "boolean", "description": "true = domestic-related only, false = non-domestic only"},
        "location_type": {"type": "string", "description": "place type, e.g. STREET, APARTMENT, AUTO, ALLEY"},
        "group_by": {"type": "string", "enum": GROUP_BY,
                     "description": "break the count down by this (year/month/weekday/hour = time pattern, "
                                    "others = ranking)"},
        "top_n": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10,
                  "description": "how many groups to list in a ranking"},
        "sort_order": SORT_SCHEMA,
        "months": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 12}, "maxItems": 12,
                   "description": "keep only these calendar months 1-12, e.g. [6, 7, 8] for summer"},
        "rank_by": {"type": "string", "enum": RANK_BY, "default": "homicides",
                    "description": "order a ranking by homicide count or by arrest rate"},
        "years": {"type": "array", "items": {"type": "integer", "minimum": 2001, "maximum": 2023}, "maxItems": 23,
                  "description": "separate years only, e.g. [2016, 2019, 2022] (not with year/start_year/end_year)"},
        "start_date": {"type": "string", "description": "first day YYYY-MM-DD or month YYYY-MM (not with years)"},
        "end_date": {"type": "string", "description": "last day YYYY-MM-DD or month YYYY-MM, inclusive"},
        "weekdays": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 7}, "maxItems": 7,
                     "description": "days of the week to keep, 1 = Monday ... 7 = Sunday, e.g. weekends = [6, 7]"},
        "month_days": {"type": "array", "items": {"type": "string"}, "maxItems": 31,
                       "description": "calendar days to keep in every year, MM-DD, e.g. [\"12-25\"] for Christmas Day"},
        "holidays": {"type": "array", "items": {"type": "string", "enum": HOLIDAY_NAMES}, "maxItems": len(HOLIDAY_NAMES),
                     "description": "holidays whose date moves, each on its own date in every year counted, e.g. "
                                    "[\"thanksgiving\"] (fixed days such as Christmas are month_days)"},
        "hours": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 23}, "maxItems": 24,
                  "description": "hours of day 0-23 to keep, e.g. 9pm-5am = [21, 22, 23, 0, 1, 2, 3, 4]; with "
                                 "weekdays, hours after midnight in such a run count with the night before"},
        "min_homicides": {"type": "integer", "minimum": 1, "maximum": 10000,
                          "description": "in a ranking of places, leave out those with fewer homicides than this "
                                         "(\"among wards with at least 50 homicides\")"},
        "exclude_wards": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 50},
                          "maxItems": 50, "description": "wards to leave out"},
        "exclude_districts": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 25},
                              "maxItems": 25, "description": "police districts to leave out"},
        "exclude_community_areas": {"type": "array", "items": {"type": ["integer", "string"]}, "maxItems": 77,
                                    "description": "community areas (names or numbers) to leave out"},
        "location_types": {"type": "array", "items": {"type": "string"}, "maxItems": 20,
                           "description": "several place types counted together, e.g. [\"STREET\", \"ALLEY\"] "
                                          "(not with location_type)"},
        "exclude_location_types": {"type": "array", "items": {"type": "string"}, "maxItems": 20,
                                   "description": "place types to leave out, e.g. [\"STREET\"]"},
    },
    "required": [],
}

DESCRIPTION = ("Count Chicago homicides 2001-2023 with filters (years, ward(s), police district(s), community area, "
               "arrest, domestic, location type), optionally grouped by year, month, weekday, hour, ward, district, "
               "community_area, location_type, arrest or domestic; gives totals, rankings and arrest rate.")



# ------------------------------------------------------------------ counts: queries of the layer

def _count(data, scopes: list, period: "Period", group_by: str | None = None,
           measures=("homicides", "arrests")) -> dict:
    """Homicides and arrests (by default) of the selected rows, per member of ``group_by`` ({member: {measure:
    count}}) or in all ({None: {...}}): a query per scope, added (the scopes are disjoint)."""
    out: dict = {}
    for filters in scopes:
        query = {"measures": list(measures), "period": period.query, **({"filters": filters} if filters else {}),
                 **({"group_by": [group_by]} if group_by else {})}
        for row in homicide_query(data, query).rows:
            key = row[group_by] if group_by else None
            counts = out.setdefault(key, {m: 0 for m in measures})
            for m in measures:
                counts[m] += int(row[m] or 0)
    return out


def _pair(counts: dict, key) -> tuple[int, int]:
    found = counts.get(key) or {}
    return found.get("homicides", 0), found.get("arrests", 0)


def _month_rows(data, scopes: list, period: Period, extra: dict) -> list[dict]:
    """Months of one year or of a date span in date order; over several whole years, calendar months summed."""
    if period.start == period.end or period.first_day:
        extra["month_mode"] = "year_month"
        counts = _count(data, scopes, period, "month")
        if period.first_day:
            first, last = period.first_day, period.last_day
        else:  # a whole year: every month up to the data's last one
            cov_end = data.coverage["homicides"]["end"]
            last_month = int(cov_end[5:7]) if period.start == data.coverage["homicides"]["last_year"] else 12
            first, last = f"{period.start}-01", f"{period.start}-{last_month:02d}"
        rows = []
        for i in range((int(first[:4]) - period.start) * 12 + int(first[5:7]) - 1,
                       (int(last[:4]) - period.start) * 12 + int(last[5:7])):
            year, m = period.start + i // 12, i % 12 + 1
            n, a = _pair(counts, f"{year}-{m:02d}")
            rows.append({"year_month": f"{year}-{m:02d}", "year": year, "month": m,
                         "month_name": calendar.month_name[m], "homicides": n, "arrests": a})
        return rows
    extra["month_mode"] = "calendar_month"
    counts = _count(data, scopes, period, "calendar_month")
    return [{"month": m, "month_name": calendar.month_name[m], **dict(zip(("homicides", "arrests"), _pair(counts, m)))}
            for m in range(1, 13)]


def _mark_partial(data, rows: list[dict], key: str) -> list[dict]:
    """The year or month the data ends inside gets ``partial_to`` (the data's last day): it is no full year or month,
    so it cannot be the lowest ("the year with the fewest homicides" was 2023, cut off in July)."""
    end = data.coverage["homicides"]["end"]
    last = calendar.monthrange(int(end[:4]), int(end[5:7]))[1]
    cut = {"year": None if end.endswith("-12-31") else int(end[:4]),
           "year_month": None if int(end[8:10]) == last else end[:7]}[key]
    for row in rows:
        if cut is not None and row.get(key) == cut:
            row["partial_to"] = end
    return rows


def _time_rows(data, scopes: list, group_by: str, period: Period, extra: dict) -> list[dict]:
    """One row per year, month, weekday or hour, or per arrest / domestic flag."""
    if group_by == "year":
        counts = _count(data, scopes, period, "year")
        return _mark_partial(data, [dict(zip(("year", "homicides", "arrests"), (y, *_pair(counts, y))))
                                    for y in range(period.start, period.end + 1)], "year")
    if group_by == "month":
        return _mark_partial(data, _month_rows(data, scopes, period, extra), "year_month")
    if group_by == "weekday":
        counts = _count(data, scopes, period, "weekday")
        return [{"weekday": d + 1, "weekday_name": calendar.day_name[d],
                 **dict(zip(("homicides", "arrests"), _pair(counts, calendar.day_name[d])))} for d in range(7)]
    if group_by == "hour":
        counts = _count(data, scopes, period, "hour")
        return [{"hour": h, "hour_label": f"{h:02d}:00-{h:02d}:59",
                 **dict(zip(("homicides", "arrests"), _pair(counts, h)))} for h in range(24)]
    counts = _count(data, scopes, period, group_by)
    return [{group_by: value, **dict(zip(("homicides", "arrests"), _pair(counts, value)))} for value in (True, False)]


def _place_counts(data, arrays: HomicideArrays, scopes: list, period: Period, group_by: str, total: int,
                  extra: dict):
    """(homicides, arrests, labels) per place code from a query by place; the rows without the place (the selection's
    total less the places') are counted apart, not ranked."""
    counts = _count(data, scopes, period, group_by)
    if group_by == "location_type":
        labels = arrays.location_types
        index = {name: i for i, name in enumerate(labels)}
        keys = [(index[k], k) for k in counts if k in index]
    else:
        labels = list(range({"ward": 51, "district": 26, "community_area": 78}[group_by]))
        keys = [(int(k), k) for k in counts if k is not None and 0 < int(k) < len(labels)]
    n, a = np.zeros(len(labels), dtype=np.int64), np.zeros(len(labels), dtype=np.int64)
    for i, k in keys:
        n[i], a[i] = _pair(counts, k)
    if group_by != "location_type":
        extra["missing_geography"] = int(total - n.sum())
    return n, a, labels


def _rank_places(data, arrays: HomicideArrays, scopes: list, period: Period, total: int, group_by: str, top_n: int,
                 sort_order: str, rank_by: str, universe: list | None, extra: dict,
                 min_homicides: int | None = None) -> list[dict]:
    n, a, labels = _place_counts(data, arrays, scopes, period, group_by, total, extra)
    present = np.flatnonzero(n > 0).tolist()
    if universe is not None and sort_order == "asc" and rank_by == "homicides":
        present = sorted(set(present) | set(universe))  # "fewest" must list the places with none at all
    extra["groups"] = len(present)
    floor = min_homicides or (MIN_FOR_RATE_RANK if rank_by == "arrest_rate" else 0)
    if floor:  # a rate of 1 in 1 is no ranking; and "among wards with at least 50" ranks only those
        present = [i for i in present if n[i] >= floor]
        extra["too_few_to_rank"] = int(extra["groups"] - len(present))
        extra["min_homicides"] = floor
    if rank_by == "arrest_rate":
        ranked = present

        def metric(i):
            return a[i] / n[i]

        def key(i):
            return (-metric(i) if sort_order == "desc" else metric(i), -n[i], i)
    else:
        ranked = present

        def metric(i):
            return int(n[i])

        def key(i):  # ties broken by the group label so the order is stable
            return (-n[i] if sort_order == "desc" else n[i], i)
    order = sorted(ranked, key=key)
    rows = [_place_row(data, group_by, i, labels, rank, n, a) for rank, i in enumerate(order[:top_n], start=1)]
    tied = [i for i in order if metric(i) == metric(order[0])] if order else []
    if len(tied) > 1:  # the top (or bottom) value is shared: every place holding it is named
        extra["tied"] = [_place_word(data, group_by, i, labels) for i in tied]
        first = order[0]
        extra["tied_value"] = pct(a[first], n[first]) if rank_by == "arrest_rate" else int(n[first])
    return rows


def _place_row(data, group_by: str, i: int, labels: list, rank: int, n, a) -> dict:
    row: dict = {"rank": rank}
    if group_by == "community_area":
        row.update({"community_area": int(i), "name": data.geography.area_name(int(i))})
    elif group_by == "district":
        row.update({"district": int(i), "name": district_name(data, int(i))})
    elif group_by == "ward":
        row["ward"] = int(i)
    else:
        row["location_type"] = labels[i]
    row.update({"homicides": int(n[i]), "arrests": int(a[i])})
    return row


def _place_word(data, group_by: str, i: int, labels: list) -> str:
    if group_by == "community_area":
        return f"{data.geography.area_name(int(i))} ({int(i)})"
    if group_by in ("ward", "district"):
        return f"{group_by} {int(i)}"
    return str(labels[i])


def _group(data, arrays: HomicideArrays, scopes: list, total: int, group_by: str, period: Period, top_n: int,
           sort_order: str, rank_by: str = "homicides", universe: list | None = None,
           min_homicides: int | None = None) -> tuple[list[dict], dict]:
    """Breakdown rows (dicts) and extra values for one grouping of the selected rows."""
    extra: dict = {}
    if group_by in RANKING_GROUPS:
        rows = _rank_places(data, arrays, scopes, period, total, group_by, top_n, sort_order, rank_by, universe,
                            extra, min_homicides)
    else:
        rows = _time_rows(data, scopes, group_by, period, extra)
    for row in rows:
        row["share_pct"] = pct(row["homicides"], total)
        row["arrest_rate_pct"] = pct(row["arrests"], row["homicides"])
    _series_notes(group_by, rows, extra)
    return rows, extra


def _series_notes(group_by: str, rows: list, extra: dict) -> None:
    """The peak and low of a time pattern; the first-to-last change of a short yearly series."""
    extra.pop("peak", None), extra.pop("low", None), extra.pop("change", None), extra.pop("low_partial", None)
    if group_by in TIME_GROUPS and rows:
        extra["peak"] = max(rows, key=lambda r: r["homicides"])
        full = [r for r in rows if not r.get("partial_to")] or rows
        extra["low"] = min(full, key=lambda r: r["homicides"])
        cut = next((r for r in rows if r.get("partial_to")), None)
        if cut is not None and cut["homicides"] < extra["low"]["homicides"]:
            extra["low_partial"] = cut  # lower only because the data ends inside it
    if group_by == "year" and 2 <= len(rows) <= 12:
        extra["change"] = _change(rows[0], rows[-1])


def _change(first: dict, last: dict) -> dict:
    """First year against last year of a short series: the figures a comparison question asks for."""
    before, after = first["homicides"], last["homicides"]
    return {"from_year": first["year"], "to_year": last["year"], "from": before, "to": after,
            "difference": after - before, "pct": None if not before else round(100.0 * (after - before) / before, 1)}


def _label(group_by: str, row: dict) -> str:
    if group_by == "community_area":
        return f"{row['name']} ({row['community_area']})"
    if group_by == "district":
        return f"District {row['district']}" + (f" {row['name']}" if row.get("name") else "")
    if group_by == "ward":
        return f"Ward {row['ward']}"
    if group_by == "month":
        return f"{row['month_name']} {row['year']}" if row.get("year_month") else row["month_name"]
    if group_by == "weekday":
        return row["weekday_name"]
    if group_by == "hour":
        return row["hour_label"]
    if group_by in ("arrest", "domestic"):
        if group_by == "arrest":
            return "arrest made" if row["arrest"] else "no arrest"
        return "domestic" if row["domestic"] else "non-domestic"
    return str(row[group_by])


@dataclass
class _Selection:
    """The rows a call selects, as the layer's filters (``scopes``: disjoint sets of filters whose rows are added;
    one, but for a night run with days of the week), and how the filters read in the answer."""

    scopes: list = field(default_factory=lambda: [[]])
    filters: dict = field(default_factory=dict)
    described: list = field(default_factory=list)

    def narrow(self, keep: dict | None, key: str, value, words: str) -> None:
        if keep is not None:
            self.scopes = [scope + [keep] for scope in self.scopes]
        self.filters[key] = value
        self.described.append(words)

    def copy_scopes(self) -> list:
        return [list(scope) for scope in self.scopes]


def _within(dimension: str, values) -> dict:
    return {"dimension": dimension, "in": list(values)}


def _outside(dimension: str, values) -> dict:
    return {"dimension": dimension, "not_in": list(values)}


def _select_place(data, sel: _Selection, ward, district, community_area, wards=None,
                  districts=None, community_areas=None) -> None:
    geo = data.geography
    if community_areas:
        areas = sorted({geo.resolve_area(a) for a in community_areas})
        named = [f"{geo.area_name(a)} ({a})" for a in areas]
        named_text = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
        sel.narrow(_within("community_area", areas), "community_areas", areas,
                   f"community areas {named_text}" if len(areas) > 1 else f"community area {named_text}")
    if wards:
        wards = sorted({geo.check_ward(w) for w in wards})
        sel.narrow(_within("ward", wards), "wards", wards, f"wards {places_set(wards)}")
    if districts:
        districts = sorted({geo.check_district(d) for d in districts})
        sel.narrow(_within("district", districts), "districts", districts,
                   f"police districts {places_set(districts)}")
    if ward is not None:
        ward = geo.check_ward(ward)
        sel.narrow(_within("ward", [ward]), "ward", ward, f"ward {ward}")
    if district is not None:
        district = geo.check_district(district)
        sel.narrow(_within("district", [district]), "district", district,
                   f"district {district} ({district_name(data, district)})")
    if community_area is not None:
        area = geo.resolve_area(community_area)
        sel.narrow(_within("community_area", [area]), "community_area", area,
                   f"community area {geo.area_name(area)} ({area})")
        sel.filters["community_area_name"] = geo.area_name(area)


def _exclude_places(data, sel: _Selection, exclude_wards, exclude_districts,
                    exclude_community_areas) -> None:
    """Leave places out; rows with no place recorded stay in (they are not known to be in the place)."""
    geo = data.geography
    if exclude_wards:
        wards = sorted({geo.check_ward(w) for w in exclude_wards})
        _not_both(sel, wards, ("ward", "wards"), "exclude_wards", "ward")
        sel.narrow(_outside("ward", wards), "exclude_wards", wards,
                   f"excluding ward{'s' if len(wards) > 1 else ''} {number_set(wards)}")
    if exclude_districts:
        districts = sorted({geo.check_district(d) for d in exclude_districts})
        _not_both(sel, districts, ("district", "districts"), "exclude_districts", "district")
        sel.narrow(_outside("district", districts), "exclude_districts", districts,
                   f"excluding district{'s' if len(districts) > 1 else ''} {number_set(districts)}")
    if exclude_community_areas:
        areas = sorted({geo.resolve_area(a) for a in exclude_community_areas})
        _not_both(sel, areas, ("community_area", "community_areas"), "exclude_community_areas", "community area")
        names_ = ", ".join(f"{geo.area_name(a)} ({a})" for a in areas)
        sel.narrow(_outside("community_area", areas), "exclude_community_areas", areas,
                   f"excluding community area{'s' if len(areas) > 1 else ''} {names_}")


def weekdays_phrase(days: list[int], nights: bool = False) -> str:
    """[6, 7] -> "on Saturdays and Sundays"; [5] -> "on Fridays"; [1..5] -> "on weekdays, Monday to Friday";
    with ``nights`` (hours running past midnight), [5] -> "on Friday nights into Saturday morning"."""
    if nights:
        named = [calendar.day_name[d - 1] for d in days]
        into = calendar.day_name[days[0] % 7] + " morning" if len(days) == 1 else "the next morning"
        return "on " + (named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]) + \
            f" nights into {into}"
    if days == [1, 2, 3, 4, 5]:
        return "on weekdays, Monday to Friday"
    named = [calendar.day_name[d - 1] + "s" for d in days]
    return "on " + (named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1])


def _after_midnight(hours: list[int]) -> list[int]:
    """The hours of a run that begins before midnight and runs past it ([21, 22, 23, 0, 1] -> [0, 1]): with days of
    the week, they belong to the night they continue ("Friday nights" is Friday 21:00 to Saturday 04:59)."""
    return [h for run in hour_runs(hours) if run[0] > run[-1] for h in run if h < run[0]]


def _window_start(filters: dict, years) -> str | None:
    """The first calendar day (MM-DD) a month, day-of-year or holiday filter keeps, or None when every day is
    kept."""
    days = list(filters.get("month_days") or [])
    days += [earliest_day(filters["holidays"], years)] if filters.get("holidays") else []
    days += [f"{m:02d}-01" for m in filters.get("months") or []]
    return min(days) if days else None


def month_days_phrase(days: list[str]) -> str:
    """["12-24", "12-25"] -> "on December 24 and December 25"; three or more days in a row are one run, which may
    go past December 31: ["01-01", "12-24", ..., "12-31"] -> "from December 24 to January 1"."""
    ordinals = sorted(datetime.date(2024, int(d[:2]), int(d[3:])).timetuple().tm_yday for d in days)
    runs: list[list[int]] = []
    for n in ordinals:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    if len(runs) > 1 and runs[0][0] == 1 and runs[-1][-1] == 366:  # a run past December 31 starts in December
        runs[0] = runs.pop() + runs[0]

    def day(n: int) -> str:
        date = datetime.date(2024, 1, 1) + datetime.timedelta(days=n - 1)
        return f"{calendar.month_name[date.month]} {date.day}"

    named = [f"from {day(run[0])} to {day(run[-1])}" if len(run) >= 3 else " and ".join(f"on {day(n)}" for n in run)
             for run in sorted(runs, key=lambda r: r[0])]
    named = [x[3:] if x.startswith("on ") and i else x for i, x in enumerate(named)]
    return (", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]).replace(" and on ", " and ")


def _month_days(days) -> list[str]:
    """Calendar days as MM-DD, checked ("02-30" is no day of any year; "02-29" is of some)."""
    out = []
    for day in days:
        text = str(day).strip()
        match = re.fullmatch(r"(\d{1,2})-(\d{1,2})", text)
        month, dom = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
        if not (1 <= month <= 12 and 1 <= dom <= calendar.monthrange(2024, month)[1]):
            raise ToolArgumentError(f"month_days takes calendar days as MM-DD (e.g. \"12-25\"), got {text!r}",
                                    "invalid_argument")
        out.append(f"{month:02d}-{dom:02d}")
    return sorted(set(out))


def _not_both(sel: _Selection, left_out: list, chosen_keys: tuple, exclude_key: str, word: str) -> None:
    """A place both asked for and left out selects nothing, and says nothing true: "0 homicides in ward 24,
    excluding ward 24" answers no question anyone asked, so the call is refused with the clash named."""
    chosen = set()
    for key in chosen_keys:
        value = sel.filters.get(key)
        chosen |= set(value) if isinstance(value, list) else ({value} if value is not None else set())
    clash = sorted(chosen & set(left_out))
    if clash:
        raise ToolArgumentError(f"{word} {', '.join(str(c) for c in clash)} is both asked for ({'/'.join(chosen_keys)}) "
                                f"and left out ({exclude_key}); name it in one of them", "invalid_argument")


def _select_kind(arrays: HomicideArrays, sel: _Selection, months, arrest_status, domestic, location_type,
                 hours=None, exclude_location_types=None, weekdays=None, month_days=None,
                 location_types=None, holidays=None, years=()) -> None:
    """The filters on what kind of homicide, and when in the year, week or day; ``years``: the period's years,
    which a holiday's dates are taken in."""
    if month_days:
        days = _month_days(month_days)
        sel.narrow(_within("month_day", days), "month_days", days, month_days_phrase(days))
    if holidays:
        names = [name for name in HOLIDAY_NAMES if name in holidays]  # in the calendar's order, once each
        if len(names) < len(set(holidays)):
            raise ToolArgumentError(f"holidays takes {', '.join(HOLIDAY_NAMES)}; got {', '.join(map(str, holidays))}",
                                    "invalid_argument")
        # each year's own date of the holiday (the layer's rule, semantic/holidays.py)
        sel.narrow(_within("holiday", names), "holidays", names,
                   holidays_phrase(names, years[0] if len(years) == 1 else None))
    if months:
        months = sorted(set(int(m) for m in months))
        sel.narrow(_within("calendar_month", months), "months", months,
                   "months " + ", ".join(calendar.month_abbr[m] for m in months))
    if weekdays:
        weekdays = sorted({int(d) for d in weekdays})
        late = _after_midnight([int(h) for h in hours]) if hours else []
        days = [calendar.day_name[d - 1] for d in weekdays]
        if late:  # 01:00 on a Saturday is still Friday night: those hours are matched against the day after
            after = [calendar.day_name[d % 7] for d in weekdays]
            sel.scopes = [scope + [_outside("hour", late), _within("weekday", days)] for scope in sel.scopes] + \
                         [scope + [_within("hour", late), _within("weekday", after)] for scope in sel.scopes]
        sel.narrow(None if late else _within("weekday", days), "weekdays", weekdays,
                   weekdays_phrase(weekdays, nights=bool(late)))
    if hours:
        hours = sorted({int(h) for h in hours})
        sel.narrow(_within("hour", hours), "hours", hours, hours_phrase(hours))
    if arrest_status != "any":
        sel.narrow({"dimension": "arrest", "equals": arrest_status == "arrested"}, "arrest_status", arrest_status,
                   "arrest made" if arrest_status == "arrested" else "no arrest")
    if domestic is not None:
        sel.narrow({"dimension": "domestic", "equals": bool(domestic)}, "domestic", bool(domestic),
                   "domestic" if domestic else "non-domestic")
    if location_type is not None:
        codes = location_codes(arrays, location_type)
        named = " or ".join(arrays.location_types[c] for c in codes)
        sel.narrow(_within("location_type", [arrays.location_types[c] for c in codes]), "location_type",
                   arrays.location_types[codes[0]],
                   f"location {named}")
    if location_types:
        if location_type is not None:
            raise ToolArgumentError("give location_type or location_types, not both", "invalid_argument")
        codes = sorted({c for t in location_types for c in location_codes(arrays, t)})
        kept = [arrays.location_types[c] for c in codes]
        sel.narrow(_within("location_type", kept), "location_types", kept, "location " + " or ".join(kept))
    if exclude_location_types:
        codes = sorted({c for t in exclude_location_types for c in location_codes(arrays, t)})
        left_out = [arrays.location_types[c] for c in codes]
        kept = sel.filters.get("location_types") or ([sel.filters["location_type"]] if "location_type" in sel.filters
                                                     else [])
        clash = [t for t in left_out if t in kept]
        if clash:
            raise ToolArgumentError(f"location {', '.join(clash)} is both asked for (location_type/location_types) "
                                    "and left out (exclude_location_types); name it in one of them", "invalid_argument")
        sel.narrow(_outside("location_type", left_out), "exclude_location_types", left_out,
                   "excluding " + ", ".join(left_out))


def _ranking_universe(data, sel: _Selection, group_by) -> list | None:
    """Every place a fewest-first ranking should list, zeros included, or None when that is unknown
    (a ward ranking inside one community area cannot know which wards lie there)."""
    geo = data.geography
    kinds = {"ward": ("ward", "wards", range(1, 51)), "district": ("district", "districts", geo.districts),
             "community_area": ("community_area", "", range(1, 78))}
    if group_by not in kinds:
        return None
    one, many, every = kinds[group_by]
    others = [k for k in ("ward", "wards", "district", "districts", "community_area") if k not in (one, many)]
    if any(sel.filters.get(k) is not None for k in others):
        return None
    places = [sel.filters[one]] if sel.filters.get(one) is not None else sel.filters.get(many) or list(every)
    return [p for p in places if p not in sel.filters.get(f"exclude_{one}s", [])]


def _without_place(data, place: str, period: Period) -> int:
    """Rows of the period that record no ``place``: the city's count less the places' (a query's totals)."""
    totals = homicide_query(data, {"measures": ["homicides"], "group_by": [place], "period": period.query,
                              "totals": True}).totals
    return int(totals["homicides_city"] - totals["homicides"])


def _caveats(data, sel: _Selection, group_by, period: Period, total: int) -> list:
    start, end = period.start, period.end
    caveats = [HOMICIDE_CODE_CAVEAT] + partial_year_caveat(data, start, end)
    if end >= data.coverage["homicides"]["last_year"] - 2:
        caveats.append(ARREST_CAVEAT)
    if "ward" in sel.filters or "wards" in sel.filters or "exclude_wards" in sel.filters or group_by == "ward":
        caveats.append(WARD_MAP_CAVEAT)
    geo_used = [g for g in ("ward", "community_area", "district") if g == group_by or sel.filters.get(g) is not None]
    for g in geo_used:
        missing = _without_place(data, g, period)
        if missing:
            caveats.append(geo_missing_caveat(missing, g.replace("_", " "), start, end))
    if 0 < total < SMALL_NUMBER_LIMIT:
        caveats.append(f"Only {total} homicides matched; counts this small swing a lot by chance.")
    return caveats


def _breakdown_heading(group_by: str, rows: list, extra: dict, rank_by: str, sort_order: str,
                       period: Period) -> str:
    if group_by in RANKING_GROUPS:
        if rank_by == "arrest_rate":
            direction = "highest" if sort_order == "desc" else "lowest"
            return (f"By {group_by.replace('_', ' ')} ({direction} arrest rate first, top {len(rows)}; "
                    f"only groups with at least {extra['min_homicides']} homicides, "
                    f"{extra['too_few_to_rank']} of {extra['groups']} left out):")
        direction = "most" if sort_order == "desc" else "fewest"
        if extra.get("min_homicides"):
            return (f"By {group_by.replace('_', ' ')} ({direction} first, top {len(rows)}; only groups with at least "
                    f"{extra['min_homicides']} homicides, {extra['too_few_to_rank']} of {extra['groups']} left out):")
        return f"By {group_by.replace('_', ' ')} ({direction} first, top {len(rows)} of {extra['groups']}):"
    if group_by == "month" and extra.get("month_mode") == "calendar_month":
        return f"By calendar month, summed over {period.filters['years']}:"
    return f"By {group_by.replace('_', ' ')}:"


def _tie_note(extra: dict, rank_by: str, sort_order: str) -> str:
    """'most: 45 homicides, tied: ward 3 and ward 5' when the first value of a ranking is shared."""
    tied = extra.get("tied")
    if not tied:
        return ""
    places = tied[0] if len(tied) == 1 else ", ".join(tied[:-1]) + " and " + tied[-1]
    if rank_by == "arrest_rate":
        word = "highest" if sort_order == "desc" else "lowest"
        return f"{word} arrest rate: {fmt_pct(extra['tied_value'])}, tied: {places}"
    word = "most" if sort_order == "desc" else "fewest"
    noun = "homicide" if extra["tied_value"] == 1 else "homicides"
    return f"{word}: {fmt_int(extra['tied_value'])} {noun}, tied: {places}"


def _breakdown_lines(group_by: str, rows: list, extra: dict, tie_note: str = "") -> tuple[list, list]:
    """One line per group, then the peak/low, tie and unranked-rows notes."""
    items, tail = [], []
    for row in rows:
        if group_by in TIME_GROUPS:
            items.append(f"- {_label(group_by, row)}: {fmt_int(row['homicides'])} "
                         f"(arrest rate {fmt_pct(row['arrest_rate_pct'])})")
        else:
            items.append(f"- {_label(group_by, row)}: {fmt_int(row['homicides'])} ({fmt_pct(row['share_pct'])} "
                         f"of total; arrest rate {fmt_pct(row['arrest_rate_pct'])})")
    if "peak" in extra:
        tail.append(f"Highest: {_label(group_by, extra['peak'])} with {fmt_int(extra['peak']['homicides'])}; "
                    f"lowest: {_label(group_by, extra['low'])} with {fmt_int(extra['low']['homicides'])}.")
        if extra.get("low_partial"):
            cut = extra["low_partial"]
            tail.append(f"{_label(group_by, cut)} is partial (data end {cut['partial_to']}): its "
                        f"{fmt_int(cut['homicides'])} is not counted as the lowest.")
    if "change" in extra:
        c = extra["change"]
        share = "n/a" if c["pct"] is None else f"{c['pct']:+.1f}%"
        tail.append(f"Change from {c['from_year']} to {c['to_year']}: {c['difference']:+,} ({share}).")
    if tie_note:
        tail.append(tie_note[0].upper() + tie_note[1:] + ".")
    if extra.get("missing_geography"):
        tail.append(f"{fmt_int(extra['missing_geography'])} matching rows have no "
                    f"{group_by.replace('_', ' ')} and are not ranked.")
    return items, tail


def _chosen_rows(group_by: str, rows: list, extra: dict, sel: _Selection, period: Period) -> list:
    """Only the months, days of the week, hours or years a call kept (the rest would list zeros), hours in clock order
    from the start of the span (21:00 ... 04:00)."""
    wanted = {"month": sel.filters.get("months"), "year": period.years, "weekday": sel.filters.get("weekdays"),
              "hour": [h for run in hour_runs(sel.filters["hours"]) for h in run] if sel.filters.get("hours") else None}
    keep = wanted.get(group_by)
    if not keep:
        return rows
    by_key = {row[group_by]: row for row in rows}
    rows = [by_key[k] for k in keep if k in by_key]
    _series_notes(group_by, rows, extra)
    return rows


def _breakdown(data, arrays, sel: _Selection, total: int, values: dict, group_by, period: Period, top_n, sort_order,
               rank_by, filter_text: str, min_homicides: int | None = None):
    """Rows per group into ``values``; returns (heading, item lines, tail lines, table, chart, tie note)."""
    if rank_by == "arrest_rate" and group_by not in RANKING_GROUPS:
        raise ToolArgumentError(f"rank_by arrest_rate needs group_by one of {', '.join(sorted(RANKING_GROUPS))}",
                                "invalid_argument")
    universe = _ranking_universe(data, sel, group_by)
    if min_homicides and group_by not in RANKING_GROUPS:
        raise ToolArgumentError(f"min_homicides needs group_by one of {', '.join(sorted(RANKING_GROUPS))}",
                                "invalid_argument")
    rows, extra = _group(data, arrays, sel.scopes, total, group_by, period, top_n, sort_order, rank_by, universe,
                         min_homicides)
    rows = _chosen_rows(group_by, rows, extra, sel, period)
    values["rank_by"] = rank_by
    values["breakdown"] = rows
    values.update(extra)
    tie_note = _tie_note(extra, rank_by, sort_order)
    items, tail = _breakdown_lines(group_by, rows, extra, tie_note)
    x = {"month": "year_month" if extra.get("month_mode") == "year_month" else "month_name",
         "community_area": "name", "weekday": "weekday_name", "hour": "hour_label"}.get(group_by, group_by)
    chart = {"type": "line" if group_by in ("year", "month", "hour") else "bar", "x": x, "y": "homicides",
             "title": f"Homicides by {group_by.replace('_', ' ')}, {filter_text}"}
    heading = _breakdown_heading(group_by, rows, extra, rank_by, sort_order, period)
    # The table lists the counts; which year the data ends inside is said in the text (and in values).
    table = pd.DataFrame([{k: v for k, v in row.items() if k != "partial_to"} for row in rows])
    return heading, items, tail, table, chart, tie_note


def _select(data, arrays: HomicideArrays, args: dict) -> tuple[Period, _Selection, list, bool]:
    """The period, then place filters and exclusions, then the kind filters; the filters a share is of, and
    whether a kind filter narrowed the count (then the answer states that share)."""
    period = resolve_period(data, args["year"], args["start_year"], args["end_year"], args["years"],
                            args["start_date"], args["end_date"], args["months"])
    _months_held(data, period, args["months"])
    sel = _Selection([[]], dict(period.filters), [period.phrase])
    _select_place(data, sel, args["ward"], args["district"], args["community_area"], args["wards"],
                  args["districts"], args["community_areas"])
    _exclude_places(data, sel, args["exclude_wards"], args["exclude_districts"],
                    args["exclude_community_areas"])
    # The share a filtered count is of: same period and place, before the kind filters (month, hour, arrest...);
    # with the months named and a further filter ("July 2020 ... how many on a Saturday or Sunday"), the months are
    # part of the period the share is of.
    context, place_described = sel.copy_scopes(), len(sel.described)
    further = any(args[k] for k in ("weekdays", "hours", "domestic", "location_type", "location_types",
                                    "holidays", "month_days")) or args["arrest_status"] not in (None, "any")
    if args["months"] and further:
        _select_kind(arrays, sel, args["months"], "any", None, None, years=period.each_year)
        context, place_described = sel.copy_scopes(), len(sel.described)
        kinds = _kind_args({**args, "months": None}, period)
    else:
        kinds = _kind_args(args, period)
    _select_kind(arrays, sel, *kinds)
    return period, sel, context, len(sel.described) > place_described


def _months_held(data, period: Period, months) -> None:
    """Months asked only where the data has not reached them ("December 2023", the snapshot ending in July 2023) are
    out of range: counting them gave "0 homicides", a figure for a month the data does not cover."""
    if not months or period.first_day:
        return
    end = str(data.coverage["homicides"]["end"])[:7]
    asked = [f"{y}-{int(m):02d}" for y in period.each_year for m in months]
    if asked and all(month > end for month in asked):
        named = " and ".join(calendar.month_name[int(m)] for m in sorted(set(months)))
        raise ToolArgumentError(f"{named} {', '.join(map(str, period.each_year))} is after the homicide data ends "
                                f"({data.coverage['homicides']['end']})", "out_of_range")


def _kind_args(args: dict, period: Period) -> tuple:
    return (args["months"], args["arrest_status"], args["domestic"], args["location_type"], args["hours"],
            args["exclude_location_types"], args["weekdays"], args["month_days"], args["location_types"],
            args["holidays"], period.each_year)


def _city_share(data, arrays: HomicideArrays, period: Period, args: dict, total: int) -> dict:
    """The place's count as a share of the city's, in the same period and with the same kind filters ("what share
    of Chicago's 2016 homicides happened in Englewood and West Englewood combined")."""
    city = _Selection()
    _select_kind(arrays, city, *_kind_args(args, period))
    city_total = _count(data, city.scopes, period, measures=("homicides",)).get(None, {}).get("homicides", 0)
    return {"homicides": city_total, "share_pct": pct(total, city_total)}


def _empty_result(data, values: dict, filter_text: str, caveats: list, group_by):
    text = (f"0 homicides matched: {filter_text}. No rows in the snapshot fit all these filters "
            f"(coverage {data.coverage['homicides']['start']} to {data.coverage['homicides']['end']}).")
    values["breakdown"] = [] if group_by else None
    return make_result(TOOL_NAME, values=values, text=text, summary=f"0 homicides matched: {filter_text}",
                       datasets=["homicides"], data=data, caveats=caveats,
                       table=pd.DataFrame({"metric": ["homicides"], "value": [0]}), chart=None)


def query_homicides_advanced(data, year=None, start_year=None, end_year=None, ward=None, district=None,
                             community_area=None, arrest_status="any", domestic=None, location_type=None,
                             group_by=None, top_n=10, sort_order="desc", rank_by="homicides", months=None,
                             wards=None, districts=None, years=None, start_date=None, end_date=None, hours=None,
                             exclude_wards=None, exclude_districts=None, exclude_community_areas=None,
                             exclude_location_types=None, weekdays=None, community_areas=None, city_share=False,
                             month_days=None, location_types=None, min_homicides=None, holidays=None):
    arrays = homicide_arrays(data)
    # Every argument by name, so the selection reads them without a 20-parameter signature of its own.
    args = dict(locals())
    period, sel, context, narrowed = _select(data, arrays, args)
    counts = _count(data, sel.scopes, period, measures=("homicides", "arrests", "domestic_homicides")).get(None, {})
    total = counts.get("homicides", 0)
    arrests = counts.get("arrests", 0) if total else 0
    domestic_n = counts.get("domestic_homicides", 0) if total else 0
    rate = pct(arrests, total)
    filter_text = ", ".join(sel.described)
    values: dict = {"total": total, "arrests": arrests, "arrest_rate_pct": rate, "domestic": domestic_n,
                    "start_year": period.start, "end_year": period.end, "filters": sel.filters, "group_by": group_by,
                    "rank_by": rank_by, "described": list(sel.described)}  # the filters in words, for answers
    share_text = ""
    if narrowed:
        context_total = _count(data, context, period, measures=("homicides",)).get(None, {}).get("homicides", 0)
        values["share_of"] = {"homicides": context_total, "share_pct": pct(total, context_total)}
        share_text = f", {fmt_pct(pct(total, context_total))} of {fmt_int(context_total)}"
    caveats = _caveats(data, sel, group_by, period, total)
    if total == 0:
        return _empty_result(data, values, filter_text, caveats, group_by)
    lines = [f"Homicides, {filter_text}: {fmt_int(total)} (arrest made in {fmt_int(arrests)}, "
             f"arrest rate {fmt_pct(rate)}; domestic {fmt_int(domestic_n)})."]
    if narrowed:
        lines.append(f"That is {fmt_pct(values['share_of']['share_pct'])} of the "
                     f"{fmt_int(values['share_of']['homicides'])} homicides in the same years and place.")
    placed = any(sel.filters.get(k) is not None for k in ("ward", "wards", "district", "districts",
                                                          "community_area", "community_areas"))
    if city_share and placed:
        values["city_share"] = _city_share(data, arrays, period, args, total)
        lines.append(f"That is {fmt_pct(values['city_share']['share_pct'])} of the "
                     f"{fmt_int(values['city_share']['homicides'])} homicides city-wide in the same period"
                     f"{' with the same filters' if narrowed else ''}.")
    average, average_words, partial = yearly_average(data, period, total, _window_start(sel.filters, period.each_year))
    values.update(average)
    if average:
        lines.append(f"That is {average_words} over {average['per_year_years']} years{partial}.")
    narrowed_days = any(sel.filters.get(k) for k in ("months", "weekdays", "hours", "month_days", "holidays"))
    values.update(daily_average(data, period, total, narrowed_days))
    monthly = monthly_average(data, period, total, bool(sel.filters.get("months"))) if group_by == "month" else {}
    values.update(monthly)
    if monthly:
        lines.append(f"That is an average of {fmt_num(monthly['per_month_average'])} a month over "
                     f"{monthly['per_month_months']} months.")
    items, tail, chart, map_hint, tie_note = [], [], None, None, ""
    if min_homicides and not group_by:
        raise ToolArgumentError("min_homicides ranks places: give group_by ward, district, community_area or "
                                "location_type", "invalid_argument")
    if group_by:
        heading, items, tail, table, chart, tie_note = _breakdown(data, arrays, sel, total, values, group_by, period,
                                                                  top_n, sort_order, rank_by, filter_text,
                                                                  min_homicides)
        lines.append(heading)
        peak = values.get("peak")
        if isinstance(peak, dict) and group_by != "year" and average.get("per_year_years"):
            # "the deadliest weekday, and its average per year": the top group's own yearly average
            peak["per_year_average"] = round(peak["homicides"] / average["per_year_years"], 1)
        if group_by == "community_area" and rank_by == "homicides":  # every area's count, for the page's map
            counts = _count(data, sel.scopes, period, "community_area")  # the breakdown's own query
            map_hint = area_map("homicides", "homicides", chart["title"], period.filters["years"],
                                {n: (counts.get(n) or {}).get("homicides", 0) for n in range(1, 78)})
    else:
        values["breakdown"] = None
        table = pd.DataFrame({"metric": ["homicides", "arrests", "arrest rate %", "domestic"],
                              "value": [total, arrests, rate, domestic_n]})
    text = fit_text(lines, items, tail)
    summary = f"{fmt_int(total)} homicides ({filter_text}{share_text}); arrest rate {fmt_pct(rate)}"
    summary += (f"; {average_words}{partial}" if average else "") + (f"; {tie_note}" if tie_note else "")
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=["homicides"], data=data,
                       caveats=caveats, table=table, chart=chart, map=map_hint)


def register(registry) -> None:
    registry.register(Tool(TOOL_NAME, DESCRIPTION, PARAMETERS, query_homicides_advanced, domain="homicides",
                           label="Homicide data"))
