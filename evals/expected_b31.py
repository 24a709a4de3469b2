"""Expected answers for the blind31 held-out question set (Chicago public data).

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

Conventions added for blind31 (each question using one states it in its wording)
-------------------------------------------------------------------------------
* IHS submarket homicide figures: every community area is assigned to its main submarket
  (largest share_of_community_area); a submarket's homicides / population are the sums over
  its assigned areas; its rate follows the usual rate rule.  Submarkets not in the index
  (p3160) and suburban ones get no homicide figures.
* A "set's share of its own homicides" (e.g. share of the set's homicides that were
  domestic) is pooled: sum of flagged rows / sum of rows * 100.
* "Peak month/year/hour within a set" = the label with the most homicide rows among the
  set's areas (ties -> earliest label).
* "Concentration" = share of the city's homicides (full city total) in the top-N areas by
  homicide count of the same period.
* A ratio between two sets = pooled figure of set A / pooled figure of set B (1 decimal).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pandas as pd

from evals.expected import data_dir

SEASONS = {"winter": [12, 1, 2], "spring": [3, 4, 5], "summer": [6, 7, 8],
           "autumn": [9, 10, 11], "fall": [9, 10, 11]}
QUARTERS = {1: [1, 2, 3], 2: [4, 5, 6], 3: [7, 8, 9], 4: [10, 11, 12]}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
SE_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "no_hs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME ",
    "hardship": "HARDSHIP INDEX",
}
ACS_RACE = {"black": ["black_or_african_american"], "hispanic": ["hispanic_or_latino"],
            "white_nh": ["white_not_hispanic_or_latino"], "white": ["white"],
            "asian": ["asian"], "65plus": ["male_65", "female_65"],
            "children": ["male_0_to_17", "female_0_to_17"],
            "18_24": ["male_18_to_24", "female_18_to_24"]}
ACS_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
             "_75_000_to_125_000", "_125_000"]
ACS_BAND_KEYS = {"under25k": ["under_25_000"], "over125k": ["_125_000"],
                 "under50k": ["under_25_000", "_25_000_to_49_999"],
                 "over75k": ["_75_000_to_125_000", "_125_000"]}


# ----------------------------------------------------------------------------- loading
@lru_cache(None)
def _hom() -> pd.DataFrame:
    h = pd.read_csv(data_dir() / "homicides.csv")
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "date": d, "year": d.dt.year, "month": d.dt.month, "day": d.dt.day,
        "hour": d.dt.hour, "weekday": d.dt.dayofweek,
        "ca": pd.to_numeric(h["Community Area"], errors="coerce"),
        "ward": pd.to_numeric(h["Ward"], errors="coerce"),
        "district": pd.to_numeric(h["District"], errors="coerce"),
        "arrest": h["Arrest"].astype(str).str.lower().eq("true"),
        "domestic": h["Domestic"].astype(str).str.lower().eq("true"),
        "loc": h["Location Description"].fillna(""),
    })
    return out


@lru_cache(None)
def _ca() -> pd.DataFrame:
    c = pd.read_csv(data_dir() / "community_areas.csv").set_index("area_number")
    c["name"] = [_title(n) for n in c["community"]]
    return c


def _title(n: str) -> str:
    special = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    return special.get(n, n.title())


@lru_cache(None)
def _se() -> pd.DataFrame:
    s = pd.read_csv(data_dir() / "socioeconomic.csv")
    return s


def _se_area() -> pd.DataFrame:
    s = _se()
    s = s[s["Community Area Number"].notna()].copy()
    s["ca"] = s["Community Area Number"].astype(int)
    return s.set_index("ca")


@lru_cache(None)
def _acs() -> pd.DataFrame:
    a = pd.read_csv(data_dir() / "census_acs.csv")
    m = {v: k for k, v in _ca()["community"].items()}
    a["ca"] = a["community_area"].map(m)
    assert a["ca"].notna().all()
    return a.set_index("ca").sort_index()


@lru_cache(None)
def _pop2010() -> pd.Series:
    p = pd.read_csv(data_dir() / "census_population_2010.csv")
    return p.set_index("NID")["POP2010"].astype(float)


@lru_cache(None)
def _xwalk_zip() -> pd.DataFrame:
    x = pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")
    x["zip"] = x["zip"].astype(int)
    return x


@lru_cache(None)
def _xwalk_ihs() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_ihs_submarket_crosswalk.csv")


@lru_cache(None)
def _zhvi() -> pd.DataFrame:
    z = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    z["zip"] = z["RegionName"].astype(int)
    return z


@lru_cache(None)
def _ihs() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


@lru_cache(None)
def _ihs_summary() -> pd.DataFrame:
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    for c in s.columns[2:7]:
        s[c] = s[c].str.strip().str.rstrip("%").astype(float)
    s["Median Sales Price"] = (s["Median Sales Price"].str.strip().str.lstrip("$")
                               .str.replace(",", "").astype(float))
    return s


@lru_cache(None)
def _stations() -> pd.DataFrame:
    p = pd.read_csv(data_dir() / "police_stations.csv")
    p = p[p["DISTRICT"] != "Headquarters"].copy()
    p["DISTRICT"] = p["DISTRICT"].astype(int)
    return p.set_index("DISTRICT")


@lru_cache(None)
def _wards() -> pd.DataFrame:
    w = pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig")
    w["WARD"] = w["WARD"].astype(int)
    return w.set_index("WARD")


@lru_cache(None)
def _redfin() -> pd.DataFrame:
    r = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["msp"] = r["Median Sale Price"].map(_money)
    return r


def _money(s):
    if not isinstance(s, str) or not s.strip():
        return np.nan
    s = s.strip().lstrip("$").replace(",", "")
    mult = 1
    if s.endswith("K"):
        mult, s = 1e3, s[:-1]
    elif s.endswith("M"):
        mult, s = 1e6, s[:-1]
    return float(s) * mult


# ----------------------------------------------------------------------------- helpers
def _years(spec) -> list[int]:
    if isinstance(spec, int):
        return [spec]
    spec = str(spec)
    if "-" in spec:
        a, b = spec.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(spec)]


def _r1(x):
    return float(round(float(x), 1))


def _area_id(area) -> int:
    """Area spec: number, name, 'district:N' (station's CA), 'zip:NNNNN' (CA covering most of
    the ZIP, share_of_zip), 'wardzip:N' (ward office ZIP -> CA covering most of it)."""
    if isinstance(area, (int, np.integer)):
        return int(area)
    s = str(area)
    if s.isdigit():
        return int(s)
    if s.startswith("district:"):
        return int(_stations().loc[int(s.split(":")[1]), "COMMUNITY AREA"])
    if s.startswith("zip:"):
        z = int(s.split(":")[1])
        x = _xwalk_zip()
        x = x[x["zip"] == z].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
        return int(x.iloc[0]["area_number"])
    if s.startswith("wardzip:"):
        z = int(_wards().loc[int(s.split(":")[1]), "ZIPCODE"])
        return _area_id(f"zip:{z}")
    c = _ca()
    key = s.upper().replace("'", "")
    m = c.index[c["community"] == key]
    if len(m) == 0:
        raise KeyError(area)
    return int(m[0])


def _filter_hom(h, years=None, months=None, season=None, quarter=None, weekdays=None,
                hours=None, domestic=None, arrest=None, loc=None, md=None, ward=None,
                district=None, area=None):
    if years is not None:
        h = h[h["year"].isin(_years(years))]
    if months is not None:
        h = h[h["month"].isin(months if isinstance(months, list) else [months])]
    if season is not None:
        h = h[h["month"].isin(SEASONS[season])]
    if quarter is not None:
        h = h[h["month"].isin(QUARTERS[int(quarter)])]
    if weekdays is not None:
        wd = [WEEKDAYS.index(w) if isinstance(w, str) else w for w in
              (weekdays if isinstance(weekdays, list) else [weekdays])]
        h = h[h["weekday"].isin(wd)]
    if hours is not None:
        h = h[h["hour"].isin(hours)]
    if domestic is not None:
        h = h[h["domestic"] == domestic]
    if arrest is not None:
        h = h[h["arrest"] == arrest]
    if loc is not None:
        h = h[h["loc"].isin(loc if isinstance(loc, list) else [loc])]
    if md is not None:
        mm, dd = (int(v) for v in md.split("-"))
        h = h[(h["month"] == mm) & (h["day"] == dd)]
    if ward is not None:
        h = h[h["ward"] == int(ward)]
    if district is not None:
        h = h[h["district"] == int(district)]
    if area is not None:
        h = h[h["ca"] == _area_id(area)]
    return h


def _pop_for_years(years) -> pd.Series:
    """Sum over years of each area's population (rate denominator)."""
    tot = pd.Series(0.0, index=_ca().index)
    for y in _years(years):
        tot = tot + (_pop2010() if y <= 2015 else _acs()["total_population"].astype(float))
    return tot


def _counts(years, **flt) -> pd.Series:
    h = _filter_hom(_hom(), years=years, **flt)
    return h.groupby("ca").size().reindex(_ca().index, fill_value=0).astype(float)


# ----------------------------------------------------------------------------- measures
def _parse_flags(spec):
    """'2019-2022|domestic|arrest' -> years, dict of filters."""
    parts = spec.split("|")
    flt = {}
    for p in parts[1:]:
        if p == "domestic":
            flt["domestic"] = True
        elif p == "nondomestic":
            flt["domestic"] = False
        elif p.startswith("season="):
            flt["season"] = p.split("=")[1]
        elif p.startswith("loc="):
            flt["loc"] = p.split("=")[1]
        elif p == "weekend":
            flt["weekdays"] = [5, 6]
    return parts[0], flt


def _num_den(measure: str):
    """Return (numerator Series, denominator Series or None, scale)."""
    kind, _, arg = measure.partition(":")
    idx = _ca().index
    if kind == "hom":
        yrs, flt = _parse_flags(arg)
        return _counts(yrs, **flt), None, 1
    if kind == "rate":
        yrs, flt = _parse_flags(arg)
        return _counts(yrs, **flt), _pop_for_years(yrs), 1e5
    if kind == "density":
        yrs, flt = _parse_flags(arg)
        return _counts(yrs, **flt), _ca()["area_sq_mi"].astype(float), 1
    if kind in ("arrest", "domesticshare"):
        yrs, flt = _parse_flags(arg)
        allc = _counts(yrs, **flt)
        col = "arrest" if kind == "arrest" else "domestic"
        num = _counts(yrs, **{**flt, col: True})
        den = allc.where(allc > 0)
        return num.where(allc > 0), den, 100
    if kind == "homchg":  # later - earlier count
        a, b = arg.split(":")
        return _counts(b) - _counts(a), None, 1
    if kind == "se":
        return _se_area()[SE_COLS[arg]].astype(float).reindex(idx), None, 1
    if kind == "acs":
        a = _acs()
        if arg == "pop":
            return a["total_population"].astype(float), None, 1
        if arg in ACS_RACE:
            return a[ACS_RACE[arg]].sum(axis=1), a["total_population"].astype(float), 100
        if arg in ACS_BAND_KEYS:
            return a[ACS_BAND_KEYS[arg]].sum(axis=1), a[ACS_BANDS].sum(axis=1), 100
        raise KeyError(measure)
    if kind == "pop2010":
        return _pop2010().reindex(idx), None, 1
    if kind == "popchg":
        acs = _acs()["total_population"].astype(float)
        p10 = _pop2010().reindex(idx)
        return acs - p10, p10, 100
    if kind == "sqmi":
        return _ca()["area_sq_mi"].astype(float), None, 1
    if kind == "zhvi":
        return _zhvi_area(arg), None, 1
    if kind == "zhvichg":
        a, b = arg.split(":")
        za, zb = _zhvi_area(a), _zhvi_area(b)
        ok = za.notna() & zb.notna()
        return (zb - za).where(ok), za.where(ok), 100
    if kind == "mainzip_zhvi":
        z = _zhvi()
        y, m = (int(v) for v in arg.split("-"))
        zz = z[(z["Year"] == y) & (z["Month"] == m)].set_index("zip")["price"]
        return pd.Series({ca: zz.get(_main_zip(ca), np.nan) for ca in idx}), None, 1
    raise KeyError(measure)


def _values(measure: str) -> pd.Series:
    neg = measure.startswith("neg|")
    if neg:
        measure = measure[4:]
    num, den, scale = _num_den(measure)
    if den is None:
        v = num.astype(float)
    else:
        v = num / den * scale
    v = v.reindex(_ca().index)
    return -v if neg else v


def _zhvi_area(month: str) -> pd.Series:
    y, m = (int(v) for v in month.split("-"))
    z = _zhvi()
    zz = z[(z["Year"] == y) & (z["Month"] == m)][["zip", "price"]].dropna()
    x = _xwalk_zip().merge(zz, on="zip", how="inner")
    x["w"] = x["share_of_community_area"]
    g = x.groupby("area_number").apply(lambda d: (d["price"] * d["w"]).sum() / d["w"].sum(),
                                       include_groups=False)
    return g.reindex(_ca().index)


def _main_zip(ca: int) -> int:
    x = _xwalk_zip()
    x = x[x["area_number"] == ca].sort_values(["share_of_community_area", "zip"],
                                              ascending=[False, True])
    return int(x.iloc[0]["zip"])


def _main_submarket(ca: int) -> str:
    x = _xwalk_ihs()
    x = x[x["area_number"] == ca].sort_values("share_of_community_area", ascending=False)
    return x.iloc[0]["submarket_code"]


def _city_value(measure: str) -> float:
    kind, _, arg = measure.partition(":")
    if kind == "rate":
        yrs, flt = _parse_flags(arg)
        n = len(_filter_hom(_hom(), years=yrs, **flt))
        return n / _pop_for_years(yrs).sum() * 1e5
    if kind == "se":
        s = _se()
        return float(s[s["COMMUNITY AREA NAME"] == "CHICAGO"][SE_COLS[arg]].iloc[0])
    if kind in ("acs", "popchg", "zhvichg", "arrest", "domesticshare"):
        if kind in ("arrest", "domesticshare"):
            yrs, flt = _parse_flags(arg)
            h = _filter_hom(_hom(), years=yrs, **flt)
            col = "arrest" if kind == "arrest" else "domestic"
            return h[col].mean() * 100
        num, den, scale = _num_den(measure)
        if den is None:
            return float(num.sum())
        ok = num.notna() & den.notna()
        return num[ok].sum() / den[ok].sum() * scale
    if kind == "hom":
        yrs, flt = _parse_flags(arg)
        return float(len(_filter_hom(_hom(), years=yrs, **flt)))
    raise KeyError(measure)


def _threshold(measure, t):
    v = _values(measure).dropna()
    if t == "city":
        return _city_value(measure)
    if t == "median":
        return v.median()
    if t == "mean":
        return v.mean()
    return float(t)


def _rank_series(measure, ascending=False) -> pd.Series:
    v = _values(measure).dropna()
    df = pd.DataFrame({"v": v, "ca": v.index})
    df = df.sort_values(["v", "ca"], ascending=[ascending, True])
    return df["v"]


def _where(where) -> list[int]:
    """Intersection of filters; each filter:
    top~N~measure, bottom~N~measure, gt~measure~thr, lt~measure~thr, ge~..., le~...,
    in~1,2,3, not~<filter> (set difference), submarket~p31xx (main submarket),
    district~N (areas whose station sits in them is not used; see in~)."""
    ids = set(_ca().index)
    if where is None:
        return sorted(ids)
    for w in where:
        neg = w.startswith("not~")
        if neg:
            w = w[4:]
        parts = w.split("~")
        op = parts[0]
        if op in ("top", "bottom"):
            r = _rank_series(parts[2], ascending=(op == "bottom"))
            s = set(r.index[: int(parts[1])])
        elif op in ("gt", "lt", "ge", "le"):
            v = _values(parts[1]).dropna()
            t = _threshold(parts[1], parts[2])
            s = set(v.index[{"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}[op]])
        elif op == "in":
            s = {_area_id(a) for a in parts[1].split(",")}
        elif op == "submarket":
            s = {ca for ca in _ca().index if _main_submarket(ca) == parts[1]}
        else:
            raise KeyError(w)
        ids = ids - s if neg else ids & s
    return sorted(ids)


# ----------------------------------------------------------------------------- public API
def b31_area_value(*, area, measure):
    """One community area's value of a measure (see _num_den for measure strings)."""
    v = _values(measure).loc[_area_id(area)]
    return _fmt(measure, v)


def _fmt(measure, v):
    kind = measure.replace("neg|", "").split(":")[0]
    if kind in ("hom", "homchg", "acs_count", "pop2010", "zhvi", "mainzip_zhvi") or \
            measure in ("acs:pop", "se:income", "se:hardship"):
        return int(round(float(v)))
    return _r1(v)


def b31_area_name(*, area):
    """Name of the community area an area spec resolves to (chains)."""
    return _ca().loc[_area_id(area), "name"]


def b31_city_value(*, measure):
    return _fmt(measure, _city_value(measure))


def b31_set_stat(*, where, measure, how="pooled"):
    ids = _where(where)
    if how == "count":
        return len(ids)
    if how == "city_share":
        num, _, _ = _num_den(measure)
        return _r1(num.loc[ids].sum() / _city_value(measure) * 100)
    if how == "pooled":
        num, den, scale = _num_den(measure)
        if den is None:
            return _fmt(measure, num.loc[ids].sum())
        n, d = num.loc[ids], den.loc[ids]
        ok = n.notna() & d.notna()
        return _r1(n[ok].sum() / d[ok].sum() * scale)
    v = _values(measure).loc[ids].dropna()
    if how == "sum":
        return _fmt(measure, v.sum())
    money = measure.split(":")[0] in ("zhvi", "mainzip_zhvi", "pop2010") or measure in (
        "se:income", "acs:pop")
    if how == "mean":
        return int(round(v.mean())) if money else _r1(v.mean())
    if how == "median":
        return int(round(v.median())) if money else _r1(v.median())
    if how == "max":
        return _fmt(measure, v.max())
    if how == "min":
        return _fmt(measure, v.min())
    if how == "range":
        return _fmt(measure, v.max() - v.min())
    raise KeyError(how)


def b31_set_count(*, where):
    return len(_where(where))


def b31_set_count_pct(*, where, base=None):
    """Percent of the areas in `base` (with a value) that also satisfy `where`."""
    b = _where(base)
    s = set(_where((base or []) + where))
    return _r1(len(s) / len(b) * 100)


def b31_set_names(*, where):
    """Names of a set (joined with ', ' in area-number order)."""
    return ", ".join(_ca().loc[i, "name"] for i in _where(where))


def b31_set_ratio(*, where_a, where_b, measure):
    """Pooled figure of set A / pooled figure of set B."""
    a = _set_pooled_raw(where_a, measure)
    b = _set_pooled_raw(where_b, measure)
    return _r1(a / b)


def _set_pooled_raw(where, measure):
    ids = _where(where)
    num, den, scale = _num_den(measure)
    if den is None:
        return num.loc[ids].sum()
    n, d = num.loc[ids], den.loc[ids]
    ok = n.notna() & d.notna()
    return n[ok].sum() / d[ok].sum() * scale


def b31_set_diff(*, where_a, where_b, measure):
    """Pooled A - pooled B."""
    return _fmt(measure, _set_pooled_raw(where_a, measure) - _set_pooled_raw(where_b, measure))


def b31_rank(*, measure, n=1, ascending=False, where=None, out="name"):
    """The n-th area (1-based) in a ranking; out='name' or 'value'."""
    r = _rank_series(measure, ascending)
    if where is not None:
        r = r[r.index.isin(_where(where))]
    ca = r.index[n - 1]
    return _ca().loc[ca, "name"] if out == "name" else _fmt(measure, r.iloc[n - 1])


def b31_rank_of(*, area, measure, ascending=False):
    r = _rank_series(measure, ascending)
    return int(list(r.index).index(_area_id(area)) + 1)


def b31_rank_then(*, rank_measure, n=1, ascending=False, measure, where=None):
    """Value of `measure` in the n-th area of the `rank_measure` ranking."""
    r = _rank_series(rank_measure, ascending)
    if where is not None:
        r = r[r.index.isin(_where(where))]
    return b31_area_value(area=int(r.index[n - 1]), measure=measure)


def b31_corr(*, x, y, method="pearson", where=None):
    a, b = _values(x), _values(y)
    ids = _where(where)
    df = pd.DataFrame({"a": a, "b": b}).loc[ids].dropna()
    if method == "spearman":
        df = df.rank()
    return float(round(df["a"].corr(df["b"]), 2))


def b31_hom_count(**flt):
    """City-wide (or filtered by ward/district/area) homicide count."""
    return int(len(_filter_hom(_hom(), **flt)))


def b31_hom_share(*, of: dict, within: dict):
    """Percent: rows matching `of` (applied on top of `within`) / rows matching `within`."""
    base = _filter_hom(_hom(), **within)
    part = _filter_hom(base, **of)
    return _r1(len(part) / len(base) * 100)


def b31_hom_change_pct(*, a: dict, b: dict, fall=False):
    na, nb = len(_filter_hom(_hom(), **a)), len(_filter_hom(_hom(), **b))
    v = (nb / na - 1) * 100
    return _r1(-v if fall else v)


def b31_hom_avg(*, years, per="year", **flt):
    """Average homicides per year (number of years asked)."""
    n = len(_filter_hom(_hom(), years=years, **flt))
    return _r1(n / len(_years(years)))


def b31_hom_top(*, by, n=1, out="label", where=None, **flt):
    """The n-th most common label of `by` (loc, month, hour, weekday, year, ward, district,
    ca) among rows matching flt (and optionally only areas in `where`)."""
    h = _filter_hom(_hom(), **flt)
    if where is not None:
        h = h[h["ca"].isin(_where(where))]
    h = h[h[by].notna()] if by in ("ward", "district", "ca") else h
    c = h.groupby(by).size()
    df = pd.DataFrame({"c": c, "k": c.index}).sort_values(["c", "k"], ascending=[False, True])
    key, cnt = df.index[n - 1], int(df["c"].iloc[n - 1])
    if out == "count":
        return cnt
    if by == "weekday":
        return WEEKDAYS[int(key)]
    if by == "month":
        return ["January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"][int(key) - 1]
    if by == "ca":
        return _ca().loc[int(key), "name"]
    if by in ("ward", "district", "year", "hour"):
        return str(int(key))
    return str(key)


def b31_set_hom_count(*, where, **flt):
    """Homicide rows in a set of areas under filters."""
    h = _filter_hom(_hom(), **flt)
    return int(h["ca"].isin(_where(where)).sum())


def b31_set_hom_share(*, where, of: dict, within: dict):
    """Pooled share (%) of a set's homicides (within) that match `of`."""
    base = _filter_hom(_hom(), **within)
    base = base[base["ca"].isin(_where(where))]
    part = _filter_hom(base, **of)
    return _r1(len(part) / len(base) * 100)


def b31_district_area(*, district):
    return _ca().loc[_area_id(f"district:{district}"), "name"]


def b31_alder(*, ward):
    name = _wards().loc[int(ward), "ALDERMAN"]
    return name.split(",")[0].strip()


def b31_ward_office_zip(*, ward):
    return str(int(_wards().loc[int(ward), "ZIPCODE"]))


def b31_zip_value(*, zip, month):
    y, m = (int(v) for v in month.split("-"))
    z = _zhvi()
    return int(round(float(z[(z["zip"] == int(zip)) & (z["Year"] == y) & (z["Month"] == m)]
                         ["price"].iloc[0])))


def b31_zip_change(*, zip, a, b, fall=False):
    v = (b31_zip_value_raw(zip, b) / b31_zip_value_raw(zip, a) - 1) * 100
    return _r1(-v if fall else v)


def b31_zip_value_raw(zip, month):
    y, m = (int(v) for v in month.split("-"))
    z = _zhvi()
    return float(z[(z["zip"] == int(zip)) & (z["Year"] == y) & (z["Month"] == m)]["price"].iloc[0])


def b31_zip_rank(*, a, b, n=1, ascending=False, out="zip"):
    """ZIPs ranked by ZHVI change a -> b (both present)."""
    z = _zhvi()
    def at(mo):
        y, m = (int(v) for v in mo.split("-"))
        return z[(z["Year"] == y) & (z["Month"] == m)].set_index("zip")["price"]
    ch = ((at(b) / at(a) - 1) * 100).dropna()
    df = pd.DataFrame({"v": ch, "z": ch.index}).sort_values(["v", "z"], ascending=[ascending, True])
    return str(int(df["z"].iloc[n - 1])) if out == "zip" else _r1(df["v"].iloc[n - 1])


def b31_area_main_zip(*, area):
    return str(_main_zip(_area_id(area)))


def b31_area_submarket(*, area):
    code = _main_submarket(_area_id(area))
    i = _ihs()
    return i[i["submarket_code"] == code]["submarket_name"].iloc[0]


def _ihs_val(code, period):
    i = _ihs()
    i = i[i["submarket_code"] == code]
    if "Q" in str(period):
        return float(i[i["yearq"] == period]["index_2000q1_100"].iloc[0])
    return float(i[i["year"] == int(period)]["index_2000q1_100"].mean())


def _ihs_code(sub):
    if sub.startswith("p31") or sub in ("COOK", "CHICAGO", "SUBURBS"):
        return sub
    if sub.startswith("area:"):
        return _main_submarket(_area_id(sub[5:]))
    i = _ihs()
    m = i[i["submarket_name"].str.lower() == sub.lower()]
    return m["submarket_code"].iloc[0]


def b31_ihs(*, submarket, period):
    """IHS index for a quarter ('2020Q1') or a year (mean of 4 quarters).  submarket may be
    a code, a name, or 'area:<community area>' (its main submarket)."""
    return _r1(_ihs_val(_ihs_code(submarket), period))


def b31_ihs_change(*, submarket, a, b, fall=False):
    c = _ihs_code(submarket)
    v = (_ihs_val(c, b) / _ihs_val(c, a) - 1) * 100
    return _r1(-v if fall else v)


def _ihs_chicago_codes():
    i = _ihs()
    return sorted(i[(i["is_chicago"] == 1) & (i["submarket_code"] != "CHICAGO")]["submarket_code"].unique())


def b31_ihs_rank(*, a, b=None, n=1, ascending=False, out="name", chicago_only=True):
    """Chicago submarkets ranked by index at a (if b None) or by % change a -> b."""
    codes = _ihs_chicago_codes() if chicago_only else None
    vals = {}
    for c in codes:
        vals[c] = _ihs_val(c, a) if b is None else (_ihs_val(c, b) / _ihs_val(c, a) - 1) * 100
    s = pd.Series(vals).sort_values(ascending=ascending, kind="stable")
    c = s.index[n - 1]
    if out == "value":
        return _r1(s.iloc[n - 1])
    i = _ihs()
    return i[i["submarket_code"] == c]["submarket_name"].iloc[0]


def b31_ihs_summary(*, submarket, col):
    s = _ihs_summary()
    c = _ihs_code(submarket)
    v = s[s["Number"] == c][col].iloc[0]
    return int(round(v)) if col == "Median Sales Price" else _r1(v)


def b31_ihs_summary_rank(*, col, n=1, ascending=False, chicago_only=True):
    s = _ihs_summary()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s = s.sort_values(col, ascending=ascending, kind="stable")
    return s["Sub Market"].iloc[n - 1]


def _submarket_table(years):
    ca = _ca().index
    m = pd.Series({c: _main_submarket(c) for c in ca})
    df = pd.DataFrame({"sub": m, "hom": _counts(years), "pop": _pop_for_years(years)})
    df = df[df["sub"].isin(_ihs_chicago_codes())]
    g = df.groupby("sub")[["hom", "pop"]].sum()
    g["rate"] = g["hom"] / g["pop"] * 1e5
    return g


def b31_submarket_hom(*, submarket, years, out="rate"):
    g = _submarket_table(years)
    c = _ihs_code(submarket)
    return _r1(g.loc[c, "rate"]) if out == "rate" else int(g.loc[c, "hom"])


def b31_submarket_rank(*, years, n=1, ascending=False, out="name"):
    g = _submarket_table(years).sort_values("rate", ascending=ascending, kind="stable")
    c = g.index[n - 1]
    if out == "value":
        return _r1(g["rate"].iloc[n - 1])
    i = _ihs()
    return i[i["submarket_code"] == c]["submarket_name"].iloc[0]


def b31_submarket_corr(*, years, col=None, a=None, b=None, method="pearson"):
    """Correlation across Chicago submarkets between homicide rate (years) and either an IHS
    summary column `col` or the index % change a -> b."""
    g = _submarket_table(years)
    if col is not None:
        s = _ihs_summary().set_index("Number")[col]
        other = s.reindex(g.index)
    else:
        other = pd.Series({c: (_ihs_val(c, b) / _ihs_val(c, a) - 1) * 100 for c in g.index})
    df = pd.DataFrame({"x": g["rate"], "y": other}).dropna()
    if method == "spearman":
        df = df.rank()
    return float(round(df["x"].corr(df["y"]), 2))


def b31_redfin_city(*, year, col="Homes Sold", how="sum"):
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    assert len(r) == 12, len(r)
    if col == "msp":
        v = r["msp"]
    else:
        v = r[col].astype(float)
    return int(round(v.sum() if how == "sum" else v.median() if how == "median" else v.mean()))


def b31_redfin_hood(*, hood, end, col="msp"):
    r = _redfin()
    r = r[(r["Region"] == f"Chicago, IL - {hood}") & (r["end"] == pd.Timestamp(end))]
    assert len(r) == 1, (hood, end, len(r))
    v = float(r[col].iloc[0])
    return int(round(v)) if col in ("msp", "Homes Sold", "Inventory", "Median List Price") else _r1(v)


def b31_redfin_hood_change(*, hood, a, b, col="msp"):
    va = b31_redfin_hood(hood=hood, end=a, col=col)
    vb = b31_redfin_hood(hood=hood, end=b, col=col)
    return _r1((vb / va - 1) * 100)


def b31_ward_hom(*, ward, **flt):
    return int(len(_filter_hom(_hom(), ward=ward, **flt)))


def b31_ratio(*, a: dict, b: dict):
    """Ratio of two area values: a/b dicts of {area, measure}."""
    va = _values(a["measure"]).loc[_area_id(a["area"])]
    vb = _values(b["measure"]).loc[_area_id(b["area"])]
    return _r1(va / vb)


def b31_area_change_pct(*, area, measure_a, measure_b, fall=False):
    va = _values(measure_a).loc[_area_id(area)]
    vb = _values(measure_b).loc[_area_id(area)]
    v = (vb / va - 1) * 100
    return _r1(-v if fall else v)


def b31_area_diff(*, a: dict, b: dict):
    va = _values(a["measure"]).loc[_area_id(a["area"])]
    vb = _values(b["measure"]).loc[_area_id(b["area"])]
    return _fmt(a["measure"], va - vb)


def b31_set_peak(*, where, by, **flt):
    return b31_hom_top(by=by, where=where, **flt)


def b31_ratio_calls(*, a, b):
    """Ratio of two other b31 figures: a and b are [function_name, kwargs]; a / b, 1 decimal."""
    va = globals()[a[0]](**a[1])
    vb = globals()[b[0]](**b[1])
    return _r1(va / vb)
