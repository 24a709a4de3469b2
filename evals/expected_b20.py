"""Expected figures for the blind20 held-out question set (Chicago public data).

Self-contained pandas code; the only app import is ``evals.expected.data_dir``.
Every public function is named ``b20_*``, takes keyword arguments only and returns ONE
figure (int, float or str).

Conventions (the app's documented conventions, as in blind19)
-------------------------------------------------------------
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
* Thresholds may be relative: 'city' (the city-wide figure of the same measure), 'median'
  or 'mean' (of the per-area values present; East Side has no ZHVI, so home-value
  medians are over 76 areas).  "Above the median" is strictly above.
* A community area's ZIP / IHS submarket is the one with the largest overlap share
  (community_area_zip_crosswalk share_of_zip for "the area that covers most of a ZIP",
  share_of_community_area for "the ZIP / submarket an area lies in").
* Correlations are Pearson r over areas with both values present unless Spearman is asked
  for (Spearman = Pearson r of average ranks).

Measure specs (per community area, index 1..77):
  hom:Y1-Y2[|k=v;k=v]   homicides (filters: dom=1/0, arrest=1/0, loc=STREET, month=7 or 6-8,
                        wd=Saturday, hours=0-5 (inclusive hour range; 22-3 wraps midnight),
                        locin=A,B (any of several location descriptions), date=YYYY-MM-DD..YYYY-MM-DD)
  rate:Y1-Y2[|filters]  homicide rate per 100k per year
  homsqmi:Y1-Y2[|filt]  homicides per square mile of land (area_sq_mi from community_areas.csv)
  arrestpct:Y1-Y2       % of homicides with an arrest
  dompct:Y1-Y2          % flagged domestic
  homdiff:A:B           homicides in B minus homicides in A (A, B are a year or span Y1-Y2)
  homdiffpct:A:B        % change in homicides from A to B
  ratediff:A:B          rate in B minus rate in A
  socio:<key>           crowded, poverty, unemployed, nohs, dependency, pci, hardship
  acs:<col>, acspct:<col>, acsinc:<band>, acsage:<band>, acshh
  pop2010, popchg, popchgpct, area, density
  zhvi:YYYY-MM, zhvichg:YYYY-MM:YYYY-MM, zhvipct:YYYY-MM:YYYY-MM
  neg:<spec>            minus the measure (a loss / fall as a positive number)
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
    for src, dst in (("Community Area", "ca"), ("Ward", "ward"), ("District", "district")):
        h[dst] = pd.to_numeric(h[src], errors="coerce").astype("Int64")
    h["arrest"] = h["Arrest"].str.lower() == "true"
    h["dom"] = h["Domestic"].str.lower() == "true"
    h["loc"] = h["Location Description"].fillna("")
    return h


@functools.lru_cache(maxsize=None)
def _cas():
    c = pd.read_csv(_p("community_areas.csv"))
    fix = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}
    c["name"] = [fix.get(x, x.title()) for x in c.community]
    return c.set_index("area_number")


SOCIO = {
    "crowded": "PERCENT OF HOUSING CROWDED",
    "poverty": "PERCENT HOUSEHOLDS BELOW POVERTY",
    "unemployed": "PERCENT AGED 16+ UNEMPLOYED",
    "nohs": "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA",
    "dependency": "PERCENT AGED UNDER 18 OR OVER 64",
    "pci": "PER CAPITA INCOME ",
    "hardship": "HARDSHIP INDEX",
}


@functools.lru_cache(maxsize=None)
def _socio_all():
    return pd.read_csv(_p("socioeconomic.csv"))


@functools.lru_cache(maxsize=None)
def _socio():
    s = _socio_all()
    s = s[s["Community Area Number"].notna()].copy()
    s["ca"] = s["Community Area Number"].astype(int)
    return s.set_index("ca")


@functools.lru_cache(maxsize=None)
def _acs():
    a = pd.read_csv(_p("census_acs.csv"))
    m = _cas().reset_index().set_index("community")["area_number"]
    a["ca"] = a.community_area.map(m)
    assert a.ca.notna().all()
    return a.set_index("ca").sort_index()


@functools.lru_cache(maxsize=None)
def _pop2010():
    p = pd.read_csv(_p("census_population_2010.csv"))
    return p.set_index("NID")["POP2010"].astype(float).sort_index()


@functools.lru_cache(maxsize=None)
def _zhvi():
    z = pd.read_csv(_p("property_zhvi_zip_monthly.csv"))
    z["ym"] = z.Year.astype(str) + "-" + z.Month.map("{:02d}".format)
    z["zip"] = z.RegionName.astype(int)
    return z


@functools.lru_cache(maxsize=None)
def _zipxw():
    x = pd.read_csv(_p("community_area_zip_crosswalk.csv"))
    x["zip"] = x["zip"].astype(int)
    return x


@functools.lru_cache(maxsize=None)
def _ihs():
    return pd.read_csv(_p("property_ihs_price_index_long.csv"))


@functools.lru_cache(maxsize=None)
def _ihs_summary():
    s = pd.read_csv(_p("property_ihs_price_index_summary_2025q4.csv"))
    s["name"] = s["Sub Market"].str.replace("Chicago--", "", regex=False).str.strip()
    return s


@functools.lru_cache(maxsize=None)
def _ihsxw():
    return pd.read_csv(_p("community_area_ihs_submarket_crosswalk.csv"))


@functools.lru_cache(maxsize=None)
def _stations():
    s = pd.read_csv(_p("police_stations.csv"), dtype=str)
    return s


@functools.lru_cache(maxsize=None)
def _wards():
    w = pd.read_csv(_p("ward_offices.csv"), encoding="utf-8-sig", dtype=str)
    w["ward"] = w.WARD.astype(int)
    return w.set_index("ward")


@functools.lru_cache(maxsize=None)
def _redfin():
    r = pd.read_csv(_p("property_redfin_neighborhoods.csv"), encoding="utf-8-sig")
    r["begin"] = pd.to_datetime(r["Period Begin"], format="%m/%d/%Y")
    r["region"] = r.Region.str.replace("Chicago, IL - ", "", regex=False)
    return r


# ----------------------------------------------------------------------------- helpers
IDX = pd.Index(range(1, 78), name="ca")


def _ca_num(area):
    if isinstance(area, (int, np.integer)):
        return int(area)
    c = _cas()
    a = str(area).strip().lower()
    for n, row in c.iterrows():
        if a in (row["name"].lower(), row["community"].lower(), str(row["name_socioeconomic"]).lower()):
            return int(n)
    raise KeyError(area)


def _name(n):
    return _cas().loc[int(n), "name"]


def _span(s):
    s = str(s)
    if "-" in s:
        a, b = s.split("-")
        return int(a), int(b)
    return int(s), int(s)


def _filter(h, filt):
    if not filt:
        return h
    for part in filt.split(";"):
        k, v = part.split("=")
        if k == "dom":
            h = h[h.dom == (v == "1")]
        elif k == "arrest":
            h = h[h.arrest == (v == "1")]
        elif k == "loc":
            h = h[h["loc"].str.upper() == v.upper()]
        elif k == "locin":
            h = h[h["loc"].str.upper().isin([x.strip().upper() for x in v.split(",")])]
        elif k == "month":
            a, b = _span(v)
            h = h[h.month.between(a, b)]
        elif k == "wd":
            h = h[h.weekday.isin(v.split(","))]
        elif k == "hours":
            a, b = _span(v)
            h = h[h.hour.between(a, b)] if a <= b else h[(h.hour >= a) | (h.hour <= b)]
        elif k == "date":
            a, b = v.split("..")
            h = h[(h.dt >= pd.Timestamp(a)) & (h.dt < pd.Timestamp(b) + pd.Timedelta(days=1))]
        else:
            raise KeyError(k)
    return h


def _homs(years, filt=""):
    a, b = _span(years)
    h = _hom()
    h = h[h.year.between(a, b)]
    return _filter(h, filt)


def _popyears(years):
    a, b = _span(years)
    tot = pd.Series(0.0, index=IDX)
    for y in range(a, b + 1):
        tot = tot + (_pop2010() if y <= 2015 else _acs()["total_population"].astype(float)).reindex(IDX)
    return tot


def _city_popyears(years):
    a, b = _span(years)
    return sum(_pop2010().sum() if y <= 2015 else _acs()["total_population"].sum() for y in range(a, b + 1))


def _cnt(years, filt=""):
    h = _homs(years, filt)
    return h.dropna(subset=["ca"]).groupby("ca").size().reindex(IDX, fill_value=0).astype(float)


def _ca_zhvi(ym):
    z = _zhvi()
    z = z[(z.ym == ym) & z.price.notna()][["zip", "price"]]
    x = _zipxw().merge(z, on="zip")
    g = x.groupby("area_number").apply(
        lambda d: np.average(d.price, weights=d.share_of_community_area), include_groups=False)
    return g.reindex(IDX)


def _numden(spec):
    """Return (num, den) Series for poolable measures, value = num/den."""
    kind, _, arg = spec.partition(":")
    one = pd.Series(1.0, index=IDX)
    if kind == "hom":
        yrs, _, filt = arg.partition("|")
        return _cnt(yrs, filt), one
    if kind == "rate":
        yrs, _, filt = arg.partition("|")
        return _cnt(yrs, filt) * 1e5, _popyears(yrs)
    if kind == "homsqmi":
        yrs, _, filt = arg.partition("|")
        return _cnt(yrs, filt), _cas()["area_sq_mi"].reindex(IDX).astype(float)
    if kind == "arrestpct":
        return _cnt(arg, "arrest=1") * 100, _cnt(arg)
    if kind == "dompct":
        return _cnt(arg, "dom=1") * 100, _cnt(arg)
    if kind == "acs":
        return _acs()[arg].astype(float).reindex(IDX), one
    if kind == "acspct":
        a = _acs()
        return a[arg].astype(float) * 100, a.total_population.astype(float)
    if kind == "acsinc":
        a = _acs()
        hh = a[["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]].sum(axis=1)
        return a[arg].astype(float) * 100, hh
    if kind == "acsage":
        a = _acs()
        return (a["male_" + arg] + a["female_" + arg]).astype(float) * 100, a.total_population.astype(float)
    if kind == "acshh":
        a = _acs()
        return a[["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]].sum(axis=1), one
    if kind == "pop2010":
        return _pop2010().reindex(IDX), one
    if kind == "area":
        return _cas()["area_sq_mi"].reindex(IDX).astype(float), one
    if kind == "density":
        return _acs().total_population.astype(float), _cas()["area_sq_mi"].reindex(IDX).astype(float)
    return None


def _m(spec):
    """Per-community-area value of a measure spec (Series indexed 1..77)."""
    nd = _numden(spec)
    if nd is not None:
        num, den = nd
        with np.errstate(divide="ignore", invalid="ignore"):
            return (num.reindex(IDX) / den.reindex(IDX)).astype(float)
    kind, _, arg = spec.partition(":")
    if kind == "neg":
        return -_m(arg)
    if kind == "homdiff":
        a, b = arg.split(":")
        return _cnt(b) - _cnt(a)
    if kind == "homdiffpct":
        a, b = arg.split(":")
        return (_cnt(b) - _cnt(a)) / _cnt(a) * 100
    if kind == "ratediff":
        a, b = arg.split(":")
        return _m("rate:" + b) - _m("rate:" + a)
    if kind == "socio":
        return _socio()[SOCIO[arg]].astype(float).reindex(IDX)
    if kind == "popchg":
        return _acs().total_population.astype(float).reindex(IDX) - _pop2010().reindex(IDX)
    if kind == "popchgpct":
        return (_acs().total_population.astype(float).reindex(IDX) / _pop2010().reindex(IDX) - 1) * 100
    if kind == "zhvi":
        return _ca_zhvi(arg)
    if kind == "zhvichg":
        a, b = arg.split(":")
        return _ca_zhvi(b) - _ca_zhvi(a)
    if kind == "zhvipct":
        a, b = arg.split(":")
        return (_ca_zhvi(b) / _ca_zhvi(a) - 1) * 100
    raise KeyError(spec)


def _out(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        v = float(v)
        return int(v) if v.is_integer() and abs(v) < 1e12 else v
    return v


def _order(s, order):
    s = s.dropna()
    return s.sort_index(kind="stable").sort_values(ascending=(order == "asc"), kind="stable")


def _cond_val(spec, val, s):
    """Threshold value: a number, or 'median' / 'mean' (of the 77 per-area values),
    or 'city' (the city-wide figure of the same measure, b20_city)."""
    if not isinstance(val, str):
        return val
    if val == "median":
        return float(s.median())
    if val == "mean":
        return float(s.mean())
    if val == "city":
        return float(b20_city(m=spec))
    raise KeyError(val)


def _cond_mask(cond):
    mask = pd.Series(True, index=IDX)
    for spec, op, val in cond:
        s = _m(spec)
        val = _cond_val(spec, val, s)
        if op == ">":
            mk = s > val
        elif op == ">=":
            mk = s >= val
        elif op == "<":
            mk = s < val
        elif op == "<=":
            mk = s <= val
        else:
            raise KeyError(op)
        mask &= mk.fillna(False)
    return mask


def _agg(ids, of, how):
    ids = list(ids)
    if how == "count":
        return len(ids)
    if how == "pooled":
        num, den = _numden(of)
        return float(num.reindex(ids).sum() / den.reindex(ids).sum())
    s = _m(of).reindex(ids)
    if how == "sum":
        return float(s.sum())
    if how == "mean":
        return float(s.mean())
    if how == "median":
        return float(s.median())
    if how == "max":
        return float(s.max())
    if how == "min":
        return float(s.min())
    raise KeyError(how)


def _city_total(of):
    kind, _, arg = of.partition(":")
    if kind == "hom":
        yrs, _, filt = arg.partition("|")
        return float(len(_homs(yrs, filt)))
    if kind == "acs":
        return float(_acs()[arg].sum())
    if kind == "pop2010":
        return float(_pop2010().sum())
    raise KeyError(of)


# ----------------------------------------------------------------------------- public: areas
def b20_area(*, area, m):
    """Value of measure m for one community area (name or number)."""
    return _out(_m(m).loc[_ca_num(area)])


def b20_city(*, m):
    """City-wide figure: homicide count (all rows), city rate (all rows / city pop),
    socio value from the CHICAGO row, ACS sums / pooled percentages."""
    kind, _, arg = m.partition(":")
    if kind == "hom":
        return _out(_city_total(m))
    if kind == "rate":
        yrs, _, filt = arg.partition("|")
        return float(len(_homs(yrs, filt)) * 1e5 / _city_popyears(yrs))
    if kind == "socio":
        s = _socio_all()
        return _out(s[s["Community Area Number"].isna()][SOCIO[arg]].astype(float).iloc[0])
    if kind == "arrestpct":
        h = _homs(arg)
        return float(h.arrest.mean() * 100)
    if kind == "dompct":
        h = _homs(arg)
        return float(h.dom.mean() * 100)
    num, den = _numden(m)
    if kind in ("acs", "acshh", "pop2010", "area"):
        return _out(num.sum())
    return float(num.sum() / den.sum())


def b20_rank(*, by, pos=1, order="desc", field="name", cond=None, exclude=None):
    """Area at position pos (1 = top) when ranked by measure `by`; field = 'name' or a
    measure spec (the value of that measure for the area). cond optionally restricts the pool;
    exclude drops named areas first."""
    s = _m(by)
    if cond:
        s = s[_cond_mask(cond)]
    if exclude:
        s = s.drop([_ca_num(a) for a in exclude])
    s = _order(s, order)
    ca = s.index[pos - 1]
    if field == "name":
        return _name(ca)
    if field == "number":
        return int(ca)
    return _out(_m(field).loc[ca])


def b20_topn(*, by, n, order="desc", of, how="sum", cond=None, exclude=None):
    """Aggregate measure `of` over the n areas ranked highest (desc) / lowest (asc) by `by`
    (optionally restricted by cond, or with named areas excluded first)."""
    s = _m(by)
    if cond:
        s = s[_cond_mask(cond)]
    if exclude:
        s = s.drop([_ca_num(a) for a in exclude])
    ids = _order(s, order).index[:n]
    return _out(_agg(ids, of, how))


def b20_topn_share(*, by, n, order="desc", of):
    """% of the city's total of `of` (hom/acs) that falls in the top-n set."""
    ids = _order(_m(by), order).index[:n]
    return float(_m(of).reindex(ids).sum() / _city_total(of) * 100)


def b20_where(*, cond, of=None, how="count"):
    """Areas meeting all conditions [(spec, op, value), ...]: count, or aggregate `of`."""
    ids = IDX[_cond_mask(cond).values]
    if how == "share":
        return float(_m(of).reindex(ids).sum() / _city_total(of) * 100)
    if how == "sharepct_areas":
        return float(len(ids) / 77 * 100)
    return _out(_agg(ids, of, how))


def b20_corr(*, x, y, method="pearson"):
    """Pearson (or Spearman) r across community areas with both values present."""
    d = pd.concat([_m(x), _m(y)], axis=1).dropna()
    if method == "spearman":  # Pearson r of average ranks (no scipy needed)
        d = d.rank(method="average")
    return float(d.iloc[:, 0].corr(d.iloc[:, 1]))


# ----------------------------------------------------------------------------- public: homicide grains
def b20_hom(*, years, filt="", ca=None, district=None, ward=None, date_from=None, date_to=None):
    """Homicide count, optionally in one CA / district / ward and a date window (inclusive days)."""
    h = _homs(years, filt)
    if ca is not None:
        h = h[h.ca == _ca_num(ca)]
    if district is not None:
        h = h[h.district == int(district)]
    if ward is not None:
        h = h[h.ward == int(ward)]
    if date_from:
        h = h[h.dt >= pd.Timestamp(date_from)]
    if date_to:
        h = h[h.dt < pd.Timestamp(date_to) + pd.Timedelta(days=1)]
    return int(len(h))


def b20_hom_pct(*, years, filt, base_filt="", ca=None, district=None):
    """% of homicides (matching base_filt) that also match filt."""
    h = _homs(years, base_filt)
    if ca is not None:
        h = h[h.ca == _ca_num(ca)]
    if district is not None:
        h = h[h.district == int(district)]
    return float(len(_filter(h, filt)) / len(h) * 100)


def b20_hom_group(*, years, group, pos=1, field="key", filt="", order="desc", ca=None, district=None, ward=None):
    """Rank groups (district, ward, month, weekday, hour, loc, year, ca, Beat) by homicide count,
    optionally within one community area / district / ward."""
    h = _homs(years, filt)
    if ca is not None:
        h = h[h.ca == _ca_num(ca)]
    if district is not None:
        h = h[h.district == int(district)]
    if ward is not None:
        h = h[h.ward == int(ward)]
    h = h.dropna(subset=[group] if group in ("ca", "ward", "district", "Beat") else [])
    g = h.groupby(group).size()
    g = g.sort_index(kind="stable").sort_values(ascending=(order == "asc"), kind="stable")
    if field == "count":
        return int(g.iloc[pos - 1])
    k = g.index[pos - 1]
    if group == "month":
        return pd.Timestamp(2000, int(k), 1).month_name()
    if group == "ca":
        return _name(k)
    return _out(k) if not isinstance(k, str) else k


def b20_station(*, district, field):
    s = _stations()
    r = s[s.DISTRICT == str(district)].iloc[0]
    v = r[field]
    return v.strip() if isinstance(v, str) else v


def b20_station_ca_name(*, district):
    """Community area the district's station sits in."""
    return _name(int(b20_station(district=district, field="COMMUNITY AREA")))


def b20_top_district_station(*, years, pos=1, field="DISTRICT NAME", filt=""):
    d = b20_hom_group(years=years, group="district", pos=pos, filt=filt)
    return b20_station(district=d, field=field)


def b20_alderman(*, ward):
    """Surname of the ward's alderperson (file stores 'Surname, Given')."""
    return _wards().loc[int(ward), "ALDERMAN"].split(",")[0].strip()


def b20_ward_field(*, ward, field):
    return str(_wards().loc[int(ward), field]).strip()


def b20_top_ward_alderman(*, years, pos=1, filt=""):
    w = b20_hom_group(years=years, group="ward", pos=pos, filt=filt)
    return b20_alderman(ward=w)


# ----------------------------------------------------------------------------- public: ZIP / home values
def b20_zip_zhvi(*, zip, ym):
    z = _zhvi()
    return float(z[(z.zip == int(zip)) & (z.ym == ym)].price.iloc[0])


def b20_zip_zhvi_pct(*, zip, a, b):
    return (b20_zip_zhvi(zip=zip, ym=b) / b20_zip_zhvi(zip=zip, ym=a) - 1) * 100


def b20_zip_zhvi_year_mean(*, zip, year):
    z = _zhvi()
    return float(z[(z.zip == int(zip)) & (z.Year == int(year))].price.mean())


def b20_zip_rank(*, ym, pos=1, order="desc", field="zip", base=None, m=None, chg="pct"):
    """Rank ZIPs by ZHVI in ym (or by change from base to ym: chg 'pct' or 'abs' dollars);
    field zip | value | main_ca (community area holding the largest share of the ZIP) |
    ca_value (measure m there)."""
    z = _zhvi()
    cur = z[z.ym == ym].set_index("zip").price
    if base:
        old = z[z.ym == base].set_index("zip").price
        s = (cur / old - 1) * 100 if chg == "pct" else cur - old
    else:
        s = cur
    s = s.dropna().sort_index().sort_values(ascending=(order == "asc"), kind="stable")
    if field == "zip":
        return _out(s.index[pos - 1])
    if field == "value":
        return float(s.iloc[pos - 1])
    if field == "main_ca":
        return b20_zip_main_ca(zip=int(s.index[pos - 1]))
    if field == "ca_value":
        return b20_zip_main_ca(zip=int(s.index[pos - 1]), field="value", m=m)
    raise KeyError(field)


def b20_zip_count(*, ym, op, value):
    z = _zhvi()
    s = z[z.ym == ym].price.dropna()
    return int((s > value).sum() if op == ">" else (s < value).sum())


def b20_zip_main_ca(*, zip, field="name", m=None):
    """Community area with the largest share of the ZIP's land; field name or a measure value."""
    x = _zipxw()
    r = x[x.zip == int(zip)].sort_values("share_of_zip", ascending=False).iloc[0]
    if field == "name":
        return _name(r.area_number)
    return _out(_m(m).loc[int(r.area_number)])


def b20_ca_main_zip(*, area):
    x = _zipxw()
    r = x[x.area_number == _ca_num(area)].sort_values("share_of_community_area", ascending=False).iloc[0]
    return int(r.zip)


def b20_ca_zip_count(*, area):
    x = _zipxw()
    return int((x.area_number == _ca_num(area)).sum())


def b20_zip_ca_count(*, zip):
    x = _zipxw()
    return int((x.zip == int(zip)).sum())


def b20_city_zhvi_median(*, ym):
    z = _zhvi()
    return float(z[z.ym == ym].price.median())


# ----------------------------------------------------------------------------- public: IHS / Redfin
def b20_ihs(*, sub, yq):
    i = _ihs()
    key = sub if sub in ("CHICAGO", "COOK", "SUBURBS") else "Chicago--" + sub
    r = i[(i.submarket_name == key) & (i.yearq == yq)]
    return float(r.index_2000q1_100.iloc[0])


def b20_ihs_pct(*, sub, a, b):
    return (b20_ihs(sub=sub, yq=b) / b20_ihs(sub=sub, yq=a) - 1) * 100


def b20_ihs_rank(*, yq, pos=1, order="desc", field="name", base=None):
    """Rank the 16 Chicago submarkets by index (or % change since base)."""
    i = _ihs()
    i = i[i.submarket_name.str.startswith("Chicago--")]
    cur = i[i.yearq == yq].set_index("submarket_name").index_2000q1_100
    s = cur if not base else (cur / i[i.yearq == base].set_index("submarket_name").index_2000q1_100 - 1) * 100
    s = s.sort_values(ascending=(order == "asc"), kind="stable")
    if field == "name":
        return s.index[pos - 1].replace("Chicago--", "")
    return float(s.iloc[pos - 1])


def b20_ihs_summary(*, sub, col):
    s = _ihs_summary()
    v = s[s.name == sub][col].iloc[0]
    v = str(v).strip().replace("$", "").replace(",", "").replace("%", "")
    return _out(float(v))


def b20_ihs_summary_rank(*, col, pos=1, order="desc", field="name"):
    s = _ihs_summary()
    s = s[s["Sub Market"].str.startswith("Chicago--")].copy()
    s["v"] = s[col].astype(str).str.strip().str.replace(r"[$,%]", "", regex=True).astype(float)
    s = s.sort_values("v", ascending=(order == "asc"), kind="stable")
    return s.name.iloc[pos - 1] if field == "name" else _out(s.v.iloc[pos - 1])


def b20_ca_submarket(*, area):
    """IHS submarket holding the largest share of the community area."""
    x = _ihsxw()
    r = x[x.area_number == _ca_num(area)].sort_values("share_of_community_area", ascending=False).iloc[0]
    return r.submarket_name_2023.replace("Chicago--", "")


def b20_submarket_hom(*, sub, years):
    """Homicides in community areas whose largest piece lies in the submarket."""
    x = _ihsxw().sort_values("share_of_community_area", ascending=False).drop_duplicates("area_number")
    ids = x[x.submarket_name_2023 == "Chicago--" + sub].area_number
    return int(_cnt(years).reindex(ids).sum())


def b20_redfin_city_year(*, year, col, how="sum"):
    r = _redfin()
    r = r[(r.Region == "Chicago, IL") & (r.begin.dt.year == int(year))]
    return _out(getattr(r[col].astype(float), how)())


def b20_redfin(*, region, begin, col):
    r = _redfin()
    r = r[(r.region == region) & (r.begin == pd.Timestamp(begin))]
    v = r[col].iloc[0]
    if isinstance(v, str):
        v = v.replace("$", "")
        mult = 1000 if v.endswith("K") else (1e6 if v.endswith("M") else 1)
        return _out(float(v.rstrip("KM")) * mult)
    return _out(v)


# ----------------------------------------------------------------------------- public: arithmetic
def b20_arith(*, op, a, b):
    """Combine two figures: a = [fn, kwargs], b = [fn, kwargs]; op diff (a-b), ratio (a/b),
    pct (a/b-1)*100, share (a/b*100), sum (a+b), per100k (a/b*1e5),
    fallpct (1-a/b)*100 (a = later, b = earlier; a fall as a positive percent)."""
    va = globals()[a[0]](**a[1])
    vb = globals()[b[0]](**b[1])
    if op == "diff":
        return _out(va - vb)
    if op == "sum":
        return _out(va + vb)
    if op == "ratio":
        return float(va / vb)
    if op == "pct":
        return float((va / vb - 1) * 100)
    if op == "share":
        return float(va / vb * 100)
    if op == "per100k":
        return float(va / vb * 1e5)
    if op == "fallpct":
        return float((1 - va / vb) * 100)
    raise KeyError(op)


# ----------------------------------------------------------------------------- public: IUCR
@functools.lru_cache(maxsize=None)
def _iucr():
    return pd.read_csv(_p("iucr_codes.csv"), dtype=str)


def b20_iucr_hom_codes():
    """Number of IUCR codes whose PRIMARY DESCRIPTION is HOMICIDE."""
    i = _iucr()
    return int((i["PRIMARY DESCRIPTION"].str.strip().str.upper() == "HOMICIDE").sum())


def b20_iucr_codes_in_data():
    """Distinct IUCR codes present in homicides.csv."""
    return int(_hom()["IUCR"].nunique())


def b20_hom_station_district(*, area, years, filt=""):
    """Homicides in the police district whose station sits in the given community area."""
    s = _stations()
    s = s[s["COMMUNITY AREA"].str.strip() == str(_ca_num(area))]
    s = s[s.DISTRICT.str.isdigit()]
    assert len(s) == 1, s
    return b20_hom(years=years, filt=filt, district=int(s.DISTRICT.iloc[0]))


# ----------------------------------------------------------------------------- public: blind20 additions
def b20_group_compare(*, cond, of, how="pooled", op="ratio"):
    """Compare measure `of` between the areas meeting cond and all other areas (with a value):
    op ratio (in / out), diff (in - out); how pooled / mean / sum."""
    mk = _cond_mask(cond)
    ins = IDX[mk.values]
    outs = IDX[~mk.values]
    a = _agg(ins, of, how)
    b = _agg(outs, of, how)
    return float(a / b) if op == "ratio" else _out(a - b)


def b20_rank_of(*, area, by, order="desc"):
    """Position (1 = top) of a community area when ranked by `by` (areas without a value left out)."""
    s = _order(_m(by), order)
    return int(list(s.index).index(_ca_num(area)) + 1)


def b20_ca_main_zip_zhvi(*, area, ym):
    """ZHVI in ym of the ZIP that holds the largest share of the community area."""
    return b20_zip_zhvi(zip=b20_ca_main_zip(area=area), ym=ym)


def b20_ca_ihs_pct(*, area, a, b):
    """% change in the IHS index (a -> b) of the submarket holding the largest share of the area."""
    return b20_ihs_pct(sub=b20_ca_submarket(area=area), a=a, b=b)


def b20_station_ca_value(*, district, m):
    """Measure m for the community area the district's station sits in."""
    return _out(_m(m).loc[int(b20_station(district=district, field="COMMUNITY AREA"))])


def b20_ward_top_ca(*, years, ward=None, district=None, field="name", m=None, filt=""):
    """Community area with the most homicides recorded in the ward (or police district);
    field name or a measure there."""
    k = b20_hom_group(years=years, group="ca", ward=ward, district=district, filt=filt)
    if field == "name":
        return k
    return _out(_m(m).loc[_ca_num(k)])


def b20_zip_zhvi_chg(*, zip, a, b):
    """ZHVI change in dollars for one ZIP (b minus a)."""
    return _out(b20_zip_zhvi(zip=zip, ym=b) - b20_zip_zhvi(zip=zip, ym=a))


def b20_hom_share_of_city(*, years, ca=None, district=None, ward=None, filt=""):
    """% of all city homicides (blank-area rows included) in the place."""
    part = b20_hom(years=years, filt=filt, ca=ca, district=district, ward=ward)
    return float(part / len(_homs(years, filt)) * 100)


def b20_hom_per_day(*, years, filt=""):
    """Homicides per calendar day over the span (2023 counted to 2023-07-19)."""
    a, b = _span(years)
    end = min(pd.Timestamp(b, 12, 31), pd.Timestamp("2023-07-19"))
    days = (end - pd.Timestamp(a, 1, 1)).days + 1
    return float(len(_homs(years, filt)) / days)


def b20_list(*, by, n, order="desc", cond=None, exclude=None, sep=", "):
    """Names of the top-n areas joined with sep (for set answers checked name by name)."""
    s = _m(by)
    if cond:
        s = s[_cond_mask(cond)]
    if exclude:
        s = s.drop([_ca_num(a) for a in exclude])
    return sep.join(_name(c) for c in _order(s, order).index[:n])


def b20_station_zip_zhvi(*, district, ym):
    """ZHVI in ym of the ZIP code of the district's police station."""
    return b20_zip_zhvi(zip=int(b20_station(district=district, field="ZIP")), ym=ym)


def b20_ward_zip_zhvi(*, ward, ym):
    """ZHVI in ym of the ZIP code of the ward office."""
    return b20_zip_zhvi(zip=int(float(b20_ward_field(ward=ward, field="ZIPCODE"))), ym=ym)


def b20_zip_zhvi_rank_of(*, zip, ym, order="desc"):
    """Position of a ZIP among the ZIPs with a ZHVI value in ym."""
    z = _zhvi()
    s = z[z.ym == ym].set_index("zip").price.dropna().sort_values(ascending=(order == "asc"), kind="stable")
    return int(list(s.index).index(int(zip)) + 1)


def b20_ihs_peak(*, sub, field="yearq", start=None, end=None):
    """Quarter (or value) of the highest IHS index for a series within [start, end] quarters."""
    i = _ihs()
    key = sub if sub in ("CHICAGO", "COOK", "SUBURBS") else "Chicago--" + sub
    s = i[i.submarket_name == key].set_index("yearq").index_2000q1_100
    if start:
        s = s[s.index >= start]
    if end:
        s = s[s.index <= end]
    return s.idxmax() if field == "yearq" else float(s.max())


def b20_higher(*, areas, m):
    """Name of the area (among the named ones) with the higher value of measure m."""
    s = _m(m)
    best = max(areas, key=lambda a: s.loc[_ca_num(a)])
    return _name(_ca_num(best))
