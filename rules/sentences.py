"""The planner's answer lines as sentences: the figure asked for, with its place, period and filters.

A person asked in words, so "68 homicides (year 2016, ward 28); arrest rate 27.9%" becomes "There were 68 homicides
in ward 28 in 2016; the arrest rate was 27.9%.", and "Ranked highest: Austin (25): 71 (...)" becomes "The community
area with the most homicides in 2021 was Austin (25): 71 (...)". Every number is copied from the tool's values or
its own text as the tool formatted it, so the grounding check matches them as before; only the words around them
change. A model's synthesis request shows these lines too, so a small model that copies them copies sentences.
"""
from __future__ import annotations

import calendar
import re

from analyzer.lexicon import GAP_RE, ORDINAL_WORDS, TIMES_RE, counting
from rules.census_ranking import census_ranking_sentence
from tools import names

# The homicide tool's filter phrases (values["described"]) as the parts of a sentence.
_PERIOD = re.compile(r"^(?:years? (?P<years>.+)|(?P<start>\d{4}-\d\d-\d\d) to (?P<end>\d{4}-\d\d-\d\d))$")
_PLACE = re.compile(r"^(?:wards? |police districts |district |community areas? )")
_ADJECTIVES = {"domestic": "domestic", "non-domestic": "non-domestic"}
_OTHER = {"arrest made": "with an arrest made", "no arrest": "with no arrest made"}
GROUP_NOUNS = {"community_area": "community area", "ward": "ward", "district": "police district",
               "location_type": "kind of place", "year": "year", "month": "month", "weekday": "day of the week",
               "hour": "hour of the day", "zip": "ZIP code"}


def period_words(phrase: str) -> str | None:
    """"year 2016" -> "in 2016"; "years 2015-2019" -> "from 2015 to 2019"; "years 2015, 2017" -> "in 2015, 2017";
    a date span -> "from 2019-12-01 to 2020-01-31", one day -> "on July 4, 2020"; None when the phrase is not a
    period."""
    match = _PERIOD.match(phrase)
    if not match:
        return None
    if match.group("start"):
        start, end = match.group("start"), match.group("end")
        day = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", start)
        if start == end and day:  # one day: "on July 4, 2020"
            return f"on {calendar.month_name[int(day.group(2))]} {int(day.group(3))}, {day.group(1)}"
        return f"from {start} to {end}"
    years = match.group("years")
    span = re.fullmatch(r"(\d{4})-(\d{4})", years)
    return f"from {span.group(1)} to {span.group(2)}" if span else f"in {years}"


def _place_words(phrase: str) -> str:
    """"community area Austin (25)" -> "in Austin (community area 25)"; "district 11 (Harrison)" -> "in police
    district 11 (Harrison)"; wards as they are."""
    area = re.fullmatch(r"community area (.+) \((\d+)\)", phrase)
    if area:
        return f"in {area.group(1)} (community area {area.group(2)})"
    if phrase.startswith("community areas "):  # several counted together
        return "in " + re.sub(r"\((\d+)\)", r"(community area \1)", phrase[len("community areas "):]) + " combined"
    if phrase.startswith("district "):
        return "in police " + phrase
    return "in " + phrase


def count_parts(values: dict) -> tuple[list[str], list[str], list[str], list[str]]:
    """The homicide tool's filter phrases sorted into adjectives, places, periods and other conditions."""
    adjectives, places, periods, others = [], [], [], []
    months = ""
    for phrase in values.get("described") or []:
        when = period_words(phrase)
        if when:
            periods.append(when)
        elif phrase in _ADJECTIVES:
            adjectives.append(_ADJECTIVES[phrase])
        elif _PLACE.match(phrase):
            places.append(_place_words(phrase))
        elif phrase.startswith("location "):
            others.append(f"at a place recorded as {phrase[len('location '):]}")
        elif phrase.startswith("months "):
            names = phrase[len("months "):].split(", ")
            left = [calendar.month_name[m] for m in range(1, 13) if calendar.month_abbr[m] not in names]
            if len(left) <= 3:  # most of the year: the months left out say it shorter ("not counting June, ...")
                others.append("not counting " + _and(left))
                continue
            months = "in " + _and([_MONTHS.get(m, m) for m in names])
        else:
            others.append(_OTHER.get(phrase) or _excluding_words(phrase))
    if months and len(periods) == 1 and re.fullmatch(r"in \d{4}", periods[0]):
        periods = [f"{months} {periods[0][3:]}"]  # "in June" and "in 2021" read as "in June 2021"
    elif months:
        others.insert(0, months)
    return adjectives, places, periods, others


_MONTHS = {calendar.month_abbr[m]: calendar.month_name[m] for m in range(1, 13)}
_PLURALS = {"community area": "community areas", "police district": "police districts", "kind of place": "kinds of place"}


def _excluding_words(phrase: str) -> str:
    """The tool's "excluding ALLEY, STREET" and "excluding wards 24, 28" in words: "not counting those at places
    recorded as ALLEY or STREET", "excluding wards 24 and 28"."""
    if not phrase.startswith("excluding "):
        return phrase
    items = phrase[len("excluding "):].split(", ")
    if all(item.isupper() for item in items):  # location types, as the data records them
        where = "a place" if len(items) == 1 else "places"
        return f"not counting those at {where} recorded as " + (", ".join(items[:-1]) + " or " if len(items) > 1
                                                                   else "") + items[-1]
    kind = re.match(r"excluding ((?:wards|districts) )(.+)$", phrase)
    if kind and "-" not in kind.group(2):
        return "excluding " + kind.group(1) + _and(kind.group(2).split(", "))
    return phrase


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def count_sentence(values: dict, summary: str, in_all: bool = False, arrests_counted: bool = False) -> str | None:
    """A homicide count as a sentence ("There were 0 homicides ..." when nothing matched), or None when the result
    is not a homicide count."""
    total = values.get("total")
    if not isinstance(total, int) or values.get("described") is None:
        return None
    adjectives, places, periods, others = count_parts(values)
    noun = " ".join(adjectives + ["homicide" if total == 1 else "homicides"])
    where = " ".join(places) or "in Chicago"
    conditions = (", " + ", ".join(others)) if others else ""
    lead = "In all, there" if in_all else "There"
    text = f"{lead} {'was' if total == 1 else 'were'} {total:,} {noun} {where} {' '.join(periods)}".rstrip()
    share = values.get("share_of")
    if share and share.get("share_pct") is not None:
        conditions += f" ({share['share_pct']:.1f}% of the {share['homicides']:,} in the same years and place)"
    city = values.get("city_share")
    if city and city.get("share_pct") is not None and not in_all:
        # "what share of Chicago's homicides happened in Englewood": the share is the figure asked for, so it leads
        place = where.removeprefix("in ")
        text = (f"{place[:1].upper() + place[1:]} had {city['share_pct']:.1f}% of the city's {city['homicides']:,} "
                f"{noun} {' '.join(periods)}".rstrip() + f"{conditions}: {total:,}")
        conditions = ""
    text += conditions
    rate = values.get("arrest_rate_pct")
    if rate is not None and total and "arrest_status" not in (values.get("filters") or {}):
        text += f"; the arrest rate was {rate:.1f}%"  # of homicides counted by their arrest flag it says nothing
        if arrests_counted and isinstance(values.get("arrests"), int):  # "how many of those had an arrest"
            text += f" (an arrest in {values['arrests']:,})"
    return text + _summary_tail(summary, with_tie=not in_all) + "."


def _summary_tail(summary: str, with_tie: bool = True) -> str:
    """What the summary adds after its arrest rate: the yearly average, a partial-year note, a tie (left to the
    ranking's own sentence when this is its city-wide total)."""
    head, _, tail = summary.partition("; arrest rate ")
    _, _, rest = tail.partition("; ")
    parts = [p for p in rest.rstrip(".").split("; ") if p and (with_tie or ", tied: " not in p)]
    return "".join(f"; {p}" for p in parts)


_ORDINAL_WORDS = {n: word for word, n in ORDINAL_WORDS.items()}


def arrest_rate_of(figures: str) -> tuple[str, str] | None:
    """A homicide ranking row's arrest rate and the count it is a rate of: "33 (4.1% of total; arrest rate 12.1%)"
    -> ("12.1%", "33")."""
    rate, count = re.search(r"arrest rate (\d+(?:\.\d+)?%)", figures), re.match(r"([\d,]+)\b", figures)
    return (rate.group(1), count.group(1)) if rate and count else None


def ranking_sentence(tool: str, values: dict, row: str, order: str, summary: str, position: int = 1,
                     ahead: bool = True) -> str:
    """A row of a ranking (the first, or the ``position``-th asked for) as a sentence naming what was ranked, over
    which period: "The community area with the most homicides in 2021 was Austin (25): 71 (8.8% of total; arrest
    rate 32.4%)."; "The police district with the second-most homicides ...". The row keeps the tool's own wording
    after its name; a census ranking's sentence is made from its values (rules/census_ranking.py) and names the
    first row too, unless ``ahead`` is False (the first row was set aside)."""
    name, _, figures = row.partition(": ")
    group = GROUP_NOUNS.get(values.get("group_by") or "", "community area")
    most = order != "asc"
    place = _ORDINAL_WORDS.get(position, f"{position}th") + "-" if position > 1 else ""
    highest, lowest = f"the {place}highest", f"the {place}lowest"
    if tool == names.HOMICIDES:
        adjectives, places, periods, others = count_parts(values)
        noun = " ".join(adjectives + ["homicides"])
        measure = f"{highest if most else lowest} {noun[:-1]} arrest rate" \
            if values.get("rank_by") == "arrest_rate" else f"the {place}{'most' if most else 'fewest'} {noun}"
        scope = " ".join(places + periods) + "".join(", " + o for o in others) + ("," if others else "")
        tied = values.get("tied") or []
        if len(tied) > 1 and values.get("rank_by") != "arrest_rate" and position == 1:
            # a tie for first place names every place in it
            return (f"The {_PLURALS.get(group, group + 's')} tied for {measure}{' ' + scope if scope else ''}, with "
                    f"{values['tied_value']:,} each, were {_and(tied)}.")
        floor = values.get("min_homicides")
        among = f"Among {_PLURALS.get(group, group + 's')} with at least {floor:,} homicides, the" if floor else "The"
        rated = arrest_rate_of(figures)
        if values.get("rank_by") == "arrest_rate" and rated:
            # The rate asked for first, then the count it is a rate of: "Ward 20: 33 (...; arrest rate 12.1%)" put
            # the count where the rate was asked for.
            among = among[:-4] + " " if floor else ""
            return (f"{among}{name} had {measure}{' ' + scope if scope else ''}: an arrest was made in "
                    f"{rated[0]} of its {rated[1]} homicides.")
        return f"{among} {group} with {measure}{' ' + scope if scope else ''} was {name}: {figures}".rstrip(".") + "."
    if tool == names.AREA_RATES:
        start, end = values.get("start_year"), values.get("end_year")
        when = (f" in {start}" if start == end else f" from {start} to {end}") if start and end else ""
        return (f"The community area with {highest if most else lowest} homicide rate{when} was "
                f"{name}: {figures}").rstrip(".") + "."
    if tool == names.CENSUS:
        made = census_ranking_sentence(values, position, order, ahead=ahead)
        if made:
            return made
    label = _ranked_label(summary) or ("estimated median household income" if "median household income" in summary
                                       else "value")
    # The label's own parenthesis ("(ACS 2019-2023 5-year)", "(2024-09)") goes last, so the figure asked for is the
    # first number after the area's name, as a reader (and the answer check) looks for it.
    aside = " ".join(re.findall(r"\(.*?\)", label))
    period = values.get("period")
    if isinstance(period, str) and period not in aside:  # which survey years the figure is from, as the reading says
        aside = f"{aside} ({period})".strip()
    label = re.sub(r"\s*\(.*?\)", "", label)
    sentence = f"The {group} with {highest if most else lowest} {label} is {name}: {figures}".rstrip(".")
    return sentence + (f" {aside}" if aside else "") + "."


def _ranked_label(summary: str) -> str | None:
    """"Highest per capita income: Near North Side ($88,669); city $28,202" -> "per capita income"; a share of
    people or households says so ("aged 16+ unemployed" -> "share of people aged 16+ unemployed")."""
    match = re.match(r"(?:Highest|Lowest) (.+?): ", summary or "")
    if not match:
        return None
    label = match.group(1)
    if label.startswith("aged "):
        return "share of people " + label
    return "share of " + label if label.startswith("households ") else label


def peak_sentence(line: str, values: dict, order: str = "desc") -> str:
    """"Highest: July 2021 with 112; lowest: February 2021 with 38." -> "The month with the most homicides in 2021 was
    July 2021, with 112; the fewest were in February 2021, with 38.", over the result's period; the fewest first
    when they are what was asked (``order`` "asc")."""
    match = re.match(r"Highest: (.+?) with ([\d,]+); lowest: (.+?) with ([\d,]+)\.?$", line)
    if not match:
        return line
    group = GROUP_NOUNS.get(values.get("group_by") or "", "group")
    when = " ".join(w for w in (period_words(p) for p in values.get("described") or []) if w)
    top, top_n, low, low_n = match.groups()
    where = " ".join(count_parts(values)[1])
    scope = " ".join(x for x in (where, when) if x)
    at = {"weekday": "on", "hour": "at"}.get(values.get("group_by") or "", "in")
    # Each figure follows its own year or month ("was 2021, with 804"), so the grounding check reads 804 as 2021's.
    scope = " " + scope if scope else ""
    cut = values.get("low_partial")
    full = f" among full {_PLURALS.get(group, group + 's')}" if cut else ""
    aside = (f" ({time_label(cut, values.get('group_by') or '')} had {cut['homicides']:,}, but the data ends on "
             f"{cut['partial_to']})") if cut else ""
    if order == "asc":
        return (f"The {group} with the fewest homicides{scope}{full} was {low}, with {low_n}{aside}; the most were "
                f"{at} {top}, with {top_n}.")
    return (f"The {group} with the most homicides{scope} was {top}, with {top_n}; the fewest{full} were {at} {low}, "
            f"with {low_n}{aside}.")


def time_label(row: dict, group: str) -> str:
    if group == "month":
        return f"{row.get('month_name')} {row.get('year')}"
    if group == "weekday":
        return str(row.get("weekday_name"))
    if group == "hour":
        return f"{int(row.get('hour', 0)):02d}:00"
    return str(row.get(group))


def ranked_time_sentence(values: dict, position: int, order: str = "desc") -> str | None:
    """"the second deadliest year": the year (month, day of the week, hour) in that place of the time pattern's
    counts, and the one ahead of it: "The year with the second-most homicides from 2001 to 2023 was 2020, with 787;
    first was 2021, with 804." (the peak line names only the first and the last)."""
    group = values.get("group_by") or ""
    rows = [r for r in values.get("breakdown") or [] if isinstance(r.get("homicides"), int)]
    if group not in ("year", "month", "weekday", "hour") or len(rows) < position:
        return None
    if order == "asc":  # a year or month the data ends inside is not among the fewest
        rows = [r for r in rows if not r.get("partial_to")]
    ranked = sorted(rows, key=lambda r: -r["homicides"] if order != "asc" else r["homicides"])
    if sum(r["homicides"] == ranked[position - 1]["homicides"] for r in ranked) > 1:
        return None  # a tie: no single one holds that place
    when = " ".join(w for w in (period_words(p) for p in values.get("described") or []) if w)
    scope = " ".join(x for x in (" ".join(count_parts(values)[1]), when) if x)
    place = _ORDINAL_WORDS.get(position, f"{position}th")
    most = "most" if order != "asc" else "fewest"
    row, first = ranked[position - 1], ranked[0]
    return (f"The {GROUP_NOUNS[group]} with the {place}-{most} homicides{' ' + scope if scope else ''} was "
            f"{time_label(row, group)}, with {row['homicides']:,}; first was {time_label(first, group)}, with "
            f"{first['homicides']:,}.")


def where_and_conditions(values: dict) -> tuple[str, str, str]:
    """(noun, where, conditions) of a homicide result, its period left out: "domestic homicides", "in Austin
    (community area 25)", ", at a place recorded as STREET"."""
    adjectives, places, _periods, others = count_parts(values)
    noun = " ".join(adjectives + ["homicides"])
    return noun, " ".join(places) or "in Chicago", (", " + ", ".join(others)) if others else ""


def years_over_sentence(values: dict, floor: int) -> str | None:
    """How many years of a yearly series had at least a number of homicides ("in how many years did Austin record more
    than 50"): "In 6 of the 22 years from 2001 to 2022 there were more than 50 homicides in Austin (community area
    25): 2016 (88); ...". None without a yearly series."""
    rows = [row for row in values.get("breakdown") or [] if isinstance(row.get("year"), int)]
    if values.get("group_by") != "year" or not rows:
        return None
    noun, where, conditions = where_and_conditions(values)
    hits = [row for row in rows if row["homicides"] >= floor]
    listed = ": " + "; ".join(f"{row['year']} ({row['homicides']:,})" for row in hits) if hits else ""
    # Said as the question's own bound ("more than 50"), not the floor it is read as (51).
    return (f"In {len(hits)} of the {len(rows)} years from {rows[0]['year']} to {rows[-1]['year']} there were more "
            f"than {floor - 1:,} {noun}{_inline(conditions)} {where}{listed}.")


def floor_list_sentence(values: dict) -> str | None:
    """Every place with at least a number of homicides ("which community areas had more than 20 killings in 2021"):
    "4 community areas had at least 21 homicides in 2021: Austin (25) with 83; ...". None without a floor."""
    floor, rows = values.get("min_homicides"), values.get("breakdown") or []
    group = GROUP_NOUNS.get(values.get("group_by") or "")
    if not floor or not group or values.get("rank_by") != "homicides":
        return None
    _adjectives, places, periods, others = count_parts(values)
    scope = " ".join(places + periods) + "".join(", " + o for o in others)
    noun = group if len(rows) == 1 else _PLURALS.get(group, group + "s")
    if not rows:
        return f"No {group} had at least {floor:,} homicides {scope}.".replace("  ", " ")
    named = "; ".join(f"{_row_name(values, row)} with {row['homicides']:,}" for row in rows)
    return f"{len(rows)} {noun} had at least {floor:,} homicides {scope}: {named}."


def _row_name(values: dict, row: dict) -> str:
    group = values.get("group_by")
    if group == "community_area":
        return f"{row.get('name')} ({row.get('community_area')})"
    if group == "district":
        return f"District {row.get('district')} {row.get('name') or ''}".strip()
    if group == "ward":
        return f"Ward {row.get('ward')}"
    return str(row.get("location_type"))


def arrest_rate_change_sentence(values: dict, first_year: int, last_year: int) -> str | None:
    """The arrest rate at both ends of a span, and the change in percentage points: "The homicide arrest rate in
    Chicago went from 64.5% in 2001 to 35.4% in 2022, down 29.1 percentage points." None without both years."""
    rows = {row.get("year"): row for row in values.get("breakdown") or [] if isinstance(row, dict)}
    first, last = rows.get(first_year), rows.get(last_year)
    if not (first and last) or first.get("arrest_rate_pct") is None or last.get("arrest_rate_pct") is None:
        return None
    noun, where, conditions = where_and_conditions(values)
    a, b = first["arrest_rate_pct"], last["arrest_rate_pct"]
    step = round(b - a, 1)
    way = "up" if step > 0 else "down" if step < 0 else "unchanged,"
    return (f"The {noun[:-1]} arrest rate {where}{conditions} went from {a:.1f}% in {first_year} to {b:.1f}% in "
            f"{last_year}, {way} {abs(step):.1f} percentage points (in {first_year}, {first['arrests']:,} arrests in "
            f"{first['homicides']:,} homicides; in {last_year}, {last['arrests']:,} in {last['homicides']:,}).")


def _inline(conditions: str) -> str:
    """", in June, July and August" said inside a sentence: " in June, July and August" (its own commas kept)."""
    return " " + conditions[2:] if conditions.startswith(", ") else conditions


def year_counts_sentence(values: dict, rows: list, in_all: bool, left_out: list | None = None,
                         together: bool = False, arrests: bool = False) -> str:
    """Each year's count in one sentence, one clause a year, so a reader (and the answer check) sees each:
    "There were 786 homicides in Chicago in 2016; 672 in 2017."; separate years also give their sum. A range with
    years ``left_out``, or years asked ``together``, leads with the total: "There were 4,989 homicides in Chicago in
    2014-2022 without 2020 (427 in 2014; ...).", "There were 110 homicides in Austin in 2004, 2008 and 2012 together
    (32 in 2004; ...).". With ``arrests`` (the arrest rate asked of the years together), the rate leads."""
    noun, where, conditions = where_and_conditions(values)
    first, *rest = rows
    if left_out or together:
        years = "; ".join(f"{row['homicides']:,} in {row['year']}" for row in rows)
        when = (f"{first['year']}-{rows[-1]['year']} without {', '.join(map(str, left_out))}" if left_out else
                "in " + ", ".join(str(row["year"]) for row in rows[:-1]) + f" and {rows[-1]['year']} together")
        rate, made = values.get("arrest_rate_pct"), values.get("arrests")
        if arrests and isinstance(rate, (int, float)) and isinstance(made, int):
            return (f"Of the {values['total']:,} {noun}{_inline(conditions)} {where} {'in ' if left_out else ''}"
                    f"{when} ({years}), an arrest was made in {made:,}, an arrest rate of {rate:.1f}%.")
        return (f"There were {values['total']:,} {noun}{_inline(conditions)} {where} "
                f"{'in ' if left_out else ''}{when} ({years}).")
    text = f"There were {first['homicides']:,} {noun}{_inline(conditions)} {where} in {first['year']}"
    text += "".join(f"; {row['homicides']:,} in {row['year']}" for row in rest)
    partial = values.get("partial_year")
    if partial and any(row["year"] == partial["year"] for row in rows):  # a part year set beside whole ones
        text += f" ({partial['year']} is partial: data end {partial['data_end']})"
    if in_all:
        text += f" ({values['total']:,} in all)"
    return text + "."


def change_sentence(line: str, subject: str = "") -> str:
    """"Change from 2016 to 2017: -114 (-14.5%)." -> "The change from 2016 to 2017 was -114 (-14.5%)."; with a
    subject, "From 2016 to 2017, homicides in Chicago changed by -114 (-14.5%).\""""
    match = re.match(r"Change from (\S+) to (\S+): (.+?)\.?$", line)
    if not match:
        return line
    start, end, change = match.groups()
    if subject:
        return f"From {start} to {end}, {subject} changed by {change}."
    return f"The change from {start} to {end} was {change}."


def average_sentence(values: dict, average: str, unit: str = "year") -> str:
    """"There was an average of 62.4 homicides a year in Austin (community area 25) (2018-2022: 312 in all".
    The caller closes the parenthesis after any partial-year note."""
    noun, where, conditions = where_and_conditions(values)
    years = (values.get("filters") or {}).get("years") or ""
    return (f"There was an average of {average} {noun} a {unit} {where}{conditions} ({years}: {values['total']:,} "
            f"in all")


def trend_sentence(values: dict, summary: str) -> str | None:
    """One place's two periods (the period comparison tool): "In Austin (community area 25), there were 65.8
    homicides a year in 2015-2019; 58.8 a year in 2020-2023 (2023 is partial: ...); the change was -10.7%." A
    one-year period gives its count. None for a ranking of places."""
    first, second = values.get("period1"), values.get("period2")
    if not (isinstance(first, dict) and isinstance(second, dict) and "homicides" in first) or ": " not in summary:
        return None
    place = summary.split(": ", 1)[0]
    yearly = first["years"] > 1 or second["years"] > 1

    def figure(stats: dict, noun: str = "") -> str:
        # "how many ... in 2010-2015 versus 2016-2022": each span's count, its yearly average beside it (spans of
        # different lengths compare by the average, a count answers "how many")
        average = f" ({stats['yearly_average']:,.1f} a year)" if yearly else ""
        return f"{stats['homicides']:,}{noun} in {stats['label']}{average}"

    noun = " homicide" if first["homicides"] == 1 else " homicides"
    partial = values.get("partial_year")
    note = (f" ({partial['year']} is partial: data end {partial['data_end']}, counted as a whole year)"
            if partial and yearly else "")
    change = values.get("change_in_yearly_average_pct")
    text = (f"In {place}, there {'was' if noun == ' homicide' else 'were'} {figure(first, noun)}; "
            f"{figure(second)}{note}")
    if change is not None and not yearly:  # two single years: the count's change too ("how many more")
        return text + f"; the change was {second['homicides'] - first['homicides']:+,} ({change:+.1f}%)."
    if change is not None:  # the yearly average's change in homicides too ("how much did the average go up")
        step = second["yearly_average"] - first["yearly_average"]
        return text + f"; the yearly average changed by {step:+,.1f} ({change:+.1f}%)."
    return text + "."


def area_rate_sentence(values: dict) -> str | None:
    """The homicide rate of the areas a question names, each with the count and the population it is made of, and
    the city's rate: "West Englewood's homicide rate in 2022 was 115.5 per 100,000 residents (30 homicides among
    25,971 residents; rank 3 of 77 areas); the city's was 27.1." None for a ranking of all areas."""
    rows, city = values.get("breakdown") or [], (values.get("citywide") or {}).get("rate_per_100k")
    if not values.get("selected_areas") or not rows:
        return None
    start, end = values.get("start_year"), values.get("end_year")
    when = f"in {start}" if start == end else f"in {start}-{end}"

    def one(row: dict) -> str:
        small = "; fewer than 10 homicides, so the rate swings widely" if row.get("small_number") else ""
        return (f"{row['rate_per_100k']:.1f} per 100,000 residents ({row['homicides']:,} "
                f"homicide{'' if row['homicides'] == 1 else 's'} among {row['population']:,} residents; rank "
                f"{row['rate_rank']} of {values.get('areas_ranked', 77)} areas{small})")

    if any(not isinstance(row.get("rate_per_100k"), (int, float)) or not isinstance(row.get("homicides"), int)
           or not isinstance(row.get("population"), int) for row in rows):
        return None
    if len(rows) == 1:
        text = f"{rows[0]['name']}'s homicide rate {when} was {one(rows[0])}"
    else:
        text = f"{when[0].upper() + when[1:]}, " + "; ".join(
            f"{row['name']}'s homicide rate was {one(row)}" if i == 0 else f"{row['name']}'s was {one(row)}"
            for i, row in enumerate(rows))
    return text + (f"; the city's was {city:.1f}." if isinstance(city, (int, float)) else ".")


def place_difference_sentence(question: str, first: dict, second: dict) -> str | None:
    """Two places' homicide counts set against each other as the question asks: "how many more ... than" gets
    the difference, "how many times as many" the ratio ("There were 44 more homicides in Austin (community area
    25) than in North Lawndale (community area 29) in 2020: 83 against 39."), to lead the answer. None when the question asks neither, or the two counts are not of two
    places over the same period and conditions."""
    a, b = first.get("total"), second.get("total")
    if not (isinstance(a, int) and isinstance(b, int)) or first.get("group_by") or second.get("group_by"):
        return None
    (adj_a, places_a, periods_a, others_a), (adj_b, places_b, periods_b, others_b) = count_parts(first), \
        count_parts(second)
    if not places_a or not places_b or places_a == places_b or (adj_a, periods_a, others_a) != (adj_b, periods_b,
                                                                                               others_b):
        return None
    where_a, where_b = " ".join(places_a), " ".join(places_b)
    signed = _minus_sentence(question, (a, where_a), (b, where_b), " ".join(adj_a + ["homicides"]), periods_a)
    if signed:
        return signed
    if a < b and not re.search(r"\b(?:fewer|less|lower|smaller)\b", question, re.I):
        # "which had more, and by how many": the place with more leads, so the sentence answers "which" too
        a, b, where_a, where_b = b, a, where_b, where_a
    noun = " ".join(adj_a + ["homicides"])
    short_a, short_b = (re.sub(r" \((?:community area|ward|police district) \d+\)", "", w) for w in (where_a, where_b))
    tail = "".join(" " + p for p in periods_a) + "".join(", " + o for o in others_a) + \
        f": {a:,} {short_a} against {b:,} {short_b}."
    if TIMES_RE.search(question) and b:
        return f"There were {a / b:.1f} times as many {noun} {where_a} as {where_b}{tail}"
    if GAP_RE.search(question):
        if a == b:
            return f"There were as many {noun} {where_a} as {where_b}{tail}"
        return f"There were {abs(a - b):,} {'more' if a > b else 'fewer'} {noun} {where_a} than {where_b}{tail}"
    return None


def _short(where: str) -> str:
    return re.sub(r"^(?:in|for)\s+|\s+\((?:community area|ward|police district) \d+\)", "", where)


def _minus_sentence(question: str, first: tuple, second: tuple, noun: str, periods: list) -> str | None:
    """"West Englewood minus Englewood": the signed difference in the order the question subtracts, negative where
    the first had fewer."""
    for (a, where_a), (b, where_b) in ((first, second), (second, first)):
        pattern = rf"\b{re.escape(_short(where_a))}\s+minus\s+{re.escape(_short(where_b))}\b"
        if re.search(pattern, question, re.I):
            when = "".join(" " + p for p in periods)
            more = "more" if a > b else "fewer"
            # the sign in words: the grounding check backs a difference as its size
            return (f"{_short(where_a)} minus {_short(where_b)}{when}: {abs(a - b):,} {more} {noun} "
                    f"{where_a} than {where_b}: {a:,} in {_short(where_a)} against {b:,} in {_short(where_b)}.")
    return None


def home_value_change_sentence(first: dict, second: dict) -> str | None:
    """One ZIP's or area's typical home value at two times, and the change between them: "The typical home value in
    ZIP 60612 went from $313,569 in September 2019 to $330,266 in September 2024, a change of +$16,697 (+5.3%)."
    None unless both results are the same place's value at two different times."""
    a, b = first.get("home_value"), second.get("home_value")
    when_a, when_b = first.get("home_value_period"), second.get("home_value_period")
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and when_a and when_b) or when_a == when_b \
            or first.get("name") != second.get("name") or not first.get("name") or not a:
        return None
    if str(when_a) > str(when_b):
        a, b, when_a, when_b = b, a, when_b, when_a
    change = b - a
    return (f"The typical home value in {first['name']} went from ${a:,.0f} {_period_words(when_a)} to ${b:,.0f} "
            f"{_period_words(when_b)}, a change of {'+' if change >= 0 else '-'}${abs(change):,.0f} "
            f"({100 * change / a:+.1f}%).")


def month_words(period) -> str:
    """"2019-09" -> "September 2019"; anything else as written."""
    month = re.fullmatch(r"(\d{4})-(\d{2})", str(period))
    return f"{calendar.month_name[int(month.group(2))]} {month.group(1)}" if month else str(period)


def _period_words(period) -> str:
    """"2019-09" -> "in September 2019"; "2015 average" -> "in 2015 (the year's average)"."""
    if re.fullmatch(r"\d{4}-\d{2}", str(period)):
        return f"in {month_words(period)}"
    year = re.fullmatch(r"(\d{4}) average", str(period))
    return f"in {year.group(1)} (the year's average)" if year else f"in {period}"


def split_sentences(values: dict, without_arrest: bool = False, arrests: bool = False) -> list[str]:
    """A count split by the domestic or the arrest flag: the count, then the split with the part asked for first:
    "There were 787 homicides in Chicago in 2020." "Of these, 56 were domestic (7.1%) and 731 were not (92.9%)."
    (Two sentences, so the answer check asks for the count and the part: "how many were killed, and in what percent
    was someone arrested" was answered with the rate alone.) [] for any other result."""
    group, rows, total = values.get("group_by"), values.get("breakdown") or [], values.get("total")
    if group not in ("domestic", "arrest") or not isinstance(total, int) or not total:
        return []
    flagged = next((r for r in rows if r.get(group) is True), None)
    other = next((r for r in rows if r.get(group) is False), None)
    if not (flagged and other):
        return []
    adjectives, places, periods, others = count_parts(values)
    scope = " ".join((places or ["in Chicago"]) + periods) + "".join(", " + o for o in others)
    count = f"There were {total:,} {' '.join(adjectives + ['homicides'])} {scope}."
    if group == "domestic":
        # ``arrests`` asked: each part's own arrest rate ("the arrest rate for domestic homicides compared to
        # non-domestic ones")
        rates = [f"; arrest rate {r['arrest_rate_pct']:.1f}%" if arrests and isinstance(r.get("arrest_rate_pct"),
                                                                                        (int, float)) else ""
                 for r in (flagged, other)]
        return [count, f"Of these, {flagged['homicides']:,} were domestic ({flagged['share_pct']:.1f}%{rates[0]}) and "
                       f"{other['homicides']:,} were not ({other['share_pct']:.1f}%{rates[1]})."]
    if without_arrest:  # "what percent ended with no one arrested": that share is the figure asked for
        return [count, f"Of these, {other['share_pct']:.1f}% ({other['homicides']:,}) had no arrest; an arrest was "
                       f"made in {flagged['homicides']:,} ({flagged['share_pct']:.1f}%)."]
    # The arrest rate is what is asked most ("how often did a killing lead to an arrest"): it comes first.
    return [count, f"Of these, the arrest rate was {flagged['share_pct']:.1f}%: an arrest was made in "
                   f"{flagged['homicides']:,} and in {other['homicides']:,} none was."]


_COUNT_WORDS = {n: word for word, n in counting(5, low=2).items()}


def ranking_list_sentence(first: str, rows: list[str]) -> str | None:
    """The top rows of a ranking asked for as a group ("which three wards lost the most"), each with its figure:
    "The three wards with the most homicides in 2019 were Ward 28: 45; Ward 24: 35; Ward 6: 30." ``first`` is the
    first row's sentence (ranking_sentence), whose wording names what was ranked and over which period."""
    rated = re.match(r"(Among (.+?) with at least [\d,]+ homicides, )?.+? had (.+?): an arrest was made in ", first)
    if rated and 2 <= len(rows) <= 5:
        # Arrest rates: each place's rate and the count it is a rate of, not the count alone.
        kind = rated.group(2) or {"District": "police districts", "Ward": "wards"}.get(rows[0].split()[0],
                                                                                     "community areas")
        entries = []
        for name, _, figures in (r.partition(": ") for r in rows):
            rate_count = arrest_rate_of(figures)
            if not rate_count:
                return None
            entries.append(f"{name} (an arrest in {rate_count[0]} of {rate_count[1]} homicides)")
        among = rated.group(1) or ""
        head = f"{among}the {_COUNT_WORDS[len(rows)]} {kind} with {rated.group(3)} were "
        return head[0].upper() + head[1:] + "; ".join(entries) + "."
    match = re.match(r"The (.+?) with (.+?) (was|is) ", first)
    if not match or not 2 <= len(rows) <= 5:
        return None
    group = match.group(1)
    plural = _PLURALS.get(group, group + "s")
    entries = "; ".join(f"{name}: {figures.split(' (')[0]}" for name, _, figures in (r.partition(": ") for r in rows))
    verb = "were" if match.group(3) == "was" else "are"
    return f"The {_COUNT_WORDS[len(rows)]} {plural} with {match.group(2)} {verb} {entries}."
