"""compare_homicide_district_trends: homicides in one police district, ward or community area in two
periods, or (rank_places) every such place ranked by the change in its yearly average.

A thin view of the semantic layer: a place's homicides and arrests in each period, the city's, each year's count
and the rows with no place recorded are queries of the homicides dataset; a ranking is one query by place of each
period's count and yearly average (per_year), their change and percent change, places with none in either period
left out and the rest ordered by the change. The tool keeps its schema and shapes the answer."""
from __future__ import annotations

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
    homicide_query,
    SMALL_NUMBER_LIMIT,
    WARD_MAP_CAVEAT,
    district_name,
    geo_missing_caveat,
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


def _span(start: int, end: int) -> dict:
    return {"start": str(start), "end": str(end)}


def _period_stats(total, arrests, start: int, end: int) -> dict:
    total, arrests = int(total), int(arrests)
    years = end - start + 1
    return {"start": start, "end": end, "label": years_label(start, end), "years": years, "homicides": total,
            "yearly_average": round(total / years, 1), "arrests": arrests, "arrest_rate_pct": pct(arrests, total)}


def _both_periods(data, place: list, p1: tuple, p2: tuple) -> tuple[dict, dict]:
    """A place's (or, with no filter, the city's) homicides and arrests in each period: one query."""
    measures = [{"measure": m, "period": _span(*p), "as": f"{m}_{n}"}
                for n, p in ((1, p1), (2, p2)) for m in ("homicides", "arrests")]
    row = homicide_query(data, {"measures": measures, **({"filters": place} if place else {})}).rows[0]
    return tuple(_period_stats(row[f"homicides_{n}"], row[f"arrests_{n}"], *p) for n, p in ((1, p1), (2, p2)))


def _average_text(stats: dict) -> str:
    """A yearly average as written: a one-year period's is its whole count (a small model answering "2016
    compared to 2021" had written the average "28.0" for a year's 28 homicides)."""
    return f"{stats['homicides']:,}" if stats["years"] == 1 else fmt_num(stats["yearly_average"])


def _per_period(stats: dict) -> str:
    """A period in the summary: "28 homicides" for one year, "72.3/yr" for longer."""
    return _average_text(stats) + (" homicides" if stats["years"] == 1 else "/yr")


def change_pct(before: float, after: float) -> float | None:
    return None if not before else round(100.0 * (after - before) / before, 1)


def _one_place(data, district, ward, community_area) -> tuple[dict, list, str]:
    """(where, the query filter to it, label) for the single place a comparison is about."""
    geo = data.geography
    if district is not None:
        number = geo.check_district(district)
        where = {"type": "district", "id": number, "name": district_name(data, number)}
        label = f"police district {number} ({where['name']})"
    elif ward is not None:
        number = geo.check_ward(ward)
        where, label = {"type": "ward", "id": number, "name": f"Ward {number}"}, f"ward {number}"
    else:
        number = geo.resolve_area(community_area)
        where = {"type": "community_area", "id": number, "name": geo.area_name(number)}
        label = f"{where['name']} (community area {number})"
    return where, [{"dimension": where["type"], "in": [number]}], label


def _yearly(data, place: list, p1: tuple, p2: tuple) -> list:
    """Homicides in each year of either period, tagged with the period it belongs to: one query by year."""
    years = sorted(set(range(p1[0], p1[1] + 1)) | set(range(p2[0], p2[1] + 1)))
    rows = homicide_query(data, {"measures": ["homicides"], "group_by": ["year"], "period": {"years": years},
                            "filters": place}).rows
    counts = {int(r["year"]): int(r["homicides"]) for r in rows}
    return [{"year": y, "period": "period1" if p1[0] <= y <= p1[1] else "period2", "homicides": counts.get(y, 0)}
            for y in years]


def _without_place(data, kind: str, lo: int, hi: int) -> int:
    """Homicide rows in the years that record no ``kind``: the city's count less the places' (the query's totals)."""
    totals = homicide_query(data, {"measures": [{"measure": "homicides", "period": _span(lo, hi)}], "group_by": [kind],
                              "totals": True}).totals
    return int(totals["homicides_city"] - totals["homicides"])


def _partial_year(data, p1: tuple, p2: tuple) -> dict | None:
    """The snapshot's last year when a period holds it and the snapshot ends before December 31."""
    cov = data.coverage["homicides"]
    last = cov["last_year"]
    if cov["end"].endswith("-12-31") or not any(start <= last <= end for start, end in (p1, p2)):
        return None
    return {"year": last, "data_end": cov["end"]}


def _comparison_caveats(data, where: dict, p1: tuple, p2: tuple, s1: dict, s2: dict) -> list:
    lo, hi = min(p1[0], p2[0]), max(p1[1], p2[1])
    caveats = [HOMICIDE_CODE_CAVEAT] + partial_year_caveat(data, lo, hi)
    if hi >= data.coverage["homicides"]["last_year"]:
        caveats.append(f"{data.coverage['homicides']['last_year']} is counted as a whole year in yearly averages "
                       "although it is partial, so a period including it has an understated yearly average.")
    if where["type"] == "ward":
        caveats.append(WARD_MAP_CAVEAT)
    if where["type"] in ("ward", "community_area"):
        missing = _without_place(data, where["type"], lo, hi)
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
    where, place, label = _one_place(data, district, ward, community_area)
    s1, s2 = _both_periods(data, place, p1, p2)
    c1, c2 = _both_periods(data, [], p1, p2)
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
              "yearly": _yearly(data, place, p1, p2),
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
                       data=data, caveats=_comparison_caveats(data, where, p1, p2, s1, s2),
                       table=_comparison_table(s1, s2, c1, c2), chart=chart)


# ------------------------------------------------------------------ rank_places: every place by the change

def _place_label(data, kind: str, number: int) -> str:
    if kind == "community_area":
        return f"{data.geography.area_name(number)} ({number})"
    if kind == "district":
        return f"District {number} {district_name(data, number)}".strip()
    return f"Ward {number}"


def rank_changes(data, p1: tuple, p2: tuple, kind: str, top_n: int, sort_order: str):
    """Places ranked by the change in homicides per year from period 1 to period 2: one query by place."""
    first, second = _span(*p1), _span(*p2)
    query = {"measures": [{"measure": "homicides", "period": first, "as": "n1"},
                          {"measure": "homicides", "period": second, "as": "n2"},
                          {"measure": "homicides", "period": first, "per_year": True, "as": "a1"},
                          {"measure": "homicides", "period": second, "per_year": True, "as": "a2"}],
             "group_by": [kind], "derived": [{"name": "change", "op": "change", "of": ["a1", "a2"]},
                                             {"name": "change_pct", "op": "pct_change", "of": ["a1", "a2"]},
                                             {"name": "both", "op": "sum", "of": ["n1", "n2"]}],
             # a place with none in either period is not ranked; ties keep the place number's order
             "having": [{"field": "both", "op": ">", "value": 0}],
             "order_by": [{"field": "change", "direction": sort_order}]}
    places = homicide_query(data, query).rows
    label1, label2 = years_label(*p1), years_label(*p2)
    rows = []
    for rank, r in enumerate(places[:top_n], start=1):
        i = int(r[kind])
        rows.append({"rank": rank, kind: i, "name": _place_label(data, kind, i),
                     "period1_homicides": int(r["n1"]), "period2_homicides": int(r["n2"]),
                     "period1_yearly_average": round(r["a1"], 1), "period2_yearly_average": round(r["a2"], 1),
                     "change_in_yearly_average": round(r["change"], 1),
                     "change_pct": None if r["change_pct"] is None else round(r["change_pct"], 1)})
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
