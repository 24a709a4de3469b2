"""Zillow home values (ZHVI) by ZIP, carried to community areas through the ZIP crosswalk.

A community area's value is the mean of its ZIPs' values weighted by ``share_of_community_area``
(land-area overlap), renormalised over the ZIPs that have a value for the period: Zillow leaves
some ZIPs out, and dividing by the full weight would pull those areas towards zero. A year is the
average of its months; the last, partial year uses its latest month, because an average of a few
months would not be comparable with full years.

A view of the semantic layer (semantic/datasets/home_values.py): a period's ZIP values (with their spread), the
77 areas' carried values and the share of each area's land they rest on, an area's change since a year over the
ZIPs valued in both (``matched_with``) and an area's or a ZIP's yearly series are queries of its ``home_value``
and ``home_value_coverage`` measures, each kept per bundle. This module keeps the data's calendar (which months
and years it holds) and the rule choosing a period.
"""
from __future__ import annotations

import calendar
import re

import numpy as np
import pandas as pd

from semantic.executor import run_query
from tools.common import rows_table
from tools.errors import ToolArgumentError
from tools.map_hints import area_map, zip_map

ZHVI_SETS = ["zhvi", "zip_crosswalk"]
MIN_RANK_COVERAGE = 0.2  # areas whose valued ZIPs cover less of their land are left out of rankings
QUERY_CACHE_SIZE = 256  # query results a bundle keeps (periods, changes, series)

ZHVI_CAVEAT = ("Zillow's ZHVI is a smoothed, seasonally adjusted index of a typical mid-tier home's value "
               "(single-family and condo), not a sale price.")
CROSSWALK_CAVEAT = ("Community-area home values are approximations: the mean of the area's ZIP values weighted "
                    "by land-area overlap, not by homes or population.")


class HomeValues:
    """The Zillow data's calendar and ZIPs, and the layer's figures for them, queried and kept per bundle."""

    def __init__(self, data):
        self.data = data
        zhvi = data.zhvi
        self.zips: list[str] = sorted(zhvi.loc[zhvi["value"].notna(), "zip"].unique())
        self.zip_row = {zip_code: i for i, zip_code in enumerate(self.zips)}
        self.months = list(pd.DatetimeIndex(sorted(zhvi["date"].unique())).strftime("%Y-%m"))
        self.month_index = {m: i for i, m in enumerate(self.months)}
        month_years = [int(m[:4]) for m in self.months]
        self.years = sorted(set(month_years))
        self.year_index = {y: i for i, y in enumerate(self.years)}
        self.months_in_year = {y: month_years.count(y) for y in self.years}
        self.first_year, self.last_year = self.years[0], self.years[-1]
        self.latest_month = self.months[-1]
        self.last_year_partial = self.months_in_year[self.last_year] < 12
        geo = data.geography
        self.area_zips: dict[int, list[tuple[str, float]]] = {
            n: sorted(geo.area_to_zips.get(n, []), key=lambda p: -p[1]) for n in range(1, 78)}
        self.cache: dict = {}

    def query(self, key, query: dict):
        """A query's result, kept per bundle under ``key``."""
        if key not in self.cache:
            if len(self.cache) >= QUERY_CACHE_SIZE:
                self.cache.pop(next(iter(self.cache)))
            self.cache[key] = run_query(self.data, query)
        return self.cache[key]

    def figures(self, period: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
        """(each ZIP's value in ``self.zips`` order, the 77 areas' values, their land covered, the ZIPs' spread)
        for a layer period ({"month": ...} or {"years": [...]}): a query by ZIP and one by community area."""
        key = ("figures", repr(period))
        if key not in self.cache:
            measure = {"measure": "home_value", "period": period}
            by_zip = self.query(("zip", repr(period)), {"measures": [measure], "group_by": ["zip"],
                                                        "spread": ["home_value"]})
            vector = np.full(len(self.zips), np.nan)
            for row in by_zip.rows:
                j = self.zip_row.get(row["zip"])
                if j is not None and row["home_value"] is not None:
                    vector[j] = row["home_value"]
            by_area = self.query(("area", repr(period)), {
                "measures": [measure, {"measure": "home_value_coverage", "period": period}],
                "group_by": ["community_area"]})
            area, coverage = np.full(77, np.nan), np.zeros(77)
            for row in by_area.rows:
                i = int(row["community_area"]) - 1
                area[i] = np.nan if row["home_value"] is None else row["home_value"]
                coverage[i] = row["home_value_coverage"] or 0.0
            self.cache[key] = (vector, area, coverage, by_zip.spread["home_value"])
        return self.cache[key]

    def change(self, period: "Period", since: "Period") -> dict:
        """Per area: (value since, percent change) over the ZIPs valued in both periods (the layer's matched_with),
        so a ZIP entering the data does not read as a price change."""
        query = {"measures": [{"measure": "home_value", "period": period.query, "as": "now", "matched_with": "then"},
                              {"measure": "home_value", "period": since.query, "as": "then"}],
                 "group_by": ["community_area"], "derived": [{"name": "pct", "op": "pct_change", "of": ["then", "now"]}]}
        rows = self.query(("change", repr(period.query), repr(since.query)), query).rows
        return {int(r["community_area"]): (r["then"], r["pct"]) for r in rows}

    def series(self, period: dict, number: int | None = None, zip_code: str | None = None) -> dict:
        """An area's (or a ZIP's) value in each year of ``period``: one query by year."""
        place = ({"dimension": "community_area", "in": [number]} if zip_code is None
                 else {"dimension": "zip", "in": [zip_code]})
        rows = self.query(("series", repr(period), number, zip_code),
                          {"measures": [{"measure": "home_value", "period": period}], "group_by": ["year"],
                           "filters": [place]}).rows
        return {int(r["year"]): r["home_value"] for r in rows}


def coverage_text(home: HomeValues) -> str:
    return (f"Zillow home values cover {home.months[0]} to {home.latest_month} "
            f"(years {home.first_year}-{home.last_year})")


def whole(value):
    """A value rounded to a whole number of dollars, None when missing."""
    return None if value is None or (isinstance(value, float) and np.isnan(value)) else int(round(float(value)))


class Period:
    """A ZHVI period: one month's or one year's average, with the layer's figures for it."""

    def __init__(self, home: HomeValues, year: int | None):
        self.year = year
        if year is None or (year == home.last_year and home.last_year_partial):
            self.kind, self.label = "month", home.latest_month
            self._figures(home, {"month": home.latest_month})
            self.note = (None if year is None else
                         f"{year} is a partial year in the Zillow data (through {home.latest_month}); "
                         f"the latest month, {home.latest_month}, is used.")
        else:
            self.kind, self.label = "year", f"{year} average"
            self._figures(home, {"years": [year]})
            self.note = None
        self.target_year = home.last_year if year is None else year
        self.asked_month = None  # "June 2021" when the caller asked for one month (Period.for_month)

    def _figures(self, home: HomeValues, query: dict) -> None:
        self.query = query
        self.vector, self.area, self.coverage, self.spread = home.figures(query)

    @classmethod
    def for_month(cls, home: HomeValues, month: str) -> "Period":
        """One month's column, asked for by the ``month`` argument ("2021-06" or "latest")."""
        label = parse_month(home, month)
        period = cls(home, None)  # the latest month; replaced below when another is asked
        period.label = label
        period._figures(home, {"month": label})
        period.target_year = int(label[:4])
        period.asked_month = f"{calendar.month_name[int(label[5:])]} {label[:4]}"
        period.note = None
        return period


_MONTH_ARGUMENT = re.compile(r"(\d{4})[-/](\d{1,2})")


def parse_month(home: HomeValues, month: str) -> str:
    """"YYYY-MM" (or "latest") as a month the Zillow data holds; errors name the first and last month."""
    text = str(month).strip().lower()
    if text in ("latest", "last", "newest", "most recent", "current"):
        return home.latest_month
    found = _MONTH_ARGUMENT.fullmatch(text)
    if found is None or not 1 <= int(found.group(2)) <= 12:
        raise ToolArgumentError(f"month must be \"YYYY-MM\" (e.g. \"2021-06\") or \"latest\", got {month!r}; "
                                f"{coverage_text(home)}", "invalid_argument")
    label = f"{found.group(1)}-{int(found.group(2)):02d}"
    if label not in home.month_index:
        named = f"{calendar.month_name[int(found.group(2))]} {found.group(1)}"  # the month as the question says it
        raise ToolArgumentError(f"{named} ({label}) is not in the data: the Zillow values run from {home.months[0]} "
                                f"to {home.latest_month} (the latest month)", "out_of_range")
    return label


def home_phrase(value_text: str, period: Period, latest_month: str) -> str:
    """How a summary states one month's value: "typical home value $X in June 2021 (Zillow ZHVI)"."""
    latest = f"; latest month in the data: {latest_month}" if period.label == latest_month else ""
    return f"typical home value {value_text} in {period.asked_month} (Zillow ZHVI{latest})"


def home_method(period: Period) -> str:
    when = (f"the month {period.label}" if period.kind == "month"
            else f"the average of the 12 months of {period.year}")
    return (f"Home value: Zillow ZHVI for {when}; a community area's value is the mean of its ZIPs' values "
            "weighted by each ZIP's share of the area's land (renormalised over ZIPs with a value); "
            "change since a year compares with that year's 12-month average over the ZIPs valued in both.")


def area_home_value(home: HomeValues, number: int, period: Period, since: Period | None) -> dict:
    row = number - 1
    contributors, missing = [], []
    for zip_code, share in home.area_zips[number]:
        j = home.zip_row.get(zip_code)
        value = None if j is None else period.vector[j]
        if value is None or np.isnan(value):
            missing.append(zip_code)
        else:
            contributors.append({"zip": zip_code, "share_of_community_area": round(share, 4),
                                 "home_value": whole(value)})
    total = sum(z["share_of_community_area"] for z in contributors)
    for z in contributors:
        z["weight"] = round(z["share_of_community_area"] / total, 4) if total else None
    # the unrounded value too: a gap between two areas is the gap of their values, not of their rounded dollars
    out = {"home_value": whole(period.area[row]), "home_value_exact": float(period.area[row]),
           "home_value_period": period.label, "zips": contributors,
           "zips_without_values": missing, "zip_coverage": round(total, 4)}
    if since is not None:
        then, change = home.change(period, since).get(number, (None, None))
        out.update({"home_value_since": whole(then), "home_value_since_period": since.label,
                    "home_value_change_pct": None if change is None else round(change, 1)})
    return out


def rank_scores(home: HomeValues, period: Period, since: Period | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per area: the value (or the change since) to rank by, and whether the area is covered enough to rank."""
    score = period.area.copy()
    if since is not None:
        changes = home.change(period, since)
        score = np.array([np.nan if changes.get(n, (None, None))[1] is None else changes[n][1]
                          for n in range(1, 78)])
    eligible = (period.coverage >= MIN_RANK_COVERAGE) & ~np.isnan(score) & ~np.isnan(period.area)
    return score, eligible


def zip_spread(period: Period) -> dict:
    """Zillow publishes no city figure in this extract, so the city is described by its ZIPs' spread (the query's)."""
    spread = period.spread
    return {"home_value_zip_median": whole(spread["median"]), "home_value_zip_min": whole(spread["min"]),
            "home_value_zip_max": whole(spread["max"]), "zips_valued": int(spread["n"]),
            "home_value_period": period.label}


def home_series(home: HomeValues, number_row, period: Period, since_year, zip_row=None) -> dict:
    """Annual values from since_year (or the first year) up to the period, the last row being the period."""
    first = since_year if since_year is not None else home.first_year
    last = period.target_year
    years = list(range(first, last))
    yearly = home.series({"years": years}, number=None if number_row is None else number_row + 1,
                         zip_code=None if zip_row is None else home.zips[zip_row]) if years else {}
    labels, vals = [], []
    for y in years:
        labels.append(str(y))
        vals.append(yearly.get(y))
    labels.append(period.label)
    vals.append(period.area[number_row] if zip_row is None else period.vector[zip_row])
    return rows_table([(label, whole(v)) for label, v in zip(labels, vals)], ["period", "home_value"])


def area_value_map(home: HomeValues, period: Period | None, since: Period | None) -> dict | None:
    """The page's map: every rankable area's value (or change since), as the ranking would score it."""
    if period is None:
        return None
    score, eligible = rank_scores(home, period, since)
    if since is not None:
        values = {int(i) + 1: round(float(score[i]), 1) for i in np.flatnonzero(eligible)}
        return area_map("home_value_change_pct", "percent", f"Home value change since {since.year}",
                        f"{since.label} to {period.label}", values)
    values = {int(i) + 1: whole(score[i]) for i in np.flatnonzero(eligible)}
    return area_map("home_value", "dollars", f"Zillow home value ({period.label})", period.label, values)


def zip_value_map(home: HomeValues, period: Period | None) -> dict | None:
    """The page's map of every Chicago ZIP's own Zillow value."""
    if period is None:
        return None
    values = {z: whole(period.vector[j]) for j, z in enumerate(home.zips) if not np.isnan(period.vector[j])}
    return zip_map("home_value", "dollars", f"Zillow home value by ZIP ({period.label})", period.label, values)
