"""What every run of one orchestrator shares: the backend, the tools, the planner, the loop's settings, grammars.

Built once per Orchestrator; the phases read it and never change it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from loop.grammar import build_tool_grammar
from settings.schema import Settings

GRAMMAR_CACHE_SIZE = 64


@dataclass(frozen=True)
class LoopConfig:
    """The orchestrator's settings, read once."""

    max_tool_calls: int
    timeout_seconds: float
    reply_reserve: int
    grounding_check: bool
    grammar: bool
    max_tokens: int
    suggest_calls: bool
    unread_calls: str  # draft | none | replace | add (settings/schema.py)
    model_calls: str  # gaps | always (settings/schema.py)
    question_grammar: bool
    stop_when_drafted: bool
    key_figures: bool
    number_grammar: bool

    @classmethod
    def from_settings(cls, settings: Settings) -> "LoopConfig":
        o, m = settings.orchestrator, settings.model
        return cls(max_tool_calls=o.max_tool_calls, timeout_seconds=o.timeout_seconds,
                   reply_reserve=o.reply_reserve_tokens, grounding_check=o.grounding_check, grammar=m.grammar,
                   max_tokens=m.max_tokens, suggest_calls=o.suggest_calls,
                   unread_calls=o.unread_calls, model_calls=o.model_calls, question_grammar=o.question_grammar,
                   stop_when_drafted=o.stop_when_plan_done, key_figures=o.key_figures,
                   number_grammar=o.number_grammar)


class ToolGrammars:
    """Gathering grammars per (calls admitted, draft, allowed values, tools), cached; and the schemas' argument order."""

    def __init__(self, registry):
        self.registry = registry
        self._grammars: dict[tuple, str] = {}
        self._property_order: dict | None = None

    def grammar(self, remaining: int, suggested: bool = False, allowed: dict | None = None,
                no_call: bool = True, only_lines: tuple = (), tools: tuple = ()) -> str:
        """``tools``: the only tools admitted (all when empty)."""
        key = (remaining, suggested, no_call, json.dumps(allowed or {}, sort_keys=True), only_lines, tools)
        if key not in self._grammars:
            if len(self._grammars) >= GRAMMAR_CACHE_SIZE:  # per-question grammars: keep the cache bounded
                self._grammars.pop(next(iter(self._grammars)))
            schemas = [s for s in self.registry.schemas() if s["name"] in tools] if tools else \
                self.registry.prompt_schemas()
            self._grammars[key] = build_tool_grammar(schemas, remaining, allow_suggested=suggested,
                                                     allowed=allowed, allow_no_call=no_call,
                                                     only_lines=list(only_lines))
        return self._grammars[key]

    def in_schema_order(self, name: str, arguments: dict) -> dict:
        """A call's arguments in its schema's property order: the order the gathering grammar makes the model
        write them. A draft shown in another order could not be copied: a small model that began with a later
        argument had no way back to an earlier one (the ZIP of "home values in 60614" was lost that way)."""
        if self._property_order is None:
            self._property_order = {schema["name"]: list((schema.get("parameters") or {}).get("properties") or {})
                                    for schema in self.registry.schemas()}
        order = self._property_order.get(name, [])
        ranked = sorted(arguments, key=lambda key: order.index(key) if key in order else len(order))
        return {key: arguments[key] for key in ranked}


@dataclass(frozen=True)
class RunContext:
    backend: object
    registry: object
    planner: object  # rules/collaborator.Planner
    config: LoopConfig
    grammars: ToolGrammars
    system_prompt: str
    answer_prompt: str  # the small synthesis's own short system prompt (its KV state is kept beside the tools')
    query_prompt: str  # the query writer's system prompt (loop/query_pass.py), a third saved prefix
    model_drafts: bool  # a language model decides, and is shown the planner's drafts, key figures and checks
    planner_decides: bool  # no model: the planner gathers and writes the answer itself
