"""What the data says each figure of a tool result is (loop/meaning.py's Label), from the names the tools give
their values:

* subject and measure from the value's name: ``total`` and ``homicides`` count homicides (of the domestic ones
  when the call asked for those), ``arrest_rate_pct`` is the arrest rate, ``domestic`` the domestic count,
  ``rate_per_100k`` a rate, ``per_capita_income`` and ``median_income_estimate`` two different incomes,
  ``pct_households_below_poverty`` poverty, ``*_change_pct`` a change; ids (``rank``, ``community_area``,
  ``year``...) and names that say nothing give no label, and such a figure agrees with any claim;
* years: a homicide figure's are the call's (``start_year``..``end_year``), a row's ``year``, a period's
  ``start``..``end``, ``change.from``'s ``from_year``; a census count's come from its name
  (``population_2010``, ``population_acs_2023`` is 2019-2023);
* place: the one place the call asked about (none when it compared or excluded places), ``city``/
  ``citywide`` values are the city's, a row's is its area, ward, district or ZIP, and the area its ``name``
  names; a homicide count of a call with no place is the city's;
* rank: in a ranked list, the value it is ranked by (``rank_by``, a rate for the rate tool, else the one
  column that is ordered as the list is) has its position, a tie spanning the tied rows' positions (open-ended
  when the tie reaches the end of the list shown); ``peak``/``low`` are the top and bottom of a series;
  ``rank_high_to_low`` ranks an area's indicators; ``extremes`` holds the highest and lowest.

Numbers the tools write in their text are labelled by what the text says of them (loop/claims.py), the parts it
does not say taken from a value of the same result and figure that agrees.
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field, replace

from loop.meaning import Claim, Label, Places, disagreements
from tools import names

HOMICIDE_TOOLS = frozenset({names.HOMICIDES, names.AREA_RATES, names.DISTRICT_TRENDS, names.SOCIOECONOMIC_CONTEXT,
                            names.IUCR})
HOMICIDE_SUBJECTS = frozenset({"homicides", "arrests", "domestic"})
_TIME_GROUPS = frozenset({"year", "month", "weekday", "hour"})
_IDS = frozenset({"rank", "rate_rank", "community_area", "ward", "district", "zip", "year", "month", "weekday",
                  "quartile", "start_year", "end_year", "years", "areas", "groups", "places", "areas_ranked",
                  "n_areas", "from_year", "to_year", "start", "end", "code"})
# (name pattern, subjects) in priority order; the homicide tools' own counts last.
_KEY_SUBJECTS = (
    (r"domestic", "domestic"), (r"arrest", "arrests"), (r"rate_per_100k", "homicides"),
    (r"per_capita_income", "per_capita_income"), (r"median_income|median_above|household_income", "household_income"),
    (r"poverty", "poverty"), (r"unemploy", "unemployment"), (r"diploma", "no_diploma"),
    (r"under_18_or_over_64", "dependency"), (r"crowd", "crowding"), (r"hardship", "hardship"),
    (r"price_index", "price_index"), (r"home_value|sales_price", "home_value"),
    (r"white", "white"), (r"hispanic", "hispanic"),  # "white_not_hispanic" names White residents
    (r"black", "black"), (r"asian", "asian"),
    (r"american_indian|pacific|other_race|multiracial", "race_other"), (r"^(?:pct_)?age_", "age"),
    (r"population", "population"), (r"households", "households"),
)
_KEY_SUBJECTS = tuple((re.compile(pattern), subject) for pattern, subject in _KEY_SUBJECTS)
_HOMICIDE_KEY = re.compile(r"homicide|^total$|yearly_average|per_year_average|^share_pct$|share_of_city|^from$|^to$")
_CHANGE_KEY = re.compile(r"change|difference|yoy|^pct$")
_SHARE_KEY = re.compile(r"pct|percent|share|%")
_MONEY_KEY = re.compile(r"income|home_value|sales_price|median_above")
_COUNTED = frozenset({"homicides", "arrests", "domestic", "population", "households", "black", "white", "asian",
                      "hispanic", "race_other", "age"})


@functools.lru_cache(maxsize=1024)
def key_label(key: str, homicide_tool: bool) -> tuple[frozenset, str | None]:
    """(subjects, measure) a value's name gives it."""
    key = str(key).lower()
    if key in _IDS:
        return frozenset(), None
    subject = next((s for pattern, s in _KEY_SUBJECTS if pattern.search(key)), None)
    if subject is None and homicide_tool and _HOMICIDE_KEY.search(key):
        subject = "homicides"
    if subject is None:
        return frozenset(), None
    if _CHANGE_KEY.search(key):
        measure = "change"
    elif "rate_per_100k" in key:
        measure = "rate"
    elif _SHARE_KEY.search(key) or key.endswith("_rate") or subject in ("poverty", "unemployment", "no_diploma",
                                                                        "dependency", "crowding"):
        measure = "share"
    elif _MONEY_KEY.search(key):
        measure = "money"
    elif "index" in key:
        measure = "index"
    else:
        measure = "count" if subject in _COUNTED else None
    return frozenset({subject}), measure


def _years_in_name(key: str) -> tuple | None:
    m = re.search(r"acs_((?:19|20)\d\d)$", key)
    if m:
        return int(m.group(1)) - 4, int(m.group(1))
    m = re.search(r"_((?:19|20)\d\d)$", key)
    return (int(m.group(1)),) * 2 if m else None


@dataclass(frozen=True)
class _Context:
    """What a value's place in a result says of it."""

    homicide_tool: bool
    years: tuple | None = None
    places: frozenset = frozenset()
    filtered: frozenset = frozenset()  # subjects a filtered call's counts are also of ("domestic")
    rank: tuple | None = None  # for the one value named by ``ranked``
    ranked: frozenset = frozenset()


def _label(key: str, ctx: _Context) -> Label | None:
    subjects, measure = key_label(key, ctx.homicide_tool)
    if not subjects:
        return None
    if subjects == {"homicides"} and measure == "count":
        subjects = subjects | ctx.filtered
    years = ctx.years if subjects & HOMICIDE_SUBJECTS else _years_in_name(str(key).lower())
    return Label(subjects, measure, years, ctx.places, ctx.rank if key in ctx.ranked else None)


def _place_keys(row: dict, places: Places) -> frozenset:
    keys = set()
    for name, kind in (("community_area", "area"), ("ward", "ward"), ("district", "district"), ("zip", "zip")):
        value = row.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            keys.add(f"{kind}:{int(value)}")
        elif isinstance(value, str) and value.isdigit():
            keys.add(f"{kind}:{int(value)}")
    if isinstance(row.get("name"), str):
        area = places.key_of_name(re.sub(r"\s*\(\d+\)$", "", row["name"]))
        if area:
            keys.add(area)
    return frozenset(keys)


def _row_years(row: dict, ctx: _Context) -> tuple | None:
    year = row.get("year")
    if isinstance(year, int) and not isinstance(year, bool):
        return year, year
    if isinstance(row.get("start"), int) and isinstance(row.get("end"), int):
        return row["start"], row["end"]
    return ctx.years


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


# ---------------------------------------------------------------- results


@dataclass
class _Result:
    """One result being labelled."""

    values: dict
    arguments: dict
    places: Places
    tool: str
    out: list = field(default_factory=list)  # (value, Label | None)

    def context(self) -> _Context:
        v = self.values
        years = (v["start_year"], v["end_year"]) if _is_number(v.get("start_year")) and _is_number(
            v.get("end_year")) else None
        filters = v.get("filters") if isinstance(v.get("filters"), dict) else {}
        filtered = {"domestic"} if filters.get("domestic") is True else set()
        filtered |= {"arrests"} if filters.get("arrest_status") == "arrested" else set()
        return _Context(self.tool in HOMICIDE_TOOLS, years, self._place(), frozenset(filtered))

    def _place(self) -> frozenset:
        a = {**self.arguments, **(self.values.get("filters") if isinstance(self.values.get("filters"), dict) else {})}
        if a.get("compare_areas") or any(str(k).startswith("exclude") and a[k] for k in a):
            return frozenset()
        found = set()
        area = a.get("community_area")
        if area is not None:
            found.add(f"area:{int(area)}" if _is_number(area) else self.places.key_of_name(area) or "")
        found |= {f"{k}:{int(a[k])}" for k in ("ward", "district") if _is_number(a.get(k))}
        # Several areas counted together are no one place (like several wards): the label names none.
        found |= {f"area:{int(x)}" for x in a.get("community_areas") or [] if _is_number(x)}
        if a.get("zip"):
            found.add(f"zip:{a['zip']}")
        found.discard("")
        if len(found) > 1:
            return frozenset()
        if not found and self.tool in (names.HOMICIDES, names.DISTRICT_TRENDS) and not a.get("submarket"):
            return frozenset({"city"})
        return frozenset(found)

    def walk(self, node: dict, ctx: _Context) -> None:
        ranks = node.get("rank_high_to_low") if isinstance(node.get("rank_high_to_low"), dict) else {}
        of = node.get("areas_ranked") if _is_number(node.get("areas_ranked")) else None
        for key, value in node.items():
            if _is_number(value):
                here = ctx
                if key in ranks and _is_number(ranks[key]):
                    here = replace(ctx, rank=(ranks[key], ranks[key], of, "desc"), ranked=frozenset({key}))
                self.out.append((float(value), _label(key, here)))
            elif isinstance(value, dict) and key not in ("filters", "rank_high_to_low", "geography"):
                self._dict(str(key), value, ctx)
            elif isinstance(value, list) and value and all(isinstance(r, dict) for r in value):
                self.rows(value, ctx)
            else:
                self._unlabelled(value)

    def _unlabelled(self, node) -> None:
        """Numbers whose place in the result says nothing of them (filters, ids, lists of numbers)."""
        if _is_number(node):
            self.out.append((float(node), None))
        elif isinstance(node, dict):
            for value in node.values():
                self._unlabelled(value)
        elif isinstance(node, (list, tuple)):
            for value in node:
                self._unlabelled(value)

    def _dict(self, key: str, node: dict, ctx: _Context) -> None:
        if key in ("city", "citywide"):
            ctx = replace(ctx, places=frozenset({"city"}))
        elif key in ("period1", "period2"):
            ctx = replace(ctx, years=_row_years(node, ctx))
        elif key == "share_of":
            ctx = replace(ctx, filtered=frozenset())
        elif key == "city_share":  # the city's count, and the place's share of it
            if _is_number(node.get("homicides")):
                self.out.append((float(node["homicides"]), _label("homicides", replace(ctx, places=frozenset({"city"})))))
            if _is_number(node.get("share_pct")):
                self.out.append((float(node["share_pct"]), _label("share_pct", ctx)))
            return
        if key in ("peak", "low"):
            self._extreme(node, ctx, "desc" if key == "peak" else "asc")
        elif key == "change":
            self._change(node, ctx)
        elif key == "extremes":
            for metric, ends in node.items():
                for end, entry in (ends.items() if isinstance(ends, dict) else ()):
                    if isinstance(entry, dict) and _is_number(entry.get("value")):
                        here = replace(ctx, places=_place_keys(entry, self.places), ranked=frozenset({metric}),
                                       rank=(1, 1, None, "desc" if end == "highest" else "asc"))
                        self.out.append((float(entry["value"]), _label(metric, here)))
        else:
            self.walk(node, ctx)

    def _extreme(self, node: dict, ctx: _Context, order: str) -> None:
        """The top (``peak``) or bottom (``low``) entry of a series; no rank where another entry ties it."""
        key = "arrest_rate_pct" if self.values.get("rank_by") == "arrest_rate" else "homicides"
        series = [r.get(key) for r in self.values.get("breakdown") or [] if isinstance(r, dict)]
        tied = series.count(node.get(key)) > 1
        # A time series lists every year, month or weekday: its length is how many entries are ranked.
        of = len(series) if self.values.get("group_by") in ("year", "month", "weekday", "hour") else None
        here = replace(ctx, years=_row_years(node, ctx), places=_place_keys(node, self.places) or ctx.places,
                       rank=None if tied else (1, 1, of, order), ranked=frozenset({key}))
        for name, value in node.items():
            if _is_number(value):
                self.out.append((float(value), _label(name, here)))

    def _change(self, node: dict, ctx: _Context) -> None:
        for name, value in node.items():
            if not _is_number(value):
                continue
            year = node.get(f"{name}_year") if name in ("from", "to") else None
            here = replace(ctx, years=(year, year)) if _is_number(year) else replace(ctx, years=None)
            self.out.append((float(value), _label(name, here)))

    def indicator_rows(self, rows: list[dict], ctx: _Context) -> None:
        """A table of one indicator a row ("metric" or "indicator": "arrest rate %", "per capita income"), its
        columns a value, or places ("Austin", "Austin %", "Chicago")."""
        for row in rows:
            name = next(str(row[k]) for k in ("metric", "indicator") if isinstance(row.get(k), str))
            key = re.sub(r"\W+", "_", name.lower()).strip("_") + ("_%" if "%" in name else "")
            for column, value in row.items():
                if not _is_number(value) or str(column).lower().startswith("rank"):
                    self._unlabelled(value)
                    continue
                place = str(column).removesuffix("%").strip()
                places = frozenset({"city"}) if place.lower() == "chicago" else frozenset(
                    {self.places.key_of_name(place)} - {None}) or ctx.places
                self.out.append((float(value), _label(key + ("_pct" if str(column).endswith("%") else ""),
                                                      replace(ctx, places=places))))

    def rows(self, rows: list[dict], ctx: _Context) -> None:
        if any(isinstance(r.get("metric"), str) or isinstance(r.get("indicator"), str) for r in rows):
            return self.indicator_rows(rows, ctx)
        ranked, order, of = self._ranking(rows)
        positions = self._tie_spans(rows, ranked, order) if ranked else {}
        if not ranked and self.values.get("group_by") in _TIME_GROUPS and all(_is_number(r.get("homicides"))
                                                                             for r in rows):
            positions = _series_positions(rows)
            ranked, order, of = frozenset({"homicides"}), "desc", len(positions)
        for index, row in enumerate(rows):
            places = _place_keys(row, self.places)
            filtered = ctx.filtered | ({"arrests"} if row.get("arrest") is True else set())
            here = replace(ctx, years=_row_years(row, ctx), places=places or ctx.places, filtered=filtered,
                           ranked=ranked, rank=(*positions[index], of, order) if index in positions else None)
            for key, value in row.items():
                if _is_number(value):
                    self.out.append((float(value), _label(key, here)))
                elif isinstance(value, dict):
                    self.walk(value, here)
                else:
                    self._unlabelled(value)

    def _ranking(self, rows: list[dict]) -> tuple[frozenset, str, int | None]:
        """The value a ranked list is ranked by, its order and its length, or no value when it is not ranked."""
        v, a = self.values, self.arguments
        order = str(v.get("sort_order") or a.get("sort_order") or "desc")
        of = next((v[k] for k in ("areas_ranked", "groups", "places") if _is_number(v.get(k))), None)
        if not all(_is_number(r.get("rank")) for r in rows):
            return frozenset(), order, of
        if self.tool == names.HOMICIDES:
            return frozenset({"arrest_rate_pct" if v.get("rank_by") == "arrest_rate" else "homicides"}), order, of
        if self.tool == names.AREA_RATES:
            return frozenset({"rate_per_100k"}), order, of
        by = v.get("rank_by")
        if isinstance(by, str) and all(_is_number(r.get(by)) for r in rows):  # the tool says what it ranked by
            return frozenset({by}), order, of
        keys = [k for k in rows[0] if k not in _IDS and all(_is_number(r.get(k)) for r in rows)]
        ordered = [k for k in keys if _ordered([r[k] for r in rows], order)]
        hints = [str(a.get(k) or "") for k in ("metric", "group") if a.get(k)]
        hinted = [k for k in ordered if any(h and h in k for h in hints)]
        chosen = hinted or (ordered if len(ordered) == 1 else [])
        return frozenset(chosen), order, of

    @staticmethod
    def _tie_spans(rows: list[dict], ranked: frozenset, order: str) -> dict:
        """Row index -> (first, last) positions it may claim: a tie spans its rows, and is open-ended (last None)
        when it reaches the last row shown, since the next rows may tie too."""
        key = sorted(ranked)[0]
        out = {}
        for index, row in enumerate(rows):
            same = [r["rank"] for r in rows if r.get(key) == row.get(key)]
            last = None if rows[-1].get(key) == row.get(key) and len(same) > 1 else max(same)
            out[index] = (min(same), last)
        return out


def _series_positions(rows: list[dict]) -> dict:
    """Row index -> (first, last) position by homicides, most first, of a series that lists every year, month,
    weekday or hour: "the deadliest year" is its top. A year or month the data ends inside (``partial_to``) holds no
    place: "the year with the fewest" is the fewest of the full years."""
    full = [r["homicides"] for r in rows if not r.get("partial_to")]
    return {i: (1 + sum(c > r["homicides"] for c in full), sum(c >= r["homicides"] for c in full))
            for i, r in enumerate(rows) if not r.get("partial_to")}


def _ordered(values: list, order: str) -> bool:
    if len(set(values)) < 2:
        return False
    pairs = list(zip(values, values[1:]))
    return all(a >= b for a, b in pairs) if order == "desc" else all(a <= b for a, b in pairs)


def _table_rows(table: dict | None) -> list[dict]:
    columns = (table or {}).get("columns") or []
    return [dict(zip(columns, row)) for row in (table or {}).get("rows") or [] if isinstance(row, (list, tuple))]


def result_labels(result, places: Places) -> list[tuple[float, Label | None]]:
    """(value, label) for every number the result holds as a value or in its table (strings aside)."""
    labelled = _Result(result.values or {}, result.arguments or {}, places, result.tool)
    ctx = labelled.context()
    labelled.walk(result.values or {}, ctx)
    rows = _table_rows(result.table)
    if rows:
        labelled.rows(rows, ctx)
    return [(abs(value), label) for value, label in labelled.out]


def text_labels(numbers: list, claims: list, labelled: list) -> list[tuple[float, Label | None]]:
    """Labels for the numbers of a tool's own text: what the text says of each, the rest taken from each value of
    the same result and figure that agrees with it (none: the text's word alone; nothing said: unlabelled)."""
    out = []
    for number, claim in zip(numbers, claims):
        value = abs(number.value)
        said = Label.of_claim(claim) if claim else None
        same = [label for v, label in labelled if label and abs(v - value) <= number.tolerance]
        agreeing = [label for label in same if not disagreements(claim or Claim(), label)]
        if agreeing:
            out += [(value, label.filled(said) if said else label) for label in agreeing]
        else:
            out.append((value, said))
    return out


# "Fuller Park (37)", "Washington Heights (community area 73)": how the tools' texts name an area.
_NAMED_AREA = re.compile(r"\b([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})\s+\((?:community area\s+)?(\d{1,2})\)")


def places_of(results: list, gazetteer: Places | None = None) -> Places:
    """The run's place names: the gazetteer's, else those the results give their rows and filters."""
    if gazetteer is not None:
        return gazetteer
    found = Places()
    for result in results or []:
        for text in (result.summary, result.text):
            for m in _NAMED_AREA.finditer(text or ""):
                found.add(m.group(1), m.group(2))
        values = result.values or {}
        filters = values.get("filters") if isinstance(values.get("filters"), dict) else {}
        if filters.get("community_area_name"):
            found.add(filters["community_area_name"], filters.get("community_area"))
        for rows in [v for v in values.values() if isinstance(v, list)] + [_table_rows(result.table)]:
            for row in rows:
                if isinstance(row, dict) and isinstance(row.get("name"), str) and row.get("community_area"):
                    found.add(re.sub(r"\s*\(\d+\)$", "", row["name"]), row["community_area"])
    return found
