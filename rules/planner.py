"""The rule planner's call planning: the tool calls a question still needs, from its analysis and results.

The plan is built from general rules over the analysis (domains, places, years, ranking,
per-capita, trend and correlation wording; see analyzer/question.py), never from whole-sentence
matches. Chained questions ("which area had the most homicides in 2021, and what is the per
capita income there?") plan the ranking first and the follow-up calls once its result names the
top area. The per-domain arguments come from rules/calls.py.
"""
from __future__ import annotations

from rules.calls import (
    CENSUS_METRICS,
    SOCIO_METRICS,
    area_calls,
    homicide_calls,
    property_calls,
    ranking_call,
)
from tools import catalog

DOMAIN_OF = {"homicides": "homicides", "arrests": "homicides", "domestic": "homicides", "location_type": "homicides",
             "home_value": "property", "price_trend": "property", "iucr": "iucr",
             **{m: "socioeconomic" for m in SOCIO_METRICS}, **{m: "census" for m in CENSUS_METRICS}}
TOOL_OF = {"homicides": "query_homicides_advanced", "socioeconomic": "query_socioeconomic",
           "census": "query_census_demographics", "property": "query_property_values", "iucr": "get_iucr_info"}

def tool_schemas() -> dict:
    """name -> JSON schema properties of every registered tool (built once, no data needed)."""
    return {schema["name"]: schema["parameters"].get("properties", {}) for schema in catalog.tool_schemas()}


def next_calls(analysis: dict, results: list, remaining: int, geo=None) -> list:
    """The calls still needed: the plan minus what was already asked, at most ``remaining``."""
    if remaining <= 0:
        return []
    plan = plan_calls(analysis, results, geo)
    if analysis.get("compare_city"):  # a follow-up "how does that compare with the city?" (analyzer/followup.py)
        plan += city_versions(plan)
    out = []
    for name, args in plan:
        if _already_asked(name, args, results) or any(n == name and a == args for n, a in out):
            continue
        out.append((name, args))
    return out[:remaining]


PLACE_ARGS = ("community_area", "compare_areas", "ward", "district", "zip")


def city_versions(plan: list) -> list:
    """The same calls without their places, for the city-wide figures (the rates tool reports the city itself)."""
    out = []
    for name, args in plan:
        if name != "analyze_homicide_rates_by_community_area" and any(args.get(k) for k in PLACE_ARGS):
            city = (name, {k: v for k, v in args.items() if k not in PLACE_ARGS})
            if city not in plan and city not in out:
                out.append(city)
    return out


def _same(a, b) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        a_list = a if isinstance(a, list) else [a]
        b_list = b if isinstance(b, list) else [b]
        return len(a_list) == len(b_list) and all(_same(x, y) for x, y in zip(a_list, b_list))
    return str(a).strip().lower() == str(b).strip().lower()


def _already_asked(name: str, args: dict, results: list) -> bool:
    for entry in results or []:
        if entry.get("name") != name:
            continue
        done = entry.get("arguments") or {}
        if all(k in done and _same(done[k], v) for k, v in args.items()):
            return True
    return False


def _clean(name: str, args: dict) -> tuple | None:
    """Drop arguments the registered tool does not take; None if the tool is not registered."""
    schemas = tool_schemas()
    if name not in schemas:
        return None
    props = schemas[name]
    return name, {k: v for k, v in args.items() if k in props and v is not None}


def top_areas_from(result: dict, limit: int = 1) -> list:
    """The first ``limit`` community areas a ranking result lists (values rows/breakdown, else the table)."""
    found: list = []

    def take(number):
        if isinstance(number, (int, float)) and 1 <= int(number) <= 77 and int(number) not in found:
            found.append(int(number))
        return len(found) >= limit

    values = (result or {}).get("values") or {}
    for key in ("breakdown", "rows", "ranking", "areas", "top"):
        rows = values.get(key)
        if isinstance(rows, list):
            for row in rows:
                if isinstance(row, dict):
                    number = next((row[f] for f in ("community_area", "area_number", "area") if f in row), None)
                    if take(number):
                        return found
            if found:
                return found
    table = (result or {}).get("table") or {}
    columns = [str(c).lower() for c in table.get("columns") or []]
    for field in ("community_area", "area_number", "area"):
        if field in columns:
            for row in table.get("rows") or []:
                if take(row[columns.index(field)]):
                    return found
            break
    return found


def top_area_from(result: dict) -> int | None:
    """The first community area a ranking result lists."""
    areas = top_areas_from(result, 1)
    return areas[0] if areas else None


def plan_calls(analysis: dict, results: list, geo=None) -> list:
    """Every call the question needs, in order; a chained call appears once its input is known."""
    metrics = list(analysis.get("metrics") or [])
    domains = [d for d in (analysis.get("domains") or []) if d in TOOL_OF]
    areas = [a["number"] for a in analysis.get("areas") or []]
    if not areas:  # a number that is no community area goes to the tool, whose error names the valid range
        areas = list((analysis.get("invalid") or {}).get("areas") or [])[:1]
    wards = [w for w in analysis.get("wards") or []]
    districts = [d for d in analysis.get("districts") or []]
    zips = list(analysis.get("zips") or [])
    ranking = analysis.get("ranking")
    periods = list(analysis.get("periods") or [])
    years = list(analysis.get("years") or [])
    calls: list = []

    def add(name, args):
        cleaned = _clean(name, args)
        if cleaned and cleaned not in calls:
            calls.append(cleaned)

    if not domains:
        if (areas or zips) and not analysis.get("unsupported") and not analysis.get("injection_suspected"):
            domains = ["homicides", "socioeconomic", "census"]  # "tell me about Austin": an overview
            metrics = ["homicides", "population"]
        else:
            return []

    # Areas from ZIPs for the area-only datasets (homicides, census, socioeconomic).
    zip_areas = []
    if zips and geo is not None:
        for z in zips:
            overlaps = sorted(getattr(geo, "zip_to_areas", {}).get(z, []), key=lambda t: -t[1])
            if overlaps and overlaps[0][0] not in zip_areas:
                zip_areas.append(overlaps[0][0])

    # -- chained questions: a ranking in one domain, then other domains for the winning area
    rank_metric = (ranking or {}).get("metric")
    rank_domain = DOMAIN_OF.get(rank_metric) if rank_metric else None
    other_domains = [d for d in domains if d != rank_domain and d != "iucr"]
    chained = bool(ranking) and not areas and not wards and not districts and rank_domain and other_domains \
        and not analysis.get("correlation")
    if chained:
        first = ranking_call(rank_domain, analysis, metrics)
        if first:
            add(*first)
        # "the five areas with the most ..." carries the whole top group into the next call (up to 5).
        wanted = 1 if (ranking or {}).get("singular") or not (ranking or {}).get("top_n") else \
            min(int(ranking["top_n"]), 5)
        top: list = []
        for entry in results or []:
            if first and entry.get("name") == first[0] and entry.get("status") == "ok":
                top = top_areas_from(entry.get("result") or {}, wanted)
                if top:
                    break
        if top:
            for domain in other_domains:
                for call in area_calls(domain, top, analysis, metrics):
                    add(*call)
        return calls

    # -- homicides
    if "homicides" in domains:
        for call in homicide_calls(analysis, metrics, areas, wards, districts, zip_areas, periods, years):
            add(*call)
    # -- the area-level datasets
    place_areas = areas or zip_areas
    for domain in ("socioeconomic", "census"):
        if domain not in domains or analysis.get("correlation"):
            continue
        if place_areas:
            for call in area_calls(domain, place_areas, analysis, metrics):
                add(*call)
        elif wards or districts:
            continue  # the data is by community area: explained in the answer, no call with a ward
        elif ranking:
            call = ranking_call(domain, analysis, metrics)
            if call:
                add(*call)
        else:
            for call in area_calls(domain, [], analysis, metrics):
                add(*call)
    if "property" in domains:
        for call in property_calls(analysis, metrics, areas, zips, wards, districts):
            add(*call)
    if "iucr" in domains:
        codes = analysis.get("iucr_codes") or []
        for code in codes[:3] or [None]:
            add("get_iucr_info", {"code": code} if code else {})
    return calls
