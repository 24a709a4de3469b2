"""model_calls "gaps" (the served default): where the reading used every word of the question, its calls run with
no model gathering pass, the model writes the answer from the key figures alone, and an answer that fails the check
gives way to the planner's at once. Where the reading falls short the model still writes its own calls. Figures
are computed here from the raw files with pandas."""
import pandas as pd
import pytest

from backends.base import BackendError
from intelligent_mcp import Orchestrator
from loop.answer_check import _names, places_named
from settings.loader import with_overrides
from tests.loop_helpers import HOMICIDES, SuggestibleModel, call, the_reading, yearly_counts


@pytest.fixture(scope="module")
def counts(data_dir):
    return yearly_counts(data_dir, [2015, 2016, 2021, 2022])


def _passes(backend):
    return [r.phase for r in backend.requests]


def test_a_complete_reading_runs_its_calls_with_no_model_pass(registry, settings, counts, raw):
    arrests = round(raw[raw.year == 2022].arrested.mean() * 100, 1)
    # Every figure of its key line, in the model's own words: the model's answer is kept.
    sentence = f"Chicago recorded {counts[2022]:,} homicides in 2022, and {arrests}% of them led to an arrest."
    backend = SuggestibleModel([sentence])
    result = Orchestrator(backend, registry, settings).run("How many homicides were there in 2022?")
    assert _passes(backend) == ["synthesis"]  # the only model work is the answer
    assert result.stopped_because == "plan_complete"
    assert [c.origin for c in result.calls] == ["reader"]
    reader = [s for s in result.steps if s.type == "model_pass"]
    assert [s.phase for s in reader] == ["reader"] and reader[0].prompt_tokens == 0
    assert result.answer.startswith(sentence)
    assert not any(getattr(s, "planner_answer", False) for s in result.steps)


def test_the_answer_pass_sees_the_key_figures_not_the_whole_results(registry, settings, counts):
    backend = SuggestibleModel([f"Chicago had {counts[2022]:,} homicides in 2022."])
    Orchestrator(backend, registry, settings).run("How many homicides were there in 2022?")
    request = backend.requests[0].messages
    assert [m["role"] for m in request] == ["system", "user"]
    user = request[1]["content"]
    assert f"{counts[2022]:,}" in user
    # No tool result's text (its table rows, "- January: ...") is repeated: the tables stay in the result.
    assert "TOOL_RESULT" not in user and "\n- January" not in user


def test_an_answer_that_leaves_out_a_figure_gives_way_to_the_planners_with_no_rewrite(registry, settings, counts):
    backend = SuggestibleModel(["Homicides rose a lot in those years.", "should never be asked for"])
    result = Orchestrator(backend, registry, settings).run(
        "How many homicides were there in 2015 and in 2016?")
    assert _passes(backend) == ["synthesis"]  # no strict rewrite, no added sentence
    assert any(getattr(s, "planner_answer", False) for s in result.steps)
    assert f"{counts[2015]:,}" in result.answer and f"{counts[2016]:,}" in result.answer


def test_a_failed_answer_pass_gives_the_planners_answer_not_the_summaries(registry, settings, counts):
    class Failing(SuggestibleModel):
        def _generate(self, request):
            self.requests.append(request)
            raise BackendError("the model crashed")

    backend = Failing([])
    result = Orchestrator(backend, registry, settings).run("How many homicides were there in 2022?")
    assert any(getattr(s, "planner_answer", False) for s in result.steps)
    assert "could not finish" not in result.answer and f"{counts[2022]:,}" in result.answer


def test_a_chained_question_runs_each_link_of_the_reading(registry, settings, data_dir):
    raw = pd.read_csv(data_dir / "homicides.csv", dtype=str, usecols=["Date", "Community Area"])
    year = pd.to_datetime(raw["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.year
    by_area = pd.to_numeric(raw.loc[year == 2021, "Community Area"]).value_counts()
    top = int(by_area.index[0])
    socio = pd.read_csv(data_dir / "socioeconomic.csv")
    poverty = float(socio.loc[socio["Community Area Number"] == top, "PERCENT HOUSEHOLDS BELOW POVERTY"].iloc[0])
    backend = SuggestibleModel(["(no sentence)"])
    result = Orchestrator(backend, registry, settings).run(
        "What is the poverty rate in the community area with the most homicides in 2021?")
    assert _passes(backend) == ["synthesis"]
    assert len([s for s in result.steps if s.type == "model_pass" and s.phase == "reader"]) == 2
    assert all(c.origin == "reader" and c.status == "ok" for c in result.calls)
    assert f"{int(by_area.iloc[0])}" in result.answer and f"{poverty}" in result.answer


def test_where_the_reading_falls_short_the_model_writes_one_query_and_the_readers_answer_stands(registry, settings,
                                                                                               counts):
    # "during the full moon" is no word the reading can use: its call runs, then the model is asked for one query
    # (tests/test_query_pass.py); a model that writes a call to another tool writes no query.
    backend = SuggestibleModel([call(HOMICIDES, year=2022)])
    result = Orchestrator(backend, registry, settings).run(
        "How many homicides were there in 2022 during the full moon?")
    assert result.analysis.not_used
    assert _passes(backend) == ["query"]
    assert [c.origin for c in result.calls] == ["reader"]
    assert f"{counts[2022]:,}" in result.answer and "could not use" in result.answer.split("\n\n")[0]


def test_own_is_the_plain_loop_the_model_writing_every_call(registry, base_settings, data_dir):
    """model_calls "own": the model writes its calls (shown no reading); its call that the reading also makes is
    marked so, the reading's sufficiency ends gathering, and the answer is the model's."""
    own = with_overrides(base_settings, {"orchestrator.model_calls": "own"})
    count = yearly_counts(data_dir, [2022])[2022]
    backend = SuggestibleModel([the_reading(registry), f"Chicago had {count:,} homicides in 2022."])
    result = Orchestrator(backend, registry, own).run("How many homicides were there in 2022?")
    assert _passes(backend) == ["gather", "synthesis"] and result.stopped_because == "plan_complete"
    assert "USE_SUGGESTED" not in backend.requests[0].messages[0]["content"]
    assert "Suggested" not in backend.requests[0].messages[-1]["content"]
    assert [c.origin for c in result.calls] == ["reading"] and result.answer.startswith(f"Chicago had {count:,}")


def test_long_key_figures_are_the_answer_with_no_model_pass(registry, settings, raw, data_dir):
    # A set's members, their figures and its total: the model only copied such leads (8-25 s), so the planner's
    # sentences stand.
    socio = pd.read_csv(data_dir / "socioeconomic.csv").dropna(subset=["Community Area Number"])
    top = socio.sort_values("HARDSHIP INDEX", ascending=False, kind="stable")["Community Area Number"].astype(int)[:5]
    total = int(raw[(raw.year == 2021) & raw.area.isin(list(top))].shape[0])
    backend = SuggestibleModel([])
    result = Orchestrator(backend, registry, settings).run(
        "the 5 community areas with the highest hardship index: their homicides in 2021 added up")
    assert _passes(backend) == []
    answer = [s for s in result.steps if s.type == "synthesis"]
    assert answer[-1].planner_answer and answer[-1].finish_reason == "key_figures_are_the_answer"
    assert f"Together they had {total} homicides in 2021" in result.answer


def test_an_answer_with_fewer_figures_than_its_key_lines_gives_way(registry, settings, raw):
    # The 0.5B model kept Austin's domestic count and dropped its share (4.6%), which the question asked for.
    year = raw[raw.year == 2020]
    domestic = int(year.domestic.sum())
    share = round(domestic / len(year) * 100, 1)
    backend = SuggestibleModel([f"There were {domestic} domestic homicides in Chicago in 2020."])
    result = Orchestrator(backend, registry, settings).run("What share of homicides in 2020 were domestic?")
    grounding = [s for s in result.steps if s.type == "grounding"]
    assert grounding[0].missing_lead_figures  # the share, left out
    assert any(getattr(s, "planner_answer", False) for s in result.steps)
    assert f"{share}%" in result.answer and _passes(backend) == ["synthesis"]


def test_an_answer_that_drops_what_could_not_be_given_gives_way(registry, settings, data_dir):
    # "the poverty rate in Austin in 2022": the planner says a 2022 figure is not available (one 2008-2012
    # snapshot); the model wrote "The poverty rate in Austin in 2022 was 28.6%".
    socio = pd.read_csv(data_dir / "socioeconomic.csv")
    poverty = float(socio.loc[socio["Community Area Number"] == 25, "PERCENT HOUSEHOLDS BELOW POVERTY"].iloc[0])
    backend = SuggestibleModel([f"The poverty rate in Austin in 2022 was {poverty}%."])
    result = Orchestrator(backend, registry, settings).run("what was the poverty rate in austin in 2022?")
    assert any(getattr(s, "planner_answer", False) for s in result.steps)
    assert "not available" in result.answer.split("\n\n")[0] and f"{poverty}%" in result.answer


def test_an_answer_that_drops_a_tied_place_or_the_area_gives_way_to_the_planners(registry, settings, raw):
    by_ward = raw[raw.year == 2019].ward.dropna().astype(int).value_counts().reindex(range(1, 51), fill_value=0)
    fewest = sorted(int(w) for w in by_ward[by_ward == by_ward.min()].index)
    assert len(fewest) >= 2  # the premise: a tie
    backend = SuggestibleModel([f"The ward with the fewest homicides in 2019 was Ward {fewest[0]}, with "
                                f"{int(by_ward.min())}."])
    result = Orchestrator(backend, registry, settings).run("Which ward had the fewest murders in 2019?")
    grounding = [s for s in result.steps if s.type == "grounding"]
    assert f"ward {fewest[1]}" in grounding[0].missing_lead_figures
    assert any(getattr(s, "planner_answer", False) for s in result.steps)
    assert all(f"ward {w}" in result.answer.lower() for w in fewest)


def test_when_every_call_fails_the_planners_answer_names_why_with_no_model_pass(registry, settings):
    backend = SuggestibleModel(["The data tool returned no data."])
    result = Orchestrator(backend, registry, settings).run("what's the zillow home value for 60707 in march 2024?")
    assert _passes(backend) == []
    assert "60707" in result.answer and [s.finish_reason for s in result.steps if s.type == "synthesis"] == [
        "no_results"]


def test_the_places_a_key_line_names_are_held_to_the_answer():
    line = "The community area with the highest share is Gage Park (63), with 92.3%; wards 47 and 48 tie; 60614."
    assert places_named(line) == ["Gage Park", "ward 47", "60614"]
    assert places_named("were ward 47 and ward 48") == ["ward 47", "ward 48"]
    assert _names("Wards 47 and 48 had none.", "ward 48") and not _names("Ward 47 had none; 48 people", "ward 48")
    assert not _names("The most Hispanic area had 92.3%.", "Gage Park")
    # an IHS submarket: its name after "Chicago--" ("Chicago had the largest change" lost it, blind32)
    line = "The IHS submarket with the highest price change is Chicago--South Lawndale/Brighton Park, with 11.0%."
    assert places_named(line) == ["South Lawndale/Brighton Park"]
    assert not _names("In the IHS 2025 Q4 summary, Chicago had the largest change, 11.0%.", places_named(line)[0])


def test_a_question_read_only_by_the_layers_declarations_is_not_declined_with_a_model(registry, settings, data_dir):
    # "people" is no analyzer subject, but the layer's population measure reads it (and a threshold is named):
    # with a model the question was declined as naming nothing the data has, where the planner answered it.
    backend = SuggestibleModel([])
    result = Orchestrator(backend, registry, settings).run("how many community areas have more than 90,000 people?")
    assert result.stopped_because != "no_data_needed" and result.calls
    acs = pd.read_csv(data_dir / "census_acs.csv")
    near_north = int(acs.loc[acs.community_area == "NEAR NORTH SIDE", "total_population"].iloc[0])
    assert f"Near North Side (8) had {near_north:,} residents" in result.answer  # the ACS 2019-2023 estimate


def test_a_split_asked_as_how_many_keeps_its_total_and_a_per_day_answer_gives_way(registry, settings, raw):
    # "How many on the weekend" is read as a split by weekday; the answer is the weekend's total. The 1.5B model
    # wrote Sunday's count as the weekend's and the check let it pass.
    year = raw[raw.year == 2022]
    saturday, sunday = int((year.weekday == 6).sum()), int((year.weekday == 7).sum())
    busier = max(saturday, sunday)
    backend = SuggestibleModel([f"During 2022, {busier} homicides occurred on the weekend, with Sunday at {sunday} "
                                f"and Saturday at {saturday}."])
    result = Orchestrator(backend, registry, settings).run(
        "During 2022, how many homicides happened on the weekend, Saturday or Sunday?")
    key = backend.requests[0].messages[-1]["content"]
    assert f"{saturday + sunday:,}" in key  # the total is one of the figures the model is given
    assert any(getattr(s, "planner_answer", False) for s in result.steps)
    assert f"{saturday + sunday:,}" in result.answer.split("\n\nDetails:")[0]


@pytest.mark.parametrize("question, word", [
    ("What's the average commute time for people in Logan Square?", "'commute'"),
    ("What number of the 2021 murders were committed with a gun?", "'gun'"),
    ("how many people were murdered in evanston in 2021", "'evanston'"),
])
def test_a_question_about_what_no_data_holds_is_the_planners_decline_with_no_model_pass(registry, settings,
                                                                                        question, word):
    # The model's rewording lost the user's own word ("commute" became "transit") and took seconds to write.
    backend = SuggestibleModel(["The question asks about something none of the data tools cover."])
    result = Orchestrator(backend, registry, settings).run(question)
    assert backend.requests == [] and not result.calls
    assert word in result.answer.split("\n\n")[0]


def test_an_answer_without_the_records_own_name_gives_way(registry, settings, raw):
    # The data's name for IUCR 0110 is the answer; "first-degree homicides" in the model's words is no figure the
    # number check could hold it to.
    name = raw.loc[raw["IUCR"] == "0110", "Description"].iloc[0]
    backend = SuggestibleModel(["IUCR 0110 represents the number of first-degree homicides in Chicago."])
    result = Orchestrator(backend, registry, settings).run("what does IUCR 0110 mean")
    assert any(getattr(s, "planner_answer", False) for s in result.steps)
    assert name in result.answer.split("\n\n")[0]


def test_a_ranking_question_that_asks_for_the_total_too_is_held_to_it(registry, settings, raw):
    # "Which month was the deadliest ... how does that compare with the district's total?": the 0.5B model gave the
    # top and bottom months and no total, and the check let it pass.
    rows = raw[(raw.year == 2021) & (raw.district == 7)]
    by_month = rows.month.value_counts()
    backend = SuggestibleModel([f"In district 7 in 2021 the deadliest month had {int(by_month.max())} homicides."])
    result = Orchestrator(backend, registry, settings).run(
        "For the Englewood police district (district 7) in 2021, which month was the deadliest and how many "
        "homicides did it have? how does that compare with the district's 2021 total?")
    assert any(getattr(s, "planner_answer", False) for s in result.steps)
    lead = result.answer.split("\n\nDetails:")[0]
    assert f"{int(by_month.max())}" in lead and f"{len(rows)}" in lead


def test_a_count_does_not_stand_in_for_a_rate_it_happens_to_round_to(registry, settings, raw, data_dir):
    # Austin has about 100,000 residents, so its rates (70.8, 48.9) round to its counts (71, 49): the 1.5B model's
    # answer gave the counts only and had passed for the rate the question asks for.
    counts = {y: int(((raw.year == y) & (raw.area == 25)).sum()) for y in (2021, 2022)}
    acs = pd.read_csv(data_dir / "census_acs.csv")
    population = float(acs.loc[acs["community_area"].str.upper() == "AUSTIN", "total_population"].iloc[0])
    rate = counts[2022] / population * 100000
    backend = SuggestibleModel([f"The biggest drop was in Austin (25), from {counts[2021]} in 2021 to {counts[2022]} "
                                "in 2022."])
    result = Orchestrator(backend, registry, settings).run(
        "Biggest drop in homicides from 2021 to 2022 — which neighborhood, how big was the drop, and what was its "
        "2022 rate?")
    assert any(getattr(s, "planner_answer", False) for s in result.steps)
    assert f"{rate:.1f} homicides per 100,000 residents a year in 2022" in result.answer.split("\n\nDetails:")[0]
