"""Expected figures for the blind18 held-out question set (Chicago public data).

Self-contained pandas code; the only app import is ``evals.expected.data_dir``.
Every public function is named ``b18_*``, takes keyword arguments only and returns one
figure (int, float or str).

Conventions
-----------
* Homicides (homicides.csv): one row per victim.  Year / month / weekday / hour come from
  ``Date`` (``%m/%d/%Y %I:%M:%S %p``).  Community Area, Ward and District are float strings
  converted to int; rows with blanks are left out of per-place figures but are counted in
  city totals.  Data end 2023-07-19 (2023 partial).
* Homicide rate per 100,000 a year: population = 2010 census (POP2010) for years <= 2015,
  ACS 2019-2023 ``total_population`` for years >= 2016.  Over several years
  rate = homicides / (sum of each year's population) * 100,000.
* Pooled figures over a set of areas are sum(numerators) / sum(denominators); averaged
  figures (``how='mean'``) are plain means of the per-area values.
* Community-area names are title-cased from community_areas.csv ("O'Hare", "McKinley Park").
* Community-area home value for a month = mean of its ZIPs' ZHVI that month weighted by
  ``share_of_community_area`` (ZIPs without a value that month dropped, weights renormalised);
  areas with no ZIP value at all are NaN and left out of rankings.
* Socioeconomic indicators are 2008-2012; ACS is 2019-2023.
* Percentages are returned as percentages (34.7 for 34.7 %).  Money as plain numbers.
  A "fall" is returned as a positive number.
* A "share of the city's" homicides uses the full city total for the period (rows with a
  blank community area included in the denominator).
* Rankings break exact ties by community-area number; the questions avoid depending on ties.
* Name figures: IHS submarkets without the "Chicago--" prefix; aldermen by surname (the file
  stores "Surname, Given"); police stations by DISTRICT NAME; addresses by house number.
* Redfin: neighborhood rows are rolling 90-day windows keyed by Period Begin; the
  "Chicago, IL" rows are monthly (30-day) and are summed for a calendar year.

Measure specs (strings) used by the composition helpers; each gives a value per community
area (index 1..77) and, where it makes sense, a numerator/denominator for pooling:
  hom:Y1-Y2[|filters]      homicide count over years Y1..Y2 (filters: dom=1, arrest=0/1,
                           loc=STREET, month=7, wd=Saturday, hours=0-5)
  rate:Y1-Y2[|filters]     homicide rate per 100k per year (pooled population-years)
  arrestpct:Y1-Y2          % of homicides with Arrest == True
  dompct:Y1-Y2             % of homicides flagged Domestic
  homdiff:Y1:Y2            homicides in Y2 minus homicides in Y1 (Y may be a span A-B)
  ratediff:Y1:Y2           rate in Y2 minus rate in Y1
  socio:<key>              crowded, poverty, unemployed, nohs, dependency, pci, hardship
  acs:<column>             raw ACS column (total_population, white, ...)
  acspct:<column>          ACS column as % of total_population
  acsinc:<band>            households in an income band as % of all households
                           (bands: under_25_000, _25_000_to_49_999, _50_000_to_74_999,
                           _75_000_to_125_000, _125_000)
  acsage:<band>            (male_<band> + female_<band>) as % of total_population
  acshh                    total households (sum of the five bands)
  pop2010                  2010 census population
  popchg / popchgpct       ACS total_population minus POP2010 (absolute / %)
  area / density           area in sq mi / ACS population per sq mi
  zhvi:YYYY-MM             community-area home value for the month
  zhvichg:YYYY-MM:YYYY-MM  change in that value (later minus earlier)
  zhvipct:YYYY-MM:YYYY-MM  % change in that value
"""
import functools
import os

import numpy as np
import pandas as pd

from evals.expected import data_dir


def _p(name):
    return os.path.join(data_dir(), name)


# ----------------------------------------------------------------------------- loaders
@functools.lru_cache(maxsize=None)
def _hom():
    h = pd.read_csv(_p("homicides.csv"), dtype=str)
    h["dt"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["year"] = h.dt.dt.year
    h["month"] = h.dt.dt.month
    h["weekday"] = h.dt.dt.day_name()
    h["hour"] = h.dt.dt.hour
    h["quarter"] = h.dt.dt.quarter
    for src, dst in (("Community Area", "ca"), ("Ward", "ward"), ("District", "district")):
        h[dst] = pd.to_numeric(h[src], errors="coerce").astype("Int64")
    h["arrest"] = h["Arrest"].str.lower() == "true"
    h["domestic"] = h["Domestic"].str.lower() == "true"
    return h


@functools.lru_cache(maxsize=None)
def _cas():
    c = pd.read_csv(_p("community_areas.csv"))

    def nice(s):
        t = s.title()
        return {"Ohare": "O'Hare", "Mckinley Park": "McKinley Park"}.get(t, t)

    c["name"] = c["community"].map(nice)
    return c.set_index("area_number")


def _name(num):
    return _cas().loc[int(num), "name"]


def _num(area):
    if isinstance(area, (int, np.integer)):
        return int(area)
    key = str(area).strip().lower().replace("'", "")
    for n, row in _cas().iterrows():
        if row["name"].lower().replace("'", "") == key or row["community"].lower() == key:
            return int(n)
    raise KeyError(area)


@functools.lru_cache(maxsize=None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


@functools.lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    m = _cas().reset_index()[["area_number", "community"]]
    a = a.merge(m, left_on="community_area", right_on="community", how="left")
    assert a["area_number"].notna().all()
    return a.set_index("area_number").sort_index()


SOCIO_COLS = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "pci": "PER CAPITA INCOME ",
    "hardship": "HARDSHIP INDEX",
}

INC_BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
             "_75_000_to_125_000", "_125_000"]


@functools.lru_cache(maxsize=None)
def _socio_all():
    return pd.read_csv(_p("socioeconomic.csv"))


@functools.lru_cache(maxsize=None)
def _socio():
    s = _socio_all()
    s = s[s["Community Area Number"].notna()].copy()
    s["Community Area Number"] = s["Community Area Number"].astype(int)
    return s.set_index("Community Area Number").sort_index()


@functools.lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["zip"] = z["RegionName"].astype(int)
    z["ym"] = z["Year"].astype(str) + "-" + z["Month"].map(lambda m: f"{m:02d}")
    return z


@functools.lru_cache(maxsize=None)
def _xwalk():
    return pd.read_csv(_p("community_area_zip_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_long():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    for c in s.columns[2:7]:
        s[c] = s[c].str.replace("%", "").astype(float)
    s["Median Sales Price"] = (s["Median Sales Price"].str.replace(r"[\s$,]", "", regex=True)
                               .astype(float))
    return s


@functools.lru_cache(maxsize=None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["begin"] = pd.to_datetime(r["Period Begin"], format="%m/%d/%Y")
    r["end"] = pd.to_datetime(r["Period End"], format="%m/%d/%Y")
    r["hood"] = r["Region"].str.replace("Chicago, IL - ", "", regex=False)

    def money(s):
        if pd.isna(s):
            return np.nan
        s = s.replace("$", "").replace(",", "")
        mult = 1
        if s.endswith("K"):
            mult, s = 1e3, s[:-1]
        elif s.endswith("M"):
            mult, s = 1e6, s[:-1]
        return float(s) * mult

    r["sale_price"] = r["Median Sale Price"].map(money)
    return r


@functools.lru_cache(maxsize=None)
def _wards():
    return pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig")


@functools.lru_cache(maxsize=None)
def _stations():
    return pd.read_csv(_p("police_stations.csv"))


@functools.lru_cache(maxsize=None)
def _iucr():
    return pd.read_csv(_p("iucr_codes.csv"), dtype=str)


# ----------------------------------------------------------------------------- homicide filters
def _years(s):
    s = str(s)
    if "-" in s:
        a, b = s.split("-")
        return int(a), int(b)
    return int(s), int(s)


def _filter_hom(h, years=None, dom=None, arrest=None, loc=None, month=None, wd=None,
                hours=None, quarter=None, through=None):
    if through is not None:  # 'MM-DD': keep dates on or before that day of each year
        mm, dd = [int(x) for x in str(through).split("-")]
        h = h[(h.month < mm) | ((h.month == mm) & (h.dt.dt.day <= dd))]
    if years is not None:
        a, b = _years(years)
        h = h[(h.year >= a) & (h.year <= b)]
    if dom is not None:
        h = h[h.domestic == bool(int(dom))]
    if arrest is not None:
        h = h[h.arrest == bool(int(arrest))]
    if loc is not None:
        h = h[h["Location Description"] == loc]
    if month is not None:
        ms = [int(m) for m in str(month).split(",")]
        h = h[h.month.isin(ms)]
    if quarter is not None:
        h = h[h.quarter == int(quarter)]
    if wd is not None:
        wds = str(wd).split(",")
        h = h[h.weekday.isin(wds)]
    if hours is not None:
        a, b = [int(x) for x in str(hours).split("-")]
        h = h[(h.hour >= a) & (h.hour <= b)]
    return h


def _parse_filters(parts):
    f = {}
    for p in parts:
        k, v = p.split("=")
        f[k] = v
    return f


def _ca_counts(h):
    c = h[h.ca.notna()].groupby("ca").size()
    c.index = c.index.astype(int)
    return c.reindex(range(1, 78), fill_value=0).astype(float)


def _pop_years(years):
    a, b = _years(years)
    tot = pd.Series(0.0, index=range(1, 78))
    acs = _acs()["total_population"].reindex(range(1, 78))
    p10 = _pop2010().reindex(range(1, 78))
    for y in range(a, b + 1):
        tot = tot + (p10 if y <= 2015 else acs)
    return tot


def _city_pop_years(years):
    a, b = _years(years)
    return sum(_pop2010().sum() if y <= 2015 else _acs()["total_population"].sum()
               for y in range(a, b + 1))


# ----------------------------------------------------------------------------- measures
def _measure_nd(spec):
    """Return (numerator, denominator, scale) Series per CA; value = num/den*scale.
    den None means value = num."""
    parts = spec.split("|")
    head, filt = parts[0], _parse_filters(parts[1:])
    kind, _, arg = head.partition(":")
    idx = range(1, 78)
    if kind == "hom":
        return _ca_counts(_filter_hom(_hom(), years=arg, **filt)), None, 1
    if kind == "rate":
        return _ca_counts(_filter_hom(_hom(), years=arg, **filt)), _pop_years(arg), 1e5
    if kind == "arrestpct":
        h = _filter_hom(_hom(), years=arg, **filt)
        return _ca_counts(h[h.arrest]), _ca_counts(h), 100
    if kind == "dompct":
        h = _filter_hom(_hom(), years=arg, **filt)
        return _ca_counts(h[h.domestic]), _ca_counts(h), 100
    if kind == "homdiff":
        y1, y2 = arg.split(":")
        n1 = _ca_counts(_filter_hom(_hom(), years=y1, **filt))
        n2 = _ca_counts(_filter_hom(_hom(), years=y2, **filt))
        return n2 - n1, None, 1
    if kind == "ratediff":
        y1, y2 = arg.split(":")
        r1 = _ca_counts(_filter_hom(_hom(), years=y1)) / _pop_years(y1) * 1e5
        r2 = _ca_counts(_filter_hom(_hom(), years=y2)) / _pop_years(y2) * 1e5
        return r2 - r1, None, 1
    if kind == "socio":
        return _socio()[SOCIO_COLS[arg]].reindex(idx).astype(float), None, 1
    if kind == "acs":
        return _acs()[arg].reindex(idx).astype(float), None, 1
    if kind == "acspct":
        a = _acs().reindex(idx)
        return a[arg].astype(float), a["total_population"].astype(float), 100
    if kind == "acsinc":
        a = _acs().reindex(idx)
        return a[arg].astype(float), a[INC_BANDS].sum(axis=1).astype(float), 100
    if kind == "acsage":
        a = _acs().reindex(idx)
        return (a["male_" + arg] + a["female_" + arg]).astype(float), \
            a["total_population"].astype(float), 100
    if kind == "acshh":
        return _acs().reindex(idx)[INC_BANDS].sum(axis=1).astype(float), None, 1
    if kind == "pop2010":
        return _pop2010().reindex(idx), None, 1
    if kind == "popchg":
        return _acs()["total_population"].reindex(idx) - _pop2010().reindex(idx), None, 1
    if kind == "popchgpct":
        p = _pop2010().reindex(idx)
        return _acs()["total_population"].reindex(idx) - p, p, 100
    if kind == "area":
        return _cas()["area_sq_mi"].reindex(idx).astype(float), None, 1
    if kind == "density":
        return _acs()["total_population"].reindex(idx).astype(float), \
            _cas()["area_sq_mi"].reindex(idx).astype(float), 1
    if kind == "zhvi":
        return _ca_zhvi(arg), None, 1
    if kind in ("zhvichg", "zhvipct"):
        m1, m2 = arg.split(":")
        v1, v2 = _ca_zhvi(m1), _ca_zhvi(m2)
        if kind == "zhvichg":
            return v2 - v1, None, 1
        return v2 - v1, v1, 100
    raise ValueError(spec)


def _measure(spec):
    num, den, scale = _measure_nd(spec)
    if den is None:
        return num.astype(float)
    return (num / den * scale).astype(float)


@functools.lru_cache(maxsize=None)
def _ca_zhvi(ym):
    z = _zhvi()
    z = z[(z.ym == ym) & z.price.notna()][["zip", "price"]]
    x = _xwalk().merge(z, on="zip", how="inner")
    x["w"] = x["share_of_community_area"]
    g = x.groupby("area_number").apply(lambda d: (d.price * d.w).sum() / d.w.sum(),
                                       include_groups=False)
    return g.reindex(range(1, 78)).astype(float)


def _ranked(by, order="desc", exclude=None, where=None):
    s = _measure(by).dropna()
    if exclude:
        ex = [_num(e) for e in str(exclude).split(";")]
        s = s.drop([e for e in ex if e in s.index])
    if where:
        s = s[_where_mask(where).reindex(s.index).fillna(False)]
    # stable tie-break on area number
    df = pd.DataFrame({"v": s, "n": s.index})
    df = df.sort_values(["v", "n"], ascending=[order == "asc", True])
    return df["v"]


def _where_mask(where):
    """where = 'spec>=value' (ops >=, <=, >, <)."""
    for op in (">=", "<=", ">", "<"):
        if op in where:
            spec, thr = where.split(op)
            v = _measure(spec)
            thr = float(thr)
            return {">=": v >= thr, "<=": v <= thr, ">": v > thr, "<": v < thr}[op]
    raise ValueError(where)


def _agg(value, nums, how):
    num, den, scale = _measure_nd(value)
    if how == "sum":
        v = _measure(value) if den is not None else num
        return float(v.loc[nums].sum())
    if how == "mean":
        return float(_measure(value).loc[nums].mean())
    if how == "median":
        return float(_measure(value).loc[nums].median())
    if how == "pooled":
        return float(num.loc[nums].sum() / den.loc[nums].sum() * scale)
    if how == "share":  # share of city total of a count measure, in %
        return float(num.loc[nums].sum() / _city_total(value) * 100)
    if how == "share_known":  # wrong-reading helper: share of the areas-known total only
        return float(num.loc[nums].sum() / num.sum() * 100)
    if how == "count":
        return float(len(nums))
    raise ValueError(how)


def _city_total(spec):
    parts = spec.split("|")
    head, filt = parts[0], _parse_filters(parts[1:])
    kind, _, arg = head.partition(":")
    if kind == "hom":
        return float(len(_filter_hom(_hom(), years=arg, **filt)))
    return float(_measure_nd(spec)[0].sum())


# ----------------------------------------------------------------------------- public: CA level
def b18_value(*, spec, area):
    """Value of a measure for one community area (name or number)."""
    v = _measure(spec).loc[_num(area)]
    return float(v)


def b18_rank_name(*, by, order="desc", k=1, exclude=None, where=None):
    """Name of the k-th community area when ranked by a measure."""
    r = _ranked(by, order, exclude, where)
    return _name(r.index[int(k) - 1])


def b18_rank_value(*, by, order="desc", k=1, exclude=None, where=None, value=None):
    """Value (of `value`, default the ranking measure) at the k-th ranked area."""
    r = _ranked(by, order, exclude, where)
    n = r.index[int(k) - 1]
    return float(_measure(value or by).loc[n])


def b18_set_agg(*, by, n, order="desc", value, how="sum", exclude=None, where=None):
    """Rank areas by `by`, take the top n, aggregate `value` over them."""
    r = _ranked(by, order, exclude, where)
    nums = list(r.index[: int(n)])
    return _agg(value, nums, how)


def b18_threshold_count(*, where, where2=None):
    """Number of community areas meeting `where` (and `where2`)."""
    m = _where_mask(where)
    if where2:
        m = m & _where_mask(where2)
    return int(m.fillna(False).sum())


def b18_threshold_agg(*, where, value, how="share", where2=None):
    """Aggregate `value` over the areas meeting `where` (share of city total by default)."""
    m = _where_mask(where)
    if where2:
        m = m & _where_mask(where2)
    nums = list(m[m.fillna(False)].index)
    return _agg(value, nums, how)


def b18_corr(*, a, b, method="pearson"):
    """Correlation across community areas with both values."""
    x, y = _measure(a), _measure(b)
    d = pd.concat([x, y], axis=1).dropna()
    if method == "spearman":  # rank then Pearson (no scipy needed)
        d = d.rank()
    return float(d.iloc[:, 0].corr(d.iloc[:, 1]))


def b18_ratio(*, spec_a, area_a, spec_b=None, area_b=None, scale=1.0):
    """Ratio of value a to value b (defaults: same spec / same area), times `scale`."""
    a = b18_value(spec=spec_a, area=area_a)
    b = b18_value(spec=spec_b or spec_a, area=area_b or area_a)
    return a / b * float(scale)


# ----------------------------------------------------------------------------- public: homicides
def b18_hom_count(*, years=None, ca=None, ward=None, district=None, blank_ca=None, **filt):
    """City (or one place) homicide count with optional filters."""
    h = _filter_hom(_hom(), years=years, **filt)
    if ca is not None:
        h = h[h.ca == _num(ca)]
    if ward is not None:
        h = h[h.ward == int(ward)]
    if district is not None:
        h = h[h.district == int(district)]
    if blank_ca:
        h = h[h.ca.isna()]
    return int(len(h))


def b18_hom_pct(*, num_filter, years=None, ca=None, ward=None, district=None, **filt):
    """% of homicides (matching filt and place) that also meet num_filter ('arrest=1', 'dom=1',
    'loc=STREET', 'wd=Saturday,Sunday', 'hours=0-5')."""
    base = b18_hom_count(years=years, ca=ca, ward=ward, district=district, **filt)
    extra = _parse_filters(num_filter.split("|"))
    both = dict(filt)
    both.update(extra)
    num = b18_hom_count(years=years, ca=ca, ward=ward, district=district, **both)
    return num / base * 100


def b18_hom_city_rate(*, years, pop=None):
    """City homicide rate per 100k per year (all rows). pop='acs' or '2010' forces one
    population source for every year (used for wrong-reading stand-ins)."""
    n = len(_filter_hom(_hom(), years=years))
    if pop is None:
        den = _city_pop_years(years)
    else:
        a, b = _years(years)
        base = _acs()["total_population"].sum() if pop == "acs" else _pop2010().sum()
        den = base * (b - a + 1)
    return n / den * 1e5


def _group_col(h, by):
    return {"year": h.year, "month": h.month, "weekday": h.weekday, "hour": h.hour,
            "ward": h.ward, "district": h.district, "ca": h.ca, "quarter": h.quarter,
            "loc": h["Location Description"], "ym": h.dt.dt.strftime("%Y-%m")}[by]


def b18_hom_group(*, by, years=None, k=1, order="desc", ret="key", ward=None,
                  district=None, ca=None, **filt):
    """Group homicides by a grain (year, month, weekday, hour, ward, district, ca, quarter, loc,
    ym) and return the k-th key (ret='key') or its count (ret='count')."""
    h = _filter_hom(_hom(), years=years, **filt)
    if ward is not None:
        h = h[h.ward == int(ward)]
    if district is not None:
        h = h[h.district == int(district)]
    if ca is not None:
        h = h[h.ca == _num(ca)]
    g = h.groupby(_group_col(h, by)).size()
    g = g[g.index.notna()] if by in ("ward", "district", "ca") else g
    df = pd.DataFrame({"c": g.values, "k": list(g.index)})
    df = df.sort_values(["c", "k"], ascending=[order == "asc", True])
    row = df.iloc[int(k) - 1]
    if ret == "count":
        return int(row.c)
    key = row.k
    if by == "ca":
        return _name(int(key))
    if by == "month":
        return pd.Timestamp(2000, int(key), 1).month_name()
    if by in ("ward", "district", "year", "hour", "quarter"):
        return int(key)
    return str(key)


def b18_station_name(*, district):
    s = _stations()
    return str(s[s.DISTRICT == str(district)]["DISTRICT NAME"].iloc[0])


def b18_station_field(*, district, field, part=None):
    s = _stations()
    v = str(s[s.DISTRICT == str(district)][field].iloc[0]).strip()
    if part == "number":  # leading house number of an address
        return v.split()[0]
    return v


def b18_ward_alderman(*, ward, part="surname"):
    """Alderman for a ward; the file stores 'Surname, Given'. part='surname' (default) or 'full'."""
    w = _wards()
    v = str(w[w.WARD == int(ward)]["ALDERMAN"].iloc[0])
    return v.split(",")[0].strip() if part == "surname" else v


def b18_ward_field(*, ward, field):
    w = _wards()
    v = w[w.WARD == int(ward)][field].iloc[0]
    if field == "ZIPCODE":
        return int(float(v))
    return str(v).strip()


# ----------------------------------------------------------------------------- public: socio / census city
def b18_socio_city(*, key):
    s = _socio_all()
    return float(s[s["COMMUNITY AREA NAME"] == "CHICAGO"][SOCIO_COLS[key]].iloc[0])


def b18_acs_city(*, col, pct=False):
    a = _acs()
    if pct:
        return float(a[col].sum() / a["total_population"].sum() * 100)
    return float(a[col].sum())


def b18_acs_city_inc_pct(*, band):
    a = _acs()
    return float(a[band].sum() / a[INC_BANDS].sum().sum() * 100)


def b18_acs_city_age_pct(*, band):
    a = _acs()
    return float((a["male_" + band].sum() + a["female_" + band].sum())
                 / a["total_population"].sum() * 100)


def b18_pop2010_city():
    return float(_pop2010().sum())


# ----------------------------------------------------------------------------- public: ZHVI
def b18_zip_value(*, zip, ym):
    z = _zhvi()
    return float(z[(z.zip == int(zip)) & (z.ym == ym)]["price"].iloc[0])


def b18_zip_ratio(*, zip_a, zip_b, ym):
    return b18_zip_value(zip=zip_a, ym=ym) / b18_zip_value(zip=zip_b, ym=ym)


def b18_zip_change(*, zip, ym1, ym2, pct=False):
    a = b18_zip_value(zip=zip, ym=ym1)
    b = b18_zip_value(zip=zip, ym=ym2)
    return (b - a) / a * 100 if pct else b - a


def _zip_series(ym, ym2=None, pct=False):
    z = _zhvi()
    s = z[z.ym == ym].set_index("zip")["price"].dropna()
    if ym2 is None:
        return s
    s2 = z[z.ym == ym2].set_index("zip")["price"].dropna()
    d = (s2 - s).dropna()
    return d / s.loc[d.index] * 100 if pct else d


def b18_zip_rank(*, ym, ym2=None, pct=False, order="desc", k=1, ret="zip"):
    s = _zip_series(ym, ym2, pct)
    df = pd.DataFrame({"v": s, "z": s.index}).sort_values(["v", "z"],
                                                          ascending=[order == "asc", True])
    row = df.iloc[int(k) - 1]
    return int(row.z) if ret == "zip" else float(row.v)


def b18_zip_count(*, ym, op, thr, ym2=None, pct=False):
    s = _zip_series(ym, ym2, pct)
    thr = float(thr)
    return int({">=": s >= thr, "<=": s <= thr, ">": s > thr, "<": s < thr}[op].sum())


def b18_zip_median(*, ym):
    return float(_zip_series(ym).median())


def b18_zip_mean(*, ym):
    return float(_zip_series(ym).mean())


def b18_zip_main_ca(*, zip):
    """Community area holding the largest share of the ZIP's area."""
    x = _xwalk()
    x = x[x.zip == int(zip)].sort_values("share_of_zip", ascending=False)
    return _name(int(x.iloc[0].area_number))


def b18_ca_zip_simple_mean(*, area, ym):
    """Unweighted mean of the ZHVI of every ZIP overlapping a community area (wrong-reading
    helper: ignores the crosswalk weights)."""
    x = _xwalk()
    zips = x[x.area_number == _num(area)].zip
    z = _zhvi()
    return float(z[(z.zip.isin(zips)) & (z.ym == ym)]["price"].mean())


# ----------------------------------------------------------------------------- public: IHS
def _ihs_series(sub):
    """Rows of one IHS series; sub = CHICAGO/COOK/SUBURBS or a submarket name (with or
    without the 'Chicago--' prefix)."""
    d = _ihs_long()
    if sub in ("CHICAGO", "COOK", "SUBURBS"):
        return d[d.submarket_code == sub]
    if sub not in set(d.submarket_name):
        sub = "Chicago--" + sub
    out = d[d.submarket_name == sub]
    assert len(out), sub
    return out


def b18_ihs(*, sub, yearq):
    d = _ihs_series(sub)
    return float(d[d.yearq == yearq]["index_2000q1_100"].iloc[0])


def b18_ihs_change(*, sub, q1, q2, pct=True, positive=False):
    a, b = b18_ihs(sub=sub, yearq=q1), b18_ihs(sub=sub, yearq=q2)
    v = (b - a) / a * 100 if pct else b - a
    return abs(v) if positive else v


def b18_ihs_extreme(*, sub, order="max", after=None, before=None, ret="quarter"):
    """Quarter (or value) of the max/min of a series, optionally within after <= year < before."""
    d = _ihs_series(sub)
    if after:
        d = d[d.year >= int(after)]
    if before:
        d = d[d.year < int(before)]
    i = d.index_2000q1_100.idxmax() if order == "max" else d.index_2000q1_100.idxmin()
    return str(d.loc[i, "yearq"]) if ret == "quarter" else float(d.loc[i, "index_2000q1_100"])


def _short(sub):
    return sub.replace("Chicago--", "")


def b18_ihs_summary(*, sub, col):
    s = _ihs_summary()
    if sub not in set(s["Sub Market"]):
        sub = "Chicago--" + sub
    return float(s[s["Sub Market"] == sub][col].iloc[0])


def b18_ihs_summary_rank(*, col, chicago_only=True, order="desc", k=1, ret="name"):
    s = _ihs_summary()
    if chicago_only is not None:
        s = s[s["Sub Market"].str.startswith("Chicago--") == chicago_only]
    s = s.sort_values(col, ascending=(order == "asc"))
    row = s.iloc[int(k) - 1]
    return _short(str(row["Sub Market"])) if ret == "name" else float(row[col])


def b18_ihs_summary_count(*, col, op, thr, chicago_only=True):
    s = _ihs_summary()
    if chicago_only is not None:  # None = all 35 submarkets
        s = s[s["Sub Market"].str.startswith("Chicago--") == chicago_only]
    v, thr = s[col], float(thr)
    return int({">=": v >= thr, "<=": v <= thr, ">": v > thr, "<": v < thr}[op].sum())


@functools.lru_cache(maxsize=None)
def _ihs_xwalk():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


def b18_ihs_submarket_of(*, area):
    """IHS submarket holding the largest share of a community area."""
    x = _ihs_xwalk()
    x = x[x.area_number == _num(area)].sort_values("share_of_community_area", ascending=False)
    return _short(str(x.iloc[0].submarket_name_2023))


# ----------------------------------------------------------------------------- public: Redfin
def b18_redfin(*, region, begin, col):
    r = _redfin()
    reg = "Chicago, IL" if region == "CITY" else "Chicago, IL - " + region
    row = r[(r.Region == reg) & (r.begin == pd.Timestamp(begin))]
    return float(row[col].iloc[0])


def b18_redfin_city_year(*, year, col, how="sum"):
    r = _redfin()
    d = r[(r.Region == "Chicago, IL") & (r.begin.dt.year == int(year))]
    return float(d[col].sum() if how == "sum" else d[col].mean() if how == "mean"
                 else d[col].max())


def b18_redfin_rank(*, begin, col, order="desc", k=1, ret="name", min_sold=0):
    r = _redfin()
    d = r[(r.begin == pd.Timestamp(begin)) & (r["Period Duration"] == 90)]
    d = d[d["Homes Sold"] >= int(min_sold)]
    d = d.dropna(subset=[col]).sort_values([col, "hood"], ascending=[order == "asc", True])
    row = d.iloc[int(k) - 1]
    return str(row.hood) if ret == "name" else float(row[col])


# ----------------------------------------------------------------------------- public: IUCR
def b18_iucr_count(*, primary=None, index_code=None, active=None):
    d = _iucr()
    if primary:
        d = d[d["PRIMARY DESCRIPTION"] == primary]
    if index_code:
        d = d[d["INDEX CODE"] == index_code]
    if active is not None:
        d = d[d["ACTIVE"].str.lower() == str(active).lower()]
    return int(len(d))


def b18_iucr_desc(*, code):
    d = _iucr()
    return str(d[d.IUCR == code]["SECONDARY DESCRIPTION"].iloc[0])


# ----------------------------------------------------------------------------- public: misc
def b18_pct_change(*, a, b, positive=False):
    """% change from figure a to figure b; a and b are nested ['b18_func', {kwargs}] specs."""
    va = globals()[a[0]](**a[1])
    vb = globals()[b[0]](**b[1])
    v = (vb - va) / va * 100
    return abs(v) if positive else v


def b18_zip_extreme(*, zip, order="max", ret="value"):
    z = _zhvi()
    d = z[(z.zip == int(zip)) & z.price.notna()]
    i = d.price.idxmax() if order == "max" else d.price.idxmin()
    return float(d.loc[i, "price"]) if ret == "value" else str(d.loc[i, "ym"])


def b18_redfin_city_month_top(*, year, col, ret="month"):
    r = _redfin()
    d = r[(r.Region == "Chicago, IL") & (r.begin.dt.year == int(year))]
    i = d[col].idxmax()
    return d.loc[i, "begin"].month_name() if ret == "month" else float(d.loc[i, col])


def b18_ward_of_alderman(*, surname):
    w = _wards()
    return int(w[w.ALDERMAN.str.split(",").str[0].str.strip() == surname]["WARD"].iloc[0])


def b18_district_of_station(*, name):
    s = _stations()
    return int(s[s["DISTRICT NAME"] == name]["DISTRICT"].iloc[0])


@functools.lru_cache(maxsize=None)
def _townships():
    return pd.read_csv(_p("cook_county_chicago_townships.csv"))


def b18_township_code(*, name):
    t = _townships()
    return int(t[t.township_name == name]["township_code"].iloc[0])


def b18_township_count():
    return int(len(_townships()))


def b18_city_pop_change(*, pct=False, positive=False):
    a, b = _pop2010().sum(), _acs()["total_population"].sum()
    v = float((b - a) / a * 100) if pct else float(b - a)
    return abs(v) if positive else v
