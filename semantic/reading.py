"""Reading a question into a query from the declarations' own words: the measures' words, the places the
question analyzer found, and its years. No word list lives here; a new measure's words are its declaration's.

This first reader answers what no other reading covers (a ward's alderperson, Redfin's sales figures): the
question analyzer calls it only when it found no subject of its own and none the data lacks.
"""
from __future__ import annotations

import functools
import re

from semantic.catalog import catalog, public_measures
from semantic.dimensions import PLACE_GRAINS


def _normal(text: str) -> str:
    # "the 2nd ward's office" names the ward office: a possessive joins the words it sits between
    return " " + re.sub(r"[^a-z0-9$]+", " ", re.sub(r"['’]s\b", "", str(text).lower())).strip() + " "


def measures_named(text: str) -> list[tuple[str, str]]:
    """(measure, word) for each declared measure whose word the question uses; a longer word wins its span."""
    low = _normal(text)
    found: list[tuple[int, int, str, str]] = []
    for name in public_measures():
        for word in catalog().measures[name].words:
            key = _normal(word)
            start, plural = low.find(key), low.find(key[:-1] + "s ")  # "alderpersons" is the word's plural
            if start < 0 and plural >= 0:
                start, key = plural, key[:-1] + "s "
            if start >= 0:  # (the span without the spaces around it: adjacent words do not overlap)
                found.append((start + 1, start + len(key) - 1, name, word))
    sources = sources_named(low)
    of_source = [f for f in found if catalog().measures[f[2]].dataset in sources]
    if of_source:  # the same words in two sources ("median sale price"): the named source's measure
        # (a longer word still wins its span: "which IHS submarket is it in" is the area's submarket, not the index)
        found = [f for f in found if f in of_source or not any(
            f[0] < g[1] and g[0] < f[1] and g[1] - g[0] >= f[1] - f[0] for g in of_source)]
    elif sources and not found:  # "Redfin's figures for Logan Square": the source's first measure is its figure
        name = next(m.name for m in catalog().datasets[sorted(sources)[0]].measures)
        found = [(0, 0, name, catalog().measures[name].label)]
    found.sort(key=lambda f: (-(f[1] - f[0]), f[0]))
    taken: list[tuple[int, int]] = []
    out: list[tuple[str, str]] = []
    for start, end, name, word in found:
        if any(start < b and a < end for a, b in taken) and not any(n == name for n, _ in out):
            # the same words can name several measures ("median sale price": Redfin's and the IHS summary's)
            if not any(w == word for _, w in out):
                continue
        taken.append((start, end))
        if all(n != name for n, _ in out):
            out.append((name, word))
    return out


@functools.lru_cache(maxsize=64)
def words_re(name: str) -> re.Pattern:
    """A measure's declared words as one pattern over the question's own text: any spacing or punctuation between
    the words ("sq. miles"), a plural ending."""
    words = sorted((w for w in catalog().measures[name].words), key=len, reverse=True)
    return re.compile("|".join(r"\b" + r"[\W_]+".join(re.escape(t) for t in re.findall(r"[a-z0-9$]+", w.lower()))
                               + r"(?:s|es)?\b" for w in words), re.I)


def declared_spans(text: str, names) -> list[tuple[str, int, int]]:
    """(measure, start, end) for the first use of each named measure's declared words in the question, a longer
    match winning the characters it shares with a shorter one ("homicides per square mile" over "square mile")."""
    found = [(m.start(), m.end(), name) for name in names for m in [words_re(name).search(text)] if m]
    found.sort(key=lambda f: (f[0] - f[1], f[0]))
    kept: list[tuple[int, int, str]] = []
    for start, end, name in found:
        if not any(start < b and a < end for a, b, _ in kept):
            kept.append((start, end, name))
    return [(name, start, end) for start, end, name in sorted(kept)]


def sources_named(low: str) -> set[str]:
    """The datasets whose source the question names ("according to Redfin"): their measures, not a namesake's."""
    return {d.name for d in catalog().datasets.values() if any(_normal(w) in low for w in d.words)}


# "the city of Chicago", "Chicago overall", "citywide": the whole city, where a measure has the source's city figure.
_CITY_RE = re.compile(r"\b(?:city\s+of\s+chicago|chicago\s+(?:overall|as\s+a\s+whole|city\s?wide|in\s+total)|"
                      r"city[\s-]?wide|(?:the\s+)?(?:whole|entire)\s+city|all\s+of\s+chicago|for\s+chicago|in\s+chicago|in\s+total)\b")
# A question over the places themselves ("which neighborhood", "by neighborhood"): not the city's one figure.
_OVER_PLACES_RE = re.compile(r"\b(?:neighbou?rhoods|which|each|every|by\s+neighbou?rhood|most|least|highest|lowest)\b")


def words_named(text: str) -> list[str]:
    """Every declared measure word the question uses (for the words a reading has used)."""
    low = _normal(text)
    sources = {w for d in catalog().datasets.values() for w in d.words if _normal(w) in low}  # "on redfin"
    # a dimension's own phrases ("the 90-day window starting"); its single words ("area", "year") say nothing
    sources |= {w for d in catalog().dimensions.values() for w in d.words if " " in w and _normal(w) in low}
    return sorted({w for name in public_measures() for w in catalog().measures[name].words
                   if _normal(w) in low or _normal(w)[:-1] + "s " in low} | sources, key=len, reverse=True)


def _members_in_text(text: str, data, grain: str) -> list:
    """Members of a grain the analyzer does not know (Redfin's neighborhoods), found by name."""
    dimension = catalog().dimensions[grain]
    low = _normal(text)
    names = sorted((str(m) for m in dimension.members(data)), key=len, reverse=True)
    found = []
    for name in names:
        key = _normal(name)
        if key in low:
            found.append(name)
            low = low.replace(key, " ")
    return found


def attributes_query(text: str, places: dict, data, ranked: str | None = None) -> dict | None:
    """The names and addresses a question asks of the places it names, beside its other subjects ("homicides in ward
    28 in 2022 and who's the alderman"): the attribute measures it names at a grain it names members of. ``ranked``:
    a grain the question ranks instead ("the top 3 wards for homicides, and their alderpersons"): the measures at that
    grain, with no members (the ranking picks them)."""
    if data is None:
        return None
    cat = catalog()
    named = [cat.measures[name] for name, _ in measures_named(text) if cat.measures[name].agg == "attribute"]
    for grain, members in places.items():
        fits = [m.name for m in named if grain in m.grains]
        if fits and members:
            return {"measures": fits, "group_by": [grain], "filters": [{"dimension": grain, "in": list(members)}]}
    fits = [m.name for m in named if ranked in m.grains] if ranked else []
    return {"measures": fits, "group_by": [ranked]} if fits else None


def declared_query(text: str, places: dict, years: list, data, months: list = (),
                   window_start: str = "") -> dict | None:
    """The query a question asks for in the declarations' words, or None where it names no declared measure.

    ``places``: grain -> members the question analyzer found ({"ward": [42], "community_area": [31]}).
    The grain chosen is the one the most named measures exist at, preferring one the question names members of.
    """
    named = measures_named(text)
    if not named or data is None:
        return None
    cat = catalog()
    measures = [cat.measures[name] for name, _ in named]
    best, best_key = None, None
    for grain in PLACE_GRAINS:
        fits = [m for m in measures if grain in m.grains]
        if not fits:
            continue
        members = list(places.get(grain) or [])
        if not members and grain not in places and cat.dimensions[grain].resolve is not None \
                and grain == "redfin_neighborhood":
            members = _members_in_text(text, data, grain)
        key = (len(fits), bool(members))
        if best_key is None or key > best_key:
            best, best_key = (grain, fits, members), key
    if best is None:
        return None
    grain, fits, members = best
    if grain == "redfin_neighborhood" and not members and places.get("community_area"):
        # "Redfin's price in Riverdale": the area named, asked as a neighborhood; the layer says it is not one (every
        # neighborhood listed answered another question)
        members = [data.geography.area_name(n) for n in places["community_area"]]
    query: dict = {"measures": [m.name for m in fits], "group_by": [grain]}
    if members:
        query["filters"] = [{"dimension": grain, "in": members}]
    elif all(m.city == "published" for m in fits) and _CITY_RE.search(text.lower()) \
            and not _OVER_PLACES_RE.search(text.lower()):
        query["group_by"] = []  # the source's own city figure
    timed = [m for m in fits if cat.datasets[m.dataset].time != "snapshot"]
    if window_start and timed and all("window_start" in cat.datasets[m.dataset].dimensions for m in timed):
        # "the 90-day window starting Jan 1 2012": the one window that begins that day (its date is its end)
        query["filters"] = query.get("filters", []) + [{"dimension": "window_start", "equals": window_start}]
        return query
    if years and timed:
        years = sorted(set(int(y) for y in years))
        # a month named with one year: that month ("in June 2015"), not the year
        month_dim = all("month" in cat.datasets[m.dataset].dimensions for m in timed)
        query["period"] = {"months": [f"{years[0]}-{int(mo):02d}" for mo in months]} \
            if months and len(years) == 1 and month_dim else {"years": years}
        one = query["period"].get("months") or query["period"]["years"]
        if len(one) == 1:  # one month (year): each timed figure's own period, which its sentence then says
            key = "month" if "months" in query["period"] else "year"
            query["measures"] = [{"measure": m.name, "period": {key: one[0]}} if m in timed else m.name for m in fits]
            del query["period"]
    return query


# A bound written before a measure's words: "with at least 10 homes sold", "more than 50 sales"
_BOUND_BEFORE = {"at least": ">=", "no fewer than": ">=", "a minimum of": ">=", "more than": ">", "over": ">",
                 "fewer than": "<", "less than": "<", "under": "<", "at most": "<=", "no more than": "<="}
_BOUND_RE = re.compile(r"\b(" + "|".join(sorted(_BOUND_BEFORE, key=len, reverse=True)).replace(" ", r"\s+") +
                       r")\s+(\d{1,3}(?:,\d{3})+|\d+)\s+", re.I)


def measure_bounds(text: str, names: list) -> list[dict]:
    """The having each bound written just before a measure's own words makes ("among neighborhoods with at least 10
    homes sold": homes sold >= 10)."""
    out = []
    for m in _BOUND_RE.finditer(text):
        for name in names:
            words = words_re(name).match(text, m.end())
            if words:
                op = _BOUND_BEFORE[re.sub(r"\s+", " ", m.group(1).lower())]
                out.append({"field": name, "op": op, "value": int(m.group(2).replace(",", "")), "span": (m.start(),
                                                                                                      words.end())})
    return out


def ranked_query(query: dict, order: str, top_n: int | None, text: str = "") -> dict:
    """A declared query over all the places of a grain, ranked ("the largest community area by land area", "the 3
    smallest"): ordered by its first measure no bound is written on, the top ``top_n`` (one where none is said),
    among the places the bounds keep ("among neighborhoods with at least 10 homes sold, the highest list price"). A
    query that names its members, or the city's one figure, is returned as it is."""
    filtered = any(f.get("dimension") in PLACE_GRAINS for f in query.get("filters", []))
    if filtered or not query.get("group_by") or query.get("order_by"):
        return query
    names = [m if isinstance(m, str) else m.get("as") or m["measure"] for m in query["measures"]]
    bounds = measure_bounds(text, names) if text else []
    ranked = next((n for n in names if all(b["field"] != n for b in bounds)), names[0])
    having = [{k: v for k, v in b.items() if k != "span"} for b in bounds]
    return {**query, "order_by": [{"field": ranked, "direction": order}], "limit": top_n or 1,
            **({"having": having} if having else {})}


def member_ranked(query: dict, direction: str = "desc") -> dict:
    """"Austin's rank in homicides per square mile among community areas": the declared measure over every member of
    the grain, each one's rank, and the one named member's row. A query naming no single member is returned as it
    is."""
    filters = query.get("filters") or []
    place = [f for f in filters if f.get("dimension") in PLACE_GRAINS and len(f.get("in") or []) == 1]
    if len(place) != 1 or query.get("group_by") != [place[0]["dimension"]] or query.get("order_by"):
        return query
    grain, member = place[0]["dimension"], place[0]["in"][0]
    first = query["measures"][0]
    ranked = first if isinstance(first, str) else first.get("as") or first["measure"]
    # "where does Englewood rank on % change in home value from Jan 2014 to Jan 2024": a change asked is what ranks
    changes = [d for op in ("pct_change", "change") for d in query.get("derived", []) if d.get("op") == op]
    ranked = changes[0]["name"] if changes else ranked
    way = {"direction": "asc"} if direction == "asc" else {}
    # "where does Humboldt Park rank for the homicide rate? and for home values?": each figure asked has its rank
    others = [] if changes else [f for f in (m if isinstance(m, str) else m.get("as") or m["measure"]
                                             for m in query["measures"][1:]) if _rankable(f, query)]
    return {**query, "filters": [f for f in filters if f is not place[0]],
            "derived": [*query.get("derived", []), {"name": "rank", "op": "rank", "of": [ranked], **way},
                        *({"name": f"rank_{f}", "op": "rank", "of": [f], **way} for f in others)],
            "having": [*query.get("having", []), {"field": grain, "op": "==", "value": member}]}


def _rankable(field: str, query: dict) -> bool:
    """A column of numbers (not a name, an address or a link), counted or measured over the places."""
    spec = next((m for m in query["measures"] if (m if isinstance(m, str) else m.get("as") or m["measure"]) == field))
    measure = catalog().measures.get(spec if isinstance(spec, str) else spec["measure"])
    return measure is not None and measure.unit not in ("text", "")


def time_ranked(query: dict, grain: str, order: str, top_n: int | None, total: bool = False) -> dict | None:
    """"Which month of 2017 had the most homes sold (Redfin)": the declared measures over a time grain their
    datasets have, ordered, the top ``top_n`` (one where none is said); None where a dataset lacks the grain.
    ``total``: the sum is asked too ("how many in 2018 in total, and which month had the most"): every member in
    order, with the total."""
    cat = catalog()
    names = [m if isinstance(m, str) else m["measure"] for m in query["measures"]]
    if not all(grain in cat.datasets[cat.measures[n].dataset].dimensions for n in names):
        return None
    first = query["measures"][0]
    field = first if isinstance(first, str) else first.get("as") or first["measure"]
    if total:
        return {**query, "group_by": [grain], "order_by": [{"field": field, "direction": order}], "totals": True}
    return {**query, "group_by": [grain], "order_by": [{"field": field, "direction": order}], "limit": top_n or 1}


def two_periods(query: dict, periods: list) -> dict:
    """"Homes sold in 2016 vs 2018, and the % change": each measure once per period (a year, or a period dict such
    as one day), side by side, with the change and the percent change between (a sum over both answered another
    question)."""
    timed = [m if isinstance(m, str) else m["measure"] for m in query["measures"]]
    cat = catalog()
    if len(periods) != 2 or any(cat.datasets[cat.measures[n].dataset].time == "snapshot" for n in timed):
        return query
    measures, derived = [], []
    for name in timed:
        keys = [str(p if not isinstance(p, dict) else p.get("start")).replace("-", "_") for p in periods]
        pair = [f"{name}_{k}" for k in keys]
        measures += [{"measure": name, "period": p if isinstance(p, dict) else {"year": p}, "as": a}
                     for p, a in zip(periods, pair)]
        derived += [{"name": f"{name}_change", "op": "change", "of": pair},
                    {"name": f"{name}_pct_change", "op": "pct_change", "of": pair}]
    out = {k: v for k, v in query.items() if k != "period"}
    return {**out, "measures": measures, "derived": derived}
