"""``query_data``: the semantic layer's typed query as a tool (schema generated from the declarations).

A QueryError becomes the tool's named error, so a model (or an MCP client) sees what to repair; the result
carries the layer's table, sources and caveats like every other tool's.
"""
from __future__ import annotations

from semantic.errors import QueryError
from semantic.executor import run_query
from semantic.schema import DESCRIPTION, query_schema
from tools import names
from tools.data.datasets import DATASETS, source_entry
from tools.errors import ToolArgumentError
from tools.registry import Tool, ToolResult

TOOL_NAME = names.QUERY


def query_data(data, **arguments) -> ToolResult:
    try:
        result = run_query(data, arguments)
    except QueryError as exc:
        where = f" (at {exc.at})" if exc.at else ""
        hint = f"; nearest: {', '.join(map(str, exc.suggestions))}" if exc.suggestions else ""
        raise ToolArgumentError(f"{exc}{where}{hint}", exc.code) from None
    result.sources = full_sources(result.sources)
    table = {"columns": [c["name"] for c in result.columns],
             "rows": [[row.get(c["name"]) for c in result.columns] for row in result.rows]}
    return ToolResult(ok=True, tool=TOOL_NAME, values=result.to_dict(), text=result.lead + "\n\n" + result.text,
                      summary=result.lead[:400],
                      table=table, sources=result.sources, caveats=result.caveats)


def full_sources(sources: list) -> list:
    """The layer's sources with the catalogue's publisher and portal id, as every other tool's carry them."""
    out = []
    for entry in sources:
        if entry.get("key") in DATASETS:
            entry = source_entry(entry["key"], entry.get("coverage"))
        out.append(entry)
    return out


def register(registry) -> None:
    # Not in the model's gathering prompt yet: the reader issue (#43) makes the model write queries and
    # measures it; until then a model sees the nine tools it was measured with, and clients call this one.
    registry.register(Tool(TOOL_NAME, DESCRIPTION, query_schema(), query_data, domain="query",
                           label="Semantic query", prompted=False))
