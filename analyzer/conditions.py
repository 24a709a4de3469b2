"""Community areas picked by a socioeconomic measure: "neighborhoods where more than 30% of households are below the
poverty line", "areas with per capita income above $50,000", "how many neighborhoods have unemployment over 25
percent". The reading names the measure, the side and the value; the areas themselves come from the data.

Only "over/above/more than/greater than/higher than" (strictly above) and "under/below/less than/lower than"
(strictly below) are read; "at least" and "or more" are left unread, so the reading says so rather than guess where
the boundary falls.
"""
from __future__ import annotations

import re

from analyzer.analysis import AreaCondition

_AREAS = r"(?:community\s+areas?|neighbou?rhoods?|areas|communities|parts\s+of\s+(?:the\s+)?(?:city|town))"
_ABOVE = r"over|above|more\s+than|greater\s+than|higher\s+than"
_BELOW = r"under|below|less\s+than|lower\s+than"
_VALUE = r"\$?\s?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k\b|thousand\b|%|\s?percent\b|\s?per\s?cent\b)?"
# The side and the value: "more than 30%", "above $50,000", "over 25 percent".
_BOUND_RE = re.compile(rf"\b({_ABOVE}|{_BELOW})\s+{_VALUE}", re.I)
_AREAS_RE = re.compile(rf"\b{_AREAS}\b", re.I)
# The measures an area can be picked by, as the socioeconomic tool names them.
MEASURES = ("income", "poverty", "unemployment", "education", "hardship", "crowding", "dependency")


def read_condition(low: str, metric_pos: dict) -> AreaCondition | None:
    """The condition on community areas in ``low``, or None. ``metric_pos``: where each measure's words start; the
    measure nearest the value is the one it bounds (so "homicides in areas where poverty is over 30%" bounds
    poverty, not homicides). A value that is a year ("over 2015") or bounds no socioeconomic measure is none."""
    if not _AREAS_RE.search(low):
        return None
    for match in _BOUND_RE.finditer(low):
        number, unit = float(match.group(2).replace(",", "")), (match.group(3) or "").strip().lower()
        if not unit and 1900 <= number <= 2100:
            continue
        measures = [(abs(pos - match.start()), metric) for metric, pos in metric_pos.items() if metric in MEASURES]
        if not measures:
            return None
        metric = min(measures)[1]
        value = number * 1000 if unit in ("k", "thousand") else number
        side = "above" if re.match(_ABOVE, match.group(1), re.I) else "below"
        return AreaCondition(metric, side, value, match.span())
    return None
