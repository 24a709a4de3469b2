"""`python app.py mcp`: ChiQA as an MCP server over stdio, built on the official `mcp` SDK's low-level Server.

The low-level Server takes our tools' JSON schemas as they are (``inputSchema``), where the SDK's
decorator front end would derive schemas from Python signatures. The data load once, before the
handshake, so the first call is fast and a missing data folder fails at start with its own message;
the model backend for ``ask`` loads on the first ``ask``. Tool calls run in worker threads so one
slow ``ask`` never stalls the connection. Nothing here writes to stdout: the SDK owns it while serving.

Every incoming line is screened first (protocols/jsonrpc_screen.py): a line that is not JSON, nests too
deeply, is not a JSON-RPC message or holds a lone UTF-16 surrogate gets a JSON-RPC error reply (-32700,
-32600, -32602) and the server keeps serving, where the SDK alone would drop it without a word. Text going
out has lone surrogates replaced, so a reply can always be encoded.
"""
from __future__ import annotations

import json
import re
import sys

from assembly.services import build_tools
from protocols.jsonrpc_screen import DROP, INVALID_REQUEST, error, screen
from protocols.mcp_tools import McpTools
from settings.schema import Settings
from assembly.version import VERSION

SERVER_NAME = "chiqa"
INSTRUCTIONS = ("ChiQA answers questions about Chicago public data (homicides 2001-2023, census and ACS "
                "demographics, socioeconomic indicators, home values) by community area, ward, police district "
                "and ZIP. Call `ask` for a whole answer with its trace, or the data tools directly.")


def build_server(tools: McpTools):
    """The SDK Server with list_tools/call_tool handlers over ``tools``."""
    # Lazy: the MCP SDK (pydantic models, starlette, jsonschema) takes over a second to import,
    # and only `app.py mcp` needs it.
    import anyio
    import mcp.types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=t["name"], description=t["description"], input_schema=t["input_schema"])
            for t in tools.list_tools()])

    async def call_tool(ctx, params) -> types.CallToolResult:
        outcome = _scrubbed(await anyio.to_thread.run_sync(tools.call, params.name, params.arguments))
        texts = [outcome["text"], *outcome["extra_text"]]
        return types.CallToolResult(content=[types.TextContent(type="text", text=t) for t in texts],
                                    structured_content=outcome["structured"], is_error=outcome["is_error"])

    return Server(SERVER_NAME, version=VERSION, instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _scrubbed(value):
    """``value`` with lone UTF-16 surrogates in its strings replaced (U+FFFD): they cannot be sent as UTF-8."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_scrubbed(k): _scrubbed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(v) for v in value]
    return value


class ScreenedLines:
    """The stdin the SDK's stdio transport reads: well-formed JSON-RPC lines pass on; every other line is
    answered here with a JSON-RPC error (``reply``) or, when JSON-RPC wants no reply, dropped."""

    def __init__(self, source, reply, adapter):
        self._source = source  # async iterable of lines (bytes or str)
        self._reply = reply  # async fn(error object)
        self._adapter = adapter  # the SDK's JSON-RPC message adapter: what it can read, it is given

    def __aiter__(self):
        return self._lines()

    async def _lines(self):
        async for raw in self._source:
            line = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
            verdict = screen(line)
            if verdict is None:
                try:
                    self._adapter.validate_json(line, by_name=False)
                except Exception as exc:  # a shape the SDK would drop in silence
                    verdict = self._unreadable(line, exc)
            if verdict is None:
                yield line
            elif verdict is not DROP:
                await self._reply(verdict)

    @staticmethod
    def _unreadable(line: str, exc: Exception):
        message = json.loads(line)
        request_id = message.get("id")
        if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
            return DROP if "method" in message else error(
                INVALID_REQUEST, "Invalid Request: not a JSON-RPC request, notification or response")
        errors = getattr(exc, "errors", lambda: [])()
        detail = f" ({errors[0].get('msg')})" if errors and isinstance(errors[0], dict) else ""
        return error(INVALID_REQUEST, f"Invalid Request: not a JSON-RPC message the server can read{detail}",
                     request_id)


def serve_stdio(settings: Settings, backend_name: str | None = None) -> int:
    """Load the data, then serve MCP on stdin/stdout until the client closes the connection."""
    # Lazy: see build_server.
    import anyio
    import mcp_types as types
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    tools = McpTools(settings, build_tools(settings), backend_name)
    server = build_server(tools)

    async def main():
        ready, streams = anyio.Event(), {}

        async def reply(obj: dict) -> None:
            await ready.wait()
            await streams["write"].send(SessionMessage(types.jsonrpc_message_adapter.validate_python(obj)))

        # The SDK still claims stdout (fd 1 points at stderr while serving, so stray prints miss the wire);
        # stdin is read here, line by line, and screened before the SDK parses it.
        stdin = ScreenedLines(anyio.wrap_file(sys.stdin.buffer), reply, types.jsonrpc_message_adapter)
        async with stdio_server(stdin=stdin) as (read_stream, write_stream):
            streams["write"] = write_stream
            ready.set()
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        tools.close()
    return 0
