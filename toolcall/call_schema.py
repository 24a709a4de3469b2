"""The JSON-Schema twin of loop/grammar.py, for servers that constrain output with a JSON schema, not GBNF.

Ollama (and OpenAI-style structured outputs in general) take a JSON schema, so a constrained gathering
pass there replies with one JSON object instead of TOOL_CALL lines:

    {"tool_calls": [{"name": "query_homicides_advanced", "arguments": {"year": 2022}}]}

At most ``max_calls`` entries; an empty list is the no-call reply. Each entry is one of the tools: its
``name`` is that tool's name (a one-value enum) and its ``arguments`` that tool's own parameter schema,
closed to unknown keys. ``calls_to_protocol`` turns the reply back into the TOOL_CALL lines (or the
NO_TOOL_CALL line) the rest of the loop reads, so nothing downstream knows which way it was constrained.
"""
from __future__ import annotations

import copy
import json

from toolcall.protocol import NO_CALL_MARKER


def _closed(parameters: dict) -> dict:
    schema = copy.deepcopy(parameters) if isinstance(parameters, dict) else {}
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    schema["additionalProperties"] = False
    return schema


def build_call_schema(schemas: list, max_calls: int) -> dict:
    """A JSON schema for the reply object {"tool_calls": [...]} over ``schemas`` (the tool registry's)."""
    variants, seen = [], set()
    for tool in schemas or []:
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str) or not name or name in seen:
            continue
        seen.add(name)
        variants.append({
            "type": "object",
            "properties": {"name": {"type": "string", "enum": [name]},
                           "arguments": _closed(tool.get("parameters") or {})},
            "required": ["name", "arguments"],
            "additionalProperties": False,
        })
    most = max(0, int(max_calls or 0)) if variants else 0
    calls = {"type": "array", "maxItems": most}
    if most:
        calls["items"] = {"anyOf": variants}
    return {"type": "object", "properties": {"tool_calls": calls}, "required": ["tool_calls"],
            "additionalProperties": False}


def calls_to_protocol(text: str) -> str:
    """A {"tool_calls": [...]} reply as TOOL_CALL lines (NO_TOOL_CALL when empty); other text unchanged.

    A reply that is not that object (cut short by max_tokens, or a server that ignored the schema) is
    returned as it is: the tolerant parser in loop/protocol.py still reads what it can.
    """
    try:
        reply = json.loads(text)
    except (TypeError, ValueError):
        return text
    calls = reply.get("tool_calls") if isinstance(reply, dict) else None
    if not isinstance(calls, list):
        return text
    lines = []
    for call in calls:
        if isinstance(call, dict) and isinstance(call.get("name"), str):
            arguments = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
            lines.append("TOOL_CALL: " + json.dumps({"name": call["name"], "arguments": arguments},
                                                    ensure_ascii=False))
    if not calls:
        return NO_CALL_MARKER
    return "\n".join(lines) or text
