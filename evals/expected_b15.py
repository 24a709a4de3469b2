"""Expected figures for the blind15 held-out question set.

Every public function is named ``b15_*`` and computes one figure straight from the raw
CSV files in the shared data folder with pandas.  Conventions used throughout:

* Community areas (CAs) are the 77 areas numbered 1-77.  Names are returned in title case
  as community_areas.csv spells them (``community`` column title-cased, with the fixes
  ``OHARE`` -> "O'Hare" and ``MCKINLEY PARK`` -> "McKinley Park").
* Homicides: homicides.csv, one row per victim, all rows IUCR 0110.  The period is taken from
  the ``Date`` column (``%m/%d/%Y %I:%M:%S %p``); years are calendar years.  Citywide counts
  use every row (also the 380 rows, 2001-2004, without a community area / ward).  Area
  counts use ``Community Area`` (float string -> int).
* Homicide RATE per 100,000 residents a year: population = census_population_2010.csv
  POP2010 for years up to 2015, census_acs.csv total_population (ACS 2019-2023) for 2016 on.
  A rate over several years = homicides / sum over the years of that year's population
  * 100,000.  The citywide population of a year is the sum over the 77 areas.
* Socioeconomic indicators: socioeconomic.csv (2008-2012), joined on Community Area Number.
* ACS: census_acs.csv (2019-2023 ACS), joined on the upper-case name.  Shares are percentages
  (0-100) of ``total_population`` for race / age groups and of the sum of the five household
  income bands for income bands.
* Community-area home value for a month = crosswalk-share-weighted mean
  (community_area_zip_crosswalk.csv ``share_of_community_area``) of its ZIPs' ZHVI
  (property_zhvi_zip_monthly.csv ``price``) that month; ZIPs without a value that month (or
  absent from the Zillow file) are left out and the weights of the rest renormalised.  An area
  with no ZIP value (East Side, all in 60617) has no value and is left out of rankings.
* Rankings: ``top=True`` means largest first.  Every ranking function checks that the value at
  the asked boundary is not tied (raises ValueError otherwise), so a returned rank/set is unique.
* Percentages are returned unrounded as floats on a 0-100 scale.

Measure specs (strings) accepted by the ranking/threshold/correlation helpers:
  socio:<key>        key in crowded, poverty, unemployed, no_hs, dependency, pci, hardship
  acs:<col>          a raw census_acs.csv column (e.g. total_population, asian, _125_000)
  acs:under18 / acs:age65 / acs:households  (male+female 0-17, male+female 65+, sum of 5 bands)
  acs_share:<col>    100 * column / total_population  (also under18, age65, age18_24)
  hh_share:<band>    100 * band / households   (band = under_25_000, _25_000_to_49_999, ...)
  pop2010            POP2010
  popchg_pct         100 * (ACS total_population - POP2010) / POP2010
  popchg             ACS total_population - POP2010
  area_sq_mi         community_areas.csv area_sq_mi
  density            ACS total_population / area_sq_mi
  hom:<Y1>-<Y2>      homicide count in calendar years Y1..Y2 (or hom:<Y>)
  rate:<Y1>-<Y2>     homicide rate per 100k per year over Y1..Y2 (population rule above)
  arrest:<Y1>-<Y2>   100 * share of those homicides with Arrest == True (NaN if none)
  domestic:<Y1>-<Y2> 100 * share with Domestic == True (NaN if none)
  homchg:<Ya>:<Yb>   hom(Yb) - hom(Ya)
  hv:<YYYY>-<MM>     community-area home value that month
  hvchg:<YYYY-MM>:<YYYY-MM>  100 * (hv(b) - hv(a)) / hv(a)
  hvabs:<YYYY-MM>:<YYYY-MM>  hv(b) - hv(a)
  rate2010:<Y1>-<Y2> / rateacs:<Y1>-<Y2>  homicide rate using one fixed population (POP2010 or
                     ACS) for every year -- only used for stand-in (wrong-reading) figures
"""
from __future__ import annotations

import functools
import math
from pathlib import Path

import pandas as pd

from evals.expected import data_dir


# --------------------------------------------------------------------------- loading

@functools.lru_cache(maxsize=None)
def _hom() -> pd.DataFrame:
    h = pd.read_csv(data_dir() / "homicides.csv")
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["yr"] = h["dt"].dt.year
    h["mon"] = h["dt"].dt.month
    h["hr"] = h["dt"].dt.hour
    h["wd"] = h["dt"].dt.day_name()
    h["ca"] = h["Community Area"].astype("Int64")
    h["ward"] = h["Ward"].astype("Int64")
    h["dist"] = h["District"].astype("Int64")
    h["arrest"] = h["Arrest"].astype(str).str.lower().eq("true")
    h["domestic"] = h["Domestic"].astype(str).str.lower().eq("true")
    h["loc"] = h["Location Description"].astype(str)
    return h


@functools.lru_cache(maxsize=None)
def _cas() -> pd.DataFrame:
    c = pd.read_csv(data_dir() / "community_areas.csv")
    fix = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    c["name"] = [fix.get(x, str(x).title()) for x in c["community"]]
    return c.set_index("area_number")


def _name(ca: int) -> str:
    return str(_cas().loc[int(ca), "name"])


def _ca(area) -> int:
    """Resolve a community-area number or name (any case/spelling in the files) to 1-77."""
    if isinstance(area, (int,)) and not isinstance(area, bool):
        return int(area)
    s = str(area).strip().upper().replace("'", "")
    c = _cas()
    for num, row in c.iterrows():
        cands = {str(row["community"]).upper().replace("'", ""),
                 str(row["name_socioeconomic"]).upper().replace("'", ""),
                 str(row["name"]).upper().replace("'", "")}
        if s in cands:
            return int(num)
    raise KeyError(area)


@functools.lru_cache(maxsize=None)
def _socio() -> pd.DataFrame:
    s = pd.read_csv(data_dir() / "socioeconomic.csv")
    s = s[s["Community Area Number"].notna()].copy()
    s["ca"] = s["Community Area Number"].astype(int)
    s = s.set_index("ca")
    cols = {
        "crowded": "PERCENT OF HOUSING CROWDED",
        "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
        "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
        "no_hs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
        "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
        "pci": "PER CAPITA INCOME ",
        "hardship": "HARDSHIP INDEX",
    }
    return pd.DataFrame({k: pd.to_numeric(s[v]) for k, v in cols.items()})


@functools.lru_cache(maxsize=None)
def _acs() -> pd.DataFrame:
    a = pd.read_csv(data_dir() / "census_acs.csv")
    num = {str(r["community"]).upper(): int(i) for i, r in _cas().iterrows()}
    a["ca"] = a["community_area"].str.upper().map(num)
    a = a.set_index("ca").drop(columns=["acs_year", "community_area", "record_id"])
    a = a.apply(pd.to_numeric)
    a["under18"] = a["male_0_to_17"] + a["female_0_to_17"]
    a["age65"] = a["male_65"] + a["female_65"]
    a["age18_24"] = a["male_18_to_24"] + a["female_18_to_24"]
    a["households"] = a[["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
                         "_75_000_to_125_000", "_125_000"]].sum(axis=1)
    return a


@functools.lru_cache(maxsize=None)
def _pop2010() -> pd.Series:
    p = pd.read_csv(data_dir() / "census_population_2010.csv")
    return p.set_index("NID")["POP2010"].astype(float)


def _pop_year(year: int) -> pd.Series:
    """Population by CA used for a homicide rate in ``year`` (2010 census <=2015, ACS after)."""
    if int(year) <= 2015:
        return _pop2010()
    return _acs()["total_population"].astype(float)


@functools.lru_cache(maxsize=None)
def _zhvi() -> pd.DataFrame:
    z = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    z["zip"] = z["RegionName"].astype(int).astype(str)
    z["price"] = pd.to_numeric(z["price"], errors="coerce")
    return z


@functools.lru_cache(maxsize=None)
def _xwalk() -> pd.DataFrame:
    x = pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")
    x["zip"] = x["zip"].astype(int).astype(str)
    return x


def _years(spec) -> tuple[int, int]:
    if isinstance(spec, int):
        return spec, spec
    s = str(spec)
    if "-" in s:
        a, b = s.split("-")
        return int(a), int(b)
    return int(s), int(s)


# --------------------------------------------------------------------------- measures

@functools.lru_cache(maxsize=None)
def _hv_month(year: int, month: int) -> pd.Series:
    z = _zhvi()
    zm = z[(z["Year"] == year) & (z["Month"] == month) & z["price"].notna()]
    if zm.empty:
        raise ValueError(f"no ZHVI values for {year}-{month:02d}")
    price = zm.set_index("zip")["price"]
    x = _xwalk().copy()
    x["price"] = x["zip"].map(price)
    x = x[x["price"].notna()]
    x["wp"] = x["price"] * x["share_of_community_area"]
    g = x.groupby("area_number")
    hv = g["wp"].sum() / g["share_of_community_area"].sum()
    return hv.reindex(range(1, 78))


def _hom_filter(h: pd.DataFrame, y1: int, y2: int) -> pd.DataFrame:
    return h[(h["yr"] >= y1) & (h["yr"] <= y2)]


@functools.lru_cache(maxsize=None)
def _measure(spec: str) -> pd.Series:
    """Series indexed by CA number 1..77 for a measure spec (see module docstring)."""
    idx = pd.Index(range(1, 78))
    kind, _, arg = spec.partition(":")
    if kind == "socio":
        return _socio()[arg].reindex(idx).astype(float)
    if kind == "acs":
        return _acs()[arg].reindex(idx).astype(float)
    if kind == "acs_share":
        a = _acs()
        return (100.0 * a[arg] / a["total_population"]).reindex(idx)
    if kind == "hh_share":
        a = _acs()
        return (100.0 * a[arg] / a["households"]).reindex(idx)
    if kind == "pop2010":
        return _pop2010().reindex(idx)
    if kind == "popchg_pct":
        return (100.0 * (_acs()["total_population"] - _pop2010()) / _pop2010()).reindex(idx)
    if kind == "popchg":
        return (_acs()["total_population"] - _pop2010()).reindex(idx)
    if kind == "area_sq_mi":
        return _cas()["area_sq_mi"].reindex(idx).astype(float)
    if kind == "density":
        return (_acs()["total_population"] / _cas()["area_sq_mi"]).reindex(idx)
    if kind in ("rate2010", "rateacs"):
        # stand-in helpers: one fixed population for every year
        y1, y2 = _years(arg)
        cnt = _measure(f"hom:{arg}")
        base = _pop2010() if kind == "rate2010" else _acs()["total_population"].astype(float)
        return 100000.0 * cnt / (base.reindex(idx) * (y2 - y1 + 1))
    if kind in ("hom", "rate", "arrest", "domestic"):
        y1, y2 = _years(arg)
        h = _hom_filter(_hom(), y1, y2)
        h = h[h["ca"].notna()]
        cnt = h.groupby("ca").size().reindex(idx, fill_value=0).astype(float)
        if kind == "hom":
            return cnt
        if kind == "rate":
            pop = sum(_pop_year(y).reindex(idx) for y in range(y1, y2 + 1))
            return 100000.0 * cnt / pop
        col = "arrest" if kind == "arrest" else "domestic"
        return (100.0 * h.groupby("ca")[col].mean()).reindex(idx)
    if kind == "homchg":
        a, b = arg.split(":")
        return _measure(f"hom:{b}") - _measure(f"hom:{a}")
    if kind == "hv":
        y, m = arg.split("-")
        return _hv_month(int(y), int(m))
    if kind in ("hvchg", "hvabs"):
        a, b = arg.split(":")
        ya, ma = a.split("-")
        yb, mb = b.split("-")
        va, vb = _hv_month(int(ya), int(ma)), _hv_month(int(yb), int(mb))
        if kind == "hvabs":
            return vb - va
        return 100.0 * (vb - va) / va
    raise ValueError(f"unknown measure spec {spec!r}")


def _ranked(spec: str, top: bool) -> pd.Series:
    s = _measure(spec).dropna()
    # stable order: value, then CA number
    df = pd.DataFrame({"v": s, "ca": s.index})
    df = df.sort_values(["v", "ca"], ascending=[not top, True])
    return df["v"]


def _check_boundary(r: pd.Series, n: int, what: str) -> None:
    vals = list(r.values)
    if n < len(vals) and vals[n - 1] == vals[n]:
        raise ValueError(f"tie at boundary {n} for {what}")


def _top_set(spec: str, n: int, top: bool) -> list[int]:
    r = _ranked(spec, top)
    _check_boundary(r, n, spec)
    return [int(i) for i in r.index[:n]]


def _op(s: pd.Series, op: str, thr: float) -> pd.Series:
    return {">": s > thr, ">=": s >= thr, "<": s < thr, "<=": s <= thr}[op]


# --------------------------------------------------------------------------- homicide counts

def _filter(years=None, start=None, end=None, area=None, ward=None, district=None,
            arrest=None, domestic=None, location=None, month=None, weekday=None,
            hour_from=None, hour_to=None, areas=None) -> pd.DataFrame:
    h = _hom()
    if years is not None:
        y1, y2 = _years(years)
        h = _hom_filter(h, y1, y2)
    if start is not None:
        h = h[h["dt"] >= pd.Timestamp(start)]
    if end is not None:  # inclusive end date
        h = h[h["dt"] < pd.Timestamp(end) + pd.Timedelta(days=1)]
    if area is not None:
        h = h[h["ca"] == _ca(area)]
    if areas is not None:
        h = h[h["ca"].isin([_ca(a) for a in areas])]
    if ward is not None:
        h = h[h["ward"] == int(ward)]
    if district is not None:
        h = h[h["dist"] == int(district)]
    if arrest is not None:
        h = h[h["arrest"] == bool(arrest)]
    if domestic is not None:
        h = h[h["domestic"] == bool(domestic)]
    if location is not None:
        locs = [location] if isinstance(location, str) else list(location)
        h = h[h["loc"].isin(locs)]
    if month is not None:
        h = h[h["mon"] == int(month)]
    if weekday is not None:
        h = h[h["wd"] == weekday]
    if hour_from is not None:
        h = h[h["hr"] >= int(hour_from)]
    if hour_to is not None:  # inclusive hour
        h = h[h["hr"] <= int(hour_to)]
    return h


def b15_hom_count(**filters) -> int:
    """Number of homicide victims (rows of homicides.csv) matching the filters.

    Filters: years ("Y" or "Y1-Y2", calendar years of Date), start/end (dates, inclusive),
    area (CA number or name; rows without CA excluded then), areas (list), ward, district,
    arrest (bool), domestic (bool), location (exact Location Description or list), month
    (1-12), weekday (e.g. "Saturday"), hour_from/hour_to (inclusive hours of Date, 0-23).
    Without area/ward filters every row counts (citywide)."""
    return int(len(_filter(**filters)))


def b15_noca_count(**filters) -> int:
    """Number of matching homicide rows whose Community Area is blank (filters as
    b15_hom_count)."""
    h = _filter(**filters)
    return int(h["ca"].isna().sum())


def b15_arrest_pct(**filters) -> float:
    """100 * share of matching homicide rows with Arrest == True (filters as b15_hom_count)."""
    h = _filter(**filters)
    return float(100.0 * h["arrest"].mean())


def b15_domestic_pct(**filters) -> float:
    """100 * share of matching homicide rows with Domestic == True (filters as b15_hom_count)."""
    h = _filter(**filters)
    return float(100.0 * h["domestic"].mean())


def b15_share_pct(num: dict, den: dict) -> float:
    """100 * b15_hom_count(**num) / b15_hom_count(**den)."""
    return float(100.0 * b15_hom_count(**num) / b15_hom_count(**den))


def b15_hom_pct_change(years_a, years_b, **filters) -> float:
    """100 * (count in years_b - count in years_a) / count in years_a, other filters shared."""
    a = b15_hom_count(years=years_a, **filters)
    b = b15_hom_count(years=years_b, **filters)
    return float(100.0 * (b - a) / a)


def b15_hom_diff(years_a, years_b, **filters) -> int:
    """count in years_b minus count in years_a (same other filters)."""
    return b15_hom_count(years=years_b, **filters) - b15_hom_count(years=years_a, **filters)


def b15_city_rate(years) -> float:
    """Citywide homicide rate per 100,000 a year: all homicide rows in the years divided by the
    sum over the years of the citywide population (sum of the 77 areas: POP2010 for <=2015,
    ACS 2019-2023 total_population for >=2016), * 100,000."""
    y1, y2 = _years(years)
    n = b15_hom_count(years=years)
    pop = sum(float(_pop_year(y).sum()) for y in range(y1, y2 + 1))
    return float(100000.0 * n / pop)


def b15_area_rate(area, years) -> float:
    """Homicide rate per 100,000 a year for one community area over the years (rule above)."""
    return float(_measure(f"rate:{years}").loc[_ca(area)])


def b15_areas_pooled_rate(areas, years) -> float:
    """Pooled rate for a list of CAs: their homicides / sum over areas and years of population."""
    y1, y2 = _years(years)
    cas = [_ca(a) for a in areas]
    n = float(_measure(f"hom:{years}").loc[cas].sum())
    pop = sum(float(_pop_year(y).loc[cas].sum()) for y in range(y1, y2 + 1))
    return float(100000.0 * n / pop)


# --------------------------------------------------------------------------- grains

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]


def _grain_counts(grain: str, **filters) -> pd.Series:
    h = _filter(**filters)
    col = {"ward": "ward", "district": "dist", "month": "mon", "weekday": "wd", "hour": "hr",
           "location": "loc", "area": "ca", "year": "yr"}[grain]
    h = h[h[col].notna()]
    c = h.groupby(col).size()
    df = pd.DataFrame({"n": c.values, "k": c.index})
    df = df.sort_values(["n", "k"], ascending=[False, True])
    return pd.Series(df["n"].values, index=df["k"].values)


def _grain_label(grain: str, key):
    if grain == "month":
        return _MONTHS[int(key) - 1]
    if grain == "area":
        return _name(int(key))
    if grain in ("ward", "district", "hour", "year"):
        return int(key)
    return str(key)


def b15_grain_top(grain: str, rank: int = 1, top: bool = True, **filters):
    """The ``rank``-th ward / district / month (English name) / weekday / hour / location /
    area (name) / year by homicide count among rows matching the filters (rows lacking the
    grain value dropped).  ``top=False`` ranks from the fewest (only grains with >= 1 homicide
    are ranked).  Raises if the count at that rank is tied with a neighbour."""
    c = _grain_counts(grain, **filters)
    if not top:
        c = c.iloc[::-1]
    vals = list(c.values)
    i = rank - 1
    if (i > 0 and vals[i - 1] == vals[i]) or (i + 1 < len(vals) and vals[i + 1] == vals[i]):
        raise ValueError(f"tie at rank {rank} for grain {grain} {filters}")
    return _grain_label(grain, c.index[i])


def b15_grain_top_count(grain: str, rank: int = 1, top: bool = True, **filters) -> int:
    """Homicide count of the grain value returned by b15_grain_top with the same arguments."""
    c = _grain_counts(grain, **filters)
    if not top:
        c = c.iloc[::-1]
    b15_grain_top(grain, rank, top, **filters)
    return int(c.values[rank - 1])


def b15_grain_topn_sum(grain: str, n: int, **filters) -> int:
    """Sum of homicides over the n grain values with most homicides (boundary tie checked)."""
    c = _grain_counts(grain, **filters)
    vals = list(c.values)
    if n < len(vals) and vals[n - 1] == vals[n]:
        raise ValueError("tie at boundary")
    return int(sum(vals[:n]))


def b15_grain_nonzero(grain: str, **filters) -> int:
    """Number of distinct grain values (e.g. wards) with at least one matching homicide."""
    return int(len(_grain_counts(grain, **filters)))


def b15_ward_alderman(ward: int) -> str:
    """Surname of the alderperson of ``ward`` in ward_offices.csv (ALDERMAN text before the
    first comma, e.g. "Hopkins" for "Hopkins, Brian")."""
    w = pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig")
    row = w[w["WARD"].astype(int) == int(ward)].iloc[0]
    return str(row["ALDERMAN"]).split(",")[0].strip()


def b15_ward_office_zip(ward: int) -> str:
    """ZIPCODE of the ward office of ``ward`` in ward_offices.csv, as a 5-digit string."""
    w = pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig")
    row = w[w["WARD"].astype(int) == int(ward)].iloc[0]
    return str(int(row["ZIPCODE"]))


def b15_district_name(district: int) -> str:
    """DISTRICT NAME of police district ``district`` in police_stations.csv (e.g. "Harrison")."""
    p = pd.read_csv(data_dir() / "police_stations.csv")
    p = p[p["DISTRICT"].astype(str) == str(int(district))]
    return str(p.iloc[0]["DISTRICT NAME"])


def b15_district_station_area(district: int) -> str:
    """Name of the community area in which district ``district``'s station stands
    (police_stations.csv COMMUNITY AREA number -> name)."""
    p = pd.read_csv(data_dir() / "police_stations.csv")
    p = p[p["DISTRICT"].astype(str) == str(int(district))]
    return _name(int(p.iloc[0]["COMMUNITY AREA"]))


# --------------------------------------------------------------------------- area measures

def b15_measure(area, spec: str) -> float:
    """Value of measure ``spec`` (module docstring) for one community area (float)."""
    v = _measure(spec).loc[_ca(area)]
    if pd.isna(v):
        raise ValueError(f"no value for {area} {spec}")
    return float(v)


def b15_measure_int(area, spec: str) -> int:
    """Same as b15_measure, returned as int (for counts)."""
    return int(round(b15_measure(area, spec)))


def b15_city_acs(col: str) -> int:
    """Sum over the 77 areas of a census_acs.csv column (or derived under18/age65/households)."""
    return int(round(float(_acs()[col].sum())))


def b15_city_acs_share(col: str) -> float:
    """100 * citywide sum of column / citywide sum of total_population (ACS 2019-2023)."""
    a = _acs()
    return float(100.0 * a[col].sum() / a["total_population"].sum())


def b15_rank_area(spec: str, rank: int = 1, top: bool = True) -> str:
    """Name of the area at position ``rank`` when the 77 areas (those with a value) are
    sorted by ``spec`` (top=True: largest first).  Raises on a tie at that position."""
    r = _ranked(spec, top)
    vals = list(r.values)
    i = rank - 1
    if (i > 0 and vals[i - 1] == vals[i]) or (i + 1 < len(vals) and vals[i + 1] == vals[i]):
        raise ValueError(f"tie at rank {rank} for {spec}")
    return _name(int(r.index[i]))


def b15_rank_value(spec: str, rank: int = 1, top: bool = True, value_spec: str | None = None):
    """Value of ``value_spec`` (default: ``spec`` itself) for the area returned by
    b15_rank_area(spec, rank, top).  Counts (hom:, acs:, pop2010, popchg) come back as int."""
    name = b15_rank_area(spec, rank, top)
    vs = value_spec or spec
    v = b15_measure(name, vs)
    if vs.split(":")[0] in ("hom", "acs", "pop2010", "popchg", "homchg"):
        return int(round(v))
    return v


def b15_area_rank(area, spec: str, top: bool = True) -> int:
    """1-based position of ``area`` among areas with a value, sorted by ``spec``
    (top=True: largest = 1).  Raises if the area's value is tied with another area."""
    s = _measure(spec).dropna()
    ca = _ca(area)
    v = s.loc[ca]
    if (s == v).sum() > 1:
        raise ValueError(f"{area} tied on {spec}")
    return int((s > v).sum() + 1) if top else int((s < v).sum() + 1)


def b15_set_sum(rank_spec: str, n: int, top: bool, value_spec: str):
    """Sum of ``value_spec`` over the n areas ranked first by ``rank_spec`` (top=True: largest
    first; boundary tie between n and n+1 checked).  Int for count measures."""
    cas = _top_set(rank_spec, n, top)
    v = float(_measure(value_spec).loc[cas].sum())
    if value_spec.split(":")[0] in ("hom", "acs", "pop2010", "popchg", "homchg"):
        return int(round(v))
    return v


def b15_set_mean(rank_spec: str, n: int, top: bool, value_spec: str) -> float:
    """Unweighted mean of ``value_spec`` over the n areas ranked first by ``rank_spec``."""
    cas = _top_set(rank_spec, n, top)
    return float(_measure(value_spec).loc[cas].mean())


def b15_set_pooled_rate(rank_spec: str, n: int, top: bool, years) -> float:
    """Pooled homicide rate per 100k a year over the n areas ranked first by ``rank_spec``:
    their homicides in ``years`` / sum over areas and years of population * 100,000."""
    cas = _top_set(rank_spec, n, top)
    return b15_areas_pooled_rate(cas, years)


def b15_set_share_of_city(rank_spec: str, n: int, top: bool, value_spec: str) -> float:
    """100 * sum of ``value_spec`` over the n areas / sum of it over all 77 areas."""
    cas = _top_set(rank_spec, n, top)
    m = _measure(value_spec)
    return float(100.0 * m.loc[cas].sum() / m.sum())


def b15_set_member(rank_spec: str, n: int, top: bool, pick_spec: str, pick_top: bool = True) -> str:
    """Among the n areas ranked first by ``rank_spec``, the name of the one with the largest
    (pick_top) or smallest ``pick_spec`` (tie raises)."""
    cas = _top_set(rank_spec, n, top)
    s = _measure(pick_spec).loc[cas].dropna()
    best = s.max() if pick_top else s.min()
    if (s == best).sum() > 1:
        raise ValueError("tie in set_member")
    return _name(int(s.idxmax() if pick_top else s.idxmin()))


def b15_threshold_count(spec: str, op: str, thr: float) -> int:
    """Number of areas whose ``spec`` value satisfies ``op thr`` (op in >, >=, <, <=)."""
    s = _measure(spec).dropna()
    return int(_op(s, op, thr).sum())


def b15_threshold_agg(spec: str, op: str, thr: float, value_spec: str, agg: str = "sum"):
    """Aggregate of ``value_spec`` over areas whose ``spec`` satisfies ``op thr``.
    agg: sum (int for count measures), mean (unweighted), share (100 * sum / sum over all 77),
    pooled_rate (value_spec is a year range "Y1-Y2": their homicides / their population-years
    * 100,000)."""
    s = _measure(spec).dropna()
    cas = [int(i) for i in s.index[_op(s, op, thr)]]
    if agg == "pooled_rate":
        return b15_areas_pooled_rate(cas, value_spec)
    m = _measure(value_spec)
    if agg == "sum":
        v = float(m.loc[cas].sum())
        if value_spec.split(":")[0] in ("hom", "acs", "pop2010", "popchg", "homchg"):
            return int(round(v))
        return v
    if agg == "mean":
        return float(m.loc[cas].mean())
    if agg == "share":
        return float(100.0 * m.loc[cas].sum() / m.sum())
    raise ValueError(agg)


def b15_corr(spec_x: str, spec_y: str) -> float:
    """Pearson r across community areas between two measure specs (areas lacking either
    value are left out)."""
    df = pd.DataFrame({"x": _measure(spec_x), "y": _measure(spec_y)}).dropna()
    return float(df["x"].corr(df["y"]))


def b15_count_areas(spec: str, op: str, thr: float, spec2: str, op2: str, thr2: float) -> int:
    """Number of areas satisfying both ``spec op thr`` and ``spec2 op2 thr2``."""
    s1, s2 = _measure(spec), _measure(spec2)
    ok = _op(s1, op, thr) & _op(s2, op2, thr2) & s1.notna() & s2.notna()
    return int(ok.sum())


# --------------------------------------------------------------------------- ZIP / Zillow

def b15_zip_value(zip_code: str, year: int, month: int) -> float:
    """ZHVI ``price`` of one ZIP in one month (property_zhvi_zip_monthly.csv)."""
    z = _zhvi()
    v = z[(z["zip"] == str(zip_code)) & (z["Year"] == year) & (z["Month"] == month)]["price"]
    if v.empty or pd.isna(v.iloc[0]):
        raise ValueError("no value")
    return float(v.iloc[0])


def b15_zip_annual_mean(zip_code: str, year: int) -> float:
    """Mean of a ZIP's 12 monthly ZHVI values in ``year`` (non-missing months)."""
    z = _zhvi()
    v = z[(z["zip"] == str(zip_code)) & (z["Year"] == year)]["price"].dropna()
    return float(v.mean())


def _zip_month(year: int, month: int) -> pd.Series:
    z = _zhvi()
    return z[(z["Year"] == year) & (z["Month"] == month)].set_index("zip")["price"].dropna()


def _zip_change(y1, m1, y2, m2) -> pd.Series:
    a, b = _zip_month(y1, m1), _zip_month(y2, m2)
    return (100.0 * (b - a) / a).dropna()


def _rank_series(s: pd.Series, rank: int, top: bool):
    df = pd.DataFrame({"v": s.values, "k": s.index}).sort_values(["v", "k"], ascending=[not top, True])
    vals = list(df["v"])
    i = rank - 1
    if (i > 0 and vals[i - 1] == vals[i]) or (i + 1 < len(vals) and vals[i + 1] == vals[i]):
        raise ValueError("tie")
    return df["k"].iloc[i], float(df["v"].iloc[i])


def b15_zip_rank(year: int, month: int, rank: int = 1, top: bool = True) -> str:
    """ZIP (string) at position ``rank`` by ZHVI in that month (top=True: highest)."""
    return str(_rank_series(_zip_month(year, month), rank, top)[0])


def b15_zip_change_pct(zip_code: str, y1: int, m1: int, y2: int, m2: int) -> float:
    """100 * (ZHVI in y2-m2 - ZHVI in y1-m1) / ZHVI in y1-m1 for one ZIP."""
    a = b15_zip_value(zip_code, y1, m1)
    b = b15_zip_value(zip_code, y2, m2)
    return float(100.0 * (b - a) / a)


def b15_zip_change_rank(y1: int, m1: int, y2: int, m2: int, rank: int = 1, top: bool = True) -> str:
    """ZIP at position ``rank`` by percent ZHVI change between the two months (ZIPs with both
    values only; top=True: biggest rise)."""
    return str(_rank_series(_zip_change(y1, m1, y2, m2), rank, top)[0])


def b15_zip_change_rank_value(y1: int, m1: int, y2: int, m2: int, rank: int = 1, top: bool = True) -> float:
    """Percent change of the ZIP returned by b15_zip_change_rank with the same arguments."""
    return _rank_series(_zip_change(y1, m1, y2, m2), rank, top)[1]


def b15_zip_count(year: int, month: int, op: str, thr: float) -> int:
    """Number of ZIPs in the Zillow file whose ZHVI that month satisfies ``op thr``."""
    return int(_op(_zip_month(year, month), op, thr).sum())


def b15_zip_main_area(zip_code: str) -> str:
    """Community area with the largest share_of_zip for this ZIP in the crosswalk."""
    x = _xwalk()
    x = x[x["zip"] == str(zip_code)].sort_values("share_of_zip", ascending=False)
    return _name(int(x.iloc[0]["area_number"]))


def b15_zip_main_area_value(zip_code: str, spec: str):
    """Measure ``spec`` for the ZIP's main community area (b15_zip_main_area)."""
    name = b15_zip_main_area(zip_code)
    v = b15_measure(name, spec)
    if spec.split(":")[0] in ("hom", "acs", "pop2010", "popchg"):
        return int(round(v))
    return v


def b15_area_zip_count(area) -> int:
    """Number of ZIPs listed for the community area in the crosswalk (slivers already dropped)."""
    x = _xwalk()
    return int((x["area_number"] == _ca(area)).sum())


def b15_zip_rank_area_value(year: int, month: int, rank: int, top: bool, spec: str):
    """``spec`` for the main community area of the ZIP at position ``rank`` by ZHVI that month."""
    return b15_zip_main_area_value(b15_zip_rank(year, month, rank, top), spec)


def b15_hv_annual_mean(area, year: int) -> float:
    """Mean over the 12 months of ``year`` of the community-area home value (hv:YYYY-MM)."""
    vals = [_hv_month(year, m).loc[_ca(area)] for m in range(1, 13)]
    return float(pd.Series(vals).mean())


# --------------------------------------------------------------------------- IHS / Redfin

@functools.lru_cache(maxsize=None)
def _ihs() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


def b15_ihs_index(submarket: str, yearq: str) -> float:
    """DePaul IHS price index (2000Q1 = 100) for ``submarket`` (submarket_code like CHICAGO or
    p3165, or submarket_name) in quarter ``yearq`` (e.g. "2020Q1"),
    property_ihs_price_index_long.csv index_2000q1_100."""
    l = _ihs()
    m = l[((l["submarket_code"] == submarket) | (l["submarket_name"] == submarket)) & (l["yearq"] == yearq)]
    return float(m["index_2000q1_100"].iloc[0])


def b15_ihs_rank(yearq: str, rank: int = 1, top: bool = True, chicago_only: bool = True) -> str:
    """Name of the submarket at position ``rank`` by IHS index in ``yearq`` among the Chicago
    submarkets (names starting "Chicago--"; the CHICAGO total excluded), name without the
    "Chicago--" prefix."""
    l = _ihs()
    l = l[l["yearq"] == yearq]
    if chicago_only:
        l = l[l["submarket_name"].str.startswith("Chicago--")]
    s = l.set_index("submarket_name")["index_2000q1_100"]
    k, _ = _rank_series(s, rank, top)
    return str(k).replace("Chicago--", "")


def b15_ihs_pct_change(submarket: str, q1: str, q2: str) -> float:
    """100 * (index in q2 - index in q1) / index in q1 for one IHS submarket."""
    a, b = b15_ihs_index(submarket, q1), b15_ihs_index(submarket, q2)
    return float(100.0 * (b - a) / a)


def b15_ihs_summary(submarket_name: str, column: str) -> float:
    """Cell of property_ihs_price_index_summary_2025q4.csv for the row whose Sub Market equals
    ``submarket_name`` (e.g. "Chicago--Lake View/Lincoln Park"), parsed to a number:
    percentages like "7.8%" -> 7.8, prices like " $1,528,000 " -> 1528000.0."""
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv", dtype=str)
    row = s[s["Sub Market"].str.strip() == submarket_name].iloc[0]
    txt = str(row[column]).strip().replace("$", "").replace(",", "").replace("%", "")
    return float(txt)


@functools.lru_cache(maxsize=None)
def _redfin() -> pd.DataFrame:
    r = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["begin"] = pd.to_datetime(r["Period Begin"], format="%m/%d/%Y")
    return r


def b15_redfin(region: str, period_begin: str, column: str):
    """Value of ``column`` in property_redfin_neighborhoods.csv for Region ``region`` (e.g.
    "Chicago, IL" = the city, monthly rows) and Period Begin ``period_begin`` (YYYY-MM-DD).
    Numbers come back as int when integral; the display string of Median Sale Price
    ("$300K", "$1.2M") is parsed to dollars (300000)."""
    r = _redfin()
    m = r[(r["Region"] == region) & (r["begin"] == pd.Timestamp(period_begin))]
    v = m[column].iloc[0]
    if isinstance(v, str):
        t = v.strip().replace("$", "").replace(",", "")
        mult = 1
        if t.endswith("K"):
            mult, t = 1000, t[:-1]
        elif t.endswith("M"):
            mult, t = 1000000, t[:-1]
        v = float(t) * mult
    v = float(v)
    return int(v) if v.is_integer() else v


def b15_redfin_year_sum(region: str, year: int, column: str) -> int:
    """Sum of ``column`` over the monthly rows (Period Duration 30) of ``region`` whose Period
    Begin falls in ``year``."""
    r = _redfin()
    m = r[(r["Region"] == region) & (r["begin"].dt.year == year) & (r["Period Duration"] == 30)]
    return int(m[column].sum())


def b15_iucr_count(primary: str) -> int:
    """Number of rows in iucr_codes.csv with PRIMARY DESCRIPTION == ``primary``."""
    i = pd.read_csv(data_dir() / "iucr_codes.csv", dtype=str)
    return int((i["PRIMARY DESCRIPTION"] == primary).sum())
