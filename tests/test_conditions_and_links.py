"""Compositions a fresh blind set (blind17) found answered as a nearby shape: several conditions on the areas at once,
a ZIP linked to the community area covering most of it (and an area to its main ZIP) with the linked place's figures,
calendar dates ranked, a ranked set picked by the count while the rate is asked beside it, a place left out of a
ranked set, the domestic and non-domestic arrest rates side by side. Figures are computed here from the CSVs with
plain pandas (tests/semantic_reference.py), not through the app's loaders."""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _queries(run) -> list[dict]:
    assert {c.name for c in run.calls} == {"query_data"}, [c.name for c in run.calls]
    return [c.arguments for c in run.calls]


def _pooled_rate(years, areas) -> pd.Series:
    """Each area's homicide rate a year over ``years`` (2016 on: the ACS population)."""
    return ref._counts(years).loc[areas] / (len(years) * ref._acs_pop().loc[areas]) * 100000


def test_two_conditions_give_the_first_set_then_those_meeting_both(ask):
    run = ask("How many community areas had a 2016-2022 homicide rate above 50 per 100,000 a year? And how many of "
              "those also have a hardship index of 90 or higher?")
    rates = _pooled_rate(range(2016, 2023), list(range(1, 78)))
    first = rates[rates > 50].index
    both = [a for a in first if ref._sm("hardship").get(a, 0) >= 90]
    first_query, both_query = _queries(run)
    assert [h["op"] for h in both_query["having"]] == [">", ">="]
    assert f"There are {len(first)} community areas with more than" in lead(run) and "homicides per 100,000" in lead(run)
    assert f"There are {len(both)} community areas with" in lead(run) and "hardship index (2008-2012) of at least 90" \
        in lead(run)


def test_a_count_floor_after_a_population_bound(ask):
    """"fewer than 5 homicides" bounds the count beside a bound on residents (a count condition needs a measure of
    another kind beside it, which the first condition is)."""
    run = ask("Of the community areas with more than 50,000 residents (ACS 2019-2023), how many had fewer than 5 "
              "homicides in 2022?")
    pop, counts = ref._acs_pop(), ref._counts([2022])
    picked = [a for a in pop.index if pop[a] > 50000 and counts[a] < 5]
    assert f"There are {len(picked)} community areas with more than 50,000 residents (ACS 2019-2023) and with " \
           f"fewer than 5 homicides in 2022" in lead(run)


def test_sixteen_plus_is_the_unemployment_measure_not_a_bound(ask):
    run = ask("how many areas had 16+ unemployment above 25% in the 2008-2012 indicators AND a 2019 homicide rate "
              "over 40 per 100k?")
    # the two bounds asked together ("AND") are one query: "16+" names the measure, it bounds nothing
    queries = _queries(run)
    assert len(queries) == 1
    assert queries[0]["having"] == [{"field": "pct_unemployed", "op": ">", "value": 25.0},
                                    {"field": "homicide_rate", "op": ">", "value": 40.0}]
    assert not run.reading.not_used


def test_the_cheapest_zip_its_main_area_and_that_area_s_homicides(ask):
    run = ask("cheapest zip code by zillow value sept 2024? what community area is it mostly, and how many "
              "homicides did that area have in 2022")
    values = ref._zhvi(2024, 9).dropna()
    cheapest = values.idxmin()
    x = ref._xwalk()
    main = int(x[x["zip"] == cheapest].sort_values("share_of_zip", ascending=False)["area_number"].iloc[0])
    ranked, follow = _queries(run)
    assert ranked["group_by"] == ["zip"] and follow["filters"] == [{"dimension": "community_area", "in": [main]}]
    name = ref._names()[main].title()
    assert f"is ZIP {cheapest}, with a typical home value (Zillow ZHVI) of ${values.min():,.0f} in September 2024" \
        in lead(run)
    assert f"{name} (community area {main})" in lead(run)
    assert f"{name} ({main}) had {int(ref._counts([2022])[main])} homicides in 2022." in lead(run)
    assert not run.reading.not_used


def test_an_area_s_main_zip_and_that_zip_s_value(ask):
    run = ask("What's the main ZIP code for Austin (largest share of its land), what was its Zillow value in "
              "September 2024, and how many homicides did Austin have in 2016-2022?")
    x = ref._xwalk()
    main = x[x["area_number"] == 25].sort_values("share_of_community_area", ascending=False)["zip"].iloc[0]
    assert f"ZIP {main}" in lead(run)
    assert f"ZIP {main} had a typical home value (Zillow ZHVI) of ${ref._zhvi(2024, 9)[main]:,.0f} in September " \
           f"2024" in lead(run)
    assert f"{int(ref._counts(range(2016, 2023))[25])} homicides in 2016-2022" in lead(run)


def test_a_named_zip_s_fall_and_the_areas_it_overlaps(ask):
    run = ask("ZIP 60637 (Hyde Park / Woodlawn area): by what percent did its Zillow value fall from Jan 2007 to Jan "
              "2012, and how many community areas overlap that ZIP in the crosswalk?")
    before, after = ref._zhvi(2007, 1)["60637"], ref._zhvi(2012, 1)["60637"]
    overlapping = int((ref._xwalk()["zip"] == "60637").sum())
    assert f"a change of {(after / before - 1) * 100:+.1f}% from January 2007 to January 2012" in lead(run)
    assert f"{overlapping} community areas overlapping the ZIP" in lead(run)


def test_the_single_deadliest_date(ask):
    run = ask("What was the single deadliest day in the homicide data (most victims on one date), and how many "
              "people were killed?")
    by_day = ref._hom().groupby(ref._hom()["date"].dt.date).size()
    assert by_day.nlargest(2).iloc[0] > by_day.nlargest(2).iloc[1]  # one date leads (no tie to name)
    assert f"date {by_day.idxmax().isoformat()}, with {by_day.max()} homicides" in lead(run)


def test_what_date_the_data_runs_to_is_no_ranking_of_dates(ask):
    run = ask("How many homicides are in the data for 2023, and through what date does it go?")
    assert lead(run).startswith(f"There were {ref._city_count([2023])} homicides in Chicago in 2023")


@pytest.mark.parametrize("question, unit", [
    ("Over 2016-2022 combined, which calendar month had the most homicides and how many?", "month"),
    ("which full year between 2001 and 2022 had the fewest homicides, and how many?", "year"),
])
def test_a_word_between_which_and_the_unit_of_time(ask, question, unit):
    run = ask(question)
    h = ref._hom()
    if unit == "month":
        by = h[h["year"].between(2016, 2022)].groupby("month").size()
        best, word = by.idxmax(), "most"
        name = pd.Timestamp(2000, int(best), 1).strftime("%B")
    else:
        by = h[h["year"].between(2001, 2022)].groupby("year").size()
        best, word = by.idxmin(), "fewest"
        name = str(best)
    assert lead(run).startswith(f"The {unit} with the {word} homicides from {2016 if unit == 'month' else 2001} to "
                                f"2022 was {name}, with {by[best]}")


def test_the_most_homicides_picks_the_set_and_the_rate_is_pooled_beside_it(ask):
    run = ask("the 4 neighborhoods w/ the most homicides in 2022 - what's their combined population (ACS) and their "
              "combined 2022 homicide rate per 100k?")
    top = ref._rank(ref._counts([2022]), 4)
    pop = int(ref._acs_pop().loc[top].sum())
    pooled = ref._counts([2022]).loc[top].sum() / pop * 100000
    assert _queries(run)[0]["order_by"] == [{"field": "homicides", "direction": "desc"}]
    assert f"a combined {pooled:.1f} homicides per 100,000 residents a year in 2022" in lead(run)
    assert f"{pop:,} residents (ACS 2019-2023)" in lead(run)


def test_a_place_left_out_of_a_ranked_set(ask):
    run = ask("Excluding Austin, what's the total number of 2020 homicides in the 5 largest community areas by "
              "population (2019-2023 ACS)?")
    top = ref._rank(ref._acs_pop().drop(25), 5)
    assert f"and {int(ref._counts([2020]).loc[top].sum())} homicides in 2020" in lead(run)


def test_the_biggest_drop_in_the_count_with_its_later_rate(ask):
    run = ask("Biggest drop in homicides from 2021 to 2022 — which neighborhood, how big was the drop, and what was "
              "its 2022 rate?")
    change = ref._counts([2022]) - ref._counts([2021])
    area = ref._rank(change, 1, highest=False)[0]
    rate = ref._counts([2022])[area] / ref._acs_pop()[area] * 100000
    text = lead(run)
    assert f"({area})" in text and f"a drop of {-change[area]}" in text
    assert f"{rate:.1f} homicides per 100,000 residents a year in 2022" in text


def test_domestic_against_non_domestic_arrest_rates(ask, data_dir):
    raw = pd.read_csv(data_dir / "homicides.csv", usecols=["Year", "Domestic", "Arrest"])
    raw = raw[raw["Year"].between(2016, 2022)]
    dom = raw["Domestic"].astype(str).str.lower() == "true"
    arrested = raw["Arrest"].astype(str).str.lower() == "true"
    rates = [arrested[dom].mean() * 100, arrested[~dom].mean() * 100]
    run = ask("For 2016-2022, compare the arrest rate for domestic homicides with non-domestic ones.")
    assert f"arrest rate {rates[0]:.1f}%) and" in lead(run) and f"arrest rate {rates[1]:.1f}%)." in lead(run)


def test_areas_ranked_by_a_home_value_change_with_a_span_total_beside(ask):
    """"rose the most in percentage terms between January 2012 and January 2022 ... homicides from 2012 through
    2022": the areas ranked by the percent change of their value, and the span's total count (not its two ends)."""
    run = ask("Which area's typical home value rose the most in percentage terms between January 2012 and January "
              "2022, and how many homicides were recorded there from 2012 through 2022?")
    change = ref._ca_zhvi(2022, 1) / ref._ca_zhvi(2012, 1) - 1
    area = ref._rank(change, 1)[0]
    text = lead(run)
    assert f"is {ref._names()[area].title()} ({area})" in text
    assert f"{int(ref._counts(range(2012, 2023))[area])} homicides in 2012-2022" in text
    assert f"a change of {change[area] * 100:+.1f}% from January 2012 to January 2022" in text


def test_the_home_value_month_dates_that_year_s_count(ask):
    run = ask("zip 60653: home value in june 2019? and grand boulevard's homicide total for that year")
    assert f"${ref._zhvi(2019, 6)['60653']:,.0f} in June 2019" in lead(run)
    assert f"Grand Boulevard (38) had {int(ref._counts([2019])[38])} homicides in 2019." in lead(run)


def _density() -> pd.Series:
    land = pd.read_csv(ref.DATA / "community_areas.csv").set_index("area_number")["area_sq_mi"]
    return ref._acs_pop() / land.reindex(ref._acs_pop().index)


def test_density_is_a_declared_measure_ranked_with_a_pooled_rate(ask):
    """Residents per square mile: a ratio declared in the layer (the ACS population over the land area), which no
    tool has; ranked from the bottom, with the set's total count and its pooled rate."""
    run = ask("Least densely populated 10 community areas (ACS people per square mile): total homicides 2016-2022, "
              "and what's their pooled homicide rate over that span?")
    low = ref._rank(_density(), 10, highest=False)
    years = range(2016, 2023)
    total = int(ref._counts(years).loc[low].sum())
    pooled = total / (7 * ref._acs_pop().loc[low].sum()) * 100000
    text = lead(run)
    assert f"Together they had {total} homicides in 2016-2022" in text
    assert f"a combined {pooled:.1f} homicides per 100,000 residents a year in 2016-2022" in text
    assert not run.reading.not_used


def test_a_density_threshold_and_a_density_correlation(ask):
    run = ask("what fraction of 2021 homicides were in community areas with under 10,000 people per sq mile (ACS "
              "pop / land area)?")
    picked = _density()[_density() < 10000].index
    counts = ref._counts([2021])
    share = counts.loc[picked].sum() / ref._city_count([2021]) * 100
    assert f"There are {len(picked)} community areas with residents per square mile" in lead(run)
    assert f"({share:.1f}% of the city's" in lead(run) and not run.reading.not_used
    run = ask("Whats the pearson correlation accross community areas between population density (ACS residents per "
              "sq mi) and homicide rate 2016-2022?")
    rate = ref._counts(range(2016, 2023)) / (7 * ref._acs_pop()) * 100000
    r = rate.corr(_density())
    assert f"is r = {r:.2f} (Pearson" in lead(run)


def test_one_area_s_density(ask):
    run = ask("what is the population density of Austin?")
    assert lead(run).startswith(f"Austin (25) had residents per square mile (ACS 2019-2023) {_density()[25]:,.0f}")


def test_correlations_of_changes(ask):
    """A population's percent change since the census, and a home value's between two months, are the columns a
    correlation is of (each area's own change), not the population or the value."""
    run = ask("What's the Pearson r between % population change (2010 census -> 2019-2023 ACS) and the 2016-2022 "
              "homicide rate, over community areas?")
    change = ref._acs_pop() / ref._pop2010().reindex(ref._acs_pop().index) - 1
    rate = ref._counts(range(2016, 2023)) / (7 * ref._acs_pop()) * 100000
    assert f"is r = {rate.corr(change):.2f} (Pearson" in lead(run)
    run = ask("Do the places with high unemployment (2008-2012) show faster home-value growth? Give the correlation "
              "between unemployment % and the % change in zip-weighted home values from Sept 2014 to Sept 2024.")
    growth = ref._ca_zhvi(2024, 9) / ref._ca_zhvi(2014, 9) - 1
    assert f"is r = {ref._sm('unemployed').corr(growth):.2f} (Pearson" in lead(run) and not run.reading.not_used


def test_the_city_s_households_in_a_band_counted_in_a_threshold_set(ask):
    run = ask("What share of the city's households earning under $25k (ACS) live in community areas that had 30 or "
              "more homicides in 2021?")
    counts, band = ref._counts([2021]), ref._acs()["under_25_000"]
    picked = counts[counts >= 30].index
    assert f"({band.loc[picked].sum() / band.sum() * 100:.1f}% of the city's {int(band.sum()):,})" in lead(run)


def test_2010_as_a_year_beside_the_2010_census(ask):
    run = ask("North Lawndale vs South Lawndale: % population change from the 2010 census to the 2019-2023 ACS, and "
              "homicides in 2010 vs 2022 in each.")
    for area in (29, 30):
        assert f"{int(ref._counts([2010])[area])} homicides in 2010, {int(ref._counts([2022])[area])} homicides in " \
               f"2022" in lead(run)


def test_zip_thresholds_in_two_months(ask):
    run = ask("how many of the chicago zips in the zillow file were above $350k in sept 2024? and how many back in "
              "jan 2015?")
    for (year, month), words in (((2015, 1), "January 2015"), ((2024, 9), "September 2024")):
        n = int((ref._zhvi(year, month) > 350000).sum())
        assert f"There are {n} ZIP codes with a typical home value (Zillow ZHVI) over $350,000 in {words}." \
            in lead(run)


def test_homicides_flagged_domestic_rank_the_set(ask):
    run = ask("Which three areas had the most homicides flagged domestic between 2010 and 2022, and what share of "
              "each area's residents are 65 or older per the ACS?")
    h = ref._hom()
    raw = pd.read_csv(ref.DATA / "homicides.csv", usecols=["Domestic"])
    dom = h[(raw["Domestic"].astype(str).str.lower() == "true").values & h["year"].between(2010, 2022).values]
    by_area = dom[dom["area"].notna()].groupby(dom["area"].astype(int)).size()
    assert f"Austin (25) had {int(by_area[25])} domestic homicides in 2010-2022" in lead(run)


def test_up_from_a_year_is_the_change_s_start(ask):
    run = ask("How many murders did Chicago record in 2016, and by what percent was that up from 2015?")
    a, b = ref._city_count([2015]), ref._city_count([2016])
    assert f"changed by +{b - a} (+{(b / a - 1) * 100:.1f}%)" in lead(run)


def test_a_weekend_share_is_of_the_month_named(ask):
    run = ask("July 2020: how many homicides total, and how many of them fell on a Saturday or Sunday?")
    h = ref._hom()
    july = h[(h["year"] == 2020) & (h["month"] == 7)]
    weekend = int(july["date"].dt.day_of_week.isin([5, 6]).sum())
    assert f"There were {weekend} homicides in Chicago in July 2020, on Saturdays and Sundays " \
           f"({weekend / len(july) * 100:.1f}% of the {len(july)} in" in lead(run)


def test_a_ranked_place_counted_in_each_year_named(ask):
    run = ask("Most crowded housing (2008-12 indicators) - which area is that, how many homicides did it have in "
              "2019 and in 2020, and what % of those two years' homicides ended in an arrest?")
    area = ref._rank(ref._sm("crowded"), 1)[0]
    assert f"Year by year: 2019: {int(ref._counts([2019])[area])}; 2020: {int(ref._counts([2020])[area])}." \
        in lead(run)


def test_how_many_times_one_zip_s_value_is_another_s(ask):
    """Each place's figure as its own column (the measure filtered to it) and their ratio; beside it the areas
    covering most of each ZIP and their counts."""
    run = ask("How many times more was the typical home in 60614 worth than one in 60621 in Sept 2024, and how many "
              "homicides were there in 2022 in the community area that covers most of each ZIP?")
    values = ref._zhvi(2024, 9)
    text = lead(run)
    assert f"of {values['60614'] / values['60621']:.2f} ({values['60614'] / values['60621']:.2f} times)" in text
    x = ref._xwalk()
    for z in ("60614", "60621"):
        main = int(x[x["zip"] == z].sort_values("share_of_zip", ascending=False)["area_number"].iloc[0])
        n = int(ref._counts([2022])[main])
        assert f"{ref._names()[main].title()} ({main}) had {n} homicide{'' if n == 1 else 's'} in 2022." in text
    assert "For the whole city" not in text


def test_lost_residents_and_more_homicides_in_one_year_than_another(ask):
    run = ask("# of community areas that lost population between 2010 and the 2019-23 ACS but had more homicides in "
              "2021 than in 2019?")
    lost = ref._acs_pop() < ref._pop2010().reindex(ref._acs_pop().index)
    rose = ref._counts([2021]) > ref._counts([2019])
    both = int((lost & rose.reindex(lost.index)).sum())
    assert f"There are {both} community areas whose residents fell from the 2010 census to ACS 2019-2023 and whose " \
           f"homicides rose from 2019 to 2021" in lead(run)


def test_a_ward_office_s_zip_and_that_zip_s_value(ask):
    offices = pd.read_csv(ref.DATA / "ward_offices.csv", dtype=str, encoding="utf-8-sig")
    zip_code = offices.loc[offices["WARD"].str.strip() == "36", "ZIPCODE"].iloc[0].strip()
    run = ask("The 36th ward office - what ZIP is it in, and what was the Zillow home value index for that ZIP in "
              "January 2023?")
    assert f"the ward office ZIP is {zip_code}" in lead(run)
    assert f"ZIP {zip_code} had a typical home value (Zillow ZHVI) of ${ref._zhvi(2023, 1)[zip_code]:,.0f} in " \
           f"January 2023" in lead(run)


def test_areas_in_parentheses_after_a_zip_only_say_where_it_is(ask):
    """"ZIP 60617 (South Chicago / East Side)": the ZIP is asked; it has no Zillow value, which the answer says
    (never the two areas' values in its place)."""
    assert "60617" not in set(ref._zhvi(2020, 1).index)
    run = ask("What was the typical Zillow home value in ZIP 60617 (South Chicago / East Side) in January 2020?")
    assert "ZIP 60617 has no Zillow home value" in run.answer and "South Chicago" not in lead(run)


def test_how_many_of_those_had_an_arrest_is_counted(ask, data_dir):
    raw = pd.read_csv(data_dir / "homicides.csv", usecols=["Year", "Community Area", "Arrest"])
    area = ref._rank(ref._sm("no_hs"), 1)[0]
    rows = raw[(raw["Year"] == 2021) & (pd.to_numeric(raw["Community Area"], errors="coerce") == area)]
    arrests = int((rows["Arrest"].astype(str).str.lower() == "true").sum())
    run = ask("area with the highest % of adults 25+ w/o a high school diploma (2008-2012) - 2021 homicide count and "
              "how many of those had an arrest?")
    assert f"There were {len(rows)} homicides in" in lead(run) and f"(an arrest in {arrests})" in lead(run)


def test_an_hour_of_the_clock_said_as_the_hour(ask):
    h = ref._hom()
    want = int((h["year"].between(2016, 2022) & (h["date"].dt.hour == 23)).sum())
    run = ask("Between 2016 and 2022, how many homicides happened during the 11 PM hour (11:00-11:59 pm)?")
    assert lead(run).startswith(f"There were {want} homicides in Chicago from 2016 to 2022, between 23:00 and 23:59")
    assert not run.reading.not_used


def test_n_then_a_superlative_is_a_top_n(ask):
    run = ask("Using Zillow home values mapped to community areas through the ZIP crosswalk (Sept 2024), take the 5 "
              "priciest community areas. How many homicides did they have altogether from 2019 to 2022?")
    top = ref._rank(ref._ca_zhvi(2024, 9), 5)
    assert f"Together they had {int(ref._counts(range(2019, 2023)).loc[top].sum())} homicides in 2019-2022" \
        in lead(run)
    assert not run.reading.not_used
