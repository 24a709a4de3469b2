"""A tool's key line, as the answer's sentence: "Lincoln Park: per capita income $71,551 vs $28,202 city-wide
(2008-2012)." reads as "In Lincoln Park, per capita income was $71,551, against $28,202 city-wide (2008-2012).".

A person asked in words; a label, a colon and a figure is a line of a table, not an answer. The figures, their order
and their brackets stay as the tool wrote them (the answer check matches each number to the result it came from);
only the words around them change. A line of no known shape is returned as it is.
"""
from __future__ import annotations

import calendar
import re

_FIGURE = r"[-+]?\$?\d[\d,]*(?:\.\d+)?%?"
# "Lincoln Park: per capita income $71,551 vs $28,202 city-wide (2008-2012)."
# A label may hold numbers of its own: "aged 16+ unemployed", "hardship index (1-100, ...)", "change since 2000".
_LABEL = r"(?:aged \d+\+ [a-z -]+?|hardship index \([^)]*\)|change since \d{4}|IHS [^$\d]*?|[a-z][^$\d]*?)"
_PLACE_MEASURE = re.compile(r"^(?P<place>[A-Z][^:]{0,60}): (?P<label>" + _LABEL + r") (?P<value>" + _FIGURE +
                            r")(?P<rest>.*?)\.?$")
# "Per capita income: Hyde Park $39,056, Woodlawn $18,672 (city $28,202)."
_MEASURE_PLACES = re.compile(r"^(?P<label>[A-Za-z][^:]{0,80}): (?P<items>[A-Z].*?)(?P<city> \(city [^)]*\))?\.?$")
_ITEM = re.compile(r"^(?P<name>[A-Z][^,]*?) (?P<value>" + _FIGURE + r")$")
# "Armour Square: 8,402 Asian residents, 63.9% of 13,149 (ACS 2019-2023 5-year)."
_PLACE_COUNT = re.compile(r"^(?P<place>[A-Z][^:]{0,60}): (?P<value>\d[\d,]*) (?P<rest>[A-Za-z].*?)\.?$")
# "Hyde Park: 56.6% of 3,674 households earn $125,000 and over (2,078); city 35.0% (...)." (or "2,078 of 3,674")
_PLACE_SHARE = re.compile(r"^(?P<place>[A-Z][^:]{0,60}): (?P<rest>(?:[\d.]+%|\d[\d,]*) of .*?)\.?$")
# "Lincoln Square: 0-17 16.9%, 18-24 6.7%, ... (ACS 2019-2023 5-year)."
_PLACE_AGES = re.compile(r"^(?P<place>[A-Z][^:]{0,60}): (?P<rest>0-17 .*?)\.?$")
# "District 7 (Englewood) police station: 1438 W 63rd St, Chicago, IL 60636; phone 312-747-8223."
_STATION = re.compile(r"^(?P<station>District .+? police station): (?P<address>[^;]+); phone (?P<phone>[\d-]+)"
                      r"(?: \(in (?P<area>[^)]+)\))?\.?$")
# "Homicide rate vs poverty: Pearson 0.79, Spearman 0.84 (77 areas, 2008-2012)."
_CORRELATION = re.compile(r"^Homicide rate vs (?P<measure>[^:]+): Pearson (?P<r>[-\d.]+), Spearman (?P<rho>[-\d.]+) "
                          r"\((?P<n>\d+) areas, (?P<period>[^)]+)\)\.?$")
# "Biggest increase 2019 -> 2021: West Pullman (53) 6.0 -> 37.0/yr."
_BIGGEST_CHANGE = re.compile(r"^Biggest (?P<kind>increase|decrease) (?P<a>\S+) -> (?P<b>\S+): (?P<place>.+?) "
                             r"(?P<x>[\d.]+) -> (?P<y>[\d.]+)/yr\.?$")
_VERB = re.compile(r"\b(?:was|were|is|are|had|has|have|did|does|rose|fell|changed|went|earn|earned|means)\b", re.I)
_MONTH_PERIOD = re.compile(r"\((\d{4})-(\d{2})\)")

# A label as the subject of a sentence: a share says what it is a share of, a value which value it is.
_SUBJECTS = [
    (re.compile(r"^(?:households|aged) "), lambda label: "the share of " + ("people " if label.startswith("aged ")
                                                                             else "") + label),
    (re.compile(r"^home value$"), lambda label: "the typical home value"),
    (re.compile(r"^(?:pop\.|population)$"), lambda label: "the population"),
    (re.compile(r"^change since"), lambda label: "the price " + label),
    (re.compile(r"^year-over-year change$"), lambda label: "the year-over-year price change"),
    (re.compile(r"^(?:hardship index|typical home value|IHS house price index|median sales price|price index)"),
     lambda label: "the " + label),
]


def _subject(label: str) -> str:
    for pattern, name in _SUBJECTS:
        if pattern.search(label):
            return name(label)
    return label


def _rest(rest: str) -> str:
    """The tail after the figure: the city's figure "against" it, a month period in words."""
    rest = re.sub(r"^ vs (" + _FIGURE + r") city-wide", r", against \1 city-wide", rest)
    rest = re.sub(r"^, city (" + _FIGURE + r")", r", against \1 for the city", rest)
    return _MONTH_PERIOD.sub(lambda m: f"in {calendar.month_name[int(m.group(2))]} {m.group(1)}"
                             if 1 <= int(m.group(2)) <= 12 else m.group(0), rest)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _measure_places(m: re.Match) -> str | None:
    items = [_ITEM.match(item) for item in m["items"].split(", ")]
    if not all(items):
        return None
    month = re.search(r"\s*\((\d{4})-(\d{2})\)", m["label"])  # "Home value (2024-09)": the month in words
    raw = m["label"].replace(month.group(0), "") if month else m["label"]
    label = _subject(raw[0].lower() + raw[1:])
    when = f" in {calendar.month_name[int(month.group(2))]} {month.group(1)}" if month and \
        1 <= int(month.group(2)) <= 12 else ""
    parts = _and([f"{i['value']} in {i['name']}" for i in items])
    return f"{label[0].upper() + label[1:]}{when} was {parts}{m['city'] or ''}."


# Each key line's shape and the sentence it becomes, tried in order; a writer returning None passes the line on.
_WRITERS = [
    (_STATION, lambda m: f"The {m['station']}{', in ' + m['area'] + ',' if m['area'] else ''} is at {m['address']}; "
                         f"its phone number is {m['phone']}."),
    (_CORRELATION, lambda m: f"Across the {m['n']} community areas ({m['period']}), the homicide rate and "
                             f"{m['measure'].replace('_', ' ')} have a Pearson correlation of {m['r']} "
                             f"(Spearman {m['rho']})."),
    (_BIGGEST_CHANGE, lambda m: f"The biggest {m['kind']} from {m['a']} to {m['b']} was in {m['place']}: from "
                                f"{m['x']} to {m['y']} homicides a year."),
    (_MEASURE_PLACES, _measure_places),
    (_PLACE_AGES, lambda m: f"In {m['place']}, the residents by age were: {m['rest']}."),
    (_PLACE_SHARE, lambda m: f"In {m['place']}, {m['rest']}."),
    (_PLACE_MEASURE, lambda m: f"In {m['place']}, {_subject(m['label'])} was {m['value']}{_rest(m['rest'])}."),
    (_PLACE_COUNT, lambda m: f"{m['place']} had {m['value']} {m['rest']}."),
]


def as_sentence(line: str) -> str:
    """``line`` as a sentence when it is a key line of a known shape; else ``line`` unchanged."""
    text = line.strip()
    if _VERB.search(text.split(":", 1)[0]) or ":" not in text:
        return line  # already a sentence ("The ward with the most homicides in 2020 was Ward 28: 61 ...")
    for shape, write in _WRITERS:
        m = shape.match(text)
        sentence = write(m) if m else None
        if sentence:
            return sentence
    return line


_SENTENCE_GAP = re.compile(r"(?<=[.)])\s+(?=[A-Z])")


def as_sentences(text: str) -> str:
    """Each key line of ``text`` (one or several, one after another) as a sentence."""
    return " ".join(as_sentence(part) for part in _SENTENCE_GAP.split(text.strip())) if text else text
