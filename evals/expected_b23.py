"""Expected answers for the blind23 held-out question set (Chicago public data).

Every public function is named ``b23_...``, takes keyword arguments only and returns ONE
value: a number rounded as the conventions say, or a label string.

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

Conventions added for blind23 (each question that relies on one states it in its wording)
-----------------------------------------------------------------------------------------
* Set building (``where``) is sequential: each clause filters the set left by the clauses
  before it; a ranking clause ranks within the current set, and a 'median'/'mean'
  threshold is computed on the current set's values ('city' = the city figure).  A clause
  prefixed with ``!`` is evaluated over all 77 areas and its areas are removed from the
  current set ("the rest", "drop those also in ..."); a clause prefixed with ``^`` is
  evaluated over all 77 areas and intersected ("also among the top 20 for ...").
* Quartile groups: "top quartile" = the 19 areas with the highest value (77 // 4), "bottom
  quartile" = the 19 lowest; questions say "the 19 ...".
* An IHS submarket's group of community areas = the areas whose main submarket
  (largest share_of_community_area) it is; a submarket's pooled homicide rate =
  sum(homicides) / sum(population-years) of that group.  Areas whose main submarket is
  p3160 (Loop and surrounding areas, not in the index) get no index value.
* Homicides "in ward N" / "in district N" use the Ward / District column of the homicide
  rows (not the station's or office's community area); the chain questions say which link
  they use.
* Calendar-date filters (holidays) use month-day of ``Date`` (July 4 = 07-04, Christmas
  Day = 12-25, New Year's Day = 01-01, Halloween = 10-31).
* A city-wide ACS income-band share = the band's households summed over the 77 areas /
  all five bands summed * 100.
* Redfin neighbourhood rankings are over the "Chicago, IL - <name>" regions that appear
  once per period end (Rosehill, Wrightwood and Tri-Taylor/Tri-taylor duplicates dropped).
* ZHVI for a ZIP "in year Y" (average) = mean of that ZIP's 12 monthly values of year Y;
  questions say "average of the monthly values".
* Redfin city percent change between two years = (total of year b / total of year a - 1) * 100
  on the 12-month totals.
* Hour labels are returned as the 24-hour clock number ("22" = 10pm-10:59pm); location
  types as spelled in the data (upper case, e.g. "AUTO"); police districts and wards as
  their number; months and weekdays as English names; IHS quarters as "2007Q1".
* Chained places (in kwargs): ``station:N`` = the community area the district-N station
  sits in; ``ward_office:N`` = the community area covering most of ward N's office ZIP;
  ``zip:Z`` = the community area covering most of ZIP Z; ``rank:K:desc|asc:<measure>`` =
  the area at rank K of a measure over all 77 areas; for ZIPs, ``area:<name>`` = the area's
  main ZIP; for IHS, ``area:<name>`` = the area's main submarket.
* Homicide measure specs: ``hom|rate|density|arrest|domestic|pct:<years>[|filter...][@cond...]``
  (filters: arrest=, domestic=, loc=, loccontains=, months=, season=, q=, wd=, hours=,
  md=, dates=); ``homchg:<y0>:<y1>`` = later minus earlier count.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

import numpy as np
import pandas as pd

from evals.expected import data_dir

# --------------------------------------------------------------------------------------
# loading (each CSV read once)
# --------------------------------------------------------------------------------------

_NAME_FIX = {"Ohare": "O'Hare", "Mckinley Park": "McKinley Park"}
_WD = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_WD_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"]
_SEASONS = {"winter": [12, 1, 2], "spring": [3, 4, 5], "summer": [6, 7, 8],
            "autumn": [9, 10, 11], "fall": [9, 10, 11]}


@lru_cache(maxsize=None)
def _areas() -> pd.DataFrame:
    ca = pd.read_csv(data_dir() / "community_areas.csv")
    ca["name"] = ca["community"].str.title().replace(_NAME_FIX)
    return ca.set_index("area_number")


@lru_cache(maxsize=None)
def _hom() -> pd.DataFrame:
    h = pd.read_csv(data_dir() / "homicides.csv", dtype=str)
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "dt": d, "year": d.dt.year, "month": d.dt.month, "day": d.dt.day,
        "wd": d.dt.weekday, "hour": d.dt.hour,
        "ca": pd.to_numeric(h["Community Area"]).astype("Int64"),
        "ward": pd.to_numeric(h["Ward"]).astype("Int64"),
        "district": pd.to_numeric(h["District"]).astype("Int64"),
        "arrest": h["Arrest"].str.lower().eq("true"),
        "domestic": h["Domestic"].str.lower().eq("true"),
        "loc": h["Location Description"].fillna(""),
    })
    return out


@lru_cache(maxsize=None)
def _pop2010() -> pd.Series:
    p = pd.read_csv(data_dir() / "census_population_2010.csv")
    return p.set_index("NID")["POP2010"].astype(float)


@lru_cache(maxsize=None)
def _acs() -> pd.DataFrame:
    a = pd.read_csv(data_dir() / "census_acs.csv")
    num = _areas().reset_index().set_index("community")["area_number"]
    a["area_number"] = a["community_area"].map(num)
    assert a["area_number"].notna().all()
    a = a.set_index("area_number").sort_index()
    return a


@lru_cache(maxsize=None)
def _socio() -> pd.DataFrame:
    s = pd.read_csv(data_dir() / "socioeconomic.csv")
    s.columns = [c.strip() for c in s.columns]
    return s


_SOCIO_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "no_hs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME",
    "hardship": "HARDSHIP INDEX",
}


@lru_cache(maxsize=None)
def _zipxw() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")


@lru_cache(maxsize=None)
def _ihsxw() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_ihs_submarket_crosswalk.csv")


@lru_cache(maxsize=None)
def _zhvi() -> pd.DataFrame:
    z = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].astype(str).str.zfill(2)
    return z.pivot(index="RegionName", columns="ym", values="price")


@lru_cache(maxsize=None)
def _ihs() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


@lru_cache(maxsize=None)
def _ihs_summary() -> pd.DataFrame:
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    for c in s.columns[2:]:
        s[c] = pd.to_numeric(s[c].astype(str).str.replace(r"[%$,\s]", "", regex=True))
    return s.set_index("Number")


@lru_cache(maxsize=None)
def _redfin() -> pd.DataFrame:
    r = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["pe"] = pd.to_datetime(r["Period End"]).dt.strftime("%Y-%m-%d")
    r["Median Sale Price"] = r["Median Sale Price"].map(_money)
    return r


@lru_cache(maxsize=None)
def _stations() -> pd.DataFrame:
    s = pd.read_csv(data_dir() / "police_stations.csv", dtype=str)
    s = s[s["DISTRICT"].str.fullmatch(r"\d+")].copy()
    s["DISTRICT"] = s["DISTRICT"].astype(int)
    s["COMMUNITY AREA"] = s["COMMUNITY AREA"].astype(int)
    return s.set_index("DISTRICT")


@lru_cache(maxsize=None)
def _wards() -> pd.DataFrame:
    w = pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig", dtype=str)
    w["WARD"] = w["WARD"].astype(int)
    return w.set_index("WARD")


def _money(v):
    if pd.isna(v):
        return np.nan
    s = str(v).strip().replace("$", "").replace(",", "")
    mult = 1
    if s.endswith("K"):
        mult, s = 1000, s[:-1]
    elif s.endswith("M"):
        mult, s = 1_000_000, s[:-1]
    return float(s) * mult


# --------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------

def _r1(x):
    return float(round(float(x), 1))


def _r2(x):
    return float(round(float(x), 2))


def _ri(x):
    return int(round(float(x)))


def _years(spec) -> list[int]:
    out = []
    for part in str(spec).split(","):
        part = part.strip()
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def _pop_for_year(y: int) -> pd.Series:
    return _pop2010() if y <= 2015 else _acs()["total_population"].astype(float)


def _city_pop_for_year(y: int) -> float:
    return float(_pop_for_year(y).sum())


def _hour_list(spec: str) -> list[int]:
    a, b = [int(x) for x in spec.split("-")]
    if a <= b:
        return list(range(a, b + 1))
    return list(range(a, 24)) + list(range(0, b + 1))


def _apply_filters(h: pd.DataFrame, filters: list[str]) -> pd.DataFrame:
    m = pd.Series(True, index=h.index)
    for f in filters:
        # (lstrip only: "loccontains=CHA " keeps its trailing space; stripped, "CURRENCY EXCHANGE" matched "CHA")
        f = f.lstrip()
        if not f.strip():
            continue
        k, _, v = f.partition("=")
        if k == "arrest":
            m &= h["arrest"] == (v == "1")
        elif k == "domestic":
            m &= h["domestic"] == (v == "1")
        elif k == "loc":
            m &= h["loc"].isin(v.split(","))
        elif k == "loccontains":
            m &= h["loc"].str.contains(v, regex=False)
        elif k == "months":
            m &= h["month"].isin([int(x) for x in v.split(",")])
        elif k == "season":
            m &= h["month"].isin(_SEASONS[v])
        elif k == "q":
            qs = [int(x) for x in v.split(",")]
            m &= ((h["month"] - 1) // 3 + 1).isin(qs)
        elif k == "wd":
            m &= h["wd"].isin([_WD[x.lower()[:3]] for x in v.split(",")])
        elif k == "hours":
            m &= h["hour"].isin(_hour_list(v))
        elif k == "md":
            mds = [tuple(int(p) for p in x.split("-")) for x in v.split(",")]
            mm = pd.Series(False, index=h.index)
            for mo, dy in mds:
                mm |= (h["month"] == mo) & (h["day"] == dy)
            m &= mm
        elif k == "dates":
            a, b = v.split(":")
            dd = h["dt"].dt.normalize()
            m &= (dd >= pd.Timestamp(a)) & (dd <= pd.Timestamp(b))
        else:
            raise ValueError(f"unknown filter {f}")
    return h[m]


def _hom_rows(years=None, filters=()) -> pd.DataFrame:
    h = _hom()
    if years is not None:
        h = h[h["year"].isin(_years(years))]
    return _apply_filters(h, list(filters))


def _parse_hom_spec(rest: str):
    """'2016-2022|domestic=1@loc=STREET' -> (years, base filters, cond filters)."""
    cond = []
    if "@" in rest:
        rest, c = rest.split("@", 1)
        cond = c.split("|")
    parts = rest.split("|")
    return parts[0], parts[1:], cond


# --------------------------------------------------------------------------------------
# area measures: each returns (value, num, den, scale)  (num/den None when not poolable)
# --------------------------------------------------------------------------------------

_ACS_SHARE = {
    "white": ["white"], "black": ["black_or_african_american"], "asian": ["asian"],
    "hispanic": ["hispanic_or_latino"], "white_nh": ["white_not_hispanic_or_latino"],
    "multiracial": ["multiracial"], "other_race": ["other_race"],
    "65plus": ["male_65", "female_65"], "children": ["male_0_to_17", "female_0_to_17"],
    "18_24": ["male_18_to_24", "female_18_to_24"],
    "25_34": ["male_25_to_34", "female_25_to_34"],
}
_ACS_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
              "_75_000_to_125_000", "_125_000"]
_ACS_BAND_ALIAS = {"inc_under25": ["under_25_000"], "inc_25_50": ["_25_000_to_49_999"],
                   "inc_50_75": ["_50_000_to_74_999"], "inc_75_125": ["_75_000_to_125_000"],
                   "inc_125plus": ["_125_000"], "inc_under50": ["under_25_000", "_25_000_to_49_999"],
                   "inc_75plus": ["_75_000_to_125_000", "_125_000"]}


def _idx():
    return _areas().index


def _hom_measure(kind: str, rest: str, idx):
    """(value, numerator, denominator, scale) of a homicide measure spec (split out of _measure unchanged)."""
    num = den = None
    scale = 1.0
    years, base, cond = _parse_hom_spec(rest)
    rows = _hom_rows(years, base)
    cnt = rows.groupby("ca").size().reindex(idx, fill_value=0).astype(float)
    if kind == "hom":
        num, val = cnt, cnt
    elif kind == "rate":
        den = sum(_pop_for_year(y).reindex(idx) for y in _years(years))
        num, scale = cnt, 1e5
        val = num / den * scale
    elif kind == "density":
        den = _areas()["area_sq_mi"].reindex(idx).astype(float)
        num = cnt
        val = num / den
    else:
        if kind == "arrest":
            sub = rows[rows["arrest"]]
        elif kind == "domestic":
            sub = rows[rows["domestic"]]
        else:
            sub = _apply_filters(rows, cond)
        num = sub.groupby("ca").size().reindex(idx, fill_value=0).astype(float)
        den = cnt.replace(0, np.nan)
        scale = 100.0
        val = num / den * scale
    return val, num, den, scale


def _acs_measure(rest: str, idx):
    """(value, numerator, denominator, scale) of an ACS measure spec (split out of _measure unchanged)."""
    a = _acs().reindex(idx)
    den = None
    scale = 1.0
    if rest in ("pop", "total_population"):
        val = a["total_population"].astype(float)
        num = val
    elif rest in _ACS_SHARE:
        num = a[_ACS_SHARE[rest]].sum(axis=1).astype(float)
        den = a["total_population"].astype(float)
        scale = 100.0
        val = num / den * scale
    elif rest in _ACS_BAND_ALIAS:
        num = a[_ACS_BAND_ALIAS[rest]].sum(axis=1).astype(float)
        den = a[_ACS_BANDS].sum(axis=1).astype(float)
        scale = 100.0
        val = num / den * scale
    elif rest == "households":
        val = a[_ACS_BANDS].sum(axis=1).astype(float)
        num = val
    else:
        val = a[rest].astype(float)
        num = val
    return val, num, den, scale


def _measure(spec: str):
    """Return (value Series over areas 1..77, num, den, scale, kind)."""
    neg = False
    if spec.startswith("neg|"):
        neg, spec = True, spec[4:]
    kind, _, rest = spec.partition(":")
    idx = _idx()
    num = den = None
    scale = 1.0
    if kind in ("hom", "rate", "density", "arrest", "domestic", "pct"):
        val, num, den, scale = _hom_measure(kind, rest, idx)
    elif kind == "homchg":  # homchg:2019:2021 -> later - earlier count
        a, b = rest.split(":")[:2]
        extra = rest.split("|")[1:]
        ea = _measure("hom:" + a + "".join("|" + e for e in extra))[0]
        eb = _measure("hom:" + b.split("|")[0] + "".join("|" + e for e in extra))[0]
        val = eb - ea
    elif kind == "homchgpct":  # percent change in counts
        a, b = rest.split(":")[:2]
        ea = _measure("hom:" + a)[0]
        eb = _measure("hom:" + b)[0]
        val = (eb / ea.replace(0, np.nan) - 1) * 100
    elif kind == "ratechg":  # ratechg:2012:2022 later rate - earlier rate
        a, b = rest.split(":")[:2]
        val = _measure("rate:" + b)[0] - _measure("rate:" + a)[0]
    elif kind == "acs":
        val, num, den, scale = _acs_measure(rest, idx)
    elif kind == "pop2010":
        val = _pop2010().reindex(idx)
        num = val
    elif kind == "popchg":
        num = _acs()["total_population"].reindex(idx).astype(float) - _pop2010().reindex(idx)
        den = _pop2010().reindex(idx)
        scale = 100.0
        val = num / den * scale
    elif kind == "sqmi":
        val = _areas()["area_sq_mi"].reindex(idx).astype(float)
        num = val
    elif kind == "popdensity":  # ACS people per square mile
        num = _acs()["total_population"].reindex(idx).astype(float)
        den = _areas()["area_sq_mi"].reindex(idx).astype(float)
        val = num / den
    elif kind == "socio":
        s = _socio().dropna(subset=["Community Area Number"]).copy()
        s.index = s["Community Area Number"].astype(int)
        val = s[_SOCIO_COLS[rest]].reindex(idx).astype(float)
    elif kind == "zhvi":
        val = _area_zhvi(rest)
    elif kind == "zhvichg":
        a, b = rest.split(":")
        va, vb = _area_zhvi(a), _area_zhvi(b)
        val = (vb / va - 1) * 100
    elif kind == "ihs":  # ihs:2022 or ihs:2022Q4  -> the area's main submarket's index
        sm = _area_submarket_series()
        vals = {c: _ihs_value(c, rest) for c in sm.dropna().unique()}
        val = sm.map(vals).astype(float)
    elif kind == "ihschg":
        a, b = rest.split(":")
        sm = _area_submarket_series()
        vals = {c: (_ihs_value(c, b) / _ihs_value(c, a) - 1) * 100 for c in sm.dropna().unique()}
        val = sm.map(vals).astype(float)
    else:
        raise ValueError(f"unknown measure {spec}")
    val = val.reindex(idx).astype(float)
    if neg:
        val = -val
        if num is not None:
            num = -num
    return val, num, den, scale


def _area_zhvi(ym: str) -> pd.Series:
    z = _zhvi()
    if ym not in z.columns:
        raise ValueError(f"no ZHVI month {ym}")
    xw = _zipxw()
    price = xw["zip"].map(z[ym])
    ok = price.notna()
    w = xw["share_of_community_area"].where(ok, 0.0)
    num = (w * price.fillna(0)).groupby(xw["area_number"]).sum()
    den = w.groupby(xw["area_number"]).sum()
    out = (num / den.replace(0, np.nan)).reindex(_idx())
    return out


def _area_submarket_series() -> pd.Series:
    x = _ihsxw().sort_values(["area_number", "share_of_community_area"],
                             ascending=[True, False]).drop_duplicates("area_number")
    s = x.set_index("area_number")
    code = s["submarket_code"].where(s["in_price_index"] == 1)
    return code.reindex(_idx())


def _area_main_submarket_all() -> pd.Series:
    x = _ihsxw().sort_values(["area_number", "share_of_community_area"],
                             ascending=[True, False]).drop_duplicates("area_number")
    return x.set_index("area_number")["submarket_code"].reindex(_idx())


def _city_value(spec: str) -> float:
    neg = False
    if spec.startswith("neg|"):
        neg, spec = True, spec[4:]
    kind, _, rest = spec.partition(":")
    if kind in ("hom", "rate", "density", "arrest", "domestic", "pct"):
        years, base, cond = _parse_hom_spec(rest)
        rows = _hom_rows(years, base)
        n = len(rows)
        if kind == "hom":
            v = n
        elif kind == "rate":
            v = n / sum(_city_pop_for_year(y) for y in _years(years)) * 1e5
        elif kind == "density":
            v = n / _areas()["area_sq_mi"].sum()
        elif kind == "arrest":
            v = rows["arrest"].mean() * 100
        elif kind == "domestic":
            v = rows["domestic"].mean() * 100
        else:
            v = len(_apply_filters(rows, cond)) / n * 100
    elif kind == "socio":
        s = _socio()
        v = float(s.loc[s["COMMUNITY AREA NAME"] == "CHICAGO", _SOCIO_COLS[rest]].iloc[0])
    elif kind in ("acs", "popchg", "pop2010", "sqmi", "popdensity"):
        val, num, den, scale = _measure(spec)
        if den is None:
            v = num.sum()
        else:
            v = num.sum() / den.sum() * scale
    else:
        raise ValueError(f"no city value for {spec}")
    return -v if neg else float(v)


def _round_for(spec: str, v):
    """Rounding by measure kind."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        raise ValueError("NaN result")
    s = spec[4:] if spec.startswith("neg|") else spec
    kind, _, rest = s.partition(":")
    if kind in ("hom", "homchg", "pop2010", "zhvi") or (kind == "acs" and (rest in ("pop", "total_population", "households") or rest not in _ACS_SHARE and rest not in _ACS_BAND_ALIAS)):
        return _ri(v)
    if kind == "socio" and rest in ("income", "hardship"):
        return _ri(v)
    return _r1(v)


# --------------------------------------------------------------------------------------
# area resolution
# --------------------------------------------------------------------------------------

def _area_num(area) -> int:
    if isinstance(area, (int, np.integer)):
        return int(area)
    s = str(area).strip()
    if s.isdigit():
        return int(s)
    low = s.lower()
    if low.startswith("station:"):
        return int(_stations().loc[int(s.split(":")[1]), "COMMUNITY AREA"])
    if low.startswith("ward_office:"):
        z = _wards().loc[int(s.split(":")[1]), "ZIPCODE"]
        if pd.isna(z):
            raise ValueError("ward office has no ZIP")
        return _zip_main_area(int(z))
    if low.startswith("zip:"):
        return _zip_main_area(int(s.split(":")[1]))
    if low.startswith("rank:"):  # rank:<n>:<asc|desc>:<measure>  (over all 77 areas)
        _, n, order, m = s.split(":", 3)
        return int(_ranked(_measure(m)[0], order).index[int(n) - 1])
    a = _areas()
    hit = a.index[(a["name"].str.lower() == low) | (a["community"].str.lower() == low)]
    if len(hit) != 1:
        raise ValueError(f"unknown area {area}")
    return int(hit[0])


def _zip_main_area(z: int) -> int:
    xw = _zipxw()
    sub = xw[xw["zip"] == z].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return int(sub.iloc[0]["area_number"])


def _area_main_zip(n: int) -> int:
    xw = _zipxw()
    sub = xw[xw["area_number"] == n].sort_values("share_of_community_area", ascending=False)
    return int(sub.iloc[0]["zip"])


def _ranked(val: pd.Series, order: str = "desc") -> pd.Series:
    v = val.dropna()
    df = pd.DataFrame({"v": v, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[order == "asc", True])
    return df["v"]


def _name(n: int) -> str:
    return str(_areas().loc[int(n), "name"])


# --------------------------------------------------------------------------------------
# set building
# --------------------------------------------------------------------------------------

def _threshold(vals: pd.Series, spec: str, thr) -> float:
    if isinstance(thr, (int, float)):
        return float(thr)
    t = str(thr)
    if t == "median":
        return float(vals.dropna().median())
    if t == "mean":
        return float(vals.dropna().mean())
    if t == "city":
        return _city_value(spec)
    return float(t)


def _select(where) -> list[int]:
    cur = list(_idx())
    if where is None:
        return cur
    if isinstance(where, str):
        where = [where]
    for clause in where:
        neg = clause.startswith("!")
        glob = clause.startswith("^")
        c = clause[1:] if (neg or glob) else clause
        chosen = _clause(c, list(_idx()) if (neg or glob) else cur)
        if neg:
            cur = [a for a in cur if a not in set(chosen)]
        else:
            cur = [a for a in cur if a in set(chosen)]
    return cur


def _clause(c: str, cur: list[int]) -> list[int]:
    if c == "all":
        return list(cur)
    op, _, rest = c.partition("~")
    if op in ("top", "bottom"):
        n, m = rest.split("~", 1)
        v = _measure(m)[0].reindex(cur)
        r = _ranked(v, "desc" if op == "top" else "asc")
        return list(r.index[: int(n)])
    if op in ("gt", "lt", "ge", "le"):
        m, thr = rest.rsplit("~", 1)
        v = _measure(m)[0].reindex(cur)
        try:
            thr = float(thr)
        except ValueError:
            pass
        t = _threshold(v, m, thr)
        cmp = {"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}[op]
        return list(v.index[cmp.fillna(False)])
    if op == "in":
        return [_area_num(x) for x in rest.split(",")]
    if op == "submarket":
        sm = _area_main_submarket_all()
        return list(sm.index[sm == rest])
    if op == "zipmain":  # areas whose main ZIP is the given one
        return [a for a in cur if _area_main_zip(a) == int(rest)]
    if op == "hasvalue":
        v = _measure(rest)[0].reindex(cur)
        return list(v.dropna().index)
    raise ValueError(f"unknown clause {c}")


# --------------------------------------------------------------------------------------
# public: area-level functions
# --------------------------------------------------------------------------------------

def b23_area_value(*, area, measure):
    """One community area's value of a measure (area may be a chain: station:N, ward_office:N, zip:Z)."""
    n = _area_num(area)
    v = _measure(measure)[0].loc[n]
    return _round_for(measure, v)


def b23_area_label(*, area):
    """Title-cased name of an area (resolving chains)."""
    return _name(_area_num(area))


def b23_city_value(*, measure):
    return _round_for(measure, _city_value(measure))


def b23_rank_label(*, measure, rank=1, order="desc", where=None):
    cur = _select(where)
    r = _ranked(_measure(measure)[0].reindex(cur), order)
    return _name(r.index[rank - 1])


def b23_rank_value(*, measure, rank=1, order="desc", where=None, value_measure=None):
    """Value at a rank; value_measure = report another measure for that area."""
    cur = _select(where)
    r = _ranked(_measure(measure)[0].reindex(cur), order)
    n = r.index[rank - 1]
    vm = value_measure or measure
    return _round_for(vm, _measure(vm)[0].loc[n])


def b23_rank_of(*, area, measure, order="desc", where=None):
    cur = _select(where)
    r = _ranked(_measure(measure)[0].reindex(cur), order)
    n = _area_num(area)
    return int(list(r.index).index(n) + 1)


def b23_set_count(*, where):
    return int(len(_select(where)))


def b23_set_percent(*, where, base=None):
    """Percent of areas in `base` (default: areas with a value for the first clause's
    measure... here simply all 77 or the given base set) that satisfy `where`."""
    b = _select(base)
    w = _select(list(base or []) + list(where if isinstance(where, list) else [where]))
    return _r1(len(w) / len(b) * 100)


def _set_stat_raw(where, measure, how):
    cur = _select(where)
    val, num, den, scale = _measure(measure)
    if how == "pooled":
        if den is None:
            if num is None:
                raise ValueError("measure not poolable")
            return float(num.reindex(cur).sum())
        return float(num.reindex(cur).sum() / den.reindex(cur).sum() * scale)
    if how == "sum":
        return float(val.reindex(cur).sum())
    v = val.reindex(cur).dropna()
    if how == "mean":
        return float(v.mean())
    if how == "median":
        return float(v.median())
    if how == "max":
        return float(v.max())
    if how == "min":
        return float(v.min())
    if how == "range":
        return float(v.max() - v.min())
    if how == "city_share":
        kind, _, rest = measure.partition(":")
        assert kind == "hom"
        return float(val.reindex(cur).sum() / _city_value(measure) * 100)
    raise ValueError(how)


def b23_set_stat(*, where, measure, how="pooled"):
    v = _set_stat_raw(where, measure, how)
    if how == "city_share":
        return _r1(v)
    kind = (measure[4:] if measure.startswith("neg|") else measure).split(":")[0]
    if how in ("mean", "median") and kind in ("hom", "homchg", "pop2010") or (
            how in ("mean", "median") and kind == "acs" and isinstance(_round_for(measure, 1.0), int)):
        return _r1(v)  # an average of counts keeps one decimal
    return _round_for(measure, v)


def b23_set_compare(*, where_a, where_b, measure, how="pooled", compare="ratio"):
    a = _set_stat_raw(where_a, measure, how)
    b = _set_stat_raw(where_b, measure, how)
    if compare == "ratio":
        return _r1(a / b)
    if compare == "diff":
        return _round_for(measure, a - b) if how not in ("mean", "median") else _r1(a - b)
    if compare == "pct":
        return _r1((a / b - 1) * 100)
    raise ValueError(compare)


def b23_area_compare(*, area_a, area_b, measure, compare="diff"):
    va = _measure(measure)[0].loc[_area_num(area_a)]
    vb = _measure(measure)[0].loc[_area_num(area_b)]
    if compare == "diff":
        return _round_for(measure, va - vb)
    if compare == "ratio":
        return _r1(va / vb)
    if compare == "pct":
        return _r1((va / vb - 1) * 100)
    raise ValueError(compare)


def b23_area_period_change(*, area, measure_a, measure_b, compare="pct"):
    """Same area, two measures (e.g. two periods): pct = (b/a-1)*100, diff = b-a."""
    n = _area_num(area)
    va = _measure(measure_a)[0].loc[n]
    vb = _measure(measure_b)[0].loc[n]
    if compare == "pct":
        return _r1((vb / va - 1) * 100)
    if compare == "diff":
        return _round_for(measure_b, vb - va)
    if compare == "ratio":
        return _r1(vb / va)
    raise ValueError(compare)


def b23_corr(*, x, y, method="pearson", where=None):
    cur = _select(where)
    a = _measure(x)[0].reindex(cur)
    b = _measure(y)[0].reindex(cur)
    df = pd.DataFrame({"a": a, "b": b}).dropna()
    if method == "spearman":
        df = df.rank()
    return _r2(np.corrcoef(df["a"], df["b"])[0, 1])


def b23_group_rank(*, measure, group="submarket", how="pooled", rank=1, order="desc",
                   ret="label", chicago_only=True):
    """Rank groups of areas (IHS main submarket) by a set statistic."""
    sm = _area_main_submarket_all()
    codes = sorted(sm.dropna().unique())
    if chicago_only:
        codes = [c for c in codes if c >= "p3151"]
    vals = {c: _set_stat_raw([f"submarket~{c}"], measure, how) for c in codes}
    s = pd.Series(vals).sort_values(ascending=(order == "asc"), kind="mergesort")
    c = s.index[rank - 1]
    if ret == "label":
        return _submarket_name(c)
    if ret == "code":
        return c
    if how == "city_share":
        return _r1(s.iloc[rank - 1])
    return _round_for(measure, s.iloc[rank - 1])


def _submarket_name(code: str) -> str:
    x = _ihsxw()
    hit = x.loc[x["submarket_code"] == code, "submarket_name_2023"]
    if len(hit):
        return str(hit.iloc[0])
    i = _ihs()
    return str(i.loc[i["submarket_code"] == code, "submarket_name"].iloc[0])


# --------------------------------------------------------------------------------------
# public: homicide-level functions (city / ward / district / area / set)
# --------------------------------------------------------------------------------------

def _place_rows(rows: pd.DataFrame, place=None, where=None) -> pd.DataFrame:
    if where is not None:
        return rows[rows["ca"].isin(_select(where))]
    if place is None or place == "city":
        return rows
    k, _, v = str(place).partition(":")
    if k == "ca":
        return rows[rows["ca"] == _area_num(v)]
    if k == "ward":
        return rows[rows["ward"] == int(v)]
    if k == "district":
        return rows[rows["district"] == int(v)]
    raise ValueError(place)


def b23_hom_count(*, years=None, filters=(), place=None, where=None):
    rows = _place_rows(_hom_rows(years, filters), place, where)
    return int(len(rows))


def b23_hom_pct(*, years=None, filters=(), cond=(), place=None, where=None):
    """Percent of the (place, years, filters) homicides that also meet `cond`."""
    rows = _place_rows(_hom_rows(years, filters), place, where)
    return _r1(len(_apply_filters(rows, list(cond))) / len(rows) * 100)


def b23_hom_avg(*, years, filters=(), place=None, where=None, per="year"):
    """Average per year (count / number of years asked) or per month."""
    n = b23_hom_count(years=years, filters=filters, place=place, where=where)
    k = len(_years(years))
    if per == "month":
        k *= 12
    return _r1(n / k)


def b23_hom_change(*, years_a, years_b, filters=(), place=None, where=None, compare="pct"):
    a = b23_hom_count(years=years_a, filters=filters, place=place, where=where)
    b = b23_hom_count(years=years_b, filters=filters, place=place, where=where)
    if compare == "pct":
        return _r1((b / a - 1) * 100)
    if compare == "diff":
        return int(b - a)
    if compare == "ratio":
        return _r1(b / a)
    if compare == "neg_pct":
        return _r1(-(b / a - 1) * 100)
    raise ValueError(compare)


def b23_hom_pct_change(*, years_a, years_b, cond, filters=(), place=None, where=None):
    """Change in percentage points of a share (e.g. arrest rate) between two periods (b - a)."""
    a = _place_rows(_hom_rows(years_a, filters), place, where)
    b = _place_rows(_hom_rows(years_b, filters), place, where)
    pa = len(_apply_filters(a, list(cond))) / len(a) * 100
    pb = len(_apply_filters(b, list(cond))) / len(b) * 100
    return _r1(pb - pa)


def b23_hom_top(*, by, years=None, filters=(), place=None, where=None, rank=1, ret="label",
                order="desc"):
    """Group homicides by month/weekday/hour/year/loc/district/ward/ca and return the label
    (or count) at a rank (ties broken by the natural key order)."""
    rows = _place_rows(_hom_rows(years, filters), place, where)
    col = {"month": "month", "weekday": "wd", "hour": "hour", "year": "year", "loc": "loc",
           "district": "district", "ward": "ward", "ca": "ca"}[by]
    g = rows.dropna(subset=[col]).groupby(col).size()
    df = pd.DataFrame({"n": g, "k": g.index}).sort_values(["n", "k"], ascending=[order == "asc", True])
    key, n = df.index[rank - 1], int(df["n"].iloc[rank - 1])
    if ret == "count":
        return n
    if by == "month":
        return _MONTH_NAMES[int(key) - 1]
    if by == "weekday":
        return _WD_NAMES[int(key)]
    if by == "ca":
        return _name(int(key))
    return str(int(key)) if by in ("hour", "year", "district", "ward") else str(key)


def b23_city_rate(*, years, filters=()):
    rows = _hom_rows(years, filters)
    return _r1(len(rows) / sum(_city_pop_for_year(y) for y in _years(years)) * 1e5)


# --------------------------------------------------------------------------------------
# public: links (stations, ward offices, ZIPs, submarkets)
# --------------------------------------------------------------------------------------

def b23_ward_alder(*, ward):
    return str(_wards().loc[int(ward), "ALDERMAN"]).split(",")[0].strip()


def b23_ward_zip(*, ward):
    z = _wards().loc[int(ward), "ZIPCODE"]
    if pd.isna(z):
        raise ValueError("no zip")
    return str(z)


def b23_station_address(*, district):
    return str(_stations().loc[int(district), "ADDRESS"]).strip()


def b23_area_zip(*, area):
    return str(_area_main_zip(_area_num(area)))


def b23_area_submarket(*, area):
    return _submarket_name(_area_main_submarket_all().loc[_area_num(area)])


# --------------------------------------------------------------------------------------
# public: ZHVI
# --------------------------------------------------------------------------------------

def _zip_of(z) -> int:
    s = str(z)
    if s.lower().startswith("area:"):
        return _area_main_zip(_area_num(s.split(":", 1)[1]))
    if s.lower().startswith("ward_office:"):
        return int(_wards().loc[int(s.split(":")[1]), "ZIPCODE"])
    if s.lower().startswith("station:"):
        return int(_stations().loc[int(s.split(":")[1]), "ZIP"])
    return int(s)


def b23_zip_value(*, zip, month=None, year=None):
    z = _zhvi()
    zz = _zip_of(zip)
    if month is not None:
        v = z.loc[zz, month]
    else:
        cols = [c for c in z.columns if c.startswith(f"{year}-")]
        assert len(cols) == 12
        v = z.loc[zz, cols].mean()
    return _ri(v)


def b23_zip_change(*, zip, start, end, compare="pct"):
    z = _zhvi()
    zz = _zip_of(zip)
    a, b = z.loc[zz, start], z.loc[zz, end]
    if compare == "pct":
        return _r1((b / a - 1) * 100)
    return _ri(b - a)


def b23_zip_rank(*, measure="value", month=None, start=None, end=None, rank=1, order="desc",
                 ret="label"):
    z = _zhvi()
    if measure == "value":
        v = z[month]
    else:
        v = (z[end] / z[start] - 1) * 100
    v = v.dropna()
    df = pd.DataFrame({"v": v, "k": v.index}).sort_values(["v", "k"], ascending=[order == "asc", True])
    if ret == "label":
        return str(df.index[rank - 1])
    return _ri(df["v"].iloc[rank - 1]) if measure == "value" else _r1(df["v"].iloc[rank - 1])


# --------------------------------------------------------------------------------------
# public: IHS
# --------------------------------------------------------------------------------------

def _ihs_code(sub) -> str:
    s = str(sub)
    if re.fullmatch(r"p3\d\d\d", s) or s in ("COOK", "CHICAGO", "SUBURBS"):
        return s
    if s.lower().startswith("area:"):
        c = _area_submarket_series().loc[_area_num(s.split(":", 1)[1])]
        if pd.isna(c):
            raise ValueError("area's submarket not in index")
        return c
    i = _ihs()
    hit = i.loc[i["submarket_name"].str.lower() == s.lower(), "submarket_code"]
    if len(hit):
        return str(hit.iloc[0])
    raise ValueError(sub)


def _ihs_value(code: str, when: str) -> float:
    i = _ihs()
    i = i[i["submarket_code"] == code]
    when = str(when)
    if "Q" in when:
        v = i.loc[i["yearq"] == when, "index_2000q1_100"]
        assert len(v) == 1, (code, when)
        return float(v.iloc[0])
    v = i.loc[i["year"] == int(when), "index_2000q1_100"]
    assert len(v) == 4, (code, when)
    return float(v.mean())


def b23_ihs_value(*, submarket, when):
    return _r1(_ihs_value(_ihs_code(submarket), when))


def b23_ihs_change(*, submarket, start, end, compare="pct"):
    c = _ihs_code(submarket)
    a, b = _ihs_value(c, start), _ihs_value(c, end)
    if compare == "pct":
        return _r1((b / a - 1) * 100)
    return _r1(b - a)


def b23_ihs_peak(*, submarket, start=None, end=None, ret="label"):
    """Quarter with the highest index value (within optional yearq bounds)."""
    i = _ihs()
    i = i[i["submarket_code"] == _ihs_code(submarket)]
    if start:
        i = i[i["yearq"] >= start]
    if end:
        i = i[i["yearq"] <= end]
    r = i.sort_values(["index_2000q1_100", "yearq"], ascending=[False, True]).iloc[0]
    return str(r["yearq"]) if ret == "label" else _r1(r["index_2000q1_100"])


def b23_ihs_trough(*, submarket, start=None, end=None, ret="label"):
    i = _ihs()
    i = i[i["submarket_code"] == _ihs_code(submarket)]
    if start:
        i = i[i["yearq"] >= start]
    if end:
        i = i[i["yearq"] <= end]
    r = i.sort_values(["index_2000q1_100", "yearq"], ascending=[True, True]).iloc[0]
    return str(r["yearq"]) if ret == "label" else _r1(r["index_2000q1_100"])


_SUMMARY_FIELDS = {"since2000": "Change Since 2000", "peak": "Change Peak to Current",
                   "bottom": "Change Bottom to Current", "covid": "COVID-19 Pandemic Start to Current",
                   "yoy": "Year-over-year change", "price": "Median Sales Price"}


def b23_ihs_summary(*, submarket, field):
    s = _ihs_summary()
    v = s.loc[_ihs_code(submarket), _SUMMARY_FIELDS[field]]
    return _ri(v) if field == "price" else _r1(v)


def b23_ihs_summary_rank(*, field, rank=1, order="desc", chicago_only=True, ret="label"):
    s = _ihs_summary()
    if chicago_only:
        s = s[s.index >= "p3151"]
    col = _SUMMARY_FIELDS[field]
    df = s.assign(k=s.index).sort_values([col, "k"], ascending=[order == "asc", True])
    r = df.iloc[rank - 1]
    if ret == "label":
        return str(r["Sub Market"])
    return _ri(r[col]) if field == "price" else _r1(r[col])


def b23_ihs_rank(*, start, end, rank=1, order="desc", chicago_only=True, ret="label"):
    """Rank submarkets by percent change of the index between two periods."""
    i = _ihs()
    codes = sorted(i["submarket_code"].unique())
    codes = [c for c in codes if c.startswith("p")]
    if chicago_only:
        codes = [c for c in codes if c >= "p3151"]
    v = pd.Series({c: (_ihs_value(c, end) / _ihs_value(c, start) - 1) * 100 for c in codes})
    v = v.sort_values(ascending=(order == "asc"), kind="mergesort")
    if ret == "label":
        return _submarket_name(v.index[rank - 1])
    return _r1(v.iloc[rank - 1])


# --------------------------------------------------------------------------------------
# public: Redfin
# --------------------------------------------------------------------------------------

_RF_FIELDS = {"price": "Median Sale Price", "sold": "Homes Sold", "inventory": "Inventory",
              "dom": "Median Dom", "ppsf": "Median Sale Ppsf", "list_price": "Median List Price",
              "sale_to_list": "Avg Sale To List", "above_list": "Sold Above List",
              "new_listings": "New Listings", "supply": "months_of_supply",
              "pending": "pending_sales"}


def _rf_region(region: str) -> str:
    return region if region.startswith("Chicago, IL") else f"Chicago, IL - {region}"


def _rf_round(field, v):
    if pd.isna(v):
        raise ValueError("NaN")
    if field in ("price", "list_price", "sold", "inventory", "new_listings", "pending"):
        return _ri(v)
    if field in ("sale_to_list", "above_list"):
        return _r1(v * 100)
    return _r1(v)


def b23_redfin(*, region, field, period_end):
    r = _redfin()
    sub = r[(r["Region"] == _rf_region(region)) & (r["pe"] == period_end)]
    assert len(sub) == 1, (region, period_end, len(sub))
    return _rf_round(field, sub[_RF_FIELDS[field]].iloc[0])


def b23_redfin_change(*, region, field, start, end, compare="pct"):
    r = _redfin()
    reg = r[r["Region"] == _rf_region(region)].set_index("pe")[_RF_FIELDS[field]]
    a, b = reg.loc[start], reg.loc[end]
    if compare == "pct":
        return _r1((b / a - 1) * 100)
    return _rf_round(field, b - a)


def b23_redfin_city_year(*, field="sold", year, how="sum"):
    r = _redfin()
    c = r[(r["Region"] == "Chicago, IL") & r["pe"].str.startswith(str(year))]
    if len(c) != 12:
        raise ValueError(f"{year} has {len(c)} monthly rows")
    v = c[_RF_FIELDS[field]]
    if how == "sum":
        return _ri(v.sum())
    if how == "max_label":
        return _MONTH_NAMES[int(c.loc[v.idxmax(), "pe"][5:7]) - 1]
    return _rf_round(field, v.mean())


def _rf_neigh(period_end):
    r = _redfin()
    n = r[(r["Period Duration"] == 90) & (r["pe"] == period_end)]
    n = n[~n["Region"].isin(["Chicago, IL - Rosehill", "Chicago, IL - Wrightwood",
                             "Chicago, IL - Tri-Taylor", "Chicago, IL - Tri-taylor"])]
    assert n["Region"].is_unique
    return n


def b23_redfin_rank(*, field, period_end, rank=1, order="desc", min_sold=0, ret="label"):
    n = _rf_neigh(period_end)
    n = n[n["Homes Sold"] >= min_sold]
    col = _RF_FIELDS[field]
    n = n.dropna(subset=[col]).sort_values([col, "Region"], ascending=[order == "asc", True])
    r = n.iloc[rank - 1]
    if ret == "label":
        return r["Region"].replace("Chicago, IL - ", "")
    return _rf_round(field, r[col])


def b23_redfin_city_year_change(*, field="sold", year_a, year_b):
    """Percent change of the City of Chicago yearly Redfin total (sum of 12 monthly rows)."""
    a = b23_redfin_city_year(field=field, year=year_a)
    b = b23_redfin_city_year(field=field, year=year_b)
    return _r1((b / a - 1) * 100)
