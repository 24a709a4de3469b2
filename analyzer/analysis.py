"""The typed result of analysing one question: what the planner, the prompt and the trace read.

Every field has a definite type and a neutral default, so no reader needs ``.get()`` fallbacks; the
homicide coverage comes from the loaded data (never from years written into the code).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class YearSpan:
    """An inclusive range of years: ``2015-2019``, or one year when start == end."""

    start: int
    end: int


@dataclass(frozen=True)
class PlaceMatch:
    """A community area found in the question, and how it was recognised."""

    number: int
    name: str
    text: str = ""
    match: str = "name"  # name | alias | number | fuzzy


@dataclass(frozen=True)
class Ranking:
    """The question asks for a ranking: which way, how many, of what."""

    order: str = "desc"
    top_n: int | None = None
    metric: str | None = None
    singular: bool = False


@dataclass(frozen=True)
class HomicideCoverage:
    """The homicide snapshot's years, read from the data."""

    first_year: int
    last_year: int
    last_full_year: int
    end: str


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
    relative_year_note: str | None = None
    recent: bool = False
    metrics: list[str] = field(default_factory=list)
    domains: list[str] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    group_by: str | None = None
    unsupported: list[str] = field(default_factory=list)
    ranking: Ranking | None = None
    per_capita: bool = False
    trend: bool = False
    change_direction: str = "up"  # which way a "biggest change" ranking runs
    census_group: str | None = None
    domestic_filter: bool = False
    correlation: bool = False
    comparison: bool = False
    chained: bool = False
    citywide: bool = False
    broad_places: list[str] = field(default_factory=list)
    invalid: dict = field(default_factory=dict)  # kind -> values the question named that do not exist
    out_of_range_years: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    injection_suspected: bool = False
    hint_text: str = ""
    error: str | None = None  # the analyzer failed; the question still runs without hints

    @property
    def area_numbers(self) -> list[int]:
        return [a.number for a in self.areas]

    def to_dict(self) -> dict:
        out = asdict(self)
        out["coverage"] = {"homicides": out["coverage"]}  # the trace's shape: coverage per dataset
        return out
