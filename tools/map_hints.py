"""The ``map`` hint of a tool result: which column is a place key and which a value, for the page's choropleth.

A hint is {"level": "community_area"|"zip", "key": column, "value": column, "unit", "title", "period"}
plus, when the tool computed the value for every place (a ranking, a city-wide view), "data":
[[key, value], ...] for all of them, so the map is complete even when the table lists only the top
rows. Without "data" the page maps the table's rows. The page alone reads hints: they are not part of
the text the model sees, nor of the numbers the grounding check accepts.

Units the page knows how to format: "dollars", "percent", "homicides", "people", "index (1-100)",
"per 100,000 residents".
"""
from __future__ import annotations

import numpy as np

from tools.common import plain


def _data(values: dict, key_type) -> list:
    return [[key_type(k), plain(v)] for k, v in sorted(values.items()) if plain(v) is not None]


def area_map(value: str, unit: str, title: str, period: str, values: dict | None = None,
             key: str = "community_area") -> dict:
    """A community-area hint; ``values`` maps area number -> value for every area the tool computed."""
    hint = {"level": "community_area", "key": key, "value": value, "unit": unit, "title": title,
            "period": str(period)}
    if values is not None:
        hint["data"] = _data({int(k): v for k, v in values.items() if 1 <= int(k) <= 77}, int)
    return hint


def zip_map(value: str, unit: str, title: str, period: str, values: dict | None = None, key: str = "zip") -> dict:
    """A ZIP hint; ``values`` maps ZIP code -> value."""
    hint = {"level": "zip", "key": key, "value": value, "unit": unit, "title": title, "period": str(period)}
    if values is not None:
        hint["data"] = _data({str(k): v for k, v in values.items()}, str)
    return hint


def area_counts_map(codes, title: str, period: str) -> dict:
    """Homicide counts per community area from the matched rows' area codes (0 = no area, left out)."""
    counts = np.bincount(np.asarray(codes, dtype=np.intp), minlength=78)
    return area_map("homicides", "homicides", title, period, {n: int(counts[n]) for n in range(1, 78)})
