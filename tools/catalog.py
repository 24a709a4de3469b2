"""The nine ChiQA tools in their fixed order: the order the model's prompt and the schemas list them in."""
from __future__ import annotations

import functools

from tools.census import socioeconomic
from tools.census import tool as census
from tools.homicide import context, iucr, query, rates, trends
from tools.property import tool as property_values
from tools.registry import ToolRegistry
from tools.query_data import tool as query_data
from tools.stations import tool as stations

TOOL_MODULES = (query, iucr, census, socioeconomic, property_values, rates, context, trends, stations, query_data)


def build_registry(data=None) -> ToolRegistry:
    """A registry of every tool, running against ``data`` (None: schemas only, nothing can run)."""
    registry = ToolRegistry(data)
    for module in TOOL_MODULES:
        module.register(registry)
    return registry


@functools.lru_cache(maxsize=1)
def tool_schemas() -> tuple:
    """Every tool's schema, built once per process without loading any data."""
    return tuple(build_registry().schemas())
