"""Per-question options: what a caller may ask for, checked against the configured limits."""
from __future__ import annotations

import math

OPTION_KEYS = ("max_tool_calls", "timeout_seconds", "grammar")


class InvalidOptions(ValueError):
    """An unknown option, or a limit outside what the configuration allows."""


def _shown(value) -> str:
    """A short rendering for the error message (a huge or deeply nested value stays short)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


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
        shown = _shown(value)
        # JSON types are kept apart: "2" is text, not a number, and true is a boolean, not a count.
        if isinstance(value, str):
            raise InvalidOptions(f"{key} must be a number, not a string (got {shown}); send it without quotes")
        if isinstance(value, bool):
            raise InvalidOptions(f"{key} must be a number, not a boolean (got {shown})")
        try:
            # bool is an int subclass, and "2.5" calls are not a count; both are rejected rather than coerced.
            # NaN and infinity are rejected too: NaN compares false with every limit, so it would switch it off.
            number = float(value)
            if isinstance(value, bool) or not math.isfinite(number) or (kind is int and not number.is_integer()):
                raise ValueError
        except (TypeError, ValueError, OverflowError):  # OverflowError: an integer too large for a float
            raise InvalidOptions(f"{key} must be a finite number from 1 to {top:g}, got {shown}") from None
        if not 1 <= number <= top:
            raise InvalidOptions(f"{key} must be from 1 to {top:g}, got {number:g}")
        value = kind(number)
        limits[key] = value
    if options.get("grammar") is not None:
        if not isinstance(options["grammar"], bool):
            raise InvalidOptions(f"grammar must be true or false, got {_shown(options['grammar'])}")
        # Asking for grammar cannot switch it on when the configuration turned it off.
        limits["grammar"] = options["grammar"] and grammar
    return limits
