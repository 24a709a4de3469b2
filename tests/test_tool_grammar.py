"""loop.grammar: GBNF built from tool schemas compiles in llama.cpp and yields parseable calls."""
import re

import pandas as pd
import pytest

from analyzer.question import analyze_question
from backends.base import GenerationRequest
from backends.llama_cpp import LlamaCppBackend, validate_grammar
from loop.argument_constraints import argument_values
from loop.grammar import build_tool_grammar
from toolcall.protocol import format_tool_call, parse_tool_calls
from settings.loader import load_settings
from tools.errors import ToolArgumentError
from tools.registry import Tool, ToolRegistry, ToolResult

SCHEMAS = [
    {"name": "query_homicides", "description": "Homicide counts.", "parameters": {
        "type": "object",
        "properties": {
            "year": {"type": "integer", "minimum": 2001, "maximum": 2024},
            "group_by": {"type": "string", "enum": ["year", "month", "community area"]},
            "area": {"type": ["integer", "string"], "description": "community area name or number"},
            "weapons": {"type": "array", "items": {"type": "string", "enum": ["handgun", "knife"]}, "maxItems": 2},
            "limit": {"type": "integer", "minimum": 1, "maximum": 5000, "default": 10},
            "per_capita": {"type": "boolean", "default": False},
            "ratio": {"type": "number"},
            "note": {"type": "string"},
        },
        "required": ["group_by"],
    }},
    {"name": "list_datasets", "description": "What data exists.", "parameters": {"type": "object", "properties": {}}},
    {"name": "weird name-with.chars", "description": "", "parameters": {
        "type": "object", "properties": {'quote"key': {"type": "string", "enum": ['say "hi"', "back\\slash"]}}}},
]

RULE_LINE = re.compile(r"^[a-zA-Z0-9-]+ ::= .+$")


def _registry(schemas):
    registry = ToolRegistry(data=object())
    for schema in schemas:
        registry.register(Tool(schema["name"], schema["description"], schema["parameters"],
                               lambda data, **kw: ToolResult(ok=True, tool="x")))
    return registry


@pytest.fixture(scope="module")
def tiny_backend(tiny_gguf_path):
    settings = load_settings(overrides={"model.path": str(tiny_gguf_path), "model.n_ctx": 1024,
                                        "model.n_threads": 1, "model.temperature": 1.0, "model.queue_size": 2})
    backend = LlamaCppBackend.from_settings(settings)
    yield backend
    backend.close()


def test_grammar_text_shape():
    gbnf = build_tool_grammar(SCHEMAS, 4)
    lines = [line for line in gbnf.splitlines() if line]
    assert lines[0].startswith("root ::= ")
    assert all(RULE_LINE.match(line) for line in lines), gbnf
    assert '"TOOL_CALL: "' in gbnf and '"NO_TOOL_CALL"' in gbnf
    assert '("\\n" call){0,3}' in gbnf
    assert '\\"community area\\"' in gbnf


def test_no_tools_or_no_calls_left_only_allows_no_call():
    for gbnf in (build_tool_grammar([], 4), build_tool_grammar(SCHEMAS, 0)):
        assert gbnf.splitlines()[0] == "root ::= no-call"


def test_forced_calls_grammar_has_no_no_call_branch():
    assert build_tool_grammar(SCHEMAS, 2, allow_no_call=False).splitlines()[0] == "root ::= calls"


@pytest.mark.slow
def test_grammar_compiles_in_llama_cpp(tiny_backend):
    for max_calls in (1, 4):
        assert validate_grammar(tiny_backend.llm, build_tool_grammar(SCHEMAS, max_calls))
    assert validate_grammar(tiny_backend.llm, build_tool_grammar([], 4))
    assert not validate_grammar(tiny_backend.llm, 'root ::= "unterminated')


@pytest.mark.slow
def test_grammar_compiles_for_the_real_registry(tiny_backend, registry):
    schemas = registry.schemas()
    gbnf = build_tool_grammar(schemas, 4)
    assert validate_grammar(tiny_backend.llm, gbnf)
    for schema in schemas:
        assert schema["name"] in gbnf


def _sample_and_check(backend, schemas, registry, seeds, allow_no_call):
    gbnf = build_tool_grammar(schemas, 3, allow_no_call=allow_no_call)
    names = {s["name"] for s in schemas}
    messages = [{"role": "system", "content": "Call a tool."}, {"role": "user", "content": "Homicides in 2020?"}]
    outcomes = {"calls": 0, "rejected": 0, "no_call": 0}
    original_seed = backend.seed
    try:
        for seed in seeds:
            backend.seed = seed
            generation = backend.generate(GenerationRequest(messages=messages, grammar=gbnf, max_tokens=400))
            result = parse_tool_calls(generation.text)
            assert result.errors == [], generation.text
            if not result.calls:
                assert result.no_call and allow_no_call, generation.text
                outcomes["no_call"] += 1
                continue
            assert 1 <= len(result.calls) <= 3
            for call in result.calls:
                assert call["name"] in names
                try:
                    registry.canonicalize(call["name"], call["arguments"])
                    outcomes["calls"] += 1
                except ToolArgumentError as exc:  # e.g. an out-of-range number: rejected cleanly
                    assert str(exc)
                    outcomes["rejected"] += 1
    finally:
        backend.seed = original_seed
    return outcomes


@pytest.mark.slow
def test_sampled_outputs_parse_into_valid_calls(tiny_backend):
    outcomes = _sample_and_check(tiny_backend, SCHEMAS, _registry(SCHEMAS), range(8), allow_no_call=False)
    assert outcomes["calls"] + outcomes["rejected"] >= 8
    outcomes = _sample_and_check(tiny_backend, SCHEMAS, _registry(SCHEMAS), range(8, 14), allow_no_call=True)
    assert sum(outcomes.values()) >= 6


@pytest.mark.slow
def test_sampled_outputs_for_the_real_registry(tiny_backend, registry):
    schemas = registry.schemas()
    if not schemas:
        pytest.skip("no tools registered yet")
    _sample_and_check(tiny_backend, schemas, registry, range(6), allow_no_call=False)


def test_question_values_from_the_analysis(registry):
    austin = argument_values(analyze_question("How many homicides were there in Austin in 2019?", registry.data))
    assert austin["community_area"] == [25, "Austin"] and austin["start_year"] == [2019]
    assert austin["ward"] == [] and austin["district"] == []  # only an area named: no ward or district filter
    assert "zip" not in austin  # not named, and nothing rules it out: the full range stays
    assert austin["months"] == []  # but no month named means no month filter (the 0.5B model invented Jan-Jun)
    ranking = argument_values(analyze_question("Which ward had the most homicides in 2020?", registry.data))
    assert ranking["ward"] == [] and ranking["wards"] == []  # ranks wards: no single-ward filter
    wrong = argument_values(analyze_question("homicides in ward 99 in 2020", registry.data))
    assert wrong["ward"] == [99]  # still writable, so the tool answers with its own clear error
    months = argument_values(analyze_question("murders in Jan and Feb 2022 in district 7", registry.data))
    assert months["months"] == [1, 2] and months["district"] == [7]
    half = argument_values(analyze_question("killings in the first half of 2020", registry.data))
    assert half["months"] == [1, 2, 3, 4, 5, 6]
    assert argument_values(None) == {}


def test_a_question_naming_no_year_admits_only_the_datas_years(registry, data_dir):
    # Asked how income correlates with murder rates (no year), the 0.5B model wrote start_year 2000, the tool
    # refused it, and the call was lost. The homicide snapshot's own years are the only ones writable.
    raw = pd.read_csv(data_dir / "homicides.csv", dtype=str, usecols=["Year"])
    years = sorted(pd.to_numeric(raw["Year"]).dropna().astype(int).unique().tolist())
    allowed = argument_values(analyze_question(
        "how does per capita income correlate with murder rates across neighborhoods", registry.data))
    assert allowed["start_year"] == allowed["end_year"] == list(range(years[0], years[-1] + 1))
    # Home values and census counts have years of their own: no homicide range is put on them.
    assert "year" not in argument_values(analyze_question("median home value in Austin", registry.data))
    assert "year" not in argument_values(analyze_question("population of Austin", registry.data))


@pytest.mark.slow
def test_question_grammar_admits_only_the_questions_values(tiny_backend, registry):
    # The random-weight model writes arbitrary values; whatever it writes must be the question's own. The
    # schema requires the constrained arguments, so every sampled call has to write them.
    schema = {"name": "count", "description": "", "parameters": {"type": "object", "required": ["year"], "properties": {
        "year": {"type": "integer", "minimum": 2001, "maximum": 2023},
        "community_area": {"type": ["integer", "string"]},
        "ward": {"type": "integer", "minimum": 1, "maximum": 50}}}}
    messages = [{"role": "system", "content": "Call a tool."}, {"role": "user", "content": "Homicides?"}]
    original_seed, seen = tiny_backend.seed, []
    try:
        for question in ("How many homicides were there in Austin in 2019?",
                         "Which ward had the most homicides in 2020?"):
            allowed = argument_values(analyze_question(question, registry.data))
            gbnf = build_tool_grammar([schema], 3, allow_no_call=False, allowed=allowed)
            for seed in range(5):
                tiny_backend.seed = seed
                text = tiny_backend.generate(GenerationRequest(messages=messages, grammar=gbnf, max_tokens=300)).text
                parsed = parse_tool_calls(text)
                assert parsed.calls and not parsed.errors, text
                for call in parsed.calls:
                    args = call["arguments"]
                    seen.append(args)
                    assert args["year"] == allowed["year"][0], text
                    if "community_area" in allowed:
                        assert args.get("community_area", 25) in (25, "Austin"), text
                    assert "ward" not in args or "ward" not in allowed, text  # ranks wards: no ward filter
    finally:
        tiny_backend.seed = original_seed
    assert len(seen) >= 10


def test_places_together_and_a_city_share_only_when_asked(registry):
    share = argument_values(analyze_question("what share of Chicago's homicides were in Austin in 2020", registry.data))
    assert share["city_share"] == [True] and share["community_areas"] == []
    together = argument_values(analyze_question("homicides in Austin and Englewood combined in 2020", registry.data))
    assert together["community_areas"] == [25, "Austin", 68, "Englewood"] and together["city_share"] == []
    plain = argument_values(analyze_question("homicides in Austin and Englewood in 2020", registry.data))
    assert plain["community_areas"] == [] and plain["city_share"] == []


def test_an_area_named_alone_admits_no_ward_or_district_filter(registry):
    # Asked about Humboldt Park (community area 23), the 0.5B model also wrote ward 23 and district 23.
    allowed = argument_values(analyze_question("how many were murdered in humboldt park in 2022", registry.data))
    assert allowed["ward"] == allowed["district"] == [] and allowed["community_area"] == [23, "Humboldt Park"]
    ranking = argument_values(analyze_question("which ward in Austin had the most homicides", registry.data))
    assert ranking["ward"] == []  # ranks wards: still no single-ward filter, and the group stays open
