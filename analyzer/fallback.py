"""A period the data does not hold, asked with a fallback ("Zillow value for 60614 in March 2025 - or, if you don't
have it, the latest month you have?"), and a survey vintage ChiQA does not hold ("Logan Square in the 2011-2015 ACS").

Declining the whole question answered less than was asked: the user named what to give instead. The latest period
of the measure asked replaces the one past the data's end, and the answer's lead says which period is missing and
what stands in for it. A vintage not held is said in the lead beside the figures of the one held.
"""
from __future__ import annotations

import calendar
import re

# "if you don't have it, the latest month you have", "if that's not out, give the latest quarter's value", "if that
# month isn't covered, tell me July 2023 so far instead"
# "if you don't have 2024, ...": the clause that asks for a period held instead; two endings say which one
_IF_MISSING = (r"\bif\b[^.?]{0,40}?\b(?:don'?t|do\s+not|doesn'?t|does\s+not|not|isn'?t|aren'?t|missing|unavailable)\b"
               r"[^.?]{0,60}?\b")
FALLBACK_RE = re.compile(_IF_MISSING + r"(?:latest|most\s+recent|newest|last\s+(?:month|quarter|year)|instead)\b")
_AS_OF_RE = re.compile(r"\bas\s+of\b")
# "... or if you don't have that, the first year you do have": the earliest period held instead
EARLIEST_RE = re.compile(_IF_MISSING + r"(?:first|earliest|oldest)\b")
# "the 2011-2015 ACS", "ACS 2014-2018": a five-year ACS vintage named
_ACS_VINTAGE_RE = re.compile(r"\b((?:19|20)\d\d)\s*[-–]\s*((?:19|20)\d\d)\s+(?:5-year\s+)?acs\b|"
                             r"\bacs\s+(?:5-year\s+)?((?:19|20)\d\d)\s*[-–]\s*((?:19|20)\d\d)\b")
# "the latest full year", "the most recent complete month": the latest whole period, not a partial one
WHOLE_RE = re.compile(r"\b(?:latest|most\s+recent|last|newest)\s+(?:full|complete|whole)\b")
HELD_ACS = ("2019", "2023")
NOT_HELD = " is not in the data: "  # the lead says a period or vintage is missing, and what stands in for it


def _month_name(month: str) -> str:
    return f"{calendar.month_name[int(month[5:7])]} {month[:4]}"


def acs_vintage_warning(low: str) -> str | None:
    """The lead's note where an ACS vintage other than the one held is named."""
    for m in _ACS_VINTAGE_RE.finditer(low):
        first, last = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if (first, last) != HELD_ACS:
            return (f"The {first}-{last} ACS is not in the data: ChiQA holds the ACS 2019-2023 5-year estimates "
                    "(and the 2010 census), so the figures here are 2019-2023's.")
    return None


def latest_instead(result: dict, low: str, coverage: dict) -> None:
    """Where a fallback is asked, a home value month or price index quarter past the data's end becomes the latest
    one held, with the lead's note; a homicide month past the end is named as missing (the user's own fallback
    period is read as usual). A homicide year before the data's start, asked with "the first year you do have",
    becomes that first year."""
    metrics = set(result.get("metrics") or [])
    # "the Zillow value in 60647 as of March 2025": the value standing then is the latest held, said as such; so is
    # a home value alone asked in a month past the data ("zillow value for 60614 in march 2025"), a level whose
    # latest figure is the nearest the data holds (the lead says the month asked is missing)
    as_of = "home_value" in metrics and (bool(_AS_OF_RE.search(low)) or metrics <= {"home_value"})
    if _earliest_instead(result, low, coverage) or not (FALLBACK_RE.search(low) or as_of):
        return
    notes = []
    zhvi_end = str((coverage.get("zhvi") or {}).get("end") or "")
    late = [m for m in result.get("month_years") or [] if zhvi_end and m > zhvi_end]
    if "home_value" in metrics and late:
        result["month_years"] = sorted({*[m for m in result["month_years"] if m not in late], zhvi_end})
        notes.append(f"{_month_name(late[0])} is not in the data: Zillow home values end in "
                     f"{_month_name(zhvi_end)}, so that latest month is given instead.")
    ihs_end = str((coverage.get("ihs_index") or {}).get("end") or "")
    late_q = [q for q in result.get("quarters") or [] if ihs_end and q > ihs_end]
    if "price_trend" in metrics and ihs_end and (late_q or _past(result, ihs_end[:4])):
        result["quarters"] = [q for q in result.get("quarters") or [] if q not in late_q] or [ihs_end]
        result["quarter"] = ihs_end
        named = late_q[0] if late_q else str(max(result.get("out_of_range_years") or [int(ihs_end[:4]) + 1]))
        notes.append(f"{named} is not in the data: the IHS price index ends in {ihs_end}, so that latest quarter "
                     "is given instead.")
    end = str((coverage.get("homicides") or {}).get("end") or "")
    late_years = [y for y in result.get("out_of_range_years") or [] if end and y > int(end[:4])]
    if "homicides" in metrics and late_years and set(result.get("years") or []) <= set(late_years) and \
            not result.get("month_years"):
        whole = bool(WHOLE_RE.search(low)) and not end.endswith("-12-31")
        latest = int(end[:4]) - (1 if whole else 0)
        result.update(years=[latest], year_range={"start": latest, "end": latest},
                      out_of_range_years=[y for y in result["out_of_range_years"] if y not in late_years])
        notes.append(f"{late_years[0]} is not in the data: the homicide data ends on {end}, so the latest "
                     f"{'whole ' if whole else ''}year, {latest}, is given instead.")
    elif "homicides" in metrics and end and any(m > end[:7] for m in result.get("month_years") or []):
        month = min(m for m in result["month_years"] if m > end[:7])
        notes.append(f"{_month_name(month)} is not in the data: the homicide data ends on {end}.")
    if not notes:
        return
    if late_years and result.get("years") == [int(end[:4]) - (1 if WHOLE_RE.search(low) and not
                                                            end.endswith("-12-31") else 0)]:
        result["warnings"] = [w for w in result.get("warnings") or [] if "outside the" not in w] + notes
        return
    last_year = {int(zhvi_end[:4]) if late else None, int(ihs_end[:4]) if late_q or "price_trend" in metrics else None}
    result["out_of_range_years"] = [y for y in result.get("out_of_range_years") or [] if not (
        ("home_value" in metrics and late) or "price_trend" in metrics)]
    result["years"] = [y for y in result.get("years") or [] if not any(y > ly for ly in last_year if ly)]
    if not result["years"]:
        result["year_range"] = None
    result["warnings"] = [w for w in result.get("warnings") or [] if "outside the" not in w] + notes


def _earliest_instead(result: dict, low: str, coverage: dict) -> bool:
    """"Homicides in 2000 -- or if you don't have that, the first year you do have": the data's first year."""
    start = str((coverage.get("homicides") or {}).get("start") or "")
    early = [y for y in result.get("out_of_range_years") or [] if start and y < int(start[:4])]
    if not (early and "homicides" in set(result.get("metrics") or []) and EARLIEST_RE.search(low)
            and set(result.get("years") or []) <= set(early)):
        return False
    first = int(start[:4])
    result.update(years=[first], year_range={"start": first, "end": first},
                  out_of_range_years=[y for y in result["out_of_range_years"] if y not in early])
    result["warnings"] = [w for w in result.get("warnings") or [] if "outside the" not in w] + [
        f"{early[0]}{NOT_HELD}the homicide data starts on {start}, so the first year, {first}, is given instead."]
    return True


def _past(result: dict, last_year: str) -> bool:
    return any(y > int(last_year) for y in result.get("out_of_range_years") or [])


def named_instead(result: dict, clause: str) -> dict | None:
    """"If you don't have 2021, give me the 2018 total instead": the year the fallback clause names (not the one it
    says may be missing) is the period to give where the data holds none of the one asked (the planner takes it out
    of the query's own period, rules/planner.py). Not where the reading already found the asked year outside the homicide data (it gives the other)."""
    month = _MONTH_IN_RE.search(clause)
    if result.get("month_years") and month:
        # "the period ending June 2021? If not, the latest figure you have (period ending Oct 31 2019)"
        named = f"{month.group('y')}-{_MONTHS.index(month.group('m')[:3]) + 1:02d}"
        asked = [m for m in result["month_years"] if m != named]
        return {"month": named} if asked else None
    years = [int(y) for y in re.findall(r"(?<![\d-])((?:19|20)\d\d)(?![\d-])", clause)]
    asked = [y for y in result.get("years") or [] if y not in years[-1:]]
    instead = [y for y in years if y not in asked]
    if len(instead) != 1 or not asked or set(asked) & set(result.get("out_of_range_years") or []) or \
            result.get("month_years"):
        return None
    return {"year": instead[0]}


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_IN_RE = re.compile(r"\b(?P<m>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?"
                          r"\s+)?(?P<y>(?:19|20)\d\d)\b")
