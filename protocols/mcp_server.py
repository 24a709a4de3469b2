"""`python app.py mcp`: ChiQA as an MCP server over stdio, built on the official `mcp` SDK's low-level Server.

The low-level Server takes our tools' JSON schemas as they are (``inputSchema``), where the SDK's
decorator front end would derive schemas from Python signatures. The data load once, before the
handshake, so the first call is fast and a missing data folder fails at start with its own message;
the model backend for ``ask`` loads on the first ``ask``. Tool calls run in worker threads so one
slow ``ask`` never stalls the connection. Nothing here writes to stdout: the SDK owns it while serving.
"""
from __future__ import annotations

from assembly.services import build_tools
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
        outcome = await anyio.to_thread.run_sync(tools.call, params.name, params.arguments)
        texts = [outcome["text"], *outcome["extra_text"]]
        return types.CallToolResult(content=[types.TextContent(type="text", text=t) for t in texts],
                                    structured_content=outcome["structured"], is_error=outcome["is_error"])

    return Server(SERVER_NAME, version=VERSION, instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def serve_stdio(settings: Settings, backend_name: str | None = None) -> int:
    """Load the data, then serve MCP on stdin/stdout until the client closes the connection."""
    # Lazy: see build_server.
    import anyio
    from mcp.server.stdio import stdio_server

    tools = McpTools(settings, build_tools(settings), backend_name)
    server = build_server(tools)

    async def main():
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        tools.close()
    return 0
