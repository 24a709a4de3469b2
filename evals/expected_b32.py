"""Expected answers for the blind32 held-out question set (Chicago public data).

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
"""
from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from evals.expected import data_dir

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


# ----------------------------------------------------------------------------- loading
@functools.lru_cache(None)
def _hom() -> pd.DataFrame:
    h = pd.read_csv(data_dir() / "homicides.csv", dtype=str)
    dt = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "dt": dt, "year": dt.dt.year, "month": dt.dt.month, "wd": dt.dt.dayofweek,
        "hour": dt.dt.hour,
        "ca": pd.to_numeric(h["Community Area"], errors="coerce").astype("Int64"),
        "ward": pd.to_numeric(h["Ward"], errors="coerce").astype("Int64"),
        "district": pd.to_numeric(h["District"], errors="coerce").astype("Int64"),
        "arr": h["Arrest"].str.lower().eq("true"),
        "dom": h["Domestic"].str.lower().eq("true"),
        "loc": h["Location Description"].fillna("").str.upper(),
    })
    return out


@functools.lru_cache(None)
def _areas() -> pd.DataFrame:
    ca = pd.read_csv(data_dir() / "community_areas.csv")
    name = ca["community"].str.title().str.replace("Mckinley", "McKinley").str.replace(
        "Ohare", "O'Hare")
    df = pd.DataFrame({"name": name.values, "upper": ca["community"].values,
                       "sqmi": ca["area_sq_mi"].values}, index=ca["area_number"].values)
    p10 = pd.read_csv(data_dir() / "census_population_2010.csv").set_index("NID")["POP2010"]
    df["pop2010"] = p10
    acs = pd.read_csv(data_dir() / "census_acs.csv").set_index("community_area")
    acs = acs.loc[df["upper"]].set_index(df.index)
    for c in acs.columns:
        if c not in ("community_area", "record_id"):
            df["acs_" + c] = pd.to_numeric(acs[c])
    se = pd.read_csv(data_dir() / "socioeconomic.csv")
    se.columns = [c.strip() for c in se.columns]
    sec = se[se["Community Area Number"].notna()].copy()
    sec.index = sec["Community Area Number"].astype(int)
    m = {"crowded": "PERCENT OF HOUSING CROWDED", "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
         "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
         "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
         "dependent": "PERCENT AGED UNDER 18 OR OVER 64", "income": "PER CAPITA INCOME",
         "hardship": "HARDSHIP INDEX"}
    for k, c in m.items():
        df["se_" + k] = pd.to_numeric(sec[c])
    return df


@functools.lru_cache(None)
def _se_city() -> dict:
    se = pd.read_csv(data_dir() / "socioeconomic.csv")
    se.columns = [c.strip() for c in se.columns]
    row = se[se["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"].iloc[0]
    m = {"crowded": "PERCENT OF HOUSING CROWDED", "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
         "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
         "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
         "dependent": "PERCENT AGED UNDER 18 OR OVER 64", "income": "PER CAPITA INCOME"}
    return {k: float(row[c]) for k, c in m.items()}


@functools.lru_cache(None)
def _zipx() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")


@functools.lru_cache(None)
def _zhvi() -> pd.DataFrame:
    z = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].astype(int).map("{:02d}".format)
    return z.pivot(index="RegionName", columns="ym", values="price")


@functools.lru_cache(None)
def _ihs() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


@functools.lru_cache(None)
def _ihsx() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_ihs_submarket_crosswalk.csv")


@functools.lru_cache(None)
def _stations() -> pd.DataFrame:
    p = pd.read_csv(data_dir() / "police_stations.csv")
    p = p[p["DISTRICT"].astype(str).str.isdigit()].copy()
    p["DISTRICT"] = p["DISTRICT"].astype(int)
    return p.set_index("DISTRICT")


@functools.lru_cache(None)
def _wards() -> pd.DataFrame:
    w = pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig")
    return w.set_index("WARD")


@functools.lru_cache(None)
def _redfin() -> pd.DataFrame:
    r = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    return r


# ----------------------------------------------------------------------------- helpers
def _area_id(area) -> int:
    if isinstance(area, (int, np.integer)):
        return int(area)
    s = str(area).strip()
    if s.isdigit():
        return int(s)
    a = _areas()
    key = s.upper().replace("'", "")
    hit = a.index[a["upper"].str.replace("'", "") == key]
    if len(hit) != 1:
        raise KeyError(area)
    return int(hit[0])


def _years(spec: str) -> list[int]:
    spec = str(spec)
    if "-" in spec:
        a, b = spec.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(spec)]


def _ints(spec: str, lo: int, hi: int) -> list[int]:
    out = []
    for part in str(spec).split(","):
        if "-" in part:
            a, b = (int(x) for x in part.split("-"))
            if a <= b:
                out += list(range(a, b + 1))
            else:  # wrap-around (hours 22-3, months 12-2)
                out += list(range(a, hi + 1)) + list(range(lo, b + 1))
        else:
            out.append(int(part))
    return out


def _filter(h: pd.DataFrame, flt: str | None) -> pd.DataFrame:
    if not flt:
        return h
    for part in flt.split(";"):
        k, v = part.split("=")
        if k == "dom":
            h = h[h["dom"] == (v == "1")]
        elif k == "arr":
            h = h[h["arr"] == (v == "1")]
        elif k == "loc":
            h = h[h["loc"].isin([x.upper() for x in v.split("/")])]
        elif k == "months":
            h = h[h["month"].isin(_ints(v, 1, 12))]
        elif k == "wd":
            h = h[h["wd"].isin(_ints(v, 0, 6))]
        elif k == "hours":
            h = h[h["hour"].isin(_ints(v, 0, 23))]
        elif k == "md":
            md = h["dt"].dt.strftime("%m-%d")
            h = h[md.isin(v.split(","))]
        else:
            raise KeyError(k)
    return h


def _hrows(years: str, flt: str | None = None) -> pd.DataFrame:
    h = _hom()
    h = h[h["year"].isin(_years(years))]
    return _filter(h, flt)


def _popyears(years: str) -> pd.Series:
    a = _areas()
    tot = pd.Series(0.0, index=a.index)
    for y in _years(years):
        tot = tot + (a["pop2010"] if y <= 2015 else a["acs_total_population"])
    return tot


ACS_GROUPS = {
    "black": ["black_or_african_american"], "white": ["white"], "asian": ["asian"],
    "hispanic": ["hispanic_or_latino"], "white_nh": ["white_not_hispanic_or_latino"],
    "65plus": ["male_65", "female_65"], "children": ["male_0_to_17", "female_0_to_17"],
    "18_24": ["male_18_to_24", "female_18_to_24"],
    "25_34": ["male_25_to_34", "female_25_to_34"],
}
INC_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000",
             "_125_000"]
INC_GROUPS = {"inc_under25": ["under_25_000"], "inc_125plus": ["_125_000"],
              "inc_under50": ["under_25_000", "_25_000_to_49_999"],
              "inc_75plus": ["_75_000_to_125_000", "_125_000"]}


def _zhvi_area(ym: str) -> pd.Series:
    z = _zhvi()
    x = _zipx()
    a = _areas()
    out = pd.Series(np.nan, index=a.index)
    if ym not in z.columns:
        raise KeyError(ym)
    vals = z[ym]
    for ca, g in x.groupby("area_number"):
        v = g["zip"].map(vals)
        ok = v.notna()
        if ok.any():
            w = g["share_of_community_area"][ok]
            out[ca] = float((v[ok] * w).sum() / w.sum())
    return out


def _main_zip(ca: int) -> int:
    g = _zipx()[_zipx()["area_number"] == ca]
    return int(g.sort_values(["share_of_community_area", "zip"], ascending=[False, True])
               .iloc[0]["zip"])


def _zip_area(zipc: int) -> int:
    g = _zipx()[_zipx()["zip"] == int(zipc)]
    return int(g.sort_values(["share_of_zip", "area_number"], ascending=[False, True])
               .iloc[0]["area_number"])


def _main_submarket(ca: int) -> str:
    g = _ihsx()[_ihsx()["area_number"] == ca]
    return g.sort_values("share_of_community_area", ascending=False).iloc[0]["submarket_code"]


def _ihs_year(code: str, year: int) -> float:
    i = _ihs()
    v = i[(i["submarket_code"] == code) & (i["year"] == int(year))]["index_2000q1_100"]
    if len(v) != 4:
        return np.nan
    return float(v.mean())


def _measure(spec: str) -> pd.DataFrame:
    """Per-area numerator / denominator / factor for a measure spec.

    Specs: hom:Y[@flt]  rate:Y[@flt]  density:Y[@flt]  arrest:Y[@flt]  domestic:Y[@flt]
    homchg:Y0:Y1[@flt]  se:<key>  acs:<group>  acs:pop  pop2010  popchg  sqmi
    zhvi:YYYY-MM  zhvichg:YYYY-MM:YYYY-MM  ihs:YYYY  share:Y[@flt] (filtered rows / all rows)
    """
    a = _areas()
    idx = a.index
    flt = None
    if "@" in spec:
        spec, flt = spec.split("@", 1)
    kind, _, arg = spec.partition(":")
    one = pd.Series(1.0, index=idx)

    def counts(rows):
        c = rows.dropna(subset=["ca"]).groupby("ca").size()
        return c.reindex(idx, fill_value=0).astype(float)

    if kind == "hom":
        return pd.DataFrame({"num": counts(_hrows(arg, flt)), "den": one, "f": 1.0})
    if kind == "rate":
        return pd.DataFrame({"num": counts(_hrows(arg, flt)), "den": _popyears(arg), "f": 1e5})
    if kind == "density":
        return pd.DataFrame({"num": counts(_hrows(arg, flt)), "den": a["sqmi"], "f": 1.0})
    if kind in ("arrest", "domestic"):
        rows = _hrows(arg, flt)
        col = "arr" if kind == "arrest" else "dom"
        return pd.DataFrame({"num": counts(rows[rows[col]]), "den": counts(rows), "f": 100.0})
    if kind == "share":
        return pd.DataFrame({"num": counts(_hrows(arg, flt)), "den": counts(_hrows(arg)),
                             "f": 100.0})
    if kind == "homchg":
        y0, y1 = arg.split(":")
        return pd.DataFrame({"num": counts(_hrows(y1, flt)) - counts(_hrows(y0, flt)),
                             "den": one, "f": 1.0})
    if kind == "se":
        return pd.DataFrame({"num": a["se_" + arg], "den": one, "f": 1.0})
    if kind == "acs":
        if arg == "pop":
            return pd.DataFrame({"num": a["acs_total_population"], "den": one, "f": 1.0})
        if arg in ACS_GROUPS:
            num = sum(a["acs_" + c] for c in ACS_GROUPS[arg])
            return pd.DataFrame({"num": num, "den": a["acs_total_population"], "f": 100.0})
        if arg in INC_GROUPS:
            num = sum(a["acs_" + c] for c in INC_GROUPS[arg])
            den = sum(a["acs_" + c] for c in INC_BANDS)
            return pd.DataFrame({"num": num, "den": den, "f": 100.0})
        raise KeyError(arg)
    if kind == "pop2010":
        return pd.DataFrame({"num": a["pop2010"].astype(float), "den": one, "f": 1.0})
    if kind == "popchg":
        return pd.DataFrame({"num": a["acs_total_population"] - a["pop2010"],
                             "den": a["pop2010"].astype(float), "f": 100.0})
    if kind == "sqmi":
        return pd.DataFrame({"num": a["sqmi"], "den": one, "f": 1.0})
    if kind == "zhvi":
        return pd.DataFrame({"num": _zhvi_area(arg), "den": one, "f": 1.0})
    if kind == "zhvichg":
        m0, m1 = arg.split(":")
        v0, v1 = _zhvi_area(m0), _zhvi_area(m1)
        return pd.DataFrame({"num": v1 - v0, "den": v0, "f": 100.0})
    if kind == "ihs":
        vals = pd.Series({ca: _ihs_year(_main_submarket(ca), int(arg)) for ca in idx})
        return pd.DataFrame({"num": vals, "den": one, "f": 1.0})
    raise KeyError(kind)


def _values(spec: str) -> pd.Series:
    neg = spec.startswith("neg|")
    m = _measure(spec[4:] if neg else spec)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = m["num"] / m["den"] * m["f"]
    v = v.replace([np.inf, -np.inf], np.nan)
    return -v if neg else v


def _city_value(spec: str) -> float:
    """City reference value of a measure (for 'city' thresholds and gaps)."""
    flt = None
    base = spec
    if "@" in spec:
        base, flt = spec.split("@", 1)
    kind, _, arg = base.partition(":")
    a = _areas()
    if kind == "rate":
        pop = sum(a["pop2010"].sum() if y <= 2015 else a["acs_total_population"].sum()
                  for y in _years(arg))
        return len(_hrows(arg, flt)) / pop * 1e5
    if kind in ("arrest", "domestic"):
        rows = _hrows(arg, flt)
        return rows["arr" if kind == "arrest" else "dom"].mean() * 100
    if kind == "se":
        return _se_city()[arg]
    m = _measure(spec)
    return m["num"].sum() / m["den"].sum() * m["f"].iloc[0]


def _rank_order(v: pd.Series, ascending: bool) -> pd.Series:
    v = v.dropna()
    df = pd.DataFrame({"v": v, "ca": v.index})
    df = df.sort_values(["v", "ca"], ascending=[ascending, True])
    return df["v"]


def _threshold(spec: str, val: str) -> float:
    v = _values(spec).dropna()
    if val == "city":
        return _city_value(spec)
    if val == "median":
        return float(v.median())
    if val == "mean":
        return float(v.mean())
    return float(val)


def _where(where) -> list[int]:
    """Intersect a list of set specs.

    top~N~m / bottom~N~m / gt~T~m / lt~T~m / ge~T~m / le~T~m / in~1,2,3 / q~K~m (income-like
    quartile K of 4, 1 = lowest) ; prefix '!' = complement (of areas with a value).
    """
    a = _areas()
    cur = set(a.index)
    if not where:
        return sorted(cur)
    if isinstance(where, str):
        where = [where]
    for w in where:
        neg = w.startswith("!")
        if neg:
            w = w[1:]
        op, _, rest = w.partition("~")
        if op == "in":
            s = {_area_id(x) for x in rest.split(",")}
            universe = set(a.index)
        elif op == "sub":
            s = {ca for ca in a.index if _main_submarket(ca) == rest}
            universe = set(a.index)
        else:
            arg, _, spec = rest.partition("~")
            v = _values(spec).dropna()
            universe = set(v.index)
            if op in ("top", "bottom"):
                s = set(_rank_order(v, op == "bottom").index[: int(arg)])
            elif op in ("gt", "lt", "ge", "le"):
                t = _threshold(spec, arg)
                s = set(v.index[{"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}[op]])
            elif op == "sub":
                pass
            elif op == "q":
                qs = v.quantile([0.25, 0.5, 0.75]).values
                k = int(arg)
                lo = -np.inf if k == 1 else qs[k - 2]
                hi = np.inf if k == 4 else qs[k - 1]
                s = set(v.index[(v > lo) & (v <= hi)]) if k > 1 else set(v.index[v <= hi])
            else:
                raise KeyError(op)
        cur &= (universe - s) if neg else s
    return sorted(cur)


def _r(x: float, nd: int = 1):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return float("nan")
    return round(float(x), nd)


def _stat(ids, spec: str, how: str) -> float:
    neg = spec.startswith("neg|")
    m = _measure(spec[4:] if neg else spec).loc[ids]
    sgn = -1 if neg else 1
    v = _values(spec).loc[ids].dropna()
    if how == "pooled":
        ok = m["num"].notna() & m["den"].notna()
        return sgn * m["num"][ok].sum() / m["den"][ok].sum() * m["f"].iloc[0]
    if how == "sum":
        return float(v.sum())
    if how == "mean":
        return float(v.mean())
    if how == "median":
        return float(v.median())
    if how == "max":
        return float(v.max())
    if how == "min":
        return float(v.min())
    if how == "range":
        return float(v.max() - v.min())
    if how == "count":
        return float(len(v))
    if how == "city_share":
        base, _, flt = spec.partition("@")
        kind, _, arg = base.partition(":")
        assert kind == "hom"
        return float(m["num"].sum() / len(_hrows(arg, flt or None)) * 100)
    raise KeyError(how)


def _round_for(spec: str, how: str, x: float):
    """Counts and money as integers (means/medians of counts to 1 decimal); else 1 decimal."""
    base = spec.replace("neg|", "").split("@")[0]
    kind = base.split(":")[0]
    if how == "count":
        return int(x)
    if how == "city_share":
        return _r(x, 1)
    money = kind == "zhvi" or base in ("se:income",)
    countish = kind in ("hom", "homchg", "pop2010") or base in ("acs:pop", "se:hardship")
    if money:
        return int(round(x))
    if countish:
        return int(round(x)) if how in ("value", "sum", "max", "min", "range") else _r(x, 1)
    return _r(x, 1)


# ----------------------------------------------------------------------------- public API
def b32_area_value(*, area, measure: str):
    """One community area's value of a measure."""
    ca = _area_id(area)
    x = float(_values(measure)[ca])
    return _round_for(measure, "value", x)


def b32_city_value(*, measure: str):
    """City value of a measure (rate: all rows / city pop; se: CHICAGO row; shares pooled)."""
    return _round_for(measure, "value", _city_value(measure))


def b32_gap_to_city(*, area, measure: str):
    """Area value minus the city value (signed)."""
    ca = _area_id(area)
    return _r(float(_values(measure)[ca]) - _city_value(measure), 1)


def b32_set_stat(*, where, measure: str, how: str = "pooled"):
    """Statistic of a measure over the set of areas selected by ``where``."""
    ids = _where(where)
    return _round_for(measure, how, _stat(ids, measure, how))


def b32_set_size(*, where):
    """Number of community areas in a set."""
    return len(_where(where))


def b32_set_ratio(*, where_a, where_b, measure: str, how: str = "pooled"):
    """Set statistic of A divided by that of B."""
    return _r(_stat(_where(where_a), measure, how) / _stat(_where(where_b), measure, how), 1)


def b32_set_diff(*, where_a, where_b, measure: str, how: str = "pooled"):
    """Set statistic of A minus that of B."""
    return _r(_stat(_where(where_a), measure, how) - _stat(_where(where_b), measure, how), 1)


def b32_within_share(*, where_sub, where_set, years: str, flt: str = ""):
    """Homicides in the sub-set's areas / homicides in the whole set's areas * 100."""
    sub = set(_where(where_sub)) & set(_where(where_set))
    v = _values(f"hom:{years}" + (f"@{flt}" if flt else ""))
    return _r(v.loc[sorted(sub)].sum() / v.loc[_where(where_set)].sum() * 100, 1)


def b32_ranked_label(*, measure: str, rank: int = 1, ascending: bool = False, where=None):
    """Name of the area at position ``rank`` (1 = first) of a ranking."""
    ids = _where(where)
    v = _values(measure).loc[ids]
    order = _rank_order(v, ascending)
    return _areas().loc[order.index[rank - 1], "name"]


def b32_ranked_value(*, measure: str, rank: int = 1, ascending: bool = False, where=None,
                     then: str | None = None):
    """Value (of ``then`` if given, else of the ranking measure) at position ``rank``."""
    ids = _where(where)
    v = _values(measure).loc[ids]
    order = _rank_order(v, ascending)
    ca = order.index[rank - 1]
    m = then or measure
    return _round_for(m, "value", float(_values(m)[ca]))


def b32_rank_of(*, area, measure: str, ascending: bool = False):
    """Position (1 = highest unless ascending) of a named area in a ranking."""
    ca = _area_id(area)
    order = _rank_order(_values(measure), ascending)
    return int(list(order.index).index(ca) + 1)


def b32_corr(*, a: str, b: str, method: str = "pearson", where=None):
    ids = _where(where)
    df = pd.DataFrame({"a": _values(a).loc[ids], "b": _values(b).loc[ids]}).dropna()
    if method == "spearman":
        df = df.rank()
    return _r(df["a"].corr(df["b"]), 2)


def b32_city_hom(*, years: str, flt: str = "", stat: str = "count", district=None, ward=None,
                 area=None, per_years: bool = False):
    """City (or one district / ward / area) homicide figure.

    stat: count | arrest (percent arrested) | domestic (percent domestic) |
          share (filtered rows / unfiltered rows of the same place and years * 100)
    """
    rows = _hrows(years)
    if district is not None:
        rows = rows[rows["district"] == int(district)]
    if ward is not None:
        rows = rows[rows["ward"] == int(ward)]
    if area is not None:
        rows = rows[rows["ca"] == _area_id(area)]
    f = _filter(rows, flt or None)
    if stat == "count":
        if per_years:
            return _r(len(f) / len(_years(years)), 1)
        return int(len(f))
    if stat == "arrest":
        return _r(f["arr"].mean() * 100, 1)
    if stat == "domestic":
        return _r(f["dom"].mean() * 100, 1)
    if stat == "share":
        return _r(len(f) / len(rows) * 100, 1)
    raise KeyError(stat)


def b32_city_hom_change(*, y0: str, y1: str, flt: str = "", pct: bool = True):
    """City change in homicide count between two periods (percent or difference)."""
    a = len(_filter(_hrows(y0), flt or None))
    b = len(_filter(_hrows(y1), flt or None))
    return _r((b / a - 1) * 100, 1) if pct else int(b - a)


def b32_peak_period(*, where=None, years: str, by: str = "month", flt: str = "",
                    district=None):
    """Month name or year with most homicide rows in the set's areas (or a district)."""
    rows = _filter(_hrows(years), flt or None)
    if district is not None:
        rows = rows[rows["district"] == int(district)]
    else:
        rows = rows[rows["ca"].isin(_where(where))]
    c = rows.groupby(by).size()
    c = c[c == c.max()].sort_index()
    k = int(c.index[0])
    return MONTHS[k - 1] if by == "month" else str(k)


def b32_peak_label(*, years: str, by: str = "loc", flt: str = "", where=None, rank: int = 1):
    """Most common label (location description, weekday name, hour) for rows in a set."""
    rows = _filter(_hrows(years), flt or None)
    if where is not None:
        rows = rows[rows["ca"].isin(_where(where))]
    c = rows.groupby(by).size().reset_index(name="n").sort_values(["n", by],
                                                                   ascending=[False, True])
    k = c.iloc[rank - 1][by]
    if by == "wd":
        return ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                "Sunday"][int(k)]
    return str(k) if by != "hour" else int(k)


def b32_district_area(*, district: int, measure: str | None = None, label: bool = False):
    """Community area holding a police district's station; its name or a measure there."""
    ca = int(_stations().loc[int(district), "COMMUNITY AREA"])
    if label or measure is None:
        return _areas().loc[ca, "name"]
    return _round_for(measure, "value", float(_values(measure)[ca]))


def b32_ward_area(*, ward: int, measure: str | None = None, label: bool = False):
    """Ward office ZIP -> the area covering most of that ZIP (share_of_zip) -> name/measure."""
    z = int(_wards().loc[int(ward), "ZIPCODE"])
    ca = _zip_area(z)
    if label or measure is None:
        return _areas().loc[ca, "name"]
    return _round_for(measure, "value", float(_values(measure)[ca]))


def b32_ward_alder(*, ward: int):
    return _wards().loc[int(ward), "ALDERMAN"].split(",")[0].strip()


def b32_area_zip(*, area, ym: str | None = None, ym0: str | None = None):
    """An area's main ZIP (largest share_of_community_area); with ym its ZHVI, with ym0 the
    percent change of that ZIP's ZHVI from ym0 to ym."""
    z = _main_zip(_area_id(area))
    if ym is None:
        return str(z)
    v1 = _zhvi().loc[z, ym]
    if ym0 is None:
        return int(round(v1))
    return _r((v1 / _zhvi().loc[z, ym0] - 1) * 100, 1)


def b32_zip_value(*, zip: int, ym: str, ym0: str | None = None):
    v1 = _zhvi().loc[int(zip), ym]
    if ym0 is None:
        return int(round(v1))
    return _r((v1 / _zhvi().loc[int(zip), ym0] - 1) * 100, 1)


def b32_area_ihs(*, area, year: int | None = None, year0: int | None = None,
                 label: bool = False):
    """An area's IHS submarket (largest share_of_community_area): name, annual index or
    percent change of the annual index from year0 to year."""
    code = _main_submarket(_area_id(area))
    if label:
        i = _ihs()
        return i[i["submarket_code"] == code]["submarket_name"].iloc[0]
    v = _ihs_year(code, year)
    if year0 is None:
        return _r(v, 1)
    return _r((v / _ihs_year(code, year0) - 1) * 100, 1)


def b32_ihs_value(*, code: str, yearq: str | None = None, year: int | None = None):
    i = _ihs()
    if yearq:
        return _r(float(i[(i["submarket_code"] == code) & (i["yearq"] == yearq)]
                        ["index_2000q1_100"].iloc[0]), 1)
    return _r(_ihs_year(code, year), 1)


def b32_ihs_rank_label(*, yearq0: str, yearq1: str, rank: int = 1, ascending: bool = False):
    """Chicago submarket (Chicago-- rows) ranked by percent change yearq0 -> yearq1."""
    i = _ihs()
    i = i[i["submarket_name"].str.startswith("Chicago--")]
    p = i.pivot(index="submarket_name", columns="yearq", values="index_2000q1_100")
    ch = (p[yearq1] / p[yearq0] - 1).sort_values(ascending=ascending)
    return ch.index[rank - 1]


def b32_ihs_summary(*, submarket: str, column: str):
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    row = s[s["Sub Market"] == submarket].iloc[0]
    val = str(row[column]).strip().replace("$", "").replace(",", "").replace("%", "")
    return int(float(val)) if column == "Median Sales Price" else _r(float(val), 1)


def b32_redfin(*, region: str, column: str, end: str | None = None, year: int | None = None):
    """Redfin value for a region: one row by period-end date, or a city-year total of the
    12 monthly 'Chicago, IL' rows ending in ``year`` (sum)."""
    r = _redfin()
    g = r[r["Region"] == region]
    if year is not None:
        g = g[g["end"].dt.year == int(year)]
        assert len(g) == 12, len(g)
        return int(g[column].sum())
    row = g[g["end"] == pd.Timestamp(end)].iloc[0]
    val = row[column]
    if column == "Median Sale Price":
        s = str(val).replace("$", "").replace(",", "")
        mult = 1000 if s.endswith("K") else (1e6 if s.endswith("M") else 1)
        return int(round(float(s.rstrip("KM")) * mult))
    return _r(float(val), 1) if isinstance(val, float) and not float(val).is_integer() \
        else int(val)


def b32_series_change_label(*, where, years: str, flt: str = ""):
    """Year (as text) of the largest year-over-year rise in the set's homicides."""
    rows = _filter(_hrows(years), flt or None)
    rows = rows[rows["ca"].isin(_where(where))]
    c = rows.groupby("year").size().reindex(_years(years), fill_value=0)
    d = c.diff().dropna()
    d = d[d == d.max()].sort_index()
    return str(int(d.index[0]))


def b32_zip_area(*, zip: int, measure: str | None = None, label: bool = False):
    """The area covering most of a ZIP (share_of_zip): its name or a measure there."""
    ca = _zip_area(int(zip))
    if label or measure is None:
        return _areas().loc[ca, "name"]
    return _round_for(measure, "value", float(_values(measure)[ca]))


def b32_pct_of_set(*, where_set, where_cond):
    """Percent of the set's areas that also meet where_cond."""
    s = _where(where_set)
    c = set(_where(where_cond)) & set(s)
    return _r(len(c) / len(s) * 100, 1)


def b32_ihs_change(*, code: str, a: str, b: str):
    """Percent change of an IHS series from period a to b (yearq like 2020Q1 or a year)."""
    def val(p):
        return b32_ihs_value(code=code, yearq=p) if "Q" in p else _ihs_year(code, int(p))
    return _r((val(b) / val(a) - 1) * 100, 1)


def b32_ihs_summary_top(*, column: str, rank: int = 1, ascending: bool = False,
                        chicago_only: bool = True, value: bool = False):
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    v = s[column].astype(str).str.strip().str.replace("[$,%]", "", regex=True).astype(float)
    s = s.assign(v=v).sort_values("v", ascending=ascending)
    row = s.iloc[rank - 1]
    if value:
        return int(row["v"]) if column == "Median Sales Price" else _r(row["v"], 1)
    return row["Sub Market"]


def b32_ward_rank(*, years: str, rank: int = 1, what: str = "ward", flt: str = ""):
    """Ward ranked by homicide rows (Ward field); what = 'ward' (number as text), 'count' or
    'alder' (surname of that ward's alderperson in ward_offices.csv)."""
    rows = _filter(_hrows(years), flt or None).dropna(subset=["ward"])
    c = rows.groupby("ward").size().reset_index(name="n").sort_values(
        ["n", "ward"], ascending=[False, True])
    row = c.iloc[rank - 1]
    if what == "count":
        return int(row["n"])
    if what == "alder":
        return b32_ward_alder(ward=int(row["ward"]))
    return str(int(row["ward"]))
