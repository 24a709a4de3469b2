"""The reading accounts for every word of a question: used, filler, or named in the answer as not used."""
import pytest

from analyzer.coverage import unused_phrases
from analyzer.question import analyze_question
from analyzer.reading import read
from backends.rules_only import RulesBackend
from evals.runner import load_questions
from intelligent_mcp import Orchestrator


@pytest.fixture(scope="module")
def rules(registry, settings):
    return Orchestrator(RulesBackend(), registry, settings)


def test_every_eval_question_is_read_whole_or_says_what_it_could_not_use(rules):
    """For every question of the evaluation set: nothing is left unused, or the answer is partial and names each
    unused part in its own words."""
    for item in load_questions():
        result = rules.run(item["q"])
        reading = result.reading
        assert reading is not None and reading.line.startswith("Read as: "), item["id"]
        for phrase in reading.not_used:
            assert result.partial, item["id"]
            assert f"'{phrase}'" in result.answer, (item["id"], phrase, result.answer[-300:])


@pytest.mark.parametrize("question, phrase", [
    ("How many homicides happened on rainy days in 2020?", "rainy"),
    ("homicides near the lakefront in 2021", "lakefront"),
    ("How many homicides by drowning in 2019?", "drowning"),
    ("How many homicides during heat waves in 2019?", "heat waves"),
])
def test_a_part_the_reading_cannot_use_is_named(registry, question, phrase):
    analysis = analyze_question(question, registry.data)
    assert any(phrase in p for p in analysis.not_used), analysis.not_used


@pytest.mark.parametrize("question", [
    "How many people were killed in Englewood in 2019?",
    "what's the per capita income in hyde park",
    "Which ward had the most homicides in 2021?",
    "how many ppl got killed in englwood back in 2018",  # a misspelled place, informal words
    "homocides in 2020",  # a misspelled subject
    "how many murders in polce distrct 7 during 2020",  # a misspelled place type
])
def test_ordinary_questions_leave_nothing_unused(registry, question):
    assert analyze_question(question, registry.data).not_used == []


def test_a_misspelled_place_type_still_names_the_place(registry):
    assert analyze_question("how many murders in polce distrct 7 during 2020", registry.data).districts == [7]


def test_a_negation_is_used_only_when_the_reading_recorded_it():
    low = "homicides that were not domestic"
    assert unused_phrases(low, []) == ["not domestic"]
    start = low.index("not")
    assert unused_phrases(low, [], consumed=[(start, start + len("not domestic"))]) == []


def test_the_reading_line_names_place_period_and_what_was_not_used(registry):
    reading = read(analyze_question("homicides in Austin in 2020 near the lakefront", registry.data))
    assert reading.places == ["Austin (25)"] and reading.periods == ["2020"]
    assert reading.line.startswith("Read as: homicides · Austin (25) · 2020")
    assert reading.to_dict()["line"] == reading.line


def test_a_result_with_unused_parts_is_partial_and_says_so(rules):
    result = rules.run("How many homicides happened on rainy days in 2020?")
    assert result.partial and "I could not use 'on rainy'" in result.answer
    assert result.to_dict()["reading"]["not_used"] == ["on rainy"]
