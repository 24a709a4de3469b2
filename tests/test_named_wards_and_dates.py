"""A ward named by its alderperson ("Ald. Brian Hopkins' ward office"), read from the ward office file, and dates
written as numbers ("6/1/2019", "2019-06-01"). Figures from the CSVs with plain pandas; every question runs through
the rules backend end to end."""
from __future__ import annotations

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
