"""Reading the planner's answer sentences in tests (rules/sentences.py writes them)."""
import re

_COUNT = re.compile(r"^There (?:was|were) (?:an average of )?([\d,]+(?:\.\d+)?) ")


def lead_count(answer: str) -> float | None:
    """The figure of a "There were N homicides ..." opening, or None when the answer opens otherwise."""
    match = _COUNT.match(answer or "")
    return float(match.group(1).replace(",", "")) if match else None


def count_phrase(n: int) -> str:
    """How a count sentence opens: "There was 1 homicide", "There were 717 homicides"."""
    return "There was 1 homicide" if n == 1 else f"There were {n:,} homicides"
