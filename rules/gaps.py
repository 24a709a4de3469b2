"""A gap or a ratio the question asks for between two figures that are not two places' homicide counts (those are
rules/sentences.place_difference_sentence): an area's homicide rate against the city's ("how many times higher was
Englewood's rate than the city's"), two areas' socioeconomic measure ("is income higher in Hyde Park or Kenwood?
what's the gap"). The tools give both figures; the sentence gives the one asked for, first, with both beside it.
"""
from __future__ import annotations

import re

from analyzer.lexicon import GAP_RE, TIMES_RE
from tools.census.socioeconomic import COLUMN_SPEC
from tools.census.socioeconomic import fmt_value as socio_value


def rate_versus_city_sentence(question: str, values: dict) -> str | None:
    """One area's homicide rate against the city's, as the question asks: "Englewood's homicide rate in 2019, 89.0
    per 100,000, was 4.7 times the city's 18.8." (or the gap, "70.2 per 100,000 above"). None for anything else."""
    rows = values.get("breakdown") or []
    city = (values.get("citywide") or {}).get("rate_per_100k")
    if len(values.get("selected_areas") or []) != 1 or len(rows) != 1 or not city:
        return None
    row, start, end = rows[0], values.get("start_year"), values.get("end_year")
    rate = row.get("rate_per_100k")
    if not isinstance(rate, (int, float)):
        return None
    when = f"in {start}" if start == end else f"in {start}-{end}"
    head = f"{row['name']}'s homicide rate {when}, {rate:.1f} per 100,000,"
    if TIMES_RE.search(question):
        return f"{head} was {rate / city:.1f} times the city's {city:.1f}."
    if GAP_RE.search(question):
        gap = rate - city
        side = "above" if gap >= 0 else "below"
        return f"{head} was {abs(gap):.1f} per 100,000 {side} the city's {city:.1f}."
    return None


def socio_gap_sentence(question: str, values: dict) -> str | None:
    """Two community areas' socioeconomic measure and the gap (or ratio) between them: "Per capita income was
    $3,145 higher in Hyde Park ($39,056) than in Kenwood ($35,911), 2008-2012." None for anything else."""
    rows, column = values.get("rows") or [], values.get("compare_by")
    if values.get("scope") != "comparison" or len(rows) != 2 or column not in COLUMN_SPEC:
        return None
    a, b = rows
    va, vb = a.get(column), b.get(column)
    if not (isinstance(va, (int, float)) and isinstance(vb, (int, float))):
        return None
    label, kind = COLUMN_SPEC[column][0].split(" (")[0], COLUMN_SPEC[column][1]
    if kind == "pct":  # "households below poverty" is a share of them
        label = "the share of " + ("people " if label.startswith("aged ") else "") + label
    label = label[0].upper() + label[1:]
    if va < vb:  # the higher first: "higher in A than in B"
        a, b, va, vb = b, a, vb, va
    period = values.get("period")
    both = f"{a['name']} ({socio_value(column, va)}) than in {b['name']} ({socio_value(column, vb)})"
    tail = f", {period}." if period else "."
    if TIMES_RE.search(question) and vb:
        return f"{label} was {va / vb:.1f} times as high in {both}{tail}"
    if GAP_RE.search(question) or re.search(r"\bhigher\s+in\b.+\bor\b|\bor\b.+\bhigher\b", question, re.I):
        gap = f"{va - vb:.1f} percentage points" if kind == "pct" else socio_value(column, va - vb)
        return f"{label} was {gap} higher in {both}{tail}"
    return None
