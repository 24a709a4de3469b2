"""Expected answers for the blind34 held-out question set (Chicago public data).

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

Conventions added for blind34
-----------------------------
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
  July 19, ZHVI to Sept 2024, ward counts without ward populations) ``expect`` holds that part."""
import os, re, math, json
from functools import lru_cache
import numpy as np
import pandas as pd

DATA = os.environ.get("CHIQA_DATA_DIR", "/work/shared/data")


def _p(name):
    return os.path.join(DATA, name)


# ----------------------------------------------------------------- loads
@lru_cache(maxsize=None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "date": d, "year": d.dt.year, "month": d.dt.month, "wd": d.dt.weekday, "hour": d.dt.hour,
        "md": d.dt.strftime("%m-%d"),
        "ca": pd.to_numeric(h["Community Area"], errors="coerce"),
        "ward": pd.to_numeric(h["Ward"], errors="coerce"),
        "dist": pd.to_numeric(h["District"], errors="coerce"),
        "arr": h["Arrest"].str.lower().eq("true"), "dom": h["Domestic"].str.lower().eq("true"),
        "loc": h["Location Description"].fillna("").str.upper(),
    })
    out.loc[out.ca == 0, "ca"] = np.nan
    return out


@lru_cache(maxsize=None)
def _ca():
    c = pd.read_csv(_p("community_areas.csv"))
    c = c.set_index("area_number")
    return c


def _title(s):
    t = s.title().replace("Ohare", "O'Hare").replace("Mckinley", "McKinley")
    return t


def _name(n):
    return _title(_ca().loc[int(n), "community"])


def _num(name):
    key = re.sub(r"[^a-z]", "", str(name).lower())
    for n, r in _ca().iterrows():
        if re.sub(r"[^a-z]", "", r["community"].lower()) == key:
            return int(n)
    raise KeyError(name)


@lru_cache(maxsize=None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [c.strip() for c in s.columns]
    city = s[s["Community Area Number"].isna()].iloc[0]
    s = s.dropna(subset=["Community Area Number"]).copy()
    s["n"] = s["Community Area Number"].astype(int)
    return s.set_index("n"), city


@lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    m = {r["community"]: n for n, r in _ca().iterrows()}
    a["n"] = a["community_area"].map(m)
    return a.set_index("n").sort_index()


@lru_cache(maxsize=None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


@lru_cache(maxsize=None)
def _zx():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].astype(int).map("{:02d}".format)
    return z


@lru_cache(maxsize=None)
def _zhvi_month(ym):
    z = _zhvi()
    return z[z.ym == ym].dropna(subset=["price"]).set_index("RegionName")["price"]


@lru_cache(maxsize=None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"))
    return s


@lru_cache(maxsize=None)
def _wards():
    return pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")


@lru_cache(maxsize=None)
def _ihs():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@lru_cache(maxsize=None)
def _ihs_sum():
    return pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))


@lru_cache(maxsize=None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")

    def conv(v):
        if not isinstance(v, str):
            return np.nan
        v = v.replace("$", "").replace(",", "").strip()
        mult = 1
        if v.endswith("K"):
            mult, v = 1e3, v[:-1]
        elif v.endswith("M"):
            mult, v = 1e6, v[:-1]
        return float(v) * mult
    r["sale"] = r["Median Sale Price"].map(conv)
    return r


# ----------------------------------------------------------------- homicide filtering
def _years(period):
    if period is None or period == "":
        return None
    a = str(period).split("-")
    y0 = int(a[0]); y1 = int(a[-1])
    return list(range(y0, y1 + 1))


def _hours(spec):
    a, b = [int(x) for x in spec.split("-")]
    if a <= b:
        return list(range(a, b + 1))
    return list(range(a, 24)) + list(range(0, b + 1))


def _filter(df, filters):
    for k, v in filters.items():
        if k == "dom":
            df = df[df.dom == bool(int(v))]
        elif k == "arr":
            df = df[df.arr == bool(int(v))]
        elif k == "loc":
            df = df[df["loc"].isin([x.strip().upper() for x in v.split("/")])]
        elif k == "months":
            df = df[df.month.isin([int(x) for x in v.split(",")])]
        elif k == "wd":
            df = df[df.wd.isin([int(x) for x in v.split(",")])]
        elif k == "hours":
            df = df[df.hour.isin(_hours(v))]
        elif k == "md":
            df = df[df.md.isin(v.split(","))]
        else:
            raise ValueError(k)
    return df


def _homs(years=None, filters=None):
    df = _hom()
    if years is not None:
        df = df[df.year.isin(years)]
    return _filter(df, filters or {})


def _popyear(y):
    return _pop2010() if y <= 2015 else _acs()["total_population"].astype(float)


def _popsum(years):
    tot = None
    for y in years:
        s = _popyear(y)
        tot = s if tot is None else tot + s
    return tot


# ----------------------------------------------------------------- measures
SOCIO = {"pci": "PER CAPITA INCOME", "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
         "unemp": "PERCENT AGED 16+ UNEMPLOYED", "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
         "crowded": "PERCENT OF HOUSING CROWDED", "dep": "PERCENT AGED UNDER 18 OR OVER 64",
         "hardship": "HARDSHIP INDEX"}
INCB = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
ACSSH = {"black": ["black_or_african_american"], "hisp": ["hispanic_or_latino"], "white": ["white"],
         "whitenh": ["white_not_hispanic_or_latino"], "asian": ["asian"],
         "sr65": ["male_65", "female_65"], "kids": ["male_0_to_17", "female_0_to_17"]}
INCSH = {"inclt25": ["under_25_000"], "inc125": ["_125_000"], "inclt50": ["under_25_000", "_25_000_to_49_999"]}
INTS = {"hom", "homchg", "pci", "pop", "pop2010", "zhvi", "hardship", "popdiff"}
IDX = pd.Index(range(1, 78))


def _parse(spec):
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


def _nd(spec):
    """numerator, denominator (Series over CA 1..77), scale; value = num/den*scale."""
    name, period, filt = _parse(spec)
    one = pd.Series(1.0, index=IDX)
    if name in ("hom", "rate", "density", "arrshare", "domshare"):
        yrs = _years(period)
        df = _homs(yrs, filt)
        cnt = df.dropna(subset=["ca"]).groupby("ca").size().reindex(IDX, fill_value=0).astype(float)
        if name == "hom":
            return cnt, one, 1.0
        if name == "rate":
            return cnt, _popsum(yrs).reindex(IDX), 1e5
        if name == "density":
            return cnt, _ca()["area_sq_mi"].reindex(IDX).astype(float), 1.0
        flag = "arr" if name == "arrshare" else "dom"
        f = df[df[flag]].dropna(subset=["ca"]).groupby("ca").size().reindex(IDX, fill_value=0).astype(float)
        return f, cnt, 100.0
    if name == "homchg":
        a, b = period.split(":")
        c0 = _nd("hom@" + a + ("|" + "|".join(f"{k}={v}" for k, v in filt.items()) if filt else ""))[0]
        c1 = _nd("hom@" + b + ("|" + "|".join(f"{k}={v}" for k, v in filt.items()) if filt else ""))[0]
        return c1 - c0, one, 1.0
    if name == "ratechg":
        a, b = period.split(":")
        return _val("rate@" + b) - _val("rate@" + a), one, 1.0
    if name in SOCIO:
        s, _ = _socio()
        return s[SOCIO[name]].reindex(IDX).astype(float), one, 1.0
    a = _acs()
    if name == "pop":
        return a["total_population"].reindex(IDX).astype(float), one, 1.0
    if name == "pop2010":
        return _pop2010().reindex(IDX), one, 1.0
    if name == "popchg":
        p0 = _pop2010().reindex(IDX)
        return a["total_population"].reindex(IDX).astype(float) - p0, p0, 100.0
    if name in ACSSH:
        return a[ACSSH[name]].sum(axis=1).reindex(IDX).astype(float), a["total_population"].reindex(IDX).astype(float), 100.0
    if name in INCSH:
        return a[INCSH[name]].sum(axis=1).reindex(IDX).astype(float), a[INCB].sum(axis=1).reindex(IDX).astype(float), 100.0
    if name == "zhvi":
        return _zhvi_ca(period), one, 1.0
    if name == "zhvichg":
        a0, b0 = period.split(":")
        v0, v1 = _zhvi_ca(a0), _zhvi_ca(b0)
        return (v1 / v0 - 1) * 100, one, 1.0
    raise ValueError(spec)


@lru_cache(maxsize=None)
def _zhvi_ca(ym):
    x = _zx()
    pr = _zhvi_month(ym)
    x = x.copy()
    x["p"] = x["zip"].map(pr)
    x = x.dropna(subset=["p"])
    g = x.groupby("area_number").apply(lambda d: (d.p * d.share_of_community_area).sum() / d.share_of_community_area.sum(), include_groups=False)
    return g.reindex(IDX)


def _val(spec):
    n, d, s = _nd(spec)
    v = n / d * s
    return v.replace([np.inf, -np.inf], np.nan)


def _city(spec):
    name, period, filt = _parse(spec)
    if name in SOCIO:
        _, c = _socio()
        return float(c[SOCIO[name]])
    if name in ("hom", "rate", "arrshare", "domshare", "density"):
        yrs = _years(period)
        df = _homs(yrs, filt)
        if name == "hom":
            return float(len(df))
        if name == "rate":
            return len(df) / _popsum(yrs).sum() * 1e5
        if name == "density":
            return len(df) / _ca()["area_sq_mi"].sum()
        flag = "arr" if name == "arrshare" else "dom"
        return df[flag].sum() / len(df) * 100
    if name == "ratechg":
        a, b = period.split(":")
        return _city("rate@" + b) - _city("rate@" + a)
    n, d, s = _nd(spec)
    ok = n.notna() & d.notna()
    return n[ok].sum() / d[ok].sum() * s


def _rnd(spec, v, kind=None):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return float("nan")
    name = _parse(spec)[0] if spec else ""
    if kind == "int" or (kind is None and name in INTS):
        return int(round(float(v)))
    if kind == "corr":
        return round(float(v), 2)
    return round(float(v), 1)


# ----------------------------------------------------------------- sets
def _thr(spec, thr):
    v = _val(spec).dropna()
    if thr == "city":
        return _city(spec)
    if thr == "median":
        return float(v.median())
    if thr == "mean":
        return float(v.mean())
    return float(thr)


def _rank(spec, order="desc"):
    v = _val(spec).dropna()
    df = pd.DataFrame({"v": v, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[order != "desc", True])
    return list(df.n)


def _cond(c):
    if c == "all":
        return set(IDX)
    if c.startswith("not:"):
        return set(IDX) - _cond(c[4:])
    kind, rest = c.split(":", 1)
    if kind in ("top", "bottom"):
        n, spec = rest.split(":", 1)
        return set(_rank(spec, "desc" if kind == "top" else "asc")[: int(n)])
    if kind in ("gt", "lt", "ge", "le"):
        spec, thr = rest.rsplit(":", 1)
        v = _val(spec).dropna()
        t = _thr(spec, thr)
        m = {"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}[kind]
        return set(v[m].index)
    if kind == "q":
        k, i, spec = rest.split(":", 2)
        v = _val(spec).dropna()
        r = v.rank(method="first")
        q = pd.qcut(r, int(k), labels=False) + 1
        return set(q[q == int(i)].index)
    if kind == "area":
        return {_num(x) for x in rest.split("/")}
    if kind == "dist":
        s = _stations()
        return {int(s[s.DISTRICT == rest]["COMMUNITY AREA"].iloc[0])}
    raise ValueError(c)


def _set(conds):
    if isinstance(conds, str):
        conds = [conds]
    s = set(IDX)
    for c in conds:
        s &= _cond(c)
    return sorted(s)


def _stat(members, spec, how):
    n, d, sc = _nd(spec)
    v = (n / d * sc).reindex(members)
    if how == "pooled":
        ok = n.reindex(members).notna() & d.reindex(members).notna()
        mm = [m for m in members if ok[m]]
        return n.reindex(mm).sum() / d.reindex(mm).sum() * sc
    if how == "sum":
        return v.sum()
    vv = v.dropna()
    if how == "mean":
        return vv.mean()
    if how == "median":
        return vv.median()
    if how == "max":
        return vv.max()
    if how == "min":
        return vv.min()
    if how == "count":
        return len(vv)
    if how == "range":
        return vv.max() - vv.min()
    if how == "city_share":
        return n.reindex(members).sum() / _city(spec) * 100
    raise ValueError(how)


# ----------------------------------------------------------------- public functions
def b34_area_value(*, area, measure, kind=None):
    """Value of a measure for one named community area."""
    return _rnd(measure, _val(measure)[_num(area)], kind)


def b34_city_value(*, measure, kind=None):
    return _rnd(measure, _city(measure), kind)


def b34_rank_area(*, measure, rank=1, order="desc", within=None):
    """Name of the area ranked `rank` by measure (optionally within a set)."""
    r = _rank(measure, order)
    if within is not None:
        s = set(_set(within))
        r = [x for x in r if x in s]
    return _name(r[rank - 1])


def b34_chain(*, measure, then, rank=1, order="desc", within=None, kind=None):
    """The area ranked `rank` by `measure`, then its value of `then`."""
    a = b34_rank_area(measure=measure, rank=rank, order=order, within=within)
    return b34_area_value(area=a, measure=then, kind=kind)


def b34_set_stat(*, sel, measure, how="pooled", kind=None):
    m = _set(sel)
    v = _stat(m, measure, how)
    if how == "count":
        return int(v)
    if how == "city_share":
        return round(float(v), 1)
    if how in ("pooled", "mean", "median", "range") and kind is None and _parse(measure)[0] in INTS and how != "pooled":
        return _rnd(measure, v)
    return _rnd(measure, v, kind)


def b34_set_size(*, sel):
    return len(_set(sel))


def b34_set_pct(*, sel, of="all"):
    """Percent of the areas in set `of` that are also in set `sel`."""
    base = _set(of)
    s = set(_set(sel)) & set(base)
    return round(len(s) / len(base) * 100, 1)


def b34_set_compare(*, sel_a, sel_b, measure, how="pooled", op="ratio", kind=None):
    a = _stat(_set(sel_a), measure, how)
    b = _stat(_set(sel_b), measure, how)
    if op == "ratio":
        return round(float(a / b), 1)
    return _rnd(measure, a - b, kind)


def b34_corr(*, m1, m2, method="pearson"):
    a, b = _val(m1), _val(m2)
    ok = a.notna() & b.notna()
    a, b = a[ok], b[ok]
    if method == "spearman":
        a, b = a.rank(), b.rank()
    return round(float(np.corrcoef(a, b)[0, 1]), 2)


def b34_set_names(*, sel, measure=None, order="desc"):
    """Areas of a set as a '; '-joined label (ranked by measure if given)."""
    m = _set(sel)
    if measure:
        r = [x for x in _rank(measure, order) if x in m]
    else:
        r = m
    return "; ".join(_name(x) for x in r)


def b34_area_zip(*, area):
    x = _zx()
    x = x[x.area_number == _num(area)].sort_values("share_of_community_area", ascending=False)
    return str(int(x.iloc[0]["zip"]))


def b34_zip_zhvi(*, zip, ym):
    return int(round(float(_zhvi_month(ym)[int(zip)])))


def b34_zip_zhvi_chg(*, zip, ym0, ym1):
    a, b = _zhvi_month(ym0)[int(zip)], _zhvi_month(ym1)[int(zip)]
    return round(float((b / a - 1) * 100), 1)


def b34_chain_zip_zhvi(*, measure, ym, rank=1, order="desc"):
    a = b34_rank_area(measure=measure, rank=rank, order=order)
    return b34_zip_zhvi(zip=b34_area_zip(area=a), ym=ym)


def b34_chain_zip(*, measure, rank=1, order="desc"):
    return b34_area_zip(area=b34_rank_area(measure=measure, rank=rank, order=order))


def b34_zip_rank(*, ym, rank=1, order="desc", ym0=None):
    """ZIP ranked by ZHVI in ym (or by % change ym0->ym)."""
    v = _zhvi_month(ym)
    if ym0:
        v = (v / _zhvi_month(ym0) - 1).dropna()
    v = v.sort_values(ascending=(order != "desc"))
    return str(int(v.index[rank - 1]))


# homicides (single-domain)
def b34_hom_count(*, years=None, filters=None, area=None, ward=None, district=None):
    df = _homs(_years(years), filters or {})
    if area:
        df = df[df.ca == _num(area)]
    if ward is not None:
        df = df[df.ward == int(ward)]
    if district is not None:
        df = df[df.dist == int(district)]
    return int(len(df))


def b34_hom_share(*, years=None, filters=None, base_filters=None, area=None):
    """Percent of homicides (base filters) that meet `filters`."""
    df = _homs(_years(years), base_filters or {})
    if area:
        df = df[df.ca == _num(area)]
    return round(len(_filter(df, filters)) / len(df) * 100, 1)


def b34_hom_peak(*, by, years=None, filters=None, area=None, rank=1):
    df = _homs(_years(years), filters or {})
    if area:
        df = df[df.ca == _num(area)]
    if by == "loc":
        vc = df["loc"].value_counts()
        return str(vc.index[rank - 1])
    vc = df.groupby(by).size()
    vc = vc.sort_index().sort_values(ascending=False, kind="stable")
    k = int(vc.index[rank - 1])
    if by == "month":
        return ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                "October", "November", "December"][k - 1]
    if by == "wd":
        return ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][k]
    return k


def b34_hom_pct_change(*, y0, y1, filters=None):
    a = len(_homs([y0], filters or {}))
    b = len(_homs([y1], filters or {}))
    return round((b / a - 1) * 100, 1)


def b34_top_group(*, by, years=None, rank=1, filters=None):
    """Ward or district with the most homicides (by='ward'|'dist')."""
    df = _homs(_years(years), filters or {}).dropna(subset=[by])
    vc = df.groupby(by).size().sort_index().sort_values(ascending=False, kind="stable")
    return int(vc.index[rank - 1])


def b34_group_count(*, by, years=None, rank=1, filters=None):
    df = _homs(_years(years), filters or {}).dropna(subset=[by])
    vc = df.groupby(by).size().sort_index().sort_values(ascending=False, kind="stable")
    return int(vc.iloc[rank - 1])


def b34_alder(*, ward):
    w = _wards()
    a = w[w.WARD == int(ward)]["ALDERMAN"].iloc[0]
    return a.split(",")[0].strip()


def b34_top_ward_alder(*, years=None, rank=1, filters=None):
    return b34_alder(ward=b34_top_group(by="ward", years=years, rank=rank, filters=filters))


def b34_station(*, district, field="ADDRESS"):
    s = _stations()
    r = s[s.DISTRICT == str(district)].iloc[0]
    v = r[field]
    return int(v) if field in ("COMMUNITY AREA", "ZIP") else str(v)


def b34_district_station_area_value(*, years=None, rank=1, measure="pci", filters=None, kind=None):
    """Busiest police district (by homicides), then the community area its station sits in -> measure."""
    d = b34_top_group(by="dist", years=years, rank=rank, filters=filters)
    ca = b34_station(district=d, field="COMMUNITY AREA")
    return b34_area_value(area=_name(ca), measure=measure, kind=kind)


# property
def b34_ihs_year(*, submarket, year):
    d = _ihs()
    d = d[(d.submarket_name == submarket) & (d.year == int(year))]
    return round(float(d.index_2000q1_100.mean()), 1)


def b34_ihs_q(*, submarket, yearq):
    d = _ihs()
    return round(float(d[(d.submarket_name == submarket) & (d.yearq == yearq)].index_2000q1_100.iloc[0]), 1)


def b34_ihs_rank(*, yearq, rank=1, order="desc", chicago_only=1):
    d = _ihs()
    d = d[(d.yearq == yearq) & d.submarket_name.str.startswith("Chicago--")]
    d = d.sort_values("index_2000q1_100", ascending=(order != "desc"))
    return d.submarket_name.iloc[rank - 1].replace("Chicago--", "")


def b34_ihs_summary(*, submarket, field):
    s = _ihs_sum()
    r = s[s["Sub Market"].str.strip() == submarket].iloc[0]
    v = str(r[field]).strip().replace("$", "").replace(",", "").replace("%", "")
    return int(float(v)) if field == "Median Sales Price" else round(float(v), 1)


def b34_ca_submarket(*, area):
    x = pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))
    x = x[x.area_number == _num(area)].sort_values("share_of_community_area", ascending=False)
    return x.iloc[0]["submarket_name_2023"]


def b34_chain_submarket_ihs(*, measure, yearq, rank=1, order="desc"):
    a = b34_rank_area(measure=measure, rank=rank, order=order)
    return b34_ihs_q(submarket=b34_ca_submarket(area=a), yearq=yearq)


def b34_redfin(*, region, end, field="sale"):
    r = _redfin()
    d = r[(r.Region == "Chicago, IL - " + region) & (r.end == pd.Timestamp(end))]
    v = d[field].iloc[0]
    return int(round(float(v))) if field in ("sale", "Homes Sold", "Inventory") else round(float(v), 1)


def b34_redfin_city_year(*, year, field="Homes Sold"):
    r = _redfin()
    d = r[(r.Region == "Chicago, IL") & (r.end.dt.year == int(year))]
    return int(d[field].sum())


def b34_set_sub_share(*, sel, measure, sub):
    """Homicides of a set meeting extra filters (`sub` spec) / the set's homicides (`measure`) * 100."""
    m = _set(sel)
    a = _nd(sub)[0].reindex(m).sum()
    b = _nd(measure)[0].reindex(m).sum()
    return round(float(a / b * 100), 1)


def b34_zip_cover_area(*, zip):
    """The community area covering most of a ZIP (largest share_of_zip)."""
    x = _zx()
    x = x[x["zip"] == int(zip)].sort_values("share_of_zip", ascending=False)
    return _name(x.iloc[0]["area_number"])


def b34_zip_growth_chain(*, ym0, ym, measure, rank=1, kind=None):
    """ZIP ranked by ZHVI % change ym0->ym -> community area covering most of it -> measure."""
    z = b34_zip_rank(ym=ym, ym0=ym0, rank=rank)
    return b34_area_value(area=b34_zip_cover_area(zip=z), measure=measure, kind=kind)
