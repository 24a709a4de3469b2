"""Police stations (2019 vintage): each district's station, its address, ZIP and phone."""
from __future__ import annotations

from semantic.datasets.common import cached
from semantic.model import Dataset, Measure


def _frame(data):
    return data.police_stations.assign(district=data.police_stations["district"].astype(int))


def _attribute(name, label, column, words):
    return Measure(name, label, "text", "police_stations", agg="attribute", column=column, grains=("district",),
                   city="none", words=words, caveats=("Police station details are the 2019 file's.",))


DATASET = Dataset(
    "police_stations", source="police_stations", title="Police stations", time="snapshot",
    frame=lambda d: cached(d, "stations", _frame), dimensions=("district",), vintage="2019",
    coverage=lambda d: ("2019", "2019"), measures=(
        _attribute("station_name", "District name", "name", ("district name",)),
        _attribute("station_address", "Station address", "address", ("station address", "police station")),
        _attribute("station_zip", "Station ZIP", "zip", ("station zip",)),
        _attribute("station_phone", "Station phone", "phone", ("station phone",)),
    ))
