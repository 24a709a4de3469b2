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
back), so the trace shows "areas from turn 1, years from turn 2". Code here reads and writes the
analysis by field name only, so it works on the analyzer's dict and on a dataclass with the same
fields.

``history_lines`` is the other half: a compact summary of the earlier turns (question and the
answer's first sentence) for an LLM prompt, newest kept first within a character budget.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

PLACES = ("areas", "wards", "districts", "zips")
TIME = ("years", "year_range", "periods", "months")
SUBJECT = ("metrics", "domains")
SUBJECT_EXTRAS = ("per_capita", "census_group", "domestic_filter", "locations", "trend")
RANKING = ("ranking", "group_by")
PLACE_BREAKDOWNS = ("community_area", "ward", "district")
MAX_HISTORY_CHARS = 600  # the summary of earlier turns never takes more than this
MAX_LINE_CHARS = 220
_COMPARE_CITY = re.compile(r"\b(?:compar\w*|vs\.?|versus|against|relative\s+to)\b.{0,40}\b(?:city|chicago|citywide|"
                           r"city-wide)\b|\b(?:city|chicago)\s+(?:average|as\s+a\s+whole|overall)\b", re.I)
# Words that make a message with no place, period or subject of its own a follow-up ("and?", "what about that").
_FOLLOWUP_CUE = re.compile(r"^\s*(?:and|what\s+about|how\s+about|same|now|also|but|then|ok|okay)\b|"
                           r"\b(?:that|those|these|this|there|it|them|same|instead|again|too|compar\w*)\b", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")


def get(analysis, name: str):
    """A field of a dict analysis or of a dataclass one."""
    if isinstance(analysis, dict):
        return analysis.get(name)
    return getattr(analysis, name, None)


def _has(analysis, fields) -> bool:
    return any(get(analysis, f) for f in fields)


@dataclass
class Carry:
    """What a follow-up takes from earlier turns: field values to set, and where each came from."""

    turn: int  # this question's turn number (1 = the first question)
    updates: dict = field(default_factory=dict)
    record: list = field(default_factory=list)  # [{"field", "value", "from_turn"}]
    compare_city: bool = False

    def note(self) -> str:
        """One line for the model's hint: what was carried, from which turn."""
        parts = [f"{r['field'].replace('_', ' ')} {_show(r['value'])} (turn {r['from_turn']})" for r in self.record
                 if r["field"] in PLACES + ("years", "periods", "metrics")]
        if self.compare_city:
            parts.append("compare with the whole city")
        return ("From earlier turns: " + "; ".join(parts)) if parts else ""

    def to_dict(self) -> dict:
        return {"turn": self.turn, "carried": self.record, "compare_city": self.compare_city}


def _show(value) -> str:
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value)
    if isinstance(value, dict):
        if "name" in value:
            return str(value["name"])
        if "start" in value:
            return f"{value['start']}-{value['end']}"
    return str(value)


def _latest(previous: list, fields) -> int | None:
    """Index of the most recent earlier turn whose analysis has any of ``fields``."""
    for i in range(len(previous) - 1, -1, -1):
        if _has(previous[i], fields):
            return i
    return None


def _origin(previous: list, index: int, name: str) -> int:
    """The turn (1-based) where a field's value was stated, following that turn's own carries back."""
    for entry in (get(previous[index], "followup") or {}).get("carried") or []:
        if entry.get("field") == name:
            return int(entry.get("from_turn") or index + 1)
    return index + 1


def carry_forward(question: str, current, previous: list) -> Carry:
    """What the new question (``current`` is its own analysis) takes from ``previous`` (earlier turns' analyses,
    oldest first). Nothing is carried into a question that states a group itself."""
    carry = Carry(turn=len(previous) + 1)
    if not previous:
        return carry
    low = str(question or "").lower()
    states_something = _has(current, PLACES + TIME + SUBJECT + RANKING)
    if get(current, "unsupported") or get(current, "injection_suspected") or \
            not (states_something or _FOLLOWUP_CUE.search(low)):
        return carry  # "thanks!", an off-topic or suspicious message: not a follow-up of the data question

    def take(index: int, names) -> None:
        for name in names:
            value = get(previous[index], name)
            if value and not get(current, name):
                carry.updates[name] = value
                carry.record.append({"field": name, "value": value, "from_turn": _origin(previous, index, name)})

    names_place = _has(current, PLACES)
    ranks_places = bool(get(current, "ranking")) or get(current, "group_by") in PLACE_BREAKDOWNS
    carry.compare_city = bool(get(current, "citywide")) and not names_place and bool(_COMPARE_CITY.search(low))
    wants_city = bool(get(current, "citywide")) and not carry.compare_city

    subject_from = None if get(current, "domains") else _latest(previous, ("domains",))
    if subject_from is not None:
        take(subject_from, SUBJECT + SUBJECT_EXTRAS)
        earlier = list(get(previous[subject_from], "metrics") or [])
        if get(current, "metrics") and earlier:  # "how has that changed?": the new words ("trend") after the old
            carry.updates["metrics"] = list(dict.fromkeys(earlier + list(get(current, "metrics"))))
            carry.record.append({"field": "metrics", "value": earlier,
                                 "from_turn": _origin(previous, subject_from, "metrics")})
        if not names_place and not ranks_places:
            take(subject_from, RANKING)
    if not names_place and not ranks_places and not wants_city:
        place_from = _latest(previous, PLACES)
        if place_from is not None:
            take(place_from, PLACES)
    over_time = get(current, "group_by") in ("year", "month") or bool(get(current, "trend"))
    if not _has(current, TIME) and not over_time:  # "each year", "how has it changed": all years, not the old one
        time_from = _latest(previous, TIME)
        domains = set(carry.updates.get("domains") or get(current, "domains") or [])
        if time_from is not None and (not domains or domains & set(get(previous[time_from], "domains") or [])):
            take(time_from, TIME)
    if carry.compare_city:
        carry.updates.update({"compare_city": True, "comparison": True})
    return carry


def apply(analysis: dict, question: str, previous: list) -> dict:
    """The analysis dict with carried fields filled in, the record under "followup" and the hint extended."""
    carry = carry_forward(question, analysis, previous)
    out = {**analysis, **carry.updates, "followup": carry.to_dict()}
    note = carry.note()
    if note:
        out["hint_text"] = ((analysis.get("hint_text") or "") + "\n" + note).strip()
    return out


def first_sentence(text: str, limit: int = 160) -> str:
    """The first sentence of an answer (a decimal point or "$1.5" does not end one), at most ``limit`` chars."""
    text = " ".join(str(text or "").split())
    head = _SENTENCE_END.split(text, maxsplit=1)[0] if text else ""
    return head if len(head) <= limit else head[: limit - 1].rstrip() + "…"


def history_lines(turns: list, n_ctx: int | None = None) -> list[str]:
    """'Turn N: <question> -> <answer's first sentence>' for earlier turns, oldest first, within the budget:
    at most an eighth of the context window (about four characters a token) and MAX_HISTORY_CHARS."""
    budget = MAX_HISTORY_CHARS if not n_ctx else min(MAX_HISTORY_CHARS, int(n_ctx) // 2)
    lines: list[str] = []
    used = 0
    for number, turn in reversed(list(enumerate(turns, start=1))):
        question = " ".join(str(get(turn, "question") or "").split())
        line = f"Turn {get(turn, 'turn') or number}: {question} -> {first_sentence(get(turn, 'answer'))}"
        line = line if len(line) <= MAX_LINE_CHARS else line[: MAX_LINE_CHARS - 1] + "…"
        if used + len(line) + 1 > budget:
            break
        lines.insert(0, line)
        used += len(line) + 1
    return lines
