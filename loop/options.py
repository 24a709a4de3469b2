"""Per-question options: what a caller may ask for, checked against the configured limits."""
from __future__ import annotations

import math

OPTION_KEYS = ("max_tool_calls", "timeout_seconds", "grammar")


class InvalidOptions(ValueError):
    """An unknown option, or a limit outside what the configuration allows."""


def validate_limits(options: dict | None, max_tool_calls: int, timeout_seconds: float, grammar: bool) -> dict:
    """The limits for one question; options may only lower the configured ones, never raise them."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise InvalidOptions(f"unknown option(s): {', '.join(unknown)}; valid options: {', '.join(OPTION_KEYS)}")
    limits = {"max_tool_calls": max_tool_calls, "timeout_seconds": timeout_seconds, "grammar": grammar}
    for key, top, kind in (("max_tool_calls", max_tool_calls, int), ("timeout_seconds", timeout_seconds, float)):
        value = options.get(key)
        if value is None:
            continue
        try:
            # bool is an int subclass, and "2.5" calls are not a count; both are rejected rather than coerced.
            # inf, nan and numbers too long to read are not limits either (nan compares false with everything).
            number = float(value)
            if isinstance(value, bool) or not math.isfinite(number) or (kind is int and number != int(number)):
                raise ValueError
            value = kind(number)
        except (TypeError, ValueError, OverflowError):
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            raise InvalidOptions(f"{key} must be a number from 1 to {top:g}, got {shown}") from None
        if not 1 <= value <= top:
            raise InvalidOptions(f"{key} must be from 1 to {top:g}, got {value:g}")
        limits[key] = value
    if options.get("grammar") is not None:
        if not isinstance(options["grammar"], bool):
            raise InvalidOptions(f"grammar must be true or false, got {options['grammar']!r}")
        # Asking for grammar cannot switch it on when the configuration turned it off.
        limits["grammar"] = options["grammar"] and grammar
    return limits
