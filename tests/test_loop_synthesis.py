"""The loop's synthesis phase and the run around it: the synthesis request, key figures, streaming, model errors."""
import json

import pandas as pd
import pytest

from backends.base import BackendBusy, BackendError
from intelligent_mcp import Orchestrator
from loop.options import InvalidOptions
from loop.steps import RunResult
from settings.loader import load_settings, with_overrides
from tests.loop_helpers import (
    HOMICIDES,
    OWN_PASSES,
    RATES,
    SuggestibleModel,
    call,
    orchestrate,
    statuses,
    step_types,
    tool_values,
    yearly_counts,
)
from tests.loop_helpers import OWN_PASSES
from settings.loader import with_overrides


@pytest.fixture(scope="module")
def settings(settings):
    """This module tests the model's own gathering passes (model_calls "own")."""
    return with_overrides(settings, OWN_PASSES)


def test_model_error_keeps_gathered_results(registry, settings):
    def fail(request):
        raise BackendError("the model crashed")

    orch, backend = orchestrate(registry, settings, [call(HOMICIDES, year=2022), fail])
    result = orch.run("2022?")
    assert result.stopped_because == "error" and result.partial
    assert "error" in step_types(result) and statuses(result) == ["ok"]
    assert "homicides" in result.answer  # built from the result summary
    assert [r.phase for r in backend.requests] == ["gather", "gather"]  # no call to a broken model


def test_backend_busy_propagates(registry, settings):
    def busy(request):
        raise BackendBusy("queue full")

    orch, _ = orchestrate(registry, settings, [busy])
    with pytest.raises(BackendBusy):
        orch.run("anything")


def test_busy_after_the_model_has_worked_on_the_question_keeps_what_was_gathered(registry, settings):
    """A later pass that cannot get the model in time (another question held it past this one's limit) ends the
    question like a deadline: its results are answered from, not thrown away with a 503."""
    def busy(request):
        raise BackendBusy("the model stayed busy with other questions for this question's whole time limit")

    orch, _ = orchestrate(registry, settings, [call(HOMICIDES, year=2022), busy])
    result = orch.run("2022?")
    assert result.partial and statuses(result) == ["ok"] and "homicides" in result.answer


def test_invalid_options(registry, settings):
    orch, _ = orchestrate(registry, settings, [])
    with pytest.raises(InvalidOptions, match="unknown option"):
        orch.run("q", {"max_calls": 2})
    with pytest.raises(InvalidOptions, match="1 to 4"):
        orch.run("q", {"max_tool_calls": 5})
    with pytest.raises(InvalidOptions):
        orch.run("q", {"timeout_seconds": 0.5})
    with pytest.raises(ValueError):
        orch.run("q", {"grammar": "yes"})
    assert orch.limits({"max_tool_calls": 2.0, "timeout_seconds": 30})["max_tool_calls"] == 2
    with pytest.raises(InvalidOptions, match="not a string"):  # JSON text is not a number
        orch.limits({"max_tool_calls": "2"})


def test_stream_events_and_result_shape(registry, settings):
    orch, _ = orchestrate(registry, settings, [call(HOMICIDES, year=2022), "NO_TOOL_CALL", "answer"])
    events = list(orch.stream("2022?", {"max_tool_calls": 3}))
    assert events[0]["event"] == "start" and events[0]["limits"] == {"max_tool_calls": 3, "timeout_seconds": 60}
    assert events[0]["backend"]["backend"] == "scripted"
    steps = [e["step"] for e in events if e["event"] == "step"]
    assert steps == events[-1]["result"].steps  # typed objects travel
    result = events[-1]["result"].to_dict()
    assert [step.to_dict() for step in steps] == result["trace"]
    assert "".join(e["text"] for e in events if e["event"] == "token") == "answer"  # streamed as written
    assert list(result) == ["question", "answer", "partial", "tool_calls", "trace", "stopped_because", "timings",
                            "backend", "model", "prompt_version", "sources", "caveats", "ungrounded_numbers",
                            "analysis", "error", "reading"]
    assert set(result["tool_calls"][0]) == {"index", "name", "arguments", "status", "error", "duration_ms",
                                            "result_summary"}
    model_pass = result["trace"][1]
    assert {"type", "index", "started_ms", "duration_ms", "pass", "phase", "prompt_tokens", "evaluated_tokens",
            "completion_tokens", "raw_output", "parsed_calls", "parse_errors", "finish_reason"} <= set(model_pass)
    tool_step = result["trace"][2]
    assert tool_step["result"]["ok"] and tool_step["result"]["tool"] == HOMICIDES and tool_step["call"] == 1
    assert [s["index"] for s in result["trace"]] == list(range(len(result["trace"])))
    assert set(result["timings"]) == {"total_ms", "analysis_ms", "model_ms", "tools_ms", "synthesis_ms", "grounding_ms"}
    assert result["prompt_version"].startswith("p-") and result["model"] == "scripted"
    json.dumps(result)  # JSON-able as is
    assert isinstance(orch.run("again?"), RunResult)


def test_the_synthesis_request_lists_a_grouped_results_rows(registry, settings):
    grouped = call(HOMICIDES, year=2021, group_by="community_area", top_n=3)
    orch, backend = orchestrate(registry, settings, [grouped, "NO_TOOL_CALL", "Austin had 71."])
    orch.run("Which community area had the most homicides in 2021?")
    request = backend.requests[-1].messages[-1]["content"]
    rows = tool_values(registry, HOMICIDES, year=2021, group_by="community_area", top_n=3)  # the tool's own figures
    assert "rows: Austin (25): 71" in request and rows["total"] == 804


def test_a_reply_of_only_markers_gives_way_to_the_planners_answer(registry, settings):
    backend = SuggestibleModel(["NO_TOOL_CALL"])
    result = Orchestrator(backend, registry, settings).run("What is MCP?")
    request = backend.requests[0].messages[-1]["content"]
    assert "names no subject, place or period" in request and "home values" in request
    answer = next(s for s in reversed(result.steps) if s.type == "synthesis")
    assert answer.planner_answer and "homicides" in result.answer
    assert all(s.added == [] for s in result.steps if s.type == "notes")  # the planner's answer has them


def test_the_synthesis_request_carries_the_analyzers_notes(registry, settings):
    backend = SuggestibleModel([call(HOMICIDES, ward=20, start_year=2021, end_year=2021),
                                "NO_TOOL_CALL", "There were 33 homicides in ward 20 in 2021."])
    result = Orchestrator(backend, registry, settings).run("homicides and poverty in ward 20 in 2021")
    request = [r.messages[-1]["content"] for r in backend.requests if r.phase == "synthesis"][0]
    assert "Tell the user this too" in request and "does not include households below poverty by ward" in request
    out_of_range = SuggestibleModel([call(HOMICIDES, year=2022), "NO_TOOL_CALL",
                                     "The data covers 2001 to 2023-07-19, so 1995 is not in it."])
    result = Orchestrator(out_of_range, registry, settings).run("How many homicides were there in 1995?")
    # Asked only about a year outside the data, the planner's decline is the answer (no model pass is needed).
    assert "cannot give a figure for 1995" in result.answer
    grounding = [s for s in result.steps if s.type == "grounding"][0]
    assert grounding.unmatched == []


def test_the_synthesis_request_names_the_figures_that_answer_the_question(registry, settings, data_dir):
    # Asked which of two years was deadlier, a small model answered from the period total; the request now
    # names each year's count and the change, worked out here from the raw export. (The planner's draft has
    # run after the first pass, so gathering ends there: plan_complete.)
    counts = yearly_counts(data_dir, (2016, 2017))
    backend = SuggestibleModel([call(HOMICIDES, start_year=2016, end_year=2017, group_by="year"),
                                f"2016 had more: {counts[2016]:,} against {counts[2017]:,} in 2017."])
    result = Orchestrator(backend, registry, settings).run("Were there more murders in 2016 or in 2017?")
    request = [r.messages[-1]["content"] for r in backend.requests if r.phase == "synthesis"][0]
    change = counts[2017] - counts[2016]
    assert (f"The figures that answer it, from the data tools' results:\n- There were {counts[2016]:,} homicides in Chicago in "
            f"2016; {counts[2017]:,} in 2017.") in request
    assert f"{change:+,}" in request
    assert request.index("The figures that answer it") < request.index("Write a short")
    assert not result.steps[-2].planner_answer and result.answer.startswith("2016 had more")


def test_a_trend_request_lists_each_year_and_the_setting_turns_it_off(registry, settings, data_dir):
    counts = yearly_counts(data_dir, range(2015, 2024))
    question = "Show the homicide trend by year since 2015"
    replies = [call(HOMICIDES, start_year=2015, end_year=2023, group_by="year"), "answer"]
    backend = SuggestibleModel(list(replies))
    Orchestrator(backend, registry, settings).run(question)
    request = [r.messages[-1]["content"] for r in backend.requests if r.phase == "synthesis"][0]
    assert "- By year: " + "; ".join(f"{y}: {n:,}" for y, n in counts.items()) + "." in request
    off = SuggestibleModel(list(replies))
    Orchestrator(off, registry, load_settings(overrides={**OWN_PASSES, "orchestrator.key_figures": False})).run(question)
    request = [r.messages[-1]["content"] for r in off.requests if r.phase == "synthesis"][0]
    assert "The figures that answer it" not in request


def test_key_figures_come_from_the_planned_tools_results(registry, settings, data_dir):
    # Asked for the highest homicide rate, the model also ranked counts: the request names the rate ranking's
    # top area only, not the count ranking's (which a small model gave as the answer).
    counts = call(HOMICIDES, year=2022, group_by="community_area", top_n=5, sort_order="desc")
    rates = call(RATES, year=2022, top_n=5, sort_order="desc")
    backend = SuggestibleModel([counts, rates, "NO_TOOL_CALL", "Fuller Park had the highest rate."])
    Orchestrator(backend, registry, load_settings(overrides=OWN_PASSES)).run(
        "Which community area has the highest homicide rate per capita in 2022?")
    request = [r.messages[-1]["content"] for r in backend.requests if r.phase == "synthesis"][0]
    key = request.split("from the data tools' results:\n")[1].split("\nWrite a short")[0]
    raw = pd.read_csv(data_dir / "homicides.csv", dtype=str, usecols=["Date", "Community Area"])
    year = pd.to_datetime(raw["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.year
    fuller_park = int(((year == 2022) & (pd.to_numeric(raw["Community Area"]) == 37)).sum())
    assert key.startswith("- The community area with the highest homicide rate in 2022 was Fuller Park (37): 274.5 "
                          "per 100,000")
    assert f"({fuller_park} homicides, pop " in key
    assert "Austin" not in key and "For comparison" not in key


def test_the_number_grammar_binds_the_synthesis_pass_only_when_set(registry, settings, data_dir):
    raw = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    total = int((raw["Date"].str[6:10] == "2022").sum())
    replies = [call(HOMICIDES, year=2022), "NO_TOOL_CALL", lambda req: f"There were {total:,} homicides in 2022."]
    orch, backend = orchestrate(registry, settings, list(replies))
    orch.run("How many homicides were there in 2022?")
    assert backend.requests[-1].phase == "synthesis" and backend.requests[-1].grammar is None  # off by default
    on = with_overrides(settings, {"orchestrator.number_grammar": True})
    orch, backend = orchestrate(registry, on, list(replies))
    result = orch.run("How many homicides were there in 2022?")
    grammar = backend.requests[-1].grammar
    assert backend.requests[-1].phase == "synthesis" and f'"{total}"' in grammar and f'"{total + 1}"' not in grammar
    assert result.answer == f"There were {total:,} homicides in 2022."


def test_a_question_only_about_years_outside_the_data_gets_the_decline_not_the_models_figure(registry, settings):
    """The 0.5B model, given every year's figures for "the homicide total for 2024", wrote "The homicide total for
    2024 was 12,657": asked only about years the data lacks, the answer is the planner's decline."""
    backend = SuggestibleModel([call(HOMICIDES, group_by="year"), "NO_TOOL_CALL",
                                "The homicide total for 2024 was 12,657."])
    result = Orchestrator(backend, registry, settings).run("what was the homicide total for 2024")
    assert "cannot give a figure for 2024" in result.answer and "12,657" not in result.answer
    assert [s for s in result.steps if s.type == "synthesis"][-1].planner_answer
    assert not any(r.phase == "synthesis" for r in backend.requests)  # no model pass was spent on it
