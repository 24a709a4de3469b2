"""Expected answers for the blind24 held-out question set (Chicago public data).

Every public function is named ``b24_...``, takes keyword arguments only and returns ONE
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
  (blind24 adds 'max', 'min', 'range', 'count' and 'share_of_all' = the set's sum of the
  numerator / the sum over all 77 areas * 100, e.g. a set's share of the city population.)

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

Conventions added for blind24 (each question that relies on one states it)
-------------------------------------------------------------------------
* Top-N / bottom-N sets are taken over the areas with a value (NaN left out), ties broken
  by community-area number; every set used has no tie at its cut (asserted).  "Bottom" =
  lowest values.  "Set minus" = the first set without the members of the second.
* Concentration ("how few areas account for half of the city's homicides") = areas sorted
  by homicide count descending, smallest N whose cumulative count reaches >= the stated
  percent of the FULL city total (blank-CA rows included in the total).
* Calendar-day filters: "on July 4th" = rows whose Date month/day is 07-04 (every year
  asked); "Christmas Day" = 12-25.
* A peak label (month name / weekday name / 24h clock hour as text / year / location
  description / ward / district) = the group with the most rows; asked only where the top
  group is unique (asserted).  "Second-most" / "runner-up" = the 2nd group, also unique.
* A per-year series question ("2019, 2020, 2021 and 2022 ...") lists one figure per year,
  each its own expect entry; "each of them" questions list every label and every value.
* Share of a period sub-filter ("share of 2022's homicides in summer") = filtered rows /
  all rows of the same years * 100.  Share within a set ("what share of those areas'
  homicides happened on the street") = flagged rows in those areas / all rows in those
  areas * 100 (blank-CA rows are not in any set).
* "Share of the city's population" for a set = sum of the set's ACS total_population /
  sum over all 77 areas * 100 (how='share_of_all').
* Ratio of two groups' pooled rates = pooled rate of group A / pooled rate of group B;
  a difference of pooled arrest rates is in percentage points (A - B).
* Gap between first and runner-up = (value of #1 - value of #2) on unrounded values,
  then rounded.
* "Which ZIP ..." rankings use the raw ZHVI of the 55 ZIPs in the Zillow file (ZIPs with
  both months present for a change).  A ward office's ZIP is ward_offices.csv ZIPCODE.
* Chicago IHS submarkets = the "Chicago--" series (16 in the quarterly index, 17 in the
  2025 Q4 summary; p3160 Loop and Surrounding Areas is not in the index).  An IHS change
  between two years = (annual mean year2 / annual mean year1 - 1) * 100.  Peak / trough
  quarter = the single quarterly row with the highest / lowest value in the stated years.
* Redfin city median over a year = plain median of the 12 monthly "Chicago, IL"
  median-sale-price values; a peak month = the Period End month of the highest monthly
  value.  A Redfin neighbourhood "90 days ending <date>" = the row with that Period End.
* Percent of areas with zero homicides = areas with count 0 / 77 * 100.
* Unanswerable questions: data end 2023-07-19 (homicides), 2024-09 (ZHVI), 2019-10
  (Redfin); only IUCR 0110 first-degree murder; no victim age, weapon, or median household
  income fields; no 2000 census; districts 13/21/23 and wards > 50 do not exist; ZIP 60617
  and Redfin "Riverdale" are absent.  Where the question asks for a fallback the expect
  holds the fallback figure and ``declines`` the word the answer must name.

Measure strings (per community area)
------------------------------------
``hom:P``  homicide count; ``rate:P`` rate per 100k a year; ``arrest:P`` arrest %;
``domestic:P`` domestic %; ``dens:P`` homicides per sq mi; ``popdiff`` (ACS - POP2010, persons); ``hchg:Y0:Y1`` count change
(Y1 - Y0); ``se:<col>``; ``acs:<col>`` (shares in %, or counts for ``pop``/``households``/
``children_n``/``senior_n``); ``pop2010``; ``popchg``; ``zhvi:YYYY-MM``;
``zhvichg:YYYY-MM:YYYY-MM``; ``ihs:YEAR`` (the area's main submarket annual index);
``ihschg:Y0:Y1``; ``sqmi``.
A period P is ``YYYY`` or ``YYYY-YYYY`` followed by optional ``/``-separated filters:
``m7`` / ``m6-8`` (months), ``q3``, ``summer|winter|spring|fall``, ``weekend``,
``weekdays`` (Mon-Fri), ``wd:Mon,Tue``, ``h22-3`` (clock hours, wrapping), ``domestic``,
``nondomestic``, ``arrest``, ``noarrest``, ``loc:STREET,ALLEY``, ``day:07-04``.
Prefix ``neg|`` negates a measure (a fall as a positive number).

Where clauses (list, intersected): ``top~N~M``, ``bottom~N~M``, ``M>x``, ``M<x``, ``M>=x``,
``M<=x`` with x a number or ``city``/``median``/``mean``; ``not:<clause>``;
``in:A,B,C`` (area names or numbers); ``submarket~p31xx`` (main submarket).
"""
from __future__ import annotations

import functools
import math
import re

import numpy as np
import pandas as pd

from evals.expected import data_dir

MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"]
WD_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WD_ABBR = {n[:3].lower(): i for i, n in enumerate(WD_NAMES)}
SEASONS = {"winter": [12, 1, 2], "spring": [3, 4, 5], "summer": [6, 7, 8],
           "fall": [9, 10, 11], "autumn": [9, 10, 11]}
SE_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME ",
    "hardship": "HARDSHIP INDEX",
}
INCOME_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
                "_75_000_to_125_000", "_125_000"]
ACS_SHARE = {
    "white": ["white"], "black": ["black_or_african_american"], "asian": ["asian"],
    "hispanic": ["hispanic_or_latino"], "white_nh": ["white_not_hispanic_or_latino"],
    "other_race": ["other_race"], "multiracial": ["multiracial"],
    "children": ["male_0_to_17", "female_0_to_17"], "senior": ["male_65", "female_65"],
    "age18_24": ["male_18_to_24", "female_18_to_24"],
    "age25_34": ["male_25_to_34", "female_25_to_34"],
    "male": ["male_0_to_17", "male_18_to_24", "male_25_to_34", "male_35_to_49",
             "male_50_to_64", "male_65"],
}
ACS_BAND = {"inc_lt25": ["under_25_000"], "inc_25_50": ["_25_000_to_49_999"],
            "inc_50_75": ["_50_000_to_74_999"], "inc_75_125": ["_75_000_to_125_000"],
            "inc_125": ["_125_000"], "inc_lt50": ["under_25_000", "_25_000_to_49_999"],
            "inc_75plus": ["_75_000_to_125_000", "_125_000"]}
ACS_COUNT = {"pop": ["total_population"], "households": INCOME_BANDS,
             "children_n": ACS_SHARE["children"], "senior_n": ACS_SHARE["senior"],
             "black_n": ACS_SHARE["black"], "hispanic_n": ACS_SHARE["hispanic"]}


# --------------------------------------------------------------------------- loading
@functools.lru_cache(maxsize=None)
def _hom() -> pd.DataFrame:
    h = pd.read_csv(data_dir() / "homicides.csv", dtype=str)
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h.dt.dt.year
    h["month"] = h.dt.dt.month
    h["day"] = h.dt.dt.day
    h["wd"] = h.dt.dt.weekday
    h["hour"] = h.dt.dt.hour
    for c, n in (("Community Area", "ca"), ("Ward", "ward"), ("District", "district")):
        h[n] = pd.to_numeric(h[c], errors="coerce").astype("Int64")
    h["arrest"] = h["Arrest"].str.lower() == "true"
    h["domestic"] = h["Domestic"].str.lower() == "true"
    h["loc"] = h["Location Description"].fillna("")
    return h


@functools.lru_cache(maxsize=None)
def _areas() -> pd.DataFrame:
    ca = pd.read_csv(data_dir() / "community_areas.csv")
    ca["name"] = ca["community"].str.title()
    ca.loc[ca.community == "OHARE", "name"] = "O'Hare"
    ca.loc[ca.community == "MCKINLEY PARK", "name"] = "McKinley Park"
    return ca.set_index("area_number")


@functools.lru_cache(maxsize=None)
def _se() -> pd.DataFrame:
    se = pd.read_csv(data_dir() / "socioeconomic.csv")
    return se


@functools.lru_cache(maxsize=None)
def _acs() -> pd.DataFrame:
    acs = pd.read_csv(data_dir() / "census_acs.csv")
    ca = _areas().reset_index()
    m = dict(zip(ca.community, ca.area_number))
    acs["ca"] = acs["community_area"].map(m)
    assert acs["ca"].notna().all()
    return acs.set_index("ca")


@functools.lru_cache(maxsize=None)
def _pop2010() -> pd.Series:
    p = pd.read_csv(data_dir() / "census_population_2010.csv")
    return p.set_index("NID")["POP2010"].astype(float)


@functools.lru_cache(maxsize=None)
def _zipcw() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")


@functools.lru_cache(maxsize=None)
def _ihscw() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_ihs_submarket_crosswalk.csv")


@functools.lru_cache(maxsize=None)
def _zhvi() -> pd.DataFrame:
    z = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    z["ym"] = z.Year.astype(str) + "-" + z.Month.map("{:02d}".format)
    return z


@functools.lru_cache(maxsize=None)
def _ihs() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


@functools.lru_cache(maxsize=None)
def _ihs_summary() -> pd.DataFrame:
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    return s


@functools.lru_cache(maxsize=None)
def _redfin() -> pd.DataFrame:
    r = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["pe"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["pb"] = pd.to_datetime(r["Period Begin"], format="%m/%d/%Y")
    r["sale_price"] = r["Median Sale Price"].map(_money)
    return r


@functools.lru_cache(maxsize=None)
def _stations() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "police_stations.csv", dtype=str)


@functools.lru_cache(maxsize=None)
def _wards() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig")


def _money(s):
    if s is None or (isinstance(s, float) and math.isnan(s)):
        return np.nan
    s = str(s).strip().replace("$", "").replace(",", "")
    mult = 1
    if s.endswith("K"):
        mult, s = 1000, s[:-1]
    elif s.endswith("M"):
        mult, s = 1_000_000, s[:-1]
    return float(s) * mult


# --------------------------------------------------------------------------- helpers
def _area_id(a) -> int:
    """Area by number, name, or chain: 'district:7', 'wardoffice:17', 'zipmost:60620'."""
    if isinstance(a, (int, np.integer)):
        return int(a)
    s = str(a).strip()
    if s.isdigit():
        return int(s)
    if s.startswith("district:"):
        st = _stations()
        row = st[st.DISTRICT == s.split(":", 1)[1]]
        return int(row["COMMUNITY AREA"].iloc[0])
    if s.startswith("wardoffice:"):
        w = _wards()
        z = w.loc[w.WARD == int(s.split(":", 1)[1]), "ZIPCODE"].iloc[0]
        return _zip_most_area(int(z))
    if s.startswith("zipmost:"):
        return _zip_most_area(int(s.split(":", 1)[1]))
    ca = _areas()
    key = s.upper().replace("'", "")
    for num, row in ca.iterrows():
        if key in (row.community, row["name"].upper().replace("'", ""),
                   str(row.name_socioeconomic).upper().replace("'", "")):
            return int(num)
    raise KeyError(a)


def _zip_most_area(z: int) -> int:
    cw = _zipcw()
    sub = cw[cw.zip == z].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return int(sub.area_number.iloc[0])


def _name(n: int) -> str:
    return _areas().loc[int(n), "name"]


def _years(spec: str) -> list[int]:
    spec = spec.strip()
    if "-" in spec:
        a, b = spec.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(spec)]


def _filter_hom(period: str, df: pd.DataFrame | None = None) -> pd.DataFrame:
    h = _hom() if df is None else df
    parts = period.split("/")
    head = parts[0]
    if head != "all":
        h = h[h.year.isin(_years(head))]
    for f in parts[1:]:
        f = f.strip()
        if f in SEASONS:
            h = h[h.month.isin(SEASONS[f])]
        elif re.fullmatch(r"m\d+(-\d+)?", f):
            a, _, b = f[1:].partition("-")
            h = h[h.month.between(int(a), int(b or a))]
        elif re.fullmatch(r"q[1-4]", f):
            q = int(f[1])
            h = h[h.month.between(3 * q - 2, 3 * q)]
        elif f == "weekend":
            h = h[h.wd >= 5]
        elif f == "weekdays":
            h = h[h.wd < 5]
        elif f.startswith("wd:"):
            h = h[h.wd.isin([WD_ABBR[x.strip().lower()[:3]] for x in f[3:].split(",")])]
        elif re.fullmatch(r"h\d+-\d+", f):
            a, b = map(int, f[1:].split("-"))
            hrs = list(range(a, b + 1)) if a <= b else list(range(a, 24)) + list(range(0, b + 1))
            h = h[h.hour.isin(hrs)]
        elif f == "domestic":
            h = h[h.domestic]
        elif f == "nondomestic":
            h = h[~h.domestic]
        elif f == "arrest":
            h = h[h.arrest]
        elif f == "noarrest":
            h = h[~h.arrest]
        elif f.startswith("loc:"):
            h = h[h["loc"].isin([x.strip() for x in f[4:].split(",")])]
        elif f.startswith("day:"):
            mm, dd = map(int, f[4:].split("-"))
            h = h[(h.month == mm) & (h.day == dd)]
        else:
            raise ValueError(f"unknown filter {f}")
    return h


def _pop_years(period: str) -> pd.Series:
    """Sum over the period's years of each year's population, per area."""
    yrs = _years(period.split("/")[0])
    p10 = _pop2010()
    pacs = _acs()["total_population"].astype(float)
    tot = pd.Series(0.0, index=_areas().index)
    for y in yrs:
        tot = tot + (p10 if y <= 2015 else pacs).reindex(tot.index)
    return tot


def _city_pop_years(period: str) -> float:
    yrs = _years(period.split("/")[0])
    return sum(_pop2010().sum() if y <= 2015 else _acs()["total_population"].sum() for y in yrs)


def _by_area(h: pd.DataFrame) -> pd.Series:
    return h.dropna(subset=["ca"]).groupby("ca").size().reindex(_areas().index, fill_value=0).astype(float)


def _zhvi_area(ym: str) -> pd.Series:
    z = _zhvi()
    zm = z[z.ym == ym].set_index("RegionName")["price"].dropna()
    if zm.empty:
        raise ValueError(f"no ZHVI for {ym}")
    cw = _zipcw().copy()
    cw["v"] = cw.zip.map(zm)
    cw = cw.dropna(subset=["v"])
    g = cw.groupby("area_number").apply(
        lambda d: (d.v * d.share_of_community_area).sum() / d.share_of_community_area.sum(),
        include_groups=False)
    return g.reindex(_areas().index)


def _main_submarket() -> pd.Series:
    cw = _ihscw().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    return cw.drop_duplicates("area_number").set_index("area_number")["submarket_code"]


def _ihs_year(code: str, year: int, quarter: int | None = None) -> float:
    q = _ihs()
    sub = q[(q.submarket_code == code) & (q.year == int(year))]
    if quarter:
        sub = sub[sub.quarter == int(quarter)]
    if sub.empty:
        return np.nan
    if not quarter:
        assert len(sub) == 4, (code, year)
    return float(sub.index_2000q1_100.mean())


def _area_measure(kind: str, arg: str, idx):
    """The census, indicator and home-value measures of ``_measure``: (values, numerator, denominator, unit), or
    None for a kind it does not know."""
    num = den = None
    if kind == "se":
        se = _se().dropna(subset=["Community Area Number"])
        v = se.set_index(se["Community Area Number"].astype(int))[SE_COLS[arg]].astype(float)
        v = v.reindex(idx)
        unit = "money" if arg == "income" else "pct" if arg != "hardship" else "index"
    elif kind == "acs":
        acs = _acs().reindex(idx)
        if arg in ACS_SHARE:
            num = acs[ACS_SHARE[arg]].sum(axis=1)
            den = acs["total_population"]
            v, unit = num / den * 100, "pct"
        elif arg in ACS_BAND:
            num = acs[ACS_BAND[arg]].sum(axis=1)
            den = acs[INCOME_BANDS].sum(axis=1)
            v, unit = num / den * 100, "pct"
        elif arg in ACS_COUNT:
            num = acs[ACS_COUNT[arg]].sum(axis=1)
            v, unit = num, "count"
        else:
            raise ValueError(arg)
    elif kind == "pop2010":
        num = _pop2010().reindex(idx)
        v, unit = num, "count"
    elif kind == "popchg":
        num = _acs()["total_population"].reindex(idx) - _pop2010().reindex(idx)
        den = _pop2010().reindex(idx)
        v, unit = num / den * 100, "pct"
    elif kind == "popdiff":
        num = _acs()["total_population"].reindex(idx) - _pop2010().reindex(idx)
        v, unit = num, "count"
    elif kind == "sqmi":
        v, unit = _areas()["area_sq_mi"].astype(float), "ratio"
        num = v
    elif kind == "zhvi":
        v, unit = _zhvi_area(arg), "money"
    elif kind == "zhvichg":
        a, b = arg.split(":")
        v, unit = (_zhvi_area(b) / _zhvi_area(a) - 1) * 100, "pct"
    elif kind == "ihs":
        sm = _main_submarket()
        v = pd.Series({a: _ihs_year(sm[a], int(arg)) for a in idx})
        unit = "index"
    elif kind == "ihschg":
        y0, y1 = arg.split(":")
        sm = _main_submarket()
        v = pd.Series({a: _ihs_year(sm[a], int(y1)) / _ihs_year(sm[a], int(y0)) * 100 - 100
                       for a in idx})
        unit = "pct"
    else:
        return None
    return v, num, den, unit


# --------------------------------------------------------------------------- measures
def _measure(m: str):
    """Return (values per area, numerator, denominator, unit).

    unit in {'count','money','pct','rate','index','ratio'}; num/den may be None."""
    neg = m.startswith("neg|")
    if neg:
        m = m[4:]
    kind, _, arg = m.partition(":")
    idx = _areas().index
    num = den = None
    if kind == "hom":
        num = _by_area(_filter_hom(arg))
        v, unit = num, "count"
    elif kind == "rate":
        num = _by_area(_filter_hom(arg))
        den = _pop_years(arg) / 1e5
        v, unit = num / den, "rate"
    elif kind in ("arrest", "domestic"):
        h = _filter_hom(arg)
        den = _by_area(h)
        num = _by_area(h[h[kind]])
        v, unit = (num / den.replace(0, np.nan)) * 100, "pct"
    elif kind == "dens":
        num = _by_area(_filter_hom(arg))
        den = _areas()["area_sq_mi"].astype(float)
        v, unit = num / den, "ratio"
    elif kind == "hchg":
        y0, y1 = arg.split(":")
        v, unit = _by_area(_filter_hom(y1)) - _by_area(_filter_hom(y0)), "count"
        num = v
    else:
        found = _area_measure(kind, arg, idx)
        if found is None:
            raise ValueError(m)
        v, num, den, unit = found
    v = v.astype(float)
    if neg:
        v = -v
    return v, num, den, unit


def _round(x: float, unit: str, how: str = "value"):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        raise ValueError("NaN result")
    if unit == "money" or (unit == "count" and how in ("value", "sum", "max", "min", "count")):
        return int(round(float(x)))
    return round(float(x), 1)


def _city_value(measure: str) -> float:
    kind, _, arg = measure.partition(":")
    if kind == "rate":
        return len(_filter_hom(arg)) / _city_pop_years(arg) * 1e5
    if kind in ("arrest", "domestic"):
        h = _filter_hom(arg)
        return h[kind].mean() * 100
    if kind == "se":
        se = _se()
        return float(se.loc[se["COMMUNITY AREA NAME"] == "CHICAGO", SE_COLS[arg]].iloc[0])
    if kind == "acs":
        v, num, den, unit = _measure(measure)
        return num.sum() / den.sum() * 100
    if kind == "popchg":
        return (_acs()["total_population"].sum() / _pop2010().sum() - 1) * 100
    if kind == "dens":
        return len(_filter_hom(arg)) / _areas()["area_sq_mi"].sum()
    raise ValueError(f"no city value for {measure}")


def _rank_series(v: pd.Series, ascending: bool) -> pd.Series:
    v = v.dropna()
    df = pd.DataFrame({"v": v, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[ascending, True])
    return df["v"]


def _clause(c: str) -> set[int]:
    allidx = set(_areas().index)
    if c.startswith("not:"):
        return allidx - _clause(c[4:])
    if c.startswith("in:"):
        return {_area_id(x) for x in c[3:].split(",")}
    if c.startswith("submarket~"):
        sm = _main_submarket()
        return set(sm[sm == c.split("~", 1)[1]].index)
    if c.startswith("top~") or c.startswith("bottom~"):
        d, n, m = c.split("~", 2)
        v, *_ = _measure(m)
        s = _rank_series(v, ascending=(d == "bottom"))
        n = int(n)
        assert len(s) <= n or s.iloc[n - 1] != s.iloc[n], f"tie at the cut of {c}"
        return set(s.index[:n])
    mt = re.fullmatch(r"(.+?)(>=|<=|>|<)(.+)", c)
    if not mt:
        raise ValueError(c)
    m, op, x = mt.groups()
    v, *_ = _measure(m)
    v = v.dropna()
    if x == "city":
        thr = _city_value(m)
    elif x == "median":
        thr = v.median()
    elif x == "mean":
        thr = v.mean()
    else:
        thr = float(x)
    f = {">": v > thr, "<": v < thr, ">=": v >= thr, "<=": v <= thr}[op]
    return set(v[f].index)


def _where(where) -> list[int]:
    s = set(_areas().index)
    for c in where or []:
        s &= _clause(c)
    return sorted(s)


def _set_stat(where, measure, how):
    v, num, den, unit = _measure(measure)
    ids = _where(where)
    if how == "count":
        return len(ids), "count", "count"
    vv = v.reindex(ids).dropna()
    if how == "sum":
        base = num if num is not None else v
        return base.reindex(ids).sum(), unit, "sum"
    if how == "mean":
        return vv.mean(), unit, "mean"
    if how == "median":
        return vv.median(), unit, "median"
    if how == "max":
        return vv.max(), unit, "max"
    if how == "min":
        return vv.min(), unit, "min"
    if how == "range":
        return vv.max() - vv.min(), unit, "range"
    if how == "pooled":
        if num is None:
            raise ValueError(f"pooled undefined for {measure}")
        if den is None:
            return num.reindex(ids).sum(), unit, "sum"
        r = num.reindex(ids).sum() / den.reindex(ids).sum()
        if unit == "pct":
            r *= 100
        return r, unit, "pooled"
    if how == "share_of_all":
        base = num if num is not None else v
        return base.reindex(ids).sum() / base.sum() * 100, "pct", "share_of_all"
    if how == "city_share":
        kind, _, arg = measure.partition(":")
        assert kind == "hom"
        return num.reindex(ids).sum() / len(_filter_hom(arg)) * 100, "pct", "city_share"
    raise ValueError(how)


# --------------------------------------------------------------------------- public API
def b24_area_value(*, area, measure):
    """One area's value of a measure (area may be a chain like 'district:7')."""
    v, num, den, unit = _measure(measure)
    return _round(v.loc[_area_id(area)], unit)


def b24_area_name(*, area):
    """Label of an area, incl. chains ('district:7', 'wardoffice:17', 'zipmost:60620')."""
    return _name(_area_id(area))


def b24_area_zip(*, area):
    """The ZIP an area lies in (largest share_of_community_area)."""
    cw = _zipcw()
    sub = cw[cw.area_number == _area_id(area)].sort_values(
        ["share_of_community_area", "zip"], ascending=[False, True])
    return str(int(sub.zip.iloc[0]))


def b24_zip_zhvi(*, zip, month):
    z = _zhvi()
    v = z[(z.RegionName == int(zip)) & (z.ym == month)]["price"]
    return _round(float(v.iloc[0]), "money")


def b24_zip_zhvi_change(*, zip, start, end):
    z = _zhvi()
    a = z[(z.RegionName == int(zip)) & (z.ym == start)]["price"].iloc[0]
    b = z[(z.RegionName == int(zip)) & (z.ym == end)]["price"].iloc[0]
    return _round((b / a - 1) * 100, "pct")


def b24_zip_rank(*, month, rank=1, ascending=False, value=False, change_from=None):
    """ZIP ranked by ZHVI in a month (or by % change from change_from to month)."""
    z = _zhvi()
    v = z[z.ym == month].set_index("RegionName")["price"]
    unit = "money"
    if change_from:
        v0 = z[z.ym == change_from].set_index("RegionName")["price"]
        v = (v / v0 - 1) * 100
        unit = "pct"
    v = v.dropna()
    df = pd.DataFrame({"v": v, "z": v.index}).sort_values(["v", "z"], ascending=[ascending, True])
    row = df.iloc[rank - 1]
    return _round(row.v, unit) if value else str(int(row.z))


def b24_area_submarket(*, area):
    cw = _ihscw()
    sub = cw[cw.area_number == _area_id(area)].sort_values("share_of_community_area", ascending=False)
    return sub.submarket_name_2023.iloc[0]


def _ihs_code(sub) -> str:
    q = _ihs()
    s = str(sub)
    if s in set(q.submarket_code):
        return s
    if s.upper() in ("CHICAGO", "COOK", "SUBURBS"):
        return s.upper()
    names = q.drop_duplicates("submarket_code").set_index("submarket_name")["submarket_code"]
    for n, c in names.items():
        if n.lower() == s.lower() or n.lower() == ("chicago--" + s).lower():
            return c
    try:
        return _main_submarket()[_area_id(s)]
    except KeyError:
        raise KeyError(sub)


def b24_ihs(*, submarket, year, quarter=None):
    """IHS index (2000Q1=100): annual mean of 4 quarters, or a single quarter.
    submarket: code, name, CHICAGO/COOK/SUBURBS, or 'area:<community area>' (main submarket)."""
    s = str(submarket)
    code = _main_submarket()[_area_id(s[5:])] if s.startswith("area:") else _ihs_code(s)
    v = _ihs_year(code, int(year), quarter)
    return _round(v, "index")


def b24_ihs_change(*, submarket, start, end, start_q=None, end_q=None):
    """Percent change of the IHS index between two years (annual means) or quarters."""
    s = str(submarket)
    code = _main_submarket()[_area_id(s[5:])] if s.startswith("area:") else _ihs_code(s)
    a = _ihs_year(code, int(start), start_q)
    b = _ihs_year(code, int(end), end_q)
    return _round((b / a - 1) * 100, "pct")


def b24_ihs_rank(*, year, rank=1, ascending=False, value=False, chicago_only=True,
                 start=None, quarter=None, start_q=None):
    """Rank IHS submarkets (Chicago--p316x/p315x only by default) by the annual index or by
    percent change from ``start`` to ``year``."""
    q = _ihs()
    q = q[q.submarket_code.str.startswith("p")]
    if chicago_only:
        q = q[q.submarket_name.str.startswith("Chicago--")]
    codes = q.drop_duplicates("submarket_code").set_index("submarket_code")["submarket_name"]
    vals = {}
    for c in codes.index:
        b = _ihs_year(c, int(year), quarter)
        vals[c] = (b / _ihs_year(c, int(start), start_q) - 1) * 100 if start else b
    v = pd.Series(vals).sort_values(ascending=ascending, kind="mergesort")
    c = v.index[rank - 1]
    return _round(v.iloc[rank - 1], "pct" if start else "index") if value else codes[c]


def b24_ihs_peak(*, submarket, value=False, lowest=False, start_year=None, end_year=None):
    """Quarter (label 'YYYYQn') with the highest (or lowest) index for a submarket."""
    code = _ihs_code(submarket)
    q = _ihs()
    sub = q[q.submarket_code == code]
    if start_year:
        sub = sub[sub.year >= int(start_year)]
    if end_year:
        sub = sub[sub.year <= int(end_year)]
    sub = sub.sort_values(["index_2000q1_100", "yearq"], ascending=[lowest, True])
    row = sub.iloc[0]
    return _round(row.index_2000q1_100, "index") if value else row.yearq


def b24_ihs_summary(*, submarket, column):
    s = _ihs_summary()
    code = _ihs_code(submarket) if not str(submarket).startswith("area:") else \
        _main_submarket()[_area_id(str(submarket)[5:])]
    row = s[s.Number == code].iloc[0]
    val = row[column]
    if column == "Median Sales Price":
        return _round(_money(val), "money")
    return _round(float(str(val).strip().rstrip("%")), "pct")


def b24_ihs_summary_rank(*, column, rank=1, ascending=False, value=False, chicago_only=True):
    s = _ihs_summary().copy()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    if column == "Median Sales Price":
        s["v"] = s[column].map(_money)
    else:
        s["v"] = s[column].str.strip().str.rstrip("%").astype(float)
    s = s.sort_values(["v", "Number"], ascending=[ascending, True])
    row = s.iloc[rank - 1]
    if value:
        return _round(row.v, "money" if column == "Median Sales Price" else "pct")
    return row["Sub Market"]


def b24_redfin(*, region, month, field="sale_price"):
    """Redfin value for a region in the row whose Period End falls in ``month`` (YYYY-MM)."""
    r = _redfin()
    reg = "Chicago, IL" if region == "Chicago, IL" else f"Chicago, IL - {region}"
    sub = r[(r.Region == reg) & (r.pe.dt.strftime("%Y-%m") == month)]
    assert len(sub) == 1, (region, month, len(sub))
    v = sub.iloc[0][field]
    unit = "money" if field in ("sale_price", "Median List Price") else \
        "count" if field in ("Homes Sold", "Inventory", "New Listings", "Median Dom") else "pct"
    if field in ("Avg Sale To List", "Sold Above List", "off_market_in_two_weeks"):
        v = v * 100
    return _round(v, unit)


def b24_redfin_city_year(*, year, field="Homes Sold", agg="sum"):
    """'Chicago, IL' monthly rows whose Period End is in ``year``: sum / median / mean."""
    r = _redfin()
    sub = r[(r.Region == "Chicago, IL") & (r.pe.dt.year == int(year))]
    assert len(sub) == 12, (year, len(sub))
    col = sub[field]
    v = {"sum": col.sum(), "median": col.median(), "mean": col.mean(), "max": col.max()}[agg]
    unit = "money" if field in ("sale_price", "Median List Price") else "count"
    if agg == "mean" and unit == "count":
        unit = "rate"
    return _round(v, unit, "sum" if unit == "count" else "value")


def b24_redfin_city_peak(*, year, field="sale_price", value=False):
    """Month name (Period End month) with the highest value of ``field`` in ``year``."""
    r = _redfin()
    sub = r[(r.Region == "Chicago, IL") & (r.pe.dt.year == int(year))].sort_values(
        [field, "pe"], ascending=[False, True])
    assert sub[field].iloc[0] != sub[field].iloc[1], "tie"
    if value:
        return _round(sub[field].iloc[0], "money" if field == "sale_price" else "count")
    return MONTH_NAMES[sub.pe.iloc[0].month - 1]


def b24_hom_stat(*, period, stat="count", area=None, district=None, ward=None, where=None):
    """City / area / district / ward homicide figure over a period.

    stat: count | arrest (pct) | domestic (pct) | rate (area or city, per 100k a year) |
    per_year (count / number of years) | share (pct of the city's total over the same
    years, before the ``/`` filters: e.g. '2022/summer' -> summer 2022 / all of 2022)."""
    h = _filter_hom(period)
    base_city = _filter_hom(period.split("/")[0])
    if area is not None:
        h = h[h.ca == _area_id(area)]
    if district is not None:
        h = h[h.district == int(district)]
    if ward is not None:
        h = h[h.ward == int(ward)]
    if where is not None:
        h = h[h.ca.isin(_where(where))]
    if stat == "count":
        return len(h)
    if stat in ("arrest", "domestic"):
        return _round(h[stat].mean() * 100, "pct")
    if stat == "per_year":
        return _round(len(h) / len(_years(period.split("/")[0])), "rate")
    if stat == "share":
        return _round(len(h) / len(base_city) * 100, "pct")
    if stat == "rate":
        if area is not None:
            pop = _pop_years(period).loc[_area_id(area)]
        elif where is not None:
            pop = _pop_years(period).reindex(_where(where)).sum()
        else:
            assert district is None and ward is None
            pop = _city_pop_years(period)
        return _round(len(h) / pop * 1e5, "rate")
    raise ValueError(stat)


def b24_hom_compare(*, a, b, op="pct_change"):
    """Compare two homicide figures, each a kwargs dict for b24_hom_stat (unrounded count
    basis).  op: diff (b - a), ratio (a / b), pct_change ((b / a - 1) * 100),
    share (a / b * 100, e.g. a subset of b), pct_fall ((1 - b / a) * 100)."""
    def cnt(d):
        h = _filter_hom(d["period"])
        if d.get("area") is not None:
            h = h[h.ca == _area_id(d["area"])]
        if d.get("district") is not None:
            h = h[h.district == int(d["district"])]
        if d.get("ward") is not None:
            h = h[h.ward == int(d["ward"])]
        if d.get("where") is not None:
            h = h[h.ca.isin(_where(d["where"]))]
        return len(h)
    x, y = cnt(a), cnt(b)
    if op == "diff":
        return y - x
    if op == "ratio":
        return _round(x / y, "ratio")
    if op == "pct_change":
        return _round((y / x - 1) * 100, "pct")
    if op == "share":
        return _round(x / y * 100, "pct")
    if op == "pct_fall":
        return _round((1 - y / x) * 100, "pct")
    raise ValueError(op)


def b24_peak(*, period, by="month", rank=1, value=False, area=None, district=None,
             ward=None, where=None):
    """Group label (month name / weekday name / hour / year / location / district / ward /
    community area) with the rank-th most homicides, or its count.  Only for unique tops."""
    h = _filter_hom(period)
    if area is not None:
        h = h[h.ca == _area_id(area)]
    if district is not None:
        h = h[h.district == int(district)]
    if ward is not None:
        h = h[h.ward == int(ward)]
    if where is not None:
        h = h[h.ca.isin(_where(where))]
    key = {"month": "month", "weekday": "wd", "hour": "hour", "year": "year",
           "location": "loc", "district": "district", "ward": "ward", "area": "ca"}[by]
    g = h.dropna(subset=[key]).groupby(key).size()
    df = pd.DataFrame({"n": g, "k": g.index}).sort_values(["n", "k"], ascending=[False, True])
    n0 = df.n.iloc[rank - 1]
    assert (df.n == n0).sum() == 1, f"tie at rank {rank}: {df.head(rank + 2)}"
    k = df.k.iloc[rank - 1]
    if value:
        return int(n0)
    if by == "month":
        return MONTH_NAMES[int(k) - 1]
    if by == "weekday":
        return WD_NAMES[int(k)]
    if by == "area":
        return _name(int(k))
    if by in ("hour", "year", "district", "ward"):
        return str(int(k))
    return str(k)


def b24_lowest_year(*, years, area=None, value=False, where=None):
    """Year with the fewest homicides within ``years`` (unique), or that count."""
    h = _filter_hom(years)
    if area is not None:
        h = h[h.ca == _area_id(area)]
    if where is not None:
        h = h[h.ca.isin(_where(where))]
    g = h.groupby("year").size().reindex(_years(years), fill_value=0)
    m = g.min()
    assert (g == m).sum() == 1
    return int(m) if value else str(int(g.idxmin()))


def b24_years_over(*, years, threshold, area=None, where=None):
    """Number of years in ``years`` with strictly more than ``threshold`` homicides."""
    h = _filter_hom(years)
    if area is not None:
        h = h[h.ca == _area_id(area)]
    if where is not None:
        h = h[h.ca.isin(_where(where))]
    g = h.groupby("year").size().reindex(_years(years), fill_value=0)
    return int((g > threshold).sum())


def b24_set_stat(*, where, measure, how="pooled"):
    val, unit, h = _set_stat(where, measure, how)
    return _round(val, unit, h)


def b24_set_count(*, where):
    return len(_where(where))


def b24_pct_areas(*, where, measure):
    """Percent of the areas with a value of ``measure`` that meet ``where``."""
    v, *_ = _measure(measure)
    valued = set(v.dropna().index)
    return _round(len(valued & set(_where(where))) / len(valued) * 100, "pct")


def b24_set_ratio(*, where_a, where_b, measure, how="pooled", op="ratio"):
    """Compare a statistic between two area sets: ratio a/b or diff a-b."""
    a, unit, h = _set_stat(where_a, measure, how)
    b, _, _ = _set_stat(where_b, measure, how)
    if op == "ratio":
        return _round(a / b, "ratio")
    if op == "diff":
        return _round(a - b, unit, h)
    raise ValueError(op)


def b24_top(*, measure, rank=1, ascending=False, value=False, where=None):
    """The rank-th area by a measure (descending unless ascending), within an optional set."""
    v, num, den, unit = _measure(measure)
    if where:
        v = v.reindex(_where(where))
    s = _rank_series(v, ascending)
    if len(s) > rank:
        assert s.iloc[rank - 1] != s.iloc[rank], f"tie at rank {rank} for {measure}"
    if rank > 1:
        assert s.iloc[rank - 2] != s.iloc[rank - 1], f"tie at rank {rank} for {measure}"
    if value:
        return _round(s.iloc[rank - 1], unit)
    return _name(s.index[rank - 1])


def b24_top_gap(*, measure, ascending=False, where=None):
    """Gap between the first and second area of a ranking (first - second, as a positive
    number for a descending ranking)."""
    v, num, den, unit = _measure(measure)
    if where:
        v = v.reindex(_where(where))
    s = _rank_series(v, ascending)
    return _round(abs(s.iloc[0] - s.iloc[1]), unit)


def b24_top_then(*, rank_measure, measure, rank=1, ascending=False, where=None):
    """Value of ``measure`` in the rank-th area by ``rank_measure``."""
    v, *_ = _measure(rank_measure)
    if where:
        v = v.reindex(_where(where))
    s = _rank_series(v, ascending)
    if len(s) > rank:
        assert s.iloc[rank - 1] != s.iloc[rank], "tie"
    a = s.index[rank - 1]
    return b24_area_value(area=int(a), measure=measure)


def b24_rank_of(*, area, measure, ascending=False, where=None):
    """Position (1 = highest unless ascending) of an area among areas with a value."""
    v, *_ = _measure(measure)
    if where:
        v = v.reindex(_where(where))
    s = _rank_series(v, ascending)
    a = _area_id(area)
    val = s.loc[a]
    assert (s == val).sum() == 1, "tie"
    return int(list(s.index).index(a) + 1)


def b24_corr(*, x, y, method="pearson", where=None):
    vx, *_ = _measure(x)
    vy, *_ = _measure(y)
    df = pd.DataFrame({"x": vx, "y": vy}).dropna()
    if where:
        df = df.reindex(_where(where)).dropna()
    if method == "spearman":
        r = df.x.rank().corr(df.y.rank())
    else:
        r = df.x.corr(df.y)
    return round(float(r), 2)


def b24_city(*, measure):
    """City-wide figure: rate:P, arrest:P, domestic:P, se:<col>, acs:<share>, popchg, dens:P."""
    kind = measure.split(":")[0]
    unit = "money" if measure == "se:income" else "rate" if kind == "rate" else "pct"
    if kind == "dens":
        unit = "ratio"
    return _round(_city_value(measure), unit)


def b24_compare(*, a, b, measure, op="diff"):
    """Compare two areas on a measure: diff (a - b), ratio (a / b), pct_change ((b/a-1)*100)."""
    v, num, den, unit = _measure(measure)
    x, y = v.loc[_area_id(a)], v.loc[_area_id(b)]
    if op == "diff":
        return _round(x - y, unit)
    if op == "ratio":
        return _round(x / y, "ratio")
    if op == "pct_change":
        return _round((y / x - 1) * 100, "pct")
    raise ValueError(op)


def b24_areas_to_share(*, period, share=50.0):
    """Smallest number of areas (most homicides first) whose combined count reaches
    >= share % of the full city total over the period."""
    h = _filter_hom(period)
    total = len(h)
    s = _rank_series(_by_area(h), ascending=False).cumsum()
    return int((s < share / 100 * total).sum() + 1)


def b24_ward_alder(*, ward):
    w = _wards()
    return w.loc[w.WARD == int(ward), "ALDERMAN"].iloc[0].split(",")[0].strip()


def b24_ward_zip(*, ward):
    w = _wards()
    return str(int(w.loc[w.WARD == int(ward), "ZIPCODE"].iloc[0]))


def b24_district_name(*, district):
    st = _stations()
    return st.loc[st.DISTRICT == str(district), "DISTRICT NAME"].iloc[0]


def b24_district_rank(*, period, rank=1, value=False, stat="count", min_rows=0):
    """District ranked by homicide count (or arrest %, among districts with >= min_rows)."""
    h = _filter_hom(period).dropna(subset=["district"])
    g = h.groupby("district")
    if stat == "count":
        v = g.size().astype(float)
        unit = "count"
    else:
        n = g.size()
        v = (g[stat].mean() * 100)[n >= min_rows]
        unit = "pct"
    df = pd.DataFrame({"v": v, "k": v.index}).sort_values(["v", "k"], ascending=[False, True])
    assert df.v.iloc[rank - 1] != df.v.iloc[rank]
    if rank > 1:
        assert df.v.iloc[rank - 2] != df.v.iloc[rank - 1]
    return _round(df.v.iloc[rank - 1], unit) if value else str(int(df.k.iloc[rank - 1]))
