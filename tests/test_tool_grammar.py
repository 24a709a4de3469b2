"""loop.grammar: GBNF built from tool schemas compiles in llama.cpp and yields parseable calls."""
import re

import pytest

from backends.base import GenerationRequest
from backends.llama_cpp import LlamaCppBackend, validate_grammar
from loop.grammar import build_tool_grammar
from loop.protocol import parse_tool_calls
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
