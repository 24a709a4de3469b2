"""Which words of a question the analyzer's reading used, and which it could not use.

Every word is either filler (the words any question is made of: "how many", "were there", "in the"), part of
something the analyzer recognises (a place, a year, a month, a subject, a ranking, a grouping: the same
vocabulary it reads with), or not used. Words not used are reported as phrases, so that an answer can say
"I could not use 'between 9pm and 5am'" instead of answering a question that was not asked.

A word of negation or exclusion ("not", "except", "outside", "other than") is never filler: it changes what is
asked, so it counts as used only when the reading recorded what it negates (``consumed``).
"""
from __future__ import annotations

import difflib
import re

from analyzer import lexicon as lx
from analyzer import places as pl
from analyzer import years as yr
from analyzer.analysis import LAYER_MEASURES
from analyzer.districts import STATION_SET_RE
from analyzer.times import DAY_RUN_RE, WEEKDAY_NAME_RE
from semantic.reading import words_re

# The words any question is made of. Kept general (English function words, question words, generic verbs and
# nouns of asking), never a question's own wording: a word missing here is reported, which is the safe side.
FILLER = frozenset("""
a an the this that these those there here it its it's they them their theirs we us our you your i me my he she
his her who whom whose which what whats what's when where why how whats how's hows
is are was were be been being am do does did done doing have has had having will would shall should can could
may might must ought
and or nor but so yet if then than as of in on at by for to from into onto with within about over under up down
off out through during before after between among across per via upon toward towards since until till
all any some each every both either much many more most few lots lot plenty several such own same
very really just only even also too quite rather pretty actually basically exactly roughly approximately around
nearly almost overall altogether total totals whole entire add adds added adding sum summed combined together inside
running cumulative cumulatively
separately separate individually respectively pooled pool span still using use
tell show give list find know get got see look let want need wondering wonder curious like love please thanks
thank hi hello hey ok okay pls plz kindly could would
happen happened happens happening occur occurred occurs occurring take took taken make made record recorded fell
usual usually normally typically standard convention common commonest frequent frequently
report reported reports count counted counting number numbers figure figures stats statistics stat data info
dataset datasets account accounted accounts raw head headcount group groups flagged flag flags marked
file files full series assigned assign mapped consider considering
information amount amounts level levels value values
people persons person folks ppl individuals residents resident inhabitants lives life souls victims
chicago chicago's chi city city's town chitown windy community communities neighborhood neighborhoods
neighbourhood neighbourhoods area areas place places part parts side region spot spots
year years yr yrs time times period
one ones thing things stuff kind kinds type types sort
i'm im i've ive i'd id i'll you're youre we're they're there's theres that's thats it'll what're who's whos
isnt arent wasnt werent dont didnt doesnt cant can't wont won't
see saw seen sees seeing live lives lived living go goes going gone went come came comes coming stand stands
call calls called say says said mean means meant think thinking thought try trying wanna gonna gotta
buy buying bought move moving moved moves end ended ends lead led leads lost lose losing bring brought
turn turned keep kept put seem seems seemed feel felt stack stacks stacked compare compared comparing
name names named rank ranked ranking rate rated score scored question questions quick q
yo hmm um uh rn btw fyi lol real talk honestly seriously anyway anyways fr ngl
good bad around nowadays days day these today back once often somebody someone anybody anyone everybody
died die dies dying cases case incidents incident chicagoans chiraq cpd looking looks look wise heavily home adults likely
whole gotten ups body toll hot spot spots line code codes involve involved involves involving according
latest current currently recent recently ever plus compute computed computing calculate calculated calculating
holds hold held contains contain contained hosts host hosted houses housed while whilst
""".split())

# Words that name the form of a figure ("what share", "the hardship index", "a percentage"): used whenever the
# reading has a subject to put them on (the tools give shares, rates and indexes with their figures).
FORM_WORDS = frozenset("""share shares percent percentage percentages pct proportion proportion fraction ratio rate
rates index score scores terms breakdown makeup make-up composition mix split distribution typical portion %
household households points""".split())

# Words that negate or exclude: used only when the reading recorded what they negate.
NEGATIONS = frozenset("""not no non without except excluding exclude excludes excluded outside besides apart aside
never neither nor isn't aren't wasn't weren't don't didn't doesn't nobody none beyond other""".split())

# Prepositions that open a phrase the answer should quote whole ("between 9pm and 5am", "after midnight").
_OPENERS = frozenset("between from after before during at on in since until till around near by except excluding "
                     "outside without not no other than".split())

# Words, numbers with their units ("9pm", "$125k", "2,000", "'21"), contractions; a hyphen splits ("grown-ups").
_TOKEN_RE = re.compile(r"['’]?[a-z0-9$][a-z0-9'’$%]*(?:[.,:][0-9]+)*[a-z%]*|%")

# The analyzer's own vocabulary, as compiled patterns (a span any of them matches is a recognised word).
_VOCABULARY: list[re.Pattern] = [
    *(pattern for _, _, pattern in lx.METRIC_RES), *(words_re(name) for name in LAYER_MEASURES),
    *(pattern for _, pattern in lx.UNSUPPORTED_RES),
    *(pattern for _, pattern in lx.CENSUS_GROUP_RES), *(pattern for _, pattern in lx.GROUP_WORDS),
    *(pattern for pattern, _ in lx.RANK_WORD_METRIC),
    lx.LOCATION_RE, lx.LOCATION_GENERIC_RE, lx.POPULATION_ADJUSTMENT_RE, lx.PER_CAPITA_RE, lx.PER_CAPITA_INCOME_RE,
    lx.TREND_RE, lx.BY_YEAR_RE, lx.BY_WEEKDAY_RE, WEEKDAY_NAME_RE, DAY_RUN_RE, lx.BY_HOUR_RE, lx.BY_MONTH_RE, lx.CORRELATION_RE,
    lx.GROUP_CONTRAST_RE, lx.COMPARE_RE, lx.RANK_DESC_RE, lx.RANK_ASC_RE, lx.RANK_POSITION_RE, lx.TOP_N_RE, lx.SHARE_OF_CITY_RE, lx.PLACES_TOGETHER_RE, lx.WHICH_RE, lx.CITYWIDE_RE,
    lx.TIMES_RE, lx.GAP_RE, STATION_SET_RE,
    *yr.VOCABULARY, *pl.VOCABULARY,
    # "the 2024 index (yearly average)": how a year's figure is made from its quarters or months
    re.compile(r"\b(?:yearly|annual)\s+(?:averages?|avgs?|means?)\b"),
    # "just those 2 years", "both years": the years already named, not a count.
    re.compile(r"\b(?:just\s+|only\s+)?(?:those|these|the|both)\s+(?:2|3|4|5|two|three|four|five)\s+years\b"),
    # "how many did those five have combined": the set named before, pointed at ("the one of those five with the
    # most" ranks within the set, which is not read)
    re.compile(r"(?<!\bof\s)\b(?:those|these)\s+(?:two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\b"),
    # "Chicago homicides in 2016 minus Austin - what's left?", "across every year you've got": asking, not a subject.
    re.compile(r"\bwhat(?:'s|’s|\s+is|\s+was)\s+(?:left|remaining)\b|\bwhat\s+remains\b|\b(?:are|is)\s+left\b|"
               r"\b(?:you've|you\s+have|you'?ve|ya)\s+got\b"),
    # "if you can't do the rate at least give the count": a hedge on what to show, not a bound
    re.compile(r"\bat\s+least\b(?=\s+(?:give|show|tell|list|say|get|send)\b)"),
    # "(ACS pop)", "2019-23 ACS pop": the population a rate divides by, as the rates' convention has it
    re.compile(r"\b(?:acs|census)(?:\s+(?:19|20)\d\d(?:\s*[-\u2013]\s*(?:19|20)?\d\d)?)?\s+pop(?:ulation)?s?\b"),
    # "the gaps (area minus city)": the sign of a gap to the city, which the answer's gap already has
    re.compile(r"\b(?:area|place|neighbou?rhood|community|it)\s+minus\s+(?:the\s+)?(?:city|chicago|citywide)\b"),
    # "how many died that month": the month (year, day) the question's ranking finds, named again.
    re.compile(r"\b(?:that|this)\s+(?:month|year|day|week)\b"),
    # "and break down the victims by race": a way of asking for a breakdown
    re.compile(r"\bbreak\s+(?:it\s+|them\s+|that\s+|those\s+)?down\b"),
    # "what does that work out to per 100,000": a way of asking for the figure, not employment.
    re.compile(r"\b(?:works?|worked|working)\s+out\b"),
    # "Englewood lies in which submarket", "the quarterly values" (a year's index is the mean of its quarters:
    # lexicon._OF_QUARTERS_RE blanks "the mean of the four quarters")
    re.compile(r"\b(?:lies|lie|lying|sits|falls?)\s+(?:in|within|inside)\s+which\b|"
               r"\bquarterly\s+(?:values?|figures?|numbers?|readings?|index(?:es)?)\b"),
    # "the 90-day period ending Oct 31 2019": a window named by its last day (the day is read as a date); "% change"
    re.compile(r"\bending\s+(?:on\s+)?(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d)\w+\.?|"
               r"%\s*change\b|\bpercent(?:age)?\s+change\b|"
               r"\b(?:rolling\s+)?(?:window|period|stretch)\s+ending\b|"
               # "the 90 days ending 2019-09-30": Redfin's own window, named by its length (the date is read)
               r"\b(?:90|ninety)[\s-]days?\s+(?:rolling\s+)?(?:window\s+|period\s+)?ending\b|"
               # "vs the same stretch of 2022": the days asked, in another year
               r"\b(?:the\s+)?same\s+(?:stretch|period|span|window|days|dates)\b"),
    # "the areas whose main IHS submarket is ...": the submarket an area lies mostly in
    re.compile(r"\bmain\s+(?:ihs\s+)?(?:price[\s-]index\s+)?submarket\b"),
    # "after the housing crash", "before the bubble burst": the time the years asked stand for, said in words
    re.compile(r"\b(?:the\s+)?(?:housing|market|real\s+estate|mortgage)\s+(?:crash|bust|collapse|bubble|crisis)\b"),
    # Zillow's typical home value is the middle tier's: a fair reading of a median home price (not of an income).
    re.compile(r"\bmedian\s+(?:home|house|housing|property|sale|condo)s?\s*(?:values?|prices?|costs?)?\b"),
]


FILLER_LONG = tuple(w for w in FILLER if len(w) >= 5)

# Comparatives: used when the reading compares, ranks or follows a trend.
COMPARATIVES = frozenset("""higher lower more less fewer bigger smaller larger better worse cheaper pricier safer
deadlier richer poorer greater""".split())
AVERAGE_WORDS = frozenset("average averages averaged avg mean".split())
# Words of rising and falling: used when the reading follows a change over time.
CHANGE_WORDS = frozenset("climb climbed climbing rise rose risen rising grow grew grown jump jumped fall fell fallen "
                         "drop dropped go went gone up down shift shifted spike spiked spikes surge surged plunge "
                         "plunged soar soared big large steep sharp bounce bounced rebound rebounded recover "
                         "recovered negative positive".split())
HOME_WORDS = frozenset("worth homes houses house buy cost costs price prices priced pricey zip zips zipcode crosswalk overlap "
                       "crosswalk-weighted weighted mapped zillow zillow's zhvi estimated estimate".split())
PER_CAPITA_WORDS = frozenset("relative size adjusted adjust adjusting population-adjusted".split())


def context_words(metrics: list, comparing: bool, several_years: bool, per_capita: bool = False,
                  changing: bool = False) -> frozenset:
    """Words whose use depends on what else the reading holds: a figure's form needs a subject, a comparative needs
    a comparison, "average" needs a figure that is an average (per capita income, a typical home value) or a
    period the tools average per year."""
    words = set()
    if metrics:
        words |= FORM_WORDS
    if comparing:
        words |= COMPARATIVES
    if {"income", "home_value", "price_trend"} & set(metrics) or ("homicides" in metrics and several_years):
        words |= AVERAGE_WORDS
    if changing or comparing:
        words |= CHANGE_WORDS
    if per_capita:
        words |= PER_CAPITA_WORDS
    if "arrests" in metrics:  # "how often did police make an arrest"
        words |= {"police", "make", "made", "making"}
    if "crowding" in metrics:  # "where is housing the most overcrowded, going by the census indicators"
        words |= {"housing", "indicators", "indicator"}
    if {"home_value", "price_trend"} & set(metrics):
        words |= HOME_WORDS
    if "correlation" in metrics:  # "give me the r", "Pearson r"
        words |= {"r", "coefficient", "high", "low", "faster", "slower", "higher", "lower"}
    if {"population_density", "homicide_density"} & set(metrics):  # "(ACS pop / land area)", "per sq mile": how the density is made
        words |= {"pop", "land", "area", "square", "sq", "mile", "mi", "miles"}
    if "ward_offices_in_area" in metrics:  # "how many aldermanic ward offices have a 60630 ZIP code"
        words |= {"aldermanic", "ward", "wards", "zip", "code"}
    if {"police_station", "district_stations"} & set(metrics):
        words |= {"address", "addresses", "street", "located", "location", "phone", "contact", "website", "sits",
                  "stands", "lies"}
    return frozenset(words)


def unused_phrases(low: str, recognised: list[tuple[int, int]], consumed: list[tuple[int, int]] = (),
                   allowed: frozenset = frozenset()) -> list[str]:
    """The phrases of ``low`` (the lower-cased question) that nothing recognised and that are not filler, in order.
    ``recognised``: spans the analyzer used (places, codes); ``consumed``: negations it recorded; ``allowed``: the
    words the reading's context uses (``context_words``)."""
    tokens = list(_TOKEN_RE.finditer(low))
    candidates = [m for m in tokens if not _plain_filler(m.group(), allowed)]
    spans = list(recognised) + list(consumed)
    if candidates:
        for pattern in _VOCABULARY:
            spans += [m.span() for m in pattern.finditer(low) if m.end() > m.start()]
    flagged = [_is_unused(m, spans, consumed, allowed) for m in tokens]
    if any(flagged):  # overlapping matches cost more: only for the words still unread
        for pattern in _VOCABULARY:
            spans += _all_spans(pattern, low)
        flagged = [f and _is_unused(m, spans, consumed, allowed) for m, f in zip(tokens, flagged)]
    return _phrases(tokens, flagged)


def _plain_filler(word: str, allowed: frozenset) -> bool:
    return word not in NEGATIONS and (word in FILLER or word in allowed)


def _all_spans(pattern: re.Pattern, low: str) -> list[tuple[int, int]]:
    """Every match, overlapping ones too: "what day of the week" holds both "what day" and "day of the week"."""
    out, pos = [], 0
    while (m := pattern.search(low, pos)) is not None:
        if m.end() > m.start():
            out.append(m.span())
        pos = m.start() + 1
    return out


def _is_unused(m: re.Match, spans: list, consumed, allowed: frozenset) -> bool:
    word = m.group()
    if word in NEGATIONS:
        return not _inside(m.span(), consumed)
    core = re.sub(r"['’]s$", "", word)  # "2020's killings"
    if core in FILLER or core in allowed or _inside((m.start(), m.start() + len(core)), spans):
        return False
    if len(core) >= 5 and difflib.get_close_matches(core, FILLER_LONG, n=1, cutoff=0.85):
        return False  # a misspelled filler word ("numbr")
    # A misspelled topic word ("homocides") is read as the word it is close to (analyzer/lexicon.py).
    return lx.correct_spelling(word) == word


def _inside(span: tuple, spans) -> bool:
    return any(s <= span[0] and span[1] <= e for s, e in spans)


_NUMBERED = frozenset("ward wards district districts area areas zip".split())


def _with_context(tokens: list, flagged: list[bool], end: int) -> int:
    """A lone modifier is quoted with the word it modifies ("median income", not "median"), and a place type with
    its number ("excluding ward 3")."""
    nxt = end + 1
    if nxt < len(tokens) and not flagged[nxt] and tokens[nxt].group() not in FILLER and \
            not (tokens[end].group() in NEGATIONS and nxt != end + 1):
        if sum(flagged[max(0, end - 1):end + 1]) == 1 or tokens[end].group() in NEGATIONS:
            end = nxt
    if tokens[end].group() in _NUMBERED and end + 1 < len(tokens) and tokens[end + 1].group().isdigit():
        end += 1
    return end


def _phrases(tokens: list, flagged: list[bool]) -> list[str]:
    """Flagged tokens joined into phrases: neighbours (with filler between them) form one phrase, and a phrase takes
    the opener before it ("between 9pm and 5am") and, after a negation, the word it negates ("not domestic")."""
    out, i = [], 0
    while i < len(tokens):
        if not flagged[i]:
            i += 1
            continue
        start = i
        if start > 0 and tokens[start - 1].group() in _OPENERS:
            start -= 1
        end = i
        while True:
            nxt = end + 1
            if nxt < len(tokens) and flagged[nxt]:
                end = nxt
            elif nxt + 1 < len(tokens) and flagged[nxt + 1] and tokens[nxt].group() in ("and", "or", "to", "through",
                                                                                         "thru", "-", "&", "than"):
                end = nxt + 1
            elif tokens[end].group() in NEGATIONS and nxt < len(tokens):
                end = nxt  # "not" alone says nothing: quote what it negates
            else:
                break
        end = _with_context(tokens, flagged, end)
        low = tokens[start].string
        out.append(low[tokens[start].start():tokens[end].end()])
        i = end + 1
    return list(dict.fromkeys(out))
