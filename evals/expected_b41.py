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
_LAST_ND = None
AREAS = list(range(1, 78))
COUNT_MEASURES = {"hom", "homchg", "pop", "pop2010", "hh"}
MONEY_MEASURES = {"pci", "zhvi", "zipzhvi"}
PLAIN_MEASURES = {"pci", "pov", "unemp", "nohs", "crowd", "dep", "hardship", "zhvi", "zhvichg",
                  "ihs", "ihschg", "ratechg", "ratepct", "zipzhvi"}
SOCIO_COLS = {"crowd": "PERCENT OF HOUSING CROWDED", "pov": "PERCENT HOUSEHOLDS BELOW POVERTY",
              "unemp": "PERCENT AGED 16+ UNEMPLOYED",
              "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
              "dep": "PERCENT AGED UNDER 18 OR OVER 64", "pci": "PER CAPITA INCOME ",
              "hardship": "HARDSHIP INDEX"}
BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000",
         "_125_000"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def _p(name):
    return os.path.join(DATA, name)


def _title(name):
    t = name.title()
    return {"Ohare": "O'Hare", "Mckinley Park": "McKinley Park"}.get(t, t)


@functools.lru_cache(None)
def _areas():
    df = pd.read_csv(_p("community_areas.csv"))
    df["name"] = df["community"].map(_title)
    return df.set_index("area_number")


def _key(s):
    return re.sub(r"[^a-z0-9]", "", str(s).lower())


def _area_num(area):
    if isinstance(area, (int, np.integer)) or str(area).isdigit():
        return int(area)
    k = _key(area)
    for num, row in _areas().iterrows():
        if _key(row["name"]) == k or _key(row["community"]) == k:
            return int(num)
    raise KeyError(area)


def _name(num):
    return _areas().loc[int(num), "name"]


def _num(x):
    try:
        return int(float(x))
    except (TypeError, ValueError):
        return np.nan


@functools.lru_cache(None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({"date": d, "year": d.dt.year, "month": d.dt.month,
                        "wd": d.dt.day_of_week, "hour": d.dt.hour,
                        "md": d.dt.strftime("%m-%d"), "ym": d.dt.strftime("%Y-%m")})
    for col, src in (("ca", "Community Area"), ("ward", "Ward"), ("dist", "District")):
        out[col] = h[src].map(_num)
    out["arr"] = h["Arrest"].str.lower().eq("true")
    out["dom"] = h["Domestic"].str.lower().eq("true")
    out["loc"] = h["Location Description"].fillna("").str.upper()
    return out


@functools.lru_cache(None)
def _pop2010():
    df = pd.read_csv(_p("census_population_2010.csv"))
    return df.set_index("NID")["POP2010"].astype(float).reindex(AREAS)


@functools.lru_cache(None)
def _acs():
    df = pd.read_csv(_p("census_acs.csv"))
    m = {c: n for n, c in _areas()["community"].items()}
    df["num"] = df["community_area"].map(m)
    return df.set_index("num").sort_index().reindex(AREAS)


@functools.lru_cache(None)
def _socio():
    df = pd.read_csv(_p("socioeconomic.csv"))
    city = df[df["Community Area Number"].isna()].iloc[0]
    df = df.dropna(subset=["Community Area Number"])
    df.index = df["Community Area Number"].astype(int)
    return df.reindex(AREAS), city


@functools.lru_cache(None)
def _zipx():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"), dtype={"zip": str})


@functools.lru_cache(None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["zip"] = z["RegionName"].astype(str)
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: "%02d" % m)
    return z.pivot_table(index="zip", columns="ym", values="price", aggfunc="first")


@functools.lru_cache(None)
def _ihs_long():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(None)
def _ihsx():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(None)
def _stations():
    df = pd.read_csv(_p("police_stations.csv"), dtype=str)
    df = df[df["DISTRICT"].str.isdigit()].copy()
    df["d"] = df["DISTRICT"].astype(int)
    df["ca"] = df["COMMUNITY AREA"].astype(int)
    return df.set_index("d")


@functools.lru_cache(None)
def _wards():
    df = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig", dtype=str)
    df["w"] = df["WARD"].astype(int)
    df["surname"] = df["ALDERMAN"].str.split(",").str[0].str.strip()
    return df.set_index("w")


@functools.lru_cache(None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["price"] = r["Median Sale Price"].map(_money)
    return r


def _money(s):
    if not isinstance(s, str) or not s.strip():
        return np.nan
    s = s.strip().replace("$", "").replace(",", "")
    mult = 1000 if s.endswith("K") else 1000000 if s.endswith("M") else 1
    return float(s.rstrip("KM")) * mult


def _rnd(x, nd):
    global _LAST_RAW, _LAST_ND
    _LAST_RAW, _LAST_ND = float(x), nd
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return float("nan")
    if nd == 0:
        return int(round(float(x)))
    return round(float(x), nd)


def _nd_for(measure, how="pooled"):
    base = measure.split("@")[0].split("|")[0]
    if base in MONEY_MEASURES:
        return 0
    if base in COUNT_MEASURES:
        return 1 if how in ("mean", "median") else 0
    return 1


# ---------------------------------------------------------------- measure specs
def _parse(spec):
    parts = spec.split("|")
    base, _, period = parts[0].partition("@")
    filt = {}
    for f in parts[1:]:
        k, _, v = f.partition("=")
        filt[k] = v
    return base, (period or None), filt


def _years(period):
    if period is None:
        return list(range(2001, 2024))
    a, _, b = str(period).partition("-")
    return list(range(int(a), int(b or a) + 1))


def _hours(v):
    out = []
    for piece in v.split(","):
        a, _, b = piece.partition("-")
        a, b = int(a), int(b or a)
        out += list(range(a, b + 1)) if a <= b else list(range(a, 24)) + list(range(0, b + 1))
    return out


def _rows(period=None, filt=None):
    h = _hom()
    h = h[h["year"].isin(_years(period))]
    for k, v in (filt or {}).items():
        h = _apply_filter(h, k, v)
    return h


def _apply_filter(h, k, v):
    if k in ("dom", "arr"):
        return h[h[k] == (str(v) in ("1", "true", "True"))]
    if k == "loc":
        return h[h["loc"].isin([x.strip().upper() for x in v.split("/")])]
    if k in ("months", "wd"):
        col = "month" if k == "months" else "wd"
        return h[h[col].isin([int(x) for x in v.split(",")])]
    if k == "hours":
        return h[h["hour"].isin(_hours(v))]
    if k == "md":
        return h[h["md"].isin(v.split(","))]
    if k == "ym":
        a, _, b = v.partition(":")
        return h[(h["ym"] >= a) & (h["ym"] <= b)]
    raise KeyError(k)


def _counts(period=None, filt=None):
    h = _rows(period, filt)
    return h.dropna(subset=["ca"]).groupby("ca").size().reindex(AREAS, fill_value=0).astype(float)


def _popyears(period, vintage="auto"):
    tot = pd.Series(0.0, index=AREAS)
    acs = _acs()["total_population"].astype(float)
    for y in _years(period):
        tot = tot + (_pop2010() if (y <= 2015 or vintage == "2010") else acs)
    return tot


def _acs_share(base):
    a = _acs()
    tp = a["total_population"].astype(float)
    bands = a[BANDS].astype(float).sum(axis=1)
    table = {"black": (a["black_or_african_american"], tp), "white": (a["white"], tp),
             "whitenh": (a["white_not_hispanic_or_latino"], tp),
             "hisp": (a["hispanic_or_latino"], tp), "asian": (a["asian"], tp),
             "kids": (a["male_0_to_17"] + a["female_0_to_17"], tp),
             "seniors": (a["male_65"] + a["female_65"], tp),
             "young": (a["male_18_to_24"] + a["female_18_to_24"], tp),
             "inc_lt25": (a["under_25_000"], bands), "inc_125": (a["_125_000"], bands),
             "inc_75plus": (a["_75_000_to_125_000"] + a["_125_000"], bands)}
    if base not in table:
        return None
    num, den = table[base]
    return num.astype(float), den.astype(float)


def _M(val, num=None, den=None, mult=1.0):
    return {"val": val.reindex(AREAS), "num": num, "den": den, "mult": mult}


def _ratio(num, den, mult):
    val = (num / den.replace(0, np.nan)) * mult
    return _M(val, num, den, mult)


@functools.lru_cache(None)
def _measure(spec):
    base, period, filt = _parse(spec)
    for fn in (_m_hom, _m_census, _m_property):
        m = fn(base, period, filt)
        if m is not None:
            return m
    raise KeyError(spec)


def _two(period):
    a, _, b = period.partition(":")
    return a, b


def _m_hom(base, period, filt):
    if base in ("hom", "rate", "rate10", "density", "arrshare", "domshare", "perhh"):
        c = _counts(period, filt)
        if base == "hom":
            return _M(c, c, None)
        if base in ("rate", "rate10"):
            return _ratio(c, _popyears(period, "2010" if base == "rate10" else "auto"), 1e5)
        if base == "density":
            return _ratio(c, _areas()["area_sq_mi"].astype(float).reindex(AREAS), 1.0)
        if base == "perhh":
            return _ratio(c, _acs()[BANDS].astype(float).sum(axis=1), 1000.0)
        flag = dict(filt, **{base[:3]: "1"})
        return _ratio(_counts(period, flag), c, 100.0)
    if base == "homchg":
        a, b = _two(period)
        d = _counts(b, filt) - _counts(a, filt)
        return _M(d, d, None)
    if base in ("ratechg", "ratepct"):
        a, b = _two(period)
        ra = _measure(_spec("rate", a, filt))["val"]
        rb = _measure(_spec("rate", b, filt))["val"]
        val = rb - ra if base == "ratechg" else (rb / ra.replace(0, np.nan) - 1) * 100
        return _M(val)
    return None


def _spec(base, period, filt):
    s = base + ("@" + period if period else "")
    return s + "".join("|%s=%s" % kv for kv in (filt or {}).items())


def _m_census(base, period, filt):
    if base in SOCIO_COLS:
        return _M(_socio()[0][SOCIO_COLS[base]].astype(float))
    sh = _acs_share(base)
    if sh is not None:
        return _ratio(sh[0], sh[1], 100.0)
    acs = _acs()["total_population"].astype(float)
    sq = _areas()["area_sq_mi"].astype(float).reindex(AREAS)
    if base == "pop":
        return _M(acs, acs, None)
    if base == "pop2010":
        return _M(_pop2010(), _pop2010(), None)
    if base == "hh":
        hh = _acs()[BANDS].astype(float).sum(axis=1)
        return _M(hh, hh, None)
    if base == "sqmi":
        return _M(sq, sq, None)
    if base == "popchg":
        return _ratio(acs - _pop2010(), _pop2010(), 100.0)
    if base == "popdens":
        return _ratio(acs, sq, 1.0)
    return None


def _m_property(base, period, filt):
    if base == "zhvi":
        return _M(_area_zhvi(period))
    if base == "zhvichg":
        a, b = _two(period)
        return _M((_area_zhvi(b) / _area_zhvi(a) - 1) * 100)
    if base == "zipzhvi":
        z = _zhvi()
        return _M(pd.Series({n: z[period].get(_main_zip(n), np.nan) for n in AREAS}))
    if base == "ihs":
        return _M(pd.Series({n: _area_ihs(n, int(period)) for n in AREAS}))
    if base == "ihschg":
        a, b = _two(period)
        va = pd.Series({n: _area_ihs(n, int(a)) for n in AREAS})
        vb = pd.Series({n: _area_ihs(n, int(b)) for n in AREAS})
        return _M((vb / va - 1) * 100)
    return None


@functools.lru_cache(None)
def _area_zhvi(ym):
    z = _zhvi()[ym]
    x = _zipx().copy()
    x["v"] = x["zip"].map(z)
    x = x.dropna(subset=["v"])
    x["w"] = x["share_of_community_area"]
    g = x.groupby("area_number").apply(lambda d: (d["v"] * d["w"]).sum() / d["w"].sum(),
                                       include_groups=False)
    return g.reindex(AREAS)


def _main_zip(n):
    x = _zipx()
    x = x[x["area_number"] == n].sort_values("share_of_community_area", ascending=False)
    return x.iloc[0]["zip"]


def _main_sub(n):
    x = _ihsx()
    x = x[x["area_number"] == n].sort_values("share_of_community_area", ascending=False)
    r = x.iloc[0]
    return r["submarket_code"], r["submarket_name_2023"], int(r["in_price_index"])


def _ihs_year(code, year):
    d = _ihs_long()
    d = d[(d["submarket_code"] == code) & (d["year"] == year)]
    return float(d["index_2000q1_100"].mean()) if len(d) == 4 else np.nan


def _area_ihs(n, year):
    code, _, inidx = _main_sub(n)
    return _ihs_year(code, year) if inidx else np.nan


# ---------------------------------------------------------------- sets and statistics
def _city_raw(measure):
    base, period, filt = _parse(measure)
    if base in ("hom", "rate", "rate10", "density", "arrshare", "domshare", "perhh", "homchg"):
        return _city_hom(base, period, filt)
    if base in ("ratechg", "ratepct"):
        a, b = _two(period)
        ra, rb = _city_hom("rate", a, filt), _city_hom("rate", b, filt)
        return rb - ra if base == "ratechg" else (rb / ra - 1) * 100
    if base in SOCIO_COLS:
        return float(_socio()[1][SOCIO_COLS[base]])
    m = _measure(measure)
    if m["num"] is not None:
        return m["num"].sum() / (m["den"].sum() if m["den"] is not None else 1) * m["mult"]
    return float(m["val"].dropna().mean())


def _city_hom(base, period, filt):
    n = float(len(_rows(period, filt)))
    if base == "hom":
        return n
    if base == "homchg":
        a, b = _two(period)
        return float(len(_rows(b, filt)) - len(_rows(a, filt)))
    if base in ("rate", "rate10"):
        return n / _popyears(period, "2010" if base == "rate10" else "auto").sum() * 1e5
    if base == "density":
        return n / _areas()["area_sq_mi"].sum()
    if base == "perhh":
        return n / _acs()[BANDS].astype(float).sum().sum() * 1000
    return float(len(_rows(period, dict(filt, **{base[:3]: "1"})))) / n * 100


def _thr(measure, thr):
    v = _measure(measure)["val"].dropna()
    if thr == "city":
        return _city_raw(measure)
    if thr == "median":
        return float(v.median())
    if thr == "mean":
        return float(v.mean())
    return float(thr)


def _ranked(measure, order="desc", subset=None):
    v = _measure(measure)["val"].dropna()
    if subset is not None:
        v = v[v.index.isin(subset)]
    df = pd.DataFrame({"v": v, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[order == "asc", True])
    return [int(x) for x in df["n"]]


def _cond(c):
    op, _, rest = c.partition(":")
    if op == "all":
        return set(AREAS)
    if op == "not":
        return set(AREAS) - _cond(rest)
    if op == "area":
        return {_area_num(a) for a in rest.split("/")}
    if op == "sub":
        return {n for n in AREAS if _main_sub(n)[1].replace("Chicago--", "") ==
                rest.replace("Chicago--", "")}
    if op in ("top", "bottom"):
        k, _, m = rest.partition(":")
        return set(_ranked(m, "desc" if op == "top" else "asc")[:int(k)])
    if op == "q":
        k, i, m = rest.split(":", 2)
        r = _ranked(m, "asc")
        q = pd.qcut(pd.Series(range(1, len(r) + 1)), int(k), labels=False) + 1
        return {a for a, g in zip(r, q) if g == int(i)}
    m, _, t = rest.rpartition(":")
    v = _measure(m)["val"].dropna()
    t = _thr(m, t)
    ops = {"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}
    return set(int(x) for x in v[ops[op]].index)


def _set(spec):
    if spec is None:
        return set(AREAS)
    if isinstance(spec, str):
        spec = [spec]
    out = set(AREAS)
    for c in spec:
        out &= _cond(c)
    return sorted(out)


def _stat_raw(areas, measure, how="pooled"):
    m = _measure(measure)
    base = _parse(measure)[0]
    v = m["val"].reindex(areas).dropna()
    if how == "pooled" and base in PLAIN_MEASURES:
        how = "mean"
    if how == "pooled":
        num = m["num"].reindex(areas).sum()
        return num if m["den"] is None else num / m["den"].reindex(areas).sum() * m["mult"]
    if how == "city_share":
        return m["num"].reindex(areas).sum() / _city_raw(measure) * 100
    if how == "popw":
        p = _acs()["total_population"].astype(float).reindex(v.index)
        return float((v * p).sum() / p.sum())
    funcs = {"sum": v.sum, "mean": v.mean, "median": v.median, "max": v.max, "min": v.min,
             "count": lambda: float(len(v)), "range": lambda: v.max() - v.min()}
    return float(funcs[how]())


def _stat_nd(measure, how):
    if how == "count":
        return 0
    if how in ("city_share", "popw"):
        return 1 if _parse(measure)[0] not in MONEY_MEASURES else 0
    return _nd_for(measure, how)


# ---------------------------------------------------------------- public: sets
def b41_set_stat(set=None, measure="hom", how="pooled"):
    """Statistic `how` of `measure` over the areas of `set`."""
    return _rnd(_stat_raw(_set(set), measure, how), _stat_nd(measure, how))


def b41_set_size(set=None):
    """Number of community areas in the set."""
    return _rnd(len(_set(set)), 0)


def b41_set_diff(a=None, b=None, measure="rate", how="pooled"):
    """Statistic over set a minus the same statistic over set b (signed)."""
    d = _stat_raw(_set(a), measure, how) - _stat_raw(_set(b), measure, how)
    return _rnd(d, _stat_nd(measure, how))


def b41_set_ratio(a=None, b=None, measure="rate", how="pooled"):
    """Statistic over set a divided by the statistic over set b (1 decimal)."""
    return _rnd(_stat_raw(_set(a), measure, how) / _stat_raw(_set(b), measure, how), 1)


def b41_pct_of_set(set=None, cond=None):
    """Percent of the set's areas that also meet the condition set `cond`."""
    s, c = _set(set), _set(cond)
    return _rnd(len([a for a in s if a in c]) / len(s) * 100, 1)


def b41_pop_share(set=None, vintage="acs"):
    """Share of the city's residents (ACS 2019-23 or 2010 census) living in the set's areas."""
    p = _pop2010() if vintage == "2010" else _acs()["total_population"].astype(float)
    return _rnd(p.reindex(_set(set)).sum() / p.sum() * 100, 1)


def b41_excess(set=None, period="2019-2022"):
    """Set homicides minus the number expected at the city-wide rate of the period."""
    s = _set(set)
    actual = _counts(period).reindex(s).sum()
    expected = _city_raw("rate@" + period) * _popyears(period).reindex(s).sum() / 1e5
    return _rnd(actual - expected, 0)


def b41_share_of_top(n=10, measure="rate@2019-2022", of="hom@2019-2022"):
    """Share of the city total of `of` held by the top-n areas by `measure`."""
    top = _ranked(measure)[:int(n)]
    m = _measure(of)
    return _rnd(m["num"].reindex(top).sum() / _city_raw(of) * 100, 1)


# ---------------------------------------------------------------- public: areas and chains
def b41_area_value(area="Austin", measure="hom"):
    """Value of a measure for one named community area."""
    v = _measure(measure)["val"].get(_area_num(area), np.nan)
    return _rnd(v, _nd_for(measure))


def b41_top_area(by="rate@2019-2022", rank=1, order="desc", set=None):
    """Name of the area ranked `rank` by `by` (inside `set` if given)."""
    sub = _set(set) if set is not None else None
    return _name(_ranked(by, order, sub)[int(rank) - 1])


def b41_top_value(by="rate@2019-2022", measure="pci", rank=1, order="desc", set=None):
    """The area ranked `rank` by `by`, then the value of `measure` there."""
    sub = _set(set) if set is not None else None
    n = _ranked(by, order, sub)[int(rank) - 1]
    if measure == "zip":
        return str(_main_zip(n))
    if measure == "submarket":
        return _main_sub(n)[1].replace("Chicago--", "")
    return _rnd(_measure(measure)["val"][n], _nd_for(measure))


def b41_area_rank(area="Austin", measure="hom", order="desc"):
    """Rank (1 = highest unless order='asc') of a named area among areas with a value."""
    return _ranked(measure, order).index(_area_num(area)) + 1


def b41_gap_city(area="Austin", measure="rate@2019-2022"):
    """Area value minus the city value (signed)."""
    v = _measure(measure)["val"][_area_num(area)] - _city_raw(measure)
    return _rnd(v, _nd_for(measure))


def b41_ratio_city(area="Austin", measure="rate@2019-2022"):
    """Area value divided by the city value (1 decimal)."""
    return _rnd(_measure(measure)["val"][_area_num(area)] / _city_raw(measure), 1)


def b41_city_value(measure="hom@2022"):
    """City-wide figure of a measure (see conventions)."""
    return _rnd(_city_raw(measure), _nd_for(measure))


def b41_corr(a="pov", b="rate@2019-2022", method="pearson", set=None):
    """Correlation across areas (Pearson, or Spearman = Pearson of average ranks)."""
    df = pd.DataFrame({"a": _measure(a)["val"], "b": _measure(b)["val"]}).dropna()
    if set is not None:
        df = df[df.index.isin(_set(set))]
    if method == "spearman":
        df = df.rank()
    return _rnd(df["a"].corr(df["b"]), 2)


# ---------------------------------------------------------------- public: city time patterns
def _filt_kw(filters):
    return dict(filters or {})


def _set_rows(period, filters, set):
    h = _rows(period, _filt_kw(filters))
    if set is not None:
        h = h[h["ca"].isin(_set(set))]
    return h


def b41_city_count(period="2022", filters=None, set=None):
    """Homicide rows in the period (every row; only the set's areas if set given)."""
    return _rnd(len(_set_rows(period, filters, set)), 0)


def b41_city_share(period="2022", filters=None, base_filters=None):
    """Rows meeting `filters` / rows meeting `base_filters` in the period * 100 (every row)."""
    num = len(_rows(period, dict(_filt_kw(base_filters), **_filt_kw(filters))))
    return _rnd(num / len(_rows(period, _filt_kw(base_filters))) * 100, 1)


def b41_city_peak(kind="month", period="2022", filters=None, set=None, order="desc",
                  value=False):
    """Busiest (or quietest) month / weekday / hour / year; value=True gives its rows."""
    h = _set_rows(period, filters, set)
    col = {"month": "month", "weekday": "wd", "hour": "hour", "year": "year", "ym": "ym"}[kind]
    full = {"month": range(1, 13), "weekday": range(7), "hour": range(24),
            "year": _years(period)}.get(kind)
    c = h.groupby(col).size()
    if full is not None:
        c = c.reindex(list(full), fill_value=0)
    c = c.sort_index(kind="stable")
    key = c.idxmax() if order == "desc" else c.idxmin()
    if value:
        return _rnd(c[key], 0)
    return _peak_label(kind, key)


def _peak_label(kind, key):
    if kind == "month":
        return MONTHS[int(key) - 1]
    if kind == "weekday":
        return WEEKDAYS[int(key)]
    if kind == "ym":
        y, m = key.split("-")
        return "%s %s" % (MONTHS[int(m) - 1], y)
    return int(key)


def b41_peak_gap(period="2022", filters=None):
    """Busiest calendar month minus quietest calendar month (rows in the period)."""
    c = _rows(period, _filt_kw(filters)).groupby("month").size().reindex(range(1, 13),
                                                                        fill_value=0)
    return _rnd(c.max() - c.min(), 0)


def _yearly(y0, y1, area=None, filters=None):
    h = _rows("%d-%d" % (y0, y1), _filt_kw(filters))
    if area is not None:
        h = h[h["ca"] == _area_num(area)]
    return h.groupby("year").size().reindex(range(y0, y1 + 1), fill_value=0)


def b41_n_years_up(y0=2001, y1=2022, area=None):
    """Years y0+1..y1 with strictly more homicides than the year before."""
    c = _yearly(int(y0), int(y1), area)
    return _rnd(int((c.diff().dropna() > 0).sum()), 0)


def b41_first_year(cmp="gt", thr=700, y0=2001, y1=2022):
    """First year y0..y1 whose city count is strictly above/below thr."""
    c = _yearly(int(y0), int(y1))
    hit = c[c > thr] if cmp == "gt" else c[c < thr]
    return int(hit.index[0])


def b41_trend(y0=2015, y1=2022, area=None, filters=None):
    """OLS slope of the yearly homicide count on the year (victims per year)."""
    c = _yearly(int(y0), int(y1), area, filters)
    return _rnd(np.polyfit(c.index.astype(float), c.values.astype(float), 1)[0], 1)


def b41_pctchg(a="2021", b="2022", filters=None, area=None):
    """Percent change of homicide rows from period a to period b (city or area)."""
    ha, hb = _rows(a, _filt_kw(filters)), _rows(b, _filt_kw(filters))
    if area is not None:
        n = _area_num(area)
        ha, hb = ha[ha["ca"] == n], hb[hb["ca"] == n]
    return _rnd((len(hb) / len(ha) - 1) * 100, 1)


def b41_n_rising(y0=2019, y1=2021, measure="hom", set=None):
    """Number of areas whose count (or rate) in y1 is strictly above y0."""
    a = _measure("%s@%s" % (measure, y0))["val"]
    b = _measure("%s@%s" % (measure, y1))["val"]
    s = _set(set)
    return _rnd(int(((b > a) & b.index.isin(s)).sum()), 0)


def b41_n_areas_zero(period="2022", filters=None):
    """Number of community areas with zero homicide rows meeting the filters."""
    c = _counts(period, _filt_kw(filters))
    return _rnd(int((c == 0).sum()), 0)


# ---------------------------------------------------------------- public: districts, wards
def _dist_counts(period, filters=None):
    h = _rows(period, _filt_kw(filters))
    return h.groupby("dist").size().reindex(sorted(_stations().index), fill_value=0)


def b41_district_top(period="2022", filters=None, rank=1, what="name", order="desc"):
    """Police district ranked by homicide rows (District field); name, number, count or area."""
    c = _dist_counts(period, filters)
    df = pd.DataFrame({"c": c, "d": c.index}).sort_values(["c", "d"],
                                                          ascending=[order == "asc", True])
    d = int(df.iloc[int(rank) - 1]["d"])
    return _district_what(d, what, c)


def _district_what(d, what, c):
    st = _stations().loc[d]
    if what == "name":
        return st["DISTRICT NAME"]
    if what == "number":
        return d
    if what == "count":
        return _rnd(c[d], 0)
    if what == "ca":
        return _name(st["ca"])
    return _rnd(_measure(what)["val"][st["ca"]], _nd_for(what))


def b41_district_change_top(y0="2019", y1="2021", what="name", order="desc"):
    """District with the biggest rise (desc) / fall (asc) in rows from y0 to y1."""
    c = _dist_counts(y1) - _dist_counts(y0)
    df = pd.DataFrame({"c": c, "d": c.index}).sort_values(["c", "d"],
                                                          ascending=[order == "asc", True])
    d = int(df.iloc[0]["d"])
    return _district_what(d, what, c)


def b41_district_value(district=11, period="2022", filters=None):
    """Homicide rows whose District field is the number."""
    return _rnd(_dist_counts(period, filters).get(int(district), 0), 0)


def _ward_counts(period, filters=None):
    h = _rows(period, _filt_kw(filters)).dropna(subset=["ward"])
    return h.groupby("ward").size().reindex(range(1, 51), fill_value=0)


def b41_ward_top(period="2022", filters=None, rank=1, what="number"):
    """Ward ranked by homicide rows (Ward field); number, count or alderperson surname."""
    c = _ward_counts(period, filters)
    df = pd.DataFrame({"c": c, "w": c.index}).sort_values(["c", "w"], ascending=[False, True])
    w = int(df.iloc[int(rank) - 1]["w"])
    if what == "count":
        return _rnd(c[w], 0)
    if what == "alder":
        return _wards().loc[w, "surname"]
    return w


def b41_ward_value(ward=28, period="2022", filters=None):
    """Homicide rows whose Ward field is the number."""
    return _rnd(_ward_counts(period, filters).get(int(ward), 0), 0)


def b41_ward_office(ward=1, field="alder"):
    """Ward office facts: 'alder' (surname), 'zip', or 'ca:<measure>' / 'ca' of the office ZIP."""
    z = str(_wards().loc[int(ward), "ZIPCODE"]).strip()
    if field == "alder":
        return _wards().loc[int(ward), "surname"]
    if field == "zip":
        return z
    n = _zip_main_area(z)
    if field == "ca":
        return _name(n)
    m = field.split(":", 1)[1]
    return _rnd(_measure(m)["val"][n], _nd_for(m))


def b41_ward_office_count(zip="60608"):
    """Number of ward offices whose ZIPCODE is the ZIP."""
    return _rnd(int((_wards()["ZIPCODE"].str.strip() == str(zip)).sum()), 0)


def _zip_main_area(z):
    x = _zipx()
    x = x[x["zip"] == str(z)].sort_values("share_of_zip", ascending=False)
    return int(x.iloc[0]["area_number"])


# ---------------------------------------------------------------- public: property
def b41_zip_zhvi(zip="60614", month="2024-09"):
    """ZHVI of a ZIP in a month, read directly (integer dollars)."""
    return _rnd(_zhvi().loc[str(zip), month], 0)


def b41_zip_change(zip="60614", a="2019-01", b="2024-09"):
    """Percent change of a ZIP's ZHVI between two months."""
    z = _zhvi().loc[str(zip)]
    return _rnd((z[b] / z[a] - 1) * 100, 1)


def b41_zip_top(a="2019-01", b="2024-09", rank=1, order="desc", what="zip"):
    """ZIP ranked by ZHVI change a->b (or by level at b if a is ''); then zip / area / measure."""
    z = _zhvi()
    v = (z[b] / z[a] - 1) * 100 if a else z[b]
    df = pd.DataFrame({"v": v, "z": v.index}).dropna()
    df = df.sort_values(["v", "z"], ascending=[order == "asc", True])
    zp = df.iloc[int(rank) - 1]["z"]
    if what == "zip":
        return str(zp)
    n = _zip_main_area(zp)
    if what == "area":
        return _name(n)
    m = what.split(":", 1)[1]
    return _rnd(_measure(m)["val"][n], _nd_for(m))


def b41_zip_area(zip="60621", what="area"):
    """The community area covering most of a ZIP (share_of_zip), or a measure of it."""
    n = _zip_main_area(str(zip))
    if what == "area":
        return _name(n)
    return _rnd(_measure(what)["val"][n], _nd_for(what))


def _pct(s):
    return float(str(s).strip().replace("%", ""))


@functools.lru_cache(None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    cols = {"since2000": "Change Since 2000", "peak": "Change Peak to Current",
            "bottom": "Change Bottom to Current", "covid": "COVID-19 Pandemic Start to Current",
            "yoy": "Year-over-year change"}
    out = pd.DataFrame({k: s[v].map(_pct) for k, v in cols.items()})
    out["price"] = s["Median Sales Price"].map(_money)
    out["name"] = s["Sub Market"].str.replace("Chicago--", "", regex=False)
    out["chicago"] = s["Sub Market"].str.startswith("Chicago--")
    return out


def b41_ihs_summary(submarket="Lake View/Lincoln Park", field="yoy"):
    """2025Q4 IHS summary figure of a submarket (percent as number, price integer)."""
    s = _ihs_summary()
    r = s[s["name"].str.lower() == submarket.replace("Chicago--", "").lower()].iloc[0]
    return _rnd(r[field], 0 if field == "price" else 1)


def b41_ihs_summary_top(field="yoy", rank=1, order="desc", scope="chicago", what="name"):
    """Submarket ranked by a 2025Q4 summary field (17 Chicago rows unless scope='cook')."""
    s = _ihs_summary()
    if scope == "chicago":
        s = s[s["chicago"]]
    s = s.sort_values(field, ascending=(order == "asc"), kind="stable")
    r = s.iloc[int(rank) - 1]
    return r["name"] if what == "name" else _rnd(r[field], 0 if field == "price" else 1)


def b41_ihs_value(submarket="CHICAGO", year=2024):
    """Yearly mean of the four quarterly IHS index values of a series."""
    d = _ihs_long()
    code = d[(d["submarket_name"].str.replace("Chicago--", "", regex=False) ==
              submarket.replace("Chicago--", "")) | (d["submarket_code"] == submarket)]
    return _rnd(_ihs_year(code["submarket_code"].iloc[0], int(year)), 1)


def b41_ihs_top(y0=2019, y1=2024, order="desc", rank=1, what="name"):
    """Chicago submarket ranked by % change of its yearly mean index y0 -> y1."""
    d = _ihs_long()
    d = d[d["submarket_name"].str.startswith("Chicago--")]
    codes = d.drop_duplicates("submarket_code").set_index("submarket_code")["submarket_name"]
    v = pd.Series({c: (_ihs_year(c, int(y1)) / _ihs_year(c, int(y0)) - 1) * 100 for c in codes.index})
    v = v.sort_values(ascending=(order == "asc"), kind="stable")
    c = v.index[int(rank) - 1]
    return codes[c].replace("Chicago--", "") if what == "name" else _rnd(v[c], 1)


def _rf_region(region):
    r = _redfin()
    return r[r["Region"].str.lower() == ("chicago, il - " + region).lower()]


def b41_redfin_value(region="Logan Square", end="2019-09-30", field="price"):
    """Redfin neighbourhood 90-day figure ending on a date (price, sold, dom, above)."""
    r = _rf_region(region)
    r = r[r["end"] == pd.Timestamp(end)].iloc[0]
    return _rf_field(r, field)


def _rf_field(r, field):
    if field == "price":
        return _rnd(r["price"], 0)
    if field == "sold":
        return _rnd(r["Homes Sold"], 0)
    if field == "dom":
        return _rnd(r["Median Dom"], 1)
    if field == "above":
        return _rnd(r["Sold Above List"] * 100, 1)
    return _rnd(r["Avg Sale To List"] * 100, 1)


def b41_redfin_top(end="2019-09-30", field="price", rank=1, order="desc", min_sold=0,
                   what="name"):
    """Neighbourhood ranked by a Redfin field on the 90-day row ending on the date."""
    r = _redfin()
    r = r[r["Region"].str.startswith("Chicago, IL - ") & (r["end"] == pd.Timestamp(end))]
    r = r[~r["Region"].str.endswith(("Rosehill", "Wrightwood"))]
    r = r[r["Homes Sold"] >= int(min_sold)].copy()
    col = {"price": "price", "sold": "Homes Sold", "dom": "Median Dom",
           "above": "Sold Above List"}[field]
    r = r.dropna(subset=[col]).sort_values([col, "Region"], ascending=[order == "asc", True])
    row = r.iloc[int(rank) - 1]
    return row["Region"].replace("Chicago, IL - ", "") if what == "name" else _rf_field(row, field)


def b41_redfin_city_year(year=2018, field="sold"):
    """City 'Chicago, IL' monthly rows of a year: homes sold summed, or median sale price median."""
    r = _redfin()
    r = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    if field == "sold":
        return _rnd(r["Homes Sold"].sum(), 0)
    return _rnd(r["price"].median(), 0)


def b41_district_info(district=11, what="name"):
    """A district's station facts: name, 'ca' (station's community area) or an area measure."""
    return _district_what(int(district), what, _dist_counts(None))
