"""Homicide counts with filters and one grouping: the workhorse homicide tool.

Everything is computed on plain numpy arrays prepared once per DataBundle (see ``homicide_arrays``),
so one call is a handful of vectorised comparisons plus ``np.bincount`` — fast at 12,657 rows and
still well under 100 ms when the table is replicated to ~1.3 M rows.
"""
from __future__ import annotations

import calendar
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from tools.common import (
    AREA_SCHEMA,
    HOMICIDE_CODE_CAVEAT,
    SORT_SCHEMA,
    fit_text,
    fmt_int,
    fmt_pct,
    make_result,
    partial_year_caveat,
)
from tools.errors import ToolArgumentError
from tools.homicide.common import (
    ARREST_CAVEAT,
    SMALL_NUMBER_LIMIT,
    WARD_MAP_CAVEAT,
    HomicideArrays,
    check_location_type,
    district_name,
    geo_missing_caveat,
    homicide_arrays,
    number_set,
    pct,
    resolve_years,
    years_label,
    years_phrase,
)
from tools.map_hints import area_counts_map
from tools.registry import Tool
from tools import names

TOOL_NAME = names.HOMICIDES

GROUP_BY = ["year", "month", "weekday", "hour", "ward", "district", "community_area", "location_type", "arrest",
            "domestic"]
TIME_GROUPS = ("year", "month", "weekday", "hour")  # listed in time order, with the peak named
RANK_BY = ["homicides", "arrest_rate"]
# An arrest rate from a handful of cases says little: rank only groups with at least this many.
MIN_FOR_RATE_RANK = 5
ARREST_STATUS = ["any", "arrested", "not_arrested"]
RANKING_GROUPS = {"ward", "district", "community_area", "location_type"}
GEO_COLUMNS = {"ward": "ward", "district": "district", "community_area": "community_area"}

# ------------------------------------------------------------------ the tool

PARAMETERS = {
    "type": "object",
    "properties": {
        "year": {"type": "integer", "description": "a single year 2001-2023 (same as start_year = end_year)"},
        "start_year": {"type": "integer", "description": "first year, 2001-2023 (default 2001)"},
        "end_year": {"type": "integer", "description": "last year, 2001-2023 (default 2023; 2023 is partial)"},
        "ward": {"type": "integer", "minimum": 1, "maximum": 50, "description": "city ward 1-50"},
        "wards": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 50}, "maxItems": 50,
                  "description": "several wards counted together, e.g. [1, 2, 3]"},
        "district": {"type": "integer", "minimum": 1, "maximum": 25,
                     "description": "police district 1-25 (no 13, 21, 23)"},
        "districts": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 25}, "maxItems": 25,
                      "description": "several police districts counted together"},
        "community_area": AREA_SCHEMA,
        "arrest_status": {"type": "string", "enum": ARREST_STATUS, "default": "any",
                          "description": "arrested = an arrest was made, not_arrested = none, any = both"},
        "domestic": {"type": "boolean", "description": "true = domestic-related only, false = non-domestic only"},
        "location_type": {"type": "string", "description": "place type, e.g. STREET, APARTMENT, AUTO, ALLEY"},
        "group_by": {"type": "string", "enum": GROUP_BY,
                     "description": "break the count down by this (year/month/weekday/hour = time pattern, "
                                    "others = ranking)"},
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

DESCRIPTION = ("Count Chicago homicides 2001-2023 with filters (years, ward(s), police district(s), community area, "
               "arrest, domestic, location type), optionally grouped by year, month, weekday, hour, ward, district, "
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
    elif group_by == "weekday":
        n, a = counts_for(arrays.weekday[mask].astype(np.intp), 7)
        for d in range(7):
            rows.append({"weekday": d + 1, "weekday_name": calendar.day_name[d], "homicides": int(n[d]),
                         "arrests": int(a[d])})
    elif group_by == "hour":
        n, a = counts_for(arrays.hour[mask].astype(np.intp), 24)
        for h in range(24):
            rows.append({"hour": h, "hour_label": f"{h:02d}:00-{h:02d}:59", "homicides": int(n[h]),
                         "arrests": int(a[h])})
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
    if group_by in TIME_GROUPS and rows:
        top = max(rows, key=lambda r: r["homicides"])
        low = min(rows, key=lambda r: r["homicides"])
        extra["peak"], extra["low"] = top, low
    if group_by == "year" and 2 <= len(rows) <= 12:
        extra["change"] = _change(rows[0], rows[-1])
    return rows, extra


def _change(first: dict, last: dict) -> dict:
    """First year against last year of a short series: the figures a comparison question asks for."""
    before, after = first["homicides"], last["homicides"]
    return {"from_year": first["year"], "to_year": last["year"], "from": before, "to": after,
            "difference": after - before, "pct": None if not before else round(100.0 * (after - before) / before, 1)}


def _label(group_by: str, row: dict) -> str:
    if group_by == "community_area":
        return f"{row['name']} ({row['community_area']})"
    if group_by == "district":
        return f"District {row['district']}" + (f" {row['name']}" if row.get("name") else "")
    if group_by == "ward":
        return f"Ward {row['ward']}"
    if group_by == "month":
        return f"{row['month_name']} {row['year']}" if row.get("year_month") else row["month_name"]
    if group_by == "weekday":
        return row["weekday_name"]
    if group_by == "hour":
        return row["hour_label"]
    if group_by in ("arrest", "domestic"):
        if group_by == "arrest":
            return "arrest made" if row["arrest"] else "no arrest"
        return "domestic" if row["domestic"] else "non-domestic"
    return str(row[group_by])


@dataclass
class _Selection:
    """The rows a call selects, and how the filters read in the answer."""

    mask: np.ndarray
    filters: dict = field(default_factory=dict)
    described: list = field(default_factory=list)

    def narrow(self, keep: np.ndarray, key: str, value, words: str) -> None:
        self.mask &= keep
        self.filters[key] = value
        self.described.append(words)


def _select_place(data, arrays: HomicideArrays, sel: _Selection, ward, district, community_area, wards=None,
                  districts=None) -> None:
    geo = data.geography
    if wards:
        wards = sorted({geo.check_ward(w) for w in wards})
        sel.narrow(np.isin(arrays.ward, wards), "wards", wards, f"wards {number_set(wards)}")
    if districts:
        districts = sorted({geo.check_district(d) for d in districts})
        sel.narrow(np.isin(arrays.district, districts), "districts", districts,
                   f"police districts {number_set(districts)}")
    if ward is not None:
        ward = geo.check_ward(ward)
        sel.narrow(arrays.ward == ward, "ward", ward, f"ward {ward}")
    if district is not None:
        district = geo.check_district(district)
        sel.narrow(arrays.district == district, "district", district,
                   f"district {district} ({district_name(data, district)})")
    if community_area is not None:
        area = geo.resolve_area(community_area)
        sel.narrow(arrays.community_area == area, "community_area", area,
                   f"community area {geo.area_name(area)} ({area})")
        sel.filters["community_area_name"] = geo.area_name(area)


def _select_kind(arrays: HomicideArrays, sel: _Selection, months, arrest_status, domestic, location_type) -> None:
    if months:
        months = sorted(set(int(m) for m in months))
        sel.narrow(np.isin(arrays.month, months), "months", months,
                   "months " + ", ".join(calendar.month_abbr[m] for m in months))
    if arrest_status != "any":
        sel.narrow(arrays.arrest if arrest_status == "arrested" else ~arrays.arrest, "arrest_status", arrest_status,
                   "arrest made" if arrest_status == "arrested" else "no arrest")
    if domestic is not None:
        sel.narrow(arrays.domestic if domestic else ~arrays.domestic, "domestic", bool(domestic),
                   "domestic" if domestic else "non-domestic")
    if location_type is not None:
        code = check_location_type(arrays, location_type)
        sel.narrow(arrays.location_code == code, "location_type", arrays.location_types[code],
                   f"location {arrays.location_types[code]}")


def _caveats(data, arrays: HomicideArrays, sel: _Selection, group_by, start: int, end: int, total: int) -> list:
    caveats = [HOMICIDE_CODE_CAVEAT] + partial_year_caveat(data, start, end)
    if end >= data.coverage["homicides"]["last_year"] - 2:
        caveats.append(ARREST_CAVEAT)
    if "ward" in sel.filters or "wards" in sel.filters or group_by == "ward":
        caveats.append(WARD_MAP_CAVEAT)
    geo_used = [g for g in ("ward", "community_area", "district") if g == group_by or sel.filters.get(g) is not None]
    base = arrays.year_mask(start, end)
    for g in geo_used:
        missing = int((getattr(arrays, g)[base] == 0).sum())
        if missing:
            caveats.append(geo_missing_caveat(missing, g.replace("_", " "), start, end))
    if 0 < total < SMALL_NUMBER_LIMIT:
        caveats.append(f"Only {total} homicides matched; counts this small swing a lot by chance.")
    return caveats


def _breakdown_heading(group_by: str, rows: list, extra: dict, rank_by: str, sort_order: str, start: int,
                       end: int) -> str:
    if group_by in RANKING_GROUPS:
        if rank_by == "arrest_rate":
            direction = "highest" if sort_order == "desc" else "lowest"
            return (f"By {group_by.replace('_', ' ')} ({direction} arrest rate first, top {len(rows)}; "
                    f"only groups with at least {MIN_FOR_RATE_RANK} homicides, "
                    f"{extra['too_few_to_rank']} of {extra['groups']} left out):")
        direction = "most" if sort_order == "desc" else "fewest"
        return f"By {group_by.replace('_', ' ')} ({direction} first, top {len(rows)} of {extra['groups']}):"
    if group_by == "month" and extra.get("month_mode") == "calendar_month":
        return f"By calendar month, summed over {years_label(start, end)}:"
    return f"By {group_by.replace('_', ' ')}:"


def _breakdown_lines(group_by: str, rows: list, extra: dict) -> tuple[list, list]:
    """One line per group, then the peak/low and unranked-rows notes."""
    items, tail = [], []
    for row in rows:
        if group_by in TIME_GROUPS:
            items.append(f"- {_label(group_by, row)}: {fmt_int(row['homicides'])} "
                         f"(arrest rate {fmt_pct(row['arrest_rate_pct'])})")
        else:
            items.append(f"- {_label(group_by, row)}: {fmt_int(row['homicides'])} ({fmt_pct(row['share_pct'])} "
                         f"of total; arrest rate {fmt_pct(row['arrest_rate_pct'])})")
    if "peak" in extra:
        tail.append(f"Highest: {_label(group_by, extra['peak'])} with {fmt_int(extra['peak']['homicides'])}; "
                    f"lowest: {_label(group_by, extra['low'])} with {fmt_int(extra['low']['homicides'])}.")
    if "change" in extra:
        c = extra["change"]
        share = "n/a" if c["pct"] is None else f"{c['pct']:+.1f}%"
        tail.append(f"Change from {c['from_year']} to {c['to_year']}: {c['difference']:+,} ({share}).")
    if extra.get("missing_geography"):
        tail.append(f"{fmt_int(extra['missing_geography'])} matching rows have no "
                    f"{group_by.replace('_', ' ')} and are not ranked.")
    return items, tail


def _breakdown(data, arrays, sel: _Selection, values: dict, group_by, start, end, top_n, sort_order, rank_by,
               months, filter_text: str):
    """Rows per group into ``values``; returns (heading, item lines, tail lines, table, chart)."""
    if rank_by == "arrest_rate" and group_by not in RANKING_GROUPS:
        raise ToolArgumentError(f"rank_by arrest_rate needs group_by one of {', '.join(sorted(RANKING_GROUPS))}",
                                "invalid_argument")
    rows, extra = _group(data, arrays, sel.mask, group_by, start, end, top_n, sort_order, rank_by)
    if months and group_by == "month":  # months filtered out would only list zeros
        rows = [row for row in rows if row["month"] in months]
        if rows:
            extra["peak"] = max(rows, key=lambda r: r["homicides"])
            extra["low"] = min(rows, key=lambda r: r["homicides"])
    values["rank_by"] = rank_by
    values["breakdown"] = rows
    values.update(extra)
    if group_by in RANKING_GROUPS and extra.get("missing_geography"):
        values["missing_geography"] = extra["missing_geography"]
    items, tail = _breakdown_lines(group_by, rows, extra)
    x = {"month": "year_month" if extra.get("month_mode") == "year_month" else "month_name",
         "community_area": "name", "weekday": "weekday_name", "hour": "hour_label"}.get(group_by, group_by)
    chart = {"type": "line" if group_by in ("year", "month", "hour") else "bar", "x": x, "y": "homicides",
             "title": f"Homicides by {group_by.replace('_', ' ')}, {filter_text}"}
    heading = _breakdown_heading(group_by, rows, extra, rank_by, sort_order, start, end)
    return heading, items, tail, pd.DataFrame(rows), chart


def query_homicides_advanced(data, year=None, start_year=None, end_year=None, ward=None, district=None,
                             community_area=None, arrest_status="any", domestic=None, location_type=None,
                             group_by=None, top_n=10, sort_order="desc", rank_by="homicides", months=None,
                             wards=None, districts=None):
    start, end = resolve_years(data, year, start_year, end_year)
    arrays = homicide_arrays(data)
    sel = _Selection(arrays.year_mask(start, end), {"years": years_label(start, end)}, [years_phrase(start, end)])
    _select_place(data, arrays, sel, ward, district, community_area, wards, districts)
    # The share a filtered count is of: same years and place, before the arrest/domestic/location/month filters.
    context_mask = sel.mask.copy()
    _select_kind(arrays, sel, months, arrest_status, domestic, location_type)
    months = sel.filters.get("months")
    mask = sel.mask

    total = int(mask.sum())
    arrests = int(arrays.arrest[mask].sum()) if total else 0
    domestic_n = int(arrays.domestic[mask].sum()) if total else 0
    rate = pct(arrests, total)
    filter_text = ", ".join(sel.described)
    values: dict = {"total": total, "arrests": arrests, "arrest_rate_pct": rate, "domestic": domestic_n,
                    "start_year": start, "end_year": end, "filters": sel.filters, "group_by": group_by}
    narrowed = bool(months) or arrest_status != "any" or domestic is not None or location_type is not None
    share_text = ""
    if narrowed:
        context_total = int(context_mask.sum())
        values["share_of"] = {"homicides": context_total, "share_pct": pct(total, context_total)}
        share_text = f", {fmt_pct(pct(total, context_total))} of {fmt_int(context_total)}"
    caveats = _caveats(data, arrays, sel, group_by, start, end, total)

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
    items, tail, chart, map_hint = [], [], None, None
    if group_by:
        heading, items, tail, table, chart = _breakdown(data, arrays, sel, values, group_by, start, end, top_n,
                                                        sort_order, rank_by, months, filter_text)
        lines.append(heading)
        if group_by == "community_area" and rank_by == "homicides":  # every area's count, for the page's map
            map_hint = area_counts_map(arrays.community_area[mask], chart["title"], years_label(start, end))
    else:
        values["breakdown"] = None
        table = pd.DataFrame({"metric": ["homicides", "arrests", "arrest rate %", "domestic"],
                              "value": [total, arrests, rate, domestic_n]})
    text = fit_text(lines, items, tail)
    summary = f"{fmt_int(total)} homicides ({filter_text}{share_text}); arrest rate {fmt_pct(rate)}"
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=["homicides"], data=data,
                       caveats=caveats, table=table, chart=chart, map=map_hint)


def register(registry) -> None:
    registry.register(Tool(TOOL_NAME, DESCRIPTION, PARAMETERS, query_homicides_advanced, domain="homicides",
                           label="Homicide data"))
