"""Wordings a blind set found read as a nearby question: a verb that asks for a ranking, a misspelt
"correlation", a year "on", a survey named as a source. Each checked end to end with the rule planner against
figures computed here from the raw CSVs (tests/planner_helpers.raw_homicides)."""
from __future__ import annotations

import pandas as pd
import pytest

from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


@pytest.mark.parametrize("question, grain, column", [("rank the community areas by homicides in 2022", "community area",
                                                      "area"),
                                                     ("rank wards by murders in 2022", "ward", "ward")])
def test_rank_as_a_verb_leads_with_the_ranking(ask, raw, question, grain, column):
    counts = raw[raw.year == 2022].groupby(column).size().sort_values(ascending=False, kind="mergesort")
    run = ask(question)
    assert lead(run).startswith(f"The {grain} with the most homicides in 2022 was ")
    assert f": {int(counts.iloc[0])} (" in lead(run)


def test_lowest_first_after_a_rank_verb_ranks_from_the_bottom(ask, raw):
    run = ask("list the districts by homicides in 2020, lowest first")
    assert lead(run).startswith("The police district with the fewest homicides in 2020 was ")


def test_a_misspelt_correlation_is_still_one(ask):
    run = ask("corelation of housing crowding (pct crowded housing) with homicide counts in 2005, by community area")
    assert [c.name for c in run.calls] == ["query_data"] and run.calls[0].arguments.get("correlate")
    assert "the correlation of homicides, 2005 and housing crowded is r = " in lead(run)


def test_the_whole_dataset_names_no_unused_word(ask, raw):
    run = ask("smallest community area by population -- how many homicides there in the whole dataset (2001 on)?")
    assert not run.reading.not_used
    assert f"There were {int((raw.area == 37).sum())} homicides in Fuller Park" in lead(run)


def test_the_top_and_the_bottom_of_a_ranking_side_by_side(ask, data_dir, raw):
    socio = pd.read_csv(data_dir / "socioeconomic.csv")
    socio.columns = [c.strip() for c in socio.columns]
    income = socio.dropna(subset=["Community Area Number"]).set_index("Community Area Number")["PER CAPITA INCOME"]
    run = ask("Compare 2019 homicides: the 5 richest community areas (per capita income) vs the 5 poorest. totals for "
              "each group")
    counts = raw[raw.year == 2019].groupby("area").size()
    assert [c.arguments["order_by"][0]["direction"] for c in run.calls] == ["desc", "asc"]
    for areas in (income.sort_values(ascending=False).index[:5], income.sort_values().index[:5]):
        total = int(counts.reindex([int(a) for a in areas]).fillna(0).sum())
        assert f"Together they had {total} homicides in 2019" in lead(run)
    assert not run.reading.not_used


def test_a_kind_of_place_with_w_slash_the_most(ask, raw):
    run = ask("Police district w/ the most homicides in 2016 — what's it called and what was the count?")
    counts = raw[raw.year == 2016].groupby("district").size().sort_values(ascending=False)
    assert lead(run).startswith(f"The police district with the most homicides in 2016 was District "
                                f"{int(counts.index[0])} ")
    assert f": {int(counts.iloc[0])} (" in lead(run)


def test_the_deadliest_month_with_its_own_arrest_rate(ask, raw):
    run = ask("deadliest month of 2021 for homicides (how many?), and what pct of that month's homicides had an "
              "arrest?")
    rows = raw[raw.year == 2021]
    month = rows.groupby("month").size().idxmax()
    share = rows[rows.month == month].arrested.mean() * 100
    assert f"'s arrest rate was {share:.1f}%" in lead(run)


def test_a_graduation_rate_is_declined_beside_the_diploma_share(ask):
    run = ask("What's the CPS high school graduation rate in Englewood?")
    assert lead(run).startswith("The data does not include graduation rates, so I cannot answer that part.")


def test_a_census_the_data_lacks_is_said_and_the_survey_asked_is_given(ask, data_dir):
    acs = pd.read_csv(data_dir / "census_acs.csv").set_index("community_area")
    run = ask("Hyde Park's population in the 2000 census compared with the 2019-2023 ACS?")
    assert "so I cannot give a figure for Hyde Park in 2000" in lead(run)
    assert f"{int(acs.loc['HYDE PARK', 'total_population']):,} residents" in lead(run)


def test_a_span_to_the_datas_last_month_is_the_whole_span(ask, raw):
    """"(2001 to July 2023)" ends where the data ends: every month of every year, not July alone."""
    run = ask("Across the whole dataset (2001 to July 2023), what percentage of homicides are flagged as domestic, "
              "and how many is that?")
    domestic = int(raw.domestic.sum())
    assert f"There were {domestic} domestic homicides in Chicago from 2001 to 2023" in lead(run)
    assert not run.reading.not_used and not run.analysis.months
