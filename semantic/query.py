"""The typed query: parsed from JSON, checked against the declarations, and echoed in canonical form.

A query is MetricFlow's metrics x group_by x where x order x limit, plus what ChiQA's questions compose:
a period per measure ("2020" beside "2021"), derived columns (change, percent change, rank, share),
a threshold on the grouped rows (``having``), totals over the selection with its share of the city, a
correlation of two columns, and ``members_from``: this query's members are another query's result rows.
Every problem is a QueryError naming the field (``at``) and, for unknown names, the nearest ones.
"""
from __future__ import annotations

import calendar
import difflib
import math
import re
from dataclasses import dataclass, field

from semantic.catalog import catalog, public_measures
from semantic.datasets.population import POPULATIONS
from semantic.errors import QueryError

MAX_DEPTH = 3  # members_from nesting
MAX_MEASURES = 12
MAX_FILTERS = 20
MAX_VALUES = 200
MAX_LIMIT = 1000
DERIVED_OPS = ("change", "pct_change", "difference", "ratio", "percent_of", "sum", "share_of_total", "rank",
               "quantile", "step", "run", "cagr", "excess")
# "step": a column's change from the previous row of the one ordered time grain grouped by ("the biggest jump vs the
# month before"); the first row of each run has none. Places grouped beside it each run apart. "run": how many rows
# in a row along that grain, to this one, have a value above zero (below it with direction "asc"): "the longest
# streak of years homicides went up" is the largest run of the yearly step.
STEP_GRAINS = ("year", "quarter", "month", "date")
# "quartiles by hardship": the places with a value cut into this many equal groups (pandas.qcut on their ranks)
QUANTILE_GROUPS = range(2, 11)
QUANTILE_NAMES = {3: "tercile", 4: "quartile", 5: "quintile", 10: "decile"}  # the words for a group of each cut
# the ops of two columns; percent_of is the first as a percent of the second ("what percent of them were at night")
PAIR_OPS = ("change", "pct_change", "difference", "ratio", "percent_of", "sum", "cagr", "excess")
# "excess": a count (first) above the number it would be at the city's own figure of the ratio (second) over the
# same period ("how many more killings than at the city's rate"): count - count x city / ratio.
# "cagr": the average yearly (compound) growth from the first column to the second over "years" years, in percent
HAVING_OPS = (">", ">=", "<", "<=", "==", "!=")
# A threshold named by what it is, not by its number: the city's own figure for the column's measure (same period
# and filters), or the median or mean over the grouped rows ("areas whose income is above the city's").
HAVING_REFERENCES = ("city", "median", "mean")
# ... or a multiple of one: "2*city" ("more than double the city-wide rate")
MULTIPLE_RE = re.compile(r"(\d{1,3}(?:\.\d{1,3})?)\s*\*\s*(city|median|mean)")
FILTER_OPS = ("in", "not_in", "between", "equals")
TOP_KEYS = ("measures", "group_by", "period", "filters", "members_from", "derived", "having", "order_by", "limit",
            "offset", "totals", "correlate", "population", "spread", "vs_city", "groups", "count_share", "count_base",
            "trend", "cover", "weight_by")
# "trend": a least-squares line through a column over the one time grain grouped by ("the slope of the yearly counts").
TREND_GRAINS = ("year", "quarter", "month")
# "weighted by each area's 2019-23 ACS population": the population measure a weighted mean's areas are weighed by
WEIGHT_POPULATIONS = {"acs_2019_2023": "population", "census_2010": "population_2010"}
# Sets of the grouped rows compared ("areas above the median poverty vs the rest", "majority-Black vs majority-Hispanic
# areas", "the 5 lowest hardship vs the 5 highest"): each set is picked by its own having or order_by + limit and
# gives one figure per column, pooled over its members (a rate from the set's sums) or their plain mean.
GROUP_FIGURES = ("pooled", "mean", "median")
MAX_GROUPS = 4
GROUP_KEYS = ("label", "having", "order_by", "limit", "figure", "figure_of", "rest")


FALLBACKS = ("latest", "latest_full")  # a period's "else": the latest period held, or the latest whole one
_MONTH_NAMES = tuple(calendar.month_name)[1:]  # "January" ... "December" (the first entry is "")


@dataclass
class Period:
    """A canonical period: whole years, a span of days, or a list of months or quarters."""

    kind: str  # "years" | "span" | "months" | "quarters"
    values: list = field(default_factory=list)  # years (int), months ("YYYY-MM") or quarters ("YYYYQn")
    start: str = ""  # span: YYYY-MM-DD
    end: str = ""
    # "else": "latest" | "latest_full": where the data ends before every member, its latest period of the same kind
    # stands in (the user's own fallback: "if March 2021 isn't there, the latest month you have"); or a period the
    # user names ("if you don't have 2021, give me the 2018 total"), where the data holds none of this one
    fallback: "str | Period" = ""

    def to_dict(self) -> dict:
        out = {"start": self.start, "end": self.end} if self.kind == "span" else {self.kind: list(self.values)}
        if not self.fallback:
            return out
        return {**out, "else": self.fallback.to_dict() if isinstance(self.fallback, Period) else self.fallback}

    def label(self) -> str:
        if self.kind == "span":
            if self.start.endswith("-01-01") and self.end.endswith("-12-31"):  # whole years: "2019-2022"
                first, last = self.start[:4], self.end[:4]
                return first if first == last else f"{first}-{last}"
            return self.start if self.start == self.end else f"{self.start} to {self.end}"  # one day: that day
        if self.kind == "years" and len(self.values) > 2 and self.values == list(
                range(self.values[0], self.values[-1] + 1)):
            return f"{self.values[0]}-{self.values[-1]}"
        return ", ".join(str(v) for v in self.values)

    def words(self) -> str:
        """The period as a sentence says it: months by name ("June 2015"), else the label."""
        if self.kind != "months":
            return self.label()
        names = [_MONTH_NAMES[int(v[5:7]) - 1] + " " + v[:4] for v in self.values]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass
class MeasureSpec:
    measure: str
    name: str  # the column it fills
    period: Period | None = None
    filters: list = field(default_factory=list)
    per_year: bool = False
    matched_with: str = ""  # another column of the same carried measure: both over the source members valued in both

    def to_dict(self) -> dict:
        out = {"measure": self.measure, "as": self.name}
        if self.matched_with:
            out["matched_with"] = self.matched_with
        if self.period:
            out["period"] = self.period.to_dict()
        if self.filters:
            out["filters"] = [f.to_dict() for f in self.filters]
        if self.per_year:
            out["per_year"] = True
        return out


@dataclass
class Filter:
    dimension: str
    op: str
    values: list
    via: str = ""  # the attribute it was written as ("area_submarket"): a set named by what its members share
    named: tuple = ()  # the attribute's members as written (the submarket, True), before they became places

    def to_dict(self) -> dict:
        if self.op == "equals":
            return {"dimension": self.dimension, "equals": self.values[0]}
        return {"dimension": self.dimension, self.op: list(self.values)}


@dataclass
class Query:
    measures: list
    group_by: list = field(default_factory=list)
    period: Period | None = None
    filters: list = field(default_factory=list)
    members_from: "Query | None" = None
    derived: list = field(default_factory=list)  # [{"name", "op", "of": [a, b]}]
    having: list = field(default_factory=list)  # [{"field", "op", "value"}]
    order_by: list = field(default_factory=list)  # [{"field", "direction"}]
    limit: int | None = None
    offset: int = 0  # rows of the order skipped before the limit: "the 2nd-biggest rise" is offset 1, limit 1
    totals: bool = False
    correlate: list = field(default_factory=list)
    population: str = "auto"
    spread: list = field(default_factory=list)  # columns whose min, median and max over the rows are given
    vs_city: bool = False  # with a spread: the city's own figure beside the places' plain average
    groups: list = field(default_factory=list)  # [{"label", "having", "order_by", "limit", "figure"}]
    count_share: bool = False  # the rows a having keeps as a share of the rows with a value ("what % of areas")
    # with count_share: columns a row must also have a value of to be in the share's base ("what percent of the areas
    # with a Zillow value in Jan 2024 ...": of the 76 with one, not of all 77)
    count_base: list = field(default_factory=list)
    trend: list = field(default_factory=list)  # columns fitted by a least-squares line over the time grain
    # {"of": column, "share": percent}: the fewest rows, largest first, whose column holds that share of the city's
    # figure ("how few areas account for half the homicides")
    cover: dict = field(default_factory=dict)
    weight_by: str = ""  # the population a weighted mean weighs areas by, where not its declared weight

    @property
    def place(self) -> str | None:
        dims = catalog().dimensions
        return next((g for g in self.group_by if dims[g].kind == "place"), None)

    def fields(self) -> list[str]:
        return list(self.group_by) + [m.name for m in self.measures] + [d["name"] for d in self.derived]

    def to_dict(self) -> dict:
        out: dict = {"measures": [m.to_dict() for m in self.measures], "group_by": list(self.group_by)}
        if self.period:
            out["period"] = self.period.to_dict()
        if self.filters:
            out["filters"] = [f.to_dict() for f in self.filters]
        if self.members_from:
            out["members_from"] = self.members_from.to_dict()
        for key in ("derived", "having", "order_by", "correlate", "spread", "vs_city", "groups", "trend", "cover",
                    "weight_by"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.limit is not None:
            out["limit"] = self.limit
        if self.offset:
            out["offset"] = self.offset
        if self.totals:
            out["totals"] = True
        if self.count_share:
            out["count_share"] = True
        if self.count_base:
            out["count_base"] = list(self.count_base)
        if self.population != "auto":
            out["population"] = self.population
        return out


# ------------------------------------------------------------------ parsing

def _nearest(name, choices) -> list[str]:
    """The closest names by spelling, else the measures whose declared words the name uses ("murders_total":
    homicides), so the error a model repairs from names what it meant."""
    close = difflib.get_close_matches(str(name), list(choices), n=3, cutoff=0.5)
    if close:
        return close
    words = set(re.split(r"[^a-z0-9]+", str(name).lower())) - {""}
    by_words = [m for m in choices if m in catalog().measures and words & {
        w for word in catalog().measures[m].words for w in word.lower().split()}]
    return by_words[:3]


def _object(value, at: str) -> dict:
    if not isinstance(value, dict):
        raise QueryError(f"{at or 'the query'} must be a JSON object", "invalid_query", at)
    return value


def _list(value, at: str, limit: int) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        value = [value]
    if len(value) > limit:
        raise QueryError(f"{at} takes at most {limit} items", "too_large", at)
    return value


def _name(value, at: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 80:
        raise QueryError(f"{at} must be a name (text up to 80 characters)", "invalid_query", at)
    return value.strip()


def _int(value, at: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise QueryError(f"{at} must be a whole number", "invalid_query", at)
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise QueryError(f"{at} must be a whole number", "invalid_query", at) from None
    if not math.isfinite(number) or not number.is_integer() or not low <= number <= high:
        raise QueryError(f"{at} must be a whole number from {low} to {high}", "out_of_range", at)
    return int(number)


def _day(text, at: str, end: bool) -> str:
    """A period bound as a day: "2020" -> 2020-01-01 (or -12-31 at the end), "2020-07" likewise."""
    text = str(text).strip()
    found = re.fullmatch(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?", text)
    if not found:
        raise QueryError(f"{at} must be a date written YYYY, YYYY-MM or YYYY-MM-DD, got {text[:40]!r}",
                         "invalid_period", at)
    year, month, day = int(found.group(1)), found.group(2), found.group(3)
    month = int(month) if month else (12 if end else 1)
    if not 1 <= month <= 12:
        raise QueryError(f"{at}: month {month} does not exist", "invalid_period", at)
    last = calendar.monthrange(year, month)[1]
    day = int(day) if day else (last if end else 1)
    if not 1 <= day <= last:
        raise QueryError(f"{at}: {year}-{month:02d} has no day {day}", "invalid_period", at)
    return f"{year:04d}-{month:02d}-{day:02d}"


def parse_period(raw, at: str) -> Period | None:
    if raw is None:
        return None
    if isinstance(raw, (int, str)) and not isinstance(raw, bool):
        raw = {"year": raw}
    raw = _object(raw, at)
    fallback = raw.get("else") or ""
    if isinstance(fallback, dict) and "else" not in fallback:
        fallback = _period_of(fallback, f"{at}.else")
    elif fallback not in ("", *FALLBACKS):
        raise QueryError(f"{at}.else must be one of {', '.join(FALLBACKS)} or a period; got {fallback!r}",
                         "invalid_period", at)
    period = _period_of({k: v for k, v in raw.items() if k != "else"}, at)
    period.fallback = fallback
    return period


def _period_of(raw: dict, at: str) -> Period:
    keys = set(raw)
    dims = catalog().dimensions
    if keys in ({"year"}, {"years"}):
        years = [dims["year"].resolve(None, y) for y in _list(raw.get("year", raw.get("years")), at, 100)]
        if not years:
            raise QueryError(f"{at}: name at least one year", "invalid_period", at)
        return Period("years", sorted(set(years)))
    if keys in ({"month"}, {"months"}):
        months = [dims["month"].resolve(None, m) for m in _list(raw.get("month", raw.get("months")), at, 400)]
        if not months:
            raise QueryError(f"{at}: name at least one month", "invalid_period", at)
        return Period("months", sorted(set(months)))
    if keys in ({"quarter"}, {"quarters"}):
        quarters = [dims["quarter"].resolve(None, q) for q in _list(raw.get("quarter", raw.get("quarters")), at, 200)]
        if not quarters:
            raise QueryError(f"{at}: name at least one quarter", "invalid_period", at)
        return Period("quarters", sorted(set(quarters)))
    if keys and keys <= {"start", "end"}:
        start = _day(raw.get("start", "1900"), f"{at}.start", end=False)
        end = _day(raw.get("end", "2100"), f"{at}.end", end=True)
        if start > end:
            raise QueryError(f"{at}: start {start} is after end {end}", "invalid_period", at)
        return Period("span", start=start, end=end)
    raise QueryError(f"{at} must be one of {{year}}, {{years}}, {{month}}, {{months}}, {{quarter}}, {{quarters}} "
                     f"or {{start, end}}; got keys {sorted(keys)[:6]}", "invalid_period", at)


def _filter(raw, at: str, data) -> Filter:
    raw = _object(raw, at)
    dims = catalog().dimensions
    name = _name(raw.get("dimension"), f"{at}.dimension")
    if name not in dims:
        raise QueryError(f"unknown dimension {name!r}", "unknown_dimension", f"{at}.dimension",
                         _nearest(name, dims))
    ops = [op for op in FILTER_OPS if op in raw]
    extra = set(raw) - {"dimension", *FILTER_OPS}
    if len(ops) != 1 or extra:
        raise QueryError(f"{at} needs 'dimension' and exactly one of {', '.join(FILTER_OPS)}", "invalid_filter", at)
    op = ops[0]
    values = [raw[op]] if op == "equals" else _list(raw[op], f"{at}.{op}", MAX_VALUES)
    if op == "between" and len(values) != 2:
        raise QueryError(f"{at}.between takes [low, high]", "invalid_filter", at)
    if not values:
        raise QueryError(f"{at}.{op} names no members", "invalid_filter", at)
    resolve = dims[name].resolve
    try:
        values = [resolve(data, v) if resolve else v for v in values]
    except QueryError as exc:
        exc.at = exc.at or f"{at}.{op}"
        raise
    if dims[name].expand is not None and op in ("in", "not_in", "equals"):
        values = list(dict.fromkeys(m for v in values for m in dims[name].expand(data, v)))
        op = "in" if op == "equals" else op
    if dims[name].parent is not None:  # an attribute of another dimension's members: a filter on those members
        if op == "between":
            raise QueryError(f"{at}: {name} is filtered by naming its members", "invalid_filter", at)
        named = tuple(values)
        values = list(dict.fromkeys(m for v in values for m in dims[name].lookup(data, v)))
        return Filter(dims[name].parent, "in" if op == "equals" else op, values, via=name, named=named)
    return Filter(name, op, values)


def _measure_spec(raw, at: str, data) -> MeasureSpec:
    if isinstance(raw, str):
        raw = {"measure": raw}
    raw = _object(raw, at)
    extra = set(raw) - {"measure", "as", "period", "filters", "per_year", "matched_with"}
    if extra:
        raise QueryError(f"{at} has unknown key(s) {sorted(extra)[:5]}", "invalid_query", at)
    name = _name(raw.get("measure"), f"{at}.measure")
    known = public_measures()
    if name not in known:
        raise QueryError(f"unknown measure {name!r}", "unknown_measure", f"{at}.measure", _nearest(name, known))
    alias = raw.get("as")
    if alias is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,60}", str(alias)):
        raise QueryError(f"{at}.as must be a name of letters, digits and _", "invalid_query", f"{at}.as")
    period = parse_period(raw.get("period"), f"{at}.period")
    filters = [_filter(f, f"{at}.filters[{i}]", data) for i, f in enumerate(_list(raw.get("filters"), at, MAX_FILTERS))]
    per_year = raw.get("per_year", False)
    if not isinstance(per_year, bool):
        raise QueryError(f"{at}.per_year must be true or false", "invalid_query", f"{at}.per_year")
    matched = raw.get("matched_with") or ""
    if matched and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,60}", str(matched)):
        raise QueryError(f"{at}.matched_with must name another column", "invalid_query", f"{at}.matched_with")
    return MeasureSpec(name, alias or "", period, filters, per_year, matched)


def _matched(measures: list, at: str) -> None:
    """matched_with names another column of the same measure; the pairing holds both ways."""
    by_name = {spec.name: spec for spec in measures}
    for i, spec in enumerate(measures):
        if not spec.matched_with:
            continue
        other = by_name.get(spec.matched_with)
        if other is None or other is spec or other.measure != spec.measure:
            raise QueryError(f"{at}measures[{i}].matched_with must name another column of the measure {spec.measure}",
                             "invalid_query", f"{at}measures[{i}].matched_with")
        if other.matched_with and other.matched_with != spec.name:
            raise QueryError(f"{at}measures[{i}]: a column is matched with one other column", "invalid_query",
                             f"{at}measures[{i}].matched_with")
        other.matched_with = spec.name


def _column_names(measures: list) -> None:
    """A measure asked once fills a column of its own name; asked for several periods, each is suffixed."""
    counts: dict = {}
    for spec in measures:
        counts[spec.measure] = counts.get(spec.measure, 0) + 1
    for spec in measures:
        if not spec.name:
            suffix = re.sub(r"[^0-9A-Za-z]+", "_", spec.period.label()) if spec.period else "all"
            spec.name = spec.measure if counts[spec.measure] == 1 else f"{spec.measure}_{suffix}"


def parse_query(raw, data, depth: int = 0, at: str = "") -> Query:
    """A checked Query from a JSON object, or a QueryError naming the first problem."""
    raw = _object(raw, at)
    unknown = set(raw) - set(TOP_KEYS)
    if unknown:
        name = sorted(unknown)[0]
        raise QueryError(f"unknown query key {name!r}; valid keys: {', '.join(TOP_KEYS)}", "invalid_query",
                         f"{at}{name}", _nearest(name, TOP_KEYS))
    specs = _list(raw.get("measures"), f"{at}measures", MAX_MEASURES)
    if not specs:
        raise QueryError("a query needs at least one measure", "missing_measure", f"{at}measures")
    measures = [_measure_spec(s, f"{at}measures[{i}]", data) for i, s in enumerate(specs)]
    _column_names(measures)
    seen = set()
    for spec in measures:
        if spec.name in seen:
            raise QueryError(f"two measures fill the column {spec.name!r}: give one an 'as'", "duplicate_field",
                             f"{at}measures")
        seen.add(spec.name)
    _matched(measures, at)
    dims = catalog().dimensions
    group_by = [_name(g, f"{at}group_by") for g in _list(raw.get("group_by"), f"{at}group_by", 3)]
    for g in group_by:
        if g not in dims:
            raise QueryError(f"unknown dimension {g!r}", "unknown_dimension", f"{at}group_by", _nearest(g, dims))
    if sum(dims[g].kind == "place" for g in group_by) > 1:
        raise QueryError("group by one place grain at a time", "invalid_query", f"{at}group_by")
    if len(set(group_by)) != len(group_by):
        raise QueryError("a dimension is named twice in group_by", "invalid_query", f"{at}group_by")
    query = Query(measures=measures, group_by=group_by)
    query.period = parse_period(raw.get("period"), f"{at}period")
    query.filters = [_filter(f, f"{at}filters[{i}]", data)
                     for i, f in enumerate(_list(raw.get("filters"), f"{at}filters", MAX_FILTERS))]
    if raw.get("members_from") is not None:
        if depth + 1 > MAX_DEPTH:
            raise QueryError(f"members_from nests at most {MAX_DEPTH} deep", "too_deep", f"{at}members_from")
        query.members_from = parse_query(raw["members_from"], data, depth + 1, f"{at}members_from.")
        # A set's members feed a query by the same place ("their incomes, each") or by no place at all ("the month
        # with the most homicides across those five areas": a filter on the set's places, grouped by time).
        inner_place = query.members_from.place
        if inner_place is None or query.place not in (None, inner_place):
            raise QueryError("members_from must group by a place, the same place grain as the query that uses its "
                             "rows (or that query by no place)", "invalid_composition", f"{at}members_from")
    query.population = raw.get("population", "auto")
    if query.population not in POPULATIONS:
        raise QueryError(f"population must be one of {', '.join(POPULATIONS)}", "invalid_query", f"{at}population")
    query.weight_by = raw.get("weight_by") or ""
    if query.weight_by and query.weight_by not in WEIGHT_POPULATIONS:
        raise QueryError(f"weight_by must be one of {', '.join(WEIGHT_POPULATIONS)}", "invalid_query", f"{at}weight_by")
    _derived(query, raw, at)
    _ordering(query, raw, at)
    return query


def _known_field(query: Query, name, at: str) -> str:
    name = _name(name, at)
    if name not in query.fields():
        raise QueryError(f"{at} names {name!r}, which is no column of this query (columns: "
                         f"{', '.join(query.fields())})", "unknown_field", at, _nearest(name, query.fields()))
    return name


def _derived(query: Query, raw: dict, at: str) -> None:
    for i, item in enumerate(_list(raw.get("derived"), f"{at}derived", MAX_MEASURES)):
        where = f"{at}derived[{i}]"
        item = _object(item, where)
        op = item.get("op")
        if op not in DERIVED_OPS:
            raise QueryError(f"{where}.op must be one of {', '.join(DERIVED_OPS)}", "invalid_query", f"{where}.op")
        of = _list(item.get("of"), f"{where}.of", 2)
        need = 2 if op in PAIR_OPS else 1
        if len(of) != need:
            raise QueryError(f"{where}.of takes {need} column name(s) for {op}", "invalid_query", f"{where}.of")
        of = [_known_field(query, f, f"{where}.of") for f in of]
        name = item.get("name") or f"{op}_{'_'.join(of)}"[:60]
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,60}", str(name)) or name in query.fields():
            raise QueryError(f"{where}.name must be a new column name", "invalid_query", f"{where}.name")
        direction = item.get("direction", "desc")
        if op in ("rank", "run") and direction not in ("asc", "desc"):
            raise QueryError(f"{where}.direction must be asc or desc", "invalid_query", f"{where}.direction")
        groups = item.get("groups", 4)
        if op == "quantile" and (isinstance(groups, bool) or groups not in QUANTILE_GROUPS):
            raise QueryError(f"{where}.groups must be a whole number from 2 to 10", "invalid_query", f"{where}.groups")
        years = item.get("years")
        if op == "cagr" and (isinstance(years, bool) or not isinstance(years, (int, float)) or not 0 < years <= 100):
            raise QueryError(f"{where}.years must be the years between the two columns (above 0, at most 100)",
                             "invalid_query", f"{where}.years")
        along = [g for g in query.group_by if g in STEP_GRAINS]
        if op in ("step", "run") and len(along) != 1:
            raise QueryError(f"{where}: {op} needs group_by to hold one of {', '.join(STEP_GRAINS)}",
                             "invalid_query", f"{where}.op")
        # a rank counts from the highest (desc) or, for "the 10 poorest", from the lowest (asc)
        query.derived.append({"name": name, "op": op, "of": of, **({"direction": "asc"} if op in ("rank", "run")
                                                                   and direction == "asc" else {}),
                              **({"groups": groups} if op == "quantile" else {}),
                              **({"years": float(years)} if op == "cagr" else {}),
                              **({"along": along[0]} if op in ("step", "run") else {})})


def _havings(query: Query, items, at: str) -> list:
    out = []
    for i, item in enumerate(_list(items, at, MAX_FILTERS)):
        where = f"{at}[{i}]"
        item = _object(item, where)
        op = item.get("op")
        if op not in HAVING_OPS:
            raise QueryError(f"{where}.op must be one of {' '.join(HAVING_OPS)}", "invalid_query", f"{where}.op")
        value = item.get("value")
        member = item.get("field") in query.group_by and op in ("==", "!=")
        if member and isinstance(value, str) and 0 < len(value.strip()) <= 80:
            value = value.strip()  # a member by its name ("Logan Square" among Redfin's neighborhoods)
        elif value in HAVING_REFERENCES or isinstance(value, str) and MULTIPLE_RE.fullmatch(value.strip()):
            value = value.strip()
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise QueryError(f"{where}.value must be a finite number, one of {' '.join(HAVING_REFERENCES)} or a "
                             f"multiple of one ('2*city')",
                             "invalid_query", f"{where}.value")
        out.append({"field": _known_field(query, item.get("field"), f"{where}.field"), "op": op, "value": value})
    return out


def _orders(query: Query, items, at: str) -> list:
    out = []
    for i, item in enumerate(_list(items, at, 4)):
        where = f"{at}[{i}]"
        item = {"field": item} if isinstance(item, str) else _object(item, where)
        direction = item.get("direction", "desc")
        if direction not in ("asc", "desc"):
            raise QueryError(f"{where}.direction is asc or desc", "invalid_query", f"{where}.direction")
        out.append({"field": _known_field(query, item.get("field"), f"{where}.field"), "direction": direction})
    return out


def _groups(query: Query, raw: dict, at: str) -> None:
    items = _list(raw.get("groups"), f"{at}groups", MAX_GROUPS)
    if not items:
        return
    if len(items) < 2 or query.place is None or len(query.group_by) != 1:
        raise QueryError("groups compares two or more sets of places: group by one place grain", "invalid_query",
                         f"{at}groups")
    if query.limit is not None or query.totals or query.correlate:
        raise QueryError("groups gives each set's figures: it takes no limit, totals or correlate of its own",
                         "invalid_query", f"{at}groups")
    for i, item in enumerate(items):
        where = f"{at}groups[{i}]"
        item = _object(item, where)
        extra = set(item) - set(GROUP_KEYS)
        if extra:
            raise QueryError(f"{where} has unknown key(s) {sorted(extra)[:5]}; valid keys: {', '.join(GROUP_KEYS)}",
                             "invalid_query", where)
        figure = item.get("figure", "pooled")
        if figure not in GROUP_FIGURES:
            raise QueryError(f"{where}.figure is one of {', '.join(GROUP_FIGURES)}", "invalid_query", f"{where}.figure")
        # "their homicides combined, and their plain average home value": a column's own figure over the group's
        own = _object(item.get("figure_of") or {}, f"{where}.figure_of")
        for name, how in own.items():
            _known_field(query, name, f"{where}.figure_of")
            if how not in GROUP_FIGURES:
                raise QueryError(f"{where}.figure_of values are {', '.join(GROUP_FIGURES)}", "invalid_query",
                                 f"{where}.figure_of")
        group = {"label": _name(item.get("label") or f"group {i + 1}", f"{where}.label"), "figure_of": own,
                 "having": _havings(query, item.get("having"), f"{where}.having"),
                 "order_by": _orders(query, item.get("order_by"), f"{where}.order_by"),
                 "limit": _int(item["limit"], f"{where}.limit", 1, MAX_LIMIT) if item.get("limit") is not None
                 else None, "figure": figure, "rest": item.get("rest") is True}
        if group["rest"] and (not i or group["having"] or group["order_by"]):
            raise QueryError(f"{where}.rest is every place the sets before it left, picked by nothing else",
                             "invalid_query", f"{where}.rest")
        if not group["rest"] and not group["having"] and not (group["order_by"] and group["limit"]):
            raise QueryError(f"{where} is picked by a having, by an order_by with a limit, or is the rest",
                             "invalid_query", where)
        query.groups.append(group)


def _ordering(query: Query, raw: dict, at: str) -> None:
    query.having = _havings(query, raw.get("having"), f"{at}having")
    query.order_by = _orders(query, raw.get("order_by"), f"{at}order_by")
    if raw.get("limit") is not None:
        query.limit = _int(raw["limit"], f"{at}limit", 1, MAX_LIMIT)
    if raw.get("offset") is not None:
        query.offset = _int(raw["offset"], f"{at}offset", 0, MAX_LIMIT)
        if query.offset and not query.order_by:
            raise QueryError(f"{at}offset needs an order_by (which rows come first?)", "invalid_query", f"{at}offset")
    for key in ("totals", "count_share", "vs_city"):
        if not isinstance(raw.get(key, False), bool):
            raise QueryError(f"{at}{key} must be true or false", "invalid_query", f"{at}{key}")
    query.totals, query.count_share = raw.get("totals", False), raw.get("count_share", False)
    query.vs_city = raw.get("vs_city", False)
    if query.count_share and not query.having:
        raise QueryError(f"{at}count_share gives the rows a having keeps as a share: add a having", "invalid_query",
                         f"{at}count_share")
    query.count_base = [_known_field(query, f, f"{at}count_base")
                        for f in _list(raw.get("count_base"), f"{at}count_base", 10)]
    if query.count_base and not query.count_share:
        raise QueryError(f"{at}count_base narrows count_share's base: add count_share", "invalid_query",
                         f"{at}count_base")
    query.spread = [_known_field(query, f, f"{at}spread") for f in _list(raw.get("spread"), f"{at}spread", 20)]
    if query.vs_city and not query.spread:
        raise QueryError(f"{at}vs_city sets the city's figure beside a spread: add a spread", "invalid_query",
                         f"{at}vs_city")
    if raw.get("correlate") is not None:
        pair = _list(raw["correlate"], f"{at}correlate", 2)
        if len(pair) != 2:
            raise QueryError("correlate takes two column names", "invalid_query", f"{at}correlate")
        query.correlate = [_known_field(query, f, f"{at}correlate") for f in pair]
        if not query.group_by:
            raise QueryError("a correlation needs rows: group by a place or a time", "invalid_query",
                             f"{at}correlate")
    _groups(query, raw, at)
    _trend_and_cover(query, raw, at)


def _trend_and_cover(query: Query, raw: dict, at: str) -> None:
    query.trend = [_known_field(query, f, f"{at}trend") for f in _list(raw.get("trend"), f"{at}trend", 4)]
    if query.trend and (len(query.group_by) != 1 or query.group_by[0] not in TREND_GRAINS):
        raise QueryError(f"a trend is fitted over one time grain: group_by one of {', '.join(TREND_GRAINS)}",
                         "invalid_query", f"{at}trend")
    if raw.get("cover") is None:
        return
    cover = _object(raw["cover"], f"{at}cover")
    if set(cover) != {"of", "share"}:
        raise QueryError(f"{at}cover takes 'of' (a column) and 'share' (a percent)", "invalid_query", f"{at}cover")
    share = cover["share"]
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share <= 100:
        raise QueryError(f"{at}cover.share must be a percent above 0 and at most 100", "out_of_range",
                         f"{at}cover.share")
    name = _known_field(query, cover["of"], f"{at}cover.of")
    if query.place is None or not any(m.name == name for m in query.measures):
        raise QueryError(f"{at}cover counts places by a measure column: group_by a place grain", "invalid_query",
                         f"{at}cover")
    query.cover = {"of": name, "share": float(share)}
