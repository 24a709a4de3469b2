"""Carrying places, periods and subjects into follow-up questions (analyzer/followup.py), the prompt's summary
of earlier turns, and answers that leave sources and caveats to their own fields."""
import pytest

import prompt_registry as prompts
from analyzer import followup
from analyzer.analysis import Analysis
from analyzer.followup import EarlierTurn
from analyzer.question import analyze_question
from intelligent_mcp import Orchestrator
from loop.steps import ToolCallStep
from rules.answer import write_answer
from backends.rules_only import RulesBackend
from settings.loader import load_settings


def converse(data, questions):
    """Each question's analysis after carrying, as the orchestrator builds it."""
    previous = []
    for question in questions:
        analysis = followup.apply(analyze_question(question, data), question, previous)
        previous.append(analysis)
    return previous


def carried(analysis: Analysis) -> dict:
    return {c.field: c.from_turn for c in analysis.followup.carried}


def test_a_year_alone_takes_the_place_and_subject_a_place_alone_the_year(data):
    t1, t2, t3 = converse(data, ["How many homicides were there in Englewood in 2022?", "And in 2021?",
                                 "What about Austin?"])
    assert t1.followup.carried == [] and t1.followup.turn == 1
    assert [a.name for a in t2.areas] == ["Englewood"] and t2.years == [2021]
    assert (t2.year_range.start, t2.year_range.end) == (2021, 2021) and t2.domains == ["homicides"]
    assert carried(t2) == {"metrics": 1, "domains": 1, "areas": 1}
    assert [a.name for a in t3.areas] == ["Austin"] and t3.years == [2021]
    # Turn 3's subject was stated in turn 1 (turn 2 only carried it); its year in turn 2.
    assert carried(t3) == {"metrics": 1, "domains": 1, "years": 2, "year_range": 2}
    assert "From earlier turns:" in t3.hint_text and "years 2021 (turn 2)" in t3.hint_text
    # The trace's form: carried values as JSON, the record under "followup".
    record = t3.to_dict()["followup"]
    assert record["turn"] == 3 and {"field": "years", "value": [2021], "from_turn": 2} in record["carried"]


def test_compare_with_the_city_keeps_the_place_and_plans_the_city_figure(data, registry):
    *_, last = converse(data, ["What was the homicide rate in Englewood in 2022?",
                               "How does that compare with the city?"])
    assert last.compare_city and last.per_capita and last.area_numbers == [68]
    orchestrator = Orchestrator(RulesBackend(), registry, load_settings(overrides={"model.backend": "rules"}))
    first = "How many homicides were there in Englewood in 2022?"
    history = [EarlierTurn(1, first, "17 homicides.", converse(data, [first])[0])]
    result = orchestrator.run("How does that compare with the city?", history=history).to_dict()
    assert [c["arguments"].get("community_area") for c in result["tool_calls"]] == [68, None]
    assert result["analysis"]["followup"]["compare_city"] is True
    # The rates tool reports the city itself: no second call.
    history = [EarlierTurn(1, "rate", "", last)]
    rates = orchestrator.run("How does that compare with the city?", history=history).to_dict()
    assert [c["name"] for c in rates["tool_calls"]] == ["analyze_homicide_rates_by_community_area"]


@pytest.mark.parametrize("questions", [
    ["How many homicides were there in Englewood in 2022?", "thanks!"],
    ["How many homicides were there in Englewood in 2022?", "How many homicides were there in Austin in 2019?"],
    ["How many homicides were there in Englewood in 2022?", "What about the weather there?"],
])
def test_nothing_is_carried_into_a_complete_or_unrelated_message(data, questions):
    last = converse(data, questions)[-1]
    carried_fields = set(carried(last))
    if questions[-1].startswith("How many homicides were there in Austin"):
        assert carried_fields == set()
    else:
        assert not carried_fields & {"areas", "years", "metrics"}


def test_periods_stay_with_their_kind_of_data_and_series_take_none(data):
    t1, t2, t3 = converse(data, ["How many homicides were there in Englewood in 2022?",
                                 "What is the per capita income there?", "How have homicides changed there?"])
    assert carried(t2) == {"areas": 1} and t2.years == []  # a homicide year means nothing to 2008-2012 data
    assert "areas" in carried(t3) and t3.years == [] and "years" not in carried(t3)  # a trend wants every year
    rank = converse(data, ["Which community areas had the most homicides in 2023?", "And in 2021?",
                           "What about Englewood?"])
    assert rank[1].ranking and rank[1].group_by == "community_area" and rank[1].years == [2021]
    assert rank[2].ranking is None and [a.name for a in rank[2].areas] == ["Englewood"]
    assert rank[2].years == [2021]
    city = converse(data, ["How many homicides were there in Englewood in 2022?", "And in the whole city?"])[-1]
    assert city.areas == [] and carried(city).get("years") == 1


def test_a_stored_analysis_is_typed_again_and_carries_the_same(data):
    """Earlier turns come back from the run store as JSON: Analysis.from_dict restores them, carries included."""
    t1, t2 = converse(data, ["Which community areas had the most homicides in 2023?", "What about Englewood?"])
    for analysis in (t1, t2):
        assert Analysis.from_dict(analysis.to_dict()) == analysis
    stored = [Analysis.from_dict(a.to_dict()) for a in (t1, t2)]
    carry = followup.carry_forward("And in 2021?", analyze_question("And in 2021?", data), stored)
    assert carry.updates["areas"] == t2.areas and carry.updates["domains"] == ["homicides"]
    assert "years" not in carry.updates and carry.turn == 3
    # Englewood was named in turn 2; the subject goes back to turn 1 through turn 2's own record.
    assert {r.field: r.from_turn for r in carry.record} == {"areas": 2, "metrics": 1, "domains": 1}


def test_history_lines_stay_within_the_budget_newest_first():
    turns = [EarlierTurn(i, f"Question number {i} about homicides in Englewood?",
                         f"There were {i}.5 per 100,000 in 2022. More details follow here.", None)
             for i in range(1, 21)]
    lines = followup.history_lines(turns, n_ctx=4096)
    assert sum(len(x) + 1 for x in lines) <= followup.MAX_HISTORY_CHARS
    assert lines[-1].startswith("Turn 20: Question number 20")
    assert lines[-1].endswith("There were 20.5 per 100,000 in 2022.")
    assert len(followup.history_lines(turns, n_ctx=512)) < len(lines)  # a small context gets fewer lines
    assert followup.first_sentence("Income was $1.5 million. Then more.") == "Income was $1.5 million."
    message = prompts.question_message("And in 2021?", "Years: 2021", lines[-2:])
    assert message.startswith("Earlier in this conversation") and message.index("Turn 19") < message.index("Question:")


# ---------------------------------------------------------------- answers without repeated panels

def test_rule_answers_leave_sources_and_caveats_to_their_fields(registry):
    orchestrator = Orchestrator(RulesBackend(), registry, load_settings(overrides={"model.backend": "rules"}))
    for question in ("Which community areas had the most homicides in 2023?", "Compare per capita income in Hyde Park "
                     "and Englewood.", "How have home values changed in Logan Square?"):
        result = orchestrator.run(question).to_dict()
        assert result["sources"] and result["caveats"]
        assert "Sources:" not in result["answer"] and "Caveats:" not in result["answer"]
        assert not any(c in result["answer"] for c in result["caveats"] if len(c) > 40)
        assert result["ungrounded_numbers"] == []


def test_strip_panels_drops_source_and_caveat_sections_only():
    text = ("Austin had 32 homicides.\n\n**Sources:**\n- Crimes 2001 to present\n- ACS\n\nCaveats: 2023 is partial.\n"
            "## Caveats\n1. one\n\nSources say more later.")
    assert prompts.strip_panels(text) == "Austin had 32 homicides.\n\nSources say more later."
    assert prompts.strip_panels("Sources: only this") == "Sources: only this"  # never stripped to nothing
    assert prompts.clean_answer("TOOL_CALL: x\nAnswer.\nCaveats:\n- a") == "x\nAnswer."
    synthesis = prompts.template("synthesis") + prompts.template("synthesis_strict")
    assert "state caveats" not in synthesis and "Keep the caveats" not in synthesis
    assert "Do not list sources or caveats" in synthesis


@pytest.mark.full_data
def test_write_answer_strict_and_loose_have_no_panels(registry):
    q = "How many homicides in Austin in 2021?"
    result = registry.run("query_homicides_advanced", {"community_area": 25, "year": 2021})
    entry = ToolCallStep(name="query_homicides_advanced", arguments=result.arguments, status="ok", result=result)
    for strict in (False, True):
        text = write_answer(q, analyze_question(q, registry.data), [entry], strict=strict)
        assert "71" in text and "Sources" not in text and "Caveats" not in text
