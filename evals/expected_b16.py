"""Expected figures for the blind16 held-out question set.

Every public function is named ``b16_*`` and computes one figure straight from the raw CSVs in
the shared data folder with pandas.  Conventions used throughout (repeated in the docstrings):

* Homicides: ``homicides.csv``, one row per victim.  The year/month/weekday/hour of a homicide is
  taken from the ``Date`` column (format ``%m/%d/%Y %I:%M:%S %p``).  Community area, ward and
  district are the float-string columns converted to int; rows with a blank value are left out of
  any per-area / per-ward / per-district figure but are included in city-wide totals.
* Population for a homicide rate: 2010 census (``census_population_2010.csv`` POP2010) for years up
  to 2015, ACS 2019-2023 ``total_population`` (``census_acs.csv``) for 2016 onward.  A rate over
  several years = homicides / (sum over the years of that year's population) * 100,000.
* Community-area names are returned in title case as in ``community_areas.csv`` (``community``
  title-cased, with ``O'Hare`` and ``McKinley Park`` spelled that way).
* Community-area home value for a month = mean of its ZIPs' ZHVI that month weighted by
  ``share_of_community_area`` in ``community_area_zip_crosswalk.csv``; ZIPs without a value that
  month are left out and the weights renormalised (NaN if none of its ZIPs has a value).

Measure specs (``spec`` arguments) give a per-community-area Series over the 77 areas:

=====================================  ==========================================================
``hom:Y`` / ``hom:Y1-Y2``              homicide count in year Y / years Y1..Y2 inclusive
``rate:Y`` / ``rate:Y1-Y2``            homicide rate per 100,000 a year (pooled, see above)
``homchg:A1-A2:B1-B2``                 count in B1..B2 minus count in A1..A2
``arrestpct:Y1-Y2``                    % of the area's homicides in Y1..Y2 with Arrest True
``acs:<column>``                       raw census_acs.csv column (or derived: ``under18``,
                                       ``over64``, ``households``)
``acspct:<column>``                    column / total_population * 100
``hhpct:<income column>``              income band / sum of the five income bands * 100
``socio:<key>``                        socioeconomic.csv: crowded, poverty, unemployed,
                                       nodiploma, dependency, income, hardship
``pop2010``                            POP2010
``popchg`` / ``popchgpct``             ACS total_population - POP2010 (absolute / % of POP2010)
``value:YYYY-MM``                      community-area home value that month
``valuechg:YYYY-MM:YYYY-MM``           % change of that value between the two months
``valuediff:YYYY-MM:YYYY-MM``          dollar change of that value between the two months
``density``                            ACS total_population / area_sq_mi (community_areas.csv)
=====================================  ==========================================================
"""
from __future__ import annotations

import functools
import math
from pathlib import Path

import pandas as pd

from evals.expected import data_dir


# ---------------------------------------------------------------------------------------------
# loaders
# ---------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _csv(name: str, **kw) -> pd.DataFrame:
    return pd.read_csv(Path(data_dir()) / name, **kw)


@functools.lru_cache(maxsize=None)
def _areas() -> pd.DataFrame:
    ca = _csv("community_areas.csv").copy()
    fix = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    ca["name"] = [fix.get(c, c.title()) for c in ca["community"]]
    return ca


def _num_to_name() -> dict:
    a = _areas()
    return dict(zip(a["area_number"], a["name"]))


def _area_num(area) -> int:
    """Accept an area number or a name (any case; O'Hare/Ohare; McKinley)."""
    if isinstance(area, (int,)):
        return int(area)
    key = str(area).strip().lower().replace("'", "")
    for n, nm in _num_to_name().items():
        if nm.lower().replace("'", "") == key:
            return int(n)
    raise KeyError(area)


def _name(area) -> str:
    return _num_to_name()[_area_num(area)]


@functools.lru_cache(maxsize=None)
def _hom() -> pd.DataFrame:
    h = _csv("homicides.csv").copy()
    d = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["dt"] = d
    h["year"] = d.dt.year
    h["month"] = d.dt.month
    h["weekday"] = d.dt.day_name()
    h["hour"] = d.dt.hour
    h["ca"] = h["Community Area"].astype("Int64")
    h["ward"] = h["Ward"].astype("Int64")
    h["district"] = h["District"].astype("Int64")
    h["loc"] = h["Location Description"]
    return h


def _years(y):
    """'2019' -> (2019, 2019); '2016-2020' -> (2016, 2020); int ok; tuple/list ok."""
    if isinstance(y, (list, tuple)):
        return int(y[0]), int(y[1])
    s = str(y)
    if "-" in s:
        a, b = s.split("-")
        return int(a), int(b)
    return int(s), int(s)


def _filter(start=None, end=None, year=None, area=None, ward=None, district=None, month=None,
            weekday=None, hour=None, location=None, arrest=None, domestic=None, hours=None,
            date_from=None, date_to=None):
    h = _hom()
    m = pd.Series(True, index=h.index)
    if year is not None:
        start, end = _years(year)
    if start is not None:
        m &= h["year"] >= int(start)
    if end is not None:
        m &= h["year"] <= int(end)
    if date_from is not None:
        m &= h["dt"] >= pd.Timestamp(date_from)
    if date_to is not None:  # inclusive whole day
        m &= h["dt"] < pd.Timestamp(date_to) + pd.Timedelta(days=1)
    if area is not None:
        m &= h["ca"] == _area_num(area)
    if ward is not None:
        m &= h["ward"] == int(ward)
    if district is not None:
        m &= h["district"] == int(district)
    if month is not None:
        m &= h["month"] == int(month)
    if weekday is not None:
        m &= h["weekday"] == weekday
    if hour is not None:
        m &= h["hour"] == int(hour)
    if hours is not None:  # (from, to) inclusive hours, may wrap midnight
        a, b = int(hours[0]), int(hours[1])
        if a <= b:
            m &= h["hour"].between(a, b)
        else:
            m &= (h["hour"] >= a) | (h["hour"] <= b)
    if location is not None:
        locs = [location] if isinstance(location, str) else list(location)
        m &= h["loc"].isin(locs)
    if arrest is not None:
        m &= h["Arrest"] == bool(arrest)
    if domestic is not None:
        m &= h["Domestic"] == bool(domestic)
    return h[m]


# ---------------------------------------------------------------------------------------------
# population / census / socioeconomic series (index = area number 1..77)
# ---------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _pop2010() -> pd.Series:
    p = _csv("census_population_2010.csv")
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


@functools.lru_cache(maxsize=None)
def _acs() -> pd.DataFrame:
    a = _csv("census_acs.csv").copy()
    m = dict(zip(_areas()["community"], _areas()["area_number"]))
    a["area_number"] = a["community_area"].map(m)
    assert a["area_number"].notna().all()
    a = a.set_index("area_number").sort_index()
    a["under18"] = a["male_0_to_17"] + a["female_0_to_17"]
    a["over64"] = a["male_65"] + a["female_65"]
    a["households"] = a[["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
                         "_75_000_to_125_000", "_125_000"]].sum(axis=1)
    return a


_SOCIO = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "nodiploma": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME ",
    "hardship": "HARDSHIP INDEX",
}


@functools.lru_cache(maxsize=None)
def _socio() -> pd.DataFrame:
    s = _csv("socioeconomic.csv")
    s = s[s["Community Area Number"].notna()].copy()
    s["Community Area Number"] = s["Community Area Number"].astype(int)
    return s.set_index("Community Area Number").sort_index()


def _pop_for_year(year: int) -> pd.Series:
    return _pop2010() if int(year) <= 2015 else _acs()["total_population"].astype(float)


def _hom_by_area(start, end) -> pd.Series:
    h = _filter(start=start, end=end)
    c = h.dropna(subset=["ca"]).groupby("ca").size()
    return c.reindex(range(1, 78), fill_value=0).astype(int)


def _rate_by_area(start, end) -> pd.Series:
    den = sum(_pop_for_year(y) for y in range(int(start), int(end) + 1))
    return _hom_by_area(start, end) / den * 100000.0


# ---------------------------------------------------------------------------------------------
# home values
# ---------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _zhvi() -> pd.DataFrame:
    z = _csv("property_zhvi_zip_monthly.csv").copy()
    z["zip"] = z["RegionName"].astype(str)
    return z


def _zip_series(year: int, month: int) -> pd.Series:
    z = _zhvi()
    z = z[(z["Year"] == int(year)) & (z["Month"] == int(month))]
    return z.set_index("zip")["price"]


@functools.lru_cache(maxsize=None)
def _ca_value(ym: str) -> pd.Series:
    y, m = ym.split("-")
    zs = _zip_series(int(y), int(m)).dropna()
    cw = _csv("community_area_zip_crosswalk.csv").copy()
    cw["zip"] = cw["zip"].astype(str)
    cw = cw[cw["zip"].isin(zs.index)].copy()
    cw["v"] = cw["zip"].map(zs)
    cw["wv"] = cw["v"] * cw["share_of_community_area"]
    g = cw.groupby("area_number")
    val = g["wv"].sum() / g["share_of_community_area"].sum()
    return val.reindex(range(1, 78))


# ---------------------------------------------------------------------------------------------
# measure grammar
# ---------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _measure(spec: str) -> pd.Series:
    kind, _, rest = spec.partition(":")
    if kind == "hom":
        return _hom_by_area(*_years(rest)).astype(float)
    if kind == "rate":
        return _rate_by_area(*_years(rest))
    if kind == "homchg":
        a, b = rest.split(":")
        return (_hom_by_area(*_years(b)) - _hom_by_area(*_years(a))).astype(float)
    if kind == "arrestpct":
        s, e = _years(rest)
        h = _filter(start=s, end=e).dropna(subset=["ca"])
        g = h.groupby("ca")["Arrest"].mean() * 100.0
        return g.reindex(range(1, 78))
    if kind == "acs":
        return _acs()[rest].astype(float)
    if kind == "acspct":
        a = _acs()
        return a[rest].astype(float) / a["total_population"] * 100.0
    if kind == "hhpct":
        a = _acs()
        return a[rest].astype(float) / a["households"] * 100.0
    if kind == "socio":
        return _socio()[_SOCIO[rest]].astype(float)
    if kind == "pop2010":
        return _pop2010()
    if kind == "popchg":
        return _acs()["total_population"].astype(float) - _pop2010()
    if kind == "popchgpct":
        return (_acs()["total_population"].astype(float) - _pop2010()) / _pop2010() * 100.0
    if kind == "value":
        return _ca_value(rest)
    if kind == "valuechg":
        a, b = rest.split(":")
        return (_ca_value(b) / _ca_value(a) - 1.0) * 100.0
    if kind == "valuediff":
        a, b = rest.split(":")
        return _ca_value(b) - _ca_value(a)
    if kind == "density":
        ar = _areas().set_index("area_number")["area_sq_mi"]
        return _acs()["total_population"].astype(float) / ar
    raise ValueError(spec)


def _ranked(spec: str, desc: bool = True) -> pd.Series:
    s = _measure(spec).dropna()
    return s.sort_values(ascending=not desc, kind="mergesort")


def _top(spec: str, n: int, desc: bool = True, check_tie: bool = True) -> list:
    r = _ranked(spec, desc)
    n = int(n)
    if check_tie and len(r) > n:
        assert r.iloc[n - 1] != r.iloc[n], f"tie at cut-off {spec} n={n}"
    return list(r.index[:n])


def _sel(spec, op, thr):
    s = _measure(spec).dropna()
    ops = {">": s > thr, ">=": s >= thr, "<": s < thr, "<=": s <= thr}
    assert not (s == thr).any(), f"threshold {thr} sits on a value of {spec}"
    return list(s[ops[op]].index)


def _agg_over(areas: list, other: str, agg: str):
    o = _measure(other).reindex(areas)
    if agg == "sum":
        v = o.sum()
        return int(round(v)) if other.split(":")[0] in ("hom", "homchg", "acs", "pop2010", "popchg") else float(v)
    if agg == "mean":
        return float(o.mean())
    if agg == "median":
        return float(o.median())
    raise ValueError(agg)


def _pooled(areas: list, pooled: str):
    """pooled = 'rate:Y1-Y2' (homicides/person-years*1e5), 'acspct:<col>', 'hhpct:<col>'."""
    kind, _, rest = pooled.partition(":")
    if kind == "rate":
        s, e = _years(rest)
        num = _hom_by_area(s, e).reindex(areas).sum()
        den = sum(_pop_for_year(y).reindex(areas).sum() for y in range(s, e + 1))
        return float(num / den * 100000.0)
    a = _acs().reindex(areas)
    if kind == "acspct":
        return float(a[rest].sum() / a["total_population"].sum() * 100.0)
    if kind == "hhpct":
        return float(a[rest].sum() / a["households"].sum() * 100.0)
    raise ValueError(pooled)


def _set(spec=None, n=None, desc=True, op=None, thr=None, areas=None):
    if areas is not None:
        return [_area_num(a) for a in areas]
    if n is not None:
        return _top(spec, n, desc)
    return _sel(spec, op, thr)


# ---------------------------------------------------------------------------------------------
# public: community-area measures
# ---------------------------------------------------------------------------------------------
def b16_area_value(spec: str, area):
    """Value of measure ``spec`` (see module docstring grammar) for one community area.

    Counts (hom:, homchg:, acs: raw counts, pop2010, popchg) are returned as int, everything
    else as an unrounded float.  Area given by name (title case) or number."""
    v = _measure(spec).loc[_area_num(area)]
    if spec.split(":")[0] in ("hom", "homchg", "pop2010", "popchg") or (
            spec.startswith("acs:")):
        return int(round(v))
    return float(v)


def b16_area_at_rank(spec: str, rank: int = 1, desc: bool = True) -> str:
    """Name of the community area at position ``rank`` (1 = highest if desc else lowest) of
    measure ``spec`` over the areas where it is defined (NaN areas left out).  Asserts the value
    at that rank is not tied with its neighbours."""
    r = _ranked(spec, desc)
    k = int(rank) - 1
    v = r.iloc[k]
    assert (r == v).sum() == 1, f"tie at rank {rank} of {spec}"
    return _num_to_name()[int(r.index[k])]


def b16_rank_of(spec: str, area, desc: bool = True) -> int:
    """1-based position of ``area`` among the areas where ``spec`` is defined (1 = highest
    when desc, lowest otherwise).  Asserts no other area has the same value."""
    s = _measure(spec).dropna()
    v = s.loc[_area_num(area)]
    assert (s == v).sum() == 1, "tied value"
    return int((s > v).sum() + 1) if desc else int((s < v).sum() + 1)


def b16_set_agg(other: str, agg: str = "sum", spec: str = None, n: int = None, desc: bool = True,
                op: str = None, thr: float = None, areas: list = None):
    """Aggregate (sum / mean / median) of measure ``other`` over a set of community areas.

    The set is either the top ``n`` areas of ``spec`` (desc=True: highest first; asserts no tie at
    the cut-off), the areas where ``spec`` ``op`` ``thr`` holds (op one of > >= < <=; asserts no
    area sits exactly on thr), or the explicit list ``areas``.  Sums of counts are ints; means are
    plain unweighted means of the areas' values (NaN areas skipped)."""
    return _agg_over(_set(spec, n, desc, op, thr, areas), other, agg)


def b16_set_pooled(pooled: str, spec: str = None, n: int = None, desc: bool = True,
                   op: str = None, thr: float = None, areas: list = None) -> float:
    """Pooled figure over a set of community areas (set chosen as in b16_set_agg).

    pooled='rate:Y1-Y2': total homicides of the set in Y1..Y2 / sum over years of the set's
    population (2010 census to 2015, ACS 2019-2023 from 2016) * 100,000.
    pooled='acspct:<col>': sum of col / sum of total_population * 100 (census_acs.csv).
    pooled='hhpct:<band>': sum of band / sum of all five income bands * 100."""
    return _pooled(_set(spec, n, desc, op, thr, areas), pooled)


def b16_set_share(other: str, spec: str = None, n: int = None, desc: bool = True,
                  op: str = None, thr: float = None, areas: list = None) -> float:
    """Percent of the 77-area total of measure ``other`` (a count: hom:, acs:, pop2010) that falls
    in the set of community areas (set chosen as in b16_set_agg): sum over set / sum over all
    77 areas * 100.  For homicides the 77-area total equals the city total in years without
    blank community areas (2005 onward)."""
    areas_ = _set(spec, n, desc, op, thr, areas)
    o = _measure(other)
    return float(o.reindex(areas_).sum() / o.sum() * 100.0)


def b16_set_count(spec: str, op: str, thr: float) -> int:
    """Number of community areas where measure ``spec`` ``op`` ``thr`` (NaN areas excluded;
    asserts no area sits exactly on the threshold)."""
    return len(_sel(spec, op, thr))


def b16_set_member(spec: str, rank: int, n: int = None, desc: bool = True, op: str = None,
                   thr: float = None, order_spec: str = None, order_desc: bool = True) -> str:
    """Name of the area at position ``rank`` when the set (top-n of spec, or spec op thr) is
    ordered by ``order_spec`` (default: spec itself).  Asserts no tie at that position."""
    areas = _set(spec, n, desc, op, thr)
    o = _measure(order_spec or spec).reindex(areas).dropna().sort_values(
        ascending=not order_desc, kind="mergesort")
    v = o.iloc[int(rank) - 1]
    assert (o == v).sum() == 1
    return _num_to_name()[int(o.index[int(rank) - 1])]


def b16_corr(spec_x: str, spec_y: str) -> float:
    """Pearson correlation coefficient between two measures across the community areas where
    both are defined (normally all 77)."""
    x = _measure(spec_x)
    y = _measure(spec_y)
    d = pd.concat([x, y], axis=1).dropna()
    return float(d.iloc[:, 0].corr(d.iloc[:, 1]))


def b16_city_pop(source: str = "acs") -> int:
    """City population: sum of census_acs.csv total_population (source='acs') or of POP2010
    (source='2010')."""
    if source == "acs":
        return int(_acs()["total_population"].sum())
    return int(_pop2010().sum())


def b16_socio_city(key: str) -> float:
    """The CHICAGO total row of socioeconomic.csv for the given key (crowded, poverty,
    unemployed, nodiploma, dependency, income)."""
    s = _csv("socioeconomic.csv")
    return float(s.loc[s["COMMUNITY AREA NAME"] == "CHICAGO", _SOCIO[key]].iloc[0])


# ---------------------------------------------------------------------------------------------
# public: homicide counts, shares, grains
# ---------------------------------------------------------------------------------------------
def b16_homicides(**filters) -> int:
    """Number of homicide victims (rows of homicides.csv) matching the filters.

    Filters: year ('2019' or '2016-2020'), start/end years, date_from/date_to (inclusive dates,
    'YYYY-MM-DD'), area (community area name/number), ward, district, month (1-12), weekday
    ('Monday'..), hour (0-23), hours=[from,to] inclusive (may wrap midnight), location (Location
    Description value or list), arrest (bool), domestic (bool).  All from the Date column."""
    return int(len(_filter(**filters)))


def b16_share(flag: str, **filters) -> float:
    """Percent of the matching homicides (see b16_homicides filters) whose column ``flag``
    ('Arrest' or 'Domestic') is True."""
    h = _filter(**filters)
    return float(h[flag].mean() * 100.0)


def b16_loc_share(location, **filters) -> float:
    """Percent of the matching homicides whose Location Description is ``location`` (a value or
    list of values)."""
    h = _filter(**filters)
    locs = [location] if isinstance(location, str) else list(location)
    return float(h["loc"].isin(locs).mean() * 100.0)


def b16_rate(area=None, year=None) -> float:
    """Homicide rate per 100,000 residents a year for a community area over ``year`` ('2019' or
    '2016-2020'): homicides with that Community Area / sum over the years of population (POP2010
    up to 2015, ACS total_population from 2016) * 100,000."""
    s, e = _years(year)
    return float(_rate_by_area(s, e).loc[_area_num(area)])


def b16_rate_with(area=None, year=None, pop: str = "2010") -> float:
    """Homicide rate per 100,000 a year for an area over ``year`` using ONE population for every
    year: pop='2010' (POP2010) or pop='acs' (ACS total_population).  Used for wrong-reading
    stand-ins (wrong population base)."""
    s, e = _years(year)
    p = _pop2010() if pop == "2010" else _acs()["total_population"].astype(float)
    n = _hom_by_area(s, e).loc[_area_num(area)]
    return float(n / (p.loc[_area_num(area)] * (e - s + 1)) * 100000.0)


def b16_city_rate_with(year, pop: str = "2010") -> float:
    """City homicide rate per 100,000 a year with one population base for every year
    (pop='2010': sum of POP2010; pop='acs': sum of ACS total_population).  Stand-in helper."""
    s, e = _years(year)
    num = len(_filter(start=s, end=e))
    p = _pop2010().sum() if pop == "2010" else _acs()["total_population"].sum()
    return float(num / (p * (e - s + 1)) * 100000.0)


def b16_city_rate(year) -> float:
    """City homicide rate per 100,000 a year: all homicide rows in the years (including rows with
    no community area) / sum over years of city population (sum of POP2010 to 2015, sum of ACS
    total_population from 2016) * 100,000."""
    s, e = _years(year)
    num = len(_filter(start=s, end=e))
    den = sum(_pop_for_year(y).sum() for y in range(s, e + 1))
    return float(num / den * 100000.0)


_GRAIN = {"ward": "ward", "district": "district", "month": "month", "weekday": "weekday",
          "hour": "hour", "location": "loc", "year": "year", "area": "ca"}
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]


def _grain_counts(grain, **filters) -> pd.Series:
    h = _filter(**filters)
    col = _GRAIN[grain]
    c = h.dropna(subset=[col]).groupby(col).size()
    return c.sort_values(ascending=False, kind="mergesort")


def _label(grain, key):
    if grain == "month":
        return _MONTHS[int(key) - 1]
    if grain in ("ward", "district", "hour", "year"):
        return int(key)
    if grain == "area":
        return _num_to_name()[int(key)]
    return str(key)


def b16_grain_top(grain: str, rank: int = 1, desc: bool = True, **filters):
    """Key at position ``rank`` when homicides matching the filters are counted by ``grain``
    (ward, district, month, weekday, hour, location, year, area) and ordered by count (desc: most
    first).  Only keys with at least one homicide are ranked.  Ward/district/hour/year returned as
    int, month as its English name, weekday as name, location as the raw Location Description,
    area as community-area name.  Asserts the count at that rank is not tied."""
    c = _grain_counts(grain, **filters)
    if not desc:
        c = c.sort_values(ascending=True, kind="mergesort")
    v = c.iloc[int(rank) - 1]
    assert (c == v).sum() == 1, f"tie in {grain} rank {rank}: {c[c == v]}"
    return _label(grain, c.index[int(rank) - 1])


def b16_grain_top_count(grain: str, rank: int = 1, desc: bool = True, **filters) -> int:
    """Count of homicides for the key at position ``rank`` (see b16_grain_top)."""
    c = _grain_counts(grain, **filters)
    if not desc:
        c = c.sort_values(ascending=True, kind="mergesort")
    return int(c.iloc[int(rank) - 1])


def b16_grain_nkeys(grain: str, op: str, thr: float, **filters) -> int:
    """Number of keys of ``grain`` (e.g. wards) whose homicide count under the filters satisfies
    ``op thr`` (keys with zero homicides are not counted; asserts none sits on thr)."""
    c = _grain_counts(grain, **filters)
    assert not (c == thr).any()
    return int({">": c > thr, ">=": c >= thr, "<": c < thr, "<=": c <= thr}[op].sum())


def b16_top_share(grain: str, n: int, **filters) -> float:
    """Percent of the matching homicides (rows with a non-blank ``grain`` value) that fall in the
    ``n`` keys of ``grain`` with the most homicides (asserts no tie at the cut-off)."""
    c = _grain_counts(grain, **filters)
    assert c.iloc[int(n) - 1] != c.iloc[int(n)]
    return float(c.iloc[:int(n)].sum() / c.sum() * 100.0)


def b16_pct_change(a_filters: dict, b_filters: dict) -> float:
    """Percent change in homicide count from the filter set a to filter set b:
    (count_b - count_a) / count_a * 100."""
    a = len(_filter(**a_filters))
    b = len(_filter(**b_filters))
    return float((b - a) / a * 100.0)


def b16_hom_diff(a_filters: dict, b_filters: dict) -> int:
    """Homicide count under filter set b minus count under filter set a."""
    return int(len(_filter(**b_filters)) - len(_filter(**a_filters)))


def b16_per_day(**filters) -> float:
    """Mean number of homicides per calendar day over an inclusive date range
    (date_from..date_to): count / number of days."""
    n = len(_filter(**filters))
    days = (pd.Timestamp(filters["date_to"]) - pd.Timestamp(filters["date_from"])).days + 1
    return float(n / days)


# ---------------------------------------------------------------------------------------------
# public: districts and wards lookups
# ---------------------------------------------------------------------------------------------
def b16_district_name(district: int) -> str:
    """DISTRICT NAME of a police district in police_stations.csv."""
    p = _csv("police_stations.csv")
    p = p[p["DISTRICT"] != "Headquarters"]
    return str(p.loc[p["DISTRICT"].astype(int) == int(district), "DISTRICT NAME"].iloc[0])


def b16_district_station_area(district: int) -> str:
    """Community-area name (via COMMUNITY AREA number) where the district's station stands."""
    p = _csv("police_stations.csv")
    p = p[p["DISTRICT"] != "Headquarters"]
    n = int(p.loc[p["DISTRICT"].astype(int) == int(district), "COMMUNITY AREA"].iloc[0])
    return _num_to_name()[n]


def b16_ward_alderman(ward: int) -> str:
    """ALDERMAN of a ward in ward_offices.csv (read with utf-8-sig), as written ('Last, First')."""
    w = _csv("ward_offices.csv", encoding="utf-8-sig")
    return str(w.loc[w["WARD"] == int(ward), "ALDERMAN"].iloc[0])


def b16_ward_office_zip(ward: int) -> str:
    """ZIPCODE of a ward office in ward_offices.csv, as a 5-character string."""
    w = _csv("ward_offices.csv", encoding="utf-8-sig")
    return str(int(w.loc[w["WARD"] == int(ward), "ZIPCODE"].iloc[0]))


def b16_ward_office_zip_count(zip: str) -> int:
    """Number of ward offices whose ZIPCODE equals ``zip``."""
    w = _csv("ward_offices.csv", encoding="utf-8-sig")
    return int((w["ZIPCODE"].dropna().astype(int).astype(str) == str(zip)).sum())


# ---------------------------------------------------------------------------------------------
# public: ZIP-level home values
# ---------------------------------------------------------------------------------------------
def b16_zip_value(zip: str, year: int, month: int) -> float:
    """ZHVI (property_zhvi_zip_monthly.csv ``price``) of a ZIP in a month (unrounded)."""
    return float(_zip_series(year, month).loc[str(zip)])


def b16_zip_change(zip: str, y1: int, m1: int, y2: int, m2: int) -> float:
    """Percent change of a ZIP's ZHVI from month y1-m1 to month y2-m2."""
    return float((b16_zip_value(zip, y2, m2) / b16_zip_value(zip, y1, m1) - 1.0) * 100.0)


def _zip_measure(spec: str) -> pd.Series:
    kind, _, rest = spec.partition(":")
    if kind == "value":
        y, m = rest.split("-")
        return _zip_series(int(y), int(m)).dropna()
    if kind == "valuechg":
        a, b = rest.split(":")
        ya, ma = a.split("-")
        yb, mb = b.split("-")
        return ((_zip_series(int(yb), int(mb)) / _zip_series(int(ya), int(ma)) - 1.0) * 100.0).dropna()
    raise ValueError(spec)


def b16_zip_at_rank(spec: str, rank: int = 1, desc: bool = True) -> str:
    """ZIP (string) at position ``rank`` of a ZIP measure: 'value:YYYY-MM' (ZHVI that month) or
    'valuechg:YYYY-MM:YYYY-MM' (% change), over ZIPs with values (NaN left out)."""
    s = _zip_measure(spec).sort_values(ascending=not desc, kind="mergesort")
    v = s.iloc[int(rank) - 1]
    assert (s == v).sum() == 1
    return str(s.index[int(rank) - 1])


def b16_zip_count(spec: str, op: str, thr: float) -> int:
    """Number of ZIPs (with a value) where the ZIP measure satisfies ``op thr``."""
    s = _zip_measure(spec)
    assert not (s == thr).any()
    return int({">": s > thr, ">=": s >= thr, "<": s < thr, "<=": s <= thr}[op].sum())


def b16_zip_main_area(zip: str) -> str:
    """Community area holding the largest share of the ZIP's land (max share_of_zip in
    community_area_zip_crosswalk.csv)."""
    cw = _csv("community_area_zip_crosswalk.csv")
    c = cw[cw["zip"].astype(str) == str(zip)].sort_values("share_of_zip", ascending=False)
    assert c["share_of_zip"].iloc[0] != c["share_of_zip"].iloc[1] if len(c) > 1 else True
    return _num_to_name()[int(c["area_number"].iloc[0])]


def b16_zip_n_areas(zip: str) -> int:
    """Number of community areas that overlap the ZIP in community_area_zip_crosswalk.csv."""
    cw = _csv("community_area_zip_crosswalk.csv")
    return int((cw["zip"].astype(str) == str(zip)).sum())


def b16_area_main_zip(area) -> str:
    """ZIP covering the largest share of the community area (max share_of_community_area)."""
    cw = _csv("community_area_zip_crosswalk.csv")
    c = cw[cw["area_number"] == _area_num(area)].sort_values("share_of_community_area",
                                                               ascending=False)
    return str(int(c["zip"].iloc[0]))


def b16_zip_area_homicides(zip: str, year: str) -> int:
    """Homicides in ``year`` in the community area that holds the largest share of the ZIP's land
    (b16_zip_main_area)."""
    return b16_homicides(area=b16_zip_main_area(zip), year=year)


# ---------------------------------------------------------------------------------------------
# public: other property files
# ---------------------------------------------------------------------------------------------
def b16_ihs_index(submarket: str, yearq: str) -> float:
    """index_2000q1_100 of property_ihs_price_index_long.csv for submarket_name (e.g. 'CHICAGO',
    'Chicago--Austin/North Lawndale') and yearq (e.g. '2025Q4')."""
    d = _csv("property_ihs_price_index_long.csv")
    return float(d.loc[(d["submarket_name"] == submarket) & (d["yearq"] == yearq),
                       "index_2000q1_100"].iloc[0])


def b16_ihs_summary(submarket: str, column: str) -> float:
    """Numeric value of a column of property_ihs_price_index_summary_2025q4.csv for 'Sub Market'
    (percent strings -> float percent, '$1,528,000' -> 1528000.0)."""
    d = _csv("property_ihs_price_index_summary_2025q4.csv")
    v = str(d.loc[d["Sub Market"] == submarket, column].iloc[0]).strip()
    return float(v.replace("%", "").replace("$", "").replace(",", ""))


def b16_ihs_top(column: str, rank: int = 1, chicago_only: bool = True, desc: bool = True) -> str:
    """Sub Market name at position ``rank`` of a summary column (numeric) in the 2025 Q4 IHS
    summary; chicago_only keeps the 'Chicago--' rows."""
    d = _csv("property_ihs_price_index_summary_2025q4.csv").copy()
    if chicago_only:
        d = d[d["Sub Market"].str.startswith("Chicago--")]
    d["v"] = d[column].astype(str).str.strip().str.replace("%", "").str.replace(
        "$", "").str.replace(",", "").astype(float)
    d = d.sort_values("v", ascending=not desc, kind="mergesort")
    v = d["v"].iloc[int(rank) - 1]
    assert (d["v"] == v).sum() == 1
    return str(d["Sub Market"].iloc[int(rank) - 1])


def b16_area_submarket(area) -> str:
    """submarket_name_2023 covering the largest share of the community area in
    community_area_ihs_submarket_crosswalk.csv."""
    c = _csv("community_area_ihs_submarket_crosswalk.csv")
    c = c[c["area_number"] == _area_num(area)].sort_values("share_of_community_area",
                                                             ascending=False)
    return str(c["submarket_name_2023"].iloc[0])


def _redfin() -> pd.DataFrame:
    return _csv("property_redfin_neighborhoods.csv", encoding="utf-8-sig")


def b16_redfin(region: str, period_begin: str, column: str) -> float:
    """Numeric value of ``column`` for Region 'Chicago, IL - <region>' (or region exactly) and
    Period Begin (as written, e.g. '7/1/2019') in property_redfin_neighborhoods.csv.
    'Median Sale Price' strings like '$563K' -> 563000.0."""
    d = _redfin()
    reg = region if region.startswith("Chicago") else f"Chicago, IL - {region}"
    r = d[(d["Region"] == reg) & (d["Period Begin"] == period_begin)]
    assert len(r) == 1, (region, period_begin, len(r))
    v = r[column].iloc[0]
    if isinstance(v, str):
        s = v.strip().replace("$", "").replace(",", "")
        mult = 1000.0 if s.endswith("K") else (1e6 if s.endswith("M") else 1.0)
        return float(s.rstrip("KM")) * mult
    return float(v)


def b16_redfin_sum(region: str, column: str, year: int, duration: int = None) -> float:
    """Sum of a numeric column for Region over rows whose Period Begin falls in ``year``
    (optionally only rows of a given Period Duration)."""
    d = _redfin()
    reg = region if region.startswith("Chicago") else f"Chicago, IL - {region}"
    r = d[d["Region"] == reg].copy()
    r["pb"] = pd.to_datetime(r["Period Begin"], format="%m/%d/%Y")
    r = r[r["pb"].dt.year == int(year)]
    if duration is not None:
        r = r[r["Period Duration"] == int(duration)]
    return float(r[column].sum())


def b16_iucr_count(primary: str, active: bool = None) -> int:
    """Number of rows of iucr_codes.csv with PRIMARY DESCRIPTION == primary (optionally ACTIVE
    true/false)."""
    d = _csv("iucr_codes.csv", dtype=str)
    m = d["PRIMARY DESCRIPTION"] == primary
    if active is not None:
        m &= d["ACTIVE"].str.lower() == ("true" if active else "false")
    return int(m.sum())


def b16_area_sq_mi(area) -> float:
    """area_sq_mi of a community area (community_areas.csv)."""
    a = _areas()
    return float(a.loc[a["area_number"] == _area_num(area), "area_sq_mi"].iloc[0])


def b16_count_areas_zero(spec: str) -> int:
    """Number of community areas with measure ``spec`` == 0 (e.g. hom:2021 zero-homicide areas)."""
    return int((_measure(spec) == 0).sum())


def b16_ratio(a: list, b: list, scale: float = 1.0) -> float:
    """Ratio of two figures, each given as [function_name, kwargs] of this module:
    a / b * scale (scale=100 for a percentage)."""
    fa = globals()[a[0]](**a[1])
    fb = globals()[b[0]](**b[1])
    return float(fa / fb * scale)
