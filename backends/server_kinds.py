"""How each kind of OpenAI-compatible server is told to keep a gathering pass on the TOOL_CALL rails.

The same constraint (loop/grammar.py's GBNF, or its JSON-Schema twin loop/call_schema.py) travels in
a different request field per server, because each honours only its own and silently ignores the rest:

- ``llama-server`` (llama.cpp, also llama-cpp-python's server): ``grammar`` = the GBNF text.
- ``vllm``: ``structured_outputs: {"grammar": GBNF}``. vLLM's default structured-output backend,
  xgrammar, reads llama.cpp's GBNF (repetition ranges included). This is the field since vLLM 0.10.2;
  the older ``guided_grammar`` was removed in 0.12, so older servers need upgrading to be constrained.
- ``ollama``: a JSON schema. Ollama's OpenAI-compatible /v1/chat/completions has no ``grammar`` and no
  top-level ``format``; it turns ``response_format: {"type": "json_schema", "json_schema": {"schema":
  S}}`` into its native ``format: S``. The reply is then the JSON object of loop/call_schema.py.
- ``generic``: the same ``response_format`` JSON schema: OpenAI's standard structured outputs, which
  most compatible servers (LM Studio, llama-server, vLLM, Ollama) accept. ``strict`` is left out: some
  tool arguments are optional, which OpenAI's strict mode does not allow. For a server that rejects it,
  set ``model.openai.send_grammar: false`` (unconstrained; the tolerant parser still reads the calls).
"""
from __future__ import annotations

from backends.base import GenerationRequest
from toolcall.call_schema import build_call_schema

SERVER_KINDS = ("llama-server", "vllm", "ollama", "generic")
JSON_SCHEMA_KINDS = ("ollama", "generic")
SCHEMA_NAME = "chiqa_tool_calls"


def check_server_kind(kind: str) -> str:
    if kind not in SERVER_KINDS:
        raise ValueError(f"unknown model.openai.server_kind {kind!r}; use one of: {', '.join(SERVER_KINDS)}")
    return kind


def uses_json_schema(kind: str, request: GenerationRequest) -> bool:
    """True when this pass is constrained by the JSON schema, so the reply must be turned back into TOOL_CALL lines."""
    return kind in JSON_SCHEMA_KINDS and bool(request.grammar) and bool(request.tools)


def constraint_fields(kind: str, request: GenerationRequest) -> dict:
    """The request fields that constrain this pass on a ``kind`` server ({} when the pass is unconstrained)."""
    if not request.grammar:  # the orchestrator constrains gathering passes only
        return {}
    if kind == "llama-server":
        return {"grammar": request.grammar}
    if kind == "vllm":
        return {"structured_outputs": {"grammar": request.grammar}}
    if uses_json_schema(kind, request):
        schema = build_call_schema(request.tools, request.remaining_calls)
        return {"response_format": {"type": "json_schema",
                                    "json_schema": {"name": SCHEMA_NAME, "schema": schema}}}
    return {}
