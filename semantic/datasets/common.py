"""What the dataset declarations share: a frame cache on the data bundle and a bounded CSV read."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from semantic.errors import QueryError

MAX_SOURCE_BYTES = 64 * 1024 * 1024  # a source file read by the layer alone is refused past this


def cached(data, key: str, build):
    """The frame ``build(data)`` made once per bundle: every query on the bundle reuses it."""
    store = data.__dict__.setdefault("_semantic_frames", {})
    if key not in store:
        store[key] = build(data)
    return store[key]


def read_source(data, file: str, **options) -> pd.DataFrame:
    """A CSV of the data folder that the loader does not read: a regular file under the size limit."""
    path = Path(data.data_dir) / file
    if not path.is_file():
        raise QueryError(f"{file} is not in the data folder {data.data_dir}", "data_unavailable")
    size = path.stat().st_size
    if size > MAX_SOURCE_BYTES:
        raise QueryError(f"{file} is {size:,} bytes, over the {MAX_SOURCE_BYTES:,}-byte limit", "data_unavailable")
    try:
        return pd.read_csv(path, **options)
    except Exception as exc:  # a damaged file is named, never a traceback
        raise QueryError(f"{file} could not be read: {type(exc).__name__}: {str(exc)[:160]}",
                         "data_unavailable") from None
