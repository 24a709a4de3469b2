"""Measures the analyzer reads from their declarations' words alone (analysis.LAYER_MEASURES): no lexicon row and no
tool, so a new one of them is a declaration in semantic/datasets/. Figures from the CSVs with plain pandas."""
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
