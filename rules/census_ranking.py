"""A census ranking's answer in words, from the ranked rows' values: "The community area with the second-largest
number of Black residents is Auburn Gresham (71): 43,414, 93.4% of its 46,483 residents (ACS 2019-2023 5-year);
first was Austin (25), with 73,602."

The tool's text row holds the ranked figure and then every figure of its metric ("share Asian 63.9%; pop. 13,149;
Black 11.3%, ..."): read as a sentence that is a table. Here the figure asked for comes first, then the count or
share beside it and the whole it is a part of, then the survey it is from.
"""
from __future__ import annotations

from analyzer.lexicon import ORDINAL_WORDS, counting
from tools.census.data import AGE_BANDS, GROUP_COUNTS, GROUPS

_ORDINALS = {n: word for word, n in ORDINAL_WORDS.items()}
_COUNT_WORDS = {n: word for word, n in counting(5, low=2).items()}


_WHOLE = {"race": "population", "income": "households", "age": "age_total"}


def _parts() -> dict[str, tuple[str, str, str, str]]:
    """ranked key -> (what is ranked, the count key, the share key, the whole's key) for each group's count and
    share; the whole is residents, households, or the residents whose age was asked."""
    out = {}
    for group, (metric, share_key, _) in GROUPS.items():
        count_key, count_label = GROUP_COUNTS[group]
        # "number of Hispanic or Latino residents (any race)": the bracket would split the sentence.
        what = count_label.split(" (")[0].removeprefix("number of ")
        out[share_key] = (f"share of {what}", count_key, share_key, _WHOLE[metric])
        out[count_key] = (f"number of {what}", count_key, share_key, _WHOLE[metric])
    return out


_RANKED = _parts()


def _figure(row: dict, key: str) -> str | None:
    """The ranked figure with its part-and-whole: "43,414, 93.4% of its 46,483 residents"."""
    if key == "population":
        return f"{row['population']:,} residents" if isinstance(row.get("population"), int) else None
    _, count_key, share_key, whole_key = _RANKED[key]
    count, share, whole = row.get(count_key), row.get(share_key), row.get(whole_key)
    if not all(isinstance(v, (int, float)) for v in (count, share, whole)):
        return None
    if whole_key == "age_total":
        # The age bands' sum can differ from the population by a person or two: the whole is left unsaid rather
        # than called the population (the answer check holds the two apart).
        band = next(label for _, k, label in AGE_BANDS if k == count_key)
        return f"{count:,}, {share:.1f}% of its residents" if key == count_key else \
            f"{share:.1f}%, {count:,} residents aged {band}"
    unit = "households" if whole_key == "households" else "residents"
    if key == count_key:
        return f"{count:,}, {share:.1f}% of its {whole:,} {unit}"
    return f"{share:.1f}%, {count:,} of its {whole:,} {unit}"


def _lead(row: dict, key: str) -> str:
    return f"{row['population']:,}" if key == "population" else (
        f"{row[key]:,}" if isinstance(row[key], int) else f"{row[key]:.1f}%")


_GROWTH_CLAUSES = {("population_change", "desc"): "whose population grew the most",
                   ("population_change", "asc"): "that lost the most residents",
                   ("population_change_pct", "desc"): "whose population grew fastest",
                   ("population_change_pct", "asc"): "whose population shrank fastest"}


def _growth(row: dict) -> tuple | None:
    """(change, percent, 2010 count, 2019-2023 count) of a ranked row, or None when one is missing."""
    figures = tuple(row.get(k) for k in ("population_change", "population_change_pct", "population_2010",
                                         "population_acs_2023"))
    return figures if all(isinstance(v, (int, float)) for v in figures) else None


def _growth_sentence(rows: list, key: str, position: int, order: str, listed: int = 1) -> str | None:
    """"The community area whose population grew the most since the 2010 Census is Near North Side (8): +11,151
    residents (+13.9%), from 80,484 to 91,635 in the ACS 2019-2023 5-year estimate." With ``listed`` 2-5, that many
    areas, each with its change ("which 3 areas lost the most people": a lead naming the first alone left two out)."""
    if len(rows) < max(position, listed):
        return None
    clause = _GROWTH_CLAUSES[key, order]
    if 2 <= listed <= 5:
        figures = [_growth(row) for row in rows[:listed]]
        if not all(figures):
            return None
        # Each count beside its own year: the answer check reads a figure's year from the words next to it.
        items = [f"{row['name']} ({row['community_area']}), {change:+,} residents ({pct:+.1f}%, from {before:,} in "
                 f"2010 to {now:,} in 2019-2023)" for row, (change, pct, before, now) in zip(rows, figures)]
        return (f"The {_COUNT_WORDS[listed]} community areas {clause} from the 2010 Census to the ACS "
                f"2019-2023 5-year estimate are " + "; ".join(items[:-1]) + f" and {items[-1]}.")
    row = rows[position - 1]
    figures = _growth(row)
    if figures is None:
        return None
    change, pct, before, now = figures
    ordinal = f" ({_ORDINALS.get(position, f'{position}th')})" if position > 1 else ""
    return (f"The community area {clause}{ordinal} since the 2010 Census is "
            f"{row['name']} ({row['community_area']}): {change:+,} residents ({pct:+.1f}%), from {before:,} to "
            f"{now:,} in the ACS 2019-2023 5-year estimate.")


def census_ranking_sentence(values: dict, position: int, order: str, listed: int = 1, ahead: bool = True) -> str | None:
    """The ``position``-th row of a census ranking as a sentence, with the first row after it when it is not the
    first (and ``ahead``: not when the first was set aside); or, with ``listed`` 2-5, the first ``listed`` rows.
    None when the values lack what it needs."""
    rows, key = values.get("rows") or [], values.get("rank_by")
    if values.get("scope") == "ranking" and key in ("population_change", "population_change_pct"):
        return _growth_sentence(rows, key, position, "asc" if values.get("sort_order") == "asc" else "desc", listed)
    if values.get("scope") != "ranking" or (key != "population" and key not in _RANKED) or len(rows) < max(
            position, listed):
        return None
    counted = key == "population" or key == _RANKED[key][1]
    most = order != "asc"
    word = ("largest" if most else "smallest") if counted else ("highest" if most else "lowest")
    what = "population" if key == "population" else _RANKED[key][0]
    survey = f" ({values['vintage']})" if values.get("vintage") else ""
    if 2 <= listed <= 5:
        items = [f"{r['name']} ({r['community_area']}), {_lead(r, key)}" for r in rows[:listed]]
        return (f"The {_COUNT_WORDS[listed]} community areas with the {word} {what} are " + "; ".join(items[:-1])
                + f" and {items[-1]}{survey}.")
    row = rows[position - 1]
    figure = _figure(row, key)
    if figure is None:
        return None
    place = _ORDINALS.get(position, f"{position}th") + "-" if position > 1 else ""
    sentence = (f"The community area with the {place}{word} {what} is {row['name']} ({row['community_area']}): "
                f"{figure}{survey}")
    if position > 1 and ahead:
        first = rows[0]
        sentence += f"; first was {first['name']} ({first['community_area']}), with {_lead(first, key)}"
    return sentence + "."
