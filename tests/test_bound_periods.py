"""Each part of a question with its own period (analyzer/bound_periods.py): "how many homicides in 2020 and what
percent of 2016-2022 homicides there led to an arrest" had been read as one span, 2016-2022, and the 2020 count
never given. Also: a district found by where its station stands. Figures are computed here from the CSVs with plain pandas, not through the app's loaders."""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _arrest_rate(rows) -> str:
    return f"{rows.arrested.mean() * 100:.1f}%"


def test_a_ranked_area_gets_each_measure_over_its_own_period(ask, raw):
    top = ref._rank(ref._sm("no_hs"), 1)[0]
    here = raw[raw.area == top]
    run = ask("In the community area with the highest percentage of adults lacking a high school diploma, how many "
              "homicides were there in 2020 and what percent of 2016-2022 homicides there led to an arrest?")
    text = lead(run)
    assert f"{(here.year == 2020).sum()} homicides in 2020" in text
    assert f"arrest rate of {_arrest_rate(here[here.year.between(2016, 2022)])} in 2016-2022" in text
    assert f"({top})" in text


def test_a_named_area_gets_each_measure_over_its_own_period(ask, raw):
    austin = raw[raw.area == 25]
    run = ask("How many homicides were there in Austin in 2020, and what percent of 2016-2022 homicides in Austin "
              "led to an arrest?")
    text = lead(run)
    assert f"{(austin.year == 2020).sum()} homicides in 2020" in text
    assert f"an arrest rate of {_arrest_rate(austin[austin.year.between(2016, 2022)])} in 2016-2022" in text


def test_the_ranking_keeps_its_year_and_the_follow_up_its_span(ask, raw):
    """"The area with the most homicides in 2021, its arrest rate over 2016-2020": ranked by 2021 alone (a 2016-2020
    ranking had named the wrong year's leader and given the span's count)."""
    counted = raw[(raw.year == 2021) & raw.area.notna()].area.value_counts()
    top = int(counted.index[0])
    assert counted.iloc[0] > counted.iloc[1]  # no tie at the top
    here = raw[raw.area == top]
    text = lead(ask("In the community area with the most homicides in 2021, what was the arrest rate over "
                    "2016-2020?"))
    assert f"({top}), with {counted.iloc[0]} homicides in 2021" in text
    assert f"arrest rate of {_arrest_rate(here[here.year.between(2016, 2020)])} in 2016-2020" in text


def test_a_ward_ranked_over_a_span_is_counted_in_a_later_year(ask, raw):
    counted = raw[raw.year.between(2016, 2018) & raw.ward.notna()].ward.value_counts()
    top = int(counted.index[0])
    assert counted.iloc[0] > counted.iloc[1]
    text = lead(ask("Which ward had the most homicides in 2016-2018, and how many homicides did it have in 2022?"))
    assert f"Ward {top}, with {counted.iloc[0]} homicides in 2016-2018 and " \
           f"{((raw.ward == top) & (raw.year == 2022)).sum()} homicides in 2022" in text


def test_one_measure_over_two_periods_is_left_to_the_comparison(ask):
    """The same measure in two clauses without a ranking is a comparison, read as before (both years and the
    change), not two bound columns."""
    run = ask("How many homicides did Austin have in 2019, and how many homicides did it have in 2022?")
    assert not run.analysis.bound_periods


@pytest.mark.parametrize("area_name, area", [("West Englewood", 67), ("Austin", 25)])
def test_the_district_whose_station_stands_in_an_area_is_counted(ask, raw, data_dir, area_name, area):
    """"The police district whose station is located in West Englewood": district 7 (its station's community area
    in police_stations.csv), not West Englewood's own homicides."""
    stations = pd.read_csv(data_dir / "police_stations.csv", dtype=str)
    district = int(stations.loc[stations["COMMUNITY AREA"].astype(float) == area, "DISTRICT"].iloc[0])
    text = lead(ask(f"How many homicides were there in 2021 in the police district whose station is located in the "
                    f"{area_name} community area?"))
    assert f"There were {((raw.district == district) & (raw.year == 2021)).sum()} homicides in police district " \
           f"{district} " in text
