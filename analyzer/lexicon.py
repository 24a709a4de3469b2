"""The analyzer's vocabulary: what words in a question name a metric, a place type, a ranking or an attack.

The tables are kept as plain pattern strings so they read as word lists, and are compiled once at
import (the analyzer must stay well under 2 ms a question). Place and year patterns live with their
extractors in analyzer/places.py and analyzer/years.py.
"""
from __future__ import annotations

import difflib
import re

from semantic.dimensions import LOCATION_WORDS
from semantic.not_held import UNSUPPORTED
from semantic.query import QUANTILE_NAMES

_FLAGS = re.I


def word_re(pattern: str, flags: int = _FLAGS) -> re.Pattern:
    """A pattern of alternatives matched as whole words only."""
    return re.compile(r"\b(?:" + pattern + r")\b", flags)


def number(text: str) -> int:
    text = text.lower()
    return NUMBER_WORDS[text] if text in NUMBER_WORDS else int(text)


def add_unique(items: list, value) -> None:
    """Append unless present: entity lists keep the order of first mention."""
    if value not in items:
        items.append(value)


def overlaps(span: tuple, spans: list) -> bool:
    """Whether a character span overlaps any of ``spans``: each piece of text names one entity."""
    return any(not (span[1] <= s or span[0] >= e) for s, e in spans)


# Topic words people often misspell ("homocides", "populaton", "unemployement"). Only long words are
# corrected, and only to these, so place names and everyday words are left alone.
SPELLING_TARGETS = ("homicide", "homicides", "population", "unemployment", "unemployed", "poverty",
                    "demographics", "neighborhood", "neighborhoods", "killings", "murders", "murdered", "arrests",
                    "arrested", "domestic", "hardship", "income")
_WORD_RE = re.compile(r"[a-z]{5,}")
_KNOWN = set(SPELLING_TARGETS)


def correct_spelling(low: str) -> str:
    """``low`` with near-misses of the topic words replaced by the word (close matches only)."""
    def fix(m: re.Match) -> str:
        word = m.group(0)
        if word in _KNOWN:
            return word
        close = difflib.get_close_matches(word, SPELLING_TARGETS, n=1, cutoff=0.84)
        return close[0] if close and close[0][0] == word[0] else word
    return _WORD_RE.sub(fix, low)


# Shorthand written in chat ("how many ppl live in avondale", "adults w/o a diploma"): read as the words it stands for.
_SHORTHAND = {"ppl": "people", "w/o": "without", "btwn": "between", "b/w": "between", "yrs": "years", "yr": "year",
              # money in words ("over half a million dollars"), read as the figure it is
              "half a million dollars": "$500,000", "half a million": "500,000", "a quarter million": "250,000",
              "a quarter of a million": "250,000", "a million dollars": "$1,000,000",
              "hrs": "hours", "approx": "about", "thru": "through", "ur": "your", "hows": "how's", "whats": "what's",
              "wknd": "weekend", "wknds": "weekends", "wkend": "weekend", "wkends": "weekends", "&": "and", "u": "you",
              "w/": "with", "ca": "community area", "cas": "community areas", "pci": "per capita income",
              "sat+sun": "saturday and sunday", "sat/sun": "saturday and sunday", "community-area": "community area",
              "community-areas": "community areas", "dist": "district", "dists": "districts",
              "whichever": "which", "whatever": "which", "thier": "their", "teh": "the"}
_SHORTHAND_RE = re.compile(r"(?<![\w/])(?:" + "|".join(re.escape(k) for k in _SHORTHAND) + r")(?![\w/])")


# "#2 for homicides": a rank written with a number sign is the ordinal ("2nd"); after a kind of place ("community
# area #27", "ward #3") it is the place's number.
_NUMBER_SIGN_RE = re.compile(r"(?<!area\s)(?<!ward\s)(?<!district\s)(?<!beat\s)(?<!zip\s)(?<![\w#])#\s?(\d{1,2})\b")


def ordinal(n: int) -> str:
    """3 -> "3rd"."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# "the 11 pm hour", "(11:00-11:59 pm)": one hour of the clock, said as the hour the time readers know ("11pm")
_CLOCK_HOUR_RE = re.compile(r"\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.)\s+hour\b|\b(\d{1,2}):00\s*[-\u2013]\s*(\d{1,2}):59\s*"
                            r"(am|pm)\b")


def _clock_hour(m: re.Match) -> str:
    if m.group(1):
        return f"at {m.group(1)}{m.group(2).replace('.', '')}"
    return f"at {m.group(3)}{m.group(5)}" if m.group(3) == m.group(4) else m.group(0)


# A span of years written short ("2019-23", "ACS 19-23"): the whole years. A second part of 12 or less after a year is
# a month ("2019-06"), unless the ACS is named beside it.
_SHORT_SPAN_RE = re.compile(r"\b((?:19|20)\d\d)\s*[-\u2013]\s*(\d\d)\b(?![-/]\d)|(?<=\bacs\s)(\d\d)\s*[-\u2013]\s*(\d\d)\b|"
                            r"\b(\d\d)\s*[-\u2013]\s*(\d\d)(?=\s+acs\b)")


def _short_span(m: re.Match) -> str:
    if m.group(1):
        first, last = m.group(1), m.group(1)[:2] + m.group(2)
        return f"{first}-{last}" if int(m.group(2)) > 12 and last > first else m.group(0)
    a, b = (m.group(3), m.group(4)) if m.group(3) else (m.group(5), m.group(6))
    return f"20{a}-20{b}" if a < b else m.group(0)


# A day of the year, then a span of years ("july 4, 2016-2022", "the 4th of july, 2016 through 2022"): that day in each
# year of the span, not the first year's date with the rest unread
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DAY_OVER_YEARS_RE = re.compile(rf"\b((?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+of\s+"
                                rf"{_MONTH})),\s*((?:19|20)\d\d)\s*(?:-|\u2013|through|thru|to|until)\s*((?:19|20)\d\d)\b")


# "sep2019→sep2024": a month glued to its year, an arrow for "to"
_GLUED_MONTH_RE = re.compile(r"\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)((?:19|20)\d\d)\b")
_ARROW_RE = re.compile(r"\s*(?:→|->|=>)\s*")


# "areas with an above-city share of 65+ residents": a bound written as a hyphenated adjective, said the long way
# ("a share of 65+ residents above the city's") so the bound reads as every other one; the measure's words run to a
# comma or a joining word
_BOUND_STOP = r"\b(?:minus|vs|versus|and|compared|than|with|who|that|where|or)\b"
_ADJECTIVE_BOUND_RE = re.compile(r"\b(?:an?\s+)?(above|below|over|under)-(city|median|average)(?:-(?:average|wide|level))?"
                                 r"\s+((?:share|percentage|percent|proportion|number|count)\s+of\s+(?:(?!" + _BOUND_STOP +
                                 r")[^,.;:?()])+?)(?=\s*(?:[,.;:?()]|" + _BOUND_STOP + r"|$))")
_REFERENCE_WORDS = {"city": "the city's", "median": "the median", "average": "the average"}


def _adjective_bound(m: re.Match) -> str:
    return f"a {m.group(3)} {m.group(1)} {_REFERENCE_WORDS[m.group(2)]}"


def expand_shorthand(low: str) -> str:
    low = _ADJECTIVE_BOUND_RE.sub(_adjective_bound, low)
    low = _ARROW_RE.sub(" to ", _GLUED_MONTH_RE.sub(r"\1 \2", low))
    low = _SHORT_SPAN_RE.sub(_short_span, low)
    low = _DAY_OVER_YEARS_RE.sub(r"\1 from \2 through \3", low)
    low = _CLOCK_HOUR_RE.sub(_clock_hour, low)
    low = _NUMBER_SIGN_RE.sub(lambda m: ordinal(int(m.group(1))), low)
    return _SHORTHAND_RE.sub(lambda m: _SHORTHAND[m.group(0)], low)


# Place-type words people misspell ("polce distrct 7"): corrected before places are read, so the place is not lost.
PLACE_WORDS = ("district", "districts", "police", "community", "precinct")
_NOT_PLACE_WORDS = frozenset("distinct distinctly distract distracted distracting polite policy policies politics "
                             "communal commodity".split())
_PLACE_WORD_RE = re.compile(r"[a-z]{5,}")


# Two letters swapped ("nroth", "souht") is the commonest typing slip; a ratio of close matches misses it in a short
# word.
_SWAP_TARGETS = PLACE_WORDS + ("north", "south")


def _swapped(word: str) -> str | None:
    """The target ``word`` is with two neighbouring letters swapped back, if it is one."""
    for target in _SWAP_TARGETS:
        if len(target) == len(word) and sorted(target) == sorted(word):
            diff = [i for i, (a, b) in enumerate(zip(word, target)) if a != b]
            if len(diff) == 2 and diff[1] == diff[0] + 1:
                return target
    return None


def correct_place_words(low: str) -> str:
    def fix(m: re.Match) -> str:
        word = m.group(0)
        if word in _SWAP_TARGETS or word in _NOT_PLACE_WORDS:
            return word
        swapped = _swapped(word)
        if swapped:
            return swapped
        close = difflib.get_close_matches(word, PLACE_WORDS, n=1, cutoff=0.85)
        return close[0] if close and close[0][0] == word[0] else word
    return _PLACE_WORD_RE.sub(fix, low)


# ---------------------------------------------------------------- vocabulary

# (metric, domain, pattern). Every pattern is tried; this order is the order of the analysis' metrics list.
# Residents 65 and older, as people say it: "seniors", "old folks", "65 and up", "over 65".
_OLDER = (r"senior\s+citizens|seniors?|elderly|elders|retirees|(?:old|older)\s+(?:residents|people|adults|folks|"
          r"folk|population)|65(?=\s*\+)|65\s*(?:and\s+(?:over|up|older|above)|or\s+(?:older|over|more|above)|plus)|"
          r"(?:over|above)\s+(?:the\s+age\s+of\s+)?65")
METRIC_PATTERNS: list[tuple[str, str, str]] = [
    ("homicides", "homicides",
     r"murder(?:s|ed|ers)?|homicides?|killings?|killed|slain|slayings?|shot\s+dead|shot\s+and\s+killed|"
     r"deadl(?:y|ier|iest)|dangerous|safe(?:st|r|ty)?|violen(?:t|ce)|victims?|blood(?:y|ier|iest)|quietest|calmest|"
     r"lethal|(?<!non-)(?<!non\s)(?<!non)fatal(?:ities)?|shootings?\s+deaths?|bodies|body\s+counts?"),
    ("income", "socioeconomic",
     r"income|incomes|wealth(?:y|iest|ier)?|earnings?|earn|salar(?:y|ies)|rich(?:est|er)?|"
     r"poor(?:est|er)|affluent|money|well[\s-]off|well[\s-]to[\s-]do|prosperous|better[\s-]off|"
     r"worse[\s-]off|(?:make|makes|making)\s+(?:per\s+(?:person|head|capita)|a\s+year|annually)|"
     r"(?:folks|people|residents|families|locals|workers)\s+(?:there\s+)?(?:make|makes|made|making)\b(?!\s+up\b)|"
     r"how\s+much\s+(?:do|does|did)\s+[a-z' ]{2,40}?\s+make\b|"
     r"per[\s-]head\s+income|income\s+per\s+(?:person|head)"),
    ("poverty", "socioeconomic", r"poverty|below\s+(?:the\s+)?poverty|poor\s+households|hard[\s-]up|"
                                 r"cash[\s-]strapped|needy|struggl\w*\s+(?:financially|economically|to\s+get\s+by)"),
    ("unemployment", "socioeconomic", r"(?:16\s*\+\s*)?(?:unemploy(?:ment|ed)|jobless(?:ness)?)|out\s+of\s+work|"
                                      # "unemployment rate (16+, 2008-2012)": the rate's age band in its brackets
                                      r"employment|(?<=\()\s*(?:aged?\s+)?16(?=\s*\+\s*[,)])"),
    ("education", "socioeconomic",
     r"educat(?:ion|ed)|diplomas?|high\s+school|graduat(?:e|es|ion)|dropouts?|schooling|"
     r"(?:adults|aged|people|persons)\s+25(?=\s*(?:\+|and\s+(?:over|older|up)|or\s+older))"),
    ("hardship", "socioeconomic", r"hardship"),
    ("crowding", "socioeconomic", r"crowd(?:ed|ing)|overcrowd(?:ed|ing)?"),
    ("dependency", "socioeconomic", r"dependen(?:cy|t)|under\s+18\s+or\s+over\s+64"),
    ("home_value", "property",
     r"home\s+(?:prices?|values?|costs?)|house\s+(?:prices?|values?)|housing\s+(?:prices?|values?|market|costs?)|"
     r"property\s+values?|propert(?:y|ies)\s+prices?|real\s+estate|zillow|zhvi|expensive|pric(?:ey|ier|iest)|"
     r"costliest|cheap(?:est)?|"
     r"affordab(?:le|ility)|homes?\s+(?:cost|worth)|price\s+of\s+(?:a\s+)?(?:home|house)s?|"
     r"home\s+appreciation|price\s+index|typical\s+(?:home|house|condo|property)s?|"
     r"(?:home|house|condo|property)s?\b[\w\s']{0,25}\bworth|value\s+of\s+(?:a\s+)?(?:home|house)s?|"
     r"(?:homes?|houses?)\s+(?:sell|go)\s+for|pric(?:ey|ier|iest)|"
     r"(?:homes?|houses?|condos?|places?|propert(?:y|ies))\b[\w\s']{0,30}\b(?:going|go|goes|selling|sells?)\s+for|"
     r"buy\s+(?:a\s+)?(?:place|home|house|condo)|set\s+(?:me|you|us|one)\s+back|"
     r"how\s+much\s+(?:is|are|does|do|would|will)\s+(?:a\s+|an\s+)?(?:home|house|condo|apartment|place)s?\b"),
    ("population", "census",
     r"population(?!\s+densit)|populous|(?<!densely\s)populated|inhabitants|share\s+of\s+(?:chicago'?s\s+|the\s+city'?s\s+)?(?:residents|people)|people\s+live|(?:percent(?:age)?|share|proportion|fraction)\s+of\s+chicagoans\s+(?:\([^)]{0,30}\)\s+)?(?:live|living|reside)|live\s+there|how\s+many\s+(?:people\s+(?:live|are\s+there|reside)|residents)|"
     r"number\s+of\s+residents|how\s+many\s+(?:people|folks|persons)\s+(?:\([^)]{0,40}\)\s+)?(?:call|live|reside)|"
     r"call\s+(?:\w+\s+){1,4}home|(?:most|fewest|more|fewer|least)\s+(?:residents|people\s+living)|headcount|"
     # "which area has the most people?": people with nothing done to them are residents.
     r"(?:most|fewest|more|fewer|least)\s+(?:people|folks|persons)(?=\s*(?:[?.,!]|$|in\s+(?:it|them|chicago|the\s+"
     r"city|(?:19|20)\d\d)\b|there\b|(?:back\s+)?(?:in|as\s+of|according\s+to)\s+the\s+(?:\d{4}\s+)?census\b))|"
     # A place that "shrank" or "lost residents" since a census: its population over time.
     r"census|shr[iau]nk(?:ing)?|depopulat\w*|(?:gain|gained|gaining|lose|lost|losing)\s+(?:residents|people|population)"),
    ("race", "census",
     r"race|racial|ethnic(?:ity|ities)?|black|white|hispanic|latino|latinx|asian|demographics?|diversity|diverse"),
    # The census tool estimates a median household income from its bands; "income" alone stays per capita.
    ("median_income", "census", r"median\s+(?:household\s+|family\s+)?incomes?"),
    ("age", "census", r"ages?|aged|children|kids|youth|age\s+groups?|how\s+old|" + _OLDER),
    ("arrests", "homicides", r"arrests?|arrested|clearance|cleared|solved|unsolved"),
    ("domestic", "homicides", r"domestic(?:[\s-]+(?:related|violence))?"),
    ("iucr", "iucr", r"iucr|crime\s+codes?|offen[cs]e\s+codes?"),
    ("police_station", "police_stations",
     r"police\s+stations?|(?:district|cpd)\s+stations?|district\s+\d{1,2}(?:st|nd|rd|th)?\s+stations?|police\s+(?:precincts?|headquarters|hq)|precincts?|"
     r"station\s+address(?:es)?|cop\s+shops?|"
     # "where is the station?" beside a district: a police station (not a gas, train, bus or CTA one)
     r"(?<!gas\s)(?<!train\s)(?<!bus\s)(?<!cta\s)(?<!l\s)(?<!fire\s)(?<!radio\s)stations?(?=\W*$|\s*[-\u2013\u2014:,]|\s+(?:address|located|is|for|in|at|on|sits|stands|lies))|"
     # "the station's community area": the district's station, its area named after it
     r"(?<=the\s)station(?:'s|\u2019s)(?=\s+(?:community\s+)?area)"),
]

# Words naming where a homicide happened -> the data's location_description values: the location dimension's
# declared words.
LOCATIONS: dict[str, str] = dict(LOCATION_WORDS)
LOCATION_GENERIC = r"location\s+types?|where\s+(?:do|did|are|were)\s+(?:most\s+)?(?:homicides|murders|killings)|" \
                   r"(?:kinds?|types?|sorts?)\s+of\s+(?:places?|locations?|settings?|spots?)|locations?"

# A second question joined to the first ("... and how many were domestic?").
SECOND_QUESTION_RE = re.compile(r"\b(?:and|also|plus)\s+(?:how|what|which|where|when|who|is|are|was|were|did|"
                                # "..., and break down the victims by race": a second request
                                r"break|give|show|list|tell|split)\b|\?.+\?",
                                _FLAGS | re.S)

# Census groups whose share can rank areas (the census tool's ``group`` argument).
# How a question says what households take in: "earn", "bring in", "live on", "have an income of".
_HOUSEHOLD_GETS = (r"(?:earn|earning|make|making|bring(?:ing)?\s+in|take\s+home|taking\s+home|live\s+on|living\s+on|"
                   r"get\s+by\s+on|(?:have|having|with)\s+(?:an?\s+)?incomes?\s+(?:of\s+)?)\s*")
CENSUS_GROUPS: list[tuple[str, str]] = [
    # "white non-hispanic" names the Hispanic word but not the Hispanic group: read before it (the later, plain
    # "whites" stays behind "hispanics" in "hispanic and white residents").
    ("white_not_hispanic", r"whites?,?\s+(?:non|not)[\s-]?hispanics?(?:\s+or\s+latino)?|non[\s-]?hispanic\s+whites?"),
    ("black", r"blacks?|african[\s-]americans?"),
    ("hispanic_or_latino", r"hispanics?|latin[oax]s?|latinx"),
    ("white_not_hispanic", r"whites?"),
    ("asian", r"asians?(?:[\s-]americans?)?"),
    ("age_65_plus", _OLDER),
    ("age_0_17", r"children|kids|minors|youth|under\s+18"),
    # a band named by its ages ("young adults (25-34)") before the words another band is also called by
    *((f"age_{a}_{b}", rf"{a}\s*(?:-|–|to)\s*{b}(?:[\s-]+years?[\s-]+olds?|[\s-]+year[\s-]+olds?)?|"
                       rf"{a}[\s-]+to[\s-]+{b}[\s-]+years?[\s-]+olds?") for a, b in
      ((25, 34), (35, 49), (50, 64), (18, 34))),
    ("age_18_24", r"18\s*(?:-|–|to)\s*24(?:[\s-]+years?[\s-]+olds?|[\s-]+year[\s-]+olds?)?|"
                  r"18[\s-]+to[\s-]+24[\s-]+years?[\s-]+olds?|young\s+adults"),
    ("125k_plus", r"high[\s-]income\s+households|\$?125(?:k|,000)\s*(?:\+|or\s+more|and\s+(?:over|up))\s*households|"
                  r"households\s+(?:over|above|of\s+\$?125(?:k|,000)\s*\+?|(?:at|making|earning)\s+\$?125(?:k|,000)\s*\+)"
                  r"(?:\s+\$?125(?:k|,000))?|"
                  r"households\b[\w\s'(),]{0,60}?\b" + _HOUSEHOLD_GETS +
                  r"(?:(?:over|more\s+than|above|at\s+least)\s+\$?125(?:k|,000)?|\$?125(?:k|,000)?(?=\s*\+)|"
                  r"\$?125(?:k|,000)?\s*(?:or\s+(?:more|above|over)|and\s+(?:over|up|above)))"),
    ("under_25k", r"low[\s-]income\s+households|(?:under|less\s+than|below)[\s-]\$?25(?:k|,000)\s+households|"
                  r"households\s+(?:under|below|less\s+than)\s+\$?25(?:k|,000)|"
                  r"households\b[\w\s'(),]{0,60}?\b" + _HOUSEHOLD_GETS +
                  r"(?:(?:under|less\s+than|below)\s+\$?25(?:k|,000)?|\$?25(?:k|,000)?\s+or\s+(?:less|under))"),
]
RANK_DESC = r"most(?!\s+recent)|highest|worst|largest|biggest|greatest|max(?:imum)?|deadliest|richest|wealthiest|" \
            r"most\s+dangerous|most\s+expensive|priciest|costliest|leading(?!\s+up\b)|hardest[\s-]hit|hotspots?|" \
            r"bloodiest|most\s+violent|fastest|strongest"
# "at least" bounds ("at least 10 homicides") or hedges ("at least give the count"): it never ranks
RANK_ASC = r"(?<!\bat\s)least|lowest|fewest|safest|quietest|calmest|smallest|min(?:imum)?|poorest|cheapest|" \
           r"least\s+expensive|slowest|weakest|" \
           r"bottom|best|" \
           r"zero|no\s+(?:homicides|murders|killings)"

# Ordinal and counting words and their numbers: the one table the reading (positions, quarters, weeks, steps of
# years, set sizes, ward numbers and years in words, thresholds written out), the claims check and the answer
# sentences share.
ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
                 "ninth": 9, "tenth": 10}
COUNTING_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                  "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
                  "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS_WORDS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
              "ninety": 90}


# How many groups each quantile word cuts the places into ("the top quartile", "split into quintiles")
# a quantile's name ("quartile") or the fraction of the places it is ("quarter") -> how many groups
QUANTILES = {**{word: n for n, word in QUANTILE_NAMES.items()}, "third": 3, "quarter": 4, "fifth": 5, "tenth": 10}


def counting(high: int, low: int = 1) -> dict[str, int]:
    """The counting words from ``low`` to ``high`` (at most 19)."""
    return {word: n for word, n in COUNTING_WORDS.items() if low <= n <= high}


# The sizes of a set a question writes in words ("the five areas"): the usual ones, not every number.
NUMBER_WORDS = {**counting(10), "twelve": 12, "fifteen": 15, "twenty": 20}
NUM = r"(\d{1,2}|" + "|".join(NUMBER_WORDS) + r")"

INJECTION_RE = re.compile(
    r"ignore\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding)?\s*(?:instructions|prompts?|rules)|"
    r"disregard\s+(?:all\s+|the\s+|your\s+|previous\s+|prior\s+)*(?:instructions|rules|prompt)|"
    r"system\s+prompt|you\s+are\s+now|developer\s+mode|jailbreak|act\s+as\s+(?:an?\s+)?(?:unrestricted|different)|"
    r"reveal\s+(?:your\s+)?(?:prompt|instructions)|<\s*/?\s*(?:script|iframe|img|svg|style)\b|javascript:|"
    r"tool_call|call\s+(?:the\s+|every\s+|all\s+)?tools?\s+\d+\s+times|call\s+(?:every|all)\s+tools?|"
    r"\d+\s+tool\s+calls|rm\s+-rf|drop\s+table|;\s*--|\{\{.*\}\}|__import__|os\.system",
    re.I | re.S)

# SQL-like or instruction fragments removed from the text the analyzer reads (the question keeps them).
INJECTION_STRIP_RE = re.compile(r";?\s*\bdrop\s+table\s+\w+|;\s*--[^\n]*|\bor\s+1\s*=\s*1\b|\bunion\s+select\b",
                                re.I)

# ---------------------------------------------------------------- compiled patterns

YEAR = r"((?:19|20)\d{2})"
METRIC_RES = [(metric, domain, word_re(pattern)) for metric, domain, pattern in METRIC_PATTERNS]


def mentions_after(low: str, start: int, metric_pos: dict) -> list[tuple[int, str]]:
    """(position, metric) of each named measure's first mention at or after ``start``: a measure named again later
    ("share of the city's homicides ... the 10 areas with the most homicides") is ranked where it is named again."""
    return [(m.start(), metric) for metric, _, rx in METRIC_RES if metric in metric_pos
            for m in [rx.search(low, start)] if m]
UNSUPPORTED_RES = [(label, word_re(pattern)) for label, pattern in UNSUPPORTED]
UNSUPPORTED_ANY_RE = re.compile("|".join(r"\b(?:" + p + r")\b" for _, p in UNSUPPORTED), _FLAGS)
RACE_GROUPS = ("black", "hispanic_or_latino", "white_not_hispanic", "asian")
# "residents of Asian descent", "of Hispanic origin": the group, with its word for ancestry.
CENSUS_GROUP_RES = [(group, word_re(f"(?:{pattern})(?:\\s+(?:descent|origin|heritage|ancestry|background))?"
                                    if group in RACE_GROUPS else pattern)) for group, pattern in CENSUS_GROUPS]
# "house prices" names a price, and "street address" an address, not the place a homicide happened.
LOCATION_RE = re.compile(r"\b(" + "|".join(sorted((re.escape(k).replace(r"\ ", r"\s+") for k in LOCATIONS),
                                                    key=len, reverse=True)) + r")s?\b(?![\s-]+(?:prices?|values?|address(?:es)?))"
                         # "the area that houses the district 11 station": the verb, not a place homicides happen
                         r"(?!(?<=\bhouses)\s+(?:the|an?|its|their|police|district)\b)",
                         _FLAGS)
LOCATION_GENERIC_RE = word_re(LOCATION_GENERIC)
# "once you adjust for population": the population is how the rate is made, not a figure asked for.
POPULATION_ADJUSTMENT_RE = re.compile(
    r"\b(?:(?:adjust(?:ed|ing)?|account(?:ed|ing)?|correct(?:ed|ing)?|control(?:led|ling)?|normali[sz](?:ed|ing)?)"
    r"\s+for|relative\s+to|given|scaled\s+(?:by|to)|per)\s+(?:the\s+|their\s+|its\s+)?(?:size\s+of\s+(?:the\s+)?)?"
    r"(?:population|number\s+of\s+(?:people|residents))(?:\s+size)?\b|\bpopulation[\s-]adjusted\b|"
    # "relative to how many people live there", "for how many people live there", "for its size"
    r"\b(?:relative\s+to|compared\s+(?:to|with)|considering|given|for)\s+how\s+many\s+(?:people|residents|folks)\s+"
    r"(?:live|lived|living|reside)\s+(?:there|in\s+it|in\s+them)\b|\bfor\s+(?:its|their)\s+size\b", _FLAGS)
# "out of every 100k Chicagoans" and "for each 100,000 people" ask for a rate just as "per 100k" does.
PER_CAPITA_RE = re.compile(r"\bper[\s-]capita\b(?![\s-]+income)|\bper\s+(?:100\s*k|100,?000|1,?000|person|"
                           r"resident|head)\b|\b(?:every|each)\s+(?:100\s*k|100,?000|hundred\s+thousand|1,?000|"
                           r"thousand)\b|\brates?\b|" + POPULATION_ADJUSTMENT_RE.pattern, _FLAGS)
PER_CAPITA_INCOME_RE = re.compile(r"\bper[\s-]capita[\s-]+incomes?\b", _FLAGS)
TREND_RE = re.compile(r"\btrends?\b|\bchang(?:e|ed|es|ing)\b|\bover\s+time\b|\bincreas(?:e|ed|es|ing)\b|"
                      r"\bdecreas(?:e|ed|es|ing)\b|\b(?:go|gone|went)\s+(?:up|down)\b|\brise\b|\brisen\b|"
                      r"\brose\b|(?<!the\s)(?<!in\s)\bfall(?:en|s)?\b(?!\s+(?:of\s+)?(?:19|20)\d\d\b|\s+on\b)|\bfell\b(?!\s+on\b)|\bdrop(?:ped)?\b(?!\s+(?:any|those|the\s+ones|them|it|all|every|areas?|neighbou?rhoods?)\b)|\bdeclin(?:e|ed|es|ing)\b|\bgrow(?:n|th)?\b|\bgrew\b|\bgain(?:s|ed)?\b|"
                      r"\b(?:jump(?:s|ed)?|spike[sd]?|surge[sd]?|climb(?:s|ed)?|plunge[sd]?|soar(?:s|ed)?)\b|"
                      r"\bappreciat\w*|\byear\s+over\s+year\b|\bevolv\w*|\bcompared?\s+(?:to|with)\s+"
                      + YEAR, _FLAGS)
# ("the 2024 index (yearly average)": how a year's figure is made from its quarters, not a row a year)
BY_YEAR_RE = re.compile(r"\b(?:by|per|each|every)\s+year\b|\b(?:yearly|annual)\b(?!\s+(?:averages?|avgs?|means?)\b)|"
                        r"\bannually\b|\beach\s+year\b|"
                        r"\byear\s+by\s+year\b", _FLAGS)
BY_WEEKDAY_RE = re.compile(r"\bdays?\s+of\s+(?:the\s+)?week\b|\bweekdays?\b|\bweekends?\b|\bwhich\s+day\b|"
                           r"\bwhat\s+day\b|\b(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\b",
                           _FLAGS)
BY_HOUR_RE = re.compile(r"\btimes?\s+of\s+(?:the\s+)?day\b|\bwhat\s+time\b|\bwhich\s+(?:clock\s+)?hours?\b|\bhours?\s+of\s+"
                        r"(?:the\s+)?day\b|\bby\s+hour\b|\bhourly\b|\b(?:at|during\s+the)\s+night\b|"
                        r"\bnight\s*time\b|\blate\s+at\s+night\b|\bovernight\b", _FLAGS)
BY_MONTH_RE = re.compile(r"\b(?:worst|deadliest|bloodiest|busiest|peak|best|quietest)\s+(?:single\s+|calendar\s+)?month\b|"
                         r"\b(?:by|per|each|every)\s+month\b|\ba\s+month\b(?!\s+(?:ago|earlier|later|before|after))|\bmonthly\b|\b(?:which|what)\s+(?:single\s+|one\s+|calendar\s+)?months?\b|\bseason\w*|"
                         r"\bsummer\b|\bwinter\b", _FLAGS)
# ("domestic-related", "gang-related" name a kind of homicide: no correlation; "corr" and "spearman" are one)
CORRELATION_RE = re.compile(r"\bcorr?ell?at\w*(?:\s+coefficients?)?|\bcorr\b|\bspearman'?s?\b|\br[\s-]?values?\b|"
                            r"\br\s+between\b|\bpearson'?s?\b|\brelationship\b|(?<!-)\brelated\b|\blink(?:ed)?\b|\bassociat\w*|"
                            r"\bconnection\b|\bconnected\b|\bpredict\w*|\bexplain\w*\s+by\b|\b(?:does|do|did)\b[^?]{1,60}\btrack\b", _FLAGS)
# "the biggest jump vs the month before", "month-over-month", "over the previous year": each row of a time grain
# against the row before it (the typed query's "step"); the grain is the first group that matched
STEP_RE = re.compile(r"\b(month|year|quarter)[\s-]+(?:over|on|to)[\s-]+(?:month|year|quarter)\b|"
                     r"\b(?:than|over|vs\.?|versus|from|on|compared\s+(?:to|with)|relative\s+to)\s+(?:the\s+)?"
                     r"(?:(month|year|quarter)\s+before|(?:previous|prior|preceding)\s+(month|year|quarter))\b", _FLAGS)
# "Do poorer neighbourhoods have more homicides?" contrasts kinds of areas: a correlation question.
GROUP_CONTRAST_RE = re.compile(
    r"\b(?:poorer|richer|wealthier|more\s+affluent|low[\s-]income|high[\s-]income|higher[\s-]poverty|"
    r"lower[\s-]income|higher[\s-]income|disadvantaged|less\s+educated)\s+(?:neighbou?rhoods|areas|communities|"
    r"community\s+areas|places|parts\s+of\s+(?:the\s+)?city)\b", _FLAGS)
# "Was last year any worse than 2019?", "was 2020 bloodier than 2019": a comparative with "than" compares too.
COMPARE_RE = re.compile(r"\bcompar\w*|\bvs\.?\b|\bversus\b|\bdifference\s+between\b|\bagainst\b|"
                        r"\bhigher\s+than\b|\blower\s+than\b|\bmore\s+than\b|\bfewer\s+than\b|\bless\s+than\b|"
                        r"\b(?!(?:other|rather)\b)(?:worse|better|\w{3,}ier|\w{3,}er)\s+than\b", _FLAGS)
# Measures where more is better: "best" ranks them from the top (for homicides, poverty or hardship, from the bottom).
HIGHER_IS_BETTER = ("arrests", "income")
RANK_DESC_RE = word_re(RANK_DESC)
RANK_ASC_RE = word_re(RANK_ASC)
# A ranking word that carries its own metric: "safest" ranks by homicides whatever else is named.
RANK_WORD_METRIC = [
    (re.compile(r"safe|deadl|dangerous|violent|blood|quiet|calm", re.I), "homicides"),
    (re.compile(r"rich|wealth|poor", re.I), "income"),
    (re.compile(r"cheap|expensive|pric(?:ey|ier|iest)|costliest", re.I), "home_value"),
]
# "the first six months" is a stretch of time, not a top six.
TOP_N_RE = re.compile(r"\b(?:top|bottom|first|worst|best)\s+" + NUM + r"\b(?!\s+(?:months?|weeks?|days?|years?|quarters?))|"
                      r"\b" + NUM +
                      r"\s+(?:most|least|highest|lowest|safest|deadliest|richest|poorest|wealthiest|"
                      r"cheapest|fewest|biggest|largest|smallest|worst|best|priciest|costliest|densest|areas|"
                      r"fastest(?:[\s-](?:growing|shrinking))?|slowest(?:[\s-](?:growing|shrinking))?|"
                      r"neighbou?rhoods|"
                      r"communit(?:y|ies)|community\s+areas|wards|districts|(?:police\s+)?beats)\b", _FLAGS)
HEADQUARTERS_RE = re.compile(r"\b(?:police|cpd|department(?:'s)?)\s+(?:headquarters|hq|head\s+office)\b|"
                             r"\b(?:headquarters|hq)\s+of\s+the\s+(?:chicago\s+)?police\b", _FLAGS)

# A place's rank asked for as the figure ("where does Austin rank", "Austin's rank (1 = highest)").
RANK_ASKED_RE = re.compile(r"\bwhere\s+(?:does|do|did|would)\b[^?.]{0,80}?\b(?:rank\b|(?:stand|place)s?\s+"
                           r"(?:among|out\s+of|of\s+the|in\s+the\s+(?:city|ranking)))|"
                           r"\b(?:what|which)\s+(?:is\s+|was\s+)?(?:its|their|the)?\s*rank\b|\b[a-z0-9]+['’]s\s+rank\b|"
                           r"\brank(?:ed|s)?\s+(?:among|out\s+of)\b", _FLAGS)
# What an index is relative to ("(2000 Q1 = 100)", "2000Q1 as the base"): no quarter or year asked.
INDEX_BASE_RE = re.compile(r"\b(?:base(?:d)?\s*(?:on|at|:)?\s*)?(?:19|20)\d\d\s*[-\s]?q[1-4]\s*=\s*100\b|"
                           r"\b(?:19|20)\d\d\s*[-\s]?q[1-4]\s+(?:is|as|=)\s+(?:the\s+)?base\b", _FLAGS)
# A rate's population basis stated, as the convention is ("2010 census population for 2013, 2019-2023 ACS for 2017",
# "2010 census pop through 2015, ACS after"): which population each year's rate uses, no year or population asked.
_BASIS_YEARS = r"(?:(?:19|20)\d\d(?:\s*[-\u2013]\s*(?:19|20)?\d\d)?|later\s+years|the\s+rest|after(?:wards)?|" \
               r"(?:each|every|all)\s+(?:the\s+)?years?|all\s+of\s+them|the\s+whole\s+(?:span|period))"
RATE_BASIS_RE = re.compile(r"\b(?:the\s+)?(?:2010\s+census|census\s+2010)\s+(?:pop(?:ulation)?s?\.?\s+)?"
                           r"(?:for|through|thru|until|up\s+to|before|in)\s+" + _BASIS_YEARS + r"|"
                           r"\b(?:the\s+)?(?:(?:2019\s*[-\u2013]\s*(?:20)?23\s+)?acs|2019\s*[-\u2013]\s*(?:20)?23)"
                           r"(?:\s+pop(?:ulation)?s?)?\s+(?:for|after|from|since)(?:\s+" + _BASIS_YEARS + r")?|"
                           # "(2015 uses 2010 census population, 2021 uses the ACS)": each year's basis after it
                           r"\b(?:uses|using|with|on)\s+(?:the\s+)?(?:2010\s+census|census\s+2010|(?:2019\s*[-\u2013]\s*"
                           r"(?:20)?23\s+)?acs)(?:\s+pop(?:ulation)?s?)?(?=\s*[,;)]|\s+(?:and|for)\b)", _FLAGS)

_BASIS_ASIDE_RE = re.compile(r"\(\s*(?:using\s+|on\s+|with\s+)?(?:the\s+)?(?:2010\s+census|census\s+2010)\s+"
                             r"pop(?:ulation)?s?\.?\s*\)", _FLAGS)


_QUOTED_RE = re.compile(r"(?<![\w'\u2019])['\u2018\u2019]([a-z0-9][^'\u2018\u2019\n]{1,60}?)['\u2019](?![\w'\u2019])", _FLAGS)
_OF_QUARTERS_RE = re.compile(r"(\b(?:averages?|means?|averaged))\s+(?:of|over|across)\s+(?:(?:the|its|their|all(?:\s+the)?)\s+)?"
                             r"(?:four\s+|4\s+)?(?:quarters|"
                             r"quarterly\s+(?:values|figures|readings))\b", _FLAGS)


# An example inside brackets ("(24h clock, e.g. 21 = 9pm-9:59pm)"): it shows the form of the answer, asks nothing
# ... and the clock hours are read on ("24h clock"): how the hour is written, not a time asked
# ("i.e. the 19 highest-income areas" defines what is asked, so it is read)
_EXAMPLE_RE = re.compile(r"\b(?:e\.\s?g\.?|eg\.|for\s+(?:example|instance))[,:]?\s+[^()]{1,60}(?=\))|"
                         r"\b(?:on\s+(?:a|the)\s+)?24[\s-]?(?:h|hr|hour)s?\s+(?:clock|time|format)\b|"
                         # "which clock hour (0-23)": the form the hour is answered in
                         r"(?<=hour\s)\(\s*0\s*[-\u2013]\s*23\s*\)|"
                         # "(through its end in July 2023)": where the data ends, said, not a month asked
                         r"\b(?:through|to|until|till)\s+(?:its\s+end|the\s+end\s+of\s+the\s+data|the\s+data'?s\s+end)\b"
                         r"(?:\s+(?:in|on)\s+[a-z]+\.?\s+(?:\d{1,2},?\s+)?(?:19|20)\d\d)?|"
                         # "(data runs to July 19)", "the data ends july 19, 2023": where the rows end, said
                         r"\b(?:the\s+)?data\s+(?:only\s+)?(?:runs?|goes|ends?|stops?)\s+(?:(?:up\s+)?(?:to|through|thru|"
                         r"until|till|at|on|in)\s+)?" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+(?:19|20)\d\d)?|"
                         # "(negative if West Englewood had fewer)": the sign's meaning, the answer's form
                         r"\b(?:negative|positive)\s+(?:if|when|means|=)\s+[^()]{1,60}(?=\))", _FLAGS)
_DEFINED_RE = re.compile(r"\(\s*(?:where\s+)?([a-z]{4,})\s*(?:=|:=|means|is\s+defined\s+as)\s*[^()]{3,80}\)", _FLAGS)
# "(share of the five income bands)": what an income band's share is of, the convention; read (its words name the
# household income) but asking nothing more
BAND_BASE_RE = re.compile(r"\b(?:(?:as\s+a\s+)?(?:share|percent(?:age)?)\s+of\s+|(?:pooled\s+)?over\s+)?"
                          r"(?:the\s+|all\s+)?(?:five|5)\s+(?:household\s+)?income\s+bands\b", _FLAGS)


_MONTH_NAME = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
               r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
# "from March 2020 to May 2020": one year's months, its year written twice (read as "from March to May 2020")
_SAME_YEAR_SPAN_RE = re.compile(r"\b" + _MONTH_NAME + r"\s+((?:19|20)\d\d)(?=\s*(?:to|through|thru|until|till|-|\u2013)\s*"
                                + _MONTH_NAME + r"\s+\1\b)", _FLAGS)
# Words of a change between two times (one table: analyzer/times.py reads a change named before a date with it)
CHANGE_WORDS = (r"change[ds]?|rise|rose|fall|fell|drop(?:ped)?|increase[ds]?|decrease[ds]?|grow|grew|growth|"
                r"decline[ds]?|difference")
_CHANGE_WORD_RE = re.compile(rf"\b(?:{CHANGE_WORDS}|compare[ds]?|vs\.?|versus)\b", _FLAGS)


def _one_years_months(low: str) -> str:
    if _CHANGE_WORD_RE.search(low):
        return low  # "the change from January 2019 to March 2019": two ends, not the months between
    return _SAME_YEAR_SPAN_RE.sub(lambda m: m.group(0)[:m.start(1) - m.start()] + " " * len(m.group(1)), low)


# "a police district station (22 districts, HQ not counted)", "how many district stations are there (not counting
# HQ)": which stations count, asking for nothing
_STATIONS_COUNTED_RE = re.compile(r"(?<=station)(?:s?[^()?.]{0,40}?)(\([^()]{0,40}\b(?:hq|headquarters)\b[^()]{0,30}\))",
                                  _FLAGS)


def without_conventions(low: str) -> str:
    """The question with the conventions it states blanked (an index's base, the rates' population basis, an example
    of the answer's form): they ask for nothing, so no reader reads them and no word of them is left unused. Lengths
    are kept (spans hold)."""
    low = INDEX_BASE_RE.sub(lambda m: " " * len(m.group(0)), low)
    # "its 'change since 2000'": quotation marks around a phrase quote a name; the words are read, not the marks
    low = _QUOTED_RE.sub(lambda m: " " + m.group(1) + " ", low)
    low = _EXAMPLE_RE.sub(lambda m: " " * len(m.group(0)), low)
    # "homicides per 1,000 households (households = 2019-23 ACS income-band total)": a word named before defined
    low = _DEFINED_RE.sub(lambda m: " " * len(m.group(0)) if re.search(rf"\b{re.escape(m.group(1))}\b", low[:m.start()])
                          else m.group(0), low)
    low = _one_years_months(low)
    low = _STATIONS_COUNTED_RE.sub(lambda m: m.group(0)[:m.start(1) - m.start()] + " " * len(m.group(1)), low)
    # "annual averages of the quarters": how a year of a quarterly index is made, no quarter asked
    low = _OF_QUARTERS_RE.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), low)
    if re.search(r"\brates?\b|\bper\s+(?:100|capita)", low, re.I):
        low = RATE_BASIS_RE.sub(lambda m: " " * len(m.group(0)), low)
        aside = _BASIS_ASIDE_RE.search(low)
        # "rate in 2015 (2010 census population)": the basis the convention already uses for 2015 and before, so
        # nothing asked; beside a later year the 2010 is left to be read (that rate is not the convention's)
        rest = low[:aside.start()] + " " * len(aside.group(0)) + low[aside.end():] if aside else low
        # (the ACS's own span names a source, no year)
        held = re.sub(r"\b2019\s*[-\u2013]\s*(?:20)?23\s+acs\b|\bacs\s+2019\s*[-\u2013]\s*(?:20)?23\b", " ", rest)
        if aside and all(int(y) <= 2015 for y in re.findall(r"\b(?:19|20)\d\d\b", held)):
            low = rest
    return low


# A share asked for as the figure ("what share of their homicides", "what percent", "as a percentage").
SHARE_ASKED_RE = re.compile(r"\b(?:what|which)\s+(?:share|percent(?:age)?|pct|proportion|fraction|%)|"
                            r"\b(?:what|which)\s+per\s*cent\b|\bin\s+percent(?:age)?\b|"
                            r"\bas\s+an?\s+(?:share|percent(?:age)?|proportion)\b|"
                            # "Share of homicides in an AUTO: 2012 vs 2022?": the share named as the question's head
                            r"(?:^|[:;?]\s*)(?:the\s+)?(?:share|percent(?:age)?|proportion|fraction)\s+of\b", _FLAGS)
# A share of the whole city asked for, the city named ("what share of Chicago's 2016 homicides happened in
# Englewood", "what percent of all the murders in the city were in Austin").
_KILLINGS = r"(?:homicides|murders|killings|deaths)"
SHARE_OF_CITY_RE = re.compile(
    r"\b(?:share|percent(?:age)?|per\s+cent|proportion|fraction|portion|%)\s+of\s+(?:all\s+(?:of\s+)?)?(?:"
    r"chicago['’]?s|chicago\s+(?=(?:\d{4}\s+)?" + _KILLINGS + r")|the\s+city['’]?s|(?:the\s+)?city[\s-]?wide|"
    r"(?:the\s+)?city\s+total|"
    r"all\s+(?:the\s+)?(?:\d{4}\s+)?" + _KILLINGS + r"|(?:the\s+)?(?:\d{4}\s+)?" + _KILLINGS +
    r"\s+(?:in|across)\s+(?:all\s+of\s+)?(?:chicago|the\s+(?:whole\s+|entire\s+)?city))", _FLAGS)
# A ratio or a gap between two figures ("how many times higher than the city", "what's the gap").
TIMES_RE = re.compile(r"\bhow\s+many\s+times\b|\btimes\s+(?:as\s+(?:many|high|much|large|big)|more|higher|greater|"
                      r"bigger|larger)\b|\bratio\b|\bmultiple\s+of\b", _FLAGS)
GAP_RE = re.compile(r"\bgaps?\b|\bdifferences?\b|"
                    r"\bhow\s+(?:much|many)\s+(?:(?:index\s+|percentage\s+)?points?\s+|dollars\s+|"
                    r"(?:places|spots|positions|ranks|notches)\s+)?"
                    r"(?:more|higher|lower|less|fewer|bigger|greater|smaller|above|below)\b"
                    r"(?:\s+or\s+(?:more|higher|lower|less|fewer|bigger|greater|smaller|above|below)\b)?|\bexceeds?\b|\bexceeded\b|\bby\s+how\s+(?:much|many)\b|\bhow\s+far\s+(?:above|below|apart|ahead|behind)\b|"
                    r"\bmargin\b", _FLAGS)
# The latest figure asked beside a year's ("what was it in 2010, and what is it now").
NOW_RE = re.compile(r"\b(?:now|today|currently|these\s+days|at\s+present|presently|nowadays|right\s+now|"
                    r"(?:the\s+)?(?:latest|newest|most\s+recent|current)\s+(?:[\w']+\s+)?(?:value|figure|month|data|number|one|"
                    r"price|"
                    r"reading|estimates?|census|survey|count)|in\s+the\s+latest\s+data)\b", _FLAGS)
# Several places counted as one ("Englewood and West Englewood combined").
PLACES_TOGETHER_RE = re.compile(r"\b(?:combined|together|taken\s+together|altogether|put\s+together|jointly|"
                                r"between\s+(?:them|the\s+two|both)|as\s+a\s+(?:whole|group))\b", _FLAGS)

# A place in a ranking other than the first: "the second-deadliest district", "the 3rd highest poverty rate",
# "the runner-up". Group 1 is the position's word, or "runner".
def ordinals(high: int = 10, low: int = 1) -> dict[str, int]:
    """Ordinals from ``low`` to ``high`` in words and in digits: {"first": 1, "1st": 1, ...}."""
    return {**{word: n for word, n in ORDINAL_WORDS.items() if low <= n <= high},
            **{ordinal(n): n for n in range(low, high + 1)}}


def alternation(words) -> str:
    """A regex alternation of words, longest first (so "tenth" is tried before "ten")."""
    return "|".join(sorted(words, key=len, reverse=True))


_POSITIONS = {**ordinals(10, low=2), "runner": 2}
RANK_POSITION_RE = re.compile(r"\b(" + "|".join(k for k in _POSITIONS if k != "runner") +
                              r")[\s-]+(?=(?:most|least|highest|lowest|largest|biggest|fewest|worst|best|\w{3,}est)\b)|"
                              r"\b(runner)[\s-]+up\b|"
                              # "came in third for the most", "ranked third in", "was 2nd on the list"
                              r"\b(?:came|come|comes|coming|finished|finish|ranked|ranks|rank|placed|place|was|is|were|"
                              r"sits?|landed)\s+(?:in\s+|at\s+)?(?:number\s+)?(" +
                              "|".join(k for k in _POSITIONS if k != "runner") +
                              r")\b(?!\s+(?:ward|district|area|community|street|avenue|ave|st)\b)", _FLAGS)


def rank_position(text: str) -> int:
    """The place in a ranking the question asks for (1 when it names none)."""
    match = RANK_POSITION_RE.search(text)
    return _POSITIONS[next(g for g in match.groups() if g).lower()] if match else 1


WHICH_RE = re.compile(r"\b(?:which|what|where)\b.{0,40}?\b(?:area|neighbou?rhood|community|part|ward|district|"
                      r"place|zip|month|year|location)s?\b", _FLAGS | re.S)
# "deadliest", "second-safest", "most violent" (not "latest", "southwest" or "interest").
_SUPERLATIVE = r"(?!(?:latest|interest|honest|modest|forest|(?!lowest\b)\w*west)\b)(?:[\w-]*\w{3}est|most\s+\w+|worst|least\s+\w+)"
_KIND_WITH = (r"(?:\bthe\s+|^\W*)(?:(?:full|whole|complete|calendar)\s+)?{}\s+(?:with|w/|that\s+(?:had|has|saw)|having)\s+"
              r"(?:the\s+)?(?:[\w-]+\s+|\w+-)?"
              r"(?:most|fewest|least|highest|lowest|more|fewer|\w+est)\b")
GROUP_WORDS = [
    # "the single deadliest day in the data (most victims on one date)": calendar dates ranked, not days of the week
    ("date", re.compile(r"\bsingle\s+(?:deadliest|worst|bloodiest|most\s+violent|most\s+lethal)\s+(?:day|date)\b|"
                        r"\b(?:deadliest|worst|bloodiest|most\s+violent)\s+(?:single\s+)?(?:date|calendar\s+day)\b|"
                        r"\b(?:which|what)\s+(?:single\s+)?(?:date|calendar\s+day)\b|\bon\s+(?:one|a\s+single)\s+"
                        r"(?:date|day)\b", _FLAGS)),
    ("location_type", re.compile(r"\b(?:(?:common|frequent|typical|usual)\s+(?:places|locations|settings)|"
                                 r"(?:types?|kinds?|sorts?)\s+of\s+(?:places?|locations?|settings?|spots?)|"
                                 r"location\s+types?|"
                                 r"where\s+(?:do|did|does)\s+(?:most\s+(?:of\s+)?(?:the\s+)?)?(?:domestic\s+)?"
                                 r"(?:homicides|murders|killings)\s+(?:happen|occur|take\s+place))\b", _FLAGS)),
    ("community_area", re.compile(r"\b(?:community\s+areas?|neighbou?rhoods?|areas|communities|by\s+area|"
                                  r"which\s+area|what\s+area|which\s+part|what\s+part|parts\s+of|"
                                  r"where\s+in\s+(?:the\s+)?(?:city|chicago|town))\b", _FLAGS)),
    # "the second-deadliest police district", "the most violent ward": a superlative before the kind ranks it.
    ("ward", re.compile(r"\b(?:which|whichever|what|by|each|per|every|the)\s+wards?\b|\bwards\b|"
                        r"\b" + _SUPERLATIVE + r"\s+wards?\b|" + _KIND_WITH.format("wards?"), _FLAGS)),
    # "which police beat", "the beats with the most": beats only as a kind of place (a beat cop is no beat)
    ("beat", re.compile(r"\bpolice\s+beats?\b|\b(?:which|whichever|what|by|each|per|every)\s+beats?\b|\bbeats\b(?!\s+"
                        r"(?:cops?|officers?))|\b" + _SUPERLATIVE + r"\s+beats?\b", _FLAGS)),
    ("district", re.compile(r"\b(?:which|whichever|what|by|each|per|every|the)\s+(?:police\s+)?districts?\b|"
                            r"\b(?:police\s+)?districts\b|\b" + _SUPERLATIVE + r"\s+(?:police\s+)?districts?\b|"
                            + _KIND_WITH.format(r"(?:police\s+)?districts?"), _FLAGS)),
    # "the cheapest zip code", "which zips": ZIPs ranked (their own home values); "zip 60614" names one.
    ("zip", re.compile(r"\b(?:which|whichever|what|by|each|per|every)\s+(?:chicago\s+)?zip(?:\s*codes?)?(?:'s)?\b|\bzip\s*codes\b|"
                       r"\bzips\b|\b(?:" + _SUPERLATIVE + r"|cheapest|priciest|costliest|most\s+expensive|least\s+expensive)"
                       r"\s+(?:chicago\s+)?zip(?:\s*codes?)?\b|" + _KIND_WITH.format(r"zip(?:\s*codes?)?") +
                       # "the lowest home value zip": a superlative, its measure's words, then the kind
                       r"|\b(?:" + _SUPERLATIVE + r"|cheapest|priciest)\s+(?:(?!in\b|of\b|for\b|at\b|and\b|by\b)"
                       r"[\w-]+\s+){1,3}zip(?:\s*codes?)?\b(?!\s*\d)", _FLAGS)),
    # "the arrest rate for domestic homicides compared to non-domestic ones": the two kinds side by side
    ("domestic", re.compile(r"\bdomestic\b.{0,40}?\b(?:vs\.?|versus|compared\s+(?:to|with)|against|and|or|with)\s+"
                            r"(?:for\s+)?(?:the\s+|those\s+)?(?:non[\s-]?domestic|other|all\s+other)\b|\bnon[\s-]?domestic\b.{0,40}?"
                            r"\b(?:vs\.?|versus|compared\s+(?:to|with)|against|and|or)\s+(?:the\s+)?domestic\b|"
                            r"\bdomestic\s+or\s+not\b|\bby\s+domestic\b", _FLAGS)),
    # "the month with the second most homicides": the kind, then what ranks it
    # "how many months of 2021 had more than 70": months counted, each month a row
    ("month", re.compile(BY_MONTH_RE.pattern + r"|\bhow\s+many\s+(?:calendar\s+)?months\b(?!\s+(?:ago|since|of\s+data))|"
                         r"\b(?:which|what)\s+calendar\s+months?\b|\b" + _SUPERLATIVE + r"\s+months?\b|" + _KIND_WITH.format("months?"),
                         _FLAGS)),
    ("year", re.compile(r"\b(?:which|what)\s+(?:(?:full|whole|complete|calendar|single)\s+)?years?\b|"
                        r"\bhow\s+many\s+(?:(?:full|whole|complete|calendar)\s+)?years\b(?!\s+(?:ago|since|of\s+data))|\b(?:deadliest|worst|safest|best|bloodiest|most\s+violent|"
                        r"least\s+(?:deadly|violent|bloody))\s+(?:(?:full|whole|complete|calendar)\s+)?years?\b|" +
                        BY_YEAR_RE.pattern + "|" + _KIND_WITH.format("years?"), _FLAGS)),
]
CITYWIDE_RE = re.compile(r"\b(?:chicago|city[\s-]?wide|the\s+city|whole\s+city|all\s+of\s+chicago)\b", _FLAGS)
# The city named as a whole beside a place ("and the citywide rate", "vs the whole city"), not "Chicago Lawn" or
# "Chicago's Austin neighborhood".
CITY_AS_A_WHOLE_RE = re.compile(r"\b(?:city[\s-]?wide|the\s+(?:whole\s+|entire\s+)?city|all\s+of\s+chicago|"
                                r"chicago\s+(?:as\s+a\s+whole|overall)|(?:the\s+)?(?:whole|entire)\s+city)\b", _FLAGS)
