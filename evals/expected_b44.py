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

Conventions added for blind44 (function prefix ``b44_``)
--------------------------------------------------------
* Function prefix ``b44_``; the same measure / set spec language as above (``b44_set_stat``,
  ``b44_top_area``, ``b44_top_value``, ``b44_corr``, ``b44_city_value``, ``b44_set_size``,
  ``b44_set_diff``, ``b44_set_ratio``, ``b44_area_value``, ``b44_area_rank``, ``b44_city_peak``,
  ``b44_city_count``, ``b44_city_share``, ``b44_district_top``, ``b44_ward_top`` ...), same rounding
  rules (counts/money integers, means/medians of counts 1 decimal, rates/shares/ratios/indices
  1 decimal, correlations 2 decimals), ``_LAST_RAW`` kept.
* ``b44_stations_in_set(set)`` = number of police-district stations (the 22 districts of
  police_stations.csv, Headquarters left out) whose COMMUNITY AREA is one of the set's areas
  ("how many police stations sit in the 10 poorest areas").
* ``b44_offices_in_set(set)`` = number of ward offices whose ZIPCODE's main community area
  (largest share_of_zip) is one of the set's areas (ward 42 has no ZIP and never counts).
* ``b44_zip_count(area)`` = number of ZIP codes of community_area_zip_crosswalk.csv that overlap
  the named area (slivers already dropped in the crosswalk).
* ``b44_share_shift(area, y0, y1)`` = the area's share of ALL city homicide rows in y1 minus its
  share in y0 (percentage points, signed, 1 decimal); questions say "percentage points of the
  city's killings".
* ``b44_top_gap(measure, n)`` = value of the rank-1 area minus the value of the rank-n area by that
  measure (desc; unrounded, then rounded per the measure); "how far ahead is the #1 area of the #5".
* ``b44_yoy_city(y0, y1, filters)`` = (city rows y1 / city rows y0 - 1) * 100 with optional
  homicide filters (every row, blank community area included).
* Measures ``rate10@P`` / ``rateacs@P`` = homicide rate on the 2010 census / on the 2019-23 ACS
  population for every year of the period whatever the year (wrong-vintage stand-ins only).
* ``b44_station(district, what)``: a police station's district name, ZIP, community area ('ca')
  or a measure of that community area ('area:<measure>').
* Measure ``popdens`` (ACS 2019-23 residents per square mile) and ``hh`` (ACS households) as in
  blind36/blind40; ``ratey`` as in blind42 is not used.

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
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
COUNT_M = {"hom", "homchg", "pop", "pop2010", "hh"}
MONEY_M = {"pci", "zhvi", "zipzhvi"}
SOCIO = {"crowd": "PERCENT OF HOUSING CROWDED", "pov": "PERCENT HOUSEHOLDS BELOW POVERTY",
         "unemp": "PERCENT AGED 16+ UNEMPLOYED", "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
         "dep": "PERCENT AGED UNDER 18 OR OVER 64", "pci": "PER CAPITA INCOME ", "hardship": "HARDSHIP INDEX"}
BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
ACS_NUM = {"black": ["black_or_african_american"], "white": ["white"],
           "whitenh": ["white_not_hispanic_or_latino"], "hisp": ["hispanic_or_latino"], "asian": ["asian"],
           "kids": ["male_0_to_17", "female_0_to_17"], "seniors": ["male_65", "female_65"],
           "young": ["male_18_to_24", "female_18_to_24"], "inc_lt25": ["under_25_000"],
           "inc_125": ["_125_000"], "inc_75plus": ["_75_000_to_125_000", "_125_000"]}


def _p(path):
    return os.path.join(DATA, path)


@functools.lru_cache(None)
def _areas():
    a = pd.read_csv(_p("community_areas.csv")).set_index("area_number")
    fix = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    a["name"] = [fix.get(c, c.title()) for c in a["community"]]
    return a


@functools.lru_cache(None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({"date": d, "year": d.dt.year, "month": d.dt.month, "wd": d.dt.weekday,
                        "hour": d.dt.hour, "md": d.dt.strftime("%m-%d"), "ym": d.dt.strftime("%Y-%m")})
    for k, c in [("ca", "Community Area"), ("ward", "Ward"), ("dist", "District")]:
        out[k] = pd.to_numeric(h[c], errors="coerce").astype("Int64")
    out["arr"] = h["Arrest"].str.lower().eq("true")
    out["dom"] = h["Domestic"].str.lower().eq("true")
    out["loc"] = h["Location Description"].fillna("").str.upper()
    return out


@functools.lru_cache(None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    city = s[s["Community Area Number"].isna()].iloc[0]
    s = s.dropna(subset=["Community Area Number"]).copy()
    s.index = s["Community Area Number"].astype(int)
    return s, city


@functools.lru_cache(None)
def _acs():
    c = pd.read_csv(_p("census_acs.csv"))
    m = {v: k for k, v in _areas()["community"].items()}
    c.index = c["community_area"].map(m).astype(int)
    return c.sort_index()


@functools.lru_cache(None)
def _pop2010():
    return pd.read_csv(_p("census_population_2010.csv")).set_index("NID")["POP2010"].astype(float)


@functools.lru_cache(None)
def _zipx():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map("{:02d}".format)
    return z.dropna(subset=["price"]).set_index(["RegionName", "ym"])["price"]


@functools.lru_cache(None)
def _ihsx():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(None)
def _ihs():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"))
    s = s[s["DISTRICT"] != "Headquarters"].copy()
    s["DISTRICT"] = s["DISTRICT"].astype(int)
    return s.set_index("DISTRICT")


@functools.lru_cache(None)
def _wards():
    return pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig").set_index("WARD")


@functools.lru_cache(None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    return r


def _money_str(s):
    s = str(s).strip().replace("$", "").replace(",", "")
    mult = 1000 if s.endswith("K") else (1e6 if s.endswith("M") else 1)
    return float(s.rstrip("KM")) * mult


def _rnd(x, kind="rate", how=None):
    global _LAST_RAW
    _LAST_RAW = x
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return float("nan")
    if kind == "corr":
        return round(float(x), 2)
    if kind == "money" or (kind == "count" and how not in ("mean", "median")):
        return int(round(float(x)))
    return round(float(x), 1)


def _kind(measure):
    n = measure.split("@")[0].split("|")[0]
    return "money" if n in MONEY_M else ("count" if n in COUNT_M else "rate")


def _area(a):
    if isinstance(a, (int, np.integer)) or str(a).isdigit():
        return int(a)
    key = str(a).upper().replace("'", "").strip()
    A = _areas()
    hit = A.index[A["community"].str.replace("'", "") == key]
    if len(hit) == 0:
        raise KeyError(a)
    return int(hit[0])


def _years(period):
    if period is None:
        return None
    p = str(period)
    if "-" in p and len(p) == 9:
        y0, y1 = p.split("-")
        return list(range(int(y0), int(y1) + 1))
    return [int(p)]


def _filter(df, period=None, filters=None):
    if period is not None:
        p = str(period)
        if ":" in p:
            a, b = p.split(":")
            df = df[(df["ym"] >= a) & (df["ym"] <= b)]
        else:
            df = df[df["year"].isin(_years(p))]
    for k, v in (filters or {}).items():
        v = str(v)
        if k in ("dom", "arr"):
            df = df[df[k] == (v in ("1", "true", "True"))]
        elif k == "loc":
            df = df[df["loc"].isin([x.strip().upper() for x in v.split("/")])]
        elif k in ("months", "wd"):
            col = "month" if k == "months" else "wd"
            df = df[df[col].isin([int(x) for x in v.split(",")])]
        elif k == "hours":
            if "-" in v:
                h0, h1 = [int(x) for x in v.split("-")]
                hs = list(range(h0, h1 + 1)) if h0 <= h1 else list(range(h0, 24)) + list(range(0, h1 + 1))
            else:
                hs = [int(x) for x in v.split(",")]
            df = df[df["hour"].isin(hs)]
        elif k == "ym":
            a, b = v.split(":")
            df = df[(df["ym"] >= a) & (df["ym"] <= b)]
        elif k == "md":
            df = df[df["md"].isin(v.split(","))]
        else:
            raise ValueError(k)
    return df


def _parse(measure):
    parts = measure.split("|")
    head = parts[0]
    name, period = (head.split("@", 1) + [None])[:2]
    filt = dict(p.split("=", 1) for p in parts[1:])
    return name, period, filt


def _popyears(period, force=None):
    ys = _years(period)
    acs = _acs()["total_population"].astype(float)
    p10 = _pop2010()
    tot = pd.Series(0.0, index=range(1, 78))
    for y in ys:
        src = {"2010": p10, "acs": acs}.get(force, p10 if y <= 2015 else acs)
        tot = tot + src.reindex(tot.index).fillna(0)
    return tot


def _homcount(period, filt):
    h = _filter(_hom(), period, filt)
    c = h.dropna(subset=["ca"]).groupby("ca").size()
    return c.reindex(range(1, 78), fill_value=0).astype(float)


@functools.lru_cache(None)
def _zhvi_area(month):
    z = _zhvi()
    x = _zipx().copy()
    x["v"] = [z.get((zp, month), np.nan) for zp in x["zip"]]
    x = x.dropna(subset=["v"])
    g = x.groupby("area_number").apply(lambda d: (d["v"] * d["share_of_community_area"]).sum()
                                      / d["share_of_community_area"].sum(), include_groups=False)
    return g.reindex(range(1, 78))


def _main_zip(a):
    x = _zipx()
    x = x[x["area_number"] == a].sort_values("share_of_community_area", ascending=False)
    return int(x.iloc[0]["zip"])


def _main_sub(a):
    x = _ihsx()
    x = x[x["area_number"] == a].sort_values("share_of_community_area", ascending=False)
    return x.iloc[0]["submarket_code"], x.iloc[0]["submarket_name_2023"]


def _ihs_year(code, year):
    d = _ihs()
    d = d[(d["submarket_code"] == code) & (d["year"] == int(year))]
    return d["index_2000q1_100"].mean() if len(d) == 4 else np.nan


def _acs_share(cols, band=False):
    c = _acs()
    num = c[cols].sum(axis=1).astype(float)
    den = c[BANDS].sum(axis=1).astype(float) if band else c["total_population"].astype(float)
    return num, den


def _measure_prop(name, period, idx):
    if name == "zhvi":
        return _zhvi_area(period), None, None, 1
    if name == "zhvichg":
        m0, m1 = period.split(":")
        return (_zhvi_area(m1) / _zhvi_area(m0) - 1) * 100, None, None, 1
    if name == "zipzhvi":
        z = _zhvi()
        return pd.Series([z.get((_main_zip(a), period), np.nan) for a in idx], index=idx), None, None, 1
    if name in ("ihs", "ihschg"):
        out = []
        for a in idx:
            code, _ = _main_sub(a)
            if name == "ihs":
                out.append(_ihs_year(code, period))
            else:
                y0, y1 = period.split(":")
                out.append((_ihs_year(code, y1) / _ihs_year(code, y0) - 1) * 100)
        return pd.Series(out, index=idx, dtype=float), None, None, 1
    raise ValueError(name)


@functools.lru_cache(None)
def _measure(measure):
    """Return (values, numerator, denominator, scale) per area 1..77."""
    name, period, filt = _parse(measure)
    idx = range(1, 78)
    sq = _areas()["area_sq_mi"].reindex(idx).astype(float)
    if name == "hom":
        n = _homcount(period, filt)
        return n, n, None, 1
    if name == "homavg":
        n = _homcount(period, filt)
        k = len(_years(period))
        return n / k, n, pd.Series(float(k), index=idx), 1
    if name in ("rate", "rate10", "rateacs"):
        n, d = _homcount(period, filt), _popyears(period, {"rate10": "2010", "rateacs": "acs"}.get(name))
        return n / d * 1e5, n, d, 1e5
    if name == "density":
        n = _homcount(period, filt)
        return n / sq, n, sq, 1
    if name in ("arrshare", "domshare", "sub"):
        allr = _homcount(period, filt)
        key = {"arrshare": {"arr": "1"}, "domshare": {"dom": "1"}}.get(name)
        if key is None:
            allr = _homcount(period, {})
            num = _homcount(period, filt)
        else:
            num = _homcount(period, dict(filt, **key))
        return (num / allr * 100).where(allr > 0), num, allr.where(allr > 0), 100
    if name == "homchg":
        y0, y1 = period.split(":")
        n = _homcount(y1, filt) - _homcount(y0, filt)
        return n, n, None, 1
    if name == "hompct":
        y0, y1 = period.split(":")
        a, b = _homcount(y0, filt), _homcount(y1, filt)
        return ((b / a - 1) * 100).where(a > 0), (b - a), a.where(a > 0), 100
    if name == "ratechg":
        y0, y1 = period.split(":")
        v = _measure("rate@" + y1)[0] - _measure("rate@" + y0)[0]
        return v, None, None, 1
    if name in SOCIO:
        s, _ = _socio()
        return s[SOCIO[name]].reindex(idx).astype(float), None, None, 1
    if name in ("pop", "pop2010", "hh", "sqmi"):
        v = {"pop": lambda: _acs()["total_population"], "pop2010": _pop2010,
             "hh": lambda: _acs()[BANDS].sum(axis=1), "sqmi": lambda: sq}[name]()
        v = v.reindex(idx).astype(float)
        return v, v, None, 1
    if name == "popdens":
        p = _acs()["total_population"].reindex(idx).astype(float)
        return p / sq, p, sq, 1
    if name == "popchg":
        a, b = _pop2010().reindex(idx), _acs()["total_population"].reindex(idx).astype(float)
        return (b / a - 1) * 100, b - a, a, 100
    if name in ACS_NUM:
        num, den = _acs_share(ACS_NUM[name], band=name.startswith("inc_"))
        num, den = num.reindex(idx), den.reindex(idx)
        return num / den * 100, num, den, 100
    return _measure_prop(name, period, idx)


def _vals(measure):
    return _measure(measure)[0]


def _city_raw(measure):
    name, period, filt = _parse(measure)
    h = _hom()
    if name in ("hom", "homavg", "rate", "density"):
        n = len(_filter(h, period, filt))
        if name == "hom":
            return n
        if name == "homavg":
            return n / len(_years(period))
        if name == "density":
            return n / _areas()["area_sq_mi"].sum()
        pop = sum(_pop2010().sum() if y <= 2015 else _acs()["total_population"].sum()
                  for y in _years(period))
        return n / pop * 1e5
    if name in ("arrshare", "domshare", "sub"):
        base = _filter(h, period, filt if name != "sub" else {})
        key = {"arrshare": {"arr": "1"}, "domshare": {"dom": "1"}, "sub": filt}[name]
        return len(_filter(base, None, key)) / len(base) * 100
    if name in ("homchg", "hompct"):
        y0, y1 = period.split(":")
        a, b = len(_filter(h, y0, filt)), len(_filter(h, y1, filt))
        return b - a if name == "homchg" else (b / a - 1) * 100
    if name == "ratechg":
        y0, y1 = period.split(":")
        return _city_raw("rate@" + y1) - _city_raw("rate@" + y0)
    if name in SOCIO:
        return float(_socio()[1][SOCIO[name]])
    v, num, den, scale = _measure(measure)
    if num is not None and den is not None:
        return num.sum() / den.sum() * scale
    if num is not None:
        return num.sum()
    return v.mean()


def _thr(measure, thr):
    if thr == "city":
        return _city_raw(measure)
    if thr == "median":
        return _vals(measure).median()
    if thr == "mean":
        return _vals(measure).mean()
    return float(thr)


def _ranked(measure, order="desc", among=None):
    v = _vals(measure).dropna()
    if among is not None:
        v = v[v.index.isin(among)]
    df = pd.DataFrame({"v": v, "a": v.index})
    df = df.sort_values(["v", "a"], ascending=[order == "asc", True])
    return list(df["a"])


def _cond(c):
    allareas = set(range(1, 78))
    if c == "all":
        return allareas
    if c.startswith("not:"):
        return allareas - _cond(c[4:])
    kind, rest = c.split(":", 1)
    if kind in ("top", "bottom"):
        n, m = rest.split(":", 1)
        return set(_ranked(m, "desc" if kind == "top" else "asc")[:int(n)])
    if kind in ("gt", "lt", "ge", "le"):
        m, t = rest.rsplit(":", 1)
        v, t = _vals(m), _thr(m, t)
        ops = {"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}
        return set(v[ops[kind]].index)
    if kind == "q":
        k, i, m = rest.split(":", 2)
        v = _vals(m).dropna()
        r = pd.Series(_ranked(m, "asc"))
        lab = pd.qcut(pd.Series(range(len(r))), int(k), labels=False) + 1
        return set(r[lab == int(i)])
    if kind == "area":
        return {_area(x) for x in rest.split("/")}
    if kind == "sub":
        x = _ihsx().sort_values("share_of_community_area", ascending=False)
        x = x.drop_duplicates("area_number")
        return set(x[x["submarket_name_2023"].str.replace("Chicago--", "") == rest]["area_number"])
    raise ValueError(c)


def _set(spec):
    if spec is None:
        return set(range(1, 78))
    if isinstance(spec, str):
        spec = [spec]
    s = set(range(1, 78))
    for c in spec:
        s &= _cond(c)
    return s


def _stat_raw(areas, measure, how):
    v, num, den, scale = _measure(measure)
    ix = sorted(areas)
    vv = v.reindex(ix).dropna()
    if how == "pooled" and num is None:
        how = "mean"
    if how == "pooled":
        if den is None:
            return num.reindex(ix).sum()
        ok = den.reindex(ix).notna()
        return num.reindex(ix)[ok].sum() / den.reindex(ix)[ok].sum() * scale
    if how == "sum":
        return (num if num is not None else v).reindex(ix).sum()
    if how == "city_share":
        name, period, filt = _parse(measure)
        return num.reindex(ix).sum() / len(_filter(_hom(), period, filt)) * 100
    if how == "share":
        return num.reindex(ix).sum() / num.sum() * 100
    if how == "popw":
        p = _acs()["total_population"].reindex(vv.index).astype(float)
        return (vv * p).sum() / p.sum()
    return {"mean": vv.mean, "median": vv.median, "max": vv.max, "min": vv.min,
            "count": lambda: len(vv), "range": lambda: vv.max() - vv.min()}[how]()


def _out(x, measure, how=None):
    k = _kind(measure)
    if how in ("count",):
        return _rnd(x, "count")
    if how in ("city_share", "share", "popw") or (how == "pooled" and k == "count" and
                                                  _measure(measure)[2] is not None):
        return _rnd(x, "rate")
    return _rnd(x, k, how)


# ----------------------------------------------------------------- public API
def b44_set_stat(set=None, measure="hom", how="pooled"):
    return _out(_stat_raw(_set(set), measure, how), measure, how)


def b44_set_size(set=None):
    return _rnd(len(_set(set)), "count")


def b44_set_diff(a=None, b=None, measure="rate", how="pooled"):
    x = _stat_raw(_set(a), measure, how) - _stat_raw(_set(b), measure, how)
    return _out(x, measure, how)


def b44_set_ratio(a=None, b=None, measure="rate", how="pooled"):
    return _rnd(_stat_raw(_set(a), measure, how) / _stat_raw(_set(b), measure, how), "rate")


def b44_pct_of_set(set=None, cond=None):
    s = _set(set)
    return _rnd(len(s & _set(cond)) / len(s) * 100, "rate")


def b44_area_value(area=None, measure="hom"):
    a = _area(area)
    name = _parse(measure)[0]
    if name == "zip":
        return str(_main_zip(a))
    if name == "submarket":
        return _main_sub(a)[1].replace("Chicago--", "")
    return _out(_vals(measure).get(a, np.nan), measure)


def b44_city_value(measure="rate@2022"):
    return _out(_city_raw(measure), measure)


def b44_gap_city(area=None, measure="rate@2022"):
    return _out(_vals(measure)[_area(area)] - _city_raw(measure), measure, "diff")


def b44_ratio_city(area=None, measure="rate@2022"):
    return _rnd(_vals(measure)[_area(area)] / _city_raw(measure), "rate")


def b44_top_area(by="rate@2022", rank=1, order="desc", set=None):
    among = _set(set) if set is not None else None
    return _areas().loc[_ranked(by, order, among)[rank - 1], "name"]


def b44_top_value(by="rate@2022", measure="pci", rank=1, order="desc", set=None):
    among = _set(set) if set is not None else None
    a = _ranked(by, order, among)[rank - 1]
    return b44_area_value(area=int(a), measure=measure)


def b44_area_rank(area=None, measure="rate@2022", order="desc"):
    return _rnd(_ranked(measure, order).index(_area(area)) + 1, "count")


def b44_corr(a="pov", b="rate@2022", method="pearson", set=None):
    s = sorted(_set(set))
    x, y = _vals(a).reindex(s), _vals(b).reindex(s)
    ok = x.notna() & y.notna()
    x, y = x[ok], y[ok]
    if method == "spearman":
        x, y = x.rank(), y.rank()
    return _rnd(np.corrcoef(x, y)[0, 1], "corr")


def b44_city_count(period=None, filters=None, set=None):
    h = _filter(_hom(), period, filters)
    if set is not None:
        h = h[h["ca"].isin(list(_set(set)))]
    return _rnd(len(h), "count")


def b44_city_share(period=None, filters=None, set=None):
    h = _filter(_hom(), period, None)
    if set is not None:
        h = h[h["ca"].isin(list(_set(set)))]
    return _rnd(len(_filter(h, None, filters)) / len(h) * 100, "rate")


def b44_yoy_city(y0=2021, y1=2022, filters=None):
    a = len(_filter(_hom(), str(y0), filters))
    b = len(_filter(_hom(), str(y1), filters))
    return _rnd((b / a - 1) * 100, "rate")


def b44_city_peak(kind="month", period=None, filters=None, set=None, area=None,
                  order="desc", value=False):
    h = _filter(_hom(), period, filters)
    if set is not None:
        h = h[h["ca"].isin(list(_set(set)))]
    if area is not None:
        h = h[h["ca"] == _area(area)]
    col = {"month": "month", "weekday": "wd", "hour": "hour", "year": "year", "ym": "ym"}[kind]
    full = {"month": range(1, 13), "weekday": range(7), "hour": range(24)}.get(kind)
    c = h.groupby(col).size()
    if full is not None:
        c = c.reindex(full, fill_value=0)
    c = c.sort_index(kind="stable")
    k = c.idxmax() if order == "desc" else c.idxmin()
    if value:
        return _rnd(c[k], "count")
    if kind == "month":
        return MONTHS[k - 1]
    if kind == "weekday":
        return DAYS[k]
    if kind == "ym":
        y, m = k.split("-")
        return "%s %s" % (MONTHS[int(m) - 1], y)
    return int(k)


def b44_n_areas_zero(period=None, filters=None):
    return _rnd(int((_homcount(period, filters) == 0).sum()), "count")


def _dist_counts(period=None, filters=None, change=None):
    h = _hom()
    idx = _stations().index
    if change:
        a = _filter(h, str(change[0]), filters).groupby("dist").size().reindex(idx, fill_value=0)
        b = _filter(h, str(change[1]), filters).groupby("dist").size().reindex(idx, fill_value=0)
        return b - a
    return _filter(h, period, filters).groupby("dist").size().reindex(idx, fill_value=0)


def b44_district_top(period=None, what="name", filters=None, change=None, rank=1, order="desc"):
    c = _dist_counts(period, filters, change)
    df = pd.DataFrame({"v": c.values, "d": c.index}).sort_values(["v", "d"], ascending=[order == "asc", True])
    d = int(df.iloc[rank - 1]["d"])
    st = _stations().loc[d]
    if what == "name":
        return st["DISTRICT NAME"]
    if what == "number":
        return d
    if what == "value":
        return _rnd(c[d], "count")
    ca = int(st["COMMUNITY AREA"])
    if what == "ca":
        return _areas().loc[ca, "name"]
    return b44_area_value(area=ca, measure=what.split(":", 1)[1])


def b44_district_value(district=None, period=None, filters=None, share=False):
    h = _filter(_hom(), period, filters)
    n = int((h["dist"] == int(district)).sum())
    return _rnd(n / len(h) * 100, "rate") if share else _rnd(n, "count")


def _office_area(ward):
    z = _wards().loc[int(ward), "ZIPCODE"]
    if pd.isna(z):
        return None
    x = _zipx()
    x = x[x["zip"] == int(z)].sort_values("share_of_zip", ascending=False)
    return int(x.iloc[0]["area_number"])


def b44_ward_top(period=None, what="number", filters=None, rank=1):
    h = _filter(_hom(), period, filters).dropna(subset=["ward"])
    c = h.groupby("ward").size()
    df = pd.DataFrame({"v": c.values, "w": c.index.astype(int)}).sort_values(["v", "w"], ascending=[False, True])
    w = int(df.iloc[rank - 1]["w"])
    if what == "number":
        return w
    if what == "value":
        return _rnd(int(df.iloc[rank - 1]["v"]), "count")
    if what == "alder":
        return _wards().loc[w, "ALDERMAN"].split(",")[0].strip()
    a = _office_area(w)
    if what == "ca":
        return _areas().loc[a, "name"]
    return b44_area_value(area=a, measure=what.split(":", 1)[1])


def b44_ward_value(ward=None, period=None, filters=None):
    h = _filter(_hom(), period, filters)
    return _rnd(int((h["ward"] == int(ward)).sum()), "count")


def b44_ward_office(ward=None, what="alder"):
    if what == "alder":
        return _wards().loc[int(ward), "ALDERMAN"].split(",")[0].strip()
    if what == "zip":
        return str(int(_wards().loc[int(ward), "ZIPCODE"]))
    a = _office_area(ward)
    if what == "ca":
        return _areas().loc[a, "name"]
    return b44_area_value(area=a, measure=what.split(":", 1)[1])


def b44_zip_value(zip=None, month="2024-09", month0=None):
    z = _zhvi()
    v = z[(int(zip), month)]
    if month0:
        return _rnd((v / z[(int(zip), month0)] - 1) * 100, "rate")
    return _rnd(v, "money")


def b44_zip_top(month="2024-09", month0=None, what="zip", rank=1, order="desc"):
    z = _zhvi().reset_index()
    a = z[z["ym"] == month].set_index("RegionName")["price"]
    if month0:
        b = z[z["ym"] == month0].set_index("RegionName")["price"]
        a = ((a / b - 1) * 100).dropna()
    df = pd.DataFrame({"v": a.values, "z": a.index}).sort_values(["v", "z"], ascending=[order == "asc", True])
    zp = int(df.iloc[rank - 1]["z"])
    if what == "zip":
        return str(zp)
    if what == "value":
        return _rnd(df.iloc[rank - 1]["v"], "rate" if month0 else "money")
    x = _zipx()
    x = x[x["zip"] == zp].sort_values("share_of_zip", ascending=False)
    ca = int(x.iloc[0]["area_number"])
    if what == "ca":
        return _areas().loc[ca, "name"]
    return b44_area_value(area=ca, measure=what.split(":", 1)[1])


def _ihs_code(sub):
    d = _ihs()
    s = str(sub)
    names = d["submarket_name"].str.replace("Chicago--", "")
    hit = d[(names.str.lower() == s.lower()) | (d["submarket_code"] == s.upper())]
    return hit["submarket_code"].iloc[0]


def b44_ihs_value(submarket="CHICAGO", year=2024, year0=None, quarter=None):
    code = _ihs_code(submarket)
    if quarter:
        d = _ihs()
        return _rnd(d[(d["submarket_code"] == code) & (d["yearq"] == quarter)]["index_2000q1_100"].iloc[0])
    v = _ihs_year(code, year)
    if year0:
        return _rnd((v / _ihs_year(code, year0) - 1) * 100)
    return _rnd(v)


def b44_ihs_top(year=2024, year0=None, rank=1, order="desc"):
    d = _ihs()
    d = d[d["submarket_name"].str.startswith("Chicago--")]
    out = {}
    for code, g in d.groupby("submarket_code"):
        v = _ihs_year(code, year)
        out[g["submarket_name"].iloc[0].replace("Chicago--", "")] = (v / _ihs_year(code, year0) - 1) * 100 if year0 else v
    s = pd.Series(out).sort_values(ascending=(order == "asc"), kind="stable")
    return s.index[rank - 1]


SUMF = {"since2000": "Change Since 2000", "peak": "Change Peak to Current", "bottom": "Change Bottom to Current",
        "covid": "COVID-19 Pandemic Start to Current", "yoy": "Year-over-year change", "price": "Median Sales Price"}


@functools.lru_cache(None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    s["name"] = s["Sub Market"].str.replace("Chicago--", "")
    for k, c in SUMF.items():
        s[k] = [_money_str(x) if k == "price" else float(str(x).strip().rstrip("%")) for x in s[c]]
    return s


def b44_ihs_summary(submarket=None, field="yoy", area=None):
    s = _ihs_summary()
    if area is not None:
        code = _main_sub(_area(area))[0]
        row = s[s["Number"] == code]
    else:
        row = s[s["name"].str.lower() == str(submarket).lower()]
    v = row[field].iloc[0]
    return _rnd(v, "money" if field == "price" else "rate")


def b44_ihs_summary_top(field="yoy", rank=1, order="desc", scope="chicago"):
    s = _ihs_summary()
    if scope == "chicago":
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s = s.sort_values(field, ascending=(order == "asc"), kind="stable")
    return s["name"].iloc[rank - 1]


RF = {"price": "Median Sale Price", "sold": "Homes Sold", "dom": "Median Dom", "above": "Sold Above List",
      "s2l": "Avg Sale To List", "inv": "Inventory", "ppsf": "Median Sale Ppsf"}


def _rf_val(row, field):
    v = row[RF[field]]
    if field == "price":
        return _money_str(v)
    v = float(v)
    return v * 100 if field in ("above", "s2l") else v


def b44_redfin_value(region=None, date="2019-09-30", field="price"):
    r = _redfin()
    row = r[(r["Region"] == "Chicago, IL - " + region) & (r["end"] == pd.Timestamp(date))].iloc[0]
    v = _rf_val(row, field)
    return _rnd(v, "money" if field in ("price", "sold", "inv") else "rate")


def b44_redfin_city_year(year=2018, field="sold", how="sum"):
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    vals = pd.Series([_rf_val(row, field) for _, row in r.iterrows()])
    v = vals.sum() if how == "sum" else vals.median()
    return _rnd(v, "money" if field in ("price", "sold", "inv") else "rate")


def b44_redfin_top(date="2019-09-30", field="price", rank=1, order="desc", min_sold=0):
    r = _redfin()
    r = r[(r["end"] == pd.Timestamp(date)) & r["Region"].str.startswith("Chicago, IL - ")]
    r = r[~r["Region"].str.contains("Rosehill|Wrightwood")]
    r = r[r["Homes Sold"].astype(float) >= min_sold].copy()
    r["v"] = [_rf_val(row, field) for _, row in r.iterrows()]
    r = r.dropna(subset=["v"]).sort_values(["v", "Region"], ascending=[order == "asc", True])
    return r["Region"].iloc[rank - 1].replace("Chicago, IL - ", "")


def b44_station(district=None, what="name"):
    st = _stations().loc[int(district)]
    if what == "name":
        return st["DISTRICT NAME"]
    if what == "zip":
        return str(int(st["ZIP"]))
    ca = int(st["COMMUNITY AREA"])
    if what == "ca":
        return _areas().loc[ca, "name"]
    return b44_area_value(area=ca, measure=what.split(":", 1)[1])


# ------------------------------------------------------- added for blind44
def b44_stations_in_set(set=None):
    s = _set(set)
    return _rnd(int(_stations()["COMMUNITY AREA"].astype(int).isin(list(s)).sum()), "count")


def b44_offices_in_set(set=None):
    s = _set(set)
    n = sum(1 for w in _wards().index if _office_area(w) in s)
    return _rnd(n, "count")


def b44_zip_count(area=None):
    return _rnd(int((_zipx()["area_number"] == _area(area)).sum()), "count")


def b44_share_shift(area=None, y0=2019, y1=2022):
    h = _hom()
    a = _area(area)
    sh = [((h["year"] == y) & (h["ca"] == a)).sum() / (h["year"] == y).sum() * 100 for y in (y0, y1)]
    return _rnd(sh[1] - sh[0], "rate")


def b44_top_gap(measure="rate@2022", n=5):
    r = _ranked(measure)
    v = _vals(measure)
    return _out(v[r[0]] - v[r[n - 1]], measure, "diff")


def b44_set_names(set=None):
    return ", ".join(_areas().loc[sorted(_set(set)), "name"])
