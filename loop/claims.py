"""What a sentence says each of its numbers is: subject and measure from the few words beside the number, and the
year, place and rank its clause gives it. Only explicit words count; a number whose words say nothing claims
nothing, and the grounding check then asks only that its value be in the results.

* Clauses end at a line, a semicolon, a sentence's end, and a word that starts a contrast ("while", "but",
  "compared with", "than", "followed by", "up from", "->"...). A parenthesis is a clause inside its clause: a
  number in it takes the parenthesis's place, year or rank, else its clause's ("Fuller Park had the highest
  rate (274.5)").
* Subject and measure: the words after the number up to a comma, a parenthesis, "and", "with" or the next
  number (at most six), else the words before it ("35.4% domestic homicide rate", "arrest rate of 35.4%",
  "49 homicides", "274.5 per 100,000"). A percent is a percent, "$" is dollars; "per 100,000" a rate; a count
  noun just after a whole number ("49 homicides") a count. A percent "of homicides" or "of residents" claims no
  subject: it may be any share of them.
* Place, year and rank: one named in the clause is that of every number in it; with several, the one
  attached to the number ("49 in Austin", "Austin had 49", "in 2021, 804") and none where that is unclear.
  A rank word counts only next to its number ("the second-most, 42"), never for a group ("the highest rates",
  "top 5", "at most", "most of the", "highest since 2016", "most first").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from analyzer.lexicon import ORDINAL_WORDS
from loop.meaning import GENERIC_SUBJECTS, Claim, Places, subject_of

_PLACE_NUMBER = re.compile(r"(?<=[A-Za-z] )\(\d{1,3}\)")
# Numbers that name a group, not a figure: "aged 16+", "ages 25 to 34", "$125k+ households".
_BAND_NUMBER = re.compile(r"\b(?:aged?|ages)\s+\d+\s*(?:\+|(?:-|to)\s*\d+)?|\$?\d+(?:,\d{3})*k?\+", re.I)
_ABBREVIATION = re.compile(r"\b(?:pop|vs|no|approx|est|st|mt|e\.g|i\.e|hisp|non)$", re.I)
_HARD = re.compile(r"\n|;|[.!?](?=\s|$)")
_SOFT = re.compile(r"\b(?:while|whereas|but|however|compared\s+(?:with|to)|versus|vs\.?|than|followed\s+by|"
                   r"ahead\s+of|behind|up\s+from|down\s+from|against)\b|->|→", re.I)
_YEAR_SPAN = re.compile(r"(?<![\d,.$])((?:19|20)\d\d)\s*(?:-|–|—|to|through|thru|and)\s*((?:19|20)\d\d)"
                        r"(?!\d|[,.]\d)", re.I)
_YEAR = re.compile(r"(?<![\d,.$])((?:19|20)\d\d)(?!\d|[,.]\d)")
_NOT_THE_YEAR = re.compile(r"\b(?:since|before|after|until|till|prior\s+to)\s+$", re.I)
_ORDINAL = r"(" + "|".join(w for w, n in ORDINAL_WORDS.items() if n > 1) + r"|\d{1,2}(?:st|nd|rd|th))"
_RANK = re.compile(r"\b(?:" + _ORDINAL + r"[\s-]+)?(most|highest|largest|greatest|biggest|worst|deadliest|"
                   r"fewest|lowest|least|smallest)\b|\brank(?:ed|s)\s+(first|" + _ORDINAL[1:-1] + r")\b", re.I)
_BOTTOM = {"fewest", "lowest", "least", "smallest"}
_COUNT_WORD = r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten)"
_RANK_GROUP_BEFORE = re.compile(r"(?:\bat|\bone\s+of\s+the|\bamong\s+the|\btop|" + _COUNT_WORD + r")\s+$", re.I)
_RANK_GROUP_AFTER = re.compile(r"^\s+(?:of\s+(?:the|these|those|them|its|their|all)\b|first\b|recent|likely|often|"
                               r"common\b|" + _COUNT_WORD + r"\b|(?:\w+\s+){0,2}since\b|(?:\w+\s+)?(?:rates|values|"
                               r"incomes|levels|counts|shares|numbers|areas|wards|districts|neighborhoods|zips)\b)",
                               re.I)
_RATE_BASE = re.compile(r"\bper\s+(?:100,?000|100\s000|100k|hundred\s+thousand)\b(?:\s+(?:residents|people|"
                        r"population|inhabitants))?", re.I)
_WINDOW_STOP = re.compile(r"[,;:()\[\]!?\n]|[.](?=\s|$)|\b(?:and|or|but|while|whereas|with|which|compared|"
                          r"versus|vs|than)\b", re.I)
_COUNT_NOUN = re.compile(r"^\s*(?:\S+\s+){0,2}?(?:homicides?|murders?|killings?|deaths|victims|people|persons|"
                         r"residents|arrests?|households|incidents|cases)\b", re.I)
_RATE_WORD = re.compile(r"\brates?\b", re.I)
_WHOLE_BEFORE = re.compile(r"\bof(?:\s+the|\s+all)?$", re.I)
_SHARE_WORD = re.compile(r"\brates?\b|\bshare\b|\bpercent|\bproportion\b|%", re.I)
_PER_TIME = re.compile(r"\bper\s+(?:year|month|day)\b|\ba\s+year\b|\bannual|\byearly\b", re.I)
_INDEX_WORD = re.compile(r"\bindex\b", re.I)
WINDOW_WORDS = 6
# "shot and killed" is one word for a homicide: its "and" must not cut the window at "shot" (a survivor's word).
_SHOT_DEAD = re.compile(r"\bshot\s+(?:and\s+killed|dead|to\s+death)\b", re.I)


@dataclass(frozen=True)
class _Mention:
    start: int
    end: int
    value: object  # a place key, a (first, last) year span, or a ("top" | "bottom", k) rank


def _segments(text: str) -> list[tuple[int, int]]:
    cuts = [0]
    for m in _HARD.finditer(text):
        if m.group(0) == "." and _ABBREVIATION.search(text[max(0, m.start() - 5):m.start()]):
            continue
        cuts.append(m.end())
    cuts += [m.start() for m in _SOFT.finditer(text)]
    cuts = sorted(set(cuts + [len(text)]))
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def _parentheses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans, opened = [], None
    for i in range(start, end):
        if text[i] in "([" and opened is None:
            opened = i
        elif text[i] in ")]" and opened is not None:
            spans.append((opened, i + 1))
            opened = None
    if opened is not None:
        spans.append((opened, end))
    return spans


def _years(text: str) -> list[_Mention]:
    found = [_Mention(m.start(), m.end(), (int(m.group(1)), int(m.group(2)))) for m in _YEAR_SPAN.finditer(text)]
    for m in _YEAR.finditer(text):
        inside = any(y.start <= m.start() < y.end for y in found)
        if inside or _NOT_THE_YEAR.search(text[max(0, m.start() - 12):m.start()]):
            continue
        found.append(_Mention(m.start(), m.end(), (int(m.group(1)),) * 2))
    return found


def _ranks(text: str) -> list[_Mention]:
    found = []
    for m in _RANK.finditer(text):
        if m.group(2):
            if _RANK_GROUP_BEFORE.search(text[max(0, m.start() - 14):m.start()]) or _RANK_GROUP_AFTER.match(
                    text[m.end():m.end() + 40]):
                continue
            word = (m.group(1) or "").lower()
            k = ORDINAL_WORDS.get(word) or int(re.sub(r"\D", "", word) or 1)
            found.append(_Mention(m.start(), m.end(), ("bottom" if m.group(2).lower() in _BOTTOM else "top", k)))
        else:
            word = m.group(3).lower()
            found.append(_Mention(m.start(), m.end(), ("top", ORDINAL_WORDS.get(word) or int(re.sub(r"\D", "", word)))))
    return found


class _Scopes:
    """Each position's clause and, inside a parenthesis, the parenthesis."""

    def __init__(self, text: str):
        self.segments = _segments(text)
        self.parens = {seg: _parentheses(text, *seg) for seg in self.segments}

    def of(self, position: int) -> tuple[tuple, tuple | None]:
        seg = next((s for s in self.segments if s[0] <= position < s[1]), (position, position + 1))
        paren = next((p for p in self.parens.get(seg, ()) if p[0] <= position < p[1]), None)
        return seg, paren

    def members(self, mentions: list[_Mention], seg: tuple, paren: tuple | None) -> list[_Mention]:
        """The mentions in a parenthesis, or in a clause outside its parentheses."""
        if paren is not None:
            return [m for m in mentions if paren[0] <= m.start < paren[1]]
        inner = self.parens.get(seg, ())
        return [m for m in mentions if seg[0] <= m.start < seg[1] and not any(a <= m.start < b for a, b in inner)]


def _attached(mentions: list[_Mention], start: int, end: int, figures: list[tuple[int, int]], text: str,
              single: bool = True):
    """The mention that belongs to the number at start..end: the only one named, else one joined to it."""
    distinct = {m.value for m in mentions}
    if single and len(distinct) == 1:
        return next(iter(distinct))

    def clear(a: int, b: int) -> bool:
        return not any(a <= s and e <= b for s, e in figures if (s, e) != (start, end))

    after = [m for m in mentions if m.start >= end and clear(end, m.start)]
    # "49 homicides in Austin": the words between may not start another part ("$39,056, and in Woodlawn is").
    if after and re.fullmatch(r"\s*(?:(?!(?:and|or)\b)[^\s,;]+\s+){0,3}?(?:in|for|at|during|across|was|were|is)\s+"
                              r"(?:the\s+)?", text[end:after[0].start], re.I):
        return after[0].value
    before = [m for m in mentions if m.end <= start and clear(m.end, start)]
    if before:
        return before[-1].value
    if not single and after and not text[end:after[0].start].strip(" ,:"):
        return after[0].value
    return None


def _windows(text: str, start: int, end: int, lo: int, hi: int, figures: list) -> tuple[str, str]:
    """The words after the number and before it, each up to a stop or another number and at most six words."""
    lo = max([lo] + [e for s, e in figures if e <= start])
    hi = min([hi] + [s for s, e in figures if s >= end])
    after = text[end:hi]
    after = _SHOT_DEAD.sub("killed", _RATE_BASE.sub(" per_100k ", after))
    stop = _WINDOW_STOP.search(after)
    after = " ".join(after[:stop.start() if stop else len(after)].split()[:WINDOW_WORDS])
    before = _RATE_BASE.sub(" per_100k ", text[lo:start])
    stops = list(_WINDOW_STOP.finditer(before))
    cut, end_at = (stops[-1].end() if stops else 0), len(before)
    if stops and not before[cut:].strip() and stops[-1].group(0) in ",:":
        # "the highest median household income, $88,669", "per capita income: $15,957": the words before the
        # comma or colon name the figure that follows it.
        end_at = stops[-1].start()
        cut = stops[-2].end() if len(stops) > 1 else 0
    before = " ".join(before[cut:end_at].split()[-WINDOW_WORDS:])
    return after, before


def _subject_and_measure(number, after: str, before: str) -> tuple[str | None, str | None]:
    subject = subject_of(after.replace("per_100k", "")) or subject_of(before.replace("per_100k", ""))
    noun = _COUNT_NOUN.match(after)
    if noun and _WHOLE_BEFORE.search(before):
        # "269 of the 804 homicides led to an arrest": the whole is homicides, the arrests are the part.
        subject = subject_of(noun.group(0)) or subject
    words = f"{after} {before}"
    if number.percent:
        measure = "share"
    elif number.money:
        measure = "money"
    elif "per_100k" in words:
        measure = "rate"
    elif subject in (None, "homicides") and _RATE_WORD.search(words) and not _PER_TIME.search(words):
        measure = "rate"
    elif subject not in (None, "homicides", "population", "households") and _SHARE_WORD.search(words):
        measure = "share"
    elif re.match(r"\s*(?:more|fewer|less)\b", after):
        measure = "change"  # "44 more homicides in Austin than in North Lawndale": a difference, not a count
    elif _INDEX_WORD.search(words):
        measure = "index"
    elif _COUNT_NOUN.match(after) and " per " not in f" {after} ":
        measure = "count"
    else:
        measure = None
    if number.percent and subject in GENERIC_SUBJECTS:
        subject = None
    return subject, measure


def _pieces(length: int, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The text cut at the spans: the spans and the pieces between them, in order."""
    cuts = sorted({0, length, *[p for span in spans for p in span]})
    return list(zip(cuts, cuts[1:]))


def read_claims(text: str, numbers: list, places: Places | None = None) -> list[Claim | None]:
    """What ``text`` says each of ``numbers`` (extracted from it, with their spans) is; None where it says nothing
    or the number names a place or a year."""
    text = text or ""
    place_mentions = [_Mention(s, e, key) for s, e, key in (places or Places()).find(text)]
    # An area's number after its name, "Fuller Park (37)", is part of the name, not a parenthesis; "the most
    # homicides (49)" and "Austin (49)" are figures.
    numbered = [m.span() for m in _PLACE_NUMBER.finditer(text)
                if any(not text[p.end:m.start()].strip() and p.value == f"area:{int(m.group(0)[1:-1])}"
                       for p in place_mentions if p.end <= m.start())]
    masked = "".join(" " * (b - a) if (a, b) in numbered else text[a:b]
                     for a, b in _pieces(len(text), numbered))
    year_mentions, rank_mentions = _years(masked), _ranks(masked)
    scopes = _Scopes(masked)
    skipped = [(m.start, m.end) for m in place_mentions] + [(m.start, m.end) for m in year_mentions] + numbered
    skipped += [(m.start(), m.end()) for m in _BAND_NUMBER.finditer(text)]
    skipped += [(m.start(), m.end()) for m in _RATE_BASE.finditer(masked)]  # "per 100,000": the base, not a figure
    figures = [(n.start, n.end) for n in numbers
               if not any(a <= n.start and n.end <= b for a, b in skipped) and not n.is_year]
    claims: list[Claim | None] = []
    for number in numbers:
        if (number.start, number.end) not in figures or number.times:
            claims.append(None)
            continue
        claims.append(_claim(masked, number, scopes, figures, place_mentions, year_mentions, rank_mentions) or None)
    return claims


def _claim(text: str, number, scopes: _Scopes, figures: list, places: list, years: list, ranks: list) -> Claim:
    seg, paren = scopes.of(number.start)
    lo, hi = paren if paren is not None else seg
    after, before = _windows(text, number.start, number.end, lo, hi, figures)
    subject, measure = _subject_and_measure(number, after, before)
    found = {}
    for name, mentions, single in (("place", places, True), ("years", years, True), ("rank", ranks, False)):
        value = None
        if paren is not None:
            value = _attached(scopes.members(mentions, seg, paren), number.start, number.end, figures, text, single)
        if value is None:
            outer = scopes.members(mentions, seg, None)
            start, end = (paren if paren is not None else (number.start, number.end))
            value = _attached(outer, start, end, figures if paren is None else [], text, single)
        found[name] = value
    return Claim(subject, measure, found["years"], found["place"], found["rank"])
