"""``python app.py data refresh``: re-download the datasets into the data folder, safely.

Every dataset is fetched into memory (Socrata, paged) or into a temporary file in the
destination folder (publisher CSVs), rewritten in exactly the column layout that
``tools.data_loader`` reads, validated (required columns, rows > 0, and the loader's own
reader must accept it), and only then moved over the old file with ``os.replace``. A failed,
partial, empty or malformed download therefore never touches the data already there.

Beside each refreshed file goes ``<file>.meta.json`` (source, fetched_at, row count,
coverage) and the folder keeps a ``refresh_manifest.json`` with the last run per dataset.
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
import logging
import math
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable
from urllib.parse import urlparse

import requests

from settings import PROJECT_ROOT, DataNotFoundError, get_dotted, resolve_data_dir, var_dir
from tools.datasets import DATASETS, Dataset

# Tests replace this (monkeypatch) so retries do not really wait.
SLEEP: Callable[[float], None] = time.sleep

MANIFEST_NAME = "refresh_manifest.json"
SOCRATA_DATE_FORMAT = "%m/%d/%Y %I:%M:%S %p"  # the portal's CSV export format
# Refresh order: the community-area lookup first, because later validations join on it.
REFRESH_ORDER = ["community_areas", "homicides", "iucr", "socioeconomic", "census_acs", "police_stations",
                 "ward_offices", "zhvi", "ihs_index"]
# Files computed from other files or copied from a static page: nothing to re-download.
NOT_DOWNLOADABLE = {
    "population_2010": "static 2010 Census table, not re-downloadable",
    "zip_crosswalk": "derived from boundary polygons, not re-downloadable",
    "submarket_crosswalk": "derived from boundary polygons, not re-downloadable",
}


class RefreshError(Exception):
    """One dataset could not be refreshed; the message says why (the old file is untouched)."""


# ================================================================== value converters

def _blank(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value == ""


def _text(value) -> str:
    if _blank(value):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        if "url" in value:  # Socrata URL columns: {"url": "..."}
            return str(value["url"])
        point = _point(value)
        if point:
            return f"({point[0]}, {point[1]})"
        return json.dumps(value, sort_keys=True)
    if isinstance(value, list):
        return json.dumps(value)
    return str(value)


def _point(value) -> tuple | None:
    """(lat, lon) from a Socrata location ({latitude, longitude}) or a GeoJSON Point."""
    if not isinstance(value, dict):
        return None
    if "latitude" in value and "longitude" in value:
        return value["latitude"], value["longitude"]
    coords = value.get("coordinates")
    if value.get("type") == "Point" and isinstance(coords, list) and len(coords) >= 2:
        return coords[1], coords[0]
    return None


def _bool_title(value) -> str:
    """Crimes export style: True / False."""
    if _blank(value):
        return ""
    if isinstance(value, str):
        return {"true": "True", "false": "False"}.get(value.strip().lower(), value)
    return "True" if value else "False"


def _bool_lower(value) -> str:
    """IUCR export style: true / false."""
    out = _bool_title(value)
    return out.lower() if out in ("True", "False") else out


def _code(value) -> str:
    """Numeric codes ('017', '17.0', 17) as a plain integer string; anything else unchanged."""
    if _blank(value):
        return ""
    text = str(value).strip()
    try:
        number = float(text)
    except ValueError:
        return text
    return str(int(number)) if number.is_integer() else text


def _iucr(value) -> str:
    text = _text(value).strip()
    return text.zfill(4) if text.isdigit() else text


def _socrata_date(value) -> str:
    """'2023-06-28T23:04:00.000' -> '06/28/2023 11:04:00 PM' (the portal's CSV export)."""
    if _blank(value):
        return ""
    text = str(value).strip()
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).strftime(SOCRATA_DATE_FORMAT)
    except ValueError as exc:
        raise RefreshError(f"unexpected date value {text!r}") from exc


def _json_name(header: str) -> list[str]:
    """Likely SODA field names for a CSV export header ('PER CAPITA INCOME ' -> per_capita_income_)."""
    name = re.sub(r"[^a-z0-9]+", "_", header.lower())
    return list(dict.fromkeys([name, name.strip("_")]))


@dataclass(frozen=True)
class Column:
    header: str  # the CSV export header the loader reads
    fields: tuple = ()  # SODA JSON field names to try, in order (default: derived from header)
    convert: Callable = _text
    derive: Callable | None = None  # row -> value, used when no field is present

    def value(self, row: dict) -> str:
        for name in self.fields or _json_name(self.header):
            if name in row and not _blank(row[name]):
                return self.convert(row[name])
        return self.derive(row) if self.derive else ""


def _location_from_row(row: dict) -> str:
    lat, lon = row.get("latitude"), row.get("longitude")
    return "" if _blank(lat) or _blank(lon) else f"({lat}, {lon})"


def _location(value) -> str:
    point = _point(value)
    return f"({point[0]}, {point[1]})" if point else _text(value)


HOMICIDE_COLUMNS = [
    Column("ID", ("id",)), Column("Case Number", ("case_number",)), Column("Date", ("date",), _socrata_date),
    Column("Block", ("block",)), Column("IUCR", ("iucr",), _iucr), Column("Primary Type", ("primary_type",)),
    Column("Description", ("description",)), Column("Location Description", ("location_description",)),
    Column("Arrest", ("arrest",), _bool_title), Column("Domestic", ("domestic",), _bool_title),
    Column("Beat", ("beat",), _code), Column("District", ("district",), _code), Column("Ward", ("ward",), _code),
    Column("Community Area", ("community_area",), _code), Column("FBI Code", ("fbi_code",)),
    Column("X Coordinate", ("x_coordinate",)), Column("Y Coordinate", ("y_coordinate",)),
    Column("Year", ("year",), _code), Column("Updated On", ("updated_on",), _socrata_date),
    Column("Latitude", ("latitude",)), Column("Longitude", ("longitude",)),
    Column("Location", ("location",), _location, _location_from_row),
]
IUCR_COLUMNS = [
    Column("IUCR", ("iucr",), _iucr), Column("PRIMARY DESCRIPTION", ("primary_description",)),
    Column("SECONDARY DESCRIPTION", ("secondary_description",)), Column("INDEX CODE", ("index_code",)),
    Column("ACTIVE", ("active",), _bool_lower),
]
SOCIO_COLUMNS = [
    Column("Community Area Number", ("ca", "community_area_number"), _code),
    Column("COMMUNITY AREA NAME", ("community_area_name",)),
    Column("PERCENT OF HOUSING CROWDED"), Column("PERCENT HOUSEHOLDS BELOW POVERTY"),
    Column("PERCENT AGED 16+ UNEMPLOYED"), Column("PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA"),
    Column("PERCENT AGED UNDER 18 OR OVER 64"), Column("PER CAPITA INCOME "), Column("HARDSHIP INDEX"),
]
ACS_FIELDS = [
    "acs_year", "community_area", "under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000",
    "_125_000", "male_0_to_17", "male_18_to_24", "male_25_to_34", "male_35_to_49", "male_50_to_64", "male_65",
    "female_0_to_17", "female_18_to_24", "female_25_to_34", "female_35_to_49", "female_50_to_64", "female_65",
    "total_population", "white", "black_or_african_american", "american_indian_or_alaska", "asian",
    "native_hawaiin_or_pacific", "other_race", "multiracial", "white_not_hispanic_or_latino",
    "hispanic_or_latino", "record_id",
]
ACS_COLUMNS = [Column(name, (name,)) for name in ACS_FIELDS]
POLICE_COLUMNS = [
    Column("DISTRICT", ("district",), _code), Column("DISTRICT NAME"), Column("ADDRESS"), Column("CITY"),
    Column("STATE"), Column("ZIP", ("zip",), _code), Column("COMMUNITY AREA", ("community_area",), _code),
    Column("WEBSITE"), Column("PHONE"), Column("FAX"), Column("TTY"), Column("X COORDINATE"),
    Column("Y COORDINATE"), Column("LATITUDE"), Column("LONGITUDE"),
    Column("LOCATION", ("location",), _location, _location_from_row),
]
WARD_COLUMNS = [
    Column("WARD", ("ward",), _code), Column("ALDERMAN", ("alderman", "alderperson")), Column("ADDRESS"),
    Column("CITY"), Column("STATE"), Column("ZIPCODE", ("zipcode", "zip_code", "zip")), Column("WARD PHONE"),
    Column("WARD FAX"), Column("EMAIL"), Column("WEBSITE"), Column("LOCATION", ("location",), _location),
    Column("CITY HALL ADDRESS"), Column("CITY HALL CITY"), Column("CITY HALL STATE"),
    Column("CITY HALL ZIPCODE"), Column("CITY HALL PHONE"),
]
COMMUNITY_AREA_HEADERS = ["area_number", "community", "name_socioeconomic", "area_sq_mi", "label_lat", "label_lon"]


@dataclass(frozen=True)
class SocrataSpec:
    columns: list
    required: tuple  # headers that must be non-blank in every row
    date_column: str | None = None  # for coverage


SOCRATA_SPECS = {
    "homicides": SocrataSpec(HOMICIDE_COLUMNS, ("ID", "Date"), "Date"),
    "iucr": SocrataSpec(IUCR_COLUMNS, ("IUCR",)),
    "socioeconomic": SocrataSpec(SOCIO_COLUMNS, ("COMMUNITY AREA NAME",)),
    "census_acs": SocrataSpec(ACS_COLUMNS, ("acs_year", "community_area")),
    "police_stations": SocrataSpec(POLICE_COLUMNS, ("DISTRICT",)),
    "ward_offices": SocrataSpec(WARD_COLUMNS, ("WARD",)),
}


# ================================================================== community-area geometry

EARTH_RADIUS_MI = 3958.8
REFERENCE_LAT = 41.84  # local equirectangular projection, as used for the shipped lookup


def _polygons(geom) -> list:
    """A GeoJSON (Multi)Polygon as a list of polygons, each a list of rings of (lon, lat)."""
    if not isinstance(geom, dict):
        return []
    coords = geom.get("coordinates") or []
    if geom.get("type") == "Polygon":
        coords = [coords]
    elif geom.get("type") != "MultiPolygon":
        return []
    return [[[(float(p[0]), float(p[1])) for p in ring] for ring in poly if ring] for poly in coords if poly]


def _ring_area_xy(ring) -> float:
    """Signed planar area of a (lon, lat) ring in square miles (equirectangular projection)."""
    kx = EARTH_RADIUS_MI * math.radians(1) * math.cos(math.radians(REFERENCE_LAT))
    ky = EARTH_RADIUS_MI * math.radians(1)
    total = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        total += (x1 * kx) * (y2 * ky) - (x2 * kx) * (y1 * ky)
    return total / 2.0


def _polygon_area(poly) -> float:
    return abs(_ring_area_xy(poly[0])) - sum(abs(_ring_area_xy(r)) for r in poly[1:])


def _inside(x: float, y: float, poly) -> bool:
    hits = 0
    for ring in poly:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hits += 1
    return hits % 2 == 1


def _label_point(poly) -> tuple | None:
    """A point inside the polygon: the ring centroid if inside, else the middle of the widest
    horizontal run across the polygon at the centroid's latitude."""
    ring = poly[0]
    cx = cy = twice_area = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        cross = x1 * y2 - x2 * y1
        twice_area += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if not twice_area:
        return None
    cx, cy = cx / (3 * twice_area), cy / (3 * twice_area)
    if _inside(cx, cy, poly):
        return cy, cx
    xs = []
    for r in poly:
        for (x1, y1), (x2, y2) in zip(r, r[1:] + r[:1]):
            if (y1 > cy) != (y2 > cy):
                xs.append(x1 + (cy - y1) * (x2 - x1) / (y2 - y1))
    xs.sort()
    runs = [(xs[i + 1] - xs[i], (xs[i] + xs[i + 1]) / 2) for i in range(0, len(xs) - 1, 2)]
    return (cy, max(runs)[1]) if runs else None


def community_area_rows(raw: list[dict], known_names: dict[int, str]) -> list[dict]:
    """igwz-8jzy JSON rows -> the community_areas.csv lookup rows."""
    from tools.data_loader import canonical_area_name

    out = {}
    for row in raw:
        number = _code(row.get("area_numbe") or row.get("area_number") or row.get("area_num_1"))
        community = _text(row.get("community")).strip().upper()
        if not number.isdigit() or not community:
            raise RefreshError(f"community area row without a number or name: {sorted(row)[:6]}")
        number_i = int(number)
        polys = _polygons(row.get("the_geom") or row.get("geometry") or row.get("multipolygon"))
        area_sq_mi, label = "", ("", "")
        if polys:
            area_sq_mi = f"{sum(_polygon_area(p) for p in polys):.3f}"
            point = _label_point(max(polys, key=_polygon_area))
            if point:
                label = (f"{point[0]:.6f}", f"{point[1]:.6f}")
        elif not _blank(row.get("shape_area")):
            area_sq_mi = f"{float(row['shape_area']) / 27878400.0:.3f}"  # State Plane square feet
        out[number_i] = {
            "area_number": str(number_i), "community": community,
            "name_socioeconomic": known_names.get(number_i) or canonical_area_name(community),
            "area_sq_mi": area_sq_mi, "label_lat": label[0], "label_lon": label[1],
        }
    return [out[k] for k in sorted(out)]


def _known_socioeconomic_names(dest: Path) -> dict[int, str]:
    """Names as spelled in socioeconomic.csv, from the lookup or the socioeconomic file already there."""
    names: dict[int, str] = {}
    with contextlib.suppress(OSError, ValueError, KeyError, csv.Error):
        with open(dest / DATASETS["socioeconomic"].file, encoding="utf-8-sig", newline="") as fh:
            for row in csv.DictReader(fh):
                number = _code(row.get("Community Area Number"))
                if number.isdigit():
                    names[int(number)] = (row.get("COMMUNITY AREA NAME") or "").strip()
    with contextlib.suppress(OSError, ValueError, KeyError, csv.Error):
        with open(dest / DATASETS["community_areas"].file, encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                if row.get("name_socioeconomic"):
                    names[int(row["area_number"])] = row["name_socioeconomic"]
    return {k: v for k, v in names.items() if v}


# ================================================================== network helpers

def _classify(exc: Exception) -> tuple[bool, str]:
    """(worth retrying?, human description) for an exception raised while fetching."""
    if isinstance(exc, RefreshError):
        return False, str(exc)
    if isinstance(exc, (json.JSONDecodeError, requests.exceptions.JSONDecodeError)):
        return False, "malformed JSON in the response"
    if isinstance(exc, requests.HTTPError):
        status = getattr(exc.response, "status_code", None)
        reason = getattr(exc.response, "reason", "") or ""
        return (status is not None and (status >= 500 or status == 429)), f"HTTP {status} {reason}".strip()
    if isinstance(exc, requests.exceptions.ChunkedEncodingError):
        return True, "the connection broke off mid-download"
    if isinstance(exc, requests.Timeout):
        return True, "the request timed out"
    if isinstance(exc, requests.ConnectionError):
        text = str(exc)
        if any(s in text for s in ("NameResolution", "Name or service not known", "nodename nor servname",
                                   "Temporary failure in name resolution", "No address associated")):
            return False, "could not resolve the host name (no network?)"
        return True, "could not connect (no network?)"
    if isinstance(exc, requests.RequestException):
        return False, f"request failed: {exc.__class__.__name__}"
    return False, f"{exc.__class__.__name__}: {exc}"


@dataclass
class Fetcher:
    """Retries with exponential backoff; remembers hosts that were unreachable in this run."""

    retries: int = 3
    backoff: float = 1.0
    sleep: Callable[[float], None] = time.sleep
    dead_hosts: dict = field(default_factory=dict)

    def call(self, host: str, what: str, fn: Callable):
        if host in self.dead_hosts:
            raise RefreshError(f"skipped: {host} was unreachable earlier in this run")
        attempt = 0
        while True:
            try:
                return fn()
            except Exception as exc:  # classified below; nothing escapes as a traceback
                transient, description = _classify(exc)
                if transient and attempt < self.retries:
                    self.sleep(self.backoff * (2 ** attempt))
                    attempt += 1
                    continue
                tries = f" after {attempt + 1} attempts" if attempt else ""
                if isinstance(exc, requests.ConnectionError):
                    self.dead_hosts[host] = description
                raise RefreshError(f"{what}: {description}{tries}") from exc


def _progress(desc: str, total=None, unit="rows"):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, unit_scale=True, leave=False, file=sys.stderr,
                disable=not sys.stderr.isatty())


@contextlib.contextmanager
def _quiet_sodapy():
    """sodapy logs its own no-token warning; the command prints a clearer note once."""
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(previous)


def socrata_client(settings: dict, token: str | None):
    from sodapy import Socrata

    domain = get_dotted(settings, "socrata.domain", "data.cityofchicago.org")
    timeout = float(get_dotted(settings, "socrata.timeout_seconds", 60))
    with _quiet_sodapy():
        return Socrata(domain, token, timeout=timeout)


def fetch_socrata(client, ds: Dataset, page_size: int, fetcher: Fetcher) -> list[dict]:
    """All rows of one dataset, page by page (ordered by :id so pages are stable)."""
    rows: list[dict] = []
    offset = 0
    with _progress(ds.key) as bar:
        while True:
            page = fetcher.call(
                client.domain, f"{ds.key} ({ds.portal_id}) offset {offset}",
                lambda: client.get(ds.portal_id, where=ds.soql_where, limit=page_size, offset=offset, order=":id"),
            )
            if not isinstance(page, list) or any(not isinstance(r, dict) for r in page):
                raise RefreshError(f"{ds.key} ({ds.portal_id}): malformed JSON (expected a list of records, "
                                   f"got {type(page).__name__})")
            if len(page) > page_size:
                raise RefreshError(f"{ds.key} ({ds.portal_id}): the portal returned {len(page)} rows for a page of "
                                   f"{page_size}; paging is not working, giving up")
            if page and rows and offset >= page_size and page[0] == rows[offset - page_size]:
                raise RefreshError(f"{ds.key} ({ds.portal_id}): offset {offset} returned the previous page again; "
                                   "paging is not working, giving up")
            rows.extend(page)
            bar.update(len(page))
            if len(page) < page_size:
                return rows
            offset += page_size


def download(url: str, target: Path, timeout: float, fetcher: Fetcher, what: str) -> None:
    """Stream ``url`` into ``target`` (a temp file in the destination folder)."""
    host = urlparse(url).netloc

    def attempt():
        with requests.get(url, stream=True, timeout=timeout) as resp:
            resp.raise_for_status()
            total = int(resp.headers.get("content-length") or 0) or None
            with open(target, "wb") as fh, _progress(what, total=total, unit="B") as bar:
                for chunk in resp.iter_content(chunk_size=1 << 16):
                    fh.write(chunk)
                    bar.update(len(chunk))

    fetcher.call(host, f"{what} ({host})", attempt)


# ================================================================== atomic writes and validation

@contextlib.contextmanager
def _temp_in(dest: Path, name: str):
    """A temp path in ``dest`` (same filesystem, so os.replace is atomic); removed unless consumed."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=dest)
    os.close(fd)
    try:
        yield Path(tmp)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _write_csv(path: Path, headers: list[str], rows: list[list[str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)


def _check_loader(key: str, path: Path, dest: Path) -> None:
    """The loader's own reader must accept the new file (raises RefreshError otherwise)."""
    from tools import data_loader as dl

    readers = {
        "homicides": dl._read_homicides, "iucr": dl._read_iucr, "zhvi": dl._read_zhvi,
        "ihs_index": dl._read_ihs_index, "police_stations": dl._read_police_stations,
        "ward_offices": dl._read_ward_offices, "community_areas": dl._read_community_areas,
    }
    try:
        if key in readers:
            df = readers[key](path)
        elif key in ("socioeconomic", "census_acs"):
            areas_file = dest / DATASETS["community_areas"].file
            if not areas_file.is_file():
                return  # nothing to join against yet; the column checks already ran
            areas = dl._read_community_areas(areas_file)
            df = (dl._read_socioeconomic if key == "socioeconomic" else dl._read_census_acs)(path, areas)
        else:
            return
    except Exception as exc:
        raise RefreshError(f"the new {DATASETS[key].file} does not load: {exc.__class__.__name__}: {exc}") from exc
    if len(df) == 0:
        raise RefreshError(f"the new {DATASETS[key].file} has no usable rows")


def _date_coverage(values) -> dict | None:
    dates = [datetime.strptime(v, SOCRATA_DATE_FORMAT) for v in values if v]
    if not dates:
        return None
    return {"first": min(dates).date().isoformat(), "last": max(dates).date().isoformat()}


@dataclass
class Outcome:
    key: str
    status: str  # ok | failed | kept | missing
    rows: int | None = None
    coverage: dict | None = None
    elapsed: float = 0.0
    message: str = ""
    meta: dict | None = None


def _install(key: str, tmp: Path, dest: Path, rows: int, coverage: dict | None, source: dict) -> dict:
    """Move the validated temp file into place and write its .meta.json."""
    ds = DATASETS[key]
    final = dest / ds.file
    os.replace(tmp, final)
    meta = {
        "dataset": key, "file": ds.file, "title": ds.title, "source": ds.publisher, **source,
        "fetched_at": datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "row_count": rows, "coverage": coverage, "bytes": final.stat().st_size, "licence": ds.licence,
    }
    _write_json(dest / f"{ds.file}.meta.json", meta)
    return meta


def _write_json(path: Path, payload: dict) -> None:
    with _temp_in(path.parent, path.name) as tmp:
        tmp.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
        os.replace(tmp, path)


# ================================================================== per-source refreshers

def refresh_socrata(key: str, dest: Path, client, page_size: int, fetcher: Fetcher) -> tuple[int, dict | None, dict]:
    ds = DATASETS[key]
    raw = fetch_socrata(client, ds, page_size, fetcher)
    label = f"{key} ({ds.portal_id})"
    if not raw:
        where = f" with filter {ds.soql_where!r}" if ds.soql_where else ""
        raise RefreshError(f"{label}: the portal returned 0 rows{where}; refusing to replace the existing file")
    source = {"portal_id": ds.portal_id, "domain": client.domain, "soql_where": ds.soql_where,
              "url": f"https://{client.domain}/resource/{ds.portal_id}.json"}
    if key == "community_areas":
        rows = community_area_rows(raw, _known_socioeconomic_names(dest))
        headers, table = COMMUNITY_AREA_HEADERS, [[r[h] for h in COMMUNITY_AREA_HEADERS] for r in rows]
        numbers = {int(r["area_number"]) for r in rows}
        if not numbers <= set(range(1, 78)):
            raise RefreshError(f"{label}: area numbers outside 1-77: {sorted(numbers - set(range(1, 78)))}")
        coverage = None
    else:
        spec = SOCRATA_SPECS[key]
        present = set().union(*(r.keys() for r in raw))
        for col in spec.columns:
            if col.header in spec.required and not (set(col.fields or _json_name(col.header)) & present):
                raise RefreshError(f"{label}: required field for {col.header!r} missing from the response "
                                   f"(fields seen: {', '.join(sorted(present)[:12])})")
        headers = [c.header for c in spec.columns]
        try:
            table = [[c.value(r) for c in spec.columns] for r in raw]
        except RefreshError as exc:
            raise RefreshError(f"{label}: {exc}") from exc
        for col in spec.required:
            idx = headers.index(col)
            blanks = sum(1 for r in table if not r[idx])
            if blanks:
                raise RefreshError(f"{label}: {blanks} rows have no {col!r}")
        coverage = None
        if spec.date_column:
            coverage = _date_coverage(r[headers.index(spec.date_column)] for r in table)
        if key == "census_acs":
            years = sorted({r[0] for r in table})
            coverage = {"first": years[0], "last": years[-1]}
    with _temp_in(dest, ds.file) as tmp:
        _write_csv(tmp, headers, table)
        _check_loader(key, tmp, dest)
        meta = _install(key, tmp, dest, len(table), coverage, source)
    return len(table), coverage, meta


ZHVI_HEADERS = ["RegionName", "RegionID", "City", "CountyName", "Year", "Month", "price"]
ZHVI_ID_COLUMNS = ("RegionID", "RegionName", "City", "State", "CountyName")
MONTH_COLUMN = re.compile(r"^(\d{4})-(\d{2})-\d{2}$")


def zhvi_wide_to_long(src, out) -> tuple[int, int, dict | None]:
    """Zillow's wide ZIP file (one column per month, all US ZIPs) -> Chicago ZIPs, long layout.

    Returns (rows written, ZIPs, coverage of the months that have a value)."""
    reader = csv.reader(src)
    try:
        header = next(reader)
    except StopIteration:
        raise RefreshError("the Zillow file is empty") from None
    header = [h.strip().lstrip("\ufeff") for h in header]
    missing = [c for c in ZHVI_ID_COLUMNS if c not in header]
    months = [(i, int(m.group(1)), int(m.group(2))) for i, h in enumerate(header) if (m := MONTH_COLUMN.match(h))]
    if missing or not months:
        raise RefreshError(f"the Zillow file lacks columns {missing or ['YYYY-MM-DD month columns']}")
    idx = {c: header.index(c) for c in ZHVI_ID_COLUMNS}
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(ZHVI_HEADERS)
    rows, zips, first, last = 0, 0, None, None
    for rec in reader:
        if len(rec) < len(header) or rec[idx["City"]].strip() != "Chicago" or rec[idx["State"]].strip() != "IL":
            continue
        zips += 1
        zip_code = rec[idx["RegionName"]].strip().zfill(5)
        for i, year, month in months:
            price = rec[i].strip()
            writer.writerow([zip_code, rec[idx["RegionID"]], rec[idx["City"]], rec[idx["CountyName"]],
                             year, month, price])
            rows += 1
            if price:
                stamp = f"{year:04d}-{month:02d}"
                first = stamp if first is None or stamp < first else first
                last = stamp if last is None or stamp > last else last
    return rows, zips, ({"first": first, "last": last} if first else None)


def refresh_zhvi(dest: Path, timeout: float, fetcher: Fetcher) -> tuple[int, dict | None, dict]:
    ds = DATASETS["zhvi"]
    with _temp_in(dest, ds.file + ".download") as raw, _temp_in(dest, ds.file) as tmp:
        download(ds.url, raw, timeout, fetcher, "zhvi")
        with open(raw, encoding="utf-8-sig", newline="") as src, open(tmp, "w", encoding="utf-8", newline="") as out:
            rows, zips, coverage = zhvi_wide_to_long(src, out)
        if not rows:
            raise RefreshError("zhvi: no Chicago, IL ZIP rows in the Zillow file; refusing to replace the existing file")
        _check_loader("zhvi", tmp, dest)
        meta = _install("zhvi", tmp, dest, rows, coverage, {"url": ds.url, "zips": zips,
                                                            "transform": "City == Chicago and State == IL, wide to long"})
    return rows, coverage, meta


YEARQ = re.compile(r"^\d{4}Q[1-4]$")


def validate_ihs(text: str) -> tuple[int, dict]:
    """The IHS quarterly file: row 1 submarket codes, row 2 names (YEARQ, COOK, ...), then quarters."""
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) < 3:
        raise RefreshError("ihs_index: the file has fewer than 3 lines")
    codes, names = rows[0], rows[1]
    if codes[0].strip() or not any(re.fullmatch(r"p\d{4}", c.strip()) for c in codes):
        raise RefreshError("ihs_index: the first header row (submarket codes like p3101) is missing")
    if names[0].strip().upper() != "YEARQ" or "CHICAGO" not in [n.strip().upper() for n in names]:
        raise RefreshError("ihs_index: the second header row (YEARQ, COOK, CHICAGO, ...) is missing")
    quarters = [r[0].strip() for r in rows[2:] if r and YEARQ.match(r[0].strip())]
    if not quarters:
        raise RefreshError("ihs_index: no quarterly rows (like 2025Q4) found")
    return len(quarters), {"first": min(quarters), "last": max(quarters)}


def refresh_ihs(dest: Path, timeout: float, fetcher: Fetcher) -> tuple[int, dict | None, dict]:
    ds = DATASETS["ihs_index"]
    with _temp_in(dest, ds.file) as tmp:
        download(ds.url, tmp, timeout, fetcher, "ihs_index")
        try:
            text = tmp.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RefreshError("ihs_index: the download is not UTF-8 text") from exc
        rows, coverage = validate_ihs(text)
        _check_loader("ihs_index", tmp, dest)
        meta = _install("ihs_index", tmp, dest, rows, coverage, {"url": ds.url, "stored": "as published"})
    return rows, coverage, meta


# ================================================================== the command

def default_destination(settings: dict) -> Path:
    """data.dir / CHIQA_DATA_DIR when configured, else <var_dir>/data (never ../shared/data by default)."""
    configured = get_dotted(settings, "data.dir")
    if configured:
        path = Path(configured).expanduser()
        return path if path.is_absolute() else PROJECT_ROOT / path
    return var_dir(settings) / "data"


def _seed_missing(dest: Path, source: Path | None) -> list[str]:
    """Copy catalogue files the destination lacks from the current data folder, so it is complete."""
    if source is None or not source.is_dir() or source.resolve() == dest.resolve():
        return []
    copied = []
    for ds in DATASETS.values():
        src, final = source / ds.file, dest / ds.file
        if src.is_file() and not final.exists():
            with _temp_in(dest, ds.file) as tmp:
                shutil.copyfile(src, tmp)
                os.replace(tmp, final)
            copied.append(ds.file)
    return copied


def _update_manifest(dest: Path, outcomes: list[Outcome]) -> Path:
    path = dest / MANIFEST_NAME
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(manifest, dict):
            raise ValueError
    except (OSError, ValueError):
        manifest = {}
    now = datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    entries = manifest.get("datasets") if isinstance(manifest.get("datasets"), dict) else {}
    for o in outcomes:
        entry = dict(entries.get(o.key) or {})
        entry.update({"file": DATASETS[o.key].file, "last_attempt_at": now, "last_status": o.status})
        if o.status == "ok":
            entry.update({k: o.meta.get(k) for k in ("fetched_at", "row_count", "coverage", "portal_id", "url")
                          if o.meta and k in o.meta})
            entry.pop("last_error", None)
        elif o.status == "failed":
            entry["last_error"] = o.message
        else:
            entry["note"] = o.message
        entries[o.key] = entry
    manifest.update({"updated_at": now, "data_dir": str(dest), "datasets": entries})
    _write_json(path, manifest)
    return path


def _format_line(o: Outcome) -> str:
    status = {"ok": "ok", "failed": "FAILED", "kept": "kept", "missing": "missing"}[o.status]
    elapsed = f"  [{o.elapsed:.1f}s]" if o.status in ("ok", "failed") else ""
    if o.status == "ok":
        cov = f"  {o.coverage['first']} .. {o.coverage['last']}" if o.coverage else ""
        return f"  {status:<7} {o.key:<20} {o.rows:>9,} rows{cov}{elapsed}"
    return f"  {status:<7} {o.key:<20} {o.message}{elapsed}"


def refresh(keys: list[str], dest: Path, settings: dict, *, sleep: Callable | None = None,
            seed_from: Path | None = None, out=None) -> list[Outcome]:
    """Refresh ``keys`` into ``dest``; one Outcome per dataset (failures never raise)."""
    out = out or sys.stdout
    socrata = get_dotted(settings, "socrata", {}) or {}
    page_size = int(socrata.get("page_size") or 50000)
    timeout = float(socrata.get("timeout_seconds") or 60)
    retries = socrata.get("retries")
    fetcher = Fetcher(retries=3 if retries is None else int(retries),
                      backoff=float(socrata.get("backoff_seconds", 1.0)),
                      sleep=sleep if sleep is not None else SLEEP)
    seeded = _seed_missing(dest, seed_from)
    if seeded:
        print(f"Copied {len(seeded)} file(s) the destination lacked from {seed_from}: {', '.join(seeded)}", file=out)
    token = os.environ.get("SODA_APP_TOKEN") or None
    client = None
    if any(DATASETS[k].portal_id for k in keys if k not in NOT_DOWNLOADABLE):
        client = socrata_client(settings, token)
        note = ("app token from SODA_APP_TOKEN" if token else
                "no app token: unauthenticated requests are throttled (set SODA_APP_TOKEN)")
        print(f"Socrata {client.domain}: {note}", file=out)

    outcomes = []
    try:
        for key in keys:
            ds = DATASETS[key]
            if key in NOT_DOWNLOADABLE:
                exists = (dest / ds.file).is_file()
                msg = NOT_DOWNLOADABLE[key] + ("; kept as is" if exists else "; MISSING here (copy it from a "
                                                                              "ChiQA data export)")
                outcome = Outcome(key, "kept" if exists else "missing", message=msg)
            else:
                started = time.perf_counter()
                try:
                    if ds.portal_id:
                        rows, coverage, meta = refresh_socrata(key, dest, client, page_size, fetcher)
                    elif key == "zhvi":
                        rows, coverage, meta = refresh_zhvi(dest, timeout, fetcher)
                    else:
                        rows, coverage, meta = refresh_ihs(dest, timeout, fetcher)
                    outcome = Outcome(key, "ok", rows, coverage, meta=meta)
                except (RefreshError, OSError) as exc:
                    keep = "existing file left unchanged" if (dest / ds.file).exists() else "no file written"
                    outcome = Outcome(key, "failed", message=f"{exc} ({keep})")
                outcome.elapsed = time.perf_counter() - started
            outcomes.append(outcome)
            print(_format_line(outcome), file=out, flush=True)
    finally:
        if client is not None:
            client.close()
    return outcomes


def _select(requested: list[str] | None) -> list[str]:
    if not requested:
        return REFRESH_ORDER + list(NOT_DOWNLOADABLE)
    by_file = {ds.file: ds.key for ds in DATASETS.values()}
    keys = []
    for name in requested:
        key = by_file.get(name, name)
        if key not in DATASETS:
            raise ValueError(name)
        keys.append(key)
    order = REFRESH_ORDER + list(NOT_DOWNLOADABLE)
    return sorted(dict.fromkeys(keys), key=order.index)


def run_refresh_command(args, settings: dict, *, sleep: Callable | None = None, out=None) -> int:
    """``python app.py data refresh [--dataset NAME ...] [--dest DIR]``: 0 all ok, 1 some failed, 2 usage."""
    out = out or sys.stdout
    try:
        keys = _select(getattr(args, "dataset", None))
    except ValueError as exc:
        print(f"error: unknown dataset {exc}; choose from: {', '.join(REFRESH_ORDER + list(NOT_DOWNLOADABLE))}",
              file=sys.stderr)
        return 2
    dest_arg = getattr(args, "dest", None)
    dest = Path(dest_arg).expanduser() if dest_arg else default_destination(settings)
    dest = dest if dest.is_absolute() else Path.cwd() / dest
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: cannot create the destination folder {dest}: {exc.strerror}", file=sys.stderr)
        return 1
    if not os.access(dest, os.W_OK):
        print(f"error: the destination folder {dest} is not writable (use --dest DIR, or unset "
              "CHIQA_DATA_DIR / data.dir to write into <var_dir>/data)", file=sys.stderr)
        return 1
    try:
        current = resolve_data_dir(settings)
    except DataNotFoundError:
        current = None
    print(f"Refreshing {len(keys)} dataset(s) into {dest}", file=out)
    started = time.perf_counter()
    outcomes = refresh(keys, dest, settings, sleep=sleep, seed_from=current, out=out)
    manifest = _update_manifest(dest, outcomes)
    counts = {s: sum(1 for o in outcomes if o.status == s) for s in ("ok", "failed", "kept", "missing")}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    print(f"Done in {time.perf_counter() - started:.1f}s: {summary}. Manifest: {manifest}", file=out)
    if counts["failed"]:
        print("Failed datasets keep their previous files; re-run later or check the network.", file=out)
    return 1 if counts["failed"] else 0
