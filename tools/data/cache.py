"""The parquet cache of the typed tables, keyed by the source files' content and checked when read.

``manifest.json`` holds the key (cache version plus each source CSV's sha256) and, per table, the
parquet file's own sha256, row count and column types. A read that finds a different key, a file
whose bytes changed (one flipped bit), or a valid parquet file holding another table is refused
with the reason, and the loader rebuilds the cache from the CSVs. Writes go to unique temp files
and are moved into place, so two processes building at once cannot mix their files.

Reads are bounded: the manifest and each parquet file must be regular files under a size limit (a symlink to
/dev/zero or a FIFO is not read, it is a reason to rebuild), and the manifest's JSON is refused past 64 levels
of nesting instead of raising RecursionError. ChiQA replaces files only in a folder it made its cache: one
holding its marker file (``CHIQA_CACHE``), written when the folder is new or empty, or an older ChiQA cache
(nothing but its manifest and parquet files). Any other folder named as data.cache_dir is left untouched and the
cache is not written there (it only costs speed).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tempfile
from pathlib import Path

import pandas as pd

from settings.files import UnsafeFile, read_bounded, read_json

MANIFEST = "manifest.json"
MARKER = "CHIQA_CACHE"
MARKER_TEXT = b"ChiQA's parquet cache: ChiQA writes and replaces the files in this folder; deleting it is safe.\n"
MAX_MANIFEST_BYTES = 1 << 20  # a manifest is about 3 KB
MAX_TABLE_BYTES = 1 << 30  # the largest table's parquet file is a few MB
# What ChiQA itself writes into the cache folder: the manifest, tables (of this or an earlier cache version), the
# temp files of both, and the llama backend's saved prompt prefixes (backends/prefix_cache.py).
CHIQA_NAMES = re.compile(r"manifest\.json|[a-z0-9_]+\.parquet|\..+\.tmp|kv-prefix-[0-9a-f]+\.(bin|tmp\d+)")


def _columns(df: pd.DataFrame) -> list:
    return [[str(name), str(dtype)] for name, dtype in df.dtypes.items()]


def read_cache(cache_dir: Path, key: dict, tables: list[str]) -> tuple[dict | None, str]:
    """(tables, "") when the cache is current and intact, else (None, why it is not used)."""
    path = cache_dir / MANIFEST
    if not os.path.lexists(path):
        return None, "no cache yet"
    try:
        manifest = read_json(path, MAX_MANIFEST_BYTES)
        if not isinstance(manifest, dict):
            raise ValueError("not an object")
    except (OSError, ValueError) as exc:  # UnsafeFile, not UTF-8, not JSON, nested too deep: rebuild
        return None, f"the cache manifest is unreadable ({exc})"
    if manifest.get("key") != key:
        return None, "the source files changed"
    out = {}
    for name in tables:
        meta = (manifest.get("tables") or {}).get(name)
        if not isinstance(meta, dict):
            return None, f"the cache manifest lacks {name}"
        try:
            raw = read_bounded(cache_dir / f"{name}.parquet", MAX_TABLE_BYTES)
        except UnsafeFile as exc:
            return None, f"{name}.parquet {exc.reason}"
        except OSError as exc:
            return None, f"{name}.parquet is unreadable ({exc.strerror or exc})"
        if hashlib.sha256(raw).hexdigest() != meta.get("sha256"):
            return None, f"{name}.parquet differs from the file the cache wrote (damaged or replaced)"
        try:
            df = pd.read_parquet(io.BytesIO(raw))
        except Exception as exc:  # any parquet decoding failure means: rebuild
            return None, f"{name}.parquet does not decode ({type(exc).__name__})"
        if len(df) != meta.get("rows") or _columns(df) != meta.get("columns"):
            return None, f"{name}.parquet holds a different table (columns or row count differ)"
        out[name] = df
    return out, ""


def _write_bytes(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _ours(cache_dir: Path) -> str:
    """"" when ChiQA may replace files in ``cache_dir`` (marking a new, empty or older ChiQA cache folder, one
    holding only names ChiQA writes, as its own), else why not."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    marker = cache_dir / MARKER
    if os.path.lexists(marker):
        return "" if marker.is_file() and not marker.is_symlink() else f"{marker} is not ChiQA's marker file"
    foreign = [p.name for p in cache_dir.iterdir() if not CHIQA_NAMES.fullmatch(p.name)]
    if foreign:
        return (f"{cache_dir} holds files ChiQA did not make ({', '.join(sorted(foreign)[:3])}); "
                "not writing the cache there")
    _write_bytes(marker, MARKER_TEXT)
    return ""


def write_cache(cache_dir: Path, key: dict, tables: dict) -> str:
    """Store every table; returns "" or why the cache could not be written (it only costs speed)."""
    try:
        refused = _ours(cache_dir)
        if refused:
            return f"the cache was not written: {refused}"
        metas = {}
        for name, df in tables.items():
            buffer = io.BytesIO()
            df.to_parquet(buffer, index=False)
            raw = buffer.getvalue()
            _write_bytes(cache_dir / f"{name}.parquet", raw)
            metas[name] = {"sha256": hashlib.sha256(raw).hexdigest(), "rows": int(len(df)), "columns": _columns(df)}
        # The manifest goes last: a crash before it leaves a cache that is simply not used.
        _write_bytes(cache_dir / MANIFEST, json.dumps({"key": key, "tables": metas}).encode("utf-8"))
    except OSError as exc:
        return f"the cache could not be written ({exc.strerror or exc})"
    return ""
