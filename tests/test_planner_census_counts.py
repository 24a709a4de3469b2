"""A group of residents ranked by how many there are or by their share, read from the question's words, and chat
shorthand read as the words it stands for, end to end with the rules backend. Expected figures come from plain pandas
on census_acs.csv (never the tool's code).

"which community area has the second biggest black population" had been answered with the second-highest share
of Black residents: another area, said as confidently."""
import pandas as pd
import pytest

from analyzer.count_scope import census_by_count
from tests.planner_helpers import lead


@pytest.fixture(scope="module")
def acs(data_dir):
    df = pd.read_csv(data_dir / "census_acs.csv")
    df = df[df["acs_year"] == df["acs_year"].max()]
    df["name"] = df["community_area"].str.title()
    return df.set_index("name")


def _ranked(acs, column, rank, by_share=False):
    score = acs[column] / acs["total_population"] if by_share else acs[column]
    order = score.sort_values(ascending=False, kind="stable")
    return order.index[rank - 1], int(acs.loc[order.index[rank - 1], column])


@pytest.mark.parametrize("question, group, by_count", [
    ("which community area has the second biggest black population", "black", True),
    ("where do the most Black residents live", "black", True),
    ("which area has the largest number of asian residents", "asian", True),
    ("which neighborhood has the most latinos", "hispanic_or_latino", True),
    ("which community area has the most seniors", "age_65_plus", True),
    ("which community areas have the highest share of Black residents?", "black", False),
    ("where do the most seniors live, as a share of residents?", "age_65_plus", False),
    ("which community area is the most heavily Latino, percentage-wise?", "hispanic_or_latino", False),
    ("what is the most Latino community area", "hispanic_or_latino", False),
    ("which community area has the highest percentage of asian residents", "asian", False),
])
def test_how_many_or_what_share(question, group, by_count):
    assert census_by_count(question.lower(), group) is by_count


def test_the_second_biggest_population_of_a_group_is_a_count(ask, acs):
    name, count = _ranked(acs, "black_or_african_american", 2)
    share_name, _ = _ranked(acs, "black_or_african_american", 2, by_share=True)
    assert share_name != name  # the share names another area: the reading decides the answer
    run = ask("which community area has the second biggest black population")
    first = lead(run).split(". ")[0]
    assert name.lower() in first.lower() and f"{count:,}" in first
    assert share_name.lower() not in first.lower()
    args = run.calls[0].arguments
    assert args["group"] == "black" and args["rank_by"] == "count"


def test_the_highest_share_is_still_a_share(ask, acs):
    name, _ = _ranked(acs, "black_or_african_american", 1, by_share=True)
    run = ask("which community area has the highest share of Black residents?")
    assert name.lower() in lead(run).split(". ")[0].lower()
    assert run.calls[0].arguments.get("rank_by", "share") == "share"


def test_ppl_is_people(ask, acs):
    run = ask("how many ppl live in avondale")
    population = int(acs.loc["Avondale", "total_population"])
    assert f"{population:,}" in lead(run).split(". ")[0]
    assert not run.reading.not_used
