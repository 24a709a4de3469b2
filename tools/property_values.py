"""Home values and house-price trends by community area or ZIP.

One tool, ``query_property_values``, over two sources:

* ``zhvi`` - Zillow Home Value Index by ZIP, monthly 2000-01..2024-09 (mid-tier, smoothed, seasonally
  adjusted; a typical-home value, not a sale price). A community area's value is the mean of its ZIPs'
  values weighted by ``share_of_community_area`` from the ZIP crosswalk (land-area overlap),
  renormalised over the ZIPs that have a value for the period. A year is the average of its months;
  the last, partial year (2024) uses its latest month. The default period is the latest month.
* ``ihs_index`` - DePaul IHS Cook County House Price Index, quarterly 1997Q1..2025Q4, 2000Q1 = 100, by
  submarket (2020 PUMA). An area uses its submarket(s) from the submarket crosswalk; the central PUMA
  p3160 (Near North Side, Loop, Near South Side) is not in the index, so those areas fall back to the
  CHICAGO series. The level for a year is its fourth quarter (or the latest quarter); change since a
  year runs from that year's first quarter (IHS's own "change since 2000" convention).

Everything heavy (ZIP x month matrix, the 77 areas' monthly and annual values, the wide index table)
is computed once per DataBundle and kept in ``bundle.__dict__["_property_cache"]``.
"""
from __future__ import annotations

import numpy as np

from tools.common import (AREA_SCHEMA, COMPARE_SCHEMA, SORT_SCHEMA, TOP_N_SCHEMA, fmt_money, fmt_num, fmt_pct,
                          make_result, resolve_areas)
from tools.registry import Tool, ToolArgumentError
from tools.socioeconomic import fit_text, rows_table

TOOL_NAME = "query_property_values"
CACHE_KEY = "_property_cache"
METRIC_NAMES = ["home_value", "price_trend", "all"]
ZHVI_SETS = ["zhvi", "zip_crosswalk"]
IHS_SETS = ["ihs_index", "submarket_crosswalk"]
CITY_SERIES = "CHICAGO"
MIN_RANK_COVERAGE = 0.2  # areas whose valued ZIPs cover less of their land are left out of rankings

ZHVI_CAVEAT = ("Zillow's ZHVI is a smoothed, seasonally adjusted index of a typical mid-tier home's value "
               "(single-family and condo), not a sale price.")
CROSSWALK_CAVEAT = ("Community-area home values are approximations: the mean of the area's ZIP values weighted "
                    "by land-area overlap, not by homes or population.")
IHS_CAVEAT = ("The DePaul IHS price index measures price change (2000Q1 = 100) for a submarket of several "
              "community areas; it is not a price level and is not specific to one community area.")
P3160_CAVEAT = ("The central submarket p3160 (Near North Side, Loop, Near South Side) is not in the IHS price "
                "index, so the Chicago-wide series is used instead for that area.")


# ------------------------------------------------------------------ per-bundle cache

class PropertyCache:
    def __init__(self, data):
        self.source = data.zhvi
        z = data.zhvi
        wide = z.pivot(index="zip", columns="date", values="value").sort_index(axis=1)
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
        with np.errstate(invalid="ignore"), _quiet():
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
        self.area_names = {n: geo.area_name(n) for n in range(1, 78)}

        ihs = data.ihs_index
        self.ihs = ihs.pivot(index="yearq", columns="submarket_code", values="index").sort_index()
        self.quarters = list(self.ihs.index)
        self.quarter_index = {q: i for i, q in enumerate(self.quarters)}
        self.ihs_arrays = {code: self.ihs[code].to_numpy(dtype=float) for code in self.ihs.columns}
        self.ihs_names = dict(zip(ihs["submarket_code"], ihs["submarket_name"]))
        self.ihs_first_year = int(self.quarters[0][:4])
        self.ihs_last_year = int(self.quarters[-1][:4])
        self.area_submarkets = {n: geo.area_to_submarkets.get(n, []) for n in range(1, 78)}
        self.submarket_areas: dict[str, list[int]] = {}
        for number, subs in self.area_submarkets.items():
            for sub in subs:
                self.submarket_areas.setdefault(sub["code"], []).append(number)

    def _area_matrix(self, values: np.ndarray) -> np.ndarray:
        mask = ~np.isnan(values)
        num = self.weights @ np.where(mask, values, 0.0)
        den = self.weights @ mask.astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)

    def coverage_of(self, values: np.ndarray) -> np.ndarray:
        """Per area: the share of its land covered by ZIPs that have a value."""
        return self.weights @ (~np.isnan(values)).astype(float)


class _quiet:
    """Silence numpy's 'mean of empty slice' warnings for ZIPs with no values in a year."""

    def __enter__(self):
        import warnings

        self._ctx = warnings.catch_warnings()
        self._ctx.__enter__()
        warnings.simplefilter("ignore", category=RuntimeWarning)

    def __exit__(self, *exc):
        return self._ctx.__exit__(*exc)


def property_cache(data) -> PropertyCache:
    cached = data.__dict__.get(CACHE_KEY)
    if cached is None or cached.source is not data.zhvi:
        cached = data.__dict__[CACHE_KEY] = PropertyCache(data)
    return cached


# ------------------------------------------------------------------ periods

def _zhvi_coverage(c: PropertyCache) -> str:
    return f"Zillow home values cover {c.months[0]} to {c.latest_month} (years {c.first_year}-{c.last_year})"


def _ihs_coverage(c: PropertyCache) -> str:
    return (f"the IHS price index covers {c.quarters[0]} to {c.quarters[-1]} "
            f"(years {c.ihs_first_year}-{c.ihs_last_year})")


class Period:
    """A ZHVI period: one month's column or one year's average."""

    def __init__(self, c: PropertyCache, year: int | None):
        self.year = year
        if year is None or (year == c.last_year and c.last_year_partial):
            self.kind, self.label = "month", c.latest_month
            self.vector = c.monthly[:, c.month_index[c.latest_month]]
            self.area = c.area_monthly[:, c.month_index[c.latest_month]]
            self.note = (None if year is None else
                         f"{year} is a partial year in the Zillow data (through {c.latest_month}); "
                         f"the latest month, {c.latest_month}, is used.")
        else:
            self.kind, self.label = "year", f"{year} average"
            self.vector = c.annual[:, c.year_index[year]]
            self.area = c.area_annual[:, c.year_index[year]]
            self.note = None
        self.target_year = c.last_year if year is None else year


def _check_years(c: PropertyCache, metric: str, year, since_year) -> None:
    for name, value in (("year", year), ("since_year", since_year)):
        if value is None:
            continue
        if metric in ("home_value", "all") and not c.first_year <= value <= c.last_year:
            extra = f"; {_ihs_coverage(c)} (metric price_trend)" if metric == "home_value" else f"; {_ihs_coverage(c)}"
            raise ToolArgumentError(f"{name} {value} is outside the data: {_zhvi_coverage(c)}{extra}",
                                    "out_of_range")
        if metric == "price_trend" and not c.ihs_first_year <= value <= c.ihs_last_year:
            raise ToolArgumentError(f"{name} {value} is outside the data: {_ihs_coverage(c)}; "
                                    f"{_zhvi_coverage(c)} (metric home_value)", "out_of_range")
    if since_year is not None:
        if metric in ("home_value", "all"):
            target = c.last_year if year is None else year
            if since_year >= target:
                raise ToolArgumentError(
                    f"since_year {since_year} must be before the year compared "
                    f"({'the latest month, ' + c.latest_month if year is None else year}); "
                    f"{_zhvi_coverage(c)}", "out_of_range")
        elif year is not None and since_year > year:
            raise ToolArgumentError(f"since_year {since_year} is after year {year}", "out_of_range")


def _ihs_window(c: PropertyCache, year, since_year) -> tuple[str, str, str | None]:
    """(end quarter, base quarter, note) for the price index."""
    note = None
    if year is None:
        end = c.quarters[-1]
    else:
        end = f"{year}Q4" if f"{year}Q4" in c.quarter_index else max(q for q in c.quarters if q.startswith(str(year)))
        if not end.endswith("Q4"):
            note = f"{year} is partial in the price index; its latest quarter, {end}, is used."
    start_year = since_year if since_year is not None else min(2000, int(end[:4]))
    return end, f"{start_year}Q1", note


def _index_stats(c: PropertyCache, code: str, end: str, base: str) -> dict:
    series = c.ihs_arrays[code]
    i = c.quarter_index[end]
    level = float(series[i])
    base_level = float(series[c.quarter_index[base]])
    yoy = None
    if i >= 4:
        prev = float(series[i - 4])
        yoy = round(100 * (level / prev - 1), 1)
    return {"price_index": round(level, 1), "price_index_quarter": end, "price_index_since_quarter": base,
            "price_index_since": round(base_level, 1),
            "price_index_change_pct": round(100 * (level / base_level - 1), 1), "price_index_yoy_pct": yoy}


def _signed(value) -> str:
    return "n/a" if value is None else ("+" if value > 0 else "") + fmt_pct(value)


def _int(value):
    return None if value is None or (isinstance(value, float) and np.isnan(value)) else int(round(float(value)))


# ------------------------------------------------------------------ area pieces

def _area_home_value(c: PropertyCache, number: int, period: Period, since: Period | None) -> dict:
    row = number - 1
    contributors, missing = [], []
    for zip_code, share in c.area_zips[number]:
        j = c.zip_row.get(zip_code)
        value = None if j is None else period.vector[j]
        if value is None or np.isnan(value):
            missing.append(zip_code)
        else:
            contributors.append({"zip": zip_code, "share_of_community_area": round(share, 4),
                                 "home_value": _int(value)})
    total = sum(z["share_of_community_area"] for z in contributors)
    for z in contributors:
        z["weight"] = round(z["share_of_community_area"] / total, 4) if total else None
    out = {"home_value": _int(period.area[row]), "home_value_period": period.label, "zips": contributors,
           "zips_without_values": missing, "zip_coverage": round(total, 4)}
    if since is not None:
        out.update(_change(c, row, period, since))
    return out


def _change(c: PropertyCache, row: int, period: Period, since: Period) -> dict:
    """Change from the since-period to the period over the ZIPs valued in both."""
    both = ~np.isnan(period.vector) & ~np.isnan(since.vector)
    w = c.weights[row] * both
    if w.sum() <= 0:
        return {"home_value_since": None, "home_value_since_period": since.label, "home_value_change_pct": None}
    now = float(w @ np.where(both, period.vector, 0.0)) / w.sum()
    then = float(w @ np.where(both, since.vector, 0.0)) / w.sum()
    return {"home_value_since": _int(then), "home_value_since_period": since.label,
            "home_value_change_pct": round(100 * (now / then - 1), 1)}


def _area_price_trend(c: PropertyCache, number: int, end: str, base: str) -> tuple[dict, list[str]]:
    subs = c.area_submarkets[number]
    notes = []
    listed = []
    for sub in sorted(subs, key=lambda s: -s["share"]):
        entry = {"code": sub["code"], "name": c.ihs_names.get(sub["code"], sub["name"]),
                 "share_of_community_area": round(sub["share"], 4), "in_price_index": sub["in_price_index"]}
        if sub["in_price_index"] and sub["code"] in c.ihs_arrays:
            entry.update(_index_stats(c, sub["code"], end, base))
        listed.append(entry)
    indexed = [s for s in listed if "price_index" in s]
    if indexed:
        primary = indexed[0]
        fallback = False
        if len(indexed) < len(listed):
            notes.append("Part of this area lies in submarket p3160, which is not in the IHS index; "
                         "the indexed submarket is used.")
        code, name = primary["code"], primary["name"]
        stats = {k: primary[k] for k in primary if k.startswith("price_index")}
    else:
        fallback = True
        notes.append(P3160_CAVEAT)
        code, name = CITY_SERIES, "Chicago (city-wide series)"
        stats = _index_stats(c, CITY_SERIES, end, base)
    return {**stats, "submarket_code": code, "submarket_name": name, "submarkets": listed,
            "price_index_fallback": fallback}, notes


def _city_context(c: PropertyCache, metric: str, period: Period | None, end: str | None, base: str | None) -> dict:
    city = {}
    if metric in ("home_value", "all") and period is not None:
        valid = period.vector[~np.isnan(period.vector)]
        city.update({"home_value_zip_median": _int(np.median(valid)), "home_value_zip_min": _int(valid.min()),
                     "home_value_zip_max": _int(valid.max()), "zips_valued": int(valid.size),
                     "home_value_period": period.label})
    if metric in ("price_trend", "all") and end is not None:
        city.update(_index_stats(c, CITY_SERIES, end, base))
    return city


# ------------------------------------------------------------------ method strings

def _home_method(c: PropertyCache, period: Period) -> str:
    when = (f"the month {period.label}" if period.kind == "month"
            else f"the average of the 12 months of {period.year}")
    return (f"Home value: Zillow ZHVI for {when}; a community area's value is the mean of its ZIPs' values "
            "weighted by each ZIP's share of the area's land (renormalised over ZIPs with a value); "
            "change since a year compares with that year's 12-month average over the ZIPs valued in both.")


def _index_method(end: str, base: str) -> str:
    return (f"Price index: DePaul IHS house price index (2000Q1 = 100) for the area's main submarket, level in "
            f"{end}, change from {base}, year over year against the same quarter a year earlier.")


# ------------------------------------------------------------------ the tool

def query_property_values(data, community_area=None, zip=None, compare_areas=None, year=None, since_year=None,
                          metric="all", top_n=None, sort_order="desc"):
    c = property_cache(data)
    geo = data.geography
    if zip is not None:
        if community_area is not None or compare_areas or top_n is not None:
            raise ToolArgumentError("give either zip or community_area/compare_areas/top_n, not both; a ZIP "
                                    "query answers for that ZIP alone", "conflicting_arguments")
        zip_code = geo.check_zip(zip)
    numbers = resolve_areas(geo, community_area, compare_areas)
    _check_years(c, metric, year, since_year)
    wants_home = metric in ("home_value", "all")
    wants_index = metric in ("price_trend", "all")
    period = Period(c, year) if wants_home else None
    since = Period(c, since_year) if (wants_home and since_year is not None) else None
    end, base, ihs_note = _ihs_window(c, year, since_year) if wants_index else (None, None, None)
    caveats = [n for n in (period.note if period else None, ihs_note) if n]
    datasets = (ZHVI_SETS if wants_home else []) + (IHS_SETS if wants_index else [])
    if wants_home:
        caveats += [ZHVI_CAVEAT]
    if wants_index:
        caveats.append(IHS_CAVEAT)
    method = " ".join(([_home_method(c, period)] if wants_home else []) + ([_index_method(end, base)] if wants_index else []))
    ctx = dict(data=data, c=c, metric=metric, period=period, since=since, end=end, base=base,
               caveats=caveats, datasets=datasets, method=method)
    if zip is not None:
        return _zip_result(zip_code=zip_code, year=year, **ctx)
    if numbers and top_n is not None:
        caveats.append(f"top_n={top_n} was ignored because specific community areas were named.")
    if wants_home and numbers:
        caveats.append(CROSSWALK_CAVEAT)
    if len(numbers) == 1:
        return _single(number=numbers[0], **ctx)
    if numbers:
        return _comparison(numbers=numbers, **ctx)
    if top_n is not None:
        return _ranking(top_n=top_n, sort_order=sort_order, **ctx)
    return _citywide(**ctx)


def _home_text(c, values, period) -> list[str]:
    zips = ", ".join(f"{z['zip']} {fmt_money(z['home_value'])} (w {z['weight']:.2f})" for z in values["zips"])
    lines = [f"Home value (Zillow ZHVI, {period.label}): {fmt_money(values['home_value'])}"
             + (f" = weighted mean of ZIPs {zips}" if zips else "")]
    if values["zips_without_values"]:
        lines.append(f"ZIPs without Zillow values: {', '.join(values['zips_without_values'])} "
                     f"(valued ZIPs cover {values['zip_coverage']:.0%} of the area's land)")
    if "home_value_change_pct" in values:
        lines.append(f"Change since {values['home_value_since_period']} ({fmt_money(values['home_value_since'])}): "
                     f"{_signed(values['home_value_change_pct'])}")
    return lines


def _index_text(values) -> str:
    where = values["submarket_name"]
    return (f"Price index (DePaul IHS, {where}, 2000Q1=100): {fmt_num(values['price_index'])} in "
            f"{values['price_index_quarter']}; {_signed(values['price_index_change_pct'])} since "
            f"{values['price_index_since_quarter']}; year over year {_signed(values['price_index_yoy_pct'])}")


def _city_text(city) -> str:
    parts = []
    if "price_index" in city:
        parts.append(f"index {fmt_num(city['price_index'])} ({_signed(city['price_index_change_pct'])} since "
                     f"{city['price_index_since_quarter']}, yoy {_signed(city['price_index_yoy_pct'])})")
    if "home_value_zip_median" in city:
        parts.append(f"median Chicago ZIP home value {fmt_money(city['home_value_zip_median'])} "
                     f"({city['home_value_period']})")
    return "Chicago: " + "; ".join(parts)


def _home_series(c, number_row, period, since_year, zip_row=None) -> dict:
    """Annual values from since_year (or the first year) up to the period, the last row being the period."""
    first = since_year if since_year is not None else c.first_year
    last = period.target_year
    labels, vals = [], []
    for y in range(first, last + 1):
        if y == last:
            labels.append(period.label)
            vals.append(period.area[number_row] if zip_row is None else period.vector[zip_row])
        else:
            j = c.year_index[y]
            labels.append(str(y))
            vals.append(c.area_annual[number_row, j] if zip_row is None else c.annual[zip_row, j])
    return rows_table([(label, _int(v)) for label, v in zip(labels, vals)], ["period", "home_value"])


def _index_series(c, code, end, base) -> dict:
    lo, hi = c.quarter_index[base], c.quarter_index[end]
    quarters = c.quarters[lo:hi + 1]
    own = c.ihs_arrays[code][lo:hi + 1].round(1).tolist()
    if code == CITY_SERIES:
        return rows_table(list(zip(quarters, own)), ["quarter", "price_index"])
    city = c.ihs_arrays[CITY_SERIES][lo:hi + 1].round(1).tolist()
    return rows_table(list(zip(quarters, own, city)), ["quarter", "price_index", "Chicago"])


def _single(data, c, number, metric, period, since, end, base, caveats, datasets, method):
    name = c.area_names[number]
    values = {"scope": "area", "community_area": number, "name": name, "metric": metric}
    lines = [f"{name} (community area {number}):"]
    if period is not None:
        home = _area_home_value(c, number, period, since)
        values.update(home)
        if home["home_value"] is None:
            caveats.append(f"No Zillow values exist for {name}'s ZIPs ({', '.join(home['zips_without_values'])}).")
            lines.append(f"Home value: not available (no Zillow values for ZIPs {', '.join(home['zips_without_values'])}).")
        else:
            lines += _home_text(c, home, period)
            if home["zip_coverage"] < 0.5:
                caveats.append(f"Only {home['zip_coverage']:.0%} of {name}'s land lies in ZIPs with Zillow values; "
                               "its figure mostly reflects neighbouring areas.")
    if end is not None:
        trend, notes = _area_price_trend(c, number, end, base)
        values.update(trend)
        caveats.extend(notes)
        lines.append(_index_text(trend))
        if len(trend["submarkets"]) > 1:
            lines.append("Submarkets: " + "; ".join(
                f"{s['name']} {s['share_of_community_area']:.0%}" + (f" (index {fmt_num(s['price_index'])})"
                                                                     if "price_index" in s else " (not indexed)")
                for s in trend["submarkets"]))
    values["city"] = _city_context(c, metric, period, end, base)
    values["method"] = method
    lines.append(_city_text(values["city"]))
    summary_parts = []
    if period is not None:
        summary_parts.append(f"home value {fmt_money(values.get('home_value'))} ({period.label})"
                             + (f", {_signed(values.get('home_value_change_pct'))} since {since.year}" if since else ""))
    if end is not None:
        summary_parts.append(f"price index {fmt_num(values['price_index'])} ({end}, "
                             f"{_signed(values['price_index_change_pct'])} since {base})")
    summary = f"{name}: " + "; ".join(summary_parts)
    if period is not None:
        table = _home_series(c, number - 1, period, since.year if since else None)
        chart = {"type": "line", "x": "period", "y": "home_value", "title": f"{name}: Zillow home value"}
    else:
        table = _index_series(c, values["submarket_code"], end, base)
        chart = {"type": "line", "x": "quarter", "y": "price_index",
                 "title": f"{name}: IHS price index ({values['submarket_name']})"}
    return make_result(TOOL_NAME, values=values, text="\n".join(lines), summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart)


def _memo(c: PropertyCache, key: tuple, compute):
    """Per-bundle memo of per-area pieces used by comparisons and rankings (callers copy scalars out)."""
    memo = c.__dict__.setdefault("_memo", {})
    if key not in memo:
        if len(memo) > 20000:
            memo.clear()
        memo[key] = compute()
    return memo[key]


def _area_row(c, number, metric, period, since, end, base) -> tuple[dict, list[str]]:
    row = {"community_area": number, "name": c.area_names[number]}
    notes = []
    if period is not None:
        home = _memo(c, ("home", number, period.label, since.label if since else None),
                     lambda: _area_home_value(c, number, period, since))
        row.update({k: home[k] for k in ("home_value", "zip_coverage")})
        if since is not None:
            row.update({k: home[k] for k in ("home_value_since", "home_value_change_pct")})
    if end is not None:
        trend, notes = _memo(c, ("trend", number, end, base), lambda: _area_price_trend(c, number, end, base))
        notes = list(notes)
        row.update({k: trend[k] for k in ("price_index", "price_index_change_pct", "price_index_yoy_pct",
                                          "submarket_code", "submarket_name", "price_index_fallback")})
    return row, notes


def _row_text(row, period, since, base) -> str:
    parts = []
    if "home_value" in row:
        parts.append(f"home value {fmt_money(row['home_value'])}")
        if since is not None:
            parts.append(f"{_signed(row['home_value_change_pct'])} since {since.year}")
    if "price_index" in row:
        parts.append(f"index {fmt_num(row['price_index'])} ({_signed(row['price_index_change_pct'])} since {base})")
    prefix = f"{row['rank']}. " if "rank" in row else ""
    return f"{prefix}{row['name']} ({row['community_area']}): " + ", ".join(parts)


def _key_text(row, key) -> str:
    value = fmt_money(row.get(key)) if key == "home_value" else _signed(row.get(key))
    prefix = f"{row['rank']}. " if "rank" in row else ""
    return f"{prefix}{row['name']} ({row['community_area']}): {value}"


def _comparison(data, c, numbers, metric, period, since, end, base, caveats, datasets, method):
    rows = []
    for number in numbers:
        row, notes = _area_row(c, number, metric, period, since, end, base)
        rows.append(row)
        caveats.extend(notes)
    key = "home_value" if period is not None else "price_index_change_pct"
    label_when = period.label if period is not None else f"{base}-{end}"
    city = _city_context(c, metric, period, end, base)
    text = fit_text([f"Comparison of {len(rows)} community areas ({label_when}):"],
                    [_row_text(r, period, since, base) for r in rows], [_city_text(city)],
                    [_key_text(r, key) for r in rows])
    ranked = sorted((r for r in rows if r.get(key) is not None), key=lambda r: -r[key])
    fmt = fmt_money if key == "home_value" else _signed
    summary = (("Home value" if key == "home_value" else f"Price change since {base}") + ": "
               + ", ".join(f"{r['name']} {fmt(r[key])}" for r in ranked))
    values = {"scope": "comparison", "metric": metric, "compare_by": key, "rows": rows, "city": city,
              "highest": ranked[0]["name"] if ranked else None, "method": method,
              "home_value_period": period.label if period is not None else None,
              "price_index_quarter": end}
    table = rows_table(rows, list(rows[0]))
    chart = {"type": "bar", "x": "name", "y": key, "title": f"{key.replace('_', ' ')} ({label_when})"}
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart)


def _ranking(data, c, metric, period, since, end, base, top_n, sort_order, caveats, datasets, method):
    direction = "highest" if sort_order == "desc" else "lowest"
    if period is None:
        return _submarket_ranking(data, c, end, base, top_n, sort_order, caveats, datasets, method)
    key = "home_value_change_pct" if since is not None else "home_value"
    coverage = c.coverage_of(period.vector)
    score = period.area.copy()
    if since is not None:
        both = ~np.isnan(period.vector) & ~np.isnan(since.vector)
        w = c.weights * both
        total = w.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            now = (w @ np.where(both, period.vector, 0.0)) / total
            then = (w @ np.where(both, since.vector, 0.0)) / total
            score = 100 * (now / then - 1)
    eligible = (coverage >= MIN_RANK_COVERAGE) & ~np.isnan(score) & ~np.isnan(period.area)
    left_out = [c.area_names[i + 1] for i in np.flatnonzero(~eligible)]
    order = sorted(np.flatnonzero(eligible), key=lambda i: (score[i] if sort_order == "asc" else -score[i], i))
    rows = []
    for position, i in enumerate(order[:top_n], start=1):
        row, _ = _area_row(c, int(i) + 1, "home_value", period, since, None, None)
        rows.append({"rank": position, **row})
    candidates = order
    if end is not None:  # metric all: add each ranked area's price index
        for r in rows:
            number = r["community_area"]
            trend, _ = _memo(c, ("trend", number, end, base), lambda: _area_price_trend(c, number, end, base))
            r.update({k: trend[k] for k in ("price_index", "price_index_change_pct", "submarket_name")})
    label = (f"home value change since {since.year} average" if since is not None
             else f"Zillow home value ({period.label})")
    city = _city_context(c, metric, period, end, base)
    text = fit_text([f"Top {len(rows)} community areas by {label} ({direction} first):"],
                    [_row_text(r, period, since, base) for r in rows], [_city_text(city)],
                    [_key_text(r, key) for r in rows])
    if left_out:
        caveats.append(f"Left out (ZIPs with Zillow values cover under {MIN_RANK_COVERAGE:.0%} of the area): "
                       f"{', '.join(left_out)}.")
    caveats.append(CROSSWALK_CAVEAT)
    fmt = fmt_money if key == "home_value" else _signed
    summary = (f"{direction.capitalize()} {label}: {rows[0]['name']} ({fmt(rows[0][key])})" if rows else "no rows")
    values = {"scope": "ranking", "metric": metric, "rank_by": key, "sort_order": sort_order, "rows": rows,
              "city": city, "areas_ranked": len(candidates), "left_out": left_out, "method": method,
              "home_value_period": period.label, "price_index_quarter": end}
    table = rows_table(rows, list(rows[0]) if rows else ["rank", "community_area", "name", key])
    chart = {"type": "bar", "x": "name", "y": key, "title": f"{label} ({direction} first)"}
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart)


def _submarket_ranking(data, c, end, base, top_n, sort_order, caveats, datasets, method):
    direction = "highest" if sort_order == "desc" else "lowest"
    candidates = []
    for code in sorted(c.submarket_areas):
        if code not in c.ihs_arrays or not str(c.ihs_names.get(code, "")).startswith("Chicago--"):
            continue
        stats = _index_stats(c, code, end, base)
        areas = sorted(c.submarket_areas[code])
        candidates.append({"submarket_code": code, "name": c.ihs_names[code].removeprefix("Chicago--"),
                           "community_areas": areas, "area_names": [c.area_names[n] for n in areas], **stats})
    key = "price_index_change_pct"
    candidates.sort(key=lambda r: (r[key] if sort_order == "asc" else -r[key], r["submarket_code"]))
    rows = [{"rank": i, **r} for i, r in enumerate(candidates[:top_n], start=1)]
    items = [f"{r['rank']}. {r['name']}: index {fmt_num(r['price_index'])}, {_signed(r[key])} since {base}, "
             f"yoy {_signed(r['price_index_yoy_pct'])} (areas {', '.join(map(str, r['community_areas']))})"
             for r in rows]
    city = _city_context(c, "price_trend", None, end, base)
    text = fit_text([f"Top {len(rows)} Chicago IHS submarkets by price change {base} to {end} ({direction} first):"],
                    items, [_city_text(city)],
                    [f"{r['rank']}. {r['name']}: {_signed(r[key])}" for r in rows])
    caveats.append("The price index exists for submarkets (groups of community areas), so the ranking is of the "
                   f"{len(candidates)} Chicago submarkets; p3160 (Near North Side, Loop, Near South Side) is not indexed.")
    summary = (f"{direction.capitalize()} price change since {base}: {rows[0]['name']} ({_signed(rows[0][key])})"
               if rows else "no rows")
    values = {"scope": "ranking", "metric": "price_trend", "rank_by": key, "sort_order": sort_order,
              "rows": rows, "city": city, "submarkets_ranked": len(candidates), "method": method,
              "price_index_quarter": end}
    columns = ["rank", "submarket_code", "name", "area_names", "price_index", "price_index_change_pct",
               "price_index_yoy_pct"]
    table = rows_table([{**r, "area_names": ", ".join(r["area_names"])} for r in rows], columns)
    chart = {"type": "bar", "x": "name", "y": key, "title": f"IHS price change since {base} ({direction} first)"}
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart)


def _citywide(data, c, metric, period, since, end, base, caveats, datasets, method):
    city = _city_context(c, metric, period, end, base)
    values = {"scope": "city", "community_area": None, "name": "Chicago", "metric": metric, **city,
              "city": city, "method": method}
    lines = ["Chicago city-wide:"]
    if period is not None:
        lines.append(f"Zillow home values by ZIP ({period.label}): median {fmt_money(city['home_value_zip_median'])}, "
                     f"range {fmt_money(city['home_value_zip_min'])} to {fmt_money(city['home_value_zip_max'])} "
                     f"across {city['zips_valued']} ZIPs (Zillow publishes no city figure in this extract)")
        caveats.append("No city-wide Zillow value is held; the median of the Chicago ZIPs' values is shown.")
        eligible = (c.coverage_of(period.vector) >= MIN_RANK_COVERAGE) & ~np.isnan(period.area)
        idx = np.flatnonzero(eligible)
        high, low = int(idx[np.argmax(period.area[idx])]), int(idx[np.argmin(period.area[idx])])
        values["extremes"] = {
            "home_value": {side: {"community_area": i + 1, "name": c.area_names[i + 1], "value": _int(period.area[i])}
                           for side, i in (("highest", high), ("lowest", low))}}
        lines.append(f"Community areas (ZIP-weighted): highest {c.area_names[high + 1]} "
                     f"{fmt_money(period.area[high])}, lowest {c.area_names[low + 1]} {fmt_money(period.area[low])}")
    if end is not None:
        lines.append(f"Price index (DePaul IHS, Chicago, 2000Q1=100): {fmt_num(city['price_index'])} in {end}; "
                     f"{_signed(city['price_index_change_pct'])} since {base}; year over year "
                     f"{_signed(city['price_index_yoy_pct'])}")
        table = _index_series(c, CITY_SERIES, end, base)
        chart = {"type": "line", "x": "quarter", "y": "price_index", "title": "Chicago: IHS house price index"}
        summary = (f"Chicago price index {fmt_num(city['price_index'])} in {end} "
                   f"({_signed(city['price_index_change_pct'])} since {base})")
    else:
        order = np.argsort(-np.nan_to_num(period.vector, nan=-1))
        rows = [(c.zips[j], _int(period.vector[j])) for j in order if not np.isnan(period.vector[j])]
        table = rows_table(rows, ["zip", "home_value"])
        chart = {"type": "bar", "x": "zip", "y": "home_value", "title": f"Zillow home value by ZIP ({period.label})"}
        summary = f"Chicago median ZIP home value {fmt_money(city['home_value_zip_median'])} ({period.label})"
    return make_result(TOOL_NAME, values=values, text="\n".join(lines), summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart)


def _zip_result(data, c, zip_code, year, metric, period, since, end, base, caveats, datasets, method):
    geo = data.geography
    overlaps = sorted(geo.zip_to_areas[zip_code], key=lambda p: -p[1])
    areas = [{"community_area": n, "name": c.area_names[n], "share_of_zip": round(s, 4)} for n, s in overlaps]
    area_text = ", ".join(f"{a['name']} ({a['share_of_zip']:.0%})" for a in areas)
    values = {"scope": "zip", "zip": zip_code, "name": f"ZIP {zip_code}", "metric": metric,
              "community_areas": areas}
    lines = [f"ZIP {zip_code} (overlaps {area_text}):"]
    j = c.zip_row.get(zip_code)
    if period is not None:
        value = None if j is None else period.vector[j]
        if value is None or np.isnan(value):
            raise ToolArgumentError(
                f"ZIP {zip_code} has no Zillow home value for {period.label} in this extract ({_zhvi_coverage(c)}, "
                f"55 Chicago ZIPs; missing: 60617, 60666, 60707, 60827 and early years of 60603/60604). "
                f"Try metric price_trend, or community_area for {areas[0]['name']}", "no_data")
        values.update({"home_value": _int(value), "home_value_period": period.label})
        lines.append(f"Home value (Zillow ZHVI, {period.label}): {fmt_money(value)}")
        if since is not None:
            then = since.vector[j]
            change = None if np.isnan(then) else round(100 * (value / then - 1), 1)
            values.update({"home_value_since": _int(then), "home_value_since_period": since.label,
                           "home_value_change_pct": change})
            lines.append(f"Change since {since.label} ({fmt_money(_int(then))}): {_signed(change)}")
    if end is not None:
        trend, notes = _area_price_trend(c, areas[0]["community_area"], end, base)
        values.update(trend)
        caveats.extend(notes)
        caveats.append(f"The price index is for the submarket of {areas[0]['name']}, the community area covering "
                       f"most of ZIP {zip_code}.")
        lines.append(_index_text(trend))
    values["city"] = _city_context(c, metric, period, end, base)
    values["method"] = method.replace("a community area's value is the mean of its ZIPs' values weighted by each "
                                      "ZIP's share of the area's land (renormalised over ZIPs with a value); ",
                                      "the ZIP's own value; ")
    lines.append(_city_text(values["city"]))
    parts = []
    if period is not None:
        parts.append(f"home value {fmt_money(values['home_value'])} ({period.label})")
    if end is not None:
        parts.append(f"price index {fmt_num(values['price_index'])} ({end})")
    summary = f"ZIP {zip_code}: " + "; ".join(parts)
    if period is not None:
        table = _home_series(c, None, period, since.year if since else None, zip_row=j)
        chart = {"type": "line", "x": "period", "y": "home_value", "title": f"ZIP {zip_code}: Zillow home value"}
    else:
        table = _index_series(c, values["submarket_code"], end, base)
        chart = {"type": "line", "x": "quarter", "y": "price_index", "title": f"ZIP {zip_code}: IHS price index"}
    return make_result(TOOL_NAME, values=values, text="\n".join(lines), summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart)


# ------------------------------------------------------------------ registration

def register(registry) -> None:
    registry.register(Tool(
        name=TOOL_NAME,
        description=("Home values (Zillow, by ZIP mapped to community areas, 2000-2024) and house-price index "
                     "trends (DePaul IHS, 1997-2025) for an area or ZIP, a comparison, or a ranking."),
        parameters={
            "type": "object",
            "properties": {
                "community_area": AREA_SCHEMA,
                "zip": {"type": "string", "description": "a 5-digit Chicago ZIP code, instead of community_area"},
                "compare_areas": COMPARE_SCHEMA,
                "year": {"type": "integer",
                         "description": "2000-2024 for home values (default: latest month, 2024-09); "
                                        "1997-2025 for price_trend"},
                "since_year": {"type": "integer",
                               "description": "report the change since this year (price_trend default 2000)"},
                "metric": {"type": "string", "enum": METRIC_NAMES, "default": "all",
                           "description": "home_value = Zillow value; price_trend = IHS price index; all = both"},
                "top_n": TOP_N_SCHEMA,
                "sort_order": SORT_SCHEMA,
            },
            "required": [],
        },
        fn=query_property_values,
        domain="property",
    ))
