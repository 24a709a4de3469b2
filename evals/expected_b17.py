"""Expected figures for the blind17 held-out question set (Chicago public data).

Every public function is named ``b17_*``, takes keyword arguments only and
returns ONE figure (int, float or str).  All figures are computed directly
from the CSV files in ``data_dir()`` with pandas.

Conventions
-----------
* Homicides: ``homicides.csv``, one row per victim.  Year / month / weekday /
  hour come from the ``Date`` column (``%m/%d/%Y %I:%M:%S %p``).  Community
  area, ward and district are float strings converted to int.  Rows with a
  blank place are left out of per-place figures but are counted in city
  totals.  Data end 2023-07-19 (2023 is partial).
* Year spans are written "2016-2022" (inclusive) or a single year "2019".
* Homicide rate per 100,000 a year: population = 2010 census (POP2010) for
  years <= 2015 and ACS 2019-2023 ``total_population`` for years >= 2016.
  Over several years the rate is pooled: homicides / (sum of each year's
  population) * 100,000.  A pooled rate over a set of areas is
  total homicides / total person-years (never an average of rates).
* City rate uses all city homicides (incl. blank-place rows) over the sum of
  the 77 areas' population.
* Community-area names are returned title-cased from ``community_areas.csv``
  (``O'Hare``, ``McKinley Park``).
* Community-area home value for a month = mean of its ZIPs' ZHVI that month
  weighted by ``share_of_community_area`` (ZIPs with no value that month are
  dropped and the weights renormalised).  Areas with no ZIP value are NaN and
  are left out of rankings.
* Socioeconomic indicators are the 2008-2012 file; the ACS is 2019-2023.
* Percentages are returned as percents (34.7 means 34.7 %), money as plain
  numbers; rates and percents are rounded by the checker only for display.
* Correlations are Pearson r across the community areas having both values.

Measure specs (strings) used by the ranking / set / threshold functions
----------------------------------------------------------------------
``hom:<years>[|filter=value...]``   homicide count per area (0 when none)
                                  filters: domestic=1/0, arrest=1/0,
                                  loc=STREET, month=7, wd=Saturday, hr=0-4
``rate:<years>``                  pooled homicide rate per 100k
``rate2010:`` / ``rateacs:``       same, forcing one population source
``homchg:<yearsA>:<yearsB>``      count in B minus count in A
``homchgpct:<yearsA>:<yearsB>``   percent change in count A->B
``ratechg:<yearsA>:<yearsB>``     rate B minus rate A
``homdens:<years>``               homicides per square mile
``acs:<col>``                     ACS column (e.g. total_population, _125_000)
``acspct:<col>``                  ACS column as % of total_population
``hh``                            ACS households (sum of the 5 income bands)
``hhpct:<col>``                   income band as % of households
``age65``/``age0_17``/``age18_24`` ACS persons (male+female) in that band
``age65pct``/``age0_17pct``       as % of the age-band total
``se:<key>``                      2008-2012 indicator: crowded, poverty,
                                  unemployed, nohs, dependency, pci, hardship
``pop2010``                       2010 census population
``popchg`` / ``popchgpct``        ACS total_population minus/relative to 2010
``density``                       ACS population per square mile
``area``                          area in square miles
``zhvi:<YYYY-MM>``                community-area home value that month
``zhvichgpct:<YYYY-MM>:<YYYY-MM>`` percent change in that value
``zhvichg:<YYYY-MM>:<YYYY-MM>``   dollar change in that value
"""
from __future__ import annotations

import functools
import math
import os

import numpy as np
import pandas as pd

from evals.expected import data_dir


def _p(name):
    return os.path.join(data_dir(), name)


# ----------------------------------------------------------------- loaders
@functools.lru_cache(maxsize=None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["_y"] = d.dt.year
    h["_m"] = d.dt.month
    h["_wd"] = d.dt.day_name()
    h["_hr"] = d.dt.hour
    h["_date"] = d.dt.normalize()
    h["_q"] = d.dt.quarter
    for c, n in (("Community Area", "_ca"), ("Ward", "_ward"), ("District", "_dist")):
        h[n] = pd.to_numeric(h[c], errors="coerce").astype("Int64")
    h["_arrest"] = h["Arrest"].str.lower().eq("true")
    h["_dom"] = h["Domestic"].str.lower().eq("true")
    return h


@functools.lru_cache(maxsize=None)
def _cas():
    c = pd.read_csv(_p("community_areas.csv"))
    special = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    c["name"] = [special.get(s, s.title()) for s in c["community"]]
    return c.set_index("area_number")


def _name(n):
    return str(_cas().loc[int(n), "name"])


def _num(area):
    if isinstance(area, (int, np.integer)):
        return int(area)
    s = str(area).strip()
    if s.isdigit():
        return int(s)
    c = _cas()
    key = s.upper().replace("'", "")
    m = c.index[(c["community"] == key) | (c["name"].str.upper() == s.upper())]
    if len(m) != 1:
        raise KeyError(area)
    return int(m[0])


@functools.lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    c = _cas()
    m = dict(zip(c["community"], c.index))
    a["area_number"] = a["community_area"].map(m)
    assert a["area_number"].notna().all()
    return a.set_index("area_number").sort_index()


@functools.lru_cache(maxsize=None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


_SE = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "pci": "PER CAPITA INCOME ",
    "hardship": "HARDSHIP INDEX",
}


@functools.lru_cache(maxsize=None)
def _se():
    s = pd.read_csv(_p("socioeconomic.csv"))
    return s


def _se_series(key):
    s = _se()
    s = s[s["Community Area Number"].notna()].copy()
    s.index = s["Community Area Number"].astype(int)
    return s[_SE[key]].astype(float).sort_index()


@functools.lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["zip"] = z["RegionName"].astype(int)
    return z


@functools.lru_cache(maxsize=None)
def _xwalk():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _ihs():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(maxsize=None)
def _wards():
    return pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")


@functools.lru_cache(maxsize=None)
def _stations():
    return pd.read_csv(_p("police_stations.csv"), dtype=str)


# ----------------------------------------------------------------- helpers
def _years(spec):
    s = str(spec)
    if "-" in s:
        a, b = s.split("-")
        return list(range(int(a), int(b) + 1))
    if "," in s:
        return [int(x) for x in s.split(",")]
    return [int(s)]


def _filter(h, years=None, month=None, weekday=None, hours=None, domestic=None,
            arrest=None, loc=None, quarter=None):
    if years is not None:
        h = h[h["_y"].isin(_years(years))]
    if month is not None:
        ms = [int(x) for x in str(month).split(",")]
        h = h[h["_m"].isin(ms)]
    if quarter is not None:
        h = h[h["_q"] == int(quarter)]
    if weekday is not None:
        wds = [w.strip().title() for w in str(weekday).split(",")]
        h = h[h["_wd"].isin(wds)]
    if hours is not None:
        a, b = [int(x) for x in str(hours).split("-")]
        if a <= b:
            h = h[(h["_hr"] >= a) & (h["_hr"] <= b)]
        else:  # wraps past midnight, e.g. 22-3
            h = h[(h["_hr"] >= a) | (h["_hr"] <= b)]
    if domestic is not None:
        h = h[h["_dom"] == bool(int(domestic))]
    if arrest is not None:
        h = h[h["_arrest"] == bool(int(arrest))]
    if loc is not None:
        locs = [x.strip().upper() for x in str(loc).split(",")]
        h = h[h["Location Description"].isin(locs)]
    return h


def _parse_hom_spec(rest):
    parts = rest.split("|")
    kw = {"years": parts[0]}
    alias = {"wd": "weekday", "hr": "hours"}
    for p in parts[1:]:
        k, v = p.split("=")
        kw[alias.get(k, k)] = v
    return kw


def _popyear(y):
    return _pop2010() if y <= 2015 else _acs()["total_population"].astype(float)


def _person_years(years):
    tot = None
    for y in _years(years):
        s = _popyear(y)
        tot = s if tot is None else tot + s
    return tot


def _hom_by_ca(**kw):
    h = _filter(_hom(), **kw)
    c = h["_ca"].dropna().astype(int).value_counts()
    return c.reindex(range(1, 78), fill_value=0).astype(float)


def _rate_by_ca(years):
    return _hom_by_ca(years=years) / _person_years(years) * 1e5


@functools.lru_cache(maxsize=None)
def _ca_zhvi_month(ym):
    y, m = [int(x) for x in ym.split("-")]
    z = _zhvi()
    z = z[(z["Year"] == y) & (z["Month"] == m) & z["price"].notna()]
    v = z.set_index("zip")["price"]
    x = _xwalk().copy()
    x["v"] = x["zip"].map(v)
    x = x[x["v"].notna()]
    x["wv"] = x["v"] * x["share_of_community_area"]
    g = x.groupby("area_number")
    s = g["wv"].sum() / g["share_of_community_area"].sum()
    return s.reindex(range(1, 78))


def _age(band):
    a = _acs()
    return (a["male_" + band] + a["female_" + band]).astype(float)


def _age_total():
    a = _acs()
    cols = [c for c in a.columns if c.startswith("male_") or c.startswith("female_")]
    return a[cols].sum(axis=1).astype(float)


@functools.lru_cache(maxsize=None)
def _measure(spec):
    spec = str(spec)
    kind, _, rest = spec.partition(":")
    if kind == "hom":
        return _hom_by_ca(**_parse_hom_spec(rest))
    if kind == "rate":
        return _rate_by_ca(rest)
    if kind in ("rate2010", "rateacs"):  # single population source (stand-ins)
        pop = _pop2010() if kind == "rate2010" else _acs()["total_population"].astype(float)
        return _hom_by_ca(years=rest) / (pop * len(_years(rest))) * 1e5
    if kind == "homchg":
        a, b = rest.split(":")
        return _hom_by_ca(years=b) - _hom_by_ca(years=a)
    if kind == "homchgpct":
        a, b = rest.split(":")
        A = _hom_by_ca(years=a)
        return ((_hom_by_ca(years=b) - A) / A.replace(0, np.nan)) * 100
    if kind == "ratechg":
        a, b = rest.split(":")
        return _rate_by_ca(b) - _rate_by_ca(a)
    if kind == "homdens":
        return _hom_by_ca(years=rest) / _cas()["area_sq_mi"].astype(float)
    if kind == "acs":
        return _acs()[rest].astype(float)
    if kind == "acspct":
        a = _acs()
        return a[rest].astype(float) / a["total_population"].astype(float) * 100
    if kind == "hh":
        a = _acs()
        return a[["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
                  "_75_000_to_125_000", "_125_000"]].sum(axis=1).astype(float)
    if kind == "hhpct":
        return _acs()[rest].astype(float) / _measure("hh") * 100
    if kind in ("age65", "age0_17", "age18_24"):
        band = {"age65": "65", "age0_17": "0_to_17", "age18_24": "18_to_24"}[kind]
        return _age(band)
    if kind in ("age65pct", "age0_17pct"):
        band = {"age65pct": "65", "age0_17pct": "0_to_17"}[kind]
        return _age(band) / _age_total() * 100
    if kind == "se":
        return _se_series(rest)
    if kind == "pop2010":
        return _pop2010()
    if kind == "popchg":
        return _acs()["total_population"].astype(float) - _pop2010()
    if kind == "popchgpct":
        p = _pop2010()
        return (_acs()["total_population"].astype(float) - p) / p * 100
    if kind == "density":
        return _acs()["total_population"].astype(float) / _cas()["area_sq_mi"].astype(float)
    if kind == "area":
        return _cas()["area_sq_mi"].astype(float)
    if kind == "zhvi":
        return _ca_zhvi_month(rest)
    if kind == "zhvichgpct":
        a, b = rest.split(":")
        A = _ca_zhvi_month(a)
        return (_ca_zhvi_month(b) - A) / A * 100
    if kind == "zhvichg":
        a, b = rest.split(":")
        return _ca_zhvi_month(b) - _ca_zhvi_month(a)
    raise ValueError(spec)


def _ranked(measure, order="desc", exclude=None, among=None):
    s = _measure(measure).dropna()
    if among:
        s = s[s.index.isin([_num(a) for a in among])]
    if exclude:
        s = s.drop([_num(a) for a in exclude], errors="ignore")
    # stable tie-break on area number so results are deterministic
    df = s.rename("v").reset_index().rename(columns={"index": "n"})
    df.columns = ["n", "v"]
    df = df.sort_values(["v", "n"], ascending=[order == "asc", True])
    return df


def _set(rank, n, order="desc", exclude=None, among=None):
    return list(_ranked(rank, order, exclude, among)["n"].head(int(n)))


def _is_hom_measure(spec):
    return str(spec).startswith("hom:")


def _city_total(spec):
    if _is_hom_measure(spec):
        kw = _parse_hom_spec(spec.partition(":")[2])
        return float(len(_filter(_hom(), **kw)))
    return float(_measure(spec).sum())


def _out(v):
    """Return integral floats (counts, whole-number indicators) as int."""
    v = float(v)
    if not math.isnan(v) and v.is_integer():
        return int(v)
    return v


def _ops(op):
    return {">": np.greater, ">=": np.greater_equal, "<": np.less,
            "<=": np.less_equal}[op]


# ------------------------------------------------------- homicide counts
def b17_city_count(years, **kw):
    """City homicide victims (all rows, blanks included) with optional filters."""
    return int(len(_filter(_hom(), years=years, **kw)))


def b17_area_count(area, years, **kw):
    h = _filter(_hom(), years=years, **kw)
    return int((h["_ca"] == _num(area)).sum())


def b17_areas_count(areas, years, **kw):
    """Combined count for a list of community areas."""
    h = _filter(_hom(), years=years, **kw)
    nums = [_num(a) for a in areas]
    return int(h["_ca"].isin(nums).sum())


def b17_ward_count(ward, years, **kw):
    h = _filter(_hom(), years=years, **kw)
    return int((h["_ward"] == int(ward)).sum())


def b17_district_count(district, years, **kw):
    h = _filter(_hom(), years=years, **kw)
    return int((h["_dist"] == int(district)).sum())


def b17_pct(years, what, area=None, ward=None, district=None, **kw):
    """Share (percent) of homicides meeting `what` ('arrest', 'domestic',
    'loc:STREET', 'weekend', 'hours:a-b') among the filtered homicides."""
    h = _filter(_hom(), years=years, **kw)
    if area is not None:
        h = h[h["_ca"] == _num(area)]
    if ward is not None:
        h = h[h["_ward"] == int(ward)]
    if district is not None:
        h = h[h["_dist"] == int(district)]
    if what == "arrest":
        m = h["_arrest"]
    elif what == "domestic":
        m = h["_dom"]
    elif what.startswith("loc:"):
        m = h["Location Description"].isin(what[4:].split(","))
    elif what == "weekend":
        m = h["_wd"].isin(["Saturday", "Sunday"])
    elif what.startswith("hours:"):
        m = _filter(h, hours=what[6:]).index.to_series().reindex(h.index).notna()
    else:
        raise ValueError(what)
    return float(m.mean() * 100)


def _group_counts(years, by, **kw):
    h = _filter(_hom(), years=years, **kw)
    col = {"ward": "_ward", "district": "_dist", "area": "_ca", "month": "_m",
           "weekday": "_wd", "hour": "_hr", "location": "Location Description",
           "year": "_y", "date": "_date", "quarter": "_q"}[by]
    c = h[col].dropna().value_counts()
    df = c.rename("v").reset_index()
    df.columns = ["k", "v"]
    df["ks"] = df["k"].astype(str)
    return df.sort_values(["v", "ks"], ascending=[False, True])


_MONTHS = ["January", "February", "March", "April", "May", "June", "July",
           "August", "September", "October", "November", "December"]


def b17_top_group(years, by, pos=1, order="desc", **kw):
    """Label (ward/district number, month name, weekday name, hour, location
    or area name) of the pos-th largest (order='asc': smallest) group."""
    df = _group_counts(years, by, **kw)
    if order == "asc":
        df = df.sort_values(["v", "ks"], ascending=[True, True])
    k = df.iloc[int(pos) - 1]["k"]
    if by == "area":
        return _name(k)
    if by == "month":
        return _MONTHS[int(k) - 1]
    if by == "date":
        return pd.Timestamp(k).strftime("%Y-%m-%d")
    if isinstance(k, (np.integer, int)) or by in ("ward", "district", "month", "hour", "year", "quarter"):
        return int(k)
    return str(k)


def b17_top_group_count(years, by, pos=1, order="desc", **kw):
    df = _group_counts(years, by, **kw)
    if order == "asc":
        df = df.sort_values(["v", "ks"], ascending=[True, True])
    return int(df.iloc[int(pos) - 1]["v"])


def b17_groups_over(years, by, op, value, **kw):
    """How many groups (wards, districts ...) have a count op value."""
    df = _group_counts(years, by, **kw)
    return int(_ops(op)(df["v"], float(value)).sum())


def b17_city_rate(years, pop="mixed"):
    """City rate per 100k a year. pop='mixed' is the convention; '2010' or
    'acs' force one population source (used for stand-ins)."""
    n = len(_filter(_hom(), years=years))
    if pop == "mixed":
        py = _person_years(years).sum()
    else:
        base = _pop2010() if pop == "2010" else _acs()["total_population"].astype(float)
        py = base.sum() * len(_years(years))
    return float(n / py * 1e5)


def b17_area_pct_change(area, years_a, years_b, **kw):
    a = b17_area_count(area=area, years=years_a, **kw)
    b = b17_area_count(area=area, years=years_b, **kw)
    return float((b - a) / a * 100)


def b17_city_pct_change(years_a, years_b, as_drop=False, **kw):
    """Percent change in city homicides from years_a to years_b;
    as_drop=True returns the size of a fall as a positive number."""
    a = len(_filter(_hom(), years=years_a, **kw))
    b = len(_filter(_hom(), years=years_b, **kw))
    v = float((b - a) / a * 100)
    return -v if as_drop else v


def b17_avg_per_year(years, area=None, **kw):
    ys = _years(years)
    if area is None:
        n = len(_filter(_hom(), years=years, **kw))
    else:
        n = b17_area_count(area=area, years=years, **kw)
    return float(n / len(ys))


# ------------------------------------------------------- area measures
def b17_value(area, measure):
    v = _measure(measure).loc[_num(area)]
    return _out(v)


def b17_city_value(measure):
    """City-wide total of an additive measure (sum over the 77 areas)."""
    return _out(_measure(measure).sum())


def b17_ratio(area, num, den, scale=1.0):
    """measure num / measure den for one area (times scale)."""
    n = _num(area)
    return float(_measure(num).loc[n] / _measure(den).loc[n] * float(scale))


def b17_area_rate(area, years):
    return float(_rate_by_ca(years).loc[_num(area)])


def b17_areas_pooled_rate(areas, years):
    nums = [_num(a) for a in areas]
    h = _hom_by_ca(years=years).loc[nums].sum()
    p = _person_years(years).loc[nums].sum()
    return float(h / p * 1e5)


def b17_rank(measure, pos=1, order="desc", exclude=None, among=None):
    df = _ranked(measure, order, exclude, among)
    return _name(df.iloc[int(pos) - 1]["n"])


def b17_rank_value(measure, pos=1, order="desc", exclude=None, among=None):
    df = _ranked(measure, order, exclude, among)
    return _out(df.iloc[int(pos) - 1]["v"])


def b17_rank_then(measure, then, pos=1, order="desc", exclude=None, among=None):
    df = _ranked(measure, order, exclude, among)
    n = int(df.iloc[int(pos) - 1]["n"])
    return _out(_measure(then).loc[n])


def b17_position_of(area, measure, order="desc"):
    """1-based rank position of an area."""
    df = _ranked(measure, order)
    return int(list(df["n"]).index(_num(area)) + 1)


def b17_set_member(rank, n, order, pos, then_rank=None, then_order="desc"):
    """Name of the pos-th area of the set (ordered by then_rank if given)."""
    members = _set(rank, n, order)
    if then_rank:
        return b17_rank(then_rank, pos=pos, order=then_order, among=members)
    return _name(members[int(pos) - 1])


def b17_set_sum(rank, n, of, order="desc", exclude=None):
    members = _set(rank, n, order, exclude)
    return _out(_measure(of).loc[members].sum())


def b17_set_mean(rank, n, of, order="desc", exclude=None):
    members = _set(rank, n, order, exclude)
    return float(_measure(of).loc[members].mean())


def b17_set_pooled_rate(rank, n, years, order="desc", exclude=None):
    members = _set(rank, n, order, exclude)
    return b17_areas_pooled_rate(areas=members, years=years)


def b17_set_share(rank, n, of, order="desc", exclude=None):
    """Percent of the city's total of `of` that falls in the set (homicide
    city totals include blank-place rows)."""
    members = _set(rank, n, order, exclude)
    return float(_measure(of).loc[members].sum() / _city_total(of) * 100)


def b17_set_ratio(rank, n, num, den, order="desc", scale=1.0):
    """Pooled ratio sum(num)/sum(den) over the set, times scale."""
    members = _set(rank, n, order)
    return float(_measure(num).loc[members].sum() / _measure(den).loc[members].sum() * float(scale))


def b17_set_count_where(rank, n, measure, op, value, order="desc"):
    members = _set(rank, n, order)
    s = _measure(measure).loc[members]
    return int(_ops(op)(s, float(value)).sum())


def b17_set_overlap(rank_a, n_a, rank_b, n_b, order_a="desc", order_b="desc"):
    a = set(_set(rank_a, n_a, order_a))
    b = set(_set(rank_b, n_b, order_b))
    return int(len(a & b))


def b17_threshold_count(measure, op, value, measure2=None, op2=None, value2=None):
    s = _measure(measure)
    m = _ops(op)(s, float(value)) & s.notna()
    if measure2:
        s2 = _measure(measure2)
        m &= _ops(op2)(s2, float(value2)) & s2.notna()
    return int(m.sum())


def b17_threshold_sum(measure, op, value, of, measure2=None, op2=None, value2=None):
    s = _measure(measure)
    m = _ops(op)(s, float(value)) & s.notna()
    if measure2:
        s2 = _measure(measure2)
        m &= _ops(op2)(s2, float(value2)) & s2.notna()
    return _out(_measure(of)[m].sum())


def b17_threshold_share(measure, op, value, of, denominator="city"):
    """Percent of the city's total of `of` in areas meeting the threshold.
    denominator='city' (convention: homicide totals include blank-place rows)
    or 'placed' (sum over the 77 areas only; a stand-in reading)."""
    s = _measure(measure)
    m = _ops(op)(s, float(value)) & s.notna()
    den = _city_total(of) if denominator == "city" else float(_measure(of).sum())
    return float(_measure(of)[m].sum() / den * 100)


def b17_threshold_pooled_rate(measure, op, value, years):
    s = _measure(measure)
    m = _ops(op)(s, float(value)) & s.notna()
    nums = list(s.index[m])
    return b17_areas_pooled_rate(areas=nums, years=years)


def b17_corr(m1, m2, method="pearson"):
    a = _measure(m1)
    b = _measure(m2)
    df = pd.concat([a, b], axis=1).dropna()
    x, y = df.iloc[:, 0], df.iloc[:, 1]
    if method == "spearman":  # Pearson on average ranks (no scipy needed)
        x, y = x.rank(), y.rank()
    return float(x.corr(y))


def b17_city_socio(key):
    """The CHICAGO total row of the 2008-2012 indicators."""
    s = _se()
    r = s[s["Community Area Number"].isna()].iloc[0]
    return float(r[_SE[key]])


def b17_area_ratio(area_a, area_b, measure):
    """measure at area_a divided by measure at area_b."""
    m = _measure(measure)
    return float(m.loc[_num(area_a)] / m.loc[_num(area_b)])


def b17_diff(area_a, area_b, measure):
    return _out(_measure(measure).loc[_num(area_a)] - _measure(measure).loc[_num(area_b)])


# ------------------------------------------------------------ ZIP level
def b17_zip_value(zip, year, month):
    z = _zhvi()
    r = z[(z["zip"] == int(zip)) & (z["Year"] == int(year)) & (z["Month"] == int(month))]
    return float(r["price"].iloc[0])


def b17_zip_ratio(zip_a, zip_b, year, month):
    """ZHVI of zip_a divided by ZHVI of zip_b in the same month."""
    return float(b17_zip_value(zip=zip_a, year=year, month=month) / b17_zip_value(zip=zip_b, year=year, month=month))


def b17_zip_year_mean(zip, year):
    z = _zhvi()
    r = z[(z["zip"] == int(zip)) & (z["Year"] == int(year))]
    return float(r["price"].mean())


def b17_zip_change(zip, a, b, pct=True, as_drop=False):
    """Change from month a to month b (percent, or dollars if pct=False).
    as_drop=True returns the size of a fall as a positive number."""
    ya, ma = [int(x) for x in a.split("-")]
    yb, mb = [int(x) for x in b.split("-")]
    va = b17_zip_value(zip=zip, year=ya, month=ma)
    vb = b17_zip_value(zip=zip, year=yb, month=mb)
    v = float((vb - va) / va * 100 if pct else vb - va)
    return -v if as_drop else v


def _zip_month(ym):
    y, m = [int(x) for x in ym.split("-")]
    z = _zhvi()
    z = z[(z["Year"] == y) & (z["Month"] == m) & z["price"].notna()]
    return z.set_index("zip")["price"]


def _zip_series(spec):
    kind, _, rest = spec.partition(":")
    if kind == "v":
        return _zip_month(rest)
    if kind == "chgpct":
        a, b = rest.split(":")
        A, B = _zip_month(a), _zip_month(b)
        return ((B - A) / A * 100).dropna()
    if kind == "chg":
        a, b = rest.split(":")
        return (_zip_month(b) - _zip_month(a)).dropna()
    raise ValueError(spec)


def b17_zip_rank(spec, pos=1, order="desc"):
    s = _zip_series(spec).sort_values(ascending=(order == "asc"))
    return int(s.index[int(pos) - 1])


def b17_zip_rank_value(spec, pos=1, order="desc"):
    s = _zip_series(spec).sort_values(ascending=(order == "asc"))
    return float(s.iloc[int(pos) - 1])


def b17_zip_count(spec, op, value):
    s = _zip_series(spec)
    return int(_ops(op)(s, float(value)).sum())


def b17_zip_median(spec):
    return float(_zip_series(spec).median())


def b17_zip_top_ca(zip):
    """Community area covering the largest share of a ZIP (crosswalk share_of_zip)."""
    x = _xwalk()
    r = x[x["zip"] == int(zip)].sort_values("share_of_zip", ascending=False)
    return _name(r.iloc[0]["area_number"])


def b17_zip_count_cas(zip):
    x = _xwalk()
    return int((x["zip"] == int(zip)).sum())


def b17_ca_main_zip(area):
    x = _xwalk()
    r = x[x["area_number"] == _num(area)].sort_values("share_of_community_area", ascending=False)
    return int(r.iloc[0]["zip"])


def b17_zip_then(spec, pos, order, then_measure):
    """Rank ZIPs, take the pos-th, map to the community area covering most
    of that ZIP, return then_measure there."""
    z = b17_zip_rank(spec=spec, pos=pos, order=order)
    ca = b17_zip_top_ca(zip=z)
    return float(_measure(then_measure).loc[_num(ca)])


# ------------------------------------------------------------ IHS index
def _ihs_match(d, submarket):
    return ((d["submarket_code"] == submarket) | (d["submarket_name"] == submarket)
            | (d["submarket_name"] == "Chicago--" + submarket))


def b17_ihs(submarket, yearq):
    d = _ihs()
    r = d[_ihs_match(d, submarket) & (d["yearq"] == yearq)]
    return float(r["index_2000q1_100"].iloc[0])


def b17_ihs_change(submarket, a, b, pct=True):
    va, vb = b17_ihs(submarket=submarket, yearq=a), b17_ihs(submarket=submarket, yearq=b)
    return float((vb - va) / va * 100 if pct else vb - va)


def b17_ihs_rank(yearq, pos=1, order="desc", chicago_only=True, base=None):
    d = _ihs()
    d = d[d["submarket_code"].str.startswith("p")]
    if chicago_only:
        d = d[d["is_chicago"] == 1]
    v = d[d["yearq"] == yearq].set_index("submarket_name")["index_2000q1_100"]
    if base:
        b = d[d["yearq"] == base].set_index("submarket_name")["index_2000q1_100"]
        v = (v - b) / b * 100
    v = v.sort_values(ascending=(order == "asc"))
    return str(v.index[int(pos) - 1]).replace("Chicago--", "")


def b17_ihs_rank_value(yearq, pos=1, order="desc", chicago_only=True, base=None):
    d = _ihs()
    d = d[d["submarket_code"].str.startswith("p")]
    if chicago_only:
        d = d[d["is_chicago"] == 1]
    v = d[d["yearq"] == yearq].set_index("submarket_name")["index_2000q1_100"]
    if base:
        b = d[d["yearq"] == base].set_index("submarket_name")["index_2000q1_100"]
        v = (v - b) / b * 100
    v = v.sort_values(ascending=(order == "asc"))
    return float(v.iloc[int(pos) - 1])


def b17_ihs_peak_quarter(submarket, before=None):
    d = _ihs()
    d = d[_ihs_match(d, submarket)]
    if before:
        d = d[d["yearq"] < before]
    return str(d.sort_values("index_2000q1_100", ascending=False).iloc[0]["yearq"])


def b17_ihs_year_mean(submarket, year):
    d = _ihs()
    d = d[_ihs_match(d, submarket) & (d["year"] == int(year))]
    return float(d["index_2000q1_100"].mean())


# ------------------------------------------------------------ offices
def b17_ward_office(ward, field):
    """field: a ward_offices.csv column, or 'surname' (alderman's last name,
    the part before the first comma), or 'zip' (office ZIP as int)."""
    w = _wards()
    r = w[w["WARD"].astype(int) == int(ward)].iloc[0]
    if field == "surname":
        return str(r["ALDERMAN"]).split(",")[0].strip()
    if field == "zip":
        return int(float(r["ZIPCODE"]))
    return str(r[field]).strip()


def b17_station(district, field):
    """field: a police_stations.csv column; 'zip' gives the ZIP as int."""
    s = _stations()
    r = s[s["DISTRICT"].str.strip() == str(district)].iloc[0]
    if field == "zip":
        return int(r["ZIP"])
    return str(r[field]).strip()


def b17_station_district_by_name(name):
    s = _stations()
    r = s[s["DISTRICT NAME"].str.strip().str.lower() == name.lower()].iloc[0]
    return int(r["DISTRICT"])


def b17_iucr(primary, secondary):
    d = pd.read_csv(_p("iucr_codes.csv"), dtype=str)
    r = d[(d["PRIMARY DESCRIPTION"] == primary) & (d["SECONDARY DESCRIPTION"] == secondary)]
    return str(r["IUCR"].iloc[0])


def b17_station_area_name(district):
    s = _stations()
    r = s[s["DISTRICT"].str.strip() == str(district)].iloc[0]
    return _name(int(float(r["COMMUNITY AREA"])))


def b17_stations_in_zip(zip):
    s = _stations()
    return int((s["ZIP"].str.strip() == str(zip)).sum())


def b17_ward_offices_in_zip(zip):
    w = _wards()
    return int((w["ZIPCODE"].astype(str).str[:5] == str(zip)).sum())


def b17_station_area_measure(district, measure):
    s = _stations()
    r = s[s["DISTRICT"].str.strip() == str(district)].iloc[0]
    return float(_measure(measure).loc[int(float(r["COMMUNITY AREA"]))])


def b17_ward_office_then_count(ward, years):
    """Homicides in the ward (by the homicide rows' ward code)."""
    return b17_ward_count(ward=ward, years=years)
