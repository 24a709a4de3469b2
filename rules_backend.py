"""The rule planner: a deterministic backend that speaks the same TOOL_CALL protocol as a model.

It goes through the orchestrator's loop like any model. In a gather pass it reads the question's
analysis (entities, years, metrics, ranking; see question_analyzer.py) and the results so far,
and writes ``TOOL_CALL: {...}`` lines for the calls the question still needs, including chained
calls that take an area from an earlier result ("which area had the most homicides in 2021,
and what is the per capita income there?" is a ranking first, then the income of the top area).
A pass with nothing left to ask ends gathering. The synthesis pass writes a templated answer
from the results (rules_synthesis.py).

The plan is built from general rules over the analysis (domains, places, years, ranking,
per-capita, trend and correlation wording), never from whole-sentence matches.
"""
from __future__ import annotations

import json
import threading

from llama_client import Backend, Generation, GenerationRequest

SOCIO_METRICS = ("income", "poverty", "unemployment", "education", "hardship", "crowding", "dependency")
CENSUS_METRICS = ("population", "race", "age", "household_income")
CONTEXT_INDICATORS = {"income": "per_capita_income", "poverty": "poverty", "unemployment": "unemployment",
                      "education": "no_hs_diploma", "crowding": "crowding", "dependency": "dependency",
                      "hardship": "hardship_index"}
DOMAIN_OF = {"homicides": "homicides", "arrests": "homicides", "domestic": "homicides", "location_type": "homicides",
             "home_value": "property", "price_trend": "property", "iucr": "iucr",
             **{m: "socioeconomic" for m in SOCIO_METRICS}, **{m: "census" for m in CENSUS_METRICS}}
TOOL_OF = {"homicides": "query_homicides_advanced", "socioeconomic": "query_socioeconomic",
           "census": "query_census_demographics", "property": "query_property_values", "iucr": "get_iucr_info"}
TOP_AREA = object()  # placeholder: the top community area of the first (ranking) result

_SCHEMA_LOCK = threading.Lock()
_SCHEMAS: dict | None = None


def tool_schemas() -> dict:
    """name -> JSON schema properties of every registered tool (built once, no data needed)."""
    global _SCHEMAS
    if _SCHEMAS is None:
        with _SCHEMA_LOCK:
            if _SCHEMAS is None:
                from tools import register_all
                from tools.registry import ToolRegistry

                registry = ToolRegistry(data=object())  # schemas only; never runs a tool
                register_all(registry)
                _SCHEMAS = {name: registry.get(name).parameters.get("properties", {}) for name in registry.names()}
    return _SCHEMAS


class RulesBackend(Backend):
    """Deterministic planner and answer writer behind the Backend interface."""

    name = "rules"
    n_ctx = 1_000_000

    def __init__(self, queue_size: int = 8):
        super().__init__(queue_size)
        self.selection_reason = ""
        self._data = None

    def info(self) -> dict:
        return {"backend": "rules", "model": "rule-planner", "n_ctx": self.n_ctx, "chat_format": None,
                "reason": self.selection_reason}

    @property
    def data(self):
        if self._data is None:
            from tools.data_loader import shared_data

            self._data = shared_data()
        return self._data

    def _analysis(self, request: GenerationRequest) -> dict:
        analysis = request.analysis or {}
        if "metrics" not in analysis or "areas" not in analysis:
            from question_analyzer import analyze_question

            analysis = analyze_question(request.question, self.data)
        return analysis

    def _generate(self, request: GenerationRequest) -> Generation:
        analysis = self._analysis(request)
        if request.phase == "synthesis":
            from rules_synthesis import write_answer

            text = write_answer(request.question, analysis, request.results, strict=request.strict,
                                geo=self._geo())
        else:
            calls = next_calls(analysis, request.results, request.remaining_calls, geo=self._geo())
            text = "\n".join("TOOL_CALL: " + json.dumps({"name": n, "arguments": a}) for n, a in calls)
            if not text:
                text = "NO_TOOL_CALL: the results so far answer the question."
        if request.on_token:
            request.on_token(text)
        prompt_tokens = self.count_message_tokens(request.messages) if request.messages else 0
        return Generation(text=text, prompt_tokens=prompt_tokens, evaluated_tokens=0,
                          completion_tokens=self.count_tokens(text))

    def _geo(self):
        try:
            return self.data.geography
        except Exception:
            return None


# ---------------------------------------------------------------- planning

def next_calls(analysis: dict, results: list, remaining: int, geo=None) -> list:
    """The calls still needed: the plan minus what was already asked, at most ``remaining``."""
    if remaining <= 0:
        return []
    plan = plan_calls(analysis, results, geo)
    out = []
    for name, args in plan:
        if _already_asked(name, args, results) or any(n == name and a == args for n, a in out):
            continue
        out.append((name, args))
    return out[:remaining]


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


def _ranks_arrest_rate(analysis: dict, group: str | None) -> dict:
    """"Highest arrest rate" ranks places by the rate, not by how many homicides they had."""
    ranking = analysis.get("ranking") or {}
    if ranking.get("metric") == "arrests" and group in ("ward", "district", "community_area", "location_type"):
        return {"rank_by": "arrest_rate"}
    return {}


def _year_args(analysis: dict, period: dict | None = None) -> dict:
    period = period or analysis.get("year_range")
    if not period:
        return {}
    return {"start_year": int(period["start"]), "end_year": int(period["end"])}


def _in_coverage(analysis: dict, years) -> bool:
    cov = (analysis.get("coverage") or {}).get("homicides") or {}
    first, last = cov.get("first_year", 2001), cov.get("last_year", 2023)
    return all(first <= int(y) <= last for y in years)


def _socio_metric(metrics: list) -> str:
    wanted = [m for m in metrics if m in SOCIO_METRICS]
    return wanted[0] if len(wanted) == 1 else "all"


def _census_metric(metrics: list) -> str:
    wanted = [m for m in metrics if m in CENSUS_METRICS]
    if len(wanted) != 1:
        return "all"
    return "income" if wanted[0] == "household_income" else wanted[0]  # the tool's name for income bands


def _ranking_args(analysis: dict, default_n: int = 5) -> dict:
    ranking = analysis.get("ranking") or {}
    n = ranking.get("top_n") or default_n
    return {"top_n": int(max(1, min(n, 77))), "sort_order": ranking.get("order", "desc")}


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
        first = _ranking_call(rank_domain, analysis, metrics)
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
                for call in _area_calls(domain, top, analysis, metrics):
                    add(*call)
        return calls

    # -- homicides
    if "homicides" in domains:
        for call in _homicide_calls(analysis, metrics, areas, wards, districts, zip_areas, periods, years):
            add(*call)
    # -- the area-level datasets
    place_areas = areas or zip_areas
    for domain in ("socioeconomic", "census"):
        if domain not in domains or analysis.get("correlation"):
            continue
        if place_areas:
            for call in _area_calls(domain, place_areas, analysis, metrics):
                add(*call)
        elif wards or districts:
            continue  # the data is by community area: explained in the answer, no call with a ward
        elif ranking:
            call = _ranking_call(domain, analysis, metrics)
            if call:
                add(*call)
        else:
            for call in _area_calls(domain, [], analysis, metrics):
                add(*call)
    if "property" in domains:
        for call in _property_calls(analysis, metrics, areas, zips, wards, districts):
            add(*call)
    if "iucr" in domains:
        codes = analysis.get("iucr_codes") or []
        for code in codes[:3] or [None]:
            add("get_iucr_info", {"code": code} if code else {})
    return calls


def _ranking_call(domain: str, analysis: dict, metrics: list):
    """A ranking of community areas in one domain."""
    rank = _ranking_args(analysis, 5)
    if domain == "homicides":
        if analysis.get("per_capita"):
            return ("analyze_homicide_rates_by_community_area", {**_rate_years(analysis), **rank})
        group = analysis.get("group_by") if analysis.get("group_by") in (
            "ward", "district", "community_area", "location_type", "year", "month") \
            else "community_area"
        years = {} if group == "year" and not analysis.get("periods") else _year_args(analysis)
        by_rate = _ranks_arrest_rate(analysis, group)
        return ("query_homicides_advanced", {**years, "group_by": group, **rank, **by_rate})
    if domain == "socioeconomic":
        metric = (analysis.get("ranking") or {}).get("metric")
        metric = metric if metric in SOCIO_METRICS else _socio_metric(metrics)
        return ("query_socioeconomic", {"metric": "hardship" if metric == "all" else metric, **rank})
    if domain == "census":
        metric = (analysis.get("ranking") or {}).get("metric")
        metric = metric if metric in CENSUS_METRICS else _census_metric(metrics)
        metric = "income" if metric == "household_income" else metric
        group = analysis.get("census_group")
        if group and metric in ("race", "age", "income", "all", "population"):
            # "highest share of Black residents" ranks by that group's share, not by population.
            kind = "race" if group in ("black", "hispanic_or_latino", "white_not_hispanic", "asian") else \
                ("age" if group.startswith("age_") else "income")
            return ("query_census_demographics", {"metric": kind, "group": group, **rank})
        return ("query_census_demographics", {"metric": "population" if metric == "all" else metric, **rank})
    if domain == "property":
        return ("query_property_values", {"metric": "home_value", **rank, **_property_years(analysis)})
    return None


def _area_calls(domain: str, area_numbers: list, analysis: dict, metrics: list) -> list:
    """The figures of one domain for given areas (first one plus comparisons), or city-wide."""
    first, rest = (area_numbers[0], area_numbers[1:5]) if area_numbers else (None, [])
    if domain == "socioeconomic":
        return [("query_socioeconomic", {"community_area": first, "compare_areas": rest or None,
                                         "metric": _socio_metric(metrics)})]
    if domain == "census":
        return [("query_census_demographics", {"community_area": first, "compare_areas": rest or None,
                                               "metric": _census_metric(metrics)})]
    if domain == "property":
        return [("query_property_values", {"community_area": first, "compare_areas": rest or None,
                                           "metric": _property_metric(metrics), **_property_years(analysis)})]
    if domain == "homicides":
        if analysis.get("per_capita"):
            return [("analyze_homicide_rates_by_community_area", {**_rate_years(analysis), "community_area": first,
                                                                  "compare_areas": rest or None})]
        return [("query_homicides_advanced", {**_year_args(analysis), "community_area": number})
                for number in ([first] + rest if first else [None])]
    return []


def _rate_years(analysis: dict) -> dict:
    period = analysis.get("year_range")
    if not period:
        return {}
    if period["start"] == period["end"]:
        return {"year": int(period["start"])}
    return {"start_year": int(period["start"]), "end_year": int(period["end"])}


def _homicide_calls(analysis, metrics, areas, wards, districts, zip_areas, periods, years) -> list:
    ranking = analysis.get("ranking")
    cov = (analysis.get("coverage") or {}).get("homicides") or {}
    last_full = int(cov.get("last_full_year", 2022))
    places = [("community_area", a) for a in (areas or zip_areas)] + [("ward", w) for w in wards] + \
        [("district", d) for d in districts]
    if analysis.get("correlation"):
        indicator = next((CONTEXT_INDICATORS[m] for m in metrics if m in CONTEXT_INDICATORS), "hardship_index")
        return [("analyze_homicide_socioeconomic_context", {"indicator": indicator, **_year_args(analysis)})]
    if years and not _in_coverage(analysis, years):
        # Outside the snapshot: show what it does cover (the yearly series for the same place).
        key, value = places[0] if places else (None, None)
        return [("query_homicides_advanced", {"group_by": "year", **({key: value} if key else {})})]
    # "Which areas saw the biggest increase between 2019 and 2021?" -> places ranked by the change.
    if not places and ranking and analysis.get("trend") and (periods or len(years) == 2):
        if len(periods) >= 2:
            p1, p2 = periods[0], periods[1]
        elif periods:
            p1 = {"start": periods[0]["start"], "end": periods[0]["start"]}
            p2 = {"start": min(periods[0]["end"], last_full), "end": min(periods[0]["end"], last_full)}
        else:
            y1, y2 = sorted(years)
            p1, p2 = {"start": y1, "end": y1}, {"start": y2, "end": y2}
        kind = analysis.get("group_by") if analysis.get("group_by") in ("ward", "district") else "community_area"
        return [("compare_homicide_district_trends", {
            "period1_start": p1["start"], "period1_end": p1["end"], "period2_start": p2["start"],
            "period2_end": p2["end"], "rank_places": kind, "top_n": _ranking_args(analysis, 5)["top_n"],
            "sort_order": "asc" if analysis.get("change_direction") == "down" else "desc"})]
    # Two periods, or a change over time for one place -> the period comparison.
    two_years = len(years) == 2 and not periods and analysis.get("trend")
    if places and (len(periods) >= 2 or two_years or (analysis.get("trend") and not ranking)):
        if len(periods) >= 2:
            p1, p2 = periods[0], periods[1]
        elif two_years:
            y1, y2 = sorted(years)
            p1, p2 = {"start": y1, "end": y1}, {"start": y2, "end": y2}
        elif periods:
            # A trend over one span: the year-by-year series (for the chart) plus first vs last year.
            start, end = periods[0]["start"], min(periods[0]["end"], last_full)
            out = []
            for key, value in places[:2]:
                out.append(("query_homicides_advanced", {"group_by": "year", "start_year": start, "end_year": end,
                                                         key: value}))
                out.append(("compare_homicide_district_trends", {
                    "period1_start": start, "period1_end": start, "period2_start": end, "period2_end": end,
                    key: value}))
            return out
        else:
            p1 = {"start": last_full - 9, "end": last_full - 5}
            p2 = {"start": last_full - 4, "end": last_full}
        out = []
        for key, value in places[:3]:
            out.append(("compare_homicide_district_trends", {
                "period1_start": p1["start"], "period1_end": p1["end"], "period2_start": p2["start"],
                "period2_end": p2["end"], key: value}))
        return out
    if analysis.get("per_capita") and (ranking or areas or not places):
        if areas:
            return [("analyze_homicide_rates_by_community_area", {**_rate_years(analysis), "community_area": areas[0],
                                                                  "compare_areas": areas[1:4] or None})]
        return [("analyze_homicide_rates_by_community_area", {**_rate_years(analysis), **_ranking_args(analysis, 5)})]
    base = dict(_year_args(analysis))
    # "January to March 2022", "summer 2020": a month filter; with two or more years named the month words
    # are more likely dates bounding a range ("January 2015 to March 2019"), so they are not a filter.
    if analysis.get("months") and len(years) <= 1:
        base["months"] = analysis["months"]
    group = analysis.get("group_by")
    if "arrests" in metrics and not group and not ranking:
        group = "arrest"
    if analysis.get("domestic_filter"):
        base["domestic"] = True
    elif "domestic" in metrics and not group and not ranking:
        group = "domestic"
    locations = analysis.get("locations") or []
    if "location_type" in metrics:
        # One named place type is a filter even in a year-vs-year comparison.
        if len(locations) == 1 and not ranking:
            base["location_type"] = locations[0]
        elif not group or group == "community_area" and not ranking:
            group = "location_type"
    if len(periods) >= 2 and not places:
        start = min(p["start"] for p in periods)
        end = max(p["end"] for p in periods)
        base.update({"start_year": start, "end_year": end})
        group = "year"
    if ranking and not group:
        group = "community_area"
    base.update(_ranks_arrest_rate(analysis, group))
    if ranking and group == "year" and not periods:
        base.pop("start_year", None)  # "was 2021 the deadliest year?" ranks every year, not just the one named
        base.pop("end_year", None)
    if analysis.get("trend") and not group and not ranking:
        group = "year"
    if group:
        base["group_by"] = group
    if ranking or group in ("community_area", "ward", "district", "location_type"):
        base.update(_ranking_args(analysis, 5 if ranking else 10))
    if not places:
        return [("query_homicides_advanced", base)]
    return [("query_homicides_advanced", {**base, key: value}) for key, value in places[:4]]


def _property_metric(metrics: list) -> str:
    # A change over time gets both figures: the Zillow value with its change and the IHS index trend.
    return "all" if "price_trend" in metrics or "trend" in metrics else "home_value"


def _property_years(analysis: dict) -> dict:
    periods = analysis.get("periods") or []
    years = analysis.get("years") or []
    if periods:
        return {"since_year": int(periods[0]["start"])}
    if len(years) == 1:
        return {"year": int(years[0])}
    return {}


def _property_calls(analysis, metrics, areas, zips, wards, districts) -> list:
    if (wards or districts) and not (areas or zips):
        return []  # home values are by ZIP and community area: explained in the answer
    base = {"metric": _property_metric(metrics), **_property_years(analysis)}
    if areas:
        return [("query_property_values", {**base, "community_area": areas[0], "compare_areas": areas[1:4] or None})]
    if zips:
        return [("query_property_values", {**base, "zip": z}) for z in zips[:3]]
    if analysis.get("ranking"):
        return [("query_property_values", {**base, **_ranking_args(analysis, 5)})]
    return [("query_property_values", base)]
