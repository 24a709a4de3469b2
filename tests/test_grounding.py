"""Number extraction and matching for the grounding check."""
import inspect

import pytest

from loop.grounding import References, check_grounding, extract_numbers
from rules import answer as rules_answer
from tools.registry import ToolResult

RESULT = ToolResult(
    ok=True, tool="t",
    values={"per_capita_income": 71551.0, "poverty_pct": 12.34, "homicides_2019": 498, "homicides_2020": 787,
            "population": 1213004, "share": 0.256},
    summary="Lincoln Park: per capita income $71,551", text="Median home value $412,300 (2024).",
    table={"columns": ["year", "homicides"], "rows": [[2021, 804], [2022, 717]]},
    sources=[{"dataset": "Crimes", "key": "homicides", "coverage": {"start": "2001-01-01", "end": "2023-07-19"}}],
)


def values(**found) -> ToolResult:
    return ToolResult(ok=True, tool="t", values=found)


def numbers(text):
    return [(n.text, n.value) for n in extract_numbers(text)]


@pytest.mark.parametrize("text,expected", [
    ("1,234 homicides", [("1,234", 1234.0)]),
    ("income of $71,551.", [("$71,551", 71551.0)]),
    ("poverty 12.3% and 4 percent", [("12.3%", 12.3), ("4 percent", 4.0)]),
    ("about 1.2 million people", [("1.2 million", 1_200_000.0)]),
    ("homes near $250k", [("$250k", 250_000.0)]),
    ("fell -4.5 points, (−3) overall", [("-4.5", -4.5), ("−3", -3.0)]),
    ("between 2019-2023", [("2019", 2019.0), ("2023", 2023.0)]),
    ("ranked 3rd of 77", [("3rd", 3.0), ("77", 77.0)]),
    ("the 2025q4 index and COVID19", []),
    ("3.2x higher", [("3.2x", 3.2)]),
])
def test_extraction(text, expected):
    assert numbers(text) == expected


def test_flags():
    pct, money, ordinal, year = extract_numbers("12.3% $5 2nd 2019")
    assert pct.percent and money.money and ordinal.ordinal and year.is_year
    assert extract_numbers("5")[0].is_small_count and not extract_numbers("5.0")[0].is_small_count


@pytest.mark.parametrize("answer", [
    "Per capita income was $71,551.", "71551", "about $71,600", "roughly $72,000", "poverty is 12.3%",
    "12%", "25.6% of residents", "population 1.2 million", "1,213,004 people", "$412,300 median",
    "2022 saw 717 homicides"])
def test_matches_with_formatting_and_rounding(answer):
    assert check_grounding(answer, [RESULT]).unmatched == []


@pytest.mark.parametrize("answer", [
    "1,285 homicides in the two years",  # 498 + 787
    "an increase of 289",  # 787 - 498
    "up 58.0% from 2019",  # (787 - 498) / 498
    "1.58 times as many",  # 787 / 498
])
def test_simple_derivations(answer):
    assert check_grounding(answer, [RESULT]).unmatched == []


@pytest.mark.parametrize("answer,unmatched", [
    ("Income was $81,551.", ["$81,551"]),
    ("poverty is 13.3%", ["13.3%"]),
    ("there were 99,999 homicides and 12,345 arrests", ["99,999", "12,345"]),
    ("In 1987 the city changed", ["1987"]),
])
def test_invented_numbers_are_unmatched(answer, unmatched):
    assert check_grounding(answer, [RESULT]).unmatched == unmatched


def test_ignored_numbers():
    report = check_grounding("The top 5 areas:\n1. Austin\n2. Loop\nranked 3rd; from 2001 to 2015.", [RESULT])
    assert report.unmatched == [] and report.checked == []
    assert {"5", "1", "2", "3rd", "2001", "2015"} <= set(report.ignored)


def test_years_outside_coverage_need_a_reference():
    assert check_grounding("in 2030", [RESULT]).unmatched == ["2030"]
    assert check_grounding("in 2030", [RESULT], question="What about 2030?").unmatched == []
    assert check_grounding("in 2024", [RESULT]).unmatched == []  # appears in the result text


def test_question_numbers_and_rate_bases_count_as_references():
    assert check_grounding("ward 42 has 3.5 per 100,000", [values(rate=3.5)], "ward 42?").ok


def test_no_results_means_every_real_number_is_unmatched():
    report = check_grounding("About 2,500 people, top 3.", [])
    assert report.unmatched == ["2,500"] and report.ignored == ["3"]


def test_references_are_reusable_and_tolerate_odd_values():
    refs = References.build([RESULT, values(x=None, y=float("nan"), flag=True)])
    assert refs.direct.size > 10
    assert check_grounding("$71,551", [], references=refs).ok


def test_each_number_records_its_rule_and_source():
    report = check_grounding("Income was $71,551, about 71,600; 12.3% poor; 498 then 787, up 289 or 58%.", [RESULT])
    rules = {m["number"]: (m["rule"], m["source"]) for m in report.matches}
    assert report.ok
    assert rules["$71,551"] == ("exact", "result 1 (t)")
    assert rules["71,600"][0] == "rounded as shown"
    assert rules["12.3%"][0] == "rounded as shown"
    assert rules["289"][0] == "difference" and rules["58%"][0] == "percent change"


def test_small_numbers_are_list_counts_or_rank_positions():
    listed = ToolResult(ok=True, tool="t", values={"breakdown": [{"name": "A"}, {"name": "B"}, {"name": "C"}]})
    report = check_grounding("The 3 wards listed; the 2nd has most.", [listed])
    rules = {m["number"]: m["rule"] for m in report.matches}
    assert rules["3"] == "list count" and rules["2nd"] == "rank position"


def test_the_rules_answer_drops_unbacked_parts_instead_of_spelling_them():
    source = inspect.getsource(rules_answer)
    assert "_words" not in source and "rewrite" not in source  # no spelled-out-number bypass left


def test_a_percent_is_never_backed_by_a_plain_ratio():
    # 787 / 498 = 1.58: "1.58 times" is that ratio, "1.58%" is not (a 0.5B model's wrong "-2.3%" change had
    # matched the ratio of two unrelated figures).
    result = values(homicides_2019=498, homicides_2020=787)
    assert check_grounding("1.58 times as many", [result], "q").unmatched == []
    assert check_grounding("up 1.58%", [result], "q").unmatched == ["1.58%"]
    assert check_grounding("up 58.0%", [result], "q").unmatched == []  # the percent change stays


def test_derivations_need_related_figures():
    result = values(population_2010=73595, population_acs_2023=71354, households=13825, asian=3344,
                    pct_black=6.1, city={"pct_black": 28.7, "per_capita_income": 28202}, per_capita_income=71551)
    ok = ["lost 2,241 residents", "down 3.0%",  # the same figure at two times: difference, percent change
          "22.6 points below the city", "$43,349 more than the city",  # an area and the city
          "Asian residents are 4.7% of 71,354"]  # a part of a whole
    for answer in ok:
        assert check_grounding(answer, [result], "q").ok, answer
    # Unrelated names do not combine: households minus Asian residents, households as a share of income.
    assert check_grounding("10,481 more", [result], "q").unmatched == ["10,481"]
    assert check_grounding("19.3%", [result], "q").unmatched == ["19.3%"]


def test_a_long_ranking_does_not_back_most_random_percents(registry):
    # Over a 66-row ranking any one-decimal percent used to be the share, sum or difference of some pair
    # of its numbers (99 in 100 random percents matched); only related headline figures combine now.
    import random
    rng = random.Random(7)
    result = registry.run("query_homicides_advanced", {"group_by": "community_area", "year": 2021})
    refs = References.build([result], "q")
    derived = 0
    for _ in range(400):
        found = refs.match(extract_numbers(f"{rng.uniform(0, 100):.1f}%")[0])
        derived += bool(found) and found["rule"] in ("sum", "difference", "share", "percent change", "ratio")
    assert derived / 400 < 0.10
