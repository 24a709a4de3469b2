"""Does an answer read as an answer? The loop refuses a model's answer that fails these checks (the planner's
answer is shown instead, loop/answer_check.py), and the evaluation applies them to every answer.

A person asked in words, so the first sentence states the figure asked for with its place and period, and the
answer is not a templated chain ("Then, for that area: ...") or a key line copied bare ("717 homicides (year
2022); arrest rate 35.4%", "Ranked highest: ..."). The place and period are the reading's (analyzer/reading.py):
what the reader was told the question was read as is what the first sentence must be about.
"""
from __future__ import annotations

import re

# The starts of the planner's key-line fragments and chains: a bare figure, a label and a colon.
_BARE_START = re.compile(r"^(?:[-+$]?\d|Ranked (?:highest|lowest):|Overall \(|Highest:|Lowest:|By year:|Then,)")
_CHAIN = re.compile(r"then, for (?:that|those) areas?", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])|\n")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_DECLINED = re.compile(r"\b(?:cannot|can't|does not (?:record|include)|is not in the data)\b", re.IGNORECASE)
# A key line's label and colon opening the answer ("Lincoln Park: per capita income $71,551 ..."): a sentence has a
# verb before any colon it opens with ("The ward with the most homicides in 2020 was Ward 28: 61").
_LABEL_START = re.compile(r"^([A-Z][^:;.]{0,70}?):\s")
_VERB = re.compile(r"\b(?:was|were|is|are|had|has|have|did|does|rose|fell|changed|went|earn|earned|means|lived|"
                   r"live|stood|cost|counted)\b", re.IGNORECASE)
# A sentence whose subject is a year ("2016 had more: 762 against 672") starts with digits but is no key line.
_YEAR_SUBJECT = re.compile(r"^(?:19|20)\d\d,?\s+(?:saw|was|had|ended|recorded)\b", re.IGNORECASE)
_FIGURE = re.compile(r"(?<![\w.])[-+]?\$?\d[\d,]*(?:\.\d+)?%?")


# A lead that says what the data cannot give ("the IHS price index does not cover its submarket", "2024 is not in the
# data"): a model's rewrite must say it too.
_GAP = re.compile(r"\b(?:cannot|can't|could not|does not (?:record|include|cover|hold)|doesn't (?:cover|include)|"
                  r"(?:is|are) not in the data|outside the (?:\w+ )?data|not covered|there is no|does not exist)\b",
                  re.IGNORECASE)


def gap_dropped(answer: str, planner_answer: str, passed_on: list[str] = ()) -> list[str]:
    """The planner's lead names a part the data cannot answer and the answer's lead does not: the rewrite turned a
    decline into a figure for something else ("the Chicago-wide index for the Loop submarket"). Not where a note
    that is passed on after the answer (``passed_on``) names a gap itself."""
    lead = (planner_answer or "").split("\n\n", 1)[0]
    found = _GAP.search(lead)
    if found is None or _GAP.search((answer or "").split("\n\n", 1)[0]) or any(_GAP.search(n) for n in passed_on):
        return []
    return [f"drops what the data cannot answer: {found.group(0)!r}"]


def first_sentence(answer: str) -> str:
    text = (answer or "").strip()
    return _SENTENCE_END.split(text, maxsplit=1)[0] if text else ""


def _place_words(place: str) -> list[str]:
    """What of a reading's place the sentence must name: "Austin (25)" -> "Austin"; "police district 11" ->
    "district 11"; "the city excluding ward 11" -> "ward 11"; an outside or broad place is not checked."""
    if place.startswith(("outside Chicago", "the rest of the city", "IHS submarket")):
        return []
    if place.startswith("the community areas with "):  # areas a measure picks: the answer names them as such
        return ["community areas"]
    place = re.sub(r"^(?:the city )?excluding ", "", place)
    place = re.sub(r"^police ", "", place)
    return [re.sub(r"\s*\(\d+\)$", "", part).strip() for part in place.split(", ") if part.strip()]


def _figures(sentence: str, places: list[str]) -> list[str]:
    """Numbers that are figures: not a year, not a number inside a place's name ("ward 28", "(25)", a ZIP)."""
    text = _YEAR.sub(" ", sentence)
    text = re.sub(r"\((?:community area )?\d{1,2}\)|\b(?:ward|district|area|ZIP)\s+\d+|\b606\d\d\b", " ", text,
                  flags=re.IGNORECASE)
    for place in places:
        text = text.replace(place, " ")
    return _FIGURE.findall(text)


def form_problems(answer: str, reading: dict | None, answered: bool = True) -> list[str]:
    """What is wrong with an answer's form, [] when nothing is. ``answered``: the run had data to answer from (a
    refusal or an outside-the-data reply states no figure)."""
    problems = []
    text = (answer or "").strip()
    if _CHAIN.search(text):
        problems.append("a templated chain ('Then, for that area')")
    if _BARE_START.match(text) and not _YEAR_SUBJECT.match(text):
        problems.append(f"starts with a bare key line: {text[:60]!r}")
    if not answered or not reading:
        return problems
    sentence = first_sentence(text)
    label = _LABEL_START.match(sentence)
    if label and not _VERB.search(label.group(1)):
        problems.append(f"starts with a key line's label, not a sentence: {sentence[:60]!r}")
    if _DECLINED.search(sentence):
        return problems  # the part the data cannot answer is declined first, as it must be
    # A question of several measures ("the area with the most homicides, and its income") is answered part by part:
    # the reading's place and period may belong to a later part, so they are looked for in the opening paragraph.
    scope = text.split("\n\n", 1)[0] if len(reading.get("measures") or []) > 1 else sentence
    places = [w for place in reading.get("places") or [] for w in _place_words(place)]
    for word in places[:1]:
        if word.lower() not in scope.lower():
            problems.append(f"the first sentence does not name the place {word!r}")
    for period in reading.get("periods") or []:
        years = _YEAR.findall(period)
        # Separate years each; a range by its start ("since 2015"); a ranking's year before a follow-up's ("2020,
        # then 2021 for the place ranked") by the ranking's.
        wanted = years[:1] if "then" in period else years if "separate" in period or "," in period else years[:1]
        if any(year not in scope for year in wanted):
            problems.append(f"the first sentence does not name the period {period!r}")
    if not _figures(sentence, places) and not reading.get("text_answer"):
        problems.append("the first sentence states no figure")
    return problems
