"""Measures the analyzer reads from their declarations' words alone (analysis.LAYER_MEASURES): no lexicon row and no
tool, so a new one of them is a declaration in semantic/datasets/; and police beats, a grain only the layer declares.
Figures from the CSVs with plain pandas."""
from __future__ import annotations

import pandas as pd
import pytest

from analyzer.question import analyze_question
from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _land(data_dir) -> pd.Series:
    areas = pd.read_csv(data_dir / "community_areas.csv")
    return areas.set_index(areas["area_number"].astype(int))["area_sq_mi"].astype(float)


def test_homicides_per_square_mile_ranked_with_a_home_value(ask, data_dir):
    density = ref._counts(ref._years(2016, 2022)) / _land(data_dir)
    top = ref._rank(density, 1)[0]
    text = lead(ask("Which community area had the most homicides per square mile over 2016-2022, and what was its "
                    "Zillow home value in Sept 2024?"))
    assert f"is {ref._names()[top].title()} ({top}), with {density[top]:.1f} homicides per square mile in 2016-2022" in text
    assert f"${ref._ca_zhvi(2024, 9)[top]:,.0f}" in text


def test_the_declared_words_name_one_measure(data):
    found = analyze_question("homicides per square mile in Austin in 2020", data)
    assert "homicide_density" in found.metrics and "homicides" not in found.metrics
    both = analyze_question("homicides per square mile and how many homicides in Austin in 2020", data)
    assert {"homicide_density", "homicides"} <= set(both.metrics)
    dense = analyze_question("what's the population density of Austin", data)
    assert dense.metrics == ["population_density"] and not dense.not_used


def test_a_declared_measure_for_a_named_area(ask, data_dir):
    acs = ref._acs_pop()
    text = lead(ask("what's the population density of Austin"))
    assert f"{acs[25] / _land(data_dir)[25]:,.0f}" in text


def _beat_counts(years) -> pd.Series:
    raw = pd.read_csv(ref.DATA / "homicides.csv", usecols=["ID", "Beat", "Year"])
    raw = raw[raw["Year"].isin(list(years)) & raw["Beat"].notna()]
    return raw.groupby(raw["Beat"].astype(int)).size()


def test_police_beats_are_a_declared_grain(ask):
    counts = _beat_counts(ref._years(2016, 2022))
    top = counts.sort_values(ascending=False, kind="mergesort")
    assert top.iloc[0] > top.iloc[1]  # no tie at the top: one beat answers
    text = lead(ask("Which police beat recorded the most homicides between 2016 and 2022, and how many?"))
    assert f"is Beat {top.index[0]:04d}, with {top.iloc[0]} homicides in 2016-2022" in text


def test_several_beats_with_their_total(ask):
    counts = _beat_counts((2021,))
    five = counts.sort_values(ascending=False, kind="mergesort").head(5)
    text = lead(ask("the 5 beats with the most murders in 2021 - how many did they have together?"))
    assert f"Together they had {five.sum()} homicides in 2021" in text


def test_a_bound_on_one_declared_measure_and_a_ranking_by_another(ask, data_dir):
    redfin = pd.read_csv(data_dir / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    ends = pd.to_datetime(redfin["Period End"], format="%m/%d/%Y")
    rows = redfin[(ends == "2019-09-30") & redfin["Region"].str.startswith("Chicago, IL - ")
                  & (pd.to_numeric(redfin["Homes Sold"]) >= 10)]
    top = rows.loc[pd.to_numeric(rows["Median List Price"]).idxmax()]
    text = lead(ask("Among Redfin neighborhoods with at least 10 homes sold in the 90 days ending Sept 30, 2019, which "
                    "had the highest median list price, and what was it?"))
    assert f"the one with the highest median list price (Redfin) in September 2019 is " \
           f"{top['Region'].removeprefix('Chicago, IL - ')}" in text
    assert f"${int(top['Median List Price']):,}" in text
