"""Socioeconomic indicators by community area (ACS 2008-2012 via the city portal, kn9c-c2s2).

One tool, ``query_socioeconomic``: per capita income, poverty, unemployment, education,
crowding, dependency and the hardship index for one area, a comparison of several, a ranking
across the 77 areas, or the city-wide row. Every answer quotes the city-wide value for context.

A thin view of the semantic layer (semantic/datasets/socioeconomic.py): the 77 areas' indicators with each one's
rank (highest first) are one query by community area, the city's published figures one query with no grouping,
both made once per bundle; the areas above or below a value are a query with ``having``. The tool keeps its
schema, orders and words the rows, and shapes the answer; a call is a few dictionary look-ups.
"""
from __future__ import annotations

from semantic.executor import run_query
from tools.common import (
    AREA_SCHEMA,
    COMPARE_SCHEMA,
    SORT_SCHEMA,
    TOP_N_SCHEMA,
    WARD_SCHEMA,
    ZIP_SCHEMA,
    fit_text,
    fmt_int,
    fmt_money,
    fmt_pct,
    make_result,
    resolve_areas,
    rows_table,
    unsupported_geography,
)
from tools.map_hints import area_map
from tools.errors import ToolArgumentError
from tools.registry import Tool
from tools import names

TOOL_NAME = names.SOCIOECONOMIC
DATASETS = ["socioeconomic"]
CACHE_KEY = "_socioeconomic_cache"

# metric -> [(column, label, kind)]; kind picks the number format.
METRICS: dict[str, list[tuple[str, str, str]]] = {
    "income": [("per_capita_income", "per capita income", "money")],
    "poverty": [("pct_households_below_poverty", "households below poverty", "pct")],
    "unemployment": [("pct_aged_16_plus_unemployed", "aged 16+ unemployed", "pct")],
    "education": [("pct_aged_25_plus_without_hs_diploma", "aged 25+ without a high-school diploma", "pct")],
    "hardship": [("hardship_index", "hardship index (1-100, higher = more hardship)", "index")],
    "crowding": [("pct_housing_crowded", "housing units crowded", "pct")],
    "dependency": [("pct_aged_under_18_or_over_64", "aged under 18 or over 64", "pct")],
}
METRIC_NAMES = list(METRICS) + ["all"]
ALL_COLUMNS = [spec for specs in METRICS.values() for spec in specs]
COLUMN_SPEC = {col: (label, kind) for col, label, kind in ALL_COLUMNS}
SHORT_LABEL = {
    "per_capita_income": "income per capita", "pct_households_below_poverty": "poverty",
    "pct_aged_16_plus_unemployed": "unemployed", "pct_aged_25_plus_without_hs_diploma": "no HS diploma",
    "hardship_index": "hardship", "pct_housing_crowded": "crowded", "pct_aged_under_18_or_over_64": "dependency",
}

STALE_CAVEAT = ("These are 2008-2012 American Community Survey 5-year estimates (city portal kn9c-c2s2); "
                "they are not current and are sample estimates with margins of error.")
HARDSHIP_CAVEAT = ("The hardship index (1-100) combines crowding, poverty, unemployment, education, dependency and "
                   "income relative to the other community areas; it is not published for the city as a whole.")


# ------------------------------------------------------------------ per-bundle cache (queries of the layer)

# the file's column -> the layer's measure
MEASURES = {"per_capita_income": "per_capita_income", "pct_households_below_poverty": "pct_households_below_poverty",
            "pct_aged_16_plus_unemployed": "pct_unemployed", "pct_aged_25_plus_without_hs_diploma": "pct_without_diploma",
            "hardship_index": "hardship_index", "pct_housing_crowded": "pct_housing_crowded",
            "pct_aged_under_18_or_over_64": "pct_under_18_or_over_64"}
CITY_NONE = ("hardship_index",)  # published per community area only: the layer has no city figure for it


def _typed(column: str, value):
    return int(value) if value is not None and COLUMN_SPEC[column][1] != "pct" else value


def _cache(data) -> dict:
    cached = data.__dict__.get(CACHE_KEY)
    table = data.socioeconomic
    if cached is not None and cached["source"] is table:
        return cached
    columns = [col for col, _, _ in ALL_COLUMNS]
    by_area = run_query(data, {
        "measures": [{"measure": MEASURES[c], "as": c} for c in columns], "group_by": ["community_area"],
        "derived": [{"name": f"rank_{c}", "op": "rank", "of": [c]} for c in columns]}).rows  # 1 = highest value
    published = [c for c in columns if c not in CITY_NONE]
    city_row = run_query(data, {"measures": [{"measure": MEASURES[c], "as": c} for c in published]}).rows[0]
    city = {col: _typed(col, city_row.get(col)) for col in columns}
    records, ranks = {}, {}
    for row in by_area:
        number = int(row["community_area"])
        records[number] = {"community_area": number, "name": row["community_area_name"],
                           **{col: _typed(col, row[col]) for col in columns}}
        ranks[number] = {col: None if row[col] is None else int(row[f"rank_{col}"]) for col in columns}
    # The rank from the lowest ("3rd lowest of 77") is the wording's: 1 + the areas with a lower value.
    valued = {col: [r[col] for r in records.values() if r[col] is not None] for col in columns}
    ranks_low = {n: {col: None if r[col] is None else 1 + sum(v < r[col] for v in valued[col]) for col in columns}
                 for n, r in records.items()}
    cached = {"source": table, "records": records, "city": city, "ranks": ranks, "ranks_low": ranks_low,
              "counts": {col: len(valued[col]) for col in columns}}
    data.__dict__[CACHE_KEY] = cached
    return cached


# ------------------------------------------------------------------ formatting

def fmt_value(column: str, value) -> str:
    kind = COLUMN_SPEC[column][1]
    if value is None:
        return "n/a"
    if kind == "money":
        return fmt_money(value)
    if kind == "pct":
        return fmt_pct(value)
    return fmt_int(value)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _rank_words(rank_high: int, rank_low: int, count: int) -> str:
    """'2nd highest of 77' for the top half, '3rd lowest of 77' for the bottom half (ties share a rank)."""
    if rank_high <= rank_low:
        return f"{_ordinal(rank_high)} highest of {count}"
    return f"{_ordinal(rank_low)} lowest of {count}"


MAP_UNITS = {"money": "dollars", "pct": "percent", "index": "index (1-100)"}


def _map(cache, column: str) -> dict:
    """The page's map of one indicator over all 77 areas (the hardship index for metric 'all')."""
    label, kind = COLUMN_SPEC[column]
    return area_map(column, MAP_UNITS[kind], label[0].upper() + label[1:], "2008-2012",
                    {n: record[column] for n, record in cache["records"].items()})


def _columns_for(metric: str) -> list[str]:
    specs = ALL_COLUMNS if metric == "all" else METRICS[metric]
    return [col for col, _, _ in specs]


def _rank_column(metric: str) -> str:
    return "hardship_index" if metric == "all" else METRICS[metric][0][0]


# ------------------------------------------------------------------ the tool

def query_socioeconomic(data, community_area=None, compare_areas=None, metric="all", top_n=None,
                        sort_order="desc", ward=None, zip=None, above=None, below=None):
    cache = _cache(data)
    geo = data.geography
    numbers = resolve_areas(geo, community_area, compare_areas)
    if above is not None or below is not None:
        return _condition(data, cache, metric, above, below, numbers)
    caveats = unsupported_geography(data, "The socioeconomic indicators dataset (2008-2012)", ward=ward,
                                    zip_code=zip, answered=bool(numbers) or top_n is not None)
    columns = _columns_for(metric)
    caveats.append(STALE_CAVEAT)
    if "hardship_index" in columns:
        caveats.append(HARDSHIP_CAVEAT)
    city = {col: cache["city"][col] for col in columns}
    if numbers and top_n is not None:
        caveats.append(f"top_n={top_n} was ignored because specific community areas were named.")
    if len(numbers) == 1:
        return _single(data, cache, numbers[0], metric, columns, city, caveats)
    if numbers:
        return _comparison(data, cache, numbers, metric, columns, city, caveats)
    if top_n is not None:
        return _ranking(data, cache, metric, columns, city, top_n, sort_order, caveats)
    return _citywide(data, cache, metric, columns, city, caveats)


def _single(data, cache, number, metric, columns, city, caveats):
    record = cache["records"][number]
    ranks = cache["ranks"][number]
    name = record["name"]
    values = {"scope": "area", "community_area": number, "name": name, "metric": metric,
              "period": "2008-2012"}
    lines = [f"{name} (community area {number}), ACS 2008-2012:"]
    for col in columns:
        values[col] = record[col]
        rank = ranks[col]
        rank_text = f"; {_rank_words(rank, cache['ranks_low'][number][col], cache['counts'][col])}" if rank else ""
        city_text = "city n/a" if city[col] is None else f"city {fmt_value(col, city[col])}"
        lines.append(f"- {COLUMN_SPEC[col][0]}: {fmt_value(col, record[col])} ({city_text}{rank_text})")
    values["rank_high_to_low"] = {col: ranks[col] for col in columns}
    values["city"] = city
    head = columns[0] if metric != "all" else "per_capita_income"
    versus = f" vs {fmt_value(head, city[head])} city-wide" if city[head] is not None else ""
    # the place's rank beside its figure ("21st lowest of 77"): where it stands is part of what the figure says
    placed = f"; {_rank_words(ranks[head], cache['ranks_low'][number][head], cache['counts'][head])}" \
        if ranks[head] and head != "hardship_index" else ""
    summary = f"{name}: {COLUMN_SPEC[head][0]} {fmt_value(head, record[head])}{versus} (2008-2012{placed})"
    if head == "hardship_index":
        summary += f", rank {ranks[head]} of 77 (1 = most hardship)"
    if metric == "all":
        summary += f"; hardship index {fmt_value('hardship_index', record['hardship_index'])}"
    table = rows_table([(COLUMN_SPEC[c][0], record[c], city[c], ranks[c]) for c in columns],
                       ["indicator", name, "Chicago", "rank (1 = highest)"])
    chart = None if metric == "all" else {  # 'all' mixes dollars, percentages and an index: no single axis
        "type": "bar", "x": "indicator", "y": name, "title": f"{name}: {COLUMN_SPEC[columns[0]][0]}, 2008-2012"}
    return make_result(TOOL_NAME, values=values, text="\n".join(lines), summary=summary, datasets=DATASETS,
                       data=data, caveats=caveats, table=table, chart=chart, map=_map(cache, _rank_column(metric)))


def _rows_text(rows, columns) -> list[str]:
    out = []
    for row in rows:
        parts = [f"{SHORT_LABEL[c]} {fmt_value(c, row[c])}" for c in columns]
        prefix = f"{row['rank']}. " if "rank" in row else ""
        out.append(f"{prefix}{row['name']} ({row['community_area']}): " + "; ".join(parts))
    return out


def _city_line(city, columns) -> str:
    parts = [f"{SHORT_LABEL[c]} {fmt_value(c, city[c])}" for c in columns if city[c] is not None]
    return "Chicago (city-wide): " + ("; ".join(parts) if parts else "not published")


def _comparison(data, cache, numbers, metric, columns, city, caveats):
    rows = [{"community_area": n, "name": cache["records"][n]["name"],
             **{c: cache["records"][n][c] for c in columns}} for n in numbers]
    key = _rank_column(metric)
    ranked = sorted((r for r in rows if r[key] is not None), key=lambda r: -r[key])
    text = fit_text([f"Comparison of {len(rows)} community areas, ACS 2008-2012:"], _rows_text(rows, columns),
                    [_city_line(city, columns)], _rows_text(rows, [_rank_column(metric)]))
    summary = f"{COLUMN_SPEC[key][0]}: " + ", ".join(f"{r['name']} {fmt_value(key, r[key])}" for r in ranked)
    if city[key] is not None:
        summary += f" (city {fmt_value(key, city[key])})"
    values = {"scope": "comparison", "metric": metric, "period": "2008-2012", "rows": rows, "city": city,
              "highest": ranked[0]["name"] if ranked else None, "compare_by": key}
    table = rows_table(rows, ["community_area", "name"] + columns)
    chart = {"type": "bar", "x": "name", "y": key, "title": f"{COLUMN_SPEC[key][0]}, 2008-2012"}
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=DATASETS,
                       data=data, caveats=caveats, table=table, chart=chart, map=_map(cache, key))


def _ranking(data, cache, metric, columns, city, top_n, sort_order, caveats):
    key = _rank_column(metric)
    candidates = [r for r in cache["records"].values() if r[key] is not None]
    candidates.sort(key=lambda r: (r[key] if sort_order == "asc" else -r[key], r["community_area"]))
    rows = []
    for position, record in enumerate(candidates[:top_n], start=1):
        rows.append({"rank": position, "community_area": record["community_area"], "name": record["name"],
                     **{c: record[c] for c in columns}})
    direction = "highest" if sort_order == "desc" else "lowest"
    label = COLUMN_SPEC[key][0]
    shown = columns if metric != "all" else [key, "per_capita_income", "pct_households_below_poverty"]
    text = fit_text([f"Top {len(rows)} community areas by {label} ({direction} first), ACS 2008-2012:"],
                    _rows_text(rows, shown), [_city_line(city, shown)], _rows_text(rows, [key]))
    first = rows[0] if rows else None
    summary = (f"{direction.capitalize()} {label}: {first['name']} ({fmt_value(key, first[key])})"
               + (f"; city {fmt_value(key, city[key])}" if city[key] is not None else "")) if first else "no rows"
    values = {"scope": "ranking", "metric": metric, "rank_by": key, "sort_order": sort_order,
              "period": "2008-2012", "rows": rows, "city": city, "areas_ranked": len(candidates)}
    table = rows_table(rows, ["rank", "community_area", "name"] + columns)
    chart = {"type": "bar", "x": "name", "y": key, "title": f"{label} ({direction} first), 2008-2012"}
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=DATASETS,
                       data=data, caveats=caveats, table=table, chart=chart, map=_map(cache, key))


def condition_words(column: str, bounds: dict) -> str:
    """"the share of households below poverty above 30.0%", "per capita income above $50,000"."""
    label, kind = COLUMN_SPEC[column]
    measure = label.split(" (")[0]
    if kind == "pct":  # "households below poverty" is a share of them
        measure = "the share of " + ("people " if measure.startswith("aged ") else "") + measure
    return measure + " " + " and ".join(f"{op} {fmt_value(column, v)}" for op, v in bounds.items())


def _condition(data, cache, metric, above, below, numbers):
    """The community areas whose indicator is above and/or below a value ("neighborhoods where more than 30% of
    households are below poverty"): how many, and which, highest first."""
    if metric == "all":
        raise ToolArgumentError("above/below need one metric (income, poverty, unemployment, education, hardship, "
                                "crowding or dependency), not 'all'", "invalid_choice")
    if numbers:
        raise ToolArgumentError("above/below pick community areas themselves: give no community_area or "
                                "compare_areas with them", "conflicting_arguments")
    key = _rank_column(metric)
    bounds = [(op, float(v)) for op, v in (("above", above), ("below", below)) if v is not None]
    found = run_query(data, {"measures": [{"measure": MEASURES[key], "as": key}], "group_by": ["community_area"],
                             "having": [{"field": key, "op": ">" if op == "above" else "<", "value": v}
                                        for op, v in bounds],
                             "order_by": [{"field": key, "direction": "desc"}]}).rows
    rows = [{"community_area": r["community_area"], "name": r["community_area_name"], key: _typed(key, r[key])}
            for r in found]
    rated = sum(r[key] is not None for r in cache["records"].values())
    head = f"Of the {rated} community areas, {len(rows)} had {condition_words(key, dict(bounds))} (ACS 2008-2012)"
    listed = [f"- {r['name']} ({r['community_area']}): {fmt_value(key, r[key])}" for r in rows]
    text = fit_text([head + (":" if rows else ".")], listed, [], listed[:10])
    values = {"scope": "condition", "metric": metric, "column": key, "period": "2008-2012", "count": len(rows),
              "areas_rated": rated, "areas": [r["community_area"] for r in rows], "rows": rows,
              **{op: v for op, v in bounds}}
    table = rows_table(rows, ["community_area", "name", key])
    caveats = [STALE_CAVEAT] + ([HARDSHIP_CAVEAT] if key == "hardship_index" else [])
    return make_result(TOOL_NAME, values=values, text=text, summary=head, datasets=DATASETS, data=data,
                       caveats=caveats, table=table, chart=None, map=_map(cache, key))


def _extremes(cache, col) -> dict:
    """The areas with the highest and lowest value of one indicator (ties: lowest area number)."""
    ranked = sorted((r for r in cache["records"].values() if r[col] is not None),
                    key=lambda r: (-r[col], r["community_area"]))
    low = min(ranked, key=lambda r: (r[col], r["community_area"]))

    def pick(r):
        return {"community_area": r["community_area"], "name": r["name"], "value": r[col]}

    return {"highest": pick(ranked[0]), "lowest": pick(low)}


def _citywide(data, cache, metric, columns, city, caveats):
    values = {"scope": "city", "community_area": None, "name": "Chicago", "metric": metric,
              "period": "2008-2012", **city, "city": city}
    extremes = {col: _extremes(cache, col) for col in columns}
    values["extremes"] = extremes
    lines = ["Chicago city-wide, ACS 2008-2012 (with the highest and lowest community areas):"]
    for col in columns:
        high, low = extremes[col]["highest"], extremes[col]["lowest"]
        span = (f"highest {high['name']} {fmt_value(col, high['value'])}, "
                f"lowest {low['name']} {fmt_value(col, low['value'])}")
        if col == "hardship_index":
            lines.append(f"- hardship index: not published for the city; {span}")
        else:
            lines.append(f"- {COLUMN_SPEC[col][0]}: {fmt_value(col, city[col])} ({span})")
    head = columns[0] if metric != "all" else "per_capita_income"
    summary = f"Chicago: {COLUMN_SPEC[head][0]} {fmt_value(head, city[head])} (2008-2012)"
    table = rows_table([(COLUMN_SPEC[c][0], city[c]) for c in columns], ["indicator", "Chicago"])
    chart = None if metric == "all" else {
        "type": "bar", "x": "indicator", "y": "Chicago", "title": f"Chicago: {COLUMN_SPEC[columns[0]][0]}, 2008-2012"}
    return make_result(TOOL_NAME, values=values, text="\n".join(lines), summary=summary, datasets=DATASETS,
                       data=data, caveats=caveats, table=table, chart=chart, map=_map(cache, _rank_column(metric)))


# ------------------------------------------------------------------ registration

def register(registry) -> None:
    registry.register(Tool(
        name=TOOL_NAME,
        label="Socioeconomic data",
        description=("Per capita income, poverty, unemployment, education, crowding, dependency and hardship index "
                     "(2008-2012) for a community area, a comparison, a ranking, or city-wide."),
        parameters={
            "type": "object",
            "properties": {
                "community_area": AREA_SCHEMA,
                "compare_areas": COMPARE_SCHEMA,
                "metric": {"type": "string", "enum": METRIC_NAMES, "default": "all",
                           "description": "income = per capita income; hardship = hardship index; all = every indicator"},
                "top_n": TOP_N_SCHEMA,
                "sort_order": SORT_SCHEMA,
                "ward": WARD_SCHEMA,
                "zip": ZIP_SCHEMA,
                "above": {"type": "number", "description": "only the community areas whose metric is above this "
                                                           "(percent, dollars or index points), e.g. 30"},
                "below": {"type": "number", "description": "only the community areas whose metric is below this"},
            },
            "required": [],
        },
        fn=query_socioeconomic,
        domain="socioeconomic",
    ))
