"""Police district stations: where a district's station is, with its ZIP, phone and website.

A thin view of the semantic layer: the stations, an area's station and the headquarters are queries of the
layer's police-station measures (semantic/datasets/stations.py); this module keeps the tool's schema and shapes
its answer.

One tool, ``get_police_stations``, over ``police_stations.csv`` (CPD, portal z8bn-74gv, 2019 vintage):
one station per police district, and the department's headquarters (``headquarters``). By ``district`` it answers that district's station; by
``community_area`` the station(s) standing in that area. People name a station after its district
("the Englewood police station" is district 7's, which stands in West Englewood), so an area with no
station of its own gets the station of the district named like it, else the district most of the
area's homicide records fall in (the data has no district boundaries; the records are the only link
between areas and districts, and the caveat says so). With no argument, every station is listed.
"""
from __future__ import annotations

import re

from semantic.datasets.stations import area_station
from semantic.executor import run_query
from semantic.names import normalize_name
from tools.common import AREA_SCHEMA, fit_text, make_result, rows_table
from tools.errors import ToolArgumentError
from tools.registry import Tool
from tools import names

TOOL_NAME = names.POLICE_STATIONS
COLUMNS = ["district", "name", "address", "zip", "phone", "website", "community_area", "area_name"]
VINTAGE_CAVEAT = "Station addresses and phone numbers are from the 2019 copy of the CPD Police Stations dataset."


# The fields of a station record and the layer's measures that give them (semantic/datasets/stations.py).
FIELDS = ("name", "address", "city", "state", "zip", "phone", "website", "area")


def _records(data) -> list[dict]:
    """The stations as plain dicts, from one query of the layer by district, built once per bundle."""
    cached = data.__dict__.get("_station_records")
    if cached is not None and cached[0] is data.police_stations:
        return cached[1]
    result = run_query(data, {"measures": [f"station_{f}" for f in FIELDS], "group_by": ["district"]})
    records = [{"district": int(row["district"]), **_place_record(row, "station", data.geography)}
               for row in result.rows]
    data.__dict__["_station_records"] = (data.police_stations, records)
    return records


def _place_record(row: dict, prefix: str, geo) -> dict:
    """A query row's name, address, contacts and the community area the place stands in."""
    value = {f: row.get(f"{prefix}_{f}") for f in FIELDS}
    # the layer writes the area "67 (West Englewood)": its number leads
    number = re.match(r"\s*(\d+)", str(value["area"])) if value["area"] is not None else None
    area = int(number.group(1)) if number else None
    return {**{f: value[f] for f in FIELDS if f != "area"}, "community_area": area,
            "area_name": geo.area_name(area) if area and 1 <= area <= 77 else None}


def full_address(station: dict) -> str:
    return f"{station['address']}, {station['city'] or 'Chicago'}, {station['state'] or 'IL'} {station['zip']}"


def station_line(station: dict) -> str:
    """The one-line answer: "District 7 (Englewood) police station: 1438 W 63rd St, Chicago, IL 60636; phone ..."."""
    phone = f"; phone {station['phone']}" if station["phone"] else ""
    return f"District {station['district']} ({station['name']}) police station: {full_address(station)}{phone}"


def stations_for_area(data, number: int) -> tuple[list[dict], str, list[str]]:
    """(stations, how they were matched, notes) for a community area: the station the layer's join from districts
    to areas gives it (a query by community area), and the reason from the same rule
    (semantic/datasets/stations.py)."""
    records = _records(data)
    area_name = data.geography.area_name(number)
    row = run_query(data, {"measures": ["station_district"], "group_by": ["community_area"],
                           "filters": [{"dimension": "community_area", "in": [number]}]}).rows[0]
    districts, match, share = area_station(data, number)
    chosen = [s for s in records if s["district"] == row["station_district"]]
    if match == "district_name":
        s = chosen[0]
        where = f"in {s['area_name']}" if s["area_name"] else "outside it"
        return chosen, match, [f"No police station stands in {area_name} itself; the {s['name']} "
                               f"district (district {s['district']}) station, {where}, is shown."]
    if match == "serving_district":
        district = districts[0]
        return chosen, match, [
            f"No police station stands in {area_name}; district {district}'s station is shown because "
            f"{share:.0%} of {area_name}'s homicide records fall in district {district} (the data has no "
            "district boundaries)."]
    return chosen, match, []


def resolve_district(data, value) -> int:
    """A district number from its number or its station's name ("Englewood" -> 7); errors list the valid ones."""
    if isinstance(value, int):
        return data.geography.check_district(value)
    text = normalize_name(value).removeprefix("the ").removesuffix(" district").strip()
    for station in _records(data):
        if normalize_name(station["name"]) == text:
            return station["district"]
    valid = ", ".join(f"{s['district']} ({s['name']})" for s in _records(data))
    raise ToolArgumentError(f"unknown police district {value!r}; the districts are {valid}", "out_of_range")


def _headquarters(data) -> list[dict]:
    """The department's headquarters (the stations file's row that is no district's station), from the layer."""
    frame = data.__dict__.get("tables", {}).get("police_headquarters")
    if frame is None or frame.empty:
        return []
    row = run_query(data, {"measures": [f"headquarters_{f}" for f in FIELDS]}).rows[0]
    return [_place_record(row, "headquarters", data.geography)]


def _headquarters_answer(data) -> dict:
    found = _headquarters(data)
    if not found:
        text = "The stations data lists no police headquarters."
        return dict(values={"scope": "headquarters", "count": 0, "stations": []}, text=text, summary=text)
    hq = found[0]
    where = f" (in {hq['area_name']}, community area {hq['community_area']})" if hq["area_name"] else ""
    phone = f"; phone {hq['phone']}" if hq["phone"] else "; the data lists no phone number for it"
    line = f"Chicago Police Department headquarters: {full_address(hq)}"
    text = line + where + phone + (f"; website {hq['website']}" if hq["website"] else "") + "."
    summary = f"Chicago Police Department headquarters is at {full_address(hq)}"
    return dict(values={"scope": "headquarters", "count": 1, "stations": found}, text=text, summary=summary,
                table=rows_table(found, [c for c in COLUMNS if c != "district"]))


def get_police_stations(data, district=None, community_area=None, headquarters=False):
    geo = data.geography
    records = _records(data)
    caveats, datasets, match = [VINTAGE_CAVEAT], ["police_stations"], None
    if headquarters:
        return make_result(TOOL_NAME, datasets=datasets, data=data, caveats=caveats, **_headquarters_answer(data))
    if district is not None:
        district = resolve_district(data, district)
        chosen = [s for s in records if s["district"] == district]
        if community_area is not None:
            number = geo.resolve_area(community_area)
            if chosen[0]["community_area"] != number:
                caveats.append(f"The district {district} station stands in {chosen[0]['area_name']}, not in "
                               f"{geo.area_name(number)}; the district was answered.")
        scope = "district"
    elif community_area is not None:
        number = geo.resolve_area(community_area)
        chosen, match, notes = stations_for_area(data, number)
        caveats += notes
        if match == "serving_district":
            datasets.append("homicides")
        scope = "area"
    else:
        chosen, scope = records, "all"
    return make_result(TOOL_NAME, datasets=datasets, data=data, caveats=caveats,
                       **_answer(chosen, scope, match, community_area, geo))


def _answer(chosen: list[dict], scope: str, match, community_area, geo) -> dict:
    values = {"scope": scope, "count": len(chosen), "stations": chosen, "match": match}
    table = rows_table(chosen, COLUMNS)
    if scope == "all":
        head = [f"{len(chosen)} Chicago police district stations (district, name, address, phone):"]
        items = [f"{station_line(s)}" for s in chosen]
        compact = [f"District {s['district']} ({s['name']}): {s['address']}, {s['zip']}" for s in chosen]
        text = fit_text(head, items, [], compact)
        summary = (f"Chicago has {len(chosen)} police district stations, districts {chosen[0]['district']}-"
                   f"{chosen[-1]['district']}; each one's address and phone is in the table")
        return dict(values=values, text=text, summary=summary, table=table)
    if not chosen:
        name = geo.area_name(geo.resolve_area(community_area))
        text = f"No police station is linked to {name} in the data."
        return dict(values=values, text=text, summary=text, table=table)
    lines = [station_line(s) + (f"; website {s['website']}" if s["website"] else "")
             + (f" (in {s['area_name']}, community area {s['community_area']})" if s["area_name"] else "")
             for s in chosen]
    # The summary says where the station stands: "the station in the near north side" is answered with the area
    # named, a station named for another area ("Englewood", in West Englewood) says so, and "which community area is
    # its station in" is answered in the lead.
    summary = "; ".join(station_line(s) + (f" (in {s['area_name']})" if s["area_name"] else "") for s in chosen)
    return dict(values=values, text="\n".join(lines), summary=summary, table=table)


# ------------------------------------------------------------------ registration

def register(registry) -> None:
    registry.register(Tool(
        name=TOOL_NAME,
        label="Police stations",
        description=("Chicago police district stations: address, ZIP, phone, website; by district number or "
                     "community area, or all stations."),
        parameters={
            "type": "object",
            "properties": {
                "district": {"type": ["integer", "string"], "description": "police district number (e.g. 7) or name"},
                "community_area": {**AREA_SCHEMA, "description": "community area name or number: its station"},
                "headquarters": {"type": "boolean",
                                 "description": "true = the police department's headquarters, not a district station"},
            },
            "required": [],
        },
        fn=get_police_stations,
        domain="police_stations",
    ))
