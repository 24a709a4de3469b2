"""Two sets of places compared, each with its own figure, then the first over the second: the areas above the median
of one measure against the rest, majority-Black against majority-Hispanic areas, the N at the top of a ranking
against the N at the bottom (a blind set's questions, answered before with one set only). The figures are computed
here from the CSVs with plain pandas (tests/semantic_reference.py); each runs through the rules backend end to end,
and the query itself through POST /api/query."""
from __future__ import annotations

import json

import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead
from tests.test_api import build_app

pytestmark = pytest.mark.full_data


def _pooled_rate(areas, years, pop) -> float:
    return ref._counts(years)[areas].sum() / (pop[areas].sum() * len(years)) * 100000


def _share(column: str):
    acs = ref._acs()
    return acs[column] / acs["total_population"] * 100


def test_areas_above_the_median_against_the_rest(ask):
    poverty = ref._sm("poverty")
    above = poverty[poverty > poverty.median()].index
    rest = poverty[poverty <= poverty.median()].index
    high, low = (_pooled_rate(s, (2021,), ref._acs_pop()) for s in (above, rest))
    text = lead(ask("Split the community areas into those with a 2008-2012 poverty rate above the median area and "
                    "all the rest. How many times higher is the pooled 2021 homicide rate in the higher-poverty "
                    "group?"))
    assert f"The {len(above)} community areas with households below poverty over the median" in text
    assert f"a combined {high:.1f} homicides per 100,000" in text and f"a combined {low:.1f} homicides" in text
    assert f"{high / low:.2f} times the second's" in text


def test_two_groups_each_bounded_by_its_own_share(ask):
    black, hispanic = _share("black_or_african_american"), _share("hispanic_or_latino")
    sets = [black[black > 40].index, hispanic[hispanic > 40].index]
    rates = [_pooled_rate(s, (2019,), ref._acs_pop()) for s in sets]
    text = lead(ask("areas where more than 40% of residents are Black vs areas where more than 40% are Hispanic -- "
                    "2019 homicide rate for each group, pooled"))
    assert f"The {len(sets[0])} community areas with share of Black residents over 40%" in text
    assert f"The {len(sets[1])} community areas with share of Hispanic or Latino residents over 40%" in text
    for rate in rates:
        assert f"a combined {rate:.1f} homicides per 100,000" in text
    assert f"{rates[0] / rates[1]:.2f} times" in text


def test_the_bottom_of_a_ranking_against_the_top(ask):
    income = ref._sm("income")
    poorest, richest = ref._rank(income, 10, highest=False), ref._rank(income, 10, highest=True)
    counts = ref._counts((2022,))
    few, many = int(counts[poorest].sum()), int(counts[richest].sum())
    text = lead(ask("Compare the 10 poorest community areas by per capita income with the 10 richest: how many "
                    "times as many homicides did the poorer ten have in 2022?"))
    assert f"The 10 community areas with the lowest per capita income (2008-2012) had {few} homicides in 2022" in text
    assert f"had {many} homicides in 2022" in text
    assert f"{few / many:.2f} times the second's" in text


def test_plain_means_when_asked_for_a_simple_average(ask):
    hardship, values = ref._sm("hardship"), ref._ca_zhvi(2024, 9)
    low, high = ref._rank(hardship, 5, highest=False), ref._rank(hardship, 5, highest=True)
    gap = values[low].mean() - values[high].mean()
    text = lead(ask("How big is the gap in Zillow home values (Sept 2024) between the five community areas with the "
                    "lowest hardship index and the five with the highest? Use the simple average of each group's five "
                    "values."))
    assert f"${values[low].mean():,.0f} across them" in text and f"${values[high].mean():,.0f} across them" in text
    assert f"a difference of ${gap:,.0f}" in text


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return build_app(tmp_path_factory.mktemp("groups")).test_client()


def test_groups_through_the_query_endpoint(client):
    query = {"measures": ["per_capita_income", {"measure": "homicides", "period": {"year": 2021}}],
             "group_by": ["community_area"],
             "groups": [{"label": "above", "having": [{"field": "per_capita_income", "op": ">", "value": "median"}]},
                        {"label": "the rest", "having": [{"field": "per_capita_income", "op": "<=",
                                                          "value": "median"}]}]}
    resp = client.post("/api/query", data=json.dumps(query), content_type="application/json")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    result = resp.get_json()["result"]
    income, counts = ref._sm("income"), ref._counts((2021,))
    sets = [income[income > income.median()].index, income[income <= income.median()].index]
    assert [g["n"] for g in result["groups"]] == [len(s) for s in sets]
    assert [sorted(g["members"]) for g in result["groups"]] == [sorted(int(a) for a in s) for s in sets]
    assert [g["figures"]["homicides"] for g in result["groups"]] == [int(counts[s].sum()) for s in sets]
    assert result["groups"][0]["having"][0]["value"] == pytest.approx(income.median())
    assert result["between"]["homicides"]["difference"] == counts[sets[0]].sum() - counts[sets[1]].sum()


def test_a_column_with_a_figure_of_its_own(client):
    """"The 10 with the most homicides vs the rest: their homicides combined, their plain average home value": one
    column pooled (summed), the other the members' mean."""
    query = {"measures": [{"measure": "homicides", "period": {"year": 2022}}, "home_value"],
             "group_by": ["community_area"], "derived": [{"name": "set_rank", "op": "rank", "of": ["homicides"]}],
             "groups": [{"label": "top", "having": [{"field": "set_rank", "op": "<=", "value": 10}], "figure": "mean",
                         "figure_of": {"homicides": "pooled"}},
                        {"label": "the rest", "rest": True, "figure": "mean", "figure_of": {"homicides": "pooled"}}]}
    resp = client.post("/api/query", data=json.dumps(query), content_type="application/json")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    groups = resp.get_json()["result"]["groups"]
    counts, zhvi = ref._counts((2022,)), ref._ca_zhvi(2024, 9)
    for group in groups:
        members = [int(m) for m in group["members"]]
        assert group["figures"]["homicides"] == int(counts[members].sum())
        assert group["figures"]["home_value"] == pytest.approx(zhvi[members].mean(), abs=1)


@pytest.mark.parametrize("groups, field", [
    ([{"having": [{"field": "homicides", "op": ">", "value": 5}]}], "groups"),
    ([{"having": [{"field": "homicides", "op": ">", "value": 5}]}, {"label": "rest"}], "groups[1]"),
    ([{"having": [{"field": "homicides", "op": ">", "value": 5}]},
      {"having": [{"field": "homicides", "op": "<=", "value": 5}], "pooled": True}], "groups[1]"),
    ([{"having": [{"field": "murders", "op": ">", "value": 5}]},
      {"having": [{"field": "homicides", "op": "<=", "value": 5}]}], "groups[0].having[0].field"),
    ([{"having": [{"field": "homicides", "op": ">", "value": 5}], "figure_of": {"murders": "pooled"}},
      {"rest": True}], "groups[0].figure_of"),
    ([{"having": [{"field": "homicides", "op": ">", "value": 5}], "figure_of": {"homicides": "sum"}},
      {"rest": True}], "groups[0].figure_of"),
])
def test_a_bad_group_is_refused_naming_the_field(client, groups, field):
    query = {"measures": ["homicides"], "group_by": ["community_area"], "groups": groups}
    resp = client.post("/api/query", data=json.dumps(query), content_type="application/json")
    assert resp.status_code == 400
    assert resp.get_json()["error"]["at"] == field
