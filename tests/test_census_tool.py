"""query_census_demographics against values read straight from census_acs.csv and
census_population_2010.csv with pandas.read_csv (never the tool's code)."""
import datetime
import json

import numpy as np
import pandas as pd
import pytest

from analyzer.question import analyze_question
from rules.collaborator import Planner

TOOL = "query_census_demographics"


@pytest.fixture(scope="module")
def acs(data_dir):
    """The raw ACS rows keyed by area number (joined through community_areas.csv names)."""
    df = pd.read_csv(data_dir / "census_acs.csv")
    areas = pd.read_csv(data_dir / "community_areas.csv")
    numbers = dict(zip(areas["community"], areas["area_number"]))
    df["n"] = df["community_area"].map(numbers)
    assert df["n"].notna().all()
    return df.set_index("n")


@pytest.fixture(scope="module")
def pop2010(data_dir):
    df = pd.read_csv(data_dir / "census_population_2010.csv")
    return dict(zip(df["NID"], df["POP2010"]))


def run(registry, **args):
    return registry.run(TOOL, args)


def test_austin_and_lincoln_park_population(registry, acs):
    austin = run(registry, community_area="Austin", metric="population")
    assert austin.ok, austin.error
    assert austin.values["population"] == int(acs.loc[25, "total_population"]) == 100278
    assert austin.values["community_area"] == 25 and austin.values["name"] == "Austin"
    assert "100,278" in austin.text
    lincoln = run(registry, community_area="lincoln park", metric="population", year=2023)
    assert lincoln.values["population"] == int(acs.loc[7, "total_population"]) == 62067
    assert lincoln.values["vintage_note"] is None
    assert sorted(s["key"] for s in austin.sources) == ["census_acs", "population_2010"]


def test_2010_population_for_early_years(registry, pop2010, acs):
    result = run(registry, community_area=25, metric="population", year=2010)
    assert result.ok
    assert result.values["population"] == pop2010[25]
    assert result.values["vintage"] == "2010 Census"
    assert result.values["population_acs_2023"] == int(acs.loc[25, "total_population"])
    expected_change = round(100 * (acs.loc[25, "total_population"] / pop2010[25] - 1), 1)
    assert result.values["population_change_pct"] == expected_change
    assert result.values["population_change"] == int(acs.loc[25, "total_population"]) - pop2010[25]
    later = run(registry, community_area=25, metric="population", year=2012)
    assert later.values["population"] == pop2010[25]
    assert "2010 Census" in later.values["vintage_note"] and "2012" in later.values["vintage_note"]
    assert any("2012" in c for c in later.caveats)


def test_years_between_vintages_say_which_was_used(registry, acs):
    result = run(registry, community_area=25, metric="population", year=2017)
    assert result.ok
    assert result.values["population"] == int(acs.loc[25, "total_population"])
    assert "2019-2023" in result.values["vintage_note"]
    race = run(registry, community_area=25, metric="race", year=2011)
    assert race.ok and "2019-2023" in race.values["vintage_note"]
    assert race.values["vintage"].startswith("ACS")


def test_city_total_population(registry, acs, pop2010):
    result = run(registry, metric="population")
    assert result.values["scope"] == "city"
    assert result.values["population"] == int(acs["total_population"].sum()) == 2647621
    assert result.values["population_2010"] == sum(pop2010.values()) == 2695598


def test_race_shares_recomputed(registry, acs):
    result = run(registry, community_area="Austin", metric="race")
    assert result.ok
    row = acs.loc[25]
    total = row["total_population"]
    assert result.values["black"] == int(row["black_or_african_american"])
    assert result.values["pct_black"] == round(100 * row["black_or_african_american"] / total, 1)
    assert result.values["pct_hispanic_or_latino"] == round(100 * row["hispanic_or_latino"] / total, 1)
    assert result.values["pct_white_not_hispanic"] == round(100 * row["white_not_hispanic_or_latino"] / total, 1)
    assert f"{100 * row['black_or_african_american'] / total:.1f}%" in result.text
    assert [s["key"] for s in result.sources] == ["census_acs"]


def test_income_is_a_household_distribution_without_a_median(registry, acs):
    result = run(registry, community_area="Lincoln Park", metric="income")
    row = acs.loc[7]
    bands = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
    households = row[bands].sum()
    assert result.values["households"] == int(households)
    assert result.values["households_125k_plus"] == int(row["_125_000"])
    assert result.values["pct_households_under_25k"] == round(100 * row["under_25_000"] / households, 1)
    assert "median" not in json.dumps(result.values).lower()
    assert any("no median" in c for c in result.caveats)


def test_age_bands_sum_both_sexes(registry, acs):
    result = run(registry, community_area=54, metric="age")
    row = acs.loc[54]
    assert result.values["age_65_plus"] == int(row["male_65"] + row["female_65"])
    assert result.values["age_0_17"] == int(row["male_0_to_17"] + row["female_0_to_17"])
    age_cols = [c for c in acs.columns if c.startswith(("male_", "female_"))]
    assert result.values["age_total"] == int(row[age_cols].sum())
    assert abs(result.values["age_total"] - row["total_population"]) <= 2


def test_population_ranking(registry, acs):
    result = run(registry, top_n=5, metric="population")
    expected = list(acs["total_population"].sort_values(ascending=False).index[:5])
    assert [r["community_area"] for r in result.values["rows"]] == expected
    assert result.values["rank_by"] == "population"
    assert result.chart["type"] == "bar"


def test_group_share_ranking(registry, acs):
    share = acs["hispanic_or_latino"] / acs["total_population"]
    result = run(registry, top_n=3, group="hispanic_or_latino")
    assert result.ok
    assert result.values["rank_by"] == "pct_hispanic_or_latino"
    assert [r["community_area"] for r in result.values["rows"]] == list(share.sort_values(ascending=False).index[:3])
    low = run(registry, top_n=1, group="125k_plus", sort_order="asc")
    bands = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
    rich_share = acs["_125_000"] / acs[bands].sum(axis=1)
    assert low.values["rows"][0]["community_area"] == rich_share.idxmin()


@pytest.mark.parametrize("group, column", [("black", "black_or_african_american"), ("asian", "asian"),
                                           ("under_25k", "under_25_000")])
def test_a_group_ranked_by_its_count(registry, acs, group, column):
    """"the second biggest Black population": how many, not what share (a different order)."""
    result = run(registry, top_n=3, group=group, rank_by="count")
    assert result.ok, result.error
    want = list(acs[column].sort_values(ascending=False, kind="stable").index[:3])
    assert [r["community_area"] for r in result.values["rows"]] == want
    key = result.values["rank_by"]
    assert [r[key] for r in result.values["rows"]] == [int(acs.loc[n, column]) for n in want]
    assert "number of" in result.summary and f"{int(acs.loc[want[0], column]):,}" in result.summary
    share = run(registry, top_n=3, group=group)
    assert [r["community_area"] for r in share.values["rows"]] != want  # the share ranks another order here


@pytest.mark.parametrize("args, needle", [({"metric": "race", "top_n": 3, "rank_by": "count"}, "needs a group"),
                                          ({"group": "black", "top_n": 3, "rank_by": "number"}, "share, count")])
def test_rank_by_count_needs_a_group_and_a_known_word(registry, args, needle):
    result = run(registry, **args)
    assert not result.ok and result.error["code"] == "invalid_choice" and needle in result.error["message"]


def test_comparison_rows(registry, acs):
    result = run(registry, community_area="Austin", compare_areas=["Lincoln Park", "Pilsen"])
    assert [r["community_area"] for r in result.values["rows"]] == [25, 7, 31]
    for r in result.values["rows"]:
        assert r["population"] == int(acs.loc[r["community_area"], "total_population"])
    assert len(result.text) <= 1500


def test_ward_and_zip_are_explained(registry):
    ward = run(registry, ward=3)
    assert not ward.ok and ward.error["code"] == "geography_not_available"
    assert "77 community areas" in ward.error["message"]
    zip_result = run(registry, zip=60614)
    assert not zip_result.ok and "Lincoln Park" in zip_result.error["message"]


@pytest.mark.parametrize("args,code,needle", [
    ({"year": 1995}, "out_of_range", "2000"),
    ({"year": datetime.date.today().year + 5}, "out_of_range", "2000"),
    ({"year": "abc"}, "invalid_argument", "whole number"),
    ({"community_area": 999}, "unknown_area", "1 to 77"),
    ({"community_area": "Narnia"}, "unknown_area", "community area"),
    ({"metric": "wealth"}, "invalid_choice", "population"),
    ({"metric": "income", "group": "black"}, "invalid_choice", "125k_plus"),
])
def test_bad_arguments_are_explained(registry, args, code, needle):
    result = run(registry, **args)
    assert not result.ok
    assert result.error["code"] == code
    assert needle in result.error["message"]


def test_every_shape_fits_the_text_limit(registry):
    for args in [{}, {"top_n": 10}, {"top_n": 10, "metric": "race"}, {"community_area": 7},
                 {"community_area": 1, "compare_areas": list(range(2, 11))},
                 {"community_area": 1, "compare_areas": list(range(2, 11)), "metric": "income"}]:
        result = run(registry, **args)
        assert result.ok and len(result.text) <= 1500, args
        assert result.table["columns"] and result.table["rows"]


def test_city_wide_answer_names_the_largest_area(registry, acs):
    result = run(registry, metric="population", sort_order="desc")
    largest = acs["total_population"].idxmax()
    assert result.values["extremes"]["population"]["highest"]["community_area"] == largest
    assert "Austin" in result.text


def test_long_rankings_stay_within_the_text_limit(registry):
    result = run(registry, top_n=77)
    assert result.ok and len(result.values["rows"]) == 77
    assert len(result.text) <= 1500 and "Chicago" in result.text.splitlines()[-1]


# ------------------------------------------------------------------ estimated median household income

BANDS = ["under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000"]
EDGES = [0, 25_000, 50_000, 75_000, 125_000]


def interpolated_median(counts):
    """Independent of the tool: the 50th percentile read off the cumulative household counts at the band edges
    with numpy's piecewise-linear interpolation; None when it lies in the open $125,000+ band."""
    cumulative = np.concatenate([[0.0], np.cumsum(counts[:4])])
    half = sum(counts) / 2
    return None if half > cumulative[-1] else float(np.interp(half, cumulative, EDGES))


@pytest.mark.parametrize("number", [25, 68, 54, 37, 40, 49])
def test_median_estimate_matches_interpolation(registry, acs, number):
    counts = [float(acs.loc[number, band]) for band in BANDS]
    expected = interpolated_median(counts)
    assert expected is not None
    result = run(registry, community_area=number, metric="median_income_estimate")
    assert result.ok, result.error
    assert result.values["median_income_estimate"] == round(expected)
    assert result.summary.startswith("A median household income is not in the data; estimated by interpolating "
                                     "ACS 2019-2023 income bands")
    assert f"about ${round(expected, -2):,.0f}" in result.summary
    assert any("ESTIMATE" in c for c in result.caveats)
    assert "interpolation" in result.values["method"]


def test_median_in_the_open_top_band(registry, acs):
    counts = [float(acs.loc[7, band]) for band in BANDS]
    assert interpolated_median(counts) is None  # Lincoln Park: over half its households are at $125,000+
    result = run(registry, community_area="Lincoln Park", metric="median_income_estimate")
    assert result.values["median_income_estimate"] is None and result.values["median_above"] == 125_000
    assert "above $125,000" in result.summary


def test_citywide_median_estimate_from_summed_bands(registry, acs):
    counts = [float(acs[band].sum()) for band in BANDS]
    expected = interpolated_median(counts)
    result = run(registry, metric="median_income_estimate")
    assert result.values["median_income_estimate"] == round(expected)
    assert result.values["households"] == int(sum(counts))
    assert f"Chicago: about ${round(expected, -2):,.0f}" in result.summary


def test_median_ranking_lowest(registry, acs):
    estimates = {}
    for number in acs.index:
        value = interpolated_median([float(acs.loc[number, band]) for band in BANDS])
        if value is not None:
            estimates[int(number)] = value
    lowest = sorted(estimates, key=lambda n: (estimates[n], n))[:3]
    result = run(registry, metric="median_income_estimate", top_n=3, sort_order="asc")
    assert [r["community_area"] for r in result.values["rows"]] == lowest
    assert [r["median_income_estimate"] for r in result.values["rows"]] == [round(estimates[n]) for n in lowest]


def test_median_questions_draft_the_estimate(registry):
    planner = Planner(registry.data)
    calls = planner.next_calls(analyze_question("What is the median household income in Austin?", registry.data), [], 4)
    assert ("query_census_demographics", {"community_area": 25, "metric": "median_income_estimate"}) in calls
    ranked = planner.next_calls(analyze_question("Which area has the highest median household income?",
                                                 registry.data), [], 4)
    assert ranked[0][0] == TOOL and ranked[0][1]["metric"] == "median_income_estimate"
