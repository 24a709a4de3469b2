"""Expected figures for the blind22 held-out question set (pandas only).

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
"""
from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pandas as pd

from evals.expected import data_dir


# ----------------------------------------------------------------------------- loads
@functools.lru_cache(maxsize=None)
def _hom():
    h = pd.read_csv(data_dir() / "homicides.csv", dtype=str)
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["dt"] = d
    h["year"] = d.dt.year
    h["month"] = d.dt.month
    h["wd"] = d.dt.day_name()
    h["hour"] = d.dt.hour
    for c, n in (("Community Area", "ca"), ("Ward", "ward"), ("District", "dist")):
        h[n] = pd.to_numeric(h[c], errors="coerce").astype("Int64")
    h["arrest"] = h["Arrest"].str.strip().str.lower() == "true"
    h["dom"] = h["Domestic"].str.strip().str.lower() == "true"
    h["loc"] = h["Location Description"].fillna("").str.upper()
    return h


@functools.lru_cache(maxsize=None)
def _ca():
    c = pd.read_csv(data_dir() / "community_areas.csv")
    def nm(s):
        s = s.title()
        return {"Ohare": "O'Hare", "Mckinley Park": "McKinley Park"}.get(s, s)
    c["name"] = c["community"].map(nm)
    return c.set_index("area_number")


@functools.lru_cache(maxsize=None)
def _se():
    s = pd.read_csv(data_dir() / "socioeconomic.csv")
    s.columns = [x.strip() for x in s.columns]
    return s


@functools.lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(data_dir() / "census_acs.csv")
    num = _ca().reset_index().set_index("community")["area_number"]
    a["area"] = a["community_area"].map(num)
    return a.set_index("area").sort_index()


@functools.lru_cache(maxsize=None)
def _pop2010():
    p = pd.read_csv(data_dir() / "census_population_2010.csv")
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


@functools.lru_cache(maxsize=None)
def _xw():
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")


@functools.lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    z = z.rename(columns={"RegionName": "zip"})
    return z


@functools.lru_cache(maxsize=None)
def _ihs_long():
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


@functools.lru_cache(maxsize=None)
def _ihs_sum():
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    return s


@functools.lru_cache(maxsize=None)
def _ihs_xw():
    return pd.read_csv(data_dir() / "community_area_ihs_submarket_crosswalk.csv")


@functools.lru_cache(maxsize=None)
def _redfin():
    r = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    def money(s):
        if not isinstance(s, str):
            return np.nan
        s = s.strip().replace("$", "").replace(",", "")
        mult = 1
        if s.endswith("K"):
            mult, s = 1000, s[:-1]
        elif s.endswith("M"):
            mult, s = 1_000_000, s[:-1]
        return float(s) * mult
    r["sale_price"] = r["Median Sale Price"].map(money)
    return r


@functools.lru_cache(maxsize=None)
def _stations():
    p = pd.read_csv(data_dir() / "police_stations.csv")
    p = p[p["DISTRICT"].astype(str).str.strip() != "Headquarters"].copy()
    p["DISTRICT"] = p["DISTRICT"].astype(int)
    return p


@functools.lru_cache(maxsize=None)
def _wards():
    return pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig")


# ----------------------------------------------------------------------------- helpers
AREAS = list(range(1, 78))
SE_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "no_hs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "pci": "PER CAPITA INCOME",
    "hardship": "HARDSHIP INDEX",
}
RACE = {"black": ["black_or_african_american"], "white": ["white"],
        "white_nh": ["white_not_hispanic_or_latino"], "hispanic": ["hispanic_or_latino"],
        "asian": ["asian"], "65": ["male_65", "female_65"],
        "kids": ["male_0_to_17", "female_0_to_17"],
        "18_24": ["male_18_to_24", "female_18_to_24"],
        "25_34": ["male_25_to_34", "female_25_to_34"]}
INC = {"lt25": ["under_25_000"], "25_50": ["_25_000_to_49_999"], "50_75": ["_50_000_to_74_999"],
       "75_125": ["_75_000_to_125_000"], "ge125": ["_125_000"],
       "lt50": ["under_25_000", "_25_000_to_49_999"],
       "ge75": ["_75_000_to_125_000", "_125_000"]}
INC_ALL = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
SEASONS = {"winter": [12, 1, 2], "spring": [3, 4, 5], "summer": [6, 7, 8], "autumn": [9, 10, 11],
           "fall": [9, 10, 11]}


def _area_num(area):
    if isinstance(area, (int, np.integer)):
        return int(area)
    s = str(area).strip().lower().replace("’", "'")
    c = _ca()
    for n, nm in c["name"].items():
        if nm.lower() == s or c.loc[n, "community"].lower() == s:
            return int(n)
    raise KeyError(area)


def _name(n):
    return _ca().loc[int(n), "name"]


def _years(spec):
    if "-" in str(spec):
        a, b = str(spec).split("-")
        return list(range(int(a), int(b) + 1))
    return [int(spec)]


def _filter(h, toks):
    """Row filters for homicide rows. Tokens: dom, nodom, arrest, noarrest, weekend,
    weekday (Mon-Fri), m=7 or m=6,7,8, q=3, season=summer, wd=Saturday, h=22-3 (wraps),
    loc=STREET (exact, upper), d=YYYY-MM-DD..YYYY-MM-DD (inclusive)."""
    for t in toks:
        if t == "dom":
            h = h[h["dom"]]
        elif t == "nodom":
            h = h[~h["dom"]]
        elif t == "arrest":
            h = h[h["arrest"]]
        elif t == "noarrest":
            h = h[~h["arrest"]]
        elif t == "weekend":
            h = h[h["wd"].isin(["Saturday", "Sunday"])]
        elif t == "weekdays":
            h = h[~h["wd"].isin(["Saturday", "Sunday"])]
        elif t.startswith("m="):
            h = h[h["month"].isin([int(x) for x in t[2:].split(",")])]
        elif t.startswith("q="):
            q = int(t[2:])
            h = h[h["month"].isin([3 * q - 2, 3 * q - 1, 3 * q])]
        elif t.startswith("season="):
            h = h[h["month"].isin(SEASONS[t[7:]])]
        elif t.startswith("wd="):
            h = h[h["wd"].isin(t[3:].split(","))]
        elif t.startswith("h="):
            a, b = [int(x) for x in t[2:].split("-")]
            hrs = list(range(a, b + 1)) if a <= b else list(range(a, 24)) + list(range(0, b + 1))
            h = h[h["hour"].isin(hrs)]
        elif t.startswith("loc="):
            h = h[h["loc"].isin(t[4:].upper().split("|"))]
        elif t.startswith("d="):
            a, b = t[2:].split("..")
            h = h[(h["dt"] >= pd.Timestamp(a)) & (h["dt"] < pd.Timestamp(b) + pd.Timedelta(days=1))]
        elif t == "":
            pass
        else:
            raise ValueError(t)
    return h


def _hrows(years, toks=()):
    h = _hom()
    h = h[h["year"].isin(years)]
    return _filter(h, toks)


def _pop_year(y):
    if y <= 2015:
        return _pop2010()
    return _acs()["total_population"].astype(float)


def _popsum(years):
    s = None
    for y in years:
        p = _pop_year(y).reindex(AREAS)
        s = p if s is None else s + p
    return s


def _city_pop(y):
    return float(_pop_year(y).sum())


def _zhvi_area(year, month):
    z = _zhvi()
    z = z[(z["Year"] == year) & (z["Month"] == month)].dropna(subset=["price"])
    x = _xw().merge(z[["zip", "price"]], on="zip")
    x["w"] = x["share_of_community_area"] * x["price"]
    g = x.groupby("area_number").agg(w=("w", "sum"), s=("share_of_community_area", "sum"))
    return (g["w"] / g["s"]).reindex(AREAS)


def _parts(spec):
    """Return (numerator Series, denominator Series or None, scale) for a measure spec.
    The value = num/den*scale (or num if den is None)."""
    p = spec.split(":")
    kind = p[0]
    if kind in ("hom", "rate", "dens", "arrest_rate", "dom_share"):
        years = _years(p[1])
        toks = p[2:]
        h = _hrows(years, toks if kind in ("hom", "rate", "dens") else [t for t in toks])
        cnt = h.dropna(subset=["ca"]).groupby("ca").size().reindex(AREAS, fill_value=0).astype(float)
        if kind == "hom":
            return cnt, None, 1
        if kind == "rate":
            return cnt, _popsum(years), 1e5
        if kind == "dens":
            return cnt, _ca()["area_sq_mi"].reindex(AREAS).astype(float), 1
        hh = h.dropna(subset=["ca"])
        flag = "arrest" if kind == "arrest_rate" else "dom"
        num = hh[hh[flag]].groupby("ca").size().reindex(AREAS, fill_value=0).astype(float)
        return num, cnt, 100
    if kind == "se":
        s = _se().dropna(subset=["Community Area Number"]).copy()
        s["n"] = s["Community Area Number"].astype(int)
        return s.set_index("n")[SE_COLS[p[1]]].reindex(AREAS).astype(float), None, 1
    if kind == "acs":
        a = _acs()
        if p[1] == "pop":
            return a["total_population"].reindex(AREAS).astype(float), None, 1
        if p[1] in RACE:
            return a[RACE[p[1]]].sum(axis=1).reindex(AREAS).astype(float), \
                a["total_population"].reindex(AREAS).astype(float), 100
        if p[1] in INC:
            return a[INC[p[1]]].sum(axis=1).reindex(AREAS).astype(float), \
                a[INC_ALL].sum(axis=1).reindex(AREAS).astype(float), 100
        if p[1] == "households":
            return a[INC_ALL].sum(axis=1).reindex(AREAS).astype(float), None, 1
        if p[1] == "popdens":
            return a["total_population"].reindex(AREAS).astype(float), \
                _ca()["area_sq_mi"].reindex(AREAS).astype(float), 1
    if kind == "pop2010":
        return _pop2010().reindex(AREAS), None, 1
    if kind == "popchg":
        a = _acs()["total_population"].reindex(AREAS).astype(float)
        b = _pop2010().reindex(AREAS)
        return a - b, b, 100
    if kind == "sqmi":
        return _ca()["area_sq_mi"].reindex(AREAS).astype(float), None, 1
    if kind == "zhvi":
        y, m = [int(x) for x in p[1].split("-")]
        return _zhvi_area(y, m), None, 1
    if kind == "zhvichg":
        y0, m0 = [int(x) for x in p[1].split("-")]
        y1, m1 = [int(x) for x in p[2].split("-")]
        a, b = _zhvi_area(y0, m0), _zhvi_area(y1, m1)
        ok = a.notna() & b.notna()
        return (b - a).where(ok), a.where(ok), 100
    raise ValueError(spec)


@functools.lru_cache(maxsize=None)
def _measure(spec):
    """Per-area values (Series 1..77).  Also 'diff|A|B' = B - A and 'pct|A|B' = (B/A-1)*100."""
    if spec.startswith("neg|"):
        return -_measure(spec[4:])
    if spec.startswith("diff|") or spec.startswith("pct|"):
        k, a, b = spec.split("|")
        va, vb = _measure(a), _measure(b)
        if k == "diff":
            return vb - va
        return (vb / va - 1) * 100
    num, den, sc = _parts(spec)
    if den is None:
        return num.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (num / den * sc).astype(float)


def _pooled(spec, areas):
    num, den, sc = _parts(spec)
    num = num.reindex(areas)
    if den is None:
        raise ValueError("no pooled form for " + spec)
    den = den.reindex(areas)
    ok = num.notna() & den.notna()
    return float(num[ok].sum() / den[ok].sum() * sc)


def _city_value(spec):
    """City-wide figure of a measure (for 'city' thresholds / comparisons)."""
    p = spec.split(":")
    kind = p[0]
    if kind in ("hom", "rate", "arrest_rate", "dom_share"):
        years = _years(p[1])
        h = _hrows(years, p[2:])
        if kind == "hom":
            return float(len(h))
        if kind == "rate":
            return len(h) / sum(_city_pop(y) for y in years) * 1e5
        flag = "arrest" if kind == "arrest_rate" else "dom"
        return h[flag].mean() * 100
    if kind == "se":
        s = _se()
        return float(s[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"][SE_COLS[p[1]]].iloc[0])
    if kind in ("acs", "popchg"):
        num, den, sc = _parts(spec)
        return float(num.sum() / den.sum() * sc) if den is not None else float(num.sum())
    raise ValueError(spec)


def _thresh(spec, t):
    v = _measure(spec).dropna()
    if t == "city":
        return _city_value(spec)
    if str(t).startswith("city*"):
        return _city_value(spec) * float(str(t)[5:])
    if t == "median":
        return float(v.median())
    if t == "mean":
        return float(v.mean())
    return float(t)


def _order(spec, ascending=False):
    v = _measure(spec).dropna()
    df = pd.DataFrame({"v": v.values, "n": v.index.astype(int)})
    df = df.sort_values(["v", "n"], ascending=[ascending, True])
    return [int(x) for x in df["n"]]


def _main_zip(area):
    x = _xw()
    x = x[x["area_number"] == area].sort_values("share_of_community_area", ascending=False)
    return int(x.iloc[0]["zip"])


def _zip_area(zipc):
    x = _xw()
    x = x[x["zip"] == int(zipc)].sort_values("share_of_zip", ascending=False)
    return int(x.iloc[0]["area_number"])


def _main_sub(area):
    x = _ihs_xw()
    x = x[x["area_number"] == area].sort_values("share_of_community_area", ascending=False)
    return x.iloc[0]["submarket_code"]


def _select(where):
    """Areas meeting ALL conditions (list of strings):
      'top~N~spec' / 'bottom~N~spec'          -- N highest / lowest (NaN dropped)
      'gt~spec~T', 'lt~spec~T', 'ge~..', 'le~..'  -- T a number, city, city*k, median, mean
      'areas~1,2,3'                            -- explicit list
      'sub~p3165'                              -- main IHS submarket
      'notna~spec'                             -- value present
    Conditions are applied to the full city (not sequentially) unless prefixed 'then:'
    in which case the ranking is among the areas kept so far."""
    keep = list(AREAS)
    for w in where:
        seq = w.startswith("then:")
        if seq:
            w = w[5:]
        p = w.split("~")
        if p[0] in ("top", "bottom"):
            order = _order(p[2], ascending=(p[0] == "bottom"))
            if seq:
                order = [a for a in order if a in keep]
            sel = set(order[: int(p[1])])
        elif p[0] in ("gt", "lt", "ge", "le"):
            v = _measure(p[1])
            t = _thresh(p[1], p[2])
            op = {"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}[p[0]]
            sel = set(v[op.fillna(False)].index)
        elif p[0] == "areas":
            sel = {_area_num(x) if not x.isdigit() else int(x) for x in p[1].split(",")}
        elif p[0] == "sub":
            sel = {a for a in AREAS if _main_sub(a) == p[1]}
        elif p[0] == "notna":
            sel = set(_measure(p[1]).dropna().index)
        else:
            raise ValueError(w)
        keep = [a for a in keep if a in sel]
    return keep


def _r(x, nd=1):
    if isinstance(x, str):
        return x
    if nd == 0:
        return int(round(float(x)))
    return round(float(x), nd)


def _stat(areas, spec, how):
    if spec.startswith("neg|"):
        return -_stat(areas, spec[4:], how)
    v = _measure(spec).reindex(areas)
    if how == "pooled":
        return _pooled(spec, areas)
    if how == "sum":
        return float(v.sum())
    if how == "mean":
        return float(v.dropna().mean())
    if how == "median":
        return float(v.dropna().median())
    if how == "max":
        return float(v.max())
    if how == "min":
        return float(v.min())
    if how == "city_share":
        p = spec.split(":")
        total = len(_hrows(_years(p[1]), p[2:]))
        return float(_measure(spec).reindex(areas).sum() / total * 100)
    raise ValueError(how)


# ============================================================================ public
def b22_area_value(*, measure, area, nd=1):
    """One area's value of a measure."""
    return _r(_measure(measure).loc[_area_num(area)], nd)


def b22_area_ratio(*, measure, area_a, area_b, nd=1):
    m = _measure(measure)
    return _r(m.loc[_area_num(area_a)] / m.loc[_area_num(area_b)], nd)


def b22_area_diff(*, measure, area_a, area_b, nd=1):
    m = _measure(measure)
    return _r(m.loc[_area_num(area_a)] - m.loc[_area_num(area_b)], nd)


def b22_rank_of(*, measure, area, ascending=False, where=None):
    order = _order(measure, ascending)
    if where:
        s = set(_select(where))
        order = [a for a in order if a in s]
    return order.index(_area_num(area)) + 1


def b22_nth(*, measure, n=1, ascending=False, where=None, field="name", nd=1):
    """N-th ranked area (optionally among a selected set): its name, or its value."""
    order = _order(measure, ascending)
    if where:
        s = set(_select(where))
        order = [a for a in order if a in s]
    a = order[n - 1]
    if field == "name":
        return _name(a)
    return _r(_measure(field).loc[a], nd)


def b22_set_stat(*, where, measure, how="pooled", nd=1):
    areas = _select(where)
    return _r(_stat(areas, measure, how), nd)


def b22_set_count(*, where):
    return len(_select(where))


def b22_set_pct_of_areas(*, where, base="notna", nd=1):
    """percent of areas meeting `where` among areas with a value of base measure(s)."""
    n = len(_select(where))
    if base == "all":
        d = 77
    else:
        d = len(_select(["notna~" + base]))
    return _r(n / d * 100, nd)


def b22_set_ratio(*, where_a, where_b, measure, how="pooled", nd=1):
    a = _stat(_select(where_a), measure, how)
    b = _stat(_select(where_b), measure, how)
    return _r(a / b, nd)


def b22_set_diff(*, where_a, where_b, measure, how="pooled", nd=1):
    a = _stat(_select(where_a), measure, how)
    b = _stat(_select(where_b), measure, how)
    return _r(a - b, nd)


def b22_city(*, measure, nd=1):
    return _r(_city_value(measure), nd)


def b22_across(*, measure, how="median", nd=1, where=None):
    """Statistic of per-area values across all areas with a value (median/mean/max/min/range)."""
    v = _measure(measure).dropna()
    if where:
        v = v.reindex(_select(where)).dropna()
    if how == "range":
        return _r(v.max() - v.min(), nd)
    if how == "std":
        return _r(v.std(), nd)
    return _r(getattr(v, how)(), nd)


def b22_corr(*, x, y, method="pearson", where=None, nd=2):
    a, b = _measure(x), _measure(y)
    df = pd.DataFrame({"a": a, "b": b}).dropna()
    if where:
        df = df.reindex(_select(where)).dropna()
    if method == "spearman":
        df = df.rank()
    return _r(df["a"].corr(df["b"]), nd)


# ---- homicides, city / place level
def b22_hom_count(*, years, filters=(), area=None, ward=None, district=None):
    h = _hrows(_years(years), list(filters))
    if area is not None:
        h = h[h["ca"] == _area_num(area)]
    if ward is not None:
        h = h[h["ward"] == int(ward)]
    if district is not None:
        h = h[h["dist"] == int(district)]
    return int(len(h))


def b22_hom_share(*, years, filters, base_filters=(), area=None, nd=1):
    """percent of rows (base) that also satisfy filters."""
    h = _hrows(_years(years), list(base_filters))
    if area is not None:
        h = h[h["ca"] == _area_num(area)]
    return _r(len(_filter(h, list(filters))) / len(h) * 100, nd)


def b22_hom_peak(*, years, by="month", filters=(), area=None, least=False, field="label"):
    h = _hrows(_years(years), list(filters))
    if area is not None:
        h = h[h["ca"] == _area_num(area)]
    if by == "month":
        g = h.groupby("month").size().reindex(range(1, 13), fill_value=0)
    elif by == "wd":
        g = h.groupby("wd").size()
    elif by == "hour":
        g = h.groupby("hour").size().reindex(range(24), fill_value=0)
    elif by == "year":
        g = h.groupby("year").size()
    elif by == "loc":
        g = h.groupby("loc").size()
    elif by == "ward":
        g = h.dropna(subset=["ward"]).groupby("ward").size()
    elif by == "dist":
        g = h.dropna(subset=["dist"]).groupby("dist").size()
    g = g.sort_values(ascending=least, kind="stable")
    k = g.index[0]
    if field == "count":
        return int(g.iloc[0])
    if by == "month":
        return pd.Timestamp(2000, int(k), 1).month_name()
    if by in ("year", "hour", "ward", "dist"):
        return int(k)
    return str(k)


def b22_hom_yearly(*, years, how="mean", filters=(), area=None, nd=1):
    """Statistic of yearly counts over years (mean / median / max / min / cumsum-last)."""
    ys = _years(years)
    h = _hrows(ys, list(filters))
    if area is not None:
        h = h[h["ca"] == _area_num(area)]
    g = h.groupby("year").size().reindex(ys, fill_value=0)
    if how == "cumsum":
        return int(g.cumsum().iloc[-1])
    return _r(getattr(g, how)(), nd)


def b22_hom_pct_change(*, y0, y1, filters=(), area=None, nd=1):
    a = b22_hom_count(years=str(y0), filters=filters, area=area)
    b = b22_hom_count(years=str(y1), filters=filters, area=area)
    return _r((b / a - 1) * 100, nd)


def b22_city_rate(*, years, nd=1):
    return b22_city(measure=f"rate:{years}", nd=nd)


def b22_count_years(*, years, op, threshold, filters=()):
    """How many years had a count op threshold."""
    ys = _years(years)
    g = _hrows(ys, list(filters)).groupby("year").size().reindex(ys, fill_value=0)
    return int({"gt": g > threshold, "lt": g < threshold, "ge": g >= threshold}[op].sum())


def b22_areas_more(*, a, b):
    """Number of areas where measure a > measure b (strictly)."""
    va, vb = _measure(a), _measure(b)
    return int((va > vb).sum())


def b22_areas_zero(*, measure):
    v = _measure(measure)
    return int((v == 0).sum())


# ---- police districts / wards
def b22_district_area(*, district, field="name", nd=1):
    p = _stations()
    a = int(p[p["DISTRICT"] == int(district)]["COMMUNITY AREA"].iloc[0])
    if field == "name":
        return _name(a)
    return _r(_measure(field).loc[a], nd)


def b22_district_name(*, district):
    p = _stations()
    return p[p["DISTRICT"] == int(district)]["DISTRICT NAME"].iloc[0]


def b22_districts_stat(*, districts, measure, how="pooled", nd=1):
    p = _stations()
    areas = sorted({int(p[p["DISTRICT"] == int(d)]["COMMUNITY AREA"].iloc[0]) for d in districts})
    return _r(_stat(areas, measure, how), nd)


def b22_alder(*, ward):
    w = _wards()
    return w[w["WARD"] == int(ward)]["ALDERMAN"].iloc[0].split(",")[0].strip()


def b22_ward_office_area(*, ward, field="name", nd=1):
    w = _wards()
    z = int(w[w["WARD"] == int(ward)]["ZIPCODE"].iloc[0])
    a = _zip_area(z)
    if field == "name":
        return _name(a)
    return _r(_measure(field).loc[a], nd)


def b22_ward_top(*, years, n=1, filters=(), field="ward"):
    h = _hrows(_years(years), list(filters)).dropna(subset=["ward"])
    g = h.groupby("ward").size()
    df = pd.DataFrame({"c": g, "w": g.index}).sort_values(["c", "w"], ascending=[False, True])
    w = int(df.iloc[n - 1]["w"])
    if field == "ward":
        return w
    if field == "count":
        return int(df.iloc[n - 1]["c"])
    if field == "alder":
        return b22_alder(ward=w)


# ---- ZIPs and ZHVI
def b22_zip_value(*, zip, year, month):
    z = _zhvi()
    return _r(z[(z["zip"] == int(zip)) & (z["Year"] == year) & (z["Month"] == month)]["price"].iloc[0], 0)


def b22_zip_change(*, zip, y0, m0, y1, m1, nd=1):
    a = b22_zip_value(zip=zip, year=y0, month=m0)
    b = b22_zip_value(zip=zip, year=y1, month=m1)
    z = _zhvi()
    fa = z[(z["zip"] == int(zip)) & (z["Year"] == y0) & (z["Month"] == m0)]["price"].iloc[0]
    fb = z[(z["zip"] == int(zip)) & (z["Year"] == y1) & (z["Month"] == m1)]["price"].iloc[0]
    return _r((fb / fa - 1) * 100, nd)


def b22_zip_rank(*, year, month, n=1, ascending=False, y0=None, m0=None, field="zip"):
    z = _zhvi()
    a = z[(z["Year"] == year) & (z["Month"] == month)].set_index("zip")["price"]
    if y0 is not None:
        b = z[(z["Year"] == y0) & (z["Month"] == m0)].set_index("zip")["price"]
        a = (a / b - 1) * 100
    a = a.dropna().sort_values(ascending=ascending, kind="stable")
    if field == "zip":
        return int(a.index[n - 1])
    return _r(a.iloc[n - 1], 0 if y0 is None else 1)


def b22_zip_yearmean(*, zip, year):
    z = _zhvi()
    return _r(z[(z["zip"] == int(zip)) & (z["Year"] == year)]["price"].mean(), 0)


def b22_zip_count(*, year, month, op, threshold):
    z = _zhvi()
    a = z[(z["Year"] == year) & (z["Month"] == month)]["price"].dropna()
    return int({"gt": a > threshold, "lt": a < threshold}[op].sum())


def b22_zip_of_area(*, area):
    return _main_zip(_area_num(area))


def b22_area_of_zip(*, zip, field="name", nd=1):
    a = _zip_area(zip)
    if field == "name":
        return _name(a)
    return _r(_measure(field).loc[a], nd)


def b22_area_zip_value(*, area, year, month):
    """ZHVI of the ZIP an area lies in (largest share_of_community_area)."""
    return b22_zip_value(zip=_main_zip(_area_num(area)), year=year, month=month)


# ---- IHS
def _ihs_code(sub):
    l = _ihs_long()
    s = str(sub)
    if s.upper() in ("CHICAGO", "COOK", "SUBURBS"):
        return s.upper()
    if s.startswith("p3"):
        return s
    m = l[l["submarket_name"].str.replace("Chicago--", "").str.lower() == s.lower()]
    return m["submarket_code"].iloc[0]


def b22_ihs_q(*, sub, yearq):
    l = _ihs_long()
    return _r(l[(l["submarket_code"] == _ihs_code(sub)) & (l["yearq"] == yearq)]["index_2000q1_100"].iloc[0], 1)


def b22_ihs_year(*, sub, year):
    l = _ihs_long()
    return _r(l[(l["submarket_code"] == _ihs_code(sub)) & (l["year"] == year)]["index_2000q1_100"].mean(), 1)


def b22_ihs_pct(*, sub, q0, q1, nd=1):
    a = _ihs_long()
    c = _ihs_code(sub)
    va = a[(a["submarket_code"] == c) & (a["yearq"] == q0)]["index_2000q1_100"].iloc[0]
    vb = a[(a["submarket_code"] == c) & (a["yearq"] == q1)]["index_2000q1_100"].iloc[0]
    return _r((vb / va - 1) * 100, nd)


def b22_ihs_rank(*, yearq, n=1, ascending=False, chicago_only=True, q0=None):
    l = _ihs_long()
    l = l[l["submarket_code"].str.startswith("p3")]
    if chicago_only:
        l = l[l["is_chicago"] == 1]
    a = l[l["yearq"] == yearq].set_index("submarket_name")["index_2000q1_100"]
    if q0:
        b = l[l["yearq"] == q0].set_index("submarket_name")["index_2000q1_100"]
        a = a / b
    a = a.sort_values(ascending=ascending, kind="stable")
    return a.index[n - 1].replace("Chicago--", "")


def b22_ihs_peak_quarter(*, sub, before=None, field="yearq"):
    """Quarter with the highest index (up to `before`): 'yearq' label, 'year', or 'value'."""
    l = _ihs_long()
    l = l[l["submarket_code"] == _ihs_code(sub)]
    if before:
        l = l[l["yearq"] <= before]
    top = l.sort_values("index_2000q1_100", ascending=False, kind="stable").iloc[0]
    if field == "year":
        return int(top["year"])
    if field == "value":
        return _r(top["index_2000q1_100"], 1)
    return top["yearq"]


def _sum_num(s):
    s = str(s).strip().replace("$", "").replace(",", "").replace("%", "")
    return float(s)


def b22_ihs_summary(*, sub, col):
    s = _ihs_sum()
    code = _ihs_code(sub)
    v = _sum_num(s[s["Number"] == code][col].iloc[0])
    return _r(v, 0 if col == "Median Sales Price" else 1)


def b22_ihs_summary_rank(*, col, n=1, ascending=False, chicago_only=True, field="name"):
    s = _ihs_sum().copy()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s["v"] = s[col].map(_sum_num)
    s = s.sort_values("v", ascending=ascending, kind="stable")
    if field == "name":
        return s["Sub Market"].iloc[n - 1].replace("Chicago--", "")
    return _r(s["v"].iloc[n - 1], 0 if col == "Median Sales Price" else 1)


def b22_ihs_summary_count(*, col, op, threshold, chicago_only=True):
    s = _ihs_sum().copy()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    v = s[col].map(_sum_num)
    return int({"gt": v > threshold, "lt": v < threshold}[op].sum())


def b22_area_sub(*, area, field="name", col=None, yearq=None):
    code = _main_sub(_area_num(area))
    if field == "name":
        return _ihs_sum().set_index("Number").loc[code, "Sub Market"].replace("Chicago--", "") \
            if code in set(_ihs_sum()["Number"]) else _ihs_xw().set_index("submarket_code").loc[code, "submarket_name_2023"].iloc[0]
    if field == "summary":
        return b22_ihs_summary(sub=code, col=col)
    if field == "q":
        return b22_ihs_q(sub=code, yearq=yearq)


def b22_sub_set_stat(*, sub, measure, how="pooled", nd=1):
    """Statistic over the community areas whose main IHS submarket is `sub`."""
    return b22_set_stat(where=["sub~" + _ihs_code(sub)], measure=measure, how=how, nd=nd)


# ---- Redfin
def b22_redfin_city_year(*, year, col="Homes Sold", how="sum", nd=0):
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == year)]
    assert len(r) == 12, len(r)
    v = r[col].astype(float)
    return _r(getattr(v, how)(), nd)


def b22_redfin_city_month(*, year, month, col):
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == year) & (r["end"].dt.month == month)]
    v = r[col].iloc[0]
    return _r(v, 0) if col in ("Homes Sold", "Median List Price", "sale_price", "Inventory") else _r(v, 1)


def b22_redfin_nbhd(*, region, end, col, nd=0):
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL - " + region) & (r["end"] == pd.Timestamp(end))]
    assert len(r) == 1, (region, end, len(r))
    v = r[col].iloc[0]
    if col in ("Avg Sale To List", "Sold Above List", "off_market_in_two_weeks", "Price Drops"):
        return _r(v * 100, 1)
    return _r(v, nd)


def b22_redfin_rank(*, end, col, n=1, min_sold=0, ascending=False, field="name"):
    r = _redfin()
    r = r[r["Region"].str.startswith("Chicago, IL - ") & (r["end"] == pd.Timestamp(end))]
    r = r[r["Homes Sold"] >= min_sold].dropna(subset=[col])
    r = r.sort_values([col, "Region"], ascending=[ascending, True])
    if field == "name":
        return r["Region"].iloc[n - 1].replace("Chicago, IL - ", "")
    return _r(r[col].iloc[n - 1], 0)


# ---- socioeconomic city row
def b22_se_city(*, col):
    return _r(_city_value("se:" + col), 0 if col == "pci" else 1)


def b22_top_district_area(*, years, n=1, filters=(), field="name", nd=1):
    """Police district with the n-th most homicide rows (District column) in the years,
    then its station's community area: name, the district number, or a measure there."""
    h = _hrows(_years(years), list(filters)).dropna(subset=["dist"])
    g = h.groupby("dist").size()
    df = pd.DataFrame({"c": g, "d": g.index}).sort_values(["c", "d"], ascending=[False, True])
    d = int(df.iloc[n - 1]["d"])
    if field == "district":
        return d
    return b22_district_area(district=d, field=field, nd=nd)


def b22_ward_office_zip(*, ward):
    w = _wards()
    return int(w[w["WARD"] == int(ward)]["ZIPCODE"].iloc[0])


def b22_set_frac(*, where, num, den, nd=1):
    """sum over the set of measure `num` / sum of measure `den` * 100 (e.g. the share of the
    set's homicides that happened at night)."""
    areas = _select(where)
    return _r(_measure(num).reindex(areas).sum() / _measure(den).reindex(areas).sum() * 100, nd)


def b22_zip_ratio(*, zip_a, zip_b, year, month, nd=1):
    z = _zhvi()
    def v(zz):
        return z[(z["zip"] == int(zz)) & (z["Year"] == year) & (z["Month"] == month)]["price"].iloc[0]
    return _r(v(zip_a) / v(zip_b), nd)


def b22_ihs_fall(*, sub, y0, y1, nd=1):
    """Fall in the annual-mean IHS index from y0 to y1, as a positive percent."""
    l = _ihs_long()
    c = _ihs_code(sub)
    a = l[(l["submarket_code"] == c) & (l["year"] == y0)]["index_2000q1_100"].mean()
    b = l[(l["submarket_code"] == c) & (l["year"] == y1)]["index_2000q1_100"].mean()
    return _r((a - b) / a * 100, nd)
