"""The question analyzer: entities, years, metrics, ranking and complexity found in a question.

It runs before the first model pass. The orchestrator records the result as the first trace
step and hands it to every backend: the rule planner plans from it directly, and an LLM gets
the short ``hint_text`` block in its prompt. Everything is resolved in the data's own terms:
community areas through the gazetteer (analyzer/places.py), relative years ("last year")
against the homicide snapshot's coverage, not the calendar (analyzer/years.py). The words
behind metrics, rankings and the rest are in analyzer/lexicon.py.

Cheap by design (well under 2 ms): regexes are compiled once at import and the name matcher
is built once per gazetteer.
"""
from __future__ import annotations

import calendar

import datetime
import functools
import re
import unicodedata
from dataclasses import asdict
from types import SimpleNamespace

from analyzer.analysis import (HOMICIDE_RATIOS, LAYER_MEASURES, NO_SUBJECT, Analysis, AreaCondition, HomicideCoverage, PlaceMatch,
                               Ranking, YearSpan)
from analyzer.lexicon import (
    correct_place_words,
    mentions_after,
    CHANGE_WORDS,
    expand_shorthand,
    RANK_ASC,
    RANK_DESC,
    BY_HOUR_RE,
    BY_MONTH_RE,
    BY_WEEKDAY_RE,
    BY_YEAR_RE,
    CENSUS_GROUP_RES,
    CITY_AS_A_WHOLE_RE,
    CITYWIDE_RE,
    COMPARE_RE,
    BAND_BASE_RE,
    GAP_RE,
    HIGHER_IS_BETTER,
    NOW_RE,
    CORRELATION_RE,
    STEP_RE,
    GROUP_CONTRAST_RE,
    GROUP_WORDS,
    HEADQUARTERS_RE,
    INJECTION_RE,
    INJECTION_STRIP_RE,
    LOCATION_GENERIC_RE,
    LOCATION_RE,
    LOCATIONS,
    METRIC_RES,
    PER_CAPITA_INCOME_RE,
    PER_CAPITA_RE,
    PLACES_TOGETHER_RE,
    POPULATION_ADJUSTMENT_RE,
    RANK_ASC_RE,
    RANK_DESC_RE,
    RANK_POSITION_RE,
    RANK_WORD_METRIC,
    SECOND_QUESTION_RE,
    SHARE_ASKED_RE,
    SHARE_OF_CITY_RE,
    TIMES_RE,
    TOP_N_RE,
    TREND_RE,
    UNSUPPORTED_ANY_RE,
    RACE_GROUPS,
    UNSUPPORTED_RES,
    WHICH_RE,
    add_unique,
    alternation,
    correct_spelling,
    number,
    ordinals,
    rank_position,
    without_conventions,
)
from analyzer import negations
from analyzer.fallback import EARLIEST_RE, FALLBACK_RE, WHOLE_RE, acs_vintage_warning, latest_instead, named_instead
from analyzer.moving_holidays import weekdays_beyond
from analyzer.pandemic import without_pandemic_times
from analyzer.reading import MEASURES
from analyzer.coverage import context_words, unused_phrases
from analyzer.districts import (DISTRICT_WORD, STATION_SET_RE, district_label_spans, district_of_station_area, districts_by_address,
                                named_districts)
from analyzer.asked_subject import GENERAL_WORDS, asked_subject
from analyzer.conditions import apart, change_bound, left_out_spans, read_conditions
from analyzer.groups import (MEAN_RE, asks_range, compared_groups, rest_compared, set_share_size, share_base,
                             share_of_places, spread_asked, cover_asked, weight_population)
from analyzer.count_scope import COUNT_FLOOR_RE, census_by_count, count_floor, locations_together, set_aside_shares
from analyzer.places import (extract_places, name_alderpersons, place_warnings, positions_in_lists,
                             spell_place_numbers)
from analyzer.sets import named_by_quantile, rank_within, ranked_sets
from analyzer.submarkets import figure_words_blanked, full_names, read_submarkets, unindexed_areas
from analyzer.bound_periods import read_bound_periods
from analyzer.chain_years import read_follow_year
from analyzer.left_out_times import kept_months, kept_years, read_left_out
from analyzer.times import (NOT_DAYS_RE, WHICH_WEEKDAY_RE, against_other_hours, kept_weekdays, names_only_spans,
                             read_times, spell_years)
from semantic.catalog import catalog
from semantic.not_held import FILTERING_SUBJECTS
from semantic.reading import (attributes_query, declared_query, declared_spans, measures_named, member_ranked,
                              ranked_query, sources_named,
                              time_ranked, two_periods,
                              words_named)
from analyzer.years import (
    ACS_VINTAGE_RE,
    EACH_YEAR_RE,
    SOCIO_VINTAGE_RE,
    SPAN_TOTAL_RE,
    dataset_years,
    extract_months,
    extract_years,
    homicide_coverage,
    month_groups,
    month_years,
    within_the_data,
)

_ZHVI_YEARS = (2000, 2024)  # home value coverage when the data does not report its own
_IHS_YEARS = (1997, 2025)  # the IHS price index's, likewise
_SOCIOECONOMIC_METRICS = ("poverty", "unemployment", "education", "hardship", "crowding", "dependency")


def analyze_question(question: str, data) -> Analysis:
    """Entities, years, metrics and complexity found in a question; ``hint_text`` goes to the model.

    ``data``: the data bundle the tools use (its place names and coverage); None reads without them."""
    # The reading is a sequence of phases over one namespace of what has been read so far: each phase takes the
    # names it needs and gives back the ones later phases read (a 363-line function before; no function over 80).
    w = SimpleNamespace(question=question, data=data)
    for phase in (_read_places, _read_times, _read_subjects, _read_declared_or_unsupported, _read_shape,
                  _read_warnings, _result):
        phase(w)
    return _finish(w)


def _read_places(w) -> None:
    """The question's text normalised, and its places: areas, wards, districts, ZIPs, submarkets, what is left out."""
    data, question = w.data, w.question
    # Full-width digits and letters ("２０２１") and other compatibility forms read as their plain ones.
    text = unicodedata.normalize("NFKC", str(question or "")[:2000])
    # "twenty twenty-one", "back in '19", "the twenty-eighth ward": read as the years and numbers they are
    text = name_alderpersons(spell_place_numbers(spell_years(text)), data)  # "Ald. Hopkins' ward" is ward 2
    geo = None
    if data is not None:
        try:
            geo = data.geography
        except Exception:
            geo = None
    # Injected SQL or instructions are flagged below; they must not also read as words ("drop" = a fall).
    low = INJECTION_STRIP_RE.sub(" ", text.lower().replace("’", "'"))
    cov = homicide_coverage(data)

    # Spans of the question the reading used beyond the vocabulary tables (negations, hours, spans of dates): each
    # reader below adds its own, so the coverage check does not list them as unused.
    consumed: list[tuple[int, int]] = []
    fixed = positions_in_lists(correct_place_words(expand_shorthand(low)))
    fixed = _month_bounded_spans(fixed, cov)
    if fixed != low:  # "ppl", a misspelled "district" or "police": read the words meant (place texts in lower case)
        low = text = fixed
    # "(2000 Q1 = 100)" says what the price index is relative to: no year or quarter asked, and no word left unread,
    # and the rates' population basis ("2010 census population for 2013"): conventions stated, nothing asked
    low = without_conventions(low)
    named_submarkets = full_names(low, data)  # before the areas: "Logan Square/Irving Park" is one submarket
    submarket_spans = [s["span"] for s in named_submarkets]
    by_district_word, district_word_spans = named_districts(low, data, submarket_spans, DISTRICT_WORD)
    places = extract_places(text, low, geo, submarket_spans + district_word_spans)
    # Places left out, outside Chicago or shared by two areas: taken out of (or put into) the places asked about.
    scope = negations.read_place_scope(text, low, geo, places, [s["span"] for s in named_submarkets])
    scoped_low = negations.blanked(low, scope.exclusion_spans + scope.outside_spans)
    areas, wards, districts, zips = places["areas"], places["wards"], places["districts"], places["zips"]
    areas[:] = _not_describing_a_zip(low, zips, areas)
    labels = district_label_spans(low)
    if labels and districts:  # "police district 7 (Englewood)": the district's name, not the area
        inside = {numbers[0] for kind, numbers, span in places["mentions"]
                  if kind == "area" and any(a <= span[0] < b for a, b in labels)}
        areas[:] = [a for a in areas if a["number"] not in inside]
    at_station = district_of_station_area(low, places["mentions"], data) if geo is not None else None
    if at_station:  # "the district whose station is in West Englewood": that district; the area only locates it
        areas[:] = [a for a in areas if a["number"] != at_station[0]]
        for number in at_station[1]:
            add_unique(districts, number)
    named, named_spans = named_districts(low, data, places["taken"])
    by_address, address_spans = districts_by_address(low, data)  # "the district whose station is at 1438 W 63rd St"
    named, named_spans = named + [n for n in by_address if n not in named], named_spans + address_spans
    for number in by_district_word + named:  # "the Town Hall district": a district by its station's name
        add_unique(districts, number)
    places["taken"] += named_spans
    ihs = read_submarkets(text, low, data, named_submarkets, areas, places["taken"]) if geo is not None else \
        {"submarkets": [], "quarter": None, "figure": None, "consumed": [], "triggered": False}
    if ihs["submarkets"] and scope.outside_places:
        scope.read_as_data(ihs["consumed"])
        scoped_low = negations.blanked(low, scope.exclusion_spans + scope.outside_spans)
    w.areas, w.consumed, w.cov, w.districts, w.geo, w.ihs = areas, consumed, cov, districts, geo, ihs
    w.low, w.named, w.places, w.scope, w.scoped_low, w.text = low, named, places, scope, scoped_low, text
    w.wards, w.zips = wards, zips


_BY_QUARTER_RE = re.compile(r"\b(?:which|what|lowest|highest|worst|best|peak|bottom|top|low|high)\s+quarter\b|"
                            r"\b(?:by|each|every)\s+quarter\b")
_GROWTH_COUNTED_RE = re.compile(r"\bhow\s+many\s+(?:of\s+(?:them|those|these)\s+)?(?:\w+\s+){0,2}?"
                                r"(lost|shr[aiu]nk|declined|fell|gained|grew)\b")
_COVERS_MOST_RE = re.compile(r"\b(?:covers?|covering|covered|overlaps?)\s+(?:the\s+)?(?:most|biggest|largest)\b")
_YEAR_MINUS_RE = re.compile(r"\b(?:19|20)\d\d\s+minus\s+(?:19|20)\d\d\b")


def _read_times(w) -> None:
    """Years, spans, months and hours, and the years and months left out."""
    consumed, cov, low, places, scoped_low = w.consumed, w.cov, w.low, w.places, w.scoped_low
    vintage = [m.span() for m in ACS_VINTAGE_RE.finditer(low)] + \
        [m.span(1) for m in SOCIO_VINTAGE_RE.finditer(low)]  # "(2019-2023 ACS)", "income (2008-2012)": a source
    consumed += vintage + [m.span() for m in _YEAR_MINUS_RE.finditer(low)]  # "(2022 minus 2012)": a difference
    consumed += [m.span() for m in BAND_BASE_RE.finditer(low)]
    w.acs_named = any("acs" in low[a:b] or "american" in low[a:b] for a, b in vintage)
    w.vintage = vintage
    when = extract_years(negations.blanked(low, vintage), places["taken"], cov)
    years, periods = when["years"], when["periods"]
    # Separate years, month spans, hours of the day, "so far this year vs the same stretch last year".
    times = read_times(negations.blanked(low, vintage), cov, periods)  # "the 2008-12 indicators": no December 2008
    # "black friday", "memorial day weekend": no race, day of the week or weekend of their own; the days of a run or
    # a holiday weekend left unread are no month or weekend either (they are reported as not used, from seen_low).
    seen_low = low
    if times.holiday_text or times.unread_days:
        low, scoped_low = (negations.blanked(s, times.holiday_text + times.unread_days) for s in (low, scoped_low))
    # Years and months left out ("2014 thru 2022 but don't count 2020", "not counting June"): the ones kept.
    left = read_left_out(low)
    kept = kept_years(left, low, periods, cov)
    if kept:
        years = [y for y in years if y not in left.years]
        times.year_list, times.consumed = kept, times.consumed + left.year_spans
    years_together = bool(PLACES_TOGETHER_RE.search(low) or _SUM_RE.search(low))
    if not times.year_list and not periods and len(years) == 2 and years_together and _TWO_YEARS_RE.search(low):
        # "2017 and 2020 combined": two separate years counted as one, not a comparison of the two.
        times.year_list = sorted(years)
    # "(2001 to July 2023)": the data's own end named as a span's end, not a month asked of every year
    ends = [m for m in _TO_MONTH_YEAR_RE.finditer(low)
            if f"{m.group(3)}-{_month_of(m.group(2)):02d}" >= str(cov["end"])[:7]]
    to_the_end = [m.span(2) for m in ends]
    consumed += to_the_end
    for m in ends:  # the span itself, from its first year to the data's last
        span = {"start": int(m.group(1)), "end": int(m.group(3))}
        if span not in periods and span["start"] < span["end"]:
            periods.append(span)
            if not when.get("year_range") or len(periods) == 1:
                when["year_range"] = dict(span)
    months = extract_months(negations.blanked(low, left.month_spans + times.season_text + to_the_end))
    if left.months:
        months = kept_months(left, months)
        consumed += left.month_spans
        scoped_low = negations.blanked(scoped_low, left.month_spans)  # "except the summer" asks for no months
    w.consumed, w.kept, w.left, w.low, w.months, w.periods = consumed, kept, left, low, months, periods
    w.scoped_low, w.seen_low, w.times, w.when, w.years = scoped_low, seen_low, times, when, years
    w.years_together, (w.month_years, w.years_alone) = years_together, month_years(negations.blanked(low, w.vintage))


def _read_subjects(w) -> None:
    """The measures and domains asked about, with the filters, rates, trends and correlations they take."""
    areas, consumed, districts, ihs, low, periods = w.areas, w.consumed, w.districts, w.ihs, w.low, w.periods
    places, times, wards, when, years = w.places, w.times, w.wards, w.when, w.years
    # Topic words are read with common misspellings corrected; places and years were read as written.
    spelled = correct_spelling(low)
    metrics, domains, metric_pos, locations, census_group = _metrics(spelled, places["iucr_codes"])
    if census_group:
        consumed += set_aside_shares(low)
        # "white non-hispanic": the group's words, negation and all, are read
        consumed += [(m.start() - (low[m.start() - 1:m.start()] == "$"), m.end())  # "$125k+ households"
                     for group, rx in CENSUS_GROUP_RES if group == census_group for m in rx.finditer(low)]
    # (A date beside a measure only the layer declares is that measure's: "Redfin's median sale price for the
    # window starting Jan 1 2012".)
    dated_only = not domains and bool(times.date_spans) and not UNSUPPORTED_ANY_RE.search(low) \
        and not measures_named(low)
    if dated_only:
        # "is 2023 looking better or worse than last year at this point? compare the numbers so far": days of the
        # year named and no subject; only the homicide data is kept by date (the notes say it was read so).
        add_unique(metrics, "homicides")
        add_unique(domains, "homicides")
    filters = negations.read_filters(low, metrics, locations)  # "non-domestic", "unsolved", "not on the street"
    snapshot = {"start": 2008, "end": 2012}
    others = [y for y in years if not 2008 <= y <= 2012]  # "unemployment (2008-2012) vs homicides in 2022"
    if "socioeconomic" in domains and "homicides" in domains and snapshot in periods and \
            (len(periods) >= 2 or others) and not (len(periods) < 2 and len(others) > 1):
        # "the second highest poverty rate in the 2008-2012 numbers, and its homicides from 2005 to 2022": the
        # indicators' own years name the snapshot; the other span dates the homicides
        periods = [p for p in periods if p != snapshot]
        years = [y for y in years if y not in (2008, 2012) or any(p["start"] <= y <= p["end"] for p in periods)]
        when["year_range"] = {"start": periods[0]["start"], "end": periods[0]["end"]} if periods else \
            {"start": others[0], "end": others[0]}
    if ihs["submarkets"] or ihs["triggered"]:  # a submarket, or "IHS"/"price index": the IHS price index
        add_unique(metrics, "price_trend")
        add_unique(domains, "property")
        homes = next(p for m, _, p in METRIC_RES if m == "home_value")
        if "home_value" in metrics and not homes.search(_INDEX_NAME_RE.sub(" ", low)):
            metrics.remove("home_value")  # "the IHS house price index": the index's own name, no Zillow value
    quarter = ihs["quarter"] if "property" in domains else None
    if ihs.get("since_year") and "property" in domains and not periods:
        periods = [{"start": ihs["since_year"], "end": ihs["since_year"]}]  # the change since then (rules/calls.py)
        when["year_range"] = dict(periods[0])
    consumed += ihs["consumed"] if "property" in domains else []
    # "safe"/"dangerous" alone means homicides; "more than"/"less than" are not metrics.
    # "the 5 lowest income community areas (per capita)": the words qualify the income, not the homicides.
    # ("homicides per 1,000 households": a declared ratio's own words ask no rate per resident)
    own = [(a, b) for name, a, b in declared_spans(low, LAYER_MEASURES) if name in HOMICIDE_RATIOS]
    unrated = "".join(" " if any(a <= i < b for a, b in own) else ch for i, ch in enumerate(low)) if own else low
    per_capita = bool(PER_CAPITA_RE.search(_INCOME_PER_CAPITA_RE.sub(" ", unrated))) and "homicides" in metrics
    if re.search(r"\b(?:unemployment|poverty|crime|murder|homicide|arrest|clearance)\s+rates?\b", low) and \
            not re.search(r"\b(?:homicide|murder|killing)[\s-]+rates?\b", low) and \
            not re.search(r"\bper[\s-]capita\b(?!\s+income)|\bper\s+(?:100|1,?000|person|resident)", low):
        per_capita = bool(re.search(r"\b(?:crime|murder|homicide)[\s-]+rates?\b", low))  # ("highest-homicide-rate")
    not_rate = _NOT_RATE_RE.search(low)
    if not_rate:  # "by count, not rate": the rate named only to be set aside
        per_capita = False
        consumed.append(not_rate.span())
    # "that submarket's year-over-year price change": the IHS summary's own figure, not a change over the years asked
    w.figure_free = negations.blanked(low, ihs["consumed"]) if ihs["figure"] and "property" in domains else low
    trend = bool(TREND_RE.search(w.figure_free))
    by_year = bool(BY_YEAR_RE.search(low))
    correlation = bool(CORRELATION_RE.search(low) or GROUP_CONTRAST_RE.search(low)) and len(domains) >= 2
    consumed += [m.span() for m in STEP_RE.finditer(w.figure_free)]  # "vs the month before": the step's grain
    if trend:
        add_unique(metrics, "trend")
    if correlation:
        add_unique(metrics, "correlation")
        metrics = _correlated_pair(low, metrics, metric_pos)
    if "home_value" in metrics and trend:
        add_unique(metrics, "price_trend")
    if not metrics and (areas or wards or districts) and re.search(r"\bcrime\b", low):
        add_unique(metrics, "homicides")
        add_unique(domains, "homicides")
    w.by_year, w.census_group, w.consumed, w.correlation = by_year, census_group, consumed, correlation
    w.dated_only, w.domains, w.filters, w.locations = dated_only, domains, filters, locations
    w.metric_pos, w.metrics, w.per_capita, w.periods = metric_pos, metrics, per_capita, periods
    w.quarter, w.spelled, w.trend, w.years = quarter, spelled, trend, years


def _read_declared_or_unsupported(w) -> None:
    """What only the layer's declarations name, and the subjects the data lacks."""
    areas, data, districts, domains, low, metrics = w.areas, w.data, w.districts, w.domains, w.low, w.metrics
    periods, text, wards, years, zips = w.periods, w.text, w.wards, w.years, w.zips
    # "Has Logan Square grown?", "which community area grew the most since 2010": a place grows in people, so with
    # no other topic it is the population (the years would otherwise make it a count of homicides).
    if not domains and (areas or zips or _AREAS_WORD_RE.search(low)) and (
            _GROWTH_RE.search(low) or re.search(r"\b(?:bigger|smaller)\b", low)):
        add_unique(metrics, "population")
        add_unique(domains, "census")
    # A subject only the semantic layer's declarations name ("the alderman of the 42nd ward"): read there, before a
    # ward alone is taken for homicides or the subject for one the data lacks.
    window = _window_start_re().search(low)
    starts = window and [s.start for s in w.times.date_spans if len(s.start) == 10]
    if starts:
        w.consumed.append(window.span())
    if metrics and set(metrics) <= {"home_value", "trend"} and "redfin" in sources_named(low) \
            and "zhvi" not in sources_named(low):
        # "the most expensive Redfin neighborhood by median sale price": the price words are Redfin's, not Zillow's
        metrics[:] = [m for m in metrics if m != "home_value"]
        domains[:] = [d for d in domains if d != "property"]
        w.metric_pos.pop("home_value", None)
    declared = _read_declared(text, data, areas, wards, districts, zips, years, w.months,
                              starts[0] if starts else "") if not [m for m in metrics if m != "trend"] else None
    if declared and "trend" in metrics:  # "Redfin homes sold: 2016 vs 2018, % change": the change is the layer's
        metrics.remove("trend")
    if not domains and not declared and not UNSUPPORTED_ANY_RE.search(low) and (
            wards or districts or (years and (areas or periods))):
        add_unique(metrics, "homicides")  # wards, districts and year ranges only exist in the homicide data
        add_unique(domains, "homicides")
    # "before covid hit" dates it; "the IHS change since the pandemic start" is a published column
    unsupported = _unsupported(figure_words_blanked(without_pandemic_times(low)), metrics)
    if not metrics and not unsupported and not declared:
        # "what's the life expectancy in englewood": no measure the data holds, but a subject named, declined by name
        subject = asked_subject(low)
        if subject:
            unsupported.append(subject)
    if "victim demographics" in unsupported:
        # "the average age of homicide victims": the census's age of residents would answer another question; an
        # age or race asked of the residents too ("the population, and how many residents are 65+") stays.
        victims = dict(UNSUPPORTED_RES)["victim demographics"]
        rest = victims.sub(" ", low)
        metrics[:] = [m for m in metrics if m not in ("age", "race") or
                      any(p.search(rest) for name, _, p in METRIC_RES if name == m)]
        if not any(m in CENSUS_METRICS_OF_ANALYZER for m in metrics) and "census" in domains:
            domains.remove("census")

    if unsupported and set(unsupported) <= set(FILTERING_SUBJECTS) and metrics == ["homicides"] \
            and not SECOND_QUESTION_RE.search(low) and not _TOTAL_ASKED_RE.search(low):
        # "How many of 2022's homicides involved a gun?" asks only for a count the data cannot narrow to: the count
        # of all homicides would answer another question, so the question is declined whole.
        metrics.clear()
        domains[:] = [d for d in domains if d != "homicides"]
    w.declared, w.unsupported = declared, unsupported


# "how many were teenagers? out of how many total": the count the filter would narrow is asked for too
_TOTAL_ASKED_RE = re.compile(r"\bout\s+of\s+how\s+many\b|\bof\s+how\s+many\s+(?:in\s+)?(?:total|all)\b")


def _read_sets(w, condition, ranking: dict | None, consumed: list) -> None:
    """The places as sets (analyzer/groups.py): two compared ("above the median vs the rest"), one's spread ("the
    median across the areas"), a threshold's count as a share of all ("what percent of areas have ...")."""
    w.compared = compared_groups(w.low, condition, ranking, consumed, w.metric_pos)
    w.spread = spread_asked(w.low, condition, consumed) if not w.compared else None
    w.cover = cover_asked(w.low, consumed) if not (w.compared or w.spread or condition) else None
    w.weight_by = weight_population(w.low, consumed)
    sets = ranked_sets(w.low, w.metric_pos)
    # a bound picks the places counted, or a second set does ("what % of the 20 poorest are also among the 20 ...")
    w.share_of_places = (bool(condition) or len(sets) >= 2) and share_of_places(w.low, consumed)
    w.share_base = share_base(w.low, w.metric_pos, consumed) if w.share_of_places else None
    if w.share_of_places and not w.share_base and set_share_size(w.low) in {s.n for s in sets}:
        w.share_base = "ranked_set"  # "of the 20 ..., how many had ...? what % of the 20 is that"


def _follow_year(w, ranking: dict | None):
    """A ranking in one year, then the ranked place counted in another (analyzer/chain_years.py). A ranking by a
    home value dated by its month ("the 5 cheapest by home value in sept 2024: how many killings did they have in
    2022") is none: the month is the home value's."""
    if not ranking or w.areas or w.wards or w.districts or w.zips:
        return None
    if ranking.get("metric") == "home_value" and w.month_years:
        return None
    return read_follow_year(negations.blanked(w.low, w.vintage), w.years, w.periods)


def _bound_periods(w) -> list:
    """Each clause's timed measure with its own period (analyzer/bound_periods.py). Not beside a follow-up's year
    (chain_years binds that) or a month named with its year (a home value's month, bound by the compositions)."""
    if w.follow or w.month_years or "homicides" not in w.metrics:
        return []
    cov = w.cov

    def metrics_of(text: str) -> list:
        return _metrics(correct_spelling(text), [])[0]

    return read_bound_periods(negations.blanked(w.low, w.vintage), lambda t: extract_years(t, [], cov), metrics_of,
                              lambda t: bool(PER_CAPITA_RE.search(t)),
                              lambda t: _ranking(t, metrics_of(t), {}) is not None, extract_months)


def _periods_not_held(w, result: dict) -> None:
    """The latest period in place of one past the data where a fallback is asked, and a survey vintage not held, each
    said in the lead (analyzer/fallback.py)."""
    low, data = w.low, w.data
    latest_instead(result, low, getattr(data, "coverage", None) or {} if data is not None else {})
    fallback = FALLBACK_RE.search(low)
    if fallback:
        result["period_fallback"] = named_instead(result, low[fallback.start():]) or (
            "latest_full" if WHOLE_RE.search(low[fallback.start():]) else "latest")
    earliest = EARLIEST_RE.search(low)
    if fallback or earliest:  # "if you don't have that vintage, give me the latest": the fallback's words are read
        said = (fallback or earliest).group(0)
        result["not_used"] = [p for p in result.get("not_used") or [] if p not in said
                              and not (p == "vintage" and "acs" in low)]
    vintage = acs_vintage_warning(low) if "census" in w.domains else None
    if vintage:
        result["warnings"] = [*(result.get("warnings") or []), vintage]


def _link_fields(w, result: dict) -> None:
    """Where a place's link carries the figures: a station's area, a district's own count beside it, the members of
    a set counted by the side of zero their population change is on."""
    result["station_area"], result["station_share"] = w.station_area, w.station_share
    # "among the 10 ..., how many lost population since 2010": the members on one side of zero, counted
    counted = _GROWTH_COUNTED_RE.search(w.low) if result.get("population_growth") else None
    result["growth_counted"] = (("below" if counted.group(1)[0] in "lsdf" else "above") if counted else None)
    result["asks_pooled"] = bool(re.search(r"\bpooled\b|\b(?:combined|overall|aggregate)\s+(?:share|percent(?:age)?|"
                                           r"proportion)\b", w.low))
    # (a rate asked of the station's area beside "how many homicides did district 7 record": the district's count too)
    result["district_counted"] = w.station_area and (not w.per_capita or "how many" in w.low) \
        and bool(_DISTRICT_COUNTED_RE.search(w.low))
    # the count named again for the station's area ("... compared with homicides in the community area where the
    # district 6 station sits", "give both counts")
    # (a district a ranking found counted its own: "the district with the most homicides in 2020 ... how many 2020
    # homicides happened in the area where the station is")
    ranked = w.station_area and bool(w.ranking) and w.group_by == "district"
    result["area_counted_too"] = (result["district_counted"] or ranked) and (
        len(re.findall(r"\b(?:homicides?|murders?|killings?)\b", w.low)) >= 2 or bool(re.search(
            r"\b(?:both|each|the\s+two)\s+(?:counts|numbers|totals)\b", w.low)))


def _floor_and_ranking(w) -> tuple:
    """A count floor ("among wards with at least 50 homicides": which places are ranked, not "the least") and the
    ranking the rest of the words ask for."""
    low, metrics = w.low, w.metrics
    floor = COUNT_FLOOR_RE.search(low) if "homicides" in metrics else None
    if floor:
        w.consumed.append(floor.span())
    ranked_low = low if not floor else low[:floor.start()] + " " * len(floor.group(0)) + low[floor.end():]
    # "at least double", "at least 40%": a bound, not "the least"
    ranked_low = _AT_LEAST_RE.sub(lambda m: " " * len(m.group(0)), ranked_low)
    # "the community area that covers most of that ZIP": the link's words (semantic/datasets/crosswalk.py), no ranking
    return floor, _ranking(negations.blanked(ranked_low, [m.span() for m in _COVERS_MOST_RE.finditer(low)]),
                           metrics, w.metric_pos)


def _conditions(w) -> list:
    """The bounds that pick places; every group's own words ("earning $125,000 or more") are a group, not a bound.
    Read where no place is named, or where one named area is ranked inside a threshold's set ("among areas over 90%
    Black, where does Chatham rank")."""
    low, areas = w.low, w.areas
    group_words = [m.span() for _, rx in CENSUS_GROUP_RES for m in rx.finditer(low)]
    others = w.wards or w.districts or w.zips
    ranked_inside = len(areas) == 1 and not others and bool(_RANK_OF_RE.search(low)) and \
        bool(re.search(r"\b(?:among|of)\s+(?:the\s+)?(?:community\s+)?areas\s+(?:where|with|that|whose)\b", low))
    found = read_conditions(low, w.metric_pos, group_words) if not (areas or others) or ranked_inside else []
    w.consumed += left_out_spans(low, found)
    return found


def _read_shape(w) -> None:
    """The ranking, the grouping, the condition that picks places, and whether places are compared."""
    areas, by_year, census_group, consumed, cov = w.areas, w.by_year, w.census_group, w.consumed, w.cov
    districts, domains, ihs, low = w.districts, w.domains, w.ihs, w.low
    metrics, per_capita, periods, places, zips = w.metrics, w.per_capita, w.periods, w.places, w.zips
    scoped_low, times, trend, wards, when, years = w.scoped_low, w.times, w.trend, w.wards, w.when, w.years
    floor, ranking = _floor_and_ranking(w)
    follow = _follow_year(w, ranking)
    if follow:  # "whichever ward led in 2020, how many did it have the next year": rank 2020, then count 2021
        years = follow.ranked
        when["year_range"] = {"start": years[0], "end": years[-1]}
        consumed += follow.spans
    asked_years = list(years)
    inside = within_the_data(years, periods, times.year_list, cov["first"], cov["last"]) \
        if "homicides" in domains and "property" not in domains else None
    if inside:  # "2022, and so far in 2024": 2022's count, 2024 declined (the warnings below name it)
        years, periods, when["year_range"], times.year_list = \
            inside["years"], inside["periods"], inside["year_range"], inside["year_list"]
    # Years that only date a span of months ("December 2019 and January 2020") ask for no yearly series.
    several_years = len(years) >= 2 and not periods and not times.date_spans
    priced = bool(ihs.get("figure")) and "property" in domains  # "year-over-year price change": a column, no series
    yearly = by_year or (trend and not periods and not priced) or several_years
    group_by = _group_by(scoped_low, ranking, places, yearly)
    if group_by == "hour" and times.hour_spans and names_only_spans(BY_HOUR_RE, low, times):
        # "how many at night", "which area had the most at night": a filter on the night's hours, with the
        # question's other grouping if any; "more common at night?": every hour side by side answers it.
        other = _group_by(BY_HOUR_RE.sub(" ", low), ranking, places, by_year or several_years)
        if other is None and against_other_hours(low, times):
            times.hour_spans = []
        else:
            group_by = other
    if group_by == "zip" and "property" not in domains:
        group_by = None  # only home values are published by ZIP
    if "property" in domains and _BY_QUARTER_RE.search(low):
        group_by = "quarter"  # "the lowest quarter between 2008 and 2015": the price index's quarters ranked
        consumed += [m.span() for m in _BY_QUARTER_RE.finditer(low)]
    if ihs["submarkets"] and group_by == "year" and domains == ["property"]:
        group_by = None  # "year over year", "changed": a submarket's answer always carries its quarterly series
    # "homicides in the areas where more than 30% of households are below poverty": areas picked by a measure
    # Every group's own words ("earning $125,000 or more" beside "the highest percentage of Black residents") are a
    # group, not a bound on the areas
    conditions = _conditions(w)
    condition, w.more_conditions = (conditions or [None])[0], conditions[1:]
    majority = _majority(low, census_group, conditions, consumed)
    if majority and not (areas or wards or districts or zips):
        condition = _with_majority(w, condition, majority, census_group)
    if condition and condition.metric == "homicides":
        floor = None  # the count picks the areas the other measure is asked of: a condition, not a listing's floor
    if condition:
        consumed += [condition.span] + [c.span for c in w.more_conditions]
        # The areas are picked, not ranked or listed by their homicides; a ranking by another measure ranks within
        # them ("the highest homicide rate in 2022 among areas with more than 50,000 residents").
        within = ranking and ranking["metric"] not in (None, condition.metric) and \
            condition.metric not in ("income", "poverty", "unemployment", "education", "hardship", "crowding",
                                     "dependency")
        apart = ranking and ranking["metric"] == condition.metric and \
            (ranking["order"] == "asc") == (condition.side in ("above", "at_least"))
        ranking = {**ranking, "apart": True} if apart else ranking if within else None
        group_by = None
    place_count = len(areas) + len(wards) + len(districts) + len(zips)
    if _rank_asked(w, place_count):
        ranking = None  # "rank out of the 77 community areas (1 = most)": the position asked, not a top 77
    comparison = (bool(COMPARE_RE.search(low)) and not condition) or place_count >= 2 or len(periods) >= 2 or \
        len(times.date_spans) >= 2 or len(times.hour_spans) >= 2
    if areas and "homicides" in metrics and not re.search(r"\bhow\s+many\b|\bnumber\s+of\b|\bcount\b", low) and \
            re.search(r"\b(?:dangerous|safe|safer|safest|safety|violent|deadl(?:y|ier|iest))\b", low) and \
            not (group_by == "year" and len(areas) == 1):
        # how safe a place is depends on its size: the rate, not the count; but one place's years ("the deadliest
        # year in austin") rank the same by count, and its counts are what each year holds
        per_capita = True
    ranking = _and_the_second(low, ranking, consumed)
    w.asked_years, w.comparison, w.condition, w.consumed = asked_years, comparison, condition, consumed
    _read_sets(w, condition, ranking, consumed)
    w.floor, w.follow, w.group_by, w.per_capita, w.periods = floor, follow, group_by, per_capita, periods
    w.place_count, w.ranking, w.years = place_count, ranking, years


def _rank_asked(w, place_count: int) -> bool:
    """"Where did Englewood rank among community areas for homicides": one named area's position among all of them,
    counted from the highest unless the question says 1 is the lowest."""
    low = w.low
    rank_of = _RANK_OF_RE.search(low) if place_count == 1 else None
    if rank_of:
        w.consumed += [rank_of.span()] + [m.span() for m in _RANK_SCALE_RE.finditer(low)] + \
            [m.span() for m in _RANK_ASC_FIRST_RE.finditer(low)]
    w.asks_rank = bool(rank_of)
    w.rank_order = "asc" if rank_of and _RANK_ASC_FIRST_RE.search(low) else "desc"
    return bool(rank_of)


def _unknown_submarkets(w) -> list[str]:
    """"The Loop / Near North Side submarket": a slashed name the IHS index has no series of, said in the lead."""
    return [f"{AREA_ONLY} an IHS submarket named '{name}' (the price index has no series for {unindexed_areas(w.geo)}); "
            "the figures here are not that submarket's." for name in w.ihs.get("unknown", [])]


def _late_home_months(w, data) -> list[str]:
    """"Zillow's value for 60614 in December 2024, and for Sept 2024": a month past Zillow's last is said and left
    out, the months it holds answered (all of them past it: the query's own error declines the question)."""
    try:
        end = str(data.coverage["zhvi"]["end"])[:7]
    except Exception:  # no coverage said: the query checks the months
        return []
    late = [m for m in w.month_years if m > end]
    if "home_value" not in w.metrics or not late or len(late) == len(w.month_years):
        return []
    w.month_years = [m for m in w.month_years if m not in late]
    w.times.date_spans = [s for s in w.times.date_spans if s.start[:7] not in late]  # (a month's span is one too)
    named = ", ".join(f"{calendar.month_name[int(m[5:])]} {m[:4]}" for m in late)
    return [f"{AREA_ONLY} {named}: Zillow's home values end in {calendar.month_name[int(end[5:])]} {end[:4]}."]


def _late_months(month_years: list, cov: dict) -> list[str]:
    """"August 2023? if that's past the end, July 2023 so far": a month named with the data's last year past its end,
    said beside the months answered (Zillow's months of later years are Zillow's)."""
    late = sorted({int(m[5:]) for m in month_years if m[:4] == str(cov["last"]) and m[:7] > cov["end"][:7]})
    return [f"{_month_names(late)} {cov['last']} is after the homicide data ends ({_long_date(cov['end'])})."] \
        if late else []


def _rate_picks_a_set(w) -> bool:
    """"The five areas with the highest rates: how many of their homicides happened between 10pm and 4am": the rate
    only picks a set, the hours count its homicides (the query carries both)."""
    return any(s.metric == "homicide_rate" and s.n >= 2 for s in ranked_sets(w.low, w.metric_pos))


def _rate_grain_warning(w) -> list[str]:
    """"Which police district has the highest homicide rate": districts ranked, and no population to divide by."""
    wards_ranked, districts_ranked = (bool(w.ranking) and w.group_by == g for g in ("ward", "district"))
    if not (w.per_capita and (w.wards or w.districts or wards_ranked or districts_ranked or w.zips)) or w.areas \
            or w.station_area or w.office_zip and "main_community_area" in (
                name for name, _ in measures_named(w.text)):  # the rate is the linked area's
        return []
    kinds = " or ".join(x for x in (("ward" if w.wards or wards_ranked else ""),
                                    ("police district" if w.districts or districts_ranked else ""),
                                    ("ZIP code" if w.zips else "")) if x)
    return [f"{RATE_WITHOUT_POPULATION} by {kinds}: the data has no population by {kinds} (population is published "
            "by community area); the count is given instead."]


def _read_warnings(w) -> None:
    """The spans the reading used, the warnings the answer gives, and how complex the question is."""
    areas, asked_years, comparison, condition = w.areas, w.asked_years, w.comparison, w.condition
    consumed, correlation, cov, data, dated_only = w.consumed, w.correlation, w.cov, w.data, w.dated_only
    districts, domains, filters, geo, group_by = w.districts, w.domains, w.filters, w.geo, w.group_by
    ihs, low, metrics, months, named, per_capita = w.ihs, w.low, w.metrics, w.months, w.named, w.per_capita
    periods, place_count, places, quarter = w.periods, w.place_count, w.places, w.quarter
    ranking, scope, text, times, trend = w.ranking, w.scope, w.text, w.times, w.trend
    unsupported, wards, years = w.unsupported, w.wards, w.years
    if per_capita and (times.date_spans or times.hour_spans) and not _rate_picks_a_set(w):
        times.without_spans()  # the rates tool takes whole years: the spans are reported, not claimed
    consumed += times.consumed + [m.span() for m in NOT_DAYS_RE.finditer(low)]
    invalid, warnings = place_warnings(places, geo)
    if dated_only:
        warnings.append(NO_SUBJECT)
    warnings += scope.warnings
    # Rates per 100,000 and rankings by change come from tools that take no filters or exclusions.
    ranks_change = bool(ranking) and trend and not place_count and (bool(periods) or len(years) == 2)
    subtracts = domains == ["census"] and not areas and bool(set(metrics) & {"population", "race", "age"})
    # "Riverdale aside, which area has the lowest income": a ranking of areas sets the area aside in the answer
    # (rules/answer.py), whichever tool ranks them.
    sets_aside = bool(ranking) and not areas and ("homicides" not in domains or per_capita) and not ranks_change
    consumed += negations.used_spans(scope, filters, domains, per_capita or ranks_change, subtracts or sets_aside,
                                     ranks_zips=group_by == "zip" and bool(ranking))
    _read_links(w)
    office_zip = w.office_zip or any(name == "ward_office_zip" for name, _ in measures_named(w.text))
    warnings += _survey_warnings(w) + ([] if office_zip or w.station_area else _area_only_warnings(
        domains, places, metrics, group_by if ranking and group_by in ("ward", "district") else None))
    warnings += _rate_grain_warning(w) + _unknown_submarkets(w)
    # "home value (Zillow, Jan 2024) and homicides in 2023": a year named only in the home value's month is Zillow's
    # months all past the homicide data (Zillow's own): their years are no homicide years
    warnings += _late_home_months(w, data)
    w.beyond = bool(w.month_years) and all(int(m[:4]) > cov["last"] for m in w.month_years)
    dated = {int(m[:4]) for m in w.month_years} - set(w.years_alone) \
        if {"homicides", "property"} <= set(domains) and (w.years_alone or w.beyond) else set()
    if ihs.get("figure") and {"homicides", "property"} <= set(domains):
        # "its change since 2000 in the IHS 2025 Q4 summary": the release's quarter and the column's base date the
        # column; they are no homicide years
        dated |= {y for y in [_release_year(w, quarter)] if y} | ({2000} if ihs["figure"] == "change_since_2000"
                                                                  else set())
    out_years, year_warnings = _year_warnings([y for y in asked_years if y not in dated], domains, cov, data,
                                              bool(ihs["submarkets"] or quarter or declared_spans(low, ("price_index",))))
    for m in _OTHER_CENSUS_RE.finditer(low):
        # "the 2000 census": a census ChiQA does not hold (it has the 2010 census and the ACS estimates)
        year = int(m.group(1) or m.group(2))
        if year != 2010 and year not in out_years:
            out_years.append(year)
            year_warnings.append(f"The {year} census is not in ChiQA's data: it holds the 2010 census, the "
                                 "2019-2023 ACS estimates and the 2008-2012 ACS indicators.")
    if _months_after_the_end(asked_years, months, domains, cov):
        year_warnings = _months_past_the_end(w, months, cov, out_years, year_warnings)
    late = _late_months(w.month_years, cov) if "homicides" in domains and not w.beyond else []
    warnings += list(dict.fromkeys(year_warnings + late))
    injection = bool(INJECTION_RE.search(text))
    if injection:
        warnings.append("The question contains instruction-like text or markup; it is treated as plain text.")
    if unsupported and not domains:
        # The question's own word beside the data's name for it: "transit ('commute')" says the commute was read.
        named = [label if word.lower() in label.lower() else f"{label} ('{word}')"
                 for label, word in zip(unsupported, _unsupported_words(low, unsupported))]
        warnings.append("ChiQA's data covers homicides (not other crimes), census demographics, socioeconomic "
                        "indicators and home values; it has nothing on " + ", ".join(named) + ".")

    # A ranking's top place, or the areas a measure picks, feed the next call.
    chained = (bool(ranking) or bool(condition)) and len([d for d in domains if d != "iucr"]) >= 2
    score = max(0, len(domains) - 1) * 2 + max(0, place_count - 1) + (1 if comparison else 0) + \
        (2 if chained else 0) + (2 if correlation else 0) + (1 if per_capita else 0) + (1 if len(periods) >= 2 else 0)
    complexity = "simple" if score == 0 else ("medium" if score <= 2 else "complex")
    if len(domains) >= 3:
        complexity = "complex"

    growth = _population_growth(low, metrics)
    if growth:  # "which grew faster": how the places are ranked or compared
        consumed += [m.span() for pattern in (_GROWTH_RE, _IN_PERCENT_RE) for m in pattern.finditer(low)]
    w.chained, w.complexity, w.consumed, w.growth = chained, complexity, consumed, growth
    w.injection, w.invalid, w.out_years, w.warnings = injection, invalid, out_years, warnings


def _result(w) -> None:
    """The analysis's fields, from what the phases read."""
    areas, by_year, census_group, chained = w.areas, w.by_year, w.census_group, w.chained
    comparison, complexity, consumed, correlation = w.comparison, w.complexity, w.consumed, w.correlation
    cov, districts, domains, follow, group_by = w.cov, w.districts, w.domains, w.follow, w.group_by
    growth, ihs, injection, invalid, kept, left = w.growth, w.ihs, w.injection, w.invalid, w.kept, w.left
    locations, low, metrics, months, out_years = w.locations, w.low, w.metrics, w.months, w.out_years
    per_capita, periods, places, quarter, ranking = w.per_capita, w.periods, w.places, w.quarter, w.ranking
    scoped_low, seen_low, spelled, times, trend = w.scoped_low, w.seen_low, w.spelled, w.times, w.trend
    unsupported, wards, warnings, when, years = w.unsupported, w.wards, w.warnings, w.when, w.years
    zips = w.zips
    result = {
        "complexity": complexity,
        "areas": areas,
        "wards": wards,
        "districts": districts,
        "zips": zips,
        "iucr_codes": places["iucr_codes"],
        "years": years,
        "year_range": when["year_range"],
        # The same span said twice ("in 2019-2022 ... of the city's 2019-2022 homicides") is one period, not two
        # to compare.
        "periods": [p for i, p in enumerate(periods)
                    if all((q["start"], q["end"]) != (p["start"], p["end"]) for q in periods[:i])],
        "months": months,
        "left_out_years": left.years if kept else [],
        "left_out_months": left.months,
        "follow_year": follow.year if follow else None,
        "bound_periods": _bound_periods(w),
        "year_list": times.year_list,
        "date_spans": times.date_spans,
        "hour_spans": times.hour_spans,
        "weekdays": weekdays_beyond(kept_weekdays(low), times.holidays),
        "month_days": times.month_days,
        "holidays": times.holidays,
        "asks_average": times.asks_average,
        "asks_percent_change": times.asks_percent_change,
        "relative_year_note": times.note or when["relative_note"],
        "recent": when["recent"],
        "metrics": metrics,
        "domains": domains,
        "locations": locations,
        "group_by": group_by,
        "unsupported": unsupported,
        "unsupported_words": _unsupported_words(low, unsupported),
        "ranking": ranking,
        "per_capita": per_capita,
        "trend": trend,
        # Which way a "biggest change" ranking runs: falls rank the largest decreases first.
        "change_direction": "down" if re.search(r"\b(?:decreas\w*|drops?|dropped|declin\w*|(?:fell|falls?)(?!\s+on\b)|fallen|"
                                                r"improv\w*|reduc\w*|went\s+down|go\s+down)\b", low) else "up",
        "census_group": census_group,
        "population_growth": growth,
        "census_by_count": census_by_count(spelled, census_group),
        # "domestic homicides" asks for the domestic cases only, not a domestic/non-domestic split.
        "domestic_filter": _domestic_only(low),
        "correlation": correlation,
        "comparison": comparison,
        "chained": chained,
        "citywide": bool(CITYWIDE_RE.search(scoped_low)),
        "city_as_a_whole": bool(CITY_AS_A_WHOLE_RE.search(scoped_low)),
        "broad_places": places["broad"],
        "invalid": invalid,
        "out_of_range_years": out_years,
        "coverage": {"homicides": {"first_year": cov["first"], "last_year": cov["last"],
                                   "last_full_year": cov["last_full"], "end": cov["end"]}},
        "warnings": warnings,
        "injection_suspected": injection,
        "submarkets": ihs["submarkets"],
        "quarter": quarter,
        "price_figure": ihs["figure"],
        "price_figures_beside": ihs.get("figures_beside", []),
        "not_used": _with_unread(seen_low, times.unread_days, _not_used(
            seen_low, places["taken"], consumed, metrics, domains, group_by, locations, bool(
                areas or wards or districts or zips) and not unsupported, context_words(
                metrics, comparison or bool(ranking) or trend,
                len(years) >= 2 or bool(periods) or by_year or group_by == "month", per_capita,
                trend or bool(periods)))),
    }
    w.result = result


_WHICH_ZIP_RE = re.compile(r"\b(?:what|which)\s+(?:zip|zipcode|postal)\b")


def _link_direction(w, named: list[str]) -> list[str]:
    """"What ZIP covers the largest part of Austin": the covering words run from an area to its ZIP when a ZIP is
    asked for and an area named (no ZIP), not from a ZIP to the area covering it."""
    # ("the area with the highest % without a diploma: what zip is it mostly in": an area found by a ranking)
    area_found = bool(w.areas) or bool(w.ranking) and w.ranking.get("metric") not in (None, "home_value") \
        and w.group_by in (None, "community_area", "zip")
    if "main_community_area" in named and area_found and not w.zips and _WHICH_ZIP_RE.search(w.low):
        return ["main_zip" if n == "main_community_area" else n for n in named]
    return named


_WHICH_GRAIN_RE = re.compile(r"\b(?:which|what)\s+(?:(?:clock\s+)?(hour)s?(?:\s+of\s+(?:the\s+)?day)?|(weekday|day\s+of\s+(?:the\s+)?"
                             r"week)|(month)|(year))\b")
# ("what IHS submarket is it in" asks a place's link, not a ranking of submarkets)
_SUBMARKET_RANKED_RE = re.compile(r"\b(?:which|what)\s+(?:(?:chicago|city)\s+)?(?:ihs\s+)?submarkets?\b"
                                  r"(?!\s+(?:is|was|does|did)\s+(?:it|that|this|the\s+area|the\s+neighbou?rhood)\s+"
                                  r"(?:\w+ly\s+)?"
                                  r"(?:in|part|lie|sit|fall|belong)\b)|"
                                  r"\bsubmarkets?\s+(?:ranked|by)\b|\b(?:rank|sort|order)\s+(?:the\s+)?(?:\d+\s+)?"
                                  r"(?:(?:chicago|city)\s+)?(?:ihs\s+)?submarkets\b")
def _release_year(w, quarter: str | None) -> int | None:
    """The year of an IHS release quarter that dates a release column beside homicides ("the year-over-year change
    in the 2025 Q4 release, and how many homicides in 2022"): no homicide year, for the warnings and the years."""
    if quarter and w.ihs.get("figure") and {"homicides", "property"} <= set(w.domains):
        return int(quarter[:4])
    return None


def _release_dates_its_column(w, result: dict) -> None:
    """The release's year and quarter date the column; the homicides keep their own years (they had been 2022-2025,
    read as the whole data)."""
    quarter = result.get("quarter")
    released = _release_year(w, quarter)
    if released is None:
        return
    kept = sorted(y for y in w.years if y != released)
    result["year_range"] = {"start": kept[0], "end": kept[-1]} if kept else None
    result["years"] = [y for y in result["years"] if y != released]
    quarter_months = list(range(3 * int(quarter[-1]) - 2, 3 * int(quarter[-1]) + 1))
    result["months"] = [] if result.get("months") == quarter_months else result.get("months")
    if len(kept) <= 1:  # one homicide year: no series (the change words are the release column's)
        result["group_by"] = None if result["group_by"] == "year" else result["group_by"]
        result["trend"] = False


def _with_majority(w, condition, majority: re.Match, census_group):
    """"majority-Black community areas": the group's share of residents over half; beside another bound ("poverty
    above the median AND majority Hispanic") a second condition. Returns the first condition."""
    group = AreaCondition(_group_metric(census_group), "above", 50.0, majority.span(), percent=True)
    w.consumed.append(majority.span())
    if condition:
        w.more_conditions = [*w.more_conditions, group]
        return condition
    w.more_conditions = []
    return group


def _majority(low: str, census_group, conditions: list, consumed: list):
    """"majority-Black" as the bound it names, None where a condition already states it ("majority Black (more than
    50% Black)": the bound said twice, its words read)."""
    majority = _MAJORITY_RE.search(low) if census_group else None
    if majority and any(c.metric in ("race", _group_metric(census_group)) and c.value == 50.0 and c.side == "above"
                        for c in conditions):
        consumed.append(majority.span())
        return None
    return majority


def _runner_up_gap(low: str, ranking: dict | None) -> bool:
    """"... and how far ahead of the runner-up was it": the gap asked; the runner-up is what the first place is
    measured against, not the place asked (its rank stays first)."""
    asked = bool(_RUNNER_UP_GAP_RE.search(low))
    if asked and ranking and ranking["position"] == 2:
        ranking["position"] = 1
    return asked


# A place in a ranking by its position ("the 1st community area's", "the 5th area's", "the tenth-ranked ward")
_POSITIONS = ordinals(20)
_POSITION_RE = re.compile(r"\b(" + alternation(_POSITIONS) + r")(?=(?:[\s-]+[\w-]+){0,2}?[\s-]+(?:community\s+areas?|"
                          r"areas?|neighbou?rhoods?|wards?|districts?|zips?|places?|ranked|one)\b|['\u2019]s\b|"
                          r"[\s-]+(?:highest|lowest|most|least)\b|"
                          # "between the 2nd and the 10th highest": a position paired with the next
                          r"\s+(?:and|to|vs\.?|versus|minus)\s+(?:the\s+)?\w+(?:st|nd|rd|th)\b)")


def _gaps_asked(w, ranking: dict | None) -> dict:
    runner_up = _runner_up_gap(w.low, ranking)
    return {"runner_up_gap": runner_up, "ranks_apart": _ranks_apart(w, ranking, runner_up)}


def _ranks_apart(w, ranking: dict | None, runner_up: bool) -> tuple:
    """"How much higher was the #1 area's rate than the #5 area's": two positions of one ranking and the gap between
    them asked, (1, 5); the runner-up's gap is (1, 2). The positions' words are read."""
    gap = GAP_RE.search(w.low) or re.search(r"\bminus\b", w.low)
    found = [m for m in _POSITION_RE.finditer(w.low)] if gap else []
    positions = sorted({_POSITIONS[m.group(1)] for m in found})
    if len(positions) != 2:
        return (1, 2) if runner_up and ranking else ()
    spans = [m.span() for m in found] + [gap.span()]
    w.result["not_used"] = [p for p in w.result.get("not_used", []) if not any(
        p in w.low[a:b] or w.low[a:b] in p for a, b in spans)]  # (the positions' and the gap's words, read)
    if ranking:
        ranking["position"] = 1  # (the places are the ranking's rows between the two)
    elif w.result["metrics"]:  # "the #1 area's rate vs the #5 area's": ranked by the measure named, 1 = the highest
        w.result["ranking"] = {**asdict(Ranking()), "metric": w.result["metrics"][0]}
    return tuple(positions)


def _ranks_submarkets(low: str) -> bool:
    """"which IHS submarket had the highest homicide rate": the submarkets ranked by a measure of their areas (not
    "which submarket had the biggest year-over-year change": the release's column ranks them)."""
    ranked = _SUBMARKET_RANKED_RE.search(low)
    clause = low[ranked.end():] if ranked else ""
    clause = clause[:min([i for i in (clause.find("?"), clause.find(". ")) if i >= 0] or [len(clause)])]
    return bool(ranked) and not _PRICE_CLAUSE_RE.search(clause)


# "how far ahead of the runner-up was it", "its lead over the second": the gap between the first two
_RUNNER_UP_GAP_RE = re.compile(r"\b(?:how\s+far\s+(?:ahead\s+of|above)|(?:gap|margin|lead|difference)\s+(?:over|to|from|"
                               r"between\s+it\s+and))\s+(?:the\s+)?(?:runner[\s-]?up|second(?:[\s-]place)?|next\s+one)\b")
# a change (the lexicon's one table of change words) or a price named in the ranked clause: the release ranks them
_PRICE_CLAUSE_RE = re.compile(rf"\b(?:{CHANGE_WORDS}|rising|gain(?:ed)?|index|prices?|priced|appreciat\w*)\b")
_SETS_OF_MONTHS_RE = re.compile(r"\b(?:more|fewer|less|vs\.?|versus|compared?|comparison|each|both|than|ratio|"
                                r"difference|deadlier)\b")


def _quantile_ranked(low: str, ranking: dict | None, sets: list) -> None:
    """"The highest-poverty fifth of community areas": the ranking takes the quantile set's size (16 of 77)."""
    if ranking and len(sets) == 1 and sets[0].metric == ranking["metric"] and not ranking["top_n"] \
            and named_by_quantile(low, sets[0]):
        ranking["top_n"], ranking["singular"] = sets[0].n, False


def _read_by_sets(low: str, sets: list, not_used: list) -> list:
    """The words that take a set away or name its quantile are the set's ("but NOT in the top 15", "the top
    quartile for ...")."""
    taken = " ".join(low[s.span[0]:s.span[1]] for s in sets if s.excluded or named_by_quantile(low, s)) or "\0"
    return [p for p in not_used if p.lower() not in taken]


def _query_parts(w, result: dict) -> None:
    """What the semantic layer's queries read beyond the tools' arguments: the months that date a home value and
    the years named alone, one area's rank, the survey named as a source, every group of residents named."""
    result.update(month_years=w.month_years, asks_rank=w.asks_rank, rank_order=w.rank_order, acs_named=w.acs_named,
                  each_year=bool(EACH_YEAR_RE.search(w.low)), span_total=bool(SPAN_TOTAL_RE.search(w.low)),
                  quarters=w.ihs.get("quarters", []) if "price_trend" in w.metrics else [],
                  named_measures=_link_direction(w, list(dict.fromkeys(
                      ["ward_office_zip"] * w.office_zip + [name for name, _ in measures_named(w.text)]
                      + ["main_community_area"] * bool(w.office_zip and _OFFICE_AREA_RE.search(w.low))))),
                  years_alone=[y for y in w.years_alone if y in w.years] if w.month_years else [])
    _zip_link_grain(w, result)
    # "how many households earning $125,000 or more ... in the areas with the highest percentage of Black
    # residents": two groups, in the question's order, the band counted
    sets = result["ranked_sets"] = ranked_sets(w.low, w.metric_pos)
    result["not_used"] = _read_by_sets(w.low, sets, result["not_used"])
    ranking = result.get("ranking")
    if ranking is None and len(sets) == 1 and sets[0].groups and not sets[0].excluded:
        # "the top quartile of areas by hardship index: what share of the homicides": the quantile set is the ranking
        ranking = result["ranking"] = {**asdict(Ranking()), "order": sets[0].order, "top_n": sets[0].n,
                                       "metric": sets[0].metric}
    _quantile_ranked(w.low, ranking, sets)
    if ranking and len(sets) == 1 and sets[0].metric == ranking["metric"] and ranking["top_n"] == sets[0].n:
        # "the ten areas with the most overcrowded housing": the words at the set say which end, not a word elsewhere
        ranking["order"] = sets[0].order
    elif ranking and len(sets) == 1 and ranking["top_n"] == sets[0].n and sets[0].metric == "income" \
            and ranking["metric"] == "household_income" and "per_capita_income" in result["named_measures"]:
        # "the 20 areas with the lowest per capita income: what percent of households make under $25k": the set is
        # the per capita income's; the income band is the figure asked of it
        ranking["metric"] = "income"
        result["metrics"] = [*result["metrics"], "income"]
    result.update(ranks_submarkets=_ranks_submarkets(w.low), **_gaps_asked(w, ranking))
    # "what hour of the day had the most ..., and which weekday?": each grain asked, in order
    result["time_grains"] = list(dict.fromkeys(
        next(g for g, word in zip(("hour", "weekday", "month", "year"), m.groups()) if word)
        for m in _WHICH_GRAIN_RE.finditer(w.low)))
    groups, spans = month_groups(w.low)
    # "more homicides in fall (Sep-Nov) or spring (Mar-May)? give both counts": each stretch counted on its own
    result["month_groups"] = groups if len(groups) >= 2 and len({m for g in groups for m in g}) == sum(
        len(g) for g in groups) and _SETS_OF_MONTHS_RE.search(w.low) else []
    if result["month_groups"]:  # the stretches' own words ("in fall (Sep-Nov)") are read
        read = set(re.findall(r"[a-z]+", " ".join(w.low[a:b] for a, b in spans))) | {"in", "the", "of"}
        result["not_used"] = [p for p in result["not_used"] if not set(re.findall(r"[a-z]+", p.lower())) <= read]
    result["rank_within"] = rank_within(w.low, w.metric_pos, sets, result.get("area_condition"))
    if sets and ranking and ranking["metric"] not in ("homicides", None) and _WHICH_YEAR_RE.search(w.low):
        # "among the 5 areas with the highest unemployment, which year had the most homicides (combined)": the set's
        # years, the top one (rules/compositions.set_breakdown)
        result["group_by"] = "year"
    _joint_or_based(w, result)
    result["census_groups"] = [g for _, g in sorted((m.start(), g) for g, rx in CENSUS_GROUP_RES
                                                    for m in [rx.search(w.spelled)] if m)]
    result["households_counted"] = bool(_HOUSEHOLDS_COUNTED_RE.search(w.spelled))
    _census_years(w, result)
    result["arrests_counted"] = bool(re.search(r"\bhow\s+many\s+(?:of\s+(?:those|them|these)\s+)?(?:had|led\s+to|"
                                               r"ended\s+(?:in|with)|resulted\s+in|saw|were\s+cleared\s+by)\s+"
                                               r"(?:an?\s+)?arrests?\b|\bhow\s+many\s+arrests\b|\bnumber\s+of\s+"
                                               r"arrests\b", w.low))
    # "how many times", "divided by", "as a ratio", "(how many x)": one figure over another
    times = re.search(r"\bhow\s+many\s+times\b|\b(?:what|which)\s+multiple\b|\bdivided\s+by\b|"
                      r"\bas\s+a\s+ratio\b|\bhow\s+many\s+x\b|\bratio\s+of\b", w.low)
    result["asks_times"] = bool(times)
    # the ratio's top: the place named just before "is how many times" in its sentence ("Lincoln Park's value is how
    # many times Englewood's"), else the first named after it ("How many times higher was Logan Square's ...")
    start = max(w.low.rfind(". ", 0, times.start()), w.low.rfind("? ", 0, times.start())) + 1 if times else 0
    named = [(w.low.find(a["text"].lower(), start), a["number"]) for a in w.areas if a.get("text")] \
        if times and len(w.areas) == 2 else []
    before = sorted(((at, n) for at, n in named if 0 <= at < times.start()), reverse=True) if named else []
    after = sorted((at, n) for at, n in named if at >= times.end())
    # both named before it ("Chatham or Auburn Gresham -- which ... how many times the other's"): the question's order
    result["ratio_first"] = (before if len(before) == 1 else after if not before else [(0, None)])[0][1] \
        if before or after else None
    # ("how many times higher North Lawndale's rate is than Austin's": the place right after the comparative)
    asked = (_TIMES_SUBJECT_RE.match(w.low, times.end()) or _TIMES_DIRECT_RE.match(w.low, times.end())) \
        if times else None
    if asked:  # "A vs B ...: how many times higher is B's?": the place the question puts after "is" is the top
        result["ratio_first"] = next((a["number"] for a in w.areas if a.get("text") and
                                      w.low.startswith(a["text"].lower(), asked.end())), result["ratio_first"])
    if times:  # its words are the ratio's, read
        result["not_used"] = [p for p in result.get("not_used", []) if p not in ("divided", "x", "ratio")]
    result["counts_places"] = bool(_COUNTS_PLACES_RE.search(w.low))  # "how many of the wards had more than 25"
    result["asks_total"] = bool(_SET_TOTAL_RE.search(w.low))  # "what share of 2020's homicides ... the three wards"


def _joint_or_based(w, result: dict) -> None:
    """"How many had X and Y" asks for the places meeting both; "how many had X? and how many of those also Y" for
    the first set, then those meeting both; "among areas with above-median home values, what percent had zero
    homicides": the set the question opens with is the base, the others are asked of its members."""
    result["conditions_joint"] = bool(result.get("more_conditions")) and not _OF_THOSE_RE.search(w.low)
    base = result.get("area_condition")
    if base is not None and result.get("more_conditions") and _BASE_FIRST_RE.match(w.low) \
            and _SHARE_OF_BASE_RE.search(w.low):
        ordered = sorted([base, *result["more_conditions"]], key=lambda c: c.span[0])
        result["area_condition"], result["more_conditions"] = ordered[0], ordered[1:]
        result["conditions_joint"] = False


def _zip_link_grain(w, result: dict) -> None:
    """"The area with the highest ...: what zip is it mostly in": the ZIP is the area's link; the areas are ranked."""
    ranked = result.get("ranking") or {}
    if "main_zip" in result["named_measures"] and result.get("group_by") == "zip" and not w.zips \
            and ranked.get("metric") not in (None, "home_value"):
        result["group_by"] = "community_area"


def _census_years(w, result: dict) -> None:
    """2010 as the census's year or a year of its own, and the years a population's change leaves to the homicides."""
    result["counts_2010"] = bool(_YEAR_2010_RE.search(w.low))
    later = [y for y in result["years"] if y != 2010]
    last = w.cov["last"]
    if result["population_growth"] and len(result["periods"]) >= 2 \
            and re.search(r"\bsince\s+(?:the\s+)?2010\b", w.low) and not re.search(rf"\b{last}\b", w.low):
        # "lost the biggest share of its population since 2010 ... its homicides between 2010 and 2022": "since 2010"
        # is the census's span, not a homicide period running to the data's end
        result["periods"] = [p for p in result["periods"] if (p["start"], p["end"]) != (2010, last)]
        result["years"] = later = [y for y in result["years"] if y != last]
    rate_population = result["per_capita"] and not result["periods"] and re.search(r"\b2010\s+census\b", w.low)
    if (result["population_growth"] or rate_population) and not result["counts_2010"] and 2010 in result["years"] \
            and later:
        # "lost the most population from the 2010 census ..., and its 2021 homicide rate": 2021's, not 2010-2021's;
        # "the 2012 rate (per 100k, 2010 census pop)": the census is the rate's population
        result["year_range"] = {"start": later[0], "end": later[-1]}


# "how many times higher is Englewood's", "how many times as high was X's": the subject of the comparison follows
_TIMES_SUBJECT_RE = re.compile(r"\s+(?:(?:higher|greater|larger|bigger|more|lower|smaller|as\s+\w+)\s+)?"
                               r"(?:is|was|are|were)\s+(?:the\s+)?")
_TIMES_DIRECT_RE = re.compile(r"\s+(?:higher|greater|larger|bigger|more|lower|smaller)\s+(?=[a-z])")
# "how many households", "what share of the city's households ... live in": the households counted (a share of the
# city's count), not each area's share of its own households
_MORE_THAN_YEAR_RE = re.compile(r"\b(more|fewer|less)\s+(?:homicides|murders|killings)\s+in\s+((?:19|20)\d\d)\s+than\s+"
                                r"(?:in\s+)?((?:19|20)\d\d)\b")
# (the words of a count going up or down, one table for the readers below)
_UP = r"go\s+up|went\s+up|gone\s+up|rise|rose|risen|increase[ds]?|grow|grew|climb(?:ed)?|jump(?:ed)?"
_DOWN = r"go\s+down|went\s+down|fall|fell|fallen|drop(?:ped)?|decrease[ds]?|decline[ds]?"
# ("their homicide count went up from 2015 to 2021", "homicides have fallen between 2016 and 2022")
_WENT_UP_RE = re.compile(rf"\b(?:homicides|murders|killings|(?:homicide|murder)\s+(?:counts?|totals?))\s+(?:(?:have|has|had)"
                         rf"\s+)?(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\s+(?:from|between)\s+"
                         r"(?P<y0>(?:19|20)\d\d)\s+(?:to|and)\s+(?P<y1>(?:19|20)\d\d)\b")
_HOUSEHOLDS_COUNTED_RE = re.compile(r"\bhow\s+many\s+households\b|\bnumber\s+of\s+households\b|"
                                    r"\b(?:share|percent(?:age)?|fraction|proportion)\s+of\s+(?:the\s+)?"
                                    r"(?:city'?s|chicago'?s|all\s+(?:the\s+)?)\s*households\b")
# 2010 named as a year of its own ("homicides in 2010 vs 2022"), not only as the census's ("the 2010 census")
_YEAR_2010_RE = re.compile(r"(?<!the\s)\b2010\b(?!\s*(?:census|decennial|count|pop))")
_COUNTS_PLACES_RE = re.compile(r"\bhow\s+many\s+(?:of\s+(?:the|chicago'?s)\s+)?(?:\d+\s+)?(?:wards|(?:police\s+)?districts|"
                               r"community\s+areas|areas|neighbou?rhoods)\b")
_SET_TOTAL_RE = re.compile(r"\b(?:share|percent(?:age)?|proportion|together|combined|altogether|in\s+total|add(?:ed)?\s+up|"
                           r"sum)\b")


def _homicide_change(rose: re.Match) -> AreaCondition:
    """"more homicides in 2022 than in 2019", "saw homicides go up from 2019 to 2020": the change from the earlier
    year to the later, its sign bounded."""
    if rose.re is _WENT_UP_RE:
        return AreaCondition("homicide_change", "below" if rose.group("down") else "above", 0.0, rose.span(),
                             years=(int(rose.group("y0")), int(rose.group("y1"))))
    return AreaCondition("homicide_change", "above" if rose.group(1) == "more" else "below", 0.0, rose.span(),
                         years=(int(rose.group(3)), int(rose.group(2))))


def _change_conditions(w, result: dict, condition):
    """Conditions on a change: the population's sign or bound ("lost more than 10% of their population"), a
    homicide change beside another condition, a home value's change between two months; the condition kept."""
    areas, districts, low, metrics, wards, zips = w.areas, w.districts, w.low, w.metrics, w.wards, w.zips
    rose = _MORE_THAN_YEAR_RE.search(low) or _WENT_UP_RE.search(low)
    if result["population_growth"] and result["ranking"] and result["ranking"]["metric"] in ("population", None) \
            and _LOSS_RE.search(low):
        # "which neighborhoods lost the most people": the most lost is the lowest change (a ranking by another
        # measure keeps its end: "the ten most overcrowded areas ... their population shrank by what percent")
        order = result["ranking"]["order"]
        result["ranking"] = {**result["ranking"], "order": "asc" if order == "desc" else "desc"}
    if result["population_growth"] and not result["ranking"] and not condition and not (areas or wards or districts
                                                                                         or zips) \
            and _ASKS_AREAS_RE.search(low):
        # "how many community areas lost population since 2010": the areas picked by the sign of the change
        lost = bool(_LOSS_RE.search(low))
        # "lost more than 10% of their population": the change bounded where a value is written, else its sign
        side, value, percent = change_bound(low, lost) or ("below" if lost else "above", 0.0, False)
        result["area_condition"] = AreaCondition("population_change", side, value, (0, 0), percent=percent)
        result["group_by"] = None
        # "areas that lost population versus the ones that didn't: how many times higher is the losers' rate"
        if not result["compared_groups"]:
            result["compared_groups"] = rest_compared(low, w.consumed)
            if result["compared_groups"]:  # "the ones that didn't", "the losers": the two sets, read
                said = low[w.consumed[-1][0]:w.consumed[-1][1]]
                result["not_used"] = [p for p in result["not_used"] if re.sub(r"\W+$", "", p.split()[0]) not in said
                                      and not _SIDE_NAME_RE.fullmatch(p)]
        if rose:  # "... but had more homicides in 2021 than in 2019": both changes
            result["more_conditions"] = [_homicide_change(rose)]
            # "how many both lost population AND had more homicides": one set meeting both
            result["conditions_joint"] = not _OF_THOSE_RE.search(low)
    elif result["population_growth"] and condition and condition.metric != "population_change" \
            and not result["ranking"] and not (areas or wards or districts or zips) and _GREW_AREAS_RE.search(low):
        # "areas that grew in population ... and also had a homicide rate under 10": the change's sign is a
        # condition beside the other
        grew = _GREW_AREAS_RE.search(low)
        phrase = grew.group(0)  # its own bound, not the other condition's ("under 10")
        lost = bool(_LOSS_RE.search(phrase))
        side, value, percent = change_bound(phrase, lost) or ("below" if lost else "above", 0.0, False)
        change = AreaCondition("population_change", side, value, (0, 0), percent=percent)
        if _BASE_FIRST_RE.match(low) and grew.start() < condition.span[0]:
            # "Of the areas whose population fell ..., what percent had a rate above the city's": the change's set is
            # the base, the other bound is asked of its members
            result["area_condition"], result["more_conditions"] = change, [condition, *result["more_conditions"]]
            result["conditions_joint"] = False
            return
        result["more_conditions"] = [*result["more_conditions"], change]
        # "areas that grew ... and also had": one set meeting both ("of those, how many also" asks of the first set)
        result["conditions_joint"] = not re.search(r"\b(?:of|among)\s+(?:those|them|these)\b", low)
    if rose and not condition and not result["population_growth"] and not (areas or wards or districts or zips) \
            and _ASKS_AREAS_RE.search(low):
        # "in how many community areas were there more homicides in 2021 than in 2016": picked by the change's sign
        condition = result["area_condition"] = _homicide_change(rose)
        result["group_by"], result["ranking"] = None, None
    elif rose and condition and condition.metric != "population_change":
        # "more homicides in 2022 than in 2019 AND a Zillow value under $180k": the change's sign is a condition too
        result["more_conditions"] = [*result["more_conditions"], _homicide_change(rose)]
    if condition and condition.metric == "home_value" and condition.percent and len(w.month_years) == 2:
        # "values climbed more than 40% from January 2019 to January 2024": the change between the months bounded
        change = _HOME_CHANGE_RE.search(low)
        fell = bool(change and change.group("down"))
        side, value = ("below", -condition.value) if fell and condition.side == "above" else \
            (condition.side, condition.value)
        condition = result["area_condition"] = AreaCondition("home_value_change", side, value, condition.span,
                                                             percent=True)
        result["group_by"] = None
    condition = _growth_bounds(w, result, _faster_change(w, result, _times_change(w, result, condition)))
    if "home_value" in metrics and len(w.month_years) == 2 and not result["ranking"] and not condition \
            and not (areas or wards or districts or zips) and _AREAS_WORD_RE.search(low) \
            and _HOME_CHANGE_RE.search(low):
        # "which areas had a lower home value in Jan 2024 than in Jan 2019": picked by the sign of the change
        change = _HOME_CHANGE_RE.search(low)
        fell = bool(change.group("down"))
        if re.match(r"lower|less|cheaper|higher|more|pricier", change.group(0)) and w.month_years[0] < w.month_years[1]:
            fell = not fell  # "lower in Jan 2019 than in Jan 2024" is a rise from 2019 to 2024
        result["area_condition"] = AreaCondition("home_value_change", "below" if fell else "above", 0.0,
                                                 change.span())
        result["group_by"] = None
    return condition


# a growth word right before a home-value bound: "home-value growth above the median", "values grew more than"
_GROWTH_BEFORE_RE = re.compile(r"\b(?:growth|grew|gains?|gained|appreciat\w*|increases?|increased|rise|rose|"
                               r"changes?|changed|climb\w*)\s+(?:(?:was|is|of|that\s+was)\s+)?$")


def _growth_bounds(w, result: dict, condition):
    """"Home-value growth above the median (Zillow Jan 2019 -> Jan 2024)": with two months named, a bound that a
    growth word stands right before is on the value's change between them, not on the value in either month."""
    if len(w.month_years) != 2:
        return condition

    def grown(c):
        before = w.low[max(0, c.span[0] - 30):c.span[0]] if c is not None else ""
        if c is None or c.metric != "home_value" or not _GROWTH_BEFORE_RE.search(before):
            return c
        return AreaCondition("home_value_change", c.side, c.value, c.span, percent=c.percent or bool(c.reference),
                             grain=c.grain, reference=c.reference)
    result["more_conditions"] = [grown(c) for c in result["more_conditions"]]
    result["area_condition"] = grown(condition)
    return result["area_condition"]


# "saw home values grow faster than the average area": the change bounded by the places' own mean (or median, or
# the city's figure)
_FASTER_RE = re.compile(r"\b(?:grow|grew|grown|growing|rise|rose|risen|rising|climb(?:ed)?|increase[ds]?|appreciate[ds]?|"
                        r"gain(?:ed)?)\s+(?P<way>faster|more|quicker|slower|less)\s+than\s+(?:the\s+|in\s+the\s+|an?\s+)?"
                        r"(?P<ref>average|typical|median|mean|city(?:'s)?|city[\s-]wide|overall)\b(?:\s+(?:community\s+)?"
                        r"(?:area|neighbou?rhood|growth|rate|change|figure))?")


def _faster_change(w, result: dict, condition):
    """"Of the areas more than 40% Black, what percent saw home values grow faster than the average area between Sept
    2019 and Sept 2024": the percent change between the two months above the places' mean, asked of the set."""
    faster = _FASTER_RE.search(w.low)
    if not faster or "home_value" not in w.metrics or len(w.month_years) != 2 or w.areas or w.zips:
        return condition
    w.consumed.append(faster.span())
    ref = faster.group("ref")
    change = AreaCondition("home_value_change", "below" if faster.group("way") in ("slower", "less") else "above",
                           0.0, faster.span(), percent=True,
                           reference="median" if ref == "median" else "city" if ref.startswith("city") else "mean")
    if condition is None:
        result["area_condition"], result["group_by"] = change, None
        return change
    result["more_conditions"] = [*result["more_conditions"], change]
    result["conditions_joint"] = not _BASE_FIRST_RE.match(w.low)  # "of the areas ..., what percent saw": of the set
    return condition


def _times_change(w, result: dict, condition):
    """"Areas where home values more than doubled from Jan 2012 to Jan 2022": a bound on the percent change."""
    low, metrics = w.low, w.metrics
    times = _TIMES_CHANGE_RE.search(low)
    counted = bool(re.search(r"\bhow\s+many\b", low))  # "how many areas saw values at least double (+100% or more)"
    if not times or condition or "home_value" not in metrics or len(w.month_years) != 2 or \
            (result["ranking"] and not counted) or w.areas or w.wards or w.districts or w.zips or \
            not _AREAS_WORD_RE.search(low):
        return condition
    result["ranking"] = None
    factor = {"doubl": 100.0, "tripl": 200.0, "quadrupl": 300.0, "halv": -50.0}[
        next(k for k in ("doubl", "tripl", "quadrupl", "halv") if times.group("what").startswith(k))]
    side = ("above" if times.group("more") else "at_least") if factor > 0 else "at_most"
    result["group_by"] = None
    w.consumed.append(times.span())
    result["area_condition"] = AreaCondition("home_value_change", side, factor, times.span(), percent=True)
    return result["area_condition"]


def _asked_forms(w, result: dict) -> None:
    """The forms a figure is asked in: per day, in dollars; what a superlative ranks (the home value itself, the
    homicides' change); their words are then read."""
    low, metrics, ranking = w.low, w.metrics, w.ranking
    per_day = _PER_DAY_RE.search(low) if "homicides" in metrics else None
    result["per_day"] = bool(per_day)
    if per_day:
        result["not_used"] = [p for p in result["not_used"] if p not in ("on average", "average", "daily")]
    result["ranks_level"] = bool(ranking and "home_value" in metrics and _LEVEL_RANKED_RE.search(low))
    result["ranks_submarket"] = bool(ranking and _SUBMARKET_RANKED_RE.search(low))
    result["ranks_homicide_change"] = bool(ranking and _HOMICIDE_CHANGE_RANKED_RE.search(low))
    result["homicide_change_asked"] = bool(_HOMICIDE_CHANGE_ASKED_RE.search(low))
    _index_years(w, result)
    result["step"] = next((g for m in STEP_RE.finditer(w.figure_free) for g in m.groups() if g), "").lower()
    result["dated_months"] = bool(_DATED_MONTH_RE.search(low))
    result["asks_gap"] = bool(GAP_RE.search(low))
    result["all_places_beside"] = bool(_ALL_PLACES_RE.search(low))
    before = _YEARS_VS_BEFORE_RE.search(low) or _STREAK_RE.search(low)
    if before:  # "between 2001 and 2022, in how many years did homicides go up compared with the year before"
        result["years_vs_before"] = "down" if before.group("down") else "up"
        result["years_streak"] = before.re is _STREAK_RE  # "the longest streak of years it went up": the run
        w.consumed.append(before.span())
        result["not_used"] = [p for p in result["not_used"] if p not in before.group(0)]
    per_group = _RATE_GROUP_RE.search(low)
    if per_group and result["per_capita"] and set(result.get("census_groups") or []) <= {"age_18_34"}:
        # "the 2021 rate per 100k residents aged 18 to 34": that band's population, not a figure asked (beside
        # another group, which of the two ranks is not read here: left unread)
        result.update(rate_population="acs_age_18_34", census_group=None, census_groups=[],
                      named_measures=[m for m in result["named_measures"] if m != "age_18_34"],
                      metrics=[m for m in result["metrics"] if m != "age"],
                      not_used=[p for p in result["not_used"] if p not in per_group.group(0)])
    excess = " ".join(m.group(0) for m in _EXCESS_RE.finditer(low))
    if excess:  # "how many more killed than there would've been at the city-wide rate": the count above it
        result["excess_asked"] = True
        result["not_used"] = [p for p in result["not_used"] if p not in excess]
    compound = _COMPOUND_RE.search(low)
    if compound:  # "the average yearly (compound) growth of its Zillow value": the growth rate a year, compounded
        result["compound_growth"] = True
        result["not_used"] = [p for p in result["not_used"] if p not in compound.group(0)]
    counted = _YEARS_WITH_RE.search(low)
    if counted:  # "in how many years from 2001 to 2022 did Edison Park have zero homicides": the years so counted
        # (a number's years, "more than 50", are the homicide tool's: it lists them with the place named)
        result["years_with"] = {"op": "==", "value": 0}
        result["not_used"] = [p for p in result["not_used"] if p not in counted.group(0)]
    first = _FIRST_YEAR_RE.search(low)
    if first:  # "after 2010, what was the first year Chicago had more than 700 homicides"
        result["first_year"] = {"which": first.group("which"), "side": "below" if first.group("low") else "above",
                                "value": float(first.group("n").replace(",", ""))}
        result["not_used"] = [p for p in result["not_used"] if p not in first.group(0)]
    against = _YEARS_VS_CITY_RE.search(low)
    if against:  # "in how many of the years 2016 through 2022 was Pullman's rate higher than the citywide rate"
        result["years_vs_city"] = "below" if against.group("low") else "above"
        result["not_used"] = [p for p in result["not_used"] if p not in against.group(0)]
    if result["homicide_change_asked"]:  # its words are read
        result["not_used"] = [p for p in result["not_used"] if p not in ("net change", "change", "net", "difference")]
    peak = _PEAK_RE.search(low) if {"home_value", "price_trend"} & set(metrics) and _WHEN_RE.search(low) else None
    result["asks_peak"] = ("low" if peak.group("low") else "high") if peak else None
    if peak:  # "when did the price index peak": the series' highest quarter or month, asked by when
        result["not_used"] = [p for p in result["not_used"] if p not in peak.group(0)]
    dollars = _IN_DOLLARS_RE.search(low) if "home_value" in metrics else None
    if dollars:  # "how much did its Zillow value change in dollars": the change itself, not its percent
        result["in_dollars"] = True
        result["not_used"] = [p for p in result["not_used"] if p not in dollars.group(0)]


def _finish(w) -> Analysis:
    """The fields that depend on others, the hint for the model, and the layer's queries where they apply."""
    areas, condition, data, declared, districts = w.areas, w.condition, w.data, w.declared, w.districts
    domains, filters, floor, group_by, injection = w.domains, w.filters, w.floor, w.group_by, w.injection
    locations, low, metrics, periods, places = w.locations, w.low, w.metrics, w.periods, w.places
    ranking, result, scope, scoped_low, text = w.ranking, w.result, w.scope, w.scoped_low, w.text
    times, unsupported, wards, years = w.times, w.unsupported, w.wards, w.years
    years_together, zips = w.years_together, w.zips
    result["area_condition"] = condition
    result["more_conditions"] = w.more_conditions if condition else []
    result["compared_groups"] = w.compared
    other = next((c for c in result["more_conditions"] if apart(condition, c)), None) if condition else None
    if other is not None and not w.compared:
        # "the pooled rate for areas valued above $400k, and for those below $150k": each bound its own set
        result["more_conditions"] = [c for c in result["more_conditions"] if c is not other]
        result["compared_groups"] = {"kind": "sides", "figure": "mean" if MEAN_RE.search(low) else "pooled",
                                     "bounds": [], "other": {"side": other.side, "value": other.value}}
    result.update(asks_spread=w.spread, cover_share=w.cover, weight_by=w.weight_by,
                  asks_share_of_places=w.share_of_places, share_base=w.share_base)
    _query_parts(w, result)
    _periods_not_held(w, result)
    named_places = len(areas) + len(wards) + len(districts)
    result["police_headquarters"] = bool("police_station" in metrics and HEADQUARTERS_RE.search(low))
    # "what share of Chicago's homicides (of all of Chicago's Asian residents) are in Englewood": the place's share
    result["asks_share"] = bool(SHARE_ASKED_RE.search(low))
    result["share_of_city"] = bool(named_places and ("homicides" in metrics or result.get("census_group")) and
                                   SHARE_OF_CITY_RE.search(low))
    result["places_together"] = bool(max(len(areas), len(wards), len(districts)) >= 2 and PLACES_TOGETHER_RE.search(low))
    # "july 2017 and july 2021 combined": two spans of dates counted as one, as two listed years are.
    # "yearly counts 2019, 2020, 2021 and 2022 for the five poorest areas, combined per year": the areas combined,
    # each year its own figure
    # "combined in 2019, in 2020 and in 2021": each year with its own "in" is its own figure, the areas combined
    result["years_together"] = bool((times.year_list or len(times.date_spans) >= 2) and years_together
                                    and not _PER_YEAR_RE.search(low) and not _EACH_IN_RE.search(low))
    condition = _change_conditions(w, result, condition)
    result["locations_together"] = locations_together(low, locations)
    result["asks_now"] = bool(NOW_RE.search(low))
    result["open_span"] = bool(_OPEN_SPAN_RE.search(low))
    # "the full year with the fewest homicides citywide - how many did district 7 have that year": the city's years
    # ranked first, then the place counted in the year found (not the place's own years ranked)
    result["year_found_citywide"] = bool(group_by == "year" and ranking and (districts or wards or areas) and (
        CITYWIDE_RE.search(scoped_low) and re.search(r"\b(?:that|the\s+same)\s+year\b", low)))
    # "which community areas had more than 20 killings": every place over the floor, listed
    result["min_homicides"] = count_floor(floor) if floor and (ranking or group_by in (
        "community_area", "ward", "district", "location_type", "year", "month")) else None
    _link_fields(w, result)
    # "what zip is the Austin police station in, and what do homes go for there": the station's ZIP's home value.
    result["station_set"] = bool(STATION_SET_RE.search(low)) and not (w.areas or w.districts or w.wards or zips)
    result["station_zip"] = bool("police_station" in metrics and "property" in domains and not zips
                                 and re.search(r"\bzip(?:\s*code)?\b", low))
    # "what was it in 2010, and what is it now": a home value then and now, with the change between.
    result["until_now"] = bool("property" in domains and len(years) == 1 and not periods and NOW_RE.search(low))
    if w.month_years and (w.years_alone or w.beyond) and {"home_value", "homicides"} <= set(metrics) and not periods:
        # "2021's homicides ... the Zillow value in Sept 2024": 2024 dates the home value, not a homicide span (and
        # with no year of their own, the homicides are the whole data's)
        alone = sorted(set(w.years_alone))
        result["year_range"] = {"start": alone[0], "end": alone[-1]} if alone else None  # the years stay: they date
        if result["group_by"] == "year" and len(alone) <= 1:  # the month too
            result["group_by"] = None
    if not periods and result["year_range"]:
        _release_dates_its_column(w, result)
    result.update(scope.fields(), **filters.fields(result["domestic_filter"]))
    result["asks_count"] = bool(_COUNT_OF_RE.search(low))
    _asked_forms(w, result)
    result["hint_text"] = negations.hint(_hint_text(result), scope, filters)
    if declared and not domains and not unsupported and not injection:
        result["declared_query"] = _declared_shape(w, result, declared)
        _words_used(result, text)
    elif domains and not unsupported and not injection and result["not_used"] and data is not None:
        # "homicides in ward 28 in 2022 and who's the alderman": the alderperson beside the count, from the layer
        places = {"ward": wards, "district": districts}
        ranked = group_by if ranking and group_by in ("ward", "district") else None
        extra = attributes_query(text, {k: v for k, v in places.items() if v}, data, ranked)
        if extra is not None:
            result["declared_extra"] = extra
            _words_used(result, text)
    if any(catalog().measures[name].agg == "attribute" for name in result.get("named_measures", [])):
        _words_used(result, text)  # "which community area makes up most of that ZIP": a fact the layer declares
    return _typed(result)


_TYPICAL_RE = re.compile(r"\b(?:in\s+)?(?:a|the)\s+typical\s+(month|year)\b")


def _measure_name(spec) -> str:
    return spec if isinstance(spec, str) else spec["measure"]


def _declared_shape(w, result: dict, declared: dict) -> dict:
    """A declared query shaped by the question: a ranking over time ("which month of 2017 had the most homes sold"),
    two days or two years side by side with the change, or a ranking over places with its bounds."""
    low, metrics, ranking, years = w.low, w.metrics, w.ranking, w.years
    days = sorted({s.start for s in w.times.date_spans if len(s.start) == 10 and s.start == s.end})  # single days
    if ranking and result["group_by"] in ("month", "year", "weekday", "hour"):
        # "which month of 2018 had the most sales": the declared measure over that grain, its top one
        over_time = time_ranked(declared, result["group_by"], ranking["order"], ranking["top_n"],
                                total=bool(re.search(r"\b(?:in\s+total|total|altogether|combined)\b", low)))
        if over_time is None:  # a grain the measure's dataset has not: said, not answered for another one
            result["not_used"] = [*result["not_used"], f"which {result['group_by']}"]
        else:
            declared = over_time
    elif len(days) == 2 and (result.get("trend") or result.get("comparison")):
        # "the 90-day period ending Oct 31 2019 vs ending Oct 31 2014": a series by its days, those two days'
        declared = two_periods(declared, [{"start": d, "end": d} for d in days])
    elif len(set(years)) == 2 and (result.get("trend") or result.get("comparison")) \
            and not isinstance(result.get("period_fallback"), dict):  # "2021? if not, the 2019 figure": one asked
        declared = two_periods(declared, sorted(set(years)))  # "2016 total vs 2018 total, % change"
    elif _TYPICAL_RE.search(low) and not declared.get("group_by"):
        # "the median sale price in a typical month of 2018": the median over the period's months, the measure named
        # just before it (the others stay the period's own totals)
        typical = _TYPICAL_RE.search(low)
        names = [_measure_name(m) for m in declared["measures"]]
        before = [name for name, start, _ in declared_spans(low, names) if start < typical.start()]
        declared = {**declared, "group_by": [typical.group(1)], "totals": True, "spread": before[-1:] or names[:1]}
        w.consumed.append(typical.span())
    elif result.get("asks_rank"):  # "Austin's rank in homicides per square mile": every area ranked, Austin's row
        declared = member_ranked(declared, result["rank_order"])
    elif ranking:  # "which community area is the largest by land area? and the smallest?"
        declared = ranked_query(declared, ranking["order"], ranking["top_n"], low)
        if declared.get("having"):  # "at least 10 homes sold": "least" bounds the set, it does not rank
            again = _ranking(re.sub(r"\b(?:at|the)\s+(?:least|most)\b", " ", low), metrics, w.metric_pos)
            declared["order_by"][0]["direction"] = (again or ranking)["order"]
        # "at least 10 homes sold" is the set's bound, not the other end of the ranking
        ranking["both_ends"] = not declared.get("having") and (bool(
            RANK_DESC_RE.search(low) and RANK_ASC_RE.search(low)) or bool(ranking.get("both_ends")))
    return declared


def _words_used(result: dict, text: str) -> None:
    """The declarations' words the layer's query answers are no longer reported as unused."""
    words = [w.lower() for w in words_named(text)]
    result["not_used"] = [p for p in result["not_used"] if not any(w in p.lower() or p.lower() in w for w in words)]


_COUNT_OF_RE = re.compile(r"\b(?:number|count|numbers|counts|total)\s+of\s+(?:homicides|murders|killings|deaths)\b|"
                          r"\b(?:both|the\s+two|their|each)\s+counts\b|"
                          r"\b(?:total|combined|summed)\s+(?:homicides|murders|killings)\b|"
                          r"\bwere\s+there\s+more\s+(?:homicides|murders|"
                          r"killings)\b|"
                          r"\bhow\s+many\s+(?:homicides|murders|killings)\b|\b(?:homicide|murder)\s+counts?\b|"
                          # "what share of the city's homicides in those years happened there": the count's share
                          r"\b(?:share|percent(?:age)?|fraction|proportion)\s+of\s+(?:the\s+)?(?:city'?s\s+|chicago'?s\s+|all\s+)?"
                          r"(?:homicides|murders|killings)\b|"
                          # "combined: homicides 2019-2022 and pooled rate": the count a list item of its own
                          r"\b(?:homicides|murders|killings)(?:\s+(?:there|in\s+(?:it|them|those|that\s+area)))?"
                          r"(?:\s+(?:in\s+|for\s+|from\s+|over\s+)?(?:19|20)\d\d(?:\s*(?:-|\u2013|"
                          r"to|through)\s*(?:19|20)?\d\d)?)?(?:\s*,\s*|\s+)(?:and\s+)?(?:the\s+|their\s+|its\s+)?(?:pooled\s+|"
                          r"combined\s+|overall\s+)?(?:homicide\s+)?rates?\b")


@functools.lru_cache(maxsize=1)
def _window_start_re() -> re.Pattern:
    """"The 90-day window starting Jan 1 2012": the layer's own words for a window by its first day."""
    words = [w for w in catalog().dimensions["window_start"].words if re.search(r"start|begin|began", w)]
    return re.compile(r"\b(?:" + "|".join(r"\s+".join(map(re.escape, w.split())) for w in words) + r")\b")


def _read_declared(text: str, data, areas, wards, districts, zips, years, months=(), window_start="") -> dict | None:
    """The semantic layer's query for a question in its declarations' words (semantic/reading.py), or None."""
    if data is None:
        return None
    places = {"community_area": [a["number"] if isinstance(a, dict) else a.number for a in areas], "ward": wards, "district": districts, "zip": zips}
    return declared_query(text, {k: v for k, v in places.items() if v}, years, data, months, window_start)


def _long_date(iso: str) -> str:
    """'2023-07-19' -> 'July 19, 2023' (the text unchanged when it is not such a date)."""
    try:
        day = datetime.date.fromisoformat(str(iso)[:10])
    except ValueError:
        return str(iso)
    return f"{day:%B} {day.day}, {day.year}"


def _not_used(low: str, taken: list, consumed: list, metrics: list, domains: list, group_by, locations: list,
              named_place: bool, allowed) -> list[str]:
    """The question's phrases the reading could not use (analyzer/coverage.py). A question naming no subject the data
    has is declined whole, so its words are not listed one by one; unless it names a place, which is answered with
    the place's profile: then what it asked of the place is named ("life expectancy in englewood" had been answered
    with Englewood's homicides, income and population, and no word that life expectancy is not among them).
    ``consumed``: spans of text the reading used that its vocabulary tables do not hold (a negation it recorded, an
    hour range it read)."""
    if not domains and not named_place:
        return []
    if not domains:  # a place's profile: "facts about austin", "the latest on englewood" ask for it whole
        allowed = allowed | GENERAL_WORDS | {"about", "on", "tell", "me", "give", "show", "whats", "what's", "know"}
    # "without a high school diploma" is the education measure's own wording: its "without" negates nothing here.
    if "education" in metrics:
        consumed = consumed + [m.span() for pattern in (_EDUCATED_RE, _UNEDUCATED_RE) for m in pattern.finditer(low)]
    if group_by == "location_type" or locations:
        allowed = allowed | {"home", "homes"}  # "streets, homes, or what?": a kind of place
    if domains == ["property"]:  # "in the newest month you have": home values are the latest month's unless asked
        consumed = consumed + [m.span() for m in _LATEST_FIGURES_RE.finditer(low)]
    return unused_phrases(low, taken, consumed, allowed)


_LATEST_FIGURES_RE = re.compile(r"\b(?:the\s+)?(?:latest|newest|most\s+recent)\s+(?:month|data|figures?|numbers?|"
                                r"period|one)(?:\s+(?:you|they)\s+(?:have|got))?\b")


_GROWTH_RE = re.compile(r"\b(?:grow|grows|grown|grew|growing|growth|shr[aiu]nk|shrinking|shrinkage|(?:lost|gained|"
                        r"added|lose|gain)\s+(?:[\w%-]+\s+){0,5}?(?:people|residents|population)|population\s+(?:\w+\s+){0,2}?chang(?:e|ed|es)|population\s+(?:drop(?:ped)?|declined?|loss|fall|fell|gain(?:ed)?|increased?|decreased?|rose)s?|(?:drop|decline|loss|fall|gain|increase|decrease)s?\s+in\s+(?:[\w'’-]+\s+){0,2}?population|chang(?:e|es)\s+in\s+(?:[\w'’-]+\s+){0,2}?"
                        r"(?:population|number\s+of\s+residents)|"
                        # "its ACS population, and how much did it change from 2010": the census year names the change
                        r"did\s+(?:it|that|this)\s+(?:change|grow|shrink|fall|drop|rise)\s+(?:from|since)\s+(?:the\s+)?2010)\b")
# "rank the community areas by homicides", "sort wards by murders": the places in order, most first
_RANK_VERB_RE = re.compile(r"\b(?:rank|order|sort|list)\s+"
                           r"(?:(?:the|all|all\s+the|every|each\s+of\s+the|chicago'?s)\s+)?"
                           r"(?:\d+\s+|77\s+|50\s+)?(?:community\s+areas|areas|wards|(?:police\s+)?districts|"
                           r"neighbou?rhoods|communities|zips|zip\s+codes)\s+by\b")
# A home value's change said as a comparison or a move: "lower ... in Jan 2024 than in Jan 2019", "values fell"
_AT_LEAST_RE = re.compile(r"\bat\s+(?:least|most)\b(?=\s+(?:\$?\d|doubl|twice|tripl|quadrupl|halv|half\b))")
def _and_the_second(low: str, ranking: dict | None, consumed: list) -> dict | None:
    """"Which area had the most ...? and the second?": the first two, in order."""
    second = _AND_SECOND_RE.search(low) if ranking and not ranking.get("top_n") and ranking.get("position", 1) == 1 \
        else None
    if second is None:
        return ranking
    consumed.append(second.span())
    return {**ranking, "top_n": 2}


_AND_SECOND_RE = re.compile(r"\b(?:and|also|plus|then)\s+(?:the\s+|which\s+(?:is|was)\s+(?:the\s+)?)?(?:second|2nd|"
                            r"runner[\s-]up|next\s+one)(?:\s+(?:one|place|highest|most|biggest|largest))?\b")
_EACH_IN_RE = re.compile(r"\b(?:in|for)\s+(?:19|20)\d\d\s*,?\s+(?:and\s+)?(?:in|for)\s+(?:19|20)\d\d\b")
# A change as a multiple: "more than doubled", "at least double (+100% or more)", "tripled", "halved"
_TIMES_CHANGE_RE = re.compile(r"\b(?:(?P<more>more\s+than)|at\s+least|over)?\s*(?P<what>doubl\w*|tripl\w*|"
                              r"quadrupl\w*|halv\w*)\b(?:\s*\(\s*\+?\d+\s*%[^)]*\))?")
_HOME_CHANGE_RE = re.compile(r"\b(?:(?P<down>lower|less|cheaper|fell|dropped|declined|decreased|lost|los(?:e|es|ing)|"
                             r"shed|plunged|plummeted|sank|(?:went|gone|go|going)\s+down)|"
                             r"(?P<up>higher|more|pricier|rose|gained|increased|grew|climb\w*|(?:went|gone|go)\s+up))\b")
def _not_describing_a_zip(low: str, zips: list, areas: list) -> list:
    """The areas asked about: not those in parentheses after a ZIP, which only say where it is ("ZIP 60617 (South
    Chicago / East Side)" asks the ZIP's value, not the two areas')."""
    groups = [m.group(2) for m in re.finditer(r"\b(\d{5})\s*\(([^)]{0,80})\)", low) if m.group(1) in zips]
    return [a for a in areas if not any(str(getattr(a, "text", "")).lower() in g for g in groups)] if groups else areas


def _month_bounded_spans(low: str, cov) -> str:
    """A span with a month at one end only is a span of months: "from 2015 to march 2018" runs from January 2015,
    "march 2015 to 2018" to December 2018 (a span ending at the data's own last month stays whole years)."""
    def start(m: re.Match) -> str:
        before = low[max(0, m.start() - 12):m.start()]
        if f"{m.group(3)}-{_month_of(m.group(2)):02d}" >= str(cov["end"])[:7] or _MONTH_END_RE.search(before):
            return m.group(0)  # the data's last month, or a month already at the start ("january 2015 to ...")
        return f"january {m.group(0)}"
    low = _TO_MONTH_YEAR_RE.sub(start, low)
    # "2001 to mid-2023": the data's own last, partial year is the span's end
    low = _TO_MID_YEAR_RE.sub(lambda m: f"{m.group(1)} to {m.group(2)}" if int(m.group(2)) == int(str(cov["end"])[:4])
                              else m.group(0), low)
    return _FROM_MONTH_YEAR_RE.sub(lambda m: f"{m.group(0)[:m.start(3) - m.start(0)]}december {m.group(3)}", low)


_TO_MONTH_YEAR_RE = re.compile(r"\b((?:19|20)\d\d)\s*(?:to|through|thru|until|till|-|\u2013)\s*(" +
                               "|".join(calendar.month_name[1:]) + r"|" + "|".join(calendar.month_abbr[1:]) +
                               r")\.?\s+((?:19|20)\d\d)\b", re.I)
_TO_MID_YEAR_RE = re.compile(r"\b((?:19|20)\d\d)\s*(?:to|through|thru|until|till|-|\u2013)\s*(?:mid|the\s+middle\s+of)"
                             r"[\s-]*((?:19|20)\d\d)\b", re.I)
_MONTH_END_RE = re.compile(r"\b(?:" + "|".join(calendar.month_name[1:]) + r"|" + "|".join(calendar.month_abbr[1:])
                            + r")\.?\s+$", re.I)
# "march 2015 to 2018": a month at the start only (not "... to march 2018", read above)
_FROM_MONTH_YEAR_RE = re.compile(r"\b(" + "|".join(calendar.month_name[1:]) + r"|" + "|".join(calendar.month_abbr[1:])
                                 + r")\.?\s+((?:19|20)\d\d)\s*(?:to|through|thru|until|till|-|\u2013)\s*((?:19|20)\d\d)"
                                 r"\b(?!\s*-)", re.I)


def _month_of(word: str) -> int:
    return next(i for i in range(1, 13) if calendar.month_name[i].lower().startswith(word.lower()[:3]))


_RANK_SCALE_RE = re.compile(r"\(\s*1\s*=\s*(?:the\s+)?(?:most|highest|top|first|worst|best|lowest|least|cheapest|"
                            r"largest|biggest|smallest|fewest|"
                            r"(?:most|least)\s+\w+)\s*\)|"
                            r"\bout\s+of\s+(?:the\s+|all\s+)?(?:77|all)\b")
# "(1 = lowest)": a rank counted from the bottom
_RANK_ASC_FIRST_RE = re.compile(r"(?:\(\s*1\s*=|\b(?:counting|with|taking|where|treating)\s+(?:#\s*)?1\s+(?:as|=|is|being)"
                                r")\s*(?:the\s+)?(?:lowest|least|fewest|cheapest|smallest|poorest)\b(?:\s+of\s+(?:the\s+|all\s+)?77\b)?")
_RANK_OF_RE = re.compile(r"\b(?:rank(?:ed|s|ing)?|what\s+position|(?:which|what)\s+place)\b")
# A superlative on the home value itself, not on its change ("the zip with the highest zillow value in september
# 2024 - how much has it grown since 2010": the value ranks the ZIPs, the growth is asked of the one found)
_LEVEL_RANKED_RE = re.compile(r"\b(?:highest|lowest|priciest|cheapest|most\s+expensive|least\s+expensive)\s+"
                              r"(?:(?:typical|average|median)\s+)?(?:zillow\s+)?(?:(?:home\s+)?(?:values?|prices?)|homes|"
                              r"houses)\b")
# "when did ... peak", "hit its lowest point": a series' highest (lowest) month or quarter, and when
_PEAK_RE = re.compile(r"\b(?:(?:hit|reach(?:ed)?|at)\s+(?:its|their|a|the)\s+(?:[\w-]+\s+)?(?:peak|high(?:est)?"
                      r"(?:\s+point)?|max(?:imum)?|top)|peak(?:ed|s|ing)?|highest\s+(?:point|level)|all[\s-]time\s+high|(?P<low>bottom(?:ed)?"
                      r"\s+out|trough|(?:hit|reach(?:ed)?|at)\s+(?:its|their|a|the)\s+(?:low(?:est)?(?:\s+point)?|bottom|"
                      r"min(?:imum)?)|lowest\s+(?:point|level)))\b", re.I)
_WHEN_RE = re.compile(r"\bwhen\b|\b(?:which|what)\s+(?:month|quarter|year|date)\b|\bmonth\s+and\s+year\b", re.I)
_PER_DAY_RE = re.compile(r"\b(?:per|a|each|every)\s+day\b|\bdaily\b|\bon\s+an?\s+(?:average|typical)\s+day\b")
# "in how many (of the) years ...": the years of a series counted (one table for the three readers below)
_HOW_MANY_YEARS = r"\bhow\s+many\s+(?:of\s+(?:the|those)\s+)?(?:\d+\s+)?years\b"
# The years a place's figure stood above (below) the city's, counted
_YEARS_VS_CITY_RE = re.compile(_HOW_MANY_YEARS + r"[^?.;]{0,80}?\b"
                               r"(?:(?P<high>higher|above|greater|worse)|(?P<low>lower|below|better))\s+than\s+"
                               r"(?:the\s+)?(?:city(?:wide)?|"
                               r"chicago|city's|chicago's|whole\s+city)")
# The years a series rose (fell) from the year before, counted
_YEARS_VS_BEFORE_RE = re.compile(rf"{_HOW_MANY_YEARS}[^?.;]{{0,60}}?\b"
                                 rf"(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\b[^?.;]{{0,40}}?\b(?:the\s+)?(?:year\s+before|"
                                 r"previous\s+year|prior\s+year|preceding\s+year|year\s+earlier|last\s+year)\b")
# "per 100k residents aged 18 to 34": a rate over an age band's residents (semantic/datasets/population.AGE_BANDS)
_RATE_GROUP_RE = re.compile(r"\bper\s+(?:100k|100,000|100\s*000|100\s+thousand)\s+"
                            r"(?:residents\s+|people\s+|persons\s+)?"
                            r"(?:aged\s+)?18\s*(?:-|\u2013|to)\s*34\b")
# a count against the number the city's own rate gives ("how many more killed than at the city-wide rate", "if they
# had had the citywide rate, how many fewer", "actual minus expected at the city rate")
_CITY_RATE = r"(?:at|with|under|had(?:\s+had)?)\s+(?:the\s+)?city(?:[\s-]?wide)?(?:'s)?\s+(?:(?:19|20)\d\d\s+)?" \
             r"(?:homicide\s+|murder\s+)?rate\b"
_EXCESS_RE = re.compile(rf"\b(?:more|fewer)\b[^?;]{{0,100}}?\b{_CITY_RATE}|\b{_CITY_RATE}[^?;]{{0,100}}?\b(?:more|fewer)\b|"
                        rf"\b(?:(?:actual\s+)?(?:minus|less)\s+)?expected\s+{_CITY_RATE}")
_COMPOUND_RE = re.compile(r"\b(?:average\s+|avg\.?\s+)?(?:yearly|annual|annuali[sz]ed)\s+\(?compound(?:ed)?\)?\s+"
                          r"(?:growth|appreciation|change|rate)|\bcompound(?:ed)?\s+(?:annual|yearly)\s+(?:growth|"
                          r"appreciation|change|rate)|\bcagr\b")
# The longest run of years a series rose (fell) from the year before
_STREAK_RE = re.compile(rf"\b(?:longest|biggest|most|max(?:imum)?)\s+(?:(?:streak|run|stretch|string)\s+of\s+)?"
                        rf"(?:consecutive|straight|successive)?\s*years\b[^?.;]{{0,80}}?\b"
                        rf"(?:(?P<up>{_UP})|(?P<down>{_DOWN}))")
# The years a yearly count was none, counted
_YEARS_WITH_RE = re.compile(_HOW_MANY_YEARS + r"[^?.;]{0,60}?\b(?:zero|no|0)\s+(?:homicides|murders|killings)\b")
# The first (last) year a yearly count stood over (under) a number
_FIRST_YEAR_RE = re.compile(r"\b(?P<which>first|last|earliest|latest)\s+year\b[^?.;]{0,60}?\b(?:(?P<high>more|over|above|"
                            r"greater)|(?P<low>fewer|less|under|below))\s+(?:than\s+)?(?P<n>\d{1,3}(?:,\d{3})*|\d+)\b"
                            r"(?!\s*(?:%|percent|per\b))")
_HOMICIDE_CHANGE_RANKED_RE = re.compile(
    r"\b(?:largest|biggest|greatest|sharpest|steepest|most)\s+(?:increase|rise|jump|spike|drop|decline|decrease|fall|"
    r"change)\s+in\s+(?:the\s+)?(?:number\s+of\s+)?(?:homicides|murders|killings|(?:homicide|murder)\s+(?:rates?|counts?|"
    r"totals?))|(?:homicides|murders|"
    r"killings|homicide\s+rates?)\s+(?:rose|rise|grew|grow|fell|fall|dropped|drop|increased|increase|decreased|"
    r"decrease|declined|decline|jumped|jump|climbed|climb)\s+(?:the\s+)?most")  # ("where did homicides fall the most")
# "the single deadliest month on record (2001-2022)": one month of one year, not a calendar month summed over years
_DATED_MONTH_RE = re.compile(r"\bsingle\s+(?:[\w-]+\s+)?month\b|\bmonth\s+(?:on\s+record|ever)\b|"
                             r"\b(?:deadliest|worst|bloodiest|busiest)\s+month\s+(?:in\s+the\s+(?:data|records?)|of\s+all\s+time)\b")
_INDEX_WORDS_RE = re.compile(r"\b(?:ihs|(?:house[\s-]+)?price\s+index|submarket(?:'s|s)?)\b")
_HOMICIDE_WORD_RE = re.compile(r"\b(?:homicides?|murders?|killings?|shootings?)\b")
_CLAUSE_END_RE = re.compile(r"[?;:]|\.\s")
_INDEX_AFTER_RE = re.compile(r"\s+(?:(?:depaul|ihs)\s+)*(?:house[\s-]+)?price\s+index\b|\s+ihs\b")
_COUNT_AFTER_RE = re.compile(r"[\s\w-]{0,20}?\b(?:homicides?|murders?|killings?)\b")
_SUBMARKET_SUPERLATIVE_RE = re.compile(r"\bsubmarkets?\b[^.?;]{0,40}?\b(?:largest|biggest|highest|lowest|smallest|"
                                       r"fastest|greatest|most|least)\b")
IHS_YEARS = range(2000, 2026)  # the price index's quarters: 2000Q1 to 2025Q4


_INDEX_NAME_RE = re.compile(r"\b(?:(?:ihs|depaul)\s+)?(?:house|home|housing)\s+price\s+ind(?:ex|ices)\b|\bprice\s+ind(?:ex|ices)\b")
_THAT_YEAR_RE = re.compile(r"\b(?:that|the\s+same|that\s+same|this)\s+year\b|\bin\s+that\s+year\b")


def _index_years(w, result: dict) -> None:
    """"... total homicides in 2022? and how much did that submarket's price index rise from 2019 to 2024": a year
    whose clause names the index last before it (no homicide word between, none right after it) dates the index,
    not the homicides; such years leave the homicides' years, and one past the homicide data is no gap there.
    Asides in brackets are skipped, and where the submarkets themselves are ranked the reading is left as it is."""
    low = w.low
    if not {"property", "homicides"} <= set(result["domains"]) or "price_trend" not in result["metrics"] \
            or result.get("ranks_submarket") or _SUBMARKET_SUPERLATIVE_RE.search(low):
        return
    text = re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), low)
    subjects = sorted([(m.start(), "index") for m in _INDEX_WORDS_RE.finditer(text)] +
                      [(m.start(), "homicides") for m in _HOMICIDE_WORD_RE.finditer(text)])
    index, counted = set(), set()
    for y in re.finditer(r"\b(?:19|20)\d{2}\b", text):
        clause = max([m.end() for m in _CLAUSE_END_RE.finditer(text, 0, y.start()) if m.end() <= y.start()] or [0])
        before = [kind for at, kind in subjects if clause <= at < y.start()]
        dated = before and before[-1] == "index" and not _COUNT_AFTER_RE.match(text, y.end()) \
            or bool(_INDEX_AFTER_RE.match(text, y.end()))  # "the 2024 IHS price index": the year before its words
        (index if dated else counted).add(int(y.group(0)))
    dated = sorted(y for y in index - counted if y in IHS_YEARS)  # the index's alone: no longer the homicides'
    if not dated:
        return
    result["index_years"] = sorted(y for y in index if y in IHS_YEARS)
    last = max(m.end() for m in re.finditer(r"\b(?:19|20)\d{2}\b", text) if int(m.group(0)) in dated)
    if _THAT_YEAR_RE.search(text, last):  # "... in 2022, and how many homicides that year": the homicides' too
        return
    result["years"] = [y for y in result["years"] if y not in dated]
    result["periods"] = [p for p in result["periods"] if p["start"] not in dated and p["end"] not in dated]
    kept = sorted(result["years"])
    result["year_range"] = dict(result["periods"][0]) if result["periods"] else \
        {"start": kept[0], "end": kept[-1]} if kept else None
    result["out_of_range_years"] = [y for y in result["out_of_range_years"] if y not in dated]
    # ("averaged over 2024": a year's index is its quarters' mean, as the answer says)
    result["not_used"] = [p for p in result["not_used"] if not re.fullmatch(r"(?:annual\s+)?av(?:era)?ge?d?|avg", p)]
    result["warnings"] = [t for t in result["warnings"] if not any(
        str(y) in t and re.search(r"figure for|outside the homicide data", t) for y in dated)]


# "net change in their total homicides": the count's change between the span's ends, not its total
# "the median home value of those areas vs the median across all areas": the set's figure beside every place's
_ALL_PLACES_RE = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|against)\s+(?:the\s+)?(?:median|average|mean|"
                            r"typical)\s+(?:across|for|of|over|among)\s+(?:all|every|the\s+whole)\s+(?:the\s+)?"
                            r"(?:\d+\s+)?(?:community\s+areas|areas|neighbou?rhoods|places)\b")
_HOMICIDE_CHANGE_ASKED_RE = re.compile(r"\b(?:net\s+)?(?:change|difference)\s+in\s+(?:their|its|the)?\s*(?:total\s+|"
                                       r"combined\s+|number\s+of\s+)?(?:homicides|murders|killings)\b")
_IN_DOLLARS_RE = re.compile(r"\bin\s+(?:dollar|\$)\s*(?:terms|amounts?)\b|\bin\s+dollars\b|\bdollar\s+(?:terms|"
                            r"amounts?|change|drop|rise|decline)\b")
_LOSS_RE = re.compile(r"\b(?:lost|lose|losing|shr[aiu]nk|shrinking|declin\w*|drops?|dropp\w*|fell|emptied|decreas\w*|"
                      r"loss(?:es)?)\b")
_WEEKEND_DEFINED_RE = re.compile(r"\b(weekends?)\s*\(\s*(?:i\.?e\.?,?\s*)?sat(?:urday)?s?\s*(?:or|and|\+|&|/|,)\s*"
                                 r"sun(?:day)?s?\s*\)")
_WHICH_YEAR_RE = re.compile(r"\b(?:which|what)\s+(?:single\s+|calendar\s+|one\s+)?year\b")
_PER_YEAR_RE = re.compile(r"\b(?:per|each|every|by)\s+year\b|\byearly\b|\byear[\s-]by[\s-]year\b")
# The areas themselves are asked for ("how many community areas", "which of the 77 neighborhoods", "areas that
# lost population"), not a figure
# that names them in passing ("by what percent did the population change (sum of community areas)").
_ASKS_AREAS_RE = re.compile(r"(?:\b(?:how\s+many|which|what|number\s+of)|#\s*of)\s+(?:[\w'’-]+\s+){0,3}?"
                            r"(?:community\s+areas?|neighbou?rhoods?|areas?|parts\s+of\s+(?:the\s+)?(?:city|town))\b|"
                            # "of the 20 highest-poverty community areas, how many saw ...": the places named first
                            r"\b(?:of|among)\s+(?:the|those|these)\s+\d+\s+[^,?]{0,60}?(?:community\s+areas|"
                            r"neighbou?rhoods|areas)\b[^?]{0,20}?\bhow\s+many\b|"
                            # "neighborhoods that lost more than 10% of their population: their pooled rate"
                            r"\b(?:community\s+areas|neighbou?rhoods|areas)\s+(?:that|which|where|whose|with)\b")
# "areas that grew in population", "neighborhoods which lost residents since 2010": places picked by the change
# "Of the areas whose ..., what percent": the set named first is the share's base
_BASE_FIRST_RE = re.compile(r"\s*(?:of|among)\s+(?:the\s+|all(?:\s+the)?\s+)?(?:\d+\s+)?(?:community\s+)?(?:areas|"
                            r"neighbou?rhoods)\s+(?:whose|that|which|where|with)\b")
_SHARE_OF_BASE_RE = re.compile(r",\s*(?:what|which)\s+(?:percent(?:age)?|share|proportion|fraction|%)(?!\w)")
_GREW_AREAS_RE = re.compile(r"\b(?:community\s+areas|neighbou?rhoods|areas|communities|ones)\s+(?:that|which|where|"
                            r"whose)\s+(?:have\s+|had\s+)?(?:grew|grown|gained|lost|shrank|shrunk|declined|fell|rose)\b"
                            r"[^.?;:]{0,40}?\b(?:population|residents|people)\b|"
                            # "the areas whose population fell between the 2010 census and the ACS"
                            r"\b(?:community\s+areas|neighbou?rhoods|areas|communities)\s+whose\s+(?:population|number\s+of\s+"
                            r"residents)\s+(?:grew|rose|gained|fell|dropped|declined|shrank|increased|decreased)\b|"
                            # "a hardship index above 70 AND gained population between the 2010 census and the ACS"
                            r"\b(?:and|also|but)\s+(?:also\s+|still\s+)?(?:have\s+|had\s+)?(?:grew|grown|gained|lost|"
                            r"shrank|shrunk|declined)\s+(?:in\s+)?(?:population|residents|people)\b|"
                            # "... AND whose population grew from the 2010 census to the ACS"
                            r"\b(?:and|also|but)\s+(?:also\s+)?(?:whose|their|where\s+the)\s+(?:population|number\s+of\s+"
                            r"residents)\s+(?:has\s+|had\s+|also\s+|still\s+)?(?:grew|grown|rose|risen|increased|gained|"
                            r"fell|fallen|shrank|shrunk|declined|dropped|decreased)\b")
# A span whose end is the data's own: "since 2019", "from 2019 to now"
_OPEN_SPAN_RE = re.compile(r"\b(?:since|after)\s+(?:(?:the\s+)?(?:start|beginning|end)\s+of\s+)?(?:19|20)\d\d\b|"
                           r"\b(?:19|20)\d\d\s+(?:to|until|till|through)\s+(?:now|today|the\s+present|present|date)\b")
# A set named by its side of a change: "the losers", "the gainers"
_SIDE_NAME_RE = re.compile(r"(?:losers|gainers|growers|decliners|shrinkers|winners)", re.I)
_AREAS_WORD_RE = re.compile(r"\b(?:community\s+areas?|neighbou?rhoods?|areas?|parts\s+of\s+(?:the\s+)?(?:city|town))\b")
# "grew faster", "in percent", "growth rate": a relative change; a homicide rate asked beside it is no such cue
_IN_PERCENT_RE = re.compile(r"\b(?:faster|slower|fastest|slowest|percent(?:age)?|pct|growth\s+rate|rate\s+of\s+"
                            r"(?:growth|change|decline|loss)|(?:share|proportion|fraction)\s+of\s+(?:its|their|the)\s+"
                            r"(?:population|residents|people))\b|%")


def _population_growth(low: str, metrics: list) -> str | None:
    """How a question about the population's growth ranks or compares places: "change_pct" for "grew faster", "in
    percent"; "change" (residents gained or lost) otherwise; None when it asks no growth."""
    if "population" not in metrics or not _GROWTH_RE.search(low):
        return None
    return "change_pct" if _IN_PERCENT_RE.search(low) else "change"


def _with_unread(low: str, unread: list, not_used: list[str]) -> list[str]:
    """The not-used words with each time expression known but not counted said whole ("the 4th of july weekend",
    not "4th")."""
    whole = [low[s:e].strip() for s, e in unread]
    return whole + [w for w in not_used if not any(w in phrase for phrase in whole)]


def failed_analysis(data, error: str) -> Analysis:
    """What the loop uses when the analyzer itself failed: no hints, only the data's coverage."""
    cov = homicide_coverage(data)
    return Analysis(coverage=HomicideCoverage(cov["first"], cov["last"], cov["last_full"], cov["end"]), error=error)


def _typed(found: dict) -> Analysis:
    """The analyzer works on plain dicts internally; what leaves it is typed."""
    cov = found.pop("coverage")["homicides"]
    ranking = found.pop("ranking")
    year_range = found.pop("year_range")
    return Analysis(
        coverage=HomicideCoverage(**cov),
        areas=[PlaceMatch(**area) for area in found.pop("areas")],
        submarkets=list(found.pop("submarkets")),
        ranking=Ranking(**ranking) if ranking else None,
        year_range=YearSpan(**year_range) if year_range else None,
        periods=[YearSpan(**p) for p in found.pop("periods")],
        **found)


# ("correlate the hardship index with each area's arrest rate": the two after the verb)
_BETWEEN_RE = re.compile(r"\b(?:correlat\w*|relationship|r)\s+between\b|\bcorrelat(?:e|ing)\b(?=[^?.]{0,80}\bwith\b)")
_NOT_A_SIDE = ("trend", "correlation", "price_trend")


def _correlated_pair(low: str, metrics: list, metric_pos: dict) -> list:
    """"Did poorer areas see bigger gains? The correlation between the hardship index and the % change in home
    value": the two measures after "between" are the pair; "poorer" before it only motivates the question."""
    between = _BETWEEN_RE.search(low)
    # (an arrest rate's or a domestic share's own homicides are no third side)
    sides = [m for m in metrics if m not in _NOT_A_SIDE and not (m == "homicides" and {"arrests", "domestic"} & set(metrics))]
    patterns = {metric: pattern for metric, _, pattern in METRIC_RES}
    # (named after it, where or not it was named before: "fewer arrests? correlate ... the arrest rate")
    named = [m for m in sides if between and (metric_pos.get(m, -1) >= between.end()
                                             or m in patterns and patterns[m].search(low, between.end()))]
    if len(sides) <= 2 or len(named) != 2:
        return metrics
    return [m for m in metrics if m in named or m in _NOT_A_SIDE]


def _named_metrics(low: str) -> tuple[list, list, dict]:
    """The measures the question's words name (the lexicon's rows, and the layer-only measures' declared words), their
    domains and where each was first named."""
    metrics: list[str] = []
    domains: list[str] = []
    metric_pos: dict[str, int] = {}
    # "adjusted for population" asks for a rate (PER_CAPITA_RE), not for the population figure
    without_adjustment = POPULATION_ADJUSTMENT_RE.sub(" ", low)
    declared = declared_spans(low, LAYER_MEASURES)
    for metric, domain, pattern in METRIC_RES:
        if metric == "population":  # the layer's own measures take the place their rows held before the census's
            for name, start, _ in declared:
                add_unique(metrics, name)
                add_unique(domains, LAYER_MEASURES[name])
                metric_pos[name] = start
        found = pattern.search(without_adjustment if metric == "population" else low)
        if found:
            add_unique(metrics, metric)
            add_unique(domains, domain)
            metric_pos[metric] = found.start()
    for metric in [m for m in metrics if m not in LAYER_MEASURES and declared]:
        # "homicides per square mile" names one measure, not the homicides beside it
        pattern = next(p for name, _, p in METRIC_RES if name == metric)
        if all(any(a <= m.start() and m.end() <= b for _, a, b in declared) for m in pattern.finditer(low)):
            metrics.remove(metric)
            metric_pos.pop(metric, None)
    return metrics, domains, metric_pos


def _metrics(low: str, iucr_codes: list) -> tuple[list, list, dict, list, str | None]:
    """Metrics, their data domains, where each metric was first named, homicide locations, census group."""
    metrics, domains, metric_pos = _named_metrics(low)
    if PER_CAPITA_INCOME_RE.search(low):
        add_unique(metrics, "income")
        add_unique(domains, "socioeconomic")
    if "poverty" in metrics and "income" in metrics and re.search(r"\bpoor(?:est|er)\b", low) and \
            not re.search(r"\bincome", low):
        metrics.remove("income")
    if iucr_codes:
        add_unique(metrics, "iucr")
        add_unique(domains, "iucr")
        if "homicides" in metrics and not re.search(r"\bhow\s+many|\bcount|\bnumber\s+of\b", low):
            metrics.remove("homicides")
            domains.remove("homicides")
    locations: list[str] = []
    if "home_value" not in metrics or "homicides" in metrics:
        for m in LOCATION_RE.finditer(low):
            word = re.sub(r"\s+", " ", m.group(1).lower())
            if word == "house" and "home_value" in metrics:
                continue
            add_unique(locations, LOCATIONS[word])
    # A place word alone ("cars", "street") means a homicide location only when no other crime is named:
    # "how many cars were stolen" is about theft, which the data does not hold.
    if locations and "homicides" not in metrics and UNSUPPORTED_ANY_RE.search(low):
        locations = []
    if locations or (LOCATION_GENERIC_RE.search(low) and "homicides" in metrics):
        add_unique(metrics, "location_type")
        add_unique(domains, "homicides")
    if "homicides" not in metrics and ({"arrests", "domestic", "location_type"} & set(metrics)):
        add_unique(metrics, "homicides")
        add_unique(domains, "homicides")
    if "age" in metrics and re.search(r"\bage\s+of\s+(?:the\s+)?(?:victims?|homes?|houses?)\b", low):
        metrics.remove("age")
        if not any(m_ in metrics for m_ in ("population", "race")):
            domains.remove("census")
    census_group, group_at = next(((g, m.start()) for g, rx in CENSUS_GROUP_RES for m in [rx.search(low)] if m),
                                  (None, None))
    if census_group in ("125k_plus", "under_25k") and "household_income" not in metrics and \
            ("income" in metrics or not domains or _RANKED_OR_BOUND_RE.search(low)):
        # Household income bands live in the ACS table, not the per-capita socioeconomic one ("richest by per capita
        # income ..., and what % of its households make 125k+": both, the per capita income named on its own)
        if "income" in metrics and not PER_CAPITA_INCOME_RE.search(low):
            metrics.remove("income")
        add_unique(metrics, "household_income")
        add_unique(domains, "census")
        if not any(m_ in metrics for m_ in _SOCIOECONOMIC_METRICS) and "socioeconomic" in domains:
            domains.remove("socioeconomic")
    if census_group and census_group in RACE_GROUPS and not UNSUPPORTED_ANY_RE.search(low) and \
            (not domains or _RANKED_OR_BOUND_RE.search(low) or CORRELATION_RE.search(low)):
        # ... and beside another subject where it is ranked, bounded or correlated ("majority-Black areas", "the
        # percent Black population and the murder rate"): the group's figure is a measure of the question.
        # "how many latinos live in little village": a group of residents named and no other measure: the group's
        # count in the census race table (read as no measure, the area's homicides had been given instead).
        add_unique(metrics, "race")
        add_unique(domains, "census")
    if census_group and census_group.startswith("age_") and "age" not in metrics:
        # "How many Chatham residents are 65 or older?": an age band is asked about, so the ages are the measure.
        add_unique(metrics, "age")
        add_unique(domains, "census")
    group_metric = _group_metric(census_group)
    if census_group and group_metric in metrics:
        # The group's words are where its measure is named: a ranking word or a bound before them ranks or bounds
        # the group ("the 5 areas with the highest share of households making $125k or more. How many murdered").
        metric_pos[group_metric] = min(group_at, metric_pos.get(group_metric, group_at))
    return metrics, domains, metric_pos, locations, census_group


_CHANGED_RE = re.compile(r"\b(?:(?:drop|declin|decreas|increas|climb|jump|chang|improv|worsen|ris|grow|fall)\w*|fell|"
                         r"rose|grew|(?:go|goes|went|gone|going)\s+(?:up|down))\s+(?:the\s+)?$", re.I)
_MAJORITY_RE = re.compile(r"\bmajority[\s-]+(?:of\s+)?\w+", re.I)
_INCOME_PER_CAPITA_RE = re.compile(r"\bincome\b[\w\s-]{0,40}?\(\s*per[\s-]capita\s*\)", re.I)
# Said where a rate is asked of a ward or a district; rules/answer.py puts it beside the count in the lead.
RATE_WITHOUT_POPULATION = "A rate per 100,000 residents cannot be computed"
# Figures asked at a grain the data does not publish them at: said in the lead (rules/answer.py), not in a note.
AREA_ONLY = "The data does not include"
ZIP_GAP = "The homicide data does not include ZIP codes"


def _group_metric(group: str | None) -> str:
    """The analyzer's measure a census group belongs to: an income band, an age band, else a race group."""
    if group in ("125k_plus", "under_25k"):
        return "household_income"
    return "age" if (group or "").startswith("age_") else "race"
# A ranking word or a bound in the question: a household band named beside it is a measure, not a description.
_RANKED_OR_BOUND_RE = re.compile(r"\b(?:most|highest|largest|biggest|greatest|lowest|least|fewest|smallest|"
                                 r"majority)\b|%|\bpercent|\bshare\b|\bhow\s+many\s+households\b|\w+est\b", re.I)


CENSUS_METRICS_OF_ANALYZER = ("population", "race", "age", "median_income")


def _unsupported(low: str, metrics: list) -> list[str]:
    """Subjects asked about that the data does not hold."""
    unsupported: list[str] = []
    for label, pattern in UNSUPPORTED_RES:
        if pattern.search(low):
            if label == "schools" and "education" in metrics and not re.search(r"\bschools\b", low):
                continue
            if label == "taxes" and not re.search(r"\btax", low):
                continue
            if label == "police staffing" and "police response times" in unsupported:
                continue  # "how long do cops take to show up": the time asked for, not how many officers
            if label == "traffic" and not re.search(r"\btraffic|accident", low) and ("price_trend" in metrics or
                                                                                   "home_value" in metrics):
                continue  # "before the crash, when did the IHS index hit its high": the housing crash
            unsupported.append(label)
    if re.search(r"\bcrimes?\b", low) and not re.search(r"\bcrime\s+codes?\b", low) and \
            "homicides" in metrics and not re.search(r"murder|homicide|killing|killed|slain|shot\s+dead", low):
        unsupported.append("crime other than homicide")
    return unsupported


# A rate set aside for the count: "by count not rate", "the raw number, not per capita", "not adjusted for population".
_NOT_RATE_RE = re.compile(r"\b(?:by\s+|the\s+)?(?:raw\s+)?(?:counts?|numbers?|totals?)[\s,]*(?:and\s+)?(?:not|rather\s+than|"
                          r"instead\s+of)\s+(?:by\s+|the\s+|a\s+)?(?:rates?|per[\s-]capita|per\s+(?:100\s*k|100,?000)"
                          r"(?:\s+residents)?)\b|\bnot\s+(?:by\s+)?(?:rates?|per[\s-]capita)\b(?!\s+income)|"
                          r"\bnot\s+(?:adjusted|per)\s+(?:for\s+)?(?:population|size|residents)\b")


# The years' sum is asked for ("added together", "in total", "the sum of"), not each year alone.
_SUM_RE = re.compile(r"\b(?:add(?:ed)?\s+(?:up|together)|add\s+up|in\s+total|total(?:led)?|sum(?:med)?|in\s+all)\b")
_TWO_YEARS_RE = re.compile(r"\b(?:19|20)\d{2}\s*(?:,|and|&|\+|plus)\s*(?:(?:in|for)\s+)?(?:19|20)\d{2}\b")


def _unsupported_words(low: str, unsupported: list[str]) -> list[str]:
    """The question's own words for each subject the data does not hold ("shot", "ages of the victims"), so the
    answer that declines it names what the reader asked, not only the data's name for it."""
    patterns = dict(UNSUPPORTED_RES)
    out = []
    for label in unsupported:
        if label not in patterns and label != "crime other than homicide":  # a subject in the question's words
            out.append(label)
            continue
        found = (patterns[label] if label in patterns else re.compile(r"\bcrimes?\b")).search(low)
        out.append(found.group(0) if found else label)
    return out


_EDUCATED_RE = re.compile(r"\b(?:finish\w*|complet\w*|graduat\w*|educated|education(?:al)?\s+(?:levels?|attainment)|(?:have|has|hold|holds|with)\s+(?:a\s+)?"
                          r"(?:high\s+school\s+)?diplomas?)\b")
_UNEDUCATED_RE = re.compile(r"\b(?:without|no|lack\w*|dropouts?|drop(?:ped)?\s+out|never|not|didn'?t|haven'?t|"
                            r"hasn'?t|uneducated)\b")


def _ranking(low: str, metrics: list, metric_pos: dict) -> dict | None:
    """Order, how many and by what metric, when the question ranks; None when it does not."""
    desc = RANK_DESC_RE.search(low)
    asc = RANK_ASC_RE.search(low)
    top = TOP_N_RE.search(low)
    runner_up = RANK_POSITION_RE.search(low) if not (desc or asc or top) else None  # "the runner-up"
    desc = desc or runner_up or (None if asc else _RANK_VERB_RE.search(low))
    if not (desc or asc or top):
        return None
    order = "desc"
    if asc and (not desc or asc.start() < desc.start() or
                re.match(r"(?:most|least)$", desc.group(0), re.I) and asc.group(0).lower() != "least"):
        order = "asc"
    if re.search(r"\bpoor(?:est|er)\b", low) and "poverty" in metrics:
        order = "desc"
    if re.search(r"\b(?:least|lowest|fewest|smallest)\b", low) and re.search(r"\b(?:most|highest)\b", low):
        order = "asc" if asc and desc and asc.start() < desc.start() else "desc"
    top_n = None
    if top:
        top_n = number(top.group(1) or top.group(2))
        if re.search(r"\bbottom\b", top.group(0), re.I):
            order = "asc"
    ranking = {"order": order, "top_n": top_n, "metric": _ranked_metric(low, metrics, metric_pos, desc, asc, top)}
    if ranking["metric"] == "education" and _EDUCATED_RE.search(low) and not _UNEDUCATED_RE.search(low) \
            and not re.search(r"\b(?:best|worst|better|worse)\b", low):
        # The education figure is the share WITHOUT a diploma: "least likely to have finished high school" and
        # "the most graduates" rank it the other way round from their words ("best educated" already reads right).
        ranking["order"] = "desc" if order == "asc" else "asc"
    judged = next((m.group(0).lower() for m in (desc, asc, top) if m and re.search(r"\b(?:best|worst)\b", m.group(0),
                                                                                   re.I)), None)
    if judged and ranking["metric"] in HIGHER_IS_BETTER:
        # "the best arrest rate", "the worst income": best is the highest of a measure people want more of.
        ranking["order"] = "desc" if "best" in judged else "asc"
    if top_n is None and WHICH_RE.search(low) and not re.search(
            r"\b(?:areas|neighbou?rhoods|communities|wards|districts|zips|places)\b", low):
        ranking["singular"] = True
    if _BY_COUNT_RE.search(low):
        ranking["by_count"] = True
    position = rank_position(low)
    if position > 1 and top_n is None:
        ranking.update(position=position, singular=True)
    if desc and asc and top_n and (COMPARE_RE.search(low) or GAP_RE.search(low) or TIMES_RE.search(low)) \
            and not re.match(r"(?:most|least)$", asc.group(0), re.I):
        ranking["both_ends"] = True  # "the 5 richest community areas vs the 5 poorest"
    if desc and asc and top_n is None and _BOTH_ENDS_RE.search(low) and (GAP_RE.search(low) or TIMES_RE.search(low)) \
            and not asks_range(low):  # "the gap between the highest and lowest income": the range, one figure
        ranking.update(both_ends=True, top_n=1)  # "the richest and the poorest area: the ratio of their rates"
    if desc and asc and _OTHER_END_RE.search(low):
        ranking["both_ends"] = True  # "which is the largest? and the smallest?": the same measure's other end
    return ranking


# Both ends named together: "the richest and the poorest", "the highest vs the lowest"
_BOTH_ENDS_RE = re.compile(r"\b(?:" + RANK_DESC + r")\s+(?:and|vs\.?|versus|or)\s+(?:the\s+)?(?:" + RANK_ASC + r")\b|"
                           r"\b(?:" + RANK_ASC + r")\s+(?:and|vs\.?|versus|or)\s+(?:the\s+)?(?:" + RANK_DESC + r")\b", re.I)
# The other end asked alone, the measure left to the sentence before: "... and the smallest?", "what about the lowest"
# ("..., and which has the lowest?")
_OTHER_END_RE = re.compile(r"\b(?:and|or|what\s+about|how\s+about|plus)\s+(?:also\s+)?(?:which\s+(?:one\s+)?(?:has|had|"
                           r"is|was)\s+)?(?:the\s+)?(?:"
                           + RANK_ASC + "|" + RANK_DESC + r")(?:\s+ones?)?\s*(?:[?.!]|$)", re.I)


# A superlative on the count itself ("the most homicides"), not on a rate asked elsewhere in the question
_BY_COUNT_RE = re.compile(r"\b(?:most|fewest|(?:highest|largest|biggest|greatest|lowest|smallest)\s+(?:number|count|"
                          r"total)\s+of|(?:drop|decline|decrease|fall|rise|increase|jump|spike|change)\s+in)\s+"
                          r"(?:the\s+number\s+of\s+)?(?:homicides|murders|killings|victims|deaths)\b|"
                          # "top 10 areas by number of murders in 2021 ... their combined rate": the count ranks
                          r"\bby\s+(?:the\s+)?(?:raw\s+)?(?:number|count|total)\s+of\s+"
                          r"(?:homicides|murders|killings|deaths)\b|"
                          r"\bby\s+(?:homicide|murder|killing)\s+(?:counts?|totals?|numbers?)\b")

_DOMESTIC_ONLY_RE = re.compile(
    r"\bdomestic(?:[- ](?:violence|related))?\s+(?:homicides?|murders?|killings?|slayings?|cases?|deaths?)\b|"
    r"\b(?:homicides?|murders?|killings?|slayings?|deaths?)\b[\w\s',]{0,30}\b(?:were|was|are|is)\s+(?:flagged|"
    r"marked|recorded|classed|classified|listed|counted)?\s*(?:as\s+)?domestic\b|"
    r"\b(?:homicides?|murders?|killings?|cases?)\s+(?:flagged|marked|classed|classified|listed)\s+(?:as\s+)?domestic\b")


def _domestic_only(low: str) -> bool:
    """"domestic homicides" asks for the domestic cases only, not a domestic/non-domestic split; "the total murders
    and then how many of them were domestic" asks the domestic count as a part of its own, beside the total."""
    m = _DOMESTIC_ONLY_RE.search(low)
    # ("does the % of homicides flagged domestic correlate with ...": each area's domestic share, not a filter)
    shared = not m.group(0).startswith("domestic") and _SHARE_OF_RE.search(low[max(0, m.start() - 30):m.start()]) \
        and CORRELATION_RE.search(low) if m else None
    return bool(m) and not negations.asked_apart(low, m.start() + m.group(0).rfind("domestic")) and not shared


_SHARE_OF_RE = re.compile(r"(?:%|percent(?:age)?|share|proportion|fraction)\s+of\s+(?:the\s+|all\s+|its\s+|their\s+)?$")


_PLACE_KINDS = ("community_area", "ward", "district", "zip", "beat")


def _group_by(low: str, ranking: dict | None, places: dict, yearly: bool) -> str | None:
    """What the answer is broken down by; ``yearly``: the question's years or wording ask for a yearly series."""
    group_by = next((name for name, pattern in GROUP_WORDS if pattern.search(low)), None)
    if group_by in _PLACE_KINDS:
        # The kind of place named first is the one broken down: "the police district with the 3rd-most homicides ...
        # and in what community area is its station" ranks districts
        found = [(m.start(), name) for name, pattern in GROUP_WORDS if name in _PLACE_KINDS
                 for m in [pattern.search(low)] if m]
        group_by = min(found)[1]
    if group_by == "date" and not ranking:
        group_by = None  # "through what date does the data go": a date asked of the data, not dates ranked
    # "ward 5" names a place; only "which ward"/"wards"/"by ward" asks for a breakdown.
    if group_by == "ward" and places["wards"] and \
            not re.search(r"\bwhich\s+ward|\bwards\b|\bby\s+ward|\beach\s+ward", low):
        group_by = None
    if group_by == "district" and places["districts"] and not re.search(
            r"\bwhich\s+(?:police\s+)?district|\bdistricts\b|\bby\s+district|\beach\s+district", low):
        group_by = None
    if group_by == "community_area" and places["areas"] and not ranking:
        group_by = None
    if group_by == "zip" and places["zips"] and not re.search(r"\b(?:which|what)\s+zip|\bzips\b|\bzip\s*codes\b", low):
        group_by = None
    if group_by is None and yearly:
        group_by = "year"
    months = [m.group(0) for m in BY_MONTH_RE.finditer(low)]
    if months and not (group_by in _PLACE_KINDS and all(re.fullmatch(r"summer|winter", m) for m in months)):
        group_by = "month"  # ("in summer 2022, which community area had the most": the season dates the areas' count)
    # "on a weekend (Saturday or Sunday)": the days in brackets say what the weekend is, not each day's count
    defined = _WEEKEND_DEFINED_RE.sub(r"\1", low)
    if BY_WEEKDAY_RE.search(low) and not (kept_weekdays(low) and not WHICH_WEEKDAY_RE.search(defined)):
        group_by = "weekday"
    elif BY_HOUR_RE.search(low):
        group_by = "hour"
    return group_by


# Metrics of the homicide data (or no figure at all): the others are published by community area (and ZIP).
_HOMICIDE_METRICS = frozenset({"homicides", "arrests", "domestic", "iucr", "location_type", "trend", "correlation",
                               "police_station"})


# "the Hispanic share in the 2010 census", "how old were residents in 2010": groups the 2010 file does not hold
_CENSUS_2010_RE = re.compile(r"\b2010\s+(?:u\.?s\.?\s+)?census\b|\bcensus\s+(?:of\s+|in\s+)?2010\b")


def _read_links(w) -> None:
    """Figures asked of a place another one links to, so none is missing for the place named."""
    metrics, low = w.metrics, w.low
    # "the 7th district's station is in which community area, and that area's homicide rate": the station's area's
    # figures (rules/compositions.station_chain)
    # (a district a ranking finds: "the district with the most homicides: ... the area where its station is")
    near = "police_station" in metrics and (w.districts or w.ranking and w.group_by == "district") and not w.areas \
        and _STATION_AREA_RE.search(low)
    # "what percent of District 7's 2021 homicides happened in the area where its station is": the district's
    # homicides inside that area, as a share of all of them
    w.station_share = bool(near and "homicides" in metrics and SHARE_ASKED_RE.search(low)
                           # "what percent of them led to an arrest": the area's arrest rate, no share of the district's
                           and not {"arrests", "domestic"} & set(metrics))
    w.station_area = bool(near and (w.per_capita or set(w.domains) & {"census", "socioeconomic", "property"}
                                    or w.station_share
                                    or re.search(r"\b(?:that|this|the\s+same)\s+(?:community\s+)?area\b", low)
                                    # "homicides in the community area where the district 6 station sits"
                                    or _AREA_OF_STATION_RE.search(low)))
    # "Ald. Hopkins' ward office: the Zillow value for its ZIP": the office's ZIP carries the value (rules/compositions)
    # "... which community area covers most of that ZIP, and its homicides": one link more (the ZIP's main area)
    # ("the ward with the most homicides in 2022: its office's ZIP, and the area covering most of it": a ranked ward)
    ranked_ward = bool(w.ranking) and w.group_by == "ward"
    w.office_zip = (bool(w.wards) or ranked_ward) and not (w.areas or w.zips) and (
        "home_value" in metrics or bool(_OFFICE_AREA_RE.search(low)) or any(
            name == "main_community_area" for name, _ in measures_named(w.text))) and (any(
        name.startswith("ward_office") for name, _ in measures_named(w.text)) or bool(_WARDS_OFFICE_RE.search(low)))


# "the community area where the ward office is (by zip)": the area covering most of the office's ZIP
_OFFICE_AREA_RE = re.compile(r"\b(?:community\s+)?area\s+(?:where|that|in\s+which)\s+(?:the\s+|its\s+|his\s+|her\s+|"
                             r"their\s+)?(?:ward\s+|alder\w*\s+)?office\s+(?:is|sits|stands|lies)\b")
# "Ward 24's office", "the 24th ward's office": the ward's office named with its number between
_WARDS_OFFICE_RE = re.compile(r"\bward\s+\d{1,2}(?:'s|’s)?\s+office\b|\b\d{1,2}(?:st|nd|rd|th)\s+ward(?:'s|’s)?\s+"
                              r"office\b")


# "how many homicides were recorded in police district 11 in 2022, and ... the area where its station is": the
# district's own count (the area's figures are the rest)
_DISTRICT_COUNTED_RE = re.compile(r"\b(?:homicides?|murders?|killings?|victims?)\b[^.?;]{0,40}?\b(?:in|within|for|did)\s+"
                                  r"(?:(?:the\s+)?police\s+)?district\s+\d{1,2}\b(?!\W*s\s+station)(?!\s+station)|"
                                  # "how many homicides did the 11th district (Harrison) have"
                                  r"\b(?:homicides?|murders?|killings?|victims?)\b[^.?;]{0,40}?\b(?:in|within|for|did)\s+"
                                  r"the\s+\d{1,2}(?:st|nd|rd|th)\s+(?:police\s+)?district\b(?!\W*s\s+station)|"
                                  # "Harrison police district (11): homicides 2016-2022, versus ... where its station is"
                                  r"\bdistrict\s*\(?\d{1,2}\)?\s*[:,-]\s*(?:homicides?|murders?|killings?)\b")
# "... while also having": both at once, not the second among the first
# ("are majority Black and also have a value above the median": one set meeting both, as "while also")
_OF_THOSE_RE = re.compile(r"\b(?:of|among)\s+(?:those|them|these)\b|(?<!\bwhile\s)(?<!\band\s)\balso\b|"
                          r"\?.*\band\s+how\s+many\b")
# The windows leave room for a district's name in brackets ("the district 11 (Harrison) police station").
_AREA_OF_STATION_RE = re.compile(r"\bthe\s+(?:community\s+)?area\s+(?:where|in\s+which|that\s+(?:holds|has|contains|"
                                 r"houses|hosts))\b[^.?;]{0,50}\bstation\b")
_STATION_AREA_RE = re.compile(r"\bstation\b[^.?;]{0,40}\b(?:community\s+)?area\b|\b(?:community\s+)?area\b[^.?;]{0,60}"
                              r"\bstation\b|\bthat\s+area\b")


def _survey_warnings(w) -> list[str]:
    """"Edgewater's per capita income according to the 2019-2023 ACS": the indicators are 2008-2012's only. A race
    or age group "in the 2010 census": the 2010 file holds total population only."""
    if set(w.metrics) & {"race", "age"} and _CENSUS_2010_RE.search(w.low):
        return [f"{AREA_ONLY} race, ethnicity or age from the 2010 census (its 2010 file holds each area's total "
                "population only); the group figures here are from the 2019-2023 ACS."]
    spans = [re.findall(r"(?:19|20)\d\d", w.low[a:b])[:2] for a, b in w.vintage]
    named = next((years for years in spans if years and "2008" not in years), None)
    if w.domains != ["socioeconomic"] or not named:
        return []
    asked = " and ".join(dict.fromkeys(MEASURES.get(m, m.replace("_", " ")) for m in w.metrics))
    if named[0] != "2019":  # "the 2015-2019 ACS": a survey the data does not hold at all
        return [f"{AREA_ONLY} the {'-'.join(named)} ACS (it holds the 2008-2012 ACS indicators and the 2019-2023 "
                f"ACS's population, race, age and household income bands); the {asked} here is the 2008-2012 ACS "
                "indicator."]
    return [f"{AREA_ONLY} {asked} from the 2019-2023 ACS (it holds that survey's population, race, age and household "
            "income bands); the figure here is the 2008-2012 ACS indicator."]


def _area_only_warnings(domains: list, places: dict, metrics: list, ranked_grain: str | None = None) -> list[str]:
    """Figures published by community area only, asked about for wards, districts or ZIPs, or ranked by ward or
    district ("which ward has the highest Zillow value" had been answered with a community area's); the measures
    asked are named ("the median household income in ward 3" beside its homicides: "socioeconomic indicators" did not
    say which part of the question went unanswered). Said in the answer's lead (rules/answer.py)."""
    areas, wards, districts, zips = places["areas"], places["wards"], places["districts"], places["zips"]
    warnings = []
    area_domains = [d for d in domains if d in ("census", "socioeconomic", "property")
                    and not (d == "property" and "police_station" in metrics)]  # the station's ZIP's value
    if "police_station" in metrics and ranked_grain == "district" and not districts:
        area_domains = []  # the ranked district's station area's figures (rules/compositions.station_chain)
    wards, districts = wards or ranked_grain == "ward", districts or ranked_grain == "district"
    if area_domains and (wards or districts) and not areas and not zips:
        kinds = " and ".join(x for x in (("ward" if wards else ""), ("police district" if districts else "")) if x)
        labels = {"census": "population and other census figures", "socioeconomic": "socioeconomic indicators",
                  "property": "home values"}
        asked = list(dict.fromkeys(MEASURES.get(m, m.replace("_", " ")) for m in metrics
                                   if m not in _HOMICIDE_METRICS))
        named = " and ".join(asked) if asked else ", ".join(labels[d] for d in area_domains)
        warnings.append(
            f"The data does not include {named} by {kinds} (it has no {kinds} boundaries): those figures are published "
            f"by community area (home "
            f"values also by ZIP); homicide counts are available by ward and district. Name a community area to get "
            "them.")
    if zips and ("census" in domains or "socioeconomic" in domains) and not areas:
        warnings.append("Census and socioeconomic figures are by community area, not ZIP; a ZIP can be mapped "
                        "to the community areas it overlaps.")
    if zips and "homicides" in domains and not areas:
        warnings.append(f"{ZIP_GAP}: homicides are counted by community area, ward or district; the figures here "
                        "are for the community area covering most of the ZIP.")
    return warnings


# The earliest year the census tool answers for (with the 2010 Census); earlier years are declined, not answered
# with a later vintage.
CENSUS_FIRST_YEAR = 2000
_OTHER_CENSUS_RE = re.compile(r"\b((?:19|20)\d0)\s+(?:us\s+|u\.s\.\s+|decennial\s+)?census\b|"
                              r"\bcensus\s+(?:of\s+)?((?:19|20)\d0)\b")


def _months_past_the_end(w, months: list, cov: dict, out_years: list, year_warnings: list) -> list:
    """"December 2023": the year is in the data, its asked months are not; counting them gave "0 homicides", so the
    year is declined. "2023 so far, and December 2023": the year asked on its own is answered, the months past its
    end said and left out."""
    said = f"{_month_names(months)} {cov['last']} is after the homicide data ends ({_long_date(cov['end'])})."
    if cov["last"] in w.years_alone and len(w.month_years) == len(months):
        months.clear()
        w.month_years = [m for m in w.month_years if m[:4] != str(cov["last"])]
        return year_warnings + [said]
    out_years.append(cov["last"])
    return [x for x in year_warnings if not x.startswith(f"{cov['last']} is partial")] + [said]


def _months_after_the_end(years: list, months: list, domains: list, cov: dict) -> bool:
    """Only the data's last, partial year is asked, and only months after its end."""
    return "homicides" in domains and bool(months) and list(years) == [cov["last"]] and \
        cov["last"] > cov["last_full"] and min(months) > int(str(cov["end"])[5:7])


def _month_names(months: list) -> str:
    return " and ".join(calendar.month_name[m] for m in sorted(months))


def _year_warnings(years: list, domains: list, cov: dict, data, price_index: bool = False) -> tuple[list[int], list[str]]:
    """Years outside the asked-about data's coverage, and the warnings for them; ``price_index``: the question is
    about the IHS price index (a submarket or a quarter), whose years are its own, not Zillow's."""
    warnings = []
    zhvi_first, zhvi_last = dataset_years(data, "ihs_index", _IHS_YEARS) if price_index else \
        dataset_years(data, "zhvi", _ZHVI_YEARS)
    out_years = []
    future = [y for y in years if y > datetime.date.today().year]
    if future:  # "what will it be in 2030": no figure in any of the data is a forecast
        warnings.append(f"{', '.join(map(str, future))} {'is' if len(future) == 1 else 'are'} in the future: ChiQA's "
                        "data holds no forecasts or projections, so it cannot give a figure for "
                        f"{', '.join(map(str, future))}.")
    for y in years:
        if y in future:
            out_years.append(y)
            continue
        if "homicides" in domains or not domains:
            if not cov["first"] <= y <= cov["last"]:
                out_years.append(y)
        elif "property" in domains:
            if not zhvi_first <= y <= zhvi_last:
                out_years.append(y)
        elif ("census" in domains or "socioeconomic" in domains) and y < CENSUS_FIRST_YEAR:
            out_years.append(y)  # "what was it back in 1990": no census figure ChiQA has is from then
    if out_years and not ({"homicides", "property"} & set(domains)) and domains:
        names = ", ".join(str(y) for y in out_years)
        warnings.append(f"Year(s) {names} are before the census and socioeconomic figures ChiQA has (the 2008-2012 "
                        "ACS indicators, the 2010 Census, the 2019-2023 ACS estimates).")
    elif out_years:
        names = ", ".join(str(y) for y in out_years)
        if "property" in domains and "homicides" not in domains:
            data_name = "IHS price index" if price_index else "home value data"
            warnings.append(f"Year(s) {names} are outside the {data_name}, which covers {zhvi_first} to "
                            f"{zhvi_last}.")
        else:
            warnings.append(f"Year(s) {names} are outside the homicide data, which covers {cov['start']} to "
                            f"{cov['end']} ({cov['last']} is partial).")
    if "homicides" in domains and cov["last"] in years and cov["last"] > cov["last_full"]:
        # "All of 2023" cannot be answered whole: say where the data stops, in words a reader checks at a glance.
        warnings.append(f"{cov['last']} is partial in the homicide data: it ends on {_long_date(cov['end'])}, so "
                        f"a figure for all of {cov['last']} is not available; figures for {cov['last']} cover only "
                        "part of the year.")
    if "socioeconomic" in domains and years and not out_years and any(y > 2012 or y < 2008 for y in years) and \
            "homicides" not in domains:
        warnings.append("The socioeconomic indicators are a single 2008-2012 ACS snapshot, not a yearly series.")
    if "census" in domains and any(y not in (2010,) and not 2019 <= y <= 2023 for y in years) and \
            "homicides" not in domains:
        # The census tool answers any year from 2000 on with the nearest vintage; say which one applies.
        warnings.append("Census figures are not yearly: population for 2000-2015 comes from the 2010 census, "
                        "and everything else (and later years) from the 2019-2023 ACS 5-year estimates.")
    return out_years, warnings


# "Ranking the areas by per capita income", "sorted by hardship": what follows "by" is what is ranked
# The kinds of place a ranking is over, one table for the readers below
_KINDS = r"areas?|neighbou?rhoods?|zips?(?:\s+codes?)?|wards?|districts?"
_RANKED_BY_RE = re.compile(r"\b(?:rank(?:ing|ed)?|sort(?:ing|ed)?|order(?:ing|ed)?)\s+(?:the\s+|all\s+)?(?:\d+\s+)?"
                           rf"(?:community\s+)?(?:{_KINDS})?\s*by\s+")


_PLACE_BY_RE = re.compile(rf"(?:\s+(?:[\w-]+\s+){{0,2}}?)?\s*(?:community\s+)?(?:{_KINDS}|places?)\s+"
                          r"(?:\(\w+\)\s+)?by\s+(?:its\s+|their\s+|the\s+)?")


_PLACE_IS_RE = re.compile(rf"\b(?:which|what)\s+(?:community\s+)?(?:{_KINDS}|ones?)\s+(?:is|was|are|were|"
                          r"comes?\s+out|ranks?)\s+(?:the\s+)?$")
_PLACE_ENDS_RE = re.compile(rf"\s*(?:one\s+|community\s+)?(?:{_KINDS}|ones?|places?)\s*[.;?!]")


def _group_ranked(chosen: str, metric_pos: dict) -> str:
    """"The oldest population (highest % aged 65+)", "top 5 areas by share of residents aged 65+": the group
    describes the population ranked."""
    group = next((m for m in ("age", "race") if m in metric_pos and "population" in metric_pos), None)
    return group if chosen == "population" and group and abs(metric_pos[group] - metric_pos["population"]) < 30 \
        else chosen


def _ranked_metric(low: str, metrics: list, metric_pos: dict, *matches) -> str | None:
    """The metric a ranking word applies to: the word's own meaning, else the next metric named after it."""
    found = [m for m in matches if m]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    # "lowest homicide arrest rate": a rate noun right after the ranking word is what is ranked.
    if "arrests" in metrics and re.match(r"[\w\s-]{0,25}?\b(?:arrest|clearance|solve)\s+rates?\b",
                                         low[first.end():]):
        return "arrests"
    # "most crowded area by residents per square mile", "top three community areas by Asian share": "<place> by X"
    # after the ranking word names what is ranked, whatever the word itself would rank
    by = _RANKED_BY_RE.search(low) or _PLACE_BY_RE.match(low, first.end())
    named_by = [(pos, metric) for metric, pos in metric_pos.items() if metric in metrics and by
                and by.end() <= pos <= by.end() + 12]
    if named_by:  # "ranking the areas by per capita income, the 10 highest": the measure after "by" is ranked
        return _group_ranked(min(named_by)[1], metric_pos)
    for pattern, metric in RANK_WORD_METRIC:
        for m in found:
            if pattern.search(m.group(0)) and metric in metrics:
                return "poverty" if metric == "income" and "poverty" in metrics and "income" not in metrics else metric
    candidates = [(pos, metric) for metric, pos in metric_pos.items() if metric in metrics]
    if not candidates:
        return metrics[0] if metrics else None
    before = [c for c in candidates if c[0] < first.start()]
    if before and _PLACE_ENDS_RE.match(low, first.end()):
        # "looking at killings per square mile, take the SECOND highest area. what's its poverty rate": the sentence
        # ends at the place, so the measure after it is asked of the place, the one before ranks it
        return max(before)[1]
    if before and _PLACE_IS_RE.search(low, max(0, first.start() - 40), first.start()) \
            and re.match(r"\s*(?:[,;.?!]|$)", low[first.end():]):
        # "homicides per 1,000 households for 2020-2022: which area is highest, and ...": the measure before it ranks
        return max(before)[1]
    if before and _CHANGED_RE.search(low[:first.start()]):
        # "whose homicides dropped the most ... and what are homes worth there": the change verb before the ranking
        # word ranks the measure named before it.
        return max(before)[1]
    after = [c for c in candidates if c[0] >= first.start()] + \
        [c for c in mentions_after(low, first.start(), metric_pos) if c[1] in metrics]
    chosen = _group_ranked(min(after)[1] if after else max(candidates)[1], metric_pos)
    # "5th highest homicides per sq mile", "highest homicides per 1,000 households": the ratio is ranked, not the count
    ratios = [m for m in HOMICIDE_RATIOS if m in metrics] if chosen == "homicides" else []
    return next((m for m in ratios if re.match(r"[\w\s-]{0,25}?(?:\bper\s+[\w,]+\s+\w+|\bdensity\b)", low[first.end():])),
                chosen)


def _hint_text(a: dict) -> str:
    """A short block for an LLM prompt (at most 400 characters)."""
    parts = []
    if a["areas"]:
        parts.append("Areas: " + ", ".join(f"{x['name']} ({x['number']})" for x in a["areas"][:4]))
    if a["wards"]:
        parts.append("Wards: " + ", ".join(map(str, a["wards"][:4])))
    if a["districts"]:
        parts.append("Districts: " + ", ".join(map(str, a["districts"][:4])))
    if a["zips"]:
        parts.append("ZIPs: " + ", ".join(a["zips"][:4]))
    if a["submarkets"]:  # the property tool's submarket argument takes these names
        parts.append("IHS submarkets: " + ", ".join(s.name for s in a["submarkets"][:3]))
    if a["quarter"]:
        parts.append(f"Quarter: {a['quarter']}")
    if a["periods"]:
        parts.append("Years: " + "; ".join(f"{p['start']}-{p['end']}" for p in a["periods"][:2]))
    elif a["years"]:
        parts.append("Years: " + ", ".join(map(str, a["years"][:4])))
    if a["metrics"]:
        parts.append("Metrics: " + ", ".join(a["metrics"][:6]))
    if a["ranking"]:
        r = a["ranking"]
        parts.append(f"Rank: {r['order']}" + (f" top {r['top_n']}" if r.get("top_n") else ""))
    if a["per_capita"]:
        parts.append("Per capita")
    if a["unsupported"]:
        parts.append("Not in data: " + ", ".join(a["unsupported"][:3]))
    line = "; ".join(parts)
    if a["not_used"]:  # the draft does not cover these words: the model may call for them itself (issue: own calls)
        line += ("\n" if line else "") + "Not covered by the suggested calls: " + ", ".join(
            f"'{w}'" for w in a["not_used"][:4]) + "; call a tool for them yourself if one can answer them."
    for w in a["warnings"][:2]:
        line += ("\n" if line else "") + "Note: " + w
    if len(line) > 400:
        line = line[:397].rstrip() + "..."
    return line
