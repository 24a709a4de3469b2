"""A query in a few words, for the answer that shows how a question was read ("homicides by community area,
2019, where homicides = 0"). Built from the query's own fields and the declarations' labels; it says what was
computed, so a reader of the answer can tell whether that is what they asked."""
from __future__ import annotations

from semantic.catalog import catalog
from semantic.query import STEP_GRAINS

_OPS = {">": "over", ">=": "at least", "<": "under", "<=": "at most", "==": "equal to", "!=": "not equal to"}
_DERIVED = {"change": "change", "pct_change": "% change",
            "cagr": "yearly compound growth", "excess": "count above the city's ratio", "difference": "difference", "ratio": "ratio",
            "percent_of": "share", "sum": "sum", "share_of_total": "share of total", "rank": "rank",
            "quantile": "quantile group", "step": "change from the row before",
            "run": "rows in a row above zero"}


def _label(name: str) -> str:
    measure = catalog().measures.get(name)
    if measure is None:
        return str(name)
    label = measure.label  # lower the first word only: "typical home value (Zillow ZHVI)" keeps its source's name
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def _number(value, unit: str = "") -> str:
    """30.0 -> "30", 75000 -> "75,000", with the measure's unit: a threshold as the question wrote it ("25%",
    "$500,000")."""
    if isinstance(value, str) and value.split("*")[-1].strip() in ("city", "median", "mean"):
        # a threshold named by what it is, or a multiple of it ("2*city"; semantic/query.py)
        times, _, word = value.rpartition("*")
        said = {"city": "the city's figure", "median": "the median", "mean": "the average"}[word.strip()]
        return f"{times.strip()} times {said}" if times else said
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    text = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}".rstrip("0")
    return f"${text}" if unit == "dollars" else f"{text}%" if unit == "percent" else text


def _period(period) -> str:
    if not isinstance(period, dict):
        return str(period) if period not in (None, "") else ""
    if "start" in period or "end" in period:
        start, end = str(period.get("start", "…")), str(period.get("end", "…"))
        return f"{start}-{end}" if len(start) == len(end) == 4 else f"{start} to {end}"  # years: "2011-2015"
    for key in ("year", "years", "month", "months", "quarter", "quarters"):
        if key in period:
            value = period[key]
            return ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return ""


def _measure(item) -> str:
    if isinstance(item, str):
        return _label(item)
    if not isinstance(item, dict):
        return str(item)
    text = _label(item.get("measure", "?"))
    bits = [b for b in (_period(item.get("period")), _filters(item.get("filters"))) if b]
    return text + (f" ({'; '.join(bits)})" if bits else "")


def _filters(filters) -> str:
    out = []
    for item in filters or []:
        if not isinstance(item, dict):
            continue
        dim = str(item.get("dimension", "?")).replace("_", " ")
        if "equals" in item:
            value = item["equals"]
            known = catalog().dimensions.get(str(item.get("dimension")))
            # a yes/no attribute by its label ("holds a district police station"), not its name ("has station")
            dim = known.label[:1].lower() + known.label[1:] if known and isinstance(value, bool) else dim
            out.append(f"{dim}" if value is True else f"not {dim}" if value is False else f"{dim} {value}")
        elif "in" in item:
            out.append(f"{dim} {', '.join(map(str, item['in']))}")
        elif "not_in" in item:
            out.append(f"{dim} not {', '.join(map(str, item['not_in']))}")
        elif "between" in item:
            low, high = (list(item["between"]) + ["…", "…"])[:2]
            out.append(f"{dim} {low} to {high}")
    return "; ".join(out)


def _order(query: dict) -> str:
    order = query.get("order_by") or []
    if not order:
        return ""
    first = order[0]
    field, direction = (first, "desc") if isinstance(first, str) else (first.get("field"), first.get("direction"))
    word = "lowest" if direction == "asc" else "highest"
    named = {m.get("as"): m for m in query.get("measures") or [] if isinstance(m, dict) and m.get("as")}
    # a column named by the query ("homicides_2021") is said as its measure and period
    what = _measure(named[field]) if field in named else _label(str(field)).replace("_", " ")
    step = next((d for d in query.get("derived") or [] if isinstance(d, dict) and d.get("name") == field
                 and d.get("op") == "step"), None)
    if step is not None:  # "the highest by the rise from the month before"
        rise = "drop" if direction == "asc" else "rise"
        what = f"the {rise} in {_label(str((step.get('of') or ['?'])[0]))} from the {_grain(query)} before"
    return _ranked_words(query, word, what)


def _grain(query: dict) -> str:
    """The time grain a step runs along: the first of the grouped dimensions that has an order."""
    return next((str(g) for g in query.get("group_by") or [] if g in STEP_GRAINS), "row")


def _ranked_words(query: dict, word: str, what: str) -> str:
    limit, offset = query.get("limit"), int(query.get("offset") or 0)
    if not limit and not offset:
        return f"ordered by {what}, {word} first"
    count = f"{limit} " if limit and limit != 1 else ""
    return f"the {count}{word} by {what}" + (f", after the first {offset}" if offset else "")


def describe_query(query: dict | None, depth: int = 0) -> str:
    """One line: measures, grain, period, filters, threshold, derived columns, ordering, the set it came from."""
    if not isinstance(query, dict) or depth > 3:
        return ""
    parts = [", ".join(_measure(m) for m in query.get("measures") or [])]
    if query.get("group_by"):
        parts.append("by " + ", ".join(str(g).replace("_", " ") for g in query["group_by"]))
    for text in (_period(query.get("period")), _filters(query.get("filters"))):
        if text:
            parts.append(text)
    named = {m.get("as"): m for m in query.get("measures") or [] if isinstance(m, dict) and m.get("as")}
    for item in query.get("derived") or []:
        if isinstance(item, dict):
            pair = [named.get(f) for f in item.get("of") or []]
            word = _DERIVED.get(item.get("op"), item.get("op"))
            if len(pair) == 2 and all(pair) and pair[0].get("measure") == pair[1].get("measure") \
                    and pair[0].get("period") and pair[1].get("period") \
                    and pair[0]["period"] != pair[1]["period"]:  # one measure in two periods
                parts.append(f"{word} from {_period(pair[0]['period'])} to {_period(pair[1]['period'])}")
                continue
            of = [_measure(named[f]) if f in named else _label(str(f)) for f in item.get("of") or []]
            if item.get("op") == "step":  # "each month against the month before"
                parts.append(f"each {_grain(query)} against the {_grain(query)} before")
                continue
            parts.append(f"{word} of {' and '.join(of)}")
    for item in query.get("having") or []:
        if isinstance(item, dict) and item.get("field") in catalog().dimensions and item.get("op") == "==":
            value = item.get("value") if item.get("field") == "zip" else _number(item.get("value"))  # "zip 60647"
            parts.append(f"showing {str(item['field']).replace('_', ' ')} {value}")
        elif isinstance(item, dict):
            parts.append("where " + _bound(item, named))
    sets = [_set(g, named) for g in query.get("groups") or [] if isinstance(g, dict)]
    if sets:  # "compared: areas where ... is over the median vs at most the median (pooled over each set)"
        mean = any(isinstance(g, dict) and g.get("figure") == "mean" for g in query["groups"])
        own = {k: v for g in query["groups"] if isinstance(g, dict) and isinstance(g.get("figure_of"), dict)
               for k, v in g["figure_of"].items()}
        # a measure with nothing to pool (an index, a mean of places' values) is each set's plain mean all the same
        plain = {} if mean else {(m if isinstance(m, str) else m.get("as") or m.get("measure")): "mean"
                                 for m in query.get("measures") or [] if isinstance(m, (str, dict)) and getattr(
                                     catalog().measures.get(m if isinstance(m, str) else m.get("measure")), "agg",
                                     "") == "mean"}
        said = "; ".join(f"{str(k).replace('_', ' ')} {'pooled' if v == 'pooled' else 'as a plain ' + v}"
                         for k, v in {**plain, **own}.items())
        parts.append("compared: " + " vs ".join(sets) + (" (each set's plain mean" if mean else
                                                         " (pooled over each set") + (f"; {said})" if said else ")"))
    if _order(query):
        parts.append(_order(query))
    if query.get("totals"):
        parts.append("with their total")
    if query.get("count_share"):
        base = query.get("count_base") or []
        within = [h["field"] for h in query.get("having") or [] if h.get("field") in base]
        parts.append(f"as a share of those within {', '.join(within)}" if within else "as a share of all with a figure"
                     + (f" of {', '.join(base)}" if base else ""))
    if query.get("correlate"):
        parts.append("correlation of " + " and ".join(map(str, query["correlate"])))
    if query.get("spread"):  # "the median ... across the areas"
        parts.append("with the spread (lowest, median, highest) of " + ", ".join(_label(str(f)) for f in query["spread"])
                     + (", beside the city's own figure" if query.get("vs_city") else ""))
    if query.get("weight_by"):
        parts.append("areas weighted by the " + ("2010 census" if "2010" in str(query["weight_by"]) else "ACS 2019-2023")
                     + " population")
    if query.get("trend"):
        parts.append("a least-squares line through " + ", ".join(_label(str(f)) for f in query["trend"]))
    if isinstance(query.get("cover"), dict):
        parts.append(f"the fewest, largest first, holding {query['cover'].get('share'):g}% of the city's "
                     f"{_label(str(query['cover'].get('of')))}")
    if query.get("members_from"):
        parts.append("over: " + describe_query(query["members_from"], depth + 1))
    return ", ".join(p for p in parts if p)


def _bound(item: dict, named: dict) -> str:
    field = str(item.get("field"))
    measure = catalog().measures.get(named[field].get("measure") if field in named else field)
    value = item.get("value")
    # (a member of a dimension, a year, is written as it is: "year is at least 2001")
    shown = str(value) if field in catalog().dimensions else _number(value, measure.unit if measure is not None else "")
    return f"{_label(field).replace('_', ' ')} is {_OPS.get(item.get('op'), item.get('op'))} {shown}"


def _set(group: dict, named: dict) -> str:
    """One compared set in words: "areas where share black is over 50%", "the 5 with the lowest hardship index"."""
    if group.get("rest"):
        return "all the other areas"
    bounds = [_bound(h, named) for h in group.get("having") or [] if isinstance(h, dict)]
    order = [o for o in group.get("order_by") or [] if isinstance(o, dict)]
    if order and group.get("limit"):
        high = order[0].get("direction", "desc") == "desc"
        bounds.append(f"the {group['limit']} with the {'highest' if high else 'lowest'} "
                      f"{_label(str(order[0].get('field'))).replace('_', ' ')}")
    return "areas where " + " and ".join(bounds) if bounds and not order else " and ".join(bounds)
