"""Follow-up questions: carry places, periods and subjects forward from earlier turns of a conversation.

"And in 2021?", "What about Englewood?" or "How does that compare with the city?" name only what
changes; everything else comes from the turns before. ``carry_forward`` looks at what the new
question's analysis leaves out, in three groups, and takes each missing group from the most recent
earlier turn that had it:

- places  (areas, wards, districts, zips): unless the question asks about the whole city, or ranks
  or breaks down places ("which areas ...") — then no place is meant;
- time    (years, year_range, periods, months): only into a question about the same kind of data
  (a homicide year means nothing to the 2008-2012 socioeconomic snapshot), and not into one that asks
  for a series over time ("each year", "how has it changed");
- subject (metrics, domains, plus per-capita, group, location and trend wording): when the question
  names no data domain; a ranking or breakdown travels with it only when no place is named.

Each carried field is recorded with the turn where it was first stated (following earlier carries
back), so the trace shows "areas from turn 1, years from turn 2".

``history_lines`` is the other half: a compact summary of the earlier turns (question and the
answer's first sentence) for an LLM prompt, newest kept first within a character budget.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, is_dataclass, replace

from analyzer.analysis import Analysis, CarriedField, FollowUp, PlaceMatch, YearSpan

# Places left out ("outside Austin") and places outside Chicago are part of where a question asks about: a follow-up
# naming them carries no earlier place in, and one naming no place carries them as they were (never as included).
PLACES = ("areas", "wards", "districts", "zips", "excluded_areas", "excluded_wards", "excluded_districts",
          "excluded_zips", "outside_places")
TIME = ("years", "year_range", "periods", "months")
SUBJECT = ("metrics", "domains")
SUBJECT_EXTRAS = ("per_capita", "census_group", "census_by_count", "domestic_filter", "locations", "trend",
                  "domestic_excluded", "arrest_filter", "excluded_locations")
RANKING = ("ranking", "group_by")
PLACE_BREAKDOWNS = ("community_area", "ward", "district")
NOTED = PLACES + ("years", "periods", "metrics")  # what the model's hint line names
MAX_HISTORY_CHARS = 600  # the summary of earlier turns never takes more than this
MAX_LINE_CHARS = 220
_COMPARE_CITY = re.compile(r"\b(?:compar\w*|vs\.?|versus|against|relative\s+to)\b.{0,40}\b(?:city|chicago|citywide|"
                           r"city-wide)\b|\b(?:city|chicago)\s+(?:average|as\s+a\s+whole|overall)\b", re.I)
# Words that make a message with no place, period or subject of its own a follow-up ("and?", "what about that").
_FOLLOWUP_CUE = re.compile(r"^\s*(?:and|what\s+about|how\s+about|same|now|also|but|then|ok|okay)\b|"
                           r"\b(?:that|those|these|this|there|it|them|same|instead|again|too|compar\w*)\b", re.I)
_COUNTS_PLACES_RE = re.compile(r"\bhow\s+many\s+(?:\w+\s+){0,2}?(?:stations|wards|districts|community\s+areas|areas|"
                               r"neighbou?rhoods|zips|zip\s+codes|submarkets)\s+(?:are|is|were)\s+there\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")


@dataclass(frozen=True)
class EarlierTurn:
    """One earlier turn of a conversation, as the run store gives it back (analysis typed again)."""

    turn: int
    question: str
    answer: str
    analysis: Analysis


@dataclass
class Carry:
    """What a follow-up takes from earlier turns: field values to set, and where each came from."""

    turn: int  # this question's turn number (1 = the first question)
    updates: dict = field(default_factory=dict)
    record: list[CarriedField] = field(default_factory=list)
    compare_city: bool = False

    def note(self) -> str:
        """One line for the model's hint: what was carried, from which turn."""
        parts = [f"{r.field.replace('_', ' ')} {_show(r.value)} (turn {r.from_turn})" for r in self.record
                 if r.field in NOTED]
        if self.compare_city:
            parts.append("compare with the whole city")
        return ("From earlier turns: " + "; ".join(parts)) if parts else ""

    def followup(self) -> FollowUp:
        return FollowUp(turn=self.turn, carried=list(self.record), compare_city=self.compare_city)


def _plain(value):
    """A field's value in the trace's JSON form (places and spans as dicts)."""
    if is_dataclass(value):
        return asdict(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _show(value) -> str:
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value)
    if isinstance(value, dict):
        if "name" in value:
            return str(value["name"])
        if "start" in value:
            return f"{value['start']}-{value['end']}"
    if isinstance(value, PlaceMatch):
        return value.name
    if isinstance(value, YearSpan):
        return f"{value.start}-{value.end}"
    return str(value)


def _has(analysis: Analysis, names) -> bool:
    return any(getattr(analysis, name) for name in names)


def _latest(previous: list[Analysis], names) -> int | None:
    """Index of the most recent earlier turn whose analysis has any of ``names``."""
    for i in range(len(previous) - 1, -1, -1):
        if _has(previous[i], names):
            return i
    return None


def _origin(previous: list[Analysis], index: int, name: str) -> int:
    """The turn (1-based) where a field's value was stated, following that turn's own carries back."""
    earlier = previous[index].followup
    return (earlier.origin(name) if earlier else None) or index + 1


def carry_forward(question: str, current: Analysis, previous: list[Analysis]) -> Carry:
    """What the new question (``current`` is its own analysis) takes from ``previous`` (earlier turns' analyses,
    oldest first). Nothing is carried into a group the question states itself."""
    carry = Carry(turn=len(previous) + 1)
    if not previous:
        return carry
    low = str(question or "").lower()
    states_something = _has(current, PLACES + TIME + SUBJECT + RANKING)
    if current.unsupported or current.injection_suspected or current.error or \
            not (states_something or _FOLLOWUP_CUE.search(low)):
        return carry  # "thanks!", an off-topic or suspicious message: not a follow-up of the data question

    def take(index: int, names) -> None:
        for name in names:
            value = getattr(previous[index], name)
            if value and not getattr(current, name):
                carry.updates[name] = value
                carry.record.append(CarriedField(name, _plain(value), _origin(previous, index, name)))

    names_place = _has(current, PLACES)
    ranks_places = bool(current.ranking) or current.group_by in PLACE_BREAKDOWNS
    carry.compare_city = current.citywide and not names_place and bool(_COMPARE_CITY.search(low))
    # "how many district stations are there in total": places of a kind counted over the city, not the last place's
    wants_city = current.citywide and not carry.compare_city or bool(_COUNTS_PLACES_RE.search(low))

    # ("who is the ward 17 alderman?": a measure of its own, no homicides carried in)
    subject_from = None if current.domains or current.named_measures else _latest(previous, ("domains",))
    if subject_from is not None:
        take(subject_from, SUBJECT + SUBJECT_EXTRAS)
        earlier = list(previous[subject_from].metrics)
        if current.metrics and earlier:  # "how has that changed?": the new words ("trend") after the old
            carry.updates["metrics"] = list(dict.fromkeys(earlier + list(current.metrics)))
            carry.record.append(CarriedField("metrics", earlier, _origin(previous, subject_from, "metrics")))
        if not names_place and not ranks_places:
            take(subject_from, RANKING)
    if not names_place and not ranks_places and not wants_city:
        place_from = _latest(previous, PLACES)
        if place_from is not None:
            take(place_from, PLACES)
    # ("which month had the most?" after "... in 2018": the months of 2018)
    over_time = current.group_by == "year" or current.trend
    if not _has(current, TIME) and not over_time:  # "each year", "how has it changed": all years, not the old one
        time_from = _latest(previous, TIME)
        domains = set(carry.updates.get("domains") or current.domains)
        if time_from is not None and (not domains or domains & set(previous[time_from].domains)):
            take(time_from, TIME)
    return carry


def apply(analysis: Analysis, question: str, previous: list[Analysis]) -> Analysis:
    """The analysis with carried fields filled in, the record in ``followup`` and the model's hint extended."""
    carry = carry_forward(question, analysis, previous)
    extra: dict = {"followup": carry.followup()}
    if carry.compare_city:
        extra.update(compare_city=True, comparison=True)
    note = carry.note()
    if note:
        extra["hint_text"] = (analysis.hint_text + "\n" + note).strip()
    years = carry.updates.get("years")
    if years and analysis.declared_query:  # a layer query read from the words alone takes the carried years too
        period = {"year": years[0]} if len(years) == 1 else {"years": sorted(years)}
        extra["declared_query"] = {**analysis.declared_query, "measures": [
            {"measure": m, "period": period} if isinstance(m, str) else m if m.get("period") else {**m, "period": period}
            for m in analysis.declared_query.get("measures", [])]}
    return replace(analysis, **carry.updates, **extra)


def first_sentence(text: str, limit: int = 160) -> str:
    """The first sentence of an answer (a decimal point or "$1.5" does not end one), at most ``limit`` chars."""
    text = " ".join(str(text or "").split())
    head = _SENTENCE_END.split(text, maxsplit=1)[0] if text else ""
    return head if len(head) <= limit else head[: limit - 1].rstrip() + "…"


def history_lines(turns: list[EarlierTurn], n_ctx: int | None = None) -> list[str]:
    """'Turn N: <question> -> <answer's first sentence>' for earlier turns, oldest first, within the budget:
    at most an eighth of the context window (about four characters a token) and MAX_HISTORY_CHARS."""
    budget = MAX_HISTORY_CHARS if not n_ctx else min(MAX_HISTORY_CHARS, int(n_ctx) // 2)
    lines: list[str] = []
    used = 0
    for turn in reversed(turns):
        question = " ".join(turn.question.split())
        line = f"Turn {turn.turn}: {question} -> {first_sentence(turn.answer)}"
        line = line if len(line) <= MAX_LINE_CHARS else line[: MAX_LINE_CHARS - 1] + "…"
        if used + len(line) + 1 > budget:
            break
        lines.insert(0, line)
        used += len(line) + 1
    return lines
