"""A question of several parts read part by part where reading it whole left words unused (analyzer/parts.py): each
part planned and answered on its own, the leads in the order asked. Expected figures come from the raw CSVs."""
from __future__ import annotations

import pandas as pd
import pytest

from analyzer.parts import _two_sentences, linked_text, split_parts
from tests import semantic_reference as ref
from tests.planner_helpers import lead

LOGAN = ("For Logan Square: what was the Redfin median sale price for the 90-day period ending 2019-06-30, and what "
         "was the 2019 average index of the IHS submarket Logan Square lies in?")


def test_a_question_splits_at_its_parts_and_each_keeps_the_topic():
    assert split_parts(LOGAN) == [
        "For Logan Square: what was the Redfin median sale price for the 90-day period ending 2019-06-30",
        "For Logan Square: what was the 2019 average index of the IHS submarket Logan Square lies in?"]
    assert split_parts("How many homicides in 2020? And how many were domestic in 2021?") == [
        "How many homicides in 2020", "And how many were domestic in 2021?"]
    assert split_parts("homicides in Austin and Englewood in 2020") == []  # "and" between places: one part
    assert split_parts("How many homicides in 2020?") == []
    assert split_parts("the median among the 10 highest areas, vs. the median among the 10 lowest?") == []


def test_a_part_pointing_at_a_place_gets_its_name():
    first, second = _two_sentences("Which submarket rose the most? How many areas have it as their main submarket, "
                                   "and their rate?")
    assert first == "Which submarket rose the most?" and second.startswith("How many areas have it")
    assert linked_text(second, "Chicago--Englewood/Greater Grand Crossing").startswith(
        "How many areas have Chicago--Englewood/Greater Grand Crossing as their main submarket")
    assert linked_text("the Redfin price for the neighborhood of the same name in 2018", "Austin") == \
        "the Redfin price for Austin in 2018"
    assert _two_sentences("How many homicides in 2020") == []


@pytest.mark.full_data
def test_two_sources_asked_in_two_parts_are_both_answered(ask):
    redfin = ref._redfin_neighborhoods()
    window = redfin[(redfin["neighborhood"] == "Logan Square") & (redfin["end"] == "2019-06-30")]
    price = ref._price_k(window["Median Sale Price"]).iloc[0]
    ihs = pd.read_csv(ref.DATA / "property_ihs_price_index_long.csv")
    index = ihs[(ihs.submarket_code == "p3155") & (ihs.year == 2019)].index_2000q1_100.mean()
    run = ask(LOGAN)
    text = lead(run)
    assert f"Logan Square had a median sale price (Redfin) of ${price:,.0f} in June 2019" in text
    assert f"of {index:.1f} in 2019" in text
    assert text.index(f"${price:,.0f}") < text.index(f"{index:.1f}")  # in the order asked
    assert "could not use" not in text and not run.reading.not_used
    assert len(run.analysis.parts) == 2


@pytest.mark.full_data
def test_a_question_read_whole_is_not_read_in_parts(ask):
    # every word used: the chain (the area the ranking finds, then its income) stays one reading
    run = ask("Which community area had the most homicides in 2020, and what was its per capita income?")
    assert run.analysis.parts == [] and not run.analysis.not_used


@pytest.mark.full_data
@pytest.mark.parametrize("question", [
    # a later part that leans on an earlier one: a comparison, a place or set pointed at, a fallback
    "during the covid lockdown spring (march through may 2020), how many homicides were there, and how does that "
    "compare with the same three months of 2019?",
    "How many homicides were recorded in ward 28 in 2021, and who is the alderman listed for that ward in the ward "
    "offices file?",
    "How many homicides in 2000? if you don't have 2000, just tell me 2001.",
    # a part with no figure of its own shapes another part's ("Give the Pearson r")
    "Is 2008-2012 per capita income correlated with the share of households making $125k+ in the 2019-2023 ACS? "
    "Give the Pearson r across community areas.",
])
def test_a_part_that_leans_on_another_keeps_the_question_whole(ask, question):
    assert ask(question).analysis.parts == []
