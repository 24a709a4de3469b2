"""Tool-call constraints per OpenAI-compatible server kind: the request each sends (with `responses`), the
JSON-schema twin of the grammar, and the JSON reply turned back into TOOL_CALL lines."""
import json

import jsonschema
import pytest
import responses
from llama_cpp.llama_grammar import json_schema_to_gbnf

from backends.base import BackendError, GenerationRequest
from backends.llama_cpp import LlamaCppBackend
from backends.openai_http import OpenAIBackend
from llama_client import make_backend
from toolcall.call_schema import build_call_schema, calls_to_protocol
from loop.grammar import build_tool_grammar
from toolcall.protocol import parse_tool_calls
from settings.loader import load_settings
from tools.catalog import tool_schemas

BASE = "http://model.test/v1"
URL = BASE + "/chat/completions"
MESSAGES = [{"role": "system", "content": "You are ChiQA."}, {"role": "user", "content": "Homicides in 2022?"}]
TOOLS = list(tool_schemas())
GRAMMAR = build_tool_grammar(TOOLS, 3)
CONSTRAINT_KEYS = {"grammar", "structured_outputs", "response_format", "guided_grammar", "format"}


def _reply(content: str) -> dict:
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5}}


def _send(kind: str, content: str, **request):
    """One generation through a `kind` backend; returns (generation, the JSON body that was sent)."""
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, URL, json=_reply(content))
        backend = OpenAIBackend(BASE, "m", timeout=5, server_kind=kind, send_grammar=request.pop("send", True))
        generation = backend.generate(GenerationRequest(messages=MESSAGES, **request))
        return generation, json.loads(mock.calls[0].request.body)


def _gather(**extra):
    return {"grammar": GRAMMAR, "tools": TOOLS, "remaining_calls": 3, **extra}


def test_llama_server_sends_the_gbnf_as_grammar():
    call = 'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"year": 2022}}'
    generation, sent = _send("llama-server", call, **_gather())
    assert sent["grammar"] == GRAMMAR and not CONSTRAINT_KEYS - {"grammar"} & set(sent)
    assert generation.text == call


def test_vllm_sends_the_gbnf_as_structured_outputs_grammar():
    call = 'TOOL_CALL: {"name": "get_iucr_info", "arguments": {"code": "0110"}}'
    generation, sent = _send("vllm", call, **_gather())
    assert sent["structured_outputs"] == {"grammar": GRAMMAR}
    assert not CONSTRAINT_KEYS - {"structured_outputs"} & set(sent)
    assert generation.text == call


@pytest.mark.parametrize("kind", ["ollama", "generic"])
def test_json_schema_kinds_send_response_format_and_read_the_json_reply(kind):
    reply = json.dumps({"tool_calls": [{"name": "query_homicides_advanced", "arguments": {"year": 2022}},
                                       {"name": "get_iucr_info", "arguments": {"code": "0110"}}]})
    generation, sent = _send(kind, reply, **_gather())
    assert not CONSTRAINT_KEYS - {"response_format"} & set(sent)
    fmt = sent["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "chiqa_tool_calls"
    assert fmt["json_schema"]["schema"] == build_call_schema(TOOLS, 3)
    assert generation.text.splitlines() == [
        'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"year": 2022}}',
        'TOOL_CALL: {"name": "get_iucr_info", "arguments": {"code": "0110"}}']
    parsed = parse_tool_calls(generation.text)
    assert [c["name"] for c in parsed.calls] == ["query_homicides_advanced", "get_iucr_info"]
    # an empty list is the no-call reply
    generation, _ = _send(kind, '{"tool_calls": []}', **_gather())
    assert generation.text == "NO_TOOL_CALL" and parse_tool_calls(generation.text).no_call


@pytest.mark.parametrize("kind", ["llama-server", "vllm", "ollama", "generic"])
def test_unconstrained_passes_send_no_constraint(kind):
    # synthesis (no grammar) and send_grammar=false: plain requests, the reply untouched
    generation, sent = _send(kind, '{"tool_calls": []}', tools=TOOLS, remaining_calls=3)
    assert not CONSTRAINT_KEYS & set(sent) and generation.text == '{"tool_calls": []}'
    generation, sent = _send(kind, '{"tool_calls": []}', send=False, **_gather())
    assert not CONSTRAINT_KEYS & set(sent) and generation.text == '{"tool_calls": []}'


def test_unknown_kind_and_settings():
    with pytest.raises(BackendError, match="server_kind 'tgi'.*llama-server, vllm, ollama, generic"):
        OpenAIBackend(BASE, server_kind="tgi")
    settings = load_settings(overrides={"model.backend": "openai", "model.openai.server_kind": "vllm"})
    backend = make_backend(settings)
    assert backend.server_kind == "vllm" and backend.info()["server_kind"] == "vllm"
    assert load_settings().model.openai.server_kind == "llama-server"


# ---------------------------------------------------------------- the schema itself

def test_call_schema_accepts_calls_the_grammar_allows_and_refuses_the_rest():
    schema = build_call_schema(TOOLS, 2)
    jsonschema.Draft202012Validator.check_schema(schema)
    ok = {"tool_calls": [{"name": "query_homicides_advanced", "arguments": {"year": 2022, "group_by": "district"}}]}
    jsonschema.validate(ok, schema)
    jsonschema.validate({"tool_calls": []}, schema)
    bad = [
        {"tool_calls": [{"name": "drop_tables", "arguments": {}}]},  # not a tool
        {"tool_calls": [{"name": "get_iucr_info", "arguments": {"year": 2022}}]},  # another tool's argument
        {"tool_calls": [{"name": "query_homicides_advanced", "arguments": {"group_by": "day_of_year"}}]},  # enum
        {"tool_calls": [{"name": "query_homicides_advanced", "arguments": {"ward": 51}}]},  # range
        {"tool_calls": [{"name": "query_homicides_advanced", "arguments": {}}] * 3},  # more calls than left
        {"tool_calls": [{"name": "query_homicides_advanced"}]},  # arguments missing
        {"calls": []},
    ]
    for reply in bad:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(reply, schema)
    # a tool's required arguments stay required
    with_required = [t for t in TOOLS if t["parameters"].get("required")]
    assert with_required
    for tool in with_required:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"tool_calls": [{"name": tool["name"], "arguments": {}}]}, schema)
    assert build_call_schema(TOOLS, 0)["properties"]["tool_calls"]["maxItems"] == 0


def test_calls_to_protocol_leaves_other_text_alone():
    cut_short = '{"tool_calls": [{"name": "a", "arguments": {"x": 1}}'
    assert calls_to_protocol(cut_short) == cut_short
    assert calls_to_protocol("TOOL_CALL: {}") == "TOOL_CALL: {}"
    assert calls_to_protocol('{"answer": 1}') == '{"answer": 1}'
    assert calls_to_protocol('{"tool_calls": [{"name": "a"}]}') == 'TOOL_CALL: {"name": "a", "arguments": {}}'


@pytest.mark.slow
def test_llama_cpp_turns_the_schema_into_a_grammar_a_model_follows(tiny_gguf_path):
    """llama.cpp's JSON-schema converter (what Ollama uses) compiles the schema; a real sampler obeys it."""
    tools = [{"name": "count", "parameters": {"type": "object", "required": ["year"], "properties": {
        "year": {"type": "integer", "minimum": 2001, "maximum": 2023},
        "group_by": {"type": "string", "enum": ["year", "month"]}}}},
        {"name": "describe", "parameters": {"type": "object", "required": ["code"], "properties": {
            "code": {"type": "string", "enum": ["0110", "0141"]}}}}]
    gbnf = json_schema_to_gbnf(json.dumps(build_call_schema(tools, 2)))
    settings = load_settings(overrides={"model.path": str(tiny_gguf_path), "model.n_ctx": 1024,
                                        "model.n_threads": 1, "model.seed": 3, "model.temperature": 0.8})
    backend = LlamaCppBackend.from_settings(settings)
    calls = 0
    try:
        for seed_question in ("Homicides in 2022?", "By month?", "Any more?"):
            messages = [{"role": "user", "content": seed_question}]
            generation = backend.generate(GenerationRequest(messages=messages, grammar=gbnf, max_tokens=400))
            reply = json.loads(generation.text)  # complete, valid JSON
            jsonschema.validate(reply, build_call_schema(tools, 2))
            lines = calls_to_protocol(generation.text)
            parsed = parse_tool_calls(lines)
            assert [(c["name"], c["arguments"]) for c in parsed.calls] == \
                [(c["name"], c["arguments"]) for c in reply["tool_calls"]]
            assert parsed.no_call == (not reply["tool_calls"])
            calls += len(parsed.calls)
    finally:
        backend.close()
    assert calls > 0  # the constrained model made calls with arguments, not only empty lists
