"""Places named by their rank on a measure and something more, from the blind22 set's shapes: two ranked sets
intersected, a set bounded by a median, a ranking inside a set (from either end), the N-th place with a figure only
the layer has, a spread over years or per area, a season, an arrest rate in two years, a pooled arrest rate beside the
city's, and a 2010-census group said to be missing. Figures from the CSVs with plain pandas (tests/semantic_reference);
every question runs through the rules backend end to end."""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _name(area: int) -> str:
    """The area's name as the answers write it (the file's own capitalisation: "O'Hare", "McKinley Park")."""
    areas = pd.read_csv(ref.DATA / "community_areas.csv")
    return dict(zip(areas["area_number"].astype(int), areas["name_socioeconomic"]))[area]


def _rate(years: tuple) -> pd.Series:
    return ref._rate(years, ref._acs_pop())


def test_a_ranking_inside_a_ranked_set(ask):
    worst = ref._rank(ref._sm("hardship"), 15, highest=True)
    values = ref._ca_zhvi(2024, 9)[worst]
    top = int(values.idxmax())
    text = lead(ask("Among the 15 areas with the worst hardship index, which one had the highest Zillow home value in "
                    "September 2024, and what was that value?"))
    assert text.startswith("Of the 15 community areas with the highest hardship index")
    assert f"is {_name(top)} ({top})" in text and f"${values.max():,.0f}" in text
    # from the other end: the lowest incomes, and the most homicides among them
    poorest = ref._rank(ref._sm("income"), 10, highest=False)
    counts = ref._counts(ref._years(2022))[poorest]
    most = int(counts.idxmax())
    text = lead(ask("Of the 10 community areas with the lowest per capita income, which had the most homicides in "
                    "2022?"))
    assert f"is {_name(most)} ({most})" in text and f"{counts.max()} homicides in 2022" in text


def test_a_ranked_set_bounded_by_the_median_of_every_area(ask):
    most = ref._rank(ref._counts(ref._years(2016, 2022)), 10)
    values = ref._ca_zhvi(2024, 9)
    below = int((values[most] < values.dropna().median()).sum())
    text = lead(ask("Of the ten areas with the most homicides in 2016-2022 combined, how many had a September 2024 "
                    "home value below the median across areas?"))
    assert text.startswith(f"There are {below} community areas among the 10 highest by homicides in 2016-2022")


def test_two_ranked_sets_intersected(ask):
    poor = set(ref._rank(ref._sm("poverty"), 20))
    violent = set(ref._rank(_rate(ref._years(2019, 2022)), 20))
    text = lead(ask("How many community areas are in both the top 20 for household poverty (2008-2012) and the top 20 "
                    "for homicide rate 2019-2022?"))
    assert text.startswith(f"There are {len(poor & violent)} community areas among the 20 highest by households below "
                           "poverty and among the 20 highest by homicides per 100,000 residents")


def test_the_nth_place_with_a_figure_only_the_layer_has(ask):
    acs = ref._acs()
    share = acs["black_or_african_american"] / acs["total_population"] * 100
    third = ref._rank(share, 3)[2]
    land = pd.read_csv(ref.DATA / "community_areas.csv").set_index("area_number")["area_sq_mi"]
    density = ref._counts(ref._years(2018, 2022))[third] / land[third]
    text = lead(ask("Which area has the third-highest Black population share in the 2019-2023 ACS, and what was its "
                    "homicide density (victims per square mile) for 2018-2022 in total?"))
    assert f"third-highest share of Black residents is {_name(third)} ({third})" in text
    assert f"{density:.1f} homicides per square mile in 2018-2022" in text


def test_a_spread_over_the_years_and_per_area(ask):
    yearly = ref._hom()[ref._hom()["year"].between(2010, 2019)].groupby("year").size()
    text = lead(ask("what's the median annual homicide count over 2010-2019"))
    assert f"the median is {yearly.median():g}" in text and f"runs from {yearly.min()} to {yearly.max()}" in text
    per_area = ref._counts(ref._years(2022))
    text = lead(ask("What was the median number of homicides per community area in 2022?"))
    assert f"the median is {per_area.median():g}" in text


def test_a_season_said_as_fall(ask):
    rows = ref._hom()
    autumn = int(((rows["area"] == 25) & (rows["year"] == 2020) & rows["month"].isin([9, 10, 11])).sum())
    text = lead(ask("how many homicides in Austin in fall 2020 (Sept-Nov)?"))
    assert text.startswith(f"There were {autumn} homicides in Austin (community area 25) in September, October and "
                           "November 2020")


def _arrest_rate(years: tuple, areas=None) -> float:
    raw = pd.read_csv(ref.DATA / "homicides.csv", usecols=["Year", "Arrest", "Community Area"])
    raw = raw[raw["Year"].isin(list(years))]
    if areas is not None:
        raw = raw[raw["Community Area"].isin([float(a) for a in areas])]
    return float(raw["Arrest"].astype(str).str.lower().eq("true").mean() * 100)


def test_arrest_rates_of_two_years_and_beside_the_city(ask):
    text = lead(ask("Homicide arrest rate in 2012 vs 2022 — what were they?"))
    assert f"went from {_arrest_rate((2012,)):.1f}% in 2012 to {_arrest_rate((2022,)):.1f}% in 2022" in text
    top = ref._rank(ref._ca_zhvi(2024, 9), 10)
    years = ref._years(2016, 2022)
    text = lead(ask("For the 10 community areas with the highest Zillow home values in September 2024, what was the "
                    "pooled arrest rate for homicides in 2016-2022, and what was the city's?"))
    assert f"a combined arrest rate of {_arrest_rate(years, top):.1f}% (the city's: {_arrest_rate(years):.1f}%)" in text


def test_a_group_asked_of_the_2010_census_is_said_to_be_missing(ask):
    text = lead(ask("What was the Hispanic share of Pilsen's (Lower West Side) population in the 2010 census?"))
    assert "does not include race, ethnicity or age from the 2010 census" in text


def test_two_bounds_asked_together_count_the_places_meeting_both(ask):
    values, none = ref._ca_zhvi(2024, 9), ref._counts(ref._years(2022)) == 0
    both = int(((values > 300000) & none).sum())
    text = lead(ask("how many community areas had a Zillow home value above $300,000 in Sept 2024 and zero homicides "
                    "in 2022?"))
    assert text.startswith(f"There are {both} community areas with no homicides in 2022 and with a typical home value")
    years = ref._years(2019, 2022)
    rate = _rate(years)
    city = ref._city_count(years) / len(years) / ref._acs_pop().sum() * 100000
    picked = int(((rate > city) & (values < values.dropna().median())).sum())
    text = lead(ask("What percent of Chicago's 77 community areas had BOTH a 2019-2022 homicide rate above the "
                    "citywide rate and a Sept 2024 home value below the median area value?"))
    assert f"There are {picked} community areas" in text
    assert f"({picked / 76 * 100:.1f}% of the 76 community areas with a figure; {picked / 77 * 100:.1f}% of all 77)" \
        in text


def test_a_ranked_sets_pooled_figures(ask):
    crowded = ref._rank(ref._sm("crowded"), 10)
    before, after = ref._pop2010()[crowded].sum(), ref._acs_pop()[crowded].sum()
    text = lead(ask("In the ten areas with the most overcrowded housing (2008-2012), the combined population shrank "
                    "between the 2010 census and the 2019-2023 ACS — by what percent?"))
    assert f"a change of {(after / before - 1) * 100:.1f}% in residents" in text
    jan19, jan24 = ref._ca_zhvi(2019, 1), ref._ca_zhvi(2024, 1)
    grew = ref._rank((jan24 / jan19 - 1) * 100, 10)
    years = ref._years(2019, 2022)
    pooled = ref._counts(years)[grew].sum() / len(years) / ref._acs_pop()[grew].sum() * 100000
    city = ref._city_count(years) / len(years) / ref._acs_pop().sum() * 100000
    text = lead(ask("Take the 10 areas where Zillow values grew most (percent) from Jan 2019 to Jan 2024. What was "
                    "their pooled homicide rate for 2019-2022, and how does it compare with the city-wide rate for the "
                    "same years?"))
    assert f"a combined {pooled:.1f} homicides per 100,000 residents a year in 2019-2022 (the city's: {city:.1f})" \
        in text


def test_the_places_that_grew_fastest_and_their_homicides(ask):
    growth = (ref._acs_pop() / ref._pop2010() - 1) * 100
    fastest = ref._rank(growth, 5)
    total = ref._counts(ref._years(2019, 2022))[fastest].sum()
    text = lead(ask("The five community areas that grew fastest (percent) between the 2010 census and the 2019–2023 "
                    "ACS — how many homicides did they have in total over 2019-2022?"))
    assert f"{total} homicides in 2019-2022" in text.split(". Loop")[0]
    assert all(_name(a) in text for a in fastest)


def test_the_share_of_a_sets_homicides_in_some_hours(ask):
    rows = ref._hom()
    rows = rows[rows["year"].between(2015, 2022)]
    most = ref._rank(ref._counts(ref._years(2015, 2022)), 5)
    picked = rows[rows["area"].isin(most)]
    night = picked["date"].dt.hour.isin([22, 23, 0, 1, 2, 3])
    text = lead(ask("In the five community areas with the most homicides over 2015-2022, what percent of those "
                    "homicides happened between 10pm and 3:59am?"))
    together = text.split("Together they had ")[1].split(". ")[0]
    assert f"{len(picked):,} homicides in 2015-2022" in together and f"{int(night.sum())} homicides (hour" in together
    city = (rows["date"].dt.hour.isin([22, 23, 0, 1, 2, 3])).mean() * 100  # the city's own share beside it
    assert together.endswith(f"of {night.mean() * 100:.1f}% (the city's: {city:.1f}%)")
