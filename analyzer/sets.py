"""Sets of places named by their rank on a measure, and a ranking asked within them.

"The ten areas with the most homicides", "the top 20 for household poverty", "the 15 areas with the worst hardship
index", "the 5 poorest areas": each is a ranked set (measure, how many, which end). A question may name two ("in both
the top 20 for poverty and the top 20 for homicide rate"), bound one ("of the ten ..., how many had a home value below
the median") or rank inside one ("among the 15 worst ..., which had the highest Zillow value"). The compositions
(rules/compositions.set_query) turn them into one query: a rank column per set, bounded; the thresholds beside.

The measure of a set is the one named right after its words; the ranking words are the lexicon's.
"""
from __future__ import annotations

import re

from analyzer.analysis import RankedSet
from analyzer.lexicon import (HIGHER_IS_BETTER, NUM, NUMBER_WORDS, QUANTILES, RANK_ASC, RANK_DESC, RANK_WORD_METRIC,
                              mentions_after, ordinals)

_PLACES = r"(?:community\s+areas?|areas?|neighbou?rhoods?|communities|places|zip\s+codes|zips)"
_SUPER = rf"(?P<sup>{RANK_DESC}|{RANK_ASC})"
# "top 20 for household poverty", "the bottom 10 by income", "the top five areas by hardship"
_END_RE = re.compile(rf"\b(?P<end>top|bottom)\s+{NUM}\s+(?:{_PLACES}\s+)?(?:for|by|on|in)\s+(?:the\s+)?", re.I)
# "the ten areas with the most homicides", "5 neighborhoods with the lowest per capita income", "the 15 with the
# lowest income"
_WITH_RE = re.compile(rf"\b{NUM}\s+(?:{_PLACES}\s+)?(?:with|having|that\s+(?:have|had)|which\s+(?:have|had))\s+"
                      rf"(?:the\s+)?{_SUPER}\s+", re.I)
# "the 5 poorest areas", "the ten most dangerous neighborhoods"
_BEFORE_RE = re.compile(rf"\b{NUM}\s+{_SUPER}\s+{_PLACES}\b", re.I)
# "the 15 lowest per-capita-income areas": the measure between the ranking word and the places
_AROUND_RE = re.compile(rf"\b{NUM}\s+{_SUPER}[\s-]+(?=(?:[\w$%+'-]+\s+){{1,4}}?{_PLACES}\b)", re.I)
# "not among the 15 highest 2019-2022 homicide rates": the set named by its measure's values, no place word
_AMONG_RE = re.compile(rf"\b(?:among|in)\s+(?:the\s+)?{NUM}\s+{_SUPER}\s+(?!{_PLACES}\b)", re.I)
# "... what % were in just the worst 5": a smaller set of the same ranking, its number after the word
_SUPER_NUM_RE = re.compile(rf"\b(?:the\s+)?(?:just\s+|only\s+)?{_SUPER}\s+{NUM}\b(?!\s*(?:%|percent|years?|months?|"
                           rf"days?|hours?|weeks?))", re.I)
# "what share came from just the 3 worst of them (by 2021 count)": a smaller set ranked among the set before it
_OF_THEM_RE = re.compile(rf"\b(?:the\s+)?(?:just\s+|only\s+)?{NUM}\s+{_SUPER}\s+(?:ones\s+)?(?:of|among)\s+"
                         rf"(?:them|those|these|that\s+set|the\s+set)\b", re.I)
_BY_COUNT_RE = re.compile(r"\W{0,3}(?:by|on|in|for)\s+(?:(?:the|their|its)\s+)?(?:(?:19|20)\d\d\s+)?(?:homicide\s+)?"
                          r"(?:counts?|numbers?|totals?)\b", re.I)
_HIGHER_IS_BETTER = (*HIGHER_IS_BETTER, "home_value")  # the best home value is the highest
# The measure a set names comes within this many characters of its ranking words.
_REACH = 40


def _count(text: str) -> int:
    return int(text) if text.isdigit() else NUMBER_WORDS[text.lower()]


def _order(word: str, metric: str) -> str:
    word = word.lower()
    if word in ("worst", "best"):  # the worst income is the lowest; the worst hardship the highest
        better = "desc" if metric in _HIGHER_IS_BETTER else "asc"
        return better if word == "best" else ("asc" if better == "desc" else "desc")
    if re.match(r"poor", word) and metric == "poverty":
        return "desc"
    return "asc" if re.fullmatch(RANK_ASC, word, re.I) else "desc"


_RATE_RE = re.compile(r"[\w\s-]{0,20}?\b(?:rates?|per\s+(?:capita|100,?000|100k|resident))\b")


def _metric_after(low: str, end: int, metric_pos: dict) -> str | None:
    after = [(pos - end, metric) for metric, pos in metric_pos.items() if 0 <= pos - end <= _REACH]
    # a measure named again after its first mention ("share of the city's homicides ... in the 10 areas with the most
    # homicides that year": the set's measure is the second mention's)
    after += [(pos - end, metric) for pos, metric in mentions_after(low, end, metric_pos) if pos - end <= _REACH]
    if not after:
        return None
    distance, metric = min(after)
    rate = _RATE_RE.match(low, end + distance) if metric in ("homicides", "arrests", "domestic") else None
    if rate and re.search(r"\barrest", rate.group(0)) or metric == "arrests" and rate:
        return "arrest_rate"  # "the highest homicide arrest rate": the share with an arrest, not a rate per capita
    if rate and re.search(r"\bdomestic", rate.group(0)) or metric == "domestic" and rate:
        return "domestic_share"
    if metric == "homicides" and rate:  # "the highest homicide rate"
        return "homicide_rate"
    return metric


def ranked_sets(low: str, metric_pos: dict) -> list[RankedSet]:
    """Every ranked set the question names, in its order; a set whose measure cannot be told is left out."""
    found: list[RankedSet] = []
    for pattern in (_END_RE, _WITH_RE, _BEFORE_RE, _AROUND_RE, _AMONG_RE, _SUPER_NUM_RE, _OF_THEM_RE):
        for m in pattern.finditer(low):
            if any(s.span[0] <= m.start() < s.span[1] or m.start() <= s.span[0] < m.end() for s in found):
                continue
            groups = m.groupdict()
            metric = _metric_after(low, m.end(), metric_pos)
            if pattern is _OF_THEM_RE:  # (its count named after it, "by 2021 count": the homicides')
                metric = "homicides" if metric is None and _BY_COUNT_RE.match(low, m.end()) else metric
                if not any(s.span[1] <= m.start() for s in found):
                    continue
            if metric is None and found and (_ELIDED_RE.match(low, m.end()) or pattern is _SUPER_NUM_RE):
                metric = found[-1].metric  # "... but not in the top 15 for rate in 2004-2008": the first set's measure
            if pattern is _SUPER_NUM_RE and not found:
                continue  # alone, "the worst 5" is a ranking's own top (the analyzer's ranking reads it)
            if metric is None and groups.get("sup"):  # "the 5 poorest areas": the ranking word's own measure
                metric = next((name for rx, name in RANK_WORD_METRIC if rx.search(groups["sup"] or "")), metric)
            if metric is None and len(metric_pos) == 1 and re.fullmatch(r"most|fewest|least", groups.get("sup") or ""):
                metric = next(iter(metric_pos))  # "homicides in July 2022 in the 3 areas that had the most in 2020"
            if metric is None:
                continue
            order = ("asc" if groups["end"].lower() == "bottom" else "desc") if groups.get("end") else \
                _order(groups["sup"], metric)
            n = _count(m.group(2) if groups.get("end") or pattern is _SUPER_NUM_RE else m.group(1))
            drop = _DROP_RE.search(low, max(0, m.start() - 60), m.start())
            # ("... below $250,000 but are NOT among the 20 areas with ...": right after "not among", with no set
            # before it, the set is taken from the places a bound picks)
            right_after = re.search(r"\bnot\s+(?:also\s+)?(?:in|among|one\s+of)\s+(?:the\s+)?$", low[:m.start()]) or (
                # "if you leave out the 10 areas with the most ..., what percent happened everywhere else"
                re.search(r"\b(?:leave|leaving|take|taking)\s+out\s+(?:the\s+)?$", low[:m.start()])
                and re.search(r"\b(?:else|rest|remaining|others?)\b", low[m.end():]))
            excluded = bool(found or right_after) and bool(drop or pattern is _AMONG_RE and re.search(r"\bnot\s+$",
                                                                                                    low[:m.start()]))
            # the words that take the set away are the set's ("but were NOT in the top 15 ...")
            span = (drop.start(), m.end()) if excluded and drop else m.span()
            found.append(RankedSet(metric, n, order, span, excluded, _own_years(low, m.end()),
                                   within=pattern is _OF_THEM_RE))
    found += _quantile_sets(low, metric_pos, found)
    if (len({s.years for s in found}) < 2 or not all(s.years for s in found)) and not _own_period(low, found):
        found = [RankedSet(s.metric, s.n, s.order, s.span, s.excluded, within=s.within, groups=s.groups)
                 for s in found]  # one period serves all
    return sorted(found, key=lambda s: s.span)


# "the top quartile for share of households making $125k or more": a set named by its quantile; "the
# highest-poverty fifth of community areas": its measure between the end and the fraction
_QUANTILE_SET_RE = re.compile(r"\b(?P<end>top|highest|upper|bottom|lowest)\s+(?P<kind>tercile|quartile|quintile|decile)\s+"
                              r"(?:for|by|on|of|in)\s+(?:the\s+)?", re.I)
_FRACTION_SET_RE = re.compile(r"\b(?P<end>top|highest|upper|bottom|lowest)[\s-]+(?P<mid>[^,.;:?]{2,40}?)[\s-]+"
                              r"(?P<kind>fifth|quarter|third|tenth|tercile|quartile|quintile|decile)\s+of\s+(?:the\s+|all\s+"
                              r"(?:the\s+)?|chicago'?s\s+)?(?:77\s+)?(?:community\s+areas|areas|neighbou?rhoods)\b", re.I)
# "the quarter of community areas with the highest Hispanic share": the fraction first, its end and measure after
_FRACTION_AFTER_RE = re.compile(r"\b(?P<kind>fifth|quarter|third|tenth|tercile|quartile|quintile|decile)\s+of\s+"
                                r"(?:the\s+|all\s+(?:the\s+)?)?(?:77\s+)?(?:community\s+areas|areas|neighbou?rhoods)"
                                r"\s+(?:with|having|that\s+ha(?:s|ve))\s+(?:the\s+)?"
                                r"(?P<end>top|highest|upper|bottom|lowest)\b", re.I)
# "the top fifth of community areas by Black population share": the fraction of the places, then what ranks them
_FRACTION_BY_RE = re.compile(r"\b(?P<end>top|highest|upper|bottom|lowest)\s+(?P<kind>fifth|quarter|third|tenth|tercile|"
                             r"quartile|quintile|decile)\s+of\s+(?:the\s+|all\s+(?:the\s+)?|chicago'?s\s+)?(?:77\s+)?"
                             r"(?:community\s+areas|areas|neighbou?rhoods)\s+(?:by|for|on|in)\s+(?:the\s+|their\s+)?", re.I)
_QUANTILE_RES = (_QUANTILE_SET_RE, _FRACTION_SET_RE, _FRACTION_AFTER_RE, _FRACTION_BY_RE)
_PLACES_CUT = 77  # the community areas a quantile cuts


def named_by_quantile(low: str, ranked: RankedSet) -> bool:
    return any(rx.match(low, ranked.span[0]) for rx in _QUANTILE_RES)


def _qcut_size(q: int, top: bool, n: int = _PLACES_CUT) -> int:
    """The places in the top (bottom) of ``q`` groups as pandas.qcut cuts n ranks: 77 in quartiles 20/19/19/19, in
    quintiles 16/15/15/15/16 (its edges are the ranks' quantiles, 1 + k/q x (n - 1))."""
    edge = 1 + (q - 1) / q * (n - 1) if top else 1 + (n - 1) / q
    return n - int(edge) if top else int(edge)


def _quantile_sets(low: str, metric_pos: dict, found: list) -> list[RankedSet]:
    out = []
    for m in [found for rx in _QUANTILE_RES for found in rx.finditer(low)]:
        inside = [(pos, name) for name, pos in metric_pos.items() if m.start("mid") <= pos < m.end("mid")] \
            if m.re is _FRACTION_SET_RE else []
        metric = min(inside)[1] if inside else None if m.re is _FRACTION_SET_RE else _metric_after(low, m.end(),
                                                                                                   metric_pos)
        if metric is None or any(s.span[0] <= m.start() < s.span[1] for s in found + out):
            continue
        kind = m.group("kind").lower()
        top = m.group("end").lower() in ("top", "highest", "upper")
        groups = QUANTILES[kind]
        out.append(RankedSet(metric, _qcut_size(groups, top), "desc" if top else "asc", m.span(), groups=groups))
    return out


def _own_period(low: str, found: list) -> bool:
    """One set ranked over its own years, and a year outside them dating the rest ("homicides in July 2022 in the 3
    areas with the most in 2020")."""
    if len(found) != 1 or not found[0].years:
        return False
    first, last = found[0].years
    return any(not first <= int(y) <= last for y in re.findall(r"\b((?:19|20)\d\d)\b", low))


# A set's measure left unsaid after the first set's ("for rate", "on the same measure")
_ELIDED_RE = re.compile(r"(?:the\s+)?(?:rates?|same(?:\s+measure)?|it|that)\b", re.I)
# The years right after a set's words: "top 15 for homicide rate in 2019-2022"
_OWN_YEARS_RE = re.compile(r"[^,;.?]{0,30}?\b(?:in|for|during|over|from)\s+((?:19|20)\d\d)(?:\s*(?:-|\u2013|to|through|thru)"
                           r"\s*((?:19|20)?\d\d))?\b", re.I)


def _own_years(low: str, end: int) -> tuple:
    found = _OWN_YEARS_RE.match(low, end)
    if not found:
        return ()
    first = int(found.group(1))
    last = found.group(2) or found.group(1)
    return first, int(last) if len(last) == 4 else first // 100 * 100 + int(last)


# "then drop any that are also among", "excluding those in", "but not in": a later set is taken away from the first
_DROP_RE = re.compile(r"\b(?:drop|dropping|remove|removing|exclude|excluding|minus|take\s+out|taking\s+out|leave\s+out|"
                      r"leaving\s+out|throw\s+out|except|but\s+not|not\s+(?:also\s+)?(?:in|among|one\s+of))\b[^.?;]{0,45}$")
_ORDINAL = "|".join(sorted(ordinals(10, 2), key=len, reverse=True))
_OUTER_RE = re.compile(rf"\b(?:which|what)\b(?:\s+(?:one|area|community\s+area|neighbou?rhood|of\s+(?:them|those|"
                       rf"these)))?\s+(?:had|has|have|saw|shows?|showed|recorded)\s+(?:the\s+)?"
                       rf"(?:(?P<pos>{_ORDINAL})[\s-]+)?{_SUPER}\s+|"
                       # "what's the highest Zillow value any one of them had": the value asked within the set
                       rf"\bwhat(?:'s|\u2019s|\s+is|\s+was)\s+the\s+{_SUPER.replace('sup', 'sup2')}\s+(?=[^?]{{0,60}}\b(?:any\s+"
                       rf"(?:one\s+)?of\s+(?:them|those)|among\s+(?:them|those))\b)", re.I)


def rank_within(low: str, metric_pos: dict, sets: list[RankedSet], condition=None) -> RankedSet | None:
    """The one place asked for inside a set, ranked or bounded ("which one had the highest Zillow home value"), as a
    set of one, on a measure other than the bound's."""
    if not sets and condition is None:
        return None
    for m in _OUTER_RE.finditer(low):
        if any(s.span[0] <= m.start() < s.span[1] for s in sets):
            continue
        sup = m.group("sup") or m.group("sup2")
        metric = _metric_after(low, m.end(), metric_pos) or next(
            (name for rx, name in RANK_WORD_METRIC if rx.search(sup)), None)
        if metric is not None and (sets or metric != condition.metric):
            position = ordinals(10, 2).get((m.group("pos") or "").lower(), 1)
            return RankedSet(metric, 1, _order(sup, metric), m.span(), position=position)
    return None
