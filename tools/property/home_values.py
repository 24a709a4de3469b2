"""Zillow home values (ZHVI) by ZIP, carried to community areas through the ZIP crosswalk.

A community area's value is the mean of its ZIPs' values weighted by ``share_of_community_area``
(land-area overlap), renormalised over the ZIPs that have a value for the period: Zillow leaves
some ZIPs out, and dividing by the full weight would pull those areas towards zero. A year is the
average of its months; the last, partial year uses its latest month, because an average of a few
months would not be comparable with full years.
"""
from __future__ import annotations

import calendar
import re
import warnings

import numpy as np

from tools.common import rows_table
from tools.errors import ToolArgumentError
from tools.map_hints import area_map, zip_map

ZHVI_SETS = ["zhvi", "zip_crosswalk"]
MIN_RANK_COVERAGE = 0.2  # areas whose valued ZIPs cover less of their land are left out of rankings

ZHVI_CAVEAT = ("Zillow's ZHVI is a smoothed, seasonally adjusted index of a typical mid-tier home's value "
               "(single-family and condo), not a sale price.")
CROSSWALK_CAVEAT = ("Community-area home values are approximations: the mean of the area's ZIP values weighted "
                    "by land-area overlap, not by homes or population.")


class HomeValues:
    """ZIP x month values, their annual averages and the 77 areas' weighted values, built once per bundle."""

    def __init__(self, data):
        wide = data.zhvi.pivot(index="zip", columns="date", values="value").sort_index(axis=1)
        wide = wide[wide.notna().any(axis=1)]
        self.zips: list[str] = list(wide.index)
        self.zip_row = {zip_code: i for i, zip_code in enumerate(self.zips)}
        dates = list(wide.columns)
        self.months = [d.strftime("%Y-%m") for d in dates]
        self.month_index = {m: i for i, m in enumerate(self.months)}
        self.monthly = wide.to_numpy(dtype=float)
        month_years = np.array([d.year for d in dates])
        self.years = sorted(set(month_years.tolist()))
        self.year_index = {y: i for i, y in enumerate(self.years)}
        self.months_in_year = {y: int((month_years == y).sum()) for y in self.years}
        # A ZIP with no values in a year gives NaN on purpose; numpy's "mean of empty slice" warning is noise.
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", category=RuntimeWarning)
            self.annual = np.column_stack([np.nanmean(self.monthly[:, month_years == y], axis=1) for y in self.years])
        self.first_year, self.last_year = self.years[0], self.years[-1]
        self.latest_month = self.months[-1]
        self.last_year_partial = self.months_in_year[self.last_year] < 12

        geo = data.geography
        self.area_zips: dict[int, list[tuple[str, float]]] = {
            n: sorted(geo.area_to_zips.get(n, []), key=lambda p: -p[1]) for n in range(1, 78)}
        self.weights = np.zeros((77, len(self.zips)))
        for number, pairs in self.area_zips.items():
            for zip_code, share in pairs:
                if zip_code in self.zip_row:
                    self.weights[number - 1, self.zip_row[zip_code]] += share
        self.area_monthly = self._area_matrix(self.monthly)
        self.area_annual = self._area_matrix(self.annual)

    def _area_matrix(self, values: np.ndarray) -> np.ndarray:
        mask = ~np.isnan(values)
        num = self.weights @ np.where(mask, values, 0.0)
        den = self.weights @ mask.astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)

    def coverage_of(self, values: np.ndarray) -> np.ndarray:
        """Per area: the share of its land covered by ZIPs that have a value."""
        return self.weights @ (~np.isnan(values)).astype(float)


def coverage_text(home: HomeValues) -> str:
    return (f"Zillow home values cover {home.months[0]} to {home.latest_month} "
            f"(years {home.first_year}-{home.last_year})")


def whole(value):
    """A value rounded to a whole number of dollars, None when missing."""
    return None if value is None or (isinstance(value, float) and np.isnan(value)) else int(round(float(value)))


class Period:
    """A ZHVI period: one month's column or one year's average."""

    def __init__(self, home: HomeValues, year: int | None):
        self.year = year
        if year is None or (year == home.last_year and home.last_year_partial):
            self.kind, self.label = "month", home.latest_month
            self.vector = home.monthly[:, home.month_index[home.latest_month]]
            self.area = home.area_monthly[:, home.month_index[home.latest_month]]
            self.note = (None if year is None else
                         f"{year} is a partial year in the Zillow data (through {home.latest_month}); "
                         f"the latest month, {home.latest_month}, is used.")
        else:
            self.kind, self.label = "year", f"{year} average"
            self.vector = home.annual[:, home.year_index[year]]
            self.area = home.area_annual[:, home.year_index[year]]
            self.note = None
        self.target_year = home.last_year if year is None else year
        self.asked_month = None  # "June 2021" when the caller asked for one month (Period.for_month)

    @classmethod
    def for_month(cls, home: HomeValues, month: str) -> "Period":
        """One month's column, asked for by the ``month`` argument ("2021-06" or "latest")."""
        label = parse_month(home, month)
        period = cls(home, None)  # the latest month; replaced below when another is asked
        j = home.month_index[label]
        period.label, period.vector, period.area = label, home.monthly[:, j], home.area_monthly[:, j]
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
        raise ToolArgumentError(f"month {label} is outside the Zillow data: the first month is {home.months[0]} "
                                f"and the last (latest) month is {home.latest_month}", "out_of_range")
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
    out = {"home_value": whole(period.area[row]), "home_value_period": period.label, "zips": contributors,
           "zips_without_values": missing, "zip_coverage": round(total, 4)}
    if since is not None:
        out.update(_change(home, row, period, since))
    return out


def _change(home: HomeValues, row: int, period: Period, since: Period) -> dict:
    """Over the ZIPs valued in both periods only, so a ZIP entering the data does not read as a price change."""
    both = ~np.isnan(period.vector) & ~np.isnan(since.vector)
    w = home.weights[row] * both
    if w.sum() <= 0:
        return {"home_value_since": None, "home_value_since_period": since.label, "home_value_change_pct": None}
    now = float(w @ np.where(both, period.vector, 0.0)) / w.sum()
    then = float(w @ np.where(both, since.vector, 0.0)) / w.sum()
    return {"home_value_since": whole(then), "home_value_since_period": since.label,
            "home_value_change_pct": round(100 * (now / then - 1), 1)}


def rank_scores(home: HomeValues, period: Period, since: Period | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per area: the value (or the change since) to rank by, and whether the area is covered enough to rank."""
    coverage = home.coverage_of(period.vector)
    score = period.area.copy()
    if since is not None:
        both = ~np.isnan(period.vector) & ~np.isnan(since.vector)
        w = home.weights * both
        total = w.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            now = (w @ np.where(both, period.vector, 0.0)) / total
            then = (w @ np.where(both, since.vector, 0.0)) / total
            score = 100 * (now / then - 1)
    eligible = (coverage >= MIN_RANK_COVERAGE) & ~np.isnan(score) & ~np.isnan(period.area)
    return score, eligible


def zip_spread(period: Period) -> dict:
    """Zillow publishes no city figure in this extract, so the city is described by its ZIPs' spread."""
    valid = period.vector[~np.isnan(period.vector)]
    return {"home_value_zip_median": whole(np.median(valid)), "home_value_zip_min": whole(valid.min()),
            "home_value_zip_max": whole(valid.max()), "zips_valued": int(valid.size),
            "home_value_period": period.label}


def home_series(home: HomeValues, number_row, period: Period, since_year, zip_row=None) -> dict:
    """Annual values from since_year (or the first year) up to the period, the last row being the period."""
    first = since_year if since_year is not None else home.first_year
    last = period.target_year
    labels, vals = [], []
    for y in range(first, last + 1):
        if y == last:
            labels.append(period.label)
            vals.append(period.area[number_row] if zip_row is None else period.vector[zip_row])
        else:
            j = home.year_index[y]
            labels.append(str(y))
            vals.append(home.area_annual[number_row, j] if zip_row is None else home.annual[zip_row, j])
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
