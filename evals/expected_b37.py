r"""
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

Conventions added for blind37 (this module, expected_b36.py, function prefix ``b37_``)
--------------------------------------------------------------------------------------
* Function prefix ``b37_``; same measure / set spec language as above (file name kept as
  the brief asks: expected_b36.py).
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
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _p(name):
    return os.path.join(DATA, name)


# ----------------------------------------------------------------------------- loads
@functools.lru_cache(maxsize=None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "date": d, "year": d.dt.year, "month": d.dt.month, "wd": d.dt.weekday,
        "hour": d.dt.hour, "md": d.dt.strftime("%m-%d"), "ym": d.dt.strftime("%Y-%m"),
        "ca": pd.to_numeric(h["Community Area"], errors="coerce"),
        "ward": pd.to_numeric(h["Ward"], errors="coerce"),
        "district": pd.to_numeric(h["District"], errors="coerce"),
        "arr": h["Arrest"].str.lower().eq("true"),
        "dom": h["Domestic"].str.lower().eq("true"),
        "loc": h["Location Description"].fillna("").str.upper(),
    })
    out.loc[out["ca"] == 0, "ca"] = np.nan
    return out


@functools.lru_cache(maxsize=None)
def _ca():
    c = pd.read_csv(_p("community_areas.csv"))
    c["name"] = c["community"].map(_title)
    return c.set_index("area_number")


def _title(s):
    t = " ".join(w.capitalize() for w in str(s).lower().split())
    t = t.replace("Ohare", "O'Hare").replace("Mckinley", "McKinley")
    return t


def _norm(s):
    return re.sub(r"[^a-z0-9]", "", str(s).lower())


def _area_num(a):
    if isinstance(a, (int, np.integer)) or (isinstance(a, str) and a.strip().isdigit()):
        return int(a)
    key = _norm(a)
    c = _ca()
    for n, row in c.iterrows():
        if _norm(row["community"]) == key or _norm(row["name"]) == key:
            return int(n)
    raise KeyError(a)


@functools.lru_cache(maxsize=None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [c.strip() for c in s.columns]
    return s


@functools.lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    m = {v: k for k, v in _ca()["community"].items()}
    a["n"] = a["community_area"].map(m)
    return a.set_index("n").sort_index()


@functools.lru_cache(maxsize=None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float)


@functools.lru_cache(maxsize=None)
def _xwalk():
    x = pd.read_csv(_p("community_area_zip_crosswalk.csv"))
    x["zip"] = x["zip"].astype(int)
    return x


@functools.lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: "%02d" % m)
    z["price"] = pd.to_numeric(z["price"], errors="coerce")
    return z.pivot_table(index="RegionName", columns="ym", values="price", aggfunc="first")


@functools.lru_cache(maxsize=None)
def _ihs_long():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_x():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_sum():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    return s


@functools.lru_cache(maxsize=None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["msp"] = r["Median Sale Price"].map(_money)
    return r


def _money(s):
    if pd.isna(s):
        return np.nan
    s = str(s).strip().replace("$", "").replace(",", "")
    mult = 1
    if s.endswith("K"):
        mult, s = 1000, s[:-1]
    elif s.endswith("M"):
        mult, s = 1000000, s[:-1]
    return float(s) * mult


@functools.lru_cache(maxsize=None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"))
    s = s[s["DISTRICT"] != "Headquarters"].copy()
    s["d"] = s["DISTRICT"].astype(int)
    return s.set_index("d")


@functools.lru_cache(maxsize=None)
def _wards():
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")
    return w.set_index("WARD")


# ----------------------------------------------------------------------------- specs
def _years(period, default=(2001, 2023)):
    if period is None or period == "":
        return list(range(default[0], default[1] + 1))
    period = str(period)
    if "-" in period and len(period.split("-")[0]) == 4 and len(period.split("-")[1]) == 4:
        a, b = period.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(period)]


def _parse(measure):
    parts = str(measure).split("|")
    head = parts[0]
    filt = {}
    for f in parts[1:]:
        k, v = f.split("=", 1)
        filt[k] = v
    if "@" in head:
        name, period = head.split("@", 1)
    else:
        name, period = head, None
    return name, period, filt


def _hours(spec):
    out = set()
    for piece in str(spec).split(","):
        if "-" in piece:
            a, b = [int(x) for x in piece.split("-")]
            h = a
            while True:
                out.add(h)
                if h == b:
                    break
                h = (h + 1) % 24
        else:
            out.add(int(piece))
    return out


def _filter(df, filt, years=None):
    if years is not None:
        df = df[df["year"].isin(years)]
    for k, v in filt.items():
        if k == "dom":
            df = df[df["dom"] == (v in ("1", "true", "True"))]
        elif k == "arr":
            df = df[df["arr"] == (v in ("1", "true", "True"))]
        elif k == "loc":
            df = df[df["loc"].isin([x.strip().upper() for x in v.split("/")])]
        elif k == "months":
            df = df[df["month"].isin([int(x) for x in v.split(",")])]
        elif k == "wd":
            df = df[df["wd"].isin([int(x) for x in v.split(",")])]
        elif k == "hours":
            df = df[df["hour"].isin(_hours(v))]
        elif k == "md":
            df = df[df["md"].isin(v.split(","))]
        elif k == "ym":
            a, b = v.split(":")
            df = df[(df["ym"] >= a) & (df["ym"] <= b)]
        else:
            raise ValueError(k)
    return df


def _popyear(y):
    if y <= 2015:
        return _pop2010().reindex(AREAS)
    return _acs()["total_population"].reindex(AREAS).astype(float)


def _hom_counts(period, filt):
    df = _filter(_hom(), filt, _years(period))
    return df.dropna(subset=["ca"]).groupby("ca").size().reindex(AREAS, fill_value=0).astype(float)


SOCIO = {"pci": "PER CAPITA INCOME", "pov": "PERCENT HOUSEHOLDS BELOW POVERTY",
         "unemp": "PERCENT AGED 16+ UNEMPLOYED", "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
         "crowd": "PERCENT OF HOUSING CROWDED", "dep": "PERCENT AGED UNDER 18 OR OVER 64",
         "hardship": "HARDSHIP INDEX"}
BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]


def _acs_share(name):
    a = _acs().reindex(AREAS)
    tp = a["total_population"]
    if name == "black":
        return a["black_or_african_american"], tp
    if name == "white":
        return a["white"], tp
    if name == "whitenh":
        return a["white_not_hispanic_or_latino"], tp
    if name == "hisp":
        return a["hispanic_or_latino"], tp
    if name == "asian":
        return a["asian"], tp
    if name == "kids":
        return a["male_0_to_17"] + a["female_0_to_17"], tp
    if name == "seniors":
        return a["male_65"] + a["female_65"], tp
    if name == "young":
        return a["male_18_to_24"] + a["female_18_to_24"], tp
    hh = a[BANDS].sum(axis=1)
    if name == "inc_lt25":
        return a["under_25_000"], hh
    if name == "inc_125":
        return a["_125_000"], hh
    if name == "inc_75plus":
        return a["_75_000_to_125_000"] + a["_125_000"], hh
    return None


def _zhvi_area(ym):
    z = _zhvi()
    if ym not in z.columns:
        raise KeyError("no ZHVI for " + ym)
    x = _xwalk().copy()
    x["v"] = x["zip"].map(z[ym])
    x = x.dropna(subset=["v"])
    g = x.groupby("area_number").apply(
        lambda d: (d["v"] * d["share_of_community_area"]).sum() / d["share_of_community_area"].sum(),
        include_groups=False)
    return g.reindex(AREAS)


def _main_zip(n):
    x = _xwalk()
    d = x[x["area_number"] == n].sort_values(["share_of_community_area"], ascending=False)
    return int(d.iloc[0]["zip"])


def _main_sub(n):
    x = _ihs_x()
    d = x[x["area_number"] == n].sort_values("share_of_community_area", ascending=False)
    return d.iloc[0]["submarket_code"]


def _ihs_year(code, year):
    l = _ihs_long()
    d = l[(l["submarket_code"] == code) & (l["year"] == int(year))]
    if len(d) != 4:
        return np.nan
    return d["index_2000q1_100"].mean()


def _nd(measure):
    """(numerator, denominator, scale) per area, denominator None -> value = numerator."""
    name, period, filt = _parse(measure)
    if name == "hom":
        return _hom_counts(period, filt), None, 1
    if name in ("rate", "rate10"):
        ys = _years(period)
        num = _hom_counts(period, filt)
        den = sum(_pop2010().reindex(AREAS) if name == "rate10" else _popyear(y) for y in ys)
        return num, den, 1e5
    if name == "density":
        return _hom_counts(period, filt), _ca()["area_sq_mi"].reindex(AREAS), 1
    if name in ("arrshare", "domshare"):
        key = "arr" if name == "arrshare" else "dom"
        f2 = dict(filt)
        f2[key] = "1"
        return _hom_counts(period, f2), _hom_counts(period, filt), 100
    if name == "pop":
        return _acs()["total_population"].reindex(AREAS).astype(float), None, 1
    if name == "pop2010":
        return _pop2010().reindex(AREAS), None, 1
    if name == "sqmi":
        return _ca()["area_sq_mi"].reindex(AREAS), None, 1
    if name == "popdens":
        return _acs()["total_population"].reindex(AREAS).astype(float), _ca()["area_sq_mi"].reindex(AREAS), 1
    sh = _acs_share(name)
    if sh is not None:
        return sh[0].astype(float), sh[1].astype(float), 100
    return None


def _values(measure):
    """Per-area unrounded values (Series indexed 1..77)."""
    nd = _nd(measure)
    if nd is not None:
        num, den, sc = nd
        if den is None:
            return num.astype(float)
        return (num / den.replace(0, np.nan)) * sc
    name, period, filt = _parse(measure)
    if name in SOCIO:
        s = _socio().dropna(subset=["Community Area Number"])
        return s.set_index(s["Community Area Number"].astype(int))[SOCIO[name]].reindex(AREAS).astype(float)
    if name == "popchg":
        a = _acs()["total_population"].reindex(AREAS)
        p = _pop2010().reindex(AREAS)
        return (a - p) / p * 100
    if name == "homchg":
        y0, y1 = period.split(":")
        return _hom_counts(y1, filt) - _hom_counts(y0, filt)
    if name == "ratechg":
        y0, y1 = period.split(":")
        return _values("rate@%s%s" % (y1, _fs(filt))) - _values("rate@%s%s" % (y0, _fs(filt)))
    if name == "ratepct":
        y0, y1 = period.split(":")
        return (_values("rate@%s%s" % (y1, _fs(filt))) / _values("rate@%s%s" % (y0, _fs(filt))).replace(0, np.nan) - 1) * 100
    if name == "zhvi":
        return _zhvi_area(period)
    if name == "zhvichg":
        a, b = period.split(":")
        return (_zhvi_area(b) / _zhvi_area(a) - 1) * 100
    if name == "zipzhvi":
        z = _zhvi()
        return pd.Series({n: z[period].get(_main_zip(n), np.nan) for n in AREAS}, dtype=float)
    if name == "ihs":
        out = {}
        for n in AREAS:
            code = _main_sub(n)
            out[n] = _ihs_year(code, period)
        return pd.Series(out, dtype=float)
    if name == "ihschg":
        y0, y1 = period.split(":")
        return (_values("ihs@" + y1) / _values("ihs@" + y0) - 1) * 100
    raise ValueError("unknown measure " + measure)


def _fs(filt):
    return "".join("|%s=%s" % kv for kv in filt.items())


# ----------------------------------------------------------------------------- sets
def _thr(measure, thr, base):
    if thr == "city":
        return _city(measure)
    v = _values(measure)
    if thr == "median":
        return v.dropna().median()
    if thr == "mean":
        return v.dropna().mean()
    return float(thr)


def _rank_order(v, asc):
    v = v.dropna()
    d = pd.DataFrame({"v": v.values, "n": list(v.index)}, index=list(v.index))
    return d.sort_values(["v", "n"], ascending=[asc, True]).index.tolist()


def _cond(c, base):
    if c == "all":
        return set(AREAS)
    if c.startswith("not:"):
        return set(AREAS) - _cond(c[4:], base)
    kind, rest = c.split(":", 1)
    if kind in ("top", "bottom"):
        n, m = rest.split(":", 1)
        v = _values(m).reindex(sorted(base))
        return set(_rank_order(v, kind == "bottom")[: int(n)])
    if kind in ("gt", "lt", "ge", "le"):
        m, t = rest.rsplit(":", 1)
        v = _values(m)
        t = _thr(m, t, base)
        ops = {"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}
        return set(v[ops[kind]].index)
    if kind == "q":
        k, i, m = rest.split(":", 2)
        v = _values(m).reindex(AREAS)
        r = v.rank(method="first")
        q = pd.qcut(r, int(k), labels=False) + 1
        return set(q[q == int(i)].index)
    if kind == "area":
        return set(_area_num(a) for a in rest.split("/"))
    if kind == "sub":
        key = _norm(rest)
        return set(n for n in AREAS if _norm(_sub_name(_main_sub(n))).endswith(key) or _norm(_sub_name(_main_sub(n))) == key)
    raise ValueError(c)


def _sub_name(code):
    x = _ihs_x()
    return x[x["submarket_code"] == code]["submarket_name_2023"].iloc[0]


def _set(spec):
    if spec is None:
        return set(AREAS)
    if isinstance(spec, str):
        spec = [spec]
    s = set(AREAS)
    for c in spec:
        s = s & _cond(c, s)
    return s


def _set_ordered(spec):
    """Rank conditions applied inside the set built so far (chains inside a set)."""
    return _set(spec)


# ----------------------------------------------------------------------------- stats
def _city(measure):
    name, period, filt = _parse(measure)
    if name in ("hom", "rate", "rate10", "density", "arrshare", "domshare"):
        df = _filter(_hom(), filt, _years(period))
        if name == "hom":
            return float(len(df))
        if name == "rate":
            return len(df) / sum(_popyear(y).sum() for y in _years(period)) * 1e5
        if name == "rate10":
            return len(df) / (_pop2010().sum() * len(_years(period))) * 1e5
        if name == "density":
            return len(df) / _ca()["area_sq_mi"].sum()
        key = "arr" if name == "arrshare" else "dom"
        return df[key].mean() * 100
    if name in SOCIO:
        s = _socio()
        return float(s[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"][SOCIO[name]].iloc[0])
    nd = _nd(measure)
    if nd is not None and nd[1] is not None:
        return nd[0].sum() / nd[1].sum() * nd[2]
    if nd is not None:
        return nd[0].sum()
    if name == "popchg":
        return (_acs()["total_population"].sum() / _pop2010().sum() - 1) * 100
    return _values(measure).dropna().mean()


def _stat(areas, measure, how):
    areas = sorted(areas)
    if how == "city_share":
        name, period, filt = _parse(measure)
        num = _hom_counts(period, filt).reindex(areas).sum()
        return num / _city("hom" + ("@" + period if period else "") + _fs(filt)) * 100
    v = _values(measure).reindex(areas)
    if how == "pooled":
        nd = _nd(measure)
        if nd is not None:
            num, den, sc = nd
            if den is None:
                return num.reindex(areas).sum()
            return num.reindex(areas).sum() / den.reindex(areas).sum() * sc
        if _parse(measure)[0] == "popchg":
            a = _acs()["total_population"].reindex(areas).sum()
            p = _pop2010().reindex(areas).sum()
            return (a / p - 1) * 100
        return v.dropna().mean()
    v = v.dropna()
    if how == "sum":
        return v.sum()
    if how == "mean":
        return v.mean()
    if how == "median":
        return v.median()
    if how == "max":
        return v.max()
    if how == "min":
        return v.min()
    if how == "count":
        return float(len(v))
    if how == "range":
        return v.max() - v.min()
    raise ValueError(how)


def _round(x, kind):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return float("nan")
    if kind == "int":
        return int(round(float(x)))
    if kind == "corr":
        return round(float(x), 2)
    return round(float(x), 1)


INT_MEASURES = {"hom", "pop", "pop2010", "pci", "hardship", "zhvi", "zipzhvi", "homchg"}


def _kind(measure, how=None):
    name = _parse(measure)[0]
    if how == "count":
        return "int"
    if name in INT_MEASURES and how in (None, "sum", "pooled", "max", "min", "range", "median"):
        return "int"
    if name in INT_MEASURES and how == "mean" and name in ("pci", "zhvi", "zipzhvi", "pop"):
        return "int"
    return "1"


# ----------------------------------------------------------------------------- public API
def b37_area_value(*, area, measure):
    """Measure of one community area."""
    n = _area_num(area)
    return _round(_values(measure).get(n), _kind(measure))


def b37_city_value(*, measure):
    """City-wide value (homicides: every row incl. blank area)."""
    return _round(_city(measure), _kind(measure))


def b37_gap_city(*, area, measure):
    n = _area_num(area)
    return _round(_values(measure).get(n) - _city(measure), _kind(measure))


def b37_set_stat(*, set, measure, how="pooled"):
    s = _set(set)
    if how == "city_share":
        return _round(_stat(s, measure, how), "1")
    return _round(_stat(s, measure, how), _kind(measure, how))


def b37_set_count(*, set):
    return len(_set(set))


def b37_set_diff(*, a, b, measure, how="pooled"):
    return _round(_stat(_set(a), measure, how) - _stat(_set(b), measure, how), _kind(measure, how))


def b37_set_ratio(*, a, b, measure, how="pooled"):
    return _round(_stat(_set(a), measure, how) / _stat(_set(b), measure, how), "1")


def b37_pct_of_set(*, set, cond):
    s = _set(set)
    c = _set(cond)
    return _round(len(s & c) / len(s) * 100, "1")


def b37_within_share(*, set, sub, measure="hom"):
    s = _set(set)
    sub_s = s & _set(sub)
    name, period, filt = _parse(measure)
    c = _hom_counts(period, filt)
    return _round(c.reindex(sorted(sub_s)).sum() / c.reindex(sorted(s)).sum() * 100, "1")


def _top(by, rank=1, order="desc", set=None):
    base = _set(set)
    v = _values(by).reindex(sorted(base))
    return _rank_order(v, order == "asc")[int(rank) - 1]


def b37_top_area(*, by, rank=1, order="desc", set=None):
    return _ca().loc[_top(by, rank, order, set), "name"]


def b37_top_value(*, by, measure, rank=1, order="desc", set=None):
    n = _top(by, rank, order, set)
    if measure == "zip":
        return _main_zip(n)
    if measure == "submarket":
        return _sub_name(_main_sub(n)).replace("Chicago--", "")
    return _round(_values(measure).get(n), _kind(measure))


def b37_area_rank(*, area, measure, order="desc"):
    n = _area_num(area)
    return _rank_order(_values(measure), order == "asc").index(n) + 1


def b37_corr(*, m1, m2, method="pearson", set=None):
    s = sorted(_set(set))
    d = pd.DataFrame({"a": _values(m1).reindex(s), "b": _values(m2).reindex(s)}).dropna()
    if method == "spearman":
        d = d.rank()
    return _round(d["a"].corr(d["b"]), "corr")


def b37_area_share(*, area, period=None, filters=""):
    """Share of an area's homicide rows in the period meeting filters ('k=v|k=v')."""
    n = _area_num(area)
    filt = _parse("x|" + filters)[2] if filters else {}
    all_ = _hom_counts(period, {}).get(n)
    sub = _hom_counts(period, filt).get(n)
    return _round(sub / all_ * 100, "1")


def b37_city_count(*, period=None, filters="", set=None):
    filt = _parse("x|" + filters)[2] if filters else {}
    df = _filter(_hom(), filt, _years(period))
    if set is not None:
        df = df[df["ca"].isin(_set(set))]
    return int(len(df))


def b37_city_share(*, period=None, filters="", base_filters=""):
    """Percent of city rows (period, base_filters) that also meet filters."""
    bf = _parse("x|" + base_filters)[2] if base_filters else {}
    f = dict(bf)
    f.update(_parse("x|" + filters)[2] if filters else {})
    base = _filter(_hom(), bf, _years(period))
    sub = _filter(_hom(), f, _years(period))
    return _round(len(sub) / len(base) * 100, "1")


def b37_city_peak(*, kind, period=None, filters="", set=None, area=None):
    filt = _parse("x|" + filters)[2] if filters else {}
    df = _filter(_hom(), filt, _years(period))
    if set is not None:
        df = df[df["ca"].isin(_set(set))]
    if area is not None:
        df = df[df["ca"] == _area_num(area)]
    col = {"weekday": "wd", "month": "month", "hour": "hour", "year": "year", "ym": "ym",
           "loc": "loc"}[kind]
    g = df.groupby(col).size()
    g = g[g == g.max()].sort_index()
    k = g.index[0]
    if kind == "weekday":
        return WEEKDAYS[int(k)]
    if kind == "month":
        return MONTHS[int(k) - 1]
    if kind == "hour":
        return int(k)
    if kind == "year":
        return int(k)
    if kind == "ym":
        y, m = k.split("-")
        return "%s %s" % (MONTHS[int(m) - 1], y)
    return k


def b37_city_pctchg(*, y0, y1, ym=None, filters=""):
    """Percent change in city rows y0 -> y1 (same month range MM:MM if ym given)."""
    filt = _parse("x|" + filters)[2] if filters else {}
    h = _filter(_hom(), filt)
    def cnt(y):
        d = h[h["year"] == int(y)]
        if ym:
            a, b = ym.split(":")
            d = d[(d["month"] >= int(a)) & (d["month"] <= int(b))]
        return len(d)
    return _round((cnt(y1) / cnt(y0) - 1) * 100, "1")


def b37_n_areas_zero(*, period=None, filters=""):
    filt = _parse("x|" + filters)[2] if filters else {}
    c = _hom_counts(period, filt)
    return int((c == 0).sum())


def b37_years_above(*, n, y0, y1, area=None):
    h = _hom()
    if area is not None:
        h = h[h["ca"] == _area_num(area)]
    g = h.groupby("year").size()
    return int(sum(1 for y in range(int(y0), int(y1) + 1) if g.get(y, 0) > int(n)))


# ---- police districts
def _district_counts(period, filt):
    df = _filter(_hom(), filt, _years(period))
    return df.groupby("district").size().reindex(_stations().index, fill_value=0)


def b37_district_top(*, period=None, filters="", rank=1, order="desc", what="name"):
    filt = _parse("x|" + filters)[2] if filters else {}
    c = _district_counts(period, filt)
    d = _rank_order(c.astype(float), order == "asc")[int(rank) - 1]
    return _district_what(d, what)


def _district_what(d, what):
    st = _stations()
    if what == "name":
        return st.loc[d, "DISTRICT NAME"]
    if what == "number":
        return int(d)
    ca = int(st.loc[d, "COMMUNITY AREA"])
    if what == "ca":
        return _ca().loc[ca, "name"]
    return _round(_values(what).get(ca), _kind(what))


def b37_district_count(*, district, period=None, filters=""):
    filt = _parse("x|" + filters)[2] if filters else {}
    st = _stations()
    if isinstance(district, str) and not district.isdigit():
        d = st.index[st["DISTRICT NAME"].str.lower() == district.lower()][0]
    else:
        d = int(district)
    return int(_district_counts(period, filt).get(d))


def b37_district_change_top(*, y0, y1, what="name", rank=1):
    c = _district_counts(str(y1), {}) - _district_counts(str(y0), {})
    d = _rank_order(c.astype(float), False)[int(rank) - 1]
    if what == "change":
        return int(c.get(d))
    return _district_what(d, what)


# ---- wards
def b37_ward_top(*, period=None, filters="", rank=1, what="ward"):
    filt = _parse("x|" + filters)[2] if filters else {}
    df = _filter(_hom(), filt, _years(period)).dropna(subset=["ward"])
    g = df.groupby("ward").size()
    d = pd.DataFrame({"v": g.values, "n": list(g.index)}, index=list(g.index)).sort_values(["v", "n"], ascending=[False, True])
    w = int(d.index[int(rank) - 1])
    if what == "ward":
        return w
    if what == "count":
        return int(g.get(w))
    return b37_ward_office(ward=w, field=what)


def b37_ward_office(*, ward, field="alderperson"):
    w = _wards().loc[int(ward)]
    if field == "alderperson":
        return str(w["ALDERMAN"]).split(",")[0].strip()
    if field == "zip":
        return int(w["ZIPCODE"])
    if field.startswith("ca"):
        z = int(w["ZIPCODE"])
        x = _xwalk()
        d = x[x["zip"] == z].sort_values("share_of_zip", ascending=False)
        n = int(d.iloc[0]["area_number"])
        if field == "ca":
            return _ca().loc[n, "name"]
        m = field.split(":", 1)[1]
        return _round(_values(m).get(n), _kind(m))
    raise ValueError(field)


def b37_ward_count(*, ward, period=None, filters=""):
    filt = _parse("x|" + filters)[2] if filters else {}
    df = _filter(_hom(), filt, _years(period))
    return int((df["ward"] == int(ward)).sum())


# ---- ZIP / ZHVI
def b37_zip_value(*, zip, ym):
    return _round(_zhvi().loc[int(zip), ym], "int")


def b37_zip_top(*, a, b=None, rank=1, order="desc", what="zip"):
    """ZIPs ranked by ZHVI growth a->b (or by ZHVI at a if b is None)."""
    z = _zhvi()
    if b is None:
        v = z[a]
    else:
        v = (z[b] / z[a] - 1) * 100
    v = v.dropna()
    d = pd.DataFrame({"v": v.values, "n": list(v.index)}, index=list(v.index)).sort_values(["v", "n"], ascending=[order == "asc", True])
    zp = int(d.index[int(rank) - 1])
    if what == "zip":
        return zp
    if what == "value":
        return _round(d["v"].iloc[int(rank) - 1], "1" if b is not None else "int")
    x = _xwalk()
    n = int(x[x["zip"] == zp].sort_values("share_of_zip", ascending=False).iloc[0]["area_number"])
    if what == "ca":
        return _ca().loc[n, "name"]
    return _round(_values(what).get(n), _kind(what))


# ---- IHS
def _sub_code(name):
    l = _ihs_long()
    key = _norm(name)
    for code, nm in l[["submarket_code", "submarket_name"]].drop_duplicates().values:
        if _norm(nm) == key or _norm(nm.replace("Chicago--", "")) == key or _norm(code) == key:
            return code
    raise KeyError(name)


def b37_ihs_value(*, submarket, year, quarter=None):
    code = _sub_code(submarket)
    if quarter is None:
        return _round(_ihs_year(code, year), "1")
    l = _ihs_long()
    return _round(l[(l["submarket_code"] == code) & (l["year"] == int(year)) & (l["quarter"] == int(quarter))]["index_2000q1_100"].iloc[0], "1")


def b37_ihs_change(*, submarket, y0, y1):
    code = _sub_code(submarket)
    return _round((_ihs_year(code, y1) / _ihs_year(code, y0) - 1) * 100, "1")


SUMF = {"since2000": "Change Since 2000", "peak": "Change Peak to Current",
        "bottom": "Change Bottom to Current", "covid": "COVID-19 Pandemic Start to Current",
        "yoy": "Year-over-year change", "price": "Median Sales Price"}


def _sumval(s):
    s = str(s).strip()
    if s.endswith("%"):
        return float(s[:-1])
    return float(s.replace("$", "").replace(",", ""))


def b37_ihs_summary(*, submarket, field):
    s = _ihs_sum()
    code = _sub_code(submarket)
    v = _sumval(s[s["Number"] == code][SUMF[field]].iloc[0])
    return _round(v, "int" if field == "price" else "1")


def b37_ihs_summary_top(*, field, order="desc", rank=1, cook=False, what="name"):
    s = _ihs_sum().copy()
    if not cook:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s["v"] = s[SUMF[field]].map(_sumval)
    s = s.sort_values(["v", "Number"], ascending=[order == "asc", True])
    row = s.iloc[int(rank) - 1]
    if what == "name":
        return row["Sub Market"].replace("Chicago--", "")
    return _round(row["v"], "int" if field == "price" else "1")


# ---- Redfin
def _rf_region(region):
    return "Chicago, IL - " + region if region != "Chicago, IL" else region


def b37_redfin_value(*, region, end, field="msp"):
    r = _redfin()
    d = r[(r["Region"] == _rf_region(region)) & (r["end"] == pd.Timestamp(end))]
    row = d.iloc[0]
    if field == "msp":
        return _round(row["msp"], "int")
    if field in ("Sold Above List", "Avg Sale To List"):
        return _round(row[field] * 100, "1")
    if field in ("Homes Sold", "Inventory", "New Listings", "Median List Price"):
        return _round(row[field], "int")
    return _round(row[field], "1")


def b37_redfin_city_year(*, year, field="Homes Sold", how="sum"):
    r = _redfin()
    d = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    assert len(d) == 12, len(d)
    col = "msp" if field == "msp" else field
    v = d[col].sum() if how == "sum" else d[col].median() if how == "median" else d[col].mean()
    return _round(v, "int")


def b37_redfin_top(*, end, field="msp", order="desc", rank=1, min_sold=0):
    r = _redfin()
    d = r[(r["end"] == pd.Timestamp(end)) & r["Region"].str.startswith("Chicago, IL - ")]
    d = d[~d["Region"].str.contains("Rosehill|Wrightwood")]
    d = d[d["Homes Sold"] >= int(min_sold)]
    col = "msp" if field == "msp" else field
    d = d.dropna(subset=[col]).sort_values([col, "Region"], ascending=[order == "asc", True])
    return d.iloc[int(rank) - 1]["Region"].replace("Chicago, IL - ", "")


def b37_zip_area(*, zip, what="ca"):
    """The community area covering most of a ZIP (largest share_of_zip), then a measure of it."""
    x = _xwalk()
    n = int(x[x["zip"] == int(zip)].sort_values("share_of_zip", ascending=False).iloc[0]["area_number"])
    if what == "ca":
        return _ca().loc[n, "name"]
    return _round(_values(what).get(n), _kind(what))


def b37_set_sub_share(*, set, period=None, filters=""):
    """Rows of the set's areas in the period meeting filters / all rows of the set's areas * 100."""
    filt = _parse("x|" + filters)[2] if filters else {}
    s = sorted(_set(set))
    return _round(_hom_counts(period, filt).reindex(s).sum() / _hom_counts(period, {}).reindex(s).sum() * 100, "1")


def b37_area_ihs_summary(*, area=None, by=None, rank=1, order="desc", field="yoy"):
    """IHS 2025Q4 summary figure of an area's main submarket (area named, or the top area by `by`)."""
    n = _area_num(area) if area is not None else _top(by, rank, order, None)
    code = _main_sub(n)
    s = _ihs_sum()
    v = _sumval(s[s["Number"] == code][SUMF[field]].iloc[0])
    return _round(v, "int" if field == "price" else "1")
