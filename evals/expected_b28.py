"""Expected values for the blind28 held-out question set (Chicago public data).

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

Conventions added for blind28
-----------------------------
* Homicide measures are written ``kind:Y0-Y1`` with optional ``|`` filters:
  ``|domestic``, ``|arrest``, ``|noarrest``, ``|loc=STREET`` (Location Description exact),
  ``|months=6-8``, ``|hours=22-3`` (wrapping), ``|weekend``, ``|wd=Monday``.
  kinds: hom (count), rate (per 100k a year), arrest (arrest %), domestic (domestic %),
  density (per sq mi), homchg (``homchg:Y0:Y1`` = count in Y1 - count in Y0),
  homshare (share of that area's homicides in the period meeting the filter, %).
* "Rest of the city" for a set = the community areas (1-77) not in the set; pooled the same way.
* A count-weighted "share of the set's homicides" = set homicides / city homicides * 100
  (city total includes blank-area rows).
* The month / weekday / hour with the most homicides within a set of areas is returned as a
  label (month as its English name); ties broken by calendar order.
* Monthly home value for a ZIP = the ZHVI ``price`` of that ZIP and month, rounded to an integer.
* Year-over-year IHS change for a year = (mean index of year / mean index of prior year - 1) * 100.
* An IHS submarket's "Chicago community areas" = areas whose largest-share submarket it is.
* A fall in a change ranking is written ``neg|measure`` (e.g. ``neg|homchg:2021:2022`` = the
  drop in victims from 2021 to 2022; ``neg|zhvichg:2007-01:2012-01`` = percent fall of the
  area home value), ranked descending and returned positive.
* Set specs (``where``): ``top~N~m`` / ``bottom~N~m`` (ties at the boundary are avoided),
  ``gt|lt|ge|le~m~value`` (value a number, 'city', 'median' or 'mean'), ``!spec`` (areas not
  in spec, i.e. "the rest of the city"), ``areas~A,B``, ``stations`` (the community areas that
  hold a police district station, Headquarters excluded), ``submarket~p31xx``.  Several specs
  are intersected.  "Richest / poorest quarter" questions state the size (19 areas).
* "Rank counting from the cheapest / lowest" = ascending rank among areas with a value.
* The month/hour/weekday "with the most homicides" questions were checked to have no tie.
* Percent changes in counts between two months/years = (later / earlier - 1) * 100.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from evals.expected import data_dir

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


# ----------------------------------------------------------------------------- loaders
@functools.lru_cache(None)
def _hom() -> pd.DataFrame:
    h = pd.read_csv(data_dir() / "homicides.csv", dtype=str)
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h.dt.dt.year
    h["month"] = h.dt.dt.month
    h["hour"] = h.dt.dt.hour
    h["wd"] = h.dt.dt.dayofweek
    h["ca"] = pd.to_numeric(h["Community Area"], errors="coerce").astype("Int64")
    h["ward"] = pd.to_numeric(h["Ward"], errors="coerce").astype("Int64")
    h["district"] = pd.to_numeric(h["District"], errors="coerce").astype("Int64")
    h["arrest"] = h["Arrest"].str.lower() == "true"
    h["domestic"] = h["Domestic"].str.lower() == "true"
    return h


def _title(name: str) -> str:
    fix = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    return fix.get(name, name.title())


@functools.lru_cache(None)
def _ca() -> pd.DataFrame:
    d = data_dir()
    ca = pd.read_csv(d / "community_areas.csv")
    ca["name"] = ca["community"].map(_title)
    pop = pd.read_csv(d / "census_population_2010.csv").rename(columns={"NID": "area_number"})
    ca = ca.merge(pop, on="area_number", how="left")
    acs = pd.read_csv(d / "census_acs.csv").rename(columns={"community_area": "community"})
    ca = ca.merge(acs, on="community", how="left")
    so = pd.read_csv(d / "socioeconomic.csv")
    so.columns = [c.strip() for c in so.columns]
    so = so[so["Community Area Number"].notna()].copy()
    so["area_number"] = so["Community Area Number"].astype(int)
    ca = ca.merge(so, on="area_number", how="left")
    return ca.set_index("area_number").sort_index()


@functools.lru_cache(None)
def _socio_city() -> pd.Series:
    so = pd.read_csv(data_dir() / "socioeconomic.csv")
    so.columns = [c.strip() for c in so.columns]
    return so[so["COMMUNITY AREA NAME"] == "CHICAGO"].iloc[0]


@functools.lru_cache(None)
def _zipx() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv")


@functools.lru_cache(None)
def _zhvi() -> pd.DataFrame:
    z = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv")
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: f"{m:02d}")
    return z


@functools.lru_cache(None)
def _ihs() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


@functools.lru_cache(None)
def _ihsx() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_ihs_submarket_crosswalk.csv")


@functools.lru_cache(None)
def _ihs_summary() -> pd.DataFrame:
    s = pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv")
    return s


@functools.lru_cache(None)
def _police() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "police_stations.csv", dtype=str)


@functools.lru_cache(None)
def _wards() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig")


@functools.lru_cache(None)
def _redfin() -> pd.DataFrame:
    r = pd.read_csv(data_dir() / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")

    def money(s):
        if not isinstance(s, str):
            return np.nan
        s = s.strip().replace("$", "").replace(",", "")
        mult = 1
        if s.endswith("K"):
            mult, s = 1000, s[:-1]
        elif s.endswith("M"):
            mult, s = 1_000_000, s[:-1]
        return float(s) * mult
    r["sale_price"] = r["Median Sale Price"].map(money)
    return r


# ----------------------------------------------------------------------------- helpers
def _years(spec: str) -> list[int]:
    if "-" in spec:
        a, b = spec.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(spec)]


def _pop_year(y: int) -> pd.Series:
    ca = _ca()
    return ca["POP2010"] if y <= 2015 else ca["total_population"]


def _city_pop_year(y: int) -> float:
    return float(_pop_year(y).sum())


def _apply_filters(h: pd.DataFrame, filters: list[str]) -> pd.DataFrame:
    for f in filters:
        if not f:
            continue
        if f == "domestic":
            h = h[h.domestic]
        elif f == "nondomestic":
            h = h[~h.domestic]
        elif f == "arrest":
            h = h[h.arrest]
        elif f == "noarrest":
            h = h[~h.arrest]
        elif f.startswith("loc="):
            h = h[h["Location Description"] == f[4:]]
        elif f.startswith("months="):
            a, b = f[7:].split("-") if "-" in f[7:] else (f[7:], f[7:])
            a, b = int(a), int(b)
            ms = list(range(a, b + 1)) if a <= b else list(range(a, 13)) + list(range(1, b + 1))
            h = h[h.month.isin(ms)]
        elif f.startswith("monthlist="):
            h = h[h.month.isin([int(x) for x in f[10:].split(",")])]
        elif f.startswith("hours="):
            a, b = f[6:].split("-")
            a, b = int(a), int(b)
            hs = list(range(a, b + 1)) if a <= b else list(range(a, 24)) + list(range(0, b + 1))
            h = h[h.hour.isin(hs)]
        elif f == "weekend":
            h = h[h.wd >= 5]
        elif f == "weekday":
            h = h[h.wd < 5]
        elif f.startswith("wd="):
            h = h[h.wd == WEEKDAYS.index(f[3:])]
        elif f.startswith("date="):
            md = f[5:]  # MM-DD
            h = h[h.dt.dt.strftime("%m-%d") == md]
        else:
            raise ValueError(f"unknown filter {f}")
    return h


def _hom_rows(years: str | None = None, filters: list[str] | None = None) -> pd.DataFrame:
    h = _hom()
    if years:
        h = h[h.year.isin(_years(years))]
    return _apply_filters(h, filters or [])


def _parse_hom_measure(m: str):
    parts = m.split("|")
    head, filters = parts[0], parts[1:]
    kind, _, yrs = head.partition(":")
    return kind, yrs, filters


ACS_COLS = {
    "black": ["black_or_african_american"], "white": ["white"], "asian": ["asian"],
    "hispanic": ["hispanic_or_latino"], "white_nh": ["white_not_hispanic_or_latino"],
    "65plus": ["male_65", "female_65"], "children": ["male_0_to_17", "female_0_to_17"],
    "18_24": ["male_18_to_24", "female_18_to_24"], "multiracial": ["multiracial"],
    "male": ["male_0_to_17", "male_18_to_24", "male_25_to_34", "male_35_to_49",
             "male_50_to_64", "male_65"],
}
INC_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
             "_75_000_to_125_000", "_125_000"]
INC_ALIAS = {"inc_lt25": ["under_25_000"], "inc_125plus": ["_125_000"],
             "inc_lt50": ["under_25_000", "_25_000_to_49_999"],
             "inc_75plus": ["_75_000_to_125_000", "_125_000"]}
SOCIO_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED", "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "no_hs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64", "income": "PER CAPITA INCOME",
    "hardship": "HARDSHIP INDEX",
}


def _area_zhvi(month: str) -> pd.Series:
    z = _zhvi()
    zm = z[z.ym == month][["RegionName", "price"]].dropna()
    x = _zipx().merge(zm, left_on="zip", right_on="RegionName", how="inner")
    x["w"] = x["share_of_community_area"] * x["price"]
    g = x.groupby("area_number").agg(w=("w", "sum"), s=("share_of_community_area", "sum"))
    v = g["w"] / g["s"]
    return v.reindex(_ca().index)


@functools.lru_cache(None)
def _measure(m: str) -> pd.DataFrame:
    """DataFrame indexed by area number with columns num, den, mult, value."""
    ca = _ca()
    idx = ca.index
    neg = False
    if m.startswith("neg|"):
        neg, m = True, m[4:]
    kind, _, rest = m.partition(":")
    one = pd.Series(1.0, index=idx)
    if kind in ("hom", "rate", "arrest", "domestic", "density", "homshare"):
        _, yrs, filters = _parse_hom_measure(m)
        if kind in ("arrest", "domestic", "homshare"):
            base = _hom_rows(yrs, [f for f in filters if f not in ("arrest", "domestic")] if kind != "homshare" else [])
            den = base.groupby("ca").size().reindex(idx, fill_value=0).astype(float)
            if kind == "homshare":
                sub = _apply_filters(base, filters)
            else:
                sub = base[base[kind]]
            num = sub.groupby("ca").size().reindex(idx, fill_value=0).astype(float)
            df = pd.DataFrame({"num": num, "den": den.replace(0, np.nan), "mult": 100.0})
        else:
            rows = _hom_rows(yrs, filters)
            num = rows.groupby("ca").size().reindex(idx, fill_value=0).astype(float)
            if kind == "hom":
                df = pd.DataFrame({"num": num, "den": one, "mult": 1.0})
            elif kind == "rate":
                den = sum(_pop_year(y) for y in _years(yrs)).astype(float)
                df = pd.DataFrame({"num": num, "den": den, "mult": 1e5})
            else:
                df = pd.DataFrame({"num": num, "den": ca["area_sq_mi"].astype(float), "mult": 1.0})
    elif kind == "homchg":
        y0, y1 = rest.split(":")[:2]
        a = _measure(f"hom:{y0}")["num"]
        b = _measure(f"hom:{y1}")["num"]
        df = pd.DataFrame({"num": b - a, "den": one, "mult": 1.0})
    elif kind == "acs":
        if rest == "pop":
            df = pd.DataFrame({"num": ca["total_population"].astype(float), "den": one, "mult": 1.0})
        elif rest in INC_ALIAS:
            num = ca[INC_ALIAS[rest]].sum(axis=1)
            den = ca[INC_BANDS].sum(axis=1)
            df = pd.DataFrame({"num": num, "den": den, "mult": 100.0})
        else:
            num = ca[ACS_COLS[rest]].sum(axis=1)
            df = pd.DataFrame({"num": num, "den": ca["total_population"].astype(float), "mult": 100.0})
    elif kind == "socio":
        df = pd.DataFrame({"num": ca[SOCIO_COLS[rest]].astype(float), "den": one, "mult": 1.0})
    elif kind == "pop2010":
        df = pd.DataFrame({"num": ca["POP2010"].astype(float), "den": one, "mult": 1.0})
    elif kind == "popchg":
        df = pd.DataFrame({"num": ca["total_population"] - ca["POP2010"],
                           "den": ca["POP2010"].astype(float), "mult": 100.0})
    elif kind == "sqmi":
        df = pd.DataFrame({"num": ca["area_sq_mi"].astype(float), "den": one, "mult": 1.0})
    elif kind == "zhvi":
        df = pd.DataFrame({"num": _area_zhvi(rest), "den": one, "mult": 1.0})
    elif kind == "zhvichg":
        a, b = rest.split(":")
        va, vb = _area_zhvi(a), _area_zhvi(b)
        ok = va.notna() & vb.notna()
        df = pd.DataFrame({"num": (vb - va).where(ok), "den": va.where(ok), "mult": 100.0})
    else:
        raise ValueError(m)
    df["value"] = df["num"] / df["den"] * df["mult"]
    if neg:
        df["num"] = -df["num"]
        df["value"] = -df["value"]
    return df


def _values(m: str) -> pd.Series:
    return _measure(m)["value"]


def _thr(m: str, t) -> float:
    v = _values(m).dropna()
    if t == "median":
        return float(v.median())
    if t == "mean":
        return float(v.mean())
    if t == "city":
        return _city_value(m)
    return float(t)


def _city_value(m: str) -> float:
    kind, _, rest = m.partition(":")
    if kind in ("rate", "hom", "arrest", "domestic"):
        _, yrs, filters = _parse_hom_measure(m)
        if kind == "rate":
            rows = _hom_rows(yrs, filters)
            return len(rows) / sum(_city_pop_year(y) for y in _years(yrs)) * 1e5
        if kind == "hom":
            return float(len(_hom_rows(yrs, filters)))
        rows = _hom_rows(yrs, filters)
        return rows[kind].mean() * 100
    if kind == "socio":
        return float(_socio_city()[SOCIO_COLS[rest]])
    if kind in ("acs", "popchg"):
        d = _measure(m)
        return float(d["num"].sum() / d["den"].sum() * d["mult"].iloc[0])
    raise ValueError(m)


TIE_WARN: list = []


def _tiecheck(r: pd.Series, n: int, label: str):
    """Record a warning if position n (1-based) ties with its neighbour in ranking r."""
    v = list(r.values)
    if n < len(v) and v[n - 1] == v[n]:
        TIE_WARN.append(f"tie at {n} in {label}")
    if n >= 2 and v[n - 2] == v[n - 1]:
        TIE_WARN.append(f"tie at {n} (with {n-1}) in {label}")


def _ranked(m: str, ascending: bool = False) -> pd.Series:
    v = _values(m).dropna()
    df = pd.DataFrame({"v": v, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[ascending, True])
    return df["v"]


def _set(where) -> list[int]:
    if where is None:
        return list(_ca().index)
    if isinstance(where, str):
        where = [where]
    s = set(_ca().index)
    for w in where:
        neg = w.startswith("!")
        if neg:
            w = w[1:]
        parts = w.split("~")
        op = parts[0]
        if op in ("top", "bottom"):
            r = _ranked(parts[2], ascending=(op == "bottom"))
            k = int(parts[1])
            if k < len(r) and r.iloc[k - 1] == r.iloc[k]:
                TIE_WARN.append(f"tie at set boundary {w}")
            cur = set(r.index[:k])
        elif op in ("gt", "lt", "ge", "le"):
            v = _values(parts[1])
            t = _thr(parts[1], parts[2])
            cur = set(v[{"gt": v > t, "lt": v < t, "ge": v >= t, "le": v <= t}[op]].index)
        elif op == "areas":
            cur = {_area(a) for a in parts[1].split(",")}
        elif op == "quartile":
            # quartile~4~measure  (4 = top quartile by pandas qcut on values present)
            v = _values(parts[2]).dropna()
            q = pd.qcut(v.rank(method="first"), 4, labels=[1, 2, 3, 4])
            cur = set(q[q == int(parts[1])].index)
        elif op == "stations":
            p = _police()
            cur = {int(x) for x in p[p.DISTRICT != "Headquarters"]["COMMUNITY AREA"]}
        elif op == "submarket":
            x = _ca_submarket_table()
            cur = set(x[x.submarket_code == parts[1]].index)
        else:
            raise ValueError(w)
        s = s - cur if neg else s & cur
    return sorted(s)


def _area(a) -> int:
    """Resolve an area: number, name, 'district:N' (station's CA), 'ward:N' (office ZIP ->
    CA covering most of that ZIP), 'zip:NNNNN' (CA covering most of the ZIP)."""
    if isinstance(a, (int, np.integer)):
        return int(a)
    s = str(a).strip()
    if s.isdigit():
        return int(s)
    if s.startswith("district:"):
        p = _police()
        return int(p[p.DISTRICT == s.split(":")[1]]["COMMUNITY AREA"].iloc[0])
    if s.startswith("ward:"):
        w = _wards()
        z = int(w[w.WARD == int(s.split(":")[1])]["ZIPCODE"].iloc[0])
        return _zip_area(z)
    if s.startswith("zip:"):
        return _zip_area(int(s.split(":")[1]))
    ca = _ca()
    m = ca[(ca["community"] == s.upper()) | (ca["name"].str.upper() == s.upper())]
    if len(m) != 1:
        raise ValueError(f"area {a}")
    return int(m.index[0])


def _zip_area(z: int) -> int:
    x = _zipx()
    x = x[x.zip == z].sort_values(["share_of_zip", "area_number"], ascending=[False, True])
    return int(x["area_number"].iloc[0])


def _area_zip(a) -> int:
    n = _area(a)
    x = _zipx()
    x = x[x.area_number == n].sort_values(["share_of_community_area", "zip"], ascending=[False, True])
    return int(x["zip"].iloc[0])


@functools.lru_cache(None)
def _ca_submarket_table() -> pd.DataFrame:
    x = _ihsx().sort_values(["area_number", "share_of_community_area"], ascending=[True, False])
    return x.drop_duplicates("area_number").set_index("area_number")


def _rnd(v, kind="1"):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return float("nan")
    if kind == "int":
        return int(round(float(v)))
    if kind == "2":
        return round(float(v), 2)
    return round(float(v), 1)


def _rnd_for(m: str, v):
    kind = m.replace("neg|", "").split(":")[0]
    if kind in ("hom", "homchg", "pop2010") or m in ("acs:pop", "socio:income", "socio:hardship") \
            or kind == "zhvi":
        return _rnd(v, "int")
    return _rnd(v)


# ----------------------------------------------------------------------------- public API
def b28_area_name(*, area) -> str:
    """Name of an area (resolves chains such as 'district:7', 'ward:17', 'zip:60621')."""
    return str(_ca().loc[_area(area), "name"])


def b28_area_value(*, area, measure: str):
    return _rnd_for(measure, _values(measure).loc[_area(area)])


def b28_rank(*, measure: str, n: int = 1, ascending: bool = False, where=None) -> str:
    r = _ranked(measure, ascending)
    if where is not None:
        s = set(_set(where))
        r = r[r.index.isin(s)]
    _tiecheck(r, n, measure)
    return str(_ca().loc[r.index[n - 1], "name"])


def b28_rank_value(*, measure: str, n: int = 1, ascending: bool = False, where=None,
                   value_of: str | None = None):
    """Value (of ``value_of`` or the ranking measure) for the n-th area of the ranking."""
    r = _ranked(measure, ascending)
    if where is not None:
        s = set(_set(where))
        r = r[r.index.isin(s)]
    _tiecheck(r, n, measure)
    a = r.index[n - 1]
    m = value_of or measure
    return _rnd_for(m, _values(m).loc[a])


def b28_rank_of(*, area, measure: str, ascending: bool = False) -> int:
    r = _ranked(measure, ascending)
    k = int(list(r.index).index(_area(area)) + 1)
    _tiecheck(r, k, measure)
    return k


def b28_set_count(*, where) -> int:
    return len(_set(where))


def b28_set_stat(*, where, measure: str, how: str = "pooled"):
    s = _set(where)
    d = _measure(measure).loc[s]
    if how == "pooled":
        d = d.dropna(subset=["num", "den"])
        v = d["num"].sum() / d["den"].sum() * d["mult"].iloc[0]
    elif how == "sum":
        v = d["num"].sum() if measure.split(":")[0] in ("hom", "homchg", "acs", "pop2010") else d["value"].sum()
        return _rnd(v, "int")
    elif how == "mean":
        v = d["value"].mean()
    elif how == "median":
        v = d["value"].median()
        return _rnd_for(measure, v) if measure.split(":")[0] not in ("hom",) else _rnd(v)
    elif how == "max":
        return _rnd_for(measure, d["value"].max())
    elif how == "min":
        return _rnd_for(measure, d["value"].min())
    elif how == "city_share":
        _, yrs, filters = _parse_hom_measure(measure)
        v = d["num"].sum() / len(_hom_rows(yrs, filters)) * 100
    else:
        raise ValueError(how)
    return _rnd(v)


def b28_set_best(*, where, measure: str, ascending: bool = False) -> str:
    """Name of the area in the set with the highest (lowest) measure."""
    s = set(_set(where))
    r = _ranked(measure, ascending)
    r = r[r.index.isin(s)]
    _tiecheck(r, 1, measure)
    return str(_ca().loc[r.index[0], "name"])


def b28_set_names(*, where) -> str:
    return ", ".join(_ca().loc[_set(where), "name"])


def b28_set_ratio(*, where_a, where_b, measure: str, how: str = "pooled"):
    a = b28_set_stat(where=where_a, measure=measure, how=how)
    b = b28_set_stat(where=where_b, measure=measure, how=how)
    # recompute unrounded
    def raw(w):
        d = _measure(measure).loc[_set(w)].dropna(subset=["num", "den"])
        if how == "pooled":
            return d["num"].sum() / d["den"].sum() * d["mult"].iloc[0]
        if how == "mean":
            return d["value"].mean()
        if how == "sum":
            return d["num"].sum()
        raise ValueError(how)
    return _rnd(raw(where_a) / raw(where_b))


def b28_set_pct_meeting(*, where, cond) -> float:
    """Percent of the areas in ``where`` that also satisfy ``cond``."""
    s = _set(where)
    c = set(_set(cond))
    return _rnd(sum(1 for a in s if a in c) / len(s) * 100)


def b28_city_value(*, measure: str):
    return _rnd_for(measure, _city_value(measure))


def b28_corr(*, x: str, y: str, method: str = "pearson", where=None) -> float:
    s = _set(where)
    a, b = _values(x).loc[s], _values(y).loc[s]
    ok = a.notna() & b.notna()
    a, b = a[ok], b[ok]
    if method == "spearman":
        a, b = a.rank(), b.rank()
    return _rnd(np.corrcoef(a, b)[0, 1], "2")


def b28_compare(*, a, b, measure: str, op: str = "diff"):
    va = _values(measure).loc[_area(a)]
    vb = _values(measure).loc[_area(b)]
    if op == "diff":
        return _rnd_for(measure, va - vb)
    if op == "ratio":
        return _rnd(va / vb)
    if op == "pct":
        return _rnd((va / vb - 1) * 100)
    raise ValueError(op)


def b28_change(*, area, m0: str, m1: str, op: str = "pct"):
    """Change of one area between two measures (e.g. two periods): pct, diff, ratio, fall."""
    v0 = _values(m0).loc[_area(area)]
    v1 = _values(m1).loc[_area(area)]
    if op == "pct":
        return _rnd((v1 / v0 - 1) * 100)
    if op == "fallpct":
        return _rnd((1 - v1 / v0) * 100)
    if op == "diff":
        return _rnd_for(m0, v1 - v0)
    if op == "ratio":
        return _rnd(v1 / v0)
    raise ValueError(op)


# --- city-level homicide figures
def b28_count(*, years: str | None = None, filters=None, ca=None, district=None, ward=None):
    h = _hom_rows(years, filters or [])
    if ca is not None:
        h = h[h.ca == _area(ca)]
    if district is not None:
        h = h[h.district == int(district)]
    if ward is not None:
        h = h[h.ward == int(ward)]
    return int(len(h))


def b28_share(*, years: str | None = None, filters=None, base_filters=None, ca=None,
              district=None):
    """Percent of homicide rows (in years/base_filters/place) that meet ``filters``."""
    h = _hom_rows(years, base_filters or [])
    if ca is not None:
        h = h[h.ca == _area(ca)]
    if district is not None:
        h = h[h.district == int(district)]
    return _rnd(len(_apply_filters(h, filters or [])) / len(h) * 100)


def b28_count_pct_change(*, y0: str, y1: str, filters=None, ca=None):
    a = b28_count(years=y0, filters=filters, ca=ca)
    b = b28_count(years=y1, filters=filters, ca=ca)
    return _rnd((b / a - 1) * 100)


def b28_top_group(*, group: str, years: str | None = None, filters=None, where=None,
                  n: int = 1, value: bool = False, district=None):
    """Label (or count) of the n-th biggest group: month, weekday, hour, location,
    district, ward, year, community (area name)."""
    h = _hom_rows(years, filters or [])
    if where is not None:
        h = h[h.ca.isin(_set(where))]
    if district is not None:
        h = h[h.district == int(district)]
    col = {"month": "month", "weekday": "wd", "hour": "hour", "location": "Location Description",
           "district": "district", "ward": "ward", "year": "year", "community": "ca"}[group]
    g = h.groupby(col).size()
    df = pd.DataFrame({"c": g.values, "k": g.index}).sort_values(["c", "k"], ascending=[False, True])
    _tiecheck(df["c"], n, group)
    row = df.iloc[n - 1]
    if value:
        return int(row["c"])
    k = row["k"]
    if group == "month":
        return MONTHS[int(k) - 1]
    if group == "weekday":
        return WEEKDAYS[int(k)]
    if group == "community":
        return str(_ca().loc[int(k), "name"])
    if group in ("hour", "district", "ward", "year"):
        return str(int(k))
    return str(k)


def b28_city_rate(*, years: str, filters=None):
    return _rnd(_city_value("rate:" + years + "".join("|" + f for f in (filters or []))))


def b28_per_year(*, years: str, filters=None):
    return _rnd(b28_count(years=years, filters=filters) / len(_years(years)))


# --- districts, wards
def b28_district_station_area(*, district) -> str:
    return b28_area_name(area=f"district:{district}")


def b28_alder(*, ward) -> str:
    w = _wards()
    full = str(w[w.WARD == int(ward)]["ALDERMAN"].iloc[0])
    return full.split(",")[0].strip()


def b28_ward_zip(*, ward) -> int:
    w = _wards()
    return int(w[w.WARD == int(ward)]["ZIPCODE"].iloc[0])


# --- property
def b28_zip_of_area(*, area) -> int:
    return _area_zip(area)


def b28_zip_zhvi(*, zip, month: str):
    z = _zhvi()
    if str(zip).startswith("area:"):
        zip = _area_zip(str(zip)[5:])
    v = z[(z.RegionName == int(zip)) & (z.ym == month)]["price"].iloc[0]
    return _rnd(v, "int")


def b28_zip_zhvi_change(*, zip, m0: str, m1: str):
    if str(zip).startswith("area:"):
        zip = _area_zip(str(zip)[5:])
    z = _zhvi()
    a = z[(z.RegionName == int(zip)) & (z.ym == m0)]["price"].iloc[0]
    b = z[(z.RegionName == int(zip)) & (z.ym == m1)]["price"].iloc[0]
    return _rnd((b / a - 1) * 100)


def b28_zip_rank(*, m0: str, m1: str | None = None, n: int = 1, ascending: bool = False) -> str:
    """ZIP ranked by ZHVI in m0, or by pct change m0 -> m1 (both values present)."""
    z = _zhvi()
    a = z[z.ym == m0].set_index("RegionName")["price"]
    if m1:
        b = z[z.ym == m1].set_index("RegionName")["price"]
        v = (b / a - 1).dropna()
    else:
        v = a.dropna()
    df = pd.DataFrame({"v": v, "z": v.index}).sort_values(["v", "z"], ascending=[ascending, True])
    return str(int(df["z"].iloc[n - 1]))


def b28_area_submarket(*, area) -> str:
    t = _ca_submarket_table()
    return str(t.loc[_area(area), "submarket_name_2023"])


def _sub_code(sub) -> str:
    s = str(sub)
    if s.startswith("area:"):
        return str(_ca_submarket_table().loc[_area(s[5:]), "submarket_code"])
    if s.upper() in ("CHICAGO", "COOK", "SUBURBS") or (s.startswith("p3") and len(s) == 5):
        return s.upper() if not s.startswith("p") else s
    i = _ihs()
    m = i[i.submarket_name.str.lower().str.contains(s.lower(), regex=False)]
    codes = m.submarket_code.unique()
    if len(codes) != 1:
        raise ValueError(sub)
    return str(codes[0])


def b28_ihs(*, submarket, year: int | None = None, yearq: str | None = None):
    i = _ihs()
    c = _sub_code(submarket)
    i = i[i.submarket_code == c]
    if yearq:
        return _rnd(i[i.yearq == yearq]["index_2000q1_100"].iloc[0])
    v = i[i.year == int(year)]["index_2000q1_100"]
    assert len(v) == 4
    return _rnd(v.mean())


def b28_ihs_change(*, submarket, y0=None, y1=None, q0: str | None = None, q1: str | None = None):
    i = _ihs()
    c = _sub_code(submarket)
    i = i[i.submarket_code == c]
    if q0:
        a = i[i.yearq == q0]["index_2000q1_100"].iloc[0]
        b = i[i.yearq == q1]["index_2000q1_100"].iloc[0]
    else:
        a = i[i.year == int(y0)]["index_2000q1_100"].mean()
        b = i[i.year == int(y1)]["index_2000q1_100"].mean()
    return _rnd((b / a - 1) * 100)


def b28_ihs_rank(*, yearq: str | None = None, q0: str | None = None, n: int = 1,
                 ascending: bool = False, chicago_only: bool = True) -> str:
    """Chicago (or all) submarkets ranked by index at yearq or by pct change q0 -> yearq."""
    i = _ihs()
    i = i[i.submarket_code.str.startswith("p")]
    if chicago_only:
        i = i[i.is_chicago == 1]
    a = i[i.yearq == yearq].set_index("submarket_name")["index_2000q1_100"]
    if q0:
        b = i[i.yearq == q0].set_index("submarket_name")["index_2000q1_100"]
        a = a / b - 1
    a = a.sort_values(ascending=ascending, kind="mergesort")
    return str(a.index[n - 1])


def b28_ihs_summary(*, submarket, column: str):
    s = _ihs_summary()
    c = _sub_code(submarket)
    v = s[s.Number == c][column].iloc[0]
    v = str(v).strip().replace("$", "").replace(",", "").replace("%", "")
    return _rnd(float(v), "int") if column == "Median Sales Price" else _rnd(float(v))


def b28_ihs_summary_rank(*, column: str, n: int = 1, ascending: bool = False,
                         chicago_only: bool = True) -> str:
    s = _ihs_summary().copy()
    if chicago_only:
        s = s[s["Sub Market"].str.startswith("Chicago--")]
    s["v"] = s[column].astype(str).str.strip().str.replace(r"[$,%]", "", regex=True).astype(float)
    s = s.sort_values("v", ascending=ascending, kind="mergesort")
    return str(s["Sub Market"].iloc[n - 1])


def b28_submarket_set_stat(*, submarket, measure: str, how: str = "pooled"):
    return b28_set_stat(where=[f"submarket~{_sub_code(submarket)}"], measure=measure, how=how)


def b28_redfin(*, region: str, period_end: str, column: str = "sale_price"):
    r = _redfin()
    reg = "Chicago, IL" if region == "Chicago, IL" else f"Chicago, IL - {region}"
    row = r[(r.Region == reg) & (r.end == pd.Timestamp(period_end))]
    assert len(row) == 1, (region, period_end, len(row))
    v = row[column].iloc[0]
    if column in ("sale_price", "Homes Sold", "Median List Price", "Inventory", "New Listings"):
        return _rnd(v, "int")
    if column in ("Avg Sale To List", "Sold Above List"):
        return _rnd(v * 100)
    return _rnd(v)


def b28_redfin_city_year(*, year: int, column: str = "Homes Sold"):
    r = _redfin()
    c = r[(r.Region == "Chicago, IL") & (r.end.dt.year == int(year))]
    assert len(c) == 12, len(c)
    return _rnd(c[column].sum(), "int")


def b28_redfin_rank(*, period_end: str, column: str = "sale_price", n: int = 1,
                    ascending: bool = False, min_sold: int = 0) -> str:
    r = _redfin()
    r = r[(r.end == pd.Timestamp(period_end)) & r.Region.str.startswith("Chicago, IL - ")]
    r = r[r["Homes Sold"] >= min_sold].dropna(subset=[column])
    r = r.sort_values([column, "Region"], ascending=[ascending, True])
    return r.Region.iloc[n - 1].replace("Chicago, IL - ", "")


def b28_zip_zhvi_ratio(*, zip_a, zip_b, month: str):
    z = _zhvi()
    a = z[(z.RegionName == int(zip_a)) & (z.ym == month)]["price"].iloc[0]
    b = z[(z.RegionName == int(zip_b)) & (z.ym == month)]["price"].iloc[0]
    return _rnd(a / b)
