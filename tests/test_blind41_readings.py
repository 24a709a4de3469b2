"""What blind41 found missing, each answered end to end by the rules backend and checked against plain pandas over the
raw CSVs (tests/semantic_reference.py and tests/planner_helpers.raw_homicides read them without the app's loaders).

Years read one by one ("in how many years did homicides go up from the year before", "the first year over 700"), the
single deadliest month, the gap between the deadliest and quietest month, a share asked of the set a question opens
with, a change counted inside a ranked set, each area's IHS index change through its main submarket (a declared join)
correlated, a set's domestic share beside the city's, a weight named as "weights = ...", an area's submarket found by
a ranking, a trend in the area a ranking finds, population change correlated with a rate.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _ihs_by_area(year: int) -> pd.Series:
    """Each area's main submarket's mean index over the year's quarters (the crosswalk's largest land share)."""
    ihs = pd.read_csv(ref.DATA / "property_ihs_price_index_long.csv")
    means = ihs[ihs["year"] == year].groupby("submarket_code")["index_2000q1_100"].mean()
    xw = pd.read_csv(ref.DATA / "community_area_ihs_submarket_crosswalk.csv").dropna(subset=["area_number"])
    main = xw.sort_values("share_of_community_area", ascending=False).drop_duplicates("area_number")
    return main.set_index(main["area_number"].astype(int))["submarket_code"].map(means).reindex(ref.AREAS)


def test_years_read_one_by_one(ask):
    counts = {y: ref._city_count((y,)) for y in range(2001, 2023)}
    up = sum(counts[y] > counts[y - 1] for y in range(2002, 2023))
    text = lead(ask("Between 2001 and 2022, in how many years did homicides go up compared with the year before?"))
    assert f"There are {up} years in which homicides rose from the year before" in text
    first = next(y for y in range(2011, 2023) if ref._city_count((y,)) > 700)
    text = lead(ask("After 2010, what was the first year Chicago had more than 700 homicides?"))
    assert f"the one that came first is in {first}, with {ref._city_count((first,))} homicides" in text


def test_the_single_deadliest_month_and_the_months_gap(ask):
    h = ref._hom()
    months = h[h["year"].between(2020, 2022)].groupby(["year", "month"]).size()
    (year, month), most = months.idxmax(), months.max()
    text = lead(ask("which single month had the most homicides between 2020 and 2022, and how many?"))
    assert f"is {pd.Timestamp(year=year, month=month, day=1):%B %Y}, with {most} homicides" in text
    in_2021 = h[h["year"] == 2021].groupby("month").size()
    text = lead(ask("In 2021 how many more homicides were there in the deadliest calendar month than in the least "
                    "deadly one? which month was worst?"))
    assert f"a range of {in_2021.max() - in_2021.min()}" in text


def test_a_share_asked_of_the_set_the_question_opens_with(ask):
    zhvi, counts = ref._ca_zhvi(2024, 9), ref._counts((2022,))
    above = [a for a in ref.AREAS if zhvi[a] > zhvi.median()]
    none = [a for a in above if counts[a] == 0]
    text = ask("Among community areas with above-median home values (ZHVI Sept 2024), what percent had zero homicides "
               "in 2022?").answer
    assert f"({len(none) / len(above) * 100:.1f}% of those {len(above)} community areas)" in text


def test_a_change_counted_inside_a_ranked_set(ask):
    top = ref._rank(ref._sm("poverty"), 20)
    rose = [a for a in top if ref._counts((2020,))[a] > ref._counts((2019,))[a]]
    text = lead(ask("of the 20 highest-poverty community areas, how many saw homicides go up from 2019 to 2020?"))
    assert f"There are {len(rose)} community areas among the 20 highest by households below poverty" in text


def test_the_ihs_index_change_through_each_areas_main_submarket(ask):
    change = (_ihs_by_area(2024) / _ihs_by_area(2019) - 1) * 100
    both = pd.DataFrame({"c": change, "p": ref._sm("poverty")}).dropna()
    rho = both["c"].rank().corr(both["p"].rank())
    text = lead(ask("Rank correlation (Spearman) between each area's IHS house-price change 2019->2024 (its main "
                    "submarket, yearly averages) and its poverty rate?"))
    assert f"Spearman's rho {rho:.2f}" in text and f"Across the {len(both)} community areas" in text


def test_a_sets_domestic_share_beside_the_citys(ask, raw):
    years = ref._years(2019, 2022)
    top = ref._rank(ref._rate(years, ref._acs_pop()), 10)
    rows = raw[raw["year"].between(2019, 2022)]
    inside = rows[rows["area"].isin(top)]
    text = lead(ask("in the 10 most violent areas by 2019-2022 homicide rate, what share of homicides were domestic, "
                    "vs the city as a whole?"))
    assert f"of {inside['domestic'].mean() * 100:.1f}% (the city's: {rows['domestic'].mean() * 100:.1f}%)" in text


def test_weights_named_after_an_equals_sign(ask):
    rate = ref._rate(ref._years(2019, 2022), ref._acs_pop())
    city = ref._city_count(ref._years(2019, 2022)) / (ref._acs_pop().sum() * 4) * 100000
    picked = [a for a in ref.AREAS if rate[a] > city]
    income, people = ref._sm("income")[picked], ref._acs_pop()[picked]
    text = lead(ask("For areas with a 2019-22 homicide rate above the city's, what's the population-weighted average "
                    "per capita income (weights = 2019-23 ACS pop)?"))
    assert f"${(income * people).sum() / people.sum():,.0f} weighted by residents (ACS 2019-2023)" in text


def test_a_trend_in_the_area_a_ranking_finds(ask):
    area = ref._rank(ref._sm("hardship"), 1)[0]
    years = list(range(2012, 2023))
    slope = np.polyfit(years, [ref._counts((y,))[area] for y in years], 1)[0]
    text = lead(ask("In the area with the highest hardship index, what's the trend in yearly homicides from 2012 to "
                    "2022 (OLS slope, killings per year)?"))
    assert text.lower().startswith(f"in {ref._names()[area].lower()}") and f"a slope of {slope:+.1f} a year" in text


def test_population_change_correlated_with_a_rate(ask):
    change = (ref._acs_pop() - ref._pop2010()) / ref._pop2010() * 100
    r = np.corrcoef(change, ref._rate(ref._years(2010, 2015), ref._pop2010()))[0, 1]
    text = lead(ask("Is population change since 2010 (2010 census -> 2019-23 ACS, %) related to the homicide rate in "
                    "2010-2015? give me the pearson r"))
    assert f"r = {r:.2f} (Pearson" in text
