"""Cross-domain compositions asked in words, end to end with the rule planner: one query_data call each, and the
answer's lead carries the figures computed blind from the CSVs (tests/semantic_reference.py)."""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data

CASES = {case["id"]: case for case in ref.CASES}


def _ask(ask, case_id):
    case = CASES[case_id]
    run = ask(case["question"])
    return run, case["expected"]()


@pytest.mark.parametrize("case_id", ["rss_hardship_top10_homicides_2021", "rss_income_bottom10_homicides_2019_2022",
                                     "rss_population_top5_homicides_2022", "rss_hardship_top10_acs_population"])
def test_a_set_from_a_ranking_then_its_total(ask, case_id):
    run, want = _ask(ask, case_id)
    assert [c.name for c in run.calls] == ["query_data"]
    together = lead(run).split("Together they had ")[1].split(". ")[0]
    assert f"{want['total']:,} " in together
    names = lead(run).split(". Together")[0]
    assert all(f"({area})" in names for area in want["areas"])


def test_each_member_of_a_set_is_named_with_its_figure(ask):
    run, want = _ask(ask, "rse_hardship_top5_homicides_2021_each")
    for area, count in want["values"].items():
        assert f"({area}) had hardship index (2008-2012) " in lead(run)
        assert f"and {count} homicides in 2021." in lead(run).split(f"({area}) had")[1].split(". ")[0] + "."


@pytest.mark.parametrize("case_id", ["ts_poverty30_share_2021", "ts_unemployment20_share_2019_2022"])
def test_a_threshold_keeps_its_boundary_and_gives_the_share_of_the_city(ask, case_id):
    run, want = _ask(ask, case_id)
    assert lead(run).startswith(f"There are {want['n_areas']} community areas with ")
    assert f"together they had {want['homicides']:,} homicides" in lead(run)
    assert f"{want['share'] * 100:.1f}% of the city's {want['city_total']:,}" in lead(run)


def test_the_biggest_change_then_another_measure(ask):
    run, want = _ask(ask, "cr_biggest_drop_2021_2022_income")
    assert lead(run).startswith(f"The community area with the biggest drop in homicides from 2021 to 2022 is "
                                f"Austin ({want['area']}), with ")
    assert f"a drop of {-want['change']}" in lead(run)
    assert f"${want['value']:,}" in lead(run)


def test_a_tie_at_the_cut_is_named(ask):
    run, want = _ask(ask, "cr_biggest_drop_2016_2019_tie_hardship")
    assert "Tied with the last of these" in lead(run) and "New City (61)" in lead(run)


@pytest.mark.parametrize("case_id, words", [("corr_hardship_vs_homicides_2021", "homicides, 2021"),
                                            ("corr_rate_2019_2022_vs_income", "homicide rate")])
def test_a_correlation_is_the_one_asked(ask, case_id, words):
    """A count where a count is asked ("the number of homicides", one query), a rate per 100,000 where a rate is
    (the context tool, which gives the same r with its quartiles)."""
    run, want = _ask(ask, case_id)
    assert f"{want['r']:.2f}" in lead(run) and words in lead(run)


def test_a_name_asked_beside_a_count_comes_from_the_layer(ask, raw, data_dir):
    """"Homicides in ward 28 in 2022 and who's the alderman": the count, and the alderperson from the ward office
    file (it had been named as a word the reading could not use)."""
    run = ask("homicides in ward 28 in 2022 and who's the alderman")
    count = int(((raw.year == 2022) & (raw.ward == 28)).sum())
    offices = pd.read_csv(data_dir / "ward_offices.csv", dtype=str, encoding="utf-8-sig").set_index("WARD")
    assert [c.name for c in run.calls] == ["query_homicides_advanced", "query_data"] and not run.reading.not_used
    assert f"There were {count} homicides in ward 28 in 2022" in lead(run)
    assert f"the alderperson is {offices.loc['28', 'ALDERMAN'].strip()}" in lead(run)
