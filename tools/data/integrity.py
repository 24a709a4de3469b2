"""Each data file is checked before it is read: against the refresh manifest's row counts when the folder
was filled by `data refresh`, otherwise against the shipped snapshot's checksums kept in this repository.

A truncated, empty or swapped file is refused with an error naming it, instead of answering from it.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

from settings.loader import DataNotFoundError

SNAPSHOT = Path(__file__).with_name("snapshot_checksums.json")
MANIFEST_NAME = "refresh_manifest.json"


class DataIntegrityError(DataNotFoundError):
    """A data file is present but is not what it should be (truncated, empty, changed)."""


def describe(path: Path) -> dict:
    """sha256, size and the number of CSV records after the header (quoted newlines stay inside a record)."""
    data = path.read_bytes()
    records = sum(1 for _ in csv.reader(io.StringIO(data.decode("utf-8", errors="replace"))))
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data), "rows": max(0, records - 1)}


def check_files(data_dir: Path, files: list[str]) -> None:
    """Raise DataIntegrityError naming every file that fails its check."""
    manifest = _manifest(data_dir)
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    problems = []
    for name in files:
        facts = describe(data_dir / name)
        if facts["rows"] == 0:
            problems.append(f"{name} has no data rows ({facts['bytes']} bytes)")
        elif manifest is not None:
            recorded = manifest.get(name)
            if recorded is not None and recorded != facts["rows"]:
                problems.append(f"{name} has {facts['rows']:,} rows; the refresh manifest recorded {recorded:,}")
        elif name in expected and expected[name]["sha256"] != facts["sha256"]:
            want = expected[name]
            problems.append(f"{name} is not the shipped snapshot's file ({facts['rows']:,} rows, {facts['bytes']:,} "
                            f"bytes; expected {want['rows']:,} rows, {want['bytes']:,} bytes) and no refresh "
                            "manifest vouches for it")
    if problems:
        raise DataIntegrityError(f"The data in {data_dir} failed its checks: " + "; ".join(problems)
                                 + ". Restore the files, or re-download them with: python app.py data refresh.")


def _manifest(data_dir: Path) -> dict | None:
    """file name -> row count recorded by `data refresh`, or None when the folder has no manifest."""
    try:
        manifest = json.loads((data_dir / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    entries = manifest.get("datasets") if isinstance(manifest, dict) else None
    if not isinstance(entries, dict):
        return None
    return {e["file"]: int(e["row_count"]) for e in entries.values()
            if isinstance(e, dict) and e.get("file") and isinstance(e.get("row_count"), int)}
