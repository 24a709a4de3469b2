"""Homicide analysis tools: per-capita rates by community area, socioeconomic context, period comparisons.

Population rule (one rule for every rate here): a year up to POP_SWITCH_YEAR - 1 (2015) uses the 2010
census; a year from 2016 on uses the ACS 2019-2023 5-year estimate. 2015/2016 is the midpoint between
the two vintages' reference years (2010 and 2021). A range's rate is the annual average
rate = homicides / person-years * 100,000, where person-years sums each year's population, which is
homicides / years / population * 100,000 whenever the whole range uses one vintage.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from tools.common import (AREA_SCHEMA, COMPARE_SCHEMA, HOMICIDE_CODE_CAVEAT, SORT_SCHEMA, fmt_int, fmt_num, fmt_pct,
                          make_result, partial_year_caveat, resolve_areas)
from tools.homicides import (WARD_MAP_CAVEAT, district_name, fit_lines, geo_missing_caveat, homicide_arrays, pct,
                             resolve_years, years_label)
from tools.homicide_change_ranking import rank_changes
from tools.registry import Tool, ToolArgumentError

POP_SWITCH_YEAR = 2016  # first year whose denominator is the ACS 2019-2023 estimate
SMALL_NUMBER_LIMIT = 10
CENSUS_2010 = "2010 census"
ACS_LABEL = "ACS 2019-2023 5-year estimate"

CORRELATION_CAVEAT = ("Correlation is not causation: these are area-level associations (ecological), "
                      "not evidence that the indicator causes homicides or applies to individuals.")
SOCIO_DATED_CAVEAT = ("The socioeconomic indicators are 2008-2012 ACS figures and are not current; "
                      "neighbourhoods have changed since.")
ACS_ESTIMATE_CAVEAT = "ACS populations are survey estimates with margins of error, not counts."

INDICATORS = {
    "per_capita_income": ("per_capita_income", "per-capita income ($)"),
    "poverty": ("pct_households_below_poverty", "% of households below poverty"),
    "unemployment": ("pct_aged_16_plus_unemployed", "% aged 16+ unemployed"),
    "no_hs_diploma": ("pct_aged_25_plus_without_hs_diploma", "% aged 25+ without a high-school diploma"),
    "crowding": ("pct_housing_crowded", "% of housing crowded"),
    "dependency": ("pct_aged_under_18_or_over_64", "% aged under 18 or over 64"),
    "hardship_index": ("hardship_index", "hardship index (1-100, higher = more hardship)"),
}


# ------------------------------------------------------------------ populations and rates

class Populations:
    """Population by community area (index 0..77, 0 unused) for each vintage."""

    def __init__(self, data):
        self.census_2010 = np.zeros(78, dtype=float)
        p10 = data.population_2010
        self.census_2010[p10["area_number"].to_numpy(dtype=int)] = p10["population"].to_numpy(dtype=float)
        self.acs = np.zeros(78, dtype=float)
        acs = data.census_acs
        self.acs[acs["area_number"].to_numpy(dtype=int)] = acs["total_population"].to_numpy(dtype=float)
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


def area_rates(data, start: int, end: int) -> dict:
    """Homicides, person-years and annual average rate per 100k for every area (arrays indexed 0..77)."""
    arrays = homicide_arrays(data)
    pops = populations(data)
    mask = arrays.year_mask(start, end)
    counts = np.bincount(arrays.community_area[mask].astype(np.intp), minlength=78).astype(float)
    early, late = vintage_split(start, end)
    person_years = early * pops.census_2010 + late * pops.acs
    years = end - start + 1
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = np.where(person_years > 0, counts / person_years * 1e5, np.nan)
    total = int(mask.sum())
    city_py = float(person_years[1:].sum())
    return {"counts": counts, "person_years": person_years, "rates": rates, "years": years,
            "missing": int(counts[0]), "total": total, "city_person_years": city_py,
            "city_rate": total / city_py * 1e5 if city_py else None, "early": early, "late": late}


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


# ------------------------------------------------------------------ tool 3: rates by community area

RATES_NAME = "analyze_homicide_rates_by_community_area"
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
    return make_result(RATES_NAME, values=values, text=fit_lines(lines, items, []), summary=summary,
                       datasets=datasets_for(start, end), data=data, caveats=caveats, table=table, chart=chart)


# ------------------------------------------------------------------ tool 4: socioeconomic context

SOCIO_NAME = "analyze_homicide_socioeconomic_context"
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


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n with ties given their average rank (as Spearman's rho needs)."""
    return pd.Series(values).rank(method="average").to_numpy()


def _indicator(data, indicator: str) -> dict:
    """Per bundle and indicator: the areas with a value, the values, their ranks and quartile (1 = lowest)."""
    cache = data.__dict__.setdefault("_homicide_indicators", {})
    if indicator not in cache:
        column = INDICATORS[indicator][0]
        socio = data.socioeconomic
        socio = socio[(socio["area_number"] > 0) & socio[column].notna()]
        values = socio[column].to_numpy(dtype=float)
        quartile = pd.qcut(pd.Series(values), 4, labels=[1, 2, 3, 4]).astype(int).to_numpy()
        cache[indicator] = {"areas": socio["area_number"].to_numpy(dtype=int), "values": values,
                            "ranks": _ranks(values), "quartile": quartile}
    return cache[indicator]


def strength_word(r: float) -> str:
    size = abs(r)
    word = "negligible" if size < 0.1 else "weak" if size < 0.3 else "moderate" if size < 0.5 else "strong"
    return word if word == "negligible" else f"{word} {'positive' if r > 0 else 'negative'}"


def analyze_homicide_socioeconomic_context(data, indicator="hardship_index", start_year=2008, end_year=2012):
    start, end = resolve_years(data, None, start_year, end_year)
    column, label = INDICATORS[indicator]
    prepared = _indicator(data, indicator)
    areas, ind, quart, ind_ranks = prepared["areas"], prepared["values"], prepared["quartile"], prepared["ranks"]
    r = area_rates(data, start, end)
    rates = r["rates"][areas]
    counts = r["counts"][areas]
    n = int(len(areas))
    if n < 4 or np.isnan(rates).any():
        raise ToolArgumentError(f"only {n} community areas have both figures; cannot correlate", "no_data")
    pearson = float(np.corrcoef(ind, rates)[0, 1])
    spearman = float(np.corrcoef(ind_ranks, _ranks(rates))[0, 1])
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


# ------------------------------------------------------------------ tool 5: compare two periods

TRENDS_NAME = "compare_homicide_district_trends"
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


def change_pct(before: float, after: float) -> float | None:
    return None if not before else round(100.0 * (after - before) / before, 1)


def compare_homicide_district_trends(data, period1_start, period2_start, period1_end=None, period2_end=None,
                                     district=None, ward=None, community_area=None, rank_places=None, top_n=10,
                                     sort_order="desc"):
    given = [k for k, v in (("district", district), ("ward", ward), ("community_area", community_area))
             if v is not None]
    if rank_places and not given:
        p1 = resolve_years(data, None, period1_start, period1_start if period1_end is None else period1_end)
        p2 = resolve_years(data, None, period2_start, period2_start if period2_end is None else period2_end)
        return rank_changes(data, homicide_arrays(data), TRENDS_NAME, p1, p2, rank_places, top_n, sort_order)
    if len(given) != 1:
        raise ToolArgumentError(
            "give exactly one of district (police district 1-25), ward (1-50) or community_area (name or 1-77), "
            "or rank_places to rank every place by the change; "
            + ("none was given" if not given else f"got {', '.join(given)}"), "missing_argument" if not given
            else "conflicting_arguments")
    p1 = resolve_years(data, None, period1_start, period1_start if period1_end is None else period1_end)
    p2 = resolve_years(data, None, period2_start, period2_start if period2_end is None else period2_end)
    geo = data.geography
    arrays = homicide_arrays(data)
    if district is not None:
        number = geo.check_district(district)
        where = {"type": "district", "id": number, "name": district_name(data, number)}
        mask = arrays.district == number
        label = f"police district {number} ({where['name']})"
    elif ward is not None:
        number = geo.check_ward(ward)
        where = {"type": "ward", "id": number, "name": f"Ward {number}"}
        mask = arrays.ward == number
        label = f"ward {number}"
    else:
        number = geo.resolve_area(community_area)
        where = {"type": "community_area", "id": number, "name": geo.area_name(number)}
        mask = arrays.community_area == number
        label = f"{where['name']} (community area {number})"
    s1, s2 = _period_stats(arrays, mask, *p1), _period_stats(arrays, mask, *p2)
    everything = np.ones(arrays.n, dtype=bool)
    c1, c2 = _period_stats(arrays, everything, *p1), _period_stats(arrays, everything, *p2)
    def avg(stats):  # unrounded yearly average, so the % change is not computed from rounded figures
        return stats["homicides"] / stats["years"]

    change = change_pct(avg(s1), avg(s2)) if s1["homicides"] else None
    city_change = change_pct(avg(c1), avg(c2))
    lo, hi = min(p1[0], p2[0]), max(p1[1], p2[1])
    in_range = arrays.year_mask(lo, hi)
    counts = np.bincount((arrays.year[mask & in_range] - lo).astype(np.intp), minlength=hi - lo + 1)
    yearly = []
    for i in range(hi - lo + 1):
        y = lo + i
        tag = "period1" if p1[0] <= y <= p1[1] else "period2" if p2[0] <= y <= p2[1] else None
        if tag:
            yearly.append({"year": y, "period": tag, "homicides": int(counts[i])})
    arrest_change = (round(s2["arrest_rate_pct"] - s1["arrest_rate_pct"], 1)
                     if s1["arrest_rate_pct"] is not None and s2["arrest_rate_pct"] is not None else None)
    values = {"geography": where, "period1": s1, "period2": s2,
              "change_in_yearly_average_pct": change,
              "change_in_yearly_average": round(avg(s2) - avg(s1), 1),
              "arrest_rate_change_points": arrest_change,
              "citywide": {"period1": c1, "period2": c2, "change_in_yearly_average_pct": city_change},
              "yearly": yearly}
    share1, share2 = pct(s1["homicides"], c1["homicides"]), pct(s2["homicides"], c2["homicides"])
    values["share_of_city_pct"] = {"period1": share1, "period2": share2}

    def describe(s):
        return (f"{fmt_int(s['homicides'])} homicides in {s['label']} ({s['years']} yr, "
                f"{fmt_num(s['yearly_average'])} per year; arrest rate {fmt_pct(s['arrest_rate_pct'])})")

    change_text = (f"{'+' if change > 0 else ''}{fmt_pct(change)}" if change is not None
                   else "n/a (no homicides in period 1)")
    lines = [f"Homicides in {label}:",
             f"Period 1: {describe(s1)}.", f"Period 2: {describe(s2)}.",
             f"Change in yearly average: {change_text} "
             f"({fmt_num(s1['yearly_average'])} -> {fmt_num(s2['yearly_average'])}); arrest rate change "
             f"{'n/a' if arrest_change is None else f'{arrest_change:+.1f} points'}.",
             f"Citywide for comparison: {fmt_num(c1['yearly_average'])} -> {fmt_num(c2['yearly_average'])} per year "
             f"({'+' if (city_change or 0) > 0 else ''}{fmt_pct(city_change)}); share of city "
             f"{fmt_pct(share1)} -> {fmt_pct(share2)}."]
    caveats = [HOMICIDE_CODE_CAVEAT] + partial_year_caveat(data, lo, hi)
    if hi >= data.coverage["homicides"]["last_year"]:
        caveats.append(f"{data.coverage['homicides']['last_year']} is counted as a whole year in yearly averages "
                       "although it is partial, so a period including it has an understated yearly average.")
    if where["type"] == "ward":
        caveats.append(WARD_MAP_CAVEAT)
    if where["type"] in ("ward", "community_area"):
        missing = int((getattr(arrays, where["type"])[in_range] == 0).sum())
        if missing:
            caveats.append(geo_missing_caveat(missing, where["type"].replace("_", " "), lo, hi))
    if min(s1["homicides"], s2["homicides"]) < SMALL_NUMBER_LIMIT:
        caveats.append(f"Fewer than {SMALL_NUMBER_LIMIT} homicides in a period: the % change rests on small "
                       "numbers and can swing a lot by chance.")
    if not (p1[1] < p2[0] or p2[1] < p1[0]):
        caveats.append("The two periods overlap, so they share some homicides.")
    table = pd.DataFrame([{"period": f"period 1 ({s1['label']})", "years": s1["years"],
                           "homicides": s1["homicides"], "yearly_average": s1["yearly_average"],
                           "arrest_rate_pct": s1["arrest_rate_pct"], "city_yearly_average": c1["yearly_average"]},
                          {"period": f"period 2 ({s2['label']})", "years": s2["years"],
                           "homicides": s2["homicides"], "yearly_average": s2["yearly_average"],
                           "arrest_rate_pct": s2["arrest_rate_pct"], "city_yearly_average": c2["yearly_average"]}])
    chart = {"type": "bar", "x": "period", "y": "yearly_average",
             "title": f"Homicides per year in {label}: {s1['label']} vs {s2['label']}"}
    summary = (f"{label}: {fmt_num(s1['yearly_average'])}/yr ({s1['label']}) -> {fmt_num(s2['yearly_average'])}/yr "
               f"({s2['label']}), {change_text}")
    return make_result(TRENDS_NAME, values=values, text="\n".join(lines), summary=summary, datasets=["homicides"],
                       data=data, caveats=caveats, table=table, chart=chart)


def register(registry) -> None:
    registry.register(Tool(RATES_NAME, RATES_DESCRIPTION, RATES_PARAMETERS, analyze_homicide_rates_by_community_area,
                           domain="homicides"))
    registry.register(Tool(SOCIO_NAME, SOCIO_DESCRIPTION, SOCIO_PARAMETERS, analyze_homicide_socioeconomic_context,
                           domain="homicides"))
    registry.register(Tool(TRENDS_NAME, TRENDS_DESCRIPTION, TRENDS_PARAMETERS, compare_homicide_district_trends,
                           domain="homicides"))
