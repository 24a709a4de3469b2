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

Conventions added for blind36 (expected answers of the blind37 held-out set)
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

Conventions added for blind37 (function prefix ``b37_``)
--------------------------------------------------------------------------------------
* Function prefix ``b37_``; same measure / set spec language as above.
* For measures with no natural numerator / denominator (socioeconomic percentages, pci,
  hardship, zhvi, zhvichg, ihs, ihschg, ratechg, ratepct, zipzhvi, popchg per-area values
  asked as an "average"), ``how='pooled'`` falls back to the plain mean of the per-area
  values; questions over such measures say "average" and use how='mean'.
* Weekday-vs-weekend / night filters may be combined with any year span: ``wd=5,6`` =
  weekend; ``hours=22-3`` wraps midnight.
* ``b37_area_share`` = an area's homicides meeting the filters / the area's homicides in
  the same period * 100 (e.g. share of a named area's killings that were in the street).
* ``b37_gap_city`` = area value - city value (signed), city values: rate (all rows / city
  population of the vintage), pci/pov/unemp/nohs/crowd/dep from the CHICAGO row of
  socioeconomic.csv, ACS shares pooled over the 77 areas, zhvi = mean of the 77 area values.
* Peak year of a named area (``b37_city_peak(kind='year', area=...)``): the calendar year
  with the most homicide rows in that area over the stated span (ties to the earlier year).
* ``b37_zip_area(zip, what)``: the community area covering most of a named ZIP (largest
  share_of_zip), then a measure of that area.
* ``b37_set_sub_share`` = rows of the set's areas meeting the filters / all rows of the
  set's areas in the same period * 100 (e.g. "what % of those areas' 2020 homicides were in
  June-August", "what % happened on weekends").
* ``b37_area_ihs_summary``: the 2025Q4 IHS summary figure (yoy, covid, since2000, peak,
  bottom, price) of an area's main submarket; the area named or the top area by ``by``.
* An area's main ZIP (``measure='zip'``) or main IHS submarket (``measure='submarket'``,
  name without "Chicago--") may be returned as the label of a chain.
* "Latest Zillow" / "right now" = 2024-09, the last month of property_zhvi_zip_monthly.csv.
* ``b37_n_areas_zero``: number of community areas with zero homicide rows meeting the
  filters in the period (all 77 areas considered).
* Top-N concentration of a ranking inside a set: ``b37_set_stat(..., how='city_share')``
  = set homicides / ALL city homicide rows of the period (blank CA included) * 100.
* Redfin city year totals/means: "homes sold in YYYY" = sum of 12 monthly "Chicago, IL"
  rows with Period End in YYYY; a year's "median sale price" for the city = median of
  those 12 monthly values (questions say "typical month").
* Years with no data (2023 after July 19, 2024+ for homicides; pre-2012 / post-2019 Redfin;
  ZHVI after 2024-09; ACS vintages other than 2019-2023; ward populations; district
  boundaries) are declined, naming the missing year / subject.

Conventions added for blind38 (function prefix ``b38_``)
--------------------------------------------------------
* Function prefix ``b38_``; same measure / set spec language as above (``b38_set_stat``,
  ``b38_top_area``, ``b38_top_value``, ``b38_corr``, ``b38_city_value``, ...).
* Means / medians of count measures (hom, homchg, pop) across a set are rounded to 1 decimal;
  sums, maxima, minima and ranges of counts stay integers; money (pci, zhvi) is always an integer.
* ``b38_set_size(set)`` = number of community areas in a set (e.g. "how many areas are both
  above the city poverty rate and below the median home value").
* ``b38_city_value(measure)`` gives the city figure of any measure: hom / rate / arrshare /
  domshare / density over every homicide row (blank community area included; density over the
  sum of the 77 areas' square miles); socioeconomic figures from the CHICAGO row; ACS shares
  pooled over the 77 areas; zhvi, zhvichg, ihs = plain mean of the area values present.
* ``b38_city_peak(..., value=True)`` returns the number of rows at the peak instead of its label.
* ``b38_district_value`` / ``b38_ward_value`` = homicide rows whose District / Ward field
  equals the number, in the stated period and filters.
* ``b38_zip_top(measure, what='area:<measure>')``: the ZIP ranked by ZHVI or ZHVI change, then
  the community area covering most of that ZIP (largest share_of_zip) and a measure of it.
* ``b38_redfin_top``: neighbourhood regions only (Rosehill/Wrightwood left out), ranked on the
  90-day row ending on the stated date; ``min_sold`` as stated in the question.
* ``b38_ihs_summary_top(scope='chicago')`` ranks the 17 ``Chicago--`` rows of the 2025Q4 summary;
  names without the "Chicago--" prefix.
* Correlations across areas use the 77 community areas (or the set given) with both values present.
* Set ratio and set difference are computed on unrounded statistics and then rounded
  (ratio to 1 decimal).
* ``b38_city_share(period, filters)`` = city rows meeting the filters / all city rows of the
  period * 100 (every row, blank community area included), e.g. "what % of 2022 killings
  happened on the street".
"""

import os
import re
import math
import json
import functools

import numpy as np
import pandas as pd

DATA = os.environ.get("CHIQA_DATA_DIR", "/work/shared/data")
AREAS = list(range(1, 78))


def _p(name):
    return os.path.join(DATA, name)


# ----------------------------------------------------------------------------- loads
@functools.lru_cache(maxsize=None)
def _ca():
    d = pd.read_csv(_p("community_areas.csv"))
    d["name"] = d["community"].str.title().str.replace("Ohare", "O'Hare").str.replace("Mckinley", "McKinley")
    return d.set_index("area_number")


def _name(n):
    return str(_ca().loc[int(n), "name"])


def _norm(s):
    return re.sub(r"[^a-z0-9]", "", str(s).lower())


def _area(a):
    if isinstance(a, (int, np.integer)) or (isinstance(a, str) and a.strip().isdigit()):
        return int(a)
    k = _norm(a)
    for n, row in _ca().iterrows():
        if _norm(row["community"]) == k or _norm(row["name"]) == k:
            return int(n)
    raise KeyError(a)


@functools.lru_cache(maxsize=None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h["dt"].dt.year
    h["month"] = h["dt"].dt.month
    h["wd"] = h["dt"].dt.weekday
    h["hour"] = h["dt"].dt.hour
    h["md"] = h["dt"].dt.strftime("%m-%d")
    h["ym"] = h["dt"].dt.strftime("%Y-%m")
    for c in ["Community Area", "Ward", "District"]:
        h[c] = pd.to_numeric(h[c], errors="coerce").astype("Int64")
    h["ca"] = h["Community Area"]
    h["arr"] = h["Arrest"].astype(str).str.lower() == "true"
    h["dom"] = h["Domestic"].astype(str).str.lower() == "true"
    h["loc"] = h["Location Description"].fillna("").str.upper()
    return h


@functools.lru_cache(maxsize=None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [c.strip() for c in s.columns]
    return s


@functools.lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    m = {c: n for n, c in _ca()["community"].items()}
    a["area"] = a["community_area"].map(m)
    return a.set_index("area").sort_index()


@functools.lru_cache(maxsize=None)
def _pop2010():
    return pd.read_csv(_p("census_population_2010.csv")).set_index("NID")["POP2010"].astype(float)


@functools.lru_cache(maxsize=None)
def _zipx():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _ihsx():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: "%02d" % m)
    return z.pivot_table(index="RegionName", columns="ym", values="price", aggfunc="first")


@functools.lru_cache(maxsize=None)
def _ihs_long():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    s.columns = [c.strip() for c in s.columns]
    return s


@functools.lru_cache(maxsize=None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"), dtype=str)
    s = s[s["DISTRICT"].str.strip().str.isdigit()].copy()
    s["d"] = s["DISTRICT"].astype(int)
    s["ca"] = s["COMMUNITY AREA"].astype(int)
    return s.set_index("d")


@functools.lru_cache(maxsize=None)
def _wards():
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")
    w["WARD"] = w["WARD"].astype(int)
    return w.set_index("WARD")


@functools.lru_cache(maxsize=None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")

    def money(v):
        if pd.isna(v):
            return np.nan
        v = str(v).replace("$", "").replace(",", "").strip()
        mult = 1
        if v.endswith("K"):
            mult, v = 1000, v[:-1]
        elif v.endswith("M"):
            mult, v = 1000000, v[:-1]
        return float(v) * mult
    r["sale_price"] = r["Median Sale Price"].map(money)
    return r


# ----------------------------------------------------------------------------- rounding
COUNT = {"hom", "homchg", "pop", "pop2010", "n"}
MONEY = {"pci", "zhvi", "zipzhvi", "price"}


def _base(measure):
    return str(measure).split("|")[0].split("@")[0]


def _rnd(v, measure=None, how=None, corr=False):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return float("nan")
    if corr:
        return round(float(v), 2)
    b = _base(measure) if measure else None
    if b in MONEY:
        return int(round(float(v)))
    if b in COUNT and how not in ("mean", "median", "pooled_mean"):
        return int(round(float(v)))
    return round(float(v), 1)


# ----------------------------------------------------------------------------- homicide filters
def _years(period):
    if period is None or period == "":
        return list(range(2001, 2024))
    period = str(period)
    if "-" in period and len(period.split("-")[0]) == 4 and len(period.split("-")[1]) == 4:
        a, b = period.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(period)]


def _ints(s):
    out = []
    for part in str(s).split(","):
        out.append(int(part))
    return out


def _hours(s):
    s = str(s)
    if "-" in s and "," not in s:
        a, b = [int(x) for x in s.split("-")]
        if a <= b:
            return list(range(a, b + 1))
        return list(range(a, 24)) + list(range(0, b + 1))
    return _ints(s)


def _filter(h, filters):
    for k, v in filters.items():
        if k == "dom":
            h = h[h["dom"] == bool(int(v))]
        elif k == "arr":
            h = h[h["arr"] == bool(int(v))]
        elif k == "loc":
            h = h[h["loc"].isin([x.strip().upper() for x in str(v).split("/")])]
        elif k == "months":
            h = h[h["month"].isin(_ints(v))]
        elif k == "wd":
            h = h[h["wd"].isin(_ints(v))]
        elif k == "hours":
            h = h[h["hour"].isin(_hours(v))]
        elif k == "md":
            h = h[h["md"].isin(str(v).split(","))]
        elif k == "ym":
            a, b = str(v).split(":")
            h = h[(h["ym"] >= a) & (h["ym"] <= b)]
        else:
            raise ValueError("unknown filter " + k)
    return h


def _parse(measure):
    parts = str(measure).split("|")
    head = parts[0]
    filters = {}
    for p in parts[1:]:
        k, v = p.split("=", 1)
        filters[k] = v
    if "@" in head:
        name, period = head.split("@", 1)
    else:
        name, period = head, None
    return name, period, filters


def _rows(period=None, filters=None):
    h = _hom()
    h = h[h["year"].isin(_years(period))]
    return _filter(h, filters or {})


def _popyear(y):
    if y <= 2015:
        return _pop2010().reindex(AREAS)
    return _acs()["total_population"].reindex(AREAS).astype(float)


def _popsum(period, vintage=None):
    tot = pd.Series(0.0, index=AREAS)
    for y in _years(period):
        if vintage == "2010":
            tot = tot + _pop2010().reindex(AREAS)
        elif vintage == "acs":
            tot = tot + _acs()["total_population"].reindex(AREAS).astype(float)
        else:
            tot = tot + _popyear(y)
    return tot


def _count_by_area(period, filters):
    r = _rows(period, filters)
    r = r[r["ca"].notna()]
    return r.groupby(r["ca"].astype(int)).size().reindex(AREAS, fill_value=0).astype(float)


# ----------------------------------------------------------------------------- area measures
SOCIO = {"pci": "PER CAPITA INCOME", "pov": "PERCENT HOUSEHOLDS BELOW POVERTY",
         "unemp": "PERCENT AGED 16+ UNEMPLOYED", "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
         "crowd": "PERCENT OF HOUSING CROWDED", "dep": "PERCENT AGED UNDER 18 OR OVER 64",
         "hardship": "HARDSHIP INDEX"}
BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
ACS_SHARE = {
    "black": (["black_or_african_american"], "pop"), "white": (["white"], "pop"),
    "whitenh": (["white_not_hispanic_or_latino"], "pop"), "hisp": (["hispanic_or_latino"], "pop"),
    "asian": (["asian"], "pop"), "kids": (["male_0_to_17", "female_0_to_17"], "pop"),
    "seniors": (["male_65", "female_65"], "pop"), "young": (["male_18_to_24", "female_18_to_24"], "pop"),
    "inc_lt25": (["under_25_000"], "hh"), "inc_125": (["_125_000"], "hh"),
    "inc_75plus": (["_75_000_to_125_000", "_125_000"], "hh"),
}


def _zhvi_area(ym):
    z = _zhvi()
    if ym not in z.columns:
        raise KeyError("no ZHVI for " + ym)
    x = _zipx().copy()
    x["v"] = x["zip"].map(z[ym])
    x = x[x["v"].notna()]
    x["wv"] = x["v"] * x["share_of_community_area"]
    g = x.groupby("area_number")
    return (g["wv"].sum() / g["share_of_community_area"].sum()).reindex(AREAS)


def _main_zip():
    x = _zipx().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    return x.groupby("area_number").first()["zip"].reindex(AREAS)


def _main_sub():
    x = _ihsx().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    return x.groupby("area_number").first()[["submarket_code", "in_price_index"]].reindex(AREAS)


def _ihs_year(code, year):
    l = _ihs_long()
    v = l[(l["submarket_code"] == code) & (l["year"] == int(year))]["index_2000q1_100"]
    if len(v) != 4:
        return np.nan
    return float(v.mean())


def _sub_code(name):
    l = _ihs_long()
    k = _norm(str(name).replace("Chicago--", ""))
    for code, nm in l[["submarket_code", "submarket_name"]].drop_duplicates().values:
        if _norm(str(nm).replace("Chicago--", "")) == k or _norm(code) == k:
            return code
    raise KeyError(name)


def _m(measure):
    """-> (values Series over AREAS, numerator, denominator, scale) ; num None = no natural pooling."""
    name, period, f = _parse(measure)
    if name == "hom":
        c = _count_by_area(period, f)
        return c, c, pd.Series(1.0, index=AREAS), None
    if name == "rate":
        c = _count_by_area(period, f)
        p = _popsum(period)
        return c / p * 1e5, c, p, 1e5
    if name == "rate10":
        c = _count_by_area(period, f)
        p = _popsum(period, "2010")
        return c / p * 1e5, c, p, 1e5
    if name == "density":
        c = _count_by_area(period, f)
        s = _ca()["area_sq_mi"].reindex(AREAS)
        return c / s, c, s, 1.0
    if name in ("arrshare", "domshare"):
        r = _rows(period, f)
        r = r[r["ca"].notna()]
        col = "arr" if name == "arrshare" else "dom"
        tot = r.groupby(r["ca"].astype(int)).size().reindex(AREAS, fill_value=0).astype(float)
        fl = r[r[col]].groupby(r[r[col]]["ca"].astype(int)).size().reindex(AREAS, fill_value=0).astype(float)
        v = fl / tot.replace(0, np.nan) * 100
        return v, fl, tot, 100.0
    if name == "homchg":
        a, b = period.split(":")
        v = _count_by_area(b, f) - _count_by_area(a, f)
        return v, v, pd.Series(1.0, index=AREAS), None
    if name == "ratechg":
        a, b = period.split(":")
        v = _m("rate@%s" % b + "".join("|%s=%s" % kv for kv in f.items()))[0] - \
            _m("rate@%s" % a + "".join("|%s=%s" % kv for kv in f.items()))[0]
        return v, None, None, None
    if name == "ratepct":
        a, b = period.split(":")
        ra = _m("rate@%s" % a)[0]
        rb = _m("rate@%s" % b)[0]
        return (rb / ra.replace(0, np.nan) - 1) * 100, None, None, None
    if name in SOCIO:
        s = _socio()
        s = s[s["Community Area Number"].notna()].copy()
        s.index = s["Community Area Number"].astype(int)
        return s[SOCIO[name]].astype(float).reindex(AREAS), None, None, None
    if name == "pop":
        v = _acs()["total_population"].astype(float).reindex(AREAS)
        return v, v, pd.Series(1.0, index=AREAS), None
    if name == "pop2010":
        v = _pop2010().reindex(AREAS)
        return v, v, pd.Series(1.0, index=AREAS), None
    if name == "sqmi":
        v = _ca()["area_sq_mi"].reindex(AREAS).astype(float)
        return v, v, pd.Series(1.0, index=AREAS), None
    if name == "popdens":
        p = _acs()["total_population"].astype(float).reindex(AREAS)
        s = _ca()["area_sq_mi"].reindex(AREAS).astype(float)
        return p / s, p, s, 1.0
    if name == "popchg":
        p = _acs()["total_population"].astype(float).reindex(AREAS)
        q = _pop2010().reindex(AREAS)
        return (p - q) / q * 100, p - q, q, 100.0
    if name in ACS_SHARE:
        cols, base = ACS_SHARE[name]
        a = _acs()
        num = a[cols].astype(float).sum(axis=1).reindex(AREAS)
        den = (a["total_population"].astype(float) if base == "pop" else a[BANDS].astype(float).sum(axis=1)).reindex(AREAS)
        return num / den * 100, num, den, 100.0
    if name == "zhvi":
        return _zhvi_area(period), None, None, None
    if name == "zhvichg":
        a, b = period.split(":")
        return (_zhvi_area(b) / _zhvi_area(a) - 1) * 100, None, None, None
    if name == "zipzhvi":
        z = _zhvi()
        return _main_zip().map(z[period]).astype(float), None, None, None
    if name in ("ihs", "ihschg"):
        return _ihs_by_area(name, period), None, None, None
    raise ValueError("unknown measure " + str(measure))


def _ihs_by_area(name, period):
    """(Split out of _m by the project's 80-line rule; unchanged.)"""
    ms = _main_sub()
    out = pd.Series(np.nan, index=AREAS)
    for n in AREAS:
        code, ok = ms.loc[n, "submarket_code"], ms.loc[n, "in_price_index"]
        if not ok:
            continue
        if name == "ihs":
            out[n] = _ihs_year(code, period)
        else:
            a, b = period.split(":")
            out[n] = (_ihs_year(code, b) / _ihs_year(code, a) - 1) * 100
    return out


def _vals(measure):
    return _m(measure)[0]


# ----------------------------------------------------------------------------- city values
def _city(measure):
    name, period, f = _parse(measure)
    if name == "hom":
        return float(len(_rows(period, f)))
    if name in ("rate", "rate10"):
        n = len(_rows(period, f))
        p = 0.0
        for y in _years(period):
            if name == "rate10" or y <= 2015:
                p += _pop2010().sum()
            else:
                p += _acs()["total_population"].astype(float).sum()
        return n / p * 1e5
    if name in ("arrshare", "domshare"):
        r = _rows(period, f)
        col = "arr" if name == "arrshare" else "dom"
        return r[col].mean() * 100
    if name in SOCIO:
        s = _socio()
        row = s[s["COMMUNITY AREA NAME"].astype(str).str.upper() == "CHICAGO"].iloc[0]
        return float(row[SOCIO[name]])
    if name == "density":
        return len(_rows(period, f)) / _ca()["area_sq_mi"].sum()
    if name in ("zhvi", "zhvichg", "zipzhvi", "ihs", "ihschg", "ratechg", "ratepct", "homchg"):
        if name == "homchg":
            a, b = period.split(":")
            return float(len(_rows(b, f)) - len(_rows(a, f)))
        if name == "ratechg":
            a, b = period.split(":")
            return _city("rate@" + b) - _city("rate@" + a)
        return float(_vals(measure).mean())
    v, num, den, sc = _m(measure)
    return float(num.sum() / den.sum() * (sc or 1.0))


# ----------------------------------------------------------------------------- sets
def _split_cond(c):
    return c


def _thr(measure, thr, v):
    if thr == "city":
        return _city(measure)
    if thr == "median":
        return float(v.dropna().median())
    if thr == "mean":
        return float(v.dropna().mean())
    return float(thr)


def _ranked(v, order="desc"):
    v = v.dropna()
    df = pd.DataFrame({"v": v.values, "n": list(v.index)})
    return df.sort_values(["v", "n"], ascending=[order == "asc", True])["n"].tolist()


def _cond(c):
    c = str(c)
    if c == "all":
        return set(AREAS)
    if c.startswith("not:"):
        return set(AREAS) - _cond(c[4:])
    if c.startswith("top:") or c.startswith("bottom:"):
        kind, n, meas = c.split(":", 2)
        return set(_ranked(_vals(meas), "desc" if kind == "top" else "asc")[: int(n)])
    if c.startswith("q:"):
        _, k, i, meas = c.split(":", 3)
        v = _vals(meas).dropna()
        r = v.rank(method="first")
        q = pd.qcut(r, int(k), labels=False) + 1
        return set(q[q == int(i)].index)
    if c.startswith("area:"):
        return set(_area(a) for a in c[5:].split("/"))
    if c.startswith("sub:"):
        code = _sub_code(c[4:])
        ms = _main_sub()
        return set(ms[ms["submarket_code"] == code].index)
    for op in ("gt", "lt", "ge", "le"):
        if c.startswith(op + ":"):
            meas, thr = c[len(op) + 1:].rsplit(":", 1)
            v = _vals(meas)
            t = _thr(meas, thr, v)
            vv = v.dropna()
            sel = {"gt": vv > t, "lt": vv < t, "ge": vv >= t, "le": vv <= t}[op]
            return set(vv[sel].index)
    raise ValueError("bad condition " + c)


def _set(spec):
    if spec is None:
        return set(AREAS)
    if isinstance(spec, str):
        spec = [spec]
    s = set(AREAS)
    for c in spec:
        s &= _cond(c)
    return s


def _stat(members, measure, how):
    v, num, den, sc = _m(measure)
    idx = sorted(members)
    vv = v.reindex(idx).dropna()
    if how == "pooled":
        if num is None:
            return float(vv.mean())
        if sc is None:
            return float(num.reindex(idx).sum())
        return float(num.reindex(idx).sum() / den.reindex(idx).sum() * sc)
    if how == "sum":
        return float(vv.sum())
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
        name, period, f = _parse(measure)
        return float(num.reindex(idx).sum() / len(_rows(period, f)) * 100)
    raise ValueError(how)


def _pct_how(how):
    return how in ("city_share", "share")


# ============================================================================= public API
def b38_area_value(area, measure):
    """A measure of one community area."""
    v = _vals(measure)[_area(area)]
    return _rnd(v, measure)


def b38_area_name(area):
    return _name(_area(area))


def b38_area_rank(area, measure, order="desc"):
    return int(_ranked(_vals(measure), order).index(_area(area)) + 1)


def b38_top_area(by, rank=1, order="desc", set=None):
    m = _set(set)
    v = _vals(by).reindex(sorted(m))
    return _name(_ranked(v, order)[int(rank) - 1])


def b38_top_value(by, measure, rank=1, order="desc", set=None):
    m = _set(set)
    v = _vals(by).reindex(sorted(m))
    n = _ranked(v, order)[int(rank) - 1]
    if measure == "zip":
        return str(int(_main_zip()[n]))
    if measure == "submarket":
        code = _main_sub().loc[n, "submarket_code"]
        l = _ihs_long()
        nm = l[l["submarket_code"] == code]["submarket_name"]
        return str(nm.iloc[0]).replace("Chicago--", "") if len(nm) else str(code)
    if measure == "name":
        return _name(n)
    return _rnd(_vals(measure)[n], measure)


def b38_gap_city(area, measure):
    v = _vals(measure)[_area(area)] - _city(measure)
    return _rnd(v, measure)


def b38_city_value(measure):
    return _rnd(_city(measure), measure)


def b38_set_stat(set, measure, how="pooled"):
    v = _stat(_set(set), measure, how)
    if how in ("count",):
        return int(v)
    if how == "city_share":
        return round(v, 1)
    return _rnd(v, measure, how)


def b38_set_size(set):
    return int(len(_set(set)))


def b38_set_diff(a, b, measure, how="pooled"):
    return _rnd(_stat(_set(a), measure, how) - _stat(_set(b), measure, how), measure, how)


def b38_set_ratio(a, b, measure, how="pooled"):
    return round(_stat(_set(a), measure, how) / _stat(_set(b), measure, how), 1)


def b38_pct_of_set(set, cond):
    s = _set(set)
    c = _set(cond)
    return round(len(s & c) / len(s) * 100, 1)


def b38_set_sub_share(set, period, filters):
    """rows of the set's areas meeting filters / all rows of the set's areas in the period * 100."""
    s = _set(set)
    r = _rows(period)
    r = r[r["ca"].isin(list(s))]
    sub = _filter(r, _parse("x|" + filters)[2] if filters else {})
    return round(len(sub) / len(r) * 100, 1)


def b38_area_share(area, period, filters):
    return b38_set_sub_share(["area:%s" % _area(area)], period, filters)


def b38_corr(x, y, method="pearson", set=None):
    m = sorted(_set(set))
    a = _vals(x).reindex(m)
    b = _vals(y).reindex(m)
    d = pd.DataFrame({"a": a, "b": b}).dropna()
    if method == "spearman":
        r = d["a"].rank().corr(d["b"].rank())
    else:
        r = d["a"].corr(d["b"])
    return round(float(r), 2)


WD = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]


def _peak(r, kind):
    if kind == "weekday":
        c = r.groupby("wd").size()
    elif kind == "month":
        c = r.groupby("month").size()
    elif kind == "hour":
        c = r.groupby("hour").size()
    elif kind == "year":
        c = r.groupby("year").size()
    elif kind == "ym":
        c = r.groupby("ym").size()
    elif kind == "loc":
        c = r[r["loc"] != ""].groupby("loc").size()
    else:
        raise ValueError(kind)
    c = c.sort_index()
    k = c.idxmax()
    return k, int(c.max())


def _label(kind, k):
    if kind == "weekday":
        return WD[int(k)]
    if kind == "month":
        return MONTHS[int(k) - 1]
    if kind == "hour":
        return int(k)
    if kind == "year":
        return int(k)
    if kind == "ym":
        y, m = k.split("-")
        return "%s %s" % (MONTHS[int(m) - 1], y)
    return str(k)


def b38_city_peak(kind, period=None, filters="", set=None, area=None, value=False):
    """kind in weekday/month/hour/year/ym/loc; value=True returns the count at the peak."""
    r = _rows(period, _parse("x|" + filters)[2] if filters else {})
    if set is not None:
        r = r[r["ca"].isin(list(_set(set)))]
    if area is not None:
        r = r[r["ca"] == _area(area)]
    k, n = _peak(r, kind)
    return n if value else _label(kind, k)


def b38_city_pctchg(old, new):
    """percent change of two city values (measure specs)."""
    return round((_city(new) / _city(old) - 1) * 100, 1)


def b38_years_above(n, period, area=None):
    r = _rows(period)
    if area is not None:
        r = r[r["ca"] == _area(area)]
    c = r.groupby("year").size().reindex(_years(period), fill_value=0)
    return int((c > n).sum())


def b38_n_areas_zero(measure):
    v = _vals(measure)
    return int((v == 0).sum())


# ---- police districts
def _district_counts(period, filters=""):
    r = _rows(period, _parse("x|" + filters)[2] if filters else {})
    st = _stations()
    r = r[r["District"].notna()]
    return r.groupby(r["District"].astype(int)).size().reindex(st.index, fill_value=0)


def _district_what(d, what):
    st = _stations()
    if what == "name":
        return str(st.loc[d, "DISTRICT NAME"])
    if what == "number":
        return int(d)
    if what == "ca":
        return _name(st.loc[d, "ca"])
    return _rnd(_vals(what)[int(st.loc[d, "ca"])], what)


def b38_district_top(period, rank=1, what="name", order="desc", filters=""):
    c = _district_counts(period, filters)
    df = pd.DataFrame({"c": c.values, "d": list(c.index)}).sort_values(["c", "d"], ascending=[order == "asc", True])
    d = int(df["d"].iloc[int(rank) - 1])
    if what == "count":
        return int(df["c"].iloc[int(rank) - 1])
    return _district_what(d, what)


def b38_district_value(district, period, filters=""):
    return int(_district_counts(period, filters)[int(district)])


def b38_district_change_top(y0, y1, what="name", rank=1):
    c = _district_counts(str(y1)) - _district_counts(str(y0))
    df = pd.DataFrame({"c": c.values, "d": list(c.index)}).sort_values(["c", "d"], ascending=[False, True])
    d = int(df["d"].iloc[int(rank) - 1])
    if what == "change":
        return int(df["c"].iloc[int(rank) - 1])
    return _district_what(d, what)


# ---- wards
def _office_ca(ward):
    z = _wards().loc[int(ward), "ZIPCODE"]
    x = _zipx()
    x = x[x["zip"] == int(z)].sort_values("share_of_zip", ascending=False)
    return int(x["area_number"].iloc[0])


def _ward_what(w, what):
    wr = _wards()
    if what == "ward":
        return int(w)
    if what == "alder":
        return str(wr.loc[int(w), "ALDERMAN"]).split(",")[0].strip()
    if what == "zip":
        return str(int(wr.loc[int(w), "ZIPCODE"]))
    if what == "address":
        return str(wr.loc[int(w), "ADDRESS"])
    if what == "ca":
        return _name(_office_ca(w))
    if what.startswith("ca:"):
        m = what[3:]
        return _rnd(_vals(m)[_office_ca(w)], m)
    raise ValueError(what)


def b38_ward_top(period, rank=1, what="ward", order="desc", filters=""):
    r = _rows(period, _parse("x|" + filters)[2] if filters else {})
    r = r[r["Ward"].notna()]
    c = r.groupby(r["Ward"].astype(int)).size().reindex(range(1, 51), fill_value=0)
    df = pd.DataFrame({"c": c.values, "w": list(c.index)}).sort_values(["c", "w"], ascending=[order == "asc", True])
    w = int(df["w"].iloc[int(rank) - 1])
    if what == "count":
        return int(df["c"].iloc[int(rank) - 1])
    return _ward_what(w, what)


def b38_ward_value(ward, period, filters=""):
    r = _rows(period, _parse("x|" + filters)[2] if filters else {})
    return int((r["Ward"] == int(ward)).sum())


def b38_ward_office(ward, field):
    return _ward_what(int(ward), field)


# ---- ZIPs (ZHVI)
def _zipv(measure):
    name, period, _ = _parse(measure)
    z = _zhvi()
    if name == "zhvi":
        return z[period]
    if name == "zhvichg":
        a, b = period.split(":")
        return (z[b] / z[a] - 1) * 100
    raise ValueError(measure)


def b38_zip_value(zip, measure):
    return _rnd(_zipv(measure)[int(zip)], measure)


def b38_zip_top(measure, rank=1, order="desc", what="zip"):
    v = _zipv(measure).dropna()
    df = pd.DataFrame({"v": v.values, "z": list(v.index)}).sort_values(["v", "z"], ascending=[order == "asc", True])
    z = int(df["z"].iloc[int(rank) - 1])
    if what == "zip":
        return str(z)
    if what == "value":
        return _rnd(df["v"].iloc[int(rank) - 1], measure)
    x = _zipx()
    x = x[x["zip"] == z].sort_values("share_of_zip", ascending=False)
    n = int(x["area_number"].iloc[0])
    if what == "area":
        return _name(n)
    if what.startswith("area:"):
        m = what[5:]
        return _rnd(_vals(m)[n], m)
    raise ValueError(what)


def b38_zip_area(zip, what="name"):
    x = _zipx()
    x = x[x["zip"] == int(zip)].sort_values("share_of_zip", ascending=False)
    n = int(x["area_number"].iloc[0])
    if what == "name":
        return _name(n)
    return _rnd(_vals(what)[n], what)


# ---- IHS
def b38_ihs(submarket, year):
    code = _sub_code(submarket)
    if "Q" in str(year):
        l = _ihs_long()
        return round(float(l[(l["submarket_code"] == code) & (l["yearq"] == str(year))]["index_2000q1_100"].iloc[0]), 1)
    return round(_ihs_year(code, year), 1)


def b38_ihs_chg(submarket, y0, y1):
    code = _sub_code(submarket)
    return round((_ihs_year(code, y1) / _ihs_year(code, y0) - 1) * 100, 1)


SUMF = {"since2000": "Change Since 2000", "peak": "Change Peak to Current", "bottom": "Change Bottom to Current",
        "covid": "COVID-19 Pandemic Start to Current", "yoy": "Year-over-year change", "price": "Median Sales Price"}


def _sumval(x):
    s = str(x).replace("$", "").replace(",", "").replace("%", "").strip()
    return float(s)


def b38_ihs_summary(submarket, field):
    s = _ihs_summary()
    k = _norm(str(submarket).replace("Chicago--", ""))
    row = s[s["Sub Market"].map(lambda n: _norm(str(n).replace("Chicago--", ""))) == k].iloc[0]
    v = _sumval(row[SUMF[field]])
    return int(round(v)) if field == "price" else round(v, 1)


def b38_ihs_summary_top(field, rank=1, order="desc", scope="chicago", value=False):
    s = _ihs_summary().copy()
    if scope == "chicago":
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s["v"] = s[SUMF[field]].map(_sumval)
    s = s.sort_values(["v", "Number"], ascending=[order == "asc", True])
    row = s.iloc[int(rank) - 1]
    if value:
        return int(round(row["v"])) if field == "price" else round(float(row["v"]), 1)
    return str(row["Sub Market"]).replace("Chicago--", "")


def b38_area_ihs_summary(area, field):
    code = _main_sub().loc[_area(area), "submarket_code"]
    s = _ihs_summary()
    v = _sumval(s[s["Number"] == code][SUMF[field]].iloc[0])
    return int(round(v)) if field == "price" else round(v, 1)


# ---- Redfin
RF = {"sold": "Homes Sold", "price": "sale_price", "dom": "Median Dom", "inventory": "Inventory",
      "above": "Sold Above List", "s2l": "Avg Sale To List", "ppsf": "Median Sale Ppsf",
      "listings": "New Listings", "list_price": "Median List Price"}


def _rfv(field, v):
    if field in ("above", "s2l"):
        return round(float(v) * 100, 1)
    if field in ("sold", "price", "inventory", "listings", "list_price"):
        return int(round(float(v)))
    return round(float(v), 1)


def b38_redfin(region, date, field):
    r = _redfin()
    reg = region if region.startswith("Chicago, IL") else "Chicago, IL - " + region
    row = r[(r["Region"] == reg) & (r["end"] == pd.Timestamp(date))]
    return _rfv(field, row[RF[field]].iloc[0])


def b38_redfin_city_year(year, field, how="sum"):
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    v = r[RF[field]].astype(float)
    x = v.sum() if how == "sum" else (v.median() if how == "median" else v.mean())
    return _rfv(field, x)


def b38_redfin_top(date, field, rank=1, order="desc", min_sold=0, value=False):
    r = _redfin()
    r = r[(r["end"] == pd.Timestamp(date)) & r["Region"].str.startswith("Chicago, IL - ")]
    r = r[~r["Region"].str.contains("Rosehill|Wrightwood")]
    r = r[r["Homes Sold"].fillna(0) >= min_sold]
    r = r[r[RF[field]].notna()]
    r = r.sort_values([RF[field], "Region"], ascending=[order == "asc", True])
    row = r.iloc[int(rank) - 1]
    if value:
        return _rfv(field, row[RF[field]])
    return row["Region"].replace("Chicago, IL - ", "")


def b38_city_share(period, filters):
    """city rows meeting the filters / all city rows of the period * 100 (blank CA included)."""
    r = _rows(period)
    sub = _filter(r, _parse("x|" + filters)[2])
    return round(len(sub) / len(r) * 100, 1)
