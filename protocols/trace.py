"""The compact trace attached to an answer served through another protocol (OpenAI's `chiqa` field, MCP's `ask`).

The full trace (every model pass, every result table) stays in the run store and behind the permalink;
what travels with the answer is what a client can show or log: the run id, each tool call with its
arguments, status and one-line result, the stop reason and the token counts.
"""
from __future__ import annotations

import json


def error_message(error) -> str | None:
    """A tool error as one string, whether it arrived as {"code", "message"} or as text."""
    if error is None or error == "":
        return None
    if isinstance(error, dict):
        return str(error.get("message") or error.get("code") or json.dumps(error, default=str))
    return str(error)


def tool_call_view(call: dict) -> dict:
    """One tool call from a trace step or from result["tool_calls"]: name, arguments, status, one-line result."""
    status = str(call.get("status") or "ok")
    error = error_message(call.get("error"))
    inner = call.get("result") if isinstance(call.get("result"), dict) else {}
    if error is None and inner.get("ok") is False:
        error = error_message(inner.get("error"))
        status = "error" if status == "ok" else status
    summary = call.get("result_summary") or inner.get("summary") or ""
    arguments = call.get("arguments")
    return {
        "index": call.get("call", call.get("index")),
        "name": str(call.get("name") or inner.get("tool") or "?"),
        "arguments": arguments if isinstance(arguments, dict) else {},
        "status": status,
        "error": error,
        "summary": error if error and not summary else str(summary),
        "duration_ms": call.get("duration_ms"),
    }


def tool_call_steps(result: dict) -> list[dict]:
    """The tool calls in the order they ran (the trace's tool_call steps, else result["tool_calls"])."""
    steps = [s for s in result.get("trace") or [] if isinstance(s, dict) and s.get("type") == "tool_call"]
    if steps:
        return steps
    return [c for c in result.get("tool_calls") or [] if isinstance(c, dict)]


def usage(result: dict) -> dict:
    """Token counts over every model pass (gathering and synthesis), in OpenAI's usage shape."""
    prompt = completion = 0
    for step in result.get("trace") or []:
        if isinstance(step, dict) and step.get("type") in ("model_pass", "synthesis"):
            prompt += int(step.get("prompt_tokens") or 0)
            completion += int(step.get("completion_tokens") or 0)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def compact_trace(result: dict, run_id: str | None, permalink: str | None) -> dict:
    return {
        "run_id": run_id,
        "permalink": permalink,
        "question": result.get("question"),
        "reading": result.get("reading"),
        "stopped_because": result.get("stopped_because"),
        "partial": bool(result.get("partial")),
        "backend": (result.get("backend") or {}).get("backend") if isinstance(result.get("backend"), dict)
        else result.get("backend"),
        "model": result.get("model"),
        "prompt_version": result.get("prompt_version"),
        "tool_calls": [tool_call_view(c) for c in tool_call_steps(result)],
        "sources": result.get("sources") or [],
        "caveats": result.get("caveats") or [],
        "ungrounded_numbers": result.get("ungrounded_numbers") or [],
        "timings": result.get("timings") or {},
        "usage": usage(result),
    }
