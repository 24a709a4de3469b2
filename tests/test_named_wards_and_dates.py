"""A ward named by its alderperson ("Ald. Brian Hopkins' ward office"), read from the ward office file; dates
written as numbers ("6/1/2019", "2019-06-01"); the other end of a ranking asked alone ("... and the fewest?"); a
place by its position on a ranked list ("the #2 ward on that list"); a series' peak over all its months. Figures from the CSVs with plain pandas; every question runs through
the rules backend end to end."""
from __future__ import annotations

import calendar

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _offices() -> pd.DataFrame:
    offices = pd.read_csv(ref.DATA / "ward_offices.csv", dtype=str, encoding="utf-8-sig")
    return offices.assign(WARD=offices["WARD"].astype(int))


def _ward_of(surname: str) -> int:
    offices = _offices()
    return int(offices.loc[offices["ALDERMAN"].str.startswith(surname + ","), "WARD"].iloc[0])


def _area_name(area: int) -> str:
    areas = pd.read_csv(ref.DATA / "community_areas.csv")
    return dict(zip(areas["area_number"].astype(int), areas["name_socioeconomic"]))[area]


def _homicides() -> pd.DataFrame:
    raw = pd.read_csv(ref.DATA / "homicides.csv", usecols=["Date", "Ward"])
    return raw.assign(when=pd.to_datetime(raw["Date"], format="mixed"))


def test_an_alderpersons_office_zip_carries_its_home_value(ask):
    offices = _offices().set_index("WARD")
    ward = _ward_of("Hopkins")
    zip_code = str(offices.loc[ward, "ZIPCODE"]).strip()
    zhvi = pd.read_csv(ref.DATA / "property_zhvi_zip_monthly.csv")
    value = zhvi[(zhvi["RegionName"].astype(str) == zip_code) & (zhvi["Year"] == 2024) & (zhvi["Month"] == 1)]
    text = lead(ask("Ald. Brian Hopkins' ward office — what was the Zillow home value for its ZIP in January 2024?"))
    assert f"ZIP {zip_code}" in text and f"${value['price'].iloc[0]:,.0f}" in text
    assert "not include home values by ward" not in text  # the office's ZIP is the link: nothing is missing
    assert text.count("the ward office address is") == 1  # the office asked once, not twice


@pytest.mark.parametrize("wording", ["alderman Hopkins's ward", "Brian Hopkins' ward", "Ald. Hopkins' ward"])
def test_a_ward_named_by_its_alderperson(ask, wording):
    ward = _ward_of("Hopkins")
    rows = _homicides()
    count = int(((rows["Ward"] == ward) & (rows["when"].dt.year == 2022)).sum())
    text = lead(ask(f"How many homicides were there in {wording} in 2022?"))
    assert f"There were {count} homicides in ward {ward} in 2022" in text
    assert "could not use" not in text


def test_a_common_surname_alone_is_not_a_ward(ask):
    # "King" is an alderperson's surname and an ordinary word: without a title or "ward" it names nobody
    text = lead(ask("How many homicides were there in 2022 near King Drive?"))
    assert "ward" not in text.lower()


@pytest.mark.parametrize("span", ["6/1/2019 to 8/31/2019", "2019-06-01 to 2019-08-31", "6/1/19 to 8/31/19"])
def test_dates_written_as_numbers(ask, span):
    rows = _homicides()
    count = int(((rows["when"] >= "2019-06-01") & (rows["when"] < "2019-09-01")).sum())
    text = lead(ask(f"How many homicides from {span}?"))
    assert f"There were {count} homicides in Chicago from 2019-06-01 to 2019-08-31" in text


def test_a_numeric_window_start_for_redfin(ask):
    redfin = pd.read_csv(ref.DATA / "property_redfin_neighborhoods.csv")
    begin = redfin[pd.to_datetime(redfin["Period Begin"], format="%m/%d/%Y") == "2019-06-01"]
    begin = begin[begin["Homes Sold"] >= 20].sort_values("Median Sale Ppsf", ascending=False)
    top = begin.iloc[0]
    text = lead(ask("which redfin neighborhood had the highest median sale price per sq ft for the 90 days starting "
                    "6/1/2019, counting only neighborhoods with at least 20 sales in that window?"))
    assert "window starting 2019-06-01" in text
    assert top["Region"].split(" - ")[-1] in text
    assert f"${top['Median Sale Ppsf']:,.0f}" in text


def _ward_counts(year: int) -> pd.Series:
    rows = _homicides()
    counts = rows[rows["when"].dt.year == year].dropna(subset=["Ward"])["Ward"].astype(int).value_counts()
    return counts.reindex(range(1, 51), fill_value=0)


def test_the_other_end_asked_alone(ask):
    counts = _ward_counts(2020)
    most, fewest = counts.idxmax(), counts[counts == counts.min()].index.min()
    text = lead(ask("which ward had the most homicides in 2020, and the fewest?"))
    assert f"is Ward {most}, with {counts.max()} homicides" in text
    assert f"the fewest homicides in 2020 is Ward {fewest}, with {counts.min()} homicides" in text
    land = pd.read_csv(ref.DATA / "community_areas.csv").set_index("area_number")["area_sq_mi"]
    text = lead(ask("Which community area is the largest by land area and how many square miles is it? And the "
                    "smallest?"))
    assert f"{land.max():.2f}" in text and f"{land.min():.2f}" in text


def test_a_place_by_its_position_on_a_ranked_list(ask):
    counts = _ward_counts(2019).sort_values(ascending=False, kind="stable")
    second = int(counts.index[1])
    alderperson = _offices().set_index("WARD").loc[second, "ALDERMAN"]
    text = lead(ask("Top 3 wards for homicides in 2019 — what's their combined total, and who is the alderman of "
                    "the #2 ward on that list?"))
    assert f"Together they had {counts.iloc[:3].sum()} homicides in 2019" in text
    assert f"Ward {second} had {counts.iloc[1]} homicides in 2019 and alderperson: {alderperson}" in text


def test_a_zip_series_peak_over_every_month(ask):
    zhvi = pd.read_csv(ref.DATA / "property_zhvi_zip_monthly.csv")
    one = zhvi[zhvi["RegionName"].astype(str) == "60622"].dropna(subset=["price"])
    top = one.loc[one["price"].idxmax()]
    text = lead(ask("what's the highest zillow value ever recorded for zip 60622 in the file, and in what month?"))
    assert f"{calendar.month_name[int(top['Month'])]} {int(top['Year'])}" in text
    assert f"${top['price']:,.0f}" in text


def test_a_named_districts_station_area_and_its_figures(ask):
    stations = pd.read_csv(ref.DATA / "police_stations.csv", dtype=str)
    stations = stations[stations["DISTRICT"].str.strip().str.isdigit()]
    area_of = dict(zip(stations["DISTRICT"].astype(int), stations["COMMUNITY AREA"].astype(int)))
    area = area_of[7]
    rate = ref._rate(ref._years(2021), ref._acs_pop())[area]
    text = lead(ask("The 7th police district's station is in which community area, and what was that area's homicide "
                    "rate per 100,000 in 2021?"))
    assert f"{_area_name(area)} ({area}) had {rate:.1f} homicides per 100,000 residents a year in 2021" in text
    assert "cannot be computed by police district" not in text  # nothing is missing: the rate is the area's
    area = area_of[11]
    count = ref._counts(ref._years(2016, 2022))[area]
    text = lead(ask("Harrison district (11th) — the community area its station is in: hardship index, and homicides "
                    "there 2016 through 2022?"))
    assert f"{_area_name(area)} ({area}) had {count} homicides in 2016-2022 and hardship index (2008-2012) " \
           f"{ref._sm('hardship')[area]:.0f}" in text
