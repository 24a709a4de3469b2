"""
Expected answers for the blind39 held-out question set (Chicago public data).

(Conventions below copied from CONVENTIONS.txt, first written for blind32 and extended by later
sets; the blind39 additions are in the last section.)

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

Conventions added for blind39 (function prefix ``b39_``)
--------------------------------------------------------
* Function prefix ``b39_``; the same measure / set spec language as above (``b39_set_stat``,
  ``b39_top_area``, ``b39_top_value``, ``b39_corr``, ``b39_city_value``, ``b39_set_size`` ...).
  Set statistics with how in {'pooled','sum','mean','median','max','min','range','count',
  'city_share','popw'}.
* ``how='popw'`` (population-weighted average of a per-area figure over a set) =
  sum(value * ACS 2019-2023 total_population) / sum(ACS population) over the set's areas with a
  value; the question says "weighted by (current / 2019-23 ACS) population".
* ``b39_ratio_city(area, measure)`` = area value / city value (unrounded, then 1 decimal),
  e.g. "how many times the city rate"; city values as in ``b38_city_value``.
* ``b39_n_for_share(period, share)`` = the smallest number N of community areas such that the
  top-N areas by homicide rows in the period hold at least ``share`` percent of ALL city homicide
  rows of the period (blank community area included); ranking desc, ties by area number.
* ``b39_years_above_city(area, y0, y1)`` = number of calendar years y0..y1 in which the named
  area's homicide rate (vintage rule above) was strictly above the city-wide rate of that year.
* ``b39_city_peak(kind=..., set=...)``: the month / weekday / hour / year with the most rows in
  the set's areas over the stated period (ties to the earliest); ``value=True`` gives the count.
* ``b39_area_trend(area, y0, y1)``: ordinary least-squares slope of an area's yearly homicide
  count on the year (victims per year, 1 decimal); city version with area=None uses every row.
* ``b39_top_overlap(n, a, b)``: how many areas are in both the top-n by measure a and the top-n
  by measure b (``b39_set_size`` of the two conditions ANDed).
* ``b39_district_share(district, period)`` = rows whose District field is the number / all city
  rows of the period * 100.
* ``b39_ward_office_count(zip)`` = number of ward offices whose ZIPCODE is that ZIP (ward 42 has
  none recorded).
* A month-of-year "typical" Redfin city figure = median of the monthly "Chicago, IL" rows of
  that calendar year (as in blind37); Redfin "Homes Sold" for a year = sum of the 12 rows.
* Rounding exposes ``_LAST_RAW`` (the unrounded value of the last call) so check.py can flag
  values within 1e-6 of a rounding tie.
"""

import os
import re
import math
import json
import functools

import numpy as np
import pandas as pd

DATA = os.environ.get("CHIQA_DATA_DIR", "/work/shared/data")
_LAST_RAW = None

COUNT_MEASURES = {"hom", "homchg", "pop", "pop2010"}
MONEY_MEASURES = {"pci", "zhvi", "zipzhvi"}
NOPOOL = {"pov", "unemp", "nohs", "crowd", "dep", "pci", "hardship", "zhvi", "zhvichg",
          "ihs", "ihschg", "ratechg", "ratepct", "zipzhvi"}
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _p(name):
    return os.path.join(DATA, name)


def _rnd(x, nd):
    global _LAST_RAW
    _LAST_RAW = float(x)
    if x is None or (isinstance(x, float) and math.isnan(x)):
        raise ValueError("NaN result")
    if nd == 0:
        return int(round(float(x)))
    return round(float(x), nd)


# ----------------------------------------------------------------- loads
@functools.lru_cache(None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"))
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "year": d.dt.year, "month": d.dt.month, "wd": d.dt.weekday, "hour": d.dt.hour,
        "md": d.dt.strftime("%m-%d"), "ym": d.dt.strftime("%Y-%m"),
        "ca": pd.to_numeric(h["Community Area"], errors="coerce"),
        "ward": pd.to_numeric(h["Ward"], errors="coerce"),
        "dist": pd.to_numeric(h["District"], errors="coerce"),
        "loc": h["Location Description"].fillna("").str.upper(),
        "arr": h["Arrest"].astype(str).str.lower().eq("true"),
        "dom": h["Domestic"].astype(str).str.lower().eq("true"),
    })
    out.loc[out.ca == 0, "ca"] = np.nan
    return out


@functools.lru_cache(None)
def _areas():
    a = pd.read_csv(_p("community_areas.csv")).set_index("area_number")
    return a


def _name(n):
    s = _areas().loc[int(n), "community"]
    t = s.title().replace("'S", "'s")
    if s == "OHARE":
        t = "O'Hare"
    if s == "MCKINLEY PARK":
        t = "McKinley Park"
    return t


def _area_num(a):
    if isinstance(a, (int, np.integer)) or (isinstance(a, str) and a.strip().isdigit()):
        return int(a)
    key = re.sub(r"[^A-Z ]", "", str(a).upper()).strip()
    for n, row in _areas().iterrows():
        if re.sub(r"[^A-Z ]", "", row["community"]) == key:
            return int(n)
    if key == "OHARE":
        return 76
    raise KeyError(a)


@functools.lru_cache(None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float)


@functools.lru_cache(None)
def _acs():
    c = pd.read_csv(_p("census_acs.csv"))
    m = {v: k for k, v in _areas()["community"].items()}
    c["n"] = c["community_area"].map(m)
    return c.set_index("n").sort_index()


@functools.lru_cache(None)
def _soc():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [c.strip() for c in s.columns]
    return s


_SOC_COLS = {"crowd": "PERCENT OF HOUSING CROWDED", "pov": "PERCENT HOUSEHOLDS BELOW POVERTY",
             "unemp": "PERCENT AGED 16+ UNEMPLOYED", "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
             "dep": "PERCENT AGED UNDER 18 OR OVER 64", "pci": "PER CAPITA INCOME",
             "hardship": "HARDSHIP INDEX"}


@functools.lru_cache(None)
def _zxw():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: "%02d" % m)
    return z.pivot_table(index="RegionName", columns="ym", values="price", aggfunc="first")


@functools.lru_cache(None)
def _ihsxw():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(None)
def _ihs_long():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    s.columns = [c.strip() for c in s.columns]
    for c in s.columns[2:]:
        s[c] = s[c].astype(str).str.replace(r"[%$, ]", "", regex=True).astype(float)
    return s


@functools.lru_cache(None)
def _stations():
    return pd.read_csv(_p("police_stations.csv"))


@functools.lru_cache(None)
def _wards():
    return pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")


@functools.lru_cache(None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")

    def money(s):
        if not isinstance(s, str) or not s.strip():
            return np.nan
        s = s.replace("$", "").replace(",", "").strip()
        mult = 1
        if s.endswith("K"):
            mult, s = 1000, s[:-1]
        elif s.endswith("M"):
            mult, s = 1000000, s[:-1]
        return float(s) * mult
    r["sale_price"] = r["Median Sale Price"].map(money)
    return r


# ----------------------------------------------------------------- homicide filters
def _period(p):
    if p is None or p == "" or p == "all":
        return 2001, 2023
    p = str(p)
    if "-" in p and len(p) == 9:
        a, b = p.split("-")
        return int(a), int(b)
    return int(p), int(p)


def _hours(spec):
    a, b = [int(x) for x in str(spec).split("-")] if "-" in str(spec) else (int(spec), int(spec))
    if a <= b:
        return list(range(a, b + 1))
    return list(range(a, 24)) + list(range(0, b + 1))


def _filter(h, filters):
    for k, v in (filters or {}).items():
        v = str(v)
        if k == "dom":
            h = h[h.dom == (v in ("1", "True", "true"))]
        elif k == "arr":
            h = h[h.arr == (v in ("1", "True", "true"))]
        elif k == "loc":
            h = h[h["loc"].isin([x.strip().upper() for x in v.split("/")])]
        elif k == "months":
            h = h[h.month.isin([int(x) for x in v.split(",")])]
        elif k == "wd":
            h = h[h.wd.isin([int(x) for x in v.split(",")])]
        elif k == "hours":
            hs = []
            for part in v.split(","):
                hs += _hours(part)
            h = h[h.hour.isin(hs)]
        elif k == "md":
            h = h[h.md.isin(v.split(","))]
        elif k == "ym":
            a, b = v.split(":")
            h = h[(h.ym >= a) & (h.ym <= b)]
        else:
            raise KeyError(k)
    return h


def _rows(period=None, filters=None):
    h = _hom()
    y0, y1 = _period(period)
    h = h[(h.year >= y0) & (h.year <= y1)]
    return _filter(h, filters)


def _parse(spec):
    """name[@period][|k=v...] -> (name, period, filters)"""
    parts = str(spec).split("|")
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


def _popyears(y0, y1):
    """sum of each year's population per area (Series 1..77)"""
    tot = pd.Series(0.0, index=range(1, 78))
    acs = _acs()["total_population"]
    p10 = _pop2010()
    for y in range(y0, y1 + 1):
        tot = tot + (p10.reindex(tot.index) if y <= 2015 else acs.reindex(tot.index))
    return tot


# ----------------------------------------------------------------- per-area num/den
def _numden(spec):
    """Return (num, den) Series over 1..77 (den None when value only)."""
    name, period, f = _parse(spec)
    idx = pd.Index(range(1, 78))
    if name in ("hom", "rate", "density", "arrshare", "domshare", "rate10"):
        y0, y1 = _period(period)
        r = _rows(period, f)
        cnt = r.dropna(subset=["ca"]).groupby("ca").size().reindex(idx, fill_value=0).astype(float)
        if name == "hom":
            return cnt, None
        if name == "rate":
            return cnt * 1e5, _popyears(y0, y1)
        if name == "rate10":
            return cnt * 1e5, _pop2010().reindex(idx) * (y1 - y0 + 1)
        if name == "density":
            return cnt, _areas()["area_sq_mi"].reindex(idx)
        flag = "arr" if name == "arrshare" else "dom"
        fl = r[r[flag]].dropna(subset=["ca"]).groupby("ca").size().reindex(idx, fill_value=0)
        return fl * 100.0, cnt
    if name == "homchg":
        a, b = period.split(":")
        n1, _ = _numden("hom@%s" % b + "".join("|%s=%s" % kv for kv in f.items()))
        n0, _ = _numden("hom@%s" % a + "".join("|%s=%s" % kv for kv in f.items()))
        return n1 - n0, None
    if name in ("ratechg", "ratepct"):
        a, b = period.split(":")
        ra = _value("rate@%s" % a)
        rb = _value("rate@%s" % b)
        if name == "ratechg":
            return rb - ra, None
        return (rb / ra - 1) * 100, None
    if name in _SOC_COLS:
        s = _soc().dropna(subset=["Community Area Number"])
        return s.set_index(s["Community Area Number"].astype(int))[_SOC_COLS[name]].reindex(idx).astype(float), None
    acs = _acs().reindex(idx)
    pop = acs["total_population"]
    if name == "pop":
        return pop, None
    if name == "pop2010":
        return _pop2010().reindex(idx), None
    if name == "popchg":
        p10 = _pop2010().reindex(idx)
        return (pop - p10) * 100, p10
    if name == "sqmi":
        return _areas()["area_sq_mi"].reindex(idx), None
    if name == "popdens":
        return pop, _areas()["area_sq_mi"].reindex(idx)
    share_cols = {"black": ["black_or_african_american"], "white": ["white"],
                  "whitenh": ["white_not_hispanic_or_latino"], "hisp": ["hispanic_or_latino"],
                  "asian": ["asian"], "kids": ["male_0_to_17", "female_0_to_17"],
                  "seniors": ["male_65", "female_65"], "young": ["male_18_to_24", "female_18_to_24"]}
    if name in share_cols:
        return acs[share_cols[name]].sum(axis=1) * 100, pop
    bands = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
    inc = {"inc_lt25": ["under_25_000"], "inc_125": ["_125_000"],
           "inc_75plus": ["_75_000_to_125_000", "_125_000"]}
    if name in inc:
        return acs[inc[name]].sum(axis=1) * 100, acs[bands].sum(axis=1)
    if name == "zhvi":
        return _zhvi_area(period), None
    if name == "zhvichg":
        a, b = period.split(":")
        za, zb = _zhvi_area(a), _zhvi_area(b)
        return (zb / za - 1) * 100, None
    if name == "zipzhvi":
        z = _zhvi()[period]
        mz = _main_zip()
        return pd.Series([z.get(mz[i], np.nan) for i in idx], index=idx), None
    if name == "ihs":
        return _ihs_area(int(period)), None
    if name == "ihschg":
        a, b = period.split(":")
        return (_ihs_area(int(b)) / _ihs_area(int(a)) - 1) * 100, None
    raise KeyError(spec)


def _value(spec):
    num, den = _numden(spec)
    if den is None:
        return num.astype(float)
    v = num / den
    return v.where(den > 0)


@functools.lru_cache(None)
def _zhvi_area(ym):
    z = _zhvi()[ym]
    xw = _zxw().copy()
    xw["v"] = xw["zip"].map(z)
    xw = xw.dropna(subset=["v"])
    g = xw.groupby("area_number").apply(
        lambda d: (d.v * d.share_of_community_area).sum() / d.share_of_community_area.sum(),
        include_groups=False)
    return g.reindex(range(1, 78))


@functools.lru_cache(None)
def _main_zip():
    xw = _zxw().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    return xw.groupby("area_number")["zip"].first()


@functools.lru_cache(None)
def _main_sub():
    xw = _ihsxw().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    return xw.groupby("area_number").first()


@functools.lru_cache(None)
def _ihs_area(year):
    L = _ihs_long()
    L = L[L.year == year].groupby("submarket_code")["index_2000q1_100"].mean()
    ms = _main_sub()
    out = {}
    for n, row in ms.iterrows():
        out[n] = L.get(row["submarket_code"], np.nan) if row["in_price_index"] == 1 else np.nan
    return pd.Series(out).reindex(range(1, 78))


def _nd(measure):
    name = _parse(measure)[0]
    if name in COUNT_MEASURES:
        return 0
    if name in MONEY_MEASURES:
        return 0
    return 1


# ----------------------------------------------------------------- sets
def _thr(measure, thr):
    v = _value(measure).dropna()
    if thr == "city":
        return _city_raw(measure)
    if thr == "median":
        return float(v.median())
    if thr == "mean":
        return float(v.mean())
    return float(thr)


def _ranked(measure, order="desc", within=None):
    v = _value(measure).dropna()
    if within is not None:
        v = v[v.index.isin(within)]
    df = pd.DataFrame({"v": v, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[order == "asc", True])
    return list(df["n"])


def _cond(c):
    allidx = set(range(1, 78))
    if c == "all":
        return allidx
    if c.startswith("not:"):
        return allidx - _cond(c[4:])
    kind, rest = c.split(":", 1)
    if kind in ("top", "bottom"):
        n, m = rest.split(":", 1)
        r = _ranked(m, "desc" if kind == "top" else "asc")
        return set(r[:int(n)])
    if kind in ("gt", "lt", "ge", "le"):
        m, t = rest.rsplit(":", 1)
        v = _value(m).dropna()
        t = _thr(m, t)
        op = {"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}[kind]
        return set(v[op].index)
    if kind == "q":
        k, i, m = rest.split(":", 2)
        v = _value(m).dropna().sort_index()
        ranks = v.rank(method="first")
        q = pd.qcut(ranks, int(k), labels=False) + 1
        return set(q[q == int(i)].index)
    if kind == "area":
        return set(_area_num(a) for a in rest.split("/"))
    if kind == "sub":
        ms = _main_sub()
        return set(ms[ms.submarket_name_2023.str.replace("Chicago--", "") == rest.replace("Chicago--", "")].index)
    raise KeyError(c)


def _set(spec):
    if spec is None:
        return set(range(1, 78))
    if isinstance(spec, str):
        spec = [spec]
    s = set(range(1, 78))
    for c in spec:
        s &= _cond(c)
    return s


def _stat_raw(set, measure, how="pooled"):
    s = sorted(_set(set))
    num, den = _numden(measure)
    name = _parse(measure)[0]
    if den is None:
        v = num.astype(float)
    else:
        v = (num / den).where(den > 0)
    vs = v.reindex(s).dropna()
    if how == "pooled":
        if name in NOPOOL:
            return float(vs.mean())
        if den is None:
            return float(num.reindex(s).sum())
        return float(num.reindex(s).sum() / den.reindex(s).sum())
    if how == "sum":
        return float(vs.sum())
    if how == "mean":
        return float(vs.mean())
    if how == "median":
        return float(vs.median())
    if how == "max":
        return float(vs.max())
    if how == "min":
        return float(vs.min())
    if how == "range":
        return float(vs.max() - vs.min())
    if how == "count":
        return float(len(vs))
    if how == "city_share":
        p = _parse(measure)
        tot = len(_rows(p[1], p[2]))
        return float(num.reindex(s).sum() / tot * 100)
    if how == "popw":
        pop = _acs()["total_population"].reindex(vs.index)
        return float((vs * pop).sum() / pop.sum())
    raise KeyError(how)


def _stat_nd(measure, how):
    name = _parse(measure)[0]
    if how in ("count",):
        return 0
    if how == "city_share":
        return 1
    if name in MONEY_MEASURES:
        return 0
    if name in COUNT_MEASURES:
        return 0 if how in ("pooled", "sum", "max", "min", "range") else 1
    return 1


def b39_set_stat(*, set=None, measure="hom", how="pooled"):
    return _rnd(_stat_raw(set, measure, how), _stat_nd(measure, how))


def b39_set_size(*, set=None):
    return _rnd(len(_set(set)), 0)


def b39_set_diff(*, a=None, b=None, measure="rate", how="pooled"):
    return _rnd(_stat_raw(a, measure, how) - _stat_raw(b, measure, how), _stat_nd(measure, how))


def b39_set_ratio(*, a=None, b=None, measure="rate", how="pooled"):
    return _rnd(_stat_raw(a, measure, how) / _stat_raw(b, measure, how), 1)


def b39_pct_of_set(*, set=None, cond=None):
    s = _set(set)
    c = _set(cond)
    return _rnd(len(s & c) / len(s) * 100, 1)


def b39_top_overlap(*, n=10, a="hom", b="pov", order_a="desc", order_b="desc"):
    ra = set(_ranked(a, order_a)[:n])
    rb = set(_ranked(b, order_b)[:n])
    return _rnd(len(ra & rb), 0)


# ----------------------------------------------------------------- areas
def _top(by, rank=1, order="desc", set=None):
    within = None if set is None else _set(set)
    return _ranked(by, order, within)[rank - 1]


def _area_measure(n, measure):
    if measure == "name":
        return _name(n)
    if measure == "zip":
        return str(int(_main_zip()[n]))
    if measure == "submarket":
        return _main_sub().loc[n, "submarket_name_2023"].replace("Chicago--", "")
    return _rnd(_value(measure)[n], _nd(measure))


def b39_top_area(*, by="rate@2022", rank=1, order="desc", set=None):
    return _name(_top(by, rank, order, set))


def b39_top_value(*, by="rate@2022", measure="pci", rank=1, order="desc", set=None):
    return _area_measure(_top(by, rank, order, set), measure)


def b39_area_value(*, area="Austin", measure="hom@2022"):
    return _area_measure(_area_num(area), measure)


def b39_area_rank(*, area="Austin", measure="hom@2022", order="desc"):
    return _rnd(_ranked(measure, order).index(_area_num(area)) + 1, 0)


def b39_corr(*, x="rate@2019-2022", y="pov", method="pearson", set=None):
    s = sorted(_set(set))
    df = pd.DataFrame({"x": _value(x).reindex(s), "y": _value(y).reindex(s)}).dropna()
    if method == "spearman":
        r = df["x"].rank().corr(df["y"].rank())
    else:
        r = df["x"].corr(df["y"])
    return _rnd(r, 2)


# ----------------------------------------------------------------- city figures
def _city_pop(y0, y1):
    tot = 0.0
    for y in range(y0, y1 + 1):
        tot += _pop2010().sum() if y <= 2015 else _acs()["total_population"].sum()
    return tot


def _city_raw(measure):
    name, period, f = _parse(measure)
    if name in ("hom", "rate", "density", "arrshare", "domshare"):
        r = _rows(period, f)
        y0, y1 = _period(period)
        if name == "hom":
            return float(len(r))
        if name == "rate":
            return len(r) / _city_pop(y0, y1) * 1e5
        if name == "density":
            return len(r) / _areas()["area_sq_mi"].sum()
        return float(r[name[:3]].mean() * 100)
    if name in _SOC_COLS:
        s = _soc()
        return float(s[s["Community Area Number"].isna()][_SOC_COLS[name]].iloc[0])
    if name == "homchg":
        a, b = period.split(":")
        return float(len(_rows(b, f)) - len(_rows(a, f)))
    if name == "ratechg":
        a, b = period.split(":")
        return _city_raw("rate@" + b) - _city_raw("rate@" + a)
    num, den = _numden(measure)
    if name in ("zhvi", "zhvichg", "ihs", "ihschg", "zipzhvi", "ratepct"):
        return float(_value(measure).dropna().mean())
    if den is None:
        return float(num.sum())
    return float(num.sum() / den.sum())


def b39_city_value(*, measure="rate@2022"):
    return _rnd(_city_raw(measure), _nd(measure))


def b39_gap_city(*, area="Austin", measure="rate@2022"):
    n = _area_num(area)
    return _rnd(_value(measure)[n] - _city_raw(measure), _nd(measure) if _parse(measure)[0] != "hom" else 1)


def b39_ratio_city(*, area="Austin", measure="rate@2022"):
    n = _area_num(area)
    return _rnd(_value(measure)[n] / _city_raw(measure), 1)


def b39_city_count(*, period=None, filters=None, set=None):
    r = _rows(period, filters)
    if set is not None:
        r = r[r.ca.isin(_set(set))]
    return _rnd(len(r), 0)


def b39_city_share(*, period=None, filters=None):
    r = _rows(period)
    return _rnd(len(_filter(r, filters)) / len(r) * 100, 1)


def b39_area_share(*, area="Austin", period=None, filters=None):
    r = _rows(period)
    r = r[r.ca == _area_num(area)]
    return _rnd(len(_filter(r, filters)) / len(r) * 100, 1)


def b39_set_sub_share(*, set=None, period=None, filters=None):
    r = _rows(period)
    r = r[r.ca.isin(_set(set))]
    return _rnd(len(_filter(r, filters)) / len(r) * 100, 1)


def b39_city_peak(*, kind="month", period=None, filters=None, set=None, area=None, value=False):
    r = _rows(period, filters)
    if set is not None:
        r = r[r.ca.isin(_set(set))]
    if area is not None:
        r = r[r.ca == _area_num(area)]
    col = {"month": "month", "weekday": "wd", "hour": "hour", "year": "year", "ym": "ym",
           "loc": "loc"}[kind]
    c = r.groupby(col).size()
    c = c.sort_index()
    best = c[c == c.max()].index[0]
    if value:
        return _rnd(int(c.max()), 0)
    if kind == "month":
        return MONTHS[int(best) - 1]
    if kind == "weekday":
        return WEEKDAYS[int(best)]
    if kind in ("hour", "year"):
        return int(best)
    if kind == "ym":
        y, m = best.split("-")
        return "%s %s" % (MONTHS[int(m) - 1], y)
    return best


def b39_city_pctchg(*, y0=2021, y1=2022, filters=None):
    a = len(_rows(str(y0), filters))
    b = len(_rows(str(y1), filters))
    return _rnd((b / a - 1) * 100, 1)


def b39_n_areas_zero(*, period=None, filters=None):
    r = _rows(period, filters).dropna(subset=["ca"])
    return _rnd(77 - r.ca.nunique(), 0)


def b39_n_for_share(*, period=None, share=50.0):
    r = _rows(period)
    tot = len(r)
    order = _ranked("hom@%s" % period if period else "hom")
    c = r.dropna(subset=["ca"]).groupby("ca").size()
    acc = 0
    for i, n in enumerate(order, 1):
        acc += c.get(n, 0)
        if acc / tot * 100 >= share:
            return _rnd(i, 0)
    raise ValueError("share not reached")


def b39_years_above_city(*, area="Austin", y0=2016, y1=2022):
    n = _area_num(area)
    k = 0
    for y in range(y0, y1 + 1):
        if _value("rate@%d" % y)[n] > _city_raw("rate@%d" % y):
            k += 1
    return _rnd(k, 0)


def b39_area_trend(*, area=None, y0=2016, y1=2022):
    r = _rows("%d-%d" % (y0, y1))
    if area is not None:
        r = r[r.ca == _area_num(area)]
    c = r.groupby("year").size().reindex(range(y0, y1 + 1), fill_value=0)
    x = np.array(c.index, dtype=float)
    y = c.values.astype(float)
    slope = ((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum()
    return _rnd(slope, 1)


# ----------------------------------------------------------------- districts, wards, zips
def _dist_counts(period=None, filters=None):
    r = _rows(period, filters)
    ds = _stations()
    ds = ds[ds.DISTRICT != "Headquarters"].copy()
    ds["d"] = ds.DISTRICT.astype(int)
    c = r.groupby("dist").size()
    return ds.set_index("d"), pd.Series({d: int(c.get(d, 0)) for d in ds["d"]})


def _dist_what(d, ds, what):
    if what == "name":
        return ds.loc[d, "DISTRICT NAME"]
    if what == "number":
        return int(d)
    ca = int(ds.loc[d, "COMMUNITY AREA"])
    if what == "ca":
        return _name(ca)
    return _area_measure(ca, what)


def b39_district_top(*, period=None, filters=None, rank=1, order="desc", what="name"):
    ds, c = _dist_counts(period, filters)
    df = pd.DataFrame({"c": c, "d": c.index}).sort_values(["c", "d"], ascending=[order == "asc", True])
    return _dist_what(int(df.d.iloc[rank - 1]), ds, what)


def b39_district_value(*, district=11, period=None, filters=None):
    ds, c = _dist_counts(period, filters)
    return _rnd(c[int(district)], 0)


def b39_district_share(*, district=11, period=None):
    r = _rows(period)
    return _rnd((r.dist == int(district)).sum() / len(r) * 100, 1)


def b39_district_change_top(*, y0=2019, y1=2021, rank=1, order="desc", what="name"):
    ds, c0 = _dist_counts(str(y0))
    _, c1 = _dist_counts(str(y1))
    ch = c1 - c0
    df = pd.DataFrame({"c": ch, "d": ch.index}).sort_values(["c", "d"], ascending=[order == "asc", True])
    d = int(df.d.iloc[rank - 1])
    if what == "change":
        return _rnd(ch[d], 0)
    return _dist_what(d, ds, what)


def b39_ward_top(*, period=None, filters=None, rank=1, what="ward"):
    r = _rows(period, filters).dropna(subset=["ward"])
    c = r.groupby("ward").size()
    df = pd.DataFrame({"c": c, "w": c.index}).sort_values(["c", "w"], ascending=[False, True])
    w = int(df.w.iloc[rank - 1])
    if what == "ward":
        return w
    if what == "count":
        return _rnd(int(df.c.iloc[rank - 1]), 0)
    return b39_ward_office(ward=w, field=what)


def b39_ward_value(*, ward=28, period=None, filters=None):
    r = _rows(period, filters)
    return _rnd((r.ward == int(ward)).sum(), 0)


def b39_ward_office(*, ward=28, field="alderman"):
    w = _wards().set_index("WARD").loc[int(ward)]
    if field == "alderman":
        return w["ALDERMAN"].split(",")[0].strip()
    if field == "zip":
        return str(int(w["ZIPCODE"]))
    if field.startswith("ca"):
        z = int(w["ZIPCODE"])
        xw = _zxw()
        xw = xw[xw.zip == z].sort_values("share_of_zip", ascending=False)
        n = int(xw.area_number.iloc[0])
        if field == "ca":
            return _name(n)
        return _area_measure(n, field.split(":", 1)[1])
    return w[field]


def b39_ward_office_count(*, zip="60618"):
    w = _wards()
    return _rnd((w.ZIPCODE == float(zip)).sum(), 0)


def _zip_series(measure):
    name, period, _ = _parse(measure)
    z = _zhvi()
    if name == "zhvi":
        return z[period].dropna()
    if name == "zhvichg":
        a, b = period.split(":")
        return ((z[b] / z[a] - 1) * 100).dropna()
    raise KeyError(measure)


def b39_zip_value(*, zip="60614", measure="zhvi@2024-09"):
    return _rnd(_zip_series(measure)[int(zip)], _nd(measure))


def _zip_area(z):
    xw = _zxw()
    xw = xw[xw.zip == int(z)].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return int(xw.area_number.iloc[0])


def b39_zip_top(*, measure="zhvichg@2019-01:2024-09", rank=1, order="desc", what="zip"):
    s = _zip_series(measure)
    df = pd.DataFrame({"v": s, "z": s.index}).sort_values(["v", "z"], ascending=[order == "asc", True])
    z = int(df.z.iloc[rank - 1])
    if what == "zip":
        return str(z)
    if what == "value":
        return _rnd(df.v.iloc[rank - 1], _nd(measure))
    if what == "area":
        return _name(_zip_area(z))
    if what.startswith("area:"):
        return _area_measure(_zip_area(z), what[5:])
    raise KeyError(what)


def b39_zip_area(*, zip="60621", what="name"):
    return _area_measure(_zip_area(zip), what)


# ----------------------------------------------------------------- IHS, Redfin
def b39_ihs_value(*, submarket="CHICAGO", year=2024, quarter=None):
    L = _ihs_long()
    L = L[(L.submarket_name.str.replace("Chicago--", "") == submarket.replace("Chicago--", "")) & (L.year == year)]
    if quarter:
        L = L[L.quarter == quarter]
    return _rnd(L.index_2000q1_100.mean(), 1)


def b39_ihs_change(*, submarket="CHICAGO", y0=2019, y1=2024):
    return _rnd((_ihs_raw(submarket, y1) / _ihs_raw(submarket, y0) - 1) * 100, 1)


def _ihs_raw(sub, y):
    L = _ihs_long()
    L = L[(L.submarket_name.str.replace("Chicago--", "") == sub.replace("Chicago--", "")) & (L.year == y)]
    return float(L.index_2000q1_100.mean())


_SUMF = {"since2000": "Change Since 2000", "peak": "Change Peak to Current",
         "bottom": "Change Bottom to Current", "covid": "COVID-19 Pandemic Start to Current",
         "yoy": "Year-over-year change", "price": "Median Sales Price"}


def b39_ihs_summary(*, submarket="Logan Square/Irving Park", field="yoy"):
    s = _ihs_summary()
    s = s[s["Sub Market"].str.replace("Chicago--", "") == submarket.replace("Chicago--", "")]
    return _rnd(s[_SUMF[field]].iloc[0], 0 if field == "price" else 1)


def b39_ihs_summary_top(*, field="yoy", rank=1, order="desc", scope="chicago", what="name"):
    s = _ihs_summary()
    if scope == "chicago":
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s = s.sort_values([_SUMF[field], "Number"], ascending=[order == "asc", True])
    row = s.iloc[rank - 1]
    if what == "name":
        return row["Sub Market"].replace("Chicago--", "")
    return _rnd(row[_SUMF[what]], 0 if what == "price" else 1)


_RF = {"sold": "Homes Sold", "price": "sale_price", "dom": "Median Dom",
       "above": "Sold Above List", "s2l": "Avg Sale To List", "inventory": "Inventory",
       "ppsf": "Median Sale Ppsf"}


def _rf_val(field, v):
    if field in ("above", "s2l"):
        return _rnd(v * 100, 1)
    if field in ("sold", "price", "inventory"):
        return _rnd(v, 0)
    return _rnd(v, 1)


def b39_redfin_value(*, region="Logan Square", date="2019-06-30", field="price"):
    r = _redfin()
    r = r[(r.Region == "Chicago, IL - " + region) & (r.end == pd.Timestamp(date))]
    return _rf_val(field, r[_RF[field]].iloc[0])


def b39_redfin_city_year(*, year=2018, field="sold", how="sum"):
    r = _redfin()
    r = r[(r.Region == "Chicago, IL") & (r.end.dt.year == year)]
    v = r[_RF[field]]
    return _rf_val(field, v.sum() if how == "sum" else (v.median() if how == "median" else v.mean()))


def b39_redfin_top(*, date="2019-06-30", field="price", rank=1, order="desc", min_sold=0, what="name"):
    r = _redfin()
    r = r[r.Region.str.startswith("Chicago, IL - ") & (r.end == pd.Timestamp(date))]
    r = r[~r.Region.isin(["Chicago, IL - Rosehill", "Chicago, IL - Wrightwood"])]
    r = r[r["Homes Sold"] >= min_sold].dropna(subset=[_RF[field]])
    r = r.sort_values([_RF[field], "Region"], ascending=[order == "asc", True])
    row = r.iloc[rank - 1]
    if what == "name":
        return row.Region.replace("Chicago, IL - ", "")
    return _rf_val(what, row[_RF[what]])
