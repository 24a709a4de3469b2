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
income. Only metric ``median_income_estimate`` gives one, interpolated from the bands and called an
estimate wherever it appears (tools/census/median.py). Shares of race groups use total_population; age shares use
the sum of the age bands (both sexes), which can differ from the total by up to 2 people.

City-wide figures are sums of the 77 community areas.

A thin view of the semantic layer (semantic/datasets/census.py and population.py): every count and share, the
2010 population and its change are the layer's measures, queried by community area and with no grouping (the
city: the areas' sums, shares recomputed from them) once per DataBundle (tools.census.data ``bundle_cache``).
The tool keeps its schema, the vintage rule for ``year``, and orders and words the records.

The column vocabulary, the per-bundle records and the vintage rule live in tools.census.data; the four
answer shapes (one area, comparison, ranking, city-wide) in tools.census.answers.
"""
from __future__ import annotations

import datetime

from tools.census.answers import (
    citywide_answer,
    comparison_answer,
    ranking_answer,
    single_area_answer,
)
from tools.census.data import (
    ACS_LABEL,
    CENSUS_2010_LABEL,
    FIRST_YEAR,
    GROUP_NAMES,
    GROUPS,
    LAST_2010_YEAR,
    METRIC_KEYS,
    METRIC_NAMES,
    RANK_BY,
    TOOL_NAME,
    bundle_cache,
    rank_key,
    vintage_for,
    with_population,
)
from tools.census.median import METRIC as MEDIAN_METRIC
from tools.census.median import median_answer
from tools.common import (
    AREA_SCHEMA,
    COMPARE_SCHEMA,
    SORT_SCHEMA,
    TOP_N_SCHEMA,
    WARD_SCHEMA,
    ZIP_SCHEMA,
    resolve_areas,
    unsupported_geography,
)
from tools.errors import ToolArgumentError
from tools.registry import Tool

ESTIMATE_CAVEAT = ("ACS figures are 5-year sample estimates (2019-2023, vintage 2023) with margins of error; "
                   "sums of age/sex bands can differ from total population by up to 2 (source rounding).")
INCOME_CAVEAT = ("Income here is the count and share of households by income band; this extract has no median "
                 "household income (metric median_income_estimate interpolates one from the bands).")
RACE_CAVEAT = ("Hispanic or Latino is an ethnicity and overlaps the race groups; race shares add to about 100% "
               "and Hispanic/White-not-Hispanic are shown alongside.")
POP_2010_CAVEAT = ("The 2010 figure is a full census count; the 2023 figure is an ACS estimate, so the change "
                   "mixes two methods.")
CITY_SUM_NOTE = "City-wide figures are sums of the 77 community areas."


# ------------------------------------------------------------------ the tool

def query_census_demographics(data, community_area=None, compare_areas=None, metric="all", top_n=None,
                              sort_order="desc", year=None, group=None, ward=None, zip=None, rank_by="share"):
    cache = bundle_cache(data)
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
    if rank_by not in RANK_BY:
        raise ToolArgumentError(f"rank_by must be one of {', '.join(RANK_BY)}, not '{rank_by}'", "invalid_choice")
    vintage, note = vintage_for(year, metric)
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
    if metric == MEDIAN_METRIC:
        if numbers and top_n is not None:
            caveats.append(f"top_n={top_n} was ignored because specific community areas were named.")
        base = {"metric": metric, "year": year, "vintage": ACS_LABEL, "vintage_note": note}
        return median_answer(data, numbers, None if numbers else top_n, sort_order, base, datasets, caveats)
    keys = METRIC_KEYS[metric]
    city = {k: v for k, v in with_population(cache["city"], vintage).items() if k in keys}
    base = {"metric": metric, "year": year,
            "vintage": CENSUS_2010_LABEL if (vintage == "2010" and metric == "population") else ACS_LABEL,
            "population_vintage": CENSUS_2010_LABEL if vintage == "2010" else ACS_LABEL,
            "vintage_note": note}
    if numbers and top_n is not None:
        caveats.append(f"top_n={top_n} was ignored because specific community areas were named.")
    key = rank_key(metric, group, rank_by)
    if len(numbers) == 1:
        return single_area_answer(data, cache, numbers[0], metric, vintage, keys, city, base, datasets, caveats)
    if numbers:
        return comparison_answer(data, cache, numbers, metric, vintage, keys, city, base, key, datasets, caveats)
    caveats.append(CITY_SUM_NOTE)
    if top_n is not None:
        return ranking_answer(data, cache, metric, vintage, keys, city, base, (group, key), top_n, sort_order,
                              datasets, caveats)
    return citywide_answer(data, metric, vintage, city, base, datasets, caveats)


# ------------------------------------------------------------------ registration

def register(registry) -> None:
    now = datetime.date.today().year
    registry.register(Tool(
        name=TOOL_NAME,
        label="Census data",
        description=("Population (2010 Census and ACS 2019-2023), household income bands, race/ethnicity and "
                     "age for a community area, a comparison, a ranking, or city-wide."),
        parameters={
            "type": "object",
            "properties": {
                "community_area": AREA_SCHEMA,
                "compare_areas": COMPARE_SCHEMA,
                "metric": {"type": "string", "enum": METRIC_NAMES, "default": "all",
                           "description": "income = households by income band; median_income_estimate = "
                                          "median household income estimated from the bands; all = everything"},
                "top_n": TOP_N_SCHEMA,
                "sort_order": SORT_SCHEMA,
                "year": {"type": "integer", "minimum": FIRST_YEAR, "maximum": now,
                         "description": f"{FIRST_YEAR}-{LAST_2010_YEAR} uses the 2010 Census population; "
                                        "later or omitted uses ACS 2019-2023"},
                "group": {"type": "string", "enum": GROUP_NAMES,
                          "description": "race group, income band or age band whose share ranks the areas"},
                "rank_by": {"type": "string", "enum": RANK_BY,
                            "description": "with group: rank or compare by the group's share (default) or by "
                                           "its number of residents or households; with metric population: "
                                           "change / change_pct = by growth since the 2010 Census"},
                "ward": WARD_SCHEMA,
                "zip": ZIP_SCHEMA,
            },
            "required": [],
        },
        fn=query_census_demographics,
        domain="census",
    ))
