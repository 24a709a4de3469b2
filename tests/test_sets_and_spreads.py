"""Shapes of a fresh blind set (blind21) answered as a nearby question before: a measure's spread across the areas
(median, the gap between the highest and the lowest), a set's median, the share of all areas a threshold keeps, a
set's domestic share, areas picked by the sign of a change between two years, a threshold at a multiple of the city's
figure, a place's share of the city's residents of a group, a dated home value in a ranked area, homicides per square
mile as a bound, a reference threshold naming its own measure. Figures from the CSVs with plain pandas
(tests/semantic_reference.py); every question runs through the rules backend end to end."""
from __future__ import annotations

import calendar
import re

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _rows(years: tuple, areas) -> pd.DataFrame:
    """The raw homicide rows of those years in those areas, with their arrest and domestic flags."""
    raw = pd.read_csv(ref.DATA / "homicides.csv", usecols=["Year", "Community Area", "Arrest", "Domestic"])
    raw = raw[raw["Year"].isin(list(years)) & raw["Community Area"].notna()]
    return raw[raw["Community Area"].astype(float).astype(int).isin([int(a) for a in areas])]


def _land(data_dir) -> pd.Series:
    areas = pd.read_csv(data_dir / "community_areas.csv")
    return areas.set_index(areas["area_number"].astype(int))["area_sq_mi"].astype(float)


def test_the_median_across_the_areas(ask):
    unemployed = ref._sm("unemployed")
    text = lead(ask("what is the median unemployment rate across chicago's community areas (2008-2012 figures)?"))
    assert f"the median is {unemployed.median():.1f}%" in text
    assert f"runs from {unemployed.min():.1f}%" in text and f"to {unemployed.max():.1f}%" in text


def test_the_gap_between_the_highest_and_the_lowest(ask):
    hardship = ref._sm("hardship")
    text = lead(ask("How big is the difference between the highest and the lowest hardship index among the "
                    "community areas?"))
    assert f"a range of {hardship.max() - hardship.min():.0f}" in text


def test_the_median_over_a_ranked_set(ask):
    values = ref._ca_zhvi(2024, 9)
    poorest = ref._rank(ref._sm("income"), 8, highest=False)
    text = lead(ask("For the 8 community areas with the lowest per capita income, what is the median Zillow home "
                    "value in September 2024?"))
    assert f"the median is ${values[poorest].median():,.0f}" in text


def test_the_share_of_all_areas_a_threshold_keeps(ask):
    crowded = ref._sm("crowded")
    kept = int((crowded > 5).sum())
    text = lead(ask("What percentage of community areas have more than 5% of housing crowded?"))
    assert f"There are {kept} community areas" in text
    assert f"({kept / 77 * 100:.1f}% of the 77 community areas with a figure)" in text


def test_a_set_s_domestic_share(ask):
    poverty = ref._sm("poverty")
    picked = poverty[poverty >= 30].index
    rows = _rows(ref._years(2016, 2022), picked)
    share = (rows["Domestic"].astype(str) == "True").mean() * 100
    text = lead(ask("In neighborhoods where at least 30% of households are below poverty, what percentage of the "
                    "2016-2022 homicides were domestic?"))
    assert f"a combined domestic share of homicides of {share:.1f}%" in text


def test_areas_picked_by_the_sign_of_a_change(ask):
    counts = ref._counts((2022,)) - ref._counts((2018,))
    fewer = int((counts < 0).sum())
    text = lead(ask("How many community areas had fewer homicides in 2022 than in 2018?"))
    assert f"There are {fewer} community areas" in text


def test_a_threshold_at_a_multiple_of_the_city_s_figure(ask):
    years = ref._years(2016, 2022)
    rates = ref._rate(years, ref._acs_pop())
    city = ref._city_count(years) / (ref._acs_pop().sum() * len(years)) * 100000
    over = int((rates > 3 * city).sum())
    text = lead(ask("How many community areas had a 2016-2022 homicide rate more than three times the city-wide "
                    "rate?"))
    assert f"There are {over} community areas" in text and f"three times the city's {city:.1f}" in text


def test_a_place_s_share_of_the_city_s_residents_of_a_group(ask):
    acs = ref._acs()
    share = acs.loc[60, "hispanic_or_latino"] / acs["hispanic_or_latino"].sum() * 100  # Bridgeport
    text = lead(ask("What share of all of Chicago's Hispanic residents live in Bridgeport (2019-2023 ACS)?"))
    assert f"holds {share:.1f}% of them" in text


def test_a_dated_home_value_in_the_top_ranked_area(ask):
    top = ref._rank(ref._sm("poverty"), 1)[0]
    value = ref._ca_zhvi(2018, 6)[top]
    text = lead(ask("What was the Zillow home value in June 2018 in the community area with the highest poverty "
                    "rate?"))
    assert f"${value:,.0f}" in text and ref._names()[top].title() in text


def test_homicides_per_square_mile_as_a_bound(ask, data_dir):
    density = ref._counts(ref._years(2018, 2022)) / _land(data_dir)
    text = lead(ask("Counting homicides from 2018 through 2022, how many community areas had more than 15 per "
                    "square mile?"))
    assert f"There are {int((density > 15).sum())} community areas" in text


def test_a_reference_names_the_measure_after_it(ask):
    poverty = ref._sm("poverty")
    above = poverty[poverty > poverty.median()].index
    rows = _rows(ref._years(2016, 2022), above)
    pct = (rows["Arrest"].astype(str) == "True").mean() * 100
    text = lead(ask("Are poorer areas less likely to see arrests? Give the 2016-2022 arrest rate for homicides in "
                    "areas above the median poverty rate and in the rest."))
    assert "households below poverty over the median" in text
    assert f"{pct:.1f}%" in text


def test_the_areas_mostly_in_an_ihs_submarket(ask, data_dir):
    cross = pd.read_csv(data_dir / "community_area_ihs_submarket_crosswalk.csv")
    main = cross.sort_values("share_of_community_area", ascending=False).drop_duplicates("area_number")
    areas = main.loc[main["submarket_name_2023"] == "Chicago--Chatham/West Pullman", "area_number"].astype(int)
    total = int(ref._counts(ref._years(2018, 2021))[list(areas)].sum())
    text = lead(ask("How many homicides were there from 2018 to 2021 across the community areas of the IHS "
                    "Chatham/West Pullman submarket, all added up?"))
    assert f"together had {total:,} homicides in 2018-2021" in text


def test_redfin_inventory_is_a_declared_measure(ask, data_dir):
    redfin = pd.read_csv(data_dir / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    ends = pd.to_datetime(redfin["Period End"], format="%m/%d/%Y")
    city = redfin[(redfin["Region"] == "Chicago, IL") & (ends == "2017-03-31")]
    text = lead(ask("What was Redfin's citywide inventory of homes for sale in March 2017?"))
    assert f"{int(city['Inventory'].iloc[0]):,} homes for sale" in text


def test_homicides_over_a_span_beside_a_home_value_s_rise(ask):
    before, after = ref._ca_zhvi(2015, 1), ref._ca_zhvi(2023, 1)
    top = ref._rank((after - before) / before, 1)[0]
    total = int(ref._counts(ref._years(2016, 2020))[top])
    text = lead(ask("Which community area's Zillow value grew the most in percent from January 2015 to January 2023, "
                    "and how many homicides did it have in 2016-2020?"))
    assert ref._names()[top].title() in text and f"{total} homicides in 2016-2020" in text


def test_years_and_months_over_a_count(ask):
    hom = ref._hom()
    by_year = hom[hom["year"].between(2005, 2020)].groupby("year").size()
    over = by_year[by_year > 650]
    text = lead(ask("Between 2005 and 2020, in how many years were there more than 650 murders?"))
    assert f"There are {len(over)} years with at least 651 homicides in 2005-2020" in text
    assert all(f"{year}: {count} homicides." in text for year, count in over.items())
    months = hom[hom["year"] == 2020].groupby("month").size()
    text = lead(ask("which months of 2020 had more than 75 homicides?"))
    assert f"There are {int((months > 75).sum())} months with at least 76 homicides in 2020" in text


def test_when_a_series_peaked_and_bottomed_out(ask, data_dir):
    ihs = pd.read_csv(data_dir / "property_ihs_price_index_long.csv")
    city = ihs[(ihs["submarket_code"] == "CHICAGO") & ihs["year"].between(1997, 2009)]
    top = city.loc[city["index_2000q1_100"].idxmax()]
    text = lead(ask("when did DePaul's IHS house price index for the city of Chicago peak between 1997 and 2009, and "
                    "at what level?"))
    assert f"is {top['yearq']}, with house price index (2000Q1 = 100) {top['index_2000q1_100']:.1f}" in text
    series = pd.Series({f"{y}-{m:02d}": ref._ca_zhvi(y, m)[68] for y in range(2009, 2016) for m in range(1, 13)})
    low = series.idxmin()
    text = lead(ask("in which month did Englewood's Zillow home value bottom out between 2009 and 2015?"))
    assert f"{calendar.month_name[int(low[5:])]} {low[:4]}, with typical home value (Zillow ZHVI) ${series.min():,.0f}" \
        in text


def test_money_in_words_as_a_bound(ask):
    values = ref._zhvi(2023, 3)
    text = lead(ask("how many zip codes had a zillow value over half a million dollars in march 2023?"))
    assert f"There are {int((values > 500000).sum())} ZIP codes with a typical home value (Zillow ZHVI) over " \
           f"$500,000 in March 2023" in text


def test_a_ranked_district_s_station_area_without_a_grain_caveat(ask):
    hom = ref._hom()
    counts = hom[hom["year"] == 2021].groupby("district").size()
    top = int(counts.idxmax())
    text = lead(ask("The police district with the most homicides in 2021: its station sits in which community area, "
                    "and what is that area's poverty rate?"))
    assert f"is District {top}, with {int(counts.max())} homicides in 2021" in text
    area = int(re.search(r"community area the station stands in: (\d+)", text).group(1))
    assert f"{ref._names()[area].title()} ({area}) had households below poverty {ref._sm('poverty')[area]:.1f}%" in text
    assert "The data does not include" not in text


def _city_poverty() -> float:
    socio = pd.read_csv(ref.DATA / "socioeconomic.csv")
    city = socio[socio["Community Area Number"].isna()].iloc[0]
    return float(city["PERCENT HOUSEHOLDS BELOW POVERTY"])


def test_one_bound_shared_by_two_measures(ask):
    # "above the city figure on BOTH poverty and the homicide rate": the areas over each city figure, counted once
    years = ref._years(2019, 2022)
    rate = ref._rate(years, ref._acs_pop())
    city_rate = ref._city_count(years) / len(years) / ref._acs_pop().sum() * 100000
    both = int(((ref._sm("poverty") > _city_poverty()) & (rate > city_rate)).sum())
    text = lead(ask("How many community areas are above the city figure on BOTH household poverty (2008-2012) and "
                    "the 2019-2022 homicide rate?"))
    assert text.startswith(f"There are {both} community areas with households below poverty over the city's "
                           f"{_city_poverty():.1f}% and with more than the city's {city_rate:.1f} homicides per 100,000 "
                           "residents a year")
    income, hardship = ref._sm("income"), ref._sm("hardship")
    below = int(((income < income.median()) & (hardship < hardship.median())).sum())
    text = lead(ask("Which community areas are below the median on both per capita income and hardship index?"))
    assert text.startswith(f"There are {below} community areas with per capita income (2008-2012) under the median")
