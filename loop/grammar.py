"""GBNF grammar that keeps a small model's gathering pass on the TOOL_CALL rails.

The reply the grammar allows is exactly one of:

* a no-call line: the literal ``NO_TOOL_CALL`` optionally followed by a space and up to
  ``NO_CALL_TEXT_CHARS`` characters of brief text (no newline, no braces), e.g.
  ``NO_TOOL_CALL I have the yearly counts.``  toolcall.protocol treats a reply that starts
  with NO_TOOL_CALL as "no call" (ParseResult.no_call is True, calls is empty);
* 1..max_calls lines ``TOOL_CALL: {"name": "<tool>", "arguments": {...}}`` separated by a
  newline, where the name is one of the registered tools and the arguments are any subset
  of that tool's properties, in the schema's order, each with a value of its declared type
  (required properties are always present).

The layout is fixed (one space after ':' and ',') so the grammar stays small and a model
only decides the content. Values are typed but not every constraint is encoded: integer
ranges are enumerated when small, otherwise bounded by digit count; the registry's
canonicalisation still has the final word.
"""
from __future__ import annotations

import json
import re


NO_CALL_TEXT_CHARS = 120
STRING_MAX_CHARS = 60
ARRAY_MAX_ITEMS = 24  # an 8-hour night or a list of separate years must be writable
SMALL_RANGE = 120  # integer ranges up to this many values are listed one by one


def _lit(text: str) -> str:
    """A GBNF string literal for ``text``."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _rule_name(*parts) -> str:
    name = "-".join(str(p) for p in parts)
    return re.sub(r"[^a-zA-Z0-9-]", "-", name).strip("-") or "r"


class _Builder:
    def __init__(self, allowed: dict | None = None):
        self.rules: dict[str, str] = {}
        self.allowed = allowed or {}  # argument name -> the only values it may take ([] = leave it out)

    def add(self, name: str, body: str) -> str:
        self.rules[name] = body
        return name

    # ------------------------------------------------------------ value rules
    def value_rule(self, prefix: str, spec: dict) -> str:
        spec = spec if isinstance(spec, dict) else {}
        kinds = spec.get("type")
        if isinstance(kinds, list):
            kinds = [k for k in kinds if k != "null"] or ["string"]
            if len(kinds) == 1:
                return self.value_rule(prefix, {**spec, "type": kinds[0]})
            alts = [self.value_rule(f"{prefix}-{i}", {**spec, "type": kind}) for i, kind in enumerate(kinds)]
            return self.add(prefix, " | ".join(alts))
        if "enum" in spec and spec["enum"]:
            return self.add(prefix, self._enum_body(spec["enum"]))
        if kinds is None and spec.get("anyOf"):  # a name or an object (the semantic query's measures)
            alts = [self.value_rule(f"{prefix}-a{i}", option) for i, option in enumerate(spec["anyOf"])]
            return self.add(prefix, " | ".join(alts))
        if kinds == "object" and spec.get("properties"):  # nested: the same rule as a call's arguments
            return self.arguments_rule(prefix, spec, constrained=False)
        if kinds == "integer":
            return self.add(prefix, self._integer_body(spec))
        if kinds == "number":
            self.add("number", '"-"? [0-9]{1,9} ("." [0-9]{1,6})?')
            return "number"
        if kinds == "boolean":
            self.add("boolean", '"true" | "false"')
            return "boolean"
        if kinds == "array":
            item = self.value_rule(f"{prefix}-item", spec.get("items") or {"type": "string"})
            most = spec.get("maxItems") or ARRAY_MAX_ITEMS
            most = max(1, min(int(most), ARRAY_MAX_ITEMS))
            tail = f' (", " {item}){{0,{most - 1}}}' if most > 1 else ""
            return self.add(prefix, f'"[" ({item}{tail})? "]"')
        # strings (and anything without a usable type)
        self.add("string-char", r'[^"\\\x00-\x1f] | "\\" ["\\/nt]')
        self.add("string", f'"\\"" string-char{{1,{STRING_MAX_CHARS}}} "\\""')
        return "string"

    @staticmethod
    def _enum_body(choices) -> str:
        alts = []
        for choice in choices:
            alts.append(_lit(json.dumps(choice, ensure_ascii=False)))
        return " | ".join(dict.fromkeys(alts))

    @staticmethod
    def _integer_body(spec: dict) -> str:
        low, high = spec.get("minimum"), spec.get("maximum")
        if isinstance(low, (int, float)) and isinstance(high, (int, float)) and 0 <= high - low < SMALL_RANGE:
            values = range(int(low), int(high) + 1)
            return " | ".join(_lit(str(v)) for v in values)
        digits = 9
        if isinstance(high, (int, float)) and isinstance(low, (int, float)):
            digits = max(1, len(str(int(max(abs(high), abs(low))))))
        sign = '"-"? ' if not (isinstance(low, (int, float)) and low >= 0) else ""
        if digits == 1:
            return f"{sign}[0-9]"
        return f"{sign}([0-9] | [1-9] [0-9]{{1,{digits - 1}}})"

    def _allowed_rule(self, prefix: str, spec: dict, values: list | None) -> str | None:
        """The question's own values for this argument (an array: a list of them), or None: no constraint."""
        if not values:
            return None
        kinds = spec.get("type") if isinstance(spec, dict) else None
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "array" in kinds:
            # No more items than the question named: a small model otherwise repeated one value to the cap.
            return self.value_rule(prefix, {"type": "array", "items": {"enum": values},
                                            "maxItems": min(spec.get("maxItems") or ARRAY_MAX_ITEMS, len(values))})
        typed = [v for v in values if ("integer" in kinds and isinstance(v, int)) or
                 ("string" in kinds and isinstance(v, str))]
        # A string argument holding a number (a ZIP) takes the number as text.
        typed = typed or [str(v) for v in values if "string" in kinds]
        return self.add(prefix, self._enum_body(typed)) if typed else None

    # ------------------------------------------------------------ per-tool arguments
    def arguments_rule(self, prefix: str, parameters: dict, constrained: bool = True) -> str:
        """``constrained``: the question's allowed values apply (a call's own arguments, not a nested object's)."""
        parameters = parameters if isinstance(parameters, dict) else {}
        props = parameters.get("properties") or {}
        required = set(parameters.get("required") or [])
        allowed = self.allowed if constrained else {}
        # An argument the question rules out is left out of the grammar (unless the schema requires it).
        names = [n for n in props if n in required or allowed.get(n, True) != []]
        if not names:
            return self.add(f"{prefix}-args", '"{}"')
        pair = []
        for i, prop in enumerate(names):
            value = self._allowed_rule(f"{prefix}-v{i}", props[prop], allowed.get(prop))
            value = value or self.value_rule(f"{prefix}-v{i}", props[prop])
            pair.append(self.add(f"{prefix}-p{i}", f"{_lit(json.dumps(prop, ensure_ascii=False) + ': ')} {value}"))
        n = len(names)
        # after-k: the chosen properties among k..n-1, each preceded by ", "
        self.add(f"{prefix}-after{n}", '""')
        for k in range(n - 1, -1, -1):
            nxt = f"{prefix}-after{k + 1}"
            if names[k] in required:
                body = f'", " {pair[k]} {nxt}'
            else:
                body = f'(", " {pair[k]})? {nxt}'
            self.add(f"{prefix}-after{k}", body)
        # first-k: the first chosen property is k or later (a required one cannot be skipped)
        self.add(f"{prefix}-first{n}", '""')
        for k in range(n - 1, -1, -1):
            take = f"{pair[k]} {prefix}-after{k + 1}"
            if names[k] in required:
                body = take
            else:
                body = f"{take} | {prefix}-first{k + 1}"
            self.add(f"{prefix}-first{k}", body)
        return self.add(f"{prefix}-args", f'"{{" {prefix}-first0 "}}"')


NO_CALL_RULE = f'"NO_TOOL_CALL" (" " [^\\n{{}}]{{0,{NO_CALL_TEXT_CHARS}}})?'


def build_tool_grammar(schemas: list, max_calls: int, allow_no_call: bool = True,
                       allowed: dict | None = None) -> str:
    """GBNF text: a NO_TOOL_CALL line or 1..max_calls TOOL_CALL lines over ``schemas``.

    ``allow_no_call=False`` drops the NO_TOOL_CALL alternative (forces at least one call;
    used by benches and tests to drive a model through tool calls). ``allowed``: argument name
    -> the only values it may take, an empty list leaving it out (loop/argument_constraints.py).
    """
    builder = _Builder(allowed)
    tools = []
    seen = set()
    for schema in schemas or []:
        name = schema.get("name") if isinstance(schema, dict) else None
        if not isinstance(name, str) or not name or name in seen:
            continue
        seen.add(name)
        tools.append(schema)
    builder.add("no-call", NO_CALL_RULE)
    max_calls = int(max_calls or 0)
    if not tools or max_calls <= 0:
        builder.add("root", "no-call")
        return _render(builder)
    alts = []
    for index, schema in enumerate(tools):
        prefix = _rule_name("t", index)
        args = builder.arguments_rule(prefix, schema.get("parameters") or {})
        head = '{"name": ' + json.dumps(schema["name"], ensure_ascii=False) + ', "arguments": '
        alts.append(builder.add(f"{prefix}-call", f"{_lit(head)} {args} \"}}\""))
    builder.add("call", '"TOOL_CALL: " (' + " | ".join(alts) + ")")
    more = f' ("\\n" call){{0,{max_calls - 1}}}' if max_calls > 1 else ""
    builder.add("calls", f"call{more}")
    builder.add("root", "calls | no-call" if allow_no_call else "calls")
    return _render(builder)


def _render(builder: _Builder) -> str:
    order = ["root"] + [name for name in builder.rules if name != "root"]
    return "\n".join(f"{name} ::= {builder.rules[name]}" for name in order) + "\n"
