"""Expected answers for the blind32 held-out question set (Chicago public data).

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

Conventions added for blind40 (function prefix ``b40_``)
--------------------------------------------------------
* Function prefix ``b40_``; the same measure / set spec language as above (``b40_set_stat``,
  ``b40_top_area``, ``b40_top_value``, ``b40_corr``, ``b40_city_value``, ``b40_set_size``,
  ``b40_set_diff``, ``b40_set_ratio`` ...), same rounding rules, ``_LAST_RAW`` kept.
* ``b40_city_peak(..., order='asc')`` gives the LEAST common month / weekday / hour / year
  (ties to the earliest); used for "quietest" questions.
* ``b40_area_year_extreme(area, y0, y1, order)``: the calendar year y0..y1 in which a named
  area had the most (desc) / fewest (asc) homicide rows (years with no rows count as 0; ties to
  the earlier year); ``value=True`` gives the count.
* ``b40_rank_gap(area, a, b)`` = the area's rank by measure a minus its rank by measure b
  (1 = highest value in both rankings, areas with a value only, ties by area number).
* ``b40_n_rising(y0, y1, measure)``: number of community areas whose homicide count (or
  ``measure='rate'``: rate) in y1 is strictly above y0 (areas with 0 and 0 do not count).
* Measure ``hh`` = ACS 2019-2023 households (sum of the five income-band counts), and
  ``perhh@P`` = homicides in the period per 1,000 such households (pooled: sums).
* ``b40_top_k_share_of_set(set, n, measure)``: share of the set's homicides (measure's
  period/filters) held by its own top-n areas by that count = top-n rows / set rows * 100.
* ``b40_ward_office_area`` / chains through a ward office use the ZIPCODE of ward_offices.csv and
  the community area covering most of it (largest share_of_zip), as in blind36.
* Measure ``rate10@P`` = homicide rate on the 2010 census population for every year of the
  period (wrong-vintage stand-ins only).
* Question wording states the vintage (2010 census vs 2019-23 ACS), the years and the statistic
  wherever a new convention is used.

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
AREAS = list(range(1, 78))


def _p(name):
    return os.path.join(DATA, name)


# ------------------------------------------------------------------ loaders
@functools.lru_cache(None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "year": d.dt.year, "month": d.dt.month, "wd": d.dt.weekday, "hour": d.dt.hour,
        "md": d.dt.strftime("%m-%d"), "ym": d.dt.strftime("%Y-%m"),
        "ca": pd.to_numeric(h["Community Area"], errors="coerce"),
        "ward": pd.to_numeric(h["Ward"], errors="coerce"),
        "dist": pd.to_numeric(h["District"], errors="coerce"),
        "arr": h["Arrest"].str.lower().eq("true"),
        "dom": h["Domestic"].str.lower().eq("true"),
        "loc": h["Location Description"].fillna("").str.upper(),
    })
    out.loc[out.ca == 0, "ca"] = np.nan
    return out


@functools.lru_cache(None)
def _ca():
    c = pd.read_csv(_p("community_areas.csv"))
    c = c.set_index("area_number").sort_index()
    return c


def _title(s):
    s = s.title()
    s = re.sub(r"Ohare", "O'Hare", s)
    s = s.replace("Mckinley", "McKinley")
    return s


def _name(n):
    return _title(_ca().loc[int(n), "community"])


def _norm(s):
    return re.sub(r"[^a-z0-9]", "", str(s).lower())


def _area(a):
    if isinstance(a, (int, np.integer)) or (isinstance(a, str) and a.strip().isdigit()):
        return int(a)
    if isinstance(a, float):
        return int(a)
    k = _norm(a)
    for n, r in _ca().iterrows():
        if _norm(r["community"]) == k or _norm(r["name_socioeconomic"]) == k:
            return int(n)
    raise ValueError("unknown area %r" % a)


@functools.lru_cache(None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv")).set_index("NID")["POP2010"]
    return p.reindex(AREAS).astype(float)


@functools.lru_cache(None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    m = {r["community"]: n for n, r in _ca().iterrows()}
    a["n"] = a["community_area"].map(m)
    return a.set_index("n").sort_index().reindex(AREAS)


@functools.lru_cache(None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [c.strip() for c in s.columns]
    city = s[s["Community Area Number"].isna()].iloc[0]
    s = s[s["Community Area Number"].notna()].copy()
    s["n"] = s["Community Area Number"].astype(int)
    return s.set_index("n").sort_index().reindex(AREAS), city


_SOCIO = {"pci": "PER CAPITA INCOME", "pov": "PERCENT HOUSEHOLDS BELOW POVERTY",
          "unemp": "PERCENT AGED 16+ UNEMPLOYED", "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
          "crowd": "PERCENT OF HOUSING CROWDED", "dep": "PERCENT AGED UNDER 18 OR OVER 64",
          "hardship": "HARDSHIP INDEX"}


@functools.lru_cache(None)
def _zipx():
    z = pd.read_csv(_p("community_area_zip_crosswalk.csv"))
    z["zip"] = z["zip"].astype(int)
    return z


@functools.lru_cache(None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: "%02d" % m)
    return z.pivot_table(index="RegionName", columns="ym", values="price", aggfunc="first")


def _zip_val(zipc, ym):
    t = _zhvi()
    if int(zipc) in t.index and ym in t.columns:
        v = t.loc[int(zipc), ym]
        return float(v) if pd.notna(v) else np.nan
    return np.nan


@functools.lru_cache(None)
def _zhvi_area(ym):
    x = _zipx()
    out = {}
    for n in AREAS:
        s = x[x.area_number == n]
        w = v = 0.0
        for _, r in s.iterrows():
            z = _zip_val(r["zip"], ym)
            if pd.notna(z):
                w += r["share_of_community_area"]
                v += r["share_of_community_area"] * z
        out[n] = v / w if w > 0 else np.nan
    return pd.Series(out)


def _main_zip(n):
    x = _zipx()
    s = x[x.area_number == n].sort_values(["share_of_community_area", "zip"], ascending=[False, True])
    return int(s.iloc[0]["zip"])


def _zip_main_area(zipc):
    x = _zipx()
    s = x[x.zip == int(zipc)].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return int(s.iloc[0]["area_number"])


@functools.lru_cache(None)
def _ihsx():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


def _main_sub(n):
    x = _ihsx()
    s = x[x.area_number == n].sort_values("share_of_community_area", ascending=False)
    r = s.iloc[0]
    return r["submarket_code"], r["submarket_name_2023"], int(r["in_price_index"])


@functools.lru_cache(None)
def _ihs():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


def _sub_code(s):
    l = _ihs()
    if s in set(l.submarket_code):
        return s
    k = _norm(s)
    for code, nm in l[["submarket_code", "submarket_name"]].drop_duplicates().values:
        if _norm(nm) == k or _norm(nm.replace("Chicago--", "")) == k:
            return code
    raise ValueError("unknown submarket %r" % s)


def _ihs_year(code, year):
    l = _ihs()
    s = l[(l.submarket_code == code) & (l.year == int(year))]["index_2000q1_100"]
    if len(s) != 4:
        return np.nan
    return float(s.mean())


@functools.lru_cache(None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    cols = {"Change Since 2000": "since2000", "Change Peak to Current": "peak",
            "Change Bottom to Current": "bottom", "COVID-19 Pandemic Start to Current": "covid",
            "Year-over-year change": "yoy", "Median Sales Price": "price"}
    for c, k in cols.items():
        s[k] = s[c].astype(str).str.replace(r"[%$, ]", "", regex=True).astype(float)
    return s


@functools.lru_cache(None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y").dt.strftime("%Y-%m-%d")

    def money(s):
        if pd.isna(s):
            return np.nan
        s = str(s).replace("$", "").replace(",", "").strip()
        mult = 1
        if s.endswith("K"):
            mult, s = 1e3, s[:-1]
        elif s.endswith("M"):
            mult, s = 1e6, s[:-1]
        return float(s) * mult
    r["sale_price"] = r["Median Sale Price"].map(money)
    return r


@functools.lru_cache(None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"))
    s = s[s["DISTRICT"] != "Headquarters"].copy()
    s["d"] = s["DISTRICT"].astype(int)
    return s.set_index("d")


@functools.lru_cache(None)
def _wards():
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")
    w["surname"] = w["ALDERMAN"].str.split(",").str[0].str.strip()
    return w.set_index("WARD").sort_index()


# ------------------------------------------------------------------ rounding
def _r(v, kind):
    global _LAST_RAW
    if isinstance(v, str):
        _LAST_RAW = v
        return v
    _LAST_RAW = v
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return float("nan")
    if kind in ("int", "count", "money"):
        return int(round(v))
    if kind == "corr":
        return round(float(v), 2)
    return round(float(v), 1)


# ------------------------------------------------------------------ periods / filters
def _years(period):
    if period is None or period == "":
        return list(range(2001, 2024))
    period = str(period)
    if "-" in period and len(period) > 4 and period[4] == "-" and len(period) == 9:
        a, b = period.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(period)]


def _hours(spec):
    out = []
    for part in str(spec).split(","):
        if "-" in part:
            a, b = [int(x) for x in part.split("-")]
            h = a
            while True:
                out.append(h)
                if h == b:
                    break
                h = (h + 1) % 24
        else:
            out.append(int(part))
    return out


def _filter(df, filters):
    for k, v in filters.items():
        if k == "dom":
            df = df[df.dom == bool(int(v))]
        elif k == "arr":
            df = df[df.arr == bool(int(v))]
        elif k == "loc":
            df = df[df["loc"].isin([x.strip().upper() for x in str(v).split("/")])]
        elif k == "months":
            df = df[df.month.isin([int(x) for x in str(v).split(",")])]
        elif k == "wd":
            df = df[df.wd.isin([int(x) for x in str(v).split(",")])]
        elif k == "hours":
            df = df[df.hour.isin(_hours(v))]
        elif k == "md":
            df = df[df.md.isin(str(v).split(","))]
        elif k == "ym":
            a, b = str(v).split(":")
            df = df[(df.ym >= a) & (df.ym <= b)]
        else:
            raise ValueError("unknown filter " + k)
    return df


def _rows(period=None, filters=None):
    h = _hom()
    h = h[h.year.isin(_years(period))]
    return _filter(h, filters or {})


def _parse(spec):
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


def _popyears(years):
    """sum over the years of each area's population (vintage rule)."""
    tot = pd.Series(0.0, index=AREAS)
    acs = _acs()["total_population"].astype(float)
    for y in years:
        tot = tot + (_pop2010() if y <= 2015 else acs)
    return tot


def _city_popyears(years):
    acs = _acs()["total_population"].astype(float).sum()
    return sum(_pop2010().sum() if y <= 2015 else acs for y in years)


def _count_by_area(rows):
    return rows.groupby("ca").size().reindex(AREAS, fill_value=0).astype(float)


_ACS_SHARE = {
    "black": (["black_or_african_american"], "pop"), "white": (["white"], "pop"),
    "whitenh": (["white_not_hispanic_or_latino"], "pop"), "hisp": (["hispanic_or_latino"], "pop"),
    "asian": (["asian"], "pop"), "kids": (["male_0_to_17", "female_0_to_17"], "pop"),
    "seniors": (["male_65", "female_65"], "pop"), "young": (["male_18_to_24", "female_18_to_24"], "pop"),
    "inc_lt25": (["under_25_000"], "hh"), "inc_125": (["_125_000"], "hh"),
    "inc_75plus": (["_75_000_to_125_000", "_125_000"], "hh"),
}
_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]


class M:
    """A measure: per-area values, optional numerator/denominator for pooling, kind."""

    def __init__(self, val, kind, num=None, den=None, scale=1.0, city=None, label=False):
        self.val, self.kind, self.num, self.den, self.scale = val, kind, num, den, scale
        self.city = city
        self.label = label


def _m_homicide(name, period, f):
    """The measures counted from the homicide rows (split from _m to keep functions short)."""
    if name == "rate10":
        rows = _rows(period, f)
        cnt = _count_by_area(rows)
        ys = _years(period)
        den = _pop2010() * len(ys)
        return M(cnt / den * 1e5, "rate", cnt, den, 1e5, city=len(rows) / (_pop2010().sum() * len(ys)) * 1e5)
    if name in ("hom", "rate", "density", "arrshare", "domshare", "perhh"):
        rows = _rows(period, f)
        cnt = _count_by_area(rows)
        allrows = _rows(period, {})
        if name == "hom":
            return M(cnt, "count", cnt, None, 1, city=float(len(rows)))
        if name == "rate":
            ys = _years(period)
            den = _popyears(ys)
            return M(cnt / den * 1e5, "rate", cnt, den, 1e5, city=len(rows) / _city_popyears(ys) * 1e5)
        if name == "density":
            den = _ca()["area_sq_mi"].astype(float).reindex(AREAS)
            return M(cnt / den, "rate", cnt, den, 1, city=len(rows) / den.sum())
        if name == "perhh":
            den = _acs()[_BANDS].astype(float).sum(axis=1)
            return M(cnt / den * 1000, "rate", cnt, den, 1000, city=len(rows) / den.sum() * 1000)
        flag = "arr" if name == "arrshare" else "dom"
        num = _count_by_area(rows[rows[flag]])
        v = num / cnt.replace(0, np.nan) * 100
        return M(v, "pct", num, cnt, 100, city=rows[flag].sum() / len(rows) * 100)
    if name in ("homchg", "ratechg", "ratepct"):
        y0, y1 = [int(x) for x in period.split(":")]
        a = _m(_spec("hom" if name == "homchg" else "rate", str(y0), f))
        b = _m(_spec("hom" if name == "homchg" else "rate", str(y1), f))
        if name == "homchg":
            return M(b.val - a.val, "count", b.val - a.val, None, 1, city=b.city - a.city)
        if name == "ratechg":
            return M(b.val - a.val, "rate", city=b.city - a.city)
        return M((b.val / a.val.replace(0, np.nan) - 1) * 100, "pct", city=(b.city / a.city - 1) * 100)
    return None


@functools.lru_cache(None)
def _m(spec):
    name, period, f = _parse(spec)
    yrs = _years(period) if (period and ":" not in str(period) and name not in ("zhvi", "zipzhvi", "ihs")) else None
    found = _m_homicide(name, period, f)
    if found is not None:
        return found
    if name in _SOCIO:
        s, city = _socio()
        v = s[_SOCIO[name]].astype(float)
        kind = "money" if name == "pci" else ("int" if name == "hardship" else "pct")
        cv = city[_SOCIO[name]]
        return M(v, kind, city=float(cv) if pd.notna(cv) else np.nan)
    acs = _acs()
    if name == "pop":
        v = acs["total_population"].astype(float)
        return M(v, "count", v, None, 1, city=v.sum())
    if name == "pop2010":
        v = _pop2010()
        return M(v, "count", v, None, 1, city=v.sum())
    if name == "hh":
        v = acs[_BANDS].astype(float).sum(axis=1)
        return M(v, "count", v, None, 1, city=v.sum())
    if name == "popchg":
        a = acs["total_population"].astype(float)
        b = _pop2010()
        return M((a - b) / b * 100, "pct", a - b, b, 100, city=(a.sum() - b.sum()) / b.sum() * 100)
    if name == "sqmi":
        v = _ca()["area_sq_mi"].astype(float).reindex(AREAS)
        return M(v, "rate", v, None, 1, city=v.sum())
    if name == "popdens":
        a = acs["total_population"].astype(float)
        s = _ca()["area_sq_mi"].astype(float).reindex(AREAS)
        return M(a / s, "int", a, s, 1, city=a.sum() / s.sum())
    if name in _ACS_SHARE:
        cols, base = _ACS_SHARE[name]
        num = acs[cols].astype(float).sum(axis=1)
        den = acs["total_population"].astype(float) if base == "pop" else acs[_BANDS].astype(float).sum(axis=1)
        return M(num / den * 100, "pct", num, den, 100, city=num.sum() / den.sum() * 100)
    if name == "zhvi":
        v = _zhvi_area(period)
        return M(v, "money", city=v.mean())
    if name == "zipzhvi":
        v = pd.Series({n: _zip_val(_main_zip(n), period) for n in AREAS})
        return M(v, "money", city=v.mean())
    if name == "zhvichg":
        a, b = period.split(":")
        v = (_zhvi_area(b) / _zhvi_area(a) - 1) * 100
        return M(v, "pct", city=v.mean())
    if name in ("ihs", "ihschg"):
        out = {}
        for n in AREAS:
            code, nm, inidx = _main_sub(n)
            if not inidx:
                out[n] = np.nan
            elif name == "ihs":
                out[n] = _ihs_year(code, period)
            else:
                y0, y1 = period.split(":")
                out[n] = (_ihs_year(code, y1) / _ihs_year(code, y0) - 1) * 100
        v = pd.Series(out)
        return M(v, "rate" if name == "ihs" else "pct", city=v.mean())
    if name == "zip":
        return M(pd.Series({n: str(_main_zip(n)) for n in AREAS}), "label", label=True)
    if name == "submarket":
        return M(pd.Series({n: _main_sub(n)[1].replace("Chicago--", "") for n in AREAS}), "label", label=True)
    if name == "name":
        return M(pd.Series({n: _name(n) for n in AREAS}), "label", label=True)
    raise ValueError("unknown measure " + spec)


def _spec(name, period, f):
    s = name + ("@" + period if period else "")
    for k, v in f.items():
        s += "|%s=%s" % (k, v)
    return s


def _ranked(val, order="desc"):
    v = val.dropna()
    df = pd.DataFrame({"v": v.values, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[order == "asc", True])
    return list(df.n)


# ------------------------------------------------------------------ sets
def _thr(m, t):
    if t == "city":
        return m.city
    if t == "median":
        return m.val.dropna().median()
    if t == "mean":
        return m.val.dropna().mean()
    return float(t)


def _cond(c):
    if c == "all":
        return set(AREAS)
    if c.startswith("not:"):
        return set(AREAS) - _cond(c[4:])
    kind, rest = c.split(":", 1)
    if kind in ("top", "bottom"):
        n, meas = rest.split(":", 1)
        return set(_ranked(_m(meas).val, "desc" if kind == "top" else "asc")[:int(n)])
    if kind in ("gt", "lt", "ge", "le"):
        meas, t = rest.rsplit(":", 1)
        m = _m(meas)
        th = _thr(m, t)
        v = m.val.dropna()
        op = {"gt": v > th, "lt": v < th, "ge": v >= th, "le": v <= th}[kind]
        return set(v[op].index)
    if kind == "q":
        k, i, meas = rest.split(":", 2)
        v = _m(meas).val.dropna()
        order = _ranked(v, "asc")
        ranks = pd.Series(range(1, len(order) + 1), index=order)
        lab = pd.qcut(ranks, int(k), labels=False) + 1
        return set(lab[lab == int(i)].index)
    if kind == "area":
        return set(_area(a) for a in rest.split("/"))
    if kind == "sub":
        code = _sub_code(rest)
        return set(n for n in AREAS if _main_sub(n)[0] == code)
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


_COUNTISH = ("count",)


def _stat(spec, measure, how):
    ids = sorted(_set(spec))
    m = _m(measure)
    v = m.val.reindex(ids)
    vv = v.dropna()
    if how == "pooled":
        if m.num is not None and m.den is not None:
            return m.num.reindex(ids).sum() / m.den.reindex(ids).sum() * m.scale
        if m.num is not None and m.den is None:
            return m.num.reindex(ids).sum()
        return vv.mean()
    if how == "sum":
        return vv.sum()
    if how == "mean":
        return vv.mean()
    if how == "median":
        return vv.median()
    if how == "max":
        return vv.max()
    if how == "min":
        return vv.min()
    if how == "range":
        return vv.max() - vv.min()
    if how == "count":
        return len(vv)
    if how == "city_share":
        name, period, f = _parse(measure)
        rows = _rows(period, f)
        return rows[rows.ca.isin(ids)].shape[0] / len(rows) * 100
    if how == "popw":
        p = _acs()["total_population"].astype(float).reindex(vv.index)
        return (vv * p).sum() / p.sum()
    raise ValueError(how)


def _stat_kind(measure, how):
    m = _m(measure)
    if how == "count":
        return "int"
    if how == "city_share":
        return "pct"
    if m.kind == "money":
        return "money"
    if m.kind == "count":
        if how in ("sum", "max", "min", "range") or (how == "pooled" and m.den is None):
            return "int"
        return "rate"
    if m.kind == "int":
        if how in ("max", "min", "range"):
            return "int"
        return "rate"
    return m.kind


# ------------------------------------------------------------------ public API
def b40_area_value(area, measure):
    m = _m(measure)
    v = m.val[_area(area)]
    if m.label:
        return _r(v, "label")
    return _r(v, m.kind)


def b40_city_value(measure):
    m = _m(measure)
    return _r(m.city, m.kind if m.kind != "count" else "int")


def b40_set_stat(set, measure, how="pooled"):
    return _r(_stat(set, measure, how), _stat_kind(measure, how))


def b40_set_size(set):
    return _r(len(_set(set)), "int")


def b40_set_diff(a, b, measure, how="pooled"):
    return _r(_stat(a, measure, how) - _stat(b, measure, how), _stat_kind(measure, how))


def b40_set_ratio(a, b, measure, how="pooled"):
    return _r(_stat(a, measure, how) / _stat(b, measure, how), "rate")


def b40_pct_of_set(set, cond):
    s = _set(set)
    c = _set(cond)
    return _r(len(s & c) / len(s) * 100, "pct")


def _top(by, rank=1, order="desc", set=None):
    v = _m(by).val
    if set is not None:
        v = v.reindex(sorted(_set(set)))
    return _ranked(v, order)[int(rank) - 1]


def b40_top_area(by, rank=1, order="desc", set=None):
    return _r(_name(_top(by, rank, order, set)), "label")


def b40_top_value(by, measure, rank=1, order="desc", set=None):
    n = _top(by, rank, order, set)
    return b40_area_value(n, measure)


def b40_area_rank(area, measure, order="desc"):
    return _r(_ranked(_m(measure).val, order).index(_area(area)) + 1, "int")


def b40_rank_gap(area, a, b):
    n = _area(area)
    return _r(_ranked(_m(a).val).index(n) - _ranked(_m(b).val).index(n), "int")


def b40_corr(a, b, method="pearson", set=None):
    x = _m(a).val
    y = _m(b).val
    ids = sorted(_set(set))
    df = pd.DataFrame({"x": x.reindex(ids), "y": y.reindex(ids)}).dropna()
    if method == "spearman":
        df = df.rank()
    return _r(float(np.corrcoef(df.x, df.y)[0, 1]), "corr")


def b40_gap_city(area, measure):
    m = _m(measure)
    return _r(m.val[_area(area)] - m.city, m.kind if m.kind not in ("count",) else "int")


def b40_ratio_city(area, measure):
    m = _m(measure)
    return _r(m.val[_area(area)] / m.city, "rate")


_WD = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MON = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December"]


def b40_city_peak(kind, period=None, filters=None, set=None, area=None, value=False, order="desc"):
    rows = _rows(period, filters or {})
    if set is not None:
        rows = rows[rows.ca.isin(_set(set))]
    if area is not None:
        rows = rows[rows.ca == _area(area)]
    col = {"month": "month", "weekday": "wd", "hour": "hour", "year": "year", "ym": "ym",
           "loc": "loc"}[kind]
    cnt = rows.groupby(col).size()
    if kind == "month":
        cnt = cnt.reindex(range(1, 13), fill_value=0)
    elif kind == "weekday":
        cnt = cnt.reindex(range(7), fill_value=0)
    elif kind == "hour":
        cnt = cnt.reindex(range(24), fill_value=0)
    elif kind == "year":
        cnt = cnt.reindex(_years(period), fill_value=0)
    best = cnt.max() if order == "desc" else cnt.min()
    key = sorted(cnt[cnt == best].index)[0]
    if value:
        return _r(int(best), "int")
    if kind == "month":
        return _r(_MON[key - 1], "label")
    if kind == "weekday":
        return _r(_WD[key], "label")
    if kind == "ym":
        y, mo = key.split("-")
        return _r("%s %s" % (_MON[int(mo) - 1], y), "label")
    if kind == "loc":
        return _r(key, "label")
    return _r(int(key), "int")


def b40_area_year_extreme(area, y0, y1, order="desc", value=False):
    return b40_city_peak("year", "%d-%d" % (y0, y1), area=area, value=value, order=order)


def b40_city_share(period=None, filters=None):
    rows = _rows(period, {})
    sub = _filter(rows, filters or {})
    return _r(len(sub) / len(rows) * 100, "pct")


def b40_city_pctchg(y0, y1, filters=None):
    a = len(_rows(str(y0), filters or {}))
    b = len(_rows(str(y1), filters or {}))
    return _r((b / a - 1) * 100, "pct")


def b40_area_share(area, measure, filters):
    name, period, f0 = _parse(measure)
    rows = _rows(period, f0)
    rows = rows[rows.ca == _area(area)]
    return _r(len(_filter(rows, filters)) / len(rows) * 100, "pct")


def b40_set_sub_share(set, measure, filters):
    name, period, f0 = _parse(measure)
    rows = _rows(period, f0)
    rows = rows[rows.ca.isin(_set(set))]
    return _r(len(_filter(rows, filters)) / len(rows) * 100, "pct")


def b40_top_k_share_of_set(set, n, measure):
    ids = sorted(_set(set))
    v = _m(measure).val.reindex(ids)
    top = _ranked(v)[:int(n)]
    return _r(v[top].sum() / v.sum() * 100, "pct")


def b40_n_rising(y0, y1, measure="hom"):
    a = _m("%s@%d" % (measure, y0)).val
    b = _m("%s@%d" % (measure, y1)).val
    return _r(int((b > a).sum()), "int")


def b40_n_for_share(period, share):
    rows = _rows(period, {})
    v = _count_by_area(rows)
    order = _ranked(v)
    acc = 0
    for i, n in enumerate(order, 1):
        acc += v[n]
        if acc / len(rows) * 100 >= share:
            return _r(i, "int")


def b40_area_trend(area, y0, y1):
    ys = list(range(int(y0), int(y1) + 1))
    rows = _rows("%d-%d" % (y0, y1))
    if area is not None:
        rows = rows[rows.ca == _area(area)]
    c = rows.groupby("year").size().reindex(ys, fill_value=0)
    slope = np.polyfit(np.array(ys, float), c.values.astype(float), 1)[0]
    return _r(float(slope), "rate")


# ---- police districts
def _dist_counts(measure):
    name, period, f = _parse(measure)
    rows = _rows(period, f)
    return rows.groupby("dist").size().reindex(list(_stations().index), fill_value=0)


def b40_district_value(district, measure="hom"):
    return _r(int(_dist_counts(measure)[int(district)]), "int")


def b40_district_share(district, period):
    rows = _rows(period, {})
    return _r((rows.dist == int(district)).sum() / len(rows) * 100, "pct")


def _dist_what(d, what):
    st = _stations()
    if what == "name":
        return _r(st.loc[d, "DISTRICT NAME"], "label")
    if what == "number":
        return _r(int(d), "int")
    if what == "ca":
        return _r(_name(int(st.loc[d, "COMMUNITY AREA"])), "label")
    if what == "zip":
        return _r(str(st.loc[d, "ZIP"]), "label")
    if what == "address":
        return _r(st.loc[d, "ADDRESS"], "label")
    return b40_area_value(int(st.loc[d, "COMMUNITY AREA"]), what)


def b40_district_top(measure, rank=1, order="desc", what="name"):
    c = _dist_counts(measure)
    df = pd.DataFrame({"v": c.values, "d": c.index}).sort_values(["v", "d"], ascending=[order == "asc", True])
    return _dist_what(int(df.iloc[int(rank) - 1].d), what)


def b40_district_change_top(y0, y1, what="name", order="desc"):
    a = _dist_counts("hom@%d" % y0)
    b = _dist_counts("hom@%d" % y1)
    c = b - a
    df = pd.DataFrame({"v": c.values, "d": c.index}).sort_values(["v", "d"], ascending=[order == "asc", True])
    d = int(df.iloc[0].d)
    if what == "change":
        return _r(int(df.iloc[0].v), "int")
    return _dist_what(d, what)


def b40_station(district, what="name"):
    return _dist_what(int(district), what)


# ---- wards
def _ward_counts(measure):
    name, period, f = _parse(measure)
    rows = _rows(period, f)
    return rows.groupby("ward").size().reindex(range(1, 51), fill_value=0)


def b40_ward_value(ward, measure="hom"):
    return _r(int(_ward_counts(measure)[int(ward)]), "int")


def b40_ward_office(ward, field="alderman"):
    w = _wards().loc[int(ward)]
    if field == "alderman":
        return _r(w["surname"], "label")
    if field == "zip":
        return _r(str(int(w["ZIPCODE"])), "label")
    if field == "address":
        return _r(w["ADDRESS"], "label")
    if field == "ca":
        return _r(_name(_zip_main_area(int(w["ZIPCODE"]))), "label")
    if field.startswith("ca:"):
        return b40_area_value(_zip_main_area(int(w["ZIPCODE"])), field[3:])
    raise ValueError(field)


def b40_ward_top(measure, rank=1, order="desc", what="number"):
    c = _ward_counts(measure)
    df = pd.DataFrame({"v": c.values, "w": c.index}).sort_values(["v", "w"], ascending=[order == "asc", True])
    w = int(df.iloc[int(rank) - 1].w)
    if what == "number":
        return _r(w, "int")
    if what == "count":
        return _r(int(df.iloc[int(rank) - 1].v), "int")
    return b40_ward_office(w, what)


def b40_ward_office_count(zip):
    return _r(int((_wards()["ZIPCODE"].astype(int) == int(zip)).sum()), "int")


# ---- ZIPs
def b40_zip_zhvi(zip, month):
    return _r(_zip_val(zip, month), "money")


def b40_zip_change(zip, a, b):
    return _r((_zip_val(zip, b) / _zip_val(zip, a) - 1) * 100, "pct")


def b40_zip_top(measure, rank=1, order="desc", what="zip"):
    name, period, f = _parse(measure)
    t = _zhvi()
    if name == "zhvi":
        v = t[period]
    else:
        a, b = period.split(":")
        v = (t[b] / t[a] - 1) * 100
    v = v.dropna()
    df = pd.DataFrame({"v": v.values, "z": v.index}).sort_values(["v", "z"], ascending=[order == "asc", True])
    z = int(df.iloc[int(rank) - 1].z)
    if what == "zip":
        return _r(str(z), "label")
    if what == "value":
        return _r(float(df.iloc[int(rank) - 1].v), "money" if name == "zhvi" else "pct")
    if what == "area":
        return _r(_name(_zip_main_area(z)), "label")
    if what.startswith("area:"):
        return b40_area_value(_zip_main_area(z), what[5:])
    raise ValueError(what)


def b40_zip_area(zip, what="name"):
    n = _zip_main_area(zip)
    if what == "name":
        return _r(_name(n), "label")
    return b40_area_value(n, what)


# ---- IHS
def b40_ihs_value(submarket, year):
    return _r(_ihs_year(_sub_code(submarket), year), "rate")


def b40_ihs_quarter(submarket, yearq):
    l = _ihs()
    s = l[(l.submarket_code == _sub_code(submarket)) & (l.yearq == yearq)]
    return _r(float(s.iloc[0]["index_2000q1_100"]), "rate")


def b40_ihs_change(submarket, y0, y1):
    c = _sub_code(submarket)
    return _r((_ihs_year(c, y1) / _ihs_year(c, y0) - 1) * 100, "pct")


def b40_ihs_summary(submarket, field):
    s = _ihs_summary()
    c = _sub_code(submarket)
    r = s[s.Number == c].iloc[0]
    return _r(float(r[field]), "money" if field == "price" else "pct")


def b40_ihs_summary_top(field, rank=1, order="desc", scope="chicago", what="name"):
    s = _ihs_summary()
    if scope == "chicago":
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s = s.sort_values([field, "Number"], ascending=[order == "asc", True])
    r = s.iloc[int(rank) - 1]
    if what == "name":
        return _r(r["Sub Market"].replace("Chicago--", ""), "label")
    return _r(float(r[field]), "money" if field == "price" else "pct")


def b40_area_ihs_summary(field, area=None, by=None, rank=1, order="desc"):
    n = _area(area) if area is not None else _top(by, rank, order)
    code, nm, inidx = _main_sub(n)
    return b40_ihs_summary(code, field)


# ---- Redfin
_RF = {"price": "sale_price", "sold": "Homes Sold", "dom": "Median Dom", "inventory": "Inventory",
       "above": "Sold Above List", "s2l": "Avg Sale To List", "ppsf": "Median Sale Ppsf",
       "list": "Median List Price"}


def _rf_val(r, field):
    v = float(r[_RF[field]])
    if field in ("above", "s2l"):
        v *= 100
    return v


def _rf_kind(field):
    return {"price": "money", "sold": "int", "dom": "rate", "inventory": "int", "list": "money"}.get(field, "rate")


def b40_redfin_value(region, date, field):
    r = _redfin()
    s = r[(r.Region == "Chicago, IL - " + region) & (r.end == date)]
    return _r(_rf_val(s.iloc[0], field), _rf_kind(field))


def b40_redfin_top(field, date, rank=1, order="desc", min_sold=0, what="name"):
    r = _redfin()
    s = r[r.Region.str.startswith("Chicago, IL - ") & (r.end == date)].copy()
    s = s[~s.Region.isin(["Chicago, IL - Rosehill", "Chicago, IL - Wrightwood"])]
    s = s[s["Homes Sold"].fillna(0) >= min_sold]
    s["v"] = s.apply(lambda x: _rf_val(x, field), axis=1)
    s = s.dropna(subset=["v"]).sort_values(["v", "Region"], ascending=[order == "asc", True])
    x = s.iloc[int(rank) - 1]
    if what == "name":
        return _r(x.Region.replace("Chicago, IL - ", ""), "label")
    return _r(float(x.v), _rf_kind(field))


def b40_redfin_city_year(year, field, how="sum"):
    r = _redfin()
    s = r[(r.Region == "Chicago, IL") & (r.end.str[:4] == str(year))]
    v = s.apply(lambda x: _rf_val(x, field), axis=1)
    assert len(v) == 12, len(v)
    out = v.sum() if how == "sum" else (v.median() if how == "median" else v.mean())
    return _r(out, _rf_kind(field) if how != "mean" else "rate")
