"""Police stations (2019 vintage): each district's station, its address, ZIP and phone; the department's
headquarters (the file's row that is no district's station); and which station is a community area's.

A community area's station: the one standing in it; else the station of the district named like it ("the
Englewood police station" is district 7's, which stands in West Englewood); else the station of the district most
of the area's homicide records fall in. The data has no district boundaries: the records are the only link between
areas and districts. The police-stations tool (tools/stations/tool.py) answers by this same rule.
"""
from __future__ import annotations

import pandas as pd

from semantic.datasets.common import cached
from semantic.model import Dataset, JoinPath, Measure
from semantic.names import normalize_name

VINTAGE = "Police station details are the 2019 file's."


def _frame(data):
    district = data.police_stations["district"].astype(int)

    def named(number) -> str:  # "67 (West Englewood)": the number links on (rules/compositions.py), the name is read
        try:
            return f"{int(number)} ({data.geography.area_name(int(number))})"
        except (TypeError, ValueError):
            return str(number)

    return data.police_stations.assign(district=district, station_district=district,
                                       area_named=data.police_stations["community_area"].map(named))


def _headquarters(data) -> pd.DataFrame:
    frame = data.__dict__.get("tables", {}).get("police_headquarters")
    return frame if frame is not None else pd.DataFrame(columns=["name", "address", "zip", "phone", "website"])


def serving_district(data, number: int) -> tuple[int, float] | None:
    """The district most of the area's homicide records name, and that share of the records."""
    h = data.homicides
    districts = h.loc[h["community_area"] == number, "district"].dropna()
    if districts.empty:
        return None
    counts = districts.astype(int).value_counts()
    return int(counts.index[0]), float(counts.iloc[0] / counts.sum())


def area_station(data, number: int) -> tuple[list[int], str, float]:
    """(districts, how they were matched, the share of the area's records behind a serving district) for an
    area: "located_in_area", "district_name", "serving_district", or "none" with no districts."""
    stations = cached(data, "stations", _frame)
    inside = [int(d) for d, a in zip(stations["district"], stations["community_area"])
              if not pd.isna(a) and int(a) == number]
    if inside:
        return inside, "located_in_area", 1.0
    name = normalize_name(data.geography.area_name(number))
    named = [int(d) for d, n in zip(stations["district"], stations["name"]) if normalize_name(n) == name]
    if named:
        return named, "district_name", 1.0
    serving = serving_district(data, number)
    if serving is None:
        return [], "none", 0.0
    return [serving[0]], "serving_district", serving[1]


def _area_districts(data) -> pd.DataFrame:
    rows = []
    for number in range(1, 78):
        districts, _match, share = area_station(data, number)
        rows += [(district, number, share) for district in districts]
    return pd.DataFrame(rows, columns=["district", "community_area", "weight"])


def area_districts(data) -> pd.DataFrame:
    return cached(data, "area_station_districts", _area_districts)


JOIN = JoinPath("district", "community_area", table=area_districts,
                method="an area's station is the one standing in it, else the station of the district named like it, "
                       "else that of the district most of its homicide records fall in (no district boundaries are "
                       "in the data)")


def _attribute(name, label, column, words, links_to=()):
    return Measure(name, label, "text", "police_stations", agg="attribute", column=column, grains=("district",),
                   derived_grains=("community_area",), city="none", words=words, caveats=(VINTAGE,),
                   links_to=links_to)


def _headquarters_attribute(name, label, column):
    return Measure(name, label, "text", "police_headquarters", agg="attribute", column=column, grains=("city",),
                   caveats=(VINTAGE,))


DATASET = Dataset(
    "police_stations", source="police_stations", title="Police stations", time="snapshot",
    frame=lambda d: cached(d, "semantic_stations", _frame), dimensions=("district",), vintage="2019",
    coverage=lambda d: ("2019", "2019"), measures=(
        _attribute("station_name", "District name", "name", ("district name",)),
        _attribute("station_address", "Station address", "address", ("station address", "police station")),
        _attribute("station_zip", "Station ZIP", "zip", ("station zip", "station's zip", "station zip code",
                                                        "station's zip code", "zip code of the station",
                                                        "zip of the station"), ("zip", r"\b(\d{5})\b")),
        _attribute("station_phone", "Station phone", "phone", ("station phone",)),
        _attribute("station_district", "Station's police district", "station_district", ()),
        _attribute("station_city", "Station city", "city", ()),
        _attribute("station_state", "Station state", "state", ()),
        _attribute("station_website", "Station website", "website", ()),
        _attribute("station_area", "Community area the station stands in", "area_named", (),
                   ("community_area", r"^(\d+)")),
    ))


def _standing(data) -> pd.DataFrame:
    stations = cached(data, "semantic_stations", _frame)
    return stations[stations["community_area"].notna()].assign(
        community_area=lambda f: f["community_area"].astype(int))


# Where each district's station stands, counted by community area: "how many police stations are in the 15 areas
# with the highest homicide rates" adds these up over the set (headquarters is no district's station).
STANDING = Dataset(
    "police_stations_standing", source="police_stations", title="Police stations by the community area they stand in",
    time="snapshot", frame=lambda d: cached(d, "semantic_stations_standing", _standing),
    dimensions=("community_area",), vintage="2019", coverage=lambda d: ("2019", "2019"), measures=(
        Measure("district_stations", "District police stations", "stations", "police_stations_standing",
                agg="count", grains=("city", "community_area"), caveats=(VINTAGE,),
                words=("how many police stations", "how many police district stations", "how many district stations",
                       "number of police stations", "number of district stations", "count of police stations"),
                description="district police stations whose address lies in the area (22 in all; headquarters is "
                            "not one)"),
    ))


HEADQUARTERS = Dataset(
    "police_headquarters", source="police_stations", title="Police headquarters", time="snapshot",
    frame=_headquarters, dimensions=(), vintage="2019", coverage=lambda d: ("2019", "2019"), measures=(
        _headquarters_attribute("headquarters_address", "Police headquarters address", "address"),
        _headquarters_attribute("headquarters_zip", "Police headquarters ZIP", "zip"),
        _headquarters_attribute("headquarters_phone", "Police headquarters phone", "phone"),
        _headquarters_attribute("headquarters_area", "Community area of police headquarters", "community_area"),
        _headquarters_attribute("headquarters_name", "Police headquarters name", "name"),
        _headquarters_attribute("headquarters_city", "Police headquarters city", "city"),
        _headquarters_attribute("headquarters_state", "Police headquarters state", "state"),
        _headquarters_attribute("headquarters_website", "Police headquarters website", "website"),
    ))
