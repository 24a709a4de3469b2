"""What a query returns: typed rows, each column's label and unit, totals, sources, caveats and the query
itself in canonical form; rendered once as data and once as text for a model or a terminal."""
from __future__ import annotations

import calendar
import math
import re
from dataclasses import asdict, dataclass, field

import pandas as pd

from semantic.dimensions import PLACE_GRAINS
from semantic.datasets.population import AGE_POPULATIONS
from semantic.query import QUANTILE_NAMES, WEIGHT_POPULATIONS

TEXT_ROWS = 25  # rows shown in the text form; the data form has them all
ALL = "_all"  # the one group key of a query with no group_by


@dataclass
class QueryResult:
    query: dict
    columns: list  # [{"name", "label", "unit", "kind"}]
    rows: list  # [{column: value}]
    totals: dict | None = None
    correlation: dict | None = None
    spread: dict | None = None  # column -> {n, min, median, max} over the rows, where the query asks for it
    ties: list = field(default_factory=list)  # members tied with the last row kept by the limit
    selected: int | None = None  # rows before the limit (those the filters and the threshold kept)
    considered: int | None = None  # count_share: the rows with a value before the threshold
    every: int | None = None  # count_share: every row before the threshold, with a value or not
    names: dict = field(default_factory=dict)  # tied member -> its name, for the sentences
    steps: list = field(default_factory=list)  # the members_from results
    groups: list = field(default_factory=list)  # each compared set: its members, count and figures (query "groups")
    between: dict = field(default_factory=dict)  # column -> the first set's figure over the second's: ratio, difference
    trend: dict | None = None  # column -> its least-squares line over the time grain (query "trend")
    cover: dict | None = None  # the fewest rows holding a share of the city's figure (query "cover")
    by_attribute: bool = False  # the places were picked by an attribute they share ("mostly in one submarket")
    picked_by: str = ""  # how that attribute's set is said ("that hold a district police station"), where declared
    sources: list = field(default_factory=list)
    caveats: list = field(default_factory=list)
    text: str = ""
    lead: str = ""  # the answer in sentences: each row's figures by name, then the totals and the correlation

    def to_dict(self) -> dict:
        return asdict(self)


def _clean(value):
    """JSON-safe: numpy scalars to Python, NaN to None."""
    if value is None:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is pd.NA:
        return None
    return value


def _derived_column(item: dict, q, specs: dict, columns: list, cat, data) -> dict:
    """A derived column's description: its label (from what it is made of), unit and decimals."""
    inputs = [cat.measures[specs[f].measure].decimals for f in item["of"] if f in specs]
    decimals = max(inputs, default=1) if item["op"] in ("change", "difference", "step", "excess") else \
        2 if item["op"] == "ratio" else 1
    if all(d["op"] == "rank" for f in item["of"] for d in q.derived if d["name"] == f) and not inputs:
        decimals = 0  # ranks apart: whole places
    unit = _derived_unit(item) or next((cat.measures[specs[f].measure].unit for f in item["of"][:1]
                                        if f in specs and item["op"] in ("change", "difference", "step", "excess")), "")
    label = _derived_label(item, specs, cat, data)
    source = next((d for d in q.derived if item["op"] == "run" and d["name"] == item["of"][0]), None)
    if source:  # a run of a derived column ("the yearly step") is named by that column's label
        label = label.replace(item["of"][0], _lower(_derived_label(source, specs, cat, data)))
    earlier = next((c["label"] for c in columns if item["op"] == "rank" and c["name"] == item["of"][0]
                    and c["kind"] == "derived"), None)  # a rank of a change: "Rank by percent change in ..."
    label = f"Rank by {earlier[:1].lower() + earlier[1:]}" if earlier else label
    return {"name": item["name"], "label": label, "unit": unit, "kind": "derived", "decimals": decimals,
            "op": item["op"], "plain_label": _derived_label(item, specs, cat, data, with_period=False),
            **({"direction": "asc"} if item.get("direction") == "asc" else {}),
            "of_label": next((cat.measures[specs[f].measure].label for f in item["of"][:1] if f in specs), "")}


def build_result(executor, table: pd.DataFrame, totals, correlation, ties, spread=None,
                 selected: int | None = None, groups=None, between=None, considered=None, trend=None,
                 cover=None) -> QueryResult:
    q, cat, data = executor.q, executor.cat, executor.data
    dims = cat.dimensions
    columns, rows = [], []
    keys = [k for k in table.index.names if k != ALL]
    for key in keys:
        columns.append({"name": key, "label": dims[key].label, "unit": "", "kind": "dimension"})
        if dims[key].display is not None and dims[key].kind in ("place", "attribute"):
            columns.append({"name": f"{key}_name", "label": f"{dims[key].label} name", "unit": "", "kind": "name"})
    specs = {s.name: s for s in q.measures}
    for name in table.columns:
        if name in specs:
            m = cat.measures[specs[name].measure]
            period = specs[name].period or q.period
            measure_label = _filtered(m.label, specs[name].filters, dims, data)
            if m.denominator == "person_years" and q.population in AGE_POPULATIONS:  # "per 100,000 residents aged
                measure_label = measure_label.replace(" residents", f" {AGE_POPULATIONS[q.population]}")  # 18-34"
            label = measure_label + (f", {period.label()}" if period and specs[name].period else "")
            unit = m.unit + (" a year" if specs[name].per_year else "")
            columns.append({"name": name, "label": label, "unit": unit, "kind": "measure", "measure": m.name,
                            "decimals": m.decimals, "additive": m.additive, "measure_label": measure_label,
                            "agg": m.agg,
                            "weight_label": cat.measures[WEIGHT_POPULATIONS[q.weight_by] if q.weight_by and m.weight
                                                         in WEIGHT_POPULATIONS.values() else m.weight].label
                            if m.weight else "",
                            # (a row of a year names its own time: the query's whole span is no row's period)
                            "row_timed": bool(set(keys) & set(_TIME_KEYS)) and (not specs[name].period
                                                                               or len(q.measures) == 1),
                            "period": period.words() if period and m.agg != "attribute" and
                            cat.datasets[m.dataset].time != "snapshot" else _window(q.filters)})
        else:
            columns.append(_derived_column(next(d for d in q.derived if d["name"] == name), q, specs, columns, cat,
                                           data))
    by_name = {c["name"]: c for c in columns}
    for c, item in ((c, d) for c in columns for d in q.derived if d["name"] == c["name"] and d["op"] == "pct_change"):
        what, span = _change_words(item, by_name)
        if span:  # "a change of -30.4% in residents from the 2010 census to ACS 2019-2023"
            same = by_name.get(item["of"][0], {}).get("measure") == by_name.get(item["of"][1], {}).get("measure") \
                and by_name.get(item["of"][0], {}).get("period")
            c["span"] = span if same else f" in {what}{span}"
    changes = [c for c in columns if c.get("op") == "change"]
    if len({c["of_label"] for c in changes}) > 1:  # "a rise of 17 in homicides and a rise of 102.5 in the rate"
        for c in changes:
            c["said_of"] = c["of_label"]
    frame = table.reset_index()
    for record in frame.to_dict("records"):
        row = {}
        for key in keys:
            row[key] = _clean(record[key])
            if dims[key].display is not None and dims[key].kind in ("place", "attribute") and row[key] is not None:
                row[f"{key}_name"] = dims[key].display(data, row[key])
        for name in table.columns:
            row[name] = _clean(record[name])
        rows.append(row)
    result = QueryResult(query=q.to_dict(), columns=columns, rows=rows, steps=executor.steps,
                         totals={k: _clean(v) for k, v in totals.items()} if totals is not None else None,
                         correlation=correlation, spread=_named_spread(spread, keys, dims, data),
                         caveats=list(executor.caveats),
                         groups=[{**g, "members": [_clean(m) for m in g["members"]],
                                  "figures": {k: _clean(v) for k, v in g["figures"].items()}} for g in groups or []],
                         between={k: {op: _clean(v) for op, v in d.items()} for k, d in (between or {}).items()},
                         ties=[_clean(t) if not isinstance(t, tuple) else [_clean(x) for x in t] for t in ties],
                         by_attribute=any(f.via for f in q.filters), picked_by=_picked_by(q.filters, dims, data))
    if result.ties and len(keys) == 1 and dims[keys[0]].display is not None and dims[keys[0]].kind == "place":
        result.names = {t: (f"{dims[keys[0]].display(data, t)} ({t})" if keys[0] == "community_area"
                            else dims[keys[0]].display(data, t)) for t in result.ties}
    result.trend = trend
    result.cover = _named_cover(cover, keys, dims, data)
    result.sources = _sources(executor)
    result.text = render_text(result, data)
    result.selected = selected
    result.considered, result.every = considered or (None, None)  # (rows with a value, every row)
    result.lead = render_lead(result)
    return result


def _named_cover(cover, keys: list, dims, data):
    """The cover's members JSON-safe, each with its name where the rows are places."""
    if not cover:
        return cover
    display = dims[keys[0]].display if keys else None
    named = [f"{display(data, m)} ({m})" if display and keys[0] == "community_area" else
             display(data, m) if display else str(m) for m in cover["members"]]
    return {**cover, "members": [_clean(m) for m in cover["members"]], "names": named}


def _named_spread(spread, keys: list, dims, data):
    """Each spread's numbers JSON-safe, and its lowest and highest members by name where the rows are places."""
    if not spread:
        return spread
    place = keys[0] if len(keys) == 1 and dims[keys[0]].display is not None else None
    out = {}
    for name, stats in spread.items():
        stats = {k: _clean(v) for k, v in stats.items()}
        for end in ("lowest", "highest"):
            member = stats.get(end)
            if place and member is not None:
                shown = dims[place].display(data, member)
                stats[f"{end}_name"] = f"{shown} ({member})" if place == "community_area" else shown
        out[name] = stats
    return out


def _window(filters: list) -> str:
    """A Redfin window named by its first day: the period a sentence gives ("the 90-day window starting
    2012-01-01")."""
    start = next((f.values[0] for f in filters if f.dimension == "window_start" and f.values), None)
    return f"the 90-day window starting {start}" if start else ""


def _filtered(label: str, filters: list, dims, data=None) -> str:
    """A measure's label with its own filters said: "Domestic homicides", "Homicides with an arrest", "Homicides
    (kind of place: STREET)", "Homicides (month of the year: June, July)", "Per capita income (Englewood)"."""
    for f in filters:
        value = f.values[0] if f.op == "equals" and f.values else None
        if f.dimension == "domestic" and isinstance(value, bool):
            label = f"{'Domestic' if value else 'Non-domestic'} {label[:1].lower() + label[1:]}"
        elif f.dimension == "arrest" and isinstance(value, bool):
            label += " with an arrest" if value else " with no arrest"
        else:
            dim = dims[f.dimension]
            named = data is not None and dim.display is not None and f.op in ("in", "equals")
            shown = ", ".join(str(dim.display(data, v)) if named else str(v) for v in f.values)
            if named and dim.kind == "place":  # a place's own figure: "(Englewood)", not "(community area: 68)"
                label += f" ({shown})"
            else:
                label += f" ({dim.label.lower()}{' not' if f.op == 'not_in' else ''}: {shown})"
    return label


def _derived_label(item, specs, cat, data=None, with_period: bool = True) -> str:
    names = [cat.measures[specs[f].measure].label if f in specs else f for f in item["of"]]
    op = item["op"]
    if op in ("change", "pct_change", "cagr"):
        kind = {"change": "Change", "pct_change": "Percent change", "cagr": "Average yearly (compound) growth"}[op]
        first, second = (specs.get(f) for f in item["of"])
        if first and second and first.measure == second.measure and first.period and second.period:
            # "Percent change in typical home value (Zillow ZHVI), 2014-09 to 2024-09"
            label = cat.measures[first.measure].label
            return f"{kind} in {label[:1].lower() + label[1:]}, {first.period.label()} to {second.period.label()}"
        both = [re.match(r"(.+?) \((.+)\)$", cat.measures[x.measure].label) if x else None for x in (first, second)]
        if all(both) and both[0].group(1) == both[1].group(1):  # "Percent change in residents, 2010 census to ACS"
            return f"{kind} in {both[0].group(1).lower()}, {both[0].group(2)} to {both[1].group(2)}"
        return f"{kind} from {_short(item['of'][0], specs, cat)} to {_short(item['of'][1], specs, cat)}"
    if op == "rank":
        return f"Rank by {_short(item['of'][0], specs, cat)}"
    ranked = [f.removeprefix("rank_") for f in item["of"] if f.startswith("rank_")]
    if op == "difference" and len(ranked) == 2 and all(f in specs for f in ranked):  # two ranks of one place apart
        first, second = (_short(f, specs, cat) for f in ranked)
        return f"Rank by {first[:1].lower() + first[1:]} minus rank by {second[:1].lower() + second[1:]}"
    if op == "step":  # "Change in homicides from the month before"
        what = _short(item["of"][0], specs, cat)
        return f"Change in {what[:1].lower() + what[1:]} from the {item['along']} before"
    if op == "excess":  # "Homicides above the number at the city's homicide rate"
        return f"{names[0]} above the number at the city's {_lower(names[1])}"
    if op == "run":  # "Years in a row with change in homicides from the year before above zero, to this one"
        what = _short(item["of"][0], specs, cat)
        side = "below" if item.get("direction") == "asc" else "above"
        return f"{item['along'].capitalize()}s in a row with {what[:1].lower() + what[1:]} {side} zero, to this one"
    if op == "quantile":  # "Quartile by hardship index (2008-2012), 1 = the lowest"
        return f"{QUANTILE_NAMES.get(item['groups'], 'group').capitalize()} by {_short(item['of'][0], specs, cat)}, 1 = the lowest"
    if op == "percent_of" and all(f in specs for f in item["of"]):  # "Share of homicides (hours 22-3) in homicides"
        first, second = (specs[f] for f in item["of"])
        if first.measure == second.measure and first.period == second.period \
                and all(f in first.filters for f in second.filters):
            # "Share of homicides (kind of place: AUTO) in all homicides (Englewood), 2012, 2022": the period once
            label = cat.measures[first.measure].label
            kept = _filtered(label, [f for f in first.filters if f not in second.filters], cat.dimensions, data)
            whole = _filtered(label, second.filters, cat.dimensions, data)
            return f"Share of {kept[:1].lower() + kept[1:]} in all {whole[:1].lower() + whole[1:]}" + \
                (f", {first.period.label()}" if first.period and with_period else "")
        parts = [_filtered(_short(f, specs, cat), specs[f].filters, cat.dimensions, data) for f in item["of"]]
        return f"Share of {parts[0][:1].lower() + parts[0][1:]} in {parts[1][:1].lower() + parts[1][1:]}"
    if op in ("ratio", "difference") and all(f in specs for f in item["of"]):
        # "Ratio of home value (zip code: 60614) to ...", "Difference between ... and ..."
        parts = [_filtered(_short(f, specs, cat), specs[f].filters, cat.dimensions, data) for f in item["of"]]
        head, joint = ("Ratio of", "to") if op == "ratio" else ("Difference between", "and")
        return f"{head} {parts[0][:1].lower() + parts[0][1:]} {joint} {parts[1][:1].lower() + parts[1][1:]}"
    if op == "share_of_total":
        return f"Share of the rows' total {names[0]}"
    return f"{op.title()} of {item['of'][0]} and {item['of'][1]}"


def _short(name, specs, cat) -> str:
    """A column named for a reader: its measure's label with the period that tells it apart."""
    spec = specs.get(name)
    if spec is None:
        return name
    label = cat.measures[spec.measure].label
    return f"{label}, {spec.period.label()}" if spec.period else label


def _derived_unit(item) -> str:
    return {"pct_change": "percent", "cagr": "percent",
            "share_of_total": "percent", "rank": "rank", "quantile": "rank", "ratio": "times",
            "percent_of": "percent"}.get(item["op"], "")


def _sources(executor) -> list:
    """The datasets read, by their key in the data catalogue (tools/data/datasets.py, which the tool and the API
    use to add the publisher and portal id) and their coverage in this bundle."""
    out = []
    for name in dict.fromkeys(executor.used):
        dataset = executor.cat.datasets[name]
        entry = {"dataset": dataset.title, "key": dataset.source}
        coverage = executor.data.coverage.get(dataset.source)
        if coverage:
            entry["coverage"] = coverage
        if entry not in out:
            out.append(entry)
    return out


def fmt(value, decimals: int = 0, unit: str = "") -> str:
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value or "not listed in the file"
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = f"{value:,.{decimals}f}" if isinstance(value, (int, float)) else str(value)
    if unit == "dollars":
        text = "$" + text
    elif unit == "percent":
        text += "%"
    return text


def render_text(result: QueryResult, data) -> str:
    """The result as lines a model or a terminal reads: the table, the totals, the correlation, caveats."""
    cols = [c for c in result.columns if c["kind"] != "dimension" or not any(
        x["name"] == f"{c['name']}_name" for x in result.columns)]
    lines = [" | ".join(f"{c['label']}" + (f" ({c['unit']})" if c["unit"] and c["unit"] != "text" else "")
                        for c in cols)]
    for row in result.rows[:TEXT_ROWS]:
        lines.append(" | ".join(str(row.get(c["name"])) if c["kind"] in ("dimension", "name")
                                else fmt(row.get(c["name"]), c.get("decimals", 0)) for c in cols))
    if len(result.rows) > TEXT_ROWS:
        lines.append(f"... {len(result.rows) - TEXT_ROWS} more rows")
    if not result.rows:
        lines.append("(no rows)")
    if result.ties:
        lines.append(f"Tied with the last row kept: {', '.join(str(t) for t in result.ties)}")
    if result.totals:
        labels = {c["name"]: c for c in result.columns}
        parts = []
        for name, value in result.totals.items():
            base = labels.get(name.removesuffix("_share_of_city").removesuffix("_city"))
            if name.endswith("_share_of_city"):
                parts.append(f"share of the city's {base['label'].lower()}: {fmt(value, 1, 'percent')}")
            elif name.endswith("_city"):
                parts.append(f"city-wide {base['label'].lower()}: {fmt(value, base.get('decimals', 0))}")
            elif base:
                parts.append(f"{base['label']}: {fmt(value, base.get('decimals', 0), base['unit'])}")
        lines.append("Total over these rows: " + "; ".join(parts))
    for name, spread in (result.spread or {}).items():
        column = next((c for c in result.columns if c["name"] == name), {"label": name, "unit": "", "decimals": 0})
        shown = [fmt(spread[k], column.get("decimals", 0), column["unit"]) for k in ("min", "median", "max")]
        lines.append(f"Spread of {column['label'].lower()} over {spread['n']} rows: lowest {shown[0]}, median "
                     f"{shown[1]}, highest {shown[2]}")
    lines += [_trend_sentence(name, fit, result) for name, fit in (result.trend or {}).items()]
    if result.cover:
        lines.append(_cover_sentence(result))
    if result.correlation:
        c = result.correlation
        lines.append(f"Correlation of {c['of'][0]} and {c['of'][1]} over {c['n']} rows: Pearson r = "
                     f"{c['pearson_r']:.3f} (Spearman rho = {c['spearman_rho']:.3f})")
    for caveat in result.caveats:
        lines.append(f"Note: {caveat}")
    return "\n".join(lines)


LEAD_ROWS = 10  # rows said in sentences; the table holds them all
OP_WORDS = {">": "over", ">=": "of at least", "<": "under", "<=": "of at most", "==": "of exactly", "!=": "other than"}
COUNT_OP_WORDS = {">": "more than", ">=": "at least", "<": "fewer than", "<=": "at most", "==": "exactly",
                  "!=": "other than"}  # "with more than 30 homicides in 2021"


def _who(row: dict, result: QueryResult) -> str:
    keys = [c for c in result.columns if c["kind"] == "dimension"]
    parts = []
    for c in keys:
        name = row.get(f"{c['name']}_name")
        value = row.get(c["name"])
        if name is not None:
            parts.append(f"{name} ({value})" if c["name"] == "community_area" else str(name))
        elif isinstance(value, bool):  # a yes/no attribute: "domestic True" read as a data dump
            parts.append(f"{c['label']} ({'yes' if value else 'no'})")
        elif c["name"] == "month" and re.fullmatch(r"\d{4}-\d{2}", str(value)):  # "May 2007", not "month 2007-05"
            parts.append(f"{calendar.month_name[int(str(value)[5:])]} {str(value)[:4]}")
        elif c["name"] == "quarter":
            parts.append(str(value))
        elif c["name"] == "calendar_month" and str(value).isdigit() and 1 <= int(value) <= 12:  # "July"
            parts.append(calendar.month_name[int(value)])
        elif c["name"] == "location_type":  # "STREET (kind of place) had 412": the recorded kind first
            parts.append(f"{value} ({c['label'].lower()})")
        else:
            parts.append(f"{c['label'].lower()} {value}" if c["name"] != "year" else f"in {value}")
    return ", ".join(parts)


COUNT_UNITS = ("homicides", "people", "households", "homes", "areas", "stations", "offices")


# A threshold named by what it is (semantic/query.py HAVING_REFERENCES), said with the number it stood for.
REFERENCE_WORDS = {"city": "the city's", "median": "the median", "mean": "the average"}


def _a(phrase: str) -> str:
    """The phrase with its article ("an arrest rate", "a home value")."""
    return ("an " if phrase[:1] in "aeiou" else "a ") + phrase


def _lower(text: str) -> str:
    """The label inside a sentence: "Typical home value" -> "typical home value"; an acronym stays ("IHS submarket")."""
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


def _phrase(column: dict, value) -> str:
    """One figure in words: "5 homicides in 2021", "7,740 residents (ACS 2019-2023)", "hardship index 98"."""
    shown = fmt(value, column.get("decimals", 0), column["unit"])
    if column.get("op") == "rank" and isinstance(value, (int, float)) and value == value:
        # "rank 18 by homicides, 2022 (1 = the highest)": the position among all the members, ties sharing the best
        what = column["label"].removeprefix("Rank by ")
        return f"rank {value:.0f} by {_lower(what)} (1 = the {'lowest' if column.get('direction') else 'highest'})"
    if column.get("op") == "change" and isinstance(value, (int, float)):  # "a rise of 38"
        size = fmt(abs(value), column.get("decimals", 0), column["unit"] if column["unit"] == "dollars" else "")
        what = f" in {_lower(column['said_of'])}" if column.get("said_of") else ""
        return f"no change{what}" if value == 0 else f"a {'rise' if value > 0 else 'drop'} of {size}{what}"
    if column.get("op") == "step" and isinstance(value, (int, float)) and value == value:  # "a rise of 28 ..."
        size = fmt(abs(value), column.get("decimals", 0), column["unit"] if column["unit"] == "dollars" else "")
        before = column["label"].rsplit(" from ", 1)[-1]
        return f"no change from {before}" if value == 0 else \
            f"a {'rise' if value > 0 else 'drop'} of {size} from {before}"
    if column.get("op") == "excess" and isinstance(value, (int, float)) and value == value:
        # "95 more homicides in 2022 than at the city's homicide rate (27.1)": the label reads "X above the number at
        # the city's Y"
        what, _, rate = column["label"].partition(" above the number at the city's ")
        more = "more" if value >= 0 else "fewer"
        return f"{fmt(abs(value), 0, '')} {more} {_lower(what)} than at the city's {rate}"
    if column.get("op") == "run" and isinstance(value, (int, float)) and value == value:  # "2 years in a row up"
        along = column["label"].split()[0].lower().rstrip("s")
        way = "down" if column.get("direction") else "up"
        return f"{value:.0f} {along}{'' if value == 1 else 's'} in a row {way} from the {along} before"
    if column.get("op") == "ratio" and isinstance(value, (int, float)) and column["label"].startswith("Ratio of "):
        return f"{_a(_lower(column['label']))} of {value:.2f} ({value:.2f} times)"
    if column.get("op") == "pct_change" and isinstance(value, (int, float)) and column.get("span"):
        return f"a change of {value:+.1f}%{column['span']}"  # "a change of +169.8% from January 2015 to January 2022"
    if column["unit"] in COUNT_UNITS and column.get("measure_label"):
        period = f" in {column['period']}" if column.get("period") else ""
        label = _lower(column["measure_label"])
        head, paren, rest = label.partition(" (")  # "1 homicide (month of the year: June, July, August)"
        if value == 1 and head.endswith("s") and (" " not in head or head.endswith(" " + column["unit"])):
            # "1 homicide", "1 district police station"
            label = head[:-1] + paren + rest
        return f"{shown} {label}{period}"
    if column["unit"] == "percent" and column["label"].lower().startswith(("share", "percent")):
        # "a share of households earning under $25,000 of 51.7%" (a label that names a group keeps its form)
        return f"{_a(_lower(column['label']))} of {shown}"
    if column["unit"].startswith("per "):  # "48.9 homicides per 100,000 residents a year in 2022"
        period = f" in {column['period']}" if column.get("period") else ""
        return f"{shown} {_lower(column.get('measure_label') or column['label'])}{period}"
    if column["unit"] == "text":  # "community area covering most of the ZIP: West Town (community area 24), ..."
        return f"{_lower(column['label'])}: {value}"
    if column.get("period") and column.get("measure_label") and column["label"] != column["measure_label"]:
        # a measure asked in several periods: "a typical home value (Zillow ZHVI) of $38,094 in January 2015"
        return f"{_a(_lower(column['measure_label']))} of {shown} in {column['period']}"
    if column.get("period", "").startswith("the 90-day window"):  # "a median sale price (Redfin) of $180,000 in ..."
        return f"{_a(_lower(column['label']))} of {shown} in {column['period']}"
    return f"{_lower(column['label'])} {shown}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _named_rows(rows: list, n: int, result: QueryResult) -> str:
    """The first rows by name; where the sentence stops short of the set, how many more the table holds ("the 19
    areas ... are A, ..., J and 9 more" — ten names alone read as the whole set)."""
    names = [_who(r, result) for r in rows]
    return _and(names + [f"{n - len(names)} more (in the table)"]) if n > len(names) else _and(names)


def _picked_by(filters: list, dims: dict, data) -> str:
    """The declared phrase for the first set a filter names by an attribute, "" where none is declared."""
    via = next((f for f in filters if f.via and dims[f.via].picked is not None), None)
    return dims[via.via].picked(data, list(via.named)) if via else ""


def _grain_words(result: QueryResult, n: int) -> str:
    keys = [c for c in result.columns if c["kind"] == "dimension"]
    word = _lower(keys[0]["label"]) if keys else "row"
    head, paren, rest = word.partition(" (")  # "IHS submarkets (community areas mostly in it)"
    return f"{n} {head}{'' if n == 1 else 's'}{paren}{rest}"


def _by_rank(moved: dict, h: dict, labels: dict) -> str | None:
    """A bound on a rank or a quantile in words: "among the 20 highest by poverty", "not among ..." (a set taken
    away: "> 20"), "in the top quartile by hardship index"."""
    ranked = labels.get(moved["of"][0], {})
    what = _lower(f"{ranked.get('measure_label') or ranked.get('label', moved['of'][0])}" + (
        f" in {ranked['period']}" if ranked.get("period") and ranked.get("measure_label") else ""))
    if moved["op"] == "rank" and h["op"] in ("<=", "<", ">", ">="):
        inside = h["op"] in ("<=", "<")
        n = int(h["value"]) - (1 if h["op"] in ("<", ">=") else 0)
        end = "lowest" if moved.get("direction") == "asc" else "highest"
        return f"{'' if inside else 'not '}among the {n} {end} by {what}"
    if moved["op"] == "quantile" and h["op"] == "==":
        m, pick = moved["groups"], int(h["value"])
        which = "top" if pick == m else "bottom" if pick == 1 else f"{_ordinal_word(pick).rstrip('-')} (from the lowest)"
        return f"in the {which} {QUANTILE_NAMES.get(m, 'group')} by {what}"
    return None


def _selection(result: QueryResult) -> str:
    """How the rows were picked, in words: "with the highest hardship index (2008-2012)", "with households below
    poverty of at least 30%"."""
    query, labels = result.query, {c["name"]: c for c in result.columns}
    parts = []
    order = query.get("order_by") or []
    derived = {d["name"]: d for d in query.get("derived", [])}
    for h in _thresholds(result):
        column = labels.get(h["field"], {"label": h["field"], "unit": "", "decimals": 0})
        moved = derived.get(h["field"])
        if moved and moved["op"] == "change" and h["value"] == 0 and h["op"] in ("<", ">"):
            what, span = _change_words(moved, labels)  # "whose residents fell from the 2010 census to ACS 2019-2023"
            parts.append(f"whose {what} {'fell' if h['op'] == '<' else 'rose'}{span}")
            continue
        if moved and moved["op"] == "step" and h["value"] == 0 and h["op"] in ("<", ">"):
            # "the 7 years in which homicides rose from the year before"
            what = _lower(labels.get(moved["of"][0], {}).get("measure_label") or moved["of"][0])
            parts.append(f"in which {what} {'fell' if h['op'] == '<' else 'rose'} from the {moved.get('along', 'row')} "
                         "before")
            continue
        by_rank = _by_rank(moved, h, labels) if moved else None
        if by_rank:
            parts.append(by_rank)
            continue
        whole = h["value"] % 1 == 0 or column.get("unit") == "dollars"
        value = fmt(h["value"], 0 if whole else 1, column.get("unit", ""))
        if h.get("times"):  # "over twice the city's 26.2 (52.4)"
            times = {2.0: "twice", 3.0: "three times"}.get(h["times"], f"{h['times']:g} times")
            base = fmt(h["base"], 0 if h["base"] % 1 == 0 or column.get("unit") == "dollars" else 1,
                       column.get("unit", ""))
            value = f"{times} {REFERENCE_WORDS[h['reference']]} {base} ({value})"
        elif h.get("reference"):  # "above the city's 27.1", "above the median $231,000"
            value = f"{REFERENCE_WORDS[h['reference']]} {value}"
        if column.get("unit") in COUNT_UNITS and column.get("measure_label"):  # "with over 30 homicides in 2021"
            period = f" in {column['period']}" if column.get("period") else ""
            if (h["op"], h["value"]) in (("<=", 0), ("==", 0), ("<", 1)):  # "with no homicides in 2019"
                parts.append(f"with no {_lower(column['measure_label'])}{period}")
                continue
            said = _lower(column["measure_label"])
            if h["value"] == 1 and h["op"] in (">=", "==") and said.endswith("s") and " " not in said:
                said = said[:-1]  # "with at least 1 homicide in 2021"
            parts.append(f"with {COUNT_OP_WORDS[h['op']]} {value} {said}{period}")
            continue
        label = column.get("measure_label") or column["label"]
        if re.match(r"(?i)homicides per\b", label):  # "with more than the city's 26.5 homicides per 100,000 residents"
            period = f" in {column['period']}" if column.get("period") else ""
            parts.append(f"with {COUNT_OP_WORDS[h['op']]} {value} {_lower(label)}{period}")
            continue
        if column.get("period") and column.get("measure_label"):  # "with a typical home value over $400,000 in June 2022"
            parts.append(f"with {_a(_lower(column['measure_label']))} {OP_WORDS[h['op']]} {value} in {column['period']}")
            continue
        parts.append(f"with {_lower(column['label'])} {OP_WORDS[h['op']]} {value}")
    if parts and order and query.get("limit") and order[0]["field"] in {h["field"] for h in query["having"]}:
        return " and ".join(parts)  # the threshold's own measure orders the rows: nothing more to say
    change = next((d for d in query.get("derived", []) if order and d["name"] == order[0]["field"]
                   and d["op"] in ("change", "pct_change")), None)
    nth = _position_words(query)
    if change and query.get("limit"):  # "with the biggest drop in homicides from 2021 to 2022"
        what, span = _change_words(change, labels)
        kind = "percent " if change["op"] == "pct_change" else ""
        falls = order[0]["direction"] == "asc"
        values = [r.get(change["name"]) for r in result.rows if isinstance(r.get(change["name"]), (int, float))]
        # the lowest of changes that all rose is the smallest rise, not a drop (and the highest of falls the smallest)
        size = "smallest" if values and all((v > 0) if falls else (v < 0) for v in values) else "biggest"
        word = ("rise" if size == "smallest" else "drop") if falls else ("drop" if size == "smallest" else "rise")
        parts.append(f"with the {nth}{size} {kind}{word} in {what}{span}")
    elif order and query.get("limit") and order[0]["field"] not in {d["name"] for d in query.get("derived", [])}:
        field = order[0]["field"]
        column = labels.get(field, {"label": field, "unit": ""})
        high = order[0]["direction"] == "desc"
        if column.get("kind") == "dimension" and field in _TIME_KEYS:  # "the first year with more than 700"
            parts.append(f"that came {'last' if high else 'first'}")
        elif column["unit"] in COUNT_UNITS and column.get("measure_label"):  # "with the most homicides in 2022"
            period = f" in {column['period']}" if column.get("period") else ""
            parts.append(f"with the {nth}{'most' if high else 'fewest'} {_lower(column['measure_label'])}{period}")
        else:
            what = f"{column['measure_label']} in {column['period']}" if column.get("period") and \
                column.get("measure_label") else column["label"]
            parts.append(f"with the {nth}{'highest' if high else 'lowest'} {_lower(what)}")
    return " and ".join(parts)


def _change_words(change: dict, labels: dict) -> tuple[str, str]:
    """What changed and between what: ("homicides", " from 2021 to 2022"), or for two sources of one measure
    ("residents", " from the 2010 census to ACS 2019-2023")."""
    first, second = (labels.get(f, {}) for f in change["of"])
    what = _lower(first.get("measure_label") or change["of"][0])
    span = f" from {first.get('period')} to {second.get('period')}" if first.get("period") else ""
    sources = [re.match(r"(.+?) \((.+)\)$", c.get("measure_label") or "") for c in (first, second)]
    if not span and all(sources) and sources[0].group(1) == sources[1].group(1):
        what, span = _lower(sources[0].group(1)), f" from the {sources[0].group(2)} to {sources[1].group(2)}"
    return what, span


def _thresholds(result: QueryResult) -> list:
    """The having clauses on figures: one on a member ("community_area == 68", the place whose rank is asked among
    all) picks a row, it sets no threshold to say."""
    kinds = {c["name"]: c["kind"] for c in result.columns}
    return [h for h in result.query.get("having") or [] if kinds.get(h["field"]) != "dimension"]


def _position_words(query: dict) -> str:
    """"the second-biggest rise"; rows from one position to another: "the 2nd to 10th highest"."""
    offset, limit = query.get("offset", 0), query.get("limit") or 0
    if offset and limit > 1:
        return f"{_nth(offset + 1)} to {_nth(offset + limit)} "
    return _ordinal_word(offset + 1) if offset else ""


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _ordinal_word(n: int) -> str:
    return {2: "second-", 3: "third-", 4: "fourth-", 5: "fifth-"}.get(n, f"{n}th-")


_TIME_KEYS = ("year", "month", "quarter", "date")


def _valued(value) -> bool:
    return isinstance(value, (int, float)) and value == value


def _in_row(column: dict) -> dict:
    """A column as one row's figure says it: a row of a year or a month names its own time, not the whole span."""
    return {**column, "period": ""} if column.get("row_timed") else column


def _row_sentence(row: dict, result: QueryResult, figures: list) -> str:
    keys = [c["name"] for c in result.columns if c["kind"] == "dimension"]
    if keys and keys[0] in _TIME_KEYS and len(keys) == 1:
        # a row of a time grouping: "2016: 786 homicides." (the query's whole period is the first sentence's)
        value = str(row.get(keys[0]))
        when = f"{calendar.month_name[int(value[5:7])]} {value[:4]}" if keys[0] == "month" and len(value) == 7 \
            else value
        # each label without the whole period ("2012: arrest rate 46.7%", not "arrest rate, 2012, 2022")
        # (a step on the first row has no row before it: nothing to say, not "n/a")
        said = _and([_phrase({**c, "period": "", "label": c.get("measure_label") or c.get("plain_label") or c["label"]},
                             row.get(c["name"]))
                     for c in figures if not (c.get("op") == "step" and not _valued(row.get(c["name"])))]).rstrip(".")
        return f"{when}: {said}."
    who = _who(row, result)
    if all(c["unit"] == "text" for c in figures):  # names and addresses: "For Ward 42, the alderperson is ..."
        said = "; ".join(f"the {_lower(c['label'])} is {fmt(row.get(c['name']))}" for c in figures).rstrip(".")
        return f"For {who}, {said}." if who else f"{said[:1].upper() + said[1:]}."
    missing = [c for c in figures if row.get(c["name"]) is None and c["kind"] == "measure"]
    if who and missing:
        # "ZIP 60617's typical home value (Zillow ZHVI) in September 2024 is not in the data": a gap said, not "n/a"
        gaps = " ".join(f"{who}'s {_lower(c.get('measure_label') or c['label'])}"
                        f"{' in ' + c['period'] if c.get('period') else ''} is not in the data." for c in missing)
        figures = [c for c in figures if c not in missing]
        return (f"{who} had {_and([_phrase(c, row.get(c['name'])) for c in figures]).rstrip('.')}. " if figures
                else "") + gaps
    said = _and([_phrase(c, row.get(c["name"])) for c in figures]).rstrip(".")  # a name may end "Jason C."
    if who:
        return f"{who} had {said}."
    places = [f for f in result.query.get("filters") or [] if f.get("dimension") in PLACE_GRAINS] + \
        [f for m in result.query.get("measures") or [] if isinstance(m, dict)
         for f in m.get("filters") or [] if f.get("dimension") in PLACE_GRAINS]  # a place per measure: its figures
    return f"The figures: {said}." if places else f"For the whole city: {said}."


def _set_words(picked: str, n: int) -> str:
    """"Of the 10 community areas with the highest poverty", not "... among the 10 highest by poverty"."""
    for end in ("highest", "lowest"):
        picked = re.sub(rf"^among the {n} {end} by ", f"with the {end} ", picked)
    return picked


def _set_first(result: QueryResult) -> list[str]:
    """Figures over another query's set as a whole (by month, by year), or one member ranked inside it: the set
    said first, its members named ("Over the 5 community areas Riverdale (54), ...:")."""
    step = result.steps[-1] if result.steps else None
    if not step or not step.get("names"):
        return []
    one_member = any(h.get("field") == step.get("grain") for h in result.query.get("having") or [])
    if not one_member and any(c["kind"] == "dimension" and c["name"] in PLACE_GRAINS for c in result.columns):
        return []
    grain, n = step["grain"].replace("_", " "), len(step["names"])
    if n == 1 and not one_member:  # "In Riverdale (54): ..."
        return [f"In {step['names'][0]}:"]
    named = f" {_and(step['names'])}" if n <= 15 else " picked"
    return [f"{'Among' if one_member else 'Over'} the {n} {grain}{'s' if n != 1 else ''}{named}:"]


def render_lead(result: QueryResult) -> str:
    """Sentences a person reads first: what was asked as a whole (a count of the areas a threshold picks, a total
    over a set, a correlation) before the rows, each figure with its label, unit and period, its member named."""
    figures = [c for c in result.columns if c["kind"] in ("measure", "derived")]
    if result.groups:
        return _groups_lead(result, figures)
    sentences = _set_first(result)
    how = _selection(result)
    n = len(result.rows)
    rows = result.rows[:LEAD_ROWS]
    having = _thresholds(result)
    quantile = {d["name"] for d in result.query.get("derived") or [] if d["op"] == "quantile"}
    if having and all(h["field"] in quantile for h in having):
        # "the top quartile by hardship": a set its quantile names reads as a ranked set ("The 19 community areas in
        # the top quartile by ... are ..."); the quantile column is in those words, not in each row's
        having, figures = [], [c for c in figures if c["name"] not in quantile]
    if having and result.query.get("limit") and result.selected is not None:
        # Ranked within a threshold's set: the set first, then its leader ("Of the 16 community areas with residents
        # over 50,000, the one with the highest ... is Austin (25), with ...").
        picked = _selection(QueryResult(query={k: v for k, v in result.query.items() if k not in ("order_by", "limit")},
                                        columns=result.columns, rows=[]))
        ranked = _selection(QueryResult(query={k: v for k, v in result.query.items() if k != "having"},
                                        columns=result.columns, rows=[]))
        said = _and([_phrase(_in_row(c), result.rows[0].get(c["name"])) for c in figures]) if result.rows else ""
        head = f"Of the {_grain_words(result, result.selected)} {_set_words(picked, result.selected)}"
        if n == 1 and said:
            sentences.append(f"{head}, the one {ranked} is {_who(result.rows[0], result)}, with {said}.")
            rows = []
        else:
            sentences.append(f"{head}, the {n} {ranked} are {_named_rows(rows, n, result)}.")
        how = ""
    elif having and result.totals:  # the set and what it holds, one sentence: the period asked is in the first
        sentences.append(f"There {'is' if n == 1 else 'are'} {_grain_words(result, n)} {how}{_of_all(result, n)}; "
                         f"together they had {_and(_total_parts(result))}." if _total_parts(result) else
                         f"There {'is' if n == 1 else 'are'} {_grain_words(result, n)} {how}{_of_all(result, n)}.")
    elif having:
        sentences.append(f"There {'is' if n == 1 else 'are'} {_grain_words(result, n)} {how}{_of_all(result, n)}.")
    elif how and n > 1:
        sentences.append(f"The {_grain_words(result, n)} {how} are {_named_rows(result.rows[:LEAD_ROWS], n, result)}.")
    elif how and n == 1:  # "The community area with the most residents aged 65 and over is Austin (25), with ..."
        word = _grain_words(result, 1).split(" ", 1)[1]
        said = _and([_phrase(_in_row(c), result.rows[0].get(c["name"])) for c in figures]).rstrip(".")
        sentences.append(f"The {word} {how} is {_who(result.rows[0], result)}, with {said}.")
        rows = []
    sentences += _totals_sentences(result, having)
    if result.spread:
        if not (result.query.get("limit") or _thresholds(result)):
            # the spread (and total) is the answer
            sentences = [s for s in sentences if s.startswith("Together") or " together had " in s]
            rows = []
        sentences += [_spread_sentence(name, stats, result) for name, stats in result.spread.items() if stats["n"]]
        if not rows:
            return " ".join(sentences)
    if result.trend or result.cover:  # the fitted line, or the set that reaches the share, is the answer
        sentences += [_trend_sentence(name, fit, result) for name, fit in (result.trend or {}).items()]
        return " ".join(sentences + ([_cover_sentence(result)] if result.cover else []))
    if result.correlation:
        c = result.correlation
        labels = {col["name"]: col for col in result.columns}
        a, b = (_lower(labels[f]["label"]) if f in labels else f for f in c["of"])
        sentences.append(f"Across the {_grain_words(result, c['n'])}, the correlation of {a} and {b} is "
                         f"r = {c['pearson_r']:.2f} (Pearson; Spearman's rho {c['spearman_rho']:.2f}); "
                         f"{_strength(c['pearson_r'])}.")
        return " ".join(sentences)  # each area's pair of figures is in the table, not the lead
    sentences += [_row_sentence(row, result, figures) for row in rows]
    if n > LEAD_ROWS:
        sentences.append(f"({n - LEAD_ROWS} more rows in the table.)")
    if not result.rows:
        sentences.append("No rows match the query.")
    if result.ties:
        sentences.append(f"Tied with the last of these, and left out by the limit: {_tied(result)}.")
    return " ".join(sentences)


def _totals_sentences(result: QueryResult, having: list) -> list[str]:
    """The set's totals: one place found gets the city's own figures beside it (not a "together" of one); a set
    named by a filter on an attribute ("the areas lying mostly in one submarket") says how many it holds."""
    if result.totals and len(result.rows) == 1 and not having:
        labels = {c["name"]: c for c in result.columns}
        who = _who(result.rows[0], result)
        city = [_phrase(labels[name], result.totals[f"{name}_city"]) + (
                    f" ({who} holds {result.totals[name + '_share_of_city']:.1f}% of them)"
                    if result.totals.get(f"{name}_share_of_city") is not None and who else "")
                for name in labels
                if labels[name].get("kind") == "measure" and result.totals.get(f"{name}_city") is not None]
        return [f"For the city as a whole: {_and(city)}."] if city else []
    if not result.totals or having and not result.query.get("limit"):
        return []
    parts = _total_parts(result)
    if parts and result.by_attribute and not (result.query.get("limit") or having) and len(result.rows) > 1:
        picked = f" {result.picked_by}" if result.picked_by else ""
        return [f"The {_grain_words(result, len(result.rows))}{picked} together had {_and(parts)}."]
    return [f"Together they had {_and(parts)}."] if parts else []


def _of_all(result: QueryResult, n: int) -> str:
    """count_share: " (29.9% of the 77 community areas with a figure)"."""
    if not result.considered:
        return ""
    considered, every = result.considered, result.every or 0
    base = result.query.get("count_base") or []
    if result.steps or any(h.get("field") in base for h in result.query.get("having") or []):
        # picked among another query's members, or within a set a threshold of the base makes: "what percent of
        # those also ...", "what % of the 20 is that"
        return f" ({n / considered * 100:.1f}% of those {_grain_words(result, considered)})" if considered else ""
    said = f" ({n / considered * 100:.1f}% of the {_grain_words(result, considered)} with a figure"
    return said + (f"; {n / every * 100:.1f}% of all {every})" if every > considered else ")")


_STEP_WORDS = {"year": ("yearly", "a year"), "quarter": ("quarterly", "a quarter"), "month": ("monthly", "a month")}


def _trend_sentence(name: str, fit: dict, result: QueryResult) -> str:
    """"Fitted by least squares to the 10 yearly figures for 2010-2019, homicides rise by 21.4 a year (the line runs
    from 400.1 in 2010 to 593.0 in 2019; r squared 0.35)."."""
    column = next((c for c in result.columns if c["name"] == name), {"label": name, "unit": "", "decimals": 0})
    grain = next((c["name"] for c in result.columns if c["kind"] == "dimension"), "year")
    each, step = _STEP_WORDS.get(grain, ("", "a step"))
    decimals = max(column.get("decimals", 0), 1) if column["unit"] != "dollars" else 0
    what = _lower(column.get("measure_label") or column["label"])
    slope = fit["slope"]
    moves = "do not change" if round(slope, decimals) == 0 else \
        f"{'rise' if slope > 0 else 'fall'} by {fmt(abs(slope), decimals, column['unit'])} {step}"
    ends = (f"the line runs from {fmt(fit['fitted_first'], decimals, column['unit'])} in {fit['first']} to "
            f"{fmt(fit['fitted_last'], decimals, column['unit'])} in {fit['last']}")
    r2 = f"; r squared {fit['r2']:.2f}" if fit["r2"] == fit["r2"] else ""
    span = f"{fit['first']}-{fit['last']}" if grain == "year" else f"{fit['first']} to {fit['last']}"
    return (f"Fitted by least squares to the {fit['n']} {each} figures for {span}, {what} "
            f"{moves} (a slope of {slope:+.{decimals}f} {step}; {ends}{r2}).")


def _cover_sentence(result: QueryResult) -> str:
    """"It takes 13 of the 67 community areas with a figure, largest first, to reach half (50%) of the city's 717
    homicides in 2022: together they hold 362 (50.5%). They are ..."."""
    cover = result.cover
    column = next(c for c in result.columns if c["name"] == cover["of"])
    decimals, unit = column.get("decimals", 0), column["unit"]
    what = _lower(column.get("measure_label") or column["label"]) + (
        f" in {column['period']}" if column.get("period") else "")
    share = {50.0: "half (50%)", 25.0: "a quarter (25%)", 75.0: "three quarters (75%)"}.get(
        cover["share"], f"{cover['share']:g}%")
    whole = f"the city's {fmt(cover['whole'], decimals, unit)} {what}"
    held = f"{fmt(cover['held'], decimals, unit)} ({cover['held'] / cover['whole'] * 100:.1f}%)" \
        if cover["whole"] else fmt(cover["held"], decimals, unit)
    if cover["n"] is None:
        return f"Even all {_grain_words(result, cover['rows'])} together hold {held} of {whole}, " \
               f"short of {share}."
    return (f"It takes {cover['n']} of the {_grain_words(result, cover['rows'])}, largest first, to "
            f"reach {share} of {whole}: together they hold {held}. They are {_and(cover['names'])}.")


def _spread_sentence(name: str, stats: dict, result: QueryResult) -> str:
    """"Across the 77 community areas, households below poverty runs from 3.1% (Forest Glen (12)) to 56.5% (Riverdale
    (54)), a range of 53.4; the median is 18.9% and the plain average 21.8%."."""
    column = next((c for c in result.columns if c["name"] == name), {"label": name, "unit": "", "decimals": 0})
    decimals = column.get("decimals", 0)
    # a mean, or a median between two whole values (79.5), is no longer whole: one decimal more
    halves = {"mean": True, "median": stats["median"] is not None and float(stats["median"]) % 1 != 0}
    shown = {k: fmt(stats[k], max(decimals, 1) if halves.get(k) and column["unit"] != "dollars" else decimals,
                    column["unit"]) for k in ("min", "median", "mean", "max")}
    low, high = (f" ({stats[k]})" if stats.get(k) else "" for k in ("lowest_name", "highest_name"))
    span = fmt(stats["max"] - stats["min"], decimals, column["unit"] if column["unit"] == "dollars" else "")
    what = _lower(column.get("measure_label") or column["label"])
    when = f" in {column['period']}" if column.get("period") else ""
    city = ""
    if stats.get("city") is not None:
        gap = stats["city"] - stats["mean"]
        city = (f"; the city's own figure is {fmt(stats['city'], decimals, column['unit'])}, "
                f"{fmt(abs(gap), max(decimals, 1) if column['unit'] != 'dollars' else 0, column['unit'])} "
                f"{'above' if gap >= 0 else 'below'} the plain average")
    return (f"Across the {_grain_words(result, stats['n'])}, {what}{when} runs from {shown['min']}{low} to "
            f"{shown['max']}{high}, a range of {span}; the median is {shown['median']} and the plain average "
            f"{shown['mean']}{city}.")


def _groups_lead(result: QueryResult, figures: list) -> str:
    """Each compared set with the figures asked of it, then how the first set's figure stands to the second's:
    "The 38 community areas with households below poverty over the median 18.9% had a combined 57.7 ...; the 39 with
    ... at most the median 18.9% had 7.7. The first set's is 7.45 times the second's (a difference of 50.0)."."""
    picking = {h["field"] for g in result.groups for h in g["having"]} | \
        {o["field"] for g in result.groups for o in g["order_by"]}
    # a derived column that picks the sets picks with its inputs ("residents change": both censuses' residents)
    picking |= {f for d in result.query.get("derived") or [] if d["name"] in picking for f in d["of"]}
    # (a picking column given a figure of its own is asked too: "the other 67's homicides combined")
    own = {name for g in result.groups for name in g.get("figure_of") or {}}
    asked = [c for c in figures if c["name"] not in picking or c["name"] in own] or figures
    sentences = []
    for group in result.groups:
        how = _selection(QueryResult(query={**result.query, **{k: group[k] for k in ("having", "order_by", "limit")}},
                                     columns=result.columns, rows=[]))
        member = _one_member(result, group)
        if member is not None:  # "the richest and the poorest area": each one by name, its own figures
            said = _and([_phrase(c, group["figures"].get(c["name"])) for c in asked])
            sentences.append(f"{_who(member, result)}, the {_grain_words(result, 1)[2:]} {how}, had {said}.")
            continue
        said = _and([_group_phrase(c, group["figures"].get(c["name"]), "mean" if c["name"] in group.get(
            "as_mean", ()) else (group.get("figure_of") or {}).get(c["name"], group["figure"])) for c in asked])
        if group.get("rest"):  # "the 67 other community areas": every place the sets before it left
            others = re.sub(r"^([\d,]+) ", r"\1 other ", _grain_words(result, group["n"]))
            sentences.append(f"The {others} had {said}.")
            continue
        sentences.append(f"The {_grain_words(result, group['n'])} {how} had {said}.")
    ones = [_one_member(result, g) for g in result.groups[:2]]
    # two single places are said by name ("Riverdale's figure is 10.89 times Near North Side's"), sets by position
    names = [_who(r, result).split(" (")[0] for r in ones] if all(ones) else ["first", "second"]
    owner = (lambda k: f"{names[k]}'s") if all(ones) else (lambda k: f"the {names[k]} set's")
    for c in asked:
        pair = result.between.get(c["name"])
        if pair and pair["ratio"] is not None and pair["difference"] is not None:
            decimals = c.get("decimals", 0) if c["unit"] == "dollars" else max(c.get("decimals", 0), 1)
            # said with the larger over the smaller ("the second set's is 4.92 times the first's"): "0.20 times" reads
            # as a figure the user must invert, and "how many times higher" asks the larger one's multiple
            big, small = (1, 0) if 0 < pair["ratio"] < 1 else (0, 1)
            times = 1 / pair["ratio"] if big else pair["ratio"]
            other = owner(small) if all(ones) else f"the {names[small]}'s"
            sentences.append(f"For {_lower(c.get('measure_label') or c['label'])}, {owner(big)} figure is "
                             f"{times:.2f} times {other} (a difference of "
                             f"{fmt(pair['difference'], decimals, c['unit'])}, {names[0]} minus {names[1]}).")
    return " ".join(sentences)


def _one_member(result: QueryResult, group: dict) -> dict | None:
    """The row of a set of one member, where the result holds it."""
    if group.get("n") != 1 or not group.get("members"):
        return None
    keys = [c["name"] for c in result.columns if c["kind"] == "dimension"]
    wanted = group["members"][0]
    return next((r for r in result.rows if keys and (r.get(keys[0]),) == (wanted if isinstance(wanted, tuple)
                                                                          else (wanted,))), None)


def _group_phrase(column: dict, value, figure: str) -> str:
    if figure in ("mean", "median"):  # "an average typical home value of $412,000 across them", "a median ..."
        when = f" in {column['period']}" if column.get("period") else ""
        shown = fmt(value, max(column.get("decimals", 0), 0 if column["unit"] == "dollars" else 1), column["unit"])
        word = "an average" if figure == "mean" else "a median"
        return f"{word} {_lower(column.get('measure_label') or column['label'])}{when} of {shown} across them"
    pooled = column.get("agg") == "ratio" or column["unit"].startswith("per ")
    said = _phrase(column, value)
    # "a combined arrest rate of 35.4%" (the phrase's own article gives way)
    return re.sub(r"^an? ", "a combined ", said) if pooled and re.match(r"an? ", said) else \
        ("a combined " if pooled else "") + said


def _total_parts(result: QueryResult) -> list[str]:
    """The set's counts and sums, each with its share of the city: not the mean of the measure that picked it (said
    per row)."""
    labels = {c["name"]: c for c in result.columns}
    ordered = {o["field"] for o in result.query.get("order_by") or []} | {h["field"] for h in
                                                                         result.query.get("having") or []}
    parts = []
    for name, value in (result.totals or {}).items():
        base = labels.get(name)
        if base and base.get("kind") == "measure" and base.get("additive"):
            share = result.totals.get(f"{name}_share_of_city")
            of_city = f" ({fmt(share, 1, 'percent')} of the city's {fmt(result.totals.get(name + '_city'))}" \
                f"{_of_the_set(result, name, value)})" if share is not None else ""
            parts.append(_phrase(base, value) + of_city)
        elif base and base.get("agg") in ("mean", "weighted_mean") and name not in ordered and result.rows:
            # "the average poverty rate across the 8 areas": the areas' plain mean, and the weighted one beside it
            values = [r[name] for r in result.rows if isinstance(r.get(name), (int, float))]
            if values:
                # A mean of whole numbers (a hardship index) has a fraction: one more decimal than the values
                # (dollars stay whole).
                more = not base.get("decimals") and "dollar" not in base["unit"]
                plain = fmt(sum(values) / len(values), 1 if more else base.get("decimals", 1), base["unit"])
                weighted = f" ({fmt(value, base.get('decimals', 1), base['unit'])} weighted by " \
                           f"{_lower(base['weight_label'])})" if base.get("weight_label") and value is not None else ""
                when = f" in {base['period']}" if base.get("period") else ""
                parts.append(f"an average {_lower(base['measure_label'])}{when} of {plain} across them{weighted}")
        elif base and base.get("op") == "change" and isinstance(value, (int, float)) and value == value:
            # two periods' totals over the set: the change between them, in the set's own count
            of = next((d["of"] for d in result.query.get("derived", []) if d["name"] == name), None)
            first = result.totals.get(of[0]) if of else None
            pct = f" ({value / first * 100:+.1f}%)" if isinstance(first, (int, float)) and first else ""
            parts.append(_phrase(base, value) + pct)
        elif base and base.get("op") == "excess" and isinstance(value, (int, float)) and value == value:
            parts.append(_phrase(base, value))  # "95 more homicides than at the city's rate" over the set's sums
        elif base and base.get("op") in ("pct_change", "percent_of") and isinstance(value, (int, float)) \
                and value == value \
                and name not in ordered:  # over the set's sums: "a change of -7.4% in residents from 2010 to ..."
            city = result.totals.get(f"{name}_city")  # a share's own city figure beside it
            parts.append(_phrase(base, value) + (f" (the city's: {fmt(city, 1, 'percent')})"
                                                 if isinstance(city, (int, float)) and city == city else ""))
        elif base and base.get("agg") == "ratio" and base["unit"] == "percent" and name not in ordered \
                and isinstance(value, (int, float)) and value == value:
            # "taken together, what share of residents are Hispanic": the share over the set, a ratio of its sums
            city = result.totals.get(f"{name}_city")  # "and what was the city's?": beside it, as for a rate
            parts.append(f"a combined {_lower(base['measure_label'])} of {fmt(value, base.get('decimals', 1), 'percent')}"
                         + (f" (the city's: {fmt(city, base.get('decimals', 1), 'percent')})"
                            if isinstance(city, (int, float)) and city == city else ""))
        elif base and base.get("kind") == "measure" and base["unit"].startswith("per ") and value is not None:
            # A rate over the set is its own ratio of sums ("their combined homicide rate"), with the city's beside it
            city = result.totals.get(f"{name}_city")
            parts.append(f"a combined {_phrase(base, value)}" +
                         (f" (the city's: {fmt(city, base.get('decimals', 1))})" if city is not None else ""))
    return parts


def _of_the_set(result: QueryResult, name: str, value) -> str:
    """"; 81.5% of the 1,803 in those 15": a count over members picked from a set, as a share of the set's own."""
    step = result.steps[-1] if result.steps else {}
    whole = (step.get("totals") or {}).get(name)
    if not isinstance(whole, (int, float)) or not whole or not isinstance(value, (int, float)):
        return ""
    return f"; {fmt(value / whole * 100, 1, 'percent')} of the {fmt(whole)} in those {len(step.get('members') or [])}"


def _strength(r: float) -> str:
    """The usual words for |r|, said so a reader does not take a weak r for a pattern."""
    size = abs(r)
    word = "very weak" if size < 0.2 else "weak" if size < 0.4 else "moderate" if size < 0.6 else "strong" \
        if size < 0.8 else "very strong"
    return f"a {word} {'positive' if r > 0 else 'negative'} relation (a correlation, not a cause)"


def _tied(result: QueryResult) -> str:
    keys = [c for c in result.columns if c["kind"] == "dimension"]
    names = []
    for member in result.ties:
        shown = member
        if len(keys) == 1 and result.rows and f"{keys[0]['name']}_name" in result.rows[0]:
            shown = result.names.get(member, member)
        names.append(str(shown))
    return ", ".join(names)
