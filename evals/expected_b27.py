"""Expected values for the blind27 held-out question set (Chicago public data).

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
* Thresholds may be relative: 'city', 'median' or 'mean' (of the per-area values present).
  "Above the median" is strictly above.
* A community area's ZIP / IHS submarket is the one with the largest overlap share
  (share_of_zip for "the area that covers most of a ZIP", share_of_community_area for
  "the ZIP / submarket an area lies in").
* Correlations are Pearson r over areas with both values present unless Spearman is asked
  for (Spearman = Pearson r of average ranks).

Conventions added for blind21
-----------------------------
* Homicide density ("per square mile") = homicides in the period / area_sq_mi (whole
  period); pooled over a set = sum(homicides) / sum(square miles).
* ACS shares: race/age shares = count / total_population * 100; household income-band
  shares = band households / sum of the five band counts * 100; pooled = sum of counts /
  sum of bases * 100.  "65 and over" = male_65 + female_65; "children" = male_0_to_17 +
  female_0_to_17.
* Population change 2010 -> ACS = (ACS total_population - POP2010) / POP2010 * 100
  (pooled: on the sums).
* Home-value change between two months = (later / earlier - 1) * 100; only areas/ZIPs with
  both values present are ranked.
* Percent changes are (new / old - 1) * 100; a ratio of two figures is a / b.
* "Arrest rate" / "domestic share" = percent of homicide rows flagged True.
* Weekend = Saturday + Sunday.  Hours are the 24-hour clock hour of ``Date``.
* Police district <-> community area: the community area its station sits in.  Ward <->
  alderperson from ward_offices.csv; the alderperson is returned as the surname only.
* IHS index value for a year = mean of its four quarterly values; IHS summary percentages
  as numbers, prices as plain numbers.
* Redfin neighbourhood figures are 90-day rolling rows identified by period-end date; the
  "Chicago, IL" rows are monthly and a year total = sum of the 12 monthly rows ending in
  that year.
* Rounding: counts and money as integers; rates, percentages, ratios, densities, index
  values to 1 decimal; correlations to 2 decimals.  Labels as text.
* Set statistics: how in {'pooled','sum','mean','median','city_share'}.

Conventions added for blind22
-----------------------------
* Quarters: Q1 = Jan-Mar, ... Q4 = Oct-Dec.  Seasons (meteorological): winter = Dec, Jan,
  Feb of the same calendar year's rows (no cross-year winters are asked), spring =
  Mar-May, summer = Jun-Aug, autumn/fall = Sep-Nov.
* "Between HH and HH" hours = clock hours h0 <= hour <= h1 inclusive of the start hour and
  of the whole final hour as stated in the question ("from 10pm to 3:59am" -> hours
  22,23,0,1,2,3).
* "Average per weekday" = homicides on that weekday / number of years asked (not per
  calendar day) -- questions state "per year".
* A ward office's community area = the community area that covers most of the office's
  ZIP code (share_of_zip); questions state this link explicitly.
* Range across areas = max - min of the per-area values present; "percent of areas" =
  count meeting the condition / areas with a value * 100.
* Ranking by a change in homicide counts = later - earlier count (a difference in
  victims), descending; the question says "biggest increase".
* Medians of a measure across a set = plain median of the per-area values.
* Redfin "median sale price" strings ($563K) are converted to numbers (563000).
* Where a question asks "by what percent did X fall", the fall is returned positive
  (measure prefix ``neg|``); where it asks for the "change", the signed value is returned.

Conventions added for blind27
-----------------------------
* Set specs (``where`` list, all conditions intersected):
  ``top~N~measure`` / ``bottom~N~measure`` (N highest / lowest of the areas with a value),
  ``gt~measure~v`` / ``lt~measure~v`` / ``ge~`` / ``le~`` (v a number or 'city' /
  'median' / 'mean'), ``in~1,2,3`` (area numbers), ``sub~p31xx`` (areas whose main IHS
  submarket, largest share_of_community_area, is that code), ``not~<spec>`` (complement within the
  77 areas), ``q~measure~k`` (k-th quartile group by pd.qcut on the per-area values,
  1 = lowest quarter; quartiles on the areas with a value).
* ``how='count'`` = number of areas in the set; ``'max'``/``'min'`` of per-area values.
* Homicide share measures (arrest, domestic, location) pooled over a set = rows flagged /
  all rows in the set's areas * 100.
* A "homicide change" measure ``chg:Y1:Y2`` = count in Y2 - count in Y1 per area.
* The month with most homicides within a set / place: calendar month 1-12 pooled over the
  years asked, returned as the month name; ties by earlier month (questions avoid ties).
* Redfin neighbourhood value "for year Y" = mean of the rows whose Period End falls in Y.
* "Largest drop in homicides from Y1 to Y2" = Y1 count - Y2 count (a positive number of
  victims), ranked descending (measure ``chg:Y2:Y1``).
* Quartile groups (``q~``) on 77 areas are 20/19/19/19 (pd.qcut); questions state this.
* A ranking "within a set" (``b27_top`` / ``b27_rank_of`` with ``where``) ranks only the
  set's areas.  Holidays are calendar dates of ``Date`` (July 4 = month 7, day 4).
* A ward office's ZIP is the ZIPCODE of ward_offices.csv; a police station's ZIP is the ZIP
  column of police_stations.csv.  An area's ZHVI change uses the area-weighted values.
* Most common hour / weekday / month / year: counts sorted descending, ties by first
  occurrence (questions avoid ties); year labels returned as text ("2022").
"""
from __future__ import annotations

import calendar
import math
from functools import lru_cache

import numpy as np
import pandas as pd

from evals.expected import data_dir

# ----------------------------------------------------------------------------- loading


@lru_cache(None)
def _hom():
    h = pd.read_csv(data_dir() / "homicides.csv", dtype=str)
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h.dt.dt.year
    h["month"] = h.dt.dt.month
    h["hour"] = h.dt.dt.hour
    h["wd"] = h.dt.dt.day_of_week  # Mon=0
    h["ca"] = pd.to_numeric(h["Community Area"], errors="coerce").astype("Int64")
    h["ward"] = pd.to_numeric(h["Ward"], errors="coerce").astype("Int64")
    h["dist"] = pd.to_numeric(h["District"], errors="coerce").astype("Int64")
    h["arrest"] = h["Arrest"].str.lower() == "true"
    h["domestic"] = h["Domestic"].str.lower() == "true"
    h["loc"] = h["Location Description"].fillna("")
    return h


@lru_cache(None)
def _cas():
    c = pd.read_csv(data_dir() / "community_areas.csv")
    def nm(s):
        if s == "OHARE":
            return "O'Hare"
        if s == "MCKINLEY PARK":
            return "McKinley Park"
        return s.title()
    c["name"] = c["community"].map(nm)
    return c.set_index("area_number")


def _num(area):
    """Area number from a number or a name."""
    if isinstance(area, (int, np.integer)):
        return int(area)
    s = str(area).strip().upper().replace("'", "")
    c = _cas()
    m = c.index[c["community"].str.replace("'", "") == s]
    if len(m) == 0:
        raise KeyError(area)
    return int(m[0])


def _name(n):
    return _cas().loc[int(n), "name"]


@lru_cache(None)
def _se():
    s = pd.read_csv(data_dir() / "socioeconomic.csv")
    s.columns = [c.strip() for c in s.columns]
    return s


SE_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME",
    "hardship": "HARDSHIP INDEX",
}


@lru_cache(None)
def _acs():
    a = pd.read_csv(data_dir() / "census_acs.csv")
    c = _cas().reset_index()
    a = a.merge(c[["area_number", "community"]], left_on="community_area", right_on="community", how="left")
    assert a["area_number"].notna().all()
    return a.set_index("area_number")


@lru_cache(None)
def _pop10():
    p = pd.read_csv(data_dir() / "census_population_2010.csv")
    return p.set_index("NID")["POP2010"].astype(float)


BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
ACS_COUNTS = {
    "white": ["white"], "black": ["black_or_african_american"], "asian": ["asian"],
    "hispanic": ["hispanic_or_latino"], "nhwhite": ["white_not_hispanic_or_latino"],
    "65plus": ["male_65", "female_65"], "children": ["male_0_to_17", "female_0_to_17"],
    "18to24": ["male_18_to_24", "female_18_to_24"],
    "multiracial": ["multiracial"],
}
ACS_BANDS = {"u25k": ["under_25_000"], "125k": ["_125_000"], "75kplus": ["_75_000_to_125_000", "_125_000"],
             "u50k": ["under_25_000", "_25_000_to_49_999"]}


def _pop_year(y):
    return _pop10() if y <= 2015 else _acs()["total_population"].astype(float)


def _years(years):
    if years is None:
        return None
    if isinstance(years, int):
        return [years]
    if isinstance(years, str):
        if "-" in years:
            a, b = years.split("-")
            return list(range(int(a), int(b) + 1))
        return [int(years)]
    return [int(y) for y in years]


SEASONS = {"winter": [12, 1, 2], "spring": [3, 4, 5], "summer": [6, 7, 8], "autumn": [9, 10, 11], "fall": [9, 10, 11]}


def _filter(h, years=None, months=None, quarter=None, season=None, weekdays=None, hours=None,
            domestic=None, arrest=None, loc=None, date_from=None, date_to=None, days=None):
    ys = _years(years)
    if ys is not None:
        h = h[h.year.isin(ys)]
    if months is not None:
        h = h[h.month.isin([months] if isinstance(months, int) else months)]
    if quarter is not None:
        h = h[h.month.isin(range(3 * quarter - 2, 3 * quarter + 1))]
    if season is not None:
        h = h[h.month.isin(SEASONS[season])]
    if weekdays is not None:
        names = [d.lower()[:3] for d in list(calendar.day_name)]
        wl = [names.index(w.lower()[:3]) for w in ([weekdays] if isinstance(weekdays, str) else weekdays)]
        h = h[h.wd.isin(wl)]
    if hours is not None:
        h = h[h.hour.isin(hours)]
    if days is not None:
        h = h[h.dt.dt.day.isin([days] if isinstance(days, int) else days)]
    if domestic is not None:
        h = h[h.domestic == domestic]
    if arrest is not None:
        h = h[h.arrest == arrest]
    if loc is not None:
        h = h[h["loc"].isin([loc] if isinstance(loc, str) else loc)]
    if date_from is not None:
        h = h[h.dt >= pd.Timestamp(date_from)]
    if date_to is not None:
        h = h[h.dt < pd.Timestamp(date_to) + pd.Timedelta(days=1)]
    return h


# ----------------------------------------------------------------------------- home values


@lru_cache(None)
def _zhvi():
    z = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    z["ym"] = z.Year.astype(str) + "-" + z.Month.map(lambda m: f"{m:02d}")
    return z


@lru_cache(None)
def _xw():
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")


def _zip_value(zipc, ym):
    z = _zhvi()
    r = z[(z.RegionName == int(zipc)) & (z.ym == ym)]["price"]
    return float(r.iloc[0]) if len(r) and pd.notna(r.iloc[0]) else np.nan


@lru_cache(None)
def _area_hv(ym):
    z = _zhvi()
    zz = z[z.ym == ym][["RegionName", "price"]].dropna()
    x = _xw().merge(zz, left_on="zip", right_on="RegionName", how="inner")
    out = {}
    for a, g in x.groupby("area_number"):
        w = g.share_of_community_area
        out[a] = (g.price * w).sum() / w.sum()
    return pd.Series(out, dtype=float).reindex(range(1, 78))


# ----------------------------------------------------------------------------- per-area measures


def _hom_counts(**flt):
    h = _filter(_hom(), **flt)
    return h[h.ca.notna()].groupby("ca").size().reindex(range(1, 78), fill_value=0).astype(float)


def _parse_hflt(spec):
    """'2019-2022' or '2019-2022|domestic' etc -> filter kwargs."""
    parts = spec.split("|")
    kw = {"years": parts[0]} if parts[0] else {}
    for p in parts[1:]:
        if p == "domestic":
            kw["domestic"] = True
        elif p == "arrest":
            kw["arrest"] = True
        elif p in SEASONS:
            kw["season"] = p
        elif p.startswith("loc="):
            kw["loc"] = p[4:]
        elif p.startswith("q"):
            kw["quarter"] = int(p[1:])
        elif p.startswith("wd="):
            kw["weekdays"] = p[3:].split(",")
    return kw


def _popsum(years):
    ys = _years(years)
    tot = pd.Series(0.0, index=range(1, 78))
    for y in ys:
        tot = tot + _pop_year(y).reindex(range(1, 78))
    return tot


def _measure(measure):
    """Return (num, den, scale) Series indexed 1..77.  value = num/den*scale; den None -> value=num."""
    kind, _, arg = measure.partition(":")
    idx = range(1, 78)
    if kind == "hom":
        return _hom_counts(**_parse_hflt(arg)), None, 1
    if kind == "rate":
        kw = _parse_hflt(arg)
        return _hom_counts(**kw), _popsum(kw["years"]), 100000
    if kind == "dens":
        return _hom_counts(**_parse_hflt(arg)), _cas()["area_sq_mi"].reindex(idx).astype(float), 1
    if kind in ("arrest", "domestic"):
        kw = _parse_hflt(arg)
        return _hom_counts(**kw, **{kind: True}), _hom_counts(**kw), 100
    if kind == "locshare":  # locshare:LOC|2019-2022
        loc, _, yr = arg.partition("|")
        kw = _parse_hflt(yr)
        return _hom_counts(**kw, loc=loc), _hom_counts(**kw), 100
    if kind == "chg":
        y1, y2 = arg.split(":")
        return _hom_counts(years=y2) - _hom_counts(years=y1), None, 1
    if kind == "se":
        s = _se().dropna(subset=["Community Area Number"]).copy()
        s["n"] = s["Community Area Number"].astype(int)
        return s.set_index("n")[SE_COLS[arg]].astype(float).reindex(idx), None, 1
    if kind == "acs":
        a = _acs()
        if arg == "pop":
            return a["total_population"].astype(float).reindex(idx), None, 1
        if arg in ACS_COUNTS:
            return a[ACS_COUNTS[arg]].sum(axis=1).reindex(idx), a["total_population"].reindex(idx), 100
        if arg in ACS_BANDS:
            return a[ACS_BANDS[arg]].sum(axis=1).reindex(idx), a[BANDS].sum(axis=1).reindex(idx), 100
        raise KeyError(arg)
    if kind == "pop2010":
        return _pop10().reindex(idx), None, 1
    if kind == "popchg":
        p10 = _pop10().reindex(idx)
        return _acs()["total_population"].reindex(idx) - p10, p10, 100
    if kind == "sqmi":
        return _cas()["area_sq_mi"].reindex(idx).astype(float), None, 1
    if kind == "hv":
        return _area_hv(arg), None, 1
    if kind == "hvchg":
        a, b = arg.split(":")
        v1, v2 = _area_hv(a), _area_hv(b)
        ok = v1.notna() & v2.notna()
        return v2.where(ok) - v1.where(ok), v1.where(ok), 100
    raise KeyError(measure)


def _values(measure):
    neg = measure.startswith("neg|")
    if neg:
        measure = measure[4:]
    num, den, sc = _measure(measure)
    v = num if den is None else num / den * sc
    v = v.replace([np.inf, -np.inf], np.nan)
    return -v if neg else v


def _rank_series(measure, ascending=False, where=None):
    v = _values(measure)
    if where:
        v = v[v.index.isin(_set(where))]
    v = v.dropna()
    v = v.copy()
    v.index = v.index.astype(int)
    v.index.name = None
    df = pd.DataFrame({"v": v.values, "n": v.index}, index=v.index)
    df = df.sort_values(["v", "n"], ascending=[ascending, True])
    return df


def _thresh(measure, t):
    v = _values(measure).dropna()
    if t == "median":
        return v.median()
    if t == "mean":
        return v.mean()
    if t == "city":
        return _city_value(measure)
    return float(t)


def _city_value(measure):
    kind, _, arg = measure.partition(":")
    if kind == "rate":
        kw = _parse_hflt(arg)
        n = len(_filter(_hom(), **kw))
        return n / _popsum(kw["years"]).sum() * 100000
    if kind == "se":
        s = _se()
        return float(s[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"][SE_COLS[arg]].iloc[0])
    if kind in ("arrest", "domestic"):
        h = _filter(_hom(), **_parse_hflt(arg))
        return h[kind].mean() * 100
    if kind == "acs" or kind == "popchg":
        num, den, sc = _measure(measure)
        return num.sum() / den.sum() * sc
    raise KeyError(measure)


def _spec(s):
    parts = s.split("~")
    op = parts[0]
    allx = set(range(1, 78))
    if op == "not":
        return allx - _spec("~".join(parts[1:]))
    if op in ("top", "bottom"):
        n, m = int(parts[1]), "~".join(parts[2:])
        df = _rank_series(m, ascending=(op == "bottom"))
        return set(df.n.head(n).tolist())
    if op in ("gt", "lt", "ge", "le"):
        m, t = parts[1], parts[2]
        v = _values(m).dropna()
        th = _thresh(m, t)
        f = {"gt": v > th, "lt": v < th, "ge": v >= th, "le": v <= th}[op]
        return set(v[f].index.tolist())
    if op == "in":
        return {_num(int(x)) if x.isdigit() else _num(x) for x in parts[1].split(",")}
    if op == "sub":  # areas whose main IHS submarket (largest share) is the code
        return {a for a in range(1, 78) if _area_sub(a) == parts[1]}
    if op == "q":
        m, k = parts[1], int(parts[2])
        v = _values(m).dropna()
        q = pd.qcut(v, 4, labels=False) + 1
        return set(q[q == k].index.tolist())
    raise KeyError(s)


def _set(where):
    s = set(range(1, 78))
    for w in where:
        s &= _spec(w)
    return s


def _r(x, nd=1):
    if isinstance(x, str):
        return x
    if nd == 0:
        return int(round(float(x)))
    return round(float(x), nd)


def _nd_for(measure, how):
    m = measure[4:] if measure.startswith("neg|") else measure
    kind = m.split(":")[0]
    if how == "count":
        return 0
    if kind in ("hom", "chg", "pop2010") and how in ("sum", "pooled", "max", "min", "value"):
        return 0
    if kind == "acs" and m == "acs:pop" and how in ("sum", "pooled", "max", "min", "value"):
        return 0
    if kind == "hv" or (kind == "se" and (m.endswith("income") or m.endswith("hardship"))):
        return 0
    return 1


# ----------------------------------------------------------------------------- public functions


def b27_count(*, years=None, area=None, ward=None, district=None, stat="count", nd=None, per_year=False,
              **flt):
    """Homicide count (or arrest/domestic share) city-wide or for one place."""
    h = _filter(_hom(), years=years, **flt)
    if area is not None:
        h = h[h.ca == _num(area)]
    if ward is not None:
        h = h[h.ward == int(ward)]
    if district is not None:
        h = h[h.dist == int(district)]
    if stat == "count":
        v = len(h)
        if per_year:
            return _r(v / len(_years(years)), 1)
        return v
    if stat == "arrest_rate":
        return _r(h.arrest.mean() * 100)
    if stat == "domestic_share":
        return _r(h.domestic.mean() * 100)
    raise KeyError(stat)


def b27_pct_change(*, a, b, neg=False):
    """Percent change from figure a to figure b; a, b = [fn_name, kwargs]."""
    va = globals()[a[0]](**a[1])
    vb = globals()[b[0]](**b[1])
    v = (vb / va - 1) * 100
    return _r(-v if neg else v)


def b27_ratio(*, a, b, nd=1):
    va = globals()[a[0]](**a[1])
    vb = globals()[b[0]](**b[1])
    return _r(va / vb, nd)


def b27_diff(*, a, b, nd=1):
    va = globals()[a[0]](**a[1])
    vb = globals()[b[0]](**b[1])
    return _r(va - vb, nd)


def b27_area_value(*, area, measure, nd=None):
    v = _values(measure).loc[_num(area)]
    return _r(v, _nd_for(measure, "value") if nd is None else nd)


def b27_city_value(*, measure, nd=1):
    return _r(_city_value(measure), nd)


def b27_set_stat(*, where, measure, how="pooled", nd=None):
    s = sorted(_set(where))
    nd = _nd_for(measure, how) if nd is None else nd
    if how == "count":
        return len(s)
    if how == "city_share":
        num, den, sc = _measure(measure)
        kind, _, arg = measure.partition(":")
        kw = _parse_hflt(arg)
        total = len(_filter(_hom(), **kw))
        return _r(num.loc[s].sum() / total * 100, 1)
    if how == "pooled":
        num, den, sc = _measure(measure)
        if den is None:
            return _r(num.loc[s].sum(), nd)
        ok = num.loc[s].notna() & den.loc[s].notna()
        ss = [i for i in s if ok.loc[i]]
        return _r(num.loc[ss].sum() / den.loc[ss].sum() * sc, nd)
    v = _values(measure).loc[s].dropna()
    if how == "sum":
        return _r(v.sum(), nd)
    if how == "mean":
        return _r(v.mean(), nd)
    if how == "median":
        return _r(v.median(), nd)
    if how == "max":
        return _r(v.max(), nd)
    if how == "min":
        return _r(v.min(), nd)
    raise KeyError(how)


def b27_set_ratio(*, where_a, where_b, measure, how="pooled"):
    a = b27_set_stat(where=where_a, measure=measure, how=how, nd=6)
    b = b27_set_stat(where=where_b, measure=measure, how=how, nd=6)
    return _r(a / b, 1)


def b27_top(*, measure, n=1, ascending=False, where=None, value=False, nd=None):
    """Name (or value) of the n-th ranked area."""
    df = _rank_series(measure, ascending=ascending, where=where)
    row = df.iloc[n - 1]
    if value:
        return _r(row.v, _nd_for(measure, "value") if nd is None else nd)
    return _name(row.n)


def b27_rank_of(*, area, measure, ascending=False, where=None):
    df = _rank_series(measure, ascending=ascending, where=where)
    return int(list(df.n).index(_num(area)) + 1)


def b27_corr(*, m1, m2, method="pearson", where=None):
    a, b = _values(m1), _values(m2)
    df = pd.DataFrame({"a": a, "b": b}).dropna()
    if where:
        df = df[df.index.isin(_set(where))]
    if method == "spearman":
        df = df.rank()
    return _r(df.a.corr(df.b), 2)


def b27_range(*, measure, where=None, nd=None):
    v = _values(measure)
    if where:
        v = v[v.index.isin(_set(where))]
    v = v.dropna()
    return _r(v.max() - v.min(), _nd_for(measure, "value") if nd is None else nd)


def b27_pct_of_areas(*, where, base_measure):
    """Percent of areas with a value of base_measure that are in the set."""
    v = _values(base_measure).dropna()
    s = _set(where)
    return _r(len(s & set(v.index)) / len(v) * 100)


def b27_top_month(*, where=None, area=None, years=None, **flt):
    h = _filter(_hom(), years=years, **flt)
    if area is not None:
        h = h[h.ca == _num(area)]
    if where:
        h = h[h.ca.isin(list(_set(where)))]
    c = h.groupby("month").size().reindex(range(1, 13), fill_value=0)
    return calendar.month_name[int(c.idxmax())]


def b27_set_count(*, where, years=None, **flt):
    """Homicides in a set of areas with arbitrary row filters."""
    h = _filter(_hom(), years=years, **flt)
    return int(h.ca.isin(list(_set(where))).sum())


def b27_top_year(*, area=None, years=None, where=None, ascending=False, value=False):
    h = _filter(_hom(), years=years)
    if area is not None:
        h = h[h.ca == _num(area)]
    if where:
        h = h[h.ca.isin(list(_set(where)))]
    c = h.groupby("year").size()
    c = c.reindex(_years(years), fill_value=0) if years else c
    y = c.sort_index().idxmin() if ascending else c.sort_index().idxmax()
    return int(c.loc[y]) if value else str(int(y))


# --- links


@lru_cache(None)
def _stations():
    p = pd.read_csv(data_dir() / "police_stations.csv")
    p = p[p.DISTRICT != "Headquarters"].copy()
    p["d"] = p.DISTRICT.astype(int)
    return p.set_index("d")


@lru_cache(None)
def _wards():
    w = pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig")
    return w.set_index("WARD")


def _district_area(district):
    return int(_stations().loc[int(district), "COMMUNITY AREA"])


def _zip_area(zipc):
    x = _xw()
    g = x[x.zip == int(zipc)].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return int(g.area_number.iloc[0])


def _ward_area(ward):
    return _zip_area(int(_wards().loc[int(ward), "ZIPCODE"]))


def _area_zip(area):
    x = _xw()
    g = x[x.area_number == _num(area)].sort_values(["share_of_community_area", "zip"], ascending=[False, True])
    return int(g.zip.iloc[0])


@lru_cache(None)
def _ihsx():
    return pd.read_csv(data_dir() / "community_area_ihs_submarket_crosswalk.csv")


def _area_sub(area):
    x = _ihsx()
    g = x[x.area_number == _num(area)].sort_values("share_of_community_area", ascending=False)
    return g.submarket_code.iloc[0]


def _resolve_area(area=None, district=None, ward=None):
    if district is not None:
        return _district_area(district)
    if ward is not None:
        return _ward_area(ward)
    return _num(area)


def b27_link_area(*, district=None, ward=None, zipc=None):
    """Name of the community area linked to a district station / ward office ZIP / ZIP."""
    if zipc is not None:
        return _name(_zip_area(zipc))
    return _name(_resolve_area(district=district, ward=ward))


def b27_link_value(*, measure, district=None, ward=None, area=None, nd=None):
    a = _resolve_area(area=area, district=district, ward=ward)
    return b27_area_value(area=a, measure=measure, nd=nd)


def b27_area_zip(*, area=None, district=None, ward=None):
    return str(_area_zip(_resolve_area(area=area, district=district, ward=ward)))


def b27_zip_value(*, zipc=None, ym, area=None, district=None, ward=None):
    if zipc is None:
        zipc = _area_zip(_resolve_area(area=area, district=district, ward=ward))
    return _r(_zip_value(zipc, ym), 0)


def b27_zip_change(*, zipc=None, ym1, ym2, area=None):
    if zipc is None:
        zipc = _area_zip(area)
    return _r((_zip_value(zipc, ym2) / _zip_value(zipc, ym1) - 1) * 100)


def b27_alder(*, ward):
    return _wards().loc[int(ward), "ALDERMAN"].split(",")[0].strip()


def b27_station_zip(*, district):
    return str(int(_stations().loc[int(district), "ZIP"]))


@lru_cache(None)
def _ihs():
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


def _ihs_code(sub=None, area=None):
    if area is not None:
        return _area_sub(area)
    return sub


def b27_submarket(*, area):
    code = _area_sub(area)
    return _ihs()[_ihs().submarket_code == code].submarket_name.iloc[0]


def b27_ihs(*, year, quarter=None, sub=None, area=None):
    code = _ihs_code(sub, area)
    d = _ihs()
    d = d[(d.submarket_code == code) & (d.year == int(year))]
    if quarter is not None:
        d = d[d.quarter == int(quarter)]
    assert len(d) in (1, 4), (code, year, len(d))
    return _r(d.index_2000q1_100.mean())


def b27_ihs_change(*, y1, y2, q1=None, q2=None, sub=None, area=None):
    a = b27_ihs(year=y1, quarter=q1, sub=sub, area=area)
    b = b27_ihs(year=y2, quarter=q2, sub=sub, area=area)
    code = _ihs_code(sub, area)
    d = _ihs()
    d = d[d.submarket_code == code]
    va = d[(d.year == y1) & ((d.quarter == q1) if q1 else True)].index_2000q1_100.mean()
    vb = d[(d.year == y2) & ((d.quarter == q2) if q2 else True)].index_2000q1_100.mean()
    return _r((vb / va - 1) * 100)


def b27_ihs_top(*, year, quarter=None, chicago_only=True, n=1, ascending=False, value=False):
    d = _ihs()
    d = d[d.year == int(year)]
    if quarter:
        d = d[d.quarter == quarter]
    d = d[d.submarket_code.str.startswith("p")]
    if chicago_only:
        d = d[d.is_chicago == 1]
    g = d.groupby("submarket_name").index_2000q1_100.mean().sort_values(ascending=ascending)
    return _r(g.iloc[n - 1]) if value else g.index[n - 1]


@lru_cache(None)
def _ihs_sum():
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    for c in s.columns[2:]:
        s[c] = pd.to_numeric(s[c].astype(str).str.replace(r"[\s$,%]", "", regex=True), errors="coerce")
    return s


def b27_ihs_summary(*, col, sub=None, area=None):
    code = _ihs_code(sub, area)
    s = _ihs_sum()
    v = s[s.Number == code][col].iloc[0]
    return _r(v, 0 if col == "Median Sales Price" else 1)


def b27_ihs_summary_top(*, col, chicago_only=True, ascending=False, n=1):
    s = _ihs_sum()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s = s.sort_values(col, ascending=ascending)
    return s["Sub Market"].iloc[n - 1]


@lru_cache(None)
def _redfin():
    r = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    def sp(s):
        if pd.isna(s):
            return np.nan
        s = str(s).replace("$", "").replace(",", "").strip()
        mult = 1
        if s.endswith("K"):
            mult, s = 1000, s[:-1]
        elif s.endswith("M"):
            mult, s = 1000000, s[:-1]
        return float(s) * mult
    r["sale_price"] = r["Median Sale Price"].map(sp)
    return r


def b27_redfin(*, region, col, end=None, year=None, nd=0):
    r = _redfin()
    reg = "Chicago, IL" if region == "Chicago, IL" else f"Chicago, IL - {region}"
    r = r[r.Region == reg]
    if end is not None:
        r = r[r.end == pd.Timestamp(end)]
        assert len(r) == 1, (region, end, len(r))
        return _r(r[col].iloc[0], nd)
    r = r[r.end.dt.year == int(year)]
    if region == "Chicago, IL":
        assert len(r) == 12, len(r)
        return _r(r[col].sum(), nd)
    return _r(r[col].mean(), nd)


def b27_share(*, a, b):
    """a / b * 100 for two figures [fn, kwargs]."""
    va = globals()[a[0]](**a[1])
    vb = globals()[b[0]](**b[1])
    return _r(va / vb * 100)


def b27_top_bucket(*, by, area=None, where=None, years=None, n=1, value=False, **flt):
    """Most common hour / weekday / month / year (n-th) for homicides; label or count."""
    h = _filter(_hom(), years=years, **flt)
    if area is not None:
        h = h[h.ca == _num(area)]
    if where:
        h = h[h.ca.isin(list(_set(where)))]
    col = {"hour": "hour", "weekday": "wd", "month": "month", "year": "year"}[by]
    c = h.groupby(col).size()
    c = c.sort_values(ascending=False, kind="stable")
    k = c.index[n - 1]
    if value:
        return int(c.iloc[n - 1])
    if by == "weekday":
        return calendar.day_name[int(k)]
    if by == "month":
        return calendar.month_name[int(k)]
    return str(int(k))


def b27_ward_zip(*, ward):
    return str(int(_wards().loc[int(ward), "ZIPCODE"]))
