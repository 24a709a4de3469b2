"""Answer lines for the time expressions (analyzer/times.py): a per-year average when one was asked for, and counts
set against each other when a question names two date spans or two stretches of hours.

Every number is copied from a result, or is the difference or percent change of two results' totals (which the
grounding check accepts for two values of the same name)."""
from __future__ import annotations

import calendar
import re

from analyzer.analysis import Analysis
from loop.steps import ToolCallStep
from rules.sentences import average_sentence
from tools import names
from tools.common import fmt_num

_SPAN_ARGS = ("start_date", "end_date", "hours")


def average_lead(entry: ToolCallStep, analysis: Analysis) -> str | None:
    """"There was an average of 608.2 homicides a year in Chicago (2015-2019: 3,041 in all)." when the question asks for an average and
    the tool gave one; its total follows, so "how many on average" and "how many" are both answered."""
    values = entry.result.values
    daily = values.get("per_day_average")
    if analysis.per_day and entry.name == names.HOMICIDES and isinstance(daily, (int, float)):
        # "on average, how many people were murdered per day in 2021": the count over the period's days
        return average_sentence(values, fmt_num(daily), "day") + f", over {values['per_day_days']:,} days)."
    if not analysis.asks_average or entry.name != names.HOMICIDES:
        return None
    monthly = values.get("per_month_average")
    if values.get("group_by") == "month" and isinstance(monthly, (int, float)):
        # "on average, how many a month in 2020": the month's average, over the months counted
        return (average_sentence(values, fmt_num(monthly), "month")
                + f", over {values['per_month_months']} months).")
    average = values.get("per_year_average")
    if not isinstance(average, (int, float)):
        return None
    peak, years = values.get("peak"), values.get("per_year_years")
    if analysis.ranking and values.get("group_by") not in (None, "year") and isinstance(peak, dict) and years \
            and peak.get("per_year_average") is not None:
        # "which day of the week saw the most, and the average on that weekday per year": the top group's own
        # average, not the city's over every day
        name = next((str(v) for k, v in peak.items() if k.endswith(("_name", "_label"))), None) or str(
            peak.get(values["group_by"], ""))
        return (f"The {values['group_by'].replace('_', ' ')} with the most homicides in "
                f"{values.get('start_year')}-{values.get('end_year')} was {name}, with {peak['homicides']:,}: an "
                f"average of {fmt_num(peak['per_year_average'])} a year over {years} years.")
    line = average_sentence(values, fmt_num(average))
    partial = values.get("partial_year")
    if partial:
        line += f"; {partial['year']} is partial, data end {partial['data_end']}"
    left_out = values.get("year_left_out")
    if left_out:  # the data end before the days asked in that year: it holds none of them
        line += (f"; averaged over {values['per_year_years']} years, {left_out['year']} left out: its data end "
                 f"{left_out['data_end']}, before the days asked")
    return line + ")."


def _label(analysis: Analysis, args: dict) -> str:
    """The reading's own name for a call's span ("so far in 2023", "at night (read as 21:00-04:59)")."""
    parts = []
    for span in analysis.date_spans:
        if (span.start, span.end) == (args.get("start_date"), args.get("end_date")):
            parts.append(span.label or (span.start if span.start == span.end else f"{span.start} to {span.end}"))
            break
    if len(analysis.hour_spans) >= 2:
        parts += [h.label for h in analysis.hour_spans if list(h.hours) == list(args.get("hours") or [])][:1]
    return ", ".join(parts)


def span_comparison_lines(analysis: Analysis, ok: list[ToolCallStep]) -> list[str]:
    """For each place (or the city), the counts of the spans named side by side, with the change from the earlier
    date span to the later one: "So far in 2023: 340; the same stretch of 2022: 368. Change from the same stretch of
    2022 to so far in 2023: -28 (-7.6%)." [] when the question does not set spans against each other."""
    if len(analysis.date_spans) < 2 and len(analysis.hour_spans) < 2:
        return []
    groups: dict[tuple, list[ToolCallStep]] = {}
    for entry in ok:
        if entry.name == names.HOMICIDES and isinstance(entry.result.values.get("total"), int):
            key = tuple(sorted((k, str(v)) for k, v in entry.arguments.items() if k not in _SPAN_ARGS))
            groups.setdefault(key, []).append(entry)
    lines = []
    for entries in groups.values():
        if len(entries) < 2:
            continue
        named = [(_label(analysis, e.arguments), e) for e in entries]
        where = _place_words(entries[0], analysis)
        first_word = " homicide " if named[0][1].result.values["total"] == 1 else " homicides "
        counts = [f"{e.result.values['total']:,}" + (first_word if i == 0 else " ") + _when(label)
                  for i, (label, e) in enumerate(named)]
        # One clause a span, each figure before its own span (as year_counts_sentence), so each is read as its span's.
        line = f"{where}there {'was' if first_word == ' homicide ' else 'were'} {'; '.join(counts)}."
        if analysis.years_together and len(analysis.date_spans) >= 2:  # asked as one count: the sum leads
            total = sum(e.result.values["total"] for e in entries)
            spans = " and ".join(_when(label).removeprefix("in ") for label, _ in named)
            parts = [f"{e.result.values['total']:,} {_when(label)}" for label, e in named]
            line = f"{where}there were {total:,} homicides in {spans} together ({'; '.join(parts)})."
        elif len(analysis.date_spans) >= 2 and len(entries) == 2:
            line += " " + _change(named)
        lines.append(line)
    return lines


def _place_words(entry: ToolCallStep, analysis: Analysis) -> str:
    area = entry.arguments.get("community_area")
    name = next((a.name for a in analysis.areas if a.number == area), None)
    # Stretches of hours are compared within the call's period, which the answer names with the place.
    when = f" in {entry.result.values.get('filters', {}).get('years')}" if analysis.hour_spans else ""
    if name:
        return f"In {name}{when}, "
    for key, word in (("community_area", "community area"), ("ward", "ward"), ("district", "police district")):
        if entry.arguments.get(key) is not None:
            return f"In {word} {entry.arguments[key]}{when}, "
    return f"In Chicago{when}, "


_DAY_LABEL_RE = re.compile(r"((?:19|20)\d\d)-(\d\d)-(\d\d)")


def _day_words(match: re.Match) -> str:
    month = int(match.group(2))
    if not 1 <= month <= 12:
        return match.group(0)
    return f"{calendar.month_name[month]} {int(match.group(3))}, {match.group(1)}"


def _plain(label: str) -> str:
    """A span's label in words: "2019-06" -> "June 2019", "2020-07-04" -> "July 4, 2020"; other labels as the reading
    wrote them."""
    month = re.fullmatch(r"((?:19|20)\d\d)-(\d\d)", label)
    if month and 1 <= int(month.group(2)) <= 12:
        return f"{calendar.month_name[int(month.group(2))]} {month.group(1)}"
    if re.fullmatch(_DAY_LABEL_RE.pattern + r"(?: to " + _DAY_LABEL_RE.pattern + r")?", label):
        return _DAY_LABEL_RE.sub(_day_words, label)
    return label


def _when(label: str) -> str:
    """A span's label after a count: "in June 2019", "on July 4, 2020", "from June 1, 2019 to June 30, 2019", "so far
    in 2023", "at night"."""
    plain = _plain(label)
    if _DAY_LABEL_RE.fullmatch(label):
        return f"on {plain}"
    if _DAY_LABEL_RE.match(label) and " to " in label:
        return f"from {plain}"
    return f"in {plain}" if plain[:1].isdigit() or plain != label or plain.startswith("the ") else plain


def _change(named: list) -> str:
    """The change from the earlier span to the later one, as the tool words a change between years."""
    (label_a, a), (label_b, b) = sorted(named, key=lambda t: str(t[1].arguments.get("start_date")))
    before, after = a.result.values["total"], b.result.values["total"]
    spans = " to " in label_a or " to " in label_b  # "from A to B to C to D" would not read
    text = (f"The change from the first span to the second was {after - before:+,}" if spans else
            f"The change from {_plain(label_a)} to {_plain(label_b)} was {after - before:+,}")
    if before:
        text += f" ({(after - before) / before * 100:+.1f}%)"
    return text + "."
