"""What a figure is: the words for it, and whether what a sentence says about a number agrees with what the data
says about the figure it matches.

A *label* (what the data says) and a *claim* (what a sentence says) have the same parts:

* subject: what is counted or measured (homicides, arrests, domestic homicides, population, per capita income,
  median household income, poverty, unemployment, home value, ...);
* measure: how (a count, a rate per 100,000, a percent, dollars, an index; a change goes with any measure);
* years, as a span; place (``area:25``, ``ward:27``, ``district:11``, ``zip:60647`` or ``city``); rank in a
  ranked list ("the most" is the top entry, "the fewest" the bottom one).

A part that is not known on either side never disagrees: a sentence that names no subject claims none, and a
figure of a value whose name says nothing (an area number, a coverage year) agrees with any claim. Labels come
from loop/labels.py, claims from loop/claims.py; tests in tests/test_meaning.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

# (subject, words) in priority order: the first whose words a sentence's window holds names the subject, so
# "35.4% domestic homicide rate" is about domestic homicides and "homicides that led to an arrest" about arrests.
SUBJECT_WORDS = (
    ("domestic", r"(?<!non-)(?<!non )(?<!not )\bdomestic"),  # "non-domestic homicides" are homicides
    ("arrests", r"\barrest|\bcleared\b|\bclearance\b|\bsolved\b"),
    ("per_capita_income", r"\bper[\s-]?capita\b|\bincome per (?:person|resident|head)\b"),
    ("household_income", r"\bhousehold income|\bmedian income|\bmedian (?:annual )?household\b"),
    ("poverty", r"\bpovert|\bpoor\b"),
    ("unemployment", r"\bunemploy|\bjobless|\bout of work\b"),
    ("no_diploma", r"\bdiploma|\bhigh[\s-]school\b"),
    ("dependency", r"\bunder 18 or over 64\b|\bdependen"),
    ("crowding", r"\bcrowd"),
    ("hardship", r"\bhardship"),
    ("price_index", r"\bprice index"),
    ("home_value", r"\bhome values?\b|\bhouse values?\b|\bhome prices?\b|\bhouse prices?\b|\bsales? prices?\b|"
                   r"\bzillow\b|\bzhvi\b|\btypical home\b"),
    ("black", r"\bblack\b|\bafrican[\s-]american"),
    ("hispanic", r"(?<!non-)(?<!non )(?<!not )\bhispanic|\blatin[oax]"),  # "White, not Hispanic" is White
    ("asian", r"\basian\b"),
    ("white", r"\bwhite\b"),
    ("homicides", r"\bhomicides?\b|\bmurder(?:s|ed)?\b|\bkillings?\b|\bkilled\b|\bslain\b|\bvictims?\b"),
    # An age band's count is not the population: "5,836 residents aged 65+".
    ("age", r"\baged\b|\bseniors?\b|\belderly\b|\bchildren\b|\bkids\b|\b65 (?:and|or) (?:over|older)\b"),
    ("population", r"\bpopulation\b|\bpop\b|\bresidents\b|\binhabitants\b|\bpeople live\b"),
    ("households", r"\bhouseholds?\b"),
    # Last, so any subject the data has wins: what no dataset holds ("the median rent in Lincoln Park was
    # $71,551" called the per capita income a rent). No result figure is ever labelled so.
    # "100 were shot but survived": the 1.5B model gave a survivors' count the data does not have.
    ("unheld", r"\brents?\b|\brental\b|\btax(?:es)?\b|\bschools\b|\brobber(?:y|ies)\b|\bburglar(?:y|ies)\b|"
               r"\bcarjack\w*|\bofficers\b|\bweapons?\b|\bguns?\b|\bshootings?\b|"
               r"\bshot\b|\bwounded\b|\bsurviv\w*|\binjur\w*|\bnon-?fatal\b"),
)
_SUBJECT_RES = tuple((name, re.compile(words, re.I)) for name, words in SUBJECT_WORDS)
# Subjects a percent of may be any share of: "35.4% of homicides" is said of the arrest rate too.
GENERIC_SUBJECTS = frozenset({"homicides", "population", "households"})
SUBJECT_NAMES = {
    "homicides": "homicides", "arrests": "arrests", "domestic": "domestic homicides", "population": "population",
    "households": "households", "per_capita_income": "per capita income",
    "household_income": "median household income", "poverty": "households below poverty",
    "unemployment": "unemployment", "no_diploma": "adults without a high-school diploma",
    "dependency": "residents under 18 or over 64", "crowding": "crowded housing", "hardship": "hardship index",
    "home_value": "home value", "price_index": "price index", "black": "Black residents",
    "hispanic": "Hispanic residents", "asian": "Asian residents", "white": "White residents",
    "age": "an age group", "race_other": "another race group",
    "unheld": "something the data does not hold (rent, taxes, schools, other crimes, weapons, people shot or "
              "injured who survived)",
}
MEASURE_NAMES = {"count": "a count", "rate": "a rate per 100,000 residents", "share": "a percent",
                 "money": "dollars", "index": "an index", "change": "a change"}
_PHRASES = {("arrests", "share"): "the arrest rate", ("domestic", "share"): "the domestic share",
            ("homicides", "rate"): "the homicide rate per 100,000 residents",
            ("homicides", "count"): "the number of homicides", ("arrests", "count"): "the number of arrests",
            ("domestic", "count"): "the number of domestic homicides", ("population", "count"): "the population"}


def subject_of(words: str) -> str | None:
    """The subject a few words name, or None."""
    for name, pattern in _SUBJECT_RES:
        if pattern.search(words):
            return name
    return None


# ---------------------------------------------------------------- the two sides


@dataclass(frozen=True)
class Claim:
    """What a sentence says one of its numbers is; None is not said."""

    subject: str | None = None
    measure: str | None = None
    years: tuple | None = None  # (first, last)
    place: str | None = None
    rank: tuple | None = None  # ("top" | "bottom", k): "the second-most" is ("top", 2)

    def __bool__(self) -> bool:
        return any((self.subject, self.measure, self.years, self.place, self.rank))


@dataclass(frozen=True)
class Label:
    """What the data says a figure is; empty or None is not known."""

    subjects: frozenset = frozenset()  # a filtered count is of both: domestic homicides are homicides
    measure: str | None = None
    years: tuple | None = None  # (first, last)
    places: frozenset = frozenset()  # a district's row is the district and the area its name names
    rank: tuple | None = None  # (first, last, of, order): list positions (a tie spans first..last), "desc"/"asc"

    def __bool__(self) -> bool:
        return bool(self.subjects or self.measure or self.years or self.places or self.rank)

    @classmethod
    def of_claim(cls, claim: Claim) -> "Label":
        """A figure read from a tool's own words: labelled as those words claim it."""
        rank = None
        if claim.rank:
            end, k = claim.rank
            rank = (k, k, None, "desc" if end == "top" else "asc")
        return cls(frozenset({claim.subject} - {None}), claim.measure, claim.years,
                   frozenset({claim.place} - {None}), rank)

    def filled(self, other: "Label") -> "Label":
        """This label with the parts it does not know taken from ``other``."""
        return replace(self, subjects=self.subjects or other.subjects, measure=self.measure or other.measure,
                       years=self.years or other.years, places=self.places or other.places,
                       rank=self.rank or other.rank)


def _rank_agrees(claim_rank: tuple, label_rank: tuple) -> bool:
    end, k = claim_rank
    first, last, of, order = label_rank
    if (end == "top") == (order == "desc"):
        position = k
    elif of:
        position = of - k + 1
    else:
        return True  # "the most" of a list shown fewest first, its length unknown: cannot tell
    return first <= position <= (last if last is not None else position)


def disagreements(claim: Claim, label: Label | None) -> list[str]:
    """The parts on which a claim and a label disagree (both known, different); [] when they agree."""
    if not claim or not label:
        return []
    out = []
    if claim.subject and label.subjects and claim.subject not in label.subjects:
        out.append("subject")
    if claim.measure and label.measure and "change" not in (claim.measure, label.measure) \
            and claim.measure != label.measure:
        out.append("measure")
    if claim.years and label.years and (claim.years[1] < label.years[0] or claim.years[0] > label.years[1]):
        out.append("year")
    if claim.place and label.places and claim.place not in label.places:
        out.append("place")
    if claim.rank and label.rank and not _rank_agrees(claim.rank, label.rank):
        out.append("rank")
    return out


def checked_parts(claim: Claim, label: Label | None) -> list[str]:
    """The parts of a claim that a label could confirm (known on both sides)."""
    if not claim or not label:
        return []
    pairs = (("subject", claim.subject, label.subjects), ("measure", claim.measure, label.measure),
             ("year", claim.years, label.years), ("place", claim.place, label.places),
             ("rank", claim.rank, label.rank))
    return [name for name, said, known in pairs if said and known]


# ---------------------------------------------------------------- words for the trace and the rewrite


def _what(subject: str | None, measure: str | None) -> str:
    if (subject, measure) in _PHRASES:
        return _PHRASES[(subject, measure)]
    if subject is None:
        return MEASURE_NAMES.get(measure, "a figure")
    return SUBJECT_NAMES.get(subject, subject) + (f" as {MEASURE_NAMES[measure]}" if measure else "")


def _years_text(years: tuple | None) -> str:
    if not years:
        return ""
    return f"in {years[0]}" if years[0] == years[1] else f"in {years[0]}-{years[1]}"


def _rank_text(end: str, k: int, of: int | None = None) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    ordinal = {1: "", 2: "second-", 3: "third-"}.get(k, f"{k}{suffix}-")
    text = f"the {ordinal}{'highest' if end == 'top' else 'lowest'}"
    return text + (f" of {of}" if of else "")


def describe_claim(claim: Claim, places: "Places | None" = None) -> str:
    """What the sentence calls the number, in words: "the domestic share in 2022"."""
    parts = [_what(claim.subject, claim.measure)]
    if claim.place:
        parts.append(f"for {(places or Places()).name(claim.place)}")
    parts.append(_years_text(claim.years))
    if claim.rank:
        parts.append(f"({_rank_text(*claim.rank)})")
    return " ".join(p for p in parts if p)


def describe_label(label: Label, places: "Places | None" = None) -> str:
    """What the data calls the figure, in words: "the arrest rate for Austin in 2022 (the most of 77)"."""
    subject = sorted(label.subjects - {"homicides"})[:1] or sorted(label.subjects)[:1] or [None]
    parts = [_what(subject[0], label.measure)]
    if label.places:
        parts.append("for " + " / ".join((places or Places()).name(p) for p in sorted(label.places)))
    parts.append(_years_text(label.years))
    if label.rank:
        first, _, of, order = label.rank
        parts.append(f"({_rank_text('top' if order == 'desc' else 'bottom', first, of)})")
    return " ".join(p for p in parts if p)


# ---------------------------------------------------------------- places


_NUMBERED = (
    ("ward", re.compile(r"\bwards?\s*(?:#|no\.?\s*)?(\d{1,2})\b|\b(\d{1,2})(?:st|nd|rd|th)\s+ward\b", re.I)),
    ("district", re.compile(r"\b(?:police\s+)?districts?\s*(?:#|no\.?\s*)?(\d{1,3})\b|"
                            r"\b(\d{1,3})(?:st|nd|rd|th)\s+(?:police\s+)?district\b", re.I)),
    ("area", re.compile(r"\bcommunity\s+areas?\s*(?:#|no\.?\s*)?(\d{1,2})\b", re.I)),
    ("zip", re.compile(r"\b(60[678]\d\d)\b")),
)
_CITY = re.compile(r"\bcity[\s-]?wide\b|\bthe city\b|\bcity\b|\bchicago\b|\bcitywide\b", re.I)
# "the lowest in the city", "the most of any area in Chicago": the city a rank is taken over, not a place.
_RANK_SCOPE = re.compile(r"\b(?:most|highest|lowest|fewest|least|largest|smallest|greatest|any\s+\w+)"
                         r"(?:\s+[\w-]+){0,4}?\s+(?:in|of|across)\s+(?:the\s+)?(?:whole\s+|entire\s+)?$", re.I)
# "Chicago" as the container of a named area ("Austin, Chicago", "Chicago's Austin") is not a second place.
_CONTAINER_GAP = re.compile(r"^[\s,']*(?:s\s+)?(?:in\s+|of\s+|community areas?\s+(?:of\s+|in\s+)?)?$", re.I)


_GAZETTEER_PLACES: dict = {}  # id(gazetteer) -> (gazetteer, Places)


def _name_pattern(name: str) -> str:
    return r"[\s\-]+".join(re.escape(w).replace("'", "['’]?") for w in name.split(" "))


@dataclass
class Places:
    """Place names and their keys: the gazetteer's names when the run has it, else those the results name."""

    names: dict = field(default_factory=dict)  # lower-case name or alias -> community area number
    area_names: dict = field(default_factory=dict)  # community area number -> its name, for the trace
    _pattern: re.Pattern | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of_gazetteer(cls, geo) -> "Places":
        """The gazetteer's names and aliases, built once per gazetteer."""
        cached = _GAZETTEER_PLACES.get(id(geo))
        if cached is None or cached[0] is not geo:
            names = {str(k): int(v) for k, v in (getattr(geo, "name_index", None) or {}).items() if v is not None}
            places = cls(names=names, area_names=dict(getattr(geo, "area_names", None) or {}))
            if len(_GAZETTEER_PLACES) > 8:
                _GAZETTEER_PLACES.clear()
            cached = _GAZETTEER_PLACES[id(geo)] = (geo, places)
        return cached[1]

    def add(self, name: str, number) -> None:
        """A name the results give an area ("Austin" of community area 25)."""
        try:
            number = int(number)
        except (TypeError, ValueError):
            return
        key = re.sub(r"[^a-z0-9' ]+", " ", str(name).lower().replace("-", " ")).strip()
        key = re.sub(r"\s+", " ", key)
        if key and key not in self.names:
            self.names[key] = number
            self.area_names.setdefault(number, str(name))
            self._pattern = None

    def pattern(self) -> re.Pattern | None:
        if self._pattern is None and self.names:
            alternatives = "|".join(_name_pattern(n) for n in sorted(self.names, key=len, reverse=True))
            self._pattern = re.compile(r"(?<![a-z0-9])(?:" + alternatives + r")(?![a-z0-9])", re.I)
        return self._pattern

    def key_of_name(self, text: str) -> str | None:
        key = re.sub(r"\s+", " ", re.sub(r"[^a-z0-9' ]+", " ", str(text).lower().replace("-", " "))).strip()
        number = self.names.get(key)
        return f"area:{number}" if number is not None else None

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, key) of every place the text names, in order."""
        found: list[tuple[int, int, str]] = []
        for kind, pattern in _NUMBERED:
            for m in pattern.finditer(text):
                found.append((m.start(), m.end(), f"{kind}:{int(next(g for g in m.groups() if g))}"))
        pattern = self.pattern()
        if pattern is not None:
            for m in pattern.finditer(text):
                # An answer writes names capitalised: "clearing" or "loop" in lower case is a word, not the area.
                if m.group(0).islower() or any(s < m.end() and m.start() < e for s, e, _ in found):
                    continue
                found.append((m.start(), m.end(), self.key_of_name(m.group(0)) or "?"))
        areas = [(s, e) for s, e, _ in found]
        for m in _CITY.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in areas):
                continue  # "Chicago Lawn"
            if _RANK_SCOPE.search(text[max(0, m.start() - 60):m.start()]):
                continue
            if any(_CONTAINER_GAP.match(text[e:m.start()]) if e <= m.start() else _CONTAINER_GAP.match(text[m.end():s])
                   for s, e in areas):
                continue
            found.append((m.start(), m.end(), "city"))
        return sorted(x for x in found if x[2] != "?")

    def name(self, key: str) -> str:
        kind, _, number = key.partition(":")
        if kind == "area" and number.isdigit() and int(number) in self.area_names:
            return f"{self.area_names[int(number)]} ({number})"
        return {"city": "the city", "area": "community area", "zip": "ZIP"}.get(kind, kind) + \
            (f" {number}" if number else "")
