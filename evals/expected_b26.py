"""Expected answers for the blind26 held-out question set (Chicago public data).

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

Conventions added for blind26 (each question that relies on one states it)
--------------------------------------------------------------------------
* Set language (``where``: list of conditions, intersected):
  ``top~N~M`` / ``bottom~N~M`` (N areas with highest/lowest measure M, NaN left out),
  ``gt~X~M`` / ``lt~X~M`` / ``ge~X~M`` / ``le~X~M`` (X a number or city/median/mean),
  ``in~A,B,...`` (named areas), and a ``not:`` prefix for set difference.
* Measure language: ``hom:Y0-Y1[,filter...]`` counts, ``rate:``, ``arrest:``, ``domestic:``,
  ``density:``, ``share:`` (percent of the city's homicides with the same filters),
  ``acs:<col|share>``, ``socio:<col>``, ``pop2010``, ``popchg``, ``area``, ``zhvi:YYYY-MM``,
  ``ihs:YYYY`` (index of the area's submarket), and composites ``d[A;B]`` = B - A,
  ``p[A;B]`` = (B / A - 1) * 100, ``r[A;B]`` = A / B, ``neg|M`` = -M.
* "Peak" month of a series = the month with the maximum value (earliest on a tie).
* A homicide filter ``md=MM-DD`` picks that calendar day in each year asked (holidays).
* Group comparisons "top N vs bottom N by X" are stated with N explicitly; the answer is
  the ratio (or difference) of the two pooled figures as the question asks.
* Area count of a set = number of community areas in it (``how='count'``); set statistics
  also allow ``max``, ``min`` and ``range`` of the per-area values.
* The community areas "of" an IHS submarket = the areas whose largest-overlap submarket
  (share_of_community_area) it is; the question says "largest overlap".
* Location filters match the Location Description category exactly ("APARTMENT" does not
  include "CHA APARTMENT"); the question says so.
* ``ziptop:YYYY-MM`` = the area covering most (share_of_zip) of the ZIP with the highest
  ZHVI that month.
* Pearson/Spearman correlations with an arrest rate use only areas with at least one
  homicide in the period (others have no rate); the question says so.
"""
from __future__ import annotations

import functools
import math
import re

import numpy as np
import pandas as pd

from evals.expected import data_dir

# ----------------------------------------------------------------------------- loaders

_SPECIAL = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}


def _title(name: str) -> str:
    return _SPECIAL.get(name, name.title())


@functools.lru_cache(None)
def _ca():
    df = pd.read_csv(data_dir() / "community_areas.csv")
    df["name"] = df["community"].map(_title)
    return df.set_index("area_number")


@functools.lru_cache(None)
def _hom():
    h = pd.read_csv(data_dir() / "homicides.csv", dtype=str)
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h.dt.dt.year
    h["month"] = h.dt.dt.month
    h["day"] = h.dt.dt.day
    h["wd"] = h.dt.dt.dayofweek  # Mon=0
    h["hour"] = h.dt.dt.hour
    for c, n in (("Community Area", "ca"), ("Ward", "ward"), ("District", "district")):
        h[n] = pd.to_numeric(h[c], errors="coerce").astype("Int64")
    h["arrest"] = h["Arrest"].str.lower() == "true"
    h["domestic"] = h["Domestic"].str.lower() == "true"
    h["loc"] = h["Location Description"].fillna("")
    return h


@functools.lru_cache(None)
def _pop2010():
    p = pd.read_csv(data_dir() / "census_population_2010.csv")
    return p.set_index("NID")["POP2010"].astype(float)


@functools.lru_cache(None)
def _acs():
    a = pd.read_csv(data_dir() / "census_acs.csv")
    m = _ca().reset_index()[["area_number", "community"]]
    a = a.merge(m, left_on="community_area", right_on="community", how="inner")
    assert len(a) == 77
    return a.set_index("area_number")


_SOC_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "no_hs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME ",
    "hardship": "HARDSHIP INDEX",
}


@functools.lru_cache(None)
def _socio():
    s = pd.read_csv(data_dir() / "socioeconomic.csv")
    city = s[s["Community Area Number"].isna()].iloc[0]
    s = s[s["Community Area Number"].notna()].copy()
    s["Community Area Number"] = s["Community Area Number"].astype(int)
    return s.set_index("Community Area Number"), city


@functools.lru_cache(None)
def _zipx():
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")


@functools.lru_cache(None)
def _zhvi():
    z = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].astype(int).map("{:02d}".format)
    return z


@functools.lru_cache(None)
def _ihsx():
    return pd.read_csv(data_dir() / "community_area_ihs_submarket_crosswalk.csv")


@functools.lru_cache(None)
def _ihs():
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


@functools.lru_cache(None)
def _ihs_summary():
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    for c in s.columns[2:7]:
        s[c] = s[c].str.replace("%", "").astype(float)
    s["Median Sales Price"] = (
        s["Median Sales Price"].str.replace(r"[$,\s]", "", regex=True).astype(float))
    return s


@functools.lru_cache(None)
def _redfin():
    r = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")

    def money(v):
        v = str(v).strip().replace("$", "").replace(",", "")
        mult = 1
        if v.endswith("K"):
            mult, v = 1e3, v[:-1]
        elif v.endswith("M"):
            mult, v = 1e6, v[:-1]
        return float(v) * mult

    r["sale_price"] = r["Median Sale Price"].map(money)
    return r


@functools.lru_cache(None)
def _stations():
    s = pd.read_csv(data_dir() / "police_stations.csv", dtype=str)
    return s[s["DISTRICT"] != "Headquarters"].assign(d=lambda x: x.DISTRICT.astype(int)).set_index("d")


@functools.lru_cache(None)
def _wards():
    w = pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig", dtype=str)
    w["w"] = w["WARD"].astype(int)
    return w.set_index("w")


# ----------------------------------------------------------------------------- helpers

def _r1(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), 1)


def _area(ref) -> int:
    """Area reference -> community-area number.

    int / numeric string; a name; ``district:N`` (station's CA); ``ward:N`` (CA covering
    most of the ward office ZIP); ``zip:NNNNN`` (CA covering most of that ZIP)."""
    if isinstance(ref, (int, np.integer)):
        return int(ref)
    ref = str(ref).strip()
    if ref.isdigit():
        return int(ref)
    if ref.startswith("district:"):
        return int(_stations().loc[int(ref.split(":")[1]), "COMMUNITY AREA"])
    if ref.startswith("ward:"):
        z = int(_wards().loc[int(ref.split(":")[1]), "ZIPCODE"])
        return _area(f"zip:{z}")
    if ref.startswith("ziptop:"):
        return _area("zip:" + b26_zip_zhvi_rank(month=ref.split(":")[1]))
    if ref.startswith("zip:"):
        z = int(ref.split(":")[1])
        x = _zipx()
        x = x[x.zip == z].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
        return int(x.iloc[0].area_number)
    ca = _ca()
    key = ref.upper().replace("'", "")
    hit = ca[ca.community == key]
    if len(hit) == 0:
        raise KeyError(ref)
    return int(hit.index[0])


def _name(n: int) -> str:
    return _ca().loc[int(n), "name"]


def _years(spec: str):
    if spec == "all":
        return list(range(2001, 2024))
    if "-" in spec:
        a, b = spec.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(spec)]


_SEASON = {"winter": [12, 1, 2], "spring": [3, 4, 5], "summer": [6, 7, 8],
           "autumn": [9, 10, 11], "fall": [9, 10, 11]}
_WD = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}


def _hsel(spec: str):
    """'2019-2022,arrest,months=6-8' -> (filtered homicide rows, years list)."""
    parts = spec.split(",")
    yrs = _years(parts[0])
    h = _hom()
    h = h[h.year.isin(yrs)]
    for f in parts[1:]:
        f = f.strip()
        if f == "arrest":
            h = h[h.arrest]
        elif f == "noarrest":
            h = h[~h.arrest]
        elif f == "domestic":
            h = h[h.domestic]
        elif f == "nondomestic":
            h = h[~h.domestic]
        elif f == "weekend":
            h = h[h.wd >= 5]
        elif f == "weekday":
            h = h[h.wd < 5]
        elif f.startswith("wd="):
            h = h[h.wd == _WD[f[3:].lower()[:3]]]
        elif f.startswith("loc="):
            h = h[h["loc"].isin(f[4:].split("/"))]
        elif f.startswith("season="):
            h = h[h.month.isin(_SEASON[f[7:]])]
        elif f.startswith("q="):
            q = int(f[2:])
            h = h[h.month.isin([3 * q - 2, 3 * q - 1, 3 * q])]
        elif f.startswith("months="):
            a, b = map(int, f[7:].split("-"))
            h = h[h.month.between(a, b)]
        elif f.startswith("month="):
            h = h[h.month == int(f[6:])]
        elif f.startswith("hours="):
            a, b = map(int, f[6:].split("-"))
            hrs = list(range(a, b + 1)) if a <= b else list(range(a, 24)) + list(range(0, b + 1))
            h = h[h.hour.isin(hrs)]
        elif f.startswith("md="):
            m, d = map(int, f[3:].split("-"))
            h = h[(h.month == m) & (h.day == d)]
        else:
            raise ValueError(f)
    return h, yrs


def _popyears(yrs):
    """Per-area sum of each year's population (vintage rule)."""
    p10 = _pop2010()
    acs = _acs()["total_population"].astype(float)
    tot = pd.Series(0.0, index=range(1, 78))
    for y in yrs:
        tot = tot + (p10 if y <= 2015 else acs).reindex(tot.index)
    return tot


def _city_popyears(yrs):
    return sum(_pop2010().sum() if y <= 2015 else _acs()["total_population"].sum() for y in yrs)


_ACS_GROUPS = {
    "black": ["black_or_african_american"], "white": ["white"], "asian": ["asian"],
    "hispanic": ["hispanic_or_latino"], "white_nh": ["white_not_hispanic_or_latino"],
    "65plus": ["male_65", "female_65"], "children": ["male_0_to_17", "female_0_to_17"],
    "18_24": ["male_18_to_24", "female_18_to_24"],
    "inc_lt25": ["under_25_000"], "inc_25_50": ["_25_000_to_49_999"],
    "inc_50_75": ["_50_000_to_74_999"], "inc_75_125": ["_75_000_to_125_000"],
    "inc_125plus": ["_125_000"],
}
_INC = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
_IDX = pd.Index(range(1, 78))


def _nd(measure: str):
    """Numerator / denominator series for poolable measures (None if not poolable).

    Returns (num, den, scale); value = num / den * scale."""
    if measure.startswith("neg|"):
        return None
    kind, _, rest = measure.partition(":")
    if kind in ("hom", "rate", "arrest", "domestic", "density", "share"):
        h, yrs = _hsel(rest)
        cnt = h.groupby("ca").size().reindex(_IDX, fill_value=0).astype(float)
        if kind == "hom":
            return cnt, pd.Series(1.0, index=_IDX), 1.0
        if kind == "rate":
            return cnt, _popyears(yrs), 1e5
        if kind in ("arrest", "domestic"):
            num = h[h[kind]].groupby("ca").size().reindex(_IDX, fill_value=0).astype(float)
            return num, cnt, 100.0
        if kind == "density":
            return cnt, _ca()["area_sq_mi"].reindex(_IDX).astype(float), 1.0
        if kind == "share":
            return cnt, pd.Series(float(len(h)), index=_IDX), 100.0
    if kind == "acs":
        a = _acs().reindex(_IDX)
        if rest in _ACS_GROUPS:
            num = a[_ACS_GROUPS[rest]].sum(axis=1).astype(float)
            den = a[_INC].sum(axis=1) if rest.startswith("inc_") else a["total_population"]
            return num, den.astype(float), 100.0
        return None
    if measure == "popchg":
        acs = _acs()["total_population"].reindex(_IDX).astype(float)
        p10 = _pop2010().reindex(_IDX)
        return acs - p10, p10, 100.0
    return None


def _split_composite(body):
    depth = 0
    for i, ch in enumerate(body):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == ";" and depth == 0:
            return body[:i], body[i + 1:]
    raise ValueError(body)


@functools.lru_cache(None)
def _measure(measure: str) -> pd.Series:
    """Per-area values (index 1..77, NaN where absent)."""
    m = re.fullmatch(r"([dpr])\[(.*)\]", measure)
    if m:
        a, b = _split_composite(m.group(2))
        A, B = _measure(a), _measure(b)
        if m.group(1) == "d":
            return B - A
        if m.group(1) == "p":
            return (B / A - 1) * 100
        return A / B
    if measure.startswith("neg|"):
        return -_measure(measure[4:])
    kind, _, rest = measure.partition(":")
    nd = _nd(measure)
    if nd is not None and kind != "acs" or (kind == "acs" and rest in _ACS_GROUPS) or measure == "popchg":
        num, den, sc = nd
        with np.errstate(divide="ignore", invalid="ignore"):
            return (num / den.replace(0, np.nan)) * sc if kind != "hom" else num
    if kind == "acs":
        return _acs()[rest].reindex(_IDX).astype(float)
    if kind == "socio":
        return _socio()[0][_SOC_COLS[rest]].reindex(_IDX).astype(float)
    if measure == "pop2010":
        return _pop2010().reindex(_IDX)
    if measure == "area":
        return _ca()["area_sq_mi"].reindex(_IDX).astype(float)
    if kind == "zhvi":
        return _ca_zhvi(rest)
    if kind == "ihs":
        return pd.Series({n: _ihs_area_year(n, rest) for n in _IDX})
    raise ValueError(measure)


def _ca_zhvi(ym: str) -> pd.Series:
    z = _zhvi()
    z = z[(z.ym == ym) & z.price.notna()][["RegionName", "price"]]
    x = _zipx().merge(z, left_on="zip", right_on="RegionName", how="inner")
    x["w"] = x.share_of_community_area * x.price
    g = x.groupby("area_number").agg(w=("w", "sum"), s=("share_of_community_area", "sum"))
    return (g.w / g.s).reindex(_IDX)


def _submarket_of(n: int):
    x = _ihsx()
    x = x[x.area_number == n].sort_values("share_of_community_area", ascending=False)
    return x.iloc[0]


def _ihs_series(code):
    s = _ihs()
    return s[s.submarket_code == code]


def _ihs_area_year(n, spec):
    r = _submarket_of(n)
    if not r.in_price_index:
        return np.nan
    s = _ihs_series(r.submarket_code)
    if "Q" in spec:
        v = s[s.yearq == spec].index_2000q1_100
        return float(v.iloc[0])
    return float(s[s.year == int(spec)].index_2000q1_100.mean())


def _city_value(measure: str) -> float:
    if measure.startswith("neg|"):
        return -_city_value(measure[4:])
    kind, _, rest = measure.partition(":")
    if kind in ("hom", "rate", "arrest", "domestic"):
        h, yrs = _hsel(rest)
        if kind == "hom":
            return float(len(h))
        if kind == "rate":
            return len(h) / _city_popyears(yrs) * 1e5
        return h[kind].mean() * 100
    if kind == "socio":
        return float(_socio()[1][_SOC_COLS[rest]])
    if kind == "acs" or measure == "popchg":
        num, den, sc = _nd(measure)
        return num.sum() / den.sum() * sc
    raise ValueError(f"no city value for {measure}")


def _threshold(x, s: pd.Series, measure: str) -> float:
    if x == "median":
        return s.dropna().median()
    if x == "mean":
        return s.dropna().mean()
    if x == "city":
        return _city_value(measure)
    return float(x)


def _ranked(s: pd.Series, ascending=False) -> list:
    s = s.dropna()
    df = pd.DataFrame({"v": s, "n": s.index})
    df = df.sort_values(["v", "n"], ascending=[ascending, True])
    return df.n.tolist()


def _cond(c: str) -> set:
    if c.startswith("not:"):
        return set(_IDX) - _cond(c[4:])
    op, arg, *rest = c.split("~", 2)
    if op == "in":
        return {_area(a) for a in arg.split(",")}
    measure = rest[0]
    s = _measure(measure)
    if op in ("top", "bottom"):
        return set(_ranked(s, ascending=(op == "bottom"))[: int(arg)])
    t = _threshold(arg, s, measure)
    s = s.dropna()
    f = {"gt": s > t, "lt": s < t, "ge": s >= t, "le": s <= t}[op]
    return set(s[f].index)


def _set(where) -> list:
    if where is None:
        return list(_IDX)
    if isinstance(where, str):
        where = [where]
    out = set(_IDX)
    for c in where:
        out &= _cond(c)
    return sorted(out)


def _stat(members, measure, how):
    s = _measure(measure).reindex(members)
    if how == "count":
        return len(members)
    if how == "sum":
        return s.sum()
    if how == "mean":
        return s.dropna().mean()
    if how == "median":
        return s.dropna().median()
    if how == "max":
        return s.max()
    if how == "min":
        return s.min()
    if how == "range":
        return s.max() - s.min()
    if how == "pooled":
        num, den, sc = _nd(measure)
        return num.reindex(members).sum() / den.reindex(members).sum() * sc
    if how == "city_share":
        h, _ = _hsel(measure.partition(":")[2])
        return s.sum() / len(h) * 100
    raise ValueError(how)


def _round(measure, how, v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return float("nan")
    kind = measure.split(":")[0].replace("neg|", "")
    if how == "count":
        return int(v)
    if how in ("sum", "max", "min", "range", "median") and (
            kind in ("hom",) or measure in ("pop2010",)
            or (kind == "acs" and measure.split(":")[1] not in _ACS_GROUPS)
            or (kind == "socio" and measure.split(":")[1] in ("income", "hardship"))
            or kind == "zhvi"):
        if how == "median" and kind == "hom" and v != int(v):
            return _r1(v)
        return int(round(v))
    if how == "mean" and kind == "zhvi":
        return int(round(v))
    if how == "mean" and kind == "socio" and measure.split(":")[1] == "income":
        return int(round(v))
    return _r1(v)


def _val_round(measure, v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return float("nan")
    kind = measure.split(":")[0].replace("neg|", "")
    if measure.startswith(("p[", "r[")):
        return _r1(v)
    if measure.startswith("d["):
        inner = _split_composite(measure[2:-1])[0]
        k = inner.split(":")[0]
        if k == "hom" or k == "zhvi" or inner in ("pop2010",) or (
                k == "acs" and inner.split(":")[1] not in _ACS_GROUPS):
            return int(round(v))
        return _r1(v)
    if kind == "hom" or kind == "zhvi" or measure == "pop2010" or (
            kind == "acs" and measure.split(":")[1] not in _ACS_GROUPS) or (
            kind == "socio" and measure.split(":")[1] in ("income", "hardship")):
        return int(round(v))
    return _r1(v)


# ----------------------------------------------------------------------------- public API

def b26_set_stat(*, where=None, measure, how="pooled"):
    """A statistic of ``measure`` over the set of areas defined by ``where``."""
    members = _set(where)
    return _round(measure, how, _stat(members, measure, how))


def b26_set_compare(*, where_a, where_b, measure, how="pooled", op="ratio"):
    """Compare a statistic between two sets: ratio a/b, diff a-b or pct (a/b-1)*100."""
    a = _stat(_set(where_a), measure, how)
    b = _stat(_set(where_b), measure, how)
    if op == "ratio":
        return _r1(a / b)
    if op == "pct":
        return _r1((a / b - 1) * 100)
    return _round(measure, how, a - b)


def b26_set_member(*, where=None, measure, rank=1, ascending=False):
    """Name of the area at position ``rank`` within the set, ranked by ``measure``."""
    members = _set(where)
    order = _ranked(_measure(measure).reindex(members), ascending=ascending)
    return _name(order[rank - 1])


def b26_ranked_value(*, rank_by, rank=1, ascending=False, where=None, then=None):
    """The ``then`` measure (default: rank_by) of the area at ``rank`` in a ranking."""
    members = _set(where)
    order = _ranked(_measure(rank_by).reindex(members), ascending=ascending)
    n = order[rank - 1]
    m = then or rank_by
    return _val_round(m, _measure(m).loc[n])


def b26_area_value(*, area, measure):
    """One area's value of a measure (area may be a name, number, district:/ward:/zip: link)."""
    return _val_round(measure, _measure(measure).loc[_area(area)])


def b26_area_name(*, area):
    """Title-cased name of the area an area reference resolves to."""
    return _name(_area(area))


def b26_rank_of(*, area, measure, ascending=False):
    """1-based rank of an area among areas with a value (highest first unless ascending)."""
    order = _ranked(_measure(measure), ascending=ascending)
    return order.index(_area(area)) + 1


def b26_pair(*, area_a, measure_a, area_b=None, measure_b=None, op="diff"):
    """Compare two figures: op diff (a-b), ratio (a/b) or pct ((a/b-1)*100)."""
    area_b = area_b if area_b is not None else area_a
    measure_b = measure_b or measure_a
    a = _measure(measure_a).loc[_area(area_a)]
    b = _measure(measure_b).loc[_area(area_b)]
    if op == "ratio":
        return _r1(a / b)
    if op == "pct":
        return _r1((a / b - 1) * 100)
    return _val_round(measure_a, a - b)


def b26_corr(*, x, y, method="pearson", where=None):
    members = _set(where)
    df = pd.DataFrame({"x": _measure(x).reindex(members), "y": _measure(y).reindex(members)}).dropna()
    if method == "spearman":
        df = df.rank()
    return round(float(df.x.corr(df.y)), 2)


def b26_city_value(*, measure):
    return _val_round(measure, _city_value(measure))


def b26_area_vs_city(*, area, measure, op="ratio"):
    a = _measure(measure).loc[_area(area)]
    c = _city_value(measure)
    return _r1(a / c) if op == "ratio" else _val_round(measure, a - c)


def b26_hom(*, years, filters="", stat="count", where=None, district=None, ward=None,
            divide_by=None):
    """City / set / district / ward homicide figure.

    stat: count, arrest (%), domestic (%), rate (city only), share (% of the city total with the
    same filters), per_year (count / number of years or ``divide_by``)."""
    spec = years + ("," + filters if filters else "")
    h, yrs = _hsel(spec)
    allh = h
    if where is not None:
        h = h[h.ca.isin(_set(where))]
    if district is not None:
        h = h[h.district == int(district)]
    if ward is not None:
        h = h[h.ward == int(ward)]
    if stat == "count":
        return int(len(h))
    if stat in ("arrest", "domestic"):
        return _r1(h[stat].mean() * 100)
    if stat == "rate":
        return _r1(len(h) / _city_popyears(yrs) * 1e5)
    if stat == "share":
        return _r1(len(h) / len(allh) * 100)
    if stat == "per_year":
        return _r1(len(h) / (divide_by or len(yrs)))
    raise ValueError(stat)


_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_WDN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def b26_hom_mode(*, years, by, filters="", where=None, district=None, rank=1, value=False,
                 ascending=False):
    """Label (or count, value=True) of the rank-th most common group.

    by: month, weekday, hour, loc, district, ward, year, ca."""
    spec = years + ("," + filters if filters else "")
    h, _ = _hsel(spec)
    if where is not None:
        h = h[h.ca.isin(_set(where))]
    if district is not None:
        h = h[h.district == int(district)]
    col = {"month": "month", "weekday": "wd", "hour": "hour", "loc": "loc",
           "district": "district", "ward": "ward", "year": "year", "ca": "ca"}[by]
    g = h[h[col].notna()].groupby(col).size()
    df = pd.DataFrame({"v": g, "k": g.index}).sort_values(["v", "k"], ascending=[ascending, True])
    k, v = df.iloc[rank - 1].k, df.iloc[rank - 1].v
    if value:
        return int(v)
    if by == "month":
        return _MONTHS[int(k) - 1]
    if by == "weekday":
        return _WDN[int(k)]
    if by == "ca":
        return _name(int(k))
    return str(int(k)) if by in ("hour", "district", "ward", "year") else str(k)


def b26_district_info(*, district, field="name"):
    s = _stations().loc[int(district)]
    if field == "name":
        return s["DISTRICT NAME"]
    if field == "area":
        return _name(int(s["COMMUNITY AREA"]))
    return str(s[field])


def b26_ward_info(*, ward, field="alderperson"):
    w = _wards().loc[int(ward)]
    if field == "alderperson":
        return w["ALDERMAN"].split(",")[0].strip()
    if field == "zip":
        return str(w["ZIPCODE"])
    if field == "area":
        return _name(_area(f"ward:{ward}"))
    raise ValueError(field)


def b26_main_zip(*, area):
    """The ZIP an area lies in (largest share_of_community_area)."""
    x = _zipx()
    x = x[x.area_number == _area(area)].sort_values(
        ["share_of_community_area", "zip"], ascending=[False, True])
    return str(int(x.iloc[0].zip))


def b26_zip_zhvi(*, zip=None, area=None, month, month_b=None, op="value"):
    """ZHVI of a ZIP (or of an area's main ZIP) for a month, or its change to month_b."""
    z = int(zip) if zip is not None else int(b26_main_zip(area=area))
    d = _zhvi()
    d = d[d.RegionName == z].set_index("ym").price
    a = d.loc[month]
    if op == "value":
        return int(round(a))
    b = d.loc[month_b]
    if op == "fall":
        return _r1(-(b / a - 1) * 100)
    if op == "pct":
        return _r1((b / a - 1) * 100)
    return int(round(b - a))


def b26_zip_zhvi_rank(*, month, month_b=None, rank=1, ascending=False, value=False):
    """ZIP ranked by ZHVI in a month (or by percent change month -> month_b)."""
    d = _zhvi()
    a = d[d.ym == month].set_index("RegionName").price
    if month_b:
        b = d[d.ym == month_b].set_index("RegionName").price
        s = ((b / a - 1) * 100).dropna()
    else:
        s = a.dropna()
    df = pd.DataFrame({"v": s, "k": s.index}).sort_values(["v", "k"], ascending=[ascending, True])
    k, v = df.iloc[rank - 1].k, df.iloc[rank - 1].v
    if value:
        return _r1(v) if month_b else int(round(v))
    return str(int(k))


def b26_zhvi_peak(*, zip=None, area=None, start="2000-01", end="2024-09", what="month"):
    """Month (YYYY-MM) with the highest ZHVI (ZIP or area-weighted) in a window, or its value."""
    if zip is not None:
        d = _zhvi()
        s = d[(d.RegionName == int(zip))].set_index("ym").price
    else:
        n = _area(area)
        months = sorted(_zhvi().ym.unique())
        s = pd.Series({m: _ca_zhvi(m).loc[n] for m in months})
    s = s[(s.index >= start) & (s.index <= end)].dropna()
    k = s.idxmax()
    return k if what == "month" else int(round(s.loc[k]))


def b26_submarket(*, area):
    """IHS submarket name (as in the index file) an area lies in."""
    r = _submarket_of(_area(area))
    if not r.in_price_index:
        return "not in index"
    return _ihs_series(r.submarket_code).submarket_name.iloc[0]


def b26_ihs(*, submarket=None, area=None, period, period_b=None, op="value"):
    """IHS index for a submarket code/name (or an area's submarket): a year (mean of
    quarters) or a quarter 'YYYYQn'; op value / pct (to period_b) / diff."""
    if area is not None:
        code = _submarket_of(_area(area)).submarket_code
    else:
        s = _ihs()
        if submarket in set(s.submarket_code):
            code = submarket
        else:
            code = s[s.submarket_name == submarket].submarket_code.iloc[0]
    s = _ihs_series(code)

    def v(p):
        p = str(p)
        if "Q" in p:
            return float(s[s.yearq == p].index_2000q1_100.iloc[0])
        return float(s[s.year == int(p)].index_2000q1_100.mean())

    a = v(period)
    if op == "value":
        return _r1(a)
    b = v(period_b)
    if op == "fall":
        return _r1(-(b / a - 1) * 100)
    return _r1((b / a - 1) * 100) if op == "pct" else _r1(b - a)


def b26_ihs_rank(*, period, period_b=None, rank=1, ascending=False, chicago_only=True,
                 value=False):
    """Chicago submarket (names with 'Chicago--') ranked by index value or by pct change."""
    s = _ihs()
    s = s[s.submarket_name.str.startswith("Chicago--")] if chicago_only else s

    def v(p):
        p = str(p)
        if "Q" in p:
            return s[s.yearq == p].set_index("submarket_name").index_2000q1_100
        return s[s.year == int(p)].groupby("submarket_name").index_2000q1_100.mean()

    a = v(period)
    val = ((v(period_b) / a - 1) * 100) if period_b else a
    val = val.sort_values(ascending=ascending)
    return _r1(val.iloc[rank - 1]) if value else val.index[rank - 1]


def b26_ihs_summary(*, submarket=None, area=None, column):
    s = _ihs_summary()
    if area is not None:
        submarket = _submarket_of(_area(area)).submarket_code
    row = s[(s.Number == submarket) | (s["Sub Market"] == submarket)].iloc[0]
    v = row[column]
    return int(round(v)) if column == "Median Sales Price" else _r1(v)


def b26_ihs_summary_rank(*, column, rank=1, ascending=False, chicago_only=True):
    s = _ihs_summary()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s = s.sort_values([column, "Number"], ascending=[ascending, True])
    return s.iloc[rank - 1]["Sub Market"]


def b26_redfin(*, region, stat, end=None, year=None, how="value"):
    """Redfin figure for a region.  end='YYYY-MM-DD' picks one row; year+how='sum' sums the
    rows ending in that year (city monthly rows); how='mean' averages them."""
    r = _redfin()
    reg = "Chicago, IL" if region == "Chicago" else f"Chicago, IL - {region}"
    r = r[r.Region == reg]
    col = {"sale_price": "sale_price", "homes_sold": "Homes Sold", "dom": "Median Dom",
           "inventory": "Inventory", "sale_to_list": "Avg Sale To List",
           "above_list": "Sold Above List", "new_listings": "New Listings"}[stat]
    if end is not None:
        v = float(r[r.end == pd.Timestamp(end)][col].iloc[0])
    else:
        vals = r[r.end.dt.year == int(year)][col]
        v = vals.sum() if how == "sum" else vals.mean()
    if how == "raw":
        return v
    if stat in ("sale_to_list", "above_list"):
        return _r1(v * 100)
    if stat == "dom":
        return _r1(v)
    return int(round(v))


def b26_redfin_change(*, region, stat, end_a, end_b, op="pct"):
    a = b26_redfin(region=region, stat=stat, end=end_a, how="raw")
    b = b26_redfin(region=region, stat=stat, end=end_b, how="raw")
    return _r1((b / a - 1) * 100) if op == "pct" else _r1(b - a)


def b26_pct_areas(*, where, measure):
    """Percent of areas (with a value of ``measure``) that are in the set."""
    have = _measure(measure).dropna()
    members = [m for m in _set(where) if m in have.index]
    return _r1(len(members) / len(have) * 100)


def b26_ranked_zip(*, rank_by, rank=1, ascending=False, where=None):
    """Main ZIP of the area at ``rank`` in a ranking."""
    order = _ranked(_measure(rank_by).reindex(_set(where)), ascending=ascending)
    return b26_main_zip(area=order[rank - 1])


def b26_period_pct(*, a, b, where=None):
    """Percent change in homicide count between two selections (dicts of years/filters)."""
    ca = b26_hom(where=where, **a)
    cb = b26_hom(where=where, **b)
    return _r1((cb / ca - 1) * 100)


def b26_set_period_pct(*, where, a, b):
    """Percent change of the summed measure over a set between measures a and b."""
    m = _set(where)
    sa, sb = _measure(a).reindex(m).sum(), _measure(b).reindex(m).sum()
    return _r1((sb / sa - 1) * 100)


def b26_share_in_set(*, where, measure, rank=1):
    """Percent of the set's summed measure held by its rank-th largest member."""
    s = _measure(measure).reindex(_set(where))
    order = _ranked(s)
    return _r1(s.loc[order[rank - 1]] / s.sum() * 100)


def b26_set_share_filter(*, where, years, filters):
    """Percent of the homicides (in the set, or city-wide if where is None) matching filters."""
    h, _ = _hsel(years)
    f, _ = _hsel(years + "," + filters)
    if where is not None:
        m = _set(where)
        h, f = h[h.ca.isin(m)], f[f.ca.isin(m)]
    return _r1(len(f) / len(h) * 100)


def b26_submarket_set_stat(*, submarket, measure, how="pooled"):
    """Statistic over the community areas whose main (largest-overlap) IHS submarket is given."""
    members = [n for n in _IDX if _submarket_of(n).submarket_code == submarket]
    return _round(measure, how, _stat(members, measure, how))


def b26_district_name_top(*, years, filters="", rank=1):
    d = b26_hom_mode(years=years, by="district", filters=filters, rank=rank)
    return b26_district_info(district=int(d), field="name")


def b26_ihs_summary_max(*, column, chicago_only=True, ascending=False):
    name = b26_ihs_summary_rank(column=column, chicago_only=chicago_only, ascending=ascending)
    return b26_ihs_summary(submarket=name, column=column)


def b26_mean_vs_city(*, measure):
    """City figure minus the plain mean of the per-area values."""
    return _val_round(measure, _city_value(measure) - _measure(measure).dropna().mean())
