"""The rule planner's call planning: the tool calls a question still needs, from its analysis and results.

The plan is built from general rules over the analysis (domains, places, years, ranking,
per-capita, trend and correlation wording; see analyzer/question.py), never from whole-sentence
matches. Chained questions ("which area had the most homicides in 2021, and what is the per
capita income there?") plan the ranking first and the follow-up calls once its result names the
top area. The per-domain arguments come from rules/calls.py.
"""
from __future__ import annotations

from analyzer.analysis import Analysis
from loop.steps import ToolCallStep
from loop.refinement import one_year_as_span
from rules.compositions import composed_queries, linked_followup, ratio_query
from rules.calls import (
    CENSUS_METRICS,
    SOCIO_METRICS,
    Places,
    area_calls,
    homicide_calls,
    homicides_in_areas,
    property_calls,
    ranking_call,
    span_months,
    station_calls,
)
from tools import catalog
from tools.registry import ToolResult
from tools import names

DOMAIN_OF = {"homicides": "homicides", "arrests": "homicides", "domestic": "homicides", "location_type": "homicides",
             "home_value": "property", "price_trend": "property", "iucr": "iucr", "police_station": "police_stations",
             **{m: "socioeconomic" for m in SOCIO_METRICS}, **{m: "census" for m in CENSUS_METRICS}}
TOOL_OF = {"homicides": names.HOMICIDES, "socioeconomic": names.SOCIOECONOMIC,
           "census": names.CENSUS, "property": names.PROPERTY, "iucr": names.IUCR,
           "police_stations": names.POLICE_STATIONS}

def tool_schemas() -> dict:
    """name -> JSON schema properties of every registered tool (built once, no data needed)."""
    return {schema["name"]: schema["parameters"].get("properties", {}) for schema in catalog.tool_schemas()}


def next_calls(analysis: Analysis, results: list[ToolCallStep], remaining: int, geo=None) -> list:
    """The calls still needed: the plan minus what was already asked, at most ``remaining``; for a question read in
    parts (analyzer/parts.py), each part's, given the results of its own calls."""
    if remaining <= 0:
        return []
    if analysis.parts:
        out: list = []
        for i, part in enumerate(analysis.parts):
            if part.analysis is None and not out:
                _read_linked_part(part, analysis.parts[i - 1], results, geo)
            if part.analysis is None:
                continue
            out += [c for c in next_calls(part.analysis, part_results(part.analysis, results, geo), remaining, geo)
                    if c not in out]
        return out[:remaining]
    out = []
    for name, args in _plan(analysis, results, geo):
        if _already_asked(name, args, results) or any(n == name and a == args for n, a in out):
            continue
        out.append((name, args))
    return out[:remaining]


def _read_linked_part(part, earlier, results: list[ToolCallStep], geo=None) -> None:
    """A part pointing at the place the part before it ranks ("How many areas have it as their main submarket"),
    read once that place is known: the first row of the earlier part's query, by name (analyzer/parts.py)."""
    if earlier.analysis is None or part.reader is None:
        return
    for step in part_results(earlier.analysis, results, geo):
        values = step.result.values if step.status == "ok" and step.result.ok else {}
        grain = (step.arguments.get("group_by") or [None])[0] if step.name == names.QUERY else None
        rows = values.get("rows") or []
        name = rows[0].get(f"{grain}_name") or rows[0].get(grain) if grain and rows else None
        ranked = values.get("breakdown") or []  # a tool's ranking: its top row, by name
        name = name or (ranked[0].get("name") if ranked and values.get("group_by") == "community_area" else None)
        if name:  # a submarket said as one ("the IHS submarket Chicago--South Lawndale/Brighton Park"), not two areas
            part.analysis = part.reader(f"the IHS submarket {name}" if grain == "submarket" else str(name))
            return


def part_results(analysis: Analysis, results: list[ToolCallStep], geo=None) -> list[ToolCallStep]:
    """The results of the calls one part's reading asks for, round by round (a chain's later calls are planned from
    its earlier results)."""
    mine: list = []
    for _ in range(8):
        plan = _plan(analysis, mine, geo)
        new = [r for r in results if r not in mine and any(_already_asked(n, a, [r]) for n, a in plan)]
        if not new:
            break
        mine += new
    return [r for r in results if r in mine]


def _plan(analysis: Analysis, results: list[ToolCallStep], geo=None) -> list:
    """Every call the reading asks for, given what has run (asked ones too)."""
    plan = plan_calls(analysis, results, geo)
    extra = analysis.declared_extra
    if extra and extra.get("filters") and not any(  # not where a composition's query already asks it
            name == names.QUERY and args.get("filters") == extra["filters"]
            and all(m in args.get("measures", []) for m in extra.get("measures", [])) for name, args in plan):
        # the alderperson of the ward counted: the layer's query beside the count (a ranked grain's names are part of
        # the ranking's own query: rules/compositions.py)
        plan.append((names.QUERY, analysis.declared_extra))
    if analysis.compare_city or _city_beside(analysis):
        # a follow-up "how does that compare with the city?" (analyzer/followup.py), or "Englewood's arrest rate,
        # and the citywide rate for the same years": the place's calls again without the place
        plan += city_versions(plan)
    if analysis.period_fallback:
        plan = [(name, _with_fallback(args, analysis.period_fallback, analysis.month_years) if name == names.QUERY
                 else args) for name, args in plan]
    return plan


def _with_fallback(query, fallback, months: list = ()):
    """Each period of a query (its own, each measure's, its set's) with the question's fallback to the latest period
    held, or to the period it names, which the layer takes only where the data holds none of the period asked."""
    if isinstance(query, list):
        return [_with_fallback(item, fallback, months) for item in query]
    if not isinstance(query, dict):
        return query
    out = {k: _with_fallback(v, fallback, months) for k, v in query.items()}
    period = out.get("period")
    if isinstance(period, dict) and "start" not in period and "else" not in period:
        named = fallback.get("year") if isinstance(fallback, dict) else None
        years = [y for y in period.get("years") or [] if y != named]
        if named is not None and period.get("years") and years != period["years"]:
            period = {"years": years}  # "2021? if you don't have 2021, the 2018 total": 2018 is not asked with it
        month = fallback.get("month") if isinstance(fallback, dict) else None
        asked = [m for m in months if m != month]
        if month and asked:  # "the period ending June 2021? if not, the one ending Oct 31 2019": June 2021 asked
            period = {"months": asked}
        out["period"] = {**period, "else": fallback}
    return out


PLACE_ARGS = ("community_area", "compare_areas", "ward", "district", "zip")


def _city_beside(analysis: Analysis) -> bool:
    """One place's homicide figures asked beside the city's ("and the citywide count"): not a ranking, a share of the
    city or a rate (those carry the city's figure already)."""
    places = len(analysis.areas) + len(analysis.wards) + len(analysis.districts)
    return (analysis.city_as_a_whole and places == 1 and not analysis.ranking and not analysis.share_of_city
            and not analysis.rest_of_city  # "Austin versus the rest of the city": the city without it, not with it
            and not analysis.per_capita and analysis.domains == ["homicides"] and not analysis.chained)


def city_versions(plan: list) -> list:
    """The same calls without their places, for the city-wide figures (the rates tool reports the city itself)."""
    out = []
    for name, args in plan:
        if name != names.AREA_RATES and any(args.get(k) for k in PLACE_ARGS):
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


def _already_asked(name: str, args: dict, results: list[ToolCallStep]) -> bool:
    """A call that ran with the drafted arguments (and perhaps more, none of them changing whose figure it gives). One
    that failed counts only if it was the
    drafted call itself: its extra arguments may be what failed (the 0.5B model added start_year 2000 to the
    drafted income call, the tool refused the year, and the draft was then never offered again)."""
    args = one_year_as_span(args)
    for entry in results or []:
        if entry.name != name:
            continue
        done = one_year_as_span(entry.arguments)
        # an empty or false argument the canonical form leaves out ("group_by": [], "totals": false) was asked too
        if not all((k in done and _same(done[k], v)) or (k not in done and v in ([], {}, None, False))
                   for k, v in args.items()):
            continue
        extra = _extra_arguments(name, args, done)
        if set(extra) & _SCOPE_ARGS:
            continue  # another question's figure: a ranking or a place where the draft asks for the city
        if entry.status != "error" or not extra:
            return True
    return False


# Arguments that change whose figure a call gives: a ranking instead of the city's, a place or a picked set of areas
# (asked for the city's population without the Loop, the 0.5B model ran a top-1 ranking in place of the city call).
_SCOPE_ARGS = {"top_n", "community_area", "compare_areas", "community_areas", "ward", "wards", "district",
               "districts", "zip", "above", "below"}


def _extra_arguments(name: str, args: dict, done: dict) -> list[str]:
    """The arguments of ``done`` beyond ``args`` that are not the tool's defaults."""
    props = tool_schemas().get(name, {})
    return [k for k, v in done.items()
            if k not in args and not ("default" in props.get(k, {}) and _same(props[k]["default"], v))]


def _clean(name: str, args: dict) -> tuple | None:
    """Drop arguments the registered tool does not take; None if the tool is not registered."""
    schemas = tool_schemas()
    if name not in schemas:
        return None
    props = schemas[name]
    return name, {k: v for k, v in args.items() if k in props and v is not None}


def top_areas_from(result: ToolResult, limit: int = 1) -> list:
    """The first ``limit`` community areas a ranking result lists (values rows/breakdown, else the table)."""
    found: list = []

    def take(number):
        if isinstance(number, (int, float)) and 1 <= int(number) <= 77 and int(number) not in found:
            found.append(int(number))
        return len(found) >= limit

    values = result.values
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
    table = result.table or {}
    columns = [str(c).lower() for c in table.get("columns") or []]
    for field in ("community_area", "area_number", "area"):
        if field in columns:
            for row in table.get("rows") or []:
                if take(row[columns.index(field)]):
                    return found
            break
    return found


def _zip_areas(zips: list, geo) -> list:
    """Each ZIP's community area with the largest overlap, for the area-only datasets."""
    found: list = []
    for z in zips if geo is not None else []:
        overlaps = sorted(getattr(geo, "zip_to_areas", {}).get(z, []), key=lambda t: -t[1])
        if overlaps and overlaps[0][0] not in found:
            found.append(overlaps[0][0])
    return found


def _places(analysis: Analysis, geo) -> Places:
    areas = analysis.area_numbers
    ranking = analysis.ranking
    if ranking and ranking.position > 1 and analysis.group_by == "community_area":
        # "Austin led the city in 2020 - which area was the runner-up?": the area named is the one ranked above,
        # not a filter on the ranking.
        areas = []
    if not areas:  # a number that is no community area goes to the tool, whose error names the valid range
        areas = list(analysis.invalid.get("areas") or [])[:1]
    return Places(areas=areas, wards=list(analysis.wards), districts=list(analysis.districts),
                  zips=list(analysis.zips), zip_areas=_zip_areas(analysis.zips, geo))


def _chained_calls(analysis: Analysis, results: list[ToolCallStep], metrics: list, rank_domain: str,
                   other_domains: list) -> list:
    """A ranking in one domain first; once it has answered, the other domains for the top area(s)."""
    calls: list = []
    first = ranking_call(rank_domain, analysis, metrics)
    if first:
        calls.append(first)
    ranking = analysis.ranking
    # "the five areas with the most ..." carries the whole top group into the next call (up to 5).
    # "the second-poorest area's homicides" carries the second entry alone.
    wanted = ranking.position if ranking.position > 1 else \
        1 if ranking.singular or not ranking.top_n else min(ranking.top_n, 5)
    if first and first[1].get("group_by") == "district" and "police_stations" in other_domains:
        # "the station of whichever district had the most homicides": the district the ranking found
        rows = next((e.result.values.get("breakdown") or [] for e in results
                     if e.name == first[0] and e.status == "ok"), [])
        found = [r["district"] for r in rows if isinstance(r, dict) and isinstance(r.get("district"), int)]
        if len(found) >= ranking.position:
            calls += station_calls(Places(districts=[found[ranking.position - 1]]), False)
        return calls
    top: list = []
    # "Other than the Near North Side, which area ...": the ranking may still list the place left out; never it
    left_out = {p.number for p in analysis.excluded_areas}
    for entry in results:
        if first and entry.name == first[0] and entry.status == "ok":
            listed = [a for a in top_areas_from(entry.result, wanted + len(left_out)) if a not in left_out][:wanted]
            top = listed[ranking.position - 1:] if ranking.position > 1 else listed
            if top:
                break
    for domain in other_domains if top else []:
        found = area_calls(domain, top, analysis, metrics)
        if domain == "property" and (rank_domain != "property" or analysis.ranks_level):
            # "the highest homicide rate in 2021, and the home value there": the year was the ranking's; the home
            # value asked of the place found is today's (both blind writers read it so), and the answer says which
            # month it is.
            found = [(n, {k: v for k, v in a.items() if k not in ("year", "month", "since_year")}) for n, a in found]
        calls += found
    return calls


def _follow_year_calls(analysis: Analysis, results: list[ToolCallStep], metrics: list) -> list:
    """"Whichever ward led in 2020, how many did it have the next year": the ranking in its own year; once it has
    answered, the place it found counted in the follow-up's year."""
    first = ranking_call("homicides", analysis, metrics)
    if not first or first[0] != names.HOMICIDES:
        return [first] if first else []
    key = first[1].get("group_by")
    position = analysis.ranking.position
    for entry in results:
        if entry.name == first[0] and entry.status == "ok" and key in ("ward", "district", "community_area"):
            rows = [r for r in entry.result.values.get("breakdown") or [] if isinstance(r, dict)]
            if len(rows) >= position and isinstance(rows[position - 1].get(key), int):
                year = analysis.follow_year
                return [first, (names.HOMICIDES, {"start_year": year, "end_year": year, key: rows[position - 1][key]})]
    return [first]


def _year_found_calls(analysis: Analysis, results: list[ToolCallStep], places: Places) -> list:
    """"The full year with the fewest homicides citywide - how many did district 7 have that year": the city's
    years first; once the peak (or the lowest full year) is known, each place named counted in that year."""
    first = (names.HOMICIDES, {"group_by": "year"})
    for entry in results:
        if entry.name == names.HOMICIDES and entry.status == "ok" and entry.arguments.get("group_by") == "year" \
                and not any(entry.arguments.get(k) for k in ("ward", "district", "community_area")):
            found = entry.result.values.get("low" if analysis.ranking.order == "asc" else "peak") or {}
            year = found.get("year")
            if isinstance(year, int):
                one = {"start_year": year, "end_year": year}
                keyed = [("community_area", a) for a in places.areas] + [("ward", w) for w in places.wards] + \
                    [("district", d) for d in places.districts]
                return [first] + [(names.HOMICIDES, {**one, key: value}) for key, value in keyed[:3]]
    return [first]


def _ranked_zip_calls(analysis: Analysis, results: list[ToolCallStep], metrics: list) -> list:
    """"The ZIP with the highest Zillow value - how much has it grown since January 2010": the ZIPs ranked first;
    once the one asked for is known, its value at both ends of the span (the change is said from the two)."""
    first = property_calls(analysis, metrics, Places())
    for entry in results:
        rows = entry.result.values.get("rows") if entry.name == names.PROPERTY and entry.status == "ok" and \
            entry.result.values.get("group_by") == "zip" else None
        position = analysis.ranking.position
        if rows and len(rows) >= position and rows[position - 1].get("zip"):
            return first + property_calls(analysis, metrics, Places(zips=[str(rows[position - 1]["zip"])]))
    return first


def _condition_calls(analysis: Analysis, results: list[ToolCallStep], domains: list) -> list:
    """"Homicides in 2021 in the community areas where more than 30% of households are below poverty": the areas
    the measure picks first; once they are known, the homicides in them counted together."""
    c = analysis.area_condition
    side = {"at_least": "above", "at_most": "below"}.get(c.side, c.side)  # the tool's bounds are strict
    first = (names.SOCIOECONOMIC, {"metric": c.metric, side: c.value})
    if "homicides" not in domains:
        return [first]
    for entry in results:
        values = entry.result.values if entry.name == names.SOCIOECONOMIC and entry.status == "ok" else {}
        if values.get("scope") == "condition" and values.get("areas"):
            return [first, homicides_in_areas(analysis, values["areas"])]
    return [first]


def _area_dataset_calls(analysis: Analysis, places: Places, metrics: list, domains: list) -> list:
    """Socioeconomic and census calls: by community area, or a ranking, or city-wide."""
    calls: list = []
    for domain in ("socioeconomic", "census"):
        if domain not in domains or analysis.correlation:
            continue
        if places.area_like:
            calls += area_calls(domain, places.area_like, analysis, metrics)
        elif places.wards or places.districts:
            continue  # the data is by community area: explained in the answer, no call with a ward
        elif analysis.ranking:
            call = ranking_call(domain, analysis, metrics)
            calls += [call] if call else []
        else:
            calls += area_calls(domain, [], analysis, metrics)
    return calls


def _station_zip_calls(analysis: Analysis, results: list[ToolCallStep], metrics: list) -> list:
    """The home value of the ZIP the station found is in, once the station call has answered: "what zip is the
    Austin police station in, and what do homes go for there" asks for ZIP 60644's value, not Austin's."""
    for step in results:
        stations = step.result.values.get("stations") if step.name == names.POLICE_STATIONS and step.status == "ok" \
            else None
        if stations and stations[0].get("zip"):
            found = Places(zips=[str(stations[0]["zip"])])
            return property_calls(analysis, metrics, found)
    return []


def plan_calls(analysis: Analysis, results: list[ToolCallStep], geo=None) -> list:
    """Every call the question needs, in order; a chained call appears once its input is known."""
    if analysis.outside_only:
        return []  # only places outside Chicago: the answer says the data has none of them
    metrics = list(analysis.metrics)
    domains = [d for d in analysis.domains if d in TOOL_OF]
    places = _places(analysis, geo)
    if not domains:
        if analysis.declared_query:  # in the semantic layer's words only: its one query answers (or a composition's:
            # "how many areas have at least 50,000 residents" is the areas over the threshold, counted)
            composed = composed_queries(analysis) if analysis.area_condition or analysis.asks_spread or analysis.cover_share \
                else []
            declared = analysis.declared_query
            if analysis.ranking and analysis.ranking.both_ends and declared.get("order_by"):  # "and the smallest?"
                return [(names.QUERY, {**declared, "order_by": [{**declared["order_by"][0], "direction": way}]})
                        for way in ("desc", "asc")]
            return [(names.QUERY, query) for query in composed] or [(names.QUERY, declared)]
        if (places.areas or places.zips) and not analysis.unsupported and not analysis.injection_suspected:
            domains = ["homicides", "socioeconomic", "census"]  # "tell me about Austin": an overview
            metrics = ["homicides", "population"]
        else:
            return []
    composed = composed_queries(analysis)
    if composed:  # a cross-domain composition: one query says it whole (rules/compositions.py); a place it links to
        # (a ZIP's main community area) is asked once that query has run
        ran = [(step.arguments, step.result.values) for step in results
               if step.name == names.QUERY and step.status == "ok"]  # a link's own query may link on (two links)
        times = ratio_query(analysis)
        return [(names.QUERY, query) for query in composed + linked_followup(analysis, ran) + ([times] if times else [])]
    planned: list = []
    rank_metric = analysis.ranking.metric if analysis.ranking else None
    rank_domain = DOMAIN_OF.get(rank_metric) if rank_metric else None
    other_domains = [d for d in domains if d != rank_domain and d != "iucr"]
    if rank_domain == "property" and analysis.ranks_level and "price_trend" in metrics and analysis.group_by in (
            None, "community_area"):
        # "the area with the cheapest homes in June 2023: which IHS submarket is it in, and how much have prices there
        # changed since 2000": the month's values rank the areas; the one found gets its submarket's index
        other_domains = ["property"]
    if analysis.area_condition and analysis.area_condition.metric in SOCIO_METRICS:
        planned = _condition_calls(analysis, results, domains)
    elif domains == ["property"] and analysis.ranking and analysis.group_by == "zip" and not places.zips \
            and span_months(analysis):
        planned = _ranked_zip_calls(analysis, results, metrics)
    elif analysis.year_found_citywide and rank_domain == "homicides":
        planned = _year_found_calls(analysis, results, places)
    elif analysis.follow_year and analysis.ranking and rank_domain == "homicides" and not analysis.per_capita:
        planned = _follow_year_calls(analysis, results, metrics)
    elif analysis.ranking and not (places.areas or places.wards or places.districts) and rank_domain \
            and other_domains and not analysis.correlation:
        planned = _chained_calls(analysis, results, metrics, rank_domain, other_domains)
    else:
        if "homicides" in domains:
            planned += homicide_calls(analysis, metrics, places)
        planned += _area_dataset_calls(analysis, places, metrics, domains)
        if "property" in domains and analysis.station_zip:
            planned += _station_zip_calls(analysis, results, metrics)
        elif "property" in domains:
            planned += property_calls(analysis, metrics, places)
        if "iucr" in domains:
            planned += [(names.IUCR, {"code": code} if code else {}) for code in analysis.iucr_codes[:3] or [None]]
        if "police_stations" in domains:
            planned += station_calls(places, analysis.police_headquarters)
    times = ratio_query(analysis)  # "how many times higher": the ratio of the two places' figures, beside the rest
    planned += [(names.QUERY, times)] if times else []
    calls: list = []
    for name, args in planned:
        cleaned = _clean(name, args)
        if cleaned and cleaned not in calls:
            calls.append(cleaned)
    return calls
