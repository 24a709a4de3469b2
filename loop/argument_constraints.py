"""Which argument values a model may write, given what the question named (the question-conditioned grammar).

A small model copies values from examples or invents them ("Ward 1" for "which ward ranks highest"). Where
the analyzer found places, years or months in the question, the gathering grammar admits only those values
(or leaving the argument out); where it found nothing of a kind, the schema's full range stays. Narrower
rules: a question that ranks or groups by a kind of place and names none of that kind cannot filter on one,
and one that names no month or season cannot filter on months.
And a question that asks only about subjects no tool has (weather, robberies, aldermen), only for figures
published by community area about a ward or a district, or names nothing the data deals in ("What is MCP?"),
admits no call at all.
"""
from __future__ import annotations

from analyzer.analysis import Analysis

# argument name -> the kind of entity it holds
ARGUMENT_KINDS = {
    "community_area": "area", "compare_areas": "area", "community_areas": "area",
    "ward": "ward", "wards": "ward",
    "district": "district", "districts": "district",
    "zip": "zip",
    "year": "year", "start_year": "year", "end_year": "year", "since_year": "year",
    "period1_start": "year", "period1_end": "year", "period2_start": "year", "period2_end": "year",
    "months": "month", "years": "year", "hours": "hour", "weekdays": "weekday", "start_date": "date",
    "end_date": "date",
}
_GROUP_KINDS = {"community_area": "area", "ward": "ward", "district": "district"}


def question_values(analysis: Analysis | None) -> dict[str, list]:
    """kind -> the JSON values the question allows for it; a kind that is absent keeps the full range, and an
    empty list means "no filter of this kind" (the question ranks over it)."""
    if analysis is None or analysis.error:
        return {}
    found: dict[str, list] = {}
    areas = []
    for area in analysis.areas:
        areas += [area.number, area.name]
    years = list(analysis.years) + list(analysis.out_of_range_years)
    for span in [analysis.year_range, *analysis.periods]:
        if span is not None:
            years += [span.start, span.end]
    if analysis.follow_year:  # "how many did that ward have the next year": the follow-up's own year
        years.append(analysis.follow_year)
    # Invalid values stay writable: the tool then answers with its own clear error ("wards are 1 to 50").
    invalid = analysis.invalid or {}
    for kind, values in (("area", areas + _ints(invalid.get("areas"))),
                         ("ward", list(analysis.wards) + _ints(invalid.get("wards"))),
                         ("district", list(analysis.districts) + _ints(invalid.get("districts"))),
                         ("zip", list(analysis.zips) + [str(z) for z in invalid.get("zips") or []]),
                         ("year", years), ("month", list(analysis.months)),
                         # The hours and date spans the reading found (analyzer/times.py), as the tool takes them.
                         ("hour", sorted({h for span in analysis.hour_spans for h in span.hours})),
                         ("weekday", list(analysis.weekdays)),
                         ("date", [d for span in analysis.date_spans for d in (span.start, span.end)])):
        if values:
            found[kind] = list(dict.fromkeys(values))
    if "year" not in found and analysis.followup is None and _homicide_years_only(analysis):
        # No year named: a year could only be invented, and an invented one outside the data ends in an error and
        # costs a call (asked how income correlates with murder rates, the 0.5B model wrote 2000-2023).
        cov = analysis.coverage
        found["year"] = list(range(cov.first_year, cov.last_year + 1))
    if "month" not in found and analysis.followup is None:
        # No month or season named: a month filter could only be invented (asked about South Shore in 2022,
        # the 0.5B model filtered on January to June and answered for half the year). A follow-up keeps the
        # full range: its months may come from the earlier turn.
        found["month"] = []
    # A place left out ("outside Austin") is no place to filter on: only its exclude_* argument may name it.
    for kind, left_out in (("area", analysis.excluded_areas), ("ward", analysis.excluded_wards),
                           ("district", analysis.excluded_districts)):
        if left_out and kind not in found:
            found[kind] = []
    grouped = _GROUP_KINDS.get(analysis.group_by or "")
    if grouped and grouped not in found and not analysis.follow_year:  # a follow-up names the place ranked first
        found[grouped] = []
    if (analysis.areas or analysis.zips) and not (analysis.wards or analysis.districts or analysis.group_by
                                                  or analysis.ranking or analysis.chained):
        # Only an area or a ZIP named: a ward or district filter could only be invented (asked about Humboldt
        # Park, community area 23, the 0.5B model also wrote ward 23 and district 23 into the same call).
        found.setdefault("ward", [])
        found.setdefault("district", [])
    if (analysis.wards or analysis.districts) and "area" not in found and "zip" not in found \
            and not (analysis.ranking or analysis.chained):
        # A ward or a district named, and no community area: an area filter could only be invented (asked "the
        # income in ward 27", a small model wrote community_area "27"). A chained or ranking question takes its
        # area from a result, so it keeps the full range.
        found["area"] = []
    return found


# Data domains whose tools take years outside the homicide snapshot's (home values and census counts).
_OTHER_YEARS = {"property", "census"}


def _homicide_years_only(analysis: Analysis) -> bool:
    """Every tool the question admits reads years of the homicide snapshot (the homicide tools, and the
    socioeconomic context that pairs homicide years with the indicators)."""
    cov = analysis.coverage
    return (bool(analysis.domains) and not set(analysis.domains) & _OTHER_YEARS
            and 0 < cov.first_year <= cov.last_year)


def _ints(values) -> list[int]:
    return [v for v in (values or []) if isinstance(v, int) and not isinstance(v, bool)]


def argument_values(analysis: Analysis | None) -> dict[str, list]:
    """argument name -> allowed values (see question_values), for every argument of a constrained kind; and the
    filters only a reading can ask for, admitted only when the question holds them."""
    by_kind = question_values(analysis)
    out = {name: by_kind[kind] for name, kind in ARGUMENT_KINDS.items() if kind in by_kind}
    if analysis is not None and not analysis.error:
        out.update(_reading_only(analysis, out))
    return out


def _reading_only(analysis: Analysis, values: dict) -> dict[str, list]:
    """A list of separate years, hours, date spans, exclusions and negated filters: a small model given them
    freely wrote a "years" list of 2015 repeated for "since 2015" and the tool refused the call. Each is admitted
    with the question's own values, or not at all."""
    excluded_areas = [v for area in analysis.excluded_areas for v in (area.number, area.name)]
    out = {"years": list(analysis.year_list) if analysis.year_list else [],
           "exclude_wards": list(analysis.excluded_wards), "exclude_districts": list(analysis.excluded_districts),
           "exclude_zips": list(analysis.excluded_zips),
           "exclude_community_areas": excluded_areas, "exclude_location_types": list(analysis.excluded_locations),
           "arrest_status": ["any"] + ([analysis.arrest_filter] if analysis.arrest_filter else [])}
    if not analysis.hour_spans:
        out["hours"] = []
    if not analysis.weekdays:
        out["weekdays"] = []
    out["month_days"] = list(analysis.month_days)
    out["holidays"] = list(analysis.holidays)
    out["location_types"] = list(analysis.locations) if analysis.locations_together else []
    out["min_homicides"] = [analysis.min_homicides] if analysis.min_homicides else []
    # Places counted as one, and a place's share of the city: only when the question asks for them (a small model
    # given them freely could answer "Austin vs Englewood" with the two counted together).
    if not analysis.places_together:
        out["community_areas"] = []
    out["city_share"] = [True] if analysis.share_of_city else []
    out["headquarters"] = [True] if analysis.police_headquarters else []
    if not analysis.date_spans:
        out["start_date"] = out["end_date"] = []
    if not (analysis.domestic_filter or analysis.domestic_excluded):
        out["domestic"] = []
    return out


# The analyzer's data domains a tool's own domain (Tool.domain) answers: IUCR codes are part of the homicide data.
_DOMAIN_FAMILY = {"iucr": "homicides"}


def admitted_tools(analysis: Analysis | None, tool_domains: dict[str, str], drafted: list[str]) -> list[str]:
    """The tools a gathering pass may call: those of the data domains the question names, with any tool the
    reading calls; [] (no constraint) when it names none or refers to earlier turns. Asked "is Englewood safer
    than Roseland once you adjust for population?", a small model called the census and income tools first."""
    if analysis is None or analysis.error or analysis.followup is not None or not analysis.domains:
        return []
    wanted = {_DOMAIN_FAMILY.get(d, d) for d in analysis.domains}
    admitted = [name for name, domain in tool_domains.items() if _DOMAIN_FAMILY.get(domain, domain) in wanted]
    admitted += [name for name in drafted if name not in admitted]
    return [] if set(admitted) >= set(tool_domains) else admitted


def unanswerable_subjects(analysis: Analysis | None, nothing_named: bool = False) -> str:
    """Why no call is admitted ("" when calls are): the question names subjects the data lacks and none it has,
    or, with ``nothing_named`` (for a model), nothing the data deals in at all (asked "What is MCP?", a small
    model called all four tools)."""
    if analysis is None or analysis.error:
        return ""
    if nothing_named and not analysis.refers_to_data and analysis.followup is None:
        # (A follow-up's own words may name nothing; what it refers to came from earlier turns.)
        return ("the question names no subject, place or period the data covers (homicides, census, income, "
                "poverty, home values; a community area, ward, district, ZIP or year)")
    if analysis.outside_only:
        return ("the question asks about " + ", ".join(analysis.outside_places) + ", outside the City of Chicago; "
                "ChiQA's data covers the City of Chicago only")
    if _area_only_for_wards(analysis):
        kinds = " and ".join(_AREA_ONLY_DOMAINS[d] for d in analysis.domains)
        return (f"the question asks for {kinds} figures for a ward or police district, and those are published "
                "by community area only")
    if not analysis.unsupported or analysis.domains:
        return ""
    return ("the question asks about " + ", ".join(analysis.unsupported)
            + ", which none of the data tools cover")


_AREA_ONLY_DOMAINS = {"census": "census", "socioeconomic": "socioeconomic", "property": "home value"}


def _area_only_for_wards(analysis: Analysis) -> bool:
    """Only figures published by community area, asked for a ward or a district and no area or ZIP ("the income in
    ward 27"): no tool can answer, and a small model called three of them for other places."""
    return (bool(analysis.domains) and set(analysis.domains) <= set(_AREA_ONLY_DOMAINS)
            and bool(analysis.wards or analysis.districts) and not (analysis.areas or analysis.zips)
            and not (analysis.ranking or analysis.group_by or analysis.chained or analysis.unsupported)
            and "ward_office_zip" not in analysis.named_measures)  # a ward office's ZIP has a home value


def outside_question(allowed: dict[str, list], arguments: dict) -> str | None:
    """Why a call's arguments disagree with the question (a year, place or month it did not name), or None. The
    grammar enforces the same for a local model; a server that ignores the grammar is checked here, before any tool
    runs (asked about 2022, such a server's call for 2001-2004 had been answered)."""
    for name, value in arguments.items():
        if name not in allowed or value is None:
            continue
        wanted = allowed[name]
        values = value if isinstance(value, list) else [value]
        strange = [v for v in values if not any(_same(v, w) for w in wanted)]
        if strange:
            named = ", ".join(map(str, wanted)) if wanted else f"no {name}"
            return (f"refused: {name}={value!r} is not in the question, which names {named}; call again with the "
                    f"question's own values")
    return None


def _same(value, wanted) -> bool:
    return str(value).strip().lower() == str(wanted).strip().lower()
