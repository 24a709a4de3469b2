"""The DePaul IHS Cook County house price index (2000Q1 = 100) by submarket (2020 PUMA).

An area uses its submarket(s) from the submarket crosswalk. The central PUMA p3160 (Near North
Side, Loop, Near South Side) is not in the index, so those areas fall back to the CHICAGO series
rather than answering nothing. The level for a year is its fourth quarter (or the latest quarter);
change since a year runs from that year's first quarter, IHS's own "change since 2000" convention,
so the figures match what IHS publishes.

A view of the semantic layer (semantic/datasets/price_index.py): every submarket's level at a quarter, at the base
quarter and a year earlier, with the changes, is one query of its ``price_index`` measure by submarket, and a
series of quarters one query by quarter, each kept per bundle. The release's published summary figures are the
file's own row for a submarket (two of them, bottom-to-current and pandemic-to-current, have no measure).
"""
from __future__ import annotations

import math
import re

from semantic.executor import run_query
from tools.common import rows_table
from tools.errors import ToolArgumentError

IHS_SETS = ["ihs_index", "submarket_crosswalk"]
CITY_SERIES = "CHICAGO"

IHS_CAVEAT = ("The DePaul IHS price index measures price change (2000Q1 = 100) for a submarket of several "
              "community areas; it is not a price level and is not specific to one community area.")
P3160_CAVEAT = ("The central submarket p3160 (Near North Side, Loop, Near South Side) is not in the IHS price "
                "index, so the Chicago-wide series is used instead for that area.")


class PriceIndex:
    """The quarterly series per submarket and which areas each submarket covers, built once per bundle."""

    def __init__(self, data):
        self.data = data
        ihs = data.ihs_index
        self.quarters = sorted(ihs["yearq"].unique())
        self.quarter_index = {q: i for i, q in enumerate(self.quarters)}
        self.codes = set(ihs["submarket_code"].unique())  # the submarkets the index has a series for
        self.cache: dict = {}
        self.names = dict(zip(ihs["submarket_code"], ihs["submarket_name"]))
        # The release's published figures per submarket (median sales price, changes), as of its last quarter.
        self.summary = {row["submarket_code"]: row for row in data.ihs_summary.to_dict("records")}
        self.summary_release = (data.coverage.get("ihs_summary") or {}).get("release")
        self.first_year = int(self.quarters[0][:4])
        self.last_year = int(self.quarters[-1][:4])
        geo = data.geography
        self.area_submarkets = {n: geo.area_to_submarkets.get(n, []) for n in range(1, 78)}
        self.submarket_areas: dict[str, list[int]] = {}
        for number, subs in self.area_submarkets.items():
            for sub in subs:
                self.submarket_areas.setdefault(sub["code"], []).append(number)


QUERY_CACHE_SIZE = 256


def _query(index: PriceIndex, key, query: dict):
    """A query's rows, kept per bundle under ``key``."""
    if key not in index.cache:
        if len(index.cache) >= QUERY_CACHE_SIZE:
            index.cache.pop(next(iter(index.cache)))
        index.cache[key] = run_query(index.data, query).rows
    return index.cache[key]


def coverage_text(index: PriceIndex) -> str:
    return (f"the IHS price index covers {index.quarters[0]} to {index.quarters[-1]} "
            f"(years {index.first_year}-{index.last_year})")


_QUARTER_RES = (re.compile(r"^(\d{4})\s*[-/ ]?\s*q([1-4])$", re.I), re.compile(r"^q([1-4])\s*[-/ ]?\s*(\d{4})$", re.I))


def parse_quarter(index: PriceIndex, text) -> str:
    """ "2008Q3" (also "2008 Q3", "2008-q3", "Q3 2008") checked against the index; the error names its range."""
    raw = str(text).strip()
    label = None
    for i, pattern in enumerate(_QUARTER_RES):
        found = pattern.match(raw)
        if found:
            year, q = (found.group(1), found.group(2)) if i == 0 else (found.group(2), found.group(1))
            label = f"{year}Q{q}"
    span = f"the IHS price index runs from {index.quarters[0]} to {index.quarters[-1]}"
    if label is None:
        raise ToolArgumentError(f"quarter {raw!r} is not a quarter like \"2008Q3\"; {span}", "invalid_value")
    if label not in index.quarter_index:
        raise ToolArgumentError(f"quarter {label} is outside the data: {span}", "out_of_range")
    return label


def index_window(index: PriceIndex, year, since_year, month: str | None = None,
                 quarter: str | None = None) -> tuple[str, str, str | None]:
    """(end quarter, base quarter, note) for the price index; an asked quarter ("2008Q3", checked) ends there,
    an asked month ("2021-06") at its quarter."""
    note = None
    quarter = quarter or (f"{month[:4]}Q{(int(month[5:]) - 1) // 3 + 1}" if month else None)
    if quarter in index.quarter_index:
        end = quarter
    elif year is None:
        end = index.quarters[-1]
    else:
        end = (f"{year}Q4" if f"{year}Q4" in index.quarter_index
               else max(q for q in index.quarters if q.startswith(str(year))))
        if not end.endswith("Q4"):
            note = f"{year} is partial in the price index; its latest quarter, {end}, is used."
    start_year = since_year if since_year is not None else min(2000, int(end[:4]))
    return end, f"{start_year}Q1", note


def index_method(end: str, base: str) -> str:
    return (f"Price index: DePaul IHS house price index (2000Q1 = 100) for the area's main submarket, level in "
            f"{end}, change from {base}, year over year against the same quarter a year earlier.")


def _window_stats(index: PriceIndex, end: str, base: str) -> dict:
    """Every submarket's level at ``end`` and ``base`` and a year before ``end``, with the changes: one query."""
    i = index.quarter_index[end]
    prev = index.quarters[i - 4] if i >= 4 else None
    measures = [{"measure": "price_index", "period": {"quarter": end}, "as": "level"},
                {"measure": "price_index", "period": {"quarter": base}, "as": "since"}]
    derived = [{"name": "change", "op": "pct_change", "of": ["since", "level"]}]
    if prev is not None:
        measures.append({"measure": "price_index", "period": {"quarter": prev}, "as": "prev"})
        derived.append({"name": "yoy", "op": "pct_change", "of": ["prev", "level"]})
    rows = _query(index, ("window", end, base), {"measures": measures, "group_by": ["submarket"],
                                                 "derived": derived})
    return {r["submarket"]: r for r in rows}


def _one(value) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else round(value, 1)


def index_stats(index: PriceIndex, code: str, end: str, base: str) -> dict:
    row = _window_stats(index, end, base)[code]
    return {"price_index": round(row["level"], 1), "price_index_quarter": end, "price_index_since_quarter": base,
            "price_index_since": round(row["since"], 1), "price_index_change_pct": _one(row["change"]),
            "price_index_yoy_pct": _one(row.get("yoy"))}


def area_price_trend(index: PriceIndex, number: int, end: str, base: str) -> tuple[dict, list[str]]:
    """The area's largest indexed submarket, or the city series when none of its submarkets is indexed."""
    subs = index.area_submarkets[number]
    notes = []
    listed = []
    for sub in sorted(subs, key=lambda s: -s["share"]):
        entry = {"code": sub["code"], "name": index.names.get(sub["code"], sub["name"]),
                 "share_of_community_area": round(sub["share"], 4), "in_price_index": sub["in_price_index"]}
        if sub["in_price_index"] and sub["code"] in index.codes:
            entry.update(index_stats(index, sub["code"], end, base))
        listed.append(entry)
    indexed = [s for s in listed if "price_index" in s]
    if indexed:
        primary = indexed[0]
        fallback = False
        if len(indexed) < len(listed):
            notes.append("Part of this area lies in submarket p3160, which is not in the IHS index; "
                         "the indexed submarket is used.")
        code, name = primary["code"], primary["name"]
        stats = {k: primary[k] for k in primary if k.startswith("price_index")}
    else:
        fallback = True
        notes.append(P3160_CAVEAT)
        code, name = CITY_SERIES, "Chicago (city-wide series)"
        stats = index_stats(index, CITY_SERIES, end, base)
    return {**stats, "submarket_code": code, "submarket_name": name, "submarkets": listed,
            "price_index_fallback": fallback}, notes


def chicago_submarket_changes(index: PriceIndex, area_names: dict, end: str, base: str, sort_order: str) -> list[dict]:
    """The Chicago submarkets with their stats and areas, ordered by change since base (ties by code).

    The index exists per submarket, not per area, so a ranking by price change ranks these.
    """
    candidates = []
    for code in sorted(index.submarket_areas):
        if code not in index.codes or not str(index.names.get(code, "")).startswith("Chicago--"):
            continue
        stats = index_stats(index, code, end, base)
        areas = sorted(index.submarket_areas[code])
        candidates.append({"submarket_code": code, "name": index.names[code].removeprefix("Chicago--"),
                           "community_areas": areas, "area_names": [area_names[n] for n in areas], **stats})
    key = "price_index_change_pct"
    candidates.sort(key=lambda r: (r[key] if sort_order == "asc" else -r[key], r["submarket_code"]))
    return candidates


def index_series(index: PriceIndex, code: str, end: str, base: str) -> dict:
    """Quarterly levels from base to end, beside the city series for context unless it is the city's own: one query
    by quarter."""
    lo, hi = index.quarter_index[base], index.quarter_index[end]
    quarters = index.quarters[lo:hi + 1]
    codes = [code] if code == CITY_SERIES else [code, CITY_SERIES]
    rows = _query(index, ("series", code, base, end), {
        "measures": ["price_index"], "group_by": ["quarter", "submarket"], "period": {"quarters": quarters},
        "filters": [{"dimension": "submarket", "in": codes}]})
    level = {(r["quarter"], r["submarket"]): r["price_index"] for r in rows}
    own = [_one(level.get((q, code))) for q in quarters]
    if code == CITY_SERIES:
        return rows_table(list(zip(quarters, own)), ["quarter", "price_index"])
    city = [_one(level.get((q, CITY_SERIES))) for q in quarters]
    return rows_table(list(zip(quarters, own, city)), ["quarter", "price_index", "Chicago"])


# ------------------------------------------------------------------ submarkets by name

CHICAGO_PREFIX = "Chicago--"


def chicago_submarkets(index: PriceIndex) -> dict[str, str]:
    """code -> short name ("Lake View/Lincoln Park") of the indexed Chicago submarkets, in code order."""
    return {code: index.names[code].removeprefix(CHICAGO_PREFIX) for code in sorted(index.codes)
            if str(index.names.get(code, "")).startswith(CHICAGO_PREFIX)}


def suburban_submarkets(index: PriceIndex) -> dict[str, str]:
    """code -> name of the indexed suburban Cook County submarkets (p31xx codes without the "Chicago--" prefix)."""
    return {code: index.names[code] for code in sorted(index.codes)
            if re.fullmatch(r"p\d+", code) and not str(index.names.get(code, "")).startswith(CHICAGO_PREFIX)}


def is_suburban(index: PriceIndex, code: str) -> bool:
    return code in suburban_submarkets(index)


def short_name(index: PriceIndex, code: str) -> str:
    return index.names[code].removeprefix(CHICAGO_PREFIX)


def _key(text: str) -> str:
    text = str(text).lower().replace(CHICAGO_PREFIX.lower(), "").replace("-", " ")
    return " ".join(re.sub(r"\s*/\s*", "/", text).split())  # "Oak Park / Brookfield" is "Oak Park/Brookfield"


def resolve_submarket(index: PriceIndex, text) -> str:
    """A submarket's code (Chicago's or suburban Cook County's) from its name (case-insensitive, with or without
    "Chicago--"), its code, or one half of its name ("Lincoln Park" -> Lake View/Lincoln Park, "Skokie" ->
    Evanston/Skokie); the error lists every valid name."""
    chicago, suburban = chicago_submarkets(index), suburban_submarkets(index)
    submarkets = {**chicago, **suburban}
    wanted = _key(text)
    for code, name in submarkets.items():
        if wanted in (_key(name), code.lower()):
            return code
    halves = [code for code, name in submarkets.items() if wanted in (_key(half) for half in name.split("/"))]
    if len(halves) == 1:
        return halves[0]
    raise ToolArgumentError(
        f"unknown IHS submarket {str(text)!r}; the Chicago submarkets are: {'; '.join(chicago.values())}; the "
        f"suburban Cook County ones: {'; '.join(suburban.values())}. (The central submarket p3160, Near North "
        "Side/Loop/Near South Side, is not in the index.)", "invalid_choice")


def submarket_areas(index: PriceIndex, code: str, area_names: dict) -> list[dict]:
    """The community areas a submarket covers, with the share of each area inside it (from the crosswalk)."""
    out = []
    for number in sorted(index.submarket_areas.get(code, [])):
        pieces = index.area_submarkets[number]
        share = sum(p["share"] for p in pieces if p["code"] == code)
        out.append({"community_area": number, "name": area_names[number], "share_of_community_area": round(share, 4),
                    "split": len(pieces) > 1})
    return out


# The summary's figures, in the order the text lists them: (value key, label).
SUMMARY_FIGURES = (
    ("median_sales_price", "median sales price"),
    ("yoy_change_pct", "year over year"),
    ("change_since_2000_pct", "since 2000"),
    ("change_peak_to_current_pct", "peak to current"),
    ("change_bottom_to_current_pct", "bottom to current"),
    ("change_pandemic_to_current_pct", "COVID-19 pandemic start to current"),
)


def published_figures(index: PriceIndex, code: str) -> dict:
    """The IHS summary's figures for a submarket (numbers; a blank stays None), with the release they are of: the
    file's own row, read as published (the layer declares four of these six figures, not the other two)."""
    row = index.summary.get(code) or {}
    out = {"release": index.summary_release}
    for key, _label in SUMMARY_FIGURES:
        value = row.get(key)
        out[key] = None if value is None or value != value else (int(value) if key == "median_sales_price"
                                                                 else round(float(value), 1))
    return out
