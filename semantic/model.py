"""The semantic layer's vocabulary: what a dataset, a measure, a dimension and a join path are.

Everything here is data. A dataset module in semantic/datasets/ declares its measures once (name, label,
unit, how it aggregates, the grains and periods it exists at, its caveats and the words people use for
it); the query executor (semantic/executor.py) is the only code that turns a declaration into figures.
The shape follows dbt MetricFlow's semantic models and BSL's ``with_dimensions(...).with_measures(...)``:
a table, the dimensions it can be grouped and filtered by, and the measures that aggregate it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

# How a measure aggregates over rows, and so over a set of members:
#   count         rows (optionally only those matching ``where``)
#   sum           a column added up
#   weighted_mean a column averaged with another measure as the weight (per capita income by population)
#   mean          a column averaged plainly (an index over months)
#   ratio         numerator / denominator * scale, each itself a measure, recomputed from the sums for a set
#   attribute     a member's text value (an alderperson's name); never aggregated
#   band_median   the median estimated from counts in bands (``parts``, with dollar ``edges``), recomputed from the
#                 bands' sums for a set: the bands add up, a median does not
#   coverage      the share of a member's join weight (an area's land) held by source members where the measure
#                 ``of`` has a value: how much of an area a carried figure rests on
AGGREGATIONS = ("count", "sum", "weighted_mean", "mean", "ratio", "attribute", "band_median", "coverage")

# How a measure relates to time:
#   event     rows have dates: a period filters them (homicides)
#   series    rows are observations at dates: a period picks them and they are averaged (home values)
#   snapshot  one vintage: a period does not apply and is said as a caveat (the 2008-2012 indicators)
TIME_KINDS = ("event", "series", "snapshot")


@dataclass(frozen=True)
class Measure:
    """One figure the data can give: a declaration, not code."""

    name: str
    label: str
    unit: str
    dataset: str
    agg: str
    column: str | None = None
    where: tuple = ()  # (column, value) pairs a counted row must match: arrests are rows with arrest == True
    weight: str | None = None  # weighted_mean: the measure whose values weigh each member
    numerator: str | None = None  # ratio
    denominator: str | None = None  # ratio
    scale: float = 1.0  # ratio: 100 for a percent, 100000 for a rate per 100,000
    grains: tuple = ()  # the place grains it exists at ("community_area", "ward", ...); "city" for one figure
    derived_grains: tuple = ()  # grains reached along a declared join path, labelled as derived
    words: tuple = ()  # what people call it, for the reader and for suggestions
    caveats: tuple = ()
    city: str = "aggregate"  # at city grain: "aggregate" the members, "published" (the source's city row), "none"
    description: str = ""
    decimals: int = 0  # how many decimals its figures are shown with
    parts: tuple = ()  # band_median: the count measures of the bands, lowest first
    edges: tuple = ()  # band_median: each band's lower edge; the last band is open above
    of: str | None = None  # coverage: the carried measure whose support it measures
    # an attribute naming a place of another grain: (that grain, the pattern whose group 1 is the place's member in
    # the attribute's text). The reader follows it to ask that place's figures ("the area covering most of a ZIP").
    links_to: tuple = ()

    def __post_init__(self):
        if self.agg not in AGGREGATIONS:
            raise ValueError(f"measure {self.name}: unknown aggregation {self.agg}")

    @property
    def additive(self) -> bool:
        """A figure whose value over a set is the sum of its members' values."""
        return self.agg in ("count", "sum")


@dataclass(frozen=True)
class Dataset:
    """A source table as the layer sees it: one frame per bundle, its grain columns and its time."""

    name: str
    source: str  # the key in tools/data/datasets.py DATASETS, for sources and coverage
    title: str
    time: str  # one of TIME_KINDS
    frame: Callable  # frame(data) -> DataFrame with a column per dimension it carries
    dimensions: tuple  # the dimension names its frame carries (place and time and attributes)
    coverage: Callable  # coverage(data) -> (first, last) as ISO text ("2001-01-01", "2023-07-19"), or vintage text
    vintage: str = ""  # the period it covers, in words ("2008-2012", "2001-01-01 to 2023-07-19")
    # How a series answers a period of several observations: "mean" them, or take the "last" (Redfin's windows
    # overlap, so a year's sum or mean would count sales twice: the window ending last in the period is the figure).
    period_pick: str = "mean"
    # The same for the source's city rows, where they differ (Redfin's city rows are whole months, one window each:
    # a year's homes sold is the sum of its twelve).
    city_period_pick: str = ""
    # The source's own city-wide rows (socioeconomic.csv's CHICAGO row, Redfin's "Chicago, IL"): what a measure
    # declared city="published" answers for the whole city, never an aggregate of the members.
    city_frame: Callable | None = None
    caveats: tuple = ()
    measures: tuple = ()
    # The words that name the source itself ("Redfin", "Zillow"): a question naming one means that source's measures.
    words: tuple = ()


@dataclass(frozen=True)
class Dimension:
    """Something to group or filter by: a place grain, a unit of time, or an attribute of a row."""

    name: str
    label: str
    kind: str  # "place", "time" or "attribute"
    words: tuple = ()
    members: Callable | None = None  # members(data) -> list of values, in display order
    resolve: Callable | None = None  # resolve(data, value) -> canonical member, raising QueryError
    display: Callable | None = None  # display(data, member) -> a name for people
    value_type: str = "string"  # for the JSON schema: "integer", "string", "boolean"
    # The members a filter on one member means ("GAS STATION" is also "GAS STATION DRIVE/PROP."), or None.
    expand: Callable | None = None
    # A rule on a row rather than a column: mask(data, frame, members) -> which rows are any of the members (a
    # moving holiday is each year's own dates); it applies to frames holding the columns ``needs`` names.
    mask: Callable | None = None
    needs: tuple = ()
    # An attribute of another dimension's members: a filter on it is a filter on ``parent``'s members that have
    # it, found by lookup(data, value) -> parent members (a kind of crime is the IUCR codes of that kind).
    parent: str | None = None
    lookup: Callable | None = None
    # Places grouped by it: groups(data) -> {parent member: this dimension's member} (each community area's main
    # submarket), so a query may group by it and add each group's places up.
    groups: Callable | None = None
    # How the places a filter on it picks are said: picked(data, members named) -> "that hold a district police
    # station", so a lead reads "The 22 community areas that hold a district police station together had ..."
    picked: Callable | None = None
    # People's words for members, as (word, member) pairs ("car" is AUTO): the query accepts them, and the question
    # reader reads its words for the members from here, so a new word is one row.
    member_words: tuple = ()
    description: str = ""


@dataclass(frozen=True)
class JoinPath:
    """How a measure published at one place grain reaches another: weights from a crosswalk table."""

    source: str  # the grain the measure exists at ("zip")
    target: str  # the grain it is carried to ("community_area")
    table: Callable  # table(data) -> DataFrame with columns source, target, weight
    method: str  # how it is carried, said in the result's caveats
    note: str = ""


@dataclass
class Catalog:
    """Every declaration, by name."""

    datasets: dict = field(default_factory=dict)
    measures: dict = field(default_factory=dict)
    dimensions: dict = field(default_factory=dict)
    joins: list = field(default_factory=list)
