"""A gap or a ratio the question asks for between two figures that are not two places' homicide counts (those are
rules/sentences.place_difference_sentence): an area's homicide rate against the city's ("how many times higher was
Englewood's rate than the city's"), two areas' socioeconomic measure ("is income higher in Hyde Park or Kenwood?
what's the gap"). The tools give both figures; the sentence gives the one asked for, first, with both beside it.
"""
from __future__ import annotations

import re

from analyzer.lexicon import GAP_RE, TIMES_RE
from rules.sentences import month_words
from tools.census.data import RACE_GROUPS
from tools.census.socioeconomic import COLUMN_SPEC, condition_words
from tools.census.socioeconomic import fmt_value as socio_value


def rate_versus_city_sentence(question: str, values: dict) -> str | None:
    """One area's homicide rate against the city's, as the question asks: "Englewood's homicide rate in 2019, 89.0
    per 100,000, was 4.7 times the city's 18.8." (or the gap, "70.2 per 100,000 above"). None for anything else."""
    rows = values.get("breakdown") or []
    city = (values.get("citywide") or {}).get("rate_per_100k")
    if len(values.get("selected_areas") or []) != 1 or len(rows) != 1 or not city:
        return None
    row, start, end = rows[0], values.get("start_year"), values.get("end_year")
    rate = row.get("rate_per_100k")
    if not isinstance(rate, (int, float)):
        return None
    when = f"in {start}" if start == end else f"in {start}-{end}"
    head = f"{row['name']}'s homicide rate {when}, {rate:.1f} per 100,000,"
    if TIMES_RE.search(question):
        return f"{head} was {rate / city:.1f} times the city's {city:.1f}."
    if GAP_RE.search(question):
        gap = rate - city
        side = "above" if gap >= 0 else "below"
        return f"{head} was {abs(gap):.1f} per 100,000 {side} the city's {city:.1f}."
    return None


def socio_gap_sentence(question: str, values: dict) -> str | None:
    """Two community areas' socioeconomic measure and the gap (or ratio) between them: "Per capita income was
    $3,145 higher in Hyde Park ($39,056) than in Kenwood ($35,911), 2008-2012." None for anything else."""
    rows, column = values.get("rows") or [], values.get("compare_by")
    if values.get("scope") != "comparison" or len(rows) != 2 or column not in COLUMN_SPEC:
        return None
    a, b = rows
    va, vb = a.get(column), b.get(column)
    if not (isinstance(va, (int, float)) and isinstance(vb, (int, float))):
        return None
    label, kind = COLUMN_SPEC[column][0].split(" (")[0], COLUMN_SPEC[column][1]
    if kind == "pct":  # "households below poverty" is a share of them
        label = "the share of " + ("people " if label.startswith("aged ") else "") + label
    label = label[0].upper() + label[1:]
    if va < vb:  # the higher first: "higher in A than in B"
        a, b, va, vb = b, a, vb, va
    period = values.get("period")
    both = f"{a['name']} ({socio_value(column, va)}) than in {b['name']} ({socio_value(column, vb)})"
    tail = f", {period}." if period else "."
    if TIMES_RE.search(question) and vb:
        return (f"{label} in {a['name']} ({socio_value(column, va)}) was {va / vb:.1f} times that in {b['name']} "
                f"({socio_value(column, vb)}){tail}")
    if GAP_RE.search(question) or re.search(r"\bhigher\s+in\b.+\bor\b|\bor\b.+\bhigher\b", question, re.I):
        gap = f"{va - vb:.1f} percentage points" if kind == "pct" else socio_value(column, va - vb)
        return f"{label} was {gap} higher in {both}{tail}"
    return None


def year_ratio_sentence(question: str, values: dict) -> str | None:
    """"How many times more homicides in 2021 than in 2014?": the ratio of the two years' counts, the larger first,
    with both counts: "There were 804 homicides in Chicago in 2021, 1.9 times the 427 of 2014." (The
    change in count and percent had been the answer: a figure for another question.) None unless the question asks
    for a ratio and the result is a yearly series holding exactly two of the years it names."""
    if not TIMES_RE.search(question) or values.get("group_by") != "year":
        return None
    rows = {row.get("year"): row.get("homicides") for row in values.get("breakdown") or []}
    named = [int(y) for y in dict.fromkeys(re.findall(r"\b((?:19|20)\d{2})\b", question)) if int(y) in rows]
    if len(named) != 2 or not all(isinstance(rows[y], int) and rows[y] for y in named):
        return None
    big, small = sorted(named, key=lambda y: rows[y], reverse=True)
    where = _place_of(values)
    return (f"There were {rows[big]:,} homicides{where} in {big}, {rows[big] / rows[small]:.1f} times the "
            f"{rows[small]:,} of {small}.")


def _place_of(values: dict) -> str:
    """" in Austin (community area 25)", or " in Chicago" for a city-wide result."""
    filters = values.get("filters") or {}
    name = filters.get("community_area_name")
    if name:
        return f" in {name} (community area {filters.get('community_area')})"
    if filters.get("ward") is not None:
        return f" in ward {filters['ward']}"
    if filters.get("district") is not None:
        return f" in police district {filters['district']}"
    placed = {"wards", "districts", "community_areas", "exclude_wards", "exclude_districts", "exclude_community_areas"}
    return "" if placed & set(filters) else " in Chicago"


def home_value_ratio_sentence(question: str, first: dict, second: dict) -> str | None:
    """Two places' typical home values at the same time, and the ratio or gap the question asks for: "The typical
    home value in ZIP 60614, $550,856, was 4.7 times the $116,744 of ZIP 60621 (September 2024)." None for
    anything else."""
    a, b = first.get("home_value"), second.get("home_value")
    when = first.get("home_value_period")
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and a and b) or \
            when != second.get("home_value_period") or first.get("name") == second.get("name"):
        return None
    if a < b:  # the higher first: "4.7 times", never "0.2 times"
        first, second, a, b = second, first, b, a
    head = f"The typical home value in {first['name']}, ${a:,.0f},"
    tail = f"of {second['name']} ({month_words(when)})."
    if TIMES_RE.search(question):
        return f"{head} was {a / b:.1f} times the ${b:,.0f} {tail}"
    if GAP_RE.search(question):
        gap = abs(first.get("home_value_exact", a) - second.get("home_value_exact", b))
        return f"{head} was ${gap:,.0f} more than the ${b:,.0f} {tail}"
    return None



def period_average_change_sentence(first: dict, second: dict) -> str | None:
    """Two periods' counts of the same homicides ("2011-2015 vs 2016-2020", "before covid vs after"): the periods
    differ in length, so their yearly averages are compared: "The yearly average of homicides in Chicago went from
    460.8 (2011-2015) to 666.4 (2016-2020), a change of +44.6%." None unless both results are one period's count with
    the same filters."""
    if first.get("group_by") or second.get("group_by"):
        return None
    a, b = first.get("per_year_average"), second.get("per_year_average")
    filters_a = {k: v for k, v in (first.get("filters") or {}).items() if k != "years"}
    filters_b = {k: v for k, v in (second.get("filters") or {}).items() if k != "years"}
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and a) or filters_a != filters_b or \
            first.get("start_year") == second.get("start_year"):
        return None
    if first.get("start_year", 0) > second.get("start_year", 0):
        first, second, a, b = second, first, b, a
    label_a, label_b = ((first.get("filters") or {}).get("years"), (second.get("filters") or {}).get("years"))
    partial = next((v["partial_year"] for v in (first, second) if isinstance(v.get("partial_year"), dict)), None)
    note = (f"; {partial['year']} is partial (data end {partial['data_end']}), so its period's average counts a part "
            "year as a whole one") if partial and partial.get("year") and partial.get("data_end") else ""
    return (f"The yearly average of homicides{_place_of(first)} went from {a:,.1f} ({label_a}) to {b:,.1f} "
            f"({label_b}), a change of {100 * (b - a) / a:+.1f}%{note}.")


def census_group_gap_sentence(question: str, values: dict, group: str | None) -> str | None:
    """Two community areas' count of one race or ethnic group, and the gap (or ratio) the question asks for: "how
    many more Black residents does Auburn Gresham have than Chatham": "Auburn Gresham had 43,414 Black residents and
    Chatham 29,714 (ACS 2019-2023 5-year): 13,700 more in Auburn Gresham." None for anything else."""
    label = next((name for _, key, name in RACE_GROUPS if key == group), None)
    rows = values.get("rows") or []
    if values.get("scope") != "comparison" or len(rows) != 2 or not label:
        return None
    a, b = rows
    va, vb = a.get(group), b.get(group)
    if not (isinstance(va, int) and isinstance(vb, int)):
        return None
    if va < vb and not re.search(r"\b(?:fewer|less|lower|smaller)\b", question, re.I):
        a, b, va, vb = b, a, vb, va  # the larger first, so the sentence also says which has more
    # Each count right after its own area's name, so the grounding check reads each as that area's.
    both = f"{a['name']} had {va:,} {label} residents and {b['name']} {vb:,}" + \
        (f" ({values['vintage']})" if values.get("vintage") else "")
    if TIMES_RE.search(question) and vb:
        return f"{both}: {va / vb:.1f} times as many in {a['name']}."
    if GAP_RE.search(question):
        return f"{both}: {abs(va - vb):,} {'more' if va >= vb else 'fewer'} in {a['name']}."
    return both + "."  # the group's counts are what a comparison of it asks for, not the two populations


def city_without_areas_sentence(city: dict, left_out: dict) -> str | None:
    """"Chicago's population if you leave out the Loop": the city's count less the areas' ("Chicago had 2,609,337
    residents not counting Loop: 2,647,621 in all, less Loop's 38,284 (ACS 2019-2023 5-year).")."""
    if city.get("scope") != "city" or left_out.get("scope") not in ("area", "comparison"):
        return None
    rows = [left_out] if left_out.get("scope") == "area" else list(left_out.get("rows") or [])
    total, parts = city.get("population"), [r.get("population") for r in rows]
    if not isinstance(total, int) or not rows or not all(isinstance(p, int) for p in parts):
        return None
    names = " and ".join(str(r.get("name")) for r in rows)
    each = "; ".join(f"{r['name']}'s {p:,}" for r, p in zip(rows, parts))
    vintage = f" ({city['vintage']})" if city.get("vintage") else ""
    return f"Chicago had {total - sum(parts):,} residents not counting {names}: {total:,} in all, less {each}{vintage}."


def condition_homicides_sentence(condition: dict, homicides: dict) -> str | None:
    """The homicides in the community areas a measure picked, said with the measure: "There were 304 homicides in
    2021 in the 15 community areas that had the share of households below poverty above 30.0% (2008-2012)."."""
    column, total = condition.get("column"), homicides.get("total")
    if condition.get("scope") != "condition" or column not in COLUMN_SPEC or not isinstance(total, int):
        return None
    bounds = {op: condition[op] for op in ("above", "below") if op in condition}
    start, end = homicides.get("start_year"), homicides.get("end_year")
    when = f" in {start}" if start == end and start else f" from {start} to {end}" if start and end else ""
    return (f"There were {total:,} homicides{when} in the {condition['count']} community areas that had "
            f"{condition_words(column, bounds)} (2008-2012).")
