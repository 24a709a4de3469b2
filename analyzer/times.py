"""Time expressions beyond whole years: lists of separate years, month and date spans, hours of the day, "so far
this year against the same stretch last year", years written as words, and whether an average or a percent change
is asked for.

Every reading here is general vocabulary, and every vague word gets one stated definition (``VAGUE_HOURS``) that
the reading shows, so a reader can see which hours "at night" was counted over. The spans of text read are
returned as ``consumed`` for the coverage check (analyzer/coverage.py).
"""
from __future__ import annotations

import calendar
import datetime
import re
from dataclasses import dataclass, field

from analyzer.analysis import DateSpan, HourSpan
from analyzer.lexicon import CHANGE_WORDS, ORDINAL_WORDS, TENS_WORDS, alternation, counting, ordinals
from analyzer.moving_holidays import read_moving_holidays
from analyzer.years import _MONTH_WORD, _month_number

_Y = r"(?:19|20)\d{2}"

# ---------------------------------------------------------------- years written as words or abbreviated

_UNITS = counting(9)
_TEENS = counting(19, low=10)
_TENS = TENS_WORDS
_UNIT = "|".join(_UNITS)
_SEP = r"[\s-]+"
# 10-99 in words ("twenty-one", "nineteen"), or "oh five" for 05.
_TWO_DIGITS = (r"(?:(?:" + "|".join(_TENS) + r")(?:" + _SEP + r"(?:" + _UNIT + r"))?|" + "|".join(_TEENS)
               + r"|oh" + _SEP + r"(?:" + _UNIT + r"))")
_CENTURY_WORDS_RE = re.compile(r"\b(twenty|nineteen)" + _SEP + r"(" + _TWO_DIGITS + r")\b", re.I)
_THOUSAND_WORDS_RE = re.compile(r"\btwo" + _SEP + r"thousand(?:" + _SEP + r"(?:and" + _SEP + r")?(" + _TWO_DIGITS
                                + r"|" + _UNIT + r"))?\b", re.I)
# "'21", "back in '19": an apostrophe before two digits is a year (never "'s").
_APOSTROPHE_YEAR_RE = re.compile(r"(?<![\w'’])['’](\d{2})\b(?!['’]?\w)")
# "in 21" only where nothing else can follow the number: the question ends, or a comma or a conjunction does.
_BARE_TWO_DIGITS_RE = re.compile(r"\b((?:back|way\s+back)\s+in|in|during|of|since|vs\.?|versus|and|than)\s+"
                                 r"(0\d|1\d|2[0-3])(?=\s*(?:[?.!,;]|$|\s+(?:and|or|vs\.?|versus|compared|than)\b))",
                                 re.I)


def _words_value(words: str) -> int:
    """10-99 (or 1-9) written in words: "twenty-one" -> 21, "oh five" -> 5."""
    total = 0
    for word in re.split(_SEP, words.lower()):
        total += _TENS.get(word, 0) + _TEENS.get(word, 0) + _UNITS.get(word, 0)
    return total


def _century(two_digits: int) -> int:
    return 2000 + two_digits if two_digits <= 40 else 1900 + two_digits


# Dates written as numbers: "6/1/2019" (month first, as in the US), "2019-06-01". Not "2019-06" (a month, read
# elsewhere) nor a ZIP+4; a day or month out of range is left as written.
_US_DATE_RE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/((?:19|20)\d{2}|\d{2})(?![\d/])")
_ISO_DATE_RE = re.compile(r"(?<![\d-])((?:19|20)\d{2})-(\d{1,2})-(\d{1,2})(?![\d-])")


def _date_words(year: str, month: str, day: str, whole: str) -> str:
    y, m, d = int(year), int(month), int(day)
    y = _century(y) if len(year) == 2 else y
    return f"{calendar.month_name[m]} {d}, {y}" if 1 <= m <= 12 and 1 <= d <= 31 else whole


# "from the start of 2016 through the end of 2022": the span of whole years, said as such
_WHOLE_YEARS_RE = re.compile(r"\b(?:from\s+)?(?:the\s+)?(?:start|beginning)\s+of\s+((?:19|20)\d{2})\s+(?:through|thru|to|"
                             r"until|till)\s+(?:the\s+)?(?:end\s+of\s+)?((?:19|20)\d{2})\b", re.I)


def spell_dates(text: str) -> str:
    """Numeric dates as the words every date reader knows: "6/1/2019" -> "June 1, 2019"."""
    text = _WHOLE_YEARS_RE.sub(r"from \1 through \2", text)
    text = _US_DATE_RE.sub(lambda m: _date_words(m.group(3), m.group(1), m.group(2), m.group(0)), text)
    return _ISO_DATE_RE.sub(lambda m: _date_words(m.group(1), m.group(2), m.group(3), m.group(0)), text)


def spell_years(text: str) -> str:
    """The question with years written as words or abbreviated rewritten as digits ("twenty twenty-one" -> 2021,
    "back in '19" -> "back in 2019"), and numeric dates as words, so every other reader sees an ordinary year."""
    text = spell_dates(text)
    text = _CENTURY_WORDS_RE.sub(
        lambda m: str((2000 if m.group(1).lower() == "twenty" else 1900) + _words_value(m.group(2))), text)
    text = _THOUSAND_WORDS_RE.sub(lambda m: str(2000 + (_words_value(m.group(1)) if m.group(1) else 0)), text)
    text = _APOSTROPHE_YEAR_RE.sub(lambda m: str(_century(int(m.group(1)))), text)
    return _BARE_TWO_DIGITS_RE.sub(_bare_year, text)


_PLACE_KIND_BEFORE_RE = re.compile(r"\b(?:wards?|districts?|areas?|precincts?|zips?|codes?)\b", re.I)


def _bare_year(m: re.Match) -> str:
    """'in 21' -> 'in 2021', unless a place kind was just named ("districts other than 11 and 15")."""
    if _PLACE_KIND_BEFORE_RE.search(m.string[max(0, m.start() - 40):m.start()]):
        return m.group(0)
    return f"{m.group(1)} {_century(int(m.group(2)))}"


# ---------------------------------------------------------------- separate years

_LIST_SEP = r"(?:\s*,\s*(?:and\s+|or\s+|&\s*)?|\s+and\s+|\s+or\s+|\s*&\s*)"
# Three or more years in a list ("2016, 2019 and 2022"); two years stay today's comparison of two years.
# A preposition may repeat before each year ("for 2007, for 2011 and for 2018"); a space may stand for a comma
# ("2004 2008 and 2012").
_YEAR_LIST_RE = re.compile(r"(?<![\d$,.\-–])" + _Y + r"(?:(?:" + _LIST_SEP + r"|\s+)(?:(?:for|in|of)\s+)?" + _Y +
                           r"){2,}(?![\d\-–])")


def _year_list(low: str) -> tuple[list[int], list]:
    for m in _YEAR_LIST_RE.finditer(low):
        found = sorted({int(y) for y in re.findall(_Y, m.group(0))})
        if len(found) >= 3:
            return found, [m.span()]
    return [], []


# ---------------------------------------------------------------- months and dates

_M = _MONTH_WORD.replace("(", "(?:", 1)  # the month word, without its capturing group
_OF_YEAR = r"(?:\s+of|,)?\s+"
_MONTH_SPAN_RE = re.compile(
    r"(?:\b(?P<opener>from|between)\s+(?:the\s+(?:start|beginning)\s+of\s+)?)?\b(?P<m1>" + _M + r")(?:" + _OF_YEAR
    + r"(?P<y1>" + _Y + r"))?\s*"
    r"(?P<sep>-|–|to|through|thru|until|till|and)\s*(?:the\s+end\s+of\s+)?(?P<m2>" + _M + r")" + _OF_YEAR
    + r"(?P<y2>" + _Y + r")\b", re.I)
_MONTH_SINCE_RE = re.compile(r"\b(?:since|starting\s+(?:in\s+|from\s+)?|from)\s*(?P<m>" + _M + r")" + _OF_YEAR
                             + r"(?P<y>" + _Y + r")\b(?!\s*(?:-|–|to|through|thru|until|till|and)\s)", re.I)
_MONTH_ONE_RE = re.compile(r"\b(?P<m>" + _M + r")" + _OF_YEAR + r"(?P<y>" + _Y + r")\b", re.I)
# One day: "July 4, 2020", "on July 4th in 2020", "the 4th of July 2020", "4 July 2020".
_DAY = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
_DAY_YEAR = r"(?:\s*,)?\s+(?:in\s+|of\s+)?(?P<y>" + _Y + r")\b"
_DAY_RES = (re.compile(r"\b(?P<m>" + _M + r")\s+" + _DAY + _DAY_YEAR, re.I),
            re.compile(r"\b(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?(?P<m>" + _M + r")" + _DAY_YEAR, re.I))
_CHANGE_BEFORE_RE = re.compile(rf"\b(?:{CHANGE_WORDS}|shift|swing)\b[^.?;]*$", re.I)
_DAY_SINCE_RE = re.compile(r"\b(?:since|starting(?:\s+(?:on|from))?|beginning|from)\s+(?:on\s+)?$", re.I)
# A week of a month: "the first week of July 2020" is July 1-7, the second 8-14, "the last week" the month's last
# seven days.
_WEEK_NUMBER = ordinals(4)
_WEEK_OF_RE = re.compile(r"\b(?:the\s+)?(?P<w>" + alternation(_WEEK_NUMBER) + r"|last|final)\s+week\s+(?:of|in)\s+"
                         r"(?P<m>" + _M + r")" + _OF_YEAR + r"(?P<y>" + _Y + r")\b", re.I)


# One winter named by the two years it spans ("the winter of 2021-2022", "winter 2021-22", "the 2021/22 winter"):
# December of the first year to February of the next, not the winter months of both years.
_WINTER_RE = re.compile(r"\b(?:the\s+)?winter\s+(?:of\s+)?(?P<y1>" + _Y + r")\s*(?:-|–|/|to|into|and)\s*(?P<y2>" + _Y
                        + r"|\d{2})\b|\b(?:the\s+)?(?P<y3>" + _Y + r")\s*(?:-|–|/)\s*(?P<y4>" + _Y + r"|\d{2})\s+winter\b",
                        re.I)


def _winter_span(m: re.Match) -> "DateSpan | None":
    first, second = m.group("y1") or m.group("y3"), m.group("y2") or m.group("y4")
    start, end = int(first), int(second) if len(second) == 4 else int(first[:2] + second)
    return DateSpan(f"{start}-12", f"{end}-02") if end == start + 1 else None


def _week_span(m: re.Match) -> "DateSpan":
    year, month = int(m.group("y")), _month_number(m.group("m"))
    days = calendar.monthrange(year, month)[1]
    n = _WEEK_NUMBER.get(m.group("w").lower())
    first, last = ((n - 1) * 7 + 1, n * 7) if n else (days - 6, days)
    return DateSpan(f"{year}-{month:02d}-{first:02d}", f"{year}-{month:02d}-{last:02d}")


# A calendar day in every year: a holiday on a fixed date, or a month and day with no year after them ("on July 4th
# over the years"); with a year, the day is a date span instead (above). Holidays on moving dates (Thanksgiving,
# Labor Day) are analyzer/moving_holidays.py's.
_HOLIDAYS = ((r"christmas\s+eve", "12-24"), (r"christmas(?:\s+day)?|xmas", "12-25"),
             (r"new\s+year'?s\s+eve|nye", "12-31"), (r"new\s+year'?s(?:\s+day)?", "01-01"),
             (r"(?:the\s+)?(?:4th|fourth)\s+of\s+july|independence\s+day", "07-04"), (r"hallowe'?en", "10-31"),
             (r"valentine'?s(?:\s+day)?", "02-14"))
_HOLIDAY_RES = tuple((re.compile(r"\b(?:" + words + r")\b", re.I), day) for words, day in _HOLIDAYS)
_NO_YEAR = r"(?!(?:\s*,)?\s+(?:in\s+|of\s+)?" + _Y + r"\b)"
_DAY_NO_YEAR_RES = (re.compile(r"\b(?P<m>" + _M + r")\s+" + _DAY + r"\b" + _NO_YEAR, re.I),
                    re.compile(r"\bthe\s+" + _DAY + r"\s+of\s+(?P<m>" + _M + r")\b" + _NO_YEAR, re.I))


# A run of days from one day to another: "christmas eve thru new years eve", "from December 24 to December 31",
# "between July 1 and July 7", "December 24 to 31". One day of either end alone would answer another question.
_DAY_WORD = (r"(?:" + "|".join(words for words, _ in _HOLIDAYS) + r"|" + _M + r"\s+[0-3]?\d(?:st|nd|rd|th)?|"
             r"(?:the\s+)?[0-3]?\d(?:st|nd|rd|th)?\s+of\s+" + _M + r")")
_MORE_YEARS_RE = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|vs\.?\s+|versus\s+|compared\s+(?:to|with)\s+|"
                            r"against\s+)(?:(?:in|of)\s+)?(?P<y>" + _Y + r")\b", re.I)
_HOLIDAYS_WORD_RE = re.compile(r"\bholidays?(?:\s+season)?\b", re.I)
_BEFORE_YEAR = r"(?:\s*,)?\s+(?:of\s+|in\s+)?"
_DAY_RANGE_RE = re.compile(
    r"(?:\b(?P<open>from|between)\s+)?\b(?P<a>" + _DAY_WORD + r")(?:" + _BEFORE_YEAR + r"(?P<ya>" + _Y + r"))?"
    r"\s*(?P<sep>-|–|to|through|thru|till|until|and)\s+(?:the\s+)?(?P<b>" + _DAY_WORD
    + r"|[0-3]?\d(?:st|nd|rd|th)?)\b(?:" + _BEFORE_YEAR + r"(?P<yb>" + _Y + r")\b)?", re.I)
_MONTH_DAY_RE = re.compile(r"(?:(?P<m>" + _M + r")\s+(?P<d>[0-3]?\d)|(?:the\s+)?(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\s+of\s+"
                           r"(?P<m2>" + _M + r"))", re.I)


def _day_of(words: str, month: int | None = None) -> tuple[int, int] | None:
    """(month, day) of a holiday, "December 24", "the 24th of December", or a bare "31st" in ``month``."""
    for pattern, day in _HOLIDAY_RES:
        if pattern.fullmatch(words.strip()):
            return int(day[:2]), int(day[3:])
    m = _MONTH_DAY_RE.match(words.strip())
    if m:
        return _month_number(m.group("m") or m.group("m2")), int(m.group("d") or m.group("d2"))
    bare = re.fullmatch(r"(?:the\s+)?([0-3]?\d)(?:st|nd|rd|th)?", words.strip())
    return (month, int(bare.group(1))) if bare and month else None


def _day_ranges(low: str) -> list[tuple[re.Match, tuple[int, int], tuple[int, int]]]:
    """Each run of days written ("christmas eve thru new years eve"), with its first and last (month, day)."""
    out = []
    for m in _DAY_RANGE_RE.finditer(low):
        if m.group("sep").lower() == "and" and not m.group("open"):
            continue  # "christmas and new year's day": two days, not the days between them
        first = _day_of(m.group("a"))
        last = _day_of(m.group("b"), first[0] if first else None)
        if not first or not last or first == last or not all(1 <= d <= calendar.monthrange(2024, mo)[1]
                                                               for mo, d in (first, last)):
            continue
        out.append((m, first, last))
    return out


def _day_range_span(m: re.Match, first: tuple, last: tuple, low: str, periods: list) -> DateSpan | None:
    """The dates of a run of days in a year: its own ("December 24 to 31, 2020") or the only year the question
    names ("the 2020 holidays, christmas eve thru new years eve"); a run past December 31 ends the next year. None
    when no one year is named, or a range of years is (the days are then kept in every year)."""
    crosses = last < first
    if m.group("ya") or m.group("yb"):
        end_year = int(m.group("yb") or m.group("ya")) + (crosses if not m.group("yb") else 0)
        start_year = int(m.group("ya")) if m.group("ya") else end_year - crosses
    else:
        named = {int(y) for y in re.findall(r"\b" + _Y + r"\b", low)}
        if len(named) != 1 or periods:  # "every year since 2010": the days of every year
            return None
        start_year = named.pop()
        end_year = start_year + crosses
    start = _valid_day(start_year, *first)
    end = _valid_day(end_year, *last)
    return DateSpan(start, end) if start and end and start <= end else None


def _calendar_days(low: str, taken: list) -> tuple[list[str], list]:
    """Calendar days kept in every year ("on christmas day since 2001": ["12-25"]) and their text spans."""
    days, spans = [], []
    for m, first, last in _day_ranges(low):  # "from christmas eve to new year's eve, every year"
        if _overlaps(m.span(), taken + spans):
            continue
        day = datetime.date(2024, *first)
        while (day.month, day.day) != last:
            days.append(f"{day.month:02d}-{day.day:02d}")
            day += datetime.timedelta(days=1)
        days.append(f"{last[0]:02d}-{last[1]:02d}")
        spans.append(m.span())
    for pattern, day in _HOLIDAY_RES:
        for m in pattern.finditer(low):
            if not _overlaps(m.span(), taken + spans):
                days.append(day)
                spans.append(m.span())
    for pattern in _DAY_NO_YEAR_RES:
        for m in pattern.finditer(low):
            month, dom = _month_number(m.group("m")), int(m.group("d"))
            if _overlaps(m.span(), taken + spans) or not 1 <= dom <= calendar.monthrange(2024, month)[1]:
                continue
            days.append(f"{month:02d}-{dom:02d}")
            spans.append(m.span())
    return sorted(set(days)), spans


_SO_FAR_RE = re.compile(r"\bso\s+far(?:\s+this\s+year)?\b|\bthis\s+year\s+so\s+far\b|\byear[\s-]to[\s-]date\b|"
                        r"\bytd\b|\b(?:up\s+)?(?:to|till|until)\s+now\s+this\s+year\b|"
                        # "2023 up to where the data stops": the data's last year to its last date
                        r"\b(?:up\s+)?(?:to|till|until)\s+(?:where|when)\s+the\s+data\s+(?:stops|ends|runs\s+out|"
                        r"cuts\s+off)\b|\bas\s+far\s+as\s+the\s+data\s+goes\b", re.I)
_SAME_STRETCH_RE = re.compile(
    r"\b(?:the\s+)?same\s+(?:stretch|period|time|point|span|months|window|part|timeframe|time\s+frame|dates)"
    r"(?:\s+(?:of|in|from|during))?\s+(?:(?:the\s+)?(?:last|previous|prior)\s+year|a\s+year\s+(?:ago|earlier|before)|"
    r"(?P<year>" + _Y + r"))\b|\b(?:this|that|the\s+same)\s+time\s+last\s+year\b|"
    r"\b(?:at\s+)?this\s+point\s+last\s+year\b|\blast\s+year\s+(?:at\s+this\s+point|by\s+now|at\s+this\s+time|"
    r"by\s+this\s+time)\b", re.I)


def _valid_day(year: int, month: int, day: int) -> str | None:
    """"2020-07-04", or None for a day no calendar has (February 30)."""
    if 1 <= day <= calendar.monthrange(year, month)[1]:
        return f"{year}-{month:02d}-{day:02d}"
    return None


def _month_key(year: int, month: int) -> int:
    return year * 12 + month - 1


def _month_spans(low: str, cov: dict, periods: list) -> tuple[list[DateSpan], list]:
    """Month spans ("December 2019 and January 2020", "from Nov 2021 through Feb 2022"), months since a month, and
    single months with their year ("in June 2021"); each is one inclusive span of whole months."""
    found: list[tuple[int, DateSpan]] = []
    spans: list = []
    for m in _WINTER_RE.finditer(low):
        winter = _winter_span(m)
        if winter:
            spans.append(m.span())
            found.append((m.start(), winter))
    for m in _WEEK_OF_RE.finditer(low):
        spans.append(m.span())
        found.append((m.start(), _week_span(m)))
    for m, first, last in _day_ranges(low):
        span = _day_range_span(m, first, last, low, periods)
        if span and not _overlaps(m.span(), spans):
            spans.append(m.span())
            found.append((m.start(), span))
    for pattern in _DAY_RES:
        for m in pattern.finditer(low):
            day = _valid_day(int(m.group("y")), _month_number(m.group("m")), int(m.group("d")))
            if day and not _overlaps(m.span(), spans):
                spans.append(m.span())
                # "since January 1, 2020": that day to the data's end
                since = _DAY_SINCE_RE.search(low, max(0, m.start() - 24), m.start())
                found.append((m.start(), DateSpan(day, cov["end"] if since else day)))
                if since:
                    continue
                # "the 4th of July 2020 vs 2021": the same day of each year named after it
                for more in _MORE_YEARS_RE.finditer(low, m.end()):
                    if more.start() != spans[-1][1]:
                        break
                    again = _valid_day(int(more.group("y")), _month_number(m.group("m")), int(m.group("d")))
                    spans.append(more.span())
                    if again:
                        found.append((more.start(), DateSpan(again, again)))
    for m in _MONTH_SPAN_RE.finditer(low):
        if _overlaps(m.span(), spans):
            continue
        m1, m2, y2 = _month_number(m.group("m1")), _month_number(m.group("m2")), int(m.group("y2"))
        y1 = int(m.group("y1")) if m.group("y1") else (y2 if m1 <= m2 else y2 - 1)
        first, last = _month_key(y1, m1), _month_key(y2, m2)
        if last < first:
            continue
        spans.append(m.span())
        # "the percent change from December 2020 to December 2022": the change's two ends, not the months between
        ends = m.group("sep").lower() in ("to", "-", "\u2013") and m.group("y1") and last - first > 1 and \
            _CHANGE_BEFORE_RE.search(low, max(0, m.start() - 40), m.start())
        if ends or m.group("sep").lower() == "and" and not m.group("opener") and last - first > 1:
            if y1 == y2:
                continue  # "June and August 2021": two calendar months of one year, the month filter's job
            found += [(m.start(), DateSpan(f"{y1}-{m1:02d}", f"{y1}-{m1:02d}")),
                      (m.start("m2"), DateSpan(f"{y2}-{m2:02d}", f"{y2}-{m2:02d}"))]
            continue
        found.append((m.start(), DateSpan(f"{y1}-{m1:02d}", f"{y2}-{m2:02d}")))
    for m in _MONTH_SINCE_RE.finditer(low):
        if _inside(m.span(), spans):
            continue
        spans.append(m.span())
        found.append((m.start(), DateSpan(f"{m.group('y')}-{_month_number(m.group('m')):02d}", cov["end"])))
    for m in _MONTH_ONE_RE.finditer(low):
        if _overlaps(m.span(), spans):
            continue
        spans.append(m.span())
        month = f"{m.group('y')}-{_month_number(m.group('m')):02d}"
        found.append((m.start(), DateSpan(month, month)))
    ordered = [span for _, span in sorted(found, key=lambda t: t[0])]
    if len(ordered) == 1 and ordered[0].start[:4] == ordered[0].end[:4] and len(ordered[0].end) == 7:
        # Months of one year ("in June 2021", "Jan through June 2021") are the year and its months, as the
        # month filter has always read them; a span is needed only across years, or to the data's last day.
        return [], spans
    return ordered, spans


# The same days of two named years ("2023 against 2022, the same stretch of each year", "is 2023 running ahead of
# 2022"): when one of the two is the data's partial last year, only its stretch compares with the other.
_EACH_YEAR_RE = re.compile(r"\b(?:the\s+)?same\s+(?:stretch|period|time|part|months|span|window|dates|point)\s+"
                           r"(?:of|in)\s+(?:each|both)\s+(?:year|years)\b|\b(?:running|tracking|trending|pacing)\s+"
                           r"(?:ahead\s+of|behind)(?:\s+or\s+(?:ahead\s+of|behind))?", re.I)
_FOUR_DIGIT_YEAR_RE = re.compile(r"\b(?:19|20)\d\d\b")


def _two_named_years(low: str, this_year: int) -> int | None:
    """The other year, when the text names exactly two years and one is ``this_year``."""
    years = {int(y) for y in _FOUR_DIGIT_YEAR_RE.findall(low)}
    others = years - {this_year}
    return others.pop() if this_year in years and len(years) == 2 else None


def _same_stretch(low: str, cov: dict) -> tuple[list[DateSpan], list, str | None]:
    """"So far this year" against "the same stretch last year": January 1 to the data's last date, in the data's
    last year and (the same days) in the year before or the year named. Two named years, one of them the data's
    partial last year, compared "for the same stretch of each year" are read the same way."""
    so_far, same = _SO_FAR_RE.search(low), _SAME_STRETCH_RE.search(low)
    end = cov["end"]
    this_year = int(end[:4])
    if so_far and same:
        other = int(same.group("year")) if same.group("year") else this_year - 1
        consumed = [so_far.span(), same.span()]
    else:
        each = _EACH_YEAR_RE.search(low)
        other = _two_named_years(low, this_year) if each else None
        if other is None:
            return [], [], None
        consumed = [m.span() for m in _EACH_YEAR_RE.finditer(low)]
    if other >= this_year:
        return [], [], None
    month, day = int(end[5:7]), int(end[8:10])
    day = min(day, calendar.monthrange(other, month)[1])  # Feb 29 has no match in a common year
    other_end = f"{other}-{month:02d}-{day:02d}"
    spans = [DateSpan(f"{this_year}-01-01", end, f"so far in {this_year}"),
             DateSpan(f"{other}-01-01", other_end, f"the same stretch of {other}")]
    note = (f"'so far this year' means {this_year}-01-01 to {end}, the last date in the homicide data, compared with "
            f"the same days of {other} ({other}-01-01 to {other_end})")
    return spans, consumed, note


# ---------------------------------------------------------------- hours of the day

# One definition per vague word, stated in the reading; "day" and "night" do not meet, so that both are days'
# plainest sense (daylight hours; late evening to before dawn).
VAGUE_HOURS = [
    ("after midnight", r"\bafter\s+midnight\b", list(range(0, 5))),
    ("in the early morning hours", r"\b(?:(?:in|during)\s+the\s+)?early\s+(?:morning\s+)?hours\b|"
                                   r"\b(?:in\s+the\s+)?(?:wee|small)\s+hours(?:\s+of\s+the\s+morning)?\b|"
                                   r"\b(?:in\s+the\s+)?early\s+mornings?\b", list(range(0, 6))),
    ("overnight", r"\bovernight\b", list(range(0, 6))),
    ("at night", r"\b(?:late\s+)?(?:at|by|during\s+the|in\s+the)\s+night(?:s|\s*time)?\b|\bnight\s*time\b|"
                 r"\blate\s+nights?\b|\bafter\s+dark\b|\bat\s+nights\b|\bnights\b|"
                 r"\b(?:weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\s+night\b|\bweek[\s-]?nights?\b|"
                 r"\bschool\s+nights?\b", [21, 22, 23, 0, 1, 2, 3, 4]),
    ("at dawn", r"\b(?:at\s+)?(?:the\s+)?crack\s+of\s+dawn\b|\b(?:at|around|near)\s+(?:dawn|daybreak|sunrise)\b",
     [5, 6]),
    ("at rush hour", r"\b(?:during\s+|at\s+|in\s+)?(?:the\s+)?rush[\s-]hours?\b", [7, 8, 16, 17, 18]),
    ("in the morning", r"\b(?:in|during)\s+the\s+mornings?\b|\bmornings\b|\bmorning\s+hours\b", list(range(5, 12))),
    ("in the afternoon", r"\b(?:in|during)\s+the\s+afternoons?\b|\bafternoons\b", list(range(12, 17))),
    ("in the evening", r"\b(?:in|during)\s+the\s+evenings?\b|\bevenings\b", list(range(17, 21))),
    ("during the day", r"\b(?:during|in)\s+the\s+day(?:\s*time)?\b|\bdaytime\b|\b(?:in|during)\s+daylight"
                       r"(?:\s+hours)?\b|\bby\s+day\b", list(range(6, 18))),
    ("during working hours", r"\b(?:(?:during|in)\s+)?(?:normal\s+|regular\s+)?(?:working|business|office|work)\s+"
                             r"hours(?:\s*[,(]?\s*(?:9|nine)\s*(?:-|–|to)\s*(?:5|five)\)?)?|"
                             r"\b(?:9|nine)\s*(?:-|–|to)\s*(?:5|five)\s+(?:working|business|office|work)\s+hours\b",
     list(range(9, 17))),
]
_VAGUE_RES = [(label, re.compile(pattern, re.I), hours) for label, pattern, hours in VAGUE_HOURS]

_CLOCK = (r"(?:(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|o['’]?clock|in\s+the\s+(?:morning|afternoon|evening)|"
          r"at\s+night)?|(midnight|noon|midday))")
_CLOCK_RE = re.compile(_CLOCK, re.I)
_HOUR_RANGE_RE = re.compile(r"\b(?:between|from)\s+(?P<a>" + _CLOCK + r")\s+(?:and|to|till|until|through|-)\s+(?P<b>"
                            + _CLOCK + r")(?![\w:])|\b(?P<c>" + _CLOCK
                            + r")\s*(?:-|–|to|until|till|through|thru)\s*(?P<d>" + _CLOCK
                            + r")(?![\w:])", re.I)
_HOUR_AT_RE = re.compile(r"\b(?:at|around|about|near)\s+(?P<a>" + _CLOCK + r")(?![\w:])", re.I)
# "after midnight and before 6 in the morning", "after 10pm but before 2am": one span between the two times.
_HOUR_BETWEEN_RE = re.compile(r"\b(?:after|from)\s+(?P<a>" + _CLOCK + r")\s*,?\s+(?:and|but)\s+(?:still\s+)?"
                              r"(?:before|until|till)\s+(?P<b>" + _CLOCK + r")(?![\w:])", re.I)
_HOUR_AFTER_RE = re.compile(r"\b(?P<how>after|before)\s+(?P<a>" + _CLOCK + r")(?![\w:])", re.I)


@dataclass
class _Clock:
    hour: int  # 0-23, or the 1-12 reading when ``ambiguous``
    minute: int = 0
    ambiguous: bool = False  # a bare number: am or pm is decided by the other end of a range


def _clock(text: str) -> _Clock | None:
    m = _CLOCK_RE.fullmatch(text.strip())
    if not m:
        return None
    if m.group(4):
        return _Clock(0 if m.group(4).lower() == "midnight" else 12)
    hour, minute, suffix = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
    if not 0 <= minute <= 59 or hour > 23:
        return None
    if suffix.startswith(("in", "at")):  # "6 in the morning" is 6am; "in the evening", "at night" are pm
        suffix = "am" if suffix.endswith("morning") else "pm"
    if suffix.startswith(("a", "p")):
        if not 1 <= hour <= 12:
            return None
        return _Clock(hour % 12 + (12 if suffix.startswith("p") else 0), minute)
    return _Clock(hour, minute, ambiguous=hour <= 12)


def _hour_run(start: int, end_hour: int, end_minute: int) -> list[int]:
    """Hours from ``start`` up to the end time (an end on the hour is not counted: 9pm-5am stops at 04:59)."""
    stop = end_hour + (1 if end_minute else 0)
    length = (stop - start) % 24 or (24 if stop != start else 1)
    return [(start + i) % 24 for i in range(length)]


def _range_hours(a: _Clock, b: _Clock) -> list[int] | None:
    """A range's hours; a bare number ("between 9 and 5am") takes the am or pm giving the shorter span."""
    if a.ambiguous and b.ambiguous:
        return None  # "between 5 and 10" may be anything but hours
    starts = [a.hour % 12, a.hour % 12 + 12] if a.ambiguous else [a.hour]
    ends = [b.hour % 12, b.hour % 12 + 12] if b.ambiguous else [b.hour]
    runs = [_hour_run(s, e, b.minute) for s in starts for e in ends]
    return min(runs, key=len)


def label_hours(hours: list[int]) -> str:
    """"21:00-04:59": a run of hours, wrapping past midnight, as the tool's own phrase does."""
    runs: list[list[int]] = []
    for h in hours:
        if runs and (runs[-1][-1] + 1) % 24 == h:
            runs[-1].append(h)
        else:
            runs.append([h])
    return ", ".join(f"{run[0]:02d}:00-{run[-1]:02d}:59" for run in runs)


def _hour_spans(low: str) -> tuple[list[HourSpan], list]:
    """Clock ranges and times first ("between 9pm and 5am", "at 3am"), then the vague words, each with its
    definition; a vague word beside a clock range ("9pm to 5am at night") adds nothing to it."""
    found: list[tuple[int, HourSpan]] = []
    spans: list = []
    for m in _HOUR_BETWEEN_RE.finditer(low):
        a, b = _clock(m.group("a")), _clock(m.group("b"))
        hours = _range_hours(a, b) if a and b else None
        if hours:
            spans.append(m.span())
            found.append((m.start(), HourSpan(hours, label_hours(hours))))
    for m in _HOUR_RANGE_RE.finditer(low):
        if _overlaps(m.span(), spans):
            continue
        a, b = _clock(m.group("a") or m.group("c")), _clock(m.group("b") or m.group("d"))
        hours = _range_hours(a, b) if a and b else None
        if hours is None or (a.ambiguous or b.ambiguous) and m.group("c"):
            continue  # "9-5" alone is not clearly hours; "between 9 and 5am" is
        spans.append(m.span())
        found.append((m.start(), HourSpan(hours, label_hours(hours))))
    for pattern, how in ((_HOUR_AT_RE, "at"), (_HOUR_AFTER_RE, "after")):
        for m in pattern.finditer(low):
            clock = _clock(m.group("a"))
            if clock is None or clock.ambiguous or _overlaps(m.span(), spans):
                continue
            if how == "at":
                hours = [clock.hour]
            elif m.group("how").lower() == "after":
                if clock.hour < 12 and clock.hour != 0:
                    continue  # "after 6am": until when is not clear
                if clock.hour == 0:
                    continue  # "after midnight" is a vague phrase with its own definition below
                hours = list(range(clock.hour + (1 if clock.minute else 0), 24))
            else:  # before: from midnight
                if clock.hour >= 12 or clock.hour == 0:
                    continue  # "before 3pm": from when is not clear
                hours = list(range(0, clock.hour))
            if not hours:
                continue
            spans.append(m.span())
            found.append((m.start(), HourSpan(hours, label_hours(hours))))
    explicit = bool(found)
    for label, pattern, hours in _VAGUE_RES:
        for m in pattern.finditer(low):
            if _overlaps(m.span(), spans):
                continue
            spans.append(m.span())
            if not explicit:
                found.append((m.start(), HourSpan(list(hours), f"{label} (read as {label_hours(hours)})")))
    out: list[HourSpan] = []
    for _, span in sorted(found, key=lambda t: t[0]):
        if span not in out:
            out.append(span)
    return out, spans


# ---------------------------------------------------------------- averages and percent changes

_AVERAGE_RE = re.compile(r"\b(?:on\s+)?(?:an?\s+)?(?:average|avg|mean|averaged)\b(?:\s+(?:per|a|each)\s+year)?|"
                         r"\b(?:annual|yearly)\s+average\b", re.I)
_PERCENT_CHANGE_RE = re.compile(
    r"(?:\bpercent(?:age)?|\bper\s+cent|%)\s+(?:change|increase|decrease|rise|drop|decline|jump|fall|difference)\b|"
    r"\bby\s+what\s+(?:percent(?:age)?|%)|\bhow\s+many\s+percent\b|\bchange\s+in\s+percent(?:age)?\s+terms\b|"
    # "how big was the jump from 2015 to 2016, in percent?"
    r"\bin\s+percent(?:age)?(?:\s+terms)?\s*(?:[?.!]|$)|"
    # "home-value gain (%)", "% gain", "growth in %"
    r"\b(?:change|increase|decrease|rise|drop|decline|jump|fall|gain|growth|loss)\s*\(\s*%\s*\)|%\s+(?:gain|growth|loss)\b|"
    r"\b(?:gain|growth|loss|change)\s+in\s+%|"
    # "how much did their values go up, in %", "how much did it fall, in percent"
    r"\b(?:go|goes|went|gone)\s+(?:up|down)\s*,?\s*(?:in|by)\s+(?:%|percent(?:age)?)|"
    r"\b(?:rise|rose|fall|fell|grow|grew|drop|dropped|change|changed)\s*,\s*in\s+(?:%|percent(?:age)?)|"
    # "how much higher (%) was 2025Q4 than the 2007 average"
    r"\bhow\s+much\s+(?:higher|lower|more|less|bigger|smaller)\s*\(\s*(?:%|percent|in\s+%)\s*\)", re.I)


# ---------------------------------------------------------------- the whole reading

@dataclass
class Times:
    year_list: list[int] = field(default_factory=list)
    date_spans: list[DateSpan] = field(default_factory=list)
    hour_spans: list[HourSpan] = field(default_factory=list)
    month_days: list[str] = field(default_factory=list)  # calendar days kept in every year, MM-DD
    holidays: list[str] = field(default_factory=list)  # holidays on moving dates, each year's own ("thanksgiving")
    asks_average: bool = False
    asks_percent_change: bool = False
    note: str | None = None  # replaces the relative-year note ("so far this year" against last year)
    consumed: list = field(default_factory=list)  # separate years, and the spans' text (below)
    span_text: list = field(default_factory=list)  # text of the date spans and hours read
    holiday_text: list = field(default_factory=list)  # text of the moving holidays read ("black friday")
    unread_days: list = field(default_factory=list)  # runs of days, or a holiday weekend, no filter can count
    season_text: list = field(default_factory=list)  # "each summer from memorial day to labor day": no months

    def without_spans(self) -> None:
        """Drop the date spans and hours (a tool that cannot take them answers): their words are then reported
        as not used instead of being claimed."""
        self.consumed = [span for span in self.consumed if span not in self.span_text]
        self.date_spans, self.hour_spans, self.month_days, self.holidays, self.note = [], [], [], [], None


# Years picked by a rule within the range asked (or the whole data): "even-numbered years", "every other year",
# "every fifth year starting in 2007", "leap years", "presidential election years" (both every fourth year
# divisible by 4 in the years the data covers).
_STEPS = {"other": 2, **{word: n for word, n in ORDINAL_WORDS.items() if n > 1}}
_ALTERNATE_YEARS_RE = re.compile(r"\b(?P<parity>odd|even)(?:[\s-]numbered)?\s+years?\b|"
                                 r"\bevery\s+(?P<step>" + alternation(_STEPS) + r"|"
                                 r"\d{1,2}(?:st|nd|rd|th))\s+years?\b|"
                                 r"\b(?P<four>leap|(?:us\s+|u\.s\.\s+)?presidential(?:\s+election)?)\s+years?\b", re.I)


def _years_by_rule(match: re.Match, start: int, end: int) -> list[int]:
    if match.group("parity"):
        return [y for y in range(start, end + 1) if y % 2 == (1 if match.group("parity").lower() == "odd" else 0)]
    if match.group("four"):
        return [y for y in range(start, end + 1) if y % 4 == 0]
    word = match.group("step").lower()
    step = _STEPS.get(word) or int(re.match(r"\d+", word).group(0))
    return list(range(start, end + 1, max(step, 1)))


def read_times(low: str, cov: dict, periods: list) -> Times:
    """The time expressions of ``low`` (the lower-cased question, years already as digits); ``periods``: the year
    ranges read (analyzer/years.py), which a list of separate years never overrides."""
    out = Times()
    out.date_spans, out.span_text, out.note = _same_stretch(low, cov)
    if not out.date_spans:
        out.date_spans, spans = _month_spans(low, cov, periods)
        out.span_text += spans
    out.hour_spans, spans = _hour_spans(low)
    out.span_text += spans
    named = [int(y) for y in re.findall(r"\b" + _Y + r"\b", low)] if not periods else []
    out.holidays, runs, spans, unread = read_moving_holidays(low, _DAY_WORD, _day_of, named,
                                                             [(d.start, d.end) for d in out.date_spans])
    out.date_spans += [DateSpan(*run) for run in runs if DateSpan(*run) not in out.date_spans]
    out.span_text += spans
    out.holiday_text, out.unread_days = list(spans), unread
    if "memorial_day_to_labor_day" in out.holidays:  # "each summer from memorial day to labor day": those days
        out.season_text = [m.span() for m in re.finditer(r"\bsummers?\b", low)]
        out.span_text += out.season_text
    # The days at the ends of a run left unread are not read alone (Christmas Day would answer another question).
    out.month_days, spans = _calendar_days(low, list(out.span_text) + unread)
    out.span_text += spans
    if out.month_days or out.holidays or any(len(span.start) == 10 for span in out.date_spans):
        # "the 2020 holidays, christmas eve thru new years eve": the days named say which holidays
        out.span_text += [m.span() for m in _HOLIDAYS_WORD_RE.finditer(low)]
    out.consumed = list(out.span_text)
    if not periods and not out.date_spans:
        out.year_list, spans = _year_list(low)
        out.consumed += spans
    alternate = _ALTERNATE_YEARS_RE.search(low)
    if len(periods) <= 1 and alternate and not out.date_spans and not out.year_list:
        # "every odd year from 2011 to 2019": 2011, 2013, ... 2019, each a year of its own, not the whole range;
        # with no range, the years the data covers
        start, end = (periods[0]["start"], periods[0]["end"]) if periods else (cov["first"], cov["last"])
        picked = _years_by_rule(alternate, start, min(end, cov["last"]))
        if picked:
            out.year_list = picked
            out.consumed.append(alternate.span())
    # Their words are the coverage check's own (an average of several years, a percent of a change): not consumed.
    out.asks_average = bool(_AVERAGE_RE.search(low))
    out.asks_percent_change = bool(_PERCENT_CHANGE_RE.search(low))
    return out


_AGAINST_OTHER_HOURS_RE = re.compile(r"\b(?:more|less|most|least|fewer|common|likely|usually|typically|peak)\b", re.I)


def against_other_hours(low: str, times: Times) -> bool:
    """One stretch of hours weighed against the rest of the day ("are homicides more common at night?"): the
    hour-by-hour breakdown answers it, not the stretch's own count."""
    return len(times.hour_spans) == 1 and bool(_AGAINST_OTHER_HOURS_RE.search(low))


def names_only_spans(pattern: re.Pattern, low: str, times: Times) -> bool:
    """Whether every match of ``pattern`` (a grouping's words) lies in a time expression read here: "at night" asks
    for the hours of the night, not for an hour-by-hour breakdown."""
    found = [m.span() for m in pattern.finditer(low)]
    return bool(found) and all(_overlaps(span, times.consumed) for span in found)


def _overlaps(span: tuple, spans: list) -> bool:
    return any(span[0] < e and s < span[1] for s, e in spans)


def _inside(span: tuple, spans: list) -> bool:
    return any(s <= span[0] and span[1] <= e for s, e in spans)


# ---------------------------------------------------------------- days of the week kept

_DAY_NAMES = [name.lower() for name in calendar.day_name]  # monday ... sunday
WEEKDAY_NAME_RE = re.compile(r"\b(" + "|".join(_DAY_NAMES) + r")s?\b", re.I)
_WEEKEND_RE = re.compile(r"\b(?:on|over|during|at|across)\s+(?:the\s+)?weekends?\b|\bweekends?\b", re.I)
_WEEKEND_NIGHTS_RE = re.compile(r"\bweekend\s+nights?\b|\bnights?\s+(?:on|over|during|at)\s+(?:the\s+)?weekends?\b",
                                re.I)
_WORKWEEK_RE = re.compile(r"\b(?:on|during|over)\s+(?:the\s+)?weekdays\b|\bmonday\s+(?:through|to|thru|-)\s+friday\b",
                          re.I)
# Asking which day, or each day's figure: the days are a grouping, not (only) a filter.
WHICH_WEEKDAY_RE = re.compile(r"\bdays?\s+of\s+(?:the\s+)?week\b|\b(?:which|what)\s+(?:day|weekday)s?\b|"
                              r"\bby\s+day\b|\beach\s+day\b|\bbusiest\s+day\b|"
                              # "more on Fridays or Saturdays": each day's count, side by side
                              r"\b(?:" + "|".join(_DAY_NAMES) + r")s?\s+(?:or|vs\.?|versus|compared\s+(?:to|with))\s+"
                              r"(?:on\s+)?(?:" + "|".join(_DAY_NAMES) + r")", re.I)


# A run of days, the names whole or cut short ("sat-mon", "fri thru the sunday"): a short name alone ("sat", "sun",
# "wed") is too often another word to read as a day.
_DAY_OR_SHORT = r"(?:" + "|".join(_DAY_NAMES) + r"|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)"
DAY_RUN_RE = re.compile(r"\b(?P<a>" + _DAY_OR_SHORT + r")s?\.?\s*(?:through|thru|to|till|until|-|–)\s*(?:the\s+)?"
                        r"(?P<b>" + _DAY_OR_SHORT + r")s?\b", re.I)
_WEEKNIGHTS_RE = re.compile(r"\bweek[\s-]?nights?\b|\bschool\s+nights?\b", re.I)


# Days left out: "not on a weekend", "except sundays", "excluding weekdays", "other than on fridays".
NOT_DAYS_RE = re.compile(r"\b(?:not|except|excluding|other\s+than|outside(?:\s+of)?|apart\s+from)\s+"
                         r"(?:on\s+|during\s+)?(?:an?\s+|the\s+)?"
                         r"(?P<days>weekends?|weekdays?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b")


def kept_weekdays(low: str) -> list[int]:
    """The days of the week a question keeps, 1 = Monday: "on weekends" -> [6, 7], "on weekdays" -> [1..5], "on
    Fridays" -> [5], "monday thru thursday" -> [1..4] (a run may wrap: "friday to sunday" -> [5, 6, 7]).
    Weeknights are the nights that are not the weekend's, Sunday to Thursday. Weekends set against weekdays
    ("weekends or weekdays") keep none: that is a comparison by day. Days left out keep the others ("not on a
    weekend" -> [1..5]: it had been read as the weekend)."""
    left_out = NOT_DAYS_RE.search(low)
    if left_out:
        dropped = kept_weekdays("on " + left_out["days"])
        return [d for d in range(1, 8) if d not in dropped]
    run = DAY_RUN_RE.search(low)
    if run:
        first, last = ([d[:3] for d in _DAY_NAMES].index(run.group(k).lower()[:3]) for k in ("a", "b"))
        return sorted({(first + i) % 7 + 1 for i in range((last - first) % 7 + 1)})
    if _WEEKNIGHTS_RE.search(low) and not WEEKDAY_NAME_RE.search(low):
        return [1, 2, 3, 4, 7]
    weekend, workweek = bool(_WEEKEND_RE.search(low)), bool(_WORKWEEK_RE.search(low))
    if weekend and (workweek or re.search(r"\bweekdays?\b", low)):
        return []
    named = sorted({_DAY_NAMES.index(m.group(1).lower()) + 1 for m in WEEKDAY_NAME_RE.finditer(low)})
    if weekend and _WEEKEND_NIGHTS_RE.search(low) and not named:  # "weekend nights (Sat/Sun ...)": the days named
        return [5, 6]  # the nights of a weekend are Friday's and Saturday's (each runs into the next morning)
    if weekend:
        return [6, 7]
    if workweek:
        return [1, 2, 3, 4, 5]
    return named
