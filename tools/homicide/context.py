"""analyze_homicide_socioeconomic_context: how community-area homicide rates line up with a 2008-2012
socioeconomic indicator across the 77 areas (correlations and a quartile table).

A thin view of the semantic layer: the indicator by community area, each area's homicide rate and count over the
years asked, and their Pearson and Spearman correlations are one query (``correlate``); the citywide rate and the
rows with no area are the rates view's (tools/homicide/rates.py ``area_rates``). The tool keeps its schema, cuts
the areas into the indicator's quartiles and shapes the answer."""
from __future__ import annotations

import numpy as np
import pandas as pd

from semantic.errors import QueryError
from semantic.executor import run_query
from tools.common import HOMICIDE_CODE_CAVEAT, fmt_int, fmt_num, make_result
from tools.errors import ToolArgumentError
from tools.homicide.common import SMALL_NUMBER_LIMIT, geo_missing_caveat, resolve_years, years_label
from tools.homicide.rates import (
    ACS_ESTIMATE_CAVEAT,
    area_rates,
    datasets_for,
    partial_rate_caveats,
    populations,
    rate_measures,
    vintage_values,
)
from tools.registry import Tool
from tools import names

CORRELATION_CAVEAT = ("Correlation is not causation: these are area-level associations (ecological), "
                      "not evidence that the indicator causes homicides or applies to individuals.")
SOCIO_DATED_CAVEAT = ("The socioeconomic indicators are 2008-2012 ACS figures and are not current; "
                      "neighbourhoods have changed since.")

# indicator -> (its column in the socioeconomic file, its label, the layer's measure)
INDICATORS = {
    "per_capita_income": ("per_capita_income", "per-capita income ($)", "per_capita_income"),
    "poverty": ("pct_households_below_poverty", "% of households below poverty", "pct_households_below_poverty"),
    "unemployment": ("pct_aged_16_plus_unemployed", "% aged 16+ unemployed", "pct_unemployed"),
    "no_hs_diploma": ("pct_aged_25_plus_without_hs_diploma", "% aged 25+ without a high-school diploma",
                      "pct_without_diploma"),
    "crowding": ("pct_housing_crowded", "% of housing crowded", "pct_housing_crowded"),
    "dependency": ("pct_aged_under_18_or_over_64", "% aged under 18 or over 64", "pct_under_18_or_over_64"),
    "hardship_index": ("hardship_index", "hardship index (1-100, higher = more hardship)", "hardship_index"),
}
CORRELATION_CACHE_SIZE = 64


SOCIO_NAME = names.SOCIOECONOMIC_CONTEXT
SOCIO_PARAMETERS = {
    "type": "object",
    "properties": {
        "indicator": {"type": "string", "enum": list(INDICATORS), "default": "hardship_index",
                      "description": "2008-2012 community-area indicator to relate to homicide rates"},
        "start_year": {"type": "integer", "default": 2008,
                       "description": "first homicide year, 2001-2023 (default 2008, matching the indicators)"},
        "end_year": {"type": "integer", "default": 2012,
                     "description": "last homicide year, 2001-2023 (default 2012)"},
    },
    "required": [],
}
SOCIO_DESCRIPTION = ("Correlate community-area homicide rates per 100,000 with a 2008-2012 socioeconomic "
                     "indicator (income, poverty, unemployment, education, crowding, dependency, hardship) "
                     "across the 77 areas, with a quartile table.")


def _correlation(data, indicator: str, start: int, end: int) -> dict:
    """The query of the indicator beside each area's homicide rate and count, with their correlation: the areas
    with both figures (in area order), their values, and the layer's Pearson r and Spearman rho; kept per bundle
    for the last calls."""
    cache = data.__dict__.get("_homicide_context")
    if cache is None or cache[0] is not data.homicides:
        cache = data.__dict__["_homicide_context"] = (data.homicides, {})
    key = (indicator, start, end)
    if key not in cache[1]:
        measure = INDICATORS[indicator][2]
        query = {"measures": [measure, *rate_measures(start, end)], "group_by": ["community_area"],
                 "correlate": [measure, "homicide_rate"]}
        try:
            result = run_query(data, query)
        except QueryError as exc:
            raise ToolArgumentError(f"cannot correlate: {exc}", "no_data") from None
        valued = [r for r in result.rows if r[measure] is not None]
        rows = [r for r in valued if r["homicide_rate"] is not None]
        if len(cache[1]) >= CORRELATION_CACHE_SIZE:
            cache[1].pop(next(iter(cache[1])))
        cache[1][key] = {
            "areas": np.array([r["community_area"] for r in rows], dtype=int),
            "values": np.array([r[measure] for r in rows], dtype=float),
            "rates": np.array([r["homicide_rate"] for r in rows], dtype=float),
            "counts": np.array([r["homicides"] for r in rows], dtype=float),
            "pearson": result.correlation["pearson_r"], "spearman": result.correlation["spearman_rho"],
            "without_rate": len(valued) - len(rows)}
    return cache[1][key]


def strength_word(r: float) -> str:
    size = abs(r)
    word = "negligible" if size < 0.1 else "weak" if size < 0.3 else "moderate" if size < 0.5 else "strong"
    return word if word == "negligible" else f"{word} {'positive' if r > 0 else 'negative'}"


def analyze_homicide_socioeconomic_context(data, indicator="hardship_index", start_year=2008, end_year=2012):
    start, end = resolve_years(data, None, start_year, end_year)
    column, label, _ = INDICATORS[indicator]
    found = _correlation(data, indicator, start, end)
    ind, rates, counts = found["values"], found["rates"], found["counts"]
    pearson, spearman = found["pearson"], found["spearman"]
    r = area_rates(data, start, end)  # the citywide rate and the rows with no area
    n = int(len(found["areas"]) + found["without_rate"])
    if n < 4 or found["without_rate"]:
        raise ToolArgumentError(f"only {n} community areas have both figures; cannot correlate", "no_data")
    # The quartile table cuts the query's areas by the indicator's quartiles (Q1 = lowest) and summarises each
    # quartile's rows: shaping of the query's figures, not a measure of its own.
    quart = pd.qcut(pd.Series(ind), 4, labels=[1, 2, 3, 4]).astype(int).to_numpy()
    quartiles = []
    for q in range(1, 5):
        in_q = quart == q
        quartiles.append({"quartile": q, "indicator_min": float(ind[in_q].min()),
                          "indicator_max": float(ind[in_q].max()), "areas": int(in_q.sum()),
                          "homicides": int(counts[in_q].sum()),
                          "mean_rate_per_100k": round(float(rates[in_q].mean()), 1),
                          "median_rate_per_100k": round(float(np.median(rates[in_q])), 1)})
    low_q, high_q = quartiles[0], quartiles[-1]
    ratio = (high_q["mean_rate_per_100k"] / low_q["mean_rate_per_100k"]
             if low_q["mean_rate_per_100k"] else None)
    pops = populations(data)
    vintage_label, vintage_parts = vintage_values(pops, start, end)
    period = years_label(start, end)
    values = {"indicator": indicator, "indicator_column": column, "indicator_label": label,
              "indicator_period": "2008-2012", "start_year": start, "end_year": end, "years": r["years"],
              "n_areas": n, "pearson_r": round(pearson, 3), "spearman_rho": round(spearman, 3),
              "r_squared": round(pearson ** 2, 3), "strength": strength_word(pearson),
              "quartiles": quartiles,
              "top_vs_bottom_quartile_rate_ratio": round(ratio, 2) if ratio is not None else None,
              "citywide_rate_per_100k": round(r["city_rate"], 1) if r["city_rate"] is not None else None,
              "population_vintage": vintage_label, "population_vintages": vintage_parts,
              "rate_basis": "annual average homicides per 100,000 residents", "missing_area_rows": r["missing"]}
    fmt_ind = (lambda v: f"${v:,.0f}") if indicator == "per_capita_income" else (lambda v: fmt_num(v))
    lines = [f"Homicide rate ({period}, annual average per 100,000; population {vintage_label}) vs {label} "
             f"(2008-2012) across {n} community areas:",
             f"Pearson r = {pearson:.2f} ({strength_word(pearson)}), Spearman rho = {spearman:.2f}, "
             f"r^2 = {pearson ** 2:.2f}.",
             "Indicator quartiles (Q1 = lowest values):"]
    for q in quartiles:
        lines.append(f"Q{q['quartile']} ({fmt_ind(q['indicator_min'])} to {fmt_ind(q['indicator_max'])}, "
                     f"{q['areas']} areas): mean rate {fmt_num(q['mean_rate_per_100k'])} per 100,000 "
                     f"({fmt_int(q['homicides'])} homicides)")
    if ratio:
        lines.append(f"Q4 mean rate is {ratio:.1f}x the Q1 mean rate." if ratio >= 1 else
                     f"Q1 mean rate is {1 / ratio:.1f}x the Q4 mean rate.")
    lines.append(f"Citywide rate {fmt_num(values['citywide_rate_per_100k'])} per 100,000. "
                 "Correlation is not causation; the 2008-2012 figures are not current.")
    caveats = [CORRELATION_CAVEAT, SOCIO_DATED_CAVEAT, HOMICIDE_CODE_CAVEAT] + partial_rate_caveats(data, start, end)
    if r["missing"]:
        caveats.append(geo_missing_caveat(r["missing"], "community area", start, end))
    few = int((counts < SMALL_NUMBER_LIMIT).sum())
    if few:
        caveats.append(f"{few} of {n} areas had fewer than {SMALL_NUMBER_LIMIT} homicides in {period}; their rates "
                       "are noisy.")
    if r["late"]:
        caveats.append(ACS_ESTIMATE_CAVEAT)
    if start > 2014 or end < 2006:
        caveats.append(f"The homicide years {period} are far from the indicators' 2008-2012 period.")
    table = pd.DataFrame(quartiles)
    chart = {"type": "bar", "x": "quartile", "y": "mean_rate_per_100k",
             "title": f"Mean homicide rate by {label} quartile, {period}"}
    summary = (f"Homicide rate vs {indicator}: Pearson {pearson:.2f}, Spearman {spearman:.2f} "
               f"({n} areas, {period})")
    return make_result(SOCIO_NAME, values=values, text="\n".join(lines), summary=summary,
                       datasets=datasets_for(start, end)[:1] + ["socioeconomic"] + datasets_for(start, end)[1:],
                       data=data, caveats=caveats, table=table, chart=chart)


def register(registry) -> None:
    registry.register(Tool(SOCIO_NAME, SOCIO_DESCRIPTION, SOCIO_PARAMETERS, analyze_homicide_socioeconomic_context, domain="homicides",
                           label="Homicide data"))
