"""
Expected answers for the blind32 held-out question set (Chicago public data).

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

Conventions added for blind32 (each question that relies on one states it)
--------------------------------------------------------------------------
* Set statistics also allow how in {'max','min','count','range'}; 'count' = number of
  areas in the set with a value of the measure.
* "Share of a set's homicides" (``b32_within_share``): homicides of the areas in a
  sub-set / homicides of the areas in the whole set * 100 (community-area rows only).
* Ratio of two sets (``b32_set_ratio``): set statistic of set A / the same statistic of
  set B (pooled unless stated).
* Peak month / year inside a set (``b32_peak_period``): the calendar month (1-12, returned
  as the month name) or year with the most homicide rows in the set's areas over the stated
  years; ties to the earlier month/year.
* Concentration: "the N areas with the most homicides account for what share" =
  city_share of the top-N set by homicide count.
* Gap to the city: area value - city value (signed) for a named area.
* Homicide filters: ``dom`` (domestic flag), ``arr`` (arrest flag), ``loc`` (Location
  Description, exact, case-insensitive; several separated by '/'), ``months``, ``wd``
  (weekday 0=Mon..6=Sun), ``hours`` (clock hours, wrap-around allowed e.g. 22-3),
  ``md`` (calendar day MM-DD, e.g. 07-04 for the Fourth of July).
* "Percent of a set meeting a condition" (``b32_pct_of_set``) = areas of the set meeting
  it / areas of the set * 100.
* Areas "in" an IHS submarket = areas whose main submarket (largest
  share_of_community_area) is that submarket.
* Ward homicide rankings use the Ward field of the homicide rows as recorded.
* A peak hour is returned as the 24-hour clock hour (0-23) as an integer.
Conventions added after blind33 (the app's documented behaviour)
-----------------------------------------------------------------
* Quantiles of the 77 community areas (quartiles, quintiles, ...): ranked ascending, cut as pandas.qcut cuts them
  (a remainder goes to the lowest groups: quartiles are 20/19/19/19, the lowest quartile has 20).
* "Above vs below the median": each side strictly (the median area itself in neither); "above the median vs the
  rest": the rest includes the median area.
* "The N areas with the highest X ... vs all the rest": the rest is every other community area (77 - N), areas with
  no value of X included.

Conventions from the previous set (keep)
----------------------------------------
* Measure specs are strings ``name[@period][|filter=value...]``: e.g. ``rate@2019-2022``,
  ``hom@2021|dom=1``, ``zhvi@2023-01``, ``zhvichg@2019-01:2023-01``, ``homchg@2019:2021``.
  A period ``Y0-Y1`` is inclusive of both years.
* Set specs are lists of conditions ANDed together: ``top:N:<measure>``, ``bottom:N:<measure>``,
  ``gt:<measure>:<thr>``, ``lt:<measure>:<thr>`` (thr a number, 'city', 'median' or 'mean';
  strict), ``q:K:I:<measure>`` (quantile I of K, 1 = lowest, pandas.qcut on ranks),
  ``not:<condition>`` and ``all``.
* Police-district homicides use the District field of the homicide rows as recorded; a
  district's community area is the one its station sits in (police_stations.csv).
* A community area's ZIP = the ZIP with the largest share_of_community_area; that ZIP's
  ZHVI is read directly from property_zhvi_zip_monthly.csv.
* Homicide rate of a set over ACS-era years (2016+) uses ACS 2019-2023 population; a
  "difference between two sets" is set A statistic - set B statistic (signed).
* Share of homicides with a flag inside a set (``arrshare``/``domshare`` pooled) = flagged rows /
  all rows of the set's areas * 100.
* "Change in rate" between two years = rate(later) - rate(earlier) in homicides per 100,000
  (points, signed).
* Share of a set's homicides meeting extra filters (``b34_set_sub_share``) = filtered rows
  of the set's areas / all rows of the set's areas * 100 (community-area rows only).
* ZIP ranked by ZHVI growth, then "the community area that covers most of that ZIP"
  (largest share_of_zip) for any area measure.
* Sets cut by a rank (top/bottom N) are chosen so that no tie crosses the cut.
* Partial-answer declines: where part of a question is answerable (e.g. 2023 through
  July 19, ZHVI to Sept 2024, ward counts without ward populations) ``expect`` holds that part.

Conventions added for blind35
-----------------------------
* Function prefix ``b35_``.  Area arguments accept a community-area name (any case,
  apostrophes ignored) or number.
* Chains (``b35_top_value``): the community area ranked ``rank`` by measure ``by``
  (desc unless order='asc', ties by area number, areas without a value left out), then
  measure ``measure`` of that area.  ``b35_top_area`` returns the area's name.
* "Top N vs the rest" differences (``b35_set_diff``) = statistic of set A - statistic of
  set B; the rest is written ``not:<condition>`` and includes areas without a value of the
  ranking measure.
* City homicide counts (``b35_city_count``) use every homicide row (blank community area
  included); city peaks (``b35_city_peak``) use every row in the stated period; ``set``
  given -> only rows of that set's areas.  Weekdays returned as names (Monday ...),
  months as names (January ...), hours as an integer 0-23; ties to the earliest.
* Police-district rankings (``b35_district_top``) return the DISTRICT NAME of
  police_stations.csv (e.g. 'Harrison'); district homicides use the District field as
  recorded.  A district's area measures are those of the community area its station sits in.
* Ward rankings (``b35_ward_top``) return the ward number; the alderperson is the
  surname only as in ward_offices.csv (text before the first comma).
* IHS for a community area = its main submarket (largest share_of_community_area) if that
  submarket is in the price index; yearly value = mean of four quarters (1 decimal).
  IHS change between two years = (later yearly mean / earlier yearly mean - 1) * 100.
* Redfin neighbourhood value = the row whose Period End is the stated date (90-day
  window); ``Median Sale Price`` strings converted ($563K -> 563000).  Regions with
  duplicate names (Rosehill, Wrightwood) are not asked.
* ACS "households earning $125k+" share = _125_000 / sum of five bands * 100;
  "under $25k" likewise with under_25_000.  Hispanic share = hispanic_or_latino /
  total_population * 100; Black = black_or_african_american; Asian = asian.
* Homicide rate of a period that includes 2023 uses the partial 2023 rows with a full
  year's population (questions that include 2023 say "through mid-2023" or avoid rates).
* Percent of a set's areas meeting a second condition (``b35_pct_of_set``) = areas of
  the set also in the condition set / areas of the set * 100.
* Extra set conditions: ``ge:``/``le:`` (inclusive thresholds), ``area:A/B`` (named areas),
  ``sub:<IHS submarket name>`` (areas whose main submarket it is).
* Measures: hom, rate, density, arrshare, domshare, homchg@Y0:Y1 (count Y1 - count Y0;
  a fall asked as a positive number is written homchg@Y1:Y0), ratechg@Y0:Y1, pci, pov,
  unemp, nohs, crowd, dep, hardship (2008-12), pop, pop2010, popchg, sqmi, black, white,
  whitenh, hisp, asian, kids, seniors, inc_lt25, inc_125 (ACS 2019-23), zhvi@YYYY-MM,
  zhvichg@A:B, ihs@YYYY.
* Quintiles by pandas.qcut on 77 ranks are 16/15/15/15/16 (top quintile 16 areas).
* A ZIP without ZHVI (60617, 60707, 60827, 60666) is never the ZIP asked about; chains
  through "the area's ZIP" are only asked where that ZIP has a value.
* Location types are returned as recorded (upper case, e.g. 'STREET').
* IHS summary percentages returned as numbers (7.8% -> 7.8), prices as integers.
"""

import os
import re
import math
import json
import functools

import numpy as np
import pandas as pd

DATA = os.environ.get("CHIQA_DATA_DIR", "/work/shared/data")


def _p(name):
    return os.path.join(DATA, name)


# ----------------------------------------------------------------- loaders
@functools.lru_cache(maxsize=None)
def _ca():
    c = pd.read_csv(_p("community_areas.csv"))
    c["area_number"] = c["area_number"].astype(int)

    def nice(s):
        if s == "OHARE":
            return "O'Hare"
        t = s.title()
        return t.replace("Mckinley", "McKinley")
    c["label"] = c["community"].map(nice)
    return c.set_index("area_number").sort_index()


def _norm(s):
    return re.sub(r"[^A-Z0-9 ]", "", str(s).upper()).strip()


@functools.lru_cache(maxsize=None)
def _name_index():
    c = _ca()
    d = {}
    for n, row in c.iterrows():
        d[_norm(row["community"])] = n
        d[_norm(row["label"])] = n
        d[_norm(row["name_socioeconomic"])] = n
    return d


def _area(a):
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return int(a)
    s = str(a)
    if s.strip().isdigit():
        return int(s)
    return _name_index()[_norm(s)]


def _label(n):
    return _ca().loc[int(n), "label"]


@functools.lru_cache(maxsize=None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"))
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "year": d.dt.year, "month": d.dt.month, "wd": d.dt.weekday, "hour": d.dt.hour,
        "md": d.dt.strftime("%m-%d"),
        "ca": h["Community Area"], "ward": h["Ward"], "dist": h["District"],
        "arr": h["Arrest"].astype(bool), "dom": h["Domestic"].astype(bool),
        "loc": h["Location Description"].fillna("").str.upper(),
    })
    return out


@functools.lru_cache(maxsize=None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [c.strip() for c in s.columns]
    return s


@functools.lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    idx = _name_index()
    a["n"] = a["community_area"].map(lambda x: idx[_norm(x)])
    return a.set_index("n").sort_index()


@functools.lru_cache(maxsize=None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


@functools.lru_cache(maxsize=None)
def _zipx():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: "%02d" % m)
    return z.pivot_table(index="RegionName", columns="ym", values="price")


@functools.lru_cache(maxsize=None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"))
    s = s[s["DISTRICT"] != "Headquarters"].copy()
    s["DISTRICT"] = s["DISTRICT"].astype(int)
    return s.set_index("DISTRICT")


@functools.lru_cache(maxsize=None)
def _wards():
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")
    return w.set_index("WARD")


@functools.lru_cache(maxsize=None)
def _ihs_long():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(maxsize=None)
def _ihsx():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_summary():
    return pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))


@functools.lru_cache(maxsize=None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["pe"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    return r


def _money(s):
    if isinstance(s, (int, float)):
        return float(s)
    s = str(s).strip().replace("$", "").replace(",", "")
    mult = 1.0
    if s.endswith("K"):
        mult, s = 1e3, s[:-1]
    elif s.endswith("M"):
        mult, s = 1e6, s[:-1]
    return float(s) * mult


# ----------------------------------------------------------------- rounding
_INT_MEAS = {"hom", "pci", "pop", "pop2010", "zhvi", "homchg", "hardship"}


def _rnd(v, kind="r1"):
    if v is None:
        return None
    v = float(v)
    if math.isnan(v):
        return v
    if kind == "int":
        return int(round(v))
    if kind == "r2":
        return round(v, 2)
    return round(v, 1)


def _kind_of(measure):
    name = measure.split("|")[0].split("@")[0]
    return "int" if name in _INT_MEAS else "r1"


# ----------------------------------------------------------------- homicide filters
def _parse_measure(measure):
    parts = measure.split("|")
    head = parts[0]
    filt = {}
    for f in parts[1:]:
        k, v = f.split("=", 1)
        filt[k.strip()] = v.strip()
    if "@" in head:
        name, per = head.split("@", 1)
    else:
        name, per = head, None
    return name, per, filt


def _years(per):
    if per is None:
        return None
    if "-" in per:
        a, b = per.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(per)]


def _hours(spec):
    a, b = [int(x) for x in spec.split("-")]
    if a <= b:
        return list(range(a, b + 1))
    return list(range(a, 24)) + list(range(0, b + 1))


def _apply_filters(h, filt):
    for k, v in filt.items():
        if k == "dom":
            h = h[h["dom"] == bool(int(v))]
        elif k == "arr":
            h = h[h["arr"] == bool(int(v))]
        elif k == "loc":
            locs = [x.strip().upper() for x in v.split("/")]
            h = h[h["loc"].isin(locs)]
        elif k == "months":
            ms = [int(x) for x in re.split(r"[,/]", v)]
            h = h[h["month"].isin(ms)]
        elif k == "wd":
            ws = [int(x) for x in re.split(r"[,/]", v)]
            h = h[h["wd"].isin(ws)]
        elif k == "hours":
            h = h[h["hour"].isin(_hours(v))]
        elif k == "md":
            h = h[h["md"] == v]
        else:
            raise ValueError("unknown filter " + k)
    return h


def _hrows(years, filt):
    h = _hom()
    if years is not None:
        h = h[h["year"].isin(years)]
    return _apply_filters(h, filt)


def _ca_counts(years, filt):
    h = _hrows(years, filt)
    h = h[h["ca"].notna()]
    c = h.groupby(h["ca"].astype(int)).size()
    return c.reindex(_ca().index, fill_value=0).astype(float)


def _pop_years(years):
    """sum over the years of each year's population, per area"""
    p10 = _pop2010()
    acs = _acs()["total_population"].astype(float)
    tot = pd.Series(0.0, index=_ca().index)
    for y in years:
        tot = tot + (p10 if y <= 2015 else acs).reindex(tot.index)
    return tot


def _city_pop_years(years):
    p10 = _pop2010().sum()
    acs = _acs()["total_population"].astype(float).sum()
    return sum(p10 if y <= 2015 else acs for y in years)


# ----------------------------------------------------------------- area measures
_SOCIO = {
    "pci": "PER CAPITA INCOME", "pov": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemp": "PERCENT AGED 16+ UNEMPLOYED", "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "crowd": "PERCENT OF HOUSING CROWDED", "dep": "PERCENT AGED UNDER 18 OR OVER 64",
    "hardship": "HARDSHIP INDEX",
}
_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]


def _acs_numden(name):
    a = _acs()
    tp = a["total_population"].astype(float)
    if name == "black":
        return a["black_or_african_american"].astype(float), tp
    if name == "white":
        return a["white"].astype(float), tp
    if name == "whitenh":
        return a["white_not_hispanic_or_latino"].astype(float), tp
    if name == "hisp":
        return a["hispanic_or_latino"].astype(float), tp
    if name == "asian":
        return a["asian"].astype(float), tp
    if name == "kids":
        return (a["male_0_to_17"] + a["female_0_to_17"]).astype(float), tp
    if name == "seniors":
        return (a["male_65"] + a["female_65"]).astype(float), tp
    base = a[_BANDS].astype(float).sum(axis=1)
    if name == "inc_lt25":
        return a["under_25_000"].astype(float), base
    if name == "inc_125":
        return a["_125_000"].astype(float), base
    return None


def _zhvi_area(ym):
    z = _zhvi()
    if ym not in z.columns:
        raise ValueError("no ZHVI month " + ym)
    col = z[ym]
    x = _zipx().copy()
    x["v"] = x["zip"].map(col)
    x = x[x["v"].notna()]
    x["wv"] = x["v"] * x["share_of_community_area"]
    g = x.groupby("area_number").agg(wv=("wv", "sum"), w=("share_of_community_area", "sum"))
    return (g["wv"] / g["w"]).reindex(_ca().index)


def _ihs_year(code, year):
    l = _ihs_long()
    v = l[(l["submarket_code"] == code) & (l["year"] == int(year))]["index_2000q1_100"]
    if len(v) != 4:
        return float("nan")
    return float(v.mean())


@functools.lru_cache(maxsize=None)
def _main_submarket():
    x = _ihsx().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    x = x.drop_duplicates("area_number")
    return x.set_index("area_number")


@functools.lru_cache(maxsize=None)
def _numden(measure):
    """per-area numerator and denominator series (value = num/den*scale).  Returns
    (num, den, scale); den None -> value = num."""
    name, per, filt = _parse_measure(measure)
    idx = _ca().index
    if name in ("hom", "rate", "density", "arrshare", "domshare"):
        years = _years(per)
        cnt = _ca_counts(years, filt)
        if name == "hom":
            return cnt, None, 1.0
        if name == "rate":
            return cnt, _pop_years(years), 1e5
        if name == "density":
            return cnt, _ca()["area_sq_mi"].astype(float), 1.0
        flag = "arr" if name == "arrshare" else "dom"
        f2 = dict(filt)
        f2[flag] = "1"
        return _ca_counts(years, f2), cnt, 100.0
    if name == "homchg":
        a, b = per.split(":")
        return _ca_counts([int(b)], filt) - _ca_counts([int(a)], filt), None, 1.0
    if name == "ratechg":
        a, b = per.split(":")
        ra = _value_series("rate@%s" % a)
        rb = _value_series("rate@%s" % b)
        return rb - ra, None, 1.0
    if name in _SOCIO:
        s = _socio()
        s = s[s["Community Area Number"].notna()]
        v = s.set_index(s["Community Area Number"].astype(int))[_SOCIO[name]].astype(float)
        return v.reindex(idx), None, 1.0
    if name == "pop":
        return _acs()["total_population"].astype(float).reindex(idx), None, 1.0
    if name == "pop2010":
        return _pop2010().reindex(idx), None, 1.0
    if name == "popchg":
        acs = _acs()["total_population"].astype(float).reindex(idx)
        p = _pop2010().reindex(idx)
        return acs - p, p, 100.0
    if name == "sqmi":
        return _ca()["area_sq_mi"].astype(float), None, 1.0
    nd = _acs_numden(name)
    if nd is not None:
        return nd[0].reindex(idx), nd[1].reindex(idx), 100.0
    if name == "zhvi":
        return _zhvi_area(per), None, 1.0
    if name == "zhvichg":
        a, b = per.split(":")
        za, zb = _zhvi_area(a), _zhvi_area(b)
        return (zb / za - 1) * 100, None, 1.0
    if name == "ihs":
        ms = _main_submarket()
        v = {}
        for n in idx:
            if n in ms.index and int(ms.loc[n, "in_price_index"]) == 1:
                v[n] = _ihs_year(ms.loc[n, "submarket_code"], per)
            else:
                v[n] = float("nan")
        return pd.Series(v).reindex(idx), None, 1.0
    raise ValueError("unknown measure " + measure)


def _value_series(measure):
    num, den, scale = _numden(measure)
    if den is None:
        return num.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (num / den.replace(0, np.nan)) * scale


def _city_value(measure):
    name, per, filt = _parse_measure(measure)
    if name in ("hom", "rate", "arrshare", "domshare"):
        years = _years(per)
        h = _hrows(years, filt)
        if name == "hom":
            return float(len(h))
        if name == "rate":
            return len(h) / _city_pop_years(years) * 1e5
        flag = "arr" if name == "arrshare" else "dom"
        return h[flag].sum() / len(h) * 100
    if name in _SOCIO:
        s = _socio()
        row = s[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"].iloc[0]
        return float(row[_SOCIO[name]])
    if name == "ratechg":
        a, b = per.split(":")
        return _city_value("rate@%s" % b) - _city_value("rate@%s" % a)
    num, den, scale = _numden(measure)
    if den is None and name in ("pop", "pop2010", "sqmi", "homchg"):
        return float(num.sum())
    if den is None:
        raise ValueError("no city value for " + measure)
    return num.sum() / den.sum() * scale


# ----------------------------------------------------------------- sets
def _order(measure, order="desc", among=None):
    v = _value_series(measure).dropna()
    if among is not None:
        v = v[v.index.isin(among)]
    df = pd.DataFrame({"v": v, "n": v.index})
    asc = order == "asc"
    df = df.sort_values(["v", "n"], ascending=[asc, True])
    return list(df["n"])


def _thr(measure, thr):
    if thr == "city":
        return _city_value(measure)
    v = _value_series(measure).dropna()
    if thr == "median":
        return float(v.median())
    if thr == "mean":
        return float(v.mean())
    return float(thr)


def _cond(c):
    idx = list(_ca().index)
    if c == "all":
        return set(idx)
    if c.startswith("not:"):
        return set(idx) - _cond(c[4:])
    kind, rest = c.split(":", 1)
    if kind in ("top", "bottom"):
        n, m = rest.split(":", 1)
        o = _order(m, "desc" if kind == "top" else "asc")
        return set(o[: int(n)])
    if kind in ("gt", "lt", "ge", "le"):
        m, t = rest.rsplit(":", 1)
        v = _value_series(m).dropna()
        thr = _thr(m, t)
        if kind == "gt":
            return set(v[v > thr].index)
        if kind == "lt":
            return set(v[v < thr].index)
        if kind == "ge":
            return set(v[v >= thr].index)
        return set(v[v <= thr].index)
    if kind == "q":
        k, i, m = rest.split(":", 2)
        v = _value_series(m).dropna()
        o = _order(m, "asc")
        r = pd.Series(range(1, len(o) + 1), index=o, dtype=float)
        q = pd.qcut(r, int(k), labels=False) + 1
        return set(q[q == int(i)].index)
    if kind == "area":
        return {_area(x) for x in rest.split("/")}
    if kind == "sub":
        ms = _main_submarket()
        return set(ms[ms["submarket_name_2023"].str.lower() == rest.lower()].index)
    if kind == "dist":
        # community areas whose station is that district's -- not used
        raise ValueError(c)
    raise ValueError("unknown condition " + c)


def _set(spec):
    if isinstance(spec, str):
        spec = [spec]
    s = set(_ca().index)
    for c in spec:
        s &= _cond(c)
    return sorted(s)


def _stat(areas, measure, how):
    num, den, scale = _numden(measure)
    v = _value_series(measure).reindex(areas)
    if how == "pooled":
        if den is None:
            return float(num.reindex(areas).sum())
        n = num.reindex(areas)
        d = den.reindex(areas)
        ok = n.notna() & d.notna()
        return float(n[ok].sum() / d[ok].sum() * scale)
    if how == "sum":
        return float(num.reindex(areas).sum()) if den is None else float(v.sum())
    vv = v.dropna()
    if how == "mean":
        return float(vv.mean())
    if how == "median":
        return float(vv.median())
    if how == "max":
        return float(vv.max())
    if how == "min":
        return float(vv.min())
    if how == "range":
        return float(vv.max() - vv.min())
    if how == "count":
        return float(len(vv))
    if how == "city_share":
        return float(num.reindex(areas).sum() / _city_value(measure) * 100)
    raise ValueError(how)


def _stat_kind(measure, how):
    if how == "count":
        return "int"
    if how in ("pooled", "sum") and _kind_of(measure) == "int":
        return "int"
    if how in ("mean", "median", "max", "min", "range") and _kind_of(measure) == "int":
        name = measure.split("|")[0].split("@")[0]
        return "int" if name in ("pci", "zhvi", "pop", "pop2010") else "r1"
    return "r1"


# ----------------------------------------------------------------- public API: areas
def b35_value(*, area, measure):
    """One measure for one community area."""
    v = _value_series(measure).loc[_area(area)]
    return _rnd(v, _kind_of(measure))


def b35_city(*, measure):
    """City-wide value of a measure (rate: all rows / city population; socioeconomic: CHICAGO row)."""
    return _rnd(_city_value(measure), _kind_of(measure))


def b35_gap_to_city(*, area, measure):
    return _rnd(_value_series(measure).loc[_area(area)] - _city_value(measure), "r1" if _kind_of(measure) != "int" else "int")


def b35_top_area(*, measure, rank=1, order="desc", set=None):
    among = _set(set) if set is not None else None
    return _label(_order(measure, order, among)[int(rank) - 1])


def b35_top_value(*, by, measure, rank=1, order="desc", set=None):
    among = _set(set) if set is not None else None
    n = _order(by, order, among)[int(rank) - 1]
    return _rnd(_value_series(measure).loc[n], _kind_of(measure))


def b35_top_zip(*, by, rank=1, order="desc"):
    """ZIP (largest share_of_community_area) of the area ranked by `by`."""
    n = _order(by, order)[int(rank) - 1]
    return int(_area_zip(n))


def _area_zip(n):
    x = _zipx()
    x = x[x["area_number"] == n].sort_values("share_of_community_area", ascending=False)
    return int(x.iloc[0]["zip"])


def b35_top_zip_zhvi(*, by, month, rank=1, order="desc"):
    n = _order(by, order)[int(rank) - 1]
    return _rnd(_zhvi()[month].loc[_area_zip(n)], "int")


def b35_top_submarket(*, by, rank=1, order="desc"):
    n = _order(by, order)[int(rank) - 1]
    return str(_main_submarket().loc[n, "submarket_name_2023"])


def b35_set_stat(*, set, measure, how="pooled"):
    return _rnd(_stat(_set(set), measure, how), _stat_kind(measure, how))


def b35_set_count(*, set):
    return len(_set(set))


def b35_set_diff(*, set_a, set_b, measure, how="pooled"):
    a = _stat(_set(set_a), measure, how)
    b = _stat(_set(set_b), measure, how)
    return _rnd(a - b, _stat_kind(measure, how))


def b35_set_ratio(*, set_a, set_b, measure, how="pooled"):
    a = _stat(_set(set_a), measure, how)
    b = _stat(_set(set_b), measure, how)
    return _rnd(a / b, "r1")


def b35_pct_of_set(*, set, cond):
    s = _set(set)
    c = _set(cond)
    return _rnd(len([x for x in s if x in c]) / len(s) * 100, "r1")


def b35_corr(*, m1, m2, method="pearson", set=None):
    a = _value_series(m1)
    b = _value_series(m2)
    df = pd.DataFrame({"a": a, "b": b}).dropna()
    if set is not None:
        df = df[df.index.isin(_set(set))]
    if method == "spearman":
        df = df.rank()
    return _rnd(np.corrcoef(df["a"], df["b"])[0, 1], "r2")


# ----------------------------------------------------------------- public API: city homicides
_WD = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MN = ["January", "February", "March", "April", "May", "June", "July", "August",
       "September", "October", "November", "December"]


def b35_city_count(*, measure):
    """City homicide count (all rows) for 'hom@period|filters'."""
    name, per, filt = _parse_measure(measure)
    return int(len(_hrows(_years(per), filt)))


def b35_city_share(*, measure, of):
    """Percent of city rows of `of` (e.g. 'hom@2022') that also meet `measure`'s filters."""
    a = b35_city_count(measure=measure)
    b = b35_city_count(measure=of)
    return _rnd(a / b * 100, "r1")


def b35_city_peak(*, kind, period=None, set=None, filters=None):
    years = _years(period) if period else None
    filt = {}
    if filters:
        for f in filters.split("|"):
            k, v = f.split("=", 1)
            filt[k] = v
    h = _hrows(years, filt)
    if set is not None:
        h = h[h["ca"].isin(_set(set))]
    col = {"hour": "hour", "weekday": "wd", "month": "month", "year": "year"}[kind]
    c = h.groupby(col).size()
    c = c.sort_index()
    k = c.idxmax()
    if kind == "weekday":
        return _WD[int(k)]
    if kind == "month":
        return _MN[int(k) - 1]
    return int(k)


def b35_year_change_pct(*, y0, y1, filters=None):
    f = ("|" + filters) if filters else ""
    a = b35_city_count(measure="hom@%s%s" % (y0, f))
    b = b35_city_count(measure="hom@%s%s" % (y1, f))
    return _rnd((b / a - 1) * 100, "r1")


def b35_top_location(*, period, rank=1, set=None):
    h = _hrows(_years(period), {})
    if set is not None:
        h = h[h["ca"].isin(_set(set))]
    c = h.groupby("loc").size().reset_index(name="n").sort_values(["n", "loc"], ascending=[False, True])
    return str(c.iloc[int(rank) - 1]["loc"])


# ----------------------------------------------------------------- districts, wards
def _dist_counts(period, filters=None):
    filt = {}
    if filters:
        for f in filters.split("|"):
            k, v = f.split("=", 1)
            filt[k] = v
    h = _hrows(_years(period), filt)
    h = h[h["dist"].notna()]
    return h.groupby(h["dist"].astype(int)).size()


def b35_district_count(*, district, period, filters=None):
    return int(_dist_counts(period, filters).get(int(district), 0))


def _district_ranked(period, filters=None):
    c = _dist_counts(period, filters)
    c = c[c.index.isin(_stations().index)]
    df = pd.DataFrame({"n": c, "d": c.index}).sort_values(["n", "d"], ascending=[False, True])
    return list(df["d"])


def b35_district_top(*, period, rank=1, filters=None):
    d = _district_ranked(period, filters)[int(rank) - 1]
    return str(_stations().loc[d, "DISTRICT NAME"])


def b35_district_top_area_value(*, period, measure, rank=1):
    """The district ranked by homicides, then a measure of the community area its station sits in."""
    d = _district_ranked(period)[int(rank) - 1]
    n = int(_stations().loc[d, "COMMUNITY AREA"])
    return _rnd(_value_series(measure).loc[n], _kind_of(measure))


def b35_district_station_area(*, district):
    return _label(int(_stations().loc[int(district), "COMMUNITY AREA"]))


def b35_district_area_value(*, district, measure):
    n = int(_stations().loc[int(district), "COMMUNITY AREA"])
    return _rnd(_value_series(measure).loc[n], _kind_of(measure))


def _ward_counts(period):
    h = _hrows(_years(period), {})
    h = h[h["ward"].notna()]
    return h.groupby(h["ward"].astype(int)).size()


def b35_ward_count(*, ward, period):
    return int(_ward_counts(period).get(int(ward), 0))


def b35_ward_top(*, period, rank=1):
    c = _ward_counts(period)
    df = pd.DataFrame({"n": c, "w": c.index}).sort_values(["n", "w"], ascending=[False, True])
    return int(df.iloc[int(rank) - 1]["w"])


def b35_ward_alder(*, ward):
    return str(_wards().loc[int(ward), "ALDERMAN"]).split(",")[0].strip()


def b35_ward_top_alder(*, period, rank=1):
    return b35_ward_alder(ward=b35_ward_top(period=period, rank=rank))


def _zip_main_area(z):
    x = _zipx()
    x = x[x["zip"] == int(z)].sort_values("share_of_zip", ascending=False)
    return int(x.iloc[0]["area_number"])


def b35_ward_office_area(*, ward):
    z = _wards().loc[int(ward), "ZIPCODE"]
    return _label(_zip_main_area(int(z)))


def b35_ward_office_area_value(*, ward, measure):
    z = _wards().loc[int(ward), "ZIPCODE"]
    return _rnd(_value_series(measure).loc[_zip_main_area(int(z))], _kind_of(measure))


def b35_ward_count_offices(*, zip):
    w = _wards()
    return int((w["ZIPCODE"] == float(zip)).sum())


# ----------------------------------------------------------------- ZIPs / ZHVI
def b35_zip_zhvi(*, zip, month):
    return _rnd(_zhvi()[month].loc[int(zip)], "int")


def b35_zip_growth(*, zip, start, end):
    z = _zhvi()
    return _rnd((z[end].loc[int(zip)] / z[start].loc[int(zip)] - 1) * 100, "r1")


def _zip_growth_ranked(start, end, order="desc"):
    z = _zhvi()
    g = (z[end] / z[start] - 1) * 100
    g = g.dropna()
    df = pd.DataFrame({"g": g, "z": g.index}).sort_values(["g", "z"], ascending=[order == "asc", True])
    return list(df["z"])


def b35_zip_top_growth(*, start, end, rank=1, order="desc"):
    return int(_zip_growth_ranked(start, end, order)[int(rank) - 1])


def b35_zip_growth_area_value(*, start, end, measure, rank=1, order="desc"):
    z = _zip_growth_ranked(start, end, order)[int(rank) - 1]
    return _rnd(_value_series(measure).loc[_zip_main_area(z)], _kind_of(measure))


def b35_zip_growth_area(*, start, end, rank=1, order="desc"):
    z = _zip_growth_ranked(start, end, order)[int(rank) - 1]
    return _label(_zip_main_area(z))


def b35_zip_area_hom(*, zip, period):
    """Homicides in the community area that covers most of the ZIP."""
    return int(_ca_counts(_years(period), {}).loc[_zip_main_area(zip)])


def b35_area_zip(*, area):
    return _area_zip(_area(area))


# ----------------------------------------------------------------- IHS
def _sub_code(sub):
    l = _ihs_long()
    s = sub.strip().lower()
    for code, name in l[["submarket_code", "submarket_name"]].drop_duplicates().itertuples(index=False):
        if s in (code.lower(), name.lower(), name.lower().replace("chicago--", "")):
            return code
    raise ValueError(sub)


def b35_ihs(*, submarket, year=None, yearq=None):
    code = _sub_code(submarket)
    if yearq:
        l = _ihs_long()
        return _rnd(l[(l["submarket_code"] == code) & (l["yearq"] == yearq)]["index_2000q1_100"].iloc[0], "r1")
    return _rnd(_ihs_year(code, year), "r1")


def b35_ihs_change(*, submarket, y0, y1):
    code = _sub_code(submarket)
    return _rnd((_ihs_year(code, y1) / _ihs_year(code, y0) - 1) * 100, "r1")


def b35_ihs_summary(*, submarket, column):
    s = _ihs_summary()
    row = s[s["Sub Market"].str.strip().str.lower() == submarket.lower()].iloc[0]
    v = str(row[column]).strip()
    if "%" in v:
        return _rnd(float(v.replace("%", "")), "r1")
    return _rnd(_money(v), "int")


def b35_ihs_summary_top(*, column, rank=1, chicago_only=1, order="desc"):
    s = _ihs_summary().copy()
    if int(chicago_only):
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s["v"] = s[column].map(lambda x: float(str(x).strip().replace("%", "")) if "%" in str(x) else _money(x))
    s = s.sort_values(["v", "Number"], ascending=[order == "asc", True])
    return str(s.iloc[int(rank) - 1]["Sub Market"]).strip()


def b35_area_ihs(*, area, year):
    return b35_value(area=area, measure="ihs@%s" % year)


def b35_top_ihs_change(*, by, y0, y1, rank=1, order="desc"):
    """Area ranked by `by`, then the IHS change of its main submarket."""
    n = _order(by, order)[int(rank) - 1]
    code = _main_submarket().loc[n, "submarket_code"]
    return _rnd((_ihs_year(code, y1) / _ihs_year(code, y0) - 1) * 100, "r1")


# ----------------------------------------------------------------- Redfin
def b35_redfin(*, region, period_end, field):
    r = _redfin()
    reg = region if region.startswith("Chicago, IL") else "Chicago, IL - " + region
    x = r[(r["Region"] == reg) & (r["pe"] == pd.Timestamp(period_end))]
    if len(x) != 1:
        raise ValueError("redfin rows: %d" % len(x))
    v = x.iloc[0][field]
    if field == "Median Sale Price":
        return _rnd(_money(v), "int")
    if field in ("Homes Sold", "Inventory", "New Listings", "Median List Price", "Median Dom"):
        return _rnd(v, "int")
    if field in ("Avg Sale To List", "Sold Above List", "off_market_in_two_weeks", "Price Drops"):
        return _rnd(float(v) * 100, "r1")
    return _rnd(v, "r1")


def b35_redfin_city_year(*, year, field="Homes Sold"):
    r = _redfin()
    x = r[(r["Region"] == "Chicago, IL") & (r["pe"].dt.year == int(year))]
    if len(x) != 12:
        raise ValueError("months: %d" % len(x))
    return _rnd(x[field].astype(float).sum(), "int")
