"""Downloaded data -> the exact CSV layouts ``tools.data.loader`` reads, with their validation.

Socrata's JSON API names and formats fields differently from the portal's CSV export the
loader was written against (``case_number`` vs ``Case Number``, ISO vs US dates, ``17.0`` vs
``17``), so each column says which JSON fields feed it and how to render them. The Zillow file
is reshaped from wide to long; the IHS file is stored as published and only checked.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from tools.errors import RefreshError

SOCRATA_DATE_FORMAT = "%m/%d/%Y %I:%M:%S %p"  # the portal's CSV export format


# ================================================================== value converters

def is_blank(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value == ""


def _pair_text(lat, lon) -> str:
    return f"({lat}, {lon})"


def as_text(value) -> str:
    if is_blank(value):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        if "url" in value:  # Socrata URL columns: {"url": "..."}
            return str(value["url"])
        point = _point(value)
        if point:
            return _pair_text(*point)
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
    if is_blank(value):
        return ""
    if isinstance(value, str):
        return {"true": "True", "false": "False"}.get(value.strip().lower(), value)
    return "True" if value else "False"


def _bool_lower(value) -> str:
    """IUCR export style: true / false."""
    out = _bool_title(value)
    return out.lower() if out in ("True", "False") else out


def as_code(value) -> str:
    """Numeric codes ('017', '17.0', 17) as a plain integer string; anything else unchanged."""
    if is_blank(value):
        return ""
    text = str(value).strip()
    try:
        number = float(text)
    except ValueError:
        return text
    return str(int(number)) if number.is_integer() else text


def _iucr(value) -> str:
    text = as_text(value).strip()
    return text.zfill(4) if text.isdigit() else text


def _socrata_date(value) -> str:
    """'2023-06-28T23:04:00.000' -> '06/28/2023 11:04:00 PM' (the portal's CSV export)."""
    if is_blank(value):
        return ""
    text = str(value).strip()
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).strftime(SOCRATA_DATE_FORMAT)
    except ValueError as exc:
        raise RefreshError(f"unexpected date value {text!r}") from exc


def _location_from_row(row: dict) -> str:
    lat, lon = row.get("latitude"), row.get("longitude")
    return "" if is_blank(lat) or is_blank(lon) else _pair_text(lat, lon)


def _location(value) -> str:
    point = _point(value)
    return _pair_text(*point) if point else as_text(value)


def _json_name(header: str) -> list[str]:
    """Likely SODA field names for a CSV export header ('PER CAPITA INCOME ' -> per_capita_income_)."""
    name = re.sub(r"[^a-z0-9]+", "_", header.lower())
    return list(dict.fromkeys([name, name.strip("_")]))


# ================================================================== Socrata layouts

@dataclass(frozen=True)
class Column:
    header: str  # the CSV export header the loader reads
    fields: tuple = ()  # SODA JSON field names to try, in order (default: derived from header)
    convert: Callable = as_text
    derive: Callable | None = None  # row -> value, used when no field is present

    def field_names(self):
        return self.fields or _json_name(self.header)

    def value(self, row: dict) -> str:
        for name in self.field_names():
            if name in row and not is_blank(row[name]):
                return self.convert(row[name])
        return self.derive(row) if self.derive else ""


HOMICIDE_COLUMNS = [
    Column("ID", ("id",)), Column("Case Number", ("case_number",)), Column("Date", ("date",), _socrata_date),
    Column("Block", ("block",)), Column("IUCR", ("iucr",), _iucr), Column("Primary Type", ("primary_type",)),
    Column("Description", ("description",)), Column("Location Description", ("location_description",)),
    Column("Arrest", ("arrest",), _bool_title), Column("Domestic", ("domestic",), _bool_title),
    Column("Beat", ("beat",), as_code), Column("District", ("district",), as_code),
    Column("Ward", ("ward",), as_code), Column("Community Area", ("community_area",), as_code),
    Column("FBI Code", ("fbi_code",)), Column("X Coordinate", ("x_coordinate",)),
    Column("Y Coordinate", ("y_coordinate",)), Column("Year", ("year",), as_code),
    Column("Updated On", ("updated_on",), _socrata_date), Column("Latitude", ("latitude",)),
    Column("Longitude", ("longitude",)), Column("Location", ("location",), _location, _location_from_row),
]
IUCR_COLUMNS = [
    Column("IUCR", ("iucr",), _iucr), Column("PRIMARY DESCRIPTION", ("primary_description",)),
    Column("SECONDARY DESCRIPTION", ("secondary_description",)), Column("INDEX CODE", ("index_code",)),
    Column("ACTIVE", ("active",), _bool_lower),
]
SOCIO_COLUMNS = [
    Column("Community Area Number", ("ca", "community_area_number"), as_code),
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
    Column("DISTRICT", ("district",), as_code), Column("DISTRICT NAME"), Column("ADDRESS"), Column("CITY"),
    Column("STATE"), Column("ZIP", ("zip",), as_code), Column("COMMUNITY AREA", ("community_area",), as_code),
    Column("WEBSITE"), Column("PHONE"), Column("FAX"), Column("TTY"), Column("X COORDINATE"),
    Column("Y COORDINATE"), Column("LATITUDE"), Column("LONGITUDE"),
    Column("LOCATION", ("location",), _location, _location_from_row),
]
WARD_COLUMNS = [
    Column("WARD", ("ward",), as_code), Column("ALDERMAN", ("alderman", "alderperson")), Column("ADDRESS"),
    Column("CITY"), Column("STATE"), Column("ZIPCODE", ("zipcode", "zip_code", "zip")), Column("WARD PHONE"),
    Column("WARD FAX"), Column("EMAIL"), Column("WEBSITE"), Column("LOCATION", ("location",), _location),
    Column("CITY HALL ADDRESS"), Column("CITY HALL CITY"), Column("CITY HALL STATE"),
    Column("CITY HALL ZIPCODE"), Column("CITY HALL PHONE"),
]


@dataclass(frozen=True)
class SocrataSpec:
    columns: list
    required: tuple  # headers that must be non-blank in every row
    date_column: str | None = None  # coverage: first and last date
    year_column: str | None = None  # coverage: first and last year, for yearly snapshots


SOCRATA_SPECS = {
    "homicides": SocrataSpec(HOMICIDE_COLUMNS, ("ID", "Date"), date_column="Date"),
    "iucr": SocrataSpec(IUCR_COLUMNS, ("IUCR",)),
    "socioeconomic": SocrataSpec(SOCIO_COLUMNS, ("COMMUNITY AREA NAME",)),
    "census_acs": SocrataSpec(ACS_COLUMNS, ("acs_year", "community_area"), year_column="acs_year"),
    "police_stations": SocrataSpec(POLICE_COLUMNS, ("DISTRICT",)),
    "ward_offices": SocrataSpec(WARD_COLUMNS, ("WARD",)),
}


def _date_coverage(values) -> dict | None:
    dates = [datetime.strptime(v, SOCRATA_DATE_FORMAT) for v in values if v]
    if not dates:
        return None
    return {"first": min(dates).date().isoformat(), "last": max(dates).date().isoformat()}


def socrata_table(key: str, raw: list[dict], label: str) -> tuple[list[str], list[list[str]], dict | None]:
    """SODA JSON rows -> (headers, rows, coverage) in the export layout; required values checked."""
    spec = SOCRATA_SPECS[key]
    present = set().union(*(r.keys() for r in raw))
    for col in spec.columns:
        if col.header in spec.required and not (set(col.field_names()) & present):
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
    if spec.year_column:
        years = sorted({r[headers.index(spec.year_column)] for r in table})
        coverage = {"first": years[0], "last": years[-1]}
    return headers, table, coverage


# ================================================================== publisher files

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
