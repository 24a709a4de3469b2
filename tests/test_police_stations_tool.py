"""get_police_stations against police_stations.csv (and homicides.csv for the area fallback) read with
pandas.read_csv (never the tool's code)."""
import pandas as pd
import pytest

from analyzer.question import analyze_question
from loop.argument_constraints import admitted_tools
from rules.collaborator import Planner

TOOL = "get_police_stations"


@pytest.fixture(scope="module")
def stations(data_dir):
    df = pd.read_csv(data_dir / "police_stations.csv", dtype=str)
    df = df[df["DISTRICT"].str.isdigit()].copy()  # the Headquarters row is no district station
    df["d"] = df["DISTRICT"].astype(int)
    return df.set_index("d")


def run(registry, **args):
    return registry.run(TOOL, args)


def test_district_7_station(registry, stations):
    row = stations.loc[7]
    result = run(registry, district=7)
    assert result.ok, result.error
    (station,) = result.values["stations"]
    assert station["address"] == row["ADDRESS"].strip() == "1438 W 63rd St"
    assert station["zip"] == row["ZIP"] and station["phone"] == row["PHONE"] and station["website"] == row["WEBSITE"]
    assert station["name"] == row["DISTRICT NAME"] == "Englewood"
    # the area the station stands in (from the CSV's COMMUNITY AREA, 67): the Englewood station is not in Englewood
    assert row["COMMUNITY AREA"] == "67"
    assert result.summary == ("District 7 (Englewood) police station: 1438 W 63rd St, Chicago, IL 60636; "
                              "phone 312-747-8223 (in West Englewood)")
    assert row["WEBSITE"] in result.text


@pytest.mark.parametrize("district", [1, 12, 25])
def test_every_field_matches_the_csv(registry, stations, district):
    row = stations.loc[district]
    (station,) = run(registry, district=str(district)).values["stations"]
    assert station["address"] == row["ADDRESS"].strip()  # district 12's address ends in a newline in the file
    assert station["community_area"] == int(row["COMMUNITY AREA"])
    assert station["phone"] == row["PHONE"]


def test_district_by_name_and_bad_districts(registry, stations):
    assert run(registry, district="Englewood").values["stations"][0]["district"] == 7
    for bad in (13, "seven"):
        result = run(registry, district=bad)
        assert not result.ok
        message = result.error["message"]
        for number in stations.index:
            assert str(number) in message
    assert "1 (Central)" in run(registry, district="seven").error["message"]


def test_area_with_its_own_station(registry, stations):
    austin = run(registry, community_area="Austin")
    assert austin.ok and austin.values["match"] == "located_in_area"
    expected = stations[stations["COMMUNITY AREA"].astype(int) == 25]
    assert [s["district"] for s in austin.values["stations"]] == list(expected.index) == [15]
    assert expected.loc[15, "ADDRESS"] in austin.summary


def test_area_named_like_a_district(registry, stations):
    """Englewood (68) has no station; the Englewood district's (7) stands in West Englewood (67)."""
    assert (stations["COMMUNITY AREA"].astype(int) == 68).sum() == 0
    result = run(registry, community_area="Englewood")
    assert result.values["match"] == "district_name"
    assert result.values["stations"][0]["district"] == 7 and "1438 W 63rd St" in result.summary
    assert any("No police station stands in Englewood" in c for c in result.caveats)


def test_area_served_by_the_district_of_most_homicide_records(registry, stations, data_dir):
    h = pd.read_csv(data_dir / "homicides.csv", usecols=["District", "Community Area"]).dropna()
    in_area = h[h["Community Area"].astype(float).astype(int) == 41]["District"].astype(float).astype(int)
    top = in_area.value_counts().idxmax()
    result = run(registry, community_area="Hyde Park")
    assert result.values["match"] == "serving_district"
    assert result.values["stations"][0]["district"] == top
    assert stations.loc[top, "ADDRESS"].strip() in result.summary
    share = f"{in_area.value_counts().max() / len(in_area):.0%}"
    assert any(share in c for c in result.caveats)


def test_all_stations(registry, stations):
    result = run(registry)
    assert result.ok and result.values["count"] == len(stations) == 22
    assert [row[0] for row in result.table["rows"]] == sorted(stations.index)
    assert "District 7 (Englewood)" in result.text


@pytest.mark.parametrize("question, args", [
    ("Where is the police station for district 7?", {"district": 7}),
    ("address of the Englewood police station", {"community_area": 68}),
    ("What's the phone number of the Austin police station?", {"community_area": 25}),
    ("list the police stations", {}),
])
def test_questions_draft_the_station_tool(registry, question, args):
    analysis = analyze_question(question, registry.data)
    assert "police_stations" in analysis.domains
    drafted = Planner(registry.data).next_calls(analysis, [], 4)
    assert drafted == [(TOOL, args)]
    assert TOOL in admitted_tools(analysis, registry.domains(), [])


def test_police_headquarters_is_its_own_answer(registry, data_dir):
    # The loader dropped the file's Headquarters row, and "where is police headquarters" got every district station.
    raw = pd.read_csv(data_dir / "police_stations.csv", dtype=str)
    hq = raw[raw["DISTRICT"] == "Headquarters"]
    if hq.empty:
        pytest.skip("this data folder's stations file has no headquarters row")
    row = hq.iloc[0]
    result = registry.run("get_police_stations", {"headquarters": True})
    assert result.ok and result.values["scope"] == "headquarters"
    assert result.summary == f"Chicago Police Department headquarters is at {row['ADDRESS']}, Chicago, IL {row['ZIP']}"
    assert "no phone number" in result.text  # the file gives none; the answer says so rather than inventing one
    assert len(registry.run("get_police_stations", {}).values["stations"]) == \
        int(pd.to_numeric(raw["DISTRICT"], errors="coerce").notna().sum())  # districts only, as before


def test_a_headquarters_question_asks_for_it(data):
    assert analyze_question("Where is Chicago Police headquarters located?", data).police_headquarters
    assert not analyze_question("where is the district 7 police station", data).police_headquarters
