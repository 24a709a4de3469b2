"""The reading of a question in plain words: what is measured, where, when, with which filters, grouped or ranked
how, and which of the question's words could not be used.

Every answer opens with it ("Read as: homicides · 2022 · domestic only"), on the page, in the API's ``reading``
field and in the CLI, so a reader sees which question was answered before reading the figures.
"""
from __future__ import annotations

import calendar
from dataclasses import asdict, dataclass, field

from semantic.catalog import catalog
from semantic.describe import describe_query
from analyzer.analysis import Analysis
from analyzer.lexicon import ORDINAL_WORDS
from tools.homicide.holidays import holidays_phrase
from tools.homicide.query import month_days_phrase, weekdays_phrase

MEASURES = {
    "homicides": "homicides", "income": "per capita income", "poverty": "households below poverty",
    "unemployment": "unemployment", "education": "adults without a high school diploma",
    "hardship": "hardship index", "crowding": "crowded housing", "dependency": "dependency (under 18 or over 64)",
    "home_value": "home values", "price_trend": "house-price index", "population": "population",
    "race": "race and ethnicity", "age": "age", "arrests": "arrests", "domestic": "domestic or not",
    "iucr": "IUCR crime codes", "location_type": "where homicides happened", "trend": "change over time",
    "correlation": "how two measures relate", "homicide_rate": "homicides per 100,000 residents",
}
GROUPINGS = {"community_area": "by community area", "ward": "by ward", "district": "by police district",
             "year": "by year", "month": "by month", "weekday": "by day of the week", "hour": "by hour",
             "location_type": "by kind of place", "arrest": "by arrest", "domestic": "domestic or not"}


@dataclass
class Reading:
    measures: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    periods: list[str] = field(default_factory=list)
    filters: list[str] = field(default_factory=list)
    grouping: str | None = None
    ranking: str | None = None
    comparison: bool = False
    together: bool = False  # the places named are counted as one ("wards 24 and 28 combined")
    not_used: list[str] = field(default_factory=list)
    # Years asked about beside others the data holds ("2022, and so far in 2024"): named, not silently dropped.
    outside_data: list[str] = field(default_factory=list)
    text_answer: bool = False  # the figures asked are names or addresses (an alderperson), not numbers
    # The one query the answer computed, in words (semantic/describe.py): what ran, said from the query itself.
    query: str = ""

    @property
    def line(self) -> str:
        if self.query:
            outside = ["outside the data: " + ", ".join(self.outside_data)] if self.outside_data else []
            text = "Read as: " + " · ".join([self.query, *outside])
            return text + (" · not used: " + ", ".join(f"'{p}'" for p in self.not_used) if self.not_used else "")
        parts = [" and ".join(self.measures) or "no measure the data has"]
        parts += self.places + self.periods
        parts += ["outside the data: " + ", ".join(self.outside_data)] if self.outside_data else []
        parts += self.filters
        parts += [p for p in (self.ranking, self.grouping) if p]
        if self.together:
            parts.append("counted together")
        elif self.comparison and not self.ranking:
            parts.append("compared")
        text = "Read as: " + " · ".join(parts)
        if self.not_used:
            text += " · not used: " + ", ".join(f"'{p}'" for p in self.not_used)
        return text

    def to_dict(self) -> dict:
        return {**asdict(self), "line": self.line}


# The IHS submarket figure a question asks for (analysis.price_figure), as the reading names it.
PRICE_FIGURES = {
    "median_sales_price": "median sales price (IHS summary)", "yoy_change": "year-over-year price change (IHS)",
    "change_since_2000": "price change since 2000 (IHS)", "peak_to_current": "price change from the peak (IHS)",
    "bottom_to_current": "price change from the bottom (IHS)",
    "pandemic_to_current": "price change since the pandemic began (IHS)",
}


def read(analysis: Analysis | None, query: dict | list | None = None) -> Reading | None:
    """The reading of ``analysis``; ``query``: the one semantic query the answer was computed from, whose words
    then say what was read (the measures, periods, members and threshold the figures are of)."""
    if analysis is None or analysis.error:
        return None
    a = analysis
    if a.parts:
        reading = _in_parts([read(p.analysis) for p in a.parts if p.analysis is not None])
        if query is not None:
            reading.query = "; and ".join(describe_query(q) for q in (query if isinstance(query, list) else [query]))
        return reading
    if query is not None:
        reading = _declared(a) if a.declared_query else read(a)
        queries = query if isinstance(query, list) else [query]
        reading.query = "; and ".join(describe_query(q) for q in queries)
        return reading
    if a.declared_query:
        return _declared(a)
    measures = [_measure(m, a) for m in a.metrics if m not in ("trend", "correlation")
                # a submarket has the price index, not Zillow values, unless the Zillow value is named too
                and not (m == "home_value" and a.submarkets and "home_value" not in a.named_measures)]
    return Reading(measures=list(dict.fromkeys(m for m in measures if m)), places=_places(a), periods=_periods(a),
                   filters=_filters(a), grouping=GROUPINGS.get(a.group_by) if a.group_by else None,
                   ranking=_ranking(a), comparison=bool(a.comparison), together=bool(a.places_together or (a.years_together and len(a.date_spans) >= 2)),
                   not_used=list(a.not_used),
                   outside_data=[str(y) for y in a.out_of_range_years if y not in a.years] if a.years else [])


def _in_parts(readings: list) -> Reading:
    """A question read in parts (analyzer/parts.py): what each part read, in the order asked."""
    readings = [r for r in readings if r is not None]

    def every(name):
        return list(dict.fromkeys(x for r in readings for x in getattr(r, name)))

    first = next((r for r in readings if r.ranking), None)
    grouped = next((r for r in readings if r.grouping), None)
    return Reading(measures=every("measures"), places=every("places"), periods=every("periods"),
                   filters=every("filters"), grouping=grouped.grouping if grouped else None,
                   ranking=first.ranking if first else None, comparison=any(r.comparison for r in readings),
                   together=any(r.together for r in readings), not_used=[], outside_data=every("outside_data"))


def _declared(a: Analysis) -> Reading:
    """The reading of a semantic-layer query (analysis.declared_query): its measures' labels, members and period."""
    query = a.declared_query
    specs = [m if isinstance(m, dict) else {"measure": m} for m in query["measures"]]
    measures = list({s["measure"]: catalog().measures[s["measure"]] for s in specs}.values())
    filters = query.get("filters", [])
    places = [str(v) if f["dimension"] != "ward" else f"ward {v}" for f in filters for v in f.get("in", [])]
    period = query.get("period") or {}
    periods = [f"{period['start']} to {period['end']}"] if "start" in period else \
        [", ".join(map(str, values)) for values in period.values()]
    periods += [str(s["period"].get("year") or s["period"].get("start")) for s in specs
                if s.get("period", {}).get("year") or s.get("period", {}).get("start")]  # side by side
    periods += [f"the window starting {f['equals']}" for f in filters if f["dimension"] == "window_start"]
    return Reading(measures=[m.label for m in measures], places=places, periods=periods, not_used=list(a.not_used),
                   text_answer=all(m.agg == "attribute" for m in measures))


def _measure(metric: str, a: Analysis) -> str:
    if metric == "homicides" and a.per_capita:
        return "homicides per 100,000 residents"
    if metric == "domestic" and a.domestic_filter:
        return ""  # a filter, listed below
    if metric == "price_trend" and a.submarkets and a.price_figure in PRICE_FIGURES:
        return PRICE_FIGURES[a.price_figure]
    return MEASURES.get(metric, metric.replace("_", " "))


def _places(a: Analysis) -> list[str]:
    out = [f"{p.name} ({p.number})" for p in a.areas]
    if a.places_together and (len(a.wards) >= 2 or len(a.districts) >= 2):  # "wards 24 and 28", counted as one
        out += [_together("wards", a.wards), _together("police districts", a.districts)]
        out = [x for x in out if x]
    else:
        out += [f"ward {w}" for w in a.wards] + [f"police district {d}" for d in a.districts]
    out += [f"ZIP {z}" for z in a.zips] + list(a.broad_places)
    left_out = [f"{p.name} ({p.number})" for p in a.excluded_areas] + \
        [_numbered("ward", a.excluded_wards), _numbered("police district", a.excluded_districts)] + \
        [f"ZIP {z}" for z in a.excluded_zips]
    left_out = [x for x in left_out if x]
    if a.rest_of_city and out:
        out.append("the rest of the city")
    if left_out:
        out.append(("the city " if not out else "") + "excluding " + ", ".join(left_out))
    elsewhere = [p for p in a.outside_places if p not in a.unknown_places]
    if elsewhere:
        out.append("outside Chicago (no data): " + ", ".join(elsewhere))
    if a.unknown_places:
        out.append("no such community area: " + ", ".join(a.unknown_places))
    if a.area_condition:
        c = a.area_condition
        value = (f"${c.value:,.0f}" if c.metric in ("income", "home_value") else f"{c.value:,.0f}"
                 if c.metric == "population" or (c.metric in ("household_income", "age", "race") and not c.percent)
                 else f"{c.value:g} per 100,000" if c.metric == "homicide_rate"
                 else f"{c.value:g}" + ("" if c.metric == "hardship" else "%"))
        kind = "ZIP codes" if c.grain == "zip" else "community areas"
        if c.reference:  # a bound named by what it is carries no number of its own (it was "above 0 per 100,000")
            value = {"city": "the city's figure"}.get(c.reference, f"the {c.reference}")
        out.append(f"the {kind} with {MEASURES.get(c.metric, c.metric)} {c.side.replace('_', ' ')} {value}")
    return out + [_submarket_label(s) for s in a.submarkets]


def _together(kind: str, numbers: list) -> str:
    if len(numbers) < 2:
        return f"{kind[:-1]} {numbers[0]}" if numbers else ""
    return f"{kind} " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


def _submarket_label(sub) -> str:
    """"IHS submarket Bronzeville/Hyde Park (holding Hyde Park)"; a suburban one says it is outside the city."""
    where = (", suburban Cook County" if sub.suburban else "") + (f", holding {sub.text}" if sub.match == "area" else "")
    return f"IHS submarket {sub.name}" + (f" ({where[2:]})" if where else "")


def _numbered(kind: str, numbers: list[int]) -> str:
    """"wards 1-10", "ward 3", "police districts 4, 6": a set of numbers as a reader writes it."""
    if not numbers:
        return ""
    values, runs = sorted(set(numbers)), []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    text = ", ".join(str(s) if s == e else f"{s}-{e}" for s, e in runs)
    return f"{kind}{'s' if len(values) > 1 else ''} {text}"


def _periods(a: Analysis) -> list[str]:
    hours = [" vs ".join(h.label for h in a.hour_spans)] if a.hour_spans else []
    return _dates(a) + hours + ([weekdays_phrase(a.weekdays)] if a.weekdays else []) + \
        ([month_days_phrase(a.month_days) + " each year"] if a.month_days else []) + \
        ([holidays_phrase(a.holidays)] if a.holidays else [])


def _dates(a: Analysis) -> list[str]:
    if a.quarter:  # the price index's quarter stands for its year and months
        return [a.quarter]
    if a.submarkets and len(a.periods) == 1:
        return [f"since {a.periods[0].start}"]  # to the index's latest quarter, not the homicide data's last year
    if a.date_spans:
        return [" vs ".join(_date_label(d) for d in a.date_spans)]
    if a.year_list and a.left_out_years:
        return [f"{a.year_list[0]}-{a.year_list[-1]} without " + ", ".join(map(str, a.left_out_years))]
    if a.follow_year and a.years:  # the ranking's year, then the year asked about the place it finds
        return [", ".join(map(str, a.years)) + f", then {a.follow_year} for the place ranked"]
    if a.year_list:
        return [", ".join(map(str, a.year_list)) + " (separate years)"]
    if a.periods:
        return [str(p.start) if p.start == p.end else f"{p.start}-{p.end}" for p in a.periods]
    if a.years:
        return [", ".join(map(str, a.years))]
    if a.year_range:
        span = a.year_range
        return [str(span.start) if span.start == span.end else f"{span.start}-{span.end}"]
    return []


def _date_label(span) -> str:
    """"2019-12 to 2020-01", "2021-06", or the span's own label ("so far in 2023")."""
    if span.label:
        return span.label
    return span.start if span.start == span.end else f"{span.start} to {span.end}"


def _filters(a: Analysis) -> list[str]:
    out = []
    if a.left_out_months and not a.date_spans and not a.quarter:
        out.append("not " + ", ".join(calendar.month_abbr[m] for m in a.left_out_months))
    elif a.months and not a.date_spans and not a.quarter:  # the spans (or the quarter) already say which months
        out.append(", ".join(calendar.month_abbr[m] for m in a.months))
    if a.domestic_filter:
        out.append("domestic only")
    if a.domestic_excluded:
        out.append("not domestic")
    if a.arrest_filter:
        out.append("arrest made" if a.arrest_filter == "arrested" else "no arrest")
    out += [f"at {place.lower()}" for place in a.locations]
    out += [f"not at {place.lower()}" for place in a.excluded_locations]
    if a.census_group:
        out.append(a.census_group.replace("_", " "))
    return out


def _ranking(a: Analysis) -> str | None:
    r = a.ranking
    if r is None:
        return None
    counts = r.metric in (None, "homicides") and not a.per_capita
    most = ("the most" if counts else "the highest") if r.order == "desc" else ("the fewest" if counts else "the lowest")
    if r.position > 1:  # "the second-deadliest": the row asked for, not the first
        word = next((w for w, n in ORDINAL_WORDS.items() if n == r.position), f"{r.position}th")
        most = most.replace("the ", f"the {word}-", 1)
    return f"top {r.top_n} ({most})" if r.top_n and r.top_n > 1 else most
