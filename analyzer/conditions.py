"""Community areas picked by a socioeconomic measure: "neighborhoods where more than 30% of households are below the
poverty line", "areas with per capita income above $50,000", "how many neighborhoods have unemployment over 25
percent". The reading names the measure, the side and the value; the areas themselves come from the data.

"over/above/more than/greater than/higher than" are strictly above and "under/below/less than/lower than" strictly
below; "at least", "no less than", "N or more" include the value (at_least), as "at most", "no more than", "N or
less" do (at_most): the semantic query's threshold keeps the boundary the words say.
"""
from __future__ import annotations

import re

from analyzer.analysis import AreaCondition
from analyzer.lexicon import CENSUS_GROUP_RES, HIGHER_IS_BETTER, TENS_WORDS, counting

_AREAS = r"(?:community\s+areas?|neighbou?rhoods?|areas|communities|parts\s+of\s+(?:the\s+)?(?:city|town)|zips|" \
         r"zip\s*codes)"
_ZIPS_RE = re.compile(r"\bzips\b|\bzip\s*codes\b", re.I)
_ABOVE = r"over|above|more\s+than|greater\s+than|higher\s+than|topped|tops|exceed(?:s|ed|ing)?|beat(?:s|ing)?|outpac(?:es|ed|ing)"
_BELOW = r"under|below|less\s+than|fewer\s+than|lower\s+than"
_VALUE = r"\$?\s?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k\b|thousand\b|%|\s?percent\b|\s?per\s?cent\b)?"
# The side and the value: "more than 30%", "above $50,000", "over 25 percent".
_AT_LEAST = r"at\s+least|no\s+less\s+than|a\s+minimum\s+of"
_AT_MOST = r"at\s+most|no\s+more\s+than|a\s+maximum\s+of"
_BOUND_RE = re.compile(rf"\b({_AT_LEAST}|{_AT_MOST}|{_ABOVE}|{_BELOW})\s+{_VALUE}", re.I)
# "30% or more", "$20,000 or less": the side after the value.
# "30%+ of households": the plus says at least.
_PLUS_RE = re.compile(rf"(){_VALUE}\+", re.I)
_TRAILING_RE = re.compile(rf"(){_VALUE}\s+or\s+(more|higher|greater|above|less|lower|fewer|below)\b", re.I)
_AREAS_RE = re.compile(rf"\b{_AREAS}\b", re.I)
# A bound named by what it is: "above the city-wide per capita income", "higher than Chicago's overall rate", "above
# the median community area's value", "below average": the city's own figure, or the places' median or mean.
_REFERENCE_RE = re.compile(rf"(?:\bstrictly\s+)?\b({_ABOVE}|{_BELOW})[\s-]+(?:(?P<times>double|twice|triple|(?:\d+(?:\.\d+)?|two|three|"
                           r"four|five)\s+times)\s+)?(?:that\s+of\s+|the\s+level\s+of\s+)?(?:the\s+|that\s+)?(?:"
                           r"(?P<city>(?:city[\s-]?wide|city'?s|city|chicago'?s|chicago|overall|citywide)(?:\s+(?:average|rate|figure|"
                           r"level|value|number))?)|"
                           r"(?P<median>median)|(?P<mean>average|mean))\b", re.I)
# The comparative and its "than" apart, the measure between: "a larger share of households earning under $25,000
# than Chicago overall", "a higher poverty rate than the median area".
_SPLIT_REFERENCE_RE = re.compile(r"\b(larger|higher|greater|bigger|smaller|lower)\s+(?P<mid>(?:(?!\bthan\b)[^.;?]){3,80}?)"
                                 r"\bthan\s+(?:that\s+of\s+)?(?:the\s+)?(?:(?P<city>(?:city[\s-]?wide|city'?s|city|"
                                 r"chicago'?s|chicago|citywide)(?:\s+(?:overall|as\s+a\s+whole|average|rate|figure|"
                                 r"level|value|share))?)|(?P<median>median)|(?P<mean>average|mean))\b", re.I)
# "a 2022 homicide rate higher than Chicago's": a rate named just before the bound is the homicide rate
_RATE_BEFORE_RE = re.compile(r"(?:homicide|murder|killing)s?\s+rates?\b[^,.;]{0,20}$", re.I)
_RATE_AFTER_RE = re.compile(r"\s*(?:(?:19|20)\d\d\s+)?(?:homicide|murder|killing)s?\s+rates?\b", re.I)
_COUNT_SUBJECT_RE = re.compile(r"\b(?:homicide|murder|killing)s?(?:\s+(?:total|count|tally|numbers?))?\s+(?:is|was|are|were)\s+$",
                               re.I)
# "16+ unemployment": the age the unemployment rate counts from
_AGE_AFTER_RE = re.compile(r"\+?\s*(?:unemploy\w*|jobless\w*)", re.I)
# "unemployment (16+, 2008-2012)": the measure's own age band, in brackets after its name
_AGE_LABEL_RE = re.compile(r"\b(?:unemploy\w*|jobless\w*|diplomas?|education|schooling)(?:\s+rates?)?\s*\(\s*$", re.I)
_AGE_BEFORE_RE = re.compile(r"\b(?:aged?|ages|adults|people|persons|residents|those|individuals)\s*$", re.I)
# The measures an area can be picked by: the socioeconomic tool's, and the semantic layer's (a census group's share
# or count, the population, the home value, the homicide rate), which rules/compositions.py turns into a query.
MEASURES = ("income", "poverty", "unemployment", "education", "hardship", "crowding", "dependency",
            "household_income", "age", "race", "home_value")
# A bound's own unit names its measure: "more than 75,000 residents", "over 100 per 100k".
_UNIT_MEASURES = ((re.compile(r"\s*(?:residents|people|inhabitants|persons)\s+(?:per|a|/)\s*(?:square|sq)", re.I),
                   "population_density"),
                  # "more than 10 (homicides) per square mile": the homicides' density over the period asked
                  (re.compile(r"\s*(?:homicides?|murders?|killings?)?\s*(?:per|a|/)\s*(?:square|sq)\.?\s*(?:miles?|mi)\b",
                              re.I), "homicide_density"),
                  (re.compile(r"\s*(?:residents|people|inhabitants|persons|population)\b", re.I), "population"),
                  (re.compile(r"\s*(?:homicides?|murders?|killings?)?\s*(?:per|/|for\s+every)\s*(?:100\s*k|100,?000|"
                              r"hundred\s+thousand)\b", re.I), "homicide_rate"),
                  (re.compile(r"\s*(?:homicides?|murders?|killings?)\b", re.I), "homicides"))
# "a population above 20,000": the residents bound, their word just before the bound
_POPULATION_BEFORE_RE = re.compile(r"population(?:\s+(?:count|size|total))?\s+(?:(?:is|was|of)\s+)?", re.I)
# A count of homicides bounds the areas only beside a measure of another domain ("areas with more than 30 homicides
# in 2021: their average home value"); alone it is the listing's floor (analyzer/count_scope.py).
_OTHER_DOMAIN = MEASURES + ("population", "population_density")


# Tens written out ("over forty percent", "thirty or more homicides"), read as digits padded to the word's length so
# every span still points at the question's own characters.
_TENS = {"ten": 10, **TENS_WORDS}
_UNITS = counting(9)
_SPELLED_RE = re.compile(rf"\b({'|'.join(_TENS)})(?:[\s-]({'|'.join(_UNITS)}))?\b", re.I)
# "went all of 2019 without a single homicide", "no homicides at all", "zero murders": areas with none
_NONE_RE = re.compile(r"\b(?:without\s+(?:a\s+(?:single\s+)?|any\s+)|no\s+|zero\s+|not\s+(?:a\s+single|one)\s+)"
                      r"(?:homicides?|murders?|killings?)\b", re.I)


# A share written as a fraction after a bound word ("more than half the residents", "under a third of households"):
# the percent it is, padded like the tens above.
_FRACTIONS = {"half": "50%", "a third": "33.33%", "one third": "33.33%", "a quarter": "25%", "one quarter": "25%",
              "a fourth": "25%", "two thirds": "66.67%", "two-thirds": "66.67%", "three quarters": "75%",
              "three-quarters": "75%", "a fifth": "20%", "one fifth": "20%", "a tenth": "10%"}
_FRACTION_RE = re.compile(rf"\b({_ABOVE}|{_BELOW}|at\s+least|at\s+most)\s+(?:(?:one\s+|a\s+)?half|"
                          rf"{'|'.join(k for k in _FRACTIONS if k != 'half')})\b", re.I)


def _digits(low: str) -> str:
    def spelled(m: re.Match) -> str:
        value = _TENS[m.group(1).lower()] + (_UNITS[m.group(2).lower()] if m.group(2) else 0)
        return str(value).ljust(len(m.group(0)))

    def fraction(m: re.Match) -> str:
        words = m.group(0)[len(m.group(1)):]
        key = re.sub(r"^\s*(?:one\s+|a\s+)?(half)$", r"\1", words.strip().lower())
        return m.group(1) + words[:len(words) - len(words.lstrip())] + _FRACTIONS[key].rjust(len(words.strip()))
    def counted(m: re.Match) -> str:  # "at least one homicide": the count, in digits
        return m.group(1) + str(_UNITS[m.group(2).lower()]).ljust(len(m.group(2)))

    return _COUNTED_RE.sub(counted, _FRACTION_RE.sub(fraction, _SPELLED_RE.sub(spelled, low)))


# A small count written out after a bound ("at least one homicide", "more than two murders")
_COUNTED_RE = re.compile(rf"\b((?:{_ABOVE}|{_BELOW}|at\s+least|at\s+most)\s+)({'|'.join(_UNITS)})(?=\s+(?:homicides?|"
                         r"murders?|killings?)\b)", re.I)


_SKIP = object()
# "more than 70% of (their) 2019-2022 homicides": a share of the area's homicides, not of a measure named near it
_OF_HOMICIDES_RE = re.compile(r"\s+of\s+(?:the\s+|their\s+|its\s+|all\s+)?(?:(?:19|20)\d\d(?:\s*[-\u2013]\s*"
                              r"(?:19|20)?\d\d)?\s+)?(?:homicides|murders|killings)\b", re.I)


_HOW_FAR = (r"\bhow\s+(?:far|much)\s+(?:is|are|was|were|does|do|did)\s+(?:that|it|this|they|these|those)"
            r"(?:\s+(?:figure|average|mean|number|value))?\s+")
_HOW_FAR_RE = re.compile(_HOW_FAR + "$", re.I)
# "how far is that below the city's figure": the gap between two figures asked, with its bound word
HOW_FAR_RE = re.compile(_HOW_FAR + r"(?:above|below|under|over|higher\s+than|lower\s+than|short\s+of)\b", re.I)


def read_conditions(low: str, metric_pos: dict, skip: list | None = None) -> list[AreaCondition]:
    """The conditions on community areas in ``low``, each on its own measure, in the question's order ("a 2016-2022
    homicide rate above 50 ... and a hardship index of 90 or higher": two). ``metric_pos``: where each measure's words
    start; the measure nearest the value is the one it bounds (so "homicides in areas where poverty is over 30%"
    bounds poverty, not homicides), unless the value's own unit names it ("75,000 residents", "100 per 100k"). A
    value that is a year ("over 2015"), lies in ``skip`` (a group's own words: "households making less than $25k")
    or bounds no measure listed here is none, and ends the reading."""
    places = _AREAS_RE.search(low)
    if not places:
        return []
    none = _NONE_RE.search(low)
    # "zero homicides in 2022" is one bound; others beside it still count ("a home value above $300,000 and zero ...")
    out: list[AreaCondition] = [AreaCondition("homicides", "at_most", 0.0, none.span())] \
        if none and places.group(0).lower().split()[0] not in ("zips", "zip") else []
    low = _digits(low)
    # "how many zips had a typical home value over 500k": ZIPs picked, where the measure is published by ZIP
    grain = "zip" if _ZIPS_RE.match(places.group(0)) else "community_area"
    found = sorted(list(_BOUND_RE.finditer(low)) + list(_TRAILING_RE.finditer(low)) + list(_PLUS_RE.finditer(low))
                   + list(_REFERENCE_RE.finditer(low)) + list(_SPLIT_REFERENCE_RE.finditer(low))
                   + list(_JUDGED_RE.finditer(low)) + list(_RICHER_RE.finditer(low)), key=lambda m: m.start())
    for match in found:
        if out and out[0].span[0] <= match.start() < out[0].span[1]:
            continue
        if _HOW_FAR_RE.search(low, max(0, match.start() - 40), match.start()):
            continue  # "how far is that below the city's figure": a gap asked, not a set picked
        shared = _shared_reference(match, low, metric_pos, grain)
        if shared:  # "above the city figure on both poverty and the homicide rate": one bound, each measure
            out += [c for c in shared if all(o.metric != c.metric for o in out)]
            continue
        if match.re is _JUDGED_RE:  # "worse than the city" bounds only the measures it is said of
            continue
        if match.re is _RICHER_RE:
            reference = next(k for k in ("city", "median", "mean") if match.group(k))
            metric, side = next((m, side) for word, m, side in _COMPARATIVE_SIDES if word.fullmatch(match.group(1)))
            if all(c.metric != metric for c in out):
                out.append(AreaCondition(metric, side, 0.0, match.span(), grain=grain, reference=reference))
            continue
        others = {c.metric for c in out} & set(_OTHER_DOMAIN)
        condition = _condition(match, low, {**metric_pos, **{m: 0 for m in others}}, skip, grain)
        if condition is _SKIP:
            continue
        if condition is None:
            break
        if all(c.metric != condition.metric or _opposite(c, condition) for c in out):
            out.append(condition)  # a second bound on one measure: an interval, or a second set (``apart``)
    out = [AreaCondition(c.metric, _OTHER_SIDE.get(c.side, c.side), c.value, c.span, c.percent, c.grain, c.years,
                         c.reference) if _LEFT_OUT_RE.search(low, max(0, c.span[0] - 30), c.span[0]) else c
           for c in out]
    return out or _split_at_median(low, metric_pos, grain)


# "split the areas at the median poverty rate: the homicide rate in each half": the split is the bound, above it one
# half (analyzer/groups.py compares it with the rest)
SPLIT_AT_RE = re.compile(r"\b(?:split|divide|divided|dividing)\b[^.?;:]{0,40}?\bat\s+the\s+median\s+", re.I)


def _split_at_median(low: str, metric_pos: dict, grain: str) -> list[AreaCondition]:
    split = SPLIT_AT_RE.search(low)
    named = sorted((pos, m) for m, pos in metric_pos.items()
                   if split and m in MEASURES and 0 <= pos - split.end() <= 12)
    return [AreaCondition(named[0][1], "above", 0.0, split.span(), grain=grain, reference="median")] if named else []


def _opposite(a: AreaCondition, b: AreaCondition) -> bool:
    up = {"above", "at_least"}
    return not (a.reference or b.reference) and (a.side in up) != (b.side in up)


def apart(a: AreaCondition, b: AreaCondition) -> bool:
    """Two bounds on one measure that no place meets both of ("above $400k, and those below $150k"): two sets, not
    one interval ("above $100k and below $150k")."""
    if a.metric != b.metric or a.reference or b.reference:
        return False
    up = {"above", "at_least"}
    if (a.side in up) == (b.side in up):
        return False
    low, high = (a, b) if a.side in up else (b, a)
    return low.value >= high.value


# "... the city figure on BOTH X and Y", "... the median for each of X, Y and Z": the measures after share the bound
# "worse than the city as a whole on both poverty and the homicide rate": a judgement, whose side each measure's
# own sense gives (worse is a higher poverty rate, a lower income)
_JUDGED_RE = re.compile(r"\b(worse|better)\s+(?:off\s+)?than\s+(?:the\s+)?(?:(?P<city>city|chicago)(?:\s+as\s+a\s+whole|"
                        r"\s+overall|\s+average|'s)?|(?P<median>median(?:\s+area)?)|(?P<mean>average))", re.I)
# "areas richer than the city average": income's own comparatives bound it against a reference
# A comparative that names its measure ("richer than the city", "denser than the median area"): one row a word, with
# the measure it bounds and its side.
COMPARATIVES = (
    (r"richer|wealthier|more\s+affluent", "income", "above"), (r"poorer|less\s+affluent", "income", "below"),
    (r"denser|more\s+densely\s+populated|more\s+crowded\s+per\s+(?:square|sq)", "population_density", "above"),
    (r"less\s+dense(?:ly\s+populated)?|sparser", "population_density", "below"),
    (r"pricier|more\s+expensive|costlier", "home_value", "above"), (r"cheaper|less\s+expensive", "home_value", "below"),
)
_COMPARATIVE_SIDES = [(re.compile(word, re.I), metric, side) for word, metric, side in COMPARATIVES]
_RICHER_RE = re.compile(r"\b(" + "|".join(word for word, _, _ in COMPARATIVES) + r")\s+than\s+(?:the\s+)?(?:"
                        r"(?P<city>city|chicago)(?:\s+as\s+a\s+whole|\s+overall|\s+average|'s)?|(?P<median>median(?:\s+area)?)|"
                        r"(?P<mean>average))", re.I)
# a bound that picks the places to leave out ("leave out areas with no homicides"): the places on its other side
_LEFT_OUT_RE = re.compile(r"\b(?:leave|leaving|left)\s+out\b|\bexclud\w*|\bdrop(?:ping)?\b|\bignor\w*|\bskip(?:ping)?\b|"
                          r"\bremov\w*|\bwithout\s+(?:the\s+)?(?:areas|ones|places)\b")
_OTHER_SIDE = {"above": "at_most", "at_most": "above", "below": "at_least", "at_least": "below"}
_SHARED_RE = re.compile(r"\s*(?:on|for|in)\s+(?:both|each\s+of|all(?:\s+three|\s+of)?)\s+", re.I)


def left_out_spans(low: str, conditions: list) -> list[tuple]:
    """The words that turn a bound into the places left out ("leave out areas with no homicides"): read."""
    return [m.span() for c in conditions for m in _LEFT_OUT_RE.finditer(low, max(0, c.span[0] - 30), c.span[0])]


def _shared_reference(match: re.Match, low: str, metric_pos: dict, grain: str) -> list[AreaCondition]:
    after = _SHARED_RE.match(low, match.end()) if match.re in (_REFERENCE_RE, _JUDGED_RE) else None
    if after is None:
        return []
    clause = re.search(r"[?;]|$", low[after.end():]).start() + after.end()
    reference = next(k for k in ("city", "median", "mean") if match.group(k))
    out = []
    for pos, metric in sorted((pos, m) for m, pos in metric_pos.items() if after.end() <= pos < clause):
        if metric == "homicides" and re.match(r"(?:homicide|murder|killing)s?\s+rates?\b", low[pos:]):
            metric = "homicide_rate"
        if metric in MEASURES or metric == "homicide_rate":
            side = _side(match) if match.re is not _JUDGED_RE else \
                ("below" if (metric in HIGHER_IS_BETTER) == (match.group(1).lower() == "worse") else "above")
            out.append(AreaCondition(metric, side, 0.0, match.span(), grain=grain, reference=reference))
    return out if len(out) >= 2 else []


_FIGURE_COMPARED_RE = re.compile(r"\b(?:is|was|are|were)\s+(?:that|it|this|these|those)\s+$")


def _condition(match: re.Match, low: str, metric_pos: dict, skip, grain: str):
    """The condition one bound states, _SKIP where the value is no bound (a year, a group's or an age's own words),
    None where it bounds nothing this reader knows."""
    if _FIGURE_COMPARED_RE.search(low, 0, match.start()):
        return _SKIP  # "what percent were domestic? Is that higher than the city overall?": the figure asked, compared
    if match.re is _REFERENCE_RE:
        return _reference_condition(match, low, metric_pos, grain)
    if match.re is _SPLIT_REFERENCE_RE:  # the measure is the one named between the comparative and "than"
        inside = sorted((pos, m) for m, pos in metric_pos.items() if m in MEASURES + ("homicide_rate",)
                        and match.start("mid") <= pos < match.end("mid"))
        if not inside:
            return _SKIP
        reference = next(k for k in ("city", "median", "mean") if match.group(k))
        return AreaCondition(inside[0][1], _side(match), 0.0, match.span(), grain=grain, reference=reference)
    number, unit = float(match.group(2).replace(",", "")), (match.group(3) or "").strip().lower()
    if (not unit and 1900 <= number <= 2100) or any(a <= match.start(2) < b for a, b in skip or []):
        return _SKIP
    if match.re is not _BOUND_RE and _AGE_BEFORE_RE.search(low, 0, match.start()) \
            or match.re is _PLUS_RE and not unit and (_AGE_AFTER_RE.match(low, match.end())
                                                      or _AGE_LABEL_RE.search(low, 0, match.start())):
        return _SKIP  # "% aged 65+", "ages 18 or over", "16+ unemployment": an age band, not a bound on the areas
    value = number * 1000 if unit in ("k", "thousand") else number
    percent = "%" in unit or "cent" in unit
    if percent and _OF_HOMICIDES_RE.match(low, match.end()):
        # "areas where more than 70% of 2019-2022 homicides happened on the street": each area's share of its own
        # homicides that the question's kind (a place, domestic, a weekday) keeps
        return AreaCondition("homicide_share", _side(match), value, match.span(), percent=True, grain=grain)
    named = next((metric for rx, metric in _UNIT_MEASURES if rx.match(low, match.end())), None)
    if named == "homicides" and not any(m in _OTHER_DOMAIN for m in metric_pos):
        return None
    if named == "homicide_density" and not {"homicides", "homicide_density"} & set(metric_pos):
        named = "population_density"  # "over 20,000 per square mile" with no homicide named: residents
    if named and grain == "zip":
        return None
    if named:
        return AreaCondition(named, _side(match), value, match.span())
    pop = metric_pos.get("population", len(low))
    if _POPULATION_BEFORE_RE.fullmatch(low, pop, match.start()):  # "a 2019-2023 ACS population above 20,000"
        return AreaCondition("population", _side(match), value, match.span())
    measures = [(abs(pos - match.start()), metric) for metric, pos in metric_pos.items() if metric in MEASURES]
    if not measures:
        return None
    # "the hardship index is over 70 AND the zillow home value ...": the measure the bound's clause names before it,
    # not a nearer one the next clause opens with
    before = [(match.start() - pos, metric) for metric, pos in metric_pos.items() if metric in MEASURES
              and 0 < match.start() - pos <= 30 and not re.search(
                  r"\b(?:and|or|but|areas?|that|which|where|with|whose|across|among|in)\b|[,;()]", low[pos:match.start()])]
    metric = min(before or measures)[1]
    if grain == "zip" and metric != "home_value":
        return None  # only home values are published by ZIP
    return AreaCondition(metric, _side(match), value, match.span(), percent=percent, grain=grain)


def _reference_condition(match: re.Match, low: str, metric_pos: dict, grain: str):
    """"Areas whose per capita income is above the city-wide figure": the measure named nearest before the bound
    (a homicide rate where one is named just before it), bounded by the reference."""
    reference = next(k for k in ("city", "median", "mean") if match.group(k))
    # ("below the median per-capita income", "above the median share of crowded housing": the qualifier before the
    # measure's own word is the measure's)
    after = [metric for metric, pos in metric_pos.items() if metric in MEASURES and pos >= match.end() and (
        pos - match.end() <= 3 or re.fullmatch(r"\s*(?:per[\s-]+capita|household|family|(?:share|percent(?:age)?|"
                                                r"proportion|rate|level)\s+of(?:\s+the)?|"
                                                # "above the median for hispanic share"
                                                r"(?:for|on|in)(?:\s+(?:the|their|its))?)\s+", low[match.end():pos]))]
    # "split the areas at the median hardship index: ... the areas above the median": the median named before
    # ("split the 77 areas at the median 2019-2022 homicide rate": a period between; a homicide rate split)
    named = [("homicide_rate" if metric == "homicides" else metric) for metric, pos in metric_pos.items()
             if (metric in MEASURES or metric == "homicides" and _RATE_AFTER_RE.match(low, pos)) and pos < match.start()
             and re.search(rf"\b{reference}\s+(?:(?:19|20)\d\d(?:\s*[-\u2013]\s*(?:19|20)?\d\d)?\s+)?$",
                           low[max(0, pos - 24):pos])] if reference != "city" else []
    if named and not after:
        metric = named[0]
    elif after and not _RATE_AFTER_RE.match(low, match.end()):  # a homicide rate named earlier bounds nothing here
        metric = after[0]
    elif (_RATE_BEFORE_RE.search(low, 0, match.start()) or _RATE_AFTER_RE.match(low, match.end())) \
            and "homicides" in metric_pos:  # "above the city-wide homicide rate"
        metric = "homicide_rate"
    elif after:  # "above the median poverty rate": the measure the reference names
        metric = after[0]
    else:
        before = [(match.start() - pos, metric) for metric, pos in metric_pos.items()
                  if metric in MEASURES and pos < match.start()]
        if _COUNT_SUBJECT_RE.search(low, 0, match.start()) and any(m in _OTHER_DOMAIN for m in metric_pos):
            # "... and whose 2019-2022 homicide total is above the median area's": the count is the bound's subject
            # (beside a measure of another domain, as a number bounds it in _condition)
            before = [(0, "homicides")]
        if not before:
            return _SKIP
        metric = min(before)[1]
    if grain == "zip" and metric != "home_value":
        return None
    times = (match.group("times") or "").lower().split()
    factor = {"double": "2", "twice": "2", "triple": "3", "two": "2", "three": "3", "four": "4", "five": "5"}.get(
        times[0], times[0]) if times else ""
    return AreaCondition(metric, _side(match), 0.0, match.span(), grain=grain,
                         reference=f"{factor}*{reference}" if factor else reference)


def _side(match: re.Match) -> str:
    word = match.group(1)
    if match.re is _PLUS_RE:  # "30%+"
        return "at_least"
    if not word:  # "30% or more"
        return "at_least" if match.group(4).lower() in ("more", "higher", "greater", "above") else "at_most"
    if re.match(_AT_LEAST, word, re.I):
        return "at_least"
    if re.match(_AT_MOST, word, re.I):
        return "at_most"
    if match.re is _SPLIT_REFERENCE_RE:
        return "above" if word.lower() in ("larger", "higher", "greater", "bigger") else "below"
    return "above" if re.match(_ABOVE, word, re.I) else "below"



# "majority-Black", "mostly Hispanic": a group's share of residents over half
_MAJORITY_RE = re.compile(r"\b(?:majority|mostly|predominantly|mainly)[\s-]+(?:of\s+)?$", re.I)
_RACE_GROUPS = ("black", "hispanic_or_latino", "white_not_hispanic", "asian")


def group_bounds(low: str) -> list[tuple]:
    """(census group, side, value, spans) for each group named with its own bound: "majority-Black" is over 50%,
    "areas where more than 40% of residents are Hispanic" over 40%; the bound is read between the previous group's
    words and this group's. A group bounded again ("majority-Black areas (over 50% Black)") keeps its first bound,
    and the spans hold every mention's words."""
    found = sorted((m.start(), m.end(), group) for group, rx in CENSUS_GROUP_RES if group in _RACE_GROUPS
                   for m in rx.finditer(low))
    bounds: dict = {}
    last = 0
    for start, end, group in found:
        before = low[last:start]
        majority = _MAJORITY_RE.search(before)
        bound = [b for b in _BOUND_RE.finditer(_digits(before)) if "%" in b.group(0) or "cent" in b.group(0)]
        if majority:
            side, value, span = "above", 50.0, (last + majority.start(), end)
        elif bound:
            side, value, span = _side(bound[-1]), float(bound[-1].group(2).replace(",", "")), (last + bound[-1].start(),
                                                                                              end)
        else:
            last = end
            continue
        first = bounds.setdefault(group, (group, side, value, []))
        first[3].append(span)
        last = end
    return list(bounds.values())


def change_bound(low: str, fell: bool) -> tuple[str, float, bool] | None:
    """The bound on a change ("lost more than 10% of their population", "values climbed more than 40%"): (side,
    value, percent), a fall's value negative ("lost more than 10%": below -10); None where no bound is written or
    it bounds a fall from the other side ("lost less than 5%", read as any fall)."""
    m = next((m for m in _BOUND_RE.finditer(_digits(low))
              if not (1900 <= float(m.group(2).replace(",", "")) <= 2100 and not m.group(3))), None)
    if m is None:
        return None
    side, unit = _side(m), (m.group(3) or "").strip().lower()
    value = float(m.group(2).replace(",", "")) * (1000 if unit in ("k", "thousand") else 1)
    percent = "%" in unit or "cent" in unit
    if not fell:
        return side, value, percent
    if side in ("above", "at_least"):  # "lost more than 10%": the change is below -10
        return ("below" if side == "above" else "at_most"), -value, percent
    return None
