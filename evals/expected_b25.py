"""Expected answers for the blind25 held-out question set (computed independently in pandas).

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

Conventions added for blind25 (each question that relies on one states it)
--------------------------------------------------------------------------
* "Top quartile / bottom quartile" are never used loosely: questions name the group size
  ("the 19 areas with the highest ...").
* Set statistic ``how='range'`` = max - min; ``how='max'`` / ``'min'`` = largest / smallest per-area value in the set;
  ``how='count'`` = number of areas in the set with a value.
* Group comparison (b25_group_compare) = statistic of set A op statistic of set B, where op
  is 'diff' (A - B), 'ratio' (A / B) or 'pct' ((A / B - 1) * 100).
* Set vs city (b25_set_vs_city): 'diff' = city figure - set statistic (e.g. how far a median
  income lies below the CHICAGO row); city-vs-city (b25_city_compare): 'diff' = a - b.
* "Above the median ... the median area itself goes with the rest": with 77 areas the median is
  one area's value; "above" stays strict and the question says where the median area goes.
* Means / medians of money (income, home value) are rounded to whole dollars.
* A year-over-year series peak within a set ("which year had the most homicides in those
  areas") = the year with the largest pooled count, ties by earliest year (questions avoid
  ties).
* Home value of a ZIP for a year = mean of its 12 monthly ZHVI values (only asked for full
  years 2000-2023).
* Holiday filters are calendar dates ("July 4th" = month 7, day 4 of each year asked);
  "New Year's Day" = Jan 1.
* Redfin neighbourhood rows whose Region name occurs twice per period (Rosehill,
  Wrightwood) are never asked about.
* Measure strings (``measure`` / ``where`` arguments):
  ``hom:P[:filters]`` homicide count, ``rate:P[:filters]`` rate per 100,000 a year,
  ``density:P[:filters]``, ``arrest:P[:filters]``, ``domestic:P[:filters]`` (percent),
  ``homchg:Y0:Y1`` (count Y1 - count Y0), ``acs:<col>`` (share in percent; ``acs:pop`` =
  total population), ``pop2010``, ``popchg``, ``socio:<key>``, ``zhvi:YYYY-MM``,
  ``zhvichg:YYYY-MM:YYYY-MM``, ``sqmi``.  P = ``YYYY`` or ``YYYY-YYYY``.  Filters:
  ``months=6-8`` / ``months=12,1,2``, ``wd=Sat,Sun``, ``hours=22-3``, ``domestic``,
  ``nondomestic``, ``arrest``, ``noarrest``, ``loc=STREET``, ``md=07-04``.
  Where conditions: ``top~N~measure``, ``bottom~N~measure``, ``gt~measure~thr``,
  ``lt~measure~thr`` (thr a number, 'city', 'median' or 'mean'), ``in~1,2,3``,
  ``sub~p31xx`` (areas whose main IHS submarket, by share_of_community_area, is p31xx); a leading
  ``!`` negates a condition; conditions in a list are intersected.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from evals.expected import data_dir

# --------------------------------------------------------------------------- loading


def _p(name):
    return data_dir() / name


@functools.lru_cache(maxsize=None)
def _areas():
    ca = pd.read_csv(_p("community_areas.csv"))
    ca["area_number"] = ca["area_number"].astype(int)

    def title(s):
        t = s.title()
        return {"Ohare": "O'Hare", "Mckinley Park": "McKinley Park"}.get(t, t)

    ca["name"] = ca["community"].map(title)
    return ca.set_index("area_number").sort_index()


def _area_num(area):
    if isinstance(area, (int, np.integer)):
        return int(area)
    s = str(area).strip()
    if s.isdigit():
        return int(s)
    ca = _areas()
    key = s.upper().replace("'", "")
    m = ca.index[(ca["community"] == key) | (ca["name"].str.upper() == s.upper())]
    if len(m) != 1:
        raise KeyError(f"unknown community area {area!r}")
    return int(m[0])


def _name(num):
    return _areas().loc[int(num), "name"]


@functools.lru_cache(maxsize=None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h["dt"].dt.year
    h["month"] = h["dt"].dt.month
    h["day"] = h["dt"].dt.day
    h["hour"] = h["dt"].dt.hour
    h["wd"] = h["dt"].dt.day_name().str[:3]
    for src, dst in (("Community Area", "ca"), ("Ward", "ward"), ("District", "district")):
        h[dst] = pd.to_numeric(h[src], errors="coerce").astype("Int64")
    h["arrest"] = h["Arrest"].str.lower() == "true"
    h["domestic"] = h["Domestic"].str.lower() == "true"
    h["loc"] = h["Location Description"].fillna("")
    return h


@functools.lru_cache(maxsize=None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


@functools.lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    ca = _areas()
    m = dict(zip(ca["community"], ca.index))
    a["num"] = a["community_area"].map(m)
    assert a["num"].notna().all()
    a = a.set_index("num").sort_index()
    a.index = a.index.astype(int)
    a["age65"] = a["male_65"] + a["female_65"]
    a["children"] = a["male_0_to_17"] + a["female_0_to_17"]
    a["inc_total"] = a[["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
                        "_75_000_to_125_000", "_125_000"]].sum(axis=1)
    return a


_ACS_ALIAS = {
    "black": "black_or_african_american", "white": "white", "asian": "asian",
    "hispanic": "hispanic_or_latino", "white_nh": "white_not_hispanic_or_latino",
    "65plus": "age65", "children": "children", "multiracial": "multiracial",
    "inc_under25": "under_25_000", "inc_25_50": "_25_000_to_49_999",
    "inc_50_75": "_50_000_to_74_999", "inc_75_125": "_75_000_to_125_000",
    "inc_125plus": "_125_000",
}


@functools.lru_cache(maxsize=None)
def _socio():
    s = pd.read_csv(_p("socioeconomic.csv"))
    s.columns = [c.strip() for c in s.columns]
    return s


_SOCIO = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "income": "PER CAPITA INCOME",
    "hardship": "HARDSHIP INDEX",
}


def _socio_area(key):
    s = _socio()
    s = s[s["Community Area Number"].notna()]
    return pd.Series(s[_SOCIO[key]].astype(float).values,
                     index=s["Community Area Number"].astype(int)).sort_index()


def _socio_city(key):
    s = _socio()
    row = s[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"]
    return float(row[_SOCIO[key]].iloc[0])


@functools.lru_cache(maxsize=None)
def _zipx():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].astype(int).map("{:02d}".format)
    return z


def _zhvi_zip_month(month):
    z = _zhvi()
    zz = z[z["ym"] == month]
    if zz.empty:
        raise ValueError(f"no ZHVI for {month}")
    return zz.set_index("RegionName")["price"]


@functools.lru_cache(maxsize=None)
def _zhvi_area(month):
    zp = _zhvi_zip_month(month)
    x = _zipx().copy()
    x["price"] = x["zip"].map(zp)
    x = x[x["price"].notna()]
    x["w"] = x["share_of_community_area"]
    g = x.groupby("area_number").apply(
        lambda d: (d["price"] * d["w"]).sum() / d["w"].sum(), include_groups=False)
    out = pd.Series(np.nan, index=_areas().index)
    out.loc[g.index] = g.values
    return out


@functools.lru_cache(maxsize=None)
def _ihs():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(maxsize=None)
def _ihsx():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    return s


@functools.lru_cache(maxsize=None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"))
    s = s[s["DISTRICT"].astype(str).str.isdigit()].copy()
    s["DISTRICT"] = s["DISTRICT"].astype(int)
    return s.set_index("DISTRICT")


@functools.lru_cache(maxsize=None)
def _wards():
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")
    w["WARD"] = w["WARD"].astype(int)
    return w.set_index("WARD")


@functools.lru_cache(maxsize=None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")

    def money(s):
        if not isinstance(s, str) or not s.strip():
            return np.nan
        s = s.strip().replace("$", "").replace(",", "")
        mult = 1
        if s.endswith("K"):
            mult, s = 1_000, s[:-1]
        elif s.endswith("M"):
            mult, s = 1_000_000, s[:-1]
        return float(s) * mult

    r["sale_price"] = r["Median Sale Price"].map(money)
    return r


# --------------------------------------------------------------------------- helpers


def _r(x, kind="1"):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return float("nan")
    if kind in ("int", "money"):
        return int(round(float(x)))
    if kind == "2":
        return round(float(x), 2)
    return round(float(x), 1)


def _years(period):
    s = str(period)
    if "-" in s:
        a, b = s.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(s)]


def _rng(spec, lo, hi):
    """'6-8' -> [6,7,8]; '22-3' wraps; '12,1,2' list."""
    spec = str(spec)
    if "," in spec:
        return [int(v) for v in spec.split(",")]
    if "-" in spec:
        a, b = (int(v) for v in spec.split("-"))
        if a <= b:
            return list(range(a, b + 1))
        return list(range(a, hi + 1)) + list(range(lo, b + 1))
    return [int(spec)]


def _filter(h, flt):
    for tok in flt:
        if not tok:
            continue
        if tok == "domestic":
            h = h[h["domestic"]]
        elif tok == "nondomestic":
            h = h[~h["domestic"]]
        elif tok == "arrest":
            h = h[h["arrest"]]
        elif tok == "noarrest":
            h = h[~h["arrest"]]
        elif tok.startswith("months="):
            h = h[h["month"].isin(_rng(tok[7:], 1, 12))]
        elif tok.startswith("hours="):
            h = h[h["hour"].isin(_rng(tok[6:], 0, 23))]
        elif tok.startswith("wd="):
            h = h[h["wd"].isin(tok[3:].split(","))]
        elif tok.startswith("loc="):
            h = h[h["loc"].isin(tok[4:].split("|"))]
        elif tok.startswith("md="):
            mm, dd = (int(v) for v in tok[3:].split("-"))
            h = h[(h["month"] == mm) & (h["day"] == dd)]
        elif tok.startswith("district="):
            h = h[h["district"] == int(tok[9:])]
        elif tok.startswith("ward="):
            h = h[h["ward"] == int(tok[5:])]
        else:
            raise ValueError(f"unknown filter {tok!r}")
    return h


def _rows(period, flt=()):
    h = _hom()
    h = h[h["year"].isin(_years(period))]
    return _filter(h, flt)


def _per_area_count(rows):
    c = rows.dropna(subset=["ca"]).groupby("ca").size()
    out = pd.Series(0.0, index=_areas().index)
    out.loc[c.index.astype(int)] = c.values.astype(float)
    return out


def _pop_for_year(y):
    if y <= 2015:
        return _pop2010()
    return _acs()["total_population"]


def _popyears(period):
    tot = pd.Series(0.0, index=_areas().index)
    for y in _years(period):
        tot = tot + _pop_for_year(y).reindex(tot.index)
    return tot


def _city_popyears(period):
    return sum(float(_pop_for_year(y).sum()) for y in _years(period))


# --------------------------------------------------------------------------- measures


def _parts(measure):
    """Return (num, den, scale, kind) Series over CA numbers; den None for plain values."""
    neg = False
    if measure.startswith("neg|"):
        neg, measure = True, measure[4:]
    parts = measure.split(":")
    kind = parts[0]
    idx = _areas().index
    res = None
    if kind in ("hom", "rate", "density", "arrest", "domestic"):
        period, flt = parts[1], parts[2:]
        rows = _rows(period, flt)
        cnt = _per_area_count(rows)
        if kind == "hom":
            res = (cnt, None, 1.0, "int")
        elif kind == "rate":
            res = (cnt, _popyears(period), 1e5, "1")
        elif kind == "density":
            res = (cnt, _areas()["area_sq_mi"].astype(float), 1.0, "1")
        else:
            flag = _per_area_count(rows[rows[kind]])
            res = (flag, cnt.where(cnt > 0), 100.0, "1")
    elif kind == "homchg":
        y0, y1 = parts[1], parts[2]
        res = (_per_area_count(_rows(y1, parts[3:])) - _per_area_count(_rows(y0, parts[3:])),
               None, 1.0, "int")
    elif kind == "acs":
        a = _acs()
        col = parts[1]
        if col == "pop":
            res = (a["total_population"].reindex(idx), None, 1.0, "int")
        else:
            c = _ACS_ALIAS.get(col, col)
            base = a["inc_total"] if c in ("under_25_000", "_25_000_to_49_999",
                                           "_50_000_to_74_999", "_75_000_to_125_000",
                                           "_125_000") else a["total_population"]
            res = (a[c].reindex(idx), base.reindex(idx), 100.0, "1")
    elif kind == "pop2010":
        res = (_pop2010().reindex(idx), None, 1.0, "int")
    elif kind == "popchg":
        p0 = _pop2010().reindex(idx)
        p1 = _acs()["total_population"].reindex(idx)
        res = (p1 - p0, p0, 100.0, "1")
    elif kind == "socio":
        res = (_socio_area(parts[1]).reindex(idx), None, 1.0,
               {"income": "money", "hardship": "int"}.get(parts[1], "1"))
    elif kind == "zhvi":
        res = (_zhvi_area(parts[1]).reindex(idx), None, 1.0, "money")
    elif kind == "zhvichg":
        a0, a1 = _zhvi_area(parts[1]), _zhvi_area(parts[2])
        ok = a0.notna() & a1.notna()
        res = ((a1 - a0).where(ok), a0.where(ok), 100.0, "1")
    elif kind == "sqmi":
        res = (_areas()["area_sq_mi"].astype(float), None, 1.0, "1")
    else:
        raise ValueError(f"unknown measure {measure!r}")
    num, den, scale, rk = res
    if neg:
        num = -num
    return num, den, scale, rk


def _values(measure):
    num, den, scale, _ = _parts(measure)
    if den is None:
        return num.astype(float)
    return (num / den * scale).astype(float)


def _rk(measure):
    return _parts(measure)[3]


def _city_value(measure):
    neg = measure.startswith("neg|")
    m = measure[4:] if neg else measure
    parts = m.split(":")
    kind = parts[0]
    if kind in ("rate", "arrest", "domestic", "density", "hom"):
        rows = _rows(parts[1], parts[2:])
        n = len(rows)
        if kind == "rate":
            v = n / _city_popyears(parts[1]) * 1e5
        elif kind == "hom":
            v = n
        elif kind == "density":
            v = n / float(_areas()["area_sq_mi"].sum())
        else:
            v = rows[kind].sum() / n * 100
    elif kind == "socio":
        v = _socio_city(parts[1])
    elif kind in ("acs", "popchg"):
        num, den, scale, _ = _parts(m)
        v = num.sum() / den.sum() * scale
    else:
        raise ValueError(f"no city value for {measure!r}")
    return -v if neg else v


def _ranked(measure, ascending=False, subset=None):
    v = _values(measure).dropna()
    if subset is not None:
        v = v[v.index.isin(subset)]
    df = pd.DataFrame({"v": v, "n": v.index})
    df = df.sort_values(["v", "n"], ascending=[ascending, True])
    return df


def _threshold(measure, thr, vals):
    if isinstance(thr, (int, float)):
        return float(thr)
    t = str(thr)
    if t == "city":
        return _city_value(measure)
    if t == "median":
        return float(vals.median())
    if t == "mean":
        return float(vals.mean())
    return float(t)


def _set(where):
    if where is None:
        return set(_areas().index)
    if isinstance(where, str):
        where = [where]
    out = set(_areas().index)
    for cond in where:
        neg = cond.startswith("!")
        c = cond[1:] if neg else cond
        p = c.split("~")
        if p[0] in ("top", "bottom"):
            df = _ranked(p[2], ascending=(p[0] == "bottom"))
            s = set(df["n"].head(int(p[1])))
        elif p[0] in ("gt", "lt", "ge", "le"):
            vals = _values(p[1]).dropna()
            t = _threshold(p[1], p[2], vals)
            op = {"gt": vals > t, "lt": vals < t, "ge": vals >= t, "le": vals <= t}[p[0]]
            s = set(vals[op].index)
        elif p[0] == "in":
            s = {_area_num(v) for v in p[1].split(",")}
        elif p[0] == "sub":
            s = {n for n in _areas().index if _area_submarket(n) == p[1]}
        else:
            raise ValueError(f"bad condition {cond!r}")
        out = (out - s) if neg else (out & s)
    return out


def _stat(where, measure, how):
    s = sorted(_set(where))
    num, den, scale, rk = _parts(measure)
    vals = _values(measure).reindex(s)
    if how == "pooled":
        if den is None:
            raise ValueError("pooled needs a ratio measure")
        n, d = num.reindex(s), den.reindex(s)
        ok = n.notna() & d.notna()
        return float(n[ok].sum() / d[ok].sum() * scale), ("1" if rk == "int" else rk)
    if how == "sum":
        if den is not None:
            raise ValueError("sum of a ratio measure")
        return float(vals.dropna().sum()), rk
    if how == "mean":
        return float(vals.dropna().mean()), ("1" if rk == "int" else rk)
    if how == "median":
        return float(vals.dropna().median()), ("1" if rk == "int" else rk)
    if how == "max":
        return float(vals.dropna().max()), rk
    if how == "min":
        return float(vals.dropna().min()), rk
    if how == "count":
        return float(vals.notna().sum()), "int"
    if how == "range":
        return float(vals.dropna().max() - vals.dropna().min()), rk
    if how == "city_share":
        m = measure.split(":")
        if m[0] != "hom":
            raise ValueError("city_share needs a hom: measure")
        tot = len(_rows(m[1], m[2:]))
        return float(vals.sum() / tot * 100), "1"
    raise ValueError(how)


# --------------------------------------------------------------------------- public API


def b25_area_value(*, area, measure):
    """One community area's value of a measure."""
    n = _area_num(area)
    return _r(_values(measure).loc[n], _rk(measure))


def b25_city_value(*, measure):
    """City-wide figure of a measure (rate, arrest, domestic, density, socio, acs share)."""
    m = measure[4:] if measure.startswith("neg|") else measure
    rk = "int" if m.startswith("hom:") else ("int" if m in ("socio:income",) else "1")
    return _r(_city_value(measure), rk)


def b25_area_rank(*, area, measure, ascending=False, where=None):
    """Rank (1 = highest, or lowest if ascending) of an area among areas with a value."""
    sub = None if where is None else _set(where)
    df = _ranked(measure, ascending, sub)
    return int(list(df["n"]).index(_area_num(area)) + 1)


def b25_rank_label(*, measure, n=1, ascending=False, where=None):
    """Name of the n-th ranked area (optionally within a set)."""
    sub = None if where is None else _set(where)
    df = _ranked(measure, ascending, sub)
    return _name(df["n"].iloc[n - 1])


def b25_rank_value(*, measure, n=1, ascending=False, where=None, value_measure=None):
    """Value of `value_measure` (default: the ranking measure) at the n-th ranked area."""
    sub = None if where is None else _set(where)
    df = _ranked(measure, ascending, sub)
    num = df["n"].iloc[n - 1]
    vm = value_measure or measure
    return _r(_values(vm).loc[num], _rk(vm))


def b25_set_stat(*, where, measure, how="pooled"):
    """Statistic of a measure over a set of community areas."""
    v, rk = _stat(where, measure, how)
    return _r(v, rk)


def b25_set_count(*, where):
    """Number of community areas meeting the conditions."""
    return int(len(_set(where)))


def b25_set_pct_areas(*, where, of=None):
    """Percent of areas (of the set `of`, default all 77) that meet `where`."""
    base = _set(of)
    s = _set(where) & base
    return _r(len(s) / len(base) * 100)


def b25_group_compare(*, where_a, where_b, measure, how="pooled", op="ratio"):
    """Compare a set statistic between two sets: diff, ratio or pct."""
    a, rk = _stat(where_a, measure, how)
    b, _ = _stat(where_b, measure, how)
    if op == "diff":
        return _r(a - b, rk)
    if op == "ratio":
        return _r(a / b)
    if op == "pct":
        return _r((a / b - 1) * 100)
    raise ValueError(op)


def b25_area_compare(*, area_a, area_b, measure, op="diff"):
    """Compare one measure between two named areas."""
    va = _values(measure).loc[_area_num(area_a)]
    vb = _values(measure).loc[_area_num(area_b)]
    rk = _rk(measure)
    if op == "diff":
        return _r(va - vb, rk)
    if op == "ratio":
        return _r(va / vb)
    if op == "pct":
        return _r((va / vb - 1) * 100)
    raise ValueError(op)


def b25_corr(*, x, y, method="pearson", where=None):
    """Correlation across community areas (Pearson; Spearman = Pearson of average ranks)."""
    sub = sorted(_set(where))
    a = _values(x).reindex(sub)
    b = _values(y).reindex(sub)
    ok = a.notna() & b.notna()
    a, b = a[ok], b[ok]
    if method == "spearman":
        a, b = a.rank(), b.rank()
    return _r(np.corrcoef(a, b)[0, 1], "2")


def b25_hom_count(*, period, filters=(), area=None, where=None):
    """Homicide victims in a period (city-wide incl. blank CA rows unless area/where given)."""
    rows = _rows(period, list(filters))
    if area is not None:
        rows = rows[rows["ca"] == _area_num(area)]
    if where is not None:
        rows = rows[rows["ca"].isin(list(_set(where)))]
    return int(len(rows))


def b25_hom_share(*, period, filters=(), of_filters=(), area=None, where=None):
    """Percent of the rows matching `of_filters` that also match `filters`."""
    base = _rows(period, list(of_filters))
    if area is not None:
        base = base[base["ca"] == _area_num(area)]
    if where is not None:
        base = base[base["ca"].isin(list(_set(where)))]
    sub = _filter(base, list(filters))
    return _r(len(sub) / len(base) * 100)


def b25_hom_change(*, period_a, period_b, filters=(), area=None, where=None, op="pct"):
    """Change from period_a to period_b: 'diff' (b - a), 'pct' ((b/a-1)*100), 'ratio' (b/a)."""
    a = b25_hom_count(period=period_a, filters=filters, area=area, where=where)
    b = b25_hom_count(period=period_b, filters=filters, area=area, where=where)
    if op == "diff":
        return int(b - a)
    if op == "ratio":
        return _r(b / a)
    if op == "pct":
        return _r((b / a - 1) * 100)
    if op == "fall_pct":
        return _r((1 - b / a) * 100)
    raise ValueError(op)


def b25_hom_top(*, period, by, filters=(), area=None, where=None, n=1, ret="label",
                ascending=False):
    """The n-th most common value of `by` (year, month, wd, hour, loc, district, ward, ca)
    among homicide rows; ret='label' gives the label, 'value' the count.  Ties by label."""
    rows = _rows(period, list(filters))
    if area is not None:
        rows = rows[rows["ca"] == _area_num(area)]
    if where is not None:
        rows = rows[rows["ca"].isin(list(_set(where)))]
    c = rows.dropna(subset=[by]).groupby(by).size().reset_index(name="c")
    c = c.sort_values(["c", by], ascending=[ascending, True])
    row = c.iloc[n - 1]
    if ret == "value":
        return int(row["c"])
    lab = row[by]
    if by == "month":
        return ["January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"][int(lab) - 1]
    if by == "wd":
        return {"Mon": "Monday", "Tue": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday",
                "Fri": "Friday", "Sat": "Saturday", "Sun": "Sunday"}[lab]
    if by == "ca":
        return _name(int(lab))
    if by in ("year", "hour", "district", "ward"):
        return str(int(lab))
    return str(lab)


def b25_hom_avg_per_year(*, period, filters=(), area=None):
    """Homicides matching filters / number of years in the period."""
    c = b25_hom_count(period=period, filters=filters, area=area)
    return _r(c / len(_years(period)))


# ---- links / chains


def _station_area(district):
    return int(_stations().loc[int(district), "COMMUNITY AREA"])


def b25_district_area(*, district):
    """Community area the district's police station sits in."""
    return _name(_station_area(district))


def b25_district_chain(*, district, measure):
    """A measure for the community area the district's station sits in."""
    n = _station_area(district)
    return _r(_values(measure).loc[n], _rk(measure))


def b25_district_hom(*, district, period, filters=()):
    """Homicide rows recorded with this police district."""
    return b25_hom_count(period=period, filters=list(filters) + [f"district={district}"])


def _ward_zip(ward):
    z = _wards().loc[int(ward), "ZIPCODE"]
    if pd.isna(z):
        raise ValueError(f"ward {ward} office has no ZIP")
    return int(z)


def _zip_main_area(zipc):
    x = _zipx()
    x = x[x["zip"] == int(zipc)].sort_values(["share_of_zip", "area_number"],
                                             ascending=[False, True])
    return int(x["area_number"].iloc[0])


def b25_ward_office_zip(*, ward):
    return str(_ward_zip(ward))


def b25_ward_office_area(*, ward):
    """Community area covering most (share_of_zip) of the ward office's ZIP."""
    return _name(_zip_main_area(_ward_zip(ward)))


def b25_ward_chain(*, ward, measure):
    n = _zip_main_area(_ward_zip(ward))
    return _r(_values(measure).loc[n], _rk(measure))


def b25_alderperson(*, ward):
    """Surname of the ward's alderperson (ward_offices.csv)."""
    return _wards().loc[int(ward), "ALDERMAN"].split(",")[0].strip()


def b25_zip_main_area(*, zip):
    return _name(_zip_main_area(zip))


def _area_zip(area):
    x = _zipx()
    x = x[x["area_number"] == _area_num(area)].sort_values(
        ["share_of_community_area", "zip"], ascending=[False, True])
    return int(x["zip"].iloc[0])


def b25_area_zip(*, area):
    return str(_area_zip(area))


def b25_zip_zhvi(*, zip, month=None, year=None):
    """ZHVI of a ZIP for a month (YYYY-MM) or a year (mean of its 12 months)."""
    z = _zhvi()
    z = z[z["RegionName"] == int(zip)]
    if month is not None:
        v = z.loc[z["ym"] == month, "price"]
        return _r(v.iloc[0], "int")
    v = z.loc[z["Year"] == int(year), "price"]
    assert len(v) == 12 and v.notna().all()
    return _r(v.mean(), "int")


def b25_zip_zhvi_change(*, zip, month_a, month_b):
    a = b25_zip_zhvi(zip=zip, month=month_a)
    z = _zhvi()
    z = z[z["RegionName"] == int(zip)]
    va = z.loc[z["ym"] == month_a, "price"].iloc[0]
    vb = z.loc[z["ym"] == month_b, "price"].iloc[0]
    del a
    return _r((vb / va - 1) * 100)


def b25_area_main_zip_zhvi(*, area, month):
    """ZHVI of the ZIP an area mostly lies in (share_of_community_area)."""
    return b25_zip_zhvi(zip=_area_zip(area), month=month)


def _area_submarket(area):
    x = _ihsx()
    x = x[x["area_number"] == _area_num(area)].sort_values(
        ["share_of_community_area", "submarket_code"], ascending=[False, True])
    return x["submarket_code"].iloc[0]


def b25_area_submarket(*, area):
    code = _area_submarket(area)
    return _ihsx().loc[_ihsx()["submarket_code"] == code, "submarket_name_2023"].iloc[0]


def _ihs_val(code, year=None, yearq=None):
    i = _ihs()
    i = i[i["submarket_code"] == code]
    if i.empty:
        raise ValueError(f"submarket {code} not in the index")
    if yearq is not None:
        return float(i.loc[i["yearq"] == yearq, "index_2000q1_100"].iloc[0])
    v = i.loc[i["year"] == int(year), "index_2000q1_100"]
    assert len(v) == 4
    return float(v.mean())


def _ihs_code(submarket=None, area=None):
    if area is not None:
        return _area_submarket(area)
    s = str(submarket)
    if s.upper() in ("CHICAGO", "COOK", "SUBURBS") or s.startswith("p3"):
        return s.upper() if not s.startswith("p3") else s
    i = _ihs()
    m = i.loc[i["submarket_name"].str.lower() == s.lower(), "submarket_code"].unique()
    if len(m) != 1:
        raise KeyError(submarket)
    return m[0]


def b25_ihs(*, submarket=None, area=None, year=None, yearq=None):
    """IHS index (2000Q1=100) for a quarter or a year (mean of 4 quarters); via an area's
    main submarket when `area` is given."""
    return _r(_ihs_val(_ihs_code(submarket, area), year, yearq))


def b25_ihs_change(*, submarket=None, area=None, year_a=None, year_b=None, yearq_a=None,
                   yearq_b=None):
    code = _ihs_code(submarket, area)
    a = _ihs_val(code, year_a, yearq_a)
    b = _ihs_val(code, year_b, yearq_b)
    return _r((b / a - 1) * 100)


def b25_ihs_top(*, yearq_a, yearq_b, n=1, chicago_only=True, ascending=False):
    """Submarket with the n-th largest percent change between two quarters."""
    i = _ihs()
    i = i[~i["submarket_code"].isin(["COOK", "CHICAGO", "SUBURBS"])]
    if chicago_only:
        i = i[i["is_chicago"] == 1]
    a = i[i["yearq"] == yearq_a].set_index("submarket_name")["index_2000q1_100"]
    b = i[i["yearq"] == yearq_b].set_index("submarket_name")["index_2000q1_100"]
    ch = ((b / a - 1) * 100).sort_values(ascending=ascending)
    return str(ch.index[n - 1])


_SUMMARY = {
    "since2000": "Change Since 2000", "peak": "Change Peak to Current",
    "bottom": "Change Bottom to Current", "covid": "COVID-19 Pandemic Start to Current",
    "yoy": "Year-over-year change", "price": "Median Sales Price",
}


def _summary_num(s):
    s = str(s).strip().replace("$", "").replace(",", "").replace("%", "")
    return float(s)


def b25_ihs_summary(*, field, submarket=None, area=None):
    code = _ihs_code(submarket, area)
    s = _ihs_summary()
    row = s[s["Number"] == code]
    if row.empty:
        raise ValueError(f"{code} not in summary")
    v = _summary_num(row[_SUMMARY[field]].iloc[0])
    return _r(v, "int" if field == "price" else "1")


def b25_ihs_summary_top(*, field, n=1, chicago_only=True, ascending=False, ret="label"):
    s = _ihs_summary().copy()
    if chicago_only:
        s = s[s["Number"].str.startswith("p315") | s["Number"].str.startswith("p316")]
    s["v"] = s[_SUMMARY[field]].map(_summary_num)
    s = s.sort_values(["v", "Number"], ascending=[ascending, True])
    row = s.iloc[n - 1]
    if ret == "value":
        return _r(row["v"], "int" if field == "price" else "1")
    return str(row["Sub Market"])


def b25_redfin(*, region, field, period_end):
    """One Redfin row value (region without the 'Chicago, IL - ' prefix; 'Chicago, IL' for
    the city monthly rows); period_end 'YYYY-MM-DD'."""
    r = _redfin()
    reg = region if region.startswith("Chicago, IL") else f"Chicago, IL - {region}"
    row = r[(r["Region"] == reg) & (r["end"] == pd.Timestamp(period_end))]
    assert len(row) == 1, (region, period_end, len(row))
    v = row[field].iloc[0]
    if field in ("sale_price", "Homes Sold", "Inventory", "Median List Price", "New Listings"):
        return _r(v, "int")
    if field in ("Avg Sale To List", "Sold Above List"):
        return _r(float(v) * 100)
    return _r(v)


def b25_redfin_city_year(*, field, year):
    """Sum over the 12 monthly 'Chicago, IL' rows ending in `year`."""
    r = _redfin()
    rr = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    assert len(rr) == 12, len(rr)
    return _r(rr[field].sum(), "int")


def b25_redfin_city_peak_month(*, field, year, ret="label"):
    r = _redfin()
    rr = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == int(year))]
    rr = rr.sort_values([field, "end"], ascending=[False, True])
    if ret == "value":
        return _r(rr[field].iloc[0], "int")
    return rr["end"].iloc[0].strftime("%B")


def b25_redfin_change(*, region, field, end_a, end_b):
    a = b25_redfin(region=region, field=field, period_end=end_a)
    b = b25_redfin(region=region, field=field, period_end=end_b)
    return _r((b / a - 1) * 100)


def b25_ward_office_zhvi(*, ward, month):
    """ZHVI (month YYYY-MM) of the ZIP code of the ward's office."""
    return b25_zip_zhvi(zip=_ward_zip(ward), month=month)


def b25_city_compare(*, measure_a, measure_b, op="diff"):
    """Compare two city-wide figures: 'diff' (a - b), 'ratio' (a / b), 'pct' ((b / a - 1) * 100)."""
    a, b = _city_value(measure_a), _city_value(measure_b)
    if op == "diff":
        return _r(a - b)
    if op == "ratio":
        return _r(a / b)
    if op == "pct":
        return _r((b / a - 1) * 100)
    raise ValueError(op)


def b25_set_vs_city(*, where, measure, how="pooled", op="diff"):
    """Set statistic compared with the city figure: 'diff' (city - set), 'ratio' (set / city)."""
    v, rk = _stat(where, measure, how)
    c = _city_value(measure)
    if op == "diff":
        return _r(c - v, rk)
    if op == "ratio":
        return _r(v / c)
    raise ValueError(op)
