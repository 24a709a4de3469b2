"""A source named picks its own measures (Redfin's city figures, not the IHS summary's namesake), a month named with
one year dates a declared measure, a span with a month at one end runs from or to that month, a ZIP's home value and
an area's homicides are each read at their own grain, "in January of each year" dates a home value in each year
named, and a station's community area is said in the lead. Figures are computed here from the CSVs with plain
pandas (tests/semantic_reference.py for the homicides and Zillow values)."""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


@pytest.fixture(scope="module")
def redfin_city(data_dir):
    raw = pd.read_csv(data_dir / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    city = raw[raw["Region"] == "Chicago, IL"].copy()
    city["begin"] = pd.to_datetime(city["Period Begin"], format="%m/%d/%Y")
    city["end"] = pd.to_datetime(city["Period End"], format="%m/%d/%Y")
    return city


def test_redfin_homes_sold_for_the_city_in_one_month(ask, redfin_city):
    """"the city of Chicago" with a month: Redfin's own city row for that month, not a list of neighborhoods."""
    run = ask("According to Redfin, how many homes were sold in the city of Chicago in June 2015?")
    row = redfin_city[redfin_city["begin"] == "2015-06-01"]
    sold = int(row["Homes Sold"].iloc[0])
    args = run.calls[0].arguments
    assert not args.get("group_by") and args["measures"] == [{"measure": "redfin_homes_sold",
                                                              "period": {"month": "2015-06"}}]
    assert lead(run).startswith(f"For the whole city: {sold:,} homes sold (Redfin) in June 2015.")


def test_redfin_city_year_is_the_sum_of_its_months(ask, redfin_city):
    """The city's rows are whole months (one window each), so a year's homes sold is the sum of its twelve, where a
    neighborhood's overlapping 90-day windows are never added up."""
    run = ask("Per the Redfin data, how many homes sold in the city of Chicago in 2018 in total (adding up the monthly "
              "figures)?")
    months = redfin_city[(redfin_city["end"].dt.year == 2018) & (redfin_city["Period Duration"] == 30)]
    assert len(months) == 12
    assert f"{int(months['Homes Sold'].sum()):,} homes sold (Redfin) in 2018" in lead(run)


def test_naming_redfin_picks_its_sale_price_not_the_ihs_summary(ask, redfin_city):
    run = ask("redfin median sale price for chicago overall, july 2019?")
    shown = redfin_city[redfin_city["begin"] == "2019-07-01"]["Median Sale Price"].iloc[0]  # "$300K"
    price = int(float(shown.strip("$K")) * 1000)
    assert run.calls[0].arguments["measures"] == [{"measure": "redfin_median_sale_price",
                                                   "period": {"month": "2019-07"}}]
    assert f"${price:,}" in lead(run) and "IHS" not in lead(run)


@pytest.mark.parametrize("question, first, last", [
    ("homicides from 2015 to march 2018", "2015-01-01", "2018-03-31"),
    ("homicides from march 2015 to 2018", "2015-03-01", "2018-12-31"),
])
def test_a_span_with_a_month_at_one_end(ask, data_dir, question, first, last):
    """The month bounds its end of the span; the other end is its year's first or last day (not "every March of
    2015-2023")."""
    raw = pd.read_csv(data_dir / "homicides.csv", usecols=["Date"])
    day = pd.to_datetime(raw["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.normalize()
    want = int(((day >= first) & (day <= last)).sum())
    run = ask(question)
    assert lead(run).startswith(f"There were {want:,} homicides in Chicago from {first} to {last}")


def test_a_zip_home_value_and_an_area_homicide_change_each_at_its_own_grain(ask):
    run = ask("How much did Zillow's home value for 60621 change (in %) between Jan 2015 and Jan 2022, and how did "
              "Englewood's homicide count change from 2015 to 2022?")
    assert [c.arguments["group_by"] for c in run.calls] == [["zip"], ["community_area"]]
    before, after = ref._zhvi(2015, 1)["60621"], ref._zhvi(2022, 1)["60621"]
    counts = [int(ref._counts([y]).get(68, 0)) for y in (2015, 2022)]
    text = lead(run)
    assert f"a typical home value (Zillow ZHVI) of ${before:,.0f} in January 2015" in text
    assert f"a change of {(after / before - 1) * 100:+.1f}% from January 2015 to January 2022" in text
    assert f"Englewood (68) had {counts[0]} homicides in 2015, {counts[1]} homicides in 2022 and a drop of " \
           f"{counts[0] - counts[1]}" in text
    assert "; and homicides (2015), homicides (2022), by community area" in run.reading.line


def test_a_month_of_each_year_dates_the_home_value_in_each(ask):
    """"in January of each year" beside "between 2016 and 2022 ... in each of those years": both Januaries, and the
    homicides of the two years (not of the span between)."""
    run = ask("How did Englewood change between 2016 and 2022? I want its homicide count in each of those years and "
              "its typical home value in January of each year.")
    value = ref._ca_zhvi(2016, 1)[68], ref._ca_zhvi(2022, 1)[68]
    counts = [int(ref._counts([y]).get(68, 0)) for y in (2016, 2022)]
    text = lead(run)
    assert f"of ${value[0]:,.0f} in January 2016" in text and f"of ${value[1]:,.0f} in January 2022" in text
    assert f"{counts[0]} homicides in 2016, {counts[1]} homicides in 2022" in text


def test_the_station_community_area_is_in_the_lead(ask, data_dir):
    stations = pd.read_csv(data_dir / "police_stations.csv", dtype=str)
    areas = pd.read_csv(data_dir / "community_areas.csv")
    number = int(stations.loc[stations["DISTRICT"] == "7", "COMMUNITY AREA"].iloc[0])
    name = areas.loc[areas["area_number"] == number, "name_socioeconomic"].iloc[0]
    run = ask("What's the name of police district 7, and which community area is its station in?")
    assert f"police station, in {name}, is at" in lead(run)
