"""Coverage checked on what was computed (loop/coverage_check.py): a year, a number or a share the question asks for
that no call computed and the answer does not say is named in the lead and the reading's not-used list, never
answered silently with figures for something else. Each case is one blind24 found answered silently wrong, run end
to end through the rules backend; the figures it did compute are checked against pandas, and questions whose years
and numbers were all computed carry no such note.
"""
from __future__ import annotations

import pandas as pd
import pytest

from loop.coverage_check import _units, addresses, uncovered_figures, uncovered_numbers, uncovered_years
from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data

NOTE = "I could not use "


def _homicides() -> pd.DataFrame:
    h = pd.read_csv(ref.DATA / "homicides.csv", dtype=str, usecols=["Year", "Community Area", "Ward"])
    return h.assign(year=h["Year"].astype(int), area=pd.to_numeric(h["Community Area"]), ward=pd.to_numeric(h["Ward"]))


def test_a_span_no_call_computed_is_named(ask):
    """"Its homicide rate in 2010-2012 versus 2020-2022": the reading computed 2010-2012 only, so the lead names the
    second span (the ACS 2019-2023 it quotes is a survey's name, not those years computed)."""
    run = ask("Which community area shrank the most in percentage terms from 2010 to the 2019-2023 ACS, and what was "
              "its homicide rate per 100k in 2010-2012 versus 2020-2022?")
    assert "I could not use '2020-2022' from the question" in lead(run)
    assert "2020-2022" in run.reading.not_used


def test_a_floor_no_call_applied_is_named(ask):
    """"In how many years since 2010 did ward 28 have at least 40": the span's total is what ran; the lead gives it
    and says the floor was not used."""
    h = _homicides()
    total = int(((h.ward == 28) & (h.year >= 2010)).sum())
    text = lead(ask("in how many years since 2010 did ward 28 have at least 40 homicides"))
    assert f"There were {total:,} homicides in ward 28" in text
    assert "I could not use 'at least 40'" in text


def test_every_year_and_number_computed_carries_no_note(ask):
    h = _homicides()
    run = ask("how many homicides were there in Austin in 2019-2021?")
    count = int(((h.area == 25) & h.year.between(2019, 2021)).sum())
    assert f"{count:,} homicides" in lead(run) and NOTE not in run.answer
    # A snapshot's own span names the source, and a year the answer itself declines is said in it.
    for question in ("top 4 community areas by home value in sept 2024 -- give me the 2008-12 poverty % for each",
                     "What's the poverty rate in Austin in 2022?",
                     "which 5 areas had the most homicides in 2021?",
                     "areas with more than 30% of households below poverty (2008-2012): how many?"):
        assert NOTE not in ask(question).answer, question


def test_the_question_units_and_the_computed_years():
    """The check's reading of the question: dashed spans expanded, decades and ordinals not years, a census or survey
    name not a period, numbers with their comparators, clock times and place numbers left alone."""
    years = [y for _, _, y in _units("2019-22 vs 2010–2012, the 2010s, the 2010 census, '21, ACS 2019-2023")]
    assert years == [[2019, 2020, 2021, 2022], [2010, 2011, 2012], [2021]]

    class Analysis:
        error, years, periods, out_of_range_years, left_out_years, hour_spans = None, [2019, 2022], [], [], [], []

    class Call:
        def __init__(self, arguments, text=""):
            self.status, self.arguments = "ok", arguments
            self.result = type("R", (), {"ok": True, "text": text})()

    calls = [Call({"measures": [{"measure": "homicides", "period": {"start": "2019", "end": "2022"}}]})]
    assert uncovered_years("homicides 2019-22", Analysis(), calls) == []
    assert uncovered_years("homicides 2019-22", Analysis(), [Call({"year": 2019})]) == ["2019-22"]
    assert uncovered_years("homicides since 2019", Analysis(), [Call({"start_year": 2019})]) == []
    question = "ward 28, zip 60623, from 9pm to 5am, the top 5 with at least 40 and over $300k, per 100,000"
    assert uncovered_numbers(question, Analysis(), [Call({"top_n": 5, "min": 39})]) == ["over $300k"]
    assert uncovered_figures("what percent were domestic?", "There were 12 homicides.") == ["what percent"]
    assert uncovered_figures("what percent were domestic?", "12 (3.4%) were domestic.") == []
    # a rank is a position given, not the word echoed (a 0.5B answer: "Austin's rank ... is 67.8 homicides per square
    # mile")
    asked = "Austin's rank (1 = highest) in homicides per square mile, 2016-2022?"
    assert uncovered_figures(asked, "Austin's rank (1 = highest) in homicides per square mile is 67.8.") == \
        ["Austin's rank"]
    assert uncovered_figures(asked, "Austin had 67.8 homicides per square mile (rank 6 of 77).") == []


def test_calls_the_limit_left_unrun_are_said_in_the_lead(ask):
    """Six areas asked one call each, beside their poverty rates: four calls run, and the lead says the answer covers
    only part of the question (the caveat at the foot alone let it read as complete)."""
    h = _homicides()
    run = ask("homicides in Austin, Englewood, Uptown, Hyde Park, Loop and Lincoln Park in 2019, and each area's "
              "poverty rate")
    text = lead(run)
    assert f"There were {int(((h.area == 25) & (h.year == 2019)).sum())} homicides in Austin" in text
    assert "I could not make every call this question needs (at most 4 a question)" in text
    assert NOTE not in ask("homicides in Austin and Englewood in 2019").answer


def test_a_rank_no_call_gave_is_named(ask):
    """"Austin's rank in population change": the change ran, the rank did not, and the lead says so ("98,514 of the
    2010 Census" is no position); a rank the answer gives carries no note."""
    text = lead(ask("what's Austin's rank in population change since 2010?"))
    assert "I could not use 'Austin's rank'" in text
    ranked = lead(ask("where does Englewood rank on homicides in 2021?"))
    assert "rank" in ranked and NOTE not in ranked


def test_a_ratio_asked_and_not_given_is_a_gap():
    asked = "How many times more homicides in summer 2021 than in winter 2021?"
    assert uncovered_figures(asked, "There were 424 homicides in Chicago in January, February, June ...") == \
        ["How many times"]
    assert uncovered_figures(asked, "Summer's 278 is 3.02 times winter's 92.") == []
    assert uncovered_figures("How many homicides in 2021?", "There were 804.") == []
    assert addresses("How many times", {"measures": ["homicides"], "derived": [
        {"name": "r", "op": "ratio", "of": ["a", "b"]}]})


@pytest.mark.parametrize("question, missing, given", [
    # each a blind set's confident answer to a nearer question: the lead said what it computed, not what was asked
    ("Between 2001 and 2022, what's the longest streak of consecutive years in which homicides went up?",
     "There were 12,317 homicides in Chicago from 2001 to 2022.",
     "The longest run of rises lasted 2 years (2015-2016)."),
    ("how many homicides in 2021, and what % change was that from 2019?",
     "There were 3,146 homicides in Chicago from 2019 to 2023.", "804 in 2021, a change of +61.4% from 2019."),
    ("In how many years from 2001 to 2022 did Edison Park have zero homicides?",
     "The year with the fewest homicides in Edison Park was 2001, with 0.", "There are 19 years with no homicides."),
    ("the 5 cheapest areas - on average how many killings per year did they have combined over 2019-2022?",
     "Together they had 438 homicides in 2019-2022.", "An average of 109.5 a year over 2019-2022."),
    ("is there a relationship between home value growth and the murder rate by area? pearson r please",
     "Chicago price index 275.0 in 2025Q4.", "The Pearson correlation is 0.28."),
    ("how far above the city's homicide rate was west garfield park in 2022?",
     "West Garfield Park had 195.8 per 100,000 (rank 1 of 77).", "That is 169.3 higher than the city's 26.5."),
    ("areas denser than the city: how many, and what's their average home value?",
     "In Chicago, the population was 2,647,621.", "an average typical home value of $316,037 across them"),
])
def test_a_kind_of_figure_asked_and_not_given_is_named(question, missing, given):
    """A share, a change, a streak, a count of years, an average, a correlation or a gap the question asks for and the
    lead does not give is a gap, named in the lead; a lead that gives it has none."""
    assert uncovered_figures(question, missing)
    assert not uncovered_figures(question, given)


def test_a_declined_lead_and_an_arrest_rate_are_no_figure_given():
    """A lead that already declines names what it could not compute; the arrest rate every count carries is no share
    asked of another subject (but is the share when arrests are asked)."""
    assert uncovered_figures("what share of 2022 homicides were in Austin, and the median rent there?",
                             "The data behind ChiQA does not include rent, so I cannot answer that from it.") == []
    assert uncovered_figures("what share of the city's homicides happened there?",
                             "There were 256 homicides in Austin; the arrest rate was 38.3%.") == ["what share"]
    assert uncovered_figures("what percent were solved?", "There were 717; the arrest rate was 35.4%.") == []
