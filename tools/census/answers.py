"""The four shapes of a query_census_demographics answer: one area, a comparison of named areas, a
ranking of all 77, and city-wide. Each turns the prepared records into text, values, table and chart."""
from __future__ import annotations

from tools.census.data import (
    ACS_LABEL,
    AGE_BANDS,
    CENSUS_2010_LABEL,
    INCOME_BANDS,
    RACE_GROUPS,
    RANK_LABEL,
    TABLE_KEYS,
    TOOL_NAME,
    bundle_cache,
    with_population,
)
from tools.common import fit_text, fmt_int, fmt_pct, make_result, rows_table
from tools.map_hints import area_map

# ------------------------------------------------------------------ text pieces

def _share_list(record: dict, items, prefix: str, with_counts: bool) -> str:
    parts = []
    for _, key, label in items:
        share = fmt_pct(record[f"{prefix}{key}"])
        count_key = f"households_{key}" if prefix == "pct_households_" else key
        parts.append(f"{label} {share}" + (f" ({fmt_int(record[count_key])})" if with_counts else ""))
    return "; ".join(parts)


MAIN_RACE = [g for g in RACE_GROUPS if g[1] in ("black", "hispanic_or_latino", "white_not_hispanic", "asian")]


def _population_line(record: dict, vintage: str) -> str:
    label = CENSUS_2010_LABEL if vintage == "2010" else f"{ACS_LABEL} estimate"
    other = (f"ACS 2019-2023 {fmt_int(record['population_acs_2023'])}" if vintage == "2010"
             else f"2010 Census {fmt_int(record['population_2010'])}")
    return (f"population {fmt_int(record['population'])} ({label}); {other}; change 2010 to 2019-2023 "
            f"{_population_change(record)}")


def _signed(value) -> str:
    return "n/a" if value is None else ("+" if value > 0 else "") + fmt_pct(value)


def _population_change(record: dict) -> str:
    """"-9,317 residents (-30.4%)": "by how many residents did it shrink" is answered by the count."""
    change = record.get("population_change")
    if change is None:
        return _signed(record.get("population_change_pct"))
    return f"{'+' if change > 0 else ''}{fmt_int(change)} residents ({_signed(record.get('population_change_pct'))})"


def _detail_lines(record: dict, metric: str, vintage: str, with_counts: bool = True) -> list[str]:
    lines = []
    if metric in ("population", "all"):
        lines.append("- " + _population_line(record, vintage))
    if metric in ("income", "all"):
        lines.append(f"- households by income ({fmt_int(record['households'])} households): "
                     + _share_list(record, INCOME_BANDS, "pct_households_", with_counts))
    if metric in ("race", "all"):
        groups = RACE_GROUPS if metric == "race" else MAIN_RACE
        lines.append("- race/ethnicity, share of population: " + _share_list(record, groups, "pct_", with_counts))
    if metric in ("age", "all"):
        lines.append("- age (both sexes), share of people: " + _share_list(record, AGE_BANDS, "pct_", with_counts))
    return lines


SHORT_INCOME = {"under_25k": "<$25k", "25k_to_50k": "$25-50k", "50k_to_75k": "$50-75k",
                "75k_to_125k": "$75-125k", "125k_plus": "$125k+"}
SHORT_RACE = {"black": "Black", "hispanic_or_latino": "Hispanic", "white_not_hispanic": "White non-Hisp.",
              "asian": "Asian"}


def _compact(record: dict, metric: str, vintage: str = "acs") -> str:
    """One short line of a row for comparisons and rankings."""
    parts = []
    if metric in ("population", "all") and vintage == "2010":
        parts.append(f"pop. {fmt_int(record['population'])} (2010 Census)")
    elif metric in ("population", "all", "race"):
        parts.append(f"pop. {fmt_int(record['population'])}")
    if metric == "population":
        other = (f"ACS 2019-2023 {fmt_int(record['population_acs_2023'])}" if vintage == "2010"
                 else f"2010 {fmt_int(record['population_2010'])}")
        parts.append(f"{other}, change 2010 to 2019-2023 {_population_change(record)}")
    if metric == "income":
        parts.append(", ".join(f"{SHORT_INCOME[k]} {fmt_pct(record[f'pct_households_{k}'])}"
                               for _, k, _ in INCOME_BANDS))
    if metric == "all":
        parts.append(f"$125k+ households {fmt_pct(record['pct_households_125k_plus'])}")
    if metric in ("race", "all"):
        parts.append(", ".join(f"{SHORT_RACE[k]} {fmt_pct(record[f'pct_{k}'])}" for _, k, _ in MAIN_RACE))
    if metric == "age":
        parts.append(", ".join(f"{label} {fmt_pct(record[f'pct_{k}'])}" for _, k, label in AGE_BANDS))
    return "; ".join(parts)


def _fmt_key(key: str, value) -> str:
    if key.startswith("pct_"):
        return fmt_pct(value)
    if key == "population_change_pct":
        return _signed(value)
    if key == "population_change":
        return "n/a" if value is None else ("+" if value > 0 else "") + fmt_int(value)
    return fmt_int(value)


def _indicator_table(record: dict, city: dict, metric: str, name: str) -> dict:
    rows = []
    if metric in ("population", "all"):
        rows.append(("population", record["population"], None, city["population"], None))
        other = "population_acs_2023" if record["population"] == record["population_acs_2023"] else "population_2010"
        rows.append((other.replace("_", " "), record[other], None, city[other], None))
    if metric in ("income", "all"):
        for _, key, label in INCOME_BANDS:
            rows.append((f"households {label}", record[f"households_{key}"], record[f"pct_households_{key}"],
                         city[f"households_{key}"], city[f"pct_households_{key}"]))
    if metric in ("race", "all"):
        for _, key, label in RACE_GROUPS:
            rows.append((label, record[key], record[f"pct_{key}"], city[key], city[f"pct_{key}"]))
    if metric in ("age", "all"):
        for _, key, label in AGE_BANDS:
            rows.append((f"age {label}", record[key], record[f"pct_{key}"], city[key], city[f"pct_{key}"]))
    return rows_table(rows, ["indicator", name, f"{name} %", "Chicago", "Chicago %"])


def single_area_answer(data, cache, number, metric, vintage, keys, city, base, datasets, caveats):
    record = with_population(cache["records"][number], vintage)
    name = record["name"]
    values = {"scope": "area", "community_area": number, "name": name, **base,
              **{k: record[k] for k in keys}, "city": city}
    lines = [f"{name} (community area {number}), {values['vintage']}:"] + _detail_lines(record, metric, vintage)
    city_record = {**cache["city"], **city}
    city_bits = _compact(with_population(city_record, vintage), metric, vintage)
    lines.append(f"Chicago (sum of 77 areas): {city_bits}")
    if metric in ("income", "all"):
        lines.append("(No median income in this extract.)")
    if base["vintage_note"]:
        lines.append("Note: " + base["vintage_note"])
    summary = f"{name}: {_compact(record, metric, vintage)} ({values['vintage']})"
    table = _indicator_table(record, city_record, metric, name)
    y = name if metric == "population" else f"{name} %"
    chart = {"type": "bar", "x": "indicator", "y": y, "title": f"{name}: {metric} ({values['vintage']})"}
    return make_result(TOOL_NAME, values=values, text="\n".join(lines), summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart)


def _map(cache, key: str, vintage: str, label: str, period: str) -> dict:
    """The page's map of the ranked or compared figure over all 77 areas."""
    values = {n: with_population(record, vintage).get(key) for n, record in cache["records"].items()}
    return area_map(key, "people" if key == "population" else "percent", label[0].upper() + label[1:], period,
                    values)


def _row(cache, number, vintage, keys) -> dict:
    record = with_population(cache["records"][number], vintage)
    return {"community_area": number, "name": record["name"], **{k: record[k] for k in keys}}


def comparison_answer(data, cache, numbers, metric, vintage, keys, city, base, key, datasets, caveats):
    """``key``: the column the areas are set side by side on (tools.census.data.rank_key)."""
    rows = [_row(cache, n, vintage, [*keys, key] if key not in keys else keys) for n in numbers]
    head = [f"Comparison of {len(rows)} community areas ({base['vintage']}):"]
    items = [f"{r['name']} ({r['community_area']}): {_compact(r, metric, vintage)}" for r in rows]
    city_record = with_population(cache["city"], vintage)
    tail = [f"Chicago: {_compact(city_record, metric, vintage)}"]
    if base["vintage_note"]:
        tail.append("Note: " + base["vintage_note"])
    label = RANK_LABEL.get(key, key)
    compact = [f"{r['name']} ({r['community_area']}): {label} {_fmt_key(key, r.get(key))}" for r in rows]
    text = fit_text(head, items, tail, compact)
    ranked = sorted((r for r in rows if r.get(key) is not None), key=lambda r: -r[key])
    summary = f"{label}: " + ", ".join(f"{r['name']} {_fmt_key(key, r[key])}" for r in ranked)
    values = {"scope": "comparison", **base, "compare_by": key, "rows": rows, "city": city,
              "highest": ranked[0]["name"] if ranked else None}
    table = rows_table(rows, ["community_area", "name"] + TABLE_KEYS[metric])
    chart = {"type": "bar", "x": "name", "y": key, "title": f"{label} ({base['vintage']})"}
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart,
                       map=_map(cache, key, vintage, label, base["vintage"]))


def ranking_answer(data, cache, metric, vintage, keys, city, base, ranked, top_n, sort_order, datasets, caveats):
    """``ranked``: (group or None, the column ranked by: tools.census.data.rank_key)."""
    group, key = ranked
    keys = [*keys, key] if key not in keys else keys
    pop_key = "population_2010" if vintage == "2010" else "population_acs_2023"
    score_key = pop_key if key == "population" else key
    candidates = [n for n, rec in cache["records"].items() if rec.get(score_key) is not None]
    candidates.sort(key=lambda n: (cache["records"][n][score_key] * (1 if sort_order == "asc" else -1), n))
    rows = [{"rank": i, **_row(cache, n, vintage, keys)} for i, n in enumerate(candidates[:top_n], start=1)]
    direction = "highest" if sort_order == "desc" else "lowest"
    label = RANK_LABEL.get(key, key)
    if key == "population":
        label = f"population ({CENSUS_2010_LABEL if vintage == '2010' else ACS_LABEL})"
    head = [f"Top {len(rows)} community areas by {label} ({direction} first):"]
    items, compact = [], []
    for r in rows:
        lead = "" if key == "population" else f"{label} {_fmt_key(key, r[key])}; "
        items.append(f"{r['rank']}. {r['name']} ({r['community_area']}): {lead}{_compact(r, metric, vintage)}")
        compact.append(f"{r['rank']}. {r['name']} ({r['community_area']}): {_fmt_key(key, r[key])}")
    city_record = with_population(cache["city"], vintage)
    city_value = city_record.get(key)
    tail = [f"Chicago: {label.split(' (')[0]} {_fmt_key(key, city_value)}"]
    if not group and metric in ("race", "income", "age"):
        tail.append(f"(Ranked by {label}; pass group to rank by another group's share.)")
    if base["vintage_note"]:
        tail.append("Note: " + base["vintage_note"])
    text = fit_text(head, items, tail, compact)
    first = rows[0] if rows else None
    summary = (f"{direction.capitalize()} {label}: {first['name']} ({_fmt_key(key, first[key])}); "
               f"city {_fmt_key(key, city_value)}") if first else "no rows"
    values = {"scope": "ranking", **base, "rank_by": key, "group": group, "sort_order": sort_order,
              "rows": rows, "city": city, "areas_ranked": len(candidates)}
    table = rows_table(rows, ["rank", "community_area", "name"]
                       + ([key] if key not in TABLE_KEYS[metric] else []) + TABLE_KEYS[metric])
    chart = {"type": "bar", "x": "name", "y": key, "title": f"{label} ({direction} first)"}
    return make_result(TOOL_NAME, values=values, text=text, summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart,
                       map=_map(cache, key, vintage, label, base["vintage"]))


EXTREME_KEYS = {
    "population": ["population"],
    "income": ["pct_households_125k_plus", "pct_households_under_25k"],
    "race": ["pct_black", "pct_hispanic_or_latino", "pct_white_not_hispanic", "pct_asian"],
    "age": ["pct_age_0_17", "pct_age_65_plus"],
    "all": ["population", "pct_households_125k_plus"],
}


def from_cache_records(data) -> dict:
    return bundle_cache(data)["records"]


def citywide_answer(data, metric, vintage, city, base, datasets, caveats):
    from_cache = bundle_cache(data)["city"]
    record = with_population(from_cache, vintage)
    values = {"scope": "city", "community_area": None, "name": "Chicago", **base, **city, "city": city}
    lines = [f"Chicago city-wide (sum of the 77 community areas), {base['vintage']}:"]
    lines += _detail_lines(record, metric, vintage)
    extremes = {}
    for key in EXTREME_KEYS[metric]:
        score_key = ("population_2010" if vintage == "2010" else "population_acs_2023") if key == "population" else key
        ranked = sorted(((rec[score_key], n) for n, rec in from_cache_records(data).items()
                         if rec.get(score_key) is not None))
        (low_v, low_n), (high_v, high_n) = ranked[0], max(ranked, key=lambda p: (p[0], -p[1]))
        names = from_cache_records(data)
        extremes[key] = {"highest": {"community_area": high_n, "name": names[high_n]["name"], "value": high_v},
                         "lowest": {"community_area": low_n, "name": names[low_n]["name"], "value": low_v}}
        lines.append(f"- {RANK_LABEL.get(key, key)}: highest {names[high_n]['name']} {_fmt_key(key, high_v)}, "
                     f"lowest {names[low_n]['name']} {_fmt_key(key, low_v)}")
    values["extremes"] = extremes
    if metric in ("income", "all"):
        lines.append("(No median income in this extract.)")
    if base["vintage_note"]:
        lines.append("Note: " + base["vintage_note"])
    summary = f"Chicago: {_compact(record, metric, vintage)} ({base['vintage']})"
    full = _indicator_table(record, record, metric, "Chicago city-wide")
    table = rows_table([[row[0], row[3], row[4]] for row in full["rows"]], ["indicator", "Chicago", "Chicago %"])
    chart = {"type": "bar", "x": "indicator", "y": "Chicago" if metric == "population" else "Chicago %",
             "title": f"Chicago: {metric} ({base['vintage']})"}
    return make_result(TOOL_NAME, values=values, text="\n".join(lines), summary=summary, datasets=datasets,
                       data=data, caveats=caveats, table=table, chart=chart)
