"""The rule planner's answer writer: a templated answer built only from the tool results.

Every number in the answer is copied from a result's summary, text, sources or caveats as the
tool formatted it, so the grounding check can match it. Each part is checked with the same
grounding rules before it is kept: a note whose small whole numbers are not in the results is
rewritten with the numbers in words (they come from the gazetteer or coverage, not the data),
and any other part with an unmatched number is dropped. ``strict`` keeps only the parts copied
verbatim from the results. Sources and caveats are not repeated in the text: the result carries them in
its own fields, which the page and the CLI show once, after the answer.
"""
from __future__ import annotations

import calendar

import re
from typing import NamedTuple

from analyzer.analysis import Analysis
from semantic.not_held import FILTERING_SUBJECTS
from analyzer.fallback import NOT_HELD
from analyzer.notes import not_used_note, unsupported_named, user_notes
from analyzer.question import AREA_ONLY, RATE_WITHOUT_POPULATION, ZIP_GAP
from loop import grounding
from loop.meaning import Places
from loop.refinement import refinements
from loop.steps import ToolCallStep
from rules.census_ranking import census_ranking_sentence
from rules.sentences import (area_rate_sentence, arrest_rate_change_sentence, arrest_rate_of, change_sentence,
                             count_sentence, floor_list_sentence, home_value_change_sentence,
                             peak_sentence, place_difference_sentence, ranked_time_sentence, ranking_list_sentence,
                             split_sentences, ranking_sentence, time_label, trend_sentence, where_and_conditions,
                             year_counts_sentence, years_over_sentence)
from rules.gaps import (census_group_gap_sentence, city_without_areas_sentence, condition_homicides_sentence,
                        home_value_ratio_sentence, period_average_change_sentence, rate_versus_city_sentence,
                        socio_gap_sentence, year_ratio_sentence)
from rules.key_sentences import as_sentences
from rules.submarket_answer import submarket_lead
from rules.time_answer import average_lead, span_comparison_lines
from tools.census.answers import MAIN_RACE
from tools.census.data import AGE_BANDS, INCOME_BANDS
from tools.census.socioeconomic import METRICS as SOCIO_METRICS
from tools.census.socioeconomic import fmt_value as socio_value
from tools import names

TOOL_LABELS = {
    names.HOMICIDES: "homicide counts",
    names.IUCR: "the IUCR code lookup",
    names.CENSUS: "census demographics",
    names.SOCIOECONOMIC: "socioeconomic indicators",
    names.PROPERTY: "home values",
    names.AREA_RATES: "homicide rates per 100,000 residents",
    names.SOCIOECONOMIC_CONTEXT: "the homicide / socioeconomic comparison",
    names.DISTRICT_TRENDS: "the period comparison",
    names.POLICE_STATIONS: "police station addresses",
    names.QUERY: "the semantic query",
}
CAPABILITIES = ("ChiQA answers questions about Chicago public data: homicides (counts by year, month, community "
                "area, ward or police district, arrests, domestic cases, location types, rates per 100,000 "
                "residents), census demographics by community area (population, race and ethnicity, age), "
                "socioeconomic indicators (per capita income, poverty, unemployment, education, hardship) and "
                "home values by community area or ZIP, and police district station addresses.")
_RANK_LINE = re.compile(r"^\s*(?:\d{1,2}\.|-)\s+(.+)$")


SUPPORTED_QUESTIONS = (
    "How many homicides were there in Englewood last year?",
    "Which community area has the highest per capita income?",
    "How have homicides changed in Austin over time?",
    "On which day of the week do most homicides happen?",
    "What is the population of Austin by race?",
    "What are home values in Logan Square?",
    "Which police district had the most homicides last year?",
    "How many homicides led to an arrest last year?",
    "Where do most homicides happen: street, apartment or alley?",
    "What share of households in Humboldt Park are below the poverty line?",
)
_STOP = {"the", "a", "an", "of", "in", "is", "are", "was", "were", "what", "which", "how", "many", "do", "does",
         "did", "to", "for", "and", "or", "on", "at", "by", "me", "i", "you", "there", "chicago"}


def nearest_questions(question: str, n: int = 2) -> list[str]:
    """The supported example questions sharing the most words with ``question`` (ties keep the list order)."""
    words = set(re.findall(r"[a-z]+", question.lower())) - _STOP
    scored = sorted(SUPPORTED_QUESTIONS, key=lambda q: -len(words & (set(re.findall(r"[a-z]+", q.lower())) - _STOP)))
    return scored[:n]


class _Checker:
    """Keeps only parts whose numbers the grounding check accepts."""

    def __init__(self, ok_results: list, question: str, geo=None):
        self.results = ok_results
        self.question = question
        places = Places.of_gazetteer(geo) if geo is not None else None
        self.refs = grounding.References.build(ok_results, question, places=places)

    def unmatched(self, text: str) -> list:
        return grounding.check_grounding(text, self.results, self.question, self.refs).unmatched

    def keep(self, text: str) -> str | None:
        """The text if the data backs every number in it, else None: a part we cannot back is left out."""
        if not text or not self.unmatched(text):
            return text
        return None


def _lines(text: str, limit: int = 14) -> list:
    lines = [line.rstrip() for line in (text or "").splitlines() if line.strip()]
    if len(lines) > limit:
        lines = lines[:limit] + ["…"]
    return lines


def _ranking_lead(entry: ToolCallStep, analysis: Analysis) -> str | None:
    """For a ranked result: its first row, as the tool wrote it."""
    values = entry.result.values
    if values.get("min_homicides") and not analysis.ranking and values.get("rank_by") == "homicides":
        listed_all = floor_list_sentence(values)  # "which community areas had more than 20 killings in 2021"
        if listed_all:
            return listed_all
    answered, sentence = _series_lead(entry, analysis)
    return sentence if answered else _place_ranking_lead(entry, analysis)


def _series_lead(entry: ToolCallStep, analysis: Analysis) -> tuple[bool, str | None]:
    """A series' lead (years, months, days, hours): (True, the sentence or None) where the series answers as it
    stands; (False, None) where its places are ranked instead."""
    result = entry.result
    values = result.values
    group = values.get("group_by")
    breakdown = values.get("breakdown") or []
    named = sorted(set(analysis.years))
    if group == "year" and analysis.min_homicides and not analysis.ranking:
        # "in how many years from 2001 through 2022 did Austin record more than 50": the years over the floor, counted
        return True, years_over_sentence(values, analysis.min_homicides)
    # The two years a question names are the ends of the range the tool counted ("was last year any worse than
    # 2019?" counts 2019-2022): those two rows, not the range's total, answer it.
    # "percent change from 2015 to 2021" asks for the two ends too.
    # Two years named apart ("in 2021 than in 2015", "2015 and 2021"), not as a range, are two figures too.
    pair = (analysis.comparison or analysis.asks_percent_change or not analysis.periods) and len(named) == 2 and \
        [row.get("year") for row in breakdown if row.get("year") in named] == named  # not "between 2015 and 2019"
    listed = bool((values.get("filters") or {}).get("year_list")) and len(breakdown) <= YEAR_ROWS_MAX
    # "2012 vs 2022", and two years named apart ("the arrest rate in 2002, and in 2022"): each year's rate.
    rate_asked = analysis.trend or (analysis.comparison or pair) and "arrest_rate" in analysis.named_measures
    if group == "year" and "arrests" in analysis.metrics and rate_asked and not analysis.ranking \
            and len(named) >= 2:
        # "how many points did the arrest rate drop between 2001 and 2022": the rate at both ends, and the change
        sentence = arrest_rate_change_sentence(values, named[0], named[-1])
        if sentence:
            return True, sentence
    # Two years named apart over a long range (2002 and 2022: the tool gives no change past twelve years) are still
    # two figures, not the range's total.
    if group == "year" and (values.get("change") or pair) and not analysis.ranking and \
            (len(breakdown) <= 3 or pair or listed):
        # "Was 2012 deadlier than 2011?": each year's figure, then the change between them; separate years also
        # give their total.
        rows = [row for row in breakdown if row.get("year") in named] if pair else breakdown
        if listed and (analysis.left_out_years or analysis.years_together):
            # "2014 thru 2022 but not 2020", "2003, 2009 and 2015 put together": the total asked for, then each year
            return True, year_counts_sentence(values, rows, in_all=True, left_out=analysis.left_out_years,
                                              together=True, arrests="arrests" in analysis.metrics)
        years = year_counts_sentence(values, rows, in_all=listed)
        change = next((line for line in _lines(result.text, 60) if line.startswith("Change from")), None)
        if change and analysis.asks_percent_change:
            noun, where, conditions = where_and_conditions(values)
            return True, f"{change_sentence(change, f'{noun} {where}{conditions}')} {years}"  # the figure asked first
        return True, (f"{years} {change_sentence(change)}" if change else years if pair else None)
    if group in ("weekday", "hour") or (group in ("year", "month") and analysis.ranking):
        # A time pattern is listed in time order: its peak line, not its first row, answers "which day".
        peak = next((line for line in _lines(result.text, 60) if line.startswith("Highest:")), None)
        order = analysis.ranking.order if analysis.ranking else "desc"
        if analysis.ranking and analysis.ranking.position > 1:
            return True, ranked_time_sentence(values, analysis.ranking.position, order)
        sentence = peak_sentence(peak, values, order).rstrip(".") if peak else None
        if sentence and analysis.asks_share and "arrests" not in analysis.metrics:
            return True, _with_share(sentence, values, order)
        return True, (_with_arrest_rate(sentence, values, order) if sentence and "arrests" in analysis.metrics
                      else sentence)
    return False, None


def _with_share(sentence: str, values: dict, order: str) -> str:
    """"the deadliest day of the week, and what % of homicides fall on it": the ranked row's share of the period's."""
    rows = [r for r in values.get("breakdown") or [] if isinstance(r.get("homicides"), int) and r.get("share_pct")]
    if not rows or not values.get("total"):
        return sentence
    row = (min if order == "asc" else max)(rows, key=lambda r: r["homicides"])
    return (f"{sentence}. {time_label(row, values.get('group_by') or '')}'s {row['homicides']:,} are "
            f"{row['share_pct']:.1f}% of the {values['total']:,}")


def _with_arrest_rate(sentence: str, values: dict, order: str) -> str:
    """"the deadliest month of 2021, and what share of that month's homicides had an arrest": the ranked row's own
    arrest rate after its count."""
    rows = [r for r in values.get("breakdown") or [] if isinstance(r.get("homicides"), int)
            and r.get("arrest_rate_pct") is not None]
    if not rows:
        return sentence
    row = (min if order == "asc" else max)(rows, key=lambda r: r["homicides"])
    return f"{sentence}. {time_label(row, values.get('group_by') or '')}'s arrest rate was {row['arrest_rate_pct']:.1f}%"


def _place_ranking_lead(entry: ToolCallStep, analysis: Analysis) -> str | None:
    """A ranking of places (or kinds of place): the row at the asked position, as the tool wrote it."""
    result = entry.result
    args = entry.arguments
    values = result.values
    ranked = values.get("scope") == "ranking" or (bool(analysis.ranking) and (
        values.get("group_by") in ("community_area", "ward", "district", "location_type")
        or isinstance(values.get("breakdown"), list)))
    group = values.get("group_by")
    # A ranking of places inside one place means nothing; a ranking of kinds of place inside one place does.
    if not ranked or (group != "location_type" and (args.get("community_area") or args.get("ward")
                                                   or args.get("district"))):
        return None
    position = analysis.ranking.position if analysis.ranking else 1
    rows = _first_list(_lines(result.text, 120))
    left_out = [] if entry.name == names.HOMICIDES else [a for a in analysis.excluded_areas
                                                         if any(r.startswith(f"{a.name} (") for r in rows)]
    if left_out:
        # "Gage Park aside, which area has the highest Latino share": a tool that cannot leave an area out ranks it;
        # the answer is the first row after it, given its rank over every area ("the second-highest").
        kept = [i for i, r in enumerate(rows) if not any(r.startswith(f"{a.name} (") for a in left_out)]
        if len(kept) < position:
            return None
        absolute = kept[position - 1] + 1
        order = args.get("sort_order") or (analysis.ranking.order if analysis.ranking else "desc")
        sentence = ranking_sentence(entry.name, values, rows[absolute - 1], order, result.summary, absolute,
                                    ahead=False)
        aside = " and ".join(f"{a.name} ({a.number})" for a in left_out)
        return f"Leaving out {aside}, {sentence[0].lower()}{sentence[1:]}"
    if len(rows) >= position:
        order = args.get("sort_order") or (analysis.ranking.order if analysis.ranking else "desc")
        sentence = ranking_sentence(entry.name, values, rows[position - 1], order, result.summary, position)
        wanted = analysis.ranking.top_n if analysis.ranking else None
        if position == 1 and wanted and 2 <= wanted <= 3 and len(rows) >= wanted:
            # "which three wards lost the most": each of them with its figure (a small model named the first only)
            listed = census_ranking_sentence(values, 1, order, wanted) if entry.name == names.CENSUS else None
            return listed or ranking_list_sentence(sentence, rows[:wanted]) or sentence
        if position > 1 and "; first was " not in sentence:
            # "the runner-up": the one ahead of it too, so the place asked about is seen in its rank
            leader, _, figures = rows[0].partition(": ")
            rated = arrest_rate_of(figures) if values.get("rank_by") == "arrest_rate" else None
            sentence = sentence.rstrip(".") + (f"; first was {leader}, at {rated[0]}." if rated else
                                               f"; first was {leader}, with {figures.split(' (')[0]}.")
        return sentence
    return None



def _first_list(lines: list) -> list[str]:
    """The rows of a result's first list ("1. Riverdale (54): ...", "- District 11 Harrison: 106 ..."), in order,
    up to the first line that is not one of them (the caveats are a list of their own)."""
    rows: list[str] = []
    for line in lines:
        m = _RANK_LINE.match(line)
        if m:
            rows.append(m.group(1).strip())
        elif rows:
            break
    return rows


def _no_data_answer(question: str, analysis: Analysis, checker: _Checker) -> str:
    parts = []
    unsupported = analysis.unsupported
    warnings = [w for w in analysis.warnings if "instruction-like" not in w]
    if unsupported:
        parts.append("The data behind ChiQA does not include " + unsupported_named(analysis) +
                     ", so I cannot answer that from it.")
    if analysis.broad_places:
        parts.append("That place name covers many community areas; name one of the community areas "
                     "(for example Austin or Englewood) or ask for a ranking.")
    for w in warnings:
        if "ChiQA's data covers homicides" in w or "covers many community areas" in w:
            continue
        kept = checker.keep(w)
        if kept:
            parts.append(kept)
    if analysis.injection_suspected:
        parts.append("Your message contains text that looks like instructions or markup; I read it only as a "
                     "question and did not act on it.")
    if not parts:
        parts.append("The data tools can't answer this: it is outside the data ChiQA holds, so no tool was called.")
    parts.append(CAPABILITIES)
    if analysis.injection_suspected or not analysis.domains:
        parts.append("Nearest questions it can answer: " + " or ".join(f'"{q}"' for q in nearest_questions(question)))
    return "\n\n".join(p for p in (checker.keep(x) for x in parts) if p)


class LeadLine(NamedTuple):
    """One opening sentence of an answer: its text, its role ("answer", "figure": a result's own figure line that a
    better line may replace in the key figures, or "context": a ranking's city-wide total) and its result."""

    text: str
    role: str
    entry: ToolCallStep | None


def _lead(analysis: Analysis, ok: list[ToolCallStep]) -> list[str]:
    """The answer's opening lines; "the city's fewest full year - how many did district 7 have that year" opens with
    the district's count in that year, the city's ranking after it."""
    parts = _lead_parts(analysis, ok)
    if analysis.year_found_citywide:
        placed = [p for p in parts if p.entry is not None and any(
            p.entry.arguments.get(k) for k in ("ward", "district", "community_area"))]
        parts = placed + [p for p in parts if p not in placed]
    return [line.text for line in parts]


def _lead_parts(analysis: Analysis, ok: list[ToolCallStep]) -> list[LeadLine]:
    """The answer's opening sentences: per result, its ranking's top row or its figure, with place and period
    (rules/sentences.py). A chained question's later results name their own area, so no "Then, for that area"."""
    spans = span_comparison_lines(analysis, ok)  # two date spans or stretches of hours, side by side
    if spans:
        return [LeadLine(line, "answer", None) for line in spans]
    lead: list[LeadLine] = []
    # One ranking per period ("the most in 2011-2015 vs 2016-2020") is no chain: each period's top place leads.
    per_period = len(analysis.periods) >= 2 and len({e.result.values.get("group_by") for e in ok}) == 1
    chained = len(ok) >= 2 and bool(analysis.ranking) and not analysis.areas and not per_period
    for i, entry in enumerate(ok):
        if entry.name == names.QUERY and entry.result.values.get("lead"):
            # The semantic query's own sentences: a total, a count or a correlation before the rows it is over
            # (semantic/result.py), never re-read as key lines.
            lead.append(LeadLine(entry.result.values["lead"], "answer", entry))
            continue
        summary = entry.result.summary.strip()
        special = submarket_lead(entry, analysis) or average_lead(entry, analysis)  # the figure asked for first
        if special:
            lead.append(LeadLine(as_sentences(special), "answer", entry))
            continue
        split = split_sentences(entry.result.values, analysis.share_without_arrest, "arrests" in analysis.metrics) \
            if entry.name == names.HOMICIDES else []
        if split:
            lead += [LeadLine(line, "answer", entry) for line in split]
            domestic = _domestic_part(entry, analysis)  # "...how many ended in an arrest, and how many were domestic"
            if domestic:
                lead.append(LeadLine(domestic, "answer", entry))
            continue
        first = _ranking_lead(entry, analysis)
        # a chain's later part ranked over time ("the most crowded area: in which year did it have the most") answers
        # with its own peak, not its total
        grain = entry.arguments.get("group_by") if entry.name == names.HOMICIDES else None
        timed = grain in ("year", "month", "weekday", "hour") and grain in (analysis.group_by, *analysis.time_grains)
        if first and (i == 0 or not chained or timed):
            lead.append(LeadLine(as_sentences(first + ("." if not first.endswith(".") else "")), "answer", entry))
            arrests = _ranked_arrests(entry, analysis)
            if arrests:
                lead.append(LeadLine(arrests, "answer", entry))
            repeats = entry.name == names.PROPERTY and entry.result.values.get("scope") == "ranking"  # its top row
            context = _context_sentence(entry, summary) if summary and summary not in first \
                and not entry.result.values.get("change") and not repeats else None
            if context:
                lead.append(LeadLine(context, "context", entry))
        elif summary:
            measures = _socio_lines(entry, analysis)  # the measures asked, not the summary's income
            sentence = count_sentence(entry.result.values, summary, arrests_counted=analysis.arrests_counted) \
                if entry.name == names.HOMICIDES else \
                trend_sentence(entry.result.values, summary) if entry.name == names.DISTRICT_TRENDS else \
                area_rate_sentence(entry.result.values) if entry.name == names.AREA_RATES else None
            # The census group asked about, with its count: "how many Chatham residents are 65 or older".
            # One area's population: a sentence with the change since 2010 in residents.
            group = _census_line(entry, analysis) \
                if analysis.census_group or entry.result.values.get("metric") in ("population", "race") else None
            line = " ".join(measures or (group if isinstance(group, list) else [])) or group or sentence \
                or summary.rstrip(".") + "."
            line = as_sentences(line)  # a key line of a label and a figure, as a sentence
            lead.append(LeadLine(line[:1].upper() + line[1:], "figure", entry))  # a chain's later part: a sentence
            gap = _city_gap(entry) if analysis.asks_gap else None
            if gap:
                lead.append(LeadLine(gap, "figure", entry))
            domestic = _domestic_part(entry, analysis) if sentence else None
            if domestic:
                lead.append(LeadLine(domestic, "figure", entry))
            if sentence and not measures and _year_rows(entry, analysis):
                # "the trend by year since 2015": each year's count after the period's, not only in the details
                lead.append(LeadLine(f"Year by year: {_year_list(entry.result.values)}.", "figure", entry))
    return lead


def _ranked_arrests(entry: ToolCallStep, analysis: Analysis) -> str | None:
    """"Which ward had the most murders in 2021, and out of those how many led to an arrest?": the ranked place's
    arrests, after its count."""
    values = entry.result.values
    rows = [r for r in values.get("breakdown") or [] if isinstance(r, dict)]
    position = analysis.ranking.position if analysis.ranking else 1
    if entry.name != names.HOMICIDES or "arrests" not in analysis.metrics or analysis.arrest_filter or \
            values.get("group_by") not in ("ward", "district", "community_area") or len(rows) < position or \
            values.get("rank_by") == "arrest_rate":  # ranked by the rate: the row already answers
        return None
    row = rows[position - 1]
    count, total = row.get("arrests"), row.get("homicides")
    if not isinstance(count, int) or not isinstance(total, int) or not total:
        return None
    return f"Of these, {count:,} led to an arrest ({100 * count / total:.1f}%)."


def _domestic_part(entry: ToolCallStep, analysis: Analysis) -> str | None:
    """"...and how many were domestic?" beside another measure: the domestic count of the homicides counted, its own
    sentence (so a model's answer is checked for it too)."""
    values = entry.result.values
    domestic, total = values.get("domestic"), values.get("total")
    if "domestic" not in analysis.metrics or "domestic" in (values.get("filters") or {}) or \
            values.get("group_by") == "domestic" or not isinstance(domestic, int) or not total:
        return None
    return f"Of these, {domestic:,} {'was' if domestic == 1 else 'were'} domestic ({100 * domestic / total:.1f}%)."


# A census or socioeconomic ranking's summary: its top row again, and the city's figure when there is one.
_AREA_RANKING_SUMMARY = re.compile(r"^(?:Highest|Lowest) [^:]+: [^;]+?(?:; city (?P<city>[^;]+?))?\.?$")


def _context_sentence(entry: ToolCallStep, summary: str) -> str | None:
    """A ranking's city-wide figure, after its top entry: "In all, there were 804 homicides in Chicago in 2021"; "For
    comparison, the figure for Chicago as a whole is $28,202." (the summary's top row is the sentence before it, so
    it is not said twice). None when the summary adds nothing."""
    if entry.name == names.HOMICIDES:
        sentence = count_sentence(entry.result.values, summary, in_all=True)
        if sentence:
            return sentence
    ranked = _AREA_RANKING_SUMMARY.match(summary) if entry.name in (names.CENSUS, names.SOCIOECONOMIC) else None
    if ranked:
        return f"For comparison, the figure for Chicago as a whole is {ranked['city']}." if ranked["city"] else None
    return f"For comparison ({TOOL_LABELS.get(entry.name, entry.name)}): {summary.rstrip('.')}."


YEAR_ROWS_MAX = 12  # a longer yearly series is left to the result itself


def _year_rows(entry: ToolCallStep, analysis: Analysis) -> str | None:
    """"By year: 2015: 497; 2016: 786; ..." for a trend or comparison answered by a yearly breakdown: its lead
    is the period total, which a small model gave as the answer to "how did it change"."""
    values = entry.result.values
    rows = values.get("breakdown") or []
    if values.get("group_by") != "year":
        return None
    placed = any((values.get("filters") or {}).get(k) is not None for k in ("community_area", "ward", "district"))
    if analysis.ranking and placed and 2 <= len(rows) <= YEAR_ROWS_MAX:
        pass  # a chain's later part ("the most crowded area: its homicides in 2019 and in 2020"): each year said
    elif not (analysis.trend or analysis.comparison) or analysis.ranking:
        return None
    elif not 3 < len(rows) <= YEAR_ROWS_MAX:  # up to three years, the lead already lists each (_ranking_lead)
        return None
    change = next((line for line in _lines(entry.result.text, 60) if line.startswith("Change from")), "")
    # The period's total stays, after the years ("the trend over five years" was also asked as "how many").
    total = f"Total {values['total']:,}. " if isinstance(values.get("total"), int) else ""
    return (_YEAR_ROWS_PREFIX + _year_list(values) + ". " + total + change).strip()


def _year_list(values: dict) -> str:
    """"2015: 496; 2016: 786; ..." of a yearly breakdown."""
    return "; ".join(f"{row['year']}: {row['homicides']:,}" for row in values.get("breakdown") or [])


_ASIDE = re.compile(r"\([^()]*\)")
# Not an entry: the change between entries, given alone ("+28.6%") or named, and the city's or overall figure.
_CONTEXT_CLAUSE = re.compile(r"^(?:(?:change from|the change from|city|the city's|overall|(?:the )?arrest rate)\b"
                             r"|from \S+ to \S+$|in (?:19|20)\d\d(?:-(?:19|20)\d\d)?$|.*\bchanged by\b|the change was\b|[+\-\u2212]\d[\d.,]*%$)", re.IGNORECASE)
_YEAR_ROWS_PREFIX = "By year: "


def _compared_entries(line: str) -> list[str]:
    """A comparison's entries in one key line ("2016: 786; 2017: 672. Change ..." -> "2016: 786", "2017: 672";
    "hardship index (1-100, ...): Auburn Gresham 74, Chatham 60" -> two; "72.3/yr (2015-2017) -> 93.0/yr (2019-2021)"
    -> two), or [] when the line is not two or three entries. Asides in parentheses and context clauses (the change,
    the city figure) are not entries."""
    # " and " between two figures too: "Per capita income was $39,056 in Hyde Park and $18,672 in Woodlawn".
    clauses = [c.strip() for c in re.split(r";\s+|,\s+|\.\s+|\s+->\s+|\s+and\s+(?=[-+$]?\d)",
                                           _ASIDE.sub(" ", line).strip().rstrip("."))]
    entries = [c for c in clauses if c and not _CONTEXT_CLAUSE.match(c) and re.search(r"\d", c)]
    return entries if 2 <= len(entries) <= 3 else []


# A race makeup line (_census_line): "Hyde Park had 29,456 residents (ACS ...): 6,143 Black (20.9%); ...".
_MAKEUP = re.compile(r"^(.+? had [\d,]+ residents) \([^)]*\): (.+)$")
_MAKEUP_GROUP = re.compile(r"(?:^|; )([\d,]+) ")
# How a station's line gives its phone: the tool's "; phone ", the answer's "; its phone number is ".
_PHONE = re.compile(r"; (?:its )?phone (?:number is )?")


def key_line_parts(line: str, compares: bool, years: list[int] | tuple = (),
                   period_total: bool = False) -> list[tuple[str, bool]]:
    """What of a key line an answer must state, as (text, lead_only) pieces: a figure of each compared entry
    when the question compares; of a yearly series, each year the question named ("2019 vs 2022" answered from
    2019-2022 by year: 2019's and 2022's counts), else any year, and its total when the question asks how many
    over the whole period (``period_total``: "how many murders went down in the Loop between 2015 and 2020" was
    answered with 2015's and 2020's counts and not the 13 of the six years); otherwise the line's lead figure (a
    ranking's top entry's value, a summary's count or rate), since a key line leads with its answer."""
    if _PHONE.search(line):
        # A station line answers "where is it" and "how do I reach it": its address and its phone are both the
        # answer (the 0.5B model gave the address alone).
        address, phone = _PHONE.split(line, 1)
        return [(address, True), (phone, True)]
    makeup = _MAKEUP.match(line)
    if makeup:
        # A race makeup: the population and each group's count (its share alone left out how many).
        return [(makeup.group(1), True)] + [(group, True) for group in _MAKEUP_GROUP.findall(makeup.group(2))]
    if line.startswith(_YEAR_ROWS_PREFIX) and len(years) >= 2:
        named = [m.group(0) for m in re.finditer(r"\b(\d{4}): [\d,]+", line) if int(m.group(1)) in years]
        total = re.search(r"\bTotal [\d,]+", line) if period_total else None
        if named:
            return [(entry, True) for entry in named + ([total.group(0)] if total else [])]
    entries = _compared_entries(line) if compares else []
    if entries:
        return [(entry, False) for entry in entries]
    return [(line, not line.startswith(_YEAR_ROWS_PREFIX))]


# "Which month was the deadliest, and how does that compare with the district's 2021 total?": the total is asked.
_ASKS_THE_TOTAL = re.compile(r"\b(?:totals?|in all|overall|altogether|combined)\b", re.IGNORECASE)


def key_figures(question: str, analysis: Analysis, results: list[ToolCallStep],
                planned_tools: set[str] | None = None, geo=None) -> list[str]:
    """The lines of these results that answer the question, as the planner would open its answer, every number
    checked against the results. A model's synthesis request shows them: a small model otherwise answered a
    two-year comparison with the period total, or a "which area" question with the city-wide count.
    ``planned_tools``: the tools the planner's drafts named; results of other tools (a model's own extra calls)
    are left out when any result is of a planned tool (asked for the highest rate, a small model also ranked
    counts, and answered with the count ranking's top area). A ranking's "Overall" total is left out too."""
    ok = refinements_first([r for r in results if r.status == "ok" and r.result.ok], analysis)
    if planned_tools and any(r.name in planned_tools for r in ok):
        ok = [r for r in ok if r.name in planned_tools]
    if not ok or analysis.error:
        return []
    checker = _Checker([r.result for r in ok], question, geo)
    # A context line is a key line where it holds what was asked: "what share of the district's 2020 homicides
    # ended in an arrest" is the district's arrest rate, not the top kind of place's (both models gave that one)
    # The ranking's total is a key line too where the question asks how many and no ranking: "how many on the
    # weekend" split by weekday is answered by the weekend's 247, which the 1.5B model left out for Sunday's 128.
    parts = [(line.text, line.entry if line.role == "figure" else None) for line in _lead_parts(analysis, ok)
             if line.role != "context" or ("arrests" in analysis.metrics and "arrest rate" in line.text)
             or (analysis.asks_count and not analysis.ranking) or bool(_ASKS_THE_TOTAL.search(question))]
    for entry in ok:
        # In place of the result's figure line: a trend is its years (its count sentence leads with the period
        # total); "how many Latino residents" is the group's count (the summary gives four groups' shares, no count).
        better = _year_rows(entry, analysis) or _census_line(entry, analysis) or _socio_lines(entry, analysis)
        if isinstance(better, list):  # one line per measure asked, so the answer check wants each one's figure
            parts = [p for p in parts if p[1] is not entry] + [(as_sentences(line), entry) for line in better]
        elif better:
            better = as_sentences(better)
            kept = [p for p in parts if p[1] is not entry]
            parts = kept + [(better, entry)] if len(kept) == len(parts) else \
                [(better, entry) if p[1] is entry else p for p in parts]
    lines = list(dict.fromkeys(_place_difference(question, ok, analysis) + [line for line, _ in parts]))
    return [x for x in (checker.keep(line) for line in lines) if x]


def _place_difference(question: str, ok: list[ToolCallStep], analysis: Analysis) -> list[str]:
    """"How many more homicides did Austin have than North Lawndale?": the difference (or ratio) the question asks
    for, first; the two counts it is made of follow. Likewise one place's home value at two times ("by how many
    dollars did the typical home value in 60612 change between September 2019 and September 2024")."""
    counts = [r.result.values for r in ok if r.name == names.HOMICIDES]
    line = place_difference_sentence(question, *counts) or period_average_change_sentence(*counts) \
        if len(counts) == 2 else None
    values = [r.result.values for r in ok if r.name == names.PROPERTY and r.result.values.get("scope") != "ranking"]
    line = line or (home_value_change_sentence(*values) or home_value_ratio_sentence(question, *values)
                    if len(values) == 2 else None)
    picked = [r.result.values for r in ok
              if r.name == names.SOCIOECONOMIC and r.result.values.get("scope") == "condition"]
    if not line and picked and len(counts) == 1:
        line = condition_homicides_sentence(picked[0], counts[0])
    census = [r.result.values for r in ok if r.name == names.CENSUS]
    if not line and len(census) == 2 and analysis.excluded_areas:
        line = city_without_areas_sentence(*census)
    for entry in ok if not line else []:
        if entry.name == names.HOMICIDES:
            line = year_ratio_sentence(question, entry.result.values)
        elif entry.name == names.AREA_RATES:
            line = rate_versus_city_sentence(question, entry.result.values)
        elif entry.name == names.SOCIOECONOMIC:
            line = socio_gap_sentence(question, entry.result.values)
        elif entry.name == names.CENSUS:
            line = census_group_gap_sentence(question, entry.result.values, analysis.census_group)
        if line:
            break
    return ([line] if line else []) + _compared_home_values(question, ok, line)


def _compared_home_values(question: str, ok: list[ToolCallStep], first: str | None) -> list[str]:
    """Two areas' home values compared in one result, with the gap or ratio asked: "Hyde Park vs Woodlawn --
    difference in per capita income, and difference in typical home value" gave the income's gap alone."""
    lines = []
    for entry in ok:
        values = entry.result.values
        rows = values.get("rows") or []
        if entry.name != names.PROPERTY or values.get("scope") != "comparison" or len(rows) != 2:
            continue
        when = {"home_value_period": values.get("home_value_period")}
        line = home_value_ratio_sentence(question, {**rows[0], **when}, {**rows[1], **when})
        if line and line != first:
            lines.append(line)
    return lines


def _city_gap(entry: ToolCallStep) -> str | None:
    """"How far above the city average is the Near North Side's per capita income": the place's figure minus the
    city's, said ("That is $60,467 higher than the city's."); a percentage's gap is in points."""
    values = entry.result.values
    if entry.name != names.SOCIOECONOMIC or values.get("scope") != "area":
        return None
    column = "per_capita_income" if values.get("metric") == "all" else next(iter(values.get("rank_high_to_low") or {}),
                                                                            None)
    place, city = values.get(column), (values.get("city") or {}).get(column)
    if not isinstance(place, (int, float)) or not isinstance(city, (int, float)) or place == city:
        return None
    gap = abs(place - city)
    shown = f"{gap:.1f} points" if column.startswith("pct_") else socio_value(column, gap)  # a share's gap in points
    return f"That is {shown} {'higher' if place > city else 'lower'} than the city's."


def _socio_lines(entry: ToolCallStep, analysis: Analysis) -> list[str] | None:
    """An area's socioeconomic measures the question names, one line each, when the tool was asked for all of
    them: "how bad is joblessness in Washington Heights, and what's its hardship score?" is answered by the
    unemployment and hardship figures, not by the summary's income (a 1.5B model wrote the income and the
    hardship index and left out unemployment)."""
    values = entry.result.values
    if entry.name != names.SOCIOECONOMIC or values.get("scope") != "area" or values.get("metric") != "all":
        return None
    asked = [spec for metric in analysis.metrics for spec in SOCIO_METRICS.get(metric, [])]
    name, period, city = values.get("name"), values.get("period"), values.get("city") or {}
    lines = []
    for column, label, _kind in asked:
        if values.get(column) is None:
            continue
        label = label.split(" (")[0]  # "hardship index (1-100, ...)" -> "hardship index"
        versus = f", city {socio_value(column, city[column])}" if city.get(column) is not None else ""
        lines.append(f"{name}: {label} {socio_value(column, values[column])}{versus} ({period}).")
    return lines or None


def _census_line(entry: ToolCallStep, analysis: Analysis) -> str | list[str] | None:
    """One area's census figures with counts: the race group or household income band the question asks about,
    first and alone ("how many Latino residents", "what share of households earn over $125k": a small model gave
    another group's share); else the four main race groups, each "share (count)". None for anything else (other
    metrics, several areas, the city)."""
    values = entry.result.values
    city_population = values.get("scope") == "city" and values.get("metric") == "population"
    if entry.name != names.CENSUS or not (values.get("scope") == "area" or city_population):
        return None  # (the city's population reads as an area's: "Chicago had 2,647,621 residents ...")
    name, population, vintage = values.get("name"), values.get("population"), values.get("vintage")
    group = analysis.census_group
    if values.get("metric") == "income":
        band = next((label for _, key, label in INCOME_BANDS if key == group), None)
        households, count = values.get("households"), values.get(f"households_{group}")
        if not (name and band and isinstance(households, int) and isinstance(count, int)):
            return None
        city = (values.get("city") or {}).get(f"pct_households_{group}")
        share = values[f'pct_households_{group}']
        city_part = f"; city {city:.1f}%" if city is not None else ""
        if analysis.census_by_count:  # "how many households make 125k or more": the count first
            return (f"{name}: {count:,} of {households:,} households earn {band} ({share:.1f}%){city_part} "
                    f"({vintage}).")
        return f"{name}: {share:.1f}% of {households:,} households earn {band} ({count:,}){city_part} ({vintage})."
    band = next((label for _, key, label in AGE_BANDS if key == group), None)
    if band and values.get("metric") in ("age", "all") and isinstance(values.get(group), int) \
            and isinstance(values.get("age_total"), int) and name:
        # "How many Chatham residents are 65 or older?": the band's count, first (the summary gives shares only).
        band_count = (f"{values[group]:,} residents aged {band}, {values['pct_' + group]:.1f}% of "
                      f"{values['age_total']:,}")
        if "population" in analysis.metrics and isinstance(population, int):
            # "what's the population of Austin, and how many are 65 or older": two measures, two lines, so the
            # answer check asks for both figures (a key line's lead figure is what it asks for; the 0.5B model
            # gave the population alone).
            return [f"{name} had {population:,} residents ({vintage}).", f"{name}: {band_count}."]
        return f"{name}: {band_count} ({vintage})."
    change, before = values.get("population_change"), values.get("population_2010")
    if values.get("metric") == "population" and name and isinstance(population, int) \
            and isinstance(change, int) and isinstance(before, int) and population != before:
        # "By how many residents did Englewood's population shrink since 2010?": the count, then the change as a
        # number of residents (the figure line gave only the percent).
        if any(y <= 2015 for y in analysis.years) and not (analysis.asks_now or analysis.trend or analysis.comparison):
            # "Austin's population in 2010": the 2010 Census count is the figure asked for, so it goes first.
            return (f"{name} had {before:,} residents in the 2010 Census; the {vintage} estimate is {population:,}, "
                    f"{abs(change):,} {'fewer' if change < 0 else 'more'} ({values['population_change_pct']:+.1f}%).")
        return (f"{name} had {population:,} residents ({vintage}), {abs(change):,} "
                f"{'fewer' if change < 0 else 'more'} than the {before:,} of the 2010 Census "
                f"({values['population_change_pct']:+.1f}%).")
    labels = {key: label for _, key, label in MAIN_RACE}
    if not (name and isinstance(population, int)) or not (values.get("metric") == "race" or (
            values.get("metric") == "all" and group in labels)):
        return None
    if group in labels and isinstance(values.get(group), int):
        return (f"{name}: {values[group]:,} {labels[group]} residents, {values['pct_' + group]:.1f}% of "
                f"{population:,} ({vintage}).")
    # "racial makeup of hyde park": each group's count first, then its share (the 1.5B model gave the shares alone,
    # and "how many Black residents" is as much the makeup as "what share"); the answer check asks for each count.
    groups = [f"{values[key]:,} {label} ({values['pct_' + key]:.1f}%)" for key, label in labels.items()
              if isinstance(values.get(key), int) and values.get("pct_" + key) is not None]
    return f"{name} had {population:,} residents ({vintage}): " + "; ".join(groups) + "." if groups else None


def _years_after_the_snapshot(analysis: Analysis) -> str | None:
    """The years a socioeconomic-only question asks about that the 2008-2012 snapshot does not cover, in words."""
    if analysis.domains != ["socioeconomic"] or analysis.out_of_range_years:
        return None
    outside = [y for y in analysis.years if not 2008 <= y <= 2012]
    return " and ".join(str(y) for y in outside) or None


def only_years_outside_the_data(analysis: Analysis) -> bool:
    outside = set(analysis.out_of_range_years or [])
    # "the 2000 census compared with the 2019-2023 ACS": the survey named is a period the data holds
    return bool(outside) and all(y in outside for y in analysis.years) and not analysis.periods \
        and not (analysis.acs_named and "homicides" not in analysis.domains) \
        and ("homicides" in analysis.domains or ((_census_years_outside(analysis) or _property_years_outside(analysis))
                                                 and not analysis.asks_now))


def _property_years_outside(analysis: Analysis) -> str | None:
    """"what will it be worth in 2026": the home-value (or price-index) data's own warning for the years it lacks."""
    if not analysis.out_of_range_years or "homicides" in analysis.domains or "property" not in analysis.domains:
        return None
    return next((w for w in analysis.warnings if w.startswith("Year(s)") and ("home value data" in w
                                                                              or "IHS price index" in w)), None)


def _census_years_outside(analysis: Analysis) -> bool:
    """Years before any census figure ("Hyde Park's population in 1990"): declined like the homicide data's."""
    return bool(analysis.out_of_range_years) and "homicides" not in analysis.domains and \
        "property" not in analysis.domains and bool({"census", "socioeconomic"} & set(analysis.domains))


def _qualifies(warning: str, lead: str) -> bool:
    """A note that changes how the lead's figure reads, not already said there."""
    if warning.startswith((RATE_WITHOUT_POPULATION, AREA_ONLY, ZIP_GAP)):
        return warning.rstrip(".") not in lead
    if NOT_HELD in warning:  # "March 2025 is not in the data: ... the latest month is given instead"
        return warning not in lead
    # a place asked about that the data has nothing on ("Evanston", "Lakeview Heights"): the figures are the others'
    if warning.startswith(("ChiQA's data covers the City of Chicago only", "There is no Chicago community area named")):
        return warning not in lead
    if " is after the homicide data ends (" in warning:  # "August 2023 is after ...": the months answered are others
        return warning not in lead
    return " is partial in the homicide data:" in warning and "partial" not in lead


def _outside_years_lead(analysis: Analysis) -> str:
    years = " and ".join(str(y) for y in analysis.out_of_range_years)
    cov = analysis.coverage
    places = [a.name for a in analysis.areas] + [f"ward {w}" for w in analysis.wards] + \
        [f"police district {d}" for d in analysis.districts]
    where = f"{' and '.join(places)} in " if places else ""
    property_warning = _property_years_outside(analysis)
    if property_warning:
        return property_warning.rstrip(".") + f", so I cannot give a figure for {where}{years}."
    if _census_years_outside(analysis):
        return (f"The census and socioeconomic figures ChiQA has are the 2008-2012 ACS indicators, the 2010 Census and "
                f"the 2019-2023 ACS estimates, so I cannot give a figure for {where}{years}.")
    if "predictions" in analysis.unsupported:  # "predict how many murders there will be in 2025"
        return (f"ChiQA does not predict or forecast: the homicide data covers {cov.first_year} to {cov.end}, so I "
                f"cannot give a figure for {where}{years}.")
    if analysis.months and analysis.out_of_range_years == [cov.last_year]:  # "December 2023", after the data's end
        months = " and ".join(calendar.month_name[m] for m in sorted(analysis.months))
        return (f"The homicide data ends on {cov.end}, so I cannot give a figure for {where}{months} "
                f"{cov.last_year}.")
    return (f"The data ChiQA has covers {cov.first_year} to {cov.last_year} for homicides (to {cov.end}), so I cannot "
            f"give a figure for {where}{years}.")


def _outside_years_decline(analysis: Analysis) -> tuple[str, bool] | None:
    """The line declining the years the data lacks, and whether it goes first: a census or home-value year ("now,
    and back in 1990", "and what will it be worth in 2026") is said before the figures, a homicide year after them."""
    if not analysis.out_of_range_years:
        return None
    other_data = _census_years_outside(analysis) or bool(_property_years_outside(analysis))
    if "homicides" not in analysis.domains and not other_data:
        return None
    return _outside_years_lead(analysis), other_data


def refinements_first(ok: list[ToolCallStep], analysis: Analysis) -> list[ToolCallStep]:
    """Where the reading left words unused, a model's own call that refines a drafted one (loop/refinement.py)
    answers more of the question than the draft: its result leads."""
    if not analysis.not_used:
        return ok
    better = refinements(ok)
    return sorted(ok, key=lambda r: r not in better)


def _called_place(entry: ToolCallStep, analysis: Analysis) -> str | None:
    """The place a failed call was for, as the reading names it ("ZIP 60617", "Austin"), or None."""
    args = entry.arguments or {}
    if args.get("zip"):
        return f"ZIP {args['zip']}"
    area = args.get("community_area")
    return next((a.name for a in analysis.areas if area in (a.number, a.name)), None) if area is not None else None


def _declined_parts(analysis: Analysis, lead: list, details: list) -> tuple[list, list]:
    """The parts of the question the data cannot answer, said in the lead before (or instead of) the figures."""
    # "How many of them were shot?" narrows the homicides by what the data does not record (a shooting is a weapon).
    filtering = [u for u in analysis.unsupported if u in FILTERING_SUBJECTS or u == "shootings"]
    if filtering and "homicides" in analysis.domains:
        # "How many involved a gun?": the count of all homicides answers another question; say so before it, in
        # the question's own words.
        lead = [f"The homicide data does not record {unsupported_named(analysis, filtering)}, so I cannot answer "
                "that part; the figures below are for all homicides."] + lead
    others = [u for u in analysis.unsupported if u not in filtering]
    if others and lead:  # "robberies and homicides in Austin": the part it cannot answer is said first
        lead = [f"The data does not include {unsupported_named(analysis, others)}, so I cannot answer that part."] + lead
    decline = _outside_years_decline(analysis)
    if decline and lead and not only_years_outside_the_data(analysis):
        # "2022, and so far in 2024": the years the data holds are answered, the others declined in the answer.
        line, first = decline
        lead = [line] + lead if first else lead + [line]
    if only_years_outside_the_data(analysis):
        # Asked about 1995 or 2025 only: the figures for other years answer another question, so none leads and
        # none is listed; the answer says which years the data has.
        lead, details = [_outside_years_lead(analysis)], []
    return lead, details


def _error_notes(analysis: Analysis, lead: list, errors: list) -> tuple[list, list]:
    """A note per failed call; a place the data lacks is said in the lead too."""
    notes: list[str] = []
    for entry in errors:
        result = entry.result
        message = ((result.error or {}).get("message") or result.summary or "").strip()
        label = TOOL_LABELS.get(entry.name, entry.name)
        notes.append(f"I could not get {label}: {message}")
        place = _called_place(entry, analysis)
        if place and lead and message and not analysis.out_of_range_years:  # a year outside is declined above
            # "values for 60617 and 60619": the place the data lacks is said in the answer, not only in a note
            reason = message.split(" (")[0].rstrip(".")
            reason = reason[0].lower() + reason[1:] if reason[1:2].islower() else reason  # "ZIP ..." stays
            lead = [f"I could not get {label} for {place}, because {reason}."] + lead
    if not lead and errors:  # nothing answered: the reason leads ("unknown Redfin neighborhood 'Riverdale'")
        message = ((errors[0].result.error or {}).get("message") or "").strip()
        reason = re.sub(r"\s*\(at [^)]*\)", "", message).rstrip(".")
        lead = [f"I could not answer that: {reason}."] if reason else lead
    return lead, notes


def _neighbourhoods_read(analysis: Analysis, lead: str) -> list[str]:
    """A neighbourhood named for a community area ("the Wrigleyville community area"): the lead says which area its
    figures are, so the user who meant the neighbourhood alone sees they are not its own."""
    out = []
    for area in analysis.areas:
        said, name = re.sub(r"[^a-z]", "", area.text.lower()), re.sub(r"[^a-z]", "", area.name.lower())
        if said and said not in name and name not in said and area.text.lower() not in lead.lower():
            out.append(f"The data does not have {area.text} as a community area: it is read as {area.name} "
                       f"({area.number}), the community area it lies in.")
    return out


def joined_answers(texts: list[str]) -> str:
    """Several parts' answers as one: their leads in order, then their details, then their notes (each once)."""
    leads, details, notes = [], [], []
    for text in texts:
        body, _, foot = text.partition("\n\nNotes:\n")
        lead, _, detail = body.partition("\n\nDetails:\n")
        leads.append(lead.strip())
        details += [detail.strip()] if detail.strip() else []
        notes += [n for n in foot.strip().split("\n") if n.strip() and n not in notes]
    out = [" ".join(x for x in leads if x)]
    out += ["Details:\n" + "\n\n".join(details)] if details else []
    out += ["Notes:\n" + "\n".join(notes)] if notes else []
    return "\n\n".join(x for x in out if x)


def write_answer(question: str, analysis: Analysis, results: list[ToolCallStep], strict: bool = False,
                 geo=None) -> str:
    ok = refinements_first([r for r in results if r.status == "ok" and r.result.ok], analysis)
    errors = [r for r in results if r.status == "error"]
    checker = _Checker([r.result for r in ok + errors], question, geo)
    if not ok and not errors:
        return _no_data_answer(question, analysis, checker)

    lead = _place_difference(question, ok, analysis) + _lead(analysis, ok)
    details = ["\n".join(lines) for lines in (_lines(entry.result.text) for entry in ok) if lines]
    lead, details = _declined_parts(analysis, lead, details)
    lead, notes = _error_notes(analysis, lead, errors)
    if not strict:
        notes += user_notes(analysis)
        if analysis.injection_suspected:
            notes.append("Parts of your message looked like instructions or markup; they were read as text only.")

    out: list[str] = []
    # The outside-years decline quotes the data's coverage (the analyzer's, not a result's), so it is kept as written.
    outside = only_years_outside_the_data(analysis)
    declined = _outside_years_lead(analysis) if analysis.out_of_range_years else None
    kept_lead = lead if outside else [x for x in (line if line == declined else checker.keep(line) for line in lead)
                                      if x]
    # Words the reading could not use qualify the figures: said in the lead, where the figure is read, not only at
    # the foot ("during rush hour" unread: the 589 is every hour of 2018, and the reader must see that beside it).
    later = _years_after_the_snapshot(analysis)
    if later and kept_lead:
        # "uptown's unemployment rate in 2023": the 2008-2012 figure, said as such in the sentence that gives it
        text = kept_lead[0].rstrip()
        end = re.search(r"\.\s+(?=[A-Z])", text)  # the first sentence's end, where the form check reads
        first, rest = (text[:end.start()], text[end.end():]) if end else (text.rstrip("."), "")
        kept_lead[0] = first + (f"; a {later} figure is not available, as the socioeconomic indicators are one "
                                "2008-2012 snapshot.") + (" " + rest if rest else "")
    # Caveats that change how the figure reads (a partial year, a rate that cannot be had at the grain asked) go
    # beside it in the lead, not only among the notes at the foot.
    qualifying = [w for w in analysis.warnings if _qualifies(w, " ".join(kept_lead))] if kept_lead and not \
        outside else []
    # a query's period past the data, answered with the latest held as the question asked: which period is missing
    # is said before the figure that stands in for it
    standing_in = list(dict.fromkeys(c for e in ok if e.name == names.QUERY for c in e.result.caveats or []
                                     if NOT_HELD in c and c.endswith("is given instead.")))
    if kept_lead and standing_in and not outside:
        kept_lead = standing_in + kept_lead
    for warning in qualifying:
        kept_lead.append(warning)
        notes = [n for n in notes if n != warning]
    if kept_lead and not outside:
        kept_lead += _neighbourhoods_read(analysis, " ".join(kept_lead))
    unread = not_used_note(analysis.not_used) if analysis.not_used and not strict else None
    if unread and kept_lead and checker.keep(unread):
        kept_lead.append(unread)
        notes = [n for n in notes if n != unread]
    if kept_lead:
        out.append(" ".join(kept_lead))
    if details:
        out.append("Details:\n" + "\n\n".join(x for x in (checker.keep(d) for d in details) if x))
    kept_notes = []
    for note in dict.fromkeys(notes):
        kept = checker.keep(note)
        if kept:  # a note with numbers the results cannot back is left out
            kept_notes.append("- " + kept)
    if kept_notes:
        out.append("Notes:\n" + "\n".join(kept_notes))
    # Sources and caveats are the result's own fields (one panel each on the page, printed once by the CLI);
    # the answer text does not repeat them.
    if not ok:
        out.append(CAPABILITIES)
    return "\n\n".join(x for x in out if x).strip()
