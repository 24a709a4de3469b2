"""The per-domain call builders of the rule planner: which tool, with which arguments, for one domain.

plan_calls (rules/planner.py) decides which domains and places a question needs; these turn one
domain plus the question's analysis (years, periods, ranking, per-capita, trend wording) into
``(tool name, arguments)`` pairs. Arguments a tool does not take are dropped later by the planner,
so a builder may pass None or extra keys freely.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.analysis import Analysis, Ranking, YearSpan
from rules.scope import with_scope
from rules.time_args import has_time_filters, time_variants, with_times
from tools import names

SOCIO_METRICS = ("income", "poverty", "unemployment", "education", "hardship", "crowding", "dependency")
CENSUS_METRICS = ("population", "race", "age", "household_income", "median_income")
# The analyzer's census metric names -> the census tool's metric names.
CENSUS_TOOL_METRIC = {"household_income": "income", "median_income": "median_income_estimate"}
CONTEXT_INDICATORS = {"income": "per_capita_income", "poverty": "poverty", "unemployment": "unemployment",
                      "education": "no_hs_diploma", "crowding": "crowding", "dependency": "dependency",
                      "hardship": "hardship_index"}


def _ranks_arrest_rate(analysis: Analysis, group: str | None) -> dict:
    """"Highest arrest rate" ranks places by the rate, not by how many homicides they had."""
    ranking = analysis.ranking
    if ranking and ranking.metric == "arrests" and group in ("ward", "district", "community_area", "location_type"):
        return {"rank_by": "arrest_rate"}
    return {}


def _year_args(analysis: Analysis, period: YearSpan | None = None) -> dict:
    period = period or analysis.year_range
    if not period:
        return {}
    return {"start_year": period.start, "end_year": period.end}


def _in_coverage(analysis: Analysis, years) -> bool:
    cov = analysis.coverage
    return all(cov.first_year <= int(y) <= cov.last_year for y in years)


def _socio_metric(metrics: list) -> str:
    wanted = [m for m in metrics if m in SOCIO_METRICS]
    return wanted[0] if len(wanted) == 1 else "all"


def _census_metric(metrics: list) -> str:
    wanted = [m for m in metrics if m in CENSUS_METRICS]
    if len(wanted) != 1:
        return "all"
    return CENSUS_TOOL_METRIC.get(wanted[0], wanted[0])


def _ranking_args(analysis: Analysis, default_n: int = 5) -> dict:
    ranking = analysis.ranking or Ranking()
    n = max(ranking.top_n or default_n, ranking.position)  # "the seventh-deadliest" needs seven rows
    return {"top_n": int(max(1, min(n, 77))), "sort_order": ranking.order}


def _census_group_args(analysis: Analysis) -> dict:
    """The census tool's arguments for the group of residents or households asked about, ranked or compared by
    its share or, where the question counts them ("the biggest Black population"), by how many."""
    group = analysis.census_group
    if not group:
        return {}
    kind = "race" if group in ("black", "hispanic_or_latino", "white_not_hispanic", "asian") else \
        ("age" if group.startswith("age_") else "income")
    return {"metric": kind, "group": group, **({"rank_by": "count"} if analysis.census_by_count else {})}


def ranking_call(domain: str, analysis: Analysis, metrics: list):
    """A ranking of community areas in one domain."""
    rank = _ranking_args(analysis, 5)
    if domain == "homicides":
        if analysis.per_capita:
            return (names.AREA_RATES, {**_rate_years(analysis), **rank})
        group = analysis.group_by if analysis.group_by in (
            "ward", "district", "community_area", "location_type", "year", "month") \
            else "community_area"
        years = {} if group == "year" and not analysis.periods else _year_args(analysis)
        by_rate = _ranks_arrest_rate(analysis, group)
        kinds = {"domestic": True} if analysis.domestic_filter else {}  # "the most domestic homicides"
        # the question's months, weekdays and hours narrow the ranked count too ("in summer 2022, which area had the
        # most homicides on weekends? its population?": the chain ranked all of 2022)
        months = {"months": list(analysis.months)} if analysis.months and group != "month" else {}
        return with_scope(analysis, [(names.HOMICIDES, with_times(analysis, {**years, **months, "group_by": group,
                                                                             **rank, **by_rate, **kinds}))])[0]
    if domain == "socioeconomic":
        metric = analysis.ranking.metric if analysis.ranking else None
        metric = metric if metric in SOCIO_METRICS else _socio_metric(metrics)
        return (names.SOCIOECONOMIC, {"metric": "hardship" if metric == "all" else metric, **rank})
    if domain == "census":
        metric = analysis.ranking.metric if analysis.ranking else None
        metric = metric if metric in CENSUS_METRICS else _census_metric(metrics)
        metric = CENSUS_TOOL_METRIC.get(metric, metric)
        group = _census_group_args(analysis)
        if analysis.population_growth and metric in ("population", "all"):
            # "which area grew the most since 2010": the change from the 2010 Census, not the 2010 count
            return (names.CENSUS, {"metric": "population", "rank_by": analysis.population_growth, **rank})
        # "the fewest people in 2010": the 2010 Census count ranks the areas, not the latest estimate.
        year = {"year": analysis.years[0]} if len(analysis.years) == 1 and not analysis.out_of_range_years else {}
        if group and metric in ("race", "age", "income", "all", "population"):
            # "highest share of Black residents" ranks by that group's share, not by population.
            return (names.CENSUS, {**group, **rank, **year})
        return (names.CENSUS, {"metric": "population" if metric == "all" else metric, **rank, **year})
    if domain == "property":
        return (names.PROPERTY, {"metric": "home_value", **rank, **_property_years(analysis), **_by_zip(analysis)})
    return None


_AREA_TIME_GRAINS = ("year", "month", "weekday", "hour")


def area_calls(domain: str, area_numbers: list, analysis: Analysis, metrics: list) -> list:
    """The figures of one domain for given areas (first one plus comparisons), or city-wide."""
    first, rest = (area_numbers[0], area_numbers[1:5]) if area_numbers else (None, [])
    if domain == "socioeconomic":
        return [(names.SOCIOECONOMIC, {"community_area": first, "compare_areas": rest or None,
                                         "metric": _socio_metric(metrics)})]
    if domain == "census":
        group = _census_group_args(analysis) if rest else {}  # "more Black residents, Austin or Englewood?"
        if rest and analysis.population_growth and _census_metric(metrics) == "population":
            group = {"rank_by": analysis.population_growth}  # "which grew faster, the Loop or the Near South Side"
        calls = [(names.CENSUS, {"community_area": first, "compare_areas": rest or None,
                                 "metric": _census_metric(metrics), **group})]
        left = [a.number for a in analysis.excluded_areas]
        if left and not area_numbers:  # "Chicago's population if you leave out the Loop": the city, then those areas
            calls.append((names.CENSUS, {"community_area": left[0], "compare_areas": left[1:5] or None,
                                         "metric": _census_metric(metrics)}))
        return calls
    if domain == "property":
        return [(names.PROPERTY, {"community_area": first, "compare_areas": rest or None,
                                           "metric": _property_metric(metrics), **_property_years(analysis)})]
    if domain == "homicides":
        if analysis.per_capita:
            return [(names.AREA_RATES, {**_rate_years(analysis), "community_area": first,
                                                                  "compare_areas": rest or None})]
        if analysis.trend and (analysis.periods or len(set(analysis.years)) == 2) and area_numbers \
                and not has_time_filters(analysis):
            # "the area that lost the biggest share of its people: how did its count change from 2012 to 2022":
            # the place found, compared between the ends (a total over the span answered another question)
            return _period_comparison_calls(analysis, [("community_area", n) for n in [first] + rest],
                                            sorted(set(analysis.years)), list(analysis.periods))
        # the place a ranking found, counted over the question's own times: "the most populous area: its homicides
        # in Q3 2020 and in Q3 2019" is the quarter's months in each year, each year said
        times = with_times(analysis, {**_year_args(analysis), **({"months": analysis.months} if analysis.months
                                                                else {})})
        if (times.get("months") or not analysis.periods) and len(set(analysis.years)) >= 2 \
                and "start_date" not in times:
            times.setdefault("group_by", "year")  # "in 2019 and in 2020": each year's count
        grain = next((g for g in [analysis.group_by, *analysis.time_grains] if g in _AREA_TIME_GRAINS), None)
        if analysis.ranking and analysis.ranking.metric != "homicides" and grain:
            # "the most overcrowded area: in which year did it have the most homicides": the place found, by the grain
            times.setdefault("group_by", grain)
        return [(names.HOMICIDES, {**times, "community_area": number})
                for number in ([first] + rest if first else [None])]
    return []


def _rate_years(analysis: Analysis) -> dict:
    period = analysis.year_range
    if not period:
        return {}
    if period.start == period.end:
        return {"year": period.start}
    return {"start_year": period.start, "end_year": period.end}


@dataclass
class Places:
    """The places a question names, as the tools take them."""

    areas: list = field(default_factory=list)
    wards: list = field(default_factory=list)
    districts: list = field(default_factory=list)
    zips: list = field(default_factory=list)
    zip_areas: list = field(default_factory=list)  # each ZIP's main community area

    @property
    def area_like(self) -> list:
        """Community areas, or those standing in for the ZIPs named."""
        return self.areas or self.zip_areas


def _change_ranking_calls(analysis: Analysis, years: list, periods: list) -> list:
    """"Which areas saw the biggest increase between 2019 and 2021?": every place ranked by the change."""
    last_full = analysis.coverage.last_full_year
    if len(periods) >= 2:
        p1, p2 = sorted(periods[:2], key=lambda p: p.start)  # a change runs forward in time, whatever the wording
    elif periods:
        p1 = YearSpan(periods[0].start, periods[0].start)
        p2 = YearSpan(min(periods[0].end, last_full), min(periods[0].end, last_full))
    else:
        y1, y2 = sorted(years)
        p1, p2 = YearSpan(y1, y1), YearSpan(y2, y2)
    kind = analysis.group_by if analysis.group_by in ("ward", "district") else "community_area"
    return [(names.DISTRICT_TRENDS, {
        "period1_start": p1.start, "period1_end": p1.end, "period2_start": p2.start,
        "period2_end": p2.end, "rank_places": kind, "top_n": _ranking_args(analysis, 5)["top_n"],
        "sort_order": "asc" if analysis.change_direction == "down" else "desc"})]


def _period_comparison_calls(analysis: Analysis, places: list, years: list, periods: list) -> list:
    """Two periods, or a change over time, for each named place."""
    last_full = analysis.coverage.last_full_year
    if any(key in ("wards", "districts") for key, _ in places):
        # The comparison tool takes one place; a set gets its yearly series over the whole span instead.
        spans = periods or [YearSpan(min(years), max(years))] if (periods or years) else \
            [YearSpan(last_full - 9, last_full)]
        start, end = min(p.start for p in spans), min(max(p.end for p in spans), last_full)
        return [(names.HOMICIDES, {"group_by": "year", "start_year": start, "end_year": end, key: value})
                for key, value in places[:3]]
    if len(periods) >= 2:
        # "2016-2020 vs 2011-2015, how much did it go up": the change runs forward in time, whatever the wording.
        p1, p2 = sorted(periods[:2], key=lambda p: p.start)
    elif len(years) == 2 and not periods and analysis.trend:
        y1, y2 = sorted(years)
        p1, p2 = YearSpan(y1, y1), YearSpan(y2, y2)
    elif periods:
        # A trend over one span: the year-by-year series (for the chart) plus first vs last year.
        start, end = periods[0].start, min(periods[0].end, last_full)
        out = []
        for key, value in places[:2]:
            out.append((names.HOMICIDES, {"group_by": "year", "start_year": start, "end_year": end,
                                                     key: value}))
            out.append((names.DISTRICT_TRENDS, {
                "period1_start": start, "period1_end": start, "period2_start": end, "period2_end": end,
                key: value}))
        return out
    else:  # "how have homicides changed in ward 24": the last ten full years, five against five
        p1 = YearSpan(last_full - 9, last_full - 5)
        p2 = YearSpan(last_full - 4, last_full)
    return [(names.DISTRICT_TRENDS, {
        "period1_start": p1.start, "period1_end": p1.end, "period2_start": p2.start, "period2_end": p2.end,
        key: value}) for key, value in places[:3]]


def _count_arguments(analysis: Analysis, metrics: list, places: list, years: list, periods: list) -> dict:
    """query_homicides_advanced's filters and grouping for a count, breakdown or ranking."""
    ranking = analysis.ranking
    base = dict(_year_args(analysis))
    # "January to March 2022", "summer 2020", "in july since 2020": a month filter in every year. Month words
    # that bound a range ("January 2015 to March 2019") are a date span, which replaces the months (with_times).
    if analysis.months and not _home_value_dates(analysis):
        base["months"] = analysis.months
    group = analysis.group_by
    if (base.get("months") or analysis.holidays) and group == "month" and len(years) >= 2 and not ranking:
        # "summer 2019 vs summer 2020", "each summer from memorial day to labor day": the season in each year, not
        # its months pooled
        group = "year"
    if "arrests" in metrics and not group and not ranking and analysis.trend and len(years) >= 2 and \
            not analysis.arrest_filter and len(periods) < 2:  # two spans compared: each span's pooled rate
        group = "year"  # "how did the arrest rate change from 2019 to 2021": each year's rate, not one pooled rate
    if "arrests" in metrics and not group and not ranking:
        group = "arrest"
    if analysis.domestic_filter:
        base["domestic"] = True
    elif "domestic" in metrics and not group and not ranking:
        group = "domestic"
    locations = analysis.locations
    if "location_type" in metrics:
        # One named place type is a filter even in a year-vs-year comparison, and under a ranking of places
        # ("where in the city have the most people been killed inside an apartment" ranks areas, not kinds of place).
        if len(locations) == 1 and (not ranking or group in ("community_area", "ward", "district")):
            base["location_type"] = locations[0]
        elif analysis.locations_together and not ranking and group in (None, "year"):
            base["location_types"] = list(locations)
        elif not group or group == "community_area" and not ranking:
            group = "location_type"
    if len(periods) >= 2 and not places and group == "year":  # "by year": one series over both periods
        base.update({"start_year": min(p.start for p in periods), "end_year": max(p.end for p in periods)})
    if ranking and not group:
        group = "community_area"
    base.update(_ranks_arrest_rate(analysis, group))
    if ranking and group == "year" and not periods:
        base.pop("start_year", None)  # "was 2021 the deadliest year?" ranks every year, not just the one named
        base.pop("end_year", None)
    if analysis.trend and not group and not ranking and (len(periods) < 2 or places):
        group = "year"
    if group:
        base["group_by"] = group
    if ranking or group in ("community_area", "ward", "district", "location_type"):
        base.update(_ranking_args(analysis, 5 if ranking else 10))
        if analysis.min_homicides and group in ("community_area", "ward", "district", "location_type"):
            base["min_homicides"] = analysis.min_homicides
            if not ranking:
                base["top_n"] = 77  # every place over the floor
    return base


def _place_set(kind: str, numbers: list, analysis: Analysis) -> list:
    """One (key, value) per ward or district to look up; "wards 1 to 20" is one set, counted together.

    Two to four named in a comparison ("ward 3 vs ward 4") stay separate so each gets its own figures, unless the
    question counts them together ("wards 24 and 28 combined").
    """
    if len(numbers) >= 2 and (analysis.places_together
                              or not (analysis.comparison and len(numbers) <= 4 and not analysis.ranking)):
        return [(kind + "s", list(numbers))]
    return [(kind, n) for n in numbers]


def homicides_in_areas(analysis: Analysis, areas: list) -> tuple:
    """The homicides of the question's years and filters in these community areas counted together (the areas a
    measure picked: "homicides in the areas where poverty is above 30%")."""
    return with_scope(analysis, [(names.HOMICIDES, {**_year_args(analysis), "community_areas": list(areas)})])[0]


def homicide_calls(analysis: Analysis, metrics: list, where: Places) -> list:
    """The homicide calls, each leaving out what the question leaves out (rules/scope.py)."""
    return with_scope(analysis, _homicide_calls(analysis, metrics, where))


def _home_value_dates(analysis: Analysis) -> set:
    """The years that only date a home value's month ("2021's homicides ... the Zillow value in Sept 2024": 2024):
    no homicide year, and their months no homicide filter."""
    if "home_value" not in analysis.metrics or not analysis.month_years:
        return set()
    months = {int(m[:4]) for m in analysis.month_years}
    if not analysis.years_alone:  # "its Sept 2024 Zillow value": a year past the homicide data is Zillow's
        return {y for y in months if y > analysis.coverage.last_year}
    return months - set(analysis.years_alone)


def _homicide_calls(analysis: Analysis, metrics: list, where: Places) -> list:
    ranking = analysis.ranking
    dated = _home_value_dates(analysis)
    periods, years = list(analysis.periods), [y for y in analysis.years if y not in dated]
    areas = [("community_areas", list(where.area_like))] if analysis.places_together and len(where.area_like) >= 2 \
        else [("community_area", a) for a in where.area_like]
    places = areas + _place_set("ward", where.wards, analysis) + _place_set("district", where.districts, analysis)
    if analysis.correlation:
        # No indicator named: no call. The context tool's hardship index answered "is homicide density related to
        # the Black share" with the rate against hardship, a pair nobody asked for, and said nothing of it.
        indicator = next((CONTEXT_INDICATORS[m] for m in metrics if m in CONTEXT_INDICATORS), None)
        return [(names.SOCIOECONOMIC_CONTEXT, {"indicator": indicator, **_year_args(analysis)})] if indicator else []
    if years and not _in_coverage(analysis, years):
        # Outside the snapshot: show what it does cover (the yearly series for the same place).
        key, value = places[0] if places else (None, None)
        return [(names.HOMICIDES, {"group_by": "year", **({key: value} if key else {})})]
    if not places and ranking and analysis.trend and (periods or len(years) == 2):
        return _change_ranking_calls(analysis, years, periods)
    two_years = len(years) == 2 and not periods and analysis.trend
    # Separate years, month spans and hours are the count tool's filters: the period tool has none of them.
    # "Englewood murders in 2022 and in 2024 -- did they go down?": with 2024 outside the data no change can be
    # given; 2022's count is the answer and 2024 is declined (five-year averages answered another question).
    one_year_left = len(years) == 1 and not periods and bool(analysis.out_of_range_years)
    if places and (len(periods) >= 2 or two_years or (analysis.trend and not ranking and not one_year_left)) and \
            not has_time_filters(analysis):
        return _period_comparison_calls(analysis, places, years, periods)
    ranks_no_population = bool(ranking) and analysis.group_by in ("ward", "district")  # counts, with the note
    if analysis.per_capita and (ranking or where.areas or not places) and not ranks_no_population:
        if where.areas:
            return [(names.AREA_RATES, {
                **_rate_years(analysis), "community_area": where.areas[0], "compare_areas": where.areas[1:4] or None})]
        return [(names.AREA_RATES, {**_rate_years(analysis), **_ranking_args(analysis, 5)})]
    base = _count_arguments(analysis, metrics, places, years, periods)
    sets = [(key, value) for key, value in places if key in ("wards", "districts")]
    if sets and "group_by" not in base or sets and base.get("group_by") == sets[0][0][:-1]:
        # A set of wards or districts: the total for the set, then each member's count.
        base.update({"group_by": sets[0][0][:-1], "top_n": min(len(sets[0][1]), 50)})
    variants = time_variants(analysis, with_times(analysis, base))
    if len(periods) >= 2 and not places and base.get("group_by") != "year" and len(variants) == 1:
        # "2015-2017 vs 2019-2021" city-wide: each period's count and yearly average, or its ranking (one count or
        # ranking over both answered another question)
        variants = [{**variants[0], **_year_args(analysis, p)} for p in periods[:3]]
    if analysis.location_narrows and "location_type" in base and not base.get("group_by"):
        # "how many domestic ones, and how many of those in an apartment": the count first, then the narrowed one.
        variants = [{k: v for k, v in variants[0].items() if k != "location_type"}] + variants
    if not places:
        return [(names.HOMICIDES, args) for args in variants]
    share = {"city_share": True} if analysis.share_of_city else {}
    return [(names.HOMICIDES, {**args, key: value, **share}) for key, value in places[:4] for args in variants][:4]


def _property_metric(metrics: list) -> str:
    # A change over time gets both figures: the Zillow value with its change and the IHS index trend.
    return "all" if "price_trend" in metrics or "trend" in metrics else "home_value"


def _property_years(analysis: Analysis) -> dict:
    periods = analysis.periods
    years = analysis.years
    if analysis.ranks_level and len(analysis.month_years) == 1:  # "the highest Zillow value in Sept 2024: its
        month = analysis.month_years[0]                           # homicides 2016-2022": the month's value ranks
        return {"year": int(month[:4]), "month": month}
    if periods:
        return {"since_year": periods[0].start}
    # "in 2010, and now": the latest value with its change since 2010 ("if December 2024 isn't there, the latest
    # month": the latest stands in for the year asked, no change since it)
    if len(years) == 1 and analysis.until_now and not analysis.period_fallback:
        return {"since_year": int(years[0])}
    if len(analysis.month_years) == 1 and len(years) > 1:  # "2021's homicides ... the value in Sept 2024"
        month = analysis.month_years[0]
        return {"year": int(month[:4]), "month": month}
    if analysis.period_fallback and len(analysis.month_years) == 1:  # the month held, standing in for the one asked
        month = analysis.month_years[0]
        return {"year": int(month[:4]), "month": month}
    if len(years) == 1 and len(analysis.months) == 1:  # "in June 2021": that month's value, not the year's mean
        return {"year": int(years[0]), "month": f"{int(years[0])}-{int(analysis.months[0]):02d}"}
    if len(years) == 1:
        return {"year": int(years[0])}
    return {}


def _quarter_args(analysis: Analysis, base: dict) -> dict:
    """A quarter asked for ("2008 Q3") replaces the year and month: it is the price index's own period, which Zillow
    values do not have, so the call asks for the index alone."""
    if not analysis.quarter:
        return base
    kept = {k: v for k, v in base.items() if k not in ("year", "month")}
    return {**kept, "quarter": analysis.quarter, "metric": "price_trend"}


def submarket_calls(analysis: Analysis) -> list:
    """One call per IHS submarket named (at most three); its answer is the index and the IHS summary's figures."""
    base = _quarter_args(analysis, {"metric": "price_trend", **_property_years(analysis)})
    return [(names.PROPERTY, {**base, "submarket": sub.name}) for sub in analysis.submarkets[:3]]


def _areas_beside_submarkets(analysis: Analysis, areas: list) -> list:
    """The areas still to look up when submarkets are: an area read as the submarket holding it ("which IHS
    submarket is Hyde Park in") is answered by that submarket's call, unless its own Zillow value is named too
    ("Austin's home value in Sept 2024 and its IHS index")."""
    through = {sub.text for sub in analysis.submarkets if sub.match == "area"} \
        if "home_value" not in analysis.named_measures else set()
    return [a.number for a in analysis.areas if a.name not in through and a.number in areas]


def span_months(analysis: Analysis) -> list[str]:
    """The first and last month of the one month span read ("2019-09", "2024-09"), else []."""
    since = [s for s in analysis.date_spans if len(s.start) == 7 and s.end == analysis.coverage.end]
    if since:
        return [since[0].start, "latest"]  # "since January 2010": read up to the data's end; the home values' latest
    if len(analysis.date_spans) != 1:
        return []
    span = analysis.date_spans[0]
    if len(span.start) != 7 or len(span.end) != 7 or span.start == span.end:
        return []
    return [span.start, span.end]


def property_calls(analysis: Analysis, metrics: list, where: Places) -> list:
    calls = submarket_calls(analysis)
    areas = _areas_beside_submarkets(analysis, where.areas) if calls else where.areas
    zips, wards, districts = where.zips, where.wards, where.districts
    if zips and areas and "homicides" in analysis.domains:
        # "the latest Zillow value for 60624, and how many homicides did West Garfield Park have": the ZIP is the
        # home-value place, the area the homicides' (homicides are not counted by ZIP)
        areas = []
    if (calls or wards or districts) and not (areas or zips):
        return calls  # home values are by ZIP and community area: a ward is explained in the answer
    base = _quarter_args(analysis, {"metric": _property_metric(metrics), **_property_years(analysis)})
    if calls and areas:  # the submarket calls give the index; an area kept beside them asks its own Zillow value
        base = {"metric": "home_value", **_property_years(analysis)}
    ends = _two_years(analysis)
    if ends and len(areas) + len(zips) == 1 and not calls:
        # "in 2015 and 2020", "from 2015 to 2020": the value in each of the two years, not the latest one.
        place = {"community_area": areas[0]} if areas else {"zip": zips[0]}
        base = {k: v for k, v in base.items() if k != "since_year"}
        return [(names.PROPERTY, {**base, **place, "year": year}) for year in ends]
    if areas:
        return calls + [(names.PROPERTY, {**base, "community_area": areas[0], "compare_areas": areas[1:4] or None})]
    months = span_months(analysis)
    if zips and months and not calls:
        # "between September 2019 and September 2024": the value in each of the two months, not the latest one.
        plain = {k: v for k, v in base.items() if k not in ("year", "month", "since_year")}
        return [(names.PROPERTY, {**plain, "zip": zips[0], **({"year": int(m[:4])} if m != "latest" else {}),
                                  "month": m}) for m in months]
    if zips:
        return calls + [(names.PROPERTY, {**base, "zip": z}) for z in zips[:3]]
    if analysis.ranking:
        return [(names.PROPERTY, {**base, **_ranking_args(analysis, 5), **_by_zip(analysis)})]
    return [(names.PROPERTY, base)]


def _by_zip(analysis: Analysis) -> dict:
    """"The cheapest ZIP code": ZIPs ranked by their own value (the Zillow value alone: no price index by ZIP)."""
    if analysis.group_by != "zip":
        return {}
    return {"group_by": "zip", "metric": "home_value",
            **({"exclude_zips": list(analysis.excluded_zips)} if analysis.excluded_zips else {})}


def _two_years(analysis: Analysis) -> list[int]:
    """Two years named apart or as a range's ends ("2015 and 2020", "from 2015 to 2020"); [] for "since 2015",
    whose range runs to the data's end (the latest value and its change answer it), or a month span."""
    years = sorted(set(analysis.years))
    if len(years) != 2 or analysis.months or any(p.end >= analysis.coverage.last_year for p in analysis.periods):
        return []
    return years


def station_calls(where: Places, headquarters: bool = False) -> list:
    """The station of each district named, else of each area (or a ZIP's main area), else every station; the
    department's headquarters when the question asks for it."""
    if headquarters:
        return [(names.POLICE_STATIONS, {"headquarters": True})]
    if where.districts:
        return [(names.POLICE_STATIONS, {"district": d}) for d in where.districts[:3]]
    if where.area_like:
        return [(names.POLICE_STATIONS, {"community_area": a}) for a in where.area_like[:3]]
    return [(names.POLICE_STATIONS, {})]
