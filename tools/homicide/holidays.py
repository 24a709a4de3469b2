"""The moving holidays' rules, which live in the semantic layer (semantic/holidays.py) so that its ``holiday``
dimension and this tool count the same days."""
from __future__ import annotations

from semantic.holidays import HOLIDAY_NAMES, HOLIDAYS, earliest_day, holiday_dates, holidays_phrase

__all__ = ["HOLIDAYS", "HOLIDAY_NAMES", "earliest_day", "holiday_dates", "holidays_phrase"]
