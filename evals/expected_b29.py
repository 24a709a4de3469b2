"""Expected answers for the blind29 held-out question set (Chicago public data).

Every public function is named ``b29_...``, takes keyword arguments only and returns ONE
value: a number rounded as the conventions say, or a label string.  Data are loaded with
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

Conventions added for blind29 (each question that relies on one states it)
-------------------------------------------------------------------------
* "Top/bottom quartile" of areas is stated in the question as an explicit count (the 19
  areas with the highest / lowest value), never a percentile cut.
* Homicide-count change for a set between two years = sum of later-year counts minus sum
  of earlier-year counts (set fixed beforehand).
* Holidays are calendar dates of ``Date`` (July 4 = month 7 day 4; Christmas Day = 12-25;
  New Year's Day = 01-01), summed over the years asked.
* "Night" when a question uses it is stated with explicit hours.
* A share of a set's homicides ("what share of those areas' homicides were domestic")
  is pooled: flagged rows in the set / all rows in the set * 100.
* The ZIP-level Zillow value of a month is the raw ZHVI row of that ZIP (no weighting);
  a ZIP's change over a span = (later / earlier - 1) * 100.
* Redfin neighbourhood annual figure "median sale price averaged over the 90-day windows
  ending in year Y" = plain mean of the converted Median Sale Price of rows whose Period
  End falls in Y (questions say "average of the rolling windows ending in Y").
* Set-level arrest share/domestic share ``how='pooled'`` is on rows; ``how='mean'`` is
  the mean of per-area percentages (areas with zero homicides have no value).
* "Areas whose main IHS submarket is X" = areas whose largest-overlap submarket
  (share_of_community_area) is X.
* Population density = ACS 2019-2023 total_population / area_sq_mi.
* A ratio of two set figures ("how many times higher") is computed from the unrounded
  set figures.
* A ward's homicides = rows whose Ward field equals it (whatever ward map the record
  carries); a police district's homicides = rows whose District field equals it.
* Rank positions: 1 = highest unless the question says 1 = lowest; "second-most" = rank 2.
* "Average per year" of a month or weekday = its count over the years asked / number of
  years.
"""
from __future__ import annotations

import functools
import math
import re

import numpy as np
import pandas as pd

from evals.expected import data_dir

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
SEASONS = {"winter": [12, 1, 2], "spring": [3, 4, 5], "summer": [6, 7, 8],
           "autumn": [9, 10, 11], "fall": [9, 10, 11]}

SE_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME ",
    "hardship": "HARDSHIP INDEX",
}
SE_INT = {"income", "hardship"}

INC_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
             "_75_000_to_125_000", "_125_000"]
ACS_GROUPS = {
    "white": ["white"],
    "black": ["black_or_african_american"],
    "asian": ["asian"],
    "hispanic": ["hispanic_or_latino"],
    "white_nh": ["white_not_hispanic_or_latino"],
    "other_race": ["other_race"],
    "multiracial": ["multiracial"],
    "65plus": ["male_65", "female_65"],
    "children": ["male_0_to_17", "female_0_to_17"],
    "18to24": ["male_18_to_24", "female_18_to_24"],
    "25to34": ["male_25_to_34", "female_25_to_34"],
    "male": ["male_0_to_17", "male_18_to_24", "male_25_to_34", "male_35_to_49",
             "male_50_to_64", "male_65"],
    "female": ["female_0_to_17", "female_18_to_24", "female_25_to_34", "female_35_to_49",
               "female_50_to_64", "female_65"],
}
INC_GROUPS = {
    "inc_under25": ["under_25_000"],
    "inc_25to50": ["_25_000_to_49_999"],
    "inc_under50": ["under_25_000", "_25_000_to_49_999"],
    "inc_75plus": ["_75_000_to_125_000", "_125_000"],
    "inc_125plus": ["_125_000"],
}


# --------------------------------------------------------------------------- loading
def _p(name):
    return data_dir() / name


def _title(name: str) -> str:
    special = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    if name in special:
        return special[name]
    return " ".join(w.capitalize() for w in name.split())


@functools.lru_cache(maxsize=None)
def _areas() -> pd.DataFrame:
    a = pd.read_csv(_p("community_areas.csv"))
    a["name"] = a["community"].map(_title)
    pop = pd.read_csv(_p("census_population_2010.csv")).rename(columns={"NID": "area_number"})
    a = a.merge(pop, on="area_number", how="left")
    acs = pd.read_csv(_p("census_acs.csv"))
    a = a.merge(acs, left_on="community", right_on="community_area", how="left")
    se = pd.read_csv(_p("socioeconomic.csv"))
    se = se[se["Community Area Number"].notna()].copy()
    se["area_number"] = se["Community Area Number"].astype(int)
    a = a.merge(se, on="area_number", how="left")
    assert len(a) == 77 and a["total_population"].notna().all() and a["POP2010"].notna().all()
    return a.set_index("area_number").sort_index()


@functools.lru_cache(maxsize=None)
def _se_city() -> pd.Series:
    se = pd.read_csv(_p("socioeconomic.csv"))
    return se[se["COMMUNITY AREA NAME"] == "CHICAGO"].iloc[0]


@functools.lru_cache(maxsize=None)
def _hom() -> pd.DataFrame:
    h = pd.read_csv(_p("homicides.csv"))
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h["dt"].dt.year
    h["month"] = h["dt"].dt.month
    h["day"] = h["dt"].dt.day
    h["wd"] = h["dt"].dt.dayofweek
    h["hour"] = h["dt"].dt.hour
    h["ca"] = h["Community Area"].astype("Int64")
    h["ward"] = h["Ward"].astype("Int64")
    h["district"] = h["District"].astype("Int64")
    h["loc"] = h["Location Description"].fillna("").str.upper()
    return h


@functools.lru_cache(maxsize=None)
def _zipx() -> pd.DataFrame:
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _ihsx() -> pd.DataFrame:
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _zhvi() -> pd.DataFrame:
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: f"{m:02d}")
    return z


@functools.lru_cache(maxsize=None)
def _ihs() -> pd.DataFrame:
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_summary() -> pd.DataFrame:
    return pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))


@functools.lru_cache(maxsize=None)
def _stations() -> pd.DataFrame:
    s = pd.read_csv(_p("police_stations.csv"))
    s = s[s["DISTRICT"] != "Headquarters"].copy()
    s["district"] = s["DISTRICT"].astype(int)
    return s.set_index("district")


@functools.lru_cache(maxsize=None)
def _wards() -> pd.DataFrame:
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")
    return w.set_index("WARD").sort_index()


@functools.lru_cache(maxsize=None)
def _redfin() -> pd.DataFrame:
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["sale_price"] = r["Median Sale Price"].map(_money_k)
    return r


def _money_k(s):
    if not isinstance(s, str) or not s.strip():
        return np.nan
    s = s.strip().replace("$", "").replace(",", "")
    mult = 1
    if s.endswith("K"):
        mult, s = 1_000, s[:-1]
    elif s.endswith("M"):
        mult, s = 1_000_000, s[:-1]
    return float(s) * mult


# --------------------------------------------------------------------------- helpers
_BORDER: list = []  # values that sat on a rounding half-way point (checked by check.py)


def _rnd(x, nd=1):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return float("nan")
    frac = abs(float(x)) * 10 ** nd
    if abs(frac - math.floor(frac) - 0.5) < 1e-7:
        _BORDER.append(float(x))
    if nd == 0:
        return int(round(float(x)))
    return round(float(x), nd)


def _years(spec) -> list[int]:
    if isinstance(spec, int):
        return [spec]
    if isinstance(spec, (list, tuple)):
        return [int(y) for y in spec]
    spec = str(spec)
    if "-" in spec:
        a, b = spec.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(spec)]


def _area_id(area) -> int:
    """Area given as number, name, 'district:N' (station's area) or 'ward:N'
    (area covering most of the ward office's ZIP) or 'zip:NNNNN' (area covering most of
    the ZIP)."""
    if isinstance(area, (int, np.integer)):
        return int(area)
    s = str(area).strip()
    if s.isdigit():
        return int(s)
    low = s.lower()
    if low.startswith("district:"):
        return int(_stations().loc[int(s.split(":")[1]), "COMMUNITY AREA"])
    if low.startswith("ward:"):
        z = _wards().loc[int(s.split(":")[1]), "ZIPCODE"]
        if pd.isna(z):
            raise ValueError("ward office has no ZIP")
        return _zip_main_area(int(z))
    if low.startswith("zip:"):
        return _zip_main_area(int(s.split(":")[1]))
    a = _areas()
    key = re.sub(r"[^a-z]", "", low)
    for n, row in a.iterrows():
        if key in (re.sub(r"[^a-z]", "", row["name"].lower()),
                   re.sub(r"[^a-z]", "", row["community"].lower())):
            return int(n)
    raise ValueError(f"unknown community area {area!r}")


def _zip_main_area(z: int) -> int:
    x = _zipx()
    x = x[x["zip"] == z]
    if x.empty:
        raise ValueError(f"ZIP {z} not in crosswalk")
    x = x.sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return int(x.iloc[0]["area_number"])


def _area_main_zip(aid: int) -> int:
    x = _zipx()
    x = x[x["area_number"] == aid].sort_values(["share_of_community_area", "zip"],
                                               ascending=[False, True])
    return int(x.iloc[0]["zip"])


def _area_main_submarket(aid: int) -> str:
    x = _ihsx()
    x = x[x["area_number"] == aid].sort_values("share_of_community_area", ascending=False)
    return str(x.iloc[0]["submarket_code"])


def _zip_id(z) -> int:
    s = str(z)
    if s.lower().startswith("area:"):
        return _area_main_zip(_area_id(s.split(":", 1)[1]))
    if s.lower().startswith("ward:"):
        zz = _wards().loc[int(s.split(":")[1]), "ZIPCODE"]
        if pd.isna(zz):
            raise ValueError("ward office has no ZIP")
        return int(zz)
    if s.lower().startswith("district:"):
        return int(_stations().loc[int(s.split(":")[1]), "ZIP"])
    return int(s)


def _name(aid: int) -> str:
    return _areas().loc[aid, "name"]


# --------------------------------------------------------------------------- homicide filters
def _filter(h: pd.DataFrame, flt: str | None) -> pd.DataFrame:
    """Filters joined by '+': domestic, nondomestic, arrest, noarrest, loc=A/B, weekend,
    weekdays, wd=Saturday, hours=22-3, months=6-8 or months=7, season=summer, quarter=3,
    md=07-04 (calendar day), from=YYYY-MM-DD, to=YYYY-MM-DD (inclusive)."""
    if not flt:
        return h
    for tok in str(flt).split("+"):
        tok = tok.strip()
        if not tok:
            continue
        if tok == "domestic":
            h = h[h["Domestic"]]
        elif tok == "nondomestic":
            h = h[~h["Domestic"]]
        elif tok == "arrest":
            h = h[h["Arrest"]]
        elif tok == "noarrest":
            h = h[~h["Arrest"]]
        elif tok.startswith("loc="):
            locs = [l.strip().upper() for l in tok[4:].split("/")]
            h = h[h["loc"].isin(locs)]
        elif tok.startswith("locx="):
            # several location strings joined by '|' (for names containing '/')
            locs = [l.strip().upper() for l in tok[5:].split("|")]
            h = h[h["loc"].isin(locs)]
        elif tok == "weekend":
            h = h[h["wd"] >= 5]
        elif tok == "weekdays":
            h = h[h["wd"] < 5]
        elif tok.startswith("wd="):
            days = [WEEKDAYS.index(d.strip().capitalize()) for d in tok[3:].split("/")]
            h = h[h["wd"].isin(days)]
        elif tok.startswith("hours="):
            a, b = [int(v) for v in tok[6:].split("-")]
            hrs = list(range(a, b + 1)) if a <= b else list(range(a, 24)) + list(range(0, b + 1))
            h = h[h["hour"].isin(hrs)]
        elif tok.startswith("months="):
            v = tok[7:]
            if "-" in v:
                a, b = [int(x) for x in v.split("-")]
                ms = list(range(a, b + 1))
            else:
                ms = [int(x) for x in v.split("/")]
            h = h[h["month"].isin(ms)]
        elif tok.startswith("season="):
            h = h[h["month"].isin(SEASONS[tok[7:]])]
        elif tok.startswith("quarter="):
            q = int(tok[8:])
            h = h[h["month"].isin([3 * q - 2, 3 * q - 1, 3 * q])]
        elif tok.startswith("md="):
            m, d = [int(x) for x in tok[3:].split("-")]
            h = h[(h["month"] == m) & (h["day"] == d)]
        elif tok.startswith("from="):
            h = h[h["dt"] >= pd.Timestamp(tok[5:])]
        elif tok.startswith("to="):
            h = h[h["dt"] < pd.Timestamp(tok[3:]) + pd.Timedelta(days=1)]
        else:
            raise ValueError(f"unknown filter {tok}")
    return h


def _hom_rows(years=None, flt=None) -> pd.DataFrame:
    h = _hom()
    if years is not None:
        ys = _years(years)
        if max(ys) > 2023 or min(ys) < 2001:
            raise ValueError("years outside data range 2001-2023")
        h = h[h["year"].isin(ys)]
    return _filter(h, flt)


def _pop_year(aid_index, y) -> pd.Series:
    a = _areas()
    col = "POP2010" if y <= 2015 else "total_population"
    return a.loc[aid_index, col].astype(float)


# --------------------------------------------------------------------------- measures
def _split_measure(measure: str):
    flt = None
    if "@" in measure:
        measure, flt = measure.split("@", 1)
    parts = measure.split(":")
    return parts[0], parts[1:], flt


@functools.lru_cache(maxsize=None)
def _measure_frame(measure: str) -> pd.DataFrame:
    """Per-area frame indexed by area number with columns num, den, val, poolable.

    Measures:
      hom:YEARS[@flt]       homicide count (num=count, den=1)
      rate:YEARS[@flt]      homicides per 100,000 a year (population by vintage)
      density:YEARS[@flt]   homicides per square mile
      arrest:YEARS[@flt]    % of homicides with arrest
      domestic:YEARS[@flt]  % of homicides domestic
      share:YEARS:FLT2[@flt] % of the area's homicides (matching flt) that also match FLT2
      homchg:Y0:Y1[@flt]    count(Y1) - count(Y0)
      homchgpct:Y0:Y1       (count Y1 / count Y0 - 1) * 100
      ratechg:Y0:Y1         rate(Y1) - rate(Y0)
      se:COL                socioeconomic indicator (2008-2012)
      acs:pop               ACS 2019-2023 total population
      acs:GROUP             ACS share (race/age %, income-band %)
      acscount:GROUP        ACS count of that group
      pop2010               2010 census population
      popchg                % change POP2010 -> ACS
      sqmi                  area in square miles
      popdens               ACS residents per square mile (integer)
      zhvi:YYYY-MM          weighted ZHVI home value
      zhvichg:YYYY-MM:YYYY-MM   % change of the weighted value
      ihs:YEAR | ihs:YYYYQn index of the area's main IHS submarket
      ihschg:Y0:Y1          % change of that submarket's annual index
    """
    kind, args, flt = _split_measure(measure)
    a = _areas()
    idx = a.index
    df = pd.DataFrame(index=idx, columns=["num", "den", "scale"], dtype=float)
    df["scale"] = 1.0
    if kind in ("hom", "rate", "density", "arrest", "domestic", "share", "homchg", "homchgpct", "ratechg"):
        poolable = _fill_homicides(df, kind, args, flt, a)
    else:
        poolable = _fill_places(df, kind, args, a, measure)
    df["val"] = df["num"] / df["den"] * df["scale"]
    df["poolable"] = poolable
    return df


def _fill_homicides(df: pd.DataFrame, kind: str, args: list, flt, a: pd.DataFrame) -> bool:
    """The homicide measures' num/den/scale (counts, rates, densities, shares, changes); whether they pool."""
    idx = a.index
    poolable = True
    if kind in ("hom", "rate", "density", "arrest", "domestic", "share"):
        ys = _years(args[0])
        h = _hom_rows(ys, flt)
        h = h[h["ca"].notna()]
        cnt = h.groupby("ca").size().reindex(idx, fill_value=0).astype(float)
        if kind == "hom":
            df["num"], df["den"] = cnt, 1.0
        elif kind == "rate":
            den = sum(_pop_year(idx, y) for y in ys)
            df["num"], df["den"], df["scale"] = cnt, den, 1e5
        elif kind == "density":
            df["num"], df["den"] = cnt, a["area_sq_mi"].astype(float)
        elif kind in ("arrest", "domestic"):
            col = "Arrest" if kind == "arrest" else "Domestic"
            k = h[h[col]].groupby("ca").size().reindex(idx, fill_value=0).astype(float)
            df["num"], df["den"], df["scale"] = k, cnt.replace(0, np.nan), 100.0
        else:  # share
            k = _filter(h, args[1]).groupby("ca").size().reindex(idx, fill_value=0).astype(float)
            df["num"], df["den"], df["scale"] = k, cnt.replace(0, np.nan), 100.0
    else:  # homchg, homchgpct, ratechg
        y0, y1 = int(args[0]), int(args[1])
        c0 = _measure_frame(f"{'rate' if kind == 'ratechg' else 'hom'}:{y0}" + (f"@{flt}" if flt else ""))
        c1 = _measure_frame(f"{'rate' if kind == 'ratechg' else 'hom'}:{y1}" + (f"@{flt}" if flt else ""))
        if kind == "homchg":
            df["num"], df["den"] = c1["num"] - c0["num"], 1.0
        elif kind == "homchgpct":
            df["num"], df["den"] = c1["num"] - c0["num"], c0["num"].replace(0, np.nan)
            df["scale"] = 100.0
        else:
            df["num"], df["den"] = c1["val"] - c0["val"], 1.0
            poolable = False
    return poolable


def _fill_places(df: pd.DataFrame, kind: str, args: list, a: pd.DataFrame, measure: str) -> bool:
    """The census, indicator and home-value measures' num/den/scale; whether they pool."""
    idx = a.index
    poolable = True
    if kind == "se":
        df["num"], df["den"] = a[SE_COLS[args[0]]].astype(float), 1.0
        poolable = False
    elif kind == "acs" and args[0] == "pop":
        df["num"], df["den"] = a["total_population"].astype(float), 1.0
    elif kind == "acs":
        g = args[0]
        if g in ACS_GROUPS:
            df["num"] = a[ACS_GROUPS[g]].sum(axis=1).astype(float)
            df["den"] = a["total_population"].astype(float)
        else:
            df["num"] = a[INC_GROUPS[g]].sum(axis=1).astype(float)
            df["den"] = a[INC_BANDS].sum(axis=1).astype(float)
        df["scale"] = 100.0
    elif kind == "acscount":
        g = args[0]
        cols = ACS_GROUPS.get(g) or INC_GROUPS[g]
        df["num"], df["den"] = a[cols].sum(axis=1).astype(float), 1.0
    elif kind == "pop2010":
        df["num"], df["den"] = a["POP2010"].astype(float), 1.0
    elif kind == "popchg":
        df["num"] = (a["total_population"] - a["POP2010"]).astype(float)
        df["den"] = a["POP2010"].astype(float)
        df["scale"] = 100.0
    elif kind == "sqmi":
        df["num"], df["den"] = a["area_sq_mi"].astype(float), 1.0
    elif kind == "popdens":
        df["num"], df["den"] = a["total_population"].astype(float), a["area_sq_mi"].astype(float)
    elif kind == "zhvi":
        df["num"], df["den"] = _area_zhvi(args[0]), 1.0
        poolable = False
    elif kind == "zhvichg":
        v0, v1 = _area_zhvi(args[0]), _area_zhvi(args[1])
        df["num"], df["den"], df["scale"] = v1 - v0, v0, 100.0
        poolable = False
    elif kind == "ihs":
        df["num"] = pd.Series({i: _ihs_value(_area_main_submarket(i), args[0]) for i in idx})
        df["den"] = 1.0
        poolable = False
    elif kind == "ihschg":
        v0 = pd.Series({i: _ihs_value(_area_main_submarket(i), args[0]) for i in idx})
        v1 = pd.Series({i: _ihs_value(_area_main_submarket(i), args[1]) for i in idx})
        df["num"], df["den"], df["scale"] = v1 - v0, v0, 100.0
        poolable = False
    else:
        raise ValueError(f"unknown measure {measure}")
    return poolable


def _area_zhvi(ym: str) -> pd.Series:
    z = _zhvi()
    zm = z[z["ym"] == ym][["RegionName", "price"]].dropna()
    if zm.empty:
        raise ValueError(f"no ZHVI for {ym}")
    x = _zipx().merge(zm, left_on="zip", right_on="RegionName", how="inner")
    x["wv"] = x["price"] * x["share_of_community_area"]
    g = x.groupby("area_number").agg(wv=("wv", "sum"), w=("share_of_community_area", "sum"))
    return (g["wv"] / g["w"]).reindex(_areas().index)


def _ihs_value(code: str, period) -> float:
    s = _ihs()
    s = s[s["submarket_code"] == code]
    if s.empty:
        return float("nan")
    p = str(period)
    if "Q" in p:
        r = s[s["yearq"] == p]
        if r.empty:
            raise ValueError(f"no IHS quarter {p}")
        return float(r["index_2000q1_100"].iloc[0])
    r = s[s["year"] == int(p)]
    if len(r) != 4:
        raise ValueError(f"IHS year {p} incomplete")
    return float(r["index_2000q1_100"].mean())


def _digits(measure: str) -> int:
    kind, args, _ = _split_measure(measure)
    if kind in ("hom", "homchg", "pop2010", "acscount", "zhvi", "popdens") or \
            (kind == "acs" and args and args[0] == "pop") or \
            (kind == "se" and args[0] in SE_INT):
        return 0
    return 1


def _is_money(measure: str) -> bool:
    kind, args, _ = _split_measure(measure)
    return kind == "zhvi" or (kind == "se" and args[0] == "income")


def _values(measure: str) -> pd.Series:
    return _measure_frame(measure)["val"].dropna()


def _city_value(measure: str) -> float:
    kind, args, flt = _split_measure(measure)
    a = _areas()
    if kind in ("hom", "rate", "arrest", "domestic", "share"):
        ys = _years(args[0])
        h = _hom_rows(ys, flt)
        n = len(h)
        if kind == "hom":
            return float(n)
        if kind == "rate":
            den = sum(a["POP2010" if y <= 2015 else "total_population"].sum() for y in ys)
            return n / den * 1e5
        if kind == "arrest":
            return h["Arrest"].mean() * 100
        if kind == "domestic":
            return h["Domestic"].mean() * 100
        return len(_filter(h, args[1])) / n * 100
    if kind == "se":
        return float(_se_city()[SE_COLS[args[0]]])
    if kind in ("acs", "popchg", "popdens", "density", "acscount", "pop2010"):
        f = _measure_frame(measure)
        if kind == "density":  # city density uses all rows (blank CA incl.)
            ys = _years(args[0])
            return len(_hom_rows(ys, flt)) / a["area_sq_mi"].sum()
        return float(f["num"].sum() / f["den"].sum() * f["scale"].iloc[0])
    raise ValueError(f"no city value for {measure}")


# --------------------------------------------------------------------------- area sets
def _resolve_threshold(measure: str, thr):
    if isinstance(thr, (int, float)):
        return float(thr)
    t = str(thr)
    if t == "city":
        return _city_value(measure)
    if t == "median":
        return float(_values(measure).median())
    if t == "mean":
        return float(_values(measure).mean())
    return float(t)


def _ranked(measure: str, desc=True, universe=None) -> list[int]:
    v = _values(measure)
    if universe is not None:
        v = v[v.index.isin(universe)]
    df = v.rename("v").reset_index().rename(columns={"index": "area_number"})
    df.columns = ["area_number", "v"]
    df = df.sort_values(["v", "area_number"], ascending=[not desc, True])
    return df["area_number"].tolist()


def _one_set(spec: str, universe: set[int]) -> set[int]:
    """top~N~M | bottom~N~M | gt~M~T | ge~M~T | lt~M~T | le~M~T | in~A|B|C |
    submarket~pXXXX | not~<spec> | all.  Rankings for top/bottom are taken within the
    current universe (the sets listed before it)."""
    if spec == "all":
        return set(_areas().index)
    if spec.startswith("not~"):
        return set(_areas().index) - _one_set(spec[4:], set(_areas().index))
    op, rest = spec.split("~", 1)
    if op in ("top", "bottom"):
        n, m = rest.split("~", 1)
        return set(_ranked(m, desc=(op == "top"), universe=universe)[: int(n)])
    if op in ("gt", "ge", "lt", "le", "eq"):
        m, thr = rest.rsplit("~", 1)
        t = _resolve_threshold(m, thr)
        v = _values(m)
        cmp = {"gt": v > t, "ge": v >= t, "lt": v < t, "le": v <= t, "eq": v == t}[op]
        return set(v[cmp].index)
    if op == "in":
        return {_area_id(x) for x in rest.split("|")}
    if op == "submarket":
        return {i for i in _areas().index if _area_main_submarket(i) == rest}
    raise ValueError(f"unknown set spec {spec}")


def _area_set(where) -> list[int]:
    if where is None:
        where = ["all"]
    if isinstance(where, str):
        where = [where]
    s = set(_areas().index)
    for spec in where:
        s = s & _one_set(spec, s)
    return sorted(s)


# --------------------------------------------------------------------------- public API
def b29_area_value(*, area, measure):
    """One area's value of a measure (area may be a name, number, 'district:N', 'ward:N',
    'zip:NNNNN')."""
    aid = _area_id(area)
    v = _measure_frame(measure).loc[aid, "val"]
    return _rnd(v, _digits(measure))


def b29_city_value(*, measure):
    """City-wide figure (homicide rows incl. blank CA; socioeconomic CHICAGO row; ACS sums)."""
    return _rnd(_city_value(measure), _digits(measure))


def b29_set_stat(*, where, measure, how="pooled"):
    """Statistic of a measure over an area set: pooled | sum | mean | median | max | min |
    city_share | range."""
    ids = _area_set(where)
    f = _measure_frame(measure).loc[ids]
    v = f["val"].dropna()
    nd = _digits(measure)
    money = _is_money(measure)
    if how == "pooled":
        if not bool(f["poolable"].iloc[0]) or (f["den"].eq(1).all() and f["scale"].eq(1).all()):
            raise ValueError(f"{measure} cannot be pooled")
        ff = f.dropna(subset=["num", "den"])
        return _rnd(ff["num"].sum() / ff["den"].sum() * ff["scale"].iloc[0], 1)
    if how == "sum":
        return _rnd(f["num"].sum(), nd)
    if how in ("mean", "median"):
        x = v.mean() if how == "mean" else v.median()
        return _rnd(x, 0 if money else 1)
    if how == "max":
        return _rnd(v.max(), nd)
    if how == "min":
        return _rnd(v.min(), nd)
    if how == "range":
        return _rnd(v.max() - v.min(), nd)
    if how == "city_share":
        kind, args, flt = _split_measure(measure)
        if kind != "hom":
            raise ValueError("city_share needs a hom: measure")
        total = len(_hom_rows(_years(args[0]), flt))
        return _rnd(f["num"].sum() / total * 100, 1)
    raise ValueError(how)


def b29_set_count(*, where):
    """Number of community areas in a set."""
    return len(_area_set(where))


def b29_set_percent(*, where, of=None):
    """Percent of areas (of the universe ``of``, default all 77) that are in ``where``."""
    base = _area_set(of) if of else list(_areas().index)
    sub = set(_area_set(where)) & set(base)
    return _rnd(len(sub) / len(base) * 100, 1)


def b29_rank_label(*, measure, rank=1, order="desc", where=None):
    """Name of the area at position ``rank`` of a ranking (within an optional set)."""
    ids = _area_set(where)
    r = _ranked(measure, desc=(order == "desc"), universe=set(ids))
    return _name(r[rank - 1])


def b29_rank_value(*, measure, rank=1, order="desc", where=None):
    """Value at position ``rank`` of the ranking."""
    ids = _area_set(where)
    r = _ranked(measure, desc=(order == "desc"), universe=set(ids))
    return b29_area_value(area=r[rank - 1], measure=measure)


def b29_rank_of(*, area, measure, order="desc", where=None):
    """Position (1 = highest for desc) of an area in the ranking."""
    ids = _area_set(where)
    r = _ranked(measure, desc=(order == "desc"), universe=set(ids))
    return r.index(_area_id(area)) + 1


def b29_corr(*, x, y, method="pearson", where=None):
    ids = _area_set(where)
    df = pd.concat([_measure_frame(x)["val"].rename("x"), _measure_frame(y)["val"].rename("y")],
                   axis=1).loc[ids].dropna().astype(float)
    if method == "spearman":
        df = df.rank()
    return _rnd(df["x"].corr(df["y"]), 2)


def b29_homicides(*, years, where=None, area=None, ward=None, district=None):
    """Homicide count for a period (``where`` = filter string, see _filter) city-wide or for
    one community area / ward / police district."""
    h = _hom_rows(years, where)
    if area is not None:
        h = h[h["ca"] == _area_id(area)]
    if ward is not None:
        h = h[h["ward"] == int(ward)]
    if district is not None:
        h = h[h["district"] == int(district)]
    return int(len(h))


def b29_homicides_per_year(*, years, where=None, area=None, ward=None, district=None):
    """Average homicides per year = count over the years asked / number of years."""
    n = b29_homicides(years=years, where=where, area=area, ward=ward, district=district)
    return _rnd(n / len(_years(years)), 1)


def b29_hom_share(*, years, part, where=None, area=None, ward=None, district=None):
    """Percent of the homicides (period, filter ``where``, place) that also match ``part``."""
    h = _hom_rows(years, where)
    if area is not None:
        h = h[h["ca"] == _area_id(area)]
    if ward is not None:
        h = h[h["ward"] == int(ward)]
    if district is not None:
        h = h[h["district"] == int(district)]
    return _rnd(len(_filter(h, part)) / len(h) * 100, 1)


def b29_set_hom_share(*, where, years, part, flt=None):
    """Pooled percent of the homicides in an area set matching ``part``."""
    ids = _area_set(where)
    h = _hom_rows(years, flt)
    h = h[h["ca"].isin(ids)]
    return _rnd(len(_filter(h, part)) / len(h) * 100, 1)


def b29_hom_top(*, by, years, where=None, areas=None, rank=1, value="label", ward=None,
                district=None, area=None):
    """Group homicides by month | weekday | hour | location | year | ward | district |
    community_area | quarter | season and return the label (or count, or per_year =
    count / number of years) at ``rank``.
    ``areas`` restricts to an area set.  Ties broken by the group key order."""
    h = _hom_rows(years, where)
    if areas is not None:
        h = h[h["ca"].isin(_area_set(areas))]
    if area is not None:
        h = h[h["ca"] == _area_id(area)]
    if ward is not None:
        h = h[h["ward"] == int(ward)]
    if district is not None:
        h = h[h["district"] == int(district)]
    key = {"month": "month", "weekday": "wd", "hour": "hour", "location": "loc", "year": "year",
           "ward": "ward", "district": "district", "community_area": "ca"}.get(by)
    if by == "quarter":
        g = ((h["month"] - 1) // 3 + 1).value_counts()
    elif by == "season":
        inv = {m: s for s, ms in SEASONS.items() if s != "fall" for m in ms}
        g = h["month"].map(inv).value_counts()
    else:
        g = h[key].dropna().value_counts()
    df = g.rename("n").reset_index()
    df.columns = ["k", "n"]
    df = df.sort_values(["n", "k"], ascending=[False, True])
    k, n = df.iloc[rank - 1]["k"], int(df.iloc[rank - 1]["n"])
    if value == "count":
        return n
    if value == "per_year":
        return _rnd(n / len(_years(years)), 1)
    if by == "month":
        return MONTHS[int(k) - 1]
    if by == "weekday":
        return WEEKDAYS[int(k)]
    if by == "community_area":
        return _name(int(k))
    if by == "quarter":
        return f"Q{int(k)}"
    if by in ("hour", "year", "ward", "district"):
        return str(int(k))
    return str(k)


def b29_link(*, kind, key):
    """Label lookups: district_area (station's area name), district_name, ward_alder
    (surname), ward_zip, ward_area (area covering most of the ward office ZIP),
    area_zip (main ZIP), zip_area (area covering most of ZIP), area_submarket (name)."""
    if kind == "district_area":
        return _name(int(_stations().loc[int(key), "COMMUNITY AREA"]))
    if kind == "district_name":
        return str(_stations().loc[int(key), "DISTRICT NAME"])
    if kind == "ward_alder":
        return _wards().loc[int(key), "ALDERMAN"].split(",")[0].strip()
    if kind == "ward_zip":
        z = _wards().loc[int(key), "ZIPCODE"]
        if pd.isna(z):
            raise ValueError("no ZIP")
        return str(int(z))
    if kind == "ward_area":
        return _name(_area_id(f"ward:{key}"))
    if kind == "area_zip":
        return str(_area_main_zip(_area_id(key)))
    if kind == "zip_area":
        return _name(_zip_main_area(int(key)))
    if kind == "area_submarket":
        code = _area_main_submarket(_area_id(key))
        s = _ihs()
        r = s[s["submarket_code"] == code]
        if r.empty:
            return code
        return str(r["submarket_name"].iloc[0])
    raise ValueError(kind)


def b29_zip_zhvi(*, zip, month):
    """Raw ZHVI of a ZIP ('area:NAME' = that area's main ZIP) for YYYY-MM, integer."""
    z = _zhvi()
    r = z[(z["RegionName"] == _zip_id(zip)) & (z["ym"] == month)]
    if r.empty or r["price"].isna().all():
        raise ValueError("no ZHVI value")
    return _rnd(r["price"].iloc[0], 0)


def b29_zip_zhvi_change(*, zip, start, end):
    z = _zhvi()
    zz = _zip_id(zip)
    v0 = z[(z["RegionName"] == zz) & (z["ym"] == start)]["price"].iloc[0]
    v1 = z[(z["RegionName"] == zz) & (z["ym"] == end)]["price"].iloc[0]
    return _rnd((v1 / v0 - 1) * 100, 1)


def b29_zip_rank(*, start, end=None, rank=1, order="desc", value="label", zips=None):
    """Rank ZIPs by ZHVI in ``start`` (end None) or by % change start -> end."""
    z = _zhvi()
    a = z[z["ym"] == start].set_index("RegionName")["price"]
    if end is not None:
        b = z[z["ym"] == end].set_index("RegionName")["price"]
        v = ((b / a - 1) * 100).dropna()
    else:
        v = a.dropna()
    if zips is not None:
        v = v[v.index.isin([int(x) for x in zips])]
    df = v.rename("v").reset_index().sort_values(["v", "RegionName"],
                                                  ascending=[order != "desc", True])
    row = df.iloc[rank - 1]
    if value == "label":
        return str(int(row["RegionName"]))
    return _rnd(row["v"], 1 if end is not None else 0)


def b29_ihs(*, submarket, period):
    """IHS index: submarket code, 'CHICAGO', 'COOK', 'SUBURBS' or 'area:NAME' (the area's
    main submarket); period 'YYYY' (mean of 4 quarters) or 'YYYYQn'."""
    s = str(submarket)
    code = _area_main_submarket(_area_id(s.split(":", 1)[1])) if s.lower().startswith("area:") else s
    v = _ihs_value(code, period)
    if math.isnan(v):
        raise ValueError(f"submarket {code} not in the index")
    return _rnd(v, 1)


def b29_ihs_change(*, submarket, start, end):
    s = str(submarket)
    code = _area_main_submarket(_area_id(s.split(":", 1)[1])) if s.lower().startswith("area:") else s
    v0, v1 = _ihs_value(code, start), _ihs_value(code, end)
    return _rnd((v1 / v0 - 1) * 100, 1)


def b29_ihs_rank(*, period, end=None, rank=1, order="desc", value="label", chicago_only=True):
    """Rank IHS submarkets (Chicago-- ones only by default) by index level or % change."""
    s = _ihs()
    codes = s[s["submarket_code"].str.startswith("p")]
    if chicago_only:
        codes = codes[codes["is_chicago"] == 1]
    codes = sorted(codes["submarket_code"].unique())
    vals = {}
    for c in codes:
        v0 = _ihs_value(c, period)
        vals[c] = v0 if end is None else (_ihs_value(c, end) / v0 - 1) * 100
    ser = pd.Series(vals)
    df = ser.rename("v").reset_index().sort_values(["v", "index"], ascending=[order != "desc", True])
    row = df.iloc[rank - 1]
    if value == "label":
        return str(s[s["submarket_code"] == row["index"]]["submarket_name"].iloc[0])
    return _rnd(row["v"], 1)


def b29_ihs_summary(*, submarket, column):
    """Value from the 2025 Q4 IHS summary table (percentages as numbers, price as integer).
    submarket = code or 'area:NAME'."""
    s = str(submarket)
    code = _area_main_submarket(_area_id(s.split(":", 1)[1])) if s.lower().startswith("area:") else s
    t = _ihs_summary()
    r = t[t["Number"] == code]
    if r.empty:
        raise ValueError(f"{code} not in summary")
    v = str(r[column].iloc[0]).strip()
    if column == "Median Sales Price":
        return int(float(v.replace("$", "").replace(",", "")))
    return _rnd(float(v.replace("%", "")), 1)


def b29_redfin(*, region, measure="sale_price", period_end=None, year=None, how="mean"):
    """Redfin figure for a region ('Chicago, IL' or neighbourhood name). measure:
    sale_price | homes_sold | dom | inventory | list_price | sale_to_list.  With period_end
    (M/D/YYYY or YYYY-MM-DD) returns that row's value; with ``year`` aggregates rows whose
    Period End falls in the year (how = sum | mean | median)."""
    r = _redfin()
    reg = region if region.startswith("Chicago, IL") else f"Chicago, IL - {region}"
    rr = r[r["Region"] == reg]
    if rr.empty:
        raise ValueError(f"no Redfin region {region}")
    col = {"sale_price": "sale_price", "homes_sold": "Homes Sold", "dom": "Median Dom",
           "inventory": "Inventory", "list_price": "Median List Price",
           "sale_to_list": "Avg Sale To List", "new_listings": "New Listings"}[measure]
    if period_end is not None:
        x = rr[rr["end"] == pd.Timestamp(period_end)]
        if x.empty:
            raise ValueError("no row for that period end")
        v = float(x[col].iloc[0])
    else:
        x = rr[rr["end"].dt.year == int(year)]
        if region == "Chicago, IL" and len(x) != 12:
            raise ValueError("incomplete year")
        if x.empty:
            raise ValueError("no rows for that year")
        v = getattr(x[col], how)()
    if measure == "sale_to_list":
        return _rnd(v * 100, 1)
    if measure == "dom" and how != "sum":
        return _rnd(v, 1)
    return _rnd(v, 0)


def b29_compare(*, a, b, op="diff"):
    """Combine two figures, each given as [function_name, {kwargs}]:
    diff = a - b, ratio = a / b, pct = (a / b - 1) * 100, fall_pct = (1 - a / b) * 100
    (b is the earlier/base figure), share = a / b * 100."""
    va = globals()[a[0]](**a[1])
    vb = globals()[b[0]](**b[1])
    va, vb = float(va), float(vb)
    if op == "diff":
        d = va - vb
        return _rnd(d, 0) if float(d).is_integer() else _rnd(d, 1)
    if op == "ratio":
        return _rnd(va / vb, 1)
    if op == "pct":
        return _rnd((va / vb - 1) * 100, 1)
    if op == "fall_pct":
        return _rnd((1 - va / vb) * 100, 1)
    if op == "share":
        return _rnd(va / vb * 100, 1)
    raise ValueError(op)


def b29_compare_raw(*, a, b, op="ratio"):
    """Like b29_compare but on unrounded per-area / set values: a and b are
    [measure, area] pairs (area may be a link spec)."""
    fa = _measure_frame(a[0]).loc[_area_id(a[1]), "val"]
    fb = _measure_frame(b[0]).loc[_area_id(b[1]), "val"]
    if op == "ratio":
        return _rnd(fa / fb, 1)
    if op == "diff":
        return _rnd(fa - fb, 1)
    if op == "pct":
        return _rnd((fa / fb - 1) * 100, 1)
    raise ValueError(op)


def b29_set_ratio(*, a, b, measure, how="pooled"):
    """Ratio of a set statistic over two area sets (unrounded inputs)."""
    def stat(where):
        ids = _area_set(where)
        f = _measure_frame(measure).loc[ids]
        if how == "pooled":
            ff = f.dropna(subset=["num", "den"])
            return ff["num"].sum() / ff["den"].sum() * ff["scale"].iloc[0]
        if how == "mean":
            return f["val"].dropna().mean()
        if how == "sum":
            return f["num"].sum()
        raise ValueError(how)
    return _rnd(stat(a) / stat(b), 1)


def b29_set_member(*, where, k=1, order_by=None, order="desc"):
    """Name of the k-th area of a set: by area number, or by ``order_by`` measure."""
    ids = _area_set(where)
    if order_by is None:
        return _name(ids[k - 1])
    r = _ranked(order_by, desc=(order == "desc"), universe=set(ids))
    return _name(r[k - 1])
