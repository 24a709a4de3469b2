"""``python app.py data refresh``: re-download the datasets into the data folder, safely.

Every dataset is fetched into memory (Socrata, paged; ``tools.refresh.socrata``) or into a
temporary file in the destination folder (publisher CSVs), rewritten in exactly the column
layout that ``tools.data.loader`` reads (``tools.refresh.layouts``,
``tools.refresh.boundaries``), validated (required columns, rows > 0, and the loader's
own reader must accept it), and only then moved over the old file with ``os.replace``
(``tools.refresh.files``). A failed, partial, empty or malformed download therefore never
touches the data already there.

Beside each refreshed file goes ``<file>.meta.json`` (source, fetched_at, row count,
coverage) and the folder keeps a ``refresh_manifest.json`` with the last run per dataset.
"""
from __future__ import annotations

import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from settings.files import read_json
from settings.loader import (
    PROJECT_ROOT,
    DataNotFoundError,
    default_data_dir,
    resolve_data_dir,
    var_dir,
)
from settings.schema import Settings
from tools.data.datasets import DATASETS
from tools.data.integrity import MAX_MANIFEST_BYTES
from tools.errors import RefreshError
from tools.refresh.boundaries import community_area_table
from tools.refresh.files import (
    install,
    replace_atomically,
    temp_in,
    utc_stamp,
    write_csv,
    write_json,
)
from tools.refresh.layouts import socrata_table, validate_ihs, zhvi_wide_to_long
from tools.refresh.socrata import Fetcher, download, fetch_socrata, socrata_client

# Tests replace this (monkeypatch) so retries do not really wait.
SLEEP: Callable[[float], None] = time.sleep

MANIFEST_NAME = "refresh_manifest.json"
# Refresh order: the community-area lookup first, because later validations join on it.
REFRESH_ORDER = ["community_areas", "homicides", "iucr", "socioeconomic", "census_acs", "police_stations",
                 "ward_offices", "zhvi", "ihs_index"]
# Files computed from other files or copied from a static page: nothing to re-download.
NOT_DOWNLOADABLE = {
    "population_2010": "static 2010 Census table, not re-downloadable",
    "zip_crosswalk": "derived from boundary polygons, not re-downloadable",
    "submarket_crosswalk": "derived from boundary polygons, not re-downloadable",
    # Its address is not recorded (copied from the IHS site's repository); replace it with the summary of the
    # release the refreshed index comes from.
    "ihs_summary": "one IHS release's summary table (2025 Q4), not re-downloadable",
}
ALL_KEYS = REFRESH_ORDER + list(NOT_DOWNLOADABLE)


@dataclass
class Outcome:
    key: str
    status: str  # ok | failed | kept | missing
    rows: int | None = None
    coverage: dict | None = None
    elapsed: float = 0.0
    message: str = ""
    meta: dict | None = None


# ================================================================== per-source refreshers

def refresh_socrata(key: str, dest: Path, client, page_size: int, fetcher: Fetcher) -> tuple[int, dict | None, dict]:
    ds = DATASETS[key]
    raw = fetch_socrata(client, ds, page_size, fetcher)
    label = f"{key} ({ds.portal_id})"
    if not raw:
        where = f" with filter {ds.soql_where!r}" if ds.soql_where else ""
        raise RefreshError(f"{label}: the portal returned 0 rows{where}; refusing to replace the existing file")
    if key == "community_areas":
        headers, table = community_area_table(raw, dest, label)
        coverage = None
    else:
        headers, table, coverage = socrata_table(key, raw, label)
    source = {"portal_id": ds.portal_id, "domain": client.domain, "soql_where": ds.soql_where,
              "url": f"https://{client.domain}/resource/{ds.portal_id}.json"}
    with temp_in(dest, ds.file) as tmp:
        write_csv(tmp, headers, table)
        meta = install(key, tmp, dest, len(table), coverage, source)
    return len(table), coverage, meta


def refresh_zhvi(dest: Path, timeout: float, fetcher: Fetcher) -> tuple[int, dict | None, dict]:
    ds = DATASETS["zhvi"]
    with temp_in(dest, ds.file + ".download") as raw, temp_in(dest, ds.file) as tmp:
        download(ds.url, raw, timeout, fetcher, "zhvi")
        with open(raw, encoding="utf-8-sig", newline="") as src, open(tmp, "w", encoding="utf-8", newline="") as out:
            rows, zips, coverage = zhvi_wide_to_long(src, out)
        if not rows:
            raise RefreshError("zhvi: no Chicago, IL ZIP rows in the Zillow file; refusing to replace the existing file")
        meta = install("zhvi", tmp, dest, rows, coverage, {"url": ds.url, "zips": zips,
                                                          "transform": "City == Chicago and State == IL, wide to long"})
    return rows, coverage, meta


def refresh_ihs(dest: Path, timeout: float, fetcher: Fetcher) -> tuple[int, dict | None, dict]:
    ds = DATASETS["ihs_index"]
    with temp_in(dest, ds.file) as tmp:
        download(ds.url, tmp, timeout, fetcher, "ihs_index")
        try:
            text = tmp.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RefreshError("ihs_index: the download is not UTF-8 text") from exc
        rows, coverage = validate_ihs(text)
        meta = install("ihs_index", tmp, dest, rows, coverage, {"url": ds.url, "stored": "as published"})
    return rows, coverage, meta


# ================================================================== the command

def default_destination(settings: Settings) -> Path:
    """data.dir / CHIQA_DATA_DIR when configured, else <var_dir>/data (never ../shared/data by default)."""
    configured = settings.data.dir
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
            replace_atomically(final, lambda tmp, src=src: shutil.copyfile(src, tmp))
            copied.append(ds.file)
    return copied


def _update_manifest(dest: Path, outcomes: list[Outcome]) -> Path:
    path = dest / MANIFEST_NAME
    try:  # bounded like every JSON file ChiQA reads: a FIFO, a device or deep nesting is not a crash
        manifest = read_json(path, MAX_MANIFEST_BYTES)
        if not isinstance(manifest, dict):
            raise ValueError
    except (OSError, ValueError):
        manifest = {}
    now = utc_stamp()
    entries = manifest.get("datasets") if isinstance(manifest.get("datasets"), dict) else {}
    for o in outcomes:
        entry = dict(entries.get(o.key) or {})
        entry.update({"file": DATASETS[o.key].file, "last_attempt_at": now, "last_status": o.status})
        if o.status == "ok":
            entry.update({k: o.meta.get(k) for k in ("fetched_at", "row_count", "data_rows", "sha256", "bytes",
                                                     "coverage", "portal_id", "url")
                          if o.meta and k in o.meta})
            entry.pop("last_error", None)
        elif o.status == "failed":
            entry["last_error"] = o.message
        else:
            entry["note"] = o.message
        entries[o.key] = entry
    manifest.update({"updated_at": now, "data_dir": str(dest), "datasets": entries})
    write_json(path, manifest)
    return path


def _format_line(o: Outcome) -> str:
    status = {"ok": "ok", "failed": "FAILED", "kept": "kept", "missing": "missing"}[o.status]
    elapsed = f"  [{o.elapsed:.1f}s]" if o.status in ("ok", "failed") else ""
    if o.status == "ok":
        cov = f"  {o.coverage['first']} .. {o.coverage['last']}" if o.coverage else ""
        return f"  {status:<7} {o.key:<20} {o.rows:>9,} rows{cov}{elapsed}"
    return f"  {status:<7} {o.key:<20} {o.message}{elapsed}"


def refresh(keys: list[str], dest: Path, settings: Settings, *, sleep: Callable | None = None,
            seed_from: Path | None = None, out=None) -> list[Outcome]:
    """Refresh ``keys`` into ``dest``; one Outcome per dataset (failures never raise)."""
    out = out or sys.stdout
    socrata = settings.socrata
    page_size = socrata.page_size
    timeout = socrata.timeout_seconds
    fetcher = Fetcher(retries=socrata.retries, backoff=socrata.backoff_seconds,
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
        return list(ALL_KEYS)
    by_file = {ds.file: ds.key for ds in DATASETS.values()}
    keys = []
    for name in requested:
        key = by_file.get(name, name)
        if key not in DATASETS:
            raise ValueError(name)
        keys.append(key)
    return sorted(dict.fromkeys(keys), key=ALL_KEYS.index)


def run_refresh_command(args, settings: Settings, *, sleep: Callable | None = None, out=None) -> int:
    """``python app.py data refresh [--dataset NAME ...] [--dest DIR]``: 0 all ok; 2 (the CLI's code for bad input
    or setup, with one ``error:`` line on stderr) for an unknown dataset, an unusable destination, or any dataset
    that could not be refreshed (its previous file is kept)."""
    out = out or sys.stdout
    try:
        keys = _select(getattr(args, "dataset", None))
    except ValueError as exc:
        print(f"error: unknown dataset {exc}; choose from: {', '.join(ALL_KEYS)}", file=sys.stderr)
        return 2
    dest_arg = getattr(args, "dest", None)
    dest = Path(dest_arg).expanduser() if dest_arg else default_destination(settings)
    dest = dest if dest.is_absolute() else Path.cwd() / dest
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: cannot create the destination folder {dest}: {exc.strerror}", file=sys.stderr)
        return 2
    if not os.access(dest, os.W_OK):
        print(f"error: the destination folder {dest} is not writable (use --dest DIR, or unset "
              "CHIQA_DATA_DIR / data.dir to write into <var_dir>/data)", file=sys.stderr)
        return 2
    try:
        current = resolve_data_dir(settings)
    except DataNotFoundError:
        current = None
    if current is not None and current == dest.resolve():
        # Refreshing the configured folder itself: files it lacks come from the unconfigured default.
        current = default_data_dir(settings)
    print(f"Refreshing {len(keys)} dataset(s) into {dest}", file=out)
    started = time.perf_counter()
    outcomes = refresh(keys, dest, settings, sleep=sleep, seed_from=current, out=out)
    manifest = _update_manifest(dest, outcomes)
    counts = {s: sum(1 for o in outcomes if o.status == s) for s in ("ok", "failed", "kept", "missing")}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    print(f"Done in {time.perf_counter() - started:.1f}s: {summary}. Manifest: {manifest}", file=out)
    if counts["failed"]:
        print("Failed datasets keep their previous files; re-run later or check the network.", file=out)
        failed = ", ".join(o.key for o in outcomes if o.status == "failed")
        first = next(o.message for o in outcomes if o.status == "failed")
        print(" ".join(f"error: {counts['failed']} of {len(outcomes)} dataset(s) could not be refreshed ({failed}; "
                       f"first cause: {first}); their previous files are kept".split()), file=sys.stderr)
        return 2
    return 0
