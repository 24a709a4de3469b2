"""Read every source CSV once, type it, and keep a parquet cache so warm starts are fast.

Typing rules: community areas are 1-77 integers, wards 1-50, districts the real CPD set,
dates parsed, names canonical. The cache is keyed on each source file's size and mtime,
so a refreshed CSV is re-read automatically.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from settings.loader import (
    DataNotFoundError,
    load_settings,
    resolve_data_dir,
    var_dir,
)
from settings.schema import Settings
from tools.data.datasets import DATASETS
from tools.data.geography import Gazetteer
from tools.data.integrity import check_files

CACHE_VERSION = 3  # bump when the typing below changes

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


def _read_police_stations(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path, dtype=str)
    df = df[pd.to_numeric(df["DISTRICT"], errors="coerce").notna()]
    return pd.DataFrame({
        "district": df["DISTRICT"].astype(int).astype("int16"),
        "name": df["DISTRICT NAME"].str.strip(),
        "address": df["ADDRESS"].str.strip(),
    }).sort_values("district").reset_index(drop=True)


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
    return {
        "homicides": {"start": h["date"].min().date().isoformat(), "end": h["date"].max().date().isoformat(),
                      "rows": int(len(h)), "first_year": int(h["year"].min()), "last_year": int(h["year"].max())},
        "iucr": {"rows": int(len(tables["iucr"]))},
        "socioeconomic": {"start": "2008", "end": "2012", "rows": int((tables["socioeconomic"]["area_number"] > 0).sum())},
        "census_acs": {"start": str(acs_year - 4), "end": str(acs_year), "vintage": acs_year,
                       "rows": int(len(tables["census_acs"]))},
        "population_2010": {"start": "2010", "end": "2010", "rows": int(len(tables["population_2010"]))},
        "zhvi": {"start": z["date"].min().strftime("%Y-%m"), "end": z["date"].max().strftime("%Y-%m"),
                 "rows": int(len(tables["zhvi"])), "zips": int(z["zip"].nunique())},
        "ihs_index": {"start": ihs["yearq"].min(), "end": ihs["yearq"].max(), "rows": int(len(ihs))},
        "community_areas": {"rows": int(len(tables["community_areas"]))},
    }


# ------------------------------------------------------------------ load with cache

def _read_all(data_dir: Path) -> dict:
    def p(key):
        return data_dir / DATASETS[key].file

    areas = _read_community_areas(p("community_areas"))
    return {
        "community_areas": areas,
        "homicides": _read_homicides(p("homicides")),
        "iucr": _read_iucr(p("iucr")),
        "socioeconomic": _read_socioeconomic(p("socioeconomic"), areas),
        "census_acs": _read_census_acs(p("census_acs"), areas),
        "population_2010": _read_population_2010(p("population_2010")),
        "zip_crosswalk": _read_zip_crosswalk(p("zip_crosswalk")),
        "submarket_crosswalk": _read_submarket_crosswalk(p("submarket_crosswalk")),
        "zhvi": _read_zhvi(p("zhvi")),
        "ihs_index": _read_ihs_index(p("ihs_index")),
        "police_stations": _read_police_stations(p("police_stations")),
        "ward_offices": _read_ward_offices(p("ward_offices")),
    }


def _signature(data_dir: Path) -> dict:
    sig = {"version": CACHE_VERSION, "data_dir": str(data_dir)}
    for ds in DATASETS.values():
        stat = (data_dir / ds.file).stat()
        sig[ds.file] = [stat.st_size, stat.st_mtime_ns]
    return sig


def missing_files(data_dir: Path) -> list[str]:
    return [ds.file for ds in DATASETS.values() if not (data_dir / ds.file).is_file()]


def load_data(settings: Settings | None = None, data_dir: Path | None = None, use_cache: bool = True) -> DataBundle:
    """Load (from the parquet cache when it is current) every table the tools need."""
    import time

    started = time.perf_counter()
    settings = settings if settings is not None else load_settings()
    data_dir = Path(data_dir) if data_dir else resolve_data_dir(settings)
    missing = missing_files(data_dir)
    if missing:
        raise DataNotFoundError(
            f"The data folder {data_dir} lacks {', '.join(missing)}. Run 'python app.py data refresh' "
            "(needs network) or point CHIQA_DATA_DIR at a complete export."
        )
    cache_dir = var_dir(settings) / settings.data.cache_dir
    manifest = cache_dir / "manifest.json"
    signature = _signature(data_dir)
    tables, from_cache = None, False
    if use_cache and manifest.is_file():
        try:
            if json.loads(manifest.read_text()) == signature:
                tables = {key: pd.read_parquet(cache_dir / f"{key}.parquet") for key in _TABLE_KEYS}
                from_cache = True
        except Exception:  # a damaged cache is rebuilt, never fatal
            tables = None
    if tables is None:
        # Checked whenever the files are read (the cache is keyed on size and mtime, so a changed file is too).
        check_files(data_dir, [ds.file for ds in DATASETS.values()])
        tables = _read_all(data_dir)
        if use_cache:
            _write_cache(cache_dir, tables, signature)
    bundle = DataBundle(data_dir=data_dir, tables=tables, coverage=_coverage(tables), from_cache=from_cache)
    bundle.load_ms = round((time.perf_counter() - started) * 1000, 1)
    return bundle


_TABLE_KEYS = ["community_areas", "homicides", "iucr", "socioeconomic", "census_acs", "population_2010",
               "zip_crosswalk", "submarket_crosswalk", "zhvi", "ihs_index", "police_stations", "ward_offices"]


def _write_cache(cache_dir: Path, tables: dict, signature: dict) -> None:
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for key, df in tables.items():
            tmp = cache_dir / f".{key}.parquet.tmp"
            df.to_parquet(tmp, index=False)
            tmp.replace(cache_dir / f"{key}.parquet")
        tmp = cache_dir / ".manifest.tmp"
        tmp.write_text(json.dumps(signature))
        tmp.replace(cache_dir / "manifest.json")
    except OSError:
        pass  # a read-only var dir only costs speed


_SHARED: tuple[tuple, DataBundle] | None = None
_LOCK = threading.Lock()


def shared_data(settings: Settings | None = None) -> DataBundle:
    """The process-wide bundle, loaded on first use.

    Keyed on the data folder and cache it came from, so an app built with another data folder in the
    same process (tests, a reconfigured server) never answers from the first folder's tables."""
    global _SHARED
    settings = settings or load_settings()
    key = (str(resolve_data_dir(settings)), str(var_dir(settings) / settings.data.cache_dir))
    with _LOCK:
        if _SHARED is None or _SHARED[0] != key:
            _SHARED = (key, load_data(settings))
        return _SHARED[1]
