"""Police districts named by their station's name: "the Town Hall district", "Harrison police station".

A district's name alone ("Englewood", "Austin") is usually the community area of that name, so a name counts as a
district only beside a word that makes it one (district, police, station, precinct).
"""
from __future__ import annotations

import re

from semantic.datasets.stations import area_station  # the layer's rule for which station is an area's

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
    # "the Gresham (district 6) police station": the number in brackets between the name and its word
    # "the district 11 (Harrison) police station": the name in brackets before its word
    # "the Harrison (11th) district police station": the district's ordinal in brackets, its word after; "Harrison
    # police district (11)": its number in brackets after
    pattern = re.compile(r"\b(" + alternatives + r")\)?\s+(?:\((?:police\s+)?district\s+\d{1,2}\)\s+|"
                         r"\(\d{1,2}(?:st|nd|rd|th)\)\s+(?:police\s+)?district\s+)?" + context +
                         r"\b(?:\s*\(\s*\d{1,2}\s*\))?|\b" + context + r"\s+(?:of\s+)?(" +
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


# "1438 W 63rd St": a station's street address, however the direction and the street's kind are written.
_DIRECTIONS = {"n": r"n(?:orth|\.)?", "s": r"s(?:outh|\.)?", "e": r"e(?:ast|\.)?", "w": r"w(?:est|\.)?"}
_SUFFIXES = {"st": r"st(?:reet|\.)?", "ave": r"ave?(?:nue|\.)?", "blvd": r"b(?:ou)?l(?:e)?v(?:ar)?d\.?",
             "rd": r"r(?:oa)?d\.?", "pkwy": r"p(?:ar)?kw(?:a)?y\.?", "dr": r"dr(?:ive|\.)?", "pl": r"pl(?:ace|\.)?"}


def _address_pattern(address: str) -> str | None:
    """A station address as a pattern: its number, direction, street name, and optionally its kind of street."""
    words = address.lower().split()
    if len(words) < 3 or not words[0].isdigit():
        return None
    number, rest = words[0], words[1:]
    direction = r"(?:\s+" + _DIRECTIONS[rest.pop(0)] + r")?" if rest[0] in _DIRECTIONS and len(rest) > 1 else ""
    suffix = _SUFFIXES.get(rest[-1].rstrip(".")) if len(rest) > 1 else None
    if suffix:
        rest = rest[:-1]
    return (r"\b" + re.escape(number) + direction + r"\s+" + r"\s+".join(re.escape(w) for w in rest) +
            (r"(?:\s+" + suffix + r")?" if suffix else "") + r"(?!\w)")


def districts_by_address(low: str, data) -> tuple[list[int], list[tuple[int, int]]]:
    """Districts named by their station's street address ("the district whose station is at 1438 w 63rd st")."""
    if not re.search(r"\b" + _CONTEXT + r"\b", low):
        return [], []  # an address alone is where something happened, not a district: left for the reading to report
    try:
        frame = data.police_stations
    except Exception:  # noqa: BLE001 - no stations file: no addresses to read
        return [], []
    numbers, spans = [], []
    for row in frame.itertuples(index=False):
        pattern = _address_pattern(str(getattr(row, "address", "") or ""))
        m = re.search(pattern, low) if pattern else None
        if m and int(row.district) not in numbers:
            numbers.append(int(row.district))
            spans.append(m.span())
    return numbers, spans


# "the police district whose station is located in West Englewood": the district is found through where its station
# stands; the area named is only where to look (its own homicides were answered instead).
_STATION_IN_RE = re.compile(r"\b(?:police\s+)?district\s+(?:whose|where\s+(?:its|the))\s+(?:police\s+)?(?:station|"
                            r"headquarters|hq)\s+(?:is\s+|sits\s+|stands\s+)?(?:located\s+|situated\s+)?in\s+")


def district_of_station_area(low: str, mentions: list, data) -> tuple[int, list[int]] | None:
    """(the area named after "the district whose station is in", the districts whose station stands in it), or None
    where the question names no district that way or the data has no station there."""
    m = _STATION_IN_RE.search(low)
    if m is None:
        return None
    area = next((numbers[0] for kind, numbers, span in mentions
                 if kind == "area" and m.end() <= span[0] <= m.end() + 20), None)
    if area is None:
        return None
    districts, how, _ = area_station(data, area)
    return (area, districts) if how == "located_in_area" and districts else None


# "police district 7 (Englewood)", "the 11th district (Harrison)": a name in brackets after a district's number is the
# district's own name, not a community area asked about (Englewood's homicides had been given for district 7's).
_NAMED_NUMBER_RE = re.compile(r"\bdistrict\s+(?:#\s*|no\.?\s*|number\s+)?\d{1,2}(?:st|nd|rd|th)?\s*(\([^()]{2,40}\))|"
                              r"\b\d{1,2}(?:st|nd|rd|th)\s+(?:police\s+)?district\s*(\([^()]{2,40}\))")


def district_label_spans(low: str) -> list[tuple[int, int]]:
    """The spans of names in brackets after a police district's number."""
    return [m.span(1) if m.group(1) else m.span(2) for m in _NAMED_NUMBER_RE.finditer(low)]


# "the community areas that contain a police district station (22 districts, HQ not counted)": a set of areas
STATION_SET_RE = re.compile(r"\b(?:community\s+)?areas\s+(?:that|which|with)\s+(?:contain|have|hold|house|host)s?\s+a\s+"
                            r"(?:police\s+)?(?:district\s+)?(?:police\s+)?station\b(?:\s*\([^()]{0,60}\))?")
