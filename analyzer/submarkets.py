"""DePaul IHS house-price submarkets named in a question, the quarter it asks for and the figure it wants.

The names come from the loaded index (data.ihs_index), never from a list written here, so a new release's
submarkets are read without a code change. Three ways a question names a submarket:

* its full name, "Logan Square/Irving Park" or "Evanston/Skokie" (with or without "Chicago--", spaces
  around the slash allowed). Read before the community areas, so that the two halves of a slash-joined
  name are not taken as two areas being compared (analyzer/places.py skips these spans);
* with an IHS word ("IHS", "DePaul", "submarket", "price index"): one half of a name ("the Bronzeville
  submarket", "Evanston") or a one-word name ("Schaumburg");
* with an IHS word, a community area: the indexed submarket holding most of it ("which IHS submarket is
  Hyde Park in").

Every span read here is returned so the coverage check (analyzer/coverage.py) does not list it as unused.
"""
from __future__ import annotations

import re
import threading

from analyzer.analysis import LAYER_MEASURES, SubmarketMatch
from analyzer.lexicon import METRIC_RES, alternation, ordinals, overlaps
from semantic.dimensions import SUBMARKET_TOTALS
from semantic.reading import declared_spans

CHICAGO_PREFIX = "Chicago--"
# Words that say the question is about the IHS index (and so its submarkets).
TRIGGER_RE = re.compile(r"\b(?:ihs(?:'s)?|depaul(?:'s)?|institute\s+for\s+housing\s+studies|sub[-\s]?markets?(?:'s)?|"
                        r"(?:(?:house|home|housing)[-\s])?price[-\s]index(?:es)?)\b")
# The figure asked for, first match wins: the published summary's columns, else the index itself.
FIGURE_RES = (
    ("median_sales_price", re.compile(r"\bmedian\s+(?:home\s+|house\s+)?(?:sales?|selling)\s+prices?\b|"
                                      r"\bmedian\s+(?:home\s+|house\s+)?prices?\b")),
    ("yoy_change", re.compile(r"\byear[-\s]+(?:over|on|to)[-\s]+year(?:\s+(?:price\s+)?(?:change|growth))?\b|"
                              r"\byoy\b|\bannual\s+(?:price\s+)?change\b|"
                              r"\bover\s+the\s+(?:past|last)\s+year\b")),
    ("change_since_2000", re.compile(r"\bsince\s+(?:the\s+year\s+)?2000\b")),
    ("peak_to_current", re.compile(r"\b(?:from\s+(?:the\s+)?|since\s+(?:the\s+)?)?(?:pre-?crash\s+)?peak\b")),
    ("bottom_to_current", re.compile(r"\b(?:from\s+(?:the\s+)?|since\s+(?:the\s+)?)?(?:bottom|trough)\b")),
    ("pandemic_to_current", re.compile(r"\b(?:since\s+(?:the\s+)?)?(?:(?:start|beginning|onset)\s+of\s+(?:the\s+)?)?"
                                       r"(?:covid(?:-19)?\s+)?(?:covid(?:-19)?|pandemic)(?:'s)?"
                                       r"(?:\s+(?:start(?:ed)?|began|beginning|onset))?\b")),
)


def figure_words_blanked(low: str) -> str:
    """An IHS question with the published summary's pandemic column blanked: "the change since the COVID-19 pandemic
    start" names that column, not covid as a subject the data lacks."""
    if not TRIGGER_RE.search(low):
        return low
    return FIGURE_RES[-1][1].sub(lambda m: " " * len(m.group(0)), low)
# "now", "the latest quarter": the default end of the index, read as such.
LATEST_RE = re.compile(r"\b(?:right\s+now|now|today|currently|(?:the\s+)?(?:latest|last|most\s+recent|current)\s+"
                       r"(?:quarter|reading|release|figures?|data))\b")
# With a submarket named, "prices" are its prices, and "the submarket holding Austin" links it to the area.
CONTEXT_RE = re.compile(r"\bprices?\b|\b(?:holds?|holding|contains?|containing|includes?|including|covers?|"
                        r"covering)\b|\b(?:(?:mostly|mainly|largely)\s+)?(?:lies|lie|sits|sit|falls?|belongs?)"
                        r"\s+(?:with)?in(?:to)?\b")
_ORDINAL = ordinals(4)
_QUARTER_WORD = "(" + alternation(_ORDINAL) + ")"
_QUARTER_RES = (
    (re.compile(r"\b((?:19|20)\d{2})\s*[-/]?\s*q([1-4])\b"), 1, 2),  # 2008Q3, 2008 Q3, 2008-q3
    (re.compile(r"\bq([1-4])\s*(?:of\s+|in\s+|[-/,]\s*)?((?:19|20)\d{2})\b"), 2, 1),  # Q3 2008, Q3 of 2008
    (re.compile(r"\b(?:the\s+)?" + _QUARTER_WORD + r"\s+quarter\s+(?:of\s+|in\s+)?"
                r"((?:19|20)\d{2})\b"), 2, 1),  # third quarter of 2008
    (re.compile(r"\b((?:19|20)\d{2})(?:'s)?\s+" + _QUARTER_WORD + r"\s+quarter\b"), 1, 2),
)


class _Names:
    """The submarkets of one loaded index: full-name and half-name patterns, and the names by code."""

    def __init__(self, data):
        self.ihs = data.ihs_index
        pairs = dict(zip(self.ihs["submarket_code"], self.ihs["submarket_name"]))
        # p31xx codes are the submarkets; COOK, CHICAGO and SUBURBS are the totals.
        self.names = {code: str(name).removeprefix(CHICAGO_PREFIX) for code, name in sorted(pairs.items())
                      if re.fullmatch(r"p\d+", str(code))}
        self.suburban = {code for code, name in pairs.items() if code in self.names
                         and not str(name).startswith(CHICAGO_PREFIX)}
        self.full_re = _alternation([n for n in self.names.values() if "/" in n], r"(?:chicago\s*-+\s*)?")
        halves: dict[str, list[str]] = {}
        for code, name in self.names.items():
            for half in name.split("/"):
                halves.setdefault(_key(half), []).append(code)
        # A half shared by two names would be a guess: only halves naming one submarket are read.
        self.halves = {half: codes[0] for half, codes in halves.items() if len(codes) == 1}
        self.half_re = _alternation(list(self.halves), "")
        self.by_full = {_key(n): code for code, n in self.names.items()}
        # The index's summary series, by the words people use for them: "suburban Cook County", "Cook County".
        for code, label in TOTALS.items():
            if code in pairs:
                self.names[code] = label


# The summary series of the index and the words naming them (read with an IHS word only; "the city" beside one of
# them is the City of Chicago series, not the city-wide figure of another measure).
TOTALS = SUBMARKET_TOTALS
_TOTAL_RES = (("SUBURBS", re.compile(r"\b(?:suburban\s+cook(?:\s+county)?|cook\s+county\s+suburbs|"
                                     r"(?:the\s+)?suburbs)\b")),
              ("COOK", re.compile(r"\b(?:all\s+of\s+)?cook\s+county(?:\s+as\s+a\s+whole|\s+overall)?\b(?!\s+suburbs)")),
              ("CHICAGO", re.compile(r"\b(?:the\s+city(?:\s+of\s+chicago)?|city\s+of\s+chicago|chicago\s+proper|"
                                     r"chicago[\s-]+wide|city[\s-]?wide|chicago\s+(?:as\s+a\s+whole|overall))\b")))


def _key(text: str) -> str:
    text = re.sub(r"^chicago\s*-+\s*", "", text.lower())
    return " ".join(re.sub(r"\s*/\s*", "/", text.replace("-", " ")).split())


def _alternation(names: list[str], prefix: str) -> re.Pattern:
    """One longest-first pattern for the names; spaces or hyphens between words, spaces allowed around "/"."""
    parts = []
    for name in sorted(names, key=len, reverse=True):
        halves = [r"[\s\-]+".join(re.escape(w) for w in half.lower().split()) for half in name.split("/")]
        parts.append(r"\s*/\s*".join(halves))
    return re.compile(r"(?<![a-z0-9])" + prefix + "(?:" + "|".join(parts) + r")(?![a-z0-9])")


_CACHE: dict[int, _Names] = {}
_LOCK = threading.Lock()


def _names(data) -> _Names | None:
    """The submarket names of this bundle's index, built once; None without data or without the index."""
    ihs = getattr(data, "tables", {}).get("ihs_index") if data is not None else None
    if ihs is None:
        return None
    found = _CACHE.get(id(ihs))
    if found is None or found.ihs is not ihs:
        with _LOCK:
            found = _Names(data)
            if len(_CACHE) > 8:
                _CACHE.clear()
            _CACHE[id(ihs)] = found
    return found


# ---------------------------------------------------------------- reading

def about_prices(low: str) -> bool:
    """The question is about house prices, or about nothing else the data has: then a slash-joined submarket name
    is the submarket. "Homicides in Logan Square/Irving Park" names two areas for a homicide count."""
    subjects = {domain for _metric, domain, pattern in METRIC_RES if pattern.search(low)} | \
        {LAYER_MEASURES[name] for name, *_ in declared_spans(low, LAYER_MEASURES)}
    return bool(TRIGGER_RE.search(low)) or "property" in subjects or not subjects


def full_names(low: str, data) -> list[dict]:
    """Submarkets named in full ("logan square/irving park"), in order, each with its span, when the question is
    about prices; read before the community areas, whose reader skips these spans."""
    names = _names(data)
    if names is None or not about_prices(low):
        return []
    totals = _totals(low) if TRIGGER_RE.search(low) else []
    found = []
    for m in names.full_re.finditer(low):
        code = names.by_full.get(_key(m.group(0)))
        if code and not overlaps(m.span(), [t["span"] for t in totals]):
            found.append({"code": code, "span": m.span(), "match": "name"})
    # the city's own series only beside another one ("Englewood's index against the Chicago-wide index"); beside a
    # submarket, only where the words name the city's index ("the city's 2021 homicides" name no index)
    # ("IHS house price index: Chicago overall in 2025 Q4, and the Logan Square/Irving Park submarket's ...": the
    # index named before the city, no other measure after it)
    if not any(t["code"] != "CHICAGO" for t in totals):
        totals = [t for t in totals if found and (
            re.match(r"[\s'’s-]*(?:ihs\s+)?(?:house\s+)?(?:price\s+)?index\b", low[t["span"][1]:])
            or re.search(r"\bindex\b[^.?;]*$", low[:t["span"][0]])
            and not re.match(r"[^.?;,]{0,30}\b(?:homicid|murder|kill|shoot|crime)", low[t["span"][1]:]))]
    return totals + found


# A submarket named by a slashed pair ("the Loop / Near North Side submarket"), as the IHS names its own
_SLASHED_SUBMARKET_RE = re.compile(r"\b((?:[a-z][a-z.'-]*\s+){0,3}?[a-z][a-z.'-]*\s*/\s*(?:[a-z][a-z.'-]*\s+){0,3}?"
                                   r"[a-z][a-z.'-]*)\s+submarket\b")


def _unknown(low: str, found: list[dict]) -> list[str]:
    """The slashed submarket names no IHS name or half matched ("Loop / Near North Side": the centre is unindexed)."""
    spans = [f["span"] for f in found if f.get("span")]
    return [re.sub(r"^.*\b(?:the|for|of|in|index|ihs)\s+", "", m.group(1)) for m in _SLASHED_SUBMARKET_RE.finditer(low)
            if not overlaps(m.span(1), spans)]


def unindexed_areas(geo) -> str:
    """The community areas whose land lies in no indexed submarket ("Near North Side, Loop and Near South Side")."""
    names = [geo.area_names.get(a, str(a)) for a in sorted(geo.area_names)
             if not any(p["in_price_index"] for p in geo.area_to_submarkets.get(a, []))]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names) or "any area"


def read_submarkets(text: str, low: str, data, named: list[dict], areas: list[dict], taken: list) -> dict:
    """The submarkets a question names (full names first, then, with an IHS word, halves, one-word names and
    community areas), the quarter and figure it asks for, and the spans used; ``taken``: spans already read."""
    names = _names(data)
    triggers = [m.span() for m in TRIGGER_RE.finditer(low)]
    found = list(named)
    if names is not None and triggers:
        used = list(taken) + [f["span"] for f in found]
        for m in names.half_re.finditer(low):
            if not overlaps(m.span(), used):
                found.append({"code": names.halves[_key(m.group(0))], "span": m.span(), "match": "half"})
                used.append(m.span())
        found += _from_areas(data, areas, [f["code"] for f in found], names)
    matches = _unique(found, names, text)
    asks_index = bool(matches or triggers)
    quarter, quarter_spans = read_quarter(low) if asks_index else (None, [])
    since_year = None
    if quarter and quarter.endswith("Q1") and re.search(r"\b(?:since|from)\s+(?:the\s+)?$", low[:quarter_spans[0][0]]):
        # "gone up since the first quarter of 2008": the change from 2008Q1 to the latest quarter (the index's
        # change is counted from a year's first quarter), not the index in 2008Q1
        since_year, quarter = int(quarter[:4]), None
    figure, figure_spans, beside = _figure(low) if asks_index else (None, [], [])
    latest = [m.span() for pattern in (LATEST_RE, CONTEXT_RE) for m in pattern.finditer(low)] if matches else []
    every_quarter = [m.span() for pattern, _, _ in _QUARTER_RES for m in pattern.finditer(low)] if asks_index else []
    consumed = [f["span"] for f in found if f.get("span")] + triggers + quarter_spans + every_quarter + figure_spans \
        + latest
    return {"submarkets": matches, "quarter": quarter, "quarters": all_quarters(low) if asks_index else [],
            "figure": figure,  # with no submarket named, the column a ranking of submarkets ranks by
            "figures_beside": beside,
            "consumed": consumed, "triggered": bool(triggers), "since_year": since_year,
            "unknown": _unknown(low, found) if triggers else []}


def _totals(low: str) -> list[dict]:
    """The summary series named ("the city than suburban Cook County"): the city's own only beside another one."""
    found, used = [], []
    for code, pattern in _TOTAL_RES:
        for m in pattern.finditer(low):
            if not overlaps(m.span(), used):
                found.append({"code": code, "span": m.span(), "match": "name"})
                used.append(m.span())
    return found


def _from_areas(data, areas: list[dict], known: list[str], names: _Names) -> list[dict]:
    """Each named community area's indexed submarket (the one holding most of its land): "which IHS submarket is
    Hyde Park in". Areas of the unindexed centre (the Loop) have none and are left to the area answer. An area
    named by an alias that is half a submarket's name ("Bronzeville" for Grand Boulevard) names that submarket."""
    geo = data.geography
    out = []
    for area in areas:
        half = names.halves.get(_key(area.get("text", "")))
        if half and area.get("match") == "name" and _key(area["text"]) != _key(area["name"]):
            if half not in known:
                out.append({"code": half, "span": None, "match": "half", "area": area["text"]})
            continue
        pieces = [p for p in geo.area_to_submarkets.get(area["number"], []) if p["in_price_index"]]
        if pieces:
            best = max(pieces, key=lambda p: p["share"])
            if best["code"] not in known:
                out.append({"code": best["code"], "span": None, "match": "area", "area": area["name"]})
    return out


def _unique(found: list[dict], names: _Names | None, text: str) -> list[SubmarketMatch]:
    out: list[SubmarketMatch] = []
    for f in sorted(found, key=lambda f: f["span"][0] if f.get("span") else len(text)):
        if names is None or any(m.code == f["code"] for m in out):
            continue
        span = f.get("span")
        out.append(SubmarketMatch(code=f["code"], name=names.names[f["code"]],
                                  text=text[span[0]:span[1]] if span else f.get("area", ""), match=f["match"],
                                  suburban=f["code"] in names.suburban))
    return out


def all_quarters(low: str) -> list[str]:
    """Every quarter named, oldest first ("Q4 2019 and Q4 2025", "in 2025 Q4 ... since 2015 Q4")."""
    found = set()
    for pattern, year_group, quarter_group in _QUARTER_RES:
        for m in pattern.finditer(low):
            q = m.group(quarter_group)
            found.add(f"{m.group(year_group)}Q{int(q) if q.isdigit() else _ORDINAL[q]}")
    return sorted(found)


def read_quarter(low: str) -> tuple[str | None, list]:
    """The first quarter named ("2008 Q3", "Q3 2008", "third quarter of 2008") as "2008Q3", and its span."""
    for pattern, year_group, quarter_group in _QUARTER_RES:
        m = pattern.search(low)
        if m:
            q = m.group(quarter_group)
            number = int(q) if q.isdigit() else _ORDINAL[q]
            return f"{m.group(year_group)}Q{number}", [m.span()]
    return None, []


# Words that name the published release the figure comes from ("the IHS Q4 2025 summary table shows")
_RELEASE_RE = re.compile(r"\b(?:summary(?:\s+table)?|release|table|shows?|reports?|published)\b")


# A ranking's own word: the figure nearest it is the one ranked ("risen the most since 2000, and its median price")
_RANK_WORD_RE = re.compile(r"\b(?:most|highest|largest|biggest|greatest|lowest|least|smallest|fastest|slowest|top|"
                           r"worst|best)\b")


def _figure(low: str) -> tuple[str | None, list, list]:
    """The summary figure asked for, the spans read, and the other figures named beside it, in the question's
    order. With two named, the one nearest a ranking word is the one ranked."""
    found = []
    for name, pattern in FIGURE_RES:
        m = pattern.search(low)
        if m:
            start, end = m.span()
            start -= low[start - 1:start] in ("'", '"', "\u2018", "\u201c")  # "the largest 'bottom to current'"
            if not overlaps((start, end), [sp for _, sp in found]):
                found.append((name, (start, end)))
    if not found:
        return None, [], []
    ranks = [r.start() for r in _RANK_WORD_RE.finditer(low)]
    first = min(found, key=lambda f: min((abs(r - f[1][0]) for r in ranks), default=0)) if len(found) > 1 else found[0]
    beside = [name for name, sp in sorted(found, key=lambda f: f[1][0]) if name != first[0]]
    return first[0], [sp for _, sp in found] + [r.span() for r in _RELEASE_RE.finditer(low)], beside
