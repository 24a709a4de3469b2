"""Misses of the eighth blind set (written by a helper who read no analyzer or planner code), each read the general
way, end to end with the rules backend, and checked against plain pandas on the raw files: a run of days ("christmas
eve thru new years eve", "from December 24 to December 31"), the same day of each year named, "the best arrest
rate", a ranking's leader set aside ("Gage Park aside", "after the street"), a misspelled name with its 's, a "jump"
asked in percent, a subject the data lacks named in the decline, and the 2010 Census count asked for first."""
import pandas as pd
import pytest

from evals import expected as E
from intelligent_mcp import Orchestrator
from tests.loop_helpers import SuggestibleModel
from tests.planner_helpers import lead
from tests.loop_helpers import OWN_PASSES
from settings.loader import with_overrides


@pytest.fixture(scope="module")
def settings(settings):
    """This module tests the model's own gathering passes (model_calls "own")."""
    return with_overrides(settings, OWN_PASSES)


def _between(raw, start, end):
    return raw[(raw.day >= start) & (raw.day <= end)]


@pytest.mark.parametrize("question", [
    "how many homicides over the 2020 holidays, christmas eve thru new years eve?",
    "homicides in 2020 from December 24 to December 31",
    "homicides from December 24 to 31, 2020",
])
def test_a_run_of_days_in_the_one_year_named_is_one_span(ask, raw, question):
    rows = _between(raw, "2020-12-24", "2020-12-31")
    run = ask(question)
    assert lead(run).startswith(f"There were {len(rows):,} homicides in Chicago from 2020-12-24 to 2020-12-31")
    assert not run.reading.not_used


def test_a_run_of_days_past_new_year_ends_the_next_year(ask, raw):
    rows = _between(raw, "2020-12-24", "2021-01-01")
    run = ask("homicides from dec 24 2020 to jan 1 2021")
    assert lead(run).startswith(f"There were {len(rows):,} homicides in Chicago from 2020-12-24 to 2021-01-01")


def test_a_run_of_days_with_a_range_of_years_is_those_days_of_every_year(ask, raw):
    days = ((raw.month == 12) & (raw.dom >= 24)) | ((raw.month == 1) & (raw.dom == 1))
    rows = raw[days & raw.year.between(2010, 2023)]
    run = ask("how many homicides from christmas eve to new year's day, every year since 2010, in total?")
    assert lead(run).startswith(f"There were {len(rows):,} homicides in Chicago from 2010 to 2023, from December 24 "
                                "to January 1")


def test_the_same_day_of_each_year_named_after_it(ask, raw):
    a = len(raw[raw.day == "2020-07-04"])
    b = len(raw[raw.day == "2021-07-04"])
    run = ask("homicides on the 4th of july 2020 vs 2021")
    assert lead(run).startswith(f"In Chicago, there were {a} homicides on July 4, 2020; {b} on July 4, 2021. The "
                                f"change from July 4, 2020 to July 4, 2021 was {b - a:+,}")


def test_the_best_arrest_rate_is_the_highest_among_districts_over_the_floor(ask, raw):
    y = raw[raw.year == 2022].groupby("district").agg(n=("arrested", "size"), arrests=("arrested", "sum"))
    y = y[y.n >= 30]
    y["rate"] = 100 * y.arrests / y.n
    best = y.sort_values("rate", ascending=False).iloc[0]
    run = ask("Among police districts with at least 30 homicides in 2022, which one had the best arrest rate?")
    text = lead(run)
    assert text.startswith("Among police districts with at least 30 homicides, District "
                           f"{int(best.name)} ") and "had the highest homicide arrest rate in 2022" in text
    assert f"an arrest was made in {best.rate:.1f}% of its {int(best.n)} homicides" in text
    assert not run.reading.not_used


def test_the_worst_arrest_rate_of_the_wards_leads_with_the_rate(ask, raw):
    y = raw[raw.year == 2021].groupby("ward").agg(n=("arrested", "size"), arrests=("arrested", "sum"))
    y = y[y.n >= 5]
    y["rate"] = 100 * y.arrests / y.n
    worst = y.sort_values("rate").iloc[0]
    text = lead(ask("which ward had the worst arrest rate in 2021"))
    assert text.startswith(f"Among wards with at least 5 homicides, Ward {int(worst.name)} had the lowest homicide "
                           f"arrest rate in 2021: an arrest was made in {worst.rate:.1f}% of its {int(worst.n)} "
                           "homicides.")


def test_an_area_set_aside_gives_the_next_in_the_ranking_with_its_rank(ask):
    second, share = E.acs_share_area_ranked("hispanic_or_latino", 2), E.acs_share_ranked_value("hispanic_or_latino", 2)
    run = ask("Gage Park aside, which community area has the highest percentage of Latino residents?")
    text = lead(run)
    assert text.startswith(f"Leaving out Gage Park (63), the community area with the second-highest share of "
                           f"Hispanic or Latino residents is {second} (")
    assert "first was" not in text.split(". ")[0]  # the first was the area set aside
    assert f"{share:.1f}%" in text and not run.reading.not_used


def test_an_area_set_aside_in_an_income_ranking(ask, data_dir):
    socio = pd.read_csv(data_dir / "socioeconomic.csv")
    socio = socio[socio["Community Area Number"].notna()].sort_values("PER CAPITA INCOME ")
    first, second = socio.iloc[0], socio.iloc[1]
    assert first["COMMUNITY AREA NAME"] == "Riverdale"
    text = lead(ask("riverdale aside, which area has the lowest per capita income"))
    assert text.startswith(f"Leaving out Riverdale (54), the community area with the second-lowest per capita income "
                           f"is {second['COMMUNITY AREA NAME']} ({int(second['Community Area Number'])}): income per "
                           f"capita ${int(second['PER CAPITA INCOME ']):,}")


def test_a_kind_of_place_after_the_leader_is_the_second_kind(ask, raw):
    kinds = raw[raw.year == 2016].place.value_counts()
    assert kinds.index[0] == "STREET"
    run = ask("after the street, what kind of place saw the most murders in 2016?")
    assert f"was {kinds.index[1]}: {int(kinds.iloc[1])} (" in lead(run)


def test_a_misspelled_area_with_its_possessive_is_read(ask):
    run = ask("is chatam's hardship index higher or lower than auburn gresam's")
    assert [a.number for a in run.analysis.areas] == [44, 71] or {a.number for a in run.analysis.areas} == {44, 71}
    assert not run.reading.not_used


def test_a_jump_asked_in_percent_leads_with_the_change(ask, raw):
    a, b = int((raw.year == 2015).sum()), int((raw.year == 2016).sum())
    run = ask("My uncle says the 90s were way worse, whatever. How big was the jump in homicides from 2015 to 2016, "
              "in percent?")
    assert lead(run).startswith(f"From 2015 to 2016, homicides in Chicago changed by {b - a:+,} "
                                f"({(b - a) / a * 100:+.1f}%).")


@pytest.mark.parametrize("question, subject", [
    ("what's the life expectancy in englewood", "life expectancy"),
    ("How many hate crimes were reported in Chicago in 2021?", "hate crimes"),
])
def test_a_subject_the_data_lacks_is_declined_by_name_with_no_stand_in(ask, question, subject):
    run = ask(question)
    assert run.answer.startswith(f"The data behind ChiQA does not include {subject}, so I cannot answer that")
    assert not run.calls


def test_a_general_question_about_a_place_still_gets_its_overview(ask):
    run = ask("what's the situation in austin")
    assert run.calls and "Austin" in lead(run)


def test_the_2010_census_count_leads_when_2010_is_asked(ask, data_dir):
    pop = pd.read_csv(data_dir / "census_population_2010.csv")
    total = int(pop["POP2010"].sum())
    assert lead(ask("what was chicago's population in the 2010 census")).startswith(
        f"Chicago had {total:,} residents in the 2010 Census; the ACS 2019-2023 5-year estimate is ")
    area = int(pop.loc[pop["NID"] == 41, "POP2010"].iloc[0])
    assert lead(ask("population of hyde park in 2010")).startswith(f"Hyde Park had {area:,} residents in the 2010 "
                                                                   "Census")


def test_words_the_reading_could_not_use_are_said_in_the_lead(ask, raw):
    run = ask("how many homicides happened on paydays in 2020")
    assert run.reading.not_used == ["on paydays"]
    assert lead(run) == (f"There were {int((raw.year == 2020).sum()):,} homicides in Chicago in 2020; the arrest rate "
                         f"was {100 * raw[raw.year == 2020].arrested.mean():.1f}%. I could not use 'on paydays' "
                         "from the question, so the figures do not take it into account.")
    assert "Notes:" not in run.answer


@pytest.mark.parametrize("question, year, hours, words", [
    ("homicides during rush hour in 2018", 2018, [7, 8, 16, 17, 18],
     "between 07:00 and 08:59 or between 16:00 and 18:59"),
    ("how many people were killed at the crack of dawn in 2022", 2022, [5, 6], "between 05:00 and 06:59"),
])
def test_vague_hours_get_one_stated_definition(ask, raw, question, year, hours, words):
    rows = raw[(raw.year == year) & raw.hour.isin(hours)]
    run = ask(question)
    assert lead(run).startswith(f"There were {len(rows):,} homicides in Chicago in {year}, {words}")
    assert "read as" in run.reading.line and not run.reading.not_used


@pytest.mark.parametrize("question, check", [
    # A month range written with "thru" is every month in it (it had been June and August only).
    ("homicides in 2021 from june thru august", lambda a: a.months == [6, 7, 8]),
    ("how many non-domestic killings in 2018 ended without anybody getting arrested",
     lambda a: a.arrest_filter == "not_arrested" and a.domestic_excluded),
    ("What was a typical home in 60622 worth on Zillow in March 2020, right when covid hit?",
     lambda a: a.months == [3] and a.years == [2020]),
    ("Chicago homicides in 2016 minus Austin and North Lawndale - what's left?",
     lambda a: [x.number for x in a.excluded_areas] == [25, 29]),
    ("Across every year you've got, how many homicides fell on New Year's Day?", lambda a: a.month_days == ["01-01"]),
    ("When a murder was domestic, how often did police make an arrest? Looking at 2010 through 2019.",
     lambda a: a.domestic_filter),
    ("how much have prices in the englewood/greater grand crossing submarket bounced back from the bottom, per the "
     "IHS index?", lambda a: True),
])
def test_words_that_only_frame_the_question_are_not_reported_unused(ask, question, check):
    # Each of these words was said to be unused, and the note now stands beside the figure: a false one would tell
    # the reader a right figure ignored part of the question.
    run = ask(question)
    assert run.reading.not_used == [] and check(run.analysis)


@pytest.mark.parametrize("question, named", [
    ("How many hate crimes were reported in Chicago in 2021?", "hate crimes"),
    ("what is the average commute in logan square", "'commute'"),
])
def test_a_model_gets_no_call_for_a_subject_the_data_lacks(registry, settings, question, named):
    # Measured at 611319e (before the subject was read): with no draft, the 1.5B model wrote its own homicide call
    # and answered "There were 804 homicides in Chicago in 2021" to the hate-crimes question, silently wrong.
    backend = SuggestibleModel(['TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"year": 2021}}',
                                "The data cannot answer this question."])
    run = Orchestrator(backend, registry, settings).run(question)
    assert run.calls == [] and named in run.answer.split("\n\n")[0] and "804" not in run.answer
