"""Years and periods in a question, with relative phrases read against the data's coverage.

"Last year" means the homicide snapshot's last full year, not the calendar's: the answer must
come from a year the data actually holds.
"""
from __future__ import annotations

import calendar
import re
from types import SimpleNamespace

from analyzer.lexicon import CHANGE_WORDS, NUM, ORDINAL_WORDS, YEAR, add_unique, alternation, counting, number, overlaps
from analyzer.pandemic import VOCABULARY as PANDEMIC_VOCABULARY
from analyzer.pandemic import pandemic_times

_FLAGS = re.I
_RANGE_RES = [
    re.compile(r"\bfrom\s+" + YEAR + r"\s+(?:to|until|till|through|thru|-|–)\s+" + YEAR + r"\b", _FLAGS),
    re.compile(r"\bbetween\s+" + YEAR + r"\s+and\s+" + YEAR + r"\b", _FLAGS),
    re.compile(r"\b" + YEAR + r"\s*(?:-|–|—|to|through|thru)\s*" + YEAR + r"\b", _FLAGS),
    re.compile(r"\b" + YEAR + r"\s*[-–]\s*(\d{2})\b(?!\d)", _FLAGS),
]
# "up from 2015", "a drop from 2019": the year a change is measured from, not a span to the data's end
_CHANGE_FROM = "".join(rf"(?<!\b{w}\s)" for w in ("up", "down", "rose", "rise", "fell", "drop", "jump", "change",
                                                   "increase", "decrease", "climb", "grew"))
_SINCE_RE = re.compile(r"\b(?:since|after|starting\s+(?:in|from)|" + _CHANGE_FROM + r"from)\s+" + YEAR + r"\b|"
                       r"\b" + YEAR + r"\s+(?:on(?:wards?)?|and\s+(?:later|after|since|on))\b", _FLAGS)  # "2001 on"
_BEFORE_RE = re.compile(r"\b(?:before|prior\s+to|until|up\s+to|through|thru|till|pre-?)\s*" + YEAR + r"\b", _FLAGS)
# A decade by its years: "the 2010s", "2000s", "the '90s" is not in the data's years and is left to the coverage check.
# "2020's killings" is a year's possessive: an apostrophe makes a decade only after "the" ("the 2010's").
_DECADE_YEARS_RE = re.compile(r"\b((?:19|20)\d)0s\b|(?<=\bthe\s)((?:19|20)\d)0['’]s\b|"
                              r"\b(aughts|noughties|oughts)\b", _FLAGS)  # the decade of 2000-2009 by its name
# Not "$2019", "2,019", "2019.5" or "2019%": those are amounts, not years.
_YEAR_RE = re.compile(r"(?<![\d$,.])" + YEAR + r"(?!\d|,\d|\s*%)")
# "the last complete year you have", "the most recent full year": the snapshot's last full year too.
_LAST_YEAR_RE = re.compile(r"\b(?:last|previous|past)\s+(?:(?:full|complete|whole|calendar)\s+)?year\b|"
                           r"\b(?:latest|most\s+recent)\s+(?:full|complete|whole|calendar)\s+year\b", _FLAGS)
# "2021 compared with the previous year", "2020 versus the year before": the year before the one named (not the
# data's last full year, which "previous year" alone means); "the year before covid" is the pandemic reader's.
_YEAR_BEFORE_RE = re.compile(r"\b(?:the\s+)?(?:previous|prior|preceding)\s+year\b|\bthe\s+year\s+(?:before|prior)\b"
                             r"(?!\s+(?:covid|the\s+pandemic|the\s+virus|lockdown|corona))", _FLAGS)
_THIS_YEAR_RE = re.compile(r"\b(?:this|current)\s+year\b|\bso\s+far\b|\bytd\b|\byear\s+to\s+date\b", _FLAGS)
# "the most recent full summer in your data": the latest year whose summer the data holds whole.
_LAST_SEASON_RE = re.compile(r"\b(?:last|latest|most\s+recent|previous|past)\s+(?:full|complete|whole|entire)\s+"
                             r"(summer|spring|fall|autumn)\b", _FLAGS)
_SEASON_LAST_MONTH = {"spring": 5, "summer": 8, "fall": 11, "autumn": 11}
_LAST_N_RE = re.compile(r"\b(?:last|past|previous|most\s+recent)\s+" + NUM + r"\s+(?:full\s+|complete\s+|whole\s+|"
                        r"calendar\s+)?years\b", _FLAGS)
# "the two years before 2020": 2018-2019, not everything up to 2019; "the three years after 2015": 2016-2018.
# "the ten years ending with 2020": 2011-2020; "the five years starting in 2015": 2015-2019 (the year named counts).
_N_YEARS_AROUND_RE = re.compile(r"\b" + NUM + r"\s+(?:full\s+)?years\s+(before|prior\s+to|preceding|leading\s+up\s+to|"
                                r"after|following|ending|ended|that\s+ended|up\s+to\s+and\s+including|through|thru|"
                                r"starting|beginning|from)(?:\s+(?:with|in|at))?\s+" + YEAR + r"\b", _FLAGS)
_DECADE_RE = re.compile(r"\b(?:last|past|previous)\s+decade\b", _FLAGS)
_RECENT_RE = re.compile(r"\b(?:recent(?:ly)?|latest|nowadays|currently|today|now)\b", _FLAGS)


def homicide_coverage(data) -> dict:
    """Homicide coverage: first year, last year, last full year."""
    cov = {}
    try:
        cov = dict(data.coverage.get("homicides") or {})
    except Exception:
        cov = {}
    first = int(cov.get("first_year", 2001))
    last = int(cov.get("last_year", 2023))
    end = str(cov.get("end", f"{last}-12-31"))
    last_full = last if end.endswith("-12-31") else last - 1
    return {"first": first, "last": last, "last_full": last_full, "end": end, "start": cov.get("start", f"{first}-01-01")}


def dataset_years(data, key: str, default: tuple) -> tuple:
    """(first, last) year of another dataset's coverage, or ``default`` when the data does not say."""
    try:
        cov = data.coverage[key]
        return int(str(cov["start"])[:4]), int(str(cov["end"])[:4])
    except Exception:
        return default


def extract_years(low: str, taken: list, cov: dict) -> dict:
    """Years, periods, the first period (``year_range``) and a note on how relative years were read.

    ``taken`` holds the spans of places and codes already found, so "ward 2019"-like numbers are not
    read as years.
    """
    w = SimpleNamespace(low=low, taken=taken, cov=cov)  # what the first phase read, for the second
    _named_years(w)
    return _relative_years(w)


def _change_base(m: re.Match, low: str, spans: list) -> bool:
    """"2021, and what % change was that from 2019": with a change asked and another year of its own named, "from
    2019" is the change's first end, not a span to the data's end."""
    if not m.group(0).lower().startswith("from") or not re.search(rf"\b(?:{CHANGE_WORDS})\b", low):
        return False
    return any(not overlaps(y.span(), [m.span(), *spans]) for y in _YEAR_RE.finditer(low))


def _named_years(w) -> None:
    """Years and spans written out: ranges, decades, 'since', 'before', the pandemic's years, single years."""
    cov, low, taken = w.cov, w.low, w.taken
    years: list[int] = []
    periods: list[dict] = []
    relative_note = None
    year_spans: list[tuple[int, int]] = []
    for pattern in _RANGE_RES:
        for m in pattern.finditer(low):
            if overlaps(m.span(), year_spans):
                continue
            start = int(m.group(1))
            end_text = m.group(2)
            end = int(end_text) if len(end_text) == 4 else int(m.group(1)[:2] + end_text)
            if end < start:
                continue
            periods.append({"start": start, "end": end, "_pos": m.start()})
            year_spans.append(m.span())
    pandemic = pandemic_times(low, cov["first"], cov["last"])  # "the year before covid hit": 2019
    periods += pandemic["periods"]
    periods.sort(key=lambda p: p.pop("_pos"))
    for year in pandemic["years"]:
        add_unique(years, year)
    year_spans += pandemic["spans"]
    relative_note = pandemic["note"]
    for m in _N_YEARS_AROUND_RE.finditer(low):
        if overlaps(m.span(), year_spans):
            continue
        n, year, word = max(1, min(number(m.group(1)), 30)), int(m.group(3)), m.group(2).lower().split()[-1]
        if word in ("after", "following"):
            periods.append({"start": year + 1, "end": year + n})
        elif word in ("starting", "beginning", "from"):
            periods.append({"start": year, "end": year + n - 1})
        elif word in ("ending", "ended", "including", "through", "thru"):
            periods.append({"start": year - n + 1, "end": year})
        else:
            periods.append({"start": year - n, "end": year - 1})
        year_spans.append(m.span())
    for m in _SINCE_RE.finditer(low):
        if overlaps(m.span(), year_spans) or _change_base(m, low, year_spans):
            continue
        start = int(m.group(1) or m.group(2)) + (1 if m.group(0).lower().startswith("after") else 0)
        periods.append({"start": start, "end": max(cov["last"], start)})
        year_spans.append(m.span())
    for m in _BEFORE_RE.finditer(low):
        if overlaps(m.span(), year_spans):
            continue
        end = int(m.group(1)) - (0 if m.group(0).lower().startswith(("until", "up", "through", "thru", "till")) else 1)
        periods.append({"start": min(cov["first"], end), "end": end})
        year_spans.append(m.span())
    for m in _DECADE_YEARS_RE.finditer(low):
        if overlaps(m.span(), year_spans):
            continue
        decade = int(m.group(1) or m.group(2)) * 10 if not m.group(3) else 2000
        start, end = max(decade, cov["first"]), min(decade + 9, cov["last"])
        if start > end:
            continue  # a decade the data does not reach is left to the coverage check
        periods.append({"start": start, "end": end})
        year_spans.append(m.span())
        if (start, end) != (decade, decade + 9):
            relative_note = (f"'{m.group(0)}' read as {start}-{end}: the homicide data covers {cov['first']} to "
                             f"{cov['end']}")
    for m in _YEAR_RE.finditer(low):
        if any(s <= m.start() < e for s, e in year_spans) or any(s <= m.start() < e for s, e in taken):
            continue
        add_unique(years, int(m.group(1)))
    w.periods, w.relative_note, w.years = periods, relative_note, years


def _relative_years(w) -> dict:
    """Years named relative to the data ('the last 3 years', 'last year', 'this year'), and the first period."""
    cov, low, periods, relative_note, years = w.cov, w.low, w.periods, w.relative_note, w.years
    _add_period_ends(years, periods)
    m = _LAST_N_RE.search(low)
    if m:
        n = max(1, min(number(m.group(1)), 30))
        periods.append({"start": cov["last_full"] - n + 1, "end": cov["last_full"]})
        relative_note = (f"'{m.group(0)}' read against the homicide data, whose last full year is "
                         f"{cov['last_full']}: {cov['last_full'] - n + 1}-{cov['last_full']}")
    elif _DECADE_RE.search(low):
        periods.append({"start": cov["last_full"] - 9, "end": cov["last_full"]})
        relative_note = (f"'last decade' read against the homicide data, whose last full year is {cov['last_full']}: "
                         f"{cov['last_full'] - 9}-{cov['last_full']}")
    # A year named after the data's end is the user's own "this year" or "last year" ("so far this year in 2025"):
    # the data's latest year would answer for another year.
    after_data = any(y > cov["last"] for y in years)
    before = _YEAR_BEFORE_RE.search(low)
    last_year = _LAST_YEAR_RE.search(low)
    if before and len(years) == 1 and not periods and not m:
        add_unique(years, years[0] - 1)
        years.sort()
        relative_note = f"'{before.group(0).lower()}' read as {years[0]}, the year before {years[1]}"
        last_year = None
    if last_year and not m and not after_data:
        add_unique(years, cov["last_full"])
        relative_note = (f"'{last_year.group(0).lower()}' means {cov['last_full']}, the last full year in the "
                         f"homicide data (the snapshot ends {cov['end']}), not the calendar year")
    season = _LAST_SEASON_RE.search(low)
    if season and not years:
        end_year, end_month, end_day = (int(x) for x in cov["end"].split("-"))
        whole = end_month if end_day == calendar.monthrange(end_year, end_month)[1] else end_month - 1
        year = end_year if _SEASON_LAST_MONTH[season.group(1).lower()] <= whole else end_year - 1
        add_unique(years, year)
        relative_note = (f"'{season.group(0).lower()}' means {season.group(1).lower()} {year}, the latest one the "
                         f"homicide data holds whole (the snapshot ends {cov['end']})")
    if _THIS_YEAR_RE.search(low) and not after_data:
        add_unique(years, cov["last"])
        relative_note = (f"'this year' means {cov['last']}, the latest year in the homicide data; it is partial "
                         f"(the snapshot ends {cov['end']})")
    year_range = None
    if periods:
        year_range = {"start": periods[0]["start"], "end": periods[0]["end"]}
        # Relative periods ("last 5 years") come after "last year"/"this year" in the list.
        _add_period_ends(years, periods)
    elif len(years) == 1:
        year_range = {"start": years[0], "end": years[0]}
    elif len(years) >= 2:  # "more murders in 2016 than 2015": the span, shown year by year
        year_range = {"start": min(years), "end": max(years)}
    return {"years": years, "year_range": year_range, "periods": periods, "relative_note": relative_note,
            "recent": bool(_RECENT_RE.search(low))}


def _add_period_ends(years: list, periods: list) -> None:
    for p in periods:
        add_unique(years, p["start"])
        add_unique(years, p["end"])


# ---------------------------------------------------------------- calendar months

_MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december"]
# Abbreviations too ("Jan through June"); "mar" and "may" are also words, so they need a date-like context.
_MONTH_WORD = (r"(january|february|march|april|june|july|august|september|october|november|december|"
               r"jan|feb|apr|jun|jul|aug|sept|sep|oct|nov|dec|"
               r"(?<=\bin\s)may|(?<=\bof\s)may|(?<=\bduring\s)may|(?<=\band\s)may|(?<=\bto\s)may|"
               r"(?<=\bthrough\s)may|may(?=\s+(?:19|20)\d\d)|"
               # "(Mar-May)": both ends of a range written short
               r"mar(?=\s*[-\u2013/]\s*[a-z]{3})|(?<=[a-z]{3}-)may|(?<=[a-z]{3}\u2013)may|"
               # "may 27 to sept 2": a day of the month after it makes it the month, not the verb
               r"may(?=\s+[0-3]?\d(?:st|nd|rd|th)?\b(?!\s+(?:people|persons|homicides|murders|killings|of\b))))")
_MONTH_RE = re.compile(r"\b" + _MONTH_WORD + r"\b", re.I)
# A survey's own span ("2019-2023 ACS", "the ACS 2019-2023 5-year", "the 2008-2012 indicators") names a measure's
# source, not a period the homicides are counted over; a bare "ACS" or "latest ACS" names the source too.
_SURVEY = r"(?:acs|american\s+community\s+survey|(?:acs\s+|socioeconomic\s+|census\s+)?indicators|" \
          r"socioeconomic\s+(?:data|figures))"
_SPAN = r"(?:19|20)\d\d\s*[-\u2013]\s*(?:(?:19|20)\d\d|\d\d)\b"
ACS_VINTAGE_RE = re.compile(rf"\b{_SPAN}\s+{_SURVEY}\b(?:\s+5[\s-]year)?(?:\s+estimates?)?|"
                            rf"\b(?:the\s+)?{_SURVEY}(?:\s+5[\s-]year)?(?:\s+estimates?)?[\s,(]+{_SPAN}|"
                            rf"\b(?:the\s+)?(?:(?:latest|newest|most\s+recent|recent|current)\s+)?{_SURVEY}\b|"
                            # the indicators' own span, named as their data: "(2008-2012 data)", "the 2008-12 figures"
                            r"\b2008\s*[-\u2013]\s*(?:20)?12\s+(?:(?:census|acs|socioeconomic)\s+)?(?:data|figures|"
                            r"numbers|estimates|snapshot)\b", re.I)
# The indicators' span written beside one of their measures: "per capita income (2008-2012)", "hardship, 2008-12"
SOCIO_VINTAGE_RE = re.compile(r"\b(?:(?:income|poverty|unemploy\w*|hardship(?:\s+index)?|crowd\w*|diplomas?|indicators?|"
                              r"socioeconomic\w*|dependency)(?:\s*%)?\W{0,3}"
                              r"(?:(?:areas?|neighbou?rhoods?|data|figures?|"
                              r"numbers?|indicators?|rates?|levels?|percent(?:ages?)?|shares?)\W{0,3})?"
                              r"(?:(?:aged?\s+)?(?:16|25)\s*\+\W{0,3})?"  # "unemployment (16+, 2008-2012)": its age band
                              # "unemployment above 15% in 2008-12": a bound on the indicator, then its vintage
                              r"(?:(?:above|over|under|below|at\s+least|at\s+most|of|>|<)\s*[\d.,]+\s*(?:%|percent)?\s+"
                              r"(?:in|for|during|as\s+of)\s+(?:the\s+)?)?|"
                              # "in the 2008-12 indicators", "the lowest 2008-12 per capita income": the vintage
                              # written before the source's (or the indicator's) name
                              r"(?=2008\s*[-\u2013]\s*(?:20)?12\s+(?:acs\s+)?(?:socio\w*\s+)?(?:indicators?|"
                              r"(?:per[\s-]+capita\s+)?income|poverty|unemploy\w*|hardship|crowd\w*)\b))"
                              r"(2008\s*[-\u2013]\s*(?:20)?12)\b", re.I)
_MONTH_YEAR_RE = re.compile(r"\b" + _MONTH_WORD + r"\.?,?\s+(?:of\s+)?((?:19|20)\d\d)\b", re.I)


# A year, or a span's two ends where it is written short ("the 2019-22 rate": 2019 and 2022).
_ALONE_RE = re.compile(r"\b((?:19|20)\d\d)(?:\s*[-\u2013]\s*(\d\d)\b(?![-/:]))?\b")


def _span_ends(m: re.Match) -> list[int]:
    first = int(m.group(1))
    return [first] if not m.group(2) else [first, first // 100 * 100 + int(m.group(2))]


def month_years(low: str) -> tuple[list[str], list[int]]:
    """Each month named with its year ("Jan 2022", "september of 2024") as YYYY-MM, in the question's order, and
    the years named without a month: a home value is dated by the months where the homicides asked beside it have
    years of their own ("home value in January 2016 vs January 2022, and its homicides in 2016 vs 2022")."""
    dated = list(_MONTH_YEAR_RE.finditer(low))
    months = list(dict.fromkeys(f"{m.group(2)}-{_month_number(m.group(1)):02d}" for m in dated))
    alone = list(dict.fromkeys(year for m in _ALONE_RE.finditer(low)
                               if not any(d.start(2) <= m.start() < d.end(2) for d in dated)
                               for year in _span_ends(m)))
    each = _MONTH_EACH_YEAR_RE.search(low)
    if each and not months and 2 <= len(alone) <= 4:  # "its home value in January of each year": each year's January
        months = [f"{y}-{_month_number(each.group(1)):02d}" for y in sorted(alone)]
    return months, alone


# A month named for every year asked: "in January of each year", "each year's January" is rarer.
_MONTH_EACH_YEAR_RE = re.compile(r"\b" + _MONTH_WORD + r"\s+(?:of\s+)?(?:each|both|every|those|these)(?:\s+of\s+(?:those|"
                                 r"these|the))?\s+(?:two\s+|2\s+)?years?\b", re.I)
# Two years asked as one span's total, not as its two ends: "from 2012 through 2022", "over that decade"
SPAN_TOTAL_RE = re.compile(r"\b(?:19|20)\d\d\s*(?:through|thru)\s*(?:19|20)\d\d\b|\bover\s+(?:that|the|this)\s+(?:decade|"
                           r"span|period|stretch)\b|\b(?:in\s+total|combined|altogether|total)\b", re.I)
# The years named, each on its own, not the span between them: "its homicide count in each of those years"
EACH_YEAR_RE = re.compile(r"\b(?:in\s+)?(?:each|both)\s+(?:of\s+)?(?:those|these|the)?\s*(?:two\s+|2\s+)?years\b|"
                          r"\b(?:in\s+)?each\s+year\b|\byear\s+by\s+year\b|"
                          # "the combined count for each of 2019, 2020 and 2021": each year listed, the places together
                          r"\beach\s+of\s+(?=(?:19|20)\d\d\s*(?:,|and\b))", re.I)


# "from the start of March to the end of May" is March to May.
_EDGE = r"(?:the\s+(?:start|beginning|end|middle)\s+of\s+|(?:early|late|mid)[\s-])?"
_MONTH_RANGE_RE = re.compile(r"\b(?:between|from)\s+" + _EDGE + _MONTH_WORD + r"\s+(?:and|to|through|thru|until|till|"
                             r"-)\s+" + _EDGE + _MONTH_WORD + r"\b|\b" + _MONTH_WORD + r"\s*(?:-|–|through|thru|to|"
                             r"until|till)\s*" + _MONTH_WORD + r"\b", re.I)
# Seasons as Chicago people mean them; "fall" alone is usually the verb, so only "the fall"/"autumn".
_SEASONS = [(re.compile(r"\bsummer(?:time|s)?\b", re.I), [6, 7, 8]),
            (re.compile(r"\bwinter(?:time|s)?\b", re.I), [12, 1, 2]),
            (re.compile(r"\bspring(?:time)?\b", re.I), [3, 4, 5]),
            (re.compile(r"\bautumn\b|\bthe\s+fall\b|\bfall\s+(?:of\s+)?(?:19|20)\d\d\b", re.I), [9, 10, 11]),
            (re.compile(r"\b(?:first|front|early|earlier|opening)\s+half\b|\bh1\b|\bfirst\s+(?:six|6)\s+months\b",
                        re.I), [1, 2, 3, 4, 5, 6]),
            (re.compile(r"\b(?:second|back|latter|later|last|final|closing)\s+half\b|\bh2\b|"
                        r"\b(?:last|final|second)\s+(?:six|6)\s+months\s+of\b", re.I),
             [7, 8, 9, 10, 11, 12])]
_QUARTER_WORDS = {**{word: n for word, n in ORDINAL_WORDS.items() if n <= 4}, "last": 4, "final": 4}
_QUARTER_RE = re.compile(r"\b(?:q([1-4])|(" + alternation(_QUARTER_WORDS) + r")\s+quarter)\b", re.I)
# "the first month of 2015", "the last three months of 2019" (with "of": "the last 3 months" alone is relative).
_COUNTED = counting(11, low=2)
_END_MONTHS_RE = re.compile(r"\b(first|opening|last|final|closing)\s+(?:(\d{1,2}|" + "|".join(_COUNTED) +
                            r")\s+)?months?\s+of\b", re.I)


def _month_number(word: str) -> int:
    word = word.lower()
    return next(i for i, name in enumerate(_MONTH_NAMES, 1) if name.startswith(word[:3]))


def extract_months(low: str) -> list:
    """Calendar months a question limits itself to ("January to March", "summer", "Q1"), sorted; [] for none."""
    months: list = []
    for m in _MONTH_RANGE_RE.finditer(low):
        words = [g for g in m.groups() if g]
        first, last = _month_number(words[0]), _month_number(words[1])
        span = range(first, last + 1) if first <= last else list(range(first, 13)) + list(range(1, last + 1))
        for month in span:
            add_unique(months, month)
    if not months:
        for m in _MONTH_RE.finditer(low):
            add_unique(months, _month_number(m.group(1)))
    for pattern, season in _SEASONS:
        if pattern.search(low):
            for month in season:
                add_unique(months, month)
    for m in _QUARTER_RE.finditer(low):
        q = int(m.group(1)) if m.group(1) else _QUARTER_WORDS[m.group(2).lower()]
        for month in range(3 * q - 2, 3 * q + 1):
            add_unique(months, month)
    for m in _END_MONTHS_RE.finditer(low):
        count = m.group(2).lower() if m.group(2) else "1"
        n = min(12, int(count) if count.isdigit() else _COUNTED[count])
        first = m.group(1).lower() in ("first", "opening")
        for month in (range(1, n + 1) if first else range(13 - n, 13)):
            add_unique(months, month)
    return sorted(months)


# A season's name beside its months in brackets ("fall (Sep-Nov)"): "fall" alone is read only so
_NAMED_SEASON_RE = re.compile(r"\b(?:fall|autumn|spring|summer|winter)(?=\s*\()", re.I)


def month_groups(low: str) -> tuple[list[tuple], list[tuple]]:
    """Each stretch of the year named on its own, in the question's order ("more in fall (Sep-Nov) or spring
    (Mar-May)": (9, 10, 11), (3, 4, 5)); a season and its months in brackets are one. Also the spans read."""
    found: list[tuple[int, tuple]] = []
    spans = [m.span() for m in _NAMED_SEASON_RE.finditer(low)]
    for m in _MONTH_RANGE_RE.finditer(low):
        words = [g for g in m.groups() if g]
        first, last = _month_number(words[0]), _month_number(words[1])
        months = range(first, last + 1) if first <= last else [*range(first, 13), *range(1, last + 1)]
        found.append((m.start(), tuple(months)))
        spans.append(m.span())
    for pattern, season in _SEASONS:  # (the halves too: "the second half of 2023 vs the first")
        for m in pattern.finditer(low):
            found.append((m.start(), tuple(season)))
            spans.append(m.span())
    groups: list[tuple] = []
    for _, months in sorted(found):
        if all(set(months) != set(g) for g in groups):
            groups.append(months)
    return groups, spans


# Every pattern above, for the coverage check (analyzer/coverage.py): text they match is text the analyzer reads.
VOCABULARY = [*PANDEMIC_VOCABULARY, *_RANGE_RES, _SINCE_RE, _BEFORE_RE, _DECADE_YEARS_RE, _YEAR_RE, _LAST_YEAR_RE, _THIS_YEAR_RE, _LAST_N_RE,
              _LAST_SEASON_RE,
              _DECADE_RE, _N_YEARS_AROUND_RE,
              _RECENT_RE, _MONTH_RE, _MONTH_RANGE_RE, *(pattern for pattern, _ in _SEASONS), _QUARTER_RE,
              _END_MONTHS_RE]


def within_the_data(years: list, periods: list, year_list: list, first: int, last: int) -> dict | None:
    """The years a question asks about, kept to those the homicide data holds, when some of them are outside it
    ("2022 and how many so far in 2024": 2022's count, and 2024 declined; "between 2020 and 2025": 2020 to the
    data's end). None when none is outside, or all are (the answer is then the decline alone). Before this, one
    year outside the data turned the whole question into the 2001-2023 total: a figure for another question."""
    outside = [y for y in years if not first <= y <= last]
    kept = [y for y in years if first <= y <= last]
    spans = [{"start": max(p["start"], first), "end": min(p["end"], last)} for p in periods
             if p["start"] <= last and p["end"] >= first]
    if not outside or not (kept or spans):
        return None
    if spans:
        year_range = {"start": spans[0]["start"], "end": spans[0]["end"]}
        _add_period_ends(kept, spans)
    else:
        year_range = {"start": min(kept), "end": max(kept)}
    return {"years": kept, "periods": spans, "year_range": year_range,
            "year_list": [y for y in year_list if first <= y <= last]}
