"""The query's JSON schema, generated from the declarations: measures, dimensions and options are enums,
so a grammar built from it (loop/grammar.py) lets a model write only names that exist."""
from __future__ import annotations

import functools

from semantic.catalog import catalog, public_measures
from semantic.datasets.population import POPULATIONS
from semantic.query import (DERIVED_OPS, FALLBACKS, GROUP_FIGURES, HAVING_OPS, HAVING_REFERENCES, MAX_GROUPS,
                            MAX_LIMIT, MAX_MEASURES, WEIGHT_POPULATIONS)

DESCRIPTION = ("Answer with one typed query over every dataset: measures (homicides, homicide_rate, "
               "per_capita_income, home_value, population, alderperson, ...) by a place grain (community_area, "
               "ward, district, zip, ...) or time, with a period, filters, derived change/rank, a threshold, "
               "order, limit, totals and correlation; members_from takes the set from another query.")


def _period(fallback: bool = True) -> dict:
    years = {"type": "array", "items": {"type": "integer", "minimum": 1997, "maximum": 2025}, "maxItems": 30}
    text = {"type": "string"}
    properties = {"year": {"type": "integer", "minimum": 1997, "maximum": 2025}, "years": years, "month": text,
                  "months": {"type": "array", "items": text, "maxItems": 24}, "quarter": text, "start": text,
                  "end": text}
    if fallback:
        properties["else"] = {"anyOf": [{"type": "string", "enum": list(FALLBACKS)}, _period(False)],
                              "description": "only where the question asks for the latest period, or names another "
                                             "period, instead of one the data may not hold"}
    return {"type": "object", "description": "one of: year, years, month (YYYY-MM), months, quarter (YYYYQn), "
                                             "quarters, or start/end (YYYY[-MM[-DD]])", "properties": properties}


def _filters(dimensions: list) -> dict:
    member = {"type": ["integer", "string"]}
    item = {"type": "object", "required": ["dimension"], "properties": {
        "dimension": {"type": "string", "enum": dimensions},
        "in": {"type": "array", "items": member, "maxItems": 20},
        "not_in": {"type": "array", "items": member, "maxItems": 20},
        "between": {"type": "array", "items": member, "maxItems": 2},
        "equals": {"type": ["boolean", "integer", "string"]}}}
    return {"type": "array", "items": item, "maxItems": 6}


def _core(measures: list, dimensions: list) -> dict:
    spec = {"type": "object", "required": ["measure"], "properties": {
        "measure": {"type": "string", "enum": measures}, "as": {"type": "string"}, "period": _period(),
        "per_year": {"type": "boolean"}, "filters": _filters(dimensions),
        "matched_with": {"type": "string", "description": "another column of the same measure carried from ZIPs: "
                                                          "both over the ZIPs valued in both periods"}}}
    return {
        "measures": {"type": "array", "items": {"anyOf": [{"type": "string", "enum": measures}, spec]},
                     "maxItems": MAX_MEASURES, "description": "what to compute"},
        "group_by": {"type": "array", "items": {"type": "string", "enum": dimensions}, "maxItems": 3},
        "period": _period(),
        "filters": _filters(dimensions),
        "order_by": {"type": "array", "maxItems": 4, "items": {"anyOf": [
            {"type": "string"},  # a column, highest first
            {"type": "object", "required": ["field"], "properties": {
                "field": {"type": "string"}, "direction": {"type": "string", "enum": ["desc", "asc"]}}}]}},
        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
        "offset": {"type": "integer", "minimum": 0, "maximum": MAX_LIMIT},
    }


@functools.lru_cache(maxsize=1)
def query_schema() -> dict:
    """The JSON schema of a query (the TOOL_CALL tool's parameters, /api/query's body, the MCP tool's input)."""
    measures, dimensions = public_measures(), list(catalog().dimensions)
    props = _core(measures, dimensions)
    inner = {"type": "object", "required": ["measures"], "properties": dict(_core(measures, dimensions)),
             "description": "a query whose result rows are this query's members (same place grain)"}
    props.update({
        "members_from": inner,
        "derived": {"type": "array", "maxItems": MAX_MEASURES, "items": {
            "type": "object", "required": ["op", "of"], "properties": {
                "name": {"type": "string"}, "op": {"type": "string", "enum": list(DERIVED_OPS)},
                "of": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                "direction": {"type": "string", "enum": ["desc", "asc"],
                              "description": "rank: 1 = the highest (desc) or the lowest (asc); run: rows above zero "
                                             "(desc) or below it (asc)"},
                "years": {"type": "number", "exclusiveMinimum": 0, "maximum": 100,
                          "description": "cagr only: the years between the two columns"},
                "groups": {"type": "integer", "minimum": 2, "maximum": 10,
                           "description": "quantile only: how many equal groups (4 = quartiles), 1 = the lowest"}}}},
        "having": {"type": "array", "maxItems": 6, "items": {
            "type": "object", "required": ["field", "op", "value"], "properties": {
                "field": {"type": "string"}, "op": {"type": "string", "enum": list(HAVING_OPS)},
                "value": {"type": "number"}}}},
        "totals": {"type": "boolean", "description": "add the total over the rows and its share of the city"},
        "count_share": {"type": "boolean", "description": "with a having: the rows it keeps as a share of the rows "
                                                         "with a value (what percent of areas)"},
        "count_base": {"type": "array", "items": {"type": "string"}, "maxItems": 10,
                       "description": "with count_share: columns a row must have a value of to be in the base"},
        "correlate": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        "spread": {"type": "array", "items": {"type": "string"}, "maxItems": 20,
                   "description": "columns whose count, lowest, median and highest over the rows are given"},
        "vs_city": {"type": "boolean", "description": "with a spread: the city's own figure beside the places' plain "
                                                     "average"},
        "population": {"type": "string", "enum": list(POPULATIONS),
                       "description": "the population a rate divides by (and a population-weighted mean weighs by)"},
        "weight_by": {"type": "string", "enum": list(WEIGHT_POPULATIONS),
                      "description": "the population a weighted mean (a rate over several areas) weighs each area by"},
        "trend": {"type": "array", "items": {"type": "string"}, "maxItems": 4,
                  "description": "columns fitted by a least-squares line over the one time grain grouped by "
                                 "(year, quarter or month): the slope a step, the fitted ends, r squared"},
        "cover": {"type": "object", "required": ["of", "share"], "properties": {
            "of": {"type": "string"}, "share": {"type": "number", "exclusiveMinimum": 0, "maximum": 100}},
            "description": "grouped by a place: the fewest places, largest first, whose column reaches this percent "
                           "of the city's own figure (how few areas hold half the homicides)"},
        "groups": {"type": "array", "minItems": 2, "maxItems": MAX_GROUPS, "description": (
            "sets of the grouped places compared: each picked by its own having or order_by + limit, with each "
            "column's figure pooled over the set (or its members' plain mean); the first two sets' ratio and "
            "difference are given"), "items": {"type": "object", "properties": {
                "label": {"type": "string"},
                "having": {"type": "array", "maxItems": 6, "items": {
                    "type": "object", "required": ["field", "op", "value"], "properties": {
                        "field": {"type": "string"}, "op": {"type": "string", "enum": list(HAVING_OPS)},
                        "value": {"anyOf": [{"type": "number"}, {"type": "string",
                                                                  "enum": list(HAVING_REFERENCES)}]}}}},
                "order_by": props["order_by"], "limit": props["limit"],
                "figure": {"type": "string", "enum": list(GROUP_FIGURES)},
                "figure_of": {"type": "object", "additionalProperties": {"type": "string", "enum": list(GROUP_FIGURES)},
                              "description": "a column's own figure over the set, said even where it picks it"},
                "rest": {"type": "boolean", "description": "a later set: every place the sets before it left"}}}},
    })
    return {"type": "object", "required": ["measures"], "properties": props}
