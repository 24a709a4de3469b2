"""Years named by the Covid-19 pandemic: "the year before covid hit" is 2019, "the first covid summer" is summer
2020, "since the pandemic began" is 2020 on. Covid reached Chicago in March 2020, so 2020 is the pandemic's first
year. Each reading is said in the answer's notes; "covid" used this way is a time, not a subject the data lacks.
"""
from __future__ import annotations

import re

FIRST_YEAR = 2020  # the first Covid-19 cases in Chicago were in early 2020; the stay-at-home order was March 2020

_COVID = r"(?:covid(?:[\s-]?19)?|corona(?:virus)?|the\s+pandemic|pandemic|the\s+lockdowns?|lockdowns?)"
_BEGAN = r"(?:\s+(?:hit|started|began|arrived|struck|came|first\s+hit|kicked\s+in))?"
_SEASON = r"(?:year|summer|winter|spring|fall|autumn)"

# (pattern, what it means): "year" is one year, "since" a period from FIRST_YEAR, "before" one up to the year
# before, "during" 2020-2021.
_READINGS = [
    (re.compile(r"\b(?:the\s+)?year\s+(?:before|prior\s+to|ahead\s+of)\s+" + _COVID + _BEGAN + r"\b", re.I),
     "year_before"),
    (re.compile(r"\b(?:the\s+)?(?:first\s+)?" + _SEASON + r"\s+(?:when\s+|that\s+)?" + _COVID + r"\s+(?:hit|started|"
                r"began|arrived|struck)\b|\bfirst\s+(?:covid(?:[\s-]?19)?|pandemic|lockdown)\s+" + _SEASON +
                r"\b|\b(?:the\s+)?first\s+" + _SEASON + r"\s+of\s+" + _COVID + r"\b", re.I), "first_year"),
    (re.compile(r"\b(?:since|after)\s+(?:the\s+(?:start|beginning|onset)\s+of\s+)?" + _COVID + _BEGAN + r"\b", re.I),
     "since"),
    # "in March 2020, right when covid hit": the moment it arrived (2020, or the date written beside it)
    (re.compile(r"\b(?:right\s+|just\s+)?(?:when|as)\s+" + _COVID + r"\s+(?:hit|started|began|arrived|struck|came)\b",
                re.I), "when"),
    (re.compile(r"\b(?:before\s+" + _COVID + _BEGAN + r"|pre[\s-]?(?:covid(?:[\s-]?19)?|pandemic|lockdown))\b", re.I),
     "before"),
    (re.compile(r"\b(?:during|in|throughout)\s+(?:the\s+)?(?:covid(?:[\s-]?19)?|pandemic)(?:\s+lockdowns?)?"
                r"(?:\s+years|\s+era|\s+" + _SEASON + r")?\b", re.I), "during"),
]
VOCABULARY = [pattern for pattern, _ in _READINGS]


def pandemic_times(low: str, first: int, last: int) -> dict:
    """Years and periods the question names by the pandemic, the spans read, and a note on the reading. Each period
    carries its position ("_pos") so the caller keeps the question's order."""
    years: list[int] = []
    periods: list[dict] = []
    spans: list[tuple[int, int]] = []
    notes: list[str] = []
    for pattern, meaning in _READINGS:
        for m in pattern.finditer(low):
            if any(s < m.end() and m.start() < e for s, e in spans):
                continue
            spans.append(m.span())
            if meaning == "year_before":
                years.append(FIRST_YEAR - 1)
                notes.append(f"'{m.group(0).strip()}' read as {FIRST_YEAR - 1}")
            elif meaning == "first_year":
                years.append(FIRST_YEAR)
                notes.append(f"'{m.group(0).strip()}' read as {FIRST_YEAR}")
            elif meaning == "since":
                periods.append({"start": FIRST_YEAR, "end": max(last, FIRST_YEAR), "_pos": m.start()})
                notes.append(f"'{m.group(0).strip()}' read as {FIRST_YEAR} on")
            elif meaning == "before":
                periods.append({"start": min(first, FIRST_YEAR - 1), "end": FIRST_YEAR - 1, "_pos": m.start()})
                notes.append(f"'{m.group(0).strip()}' read as up to {FIRST_YEAR - 1}")
            elif meaning == "when" and not re.search(r"\b(?:19|20)\d{2}\b", low):
                years.append(FIRST_YEAR)
                notes.append(f"'{m.group(0).strip()}' read as {FIRST_YEAR}")
            elif re.search(r"\b(?:19|20)\d{2}\b", low):
                # "during the covid lockdown spring (march through may 2020)": the dates written say when
                notes.append(f"'{m.group(0).strip()}' dated by the year(s) written in the question")
            else:
                periods.append({"start": FIRST_YEAR, "end": FIRST_YEAR + 1, "_pos": m.start()})
                notes.append(f"'{m.group(0).strip()}' read as {FIRST_YEAR}-{FIRST_YEAR + 1}, the pandemic's two "
                             "full years")
    note = "; ".join(notes) + " (Covid-19 reached Chicago in March 2020)" if notes else None
    return {"years": years, "periods": periods, "spans": spans, "note": note}


def without_pandemic_times(low: str) -> str:
    """The question with its pandemic time phrases blanked: there "covid" dates the question, it is no subject."""
    for pattern in VOCABULARY:
        low = pattern.sub(lambda m: " " * len(m.group(0)), low)
    return low
