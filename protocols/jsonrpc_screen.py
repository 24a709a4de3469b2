"""Screening of incoming JSON-RPC lines for the MCP stdio server, before the SDK sees them.

The SDK's stdio transport drops a line it cannot read (malformed JSON, nesting deeper than its parser
allows, a message of no known shape) without answering, so the client waits for ever; and a lone UTF-16
surrogate ("\\ud800" in JSON) gets into the answer, which then cannot be encoded, and the reply is lost.
``screen`` reads one line and returns None (pass it on) or the JSON-RPC error object to answer with:

- -32700 parse error: not JSON (the id cannot be known, so it is null);
- -32600 invalid request: JSON, but not one JSON-RPC message (nested too deep, a batch, no "jsonrpc": "2.0",
  no method, a malformed or null id); the request's id is found when the envelope shows it;
- -32602 invalid params: a request whose parameters hold a string that is not valid Unicode text.

Nothing here needs the MCP SDK, so it is tested on its own.
"""
from __future__ import annotations

import json
import re

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
# Deeper than any MCP message nests; well inside what Python's JSON reader and the SDK's parser accept.
MAX_DEPTH = 64
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_DECODER = json.JSONDecoder()
# What ``screen`` returns for a line to drop without a reply: blank, or a bad notification or response
# (JSON-RPC answers neither).
DROP = "drop"


def error(code: int, message: str, request_id=None) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def _too_deep(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` (a scan: nothing is parsed)."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def top_level_id(text: str):
    """The "id" member of the outermost JSON object, read without parsing the rest (None when not found)."""
    text = text.strip()
    if not text.startswith("{"):
        return None
    depth, i, key, n = 0, 0, None, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            try:
                value, end = _DECODER.raw_decode(text, i)  # one string token
            except ValueError:
                return None
            rest = text[end:].lstrip()
            key = value if depth == 1 and rest.startswith(":") else None
            i = end
            if key == "id":
                start = end + (len(text[end:]) - len(rest)) + 1
                while start < n and text[start] in " \t\r\n":
                    start += 1
                if start < n and text[start] in "[{":
                    return None
                try:
                    found, _ = _DECODER.raw_decode(text, start)
                except ValueError:
                    return None
                return found if _valid_id(found) else None
            continue
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        i += 1
    return None


def _valid_id(value) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _surrogate(value):
    """The first lone surrogate in any string (key or value) of ``value``, with its path, or None."""
    stack = [(value, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            found = LONE_SURROGATE.search(node)
            if found:
                return found.group(), path
        elif isinstance(node, dict):
            for key, item in node.items():
                found = LONE_SURROGATE.search(key)
                if found:
                    return found.group(), path
                stack.append((item, f"{path}.{key}" if path else key))
        elif isinstance(node, list):
            stack.extend((item, f"{path}[{index}]") for index, item in enumerate(node))
    return None


def screen(line: str) -> dict | str | None:
    """None when ``line`` is one well-formed JSON-RPC message to pass on, ``DROP`` to drop it silently, else
    the error reply to send."""
    text = line.strip()
    if not text:
        return DROP
    if _too_deep(text, MAX_DEPTH):
        return error(INVALID_REQUEST, f"Invalid Request: the message nests more than {MAX_DEPTH} levels deep",
                     top_level_id(text))
    try:
        message = json.loads(text)
    except RecursionError:
        return error(INVALID_REQUEST, "Invalid Request: the message nests too deeply", top_level_id(text))
    except ValueError as exc:
        where = f" at position {exc.pos}" if isinstance(exc, json.JSONDecodeError) else ""
        return error(PARSE_ERROR, f"Parse error: the line is not valid JSON{where}")
    if not isinstance(message, dict):
        kind = "a batch (a JSON array)" if isinstance(message, list) else f"a JSON {type(message).__name__}"
        return error(INVALID_REQUEST, f"Invalid Request: expected one JSON-RPC message object, got {kind}")
    request_id = message.get("id")
    has_id = "id" in message and request_id is not None
    if has_id and not _valid_id(request_id):
        return error(INVALID_REQUEST, "Invalid Request: the id must be a string or an integer")
    if "id" in message and request_id is None and "method" in message:
        # The SDK reads {"id": null, "method": ...} as a notification and never answers, so the client waits for
        # ever. JSON-RPC wants a string or a number there; the error goes back with id null, as for a parse error.
        return error(INVALID_REQUEST, 'Invalid Request: the id must be a string or an integer, not null (a '
                     'notification leaves "id" out)')
    reply_id = request_id if has_id else None
    if message.get("jsonrpc") != "2.0":
        return error(INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"', reply_id)
    is_request = isinstance(message.get("method"), str) and has_id
    found = _surrogate(message)
    if found is not None:
        char, path = found
        if not is_request:
            return DROP
        return error(INVALID_PARAMS, f"Invalid params: {path or 'the message'} contains an unpaired UTF-16 "
                     f"surrogate (U+{ord(char):04X}); send valid Unicode text", request_id)
    if "method" in message and not isinstance(message["method"], str):
        return error(INVALID_REQUEST, 'Invalid Request: "method" must be a string', reply_id)
    if "method" not in message and not has_id:
        return error(INVALID_REQUEST, 'Invalid Request: no "method" and no "id"')
    return None


