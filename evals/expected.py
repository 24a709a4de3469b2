"""Expected numbers for the eval set, computed independently from the raw CSVs with plain pandas.

Nothing here imports ``tools``: every function reads the exported CSV files directly (the
configured data folder, else ../shared/data), so a bug in a tool cannot also hide in its check.
The question file names these functions with arguments; the runner looks for the value in the
answer.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

import pandas as pd

_DIR: Path | None = None


def set_data_dir(path) -> None:
    global _DIR
    _DIR = Path(path)
    for fn in (_homicides, _socio, _acs, _areas, _iucr, _pop2010, _zhvi, _zip_crosswalk, _ihs_long, _ihs_summary):
        fn.cache_clear()


def data_dir() -> Path:
    if _DIR is not None:
        return _DIR
    env = os.environ.get("CHIQA_DATA_DIR")
    if env and (Path(env) / "homicides.csv").is_file():
        return Path(env)
    return Path(__file__).resolve().parent.parent.parent / "shared" / "data"


@functools.lru_cache(maxsize=1)
def _homicides() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "homicides.csv", dtype={"IUCR": str})
    df["year"] = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.year
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
    return pd.read_csv(data_dir() / "census_acs.csv")


@functools.lru_cache(maxsize=1)
def _areas() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_areas.csv")


@functools.lru_cache(maxsize=1)
def _iucr() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "iucr_codes.csv", dtype=str)


@functools.lru_cache(maxsize=1)
def _pop2010() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "census_population_2010.csv")


@functools.lru_cache(maxsize=1)
def _zhvi() -> pd.DataFrame:
    df = pd.read_csv(data_dir() / "property_zhvi_zip_monthly.csv", dtype={"RegionName": str})
    df["zip"] = df["RegionName"].str.zfill(5)
    df["value"] = pd.to_numeric(df["price"], errors="coerce")
    df["period"] = df["Year"].astype(int) * 100 + df["Month"].astype(int)
    return df


@functools.lru_cache(maxsize=1)
def _zip_crosswalk() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "community_area_zip_crosswalk.csv", dtype={"zip": str})


def _years(df, year=None, start_year=None, end_year=None):
    if year is not None:
        return df[df["year"] == int(year)]
    if start_year is not None:
        df = df[df["year"] >= int(start_year)]
    if end_year is not None:
        df = df[df["year"] <= int(end_year)]
    return df


def area_name(area_number: int) -> str:
    row = _areas()[_areas()["area_number"] == int(area_number)].iloc[0]
    return str(row["name_socioeconomic"])


# ---------------------------------------------------------------- homicides

def homicides_total(year=None, start_year=None, end_year=None) -> int:
    return int(len(_years(_homicides(), year, start_year, end_year)))


def homicides_in_area(area_number: int, year=None, start_year=None, end_year=None) -> int:
    df = _years(_homicides(), year, start_year, end_year)
    return int((df["area"] == int(area_number)).sum())


def homicides_in_ward(ward: int, year=None, start_year=None, end_year=None) -> int:
    df = _years(_homicides(), year, start_year, end_year)
    return int((df["ward_n"] == int(ward)).sum())


def homicides_in_district(district: int, year=None, start_year=None, end_year=None) -> int:
    df = _years(_homicides(), year, start_year, end_year)
    return int((df["district_n"] == int(district)).sum())


def _area_counts(year=None, start_year=None, end_year=None) -> pd.Series:
    df = _years(_homicides(), year, start_year, end_year)
    counts = df.dropna(subset=["area"]).groupby("area").size()
    return counts.sort_values(ascending=False, kind="mergesort")


def area_with_most_homicides(year=None, start_year=None, end_year=None) -> str:
    return area_name(int(_area_counts(year, start_year, end_year).index[0]))


def most_homicides_in_an_area(year=None, start_year=None, end_year=None) -> int:
    return int(_area_counts(year, start_year, end_year).iloc[0])


def _place_counts(column: str, year=None) -> pd.Series:
    """Homicides per ward (``ward_n``) or district (``district_n``)."""
    df = _years(_homicides(), year)
    return df.dropna(subset=[column]).groupby(column).size()


def ward_with_most_homicides(year=None) -> int:
    return int(_place_counts("ward_n", year).idxmax())


def most_homicides_in_a_ward(year=None) -> int:
    return int(_place_counts("ward_n", year).max())


def arrest_rate_pct(year=None, area_number=None) -> float:
    df = _years(_homicides(), year)
    if area_number is not None:
        df = df[df["area"] == int(area_number)]
    return round(100.0 * df["arrest_b"].mean(), 1)


def domestic_homicides(year=None) -> int:
    return int(_years(_homicides(), year)["domestic_b"].sum())


def homicides_at_location(location: str, year=None) -> int:
    df = _years(_homicides(), year)
    return int((df["Location Description"].fillna("").str.upper() == location.upper()).sum())


def homicides_in_month(month: int, year=None) -> int:
    df = _years(_homicides(), year)
    months = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.month
    return int((months == int(month)).sum())


def district_yearly_average(district: int, start_year: int, end_year: int) -> float:
    total = homicides_in_district(district, start_year=start_year, end_year=end_year)
    return round(total / (int(end_year) - int(start_year) + 1), 1)


def homicide_rate_per_100k(area_number: int, year: int) -> float:
    """ACS 2019-2023 population for years from 2016, the 2010 census before."""
    count = homicides_in_area(area_number, year=year)
    if int(year) >= 2016:
        population = acs_population(area_name_upper(area_number))
    else:
        population = population_2010(area_number)
    return round(count / population * 100000, 1)


def city_homicide_rate_per_100k(year: int) -> float:
    population = int(_acs()["total_population"].sum()) if int(year) >= 2016 else int(_pop2010()["POP2010"].sum())
    return round(homicides_total(year) / population * 100000, 1)


# ---------------------------------------------------------------- socioeconomic (2008-2012)

def _socio_row(area_number: int):
    df = _socio()
    return df[pd.to_numeric(df["Community Area Number"], errors="coerce") == int(area_number)].iloc[0]


def per_capita_income(area_number: int) -> int:
    return int(_socio_row(area_number)["PER CAPITA INCOME"])


def poverty_pct(area_number: int) -> float:
    return float(_socio_row(area_number)["PERCENT HOUSEHOLDS BELOW POVERTY"])


def unemployment_pct(area_number: int) -> float:
    return float(_socio_row(area_number)["PERCENT AGED 16+ UNEMPLOYED"])


def no_diploma_pct(area_number: int) -> float:
    return float(_socio_row(area_number)["PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA"])


def hardship_index(area_number: int) -> int:
    return int(_socio_row(area_number)["HARDSHIP INDEX"])


def city_per_capita_income() -> int:
    df = _socio()
    return int(df[pd.to_numeric(df["Community Area Number"], errors="coerce").isna()]["PER CAPITA INCOME"].iloc[0])


def _socio_areas() -> pd.DataFrame:
    df = _socio()
    return df[pd.to_numeric(df["Community Area Number"], errors="coerce").notna()]


def area_with_highest(column: str) -> str:
    df = _socio_areas()
    row = df.loc[df[column].idxmax()]
    return area_name(int(row["Community Area Number"]))


def area_with_lowest(column: str) -> str:
    df = _socio_areas()
    row = df.loc[df[column].idxmin()]
    return area_name(int(row["Community Area Number"]))


def highest_value(column: str) -> float:
    return float(_socio_areas()[column].max())


def lowest_value(column: str) -> float:
    return float(_socio_areas()[column].min())


# ---------------------------------------------------------------- census

def area_name_upper(area_number: int) -> str:
    return str(_areas()[_areas()["area_number"] == int(area_number)].iloc[0]["community"])


def acs_population(area_name: str) -> int:
    df = _acs()
    row = df[df["community_area"].str.upper() == str(area_name).upper()].iloc[0]
    return int(row["total_population"])


def acs_population_total() -> int:
    return int(_acs()["total_population"].sum())


def acs_group(area_name: str, column: str) -> int:
    df = _acs()
    return int(df[df["community_area"].str.upper() == str(area_name).upper()].iloc[0][column])


def most_populous_area() -> str:
    df = _acs()
    return str(df.loc[df["total_population"].idxmax(), "community_area"]).title()


def population_2010(area_number: int) -> int:
    df = _pop2010()
    return int(df[df["NID"] == int(area_number)].iloc[0]["POP2010"])


# ---------------------------------------------------------------- IUCR

def iucr_description(code: str) -> str:
    df = _iucr()
    return str(df[df["IUCR"].str.strip().str.zfill(4) == str(code).zfill(4)].iloc[0]["SECONDARY DESCRIPTION"]).strip()


def area_with_highest_acs_share(column: str) -> str:
    """The community area where ``column`` is the largest share of total population (ACS 2019-2023)."""
    df = _acs()
    share = df[column].astype(float) / df["total_population"].astype(float)
    return str(df.loc[share.idxmax(), "community_area"]).title()


def homicides_filtered(area_number=None, domestic=None, location=None, start_year=None, end_year=None) -> int:
    """A count with the filters a user names: area, domestic flag, location description."""
    df = _years(_homicides(), None, start_year, end_year)
    if area_number is not None:
        df = df[df["area"] == int(area_number)]
    if domestic is not None:
        df = df[df["domestic_b"] == bool(domestic)]
    if location is not None:
        df = df[df["Location Description"].fillna("").str.upper() == location.upper()]
    return int(len(df))


def acs_share_pct(area_name: str, column: str) -> float:
    """``column`` as a percent of the area's households (income bands) or residents (other columns), 1 decimal."""
    df = _acs()
    row = df[df["community_area"].str.upper() == str(area_name).upper()].iloc[0]
    bands = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
    base = sum(float(row[b]) for b in bands) if column in bands else float(row["total_population"])
    return round(float(row[column]) / base * 100, 1)


def rate_per_100k_2022(area_number: int) -> float:
    return homicide_rate_per_100k(area_number, 2022)


def deadliest_year() -> int:
    return int(_homicides().groupby("Year").size().idxmax())


def most_common_location() -> str:
    return str(_homicides()["Location Description"].value_counts().idxmax())


def area_with_biggest_increase(year1: int, year2: int) -> str:
    df = _homicides().dropna(subset=["area"])
    per_year = df.groupby(["area", "Year"]).size().unstack(fill_value=0)
    return area_name(int((per_year[year2] - per_year[year1]).idxmax()))


def homicides_in_months(year: int, months: list) -> int:
    df = _years(_homicides(), year)
    return int(df["Date"].str[0:2].astype(int).isin(months).sum())


# ---------------------------------------------------------------- added with the fresh paraphrase subset

def district_with_most_homicides(year=None) -> int:
    return int(_place_counts("district_n", year).idxmax())


def most_homicides_in_a_district(year=None) -> int:
    return int(_place_counts("district_n", year).max())


def weekday_with_most_homicides(year=None, start_year=None, end_year=None) -> str:
    """The day name (Monday ... Sunday) with the most homicides."""
    df = _years(_homicides(), year, start_year, end_year)
    days = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.day_name()
    return str(days.value_counts().idxmax())


def _zhvi_latest_period() -> int:
    return int(_zhvi().dropna(subset=["value"])["period"].max())


def _zhvi_zip_year(zip_code: str, year: int) -> float:
    df = _zhvi()
    return float(df[(df["zip"] == str(zip_code).zfill(5)) & (df["Year"] == int(year))]["value"].mean())


def zhvi_zip_value(zip_code: str, year=None) -> int:
    """Zillow home value of one ZIP: the latest month when year is left out (or is the last, partial
    year), else the mean of that year's 12 months; whole dollars."""
    df = _zhvi()
    latest = _zhvi_latest_period()
    if year is None or int(year) == latest // 100:
        row = df[(df["zip"] == str(zip_code).zfill(5)) & (df["period"] == latest)]
        return int(round(float(row["value"].iloc[0])))
    return int(round(_zhvi_zip_year(zip_code, year)))


def zhvi_zip_change_pct(zip_code: str, since_year: int) -> float:
    """Percent change of one ZIP's Zillow value from the 12-month average of since_year to the latest month."""
    df = _zhvi()
    row = df[(df["zip"] == str(zip_code).zfill(5)) & (df["period"] == _zhvi_latest_period())]
    now = float(row["value"].iloc[0])
    return round(100 * (now / _zhvi_zip_year(zip_code, since_year) - 1), 1)


def zhvi_area_value(area_number: int) -> int:
    """A community area's Zillow value for the latest month: its ZIPs' values weighted by each ZIP's share
    of the area's land (crosswalk), over the ZIPs that have a value that month; whole dollars."""
    df = _zhvi()
    latest = df[df["period"] == _zhvi_latest_period()].dropna(subset=["value"])
    xw = _zip_crosswalk()
    xw = xw[xw["area_number"] == int(area_number)].assign(zip=lambda d: d["zip"].str.zfill(5))
    joined = xw.merge(latest[["zip", "value"]], on="zip", how="inner")
    weights = joined["share_of_community_area"].astype(float)
    return int(round(float((weights * joined["value"]).sum() / weights.sum())))


# ---------------------------------------------------------------- added with the reading_heldout subset
# (written from the CSVs and PROVENANCE.md only, without reading the analyzer, planner or earlier questions)

_HOMICIDE_TIME = "%m/%d/%Y %I:%M:%S %p"


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple, set)) else [value]


def _homicides_filtered(years=None, start_year=None, end_year=None, start_date=None, end_date=None, months=None,
                        hour_from=None, hour_to=None, area=None, not_area=None, ward=None, not_wards=None,
                        district=None, not_district=None, domestic=None, arrest=None, location=None,
                        not_location=None) -> pd.DataFrame:
    """Homicide rows after the filters a question names. Dates are inclusive days (YYYY-MM-DD); hours run from
    hour_from (inclusive) to hour_to (exclusive, 24 = midnight) and wrap past midnight when hour_from > hour_to.
    An exclusion (not_area, not_wards, not_district) keeps only rows that have a place of that kind, i.e. rows
    in some other area / ward / district."""
    df = _homicides()
    when = pd.to_datetime(df["Date"], format=_HOMICIDE_TIME)
    keep = pd.Series(True, index=df.index)
    if years is not None:
        keep &= df["year"].isin([int(y) for y in _as_list(years)])
    if start_year is not None:
        keep &= df["year"] >= int(start_year)
    if end_year is not None:
        keep &= df["year"] <= int(end_year)
    if start_date is not None:
        keep &= when >= pd.Timestamp(start_date)
    if end_date is not None:
        keep &= when < pd.Timestamp(end_date) + pd.Timedelta(days=1)
    if months is not None:
        keep &= when.dt.month.isin([int(m) for m in _as_list(months)])
    if hour_from is not None and hour_to is not None:
        hour = when.dt.hour
        lo, hi = int(hour_from), int(hour_to)
        keep &= (hour >= lo) & (hour < hi) if lo < hi else (hour >= lo) | (hour < hi)
    if area is not None:
        keep &= df["area"].isin([int(a) for a in _as_list(area)])
    if not_area is not None:
        keep &= df["area"].notna() & ~df["area"].isin([int(a) for a in _as_list(not_area)])
    if ward is not None:
        keep &= df["ward_n"].isin([int(w) for w in _as_list(ward)])
    if not_wards is not None:
        keep &= df["ward_n"].notna() & ~df["ward_n"].isin([int(w) for w in _as_list(not_wards)])
    if district is not None:
        keep &= df["district_n"].isin([int(d) for d in _as_list(district)])
    if not_district is not None:
        keep &= df["district_n"].notna() & ~df["district_n"].isin([int(d) for d in _as_list(not_district)])
    if domestic is not None:
        keep &= df["domestic_b"] == bool(domestic)
    if arrest is not None:
        keep &= df["arrest_b"] == bool(arrest)
    place = df["Location Description"].fillna("").str.upper()
    if location is not None:
        keep &= place.isin([str(x).upper() for x in _as_list(location)])
    if not_location is not None:
        keep &= ~place.isin([str(x).upper() for x in _as_list(not_location)])
    return df[keep]


def homicides_where(**filters) -> int:
    """How many homicides match the filters (see ``_homicides_filtered``)."""
    return int(len(_homicides_filtered(**filters)))


def homicides_average_per_year(start_year: int, end_year: int, **filters) -> float:
    """Homicides per year over start_year..end_year (both included), one decimal."""
    total = homicides_where(start_year=start_year, end_year=end_year, **filters)
    return round(total / (int(end_year) - int(start_year) + 1), 1)


def homicides_pct_change(year1: int, year2: int, **filters) -> float:
    """Size of the percent change from year1 to year2 (no sign: answers say 'up 58%' or 'down 10.8%'), one decimal."""
    before = homicides_where(years=[year1], **filters)
    after = homicides_where(years=[year2], **filters)
    return round(abs(100.0 * (after - before) / before), 1)


def last_homicide_date() -> pd.Timestamp:
    return pd.to_datetime(_homicides()["Date"], format=_HOMICIDE_TIME).max()


def homicides_year_to_date(previous: bool = False, **filters) -> int:
    """From 1 January of the data's last (partial) year to its last date; previous=True: the same stretch of the
    year before (through the same month and day)."""
    last = last_homicide_date()
    year = last.year - (1 if previous else 0)
    end = pd.Timestamp(year=year, month=last.month, day=last.day)
    return homicides_where(start_date=f"{year}-01-01", end_date=end.strftime("%Y-%m-%d"), **filters)


def _place_universe(kind: str) -> list:
    if kind == "ward":
        return list(range(1, 51))
    if kind == "area":
        return [int(a) for a in _areas()["area_number"]]
    if kind == "district":
        stations = pd.read_csv(data_dir() / "police_stations.csv", dtype=str)
        return sorted(int(d) for d in stations["DISTRICT"] if str(d).strip().isdigit())
    raise ValueError(kind)


def _counts_with_zeros(kind: str, year: int) -> pd.Series:
    column = {"ward": "ward_n", "area": "area", "district": "district_n"}[kind]
    df = _years(_homicides(), year)
    counts = df.dropna(subset=[column]).groupby(column).size()
    counts.index = counts.index.astype(int)
    return counts.reindex(_place_universe(kind), fill_value=0)


def fewest_places(kind: str, year: int, i: int = 0):
    """The i-th (in number order) of the places tied for the fewest homicides in a year, places with none
    included: a ward or district number, or a community area name."""
    counts = _counts_with_zeros(kind, year)
    tied = sorted(counts[counts == counts.min()].index)
    return area_name(tied[i]) if kind == "area" else int(tied[i])


def fewest_count(kind: str, year: int) -> int:
    return int(_counts_with_zeros(kind, year).min())


def fewest_place_ignoring_zeros(kind: str, year: int):
    """Stand-in: the first place with the fewest homicides among places that had any (a group-by that forgets
    the places with none gives this)."""
    counts = _counts_with_zeros(kind, year)
    counts = counts[counts > 0]
    first = sorted(counts[counts == counts.min()].index)[0]
    return area_name(first) if kind == "area" else int(first)


def fewest_among_areas(areas: list, year: int, i: int = 0) -> str:
    """The i-th of the named community areas tied for the fewest homicides in a year."""
    counts = _counts_with_zeros("area", year).reindex([int(a) for a in areas])
    return area_name(sorted(counts[counts == counts.min()].index)[i])


def zhvi_zip_month(zip_code: str, year: int, month: int) -> int:
    """Zillow home value of one ZIP in one month, whole dollars."""
    df = _zhvi()
    row = df[(df["zip"] == str(zip_code).zfill(5)) & (df["period"] == int(year) * 100 + int(month))]
    return int(round(float(row["value"].iloc[0])))


def zhvi_latest_month() -> str:
    """The last month of the Zillow file as 'YYYY-MM'."""
    latest = _zhvi_latest_period()
    return f"{latest // 100}-{latest % 100:02d}"


@functools.lru_cache(maxsize=1)
def _ihs_long() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_ihs_price_index_long.csv")


@functools.lru_cache(maxsize=1)
def _ihs_summary() -> pd.DataFrame:
    return pd.read_csv(data_dir() / "property_ihs_price_index_summary_2025q4.csv", dtype=str)


def ihs_index(submarket_code: str, yearq=None) -> float:
    """The IHS index (2000Q1 = 100) of a submarket code (p31xx, CHICAGO, COOK, SUBURBS) in a quarter such as
    '2008Q3'; the latest quarter when yearq is left out."""
    df = _ihs_long()
    df = df[df["submarket_code"] == submarket_code]
    if yearq is None:
        yearq = df["yearq"].max()
    return float(df[df["yearq"] == yearq]["index_2000q1_100"].iloc[0])


def ihs_summary_value(submarket_code: str, column: str):
    """A value of the IHS 2025 Q4 summary table: percentages as floats (131.0), the median sales price as int."""
    df = _ihs_summary()
    raw = str(df[df["Number"] == submarket_code].iloc[0][column]).strip()
    cleaned = raw.replace("$", "").replace(",", "").replace("%", "").strip()
    return int(float(cleaned)) if raw.startswith("$") else float(cleaned)


def city_poverty_pct() -> float:
    df = _socio()
    return float(df[pd.to_numeric(df["Community Area Number"], errors="coerce").isna()]
                 ["PERCENT HOUSEHOLDS BELOW POVERTY"].iloc[0])


# ---------------------------------------------------------------- added with the own_calls_heldout subset
# (written from the CSVs, the tool schemas and PROVENANCE.md only, without reading the analyzer, planner or
# earlier questions)

def arrest_rate_where(**filters) -> float:
    """Percent of the homicides matching the filters (see ``_homicides_filtered``) with an arrest, one decimal."""
    df = _homicides_filtered(**filters)
    return round(100.0 * float(df["arrest_b"].mean()), 1)


def _arrest_rates_by_place(kind: str, year: int, min_cases: int = 5) -> pd.DataFrame:
    """Per ward / district / area: homicides, arrests and arrest rate (percent, one decimal) in one year, places
    with fewer than min_cases homicides left out; highest rate first, ties by place number."""
    column = {"ward": "ward_n", "area": "area", "district": "district_n"}[kind]
    df = _years(_homicides(), year).dropna(subset=[column])
    table = df.groupby(column).agg(homicides=("arrest_b", "size"), arrests=("arrest_b", "sum"))
    table = table[table["homicides"] >= int(min_cases)]
    table["rate"] = (100.0 * table["arrests"] / table["homicides"]).round(1)
    table.index = table.index.astype(int)
    return table.sort_index().sort_values("rate", ascending=False, kind="mergesort")


def place_with_highest_arrest_rate(kind: str, year: int, min_cases: int = 5):
    """The ward or district number (or area name) with the highest homicide arrest rate in a year, among places
    with at least min_cases homicides."""
    first = int(_arrest_rates_by_place(kind, year, min_cases).index[0])
    return area_name(first) if kind == "area" else first


def highest_arrest_rate(kind: str, year: int, min_cases: int = 5) -> float:
    return float(_arrest_rates_by_place(kind, year, min_cases)["rate"].iloc[0])


def area_with_most_homicides_where(**filters) -> str:
    """The community area (socioeconomic-file spelling) with the most homicides matching the filters."""
    counts = _homicides_filtered(**filters).dropna(subset=["area"]).groupby("area").size()
    return area_name(int(counts.sort_values(ascending=False, kind="mergesort").index[0]))


def most_homicides_in_an_area_where(**filters) -> int:
    counts = _homicides_filtered(**filters).dropna(subset=["area"]).groupby("area").size()
    return int(counts.max())


def location_with_most_homicides_where(**filters) -> str:
    """The location description (as written in the file, e.g. 'STREET') with the most homicides matching the
    filters."""
    return str(_homicides_filtered(**filters)["Location Description"].value_counts().idxmax())


def most_homicides_at_a_location_where(**filters) -> int:
    return int(_homicides_filtered(**filters)["Location Description"].value_counts().max())


def acs_age_band_total(area_name: str, band: str) -> int:
    """Residents of one age band (column suffix: '0_to_17', '18_to_24', '25_to_34', '35_to_49', '50_to_64', '65'),
    men and women added, ACS 2019-2023."""
    return acs_group(area_name, f"male_{band}") + acs_group(area_name, f"female_{band}")


def station_address(district: int) -> str:
    """The street address of a police district's station, as written in police_stations.csv."""
    stations = pd.read_csv(data_dir() / "police_stations.csv", dtype=str)
    row = stations[stations["DISTRICT"].str.strip() == str(int(district))].iloc[0]
    return " ".join(str(row["ADDRESS"]).split())


def place_with_lowest_arrest_rate(kind: str, year: int, min_cases: int = 5):
    """The ward or district number (or area name) with the lowest homicide arrest rate in a year, among places
    with at least min_cases homicides (ties: the lowest number)."""
    table = _arrest_rates_by_place(kind, year, min_cases)
    last = int(table[table["rate"] == table["rate"].min()].index.min())
    return area_name(last) if kind == "area" else last


def lowest_arrest_rate(kind: str, year: int, min_cases: int = 5) -> float:
    return float(_arrest_rates_by_place(kind, year, min_cases)["rate"].min())


def most_homicides_on_a_weekday(year=None, start_year=None, end_year=None) -> int:
    """How many homicides fell on the deadliest day of the week (see ``weekday_with_most_homicides``)."""
    df = _years(_homicides(), year, start_year, end_year)
    days = pd.to_datetime(df["Date"], format=_HOMICIDE_TIME).dt.day_name()
    return int(days.value_counts().max())


# ---------------------------------------------------------------- added with the model_calls_heldout subset
# (written from the CSVs, the tool schemas and PROVENANCE.md only, without reading the analyzer, the rules, the
# loop or earlier questions)

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _figure(spec):
    """A plain number, or [function_name, {kwargs}] naming another function of this module (called here)."""
    if isinstance(spec, (int, float)) and not isinstance(spec, bool):
        return spec
    name, kwargs = spec
    return globals()[name](**(kwargs or {}))


def difference(first, second, absolute: bool = True):
    """first minus second (each a number or [function_name, {kwargs}]); its size when absolute (answers say
    '28 more' or 'a gap of 28'). Whole numbers stay whole; otherwise one decimal."""
    value = _figure(first) - _figure(second)
    value = abs(value) if absolute else value
    return int(value) if float(value).is_integer() else round(float(value), 1)


def ratio(numerator, denominator, digits: int = 1) -> float:
    """numerator / denominator (each a number or [function_name, {kwargs}]), rounded: 'how many times larger',
    or a count divided by 12 months / 365 days."""
    return round(float(_figure(numerator)) / float(_figure(denominator)), int(digits))


def percent(part, whole, digits: int = 1) -> float:
    """part as a percent of whole (each a number or [function_name, {kwargs}]), rounded."""
    return round(100.0 * float(_figure(part)) / float(_figure(whole)), int(digits))


def homicides_on_weekdays(days, **filters) -> int:
    """Homicides matching the filters (see ``_homicides_filtered``) that fell on the named days of the week
    ('Saturday', 'Sunday', ...), by the date and time of the incident as recorded."""
    df = _homicides_filtered(**filters)
    names = pd.to_datetime(df["Date"], format=_HOMICIDE_TIME).dt.day_name()
    wanted = [str(d).strip().title() for d in _as_list(days)]
    unknown = set(wanted) - set(_WEEKDAYS)
    if unknown:
        raise ValueError(f"not day names: {sorted(unknown)}")
    return int(names.isin(wanted).sum())


def _ranked_places(kind: str, ascending: bool = False, **filters) -> pd.Series:
    """Homicides per ward / district / community area matching the filters, places with none left out; most
    first (or fewest first when ascending), ties by place number."""
    column = {"ward": "ward_n", "area": "area", "district": "district_n"}[kind]
    counts = _homicides_filtered(**filters).dropna(subset=[column]).groupby(column).size()
    counts.index = counts.index.astype(int)
    return counts.sort_index().sort_values(ascending=bool(ascending), kind="mergesort")


def place_ranked(kind: str, rank: int = 1, ascending: bool = False, **filters):
    """The place at 1-based ``rank`` by homicides matching the filters: a ward or district number, or a community
    area name (socioeconomic-file spelling). Raises when the place ties with a neighbour at that rank."""
    counts = _ranked_places(kind, ascending, **filters)
    i = int(rank) - 1
    value = counts.iloc[i]
    if (i > 0 and counts.iloc[i - 1] == value) or (i + 1 < len(counts) and counts.iloc[i + 1] == value):
        raise ValueError(f"rank {rank} of {kind} is tied at {value}")
    place = int(counts.index[i])
    return area_name(place) if kind == "area" else place


def place_ranked_count(kind: str, rank: int = 1, ascending: bool = False, **filters) -> int:
    """How many homicides the place at ``rank`` had (see ``place_ranked``)."""
    return int(_ranked_places(kind, ascending, **filters).iloc[int(rank) - 1])


def _socio_ranked(column: str, ascending: bool = False) -> pd.DataFrame:
    df = _socio_areas().copy()
    df["n"] = pd.to_numeric(df["Community Area Number"]).astype(int)
    return df.sort_values("n").sort_values(column, ascending=bool(ascending), kind="mergesort")


def socio_area_ranked(column: str, rank: int = 1, ascending: bool = False) -> str:
    """The community area at 1-based ``rank`` on a socioeconomic.csv column (stripped name, e.g.
    'PERCENT HOUSEHOLDS BELOW POVERTY'); raises on a tie at that rank."""
    df = _socio_ranked(column, ascending)
    i = int(rank) - 1
    values = df[column].tolist()
    if (i > 0 and values[i - 1] == values[i]) or (i + 1 < len(values) and values[i + 1] == values[i]):
        raise ValueError(f"rank {rank} on {column} is tied at {values[i]}")
    return area_name(int(df["n"].iloc[i]))


def socio_ranked_value(column: str, rank: int = 1, ascending: bool = False) -> float:
    return float(_socio_ranked(column, ascending)[column].iloc[int(rank) - 1])


def _area_rates(year: int) -> pd.Series:
    """Homicides per 100,000 residents for every community area in a year (see ``homicide_rate_per_100k``),
    highest first, ties by area number."""
    rates = pd.Series({int(a): homicide_rate_per_100k(int(a), year) for a in _areas()["area_number"]})
    return rates.sort_index().sort_values(ascending=False, kind="mergesort")


def area_rate_ranked(year: int, rank: int = 1) -> str:
    """The community area with the ``rank``-th highest homicide rate per 100,000 in a year."""
    rates = _area_rates(year)
    i = int(rank) - 1
    if (i > 0 and rates.iloc[i - 1] == rates.iloc[i]) or rates.iloc[i + 1] == rates.iloc[i]:
        raise ValueError(f"rank {rank} is tied at {rates.iloc[i]}")
    return area_name(int(rates.index[i]))


def area_rate_ranked_value(year: int, rank: int = 1) -> float:
    return float(_area_rates(year).iloc[int(rank) - 1])


def station_street_number(district: int) -> int:
    """The house number of a police district station's address (1438 for '1438 W 63rd St'), so an answer that
    writes the street as 'W. 63rd Street' still counts."""
    return int(station_address(district).split()[0])


def zhvi_zip_ranked(year: int, month: int, rank: int = 1, ascending: bool = False) -> str:
    """The ZIP at 1-based ``rank`` by Zillow home value in one month (highest first unless ascending), among the
    ZIPs with a value that month."""
    df = _zhvi()
    month_rows = df[df["period"] == int(year) * 100 + int(month)].dropna(subset=["value"])
    ordered = month_rows.sort_values("value", ascending=bool(ascending), kind="mergesort")
    return str(ordered["zip"].iloc[int(rank) - 1])


# ---- added with the fresh_blind_heldout subset (session 7, written blind)

def month_with_most_homicides(**filters) -> str:
    """The calendar month name ('January' ... 'December') with the most homicides matching the filters (see
    ``_homicides_filtered``), by the incident date; raises when two months tie for the most."""
    df = _homicides_filtered(**filters)
    counts = pd.to_datetime(df["Date"], format=_HOMICIDE_TIME).dt.month.value_counts()
    if len(counts) > 1 and counts.iloc[0] == counts.iloc[1]:
        raise ValueError(f"months tie for the most at {counts.iloc[0]}")
    return pd.Timestamp(year=2000, month=int(counts.index[0]), day=1).month_name()


# ---- added with the blind5_heldout subset (session 8, written blind: from the CSVs and PROVENANCE.md only)

def _socio_area_numbers(column: str, above=None, below=None) -> list:
    """Community area numbers whose socioeconomic.csv ``column`` is strictly above ``above`` and/or strictly
    below ``below`` (the CHICAGO total row left out)."""
    df = _socio_areas()
    keep = pd.Series(True, index=df.index)
    if above is not None:
        keep &= df[column].astype(float) > float(above)
    if below is not None:
        keep &= df[column].astype(float) < float(below)
    return [int(n) for n in pd.to_numeric(df[keep]["Community Area Number"])]


def socio_count_areas(column: str, above=None, below=None) -> int:
    """How many of the 77 community areas have ``column`` strictly above / below the given values (2008-2012)."""
    return len(_socio_area_numbers(column, above, below))


def homicides_in_socio_areas(column: str, above=None, below=None, **filters) -> int:
    """Homicides matching the filters (see ``_homicides_filtered``) in the community areas whose socioeconomic
    ``column`` is strictly above / below the given values."""
    return homicides_where(area=_socio_area_numbers(column, above, below), **filters)


def acs_column_total(column: str) -> int:
    """A census_acs.csv column added over the 77 community areas (the city figure, ACS 2019-2023)."""
    return int(round(float(_acs()[column].astype(float).sum())))


def acs_age_band_city_total(band: str) -> int:
    """Residents of one age band (see ``acs_age_band_total``), men and women, over all 77 areas."""
    return acs_column_total(f"male_{band}") + acs_column_total(f"female_{band}")


def year_ranked(rank: int = 1, ascending: bool = False, start_year=None, end_year=None) -> int:
    """The calendar year at 1-based ``rank`` by homicide count (most first unless ascending) among the years
    start_year..end_year (all years by default); raises on a tie at that rank."""
    df = _years(_homicides(), None, start_year, end_year)
    counts = df.groupby("year").size().sort_index().sort_values(ascending=bool(ascending), kind="mergesort")
    i = int(rank) - 1
    values = counts.tolist()
    if (i > 0 and values[i - 1] == values[i]) or (i + 1 < len(values) and values[i + 1] == values[i]):
        raise ValueError(f"rank {rank} is tied at {values[i]}")
    return int(counts.index[i])


def homicides_on_month_day(month: int, day: int, **filters) -> int:
    """Homicides matching the filters whose incident date falls on one calendar day (e.g. 12, 25), any year."""
    df = _homicides_filtered(**filters)
    when = pd.to_datetime(df["Date"], format=_HOMICIDE_TIME)
    return int(((when.dt.month == int(month)) & (when.dt.day == int(day))).sum())


def zhvi_zip_pct_change_months(zip_code: str, year1: int, month1: int, year2: int, month2: int) -> float:
    """Size of the percent change of one ZIP's Zillow value from one month to another (no sign), one decimal."""
    before = zhvi_zip_month(zip_code, year1, month1)
    after = zhvi_zip_month(zip_code, year2, month2)
    return round(abs(100.0 * (after - before) / before), 1)


def police_district_station_count() -> int:
    """District police stations in police_stations.csv (rows with a district number; Headquarters left out)."""
    stations = pd.read_csv(data_dir() / "police_stations.csv", dtype=str)
    return int(stations["DISTRICT"].str.strip().str.isdigit().sum())


def police_station_rows() -> int:
    """Stand-in: every row of police_stations.csv, Headquarters included."""
    return int(len(pd.read_csv(data_dir() / "police_stations.csv", dtype=str)))


def city_socio_value(column: str) -> float:
    """The CHICAGO (city total) row of a socioeconomic.csv column (stripped name), 2008-2012."""
    df = _socio()
    return float(df[pd.to_numeric(df["Community Area Number"], errors="coerce").isna()][column].iloc[0])


# ---- blind6_heldout (2026-11-26)
# (written blind: from the CSVs, PROVENANCE.md, the tool schemas and this module only, without reading the analyzer,
# the rules, the loop, the tools or earlier questions)

def _homicides_b6(weekdays=None, month_days=None, **filters) -> pd.DataFrame:
    """Rows matching the filters of ``_homicides_filtered``, further kept to the named days of the week
    ('Monday' ... 'Sunday') and / or calendar days written 'MM-DD' (any year), by the incident date and time."""
    df = _homicides_filtered(**filters)
    when = pd.to_datetime(df["Date"], format=_HOMICIDE_TIME)
    keep = pd.Series(True, index=df.index)
    if weekdays is not None:
        wanted = [str(d).strip().title() for d in _as_list(weekdays)]
        unknown = set(wanted) - set(_WEEKDAYS)
        if unknown:
            raise ValueError(f"not day names: {sorted(unknown)}")
        keep &= when.dt.day_name().isin(wanted)
    if month_days is not None:
        keep &= when.dt.strftime("%m-%d").isin([str(d) for d in _as_list(month_days)])
    return df[keep]


def homicides_b6(weekdays=None, month_days=None, **filters) -> int:
    """How many homicides match the filters, days of the week and calendar days (see ``_homicides_b6``)."""
    return int(len(_homicides_b6(weekdays, month_days, **filters)))


def arrest_rate_b6(weekdays=None, month_days=None, **filters) -> float:
    """Percent of the matching homicides (see ``_homicides_b6``) with an arrest, one decimal."""
    return round(100.0 * float(_homicides_b6(weekdays, month_days, **filters)["arrest_b"].mean()), 1)


def _tie_check(values: list, i: int, what: str) -> None:
    if (i > 0 and values[i - 1] == values[i]) or (i + 1 < len(values) and values[i + 1] == values[i]):
        raise ValueError(f"rank {i + 1} of {what} is tied at {values[i]}")


def _arrest_table_b6(kind: str, min_cases: int = 1, weekdays=None, month_days=None, **filters) -> pd.DataFrame:
    """Per ward / district / area: homicides, arrests and arrest rate (percent, unrounded) over the matching rows,
    places with fewer than min_cases homicides left out; ordered by place number."""
    column = {"ward": "ward_n", "area": "area", "district": "district_n"}[kind]
    df = _homicides_b6(weekdays, month_days, **filters).dropna(subset=[column])
    table = df.groupby(column).agg(homicides=("arrest_b", "size"), arrests=("arrest_b", "sum"))
    table = table[table["homicides"] >= int(min_cases)].copy()
    table["rate"] = 100.0 * table["arrests"] / table["homicides"]
    table.index = table.index.astype(int)
    return table.sort_index()


def place_arrest_rate_ranked(kind: str, rank: int = 1, ascending: bool = False, min_cases: int = 1,
                             weekdays=None, month_days=None, **filters):
    """The ward / district number (or area name) at 1-based ``rank`` by arrest rate over the matching homicides
    (highest first unless ascending), among places with at least min_cases of them; raises on a tie (at one
    decimal) at that rank."""
    table = _arrest_table_b6(kind, min_cases, weekdays, month_days, **filters)
    table = table.sort_values("rate", ascending=bool(ascending), kind="mergesort")
    i = int(rank) - 1
    _tie_check(table["rate"].round(1).tolist(), i, kind)
    place = int(table.index[i])
    return area_name(place) if kind == "area" else place


def place_arrest_rate_ranked_value(kind: str, rank: int = 1, ascending: bool = False, min_cases: int = 1,
                                   weekdays=None, month_days=None, **filters) -> float:
    """The arrest rate (percent, one decimal) of the place at ``rank`` (see ``place_arrest_rate_ranked``)."""
    table = _arrest_table_b6(kind, min_cases, weekdays, month_days, **filters)
    table = table.sort_values("rate", ascending=bool(ascending), kind="mergesort")
    return round(float(table["rate"].iloc[int(rank) - 1]), 1)


def _time_unit_counts(unit: str, ascending: bool, weekdays=None, month_days=None, **filters) -> pd.Series:
    df = _homicides_b6(weekdays, month_days, **filters)
    when = pd.to_datetime(df["Date"], format=_HOMICIDE_TIME)
    key = {"hour": when.dt.hour, "month": when.dt.month, "weekday": when.dt.day_of_week, "year": df["year"]}[unit]
    full = {"hour": range(24), "month": range(1, 13), "weekday": range(7)}.get(unit)
    counts = key.value_counts()
    if full is not None:
        counts = counts.reindex(list(full), fill_value=0)
    return counts.sort_index().sort_values(ascending=bool(ascending), kind="mergesort")


def time_unit_ranked(unit: str, rank: int = 1, ascending: bool = False, weekdays=None, month_days=None, **filters):
    """The hour of day (0-23), month name, weekday name or year at 1-based ``rank`` by matching homicides (most
    first unless ascending); hours / months / weekdays with none count as 0; raises on a tie at that rank."""
    counts = _time_unit_counts(unit, ascending, weekdays, month_days, **filters)
    i = int(rank) - 1
    _tie_check(counts.tolist(), i, unit)
    key = int(counts.index[i])
    if unit == "month":
        return pd.Timestamp(year=2000, month=key, day=1).month_name()
    if unit == "weekday":
        return _WEEKDAYS[key]
    return key


def time_unit_ranked_count(unit: str, rank: int = 1, ascending: bool = False, weekdays=None, month_days=None,
                           **filters) -> int:
    """How many homicides the hour / month / weekday / year at ``rank`` had (see ``time_unit_ranked``)."""
    return int(_time_unit_counts(unit, ascending, weekdays, month_days, **filters).iloc[int(rank) - 1])


def location_ranked(rank: int = 1, weekdays=None, month_days=None, **filters) -> str:
    """The location description (as in the file) at 1-based ``rank`` by matching homicides; raises on a tie."""
    counts = _homicides_b6(weekdays, month_days, **filters)["Location Description"].value_counts()
    i = int(rank) - 1
    _tie_check(counts.tolist(), i, "location")
    return str(counts.index[i])


def location_ranked_count(rank: int = 1, weekdays=None, month_days=None, **filters) -> int:
    counts = _homicides_b6(weekdays, month_days, **filters)["Location Description"].value_counts()
    return int(counts.iloc[int(rank) - 1])


def _socio_ranked_number(column: str, rank: int = 1, ascending: bool = False) -> int:
    df = _socio_ranked(column, ascending)
    i = int(rank) - 1
    _tie_check(df[column].tolist(), i, column)
    return int(df["n"].iloc[i])


def homicides_in_socio_ranked_area(column: str, rank: int = 1, ascending: bool = False, **filters) -> int:
    """Homicides matching the filters in the community area at ``rank`` on a socioeconomic column (see
    ``socio_area_ranked``)."""
    return homicides_where(area=_socio_ranked_number(column, rank, ascending), **filters)


def _acs_ranked_number(column: str = "total_population", rank: int = 1, ascending: bool = False) -> int:
    df = _acs().copy()
    names = _areas().set_index("community")["area_number"]
    df["n"] = df["community_area"].str.upper().map(names).astype(int)
    df = df.sort_values("n").sort_values(column, ascending=bool(ascending), kind="mergesort")
    i = int(rank) - 1
    _tie_check(df[column].tolist(), i, column)
    return int(df["n"].iloc[i])


def acs_area_ranked(column: str = "total_population", rank: int = 1, ascending: bool = False) -> str:
    """The community area (socioeconomic-file spelling) at ``rank`` on a census_acs.csv column (ACS 2019-2023)."""
    return area_name(_acs_ranked_number(column, rank, ascending))


def homicide_rate_of_acs_ranked_area(year: int, column: str = "total_population", rank: int = 1,
                                     ascending: bool = False) -> float:
    """The homicide rate per 100,000 in a year (see ``homicide_rate_per_100k``) of the area at ``rank`` on an ACS
    column."""
    return homicide_rate_per_100k(_acs_ranked_number(column, rank, ascending), year)


def zhvi_zip_ranked_value(year: int, month: int, rank: int = 1, ascending: bool = False) -> int:
    """The Zillow value (whole dollars) of the ZIP at ``rank`` in one month (see ``zhvi_zip_ranked``)."""
    return zhvi_zip_month(zhvi_zip_ranked(year, month, rank, ascending), year, month)


def zhvi_ranked_zip_pct_change(year: int, month: int, rank: int, ascending: bool, year1: int, month1: int) -> float:
    """Size of the percent change of the ZIP at ``rank`` (in year-month) from year1-month1 to year-month."""
    return zhvi_zip_pct_change_months(zhvi_zip_ranked(year, month, rank, ascending), year1, month1, year, month)


def homicides_pct_change_periods(period1_start: int, period1_end: int, period2_start: int, period2_end: int,
                                 **filters) -> float:
    """Size of the percent change (no sign) from period 1's yearly average to period 2's, one decimal."""
    before = homicides_where(start_year=period1_start, end_year=period1_end, **filters) / (period1_end - period1_start + 1)
    after = homicides_where(start_year=period2_start, end_year=period2_end, **filters) / (period2_end - period2_start + 1)
    return round(abs(100.0 * (after - before) / before), 1)


# ---- blind7_heldout (2026-11-26)
# (written blind: from the CSVs, PROVENANCE.md, the tool schemas and this module only, without reading the analyzer,
# the rules, the loop, the tools or earlier questions)

def acs_ranked_value(column: str = "total_population", rank: int = 1, ascending: bool = False) -> int:
    """The census_acs.csv ``column`` value (whole number) of the community area at ``rank`` (see ``acs_area_ranked``;
    raises on a tie at that rank)."""
    number = _acs_ranked_number(column, rank, ascending)
    return acs_group(area_name_upper(number), column)


def homicide_rate_per_100k_pop2010(area_number: int, year: int) -> float:
    """Stand-in: a community area's homicides per 100,000 in a year over its 2010 Census population, whatever the
    year (a reading that ignores the ACS 2019-2023 population for recent years gives this)."""
    return round(homicides_in_area(area_number, year=year) / population_2010(area_number) * 100000, 1)


# ---- blind8_heldout (2026-11-26)
# (written blind: from the CSVs, PROVENANCE.md, the tool schemas and this module only, without reading the analyzer,
# the rules, the loop, the tools or earlier questions)

def _acs_share_table(column: str) -> pd.Series:
    """census_acs.csv ``column`` as a percent (one decimal, see ``acs_share_pct``: households for the income bands,
    residents otherwise) for each community area, indexed by area number, in number order."""
    names = _areas().set_index("area_number")["community"]
    return pd.Series({int(n): acs_share_pct(str(name), column) for n, name in names.items()}).sort_index()


def acs_share_area_ranked(column: str, rank: int = 1, ascending: bool = False) -> str:
    """The community area (socioeconomic-file spelling) at 1-based ``rank`` by the share of its residents (or
    households, for the income bands) in ``column``, highest first unless ascending; raises on a tie (at one decimal)
    at that rank."""
    shares = _acs_share_table(column).sort_values(ascending=bool(ascending), kind="mergesort")
    i = int(rank) - 1
    _tie_check(shares.tolist(), i, column)
    return area_name(int(shares.index[i]))


def acs_share_ranked_value(column: str, rank: int = 1, ascending: bool = False) -> float:
    """The share (percent, one decimal) of the area at ``rank`` (see ``acs_share_area_ranked``)."""
    return float(_acs_share_table(column).sort_values(ascending=bool(ascending), kind="mergesort").iloc[int(rank) - 1])


def _rate_population(area_number: int, start_year: int, end_year: int) -> int:
    """The population behind a rate over start_year..end_year: ACS 2019-2023 from 2016 on, the 2010 Census up to
    2015 (as ``homicide_rate_per_100k``); raises for a span that crosses 2015/2016."""
    if int(start_year) >= 2016:
        return acs_population(area_name_upper(area_number))
    if int(end_year) <= 2015:
        return population_2010(area_number)
    raise ValueError("the span mixes the 2010 Census and ACS 2019-2023 populations")


def homicide_rate_avg_per_100k(area_number: int, start_year: int, end_year: int) -> float:
    """A community area's homicides per 100,000 residents per year over start_year..end_year (both included): the
    span's homicides / number of years / population * 100000, one decimal."""
    total = homicides_in_area(area_number, start_year=start_year, end_year=end_year)
    years = int(end_year) - int(start_year) + 1
    return round(total / years / _rate_population(area_number, start_year, end_year) * 100000, 1)


def homicide_rate_span_total_per_100k(area_number: int, start_year: int, end_year: int) -> float:
    """Stand-in: the span's homicides per 100,000 residents without dividing by the number of years."""
    total = homicides_in_area(area_number, start_year=start_year, end_year=end_year)
    return round(total / _rate_population(area_number, start_year, end_year) * 100000, 1)


def station_phone_local(district: int) -> str:
    """The last seven digits of a district station's phone number as written in police_stations.csv ('744-8250' for
    '312-744-8250'), so '(312) 744-8250' also counts."""
    stations = pd.read_csv(data_dir() / "police_stations.csv", dtype=str)
    row = stations[stations["DISTRICT"].str.strip() == str(int(district))].iloc[0]
    return str(row["PHONE"]).strip()[-8:]


def socio_value(area_number: int, column: str) -> float:
    """One community area's socioeconomic.csv ``column`` (stripped name), 2008-2012."""
    return float(_socio_row(area_number)[column])


# ---- blind9_heldout (2026-11-26)
# (written blind: from the CSVs, PROVENANCE.md, the tool schemas and this module only, without reading the analyzer,
# the rules, the loop, the tools or earlier questions)

def homicides_nights(night_weekdays, hour_from: int, hour_to: int, **filters) -> int:
    """Homicides on the nights that begin on the named days ('Monday' ... 'Sunday'): incident hour >= hour_from on
    one of those days, or hour < hour_to on the day after one of them (so 1 am Tuesday counts with Monday night).
    Other filters (see ``_homicides_filtered``) apply to the incident date as recorded. hour_from must be after
    hour_to (a run that wraps past midnight)."""
    if not int(hour_from) > int(hour_to):
        raise ValueError("a night runs past midnight: hour_from must be later than hour_to")
    wanted = [str(d).strip().title() for d in _as_list(night_weekdays)]
    unknown = set(wanted) - set(_WEEKDAYS)
    if unknown:
        raise ValueError(f"not day names: {sorted(unknown)}")
    starts = [_WEEKDAYS.index(d) for d in wanted]
    mornings = [(d + 1) % 7 for d in starts]
    df = _homicides_filtered(**filters)
    when = pd.to_datetime(df["Date"], format=_HOMICIDE_TIME)
    day, hour = when.dt.day_of_week, when.dt.hour
    keep = (day.isin(starts) & (hour >= int(hour_from))) | (day.isin(mornings) & (hour < int(hour_to)))
    return int(keep.sum())


def _acs_age_share_table(band: str) -> pd.Series:
    """Residents of one age band (see ``acs_age_band_total``: men and women added) as a percent of the area's
    total_population, one decimal, per community area number, in number order."""
    names = _areas().set_index("area_number")["community"]
    out = {}
    for n, name in names.items():
        people = acs_age_band_total(str(name), band)
        out[int(n)] = round(100.0 * people / acs_population(str(name)), 1)
    return pd.Series(out).sort_index()


def acs_age_share_area_ranked(band: str, rank: int = 1, ascending: bool = False) -> str:
    """The community area (socioeconomic-file spelling) at 1-based ``rank`` by the share of its residents in an age
    band ('0_to_17', '18_to_24', '25_to_34', '35_to_49', '50_to_64', '65'), highest first unless ascending; raises
    on a tie (at one decimal) at that rank."""
    shares = _acs_age_share_table(band).sort_values(ascending=bool(ascending), kind="mergesort")
    i = int(rank) - 1
    _tie_check(shares.tolist(), i, band)
    return area_name(int(shares.index[i]))


def acs_age_share_ranked_value(band: str, rank: int = 1, ascending: bool = False) -> float:
    """The age-band share (percent, one decimal) of the area at ``rank`` (see ``acs_age_share_area_ranked``)."""
    return float(_acs_age_share_table(band).sort_values(ascending=bool(ascending), kind="mergesort").iloc[int(rank) - 1])


def acs_age_count_area_ranked(band: str, rank: int = 1, ascending: bool = False) -> str:
    """Stand-in: the community area at ``rank`` by the NUMBER of residents in an age band (not their share)."""
    names = _areas().set_index("area_number")["community"]
    counts = pd.Series({int(n): acs_age_band_total(str(name), band) for n, name in names.items()}).sort_index()
    counts = counts.sort_values(ascending=bool(ascending), kind="mergesort")
    i = int(rank) - 1
    _tie_check(counts.tolist(), i, band)
    return area_name(int(counts.index[i]))


# ---- blind10_heldout (2026-11-26)
# (written blind: from the CSVs, PROVENANCE.md, the tool schemas and this module only, without reading the analyzer,
# the rules, the loop, the tools or earlier questions)

def b10_homicides_on_dates(dates, **filters) -> int:
    """Homicides matching the filters (see ``_homicides_filtered``) whose incident date is one of the listed days
    ('YYYY-MM-DD'); for holidays whose date moves each year (Thanksgiving, Memorial Day, Mother's Day, Labor Day),
    the question's comment lists the exact days."""
    df = _homicides_filtered(**filters)
    days = pd.to_datetime(df["Date"], format=_HOMICIDE_TIME).dt.strftime("%Y-%m-%d")
    wanted = [str(pd.Timestamp(d).date()) for d in _as_list(dates)]
    return int(days.isin(wanted).sum())


def b10_homicides_average_over_years(years, **filters) -> float:
    """Homicides per year over a LIST of years (not a range): the listed years' total / how many years, one
    decimal."""
    listed = sorted({int(y) for y in _as_list(years)})
    return round(homicides_where(years=listed, **filters) / len(listed), 1)


def _b10_zhvi_month_excluding(year: int, month: int, exclude, ascending: bool) -> pd.DataFrame:
    df = _zhvi()
    rows = df[df["period"] == int(year) * 100 + int(month)].dropna(subset=["value"])
    rows = rows[~rows["zip"].isin([str(z).zfill(5) for z in _as_list(exclude)])]
    return rows.sort_values("value", ascending=bool(ascending), kind="mergesort")


def b10_zhvi_zip_ranked_excluding(year: int, month: int, exclude, rank: int = 1, ascending: bool = False) -> str:
    """The ZIP at 1-based ``rank`` by Zillow value in one month once the listed ZIPs are left out."""
    return str(_b10_zhvi_month_excluding(year, month, exclude, ascending)["zip"].iloc[int(rank) - 1])


def b10_zhvi_zip_ranked_excluding_value(year: int, month: int, exclude, rank: int = 1, ascending: bool = False) -> int:
    """The Zillow value (whole dollars) of that ZIP (see ``b10_zhvi_zip_ranked_excluding``)."""
    return int(round(float(_b10_zhvi_month_excluding(year, month, exclude, ascending)["value"].iloc[int(rank) - 1])))


def _b10_pop2010_ranked(ascending: bool = False) -> pd.DataFrame:
    df = _pop2010().sort_values("NID")
    return df.sort_values("POP2010", ascending=bool(ascending), kind="mergesort")


def b10_pop2010_area_ranked(rank: int = 1, ascending: bool = False) -> str:
    """The community area (socioeconomic-file spelling) at 1-based ``rank`` by 2010 Census population; raises on a
    tie at that rank."""
    df = _b10_pop2010_ranked(ascending)
    i = int(rank) - 1
    _tie_check(df["POP2010"].tolist(), i, "POP2010")
    return area_name(int(df["NID"].iloc[i]))


def b10_pop2010_ranked_value(rank: int = 1, ascending: bool = False) -> int:
    return int(_b10_pop2010_ranked(ascending)["POP2010"].iloc[int(rank) - 1])


@functools.lru_cache(maxsize=2)
def _b10_redfin_at(folder: str) -> pd.DataFrame:
    return pd.read_csv(Path(folder) / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")


def _b10_redfin() -> pd.DataFrame:
    """The Redfin file of the configured data folder (cached per folder, so ``set_data_dir`` needs no change)."""
    return _b10_redfin_at(str(data_dir()))


def b10_redfin_value(neighborhood: str, period_end: str, column: str):
    """One Redfin neighborhood row ('Chicago, IL - <neighborhood>', the window ending period_end 'M/D/YYYY' as in the
    file). 'Median Sale Price' is a display string such as '$427K': returned as its digits ('427'), so '$427K' and
    '$427,000' both count; other columns as whole numbers when whole, else one decimal."""
    df = _b10_redfin()
    row = df[(df["Region"] == f"Chicago, IL - {neighborhood}") & (df["Period End"] == period_end)].iloc[0]
    value = row[column]
    if column == "Median Sale Price":
        return str(value).strip().lstrip("$").rstrip("Kk").strip()
    number = float(value)
    return int(number) if number.is_integer() else round(number, 1)


def _b10_ward_office(ward: int):
    offices = pd.read_csv(data_dir() / "ward_offices.csv", encoding="utf-8-sig", dtype=str)
    return offices[offices["WARD"].str.strip() == str(int(ward))].iloc[0]


def b10_ward_alderman_surname(ward: int) -> str:
    """The alderperson's surname as written in ward_offices.csv ('Vasquez' for 'Vasquez, Jr., Andres'; 2019-2023
    council)."""
    return str(_b10_ward_office(ward)["ALDERMAN"]).split(",")[0].strip()


def b10_ward_office_street_number(ward: int) -> int:
    """The house number of a ward office's address (5620 for '5620 North Western Avenue')."""
    return int(str(_b10_ward_office(ward)["ADDRESS"]).split()[0])



# ---- blind11_heldout (2026-11-26)
# (written blind: from the CSVs, PROVENANCE.md, the tool schemas and this module only, without reading the analyzer,
# the rules, the loop, the tools or earlier questions). Appended to the end of expected.py: uses its helpers
# (_homicides, _years, _as_list, _areas, ihs_index, acs_group, acs_population, area_name, area_name_upper,
# homicide_rate_per_100k, _tie_check).

def _b11_year_counts_excluding(exclude_years=None, start_year=None, end_year=None) -> pd.Series:
    """Homicides per calendar year (incident Date) over start_year..end_year (all years by default) with the listed
    years left out; most first, ties by year."""
    df = _years(_homicides(), None, start_year, end_year)
    counts = df.groupby("year").size()
    counts = counts[~counts.index.isin([int(y) for y in _as_list(exclude_years)])]
    return counts.sort_index().sort_values(ascending=False, kind="mergesort")


def b11_year_ranked_excluding(exclude_years, rank: int = 1, start_year=None, end_year=None) -> int:
    """The calendar year at 1-based ``rank`` by homicide count (most first) once the listed years are left out
    ("other than 2021, which year was deadliest"); raises on a tie at that rank."""
    counts = _b11_year_counts_excluding(exclude_years, start_year, end_year)
    i = int(rank) - 1
    _tie_check(counts.tolist(), i, "year")
    return int(counts.index[i])


def b11_year_ranked_excluding_count(exclude_years, rank: int = 1, start_year=None, end_year=None) -> int:
    """How many homicides the year at ``rank`` had (see ``b11_year_ranked_excluding``)."""
    return int(_b11_year_counts_excluding(exclude_years, start_year, end_year).iloc[int(rank) - 1])


def _b11_rates_min_pop(year: int, min_population: int) -> pd.Series:
    """Homicide rate per 100,000 in ``year`` (see ``homicide_rate_per_100k``: ACS 2019-2023 population from 2016 on,
    2010 Census before) for the community areas whose ACS 2019-2023 total_population is strictly above
    ``min_population``, indexed by area number; highest first, ties by area number."""
    names = _areas().set_index("area_number")["community"]
    keep = {int(n): homicide_rate_per_100k(int(n), year) for n, name in names.items()
            if acs_population(str(name)) > int(min_population)}
    return pd.Series(keep).sort_index().sort_values(ascending=False, kind="mergesort")


def b11_area_rate_ranked_min_pop(year: int, min_population: int, rank: int = 1, ascending: bool = False) -> str:
    """The community area (socioeconomic-file spelling) at 1-based ``rank`` by homicide rate per 100,000 in ``year``
    among the areas with more than ``min_population`` residents (ACS 2019-2023), highest first unless ascending;
    raises on a tie (at one decimal) at that rank."""
    rates = _b11_rates_min_pop(year, min_population).sort_values(ascending=bool(ascending), kind="mergesort")
    i = int(rank) - 1
    _tie_check(rates.tolist(), i, "rate")
    return area_name(int(rates.index[i]))


def b11_area_rate_ranked_min_pop_value(year: int, min_population: int, rank: int = 1, ascending: bool = False) -> float:
    """The rate (per 100,000, one decimal) of the area at ``rank`` (see ``b11_area_rate_ranked_min_pop``)."""
    rates = _b11_rates_min_pop(year, min_population).sort_values(ascending=bool(ascending), kind="mergesort")
    return float(rates.iloc[int(rank) - 1])


def b11_ihs_pct_change(submarket_code: str, from_yearq: str, to_yearq: str) -> float:
    """Size of the percent change (no sign) of the IHS price index of one series (p31xx, CHICAGO, COOK, SUBURBS) from
    one quarter ('2007Q1') to another, one decimal."""
    before = ihs_index(submarket_code, from_yearq)
    after = ihs_index(submarket_code, to_yearq)
    return round(abs(100.0 * (after - before) / before), 1)


def b11_acs_sum(area_name: str, columns) -> int:
    """Several census_acs.csv columns of one community area added (e.g. the households of the two income bands under
    $50,000: under_25_000 + _25_000_to_49_999), ACS 2019-2023, whole number."""
    return int(sum(acs_group(area_name, str(c)) for c in _as_list(columns)))



# ---- blind12_heldout (2026-11-27)
# (written blind: from the CSVs, PROVENANCE.md, the runner and this module only, without reading the analyzer, the
# rules, the loop, the tools or earlier questions). Appended to the end of expected.py: uses its helpers (_homicides,
# _homicides_filtered, _socio_areas, _acs, _areas, _pop2010, _zhvi, _zip_crosswalk, acs_share_pct,
# acs_age_band_total, acs_population, area_name, area_name_upper, population_2010, homicides_total,
# homicide_rate_per_100k, _rate_population, _tie_check, _as_list, _b10_ward_office).
#
# Most functions below take a MEASURE: a per-community-area figure named by a string, with its own arguments in a
# dict ``params`` (``rank_params`` / ``value_params`` / ... when a function takes two measures):
#   "socio:<COLUMN>"       socioeconomic.csv column, stripped name (2008-2012), e.g. "socio:PER CAPITA INCOME"
#   "acs:<column>"         census_acs.csv column as a count (ACS 2019-2023), e.g. "acs:total_population"
#   "acs_share:<column>"   that column as a percent (households for the income bands, residents otherwise; one
#                          decimal, as ``acs_share_pct``), e.g. "acs_share:_125_000", "acs_share:hispanic_or_latino"
#   "acs_age:<band>"       residents of an age band, men + women ('0_to_17', ..., '65')
#   "acs_age_share:<band>" the same as a percent of total_population, one decimal
#   "pop2010"              2010 Census population (census_population_2010.csv)
#   "homicides"            homicide rows in the area matching ``params`` (filters of ``_homicides_filtered``; areas
#                          with none count 0)
#   "rate"                 homicides per 100,000 residents PER YEAR over params start_year..end_year (or one
#                          ``year``): ACS 2019-2023 population from 2016 on, 2010 Census before (as
#                          ``homicide_rate_avg_per_100k``); unrounded inside, one decimal when returned
#   "zhvi"                 the Zillow value of the latest month (2024-09) as ``zhvi_area_value`` (crosswalk-weighted
#                          mean over the area's ZIPs that have a value); NaN for an area none of whose ZIPs has one
#   "sq_mi"                community_areas.csv area_sq_mi
# Rankings sort by value (highest first unless ascending), ties by area number, and raise when the cut-off (or the
# ranked place) ties with its neighbour, rates and percents compared at one decimal.

import math as _b12_math


def _b12_all_numbers() -> list:
    return sorted(int(n) for n in _areas()["area_number"])


def _b12_zhvi_area_or_nan(area_number: int) -> float:
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an area with no valued ZIP divides 0 by 0
        try:
            return float(zhvi_area_value(int(area_number)))
        except (ZeroDivisionError, IndexError, ValueError):
            return float("nan")


def _b12_series(measure: str, params=None) -> pd.Series:
    """One value per community area number (1..77, in number order) for a MEASURE (see above), unrounded."""
    params = dict(params or {})
    numbers = _b12_all_numbers()
    names = _areas().set_index("area_number")["community"]
    kind, _, column = str(measure).partition(":")
    if kind == "socio":
        df = _socio_areas()
        values = pd.Series(df[column].astype(float).values,
                           index=pd.to_numeric(df["Community Area Number"]).astype(int).values)
    elif kind == "acs":
        values = pd.Series({n: float(acs_group(str(names[n]), column)) for n in numbers})
    elif kind == "acs_share":
        values = pd.Series({n: float(acs_share_pct(str(names[n]), column)) for n in numbers})
    elif kind == "acs_age":
        values = pd.Series({n: float(acs_age_band_total(str(names[n]), column)) for n in numbers})
    elif kind == "acs_age_share":
        values = pd.Series({n: round(100.0 * acs_age_band_total(str(names[n]), column)
                                     / acs_population(str(names[n])), 1) for n in numbers})
    elif kind == "pop2010":
        df = _pop2010()
        values = pd.Series(df["POP2010"].astype(float).values, index=df["NID"].astype(int).values)
    elif kind == "homicides":
        df = _homicides_filtered(**params).dropna(subset=["area"])
        counts = df.groupby("area").size()
        counts.index = counts.index.astype(int)
        values = counts.reindex(numbers, fill_value=0).astype(float)
    elif kind == "rate":
        start = int(params.get("start_year", params.get("year")))
        end = int(params.get("end_year", params.get("year")))
        counts = _b12_series("homicides", {"start_year": start, "end_year": end})
        values = pd.Series({n: counts[n] / (end - start + 1) / _rate_population(n, start, end) * 100000
                            for n in numbers})
    elif kind == "zhvi":
        values = pd.Series({n: _b12_zhvi_area_or_nan(n) for n in numbers})
    elif kind == "sq_mi":
        values = pd.Series(_areas()["area_sq_mi"].astype(float).values,
                           index=_areas()["area_number"].astype(int).values)
    else:
        raise ValueError(f"unknown measure {measure!r}")
    return values.reindex(numbers)


def _b12_out(measure: str, value: float):
    """A measure's value as an answer writes it: counts and money whole, percents and rates one decimal."""
    kind = str(measure).partition(":")[0]
    if value is None or (isinstance(value, float) and _b12_math.isnan(value)):
        raise ValueError(f"no value for {measure}")
    if kind in ("rate", "acs_share", "acs_age_share") or (kind == "socio" and "PERCENT" in measure):
        return round(float(value), 1)
    if kind == "sq_mi":
        return round(float(value), 1)
    return int(round(float(value)))


def _b12_key(measure: str, values: pd.Series) -> pd.Series:
    """The values a ranking compares for ties: one decimal for rates and percents, whole numbers otherwise."""
    kind = str(measure).partition(":")[0]
    if kind in ("rate", "acs_share", "acs_age_share", "sq_mi") or (kind == "socio" and "PERCENT" in measure):
        return values.round(1)
    return values.round(0)


def _b12_ordered(measure: str, params=None, ascending: bool = False) -> pd.Series:
    values = _b12_series(measure, params).dropna()
    return values.sort_index().sort_values(ascending=bool(ascending), kind="mergesort")


def b12_top_set(measure: str, n: int, ascending: bool = False, params=None) -> list:
    """The area numbers of the ``n`` highest (lowest when ascending) areas on a MEASURE; raises when the n-th and the
    (n+1)-th tie (the set would not be well defined)."""
    ordered = _b12_ordered(measure, params, ascending)
    keys = _b12_key(measure, ordered).tolist()
    if int(n) < len(keys) and keys[int(n) - 1] == keys[int(n)]:
        raise ValueError(f"the cut-off at {n} on {measure} is tied at {keys[int(n) - 1]}")
    return [int(i) for i in ordered.index[: int(n)]]


def b12_ranked_area(measure: str, rank: int = 1, ascending: bool = False, params=None) -> str:
    """The community area (socioeconomic-file spelling) at 1-based ``rank`` on a MEASURE; raises on a tie there."""
    ordered = _b12_ordered(measure, params, ascending)
    i = int(rank) - 1
    _tie_check(_b12_key(measure, ordered).tolist(), i, measure)
    return area_name(int(ordered.index[i]))


def b12_ranked_value(measure: str, rank: int = 1, ascending: bool = False, params=None):
    """The MEASURE value of the area at ``rank`` (see ``b12_ranked_area``)."""
    ordered = _b12_ordered(measure, params, ascending)
    return _b12_out(measure, float(ordered.iloc[int(rank) - 1]))


def b12_area_value(measure: str, area_number: int, params=None):
    """One area's MEASURE value (rounded as an answer writes it)."""
    return _b12_out(measure, float(_b12_series(measure, params)[int(area_number)]))


def b12_value_of_ranked(rank_measure: str, value_measure: str, rank: int = 1, ascending: bool = False,
                        rank_params=None, value_params=None):
    """Composition: the area at ``rank`` on rank_measure (tie-checked), then its value_measure."""
    ordered = _b12_ordered(rank_measure, rank_params, ascending)
    i = int(rank) - 1
    _tie_check(_b12_key(rank_measure, ordered).tolist(), i, rank_measure)
    return b12_area_value(value_measure, int(ordered.index[i]), value_params)


def b12_set_sum(rank_measure: str, n: int, sum_measure: str, ascending: bool = False, rank_params=None,
                sum_params=None):
    """Composition: the ``n`` top (bottom when ascending) areas on rank_measure, then sum_measure added over them
    (counts: homicides, residents, households)."""
    members = b12_top_set(rank_measure, n, ascending, rank_params)
    return _b12_out(sum_measure, float(_b12_series(sum_measure, sum_params)[members].sum()))


def b12_set_sum_share_pct(rank_measure: str, n: int, ascending: bool = False, rank_params=None, **filters) -> float:
    """Composition: the homicides (filters of ``_homicides_filtered``) in the ``n`` top areas on rank_measure as a
    percent of ALL the city's homicides matching the filters (rows without an area in the denominator), 1 decimal."""
    members = b12_top_set(rank_measure, n, ascending, rank_params)
    return round(100.0 * homicides_where(area=members, **filters) / homicides_where(**filters), 1)


def _b12_threshold_numbers(measure: str, params=None, at_least=None, above=None, at_most=None, below=None) -> list:
    values = _b12_series(measure, params).dropna()
    keep = pd.Series(True, index=values.index)
    if at_least is not None:
        keep &= values >= float(at_least)
    if above is not None:
        keep &= values > float(above)
    if at_most is not None:
        keep &= values <= float(at_most)
    if below is not None:
        keep &= values < float(below)
    return [int(n) for n in values[keep].index]


def b12_threshold_count(measure: str, params=None, at_least=None, above=None, at_most=None, below=None) -> int:
    """How many community areas pass a threshold on a MEASURE (at_least / at_most inclusive, above / below strict)."""
    return len(_b12_threshold_numbers(measure, params, at_least, above, at_most, below))


def b12_threshold_sum(measure: str, sum_measure: str, params=None, sum_params=None, at_least=None, above=None,
                      at_most=None, below=None):
    """Composition: sum_measure added over the community areas that pass a threshold on ``measure``."""
    members = _b12_threshold_numbers(measure, params, at_least, above, at_most, below)
    return _b12_out(sum_measure, float(_b12_series(sum_measure, sum_params)[members].sum()))


def b12_threshold_share_pct(measure: str, params=None, at_least=None, above=None, at_most=None, below=None,
                            **filters) -> float:
    """Composition: the homicides (filters) in the areas passing the threshold as a percent of all the city's
    homicides matching the filters (rows without an area in the denominator), one decimal."""
    members = _b12_threshold_numbers(measure, params, at_least, above, at_most, below)
    return round(100.0 * homicides_where(area=members, **filters) / homicides_where(**filters), 1)


def b12_threshold_pop_share_pct(measure: str, params=None, at_least=None, above=None, at_most=None,
                                below=None) -> float:
    """The ACS 2019-2023 residents of the areas passing the threshold as a percent of the city's (77 areas)."""
    members = _b12_threshold_numbers(measure, params, at_least, above, at_most, below)
    pop = _b12_series("acs:total_population")
    return round(100.0 * float(pop[members].sum()) / float(pop.sum()), 1)


def _b12_changes(year1: int, year2: int) -> pd.Series:
    """year2 minus year1 homicides per community area (areas with none count 0), in area-number order."""
    first = _b12_series("homicides", {"years": [int(year1)]})
    second = _b12_series("homicides", {"years": [int(year2)]})
    return second - first


def _b12_change_ordered(year1: int, year2: int, direction: str) -> pd.Series:
    changes = _b12_changes(year1, year2)
    if direction == "rise":
        return changes.sort_index().sort_values(ascending=False, kind="mergesort")
    if direction == "drop":
        return changes.sort_index().sort_values(ascending=True, kind="mergesort")
    raise ValueError("direction is 'rise' or 'drop'")


def b12_change_area(year1: int, year2: int, direction: str = "rise", rank: int = 1) -> str:
    """The community area with the ``rank``-th biggest rise (or drop) in homicides from year1 to year2 (counts, not
    percents); raises on a tie there."""
    ordered = _b12_change_ordered(year1, year2, direction)
    i = int(rank) - 1
    _tie_check(ordered.tolist(), i, "change")
    return area_name(int(ordered.index[i]))


def b12_change_size(year1: int, year2: int, direction: str = "rise", rank: int = 1) -> int:
    """The size (no sign) of that rise / drop (see ``b12_change_area``)."""
    return int(abs(_b12_change_ordered(year1, year2, direction).iloc[int(rank) - 1]))


def b12_value_of_change_area(year1: int, year2: int, value_measure: str, direction: str = "rise", rank: int = 1,
                             value_params=None):
    """Composition: the area with the rank-th biggest rise / drop, then its value_measure."""
    ordered = _b12_change_ordered(year1, year2, direction)
    i = int(rank) - 1
    _tie_check(ordered.tolist(), i, "change")
    return b12_area_value(value_measure, int(ordered.index[i]), value_params)


def b12_change_set_sum(year1: int, year2: int, n: int, sum_measure: str, direction: str = "rise",
                       sum_params=None):
    """Composition: the ``n`` areas with the biggest rises / drops, then sum_measure added over them; raises when the
    cut-off ties."""
    ordered = _b12_change_ordered(year1, year2, direction)
    values = ordered.tolist()
    if values[int(n) - 1] == values[int(n)]:
        raise ValueError(f"the cut-off at {n} is tied at {values[int(n) - 1]}")
    members = [int(i) for i in ordered.index[: int(n)]]
    return _b12_out(sum_measure, float(_b12_series(sum_measure, sum_params)[members].sum()))


def b12_corr(x_measure: str, y_measure: str, x_params=None, y_params=None, method: str = "pearson") -> float:
    """The correlation (Pearson r unless method='spearman') across community areas of two MEASURES, areas missing
    either left out, two decimals (signed: an answer writes '-0.46')."""
    x = _b12_series(x_measure, x_params)
    y = _b12_series(y_measure, y_params)
    both = pd.DataFrame({"x": x, "y": y}).dropna()
    if method == "spearman":  # ranks (ties averaged), then Pearson: no scipy needed
        both = both.rank(method="average")
    elif method != "pearson":
        raise ValueError("method is 'pearson' or 'spearman'")
    return round(float(both["x"].corr(both["y"])), 2)


def b12_corr_n(x_measure: str, y_measure: str, x_params=None, y_params=None) -> int:
    """How many community areas enter that correlation."""
    return int(len(pd.DataFrame({"x": _b12_series(x_measure, x_params),
                                 "y": _b12_series(y_measure, y_params)}).dropna()))


def b12_rate_year_area_value(year: int, value_measure: str, rank: int = 1, value_params=None):
    """Composition (the headline): the community area with the rank-th highest homicide rate per 100,000 in ``year``
    (see ``area_rate_ranked``), then its value_measure."""
    ordered = _b12_ordered("rate", {"year": int(year)})
    i = int(rank) - 1
    _tie_check(_b12_key("rate", ordered).tolist(), i, "rate")
    return b12_area_value(value_measure, int(ordered.index[i]), value_params)


def b12_city_rate(start_year: int, end_year: int) -> float:
    """The city's homicides per 100,000 per year over start_year..end_year (all rows; ACS 2019-2023 total from 2016
    on, the 2010 Census total before), one decimal."""
    if int(start_year) >= 2016:
        population = float(_acs()["total_population"].sum())
    elif int(end_year) <= 2015:
        population = float(_pop2010()["POP2010"].sum())
    else:
        raise ValueError("the span mixes the 2010 Census and ACS populations")
    years = int(end_year) - int(start_year) + 1
    return round(homicides_total(start_year=start_year, end_year=end_year) / years / population * 100000, 1)


def b12_ward_alderman(ward: int) -> str:
    """The alderperson's surname as in ward_offices.csv (2019-2023 council), as ``b10_ward_alderman_surname``."""
    return b10_ward_alderman_surname(ward)


def b12_district_name(district: int) -> str:
    """A police district's name as written in police_stations.csv ('Harrison' for 11)."""
    stations = pd.read_csv(data_dir() / "police_stations.csv", dtype=str)
    return str(stations[stations["DISTRICT"].str.strip() == str(int(district))].iloc[0]["DISTRICT NAME"]).strip()


def _b12_zhvi_zips(year: int, month: int, ascending: bool = False) -> pd.DataFrame:
    df = _zhvi()
    rows = df[df["period"] == int(year) * 100 + int(month)].dropna(subset=["value"]).sort_values("zip")
    return rows.sort_values("value", ascending=bool(ascending), kind="mergesort")


def b12_zhvi_zip_ranked(year: int, month: int, rank: int = 1, ascending: bool = False) -> str:
    """The ZIP at rank by Zillow value in one month (ties at whole dollars raise)."""
    rows = _b12_zhvi_zips(year, month, ascending)
    i = int(rank) - 1
    _tie_check(rows["value"].round(0).tolist(), i, "zhvi")
    return str(rows["zip"].iloc[i])


def b12_zhvi_zip_year_mean(zip_code: str, year: int) -> int:
    """Stand-in: a ZIP's Zillow value averaged over a year's 12 months, whole dollars."""
    return int(round(_zhvi_zip_year(zip_code, year)))


def b12_acs_city_share_pct(column: str) -> float:
    """A census_acs.csv column summed over the 77 areas as a percent of the city's residents (households for the
    income bands), one decimal."""
    df = _acs()
    bands = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
    base = df[bands].astype(float).sum().sum() if column in bands else float(df["total_population"].sum())
    return round(100.0 * float(df[column].astype(float).sum()) / base, 1)


def b12_homicides_pct_of(part_filters: dict, whole_filters: dict) -> float:
    """The homicides matching part_filters as a percent of those matching whole_filters, one decimal."""
    return round(100.0 * homicides_where(**part_filters) / homicides_where(**whole_filters), 1)


def b12_city_rate_pop2010(year: int) -> float:
    """Stand-in: the city's homicides in a year per 100,000 of the 2010 Census total, whatever the year."""
    return round(homicides_total(year) / float(_pop2010()["POP2010"].sum()) * 100000, 1)


def b12_rate_acs_any_year(area_number: int, year: int) -> float:
    """Stand-in: an area's homicides in a year per 100,000 of its ACS 2019-2023 population, whatever the year."""
    return round(homicides_in_area(area_number, year=year) / acs_population(area_name_upper(area_number)) * 100000, 1)


def b12_add(terms) -> int:
    """Several figures added (each a number or [function_name, {kwargs}], see ``_figure``), e.g. two income bands'
    set sums; whole numbers stay whole, otherwise one decimal."""
    value = sum(_figure(t) for t in _as_list(terms))
    return int(value) if float(value).is_integer() else round(float(value), 1)

