"""Readings blind32 found wrong, each now answered end to end by the rules backend, against plain pandas over the
raw CSVs (tests/semantic_reference.py and tests/planner_helpers.raw_homicides read them without the app's loaders).

Silently wrong before: "how many times higher North Lawndale's rate is than Austin's" (Austin's over North
Lawndale's), the SECOND highest value within a set (the set listed), a district's own count beside its station area's
rate (the area's count only), "of the areas whose population fell, what percent had a rate above the city's" (of all
77), "the highest Zillow value any one of them had" (the set's average), "how much higher (%) was 2025Q4 than the
2007 average" (the two values, no change). Flagged before: a ranked set against "all the other 67 areas", "the
Harrison (11th) district police station", a share of a set's homicides in the areas also majority Black, a bound
"but NOT among the 20 areas with ...", a linked part after an index's own quarters.
"""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead, raw_homicides

pytestmark = pytest.mark.full_data


@pytest.fixture(scope="module")
def hom() -> pd.DataFrame:
    return raw_homicides(ref.DATA)


def _rate(areas, first: int, last: int) -> float:
    years = ref._years(first, last)
    return ref._counts(years)[areas].sum() / (ref._acs_pop()[areas].sum() * len(years)) * 1e5


def test_how_many_times_higher_puts_the_place_after_the_comparative_on_top(ask):
    ratio = _rate([29], 2019, 2022) / _rate([25], 2019, 2022)
    text = lead(ask("Austin vs North Lawndale: homicide rate per 100k per year for 2019-2022 in each, and how many "
                    "times higher North Lawndale's rate is than Austin's?"))
    assert f"(North Lawndale) to homicides per 100,000 residents a year, 2019-2022 (Austin) of {ratio:.2f}" in text


def test_places_at_a_rank_within_a_set(ask):
    hardship = ref._sm("hardship")
    values = ref._ca_zhvi(2020, 1)[hardship[hardship > 50].index].dropna().sort_values(ascending=False)
    second = int(values.index[1])
    text = lead(ask("Of the areas with a hardship index above 50, which one had the SECOND highest Zillow home value in "
                    "January 2020, and what was it?"))
    assert f"the second-highest typical home value (Zillow ZHVI) in January 2020 is {ref._names()[second].title()} " \
        f"({second})" in text and f"${values.iloc[1]:,.0f}" in text
    poorest = ref._rank(ref._sm("income"), 15, highest=False)
    values = ref._ca_zhvi(2024, 9)[poorest]
    top = int(values.idxmax())
    text = lead(ask("among the 15 areas with the lowest per capita income in the 2008-2012 indicators, what's the "
                    "highest Zillow value any one of them had in sept 2024, and which area is it?"))
    assert f"is {ref._names()[top].title()} ({top})" in text and f"${values.max():,.0f}" in text


def test_a_district_s_own_count_beside_its_station_area_s_rate(ask, hom):
    count = int(((hom.district == 7) & (hom.year == 2021)).sum())
    area = int(ref._stations().set_index("DISTRICT").loc["7", "COMMUNITY AREA"])
    text = lead(ask("How many homicides did police district 7 record in 2021, and what was the 2021 homicide rate per "
                    "100k in the community area where the 7th district station is?"))
    assert text.startswith(f"District 7 had {count} homicides in 2021")
    assert f"{ref._rate((2021,), ref._acs_pop())[area]:.1f} homicides per 100,000" in text
    text = lead(ask("The Harrison (11th) district police station is in which community area? what was that area's per "
                    "capita income in the 2008-2012 data?"))
    area = int(ref._stations().set_index("DISTRICT").loc["11", "COMMUNITY AREA"])
    assert f"({area}) had per capita income (2008-2012) ${ref._sm('income')[area]:,.0f}" in text


def test_the_share_of_a_first_set_and_of_its_homicides(ask):
    fell = (ref._acs_pop() < ref._pop2010().reindex(ref._acs_pop().index))
    losers = list(fell[fell].index)
    rates = ref._rate(ref._years(2019, 2022), ref._acs_pop())
    city = ref._city_count(ref._years(2019, 2022)) / 4 / ref._acs_pop().sum() * 1e5
    over = [a for a in losers if rates[a] > city]
    text = lead(ask("Of the areas whose population fell between the 2010 census and the 2019-2023 ACS, what percent had "
                    "a 2019-2022 homicide rate above the city-wide rate?"))
    assert f"({len(over) / len(losers) * 100:.1f}% of those {len(losers)} community areas)" in text
    poverty, black = ref._sm("poverty"), ref._acs()["black_or_african_american"] / ref._acs()["total_population"] * 100
    years = ref._years(2016, 2022)
    first = list(poverty[poverty > 30].index)
    both = [a for a in first if black[a] > 50]
    share = ref._counts(years)[both].sum() / ref._counts(years)[first].sum() * 100
    text = lead(ask("Looking only at homicides in 2016-2022 in the areas where over 30% of households were below poverty "
                    "(2008-2012), what share of those homicides were in the areas that are also majority Black (more "
                    "than 50% Black in ACS 2019-23)?"))
    assert f"{share:.1f}% of the {ref._counts(years)[first].sum():,} in those {len(first)}" in text
    assert "not use" not in text


def test_a_ranked_set_against_all_the_others(ask, hom):
    share = ref._acs()["black_or_african_american"] / ref._acs()["total_population"]
    top = ref._rank(share, 10)
    rows = hom[hom.year.between(2018, 2022) & hom.area.notna()]
    inside = rows.area.isin(top)
    text = lead(ask("For the 10 community areas with the highest percentage of Black residents (ACS 2019-23), what's "
                    "the pooled arrest rate for homicides in 2018-2022 (arrests / homicides, all 10 together)? And the "
                    "same pooled figure for all the other 67 areas?"))
    assert f"a combined arrest rate of {rows[inside].arrested.mean() * 100:.1f}%" in text
    assert "The 67 other community areas" in text
    assert f"a combined arrest rate of {rows[~inside].arrested.mean() * 100:.1f}%" in text


def test_a_bound_and_not_among_a_ranked_set(ask):
    values = ref._ca_zhvi(2024, 9)
    top = ref._rank(ref._rate(ref._years(2019, 2022), ref._acs_pop()), 20)
    kept = [a for a in values[values < 250000].index if a not in top]
    text = lead(ask("How many community areas had a Zillow value below $250,000 in Sept 2024 but are NOT among the 20 "
                    "areas with the highest homicide rate for 2019-2022?"))
    assert text.startswith(f"There are {len(kept)} community areas not among the 20 highest")


def test_a_change_between_a_year_s_mean_and_a_quarter(ask):
    ihs = pd.read_csv(ref.DATA / "property_ihs_price_index_long.csv")
    key = next(c for c in ("submarket_code", "code") if c in ihs)
    city = ihs[ihs[key] == "CHICAGO"]
    year = city[city["year"] == 2007]["index_2000q1_100"].mean()
    quarter = city[city["yearq"] == "2025Q4"]["index_2000q1_100"].iloc[0]
    text = lead(ask("City of Chicago IHS price index: how much higher (%) was 2025Q4 than the 2007 average of the four "
                    "quarters?"))
    assert f"a change of {(quarter / year - 1) * 100:+.1f}% from 2007 to 2025Q4" in text


def test_the_gap_to_the_runner_up(ask):
    share = ref._acs()["hispanic_or_latino"] / ref._acs()["total_population"] * 100 \
        if "hispanic_or_latino" in ref._acs() else None
    assert share is not None
    rates = ref._rate(ref._years(2016, 2022), ref._acs_pop())[share[share > 50].index].sort_values(ascending=False)
    text = lead(ask("Looking only at majority-Hispanic community areas (over 50% Hispanic in the 2019-2023 ACS): which "
                    "had the highest 2016-2022 homicide rate, and how far ahead of the runner-up was it (difference in "
                    "rate per 100k per year)?"))
    assert f"a range of {rates.iloc[0] - rates.iloc[1]:.1f}" in text
    assert f"{ref._names()[int(rates.index[0])].title()} ({int(rates.index[0])})" in text
