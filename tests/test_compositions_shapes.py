"""Compositions the planner said as a nearby shape before: areas picked by their homicide count, a measure asked in
two periods side by side, one area's rank among all, the city's rate in two years, ZIPs over a home value, the areas
that lost the most residents. Each is one query_data call, and the lead carries figures computed here from the CSVs
with plain pandas (tests/semantic_reference.py), not through the app's loaders."""
from __future__ import annotations

import pandas as pd
import pytest

from loop.steps import ToolCallStep
from rules.planner import _already_asked
from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _one_query(run) -> dict:
    assert [c.name for c in run.calls] == ["query_data"], [c.name for c in run.calls]
    return run.calls[0].arguments


def test_areas_picked_by_their_homicide_count_with_the_mean_of_another_measure(ask):
    """"More than 30 homicides in 2021" picks the areas (a count, not 30% or $30); "(Jan 2022)" dates the home
    value, so 2021 alone counts the homicides; the average is the areas' plain mean."""
    run = ask("What's the average Zillow home value (Jan 2022) of the community areas that had more than 30 "
              "homicides in 2021, and how many areas is that?")
    query = _one_query(run)
    counts = ref._counts([2021])
    picked = counts[counts > 30].index
    mean = ref._ca_zhvi(2022, 1).loc[picked].mean()
    assert query["having"] == [{"field": "homicides", "op": ">", "value": 30.0}]
    assert lead(run).startswith(f"There are {len(picked)} community areas with more than 30 homicides in 2021; ")
    assert f"an average typical home value (Zillow ZHVI) in January 2022 of ${mean:,.0f} across them" in lead(run)
    assert "homicides (2021)" in run.reading.line and "(2022-01)" in run.reading.line


def test_a_count_floor_with_the_census_survey_named_beside_it(ask):
    """"(2019-2023 ACS)" names the population's source: no second period, nothing left unused."""
    run = ask("Areas with 100 or more homicides from 2016 through 2020: how many are there and what's their total "
              "population (2019-2023 ACS)?")
    _one_query(run)
    counts = ref._counts(range(2016, 2021))
    picked = counts[counts >= 100].index
    assert lead(run).startswith(f"There are {len(picked)} community areas with at least 100 homicides in "
                                f"2016-2020; ")
    assert f"{int(ref._acs_pop().loc[picked].sum()):,} residents (ACS 2019-2023)" in lead(run)
    assert not run.reading.not_used and "2023 is partial" not in lead(run)


def test_fewer_than_is_a_threshold_below(ask):
    run = ask("how many community areas had fewer than 5 homicides in total from 2016 to 2023, and what's their "
              "combined population?")
    counts = ref._counts(range(2016, 2024))
    picked = counts[counts < 5].index
    assert _one_query(run)["having"] == [{"field": "homicides", "op": "<", "value": 5.0}]
    assert lead(run).startswith(f"There are {len(picked)} community areas with fewer than 5 homicides in 2016-2023")
    assert f"{int(ref._acs_pop().loc[picked].sum()):,} residents" in lead(run)


def test_two_spans_compared_over_a_set_each_get_their_total_and_the_change(ask):
    run = ask("homicides in majority-Black community areas: 2011-2015 total compared to 2016-2020 total")
    _one_query(run)
    share = ref._acs()["black_or_african_american"] / ref._acs()["total_population"] * 100
    picked = share[share > 50].index
    first, second = (int(ref._counts(range(a, b + 1)).loc[picked].sum()) for a, b in ((2011, 2015), (2016, 2020)))
    assert f"{first:,} homicides in 2011-2015" in lead(run) and f"{second:,} homicides in 2016-2020" in lead(run)
    assert f"a rise of {second - first:,} ({(second - first) / first * 100:+.1f}%)" in lead(run)


def test_separate_years_asked_beside_a_ranked_area_are_each_counted(ask):
    """"How many homicides were there in 2021 and in 2022?": each year, not the two summed."""
    run = ask("Which neighborhood has the largest share of households earning under $25k? How many homicides were "
              "there in 2021 and in 2022?")
    _one_query(run)
    acs = ref._acs()
    bands = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
    area = ref._rank(acs["under_25_000"] / acs[bands].sum(axis=1), 1)[0]
    assert f"is {ref._names()[area].title()} ({area}), with " in lead(run) or f"({area}), with " in lead(run)
    for year in (2021, 2022):
        assert f"{int(ref._counts([year]).loc[area])} homicides in {year}" in lead(run)


def test_one_areas_rank_among_all(ask):
    run = ask("where did englewood rank among comunity areas for homicides in 2022?")
    query = _one_query(run)
    counts = ref._counts([2022])
    rank = int((counts > counts.loc[68]).sum()) + 1  # ties share the best place
    assert query["derived"] == [{"name": "rank", "op": "rank", "of": ["homicides"]}]
    assert lead(run) == (f"Englewood (68) had {int(counts.loc[68])} homicides in 2022 and rank {rank} by homicides, "
                         f"2022 (1 = the highest).")


def test_the_citys_rate_in_two_years_compared(ask):
    """Each year's rate over its own population (the 2010 census up to 2015, ACS 2019-2023 after), not one rate
    over 2014-2016."""
    run = ask("chicago homicide rate per 100k: 2014 vs 2016")
    _one_query(run)
    r2014 = ref._city_count([2014]) / ref._pop2010().sum() * 100000
    r2016 = ref._city_count([2016]) / ref._acs_pop().sum() * 100000
    assert lead(run).startswith(f"For the whole city: {r2014:.1f} homicides per 100,000 residents a year in 2014, "
                                f"{r2016:.1f} homicides per 100,000 residents a year in 2016")


@pytest.mark.parametrize("question", ["how many zips had a typical home value over 500k in sept 2024?",
                                      "How many Chicago ZIPs had a typical home value above $500,000 in Sept 2024?"])
def test_zips_picked_by_their_home_value(ask, question):
    run = ask(question)
    assert _one_query(run)["group_by"] == ["zip"]
    values = ref._zhvi(2024, 9)
    over = values[values > 500000].sort_values(ascending=False)
    assert lead(run).startswith(f"There are {len(over)} ZIP codes with ")
    assert all(f"ZIP {z} had" in lead(run) for z in over.index[:5])


def test_the_priciest_zip(ask):
    run = ask("priciest chicago zip code by zillow home value as of sept 2024, and the value?")
    values = ref._zhvi(2024, 9)
    top = values.idxmax()
    assert f"ZIP {top}" in lead(run) and f"${values.max():,.0f}" in lead(run)


def test_the_areas_that_lost_the_most_residents_then_their_homicides(ask):
    run = ask("The 3 community areas that lost the most residents between the 2010 census and the 2019-2023 ACS -- "
              "what were their combined homicides in 2020?")
    _one_query(run)
    change = ref._acs_pop() - ref._pop2010().reindex(ref.AREAS)
    lost = ref._rank(change, 3, highest=False)
    total = int(ref._counts([2020]).loc[lost].sum())
    assert lead(run).startswith("The 3 community areas with the biggest drop in residents from the 2010 census to "
                                "ACS 2019-2023 are ")
    assert all(f"({area})" in lead(run).split(". Together")[0] for area in lost)
    assert f"{total} homicides in 2020" in lead(run)


@pytest.mark.parametrize("question, measure", [
    ("Where did homicides go up the most from 2020 to 2021, and what's the unemployment rate in that community area?",
     "unemployed"),
    ("What community area's murder count grew the most between 2019 and 2022, and what is its 2022 rate per 100k?",
     None)])
def test_the_biggest_rise_in_counts_then_another_measure(ask, question, measure):
    run = ask(question)
    _one_query(run)
    first, last = (2020, 2021) if measure else (2019, 2022)
    change = ref._counts([last]) - ref._counts([first])
    area = ref._rank(change, 1)[0]
    assert f"biggest rise in homicides from {first} to {last} is " in lead(run)
    assert f"({area}), with " in lead(run)
    if measure:
        assert f"{ref._sm(measure).loc[area]:.1f}%" in lead(run)
    else:
        rate = ref._counts([last]).loc[area] / ref._acs_pop().loc[area] * 100000
        assert f"{rate:.1f} homicides per 100,000 residents a year in {last}" in lead(run)


def test_named_places_with_a_home_value_month_and_homicide_years(ask):
    """"(Zillow, Jan 2024)" dates the home value; "in 2023" the homicides: no note that 2024 is outside the homicide
    data, and the places in the order named."""
    run = ask("For Englewood, West Englewood and Auburn Gresham: give me each one's home value (Zillow, Jan 2024) and "
              "how many homicides each had in 2023.")
    query = _one_query(run)
    assert query["filters"] == [{"dimension": "community_area", "in": [68, 67, 71]}]
    values, counts = ref._ca_zhvi(2024, 1), ref._counts([2023])
    text = lead(run)
    assert text.index("Englewood (68)") < text.index("West Englewood (67)") < text.index("Auburn Gresham (71)")
    for area in (68, 67, 71):
        said = text.split(f"({area}) had ")[1].split(". ")[0]
        assert f"${values.loc[area]:,.0f}" in said and f"{int(counts.loc[area])} homicides in 2023" in said
    assert "2024" not in text.replace("January 2024", "")


def test_one_place_two_months_of_home_value_and_two_years_of_homicides(ask):
    run = ask("Austin: typical home value in January 2016 vs January 2022, and its homicide count in 2016 vs 2022?")
    _one_query(run)
    before, after = ref._ca_zhvi(2016, 1).loc[25], ref._ca_zhvi(2022, 1).loc[25]
    h2016, h2022 = (int(ref._counts([y]).loc[25]) for y in (2016, 2022))
    assert f"${before:,.0f}" in lead(run) and f"${after:,.0f}" in lead(run)
    assert f"{h2016} homicides in 2016, {h2022} homicides in 2022" in lead(run)
    assert f"a rise of ${after - before:,.0f}" in lead(run)
    assert f"a {'drop' if h2022 < h2016 else 'rise'} of {abs(h2022 - h2016)}" in lead(run)


def test_areas_that_lost_population_and_their_homicides(ask):
    run = ask("how many community areas lost population between the 2010 census and the 2019-23 ACS? and how many "
              "homicides in 2022 did those areas have in total")
    _one_query(run)
    change = ref._acs_pop() - ref._pop2010().reindex(ref.AREAS)
    lost = change[change < 0].index
    assert lead(run).startswith(f"There are {len(lost)} community areas whose residents fell from the 2010 census "
                                f"to ACS 2019-2023; ")
    assert f"{int(ref._counts([2022]).loc[lost].sum())} homicides in 2022" in lead(run)


def test_areas_whose_home_value_fell_between_two_months(ask):
    """"A lower value in Jan 2024 than in Jan 2019" is a fall from 2019 to 2024; the homicides are over the span
    named alone."""
    run = ask("Which community areas had a lower Zillow home value in Jan 2024 than in Jan 2019? How many homicides "
              "did those areas have combined over 2019-2022?")
    _one_query(run)
    change = ref._ca_zhvi(2024, 1) - ref._ca_zhvi(2019, 1)
    fell = change[change < 0].index
    assert lead(run).startswith(f"There are {len(fell)} community areas whose typical home value (Zillow ZHVI) fell "
                                "from January 2019 to January 2024; ")
    assert all(f"({a}) had " in lead(run) for a in fell)
    assert f"{int(ref._counts(range(2019, 2023)).loc[fell].sum())} homicides in 2019-2022" in lead(run)


def test_named_places_population_change_and_homicides(ask):
    run = ask("Rogers Park vs Edgewater: how much did each one's population change between the 2010 census and the "
              "2019-2023 ACS, and how many homicides did each have 2016-2022?")
    _one_query(run)
    for area in (1, 77):
        said = lead(run).split(f"({area}) had ")[1].split(". ")[0]
        change = int(ref._acs_pop().loc[area] - ref._pop2010().loc[area])
        assert f"a {'drop' if change < 0 else 'rise'} of {abs(change):,}" in said
        assert f"{int(ref._counts(range(2016, 2023)).loc[area])} homicides in 2016-2022" in said


def test_one_place_counts_and_rates_in_two_years(ask):
    run = ask("Englewood in 2005 vs 2021 — number of homicides and the rate per 100,000 residents in each of those "
              "years")
    _one_query(run)
    c2005, c2021 = (int(ref._counts([y]).loc[68]) for y in (2005, 2021))
    r2005, r2021 = c2005 / ref._pop2010().loc[68] * 1e5, c2021 / ref._acs_pop().loc[68] * 1e5
    assert lead(run).startswith(f"Englewood (68) had {c2005} homicides in 2005, {c2021} homicides in 2021, "
                                f"{r2005:.1f} homicides per 100,000 residents a year in 2005, {r2021:.1f} homicides "
                                f"per 100,000 residents a year in 2021")
    assert f"of {c2021 - c2005} in homicides and a rise of {r2021 - r2005:.1f} in homicides per 100,000" in lead(run)


def test_the_most_residents_of_a_group_is_a_count(ask):
    """"The most residents aged 65+" ranks by how many, not by their share."""
    run = ask("Which three community areas have the most residents aged 65+, and how many homicides did each have in "
              "2022?")
    acs = ref._acs()
    seniors = acs["male_65"] + acs["female_65"]
    top = ref._rank(seniors, 3)
    assert all(f"({a})" in lead(run).split(". ")[0] for a in top)
    for area in top:
        assert f"{int(ref._counts([2022]).loc[area])} homicides in 2022" in lead(run).split(f"({area}) had ")[1]


@pytest.mark.parametrize("question", [
    "the 5 community areas with the highest % of households below the poverty line (2008-2012 data) - how many "
    "homicides did they have combined in 2021?",
    "the 5 community areas with the highest poverty (per the 2008-2012 indicators): their 2021 homicides together"])
def test_the_indicators_span_is_their_source_not_a_period(ask, question):
    run = ask(question)
    top = ref._rank(ref._sm("poverty"), 5)
    assert f"{int(ref._counts([2021]).loc[top].sum())} homicides in 2021" in lead(run)
    assert "2008-2012" not in run.calls[0].arguments["measures"][1].get("period", {}).values()


def test_a_ward_office_address_carries_its_zip(ask, data_dir):
    offices = pd.read_csv(data_dir / "ward_offices.csv", dtype=str, encoding="utf-8-sig").set_index("WARD")
    run = ask("who is the alderman for the 27th ward and what zip is the ward office in?")
    assert offices.loc["27", "ZIPCODE"].strip() in lead(run)
    assert offices.loc["27", "ALDERMAN"].split(",")[0].strip() in lead(run)


def test_two_groups_of_residents_in_one_question(ask):
    """"Households earning $125,000 or more" in "the four areas with the highest percentage of Black residents": the
    band is counted over the set, never read as a per-capita-income threshold."""
    run = ask("How many households earning $125,000 or more are there altogether in the four community areas with "
              "the highest percentage of Black residents (ACS 2019-2023)?")
    acs = ref._acs()
    top = ref._rank(acs["black_or_african_american"] / acs["total_population"], 4)
    assert "having" not in _one_query(run)
    assert f"Together they had {int(acs.loc[top, '_125_000'].sum()):,} households earning $125,000" in lead(run)


def test_a_share_over_a_set_is_its_ratio_of_sums(ask):
    run = ask("Taken together, what share of residents are Hispanic or Latino in the four community areas with the "
              "most homicides in 2022?")
    acs = ref._acs()
    top = ref._rank(ref._counts([2022]), 4)
    share = acs.loc[top, "hispanic_or_latino"].sum() / acs.loc[top, "total_population"].sum() * 100
    assert f"a combined share of Hispanic or Latino residents of {share:.1f}%" in lead(run)


def test_the_top_wards_with_their_share_of_the_city(ask, raw):
    run = ask("What share of 2020's homicides took place in the three wards with the most homicides that year?")
    assert _one_query(run)["group_by"] == ["ward"]
    counts = raw[raw.year == 2020].groupby("ward").size().sort_values(ascending=False, kind="mergesort")
    total = int(counts.iloc[:3].sum())
    city = int((raw.year == 2020).sum())
    assert f"Together they had {total} homicides in 2020 ({total / city * 100:.1f}% of the city's {city})" in lead(run)


def test_how_many_wards_are_over_a_count(ask, raw):
    run = ask("How many of the wards had more than 25 homicides in 2022, and which ward had the most?")
    counts = raw[raw.year == 2022].groupby("ward").size().sort_values(ascending=False, kind="mergesort")
    assert lead(run).startswith(f"There are {int((counts > 25).sum())} wards with at least 26 homicides in 2022. "
                                f"Ward {int(counts.index[0])} had {int(counts.iloc[0])} homicides in 2022.")


def test_the_indicators_span_beside_their_measure_is_no_homicide_period(ask, raw):
    run = ask("Austin vs Humboldt Park: homicides in 2021 and per capita income (2008-2012) for each?")
    for area, name in ((25, "Austin"), (23, "Humboldt Park")):
        count = int(((raw.year == 2021) & (raw.area == area)).sum())
        assert f"There were {count} homicides in {name} (community area {area}) in 2021" in lead(run)


def test_a_planned_call_is_asked_once_when_its_canonical_form_drops_an_empty_argument(registry):
    """The canonical form leaves out an empty group_by: the planner must still see its call as asked, or it plans it
    again and the run records a duplicate."""
    planned = {"measures": [{"measure": "homicides", "period": {"year": 2021}}], "group_by": [], "totals": False}
    canonical = registry.canonicalize("query_data", planned)
    ran = ToolCallStep(call=1, name="query_data", arguments=canonical, status="ok")
    assert "group_by" not in canonical and _already_asked("query_data", planned, [ran])


def test_the_biggest_drop_between_two_five_year_totals(ask):
    run = ask("Which three community areas had the biggest decline in homicides from the 2001-2005 five-year total to "
              "the 2011-2015 five-year total, and what's each one's population in the 2019-2023 ACS?")
    _one_query(run)
    change = ref._counts(range(2011, 2016)) - ref._counts(range(2001, 2006))
    dropped = ref._rank(change, 3, highest=False)
    assert lead(run).startswith("The 3 community areas with the biggest drop in homicides from 2001-2005 to "
                                "2011-2015 are ")
    assert all(f"({a})" in lead(run).split(". Together")[0] for a in dropped)
    assert all(f"{int(ref._acs_pop().loc[a]):,} residents" in lead(run) for a in dropped)


def test_the_second_biggest_rise_then_the_acs_population(ask):
    """"Per the ACS 2019-2023" names the population's source: no 2019-2023 period for the homicides."""
    run = ask("Second-biggest increase in homicides from 2019 to 2020 among community areas - which one, and how many "
              "people live there per the ACS 2019-2023?")
    _one_query(run)
    change = ref._counts([2020]) - ref._counts([2019])
    area = ref._rank(change, 2)[1]
    assert f"second-biggest rise in homicides from 2019 to 2020 is " in lead(run) and f"({area}), with " in lead(run)
    assert f"{int(ref._acs_pop().loc[area]):,} residents (ACS 2019-2023)" in lead(run)


def test_topped_is_a_bound_and_the_census_indicators_span_their_source(ask):
    run = ask("areas where unemployment topped 25% in the 2008-12 data -- how many, and what's their mean home value "
              "for Sept 2024?")
    picked = ref._sm("unemployed")[ref._sm("unemployed") > 25].index
    assert lead(run).startswith(f"There are {len(picked)} community areas with unemployment (aged 16+) over 25%")
    assert f"of ${ref._ca_zhvi(2024, 9).loc[picked].mean():,.0f} across them" in lead(run)
    low = ask("three areas w/ the lowest unemployment in the 2008-2012 census indicators - how many homicides has "
              "each had in the full homicide file (2001 to july 2023)?")
    bottom = ref._rank(ref._sm("unemployed"), 3, highest=False)
    assert f"Together they had {int(ref._counts().loc[bottom].sum())} homicides in 2001-2023" in lead(low)
    assert not low.reading.not_used


def test_a_threshold_and_the_other_end_of_all_the_places(ask):
    """"How many ZIPs were above $400,000 in June 2022, and which was the cheapest": the set counted, and the
    cheapest of every ZIP (not of the set)."""
    run = ask("How many of the Chicago ZIPs in the Zillow file had a typical home value above $400,000 in June 2022, "
              "and which ZIP was the cheapest that month?")
    values = ref._zhvi(2022, 6)
    assert lead(run).startswith(f"There are {int((values > 400000).sum())} ZIP codes with ")
    assert f"is ZIP {values.idxmin()}, with a typical home value (Zillow ZHVI) of ${values.min():,.0f} in June 2022" \
        in lead(run)
    assert "where typical home value (Zillow ZHVI) is over $400,000" in run.reading.line
