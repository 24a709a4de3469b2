"""The typed result of analysing one question: what the planner, the prompt and the trace read.

Every field has a definite type and a neutral default, so no reader needs ``.get()`` fallbacks; the
homicide coverage comes from the loaded data (never from years written into the code).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from analyzer.bound_periods import BoundPeriod
from semantic.catalog import catalog


# A question with a date and no subject is read as homicides (the only data kept by date); a later part of a
# question takes an earlier part's subject instead (analyzer/followup.py)
NO_SUBJECT = "The question names no subject; it was read as homicides, the only data kept by date."


@dataclass(frozen=True)
class YearSpan:
    """An inclusive range of years: ``2015-2019``, or one year when start == end."""

    start: int
    end: int


@dataclass(frozen=True)
class DateSpan:
    """An inclusive span of dates, "YYYY-MM" (a whole month) or "YYYY-MM-DD"; ``label`` names it in the reading."""

    start: str
    end: str
    label: str = ""


@dataclass(frozen=True)
class HourSpan:
    """Hours of the day (0-23) a question keeps; ``label`` says how the words were read ("at night (read as ...)")."""

    hours: list
    label: str


@dataclass(frozen=True)
class PlaceMatch:
    """A community area found in the question, and how it was recognised."""

    number: int
    name: str
    text: str = ""
    match: str = "name"  # name | alias | number | fuzzy


@dataclass(frozen=True)
class SubmarketMatch:
    """A DePaul IHS house-price submarket found in the question (analyzer/submarkets.py), and how: its full name,
    one half of it beside an IHS word, or a community area it holds ("area": ``text`` is that area's name)."""

    code: str
    name: str
    text: str = ""
    match: str = "name"  # name | half | area
    suburban: bool = False  # a suburban Cook County submarket, outside the City of Chicago


# The measures only the semantic layer computes (no tool has them), each with its data domain: the analyzer reads them
# from their declarations' words (semantic/datasets/), and only a query answers them.
# Homicides over the period per unit of something an area holds (its land, its households), declared in the semantic
# layer (semantic/datasets/homicides.py): each is read, bounded, ranked and composed as one kind.
HOMICIDE_RATIOS = tuple(m.name for m in catalog().measures.values()
                        if m.dataset == "homicides" and m.agg == "ratio" and m.denominator != "person_years"
                        and catalog().measures[m.denominator].dataset != "homicides")
LAYER_MEASURES = {"land_area": "census", "population_density": "census", "district_stations": "police_stations",
                  "ward_offices_in_area": "ward_offices",
                  **{m: "homicides" for m in HOMICIDE_RATIOS}}


@dataclass(frozen=True)
class Ranking:
    """The question asks for a ranking: which way, how many, of what."""

    order: str = "desc"
    top_n: int | None = None
    metric: str | None = None
    singular: bool = False
    position: int = 1  # the place asked for: 2 for "the second-deadliest", "the runner-up"
    both_ends: bool = False  # "the 5 richest vs the 5 poorest": the top and the bottom, side by side
    # "how many ZIPs were over $400,000, and which was the cheapest": a ranking of all the places beside a threshold
    # on the same measure, the other way round
    apart: bool = False
    # "the 4 areas w/ the most homicides ... and their combined rate": ranked by the count, the rate asked beside it
    by_count: bool = False


@dataclass(frozen=True)
class HomicideCoverage:
    """The homicide snapshot's years, read from the data."""

    first_year: int
    last_year: int
    last_full_year: int
    end: str


@dataclass(frozen=True)
class CarriedField:
    """One field a follow-up took from an earlier turn: its value (in the trace's JSON form) and that turn."""

    field: str
    value: object
    from_turn: int


@dataclass(frozen=True)
class FollowUp:
    """What a question in a conversation took from the turns before it (analyzer/followup.py)."""

    turn: int  # this question's turn number (1 = the first question)
    carried: list[CarriedField] = field(default_factory=list)
    compare_city: bool = False  # "how does that compare with the city?": the places' calls plus city-wide ones

    def origin(self, name: str) -> int | None:
        """The turn a carried field was first stated in, or None when this turn did not carry it."""
        return next((c.from_turn for c in self.carried if c.field == name), None)


@dataclass(frozen=True)
class AreaCondition:
    """Community areas picked by a socioeconomic measure (analyzer/conditions.py)."""

    metric: str  # the socioeconomic tool's metric
    side: str  # "above" | "below"
    value: float
    span: tuple  # the side and value's characters in the question
    percent: bool = False  # the value was written as a percent ("30%+ of households"): a share, not a count
    grain: str = "community_area"  # what is picked: community areas, or ZIPs by their home values
    years: tuple = ()  # a change's two years ("more homicides in 2021 than in 2019": (2019, 2021))
    reference: str = ""  # the bound named by what it is: "city" ("above the city's"), "median", "mean"


@dataclass(frozen=True)
class RankedSet:
    """Places named by their rank on a measure: "the ten areas with the most homicides" (analyzer/sets.py)."""

    metric: str
    n: int
    order: str  # "desc": the highest n; "asc": the lowest
    span: tuple = ()
    excluded: bool = False  # "then drop any that are also among the 20 ...": the set taken away, not intersected
    # the years the set is ranked over where each set names its own ("top 15 for rate in 2019-2022 but not in the top
    # 15 for rate in 2004-2008"): (first, last); () where it names none
    years: tuple = ()
    position: int = 1  # within a set: "which one had the SECOND highest": the place at that rank
    within: bool = False  # "the 3 worst of them": ranked among the set before it, not over every place
    # "the bottom quartile of ...": named by a quantile of this many groups (it cuts the places with a value)
    groups: int = 0


@dataclass
class Analysis:
    """Entities, periods, metrics and intent found in one question."""

    coverage: HomicideCoverage
    complexity: str = "simple"
    areas: list[PlaceMatch] = field(default_factory=list)
    wards: list[int] = field(default_factory=list)
    districts: list[int] = field(default_factory=list)
    zips: list[str] = field(default_factory=list)
    iucr_codes: list[str] = field(default_factory=list)
    years: list[int] = field(default_factory=list)
    year_range: YearSpan | None = None
    periods: list[YearSpan] = field(default_factory=list)
    months: list[int] = field(default_factory=list)
    year_list: list[int] = field(default_factory=list)  # separate years listed ("2016, 2019 and 2022"), not a range
    follow_year: int | None = None  # the year of a follow-up about the place a ranking found ("the next year")
    # Each clause's timed measure with its own period ("homicides in 2020, and what % of 2016-2022's led to an
    # arrest"): analyzer/bound_periods.py
    bound_periods: list[BoundPeriod] = field(default_factory=list)
    years_together: bool = False  # the listed years' sum is asked for ("2017 and 2020 combined")
    location_narrows: bool = False  # a place type after "of those": the count without it, then with it
    left_out_years: list[int] = field(default_factory=list)  # taken out of a range ("2014-2022 but not 2020")
    left_out_months: list[int] = field(default_factory=list)  # "not counting June": months holds the others
    date_spans: list[DateSpan] = field(default_factory=list)  # month or date spans, one count each
    month_years: list[str] = field(default_factory=list)  # months named with a year ("Jan 2022"), YYYY-MM
    # Conditions after the first, each on its own measure ("a rate above 50 ... and a hardship index of 90 or
    # higher"): the areas that meet them all (AreaCondition)
    more_conditions: list = field(default_factory=list)
    # places named by their rank on a measure ("the top 20 for poverty"), and one asked for within them ("which of
    # them had the highest Zillow value"): analyzer/sets.py
    ranked_sets: list = field(default_factory=list)
    conditions_joint: bool = False  # "how many had X and Y": only the places meeting all the conditions are asked
    rank_within: RankedSet | None = None
    # two sets of places compared (analyzer/groups.py): {"kind": "rest" | "each" | "ends", "figure", "bounds"}
    compared_groups: dict | None = None
    asks_spread: str | None = None  # "range" | "median" | "mean" | "slope": the spread asked (analyzer/groups.py)
    weight_by: str = ""  # "weighted by the ACS population": the population a weighted mean weighs by (query weight_by)
    cover_share: float | None = None  # "how few areas hold half the homicides": the share of the whole (50.0)
    asks_peak: str | None = None  # "when did the price index peak": "high" | "low", a series' extreme over time
    runner_up_gap: bool = False  # "how far ahead of the runner-up": the first two ranked, the gap between them
    ranks_apart: tuple = ()  # "how much higher was the #1 area's rate than the #5 area's": (1, 5), the gap between
    ranks_submarkets: bool = False  # "which IHS submarket had ...": the submarkets are the places ranked
    share_base: str | None = None  # "... of the areas with a Zillow value": the measure whose places make the base
    asks_share_of_places: bool = False  # "what percent of community areas have ...": the count as a share of all
    each_year: bool = False
    span_total: bool = False
    counts_2010: bool = False
    arrests_counted: bool = False  # "how many of those had an arrest": the arrests' count beside the rate
    asks_times: bool = False  # "how many times higher was 60614's value than 60621's": the ratio of two places' figures  # 2010 named as a year of its own, beside "the 2010 census" ("homicides in 2010 vs 2022")
    quarters: list[str] = field(default_factory=list)  # every IHS quarter named ("Q4 2019 and Q4 2025"), oldest first  # "from 2012 through 2022": the span's total, not its two ends
    # The semantic layer's measures the question's words name (semantic/reading.py): a ZIP's main community area, an
    # area's main ZIP, beside the analyzer's own metrics
    named_measures: list[str] = field(default_factory=list)  # "in each of those years": the years named, not the span between them
    years_alone: list[int] = field(default_factory=list)  # beside those, the years named without a month
    hour_spans: list[HourSpan] = field(default_factory=list)  # hours of the day, one count each
    month_days: list[str] = field(default_factory=list)  # calendar days kept in every year, MM-DD ("12-25")
    holidays: list[str] = field(default_factory=list)  # holidays on moving dates, each year's own ("thanksgiving")
    population_growth: str | None = None  # "grew the most since 2010": rank by "change" or "change_pct"
    weekdays: list[int] = field(default_factory=list)  # days of the week kept, 1 = Monday ("on weekends": 6, 7)
    asks_average: bool = False  # "on average per year": the per-year average leads the answer
    ratio_first: int | None = None  # "how many times higher was Logan Square's income than Humboldt Park's": its top
    per_day: bool = False  # "how many people were murdered per day in 2021": the count over the period's days
    ranks_homicide_change: bool = False  # "the largest increase in homicides from 2019 to 2021": the change ranks
    homicide_change_asked: bool = False  # "net change in their homicides from 2019 to 2022": the ends and the change
    ranks_level: bool = False  # "the ZIP with the highest Zillow value ... how much has it grown": the value ranks
    ranks_submarket: bool = False  # "which (Chicago) submarket had ...": the submarkets are what is ranked
    in_dollars: bool = False  # "fell the most in dollar terms": a home value's change in dollars, not percent
    asks_percent_change: bool = False  # "percent change from 2019 to 2021": the change leads
    until_now: bool = False  # one year and "now" ("in 2010, and what is it now"): then, now and the change
    # "if 2024 isn't there, the latest full year": the queries' periods carry it as "else" (semantic/periods.py)
    period_fallback: str | dict = ""
    asks_pooled: bool = False  # "their pooled share of households under $25k": the set's own figure of a share
    growth_counted: str | None = None  # "how many of them lost population": "below" | "above" zero, counted
    open_span: bool = False  # "since 2019", "2019 to now": the span's end is the data's, not a year asked
    area_counted_too: bool = False  # "... compared with homicides in the area where its station sits": both counts
    district_counted: bool = False  # "homicides in district 11 in 2022, and the area its station is in": by district
    station_area: bool = False  # "the district's station is in which community area, and that area's rate"
    station_share: bool = False  # "what percent of district 7's homicides happened in its station's area"
    station_set: bool = False  # "the community areas that contain a police district station": those areas as a set
    station_zip: bool = False  # "what zip is the station in, and what do homes go for there": that ZIP's value
    relative_year_note: str | None = None
    recent: bool = False
    metrics: list[str] = field(default_factory=list)
    domains: list[str] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    group_by: str | None = None
    unsupported: list[str] = field(default_factory=list)
    unsupported_words: list[str] = field(default_factory=list)  # the question's words for each ("shot")
    ranking: Ranking | None = None
    per_capita: bool = False
    trend: bool = False
    change_direction: str = "up"  # which way a "biggest change" ranking runs
    census_group: str | None = None
    census_groups: list[str] = field(default_factory=list)  # every group of residents named, in order
    households_counted: bool = False  # "how many households earning ...": a household band by count
    counts_places: bool = False  # "how many of the wards had ...": the places are counted
    asks_total: bool = False  # a total or share over a set of places is asked ("together", "what share")
    census_by_count: bool = False  # a group of residents ranked by how many, not by share ("biggest Black population")
    domestic_filter: bool = False
    correlation: bool = False
    asks_gap: bool = False  # "how far above the city average", "difference from Chicago": the gap itself is asked
    all_places_beside: bool = False  # "... vs the median across all areas": the same figure over every place too
    rate_population: str = ""  # "per 100k residents aged 18 to 34": the population a rate divides by (its query's)
    excess_asked: bool = False  # "how many more killed than at the city's rate": the count above that rate's number
    compound_growth: bool = False  # "the average yearly (compound) growth" of a value between two months
    years_with: dict | None = None  # "in how many years ... zero homicides": {"op": "==", "value": 0} on the count
    years_streak: bool = False  # "the longest streak of years homicides went up": the longest run of them
    years_vs_before: str = ""  # "in how many years did homicides go up compared with the year before": "up" | "down"
    first_year: dict | None = None  # "the first year with more than 700": {"which", "side", "value"}
    years_vs_city: str = ""  # "in how many of the years ... was its rate higher than the city's": "above" | "below"
    dated_months: bool = False  # "the single deadliest month on record": months of years, not calendar months
    step: str = ""  # "vs the month before": each row of this time grain against the one before it
    comparison: bool = False
    chained: bool = False
    citywide: bool = False
    city_as_a_whole: bool = False  # "the citywide rate", "the whole city": the city itself, beside a place
    broad_places: list[str] = field(default_factory=list)
    invalid: dict = field(default_factory=dict)  # kind -> values the question named that do not exist
    out_of_range_years: list[int] = field(default_factory=list)
    index_years: list[int] = field(default_factory=list)  # years that date the IHS price index, not the homicides
    warnings: list[str] = field(default_factory=list)
    injection_suspected: bool = False
    hint_text: str = ""
    error: str | None = None  # the analyzer failed; the question still runs without hints
    compare_city: bool = False  # a follow-up compares its places with the whole city
    followup: FollowUp | None = None  # set in a conversation's later turns: what was carried, from where
    not_used: list[str] = field(default_factory=list)  # phrases of the question the reading could not use
    # where the whole reading left words unused and each part reads alone: the parts (analyzer/parts.py), each
    # planned and answered on its own
    parts: list = field(default_factory=list)
    # A query of the semantic layer for a question in its declarations' words that no other reading covers
    # ("who is the alderman of the 42nd ward"): the planner runs it as a query_data call (semantic/reading.py).
    declared_query: dict | None = None
    declared_extra: dict | None = None  # the layer's names and addresses asked beside another subject
    # "the number of homicides", "how many murders": a count where a per-area comparison would otherwise take the
    # rate per 100,000 (a correlation across areas of different sizes).
    asks_count: bool = False
    # What the question leaves out (analyzer/negations.py): places, homicide kinds, places outside Chicago.
    excluded_areas: list[PlaceMatch] = field(default_factory=list)
    excluded_wards: list[int] = field(default_factory=list)
    excluded_districts: list[int] = field(default_factory=list)
    excluded_zips: list[str] = field(default_factory=list)  # left out of a ranking of ZIPs' home values
    rest_of_city: bool = False  # "Austin vs the rest of the city": the city without the places named
    police_headquarters: bool = False  # "where is police headquarters": not a district's station
    asks_share: bool = False  # a share is the figure asked ("what share of their homicides fell on a weekend")
    share_of_city: bool = False  # "what share of Chicago's homicides happened in Englewood": the place's share
    area_condition: AreaCondition | None = None  # areas picked by a socioeconomic measure
    places_together: bool = False  # "Englewood and West Englewood combined": the places counted as one
    locations_together: bool = False  # "on a street or in an alley": the kinds of place counted as one
    acs_named: bool = False  # the ACS survey is named as a source ("per the 2019-2023 ACS", "the latest ACS")
    asks_rank: bool = False  # "where did Englewood rank for homicides": the one named area's position among all
    rank_order: str = "desc"  # that rank counted from the highest, or from the lowest ("(1 = lowest)")
    asks_now: bool = False  # "now", "currently": the latest figure is asked for too
    min_homicides: int | None = None  # "among wards with at least 50 homicides": the ranking's floor
    year_found_citywide: bool = False  # "the city's deadliest year - how many did ward 5 have that year"
    outside_places: list[str] = field(default_factory=list)  # "Austin, Texas", "Evanston": not in the data
    unknown_places: list[str] = field(default_factory=list)  # of those, names no Chicago area has ("Lakeview Heights")
    domestic_excluded: bool = False  # "non-domestic homicides"
    arrest_filter: str | None = None  # "arrested" ("solved") | "not_arrested" ("unsolved")
    share_without_arrest: bool = False  # "what percent never had anyone arrested": the share with no arrest leads
    excluded_locations: list[str] = field(default_factory=list)  # "not on the street" -> ["STREET"]
    submarkets: list[SubmarketMatch] = field(default_factory=list)  # IHS price-index submarkets named
    quarter: str | None = None  # one quarter of the price index asked for, "2008Q3"
    time_grains: list = field(default_factory=list)  # "what hour ..., and which weekday": each grain asked
    month_groups: list = field(default_factory=list)  # stretches of the year compared, each counted on its own
    price_figures_beside: list[str] = field(default_factory=list)  # other summary figures named beside the ranked one
    price_figure: str | None = None  # the submarket figure asked for: median_sales_price, yoy_change, ... (None: index)

    @property
    def refers_to_data(self) -> bool:
        """The question names something the data tools deal in: a subject, place, period, grouping or ranking,
        or a subject the data lacks (that one gets its own answer). "What is MCP?" or "hello" names none."""
        return bool(self.domains or self.metrics or self.areas or self.wards or self.districts or self.zips
                    or self.iucr_codes or self.years or self.year_range or self.periods or self.months
                    or self.date_spans or self.hour_spans or self.month_days or self.holidays or self.weekdays or self.ranking
                    or self.group_by or self.locations
                    or self.broad_places or self.unsupported or self.submarkets
                    or self.out_of_range_years or self.census_group or self.relative_year_note
                    or any((self.invalid or {}).values()) or self.outside_places
                    # "how many community areas have more than 75,000 people": read by the layer's declarations and a
                    # threshold, no analyzer subject; a model was told the question named nothing the data has
                    or self.area_condition or self.declared_query or self.declared_extra)

    @property
    def outside_only(self) -> bool:
        """The question names only places outside Chicago: nothing in the data is about them."""
        return bool(self.outside_places) and not (
            self.areas or self.wards or self.districts or self.zips or self.citywide or self.excluded_areas
            or self.excluded_wards or self.excluded_districts or self.rest_of_city)

    @property
    def area_numbers(self) -> list[int]:
        return [a.number for a in self.areas]

    @property
    def submarket_codes(self) -> list[str]:
        return [s.code for s in self.submarkets]

    def to_dict(self) -> dict:
        out = asdict(self)
        out["coverage"] = {"homicides": out["coverage"]}  # the trace's shape: coverage per dataset
        if self.followup is None:
            del out["followup"]  # a first question carries nothing; the trace shows no empty record
        return out

    @classmethod
    def from_dict(cls, stored: dict) -> Analysis:
        """An analysis as ``to_dict`` wrote it (a stored run's), typed again; keys it does not know are ignored."""
        known = {f.name for f in fields(cls)}
        found = {k: v for k, v in (stored or {}).items() if k in known}
        cov = (found.pop("coverage", None) or {}).get("homicides") or {}
        ranking, year_range, followup = found.pop("ranking", None), found.pop("year_range", None), \
            found.pop("followup", None)
        condition = found.pop("area_condition", None)
        within = found.pop("rank_within", None)
        found.pop("parts", None)  # a later turn reads the whole question's fields, not its parts
        return cls(
            ranked_sets=[RankedSet(**{**r, "span": tuple(r.get("span") or ()), "years": tuple(r.get("years") or ())}) for r in found.pop("ranked_sets", None)
                         or []],
            rank_within=RankedSet(**{**within, "span": tuple(within.get("span") or ())}) if within else None,
            coverage=HomicideCoverage(cov.get("first_year", 0), cov.get("last_year", 0),
                                      cov.get("last_full_year", 0), cov.get("end", "")),
            areas=[PlaceMatch(**area) for area in found.pop("areas", None) or []],
            excluded_areas=[PlaceMatch(**area) for area in found.pop("excluded_areas", None) or []],
            submarkets=[SubmarketMatch(**sub) for sub in found.pop("submarkets", None) or []],
            periods=[YearSpan(**p) for p in found.pop("periods", None) or []],
            date_spans=[DateSpan(**d) for d in found.pop("date_spans", None) or []],
            hour_spans=[HourSpan(**h) for h in found.pop("hour_spans", None) or []],
            ranking=Ranking(**ranking) if ranking else None,
            bound_periods=[BoundPeriod(**b) for b in found.pop("bound_periods", None) or []],
            area_condition=AreaCondition(**condition) if condition else None,
            year_range=YearSpan(**year_range) if year_range else None,
            followup=FollowUp(followup["turn"], [CarriedField(**c) for c in followup.get("carried") or []],
                              bool(followup.get("compare_city"))) if followup else None,
            **found)
