"""Independent pandas reference answers for composed, cross-domain questions
about the Chicago public-data files in /work/shared/data.

Written only from the raw CSVs and PROVENANCE.md (no project code was read).
Every ``expected`` function recomputes its answer straight from the CSVs.

Conventions used throughout (repeated in each definition where it matters):

* Homicides: ``homicides.csv``, one row per victim (IUCR 0110 only), counted
  as rows. Year = the ``Year`` column (it agrees with the year parsed from
  ``Date`` on every row). Month = parsed from ``Date`` ("%m/%d/%Y %I:%M:%S %p").
  Community area = ``Community Area`` float string ("16.0" -> 16). The 380
  rows with no area (202 in 2001, 142 in 2002, 18 in 2003, 18 in 2004) are
  left out of per-area figures but counted in city totals. Ward / District
  are float strings too ("33.0" -> 33). Data end 2023-07-19 (2023 partial).
* Areas are identified by community area NUMBER 1-77; names come from
  ``community_areas.csv`` ``community`` (UPPER CASE).
* Socioeconomic measures: ``socioeconomic.csv`` (2008-2012 ACS), the
  ``CHICAGO`` total row (blank area number) is dropped; the column
  ``"PER CAPITA INCOME "`` has a trailing space.
* "ACS population": ``census_acs.csv`` ``total_population`` (2019-2023 ACS),
  joined by name to ``community_areas.csv`` ``community``.
  "2010 population": ``census_population_2010.csv`` ``POP2010`` by ``NID``.
* Rankings: ties broken by lower area number first (none of the rankings used
  here actually has a tie at its cut-off unless said otherwise).
* Rates are homicides per 100,000 residents; multi-year rates are per year
  (count / number of years / population * 100,000).
* ZHVI for a community area = crosswalk-weighted mean of the ZIP ZHVI values
  for the month: sum(share_of_community_area * zhvi) / sum(share_of_community_area)
  over the area's crosswalk ZIPs that have a (non-NA) ZHVI value that month
  (ZIPs 60617, 60666, 60707, 60827 are not in the ZHVI file). ``None`` when
  no ZIP of the area has a value (area 52 EAST SIDE).
"""

from __future__ import annotations

import os
import time
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

DATA = Path(os.environ.get("CHIQA_DATA_DIR", Path(__file__).resolve().parents[2] / "shared" / "data"))

AREAS = list(range(1, 78))


# --------------------------------------------------------------------------
# loaders
# --------------------------------------------------------------------------

def _py(x):
    """numpy / pandas scalars -> plain python (NaN -> None)."""
    if x is None:
        return None
    if isinstance(x, (list, tuple)):
        return [_py(v) for v in x]
    if isinstance(x, dict):
        return {_py(k): _py(v) for k, v in x.items()}
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        return None if np.isnan(x) else float(x)
    if x is pd.NA:
        return None
    return x


@lru_cache(maxsize=None)
def _hom() -> pd.DataFrame:
    h = pd.read_csv(DATA / "homicides.csv", dtype=str)
    out = pd.DataFrame(
        {
            "id": h["ID"],
            "year": h["Year"].astype(int),
            "date": pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p"),
            "area": pd.to_numeric(h["Community Area"]).astype("Int64"),
            "ward": pd.to_numeric(h["Ward"]).astype("Int64"),
            "district": pd.to_numeric(h["District"]).astype("Int64"),
        }
    )
    out["month"] = out["date"].dt.month
    return out


@lru_cache(maxsize=None)
def _names() -> dict:
    c = pd.read_csv(DATA / "community_areas.csv")
    return dict(zip(c["area_number"].astype(int), c["community"]))


@lru_cache(maxsize=None)
def _socio() -> pd.DataFrame:
    s = pd.read_csv(DATA / "socioeconomic.csv")
    s.columns = [c.strip() for c in s.columns]
    s = s[s["Community Area Number"].notna()].copy()
    s["area"] = s["Community Area Number"].astype(int)
    s = s.set_index("area").sort_index()
    return s.rename(
        columns={
            "COMMUNITY AREA NAME": "name",
            "PERCENT OF HOUSING CROWDED": "crowded",
            "PERCENT HOUSEHOLDS BELOW POVERTY": "poverty",
            "PERCENT AGED 16+ UNEMPLOYED": "unemployed",
            "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA": "no_hs",
            "PERCENT AGED UNDER 18 OR OVER 64": "dependency",
            "PER CAPITA INCOME": "income",
            "HARDSHIP INDEX": "hardship",
        }
    )


def _sm(col: str) -> pd.Series:
    return _socio()[col]


@lru_cache(maxsize=None)
def _acs() -> pd.DataFrame:
    a = pd.read_csv(DATA / "census_acs.csv")
    rev = {v: k for k, v in _names().items()}
    a["area"] = a["community_area"].map(rev)
    assert a["area"].notna().all()
    a["area"] = a["area"].astype(int)
    return a.set_index("area").sort_index()


def _acs_pop() -> pd.Series:
    return _acs()["total_population"].astype(int)


@lru_cache(maxsize=None)
def _pop2010() -> pd.Series:
    p = pd.read_csv(DATA / "census_population_2010.csv")
    return p.set_index(p["NID"].astype(int))["POP2010"].astype(int).sort_index()


def _years(a: int, b: int | None = None) -> tuple:
    return tuple(range(a, (b if b is not None else a) + 1))


def _counts(years=None) -> pd.Series:
    """Homicides per community area (1..77, zero-filled) for the given years (None = all)."""
    h = _hom()
    if years is not None:
        h = h[h["year"].isin(list(years))]
    h = h[h["area"].notna()]
    return h.groupby(h["area"].astype(int)).size().reindex(AREAS, fill_value=0).astype(int)


def _city_count(years=None) -> int:
    h = _hom()
    if years is not None:
        h = h[h["year"].isin(list(years))]
    return int(len(h))


def _rank(s: pd.Series, n: int, highest: bool = True) -> list:
    """Top/bottom n index labels of s; ties broken by the lower label (area number)."""
    df = pd.DataFrame({"k": s.index, "v": s.values}).dropna(subset=["v"])
    df = df.sort_values(["v", "k"], ascending=[not highest, True], kind="mergesort")
    return [_py(k) for k in df["k"].head(n)]


def _rate(years, pop: pd.Series) -> pd.Series:
    return _counts(years) / len(years) / pop.reindex(AREAS) * 100000.0


def pooled_rate(areas, years) -> float:
    """A set's homicides over its summed ACS 2019-2023 population, per 100,000 a year."""
    return _counts(years)[areas].sum() / (_acs_pop()[areas].sum() * len(years)) * 100000.0


@lru_cache(maxsize=None)
def _zhvi_long() -> pd.DataFrame:
    z = pd.read_csv(DATA / "property_zhvi_zip_monthly.csv", dtype={"RegionName": str})
    z["zip"] = z["RegionName"].str.zfill(5)
    return z


def _zhvi(year: int, month: int) -> pd.Series:
    z = _zhvi_long()
    z = z[(z["Year"] == year) & (z["Month"] == month)]
    return z.set_index("zip")["price"]


@lru_cache(maxsize=None)
def _xwalk() -> pd.DataFrame:
    x = pd.read_csv(DATA / "community_area_zip_crosswalk.csv", dtype={"zip": str})
    x["zip"] = x["zip"].str.zfill(5)
    x["area_number"] = x["area_number"].astype(int)
    return x


def _ca_zhvi(year: int = 2024, month: int = 9) -> pd.Series:
    """Crosswalk-weighted ZHVI per area (weights = share_of_community_area, renormalised over ZIPs with a value)."""
    x = _xwalk().copy()
    x["p"] = x["zip"].map(_zhvi(year, month))
    x = x[x["p"].notna()]
    num = (x["share_of_community_area"] * x["p"]).groupby(x["area_number"]).sum()
    den = x["share_of_community_area"].groupby(x["area_number"]).sum()
    return (num / den).reindex(AREAS)


@lru_cache(maxsize=None)
def _wards() -> pd.DataFrame:
    w = pd.read_csv(DATA / "ward_offices.csv", encoding="utf-8-sig", dtype=str)
    w["ward"] = w["WARD"].astype(int)
    return w.set_index("ward")


@lru_cache(maxsize=None)
def _stations() -> pd.DataFrame:
    return pd.read_csv(DATA / "police_stations.csv", dtype=str)


@lru_cache(maxsize=None)
def _redfin() -> pd.DataFrame:
    r = pd.read_csv(DATA / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["begin"] = pd.to_datetime(r["Period Begin"], format="%m/%d/%Y")
    r["neighborhood"] = r["Region"].str.replace("Chicago, IL - ", "", regex=False)
    return r


REDFIN_SIDES = {
    "Far North Side", "North Side", "Northwest Side", "West Side", "Central Chicago",
    "South Side", "Southwest Side", "Far Southwest Side", "Far Southeast Side",
}


def _redfin_neighborhoods() -> pd.DataFrame:
    """90-day neighbourhood rows, excluding the city/metro rows and Redfin's 9 'side' aggregates."""
    r = _redfin()
    r = r[r["Region"].str.startswith("Chicago, IL - ") & (r["Period Duration"] == 90)]
    return r[~r["neighborhood"].isin(REDFIN_SIDES)]


def _price_k(s: pd.Series) -> pd.Series:
    """'$1,187K' -> 1187000.0"""
    return s.str.replace("$", "", regex=False).str.replace(",", "", regex=False).str.rstrip("K").astype(float) * 1000.0


def _areas_out(areas: list) -> dict:
    n = _names()
    return {"areas": areas, "names": [n[a] for a in areas]}


# --------------------------------------------------------------------------
# ranking_set_sum
# --------------------------------------------------------------------------

def rss_hardship_top10_homicides_2021():
    areas = _rank(_sm("hardship"), 10, True)
    return {**_areas_out(areas), "total": int(_counts([2021])[areas].sum())}


def rss_income_bottom10_homicides_2019_2022():
    areas = _rank(_sm("income"), 10, False)
    return {**_areas_out(areas), "total": int(_counts(_years(2019, 2022))[areas].sum())}


def rss_poverty_top5_homicides_all():
    areas = _rank(_sm("poverty"), 5, True)
    return {**_areas_out(areas), "total": int(_counts(None)[areas].sum())}


def rss_income_top10_homicides_2020():
    areas = _rank(_sm("income"), 10, True)
    return {**_areas_out(areas), "total": int(_counts([2020])[areas].sum())}


def rss_population_top5_homicides_2022():
    areas = _rank(_acs_pop(), 5, True)
    return {**_areas_out(areas), "total": int(_counts([2022])[areas].sum())}


def rss_unemployment_top10_homicides_2016():
    areas = _rank(_sm("unemployed"), 10, True)
    return {**_areas_out(areas), "total": int(_counts([2016])[areas].sum())}


def rss_no_hs_top10_homicides_2018():
    areas = _rank(_sm("no_hs"), 10, True)
    return {**_areas_out(areas), "total": int(_counts([2018])[areas].sum())}


def rss_hardship_bottom10_homicides_all():
    areas = _rank(_sm("hardship"), 10, False)
    return {**_areas_out(areas), "total": int(_counts(None)[areas].sum())}


def rss_hardship_top10_acs_population():
    areas = _rank(_sm("hardship"), 10, True)
    return {**_areas_out(areas), "total": int(_acs_pop()[areas].sum())}


# --------------------------------------------------------------------------
# ranking_set_each
# --------------------------------------------------------------------------

def rse_hardship_top5_homicides_2021_each():
    areas = _rank(_sm("hardship"), 5, True)
    c = _counts([2021])
    return {**_areas_out(areas), "values": {a: int(c[a]) for a in areas}}


def rse_income_bottom5_hardship_each():
    areas = _rank(_sm("income"), 5, False)
    h = _sm("hardship")
    return {**_areas_out(areas), "values": {a: int(h[a]) for a in areas}}


def rse_homicides_2021_top4_income_each():
    c = _counts([2021])
    areas = _rank(c, 4, True)
    inc = _sm("income")
    return {**_areas_out(areas), "homicides": {a: int(c[a]) for a in areas},
            "values": {a: int(inc[a]) for a in areas}}


def rse_population_top5_zhvi_each():
    areas = _rank(_acs_pop(), 5, True)
    z = _ca_zhvi(2024, 9)
    return {**_areas_out(areas), "values": {a: _py(z[a]) for a in areas}}


def rse_poverty_top5_acs_population_each():
    areas = _rank(_sm("poverty"), 5, True)
    p = _acs_pop()
    return {**_areas_out(areas), "values": {a: int(p[a]) for a in areas}}


def rse_crowded_top5_homicides_2019_2022_each():
    areas = _rank(_sm("crowded"), 5, True)
    c = _counts(_years(2019, 2022))
    return {**_areas_out(areas), "values": {a: int(c[a]) for a in areas}}


def rse_homicides_all_top3_poverty_each():
    c = _counts(None)
    areas = _rank(c, 3, True)
    pov = _sm("poverty")
    return {**_areas_out(areas), "homicides": {a: int(c[a]) for a in areas},
            "values": {a: float(pov[a]) for a in areas}}


# --------------------------------------------------------------------------
# threshold_share
# --------------------------------------------------------------------------

def _share(mask: pd.Series, years) -> dict:
    areas = [int(a) for a in mask[mask].index]
    n = int(_counts(years)[areas].sum())
    total = _city_count(years)
    return {"areas": areas, "n_areas": len(areas), "homicides": n, "city_total": total, "share": n / total}


def ts_poverty30_share_2021():
    return _share(_sm("poverty") >= 30, [2021])


def ts_hardship70_share_all():
    out = _share(_sm("hardship") >= 70, None)
    out["located_total"] = int(_counts(None).sum())
    out["share_of_located"] = out["homicides"] / out["located_total"]
    return out


def ts_income_under_20000_share_2022():
    return _share(_sm("income") < 20000, [2022])


def ts_unemployment20_share_2019_2022():
    return _share(_sm("unemployed") >= 20, _years(2019, 2022))


def ts_count_poverty_at_least_30():
    m = _sm("poverty") >= 30
    return {"n_areas": int(m.sum()), "areas": [int(a) for a in m[m].index]}


def ts_count_hardship_at_least_80():
    m = _sm("hardship") >= 80
    return {"n_areas": int(m.sum()), "areas": [int(a) for a in m[m].index]}


def ts_population_income_under_15000():
    m = _sm("income") < 15000
    areas = [int(a) for a in m[m].index]
    return {"n_areas": len(areas), "areas": areas, "total": int(_acs_pop()[areas].sum())}


def ts_population2010_poverty_at_least_30():
    m = _sm("poverty") >= 30
    areas = [int(a) for a in m[m].index]
    return {"n_areas": len(areas), "areas": areas, "total": int(_pop2010()[areas].sum())}


# --------------------------------------------------------------------------
# change_rank
# --------------------------------------------------------------------------

def _change(a: int, b: int) -> pd.Series:
    return _counts([b]) - _counts([a])


def cr_biggest_drop_2021_2022_income():
    ch = _change(2021, 2022)
    area = _rank(ch, 1, False)[0]
    return {"area": area, "name": _names()[area], "change": int(ch[area]),
            "value": int(_sm("income")[area])}


def cr_biggest_rise_2019_2020_hardship():
    ch = _change(2019, 2020)
    area = _rank(ch, 1, True)[0]
    return {"area": area, "name": _names()[area], "change": int(ch[area]),
            "value": int(_sm("hardship")[area])}


def cr_top5_increases_2019_2021():
    ch = _change(2019, 2021)
    areas = _rank(ch, 5, True)
    return {**_areas_out(areas), "changes": {a: int(ch[a]) for a in areas}}


def cr_biggest_drop_2016_2017_acs_population():
    ch = _change(2016, 2017)
    area = _rank(ch, 1, False)[0]
    return {"area": area, "name": _names()[area], "change": int(ch[area]),
            "value": int(_acs_pop()[area])}


def cr_biggest_drop_2016_2019_tie_hardship():
    ch = _change(2016, 2019)
    area = _rank(ch, 1, False)[0]
    tied = [int(a) for a in ch[ch == ch.min()].index]
    return {"area": area, "name": _names()[area], "change": int(ch[area]), "tied": tied,
            "value": int(_sm("hardship")[area])}


def cr_top5_drops_2021_2022():
    ch = _change(2021, 2022)
    areas = _rank(ch, 5, False)
    return {**_areas_out(areas), "changes": {a: int(ch[a]) for a in areas}}


def cr_biggest_rise_2015_2016_poverty():
    ch = _change(2015, 2016)
    area = _rank(ch, 1, True)[0]
    return {"area": area, "name": _names()[area], "change": int(ch[area]),
            "value": float(_sm("poverty")[area])}


# --------------------------------------------------------------------------
# correlation
# --------------------------------------------------------------------------

def _corr(x: pd.Series, y: pd.Series) -> dict:
    df = pd.DataFrame({"x": x.reindex(AREAS), "y": y.reindex(AREAS)}).dropna()
    return {"r": float(np.corrcoef(df["x"].astype(float), df["y"].astype(float))[0, 1]), "n": int(len(df))}


def corr_rate_2019_2022_vs_income():
    return _corr(_rate(_years(2019, 2022), _acs_pop()), _sm("income"))


def corr_hardship_vs_homicides_2021():
    return _corr(_sm("hardship"), _counts([2021]))


def corr_poverty_vs_homicides_all():
    return _corr(_sm("poverty"), _counts(None))


def corr_unemployment_vs_rate_2021():
    return _corr(_sm("unemployed"), _rate([2021], _acs_pop()))


def corr_no_hs_vs_rate_2010_2014_pop2010():
    return _corr(_sm("no_hs"), _rate(_years(2010, 2014), _pop2010()))


def corr_income_vs_zhvi_2024_09():
    return _corr(_sm("income"), _ca_zhvi(2024, 9))


# --------------------------------------------------------------------------
# zip_grain
# --------------------------------------------------------------------------

def zg_max_2024_09():
    v = _zhvi(2024, 9).dropna()
    z = _rank(v, 1, True)[0]
    return {"zip": z, "value": float(v[z])}


def zg_min_2024_09():
    v = _zhvi(2024, 9).dropna()
    z = _rank(v, 1, False)[0]
    return {"zip": z, "value": float(v[z])}


def zg_top5_2024_09():
    v = _zhvi(2024, 9).dropna()
    zips = _rank(v, 5, True)
    return {"zips": zips, "values": {z: float(v[z]) for z in zips}}


def zg_60614_2020_01_vs_2024_09():
    a = float(_zhvi(2020, 1)["60614"])
    b = float(_zhvi(2024, 9)["60614"])
    return {"zip": "60614", "value_2020_01": a, "value_2024_09": b, "change": b - a, "pct_change": (b - a) / a * 100}


def zg_60621_2019_12_vs_2024_09():
    a = float(_zhvi(2019, 12)["60621"])
    b = float(_zhvi(2024, 9)["60621"])
    return {"zip": "60621", "value_2019_12": a, "value_2024_09": b, "change": b - a, "pct_change": (b - a) / a * 100}


def zg_max_growth_2014_09_2024_09():
    a = _zhvi(2014, 9)
    b = _zhvi(2024, 9)
    pct = ((b - a) / a * 100).dropna()
    z = _rank(pct, 1, True)[0]
    return {"zip": z, "pct_change": float(pct[z]), "value_2014_09": float(a[z]), "value_2024_09": float(b[z]),
            "n_zips": int(len(pct))}


# --------------------------------------------------------------------------
# two_months
# --------------------------------------------------------------------------

def _month_count(y: int, m: int) -> int:
    h = _hom()
    return int(((h["date"].dt.year == y) & (h["month"] == m)).sum())


def _two(y1, m1, y2, m2) -> dict:
    a, b = _month_count(y1, m1), _month_count(y2, m2)
    return {"first": a, "second": b, "difference": b - a}


def tm_july_2020_vs_july_2021():
    return _two(2020, 7, 2021, 7)


def tm_jan_2022_vs_jan_2023():
    return _two(2022, 1, 2023, 1)


def tm_may_2021_vs_may_2022():
    return _two(2021, 5, 2022, 5)


def tm_june_2015_vs_june_2016():
    return _two(2015, 6, 2016, 6)


def tm_dec_2019_vs_dec_2020():
    return _two(2019, 12, 2020, 12)


# --------------------------------------------------------------------------
# rate_population
# --------------------------------------------------------------------------

def rp_austin_2021_acs():
    area = 25
    n = int(_counts([2021])[area])
    pop = int(_acs_pop()[area])
    return {"area": area, "homicides": n, "population": pop, "value": n / pop * 100000}


def rp_englewood_2012_pop2010():
    area = 68
    n = int(_counts([2012])[area])
    pop = int(_pop2010()[area])
    return {"area": area, "homicides": n, "population": pop, "value": n / pop * 100000}


def rp_highest_rate_2021_acs():
    r = _rate([2021], _acs_pop())
    area = _rank(r, 1, True)[0]
    return {"area": area, "name": _names()[area], "homicides": int(_counts([2021])[area]),
            "population": int(_acs_pop()[area]), "value": float(r[area])}


def rp_highest_rate_2010_pop2010():
    r = _rate([2010], _pop2010())
    area = _rank(r, 1, True)[0]
    return {"area": area, "name": _names()[area], "homicides": int(_counts([2010])[area]),
            "population": int(_pop2010()[area]), "value": float(r[area])}


def rp_city_rate_2022_acs():
    n = _city_count([2022])
    pop = int(_acs_pop().sum())
    return {"homicides": n, "population": pop, "value": n / pop * 100000}


def rp_top5_rate_2019_2022_acs():
    r = _rate(_years(2019, 2022), _acs_pop())
    areas = _rank(r, 5, True)
    return {**_areas_out(areas), "values": {a: float(r[a]) for a in areas}}


# --------------------------------------------------------------------------
# ward_district
# --------------------------------------------------------------------------

def _by(col: str, year: int) -> pd.Series:
    h = _hom()
    h = h[(h["year"] == year) & h[col].notna()]
    return h.groupby(h[col].astype(int)).size().sort_index()


def wd_top_ward_2021():
    c = _by("ward", 2021)
    w = _rank(c, 1, True)[0]
    return {"ward": w, "homicides": int(c[w])}


def wd_district_counts_2020():
    c = _by("district", 2020)
    d = _rank(c, 1, True)[0]
    return {"counts": {int(k): int(v) for k, v in c.items()}, "top_district": d, "top_homicides": int(c[d])}


def wd_top_district_2022_station():
    c = _by("district", 2022)
    d = _rank(c, 1, True)[0]
    st = _stations()
    row = st[st["DISTRICT"].str.strip() == str(d)].iloc[0]
    return {"district": d, "homicides": int(c[d]), "district_name": row["DISTRICT NAME"].strip(),
            "address": row["ADDRESS"].strip(), "zip": row["ZIP"].strip().zfill(5)}


def wd_alderman_ward_42():
    row = _wards().loc[42]
    phone = row["WARD PHONE"]
    return {"ward": 42, "alderman": row["ALDERMAN"], "ward_phone": None if pd.isna(phone) else phone,
            "city_hall_phone": row["CITY HALL PHONE"]}


def wd_alderman_ward_1_phone():
    row = _wards().loc[1]
    return {"ward": 1, "alderman": row["ALDERMAN"], "ward_phone": row["WARD PHONE"]}


def wd_top_ward_2022_alderman():
    c = _by("ward", 2022)
    w = _rank(c, 1, True)[0]
    return {"ward": w, "homicides": int(c[w]), "alderman": _wards().loc[w, "ALDERMAN"]}


# --------------------------------------------------------------------------
# redfin
# --------------------------------------------------------------------------

def _redfin_row(region: str, end: str) -> pd.Series:
    r = _redfin()
    m = r[(r["Region"] == region) & (r["end"] == pd.Timestamp(end))]
    assert len(m) == 1, (region, end, len(m))
    return m.iloc[0]


def rf_lincoln_park_latest():
    r = _redfin()
    latest = r[r["Region"] == "Chicago, IL - Lincoln Park"]["end"].max()
    row = _redfin_row("Chicago, IL - Lincoln Park", str(latest.date()))
    return {"period_begin": str(row["begin"].date()), "period_end": str(row["end"].date()),
            "median_sale_price": row["Median Sale Price"], "homes_sold": int(row["Homes Sold"])}


def rf_most_sold_90d_ending_2019_06_30():
    n = _redfin_neighborhoods()
    n = n[n["end"] == pd.Timestamp("2019-06-30")]
    s = n.set_index("neighborhood")["Homes Sold"]
    top = _rank(s, 1, True)[0]
    return {"neighborhood": top, "homes_sold": int(s[top])}


def rf_logan_square_2018_12_31():
    row = _redfin_row("Chicago, IL - Logan Square", "2018-12-31")
    return {"median_sale_price": row["Median Sale Price"], "homes_sold": int(row["Homes Sold"])}


def rf_city_month_2019_10():
    r = _redfin()
    m = r[(r["Region"] == "Chicago, IL") & (r["Period Duration"] == 30) & (r["end"] == pd.Timestamp("2019-10-31"))]
    assert len(m) == 1
    row = m.iloc[0]
    return {"median_sale_price": row["Median Sale Price"], "homes_sold": int(row["Homes Sold"])}


def rf_hyde_park_sept_2018_vs_2019():
    a = int(_redfin_row("Chicago, IL - Hyde Park", "2018-09-30")["Homes Sold"])
    b = int(_redfin_row("Chicago, IL - Hyde Park", "2019-09-30")["Homes Sold"])
    return {"homes_sold_2018": a, "homes_sold_2019": b, "difference": b - a}


def rf_highest_median_price_latest():
    n = _redfin_neighborhoods()
    n = n[n["end"] == pd.Timestamp("2019-10-31")].copy()
    # NB: 'Rosehill' and 'Wrightwood' each appear twice in this period (two Redfin
    # neighbourhoods share the name), so rank rows, not names.
    n["value"] = _price_k(n["Median Sale Price"])
    n = n.sort_values(["value", "neighborhood"], ascending=[False, True], kind="mergesort")
    row = n.iloc[0]
    return {"neighborhood": row["neighborhood"], "median_sale_price": row["Median Sale Price"],
            "value": float(row["value"]), "homes_sold": int(row["Homes Sold"])}


# --------------------------------------------------------------------------
# headline
# --------------------------------------------------------------------------

def _headline(years) -> dict:
    r = _rate(years, _acs_pop())
    area = _rank(r, 1, True)[0]
    x = _xwalk()
    zv = _zhvi(2024, 9)
    xs = x[x["area_number"] == area]
    covered = float(xs.loc[xs["zip"].map(zv).notna(), "share_of_community_area"].sum())
    return {"area": area, "name": _names()[area], "homicides": int(_counts(years)[area]),
            "population": int(_acs_pop()[area]), "rate": float(r[area]),
            "per_capita_income": int(_sm("income")[area]),
            "zhvi_2024_09": _py(_ca_zhvi(2024, 9)[area]),
            "zips": sorted(xs["zip"].tolist()), "zhvi_share_covered": covered}


def hl_rate_2019_2022():
    return _headline(_years(2019, 2022))


def hl_rate_2021():
    return _headline([2021])


def hl_rate_2022():
    return _headline([2022])


def hl_rate_2020():
    return _headline([2020])


# --------------------------------------------------------------------------
# cases
# --------------------------------------------------------------------------

_H = ("Homicides = rows of homicides.csv (one per victim), year from the `Year` column, area from "
      "`Community Area` (float string, e.g. '16.0' -> 16); rows without an area are excluded from area figures. ")
_S = "socioeconomic.csv (2008-2012), CHICAGO total row dropped. "
_TIE = "Ties broken by lower community area number (no tie at the cut-off). "
_ZH = ("Area ZHVI = sum(share_of_community_area * ZHVI) / sum(share_of_community_area) over the area's ZIPs in "
       "community_area_zip_crosswalk.csv that have a non-NA value in property_zhvi_zip_monthly.csv for 2024-09 "
       "(Year 2024, Month 9); None if none. ")

CASES = [
    # ---------------- ranking_set_sum ----------------
    {"id": "rss_hardship_top10_homicides_2021", "kind": "ranking_set_sum",
     "question": "Take the 10 community areas with the highest hardship index. How many homicides did they have in 2021 combined?",
     "definition": "Top 10 areas by HARDSHIP INDEX in " + _S + _TIE + _H + "Sum of homicides with Year == 2021 over those 10 areas.",
     "expected": rss_hardship_top10_homicides_2021},
    {"id": "rss_income_bottom10_homicides_2019_2022", "kind": "ranking_set_sum",
     "question": "What was the total number of homicides from 2019 through 2022 in the 10 community areas with the lowest per capita income?",
     "definition": "Bottom 10 areas by 'PER CAPITA INCOME ' (trailing space) in " + _S + _TIE + _H + "Sum over those areas of homicides with Year in 2019..2022 inclusive.",
     "expected": rss_income_bottom10_homicides_2019_2022},
    {"id": "rss_poverty_top5_homicides_all", "kind": "ranking_set_sum",
     "question": "How many homicides in total (all years on record) happened in the 5 areas with the highest percentage of households below poverty?",
     "definition": "Top 5 areas by PERCENT HOUSEHOLDS BELOW POVERTY in " + _S + _TIE + _H + "Sum of all homicide rows 2001-01-01..2023-07-19 in those areas.",
     "expected": rss_poverty_top5_homicides_all},
    {"id": "rss_income_top10_homicides_2020", "kind": "ranking_set_sum",
     "question": "The 10 richest community areas by per capita income: how many homicides did they have together in 2020?",
     "definition": "Top 10 areas by 'PER CAPITA INCOME ' in " + _S + _TIE + _H + "Sum of 2020 homicides over those areas.",
     "expected": rss_income_top10_homicides_2020},
    {"id": "rss_population_top5_homicides_2022", "kind": "ranking_set_sum",
     "question": "How many homicides were there in 2022 across Chicago's 5 most populous community areas?",
     "definition": "Top 5 areas by census_acs.csv total_population (ACS 2019-2023; names joined to community_areas.csv community). " + _TIE + _H + "Sum of 2022 homicides over those areas.",
     "expected": rss_population_top5_homicides_2022},
    {"id": "rss_unemployment_top10_homicides_2016", "kind": "ranking_set_sum",
     "question": "In 2016, how many homicides occurred in the ten community areas with the highest unemployment rate?",
     "definition": "Top 10 areas by PERCENT AGED 16+ UNEMPLOYED in " + _S + _TIE + _H + "Sum of 2016 homicides over those areas.",
     "expected": rss_unemployment_top10_homicides_2016},
    {"id": "rss_no_hs_top10_homicides_2018", "kind": "ranking_set_sum",
     "question": "Combined 2018 homicides for the 10 areas with the largest share of adults without a high school diploma?",
     "definition": "Top 10 areas by PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA in " + _S + _TIE + _H + "Sum of 2018 homicides over those areas.",
     "expected": rss_no_hs_top10_homicides_2018},
    {"id": "rss_hardship_bottom10_homicides_all", "kind": "ranking_set_sum",
     "question": "How many homicides in total, across all years in the data, were in the 10 least hardship-burdened community areas?",
     "definition": "Bottom 10 areas by HARDSHIP INDEX (lowest = least hardship) in " + _S + _TIE + _H + "Sum of all homicide rows (2001..2023-07) in those areas.",
     "expected": rss_hardship_bottom10_homicides_all},
    {"id": "rss_hardship_top10_acs_population", "kind": "ranking_set_sum",
     "question": "What is the combined population of the 10 community areas with the highest hardship index?",
     "definition": "Top 10 areas by HARDSHIP INDEX in " + _S + _TIE + "Sum of census_acs.csv total_population (ACS 2019-2023) over those areas, as int.",
     "expected": rss_hardship_top10_acs_population},

    # ---------------- ranking_set_each ----------------
    {"id": "rse_hardship_top5_homicides_2021_each", "kind": "ranking_set_each",
     "question": "For each of the 5 community areas with the highest hardship index, how many homicides were there in 2021?",
     "definition": "Top 5 areas by HARDSHIP INDEX in " + _S + _TIE + _H + "values = {area: 2021 homicide count} (0 if none).",
     "expected": rse_hardship_top5_homicides_2021_each},
    {"id": "rse_income_bottom5_hardship_each", "kind": "ranking_set_each",
     "question": "List the 5 community areas with the lowest per capita income and give the hardship index of each.",
     "definition": "Bottom 5 areas by 'PER CAPITA INCOME ' in " + _S + _TIE + "values = {area: HARDSHIP INDEX (int)}.",
     "expected": rse_income_bottom5_hardship_each},
    {"id": "rse_homicides_2021_top4_income_each", "kind": "ranking_set_each",
     "question": "Which 4 community areas had the most homicides in 2021, and what is the per capita income of each?",
     "definition": _H + "Top 4 areas by 2021 homicide count (no tie at 4th/5th: 39 vs 38; note 69 and 71 tie at 39 inside the set, and 26 and 43 tie at 38 just outside, so a top-5 would be tie-dependent); " + _TIE + "values = {area: 'PER CAPITA INCOME ' from " + _S.strip() + "}.",
     "expected": rse_homicides_2021_top4_income_each},
    {"id": "rse_population_top5_zhvi_each", "kind": "ranking_set_each",
     "question": "What is the typical home value (Zillow, September 2024) in each of the 5 most populous community areas?",
     "definition": "Top 5 areas by census_acs.csv total_population. " + _TIE + _ZH + "values = {area: area ZHVI 2024-09 (float)}.",
     "expected": rse_population_top5_zhvi_each},
    {"id": "rse_poverty_top5_acs_population_each", "kind": "ranking_set_each",
     "question": "The 5 areas with the highest poverty rate: what is the population of each?",
     "definition": "Top 5 areas by PERCENT HOUSEHOLDS BELOW POVERTY in " + _S + _TIE + "values = {area: census_acs.csv total_population (ACS 2019-2023), int}.",
     "expected": rse_poverty_top5_acs_population_each},
    {"id": "rse_crowded_top5_homicides_2019_2022_each", "kind": "ranking_set_each",
     "question": "For the 5 community areas with the most crowded housing, how many homicides did each have from 2019 to 2022?",
     "definition": "Top 5 areas by PERCENT OF HOUSING CROWDED in " + _S + _TIE + _H + "values = {area: homicides with Year in 2019..2022}.",
     "expected": rse_crowded_top5_homicides_2019_2022_each},
    {"id": "rse_homicides_all_top3_poverty_each", "kind": "ranking_set_each",
     "question": "Which 3 community areas have had the most homicides overall, and what share of households is below poverty in each?",
     "definition": _H + "Top 3 areas by all-years homicide count (2001..2023-07); " + _TIE + "values = {area: PERCENT HOUSEHOLDS BELOW POVERTY from " + _S.strip() + "}.",
     "expected": rse_homicides_all_top3_poverty_each},

    # ---------------- threshold_share ----------------
    {"id": "ts_poverty30_share_2021", "kind": "threshold_share",
     "question": "What share of 2021 homicides happened in community areas where at least 30% of households are below poverty?",
     "definition": "Areas with PERCENT HOUSEHOLDS BELOW POVERTY >= 30 in " + _S + _H + "share = homicides in those areas in 2021 / all 2021 homicide rows (city total incl. rows without area; none lack an area in 2021). Fraction 0..1, unrounded.",
     "expected": ts_poverty30_share_2021},
    {"id": "ts_hardship70_share_all", "kind": "threshold_share",
     "question": "Of all homicides in the data, what fraction occurred in areas with a hardship index of 70 or more?",
     "definition": "Areas with HARDSHIP INDEX >= 70 (inclusive: 19 BELMONT CRAGIN is exactly 70 and counts) in " + _S + _H + "share = their all-years homicides / all 12,657 rows (denominator includes the 380 rows without area); share_of_located uses only rows with an area as denominator.",
     "expected": ts_hardship70_share_all},
    {"id": "ts_income_under_20000_share_2022", "kind": "threshold_share",
     "question": "What percentage of 2022 homicides were in community areas with per capita income under $20,000?",
     "definition": "Areas with 'PER CAPITA INCOME ' < 20000 (strict) in " + _S + _H + "share = their 2022 homicides / all 2022 homicide rows (fraction 0..1).",
     "expected": ts_income_under_20000_share_2022},
    {"id": "ts_unemployment20_share_2019_2022", "kind": "threshold_share",
     "question": "Between 2019 and 2022, what share of homicides occurred in areas with unemployment of 20% or higher?",
     "definition": "Areas with PERCENT AGED 16+ UNEMPLOYED >= 20 (inclusive: 43 SOUTH SHORE and 48 CALUMET HEIGHTS are exactly 20.0 and count) in " + _S + _H + "share = their homicides with Year in 2019..2022 / all homicide rows with Year in 2019..2022 (fraction).",
     "expected": ts_unemployment20_share_2019_2022},
    {"id": "ts_count_poverty_at_least_30", "kind": "threshold_share",
     "question": "How many community areas have 30% or more of households below the poverty line?",
     "definition": "Count of the 77 areas in " + _S + "with PERCENT HOUSEHOLDS BELOW POVERTY >= 30 (no area is exactly 30.0).",
     "expected": ts_count_poverty_at_least_30},
    {"id": "ts_count_hardship_at_least_80", "kind": "threshold_share",
     "question": "How many community areas have a hardship index of at least 80?",
     "definition": "Count of the 77 areas in " + _S + "with HARDSHIP INDEX >= 80 (inclusive: 66 CHICAGO LAWN is exactly 80 and counts).",
     "expected": ts_count_hardship_at_least_80},
    {"id": "ts_population_income_under_15000", "kind": "threshold_share",
     "question": "What is the total population living in community areas where per capita income is below $15,000?",
     "definition": "Areas with 'PER CAPITA INCOME ' < 15000 (strict) in " + _S + "total = sum of census_acs.csv total_population (ACS 2019-2023) over them.",
     "expected": ts_population_income_under_15000},
    {"id": "ts_population2010_poverty_at_least_30", "kind": "threshold_share",
     "question": "According to the 2010 census, how many people lived in community areas with a poverty rate of 30% or more?",
     "definition": "Areas with PERCENT HOUSEHOLDS BELOW POVERTY >= 30 in " + _S + "total = sum of census_population_2010.csv POP2010 (NID = area number) over them.",
     "expected": ts_population2010_poverty_at_least_30},

    # ---------------- change_rank ----------------
    {"id": "cr_biggest_drop_2021_2022_income", "kind": "change_rank",
     "question": "Which community area saw the biggest drop in homicides from 2021 to 2022, and what is its per capita income?",
     "definition": _H + "change = count(2022) - count(2021) per area (missing = 0, all 77 areas); area with the most negative change, " + _TIE + "value = 'PER CAPITA INCOME ' from " + _S.strip(),
     "expected": cr_biggest_drop_2021_2022_income},
    {"id": "cr_biggest_rise_2019_2020_hardship", "kind": "change_rank",
     "question": "Which area had the largest increase in homicides between 2019 and 2020, and what is its hardship index?",
     "definition": _H + "change = count(2020) - count(2019) per area (0-filled); area with the largest change, " + _TIE + "value = HARDSHIP INDEX from " + _S.strip(),
     "expected": cr_biggest_rise_2019_2020_hardship},
    {"id": "cr_top5_increases_2019_2021", "kind": "change_rank",
     "question": "What were the 5 community areas with the biggest increases in homicides from 2019 to 2021?",
     "definition": _H + "change = count(2021) - count(2019) per area (0-filled); top 5 by change, ties by lower area number (no tie at the cut-off); changes = {area: change}.",
     "expected": cr_top5_increases_2019_2021},
    {"id": "cr_biggest_drop_2016_2017_acs_population", "kind": "change_rank",
     "question": "Which area's homicide count fell the most from 2016 to 2017, and how many people live there?",
     "definition": _H + "change = count(2017) - count(2016) per area (0-filled); most negative, " + _TIE + "value = census_acs.csv total_population (ACS 2019-2023).",
     "expected": cr_biggest_drop_2016_2017_acs_population},
    {"id": "cr_biggest_drop_2016_2019_tie_hardship", "kind": "change_rank",
     "question": "Which community area had the largest decline in homicides from 2016 to 2019, and what is its hardship index?",
     "definition": _H + "change = count(2019) - count(2016) per area (0-filled). TIE: areas 25 (AUSTIN) and 61 (NEW CITY) both fell by 35; by the tie rule the lower area number (25) is reported as `area`, `tied` lists both. value = HARDSHIP INDEX of `area` from " + _S.strip() + " (NEW CITY's is 91).",
     "expected": cr_biggest_drop_2016_2019_tie_hardship},
    {"id": "cr_top5_drops_2021_2022", "kind": "change_rank",
     "question": "List the 5 community areas where homicides decreased the most from 2021 to 2022.",
     "definition": _H + "change = count(2022) - count(2021) per area (0-filled); 5 most negative changes, ties by lower area number (no tie at the cut-off).",
     "expected": cr_top5_drops_2021_2022},
    {"id": "cr_biggest_rise_2015_2016_poverty", "kind": "change_rank",
     "question": "Which community area had the biggest jump in homicides from 2015 to 2016, and what's its poverty rate?",
     "definition": _H + "change = count(2016) - count(2015) per area (0-filled); largest, " + _TIE + "value = PERCENT HOUSEHOLDS BELOW POVERTY from " + _S.strip(),
     "expected": cr_biggest_rise_2015_2016_poverty},

    # ---------------- correlation ----------------
    {"id": "corr_rate_2019_2022_vs_income", "kind": "correlation",
     "question": "Across community areas, how strongly does the homicide rate (2019-2022) correlate with per capita income?",
     "definition": "Pearson r over all 77 areas of x = homicides with Year 2019..2022 / 4 / census_acs.csv total_population * 100000 (0-filled counts) and y = 'PER CAPITA INCOME ' from " + _S + _H,
     "expected": corr_rate_2019_2022_vs_income},
    {"id": "corr_hardship_vs_homicides_2021", "kind": "correlation",
     "question": "What is the correlation between hardship index and the number of homicides in 2021 across community areas?",
     "definition": "Pearson r over the 77 areas of HARDSHIP INDEX (" + _S.strip() + ") and raw 2021 homicide count (0-filled). " + _H,
     "expected": corr_hardship_vs_homicides_2021},
    {"id": "corr_poverty_vs_homicides_all", "kind": "correlation",
     "question": "Is poverty correlated with homicides? Give the correlation between poverty rate and total homicides by community area.",
     "definition": "Pearson r over the 77 areas of PERCENT HOUSEHOLDS BELOW POVERTY (" + _S.strip() + ") and all-years homicide count (2001..2023-07, rows with an area). " + _H,
     "expected": corr_poverty_vs_homicides_all},
    {"id": "corr_unemployment_vs_rate_2021", "kind": "correlation",
     "question": "Correlation between unemployment and the 2021 homicide rate per 100k across community areas?",
     "definition": "Pearson r over the 77 areas of PERCENT AGED 16+ UNEMPLOYED (" + _S.strip() + ") and 2021 homicides / census_acs.csv total_population * 100000. " + _H,
     "expected": corr_unemployment_vs_rate_2021},
    {"id": "corr_no_hs_vs_rate_2010_2014_pop2010", "kind": "correlation",
     "question": "Using 2010 census populations, how does the 2010-2014 homicide rate correlate with the share of adults lacking a high school diploma?",
     "definition": "Pearson r over the 77 areas of PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA (" + _S.strip() + ") and homicides with Year 2010..2014 / 5 / census_population_2010.csv POP2010 * 100000. " + _H,
     "expected": corr_no_hs_vs_rate_2010_2014_pop2010},
    {"id": "corr_income_vs_zhvi_2024_09", "kind": "correlation",
     "question": "How well does per capita income track home values across community areas (Zillow, Sept 2024)?",
     "definition": "Pearson r of 'PER CAPITA INCOME ' (" + _S.strip() + ") and area ZHVI 2024-09 over the 76 areas that have one (52 EAST SIDE has no ZIP with ZHVI and is dropped). " + _ZH,
     "expected": corr_income_vs_zhvi_2024_09},

    # ---------------- zip_grain ----------------
    {"id": "zg_max_2024_09", "kind": "zip_grain",
     "question": "Which Chicago ZIP code had the highest Zillow home value in September 2024?",
     "definition": "property_zhvi_zip_monthly.csv rows Year==2024, Month==9; ZIP (RegionName, 5-char string) with max price among the 55 ZIPs (non-NA).",
     "expected": zg_max_2024_09},
    {"id": "zg_min_2024_09", "kind": "zip_grain",
     "question": "Which ZIP had the lowest typical home value in Chicago in September 2024?",
     "definition": "property_zhvi_zip_monthly.csv Year==2024, Month==9; ZIP with min non-NA price.",
     "expected": zg_min_2024_09},
    {"id": "zg_top5_2024_09", "kind": "zip_grain",
     "question": "What are the top 5 ZIP codes by home value as of September 2024?",
     "definition": "property_zhvi_zip_monthly.csv Year==2024, Month==9; 5 ZIPs with highest price, descending; values = {zip: price}.",
     "expected": zg_top5_2024_09},
    {"id": "zg_60614_2020_01_vs_2024_09", "kind": "zip_grain",
     "question": "What was the home value in 60614 in January 2020 and in September 2024, and how much did it change?",
     "definition": "property_zhvi_zip_monthly.csv RegionName 60614, price at (2020,1) and (2024,9); change = later - earlier; pct_change = change / earlier * 100.",
     "expected": zg_60614_2020_01_vs_2024_09},
    {"id": "zg_60621_2019_12_vs_2024_09", "kind": "zip_grain",
     "question": "How much did Zillow home values in 60621 (Englewood) change from December 2019 to September 2024?",
     "definition": "property_zhvi_zip_monthly.csv RegionName 60621, price at (2019,12) and (2024,9); change and pct_change = change / earlier * 100.",
     "expected": zg_60621_2019_12_vs_2024_09},
    {"id": "zg_max_growth_2014_09_2024_09", "kind": "zip_grain",
     "question": "Which ZIP code saw the largest percentage growth in home values over the ten years from September 2014 to September 2024?",
     "definition": "property_zhvi_zip_monthly.csv; pct = (price(2024,9) - price(2014,9)) / price(2014,9) * 100 per ZIP; ZIPs with NA in either month dropped (60603 before 2016-12 is NA); ZIP with the max pct.",
     "expected": zg_max_growth_2014_09_2024_09},

    # ---------------- two_months ----------------
    {"id": "tm_july_2020_vs_july_2021", "kind": "two_months",
     "question": "How many homicides were there in July 2020 and in July 2021, and what's the difference?",
     "definition": "Rows of homicides.csv (city-wide, incl. rows without area) whose Date (parsed '%m/%d/%Y %I:%M:%S %p') falls in the month; first = July 2020, second = July 2021, difference = second - first.",
     "expected": tm_july_2020_vs_july_2021},
    {"id": "tm_jan_2022_vs_jan_2023", "kind": "two_months",
     "question": "Compare citywide homicides in January 2022 with January 2023.",
     "definition": "Rows of homicides.csv by month parsed from Date; first = 2022-01, second = 2023-01, difference = second - first.",
     "expected": tm_jan_2022_vs_jan_2023},
    {"id": "tm_may_2021_vs_may_2022", "kind": "two_months",
     "question": "Homicides in May 2021 vs May 2022?",
     "definition": "Rows of homicides.csv by month parsed from Date; first = 2021-05, second = 2022-05, difference = second - first.",
     "expected": tm_may_2021_vs_may_2022},
    {"id": "tm_june_2015_vs_june_2016", "kind": "two_months",
     "question": "How many people were murdered in Chicago in June 2015 versus June 2016?",
     "definition": "Rows of homicides.csv (one per victim) by month parsed from Date; first = 2015-06, second = 2016-06, difference = second - first.",
     "expected": tm_june_2015_vs_june_2016},
    {"id": "tm_dec_2019_vs_dec_2020", "kind": "two_months",
     "question": "What were the homicide counts for December 2019 and December 2020?",
     "definition": "Rows of homicides.csv by month parsed from Date; first = 2019-12, second = 2020-12, difference = second - first.",
     "expected": tm_dec_2019_vs_dec_2020},

    # ---------------- rate_population ----------------
    {"id": "rp_austin_2021_acs", "kind": "rate_population",
     "question": "What was Austin's homicide rate per 100,000 residents in 2021?",
     "definition": "Area 25 (AUSTIN). " + _H + "value = 2021 homicides / census_acs.csv total_population (ACS 2019-2023, 100,278) * 100000, unrounded.",
     "expected": rp_austin_2021_acs},
    {"id": "rp_englewood_2012_pop2010", "kind": "rate_population",
     "question": "What was Englewood's homicide rate per 100k in 2012, using the 2010 census population?",
     "definition": "Area 68 (ENGLEWOOD). " + _H + "value = 2012 homicides / census_population_2010.csv POP2010 (NID 68) * 100000.",
     "expected": rp_englewood_2012_pop2010},
    {"id": "rp_highest_rate_2021_acs", "kind": "rate_population",
     "question": "Which community area had the highest homicide rate per 100,000 people in 2021?",
     "definition": _H + "rate = 2021 homicides / census_acs.csv total_population * 100000 for each of the 77 areas; max, ties by lower area number.",
     "expected": rp_highest_rate_2021_acs},
    {"id": "rp_highest_rate_2010_pop2010", "kind": "rate_population",
     "question": "Which community area had the highest homicide rate in 2010 (per 100k, 2010 census population)?",
     "definition": _H + "rate = 2010 homicides / census_population_2010.csv POP2010 * 100000 per area; max, ties by lower area number.",
     "expected": rp_highest_rate_2010_pop2010},
    {"id": "rp_city_rate_2022_acs", "kind": "rate_population",
     "question": "What was Chicago's citywide homicide rate per 100,000 in 2022?",
     "definition": "All homicides.csv rows with Year == 2022 (incl. any without area; none in 2022) / sum of census_acs.csv total_population over the 77 areas (2,647,621) * 100000.",
     "expected": rp_city_rate_2022_acs},
    {"id": "rp_top5_rate_2019_2022_acs", "kind": "rate_population",
     "question": "Which 5 community areas had the highest average annual homicide rate per 100k over 2019-2022?",
     "definition": _H + "rate = homicides with Year 2019..2022 / 4 / census_acs.csv total_population * 100000; top 5, ties by lower area number (no tie at cut-off); values = {area: rate}.",
     "expected": rp_top5_rate_2019_2022_acs},

    # ---------------- ward_district ----------------
    {"id": "wd_top_ward_2021", "kind": "ward_district",
     "question": "Which ward had the most homicides in 2021?",
     "definition": "homicides.csv rows with Year == 2021 grouped by Ward (float string -> int; ward as recorded on each row, whatever ward map was current); max count, ties by lower ward number.",
     "expected": wd_top_ward_2021},
    {"id": "wd_district_counts_2020", "kind": "ward_district",
     "question": "How many homicides were there in each police district in 2020, and which district had the most?",
     "definition": "homicides.csv rows with Year == 2020 grouped by District (float string -> int); counts = {district: n}; top_district = max, ties by lower number.",
     "expected": wd_district_counts_2020},
    {"id": "wd_top_district_2022_station", "kind": "ward_district",
     "question": "Which police district had the most homicides in 2022, and what is the address of its station?",
     "definition": "homicides.csv Year == 2022 grouped by District (int); max (ties by lower number). Station from police_stations.csv row with DISTRICT == that number: DISTRICT NAME, ADDRESS (stripped of whitespace; district 12's has a trailing CRLF), ZIP (5-char).",
     "expected": wd_top_district_2022_station},
    {"id": "wd_alderman_ward_42", "kind": "ward_district",
     "question": "Who is the alderman of the 42nd ward, and what is the ward office phone number?",
     "definition": "ward_offices.csv (read with utf-8-sig for the BOM) row WARD == 42: ALDERMAN exactly as in the file; WARD PHONE is blank for ward 42 (-> None), CITY HALL PHONE given as the fallback.",
     "expected": wd_alderman_ward_42},
    {"id": "wd_alderman_ward_1_phone", "kind": "ward_district",
     "question": "Who represents the 1st ward on the City Council and what's the ward office phone?",
     "definition": "ward_offices.csv (utf-8-sig) row WARD == 1: ALDERMAN and WARD PHONE exactly as in the file (2019-2023 council).",
     "expected": wd_alderman_ward_1_phone},
    {"id": "wd_top_ward_2022_alderman", "kind": "ward_district",
     "question": "Which ward had the most homicides in 2022, and who is its alderman?",
     "definition": "homicides.csv Year == 2022 grouped by Ward (int); max, ties by lower ward. Alderman = ward_offices.csv ALDERMAN for that ward (2019-2023 council, as in the file).",
     "expected": wd_top_ward_2022_alderman},

    # ---------------- redfin ----------------
    {"id": "rf_lincoln_park_latest", "kind": "redfin",
     "question": "What was the median sale price and number of homes sold in Lincoln Park in the most recent Redfin period?",
     "definition": "property_redfin_neighborhoods.csv (utf-8-sig), Region == 'Chicago, IL - Lincoln Park', the row with the latest Period End (90-day window 2019-08-01..2019-10-31); Median Sale Price display string as in the file, Homes Sold int.",
     "expected": rf_lincoln_park_latest},
    {"id": "rf_most_sold_90d_ending_2019_06_30", "kind": "redfin",
     "question": "Which Chicago neighborhood had the most homes sold in the 90 days ending June 30, 2019?",
     "definition": "property_redfin_neighborhoods.csv rows with Period End 6/30/2019 and Period Duration 90 and Region starting 'Chicago, IL - '; excluded: 'Chicago, IL', the metro row and Redfin's 9 side aggregates (Far North Side, North Side, Northwest Side, West Side, Central Chicago, South Side, Southwest Side, Far Southwest Side, Far Southeast Side). Max Homes Sold; neighborhood name without the 'Chicago, IL - ' prefix.",
     "expected": rf_most_sold_90d_ending_2019_06_30},
    {"id": "rf_logan_square_2018_12_31", "kind": "redfin",
     "question": "In Logan Square, what was the median sale price and how many homes sold in the 90 days ending December 31, 2018?",
     "definition": "property_redfin_neighborhoods.csv Region 'Chicago, IL - Logan Square', Period End 12/31/2018 (90-day window from 10/1/2018): Median Sale Price string and Homes Sold.",
     "expected": rf_logan_square_2018_12_31},
    {"id": "rf_city_month_2019_10", "kind": "redfin",
     "question": "According to Redfin, how many homes sold citywide in Chicago in October 2019 and at what median price?",
     "definition": "property_redfin_neighborhoods.csv Region == 'Chicago, IL' (city, not metro), Period Duration 30, Period End 10/31/2019: Homes Sold and Median Sale Price string.",
     "expected": rf_city_month_2019_10},
    {"id": "rf_hyde_park_sept_2018_vs_2019", "kind": "redfin",
     "question": "How many homes sold in Hyde Park in the 90 days ending September 30, 2019 compared with the same period a year earlier?",
     "definition": "property_redfin_neighborhoods.csv Region 'Chicago, IL - Hyde Park', Homes Sold for Period End 9/30/2018 and 9/30/2019 (90-day windows); difference = 2019 - 2018.",
     "expected": rf_hyde_park_sept_2018_vs_2019},
    {"id": "rf_highest_median_price_latest", "kind": "redfin",
     "question": "Which Chicago neighborhood had the highest median sale price in Redfin's latest period?",
     "definition": "property_redfin_neighborhoods.csv rows with Period End 10/31/2019, Duration 90, Region 'Chicago, IL - *' minus the 9 side aggregates (see rf_most_sold_90d_ending_2019_06_30); Median Sale Price parsed '$1,187K' -> 1187000; max over rows (ties by name order); no minimum homes-sold filter (the winner has only 6 sales). 'Rosehill' and 'Wrightwood' appear twice in this period (duplicate Redfin names); rows are ranked individually.",
     "expected": rf_highest_median_price_latest},

    # ---------------- headline ----------------
    {"id": "hl_rate_2019_2022", "kind": "headline",
     "question": "Which community area has the highest homicide rate, and what are its per capita income and typical home value?",
     "definition": _H + "rate = homicides with Year 2019..2022 / 4 / census_acs.csv total_population * 100000 (per year); max over 77 areas, ties by lower number. per_capita_income = 'PER CAPITA INCOME ' (" + _S.strip() + "). " + _ZH,
     "expected": hl_rate_2019_2022},
    {"id": "hl_rate_2021", "kind": "headline",
     "question": "In 2021, which community area had the highest homicide rate per 100k, and what is its income level and home value?",
     "definition": _H + "rate = 2021 homicides / census_acs.csv total_population * 100000; max, ties by lower number. per_capita_income from " + _S + _ZH,
     "expected": hl_rate_2021},
    {"id": "hl_rate_2022", "kind": "headline",
     "question": "What area had the worst homicide rate in 2022, and how wealthy is it (per capita income, home values)?",
     "definition": _H + "rate = 2022 homicides / census_acs.csv total_population * 100000; max, ties by lower number. per_capita_income from " + _S + _ZH,
     "expected": hl_rate_2022},
    {"id": "hl_rate_2020", "kind": "headline",
     "question": "Which neighborhood had the highest homicide rate per capita in 2020, with its per capita income and Zillow home value?",
     "definition": _H + "rate = 2020 homicides / census_acs.csv total_population * 100000; max, ties by lower number. per_capita_income from " + _S + _ZH,
     "expected": hl_rate_2020},
]



# --------------------------------------------------------------------------
# Added for issue #40 (one semantic layer): the shapes the nine tools answer that the query learned to say.
# Each is computed straight from the raw CSVs, with its own reading of the rule (no project code used).
# --------------------------------------------------------------------------

def _nth_weekday(year: int, month: int, weekday: int, n: int) -> pd.Timestamp:
    """The n-th ``weekday`` (Monday = 0) of a month; n = -1 is the last."""
    days = pd.date_range(f"{year}-{month:02d}-01", periods=pd.Timestamp(year, month, 1).days_in_month, freq="D")
    return list(days[days.day_of_week == weekday])[n if n < 0 else n - 1]


def _on_days(days: set) -> pd.DataFrame:
    h = _hom()
    return h[h["date"].dt.normalize().isin(days)]


def hol_thanksgiving_by_year():
    """Thanksgiving = the fourth Thursday of November, each year 2001-2023."""
    days = {_nth_weekday(y, 11, 3, 4) for y in range(2001, 2024)}
    counts = _on_days(days).groupby("year").size().reindex(range(2001, 2024), fill_value=0)
    # 2023's data end on July 19, before its Thanksgiving: a yearly average is over the 22 Thanksgivings held.
    return {"by_year": {int(y): int(n) for y, n in counts.items()}, "per_year": float(counts.sum() / 22)}


def hol_memorial_day_weekend_2016_2020():
    """Memorial Day weekend = the Saturday to the Monday of the last Monday of May; years 2016, 2018, 2020."""
    days = set()
    for y in (2016, 2018, 2020):
        monday = _nth_weekday(y, 5, 0, -1)
        days |= {monday - pd.Timedelta(days=k) for k in range(3)}
    return {"total": int(len(_on_days(days)))}


def night_friday_saturday_2022():
    """Friday and Saturday nights of 2022 from 22:00 to 02:59: the hours after midnight belong to the night before
    (Saturday 01:30 is Friday night)."""
    h = _hom()
    h = h[h["year"] == 2022]
    hour = h["date"].dt.hour
    night_of = (h["date"].dt.day_of_week - (hour < 12).astype(int)) % 7
    keep = hour.isin([22, 23, 0, 1, 2]) & night_of.isin([4, 5])
    return {"total": int(keep.sum())}


def iucr_homicide_codes():
    """iucr_codes.csv rows whose PRIMARY DESCRIPTION is HOMICIDE, in file order, each with its homicides.csv rows."""
    i = pd.read_csv(DATA / "iucr_codes.csv", dtype=str)
    i = i[i["PRIMARY DESCRIPTION"] == "HOMICIDE"]
    rows = pd.read_csv(DATA / "homicides.csv", dtype=str)["IUCR"].value_counts()
    return {"codes": list(i["IUCR"]), "descriptions": dict(zip(i["IUCR"], i["SECONDARY DESCRIPTION"])),
            "index_codes": dict(zip(i["IUCR"], i["INDEX CODE"])),
            "homicides": {c: int(rows.get(c, 0)) for c in i["IUCR"]}}


def _norm(text) -> str:
    return " ".join("".join(ch if ch.isalnum() or ch == "'" else " " for ch in str(text).lower()).split())


def station_of_every_area():
    """An area's station: the police_stations.csv row whose COMMUNITY AREA is the area; else the row whose DISTRICT
    NAME is the area's name (case and punctuation aside); else the station of the DISTRICT that most of the area's
    homicides.csv rows name. Returns area -> the station's ADDRESS."""
    st = _stations()
    st = st[pd.to_numeric(st["DISTRICT"], errors="coerce").notna()].copy()
    st["d"] = st["DISTRICT"].astype(float).astype(int)
    h = _hom()
    out = {}
    for area, name in _names().items():
        inside = st[pd.to_numeric(st["COMMUNITY AREA"], errors="coerce") == area]
        named = st[st["DISTRICT NAME"].map(_norm) == _norm(name)]
        if len(inside):
            row = inside.iloc[0]
        elif len(named):
            row = named.iloc[0]
        else:
            d = h.loc[h["area"] == area, "district"].dropna().astype(int).value_counts()
            row = st[st["d"] == int(d.index[0])].iloc[0]
        out[area] = row["ADDRESS"].strip()
    return {"addresses": out}


def police_headquarters():
    """The police_stations.csv row whose DISTRICT is not a number: the department's headquarters."""
    st = _stations()
    hq = st[pd.to_numeric(st["DISTRICT"], errors="coerce").isna()].iloc[0]
    return {"address": hq["ADDRESS"].strip(), "zip": str(hq["ZIP"]).strip()[:5]}


def trend_biggest_increase_2019_2021():
    """Community areas by the change in homicides from 2019 to 2021 (one year each, so the yearly average is the
    count); areas with none in either year are not ranked; the top 5 increases, ties by the lower number."""
    a, b = _counts((2019,)), _counts((2021,))
    change = (b - a)[(a + b) > 0]
    top = _rank(change, 5, True)
    return {"areas": top, "changes": {k: int(change[k]) for k in top}, "ranked": int(len(change))}


def _median_from_bands(counts: list) -> float:
    """Interpolated median household income from the five ACS bands; the open top band gives its floor."""
    edges = [0, 25000, 50000, 75000, 125000, None]
    half, below = sum(counts) / 2, 0.0
    for k, count in enumerate(counts):
        if count > 0 and below + count >= half:
            if edges[k + 1] is None:
                return 125000.0
            return edges[k] + (half - below) / count * (edges[k + 1] - edges[k])
        below += count
    return float("nan")


BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]


def median_income_estimates():
    """The estimate for Hyde Park (41), Englewood (68), Lincoln Park (7, in the open band) and the city (the 77
    areas' bands summed)."""
    a = _acs()
    areas = {k: _median_from_bands([float(a.loc[k, c]) for c in BANDS]) for k in (7, 41, 68)}
    return {"areas": areas, "city": _median_from_bands([float(a[c].sum()) for c in BANDS])}


def population_growth_top5_pct():
    """The 5 areas whose population grew most in percent from the 2010 census to ACS 2019-2023."""
    pct = (_acs_pop().reindex(AREAS) / _pop2010().reindex(AREAS) - 1) * 100
    top = _rank(pct, 5, True)
    return {"areas": top, "pct": {k: float(pct[k]) for k in top}}


def _zhvi_year_mean(year: int) -> pd.Series:
    z = _zhvi_long()
    z = z[(z["Year"] == year) & z["price"].notna()]
    return z.groupby("zip")["price"].mean()


def home_value_change_since_2017():
    """Areas by the percent change of their home value from the 2017 average to 2024-09, both over the area's ZIPs
    valued in both periods (weights = share_of_community_area); only areas whose ZIPs valued in 2024-09 cover at least
    a fifth of their land; the top 5 rises."""
    x = _xwalk().copy()
    now, then = _zhvi(2024, 9), _zhvi_year_mean(2017)
    x["now"], x["then"] = x["zip"].map(now), x["zip"].map(then)
    cover = x[x["now"].notna()].groupby("area_number")["share_of_community_area"].sum().reindex(AREAS, fill_value=0)
    both = x[x["now"].notna() & x["then"].notna()]
    w = both["share_of_community_area"]
    pct = ((w * both["now"]).groupby(both["area_number"]).sum()
           / (w * both["then"]).groupby(both["area_number"]).sum() - 1) * 100
    pct = pct.reindex(AREAS)[cover >= 0.2]
    top = _rank(pct, 5, True)
    return {"areas": top, "pct": {k: float(pct[k]) for k in top}}


def zip_value_spread_2024_09():
    """The ZIPs' own ZHVI values in 2024-09: how many, the lowest, the median and the highest."""
    v = _zhvi(2024, 9).dropna()
    return {"n": int(len(v)), "min": float(v.min()), "median": float(v.median()), "max": float(v.max())}


CASES += [
    {"id": "hol_thanksgiving_by_year", "kind": "holiday", "expected": hol_thanksgiving_by_year,
     "question": "How many homicides happened on Thanksgiving each year, and how many a year on average?",
     "definition": "Thanksgiving = fourth Thursday of November; homicides.csv rows dated that day, by Year; the "
                   "average over the years whose data hold the day (2023 ends in July)."},
    {"id": "hol_memorial_day_weekend_2016_2020", "kind": "holiday", "expected": hol_memorial_day_weekend_2016_2020,
     "question": "How many homicides on Memorial Day weekend in 2016, 2018 and 2020 together?",
     "definition": "Saturday to Monday of the last Monday of May, in each of the three years."},
    {"id": "night_friday_saturday_2022", "kind": "night", "expected": night_friday_saturday_2022,
     "question": "How many homicides on Friday and Saturday nights between 10 pm and 3 am in 2022?",
     "definition": "hours 22, 23, 0, 1, 2; an hour before noon is the night of the day before."},
    {"id": "iucr_homicide_codes", "kind": "iucr", "expected": iucr_homicide_codes,
     "question": "Which IUCR codes are homicide codes, and how many homicide rows use each?",
     "definition": "iucr_codes.csv PRIMARY DESCRIPTION == HOMICIDE; homicides.csv IUCR value counts."},
    {"id": "station_of_every_area", "kind": "station", "expected": station_of_every_area,
     "question": "What is the police station of each community area?",
     "definition": "the station in the area, else the district named like it, else the district most of its "
                   "homicide rows name."},
    {"id": "police_headquarters", "kind": "station", "expected": police_headquarters,
     "question": "Where is police headquarters?", "definition": "the police_stations.csv row with no district number."},
    {"id": "trend_biggest_increase_2019_2021", "kind": "trend_ranking", "expected": trend_biggest_increase_2019_2021,
     "question": "Which community areas saw the biggest increase in homicides from 2019 to 2021?",
     "definition": "2021 count minus 2019 count per area; areas with none in both left out; top 5."},
    {"id": "median_income_estimates", "kind": "median_estimate", "expected": median_income_estimates,
     "question": "What is the median household income in Hyde Park, Englewood, Lincoln Park and the city?",
     "definition": "interpolated from census_acs.csv's five household income bands."},
    {"id": "population_growth_top5_pct", "kind": "population_change", "expected": population_growth_top5_pct,
     "question": "Which areas grew fastest since the 2010 census?",
     "definition": "census_acs.csv total_population / census_population_2010.csv POP2010 - 1, in percent; top 5."},
    {"id": "home_value_change_since_2017", "kind": "home_value_change", "expected": home_value_change_since_2017,
     "question": "Which areas' home values rose the most since 2017?",
     "definition": "2024-09 against the 2017 average over the ZIPs valued in both; areas a fifth covered or more."},
    {"id": "zip_value_spread_2024_09", "kind": "zip_spread", "expected": zip_value_spread_2024_09,
     "question": "What is the range of Chicago ZIPs' home values in September 2024?",
     "definition": "property_zhvi_zip_monthly.csv 2024-09 values: count, min, median, max."},
]

if __name__ == "__main__":
    from collections import Counter

    t0 = time.time()
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for c in CASES:
        t = time.time()
        res = _py(c["expected"]())
        print(f"{c['id']} [{c['kind']}] ({time.time() - t:.2f}s): {res}")
    print(f"\n{len(CASES)} cases, {dict(Counter(c['kind'] for c in CASES))}, total {time.time() - t0:.2f}s")
