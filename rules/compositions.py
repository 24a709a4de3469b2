"""Cross-domain compositions answered by one semantic query (query_data) instead of a chain of tool calls.

The chain could only follow shapes it was written for, and lost the rest: "the 10 areas with the highest hardship
index, and their homicides in 2021 combined" got the first three areas' counts and no total (the loop's four calls
ran out), "the share of 2021's homicides in areas where at least 30% of households are poor" got the area with the
least poverty, "the biggest drop from 2021 to 2022, and its income" got the area with the most homicides. The query
says each whole: a set from a ranking with a second measure over it and its total, a set from a threshold with its
share of the city, a change ranked with another measure beside it.
"""
from __future__ import annotations

import calendar
from dataclasses import replace
from datetime import date

import re

from analyzer.analysis import HOMICIDE_RATIOS, LAYER_MEASURES, Analysis, Ranking
from analyzer.lexicon import ordinal
from rules.calls import SOCIO_METRICS
from semantic.catalog import catalog
from semantic.dimensions import PLACE_GRAINS as PLACE_DIMENSIONS, SUBMARKET_TOTALS
from semantic.query import QUANTILE_NAMES
from semantic.reading import member_ranked

# The analyzer's measure names -> the semantic layer's (semantic/datasets/).
MEASURE_OF = {
    "homicides": "homicides", "arrests": "arrests", "income": "per_capita_income",
    "poverty": "pct_households_below_poverty", "unemployment": "pct_unemployed", "education": "pct_without_diploma",
    "hardship": "hardship_index", "crowding": "pct_housing_crowded", "dependency": "pct_under_18_or_over_64",
    "population": "population", "home_value": "home_value", **{name: name for name in LAYER_MEASURES},
}
# A census group the analyzer found (analysis.census_group) -> the layer's count measure; its share is "share_" + it.
CENSUS_GROUP = {"black": "black", "hispanic_or_latino": "hispanic", "white_not_hispanic": "white_non_hispanic",
                "asian": "asian", "age_65_plus": "seniors", "age_0_17": "children", "age_18_24": "young_adults",
                "125k_plus": "households_125k_plus", "under_25k": "households_under_25k",
                **{f"age_{band}": f"age_{band}" for band in ("25_34", "35_49", "50_64", "18_34")}}
CENSUS_METRICS = ("race", "age", "household_income")
LAYER_ONLY = tuple(LAYER_MEASURES)  # the analyzer's measures no tool has: only a query answers them
TIMED = ("homicides", "arrests", "homicide_rate", *HOMICIDE_RATIOS)  # measures a question's years apply to
OPS = {"above": ">", "below": "<", "at_least": ">=", "at_most": "<="}


def _home_month(analysis: Analysis) -> str | None:
    """The one month named for a home value beside homicides ("worth under 180k in sept 2024 ... 2022 killings"), as
    YYYY-MM: a month with a year the homicide data lacks is Zillow's (2024-09)."""
    spans = {span.start[:7] for span in analysis.date_spans if span.start[:7] == span.end[:7] and len(span.start) >= 7}
    if "home_value" not in analysis.metrics:
        return None
    if len(spans) == 1:
        return next(iter(spans))
    named = analysis.month_years
    if len(named) == 1 and ("homicides" not in analysis.metrics or analysis.years_alone):
        return named[0]  # "home value (Jan 2022) ... homicides in 2021": the month is the home value's
    zillow_years = [y for y in analysis.out_of_range_years if 2000 <= y <= 2024]
    if "homicides" not in analysis.metrics and len(analysis.years) == 1:
        zillow_years = list(analysis.years)  # "hardship against home values (Zillow, September 2024)"
    if len(analysis.months) == 1 and len(zillow_years) == 1:
        return f"{zillow_years[0]}-{analysis.months[0]:02d}"
    return None


def _years_period(years: list) -> dict | None:
    """A period from years: one year, or the span from the first to the last."""
    years = sorted(set(years))
    if not years:
        return None
    return {"year": years[0]} if len(years) == 1 else {"start": str(years[0]), "end": str(years[-1])}


def _period(analysis: Analysis) -> dict | None:
    if analysis.population_growth and 2010 in analysis.years and not analysis.counts_2010:
        return _years_period([y for y in analysis.years if y != 2010])  # "since the 2010 census": the census's year
    if analysis.year_list:
        return {"years": sorted(analysis.year_list)}
    month = _home_month(analysis)
    if month:  # the month dates the home value; the years named alone are the homicides'
        return _years_period(analysis.years_alone or [y for y in analysis.years if y != int(month[:4])])
    if len(set(analysis.month_years)) == 2 and "home_value" in analysis.metrics and analysis.years_alone:
        return _years_period(analysis.years_alone)  # "a 2022 rate ... growth (Jan 2019 -> Jan 2024)": the months date
        # the values
    span = analysis.year_range
    return None if span is None else _years_period([span.start, span.end])


def _side_by_side(analysis: Analysis) -> list[dict]:
    """The periods a timed measure is asked over side by side: two spans compared ("2011-2015 total compared to
    2016-2020 total") or separate years ("in 2021 and in 2022"), each its own column; [] where one period is asked.
    Years listed to be added ("2021 and 2022 combined") are one period; a home value's month is not a period."""
    spans = analysis.periods
    if len(spans) == 2 and analysis.comparison and not analysis.years_together:
        return [_years_period([s.start, s.end]) for s in spans]
    if spans or analysis.years_together or _home_month(analysis) or analysis.out_of_range_years:
        return []
    years = sorted(set(analysis.year_list or analysis.years))
    if analysis.population_growth and not analysis.counts_2010:
        years = [y for y in years if y != 2010]  # "since the 2010 census": the census's year, no homicide year
    if not 2 <= len(years) <= 4 or (2010 in years and "population" in analysis.metrics):
        return []  # "the 2010 census": the population's year, not a homicide year
    return [{"year": y} for y in years]


def _timed(specs: list, analysis: Analysis) -> tuple[list, list]:
    """Each counted measure once per period asked side by side, with the change between two: (specs, derived)."""
    periods = _side_by_side(analysis)
    if not periods:
        return specs, []
    out, derived = [], []
    for spec in specs:
        if spec["measure"] not in TIMED:
            out.append(spec)
            continue
        columns = [{**spec, "period": p, "as": f"{spec['measure']}_{_period_key(p)}"} for p in periods]
        out += columns
        if len(columns) == 2:
            derived.append({"name": f"{spec['measure']}_change", "op": "change", "of": [c["as"] for c in columns]})
    return out, derived


def _period_key(period: dict) -> str:
    if "quarter" in period:
        return str(period["quarter"])
    return str(period["year"]) if "year" in period else f"{period['start']}_{period['end']}"


def _band(analysis: Analysis) -> str | None:
    """A household income band named beside another group ("households earning $125,000 or more ... in the areas
    with the highest percentage of Black residents"): its measure, by count where households are counted."""
    band = next((g for g in analysis.census_groups if g in ("125k_plus", "under_25k") and g != analysis.census_group),
                None)
    if band is None:
        return None
    return CENSUS_GROUP[band] if analysis.households_counted else f"share_{CENSUS_GROUP[band]}"


def _spec(metric: str, analysis: Analysis, period: dict | None, rate: bool = False) -> dict | None:
    if metric in ("income", "household_income") and _band(analysis):
        return {"measure": _band(analysis)}
    name = MEASURE_OF.get(metric)
    if metric in CENSUS_METRICS and analysis.census_group in CENSUS_GROUP:  # "the largest share of seniors"
        group = CENSUS_GROUP[analysis.census_group]
        counted = analysis.census_by_count or analysis.households_counted and group.startswith("households")
        name = group if counted else f"share_{group}"
    if metric == "homicides" and (analysis.per_capita or rate):
        name = "homicide_rate"
    if metric == "population" and (analysis.years == [2010] or 2010 in analysis.years and not analysis.counts_2010
                                   and not analysis.population_growth):
        # "according to the 2010 census", "the 5 most populous areas in the 2010 census ... over 2019-2022"
        name = "population_2010"
    if name is None:
        return None
    kinds = _homicide_filters(analysis) if name in ("homicides", "homicide_rate") else []
    if name in TIMED and period:  # "the most homicides flagged domestic": the count of those rows
        return {"measure": name, "period": period, **({"filters": kinds} if kinds else {})}
    if kinds:
        return {"measure": name, "filters": kinds}
    if name == "home_value":  # the month named for it, else the latest: the question's years are the homicides'
        month = _home_month(analysis)
        return {"measure": name, **({"period": {"month": month}} if month else {})}
    return {"measure": name}


def _homicide_filters(analysis: Analysis) -> list[dict]:
    """The homicide rows a composition counts: domestic ones, months of the year, days of the week, one stretch of
    hours ("in June, July and August of 2020 in the five poorest areas" had counted the whole year). Where the
    question groups by one of them, it is a grouping, not a filter."""
    found = [{"dimension": "domestic", "equals": True}] if analysis.domestic_filter else []
    grouped = analysis.group_by or ""
    # "June, July and August of 2020": months of the year the period names (its months of years say the same).
    # Beside a home value the months are its months ("under $180,000 in September 2024").
    # A month said in passing ("I know the data only runs into July") names no year: no filter.
    # A stretch of several months ("summer 2022", "jun/jul/aug") is never said in passing.
    in_the_years = ({int(m[:4]) for m in analysis.month_years} <= set(analysis.years) if analysis.month_years
                    else len(analysis.months) >= 2 and bool(analysis.years) and not analysis.quarters
                    and "price_trend" not in analysis.metrics)  # (an IHS quarter dates the index, not the homicides)
    if analysis.months and in_the_years and "month" not in grouped and "home_value" not in analysis.metrics:
        found.append({"dimension": "calendar_month", "in": list(analysis.months)})
    if analysis.weekdays and "weekday" not in grouped:
        found.append({"dimension": "weekday", "in": [calendar.day_name[d - 1] for d in analysis.weekdays]})
    if len(analysis.hour_spans) == 1 and "hour" not in grouped:
        found.append({"dimension": "hour", "in": list(analysis.hour_spans[0].hours)})
    # "on the street", "on a street or in an alley" (counted as one); "street vs apartment" compares the kinds
    if analysis.locations and "location" not in grouped and (len(analysis.locations) == 1
                                                             or analysis.locations_together):
        found.append({"dimension": "location_type", "in": list(analysis.locations)})
    return found


def _homicide_measures(analysis: Analysis) -> list[str]:
    """The homicide figures a composition gives a set or a place: the rate where one is asked per capita (the count
    beside it where a count is asked too), else the count."""
    ratios = [m for m in analysis.metrics if m in HOMICIDE_RATIOS]
    if ratios and "homicides" not in analysis.metrics:
        return ratios[:1]  # "the pooled homicide density (per sq mile)", "per 1,000 households"
    if not analysis.per_capita:
        return ["homicides"]
    return ["homicide_rate"] + (["homicides"] if analysis.asks_count else [])


def _counts_homicides(analysis: Analysis) -> bool:
    return bool({"homicides", *HOMICIDE_RATIOS} & set(analysis.metrics))


def _others(analysis: Analysis, first: str) -> list[str]:
    """The question's other measures, in its order, that the layer has."""
    skip = {first, "trend", "correlation"}
    return [m for m in analysis.metrics if m not in skip and (m in MEASURE_OF or (
        m in CENSUS_METRICS and analysis.census_group in CENSUS_GROUP))]


def _with_count(specs: list, analysis: Analysis) -> list:
    """"its homicide count and yearly rate": a rate asked beside a count gets the count too; "the population, 2010
    census and 2019-23 ACS": both counts of residents; arrests, their rate too."""
    out = []
    for spec in specs:
        if spec["measure"] == "homicide_rate" and analysis.asks_count:
            out.append({**spec, "measure": "homicides"})
        out.append(spec)
        if spec["measure"] == "population_2010" and analysis.acs_named:
            out.append({"measure": "population"})
        if spec["measure"] == "arrests":  # "what percent of them led to an arrest": the rate beside the count (a
            # set's rate is pooled from its sums, not averaged)
            out.append({**spec, "measure": "arrest_rate"})
        domestic = {"dimension": "domestic", "equals": True}
        if spec["measure"] == "homicides" and "domestic" in analysis.metrics and not analysis.domestic_filter \
                and not analysis.domestic_excluded and "as" not in spec and not spec.get("filters"):
            # "how many homicides in total, and how many of those were domestic": the domestic ones beside all
            out += [{**spec, "filters": [domestic], "as": "homicides_domestic"}, {**spec, "measure": "domestic_share"}]
        elif spec["measure"] == "homicides" and domestic in spec.get("filters", []):
            # "what percentage of their homicides were domestic": the share of all their homicides beside the count
            rest = [f for f in spec["filters"] if f != domestic]
            out.append({**{k: v for k, v in spec.items() if k != "filters"}, "measure": "domestic_share",
                        **({"filters": rest} if rest else {})})
    return out


def _name(spec: dict) -> str:
    return spec if isinstance(spec, str) else spec.get("as") or spec["measure"]  # ("main_submarket": a link)


def _plain(analysis: Analysis) -> bool:
    """No named place, filter or grouping the query would have to carry: the compositions here are over all areas."""
    return not (analysis.areas or analysis.wards or analysis.districts or analysis.zips or analysis.submarkets
                or analysis.group_by not in (None, "community_area"))


def _growth_of_a_ranked_set(analysis: Analysis) -> bool:
    """"The 10 areas with the highest homicide rates in 2010-2015: the change in their combined population": the
    change asked is the population's, over a set ranked by a level (not a change in homicides ranked)."""
    levels = ("homicides", "homicide_rate", *HOMICIDE_RATIOS)
    return bool(analysis.population_growth and analysis.ranking and analysis.ranking.metric != "population"
                and (analysis.ranking.metric in levels or any(s.metric in levels for s in analysis.ranked_sets)))


def _set_change(analysis: Analysis, ranking, grew) -> bool:
    """"The 10 richest areas: by what percent did homicides change from 2019 to 2021, together": a set ranked by a
    level, the change counted over it (not the area whose homicides changed the most, nor a span's total)."""
    return bool(ranking and (ranking.top_n or 1) >= 2 and ranking.metric not in TIMED and not grew
                and not analysis.ranks_homicide_change and "homicides" in analysis.metrics and not analysis.span_total)


def _count_asked(analysis: Analysis, ranking, first: dict | None, others: list, n: int) -> tuple:
    """A set ranked by its homicide rate with its count asked of it: "the 8 areas with the highest rate: their
    homicides combined", "... how many of their homicides happened between 10pm and 3:59am" (the set by its whole
    rate, the hours, days or months counting the homicides asked of it)."""
    if first is None or first["measure"] != "homicide_rate" or n < 2 \
            or any(isinstance(o, dict) and o["measure"] == "homicides" for o in others):
        return first, others
    if analysis.asks_count and not ranking.by_count:  # (beside other figures: "how many people live in them")
        return first, [*others, {**first, "measure": "homicides"}]
    if first.get("filters") and not others:
        return {k: v for k, v in first.items() if k != "filters"}, [{**first, "measure": "homicides"}]
    return first, others


def _query_ranks(analysis: Analysis, ranking, grew, submarket: bool) -> tuple[bool, bool, bool, bool]:
    """Why the query ranks even one place, where a tool chain would otherwise: (a census group ranks, only the layer
    has the ranked measure, a figure asked of the place only the query gives, a home value's month named)."""
    # One area ranked by a census group ("the largest share of households earning $125,000+, and its homicides")
    # has no chain of tool calls that ranks the group: the query ranks it.
    by_group = ranking.metric in CENSUS_METRICS and analysis.census_group in CENSUS_GROUP and \
        any(m not in (*CENSUS_METRICS, "population") for m in _others(analysis, ranking.metric))  # another domain
    only_here = ranking.metric in LAYER_ONLY  # no tool ranks it: the query does, even one place alone
    # "the home value in January 2020 in the area with the worst hardship": the chain gives the latest month only
    dated = ranking.metric != "home_value" and "home_value" in analysis.metrics and _home_month(analysis)
    # a figure only the layer has, asked of the ranked place ("its homicide density"): no tool chain gives it
    layer_other = any(m in LAYER_ONLY for m in _others(analysis, ranking.metric))
    # "the area that grew the most since 2010: its homicide rate in 2014 vs 2022": the change ranked, the homicide
    # figures beside it (the census tool's ranking carries none)
    layer_other = layer_other or bool(grew and {"homicides", "arrests"} & set(analysis.metrics)
                                      and _side_by_side(analysis))  # (a span's change is the trend tool's)
    # "the lowest hardship index: which area, and its unemployment rate": the tool ranks one indicator and gives
    # only it, so a second indicator of the place is the query's
    layer_other = layer_other or ranking.metric in SOCIO_METRICS and any(
        m in SOCIO_METRICS for m in _others(analysis, ranking.metric))
    # "the area with the most homicides in 2022: its rate that year": the count ranks (the rate tool ranks rates)
    count_ranks = ranking.by_count and ranking.metric == "homicides" and analysis.per_capita
    return by_group, only_here, bool(layer_other or count_ranks or submarket), bool(dated)


def ranked_set(analysis: Analysis) -> dict | None:
    """"The 10 areas with the highest hardship index: their homicides in 2021, together": the set, each member's
    figures and the total over it (with its share of the city)."""
    ranking = analysis.ranking
    if ranking and ranking.metric == "domestic" and analysis.domestic_filter:  # the domestic homicides rank the set
        ranking = replace(ranking, metric="homicides", by_count=True)
    grew = ranking and ranking.metric == "population" and analysis.population_growth  # "grew fastest": the ranking
    # "the area with the highest hardship: its IHS submarket, and that submarket's rise": the area's link followed
    # (the rise and the years, "annual averages", are the submarket's index's)
    # ("its IHS submarket's index": the longer words name the link, the IHS words the index)
    submarket = bool(ranking) and "main_submarket" in analysis.named_measures and (
        "price_index" in analysis.named_measures or "price_trend" in analysis.metrics) and ranking.metric in MEASURE_OF
    # "its homicide rate in 2014 vs 2022": the years listed are columns side by side, not a grouping of the set
    plain = _plain(analysis) or (analysis.group_by == "year" and bool(_side_by_side(analysis)) or submarket) \
        and _plain(replace(analysis, group_by=None))
    set_change = _set_change(analysis, ranking, grew)
    if not ranking or analysis.trend and not grew and not _growth_of_a_ranked_set(analysis) and not submarket \
            and not set_change \
            or analysis.correlation or not plain \
            or ranking.position > 1 and ranking.top_n:
        return None
    n, offset = ranking.top_n or 1, ranking.position - 1  # "the third-highest": one place, two skipped
    by_group, only_here, layer_other, dated = _query_ranks(analysis, ranking, grew, submarket)
    layer_other = layer_other or bool(analysis.rate_population)  # a rate over a group's residents: only a query
    if n < 2 and not by_group and not only_here and not dated and not layer_other \
            or offset and not (layer_other or only_here or by_group):
        return None
    period, own = _period(analysis), _set_years(analysis)
    first = _spec(ranking.metric, analysis, _years_period(list(own)) if own else period) if ranking.metric else None
    if own and first:  # ranked over its own whole years: the months named date the figures asked of it
        kept = [f for f in first.get("filters", []) if f["dimension"] != "calendar_month"]
        first = {**{k: v for k, v in first.items() if k != "filters"}, **({"filters": kept} if kept else {}),
                 "as": f"{first['measure']}_{own[0]}" + (f"_{own[1]}" if own[1] != own[0] else "")}
    period = _beside_set_years(analysis, own) or period
    others = _with_count([s for s in (_spec(m, analysis, period) for m in _others(analysis, ranking.metric)) if s],
                         analysis)
    if own and ranking.metric == "homicides" and not others:  # the same measure over the other period
        others = [s for s in [_spec("homicides", analysis, period)] if s]
    first, others = _count_asked(analysis, ranking, first, others, n)
    others += ["main_submarket"] if submarket else []
    # "the 4 areas with the most murders: their combined rate": the count ranks, the rate is asked of the set
    count_ranks_rate = first is not None and ranking.by_count and first["measure"] == "homicide_rate"
    if first is None or not (others or only_here or count_ranks_rate):
        return None
    if ranking.by_count and first["measure"] == "homicide_rate":  # "the most homicides": the count ranks the set
        others = [first, *[s for s in others if s["measure"] != "homicides"]]
        first = {**first, "measure": "homicides"}
    others, derived = _timed(others, analysis) if not own else (others, [])
    if set_change and not derived:  # the span's two ends over the set's sums, and the change between them
        others, derived = _span_ends(others, period, analysis, summed_places=True)
    others, derived = _kept_share(others, derived, analysis)
    if any(d["name"] == "share_kept" for d in derived) and first.get("filters") and first["measure"] != "homicides":
        # "the 10 most violent areas by homicide rate: what share were domestic": all homicides rank the set
        first = {k: v for k, v in first.items() if k != "filters"}
    ranked = [first]
    if ranking.metric == "population" and analysis.population_growth:
        # "the 3 areas that lost the most residents since 2010": ranked by the change from the census to the ACS
        ranked = [{"measure": "population_2010"}, first]
        derived = [{"name": "residents_change", "op": "pct_change" if analysis.population_growth == "change_pct"
                    else "change", "of": ["population_2010", "population"]}, *derived]
        first = {"measure": "residents_change"}
    elif analysis.population_growth and any(o["measure"] == "population" for o in others):
        # "the ten most overcrowded areas: by what percent did their combined population shrink since 2010": the
        # census count beside the ACS one, and the change (over the set's sums in its total)
        others = [{"measure": "population_2010"}, *others]
        derived = [*derived, {"name": "residents_change", "op": "pct_change" if analysis.population_growth ==
                              "change_pct" else "change", "of": ["population_2010", "population"]}]
    if analysis.asks_pooled and first["measure"].startswith("share_"):
        # "the 10 areas with the highest share under $25k: their pooled share": the ranked share again, unordered, so
        # the total says it over the set's sums
        others = [*others, {**first, "as": f"{first['measure']}_pooled"}]
        ranked = [{**first, "as": first["measure"]}]  # its own name kept beside the copy
    left_out = [p.number for p in analysis.excluded_areas]  # "excluding Austin, the 5 largest areas": the rest ranked
    # one place found and the city asked beside it ("how does its rate compare with the city's"): the city's figures
    totals = n > 1 or analysis.citywide
    return {"measures": [*ranked, *others], "group_by": ["community_area"], **({"derived": derived} if derived else {}),
            **({"filters": [{"dimension": "community_area", "not_in": left_out}]} if left_out else {}),
            "order_by": [{"field": _name(first), "direction": ranking.order}], "limit": n, "totals": totals,
            **({"offset": offset} if offset else {})}


def _set_years(analysis: Analysis) -> tuple:
    """A ranked set's own years where a year outside them dates what is asked of it (analyzer/sets._own_period)."""
    sets = analysis.ranked_sets
    own = sets[0].years if len(sets) == 1 and sets[0].years and analysis.ranking \
        and sets[0].metric == analysis.ranking.metric else ()
    return own if _beside_set_years(analysis, own) else ()  # (a survey's years date no figure)


def _beside_set_years(analysis: Analysis, own: tuple) -> dict | None:
    """The period of the figures asked of a set ranked over its own years: the months named outside them ("in July
    2022"), else the years."""
    if not own:
        return None
    months = [m for m in analysis.month_years if not own[0] <= int(m[:4]) <= own[1]]
    if months:
        return {"months": months}
    years = [y for y in analysis.years if not own[0] <= y <= own[1]]
    return _years_period(years) if years else None


def _homicide_share_set(analysis: Analysis, period: dict | None) -> dict | None:
    """"Areas where more than 70% of 2019-2022 homicides happened on the street": each area's share of its homicides
    that the question's kind keeps (a kind of place, domestic, days of the week), the areas past the bound, and the
    question's other measures over them."""
    kept, condition = _homicide_filters(analysis), analysis.area_condition
    if not kept:
        return None  # a share of homicides with nothing picking them: not a share this reading knows
    timed = {"period": period} if period else {}
    pair = [{"measure": "homicides", **timed, "filters": kept, "as": "homicides_kept"},
            {"measure": "homicides", **timed, "as": "homicides_all"}]
    others = [s for s in (_spec(m, analysis, period) for m in _others(analysis, "homicides")) if s]
    return {"measures": [*pair, *others], "group_by": [condition.grain],
            "derived": [{"name": "homicide_share", "op": "percent_of", "of": ["homicides_kept", "homicides_all"]}],
            "having": [{"field": "homicide_share", "op": OPS[condition.side], "value": condition.value}],
            "order_by": [{"field": "homicide_share", "direction": "desc" if condition.side in ("above", "at_least")
                          else "asc"}], "totals": True}


def _bounded(analysis: Analysis, period: dict | None, condition=None) -> dict | None:
    """The measure a condition bounds (the first, or ``condition``): a census group's share where the value is a
    percent ("30%+ of households make less than $25k"), else its count; a homicide rate over the question's years."""
    condition = condition or analysis.area_condition
    if condition.metric == "homicides":  # "areas with more than 30 homicides in 2021": counted over the years asked
        return {"measure": "homicides", **({"period": period} if period else {})}
    if condition.metric in ("homicide_rate", *HOMICIDE_RATIOS):
        return {"measure": condition.metric, **({"period": period} if period else {})}
    if condition.metric == "home_value":
        return _spec("home_value", analysis, period)
    if condition.metric in CENSUS_METRICS:
        group = CENSUS_GROUP.get(analysis.census_group)
        if group is None:
            return None
        # "above-median Hispanic share": a bound by reference is on the share unless the count is what is named
        share = condition.percent or bool(condition.reference) and not analysis.census_by_count
        return {"measure": f"share_{group}" if share else group}
    return {"measure": MEASURE_OF[condition.metric]} if condition.metric in MEASURE_OF else None


_SET_TIME_GRAINS = {"month": "calendar_month", "weekday": "weekday", "hour": "hour", "year": "year"}


def set_breakdown(analysis: Analysis) -> dict | None:
    """"In the 5 highest-hardship areas, which calendar month had the most homicides over 2016-2022", "the 10
    lowest-income areas' combined homicides for 2019, then 2020, then 2021": a set ranked by another measure, its
    homicides by a time grain over the set as a whole (members_from), and where the most are asked, the top one."""
    ranking = analysis.ranking
    sets = analysis.ranked_sets
    # "the five areas with the highest homicide rate in 2016-2022: which calendar month had the most homicides":
    # the set is the rate's; "the most" ranks the months by their count
    by_rate = ranking is not None and ranking.by_count and len(sets) == 1 and sets[0].metric == "homicide_rate" \
        and sets[0].n >= 2
    # "which month is deadliest in the 10 lowest-income areas": the ranking word ranks the months, the set's own
    # ranking picks the areas (its size is not the months')
    grain_ranked = ranking is not None and ranking.metric == "homicides" and len(sets) == 1 and sets[0].n >= 2 \
        and sets[0].metric not in ("homicides", "homicide_rate") and analysis.group_by in _SET_TIME_GRAINS
    peak_order = ranking.order if grain_ranked else "desc"
    by_rate = by_rate or grain_ranked
    # "for the 5 areas with the highest homicide rate in 2019-2022, their combined homicides in each year": the set's
    # count year by year
    yearly = len(sets) == 1 and sets[0].n >= 2 and analysis.each_year and not by_rate
    if by_rate or yearly:
        ranking = Ranking(order=sets[0].order, top_n=sets[0].n, metric=sets[0].metric, by_count=by_rate)
    if not ranking or (ranking.top_n or 0) < 2 or ranking.metric in (None, "homicides", "homicide_rate") \
            and not (by_rate or yearly) or "homicides" not in analysis.metrics \
            or analysis.per_capita and not (by_rate or yearly) \
            or analysis.correlation \
            or analysis.areas or analysis.wards or analysis.districts or analysis.zips or analysis.area_condition:
        return None
    # (years listed are the ranked set's columns side by side, with their totals: ranked_set)
    grain = "year" if yearly else _SET_TIME_GRAINS.get(analysis.group_by or "")
    if grain is None or analysis.asks_share and _homicide_filters(analysis):  # the days named kept, as a share
        return None
        return None
    period = _period(analysis)
    ranked = _set_spec(ranking.metric, analysis, period)
    if ranked is None:
        return None
    counted = {"measure": "homicides", **({"period": period} if period else {})}
    kinds = [k for k in _homicide_filters(analysis) if k["dimension"] != grain]
    if kinds:
        counted["filters"] = kinds
    members = {"measures": [ranked], "group_by": ["community_area"],
               "order_by": [{"field": _name(ranked), "direction": ranking.order}], "limit": ranking.top_n}
    # "which month (year) had the most homicides": the set's top month (year); years listed are a series
    peak = ranking.by_count and (grain != "year" or not analysis.year_list)
    return {"measures": [counted], "group_by": [grain], "members_from": members,
            **({"order_by": [{"field": "homicides", "direction": peak_order}], "limit": 1} if peak else {})}


def filtered_share_of_set(analysis: Analysis) -> dict | None:
    """"In the five areas with the most homicides over 2015-2022, what percent of those homicides happened between
    10pm and 3:59am": the set ranked by all its homicides, the ones the hours (days, months, domestic flag) keep
    beside, and those as a percent of all, per area and over the set."""
    ranking = analysis.ranking
    # "what percent were domestic": the domestic ones are the kept ones, asked as a share rather than as a filter
    kinds = _homicide_filters(analysis) or ([{"dimension": "domestic", "equals": True}]
                                            if "domestic" in analysis.metrics else [])
    if not ranking or not ranking.top_n or analysis.per_capita or not kinds \
            or not _plain(analysis) or analysis.area_condition or _set_years(analysis):
        return None  # (a set over its own years, the figure over others: ranked_set)
    # "of the homicides in the 10 areas with the highest poverty, what percent were domestic": a set ranked by
    # another measure, its homicides and the kept ones beside it; "for the 10 highest-income areas, what share of
    # their homicides fell on a weekend": the days kept, as a share
    other = ranking.metric != "homicides" and set(analysis.metrics) <= {"homicides", "domestic", ranking.metric} \
        and ("domestic" in analysis.metrics and not analysis.domestic_filter  # the share asked, not a count kept
             or analysis.asks_share and bool(_homicide_filters(analysis)))
    # "the seven areas with the most homicides in 2021: what share of their homicides were domestic": the share
    # asked of the set its own homicides rank
    if not (other or ranking.metric == "homicides" and set(analysis.metrics) <= {"homicides", "domestic"}):
        return None
    period = _period(analysis)
    every = {"measure": "homicides", **({"period": period} if period else {}), "as": "homicides_all"}
    kept = {**every, "filters": kinds, "as": "homicides_kept"}
    ranked = _set_spec(ranking.metric, analysis, period) if other else None
    if other and ranked is None:
        return None
    return {"measures": [*([ranked] if ranked else []), every, kept], "group_by": ["community_area"],
            "derived": [{"name": "share_kept", "op": "percent_of", "of": ["homicides_kept", "homicides_all"]}],
            "order_by": [{"field": _name(ranked) if ranked else "homicides_all", "direction": ranking.order}],
            "limit": ranking.top_n, "totals": True}


def _set_spec(metric: str, analysis: Analysis, period: dict | None) -> dict | None:
    if metric in ("homicide_rate", *HOMICIDE_RATIOS, "arrest_rate", "domestic_share"):
        return {"measure": metric, **({"period": period} if period else {})}
    return _spec(metric, analysis, period)


def _add(measures: list, spec: dict) -> str:
    if all(_name(m) != _name(spec) for m in measures):
        measures.append(spec)
    return _name(spec)


def set_query(analysis: Analysis) -> dict | None:
    """Places picked by their rank on a measure and something more: two ranked sets ("in both the top 20 for poverty
    and the top 20 for homicide rate"), a set and a bound ("of the ten with the most homicides, how many had a home
    value below the median"), or a ranking inside a set ("among the 15 worst for hardship, which had the highest
    Zillow value"). Each set is a rank column bounded; the ranks are over every area, before any bound."""
    sets, within = analysis.ranked_sets, analysis.rank_within
    conditions = [c for c in (analysis.area_condition, *analysis.more_conditions) if c is not None]
    # ("what percent of 2021 homicides were NOT in the 20 ...": one set taken away is every other place)
    if not (sets or within and conditions) or not (len(sets) > 1 or within or conditions or sets[0].excluded) \
            or analysis.correlation \
            or not _plain(analysis) or any(c.grain != "community_area" for c in conditions):
        return None
    if len(sets) == 2 and sets[0].metric == sets[1].metric and sets[0].order != sets[1].order \
            and not any(s.excluded for s in sets) and not conditions:
        return None  # "the 10 highest-hardship areas vs the 10 lowest": the two ends side by side (ranked_set)
    period, measures, derived, having = _period(analysis), [], [], []
    if sets and sets[0].years:  # each set ranked over its own years; the figures asked are the first set's years
        period = _years_period(list(sets[0].years))
    for ranked in sets:
        spec = _set_spec(ranked.metric, analysis, _years_period(list(ranked.years)) if ranked.years else period)
        if spec is None:
            return None
        ranking = analysis.ranking
        if spec["measure"] == "homicide_rate" and ranked.metric == "homicides" and ranking and ranking.by_count \
                and ranking.top_n == ranked.n:  # "leave out the 15 with the most murders: the rest's rate": counted
            spec = {**spec, "measure": "homicides"}
        if ranked.years:  # named for its years where they are not the first set's (the first keeps its name)
            spec = {**spec, "as": _name(spec) if ranked.years == sets[0].years else
                    f"{_name(spec)}_{ranked.years[0]}_{ranked.years[1]}"}
        name = _add(measures, spec)
        derived.append({"name": f"{name}_rank", "op": "rank", "of": [name],
                        **({"direction": "asc"} if ranked.order == "asc" else {})})
        having.append({"field": f"{name}_rank", "op": ">" if ranked.excluded else "<=", "value": ranked.n})
    for condition in conditions:
        if condition.metric == "homicide_change" and len(condition.years) == 2:
            # "of the 20 highest-poverty areas, how many saw homicides go up from 2019 to 2020": each year, the change
            pair = [{"measure": "homicides", "period": {"year": y}, "as": f"homicides_{y}"} for y in condition.years]
            for spec in pair:
                _add(measures, spec)
            derived.append({"name": "homicides_change", "op": "change", "of": [p["as"] for p in pair]})
            having.append({"field": "homicides_change", "op": OPS[condition.side], "value": 0})
            continue
        spec = _bounded(analysis, period, condition)
        if spec is None:
            return None
        having.append({"field": _add(measures, spec), "op": OPS[condition.side],
                       "value": condition.reference or condition.value})
    if within:
        spec = _set_spec(within.metric, analysis, period)
        if spec is None:
            return None
        order = [{"field": _add(measures, spec), "direction": within.order}]
    else:
        order = [{"field": _name(measures[0]), "direction": sets[0].order}]
    for metric in analysis.metrics:  # the figures asked of the places beside
        if metric == "home_value" and len(set(analysis.month_years)) == 2:
            # "... and how much did home values there change from Jan 2019 to Jan 2024": both months and the change
            specs, changes, _ = _home_values(analysis)
            for spec in specs:
                _add(measures, spec)
            derived += changes
            continue
        spec = _set_spec(metric, analysis, period) if metric in MEASURE_OF or metric == "homicide_rate" else None
        if spec is not None:
            _add(measures, spec)
    # "... NOT among the 15 highest homicide rates: their combined homicides": the count named apart from the rate
    named_apart = {"homicides", "homicide_rate"} <= set(analysis.named_measures)
    if (analysis.asks_count or named_apart) and any(_name(m) == "homicide_rate" for m in measures):
        _add(measures, {"measure": "homicides", **({"period": period} if period else {})})  # "their combined count"
    query = {"measures": measures, "group_by": ["community_area"], "derived": derived, "having": having,
             "order_by": order, **({"limit": within.n} if within else {"totals": True}),
             **({"offset": within.position - 1} if within and within.position > 1 else {}),
             **(_runner_up(analysis, order[0]["field"]) if within and within.n == 1 and within.position == 1 else {})}
    return _within_first(query) if len(sets) == 2 and sets[1].within else _nested(query)


def _within_first(query: dict) -> dict:
    """"Of the 15 highest-poverty areas, what share of their homicides came from the 3 worst of them (by count)":
    the second set ranked among the first's members only, its totals also a share of the first's."""
    first, second = query["having"][:2]
    ranks = {d["name"]: d for d in query["derived"]}
    larger = {**query, "derived": [ranks[first["field"]]], "having": [first]}
    return {**query, "derived": [ranks[second["field"]]], "having": [second], "members_from": larger,
            "order_by": [{"field": ranks[second["field"]]["of"][0], "direction": "desc"
                          if ranks[second["field"]].get("direction") != "asc" else "asc"}]}


def _nested(query: dict) -> dict:
    """"Of the homicides in the 20 highest-rate areas, what % were in the worst 5": two bounds on one rank column are
    a smaller set inside a larger; the smaller picked from the larger's members, so its totals are also a share of
    the larger's."""
    ranks = [h for h in query["having"] if h["field"].endswith("_rank") and h["op"] == "<="]
    if len(ranks) != 2 or ranks[0]["field"] != ranks[1]["field"] or len(query["having"]) != 2 \
            or not query.get("totals"):
        return query
    outer, inner = sorted(ranks, key=lambda h: -h["value"])
    derived = list({d["name"]: d for d in query["derived"]}.values())  # the rank column once
    larger = {**query, "derived": derived, "having": [outer]}
    return {**query, "derived": derived, "having": [inner], "members_from": larger}


def ranks_apart(analysis: Analysis) -> dict | None:
    """"How much higher was the #1 community area's 2019-2022 homicide rate than the #5 area's": the ranking's rows from
    the first position asked to the second, and the range between them (the spread's highest minus its lowest)."""
    ranking, apart = analysis.ranking, analysis.ranks_apart
    if not (ranking and apart) or analysis.group_by not in PLACE_DIMENSIONS or not _plain(analysis):
        return None
    spec = _spec(ranking.metric, analysis, _period(analysis), rate=analysis.per_capita)
    if spec is None:
        return None
    first, last = apart
    return {"measures": [spec], "group_by": [analysis.group_by],
            "order_by": [{"field": _name(spec), "direction": ranking.order}], "offset": first - 1,
            "limit": last - first + 1, "spread": [_name(spec)]}


def _runner_up(analysis: Analysis, field: str) -> dict:
    """"... and how far ahead of the runner-up was it": the first two, and the range between them."""
    return {"limit": 2, "totals": False, "spread": [field]} if analysis.runner_up_gap else {}


def threshold_set(analysis: Analysis) -> dict | None:
    """"The share of 2021's homicides in areas where at least 30% of households are below poverty": the areas the
    condition picks, their figures and the total with its share of the city."""
    condition = analysis.area_condition
    if condition is None or analysis.correlation or not (_plain(analysis) or condition.grain == analysis.group_by):
        return None
    period = _period(analysis)
    if condition.metric == "population_change":
        return _population_change_set(analysis, period)
    if condition.metric == "home_value_change":
        return _home_change_set(analysis)
    if condition.metric == "homicide_share":
        return _homicide_share_set(analysis, period)
    if condition.metric == "homicide_change":  # "more homicides in 2021 than in 2016": each year, the change's sign
        pair = [{"measure": "homicides", "period": {"year": y}, "as": f"homicides_{y}"} for y in condition.years]
        return {"measures": pair, "group_by": [condition.grain],
                "derived": [{"name": "homicides_change", "op": "change", "of": [p["as"] for p in pair]}],
                "having": [{"field": "homicides_change", "op": OPS[condition.side], "value": 0}],
                "order_by": [{"field": "homicides_change", "direction": "desc" if condition.side == "above"
                              else "asc"}], "totals": True}
    first = _bounded(analysis, period)
    if first is None:
        return None
    # A rate's set counts its homicides only where the count is named too ("and what % of the city's 2022 homicides
    # happened there"): the rate's own word "homicide" asks for none.
    counted = "homicides" in analysis.named_measures and first["measure"] == "homicide_rate"
    skip = "homicides" if first["measure"] == "homicide_rate" else condition.metric
    others = _with_count([s for s in (_spec(m, analysis, period) for m in _others(analysis, skip)) if s], analysis)
    if counted and not any(s["measure"] == "homicides" for s in others):
        others = [{**first, "measure": "homicides"}, *others]
    if first["measure"] == "population":
        others = [s for s in others if s["measure"] != "population"]
    derived: list = []
    if first["measure"] not in TIMED:  # the set is picked once; what is counted over it is asked per period
        others, derived = _timed(others, analysis)
        if not derived and not analysis.population_growth:
            # "by how many did their combined count change from 2019 to 2021": the span's two ends (a population's
            # growth is the set's own condition, no change of the counts)
            others, derived = _span_ends(others, period, analysis, summed_places=True)
    others, derived = _kept_share(others, derived, analysis)
    if len(set(analysis.month_years)) == 2 and any(s["measure"] == "home_value" for s in others) \
            and not analysis.more_conditions:  # (a second bound on the change brings its months: _all_conditions)
        # "... how much did their Zillow values change from Sept 2019 to Sept 2024": both months and the change
        values, changes, _ = _home_values(analysis)
        others = [*(s for s in others if s["measure"] != "home_value"), *values]
        derived = [*derived, *changes]
    query = {"measures": [first, *others], "group_by": [condition.grain], **({"derived": derived} if derived else {}),
             "having": [{"field": first["measure"], "op": OPS[condition.side],
                         "value": condition.reference or condition.value}],
             "order_by": [{"field": first["measure"], "direction": "desc" if condition.side in ("above", "at_least")
                           else "asc"}], "totals": bool(others)}
    ranked = analysis.ranking
    if ranked and others:  # ranked within the set: "the highest homicide rate among areas over 50,000 residents"
        target = _spec(ranked.metric, analysis, period)
        if target is not None and any(_name(s) == _name(target) for s in others):
            n = ranked.top_n or 1
            query.update(order_by=[{"field": _name(target), "direction": ranked.order}], limit=n, totals=n > 1,
                         **({"offset": ranked.position - 1} if ranked.position > 1 else {}))  # "the SECOND highest"
            if n == 1 and ranked.position == 1:
                query.update(_runner_up(analysis, _name(target)))
    return query


def _population_change_set(analysis: Analysis, period: dict | None) -> dict:
    """"How many community areas lost population between the 2010 census and the ACS, and their 2022 homicides":
    both counts of residents, the change, the areas on the side of zero asked, and what they hold together."""
    condition = analysis.area_condition
    side, field = condition.side, "residents_pct_change" if condition.percent else "residents_change"
    others, derived = _timed([s for s in (_spec(m, analysis, period) for m in _others(analysis, "population")) if s],
                             analysis)
    changes = [{"name": "residents_change", "op": "change", "of": ["population_2010", "population"]}]
    if condition.percent:  # "lost more than 10% of their population": the percent change bounded
        changes.append({"name": field, "op": "pct_change", "of": ["population_2010", "population"]})
    return {"measures": [{"measure": "population_2010"}, {"measure": "population"}, *others],
            "group_by": ["community_area"], "derived": [*changes, *derived],
            "having": [{"field": field, "op": OPS[side], "value": condition.reference or condition.value}],
            "order_by": [{"field": field, "direction": "asc" if side in ("below", "at_most") else "desc"}],
            "totals": True}


def _home_change_set(analysis: Analysis) -> dict | None:
    """"Which areas had a lower home value in Jan 2024 than in Jan 2019, and their homicides over 2019-2022": the
    value in both months, the change, the areas on the side of zero asked, and the homicides over the years named
    alone."""
    condition = analysis.area_condition
    side, field = condition.side, "home_value_pct_change" if condition.percent else "home_value_change"
    months = sorted(analysis.month_years)
    homes = [{"measure": "home_value", "period": {"month": m}, "as": f"home_value_{m.replace('-', '_')}"}
             for m in months]
    counted = _years_period(analysis.years_alone)
    # "values doubled from Jan 2012 to Jan 2022: their homicides in 2012 and then in 2021": the months date the values;
    # the years named alone are the counts', each its own
    alone = sorted(set(analysis.years_alone))
    apart = [{"year": y} for y in alone] if 2 <= len(alone) <= 4 and not (
        analysis.periods or analysis.years_together or analysis.out_of_range_years) else []
    # "the pooled homicide rate in those areas over 2007-2011": the rate (over the set's sums in its total)
    others = [{"measure": m, "period": p, "as": f"{m}_{_period_key(p)}"} for p in apart
              for m in _homicide_measures(analysis)] if apart and _counts_homicides(analysis) else \
        [{"measure": m, "period": counted} for m in _homicide_measures(analysis)] \
        if counted and _counts_homicides(analysis) else []
    others += [s for s in (_spec(m, analysis, None) for m in analysis.metrics
                           if m not in ("home_value", "homicides", *HOMICIDE_RATIOS))
               if s and s["measure"] not in TIMED]  # "how many people live in them (ACS)"
    changes = [{"name": "home_value_change", "op": "change", "of": [h["as"] for h in homes]}]
    if condition.percent:  # "values climbed more than 40%": the percent change bounded
        changes.append({"name": field, "op": "pct_change", "of": [h["as"] for h in homes]})
    return {"measures": [*homes, *others], "group_by": ["community_area"], "derived": changes,
            "having": [{"field": field, "op": OPS[side], "value": condition.reference or condition.value}],
            "order_by": [{"field": field, "direction": "asc" if side in ("below", "at_most") else "desc"}],
            "totals": bool(others)}


def ranked_change(analysis: Analysis) -> dict | None:
    """"The area with the biggest drop in homicides from 2021 to 2022, and its per capita income": the change
    ranked, with the other measure beside it."""
    ranking = analysis.ranking
    moved = analysis.trend or analysis.change_direction == "down"  # "the largest decline" names no trend word
    if not ranking or not moved or _growth_of_a_ranked_set(analysis) or ranking.metric not in ("homicides", None) or not _plain(analysis):
        return None
    years = sorted(analysis.years)
    if analysis.periods and len(analysis.periods) == 1 and analysis.periods[0].start != analysis.periods[0].end:
        years = [analysis.periods[0].start, analysis.periods[0].end]
    spans = [_years_period([p.start, p.end]) for p in analysis.periods if p.start < p.end]
    if len(analysis.periods) == 2 and len(spans) == 2:  # "from the 2001-2005 total to the 2011-2015 total"
        years = spans
    if len(years) != 2:
        return None
    # "whose murder count grew the most ... and its rate per 100k": the counts' change ranked, the rate at both ends;
    # "whose homicide rate rose the most": the rates' change ranked
    by_count = analysis.asks_count or ranking.by_count  # "the biggest drop in homicides ... and its 2022 rate"
    counted = "homicide_rate" if analysis.per_capita and not by_count else "homicides"
    others = [s for s in (_spec(m, analysis, None) for m in _others(analysis, "homicides")) if s]
    if analysis.per_capita and by_count:
        rates = [{"measure": "homicide_rate", "period": {"year": y}, "as": f"homicide_rate_{y}"} for y in years]
        others = rates + others
    # "... and which ZIP code is that area mostly in": the area's main ZIP (and that ZIP's figures once it is known)
    others += ["main_zip"] if "main_zip" in analysis.named_measures else []
    # "... give its IHS submarket's 2022 index": the area's submarket (and its index once it is known)
    others += ["main_submarket"] if {"price_index", "main_submarket"} & set(analysis.named_measures) else []
    n, position = ranking.top_n or 1, ranking.position or 1
    if not others and n == 1 and position == 1 and counted == "homicides":
        return None  # the one biggest change in the count alone: the trend tool's ranking answers it (not a rate's)
    before, after = ({"measure": counted, "period": y if isinstance(y, dict) else {"year": y},
                      "as": f"{counted}_{_period_key(y) if isinstance(y, dict) else y}"} for y in years)
    return {"measures": [before, after, *others], "group_by": ["community_area"],
            "derived": [{"name": "change", "op": "change", "of": [before["as"], after["as"]]}],
            "order_by": [{"field": "change", "direction": "asc" if analysis.change_direction == "down" else "desc"}],
            "limit": n, "totals": n > 1, **({"offset": position - 1} if position > 1 else {})}


def zip_change_ranked(analysis: Analysis) -> dict | None:
    """"Which ZIP lost the biggest share of its Zillow value between January 2007 and January 2012": the ZIPs ranked
    by the change between the two months (percent, or dollars where asked), a fall from the bottom."""
    ranking = analysis.ranking
    linked = "main_community_area" in analysis.named_measures  # "... which community area makes up most of it"
    if not ranking or not (analysis.group_by == "zip" or linked) or analysis.zips or analysis.areas \
            or "home_value" not in analysis.metrics or len(set(analysis.month_years)) != 2 or analysis.ranks_level:
        return None
    specs, derived, key = _home_values(analysis)
    specs += ["main_community_area"] if linked else []
    down = analysis.change_direction == "down"
    direction = ("desc" if ranking.order == "asc" else "asc") if down else ranking.order
    return {"measures": specs, "group_by": ["zip"], "derived": derived,
            "order_by": [{"field": key, "direction": direction}], "limit": ranking.top_n or 1,
            **({"offset": ranking.position - 1} if ranking.position > 1 else {})}


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


def _correlated(metric: str, analysis: Analysis, period: dict | None, rate: bool) -> tuple[list, list, str] | None:
    """One side of a correlation: (specs, derived, the column correlated). A home value over two months and a
    population grown since the census are their percent changes; a month dates a home value."""
    if metric == "home_value" and len(set(analysis.month_years)) == 2:
        specs, derived, _ = _home_values(analysis)
        return specs, [d for d in derived if d["op"] == "pct_change"], "change_pct"
    if metric == "population" and analysis.population_growth:
        # across areas of 2,000 to 100,000 residents a change in residents mostly measures size: its percent
        return [{"measure": "population_2010"}, {"measure": "population"}], \
            [{"name": "residents_change", "op": "pct_change", "of": ["population_2010", "population"]}], "residents_change"
    if metric == "price_trend" and _index_pair(analysis):
        # "each area's IHS price index growth 2019 to 2024 (its main submarket)": the area's submarket's index in each
        # year (the mean of its quarters) and the percent change
        specs = [{"measure": "price_index", "period": {"year": y}, "as": f"price_index_{y}"} for y in _index_pair(analysis)]
        return specs, [{"name": "price_index_change_pct", "op": "pct_change", "of": [s["as"] for s in specs]}], \
            "price_index_change_pct"
    if metric in ("arrests", "domestic"):  # "the percentage of its homicides that ended in an arrest" (were flagged
        # domestic): each area's share
        name = "arrest_rate" if metric == "arrests" else "domestic_share"
        return [{"measure": name, **({"period": period} if period else {})}], [], name
    spec = _spec(metric, analysis, period, rate=rate)
    return ([spec], [], _name(spec)) if spec else None


def _index_pair(analysis: Analysis) -> list:
    """The price index's two years where a change in it is asked: its own years, or the question's two where no
    homicide figure shares them."""
    if len(analysis.index_years) == 2:
        return list(analysis.index_years)
    years = sorted(set(analysis.years))
    return years if len(years) == 2 and not _counts_homicides(analysis) else []


def correlation(analysis: Analysis) -> dict | None:
    """"The correlation between the hardship index and the number of homicides in 2022": the two measures asked
    over the 77 areas (a count where a count is asked, a rate per 100,000 where a rate is), Pearson and Spearman;
    a change asked ("% population change", "the % change in home value from Jan 2014 to Jan 2024") is its column."""
    named = analysis.areas or analysis.wards or analysis.districts or analysis.zips or analysis.submarkets
    if not analysis.correlation or named or analysis.group_by not in (None, "community_area", "zip", "year"):
        return None  # across the community areas ("zillow zips weighted to community areas" is how, not a grain)
    # (the IHS index's growth over its own two years is a side; a Zillow value asked beside it keeps its own)
    ihs = "price_trend" in analysis.metrics and "home_value" not in analysis.metrics and bool(_index_pair(analysis))
    metrics = [m for m in analysis.metrics if m not in ("trend", "correlation", "price_trend") or ihs and m == "price_trend"]
    if analysis.census_group in CENSUS_GROUP and any(m in CENSUS_METRICS for m in metrics) or "population_density" in metrics:
        metrics = [m for m in metrics if m != "population"]  # "the percent Black population": the group's share
    if "arrests" in metrics or set(HOMICIDE_RATIOS) & set(metrics) or "domestic" in metrics and (
            not analysis.domestic_filter or analysis.asks_share):
        # the arrests' (domestic) share, the homicides per square mile: measures of the homicides, not a third side
        metrics = [m for m in metrics if m != "homicides"]
    moved = analysis.population_growth and "population" in metrics
    # ("... since the 2010 census, and its homicide rate in 2010-2015": a span written out keeps its 2010)
    span = next(({"start": str(p.start), "end": str(p.end)} for p in analysis.periods if p.start == 2010 < p.end), None)
    period = (span or _years_period([y for y in analysis.years if y != 2010])) if moved else \
        _years_period(analysis.years_alone) if analysis.month_years else _period(analysis)
    if period is None and any(m in SOCIO_METRICS for m in metrics):
        period = {"start": "2008", "end": "2012"}  # no years asked: the indicators' own, as the answer says
    # Across areas of 2,000 to 100,000 residents a count mostly measures size: the rate unless a count is asked.
    rate = not analysis.asks_count
    condition = analysis.area_condition
    bound = _bounded(analysis, period) if condition is not None and condition.grain == "community_area" else None
    if bound is not None and len(metrics) == 3 and condition.metric in metrics:
        metrics = [m for m in metrics if m != condition.metric]  # the bound's own measure picks the areas
    # "only looking at the 20 areas with the highest hardship index: the correlation between ...": over that set
    kept = [s for s in analysis.ranked_sets if not s.excluded]
    within = kept[0] if bound is None and len(kept) == 1 and (kept[0].metric not in metrics or len(metrics) == 3) \
        else None
    metrics = [m for m in metrics if not within or m != within.metric]
    sides = [_correlated(m, analysis, period, rate) for m in metrics]
    if len(metrics) != 2 or not all(sides):
        return None
    plain = all(len(specs) == 1 and not derived for specs, derived, _ in sides)
    if plain and rate and "homicides" in metrics and any(m in SOCIO_METRICS for m in metrics) and bound is None:
        return None  # a rate against an indicator: the context tool gives the same r with its quartiles
    derived = [d for _, ds, _ in sides for d in ds]
    query = {"measures": [s for specs, _, _ in sides for s in specs], "group_by": ["community_area"],
             **({"derived": derived} if derived else {}), "correlate": [column for _, _, column in sides]}
    picked = _spec(within.metric, analysis, period) if within else None
    if picked:
        query["members_from"] = {"measures": [picked], "group_by": ["community_area"], "limit": within.n,
                                 "order_by": [{"field": _name(picked), "direction": within.order}]}
    return _correlated_within(query, analysis, bound) if bound is not None else query


def _correlated_within(query: dict, analysis: Analysis, bound: dict) -> dict:
    """"Only areas with a hardship index above 50: the correlation between unemployment and the rate": the bound's
    measure beside the two, and the correlation over the rows the bound keeps."""
    condition = analysis.area_condition
    field = _name(bound)
    if field not in [_name(m) for m in query["measures"]]:
        query["measures"].append(bound)
    return {**query, "having": [{"field": field, "op": OPS[condition.side],
                                 "value": condition.reference or condition.value}]}


def ranked_names(analysis: Analysis) -> dict | None:
    """"The top 3 wards for homicides in 2020, how many each, and who were the alderpersons": the ranking and each
    member's names and addresses, one query at the ranked grain."""
    extra, ranking = analysis.declared_extra, analysis.ranking
    if not extra or extra.get("filters") or not ranking or ranking.metric not in ("homicides", "domestic") \
            or analysis.per_capita:
        return None
    grain = extra["group_by"][0]
    # "the most domestic-related homicides": the homicides counted are the domestic ones (or the ones not domestic)
    kind = [{"dimension": "domestic", "equals": True}] if analysis.domestic_filter else \
        [{"dimension": "domestic", "equals": False}] if analysis.domestic_excluded else []
    counted = {"measure": "homicides", **({"period": _period(analysis)} if _period(analysis) else {}),
               **({"filters": kind} if kind else {})}
    position = ranking.position or 1
    return {"measures": [counted, *extra["measures"]], "group_by": [grain],
            "order_by": [{"field": "homicides", "direction": ranking.order}],
            "limit": max(ranking.top_n or 1, position),
            **({"totals": True} if analysis.asks_total and (ranking.top_n or 1) > 1 else {})}  # "combined total"


def city_rates(analysis: Analysis) -> dict | None:
    """"Chicago's homicide rate per 100k: 2014 vs 2016": the city's rate in each period asked side by side, and the
    change between (the rate tool gives one rate over a span, which is another figure)."""
    places = analysis.areas or analysis.wards or analysis.districts or analysis.zips or analysis.submarkets
    if not analysis.per_capita or analysis.ranking or analysis.area_condition or places or analysis.correlation \
            or analysis.group_by not in (None, "year"):
        return None
    specs, derived = _timed([{"measure": "homicide_rate"}], analysis)
    if len(specs) < 2:
        return None
    return {"measures": specs, **({"derived": derived} if derived else {})}  # no grouping: the city's figures


def named_places(analysis: Analysis) -> dict | None:
    """"Austin: typical home value in January 2016 vs January 2022, and its homicide count in 2016 vs 2022",
    "Rogers Park vs Edgewater: each one's population change since the 2010 census, and their homicides 2016-2022":
    the places named, each measure over its own dates (the months the home value, the years named alone or the
    span the homicides), each place's figures and the changes asked."""
    places = [p.number for p in analysis.areas]
    if not places or analysis.wards or analysis.districts or analysis.zips or analysis.ranking \
            or analysis.area_condition or analysis.correlation or "homicides" not in analysis.metrics:
        return None
    specs, derived = [], []
    if "home_value" in analysis.metrics and 1 <= len(analysis.month_years) <= 2:
        specs += [{"measure": "home_value", "period": {"month": m}, "as": f"home_value_{m.replace('-', '_')}"}
                  for m in sorted(analysis.month_years)]
        years = sorted(set(analysis.years_alone))
        if analysis.population_growth and "population" in analysis.metrics:
            # "its population change from the 2010 census to the ACS, its homicides in 2022, its Zillow value"
            specs += [{"measure": "population_2010"}, {"measure": "population"}]
            derived.append({"name": "residents_change", "op": "pct_change" if analysis.population_growth ==
                            "change_pct" else "change", "of": ["population_2010", "population"]})
            years = [y for y in years if y != 2010 or analysis.counts_2010]  # the census's year, not a count's
        span = next((p for p in analysis.periods if p.start < p.end and {p.start, p.end} >= set(years)), None)
        if span is not None and not analysis.each_year:  # "how many homicides in 2001-2005": the span, not its ends
            # "their 2019-2022 homicide rates": the rate over the span (the count beside it where one is asked)
            specs += [{"measure": m, "period": {"start": str(span.start), "end": str(span.end)}}
                      for m in _homicide_measures(analysis)]
            years = None
    elif analysis.population_growth and "population" in analysis.metrics \
            and not any(p.start == 2010 for p in analysis.periods):  # "since 2010" is the census's span, not a count's
        specs += [{"measure": "population_2010"}, {"measure": "population"}]
        derived.append({"name": "residents_change", "op": "pct_change" if analysis.population_growth == "change_pct"
                        else "change", "of": ["population_2010", "population"]})
        period = _period(analysis)
        years = [] if period is None else [period["year"]] if "year" in period else None
        if years is None and (analysis.comparison or analysis.each_year) and not analysis.span_total \
                and analysis.counts_2010:  # "homicides in 2010 vs 2022 in each": the two years, each a column
            years = [int(period["start"]), int(period["end"])]
        if years is None:  # a span ("2016-2022"): the homicides over it
            specs.append({"measure": "homicides", "period": period})
    elif analysis.per_capita and len(_side_by_side(analysis)) >= 2:
        # "Englewood in 2005 vs 2021: the number of homicides and the rate per 100,000 in each of those years"
        counted = ["homicides", "homicide_rate"] if analysis.asks_count else ["homicide_rate"]
        specs += [{"measure": m, "period": p, "as": f"{m}_{_period_key(p)}"} for m in counted
                  for p in _side_by_side(analysis)]
        years = None
    else:
        return None
    if years is not None:
        if not years or len(years) > 4:
            return None
        specs += [{"measure": "homicides", "period": {"year": y}, "as": f"homicides_{y}"} for y in years]
    for measure in ("home_value", "homicides", "homicide_rate"):
        pair = [s for s in specs if s["measure"] == measure and "as" in s]
        if len(pair) == 2:
            derived.append({"name": f"{measure}_change", "op": "change", "of": [s["as"] for s in pair]})
            if analysis.asks_percent_change:  # "the percent change in its Zillow value from Sept 2019 to Sept 2023"
                derived.append({"name": f"{measure}_pct_change", "op": "pct_change", "of": [s["as"] for s in pair]})
            if analysis.asks_times:  # "sept 2024 divided by sept 2019", "2022 vs 2019 as a ratio": later over earlier
                derived.append({"name": f"{measure}_ratio", "op": "ratio", "of": [pair[1]["as"], pair[0]["as"]]})
    return {"measures": specs, "group_by": ["community_area"],
            "filters": [{"dimension": "community_area", "in": places}], **({"derived": derived} if derived else {})}


def places_pooled(analysis: Analysis) -> dict | None:
    """"Austin, Humboldt Park and North Lawndale combined: pooled homicide rate 2019-2022 and their total
    population": the places named as one set, each one's figures and the set's own (a rate's ratio of sums, a
    count's sum)."""
    if len(analysis.areas) < 2 or not analysis.places_together or analysis.ranking or analysis.area_condition \
            or analysis.correlation or analysis.wards or analysis.districts or analysis.zips \
            or not (analysis.per_capita or "population" in analysis.metrics) or analysis.month_years:
        return None
    period = _period(analysis)
    asked = _homicide_measures(analysis) if analysis.per_capita or analysis.asks_count or "homicides" in analysis.metrics \
        else []
    specs = [{"measure": m, **({"period": period} if period else {})} for m in asked]
    specs += [s for s in (_spec(m, analysis, period) for m in analysis.metrics
                          if m not in ("homicides", "arrests", "domestic")) if s and s not in specs]
    if not specs:
        return None
    return {"measures": specs, "group_by": ["community_area"],
            "filters": [{"dimension": "community_area", "in": [p.number for p in analysis.areas]}], "totals": True}


def member_rank(analysis: Analysis) -> dict | None:
    """"Where did Englewood rank among community areas for homicides in 2022": the measure over all the areas, each
    one's rank, and the named area's row."""
    if not analysis.asks_rank or analysis.ranking or analysis.trend or analysis.correlation:
        return None
    bounding = analysis.area_condition.metric if analysis.area_condition else None  # the set's, not the ranked
    metrics = [m for m in analysis.metrics if (m in MEASURE_OF or m in CENSUS_METRICS) and m != bounding]
    if len(metrics) == 2 and not analysis.area_condition and analysis.areas and not analysis.per_capita \
            and analysis.asks_gap:
        return _two_ranks(analysis, metrics)
    spec = _spec(metrics[0], analysis, _period(analysis)) if len(metrics) == 1 else None
    if spec is None:
        return None
    if analysis.per_capita and spec["measure"] == "homicides":
        spec = {**spec, "measure": "homicide_rate"}
    # "where does ZIP 60647 rank among the Chicago ZIPs by home value": a ZIP among the ZIPs
    grain, member = ("zip", int(analysis.zips[0])) if analysis.zips else ("ward", analysis.wards[0]) if analysis.wards \
        else ("district", analysis.districts[0]) if analysis.districts else ("community_area", analysis.areas[0].number)
    condition = analysis.area_condition
    if analysis.city_as_a_whole and spec["measure"] == "homicide_rate" and grain == "community_area" and not condition:
        return None  # "how far above the city's rate was it, and where did it rank": the rate tool gives the gap and rank
    bound = _bounded(analysis, _period(analysis), condition) if condition and grain == "community_area" else None
    # "among areas where over 90% are Black, where does Chatham rank": ranked among the set's members only
    inside = {"measures": [bound], "group_by": [grain], "having": [{"field": _name(bound), "op": OPS[condition.side],
                                                                  "value": condition.reference or condition.value}]} \
        if bound else None
    return {"measures": [spec], "group_by": [grain],
            "derived": [{"name": "rank", "op": "rank", "of": [_name(spec)],
                         **({"direction": "asc"} if analysis.rank_order == "asc" else {})}],
            "having": [{"field": grain, "op": "==", "value": member}], **({"members_from": inside} if inside else {})}


def _two_ranks(analysis: Analysis, metrics: list) -> dict | None:
    """"Englewood ranks near the top for homicides 2016-2022 but where for population? how many places apart": the
    area's rank by each measure (a year dates the homicides only) and the later one's minus the earlier one's."""
    specs = [_spec(m, analysis, _period(analysis) if m in TIMED else None) for m in metrics]
    if not all(specs):
        return None
    way = {"direction": "asc"} if analysis.rank_order == "asc" else {}
    ranks = [{"name": f"rank_{_name(s)}", "op": "rank", "of": [_name(s)], **way} for s in specs]
    return {"measures": specs, "group_by": ["community_area"],
            "derived": [*ranks, {"name": "rank_gap", "op": "difference", "of": [ranks[1]["name"], ranks[0]["name"]]}],
            "having": [{"field": "community_area", "op": "==", "value": analysis.areas[0].number}]}


def grain_set(analysis: Analysis) -> dict | None:
    """Homicides over a set of wards, districts or areas that their own counts pick: "what share of 2020's homicides
    took place in the three wards with the most" (the top N with their total and its share of the city), "how many
    of the wards had more than 25 homicides in 2022, and which had the most" (the places over the floor, counted)."""
    ranking, grain = analysis.ranking, analysis.group_by
    places = analysis.areas or analysis.wards or analysis.districts or analysis.zips
    if grain in ("year", "month") and analysis.min_homicides and not places and not ranking \
            and set(analysis.metrics) == {"homicides"} and not analysis.per_capita:
        # "in how many years did Chicago record more than 600 homicides": each year over the floor, counted
        period = _period(analysis)
        return {"measures": [{"measure": "homicides", **({"period": period} if period else {})}], "group_by": [grain],
                "having": [{"field": "homicides", "op": ">=", "value": analysis.min_homicides}],
                "order_by": [{"field": grain, "direction": "asc"}]}
    if grain not in ("ward", "district", "community_area", "beat") or places or analysis.per_capita or analysis.trend \
            or not ranking or ranking.metric not in ("homicides", None) or set(analysis.metrics) - {"homicides"}:
        return None
    counted = {"measure": "homicides", **({"period": _period(analysis)} if _period(analysis) else {})}
    order = [{"field": "homicides", "direction": ranking.order}]
    if grain == "beat" and not analysis.min_homicides:  # no tool has beats: the query ranks them, one or several
        n = ranking.top_n or 1
        return {"measures": [counted], "group_by": [grain], "order_by": order, "limit": n, "totals": n > 1}
    if analysis.min_homicides and analysis.counts_places:
        return {"measures": [counted], "group_by": [grain], "order_by": order,
                "having": [{"field": "homicides", "op": ">=", "value": analysis.min_homicides}]}
    if (ranking.top_n or 1) > 1 and analysis.asks_total and not analysis.min_homicides:
        return {"measures": [counted], "group_by": [grain], "order_by": order, "limit": ranking.top_n,
                "totals": True}
    return None


def _counts_by_year(analysis: Analysis) -> tuple[list, list] | None:
    """Homicides over the years named alone ("from 2015 to 2022": each end and the change), or over the span; with
    no year alone, the home value's own year ("home value in june 2019, and the homicide total for that year")."""
    years = sorted(set(analysis.years_alone) or {int(m[:4]) for m in analysis.month_years})
    if len(years) > 2 and len(analysis.periods) == 1:  # "homicides there 2008-2012, and its 2010 population": the span
        years = [analysis.periods[0].start, analysis.periods[0].end]
    # "its homicide rates per 100,000 in 2010 and in 2020": the rates (and the counts where those are asked too)
    counted = (["homicides"] if not analysis.per_capita or analysis.asks_count else []) + \
        (["homicide_rate"] if analysis.per_capita else [])
    ranking = analysis.ranking
    # "whose home value rose the most ..., and how many homicides did it have in 2019-2022": the rise is the home
    # value's (or the population's); the homicides are counted over the span
    counted_over = bool(ranking and ranking.metric in ("home_value", "population")
                        and (analysis.asks_count or analysis.per_capita)
                        and not analysis.ranks_homicide_change and not analysis.homicide_change_asked
                        and len(years) == 2
                        and any((p.start, p.end) == (years[0], years[1]) for p in analysis.periods))
    # ("net change in their total homicides": the total's change, not the span's total)
    if len(years) == 2 and (analysis.comparison or analysis.trend) and not counted_over \
            and (not analysis.span_total or analysis.homicide_change_asked):
        ends = [_year_ends(m, years) for m in counted]
        return [s for specs, _ in ends for s in specs], [change for _, change in ends]
    period = _years_period(years)
    return ([{"measure": m, **({"period": period} if period else {})} for m in counted], []) \
        if len(years) <= 2 else None


def zip_and_area(analysis: Analysis) -> list[dict]:
    """"60621's home value from Jan 2015 to Jan 2022, and Englewood's homicides from 2015 to 2022": a ZIP's home value
    over its months and an area's homicides over its years, each at its own grain (two queries)."""
    months = sorted(set(analysis.month_years))
    if not (analysis.zips and analysis.areas) or analysis.wards or analysis.districts or analysis.ranking \
            or analysis.area_condition or analysis.correlation or not 1 <= len(months) <= 2 \
            or not {"home_value", "homicides"} <= set(analysis.metrics):
        return []
    counts = _counts_by_year(analysis)
    if counts is None:
        return []
    values = [{"measure": "home_value", "period": {"month": m}, "as": f"home_value_{m.replace('-', '_')}"}
              for m in months]
    pair = [v["as"] for v in values]
    home = {"measures": values, "group_by": ["zip"], "filters": [{"dimension": "zip", "in": list(analysis.zips)}],
            **({"derived": [{"name": "change", "op": "change", "of": pair},
                            {"name": "change_pct", "op": "pct_change", "of": pair}]} if len(pair) == 2 else {})}
    area = {"measures": counts[0], "group_by": ["community_area"],
            "filters": [{"dimension": "community_area", "in": [p.number for p in analysis.areas]}],
            **({"derived": counts[1]} if counts[1] else {})}
    return [home, area]


def _all_conditions(analysis: Analysis, query: dict) -> dict | None:
    """The first condition's query with each further condition added: its measure a column, its bound a having."""
    if not analysis.more_conditions or not query.get("having"):
        return None
    period = _period(analysis)
    measures, having = list(query["measures"]), list(query["having"])
    derived = list(query.get("derived") or [])
    for condition in analysis.more_conditions:
        if condition.metric == "homicide_change" and len(condition.years) == 2:
            # "more homicides in 2021 than in 2019": each year's count, the change, its sign bounded
            pair = [{"measure": "homicides", "period": {"year": y}, "as": f"homicides_{y}"} for y in condition.years]
            measures += [p for p in pair if all(_name(m) != p["as"] for m in measures)]
            change = {"name": "homicides_change", "op": "change", "of": [p["as"] for p in pair]}
            derived = [d for d in derived if d["name"] != "homicides_change"] + [change]  # the years' own, once
            having.append({"field": "homicides_change", "op": OPS[condition.side], "value": 0})
            continue
        if condition.metric == "home_value_change" and len(set(analysis.month_years)) == 2:
            # "... and home-value growth above the median (Jan 2019 -> Jan 2024)": both months, the change bounded
            homes = _home_values(analysis)[0]
            measures = [m for m in measures if _name(m) != "home_value"] + homes  # no undated value beside them
            field = "home_value_pct_change" if condition.percent else "home_value_change"
            derived.append({"name": field, "op": "pct_change" if condition.percent else "change",
                            "of": [h["as"] for h in homes]})
            having.append({"field": field, "op": OPS[condition.side], "value": condition.reference or condition.value})
            continue
        if condition.metric == "population_change":
            # "areas that grew in population ... and also had a rate under 10": the change, its sign (or bound)
            measures += [{"measure": m} for m in ("population_2010", "population")
                         if all(_name(x) != m for x in measures)]
            op = "pct_change" if condition.percent else "change"
            if all(d["name"] != "residents_change" for d in derived):
                derived.append({"name": "residents_change", "op": op, "of": ["population_2010", "population"]})
            having.append({"field": "residents_change", "op": OPS[condition.side], "value": condition.value})
            continue
        spec = _bounded(analysis, period, condition)
        if spec is None or condition.grain != analysis.area_condition.grain:
            return None
        if all(_name(m) != _name(spec) for m in measures):
            measures.append(spec)
        having.append({"field": _name(spec), "op": OPS[condition.side],
                       "value": condition.reference or condition.value})
    kept = {_name(m) for m in measures} - {h["field"] for h in having}  # a bounded column has no spread asked
    spread = [f for f in query.get("spread") or [] if f in kept]
    return {**{k: v for k, v in query.items() if k != "spread"}, "measures": measures, "having": having,
            **({"derived": derived} if derived else {}), **({"spread": spread} if spread else {})}


def composed_queries(analysis: Analysis) -> list[dict]:
    """The queries a composition asks for: one, or the top and the bottom of a ranking side by side ("the 5 richest
    areas vs the 5 poorest: their 2019 homicides, totals for each group")."""
    if not (analysis.injection_suspected or analysis.unsupported) and zip_and_area(analysis):
        return zip_and_area(analysis)
    beside = [] if analysis.injection_suspected or analysis.unsupported else index_beside(analysis)
    if beside:
        return beside
    query = composed_query(analysis)
    if query is None:
        return []
    grains = [_SET_TIME_GRAINS[g] for g in analysis.time_grains if g in _SET_TIME_GRAINS]
    if len(grains) >= 2 and query.get("members_from") and query.get("group_by", [None])[0] in grains:
        # "in the 10 areas with the highest hardship, what hour had the most homicides, and which weekday": the set's
        # homicides by each grain asked, each its own query
        return [{**query, "group_by": [g]} for g in grains]
    condition = analysis.area_condition
    repeated = _repeated(query, analysis)
    if repeated:
        return repeated
    if analysis.growth_counted and query.get("limit") and "population" in str(query["measures"]):
        # "among the 10 densest, how many lost population since 2010": the set, then its members on that side of zero
        bound = {"measures": [{"measure": "population_2010"}, {"measure": "population"}], "group_by": ["community_area"],
                 "derived": [{"name": "residents_change", "op": "change", "of": ["population_2010", "population"]}],
                 "having": [{"field": "residents_change", "op": "<" if analysis.growth_counted == "below" else ">",
                             "value": 0}], "count_share": True, "members_from": dict(query)}
        return [query, bound]
    sub = next((f["in"] for f in query.get("filters") or [] if f.get("dimension") == "area_submarket"), None)
    if sub and "price_trend" in analysis.metrics:
        # "...the areas in the Englewood/Greater Grand Crossing submarket, and that submarket's index in 2021 Q4"
        codes = [s.code for s in analysis.submarkets if s.name in sub]
        # "... and that submarket's 2022 average index": the year named is the index's too (its quarters' mean);
        # "how much did that submarket's index rise from 2019 to 2024": the index's own years, and the change
        own = analysis.index_years or (analysis.years if len(analysis.years) == 1 else [])
        years = [{"period": {"year": y}, "as": f"price_index_{y}"} for y in own[:2]]
        when = [{"period": {"quarter": q}, "as": f"price_index_{q}"} for q in analysis.quarters[:2]] or years or [{}]
        pair = [w["as"] for w in when if "as" in w]
        change = {"derived": [{"name": "change", "op": "change", "of": pair},
                              {"name": "change_pct", "op": "pct_change", "of": pair}]} if len(pair) == 2 else {}
        return [query, {"measures": [{"measure": "price_index", **w} for w in when], "group_by": ["submarket"],
                        "filters": [{"dimension": "submarket", "in": codes}], **change}]
    if "main_zip" in analysis.named_measures and query.get("group_by") == ["community_area"] and query.get("limit") \
            and any(isinstance(m, dict) and m["measure"] == "home_value" for m in query["measures"]):
        # "the area with the highest unemployment, its main ZIP, and that ZIP's Zillow value": the link ranked beside
        # the measure; the ZIP's own value follows (linked_followup), not the area's weighted value
        measures = [m for m in query["measures"] if not (isinstance(m, dict) and m["measure"] == "home_value")]
        kept = {_name(m) for m in measures}
        derived = [d for d in query.get("derived") or [] if all(f in kept for f in d["of"])]  # the values' change too
        order = [o for o in query.get("order_by") or [] if o["field"] in kept]
        return [{**query, "measures": [*measures, "main_zip"], "derived": derived, "order_by": order}]
    both = _all_conditions(analysis, query)
    if both is not None:  # "how many had X? and how many of those also Y": the first set, then those meeting both;
        # one bound shared ("above the city figure on both X and Y") asks only for the areas meeting all of them
        shared = all(c.span == condition.span for c in analysis.more_conditions)
        if shared or analysis.conditions_joint:
            return [both]
        # the further bounds over the first set's members: "what percent of those also ..." is of that set
        first = {k: v for k, v in query.items() if k not in ("totals", "count_share")}
        # "of the areas under $15,000, what % saw more homicides": those meeting both as a share of the first set
        shared = {"count_share": True} if analysis.asks_share else {}
        # (the share is the second set's, of the first: the first's own count stands alone)
        alone = {k: v for k, v in query.items() if k not in ("count_share", "count_base")} if shared else query
        return [alone, {**both, "members_from": first, **shared}]
    ranking = analysis.ranking
    if ranking and ranking.apart and query.get("having") and not query.get("correlate"):
        # the threshold's set, and the place at the other end of all of them ("and which ZIP was the cheapest")
        first = query["measures"][0]
        ranked = {"measures": [first], "group_by": query["group_by"],
                  "order_by": [{"field": _name(first), "direction": ranking.order}], "limit": ranking.top_n or 1}
        return [query, ranked]
    if ranking and ranking.both_ends and query.get("limit") and query.get("order_by") and not query.get("having"):
        lead, rest = query["order_by"][0], query["order_by"][1:]
        return [{**query, "order_by": [{**lead, "direction": way}, *rest]} for way in ("desc", "asc")]
    return [query]


def _repeated(query: dict, analysis: Analysis) -> list[dict] | None:
    """The set's query again in another form beside it: the threshold in each month asked, the set's yearly average,
    or every place's spread beside the set's."""
    months, condition = sorted(set(analysis.month_years)), analysis.area_condition
    if condition and condition.metric == "home_value" and len(months) == 2 and query.get("having") \
            and len(query["measures"]) == 1:
        # "how many ZIPs were above $350k in sept 2024? and how many back in jan 2015?": the threshold in each month
        name = _name(query["measures"][0])
        return [{**query, "measures": [{"measure": "home_value", "period": {"month": m}}]} for m in months] \
            if name == "home_value" else [query]
    yearly = _set_yearly_average(query, analysis)
    if yearly:  # "the 5 cheapest areas: on average how many killings a year did they have combined over 2019-2022"
        return [query, yearly]
    if analysis.all_places_beside and query.get("having") and query.get("spread"):
        # "for areas with zero homicides, the median home value, vs the median across all areas": every place's too
        spread = [m for m in query["measures"] if _name(m) in query["spread"]]
        return [query, {"measures": spread, "group_by": query["group_by"], "spread": query["spread"]}]
    return None


def _set_yearly_average(query: dict, analysis: Analysis) -> dict | None:
    """A set's combined count over several years asked as a yearly average: the set's count in each year (its members
    taken from the set's own query) and the plain mean of those years, beside the set itself."""
    count = next((m for m in query["measures"] if isinstance(m, dict) and m["measure"] == "homicides"
                  and "start" in (m.get("period") or {}) and not m.get("filters")), None)
    if not (analysis.asks_average and count and query.get("limit") and query.get("group_by") == ["community_area"]):
        return None
    return {"measures": [{"measure": "homicides", "period": count["period"]}], "group_by": ["year"],
            "spread": ["homicides"], "members_from": {k: v for k, v in query.items() if k in (
                "measures", "group_by", "filters", "derived", "having", "order_by", "limit", "offset")}}


def index_beside(analysis: Analysis) -> list[dict]:
    """"Englewood: how much did the IHS index for its submarket go up from 2019 to 2024, and what were Englewood's
    homicide counts in 2019 and 2022": the area's homicides in their years, and the submarket's index in its own
    years (the quarters' means) with the change; two queries, each with its own years."""
    years, own = sorted(set(analysis.years)), analysis.index_years
    if len(analysis.submarkets) != 1 or not own or not analysis.areas or len(analysis.areas) > 2 \
            or "homicides" not in analysis.metrics or analysis.ranking or analysis.per_capita or not years \
            or analysis.out_of_range_years or analysis.quarters:
        return []
    counted = [{"measure": "homicides", "period": {"year": y}, "as": f"homicides_{y}"} for y in years] \
        if len(years) <= 4 and not analysis.periods else [{"measure": "homicides", "period": _period(analysis)}]
    index = [{"measure": "price_index", "period": {"year": y}, "as": f"price_index_{y}"} for y in own[:2]]
    pair = [i["as"] for i in index]
    change = {"derived": [{"name": "change", "op": "change", "of": pair},
                          {"name": "change_pct", "op": "pct_change", "of": pair}]} if len(pair) == 2 else {}
    return [{"measures": counted, "group_by": ["community_area"],
             "filters": [{"dimension": "community_area", "in": [a.number for a in analysis.areas]}]},
            {"measures": index, "group_by": ["submarket"],
             "filters": [{"dimension": "submarket", "in": [analysis.submarkets[0].code]}], **change}]


def other_end_ranked(analysis: Analysis) -> dict | None:
    """"Which ward had the most homicides in 2020, and the fewest?": one measure ranked over the places of a grain,
    read from the top (composed_queries adds the bottom: the tools rank one way only)."""
    ranking, grain = analysis.ranking, analysis.group_by or "community_area"
    if not ranking or not ranking.both_ends or grain not in ("community_area", "ward", "district", "zip") \
            or analysis.areas or analysis.wards or analysis.districts or analysis.zips or analysis.locations \
            or analysis.excluded_areas or analysis.trend or analysis.correlation or not ranking.metric \
            or _others(analysis, ranking.metric) or (grain != "community_area" and analysis.per_capita):
        return None
    spec = _spec(ranking.metric, analysis, _period(analysis))
    if spec is None:
        return None
    return {"measures": [spec], "group_by": [grain], "order_by": [{"field": _name(spec), "direction": ranking.order}],
            "limit": ranking.top_n or 1}


# the first day of the grain step before a year: the row each of the year's first rows is measured against
_STEP_BACK = {"month": "{0}-12-01", "quarter": "{0}-10-01", "year": "{0}-01-01"}


def stepped(analysis: Analysis) -> dict | None:
    """"In 2021 which month had the biggest jump in homicides vs the month before": the homicides by the grain, each
    row against the row before it (January against the December before), ranked by that step."""
    grain, span = analysis.step, analysis.year_range
    # ("by what percent did homicides jump in 2020 compared with the year before" is one change, not a ranking of
    # steps; "year-over-year" beside a price index is the release's column)
    if not grain or not analysis.ranking or not _counts_homicides(analysis) or analysis.per_capita \
            or len(analysis.areas) > 1 or analysis.wards or analysis.districts or analysis.zips \
            or analysis.correlation or "price_trend" in analysis.metrics:
        return None
    kinds = _homicide_filters(analysis)
    measure = {"measure": "homicides", **({"filters": kinds} if kinds else {})}
    query = {"measures": [measure], "group_by": [grain],
             "derived": [{"name": "homicides_step", "op": "step", "of": ["homicides"]}]}
    if span is not None:
        query["period"] = {"start": _STEP_BACK[grain].format(span.start - 1), "end": f"{span.end}-12-31"}
    if analysis.areas:
        query["filters"] = [{"dimension": "community_area", "in": [analysis.areas[0].number]}]
    way = "asc" if analysis.change_direction == "down" else "desc"
    return {**query, "order_by": [{"field": "homicides_step", "direction": way}], "limit": analysis.ranking.top_n or 1}


def months_ranked(analysis: Analysis) -> dict | None:
    """"The single deadliest month on record (2001-2022)": each month of each year ranked (the tools sum a calendar
    month over the years)."""
    span = analysis.year_range
    if not analysis.dated_months or analysis.group_by != "month" or not analysis.ranking \
            or span is not None and span.start == span.end or not _counts_homicides(analysis) or analysis.per_capita \
            or analysis.areas or analysis.wards or analysis.districts or analysis.zips:
        return None
    kinds = _homicide_filters(analysis)
    return {"measures": [{"measure": "homicides", **({"period": _period(analysis)} if span else {}),
                          **({"filters": kinds} if kinds else {})}], "group_by": ["month"],
            "order_by": [{"field": "homicides", "direction": analysis.ranking.order}],
            "limit": analysis.ranking.top_n or analysis.ranking.position}


def dates_ranked(analysis: Analysis) -> dict | None:
    """"The single deadliest day in the data": calendar dates ranked by their homicides (the tools group by weekday,
    month and year, never by date)."""
    if analysis.group_by != "date" or not analysis.ranking:
        return None
    period = _period(analysis)
    return {"measures": [{"measure": "homicides", **({"period": period} if period else {})}], "group_by": ["date"],
            "order_by": [{"field": "homicides", "direction": analysis.ranking.order}],
            "limit": analysis.ranking.top_n or analysis.ranking.position}


# A fact of a place that names a place of another grain (the layer's declared links): measure -> (grain, the
# grain it names, the pattern finding that place's member in the fact's text).
LINKS = {m.name: (m.grains[0], m.links_to[0], re.compile(m.links_to[1])) for m in catalog().measures.values()
         if m.links_to}
ZIP_FACTS = ("main_community_area", "community_areas_overlapping")


def _home_values(analysis: Analysis) -> tuple[list, list, str]:
    """A home value over the months named: one month's value, or two months' and the percent change between
    (specs, derived, the column a ranking orders by); no month: the latest."""
    months = sorted(set(analysis.month_years)) or ([_home_month(analysis)] if _home_month(analysis) else [])
    if len(months) == 2:
        specs = [{"measure": "home_value", "period": {"month": m}, "as": f"home_value_{m.replace('-', '_')}"}
                 for m in months]
        pair = [spec["as"] for spec in specs]
        first, last = (int(m[:4]) * 12 + int(m[5:7]) for m in months)
        compound = [{"name": "change_yearly", "op": "cagr", "of": pair, "years": (last - first) / 12}] \
            if analysis.compound_growth and last > first else []
        return specs, [{"name": "change", "op": "change", "of": pair},
                       {"name": "change_pct", "op": "pct_change", "of": pair}, *compound], \
            "change" if analysis.in_dollars else "change_pct"
    return [{"measure": "home_value", **({"period": {"month": months[0]}} if months else {})}], [], "home_value"


def area_months(analysis: Analysis) -> dict | None:
    """"Englewood vs West Englewood: percent change in Zillow home value from Jan 2019 to Jan 2024 for each": the
    named areas' values in the two months and the change between. The property tool gave September 2024's value
    against the 2019 average, months nobody asked for."""
    months = sorted(set(analysis.month_years))
    if len(months) != 2 or "home_value" not in analysis.metrics or not 1 <= len(analysis.areas) <= 4 \
            or analysis.zips or analysis.wards or analysis.districts or analysis.ranking or analysis.submarkets \
            or analysis.correlation or any(m not in ("home_value", "price_trend", "trend") for m in analysis.metrics) \
            or any(m in LINKS or m in ZIP_FACTS for m in analysis.named_measures):  # "Austin's main ZIP's value"
        return None
    specs, derived, _ = _home_values(analysis)
    return {"measures": specs, "group_by": ["community_area"], "derived": derived,
            "filters": [{"dimension": "community_area", "in": [a.number for a in analysis.areas]}]}


def zip_facts(analysis: Analysis) -> dict | None:
    """"Which ZIP had the highest Zillow value in Sept 2024, and which community area covers most of it", "ZIP
    60637's fall from Jan 2007 to Jan 2012, and how many areas overlap it": the ZIPs (ranked, or named) with their
    home values and the crosswalk's facts of each."""
    facts = [m for m in ZIP_FACTS if m in analysis.named_measures]
    ranked = analysis.group_by == "zip" and analysis.ranking and not analysis.zips
    if not facts or "home_value" not in analysis.metrics or not (analysis.zips or ranked) \
            or (analysis.areas and not analysis.zips):  # "ZIP 60637 (Hyde Park / Woodlawn area)": the ZIP's
        return None
    specs, derived, key = _home_values(analysis)
    query = {"measures": [*specs, *facts], "group_by": ["zip"], **({"derived": derived} if derived else {})}
    if not ranked:
        return {**query, "filters": [{"dimension": "zip", "in": list(analysis.zips)}]}
    ranking = analysis.ranking
    down = key == "change_pct" and analysis.change_direction == "down"  # "the steepest fall"
    direction = ("desc" if ranking.order == "asc" else "asc") if down else ranking.order
    return {**query, "order_by": [{"field": key, "direction": direction}], "limit": ranking.top_n or 1,
            **({"offset": ranking.position - 1} if ranking.position > 1 else {})}


def ward_facts(analysis: Analysis) -> dict | None:
    """"The 36th ward office - what ZIP is it in, and the Zillow value for that ZIP in January 2023": the office's
    ZIP first (the ZIP's value follows once it is known)."""
    named, ranking = analysis.named_measures, analysis.ranking
    ranked = not analysis.wards and ranking and analysis.group_by == "ward" and ranking.metric == "homicides"
    if "ward_office_zip" not in named or not (analysis.wards or ranked) or \
            not ("home_value" in analysis.metrics or "main_community_area" in named):
        return None
    if ranked:  # "the ward with the most homicides in 2022: its office's ZIP ...": the ward ranked, its link beside
        counted = {"measure": "homicides", **({"period": _period(analysis)} if _period(analysis) else {})}
        return {"measures": [counted, "ward_office_zip", *(["alderperson"] if "alderperson" in named else [])],
                "group_by": ["ward"],
                "order_by": [{"field": "homicides", "direction": ranking.order}], "limit": ranking.top_n or 1}
    # "ward 20's homicides in 2022, plus the Zillow value of its office's ZIP": the ward's own count beside the link
    # (with the ZIP's main area asked, the count is that area's: linked_followup)
    counted = [{"measure": "homicides", **({"period": _period(analysis)} if _period(analysis) else {})}] \
        if "homicides" in analysis.metrics and "main_community_area" not in named else []
    return {"measures": [*counted, "ward_office_zip", "alderperson" if "alderperson" in named else
                         "ward_office_address"],
            "group_by": ["ward"],
            "filters": [{"dimension": "ward", "in": list(analysis.wards)}]}


def station_zip_facts(analysis: Analysis) -> dict | None:
    """"The district 6 station's ZIP: its Zillow value in Jan 2019 and Sep 2024": the station's ZIP first (the ZIP's
    values follow once it is known, linked_followup)."""
    if "station_zip" not in analysis.named_measures or not analysis.districts or "home_value" not in analysis.metrics:
        return None
    # "... and how many homicides did district 7 have that year": the district's own count, in the month's year
    month = _home_month(analysis)
    period = _period(analysis) or ({"year": int(month[:4])} if month else None)
    counted = [{"measure": "homicides", **({"period": period} if period else {})}] \
        if "homicides" in analysis.metrics else []
    return {"measures": [*counted, "station_zip", "station_address"], "group_by": ["district"],
            "filters": [{"dimension": "district", "in": list(analysis.districts)}]}


def area_value_change(analysis: Analysis) -> dict | None:
    """"Which community area's home value fell the most in percentage terms between Jan 2007 and Jan 2012, and what %
    of its households were below poverty": the areas ranked by the percent change between the two months, with the
    other measures asked beside it (homicides over the years named alone)."""
    ranking = analysis.ranking
    if not ranking or analysis.group_by not in (None, "community_area") or not _plain(analysis) \
            or "home_value" not in analysis.metrics or len(set(analysis.month_years)) != 2:
        return None
    specs, derived, key = _home_values(analysis)
    # (a homicide density is over the years asked: "killings per square mile 2016-2022")
    def when(metric: str) -> dict | None:
        return _period(analysis) if metric in HOMICIDE_RATIOS else None
    others = [s for s in (_spec(m, analysis, when(m)) for m in _others(analysis, "home_value"))
              if s and s["measure"] not in ("homicides", "homicide_rate")]
    # "the highest homicide rate over 2016-2020": a level over the span ranks, not the span's two ends
    level = ranking.metric == "homicides" and not analysis.ranks_homicide_change and bool(analysis.periods)
    counts = _counts_by_year(analysis) if "homicides" in analysis.metrics and analysis.years_alone and not level \
        else None
    if counts:
        others, derived = others + counts[0], derived + counts[1]
    down = analysis.change_direction == "down"
    direction = ("desc" if ranking.order == "asc" else "asc") if down else ranking.order
    changed = next((d["name"] for d in derived if d["name"] in ("homicides_change", "homicide_rate_change")), None)
    if ranking.metric == "homicides" and changed:
        # "the largest increase in homicides (their rate) from 2019 to 2021, and its home value's change": the
        # homicides' change is ranked, the home value's is beside it
        key, direction = changed, "asc" if down else "desc"
    elif ranking.metric == "homicides" and (counts or analysis.periods):
        # "the highest homicide rate over 2016-2020, and how much did home prices there change": the homicides
        # (a rate where one is asked) over the span rank the areas
        ranked = next((s for s in others if s["measure"] in ("homicide_rate", "homicides")), None)
        if ranked is None:
            span = analysis.periods[0]
            ranked = _spec("homicides", analysis, _years_period([span.start, span.end]))
            others = [ranked, *others]
        key, direction = _name(ranked), ranking.order
    ranks_other = ranking.metric in (*SOCIO_METRICS, *CENSUS_METRICS, *HOMICIDE_RATIOS, "population_density")
    other = _spec(ranking.metric, analysis, when(ranking.metric)) if ranks_other else None
    if other is not None and any(_name(s) == _name(other) for s in others):
        # "the area with the highest unemployment: how much did values in its ZIP change", "the top three by Asian
        # share: how much did their values go up": that measure ranks
        key, direction = _name(other), ranking.order
    if ranking.metric == "population" and analysis.population_growth:
        # "Which area lost the largest percentage of its population since 2010, and how did its home values
        # change": the population's change is ranked, the home values' change is beside it.
        others = [s for s in others if s["measure"] != "population"] + [{"measure": "population_2010"},
                                                                        {"measure": "population"}]
        key = "population_change_pct" if analysis.population_growth == "change_pct" else "population_change_people"
        derived = derived + [{"name": key, "op": "pct_change" if key.endswith("pct") else "change",
                              "of": ["population_2010", "population"]}]
        direction = ranking.order
    left_out = [p.number for p in analysis.excluded_areas]  # "apart from the Loop, which area grew fastest"
    return {"measures": [*specs, *others], "group_by": ["community_area"], "derived": derived,
            **({"filters": [{"dimension": "community_area", "not_in": left_out}]} if left_out else {}),
            "order_by": [{"field": key, "direction": direction}], "limit": ranking.top_n or 1,
            **({"offset": ranking.position - 1} if ranking.position > 1 else {}),
            **({"totals": True} if (ranking.top_n or 1) > 1 and others else {})}  # "their pooled rate"


def submarket_pair(analysis: Analysis) -> dict | None:
    """"How many index points higher was the IHS index for the city than for suburban Cook County in Q4 2025": each
    series' index in the quarter asked (the latest without one) as its own column, and the gap (or the ratio)."""
    totals = [s for s in analysis.submarkets if not s.code.startswith("p")]  # the tools know the p31xx ones only
    if "price_trend" not in analysis.metrics or not totals or len(analysis.submarkets) > 2 \
            or len(analysis.quarters) > 1 or analysis.areas or analysis.zips or analysis.ranking \
            or any(y != int(q[:4]) for y in analysis.years for q in analysis.quarters):
        return None  # ("the city in 2025 Q4, and Logan Square's average for 2024": a year beside, ihs_quarter_and_years)
    years = sorted(set(analysis.years))
    # a year alone is its four quarters' mean ("the index for the city in 2024 vs Cook County")
    period = {"period": {"quarter": analysis.quarters[0]}} if analysis.quarters else \
        {"period": {"year": years[0]}} if len(years) == 1 else {}
    columns = [{"measure": "price_index", **period, "filters": [{"dimension": "submarket", "in": [s.code]}],
                "as": f"price_index_{s.code}"} for s in analysis.submarkets]
    # a whole series beside a submarket is the reference: "how far above the Chicago-wide index was Englewood"
    columns.sort(key=lambda c: c["filters"][0]["in"][0] in SUBMARKET_TOTALS)
    pair = [c["as"] for c in columns]
    derived = [{"name": "times", "op": "ratio", "of": pair} if analysis.asks_times else
               {"name": "gap", "op": "difference", "of": pair}] if len(pair) == 2 else []
    return {"measures": columns, "group_by": [], **({"derived": derived} if derived else {})}


def ihs_years(analysis: Analysis) -> dict | None:
    """"How much did the IHS index for the City of Chicago fall from 2006 to 2012 (annual averages)": each year's
    index (the mean of its four quarters, as the layer gives a year of a quarterly series) and the change between."""
    years = sorted(set(analysis.years))
    made = analysis.coverage.last_year
    if analysis.open_span and "homicides" not in analysis.metrics and len(years) == 3 and made in years[1:]:
        # "the index in 2024, and % change since 2019": since 2019 runs to the year named, not to the homicide
        # data's last year
        years = [y for y in years if y != made]
    ranking = analysis.ranking if analysis.ranking and not analysis.submarkets else None
    if ranking and ranking.metric not in (None, "price_trend"):
        return None  # "the area with the highest hardship: its submarket's rise": the areas are ranked, not these
    if len(years) == 1 and analysis.asks_average and "price_trend" in analysis.metrics and not (
            analysis.quarters or analysis.trend or ranking or analysis.zips or analysis.correlation
            or "homicides" in analysis.metrics) and len(analysis.submarkets) <= 1 and \
            (not analysis.areas or len(analysis.submarkets) == 1):  # an area named stands for its submarket
        # "the IHS index for the City of Chicago in 2022 (annual average)": the mean of the year's four quarters
        members = [s.code for s in analysis.submarkets] or ["CHICAGO"]
        return {"measures": [{"measure": "price_index", "period": {"year": years[0]}}], "group_by": ["submarket"],
                "filters": [{"dimension": "submarket", "in": members}]}
    # an area named stands for its submarket ("Englewood lies in which submarket? its rise from 2019 to 2024")
    if "price_trend" not in analysis.metrics or analysis.quarters or len(years) != 2 or not analysis.trend \
            or (analysis.areas and len(analysis.submarkets) != 1) or analysis.zips \
            or (analysis.ranking and not ranking) or "homicides" in analysis.metrics \
            or analysis.price_figure or analysis.correlation or analysis.area_condition or analysis.group_by \
            not in (None, "year") or years[-1] == analysis.coverage.last_year and analysis.open_span:
        # "since 2000" (read as running to the homicide data's last year) is the published summary's change, which
        # the price tool gives; a correlation is its own query
        return None
    members = [s.code for s in analysis.submarkets] or ["CHICAGO"]
    if len(members) != 1:
        return None
    specs = [{"measure": "price_index", "period": {"year": y}, "as": f"price_index_{y}"} for y in years]
    pair = [s["as"] for s in specs]
    derived = [{"name": "change", "op": "change", "of": pair}, {"name": "change_pct", "op": "pct_change", "of": pair}]
    if ranking:  # "which Chicago submarket's index grew fastest from 2019 to 2024": the city's submarkets ranked
        down = analysis.change_direction == "down"
        return {"measures": specs, "group_by": ["submarket"], "derived": derived,
                "filters": [{"dimension": "submarket_part", "equals": "city"}],
                "order_by": [{"field": "change_pct", "direction": ("asc" if ranking.order == "desc" else "desc")
                              if down else ranking.order}], "limit": ranking.top_n or 1}
    return {"measures": specs, "group_by": ["submarket"], "filters": [{"dimension": "submarket", "in": members}],
            "derived": derived}


def ihs_quarter_and_years(analysis: Analysis) -> dict | None:
    """"The IHS index for the City of Chicago in 2025 Q4, and its 2019 annual average", "... and by what percent did
    the annual average rise from 2019 to 2024": the quarter's index beside each year's (the mean of its quarters),
    and the change between two years. The price tool gave the quarter and its change since the first year's Q1."""
    if "price_trend" not in analysis.metrics or len(analysis.quarters) != 1 or analysis.ranking or analysis.zips \
            or len(analysis.submarkets) > 2 or (analysis.areas and len(analysis.submarkets) != 1) \
            or "homicides" in analysis.metrics or analysis.price_figure or analysis.correlation:
        return None
    quarter = analysis.quarters[0]
    years = sorted({y for y in analysis.years if y != int(quarter[:4])})
    if not 1 <= len(years) <= 2:
        return None
    specs = [{"measure": "price_index", "period": {"quarter": quarter}, "as": f"price_index_{quarter}"}] + [
        {"measure": "price_index", "period": {"year": y}, "as": f"price_index_{y}"} for y in years]
    pair = [s["as"] for s in specs[1:]]
    if len(pair) == 1 and analysis.asks_percent_change:  # "how much higher (%) was 2025Q4 than the 2007 average"
        pair = [pair[0], specs[0]["as"]] if years[0] < int(quarter[:4]) else [specs[0]["as"], pair[0]]
    derived = [{"name": "change", "op": "change", "of": pair},
               {"name": "change_pct", "op": "pct_change", "of": pair}] if len(pair) == 2 else []
    return {"measures": specs, "group_by": ["submarket"], **({"derived": derived} if derived else {}),
            "filters": [{"dimension": "submarket", "in": [s.code for s in analysis.submarkets] or ["CHICAGO"]}]}


def ihs_quarters(analysis: Analysis) -> dict | None:
    """"The IHS index for the City of Chicago in Q4 2019 and Q4 2025, and the % change": the index in each quarter
    named for the submarkets named (the city's own series where none is), and the change between two. Ranked ("which
    Chicago submarket appreciated the most since 2000 Q1"): the city's submarkets ordered by the percent change."""
    ranking = analysis.ranking
    if "price_trend" not in analysis.metrics or len(analysis.quarters) != 2 or analysis.areas or analysis.zips \
            or (ranking and analysis.submarkets):
        return None
    members = [s.code for s in analysis.submarkets] or ["CHICAGO"]
    specs = [{"measure": "price_index", "period": {"quarter": q}, "as": f"price_index_{q}"} for q in analysis.quarters]
    pair = [s["as"] for s in specs]
    derived = [{"name": "change", "op": "change", "of": pair}, {"name": "change_pct", "op": "pct_change", "of": pair}]
    if ranking:
        return {"measures": specs, "group_by": ["submarket"], "derived": derived,
                "filters": [{"dimension": "submarket_part", "equals": "city"}],
                "order_by": [{"field": "change_pct", "direction": ranking.order}], "limit": ranking.top_n or 1}
    return {"measures": specs, "group_by": ["submarket"], "filters": [{"dimension": "submarket", "in": members}],
            "derived": derived}


def named_layer_only(analysis: Analysis) -> dict | None:
    """"What is the population density of Austin": a measure only the layer has, for the areas named, with the
    question's other measures beside it."""
    if not set(LAYER_ONLY) & set(analysis.metrics) or analysis.ranking or analysis.wards or analysis.districts:
        return None
    period = _period(analysis)
    specs = [s for s in (_spec(m, analysis, period) for m in analysis.metrics if m != "population") if s]
    if analysis.zips and not analysis.areas and specs and all(
            "zip" in catalog().measures[s["measure"]].grains for s in specs):  # "how many ward offices are in 60609"
        return {"measures": specs, "group_by": ["zip"], "filters": [{"dimension": "zip", "in": list(analysis.zips)}]}
    if not analysis.areas or analysis.zips:
        return None
    return {"measures": specs, "group_by": ["community_area"],
            "filters": [{"dimension": "community_area", "in": [p.number for p in analysis.areas]}]}


def area_facts(analysis: Analysis) -> dict | None:
    """"Austin's main ZIP, its Zillow value in September 2024, and Austin's homicides in 2016-2022": the area's
    main ZIP beside its own figures (the ZIP's value follows once the ZIP is known)."""
    if "main_zip" not in analysis.named_measures or not analysis.areas:
        return None
    period = _years_period(analysis.years_alone) if analysis.month_years else _period(analysis)
    others = [s for s in (_spec(m, analysis, period) for m in analysis.metrics if m != "home_value") if s]
    others, derived = _span_ends(others, period, analysis)
    return {"measures": ["main_zip", *others], "group_by": ["community_area"],
            "filters": [{"dimension": "community_area", "in": [p.number for p in analysis.areas]}],
            **({"derived": derived} if derived else {})}


def _span_ends(specs: list, period: dict | None, analysis: Analysis, summed_places: bool = False) -> tuple[list,
                                                                                                           list]:
    """"Did Austin's homicides go up or down from 2019 to 2022 (give both counts)": a change over a span is its two
    ends side by side and the change between, not the span's total (unless a total is asked). ``summed_places``:
    the figures are a set's sums, so "their combined count" sums the places, not the years."""
    if not (analysis.trend and period and "start" in period and period["start"] != period["end"]) \
            or analysis.span_total and not summed_places:
        return specs, []
    out, derived = [], []
    for spec in specs:
        if spec["measure"] not in TIMED or spec.get("period") != period:
            out.append(spec)
            continue
        ends = [{**spec, "period": {"year": int(y)}, "as": f"{spec['measure']}_{y}"} for y in (period["start"],
                                                                                               period["end"])]
        out += ends
        derived.append({"name": f"{spec['measure']}_change", "op": "change", "of": [e["as"] for e in ends]})
    return out, derived


def ratio_query(analysis: Analysis) -> dict | None:
    """"How many times higher was the Zillow value in ZIP 60614 than in 60621 in Sept 2024": each place's figure as
    its own column (a measure filtered to it) and the ratio of the first to the second."""
    places = [("zip", z) for z in analysis.zips] if len(analysis.zips) == 2 else \
        sorted([("community_area", p.number) for p in analysis.areas], key=lambda g: g[1] != analysis.ratio_first) \
        if len(analysis.areas) == 2 else \
        [("community_area", analysis.areas[0].number), ("city", None)] \
        if len(analysis.areas) == 1 and analysis.citywide else []  # "how many times the citywide figure"
    # Homicide counts have their own ratio sentence (rules/answer.py); a rate's ratio is this query's.
    # a count of homicides asked beside ("and how many homicides there") is no side of the ratio
    metric = "home_value" if places and places[0][0] == "zip" else next(
        (m for m in analysis.metrics if m in MEASURE_OF and (m != "homicides" or analysis.per_capita)
         and not (m == "homicides" and analysis.asks_count and len(analysis.metrics) > 1)), None)
    if not places and len(analysis.locations) == 2 and "homicides" in analysis.metrics and not analysis.per_capita:
        # "how many times more homicides on the STREET than in an APARTMENT": two kinds of place, counted
        places, metric = [("location_type", kind) for kind in analysis.locations], "homicides"
    if not analysis.asks_times or not places or metric is None or metric not in analysis.metrics:
        return None
    spec = _spec(metric, analysis, _period(analysis))
    if spec is None:
        return None
    columns = [{**spec, "as": f"{spec['measure']}_city"} if grain == "city" else
               {**spec, "filters": [{"dimension": grain, "in": [member]}],
                "as": f"{spec['measure']}_{str(member).lower().replace(' ', '_')}"} for grain, member in places]
    return {"measures": columns, "group_by": [],
            "derived": [{"name": "times", "op": "ratio", "of": [c["as"] for c in columns]}]}


def kinds_compared(analysis: Analysis) -> dict | None:
    """"In 2020, how many homicides on the street vs in an apartment?": each kind of place named, counted; the tool's
    ten commonest kinds answered with the city's total and left the two asked to the details."""
    kinds = analysis.locations
    if len(kinds) < 2 or analysis.locations_together or analysis.asks_times or analysis.ranking or \
            _named_place(analysis) or analysis.per_capita or analysis.group_by not in (None, "location_type") or \
            "homicides" not in analysis.metrics:
        return None
    spec = _spec("homicides", analysis, _period(analysis))
    if spec and analysis.asks_share:  # "what percent were on the street, and what percent in a car": each of all
        every = {**spec, "as": "homicides_all"}
        each = [{**spec, "filters": [*spec.get("filters", []), {"dimension": "location_type", "in": [k]}],
                 "as": f"homicides_{re.sub(r'[^a-z]+', '_', k.lower())}"} for k in kinds]
        return {"measures": [every, *each], "derived": [{"name": f"share_{e['as']}", "op": "percent_of",
                                                         "of": [e["as"], "homicides_all"]} for e in each]}
    return {"measures": [spec], "group_by": ["location_type"],
            "filters": [{"dimension": "location_type", "in": list(kinds)}]} if spec else None


def linked_followup(analysis: Analysis, ran: list[tuple[dict, dict]]) -> list[dict]:
    """The figures asked of the place a query's link named, once it has run: ``ran`` holds (arguments, values) of
    the queries that ran. "The cheapest ZIP ... how many homicides did the area covering most of it have in 2022"
    asks the area's count; "Austin's main ZIP ... its Zillow value" the ZIP's value."""
    for arguments, values in ran:
        names = [m if isinstance(m, str) else m.get("measure") for m in arguments.get("measures", [])]
        link = next((n for n in names if n in LINKS), None)
        rows = values.get("rows") or []
        if arguments.get("group_by") == ["submarket"] and set(names) & set(SUMMARY_MEASURES.values()) and rows:
            return _submarket_areas(analysis, arguments, rows)
        if arguments.get("group_by") == ["area_submarket"] and rows and analysis.price_figure:
            # "... which submarket has the highest homicide rate? What's its change since 2000 in the summary?"
            return [_submarket_figure(analysis, [rows[0]["area_submarket"]])]
        if link is None or not rows:
            continue
        _, target, pattern = LINKS[link]
        found = [pattern.search(str(row.get(link) or "")) for row in rows[:5]]  # each row's linked place
        members = list(dict.fromkeys(int(f.group(1)) if target == "community_area" else f.group(1)
                                     for f in found if f))
        if not members:
            return []
        follow = _next_link(analysis, link, target)
        if follow:  # one more link: the place found names the place the figures are asked of
            continue_with = {"measures": [follow], "group_by": [target],
                             "filters": [{"dimension": target, "in": members}]}
            if not any(a == continue_with for a, _ in ran):
                return [continue_with]
            continue
        if target == "submarket":
            return [_submarket_figure(analysis, members)]
        if target == "zip":
            if "home_value" not in analysis.metrics:
                continue  # "which ZIP is that area mostly in": the ZIP asked, nothing of it
            specs, derived, _ = _home_values(analysis)
            return [{"measures": specs, "group_by": ["zip"], "filters": [{"dimension": "zip", "in": members}],
                     **({"derived": derived} if derived else {})}]
        period = {"year": analysis.follow_year} if analysis.follow_year else \
            _years_period(analysis.years_alone) if analysis.month_years else _period(analysis)
        # the ZIP's own value ran beside its link ("the cheapest ZIP ... the area covering most of it"): not again
        skip = {"home_value", "price_trend", "trend"} if "home_value" in names else {"price_trend", "trend"}
        if link == "station_area" and analysis.station_share:
            return [_share_in_station_area(analysis, members, period)]
        if link == "station_area":  # the district's figures ran; the area its station stands in gets the rest
            counted = any(n in ("homicides", "arrests") for n in names)  # a ranked district's own count ran
            # "homicides in district 6, compared with homicides in the area where its station sits": both counts
            again = analysis.area_counted_too
            # ("... give that area's homicide rate": a rate is the area's own, the district's count is not it)
            skip = {"police_station", "price_trend", "trend"} | ({"homicides", "arrests"} if counted and not again
                                                                 and not analysis.per_capita else set())
        specs = [s for s in (_spec(m, analysis, period) for m in analysis.metrics if m not in skip) if s]
        specs = _with_count(specs, analysis)
        derived = []
        if len(set(analysis.month_years)) == 2 and any(s["measure"] == "home_value" for s in specs):
            # "the Zillow value in Sept 2024 and its percent change since Sept 2019": both months and the change
            homes, derived, _ = _home_values(analysis)
            specs = [s for s in specs if s["measure"] != "home_value"] + homes
        if analysis.population_growth and any(s["measure"] in ("population", "population_2010") for s in specs):
            # "the area where its station is: how much did its population change 2010 -> ACS, in percent"
            specs = [s for s in specs if s["measure"] not in ("population", "population_2010")] + [
                {"measure": "population_2010"}, {"measure": "population"}]
            derived = [{"name": "residents_change", "op": "pct_change" if analysis.population_growth == "change_pct"
                        else "change", "of": ["population_2010", "population"]}]
        return [{"measures": specs, "group_by": ["community_area"], **({"derived": derived} if derived else {}),
                 "filters": [{"dimension": "community_area", "in": members}]}] if specs else []
    return []


def _next_link(analysis: Analysis, link: str, target: str) -> str | None:
    """The link to follow from the place a link found, where the question asks of the place that one names: "the ward
    office's ZIP: which area covers most of it, and that area's figures" (main_community_area); "district 11's station
    area: the ZIP it mostly lies in, and that ZIP's Zillow value" (main_zip); "... its IHS submarket's year-over-year
    change" (main_submarket)."""
    named = analysis.named_measures
    if target == "zip" and "main_community_area" in named and link != "main_zip":
        return "main_community_area"
    if link == "station_area" and "main_zip" in named:
        return "main_zip"
    if link == "station_area" and (analysis.price_figure or "price_index" in named):
        return "main_submarket"
    return None


def _submarket_figure(analysis: Analysis, codes: list) -> dict:
    """The IHS figure asked of a submarket a link found: the release's column asked, else the index in the quarter or
    years asked (the latest quarter when none)."""
    measure = SUMMARY_MEASURES.get(analysis.price_figure or "")
    if measure:  # ("its year-over-year price change and median sales price": each column named)
        specs = [{"measure": m} for m in dict.fromkeys([measure, *(SUMMARY_MEASURES.get(f) for f in
                                                                   analysis.price_figures_beside)]) if m]
    else:
        when = [{"quarter": q} for q in analysis.quarters] or \
            [{"year": y} for y in analysis.index_years or analysis.years] or [{}]
        specs = [{"measure": "price_index", **({"period": w, "as": f"price_index_{_period_key(w)}"} if w else {})}
                 for w in when]
    # "how much did that submarket's index rise from 2019 to 2024": both years and the change between them
    pair = [s["as"] for s in specs if "as" in s]
    derived = [{"name": "change", "op": "change", "of": pair}, {"name": "change_pct", "op": "pct_change", "of": pair}] \
        if len(pair) == 2 and analysis.trend else []
    return {"measures": specs, "group_by": ["submarket"], "filters": [{"dimension": "submarket", "in": codes}],
            **({"derived": derived} if derived else {})}


def _share_in_station_area(analysis: Analysis, areas: list, period: dict | None) -> dict:
    """"What percent of District 7's 2021 homicides happened inside the area where its station is": the district's
    homicides, those inside the station's area, and the share."""
    every = {"measure": "homicides", **({"period": period} if period else {}), "as": "homicides_all",
             "filters": [{"dimension": "district", "in": list(analysis.districts)}]}
    kept = {**every, "as": "homicides_kept",
            "filters": [*every["filters"], {"dimension": "community_area", "in": areas}]}
    return {"measures": [every, kept], "group_by": [],
            "derived": [{"name": "share_kept", "op": "percent_of", "of": ["homicides_kept", "homicides_all"]}]}


def ranked_within(analysis: Analysis) -> dict | None:
    """"In police district 11 in 2021, which community area saw the most homicides, and what was that area's
    poverty rate": the areas ranked by their homicides inside the district or ward named, the area's other
    measures beside (they are the area's own, not the district's)."""
    ranking, inside = analysis.ranking, [("district", analysis.districts), ("ward", analysis.wards)]
    grain, members = next(((g, m) for g, m in inside if m), (None, []))
    if not ranking or grain is None or analysis.group_by != "community_area" or analysis.areas \
            or ranking.metric not in ("homicides", None) or analysis.per_capita:
        return None
    others = [s for s in (_spec(m, analysis, None) for m in _others(analysis, "homicides")) if s
              and s["measure"] not in TIMED]
    if not others:
        return None
    counted = {"measure": "homicides", **({"period": _period(analysis)} if _period(analysis) else {}),
               "filters": [*_homicide_filters(analysis), {"dimension": grain, "in": list(members)}]}
    n = ranking.top_n or 1
    return {"measures": [counted, *others], "group_by": ["community_area"],
            "order_by": [{"field": "homicides", "direction": ranking.order}], "limit": n}


def station_chain(analysis: Analysis) -> dict | None:
    """"The police district with the most killings in 2020: which community area is its station in, and that
    area's Zillow value": the districts ranked with each station's name and area; the area's own figures follow
    once it is known (linked_followup, the "station_area" link)."""
    ranking = analysis.ranking
    if analysis.station_area and analysis.districts and not ranking:
        # "the 7th district's station is in which community area, and that area's homicide rate in 2021": the
        # stations named first; every figure asked is the area's (linked_followup)
        counted = [{"measure": "homicides", **({"period": _period(analysis)} if _period(analysis) else {})}] \
            if analysis.district_counted else []  # the district's own count: the area gets the other figures
        return {"measures": [*counted, "station_name", "station_area"], "group_by": ["district"],
                "filters": [{"dimension": "district", "in": list(analysis.districts)}]}
    area_metrics = [m for m in analysis.metrics if m in MEASURE_OF and m not in TIMED]
    # ("... give that area's 2022 homicide rate": a rate is the area's, a district has no population)
    if analysis.group_by != "district" or not ranking or "police_station" not in analysis.metrics \
            or not (area_metrics or analysis.per_capita or analysis.station_area) or analysis.districts \
            or analysis.wards or analysis.areas:
        return None
    counted = {"measure": "homicides", **({"period": _period(analysis)} if _period(analysis) else {})}
    kinds = _homicide_filters(analysis)
    if kinds:
        counted["filters"] = kinds
    ends = sorted(set(analysis.years))
    if analysis.ranks_homicide_change and len(ends) == 2:
        # "the district with the biggest increase 2019 -> 2020, and its station's area": each year, the change ranked
        pair = [{**counted, "period": {"year": y}, "as": f"homicides_{y}"} for y in ends]
        return {"measures": [*pair, "station_name", "station_area"], "group_by": ["district"],
                "derived": [{"name": "homicides_change", "op": "change", "of": [p["as"] for p in pair]}],
                "order_by": [{"field": "homicides_change",
                              "direction": "asc" if analysis.change_direction == "down" else "desc"}],
                "limit": ranking.top_n or 1}
    # the station's own facts asked beside ("what's its station address"), each once
    facts = [m for m in analysis.named_measures if m.startswith("station_") and m not in ("station_name", "station_area")]
    return {"measures": [counted, "station_name", *facts, "station_area"], "group_by": ["district"],
            "order_by": [{"field": "homicides", "direction": ranking.order}], "limit": ranking.top_n or 1}


_OTHER_SIDE = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}
_MIRROR = {">": "<", ">=": "<=", "<": ">", "<=": ">="}


def _quantile_groups(compared: dict, field: str) -> tuple[list, list]:
    """Each named quantile group of the places with a value ("the top quartile": the 4th of 4, pandas.qcut on
    their ranks, so 77 areas cut 20 / 19 / 19 / 19 from the lowest and 70 with a Zillow value 18 / 17 / 17 / 18)."""
    m = compared["of"]
    cut = {"name": f"{field}_{QUANTILE_NAMES.get(m, 'group')}", "op": "quantile", "of": [field], "groups": m}
    groups = [{"label": f"{ordinal(pick)} of {m} (lowest first)",
               "having": [{"field": cut["name"], "op": "==", "value": pick}]} for pick in compared["picks"]]
    return groups, [cut]


def group_compare(analysis: Analysis) -> dict | None:
    """"Areas above the median poverty vs the rest", "majority-Black vs majority-Hispanic areas", "the 5 lowest
    hardship vs the 5 highest": each set's figures (pooled, or its members' plain mean) and the first over the
    second (analysis.compared_groups)."""
    compared, period = analysis.compared_groups, _period(analysis)
    if not compared or not _plain(analysis):
        return None
    derived: list = []
    if compared["kind"] == "quantiles":
        first = _spec(analysis.ranking.metric, analysis, period) if analysis.ranking.metric else None
        groups, derived = _quantile_groups(compared, _name(first)) if first else ([], [])
        skip = analysis.ranking.metric
    elif compared["kind"] == "ends":
        ranking = analysis.ranking
        first = _spec(ranking.metric, analysis, period) if ranking.metric else None
        lead = compared.get("first") or ranking.order
        groups = [{"label": way, "order_by": [{"field": _name(first), "direction": way}], "limit": ranking.top_n or 1}
                  for way in (lead, "desc" if lead == "asc" else "asc")] if first else []
        skip = ranking.metric
    elif compared["kind"] == "ranked_rest":
        # "the 10 areas with the highest share of Black residents, and all the other 67": the set by its rank
        ranking = analysis.ranking
        first = _set_spec(ranking.metric, analysis, period) if ranking.metric else None
        derived = [{"name": "set_rank", "op": "rank", "of": [_name(first)],
                    **({"direction": "asc"} if ranking.order == "asc" else {})}] if first else []
        # (the rest is every other area: one with no value of the ranking's measure is not among the set either)
        groups = [{"label": "picked", "having": [{"field": "set_rank", "op": "<=", "value": ranking.top_n}]},
                  {"label": "the rest", "rest": True}]
        skip = ranking.metric
    elif compared["kind"] == "rest" and analysis.area_condition.metric == "population_change":
        # "areas that lost population versus the ones that didn't": each side of the change's bound
        condition, first = analysis.area_condition, {"measure": "population_2010"}
        derived = [{"name": "residents_change", "op": "pct_change" if condition.percent else "change",
                    "of": ["population_2010", "population"]}]
        groups = [{"label": label, "having": [{"field": "residents_change", "op": way, "value": condition.value}]}
                  for label, way in (("picked", OPS[condition.side]), ("the rest", _OTHER_SIDE[OPS[condition.side]]))]
        others = [s for s in (_spec(m, analysis, period) for m in _others(analysis, "population")) if s]
        return {"measures": [first, {"measure": "population"}, *_with_count(others, analysis)],
                "group_by": ["community_area"], "derived": derived,
                "groups": [{**g, "figure": compared["figure"]} for g in groups]} if others else None
    elif compared["kind"] == "sides":
        # "areas valued above $400k, and those below $150k": each bound on the one measure picks its own set
        condition, other = analysis.area_condition, compared["other"]
        first = _bounded(analysis, period)
        groups = [{"label": label, "having": [{"field": _name(first), "op": OPS[side], "value": value}]}
                  for label, side, value in (("first", condition.side, condition.value),
                                             ("second", other["side"], other["value"]))] if first else []
        skip = "homicides" if first and first["measure"] == "homicide_rate" else condition.metric
    elif compared["kind"] == "rest":
        condition = analysis.area_condition
        first = _bounded(analysis, period)
        op = OPS[condition.side]
        other = _MIRROR[op] if compared.get("strict") else _OTHER_SIDE[op]  # "above vs below": neither holds the median
        groups = [{"label": label, "having": [{"field": _name(first), "op": way, "value": condition.reference or
                                                condition.value}]} for label, way in
                  (("picked", op), ("the rest", other))] if first else []
        skip = "homicides" if first and first["measure"] == "homicide_rate" else condition.metric
    else:
        picks = [({"measure": f"share_{CENSUS_GROUP[group]}"}, OPS[side], value)
                 for group, side, value in compared["bounds"] if group in CENSUS_GROUP]
        first = picks[0][0] if len(picks) == 2 else None
        groups = [{"label": spec["measure"], "having": [{"field": spec["measure"], "op": op, "value": value}]}
                  for spec, op, value in picks]
        skip = "race"
    others = [s for s in (_spec(m, analysis, period) for m in _others(analysis, skip)) if s]
    if "home_value" in analysis.metrics and len(set(analysis.month_years)) == 2 and skip != "home_value":
        # "each group's mean home-value change (%) from Jan 2019 to Sep 2024": both months, the change per area
        specs, changes, _ = _home_values(analysis)
        others = [*[o for o in others if o["measure"] != "home_value"], *specs]
        if not analysis.asks_percent_change:
            changes = [d for d in changes if d["op"] != "pct_change"] or changes
        derived = derived + changes
    others, derived = _group_counts_change(others, derived, analysis, skip)
    others, derived = _kept_share(others, derived, analysis)  # "what share of their homicides were on weekends"
    if first is None or not others or len(groups) != 2:
        return None
    picking = [first] + ([picks[1][0]] if compared["kind"] == "each" else [])
    return _groups_query(compared, [*picking, *[s for s in _with_count(others, analysis) if s not in picking]],
                         derived, groups)


def _groups_query(compared: dict, measures: list, derived: list, groups: list) -> dict:
    # "how many homicides did they have combined, and their average Zillow value": the count summed over each set
    summed = {_name(m): "pooled" for m in measures if compared.get("summed") and m["measure"] == "homicides"}
    summed.update({d["name"]: "mean" for d in derived if compared.get("mean_change") and d["op"] in ("change",
                                                                                                   "pct_change")})
    return {"measures": measures, "group_by": ["community_area"], **({"derived": derived} if derived else {}),
            "groups": [{**g, "figure": compared["figure"], **({"figure_of": summed} if summed else {})}
                       for g in groups]}


def _group_counts_change(others: list, derived: list, analysis: Analysis, skip: str) -> tuple[list, list]:
    """"% change in homicides from 2019 to 2021 for the 10 priciest areas vs all the rest": each end year's count as
    its own column and the change between them, pooled over each set (a set's change is of its sums)."""
    spans = [(p.start, p.end) for p in analysis.periods]
    ends = sorted(set(analysis.years_alone)) or (list(spans[0]) if len(spans) == 1 else [])
    if skip == "homicides" or "homicides" not in analysis.metrics or len(set(ends)) != 2 \
            or not (analysis.trend or analysis.asks_percent_change):
        return others, derived
    specs, change = _year_ends("homicide_rate" if analysis.per_capita else "homicides", ends,
                               "pct_change" if analysis.asks_percent_change else "change")
    return [*[o for o in others if o["measure"] not in ("homicides", "homicide_rate")], *specs], [*derived, change]


def _year_ends(measure: str, years: list, op: str = "change") -> tuple[list, dict]:
    """A measure in each of two years as its own column, and the change between them ("homicides_2019" ...)."""
    specs = [{"measure": measure, "period": {"year": y}, "as": f"{measure}_{y}"} for y in years]
    return specs, {"name": f"{measure}_{op}", "op": op, "of": [s["as"] for s in specs]}


def submarket_areas_set(analysis: Analysis) -> dict | None:
    """"The pooled 2016-2022 homicide rate across the community areas in the IHS Englewood/Greater Grand Crossing
    submarket": the areas mostly in the submarket (the layer's area_submarket), their figures and their total."""
    named = [s.name for s in analysis.submarkets if not s.suburban and s.match == "name"]
    # (a home value named is Zillow's, by area; "price" said of the index is the index's)
    zillow = "home_value" in analysis.metrics and "home_value" in analysis.named_measures
    if not named or "homicides" not in analysis.metrics or zillow \
            or analysis.areas or analysis.wards or analysis.districts or analysis.zips:
        return None
    specs = _with_count([_spec("homicides", analysis, _period(analysis))], analysis)
    return {"measures": specs, "group_by": ["community_area"], "totals": True,
            "filters": [{"dimension": "area_submarket", "in": named}]}


def station_areas_set(analysis: Analysis) -> dict | None:
    """"The community areas that contain a police district station: their pooled 2019-2022 homicide rate, against the
    city's": the areas the layer's has_station attribute picks, their figures and their total."""
    if not analysis.station_set or "homicides" not in analysis.metrics or analysis.ranking:
        return None
    spec = _spec("homicides", analysis, _period(analysis))
    return {"measures": _with_count([spec], analysis), "group_by": ["community_area"], "totals": True,
            "filters": [{"dimension": "has_station", "equals": True}]} if spec else None


# The IHS release's published columns (analysis.price_figure, analyzer/submarkets.py) as the layer's measures.
SUMMARY_MEASURES = {"median_sales_price": "median_sales_price", "yoy_change": "price_change_year_over_year",
                    "change_since_2000": "price_change_since_2000", "peak_to_current": "price_change_peak_to_current",
                    "bottom_to_current": "price_change_bottom_to_current",
                    "pandemic_to_current": "price_change_since_pandemic"}


def submarkets_ranked(analysis: Analysis) -> dict | None:
    """"Which Chicago IHS submarket had the biggest year-over-year change in the 2025 Q4 summary", "the 2nd highest
    median sales price": the release's column over the submarkets (the city's 18 where Chicago is named), ranked.
    The price tool ranked every submarket by its change since 2000 whatever column was asked. The areas lying mostly
    in the submarket found get the rest of the question (linked_followup)."""
    measure = SUMMARY_MEASURES.get(analysis.price_figure or "")
    ranking = analysis.ranking
    period = None
    if measure is None and "price_index" in analysis.named_measures and "home_value" not in analysis.named_measures \
            and (analysis.quarter and len(analysis.quarters) <= 1 or len(analysis.years) == 1 and not analysis.quarters) \
            and ranking is not None and not analysis.trend \
            and ranking.metric in (None, "price_trend", "home_value"):  # (a change between quarters is ihs_quarters')
        # "which Chicago IHS submarket had the highest price index in 2024 (the four quarters' mean)": the index
        # itself over the submarkets, in the quarter or the year asked, not the Zillow ranking of areas
        measure = "price_index"
        period = {"quarter": analysis.quarter} if analysis.quarter else {"year": analysis.years[0]}
        ranking = replace(ranking, metric="price_trend")
    if measure is None or ranking is None or analysis.submarkets or analysis.areas or analysis.zips \
            or analysis.wards or analysis.districts or "price_trend" not in analysis.metrics \
            or ranking.metric == "home_value" \
            or "main_submarket" in analysis.named_measures and ranking.metric in MEASURE_OF \
            or analysis.group_by in (None, "community_area") and ranking.metric == "homicides" \
            and not analysis.ranks_submarket:
        # ("house prices fell from the 2000s peak to the bottom": one series'; "which area had the highest homicide
        # rate, and the year-over-year change in its submarket": the areas are ranked, the release column follows)
        return None
    if analysis.price_figure == "change_since_2000" and any(q.startswith("2000") for q in [*analysis.quarters,
                                                                                          analysis.quarter or ""]):
        return None  # "appreciated the most since 2000 Q1 as of 2025 Q4": the index's change between the quarters
        # (a release named, "the IHS 2025 Q4 summary", dates the column and is no such span)
    beside = [SUMMARY_MEASURES[f] for f in analysis.price_figures_beside if f in SUMMARY_MEASURES and not period]
    return {"measures": [{"measure": measure, "period": period} if period else measure, *beside],
            "group_by": ["submarket"],
            **({"filters": [{"dimension": "submarket_part", "equals": "city"}]} if analysis.citywide else {}),
            "order_by": [{"field": measure, "direction": ranking.order}], "limit": ranking.top_n or 1,
            **({"offset": ranking.position - 1} if ranking.position > 1 and not ranking.top_n else {})}


def area_submarkets_ranked(analysis: Analysis) -> dict | None:
    """"Which IHS submarket had the highest 2019-2022 homicide rate (each area in its main submarket)": the areas'
    figures pooled over their main submarkets (the layer's area_submarket grain), ranked. It had ranked the areas, or
    the submarkets by their price index. A release column asked of the submarket found follows (linked_followup)."""
    ranking = analysis.ranking
    if not analysis.ranks_submarkets or ranking is None or ranking.metric in (None, "price_trend", "home_value") \
            or analysis.areas or analysis.submarkets or analysis.wards or analysis.districts or analysis.zips:
        return None
    metric = "homicide_rate" if ranking.metric == "homicides" and analysis.per_capita else ranking.metric
    spec = _set_spec(metric, analysis, _period(analysis))
    if spec is None:
        return None
    return {"measures": [spec], "group_by": ["area_submarket"],
            "order_by": [{"field": _name(spec), "direction": ranking.order}], "limit": ranking.top_n or 1,
            **({"offset": ranking.position - 1} if ranking.position > 1 and not ranking.top_n else {})}


def _submarket_areas(analysis: Analysis, arguments: dict, rows: list) -> list[dict]:
    """The areas lying mostly in the submarkets a ranking found, with the question's other figures: "... then the
    pooled 2019-2022 homicide rate of the community areas mainly in it"."""
    codes = [row.get("submarket") for row in rows[:5] if row.get("submarket")]
    # "the IHS 2025 Q4 summary ... their homicides in 2021": the release's year dates the ranking, not the counts
    release = {int(q[:4]) for q in [*analysis.quarters, analysis.quarter or ""] if q}
    counted = [y for y in analysis.years if y not in release]
    period = _years_period(counted) if counted and release else _period(analysis)
    specs = [s for s in (_spec(m, analysis, period) for m in analysis.metrics if m not in ("price_trend", "trend",
                                                                                          "home_value")) if s]
    if not codes or not specs:
        return []
    return [{"measures": specs, "group_by": ["community_area"], "totals": True,
             "filters": [{"dimension": "area_submarket", "in": codes}]}]


def series_peak(analysis: Analysis) -> dict | None:
    """"When did the IHS price index for the City of Chicago peak (1997-2009), and at what level", "in which month did
    60647's Zillow value peak before 2010": one place's series over the years asked, its highest (lowest) quarter or
    month."""
    span, where, ranking = analysis.year_range, None, analysis.ranking
    # "the highest Zillow value ever recorded for 60622, and in what month": a ranking over months is a peak
    peak = analysis.asks_peak or (ranking and analysis.group_by in ("month", "quarter") and not ranking.top_n
                                  and ("low" if ranking.order == "asc" else "high"))
    if not peak:
        return None
    if "price_trend" in analysis.metrics and len(analysis.submarkets) <= 1 and not (analysis.zips or analysis.areas):
        named = [s.name for s in analysis.submarkets] or (["CHICAGO"] if analysis.citywide else [])
        measure, grain, where = "price_index", "quarter", {"dimension": "submarket", "in": named} if named else None
    elif "home_value" in analysis.metrics and len(analysis.zips) + len(analysis.areas) == 1:
        measure, grain = "home_value", "month"
        where = {"dimension": "zip", "in": list(analysis.zips)} if analysis.zips else \
            {"dimension": "community_area", "in": [analysis.areas[0].number]}
    if where is None:
        return None
    return {"measures": [measure], "group_by": [grain], "filters": [where],
            **({"period": {"start": str(span.start), "end": str(span.end)}} if span else {}),
            "order_by": [{"field": measure, "direction": "asc" if peak == "low" else "desc"}],
            "limit": 1}


def area_share_of_city(analysis: Analysis) -> dict | None:
    """"What share of all of Chicago's Asian residents live in Armour Square": the group's count in the places named,
    with the city's and the places' share of it."""
    group = CENSUS_GROUP.get(analysis.census_group)
    if not (analysis.share_of_city and analysis.areas and group) or "homicides" in analysis.metrics:
        return None
    return {"measures": [group], "group_by": ["community_area"], "totals": True,
            "filters": [{"dimension": "community_area", "in": [p.number for p in analysis.areas]}]}


def _named_place(analysis: Analysis) -> bool:
    return bool(analysis.areas or analysis.wards or analysis.districts or analysis.zips or analysis.submarkets)


def fitted_or_covered(analysis: Analysis) -> dict | None:
    """"The least-squares slope of the yearly homicide counts 2010-2019" (a line through a series, in a place or the
    city), "how few areas account for half of 2022's homicides" (the fewest places, largest first, reaching a share)."""
    if analysis.cover_share and "homicides" in analysis.metrics and not _named_place(analysis):
        return {"measures": [{"measure": "homicides", "period": _period(analysis)}] if _period(analysis)
                else ["homicides"], "group_by": ["community_area"],
                "cover": {"of": "homicides", "share": round(analysis.cover_share, 4)}}
    if analysis.asks_spread != "slope":
        return None
    grain = "month" if analysis.group_by == "month" else "year"
    named = [m for m in analysis.metrics if m == "homicides"] or analysis.named_measures
    period = _years_period(sorted(analysis.years)) if len(analysis.years) >= 2 or grain == "month" else None
    if not named or period is None or analysis.wards or analysis.districts or analysis.zips:
        return None
    places = [{"dimension": "community_area", "in": [a.number for a in analysis.areas]}] if analysis.areas else []
    ranking = analysis.ranking
    # "in the area with the highest hardship index, the trend in yearly homicides": the place a ranking finds
    found = _spec(ranking.metric, analysis, None) if ranking and ranking.metric in MEASURE_OF \
        and ranking.metric not in TIMED and not places else None
    inner = {"measures": [found], "group_by": ["community_area"], "limit": ranking.top_n or 1,
             "order_by": [{"field": _name(found), "direction": ranking.order}]} if found else None
    return {"measures": [named[0]], "group_by": [grain], "period": period, "trend": [named[0]],
            **({"filters": places} if places else {}), **({"members_from": inner} if inner else {})}


def across_places(analysis: Analysis) -> dict | None:
    """"The median poverty rate across the 77 areas", "the gap between the highest and lowest per capita income": a
    measure over every place, its spread (lowest and highest with their places, median, plain mean, range)."""
    ranking = analysis.ranking  # "the gap between the highest and lowest", "across the 77 areas": the spread's words
    yearly = analysis.group_by == "year" and not (analysis.areas or analysis.wards or analysis.districts
                                                  or analysis.zips) and len(analysis.years) >= 2
    monthly = analysis.group_by == "month" and bool(analysis.years) and not _named_place(analysis)
    if not analysis.asks_spread or ranking and (ranking.top_n or 77) < 77 or analysis.area_condition \
            or not (_plain(analysis) or yearly or monthly):
        return None
    if yearly:  # "the median annual homicide count over 2010-2019": the spread over the years
        period = _years_period(sorted(analysis.years))
        return {"measures": ["homicides"], "group_by": ["year"], "period": period, "spread": ["homicides"]} \
            if "homicides" in analysis.metrics and period else None
    if monthly:
        # "the median of the 12 monthly citywide median sale prices in 2016": the spread over the year's months
        named = analysis.metrics and [m for m in analysis.metrics if m in ("homicides",)] or analysis.named_measures
        period = _years_period(sorted(analysis.years))
        return {"measures": [named[0]], "group_by": ["month"], "period": period, "spread": [named[0]]} \
            if len(named) == 1 and period else None
    specs = [s for s in (_spec(m, analysis, _period(analysis)) for m in analysis.metrics) if s]
    if len(specs) != 1:
        return None
    # "... and how far is that below the city's own figure": the city's beside the places' plain average
    return {"measures": specs, "group_by": ["zip" if analysis.group_by == "zip" else "community_area"],
            "spread": [_name(specs[0])], **({"vs_city": True} if analysis.city_as_a_whole else {})}


def _kept_share(specs: list, derived: list, analysis: Analysis) -> tuple[list, list]:
    """"What share of their 2019-2022 homicides happened on Saturdays or Sundays": the kept homicides beside all of
    them, and the first as a percent of the second (per place and over the set)."""
    kept = next((s for s in specs if isinstance(s, dict) and s["measure"] == "homicides" and s.get("filters")
                 and "as" not in s), None)  # (a named column, "main_submarket", is no count)
    if kept is None or not analysis.asks_share or analysis.share_of_city:
        return specs, derived  # (a share of the city's kept homicides is the set's total's own share)
    every = {k: v for k, v in kept.items() if k != "filters"}
    out = [{**kept, "as": "homicides_kept"} if s is kept else s for s in specs]
    out.insert(out.index({**kept, "as": "homicides_kept"}) + 1, {**every, "as": "homicides_all"})
    return out, [*derived, {"name": "share_kept", "op": "percent_of", "of": ["homicides_kept", "homicides_all"]}]


def _with_set_forms(query: dict | None, analysis: Analysis) -> dict | None:
    """A set's query with the spread of what is asked over it ("of the ten ..., the median home value"), and a
    threshold's count as a share of all the places with a figure ("what percent of community areas have ...")."""
    if query is not None and analysis.asks_share_of_places and query.get("having"):
        base = [_name(m) for m in query["measures"] if analysis.share_base and
                (m if isinstance(m, str) else m["measure"]) == MEASURE_OF.get(analysis.share_base, analysis.share_base)]
        if analysis.share_base == "ranked_set":  # "what % of the 20 is that": the set's rank bound makes the base
            base = [h["field"] for h in query["having"] if h["field"].endswith("_rank")]
        query = {**query, "count_share": True, **({"count_base": base[:1]} if base else {})}
    names = [_name(m) for m in (query or {}).get("measures", [])]
    if query is not None and analysis.population_growth and "population" in names and "population_2010" not in names:
        # "the areas where Asian residents are over 20%: their combined population change since 2010": the census
        # count beside the ACS one, and the change (over the set's sums in its total)
        query = {**query, "measures": [*query["measures"], {"measure": "population_2010"}],
                 "derived": [*query.get("derived", []), {"name": "residents_change", "op": "pct_change" if
                             analysis.population_growth == "change_pct" else "change",
                             "of": ["population_2010", "population"]}]}
    if query is None or not analysis.asks_spread:
        return query
    picking = {o["field"] for o in query.get("order_by") or []} | {h["field"] for h in query.get("having") or []}
    asked = [_name(m) for m in query["measures"] if _name(m) not in picking]
    # "on average how much did their values go up, in %": the places' own changes, where a change is asked
    changes = [d["name"] for d in query.get("derived") or [] if d["op"] == ("pct_change" if
               analysis.asks_percent_change else "change") and d["name"] not in picking]
    if changes and analysis.asks_spread == "mean":
        asked = changes
    return {**query, "spread": asked} if asked else query


def bound_query(analysis: Analysis) -> dict | None:
    """"How many homicides in 2020, and what percent of 2016-2022 homicides there led to an arrest", "the area with
    the most homicides in 2021: its arrest rate over 2016-2020": each clause's measure over its own period
    (analysis.bound_periods), for the places named, the place a ranking finds, or the city; the question's untimed
    measures beside them."""
    bound, ranking = analysis.bound_periods, analysis.ranking
    if not bound or analysis.zips or analysis.correlation or analysis.area_condition:
        return None
    kinds = [k for k in _homicide_filters(analysis) if k["dimension"] != "calendar_month"]  # each part's own months
    specs = [{"measure": b.measure, "period": b.period,
              "as": f"{b.measure}_{_period_key(b.period)}" + "".join(f"_m{m}" for m in b.months),
              **({"filters": kinds + ([{"dimension": "calendar_month", "in": list(b.months)}] if b.months else [])}
                 if kinds or b.months else {})} for b in bound]
    ranked = next((s for s, b in zip(specs, bound) if b.ranks), None)
    specs, derived = _bound_changes(specs, bound)
    first = ranked or (_spec(ranking.metric, analysis, None) if ranking and ranking.metric else None)
    timed = (*TIMED, "homicides", "arrest_rate", "domestic_homicides")
    untimed = [s for s in (_spec(m, analysis, None) for m in analysis.metrics)
               if s and s["measure"] not in timed and s != first]
    grain, members = next(((g, [getattr(p, "number", p) for p in found]) for g, found in (
        ("community_area", analysis.areas), ("ward", analysis.wards), ("district", analysis.districts)) if found),
        (None, []))
    if ranking and not members:
        if first is None:
            return None
        n = ranking.top_n or 1
        place = analysis.group_by if analysis.group_by in ("ward", "district") else "community_area"
        return {"measures": ([] if ranked else [first]) + specs + untimed, "group_by": [place],
                "order_by": [{"field": _name(first), "direction": ranking.order}], "limit": n, "totals": n > 1,
                **({"derived": derived} if derived else {})}
    if ranking or (grain not in (None, "community_area") and "homicide_rate" in str(specs)):
        return None  # a named place's own rank, or a rate at a grain without residents: the rest of the reader
    return {"measures": specs + (untimed if grain == "community_area" else []),
            "group_by": [grain] if grain else [],
            **({"filters": [{"dimension": grain, "in": members}]} if grain else {}),
            **({"derived": derived} if derived else {})}


def _bound_changes(specs: list, bound: list) -> tuple[list, list]:
    """A part that asks the change between its span's two years ("the combined percent change in homicides from 2019
    to 2020"): each year's figure, the change and the percent change, in place of the span's total."""
    out, derived = [], []
    for spec, b in zip(specs, bound):
        if not b.change:
            out.append(spec)
            continue
        pair = [{**spec, "period": {"year": int(y)}, "as": f"{b.measure}_{y}"} for y in (b.period["start"],
                                                                                        b.period["end"])]
        out += pair
        derived += [{"name": f"{b.measure}_change", "op": "change", "of": [p["as"] for p in pair]},
                    {"name": f"{b.measure}_pct_change", "op": "pct_change", "of": [p["as"] for p in pair]}]
    return out, derived


def month_groups_compared(analysis: Analysis) -> dict | None:
    """"In 2021 were there more homicides in fall (Sep-Nov) or spring (Mar-May)? give both counts": each stretch of
    the year its own count, side by side, and the difference of the first two."""
    groups = analysis.month_groups
    if len(groups) < 2 or analysis.ranking or analysis.area_condition or analysis.wards or analysis.districts \
            or analysis.zips or len(analysis.areas) > 1 or set(analysis.metrics) - {"homicides", "trend"}:
        return None
    period, measure = _period(analysis), "homicide_rate" if analysis.per_capita else "homicides"
    kinds = [k for k in _homicide_filters(analysis) if k["dimension"] != "calendar_month"]
    specs = [{"measure": measure, **({"period": period} if period else {}),
              "filters": [*kinds, {"dimension": "calendar_month", "in": list(g)}],
              "as": f"{measure}_m" + "_".join(str(m) for m in g)} for g in groups]
    place = [{"dimension": "community_area", "in": [analysis.areas[0].number]}] if analysis.areas else []
    return {"measures": specs, "group_by": ["community_area"] if place else [],
            **({"filters": place} if place else {}),
            "derived": [{"name": "ratio" if analysis.asks_times else "difference",  # "the ratio of summer to winter"
                         "op": "ratio" if analysis.asks_times else "difference", "of": [specs[0]["as"], specs[1]["as"]]}]}


def _day_stretch(month_days: list) -> tuple[str, str] | None:
    """The first and last day of a stretch of calendar days kept in every year ("Jan 1 through July 19"), where the
    days run without a gap; None otherwise."""
    days = sorted({date(2001, int(d[:2]), int(d[3:])).toordinal() for d in month_days if d != "02-29"})
    if len(days) < 2 or days[-1] - days[0] + 1 != len(days):
        return None
    return tuple(date.fromordinal(d).strftime("%m-%d") for d in (days[0], days[-1]))


def day_stretch_years(analysis: Analysis) -> dict | None:
    """"From Jan 1 through July 19, how many homicides in 2023 vs the same stretch of 2022, and the % change": the
    stretch of days in each year named, side by side, with the change between the first two."""
    stretch = _day_stretch(analysis.month_days) if len(analysis.month_days) > 1 else None
    years = sorted(set(analysis.years))
    if stretch is None or not 2 <= len(years) <= 4 or analysis.ranking or analysis.area_condition \
            or analysis.wards or analysis.districts or analysis.zips or len(analysis.areas) > 1 \
            or set(analysis.metrics) - {"homicides", "trend"}:
        return None
    specs = [{"measure": "homicides", "period": {"start": f"{y}-{stretch[0]}", "end": f"{y}-{stretch[1]}"},
              "as": f"homicides_{y}"} for y in years]
    pair = [specs[0]["as"], specs[1]["as"]]
    place = [{"dimension": "community_area", "in": [analysis.areas[0].number]}] if analysis.areas else []
    return {"measures": specs, "group_by": ["community_area"] if place else [], **({"filters": place} if place else {}),
            "derived": [{"name": "change", "op": "change", "of": pair},
                        {"name": "change_pct", "op": "pct_change", "of": pair}]}


def years_against_city(analysis: Analysis) -> dict | None:
    """"In how many of the years 2016 through 2022 was the homicide rate in Pullman higher than the citywide rate":
    each year's figure for the place and for the city, the gap, and the years on the side asked kept (counted)."""
    if not analysis.years_vs_city or len(analysis.areas) != 1 or analysis.ranking or not analysis.periods:
        return None
    span = analysis.periods[0]
    measure = "homicide_rate" if analysis.per_capita else "homicides"
    period = {"start": str(span.start), "end": str(span.end)}
    area = analysis.areas[0]
    name = re.sub(r"\W+", "_", area.name.lower())
    place = {"measure": measure, "period": period, "as": f"{measure}_{name}",
             "filters": [{"dimension": "community_area", "in": [area.number]}]}
    city = {"measure": measure, "period": period, "as": f"{measure}_city"}
    return {"measures": [place, city], "group_by": ["year"],
            "derived": [{"name": "gap_to_city", "op": "difference", "of": [place["as"], city["as"]]}],
            "having": [{"field": "gap_to_city", "op": ">" if analysis.years_vs_city == "above" else "<", "value": 0}]}


def years_counted(analysis: Analysis) -> dict | None:
    """A yearly series read year by year: "in how many years did homicides go up compared with the year before"
    (each year's step from the one before, the years on the side asked kept and counted), "after 2010, the first
    year with more than 700 homicides" (the years over the number, earliest first, one kept)."""
    asked = analysis.years_vs_before or analysis.first_year or analysis.years_with
    if not asked or not _counts_homicides(analysis) or analysis.per_capita or analysis.ranking and not \
            (analysis.first_year or analysis.years_with) or len(analysis.areas) > 1 or analysis.wards \
            or analysis.districts or analysis.zips:
        return None
    years = sorted(set(analysis.years))
    last = analysis.coverage.last_full_year
    span = (years[0], years[-1]) if len(years) >= 2 else (years[0] + 1, last) if years else (None, last)
    if analysis.years_with and len(years) == 1:  # "how many years since 2010 had ...": the years from the one named
        span = (years[0], last)
    kinds = _homicide_filters(analysis)
    measure = {"measure": "homicides", **({"filters": kinds} if kinds else {})}
    where = [{"dimension": "community_area", "in": [analysis.areas[0].number]}] if analysis.areas else []
    if analysis.years_vs_before and analysis.years_streak:  # the longest run of years on the side asked
        start = span[0] - 1 if span[0] else analysis.coverage.first_year
        return {"measures": [measure], "group_by": ["year"], **({"filters": where} if where else {}),
                "period": {"start": str(start), "end": str(span[1])},
                "derived": [{"name": "homicides_step", "op": "step", "of": ["homicides"]},
                            {"name": "years_in_a_row", "op": "run", "of": ["homicides_step"],
                             "direction": "desc" if analysis.years_vs_before == "up" else "asc"}],
                "having": [{"field": "year", "op": ">=", "value": start + 1}],
                "order_by": [{"field": "years_in_a_row", "direction": "desc"}], "limit": 1}
    if analysis.years_vs_before:
        start = span[0] - 1 if span[0] else None  # the first year's own step needs the year before it
        return {"measures": [measure], "group_by": ["year"], **({"filters": where} if where else {}),
                **({"period": {"start": str(start), "end": str(span[1])}} if start else {}),
                "derived": [{"name": "homicides_step", "op": "step", "of": ["homicides"]}],
                "having": [{"field": "homicides_step", "op": ">" if analysis.years_vs_before == "up" else "<",
                            "value": 0}, *([{"field": "year", "op": ">=", "value": span[0]}] if span[0] else [])]}
    first = analysis.first_year
    if analysis.years_with:  # "in how many years from 2001 to 2022 did Edison Park have zero homicides"
        return {"measures": [measure], "group_by": ["year"], **({"filters": where} if where else {}),
                "period": {"start": str(span[0] or analysis.coverage.first_year), "end": str(span[1])},
                "having": [{"field": "homicides", **analysis.years_with}]}
    # ("after 2010": from the year after; the partial last year is no whole year's count)
    return {"measures": [measure], "group_by": ["year"], **({"filters": where} if where else {}),
            "period": {"start": str(span[0] or analysis.coverage.first_year), "end": str(span[1])},
            "having": [{"field": "homicides", "op": ">" if first["side"] == "above" else "<", "value": first["value"]}],
            "order_by": [{"field": "year", "direction": "asc" if first["which"] in ("first", "earliest") else "desc"}],
            "limit": 1}


def shares_by_year(analysis: Analysis) -> dict | None:
    """"What share of homicides were in an AUTO: 2012 vs 2022", "what percent led to an arrest in 2012 vs 2022": the
    share asked in each year (the counts alone answered another question), city-wide or in the places named."""
    years = sorted(set(analysis.years))
    place_share = _place_share_by_year(analysis, years)
    if place_share:
        return place_share
    # (a span's two ends are its years, not two years compared: "Austin's killings 2010-2022 ... vs the city")
    if not (analysis.asks_share and len(years) >= 2 and (analysis.comparison or analysis.group_by == "year")) \
            or analysis.years_together or (analysis.periods and analysis.group_by != "year") \
            or analysis.per_capita or analysis.ranking or analysis.ranked_sets or analysis.area_condition \
            or analysis.wards or analysis.districts or analysis.zips or analysis.span_total:
        return None
    period = {"years": years} if len(years) == 2 or analysis.year_list else _years_period(years)
    where = [{"dimension": "community_area", "in": [a.number for a in analysis.areas]}] if analysis.areas else []
    kinds = [{"dimension": "location_type", "in": list(analysis.locations)}] if analysis.locations else []
    # the place on each figure, so each row's sentence names it ("2012: arrest rate (Austin) 59.5%")
    spec = {"period": period, **({"filters": where} if where else {})}
    shares = {"arrests": "arrest_rate", "domestic": "domestic_share"}
    asked = [m for m in analysis.metrics if m != "homicides"]
    if not kinds and len(asked) == 1 and asked[0] in shares:
        return {"measures": [{"measure": shares[asked[0]], **spec}], "group_by": ["year"]}
    if not kinds or asked != ["location_type"]:
        return None
    every = {"measure": "homicides", **spec, "as": "homicides_all"}
    return {"measures": [every, {**every, "filters": [*where, *kinds], "as": "homicides_kept"}], "group_by": ["year"],
            "derived": [{"name": "share_kept", "op": "percent_of", "of": ["homicides_kept", "homicides_all"]}]}


def _place_share_by_year(analysis: Analysis, years: list) -> dict | None:
    """"Austin's share of all Chicago homicides: how many percentage points did it change from 2019 to 2022": the
    place's share of the city's count in each year (the span's ends where it changed), and the step between them."""
    if not (analysis.share_of_city and len(analysis.areas) == 1 and len(years) >= 2 and (
            analysis.trend or analysis.group_by == "year" or analysis.year_list)) \
            or analysis.ranking or analysis.ranked_sets or analysis.area_condition or analysis.per_capita:
        return None
    period = {"years": years if analysis.year_list or analysis.group_by == "year" else [years[0], years[-1]]}
    city = {"measure": "homicides", "period": period, "as": "homicides_city"}
    kinds = _homicide_filters(analysis)
    where = [{"dimension": "community_area", "in": [analysis.areas[0].number]}]
    return {"measures": [{**city, "filters": kinds} if kinds else city,
                         {**city, "filters": [*where, *kinds], "as": "homicides_place"}],
            "group_by": ["year"], "derived": [
                {"name": "share_of_city", "op": "percent_of", "of": ["homicides_place", "homicides_city"]},
                *([{"name": "share_change", "op": "step", "of": ["share_of_city"], "along": ["year"]}]
                  if analysis.trend else [])]}


def _excess(query: dict, analysis: Analysis) -> dict:
    """"How many more killed in the 10 poorest areas than at the city-wide rate": the count beside the rate, and the
    count above the number the city's own rate gives their population over the same years."""
    rate = next((m for m in query["measures"] if isinstance(m, dict) and m["measure"] == "homicide_rate"), None)
    if not analysis.excess_asked or rate is None:
        return query
    count = next((m for m in query["measures"] if isinstance(m, dict) and m["measure"] == "homicides"
                  and m.get("period") == rate.get("period") and not m.get("filters")), None)
    measures = query["measures"] if count else [*query["measures"], {**rate, "measure": "homicides", "as": "homicides"}]
    return {**query, "measures": measures, "derived": [*(query.get("derived") or []), {
        "name": "homicides_excess", "op": "excess", "of": [_name(count or measures[-1]), _name(rate)]}]}


def _quantile_cut(query: dict, analysis: Analysis) -> dict:
    """"the bottom quartile of Zillow home values": a quantile cuts the places that have a value (East Side has no
    Zillow ZIP: 76 areas in quartiles of 19), not the first ``n`` of all 77 by rank."""
    cut = next((s for s in analysis.ranked_sets if s.groups), None)

    def cut_by_quantile(q: dict) -> dict:
        order = q.get("order_by") or []
        if cut is None or q.get("limit") != cut.n or not order or q.get("having"):
            return q
        field = order[0]["field"]
        name = f"{field}_{QUANTILE_NAMES.get(cut.groups, 'group')}"
        return {**{k: v for k, v in q.items() if k != "limit"},
                "derived": [*(q.get("derived") or []), {"name": name, "op": "quantile", "of": [field],
                                                         "groups": cut.groups}],
                "having": [{"field": name, "op": "==", "value": cut.groups if cut.order == "desc" else 1}]}
    query = cut_by_quantile(query)
    return {**query, "members_from": cut_by_quantile(query["members_from"])} \
        if isinstance(query.get("members_from"), dict) else query


def _rows_kept(query: dict, analysis: Analysis) -> dict:
    """The homicide rows the question keeps (months, weekdays, hours, kinds of place, domestic) apply to every
    homicide figure of a query whose reader set none ("district 11 in June-Aug 2021, and its station's area"):
    a reader that set some (a kept share beside the whole) chose where they go."""
    # (days bound the months already: "Jan 1 through July 19 of each year" keeps no January and July only)
    spans = [s.get("period") for s in query.get("measures") or [] if isinstance(s, dict)] + [query.get("period")]
    kept = [f for f in _homicide_filters(analysis) if f["dimension"] != "calendar_month"
            or not any(isinstance(p, dict) and "start" in p for p in spans)]
    specs = query.get("measures") or []
    rows = [f for f in query.get("filters") or [] if f.get("dimension") not in PLACE_DIMENSIONS]
    if not kept or rows or query.get("groups") or any(isinstance(s, dict) and s.get("filters") for s in specs):
        return query
    def counted(spec) -> bool:  # (counts only: a rate's, a share's or a density's rows are its reader's to pick)
        m = catalog().measures.get(spec if isinstance(spec, str) else spec.get("measure"))
        return m is not None and m.dataset == "homicides" and m.agg == "count"
    touched = [{**({"measure": s} if isinstance(s, str) else s), "filters": kept} if counted(s) else s for s in specs]
    return {**query, "measures": touched} if touched != specs else query


def composed_query(analysis: Analysis) -> dict | None:
    """The one query a cross-domain composition asks for, or None where the question is not one."""
    peak = None if analysis.injection_suspected or analysis.unsupported else series_peak(analysis)
    if peak is not None:
        return peak  # the price index's own years reach back before Zillow's
    month = _home_month(analysis)
    # Zillow's own years, and the IHS release's ("the IHS 2025 Q4 summary")
    quarters = {int(q[:4]) for q in [*analysis.quarters, analysis.quarter or ""] if q} \
        if "price_trend" in analysis.metrics else set()
    if analysis.price_figure == "change_since_2000":  # the release column's own base year, no year asked
        quarters.add(2000)
    outside = [y for y in analysis.out_of_range_years if not (month and y == int(month[:4])) and y not in quarters]
    if analysis.injection_suspected or analysis.unsupported or outside:
        return None
    for reader in (stepped, months_ranked, years_counted, years_against_city, shares_by_year, month_groups_compared, day_stretch_years,
                   group_compare,
                   area_submarkets_ranked,
                   submarkets_ranked, fitted_or_covered, across_places, kinds_compared,
                   set_breakdown, set_query, filtered_share_of_set, ranks_apart,
                   area_share_of_city, submarket_areas_set, station_areas_set, bound_query,
                   station_chain, station_zip_facts, ranked_within, zip_change_ranked, dates_ranked, submarket_pair,
                   ihs_quarter_and_years, ihs_years,
                   ihs_quarters,
                   zip_facts, area_months, area_facts, ward_facts, named_layer_only, area_value_change, ranked_names,
                   zip_months,
                   places_pooled, named_places, member_rank, city_rates, correlation, threshold_set, ranked_change, ranked_set,
                   grain_set, other_end_ranked):
        query = reader(analysis)
        if query is not None and analysis.asks_rank and reader is not member_rank:
            # "Austin's rank in homicides per square mile": whichever reading found the measure, every place ranked
            query = member_ranked(query, analysis.rank_order)
        if query is not None and analysis.weight_by:
            query = {**query, "weight_by": analysis.weight_by}
        query = _excess(_quantile_cut(_rows_kept(query, analysis), analysis), analysis) if query is not None else None
        if query is not None and analysis.rate_population and "homicide_rate" in str(query):
            query = {**query, "population": analysis.rate_population}  # (a rate per a group's residents)
        if query is not None:
            return _with_set_forms(query, analysis) if reader in (ranked_set, threshold_set, submarket_areas_set,
                                                                  places_pooled, set_query, area_value_change) \
                else query
    return None
