"""Homicide analysis tools, registered in this order: per-capita rates by community area
(tools.homicide_rates), socioeconomic context (tools.homicide_context), period comparisons
(tools.homicide_trends)."""
from __future__ import annotations

from tools.homicide_context import (SOCIO_DESCRIPTION, SOCIO_NAME, SOCIO_PARAMETERS,
                                    analyze_homicide_socioeconomic_context)
from tools.homicide_rates import (RATES_DESCRIPTION, RATES_NAME, RATES_PARAMETERS,
                                  analyze_homicide_rates_by_community_area)
from tools.homicide_trends import (TRENDS_DESCRIPTION, TRENDS_NAME, TRENDS_PARAMETERS,
                                   compare_homicide_district_trends)
from tools.registry import Tool


def register(registry) -> None:
    registry.register(Tool(RATES_NAME, RATES_DESCRIPTION, RATES_PARAMETERS, analyze_homicide_rates_by_community_area,
                           domain="homicides"))
    registry.register(Tool(SOCIO_NAME, SOCIO_DESCRIPTION, SOCIO_PARAMETERS, analyze_homicide_socioeconomic_context,
                           domain="homicides"))
    registry.register(Tool(TRENDS_NAME, TRENDS_DESCRIPTION, TRENDS_PARAMETERS, compare_homicide_district_trends,
                           domain="homicides"))
