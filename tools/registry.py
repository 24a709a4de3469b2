"""The tool registry: schemas, argument canonicalisation, and a runner that never raises.

A tool is a plain function ``fn(data, **canonical_args) -> ToolResult`` plus a JSON schema.
The registry validates and canonicalises arguments against the schema (defaults filled,
types normalised, enums and ranges checked) before the function sees them, so every tool
body can trust its inputs and every bad input becomes an error result naming what is valid.
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from tools.errors import ToolArgumentError

TEXT_LIMIT = 1500  # characters of the rendering the model sees


@dataclass
class ToolResult:
    """What a tool returns: values for code, text for the model, a table and chart hint for the page."""

    ok: bool
    tool: str
    arguments: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    text: str = ""
    summary: str = ""
    table: dict | None = None  # {"columns": [...], "rows": [[...], ...]}
    chart: dict | None = None  # {"type": "line"|"bar", "x": col, "y": col, "title": str}
    map: dict | None = None  # {"level", "key", "value", "unit", "title", "period", "data"?}: tools/map_hints.py
    sources: list = field(default_factory=list)  # [{"dataset", "portal_id", "coverage": {"start","end"}}]
    caveats: list = field(default_factory=list)
    error: dict | None = None  # {"code", "message"}
    duration_ms: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def failure(cls, tool: str, message: str, code: str = "invalid_argument", arguments: dict | None = None):
        return cls(
            ok=False,
            tool=tool,
            arguments=arguments or {},
            text=f"ERROR ({code}): {message}",
            summary=f"error: {message}"[:200],
            error={"code": code, "message": message},
        )


@dataclass
class Tool:
    """A named data tool with a JSON schema and a one-line description for a small model."""

    name: str
    description: str
    parameters: dict  # JSON schema: {"type": "object", "properties": {...}, "required": [...]}
    fn: Callable[..., ToolResult]
    domain: str = ""  # the data it answers from, named as the question analyzer names domains
    label: str = ""  # how an answer's sources name its results when no dataset label applies ("Homicide data")
    prompted: bool = True  # listed in the model's gathering prompt and grammar (False: callable, not offered)

    def schema(self) -> dict:
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


# ---------------------------------------------------------------- canonicalisation

def _coerce_integer(name: str, value: Any, spec: dict) -> int:
    if isinstance(value, bool):
        raise ToolArgumentError(f"'{name}' must be a whole number, got {_shown(value)}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        text = value.strip()
        try:
            value = int(float(text)) if text and float(text).is_integer() else None
        except ValueError:
            value = None
        if value is None:
            raise ToolArgumentError(f"'{name}' must be a whole number, got {json.dumps(text)}")
    if not isinstance(value, int):
        raise ToolArgumentError(f"'{name}' must be a whole number, got {_shown(value)}")
    low, high = spec.get("minimum"), spec.get("maximum")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ToolArgumentError(
            f"'{name}' = {_shown(value)} is out of range; valid values are {low} to {high}", code="out_of_range"
        )
    return value


def _coerce_boolean(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in {"true", "yes", "y", "1", "false", "no", "n", "0"}:
        return value.strip().lower() in {"true", "yes", "y", "1"}
    raise ToolArgumentError(f"'{name}' must be true or false, got {_shown(value)}")


def _shown(value: Any) -> str:
    """A short rendering of a bad value for an error message (a 4,000-digit number stays short)."""
    text = json.dumps(value, default=str) if not isinstance(value, int) or abs(value) < 10**30 else "a huge integer"
    return text if len(text) <= 80 else text[:77] + "..."


def _coerce_string(name: str, value: Any, spec: dict) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # never through float: a 400-digit integer would overflow
    elif isinstance(value, float):
        value = str(int(value)) if value.is_integer() else str(value)
    if not isinstance(value, str):
        raise ToolArgumentError(f"'{name}' must be text, got {_shown(value)}")
    value = value.strip()
    choices = spec.get("enum")
    if choices:
        lowered = {c.lower(): c for c in choices}
        if value.lower() not in lowered:
            raise ToolArgumentError(
                f"'{name}' = {_shown(value)} is not valid; choose one of: {', '.join(choices)}",
                code="invalid_choice",
            )
        value = lowered[value.lower()]
    return value


def _coerce_value(name: str, value: Any, spec: dict) -> Any:
    types = spec.get("type")
    if types is None and "anyOf" in spec:
        return value  # a choice of shapes (a name or an object): the tool's own parser checks it
    if types == "object":
        if not isinstance(value, dict):
            raise ToolArgumentError(f"'{name}' must be a JSON object, got {_shown(value)}")
        return value  # nested: checked by the tool itself (the semantic query's parser names each field)
    if isinstance(types, list):  # e.g. ["string", "integer"] for "name or number"
        for kind in types:
            try:
                return _coerce_value(name, value, {**spec, "type": kind})
            except ToolArgumentError:
                continue
        raise ToolArgumentError(f"'{name}' must be one of types {types}, got {_shown(value)}")
    if types == "integer":
        return _coerce_integer(name, value, spec)
    if types == "number":
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            number = math.nan
        if isinstance(value, bool) or not math.isfinite(number):
            raise ToolArgumentError(f"'{name}' must be a finite number, got {_shown(value)}")
        return number
    if types == "boolean":
        return _coerce_boolean(name, value)
    if types == "array":
        if isinstance(value, str):
            value = [part for part in value.split(",") if part.strip()]
        if not isinstance(value, list):
            value = [value]
        items = spec.get("items", {})
        coerced = [_coerce_value(name, item, items) for item in value]
        limit = spec.get("maxItems")
        if limit and len(coerced) > limit:
            raise ToolArgumentError(f"'{name}' takes at most {limit} items", code="out_of_range")
        return coerced
    return _coerce_string(name, value, spec)


def canonicalize_arguments(tool: Tool, arguments: Any) -> dict:
    """Validate and normalise arguments: unknown names rejected, defaults filled, keys sorted."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ToolArgumentError(f"arguments for {tool.name} must be a JSON object, got {json.dumps(arguments)}")
    props = tool.parameters.get("properties", {})
    unknown = sorted(set(arguments) - set(props))
    if unknown:
        raise ToolArgumentError(
            f"unknown argument(s) {', '.join(unknown)} for {tool.name}; valid arguments: {', '.join(sorted(props))}",
            code="unknown_argument",
        )
    canonical: dict = {}
    for name, spec in props.items():
        value = arguments.get(name)
        if value is None or (isinstance(value, str) and not value.strip()) or value == []:
            if "default" in spec and spec["default"] is not None:
                canonical[name] = spec["default"]
            continue
        canonical[name] = _coerce_value(name, value, spec)
    missing = [name for name in tool.parameters.get("required", []) if name not in canonical]
    if missing:
        raise ToolArgumentError(f"missing required argument(s) for {tool.name}: {', '.join(missing)}", code="missing_argument")
    return dict(sorted(canonical.items()))


def call_key(name: str, canonical_arguments: dict) -> str:
    """A stable identity for a call, used to refuse exact repeats."""
    return name + ":" + json.dumps(canonical_arguments, sort_keys=True, separators=(",", ":"), default=str)


# ---------------------------------------------------------------- registry

class ToolRegistry:
    """Holds the tools and runs them against one loaded data bundle."""

    def __init__(self, data=None):
        self._tools: dict[str, Tool] = {}
        self.data = data  # None for a registry that only lists schemas

    def register(self, tool: Tool) -> Tool:
        self._tools[tool.name] = tool
        return tool

    def names(self) -> list[str]:
        return list(self._tools)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def schemas(self) -> list[dict]:
        return [tool.schema() for tool in self._tools.values()]

    def prompt_schemas(self) -> list[dict]:
        """The tools a model is offered in its gathering prompt and grammar."""
        return [tool.schema() for tool in self._tools.values() if tool.prompted]

    def domains(self) -> dict[str, str]:
        """tool name -> its data domain"""
        return {name: tool.domain for name, tool in self._tools.items()}

    def canonicalize(self, name: str, arguments: Any) -> dict:
        tool = self._tools.get(name)
        if tool is None:
            raise ToolArgumentError(
                f"unknown tool {json.dumps(name)}; valid tools: {', '.join(self._tools)}", code="unknown_tool"
            )
        try:
            return canonicalize_arguments(tool, arguments)
        except (OverflowError, RecursionError, TypeError, ValueError) as exc:
            if isinstance(exc, ToolArgumentError):
                raise
            raise ToolArgumentError(f"arguments for {name} could not be read ({type(exc).__name__}: "
                                    f"{str(exc)[:120]})") from None

    def run(self, name: str, arguments: Any = None) -> ToolResult:
        """Run a tool. Never raises: every failure is a ToolResult with ok=False."""
        started = time.perf_counter()
        try:
            canonical = self.canonicalize(name, arguments)
        except ToolArgumentError as exc:
            result = ToolResult.failure(name, str(exc), exc.code, arguments if isinstance(arguments, dict) else {})
        else:
            try:
                result = self._tools[name].fn(self.data, **canonical)
                result.arguments = canonical
            except ToolArgumentError as exc:
                result = ToolResult.failure(name, str(exc), exc.code, canonical)
            except Exception as exc:  # a tool bug is still data for the model, not a crash
                result = ToolResult.failure(name, f"{type(exc).__name__}: {exc}", "tool_failed", canonical)
        result.tool = name
        result.text = clip_text(result.text)
        result.duration_ms = round((time.perf_counter() - started) * 1000, 3)
        return result


def clip_text(text: str, limit: int = TEXT_LIMIT) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 20].rstrip() + "\n… (truncated)"
