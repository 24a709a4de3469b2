"""A named place's rank on any declared measure, and the two ends of a ranking compared, end to end through the rules
backend against plain pandas over the raw CSVs.

- "Austin's rank in homicides per square mile", "where does Hyde Park rank by land area (1 = smallest)", "where does
  Logan Square rank in homes sold according to Redfin in 2018": every member of the grain ranked on the measure the
  question names, and the named one's position (the answer had given the figure and said it could not use the rank).
- "Take the richest and the poorest community areas ...: the ratio of the poorest one's homicide rate to the richest
  one's": each end by name with its figure, and the ratio the way it was asked (the answer had compared the richest
  with the city).
"""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _areas() -> pd.DataFrame:
    return pd.read_csv(ref.DATA / "community_areas.csv").set_index("area_number")


def _homicides(first: int, last: int) -> pd.Series:
    h = pd.read_csv(ref.DATA / "homicides.csv", dtype=str, usecols=["Year", "Community Area"])
    h = h.assign(year=h["Year"].astype(int), area=pd.to_numeric(h["Community Area"], errors="coerce"))
    h = h[h.year.between(first, last) & h.area.notna()]
    return h.groupby(h.area.astype(int)).size().reindex(range(1, 78), fill_value=0)


def test_a_places_rank_on_a_measure_with_no_ranking_tool(ask):
    areas = _areas()
    density = _homicides(2016, 2022) / areas["area_sq_mi"]
    rank = int(density.rank(ascending=False, method="min")[25])
    text = lead(ask("Austin's rank (1 = highest) in homicides per square mile among community areas, 2016-2022?"))
    assert f"{density[25]:.1f} homicides per square mile" in text and f"rank {rank} " in text
    assert "could not use" not in text


def test_a_rank_counted_from_the_lowest(ask):
    sq = _areas()["area_sq_mi"]
    text = lead(ask("where does Hyde Park rank by land area (1 = smallest)?"))
    assert f"rank {int(sq.rank(method='min')[41])} by land area (1 = the lowest)" in text
    assert "could not use" not in text
    income = ref._sm("income")
    income = income[income.index > 0]
    text = lead(ask("where does Austin rank in per capita income (1 = lowest)?"))
    assert f"rank {int(income.rank(method='min')[25])} by per capita income" in text


def test_a_neighborhoods_rank_by_its_name(ask):
    """A Redfin neighborhood is a member by name: the having on it matches the name, and its rank is among the
    neighborhoods (Redfin's sides of the city are wholes of them, not ranked beside them)."""
    r = pd.read_csv(ref.DATA / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    r = r.assign(end=pd.to_datetime(r["Period End"]), name=r["Region"].str.replace("Chicago, IL - ", "", regex=False))
    sides = ("Far North Side", "North Side", "Northwest Side", "West Side", "Central Chicago", "South Side",
             "Southwest Side", "Far Southwest Side", "Far Southeast Side")
    year = r[r["Region"].str.startswith("Chicago, IL - ") & ~r["name"].isin(sides) & (r.end.dt.year == 2018)]
    last = year.sort_values("end").groupby("name").tail(1).set_index("name")["Homes Sold"]
    rank = int(last.rank(ascending=False, method="min")["Logan Square"])
    text = lead(ask("Where does Logan Square rank in homes sold according to Redfin in 2018?"))
    assert f"Logan Square had {last['Logan Square']:,} homes sold" in text and f"rank {rank} " in text


def test_the_two_ends_of_a_ranking_compared_by_name(ask):
    income = ref._sm("income")
    income = income[income.index > 0]
    poorest, richest = int(income.idxmin()), int(income.idxmax())
    homicides, population = _homicides(2016, 2022), ref._acs_pop()
    rate = {a: homicides[a] / (population[a] * 7) * 100_000 for a in (poorest, richest)}
    text = lead(ask("Take the richest and the poorest community areas by 2008-2012 per capita income. What's the "
                    "ratio of the poorest one's 2016-2022 homicide rate to the richest one's?"))
    poor_name, rich_name = ref._sm("name")[poorest], ref._sm("name")[richest]
    assert text.startswith(f"{poor_name} ({poorest}), the community area with the lowest per capita income")
    assert f"{rate[poorest]:.1f} homicides per 100,000" in text and f"{rate[richest]:.1f} homicides per 100,000" in text
    assert f"{poor_name}'s figure is {rate[poorest] / rate[richest]:.2f} times {rich_name}'s" in text


def test_a_wards_and_a_districts_rank(ask):
    """One ward or police district named with its rank asked: every ward (district) ranked by its homicides."""
    h = pd.read_csv(ref.DATA / "homicides.csv", dtype=str, usecols=["Year", "Ward", "District"])
    h = h.assign(year=h["Year"].astype(int), ward=pd.to_numeric(h["Ward"], errors="coerce"),
                 district=pd.to_numeric(h["District"], errors="coerce"))
    wards = h[h.year == 2021].dropna(subset=["ward"]).groupby("ward").size()
    text = lead(ask("where does ward 28 rank for homicides in 2021?"))
    assert text.startswith(f"Ward 28 had {wards[28]} homicides in 2021 and rank "
                           f"{int(wards.rank(ascending=False, method='min')[28])} ")
    districts = h[h.year == 2020].dropna(subset=["district"]).groupby("district").size()
    text = lead(ask("what's district 11's rank in homicides in 2020?"))
    assert text.startswith(f"District 11 had {districts[11]} homicides in 2020 and rank "
                           f"{int(districts.rank(ascending=False, method='min')[11])} ")
