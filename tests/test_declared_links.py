"""Places linked to places through the layer's declared links (``Measure.links_to``): a district's station stands in
a community area, the area lies mostly in one IHS submarket, the submarket's figure is asked. Each answer is checked
against plain pandas over the raw CSVs.

blind29 found the chain district -> station area -> IHS submarket -> a summary column flagged (no link from an area
to its submarket was declared), "the area that houses the district 11 station" read as homicides at a HOUSE, and a
district's name in brackets ("district 11 (Harrison) police station") breaking the chain.
"""
from __future__ import annotations

import pandas as pd
import pytest

from rules.compositions import LINKS
from semantic.catalog import catalog
from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _station_area(district: int) -> int:
    st = ref._stations()
    return int(st.loc[st["DISTRICT"] == str(district), "COMMUNITY AREA"].iloc[0])


def _main_submarket(area: int) -> str:
    xw = pd.read_csv(ref.DATA / "community_area_ihs_submarket_crosswalk.csv")
    rows = xw[xw["area_number"] == area].sort_values("share_of_community_area", ascending=False)
    return rows["submarket_code"].iloc[0]


def test_every_declared_link_names_a_dimension_of_the_layer():
    dimensions = set(catalog().dimensions)
    assert {"main_submarket", "main_zip", "main_community_area", "station_area"} <= set(LINKS)
    for name, (grain, target, pattern) in LINKS.items():
        assert grain in catalog().measures[name].grains and target in dimensions and pattern.groups == 1


def test_the_ihs_submarket_of_the_area_that_houses_a_district_station(ask):
    code = _main_submarket(_station_area(11))
    summary = pd.read_csv(ref.DATA / "property_ihs_price_index_summary_2025q4.csv", dtype=str)
    yoy = float(summary.loc[summary["Number"] == code, "Year-over-year change"].iloc[0].rstrip("%"))
    text = lead(ask("For the community area that houses the district 11 (Harrison) police station, what "
                    "year-over-year change does its IHS submarket show in the 2025 Q4 summary table?"))
    assert "East Garfield Park" in text and f"({code})" in text and f"{yoy:.1f}%" in text
    assert "not use" not in text and "HOUSE" not in text


def test_the_index_of_a_station_areas_submarket_in_a_year(ask):
    code = _main_submarket(_station_area(7))
    ihs = pd.read_csv(ref.DATA / "property_ihs_price_index_long.csv")
    mean = ihs[(ihs["submarket_code"] == code) & (ihs["year"] == 2020)]["index_2000q1_100"].mean()
    text = lead(ask("For the community area where the district 7 police station sits, what was its IHS submarket's "
                    "price index in 2020?"))
    assert f"of {mean:.1f} in 2020" in text


def test_houses_as_a_place_is_still_a_kind_of_place(ask):
    hom = pd.read_csv(ref.DATA / "homicides.csv", dtype=str, usecols=["Date", "Location Description"])
    year = pd.to_datetime(hom["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.year
    count = int(((year == 2020) & (hom["Location Description"] == "HOUSE")).sum())
    assert lead(ask("homicides in houses in 2020")).startswith(f"There were {count} homicides in Chicago in 2020")
