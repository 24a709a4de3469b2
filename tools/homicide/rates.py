"""Homicides per 100,000 residents by community area: the population rule every homicide rate uses,
and the analyze_homicide_rates_by_community_area tool.

Population rule (one rule for every rate here): a year up to POP_SWITCH_YEAR - 1 (2015) uses the 2010
census; a year from 2016 on uses the ACS 2019-2023 5-year estimate. 2015/2016 is the midpoint between
the two vintages' reference years (2010 and 2021). A range's rate is the annual average
rate = homicides / person-years * 100,000, where person-years sums each year's population, which is
homicides / years / population * 100,000 whenever the whole range uses one vintage.

A thin view of the semantic layer: the rule is the layer's (semantic/datasets/population.py, person-years by the
query's population "auto"), and every count and rate here is a query of its ``homicides`` and ``homicide_rate``
measures (``area_rates``: by community area and city-wide, kept per bundle for the last periods asked); the
populations shown beside a rate are its ``population_2010`` and ``population`` measures. The tool keeps its schema,
ranks the areas by the queried rates (ties by area number) and shapes the answer.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from semantic.executor import run_query
from tools.common import (
    AREA_SCHEMA,
    COMPARE_SCHEMA,
    HOMICIDE_CODE_CAVEAT,
    SORT_SCHEMA,
    fit_text,
    fmt_int,
    fmt_num,
    make_result,
    partial_year_caveat,
    resolve_areas,
)
from tools.homicide.common import (
    SMALL_NUMBER_LIMIT,
    geo_missing_caveat,
    resolve_years,
    years_label,
)
from tools.map_hints import area_map
from tools.registry import Tool
from tools import names

POP_SWITCH_YEAR = 2016  # first year whose denominator is the ACS 2019-2023 estimate
CENSUS_2010 = "2010 census"
ACS_ESTIMATE_CAVEAT = "ACS populations are survey estimates with margins of error, not counts."


# ------------------------------------------------------------------ populations and rates (queries of the layer)

RATE_CACHE_SIZE = 64  # periods whose area rates a bundle keeps


class Populations:
    """Population by community area (index 0..77, 0 unused) for each vintage: one query of the layer's
    ``population_2010`` and ``population`` measures by community area."""

    def __init__(self, data):
        self.census_2010 = np.zeros(78, dtype=float)
        self.acs = np.zeros(78, dtype=float)
        rows = run_query(data, {"measures": ["population_2010", "population"], "group_by": ["community_area"]}).rows
        for row in rows:
            area = int(row["community_area"])
            self.census_2010[area] = row["population_2010"] or 0.0
            self.acs[area] = row["population"] or 0.0
        self.acs_vintage = int(data.coverage.get("census_acs", {}).get("vintage", 2023))
        self.acs_label = f"ACS {self.acs_vintage - 4}-{self.acs_vintage} 5-year estimate"


def populations(data) -> Populations:
    cached = data.__dict__.get("_homicide_populations")
    if cached is None:
        cached = data.__dict__["_homicide_populations"] = Populations(data)
    return cached


def vintage_split(start: int, end: int) -> tuple[int, int]:
    """How many years of the range use the 2010 census and how many use the ACS."""
    early = max(0, min(end, POP_SWITCH_YEAR - 1) - start + 1)
    late = max(0, end - max(start, POP_SWITCH_YEAR) + 1)
    return early, late


def vintage_values(pops: Populations, start: int, end: int) -> tuple[str, list[dict]]:
    early, late = vintage_split(start, end)
    parts = []
    if early:
        parts.append({"years": years_label(start, min(end, POP_SWITCH_YEAR - 1)), "source": CENSUS_2010,
                      "dataset": "population_2010"})
    if late:
        parts.append({"years": years_label(max(start, POP_SWITCH_YEAR), end), "source": pops.acs_label,
                      "dataset": "census_acs"})
    label = " and ".join(f"{p['source']} for {p['years']}" for p in parts) if len(parts) > 1 else parts[0]["source"]
    return label, parts


def rate_measures(start: int, end: int) -> list[dict]:
    """The layer's homicides and homicide rate over whole years ``start``-``end`` (its population rule is the
    tools': the 2010 census to 2015, the ACS estimate from 2016)."""
    period = {"start": str(start), "end": str(end)}
    return [{"measure": "homicides", "period": period}, {"measure": "homicide_rate", "period": period}]


def _number(value) -> float:
    return math.nan if value is None else float(value)


def area_rates(data, start: int, end: int) -> dict:
    """Homicides, person-years and annual average rate per 100k for every area (arrays indexed 0..77; index 0
    holds the rows with no area): two queries of the layer, by community area and city-wide, kept per bundle
    for the last periods asked."""
    cache = data.__dict__.get("_area_rates")
    if cache is None or cache[0] is not data.homicides:
        cache = data.__dict__["_area_rates"] = (data.homicides, {})
    found = cache[1].get((start, end))
    if found is not None:
        return found
    measures = rate_measures(start, end)
    counts = np.zeros(78, dtype=float)
    rates = np.full(78, np.nan)
    for row in run_query(data, {"measures": measures, "group_by": ["community_area"]}).rows:
        area = int(row["community_area"])
        counts[area], rates[area] = _number(row["homicides"]), _number(row["homicide_rate"])
    city = run_query(data, {"measures": measures}).rows[0]
    total = int(city["homicides"])
    counts[0] = total - counts[1:].sum()  # the city's rows that name no community area
    # The layer keeps person-years inside its rate; the population shown beside a rate (person-years / years) is
    # each area's 2010 census count and ACS estimate, queried, over the years each vintage covers.
    pops = populations(data)
    early, late = vintage_split(start, end)
    person_years = early * pops.census_2010 + late * pops.acs
    city_rate = _number(city["homicide_rate"])
    found = {"counts": counts, "person_years": person_years, "rates": rates, "years": end - start + 1,
             "missing": int(counts[0]), "total": total, "city_person_years": float(person_years[1:].sum()),
             "city_rate": None if math.isnan(city_rate) else city_rate, "early": early, "late": late}
    if len(cache[1]) >= RATE_CACHE_SIZE:
        cache[1].pop(next(iter(cache[1])))
    cache[1][(start, end)] = found
    return found


def datasets_for(start: int, end: int) -> list[str]:
    early, late = vintage_split(start, end)
    return ["homicides"] + (["population_2010"] if early else []) + (["census_acs"] if late else [])


def last_full_year(data) -> int:
    return int(data.coverage["homicides"]["last_year"]) - 1


def partial_rate_caveats(data, start: int, end: int) -> list[str]:
    out = partial_year_caveat(data, start, end)
    if out:
        out.append(f"{data.coverage['homicides']['last_year']} counts cover only part of the year and are not "
                   "annualised, so rates that include it are understated.")
    return out


# ------------------------------------------------------------------ the tool

RATES_NAME = names.AREA_RATES
RATES_PARAMETERS = {
    "type": "object",
    "properties": {
        "year": {"type": "integer", "description": "a single year 2001-2023 (default: 2022, the last full year)"},
        "start_year": {"type": "integer", "description": "first year of a range, 2001-2023"},
        "end_year": {"type": "integer", "description": "last year of a range, 2001-2023 (2023 is partial)"},
        "community_area": AREA_SCHEMA,
        "compare_areas": COMPARE_SCHEMA,
        "top_n": {"type": "integer", "minimum": 1, "maximum": 77, "default": 10,
                  "description": "how many areas to rank"},
        "sort_order": SORT_SCHEMA,
    },
    "required": [],
}
RATES_DESCRIPTION = ("Homicides per 100,000 residents by Chicago community area for a year or range (annual "
                     "average), ranked highest or lowest, or for named areas compared with the city.")


def analyze_homicide_rates_by_community_area(data, year=None, start_year=None, end_year=None, community_area=None,
                                             compare_areas=None, top_n=10, sort_order="desc"):
    if year is None and start_year is None and end_year is None:
        year = last_full_year(data)
    start, end = resolve_years(data, year, start_year, end_year)
    geo = data.geography
    selected = resolve_areas(geo, community_area, compare_areas)
    pops = populations(data)
    r = area_rates(data, start, end)
    counts, rates, py = r["counts"], r["rates"], r["person_years"]
    years = r["years"]
    valid = np.arange(1, 78)
    # rank among all 77 areas, 1 = highest rate (ties broken by area number)
    by_rate = sorted(valid.tolist(), key=lambda a: (-rates[a], a))
    rate_rank = {a: i + 1 for i, a in enumerate(by_rate)}
    if selected:
        order = sorted(selected, key=lambda a: ((-rates[a]) if sort_order == "desc" else rates[a], a))
    else:
        order = by_rate if sort_order == "desc" else sorted(valid.tolist(), key=lambda a: (rates[a], a))
        order = order[:top_n]
    vintage_label, vintage_parts = vintage_values(pops, start, end)
    rows = []
    for i, a in enumerate(order, start=1):
        rows.append({"rank": i, "rate_rank": rate_rank[a], "community_area": int(a), "name": geo.area_name(a),
                     "homicides": int(counts[a]), "population": int(round(py[a] / years)),
                     "rate_per_100k": round(float(rates[a]), 1), "small_number": bool(counts[a] < SMALL_NUMBER_LIMIT)})
    city = {"homicides": r["total"], "population": int(round(r["city_person_years"] / years)),
            "rate_per_100k": round(r["city_rate"], 1) if r["city_rate"] is not None else None}
    period = years_label(start, end)
    basis = ("homicides per 100,000 residents" if years == 1 else
             f"annual average homicides per 100,000 residents over {years} years "
             "(total / years / population x 100,000)")
    values = {"start_year": start, "end_year": end, "years": years, "rate_basis": basis,
              "population_vintage": vintage_label, "population_vintages": vintage_parts,
              "population_rule": f"years up to {POP_SWITCH_YEAR - 1} use the 2010 census; "
                                 f"{POP_SWITCH_YEAR} on use the {pops.acs_label}",
              "citywide": city, "breakdown": rows, "areas_ranked": 77, "missing_area_rows": r["missing"],
              "selected_areas": selected or None, "sort_order": sort_order}
    lines = [f"Homicide rates by community area, {period}: {basis}. Population: {vintage_label}."]
    lines.append(f"Citywide: {fmt_int(city['homicides'])} homicides, {fmt_num(city['rate_per_100k'])} per 100,000"
                 f" (population {fmt_int(city['population'])}).")
    if selected:
        lines.append("Selected areas (rate rank among 77, 1 = highest):")
    else:
        lines.append(f"{'Highest' if sort_order == 'desc' else 'Lowest'} {len(rows)} of 77 areas:")
    items = []
    for row in rows:
        items.append(f"{row['rank']}. {row['name']} ({row['community_area']}): {fmt_num(row['rate_per_100k'])} per "
                     f"100,000 ({fmt_int(row['homicides'])} homicides, pop {fmt_int(row['population'])}; rank "
                     f"{row['rate_rank']} of 77)" + (" [fewer than 10]" if row["small_number"] else ""))
    caveats = [HOMICIDE_CODE_CAVEAT] + partial_rate_caveats(data, start, end)
    if r["missing"]:
        caveats.append(geo_missing_caveat(r["missing"], "community area", start, end)
                       + " The citywide rate counts them.")
    small = [row["name"] for row in rows if row["small_number"]]
    if small:
        caveats.append(f"Fewer than {SMALL_NUMBER_LIMIT} homicides in {', '.join(small[:8])}"
                       f"{' and others' if len(small) > 8 else ''}: rates from so few events swing a lot by chance.")
    if r["late"]:
        caveats.append(ACS_ESTIMATE_CAVEAT)
    if r["early"] and start < 2005:
        caveats.append("Rates for early 2000s use 2010 census populations, which were smaller than 2000 "
                       "populations in many areas, so they may overstate those years' rates.")
    if not rows:
        summary = f"no areas ({period})"
    elif selected:  # named areas: report each one's rate and rank, not a "highest" claim
        parts = [f"{row['name']} {fmt_num(row['rate_per_100k'])} per 100k (rank {row['rate_rank']} of 77)"
                 for row in rows[:3]]
        summary = f"{'; '.join(parts)} ({period}); city {fmt_num(city['rate_per_100k'])}"
    else:  # the citywide rate leads: "the murder rate in Chicago" is the most common ask
        summary = (f"Citywide {fmt_num(city['rate_per_100k'])} per 100k ({period}); "
                   f"{'highest' if sort_order == 'desc' else 'lowest'}: {rows[0]['name']} "
                   f"{fmt_num(rows[0]['rate_per_100k'])}")
    table = pd.DataFrame(rows)
    chart = {"type": "bar", "x": "name", "y": "rate_per_100k",
             "title": f"Homicides per 100,000 residents, {period}"}
    return make_result(RATES_NAME, values=values, text=fit_text(lines, items, []), summary=summary,
                       datasets=datasets_for(start, end), data=data, caveats=caveats, table=table, chart=chart,
                       map=area_map("rate_per_100k", "per 100,000 residents", chart["title"], period,
                                    {int(a): round(float(rates[a]), 1) for a in valid}))


def register(registry) -> None:
    registry.register(Tool(RATES_NAME, RATES_DESCRIPTION, RATES_PARAMETERS, analyze_homicide_rates_by_community_area, domain="homicides",
                           label="Homicide data"))
