"""Shapes a fresh blind set (blind20) found answered as a nearby question: a threshold named by what it is ("above
the city's rate", "above the median area's value"); a change bounded by a value ("lost more than 10% of their
population", "values climbed more than 40%"); two conditions at once; a set's pooled arrest rate; a place's figure as
a multiple of the city's; a measure asked at a grain or from a survey the data does not publish it at (said in the
lead, not answered at another grain); a district's name in brackets. Figures are computed here from the CSVs with
plain pandas (tests/semantic_reference.py), not through the app's loaders."""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _city_pci(data_dir) -> float:
    socio = pd.read_csv(data_dir / "socioeconomic.csv")
    socio.columns = [c.strip() for c in socio.columns]
    return float(socio.loc[socio["Community Area Number"].isna(), "PER CAPITA INCOME"].iloc[0])


def test_areas_over_the_city_s_own_rate(ask):
    rates = ref._rate((2022,), ref._acs_pop())
    city = ref._city_count((2022,)) / ref._acs_pop().sum() * 100000
    over = rates[rates > city].index
    run = ask("How many community areas had a 2022 homicide rate higher than Chicago's overall 2022 rate, and how "
              "many residents (2019-2023 ACS) live in those areas?")
    text = lead(run)
    # The reading names the bound by what it is (it said "above 0 per 100,000": the number a reference has not).
    assert run.reading.places == ["the community areas with homicides per 100,000 residents above the city's figure"]
    assert f"There are {len(over)} community areas with more than the city's {city:.1f} homicides" in text
    assert f"the city's {city:.1f}" in text
    assert f"{int(ref._acs_pop()[over].sum()):,} residents" in text


def test_areas_over_the_median_home_value(ask):
    values = ref._ca_zhvi(2024, 9)
    over = values[values > values.median()].index
    text = lead(ask("Neighborhoods with Sept 2024 Zillow values above the median community area's value -- how many "
                    "homicides did they have in total in 2022?"))
    assert f"they had {int(ref._counts((2022,))[over].sum()):,} homicides in 2022" in text
    assert "over the median" in text


def test_the_share_of_homicides_in_areas_richer_than_the_city(ask, data_dir):
    pci = ref._sm("income")
    over = pci[pci > _city_pci(data_dir)].index
    years = ref._years(2016, 2022)
    share = ref._counts(years)[over].sum() / ref._city_count(years) * 100
    text = lead(ask("What share of Chicago's 2016-2022 homicides happened in community areas whose per-capita income "
                    "(2008-2012) was above the city-wide per-capita income of $28,202?"))
    assert f"({share:.1f}% of the city's" in text


def test_areas_that_lost_more_than_a_tenth_of_their_residents(ask):
    change = (ref._acs_pop() - ref._pop2010()) / ref._pop2010() * 100
    lost = change[change < -10].index
    years = ref._years(2019, 2022)
    pooled = ref._counts(years)[lost].sum() / (ref._acs_pop()[lost].sum() * len(years)) * 100000
    text = lead(ask("Neighborhoods that lost more than 10% of their population between the 2010 census and the "
                    "2019-2023 ACS: what's their combined (pooled) homicide rate per 100,000 per year over 2019-2022?"))
    assert f"There are {len(lost)} community areas" in text
    assert f"a combined {pooled:.1f} homicides per 100,000" in text


def test_areas_whose_home_values_climbed_more_than_40_percent(ask):
    before, after = ref._ca_zhvi(2019, 1), ref._ca_zhvi(2024, 1)
    rise = (after - before) / before * 100
    up = rise[rise > 40].index
    text = lead(ask("Which neighborhoods saw Zillow values climb more than 40% from January 2019 to January 2024? "
                    "Give me how many there are, how many people live in them (ACS), and their total homicides in "
                    "2022."))
    assert f"There are {len(up)} community areas" in text
    assert f"{int(ref._counts((2022,))[up].sum()):,} homicides in 2022" in text
    assert f"{int(ref._acs_pop()[up].sum()):,} residents" in text


def test_areas_whose_home_values_went_down(ask):
    before, after = ref._ca_zhvi(2019, 9), ref._ca_zhvi(2024, 9)
    down = (after - before)[(after - before) < 0].index
    text = lead(ask("Zillow values actually went down in a few community areas between September 2019 and "
                    "September 2024. How many areas was that, and how many homicides did those areas have in 2022 "
                    "all together?"))
    assert f"There are {len(down)} community areas" in text
    assert f"{int(ref._counts((2022,))[down].sum()):,} homicides in 2022" in text


def test_two_conditions_at_once(ask):
    rates = ref._rate((2021,), ref._acs_pop())
    both = [a for a in ref.AREAS if ref._sm("poverty").get(a, 0) > 30 and rates[a] > 100]
    text = lead(ask("How many community areas had BOTH a 2008-2012 poverty rate above 30% and a 2021 homicide rate "
                    "above 100 per 100k? And what was the total 2021 homicide count across them?"))
    assert f"There are {len(both)} community areas" in text
    assert f"{int(ref._counts((2021,))[both].sum()):,} homicides in 2021" in text


def test_more_homicides_than_before_and_a_cheap_home_value(ask):
    rose = ref._counts((2022,)) - ref._counts((2019,)) > 0
    values = ref._ca_zhvi(2024, 9)
    both = [a for a in ref.AREAS if rose[a] and values.get(a, float("nan")) < 180000]
    text = lead(ask("count the community areas that had more homicides in 2022 than in 2019 AND a Zillow value under "
                    "$180k in Sept 2024"))
    assert f"There are {len(both)} community areas" in text


def test_a_ranked_set_s_arrest_rate_is_pooled(ask, raw):
    acs = ref._acs()
    top = ref._rank((acs["male_18_to_24"] + acs["female_18_to_24"]) / acs["total_population"], 4)
    rows = raw[raw.area.isin(top) & raw.year.between(2016, 2022)]
    text = lead(ask("Take the four community areas where 18-to-24-year-olds make up the biggest share of residents "
                    "(2019-2023 ACS). If you pool all their homicides from 2016 through 2022, what percent of them "
                    "led to an arrest?"))
    assert f"{rows.arrested.mean() * 100:.1f}%" in text


def test_a_place_s_income_as_a_multiple_of_the_city_s(ask, data_dir):
    times = ref._sm("income")[7] / _city_pci(data_dir)
    text = lead(ask("lincoln park's income per head is how many times the citywide figure (2008-12 per capita "
                    "income)? and how many homicides there 2016-2022?"))
    assert f"{times:.2f}" in text


def test_a_named_place_s_home_value_change_in_percent(ask):
    before, after = ref._ca_zhvi(2019, 9)[66], ref._ca_zhvi(2023, 9)[66]
    text = lead(ask("For Chicago Lawn: how many homicides in 2021, and what was the percent change in its Zillow home "
                    "value from Sept 2019 to Sept 2023?"))
    assert f"{(after - before) / before * 100:+.1f}%" in text
    assert f"{ref._counts((2021,))[66]} homicides in 2021" in text


@pytest.mark.parametrize("question, named", [
    ("Which ward has the highest average Zillow home value?", "by ward"),
    ("What was the homicide rate per 100k in ZIP code 60624 in 2021?", "ZIP code"),
    ("What's Edgewater's per capita income according to the 2019-2023 ACS?", "from the 2019-2023 ACS"),
])
def test_a_measure_the_data_does_not_publish_that_way_is_said_in_the_lead(ask, question, named):
    text = lead(ask(question))
    assert "does not include" in text and named in text


def test_a_district_s_name_in_brackets_is_no_community_area(ask, raw):
    share = ((raw.district == 7) & (raw.year == 2021)).sum() / (raw.year == 2021).sum() * 100
    text = lead(ask("What share of the city's 2021 homicides were in police district 7 (Englewood), and what was the "
                    "Zillow value in Sept 2024 for the ZIP code where the 7th district station is?"))
    assert f"{share:.1f}%" in text
    assert "Englewood (community area 68)" not in text


def test_the_year_before_the_one_named(ask):
    """"2021 compared with the previous year" is 2020 (it had been read as the data's last full year, 2022)."""
    before, after = ref._city_count((2020,)), ref._city_count((2021,))
    text = lead(ask("How many homicides were there in 2021 compared with the previous year?"))
    assert f"{before} homicides in Chicago in 2020; {after} in 2021" in text
    assert f"({(after - before) / before * 100:+.1f}%)" in text


@pytest.mark.parametrize("question, start, end, in_dollars", [
    ("Which Chicago ZIP lost the biggest share of its Zillow value between January 2007 and January 2012, and by "
     "how much did it fall, in percent?", (2007, 1), (2012, 1), False),
    ("The Chicago ZIP code whose Zillow value fell the most in dollar terms between Sept 2019 and Sept 2024: which "
     "community area makes up most of that ZIP?", (2019, 9), (2024, 9), True),
])
def test_zips_ranked_by_their_home_value_s_change(ask, question, start, end, in_dollars):
    before, after = ref._zhvi(*start), ref._zhvi(*end)
    change = (after - before) if in_dollars else (after - before) / before * 100
    zip_code = str(change.dropna().idxmin())
    text = lead(ask(question))
    assert f"is ZIP {zip_code}," in text
    if in_dollars:
        main = ref._xwalk()[ref._xwalk()["zip"] == zip_code.zfill(5)]
        area = int(main.sort_values("share_of_zip", ascending=False)["area_number"].iloc[0])
        assert f"(community area {area})" in text
    else:
        assert f"{change[change.idxmin()]:.1f}%" in text


def test_a_zip_ranked_by_its_value_is_not_ranked_by_its_growth(ask):
    value = ref._zhvi(2024, 9)
    top = str(value.idxmax())
    text = lead(ask("the zip code with the highest zillow value in september 2024 - how much has its value grown "
                    "since january 2010"))
    assert f"ZIP {top} went from ${ref._zhvi(2010, 1)[value.idxmax()]:,.0f} in January 2010" in text


def test_a_summer_s_ranking_then_the_full_year_s_rate(ask, raw):
    summer = raw[(raw.year == 2022) & raw.month.isin([6, 7, 8]) & raw.area.notna()].area.value_counts()
    top = int(summer.index[0])
    assert summer.iloc[0] > summer.iloc[1]
    rate = ((raw.area == top) & (raw.year == 2022)).sum() / ref._acs_pop()[top] * 100000
    text = lead(ask("Summer 2022 (June through August): which community area had the most homicides, and what was "
                    "its full-year 2022 homicide rate per 100k?"))
    assert f"({top}), with {summer.iloc[0]} homicides" in text
    assert f"{rate:.1f} homicides per 100,000 residents a year in 2022" in text


def test_an_area_left_out_of_a_ranking_by_growth(ask):
    change = (ref._acs_pop() - ref._pop2010()) / ref._pop2010() * 100
    top = ref._rank(change.drop(32), 1)[0]
    text = lead(ask("Apart from the Loop, which community area grew fastest in percentage terms between the 2010 "
                    "census and the 2019-2023 ACS, and how much did its Zillow value change in dollars from Sept "
                    "2019 to Sept 2024?"))
    moved = ref._ca_zhvi(2024, 9)[top] - ref._ca_zhvi(2019, 9)[top]
    assert f"({top})" in text and f"${abs(moved):,.0f}" in text


def test_areas_ranked_inside_a_district_then_their_own_measure(ask, raw):
    counted = raw[(raw.district == 11) & (raw.year == 2021) & raw.area.notna()].area.value_counts()
    top = int(counted.index[0])
    assert counted.iloc[0] > counted.iloc[1]
    text = lead(ask("In police district 11 in 2021, which community area saw the most homicides, and what was that "
                    "area's poverty rate in 2008-2012?"))
    assert f"({top})" in text and f"{ref._sm('poverty')[top]:.1f}%" in text


def test_a_district_ranked_then_the_area_its_station_stands_in(ask, raw):
    counted = raw[(raw.year == 2020) & raw.district.notna()].district.value_counts()
    top = int(counted.index[0])
    stations = ref._stations()
    area = int(float(stations.loc[stations["DISTRICT"].astype(str) == str(top), "COMMUNITY AREA"].iloc[0]))
    text = lead(ask("the police district with the most killings in 2020 - which community area is its station "
                    "located in, and what's that area's zillow value for sept 2024?"))
    assert f"${ref._ca_zhvi(2024, 9)[area]:,.0f}" in text


def test_areas_ranked_by_land_area(ask, raw):
    land = pd.read_csv(ref.DATA / "community_areas.csv").set_index("area_number")["area_sq_mi"]
    top = ref._rank(land, 5)
    text = lead(ask("The five largest community areas by land area -- how many murders did they have altogether in "
                    "2021?"))
    assert f"and {int(((raw.year == 2021) & raw.area.isin(top)).sum())} homicides in 2021 (" in text


def test_homicides_per_day(ask):
    text = lead(ask("On average, how many people were murdered per day in Chicago in 2021?"))
    assert f"an average of {ref._city_count((2021,)) / 365:.1f} homicides a day" in text
    assert "over 365 days" in text


def test_a_zip_s_rank_among_the_zips(ask):
    values = ref._zhvi(2024, 9).dropna().sort_values(ascending=False)
    rank = list(values.index.astype(str).str.zfill(5)).index("60647") + 1
    text = lead(ask("Where does ZIP 60647 rank among the Chicago ZIPs in the Zillow data by home value in Sept 2024 "
                    "(1 = most expensive)?"))
    assert f"rank {rank} by typical home value" in text


@pytest.mark.parametrize("question, top, bottom", [
    ("Humboldt Park and Logan Square sit next to each other. How many times higher was Logan Square's per-capita "
     "income (2008-2012) than Humboldt Park's?", 22, 23),
    ("Per capita income in Lincoln Park is how many times Englewood's?", 7, 68),
])
def test_the_ratio_s_top_is_the_place_the_question_puts_there(ask, question, top, bottom):
    text = lead(ask(question))
    assert f"{ref._sm('income')[top] / ref._sm('income')[bottom]:.2f} times" in text


def test_a_census_band_written_value_first_ranks_the_areas(ask):
    acs = ref._acs()
    share = acs["_125_000"] / acs[["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000",
                                   "_125_000"]].sum(axis=1)
    low = ref._rank(share, 4, highest=False)
    rate = ref._counts((2022,))[low].sum() / ref._acs_pop()[low].sum() * 100000
    text = lead(ask("For the four community areas with the smallest share of $125k+ households (ACS 2019-2023), what "
                    "was their combined 2022 homicide rate per 100,000 (total killings over total population)?"))
    assert f"a combined {rate:.1f} homicides per 100,000" in text
    assert "could not use" not in text


def test_one_ranked_place_beside_the_city(ask):
    acs = ref._acs()
    bands = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
    top = ref._rank(acs["under_25_000"] / acs[bands].sum(axis=1), 1)[0]
    years = ref._years(2016, 2022)
    city = ref._city_count(years) / (ref._acs_pop().sum() * len(years)) * 100000
    text = lead(ask("The community area with the highest share of households under $25,000 (ACS): how does its "
                    "2016-2022 homicide rate compare with the city's? Give both rates."))
    assert f"({top})" in text and f"{ref._rate(years, ref._acs_pop())[top]:.1f} homicides per 100,000" in text
    assert f"For the city as a whole:" in text and f"{city:.1f} homicides per 100,000" in text


def test_a_named_place_s_ratios_and_population_change(ask):
    before, after = ref._ca_zhvi(2019, 9)[68], ref._ca_zhvi(2024, 9)[68]
    text = lead(ask("englewood: zillow value sept 2024 divided by sept 2019 (how many x), and homicides 2022 vs 2019 "
                    "as a ratio too"))
    assert f"of {after / before:.2f} ({after / before:.2f} times)" in text
    counts = ref._counts((2022,))[68] / ref._counts((2019,))[68]
    assert f"of {counts:.2f} ({counts:.2f} times)" in text
    text = lead(ask("Woodlawn in three numbers please: its population change from the 2010 census to the 2019-2023 "
                    "ACS, its homicides in 2022, and its Zillow value in January 2024."))
    assert f"a drop of {ref._pop2010()[42] - ref._acs_pop()[42]:,}" in text
    assert f"{ref._counts((2022,))[42]} homicides in 2022" in text and "homicides in 2010" not in text
