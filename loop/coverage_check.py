"""Coverage checked on what was computed, not on what was read: every year and number the question names lands in a
call that ran or in the answer, a share asked is given, and every call the reading needs ran; or the answer's lead
says what it could not use.

The reading can recognise a year and still put it in no field of any call: "yearly counts 2019, 2020, 2021 and 2022
for the five poorest areas" computed the areas' 2008-2012 homicides; "the 2019-22 homicide rate" computed 2019's;
"in how many years did ward 28 have at least 40" gave the span's total. The words were read, so no word was left
unused, and the answer gave a figure for another question without saying so. This check runs after the answer is
written, on the calls that ran and the lead: a year or number no call's arguments or results hold and the lead does
not name, a share the lead does not give, is named in the lead ("I could not use '2019-22'") and in the reading's
not-used list, so the answer is never silently about other years, another threshold or counts for a share.

A survey's span ("2019-2023 ACS", "poverty (2008-2012)", the layer's snapshot vintages) and a census year ("the 2010
census") name a measure's source, not a period; years the data does not hold are declined by the reading itself.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from analyzer.lexicon import COUNTING_WORDS, RANK_ASKED_RE, SHARE_ASKED_RE, TENS_WORDS, without_conventions
from analyzer.notes import not_used_note
from analyzer.years import ACS_VINTAGE_RE, SOCIO_VINTAGE_RE
from semantic.catalog import catalog

# A year, or a span written with a dash ("2019-22", "2010–2015"), or an apostrophe year ("'21"). Spans joined by
# "to"/"between" are left as two years: "from 2010 to 2015" is as often a change between two years as a span.
_UNIT_RE = re.compile(r"(?<![\d$,.])((?:19|20)\d\d)(?:\s*[-\u2013]\s*((?:19|20)?\d\d))?(?![\d%]|,\d|['’]?s\b)"
                      r"|(?<![\w'’])['’](\d\d)\b")
_CENSUS_RE = re.compile(r"\b(?:19|20)\d0\s+(?:decennial\s+)?census\b|\bcensus(?:\s+of)?\s+(?:19|20)\d0\b", re.I)
_YEAR_IN_TEXT = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
# ("2010 -47,977" is a year beside a negative number, not a span)
_SPAN_IN_TEXT = re.compile(r"(?<!\d)((?:19|20)\d\d)\s*[-\u2013]\s*((?:19|20)\d\d|\d\d)(?!\d|[.,]\d)")
# Words that join listed years into one phrase ("2019, 2020, 2021 and 2022").
_JOINER_RE = re.compile(r"^\s*(?:,|and|&|or|,\s*and|,\s*or)\s*$", re.I)


def _units(question: str) -> list[tuple[int, int, list[int]]]:
    """(start, end, years) for each year or dashed span the question writes, outside a survey's or census's name."""
    sources = [m.span() for r in (ACS_VINTAGE_RE, SOCIO_VINTAGE_RE, _CENSUS_RE) for m in r.finditer(question)]
    vintages = _vintages()
    units = []
    for m in _UNIT_RE.finditer(question):
        if any(a <= m.start() < b for a, b in sources):
            continue
        if m.group(3):
            years = [2000 + int(m.group(3))]
        else:
            first = int(m.group(1))
            last = m.group(2)
            last = int(last) if last and len(last) == 4 else (first // 100 * 100 + int(last)) if last else first
            years = list(range(first, last + 1)) if first <= last <= first + 40 else [first]
            if len(years) > 1 and (first, last) in vintages:  # "poverty (2008-12)": a snapshot's own span
                continue
        units.append((m.start(), m.end(), years))
    return units


@functools.lru_cache(maxsize=1)
def _vintages() -> frozenset:
    """The spans the layer's snapshot datasets declare as their vintage ((2008, 2012), (2019, 2023)): written in a
    question, they name the source, not a period to count over."""
    spans = set()
    for dataset in catalog().datasets.values():
        found = re.match(r"((?:19|20)\d\d)\s*[-\u2013]\s*((?:19|20)\d\d)\b", str(dataset.vintage or "").strip())
        if found and dataset.time == "snapshot":
            spans.add((int(found.group(1)), int(found.group(2))))
    return frozenset(spans)


def _years_in(value, into: set[int]) -> None:
    """Every year a call's arguments hold: numbers and dates anywhere, and each year of a start/end pair."""
    if isinstance(value, dict):
        for key, item in value.items():
            _years_in(item, into)
            first = _year_of(item) if "start" in key or "since" in key else None
            if first is None:
                continue
            later = key.replace("start", "end") if "start" in key else None
            if later in value:
                last = _year_of(value[later])
                into.update(range(first, last + 1) if last and last >= first else [])
            else:  # an open start ("since 2010") runs to the data's end
                into.update(range(first, 2100))
    elif isinstance(value, (list, tuple)):
        for item in value:
            _years_in(item, into)
    elif isinstance(value, bool):
        return
    elif isinstance(value, int) and 1900 <= value <= 2099:
        into.add(value)
    elif isinstance(value, str):
        into.update(int(y) for y in _YEAR_IN_TEXT.findall(value))


def _year_of(value) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    found = _YEAR_IN_TEXT.search(str(value))
    return int(found.group(1)) if found else None


def computed_years(calls, lead: str = "") -> set[int]:
    """The years the calls that ran were about (their arguments' years and spans, the years their results name: a
    series' rows, a tool's default period said in its text), and the years the answer's lead itself names (a year
    it declines: "a 2022 figure is not available, as the indicators are one 2008-2012 snapshot")."""
    years: set[int] = set()
    for call in calls:
        if call.status != "ok" or call.result is None or not call.result.ok:
            continue
        _years_in(call.arguments or {}, years)
        years |= _years_written(call.result.text or "")
    return years | _years_written(lead)


def _years_written(text: str) -> set[int]:
    """The years a text names, each year of a dashed span among them ("2008-2012"); "from 2010 to 2015" is two years
    (a change between them, as often as the span)."""
    years = {int(y) for y in _YEAR_IN_TEXT.findall(text)}
    for m in _SPAN_IN_TEXT.finditer(text):
        first, last = int(m.group(1)), int(m.group(2))
        last = last if last >= 100 else first // 100 * 100 + last
        if (first, last) not in _vintages():  # "ACS 2019-2023" names a survey: its years are not computed ones
            years.update(range(first, last + 1) if first <= last <= first + 40 else [])
    return years


def uncovered_years(question: str, analysis, calls, lead: str = "") -> list[str]:
    """The question's own phrases for the years it names that no call computed and the answer does not name,
    adjacent ones joined ("2019, 2020, 2021 and 2022"); empty when every named year was computed or said."""
    named = set(analysis.years) | {y for p in analysis.periods for y in range(p.start, p.end + 1)}
    skipped = set(analysis.out_of_range_years) | set(analysis.left_out_years)
    done = computed_years(calls, lead)
    missing = [(a, b) for a, b, years in _units(question)
               if set(years) & named and set(years) - skipped - done]
    phrases: list[list[int]] = []
    for a, b in missing:
        if phrases and _JOINER_RE.match(question[phrases[-1][1]:a]):
            phrases[-1][1] = b
        else:
            phrases.append([a, b])
    return [question[a:b] for a, b in phrases]


def check_coverage(state) -> None:
    """After the answer is written: the years and numbers it neither computed nor names, and a share it does not
    give, join the reading's not-used words, and its lead says it could not use them (one sentence with any words it
    already said it could not use); where the call limit left some of the reading's calls unrun, the lead says the
    answer covers only part of the question."""
    answer, analysis = state.answer or "", state.analysis
    lead, rest = (answer.split("\n\n", 1) + [""])[:2]
    if analysis is None or analysis.error or not lead.strip() or not any(c.status == "ok" for c in state.calls):
        return
    if state.calls_left_out:  # "the 10 richest areas", one call an area: the limit answered only some of them
        lead = lead.rstrip() + (f" I could not make every call this question needs (at most {state.max_calls} a "
                                "question), so the answer covers only part of it.")
        state.answer = lead + ("\n\n" + rest if rest else "")
    lead = _said_after_all(analysis, lead)
    state.answer = lead + ("\n\n" + rest if rest else "")
    missing = coverage_gaps(state.question, analysis, state.calls, lead)
    if not missing:
        return
    before = not_used_note(analysis.not_used) if analysis.not_used else None
    analysis.not_used = [*analysis.not_used, *missing]
    note = not_used_note(analysis.not_used)
    lead = lead.replace(before, note) if before and before in lead else lead.rstrip() + " " + note
    state.answer = lead + ("\n\n" + rest if rest else "")


def coverage_gaps(question: str, analysis, calls, lead: str) -> list[str]:
    """The question's phrases (years, numbers, a share, a rank, a source) that neither the calls nor the lead account
    for, beyond the words the reading already could not use."""
    found = uncovered_years(question, analysis, calls, lead) + uncovered_numbers(question, analysis, calls, lead) + \
        uncovered_figures(question, lead) + uncovered_sources(question, calls, lead)
    return [p for p in dict.fromkeys(found) if not any(p in w for w in analysis.not_used)]


def _said_after_all(analysis, lead: str) -> str:
    """Words the reading could not place that the answer names itself ("district 11 (Harrison)": the answer says
    "the district name is Harrison"): accounted for, so they leave the not-used list and its sentence."""
    if not analysis.not_used:
        return lead
    note = not_used_note(analysis.not_used)
    body = lead.replace(note, " ").lower()
    said = [p for p in analysis.not_used if re.search(r"(?<![\w.])" + re.escape(p.lower()) + r"(?!\w|[.,]\d)", body)]
    if not said or note not in lead:
        return lead
    analysis.not_used = [p for p in analysis.not_used if p not in said]
    if analysis.not_used:
        return lead.replace(note, not_used_note(analysis.not_used))
    return lead.replace(" " + note, "").replace(note, "").strip()


# A day of the month beside its month ("June 30, 2019", "30 June") is a date, not a figure.
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b")
# A number the question writes: a threshold ("over $300k", "at least 40", "above 30%"), a set's size ("the 10
# areas"), a count ("the 12 monthly prices"). Years, ZIP codes, clock times, ordinals and place numbers are not.
_NUMBER_RE = re.compile(r"(?<![\w.,'’/-])(\$\s?)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s?(k|m|million|thousand|"
                        r"grand|%|percent|pct)\b|(?=\W|$))(?!\s*(?:am|pm|a\.m|p\.m)\b|[:.]\d|[-\u2013/]\d|"
                        r"\s*(?:st|nd|rd|th)\b|\s*=|\s*\+|,\d|\s+(?:and|or)\s+(?:over|older|up|above)\b|\s*-?\s*(?:(?:full|complete|whole|calendar|straight|consecutive)\s+)?"
                        r"(?:years?|yrs?|months?|days?|weeks?|quarters?|hours?|decimals?|digits?)\b|"
                        r",?\s+" + _MONTH + r")", re.I)
_PLACE_NUMBER_RE = re.compile(r"(?:ward|district|area|beat|zip|zipcode|code|q|quarter|#|no\.?|number|per|aged?|ages|"
                              r"station|index|=|top-|bottom-|" + _MONTH + r"\.?)\s*$", re.I)
_WHOLE_CITY = {77: r"community\s+areas|areas|neighbou?rhoods", 50: r"wards", 22: r"(?:police\s+)?districts"}
_COMPARATOR_RE = re.compile(r"(?:(?:more|less|fewer|greater|higher|lower|bigger|smaller)\s+than|at\s+(?:least|most)|"
                            r"over|under|above|below|top|bottom|exceed(?:s|ing)?|>=?|<=?)\s*$", re.I)
_SCALE = {"k": 1e3, "thousand": 1e3, "grand": 1e3, "m": 1e6, "million": 1e6}


def _numbers_named(question: str, analysis) -> list[tuple[int, int, float]]:
    """(start, end, value) for each number the question writes as a figure to compute with."""
    out = []
    for m in _NUMBER_RE.finditer(question):
        digits, unit = m.group(2).replace(",", ""), (m.group(3) or "").lower()
        value = float(digits) * _SCALE.get(unit, 1)
        before, after = question[max(0, m.start() - 25):m.start()], question[m.end():m.end() + 30]
        if analysis is not None and analysis.hour_spans and value <= 24:
            continue  # "9 to 5": the hours the reading took as a span of the day
        if analysis is not None and len(digits) == 2 and 2000 + value in analysis.years:
            continue  # "homicides in 21": the year the reading took it for
        if (len(digits) == 4 and "," not in m.group(2) and not m.group(1) and not unit and 1900 <= value <= 2099) \
                or (len(digits) == 5 and digits.startswith("60")) or _PLACE_NUMBER_RE.search(before) \
                or any(value == n and re.match(r"\s+(?:of\s+the\s+|chicago\W?s\s+)?(?:" + w + r")\b", after, re.I)
                       for n, w in _WHOLE_CITY.items()) or value in (100000, 100e3):
            continue
        comparator = _COMPARATOR_RE.search(before)
        out.append((comparator.start() + max(0, m.start() - 25) if comparator else m.start(), m.end(), value))
    return out


def question_numbers(question: str) -> set[float]:
    """Every number the question writes, in digits ("30", "$300k", "2.5%") or words ("ten", "forty")."""
    found = _numbers_written(question)
    found |= {float(n) for word, n in {**COUNTING_WORDS, **TENS_WORDS}.items()
              if re.search(rf"\b{word}\b", question, re.I)}
    return found


def _numbers_in(value, into: set[float]) -> None:
    if isinstance(value, dict):
        for item in value.values():
            _numbers_in(item, into)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _numbers_in(item, into)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        into.add(float(value))
    elif isinstance(value, str):
        into |= _numbers_written(value)


def _numbers_written(text: str) -> set[float]:
    found = set()
    for m in re.finditer(r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k|m|million|thousand)?\b", text, re.I):
        found.add(float(m.group(1).replace(",", "")) * _SCALE.get((m.group(2) or "").lower(), 1))
    return found


def _matches(value: float, known: set[float]) -> bool:
    """The question's number among the computed ones: itself, the step beside it ("at least 40" is "more than 39"),
    or as a fraction ("30%" is 0.3)."""
    return any(abs(k - v) < 1e-6 * max(1.0, abs(v)) for k in known
               for v in (value, value - 1, value + 1, value / 100))


def uncovered_numbers(question: str, analysis, calls, lead: str = "") -> list[str]:
    """The question's phrases for the numbers no call's arguments hold and the answer's lead does not say."""
    known = _numbers_written(lead)
    for call in calls:
        if call.status == "ok":
            _numbers_in(call.arguments or {}, known)
    return [question[a:b] for a, b, value in _numbers_named(question, analysis) if not _matches(value, known)]


# A rank or position given as a figure ("rank 15 of 77", "21st lowest", "#3", "has the highest"): the word "rank"
# alone is not one (a 0.5B answer echoed "Austin's rank ... is 67.8 homicides per square mile").
_RANK_GIVEN_RE = re.compile(r"\brank(?:ed|s)?\s+(?:no\.?\s*|#\s?|number\s+)?\d+|\b\d+(?:st|nd|rd|th)\b|#\s?\d+|"
                            r"(?<![\d,.])\d+\s+(?:out\s+)?of\s+(?:the\s+)?\d+\b(?![,.]\d)|\b(?:has|had|is|was)\s+the\s+(?:highest|lowest|"
                            r"most|fewest|largest|smallest)\b", re.I)
_SHARE_RE = re.compile(SHARE_ASKED_RE.pattern + r"|\b[a-z]+['’]s\s+share\s+of\b|\bwhat\s+%", re.I)
_COUNTED = r"(?:community\s+areas|areas|neighbou?rhoods|wards|(?:police\s+)?districts|zips|zip\s+codes|years|months)"


@dataclass(frozen=True)
class Figure:
    """A kind of figure a question can ask for beyond a measure's value (a share, a rank, a streak, a gap): the
    words that ask for it, what shows it was given in an answer's lead, and the parts of a typed query that compute
    it. One row a kind: the check below and the model's query check read the same table."""
    asked: re.Pattern
    given: re.Pattern
    computed: tuple[str, ...]


def _re(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.I)


# Each row was a confident answer to a nearer question once: "the percent change from December 2020 to December
# 2022" answered with the months' counts; "the longest streak of years homicides went up" with the years' counts;
# "on average how many killings per year did they have combined" with the span's total; "in how many years did
# Edison Park have zero" with its quietest year. The lead then names the words it could not compute.
FIGURES = (
    # "the percent change", "by what percent did it rise" -> a signed figure, or a change word beside the figures
    Figure(_re(r"(?:\b(?:percent(?:age)?|pct)|%)\s+change\b|\bby\s+what\s+percent(?:age)?\b|\bhow\s+much\s+"
               r"(?:did|has|have)\b[^?.]{0,60}\b(?:rise|fall|grow|drop|change|increase|decrease|climb)\b"),
           _re(r"(?<![\w.])[+\u2212-]\d|\b(?:changes?|changed|rise|rose|risen|drop(?:ped)?|fell|fall|increase[ds]?|"
               r"decrease[ds]?|grew|growth|gain(?:ed)?|declined?|lower|higher|up|down)\b"),
           ('"change"', '"pct_change"')),
    # "how many times more", "the ratio of" -> "2.1 times", "a ratio of", "x2.1"
    Figure(_re(r"\bhow\s+many\s+times\b|\bratio\b|\bwhat\s+multiple\b"),
           _re(r"\btimes\b|\bratio\b|\u00d7|(?<![\w.])x\s?\d"), ('"ratio"', '"groups"')),
    Figure(RANK_ASKED_RE, _RANK_GIVEN_RE, ('"rank"', '"order_by"')),
    Figure(_SHARE_RE, _re(r"\d\s?%"), ('"percent_of"', '"share_of_total"', "count_share", "share_of_city")),
    Figure(_re(r"\bstreaks?\b|\bin\s+a\s+row\b|\bconsecutive\b|\bback[\s-]to[\s-]back\b|\bstraight\s+(?:years|months)"),
           _re(r"\bstreaks?\b|\bin\s+a\s+row\b|\bconsecutive\b|\bstraight\b|\bruns?\b|\brunning\b"), ('"run"',)),
    # ("average" alone often names the measure itself: "the average income per person" is per capita income)
    Figure(_re(r"\bon\s+average\b|\bavg\b|\baverage\s+(?:per(?!\s+capita)|a|each|yearly|annual|monthly)\b|"
               r"\b(?:yearly|annual|monthly)\s+average\b|\b(?:their|its)\s+(?:average|mean)\b"),
           # (a rate over years is a yearly average, and a year's index value the average of its quarters)
           _re(r"\baverage|\bmean\b|\bavg\b|\ba\s+(?:year|month)\b|\bper\s+(?:year|month|area)\b|"
               r"\bper\s+100,?000\b|\bhomicide\s+rates?\b|\bprice\s+index\b"),
           ('"mean"', "average")),
    # "how far above the city's rate", "the gap between" -> a difference, a multiple or a comparison word
    Figure(_re(r"\bhow\s+(?:far|much)\s+(?:above|below|higher|lower|more|less|bigger|smaller|ahead|behind)\b|"
               r"\b(?:gap|difference)\s+(?:between|from|to|with|versus|vs)\b"),
           _re(r"\b(?:above|below|higher|lower|more|less|fewer|bigger|smaller|ahead|behind|gap|difference|times|range|"
               r"spread)\b|"
               r"(?<![\w.])[+\u2212-]\d"), ('"difference"', '"change"', '"ratio"', '"vs_city"', '"groups"')),
    Figure(_re(r"\bmedian\b"), _re(r"\bmedian\b"), ('"median"',)),
    Figure(_re(r"\bcorr?ell?at\w*|\bpearson\b|\bspearman\b|\br[\s-]?values?\b|\bcoefficient\b"),
           _re(r"\bcorrelat\w*|\bpearson\b|\bspearman\b|\bcoefficient\b|(?<![\w.])r\s*=|\brho\b"), ('"correlate"',)),
    # "how many community areas had more ...", "in how many years" -> a count of the places or years
    Figure(_re(r"\bhow\s+many\s+(?:(?:of\s+(?:the|its|their|those)\s+)?(?:\d+\s+|\w+\s+)?)" + _COUNTED + r"\b"),
           _re(r"(?<![\d.,])\d[\d,]*\s+(?:of\s+(?:the|its|their)\s+\d+\s+)?(?:[\w-]+\s+){0,3}" + _COUNTED +
               r"|\b(?:no|none\s+of\s+the|every|each\s+of\s+the|all)\s+(?:\d+\s+)?(?:[\w-]+\s+){0,2}" + _COUNTED +
               r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|a\s+single)\s+(?:[\w-]+\s+){0,2}(?:" +
               r"community\s+areas?|areas?|wards?|districts?|years?|months?)\b"),
           ('"having"', '"run"', '"count"')),
)


# A lead that already declines (a subject, a place or a period the data lacks) has said what it could not compute.
_DECLINED_RE = re.compile(r"\bI\s+could\s+not\s+answer\b|\bdoes\s+not\s+(?:include|cover)\b|"
                          r"\bcannot\s+(?:answer|give)\b")


# The arrest rate every homicide count carries ("the arrest rate was 36.5%") gives no share the question asked,
# unless arrests are what it asks about.
_ARREST_RATE_RE = re.compile(r"\barrest\s+rate\s+(?:was\s+|of\s+)?\d+(?:\.\d+)?%", re.I)
_ARRESTS_ASKED_RE = re.compile(r"\barrest|\bsolved|\bclear(?:ed|ance)|\bcharged", re.I)


def uncovered_figures(question: str, lead: str) -> list[str]:
    """The question's words asking for a kind of figure (``FIGURES``) the lead does not give."""
    if not lead.strip() or _DECLINED_RE.search(lead):
        return []
    if not _ARRESTS_ASKED_RE.search(question):
        lead = _ARREST_RATE_RE.sub(" ", lead)
    found = [f.asked.search(question) for f in FIGURES if not f.given.search(lead)]
    return [m.group(0) for m in found if m]


def uncovered_sources(question: str, calls, lead: str) -> list[str]:
    """A source the question names by its own word ("Zillow", "Redfin", "IHS": the layer's dataset words) that no call
    read and the lead does not name: "the IHS index change vs Englewood's own Zillow value change" answered the index
    alone, and nothing said the Zillow half was missing."""
    read = {source.get("key") for call in calls if call.status == "ok" and call.result is not None
            for source in call.result.sources or []}
    low, said = question.lower(), lead.lower()
    by_word: dict[str, set] = {}
    for dataset in catalog().datasets.values():
        if all(m.agg == "attribute" for m in dataset.measures):
            continue  # "via the ZIP crosswalk" names how figures are carried, not a figure of its own
        for word in dataset.words:
            by_word.setdefault(word.lower(), set()).add(dataset.source)
    missing = []
    for word, sources in by_word.items():
        found = re.search(r"\b" + re.escape(word) + r"\b", low)
        if found and not sources & read and word not in said:
            missing.append(question[found.start():found.end()])
    return missing


def addresses(gap: str, query: dict) -> bool:
    """Whether a typed query computes the part of a question one gap phrase names: its years in a period, its number in
    a bound, its source's measures, a share or a rank among its fields."""
    text = json.dumps(query)
    measures = {str(m if isinstance(m, str) else m.get("measure")) for m in _all_measures(query)}
    cat = catalog()
    named = {d.source for d in cat.datasets.values() for w in d.words if w.lower() == gap.lower()}
    if named:
        return any(m in cat.measures and cat.datasets[cat.measures[m].dataset].source in named for m in measures)
    years = [y for _, _, span in _units(gap) for y in span]
    if years:
        return all(str(y) in text for y in years)
    numbers = [value for _, _, value in _numbers_named(gap, None)]
    if numbers:
        known: set[float] = set()
        _numbers_in(query, known)
        return all(_matches(v, known) for v in numbers)
    for figure in FIGURES:
        if figure.asked.search(gap):
            return any(part in text for part in figure.computed) or (figure.asked is _SHARE_RE and any(
                m in cat.measures and cat.measures[m].unit == "percent" for m in measures))
    return False


# Words too common to tie a query to a phrase ("the homicide rate per year" names a rate, not "per" or "year").
_PLAIN_WORDS = frozenset("the and for per with from that this what which how many much were was are its their there "
                         "year years area areas".split())


_NONE_RE = re.compile(r"\b(?:free|zero|none|no|without)\b", re.I)


def uses_words(phrase: str, query: dict) -> bool:
    """Whether a query takes up a phrase the reading could not use: ``addresses`` does (a year, a number, a source, a
    share, a rank), or one of its words names a measure, a grouping or a member the query holds. "Another reading"
    under the words left out is shown only for such a query: asked "second-degree murders in 2019", the 0.5B model's
    arrest-rate change by area was shown as another reading of a question nobody asked."""
    if addresses(phrase, query):
        return True
    if _NONE_RE.search(phrase) and any(h.get("value") in (0, 1) for q in queries_in(query)
                                       for h in q.get("having") or [] if isinstance(h, dict)):
        return True  # "murder-free" is a bound at zero
    words = {w[:5] for w in re.findall(r"[a-z]{3,}", phrase.lower()) if w not in _PLAIN_WORDS}
    if not words:
        return False
    cat = catalog()
    named = _strings_in(query)
    for text in list(named):
        thing = cat.measures.get(text) or cat.dimensions.get(text)
        if thing is not None:
            named += [thing.label, *thing.words]
    held = {w[:5] for text in named for w in re.findall(r"[a-z]{3,}", str(text).lower().replace("_", " "))}
    return bool(words & held)


def queries_in(query) -> list[dict]:
    """A query and every query inside it (members_from, and each compared set)."""
    if not isinstance(query, dict):
        return []
    return [query, *queries_in(query.get("members_from")),
            *[g for g in query.get("groups") or [] if isinstance(g, dict)]]


def _strings_in(value) -> list[str]:
    """Every text of a query: its measures, dimensions, members and fields."""
    if isinstance(value, dict):
        return [t for item in value.values() for t in _strings_in(item)]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _strings_in(item)]
    return [value] if isinstance(value, str) else []


def _all_measures(query) -> list:
    """The measures of a query and of every query inside it (members_from)."""
    if not isinstance(query, dict):
        return []
    own = query.get("measures") if isinstance(query.get("measures"), list) else []
    return [m for m in own if isinstance(m, (str, dict))] + _all_measures(query.get("members_from"))
