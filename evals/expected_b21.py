"""Expected figures for the blind21 held-out question set (Chicago public data).

Self-contained pandas code; the only app import is ``evals.expected.data_dir``.
Every public function is named ``b21_*``, takes keyword arguments only and returns ONE
figure (int, float or str).

Conventions (the app's documented conventions, as in blind19/blind20)
--------------------------------------------------------------------
* Homicides: one row per victim; year/month/weekday/hour from ``Date``.  Community Area,
  Ward and District are float strings -> int; blank rows are left out of per-place figures
  but counted in city totals.  Data end 2023-07-19 (2023 partial).
* Homicide rate per 100,000 a year: population = 2010 census (POP2010) for years <= 2015,
  ACS 2019-2023 total_population for years >= 2016; over several years
  rate = homicides / sum(each year's population) * 100,000.
* Pooled figures over a set = sum(numerators) / sum(denominators); ``how='mean'`` = plain
  mean of per-area values.
* Community-area names title-cased from community_areas.csv (O'Hare, McKinley Park).
* Community-area home value for a month = ZHVI of its ZIPs weighted by
  share_of_community_area (ZIPs without a value dropped, weights renormalised); areas with
  no value are NaN and left out of rankings.
* Socioeconomic = 2008-2012 ACS; census_acs = 2019-2023 ACS.  Percentages as percentages,
  money as plain numbers, a fall returned as a positive number where the question asks
  "how much did it fall".
* Share of the city's homicides uses the full city total (blank CA rows included).
* Ranking ties broken by community-area number; questions avoid depending on ties.
* City-wide homicide rate = all homicide rows (blank community area included) / city
  population of the same vintage.  City per-capita income etc. from the CHICAGO row of
  socioeconomic.csv.
* Thresholds may be relative: 'city' (the city-wide figure of the same measure), 'median'
  or 'mean' (of the per-area values present; East Side has no ZHVI, so home-value
  medians are over 76 areas).  "Above the median" is strictly above.
* A community area's ZIP / IHS submarket is the one with the largest overlap share
  (community_area_zip_crosswalk share_of_zip for "the area that covers most of a ZIP",
  share_of_community_area for "the ZIP / submarket an area lies in").
* Correlations are Pearson r over areas with both values present unless Spearman is asked
  for (Spearman = Pearson r of average ranks).

Conventions added for blind21
-----------------------------
* Homicide density ("per square mile") = homicides in the period / area_sq_mi of
  community_areas.csv (the whole period, not per year); pooled over a set =
  sum(homicides) / sum(square miles).
* ACS shares: race/ethnicity and age shares = count / total_population * 100; household
  income-band shares = band households / sum of the five band counts * 100; pooled over
  a set (or city-wide) = sum of counts / sum of bases * 100.  "65 and over" =
  male_65 + female_65; "children" = male_0_to_17 + female_0_to_17.
* Population change 2010 -> ACS = (ACS 2019-2023 total_population - POP2010) / POP2010 *
  100 (pooled: on the sums).
* Home-value change between two months = (later / earlier - 1) * 100 of the area (or ZIP)
  values; only areas/ZIPs with both values present are ranked.
* Percent changes are (new / old - 1) * 100; a ratio of two figures is a / b.
* "Arrest rate" / "domestic share" = percent of homicide rows flagged True.
* Weekend = Saturday + Sunday (by ``Date``).  Hours are the 24-hour clock hour of ``Date``
  (hour 0 = midnight to 00:59).
* Police district <-> community area: the community area its station sits in
  (police_stations.csv COMMUNITY AREA).  Ward <-> alderperson from ward_offices.csv (the
  2019-2023 council); the alderperson is returned as the surname only.
* IHS index value for a year = mean of its four quarterly values; the IHS summary table's
  percentages are returned as numbers (``"7.8%"`` -> 7.8) and prices as plain numbers.
* Redfin neighbourhood figures are the 90-day rolling rows identified by their period-end
  date; the "Chicago, IL" rows are monthly (30-day) and a year total = sum of the 12
  monthly rows whose period ends in that year.
* Rounding of returned figures: counts and money (incomes, home values, prices) as
  integers; rates, percentages, ratios, densities and index values to 1 decimal;
  correlations to 2 decimals.  Ranked/peak labels are returned as text (area names
  title-cased, month and weekday names in full, IHS submarket names without the
  ``Chicago--`` prefix, ZIP codes as integers).
* Redfin neighbourhood rankings may be restricted to rows with at least N homes sold
  (the question states N).
* Set statistics: ``how`` in {'pooled','sum','mean','median','city_share'}; city_share =
  the set's homicides / all homicide rows of the same years * 100.
"""
from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pandas as pd

from evals.expected import data_dir


# ----------------------------------------------------------------------------- loading
@functools.lru_cache(maxsize=None)
def _csv(name: str, **kw) -> pd.DataFrame:
    return pd.read_csv(Path(data_dir()) / name, **kw)


@functools.lru_cache(maxsize=None)
def _hom() -> pd.DataFrame:
    h = _csv("homicides.csv", dtype=str).copy()
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h["dt"].dt.year
    h["month"] = h["dt"].dt.month
    h["weekday"] = h["dt"].dt.day_name()
    h["hour"] = h["dt"].dt.hour
    for src, dst in (("Community Area", "ca"), ("Ward", "ward"), ("District", "district")):
        h[dst] = pd.to_numeric(h[src], errors="coerce").astype("Int64")
    h["arrest"] = h["Arrest"].str.lower().eq("true")
    h["domestic"] = h["Domestic"].str.lower().eq("true")
    h["loc"] = h["Location Description"].fillna("")
    return h


@functools.lru_cache(maxsize=None)
def _areas() -> pd.DataFrame:
    ca = _csv("community_areas.csv").copy()
    fix = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    ca["name"] = [fix.get(c, c.title()) for c in ca["community"]]
    return ca.set_index("area_number")


def _name(n: int) -> str:
    return str(_areas().loc[int(n), "name"])


def _area_num(area) -> int:
    if isinstance(area, (int, np.integer)):
        return int(area)
    a = _areas()
    key = str(area).strip().lower().replace("’", "'")
    for num, row in a.iterrows():
        if key in (row["name"].lower(), row["community"].lower(),
                   str(row["name_socioeconomic"]).lower()):
            return int(num)
    raise KeyError(area)


@functools.lru_cache(maxsize=None)
def _socio() -> pd.DataFrame:
    s = _csv("socioeconomic.csv").copy()
    s.columns = [c.strip() for c in s.columns]
    return s


_SOCIO = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployment": "PERCENT AGED 16+ UNEMPLOYED",
    "no_hs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME",
    "hardship": "HARDSHIP INDEX",
}


@functools.lru_cache(maxsize=None)
def _acs() -> pd.DataFrame:
    a = _csv("census_acs.csv").copy()
    num = _areas().reset_index().set_index("community")["area_number"]
    a["area_number"] = a["community_area"].map(num)
    assert a["area_number"].notna().all()
    a = a.set_index("area_number").sort_index()
    a["age65"] = a["male_65"] + a["female_65"]
    a["age0_17"] = a["male_0_to_17"] + a["female_0_to_17"]
    a["age18_24"] = a["male_18_to_24"] + a["female_18_to_24"]
    bands = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
             "_75_000_to_125_000", "_125_000"]
    a["households"] = a[bands].sum(axis=1)
    return a


@functools.lru_cache(maxsize=None)
def _pop2010() -> pd.Series:
    p = _csv("census_population_2010.csv")
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


def _pop_acs() -> pd.Series:
    return _acs()["total_population"].astype(float)


def _year_pop(year: int) -> pd.Series:
    return _pop2010() if year <= 2015 else _pop_acs()


@functools.lru_cache(maxsize=None)
def _zhvi() -> pd.DataFrame:
    z = _csv("property_zhvi_zip_monthly.csv").copy()
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map("{:02d}".format)
    return z


@functools.lru_cache(maxsize=None)
def _zip_month(ym: str) -> pd.Series:
    z = _zhvi()
    return z[z["ym"] == ym].set_index("RegionName")["price"]


@functools.lru_cache(maxsize=None)
def _xwalk() -> pd.DataFrame:
    return _csv("community_area_zip_crosswalk.csv")


@functools.lru_cache(maxsize=None)
def _ca_zhvi(ym: str) -> pd.Series:
    zv = _zip_month(ym).dropna()
    x = _xwalk()
    x = x[x["zip"].isin(zv.index)].copy()
    x["v"] = x["zip"].map(zv)
    x["wv"] = x["v"] * x["share_of_community_area"]
    g = x.groupby("area_number")
    out = g["wv"].sum() / g["share_of_community_area"].sum()
    return out.reindex(range(1, 78))


# ----------------------------------------------------------------------------- homicide filters
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]


def _filter(year_from=None, year_to=None, ca=None, month=None, weekday=None,
            hour_from=None, hour_to=None, location=None, domestic=None, arrest=None,
            district=None, ward=None, areas=None, weekend=None, date_from=None,
            date_to=None) -> pd.DataFrame:
    h = _hom()
    m = pd.Series(True, index=h.index)
    if year_from is not None:
        m &= h["year"] >= int(year_from)
    if year_to is not None:
        m &= h["year"] <= int(year_to)
    if date_from is not None:
        m &= h["dt"] >= pd.Timestamp(date_from)
    if date_to is not None:
        m &= h["dt"] < pd.Timestamp(date_to) + pd.Timedelta(days=1)
    if ca is not None:
        m &= h["ca"] == _area_num(ca)
    if areas is not None:
        m &= h["ca"].isin([_area_num(a) for a in areas]).fillna(False).astype(bool)
    if month is not None:
        months = month if isinstance(month, list) else [month]
        months = [_MONTHS.index(x.title()) + 1 if isinstance(x, str) else int(x) for x in months]
        m &= h["month"].isin(months)
    if weekday is not None:
        days = weekday if isinstance(weekday, list) else [weekday]
        m &= h["weekday"].isin([d.title() for d in days])
    if weekend is not None:
        wk = h["weekday"].isin(["Saturday", "Sunday"])
        m &= wk if weekend else ~wk
    if hour_from is not None:
        m &= h["hour"] >= int(hour_from)
    if hour_to is not None:
        m &= h["hour"] <= int(hour_to)
    if location is not None:
        locs = location if isinstance(location, list) else [location]
        m &= h["loc"].isin([x.upper() for x in locs])
    if domestic is not None:
        m &= h["domestic"] == bool(domestic)
    if arrest is not None:
        m &= h["arrest"] == bool(arrest)
    if district is not None:
        m &= (h["district"] == int(district)).fillna(False).astype(bool)
    if ward is not None:
        m &= (h["ward"] == int(ward)).fillna(False).astype(bool)
    return h[m.fillna(False).astype(bool)]


def b21_hom_count(**kw) -> int:
    """Number of homicide victims matching the filters (see _filter)."""
    return int(len(_filter(**kw)))


def b21_hom_pct(*, what: str = "arrest", **kw) -> float:
    """Percent of the filtered homicides that are arrest/domestic/weekend/location:<X>."""
    d = _filter(**kw)
    if what == "arrest":
        part = d["arrest"].sum()
    elif what == "domestic":
        part = d["domestic"].sum()
    elif what == "weekend":
        part = d["weekday"].isin(["Saturday", "Sunday"]).sum()
    elif what.startswith("location:"):
        part = d["loc"].eq(what.split(":", 1)[1].upper()).sum()
    else:
        raise ValueError(what)
    return round(float(part) / len(d) * 100, 1)


def b21_hom_avg_per_year(*, year_from: int, year_to: int, **kw) -> float:
    n = b21_hom_count(year_from=year_from, year_to=year_to, **kw)
    return round(n / (int(year_to) - int(year_from) + 1), 1)


def b21_hom_pct_change(*, year_a: int, year_b: int, **kw) -> float:
    """Percent change in the homicide count from year_a to year_b."""
    a = b21_hom_count(year_from=year_a, year_to=year_a, **kw)
    b = b21_hom_count(year_from=year_b, year_to=year_b, **kw)
    return round((b / a - 1) * 100, 1)


def b21_hom_diff(*, year_a: int, year_b: int, **kw) -> int:
    """Homicides in year_b minus homicides in year_a."""
    return (b21_hom_count(year_from=year_b, year_to=year_b, **kw)
            - b21_hom_count(year_from=year_a, year_to=year_a, **kw))


_LAST_CUT: dict = {}


def _record_cut(sorted_vals: list, n: int, label: str):
    """Store the values around a ranking cut (n-th and its neighbours) for tie checks."""
    vals = list(sorted_vals)
    info = {"label": label, "n": n,
            "at": vals[n - 1] if 0 < n <= len(vals) else None,
            "prev": vals[n - 2] if n >= 2 else None,
            "next": vals[n] if n < len(vals) else None}
    _LAST_CUT.clear()
    _LAST_CUT.update(info)


def _peak_series(by: str, **kw) -> pd.Series:
    d = _filter(**kw)
    key = {"month": "month", "weekday": "weekday", "hour": "hour", "year": "year",
           "location": "loc", "district": "district", "ward": "ward"}[by]
    c = d[key].dropna().value_counts()
    # stable tie-break by key
    c = c.sort_index(kind="mergesort").sort_values(ascending=False, kind="mergesort")
    return c


def b21_hom_peak(*, by: str = "month", n: int = 1, **kw):
    """Label of the n-th most common month/weekday/hour/year/location/district/ward."""
    c = _peak_series(by, **kw)
    _record_cut(c.tolist(), n, f"peak {by}")
    lab = c.index[n - 1]
    if by == "month":
        return _MONTHS[int(lab) - 1]
    if by in ("hour", "year", "district", "ward"):
        return int(lab)
    return str(lab).title() if by == "location" else str(lab)


def b21_hom_peak_count(*, by: str = "month", n: int = 1, **kw) -> int:
    c = _peak_series(by, **kw)
    return int(c.iloc[n - 1])


def b21_years_count(*, year_from: int, year_to: int, op: str, thr: float, **kw) -> int:
    """Number of calendar years in [year_from, year_to] whose homicide count passes op thr."""
    k = 0
    for y in range(int(year_from), int(year_to) + 1):
        if _cmp(b21_hom_count(year_from=y, year_to=y, **kw), op, thr):
            k += 1
    return k


def _city_rate_exact(year_from: int, year_to: int) -> float:
    n = len(_filter(year_from=year_from, year_to=year_to))
    den = sum(_year_pop(y).sum() for y in range(int(year_from), int(year_to) + 1))
    return float(n / den * 1e5)


def b21_city_rate(*, year_from: int, year_to: int) -> float:
    return round(_city_rate_exact(year_from, year_to), 1)


# ----------------------------------------------------------------------------- measures
def _hom_by_area(y1: int, y2: int) -> pd.Series:
    d = _filter(year_from=y1, year_to=y2)
    return d["ca"].dropna().astype(int).value_counts().reindex(range(1, 78), fill_value=0).astype(float)


def _pop_years(y1: int, y2: int) -> pd.Series:
    tot = pd.Series(0.0, index=range(1, 78))
    for y in range(int(y1), int(y2) + 1):
        tot = tot + _year_pop(y).reindex(range(1, 78))
    return tot


def _parts(key: str):
    """Return (numerator, denominator, scale) for poolable measures, else None."""
    p = key.split(":")
    kind = p[0]
    idx = range(1, 78)
    if kind == "hom":
        return _hom_by_area(int(p[1]), int(p[2])), None, 1.0
    if kind == "rate":
        return _hom_by_area(int(p[1]), int(p[2])), _pop_years(int(p[1]), int(p[2])), 1e5
    if kind == "density":
        return _hom_by_area(int(p[1]), int(p[2])), _areas()["area_sq_mi"].reindex(idx).astype(float), 1.0
    if kind == "acs_pct":
        a = _acs()
        return a[p[1]].astype(float).reindex(idx), a["total_population"].astype(float).reindex(idx), 100.0
    if kind == "acs_count":
        return _acs()[p[1]].astype(float).reindex(idx), None, 1.0
    if kind == "hh_pct":
        a = _acs()
        return a[p[1]].astype(float).reindex(idx), a["households"].astype(float).reindex(idx), 100.0
    if kind == "pop2010":
        return _pop2010().reindex(idx), None, 1.0
    if kind == "pop_acs":
        return _pop_acs().reindex(idx), None, 1.0
    if kind == "popchg":
        return (_pop_acs() - _pop2010()).reindex(idx), _pop2010().reindex(idx), 100.0
    if kind == "area_sq_mi":
        return _areas()["area_sq_mi"].reindex(idx).astype(float), None, 1.0
    return None


def _measure(key: str) -> pd.Series:
    """Per-area values (index 1..77, NaN where missing)."""
    idx = range(1, 78)
    parts = _parts(key)
    if parts is not None:
        num, den, scale = parts
        return num if den is None else num / den * scale
    p = key.split(":")
    kind = p[0]
    if kind in _SOCIO:
        s = _socio().dropna(subset=["Community Area Number"])
        return s.set_index(s["Community Area Number"].astype(int))[_SOCIO[kind]].astype(float).reindex(idx)
    if kind == "zhvi":
        return _ca_zhvi(p[1])
    if kind == "zhvichg":
        return (_ca_zhvi(p[2]) / _ca_zhvi(p[1]) - 1) * 100
    if kind == "homchg":   # count in year p[2] minus count in year p[1]
        return _hom_by_area(int(p[2]), int(p[2])) - _hom_by_area(int(p[1]), int(p[1]))
    if kind == "arrestpct":
        d = _filter(year_from=int(p[1]), year_to=int(p[2])).dropna(subset=["ca"])
        g = d.groupby(d["ca"].astype(int))["arrest"]
        return (g.sum() / g.count() * 100).reindex(idx)
    raise ValueError(key)


def _city_value(key: str) -> float:
    kind = key.split(":")[0]
    if kind in _SOCIO:
        s = _socio()
        row = s[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"].iloc[0]
        return float(row[_SOCIO[kind]])
    if kind == "rate":
        p = key.split(":")
        return _city_rate_exact(int(p[1]), int(p[2]))
    parts = _parts(key)
    if parts is not None and parts[1] is not None:
        num, den, scale = parts
        return float(num.sum() / den.sum() * scale)
    raise ValueError(f"no city figure for {key}")


def _threshold(key: str, thr) -> float:
    if isinstance(thr, str):
        v = _measure(key).dropna()
        if thr == "city":
            return _city_value(key)
        if thr.startswith("city*"):
            return _city_value(key) * float(thr.split("*", 1)[1])
        if thr == "median":
            return float(v.median())
        if thr == "mean":
            return float(v.mean())
        raise ValueError(thr)
    return float(thr)


def _cmp(v, op: str, t) -> bool:
    return {"gt": v > t, "ge": v >= t, "lt": v < t, "le": v <= t, "eq": v == t}[op]


def _ranked(key: str, ascending: bool = False) -> pd.Series:
    v = _measure(key).dropna()
    df = pd.DataFrame({"v": v, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[ascending, True])
    return df["v"]


def _top_set(key: str, n: int, ascending: bool = False) -> list:
    r = _ranked(key, ascending)
    _record_cut(r.tolist(), n, f"top {n} {key}")
    return list(r.index[:n])


def _thr_set(key: str, op: str, thr) -> list:
    v = _measure(key).dropna()
    t = _threshold(key, thr)
    return [int(i) for i, x in v.items() if _cmp(x, op, t)]


def _agg(value: str, nums: list, how: str):
    nums = [int(x) for x in nums]
    if how == "city_share":
        p = value.split(":")
        assert p[0] in ("hom", "rate", "density")
        num = _hom_by_area(int(p[1]), int(p[2]))
        tot = len(_filter(year_from=int(p[1]), year_to=int(p[2])))
        return round(float(num.loc[nums].sum()) / tot * 100, 1)
    if how == "pooled":
        parts = _parts(value)
        if parts is None:
            raise ValueError(f"{value} cannot be pooled")
        num, den, scale = parts
        if den is None:
            return _fmt(num.loc[nums].sum())
        return round(float(num.loc[nums].sum() / den.loc[nums].sum() * scale), 1)
    v = _measure(value).loc[nums].dropna()
    if how == "sum":
        return _fmt(v.sum())
    money = value.split(":")[0] in ("zhvi", "income")
    if how == "mean":
        return int(round(float(v.mean()))) if money else round(float(v.mean()), 1)
    if how == "median":
        return int(round(float(v.median()))) if money else round(float(v.median()), 1)
    if how == "count":
        return int(len(v))
    if how == "count_pos":
        return int((v > 0).sum())
    raise ValueError(how)


def _fmt(x):
    x = float(x)
    return int(round(x)) if abs(x - round(x)) < 1e-9 else round(x, 1)


def _val(key: str, x):
    kind = key.split(":")[0]
    if kind in ("hom", "homchg", "pop2010", "pop_acs", "acs_count", "hardship", "income"):
        return int(round(float(x)))
    if kind in ("zhvi",):
        return int(round(float(x)))
    return round(float(x), 1)


# ----------------------------------------------------------------------------- area-level public functions
def b21_area_value(*, measure: str, area) -> float:
    return _val(measure, _measure(measure).loc[_area_num(area)])


def b21_city_value(*, measure: str) -> float:
    return round(_city_value(measure), 1)


def b21_nth_area(*, measure: str, n: int = 1, ascending: bool = False, among_op: str = None,
                 among_measure: str = None, among_thr=None) -> str:
    r = _ranked(measure, ascending)
    if among_measure is not None:
        keep = set(_thr_set(among_measure, among_op, among_thr))
        r = r[[i in keep for i in r.index]]
    _record_cut(r.tolist(), n, f"nth {measure}")
    return _name(r.index[n - 1])


def b21_nth_value(*, measure: str, n: int = 1, ascending: bool = False, among_op: str = None,
                  among_measure: str = None, among_thr=None):
    r = _ranked(measure, ascending)
    if among_measure is not None:
        keep = set(_thr_set(among_measure, among_op, among_thr))
        r = r[[i in keep for i in r.index]]
    return _val(measure, r.iloc[n - 1])


def b21_nth_other(*, select: str, n: int, value: str, ascending: bool = False):
    """Value of measure `value` in the area ranked n-th by `select`."""
    r = _ranked(select, ascending)
    _record_cut(r.tolist(), n, f"nth {select}")
    return _val(value, _measure(value).loc[r.index[n - 1]])


def b21_rank_of(*, measure: str, area, ascending: bool = False) -> int:
    r = _ranked(measure, ascending)
    num = _area_num(area)
    pos = list(r.index).index(num) + 1
    _record_cut(r.tolist(), pos, f"rank of {area} by {measure}")
    return pos


def b21_top_set_agg(*, select: str, n: int, value: str, how: str = "pooled",
                    ascending: bool = False):
    return _agg(value, _top_set(select, n, ascending), how)


def b21_thr_set_agg(*, select: str, op: str, thr, value: str, how: str = "pooled"):
    return _agg(value, _thr_set(select, op, thr), how)


def b21_thr_count(*, measure: str, op: str, thr) -> int:
    return len(_thr_set(measure, op, thr))


def b21_thr_share(*, measure: str, op: str, thr) -> float:
    v = _measure(measure).dropna()
    return round(len(_thr_set(measure, op, thr)) / len(v) * 100, 1)


def b21_joint_count(*, m1: str, op1: str, thr1, m2: str, op2: str, thr2) -> int:
    return len(set(_thr_set(m1, op1, thr1)) & set(_thr_set(m2, op2, thr2)))


def b21_compare_count(*, m1: str, op: str, m2: str) -> int:
    """Number of areas where measure m1 <op> measure m2 (both present)."""
    a, b = _measure(m1), _measure(m2)
    ok = a.notna() & b.notna()
    return int(sum(_cmp(x, op, y) for x, y in zip(a[ok], b[ok])))


def b21_corr(*, m1: str, m2: str, method: str = "pearson") -> float:
    a, b = _measure(m1), _measure(m2)
    ok = a.notna() & b.notna()
    a, b = a[ok], b[ok]
    if method == "spearman":
        a, b = a.rank(), b.rank()
    return round(float(np.corrcoef(a, b)[0, 1]), 2)


def b21_across(*, measure: str, stat: str = "median") -> float:
    v = _measure(measure).dropna()
    x = {"median": v.median(), "mean": v.mean(), "range": v.max() - v.min(),
         "max": v.max(), "min": v.min(), "sum": v.sum()}[stat]
    if stat in ("max", "min", "range", "sum") or measure.split(":")[0] in ("zhvi", "income"):
        return _val(measure, x)
    return round(float(x), 1)


def b21_area_share_of_city(*, measure: str, area) -> float:
    """Area's count as a percent of the sum over all 77 areas (e.g. acs_count:asian)."""
    v = _measure(measure)
    return round(float(v.loc[_area_num(area)] / v.sum() * 100), 1)


def b21_thr_set_hom_pct(*, select: str, op: str, thr, what: str, year_from: int, year_to: int) -> float:
    """Arrest/domestic percent of homicides in the areas passing a threshold (pooled rows)."""
    return b21_hom_pct(what=what, year_from=year_from, year_to=year_to,
                       areas=_thr_set(select, op, thr))


def b21_top_set_hom_pct(*, select: str, n: int, what: str, year_from: int, year_to: int,
                        ascending: bool = False) -> float:
    return b21_hom_pct(what=what, year_from=year_from, year_to=year_to,
                       areas=_top_set(select, n, ascending))


def b21_ratio(*, measure: str, area_a, area_b) -> float:
    v = _measure(measure)
    return round(float(v.loc[_area_num(area_a)] / v.loc[_area_num(area_b)]), 1)


def b21_group_ratio(*, select: str, n: int, value: str, first_ascending: bool = False) -> float:
    """Pooled `value` of the first n areas by select (descending unless first_ascending)
    divided by the pooled `value` of the n areas at the other end."""
    first = _top_set(select, n, first_ascending)
    c1 = dict(_LAST_CUT)
    second = _top_set(select, n, not first_ascending)
    c2 = dict(_LAST_CUT)
    a = _agg(value, first, "pooled")
    b = _agg(value, second, "pooled")
    # record the tighter of the two cuts for the tie check
    _LAST_CUT.clear()
    _LAST_CUT.update(c1 if abs(c1["at"] - c1["next"]) < abs(c2["at"] - c2["next"]) else c2)
    return round(a / b, 1)


# ----------------------------------------------------------------------------- ZIP / home value
def b21_zip_value(*, zip: int, ym: str) -> int:
    return int(round(float(_zip_month(ym).loc[int(zip)])))


def b21_zip_change_pct(*, zip: int, ym_a: str, ym_b: str) -> float:
    a = _zip_month(ym_a).loc[int(zip)]
    b = _zip_month(ym_b).loc[int(zip)]
    return round(float((b / a - 1) * 100), 1)


def _zip_ranked(ym: str, ascending=False, ym_base: str = None) -> pd.Series:
    v = _zip_month(ym).dropna()
    if ym_base is not None:
        v = (v / _zip_month(ym_base) - 1).dropna() * 100
    df = pd.DataFrame({"v": v, "z": v.index}).sort_values(["v", "z"], ascending=[ascending, True])
    return df["v"]


def b21_zip_nth(*, ym: str, n: int = 1, ascending: bool = False, ym_base: str = None) -> int:
    r = _zip_ranked(ym, ascending, ym_base)
    _record_cut(r.tolist(), n, f"zip nth {ym}")
    return int(r.index[n - 1])


def b21_zip_count(*, ym: str, op: str, thr: float) -> int:
    v = _zip_month(ym).dropna()
    return int(sum(_cmp(x, op, float(thr)) for x in v))


def b21_zip_peak(*, zip: int, year_from: int, year_to: int, part: str = "value"):
    z = _zhvi()
    d = z[(z["RegionName"] == int(zip)) & z["Year"].between(int(year_from), int(year_to))].dropna(subset=["price"])
    d = d.sort_values("price", ascending=False, kind="mergesort")
    _record_cut(d["price"].tolist(), 1, f"zip peak {zip}")
    top = d.iloc[0]
    if part == "value":
        return int(round(top["price"]))
    if part == "month":
        return _MONTHS[int(top["Month"]) - 1]
    if part == "year":
        return int(top["Year"])
    raise ValueError(part)


def b21_zip_year_mean(*, zip: int, year: int) -> int:
    z = _zhvi()
    d = z[(z["RegionName"] == int(zip)) & (z["Year"] == int(year))]
    return int(round(float(d["price"].mean())))


def b21_zip_main_area(*, zip: int) -> str:
    x = _xwalk()
    d = x[x["zip"] == int(zip)].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return _name(d.iloc[0]["area_number"])


def b21_area_main_zip(*, area) -> int:
    x = _xwalk()
    d = x[x["area_number"] == _area_num(area)].sort_values(
        ["share_of_community_area", "zip"], ascending=[False, True])
    return int(d.iloc[0]["zip"])


def b21_area_zip_count(*, area) -> int:
    x = _xwalk()
    return int((x["area_number"] == _area_num(area)).sum())


def b21_area_zip_change(*, area, ym_a: str, ym_b: str) -> float:
    """% change in ZHVI of the ZIP an area mostly lies in."""
    return b21_zip_change_pct(zip=b21_area_main_zip(area=area), ym_a=ym_a, ym_b=ym_b)


def b21_zip_of_top_area_value(*, select: str, n: int, ym: str, ascending: bool = False) -> int:
    """ZHVI in month ym of the main ZIP of the area ranked n-th by select."""
    r = _ranked(select, ascending)
    _record_cut(r.tolist(), n, f"nth {select}")
    z = b21_area_main_zip(area=int(r.index[n - 1]))
    return b21_zip_value(zip=z, ym=ym)


def b21_zip_top_area_measure(*, ym: str, n: int, value: str, ascending: bool = False):
    """`value` of the community area covering most of the ZIP ranked n-th by ZHVI in ym."""
    z = b21_zip_nth(ym=ym, n=n, ascending=ascending)
    return b21_area_value(measure=value, area=b21_zip_main_area(zip=z))


# ----------------------------------------------------------------------------- IHS
@functools.lru_cache(maxsize=None)
def _ihs() -> pd.DataFrame:
    return _csv("property_ihs_price_index_long.csv")


def _ihs_series(sub: str) -> pd.DataFrame:
    d = _ihs()
    key = sub.strip().lower()
    m = (d["submarket_code"].str.lower() == key) | (d["submarket_name"].str.lower() == key) | \
        (d["submarket_name"].str.lower() == "chicago--" + key)
    out = d[m].sort_values(["year", "quarter"])
    assert out["submarket_code"].nunique() == 1, sub
    return out


def b21_ihs_value(*, sub: str, yearq: str) -> float:
    d = _ihs_series(sub)
    return float(d[d["yearq"] == yearq]["index_2000q1_100"].iloc[0])


def b21_ihs_change_pct(*, sub: str, q_a: str, q_b: str) -> float:
    a, b = b21_ihs_value(sub=sub, yearq=q_a), b21_ihs_value(sub=sub, yearq=q_b)
    return round((b / a - 1) * 100, 1)


def b21_ihs_diff(*, sub_a: str, sub_b: str, yearq: str) -> float:
    """Index of sub_a minus index of sub_b in the same quarter (index points)."""
    return round(b21_ihs_value(sub=sub_a, yearq=yearq) - b21_ihs_value(sub=sub_b, yearq=yearq), 1)


def b21_ihs_year_mean(*, sub: str, year: int) -> float:
    d = _ihs_series(sub)
    return round(float(d[d["year"] == int(year)]["index_2000q1_100"].mean()), 1)


def b21_ihs_peak(*, sub: str, year_from: int, year_to: int, part: str = "value"):
    d = _ihs_series(sub)
    d = d[d["year"].between(int(year_from), int(year_to))]
    d = d.sort_values("index_2000q1_100", ascending=False, kind="mergesort")
    _record_cut(d["index_2000q1_100"].tolist(), 1, f"ihs peak {sub}")
    top = d.iloc[0]
    return {"value": float(top["index_2000q1_100"]), "year": int(top["year"]),
            "quarter": int(top["quarter"])}[part]


def b21_ihs_nth_chicago(*, yearq: str, n: int = 1, ascending: bool = False, base_q: str = None,
                        part: str = "name"):
    """n-th Chicago submarket (Chicago-- series only) by index level (or % change from base_q)."""
    d = _ihs()
    d = d[d["submarket_name"].str.startswith("Chicago--")]
    v = d[d["yearq"] == yearq].set_index("submarket_name")["index_2000q1_100"]
    if base_q is not None:
        b = d[d["yearq"] == base_q].set_index("submarket_name")["index_2000q1_100"]
        v = (v / b - 1) * 100
    v = v.sort_values(ascending=ascending, kind="mergesort")
    _record_cut(v.tolist(), n, "ihs nth")
    if part == "name":
        return v.index[n - 1].replace("Chicago--", "")
    return round(float(v.iloc[n - 1]), 1)


def b21_ihs_count_above(*, yearq: str, op: str, thr: float, chicago_only: bool = True) -> int:
    d = _ihs()
    if chicago_only:
        d = d[d["submarket_name"].str.startswith("Chicago--")]
    else:
        d = d[~d["submarket_code"].isin(["COOK", "CHICAGO", "SUBURBS"])]
    v = d[d["yearq"] == yearq]["index_2000q1_100"]
    return int(sum(_cmp(x, op, float(thr)) for x in v))


@functools.lru_cache(maxsize=None)
def _ihs_summary() -> pd.DataFrame:
    s = _csv("property_ihs_price_index_summary_2025q4.csv").copy()
    for c in s.columns[2:]:
        s[c] = pd.to_numeric(s[c].astype(str).str.replace(r"[\s$,%]", "", regex=True))
    return s


def b21_ihs_summary(*, sub: str, field: str):
    s = _ihs_summary()
    key = sub.strip().lower()
    row = s[(s["Number"].str.lower() == key) | (s["Sub Market"].str.lower() == key) |
            (s["Sub Market"].str.lower() == "chicago--" + key)]
    assert len(row) == 1, sub
    v = row.iloc[0][field]
    return int(v) if field == "Median Sales Price" else float(v)


def b21_ihs_summary_nth(*, field: str, n: int = 1, ascending: bool = False, chicago_only: bool = True,
                        part: str = "name"):
    s = _ihs_summary()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s = s.sort_values(field, ascending=ascending, kind="mergesort")
    _record_cut(s[field].tolist(), n, f"ihs summary {field}")
    r = s.iloc[n - 1]
    if part == "name":
        return r["Sub Market"].replace("Chicago--", "")
    return int(r[field]) if field == "Median Sales Price" else float(r[field])


def b21_ihs_summary_count(*, field: str, op: str, thr: float, chicago_only: bool = True) -> int:
    s = _ihs_summary()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    return int(sum(_cmp(x, op, float(thr)) for x in s[field]))


@functools.lru_cache(maxsize=None)
def _ca_sub() -> pd.Series:
    x = _csv("community_area_ihs_submarket_crosswalk.csv")
    x = x.sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    return x.drop_duplicates("area_number").set_index("area_number")["submarket_code"]


def b21_area_ihs_change(*, area, q_a: str, q_b: str) -> float:
    """% change of the IHS index of the submarket an area lies in."""
    return b21_ihs_change_pct(sub=_ca_sub().loc[_area_num(area)], q_a=q_a, q_b=q_b)


def b21_area_ihs_summary(*, area, field: str):
    return b21_ihs_summary(sub=_ca_sub().loc[_area_num(area)], field=field)


def b21_submarket_hom(*, sub: str, year_from: int, year_to: int, how: str = "count"):
    """Homicides (or pooled rate) in the community areas whose main submarket is `sub`."""
    codes = _ca_sub()
    d = _ihs_series(sub) if not sub.startswith("p3160") else None
    code = d["submarket_code"].iloc[0] if d is not None else "p3160"
    nums = [int(i) for i, c in codes.items() if c == code]
    if how == "count":
        return _agg(f"hom:{year_from}:{year_to}", nums, "pooled")
    if how == "rate":
        return _agg(f"rate:{year_from}:{year_to}", nums, "pooled")
    if how == "n_areas":
        return len(nums)
    raise ValueError(how)


def b21_submarket_top_hom(*, year_from: int, year_to: int, n: int = 1, part: str = "count"):
    codes = _ca_sub()
    h = _hom_by_area(int(year_from), int(year_to))
    g = h.groupby(codes.reindex(h.index)).sum().sort_values(ascending=False, kind="mergesort")
    _record_cut(g.tolist(), n, "submarket hom")
    if part == "count":
        return int(g.iloc[n - 1])
    names = _ihs().drop_duplicates("submarket_code").set_index("submarket_code")["submarket_name"]
    return names.get(g.index[n - 1], g.index[n - 1]).replace("Chicago--", "")


# ----------------------------------------------------------------------------- Redfin
@functools.lru_cache(maxsize=None)
def _redfin() -> pd.DataFrame:
    r = _csv("property_redfin_neighborhoods.csv", encoding="utf-8-sig").copy()
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["hood"] = r["Region"].str.replace("Chicago, IL - ", "", regex=False)
    return r


def b21_redfin(*, region: str, period_end: str, field: str):
    r = _redfin()
    d = r[(r["hood"].str.lower() == region.lower()) & (r["end"] == pd.Timestamp(period_end))]
    assert len(d) == 1, (region, period_end, len(d))
    v = float(d.iloc[0][field])
    return _fmt(v) if field in ("Homes Sold", "Inventory", "New Listings", "pending_sales",
                                "Median List Price", "Median Dom") else round(v, 3)


def b21_redfin_city_year(*, year: int, field: str, how: str = "sum"):
    r = _redfin()
    d = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    assert len(d) == 12, len(d)
    return _fmt(d[field].sum()) if how == "sum" else round(float(d[field].mean()), 1)


def b21_redfin_change_pct(*, region: str, end_a: str, end_b: str, field: str) -> float:
    a = float(b21_redfin(region=region, period_end=end_a, field=field))
    b = float(b21_redfin(region=region, period_end=end_b, field=field))
    return round((b / a - 1) * 100, 1)


def b21_redfin_nth(*, period_end: str, field: str, n: int = 1, ascending: bool = False,
                   min_sold: int = 0, part: str = "name"):
    """Among neighbourhood rows (90-day) ending period_end with Homes Sold >= min_sold."""
    r = _redfin()
    d = r[(r["Period Duration"] == 90) & (r["end"] == pd.Timestamp(period_end)) &
          r["Region"].str.startswith("Chicago, IL - ") & (r["Homes Sold"] >= min_sold)]
    d = d.dropna(subset=[field]).sort_values([field, "hood"], ascending=[ascending, True])
    _record_cut(d[field].tolist(), n, f"redfin {field}")
    return d.iloc[n - 1]["hood"] if part == "name" else _fmt(d.iloc[n - 1][field])


# ----------------------------------------------------------------------------- police / wards
@functools.lru_cache(maxsize=None)
def _stations() -> pd.DataFrame:
    s = _csv("police_stations.csv", dtype=str)
    s = s[s["DISTRICT"].str.isdigit()].copy()
    s["d"] = s["DISTRICT"].astype(int)
    return s.set_index("d")


@functools.lru_cache(maxsize=None)
def _wards() -> pd.DataFrame:
    w = _csv("ward_offices.csv", encoding="utf-8-sig").copy()
    return w.set_index("WARD")


def b21_district_name(*, district: int) -> str:
    return str(_stations().loc[int(district), "DISTRICT NAME"])


def b21_station_area(*, district: int) -> str:
    return _name(int(_stations().loc[int(district), "COMMUNITY AREA"]))


def b21_station_area_value(*, district: int, measure: str):
    return b21_area_value(measure=measure, area=int(_stations().loc[int(district), "COMMUNITY AREA"]))


def b21_station_zip_value(*, district: int, ym: str) -> int:
    return b21_zip_value(zip=int(_stations().loc[int(district), "ZIP"]), ym=ym)


def b21_top_district(*, year_from: int, year_to: int, n: int = 1, part: str = "district", **kw):
    c = _peak_series("district", year_from=year_from, year_to=year_to, **kw)
    _record_cut(c.tolist(), n, "district")
    d = int(c.index[n - 1])
    if part == "district":
        return d
    if part == "name":
        return b21_district_name(district=d)
    if part == "count":
        return int(c.iloc[n - 1])
    if part.startswith("area:"):   # measure of the area the station sits in
        return b21_station_area_value(district=d, measure=part.split(":", 1)[1])
    if part == "area":
        return b21_station_area(district=d)
    raise ValueError(part)


def b21_alder(*, ward: int) -> str:
    return str(_wards().loc[int(ward), "ALDERMAN"]).split(",")[0].strip()


def b21_ward_office_zip_value(*, ward: int, ym: str) -> int:
    return b21_zip_value(zip=int(_wards().loc[int(ward), "ZIPCODE"]), ym=ym)


def b21_ward_offices_in_zip(*, zip: int) -> int:
    return int((_wards()["ZIPCODE"] == int(zip)).sum())


def b21_top_ward(*, year_from: int, year_to: int, n: int = 1, part: str = "ward", **kw):
    c = _peak_series("ward", year_from=year_from, year_to=year_to, **kw)
    _record_cut(c.tolist(), n, "ward")
    w = int(c.index[n - 1])
    return {"ward": w, "alder": b21_alder(ward=w) if part == "alder" else None,
            "count": int(c.iloc[n - 1])}[part]


def b21_pop_total(*, vintage: str = "2010") -> int:
    return int((_pop2010() if vintage == "2010" else _pop_acs()).sum())
