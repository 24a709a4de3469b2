"""Sets of places as wholes. Two sets compared, each with its own figure: "split the areas into those above the median poverty
rate and the rest: how many times higher is the higher group's homicide rate", "majority-Black areas vs
majority-Hispanic ones: each group's pooled rate", "the gap in home values between the 5 lowest-hardship areas and
the 5 highest". The sets come from the condition or the ranking the question already has; this reading says only
that two sets are compared, which ones, and whether a set's figure is pooled from its sums or its members' plain mean.
And one set's spread: "the median poverty rate across the 77 areas", "the gap between the highest and lowest per
capita income", "of the ten areas with the highest hardship, the median home value".
"""
from __future__ import annotations

import re

from analyzer.conditions import HOW_FAR_RE, SPLIT_AT_RE, group_bounds
from analyzer.analysis import LAYER_MEASURES
from analyzer.lexicon import (COMPARE_RE, GAP_RE, NUM, QUANTILES, RANK_ASC, RANK_DESC, TIMES_RE, alternation,
                              mentions_after, number, ordinals)
from semantic.reading import words_re

# The set a condition leaves: "and the rest", "all other areas", "those below it", "above vs below the median".
_REST_RE = re.compile(r"\b(?:(?:all\s+)?the\s+(?:rest|others|remaining\s+(?:\w+\s+){0,2}?(?:areas|ones|neighbou?rhoods|"
                      r"communities))|everywhere\s+else|every(?:\s+other|one\s+else|body\s+else)\b(?:\s+(?:area|neighbou?rhood|"
                      r"community\s+area))?|all\s+(?:the\s+)?other\s+(?:\d+\s+)?(?:community\s+)?(?:areas|neighbou?rhoods|communities)|"
                      r"the\s+other\s+\d+(?:\s+(?:community\s+)?(?:areas|neighbou?rhoods|communities))?|"
                      r"(?:the\s+)?other\s+(?:half|group|side)|(?:each|both)\s+(?:half|halves)|(?:those|areas|ones)\s+(?:at\s+or\s+)?(?:below|under|above|over)\s+"
                      r"(?:it|that)|(?:above|over)\s+(?:vs\.?|versus|or|and)\s+(?:at\s+or\s+)?(?:below|under)|"
                      r"(?:below|under)\s+(?:vs\.?|versus|or|and)\s+(?:above|over)|"
                      # "...? And for areas below the median?": the other side asked after the first
                      r"\b(?:and|also|then)\s+(?:what\s+about\s+|how\s+about\s+)?(?:for|in)\s+(?:the\s+)?(?:areas|ones|"
                      r"those|neighbou?rhoods)\s+(?:above|over|below|under)\s+(?:the\s+)?median\b|"
                      # "below the median vs above the median": the side named again
                      # ("... minus the share in areas below median": the other side's own figure named)
                      r"(?:vs\.?|versus|minus|compared\s+(?:to|with))\s+(?:(?:the|their)\s+[a-z]+\s+)?(?:in\s+)?"
                      r"(?:those\s+|areas\s+|ones\s+)?(?:above|over|below|under)\s+(?:the\s+)?median\b"
                      r"(?!\s+(?:half|group|set|areas|ones))|"
                      # "in the below-median half than in the above-median half": the other side named
                      r"(?:than|vs\.?|versus|against|and|to)\s+(?:in\s+)?(?:the\s+)?(?:above|over|below|under)"
                      r"[\s-]+median\s+(?:half|group|set|areas|ones)|"
                      # "above the city's vs below it", "grew since 2010 vs the ones that shrank": the bound's other side
                      r"(?:vs\.?|versus|or|and)\s+(?:those\s+|the\s+ones\s+|ones\s+)?(?:below|under|above|over)\s+(?:it|that)|"
                      r"(?:vs\.?|versus|against|compared?\s+(?:to|with)|comparing\s+(?:to|with))\s+(?:those|the\s+ones|ones|"
                      r"(?:the\s+)?(?:community\s+)?areas)\s+(?:that|which)\s+(?:shr[au]nk|fell|lost|declined|"
                      r"dropped|grew|rose|gained)|"
                      # "... versus the ones that didn't", "and those that did not"
                      r"(?:the\s+ones|those|areas|the\s+others)\s+(?:that|which|who)\s+(?:didn'?t|did\s+not|don'?t|do\s+not|"
                      r"haven'?t|have\s+not))\b", re.I)
_LEAVE_OUT_RE = re.compile(r"\b(?:if\s+(?:you|we)\s+)?(?:leave|leaving|take|taking|set|setting)\s+(?:out|aside|away)\b", re.I)
# Words that say two sets are meant (a group named by its side, "each group", "split", "the two halves").
_SETS_RE = re.compile(r"\b(?:each|both|the\s+two|two)\s+(?:groups?|sets|halves)\b|\b(?:first|second)\s+(?:group|set)(?:'s)?|\b(?:higher|lower|richer|poorer|high|low)"
                      r"[\s-]+\w+\s+(?:group|half|set)\b|\bsplit\b|\bdivid\w+\b", re.I)
# A group named by its side of the bound: "how many times higher is the below-median group's"
_SIDE_NAMED_RE = re.compile(r"\b(?:below|above|under|over)[\s-]+(?:the\s+)?median\b(?:\s+(?:group|set|half|areas|ones)"
                            r"(?:'s)?)?", re.I)
# A set's figure as its members' plain average, not pooled from the set's sums.
MEAN_RE = re.compile(r"\b(?:simple|plain|unweighted|straight|ordinary)\s+(?:average|avg\.?|mean)s?(?!\w)|"
                     r"\bnot\s+(?:pooled|weighted)\b|"
                     r"\baverage\s+of\s+(?:each|the)\s+(?:group'?s\s+)?(?:\w+\s+)?(?:values|figures|"
                     r"numbers|areas)\b", re.I)


_END_RE = re.compile(r"\b(?:(" + RANK_ASC + r")|" + RANK_DESC + r")\b", re.I)
_MINUS_RE = re.compile(r"\b(?:(" + RANK_ASC + r")|" + RANK_DESC + r")\s+minus\s+(?:the\s+)?(?:" + RANK_ASC + "|" + RANK_DESC +
                       r")\b", re.I)


# A fraction of the places is a quantile group too ("the fifth of areas with the lowest ...", "the highest-poverty
# quarter of community areas"), where it names places: "fifth" alone is an ordinal and "quarter" a part of a year.
_PLACES = r"(?:the\s+)?(?:\d+\s+)?(?:community\s+)?(?:areas|neighbou?rhoods|communities|places)"
_END_WORDS = r"(?:top|bottom|highest|lowest|poorest|richest|upper|lower)"
_QUANTILE_RE = re.compile(r"\b(tercile|quartile|quintile|decile)s?\b|\b(third|quarter|fifth|tenth)s?(?=\s+(?:of\s+" +
                          _PLACES + r"|with\b|where\b|by\b))|(?<=" + "-" + r")(third|quarter|fifth|tenth)\b|"
                          r"\b" + _END_WORDS + r"\s+(third|quarter|fifth|tenth)\b(?!\s+(?:highest|lowest|largest|most))",
                          re.I)


def _quantile_of(kind: re.Match) -> int:
    word = next(g for g in kind.groups() if g).lower()
    return QUANTILES[word]
_PLACE_ORDINALS = ordinals(5)
# Measures whose highest places are the poorest ("the poorest quartile by poverty" is its top one).
_POORER_WHEN_HIGHER = ("poverty", "hardship", "unemployment", "crowding", "dependency", "education")
# Which quantile group a mention names: an end ("the lowest-income quartile", "top quintile", "highest-hardship
# quartile") or a number counted from the lowest ("Q4", "quartile 1", "the fourth quartile").
# the words for a quantile group at either end (one table for both readers below)
_LOW_END, _HIGH_END = r"lowest|bottom|poorest|least|cheapest", r"highest|top|richest|most|priciest|costliest"
_QUANTILE_PICK_RE = re.compile(rf"\b(?:(?P<low>{_LOW_END})|(?P<high>{_HIGH_END}|"
                               r"upper|last)|(?P<nth>" + alternation(_PLACE_ORDINALS) + "))"
                               r"(?:[\s-]+[a-z]+){0,2}?[\s-]+(?:tercile|quartile|quintile|decile|third|quarter|fifth|"
                               r"tenth)\b|"
                               r"\b(?:tercile|quartile|quintile|decile)\s+(?P<num>[1-9]|10)\b|\bq(?P<q>[1-5])\b|"
                               # "the fifth of areas with the lowest ...", "the quartile with the highest ...": after
                               r"\b(?:tercile|quartile|quintile|decile|third|quarter|fifth|tenth)s?\s+(?:of\s+" + _PLACES +
                               r"\s+)?(?:with|where|by|that\s+ha(?:s|ve))\s+(?:the\s+)?"
                               r"(?:(?P<low2>" + _LOW_END + r")|(?P<high2>" + _HIGH_END + r"))\b", re.I)


# ("..., and how many in the lowest?": a few words may stand between)
_OTHER_PICK_RE = re.compile(r"\b(?:vs\.?|versus|against|and|to|than)\s+(?:(?:how\s+many|what|in|for|of|with)\s+){0,3}"
                            r"(?:the\s+)?(?:(?:fifth|quarter|third|tenth|one|group)\s+(?:with\s+)?(?:the\s+)?)?"
                            r"(?:(?P<low>" + _LOW_END + r")|"
                            r"(?P<high>" + _HIGH_END + r"|upper))(?:[\s-]+one)?\b", re.I)


def quantile_groups(low: str, ranking: dict | None, consumed: list, metric_pos: dict | None = None) -> dict | None:
    """"Split the 77 areas into income quartiles ... the lowest-income quartile against the highest-income one":
    the places ranked on the measure, cut into equal groups from the lowest (a remainder goes to the lowest groups
    first: 20/19/19/19), and the two groups named, in the question's order (1 = lowest)."""
    kind = _QUANTILE_RE.search(low)
    if kind is None or not ranking or not ranking.get("metric") or (ranking.get("top_n") or 77) < 77:
        return None  # "(i.e. the 19 highest and the 19 lowest)": the sets the question counts out are its own
    # "the hardship-index quartiles: the homicide rate in the top one vs the bottom": the measure named just before
    # the quantile word cuts the places, not the one a "top" nearer another measure found
    # ("split into quartiles by Zillow home value": the measure after "by", "of", "on", "for")
    named = {name: at for name, at in (metric_pos or {}).items()}
    before = [(at, name) for name, at in named.items() if kind.start() - 25 <= at < kind.start()]
    # (a measure named before, "the densest areas", is also the one "quartile by population density" names again)
    again = [*mentions_after(low, kind.end(), named), *((m.start(), name) for name in named if name in LAYER_MEASURES
                                                        for m in [words_re(name).search(low, kind.end())] if m)]
    after = [(at, name) for at, name in [*((at, name) for name, at in named.items()), *again]
             if kind.end() < at <= kind.end() + 30 and re.match(r"\s+(?:by|of|on|for|based\s+on|using)\b[^,.;:?]*$",
                                                                low[kind.end():at])]
    if before or after:
        ranking["metric"] = max(before)[1] if before else min(after)[1]
    group = next((g for g in ("age", "race") if g in named and "population" in named), None)
    if ranking["metric"] == "population" and group and abs(named[group] - named["population"]) < 30:
        ranking["metric"] = group  # "fifths by share of residents under 18": the group's share, not the headcount
    m = _quantile_of(kind)
    picks = []
    # "the poorest quartile" by poverty (hardship, ...) is its highest: wealth words run against such a measure
    flip = ranking["metric"] in _POORER_WHEN_HIGHER
    for found in _QUANTILE_PICK_RE.finditer(low):
        if found.group("low") or found.group("low2"):
            pick = _end_pick(found.group("low") or found.group("low2"), True, m, flip)
        elif found.group("high") or found.group("high2"):
            pick = _end_pick(found.group("high") or found.group("high2"), False, m, flip)
        else:
            word = found.group("nth") or found.group("num") or found.group("q")
            pick = _PLACE_ORDINALS.get(word.lower(), None) or int(word)
        if 1 <= pick <= m and pick not in picks:
            picks.append(pick)
            consumed.append(found.span())
    other = _OTHER_PICK_RE.search(low, consumed[-1][1]) if len(picks) == 1 else None
    if other:  # "the poorest quartile vs the richest one": the other end, its quantile word left to the first
        picks.append(_end_pick(other.group("low") or other.group("high"), bool(other.group("low")), m, flip))
        consumed.append(other.span())
    if len(picks) != 2 or picks[0] == picks[1]:
        return None
    consumed += [k.span() for k in _QUANTILE_RE.finditer(low)] + [g.span() for g in re.finditer(
        r"\(?\s*(?:groups?\s+of\s+)?\d+(?:\s*/\s*\d+)+\b|\b(?:lowest|bottom)\s+(?:\w+\s+)?(?:first|up)\b", low)]
    return {"kind": "quantiles", "of": m, "picks": picks, "figure": "mean" if MEAN_RE.search(low) else "pooled"}


# A count asked summed beside a plain average ("how many homicides did they have combined, and their average
# Zillow value"): the count is each set's total, whatever the other figures are.
_COUNT_SUMMED_RE = re.compile(r"\b(?:homicides|murders|killings)\b[^.;?]{0,30}?\b(?:combined|in\s+total|altogether|"
                              r"summed)\b|\b(?:combined|total)\s+(?:number\s+of\s+)?(?:homicides|murders|killings)\b",
                              re.I)


def _end_pick(word: str, low: bool, groups: int, flip: bool) -> int:
    """The group an end word picks, 1 = the lowest; a wealth word over a measure whose top is the poorest picks the
    other end ("the poorest quartile" by poverty is its top one)."""
    wealth = flip and re.match(r"(?:poor|rich|wealth)", word.lower())
    return (groups if wealth else 1) if low else (1 if wealth else groups)


def compared_groups(low: str, condition, ranking: dict | None, consumed: list,
                    metric_pos: dict | None = None) -> dict | None:
    """{"kind": "rest" | "each" | "ends" | "quantiles", "figure": "pooled" | "mean", "bounds": [(group, side,
    value)], "summed": the homicide count summed beside a mean} when the question compares two sets of places,
    else None; the words read are added to ``consumed``."""
    found = _compared(low, condition, ranking, consumed, metric_pos)
    if found and found["figure"] != "pooled" and _COUNT_SUMMED_RE.search(low):
        found["summed"] = True
    if found and _AVERAGE_CHANGE_RE.search(low):
        found["mean_change"] = True
    return found


# "average Zillow home value % change ... for each group": the mean of the members' own changes, not the change of
# the group's pooled figures
_AVERAGE_CHANGE_RE = re.compile(r"\b(?:average|avg\.?|mean)\s+(?:[a-z']+\s+){0,4}?(?:%|percent(?:age)?)?\s*change\b",
                                re.I)


def _compared(low: str, condition, ranking: dict | None, consumed: list, metric_pos: dict | None) -> dict | None:
    quantiles = quantile_groups(low, ranking, consumed, metric_pos)
    if quantiles:
        return quantiles
    figure = "mean" if MEAN_RE.search(low) else "median" if _median_figure(low) else "pooled"
    words = [m.span() for rx in (MEAN_RE, _SETS_RE, _SIDE_NAMED_RE, SPLIT_AT_RE) for m in rx.finditer(low)] + \
        ([_median_figure(low).span()] if figure == "median" else [])
    rest = _REST_RE.search(low)
    if condition is not None and rest and condition.metric not in ("population_change", "home_value_change"):
        consumed += [rest.span(), *words]
        # "above vs below the median", "below the median ... compared with areas above it": each side strictly (the
        # median area itself in neither), unlike "the rest" ("strictly above the median vs all the rest" keeps it)
        sided = bool(re.search(r"\b(?:below|under|above|over)\b", rest.group(0))) and "at or" not in rest.group(0)
        said = re.search(r"\bstrict(?:ly)?\b", low) if sided else None  # "... vs below it (strictly)"
        if said:
            consumed.append(said.span())
        return {"kind": "rest", "figure": figure, "bounds": [], **({"strict": True} if sided else {})}
    # ("drop any that are also among ...: how many remain, the remaining ones' homicides": what is left of the set)
    if condition is None and rest and ranking and ranking.get("top_n") and not ranking.get("both_ends") \
            and "remaining" not in rest.group(0):
        # "the 10 areas with the highest share of Black residents ... and the same for all the other 67 areas"; "if
        # you leave out the 10 richest, ... everybody else"
        consumed += [rest.span(), *words, *(m.span() for m in _LEAVE_OUT_RE.finditer(low))]
        return {"kind": "ranked_rest", "figure": figure, "bounds": []}
    bounds = group_bounds(low)
    # "the ratio of the rate in majority-Black areas to that in majority white ones": two sets set against each other
    if len(bounds) == 2 and (COMPARE_RE.search(low) or _SETS_RE.search(low) or TIMES_RE.search(low)
                             or GAP_RE.search(low) or re.search(r"\bratio\b", low)):
        consumed += [span for *_, spans in bounds for span in spans] + words
        return {"kind": "each", "figure": figure, "bounds": [b[:3] for b in bounds]}
    minus = _MINUS_RE.search(low)  # "poorest minus richest": the end before "minus" is the first set
    asked = GAP_RE.search(low) or TIMES_RE.search(low) or minus
    if ranking and ranking.get("both_ends") and ranking.get("top_n") and asked:
        consumed += words + [m.span() for m in re.finditer(rf"\b{NUM}\b", low) if number(m.group(1)) == ranking["top_n"]]
        consumed += [minus.span()] if minus else []
        # "the ratio of the poorest one's rate to the richest one's": the end named first after the ratio is the
        # first set (its figure over the other's)
        after = minus or _END_RE.search(low, asked.end())
        first = ("asc" if after.group(1) else "desc") if after else ranking["order"]
        return {"kind": "ends", "figure": figure, "bounds": [], "first": first}
    return None


# "the gap between the highest and (the) lowest", "highest and lowest ... difference", "how wide is the range"
_RANGE_RE = re.compile(r"\b(?:range|gap|difference|spread|distance)\s+between\s+(?:the\s+)?(?:highest|largest|biggest|"
                       r"top|richest|max(?:imum)?)\b(?:[\w\s'-]{0,40}?\band\s+(?:the\s+)?(?:lowest|smallest|bottom|"
                       r"poorest|min(?:imum)?)\b)?|\b(?:highest|largest|max(?:imum)?)\s+(?:and|minus|vs\.?)\s+(?:the\s+)?"
                       r"(?:lowest|smallest|min(?:imum)?)\b(?:[^?.]{0,60}?\b(?:gap|difference|range|spread)\b)?|"
                       r"\bhow\s+(?:wide|big|large)\s+(?:is\s+)?the\s+(?:range|spread)\b|"
                       # "the gap between the most and least expensive": the two ends of one measure
                       r"\b(?:range|gap|difference|spread|distance)\s+between\s+(?:the\s+)?most\s+(?:and|&)\s+"
                       r"(?:the\s+)?least\b|"
                       # "the range (max minus min) of the individual area rates"
                       r"\brange\b\s*\(?\s*(?=(?:max(?:imum)?|highest)\s+(?:minus|less|-)\s+(?:min(?:imum)?|lowest))|"
                       # "how many more homicides in the deadliest month than in the least deadly one"
                       r"\bhow\s+many\s+more\b[^?.]{0,60}?\b(?:deadliest|worst|busiest|highest|most\s+violent)\b"
                       r"[^?.]{0,60}?\bthan\s+(?:in\s+)?(?:the\s+)?(?:least\s+deadly|quietest|calmest|lowest|safest|"
                       r"best|least\s+violent)\b(?:\s+one)?", re.I)
# "the median poverty rate across the areas": a median of the places' values, not a measure named "median" (a
# household income's, a sale price's)
_MEDIAN_RE = re.compile(r"\bmedian\b(?!\s+(?:household\s+|family\s+)?incomes?\b)(?!\s+(?:sale|list|days?|dom)\b)", re.I)
_THEIR_AVERAGE_RE = re.compile(r"\bon\s+average\b(?=[^.?;]{0,40}\b(?:their|those|these)\b)", re.I)
_OVER_PLACES_RE = re.compile(r"\b(?:across|among|between)\b|\b(?:community\s+areas|neighbou?rhoods|areas|zips|zip\s+codes|"
                             r"wards|communities)\b|\b(?:per|each|by)\s+(?:community\s+)?(?:area|neighbou?rhood|ward)\b|"
                             r"\b(?:annual|yearly|per\s+year|a\s+year|each\s+year|monthly|per\s+month|each\s+month)\b",
                             re.I)  # or over the years, or the months


# A median asked of each set ("what's the median Zillow home value among the areas above that median, and among the
# rest"), not the one that splits them ("the median area itself goes with the rest")
_MEDIAN_FIGURE_RE = re.compile(r"\b(?:what(?:'s|\u2019s|\s+is|\s+was|\s+are)|give(?:\s+me)?|report|show|list|"
                               r"how\s+much\s+(?:lower|higher|greater|smaller|bigger|less|more)\s+"
                               r"(?:is|was|are|were))\s+"
                               r"(?:the\s+|their\s+|each\s+group'?s\s+)?median\b(?!\s+(?:area|community|group|split|line|"
                               r"point|of\s+all))", re.I)


def _median_figure(low: str) -> re.Match | None:
    """Each set's figure is its members' median where the question asks one of them."""
    return _MEDIAN_FIGURE_RE.search(low)


def rest_compared(low: str, consumed: list) -> dict | None:
    """A set a condition picks compared with the rest ("areas that lost population versus the ones that didn't"),
    where the condition is read after the sets (a change's sign); the words read are added to ``consumed``."""
    rest = _REST_RE.search(low)
    if rest is None:
        return None
    consumed.append(rest.span())
    return {"kind": "rest", "figure": "mean" if MEAN_RE.search(low) else "pooled", "bounds": []}


def asks_range(low: str) -> bool:
    return bool(_RANGE_RE.search(low))


# A straight line fitted through a series ("the slope of the yearly counts", "a least-squares trend line")
_SLOPE_RE = re.compile(r"\bslope\b|\bols\b|\bleast[\s-]+squares?\b(?:\s+(?:fit|line|regression|trend))?|"
                       r"\b(?:line|trend)\s+of\s+best\s+fit\b|\bbest[\s-]+fit(?:ting)?\s+line\b|"
                       r"\b(?:fit(?:ted|ting)?|draw(?:ing)?|run(?:ning)?)\s+(?:a\s+|the\s+)?(?:straight\s+|linear\s+|trend\s+)?"
                       r"(?:line|regression)(?:\s+(?:through|to|on))?\b|\blinear\s+(?:trend|fit|regression)\b|"
                       r"\b(?:regression|trend)\s+line\b|\bstraight[\s-]+line\b", re.I)
# "how few areas account for half of the homicides": the fewest places, largest first, that reach a share of the whole
# ("the smallest number of community areas that together account for at least half")
_COVER_RE = re.compile(r"\b(?:how\s+(?:few|many)|(?:the\s+)?(?:smallest|minimum|lowest|least)\s+(?:possible\s+)?(?:number|count)"
                       r"\s+of|(?:the\s+)?fewest)\s+(?:of\s+the\s+)?(?:community\s+)?(?:areas|neighbou?rhoods|communities)\b"
                       r"[^?.]{0,50}?\b(?:account(?:s|ed)?\s+for|hold|held|make\s+up|made\s+up|cover|contain|"
                       r"add\s+up\s+to|reach|produce|concentrate)\b[^?.]{0,20}?\b(?P<share>half|a\s+third|a\s+quarter|"
                       r"one[\s-]+(?:half|third|quarter)|two[\s-]+thirds|three[\s-]+quarters|\d{1,2}(?:\.\d)?\s*(?:%|percent))",
                       re.I)
_COVER_WORDS_RE = re.compile(r"\bconcentrat\w*|\b(?:starting|beginning)\s+(?:with|from)\s+the\s+(?:worst|most|highest|"
                             r"biggest|largest|top)(?:\s+(?:one|ones|areas?))?\b|\blargest\s+first\b", re.I)
_COVER_SHARES = {"half": 50.0, "a third": 100 / 3, "a quarter": 25.0, "one half": 50.0, "one third": 100 / 3,
                 "one quarter": 25.0, "two thirds": 200 / 3, "three quarters": 75.0}


_VINTAGE = (r"(?:(?:the\s+)?(?:2019\s*[-\u2013]\s*(?:20)?23\s+)?acs(?:\s+(?:5[\s-]year\s+)?2019\s*[-\u2013]\s*(?:20)?23)?|"
            r"current|latest|recent|2019\s*[-\u2013]\s*(?:20)?23|(?:the\s+)?2010(?:\s+census)?|census\s+2010)")
# "weighted by each area's 2019-23 ACS population", "ACS-population-weighted", "weighted by population (2010 census)"
_WEIGHT_POP_RE = re.compile(rf"\bweight(?:ed|ing|s)?\s+(?:by|with|using|on)\s+(?:each\s+[\w\s]{{0,20}}?['\u2019]s?\s+|the\s+|"
                            rf"their\s+|its\s+)?(?:(?P<which>{_VINTAGE})\s+)?(?:pop(?:ulation)?s?|residents|headcounts?)\b"
                            rf"(?:\s*\((?P<paren>{_VINTAGE})[^)]{{0,20}}\))?|"
                            rf"\b(?P<before>{_VINTAGE})[\s-]+pop(?:ulation)?[\s-]+weighted\b|"
                            # "population-weighted ... (weights = 2019-23 ACS pop)"
                            rf"\bweights?\s*(?:=|:|are|being|from)\s*(?:the\s+)?(?P<named>{_VINTAGE})\s+"
                            rf"(?:pop(?:ulation)?s?|residents)\b", re.I)


_WEIGHTED_RE = re.compile(r"\b(?:(?:population|pop|resident)[\s-]+)?weighted\s+(?:average|mean|avg)s?\b|"
                          r"\baveraged?\s+(?:and\s+)?weighted\b", re.I)


def weight_population(low: str, consumed: list) -> str:
    """The population a weighted mean weighs areas by where the question names one ("acs_2019_2023",
    "census_2010"), else "" (the declared weight)."""
    found = _WEIGHT_POP_RE.search(low)
    if found is None:
        return ""
    which = found.group("which") or found.group("paren") or found.group("before") or found.group("named") or ""
    if not which:
        return ""
    consumed.append(found.span())
    consumed += [m.span() for m in _WEIGHTED_RE.finditer(low)]  # "the population-weighted average": the same ask
    return "census_2010" if "2010" in which else "acs_2019_2023"


def cover_asked(low: str, consumed: list) -> float | None:
    """The share of the whole the fewest places must reach ("how few areas account for half": 50), or None."""
    found = _COVER_RE.search(low)
    if found is None:
        return None
    consumed.append(found.span())
    # "how concentrated", "(starting with the worst)": the cover's own words
    consumed += [m.span() for m in _COVER_WORDS_RE.finditer(low)]
    word = re.sub(r"[\s-]+", " ", found.group("share").lower())
    number = re.match(r"[\d.]+", word)
    return float(number.group(0)) if number else _COVER_SHARES[word]


def spread_asked(low: str, condition, consumed: list) -> str | None:
    """"range" where the question asks how far apart the places' highest and lowest values are, "median" where it
    asks the median of their values, "mean" their plain mean, "slope" a straight line through a series; the words
    read are added to ``consumed``."""
    found = list(_SLOPE_RE.finditer(low))
    if found and not condition:
        consumed += [m.span() for m in found]
        return "slope"
    found = list(_RANGE_RE.finditer(low))
    if found:
        consumed += [m.span() for m in found]
        return "range"
    # not the bound's own median ("above the median"); "above the city's rate: the median home value" is one
    found = next((m for m in _MEDIAN_RE.finditer(low) if not (condition and condition.reference == "median")), None)
    if found and _OVER_PLACES_RE.search(low):
        # (the spread gives the plain average beside the median: "the simple mean income and the median value")
        consumed += [found.span(), *(m.span() for m in MEAN_RE.finditer(low))]
        return "median"
    # "the top three by Asian share: on average how much did their values go up, in %": their own changes' mean
    # (a bound on the mean reads its own "average" words: "above the average rate")
    by_mean = condition is not None and "mean" in str(condition.reference)
    found = _THEIR_AVERAGE_RE.search(low)
    if found and not by_mean:
        consumed += [found.span(), *(m.span() for m in MEAN_RE.finditer(low))]
        return "mean"
    # "the plain average of the 77 areas' per capita incomes": the places' own mean, not the city's figure
    found = MEAN_RE.search(low)
    if found and _OVER_PLACES_RE.search(low) and not by_mean:
        # "... and how far is that below the city's own figure": the city's figure beside it (rules/compositions.py)
        consumed += [found.span()] + [m.span() for m in HOW_FAR_RE.finditer(low)]
        return "mean"
    return None


_PLACES = r"(?:\d+\s+)?(?:community\s+areas|neighbou?rhoods|areas|communities|zip\s*codes|zips|wards)\b"
_SHARE = r"(?:percent(?:age)?|share|proportion|fraction|%)"
# "what percent of community areas have ...", "of the areas with home values, what share saw ...": the places a
# threshold keeps as a share of all of them, not a share of a figure
_SHARE_OF_PLACES_RE = re.compile(rf"\b(?:what|which)\s+{_SHARE}\s+of\s+(?:the\s+|chicago'?s\s+|all\s+(?:the\s+)?)?{_PLACES}|"
                                 rf"\bof\s+(?:the|all(?:\s+the)?)\s+(?:\d+\s+)?{_PLACES}[^?]{{0,80}}?\bwhat\s+"
                                 rf"{_SHARE}(?!\w)|"
                                 rf"\b{_SHARE}\s+of\s+(?:the\s+|all\s+(?:the\s+)?)?{_PLACES}|"
                                 # "how many had ...? what % of the 20 is that": the set's own size, its places elided
                                 r"\bwhat\s+(?:percent(?:age)?|share|proportion|fraction|%)\s+of\s+(?:the|those|these)\s+"
                                 r"\d+\b(?![\d,.%])", re.I)


_OF_THE_SET_RE = re.compile(rf"\bwhat\s+{_SHARE}\s+of\s+(?:the|those|these)\s+(\d+)\b(?![\d,.%])|"
                            # "of the 15 areas with the most homicides in 2022, what percentage have ..."
                            rf"^\s*(?:among|of)\s+(?:the|those|these)\s+(\d+)\b[^?]*?,\s*what\s+{_SHARE}(?!\w)", re.I)


def set_share_size(low: str) -> int | None:
    """"what % of the 20 is that": the size of the set a share is of."""
    found = _OF_THE_SET_RE.search(low)
    return int(found.group(1) or found.group(2)) if found else None


def share_of_places(low: str, consumed: list) -> bool:
    found = _SHARE_OF_PLACES_RE.search(low)
    if found:
        consumed.append(found.span())
    return bool(found)


# "what percent of the community areas with a Zillow value in Jan 2024 had ...": the share's base is the places with
# a value of the measure named there
_WITH_VALUE_RE = re.compile(rf"\b{_SHARE}\s+of\s+(?:the\s+|all\s+(?:the\s+)?)?{_PLACES}\s+(?:with|that\s+have|having)\s+"
                            r"(?:an?\s+)?(?P<what>[^,?;]{3,60}?)\s+(?:values?|figures?|estimates?|numbers?)\b", re.I)


def share_base(low: str, metric_pos: dict, consumed: list) -> str | None:
    """The measure whose places with a value make a share's base, None where the base is every place."""
    found = _WITH_VALUE_RE.search(low)
    inside = sorted((pos, m) for m, pos in metric_pos.items() if found and found.start("what") <= pos < found.end())
    if not inside:
        return None
    consumed.append(found.span())
    return inside[0][1]
