"""A synthesis grammar whose numerals can only be numbers the data tools returned (the quality issue's idea 5).

The answer stays free text; only where it writes a digit must the digits that follow spell one of the
numbers in the results (as the tools wrote them or as their values print), in the question, in the
analyzer's notes, or a small count 0-10 (list numbering, "top 5"). A number must end where a listed one
ends: "80" cannot be followed by "4" unless 804 is listed, and "33" cannot become "33.5" through a "."
unless 33.5 is listed. Derived figures come from the tools, which precompute shares, changes and ranks.
"""
from __future__ import annotations

import json
import math

from loop.grounding import extract_numbers
from tools.registry import ToolResult

SMALL_COUNTS = [str(n) for n in range(11)]
MAX_NUMERALS = 2000  # a grammar of that many literals still compiles in milliseconds


def _renderings(value: float) -> list[str]:
    """How a value from a result's values may be printed: whole numbers with and without thousands commas,
    others with one and two decimals (the tools' own text shows one)."""
    value = abs(value)
    if value.is_integer():
        whole = int(value)
        return [str(whole), f"{whole:,}"]
    return [f"{value:.1f}", f"{value:,.1f}", f"{value:.2f}"]


def _walk_values(node, out: list[str]) -> None:
    if isinstance(node, bool) or node is None:
        return
    if isinstance(node, (int, float)):
        if math.isfinite(float(node)):
            out += _renderings(float(node))
    elif isinstance(node, dict):
        for value in node.values():
            _walk_values(value, out)
    elif isinstance(node, (list, tuple)):
        for value in node:
            _walk_values(value, out)


def _written(text: str) -> list[str]:
    """The digits of each number in a text, as written ("1,234", "33.5"; sign, $ and % are plain text)."""
    out = []
    for number in extract_numbers(text):
        digits = number.text.lstrip("-−$")
        end = 0
        while end < len(digits) and (digits[end].isdigit() or digits[end] in ".,"):
            end += 1
        if end:
            out.append(digits[:end].rstrip(".,"))
    return out


def allowed_numerals(results: list[ToolResult], question: str = "", notes: list[str] | None = None) -> list[str]:
    """Every numeral an answer may write, longest first (no order is needed by the grammar; it keeps it
    readable in the trace)."""
    found: list[str] = list(SMALL_COUNTS)
    texts = [question, *(notes or [])]
    for result in results or []:
        texts += [result.summary or "", result.text or "", *(result.caveats or [])]
        texts.append(json.dumps(result.table or {}, default=str))
        _walk_values(result.values, found)
    for text in texts:
        found += _written(text)
    unique = [n for n in dict.fromkeys(found) if n and n[0].isdigit()]
    return sorted(unique, key=lambda n: (-len(n), n))[:MAX_NUMERALS]


def build_number_grammar(numerals: list[str]) -> str:
    """GBNF for an answer whose every number is one of ``numerals``."""
    literals = " | ".join(f'"{n}"' for n in numerals) or '"0"'
    return "\n".join([
        "root ::= seg* end?",
        # Text is anything but a digit; a number is one listed literal followed by a character that cannot
        # extend it (not a digit, and not "." or "," before a digit).
        "seg ::= [^0-9] | num sep",
        "sep ::= [^0-9.,] | [.,] [^0-9]",
        "end ::= num [.,]?",
        f"num ::= {literals}",
    ])
