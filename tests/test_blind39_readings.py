"""Readings blind39 found wrong, each answered end to end by the rules backend, against plain pandas over the raw CSVs
(tests/semantic_reference.py and tests/planner_helpers.raw_homicides read them without the app's loaders).

"<superlative> area by <measure>" ranks that measure; a sentence that ends at the ranked place leaves the measure
before it ranking; a second indicator of a place ranked by one; "where did homicides fall the most"; the plain mean
of a set's own changes ("on average how much did their values go up, in %"); quintiles by a group's share; a
domestic share correlated; the median's two halves named; the gap between the most and least expensive of a set; a
Zillow month past the data "as of" a date; a later question leaning only on the earlier one's month.
"""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _quantile(values: pd.Series, groups: int, which: int) -> list:
    ranks = values.dropna().rank(method="first")
    return list(ranks.index[pd.qcut(ranks, groups, labels=False) + 1 == which])


def _sq_mi() -> pd.Series:
    return pd.read_csv(ref.DATA / "community_areas.csv").set_index("area_number")["area_sq_mi"].reindex(ref.AREAS)


def _density() -> pd.Series:
    return ref._acs_pop() / _sq_mi()


def test_a_place_by_a_measure_and_a_second_indicator(ask):
    top = int(_density().idxmax())
    text = lead(ask("most crowded area by residents per square mile (2019-23 ACS) — how many homicides there in "
                    "2022?"))
    assert f"({top})" in text and f"{ref._counts((2022,))[top]} homicides in 2022" in text
    low = int(ref._sm("hardship").idxmin())
    text = lead(ask("Lowest hardship index in the city — which area is that and what's its unemployment rate "
                    "(2008-2012)?"))
    assert f"({low})" in text and f"{ref._sm('unemployed')[low]:.1f}%" in text


def test_where_homicides_fell_the_most_with_a_home_value_change(ask):
    change = ref._counts((2022,)) - ref._counts((2021,))
    area = int(change.idxmin())
    growth = (ref._ca_zhvi(2024, 9)[area] / ref._ca_zhvi(2019, 1)[area] - 1) * 100
    text = lead(ask("Where did homicides fall the most between 2021 and 2022 (by number)? How many were there in 2022 "
                    "in that area, and how much did home values there change (zillow, jan 2019 to sept 2024, in %)?"))
    assert f"({area})" in text and f"{ref._counts((2022,))[area]} homicides in 2022" in text
    assert f"{growth:+.1f}%" in text


def test_a_sets_own_changes_averaged_and_a_sentence_ending_at_the_place(ask):
    acs = ref._acs()
    top = ref._rank(acs["asian"] / acs["total_population"], 3)
    growth = (ref._ca_zhvi(2024, 9)[top] / ref._ca_zhvi(2019, 1)[top] - 1) * 100
    text = lead(ask("Top three community areas by Asian share (2019-23 ACS) – on average how much did their Zillow "
                    "values go up, in %, from January 2019 to September 2024?"))
    assert f"the plain average {growth.mean():.1f}%" in text
    density = ref._counts(ref._years(2016, 2022)) / _sq_mi()
    second = ref._rank(density, 2)[1]
    text = lead(ask("Looking at killings per square mile 2016-2022, take the SECOND highest area. whats its poverty "
                    "rate (2008-12) and how much did its zillow value change in % from jan 2019 to sep 2024?"))
    assert f"({second})" in text and f"{ref._sm('poverty')[second]:.1f}%" in text


def test_quintiles_by_a_groups_share_and_the_medians_two_halves(ask):
    acs = ref._acs()
    kids = (acs["male_0_to_17"] + acs["female_0_to_17"]) / acs["total_population"]
    years = ref._years(2019, 2022)
    gap = ref.pooled_rate(_quantile(kids, 5, 5), years) - ref.pooled_rate(_quantile(kids, 5, 1), years)
    text = lead(ask("split areas into fifths by share of residents under 18 (ACS 19-23). whats the difference in "
                    "pooled 2019-2022 homicide rate between the top fifth and bottom fifth? per 100k/yr, ACS pop"))
    assert f"a difference of {gap:.1f}" in text
    zhvi = ref._ca_zhvi(2024, 9)
    below, above = zhvi[zhvi < zhvi.median()].index, zhvi[zhvi > zhvi.median()].index
    times = ref.pooled_rate(below, (2022,)) / ref.pooled_rate(above, (2022,))
    text = lead(ask("Split the areas at the median Zillow home value (Sept 2024). How many times higher is the pooled "
                    "2022 homicide rate in the below-median half than in the above-median half? ACS 2019-23 "
                    "population"))
    assert f"{times:.2f} times" in text


def test_a_domestic_share_correlated_and_a_sets_range(ask, raw):
    rows = raw[raw.area.notna()]
    share = rows.groupby(rows.area.astype(int)).domestic.mean().reindex(ref.AREAS) * 100
    acs = ref._acs()
    poor = acs["under_25_000"] / acs[["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999",
                                     "_75_000_to_125_000", "_125_000"]].sum(axis=1)
    text = lead(ask("across community areas, does the % of homicides flagged domestic (all years 2001-2023) "
                    "correlate with the share of households earning under $25k (2019-23 ACS)? pearson r"))
    assert f"r = {share.corr(poor):.2f}" in text
    top = ref._rank(ref._rate(ref._years(2019, 2022), ref._acs_pop()), 10)
    zhvi = ref._ca_zhvi(2024, 9)[top]
    text = lead(ask("Among the ten highest homicide-rate areas for 2019-22 (ACS pop), what's the gap between the most "
                    "and least expensive by Zillow value in Sept 2024?"))
    assert f"a range of ${zhvi.max() - zhvi.min():,.0f}" in text


def test_a_month_past_zillow_as_of_and_questions_leaning_on_a_month_or_a_total(ask):
    latest = ref._zhvi(2024, 9)
    text = lead(ask("What's the zillow home value in 60647 as of march 2025?"))
    assert f"${latest['60647']:,.0f} in September 2024" in text and "March 2025 is not in the data" in text
    text = lead(ask("zillow home value for 60614 in september 2024? and which chicago zip is the most expensive that "
                    "month"))
    chicago = latest[latest.index.isin(ref._xwalk()["zip"])]
    assert f"${latest['60614']:,.0f}" in text and f"ZIP {chicago.idxmax()}" in text
    counts = {y: ref._city_count((y,)) for y in (2020, 2021, 2022)}
    text = lead(ask("how many homicides did chicago have in 2020? and by what % did the total change from 2021 to "
                    "2022"))
    assert f"{counts[2020]} homicides in Chicago in 2020" in text
    assert f"({(counts[2022] / counts[2021] - 1) * 100:.1f}%)" in text


def test_the_years_a_place_stood_above_the_city(ask):
    pop, city_pop = ref._acs_pop(), ref._acs_pop().sum()
    above = [y for y in range(2016, 2023) if ref._counts((y,))[50] / pop[50] > ref._city_count((y,)) / city_pop]
    text = lead(ask("In how many of the years 2016 through 2022 was the homicide rate in Pullman higher than the "
                    "citywide rate? (both per 100k on the 2019-23 ACS population)"))
    assert text.startswith(f"There are {len(above)} years with")
    assert all(f"{y}: " in text for y in above)
