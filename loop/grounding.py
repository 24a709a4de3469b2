"""Grounding check: is every number in an answer backed by the tool results?

Rules (tested in tests/test_grounding.py):

* Extraction handles ``1,234``, ``$71,551``, ``12.3%``, ``12.3 percent``, ``1.2 million``, ``$250k``,
  negative numbers (``-4.5``, ``−4.5``) and ranges (``2019-2023`` is two numbers, not a negative one).
* Ignored (never flagged): ordinals (``3rd``, ``77th``); whole numbers 0-10 written without ``$``, ``%``,
  a decimal point or a scale word (counts such as "top 5" and list numbering); years (1900-2100, no
  comma) that appear in the question or the results or fall inside the coverage years of a dataset the
  results cite.
* A number matches a reference number when they agree to the precision shown: ``71,551`` matches
  71551.0, ``12.3%`` matches 12.34 (and the fraction 0.1234), ``1.2 million`` matches 1,213,004, and a
  round whole number such as ``71,600`` matches anything it rounds from (tolerance half its last
  non-zero place, at most 5%). Signs are ignored ("fell 12%" vs a change of -12).
* References: every number in the results (values, text, summary, table, sources, caveats), the
  question, and the rate bases 100 / 1,000 / 10,000 / 100,000.
* Simple derivations from two *related* headline numbers: two values of the same name (the ``total`` of
  two results, ``homicides`` in two rows, ``per_capita_income`` of an area and of the city) or two numbers
  of the results' one-line summaries; a share also of a part and a whole named ``total``, ``population``
  or ``households``. Headline numbers are the summaries, scalar values and the first rows of lists, not
  whole tables: over a 77-row ranking nearly any one-decimal percent is the share or difference of some
  unrelated pair (measured: 99 in 100 random percents matched before these limits, about 5 after). The way a number
  is written picks the rules: a percent is a share of two counts, a percent change, or a difference of
  two percents (points); "2.3 times" or "2.3x" is a ratio; any other number is a sum of two non-percent
  figures or a difference.
* Every number accounted for is recorded with the rule that matched it (exact, rounded as shown, share,
  sum, difference, ratio, percent change, list count, rank position, year within coverage) and the result
  it came from, so the trace shows where each figure came from.
* Meaning: a number whose sentence says what it is ("35.4% domestic homicide rate", "Austin had 49 homicides
  in 2021", "the second-most") is backed only by a figure the data calls that: its subject, measure, year,
  place and rank (loop/claims.py reads the sentence, loop/labels.py the results, loop/meaning.py compares).
  One that only figures of another meaning back is *mislabelled*: recorded with both readings and counted as
  unmatched. A match records what it checked.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from loop import claims as claim_reader
from loop import labels
from loop.meaning import Claim, Label, Places, checked_parts, describe_claim, describe_label, disagreements
from tools.registry import ToolResult

_TOKEN = re.compile(
    r"(?<![\w.,$])"
    r"(?P<sign>[-−])?"
    r"(?P<cur>\$)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<suffix>\s?%|\s+per\s?cent\b|\s*(?:thousand|million|billion|trillion)\b|(?:k|K|M|bn|B)\b"
    r"|(?:st|nd|rd|th)\b|x\b)?"
    r"(?!\w)"
)
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
           "trillion": 1e12}
RATE_BASES = (100.0, 1000.0, 10000.0, 100000.0)
YEAR_RANGE = (1900, 2100)
SMALL_COUNT_MAX = 10
PAIR_LIMIT = 200  # headline numbers considered for two-number derivations
LIST_HEAD = 3  # rows of a listed breakdown whose numbers count as headline numbers
_PERCENT_KEY = re.compile(r"pct|percent|share|(?:^|_)rate(?:$|_pct)", re.I)
_WHOLE_KEY = re.compile(r"total|population|^households$", re.I)
SUMMARY_KEY = "summary"  # numbers of the one-line summaries relate to each other
_NAME_YEAR = re.compile(r"_?(?:acs_)?(?:19|20)\d\d\b|_acs\b")
_TIMES_AFTER = re.compile(r"\s*(?:times\b|-fold\b|fold\b)", re.I)


def _stem(name: str) -> str:
    """A value's name without its year: ``population_2010`` and ``population_acs_2023`` are one figure
    at two times, so they relate."""
    return _NAME_YEAR.sub("", name.lower()) or name.lower()


@dataclass
class Number:
    """One number as written in a text, with the value and the tolerance its precision implies."""

    text: str
    value: float
    tolerance: float
    percent: bool = False
    money: bool = False
    ordinal: bool = False
    decimals: int = 0
    scaled: bool = False
    times: bool = False  # "2.3x", "2.3 times": a ratio
    start: int = 0  # where the number is written in its text
    end: int = 0

    @property
    def is_year(self) -> bool:
        return (not (self.percent or self.money or self.scaled or self.decimals) and "," not in self.text
                and self.value.is_integer() and YEAR_RANGE[0] <= self.value <= YEAR_RANGE[1])

    @property
    def is_small_count(self) -> bool:
        return (not (self.percent or self.money or self.scaled or self.decimals)
                and self.value.is_integer() and 0 <= self.value <= SMALL_COUNT_MAX)


_PLACE_NUMBER = re.compile(r"(?<=[A-Za-z] )\(\d{1,2}\)|\b(?:ward|district|community area|area|zip(?: code)?)\s+#?\d+|\b606\d\d\b",
                           re.IGNORECASE)


# Numbers that name a group, not a figure: "aged 16+ unemployed", "ages 25 to 34", "under 18 or over 64",
# "$125k+ households". The 0.5B model's "Austin: 22.6% vs 12.9% city-wide" was refused for leaving out the 16.
_BAND_NUMBER = re.compile(r"\b(?:aged?|ages)\s+\d+\s*(?:\+|(?:-|to)\s*\d+|and\s+(?:over|older|up))?|"
                          r"\$?\d+(?:,\d{3})*k?\+|\bunder\s+18\s+or\s+over\s+64\b", re.IGNORECASE)


def without_place_numbers(text: str) -> str:
    """The text minus numbers that name a place ("Fuller Park (37)", "Ward 28", "district 11", "60647") or a
    group ("aged 16+", "under 18 or over 64"): the answer check asks for a figure, and those are not one."""
    return _BAND_NUMBER.sub(" ", _PLACE_NUMBER.sub(" ", text or ""))


def extract_numbers(text: str) -> list[Number]:
    """Every number in a text, in order."""
    found = []
    for match in _TOKEN.finditer(text or ""):
        raw = match.group("num")
        digits = raw.replace(",", "")
        value = float(digits)
        if not math.isfinite(value):  # hundreds of digits: no data value is that large, and the maths would overflow
            continue
        suffix = (match.group("suffix") or "").strip().lower()
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        scale = _SCALES.get(suffix, 1.0)
        if scale == 1.0 and suffix.endswith(("thousand", "million", "billion", "trillion")):
            scale = _SCALES[suffix.split()[-1]]
        percent = suffix == "%" or "cent" in suffix
        if decimals == 0 and scale == 1.0 and value:
            trailing = len(digits) - len(digits.rstrip("0"))
            tolerance = max(0.5, min(0.5 * 10 ** trailing, 0.05 * value))
        else:
            tolerance = 0.5 * 10 ** -decimals * scale
        value *= scale
        if match.group("sign"):
            value = -value
        times = suffix == "x" or bool(_TIMES_AFTER.match(text, match.end()))
        found.append(Number(text=match.group(0).strip(), value=value, tolerance=tolerance + 1e-9 * max(1.0, abs(value)),
                            percent=percent, money=bool(match.group("cur")), ordinal=suffix in ("st", "nd", "rd", "th"),
                            decimals=decimals, scaled=scale != 1.0, times=times, start=match.start(),
                            end=match.end()))
    return found


def _walk(node, numbers: list, strings: list) -> None:
    if isinstance(node, bool) or node is None:
        return
    if isinstance(node, (int, float)):
        if not (isinstance(node, float) and (math.isnan(node) or math.isinf(node))):
            numbers.append(float(node))
    elif isinstance(node, str):
        strings.append(node)
    elif isinstance(node, dict):
        for key, value in node.items():
            strings.append(str(key))
            _walk(value, numbers, strings)
    elif isinstance(node, (list, tuple)):
        for value in node:
            _walk(value, numbers, strings)
    else:
        strings.append(str(node))


def _numbers_of(node) -> list[float]:
    numbers: list[float] = []
    strings: list[str] = []
    _walk(node, numbers, strings)
    for text in strings:
        numbers += [n.value for n in extract_numbers(text)]
    return numbers


# A figure whose name says it is a rate or an average is a measure even when it is whole (a rate of 89.0 per
# 100,000 is no count, and may be set against the city's 18.8).
_MEASURE_KEY = re.compile(r"rate|per_|average|avg|ratio", re.I)


def _kind(value: float, percent: bool, key: str = "") -> str:
    """A figure's kind for the derivation rules: a percent, a whole count, or another measure (a rate, money
    with cents, a yearly average)."""
    if percent:
        return "percent"
    return "count" if float(value).is_integer() and not _MEASURE_KEY.search(key) else "measure"


def _headline(node, key: str = SUMMARY_KEY, out: list | None = None) -> list[tuple[float, str, str]]:
    """(value, kind, name) for the numbers of a result that an answer may combine: scalars at any depth of
    dicts, only the first rows of lists, and numbers written in strings (a percent when written with %)."""
    out = [] if out is None else out
    if isinstance(node, bool) or node is None:
        return out
    if isinstance(node, (int, float)):
        if math.isfinite(float(node)):
            out.append((abs(float(node)), _kind(float(node), bool(_PERCENT_KEY.search(key)), key), key))
    elif isinstance(node, str):
        out += [(abs(n.value), _kind(n.value, n.percent), key) for n in extract_numbers(node)
                if not (n.ordinal or n.is_year)]
    elif isinstance(node, dict):
        for name, value in node.items():
            _headline(value, str(name), out)
    elif isinstance(node, (list, tuple)):
        for value in list(node)[:LIST_HEAD]:
            _headline(value, key, out)
    return out


def _named_year_rows(values: dict | None, years: set) -> list[dict]:
    """The rows past a list's head (those are headline figures already) of a year the question names."""
    return [row for value in (values or {}).values() if isinstance(value, list)
            for row in value[LIST_HEAD:] if isinstance(row, dict) and row.get("year") in years] if years else []


def _strings_of(node) -> list[float]:
    """The numbers written in a node's strings (not its number values)."""
    numbers: list[float] = []
    strings: list[str] = []
    _walk(node, numbers, strings)
    return [n.value for text in strings for n in extract_numbers(text)]


def _pair_label(name: str, homicide_tool: bool) -> Label | None:
    """What a headline figure's name says it is (a summary's numbers: nothing)."""
    subjects, measure = labels.key_label(name, homicide_tool)
    return Label(subjects, measure) if subjects else None


def _derived_label(rule: str, part: Label | None) -> Label | None:
    """What a figure derived from two related ones is: of the same subject; a share is a percent, a difference
    or percent change a change."""
    if part is None:
        return None
    measure = {"share": "share", "percent change": "change", "difference": "change", "ratio": None}
    return Label(part.subjects, measure.get(rule, part.measure))


@dataclass
class Figures:
    """Every number of the results and the question, with what the data says it is (None: nothing)."""

    values: np.ndarray
    labels: list  # parallel to ``values``: a meaning.Label, or None
    sources: list  # parallel to ``values``

    @classmethod
    def build(cls, results: list[ToolResult], places: Places, unlabelled: list[tuple[float, str]]) -> "Figures":
        found: list[tuple[float, Label | None, str]] = [(abs(v), None, source) for v, source in unlabelled]
        for number, result in enumerate(results or [], start=1):
            source = f"result {number} ({result.tool})"
            labelled = labels.result_labels(result, places)
            found += [(v, label, source) for v, label in labelled]
            for text in [result.summary, result.text, *[c for c in result.caveats or [] if isinstance(c, str)]]:
                numbers = extract_numbers(text)
                said = claim_reader.read_claims(text, numbers, places)
                found += [(v, label, source) for v, label in labels.text_labels(numbers, said, labelled)]
            strings = _strings_of([result.values, result.table]) + _numbers_of([result.sources, result.arguments])
            found += [(abs(v), None, source) for v in strings]
        return cls(np.array([v for v, _, _ in found], dtype=float), [label for _, label, _ in found],
                   [source for _, _, source in found])

    def near(self, number: Number) -> list[tuple[int, str]]:
        """(index, rule) of every figure the number matches by value, the closest first."""
        target, tol = abs(number.value), number.tolerance
        if not self.values.size:
            return []
        diff = np.abs(self.values - target)
        out = [(int(i), "exact" if diff[i] <= 1e-9 * max(1.0, target) else "rounded as shown")
               for i in np.argsort(diff, kind="stable") if diff[i] <= tol]
        if number.percent:
            diff = np.abs(self.values * 100 - target)
            out += [(int(i), "share (fraction as a percent)") for i in np.argsort(diff, kind="stable")
                    if diff[i] <= tol]
        return out


@dataclass
class References:
    """The numbers an answer may use, gathered once from the results and the question, each with its source."""

    direct: np.ndarray
    pairs: np.ndarray
    years: set = field(default_factory=set)
    year_span: tuple | None = None
    direct_sources: list = field(default_factory=list)  # parallel to ``direct``
    pair_sources: list = field(default_factory=list)  # parallel to ``pairs``
    pair_kinds: list = field(default_factory=list)  # parallel to ``pairs``: "percent", "count" or "measure"
    pair_names: list = field(default_factory=list)  # parallel to ``pairs``: the value's name, or "summary"
    list_lengths: dict = field(default_factory=dict)  # length of a listed breakdown -> its source
    figures: Figures | None = None  # every number with its label, for the meaning check
    pair_labels: list = field(default_factory=list)  # parallel to ``pairs``: what its name says it is, or None
    places: Places = field(default_factory=Places)  # the place names an answer's sentences are read with
    _relation_cache: tuple | None = field(default=None, repr=False, compare=False)

    @classmethod
    def build(cls, results: list[ToolResult], question: str = "", notes: list[str] | None = None,
              places: Places | None = None) -> "References":
        """``places``: the gazetteer's place names (meaning.Places.of_gazetteer), else those the results name."""
        direct: list[tuple[float, str]] = [(v, "rate base") for v in RATE_BASES]
        direct += [(n.value, "the question") for n in extract_numbers(question)]
        # The analyzer's notes the answer passes on (data coverage, valid ward numbers) come from the data.
        direct += [(n.value, "the question analyzer's notes") for n in extract_numbers(" ".join(notes or []))]
        place_names = labels.places_of(results, places)
        figures = Figures.build(results, place_names, list(direct))
        primary: list[tuple[float, str]] = []
        headline: list[tuple[float, str, str, tuple]] = []
        lists: dict = {}
        first, last = None, None
        asked_years = {n.value for n in extract_numbers(question) if n.is_year}
        for number, result in enumerate(results or [], start=1):
            label = (f"result {number} ({result.tool})", result.tool in labels.HOMICIDE_TOOLS)
            primary += [(v, label[0]) for v in _numbers_of([result.values, result.summary, result.text])]
            headline += [(v, kind, name, label) for v, kind, name in _headline(result.summary)]
            headline += [(v, kind, name, label) for v, kind, name in _headline(result.values, key="")]
            # A yearly row the question names is a headline figure wherever it is in the list ("how many times
            # more in 2021 than in 2014" divides two rows of a 2014-2021 series).
            headline += [(v, kind, name, label) for row in _named_year_rows(result.values, asked_years)
                         for v, kind, name in _headline(row, key="")]
            direct += [(v, label[0]) for v in _numbers_of([result.table, result.sources, result.caveats,
                                                           result.arguments])]
            for value in (result.values or {}).values():
                if isinstance(value, list) and value:
                    lists.setdefault(len(value), label[0])
            rows = (result.table or {}).get("rows") or []
            if rows:
                lists.setdefault(len(rows), label[0])
            for source in result.sources:
                for year in _numbers_of((source or {}).get("coverage")):
                    if year.is_integer() and YEAR_RANGE[0] <= year <= YEAR_RANGE[1]:
                        first = year if first is None else min(first, year)
                        last = year if last is None else max(last, year)
        direct += primary
        seen: dict = {}
        for value, label in direct:
            seen.setdefault(abs(value), label)
        pair_seen: dict = {}
        for value, kind, name, label in headline:
            if value:  # a zero adds nothing to a sum or difference and makes shares and changes meaningless
                pair_seen.setdefault((value, kind, _stem(name)), (label[0], _pair_label(name, label[1])))
        pair_items = list(pair_seen.items())[:PAIR_LIMIT]
        values = np.array(list(seen), dtype=float)
        years = {v for v in seen if float(v).is_integer() and YEAR_RANGE[0] <= v <= YEAR_RANGE[1]}
        return cls(direct=values, pairs=np.array([v for (v, _, _), _ in pair_items], dtype=float), years=years,
                   year_span=(first, last) if first is not None else None, direct_sources=list(seen.values()),
                   pair_sources=[source for _, (source, _) in pair_items],
                   pair_kinds=[kind for (_, kind, _), _ in pair_items],
                   pair_names=[name for (_, _, name), _ in pair_items], list_lengths=lists, figures=figures,
                   pair_labels=[pair for _, (_, pair) in pair_items], places=place_names)

    def matches(self, number: Number) -> bool:
        return self.match(number) is not None

    def match(self, number: Number, claim: Claim | None = None) -> dict | None:
        """How ``number`` is backed: {"rule", "source"}, or None. Rules are tried from the plainest up. With a
        claim (what its sentence says it is), only a figure whose label agrees backs it: then the match also
        says what was checked ({"meaning"}), or, when every figure of that value is something else, the match
        is {"mislabelled"}: what the sentence calls the number and what the data calls it."""
        found = self._plain(number)
        if found is None or not claim or self.figures is None:
            return found
        return self._meant(number, claim) or found

    def _plain(self, number: Number) -> dict | None:
        target, tol = abs(number.value), number.tolerance
        direct = self.direct
        if direct.size:
            diff = np.abs(direct - target)
            i = int(np.argmin(diff))
            if diff[i] <= tol:
                exact = diff[i] <= 1e-9 * max(1.0, target)
                return {"rule": "exact" if exact else "rounded as shown", "source": self.direct_sources[i]}
            if number.percent:
                diff = np.abs(direct * 100 - target)
                i = int(np.argmin(diff))
                if diff[i] <= tol:
                    return {"rule": "share (fraction as a percent)", "source": self.direct_sources[i]}
        for rule, i, j in self._derived(abs(number.value), number.tolerance, number):
            return {"rule": rule, "source": self._pair_source(i, j)}
        return None

    def _meant(self, number: Number, claim: Claim) -> dict | None:
        """The first figure of the number's value whose label agrees with the claim (a figure with no label
        agrees), else the first that does not, as a mislabelling."""
        conflict = None
        candidates = [(rule, self.figures.labels[i], self.figures.sources[i]) for i, rule in self.figures.near(number)]
        derived = ((rule, _derived_label(rule, self.pair_labels[i]), self._pair_source(i, j))
                   for rule, i, j in self._derived(abs(number.value), number.tolerance, number))
        for rule, label, source in [*candidates, *derived]:
            wrong = disagreements(claim, label)
            if not wrong:
                meaning = {"claimed": describe_claim(claim, self.places),
                           "checked": checked_parts(claim, label)}
                if label:
                    meaning["data"] = describe_label(label, self.places)
                return {"rule": rule, "source": source, "meaning": meaning}
            conflict = conflict or {"claimed": describe_claim(claim, self.places),
                                    "data": describe_label(label, self.places), "conflicts": wrong, "source": source}
        return {"mislabelled": conflict} if conflict else None

    def _pair_source(self, i: int, j: int) -> str:
        return " and ".join(dict.fromkeys((self.pair_sources[i], self.pair_sources[j])))

    def _derived(self, target: float, tol: float, number: Number):
        """(rule, i, j) of every pair of headline figures that gives the number, in the order the rules are tried."""
        values = self.pairs
        if values.size < 2:
            return
        a = values[:, None]
        b = values[None, :]
        percent_a, percent_b, count_a, count_b, whole_b, alike, off_diagonal = self._relations()
        with np.errstate(divide="ignore", invalid="ignore"):
            # Which rules a number may come from depends on how it is written: a ratio is "2.3 times", never
            # "2.3%" (a 0.5B model's wrong "-2.3%" change had matched the ratio of two unrelated figures), and
            # a share is of two counts, the part no larger than the whole.
            if number.times:
                candidates = (("ratio", a / b, alike),)
            elif number.percent:
                candidates = (("share", a / b * 100, count_a & count_b & (a <= b) & (alike | whole_b)),
                              ("percent change", np.abs(a - b) / b * 100, alike),
                              ("difference", np.abs(a - b), percent_a & percent_b & alike))
            else:
                candidates = (("sum", a + b, alike & ~percent_a), ("difference", np.abs(a - b), alike))
            for rule, grid, allowed in candidates:
                hit = (np.abs(grid - target) <= tol) & off_diagonal & allowed
                for i, j in np.argwhere(hit):
                    yield rule, int(i), int(j)

    def _relations(self) -> tuple:
        """Which pairs of headline figures each rule may combine, as boolean matrices; built once, since every
        number of an answer is checked against the same references."""
        if self._relation_cache is None:
            kinds, names = np.array(self.pair_kinds), np.array(self.pair_names)
            percent, count = kinds == "percent", kinds == "count"
            whole = np.array([bool(_WHOLE_KEY.search(n)) for n in self.pair_names], dtype=bool)
            # Related: the same kind of figure under the same name, e.g. two results' totals.
            alike = (kinds[:, None] == kinds[None, :]) & (names[:, None] == names[None, :])
            self._relation_cache = (percent[:, None], percent[None, :], count[:, None], count[None, :],
                                    whole[None, :], alike, ~np.eye(kinds.size, dtype=bool))
        return self._relation_cache

    def match_small(self, number: Number) -> dict | None:
        """A small whole number: a value shown, the length of a listed breakdown, or a rank position in it."""
        found = self.match(number)
        if found:
            return found
        value = int(number.value)
        if value in self.list_lengths:
            return {"rule": "list count", "source": self.list_lengths[value]}
        longest = max(self.list_lengths, default=0)
        if 1 <= value <= longest:
            return {"rule": "rank position", "source": self.list_lengths[longest]}
        return None

    def allows_year(self, number: Number) -> bool:
        if number.value in self.years:
            return True
        span = self.year_span
        return bool(span and span[0] <= number.value <= span[1])


@dataclass
class GroundingReport:
    """Which numbers of an answer were checked, matched, ignored, or left unmatched."""

    checked: list = field(default_factory=list)
    ignored: list = field(default_factory=list)
    unmatched: list = field(default_factory=list)  # includes the mislabelled numbers
    matches: list = field(default_factory=list)  # [{"number", "rule", "source", "meaning"?}] for each number accounted for
    mislabelled: list = field(default_factory=list)  # [{"number", "claimed", "data", "conflicts", "source"}]

    @property
    def ok(self) -> bool:
        return not self.unmatched

    def to_dict(self) -> dict:
        return {"checked": self.checked, "ignored": self.ignored, "unmatched": self.unmatched,
                "matches": self.matches, "mislabelled": self.mislabelled, "ok": self.ok}


def _names_its_area(answer: str, number, places) -> bool:
    """The number stands in brackets right after the name of the community area it numbers."""
    start = number.start
    if not 0 < number.value < 78 or answer[start - 1:start] != "(":
        return False
    before = re.sub(r"\s+", " ", answer[max(0, start - 40):start - 1].lower()).rstrip()
    return any(before.endswith(name) and (len(before) == len(name) or not before[-len(name) - 1].isalnum())
               and int(num) == number.value for name, num in places.names.items())


def check_grounding(answer: str, results: list[ToolResult], question: str = "",
                    references: References | None = None) -> GroundingReport:
    """Match every number in ``answer`` against the tools' ``results`` and the question; a number whose sentence
    calls it something no figure of its value is (loop/meaning.py) is mislabelled, and counts as unmatched."""
    refs = references or References.build(results, question)
    report = GroundingReport()
    numbers = extract_numbers(answer)
    claims = claim_reader.read_claims(answer, numbers, refs.places)
    for number, claim in zip(numbers, claims):
        if number.is_year and refs.allows_year(number):
            report.ignored.append(number.text)
            report.matches.append({"number": number.text, "rule": "year within the data's coverage", "source": "-"})
            continue
        if number.ordinal or number.is_small_count:
            # "top 5", "3rd", list numbering: matched when the results back them, otherwise recorded as unchecked.
            report.ignored.append(number.text)
            found = refs.match_small(number)
            report.matches.append({"number": number.text, **(found or {"rule": "small count, not checked",
                                                                      "source": "-"})})
            continue
        if _names_its_area(answer, number, refs.places):
            # "West Town (24)": the area's own number beside its name, an identifier the gazetteer holds
            report.ignored.append(number.text)
            report.matches.append({"number": number.text, "rule": "community area number", "source": "gazetteer"})
            continue
        report.checked.append(number.text)
        found = refs.match(number, claim)
        if found and "mislabelled" in found:
            report.mislabelled.append({"number": number.text, **found["mislabelled"]})
            found = None
        if found:
            report.matches.append({"number": number.text, **found})
        elif number.text not in report.unmatched:
            report.unmatched.append(number.text)
    return report
