"""Homicide counts with filters and one grouping: the workhorse homicide tool.

Everything is computed on plain numpy arrays prepared once per DataBundle (see ``homicide_arrays``),
so one call is a handful of vectorised comparisons plus ``np.bincount`` — fast at 12,657 rows and
still well under 100 ms when the table is replicated to ~1.3 M rows.
"""
from __future__ import annotations

import calendar
import difflib

import numpy as np
import pandas as pd

from tools.common import (
    AREA_SCHEMA,
    HOMICIDE_CODE_CAVEAT,
    SORT_SCHEMA,
    check_year_range,
    fmt_int,
    fmt_pct,
    make_result,
    partial_year_caveat,
)
from tools.errors import ToolArgumentError
from tools.map_hints import area_counts_map
from tools.registry import Tool

TOOL_NAME = "query_homicides_advanced"

GROUP_BY = ["year", "month", "ward", "district", "community_area", "location_type", "arrest", "domestic"]
RANK_BY = ["homicides", "arrest_rate"]
# An arrest rate from a handful of cases says little: rank only groups with at least this many.
MIN_FOR_RATE_RANK = 5
ARREST_STATUS = ["any", "arrested", "not_arrested"]
RANKING_GROUPS = {"ward", "district", "community_area", "location_type"}
GEO_COLUMNS = {"ward": "ward", "district": "district", "community_area": "community_area"}

WARD_MAP_CAVEAT = ("Ward numbers follow the ward map that was current when each record was geocoded "
                   "(2003, 2015 or 2023 boundaries), so a ward's counts mix different boundaries over time.")
SMALL_NUMBER_LIMIT = 10


# ------------------------------------------------------------------ per-bundle arrays

class HomicideArrays:
    """The homicide table as typed numpy arrays; missing geography codes become 0."""

    def __init__(self, df: pd.DataFrame):
        self.source = df
        self.n = len(df)
        self.year = df["year"].to_numpy(dtype=np.int16)
        self.month = df["month"].to_numpy(dtype=np.int8)
        self.arrest = df["arrest"].to_numpy(dtype=bool)
        self.domestic = df["domestic"].to_numpy(dtype=bool)
        self.ward = df["ward"].fillna(0).to_numpy(dtype=np.int16)
        self.district = df["district"].fillna(0).to_numpy(dtype=np.int16)
        self.community_area = df["community_area"].fillna(0).to_numpy(dtype=np.int16)
        loc = df["location_description"]
        if not isinstance(loc.dtype, pd.CategoricalDtype):
            loc = loc.astype("category")
        self.location_types: list[str] = [str(c) for c in loc.cat.categories]
        self.location_code = loc.cat.codes.to_numpy(dtype=np.int32)  # -1 = missing
        self.location_index = {name.upper(): i for i, name in enumerate(self.location_types)}
        counts = np.bincount(self.location_code[self.location_code >= 0], minlength=len(self.location_types))
        order = np.argsort(-counts, kind="stable")
        self.location_by_frequency = [self.location_types[i] for i in order if counts[i] > 0]
        self.year_min = int(self.year.min()) if self.n else 0
        self.year_max = int(self.year.max()) if self.n else 0
        self.iucr_counts = df["iucr"].value_counts().to_dict() if "iucr" in df else {}

    def year_mask(self, start: int, end: int) -> np.ndarray:
        return (self.year >= start) & (self.year <= end)


def homicide_arrays(data) -> HomicideArrays:
    """The bundle's HomicideArrays, built on first use and rebuilt if the table object changes."""
    cached = data.__dict__.get("_homicide_arrays")
    table = data.homicides
    if cached is None or cached.source is not table:
        cached = HomicideArrays(table)
        data.__dict__["_homicide_arrays"] = cached
    return cached


# ------------------------------------------------------------------ shared small helpers

def pct(part, whole) -> float | None:
    return None if not whole else round(100.0 * float(part) / float(whole), 1)


def years_label(start: int, end: int) -> str:
    return str(start) if start == end else f"{start}-{end}"


def years_phrase(start: int, end: int) -> str:
    return f"year {start}" if start == end else f"years {start}-{end}"


def resolve_years(data, year, start_year, end_year) -> tuple[int, int]:
    """A single ``year`` or a start/end range (either end optional), checked against coverage."""
    if year is not None:
        if (start_year is not None and start_year != year) or (end_year is not None and end_year != year):
            raise ToolArgumentError("give either 'year' or 'start_year'/'end_year', not both", "conflicting_arguments")
        start_year = end_year = year
    return check_year_range(data, start_year, end_year)


def geo_missing_caveat(missing: int, what: str, start: int, end: int) -> str:
    return (f"{fmt_int(missing)} homicide rows in {years_label(start, end)} (mostly from 2001) have no {what} "
            f"recorded, so {what} figures undercount by up to that many.")


ARREST_CAVEAT = ("Arrest flags are as of the snapshot (last updated 2023-07-27); recent cases have had less time "
                 "to be cleared, so recent arrest rates look lower.")


def fit_lines(head: list[str], items: list[str], tail: list[str], limit: int = 1450) -> str:
    """Join head + as many item lines as fit + tail, saying how many items were left out."""
    budget = limit - sum(len(line) + 1 for line in head + tail) - 60
    kept = []
    for line in items:
        if budget - (len(line) + 1) < 0:
            break
        kept.append(line)
        budget -= len(line) + 1
    if len(kept) < len(items):
        kept.append(f"(+{len(items) - len(kept)} more rows in the table)")
    return "\n".join(head + kept + tail)


def district_name(data, number: int) -> str:
    return data.geography.district_names.get(int(number), "")


def check_location_type(arrays: HomicideArrays, text: str) -> int:
    key = " ".join(str(text).upper().split())
    if key in arrays.location_index:
        return arrays.location_index[key]
    close = difflib.get_close_matches(key, list(arrays.location_index), n=3, cutoff=0.6)
    close += [name for name in arrays.location_by_frequency if key and key in name and name not in close][:3]
    hint = f" Closest matches: {', '.join(close)}." if close else ""
    common = ", ".join(arrays.location_by_frequency[:12])
    raise ToolArgumentError(
        f"unknown location_type '{text}'.{hint} Most common location types: {common}.", "invalid_choice")


# ------------------------------------------------------------------ the tool

PARAMETERS = {
    "type": "object",
    "properties": {
        "year": {"type": "integer", "description": "a single year 2001-2023 (same as start_year = end_year)"},
        "start_year": {"type": "integer", "description": "first year, 2001-2023 (default 2001)"},
        "end_year": {"type": "integer", "description": "last year, 2001-2023 (default 2023; 2023 is partial)"},
        "ward": {"type": "integer", "minimum": 1, "maximum": 50, "description": "city ward 1-50"},
        "district": {"type": "integer", "minimum": 1, "maximum": 25,
                     "description": "police district 1-25 (no 13, 21, 23)"},
        "community_area": AREA_SCHEMA,
        "arrest_status": {"type": "string", "enum": ARREST_STATUS, "default": "any",
                          "description": "arrested = an arrest was made, not_arrested = none, any = both"},
        "domestic": {"type": "boolean", "description": "true = domestic-related only, false = non-domestic only"},
        "location_type": {"type": "string", "description": "place type, e.g. STREET, APARTMENT, AUTO, ALLEY"},
        "group_by": {"type": "string", "enum": GROUP_BY,
                     "description": "break the count down by this (year/month = time series, others = ranking)"},
        "top_n": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10,
                  "description": "how many groups to list in a ranking"},
        "sort_order": SORT_SCHEMA,
        "months": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 12}, "maxItems": 12,
                   "description": "keep only these calendar months 1-12, e.g. [6, 7, 8] for summer"},
        "rank_by": {"type": "string", "enum": RANK_BY, "default": "homicides",
                    "description": "order a ranking by homicide count or by arrest rate"},
    },
    "required": [],
}

DESCRIPTION = ("Count Chicago homicides 2001-2023 with filters (years, ward, police district, community area, "
               "arrest, domestic, location type), optionally grouped by year, month, ward, district, "
               "community_area, location_type, arrest or domestic; gives totals, rankings and arrest rate.")


def _group(data, arrays: HomicideArrays, mask: np.ndarray, group_by: str, start: int, end: int,
           top_n: int, sort_order: str, rank_by: str = "homicides") -> tuple[list[dict], dict]:
    """Breakdown rows (dicts) and extra values for one grouping of the selected rows."""
    arrest = arrays.arrest[mask]
    extra: dict = {}

    def counts_for(codes: np.ndarray, size: int):
        n = np.bincount(codes, minlength=size)
        a = np.bincount(codes, weights=arrest, minlength=size)
        return n, a

    rows: list[dict] = []
    if group_by == "year":
        codes = (arrays.year[mask] - start).astype(np.intp)
        n, a = counts_for(codes, end - start + 1)
        for i in range(end - start + 1):
            rows.append({"year": start + i, "homicides": int(n[i]), "arrests": int(a[i])})
    elif group_by == "month":
        months = arrays.month[mask].astype(np.intp)
        n, a = counts_for(months, 13)
        if start == end:
            extra["month_mode"] = "year_month"
            last_month = 12
            cov_end = data.coverage["homicides"]["end"]
            if start == data.coverage["homicides"]["last_year"]:
                last_month = int(cov_end[5:7])
            for m in range(1, last_month + 1):
                rows.append({"year_month": f"{start}-{m:02d}", "year": start, "month": m,
                             "month_name": calendar.month_name[m], "homicides": int(n[m]), "arrests": int(a[m])})
        else:
            extra["month_mode"] = "calendar_month"
            for m in range(1, 13):
                rows.append({"month": m, "month_name": calendar.month_name[m], "homicides": int(n[m]),
                             "arrests": int(a[m])})
    elif group_by in ("arrest", "domestic"):
        flags = arrays.arrest[mask] if group_by == "arrest" else arrays.domestic[mask]
        n, a = counts_for(flags.astype(np.intp), 2)
        for value in (True, False):
            rows.append({group_by: value, "homicides": int(n[int(value)]), "arrests": int(a[int(value)])})
    else:
        if group_by == "location_type":
            codes = arrays.location_code[mask]
            size = len(arrays.location_types)
            keep = codes >= 0
            n = np.bincount(codes[keep], minlength=size)
            a = np.bincount(codes[keep], weights=arrest[keep], minlength=size)
            labels = arrays.location_types
        else:
            codes = getattr(arrays, GEO_COLUMNS[group_by])[mask].astype(np.intp)
            size = {"ward": 51, "district": 26, "community_area": 78}[group_by]
            n, a = counts_for(codes, size)
            extra["missing_geography"] = int(n[0])
            n = n.copy()
            n[0] = 0
            labels = list(range(size))
        present = np.flatnonzero(n > 0)
        extra["groups"] = int(len(present))
        if rank_by == "arrest_rate":
            ranked = [i for i in present.tolist() if n[i] >= MIN_FOR_RATE_RANK]
            extra["too_few_to_rank"] = int(len(present) - len(ranked))

            def key(i):
                rate = a[i] / n[i]
                return (-rate if sort_order == "desc" else rate, -n[i], i)
        else:
            ranked = present.tolist()

            def key(i):  # ties broken by the group label so the order is stable
                return (-n[i] if sort_order == "desc" else n[i], i)
        order = sorted(ranked, key=key)
        geo = data.geography
        for rank, i in enumerate(order[:top_n], start=1):
            row: dict = {"rank": rank}
            if group_by == "community_area":
                row.update({"community_area": int(i), "name": geo.area_name(int(i))})
            elif group_by == "district":
                row.update({"district": int(i), "name": district_name(data, int(i))})
            elif group_by == "ward":
                row["ward"] = int(i)
            else:
                row["location_type"] = labels[i]
            row.update({"homicides": int(n[i]), "arrests": int(a[i])})
            rows.append(row)
    total = int(mask.sum())
    for row in rows:
        row["share_pct"] = pct(row["homicides"], total)
        row["arrest_rate_pct"] = pct(row["arrests"], row["homicides"])
    if group_by in ("year", "month") and rows:
        top = max(rows, key=lambda r: r["homicides"])
        low = min(rows, key=lambda r: r["homicides"])
        extra["peak"], extra["low"] = top, low
    return rows, extra


def _label(group_by: str, row: dict) -> str:
    if group_by == "community_area":
        return f"{row['name']} ({row['community_area']})"
    if group_by == "district":
        return f"District {row['district']}" + (f" {row['name']}" if row.get("name") else "")
    if group_by == "ward":
        return f"Ward {row['ward']}"
    if group_by == "month":
        return row.get("year_month") or row["month_name"]
    if group_by in ("arrest", "domestic"):
        if group_by == "arrest":
            return "arrest made" if row["arrest"] else "no arrest"
        return "domestic" if row["domestic"] else "non-domestic"
    return str(row[group_by])


def query_homicides_advanced(data, year=None, start_year=None, end_year=None, ward=None, district=None,
                             community_area=None, arrest_status="any", domestic=None, location_type=None,
                             group_by=None, top_n=10, sort_order="desc", rank_by="homicides", months=None):
    start, end = resolve_years(data, year, start_year, end_year)
    geo = data.geography
    arrays = homicide_arrays(data)
    mask = arrays.year_mask(start, end)
    filters: dict = {"years": years_label(start, end)}
    described: list[str] = [years_phrase(start, end)]
    if ward is not None:
        ward = geo.check_ward(ward)
        mask &= arrays.ward == ward
        filters["ward"] = ward
        described.append(f"ward {ward}")
    if district is not None:
        district = geo.check_district(district)
        mask &= arrays.district == district
        filters["district"] = district
        described.append(f"district {district} ({district_name(data, district)})")
    if community_area is not None:
        area = geo.resolve_area(community_area)
        mask &= arrays.community_area == area
        filters["community_area"] = area
        filters["community_area_name"] = geo.area_name(area)
        described.append(f"community area {geo.area_name(area)} ({area})")
    # The share a filtered count is of: same years and place, before the arrest/domestic/location/month filters.
    context_mask = mask.copy()
    if months:
        months = sorted(set(int(m) for m in months))
        mask &= np.isin(arrays.month, months)
        filters["months"] = months
        described.append("months " + ", ".join(calendar.month_abbr[m] for m in months))
    if arrest_status != "any":
        mask &= arrays.arrest if arrest_status == "arrested" else ~arrays.arrest
        filters["arrest_status"] = arrest_status
        described.append("arrest made" if arrest_status == "arrested" else "no arrest")
    if domestic is not None:
        mask &= arrays.domestic if domestic else ~arrays.domestic
        filters["domestic"] = bool(domestic)
        described.append("domestic" if domestic else "non-domestic")
    if location_type is not None:
        code = check_location_type(arrays, location_type)
        mask &= arrays.location_code == code
        filters["location_type"] = arrays.location_types[code]
        described.append(f"location {arrays.location_types[code]}")

    total = int(mask.sum())
    arrests = int(arrays.arrest[mask].sum()) if total else 0
    domestic_n = int(arrays.domestic[mask].sum()) if total else 0
    rate = pct(arrests, total)
    filter_text = ", ".join(described)
    values: dict = {"total": total, "arrests": arrests, "arrest_rate_pct": rate, "domestic": domestic_n,
                    "start_year": start, "end_year": end, "filters": filters, "group_by": group_by}
    narrowed = bool(months) or arrest_status != "any" or domestic is not None or location_type is not None
    share_text = ""
    if narrowed:
        context_total = int(context_mask.sum())
        values["share_of"] = {"homicides": context_total, "share_pct": pct(total, context_total)}
        share_text = f", {fmt_pct(pct(total, context_total))} of {fmt_int(context_total)}"

    caveats = [HOMICIDE_CODE_CAVEAT] + partial_year_caveat(data, start, end)
    if end >= data.coverage["homicides"]["last_year"] - 2:
        caveats.append(ARREST_CAVEAT)
    if ward is not None or group_by == "ward":
        caveats.append(WARD_MAP_CAVEAT)
    geo_used = [g for g in ("ward", "community_area", "district")
                if (g == group_by) or filters.get(g) is not None]
    if geo_used:
        base = arrays.year_mask(start, end)
        for g in geo_used:
            missing = int((getattr(arrays, g)[base] == 0).sum())
            if missing:
                caveats.append(geo_missing_caveat(missing, g.replace("_", " "), start, end))
    if 0 < total < SMALL_NUMBER_LIMIT:
        caveats.append(f"Only {total} homicides matched; counts this small swing a lot by chance.")

    if total == 0:
        text = (f"0 homicides matched: {filter_text}. No rows in the snapshot fit all these filters "
                f"(coverage {data.coverage['homicides']['start']} to {data.coverage['homicides']['end']}).")
        values["breakdown"] = [] if group_by else None
        return make_result(TOOL_NAME, values=values, text=text, summary=f"0 homicides matched: {filter_text}",
                           datasets=["homicides"], data=data, caveats=caveats,
                           table=pd.DataFrame({"metric": ["homicides"], "value": [0]}), chart=None)

    lines = [f"Homicides, {filter_text}: {fmt_int(total)} (arrest made in {fmt_int(arrests)}, "
             f"arrest rate {fmt_pct(rate)}; domestic {fmt_int(domestic_n)})."]
    if narrowed:
        lines.append(f"That is {fmt_pct(values['share_of']['share_pct'])} of the "
                     f"{fmt_int(values['share_of']['homicides'])} homicides in the same years and place.")
    items: list[str] = []
    tail: list[str] = []
    chart = map_hint = None
    if group_by:
        if rank_by == "arrest_rate" and group_by not in RANKING_GROUPS:
            raise ToolArgumentError(f"rank_by arrest_rate needs group_by one of {', '.join(sorted(RANKING_GROUPS))}",
                                    "invalid_argument")
        rows, extra = _group(data, arrays, mask, group_by, start, end, top_n, sort_order, rank_by)
        if months and group_by == "month":  # months filtered out would only list zeros
            rows = [row for row in rows if row["month"] in months]
            if rows:
                extra["peak"] = max(rows, key=lambda r: r["homicides"])
                extra["low"] = min(rows, key=lambda r: r["homicides"])
        values["rank_by"] = rank_by
        values["breakdown"] = rows
        values.update(extra)
        table = pd.DataFrame(rows)
        if group_by in RANKING_GROUPS:
            if extra.get("missing_geography"):
                values["missing_geography"] = extra["missing_geography"]
            if rank_by == "arrest_rate":
                direction = "highest" if sort_order == "desc" else "lowest"
                lines.append(f"By {group_by.replace('_', ' ')} ({direction} arrest rate first, top {len(rows)}; "
                             f"only groups with at least {MIN_FOR_RATE_RANK} homicides, "
                             f"{extra['too_few_to_rank']} of {extra['groups']} left out):")
            else:
                direction = "most" if sort_order == "desc" else "fewest"
                lines.append(f"By {group_by.replace('_', ' ')} ({direction} first, top {len(rows)} of "
                             f"{extra['groups']}):")
        elif group_by == "month" and extra.get("month_mode") == "calendar_month":
            lines.append(f"By calendar month, summed over {years_label(start, end)}:")
        else:
            lines.append(f"By {group_by.replace('_', ' ')}:")
        for row in rows:
            if group_by in ("year", "month"):
                items.append(f"- {_label(group_by, row)}: {fmt_int(row['homicides'])} "
                             f"(arrest rate {fmt_pct(row['arrest_rate_pct'])})")
            else:
                items.append(f"- {_label(group_by, row)}: {fmt_int(row['homicides'])} ({fmt_pct(row['share_pct'])} "
                             f"of total; arrest rate {fmt_pct(row['arrest_rate_pct'])})")
        if "peak" in extra:
            tail.append(f"Highest: {_label(group_by, extra['peak'])} with {fmt_int(extra['peak']['homicides'])}; "
                         f"lowest: {_label(group_by, extra['low'])} with {fmt_int(extra['low']['homicides'])}.")
        if extra.get("missing_geography"):
            tail.append(f"{fmt_int(extra['missing_geography'])} matching rows have no "
                         f"{group_by.replace('_', ' ')} and are not ranked.")
        x = {"month": "year_month" if extra.get("month_mode") == "year_month" else "month_name",
             "community_area": "name"}.get(group_by, group_by)
        chart = {"type": "line" if group_by in ("year", "month") else "bar", "x": x, "y": "homicides",
                 "title": f"Homicides by {group_by.replace('_', ' ')}, {filter_text}"}
        if group_by == "community_area" and rank_by == "homicides":  # every area's count, for the page's map
            map_hint = area_counts_map(arrays.community_area[mask], chart["title"], years_label(start, end))
    else:
        values["breakdown"] = None
        table = pd.DataFrame({"metric": ["homicides", "arrests", "arrest rate %", "domestic"],
                              "value": [total, arrests, rate, domestic_n]})
    text = fit_lines(lines, items, tail)
    summary = f"{fmt_int(total)} homicides ({filter_text}{share_text}); arrest rate {fmt_pct(rate)}"
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=["homicides"], data=data,
                       caveats=caveats, table=table, chart=chart, map=map_hint)


def register(registry) -> None:
    registry.register(Tool(TOOL_NAME, DESCRIPTION, PARAMETERS, query_homicides_advanced, domain="homicides"))
