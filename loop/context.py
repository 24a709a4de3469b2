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
    model_calls: str  # gaps | own (settings/schema.py)
    question_grammar: bool
    key_figures: bool
    number_grammar: bool

    @classmethod
    def from_settings(cls, settings: Settings) -> "LoopConfig":
        o, m = settings.orchestrator, settings.model
        return cls(max_tool_calls=o.max_tool_calls, timeout_seconds=o.timeout_seconds,
                   reply_reserve=o.reply_reserve_tokens, grounding_check=o.grounding_check, grammar=m.grammar,
                   max_tokens=m.max_tokens, model_calls=o.model_calls, question_grammar=o.question_grammar,
                   key_figures=o.key_figures, number_grammar=o.number_grammar)


class ToolGrammars:
    """Gathering grammars per (calls admitted, whether a call is required, allowed values, tools), cached."""

    def __init__(self, registry):
        self.registry = registry
        self._grammars: dict[tuple, str] = {}

    def grammar(self, remaining: int, allowed: dict | None = None, no_call: bool = True, tools: tuple = ()) -> str:
        """``tools``: the only tools admitted (all when empty)."""
        key = (remaining, no_call, json.dumps(allowed or {}, sort_keys=True), tools)
        if key not in self._grammars:
            if len(self._grammars) >= GRAMMAR_CACHE_SIZE:  # per-question grammars: keep the cache bounded
                self._grammars.pop(next(iter(self._grammars)))
            schemas = [s for s in self.registry.schemas() if s["name"] in tools] if tools else \
                self.registry.prompt_schemas()
            self._grammars[key] = build_tool_grammar(schemas, remaining, allowed=allowed,
                                                     allow_no_call=no_call)
        return self._grammars[key]


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
    model_decides: bool  # a language model decides; the planner gives it the reading, key figures and checks
    planner_decides: bool  # no model: the planner gathers and writes the answer itself
