"""A question of several parts read part by part, where reading it whole left words unused.

"For Logan Square: what was the Redfin median sale price for the 90-day period ending 2019-06-30, and what was the
2019 average index of the IHS submarket Logan Square lies in?" asks two things of two sources. Read whole, the
reading found one shape (the IHS figures) and named 'redfin median' as not used. Each part read alone is one the
reader knows; so the parts are read as the turns of a conversation (a later part takes the places and periods an
earlier one named, analyzer/followup.py), and each part's calls and answer are its own (rules/planner.py,
rules/answer.py).

Parts are used only where every part reads without an unused word and no later part leans on an earlier one
("there", "that ward", "how does that compare", "if you don't have 2000, ..."): such a part read alone loses what it
leans on. A question read whole with every word used is read in parts only where it names a measure of a source
only a query reads (Redfin) and the whole reading has no query of it, or where its questions are asked apart, each
ending in its own question mark ("which ZIP has the highest value? and which has the lowest?": read whole, the one
reading answered the first and took the second's words as its own).

One kind of leaning is read: a second part that points at the one place the first part's ranking finds ("Which
Chicago IHS submarket had the biggest rise ...? How many community areas have it as their main submarket, and ...").
The second part is read once the first has run, with the place's name in place of "it" / "that submarket"
(``QuestionPart.reader``; rules/planner.py fills its analysis), where reading the question whole failed.
"""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from typing import Callable

from analyzer.analysis import NO_SUBJECT, Analysis
from semantic.catalog import catalog

MAX_PARTS = 4
# Where one part ends and the next begins: a question mark or a semicolon with more after it, or "and" / "then" /
# "also" before a new question word.
_BREAK_RE = re.compile(r"\?\s+(?=\S)|;\s+|,?\s+(?:and|then|also|plus)\s+(?=(?:what|what's|whats|how|which|where|who|"
                       r"when|is|was|are|were|did|does|do|give|list|tell|name|show)\b)|(?<!\bvs)(?<!\bst)(?<!\bno)\.\s+(?=(?-i:[A-Z]))", re.I)  # a sentence's end, not "vs. the"
# "For Logan Square: ...": the topic every part is about
_TOPIC_RE = re.compile(r"^\s*((?:for|in|about|regarding|on)\s+[^:?]{2,60}?):\s*", re.I)
# A later part that leans on an earlier one: points back at what it names or finds ("there", "that ward", "their",
# "the same three months"), compares with it ("how does that compare", "vs", "the difference"), or is its fallback
# ("if you don't have 2000, just tell me 2001"). Read alone, such a part loses what it leans on: read whole.
_LEANS_RE = re.compile(r"\b(?:there|that|this|those|these|them|their|its|it|they|same|compar\w*|vs\.?|versus|ratio|"
                       r"difference|gap|than|instead|otherwise|else|each|both|combined|together|total)\b|^\s*(?:if|or|"
                       r"but|unless)\b", re.I)
# A later question leaning only on the earlier one's time ("...? and which zip is the most expensive that month"):
# the carry gives it that time, so it is still asked apart
_TIME_LEAN_RE = re.compile(r"\b(?:in\s+)?(?:that|this|the\s+same)\s+(?:month|year|quarter|period|week)\b", re.I)
_MIN_WORDS = 3
# What a later part points at, where the earlier part found one place: "it", "that submarket", "that area"
_POINTS_AT_RE = re.compile(r"\b(?:it|that\s+(?:one|area|community\s+area|neighbou?rhood|submarket|zip(?:\s+code)?|"
                           r"ward|district|place)|the\s+(?:redfin\s+)?(?:neighbou?rhood|area|place)\s+(?:of|with)\s+the\s+"
                           r"same\s+name)\b|(?<=\bsubmarket\s)(?P<is>that\s+is)\b", re.I)


@dataclass
class QuestionPart:
    text: str
    analysis: Analysis | None
    # a part pointing at the place an earlier part finds: reader(name) reads it with the name in place
    reader: Callable[[str], Analysis] | None = None


def split_parts(question: str) -> list[str]:
    """The question's parts, each with the topic it opens with ("For Logan Square:"), or [] for one part."""
    text = question.strip()
    topic = _TOPIC_RE.match(text)
    head = topic.group(1) + ": " if topic else ""
    body = text[topic.end():] if topic else text
    pieces = [p.strip(" ,") for p in _BREAK_RE.split(body)]
    pieces = [p for p in pieces if p.strip(" ?.!")]
    if not 2 <= len(pieces) <= MAX_PARTS or any(len(p.split()) < _MIN_WORDS for p in pieces):
        return []  # "..., and 2021?" leans on the part before it
    return [head + p for p in pieces]


def read_parts(question: str, whole: Analysis, analyze, carry) -> list[QuestionPart]:
    """The parts of a question read whole with words unused, each read alone (``analyze(text)``; a later part through
    ``carry(analysis, text, earlier analyses)``), or [] where any part leaves a word unused or names no data, or a
    later part leans on an earlier one."""
    if whole.error or whole.injection_suspected:
        return []
    texts = split_parts(question)
    head = len(_head(question))
    if any(_LEANS_RE.search(text[head:]) for text in texts[1:]):
        # "Austin is in which IHS submarket, and how much did that submarket's index change ...? Also what was
        # Austin's homicide count ...?": a leaning clause inside a sentence; the sentences themselves stand alone
        sentences = _sentences(question)
        alone = (whole.not_used or _declined(whole) or _unread_source(whole)) and not any(_LEANS_RE.search(t) for t in sentences[1:])
        # ("Which submarket rose the most ..., and what was the rate of the areas assigned to it?": one sentence,
        # its two parts)
        return (_read_each(sentences, analyze, carry) if alone else []) or \
            _linked_parts(_two_sentences(question) or (texts if _declined(whole) else []), whole, analyze, carry) or \
            _read_each(_asked_apart(question), analyze, carry, apart=True)
    if not (whole.not_used or _unread_source(whole)):
        # "which zip has the highest value? and which has the lowest?": questions asked apart are answered apart,
        # though the whole reading used every word (it answered the first and took the second's words as its own)
        # "population of Austin per the ACS, and what % of Hyde Park residents are 65+": clauses each about a place
        # of their own, answered apart
        return _read_each(_asked_apart(question), analyze, carry, apart=True) or \
            _read_each(_asked_apart(question, clauses=True), analyze, carry, apart=True, own_places=True)
    return _read_each(texts, analyze, carry) or _read_each(_asked_apart(question), analyze, carry, apart=True)


# A question of its own opens with a question word, or names what it asks ("and the lowest income one?"); "Give the
# Pearson r", "use 2019-2022", "Looking at 2010 through 2019" shape the question before them
_QUESTION_RE = re.compile(r"(?:what|what's|whats|which|how|who|where|when|is|are|was|were|did|does|do|can|could|the|total|"
                          r"(?:by|in)\s+(?:what|how|which))\b", re.I)
# Words of a question asked apart that point at nothing before it: "in total", "how many are there"
_OWN_WORDS_RE = re.compile(r"\bin\s+total\b|\b(?:are|is|were|was)\s+there\b|"
                           # "...? and total homes sold citywide in 2018": a part opening with the total it asks
                           r"^\s*total\b(?=\s+[a-z]+\s+[a-z]+)|"
                           # "by what % did the total change from 2021 to 2022": the city's total, its years its own
                           r"\bthe\s+total\s+(?=(?:change|rise|fall|drop|increase|decrease|go|grow)\w*\s+from\b)", re.I)


def _asked_apart(question: str, clauses: bool = False) -> list[str]:
    """The questions of ``question`` each ended by its own question mark (or, ``clauses``, opened by ", and what
    ..."), none leaning on an earlier one, or []."""
    head = _head(question)
    body = question.strip()[len(head):]
    split = r",\s+and\s+(?=(?:what|which|how|who)\b)" if clauses else r"\?\s+(?=\S)"
    pieces = [p.strip(" ,") for p in re.split(split, body, flags=re.I) if p.strip(" ?.!")]
    pieces = [re.sub(r"^(?:and|also|plus)\b\s*", "", p, flags=re.I) for p in pieces]
    if not 2 <= len(pieces) <= MAX_PARTS or any(len(p.split()) < _MIN_WORDS for p in pieces) \
            or any(_LEANS_RE.search(_TIME_LEAN_RE.sub("", _OWN_WORDS_RE.sub("", p))) for p in pieces[1:]) \
            or not all(_QUESTION_RE.match(p) for p in pieces[1:]):
        return []  # ("...? Give the Pearson r across the areas", "...? and on per capita income?")
    return [head + p for p in pieces]


# The sources only a semantic query reads (no tool's rows hold them): a whole reading without a query of them
# answers a nearby question ("Redfin's median sale price for Chatham ..., and its 2019 homicides" read as homicides
# on the window's last day); the loop's coverage check would only say so after the answer.
_QUERY_ONLY_SOURCES = ("redfin",)


def _unread_source(whole: Analysis) -> bool:
    """The question names a measure of a query-only source that the whole reading has no query of."""
    query = whole.declared_query or {}
    asked = {m if isinstance(m, str) else m.get("measure") for m in query.get("measures", [])}
    return any(catalog().measures[m].dataset in _QUERY_ONLY_SOURCES and m not in asked
               for m in whole.named_measures if m in catalog().measures)


def _read_each(texts: list[str], analyze, carry, apart: bool = False, own_places: bool = False) -> list[QuestionPart]:
    """Each part read alone (a later one as a follow-up of the earlier), or [] where any leaves a word unused. A
    question asked apart may take its measure from the one before ("...? and how many happened on weekends in 2021")."""
    parts: list[QuestionPart] = []
    for i, text in enumerate(texts):
        analysis = analyze(text)
        if own_places and (not _places(analysis) or any(_places(p.analysis) == _places(analysis) for p in parts)
                           or parts and analysis.domains != parts[0].analysis.domains):
            # (one place asked twice is one reading's: "homicides in Austin in 2020, and what % ... in Austin"; two
            # domains at two places are a composition's: "60621's Zillow change, and how did Englewood's homicides")
            return []
        subject = _measure_word(parts[-1].analysis) if apart and parts and NO_SUBJECT in analysis.warnings else ""
        if subject:
            # "...in sept 2024? and how much did 60621 grow from sept 2019 to sept 2024": the earlier part's measure,
            # read with this part's own dates (homicides, the default of a dated question, end before 2024)
            analysis = analyze(f"{subject}: {text}")
        where = _place_words(parts[-1].analysis) if parts else ""
        if apart and where and not (_places(analysis) or analysis.ranking or analysis.citywide
                                    or _OWN_WORDS_RE.search(text)):
            # "Redfin's median sale price in Logan Square ...? and how many homes sold": the earlier part's place
            # and months, read into this part's own query (a layer query is built from the words it reads)
            earlier = parts[-1].analysis
            months = [] if analysis.years else earlier.month_years or sorted({s.start[:7] for s in earlier.date_spans})
            when = " and ".join(f"{calendar.month_name[int(m[5:])]} {m[:4]}" for m in months)
            analysis = analyze(f"{where}{' in ' + when if when else ''}: {text}")
        if i and apart and (any(p.analysis.asks_rank for p in parts) or not _names_its_place(analysis) and any(
                p.analysis.ranking for p in parts)):
            # "Which area has the largest share ...? How many homicides were there in 2021?": that area's; "where does
            # Austin rank ...? And where by rate per 100k?": Austin's rank again
            return []
        if i and apart:
            analysis = carry(analysis, text, [p.analysis for p in parts])
        if not (analysis.domains or analysis.named_measures):
            return []  # "Give the Pearson r across community areas": no figure of its own, it shapes another part's
        if i and not apart:
            analysis = carry(analysis, text, [p.analysis for p in parts])
        if analysis.error or analysis.not_used or analysis.unsupported:
            return []
        parts.append(QuestionPart(text, analysis))
    return parts


def _places(analysis: Analysis) -> tuple:
    """The places a part names itself (an IHS submarket is one)."""
    return ([a.number for a in analysis.areas], analysis.wards, analysis.districts, analysis.zips,
            [s.code for s in analysis.submarkets]) \
        if analysis.areas or analysis.wards or analysis.districts or analysis.zips or analysis.submarkets else ()


def _place_words(analysis: Analysis) -> str:
    """The places a part names, in words another part can be read with ("logan square", "ward 20", "60614")."""
    return ", ".join([a.text or a.name for a in analysis.areas] + [f"ward {w}" for w in analysis.wards]
                     + [f"district {d}" for d in analysis.districts] + [str(z) for z in analysis.zips])


def _measure_word(analysis: Analysis) -> str:
    """The declared word of the first measure a part names ("zillow value"), or ""."""
    return next((catalog().measures[m].words[0] for m in analysis.named_measures
                 if m in catalog().measures and catalog().measures[m].words), "")


def _names_its_place(analysis: Analysis) -> bool:
    """A part that says where it asks about, or ranks places itself."""
    return bool(_places(analysis) or analysis.ranking or analysis.citywide)


def _linked_parts(texts: list[str], whole: Analysis, analyze, carry) -> list[QuestionPart]:
    """Two parts, the second pointing at the one place the first ranks, where the whole reading left words unused
    or declined years the first part's own data holds; [] otherwise."""
    if len(texts) != 2 or not (whole.not_used or _declined(whole) or _unread_source(whole)) or not _POINTS_AT_RE.search(texts[1]):
        return []
    first = analyze(texts[0])
    ranking = first.ranking
    if first.error or first.not_used or first.unsupported or first.out_of_range_years or ranking is None \
            or (ranking.top_n or 1) != 1 or ranking.both_ends:
        return []
    def reader(name: str) -> Analysis:  # the name makes the part whole: nothing carried from the first
        return analyze(linked_text(texts[1], name))
    return [QuestionPart(texts[0], first), QuestionPart(texts[1], None, reader)]


_SENTENCE_END_RE = re.compile(r"\?\s+(?=\S)|(?<!\bvs)(?<!\bst)(?<!\bno)\.\s+(?=(?-i:[A-Z]))", re.I)


def _declined(whole: Analysis) -> list[int]:
    """Years the whole reading declined, other than an IHS release's ("the IHS 2025 Q4 summary" dates a column)."""
    # (the index's own quarters, "grew the most from 2020Q1 to 2025Q4", are no release: their year is declined)
    released = {int(q[:4]) for q in [*whole.quarters, whole.quarter or ""] if q} if whole.price_figure else set()
    return [y for y in whole.out_of_range_years if y not in released]


def _sentences(question: str) -> list[str]:
    """The question's sentences, where it has two to MAX_PARTS; [] otherwise."""
    pieces = [p.strip() for p in _SENTENCE_END_RE.split(question.strip()) if p.strip(" ?.!")]
    return pieces if 2 <= len(pieces) <= MAX_PARTS else []


def _two_sentences(question: str) -> list[str]:
    """The question cut at its first sentence's end, the rest whole ("Which submarket ...? How many areas have it
    ..., and what's their rate?"); [] where it is one sentence."""
    found = _SENTENCE_END_RE.search(question.strip())
    if found is None:
        return []
    return [question.strip()[:found.start() + 1].strip(), question.strip()[found.end():].strip()]


def linked_text(text: str, name: str) -> str:
    """The part with the place's name where it points at it: "have it as their main submarket" -> "have
    Chicago--Englewood/Greater Grand Crossing as their main submarket"."""
    found = _POINTS_AT_RE.search(text)
    if found is None:
        return text
    # "the areas whose main submarket that is" -> "whose main submarket is Chicago--Englewood/..."
    return text[:found.start()] + ("is " if found.group("is") else "") + name + text[found.end():]


def _head(question: str) -> str:
    topic = _TOPIC_RE.match(question.strip())
    return topic.group(1) + ": " if topic else ""
