"""Negations, exclusions, places outside Chicago and names shared by two areas, read and answered end to end.

Each question goes through the real path (analyze_question -> rule planner -> tools -> templated answer); every
expected figure comes from plain pandas on the raw homicides.csv, never from the tools' code. For each kind of
question: the reading, the planner's calls, the answer's lead figure, and nothing listed as not used.
"""
import pandas as pd
import pytest

from analyzer import followup
from analyzer.analysis import Analysis
from analyzer.question import analyze_question
from loop.argument_constraints import argument_values, unanswerable_subjects
from tests.answer_text import lead_count

HOMICIDES = "query_homicides_advanced"


@pytest.fixture(scope="module")
def raw(data_dir):
    df = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    df["year"] = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.year
    df["arrest"] = df["Arrest"].str.lower() == "true"
    df["domestic"] = df["Domestic"].str.lower() == "true"
    for column, name in (("Ward", "ward"), ("District", "district"), ("Community Area", "area")):
        df[name] = pd.to_numeric(df[column], errors="coerce")
    df["place"] = df["Location Description"]
    return df


def _count_calls(run) -> list[dict]:
    return [c.arguments for c in run.calls if c.name == HOMICIDES]


def _read_whole(run) -> None:
    assert run.analysis.not_used == [] and not run.partial, run.reading.line
    assert run.ungrounded_numbers == []


# ---------------------------------------------------------------- homicide filters

@pytest.mark.parametrize("question, year", [
    ("How many non-domestic homicides were there in 2022?", 2022),
    ("homicides in 2019 that weren't domestic", 2019),
    ("How many killings in 2021 were not domestic-related?", 2021),
    ("murders in 2020, excluding domestic cases", 2020),
    ("nondomestic murders 2018", 2018),
])
def test_not_domestic_counts_the_non_domestic_homicides(ask, raw, question, year):
    run = ask(question)
    assert run.analysis.domestic_excluded and not run.analysis.domestic_filter
    assert "not domestic" in run.reading.line
    assert [(a["domestic"], a["start_year"], a.get("group_by")) for a in _count_calls(run)] == [(False, year, None)]
    expected = len(raw[(raw.year == year) & ~raw.domestic])
    assert lead_count(run.answer) == expected
    _read_whole(run)


def test_domestic_alone_and_the_split_stay_as_they_were(ask, raw):
    run = ask("How many domestic homicides were there in 2018?")
    assert [a["domestic"] for a in _count_calls(run)] == [True]
    assert lead_count(run.answer) == len(raw[(raw.year == 2018) & raw.domestic])
    run = ask("domestic vs non-domestic homicides in 2020")
    assert [(a.get("domestic"), a["group_by"]) for a in _count_calls(run)] == [(None, "domestic")]
    _read_whole(run)


@pytest.mark.parametrize("question, year", [
    ("How many homicides in 2021 had no arrest?", 2021),
    ("homicides without an arrest in 2020", 2020),
    ("how many murders in 2019 where nobody was arrested", 2019),
    ("How many unsolved homicides were there in 2022?", 2022),
    ("how many 2018 killings are still open", 2018),
    ("murders in 2017 that were never solved", 2017),
])
def test_no_arrest_counts_the_homicides_without_one(ask, raw, question, year):
    run = ask(question)
    assert run.analysis.arrest_filter == "not_arrested" and "no arrest" in run.reading.line
    assert [(a["arrest_status"], a["start_year"], a.get("group_by")) for a in _count_calls(run)] == \
        [("not_arrested", year, None)]
    expected = len(raw[(raw.year == year) & ~raw.arrest])
    assert lead_count(run.answer) == expected
    _read_whole(run)


@pytest.mark.parametrize("question, year, place", [
    ("homicides with arrests on streets in 2021", 2021, "STREET"),
    ("How many homicides led to an arrest in 2020?", 2020, None),
    ("how many murders were solved in 2016", 2016, None),
    ("number of cleared homicides in 2022 in apartments", 2022, "APARTMENT"),
])
def test_with_an_arrest_is_a_filter_when_counting(ask, raw, question, year, place):
    run = ask(question)
    assert run.analysis.arrest_filter == "arrested" and "arrest made" in run.reading.line
    calls = _count_calls(run)
    assert [(a["arrest_status"], a.get("location_type"), a.get("group_by")) for a in calls] == \
        [("arrested", place, None)]
    rows = raw[(raw.year == year) & raw.arrest]
    expected = len(rows[rows.place == place]) if place else len(rows)
    assert lead_count(run.answer) == expected
    _read_whole(run)


@pytest.mark.parametrize("question, year", [
    ("What share of 2021 homicides led to an arrest?", 2021),
    ("what percentage of murders in 2020 went unsolved", 2020),
    ("how often did homicides in 2019 end without an arrest?", 2019),
])
def test_an_arrest_share_or_rate_keeps_the_breakdown(ask, raw, question, year):
    run = ask(question)
    assert run.analysis.arrest_filter is None
    assert [(a["arrest_status"], a["group_by"]) for a in _count_calls(run)] == [("any", "arrest")]
    rows = raw[raw.year == year]
    assert f"arrest rate {100 * rows.arrest.sum() / len(rows):.1f}%" in run.answer
    _read_whole(run)


def test_unsolved_ranks_by_the_unsolved_count(ask, raw):
    run = ask("Which community area had the most unsolved homicides in 2022?")
    assert [(a["arrest_status"], a["group_by"]) for a in _count_calls(run)] == [("not_arrested", "community_area")]
    top = raw[(raw.year == 2022) & ~raw.arrest].area.value_counts()
    assert f": {top.iloc[0]} (" in run.answer.split("\n")[0]
    _read_whole(run)


@pytest.mark.parametrize("question, year, left_out", [
    ("How many homicides in 2020 were not on the street?", 2020, ["STREET"]),
    ("homicides off the street in 2021", 2021, ["STREET"]),
    ("how many murders in 2022 weren't in an alley", 2022, ["ALLEY"]),
    ("homicides in 2019 excluding streets and alleys", 2019, ["STREET", "ALLEY"]),
])
def test_not_on_the_street_leaves_the_place_type_out(ask, raw, question, year, left_out):
    run = ask(question)
    assert run.analysis.excluded_locations == left_out and run.analysis.locations == []
    assert all(f"not at {p.lower()}" in run.reading.line for p in left_out)
    assert [(a["exclude_location_types"], a.get("location_type"), a.get("group_by")) for a in _count_calls(run)] == \
        [(left_out, None, None)]
    expected = len(raw[(raw.year == year) & ~raw.place.isin(left_out)])
    assert lead_count(run.answer) == expected
    _read_whole(run)


# ---------------------------------------------------------------- places left out

@pytest.mark.parametrize("question, year, kind, numbers", [
    ("How many homicides were there in 2022 excluding ward 3?", 2022, "ward", [3]),
    ("homicides in 2021 except in wards 27 and 28", 2021, "ward", [27, 28]),
    ("How many homicides were in wards other than 1-10 in 2022?", 2022, "ward", list(range(1, 11))),
    ("homicides in 2020 except district 11", 2020, "district", [11]),
    ("murders in police districts other than 11 and 15 in 2019", 2019, "district", [11, 15]),
    ("homicides outside Austin in 2021", 2021, "area", [25]),
    ("not counting Englewood, how many murders were there in 2021?", 2021, "area", [68]),
    ("homicides in 2019 besides the Loop", 2019, "area", [32]),
    ("how many homicides in 2020 excluding Austin and Englewood", 2020, "area", [25, 68]),
])
def test_a_place_left_out_is_counted_city_wide_without_it(ask, raw, question, year, kind, numbers):
    run = ask(question)
    a = run.analysis
    left_out = {"ward": a.excluded_wards, "district": a.excluded_districts,
                "area": [p.number for p in a.excluded_areas]}[kind]
    assert left_out == numbers
    assert not (a.areas or a.wards or a.districts), "an excluded place is never the place asked about"
    assert "excluding" in run.reading.line
    key = {"ward": "exclude_wards", "district": "exclude_districts", "area": "exclude_community_areas"}[kind]
    calls = _count_calls(run)
    assert [(c[key], c.get("community_area"), c.get("ward"), c.get("district"), c.get("group_by"))
            for c in calls] == [(numbers, None, None, None, None)]
    column = {"ward": "ward", "district": "district", "area": "area"}[kind]
    expected = len(raw[(raw.year == year) & ~raw[column].isin(numbers)])
    assert lead_count(run.answer) == expected
    _read_whole(run)


@pytest.mark.parametrize("question, area, year", [
    ("Austin versus the rest of the city: homicides in 2022", 25, 2022),
    ("How did Englewood compare with the rest of Chicago for murders in 2021?", 68, 2021),
    ("homicides in West Garfield Park and in the rest of the city, 2020", 26, 2020),
])
def test_the_rest_of_the_city_is_the_city_without_the_place(ask, raw, question, area, year):
    run = ask(question)
    assert run.analysis.rest_of_city and "the rest of the city" in run.reading.line
    calls = _count_calls(run)
    assert [(c.get("community_area"), c.get("exclude_community_areas")) for c in calls] == \
        [(area, None), (None, [area])]
    rows = raw[raw.year == year]
    place, rest = len(rows[rows.area == area]), len(rows[rows.area != area])
    assert lead_count(run.answer) == place and f"{rest:,} homicides" in run.answer
    _read_whole(run)


def test_a_place_left_out_of_a_measure_only_homicides_can_leave_out_is_said(ask):
    run = ask("What is the per capita income outside Austin?")
    assert run.analysis.areas == [] and run.analysis.excluded_areas == []
    assert run.analysis.not_used == ["outside austin"] and run.partial
    assert "I could not use 'outside austin'" in run.answer


# ---------------------------------------------------------------- places outside Chicago

@pytest.mark.parametrize("question, place", [
    ("How many homicides were there in Austin, Texas in 2020?", "Austin, Texas"),
    ("murders in Austin TX last year", "Austin TX"),
    ("How many homicides in Gary, Indiana?", "Gary, Indiana"),
    ("What's the poverty rate in Evanston?", "Evanston"),
    ("homicides in Oak Park in 2021", "Oak Park"),
    ("How many murders in Cicero?", "Cicero"),
    ("homicides in the suburbs in 2020", "the suburbs"),
    ("How many homicides in Cook County?", "Cook County"),
    ("How many people live in New York City?", "New York City"),
])
def test_a_place_outside_chicago_is_declined_by_name(ask, question, place):
    run = ask(question)
    a = run.analysis
    assert a.outside_places == [place] and a.outside_only
    assert a.areas == [] and run.calls == [], "never Chicago's figure (nor Chicago's Austin) for that place"
    assert "ChiQA's data covers the City of Chicago only" in run.answer and f"'{place}'" in run.answer
    assert f"outside Chicago (no data): {place}" in run.reading.line
    assert unanswerable_subjects(a) and a.not_used == []


def test_chicago_with_a_place_outside_gives_chicagos_figure_and_names_the_other(ask, raw):
    run = ask("Compare homicides in Chicago and New York in 2021")
    assert run.analysis.outside_places == ["New York"] and not run.analysis.outside_only
    assert [c.arguments.get("community_area") for c in run.calls] == [None]
    assert lead_count(run.answer) == len(raw[raw.year == 2021])
    assert "does not cover 'New York'" in run.answer
    _read_whole(run)


@pytest.mark.parametrize("question, area", [("Englewood, IL homicides in 2022", 68),
                                            ("homicides in Chicago, Illinois in 2022", None),
                                            ("How many homicides in Oakland in 2022?", 36)])
def test_chicagos_own_state_and_area_names_stay_chicago(ask, raw, question, area):
    run = ask(question)
    assert run.analysis.outside_places == [] and run.calls
    rows = raw[raw.year == 2022]
    expected = len(rows[rows.area == area]) if area else len(rows)
    assert [c.arguments.get("community_area") for c in run.calls] == [area]
    assert lead_count(run.answer) == expected
    _read_whole(run)


# ---------------------------------------------------------------- names shared by two community areas

@pytest.mark.parametrize("question, year, areas", [
    ("How many homicides in Garfield Park in 2021?", 2021, [26, 27]),
    ("garfield park murders 2019", 2019, [26, 27]),
    ("homicides in Lawndale in 2020", 2020, [29, 30]),
])
def test_a_name_shared_by_two_areas_is_read_as_both(ask, raw, question, year, areas):
    run = ask(question)
    assert sorted(a.number for a in run.analysis.areas) == areas
    assert sorted(c.get("community_area") for c in _count_calls(run)) == areas
    rows = raw[raw.year == year]
    for number in areas:
        assert f"There were {len(rows[rows.area == number]):,} homicides in " in run.answer
        assert f"(community area {number}) in {year}" in run.answer
    assert "is two community areas" in run.answer and "figures for both are given" in run.answer
    _read_whole(run)


def test_the_shared_name_note_names_both_areas(ask):
    run = ask("What's the poverty rate in Garfield Park?")
    assert "'Garfield Park' is two community areas, East Garfield Park (27) and West Garfield Park (26); figures " \
           "for both are given." in run.answer
    assert [c.arguments.get("compare_areas") for c in run.calls] in ([[26]], [[27]])
    _read_whole(run)


def test_a_full_name_is_not_shared(data):
    a = analyze_question("homicides in North Lawndale and East Garfield Park", data)
    assert [p.number for p in a.areas] == [29, 27]


# ---------------------------------------------------------------- follow-ups and stored analyses

def _converse(data, questions):
    previous = []
    for question in questions:
        previous.append(followup.apply(analyze_question(question, data), question, previous))
    return previous


def test_a_follow_up_carries_the_place_left_out_never_as_included(data):
    t1, t2 = _converse(data, ["How many homicides outside Austin in 2022?", "And in 2021?"])
    assert t2.areas == [] and [p.number for p in t2.excluded_areas] == [25] and t2.years == [2021]


def test_a_follow_up_naming_a_place_outside_chicago_takes_no_earlier_place(data):
    t1, t2 = _converse(data, ["How many homicides in Englewood in 2022?", "What about Evanston?"])
    assert t2.areas == [] and t2.outside_places == ["Evanston"] and t2.outside_only


def test_stored_analysis_keeps_what_was_left_out(data):
    a = analyze_question("unsolved non-domestic homicides in 2021 outside Austin, not on the street", data)
    again = Analysis.from_dict(a.to_dict())
    assert again == a and again.excluded_areas[0].number == 25
    assert (a.arrest_filter, a.domestic_excluded, a.excluded_locations) == ("not_arrested", True, ["STREET"])
    assert a.not_used == []


def test_a_model_may_not_filter_on_a_place_left_out(data):
    values = argument_values(analyze_question("homicides in 2022 outside Austin", data))
    assert values["community_area"] == [] and values["compare_areas"] == []


# ---------------------------------------------------------------- tools that take no filters

def test_a_places_change_with_a_filter_uses_the_filtered_yearly_series(ask, raw):
    run = ask("how have non-domestic homicides changed in Austin since 2015")
    assert {c.name for c in run.calls} == {HOMICIDES}, "the period tool cannot leave domestic cases out"
    (args,) = _count_calls(run)
    assert (args["domestic"], args["group_by"], args["community_area"]) == (False, "year", 25)
    rows = raw[(raw.area == 25) & ~raw.domestic & raw.year.between(2015, args["end_year"])]
    assert lead_count(run.answer) == len(rows)
    _read_whole(run)


@pytest.mark.parametrize("question, unused", [
    ("non-domestic homicide rate per 100k in Austin in 2022", "non-domestic"),
    ("which areas had the biggest increase in non-domestic homicides between 2019 and 2021", "non-domestic"),
    ("homicides per 100,000 residents outside Austin in 2022", "outside austin"),
])
def test_a_filter_a_tool_cannot_apply_is_said_not_used(ask, question, unused):
    run = ask(question)
    assert not run.analysis.domestic_excluded and not run.analysis.excluded_areas
    assert not run.analysis.domestic_filter
    assert any(unused in phrase for phrase in run.analysis.not_used) and run.partial
    assert "I could not use" in run.answer
