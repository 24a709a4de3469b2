"""Read every source CSV once, type it, and keep a parquet cache so warm starts are fast.

Typing rules: community areas are 1-77 integers, wards 1-50, districts the real CPD set,
dates parsed, names canonical. Every source file is checked first (tools/data/integrity.py), and
the cache is keyed on the files' sha256 (tools/data/cache.py), so a refreshed CSV is re-read
automatically and a damaged one is refused rather than read.
"""
from __future__ import annotations

import logging
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from settings.loader import (
    DataNotFoundError,
    configured_data_dir,
    load_settings,
    resolve_data_dir,
    var_dir,
)
from settings.schema import Settings
from tools.data.cache import read_cache, write_cache
from tools.data.datasets import DATASETS
from tools.data.geography import Gazetteer
from tools.data.integrity import DataIntegrityError, verify

CACHE_VERSION = 7  # bump when the typing below changes (6: the IHS summary table; 7: police headquarters)
log = logging.getLogger("chiqa.data")

# Canonical display names where plain title case is wrong.
NAME_FIXES = {"OHARE": "O'Hare", "MCKINLEY PARK": "McKinley Park"}


def canonical_area_name(upper_name: str) -> str:
    return NAME_FIXES.get(upper_name, upper_name.title())


@dataclass
class DataBundle:
    """All typed tables plus each dataset's coverage."""

    data_dir: Path
    tables: dict = field(default_factory=dict)
    coverage: dict = field(default_factory=dict)
    load_ms: float = 0.0
    from_cache: bool = False
    checks: dict = field(default_factory=dict)  # dataset key -> integrity.FileCheck
    cache_note: str = ""  # why the cache was not used, or could not be written

    def __getattr__(self, name):  # bundle.homicides, bundle.socioeconomic, ...
        tables = self.__dict__.get("tables", {})
        if name in tables:
            return tables[name]
        raise AttributeError(name)

    def _geo(self):
        geo = self.__dict__.get("_gazetteer")
        if geo is None:
            geo = self.__dict__["_gazetteer"] = Gazetteer(self)
        return geo

    @property
    def geography(self):
        return self._geo()


# ------------------------------------------------------------------ readers per dataset

def _read_community_areas(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path)
    out = pd.DataFrame({
        "area_number": df["area_number"].astype("int16"),
        "community": df["community"].astype(str),
        "name": df["community"].map(canonical_area_name),
        "name_socioeconomic": df["name_socioeconomic"].astype(str),
        "area_sq_mi": df["area_sq_mi"].astype(float),
    })
    return out.sort_values("area_number").reset_index(drop=True)


def _read_homicides(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path, dtype={"IUCR": str, "Beat": "Int64"})
    date = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p")

    def small_int(col):
        return pd.to_numeric(df[col], errors="coerce").round().astype("Int16")

    out = pd.DataFrame({
        "id": df["ID"].astype("int64"),
        "case_number": df["Case Number"].astype(str),
        "date": date,
        "year": date.dt.year.astype("int16"),
        "month": date.dt.month.astype("int8"),
        "block": df["Block"].astype(str),
        "iucr": df["IUCR"].astype(str).str.zfill(4),
        "description": df["Description"].astype(str),
        "location_description": df["Location Description"].fillna("UNKNOWN").astype(str).str.upper(),
        "arrest": df["Arrest"].astype(str).str.lower().eq("true"),
        "domestic": df["Domestic"].astype(str).str.lower().eq("true"),
        "beat": df["Beat"].astype("Int16"),
        "district": small_int("District"),
        "ward": small_int("Ward"),
        "community_area": small_int("Community Area"),
        "latitude": pd.to_numeric(df["Latitude"], errors="coerce"),
        "longitude": pd.to_numeric(df["Longitude"], errors="coerce"),
    })
    # Out-of-range geography codes are data errors; keep the row, drop the bad code.
    out.loc[~out["community_area"].between(1, 77), "community_area"] = pd.NA
    out.loc[~out["ward"].between(1, 50), "ward"] = pd.NA
    out["location_description"] = out["location_description"].astype("category")
    return out.sort_values("date").reset_index(drop=True)


def _read_iucr(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path, dtype=str)
    return pd.DataFrame({
        "iucr": df["IUCR"].str.strip().str.zfill(4),
        "primary": df["PRIMARY DESCRIPTION"].str.strip(),
        "secondary": df["SECONDARY DESCRIPTION"].str.strip(),
        "index_code": df["INDEX CODE"].str.strip(),
        "active": df["ACTIVE"].str.strip().str.lower().eq("true"),
    })


SOCIO_COLUMNS = {
    "PERCENT OF HOUSING CROWDED": "pct_housing_crowded",
    "PERCENT HOUSEHOLDS BELOW POVERTY": "pct_households_below_poverty",
    "PERCENT AGED 16+ UNEMPLOYED": "pct_aged_16_plus_unemployed",
    "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA": "pct_aged_25_plus_without_hs_diploma",
    "PERCENT AGED UNDER 18 OR OVER 64": "pct_aged_under_18_or_over_64",
    "PER CAPITA INCOME": "per_capita_income",
    "HARDSHIP INDEX": "hardship_index",
}


def _read_socioeconomic(path: Path, areas: pd.DataFrame) -> pd.DataFrame:
    df = pd.read_csv(path)
    df.columns = [c.strip() for c in df.columns]
    number = pd.to_numeric(df["Community Area Number"], errors="coerce")
    out = pd.DataFrame({"area_number": number})
    out["portal_name"] = df["COMMUNITY AREA NAME"].astype(str).str.strip()
    for src, dst in SOCIO_COLUMNS.items():
        out[dst] = pd.to_numeric(df[src], errors="coerce")
    # The city-wide row has no area number; keep it as area 0 so tools can quote it.
    out["area_number"] = out["area_number"].fillna(0).astype("int16")
    names = dict(zip(areas["area_number"], areas["name"]))
    out["name"] = out["area_number"].map(names).fillna("Chicago")
    return out.sort_values("area_number").reset_index(drop=True)


def _read_census_acs(path: Path, areas: pd.DataFrame) -> pd.DataFrame:
    df = pd.read_csv(path)
    number_by_name = dict(zip(areas["community"], areas["area_number"]))
    df["area_number"] = df["community_area"].str.strip().str.upper().map(number_by_name)
    if df["area_number"].isna().any():
        bad = df.loc[df["area_number"].isna(), "community_area"].tolist()
        raise ValueError(f"census_acs.csv has community names not in the boundaries file: {bad}")
    df["area_number"] = df["area_number"].astype("int16")
    df["acs_year"] = df["acs_year"].astype("int16")
    numeric = [c for c in df.columns if c not in ("community_area", "record_id", "area_number", "acs_year")]
    df[numeric] = df[numeric].apply(pd.to_numeric, errors="coerce")
    df["name"] = df["area_number"].map(dict(zip(areas["area_number"], areas["name"])))
    return df.drop(columns=["record_id"]).sort_values("area_number").reset_index(drop=True)


def _read_population_2010(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path)
    return pd.DataFrame({"area_number": df["NID"].astype("int16"), "population": df["POP2010"].astype("int64")})


def _read_zip_crosswalk(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path, dtype={"zip": str})
    df["area_number"] = df["area_number"].astype("int16")
    return df


def _read_submarket_crosswalk(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path)
    df["area_number"] = df["area_number"].astype("int16")
    df["in_price_index"] = df["in_price_index"].astype(bool)
    return df


def _read_zhvi(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path, dtype={"RegionName": str})
    out = pd.DataFrame({
        "zip": df["RegionName"].str.zfill(5),
        "year": df["Year"].astype("int16"),
        "month": df["Month"].astype("int8"),
        "value": pd.to_numeric(df["price"], errors="coerce"),
    })
    out["date"] = pd.to_datetime({"year": out["year"], "month": out["month"], "day": 1})
    return out.sort_values(["zip", "date"]).reset_index(drop=True)


def _read_ihs_index(path: Path) -> pd.DataFrame:
    raw = pd.read_csv(path, header=None, dtype=str)
    codes, names = raw.iloc[0].tolist(), raw.iloc[1].tolist()
    rows = []
    for _, row in raw.iloc[2:].iterrows():
        yearq = row.iloc[0]
        year, quarter = int(yearq[:4]), int(yearq[-1])
        for col in range(1, len(codes)):
            code = codes[col] if isinstance(codes[col], str) and codes[col].strip() else names[col]
            value = pd.to_numeric(row.iloc[col], errors="coerce")
            rows.append((yearq, year, quarter, code, names[col], value))
    df = pd.DataFrame(rows, columns=["yearq", "year", "quarter", "submarket_code", "submarket_name", "index"])
    df["year"] = df["year"].astype("int16")
    df["quarter"] = df["quarter"].astype("int8")
    return df


# The IHS summary's published columns -> typed names; every figure is a percent string ("7.8%") but the price.
IHS_SUMMARY_COLUMNS = {
    "Change Since 2000": "change_since_2000_pct",
    "Change Peak to Current": "change_peak_to_current_pct",
    "Change Bottom to Current": "change_bottom_to_current_pct",
    "COVID-19 Pandemic Start to Current": "change_pandemic_to_current_pct",
    "Year-over-year change": "yoy_change_pct",
}


def _figure(series: pd.Series) -> pd.Series:
    """ "7.8%" -> 7.8, " $1,528,000 " -> 1528000.0; the summary stores display strings, not numbers."""
    cleaned = series.astype(str).str.replace(r"[\s$,%]", "", regex=True)
    return pd.to_numeric(cleaned, errors="coerce")


def _read_ihs_summary(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path, dtype=str)
    out = pd.DataFrame({"submarket_code": df["Number"].str.strip(), "submarket_name": df["Sub Market"].str.strip()})
    for src, dst in IHS_SUMMARY_COLUMNS.items():
        out[dst] = _figure(df[src])
    out["median_sales_price"] = _figure(df["Median Sales Price"])
    return out.sort_values("submarket_code").reset_index(drop=True)


def _read_police_stations(path: Path) -> pd.DataFrame:
    """The district stations (one per district)."""
    df = pd.read_csv(path, dtype=str)
    df = df[pd.to_numeric(df["DISTRICT"], errors="coerce").notna()]
    return _station_frame(df).astype({"district": "int16"}).sort_values("district").reset_index(drop=True)


def _read_police_headquarters(path: Path) -> pd.DataFrame:
    """The rows of the same file that are no district's station (the department's headquarters)."""
    df = pd.read_csv(path, dtype=str)
    df = df[pd.to_numeric(df["DISTRICT"], errors="coerce").isna()]
    return _station_frame(df).drop(columns="district").reset_index(drop=True)


def _station_frame(df: pd.DataFrame) -> pd.DataFrame:
    # The station tool quotes ZIP, phone and website; the community area says where the station stands.
    return pd.DataFrame({
        "district": pd.to_numeric(df["DISTRICT"], errors="coerce").astype("Int16"),
        "name": df["DISTRICT NAME"].str.strip(),
        "address": df["ADDRESS"].str.strip(),
        "city": df["CITY"].fillna("").str.strip(),
        "state": df["STATE"].fillna("").str.strip(),
        "zip": df["ZIP"].fillna("").str.strip().str.zfill(5),
        "community_area": pd.to_numeric(df["COMMUNITY AREA"], errors="coerce").astype("Int16"),
        "phone": df["PHONE"].fillna("").str.strip(),
        "website": df["WEBSITE"].fillna("").str.strip(),
    })


def _read_ward_offices(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path, dtype=str, encoding="utf-8-sig")
    return pd.DataFrame({
        "ward": df["WARD"].astype(int).astype("int16"),
        "alderperson": df["ALDERMAN"].str.strip(),
        "address": df["ADDRESS"].str.strip(),
    }).sort_values("ward").reset_index(drop=True)


# ------------------------------------------------------------------ coverage

def _coverage(tables: dict) -> dict:
    h = tables["homicides"]
    z = tables["zhvi"].dropna(subset=["value"])
    ihs = tables["ihs_index"].dropna(subset=["index"])
    acs_year = int(tables["census_acs"]["acs_year"].max())
    first, last = int(h["year"].min()), int(h["year"].max())
    # A year inside the span with no row at all is a gap in the file (a cut export, or a forged one whose records
    # were rewritten to match), never a year without a homicide: the tools name it instead of answering 0.
    empty = sorted(set(range(first, last + 1)) - {int(y) for y in h["year"].unique()})
    return {
        "homicides": {"start": h["date"].min().date().isoformat(), "end": h["date"].max().date().isoformat(),
                      "rows": int(len(h)), "first_year": first, "last_year": last, "empty_years": empty},
        "iucr": {"rows": int(len(tables["iucr"]))},
        "socioeconomic": {"start": "2008", "end": "2012", "rows": int((tables["socioeconomic"]["area_number"] > 0).sum())},
        "census_acs": {"start": str(acs_year - 4), "end": str(acs_year), "vintage": acs_year,
                       "rows": int(len(tables["census_acs"]))},
        "population_2010": {"start": "2010", "end": "2010", "rows": int(len(tables["population_2010"]))},
        "zhvi": {"start": z["date"].min().strftime("%Y-%m"), "end": z["date"].max().strftime("%Y-%m"),
                 "rows": int(len(tables["zhvi"])), "zips": int(z["zip"].nunique())},
        "ihs_index": {"start": ihs["yearq"].min(), "end": ihs["yearq"].max(), "rows": int(len(ihs))},
        "community_areas": {"rows": int(len(tables["community_areas"]))},
        "ihs_summary": {"release": _release(DATASETS["ihs_summary"].file), "rows": int(len(tables["ihs_summary"]))},
    }


def _release(file: str) -> str | None:
    """The IHS release a summary file is of, from its name ("..._2025q4.csv" -> "2025Q4")."""
    found = re.search(r"(\d{4})q([1-4])", file, re.I)
    return f"{found.group(1)}Q{found.group(2)}" if found else None


# ------------------------------------------------------------------ load with cache

_READERS = {
    "homicides": _read_homicides, "iucr": _read_iucr, "population_2010": _read_population_2010,
    "zip_crosswalk": _read_zip_crosswalk, "submarket_crosswalk": _read_submarket_crosswalk, "zhvi": _read_zhvi,
    "ihs_index": _read_ihs_index, "ihs_summary": _read_ihs_summary, "police_stations": _read_police_stations, "ward_offices": _read_ward_offices,
}
_JOINED = {"socioeconomic": _read_socioeconomic, "census_acs": _read_census_acs}  # need the area lookup


def _read_all(data_dir: Path) -> dict:
    """Every typed table; a file the readers cannot type is a DataIntegrityError naming it."""
    tables, problems = {}, {}

    def read(key, reader, *extra):
        try:
            tables[key] = reader(data_dir / DATASETS[key].file, *extra)
        except Exception as exc:  # a checked file that still will not type: say which and why
            detail = f"column {exc}" if isinstance(exc, KeyError) else str(exc).splitlines()[0][:200]
            problems[key] = f"{DATASETS[key].file} does not load: {type(exc).__name__}: {detail}"

    read("community_areas", _read_community_areas)
    for key, reader in _READERS.items():
        read(key, reader)
    if "community_areas" in tables:
        for key, reader in _JOINED.items():
            read(key, reader, tables["community_areas"])
    try:  # a second table from the stations file (its problems are the stations file's, reported above)
        tables["police_headquarters"] = _read_police_headquarters(data_dir / DATASETS["police_stations"].file)
    except Exception:  # noqa: BLE001
        tables["police_headquarters"] = pd.DataFrame()
    if problems:
        raise DataIntegrityError(data_dir, problems)
    return {key: tables[key] for key in _TABLE_KEYS}


def missing_files(data_dir: Path) -> list[str]:
    """Files not there at all; one that is there but is no regular file (a FIFO, a link to a device) is named
    with what it is by the integrity check."""
    return [ds.file for ds in DATASETS.values() if not os.path.lexists(data_dir / ds.file)]


def load_data(settings: Settings | None = None, data_dir: Path | None = None, use_cache: bool = True) -> DataBundle:
    """Check every file, then load (from the parquet cache when it is current and intact) every table."""
    started = time.perf_counter()
    settings = settings if settings is not None else load_settings()
    data_dir = Path(data_dir) if data_dir else resolve_data_dir(settings)
    missing = missing_files(data_dir)
    if missing:
        alone = (" It was set by CHIQA_DATA_DIR or data.dir, so no other folder is used."
                 if configured_data_dir(settings) is not None else "")
        error = DataNotFoundError(
            f"The data folder {data_dir} lacks {', '.join(missing)}.{alone} Run 'python app.py data refresh' "
            "(needs network) or point CHIQA_DATA_DIR at a complete export."
        )
        error.problems = {key: f"{ds.file} is missing" for key, ds in DATASETS.items() if ds.file in missing}
        raise error
    checks = verify(data_dir)
    cache_dir = var_dir(settings) / settings.data.cache_dir
    key = {"version": CACHE_VERSION, "sources": {c.file: c.sha256 for c in checks.values()}}
    tables, note = read_cache(cache_dir, key, _TABLE_KEYS) if use_cache else (None, "cache not used")
    from_cache = tables is not None
    if tables is None:
        if use_cache and note not in ("no cache yet", "the source files changed"):
            log.warning("rebuilding the data cache in %s: %s", cache_dir, note)
        try:
            tables = _read_all(data_dir)
        except DataIntegrityError as exc:
            exc.checks = checks  # the files passed their checks; the named ones would not type
            raise
        if use_cache:
            written = write_cache(cache_dir, key, tables)
            note = f"{note}; {written}" if written else note
    bundle = DataBundle(data_dir=data_dir, tables=tables, coverage=_coverage(tables), from_cache=from_cache,
                        checks=checks, cache_note=note)
    bundle.load_ms = round((time.perf_counter() - started) * 1000, 1)
    return bundle


_TABLE_KEYS = ["community_areas", "homicides", "iucr", "socioeconomic", "census_acs", "population_2010",
               "zip_crosswalk", "submarket_crosswalk", "zhvi", "ihs_index", "ihs_summary", "police_stations",
               "police_headquarters", "ward_offices"]


_SHARED: dict = {}  # (data folder, cache folder) -> bundle
_LOCK = threading.Lock()


def shared_data(settings: Settings | None = None) -> DataBundle:
    """The process-wide bundle for these settings' data folder, loaded on first use (a failed load is
    not remembered, so a repaired file is picked up by the next call)."""
    settings = settings if settings is not None else load_settings()
    data_dir = resolve_data_dir(settings)
    key = (str(data_dir), str(var_dir(settings) / settings.data.cache_dir))
    with _LOCK:
        if key not in _SHARED:
            _SHARED[key] = load_data(settings, data_dir=data_dir)
        return _SHARED[key]
