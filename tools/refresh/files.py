"""Writing refreshed files safely: temp files beside the target, loader check, atomic replace, meta.

Everything is written to a temp file in the destination folder first (the same filesystem, so
``os.replace`` is atomic) and only replaces the old file once the loader's own reader accepts
it; a failure at any step leaves the old file as it was and no temp file behind.
"""
from __future__ import annotations

import contextlib
import csv
import json
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from tools.data import loader as dl
from tools.data.datasets import DATASETS
from tools.data.integrity import count_rows, sha256_of
from tools.errors import RefreshError


def utc_stamp() -> str:
    """Now, like 2024-05-01T12:00:00Z."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@contextlib.contextmanager
def temp_in(dest: Path, name: str):
    """A temp path in ``dest``; removed on exit unless it was moved away (consumed)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=dest)
    os.close(fd)
    try:
        yield Path(tmp)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def write_csv(path: Path, headers: list[str], rows: list[list[str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)


def replace_atomically(path: Path, fill: Callable[[Path], object]) -> None:
    """``fill`` writes a temp file beside ``path``, which then replaces ``path`` in one step."""
    with temp_in(path.parent, path.name) as tmp:
        fill(tmp)
        os.replace(tmp, path)


def write_json(path: Path, payload: dict) -> None:
    text = json.dumps(payload, indent=2, default=str) + "\n"
    replace_atomically(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _check_loader(key: str, path: Path, dest: Path) -> None:
    """The loader's own reader must accept the new file (raises RefreshError otherwise)."""
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


def install(key: str, tmp: Path, dest: Path, rows: int, coverage: dict | None, source: dict) -> dict:
    """Check the temp file with the loader, move it into place and write its .meta.json.

    The sha256 and data-row count recorded here (and copied into refresh_manifest.json) are what the
    loader checks the file against on every load (tools/data/integrity.py)."""
    _check_loader(key, tmp, dest)
    ds = DATASETS[key]
    final = dest / ds.file
    digest, data_rows = sha256_of(tmp), count_rows(key, tmp)
    os.replace(tmp, final)
    meta = {
        "dataset": key, "file": ds.file, "title": ds.title, "source": ds.publisher, **source,
        "fetched_at": utc_stamp(), "row_count": rows, "data_rows": data_rows, "sha256": digest,
        "coverage": coverage, "bytes": final.stat().st_size, "licence": ds.licence,
    }
    write_json(dest / f"{ds.file}.meta.json", meta)
    return meta
