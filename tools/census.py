"""Census demographics by community area: population, household income bands, race/ethnicity, age.

One tool, ``query_census_demographics``, over two sources:

* ``census_acs``: ACS 2019-2023 5-year estimates (vintage 2023, portal t68z-cikk), one row per area:
  total population, households by income band, race and Hispanic origin, age bands by sex.
* ``population_2010``: the 2010 decennial census count per area.

Vintage rule for ``year`` (documented in the tool's text and values["vintage_note"]):
  no year                -> ACS 2019-2023 for everything;
  2000 <= year <= 2015   -> population from the 2010 Census (nearer in time than the ACS 2019-2023
                            midpoint, 2021; 2015 is the half-way year); income, race and age have
                            only the ACS 2019-2023 vintage, so they are answered from it with a note;
  2016 <= year <= now    -> ACS 2019-2023 (with a note unless 2019 <= year <= 2023);
  year < 2000 or > now   -> an error naming what is held.

Income is the household income distribution (counts and shares by band): this extract has no median
income and the tool does not invent one. Shares of race groups use total_population; age shares use
the sum of the age bands (both sexes), which can differ from the total by up to 2 people.

City-wide figures are sums of the 77 community areas. Everything is precomputed once per DataBundle.
"""
from __future__ import annotations

import datetime

import pandas as pd

from tools.common import (AREA_SCHEMA, COMPARE_SCHEMA, SORT_SCHEMA, TOP_N_SCHEMA, WARD_SCHEMA, ZIP_SCHEMA, fit_text,
                          fmt_int, fmt_pct, make_result, plain, resolve_areas, rows_table, unsupported_geography)
from tools.registry import Tool, ToolArgumentError

TOOL_NAME = "query_census_demographics"
CACHE_KEY = "_census_cache"
METRIC_NAMES = ["population", "income", "race", "age", "all"]
ACS_LABEL = "ACS 2019-2023 5-year"
CENSUS_2010_LABEL = "2010 Census"
FIRST_YEAR = 2000
LAST_2010_YEAR = 2015  # years up to here are nearer the 2010 count than the ACS 2019-2023 midpoint (2021)

# (source column, key, label)
INCOME_BANDS = [
    ("under_25_000", "under_25k", "under $25,000"),
    ("_25_000_to_49_999", "25k_to_50k", "$25,000-$49,999"),
    ("_50_000_to_74_999", "50k_to_75k", "$50,000-$74,999"),
    ("_75_000_to_125_000", "75k_to_125k", "$75,000-$125,000"),
    ("_125_000", "125k_plus", "$125,000 and over"),
]
RACE_GROUPS = [
    ("black_or_african_american", "black", "Black"),
    ("hispanic_or_latino", "hispanic_or_latino", "Hispanic or Latino (any race)"),
    ("white_not_hispanic_or_latino", "white_not_hispanic", "White, not Hispanic"),
    ("white", "white", "White (incl. Hispanic)"),
    ("asian", "asian", "Asian"),
    ("american_indian_or_alaska", "american_indian", "American Indian/Alaska Native"),
    ("native_hawaiin_or_pacific", "pacific_islander", "Native Hawaiian/Pacific Islander"),
    ("other_race", "other_race", "some other race"),
    ("multiracial", "multiracial", "two or more races"),
]
AGE_BANDS = [
    ("0_to_17", "age_0_17", "0-17"),
    ("18_to_24", "age_18_24", "18-24"),
    ("25_to_34", "age_25_34", "25-34"),
    ("35_to_49", "age_35_49", "35-49"),
    ("50_to_64", "age_50_64", "50-64"),
    ("65", "age_65_plus", "65+"),
]

INCOME_KEYS = ["households"] + [f"households_{k}" for _, k, _ in INCOME_BANDS] + \
    [f"pct_households_{k}" for _, k, _ in INCOME_BANDS]
RACE_KEYS = ["population"] + [k for _, k, _ in RACE_GROUPS] + [f"pct_{k}" for _, k, _ in RACE_GROUPS]
AGE_KEYS = ["age_total"] + [k for _, k, _ in AGE_BANDS] + [f"pct_{k}" for _, k, _ in AGE_BANDS]
POPULATION_KEYS = ["population", "population_acs_2023", "population_2010", "population_change_pct"]
METRIC_KEYS = {"population": POPULATION_KEYS, "income": INCOME_KEYS, "race": RACE_KEYS, "age": AGE_KEYS}
METRIC_KEYS["all"] = POPULATION_KEYS + INCOME_KEYS + RACE_KEYS[1:] + AGE_KEYS

# The columns a comparison or ranking table shows (values["rows"] keep every key of the metric).
TABLE_KEYS = {
    "population": POPULATION_KEYS,
    "income": ["households"] + [f"pct_households_{k}" for _, k, _ in INCOME_BANDS],
    "race": ["population"] + [f"pct_{k}" for _, k, _ in RACE_GROUPS],
    "age": [f"pct_{k}" for _, k, _ in AGE_BANDS],
    "all": ["population", "population_2010", "households", "pct_households_under_25k", "pct_households_125k_plus",
            "pct_black", "pct_hispanic_or_latino", "pct_white_not_hispanic", "pct_asian", "pct_age_0_17",
            "pct_age_65_plus"],
}

# group -> (metric, share column used as the rank key, label)
GROUPS: dict[str, tuple[str, str, str]] = {}
for _, _key, _label in RACE_GROUPS:
    GROUPS[_key] = ("race", f"pct_{_key}", f"share {_label}")
for _, _key, _label in INCOME_BANDS:
    GROUPS[_key] = ("income", f"pct_households_{_key}", f"share of households {_label}")
for _, _key, _label in AGE_BANDS:
    GROUPS[_key] = ("age", f"pct_{_key}", f"share aged {_label}")
GROUP_NAMES = list(GROUPS)
DEFAULT_RANK = {"population": "population", "income": "pct_households_125k_plus", "race": "population",
                "age": "pct_age_65_plus", "all": "population"}
RANK_LABEL = {"population": "population", "pct_households_125k_plus": "share of households $125,000 and over",
              "pct_age_65_plus": "share aged 65+"}
RANK_LABEL.update({col: label for _, (_, col, label) in GROUPS.items()})

ESTIMATE_CAVEAT = ("ACS figures are 5-year sample estimates (2019-2023, vintage 2023) with margins of error; "
                   "sums of age/sex bands can differ from total population by up to 2 (source rounding).")
INCOME_CAVEAT = ("Income here is the count and share of households by income band; this extract has no median "
                 "household income.")
RACE_CAVEAT = ("Hispanic or Latino is an ethnicity and overlaps the race groups; race shares add to about 100% "
               "and Hispanic/White-not-Hispanic are shown alongside.")
POP_2010_CAVEAT = ("The 2010 figure is a full census count; the 2023 figure is an ACS estimate, so the change "
                   "mixes two methods.")
CITY_SUM_NOTE = "City-wide figures are sums of the 77 community areas."


# ------------------------------------------------------------------ per-bundle cache

def _build_table(acs: pd.DataFrame, pop2010: pd.DataFrame) -> pd.DataFrame:
    acs = acs.set_index("area_number").sort_index()
    out = pd.DataFrame(index=acs.index)
    out["name"] = acs["name"]
    out["population_acs_2023"] = acs["total_population"]
    out["population_2010"] = pop2010.set_index("area_number")["population"].reindex(out.index).astype(float)
    for src, key, _ in INCOME_BANDS:
        out[f"households_{key}"] = acs[src]
    out["households"] = out[[f"households_{k}" for _, k, _ in INCOME_BANDS]].sum(axis=1)
    for src, key, _ in RACE_GROUPS:
        out[key] = acs[src]
    for band, key, _ in AGE_BANDS:
        out[key] = acs[f"male_{band}"] + acs[f"female_{band}"]
    out["age_total"] = out[[k for _, k, _ in AGE_BANDS]].sum(axis=1)
    return out


def _add_shares(frame: pd.DataFrame) -> pd.DataFrame:
    """Shares (percent, one decimal) and the 2010->2023 change; works on the area table and the city row."""
    frame = frame.copy()
    for _, key, _ in INCOME_BANDS:
        frame[f"pct_households_{key}"] = (100 * frame[f"households_{key}"] / frame["households"]).round(1)
    for _, key, _ in RACE_GROUPS:
        frame[f"pct_{key}"] = (100 * frame[key] / frame["population_acs_2023"]).round(1)
    for _, key, _ in AGE_BANDS:
        frame[f"pct_{key}"] = (100 * frame[key] / frame["age_total"]).round(1)
    frame["population_change_pct"] = (100 * (frame["population_acs_2023"] / frame["population_2010"] - 1)).round(1)
    return frame


def _record(row: pd.Series) -> dict:
    record = {}
    for key in METRIC_KEYS["all"]:
        if key == "population":
            continue
        value = plain(row[key])
        if value is not None and not key.startswith("pct_") and key != "population_change_pct":
            value = int(round(value))
        record[key] = value
    return record


def _cache(data) -> dict:
    cached = data.__dict__.get(CACHE_KEY)
    if cached is not None and cached["source"] is data.census_acs:
        return cached
    table = _build_table(data.census_acs, data.population_2010)
    numeric = [c for c in table.columns if c != "name"]
    city_row = table[numeric].sum().to_frame().T
    table = _add_shares(table)
    city = _record(_add_shares(city_row).iloc[0])
    records = {}
    for number, row in table.iterrows():
        records[int(number)] = {"community_area": int(number), "name": str(row["name"]), **_record(row)}
    cached = {"source": data.census_acs, "records": records, "city": city}
    data.__dict__[CACHE_KEY] = cached
    return cached


# ------------------------------------------------------------------ vintage rule

def _vintage(year, metric) -> tuple[str, str | None]:
    """(population vintage 'acs' | '2010', note or None) for the asked-for year."""
    now = datetime.date.today().year
    if year is None:
        return "acs", None
    if year < FIRST_YEAR or year > now:
        raise ToolArgumentError(
            f"year {year} is outside what the census tool holds: the 2010 Census population (used for years "
            f"{FIRST_YEAR}-{LAST_2010_YEAR}) and ACS 2019-2023 5-year estimates (used for 2016-{now}); "
            f"give a year from {FIRST_YEAR} to {now} or leave year out for the latest", "out_of_range")
    notes = []
    if year <= LAST_2010_YEAR:
        vintage = "2010" if metric in ("population", "all") else "acs"
        if metric in ("population", "all") and year != 2010:
            notes.append(f"Population for {year} is the 2010 Census count, the nearest count held "
                         f"(rule: {FIRST_YEAR}-{LAST_2010_YEAR} -> 2010 Census, later years -> ACS 2019-2023).")
        if metric != "population":
            notes.append(f"Income, race and age exist only as ACS 2019-2023 estimates, so they describe "
                         f"2019-2023, not {year}.")
    else:
        vintage = "acs"
        if not 2019 <= year <= 2023:
            notes.append(f"No figures for {year} are held; answered with the ACS 2019-2023 5-year estimates "
                         "(the latest vintage held).")
    return vintage, " ".join(notes) or None


def _with_population(record: dict, vintage: str) -> dict:
    out = dict(record)
    out["population"] = record["population_2010"] if vintage == "2010" else record["population_acs_2023"]
    return out


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
            f"{_signed(record['population_change_pct'])}")


def _signed(value) -> str:
    return "n/a" if value is None else ("+" if value > 0 else "") + fmt_pct(value)


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
        parts.append(f"{other}, change 2010 to 2019-2023 {_signed(record['population_change_pct'])}")
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
    return fmt_int(value)


# ------------------------------------------------------------------ the tool

def query_census_demographics(data, community_area=None, compare_areas=None, metric="all", top_n=None,
                              sort_order="desc", year=None, group=None, ward=None, zip=None):
    cache = _cache(data)
    numbers = resolve_areas(data.geography, community_area, compare_areas)
    caveats = unsupported_geography(data, "The census demographics data (ACS 2019-2023 and 2010 Census)",
                                    ward=ward, zip_code=zip, answered=bool(numbers) or top_n is not None)
    if group is not None:
        group_metric = GROUPS[group][0]
        if metric == "all":
            metric = group_metric
        elif metric != group_metric:
            choices = ", ".join(g for g, spec in GROUPS.items() if spec[0] == metric) or "none"
            raise ToolArgumentError(
                f"group '{group}' belongs to metric '{group_metric}', not '{metric}'; groups for '{metric}': "
                f"{choices}", "invalid_choice")
    vintage, note = _vintage(year, metric)
    uses_pop = metric in ("population", "all")
    datasets = ["census_acs", "population_2010"] if uses_pop else ["census_acs"]
    if note:
        caveats.append(note)
    caveats.append(ESTIMATE_CAVEAT)
    if metric in ("income", "all"):
        caveats.append(INCOME_CAVEAT)
    if metric in ("race", "all"):
        caveats.append(RACE_CAVEAT)
    if uses_pop:
        caveats.append(POP_2010_CAVEAT)
    keys = METRIC_KEYS[metric]
    city = {k: v for k, v in _with_population(cache["city"], vintage).items() if k in keys}
    base = {"metric": metric, "year": year,
            "vintage": CENSUS_2010_LABEL if (vintage == "2010" and metric == "population") else ACS_LABEL,
            "population_vintage": CENSUS_2010_LABEL if vintage == "2010" else ACS_LABEL,
            "vintage_note": note}
    if numbers and top_n is not None:
        caveats.append(f"top_n={top_n} was ignored because specific community areas were named.")
    if len(numbers) == 1:
        return _single(data, cache, numbers[0], metric, vintage, keys, city, base, datasets, caveats)
    if numbers:
        return _comparison(data, cache, numbers, metric, vintage, keys, city, base, group, datasets, caveats)
    caveats.append(CITY_SUM_NOTE)
    if top_n is not None:
        return _ranking(data, cache, metric, vintage, keys, city, base, group, top_n, sort_order, datasets, caveats)
    return _citywide(data, metric, vintage, city, base, datasets, caveats)


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


def _single(data, cache, number, metric, vintage, keys, city, base, datasets, caveats):
    record = _with_population(cache["records"][number], vintage)
    name = record["name"]
    values = {"scope": "area", "community_area": number, "name": name, **base,
              **{k: record[k] for k in keys}, "city": city}
    lines = [f"{name} (community area {number}), {values['vintage']}:"] + _detail_lines(record, metric, vintage)
    city_record = {**cache["city"], **city}
    city_bits = _compact(_with_population(city_record, vintage), metric, vintage)
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


def _row(cache, number, vintage, keys) -> dict:
    record = _with_population(cache["records"][number], vintage)
    return {"community_area": number, "name": record["name"], **{k: record[k] for k in keys}}


def _comparison(data, cache, numbers, metric, vintage, keys, city, base, group, datasets, caveats):
    rows = [_row(cache, n, vintage, keys) for n in numbers]
    key = GROUPS[group][1] if group else DEFAULT_RANK[metric]
    head = [f"Comparison of {len(rows)} community areas ({base['vintage']}):"]
    items = [f"{r['name']} ({r['community_area']}): {_compact(r, metric, vintage)}" for r in rows]
    city_record = _with_population(cache["city"], vintage)
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
                       data=data, caveats=caveats, table=table, chart=chart)


def _ranking(data, cache, metric, vintage, keys, city, base, group, top_n, sort_order, datasets, caveats):
    key = GROUPS[group][1] if group else DEFAULT_RANK[metric]
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
    city_record = _with_population(cache["city"], vintage)
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
                       data=data, caveats=caveats, table=table, chart=chart)


EXTREME_KEYS = {
    "population": ["population"],
    "income": ["pct_households_125k_plus", "pct_households_under_25k"],
    "race": ["pct_black", "pct_hispanic_or_latino", "pct_white_not_hispanic", "pct_asian"],
    "age": ["pct_age_0_17", "pct_age_65_plus"],
    "all": ["population", "pct_households_125k_plus"],
}
RANK_LABEL.update({"pct_households_under_25k": "share of households under $25,000", "pct_age_0_17": "share aged 0-17"})


def from_cache_records(data) -> dict:
    return _cache(data)["records"]


def _citywide(data, metric, vintage, city, base, datasets, caveats):
    from_cache = _cache(data)["city"]
    record = _with_population(from_cache, vintage)
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


# ------------------------------------------------------------------ registration

def register(registry) -> None:
    now = datetime.date.today().year
    registry.register(Tool(
        name=TOOL_NAME,
        description=("Population (2010 Census and ACS 2019-2023), household income bands, race/ethnicity and "
                     "age for a community area, a comparison, a ranking, or city-wide."),
        parameters={
            "type": "object",
            "properties": {
                "community_area": AREA_SCHEMA,
                "compare_areas": COMPARE_SCHEMA,
                "metric": {"type": "string", "enum": METRIC_NAMES, "default": "all",
                           "description": "income = households by income band (no median); all = everything"},
                "top_n": TOP_N_SCHEMA,
                "sort_order": SORT_SCHEMA,
                "year": {"type": "integer", "minimum": FIRST_YEAR, "maximum": now,
                         "description": f"{FIRST_YEAR}-{LAST_2010_YEAR} uses the 2010 Census population; "
                                        "later or omitted uses ACS 2019-2023"},
                "group": {"type": "string", "enum": GROUP_NAMES,
                          "description": "race group, income band or age band whose share ranks the areas"},
                "ward": WARD_SCHEMA,
                "zip": ZIP_SCHEMA,
            },
            "required": [],
        },
        fn=query_census_demographics,
        domain="demographics",
    ))
