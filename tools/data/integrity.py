"""Every data file is checked before it is read: layout, row count and sha256 against a record.

The record for a file is its entry in the folder's ``refresh_manifest.json`` (written by
``app.py data refresh``) when that entry holds a checksum, otherwise the shipped snapshot's list
in ``tools/data/checksums.json``. A truncated, empty, header-only, re-ordered or otherwise changed
file is refused with a ``DataIntegrityError`` naming the file and what is wrong, so a damaged
export can never produce a quietly wrong count.

Cost: hashing every file on every load (about 4 MB, 8 ms on this machine) rather than trusting
size and mtime, because a copy with preserved mtime, a restore from backup or bit rot keeps both.

Bounds: a data file must be a regular file of at most MAX_DATA_FILE_BYTES, checked before it is opened (a
10 GB sparse file would cost minutes of hashing, a FIFO would wait for ever, /dev/zero would never end), and
the refresh manifest is read like any other JSON file ChiQA is pointed at (settings/files.py). A file that
failed is remembered by its identity (device, inode, size, mtime and ctime) with what it was checked against,
so the next question does not read it again until it changes; a file that passed is always checked again.
"""
from __future__ import annotations

import csv
import hashlib
import json
import os
import threading
from dataclasses import dataclass, replace
from pathlib import Path

from settings.files import read_json, regular_file_problem
from settings.loader import DataNotFoundError
from tools.data.datasets import DATASETS

CHECKSUMS_FILE = Path(__file__).with_name("checksums.json")
CHECKSUMS_LABEL = "the shipped snapshot's checksum list (tools/data/checksums.json)"
MANIFEST_NAME = "refresh_manifest.json"  # written by tools/refresh/command.py
# The largest file of the export is about 3 MB; a refresh may grow them, never by a hundred times.
MAX_DATA_FILE_BYTES = 512 << 20
MAX_MANIFEST_BYTES = 4 << 20
FIX_HINT = ("Restore the file(s) from the ChiQA data export, or run 'python app.py data refresh' (needs network); "
            "'python app.py data verify' lists every file's state.")


@dataclass(frozen=True)
class Layout:
    columns: tuple  # header names the loader reads (compared stripped, case-sensitive)
    header_rows: int = 1  # rows before the data; the names are in the last of them


LAYOUTS = {
    "homicides": Layout(("ID", "Case Number", "Date", "Block", "IUCR", "Description", "Location Description",
                         "Arrest", "Domestic", "Beat", "District", "Ward", "Community Area", "Latitude", "Longitude")),
    "iucr": Layout(("IUCR", "PRIMARY DESCRIPTION", "SECONDARY DESCRIPTION", "INDEX CODE", "ACTIVE")),
    "socioeconomic": Layout(("Community Area Number", "COMMUNITY AREA NAME", "PERCENT OF HOUSING CROWDED",
                             "PERCENT HOUSEHOLDS BELOW POVERTY", "PERCENT AGED 16+ UNEMPLOYED",
                             "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA", "PERCENT AGED UNDER 18 OR OVER 64",
                             "PER CAPITA INCOME", "HARDSHIP INDEX")),
    "census_acs": Layout(("acs_year", "community_area", "record_id", "total_population")),
    "population_2010": Layout(("NID", "POP2010")),
    "community_areas": Layout(("area_number", "community", "name_socioeconomic", "area_sq_mi")),
    "zip_crosswalk": Layout(("area_number", "community", "zip", "overlap_sq_mi", "share_of_community_area",
                             "share_of_zip")),
    "submarket_crosswalk": Layout(("area_number", "community", "submarket_code", "submarket_name_2023",
                                   "in_price_index", "share_of_community_area")),
    "zhvi": Layout(("RegionName", "Year", "Month", "price")),
    "ihs_index": Layout(("YEARQ", "CHICAGO"), header_rows=2),  # row 1 codes (p3101...), row 2 names
    "ihs_summary": Layout(("Number", "Sub Market", "Change Since 2000", "Change Peak to Current",
                           "Change Bottom to Current", "COVID-19 Pandemic Start to Current", "Year-over-year change",
                           "Median Sales Price")),
    "police_stations": Layout(("DISTRICT", "DISTRICT NAME", "ADDRESS", "CITY", "STATE", "ZIP",
                                  "COMMUNITY AREA", "WEBSITE", "PHONE")),
    "ward_offices": Layout(("WARD", "ALDERMAN", "ADDRESS")),
}


class DataIntegrityError(DataNotFoundError):
    """One or more data files failed their check; ``problems`` maps dataset key -> what is wrong."""

    def __init__(self, data_dir: Path, problems: dict, checks: dict | None = None):
        self.data_dir = Path(data_dir)
        self.problems = dict(problems)
        self.checks = dict(checks or {})  # every file's FileCheck, so health can show which ones passed
        listed = "; ".join(self.problems.values())
        super().__init__(f"Data files in {self.data_dir} failed their check: {listed}. {FIX_HINT}")


@dataclass
class FileCheck:
    key: str
    file: str
    ok: bool
    problem: str = ""
    sha256: str = ""
    bytes: int = 0
    rows: int | None = None  # data rows, counted only when needed
    checked_against: str = ""

    def to_dict(self) -> dict:
        return {"file": self.file, "status": "ok" if self.ok else "failed", "error": self.problem or None,
                "sha256": self.sha256 or None, "bytes": self.bytes, "rows": self.rows,
                "checked_against": self.checked_against or None}


# ------------------------------------------------------------------ reading a file's facts

def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _records(path: Path):
    """CSV records (lists of stripped cells), skipping blank lines; utf-8 with an optional BOM."""
    with open(path, encoding="utf-8-sig", newline="") as fh:
        for record in csv.reader(fh):
            if any(cell.strip() for cell in record):
                yield [cell.strip() for cell in record]


def count_rows(key: str, path: Path) -> int:
    """Data rows: CSV records after the header row(s). Raises ValueError naming what is wrong (csv.Error alone,
    e.g. "field larger than field limit", would not say which file)."""
    try:
        return max(0, sum(1 for _ in _records(path)) - LAYOUTS[key].header_rows)
    except UnicodeDecodeError:
        raise ValueError("is not UTF-8 text (damaged or not a CSV file)") from None
    except csv.Error as exc:
        raise ValueError(f"is not a readable CSV file ({exc})") from None


def _layout_problem(key: str, path: Path) -> str | None:
    """What is wrong with the header or the first data row, or None."""
    layout = LAYOUTS[key]
    head = []
    try:
        for record in _records(path):
            head.append(record)
            if len(head) > layout.header_rows:
                break
    except UnicodeDecodeError:
        return "is not UTF-8 text (damaged or not a CSV file)"
    except csv.Error as exc:
        return f"is not a readable CSV file ({exc})"
    if len(head) < layout.header_rows:
        return "has no header row"
    names = head[layout.header_rows - 1]
    lacking = [c for c in layout.columns if c not in names]
    if lacking:
        return f"lacks the column(s) {', '.join(lacking)} (wrong file or damaged header)"
    if len(head) == layout.header_rows:
        return "has a header but no data rows"
    if len(head[-1]) < len(names) // 2:
        return f"its first data row has {len(head[-1])} fields where the header has {len(names)}"
    return None


# ------------------------------------------------------------------ where the expected values come from

def _load_json(path: Path) -> dict:
    value = read_json(path, MAX_MANIFEST_BYTES)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def shipped_checksums() -> dict:
    """file name -> {"sha256", "bytes", "rows"} for the shipped snapshot."""
    return _load_json(CHECKSUMS_FILE).get("files") or {}


def manifest_entries(data_dir: Path) -> dict:
    """dataset key -> refresh manifest entry; {} without a manifest. An unreadable manifest raises."""
    path = data_dir / MANIFEST_NAME
    if not os.path.lexists(path):
        return {}
    try:
        entries = _load_json(path).get("datasets") or {}
    except (OSError, ValueError) as exc:  # also a FIFO, a device, too big, nested too deep: named, never a crash
        raise DataIntegrityError(data_dir, {"manifest": f"{path} is unreadable ({exc}); its records "
                                                        "cannot be checked"}) from None
    return entries if isinstance(entries, dict) else {}


def _expected(key: str, file: str, manifest: dict, shipped: dict) -> tuple[dict, str]:
    entry = manifest.get(key) if isinstance(manifest.get(key), dict) else {}
    if entry.get("sha256") or isinstance(entry.get("data_rows", entry.get("row_count")), int):
        rows = entry.get("data_rows", entry.get("row_count"))
        when = f", refreshed {entry['fetched_at']}" if entry.get("fetched_at") else ""
        return {"sha256": entry.get("sha256"), "rows": rows}, f"the refresh manifest ({MANIFEST_NAME}{when})"
    return dict(shipped.get(file) or {}), CHECKSUMS_LABEL


# ------------------------------------------------------------------ the check

_FAILED: dict = {}  # (path, identity, expected record) -> the FileCheck that failed
_FAILED_LOCK = threading.Lock()


def _identity(st: os.stat_result) -> tuple:
    # ctime too: a restore that keeps the size and sets the mtime back still changes it
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def check_file(key: str, data_dir: Path, manifest: dict, shipped: dict) -> FileCheck:
    file = DATASETS[key].file
    path = data_dir / file
    check = FileCheck(key, file, ok=False)
    try:
        st = os.stat(path)
    except OSError:
        check.problem = f"{file} is missing"
        return check
    check.bytes = st.st_size
    problem = regular_file_problem(path, MAX_DATA_FILE_BYTES)
    if problem:
        check.problem = f"{file} {problem}"
        return check
    if check.bytes == 0:
        check.problem = f"{file} is empty (0 bytes)"
        return check
    expected, source = _expected(key, file, manifest, shipped)
    memo = (str(path), _identity(st), json.dumps(expected, sort_keys=True, default=str))
    with _FAILED_LOCK:
        failed = _FAILED.get(memo)
    if failed is not None:  # unchanged since it failed: not read again
        return replace(failed)
    _check_contents(check, key, path, expected, source)
    if not check.ok:
        with _FAILED_LOCK:
            if len(_FAILED) > 1000:  # bounded: folders tried one after another
                _FAILED.clear()
            _FAILED[memo] = replace(check)
    return check


def _check_contents(check: FileCheck, key: str, path: Path, expected: dict, source: str) -> None:
    file = check.file
    check.checked_against = source
    problem = _layout_problem(key, path)
    if problem:
        check.problem = f"{file} {problem}"
        return
    check.sha256 = sha256_of(path)
    want_sha, want_rows = expected.get("sha256"), expected.get("rows")
    if want_sha and check.sha256 == want_sha:
        check.rows, check.ok = want_rows, True
        return
    if not want_sha and not isinstance(want_rows, int):
        check.problem = f"{file} has no recorded checksum or row count in {source}"
        return
    try:
        check.rows = count_rows(key, path)
    except ValueError as exc:
        check.problem = f"{file} {exc}"
        return
    if isinstance(want_rows, int) and check.rows != want_rows:
        hint = "truncated?" if check.rows < want_rows else "rows added or a different export?"
        check.problem = f"{file} has {check.rows:,} data rows where {source} records {want_rows:,} ({hint})"
    elif want_sha:
        check.problem = (f"{file} has the recorded {check.rows:,} rows but its sha256 {check.sha256[:12]}… differs "
                         f"from {want_sha[:12]}… in {source} (values changed or damaged)")
    else:
        check.ok = True  # an older manifest entry with a row count only


def check_files(data_dir: Path) -> dict[str, FileCheck]:
    """Every catalogue file's check (never raises for a bad file; an unreadable manifest raises)."""
    data_dir = Path(data_dir)
    manifest = manifest_entries(data_dir)
    shipped = shipped_checksums()
    return {key: check_file(key, data_dir, manifest, shipped) for key in DATASETS}


def verify(data_dir: Path) -> dict[str, FileCheck]:
    """Every file's check; raises DataIntegrityError naming each failed file."""
    checks = check_files(data_dir)
    problems = {key: c.problem for key, c in checks.items() if not c.ok}
    if problems:
        raise DataIntegrityError(data_dir, problems, checks)
    return checks


def snapshot_record(data_dir: Path) -> dict:
    """The checksum list for the files in ``data_dir`` (what tools/data/checksums.json holds)."""
    files = {}
    for key, ds in DATASETS.items():
        path = Path(data_dir) / ds.file
        files[ds.file] = {"sha256": sha256_of(path), "bytes": path.stat().st_size, "rows": count_rows(key, path)}
    return {"about": "sha256, size and data rows of each file in the shipped data snapshot; regenerate with "
                     "'python -m tools.data.checksums DIR --write'", "files": files}
