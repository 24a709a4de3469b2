"""Blind held-out set 14: expected figures computed straight from the raw CSVs in the data folder with pandas.

Self-contained: the only import from the project is ``data_dir`` (evals.expected), to find the CSV folder.
Written without reading the app's code; every figure's definition is in its function's docstring.

Area measures ("x", "of", "by", "x1", "x2" arguments) are dicts ``{"m": <measure>, ...}``, one value per
community area 1-77:

  socioeconomic.csv (2008-2012 ACS, joined on Community Area Number):
      income (per-capita income, $), poverty (% households below poverty), unemployed (% aged 16+
      unemployed), no_hs (% aged 25+ without a high-school diploma), crowded (% housing crowded),
      dependency (% aged under 18 or over 64), hardship (hardship index)
  census_acs.csv (2019-2023 ACS 5-year, joined on the upper-case name in community_areas.csv):
      pop            total_population
      count, col     a raw column as a count (e.g. col="asian", col="_125_000")
      pct, col       100 * col / total_population (e.g. col="black_or_african_american")
      hh_pct, bands  100 * households in the listed income bands / households in all five bands
      age_pct, bands 100 * (male_<band> + female_<band> summed over the listed bands) / total_population
  census_population_2010.csv: pop2010 (POP2010)
      pop_chg        ACS total_population - POP2010 (residents gained, negative = lost)
      pop_pct_chg    100 * (ACS total_population / POP2010 - 1)
  homicides.csv:
      hom, y0[, y1, domestic, arrest, location]   rows (victims) with that Community Area whose Date year is in
                                                  y0..y1 (y1 defaults to y0); domestic/arrest True/False
                                                  filter the Domestic/Arrest columns; location is an exact
                                                  Location Description or a list of them
      rate, y0[, y1]   homicides per 100,000 residents per year: hom(y0..y1) / sum over the years of the
                       population (ACS 2019-2023 total_population for years >= 2016, POP2010 for years
                       <= 2015) * 100,000
      hom_chg, ya, yb  hom(yb) - hom(ya)
      arrest_pct, y0[, y1]  100 * homicides with Arrest True / all homicides of the area in y0..y1 (NaN if none)
  property_zhvi_zip_monthly.csv + community_area_zip_crosswalk.csv:
      zhvi, year, month       community-area home value: sum(share_of_community_area * ZIP price) /
                              sum(share_of_community_area) over the area's crosswalk ZIPs that have a price that
                              month (NaN when none has one: East Side)
      zhvi_pct, ya, ma, yb, mb   100 * (zhvi(yb, mb) / zhvi(ya, ma) - 1)

Rankings drop areas whose measure is NaN and break ties by the lower area number (the questions were checked
for ties at the ranks they ask about). Names are community_areas.csv names in title case ("O'Hare",
"McKinley Park"). Counts (homicides, residents) are returned as int, shares/rates/indexes/correlations as
unrounded floats, dollar values rounded to whole dollars.
"""
from __future__ import annotations

import functools
import operator

import pandas as pd

from evals.expected import data_dir

AREAS = range(1, 78)
_SOCIO_COLS = {
    "income": "PER CAPITA INCOME",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "no_hs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "crowded": "PERCENT OF HOUSING CROWDED",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "hardship": "HARDSHIP INDEX",
}
_INCOME_BANDS = ("under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000")
_OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "==": operator.eq}
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]


# ------------------------------------------------------------------------------------------- raw tables
def _csv(name: str, **kw) -> pd.DataFrame:
    return pd.read_csv(data_dir() / name, **kw)


@functools.lru_cache(maxsize=None)
def _lookup() -> pd.DataFrame:
    t = _csv("community_areas.csv").set_index("area_number")
    fixed = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    t["pretty"] = [fixed.get(c, c.title()) for c in t["community"]]
    return t


def area_name(number) -> str:
    return _lookup().at[int(number), "pretty"]


def area_number(area) -> int:
    if isinstance(area, (int, float)):
        return int(area)
    want = str(area).upper().replace("'", "").replace("\u2019", "").strip()
    t = _lookup()
    hits = [n for n, c in t["community"].items() if c.upper() == want]
    if len(hits) != 1:
        raise KeyError(f"unknown community area {area!r}")
    return hits[0]


@functools.lru_cache(maxsize=None)
def _homicides() -> pd.DataFrame:
    h = _csv("homicides.csv", dtype=str)
    when = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    return pd.DataFrame({
        "when": when,
        "year": when.dt.year,
        "month": when.dt.month,
        "hour": when.dt.hour,
        "dow": when.dt.day_of_week,  # Monday = 0
        "area": pd.to_numeric(h["Community Area"], errors="coerce"),
        "ward": pd.to_numeric(h["Ward"], errors="coerce"),
        "district": pd.to_numeric(h["District"], errors="coerce"),
        "arrest": h["Arrest"].str.strip().str.lower() == "true",
        "domestic": h["Domestic"].str.strip().str.lower() == "true",
        "location": h["Location Description"].fillna(""),
    })


@functools.lru_cache(maxsize=None)
def _socio() -> pd.DataFrame:
    s = _csv("socioeconomic.csv")
    s = s.rename(columns=lambda c: c.strip())
    s = s[s["Community Area Number"].notna()].copy()
    s.index = s["Community Area Number"].astype(int)
    return s


@functools.lru_cache(maxsize=None)
def _acs() -> pd.DataFrame:
    a = _csv("census_acs.csv")
    num = {c: n for n, c in _lookup()["community"].items()}
    a.index = a["community_area"].map(num)
    if a.index.isna().any():
        raise ValueError("census_acs name without a community-area number")
    a.index = a.index.astype(int)
    return a.sort_index()


@functools.lru_cache(maxsize=None)
def _pop2010() -> pd.Series:
    p = _csv("census_population_2010.csv")
    return pd.Series(p["POP2010"].astype(float).values, index=p["NID"].astype(int)).sort_index()


@functools.lru_cache(maxsize=None)
def _zillow() -> pd.DataFrame:
    z = _csv("property_zhvi_zip_monthly.csv")
    return z[["RegionName", "Year", "Month", "price"]].rename(columns={"RegionName": "zip"})


@functools.lru_cache(maxsize=None)
def _crosswalk() -> pd.DataFrame:
    return _csv("community_area_zip_crosswalk.csv")


# ------------------------------------------------------------------------------------------- homicide rows
def _rows(y0=None, y1=None, *, area=None, ward=None, district=None, months=None, domestic=None, arrest=None,
          location=None, hours=None, weekdays=None) -> pd.DataFrame:
    h = _homicides()
    keep = pd.Series(True, index=h.index)
    if y0 is not None:
        keep &= h["year"].between(int(y0), int(y0 if y1 is None else y1))
    if area is not None:
        keep &= h["area"] == area_number(area)
    if ward is not None:
        keep &= h["ward"] == int(ward)
    if district is not None:
        keep &= h["district"] == int(district)
    if months is not None:
        keep &= h["month"].isin([int(m) for m in months])
    if domestic is not None:
        keep &= h["domestic"] == bool(domestic)
    if arrest is not None:
        keep &= h["arrest"] == bool(arrest)
    if location is not None:
        keep &= h["location"].isin([location] if isinstance(location, str) else list(location))
    if hours is not None:  # [first_hour, last_hour] inclusive, may wrap midnight, e.g. [22, 3]
        a, b = int(hours[0]), int(hours[1])
        keep &= h["hour"].between(a, b) if a <= b else (h["hour"] >= a) | (h["hour"] <= b)
    if weekdays is not None:  # 0 = Monday
        keep &= h["dow"].isin([int(d) for d in weekdays])
    return h[keep]


def _person_years(y0, y1) -> pd.Series:
    acs = _acs()["total_population"].astype(float).reindex(AREAS)
    p10 = _pop2010().reindex(AREAS)
    out = pd.Series(0.0, index=AREAS)
    for y in range(int(y0), int(y1) + 1):
        out = out + (acs if y >= 2016 else p10)
    return out


def _hom_area(y0, y1=None, **flt) -> pd.Series:
    r = _rows(y0, y1, **flt)
    r = r[r["area"].notna()]
    return r.groupby(r["area"].astype(int)).size().reindex(AREAS, fill_value=0).astype(float)


# ------------------------------------------------------------------------------------------- area measures
def _zhvi_area(year, month) -> pd.Series:
    z = _zillow()
    z = z[(z["Year"] == int(year)) & (z["Month"] == int(month)) & z["price"].notna()]
    x = _crosswalk().merge(z[["zip", "price"]], on="zip", how="inner")
    x["wp"] = x["share_of_community_area"] * x["price"]
    g = x.groupby("area_number")[["wp", "share_of_community_area"]].sum()
    return (g["wp"] / g["share_of_community_area"]).reindex(AREAS)


def measure(spec: dict) -> pd.Series:
    """The measure ``spec`` (see the module docstring) for areas 1-77."""
    m = spec["m"]
    if m in _SOCIO_COLS:
        return _socio()[_SOCIO_COLS[m]].astype(float).reindex(AREAS)
    acs = _acs()
    if m == "pop":
        return acs["total_population"].astype(float).reindex(AREAS)
    if m == "pop2010":
        return _pop2010().reindex(AREAS)
    if m == "pop_chg":
        return acs["total_population"].astype(float).reindex(AREAS) - _pop2010().reindex(AREAS)
    if m == "pop_pct_chg":
        return 100 * (acs["total_population"].astype(float).reindex(AREAS) / _pop2010().reindex(AREAS) - 1)
    if m == "count":
        return acs[spec["col"]].astype(float).reindex(AREAS)
    if m == "pct":
        return (100 * acs[spec["col"]] / acs["total_population"]).reindex(AREAS)
    if m == "hh_pct":
        bands = spec["bands"] if isinstance(spec["bands"], list) else [spec["bands"]]
        return (100 * acs[bands].sum(axis=1) / acs[list(_INCOME_BANDS)].sum(axis=1)).reindex(AREAS)
    if m == "age_pct":
        bands = spec["bands"] if isinstance(spec["bands"], list) else [spec["bands"]]
        cols = [f"{sex}_{b}" for b in bands for sex in ("male", "female")]
        return (100 * acs[cols].sum(axis=1) / acs["total_population"]).reindex(AREAS)
    flt = {k: spec[k] for k in ("domestic", "arrest", "location") if k in spec}
    if m == "hom":
        return _hom_area(spec["y0"], spec.get("y1"), **flt)
    if m == "rate":
        y0, y1 = spec["y0"], spec.get("y1", spec["y0"])
        return 100000 * _hom_area(y0, y1) / _person_years(y0, y1)
    if m == "hom_chg":
        return _hom_area(spec["yb"]) - _hom_area(spec["ya"])
    if m == "arrest_pct":
        allh = _hom_area(spec["y0"], spec.get("y1"))
        made = _hom_area(spec["y0"], spec.get("y1"), arrest=True)
        return (100 * made / allh).where(allh > 0)
    if m == "zhvi":
        return _zhvi_area(spec["year"], spec["month"])
    if m == "zhvi_pct":
        return 100 * (_zhvi_area(spec["yb"], spec["mb"]) / _zhvi_area(spec["ya"], spec["ma"]) - 1)
    raise KeyError(f"unknown measure {m!r}")


def _ranked(spec: dict, order: str = "desc") -> pd.Series:
    s = measure(spec).dropna()
    frame = pd.DataFrame({"v": s, "n": s.index})
    frame = frame.sort_values(["v", "n"], ascending=[order != "desc", True])
    return frame["v"]


def _top(spec: dict, n: int, order: str = "desc") -> list:
    return list(_ranked(spec, order).index[: int(n)])


def _members(by: dict, op: str, value) -> list:
    s = measure(by)
    return [a for a in AREAS if pd.notna(s[a]) and _OPS[op](s[a], value)]


_COUNTS = ("hom", "hom_chg", "pop", "pop2010", "pop_chg", "count")


def _num(v, spec):
    """Counts as int; every other measure as float (so 29.0 may be written "29" or "29.0")."""
    v = float(v)
    return int(v) if spec["m"] in _COUNTS and v.is_integer() else v


# ------------------------------------------------------------------------------------------- homicide figures
def b14_hom(y0=None, y1=None, **flt):
    """Number of homicide rows (victims) in homicides.csv with Date year in y0..y1 (y1 defaults to y0; no years:
    all rows), optionally filtered: area (community area name or number), ward, district, months (list of 1-12),
    domestic / arrest (True/False on the Domestic / Arrest columns), location (exact Location Description or a
    list), hours ([first, last] hour of the day inclusive, may wrap midnight), weekdays (list, 0 = Monday).
    City figures include rows with no community area."""
    return int(len(_rows(y0, y1, **flt)))


def b14_hom_pct(y0, y1=None, part=None, **flt):
    """Percent of the homicides selected by the filters (as in b14_hom) that also match ``part`` (a dict of
    b14_hom filters, e.g. {"arrest": True}): 100 * count(filters + part) / count(filters)."""
    whole = len(_rows(y0, y1, **flt))
    sub = len(_rows(y0, y1, **{**flt, **(part or {})}))
    return 100.0 * sub / whole


def b14_hom_change_pct(ya, yb, **flt):
    """Percent change in the homicide count (b14_hom with the same filters) from year ya to year yb:
    100 * (count(yb) / count(ya) - 1)."""
    a = len(_rows(ya, **flt))
    b = len(_rows(yb, **flt))
    return 100.0 * (b / a - 1)


def b14_rate(y0, y1=None, area=None):
    """Homicides per 100,000 residents per year over y0..y1 (y1 defaults to y0). For one community area: its
    homicides / summed population of the years * 100,000, population = ACS 2019-2023 total_population for years
    >= 2016, 2010 census POP2010 for years <= 2015. Without an area, the city: all rows (incl. those with no
    community area) over the summed population of all 77 areas on the same rule."""
    y1 = y0 if y1 is None else y1
    if area is None:
        return 100000.0 * len(_rows(y0, y1)) / float(_person_years(y0, y1).sum())
    n = area_number(area)
    return float(100000.0 * len(_rows(y0, y1, area=n)) / float(_person_years(y0, y1)[n]))


def b14_peak(by, y0, y1=None, rank=1, **flt):
    """The ``rank``-th most common value of ``by`` among the homicides selected (b14_hom filters), ties broken by
    the lower value: by = "ward" / "district" (returns the number), "month" (returns the month name), "year",
    "location" (the Location Description), "hour" (0-23), "area" (the community-area name)."""
    r = _rows(y0, y1, **flt)
    col = r[by].dropna()
    counts = col.value_counts()
    frame = pd.DataFrame({"k": counts.index, "c": counts.values}).sort_values(["c", "k"], ascending=[False, True])
    key = frame["k"].iloc[int(rank) - 1]
    if by == "month":
        return _MONTHS[int(key) - 1]
    if by == "area":
        return area_name(key)
    if by == "location":
        return str(key)
    return int(key)


def b14_peak_count(by, y0, y1=None, rank=1, **flt):
    """The homicide count of the value b14_peak returns with the same arguments."""
    r = _rows(y0, y1, **flt)
    counts = r[by].dropna().value_counts()
    frame = pd.DataFrame({"k": counts.index, "c": counts.values}).sort_values(["c", "k"], ascending=[False, True])
    return int(frame["c"].iloc[int(rank) - 1])


def b14_distinct_with(by, y0, y1=None, op=">=", value=1, **flt):
    """How many community areas (by="area", of 1-77) / wards (by="ward", of 1-50) have a homicide count
    (b14_hom filters, y0..y1) satisfying ``op value``; units with no homicide count 0."""
    r = _rows(y0, y1, **flt)
    units = AREAS if by == "area" else range(1, 51)
    counts = r[by].dropna().astype(int).value_counts().reindex(units, fill_value=0)
    return int(sum(_OPS[op](c, value) for c in counts))


def b14_alderman(ward):
    """The surname of the ward's ALDERMAN in ward_offices.csv (2019-2023 council; the file writes "Last, First",
    the part before the comma is returned)."""
    w = _csv("ward_offices.csv", encoding="utf-8-sig")
    return str(w.loc[w["WARD"].astype(int) == int(ward), "ALDERMAN"].iloc[0]).split(",")[0].strip()


def b14_district_name(district):
    """The DISTRICT NAME of the police district in police_stations.csv."""
    p = _csv("police_stations.csv")
    p = p[p["DISTRICT"].astype(str).str.strip() == str(int(district))]
    return str(p["DISTRICT NAME"].iloc[0]).strip()


# ------------------------------------------------------------------------------------------- area figures
def b14_value(x, area, absolute=False):
    """One community area's value of measure ``x`` (see the module docstring); dollar measures (income, zhvi)
    rounded to whole dollars, counts (homicides, residents) as int, other measures as float. absolute=True gives
    the magnitude (a fall of 23 is 23: questions asking "by how many did it drop / how many residents did it
    lose")."""
    v = measure(x)[area_number(area)]
    if absolute:
        v = abs(v)
    if x["m"] in ("income", "zhvi"):
        return int(round(v))
    return _num(v, x)


def b14_city(x):
    """A city-wide figure from the 77 community areas for census measures: pop / pop2010 / count -> sum over the
    areas; pct -> 100 * summed col / summed total_population; hh_pct -> 100 * summed households in the bands /
    summed households in all five bands; age_pct -> summed band residents / summed total_population."""
    m = x["m"]
    acs = _acs()
    if m in ("pop", "pop2010", "count"):
        return int(round(float(measure(x).sum())))
    if m == "pct":
        return float(100.0 * acs[x["col"]].sum() / acs["total_population"].sum())
    if m == "hh_pct":
        bands = x["bands"] if isinstance(x["bands"], list) else [x["bands"]]
        return float(100.0 * acs[bands].sum().sum() / acs[list(_INCOME_BANDS)].sum().sum())
    if m == "age_pct":
        bands = x["bands"] if isinstance(x["bands"], list) else [x["bands"]]
        cols = [f"{sex}_{b}" for b in bands for sex in ("male", "female")]
        return float(100.0 * acs[cols].sum().sum() / acs["total_population"].sum())
    raise KeyError(m)


def b14_rank_name(x, rank=1, order="desc"):
    """Name of the community area at position ``rank`` when areas are sorted by measure ``x`` (order "desc":
    highest first, "asc": lowest first; NaN dropped; ties to the lower area number)."""
    return area_name(_ranked(x, order).index[int(rank) - 1])


def b14_rank_of(x, area, order="desc"):
    """Position (1 = first) of ``area`` among the areas sorted by measure ``x`` (as in b14_rank_name)."""
    return int(list(_ranked(x, order).index).index(area_number(area)) + 1)


def b14_rank_value(of, by, rank=1, order="desc", absolute=False):
    """Measure ``of`` for the community area at position ``rank`` by measure ``by`` (as in b14_rank_name); dollar
    measures rounded to whole dollars; absolute=True gives the magnitude (as in b14_value)."""
    a = _ranked(by, order).index[int(rank) - 1]
    return b14_value(of, int(a), absolute=absolute)


def b14_top_sum(of, by, n, order="desc"):
    """Sum of measure ``of`` over the ``n`` community areas ranked first by measure ``by`` (b14_rank_name)."""
    return _num(measure(of)[_top(by, n, order)].sum(), of)


def b14_top_rate(by, n, y0, y1=None, order="desc"):
    """Pooled homicide rate of the ``n`` areas ranked first by ``by``: their summed homicides y0..y1 / their summed
    person-years (population rule of b14_rate) * 100,000."""
    y1 = y0 if y1 is None else y1
    s = _top(by, n, order)
    return float(100000.0 * _hom_area(y0, y1)[s].sum() / _person_years(y0, y1)[s].sum())


def b14_set_count(by, op, value):
    """How many community areas have measure ``by`` ``op`` ``value`` (NaN areas never count)."""
    return len(_members(by, op, value))


def b14_set_sum(of, by, op, value):
    """Sum of measure ``of`` over the community areas with ``by`` ``op`` ``value``."""
    return _num(measure(of)[_members(by, op, value)].sum(), of)


def b14_set_share(of, by, op, value):
    """Percent of the 77-area total of measure ``of`` that falls in the areas with ``by`` ``op`` ``value``
    (homicides: only rows with a community area are in the total)."""
    s = measure(of)
    return float(100.0 * s[_members(by, op, value)].sum() / s.sum())


def b14_set_mean(of, by, op, value):
    """Plain (unweighted) mean of measure ``of`` over the community areas with ``by`` ``op`` ``value`` that have
    ``of`` defined; dollar measures rounded to whole dollars."""
    v = measure(of)[_members(by, op, value)].dropna().mean()
    return int(round(v)) if of["m"] in ("income", "zhvi") else float(v)


def b14_top_pick(of, by, n, order="desc", pick="desc"):
    """Among the ``n`` community areas ranked first by ``by`` (order), the name of the one with the highest
    (pick "desc") or lowest (pick "asc") measure ``of`` (ties to the lower area number)."""
    s = measure(of)[_top(by, n, order)]
    frame = pd.DataFrame({"v": s, "n": s.index}).sort_values(["v", "n"], ascending=[pick != "desc", True])
    return area_name(frame["n"].iloc[0])


def b14_set_rate(by, op, value, y0, y1=None):
    """Pooled homicide rate of the areas with ``by`` ``op`` ``value``: summed homicides y0..y1 / summed
    person-years (population rule of b14_rate) * 100,000."""
    y1 = y0 if y1 is None else y1
    s = _members(by, op, value)
    return float(100000.0 * _hom_area(y0, y1)[s].sum() / _person_years(y0, y1)[s].sum())


def b14_corr(x1, x2, method="pearson"):
    """Correlation across the community areas where both measures are defined: method "pearson", or "spearman"
    (Pearson correlation of the average ranks)."""
    a, b = measure(x1), measure(x2)
    ok = a.notna() & b.notna()
    a, b = a[ok], b[ok]
    if method == "spearman":  # Pearson on average ranks (no scipy here)
        a, b = a.rank(method="average"), b.rank(method="average")
    elif method != "pearson":
        raise ValueError(method)
    return float(a.corr(b))


# ------------------------------------------------------------------------------------------- ZIP home values
def b14_zip_value(zip, year, month):
    """Zillow ZHVI (all homes, mid tier, smoothed, seasonally adjusted) of the ZIP for that month, whole dollars."""
    z = _zillow()
    v = z.loc[(z["zip"] == int(zip)) & (z["Year"] == int(year)) & (z["Month"] == int(month)), "price"]
    return int(round(float(v.iloc[0])))


def b14_zip_pct(zip, ya, ma, yb, mb):
    """Percent change of a ZIP's ZHVI from (ya, ma) to (yb, mb): 100 * (later / earlier - 1), unrounded prices."""
    z = _zillow().set_index(["zip", "Year", "Month"])["price"]
    return float(100.0 * (z[(int(zip), int(yb), int(mb))] / z[(int(zip), int(ya), int(ma))] - 1))


def b14_zip_avg(zip, year):
    """Mean of a ZIP's monthly ZHVI over the calendar year (months with a price), whole dollars."""
    z = _zillow()
    v = z.loc[(z["zip"] == int(zip)) & (z["Year"] == int(year)), "price"].dropna()
    return int(round(float(v.mean())))


def b14_zip_rank(year, month, rank=1, order="desc"):
    """The ZIP (as a 5-digit string) at position ``rank`` by ZHVI that month among ZIPs with a price."""
    z = _zillow()
    z = z[(z["Year"] == int(year)) & (z["Month"] == int(month)) & z["price"].notna()]
    z = z.sort_values(["price", "zip"], ascending=[order != "desc", True])
    return str(int(z["zip"].iloc[int(rank) - 1]))


def b14_zip_rank_pct(ya, ma, yb, mb, rank=1, order="desc"):
    """The ZIP (5-digit string) at position ``rank`` by percent change of ZHVI from (ya, ma) to (yb, mb), among
    ZIPs with a price in both months."""
    z = _zillow().set_index(["zip", "Year", "Month"])["price"]
    a = z.xs((int(ya), int(ma)), level=["Year", "Month"])
    b = z.xs((int(yb), int(mb)), level=["Year", "Month"])
    pct = (100 * (b / a - 1)).dropna()
    frame = pd.DataFrame({"p": pct, "z": pct.index}).sort_values(["p", "z"], ascending=[order != "desc", True])
    return str(int(frame["z"].iloc[int(rank) - 1]))


def b14_zip_count(year, month, op, value):
    """How many ZIPs in the Zillow file have a ZHVI ``op`` ``value`` that month."""
    z = _zillow()
    z = z[(z["Year"] == int(year)) & (z["Month"] == int(month)) & z["price"].notna()]
    return int(_OPS[op](z["price"], value).sum())
