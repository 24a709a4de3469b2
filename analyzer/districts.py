"""Police districts named by their station's name: "the Town Hall district", "Harrison police station".

A district's name alone ("Englewood", "Austin") is usually the community area of that name, so a name counts as a
district only beside a word that makes it one (district, police, station, precinct).
"""
from __future__ import annotations

import re

_CONTEXT = r"(?:police\s+)?(?:district|station|precinct|police)s?"
# "the Austin police district" is district 15 even though Austin is also a community area: read before the areas.
DISTRICT_WORD = r"(?:police\s+)?districts?"


def district_names(data) -> dict[str, int]:
    """lower-case station name -> district number, from the data's police stations (empty without them)."""
    try:
        frame = data.police_stations
    except Exception:  # noqa: BLE001 - no stations file: no names to read
        return {}
    out = {}
    for row in frame.itertuples(index=False):
        try:
            out[str(row.name).strip().lower()] = int(row.district)
        except (TypeError, ValueError, AttributeError):
            continue
    return out


def named_districts(low: str, data, taken: list, context: str = _CONTEXT) -> tuple[list[int], list[tuple[int, int]]]:
    """District numbers named by their station's name in ``low``, and the spans read (not already taken)."""
    names = district_names(data)
    if not names:
        return [], []
    alternatives = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(r"\b(" + alternatives + r")\s+" + context + r"\b|\b" + context + r"\s+(?:of\s+)?(" +
                         alternatives + r")\b")
    numbers, spans = [], []
    for m in pattern.finditer(low):
        if any(s <= m.start() < e for s, e in taken):
            continue
        name = " ".join((m.group(1) or m.group(2)).split())
        number = names.get(name)
        if number is not None and number not in numbers:
            numbers.append(number)
            spans.append(m.span())
    return numbers, spans
