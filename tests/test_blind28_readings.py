"""Readings blind28 found wrong, each now answered end to end by the rules backend, against plain pandas over the
raw CSVs (tests/semantic_reference.py reads them without the app's loaders).

Silently wrong before: the most populous areas "in the 2010 census" (ranked by the ACS), a hardship bound "AND gained
population" (the population change dropped), the month with the most homicides in a set ranked by its rate (the
rate's top area instead), the deadliest weekday's average per year (the city's average over every day), and the
homicides of the areas in a ranked IHS submarket "in 2021" (2021-2025: the release's year read as a homicide year).
"""
from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

from analyzer.question import analyze_question
from rules.planner import plan_calls
from tests import semantic_reference as ref
from tools import names
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


@pytest.fixture(scope="module")
def hom() -> pd.DataFrame:
    h = pd.read_csv(ref.DATA / "homicides.csv", dtype=str, usecols=["Date", "Community Area"])
    h["date"] = pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")
    h["area"] = pd.to_numeric(h["Community Area"], errors="coerce")
    return h


def _square_miles() -> pd.Series:
    areas = pd.read_csv(ref.DATA / "community_areas.csv")
    return areas.set_index("area_number")["area_sq_mi"].reindex(ref.AREAS)


def test_the_most_populous_in_the_2010_census_are_ranked_by_it(ask):
    top5 = ref._rank(ref._pop2010(), 5)
    years = ref._years(2019, 2022)
    density = ref._counts(years)[top5].sum() / _square_miles()[top5].sum()
    text = lead(ask("For the 5 most populous community areas in the 2010 census, what was their pooled homicide "
                    "density (homicides per square mile) over 2019-2022?"))
    assert "with the most residents (2010 census)" in text and f"a combined {density:.1f} homicides per square mile" \
        in text


def test_a_bound_and_a_population_gain_pick_the_areas_together(ask):
    hardship, grew = ref._sm("hardship"), ref._acs_pop() > ref._pop2010()
    both = [a for a in ref.AREAS if hardship.get(a, 0) > 70 and grew.get(a, False)]
    text = lead(ask("Which community areas have a hardship index above 70 AND gained population between the 2010 "
                    "census and the 2019-2023 ACS? How many are there?"))
    assert text.startswith(f"There are {len(both)} community areas with hardship index (2008-2012) over 70 and whose "
                           "residents rose")


def test_the_month_with_the_most_homicides_in_a_set_ranked_by_its_rate(ask, hom):
    years = ref._years(2016, 2022)
    top5 = ref._rank(ref._rate(years, ref._acs_pop()), 5)
    kept = hom[hom.date.dt.year.isin(years) & hom.area.isin(top5)]
    months = kept.date.dt.month.value_counts()
    text = lead(ask("For the five community areas with the highest homicide rate in 2016-2022, which calendar month "
                    "had the most homicides across 2016-2022 (all those areas together)?"))
    month = pd.Timestamp(2000, int(months.idxmax()), 1).strftime("%B")
    assert f"is {month}, with {int(months.max())} homicides in 2016-2022" in text


def test_the_deadliest_weekdays_own_average_per_year(ask, hom):
    kept = hom[hom.date.dt.year.between(2016, 2022)]
    days = kept.date.dt.day_name().value_counts()
    text = lead(ask("Over 2016-2022, which day of the week saw the most homicides, and what's the average number on "
                    "that weekday per year?"))
    assert f"was {days.idxmax()}, with {int(days.max())}: an average of {days.max() / 7:.1f} a year" in text


def test_the_release_year_of_a_ranked_submarket_is_no_homicide_year(ask, hom):
    summary = pd.read_csv(ref.DATA / "property_ihs_price_index_summary_2025q4.csv", dtype=str)
    city = summary[summary["Sub Market"].str.startswith("Chicago--")]
    top = city.set_index("Number")["COVID-19 Pandemic Start to Current"].str.rstrip("%").astype(float).idxmax()
    xw = pd.read_csv(ref.DATA / "community_area_ihs_submarket_crosswalk.csv")
    main = xw.sort_values("share_of_community_area", ascending=False).drop_duplicates("area_number")
    areas = main[main.submarket_code == top].area_number
    count = int((hom.area.isin(areas) & (hom.date.dt.year == 2021)).sum())
    text = lead(ask("Which Chicago submarket in the IHS 2025 Q4 summary had the biggest price change since the "
                    "COVID-19 pandemic start, and how many homicides did its community areas (each area assigned to "
                    "its largest-share submarket) record in 2021 combined?"))
    assert f"together had {count} homicides in 2021 " in text and "homicides in 2021-2025" not in text


def test_homicide_density_correlated_with_a_groups_share(ask):
    # Before: the homicide rate against the hardship index, two measures nobody named.
    density = ref._counts(ref._years(2019, 2022)) / _square_miles()
    black = ref._acs()["black_or_african_american"] / ref._acs()["total_population"] * 100
    r = density.corr(black.reindex(ref.AREAS))
    text = lead(ask("Is homicide density related to the Black population share? Give me the Pearson r across the 77 "
                    "areas between the ACS 2019-2023 Black share and homicides per square mile in 2019-2022."))
    assert f"r = {r:.2f} (Pearson" in text and "hardship" not in text


def test_two_named_areas_home_values_in_two_months(ask):
    # Before: September 2024's value against the 2019 average, months nobody asked for.
    change = (ref._ca_zhvi(2024, 1) / ref._ca_zhvi(2019, 1) - 1) * 100
    text = lead(ask("Englewood vs West Englewood: percent change in Zillow home value from Jan 2019 to Jan 2024 for "
                    "each (area-weighted ZIP values). Which rose more?"))
    for area in (68, 67):
        assert f"a change of {change[area]:+.1f}% from January 2019 to January 2024" in text


def test_a_neighbourhood_named_as_a_community_area_is_said(ask):
    text = lead(ask("What's the homicide rate for the Wrigleyville community area in 2019-2022?"))
    assert "The data does not have Wrigleyville as a community area: it is read as Lake View (6)" in text


def test_and_the_second_lists_the_first_two(ask):
    counts = ref._counts()
    first, second = ref._rank(counts, 2)
    text = lead(ask("which community area has had the most homicides overall in the data (2001 to mid-2023)? and the "
                    "second?"))
    names = {k: v.title() for k, v in ref._names().items()}
    assert f"{names[first]} ({first}): {counts[first]:,}; {names[second]} ({second}): {counts[second]:,}" in text


def test_a_month_the_user_names_instead(ask):
    r = ref._redfin_neighborhoods()
    window = r[(r["neighborhood"] == "Logan Square") & (r["end"] == "2019-10-31")]
    price = ref._price_k(window["Median Sale Price"]).iloc[0]
    text = lead(ask("Redfin median sale price in Logan Square for the period ending June 2021? If not available, give "
                    "the latest Logan Square figure you have (period ending Oct 31 2019)."))
    assert text.startswith("June 2021 is not in the data") and f"${price:,.0f}" in text


def test_a_correlation_with_no_indicator_read_makes_no_hardship_call(data):
    # Before: the context tool's default, the hardship index, was correlated with the rate: a pair nobody asked for.
    whole = analyze_question("Is the homicide rate correlated with the hardship index across areas in 2019-2022?", data)
    assert any(name == names.SOCIOECONOMIC_CONTEXT for name, _ in plan_calls(whole, []))
    unread = replace(whole, metrics=[m for m in whole.metrics if m != "hardship"])
    assert not any(name == names.SOCIOECONOMIC_CONTEXT for name, _ in plan_calls(unread, []))
