"""Pull TOOL_CALL requests out of whatever a (small, sloppy) model wrote.

The contract with the model is one call per line::

    TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"group_by": "year"}}

Small models drift from that, so the parser is forgiving: code fences, prose around the
call, single quotes, Python literals (True/False/None), trailing commas, a truncated tail
(open strings and brackets are closed), ``args``/``parameters`` instead of ``arguments``,
or no arguments object at all (the other keys become the arguments).

No-call convention: a reply that starts with ``NO_TOOL_CALL`` (the grammar's no-call line)
or that holds neither a ``TOOL_CALL`` marker nor a JSON call object means "no more calls".
A marker whose JSON cannot be read becomes an entry in ``errors``; the parser never raises.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

NO_CALL_MARKER = "NO_TOOL_CALL"
CALL_MARKER = "TOOL_CALL"

# "TOOL_CALL:" (or "TOOL_CALL {" / "TOOL_CALL ```") not preceded by a word character, so
# NO_TOOL_CALL never counts as a marker and neither does a bare mention in prose.
_MARKER_RE = re.compile(r"(?<![A-Za-z0-9_])TOOL_CALL(?:\s*:|(?=\s*[{`]))", re.IGNORECASE)
_NO_CALL_RE = re.compile(r"^\s*(?:`{3}\w*\s*)?NO_TOOL_CALL\b", re.IGNORECASE)
_ARGUMENT_KEYS = ("arguments", "args", "parameters", "params", "input", "kwargs")
_NAME_KEYS = ("name", "tool", "tool_name", "function")
_MAX_TEXT = 100_000  # characters looked at; a reply is never anywhere near this


@dataclass
class ParseResult:
    calls: list = field(default_factory=list)  # [{"name": str, "arguments": dict}]
    errors: list = field(default_factory=list)  # one human-readable line per unreadable call
    has_call_marker: bool = False
    no_call: bool = False  # the reply explicitly said NO_TOOL_CALL


# ---------------------------------------------------------------- lenient JSON reader

class _Reader:
    """A forgiving JSON reader: quotes of either kind, Python literals, trailing commas, EOF closes."""

    _WORDS = {"true": True, "false": False, "null": None, "none": None, "True": True, "False": False,
              "None": None}

    def __init__(self, text: str, pos: int):
        self.text = text
        self.pos = pos
        self.truncated = False
        self.depth = 0

    def _ws(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos] in " \t\r\n":
            self.pos += 1

    def _eof(self) -> bool:
        return self.pos >= len(self.text)

    def value(self):
        self._ws()
        if self._eof():
            self.truncated = True
            raise _Missing()
        ch = self.text[self.pos]
        if ch == "{":
            return self._object()
        if ch == "[":
            return self._array()
        if ch in "\"'":
            return self._string()
        if ch in "-+.0123456789":
            return self._number()
        if ch.isalpha() or ch == "_":
            word = self._word()
            if word in self._WORDS:
                return self._WORDS[word]
            if word.lower() in self._WORDS:
                return self._WORDS[word.lower()]
            return word  # a bare word: read it as text
        raise ValueError(f"unexpected character {ch!r} at offset {self.pos}")

    def _word(self) -> str:
        start = self.pos
        text, n = self.text, len(self.text)
        while self.pos < n and (text[self.pos].isalnum() or text[self.pos] in "_-."):
            self.pos += 1
        return text[start:self.pos]

    def _number(self):
        start = self.pos
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos] in "+-.0123456789eE":
            self.pos += 1
        raw = text[start:self.pos]
        if self._eof():
            self.truncated = True
        cleaned = raw.rstrip("eE+-.")
        if cleaned in ("", "-", "+"):
            raise ValueError(f"unreadable number {raw!r}")
        try:
            return int(cleaned)
        except ValueError:
            pass
        try:
            return float(cleaned)
        except ValueError:
            raise ValueError(f"unreadable number {raw!r}") from None

    def _string(self) -> str:
        quote = self.text[self.pos]
        self.pos += 1
        out = []
        text, n = self.text, len(self.text)
        while self.pos < n:
            ch = text[self.pos]
            if ch == quote:
                self.pos += 1
                return "".join(out)
            if ch == "\\":
                if self.pos + 1 >= n:
                    self.pos = n
                    break
                esc = text[self.pos + 1]
                if esc == "u":
                    digits = text[self.pos + 2:self.pos + 6]
                    if len(digits) == 4 and all(c in "0123456789abcdefABCDEF" for c in digits):
                        code = int(digits, 16)
                        self.pos += 6
                        # join a surrogate pair when the low half follows
                        if 0xD800 <= code < 0xDC00 and text[self.pos:self.pos + 2] == "\\u":
                            low_digits = text[self.pos + 2:self.pos + 6]
                            if len(low_digits) == 4 and all(c in "0123456789abcdefABCDEF" for c in low_digits):
                                low = int(low_digits, 16)
                                if 0xDC00 <= low < 0xE000:
                                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                                    self.pos += 6
                        out.append(chr(code))
                        continue
                    if self.pos + 2 + len(digits) >= n:  # cut off inside the escape
                        self.pos = n
                        break
                    out.append("u")
                    self.pos += 2
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(esc, esc))
                self.pos += 2
                continue
            out.append(ch)
            self.pos += 1
        self.truncated = True
        return "".join(out)

    def _open(self) -> None:
        """Step past "[" or "{", one level deeper."""
        self.pos += 1
        self.depth += 1
        if self.depth > 64:
            raise ValueError("nesting too deep")

    def _array(self) -> list:
        self._open()
        items: list = []
        while True:
            self._ws()
            if self._eof():
                self.truncated = True
                break
            ch = self.text[self.pos]
            if ch == "]":
                self.pos += 1
                break
            if ch == ",":
                self.pos += 1
                continue
            try:
                items.append(self.value())
            except _Missing:
                break
        self.depth -= 1
        return items

    def _object(self) -> dict:
        self._open()
        obj: dict = {}
        while True:
            self._ws()
            if self._eof():
                self.truncated = True
                break
            ch = self.text[self.pos]
            if ch == "}":
                self.pos += 1
                break
            if ch == ",":
                self.pos += 1
                continue
            if ch in "\"'":
                key = self._string()
                if self.truncated and self._eof():
                    break  # the key itself was cut off: drop it
            elif ch.isalpha() or ch == "_":
                key = self._word()
            else:
                raise ValueError(f"expected a key at offset {self.pos}, found {ch!r}")
            self._ws()
            if self._eof():
                self.truncated = True
                break
            if self.text[self.pos] not in ":=":
                raise ValueError(f"expected ':' after key {key!r}")
            self.pos += 1
            try:
                obj[key] = self.value()
            except _Missing:
                break
        self.depth -= 1
        return obj


class _Missing(Exception):
    """The text ended where a value should start."""


def _read_object(text: str, start: int):
    """Read the object starting at ``text[start] == '{'``: (object, end, truncated) or raise ValueError."""
    # Fast path: a well-formed object.
    try:
        obj, end = json.JSONDecoder().raw_decode(text, start)
        if isinstance(obj, dict):
            return obj, end, False
    except ValueError:
        pass
    except RecursionError:
        raise ValueError("nesting too deep") from None
    reader = _Reader(text, start)
    try:
        obj = reader.value()
    except _Missing:
        raise ValueError("the call is empty") from None
    except RecursionError:
        raise ValueError("nesting too deep") from None
    if not isinstance(obj, dict):
        raise ValueError("the call is not a JSON object")
    return obj, reader.pos, reader.truncated


# ---------------------------------------------------------------- call normalisation

def _normalise_call(obj: dict, require_arguments_key: bool = False):
    """(call, error): a {"name", "arguments"} dict, or None and the reason."""
    # OpenAI-style {"function": {"name": ..., "arguments": "..."}} wrappers
    inner = obj.get("function")
    if isinstance(inner, dict) and ("name" in inner):
        obj = inner
    name_key = next((k for k in _NAME_KEYS if isinstance(obj.get(k), str) and obj.get(k).strip()), None)
    if name_key is None:
        return None, "the call has no tool name (expected {\"name\": ..., \"arguments\": {...}})"
    name = obj[name_key].strip()
    arg_key = next((k for k in _ARGUMENT_KEYS if k in obj), None)
    if arg_key is None:
        if require_arguments_key:
            return None, None
        arguments = {k: v for k, v in obj.items() if k != name_key and k not in _NAME_KEYS}
    else:
        arguments = obj[arg_key]
        if isinstance(arguments, str):
            text = arguments.strip()
            if not text:
                arguments = {}
            else:
                try:
                    arguments, _, _ = _read_object(text, text.index("{")) if "{" in text else (None, 0, 0)
                except ValueError:
                    arguments = None
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return None, f"arguments for {name} must be a JSON object, got {json.dumps(arguments, default=str)[:80]}"
    return {"name": name, "arguments": arguments}, None


# ---------------------------------------------------------------- public entry point

def parse_tool_calls(text) -> ParseResult:
    """Every tool call in ``text`` plus one error per unreadable call. Never raises."""
    try:
        return _parse(text)
    except Exception as exc:  # belt and braces: a parser bug must not take down a run
        return ParseResult(calls=[], errors=[f"could not read the tool call: {type(exc).__name__}: {exc}"],
                           has_call_marker=bool(_MARKER_RE.search(str(text or "")[:_MAX_TEXT])))


def _parse(text) -> ParseResult:
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    text = text[:_MAX_TEXT]
    result = ParseResult()
    if _NO_CALL_RE.match(text):
        result.no_call = True
        return result
    markers = list(_MARKER_RE.finditer(text))
    if markers:
        result.has_call_marker = True
        consumed = 0
        for index, match in enumerate(markers):
            if match.start() < consumed:
                continue  # this marker sat inside the previous call's JSON
            limit = markers[index + 1].start() if index + 1 < len(markers) else len(text)
            pos = match.end()
            # skip fences / quotes / spaces between the marker and the object
            while pos < limit and text[pos] in " \t\r\n`'\"":
                pos += 1
            if pos < len(text) and text[pos:pos + 4].lower() == "json":
                pos += 4
                while pos < limit and text[pos] in " \t\r\n`":
                    pos += 1
            if pos >= len(text) or text[pos] != "{":
                snippet = text[match.end():limit].strip()[:60]
                result.errors.append(f"TOOL_CALL without a JSON object (found {snippet!r})" if snippet
                                     else "TOOL_CALL without a JSON object")
                consumed = limit
                continue
            try:
                obj, end, _truncated = _read_object(text, pos)
            except ValueError as exc:
                result.errors.append(f"could not read the TOOL_CALL JSON: {exc}")
                consumed = limit
                continue
            consumed = end
            call, error = _normalise_call(obj)
            if call is not None:
                result.calls.append(call)
            elif error:
                result.errors.append(error)
        return result
    # No marker: accept bare JSON call objects (e.g. inside a code fence) that name a tool
    # and carry an arguments object; anything else is prose and means "done".
    pos = 0
    while True:
        start = text.find("{", pos)
        if start == -1:
            break
        try:
            obj, end, _truncated = _read_object(text, start)
        except ValueError:
            pos = start + 1
            continue
        call, _error = _normalise_call(obj, require_arguments_key=True)
        if call is not None:
            result.calls.append(call)
            pos = max(end, start + 1)
        else:
            pos = start + 1
    return result


def format_tool_call(name: str, arguments: dict) -> str:
    """The canonical line for a call, as the model is asked to write it."""
    return CALL_MARKER + ": " + json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


__all__ = ["ParseResult", "parse_tool_calls", "format_tool_call", "NO_CALL_MARKER", "CALL_MARKER"]
