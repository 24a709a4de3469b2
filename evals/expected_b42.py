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

Conventions added for blind41 (function prefix ``b41_``)
--------------------------------------------------------
* Function prefix ``b41_``; the same measure / set spec language as above (``b41_set_stat``,
  ``b41_top_area``, ``b41_top_value``, ``b41_corr``, ``b41_city_value``, ``b41_set_size``,
  ``b41_set_diff``, ``b41_set_ratio``, ``b41_area_value``, ``b41_area_rank`` ...), same rounding
  rules (counts/money integers, means/medians of counts 1 decimal, rates/shares/ratios 1 decimal,
  correlations 2 decimals), ``_LAST_RAW`` kept.
* ``b41_pop_share(set)`` = ACS 2019-2023 population of the set's areas / the sum over all 77 areas
  * 100 ("what share of Chicagoans live in ..."); ``vintage='2010'`` uses POP2010.
* ``b41_n_years_up(y0, y1, area=None)`` = number of calendar years y in y0+1..y1 whose homicide
  count is strictly above the count of year y-1 (city: every row; area: its rows).
* ``b41_first_year(cmp, thr, y0, y1)`` = the first calendar year y0..y1 in which the city homicide
  count is strictly above (cmp='gt') / below (cmp='lt') thr; returned as an integer year.
* ``b41_excess(set, period)`` = homicides of the set's areas in the period minus the number they
  would have had at the city-wide rate of the same period (city rate * set population-years /
  100,000); signed, rounded to an integer ("how many more killings than if they had the city's rate").
* ``b41_share_of_top(n, measure, of)``: the top-n areas by ``measure``, then their share of the
  city total of the ``of`` count measure (hom@P uses every city row incl. blank CA; pop uses the
  sum over 77 areas), i.e. a concentration of a second measure over a ranked set.
* ``b41_peak_gap(period)`` = the city's busiest calendar month minus its quietest month (rows,
  summed over the period's years); ties irrelevant for the count.
* ``b41_ihs_top(y0, y1, order)`` ranks the 16 Chicago submarkets present in the quarterly index
  (the ``Chicago--`` series) by the change of their yearly mean index between two years; name
  returned without the "Chicago--" prefix.
* ``b41_district_rate``: not held (no district populations); district questions asking a rate are
  declined, naming the missing district population.
* Half-years: H1 = January-June, H2 = July-December (``ym`` or ``months`` filter).

Conventions added for blind42 (function prefix ``b42_``)
--------------------------------------------------------
* Function prefix ``b42_``; the same measure / set spec language as above (``b42_set_stat``,
  ``b42_top_area``, ``b42_top_value``, ``b42_corr``, ``b42_city_value``, ``b42_set_size``,
  ``b42_set_diff``, ``b42_set_ratio``, ``b42_area_value``, ``b42_area_rank`` ...), same rounding
  rules (counts/money integers, means/medians of counts 1 decimal, rates/shares/ratios/indices
  1 decimal, correlations 2 decimals), ``_LAST_RAW`` kept.
* Measure ``ratey@P`` = homicides in the period per 100,000 residents aged 18-34 (ACS 2019-2023
  male_18_to_24 + male_25_to_34 + female_18_to_24 + female_25_to_34) per year, ACS-era years
  (2016+) only; pooled on the sums.  Questions say "per 100k residents aged 18 to 34 (2019-23 ACS)".
* Measure ``zhvicagr@M0:M1`` = compound annual growth of the community-area ZHVI between two months,
  ((v1 / v0) ** (12 / months between) - 1) * 100; questions say "average yearly (compound) growth".
* ``b42_top_persist(n, y0, y1)`` = number of community areas that are in the top-n by homicide rows
  in EVERY calendar year y0..y1 (each year ranked desc, ties by area number).
* ``b42_set_overlap_share(a, b)`` = areas in both set a and set b / areas in set a * 100
  ("what % of the 20 poorest areas are also among the 20 deadliest").
* ``b42_district_top(period, what=...)``: the police district (District field) with the most rows
  in the period, then ``what='value'`` its count, ``'name'`` its station's district name,
  ``'area:<measure>'`` a measure of the community area its station sits in.
* Month-range periods ``YYYY-MM:YYYY-MM`` (inclusive) are allowed on hom / arrshare / domshare counts.
* ``b42_longest_rise(y0, y1)`` = the longest run of consecutive calendar years in y0..y1 in which the
  city homicide count rose strictly over the year before (number of rising years in the run).
* ``b42_ihs_pctchg(submarket, y0, y1)`` = (yearly mean index y1 / yearly mean index y0 - 1) * 100;
  submarket given as the name without "Chicago--" (or CHICAGO / COOK).
* Quantiles (``q:K:I:<measure>``) are cut over the areas that have a value of the measure: for
  Zillow measures that is 76 areas (East Side has no ZHVI ZIP), so quartiles are 19/19/19/19 and
  quintiles 16/15/15/15/15.
* A fall in homicides returned as a positive number is written ``homchg@<later>:<earlier>``
  (= earlier-year count - later-year count) where the question asks "by how many did it drop".
* ``b42_n_years_up(y0, y1, area=None)`` = number of years y0+1..y1 whose count is strictly above
  the previous year's (used as the wrong-reading stand-in of ``b42_longest_rise``).
* ``b42_zip_pctchg(zip, m0, m1)`` = (ZHVI m1 / ZHVI m0 - 1) * 100 of one ZIP read directly.
* Expected values for questions.yaml are produced by make_questions.py (the question spec) and
  verified by check.py (no NaN, no stand-in equal to an expected value, no ranking or rounding ties).
"""

import os, re, math, json, functools
import numpy as np
import pandas as pd

DATA = os.environ.get("CHIQA_DATA_DIR", "/work/shared/data")
_LAST_RAW = None
_NAN = float("nan")


def _p(f):
    return os.path.join(DATA, f)


# ----------------------------------------------------------------------------- loads
@functools.lru_cache(None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "date": d, "year": d.dt.year, "month": d.dt.month, "wd": d.dt.weekday,
        "hour": d.dt.hour, "md": d.dt.strftime("%m-%d"), "ym": d.dt.strftime("%Y-%m"),
        "loc": h["Location Description"].fillna("").str.upper(),
        "arr": h["Arrest"].str.lower().eq("true"), "dom": h["Domestic"].str.lower().eq("true"),
    })
    for c, k in (("Community Area", "ca"), ("Ward", "ward"), ("District", "dist")):
        v = pd.to_numeric(h[c], errors="coerce")
        out[k] = v.astype("Int64")
    out.loc[out["ca"].notna() & ((out["ca"] < 1) | (out["ca"] > 77)), "ca"] = pd.NA
    return out


@functools.lru_cache(None)
def _ca():
    c = pd.read_csv(_p("community_areas.csv"))
    c["name"] = c["name_socioeconomic"]
    # title-case from community column, keep O'Hare / McKinley Park
    def tc(s):
        s = s.title()
        s = s.replace("Ohare", "O'Hare").replace("Mckinley", "McKinley")
        return s
    c["name"] = c["community"].map(tc)
    return c.set_index("area_number")


def _name(n):
    return _ca().loc[int(n), "name"]


def _norm(s):
    return re.sub(r"[^a-z0-9]", "", str(s).lower())


def _area_num(a):
    if isinstance(a, (int, np.integer)) or (isinstance(a, str) and a.strip().isdigit()):
        return int(a)
    k = _norm(a)
    c = _ca()
    for n, row in c.iterrows():
        if _norm(row["community"]) == k or _norm(row["name"]) == k or _norm(row["name_socioeconomic"]) == k:
            return int(n)
    raise KeyError(a)


@functools.lru_cache(None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [c.strip() for c in s.columns]
    ren = {"PERCENT OF HOUSING CROWDED": "crowd", "PERCENT HOUSEHOLDS BELOW POVERTY": "pov",
           "PERCENT AGED 16+ UNEMPLOYED": "unemp", "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA": "nohs",
           "PERCENT AGED UNDER 18 OR OVER 64": "dep", "PER CAPITA INCOME": "pci", "HARDSHIP INDEX": "hardship"}
    s = s.rename(columns=ren)
    city = s[s["Community Area Number"].isna()].iloc[0]
    s = s[s["Community Area Number"].notna()].copy()
    s["n"] = s["Community Area Number"].astype(int)
    return s.set_index("n"), city


@functools.lru_cache(None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    c = _ca()
    m = {row["community"]: n for n, row in c.iterrows()}
    a["n"] = a["community_area"].map(m)
    assert a["n"].notna().all()
    a["n"] = a["n"].astype(int)
    return a.set_index("n").sort_index()


@functools.lru_cache(None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


def _popacs():
    return _acs()["total_population"].astype(float)


@functools.lru_cache(None)
def _xw():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].astype(int).map(lambda m: "%02d" % m)
    z = z[z["price"].notna()]
    return z.pivot_table(index="ym", columns="RegionName", values="price", aggfunc="first")


def _zip_val(zipc, ym):
    t = _zhvi()
    if ym not in t.index or int(zipc) not in t.columns:
        return _NAN
    return float(t.loc[ym, int(zipc)])


@functools.lru_cache(None)
def _area_zhvi(ym):
    x = _xw()
    t = _zhvi()
    out = {}
    for n in range(1, 78):
        r = x[x.area_number == n]
        vals, w = [], []
        for _, row in r.iterrows():
            v = _zip_val(row["zip"], ym)
            if not (isinstance(v, float) and math.isnan(v)):
                vals.append(v); w.append(row["share_of_community_area"])
        out[n] = float(np.dot(vals, w) / sum(w)) if w else _NAN
    return pd.Series(out)


def _main_zip(n):
    x = _xw()
    r = x[x.area_number == n].sort_values("share_of_community_area", ascending=False)
    return int(r.iloc[0]["zip"])


def _zip_main_area(zipc):
    x = _xw()
    r = x[x.zip == int(zipc)].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return int(r.iloc[0]["area_number"])


@functools.lru_cache(None)
def _ihs_long():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


def _sub_code(sub):
    l = _ihs_long()
    k = _norm(sub)
    for code, name in l[["submarket_code", "submarket_name"]].drop_duplicates().values:
        if _norm(name) == k or _norm(name.replace("Chicago--", "")) == k or _norm(code) == k:
            return code
    raise KeyError(sub)


def _ihs_year(code, y):
    l = _ihs_long()
    r = l[(l.submarket_code == code) & (l.year == int(y))]
    if len(r) == 0:
        return _NAN
    return float(r["index_2000q1_100"].mean())


@functools.lru_cache(None)
def _ihs_xw():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


def _main_sub(n):
    x = _ihs_xw()
    r = x[x.area_number == n].sort_values("share_of_community_area", ascending=False)
    return r.iloc[0]["submarket_code"], r.iloc[0]["submarket_name_2023"]


@functools.lru_cache(None)
def _ihs_sum():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    def num(v):
        v = str(v).strip().replace("$", "").replace(",", "").replace("%", "")
        try:
            return float(v)
        except ValueError:
            return _NAN
    for c in s.columns[2:]:
        s[c] = s[c].map(num)
    return s


_IHS_FIELDS = {"since2000": "Change Since 2000", "peak": "Change Peak to Current",
               "bottom": "Change Bottom to Current", "covid": "COVID-19 Pandemic Start to Current",
               "yoy": "Year-over-year change", "price": "Median Sales Price"}


@functools.lru_cache(None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"))
    s = s[s["DISTRICT"].astype(str).str.strip().str.isdigit()].copy()
    s["d"] = s["DISTRICT"].astype(int)
    return s.set_index("d")


@functools.lru_cache(None)
def _wards():
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")
    return w.set_index("WARD")


@functools.lru_cache(None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    def money(v):
        if not isinstance(v, str):
            return _NAN
        v = v.strip().replace("$", "").replace(",", "")
        mult = 1
        if v.endswith("K"):
            mult, v = 1e3, v[:-1]
        elif v.endswith("M"):
            mult, v = 1e6, v[:-1]
        return float(v) * mult
    r["sale_price"] = r["Median Sale Price"].map(money)
    return r


# ----------------------------------------------------------------------------- rounding
_MONEY = {"pci", "zhvi", "zipzhvi", "price"}
_COUNT = {"hom", "homchg", "pop", "pop2010", "hh", "hardship", "kids", "old65"}


def _rnd(x, kind="rate", how=None):
    global _LAST_RAW
    if x is None or (isinstance(x, float) and math.isnan(x)):
        _LAST_RAW = _NAN
        return _NAN
    x = float(x)
    _LAST_RAW = x
    if kind == "money":
        return int(round(x))
    if kind == "count":
        if how in ("mean", "median", "popw", "pooled_mean"):
            return round(x, 1)
        return int(round(x))
    if kind == "corr":
        return round(x, 2)
    if kind == "int":
        return int(round(x))
    return round(x, 1)


# ----------------------------------------------------------------------------- homicide filters
def _years(period):
    period = str(period)
    if ":" in period:
        a, b = period.split(":")
        return list(range(int(a[:4]), int(b[:4]) + 1))
    if "-" in period:
        a, b = period.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(period)]


def _parse_hours(v):
    out = []
    for part in str(v).split(","):
        if "-" in part:
            a, b = [int(t) for t in part.split("-")]
            h = a
            while True:
                out.append(h)
                if h == b:
                    break
                h = (h + 1) % 24
        else:
            out.append(int(part))
    return out


def _ints(v):
    out = []
    for part in str(v).split(","):
        if "-" in part:
            a, b = [int(t) for t in part.split("-")]
            out += list(range(a, b + 1))
        else:
            out.append(int(part))
    return out


def _filt(df, period=None, filters=None):
    if period is not None:
        period = str(period)
        if re.match(r"^\d{4}-\d{2}:\d{4}-\d{2}$", period):
            a, b = period.split(":")
            df = df[(df.ym >= a) & (df.ym <= b)]
        else:
            ys = _years(period)
            df = df[df.year.isin(ys)]
    for k, v in (filters or {}).items():
        if k == "dom":
            df = df[df.dom == bool(int(v))]
        elif k == "arr":
            df = df[df.arr == bool(int(v))]
        elif k == "loc":
            locs = [s.strip().upper() for s in str(v).split("/")]
            df = df[df["loc"].isin(locs)]
        elif k == "months":
            df = df[df.month.isin(_ints(v))]
        elif k == "wd":
            df = df[df.wd.isin(_ints(v))]
        elif k == "hours":
            df = df[df.hour.isin(_parse_hours(v))]
        elif k == "md":
            df = df[df.md.isin(str(v).split(","))]
        else:
            raise KeyError(k)
    return df


def _parse_spec(spec):
    parts = spec.split("|")
    head = parts[0]
    filters = {}
    for f in parts[1:]:
        k, v = f.split("=", 1)
        filters[k] = v
    if "@" in head:
        name, period = head.split("@", 1)
    else:
        name, period = head, None
    return name, period, filters


def _popyears(ys, vintage=None):
    tot = pd.Series(0.0, index=range(1, 78))
    for y in ys:
        if vintage == "2010" or (vintage is None and y <= 2015):
            tot = tot + _pop2010().reindex(range(1, 78)).values
        else:
            tot = tot + _popacs().reindex(range(1, 78)).values
    return tot


def _count(period, filters):
    df = _filt(_hom(), period, filters)
    df = df[df.ca.notna()]
    return df.groupby(df.ca.astype(int)).size().reindex(range(1, 78), fill_value=0).astype(float)


_ACS_SHARE = {
    "black": (["black_or_african_american"], "pop"), "white": (["white"], "pop"),
    "asian": (["asian"], "pop"), "hisp": (["hispanic_or_latino"], "pop"),
    "wnh": (["white_not_hispanic_or_latino"], "pop"),
    "kidshare": (["male_0_to_17", "female_0_to_17"], "pop"),
    "old65share": (["male_65", "female_65"], "pop"),
    "young": (["male_18_to_24", "male_25_to_34", "female_18_to_24", "female_25_to_34"], "pop"),
    "inclt25": (["under_25_000"], "hh"), "inc125": (["_125_000"], "hh"),
    "incmid": (["_50_000_to_74_999", "_75_000_to_125_000"], "hh"),
}
_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]


def _months_between(a, b):
    ya, ma = int(a[:4]), int(a[5:7])
    yb, mb = int(b[:4]), int(b[5:7])
    return (yb - ya) * 12 + (mb - ma)


@functools.lru_cache(None)
def _measure_c(spec):
    """returns (values Series over 1..77, num, den, scale, kind) ; num/den None if not poolable."""
    name, period, filters = _parse_spec(spec)
    idx = range(1, 78)
    filters = dict(filters)
    if name == "hom":
        c = _count(period, filters)
        return c, c, pd.Series(1.0, index=idx), None, "count"
    if name in ("rate", "rate10", "ratey"):
        ys = _years(period)
        c = _count(period, filters)
        if name == "ratey":
            a = _acs()
            yp = a[["male_18_to_24", "male_25_to_34", "female_18_to_24", "female_25_to_34"]].sum(axis=1).astype(float)
            den = yp.reindex(idx) * len(ys)
        else:
            den = _popyears(ys, "2010" if name == "rate10" else None)
        return c / den * 1e5, c, den, 1e5, "rate"
    if name in ("arrshare", "domshare"):
        c = _count(period, filters)
        f = dict(filters); f["arr" if name == "arrshare" else "dom"] = 1
        k = _count(period, f)
        return k / c.replace(0, np.nan) * 100, k, c, 100, "rate"
    if name == "density":
        c = _count(period, filters)
        sq = _ca()["area_sq_mi"].reindex(idx).astype(float)
        return c / sq, c, sq, 1, "rate"
    if name == "perhh":
        c = _count(period, filters)
        hh = _acs()[_BANDS].sum(axis=1).astype(float).reindex(idx)
        return c / hh * 1000, c, hh, 1000, "rate"
    if name == "homchg":
        a, b = period.split(":")
        d = _count(b, filters) - _count(a, filters)
        return d, d, pd.Series(1.0, index=idx), None, "count"
    if name == "ratechg":
        a, b = period.split(":")
        v = _measure_c("rate@" + b)[0] - _measure_c("rate@" + a)[0]
        return v, None, None, None, "rate"
    return _measure_other(name, period)


def _measure_other(name, period):
    """the census, socioeconomic and home-value measures of ``_measure_c`` (split: no function over 80 lines)."""
    idx = range(1, 78)
    if name in ("pci", "pov", "unemp", "nohs", "crowd", "dep", "hardship"):
        s, _ = _socio()
        v = s[name].astype(float).reindex(idx)
        return v, None, None, None, ("money" if name == "pci" else ("count" if name == "hardship" else "rate"))
    if name == "pop":
        v = _popacs().reindex(idx)
        return v, v, pd.Series(1.0, index=idx), None, "count"
    if name == "pop2010":
        v = _pop2010().reindex(idx)
        return v, v, pd.Series(1.0, index=idx), None, "count"
    if name == "hh":
        v = _acs()[_BANDS].sum(axis=1).astype(float).reindex(idx)
        return v, v, pd.Series(1.0, index=idx), None, "count"
    if name == "popchg":
        p0 = _pop2010().reindex(idx); p1 = _popacs().reindex(idx)
        return (p1 - p0) / p0 * 100, p1 - p0, p0, 100, "rate"
    if name in _ACS_SHARE:
        cols, base = _ACS_SHARE[name]
        a = _acs()
        num = a[cols].sum(axis=1).astype(float).reindex(idx)
        den = (_popacs() if base == "pop" else a[_BANDS].sum(axis=1).astype(float)).reindex(idx)
        return num / den * 100, num, den, 100, "rate"
    if name == "zhvi":
        return _area_zhvi(period).reindex(idx), None, None, None, "money"
    if name == "zipzhvi":
        return pd.Series({n: _zip_val(_main_zip(n), period) for n in idx}), None, None, None, "money"
    if name == "zhvichg":
        a, b = period.split(":")
        v0 = _area_zhvi(a).reindex(idx); v1 = _area_zhvi(b).reindex(idx)
        return (v1 / v0 - 1) * 100, None, None, None, "rate"
    if name == "zhvicagr":
        a, b = period.split(":")
        v0 = _area_zhvi(a).reindex(idx); v1 = _area_zhvi(b).reindex(idx)
        return ((v1 / v0) ** (12.0 / _months_between(a, b)) - 1) * 100, None, None, None, "rate"
    if name == "ihs":
        return pd.Series({n: _ihs_year(_main_sub(n)[0], period) for n in idx}), None, None, None, "rate"
    if name == "ihschg":
        a, b = period.split(":")
        return pd.Series({n: (_ihs_year(_main_sub(n)[0], b) / _ihs_year(_main_sub(n)[0], a) - 1) * 100
                          for n in idx}), None, None, None, "rate"
    if name == "sqmi":
        v = _ca()["area_sq_mi"].reindex(idx).astype(float)
        return v, v, pd.Series(1.0, index=idx), None, "rate"
    raise KeyError(name)


def _m(spec):
    return _measure_c(spec)


# ----------------------------------------------------------------------------- sets
def _rank_sorted(v, order="desc"):
    v = v.dropna()
    df = pd.DataFrame({"v": v.values, "n": [int(i) for i in v.index]})
    return df.sort_values(["v", "n"], ascending=[order == "asc", True])["n"].tolist()


def _thr(v, thr, measure):
    if thr == "city":
        return _city_raw(measure)
    if thr == "median":
        return float(v.dropna().median())
    if thr == "mean":
        return float(v.dropna().mean())
    return float(thr)


def _cond(c):
    c = c.strip()
    if c == "all":
        return set(range(1, 78))
    if c.startswith("not:"):
        return set(range(1, 78)) - _cond(c[4:])
    if c.startswith("area:"):
        return {_area_num(a) for a in c[5:].split(",")}
    kind, rest = c.split(":", 1)
    if kind in ("top", "bottom"):
        n, meas = rest.split(":", 1)
        v = _m(meas)[0]
        return set(_rank_sorted(v, "desc" if kind == "top" else "asc")[: int(n)])
    if kind in ("gt", "lt", "ge", "le"):
        meas, thr = rest.rsplit(":", 1)
        v = _m(meas)[0]
        t = _thr(v, thr, meas)
        vv = v.dropna()
        if kind == "gt":
            return set(vv[vv > t].index)
        if kind == "lt":
            return set(vv[vv < t].index)
        if kind == "ge":
            return set(vv[vv >= t].index)
        return set(vv[vv <= t].index)
    if kind == "q":
        k, i, meas = rest.split(":", 2)
        v = _m(meas)[0].dropna()
        r = v.rank(method="first")
        # ties broken by area number: rank on (value, number)
        order = _rank_sorted(v, "asc")
        r = pd.Series(range(1, len(order) + 1), index=order, dtype=float)
        q = pd.qcut(r, int(k), labels=False)
        return set(q[q == int(i) - 1].index)
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


def _stat_raw(setspec, measure, how="pooled"):
    s = sorted(_set(setspec))
    v, num, den, scale, kind = _m(measure)
    vv = v.reindex(s).dropna()
    if how == "pooled":
        if num is None:
            return float(vv.mean()), kind, "pooled_mean"
        if scale is None:
            return float(num.reindex(s).sum()), kind, "sum"
        return float(num.reindex(s).sum() / den.reindex(s).sum() * scale), kind, how
    if how == "sum":
        return float(vv.sum()), kind, how
    if how == "mean":
        return float(vv.mean()), kind, how
    if how == "median":
        return float(vv.median()), kind, how
    if how == "max":
        return float(vv.max()), kind, how
    if how == "min":
        return float(vv.min()), kind, how
    if how == "range":
        return float(vv.max() - vv.min()), kind, how
    if how == "count":
        return float(len(vv)), "int", how
    if how == "popw":
        p = _popacs().reindex(vv.index)
        return float((vv * p).sum() / p.sum()), kind, how
    if how == "city_share":
        name, period, filters = _parse_spec(measure)
        tot = len(_filt(_hom(), period, filters))
        return float(num.reindex(s).sum() / tot * 100), "rate", how
    raise KeyError(how)


def _city_raw(measure):
    name, period, filters = _parse_spec(measure)
    if name in ("hom", "rate", "rate10", "arrshare", "domshare", "density", "perhh", "ratey"):
        df = _filt(_hom(), period, filters)
        n = float(len(df))
        if name == "hom":
            return n
        if name in ("rate", "rate10"):
            ys = _years(period)
            return n / _popyears(ys, "2010" if name == "rate10" else None).sum() * 1e5
        if name == "ratey":
            a = _acs()
            yp = a[["male_18_to_24", "male_25_to_34", "female_18_to_24", "female_25_to_34"]].sum().sum()
            return n / (yp * len(_years(period))) * 1e5
        if name == "arrshare":
            return float(df.arr.sum()) / n * 100
        if name == "domshare":
            return float(df.dom.sum()) / n * 100
        if name == "density":
            return n / _ca()["area_sq_mi"].sum()
        if name == "perhh":
            return n / _acs()[_BANDS].sum().sum() * 1000
    if name == "ratechg":
        a, b = period.split(":")
        return _city_raw("rate@" + b) - _city_raw("rate@" + a)
    if name in ("pci", "pov", "unemp", "nohs", "crowd", "dep"):
        return float(_socio()[1][name])
    if name in ("pop", "pop2010", "hh", "sqmi"):
        return float(_m(measure)[0].sum())
    if name in _ACS_SHARE or name == "popchg":
        v, num, den, scale, kind = _m(measure)
        return float(num.sum() / den.sum() * scale)
    v = _m(measure)[0]
    return float(v.dropna().mean())


# ----------------------------------------------------------------------------- public API
def b42_set_stat(set=None, measure="hom@2022", how="pooled"):
    x, kind, h = _stat_raw(set, measure, how)
    if how == "pooled" and kind == "count" and h == "pooled_mean":
        h = "mean"
    return _rnd(x, kind, h)


def b42_set_size(set=None):
    return _rnd(len(_set(set)), "int")


def b42_set_overlap_share(a=None, b=None):
    sa = _set(a); sb = _set(b)
    return _rnd(len(sa & sb) / len(sa) * 100, "rate")


def b42_set_diff(a=None, b=None, measure="rate@2022", how="pooled"):
    xa, kind, h = _stat_raw(a, measure, how)
    xb, _, _ = _stat_raw(b, measure, how)
    return _rnd(xa - xb, kind, h)


def b42_set_ratio(a=None, b=None, measure="rate@2022", how="pooled"):
    xa, _, _ = _stat_raw(a, measure, how)
    xb, _, _ = _stat_raw(b, measure, how)
    return _rnd(xa / xb, "rate")


def _pick(by, order="desc", rank=1, set=None):
    v = _m(by)[0]
    if set is not None:
        v = v.reindex(sorted(_set(set)))
    return _rank_sorted(v, order)[int(rank) - 1]


def _area_measure_value(n, measure):
    if measure == "name":
        return _name(n)
    if measure == "zip":
        return str(_main_zip(n))
    if measure == "submarket":
        return _main_sub(n)[1].replace("Chicago--", "")
    if measure == "number":
        return int(n)
    v, num, den, scale, kind = _m(measure)
    return _rnd(v.get(n, _NAN), kind)


def b42_top_area(measure="hom@2022", order="desc", rank=1, set=None):
    return _name(_pick(measure, order, rank, set))


def b42_top_value(by="rate@2022", measure="pci", order="desc", rank=1, set=None):
    return _area_measure_value(_pick(by, order, rank, set), measure)


def b42_area_value(area="Austin", measure="hom@2022"):
    return _area_measure_value(_area_num(area), measure)


def b42_area_rank(area="Austin", measure="hom@2022", order="desc"):
    v = _m(measure)[0]
    return _rnd(_rank_sorted(v, order).index(_area_num(area)) + 1, "int")


def b42_corr(a="pci", b="rate@2019-2022", method="pearson", set=None):
    s = sorted(_set(set))
    df = pd.DataFrame({"a": _m(a)[0].reindex(s), "b": _m(b)[0].reindex(s)}).dropna()
    if method == "spearman":
        r = df["a"].rank().corr(df["b"].rank())
    else:
        r = df["a"].corr(df["b"])
    return _rnd(r, "corr")


def b42_city_value(measure="rate@2022"):
    name = _parse_spec(measure)[0]
    kind = _m(measure)[4] if name not in ("hom", "rate", "rate10", "arrshare", "domshare", "density", "perhh", "ratey", "ratechg") else ("count" if name == "hom" else "rate")
    return _rnd(_city_raw(measure), kind)


def b42_gap_city(area="Austin", measure="rate@2022"):
    n = _area_num(area)
    v, num, den, scale, kind = _m(measure)
    return _rnd(v[n] - _city_raw(measure), kind)


def b42_ratio_city(area="Austin", measure="rate@2022"):
    n = _area_num(area)
    return _rnd(_m(measure)[0][n] / _city_raw(measure), "rate")


def b42_city_count(period="2022", filters=None):
    return _rnd(len(_filt(_hom(), period, filters)), "int")


def b42_city_share(period="2022", filters=None, base=None):
    num = len(_filt(_hom(), period, filters))
    den = len(_filt(_hom(), period, base))
    return _rnd(num / den * 100, "rate")


def b42_city_pctchg(p0="2019", p1="2021", filters=None):
    a = len(_filt(_hom(), p0, filters)); b = len(_filt(_hom(), p1, filters))
    return _rnd((b / a - 1) * 100, "rate")


_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]
_WD = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def b42_city_peak(kind="month", period="2001-2022", filters=None, set=None, area=None, order="desc", value=False):
    df = _filt(_hom(), period, filters)
    if area is not None:
        df = df[df.ca == _area_num(area)]
    elif set is not None:
        df = df[df.ca.isin(list(_set(set)))]
    col = {"month": "month", "weekday": "wd", "hour": "hour", "year": "year", "loc": "loc", "ym": "ym"}[kind]
    c = df.groupby(col).size()
    if kind == "year":
        c = c.reindex(_years(period), fill_value=0)
    elif kind == "month":
        c = c.reindex(range(1, 13), fill_value=0)
    elif kind == "weekday":
        c = c.reindex(range(7), fill_value=0)
    elif kind == "hour":
        c = c.reindex(range(24), fill_value=0)
    t = pd.DataFrame({"c": c.values, "k": list(c.index)})
    t = t.sort_values(["c", "k"], ascending=[order == "asc", True])
    k, cnt = t.iloc[0]["k"], int(t.iloc[0]["c"])
    if value:
        return _rnd(cnt, "int")
    if kind == "month":
        return _MONTHS[int(k) - 1]
    if kind == "weekday":
        return _WD[int(k)]
    if kind in ("hour", "year"):
        return int(k)
    if kind == "ym":
        return _MONTHS[int(k[5:7]) - 1] + " " + k[:4]
    return str(k)


def b42_area_share(area="Austin", period="2022", filters=None, base=None):
    n = _area_num(area)
    df = _hom(); df = df[df.ca == n]
    return _rnd(len(_filt(df, period, filters)) / len(_filt(df, period, base)) * 100, "rate")


def b42_set_sub_share(set=None, period="2022", filters=None):
    s = list(_set(set))
    df = _hom(); df = df[df.ca.isin(s)]
    return _rnd(len(_filt(df, period, filters)) / len(_filt(df, period, None)) * 100, "rate")


def b42_district_value(district=11, period="2022", filters=None):
    df = _filt(_hom(), period, filters)
    return _rnd(int((df.dist == int(district)).sum()), "int")


def b42_district_top(period="2022", filters=None, order="desc", rank=1, what="number"):
    df = _filt(_hom(), period, filters)
    ds = list(_stations().index)
    c = df[df.dist.notna()].groupby(df.dist.dropna().astype(int)).size().reindex(ds, fill_value=0)
    t = pd.DataFrame({"c": c.values, "d": list(c.index)}).sort_values(["c", "d"], ascending=[order == "asc", True])
    d = int(t.iloc[int(rank) - 1]["d"])
    if what == "number":
        return d
    if what == "value":
        return _rnd(int(t.iloc[int(rank) - 1]["c"]), "int")
    if what == "name":
        return str(_stations().loc[d, "DISTRICT NAME"])
    if what.startswith("area:"):
        return _area_measure_value(int(_stations().loc[d, "COMMUNITY AREA"]), what[5:])
    raise KeyError(what)


def b42_district_change_top(y0=2019, y1=2021, order="desc", what="number"):
    ds = list(_stations().index)
    h = _hom()
    a = h[h.year == int(y0)].groupby("dist").size().reindex(ds, fill_value=0)
    b = h[h.year == int(y1)].groupby("dist").size().reindex(ds, fill_value=0)
    d = (b - a)
    t = pd.DataFrame({"c": d.values, "d": ds}).sort_values(["c", "d"], ascending=[order == "asc", True])
    dd = int(t.iloc[0]["d"])
    if what == "number":
        return dd
    if what == "value":
        return _rnd(int(t.iloc[0]["c"]), "int")
    if what == "name":
        return str(_stations().loc[dd, "DISTRICT NAME"])
    if what.startswith("area:"):
        return _area_measure_value(int(_stations().loc[dd, "COMMUNITY AREA"]), what[5:])


def b42_station(district=11, field="name"):
    s = _stations().loc[int(district)]
    if field == "name":
        return str(s["DISTRICT NAME"])
    if field == "zip":
        return str(int(s["ZIP"]))
    if field == "address":
        return str(s["ADDRESS"])
    if field.startswith("area:"):
        return _area_measure_value(int(s["COMMUNITY AREA"]), field[5:])
    raise KeyError(field)


def b42_n_stations_in(set=None):
    s = _set(set)
    return _rnd(int(_stations()["COMMUNITY AREA"].astype(int).isin(list(s)).sum()), "int")


def b42_ward_value(ward=28, period="2022", filters=None):
    df = _filt(_hom(), period, filters)
    return _rnd(int((df.ward == int(ward)).sum()), "int")


def b42_ward_top(period="2022", filters=None, order="desc", what="number"):
    df = _filt(_hom(), period, filters)
    c = df[df.ward.notna()].groupby(df.ward.dropna().astype(int)).size().reindex(range(1, 51), fill_value=0)
    t = pd.DataFrame({"c": c.values, "w": list(c.index)}).sort_values(["c", "w"], ascending=[order == "asc", True])
    w = int(t.iloc[0]["w"])
    if what == "number":
        return w
    if what == "value":
        return _rnd(int(t.iloc[0]["c"]), "int")
    return b42_ward_office(ward=w, field=what)


def b42_ward_office(ward=28, field="alderman"):
    r = _wards().loc[int(ward)]
    if field == "alderman":
        return str(r["ALDERMAN"]).split(",")[0].strip()
    if field == "zip":
        return str(int(r["ZIPCODE"]))
    if field == "address":
        return str(r["ADDRESS"])
    if field.startswith("area:"):
        return _area_measure_value(_zip_main_area(int(r["ZIPCODE"])), field[5:])
    raise KeyError(field)


def b42_ward_office_count(zip="60609"):
    w = _wards()
    return _rnd(int((w["ZIPCODE"] == float(zip)).sum()), "int")


def b42_zip_zhvi(zip="60614", month="2024-09"):
    return _rnd(_zip_val(int(zip), month), "money")


def b42_zip_pctchg(zip="60614", m0="2019-09", m1="2024-09"):
    return _rnd((_zip_val(int(zip), m1) / _zip_val(int(zip), m0) - 1) * 100, "rate")


def b42_zip_top(m0="2019-09", m1="2024-09", order="desc", what="zip"):
    t = _zhvi()
    ch = (t.loc[m1] / t.loc[m0] - 1).dropna()
    df = pd.DataFrame({"c": ch.values, "z": ch.index}).sort_values(["c", "z"], ascending=[order == "asc", True])
    z = int(df.iloc[0]["z"])
    if what == "zip":
        return str(z)
    if what == "value":
        return _rnd(df.iloc[0]["c"] * 100, "rate")
    if what.startswith("area:"):
        return _area_measure_value(_zip_main_area(z), what[5:])


def b42_zip_area(zip="60621", measure="name"):
    return _area_measure_value(_zip_main_area(int(zip)), measure)


def b42_ihs_value(submarket="CHICAGO", year=2024):
    return _rnd(_ihs_year(_sub_code(submarket), year), "rate")


def b42_ihs_pctchg(submarket="CHICAGO", y0=2019, y1=2024):
    c = _sub_code(submarket)
    return _rnd((_ihs_year(c, y1) / _ihs_year(c, y0) - 1) * 100, "rate")


def b42_ihs_summary(submarket="CHICAGO", field="yoy"):
    s = _ihs_sum()
    k = _norm(submarket)
    r = s[s["Sub Market"].map(lambda x: _norm(str(x).replace("Chicago--", "")) == k or _norm(x) == k)]
    v = float(r.iloc[0][_IHS_FIELDS[field]])
    return _rnd(v, "money" if field == "price" else "rate")


def b42_ihs_summary_top(field="yoy", order="desc", what="name"):
    s = _ihs_sum()
    s = s[s["Sub Market"].str.startswith("Chicago--")].copy()
    s = s.sort_values([_IHS_FIELDS[field], "Number"], ascending=[order == "asc", True])
    r = s.iloc[0]
    if what == "name":
        return r["Sub Market"].replace("Chicago--", "")
    return _rnd(float(r[_IHS_FIELDS[field]]), "money" if field == "price" else "rate")


def b42_ihs_top(y0=2019, y1=2024, order="desc", what="name"):
    l = _ihs_long()
    codes = l[l.submarket_name.str.startswith("Chicago--")][["submarket_code", "submarket_name"]].drop_duplicates()
    rows = []
    for code, name in codes.values:
        rows.append(((_ihs_year(code, y1) / _ihs_year(code, y0) - 1) * 100, code, name))
    rows.sort(key=lambda t: (-t[0] if order == "desc" else t[0], t[1]))
    if what == "name":
        return rows[0][2].replace("Chicago--", "")
    return _rnd(rows[0][0], "rate")


def b42_redfin_city(year=2018, field="homes_sold", how="sum"):
    r = _redfin()
    c = r[(r.Region == "Chicago, IL") & (r.end.dt.year == int(year))]
    col = {"homes_sold": "Homes Sold", "sale_price": "sale_price", "dom": "Median Dom",
           "inventory": "Inventory", "above_list": "Sold Above List", "sale_to_list": "Avg Sale To List",
           "new_listings": "New Listings"}[field]
    v = c[col].astype(float)
    x = {"sum": v.sum(), "median": v.median(), "mean": v.mean(), "max": v.max(), "min": v.min()}[how]
    if field in ("above_list", "sale_to_list"):
        return _rnd(x * 100, "rate")
    if field == "sale_price":
        return _rnd(x, "money")
    if how in ("sum", "max", "min"):
        return _rnd(x, "int")
    return _rnd(x, "rate")


def b42_redfin_region(region="Logan Square", end="2019-09-30", field="sale_price"):
    r = _redfin()
    c = r[(r.Region == "Chicago, IL - " + region) & (r.end == pd.Timestamp(end))]
    row = c.iloc[0]
    if field == "sale_price":
        return _rnd(row["sale_price"], "money")
    if field == "homes_sold":
        return _rnd(row["Homes Sold"], "int")
    if field == "dom":
        return _rnd(row["Median Dom"], "rate")
    if field == "above_list":
        return _rnd(row["Sold Above List"] * 100, "rate")
    raise KeyError(field)


def b42_redfin_top(end="2019-09-30", field="sale_price", min_sold=0, order="desc", what="name"):
    r = _redfin()
    c = r[(r.end == pd.Timestamp(end)) & r.Region.str.startswith("Chicago, IL - ")].copy()
    c = c[~c.Region.isin(["Chicago, IL - Rosehill", "Chicago, IL - Wrightwood"])]
    c = c[c["Homes Sold"].astype(float) >= min_sold]
    col = {"sale_price": "sale_price", "dom": "Median Dom", "above_list": "Sold Above List",
           "homes_sold": "Homes Sold"}[field]
    c = c[c[col].notna()].sort_values([col, "Region"], ascending=[order == "asc", True])
    row = c.iloc[0]
    if what == "name":
        return row["Region"].replace("Chicago, IL - ", "")
    v = float(row[col])
    if field == "above_list":
        return _rnd(v * 100, "rate")
    return _rnd(v, "money" if field == "sale_price" else "int")


def b42_top_persist(n=10, y0=2019, y1=2022):
    s = set(range(1, 78))
    for y in range(int(y0), int(y1) + 1):
        s &= set(_rank_sorted(_count(str(y), {}), "desc")[: int(n)])
    return _rnd(len(s), "int")


def b42_longest_rise(y0=2001, y1=2022):
    c = _hom().groupby("year").size().reindex(range(int(y0), int(y1) + 1), fill_value=0)
    best = cur = 0
    for i in range(1, len(c)):
        cur = cur + 1 if c.iloc[i] > c.iloc[i - 1] else 0
        best = max(best, cur)
    return _rnd(best, "int")


def b42_n_rising(y0=2019, y1=2021, measure="hom"):
    a = _m(f"{measure}@{y0}")[0]; b = _m(f"{measure}@{y1}")[0]
    return _rnd(int((b > a).sum()), "int")


def b42_excess(set=None, period="2022"):
    s = sorted(_set(set))
    c = _count(period, {}).reindex(s).sum()
    py = _popyears(_years(period)).reindex(s).sum()
    return _rnd(c - _city_raw("rate@" + period) * py / 1e5, "int")


def b42_pop_share(set=None, vintage="acs"):
    p = _pop2010() if vintage == "2010" else _popacs()
    return _rnd(p.reindex(sorted(_set(set))).sum() / p.sum() * 100, "rate")


def b42_share_of_top(n=10, measure="hom@2022", of="hom@2022"):
    s = _rank_sorted(_m(measure)[0], "desc")[: int(n)]
    name, period, filters = _parse_spec(of)
    v, num, den, scale, kind = _m(of)
    if name == "hom":
        tot = len(_filt(_hom(), period, filters))
    else:
        tot = num.sum()
    return _rnd(num.reindex(s).sum() / tot * 100, "rate")


def b42_area_trend(area=None, y0=2015, y1=2022):
    ys = list(range(int(y0), int(y1) + 1))
    h = _hom()
    if area is not None:
        h = h[h.ca == _area_num(area)]
    c = h.groupby("year").size().reindex(ys, fill_value=0).astype(float)
    slope = np.polyfit(np.array(ys, float), c.values, 1)[0]
    return _rnd(slope, "rate")


def b42_n_years_up(y0=2001, y1=2022, area=None):
    h = _hom()
    if area is not None:
        h = h[h.ca == _area_num(area)]
    c = h.groupby("year").size().reindex(range(int(y0), int(y1) + 1), fill_value=0)
    return _rnd(int((c.diff() > 0).sum()), "int")
