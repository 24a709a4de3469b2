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

Conventions added for blind43 (function prefix ``b43_``)
--------------------------------------------------------
* Function prefix ``b43_``; the same measure / set spec language as above (``b43_set_stat``,
  ``b43_top_area``, ``b43_top_value``, ``b43_corr``, ``b43_city_value``, ``b43_set_size``,
  ``b43_set_diff``, ``b43_set_ratio``, ``b43_area_value``, ``b43_area_rank``, ``b43_pct_of_set``,
  ``b43_excess``, ``b43_n_for_share``, ``b43_trend`` ...), same rounding rules (counts/money
  integers, means/medians of counts 1 decimal, rates/shares/ratios/indices 1 decimal,
  correlations 2 decimals), ``_LAST_RAW`` kept.
* Measure ``sub@P|filters`` = an area's homicide rows in the period meeting the filters / all of
  its rows in the period * 100 (pooled on the sums; city figure over every row, blank community
  area included), e.g. "areas where more than 70% of 2019-22 killings happened on the street".
  Areas with no rows in the period have no value.
* Measure ``hompct@Y0:Y1`` = percent change of a homicide count, (rows Y1 / rows Y0 - 1) * 100;
  no value where the Y0 count is 0; pooled on the summed counts of the set; city on every row.
  Questions say "by what percent did killings change".
* Measure ``homavg@Y0-Y1`` = homicide rows in the period / number of calendar years (average per
  year, 1 decimal); pooled over a set = the set's rows / number of years (the set's combined
  yearly average); ``how='mean'`` = the average area's yearly average.
* Set statistic ``how='share'`` = the set's sum of a count measure / the sum over all 77 areas
  * 100 (pop, pop2010, hh, sqmi; for hom the denominator is community-area rows only, whereas
  ``city_share`` divides by every city row).
* ``b43_n_years_zero(area, y0, y1, measure='hom|filters')`` = number of calendar years y0..y1 in
  which the named area has no homicide rows meeting the filters.
* ``b43_n_areas(set, measure, cmp, thr)`` = number of areas of the set whose value is strictly
  above (cmp='gt') / below ('lt') thr (a number, 'city', 'median' or 'mean' of all areas).
* ``b43_district_top(..., change=[y0, y1])`` ranks the 22 districts by rows(y1) - rows(y0) of
  the District field; ``what`` = name / number / value / ca / area:<measure>.
* ``b43_zip_value(zip, month, month0)`` = ZHVI of one ZIP read directly (money) or its percent
  change from month0 (1 decimal).
* ``b43_ihs_top(year, year0)`` ranks the 16 Chicago submarkets of the quarterly index by their
  yearly mean (or its percent change from year0); names without "Chicago--".
* ``b43_set_names(set)`` = the names of a small set in area-number order joined by ", "
  (used only for "which areas" questions whose set has 1-3 members).
* Questions that rely on a new convention state the vintage, years and statistic in words.

"""

import functools
import json
import math
import os
import re

import numpy as np
import pandas as pd

DATA = os.environ.get("CHIQA_DATA_DIR", "/work/shared/data")
_LAST_RAW = None
COUNT_M = {"hom", "homchg", "pop", "pop2010", "hh"}
MONEY_M = {"pci", "zhvi", "zipzhvi"}
SOCIO = {"crowd": "PERCENT OF HOUSING CROWDED", "pov": "PERCENT HOUSEHOLDS BELOW POVERTY",
         "unemp": "PERCENT AGED 16+ UNEMPLOYED", "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
         "dep": "PERCENT AGED UNDER 18 OR OVER 64", "pci": "PER CAPITA INCOME ", "hardship": "HARDSHIP INDEX"}
BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
ACS_SHARE = {"black": ["black_or_african_american"], "white": ["white"], "asian": ["asian"],
             "whitenh": ["white_not_hispanic_or_latino"], "hisp": ["hispanic_or_latino"],
             "kids": ["male_0_to_17", "female_0_to_17"], "seniors": ["male_65", "female_65"],
             "young": ["male_18_to_24", "female_18_to_24"]}
INC_SHARE = {"inc_lt25": ["under_25_000"], "inc_125": ["_125_000"],
             "inc_75plus": ["_75_000_to_125_000", "_125_000"]}
AREAS = list(range(1, 78))


def _f(name):
    return os.path.join(DATA, name)


def _title(s):
    t = s.title()
    return {"Ohare": "O'Hare", "Mckinley Park": "McKinley Park"}.get(t, t)


@functools.lru_cache(None)
def _areas():
    a = pd.read_csv(_f("community_areas.csv")).set_index("area_number").sort_index()
    a["name"] = a["community"].map(_title)
    return a


def _key(s):
    return re.sub(r"[^a-z]", "", str(s).lower())


def _area_num(area):
    if isinstance(area, (int, float)) or str(area).isdigit():
        return int(area)
    a = _areas()
    m = {_key(n): i for i, n in a["name"].items()}
    return m[_key(area)]


@functools.lru_cache(None)
def _hom():
    h = pd.read_csv(_f("homicides.csv"))
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["yr"], h["mo"], h["wd"], h["hr"] = d.dt.year, d.dt.month, d.dt.weekday, d.dt.hour
    h["ym"] = d.dt.strftime("%Y-%m")
    h["md"] = d.dt.strftime("%m-%d")
    h["ca"] = h["Community Area"]
    h["loc"] = h["Location Description"].fillna("").str.upper()
    return h


@functools.lru_cache(None)
def _acs():
    c = pd.read_csv(_f("census_acs.csv"))
    m = {v: k for k, v in _areas()["community"].items()}
    c.index = c["community_area"].map(m)
    return c.sort_index()


@functools.lru_cache(None)
def _pop10():
    p = pd.read_csv(_f("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].sort_index().astype(float)


@functools.lru_cache(None)
def _socio():
    s = pd.read_csv(_f("socioeconomic.csv"))
    city = s[s["Community Area Number"].isna()].iloc[0]
    s = s.dropna(subset=["Community Area Number"])
    s.index = s["Community Area Number"].astype(int)
    return s.sort_index(), city


@functools.lru_cache(None)
def _zhvi():
    z = pd.read_csv(_f("property_zhvi_zip_monthly.csv"))
    z["m"] = z["Year"].astype(str) + "-" + z["Month"].map("{:02d}".format)
    return z.pivot_table(index="RegionName", columns="m", values="price", aggfunc="first")


@functools.lru_cache(None)
def _zipxw():
    return pd.read_csv(_f("community_area_zip_crosswalk.csv"))


@functools.lru_cache(None)
def _ihsxw():
    return pd.read_csv(_f("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(None)
def _ihs_year():
    l = pd.read_csv(_f("property_ihs_price_index_long.csv"))
    return l.groupby(["submarket_code", "year"])["index_2000q1_100"].mean().unstack()


@functools.lru_cache(None)
def _ihs_names():
    l = pd.read_csv(_f("property_ihs_price_index_long.csv"))
    d = l.drop_duplicates("submarket_code").set_index("submarket_code")["submarket_name"]
    return d.str.replace("Chicago--", "", regex=False)


@functools.lru_cache(None)
def _stations():
    s = pd.read_csv(_f("police_stations.csv"))
    s = s[s["DISTRICT"] != "Headquarters"].copy()
    s["d"] = s["DISTRICT"].astype(int)
    return s.set_index("d")


@functools.lru_cache(None)
def _wards():
    w = pd.read_csv(_f("ward_offices.csv"), encoding="utf-8-sig")
    return w.set_index("WARD")


@functools.lru_cache(None)
def _redfin():
    r = pd.read_csv(_f("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["sale"] = r["Median Sale Price"].map(_money)
    return r


def _money(s):
    if not isinstance(s, str) or not s.strip():
        return np.nan
    t = s.strip().replace("$", "").replace(",", "")
    mult = 1000 if t.endswith("K") else 1_000_000 if t.endswith("M") else 1
    return float(t.rstrip("KM")) * mult


# ---------------------------------------------------------------- specs
def _parse(spec):
    parts = spec.split("|")
    head, filt = parts[0], {}
    for p in parts[1:]:
        k, v = p.split("=", 1)
        filt[k] = v
    name, _, period = head.partition("@")
    return name, period, filt


def _years(period):
    if "-" in period and len(period) == 9:
        a, b = period.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(period)]


def _hours(v):
    if "-" in v:
        a, b = (int(x) for x in v.split("-"))
        return list(range(a, b + 1)) if a <= b else list(range(a, 24)) + list(range(0, b + 1))
    return [int(x) for x in v.split(",")]


def _apply(h, period, filt):
    if period:
        if ":" in period:
            a, b = period.split(":")
            h = h[(h["ym"] >= a) & (h["ym"] <= b)]
        else:
            h = h[h["yr"].isin(_years(period))]
    for k, v in filt.items():
        if k == "dom":
            h = h[h["Domestic"] == bool(int(v))]
        elif k == "arr":
            h = h[h["Arrest"] == bool(int(v))]
        elif k == "loc":
            h = h[h["loc"].isin([x.upper() for x in v.split("/")])]
        elif k == "months":
            h = h[h["mo"].isin(_hours(v) if "-" in v else [int(x) for x in v.split(",")])]
        elif k == "wd":
            h = h[h["wd"].isin([int(x) for x in v.split(",")])]
        elif k == "hours":
            h = h[h["hr"].isin(_hours(v))]
        elif k == "md":
            h = h[h["md"] == v]
        elif k == "ym":
            a, b = v.split(":")
            h = h[(h["ym"] >= a) & (h["ym"] <= b)]
        else:
            raise ValueError(k)
    return h


def _rows(period, filt):
    return _apply(_hom(), period, filt)


def _count(period, filt):
    r = _rows(period, filt)
    return r.dropna(subset=["ca"]).groupby(r["ca"].dropna().astype(int)).size() \
        .reindex(AREAS, fill_value=0).astype(float)


def _popyears(period, vintage="rule"):
    acs = _acs()["total_population"].reindex(AREAS)
    p10 = _pop10().reindex(AREAS)
    tot = pd.Series(0.0, index=AREAS)
    for y in _years(period):
        tot += p10 if (vintage == "2010" or (vintage == "rule" and y <= 2015)) else acs
    return tot


# ---------------------------------------------------------------- measures
def _nd_hom(name, period, filt):
    """Numerator / denominator of homicide-based measures (value = num/den*scale+off)."""
    if name == "hom":
        return _count(period, filt), None, 1, 0
    if name == "homavg":
        return _count(period, filt), pd.Series(float(len(_years(period))), index=AREAS), 1, 0
    if name in ("rate", "rate10"):
        return _count(period, filt), _popyears(period, "2010" if name == "rate10" else "rule"), 1e5, 0
    if name == "ratey":
        a = _acs().reindex(AREAS)
        yp = a[["male_18_to_24", "male_25_to_34", "female_18_to_24", "female_25_to_34"]].sum(axis=1)
        return _count(period, filt), yp * len(_years(period)), 1e5, 0
    if name == "perhh":
        return _count(period, filt), _acs()[BANDS].sum(axis=1).reindex(AREAS), 1e3, 0
    if name == "density":
        return _count(period, filt), _areas()["area_sq_mi"].reindex(AREAS), 1, 0
    if name in ("arrshare", "domshare"):
        flag = {"arrshare": "arr", "domshare": "dom"}[name]
        return _count(period, dict(filt, **{flag: "1"})), _count(period, filt), 100, 0
    if name == "sub":
        return _count(period, filt), _count(period, {}), 100, 0
    if name == "homchg":
        a, b = period.split(":")
        return _count(b, filt) - _count(a, filt), None, 1, 0
    if name == "hompct":
        a, b = period.split(":")
        return _count(b, filt), _count(a, filt), 100, -100
    return None


def _nd(measure):
    name, period, filt = _parse(measure)
    r = _nd_hom(name, period, filt)
    if r is not None:
        return r
    acs = _acs().reindex(AREAS)
    if name in ACS_SHARE:
        return acs[ACS_SHARE[name]].sum(axis=1), acs["total_population"], 100, 0
    if name in INC_SHARE:
        return acs[INC_SHARE[name]].sum(axis=1), acs[BANDS].sum(axis=1), 100, 0
    if name == "pop":
        return acs["total_population"], None, 1, 0
    if name == "hh":
        return acs[BANDS].sum(axis=1), None, 1, 0
    if name == "pop2010":
        return _pop10().reindex(AREAS), None, 1, 0
    if name == "popchg":
        p10 = _pop10().reindex(AREAS)
        return acs["total_population"] - p10, p10, 100, 0
    if name == "popdens":
        return acs["total_population"], _areas()["area_sq_mi"].reindex(AREAS), 1, 0
    if name == "sqmi":
        return _areas()["area_sq_mi"].reindex(AREAS), None, 1, 0
    return None


def _zhvi_area(month):
    z = _zhvi()[month] if month in _zhvi().columns else pd.Series(dtype=float)
    x = _zipxw().copy()
    x["v"] = x["zip"].map(z)
    x = x.dropna(subset=["v"])
    x["w"] = x["v"] * x["share_of_community_area"]
    g = x.groupby("area_number")
    return (g["w"].sum() / g["share_of_community_area"].sum()).reindex(AREAS)


def _main_zip(n):
    x = _zipxw()
    x = x[x["area_number"] == n].sort_values("share_of_community_area", ascending=False)
    return int(x.iloc[0]["zip"])


def _main_sub(n):
    x = _ihsxw()
    x = x[x["area_number"] == n].sort_values("share_of_community_area", ascending=False)
    return x.iloc[0]["submarket_code"]


def _ihs_area(year):
    t = _ihs_year()
    out = {}
    for n in AREAS:
        c = _main_sub(n)
        out[n] = t.loc[c, int(year)] if c in t.index else np.nan
    return pd.Series(out)


def _series_other(name, period):
    if name in SOCIO:
        return _socio()[0][SOCIO[name]].reindex(AREAS).astype(float)
    if name == "zhvi":
        return _zhvi_area(period)
    if name == "zipzhvi":
        z = _zhvi()[period]
        return pd.Series({n: z.get(_main_zip(n), np.nan) for n in AREAS})
    if name == "zhvichg":
        a, b = period.split(":")
        return (_zhvi_area(b) / _zhvi_area(a) - 1) * 100
    if name == "zhvicagr":
        a, b = period.split(":")
        months = (int(b[:4]) - int(a[:4])) * 12 + int(b[5:]) - int(a[5:])
        return ((_zhvi_area(b) / _zhvi_area(a)) ** (12 / months) - 1) * 100
    if name == "ihs":
        return _ihs_area(period)
    if name == "ihschg":
        a, b = period.split(":")
        return (_ihs_area(b) / _ihs_area(a) - 1) * 100
    if name == "ratechg":
        a, b = period.split(":")
        return _series("rate@" + b) - _series("rate@" + a)
    raise ValueError(name)


@functools.lru_cache(None)
def _series_c(measure):
    name, period, filt = _parse(measure)
    nd = _nd(measure)
    if nd is not None:
        num, den, sc, off = nd
        if den is None:
            return num.astype(float)
        v = num / den.replace(0, np.nan) * sc + off
        return v.astype(float)
    return _series_other(name, period)


def _series(measure):
    return _series_c(measure).copy()


# ---------------------------------------------------------------- city values
def _city_raw(measure):
    name, period, filt = _parse(measure)
    if name in SOCIO:
        return float(_socio()[1][SOCIO[name]])
    if name == "ratechg":
        a, b = period.split(":")
        return _city_raw("rate@" + b) - _city_raw("rate@" + a)
    if name in ("homchg", "hompct"):
        a, b = period.split(":")
        c0, c1 = len(_rows(a, filt)), len(_rows(b, filt))
        return float(c1 - c0) if name == "homchg" else (c1 / c0 - 1) * 100
    if name in ("arrshare", "domshare", "sub"):
        extra = {"arrshare": {"arr": "1"}, "domshare": {"dom": "1"}, "sub": {}}[name]
        base = filt if name != "sub" else {}
        return len(_rows(period, dict(filt, **extra))) / len(_rows(period, base)) * 100
    nd = _nd(measure)
    if nd is None:
        return float(_series(measure).mean())
    num, den, sc, off = nd
    if name in ("hom", "homavg", "rate", "rate10", "ratey", "perhh", "density"):
        num = pd.Series([float(len(_rows(period, filt)))])
    if den is None:
        return float(num.sum())
    return float(num.sum() / den.sum() * sc + off)


# ---------------------------------------------------------------- sets
def _ranked(measure, order="desc", within=None):
    s = _series(measure).dropna()
    if within is not None:
        s = s[s.index.isin(within)]
    sign = -1 if order == "desc" else 1
    return sorted(s.index, key=lambda i: (sign * s[i], i))


def _thr(measure, thr):
    if thr == "city":
        return _city_raw(measure)
    s = _series(measure).dropna()
    if thr == "median":
        return float(s.median())
    if thr == "mean":
        return float(s.mean())
    return float(thr)


def _cond(c):
    if c == "all":
        return set(AREAS)
    kind, _, rest = c.partition(":")
    if kind == "not":
        return set(AREAS) - _cond(rest)
    if kind in ("top", "bottom"):
        n, m = rest.split(":", 1)
        return set(_ranked(m, "desc" if kind == "top" else "asc")[: int(n)])
    if kind in ("gt", "lt", "ge", "le"):
        m, thr = rest.rsplit(":", 1)
        s, t = _series(m).dropna(), _thr(m, thr)
        ops = {"gt": s > t, "lt": s < t, "ge": s >= t, "le": s <= t}
        return set(s[ops[kind]].index)
    if kind == "q":
        k, i, m = rest.split(":", 2)
        s = _series(m).dropna().sort_index()
        r = s.rank(method="first")
        lab = pd.qcut(r, int(k), labels=list(range(1, int(k) + 1)))
        return set(s[lab == int(i)].index)
    if kind == "area":
        return {_area_num(a) for a in rest.split("/")}
    if kind == "sub":
        return {n for n in AREAS if _ihs_names().get(_main_sub(n), "") == rest}
    raise ValueError(c)


def _set(spec):
    if spec is None:
        return list(AREAS)
    if isinstance(spec, str):
        spec = [spec]
    out = set(AREAS)
    for c in spec:
        out &= _cond(c)
    return sorted(out)


def _stat_raw(areas, measure, how):
    s = _series(measure).reindex(areas)
    name = _parse(measure)[0]
    if how == "pooled" and name == "homavg":
        return float(s.sum())
    if how == "pooled":
        nd = _nd(measure)
        if nd is None:
            return float(s.dropna().mean())
        num, den, sc, off = nd
        if den is None:
            return float(num.reindex(areas).sum())
        return float(num.reindex(areas).sum() / den.reindex(areas).sum() * sc + off)
    if how == "city_share":
        return float(s.sum() / _city_raw(measure) * 100)
    if how == "share":
        return float(s.sum() / _series(measure).sum() * 100)
    if how == "popw":
        p = _acs()["total_population"].reindex(areas)[s.notna()]
        return float((s.dropna() * p).sum() / p.sum())
    s = s.dropna()
    f = {"sum": s.sum, "mean": s.mean, "median": s.median, "max": s.max, "min": s.min,
         "count": lambda: len(s), "range": lambda: s.max() - s.min()}[how]
    return float(f())


def _rnd(v, measure=None, how=None, kind=None):
    global _LAST_RAW
    _LAST_RAW = v
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return float("nan")
    name = _parse(measure)[0] if measure else None
    if kind == "corr":
        return round(v, 2)
    if kind == "int" or how == "count":
        return int(round(v))
    if name in MONEY_M and how not in ("share", "city_share"):
        return int(round(v))
    if name in COUNT_M and how not in ("mean", "median", "popw", "share", "city_share"):
        return int(round(v))
    return round(v, 1)


# ---------------------------------------------------------------- public: areas and sets
def b43_area_value(area, measure):
    """A measure of one named community area."""
    return _rnd(float(_series(measure)[_area_num(area)]), measure)


def b43_city_value(measure):
    """The city figure of a measure (see conventions)."""
    return _rnd(_city_raw(measure), measure, "pooled")


def b43_gap_city(area, measure):
    """Area value - city value (signed)."""
    return _rnd(float(_series(measure)[_area_num(area)]) - _city_raw(measure), measure)


def b43_ratio_city(area, measure):
    """Area value / city value."""
    return _rnd(float(_series(measure)[_area_num(area)]) / _city_raw(measure), "x")


def b43_top_area(by, rank=1, order="desc", set=None):
    """Name of the area ranked `rank` by `by` (inside `set` if given)."""
    within = _set(set) if set is not None else None
    return _areas()["name"][_ranked(by, order, within)[rank - 1]]


def b43_top_value(by, measure, rank=1, order="desc", set=None):
    """Chain: area ranked `rank` by `by`, then `measure` of it ('zip'/'submarket' labels too)."""
    within = _set(set) if set is not None else None
    n = _ranked(by, order, within)[rank - 1]
    if measure == "zip":
        return str(_main_zip(n))
    if measure == "submarket":
        return _ihs_names()[_main_sub(n)]
    return _rnd(float(_series(measure)[n]), measure)


def b43_area_rank(area, measure, order="desc", set=None):
    """Rank of a named area (1 = highest unless order='asc')."""
    within = _set(set) if set is not None else None
    return _ranked(measure, order, within).index(_area_num(area)) + 1


def b43_set_stat(set, measure, how="pooled"):
    """Statistic of a measure over a set of areas."""
    return _rnd(_stat_raw(_set(set), measure, how), measure, how)


def b43_set_size(set):
    """Number of areas in a set."""
    return len(_set(set))


def b43_set_diff(a, b, measure, how="pooled"):
    """Statistic of set a - statistic of set b (signed)."""
    v = _stat_raw(_set(a), measure, how) - _stat_raw(_set(b), measure, how)
    return _rnd(v, measure, how)


def b43_set_ratio(a, b, measure, how="pooled"):
    """Statistic of set a / statistic of set b."""
    return _rnd(_stat_raw(_set(a), measure, how) / _stat_raw(_set(b), measure, how), "x")


def b43_pct_of_set(a, b):
    """Share of set a's areas that are also in set b."""
    sa = _set(a)
    return _rnd(len([x for x in sa if x in _set(b)]) / len(sa) * 100, "x")


def b43_set_names(set):
    """Names of the set's areas joined by ', ' (area-number order)."""
    return ", ".join(_areas()["name"][n] for n in _set(set))


def b43_corr(a, b, method="pearson", set=None):
    """Correlation across areas with both values present."""
    x, y = _series(a), _series(b)
    if set is not None:
        keep = _set(set)
        x, y = x.reindex(keep), y.reindex(keep)
    d = pd.concat([x, y], axis=1).dropna()
    if method == "spearman":
        d = d.rank()
    return _rnd(float(np.corrcoef(d.iloc[:, 0], d.iloc[:, 1])[0, 1]), kind="corr")


def b43_n_years_zero(area, y0, y1, measure="hom"):
    """Number of calendar years y0..y1 in which the area had no homicide rows (filters allowed)."""
    _, _, filt = _parse(measure)
    n = _area_num(area)
    return sum(1 for y in range(y0, y1 + 1) if _count(str(y), filt)[n] == 0)


def b43_n_areas(set, measure, cmp="gt", thr=0):
    """Number of areas in a set whose measure is strictly above (gt) / below (lt) thr."""
    s = _series(measure).reindex(_set(set)).dropna()
    t = _thr(measure, thr) if isinstance(thr, str) else float(thr)
    return int((s > t).sum() if cmp == "gt" else (s < t).sum())


# ---------------------------------------------------------------- public: time, districts, wards
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _label(kind, k):
    if kind == "month":
        return MONTHS[int(k) - 1]
    if kind == "weekday":
        return DAYS[int(k)]
    if kind in ("hour", "year", "district", "ward"):
        return int(k)
    return str(k)


def b43_city_peak(kind, spec="hom", set=None, area=None, order="desc", value=False):
    """Busiest (or quietest) month / weekday / hour / year / loc / district / ward of the rows."""
    _, period, filt = _parse(spec)
    r = _rows(period, filt)
    if set is not None or area is not None:
        keep = _set(set) if set is not None else [_area_num(area)]
        r = r[r["ca"].isin(keep)]
    col = {"month": "mo", "weekday": "wd", "hour": "hr", "year": "yr", "loc": "loc",
           "district": "District", "ward": "Ward"}[kind]
    c = r.groupby(r[col]).size()
    if kind == "month":
        c = c.reindex(range(1, 13), fill_value=0)
    elif kind == "weekday":
        c = c.reindex(range(7), fill_value=0)
    elif kind == "hour":
        c = c.reindex(range(24), fill_value=0)
    elif kind == "year" and period:
        c = c.reindex(_years(period), fill_value=0)
    keys = sorted(c.index, key=lambda k: ((-1 if order == "desc" else 1) * c[k], k))
    return int(c[keys[0]]) if value else _label(kind, keys[0])


def b43_city_count(spec):
    """Number of city homicide rows (every row) in the period with the filters."""
    _, period, filt = _parse(spec)
    return len(_rows(period, filt))


def b43_district_value(district, spec="hom"):
    """Homicide rows whose District field is the number."""
    _, period, filt = _parse(spec)
    r = _rows(period, filt)
    return int((r["District"] == district).sum())


def _dist_counts(period, filt):
    r = _rows(period, filt)
    return r.groupby(r["District"].dropna().astype(int)).size().reindex(_stations().index, fill_value=0)


def b43_district_top(spec="hom", what="name", order="desc", rank=1, change=None):
    """District ranked by rows (or by rows(change[1]) - rows(change[0])), then what."""
    _, period, filt = _parse(spec)
    if change:
        c = _dist_counts(str(change[1]), filt) - _dist_counts(str(change[0]), filt)
    else:
        c = _dist_counts(period, filt)
    keys = sorted(c.index, key=lambda k: ((-1 if order == "desc" else 1) * c[k], k))
    d = keys[rank - 1]
    ca = int(_stations().loc[d, "COMMUNITY AREA"])
    if what == "name":
        return _stations().loc[d, "DISTRICT NAME"]
    if what == "number":
        return int(d)
    if what == "value":
        return int(c[d])
    if what == "ca":
        return _areas()["name"][ca]
    m = what.split(":", 1)[1]
    return _rnd(float(_series(m)[ca]), m)


def b43_station_area(district, measure=None):
    """Community area a district's station sits in (name), or a measure of it."""
    ca = int(_stations().loc[int(district), "COMMUNITY AREA"])
    return _areas()["name"][ca] if measure is None else _rnd(float(_series(measure)[ca]), measure)


def b43_ward_value(ward, spec="hom"):
    """Homicide rows whose Ward field is the number."""
    _, period, filt = _parse(spec)
    return int((_rows(period, filt)["Ward"] == ward).sum())


def b43_ward_top(spec="hom", what="ward", rank=1):
    """Ward ranked by rows (Ward field as recorded), then ward / value / alder."""
    _, period, filt = _parse(spec)
    r = _rows(period, filt)
    c = r.groupby(r["Ward"].dropna().astype(int)).size()
    keys = sorted(c.index, key=lambda k: (-c[k], k))
    w = keys[rank - 1]
    if what == "value":
        return int(c[w])
    if what == "alder":
        return b43_ward_alder(ward=int(w))
    return int(w)


def b43_ward_alder(ward):
    """Alderperson surname (text before the first comma)."""
    return _wards().loc[int(ward), "ALDERMAN"].split(",")[0].strip()


def _zip_area(z):
    x = _zipxw()
    x = x[x["zip"] == int(z)].sort_values("share_of_zip", ascending=False)
    return int(x.iloc[0]["area_number"])


def b43_ward_office_area(ward, measure=None):
    """Community area covering most of the ward office's ZIP, or a measure of it."""
    ca = _zip_area(_wards().loc[int(ward), "ZIPCODE"])
    return _areas()["name"][ca] if measure is None else _rnd(float(_series(measure)[ca]), measure)


def b43_ward_office_count(zip):
    """Number of ward offices whose ZIPCODE is that ZIP."""
    return int((_wards()["ZIPCODE"] == int(zip)).sum())


# ---------------------------------------------------------------- public: ZIPs, IHS, Redfin
def b43_zip_value(zip, month, month0=None):
    """ZHVI of a ZIP for a month (money), or its percent change from month0."""
    z = _zhvi().loc[int(zip)]
    if month0:
        return _rnd((z[month] / z[month0] - 1) * 100, "x")
    return _rnd(float(z[month]), "zhvi")


def b43_zip_top(month, month0=None, order="desc", rank=1, what="zip"):
    """ZIP ranked by ZHVI (or its change from month0), then zip / value / area / area:<m>."""
    z = _zhvi()
    s = (z[month] / z[month0] - 1) * 100 if month0 else z[month]
    s = s.dropna()
    keys = sorted(s.index, key=lambda k: ((-1 if order == "desc" else 1) * s[k], k))
    k = keys[rank - 1]
    if what == "zip":
        return str(int(k))
    if what == "value":
        return _rnd(float(s[k]), "x" if month0 else "zhvi")
    ca = _zip_area(k)
    if what == "area":
        return _areas()["name"][ca]
    m = what.split(":", 1)[1]
    return _rnd(float(_series(m)[ca]), m)


def _sub_code(name):
    n = _ihs_names()
    hit = [c for c, v in n.items() if _key(v) == _key(name)]
    return hit[0]


def b43_ihs_value(submarket, year, year0=None):
    """IHS yearly mean index of a submarket, or its percent change from year0."""
    t = _ihs_year().loc[_sub_code(submarket)]
    if year0:
        return _rnd((t[int(year)] / t[int(year0)] - 1) * 100, "x")
    return _rnd(float(t[int(year)]), "x")


def b43_ihs_top(year, year0=None, order="desc", rank=1):
    """Chicago submarket (16 in the index) ranked by its yearly mean (or change from year0)."""
    t = _ihs_year()
    t = t[t.index.str.startswith("p31") & (t.index >= "p3151")]
    s = (t[int(year)] / t[int(year0)] - 1) * 100 if year0 else t[int(year)]
    keys = sorted(s.index, key=lambda k: ((-1 if order == "desc" else 1) * s[k], k))
    return _ihs_names()[keys[rank - 1]]


SUMF = {"since2000": "Change Since 2000", "peak": "Change Peak to Current",
        "bottom": "Change Bottom to Current", "covid": "COVID-19 Pandemic Start to Current",
        "yoy": "Year-over-year change", "price": "Median Sales Price"}


@functools.lru_cache(None)
def _ihs_sum():
    s = pd.read_csv(_f("property_ihs_price_index_summary_2025q4.csv"))
    for k, c in SUMF.items():
        s[k] = s[c].map(lambda v: float(str(v).strip().replace("%", "").replace("$", "").replace(",", "")))
    s["name"] = s["Sub Market"].str.replace("Chicago--", "", regex=False)
    return s


def b43_ihs_summary(submarket, field):
    """2025Q4 IHS summary figure of a submarket."""
    s = _ihs_sum()
    v = float(s[s["name"].map(_key) == _key(submarket)].iloc[0][field])
    return _rnd(v, "zhvi" if field == "price" else "x")


def b43_ihs_summary_top(field, order="desc", scope="chicago", what="name"):
    """Submarket of the 2025Q4 summary ranked by a field (17 Chicago rows unless scope='cook')."""
    s = _ihs_sum()
    if scope == "chicago":
        s = s[s["Number"] >= "p3151"]
    s = s.sort_values([field, "Number"], ascending=[order == "asc", True])
    if what == "value":
        return _rnd(float(s.iloc[0][field]), "zhvi" if field == "price" else "x")
    return s.iloc[0]["name"]


RF = {"sold": "Homes Sold", "sale": "sale", "dom": "Median Dom", "s2l": "Avg Sale To List",
      "above": "Sold Above List", "inv": "Inventory", "ppsf": "Median Sale Ppsf"}


def _rf_val(field, v):
    if field in ("s2l", "above"):
        return round(v * 100, 1)
    if field in ("sold", "sale", "inv", "dom"):
        return int(round(v))
    return round(v, 1)


def b43_redfin_city(year, field="sold", how="sum"):
    """'Chicago, IL' monthly rows ending in `year`: sum / median / mean of a field."""
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    s = r[RF[field]].astype(float)
    global _LAST_RAW
    v = {"sum": s.sum, "median": s.median, "mean": s.mean}[how]()
    _LAST_RAW = v if field not in ("s2l", "above") else v * 100
    return _rf_val(field, v)


def b43_redfin_value(region, date, field="sale"):
    """A neighbourhood's 90-day row ending on date (YYYY-MM-DD)."""
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL - " + region) & (r["end"] == pd.Timestamp(date))]
    return _rf_val(field, float(r.iloc[0][RF[field]]))


def b43_redfin_top(date, field="sale", order="desc", min_sold=0, what="name"):
    """Neighbourhood (Rosehill/Wrightwood left out) ranked on the row ending on date."""
    r = _redfin()
    r = r[r["Region"].str.startswith("Chicago, IL - ") & (r["end"] == pd.Timestamp(date))]
    r = r[~r["Region"].str.endswith(("Rosehill", "Wrightwood"))]
    r = r[r["Homes Sold"] >= min_sold].dropna(subset=[RF[field]])
    r = r.sort_values([RF[field], "Region"], ascending=[order == "asc", True])
    row = r.iloc[0]
    if what == "value":
        return _rf_val(field, float(row[RF[field]]))
    return row["Region"].replace("Chicago, IL - ", "")


# ---------------------------------------------------------------- public: misc new for blind43
def b43_excess(set, spec):
    """Set homicides minus the number at the city-wide rate (population-years of the set)."""
    _, period, filt = _parse(spec)
    areas = _set(set)
    h = _count(period, filt).reindex(areas).sum()
    exp = _city_raw(spec.replace("hom", "rate", 1)) * _popyears(period).reindex(areas).sum() / 1e5
    return _rnd(float(h - exp), kind="int")


def b43_n_for_share(spec, share):
    """Smallest N such that the top-N areas by rows hold >= share % of all city rows."""
    _, period, filt = _parse(spec)
    c = _count(period, filt)
    tot = len(_rows(period, filt))
    keys = sorted(c.index, key=lambda k: (-c[k], k))
    run = 0
    for i, k in enumerate(keys, 1):
        run += c[k]
        if run / tot * 100 >= share:
            return i
    return len(keys)


def b43_trend(y0, y1, area=None):
    """OLS slope of yearly homicide rows on the year (victims per year)."""
    ys = list(range(y0, y1 + 1))
    if area is None:
        v = [len(_rows(str(y), {})) for y in ys]
    else:
        n = _area_num(area)
        v = [_count(str(y), {})[n] for y in ys]
    return _rnd(float(np.polyfit(ys, v, 1)[0]), "x")
