"""The loader types every table and the gazetteer resolves the portal's own spellings."""
import csv

import pytest

from tools.data.loader import load_data
from tools.errors import ToolArgumentError


@pytest.mark.full_data
def test_homicide_rows_and_coverage_match_raw_csv(data, data_dir):
    with open(data_dir / "homicides.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(data.homicides) == len(rows) == data.coverage["homicides"]["rows"]
    assert data.coverage["homicides"]["start"] == "2001-01-01"
    assert data.coverage["homicides"]["end"] == "2023-07-19"
    areas = data.homicides["community_area"].dropna()
    assert areas.between(1, 77).all()
    assert data.homicides["ward"].dropna().between(1, 50).all()
    assert set(data.homicides["district"].dropna().astype(int)) <= set(data.geography.districts)


def test_every_acs_row_joins_to_a_community_area(data):
    assert sorted(data.census_acs["area_number"]) == list(range(1, 78))
    austin = data.census_acs.loc[data.census_acs["area_number"] == 25, "total_population"].item()
    assert austin == 100278


def test_cache_round_trip_gives_identical_tables(settings, data_dir):
    cold = load_data(settings, use_cache=False)
    warm = load_data(settings)
    assert warm.from_cache
    for key in cold.tables:
        assert cold.tables[key].reset_index(drop=True).equals(warm.tables[key].reset_index(drop=True)), key


@pytest.mark.parametrize("spelling,number", [
    ("Montclaire", 18), ("MONTCLARE", 18), ("Humboldt park", 23), ("OHARE", 76), ("O'Hare", 76),
    ("ohare", 76), ("the Loop", 32), ("Back of the Yards", 61), ("Washington Height", 73),
    ("McKinley Park", 59), ("25", 25), (25, 25), ("Community Area 8", 8), ("lincoln park", 7),
])
def test_gazetteer_resolves_all_spellings(data, spelling, number):
    assert data.geography.resolve_area(spelling) == number


def test_unknown_area_lists_closest_matches(data):
    with pytest.raises(ToolArgumentError) as err:
        data.geography.resolve_area("Lincon Prak")
    assert "Lincoln Park" in str(err.value)
    with pytest.raises(ToolArgumentError, match="1 to 77"):
        data.geography.resolve_area(999)


def test_wards_districts_and_zips(data):
    geo = data.geography
    assert geo.check_ward(50) == 50
    with pytest.raises(ToolArgumentError, match="1 to 50"):
        geo.check_ward(99)
    with pytest.raises(ToolArgumentError, match="13, 21 and 23"):
        geo.check_district(13)
    assert {n for n, _ in geo.zip_to_areas["60614"]} >= {7}
