"""Negation and exclusion in a question: what it leaves out, read so the planner can leave it out too.

"Not", "except", "outside", "other than", "without" change what is asked; the coverage check (analyzer/coverage.py)
counts them as used only when their span is in ``consumed``. Read here:

- homicide filters: not domestic, no arrest / unsolved (and "with an arrest" / "solved" as a filter when the
  question counts such homicides, not when it asks for the arrest rate), not on the street;
- places left out: "excluding ward 3", "outside Austin", "wards other than 1-10", "the rest of the city";
- places outside Chicago ("Austin, Texas", "Evanston") and names shared by two areas ("Garfield Park"), through
  analyzer/elsewhere.py.

An excluded or outside place is taken out of the places the question asks about: it must never be counted as one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzer.analysis import PlaceMatch
from analyzer.elsewhere import (outside_note, outside_places, shared_name_mentions, shared_note, unknown_names,
                                unknown_note)
from analyzer.lexicon import LOCATION_GENERIC_RE, LOCATIONS, overlaps

# ---------------------------------------------------------------- places left out

_CUE = (r"(?:excluding|exclude|excludes|except(?:\s+for)?|outside(?:\s+of)?|other\s+than|not\s+counting|"
        r"not\s+including|besides|apart\s+from|aside\s+from|but\s+not|(?:everywhere|anywhere|all)\s+but|minus|"
        r"leaving\s+out|leaves?\s+out|left\s+out|ignoring|without(?:\s+counting)?|with\s+the\s+exception\s+of|"
        r"(?:take|takes|taking|took)\s+(?:out|away)|(?:do\s+not|don'?t|dont)\s+(?:count|include)|skip(?:ping)?|not)")
# Any word that leaves something out ("other than", "not counting", "minus"): without one, a question asks to leave
# nothing out.
EXCLUSION_CUE_RE = re.compile(r"\b" + _CUE + r"\b")
# "leaving Austin out of it", "with Austin left out": a cue around the place, "leaving" before and "out" after.
_LEAVE_BEFORE_RE = re.compile(r"\b(?:leav(?:e|es|ing)|left|with)\s+(?:the\s+)?$")
_ASIDE_AFTER_RE = re.compile(r"^\s+(?:aside|excepted|excluded|not\s+included|not\s+counted)\b")
_OUT_AFTER_RE = re.compile(r"^\s+(?:out\b|left\s+out\b|excluded\b|aside\b)")
# A cue just before a place ("except in ward 3", "outside of the Loop").
_CUE_BEFORE_RE = re.compile(r"\b" + _CUE + r"(?:\s+(?:in|at|from|the|for))*\s+$")
# Between two places of one list ("excluding Austin and Englewood").
_LIST_GAP_RE = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+|nor\s+)?|and\s+|or\s+|nor\s+|&\s*)(?:(?:in|the)\s+)*")
_NUMBERS = (r"(\d{1,3}(?:(?:st|nd|rd|th)?\s*(?:,\s*(?:and\s+|or\s+)?|and|or|&|to|through|thru|-|–)\s*(?:the\s+)?"
            r"\d{1,3})*)")
# "wards other than 1-10", "districts except 11 and 12": the kind named once, the numbers after the cue.
_KIND_EXCEPT_RE = re.compile(r"\b(wards|(?:police\s+)?districts|(?:community\s+)?areas|(?<=every\s)(?:ward|"
                             r"(?:police\s+)?district|(?:community\s+)?area)|(?<=each\s)(?:ward|(?:police\s+)?district|"
                             r"(?:community\s+)?area))\s+(?:other\s+than|"
                             r"except(?:\s+for)?|besides|excluding|but|apart\s+from|aside\s+from|not)\s+"
                             r"(?:the\s+|numbers?\s+)?#?\s*" + _NUMBERS + r"(?:st|nd|rd|th)?\b")
REST_OF_CITY_RE = re.compile(r"\b(?:the\s+)?(?:rest|remainder)\s+of\s+(?:the\s+)?(?:city|chicago)\b|"
                             r"\beverywhere\s+else\b")
_KINDS = {"area": "areas", "ward": "wards", "district": "districts"}


@dataclass
class PlaceScope:
    """Where a question asks about beyond the places it names: what it leaves out, what is not Chicago."""

    excluded_areas: list[PlaceMatch] = field(default_factory=list)
    excluded_wards: list[int] = field(default_factory=list)
    excluded_districts: list[int] = field(default_factory=list)
    excluded_zips: list[str] = field(default_factory=list)
    outside_places: list[str] = field(default_factory=list)  # every place named the data has nothing on
    unknown_places: list[str] = field(default_factory=list)  # of those, the names no community area has
    rest_of_city: bool = False
    warnings: list[str] = field(default_factory=list)
    exclusion_spans: list[tuple] = field(default_factory=list)  # used only where the data can leave places out
    zip_exclusion_spans: list[tuple] = field(default_factory=list)  # used only by a ranking of ZIPs' home values
    outside_spans: list[tuple] = field(default_factory=list)  # always used: the answer names them
    minus_spans: list[tuple] = field(default_factory=list)  # "Austin minus Englewood": a subtraction asked, used
    rest_span: tuple | None = None

    def read_as_data(self, spans: list) -> None:
        """Outside places whose words were read as something the data holds after all ("oak park house prices on
        the depaul ihs index": the Oak Park/Brookfield submarket) are no longer outside; their note goes."""
        if not self.outside_places or len(self.outside_places) > len(self.outside_spans):
            return
        named = list(zip(self.outside_places, self.outside_spans))
        kept = [(n, sp) for n, sp in named if not overlaps(sp, spans)]
        if len(kept) == len(named):
            return
        self.warnings.remove(outside_note(self.outside_places))
        self.outside_places = [n for n, _ in kept]
        self.outside_spans = [sp for _, sp in kept] + self.outside_spans[len(named):]
        if self.outside_places:
            self.warnings.append(outside_note(self.outside_places))

    def fields(self) -> dict:
        """The Analysis fields this reading sets."""
        return {"excluded_areas": self.excluded_areas, "excluded_wards": self.excluded_wards,
                "excluded_districts": self.excluded_districts, "excluded_zips": self.excluded_zips,
                "outside_places": self.outside_places, "unknown_places": self.unknown_places,
                "rest_of_city": self.rest_of_city}


_DIFFERENCE_RE = re.compile(r"\b(?:difference|differ|gap|subtract)\b")
_DIFFERENCE_MINUS_RE = re.compile(r"(\w)\s+minus\b")


def read_place_scope(text: str, low: str, geo, places: dict, inside: list | tuple = ()) -> PlaceScope:
    """Places outside Chicago, names shared by two areas and places left out; ``places`` (extract_places') keeps
    only the places asked about (and the shared names' areas), its ``taken`` the text they used. ``inside``: spans
    read as something the data has although it lies outside the city (a suburban IHS submarket, "Evanston/Skokie")."""
    scope = PlaceScope()
    mentions = list(places.get("mentions") or [])
    names, spans, own = outside_places(text, low, mentions)
    if inside and len(names) == len(spans):
        kept = [(n, sp) for n, sp in zip(names, spans) if not overlaps(sp, list(inside))]
        names, spans = [n for n, _ in kept], [sp for _, sp in kept]
        own = [sp for sp in own if not overlaps(sp, list(inside))]
    if names:
        scope.outside_places, scope.outside_spans = names, spans + own
        scope.warnings.append(outside_note(names))
        _drop(places, [m for m in mentions if overlaps(m[2], spans)])
        mentions = [m for m in mentions if not overlaps(m[2], spans)]
    else:
        scope.outside_spans = own
    unknown = unknown_names(text, low, mentions, geo)
    if unknown:  # "Lakeview Heights": no area, and not Lake View either
        scope.outside_places += [name for name, _, _ in unknown]
        scope.unknown_places = [name for name, _, _ in unknown]
        scope.outside_spans += [span for _, span, _ in unknown]
        scope.warnings.append(unknown_note(scope.unknown_places, [geo.area_name(m[1][0]) for _, _, m in unknown]))
        _drop(places, [m for _, _, m in unknown])
        mentions = [m for m in mentions if all(m is not u for _, _, u in unknown)]
    mentions, shared = _with_shared_names(text, low, geo, places, mentions, spans + list(inside))
    # "the difference in homicides (Woodlawn minus Hyde Park)": a subtraction between two places asked, not a place
    # left out ("Chicago minus the Loop" still leaves it out)
    # ... and "West Englewood minus Englewood": a named place just before "minus" is the subtraction's first side
    after_place = {m[2][1] for m in mentions}
    subtractions = [m for m in _DIFFERENCE_MINUS_RE.finditer(low)
                    if _DIFFERENCE_RE.search(low) or m.start(1) + 1 in after_place]
    scope.minus_spans = [(m.start(1) + 1, m.end()) for m in subtractions]
    reading = blanked(low, scope.minus_spans)
    excluded = _excluded(reading, mentions) + _kind_exceptions(reading, places["taken"])
    for kind, numbers, span, phrase in excluded:
        _drop(places, [(kind, numbers, span)])
        _record(scope, kind, numbers, text[span[0]:span[1]], geo)
        (scope.zip_exclusion_spans if kind == "zip" else scope.exclusion_spans).append(phrase)
    for span, (written, numbers, listed) in shared.items():
        left_out = any(span == e[2] for e in excluded)
        scope.warnings.append(shared_note(written, listed, left_out))
        if not left_out:
            places["areas"] += [_area(n, written, geo) for n in numbers
                                if all(a["number"] != n for a in places["areas"])]
    rest = REST_OF_CITY_RE.search(low)
    if rest:
        scope.rest_of_city, scope.rest_span = True, rest.span()
    return scope


def _with_shared_names(text: str, low: str, geo, places: dict, mentions: list, outside: list) -> tuple[list, dict]:
    """Mentions with each name shared by several areas as one "shared" mention of all of them (the alias one area
    had for it, "lawndale" -> North Lawndale, is dropped), and span -> (text, areas, areas as listed) of each."""
    out, shared = list(mentions), {}
    for _phrase, numbers, span in shared_name_mentions(low, geo, mentions) if geo is not None else ():
        if overlaps(span, outside):
            continue
        same = [m for m in out if m[0] == "area" and m[2] == span]
        _drop(places, same)
        out = [m for m in out if m not in same] + [("shared", numbers, span)]
        places["taken"].append(span)
        ordered = sorted(numbers, key=geo.area_name)
        shared[span] = (text[span[0]:span[1]], ordered, [f"{geo.area_name(n)} ({n})" for n in ordered])
    return sorted(out, key=lambda m: m[2]), shared


def _excluded(low: str, mentions: list) -> list[tuple]:
    """(kind, numbers, span, phrase span) of each place named after an exclusion cue, and of the places listed
    with it ("excluding Austin and Englewood")."""
    out, previous = [], None
    for kind, numbers, span in mentions:
        if kind not in ("area", "ward", "district", "shared", "zip"):
            previous = None
            continue
        cue = _CUE_BEFORE_RE.search(low[max(0, span[0] - 40):span[0]]) or \
            (_OUT_AFTER_RE.match(low[span[1]:]) and _LEAVE_BEFORE_RE.search(low[max(0, span[0] - 40):span[0]]))
        aside = _ASIDE_AFTER_RE.match(low[span[1]:])  # "Gage Park aside, which area ..."
        if cue:
            start = span[0] - (min(40, span[0]) - cue.start())
            after = _OUT_AFTER_RE.match(low[span[1]:])  # "with austin aside": the phrase takes "aside" too
            out.append((kind, numbers, span, (start, span[1] + (after.end() if after else 0))))
        elif aside:
            out.append((kind, numbers, span, (span[0], span[1] + aside.end())))
        elif previous is not None and _LIST_GAP_RE.fullmatch(low[previous[1]:span[0]]):
            out.append((kind, numbers, span, (previous[1], span[1])))
        else:
            previous = None
            continue
        previous = span
    return out


def _kind_exceptions(low: str, taken: list) -> list[tuple]:
    """"wards other than 1-10": the numbers after the cue, as ranges or lists."""
    out = []
    for m in _KIND_EXCEPT_RE.finditer(low):
        kind = "ward" if m.group(1).startswith("ward") else ("district" if "district" in m.group(1) else "area")
        numbers = _numbers(m.group(2))
        if numbers and not overlaps(m.span(), taken):
            taken.append(m.span())
            out.append((kind, numbers, m.span(2), m.span()))
    return out


def _numbers(text: str) -> list[int]:
    """"1-10" -> 1..10, "3, 5 and 7" -> [3, 5, 7]."""
    out: list[int] = []
    for part in re.split(r"\s*(?:,\s*(?:and\s+|or\s+)?|\band\b|\bor\b|&)\s*", text):
        ends = [int(n) for n in re.findall(r"\d{1,3}", part)]
        if len(ends) == 2 and ends[0] <= ends[1] and ends[1] - ends[0] <= 60:
            out += [n for n in range(ends[0], ends[1] + 1) if n not in out]
        else:
            out += [n for n in ends if n not in out]
    return out


def _drop(places: dict, mentions: list) -> None:
    """Take these mentions' places out of the places asked about (a place also named elsewhere stays)."""
    for kind, numbers, _span in mentions:
        if kind in ("area", "shared"):
            places["areas"] = [a for a in places["areas"] if a["number"] not in numbers]
        elif kind in ("ward", "district"):
            places[_KINDS[kind]] = [n for n in places[_KINDS[kind]] if n not in numbers]
        elif kind == "zip":
            places["zips"] = [z for z in places["zips"] if z not in numbers]


def _record(scope: PlaceScope, kind: str, numbers: list, written: str, geo) -> None:
    if kind in ("area", "shared"):
        for n in numbers:
            if geo is not None and 1 <= n <= 77 and all(a.number != n for a in scope.excluded_areas):
                scope.excluded_areas.append(_area(n, written, geo, typed=True))
    else:
        target = {"ward": scope.excluded_wards, "zip": scope.excluded_zips}.get(kind, scope.excluded_districts)
        target += [n for n in numbers if n not in target]


def _area(number: int, written: str, geo, typed: bool = False):
    found = {"number": number, "name": geo.area_name(number), "text": written, "match": "shared"}
    return PlaceMatch(**found) if typed else found


# ---------------------------------------------------------------- homicide filters

_NOT = r"(?:(?:were|was|are|is|did|does|do|have|has|had|could|would)(?:n'?t|\s+not)|not|never)"
_DOMESTIC = r"domestic(?:[\s-](?:related|violence|abuse|disputes?|incidents?|cases?))?"
_DOMESTIC_NO_RE = re.compile(
    r"\bnon[\s-]?" + _DOMESTIC + r"|\bneither\s+" + _DOMESTIC + r"|\b" + _NOT + r"\s+(?:(?:been|a|an|considered|classed|classified|marked|flagged|"
    r"counted|labell?ed|related\s+to|due\s+to|from|involving|tied\s+to|linked\s+to|as)\s+)*" + _DOMESTIC +
    r"|\b(?:excluding|except(?:\s+for)?|other\s+than|besides|apart\s+from|aside\s+from|not\s+counting|"
    r"not\s+including|without|leaving\s+out|minus|ignoring|unrelated\s+to)\s+(?:the\s+|any\s+|all\s+)?" + _DOMESTIC)
_ARREST = r"arrests?"
_ARREST_NO_RE = re.compile(
    r"\b(?:with\s+no|without(?:\s+an?|\s+any)?|no|zero)\s+(?:one\s+)?" + _ARREST + r"(?:\s+(?:made|being\s+made|"
    r"was\s+made|were\s+made))?|\b(?:nobody|no\s*one|no-one|none)\s+(?:(?:was|were|got|getting|gets|get|has|have|been|being|ever|"
    r"yet)\s+)*(?:arrested|charged|caught)|"
    # "never had anybody arrested for them", "didn't get anyone charged": someone between the negation and the arrest.
    r"\b" + _NOT + r"\s+(?:had|have|has|got|get|gotten|see|saw|seen|ended\s+with|end\s+with)\s+"
    r"(?:anybody|anyone|any\s+one|somebody|someone|a\s+suspect|the\s+killer|the\s+shooter)\s+"
    r"(?:(?:being|get|got|getting)\s+)?(?:arrested|charged|caught)|"
    r"\b" + _NOT + r"\s+(?:(?:been|yet|ever|gotten|got)\s+)*(?:arrested|"
    r"solved|cleared)|\b(?:unsolved|uncleared|unresolved)\b|\bstill\s+(?:open|unsolved)\b|\bopen\s+cases?\b|"
    r"\bcold\s+cases?\b|\bnor\s+(?:followed\s+by|led\s+to|leading\s+to|resulted\s+in|ended\s+in|with)\s+"
    r"(?:an?\s+|any\s+)?" + _ARREST + r"|"
    r"\b(?:did\s+not|didn'?t|never|failed\s+to)\s+(?:lead|led|result(?:ed)?|end(?:ed)?)\s+(?:to|in|with)\s+"
    r"(?:an?\s+|any\s+)?(?:" + _ARREST + r"|(?:anyone|anybody|somebody|someone|a\s+suspect)\s+(?:being\s+)?"
    r"(?:arrested|charged))|\bwithout\s+(?:anyone|anybody|"
    r"someone|somebody|a\s+suspect)\s+(?:(?:being|getting|ever|ever\s+being|ever\s+getting)\s+)?(?:arrested|charged)")
_ARREST_YES_RE = re.compile(
    r"\bwith\s+(?:an?\s+|any\s+)?" + _ARREST + r"(?:\s+made)?\b|\b(?:led|lead|leads|leading|resulted|result|"
    r"results|resulting|ended|end|ends|ending)\s+(?:to|in|with)\s+(?:an?\s+|any\s+)?(?:" + _ARREST +
    r"|(?:somebody|someone|a\s+suspect)\s+(?:being\s+)?arrested)|\b(?:solved|cleared)\b|\b" + _ARREST +
    r"\s+(?:was\s+|were\s+|got\s+)?made\b|\b(?:someone|somebody|a\s+suspect|the\s+killer|the\s+shooter|anyone|"
    r"anybody)\s+(?:\w+ly\s+)?(?:was\s+|were\s+|got\s+)?(?:arrested|charged|caught)")
# The arrest figure asked as a share or rate: the arrest breakdown answers it, not a filter.
_RATE_RE = re.compile(r"\b(?:rates?|share|percent(?:age)?|pct|proportion|fraction|ratio|how\s+often|how\s+likely|"
                      r"likelihood|odds|chances?|portion|what\s+part|clearance)\b|%")
_LOCATION_WORDS = "|".join(sorted((re.escape(k).replace(r"\ ", r"\s+") for k in LOCATIONS), key=len, reverse=True))
_LOCATION_NO_RE = re.compile(
    r"(?:\b" + _NOT + r"|\boff|\baway\s+from|\bexcluding|\bexcept(?:\s+for)?|"
    r"(?:\b(?:(?:some|any|every)\s*(?:place|where)|places?|locations?|spots?)\s+)?\bother\s+than|\bbesides|"
    r"\bapart\s+from|\baside\s+from|\boutside(?:\s+of)?|\b(?:anywhere|everywhere)\s+but|\bbut\s+not|"
    r"\bnot\s+counting|\bnot\s+including|\bnon|\bleav(?:e|es|ing)\s+out|\bleft\s+out|\bignoring|\bnor)"
    # "apart from the ones out on the street", "except those that were in an alley": the cases named between.
    r"(?:\s+(?:the\s+ones|those|ones|(?:the\s+)?(?:killings|murders|homicides|deaths|cases))(?:\s+(?:that|which))?"
    r"(?:\s+(?:were|was))?)?"
    # "didn't happen out on the street", "were not committed in an apartment": the event's verb between.
    r"(?:\s+(?:happen(?:ed)?|occur(?:red)?|take\s+place|took\s+place|go\s+down|went\s+down|committed|"
    r"carried\s+out|found|killed|shot))?"
    r"(?:[\s-]+(?:out\s+)?(?:on|in|at|inside|into|from))?(?:\s+(?:the|a|an|any))?"
    r"[\s-]+(" + _LOCATION_WORDS + r")(?:e?s)?\b")


_LOCATION_MORE_RE = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+|nor\s+)?|and\s+|or\s+|nor\s+)(?:(?:on|in|at|inside)\s+)?"
                               r"(?:(?:the|a|an|any)\s+)?(" + _LOCATION_WORDS + r")(?:e?s)?\b")


def _exclude_location(m: re.Match, found: "HomicideFilters") -> None:
    kind = LOCATIONS[re.sub(r"\s+", " ", m.group(1))]
    found.spans.append(m.span())
    if kind not in found.excluded_locations:
        found.excluded_locations.append(kind)


@dataclass
class HomicideFilters:
    """The homicide filters a question negates or asks for, as the reading and the planner use them."""

    domestic_excluded: bool = False
    domestic_negated: bool = False  # "non-domestic" was written: never a domestic-only reading
    domestic_split: bool = False  # "domestic vs non-domestic": the breakdown, not the domestic cases alone
    arrest_filter: str | None = None  # "arrested" | "not_arrested"
    share_without_arrest: bool = False  # "what percent ended with no one arrested": the share with none leads
    excluded_locations: list[str] = field(default_factory=list)
    location_narrows: bool = False  # "how many domestic ones, and how many of those in an apartment"
    spans: list[tuple] = field(default_factory=list)

    def fields(self, domestic_filter: bool) -> dict:
        """The Analysis fields this reading sets; "non-domestic homicides" holds the words "domestic homicides",
        so the analyzer's domestic-only reading (``domestic_filter``) stands only where nothing negates it."""
        return {"domestic_excluded": self.domestic_excluded, "arrest_filter": self.arrest_filter,
                "share_without_arrest": self.share_without_arrest,
                "excluded_locations": self.excluded_locations, "location_narrows": self.location_narrows,
                "domestic_filter": domestic_filter and not self.domestic_negated}


def read_filters(low: str, metrics: list, locations: list) -> HomicideFilters:
    """Negated homicide filters; ``metrics`` and ``locations`` (the analyzer's lists) lose what became a filter:
    "non-domestic homicides" counts homicides, it does not split them by the domestic flag."""
    found = HomicideFilters()
    if "homicides" not in metrics:
        return found
    _domestic(low, metrics, found)
    _arrests(low, metrics, found)
    _locations(low, metrics, locations, found)
    found.location_narrows = bool(locations) and _narrows_a_count(low)
    return found


# "Of those", "out of them", "of which": what follows narrows a count asked for before it.
_SUBSET_RE = re.compile(r"\b(?:of|out\s+of|among)\s+(?:those|these|them|that\s+(?:number|total)|the\s+total)\b|"
                        r"\bof\s+which\b")
_LOCATION_ANY_RE = re.compile(r"\b(?:" + _LOCATION_WORDS + r")\b")


def _narrows_a_count(low: str) -> bool:
    """A place type named only after "of those" narrows the count asked first ("how many domestic homicides, and
    how many of those in an apartment"): both counts answer the question, not the narrowed one alone."""
    m = _SUBSET_RE.search(low)
    return bool(m) and bool(_LOCATION_ANY_RE.search(low, m.end())) and not _LOCATION_ANY_RE.search(low[:m.start()])


def _domestic(low: str, metrics: list, found: HomicideFilters) -> None:
    negated = [m.span() for m in _DOMESTIC_NO_RE.finditer(low)]
    if not negated:
        return
    found.spans += negated
    found.domestic_negated = True
    plain = [m for m in re.finditer(r"\bdomestic\b", low) if not overlaps(m.span(), negated)]
    if plain:  # "domestic vs non-domestic" is the split, not a filter
        found.domestic_split = True
        return
    found.domestic_excluded = True
    if "domestic" in metrics:
        metrics.remove("domestic")


def _arrests(low: str, metrics: list, found: HomicideFilters) -> None:
    negated = [m.span() for m in _ARREST_NO_RE.finditer(low)]
    positive = [m.span() for m in _ARREST_YES_RE.finditer(low) if not overlaps(m.span(), negated)]
    found.spans += negated + positive
    if not (negated or positive) or _RATE_RE.search(low):
        # "what share led to an arrest": the arrest rate, from the breakdown; asked as "with no arrest", its
        # complement is the figure asked for
        found.share_without_arrest = bool(negated) and not positive
        return
    first = min(span[0] for span in negated + positive)
    if asked_apart(low, first):
        return  # "how many murders total, how many ended in an arrest": a part of its own, not a filter on the total
    subset = _SUBSET_RE.search(low)
    if subset and subset.start() < first:
        return  # "which ward had the most, and out of those how many led to an arrest": a part of the count asked
        # first, not a filter on it (ranked with arrests only, another ward came first)
    if negated and positive:
        return  # "solved vs unsolved": the split
    found.arrest_filter = "not_arrested" if negated else "arrested"
    if "arrests" in metrics:
        metrics.remove("arrests")


# What opens a count asked for: "how many", "what number", "the total (number)".
_HOW_MANY_RE = re.compile(r"\bhow\s+many\b|\bwhat\s+number\b|\bthe\s+total\b|\btotal\s+(?:number|count)\b")


def asked_apart(low: str, position: int) -> bool:
    """The words at ``position`` are asked in a "how many" clause of their own, after another: "how many murders
    total, how many ended in an arrest, and how many were domestic" and "the total murders and then how many of them
    were domestic" ask separate counts, not one filtered count."""
    return sum(m.start() < position for m in _HOW_MANY_RE.finditer(low)) >= 2


# "after the street, what kind of place saw the most": a ranking's leader set aside, the rest ranked.
_AFTER_LEADER_RE = re.compile(r"(?:^|(?<=[.;?!])\s*)after\s+(?:the\s+|a\s+|an\s+)?(" + _LOCATION_WORDS
                              + r")(?:e?s)?\s*,(?=.*\b(?:most|highest|commonest|most\s+common|top)\b)")


def _locations(low: str, metrics: list, locations: list, found: HomicideFilters) -> None:
    for m in _AFTER_LEADER_RE.finditer(low):
        _exclude_location(m, found)
    for m in _LOCATION_NO_RE.finditer(low):
        _exclude_location(m, found)
        more = _LOCATION_MORE_RE.match(low, m.end())
        while more:  # "excluding streets and alleys": the list after the cue is left out whole
            _exclude_location(more, found)
            more = _LOCATION_MORE_RE.match(low, more.end())
    kept = [m.group(0) for m in re.finditer(r"\b(?:" + _LOCATION_WORDS + r")\b", low)
            if not overlaps(m.span(), found.spans)]
    for kind in found.excluded_locations:
        if kind in locations and not any(LOCATIONS.get(re.sub(r"\s+", " ", w)) == kind for w in kept):
            locations.remove(kind)
    if found.excluded_locations and not locations and "location_type" in metrics and \
            not LOCATION_GENERIC_RE.search(low):
        metrics.remove("location_type")  # "not on the street" filters; it does not ask where


# ---------------------------------------------------------------- what the reading used

def used_spans(scope: PlaceScope, filters: HomicideFilters, domains: list, unfilterable: bool,
               subtracts_areas: bool = False, ranks_zips: bool = False) -> list[tuple]:
    """The spans the coverage check counts as used: places outside Chicago always (the answer names them); places
    left out, the filters and "the rest of the city" where the homicide count tool can apply them. Elsewhere (other
    data, or ``unfilterable``: rates per 100,000 residents and rankings by change, whose tools take no filters)
    they are dropped from the reading, and their words listed as not used. ``subtracts_areas``: a city-wide census
    count, which leaves community areas out by taking theirs away ("Chicago's population if you leave out the
    Loop"); only areas left out, nothing else. ``ranks_zips``: a ranking of ZIPs by home value, which can leave
    ZIPs out (and only ZIPs)."""
    spans = list(scope.outside_spans) + scope.minus_spans
    if ranks_zips and scope.excluded_zips:
        spans += scope.zip_exclusion_spans
    else:
        scope.excluded_zips = []
    if "homicides" in domains and not unfilterable:
        spans += scope.exclusion_spans + filters.spans
        if scope.rest_span:  # with no place named (yet: a follow-up's come later), the rest is the whole city
            spans.append(scope.rest_span)
        return spans
    if subtracts_areas and scope.excluded_areas and not (scope.excluded_wards or scope.excluded_districts
                                                          or filters.spans or scope.rest_of_city):
        return spans + scope.exclusion_spans
    scope.excluded_areas, scope.excluded_wards, scope.excluded_districts = [], [], []
    scope.rest_of_city = False
    filters.domestic_excluded, filters.arrest_filter, filters.excluded_locations = False, None, []
    return spans


def blanked(low: str, spans: list) -> str:
    """``low`` with these spans as spaces: "wards other than 1-10" asks for no breakdown by ward, "the Chicago
    suburbs" names no Chicago."""
    chars = list(low)
    for s, e in spans:
        chars[s:e] = " " * (e - s)
    return "".join(chars)


def hint(text: str, scope: PlaceScope, filters: HomicideFilters) -> str:
    """The model's hint line, with what the question leaves out."""
    parts = []
    left_out = [f"{a.name} ({a.number})" for a in scope.excluded_areas] + \
        [f"ward {w}" for w in scope.excluded_wards] + [f"district {d}" for d in scope.excluded_districts]
    if left_out:
        parts.append("Excluding: " + ", ".join(left_out[:6]))
    elsewhere = [p for p in scope.outside_places if p not in scope.unknown_places]
    if elsewhere:
        parts.append("Outside Chicago (no data): " + ", ".join(elsewhere[:3]))
    if scope.unknown_places:
        parts.append("No such community area: " + ", ".join(scope.unknown_places[:3]))
    if filters.domestic_excluded:
        parts.append("Non-domestic only")
    if filters.arrest_filter:
        parts.append("Arrest: " + ("made" if filters.arrest_filter == "arrested" else "none"))
    if filters.excluded_locations:
        parts.append("Not at: " + ", ".join(filters.excluded_locations))
    return (text + ("\n" if text and parts else "") + "; ".join(parts)).strip()
