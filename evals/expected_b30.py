"""Expected answers for the blind30 held-out question set (Chicago public data).

Every public function is named ``b30_...``, takes keyword arguments only and returns ONE
value (a rounded number or a label string).  Data are read from
``evals.expected.data_dir()``.

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

Conventions added for blind30 (each question that relies on one states it)
-------------------------------------------------------------------------
* Income "quartile" groups are asked as explicit rankings (the 19 highest / 19 lowest of 77
  areas), never as percentile cut-offs.  (``p75``/``p25`` thresholds exist in the code as
  pandas linear-interpolation quantiles but no question uses them.)
* Ratios/differences of two set statistics are computed from the unrounded figures.
* A "set" condition list is an intersection; ``!cond`` = the complement among the 77
  areas ("one set minus another").  ``station~`` = the 22 community areas holding a
  district police station (Headquarters excluded).  ``sub~code`` = areas whose main IHS
  submarket is that code; ``subtop~a>b`` = areas whose main submarket is the Chicago
  submarket with the largest % index rise from a to b.
* Ward / district "with the most homicides" (or highest arrest rate) ties are broken by
  the lower number; wards are as recorded on each homicide row.
* Redfin city year sums are only asked for complete years (2013-2018; 2012 has 11 and
  2019 10 monthly rows).
* A mean or median of per-area COUNTS is rounded to 1 decimal (it is an average, not a
  count); sums and pooled counts stay integers; money (income, home value) stays integer.
* Homicide "share of the city" over a period with ``where`` restricted by an extra filter
  (domestic, arrest) uses the city total under the same filter.
* An area's IHS index = the index of the submarket covering the largest share of it; areas
  whose main submarket (p3160, Loop and surrounding) is not in the index are NaN.
* Redfin "Chicago, IL" year figures: 'sum' over the monthly rows whose period end falls in
  that year; 'median_price' statistics use the numeric Median Sale Price of those rows.
* "Percent of areas" and "how many areas" count only areas with a value for every measure
  used in the condition.
* Holiday filters match the calendar day of ``Date`` (e.g. July 4 = month 7, day 4, any
  hour of that day).
* Ward offices: ward 42 has no ZIP code in ward_offices.csv and is never used in a chain.
"""
from __future__ import annotations

import functools
import re

import numpy as np
import pandas as pd

from evals.expected import data_dir

# ---------------------------------------------------------------------------
# loading
# ---------------------------------------------------------------------------

_SPECIAL_NAMES = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}


def _title(name: str) -> str:
    return _SPECIAL_NAMES.get(name, name.title())


@functools.lru_cache(maxsize=None)
def _areas() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "community_areas.csv")
    df["name"] = df["community"].map(_title)
    return df.set_index("area_number").sort_index()


@functools.lru_cache(maxsize=None)
def _hom() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "homicides.csv", dtype=str)
    dt = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "dt": dt,
        "year": dt.dt.year,
        "month": dt.dt.month,
        "day": dt.dt.day,
        "weekday": dt.dt.day_name(),
        "hour": dt.dt.hour,
        "ca": pd.to_numeric(df["Community Area"], errors="coerce").astype("Int64"),
        "ward": pd.to_numeric(df["Ward"], errors="coerce").astype("Int64"),
        "district": pd.to_numeric(df["District"], errors="coerce").astype("Int64"),
        "arrest": df["Arrest"].str.lower() == "true",
        "domestic": df["Domestic"].str.lower() == "true",
        "location": df["Location Description"].fillna(""),
    })
    return out


@functools.lru_cache(maxsize=None)
def _se() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "socioeconomic.csv")
    df.columns = [c.strip() for c in df.columns]
    return df


_SE_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "no_hs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME",
    "hardship": "HARDSHIP INDEX",
}


@functools.lru_cache(maxsize=None)
def _acs() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "census_acs.csv")
    num = _areas().reset_index().set_index("community")["area_number"]
    df["area_number"] = df["community_area"].map(num)
    assert df["area_number"].notna().all()
    return df.set_index("area_number").sort_index()


@functools.lru_cache(maxsize=None)
def _pop2010() -> pd.Series:
    df = pd.read_csv(data_dir() / "census_population_2010.csv")
    return df.set_index("NID")["POP2010"].sort_index().astype(float)


@functools.lru_cache(maxsize=None)
def _zipxw() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")


@functools.lru_cache(maxsize=None)
def _zhvi() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    df["ym"] = df["Year"].astype(str) + "-" + df["Month"].map(lambda m: f"{m:02d}")
    return df.pivot(index="ym", columns="RegionName", values="price")


@functools.lru_cache(maxsize=None)
def _ihs_long() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


@functools.lru_cache(maxsize=None)
def _ihs_summary() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    for c in df.columns[2:]:
        df[c] = pd.to_numeric(df[c].astype(str).str.replace(r"[\s$,%]", "", regex=True))
    return df.set_index("Number")


@functools.lru_cache(maxsize=None)
def _ihsxw() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_ihs_submarket_crosswalk.csv")


@functools.lru_cache(maxsize=None)
def _stations() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "police_stations.csv", dtype=str)
    df = df[df["DISTRICT"].str.strip().str.isdigit()].copy()
    df["district"] = df["DISTRICT"].astype(int)
    df["ca"] = df["COMMUNITY AREA"].astype(int)
    return df.set_index("district")


@functools.lru_cache(maxsize=None)
def _wards() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig", dtype=str)
    df["ward"] = df["WARD"].astype(int)
    return df.set_index("ward").sort_index()


@functools.lru_cache(maxsize=None)
def _redfin() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    df["end"] = pd.to_datetime(df["Period End"], format="%m/%d/%Y")

    def money(s):
        if not isinstance(s, str) or not s.strip():
            return np.nan
        s = s.strip().replace("$", "").replace(",", "")
        mult = 1
        if s.endswith("K"):
            mult, s = 1_000, s[:-1]
        elif s.endswith("M"):
            mult, s = 1_000_000, s[:-1]
        return float(s) * mult

    df["sale_price"] = df["Median Sale Price"].map(money)
    return df


# ---------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------

def _years(years) -> list[int]:
    if years is None:
        return list(range(2001, 2024))
    if isinstance(years, int):
        return [years]
    if isinstance(years, str):
        if "-" in years:
            a, b = years.split("-")
            return list(range(int(a), int(b) + 1))
        return [int(years)]
    return [int(y) for y in years]


def _r1(x):
    return float(round(float(x), 1))


def _ri(x):
    return int(round(float(x)))


def _area_num(area) -> int:
    """Resolve an area spec to a community-area number.

    int / digit string -> that number; a name (any case, O'Hare, McKinley Park);
    'district~N' -> area of the district's police station; 'ward~N' -> area covering most
    of the ward office's ZIP; 'zip~NNNNN' -> area covering most of the ZIP;
    'rank~N~measure' / 'rankasc~N~measure' -> N-th area in that ranking.
    """
    if isinstance(area, (int, np.integer)):
        return int(area)
    s = str(area).strip()
    if s.isdigit():
        return int(s)
    if s.startswith("district~"):
        return int(_stations().loc[_district_num(s.split("~", 1)[1]), "ca"])
    if s.startswith("ward~"):
        z = _wards().loc[_ward_num(s.split("~", 1)[1]), "ZIPCODE"]
        if not isinstance(z, str) or not z.strip():
            raise ValueError("ward office without ZIP")
        return _zip_area(int(z))
    if s.startswith("zip~"):
        return _zip_area(int(s.split("~")[1]))
    if s.startswith("rank~") or s.startswith("rankasc~"):
        kind, n, meas = s.split("~", 2)
        ranked = _ranked(meas, ascending=(kind == "rankasc"))
        return int(ranked.index[int(n) - 1])
    a = _areas()
    key = s.upper().replace("'", "")
    m = a.index[(a["community"].str.replace("'", "") == key)
                | (a["name"].str.upper().str.replace("'", "") == key)
                | (a["name_socioeconomic"].str.upper().str.replace("'", "") == key)]
    if len(m) != 1:
        raise ValueError(f"unknown area {area!r}")
    return int(m[0])


def _zip_area(z: int) -> int:
    x = _zipxw()
    x = x[x["zip"] == z]
    if x.empty:
        raise ValueError(f"zip {z} not in crosswalk")
    x = x.sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return int(x["area_number"].iloc[0])


def _area_zip(n: int) -> int:
    x = _zipxw()
    x = x[x["area_number"] == n].sort_values(["share_of_community_area", "zip"],
                                             ascending=[False, True])
    return int(x["zip"].iloc[0])


def _area_sub(n: int) -> str:
    x = _ihsxw()
    x = x[x["area_number"] == n].sort_values("share_of_community_area", ascending=False)
    return str(x["submarket_code"].iloc[0])


def _name(n: int) -> str:
    return str(_areas().loc[int(n), "name"])


# ---------------------------------------------------------------------------
# homicide row filters
# ---------------------------------------------------------------------------

_SEASONS = {"winter": [12, 1, 2], "spring": [3, 4, 5], "summer": [6, 7, 8],
            "autumn": [9, 10, 11], "fall": [9, 10, 11]}
_QUARTERS = {1: [1, 2, 3], 2: [4, 5, 6], 3: [7, 8, 9], 4: [10, 11, 12]}


def _filter(years=None, months=None, season=None, quarter=None, weekdays=None,
            hours=None, domestic=None, arrest=None, location=None, area=None,
            district=None, ward=None, where=None, dates=None, date_from=None,
            date_to=None, city=True) -> pd.DataFrame:
    h = _hom()
    m = pd.Series(True, index=h.index)
    if years is not None:
        m &= h["year"].isin(_years(years))
    if months is not None:
        months = [months] if isinstance(months, int) else months
        m &= h["month"].isin(months)
    if season is not None:
        m &= h["month"].isin(_SEASONS[season])
    if quarter is not None:
        m &= h["month"].isin(_QUARTERS[int(quarter)])
    if weekdays is not None:
        weekdays = [weekdays] if isinstance(weekdays, str) else weekdays
        if weekdays == ["weekend"]:
            weekdays = ["Saturday", "Sunday"]
        m &= h["weekday"].isin(weekdays)
    if hours is not None:
        hours = [hours] if isinstance(hours, int) else hours
        m &= h["hour"].isin(hours)
    if domestic is not None:
        m &= h["domestic"] == bool(domestic)
    if arrest is not None:
        m &= h["arrest"] == bool(arrest)
    if location is not None:
        locs = [location] if isinstance(location, str) else location
        m &= h["location"].isin(locs)
    if area is not None:
        areas = area if isinstance(area, list) else [area]
        m &= h["ca"].isin([_area_num(a) for a in areas]).fillna(False).astype(bool)
    if district is not None:
        m &= (h["district"] == int(district)).fillna(False).astype(bool)
    if ward is not None:
        m &= (h["ward"] == int(ward)).fillna(False).astype(bool)
    if where is not None:
        s = _set(where)
        m &= h["ca"].isin(list(s)).fillna(False).astype(bool)
    if dates is not None:
        md = h["month"].astype(str).str.zfill(2) + "-" + h["day"].astype(str).str.zfill(2)
        m &= md.isin(dates)
    if date_from is not None:
        m &= h["dt"] >= pd.Timestamp(date_from)
    if date_to is not None:
        m &= h["dt"] < pd.Timestamp(date_to) + pd.Timedelta(days=1)
    return h[m]


# ---------------------------------------------------------------------------
# per-area measures
# ---------------------------------------------------------------------------
# A measure returns a DataFrame indexed by area number with columns num, den, scale,
# value and an attribute-like kind ('count', 'money', 'pct', ...) used for rounding.

_IDX = pd.Index(range(1, 78), name="area_number")


def _frame(num, den=None, scale=1.0, kind="pct"):
    num = pd.Series(num, dtype=float).reindex(_IDX)
    if den is None:
        df = pd.DataFrame({"num": num, "den": np.nan, "value": num}, index=_IDX)
        df.attrs["poolable"] = False
    else:
        den = pd.Series(den, dtype=float).reindex(_IDX)
        with np.errstate(divide="ignore", invalid="ignore"):
            val = num / den * scale
        df = pd.DataFrame({"num": num, "den": den, "value": val}, index=_IDX)
        df.attrs["poolable"] = True
    df.attrs["scale"] = scale
    df.attrs["kind"] = kind
    return df


def _yearpop(years) -> pd.Series:
    p10 = _pop2010().reindex(_IDX)
    acs = _acs()["total_population"].reindex(_IDX).astype(float)
    tot = pd.Series(0.0, index=_IDX)
    for y in _years(years):
        tot += p10 if y <= 2015 else acs
    return tot


def _flag_filter(parts):
    kw = {}
    for p in parts:
        if p == "domestic":
            kw["domestic"] = True
        elif p == "arrest":
            kw["arrest"] = True
        elif p == "weekend":
            kw["weekdays"] = ["Saturday", "Sunday"]
        elif p in _SEASONS:
            kw["season"] = p
        elif p.startswith("loc="):
            kw["location"] = p[4:]
        elif p:
            raise ValueError(p)
    return kw


def _counts(years, extra=None) -> pd.Series:
    h = _filter(years=years, **(extra or {}))
    return h.dropna(subset=["ca"]).groupby("ca").size().reindex(_IDX, fill_value=0).astype(float)


@functools.lru_cache(maxsize=None)
def _measure(meas: str) -> pd.DataFrame:
    parts = meas.split(":")
    head = parts[0]
    if head == "count":
        return _frame(_counts(parts[1], _flag_filter(parts[2:])), kind="count")
    if head == "rate":
        return _frame(_counts(parts[1], _flag_filter(parts[2:])), _yearpop(parts[1]), 1e5,
                      kind="rate")
    if head == "density":
        return _frame(_counts(parts[1], _flag_filter(parts[2:])), _areas()["area_sq_mi"],
                      1.0, kind="density")
    if head in ("arrest", "domestic"):
        c = _counts(parts[1], _flag_filter(parts[2:]))
        f = _counts(parts[1], {head: True, **_flag_filter(parts[2:])})
        return _frame(f, c, 100.0, kind="pct")
    if head == "diff":  # later - earlier count
        a, b = parts[1].split(">")
        return _frame(_counts(b) - _counts(a), kind="count")
    if head == "countchg":  # percent change of counts
        a, b = parts[1].split(">")
        ca, cb = _counts(a), _counts(b)
        return _frame(cb - ca, ca.where(ca > 0), 100.0, kind="pct")
    if head == "se":
        se = _se().dropna(subset=["Community Area Number"]).copy()
        se.index = se["Community Area Number"].astype(int)
        kind = "money" if parts[1] == "income" else "pct"
        return _frame(se[_SE_COLS[parts[1]]].astype(float), kind=kind)
    if head == "acs":
        acs = _acs()
        what = parts[1]
        if what == "pop":
            return _frame(acs["total_population"], kind="count")
        bands = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
                 "_75_000_to_125_000", "_125_000"]
        band_alias = {"inc_lt25k": ["under_25_000"], "inc_25_50": ["_25_000_to_49_999"],
                      "inc_50_75": ["_50_000_to_74_999"], "inc_75_125": ["_75_000_to_125_000"],
                      "inc_125k": ["_125_000"], "inc_lt50k": bands[:2], "inc_75k": bands[3:]}
        if what in band_alias:
            return _frame(acs[band_alias[what]].sum(axis=1), acs[bands].sum(axis=1), 100.0)
        if what == "households":
            return _frame(acs[bands].sum(axis=1), kind="count")
        cols = {"black": ["black_or_african_american"], "white": ["white"],
                "white_nh": ["white_not_hispanic_or_latino"], "hispanic": ["hispanic_or_latino"],
                "asian": ["asian"], "age65": ["male_65", "female_65"],
                "children": ["male_0_to_17", "female_0_to_17"],
                "age18_24": ["male_18_to_24", "female_18_to_24"]}[what]
        return _frame(acs[cols].sum(axis=1), acs["total_population"], 100.0)
    if head == "pop2010":
        return _frame(_pop2010(), kind="count")
    if head == "popchg":
        acs = _acs()["total_population"].reindex(_IDX).astype(float)
        p10 = _pop2010().reindex(_IDX)
        return _frame(acs - p10, p10, 100.0)
    if head == "sqmi":
        return _frame(_areas()["area_sq_mi"], kind="density")
    if head == "zhvi":
        return _frame(_area_zhvi(parts[1]), kind="money")
    if head == "zhvichg":
        a, b = parts[1].split(">")
        va, vb = _area_zhvi(a), _area_zhvi(b)
        return _frame((vb / va - 1) * 100, kind="pct")
    if head == "ihs":
        vals = {}
        for n in _IDX:
            code = _area_sub(n)
            vals[n] = _ihs_value(code, parts[1])
        return _frame(pd.Series(vals), kind="pct")
    raise ValueError(meas)


def _area_zhvi(ym: str) -> pd.Series:
    z = _zhvi()
    if ym not in z.index:
        raise ValueError(f"no ZHVI month {ym}")
    row = z.loc[ym]
    x = _zipxw().copy()
    x["v"] = x["zip"].map(row)
    x = x.dropna(subset=["v"])
    g = x.groupby("area_number")
    val = g.apply(lambda d: (d["v"] * d["share_of_community_area"]).sum()
                  / d["share_of_community_area"].sum())
    return val.reindex(_IDX)


def _ranked(meas: str, ascending=False, subset=None) -> pd.Series:
    v = _measure(meas)["value"].dropna()
    if subset is not None:
        v = v[v.index.isin(list(subset))]
    df = pd.DataFrame({"v": v, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[ascending, True])
    return df["v"]


# ---------------------------------------------------------------------------
# city figures
# ---------------------------------------------------------------------------

def _city_value(meas: str) -> float:
    parts = meas.split(":")
    head = parts[0]
    if head == "se":
        row = _se()[_se()["COMMUNITY AREA NAME"] == "CHICAGO"].iloc[0]
        return float(row[_SE_COLS[parts[1]]])
    if head == "rate":
        n = len(_filter(years=parts[1], **_flag_filter(parts[2:])))
        pop = sum(_pop2010().sum() if y <= 2015 else _acs()["total_population"].sum()
                  for y in _years(parts[1]))
        return n / pop * 1e5
    if head in ("arrest", "domestic"):
        h = _filter(years=parts[1], **_flag_filter(parts[2:]))
        return h[head].mean() * 100
    m = _measure(meas)
    if m.attrs["poolable"]:
        return m["num"].sum() / m["den"].sum() * m.attrs["scale"]
    raise ValueError(f"no city value for {meas}")


# ---------------------------------------------------------------------------
# area sets
# ---------------------------------------------------------------------------

def _threshold(tok: str, meas: str) -> float:
    v = _measure(meas)["value"].dropna()
    if tok == "city":
        return _city_value(meas)
    if tok == "median":
        return float(v.median())
    if tok == "mean":
        return float(v.mean())
    if tok.startswith("p") and tok[1:].isdigit():
        return float(v.quantile(int(tok[1:]) / 100))
    return float(tok)


def _cond(spec: str) -> set:
    neg = spec.startswith("!")
    if neg:
        spec = spec[1:]
    kind, rest = spec.split("~", 1)
    if kind in ("top", "bottom"):
        n, meas = rest.split("~", 1)
        s = set(_ranked(meas, ascending=(kind == "bottom")).index[: int(n)])
    elif kind in ("gt", "lt", "ge", "le"):
        tok, meas = rest.split("~", 1)
        v = _measure(meas)["value"].dropna()
        t = _threshold(tok, meas)
        op = {"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}[kind]
        s = set(v.index[op])
    elif kind == "in":
        s = {_area_num(a) for a in rest.split(",")}
    elif kind == "sub":  # areas whose main IHS submarket is the code given
        s = {n for n in _IDX if _area_sub(n) == rest}
    elif kind == "subtop":  # main submarket = the Chicago one with the biggest % rise a>b
        a, b = rest.split(">")
        code = _ihs_top_code(start=a, end=b)
        s = {n for n in _IDX if _area_sub(n) == code}
    elif kind == "zip":  # areas overlapping a ZIP
        x = _zipxw()
        s = set(x.loc[x["zip"] == int(rest), "area_number"])
    elif kind == "station":  # areas containing a police district station
        s = set(_stations()["ca"])
    elif kind == "has":  # areas with a value for the measure
        s = set(_measure(rest)["value"].dropna().index)
    else:
        raise ValueError(spec)
    if neg:
        s = set(_IDX) - s
    return s


def _set(where) -> set:
    if isinstance(where, str):
        where = [where]
    s = set(_IDX)
    for w in where:
        s &= _cond(w)
    return s


def _round(x, kind, how):
    if pd.isna(x):
        return float("nan")
    if kind == "money":
        return _ri(x)
    if kind == "count" and how in ("sum", "pooled", "max", "min", "range", "count"):
        return _ri(x)
    return _r1(x)


# ---------------------------------------------------------------------------
# public: homicide (row-level) questions
# ---------------------------------------------------------------------------

def b30_hom_count(**kw):
    """Number of homicide victims matching the filters (city total incl. blank CAs)."""
    return int(len(_filter(**kw)))


def b30_hom_avg(*, n, **kw):
    """Homicides matching the filters divided by ``n`` (e.g. years), 1 decimal."""
    return _r1(len(_filter(**kw)) / n)


def b30_hom_pct(*, flag=None, part=None, **kw):
    """Percent of the filtered homicides that are flagged (arrest/domestic) or that also
    match the ``part`` filter dict."""
    h = _filter(**kw)
    if flag is not None:
        return _r1(h[flag].mean() * 100)
    sub = _filter(**{**kw, **part})
    return _r1(len(sub) / len(h) * 100)


def b30_hom_change(*, before, after, pct=True, neg=False, **kw):
    """Change between two filter dicts (counts): percent change or difference."""
    a = len(_filter(**{**kw, **before}))
    b = len(_filter(**{**kw, **after}))
    if pct:
        v = (b / a - 1) * 100
        return _r1(-v if neg else v)
    return int(b - a)


def b30_hom_ratio(*, a, b, **kw):
    """Ratio of homicide counts under two filter dicts a / b."""
    return _r1(len(_filter(**{**kw, **a})) / len(_filter(**{**kw, **b})))


def b30_hom_top(*, by, rank=1, ascending=False, value=False, **kw):
    """The label (or count with value=True) ranked ``rank`` when the filtered homicides
    are grouped by ``by`` (year, month, weekday, hour, district, ward, ca, location)."""
    h = _filter(**kw)
    key = {"ca": "ca"}.get(by, by)
    g = h.dropna(subset=[key]).groupby(key).size()
    df = pd.DataFrame({"v": g, "k": g.index}).sort_values(["v", "k"],
                                                         ascending=[ascending, True])
    if value:
        return int(df["v"].iloc[rank - 1])
    k = df["k"].iloc[rank - 1]
    if by == "ca":
        return _name(int(k))
    if by == "month":
        return pd.Timestamp(2000, int(k), 1).month_name()
    return str(int(k)) if isinstance(k, (int, np.integer, float)) else str(k)


def b30_city_rate(*, years, **kw):
    """City-wide homicide rate per 100,000 a year (all rows / city population)."""
    n = len(_filter(years=years, **kw))
    pop = sum(_pop2010().sum() if y <= 2015 else _acs()["total_population"].sum()
              for y in _years(years))
    return _r1(n / pop * 1e5)


# ---------------------------------------------------------------------------
# public: per-area questions
# ---------------------------------------------------------------------------

def b30_area_value(*, area, measure):
    """One area's value of a measure (area may be a chain spec, see _area_num)."""
    m = _measure(measure)
    v = m.loc[_area_num(area), "value"]
    return _round(v, m.attrs["kind"], "sum" if m.attrs["kind"] == "count" else "value")


def b30_area_name(*, area):
    """The title-cased name of the area an area spec resolves to."""
    return _name(_area_num(area))


def b30_area_diff(*, a, b, measure, ratio=False, pct=False):
    """Measure for area a minus (or divided by, or percent change vs) area b."""
    m = _measure(measure)
    va = m.loc[_area_num(a), "value"]
    vb = m.loc[_area_num(b), "value"]
    if ratio:
        return _r1(va / vb)
    if pct:
        return _r1((va / vb - 1) * 100)
    return _round(va - vb, m.attrs["kind"], "sum")


def b30_top_area(*, measure, rank=1, ascending=False, where=None, value=False):
    """Name (or, with value=True, the value) of the area ranked ``rank`` on a measure
    (optionally within a set)."""
    sub = _set(where) if where is not None else None
    r = _ranked(measure, ascending=ascending, subset=sub)
    if value:
        m = _measure(measure)
        return _round(r.iloc[rank - 1], m.attrs["kind"], "sum" if m.attrs["kind"] == "count" else "value")
    return _name(int(r.index[rank - 1]))


def b30_rank_of(*, area, measure, ascending=False, where=None):
    """1-based rank of an area on a measure (descending unless ascending=True)."""
    sub = _set(where) if where is not None else None
    r = _ranked(measure, ascending=ascending, subset=sub)
    return int(list(r.index).index(_area_num(area)) + 1)


def b30_set_count(*, where):
    """How many community areas satisfy all conditions."""
    return int(len(_set(where)))


def b30_set_pct(*, where, base):
    """Percent of the areas in ``base`` (a condition list, e.g. has~measure) that also
    satisfy ``where``."""
    b = _set(base)
    return _r1(len(_set(where) & b) / len(b) * 100)


def b30_set_stat(*, where, measure, how="pooled"):
    """Statistic of a measure over a set of areas.

    how: pooled (sum num / sum den), sum, mean, median, max, min, range, count,
    city_share (set's homicides as a percent of the city's, for count/rate measures).
    """
    s = sorted(_set(where)) if where is not None else list(_IDX)
    m = _measure(measure)
    d = m.loc[s]
    kind = m.attrs["kind"]
    if how == "pooled":
        if not m.attrs["poolable"]:
            if kind == "count":
                return _ri(d["value"].sum())
            raise ValueError(f"{measure} cannot be pooled")
        d = d.dropna(subset=["num", "den"])
        return _round(d["num"].sum() / d["den"].sum() * m.attrs["scale"], kind, how)
    if how == "city_share":
        parts = measure.split(":")
        assert parts[0] in ("count", "rate", "density")
        extra = _flag_filter(parts[2:])
        tot = len(_filter(years=parts[1], **extra))
        return _r1(_counts(parts[1], extra).loc[s].sum() / tot * 100)
    v = d["value"].dropna()
    out = {"sum": v.sum(), "mean": v.mean(), "median": v.median(), "max": v.max(),
           "min": v.min(), "range": v.max() - v.min(), "count": len(v)}[how]
    return _round(out, kind, how)


def b30_set_compare(*, a, b, measure, how="pooled", op="ratio"):
    """Compare a statistic over two sets: ratio a/b or difference a-b."""
    va = b30_set_stat(where=a, measure=measure, how=how)
    vb = b30_set_stat(where=b, measure=measure, how=how)
    # recompute unrounded for the comparison
    va_raw = _set_stat_raw(a, measure, how)
    vb_raw = _set_stat_raw(b, measure, how)
    if op == "ratio":
        return _r1(va_raw / vb_raw)
    m = _measure(measure)
    return _round(va_raw - vb_raw, m.attrs["kind"], how)


def _set_stat_raw(where, measure, how):
    s = sorted(_set(where)) if where is not None else list(_IDX)
    m = _measure(measure)
    d = m.loc[s]
    if how == "pooled":
        d = d.dropna(subset=["num", "den"])
        return d["num"].sum() / d["den"].sum() * m.attrs["scale"]
    v = d["value"].dropna()
    return {"sum": v.sum(), "mean": v.mean(), "median": v.median()}[how]


def b30_set_top(*, where, measure, rank=1, ascending=False, value=False):
    """Name (or value) of the area ranked ``rank`` on ``measure`` among the areas in ``where``."""
    return b30_top_area(measure=measure, rank=rank, ascending=ascending, where=where, value=value)


def b30_corr(*, x, y, method="pearson", where=None):
    """Correlation across areas with both values present (Spearman = Pearson of ranks)."""
    d = pd.DataFrame({"x": _measure(x)["value"], "y": _measure(y)["value"]}).dropna()
    if where is not None:
        d = d[d.index.isin(list(_set(where)))]
    if method == "spearman":
        d = d.rank()
    return float(round(d["x"].corr(d["y"]), 2))


def b30_city_value(*, measure):
    """City figure for a measure: CHICAGO row for socioeconomic, pooled otherwise."""
    m = measure.split(":")[0]
    v = _city_value(measure)
    if measure.startswith("se:income"):
        return _ri(v)
    return _r1(v)


# ---------------------------------------------------------------------------
# public: chains and look-ups
# ---------------------------------------------------------------------------

def b30_district_name(*, district):
    return str(_stations().loc[_district_num(district), "DISTRICT NAME"])


def _ward_num(ward) -> int:
    """int, or 'top~YEARS' = the ward with the most homicides in those years."""
    if isinstance(ward, str) and ward.startswith("top~"):
        h = _filter(years=ward.split("~")[1]).dropna(subset=["ward"])
        g = h.groupby("ward").size()
        df = pd.DataFrame({"v": g, "k": g.index}).sort_values(["v", "k"], ascending=[False, True])
        return int(df["k"].iloc[0])
    return int(ward)


def _district_num(district) -> int:
    """int, or 'top~YEARS' / 'toparrest~YEARS' = the district with the most homicides /
    the highest arrest rate in those years."""
    if isinstance(district, str) and "~" in district:
        kind, yrs = district.split("~")
        h = _filter(years=yrs).dropna(subset=["district"])
        g = h.groupby("district").size() if kind == "top" else h.groupby("district")["arrest"].mean()
        df = pd.DataFrame({"v": g, "k": g.index}).sort_values(["v", "k"], ascending=[False, True])
        return int(df["k"].iloc[0])
    return int(district)


def b30_ward_value(*, ward, **kw):
    """Homicide count in a ward (spec as _ward_num) under the filters."""
    return int(len(_filter(ward=_ward_num(ward), **kw)))


def b30_alder(*, ward):
    """Alderperson's surname for a ward (ward_offices.csv, 2019-2023 council)."""
    full = _wards().loc[_ward_num(ward), "ALDERMAN"]
    return full.split(",")[0].strip()


def b30_ward_zip(*, ward):
    return str(_wards().loc[int(ward), "ZIPCODE"]).strip()


def b30_area_zip(*, area):
    """The ZIP an area mainly lies in (largest share_of_community_area)."""
    return str(_area_zip(_area_num(area)))


def b30_zip_zhvi(*, month, zip=None, area=None):
    """ZHVI of a ZIP (or of an area's main ZIP) in a month (YYYY-MM), integer dollars."""
    z = int(zip) if zip is not None else _area_zip(_area_num(area))
    v = _zhvi().loc[month, z]
    return _ri(v)


def b30_zip_zhvi_change(*, start, end, zip=None, area=None, neg=False):
    z = int(zip) if zip is not None else _area_zip(_area_num(area))
    v = (_zhvi().loc[end, z] / _zhvi().loc[start, z] - 1) * 100
    return _r1(-v if neg else v)


def b30_zip_top(*, start=None, end=None, month=None, rank=1, ascending=False, value=False):
    """ZIP ranked ``rank`` by ZHVI in a month, or by percent change start->end."""
    z = _zhvi()
    if month is not None:
        v = z.loc[month].dropna()
    else:
        v = ((z.loc[end] / z.loc[start] - 1) * 100).dropna()
    df = pd.DataFrame({"v": v, "k": v.index}).sort_values(["v", "k"], ascending=[ascending, True])
    if value:
        x = df["v"].iloc[rank - 1]
        return _ri(x) if month is not None else _r1(x)
    return str(int(df["k"].iloc[rank - 1]))


def _ihs_value(code: str, period: str) -> float:
    d = _ihs_long()
    d = d[d["submarket_code"] == code]
    if d.empty:
        return float("nan")
    if "Q" in str(period):
        r = d[d["yearq"] == period]
        return float(r["index_2000q1_100"].iloc[0]) if len(r) else float("nan")
    r = d[d["year"] == int(period)]
    if len(r) != 4:
        return float("nan")
    return float(r["index_2000q1_100"].mean())


def _sub_code(submarket=None, area=None) -> str:
    if area is not None:
        return _area_sub(_area_num(area))
    s = str(submarket)
    if re.fullmatch(r"p\d{4}|COOK|CHICAGO|SUBURBS", s):
        return s
    d = _ihs_long()
    names = d.drop_duplicates("submarket_code")
    m = names[names["submarket_name"].str.replace("Chicago--", "") == s.replace("Chicago--", "")]
    return str(m["submarket_code"].iloc[0])


def b30_area_submarket(*, area):
    """Name (without 'Chicago--') of the IHS submarket covering the largest share of an area."""
    code = _area_sub(_area_num(area))
    x = _ihsxw()
    name = x.loc[x["submarket_code"] == code, "submarket_name_2023"].iloc[0]
    return str(name).replace("Chicago--", "")


def b30_ihs(*, period, submarket=None, area=None):
    """IHS index (2000Q1=100): a quarter 'YYYYQn' or a year (mean of 4 quarters)."""
    v = _ihs_value(_sub_code(submarket, area), str(period))
    if pd.isna(v):
        raise ValueError("no IHS value")
    return _r1(v)


def b30_ihs_change(*, start, end, submarket=None, area=None, neg=False):
    code = _sub_code(submarket, area)
    v = (_ihs_value(code, str(end)) / _ihs_value(code, str(start)) - 1) * 100
    return _r1(-v if neg else v)


def _ihs_top_code(start, end, rank=1):
    d = _ihs_long().drop_duplicates("submarket_code")
    codes = d[(d["submarket_code"].str.startswith("p")) & (d["is_chicago"] == 1)]
    v = pd.Series({c: (_ihs_value(c, str(end)) / _ihs_value(c, str(start)) - 1) * 100
                   for c in codes["submarket_code"]}).dropna()
    df = pd.DataFrame({"v": v, "k": v.index}).sort_values(["v", "k"], ascending=[False, True])
    return str(df["k"].iloc[rank - 1])


def b30_ihs_top(*, start=None, end=None, period=None, rank=1, ascending=False,
                chicago_only=True, value=False):
    """IHS submarket (name without 'Chicago--') ranked by index in a period or by percent
    change start->end; chicago_only keeps the Chicago-- submarkets."""
    d = _ihs_long().drop_duplicates("submarket_code")
    codes = d[d["submarket_code"].str.startswith("p")]
    if chicago_only:
        codes = codes[codes["is_chicago"] == 1]
    vals = {}
    for c in codes["submarket_code"]:
        if period is not None:
            vals[c] = _ihs_value(c, str(period))
        else:
            vals[c] = (_ihs_value(c, str(end)) / _ihs_value(c, str(start)) - 1) * 100
    s = pd.Series(vals).dropna()
    df = pd.DataFrame({"v": s, "k": s.index}).sort_values(["v", "k"], ascending=[ascending, True])
    if value:
        return _r1(df["v"].iloc[rank - 1])
    name = codes.set_index("submarket_code").loc[df["k"].iloc[rank - 1], "submarket_name"]
    return str(name).replace("Chicago--", "")


def b30_ihs_summary(*, column, submarket=None, area=None):
    """A value from the IHS 2025Q4 summary table (percent as number, price integer)."""
    v = _ihs_summary().loc[_sub_code(submarket, area), column]
    return _ri(v) if column == "Median Sales Price" else _r1(v)


def b30_redfin_city(*, year, measure="Homes Sold", how="sum", month=None):
    """Redfin 'Chicago, IL' monthly rows: a year statistic or one month's value."""
    r = _redfin()
    c = r[r["Region"] == "Chicago, IL"]
    c = c[c["end"].dt.year == int(year)]
    if month is not None:
        c = c[c["end"].dt.month == int(month)]
    col = "sale_price" if measure == "Median Sale Price" else measure
    if how == "sum":
        if month is None and len(c) != 12:
            raise ValueError("incomplete year")
        return _ri(c[col].sum())
    if how == "value":
        x = c[col].iloc[0]
        return _ri(x) if col in ("sale_price", "Homes Sold", "Inventory") else _r1(x)
    if how == "max_month":
        return pd.Timestamp(c.loc[c[col].idxmax(), "end"]).month_name()
    if how == "mean":
        return _r1(c[col].mean())
    if how == "median":
        return _ri(c[col].median())
    raise ValueError(how)


def b30_redfin_region(*, region, end, measure="Median Sale Price"):
    """A Redfin neighbourhood's 90-day rolling figure for the period ending ``end``."""
    r = _redfin()
    c = r[(r["Region"] == f"Chicago, IL - {region}") & (r["end"] == pd.Timestamp(end))]
    if len(c) != 1:
        raise ValueError("no unique row")
    col = "sale_price" if measure == "Median Sale Price" else measure
    x = c[col].iloc[0]
    if col in ("sale_price", "Homes Sold", "Inventory", "Median List Price", "New Listings"):
        return _ri(x)
    if col in ("Sold Above List", "Avg Sale To List"):
        return _r1(x * 100)
    return _r1(x)
