"""Readings blind36's last misses and blind37 found wrong, each answered end to end by the rules backend, against
plain pandas over the raw CSVs (tests/semantic_reference.py and tests/planner_helpers.raw_homicides read them without
the app's loaders).

blind36, silently wrong before: the biggest jump vs the month before (the typed query's ``step``), a correlation
inside a bound's set, a home-value growth bound beside a rate bound, a district ranked by its change with its
station's area, a chained area's peak year, a place's gap to the city. blind37: "worse than the city on both", a
bound that leaves places out, "the other 67", a fraction as a quantile, a share of the first set meeting a second
bound, "the 11th district", density quartiles, an area's submarket and its year-over-year change, an area's main ZIP
and that ZIP's value, a ward office's area, "richer than the city" with a value change, the index's own years beside
the homicides', a smaller set inside a larger, the share of a ranked weekday, a month of a year on record, Redfin's
sold-above-list share and a minimum of sales.
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


def _rate(areas, years) -> float:
    return ref._counts(years)[areas].sum() / (ref._acs_pop()[areas].sum() * len(years)) * 1e5


def _city_rate(years) -> float:
    return ref._city_count(years) / (ref._acs_pop().sum() * len(years)) * 1e5


def _city(column: str) -> float:
    """The CHICAGO row of socioeconomic.csv (its columns' names carry stray spaces)."""
    s = pd.read_csv(ref.DATA / "socioeconomic.csv")
    s.columns = [c.strip() for c in s.columns]
    return float(s[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"][column].iloc[0])


def _ihs(code: str, year: int) -> float:
    ihs = pd.read_csv(ref.DATA / "property_ihs_price_index_long.csv")
    return ihs[(ihs.submarket_code == code) & (ihs.year == year)].index_2000q1_100.mean()


def test_a_step_against_the_month_before(ask, hom):
    months = hom[(hom.year == 2021) | ((hom.year == 2020) & (hom.month == 12))].groupby(["year", "month"]).size()
    steps = months.diff().loc[2021]
    month = int(steps.idxmax())
    text = lead(ask("in 2021 which month had the biggest jump in homicides vs the month before, and by how much?"))
    assert f"{pd.Timestamp(2021, month, 1):%B} 2021: {months.loc[(2021, month)]} homicides and a rise of " \
           f"{int(steps.max())} from the month before" in text


def test_a_correlation_inside_a_bound_and_a_growth_bound(ask):
    keep = ref._sm("hardship")[ref._sm("hardship") > 50].index
    years = ref._years(2016, 2022)
    r = ref._sm("unemployed")[keep].corr(ref._rate(years, ref._acs_pop())[keep])
    text = lead(ask("Only looking at areas with a hardship index above 50: correlation between unemployment rate and "
                    "the 2016-2022 homicide rate?"))
    assert f"Across the {len(keep)} community areas" in text and f"r = {r:.2f}" in text
    growth = ref._ca_zhvi(2024, 1) / ref._ca_zhvi(2019, 1) - 1
    rates = ref._rate((2022,), ref._acs_pop())
    both = [a for a in range(1, 78) if rates[a] > _city_rate((2022,)) and growth[a] > growth.median()]
    text = lead(ask("how many community areas had BOTH a 2022 homicide rate above the city's rate and home-value "
                    "growth above the median (zillow jan 2019->jan 2024)?"))
    assert f"There are {len(both)} community areas" in text


def test_a_district_ranked_by_its_change_and_its_station(ask, hom):
    change = hom[hom.year == 2020].groupby("district").size() - hom[hom.year == 2019].groupby("district").size()
    district = int(change.idxmax())
    stations = ref._stations()
    area = int(stations[stations.DISTRICT == str(district)]["COMMUNITY AREA"].iloc[0])
    text = lead(ask("Which police district had the biggest increase in homicides 2019 -> 2020, how big was it, which "
                    "community area is its station in, and what's the per capita income there?"))
    assert f"District {district}" in text and f"a rise of {int(change.max())}" in text
    assert f"{ref._names()[area].title()} ({area}) had per capita income (2008-2012) ${ref._sm('income')[area]:,}" \
        in text


def test_a_chained_area_by_year_and_its_gap_to_the_city(ask, hom):
    area = ref._rank(ref._sm("unemployed"), 1)[0]
    years = hom[(hom.area == area) & hom.year.between(2001, 2022)].groupby("year").size()
    text = lead(ask("Which community area has the highest unemployment rate, and in which year (2001-2022) did it "
                    "have the most homicides?"))
    assert f"from 2001 to 2022 was {int(years.idxmax())}, with {years.max()}" in text
    gap = ref._sm("income")[44] - _city("PER CAPITA INCOME")
    text = lead(ask("How does Chatham compare to the city — homicide rate 2019-2022 and per capita income, difference "
                    "from Chicago overall?"))
    assert f"${abs(gap):,.0f} {'lower' if gap < 0 else 'higher'}" in text


def test_bounds_judged_left_out_and_against_the_rest(ask):
    years = ref._years(2019, 2022)
    rates = ref._rate(years, ref._acs_pop())
    poor = ref._sm("poverty")
    worse = [a for a in range(1, 78) if poor[a] > _city("PERCENT HOUSEHOLDS BELOW POVERTY")
             and rates[a] > _city_rate(years)]
    text = lead(ask("How many community areas are worse than the city as a whole on BOTH poverty and the 2019-22 "
                    "homicide rate?"))
    assert f"There are {len(worse)} community areas" in text
    top = ref._rank(ref._sm("hardship"), 10)
    rest = [a for a in range(1, 78) if a not in top]
    text = lead(ask("How many times higher is the homicide rate (2019-22) in the 10 highest-hardship areas than in the "
                    "other 67?"))
    assert f"{_rate(top, years) / _rate(rest, years):.2f} times" in text


def test_quantiles_of_a_fraction_and_of_a_measure_named_again(ask):
    years = ref._years(2016, 2022)
    density = ref._acs_pop() / pd.read_csv(ref.DATA / "community_areas.csv").set_index("area_number")[
        "area_sq_mi"].reindex(range(1, 78))
    cut = pd.qcut(density.rank(method="first"), 4, labels=False) + 1
    text = lead(ask("Do the densest areas have more violence? pooled homicide rate 2016-2022 for the top quartile by "
                    "population density, and for the bottom quartile"))
    assert f"combined {_rate(list(cut[cut == 4].index), years):.1f} homicides per 100,000" in text
    assert f"combined {_rate(list(cut[cut == 1].index), years):.1f} homicides per 100,000" in text


def test_a_share_of_the_first_set_and_a_district_by_its_ordinal(ask, hom):
    poor = [a for a in range(1, 78) if ref._sm("income")[a] < 15000]
    rose = [a for a in poor if ref._counts((2021,))[a] > ref._counts((2019,))[a]]
    text = ask("Of the community areas with per capita income below $15,000, what % saw more homicides in 2021 than "
               "in 2019?").answer
    assert f"({len(rose) / len(poor) * 100:.1f}% of those {len(poor)} community areas)" in text
    count = int(((hom.district == 11) & (hom.year == 2021)).sum())
    text = lead(ask("How many homicides did the 11th district (Harrison) have in 2021, and what's the poverty rate in "
                    "the community area where its station is?"))
    assert f"District 11 had {count} homicides in 2021" in text


def test_links_of_a_ranked_area(ask):
    area = ref._rank(ref._sm("no_hs"), 1)[0]
    x = ref._xwalk()
    main = x[x.area_number == area].sort_values("share_of_community_area").zip.iloc[-1]
    text = lead(ask("take the area with the highest % of adults w/o a high school diploma. what zip is it mostly in "
                    "and what's the zillow value for that zip in sept 2024?"))
    assert f"ZIP {main}" in text and f"${round(ref._zhvi(2024, 9)[main]):,}" in text
    top = ref._rank(ref._counts((2022,)), 1)[0]
    text = lead(ask("the area w/ the most homicides in 2022 — what IHS submarket is it in and what was that "
                    "submarket's year-over-year price change?"))
    assert ref._names()[top].title() in text and "Austin/North Lawndale" in text


def test_richer_than_the_city_and_a_value_change(ask):
    years = ref._years(2019, 2022)
    rich = [a for a in range(1, 78) if ref._sm("income")[a] > _city("PER CAPITA INCOME")]
    rates = ref._rate(years, ref._acs_pop())[rich]
    area = int(rates.idxmax())
    change = ref._ca_zhvi(2024, 1)[area] / ref._ca_zhvi(2019, 1)[area] * 100 - 100
    text = lead(ask("Among the areas richer than the city average (per capita income), which one has the worst "
                    "homicide rate 2019-22, and how much did home values there change from Jan 2019 to Jan 2024?"))
    assert f"is {ref._names()[area].title()} ({area})" in text and f"{change:+.1f}%" in text


def test_the_index_years_beside_the_homicide_years(ask):
    x = pd.read_csv(ref.DATA / "community_area_ihs_submarket_crosswalk.csv")
    main = x.sort_values("share_of_community_area").groupby("area_number").tail(1)
    areas = list(main[main.submarket_code == "p3158"].area_number)
    text = lead(ask("for the community areas in the IHS Austin/North Lawndale submarket: total homicides in 2022? and "
                    "how much did that submarket's price index rise from 2019 to 2024?"))
    assert f"{ref._counts((2022,))[areas].sum()} homicides in 2022" in text
    assert f"{(_ihs('p3158', 2024) / _ihs('p3158', 2019) - 1) * 100:+.1f}% from 2019 to 2024" in text


def test_a_smaller_set_inside_a_larger(ask):
    years = ref._years(2019, 2022)
    rates = ref._rate(years, ref._acs_pop())
    twenty, five = ref._rank(rates, 20), ref._rank(rates, 5)
    share = ref._counts(years)[five].sum() / ref._counts(years)[twenty].sum() * 100
    text = lead(ask("of all the homicides 2019-2022 in the 20 highest-homicide-rate areas, what % were in just the "
                    "worst 5?"))
    assert f"{share:.1f}% of the {ref._counts(years)[twenty].sum():,} in those 20" in text


def test_times_ranked_as_asked(ask, hom):
    span = hom[hom.year.between(2016, 2022)]
    days = span.groupby("weekday").size()
    text = lead(ask("Which day of the week is deadliest (2016-22), and what % of homicides fall on it?"))
    assert f"{days.max() / len(span) * 100:.1f}% of the {len(span):,}" in text
    months = hom[hom.year.between(2001, 2022)].groupby(["year", "month"]).size()
    year, month = months.idxmax()
    text = lead(ask("what was the single deadliest month on record (2001-2022)?"))
    assert f"{pd.Timestamp(int(year), int(month), 1):%B %Y}, with {months.max()}" in text


def test_redfin_shares_and_a_minimum_of_sales(ask):
    r = ref._redfin_neighborhoods()
    row = r[(r.neighborhood == "Logan Square") & (r.end == pd.Timestamp("2019-06-30"))].iloc[0]
    text = lead(ask("Logan Square median sale price (redfin, 3 months ending June 30 2019)? what % sold above list?"))
    assert f"{row['Sold Above List'] * 100:.1f}%" in text
    window = r[(r.end == pd.Timestamp("2019-06-30")) & (r["Homes Sold"] >= 20)].copy()
    window["price"] = ref._price_k(window["Median Sale Price"].astype(str))
    top = window.sort_values("price").neighborhood.iloc[-1]
    text = lead(ask("Most expensive Redfin neighborhood by median sale price for the 90 days ending 6/30/2019 (only "
                    "places with at least 20 sales)?"))
    assert f"is {top}" in text
