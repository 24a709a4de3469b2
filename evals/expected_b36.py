r"""Expected answers for the blind32 held-out question set (Chicago public data).

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

Conventions from the previous set (keep)
----------------------------------------
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

Conventions added for blind36 (expected answers of the blind36 held-out set)
---------------------------------------------------------------------------
* Function prefix ``b36_``; same measure / set spec language as above.  New measures:
  ``young`` (ACS 18-24 share: male_18_to_24 + female_18_to_24 over total_population),
  ``inc_75plus`` (households $75k+ = _75_000_to_125_000 + _125_000 over the five bands),
  ``popdens`` (ACS 2019-23 residents per square mile, pooled = sum pop / sum sq mi),
  ``ratepct@Y0:Y1`` (percent change of an area's rate), ``ihschg@Y0:Y1`` (IHS yearly-mean
  change of the area's main submarket), ``zipzhvi@YYYY-MM`` (ZHVI of the area's main ZIP,
  read directly).
* ``rate10@Y`` = rate on the 2010 census population whatever the year, and
  ``b36_city_rate(pop='2010'|'acs')``: used only for wrong-vintage stand-ins.
* Police district with the biggest rise: ``what`` may also be 'ca' (the station's community
  area) or an area measure of that area.
* Homicide filter ``ym=YYYY-MM:YYYY-MM`` (inclusive month range, e.g. "first half of 2023"
  = ym=2023-01:2023-06).  "Same period last year" comparisons use the same month range
  of both years (``b36_city_pctchg``).
* Rank of a named area (``b36_area_rank``): 1 = highest (unless "lowest" asked), among areas
  with a value, ties by area number.
* Chains inside a set (``set=`` on ``b36_top_area``/``b36_top_value``): the ranking is
  restricted to the set's areas first.
* Biggest month-over-month jump (``b36_biggest_mom_jump``): city rows per calendar month;
  January is compared with December of the previous year; ties to the earlier month.
* Peak "month of a year" (kind ``ym``) returned as "July 2021".
* Police district with the biggest rise between two years (``b36_district_change_top``) =
  rows(y1) - rows(y0) by the District field, the 22 districts of police_stations.csv.
* Ward office's area (``b36_ward_office`` field ``ca:...``) = the community area covering most
  of the office ZIP (share_of_zip).
* Redfin rates ("sold above list", "sale-to-list") returned as percentages (0.32 -> 32.0);
  Redfin neighbourhood rankings leave out Rosehill/Wrightwood and may require a minimum
  number of homes sold (``min_sold``), which the question states.
* "Years with more than N homicides" (``b36_years_above``) counts calendar years strictly
  above N in the stated span (years with no rows count as 0).
* Set ratio (``b36_set_ratio``) and set difference use unrounded statistics, then round.
* IHS summary rankings (``b36_ihs_summary_top``) rank the 17 Chicago submarkets only unless
  the question says Cook County; names are returned without the "Chicago--" prefix.
"""

import functools
import json
import math
import os
import re

import numpy as np
import pandas as pd

DATA_DIR = os.environ.get("CHIQA_DATA_DIR", "/work/shared/data")


def _p(name):
    return os.path.join(DATA_DIR, name)


# ----------------------------------------------------------------------------- loaders
@functools.lru_cache(maxsize=None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"))
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h["dt"].dt.year
    h["month"] = h["dt"].dt.month
    h["wd"] = h["dt"].dt.weekday
    h["hour"] = h["dt"].dt.hour
    h["md"] = h["dt"].dt.strftime("%m-%d")
    h["ym"] = h["dt"].dt.strftime("%Y-%m")
    for c, n in (("Community Area", "ca"), ("Ward", "ward"), ("District", "district")):
        h[n] = h[c].astype("Int64")
    h["arr"] = h["Arrest"].astype(str).str.lower().eq("true")
    h["dom"] = h["Domestic"].astype(str).str.lower().eq("true")
    h["loc"] = h["Location Description"].fillna("").str.upper()
    return h


@functools.lru_cache(maxsize=None)
def _ca():
    c = pd.read_csv(_p("community_areas.csv"))
    return c.set_index("area_number")


@functools.lru_cache(maxsize=None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [x.strip() for x in s.columns]
    return s


@functools.lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    m = _ca().reset_index().set_index("community")["area_number"]
    a["area_number"] = a["community_area"].map(m)
    return a.set_index("area_number").sort_index()


@functools.lru_cache(maxsize=None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


@functools.lru_cache(maxsize=None)
def _xw():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].astype(int).map("{:02d}".format)
    return z


@functools.lru_cache(maxsize=None)
def _zhvi_month(ym):
    z = _zhvi()
    return z[z["ym"] == ym].set_index("RegionName")["price"].dropna()


@functools.lru_cache(maxsize=None)
def _ihs_long():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_xw():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    return s


@functools.lru_cache(maxsize=None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    return r


@functools.lru_cache(maxsize=None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"))
    s = s[pd.to_numeric(s["DISTRICT"], errors="coerce").notna()].copy()
    s["DISTRICT"] = s["DISTRICT"].astype(int)
    return s.set_index("DISTRICT")


@functools.lru_cache(maxsize=None)
def _wards():
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")
    return w.set_index("WARD")


# ----------------------------------------------------------------------------- helpers
AREAS = list(range(1, 78))
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _norm(s):
    return re.sub(r"[^a-z0-9]", "", str(s).lower())


def _area(a):
    if isinstance(a, (int, np.integer)) or (isinstance(a, str) and a.strip().isdigit()):
        return int(a)
    c = _ca()
    for num, row in c.iterrows():
        if _norm(row["community"]) == _norm(a) or _norm(row["name_socioeconomic"]) == _norm(a):
            return int(num)
    raise KeyError("unknown community area %r" % a)


def _area_name(n):
    name = str(_ca().loc[int(n), "community"]).title()
    return name.replace("Ohare", "O'Hare").replace("Mckinley", "McKinley")


def _years(period):
    period = str(period)
    if "-" in period:
        a, b = period.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(period)]


def _pop_year(y):
    if y <= 2015:
        return _pop2010()
    return _acs()["total_population"].astype(float)


def _rnd(x, nd=1):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return float("nan")
    return round(float(x), nd)


def _rint(x):
    return int(round(float(x)))


def _parse_filters(parts):
    f = {}
    for p in parts:
        k, v = p.split("=", 1)
        f[k.strip()] = v.strip()
    return f


def _hours_list(v):
    if "-" in v:
        a, b = [int(x) for x in v.split("-")]
        if a <= b:
            return list(range(a, b + 1))
        return list(range(a, 24)) + list(range(0, b + 1))
    return [int(x) for x in v.split("/")]


def _hfilter(h, f):
    for k, v in f.items():
        if k == "dom":
            h = h[h["dom"] == bool(int(v))]
        elif k == "arr":
            h = h[h["arr"] == bool(int(v))]
        elif k == "loc":
            h = h[h["loc"].isin([x.strip().upper() for x in v.split("/")])]
        elif k == "months":
            h = h[h["month"].isin([int(x) for x in v.split("/")])]
        elif k == "wd":
            h = h[h["wd"].isin([int(x) for x in v.split("/")])]
        elif k == "hours":
            h = h[h["hour"].isin(_hours_list(v))]
        elif k == "md":
            h = h[h["md"].isin(v.split("/"))]
        elif k == "ym":  # a month range YYYY-MM:YYYY-MM inclusive
            a, b = v.split(":")
            h = h[(h["ym"] >= a) & (h["ym"] <= b)]
        else:
            raise KeyError("unknown filter %r" % k)
    return h


def _hrows(period=None, filters=None):
    h = _hom()
    if period is not None and str(period) != "all":
        h = h[h["year"].isin(_years(period))]
    if filters:
        if isinstance(filters, str):
            filters = _parse_filters([x for x in filters.split("|") if x])
        h = _hfilter(h, filters)
    return h


def _split_spec(spec):
    parts = spec.split("|")
    head, filters = parts[0], _parse_filters(parts[1:])
    if "@" in head:
        name, period = head.split("@", 1)
    else:
        name, period = head, None
    return name, period, filters


def _per_area(counts):
    return counts.reindex(AREAS).fillna(0).astype(float)


# ----------------------------------------------------------------------------- measures
# _measure returns (value, num, den): value is a Series over the 77 areas; num/den Series for
# pooled statistics (den None -> pooled = sum of values).

SOCIO = {"pci": "PER CAPITA INCOME", "pov": "PERCENT HOUSEHOLDS BELOW POVERTY",
         "unemp": "PERCENT AGED 16+ UNEMPLOYED", "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
         "crowd": "PERCENT OF HOUSING CROWDED", "dep": "PERCENT AGED UNDER 18 OR OVER 64",
         "hardship": "HARDSHIP INDEX"}
BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
RACE = {"black": "black_or_african_american", "white": "white", "whitenh": "white_not_hispanic_or_latino",
        "hisp": "hispanic_or_latino", "asian": "asian"}


def _acs_num_den(name):
    a = _acs().reindex(AREAS)
    pop = a["total_population"].astype(float)
    if name in RACE:
        return a[RACE[name]].astype(float), pop
    if name == "kids":
        return (a["male_0_to_17"] + a["female_0_to_17"]).astype(float), pop
    if name == "seniors":
        return (a["male_65"] + a["female_65"]).astype(float), pop
    if name == "young":
        return (a["male_18_to_24"] + a["female_18_to_24"]).astype(float), pop
    hh = a[BANDS].sum(axis=1).astype(float)
    if name == "inc_lt25":
        return a["under_25_000"].astype(float), hh
    if name == "inc_125":
        return a["_125_000"].astype(float), hh
    if name == "inc_75plus":
        return (a["_75_000_to_125_000"] + a["_125_000"]).astype(float), hh
    raise KeyError(name)


def _ca_zhvi(ym):
    vals = _zhvi_month(ym)
    x = _xw()
    x = x[x["zip"].isin(vals.index)].copy()
    x["v"] = x["zip"].map(vals)
    g = x.groupby("area_number").apply(
        lambda d: (d["v"] * d["share_of_community_area"]).sum() / d["share_of_community_area"].sum(),
        include_groups=False)
    return g.reindex(AREAS).astype(float)


def _ca_ihs(year):
    x = _ihs_xw().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    main = x.drop_duplicates("area_number").set_index("area_number")
    l = _ihs_long()
    ym = l[l["year"] == int(year)].groupby("submarket_code")["index_2000q1_100"].mean()
    out = main.apply(lambda r: ym.get(r["submarket_code"], np.nan) if r["in_price_index"] == 1 else np.nan,
                     axis=1)
    return out.reindex(AREAS).astype(float)


@functools.lru_cache(maxsize=None)
def _measure(spec):
    name, period, f = _split_spec(spec)
    if name in ("hom", "rate", "rate10", "density", "arrshare", "domshare"):
        h = _hrows(period, f)
        h = h[h["ca"].notna()]
        cnt = _per_area(h.groupby("ca").size())
        if name == "hom":
            return cnt, cnt, None
        if name in ("rate", "rate10"):  # rate10: always the 2010 census population (wrong-vintage reading)
            den = sum((_pop2010() if name == "rate10" else _pop_year(y)).reindex(AREAS) for y in _years(period))
            return cnt / den * 1e5, cnt, den / 1e5
        if name == "density":
            sq = _ca()["area_sq_mi"].reindex(AREAS).astype(float)
            return cnt / sq, cnt, sq
        flag = "arr" if name == "arrshare" else "dom"
        num = _per_area(h[h[flag]].groupby("ca").size())
        val = (num / cnt * 100).where(cnt > 0)
        return val, num, cnt / 100
    if name == "homchg":
        a, b = period.split(":")
        fs = "".join("|%s=%s" % kv for kv in f.items())
        v = _measure("hom@" + b + fs)[0] - _measure("hom@" + a + fs)[0]
        return v, v, None
    if name == "ratechg":
        a, b = period.split(":")
        v = _measure("rate@" + b)[0] - _measure("rate@" + a)[0]
        return v, None, None
    if name == "ratepct":  # percent change of the rate between two years
        a, b = period.split(":")
        v = (_measure("rate@" + b)[0] / _measure("rate@" + a)[0] - 1) * 100
        return v, None, None
    if name in SOCIO:
        s = _socio()
        s = s[s["Community Area Number"].notna()].copy()
        s["n"] = s["Community Area Number"].astype(int)
        v = s.set_index("n")[SOCIO[name]].reindex(AREAS).astype(float)
        return v, None, None
    if name == "pop":
        v = _acs()["total_population"].reindex(AREAS).astype(float)
        return v, v, None
    if name == "pop2010":
        v = _pop2010().reindex(AREAS)
        return v, v, None
    if name == "popchg":
        a = _acs()["total_population"].reindex(AREAS).astype(float)
        b = _pop2010().reindex(AREAS)
        return (a / b - 1) * 100, (a - b), b / 100
    if name == "sqmi":
        v = _ca()["area_sq_mi"].reindex(AREAS).astype(float)
        return v, v, None
    if name == "popdens":
        a = _acs()["total_population"].reindex(AREAS).astype(float)
        sq = _ca()["area_sq_mi"].reindex(AREAS).astype(float)
        return a / sq, a, sq
    if name in RACE or name in ("kids", "seniors", "young", "inc_lt25", "inc_125", "inc_75plus"):
        n, d = _acs_num_den(name)
        return n / d * 100, n, d / 100
    if name == "zhvi":
        return _ca_zhvi(period), None, None
    if name == "zipzhvi":  # ZHVI of the area's main ZIP (largest share_of_community_area)
        x = _xw().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
        main = x.drop_duplicates("area_number").set_index("area_number")["zip"]
        vals = _zhvi_month(period)
        return main.map(vals).reindex(AREAS).astype(float), None, None
    if name == "zhvichg":
        a, b = period.split(":")
        return (_ca_zhvi(b) / _ca_zhvi(a) - 1) * 100, None, None
    if name == "ihs":
        return _ca_ihs(period), None, None
    if name == "ihschg":
        a, b = period.split(":")
        return (_ca_ihs(b) / _ca_ihs(a) - 1) * 100, None, None
    raise KeyError("unknown measure %r" % spec)


def _mval(spec):
    neg = spec.startswith("neg|")
    v = _measure(spec[4:] if neg else spec)[0]
    return -v if neg else v


def _round_for(spec, x):
    name = _split_spec(spec.replace("neg|", ""))[0]
    if isinstance(x, str):
        return x
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return float("nan")
    if name in ("hom", "homchg", "pop", "pop2010", "pci", "zhvi", "zipzhvi", "hardship"):
        return _rint(x)
    return _rnd(x, 1)


def _city_value(spec):
    name, period, f = _split_spec(spec)
    if name == "rate":
        h = _hrows(period, f)
        den = sum(_pop_year(y).sum() for y in _years(period))
        return len(h) / den * 1e5
    if name == "density":
        return len(_hrows(period, f)) / _ca()["area_sq_mi"].sum()
    if name in ("arrshare", "domshare"):
        h = _hrows(period, f)
        return h["arr" if name == "arrshare" else "dom"].mean() * 100
    if name in SOCIO:
        s = _socio()
        row = s[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"].iloc[0]
        v = row[SOCIO[name]]
        if pd.isna(v):
            raise ValueError("no city value for %s" % name)
        return float(v)
    if name in RACE or name in ("kids", "seniors", "young", "inc_lt25", "inc_125", "inc_75plus"):
        n, d = _acs_num_den(name)
        return n.sum() / d.sum() * 100
    if name == "popchg":
        return (_acs()["total_population"].sum() / _pop2010().sum() - 1) * 100
    raise ValueError("no city value for %s" % spec)


# ----------------------------------------------------------------------------- sets
def _ranked(spec, order="desc"):
    v = _mval(spec).dropna()
    df = pd.DataFrame({"v": v.values, "n": v.index.values})
    df = df.sort_values(["v", "n"], ascending=[order == "asc", True])
    return list(df["n"])


def _thr(spec, t):
    if t in ("city",):
        return _city_value(spec)
    v = _mval(spec).dropna()
    if t == "median":
        return v.median()
    if t == "mean":
        return v.mean()
    return float(t)


def _cond(c):
    if c == "all":
        return set(AREAS)
    if c.startswith("not:"):
        return set(AREAS) - _cond(c[4:])
    if c.startswith("top:") or c.startswith("bottom:"):
        kind, n, m = c.split(":", 2)
        r = _ranked(m, "desc" if kind == "top" else "asc")
        return set(r[: int(n)])
    if c.startswith("area:"):
        return {_area(x) for x in c[5:].split("/")}
    if c.startswith("sub:"):
        nm = _norm(c[4:])
        x = _ihs_xw().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
        main = x.drop_duplicates("area_number")
        return {int(r.area_number) for r in main.itertuples()
                if _norm(r.submarket_name_2023) == nm or _norm(r.submarket_name_2023.replace("Chicago--", "")) == nm}
    if c.startswith("q:"):
        _, k, i, m = c.split(":", 3)
        v = _mval(m).dropna()
        df = pd.DataFrame({"v": v.values, "n": v.index.values}).sort_values(["v", "n"])
        rk = pd.Series(range(1, len(df) + 1), index=df["n"])
        q = pd.qcut(rk, int(k), labels=False) + 1
        return set(q[q == int(i)].index)
    for op in ("gt", "lt", "ge", "le"):
        if c.startswith(op + ":"):
            rest = c[len(op) + 1:]
            m, t = rest.rsplit(":", 1)
            thr = _thr(m, t)
            v = _mval(m).dropna()
            ok = {"gt": v > thr, "lt": v < thr, "ge": v >= thr, "le": v <= thr}[op]
            return set(v[ok].index)
    raise KeyError("unknown condition %r" % c)


def _set(spec):
    if isinstance(spec, str):
        spec = [spec]
    s = set(AREAS)
    for c in spec:
        s &= _cond(c)
    return sorted(s)


def _stat(areas, measure, how):
    neg = measure.startswith("neg|")
    m = measure[4:] if neg else measure
    val, num, den = _measure(m)
    v = val.reindex(areas)
    if how == "pooled":
        if num is None:
            raise ValueError("no pooled form for %s" % m)
        if den is None:
            r = num.reindex(areas).sum()
        else:
            r = num.reindex(areas).sum() / den.reindex(areas).sum()
    elif how == "sum":
        r = v.sum()
    elif how == "mean":
        r = v.dropna().mean()
    elif how == "median":
        r = v.dropna().median()
    elif how == "max":
        r = v.max()
    elif how == "min":
        r = v.min()
    elif how == "range":
        r = v.max() - v.min()
    elif how == "count":
        return int(v.notna().sum())
    elif how == "city_share":
        name, period, f = _split_spec(m)
        tot = len(_hrows(period, f))
        r = num.reindex(areas).sum() / tot * 100
        return _rnd(r, 1)
    else:
        raise KeyError(how)
    if neg:
        r = -r
    if how == "sum" and _split_spec(m)[0] not in ("hom", "homchg", "pop", "pop2010"):
        return _rnd(r, 1)
    return _round_for(m, r)


# ----------------------------------------------------------------------------- public API
def b36_area_value(*, area, measure):
    """One measure of one community area (see measure specs)."""
    return _round_for(measure, _mval(measure).loc[_area(area)])


def b36_city_value(*, measure):
    """City figure of a measure (rate, density, arrshare, domshare, 2008-12 socio CHICAGO row, ACS pooled)."""
    return _round_for(measure, _city_value(measure))


def b36_area_gap(*, area, measure):
    """Area value - city value (signed); money as an integer."""
    d = _mval(measure).loc[_area(area)] - _city_value(measure)
    return _rint(d) if _split_spec(measure)[0] == "pci" else _rnd(d, 1)


def b36_area_rank(*, area, measure, order="desc"):
    """Rank (1 = highest unless order='asc') of an area among areas with a value."""
    return _ranked(measure, order).index(_area(area)) + 1


def b36_top_area(*, by, rank=1, order="desc", set=None):
    """Name of the area ranked `rank` by measure `by` (optionally inside a set)."""
    r = _ranked(by, order)
    if set is not None:
        s = _set(set)
        r = [a for a in r if a in s]
    return _area_name(r[rank - 1])


def b36_top_value(*, by, measure, rank=1, order="desc", set=None):
    """Measure of the area ranked `rank` by `by` (chain)."""
    r = _ranked(by, order)
    if set is not None:
        s = _set(set)
        r = [a for a in r if a in s]
    return _round_for(measure, _mval(measure).loc[r[rank - 1]])


def b36_set_stat(*, set, measure, how="pooled"):
    """Statistic of a measure over a set of areas."""
    return _stat(_set(set), measure, how)


def b36_set_size(*, set):
    """Number of community areas in a set."""
    return len(_set(set))


def b36_set_diff(*, a, b, measure, how="pooled"):
    """Statistic over set a - statistic over set b (unrounded difference, then rounded)."""
    x = _raw_stat(_set(a), measure, how)
    y = _raw_stat(_set(b), measure, how)
    return _round_for(measure, x - y) if _split_spec(measure)[0] in ("hom", "pci", "zhvi") else _rnd(x - y, 1)


def b36_set_ratio(*, a, b, measure, how="pooled"):
    """Statistic over set a / statistic over set b, 1 decimal."""
    return _rnd(_raw_stat(_set(a), measure, how) / _raw_stat(_set(b), measure, how), 1)


def _raw_stat(areas, measure, how):
    val, num, den = _measure(measure)
    if how == "pooled":
        return num.reindex(areas).sum() / (1 if den is None else den.reindex(areas).sum())
    v = val.reindex(areas).dropna()
    return {"mean": v.mean(), "median": v.median(), "sum": v.sum()}[how]


def b36_pct_of_set(*, set, cond):
    """Areas of `set` that also meet `cond` (a set spec) / areas of `set` * 100."""
    s = _set(set)
    c = _set(cond)
    return _rnd(len([a for a in s if a in c]) / len(s) * 100, 1)


def b36_count_in_set(*, set, cond):
    """Number of areas of `set` that also meet `cond`."""
    c = _set(cond)
    return len([a for a in _set(set) if a in c])


def b36_corr(*, x, y, method="pearson", set=None):
    """Correlation across areas with both values (Pearson; Spearman = Pearson of average ranks)."""
    df = pd.DataFrame({"x": _mval(x), "y": _mval(y)})
    if set is not None:
        df = df.reindex(_set(set))
    df = df.dropna()
    if method == "spearman":
        df = df.rank()
    return _rnd(df["x"].corr(df["y"]), 2)


def b36_sub_share(*, set, period, filters):
    """Share (%) of the set's homicide rows (community-area rows) that also meet extra filters."""
    h = _hrows(period)
    h = h[h["ca"].isin(_set(set))]
    return _rnd(len(_hfilter(h, _parse_filters([x for x in filters.split("|") if x]))) / len(h) * 100, 1)


def b36_city_count(*, period="all", filters="", set=None):
    """City homicide rows in a period with filters (blank CA rows included unless a set is given)."""
    h = _hrows(period, filters)
    if set is not None:
        h = h[h["ca"].isin(_set(set))]
    return int(len(h))


def b36_city_share(*, period="all", filters="", base_filters=""):
    """Percent of city rows (period + base_filters) that also meet filters."""
    b = _hrows(period, base_filters)
    n = _hfilter(b, _parse_filters([x for x in filters.split("|") if x])) if filters else b
    return _rnd(len(n) / len(b) * 100, 1)


def b36_city_pctchg(*, p0, p1, filters0="", filters1=""):
    """Percent change of city homicide counts from period p0 (+filters0) to p1 (+filters1)."""
    a = len(_hrows(p0, filters0))
    b = len(_hrows(p1, filters1))
    return _rnd((b / a - 1) * 100, 1)


def b36_city_rate(*, period, pop="auto"):
    """City homicide rate per 100k a year (all rows / city population of the vintage);
    pop='2010' or 'acs' forces one population (for wrong-vintage stand-ins)."""
    if pop == "auto":
        return _rnd(_city_value("rate@" + str(period)), 1)
    p = _pop2010().sum() if pop == "2010" else _acs()["total_population"].sum()
    return _rnd(len(_hrows(period)) / (p * len(_years(period))) * 1e5, 1)


def _peak(h, kind):
    col = {"month": "month", "weekday": "wd", "hour": "hour", "year": "year", "ym": "ym"}[kind]
    c = h.groupby(col).size()
    c = c.sort_index()
    k = c.idxmax()
    if kind == "month":
        return MONTHS[int(k) - 1]
    if kind == "weekday":
        return WEEKDAYS[int(k)]
    if kind == "ym":
        y, m = k.split("-")
        return "%s %s" % (MONTHS[int(m) - 1], y)
    return int(k)


def b36_city_peak(*, kind, period="all", filters="", set=None, area=None):
    """Peak month/weekday/hour/year/ym of homicide rows (city, a set, or one area); ties earliest."""
    h = _hrows(period, filters)
    if set is not None:
        h = h[h["ca"].isin(_set(set))]
    if area is not None:
        h = h[h["ca"] == _area(area)]
    return _peak(h, kind)


def b36_peak_count(*, kind, period="all", filters="", set=None, area=None):
    """Homicides in the peak bucket of b36_city_peak."""
    h = _hrows(period, filters)
    if set is not None:
        h = h[h["ca"].isin(_set(set))]
    if area is not None:
        h = h[h["ca"] == _area(area)]
    col = {"month": "month", "weekday": "wd", "hour": "hour", "year": "year", "ym": "ym"}[kind]
    return int(h.groupby(col).size().max())


def b36_biggest_mom_jump(*, year, what="month"):
    """Month (name) of `year` with the largest rise in city homicides over the previous month
    (January compared with December of the previous year); what='delta' gives the rise."""
    h = _hom()
    c = h.groupby("ym").size()
    best, bd = None, None
    for m in range(1, 13):
        cur = "%d-%02d" % (year, m)
        prev = "%d-%02d" % (year - 1, 12) if m == 1 else "%d-%02d" % (year, m - 1)
        if cur not in c.index:
            continue
        d = c.get(cur, 0) - c.get(prev, 0)
        if bd is None or d > bd:
            best, bd = m, d
    return MONTHS[best - 1] if what == "month" else int(bd)


def b36_top_location(*, period="all", rank=1, filters="", set=None):
    """Location Description ranked `rank` by homicide rows (upper case as recorded)."""
    h = _hrows(period, filters)
    if set is not None:
        h = h[h["ca"].isin(_set(set))]
    c = h.groupby("loc").size().reset_index(name="n").sort_values(["n", "loc"], ascending=[False, True])
    return c.iloc[rank - 1]["loc"]


def b36_district_count(*, district, period="all", filters=""):
    h = _hrows(period, filters)
    return int((h["district"] == int(district)).sum())


def _district_rank(period, filters):
    h = _hrows(period, filters)
    c = h[h["district"].notna()].groupby("district").size().reset_index(name="n")
    c = c[c["district"].isin(_stations().index)]
    return list(c.sort_values(["n", "district"], ascending=[False, True])["district"].astype(int))


def b36_district_top(*, period="all", rank=1, filters="", what="name"):
    """District ranked by homicide rows: its DISTRICT NAME ('name'), number ('number'),
    count ('count'), or a measure spec of the community area its station sits in."""
    d = _district_rank(period, filters)[rank - 1]
    if what == "name":
        return str(_stations().loc[d, "DISTRICT NAME"])
    if what == "number":
        return int(d)
    if what == "count":
        return b36_district_count(district=d, period=period, filters=filters)
    ca = int(_stations().loc[d, "COMMUNITY AREA"])
    return _round_for(what, _mval(what).loc[ca])


def b36_district_change_top(*, y0, y1, rank=1, what="name"):
    """District with the largest rise (y1 - y0 rows); name, number or the rise."""
    h = _hom()
    st = _stations().index
    a = h[h["year"] == y0].groupby("district").size().reindex(st).fillna(0)
    b = h[h["year"] == y1].groupby("district").size().reindex(st).fillna(0)
    d = (b - a).reset_index()
    d.columns = ["district", "chg"]
    d = d.sort_values(["chg", "district"], ascending=[False, True])
    row = d.iloc[rank - 1]
    if what == "name":
        return str(_stations().loc[int(row["district"]), "DISTRICT NAME"])
    if what == "number":
        return int(row["district"])
    if what == "chg":
        return int(row["chg"])
    ca = int(_stations().loc[int(row["district"]), "COMMUNITY AREA"])
    if what == "ca":
        return _area_name(ca)
    return _round_for(what, _mval(what).loc[ca])


def b36_station_field(*, district, field):
    """A field of a police station row (e.g. 'ADDRESS', 'ZIP', 'DISTRICT NAME', 'COMMUNITY AREA')."""
    v = _stations().loc[int(district), field]
    if field == "COMMUNITY AREA":
        return _area_name(int(v))
    if field == "ZIP":
        return int(v)
    return str(v).strip()


def b36_ward_count(*, ward, period="all", filters=""):
    h = _hrows(period, filters)
    return int((h["ward"] == int(ward)).sum())


def b36_ward_top(*, period="all", rank=1, filters="", what="ward"):
    """Ward ranked by homicide rows (Ward field as recorded): 'ward' number, 'count', 'alder'
    (surname from ward_offices.csv) or 'zip' of the ward office."""
    h = _hrows(period, filters)
    c = h[h["ward"].notna()].groupby("ward").size().reset_index(name="n")
    c = c.sort_values(["n", "ward"], ascending=[False, True])
    w, n = int(c.iloc[rank - 1]["ward"]), int(c.iloc[rank - 1]["n"])
    if what == "ward":
        return w
    if what == "count":
        return n
    return b36_ward_office(ward=w, field=what)


def b36_ward_office(*, ward, field="alder"):
    """Ward office: 'alder' (surname), 'zip', 'address', or an area measure of the community area
    covering most of the office ZIP (share_of_zip) given as 'ca:<measure>' / 'ca:name'."""
    r = _wards().loc[int(ward)]
    if field == "alder":
        return str(r["ALDERMAN"]).split(",")[0].strip()
    if field == "zip":
        return int(r["ZIPCODE"])
    if field == "address":
        return str(r["ADDRESS"])
    if field.startswith("ca:"):
        z = int(r["ZIPCODE"])
        x = _xw()
        x = x[x["zip"] == z].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
        ca = int(x.iloc[0]["area_number"])
        m = field[3:]
        if m == "name":
            return _area_name(ca)
        return _round_for(m, _mval(m).loc[ca])
    raise KeyError(field)


def b36_zip_zhvi(*, zip, month):
    """ZHVI of one ZIP for a month (YYYY-MM), integer dollars."""
    return _rint(_zhvi_month(month).loc[int(zip)])


def b36_zip_zhvichg(*, zip, m0, m1):
    v0, v1 = _zhvi_month(m0).loc[int(zip)], _zhvi_month(m1).loc[int(zip)]
    return _rnd((v1 / v0 - 1) * 100, 1)


def b36_zip_top(*, m0=None, m1=None, month=None, rank=1, order="desc", what="zip"):
    """ZIP ranked by ZHVI growth m0->m1 (or by level at `month`): 'zip', 'value', 'ca' (name of the
    community area covering most of the ZIP by share_of_zip) or 'ca:<measure>'."""
    if month:
        v = _zhvi_month(month)
    else:
        a, b = _zhvi_month(m0), _zhvi_month(m1)
        v = ((b / a - 1) * 100).dropna()
    df = pd.DataFrame({"v": v, "z": v.index}).sort_values(["v", "z"], ascending=[order == "asc", True])
    z, val = int(df.iloc[rank - 1]["z"]), df.iloc[rank - 1]["v"]
    if what == "zip":
        return z
    if what == "value":
        return _rint(val) if month else _rnd(val, 1)
    x = _xw()
    x = x[x["zip"] == z].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    ca = int(x.iloc[0]["area_number"])
    if what == "ca":
        return _area_name(ca)
    m = what[3:]
    return _round_for(m, _mval(m).loc[ca])


def b36_area_zip(*, area):
    """The ZIP with the largest share_of_community_area for an area."""
    x = _xw()
    x = x[x["area_number"] == _area(area)].sort_values("share_of_community_area", ascending=False)
    return int(x.iloc[0]["zip"])


def b36_ihs_value(*, submarket, year=None, yearq=None):
    """IHS index of a submarket (name as in the long file, with or without 'Chicago--', or code):
    yearly mean of quarters, or one quarter YYYYQn."""
    l = _ihs_long()
    nm = _norm(submarket)
    sel = l[(l["submarket_code"].map(_norm) == nm) | (l["submarket_name"].map(_norm) == nm) |
            (l["submarket_name"].str.replace("Chicago--", "").map(_norm) == nm)]
    if yearq:
        return _rnd(sel[sel["yearq"] == yearq]["index_2000q1_100"].iloc[0], 1)
    return _rnd(sel[sel["year"] == int(year)]["index_2000q1_100"].mean(), 1)


def b36_ihs_top(*, y0, y1, rank=1, order="desc", what="name"):
    """Chicago submarket ranked by IHS yearly-mean change y0->y1 (%): 'name' (without 'Chicago--') or 'value'."""
    l = _ihs_long()
    l = l[l["submarket_name"].str.startswith("Chicago--")]
    a = l[l["year"] == y0].groupby("submarket_name")["index_2000q1_100"].mean()
    b = l[l["year"] == y1].groupby("submarket_name")["index_2000q1_100"].mean()
    c = ((b / a - 1) * 100).reset_index()
    c.columns = ["n", "v"]
    c = c.sort_values(["v", "n"], ascending=[order == "asc", True])
    r = c.iloc[rank - 1]
    return r["n"].replace("Chicago--", "") if what == "name" else _rnd(r["v"], 1)


def _pct(s):
    return float(str(s).replace("%", "").replace(",", "").strip())


def _money(s):
    return int(round(float(str(s).replace("$", "").replace(",", "").strip())))


def b36_ihs_summary(*, submarket, field):
    """IHS 2025Q4 summary field for a submarket ('Sub Market' name, 'Chicago--' optional)."""
    s = _ihs_summary()
    nm = _norm(submarket)
    row = s[(s["Sub Market"].map(_norm) == nm) | (s["Sub Market"].str.replace("Chicago--", "").map(_norm) == nm)].iloc[0]
    v = row[field]
    return _money(v) if field == "Median Sales Price" else _rnd(_pct(v), 1)


def b36_ihs_summary_top(*, field, rank=1, order="desc", chicago_only=True, what="name"):
    s = _ihs_summary().copy()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s["v"] = s[field].map(_money if field == "Median Sales Price" else _pct)
    s = s.sort_values(["v", "Sub Market"], ascending=[order == "asc", True])
    r = s.iloc[rank - 1]
    if what == "name":
        return r["Sub Market"].replace("Chicago--", "")
    if what == "value":
        return _money(r[field]) if field == "Median Sales Price" else _rnd(r["v"], 1)
    # an area-set statistic over areas whose main submarket it is: what = "<how>:<measure>"
    how, m = what.split(":", 1)
    return b36_set_stat(set=["sub:" + r["Sub Market"]], measure=m, how=how)


def b36_redfin(*, region, period_end, field):
    """Redfin row value for a region ('Chicago, IL - X' or 'Chicago, IL') and Period End YYYY-MM-DD."""
    r = _redfin()
    row = r[(r["Region"] == region) & (r["end"] == pd.Timestamp(period_end))].iloc[0]
    v = row[field]
    if field == "Median Sale Price":
        s = str(v).replace("$", "").strip()
        mult = 1000 if s.endswith("K") else (1_000_000 if s.endswith("M") else 1)
        return int(round(float(s.rstrip("KM")) * mult))
    if field in ("Homes Sold", "Inventory", "New Listings", "Median List Price", "pending_sales"):
        return _rint(v)
    if field in ("Avg Sale To List", "Sold Above List", "off_market_in_two_weeks"):
        return _rnd(float(v) * 100, 1)
    return _rnd(v, 1)


def b36_redfin_city_year(*, year, field="Homes Sold"):
    """Sum of the 12 monthly 'Chicago, IL' rows whose Period End falls in `year`."""
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    return _rint(r[field].sum())


def b36_redfin_top(*, period_end, field, rank=1, order="desc", min_sold=0):
    """Neighbourhood region ('Chicago, IL - X' rows only) ranked by a field at a Period End; name after ' - '."""
    r = _redfin()
    r = r[r["Region"].str.startswith("Chicago, IL - ") & (r["end"] == pd.Timestamp(period_end))].copy()
    r = r[~r["Region"].isin(["Chicago, IL - Rosehill", "Chicago, IL - Wrightwood"])]
    r = r[r["Homes Sold"] >= min_sold]
    if field == "Median Sale Price":
        r["v"] = r[field].map(lambda s: float(str(s).replace("$", "").rstrip("KM")) *
                              (1000 if str(s).endswith("K") else 1_000_000 if str(s).endswith("M") else 1))
    else:
        r["v"] = r[field].astype(float)
    r = r.dropna(subset=["v"]).sort_values(["v", "Region"], ascending=[order == "asc", True])
    return r.iloc[rank - 1]["Region"].replace("Chicago, IL - ", "")


def b36_change_top(*, by, measure=None, rank=1, order="desc", set=None):
    """Alias of the chain for a change measure: area name if measure is None."""
    if measure is None:
        return b36_top_area(by=by, rank=rank, order=order, set=set)
    return b36_top_value(by=by, measure=measure, rank=rank, order=order, set=set)


def b36_area_peak(*, area, kind="year", period="all", filters=""):
    """Year (or month/weekday/hour) with the most homicide rows in one community area; ties earliest."""
    return b36_city_peak(kind=kind, period=period, filters=filters, area=area)


def b36_years_above(*, area, threshold, period):
    """Number of years in `period` with more than `threshold` homicide rows in an area."""
    h = _hrows(period)
    c = h[h["ca"] == _area(area)].groupby("year").size().reindex(_years(period)).fillna(0)
    return int((c > threshold).sum())


def b36_tie_check(*, by, n, order="desc"):
    """1 if ranks n and n+1 by `by` differ (no tie across the cut), else 0."""
    v = _mval(by)
    r = _ranked(by, order)
    return int(v.loc[r[n - 1]] != v.loc[r[n]])
