"""Cross-domain compositions answered by one semantic query (query_data) instead of a chain of tool calls.

The chain could only follow shapes it was written for, and lost the rest: "the 10 areas with the highest hardship
index, and their homicides in 2021 combined" got the first three areas' counts and no total (the loop's four calls
ran out), "the share of 2021's homicides in areas where at least 30% of households are poor" got the area with the
least poverty, "the biggest drop from 2021 to 2022, and its income" got the area with the most homicides. The query
says each whole: a set from a ranking with a second measure over it and its total, a set from a threshold with its
share of the city, a change ranked with another measure beside it.
"""
from __future__ import annotations

from analyzer.analysis import Analysis
from rules.calls import SOCIO_METRICS

# The analyzer's measure names -> the semantic layer's (semantic/datasets/).
MEASURE_OF = {
    "homicides": "homicides", "arrests": "arrests", "income": "per_capita_income",
    "poverty": "pct_households_below_poverty", "unemployment": "pct_unemployed", "education": "pct_without_diploma",
    "hardship": "hardship_index", "crowding": "pct_housing_crowded", "dependency": "pct_under_18_or_over_64",
    "population": "population", "home_value": "home_value",
}
# A census group the analyzer found (analysis.census_group) -> the layer's count measure; its share is "share_" + it.
CENSUS_GROUP = {"black": "black", "hispanic_or_latino": "hispanic", "white_not_hispanic": "white_non_hispanic",
                "asian": "asian", "age_65_plus": "seniors", "age_0_17": "children", "age_18_24": "young_adults",
                "125k_plus": "households_125k_plus", "under_25k": "households_under_25k"}
CENSUS_METRICS = ("race", "age", "household_income")
TIMED = ("homicides", "arrests", "homicide_rate")  # measures a question's years apply to
OPS = {"above": ">", "below": "<", "at_least": ">=", "at_most": "<="}


def _home_month(analysis: Analysis) -> str | None:
    """The one month named for a home value beside homicides ("worth under 180k in sept 2024 ... 2022 killings"), as
    YYYY-MM: a month with a year the homicide data lacks is Zillow's (2024-09)."""
    spans = {span.start[:7] for span in analysis.date_spans if span.start[:7] == span.end[:7] and len(span.start) >= 7}
    if "home_value" not in analysis.metrics:
        return None
    if len(spans) == 1:
        return next(iter(spans))
    zillow_years = [y for y in analysis.out_of_range_years if 2000 <= y <= 2024]
    if "homicides" not in analysis.metrics and len(analysis.years) == 1:
        zillow_years = list(analysis.years)  # "hardship against home values (Zillow, September 2024)"
    if len(analysis.months) == 1 and len(zillow_years) == 1:
        return f"{zillow_years[0]}-{analysis.months[0]:02d}"
    return None


def _period(analysis: Analysis) -> dict | None:
    if analysis.year_list:
        return {"years": sorted(analysis.year_list)}
    month = _home_month(analysis)
    if month:  # the month dates the home value; the other years are the homicides'
        years = sorted(y for y in analysis.years if y != int(month[:4]))
        if not years:
            return None
        return {"year": years[0]} if len(years) == 1 else {"start": str(years[0]), "end": str(years[-1])}
    span = analysis.year_range
    if span is None:
        return None
    return {"year": span.start} if span.start == span.end else {"start": str(span.start), "end": str(span.end)}


def _spec(metric: str, analysis: Analysis, period: dict | None, rate: bool = False) -> dict | None:
    name = MEASURE_OF.get(metric)
    if metric in CENSUS_METRICS and analysis.census_group in CENSUS_GROUP:  # "the largest share of seniors"
        group = CENSUS_GROUP[analysis.census_group]
        name = group if analysis.census_by_count else f"share_{group}"
    if metric == "homicides" and (analysis.per_capita or rate):
        name = "homicide_rate"
    if metric == "population" and analysis.years == [2010]:  # "according to the 2010 census"
        name = "population_2010"
    if name is None:
        return None
    if name in TIMED and period:
        return {"measure": name, "period": period}
    if name == "home_value":  # the month named for it, else the latest: the question's years are the homicides'
        month = _home_month(analysis)
        return {"measure": name, **({"period": {"month": month}} if month else {})}
    return {"measure": name}


def _others(analysis: Analysis, first: str) -> list[str]:
    """The question's other measures, in its order, that the layer has."""
    skip = {first, "trend", "correlation"}
    return [m for m in analysis.metrics if m not in skip and (m in MEASURE_OF or (
        m in CENSUS_METRICS and analysis.census_group in CENSUS_GROUP))]


def _with_count(specs: list, analysis: Analysis) -> list:
    """"its homicide count and yearly rate": a rate asked beside a count gets the count too."""
    out = []
    for spec in specs:
        if spec["measure"] == "homicide_rate" and analysis.asks_count:
            out.append({**spec, "measure": "homicides"})
        out.append(spec)
    return out


def _name(spec: dict) -> str:
    return spec.get("as") or spec["measure"]


def _plain(analysis: Analysis) -> bool:
    """No named place, filter or grouping the query would have to carry: the compositions here are over all areas."""
    return not (analysis.areas or analysis.wards or analysis.districts or analysis.zips or analysis.submarkets
                or analysis.group_by not in (None, "community_area"))


def ranked_set(analysis: Analysis) -> dict | None:
    """"The 10 areas with the highest hardship index: their homicides in 2021, together": the set, each member's
    figures and the total over it (with its share of the city)."""
    ranking = analysis.ranking
    if not ranking or analysis.trend or analysis.correlation or not _plain(analysis) or ranking.position > 1:
        return None
    n = ranking.top_n or 1
    # One area ranked by a census group ("the largest share of households earning $125,000+, and its homicides")
    # has no chain of tool calls that ranks the group: the query ranks it.
    by_group = ranking.metric in CENSUS_METRICS and analysis.census_group in CENSUS_GROUP and \
        any(m not in (*CENSUS_METRICS, "population") for m in _others(analysis, ranking.metric))  # another domain
    if n < 2 and not by_group:
        return None
    period = _period(analysis)
    first = _spec(ranking.metric, analysis, period) if ranking.metric else None
    others = _with_count([s for s in (_spec(m, analysis, period) for m in _others(analysis, ranking.metric)) if s],
                         analysis)
    if first is None or not others:
        return None
    return {"measures": [first, *others], "group_by": ["community_area"],
            "order_by": [{"field": _name(first), "direction": ranking.order}], "limit": n, "totals": n > 1}


def _bounded(analysis: Analysis, period: dict | None) -> dict | None:
    """The measure a condition bounds: a census group's share where the value is a percent ("30%+ of households make
    less than $25k"), else its count; a homicide rate over the question's years."""
    condition = analysis.area_condition
    if condition.metric == "homicide_rate":
        return {"measure": "homicide_rate", **({"period": period} if period else {})}
    if condition.metric == "home_value":
        return _spec("home_value", analysis, period)
    if condition.metric in CENSUS_METRICS:
        group = CENSUS_GROUP.get(analysis.census_group)
        if group is None:
            return None
        return {"measure": f"share_{group}" if condition.percent else group}
    return {"measure": MEASURE_OF[condition.metric]} if condition.metric in MEASURE_OF else None


def threshold_set(analysis: Analysis) -> dict | None:
    """"The share of 2021's homicides in areas where at least 30% of households are below poverty": the areas the
    condition picks, their figures and the total with its share of the city."""
    condition = analysis.area_condition
    if condition is None or analysis.correlation or not _plain(analysis):
        return None
    period = _period(analysis)
    first = _bounded(analysis, period)
    if first is None:
        return None
    skip = "homicides" if first["measure"] == "homicide_rate" else condition.metric
    others = [s for s in (_spec(m, analysis, period) for m in _others(analysis, skip)) if s]
    if first["measure"] == "population":
        others = [s for s in others if s["measure"] != "population"]
    query = {"measures": [first, *others], "group_by": ["community_area"],
             "having": [{"field": first["measure"], "op": OPS[condition.side], "value": condition.value}],
             "order_by": [{"field": first["measure"], "direction": "desc" if condition.side in ("above", "at_least")
                           else "asc"}], "totals": bool(others)}
    ranked = analysis.ranking
    if ranked and others:  # ranked within the set: "the highest homicide rate among areas over 50,000 residents"
        target = _spec(ranked.metric, analysis, period)
        if target is not None and any(_name(s) == _name(target) for s in others):
            n = ranked.top_n or 1
            query.update(order_by=[{"field": _name(target), "direction": ranked.order}], limit=n, totals=n > 1)
    return query


def ranked_change(analysis: Analysis) -> dict | None:
    """"The area with the biggest drop in homicides from 2021 to 2022, and its per capita income": the change
    ranked, with the other measure beside it."""
    ranking = analysis.ranking
    moved = analysis.trend or analysis.change_direction == "down"  # "the largest decline" names no trend word
    if not ranking or not moved or ranking.metric not in ("homicides", None) or not _plain(analysis):
        return None
    years = sorted(analysis.years)
    if analysis.periods and len(analysis.periods) == 1 and analysis.periods[0].start != analysis.periods[0].end:
        years = [analysis.periods[0].start, analysis.periods[0].end]
    if len(years) != 2 or analysis.per_capita:
        return None
    others = [s for s in (_spec(m, analysis, None) for m in _others(analysis, "homicides")) if s]
    n, position = ranking.top_n or 1, ranking.position or 1
    if not others and n == 1 and position == 1:
        return None  # the one biggest change alone: the trend tool's own ranking of places answers it
    before, after = ({"measure": "homicides", "period": {"year": y}, "as": f"homicides_{y}"} for y in years)
    return {"measures": [before, after, *others], "group_by": ["community_area"],
            "derived": [{"name": "change", "op": "change", "of": [before["as"], after["as"]]}],
            "order_by": [{"field": "change", "direction": "asc" if analysis.change_direction == "down" else "desc"}],
            "limit": n, "totals": n > 1, **({"offset": position - 1} if position > 1 else {})}


def zip_months(analysis: Analysis) -> dict | None:
    """"60621 home value jan 2020 and jan 2024": one ZIP's value in each named month, and the change between."""
    spans = analysis.date_spans
    if "home_value" not in analysis.metrics or len(analysis.zips) != 1 or len(spans) != 2 or analysis.areas:
        return None
    months = [span.start[:7] for span in spans]
    if any(span.start[:7] != span.end[:7] for span in spans) or months[0] == months[1]:
        return None  # whole months only: a span of several is another question
    specs = [{"measure": "home_value", "period": {"month": m}, "as": f"home_value_{m.replace('-', '_')}"}
             for m in sorted(months)]
    return {"measures": specs, "group_by": ["zip"], "filters": [{"dimension": "zip", "in": list(analysis.zips)}],
            "derived": [{"name": "change", "op": "change", "of": [s["as"] for s in specs]},
                        {"name": "change_pct", "op": "pct_change", "of": [s["as"] for s in specs]}]}


def correlation(analysis: Analysis) -> dict | None:
    """"The correlation between the hardship index and the number of homicides in 2022": the two measures asked
    over the 77 areas (a count where a count is asked, a rate per 100,000 where a rate is), Pearson and Spearman."""
    if not analysis.correlation or not _plain(analysis):
        return None
    period = _period(analysis)
    metrics = [m for m in analysis.metrics if m not in ("trend", "correlation")]
    if analysis.census_group in CENSUS_GROUP and any(m in CENSUS_METRICS for m in metrics):
        metrics = [m for m in metrics if m != "population"]  # "the percent Black population": the group's share
    if period is None and any(m in SOCIO_METRICS for m in metrics):
        period = {"start": "2008", "end": "2012"}  # no years asked: the indicators' own, as the answer says
    # Across areas of 2,000 to 100,000 residents a count mostly measures size: the rate unless a count is asked.
    rate = not analysis.asks_count
    specs = [s for s in (_spec(m, analysis, period, rate=rate) for m in metrics) if s]
    if len(specs) != 2 or len(metrics) != 2:
        return None
    if rate and "homicides" in metrics and any(m in SOCIO_METRICS for m in metrics):
        return None  # a rate against an indicator: the context tool gives the same r with its quartiles
    names = [_name(s) for s in specs]
    return {"measures": specs, "group_by": ["community_area"], "correlate": names}


def ranked_names(analysis: Analysis) -> dict | None:
    """"The top 3 wards for homicides in 2020, how many each, and who were the alderpersons": the ranking and each
    member's names and addresses, one query at the ranked grain."""
    extra, ranking = analysis.declared_extra, analysis.ranking
    if not extra or extra.get("filters") or not ranking or ranking.metric != "homicides" or analysis.per_capita:
        return None
    grain = extra["group_by"][0]
    counted = {"measure": "homicides", **({"period": _period(analysis)} if _period(analysis) else {})}
    position = ranking.position or 1
    return {"measures": [counted, *extra["measures"]], "group_by": [grain],
            "order_by": [{"field": "homicides", "direction": ranking.order}],
            "limit": max(ranking.top_n or 1, position)}


def composed_query(analysis: Analysis) -> dict | None:
    """The one query a cross-domain composition asks for, or None where the question is not one."""
    month = _home_month(analysis)
    outside = [y for y in analysis.out_of_range_years if not (month and y == int(month[:4]))]  # Zillow's own years
    if analysis.injection_suspected or analysis.unsupported or outside:
        return None
    for reader in (ranked_names, zip_months, correlation, threshold_set, ranked_change, ranked_set):
        query = reader(analysis)
        if query is not None:
            return query
    return None
