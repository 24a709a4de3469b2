"""compare_homicide_district_trends: homicides in one police district, ward or community area in two
periods, or (rank_places) every such place ranked by the change in its yearly average."""
from __future__ import annotations

import numpy as np
import pandas as pd

from tools.common import (
    AREA_SCHEMA,
    HOMICIDE_CODE_CAVEAT,
    SORT_SCHEMA,
    fmt_int,
    fmt_num,
    fmt_pct,
    make_result,
    partial_year_caveat,
)
from tools.errors import ToolArgumentError
from tools.homicide.common import (
    SMALL_NUMBER_LIMIT,
    WARD_MAP_CAVEAT,
    district_name,
    geo_missing_caveat,
    homicide_arrays,
    pct,
    resolve_years,
    years_label,
)
from tools.registry import Tool
from tools import names

TRENDS_NAME = names.DISTRICT_TRENDS
TRENDS_PARAMETERS = {
    "type": "object",
    "properties": {
        "period1_start": {"type": "integer", "description": "first year of the earlier period, 2001-2023"},
        "period1_end": {"type": "integer", "description": "last year of period 1 (default = period1_start)"},
        "period2_start": {"type": "integer", "description": "first year of the later period, 2001-2023"},
        "period2_end": {"type": "integer", "description": "last year of period 2 (default = period2_start)"},
        "district": {"type": "integer", "minimum": 1, "maximum": 25,
                     "description": "police district 1-25 (no 13, 21, 23)"},
        "ward": {"type": "integer", "minimum": 1, "maximum": 50, "description": "city ward 1-50"},
        "community_area": AREA_SCHEMA,
        "rank_places": {"type": "string", "enum": ["community_area", "ward", "district"],
                        "description": "instead of one place: rank these places by the change (biggest first)"},
        "top_n": {"type": "integer", "minimum": 1, "maximum": 77, "default": 10,
                  "description": "how many places to list with rank_places"},
        "sort_order": {**SORT_SCHEMA, "description": "desc = biggest increase first, asc = biggest decrease"},
    },
    "required": ["period1_start", "period2_start"],
}
TRENDS_DESCRIPTION = ("Compare homicides in ONE police district, ward or community area between two periods "
                      "(totals, yearly averages, % change, arrest rates, citywide change), or rank places by "
                      "the change with rank_places.")


def _period_stats(arrays, mask: np.ndarray, start: int, end: int) -> dict:
    sel = mask & arrays.year_mask(start, end)
    total = int(sel.sum())
    arrests = int(arrays.arrest[sel].sum())
    years = end - start + 1
    return {"start": start, "end": end, "label": years_label(start, end), "years": years, "homicides": total,
            "yearly_average": round(total / years, 1), "arrests": arrests, "arrest_rate_pct": pct(arrests, total)}


def _average_text(stats: dict) -> str:
    """A yearly average as written: a one-year period's is its whole count (a small model answering "2016
    compared to 2021" had written the average "28.0" for a year's 28 homicides)."""
    return f"{stats['homicides']:,}" if stats["years"] == 1 else fmt_num(stats["yearly_average"])


def _per_period(stats: dict) -> str:
    """A period in the summary: "28 homicides" for one year, "72.3/yr" for longer."""
    return _average_text(stats) + (" homicides" if stats["years"] == 1 else "/yr")


def change_pct(before: float, after: float) -> float | None:
    return None if not before else round(100.0 * (after - before) / before, 1)


def _one_place(data, arrays, district, ward, community_area) -> tuple[dict, np.ndarray, str]:
    """(where, row mask, label) for the single place a comparison is about."""
    geo = data.geography
    if district is not None:
        number = geo.check_district(district)
        where = {"type": "district", "id": number, "name": district_name(data, number)}
        return where, arrays.district == number, f"police district {number} ({where['name']})"
    if ward is not None:
        number = geo.check_ward(ward)
        return {"type": "ward", "id": number, "name": f"Ward {number}"}, arrays.ward == number, f"ward {number}"
    number = geo.resolve_area(community_area)
    where = {"type": "community_area", "id": number, "name": geo.area_name(number)}
    return where, arrays.community_area == number, f"{where['name']} (community area {number})"


def _yearly(arrays, mask: np.ndarray, p1: tuple, p2: tuple) -> list:
    """Homicides in each year of either period, tagged with the period it belongs to."""
    lo, hi = min(p1[0], p2[0]), max(p1[1], p2[1])
    counts = np.bincount((arrays.year[mask & arrays.year_mask(lo, hi)] - lo).astype(np.intp), minlength=hi - lo + 1)
    yearly = []
    for i in range(hi - lo + 1):
        y = lo + i
        tag = "period1" if p1[0] <= y <= p1[1] else "period2" if p2[0] <= y <= p2[1] else None
        if tag:
            yearly.append({"year": y, "period": tag, "homicides": int(counts[i])})
    return yearly


def _partial_year(data, p1: tuple, p2: tuple) -> dict | None:
    """The snapshot's last year when a period holds it and the snapshot ends before December 31."""
    cov = data.coverage["homicides"]
    last = cov["last_year"]
    if cov["end"].endswith("-12-31") or not any(start <= last <= end for start, end in (p1, p2)):
        return None
    return {"year": last, "data_end": cov["end"]}


def _comparison_caveats(data, arrays, where: dict, p1: tuple, p2: tuple, s1: dict, s2: dict) -> list:
    lo, hi = min(p1[0], p2[0]), max(p1[1], p2[1])
    caveats = [HOMICIDE_CODE_CAVEAT] + partial_year_caveat(data, lo, hi)
    if hi >= data.coverage["homicides"]["last_year"]:
        caveats.append(f"{data.coverage['homicides']['last_year']} is counted as a whole year in yearly averages "
                       "although it is partial, so a period including it has an understated yearly average.")
    if where["type"] == "ward":
        caveats.append(WARD_MAP_CAVEAT)
    if where["type"] in ("ward", "community_area"):
        missing = int((getattr(arrays, where["type"])[arrays.year_mask(lo, hi)] == 0).sum())
        if missing:
            caveats.append(geo_missing_caveat(missing, where["type"].replace("_", " "), lo, hi))
    if min(s1["homicides"], s2["homicides"]) < SMALL_NUMBER_LIMIT:
        caveats.append(f"Fewer than {SMALL_NUMBER_LIMIT} homicides in a period: the % change rests on small "
                       "numbers and can swing a lot by chance.")
    if not (p1[1] < p2[0] or p2[1] < p1[0]):
        caveats.append("The two periods overlap, so they share some homicides.")
    return caveats


def _describe(s: dict) -> str:
    return (f"{fmt_int(s['homicides'])} homicides in {s['label']} ({s['years']} yr, "
            f"{fmt_num(s['yearly_average'])} per year; arrest rate {fmt_pct(s['arrest_rate_pct'])})")


def _comparison_table(s1: dict, s2: dict, c1: dict, c2: dict) -> pd.DataFrame:
    return pd.DataFrame([{"period": f"period {n} ({s['label']})", "years": s["years"], "homicides": s["homicides"],
                          "yearly_average": s["yearly_average"], "arrest_rate_pct": s["arrest_rate_pct"],
                          "city_yearly_average": c["yearly_average"]}
                         for n, s, c in ((1, s1, c1), (2, s2, c2))])


def _average(stats: dict) -> float:
    """Unrounded yearly average, so the % change is not computed from rounded figures."""
    return stats["homicides"] / stats["years"]


def _periods(data, period1_start, period1_end, period2_start, period2_end) -> tuple[tuple, tuple]:
    p1 = resolve_years(data, None, period1_start, period1_start if period1_end is None else period1_end)
    p2 = resolve_years(data, None, period2_start, period2_start if period2_end is None else period2_end)
    return p1, p2


def compare_homicide_district_trends(data, period1_start, period2_start, period1_end=None, period2_end=None,
                                     district=None, ward=None, community_area=None, rank_places=None, top_n=10,
                                     sort_order="desc"):
    given = [k for k, v in (("district", district), ("ward", ward), ("community_area", community_area))
             if v is not None]
    if rank_places and not given:
        p1, p2 = _periods(data, period1_start, period1_end, period2_start, period2_end)
        return rank_changes(data, p1, p2, rank_places, top_n, sort_order)
    if len(given) != 1:
        raise ToolArgumentError(
            "give exactly one of district (police district 1-25), ward (1-50) or community_area (name or 1-77), "
            "or rank_places to rank every place by the change; "
            + ("none was given" if not given else f"got {', '.join(given)}"), "missing_argument" if not given
            else "conflicting_arguments")
    p1, p2 = _periods(data, period1_start, period1_end, period2_start, period2_end)
    arrays = homicide_arrays(data)
    where, mask, label = _one_place(data, arrays, district, ward, community_area)
    s1, s2 = _period_stats(arrays, mask, *p1), _period_stats(arrays, mask, *p2)
    everything = np.ones(arrays.n, dtype=bool)
    c1, c2 = _period_stats(arrays, everything, *p1), _period_stats(arrays, everything, *p2)
    change = change_pct(_average(s1), _average(s2)) if s1["homicides"] else None
    city_change = change_pct(_average(c1), _average(c2))
    arrest_change = (round(s2["arrest_rate_pct"] - s1["arrest_rate_pct"], 1)
                     if s1["arrest_rate_pct"] is not None and s2["arrest_rate_pct"] is not None else None)
    share1, share2 = pct(s1["homicides"], c1["homicides"]), pct(s2["homicides"], c2["homicides"])
    values = {"geography": where, "period1": s1, "period2": s2,
              "change_in_yearly_average_pct": change,
              "change_in_yearly_average": round(_average(s2) - _average(s1), 1),
              "arrest_rate_change_points": arrest_change,
              "citywide": {"period1": c1, "period2": c2, "change_in_yearly_average_pct": city_change},
              "yearly": _yearly(arrays, mask, p1, p2),
              "share_of_city_pct": {"period1": share1, "period2": share2}}
    change_text = (f"{'+' if change > 0 else ''}{fmt_pct(change)}" if change is not None
                   else "n/a (no homicides in period 1)")
    lines = [f"Homicides in {label}:",
             f"Period 1: {_describe(s1)}.", f"Period 2: {_describe(s2)}.",
             f"Change in {'homicides' if s1['years'] == s2['years'] == 1 else 'yearly average'}: {change_text} "
             f"({_average_text(s1)} -> {_average_text(s2)}); arrest rate change "
             f"{'n/a' if arrest_change is None else f'{arrest_change:+.1f} points'}.",
             f"Citywide for comparison: {_average_text(c1)} -> {_average_text(c2)} per year "
             f"({'+' if (city_change or 0) > 0 else ''}{fmt_pct(city_change)}); share of city "
             f"{fmt_pct(share1)} -> {fmt_pct(share2)}."]
    chart = {"type": "bar", "x": "period", "y": "yearly_average",
             "title": f"Homicides per year in {label}: {s1['label']} vs {s2['label']}"}
    partial = _partial_year(data, p1, p2)
    if partial:  # a yearly average over a period holding the partial year is understated: the summary says so
        values["partial_year"] = partial
    note = f"; {partial['year']} is partial, data end {partial['data_end']}, counted as a whole year" if partial else ""
    summary = f"{label}: {_per_period(s1)} ({s1['label']}) -> {_per_period(s2)} ({s2['label']}{note}), {change_text}"
    return make_result(TRENDS_NAME, values=values, text="\n".join(lines), summary=summary, datasets=["homicides"],
                       data=data, caveats=_comparison_caveats(data, arrays, where, p1, p2, s1, s2),
                       table=_comparison_table(s1, s2, c1, c2), chart=chart)


# ------------------------------------------------------------------ rank_places: every place by the change

PLACE_SIZES = {"community_area": 78, "ward": 51, "district": 26}  # codes 1..N; 0 = missing


def _place_label(data, kind: str, number: int) -> str:
    if kind == "community_area":
        return f"{data.geography.area_name(number)} ({number})"
    if kind == "district":
        return f"District {number} {district_name(data, number)}".strip()
    return f"Ward {number}"


def rank_changes(data, p1: tuple, p2: tuple, kind: str, top_n: int, sort_order: str):
    """Places ranked by the change in homicides per year from period 1 to period 2."""
    arrays = homicide_arrays(data)
    codes = getattr(arrays, kind)
    size = PLACE_SIZES[kind]
    years1, years2 = p1[1] - p1[0] + 1, p2[1] - p2[0] + 1
    n1 = np.bincount(codes[arrays.year_mask(*p1)].astype(np.intp), minlength=size)
    n2 = np.bincount(codes[arrays.year_mask(*p2)].astype(np.intp), minlength=size)
    avg1, avg2 = n1 / years1, n2 / years2
    places = [i for i in range(1, size) if n1[i] or n2[i]]
    # Biggest increase first for desc; ties broken by the place number so the order is stable.
    places.sort(key=lambda i: ((avg1[i] - avg2[i]) if sort_order == "desc" else (avg2[i] - avg1[i]), i))
    label1, label2 = years_label(*p1), years_label(*p2)
    rows = []
    for rank, i in enumerate(places[:top_n], start=1):
        change = avg2[i] - avg1[i]
        rows.append({"rank": rank, kind: int(i), "name": _place_label(data, kind, int(i)),
                     "period1_homicides": int(n1[i]), "period2_homicides": int(n2[i]),
                     "period1_yearly_average": round(float(avg1[i]), 1),
                     "period2_yearly_average": round(float(avg2[i]), 1),
                     "change_in_yearly_average": round(float(change), 1),
                     "change_pct": round(100.0 * change / avg1[i], 1) if avg1[i] else None})
    word = "increase" if sort_order == "desc" else "decrease"
    lines = [f"{kind.replace('_', ' ').capitalize()}s ranked by change in homicides per year, {label1} -> {label2} "
             f"(biggest {word} first, top {len(rows)} of {len(places)}):"]
    for row in rows:
        pct_text = "new" if row["change_pct"] is None else f"{'+' if row['change_pct'] > 0 else ''}" \
                                                          f"{fmt_pct(row['change_pct'])}"
        lines.append(f"{row['rank']}. {row['name']}: {fmt_num(row['period1_yearly_average'])} -> "
                     f"{fmt_num(row['period2_yearly_average'])} per year "
                     f"({'+' if row['change_in_yearly_average'] > 0 else ''}"
                     f"{fmt_num(row['change_in_yearly_average'])}, {pct_text})")
    caveats = [HOMICIDE_CODE_CAVEAT] + partial_year_caveat(data, min(p1[0], p2[0]), max(p1[1], p2[1]))
    if kind == "ward":
        caveats.append(WARD_MAP_CAVEAT)
    caveats.append("Places with few homicides can show large percentage swings by chance; the ranking uses the "
                   "change in homicides per year, not the percentage.")
    summary = (f"Biggest {word} {label1} -> {label2}: {rows[0]['name']} "
               f"{fmt_num(rows[0]['period1_yearly_average'])} -> {fmt_num(rows[0]['period2_yearly_average'])}/yr"
               if rows else f"no homicides in either period ({label1}, {label2})")
    values = {"ranking_of": kind, "period1": {"start": p1[0], "end": p1[1], "label": label1},
              "period2": {"start": p2[0], "end": p2[1], "label": label2}, "rows": rows, "places": len(places)}
    chart = {"type": "bar", "x": "name", "y": "change_in_yearly_average",
             "title": f"Change in homicides per year, {label1} -> {label2}"}
    return make_result(TRENDS_NAME, values=values, text="\n".join(lines), summary=summary, datasets=["homicides"],
                       data=data, caveats=caveats, table=pd.DataFrame(rows), chart=chart)


def register(registry) -> None:
    registry.register(Tool(TRENDS_NAME, TRENDS_DESCRIPTION, TRENDS_PARAMETERS, compare_homicide_district_trends, domain="homicides",
                           label="Homicide data"))
