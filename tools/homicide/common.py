"""Helpers every homicide tool shares: the per-bundle location vocabulary and query cache, year handling, wording and
caveats."""
from __future__ import annotations

import difflib
import json
from collections import OrderedDict

import numpy as np
import pandas as pd

from semantic.executor import run_query
from tools.common import check_year_range, fmt_int, standing_caveat
from tools.errors import ToolArgumentError

WARD_MAP_CAVEAT = ("Ward numbers follow the ward map that was current when each record was geocoded "
                   "(2003, 2015 or 2023 boundaries), so a ward's counts mix different boundaries over time.")
SMALL_NUMBER_LIMIT = 10


# ------------------------------------------------------------------ per-bundle location vocabulary

class HomicideArrays:
    """The homicide table's kinds of place (its location descriptions), for reading and checking a location_type
    argument; every count is a query of the semantic layer."""

    def __init__(self, df: pd.DataFrame):
        self.source = df
        loc = df["location_description"]
        if not isinstance(loc.dtype, pd.CategoricalDtype):
            loc = loc.astype("category")
        self.location_types: list[str] = [str(c) for c in loc.cat.categories]
        self.location_index = {name.upper(): i for i, name in enumerate(self.location_types)}
        codes = loc.cat.codes.to_numpy(dtype=np.int32)  # -1 = missing
        counts = np.bincount(codes[codes >= 0], minlength=len(self.location_types))
        order = np.argsort(-counts, kind="stable")  # the most common first, for the suggestions of an error
        self.location_by_frequency = [self.location_types[i] for i in order if counts[i] > 0]


def homicide_arrays(data) -> HomicideArrays:
    """The bundle's location vocabulary, built on first use and rebuilt if the table object changes."""
    cached = data.__dict__.get("_homicide_arrays")
    table = data.homicides
    if cached is None or cached.source is not table:
        cached = HomicideArrays(table)
        data.__dict__["_homicide_arrays"] = cached
    return cached


QUERY_CACHE_SIZE = 512  # homicide queries a bundle keeps


def homicide_query(data, query: dict):
    """A query of the semantic layer, its result kept per bundle (the last QUERY_CACHE_SIZE asked): the homicide
    views ask the same counts again and again (the city's in each period, the rows with no place)."""
    cached = data.__dict__.get("_homicide_queries")
    if cached is None or cached[0] is not data.homicides:
        cached = data.__dict__["_homicide_queries"] = (data.homicides, OrderedDict())
    store = cached[1]
    key = json.dumps(query, sort_keys=True, default=str)
    if key in store:
        store.move_to_end(key)
        return store[key]
    result = run_query(data, query)
    store[key] = result
    if len(store) > QUERY_CACHE_SIZE:
        store.popitem(last=False)
    return result


# ------------------------------------------------------------------ shared small helpers

def number_set(values: list[int]) -> str:
    """1, 2, 3, 5 -> '1-3, 5': a set of ward or district numbers, compactly."""
    values = sorted(set(int(v) for v in values))
    runs, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            runs.append(str(start) if start == v else f"{start}-{v}")
            start = None
    return ", ".join(runs)


def places_set(values: list[int]) -> str:
    """24, 28 -> '24 and 28'; 1, 2, 3, 5 -> '1-3 and 5': wards or districts counted together, as a sentence names them."""
    runs = []
    for run in number_set(values).split(", "):
        first, _, last = run.partition("-")
        runs += [first, last] if last and int(last) == int(first) + 1 else [run]  # "10 and 11", not "10-11"
    return ", ".join(runs[:-1]) + " and " + runs[-1] if len(runs) > 1 else runs[0]


def pct(part, whole) -> float | None:
    return None if not whole else round(100.0 * float(part) / float(whole), 1)


def years_label(start: int, end: int) -> str:
    return str(start) if start == end else f"{start}-{end}"


def years_phrase(start: int, end: int) -> str:
    return f"year {start}" if start == end else f"years {start}-{end}"


def resolve_years(data, year, start_year, end_year) -> tuple[int, int]:
    """A single ``year`` or a start/end range (either end optional), checked against coverage."""
    if year is not None:
        if (start_year is not None and start_year != year) or (end_year is not None and end_year != year):
            raise ToolArgumentError("give either 'year' or 'start_year'/'end_year', not both", "conflicting_arguments")
        start_year = end_year = year
    return check_year_range(data, start_year, end_year)


def geo_missing_caveat(missing: int, what: str, start: int, end: int) -> str:
    return (f"{fmt_int(missing)} homicide rows in {years_label(start, end)} (mostly from 2001) have no {what} "
            f"recorded, so {what} figures undercount by up to that many.")


ARREST_CAVEAT = standing_caveat("Arrest flags are as of the snapshot (last updated 2023-07-27); recent cases have had "
                                "less time to be cleared, so recent arrest rates look lower.")


def district_name(data, number: int) -> str:
    return data.geography.district_names.get(int(number), "")


def location_family(arrays: HomicideArrays, code: int) -> list[int]:
    """A recorded location type with the types recorded as its own sub-kinds: those whose name is its name and more
    words ("GAS STATION DRIVE/PROP." beside "GAS STATION"). Asked about murders at gas stations, counting only the
    rows recorded as plain "GAS STATION" left out 67 of the 145."""
    name = arrays.location_types[code]
    return [code] + [i for i, other in enumerate(arrays.location_types) if other.startswith(name + " ")]


def location_codes(arrays: HomicideArrays, text: str) -> list[int]:
    """The codes a location_type names: a recorded kind with its sub-kinds, or a family no row records by its own
    name ("CHA": CHA APARTMENT, CHA HALLWAY, ... the Housing Authority's places), else the error check gives."""
    key = " ".join(str(text).upper().split())
    if key not in arrays.location_index:
        family = [i for i, other in enumerate(arrays.location_types) if other.startswith(key + " ")]
        if key and family:
            return family
    return location_family(arrays, check_location_type(arrays, text))


def check_location_type(arrays: HomicideArrays, text: str) -> int:
    key = " ".join(str(text).upper().split())
    if key in arrays.location_index:
        return arrays.location_index[key]
    close = difflib.get_close_matches(key, list(arrays.location_index), n=3, cutoff=0.6)
    close += [name for name in arrays.location_by_frequency if key and key in name and name not in close][:3]
    hint = f" Closest matches: {', '.join(close)}." if close else ""
    common = ", ".join(arrays.location_by_frequency[:12])
    raise ToolArgumentError(
        f"unknown location_type '{text}'.{hint} Most common location types: {common}.", "invalid_choice")
