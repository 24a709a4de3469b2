"""What ChiQA's MCP server offers, without the MCP SDK: the eight data tools and `ask`, as plain dicts.

protocols/mcp_server.py wraps these in the SDK's types; keeping them apart lets the CLI and tests use
them without loading the SDK, and keeps the protocol glue thin.

- Data tools: the registry's own JSON schemas are the input schemas, and a call goes through
  ``ToolRegistry.run`` exactly as in the loop, so arguments are canonicalised and checked the same
  way and an error carries the same message (naming the valid range or choices).
- ``ask``: one question through the whole loop (the configured backend; the rule planner with
  ``--backend rules``). The answer comes back with the compact trace (protocols/trace.py), and the
  run is stored in the run history, so ``/runs/<run_id>`` on a ChiQA web app sharing the same var
  folder shows the full trace.
"""
from __future__ import annotations

import json
import threading

from assembly.answering import AskError, answer, check_question
from assembly.services import build_services
from protocols.trace import compact_trace
from semantic.catalog import describe
from settings.schema import Settings
from store.run_store import open_store
from tools.registry import ToolRegistry

ASK = "ask"
LIST_MEASURES = "list_measures"  # the semantic layer's catalogue, so an agent can write query_data calls


def _jsonable(value):
    """Tool values as plain JSON (numpy numbers and dates become JSON numbers and strings)."""
    return json.loads(json.dumps(value, default=str))


def _outcome(text: str, structured: dict | None = None, is_error: bool = False, extra_text: list | None = None):
    return {"text": text, "extra_text": list(extra_text or []), "structured": structured, "is_error": is_error}


class McpTools:
    """The tool list and the calls; safe to use from worker threads (ask builds the loop once, under a lock)."""

    def __init__(self, settings: Settings, registry: ToolRegistry, backend_name: str | None = None):
        self.settings = settings
        self.registry = registry
        self.backend_name = backend_name
        self._services = None
        self._lock = threading.Lock()
        self.store = open_store(settings)

    # ------------------------------------------------------------ listing
    def ask_schema(self) -> dict:
        return {
            "type": "object",
            "properties": {
                "question": {"type": "string", "minLength": 1, "maxLength": self.settings.server.max_question_chars,
                             "description": "a plain-English question about Chicago homicides, census, "
                                            "socioeconomic indicators or home values"},
                "max_tool_calls": {"type": "integer", "minimum": 1,
                                   "maximum": self.settings.orchestrator.max_tool_calls,
                                   "description": "at most this many data tool calls (default: the configured cap)"},
            },
            "required": ["question"],
            "additionalProperties": False,
        }

    def list_tools(self) -> list[dict]:
        tools = [{"name": s["name"], "description": s.get("description") or "", "input_schema": s["parameters"]}
                 for s in self.registry.schemas()]
        tools.append({"name": LIST_MEASURES, "input_schema": {"type": "object", "properties": {},
                                                              "additionalProperties": False},
                      "description": "List the measures (with unit, grains and period) and the dimensions that "
                                     "query_data can use, and the join paths between place grains."})
        tools.append({"name": ASK, "input_schema": self.ask_schema(),
                      "description": "Answer a question with ChiQA's own loop (it picks and calls the data tools, "
                                     "then writes a grounded answer). Returns the answer, then the trace as JSON: "
                                     "run id, each tool call with its arguments, status and result, stop reason."})
        return tools

    # ------------------------------------------------------------ calls
    def call(self, name: str, arguments: dict | None) -> dict:
        if arguments is not None and not isinstance(arguments, dict):
            return _outcome("arguments must be a JSON object", is_error=True)
        if name == ASK:
            return self.ask(arguments or {})
        if name == LIST_MEASURES:
            if arguments:
                return _outcome("list_measures takes no arguments", is_error=True)
            catalog = describe()
            lines = [f"- {m['name']}: {m['label']} ({m['unit']}); by {', '.join(m['grains'] + m['derived_grains'])};"
                     f" {m['period']}" for m in catalog["measures"]]
            lines.append("Dimensions: " + ", ".join(d["name"] for d in catalog["dimensions"]))
            return _outcome("\n".join(lines), catalog)
        result = self.registry.run(name, arguments or {})
        if not result.ok:
            error = result.error or {}
            return _outcome(str(error.get("message") or error.get("code") or "the tool failed"), is_error=True)
        lines = [result.text]
        if result.caveats:
            lines.append("Caveats:\n" + "\n".join(f"- {c}" for c in result.caveats))
        if result.sources:
            lines.append("Sources:\n" + "\n".join(
                f"- {s.get('dataset')} ({s.get('portal_id') or s.get('publisher')})" for s in result.sources))
        values = _jsonable(result.values)
        return _outcome("\n\n".join(lines), values if isinstance(values, dict) else {"values": values})

    def _orchestrator(self):
        with self._lock:
            if self._services is None:
                self._services = build_services(self.settings, data=self.registry.data,
                                                backend_name=self.backend_name)
        return self._services.orchestrator

    def ask(self, arguments: dict) -> dict:
        unknown = sorted(set(arguments) - {"question", "max_tool_calls"})
        if unknown:
            return _outcome(f"unknown argument(s): {', '.join(unknown)}; ask takes question and max_tool_calls",
                            is_error=True)
        try:
            question = check_question(arguments.get("question"), self.settings.server.max_question_chars)
        except AskError as exc:
            return _outcome(f"ask needs a valid question: {exc.message}", is_error=True)
        options = {"max_tool_calls": arguments["max_tool_calls"]} if "max_tool_calls" in arguments else {}
        try:
            result = answer(self._orchestrator, self.store, question, options)
        except AskError as exc:
            return _outcome(exc.message, is_error=True)
        run_id = result["run_id"]  # None when the store could not keep it; the trace says so
        trace = _jsonable(compact_trace(result, run_id, result.get("permalink")))  # with its share key
        text = result.get("answer") or ""
        return _outcome(text, {"answer": text, "trace": trace}, extra_text=[json.dumps(trace, ensure_ascii=False)])

    def close(self) -> None:
        if self._services is not None:
            self._services.close()
