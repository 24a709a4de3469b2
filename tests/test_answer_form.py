"""Answers that read as answers: the form check (loop/answer_form.py) and the planner's sentences
(rules/sentences.py). The eval-wide check is in tests/test_evals.py."""
import pytest

from assembly.services import build_services
from backends.rules_only import RulesBackend
from loop.answer_form import first_sentence, form_problems
from rules.sentences import count_sentence, peak_sentence, ranking_sentence, trend_sentence, year_counts_sentence
from tools import names

READING = {"places": ["ward 28"], "periods": ["2016"], "measures": ["homicides"]}


@pytest.mark.parametrize("answer, problem", [
    ("68 homicides (year 2016, ward 28); arrest rate 27.9%.", "starts with a bare key line"),
    ("Ranked highest: Ward 28: 68 (5.0% of total). Then, for that area: ...", "a templated chain"),
    ("There were 68 homicides in 2016; the arrest rate was 27.9%.", "does not name the place 'ward 28'"),
    ("There were 68 homicides in ward 28; the arrest rate was 27.9%.", "does not name the period '2016'"),
    ("Ward 28 in 2016 is on the West Side. It had 68 homicides.", "states no figure"),
])
def test_each_problem_is_named(answer, problem):
    assert any(problem in p for p in form_problems(answer, READING)), form_problems(answer, READING)


def test_a_full_sentence_passes_and_a_declined_part_may_come_first():
    assert form_problems("There were 68 homicides in ward 28 in 2016; the arrest rate was 27.9%.", READING) == []
    declined = "The homicide data does not record weapons, so I cannot answer that part. There were 68 ..."
    assert form_problems(declined, READING) == []
    assert first_sentence("In 2016 there were 68.5 per 100k. Then more.") == "In 2016 there were 68.5 per 100k."


def test_a_range_is_named_by_its_start_and_separate_years_each():
    reading = {"places": [], "periods": ["2015-2023"], "measures": ["home values"]}
    assert form_problems("Bridgeport's home value was $294,732, +31.1% since 2015.", reading) == []
    reading["periods"] = ["2016, 2019 (separate years)"]
    assert form_problems("There were 786 homicides in 2016.", reading) != []


def _values(total, described, **extra):
    return {"total": total, "arrests": 1, "arrest_rate_pct": 25.0, "described": described, **extra}


def test_count_sentences_name_place_period_and_filters():
    assert count_sentence(_values(68, ["year 2016", "ward 28"]), "") == \
        "There were 68 homicides in ward 28 in 2016; the arrest rate was 25.0%."
    assert count_sentence(_values(1, ["year 2022", "community area Englewood (68)", "domestic"]), "") == \
        "There was 1 domestic homicide in Englewood (community area 68) in 2022; the arrest rate was 25.0%."
    assert count_sentence(_values(0, ["years 2015-2019", "months Jun, Jul", "no arrest"]), "") == \
        "There were 0 homicides in Chicago from 2015 to 2019, in June and July, with no arrest made."
    assert count_sentence(_values(57, ["year 2021", "months Jun"]), "") == \
        "There were 57 homicides in Chicago in June 2021; the arrest rate was 25.0%."
    summary = "717 homicides (years 2015-2019); arrest rate 25.0%; an average of 143.4 a year"
    assert count_sentence(_values(717, ["years 2015-2019"]), summary).endswith(
        "; the arrest rate was 25.0%; an average of 143.4 a year.")


def test_year_counts_and_peaks_are_sentences():
    values = _values(120, ["years 2020-2021", "location APARTMENT"], group_by="year")
    rows = [{"year": 2020, "homicides": 61}, {"year": 2021, "homicides": 59}]
    assert year_counts_sentence(values, rows, in_all=True) == \
        "There were 61 homicides at a place recorded as APARTMENT in Chicago in 2020; 59 in 2021 (120 in all)."
    peak = peak_sentence("Highest: July 2021 with 112; lowest: February 2021 with 38.",
                         _values(804, ["year 2021"], group_by="month"))
    assert peak == "The month with the most homicides in 2021 was July 2021, with 112; the fewest were in February 2021, with 38."


def test_a_yearly_average_over_the_partial_year_says_so():
    values = {"period1": {"homicides": 329, "years": 5, "yearly_average": 65.8, "label": "2015-2019"},
              "period2": {"homicides": 235, "years": 4, "yearly_average": 58.8, "label": "2020-2023"},
              "change_in_yearly_average_pct": -10.7, "partial_year": {"year": 2023, "data_end": "2023-07-19"}}
    summary = "Austin (community area 25): 65.8/yr (2015-2019) -> 58.8/yr (2020-2023), -10.7%"
    assert trend_sentence(values, summary) == (
        "In Austin (community area 25), there were 329 homicides in 2015-2019 (65.8 a year); 235 in 2020-2023 "
        "(58.8 a year) (2023 is partial: data end 2023-07-19, counted as a whole year); the yearly average changed by -7.0 (-10.7%).")


def test_the_planner_names_the_partial_year_in_a_period_comparison(registry, settings, data):
    cov = data.coverage["homicides"]
    run = build_services(settings, backend=RulesBackend(), data=data).orchestrator.run(
        f"How did Austin compare 2015-2019 against 2020-{cov['last_year']} for homicides?")
    assert run.answer.startswith("In Austin (community area 25), there were ")
    assert f"({cov['last_year']} is partial: data end {cov['end']}, counted as a whole year)" in run.answer.split(". ")[0]


def test_a_tie_for_first_names_every_place_in_it():
    values = _values(717, ["year 2022"], group_by="ward", rank_by="homicides", tied=["ward 23", "ward 38", "ward 40"],
                     tied_value=1)
    summary = "717 homicides (year 2022); arrest rate 35.4%; fewest: 1 homicide, tied: ward 23, ward 38 and ward 40"
    assert ranking_sentence(names.HOMICIDES, values, "Ward 23: 1 (0.1% of total)", "asc", summary) == \
        "The wards tied for the fewest homicides in 2022, with 1 each, were ward 23, ward 38 and ward 40."
    assert count_sentence(values, summary, in_all=True) == \
        "In all, there were 717 homicides in Chicago in 2022; the arrest rate was 25.0%."


def test_a_sentence_whose_subject_is_a_year_is_not_a_key_line():
    assert form_problems("2016 had more: 762 against 672.", None) == []
    assert form_problems("2021 saw 800 killings.", None) == []
    assert form_problems("717 homicides (year 2022); arrest rate 35.4%", None)
