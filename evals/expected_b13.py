"""Blind held-out set 13: expected values computed straight from the raw CSVs with pandas.

Self-contained: only ``data_dir`` is imported from evals.expected (to locate the CSV folder).

Measure specs (``by``/``of``/``m1``/``m2`` arguments) are dicts ``{"m": <name>, ...}``:
  socioeconomic 2008-2012: per_capita_income, poverty, unemployment, no_diploma, crowded,
      dependency, hardship
  ACS 2019-2023: population (total_population), pop2010 (2010 census), any raw census_acs column as
      a count (e.g. "black_or_african_american", "_125_000"), and shares in percent:
      share:<col> (share of residents, base total_population), hh_share:<band> (share of households,
      base = sum of the five income bands), age_share:<bands> (bands joined by '+', both sexes,
      e.g. "65" or "0_to_17"), age_count:<bands>
  hom: homicide count, years y0..y1 (y1 defaults to y0), optional domestic/arrest filters
  rate: homicides per 100,000 per year over y0..y1 (ACS pop for years >= 2016, 2010 pop <= 2015;
      a span is summed homicides / summed person-years)
  zhvi: community-area home value in year/month (ZIP ZHVI weighted by the crosswalk's
      share_of_community_area, over ZIPs that have a value)
  zhvi_pct: % change of zhvi between (ya, ma) and (yb, mb)
  hom_change: hom(y1) - hom(y0)
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from evals.expected import data_dir

SOCIO = {
    "per_capita_income": "PER CAPITA INCOME",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployment": "PERCENT AGED 16+ UNEMPLOYED",
    "no_diploma": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "crowded": "PERCENT OF HOUSING CROWDED",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "hardship": "HARDSHIP INDEX",
}
BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
SPECIAL_NAMES = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}


# ---------------------------------------------------------------- loaders
@functools.lru_cache(maxsize=1)
def _areas() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "community_areas.csv")
    df["name"] = df["community"].map(lambda s: SPECIAL_NAMES.get(s, s.title()))
    return df.set_index("area_number")


def _name(num) -> str:
    return _areas().loc[int(num), "name"]


def _num(area: str) -> int:
    key = area.upper().replace("'", "").replace("’", "").strip()
    a = _areas()
    hit = a.index[a["community"].str.upper() == key]
    if len(hit) != 1:
        raise KeyError(area)
    return int(hit[0])


@functools.lru_cache(maxsize=1)
def _hom() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "homicides.csv", dtype={"IUCR": str})
    dt = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p")
    df["dt"] = dt
    df["year"] = dt.dt.year
    df["month"] = dt.dt.month
    df["hour"] = dt.dt.hour
    df["weekday"] = dt.dt.day_name()
    df["area"] = pd.to_numeric(df["Community Area"], errors="coerce")
    df["ward_n"] = pd.to_numeric(df["Ward"], errors="coerce")
    df["district_n"] = pd.to_numeric(df["District"], errors="coerce")
    df["arrest_b"] = df["Arrest"].astype(str).str.lower().eq("true")
    df["domestic_b"] = df["Domestic"].astype(str).str.lower().eq("true")
    return df


@functools.lru_cache(maxsize=1)
def _socio() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "socioeconomic.csv")
    df.columns = [c.strip() for c in df.columns]
    return df


@functools.lru_cache(maxsize=1)
def _acs() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "census_acs.csv")
    a = _areas().reset_index()
    m = dict(zip(a["community"], a["area_number"]))
    df["area"] = df["community_area"].map(m)
    assert df["area"].notna().all()
    return df.set_index("area").sort_index()


@functools.lru_cache(maxsize=1)
def _pop2010() -> pd.Series:
    df = pd.read_csv(data_dir() / "census_population_2010.csv")
    return df.set_index("NID")["POP2010"].astype(float).sort_index()


@functools.lru_cache(maxsize=1)
def _zhvi() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")


@functools.lru_cache(maxsize=1)
def _xwalk() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")


@functools.lru_cache(maxsize=1)
def _wards() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig")


@functools.lru_cache(maxsize=1)
def _stations() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "police_stations.csv")


# ---------------------------------------------------------------- measures by community area
def _filter_hom(df, domestic=None, arrest=None, location=None):
    if domestic is not None:
        df = df[df["domestic_b"] == bool(domestic)]
    if arrest is not None:
        df = df[df["arrest_b"] == bool(arrest)]
    if location is not None:
        locs = [location] if isinstance(location, str) else list(location)
        df = df[df["Location Description"].isin(locs)]
    return df


def _hom_by_area(y0, y1=None, **flt) -> pd.Series:
    y1 = y0 if y1 is None else y1
    df = _hom()
    df = _filter_hom(df[(df["year"] >= y0) & (df["year"] <= y1) & df["area"].notna()], **flt)
    return df.groupby("area").size().reindex(range(1, 78), fill_value=0).astype(float)


def _pop_years(y0, y1) -> pd.Series:
    acs = _acs()["total_population"].astype(float)
    p10 = _pop2010()
    tot = pd.Series(0.0, index=range(1, 78))
    for y in range(y0, y1 + 1):
        tot = tot + (acs if y >= 2016 else p10).reindex(tot.index)
    return tot


def _age_cols(bands: str):
    cols = []
    for b in bands.split("+"):
        cols += [f"male_{b}", f"female_{b}"]
    return cols


def _zhvi_ca(year, month) -> pd.Series:
    z = _zhvi()
    z = z[(z["Year"] == year) & (z["Month"] == month)].dropna(subset=["price"])
    price = z.set_index("RegionName")["price"]
    x = _xwalk()
    x = x[x["zip"].isin(price.index)].copy()
    x["v"] = x["zip"].map(price) * x["share_of_community_area"]
    g = x.groupby("area_number")
    return (g["v"].sum() / g["share_of_community_area"].sum()).reindex(range(1, 78))


def _measure(spec) -> pd.Series:
    spec = dict(spec)
    m = spec.pop("m")
    if m in SOCIO:
        s = _socio()
        s = s[s["Community Area Number"].notna()]
        return s.set_index(s["Community Area Number"].astype(int))[SOCIO[m]].astype(float).sort_index()
    if m == "population":
        return _acs()["total_population"].astype(float)
    if m == "pop2010":
        return _pop2010()
    if m == "hom":
        return _hom_by_area(**spec)
    if m == "hom_change":
        return _hom_by_area(spec["y1"]) - _hom_by_area(spec["y0"])
    if m == "rate":
        y0 = spec["y0"]
        y1 = spec.get("y1", y0)
        flt = {k: v for k, v in spec.items() if k not in ("y0", "y1")}
        return _hom_by_area(y0, y1, **flt) / _pop_years(y0, y1) * 1e5
    if m == "zhvi":
        return _zhvi_ca(spec["year"], spec["month"])
    if m == "zhvi_pct":
        a = _zhvi_ca(spec["ya"], spec["ma"])
        b = _zhvi_ca(spec["yb"], spec["mb"])
        return (b / a - 1) * 100
    acs = _acs()
    if m.startswith("share:"):
        return acs[m[6:]].astype(float) / acs["total_population"].astype(float) * 100
    if m.startswith("hh_share:"):
        return acs[m[9:].split("+")].astype(float).sum(axis=1) / acs[BANDS].astype(float).sum(axis=1) * 100
    if m.startswith("age_share:"):
        return acs[_age_cols(m[10:])].astype(float).sum(axis=1) / acs["total_population"].astype(float) * 100
    if m.startswith("age_count:"):
        return acs[_age_cols(m[10:])].astype(float).sum(axis=1)
    if m in acs.columns:
        return acs[m].astype(float)
    raise KeyError(m)


def _fmt(v, spec):
    m = spec["m"]
    if m in ("hom", "hom_change", "population", "pop2010", "per_capita_income", "hardship", "zhvi") \
            or m.startswith("age_count:") or m in BANDS or m in _acs().columns:
        return int(round(float(v)))
    return round(float(v), 1)


def _ranked(by, asc=False, exclude=None, among=None) -> pd.Series:
    s = _measure(by).dropna()
    if exclude:
        s = s.drop([_num(a) for a in exclude])
    if among is not None:
        s = s[s.index.isin(_set(**among))]
    return s.sort_values(ascending=asc, kind="mergesort")


def _set(by, n=None, asc=False, op=None, value=None, exclude=None, among=None):
    """Areas from a ranking (n) or a threshold (op, value)."""
    s = _ranked(by, asc, exclude, among)
    if n is not None:
        return list(s.index[:n])
    ops = {">": s > value, ">=": s >= value, "<": s < value, "<=": s <= value}
    return list(s.index[ops[op]])


# ---------------------------------------------------------------- public functions (area level)
def b13_area_value(area, of):
    """A measure for one named community area."""
    return _fmt(_measure(of).loc[_num(area)], of)


def b13_area_diff(a, b, of):
    """Measure of area a minus area b."""
    s = _measure(of)
    return _fmt(s.loc[_num(a)] - s.loc[_num(b)], of)


def b13_rank_name(by, pos=1, asc=False, exclude=None, among=None):
    """Name of the community area at rank ``pos``."""
    return _name(_ranked(by, asc, exclude, among).index[pos - 1])


def b13_rank_value(by, pos=1, asc=False, of=None, exclude=None, among=None):
    """Measure ``of`` (default: the ranking measure) for the area at rank ``pos``."""
    num = _ranked(by, asc, exclude, among).index[pos - 1]
    of = of or by
    return _fmt(_measure(of).loc[num], of)


def b13_set_sum(of, **setkw):
    """Sum of measure ``of`` over a set of areas."""
    ids = _set(**setkw)
    return _fmt(_measure(of).loc[ids].sum(), of)


def b13_set_mean(of, **setkw):
    ids = _set(**setkw)
    return round(float(_measure(of).loc[ids].mean()), 1)


def b13_set_rate(y0, y1=None, **setkw):
    """Pooled homicide rate per 100k per year over a set of areas."""
    y1 = y0 if y1 is None else y1
    ids = _set(**setkw)
    return round(float(_hom_by_area(y0, y1).loc[ids].sum() / _pop_years(y0, y1).loc[ids].sum() * 1e5), 1)


def b13_set_count(**setkw):
    return len(_set(**setkw))


def b13_set_share(of, **setkw):
    """Share (%) of the 77-area total of ``of`` that falls in the set."""
    s = _measure(of)
    ids = _set(**setkw)
    return round(float(s.loc[ids].sum() / s.sum() * 100), 1)


def b13_set_share_of_city_hom(y0, y1=None, **setkw):
    """Share (%) of ALL homicides of the year(s) (city total incl. unassigned rows) in the set."""
    y1 = y0 if y1 is None else y1
    h = _hom()
    tot = ((h["year"] >= y0) & (h["year"] <= y1)).sum()
    ids = _set(**setkw)
    return round(float(_hom_by_area(y0, y1).loc[ids].sum() / tot * 100), 1)


def b13_corr(m1, m2, method="pearson"):
    a = _measure(m1)
    b = _measure(m2)
    df = pd.concat([a, b], axis=1).dropna()
    return round(float(df.iloc[:, 0].corr(df.iloc[:, 1], method=method)), 2)


# ---------------------------------------------------------------- city / district / ward counts
def _hom_filtered(year=None, y0=None, y1=None, month=None, day=None, weekday=None, hour_from=None, hour_to=None,
                  domestic=None, arrest=None, location=None, district=None, ward=None, area=None,
                  exclude_location=None, date_from=None, date_to=None):
    df = _hom()
    if year is not None:
        df = df[df["year"] == year]
    if y0 is not None:
        df = df[(df["year"] >= y0) & (df["year"] <= (y1 if y1 is not None else y0))]
    if month is not None:
        ms = [month] if isinstance(month, int) else list(month)
        df = df[df["month"].isin(ms)]
    if day is not None:
        df = df[df["dt"].dt.day == day]
    if weekday is not None:
        wd = [weekday] if isinstance(weekday, str) else list(weekday)
        df = df[df["weekday"].isin(wd)]
    if hour_from is not None:
        if hour_from <= hour_to:
            df = df[(df["hour"] >= hour_from) & (df["hour"] < hour_to)]
        else:
            df = df[(df["hour"] >= hour_from) | (df["hour"] < hour_to)]
    if district is not None:
        df = df[df["district_n"] == district]
    if ward is not None:
        df = df[df["ward_n"] == ward]
    if area is not None:
        df = df[df["area"] == _num(area)]
    if exclude_location is not None:
        ex = [exclude_location] if isinstance(exclude_location, str) else list(exclude_location)
        df = df[~df["Location Description"].isin(ex)]
    if date_from is not None:
        df = df[df["dt"] >= pd.Timestamp(date_from)]
    if date_to is not None:
        df = df[df["dt"] < pd.Timestamp(date_to)]
    return _filter_hom(df, domestic=domestic, arrest=arrest, location=location)


def b13_count(**kw):
    """Homicide count with filters (year/y0..y1/month/weekday/hours/domestic/arrest/location/district/ward/area)."""
    return int(len(_hom_filtered(**kw)))


def b13_pct(num, den):
    """Percent: count(num filters) / count(den filters) x 100."""
    return round(len(_hom_filtered(**num)) / len(_hom_filtered(**den)) * 100, 1)


def b13_pct_change(a, b):
    """% change from count(a filters) to count(b filters)."""
    return round((len(_hom_filtered(**b)) / len(_hom_filtered(**a)) - 1) * 100, 1)


def b13_diff(a, b):
    """count(b filters) - count(a filters)."""
    return int(len(_hom_filtered(**b)) - len(_hom_filtered(**a)))


def _group(key, rank_by_kw):
    df = _hom_filtered(**rank_by_kw)
    return df.groupby(key).size().sort_values(ascending=False, kind="mergesort")


def b13_top_group(key, pos=1, value=False, asc=False, **kw):
    """Group (weekday / month / hour / Location Description / district_n / ward_n / year) at rank pos."""
    g = _group(key, kw)
    if asc:
        g = g.sort_values(ascending=True, kind="mergesort")
    k = g.index[pos - 1]
    if value:
        return int(g.iloc[pos - 1])
    if key in ("district_n", "ward_n", "year", "hour", "month"):
        return int(k)
    if key == "Location Description":
        return str(k).lower()
    return str(k)


def b13_month_name(month):
    return pd.Timestamp(2000, month, 1).month_name()


def b13_district_name(district):
    s = _stations()
    s = s[s["DISTRICT"].astype(str).str.strip() == str(district)]
    return str(s["DISTRICT NAME"].iloc[0])


def b13_alder(ward):
    w = _wards()
    return str(w.loc[w["WARD"].astype(int) == int(ward), "ALDERMAN"].iloc[0]).split(",")[0].strip()


def b13_city_rate(y0, y1=None):
    """City homicides per 100,000 per year (all rows; ACS 2019-2023 total for years >= 2016, 2010 census <= 2015)."""
    y1 = y0 if y1 is None else y1
    h = _hom()
    n = ((h["year"] >= y0) & (h["year"] <= y1)).sum()
    py = sum(_acs()["total_population"].sum() if y >= 2016 else _pop2010().sum() for y in range(y0, y1 + 1))
    return round(float(n / py * 1e5), 1)


# ---------------------------------------------------------------- ZIP level
def _zip_series(year, month) -> pd.Series:
    z = _zhvi()
    z = z[(z["Year"] == year) & (z["Month"] == month)].dropna(subset=["price"])
    return z.set_index("RegionName")["price"]


def b13_zip_value(zip, year, month):
    return int(round(float(_zip_series(year, month).loc[int(zip)])))


def b13_zip_change(zip, ya, ma, yb, mb, pct=False):
    a = _zip_series(ya, ma).loc[int(zip)]
    b = _zip_series(yb, mb).loc[int(zip)]
    return round(float((b / a - 1) * 100), 1) if pct else int(round(float(b - a)))


def b13_zip_rank(year, month, pos=1, asc=False, value=False, change_from=None):
    """ZIP at rank pos by value (or by % change from change_from=[y, m] when given)."""
    s = _zip_series(year, month)
    if change_from is not None:
        a = _zip_series(*change_from)
        s = (s / a - 1).dropna() * 100
    s = s.sort_values(ascending=asc, kind="mergesort")
    if value:
        return round(float(s.iloc[pos - 1]), 1) if change_from is not None else int(round(float(s.iloc[pos - 1])))
    return int(s.index[pos - 1])


def b13_zip_count(year, month, op, value):
    s = _zip_series(year, month)
    return int({">": s > value, "<": s < value}[op].sum())


def b13_city_socio(col):
    s = _socio()
    return _fmt(s.loc[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO", SOCIO[col]].iloc[0], {"m": col})
