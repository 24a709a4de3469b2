"""Places grouped by an attribute of theirs ("the community areas grouped by the IHS submarket they mostly lie in"):
the layer adds each group's places up, so a group's rate is its summed homicides over its summed population, and a
figure that does not add up is refused by name. Run through the query_data tool, checked against plain pandas over
the CSVs (tests/semantic_reference)."""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tools import names

pytestmark = pytest.mark.full_data


def _main_submarket() -> pd.Series:
    """Each community area's submarket: the one holding the largest share of its land."""
    x = pd.read_csv(ref.DATA / "community_area_ihs_submarket_crosswalk.csv").dropna(subset=["area_number"])
    x = x.sort_values("share_of_community_area", ascending=False).drop_duplicates("area_number")
    return x.set_index(x["area_number"].astype(int))["submarket_code"]


def _query(registry, query: dict):
    result = registry.run(names.QUERY, registry.canonicalize(names.QUERY, query))
    return result


def test_areas_grouped_by_their_main_submarket_pool_their_rate(registry):
    years = ref._years(2019, 2022)
    groups = pd.DataFrame({"submarket": _main_submarket(), "homicides": ref._counts(years),
                           "pop": ref._acs_pop()}).dropna(subset=["submarket"])
    summed = groups.groupby("submarket")[["homicides", "pop"]].sum()
    rate = (summed["homicides"] / len(years) / summed["pop"] * 100000).sort_values(ascending=False)
    result = _query(registry, {"measures": [{"measure": "homicide_rate", "period": {"start": "2019", "end": "2022"}}],
                               "group_by": ["area_submarket"], "order_by": ["homicide_rate"], "limit": 3})
    assert result.ok, result.summary
    rows = result.values["rows"]
    assert [r["area_submarket"] for r in rows] == list(rate.index[:3])
    assert [round(r["homicide_rate"], 1) for r in rows] == [round(v, 1) for v in rate.iloc[:3]]
    names_ = pd.read_csv(ref.DATA / "community_area_ihs_submarket_crosswalk.csv").drop_duplicates("submarket_code")
    assert rows[0]["area_submarket_name"] == names_.set_index("submarket_code").loc[rate.index[0], "submarket_name_2023"]
    assert result.summary.startswith(f"The 3 IHS submarkets (community areas mostly in it) with the highest")
    # Counts add up too: each group's homicides are its areas' sum.
    counts = _query(registry, {"measures": [{"measure": "homicides", "period": {"year": 2021}}],
                               "group_by": ["area_submarket"]})
    by_group = pd.DataFrame({"submarket": _main_submarket(), "n": ref._counts((2021,))}).groupby("submarket")["n"].sum()
    assert {r["area_submarket"]: int(r["homicides"]) for r in counts.values["rows"]} == \
        {k: int(v) for k, v in by_group.items() if v > 0}


def test_a_figure_that_does_not_add_up_over_groups_is_refused(registry):
    result = _query(registry, {"measures": ["per_capita_income"], "group_by": ["area_submarket"]})
    assert not result.ok and "cannot be added up over groups" in result.summary
