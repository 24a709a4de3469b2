"""What a question leaves out, as the homicide tool's arguments: the filters it negates ("non-domestic",
"unsolved", "not on the street"), the places it excludes ("outside Austin") and "the rest of the city".

rules/calls.py builds each homicide call from the places and periods asked about; every one of them then gets
these arguments, so no call counts what the question left out.
"""
from __future__ import annotations

from analyzer.analysis import Analysis
from tools import names

PLACE_ARGS = {"community_area": "exclude_community_areas", "ward": "exclude_wards", "wards": "exclude_wards",
              "district": "exclude_districts", "districts": "exclude_districts"}


def scope_args(analysis: Analysis) -> dict:
    """The homicide tool's arguments for what the question leaves out (or, for arrests, keeps)."""
    args: dict = {}
    if analysis.domestic_excluded:
        args["domestic"] = False
    if analysis.arrest_filter:
        args["arrest_status"] = analysis.arrest_filter
    if analysis.excluded_locations:
        args["exclude_location_types"] = list(analysis.excluded_locations)
    if analysis.excluded_areas:
        args["exclude_community_areas"] = [a.number for a in analysis.excluded_areas]
    if analysis.excluded_wards:
        args["exclude_wards"] = list(analysis.excluded_wards)
    if analysis.excluded_districts:
        args["exclude_districts"] = list(analysis.excluded_districts)
    return args


def with_scope(analysis: Analysis, calls: list) -> list:
    """Every homicide count call with the scope's arguments, then the rest of the city where it was asked."""
    extra = scope_args(analysis)
    out: list = []
    for name, args in (_as_counts(calls) if extra else calls):
        call = (name, {**args, **extra}) if name == names.HOMICIDES else (name, args)
        if call not in out:
            out.append(call)
    if analysis.rest_of_city:
        out += rest_of_city_calls(out)
    return out


def _as_counts(calls: list) -> list:
    """The period comparison tool takes no filters: a place's change over time becomes its yearly series from the
    count tool, which does ("how have non-domestic homicides changed in Austin"), so no figure leaves them in."""
    out = []
    for name, args in calls:
        if name == names.DISTRICT_TRENDS and not args.get("rank_places"):
            place = {k: v for k, v in args.items() if k in PLACE_ARGS}
            end = args.get("period2_end") or args.get("period2_start")
            out.append((names.HOMICIDES, {"group_by": "year", "start_year": args.get("period1_start"),
                                          "end_year": end, **place}))
        else:
            out.append((name, args))
    return out


def rest_of_city_calls(calls: list) -> list:
    """"Austin vs the rest of the city": the first homicide call again, city-wide without every place the calls
    name (one call, so the rest is counted once)."""
    counts = [(name, args) for name, args in calls if name == names.HOMICIDES]
    left_out: dict[str, list] = {}
    for _name, args in counts:
        for key, exclude in PLACE_ARGS.items():
            value = args.get(key)
            for v in value if isinstance(value, list) else ([value] if value is not None else []):
                if v not in left_out.setdefault(exclude, []):
                    left_out[exclude].append(v)
    if not counts or not left_out:
        return []
    base = {k: v for k, v in counts[0][1].items() if k not in PLACE_ARGS}
    for exclude, values in left_out.items():
        base[exclude] = list(dict.fromkeys(list(base.get(exclude) or []) + values))
    return [(names.HOMICIDES, base)]
