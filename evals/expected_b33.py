"""blind33 expected answers -- self-contained pandas module (Chicago public data).

The conventions below are copied from CONVENTIONS.txt, followed by the blind33 additions.

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

Conventions added for blind33 (each question that relies on one states it in its wording)
--------------------------------------------------------------------------------------------
* Measure specs are strings ``name[:arg[:arg]][;filter=value...]``.  Homicide measures:
  ``hom:P`` (victims), ``rate:P`` (per 100,000 a year), ``dens:P`` (per sq mi, whole period),
  ``arr:P`` / ``dom:P`` (percent of rows flagged), ``share:P`` (percent of the city's rows,
  blank-CA rows in the city total), ``chg:P0:P1`` (victims P1 - victims P0), ``pctchg:P0:P1``
  ((P1 / P0 - 1) * 100, NaN where P0 had none), ``ratechg:P0:P1`` (rate P1 - rate P0).
  P = a year ``2021``, a year range ``2019-2022`` (inclusive) or one month ``2022-07``.
  Other measures: socioeconomic 2008-2012 (income, poverty, unemp, nohs, crowded, dep,
  hardship); ACS 2019-2023 (pop, hh, pct_black, pct_white, pct_nhwhite, pct_hisp, pct_asian,
  pct_kids, pct_young = 18-24, pct_65, pct_lt25k, pct_25_50k, pct_50_75k, pct_75_125k,
  pct_125k, pct_75k_plus); pop2010; popchg; popdens (ACS persons per sq mi); sqmi;
  ``zhvi:YYYY-MM``; ``zhvichg:YYYY-MM:YYYY-MM``; ``ihs:YEAR`` (the index of the area's main
  IHS submarket, NaN for the Loop-and-surrounding submarket that is not indexed).
  ``rate:P;pop=acs`` / ``rate:P;pop=2010`` force one population vintage for every year
  (used only to compute the "wrong reading" stand-ins).
* Sets of community areas: ``where`` = list of [measure, op, value] conditions (all must hold;
  value a number or 'city' / 'median' / 'mean'); ``quartile`` = [measure, q] with q = 1 the
  lowest and q = 4 the highest quarter; ``submarket``; ``areas`` (a list of names); then ``top``
  = [measure, n(, 'asc')] keeps the n highest (lowest) of what is left; ``exclude_top`` =
  [measure, n(, 'asc')] removes the city-wide top n.  Quartiles: areas with a value ranked
  ascending (ties by area number), rank r of n goes to quartile ceil(4 r / n) (77 areas ->
  19/19/19/20).
* "Below the median" is strictly below (the median area itself is in neither half).
* Means and medians of count measures are given to 1 decimal; sums, maxima and minima of
  counts as integers; money always as integers.  Rounding is half away from zero.
* "The rest" of a top-N set = every other community area (exclude_top).
* A police district's "own" homicides are rows whose District field is that district; its
  community area is still the one its station sits in.  A ward's office ZIP comes from
  ward_offices.csv ZIPCODE (ward 42 has none).
* ZIP-level home values are the ZIP's own ZHVI; a ZIP's community area = the area that
  covers most of the ZIP (share_of_zip).
* IHS index value for a quarter ``YYYYQn`` is that quarter's value; for a year the mean of
  its four quarters; a change between two periods = (later / earlier - 1) * 100.
* Redfin "Chicago, IL" year totals = sum of the monthly rows whose period end falls in the
  year (2012 has 11 months: Feb-Dec); a neighbourhood's figure for a month = the 90-day row
  whose period end falls in that month.
* Peak hour / weekday / month / location / district / ward / year: ties go to the smaller key.
  Weekday returned as its English name, month as its English name.
* "Average per year" over a period = victims / number of calendar years in the period (2023
  counted as a year only when asked).
* Percent "of" a subset (``b33_pct``): filters prefixed ``base_`` define the base; the other
  filters the part; e.g. base_dom=1, arr=1 -> percent of domestic homicides with an arrest.
"""

import os
import re
import math
import json
from functools import lru_cache

import numpy as np
import pandas as pd

_DEFAULT_DIR = "/work/shared/data"
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
CAS = list(range(1, 78))


def _p(name):
    return os.path.join(os.environ.get("CHIQA_DATA_DIR", _DEFAULT_DIR), name)


# ----------------------------------------------------------------------------- rounding
def _r(x, nd=1):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return float("nan")
    x = float(x)
    f = 10 ** nd
    v = math.floor(abs(x) * f + 0.5 + 1e-9) / f
    v = v if x >= 0 else -v
    if nd == 0:
        return int(v)
    return v


def _rk(x, kind, how=None):
    """Round by kind: counts and money as integers, the rest 1 decimal."""
    if kind == "money":
        return _r(x, 0)
    if kind == "count" and how not in ("mean", "median"):
        return _r(x, 0)
    return _r(x, 1)


# ----------------------------------------------------------------------------- loads
@lru_cache(None)
def _ca():
    c = pd.read_csv(_p("community_areas.csv"))
    def nice(s):
        if s == "OHARE":
            return "O'Hare"
        if s == "MCKINLEY PARK":
            return "McKinley Park"
        return s.title()
    c["name"] = c["community"].map(nice)
    return c.set_index("area_number")


def _name(ca):
    return str(_ca().loc[int(ca), "name"])


@lru_cache(None)
def _name_map():
    c = _ca()
    m = {}
    for n, row in c.iterrows():
        for s in (row["community"], row["name"], row["name_socioeconomic"]):
            m[re.sub(r"[^a-z]", "", str(s).lower())] = int(n)
    return m


def _canum(area):
    if isinstance(area, (int, np.integer)) or (isinstance(area, str) and area.isdigit()):
        return int(area)
    k = re.sub(r"[^a-z]", "", str(area).lower())
    return _name_map()[k]


@lru_cache(None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str,
                    usecols=["ID", "Date", "Location Description", "Arrest", "Domestic",
                             "District", "Ward", "Community Area"])
    dt = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    d = pd.DataFrame({
        "year": dt.dt.year.values, "month": dt.dt.month.values, "day": dt.dt.day.values,
        "wd": dt.dt.weekday.values, "hour": dt.dt.hour.values,
        "ca": pd.to_numeric(h["Community Area"], errors="coerce").values,
        "ward": pd.to_numeric(h["Ward"], errors="coerce").values,
        "dist": pd.to_numeric(h["District"], errors="coerce").values,
        "arr": (h["Arrest"].str.lower() == "true").values,
        "dom": (h["Domestic"].str.lower() == "true").values,
        "loc": h["Location Description"].fillna("").str.upper().values,
    })
    return d


@lru_cache(None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [c.strip() for c in s.columns]
    ren = {"PERCENT OF HOUSING CROWDED": "crowded", "PERCENT HOUSEHOLDS BELOW POVERTY": "poverty",
           "PERCENT AGED 16+ UNEMPLOYED": "unemp",
           "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA": "nohs",
           "PERCENT AGED UNDER 18 OR OVER 64": "dep", "PER CAPITA INCOME": "income",
           "HARDSHIP INDEX": "hardship"}
    s = s.rename(columns=ren)
    city = s[s["Community Area Number"].isna()].iloc[0]
    s = s[s["Community Area Number"].notna()].copy()
    s["ca"] = s["Community Area Number"].astype(int)
    return s.set_index("ca"), city


@lru_cache(None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    c = _ca()
    m = {v: k for k, v in c["community"].items()}
    a["ca"] = a["community_area"].map(m)
    a = a.set_index("ca").sort_index()
    return a


@lru_cache(None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float).reindex(CAS)


def _popyear(year):
    if year <= 2015:
        return _pop2010()
    return _acs()["total_population"].astype(float).reindex(CAS)


@lru_cache(None)
def _xwalk():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@lru_cache(None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: "%02d" % m)
    return z.pivot(index="RegionName", columns="ym", values="price")


@lru_cache(None)
def _zhvi_area(ym):
    z = _zhvi()
    if ym not in z.columns:
        raise ValueError("no ZHVI month %s" % ym)
    col = z[ym]
    x = _xwalk().copy()
    x["v"] = x["zip"].map(col)
    x = x[x["v"].notna()]
    g = x.groupby("area_number").apply(
        lambda d: (d["v"] * d["share_of_community_area"]).sum() / d["share_of_community_area"].sum(),
        include_groups=False)
    return g.reindex(CAS)


@lru_cache(None)
def _ihs_long():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@lru_cache(None)
def _ihs_xw():
    x = pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))
    x = x.sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    return x.drop_duplicates("area_number").set_index("area_number")


@lru_cache(None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    for c in s.columns[2:]:
        s[c] = s[c].astype(str).str.replace(r"[\s$,%]", "", regex=True).astype(float)
    return s


@lru_cache(None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"))
    s["ADDRESS"] = s["ADDRESS"].astype(str).str.strip()
    return s


@lru_cache(None)
def _wards():
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")
    return w.set_index("WARD")


@lru_cache(None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    pe = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["pe_ym"] = pe.dt.strftime("%Y-%m")
    r["pe_year"] = pe.dt.year

    def money(s):
        s = str(s).strip().replace("$", "").replace(",", "")
        if s in ("", "nan"):
            return float("nan")
        mult = 1.0
        if s.endswith("K"):
            mult, s = 1e3, s[:-1]
        elif s.endswith("M"):
            mult, s = 1e6, s[:-1]
        return float(s) * mult
    r["Median Sale Price"] = r["Median Sale Price"].map(money)
    return r


# ----------------------------------------------------------------------------- homicide filters
def _period(p):
    """-> (years list, month or None)."""
    s = str(p).strip()
    m = re.fullmatch(r"(\d{4})-(\d{2})", s)
    if m:
        return [int(m.group(1))], int(m.group(2))
    m = re.fullmatch(r"(\d{4})-(\d{4})", s)
    if m:
        return list(range(int(m.group(1)), int(m.group(2)) + 1)), None
    if re.fullmatch(r"\d{4}", s):
        return [int(s)], None
    raise ValueError("bad period %r" % p)


def _intlist(v, names=None, base=0):
    if v is None:
        return None
    if isinstance(v, (int, np.integer)):
        return [int(v)]
    if isinstance(v, (list, tuple)):
        out = []
        for x in v:
            out += _intlist(x, names, base)
        return out
    s = str(v).strip()
    if "," in s:
        return _intlist(s.split(","), names, base)
    if names is not None and not re.fullmatch(r"[\d-]+", s):
        low = [n.lower() for n in names]
        return [low.index(s.lower()) + base]
    m = re.fullmatch(r"(\d+)-(\d+)", s)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if a <= b:
            return list(range(a, b + 1))
        return list(range(a, 24)) + list(range(0, b + 1))  # wrap (hours)
    return [int(s)]


def _truthy(v):
    return str(v).strip().lower() in ("1", "true", "yes", "y")


def _hfilter(period=None, dom=None, arr=None, loc=None, months=None, wd=None, hours=None,
             md=None, area=None, district=None, ward=None):
    d = _hom()
    mask = np.ones(len(d), dtype=bool)
    if period is not None:
        yrs, mon = _period(period)
        mask &= d["year"].isin(yrs).values
        if mon is not None:
            mask &= (d["month"] == mon).values
    if dom is not None:
        mask &= d["dom"].values == _truthy(dom)
    if arr is not None:
        mask &= d["arr"].values == _truthy(arr)
    if loc is not None:
        locs = [x.strip().upper() for x in str(loc).split("/")]
        # "GAS STATION DRIVE/PROP." contains a slash: match whole string first
        if str(loc).strip().upper() in set(d["loc"]):
            locs = [str(loc).strip().upper()]
        mask &= d["loc"].isin(locs).values
    if months is not None:
        mask &= d["month"].isin(_intlist(months, MONTHS, 1)).values
    if wd is not None:
        mask &= d["wd"].isin(_intlist(wd, WEEKDAYS, 0)).values
    if hours is not None:
        mask &= d["hour"].isin(_intlist(hours)).values
    if md is not None:
        mm, dd = [int(x) for x in str(md).split("-")]
        mask &= ((d["month"] == mm) & (d["day"] == dd)).values
    if area is not None:
        mask &= (d["ca"] == _canum(area)).values
    if district is not None:
        mask &= (d["dist"] == int(district)).values
    if ward is not None:
        mask &= (d["ward"] == int(ward)).values
    return d[mask]


# ----------------------------------------------------------------------------- measures
class _M(object):
    def __init__(self, val, kind, pool=None, city=None):
        self.val = val.reindex(CAS).astype(float)
        self.kind = kind
        self._pool = pool
        self._city = city

    def pool(self, members):
        if self._pool is None:
            raise ValueError("no pooled form for this measure")
        return self._pool(list(members))

    def city(self):
        if self._city is None:
            raise ValueError("no city figure for this measure")
        return self._city() if callable(self._city) else self._city


def _parse(spec):
    parts = str(spec).split(";")
    head = parts[0].split(":")
    filt = {}
    for f in parts[1:]:
        if f.strip():
            k, v = f.split("=", 1)
            filt[k.strip()] = v.strip()
    return head[0].strip(), head[1:], filt


def _counts(period, filt):
    d = _hfilter(period=period, **filt)
    return d.groupby("ca").size().reindex(CAS, fill_value=0).astype(float), len(d)


def _popyears(period, src=None):
    yrs, mon = _period(period)
    if mon is not None:
        raise ValueError("rates need whole years")
    if src is None:
        return sum(_popyear(y) for y in yrs)
    base = _pop2010() if str(src) == "2010" else _popyear(2016)
    return base * len(yrs)


_SOCIO = {"income": "money", "poverty": "pct", "unemp": "pct", "nohs": "pct",
          "crowded": "pct", "dep": "pct", "hardship": "index"}

_ACS_GROUPS = {
    "pct_black": ["black_or_african_american"], "pct_white": ["white"],
    "pct_nhwhite": ["white_not_hispanic_or_latino"], "pct_hisp": ["hispanic_or_latino"],
    "pct_asian": ["asian"], "pct_kids": ["male_0_to_17", "female_0_to_17"],
    "pct_young": ["male_18_to_24", "female_18_to_24"], "pct_65": ["male_65", "female_65"],
}
_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
_ACS_HH = {"pct_lt25k": ["under_25_000"], "pct_25_50k": ["_25_000_to_49_999"],
           "pct_50_75k": ["_50_000_to_74_999"], "pct_75_125k": ["_75_000_to_125_000"],
           "pct_125k": ["_125_000"], "pct_75k_plus": ["_75_000_to_125_000", "_125_000"]}


def _ratio_measure(num, den, scale, kind, city_num=None, city_den=None):
    num = num.reindex(CAS).astype(float)
    den_s = den.reindex(CAS).astype(float) if isinstance(den, pd.Series) else den
    with np.errstate(divide="ignore", invalid="ignore"):
        val = num / den_s * scale
    if isinstance(den_s, pd.Series):
        val = val.where(den_s > 0)

    def pool(members):
        n = num.loc[members].sum()
        dd = den_s.loc[members].sum() if isinstance(den_s, pd.Series) else den_s
        return n / dd * scale if dd else float("nan")
    city = None
    if city_num is not None:
        city = (lambda: city_num / city_den * scale)
    return _M(val, kind, pool, city)


@lru_cache(None)
def _m(spec):
    name, args, filt = _parse(spec)
    sq = _ca()["area_sq_mi"].reindex(CAS).astype(float)
    if name == "hom":
        c, tot = _counts(args[0], filt)
        return _M(c, "count", lambda mem: c.loc[mem].sum(), tot)
    if name == "rate":
        src = filt.pop("pop", None)
        c, tot = _counts(args[0], filt)
        py = _popyears(args[0], src)
        return _ratio_measure(c, py, 1e5, "rate", tot, py.sum())
    if name == "dens":
        c, tot = _counts(args[0], filt)
        return _ratio_measure(c, sq, 1.0, "rate", tot, sq.sum())
    if name in ("arr", "dom"):
        c, tot = _counts(args[0], filt)
        f2 = dict(filt)
        f2[name] = 1
        k, ktot = _counts(args[0], f2)
        return _ratio_measure(k, c, 100.0, "pct", ktot, tot)
    if name == "share":
        c, tot = _counts(args[0], filt)
        return _ratio_measure(c, float(tot), 100.0, "pct", tot, tot)
    if name == "chg":
        c0, t0 = _counts(args[0], filt)
        c1, t1 = _counts(args[1], filt)
        v = c1 - c0
        return _M(v, "count", lambda mem: v.loc[mem].sum(), t1 - t0)
    if name == "pctchg":
        c0, t0 = _counts(args[0], filt)
        c1, t1 = _counts(args[1], filt)
        v = (c1 / c0.where(c0 > 0) - 1) * 100
        return _M(v, "pct", lambda mem: (c1.loc[mem].sum() / c0.loc[mem].sum() - 1) * 100,
                  (t1 / t0 - 1) * 100)
    if name == "ratechg":
        a = _m("rate:%s%s" % (args[0], _fs(filt)))
        b = _m("rate:%s%s" % (args[1], _fs(filt)))
        return _M(b.val - a.val, "rate", lambda mem: b.pool(mem) - a.pool(mem),
                  lambda: b.city() - a.city())
    return _m_area(name, args, sq, spec)


def _m_area(name, args, sq, spec):
    """The measures not counted from the homicide rows (split from _m to keep functions short)."""
    if name in _SOCIO:
        s, city = _socio()
        cv = city[name]
        cv = None if pd.isna(cv) else float(cv)
        return _M(s[name].astype(float), _SOCIO[name], None, cv)
    a = _acs()
    if name == "pop":
        v = a["total_population"].astype(float)
        return _M(v, "count", lambda mem: v.reindex(mem).sum(), v.sum())
    if name == "pop2010":
        v = _pop2010()
        return _M(v, "count", lambda mem: v.reindex(mem).sum(), v.sum())
    if name == "hh":
        v = a[_BANDS].astype(float).sum(axis=1)
        return _M(v, "count", lambda mem: v.reindex(mem).sum(), v.sum())
    if name == "popchg":
        p1 = a["total_population"].astype(float).reindex(CAS)
        p0 = _pop2010()
        return _ratio_measure(p1 - p0, p0, 100.0, "pct", (p1 - p0).sum(), p0.sum())
    if name == "popdens":
        p1 = a["total_population"].astype(float).reindex(CAS)
        return _ratio_measure(p1, sq, 1.0, "rate", p1.sum(), sq.sum())
    if name == "sqmi":
        return _M(sq, "rate", lambda mem: sq.loc[mem].sum(), sq.sum())
    if name in _ACS_GROUPS:
        n = a[_ACS_GROUPS[name]].astype(float).sum(axis=1).reindex(CAS)
        d = a["total_population"].astype(float).reindex(CAS)
        return _ratio_measure(n, d, 100.0, "pct", n.sum(), d.sum())
    if name in _ACS_HH:
        n = a[_ACS_HH[name]].astype(float).sum(axis=1).reindex(CAS)
        d = a[_BANDS].astype(float).sum(axis=1).reindex(CAS)
        return _ratio_measure(n, d, 100.0, "pct", n.sum(), d.sum())
    if name == "zhvi":
        return _M(_zhvi_area(args[0]), "money", None, None)
    if name == "zhvichg":
        v0, v1 = _zhvi_area(args[0]), _zhvi_area(args[1])
        return _M((v1 / v0 - 1) * 100, "pct", None, None)
    if name == "ihs":
        xw = _ihs_xw()
        vals = {}
        for ca in CAS:
            code = xw.loc[ca, "submarket_code"]
            vals[ca] = _ihs_value(code, args[0]) if xw.loc[ca, "in_price_index"] == 1 else float("nan")
        return _M(pd.Series(vals), "index", None, lambda: _ihs_value("CHICAGO", args[0]))
    raise ValueError("unknown measure %r" % spec)


def _fs(filt):
    return "".join(";%s=%s" % (k, v) for k, v in filt.items())


# ----------------------------------------------------------------------------- sets
def _threshold(spec, value):
    if isinstance(value, str):
        v = value.lower()
        M = _m(spec)
        if v == "city":
            return float(M.city())
        if v == "median":
            return float(M.val.dropna().median())
        if v == "mean":
            return float(M.val.dropna().mean())
        return float(value)
    return float(value)


def _cmp(series, op, thr):
    return {">": series > thr, "<": series < thr, ">=": series >= thr,
            "<=": series <= thr}[op]


def _ranked(spec, members, order="desc"):
    v = _m(spec).val.loc[list(members)].dropna()
    df = pd.DataFrame({"v": v.values, "ca": v.index})
    df = df.sort_values(["v", "ca"], ascending=[order == "asc", True])
    return [int(x) for x in df["ca"]]


def _quartile(spec, q):
    r = _ranked(spec, CAS, "asc")
    n = len(r)
    return [ca for i, ca in enumerate(r, start=1) if math.ceil(4.0 * i / n) == int(q)]


def _members(areas=None, where=None, top=None, exclude_top=None, quartile=None,
             submarket=None):
    mem = list(CAS)
    if areas is not None:
        want = set(_canum(a) for a in areas)
        mem = [m for m in mem if m in want]
    if submarket is not None:
        code = _sub_code(submarket)
        xw = _ihs_xw()
        mem = [m for m in mem if xw.loc[m, "submarket_code"] == code]
    if where is not None:
        conds = [where] if isinstance(where[0], str) else where
        for spec, op, value in conds:
            thr = _threshold(spec, value)
            v = _m(spec).val
            ok = _cmp(v, op, thr).fillna(False)
            mem = [m for m in mem if bool(ok.loc[m])]
    if quartile is not None:
        qs = set(_quartile(quartile[0], quartile[1]))
        mem = [m for m in mem if m in qs]
    if top is not None:
        order = top[2] if len(top) > 2 else "desc"
        mem = _ranked(top[0], mem, order)[: int(top[1])]
    if exclude_top is not None:
        order = exclude_top[2] if len(exclude_top) > 2 else "desc"
        drop = set(_ranked(exclude_top[0], CAS, order)[: int(exclude_top[1])])
        mem = [m for m in mem if m not in drop]
    return sorted(mem)


_SETKEYS = ("areas", "where", "top", "exclude_top", "quartile", "submarket")


def _stat(measure, how, mem):
    M = _m(measure)
    v = M.val.loc[mem].dropna() if mem else pd.Series(dtype=float)
    if how == "pooled":
        x = M.pool(mem)
    elif how == "sum":
        x = v.sum()
    elif how == "mean":
        x = v.mean()
    elif how == "median":
        x = v.median()
    elif how == "max":
        x = v.max()
    elif how == "min":
        x = v.min()
    elif how == "range":
        x = v.max() - v.min()
    elif how == "count":
        return int(len(v))
    elif how == "n":
        return int(len(mem))
    elif how == "city_share":
        name, args, filt = _parse(measure)
        return _r(_m("share:%s%s" % (args[0], _fs(filt))).pool(mem), 1)
    else:
        raise ValueError(how)
    return x


# ============================================================================= public API
def b33_value(area, measure):
    """One community area's value of a measure."""
    M = _m(measure)
    return _rk(M.val.loc[_canum(area)], M.kind)


def b33_city(measure):
    """City-wide figure of a measure (rate: all rows / city population)."""
    M = _m(measure)
    return _rk(M.city(), M.kind)


def b33_gap(area, measure):
    """Area value - city value (signed), unrounded difference then rounded."""
    M = _m(measure)
    return _rk(M.val.loc[_canum(area)] - M.city(), M.kind)


def b33_pick(measure, rank=1, order="desc", **setkw):
    """Name of the area at the given rank of a measure (within an optional set)."""
    mem = _members(**setkw)
    r = _ranked(measure, mem, order)
    return _name(r[int(rank) - 1])


def b33_pick_value(measure, rank=1, order="desc", then=None, **setkw):
    """Value of `then` (default: the ranked measure) for the area at the given rank."""
    mem = _members(**setkw)
    r = _ranked(measure, mem, order)
    ca = r[int(rank) - 1]
    M = _m(then or measure)
    return _rk(M.val.loc[ca], M.kind)


def b33_rank_of(area, measure, order="desc", **setkw):
    """Rank position (1 = highest unless order='asc') of an area."""
    mem = _members(**setkw)
    return _ranked(measure, mem, order).index(_canum(area)) + 1


def b33_set(measure, how="pooled", **setkw):
    """A statistic of a measure over a set of community areas."""
    mem = _members(**setkw)
    x = _stat(measure, how, mem)
    if how in ("count", "n", "city_share"):
        return x
    return _rk(x, _m(measure).kind, how)


def b33_set_ratio(measure, how="pooled", **kw):
    """stat(set A) / stat(set B); set A keys prefixed a_, set B keys prefixed b_."""
    a = {k[2:]: v for k, v in kw.items() if k.startswith("a_")}
    b = {k[2:]: v for k, v in kw.items() if k.startswith("b_")}
    xa = _stat(measure, how, _members(**a))
    xb = _stat(measure, how, _members(**b))
    return _r(xa / xb, 1)


def b33_set_diff(measure, how="pooled", **kw):
    """stat(set A) - stat(set B); keys prefixed a_ / b_."""
    a = {k[2:]: v for k, v in kw.items() if k.startswith("a_")}
    b = {k[2:]: v for k, v in kw.items() if k.startswith("b_")}
    xa = _stat(measure, how, _members(**a))
    xb = _stat(measure, how, _members(**b))
    return _rk(xa - xb, _m(measure).kind, how)


def b33_corr(m1, m2, method="pearson", **setkw):
    """Correlation across areas with both values present."""
    mem = _members(**setkw)
    a = _m(m1).val.loc[mem]
    b = _m(m2).val.loc[mem]
    ok = a.notna() & b.notna()
    a, b = a[ok], b[ok]
    if method == "spearman":
        a, b = a.rank(), b.rank()
    return _r(float(np.corrcoef(a.values, b.values)[0, 1]), 2)


# ----------------------------------------------------------------------------- homicide rows
_FKEYS = ("dom", "arr", "loc", "months", "wd", "hours", "md", "area", "district", "ward")


def b33_count(period, **filters):
    """Homicide victims in a period (city-wide unless area/district/ward given)."""
    return int(len(_hfilter(period=period, **filters)))


def b33_per_year(period, **filters):
    """Average victims per calendar year over a period."""
    yrs, _ = _period(period)
    return _r(len(_hfilter(period=period, **filters)) / float(len(yrs)), 1)


def b33_pct(period, **filters):
    """Percent of base rows (base_* filters) meeting the other filters."""
    base = {k[5:]: v for k, v in filters.items() if k.startswith("base_")}
    part = dict(base)
    part.update({k: v for k, v in filters.items() if not k.startswith("base_")})
    nb = len(_hfilter(period=period, **base))
    npart = len(_hfilter(period=period, **part))
    return _r(npart * 100.0 / nb, 1)


def b33_pct_change(p0, p1, **filters):
    """(victims p1 / victims p0 - 1) * 100; neg=1 returns a fall as a positive number."""
    neg = filters.pop("neg", 0)
    a = len(_hfilter(period=p0, **filters))
    b = len(_hfilter(period=p1, **filters))
    x = (b / float(a) - 1) * 100
    return _r(-x if neg else x, 1)


def b33_peak(period, by="hour", rank=1, value=0, **filters):
    """Peak (rank-th) key of homicide rows by hour/weekday/month/loc/year/district/ward/area.
    value=1 returns the row count of that key instead of the label."""
    d = _hfilter(period=period, **filters)
    col = {"hour": "hour", "weekday": "wd", "month": "month", "loc": "loc", "year": "year",
           "district": "dist", "ward": "ward", "area": "ca"}[by]
    g = d.groupby(col).size().reset_index(name="n")
    g = g[g[col].notna()] if by in ("district", "ward", "area") else g
    g = g.sort_values(["n", col], ascending=[False, True])
    row = g.iloc[int(rank) - 1]
    if int(value):
        return int(row["n"])
    k = row[col]
    if by == "weekday":
        return WEEKDAYS[int(k)]
    if by == "month":
        return MONTHS[int(k) - 1]
    if by == "loc":
        return str(k)
    if by == "area":
        return _name(int(k))
    return int(k)


# ----------------------------------------------------------------------------- districts, wards
def b33_station(district, field="area"):
    """Police station facts: area (community area name), name, zip, address."""
    s = _stations()
    row = s[s["DISTRICT"].astype(str) == str(district)].iloc[0]
    if field == "area":
        return _name(int(row["COMMUNITY AREA"]))
    if field == "name":
        return str(row["DISTRICT NAME"])
    if field == "zip":
        return int(row["ZIP"])
    if field == "address":
        return str(row["ADDRESS"])
    raise ValueError(field)


def b33_station_count(area=None):
    """Number of district stations (Headquarters excluded), optionally in one area."""
    s = _stations()
    s = s[s["DISTRICT"].astype(str).str.isdigit()]
    if area is not None:
        s = s[s["COMMUNITY AREA"].astype(int) == _canum(area)]
    return int(len(s))


def b33_district_chain(period, rank=1, then="income", **filters):
    """The district ranked by its own homicide rows -> the value of `then` for the community
    area its station sits in."""
    d = int(b33_peak(period, by="district", rank=rank, **filters))
    s = _stations()
    row = s[s["DISTRICT"].astype(str) == str(d)].iloc[0]
    M = _m(then)
    return _rk(M.val.loc[int(row["COMMUNITY AREA"])], M.kind)


def b33_alder(ward):
    """Alderperson surname of a ward (ward_offices.csv)."""
    return str(_wards().loc[int(ward), "ALDERMAN"]).split(",")[0].strip()


def b33_ward_zip(ward):
    return int(_wards().loc[int(ward), "ZIPCODE"])


# ----------------------------------------------------------------------------- ZIP / ZHVI
def _zip_measure(measure):
    name, args, _ = _parse(measure)
    z = _zhvi()
    if name == "zhvi":
        return z[args[0]]
    if name == "zhvichg":
        return (z[args[1]] / z[args[0]] - 1) * 100
    raise ValueError(measure)


def b33_zip_value(zip, measure):
    name = _parse(measure)[0]
    v = _zip_measure(measure).loc[int(zip)]
    return _r(v, 0) if name == "zhvi" else _r(v, 1)


def b33_zip_pick(measure, rank=1, order="desc"):
    v = _zip_measure(measure).dropna()
    df = pd.DataFrame({"v": v.values, "z": v.index}).sort_values(
        ["v", "z"], ascending=[order == "asc", True])
    return int(df["z"].iloc[int(rank) - 1])


def b33_zip_area(zip):
    """Community area covering most of a ZIP (share_of_zip)."""
    x = _xwalk()
    x = x[x["zip"] == int(zip)].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return _name(int(x["area_number"].iloc[0]))


def b33_area_zip(area):
    """The ZIP an area mostly lies in (share_of_community_area)."""
    x = _xwalk()
    x = x[x["area_number"] == _canum(area)].sort_values(
        ["share_of_community_area", "zip"], ascending=[False, True])
    return int(x["zip"].iloc[0])


def b33_zip_chain(measure, rank=1, order="desc", then="hom:2022"):
    """ZIP ranked by a ZHVI measure -> community area covering most of it -> `then`."""
    z = b33_zip_pick(measure, rank, order)
    return b33_value(b33_zip_area(z), then)


def b33_zip_count(measure, op, value):
    """Number of ZIPs whose ZHVI measure meets a numeric threshold."""
    v = _zip_measure(measure).dropna()
    return int(_cmp(v, op, float(value)).sum())


# ----------------------------------------------------------------------------- IHS
def _sub_code(sub):
    s = str(sub).strip()
    l = _ihs_long()
    names = l.drop_duplicates("submarket_code").set_index("submarket_code")["submarket_name"]
    if s in names.index:
        return s
    if s.upper() in ("CHICAGO", "COOK", "SUBURBS"):
        return s.upper()
    key = s.lower().replace("chicago--", "")
    for code, nm in names.items():
        if nm.lower().replace("chicago--", "") == key:
            return code
    for code, nm in names.items():
        if key in nm.lower():
            return code
    raise KeyError(sub)


def _ihs_value(code, period):
    l = _ihs_long()
    l = l[l["submarket_code"] == code]
    s = str(period)
    if "Q" in s.upper():
        return float(l[l["yearq"] == s.upper()]["index_2000q1_100"].iloc[0])
    v = l[l["year"] == int(s)]["index_2000q1_100"]
    if len(v) != 4:
        raise ValueError("year not complete")
    return float(v.mean())


def b33_ihs(submarket, period):
    return _r(_ihs_value(_sub_code(submarket), period), 1)


def b33_ihs_chg(submarket, p0, p1):
    c = _sub_code(submarket)
    return _r((_ihs_value(c, p1) / _ihs_value(c, p0) - 1) * 100, 1)


_SUMF = {"since2000": "Change Since 2000", "peak": "Change Peak to Current",
         "bottom": "Change Bottom to Current", "covid": "COVID-19 Pandemic Start to Current",
         "yoy": "Year-over-year change", "price": "Median Sales Price"}


def b33_ihs_summary(submarket, field):
    s = _ihs_summary()
    row = s[s["Number"] == _sub_code(submarket)].iloc[0]
    v = row[_SUMF[field]]
    return _r(v, 0) if field == "price" else _r(v, 1)


def b33_ihs_summary_pick(field, rank=1, order="desc", chicago=1):
    s = _ihs_summary()
    if int(chicago):
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s = s.sort_values([_SUMF[field], "Number"], ascending=[order == "asc", True])
    return str(s["Sub Market"].iloc[int(rank) - 1])


def b33_area_submarket(area):
    return str(_ihs_xw().loc[_canum(area), "submarket_name_2023"])


def b33_area_ihs_summary(area, field):
    """IHS summary figure of the area's main submarket."""
    return b33_ihs_summary(_ihs_xw().loc[_canum(area), "submarket_code"], field)


def b33_pick_ihs_summary(measure, field, rank=1, order="desc", **setkw):
    """Area ranked by a measure -> its main IHS submarket's summary figure."""
    mem = _members(**setkw)
    ca = _ranked(measure, mem, order)[int(rank) - 1]
    return b33_ihs_summary(_ihs_xw().loc[ca, "submarket_code"], field)


def b33_pick_submarket(measure, rank=1, order="desc", **setkw):
    mem = _members(**setkw)
    ca = _ranked(measure, mem, order)[int(rank) - 1]
    return str(_ihs_xw().loc[ca, "submarket_name_2023"])


# ----------------------------------------------------------------------------- Redfin
def b33_redfin(region, field, month):
    """A Redfin figure for a region ('Logan Square' or 'Chicago, IL') for the row whose
    period end falls in month YYYY-MM."""
    r = _redfin()
    reg = region if region.startswith("Chicago, IL") else "Chicago, IL - " + region
    x = r[(r["Region"] == reg) & (r["pe_ym"] == month)]
    if reg == "Chicago, IL":
        x = x[x["Period Duration"] == 30]
    v = float(x[field].iloc[0])
    if field in ("Median Sale Price", "Median List Price", "Homes Sold", "Inventory",
                 "New Listings"):
        return _r(v, 0)
    return _r(v, 1)


def b33_redfin_city_year(field, year, how="sum"):
    r = _redfin()
    x = r[(r["Region"] == "Chicago, IL") & (r["pe_year"] == int(year))]
    v = x[field].astype(float)
    val = {"sum": v.sum(), "median": v.median(), "mean": v.mean(), "max": v.max(),
           "min": v.min()}[how]
    if field in ("Homes Sold", "New Listings", "Median Sale Price") and how in ("sum", "max", "min"):
        return _r(val, 0)
    if field == "Median Sale Price":
        return _r(val, 0)
    return _r(val, 1)


def b33_redfin_city_peak_month(field, year):
    """Month (name) of the year with the highest monthly city figure."""
    r = _redfin()
    x = r[(r["Region"] == "Chicago, IL") & (r["pe_year"] == int(year))].copy()
    x["m"] = x["pe_ym"].str[5:].astype(int)
    x = x.sort_values([field, "m"], ascending=[False, True])
    return MONTHS[int(x["m"].iloc[0]) - 1]


def b33_ward_chain(period, rank=1, then="zhvi:2022-12", **filters):
    """Ward ranked by its homicide rows -> its office ZIP -> that ZIP's ZHVI measure."""
    w = b33_peak(period, by="ward", rank=rank, **filters)
    return b33_zip_value(b33_ward_zip(w), then)


def b33_pick_zip(measure, rank=1, order="desc", **setkw):
    """Area ranked by a measure -> the ZIP it mostly lies in."""
    mem = _members(**setkw)
    ca = _ranked(measure, mem, order)[int(rank) - 1]
    return b33_area_zip(ca)


def b33_pick_zip_value(measure, zmeasure, rank=1, order="desc", **setkw):
    """Area ranked by a measure -> the ZIP it mostly lies in -> that ZIP's ZHVI measure."""
    return b33_zip_value(b33_pick_zip(measure, rank, order, **setkw), zmeasure)


def b33_district_station(period, rank=1, field="area", **filters):
    """District ranked by its own homicide rows -> a fact about its station."""
    return b33_station(b33_peak(period, by="district", rank=rank, **filters), field)


def b33_station_value(district, measure):
    """The value of a measure for the community area a district's station sits in."""
    s = _stations()
    row = s[s["DISTRICT"].astype(str) == str(district)].iloc[0]
    M = _m(measure)
    return _rk(M.val.loc[int(row["COMMUNITY AREA"])], M.kind)


def b33_area_station(area):
    """District number whose station sits in the area (first by district number)."""
    s = _stations()
    s = s[s["DISTRICT"].astype(str).str.isdigit()]
    s = s[s["COMMUNITY AREA"].astype(int) == _canum(area)]
    return int(sorted(s["DISTRICT"].astype(int))[0])


def b33_zip_pick_area(measure, rank=1, order="desc"):
    """ZIP ranked by a ZHVI measure -> the community area covering most of it."""
    return b33_zip_area(b33_zip_pick(measure, rank, order))


def b33_ward_pick_alder(period, rank=1, **filters):
    """Ward ranked by its homicide rows -> its alderperson's surname."""
    return b33_alder(b33_peak(period, by="ward", rank=rank, **filters))


def b33_count_in_set(cond, pct=0, **setkw):
    """Among the areas of a set, how many meet cond = [measure, op, value] (threshold
    computed over all areas); pct=1 returns the percent of the set's areas."""
    mem = _members(**setkw)
    spec, op, value = cond
    thr = _threshold(spec, value)
    ok = _cmp(_m(spec).val.loc[mem], op, thr).fillna(False)
    k = int(ok.sum())
    return _r(k * 100.0 / len(mem), 1) if int(pct) else k


def b33_ihs_summary_pick_value(field, then=None, rank=1, order="desc", chicago=1):
    """Submarket ranked by a summary field -> its value of `then` (default the field)."""
    name = b33_ihs_summary_pick(field, rank, order, chicago)
    s = _ihs_summary()
    code = s[s["Sub Market"] == name]["Number"].iloc[0]
    return b33_ihs_summary(code, then or field)
