"""Time expressions read end to end: analyze_question -> the rule planner's calls -> the tools -> the answer's lead.

Every expected figure is plain pandas on the raw homicides.csv, never the tools' code; every supported phrase must
leave nothing unused (the coverage check, analyzer/coverage.py).
"""
import calendar

import pandas as pd
import pytest

from analyzer.question import analyze_question
from analyzer.reading import read
from loop.grammar import build_tool_grammar
from tests.answer_text import count_phrase, lead_count

HOMICIDES = "query_homicides_advanced"


@pytest.fixture(scope="module")
def raw(data_dir):
    df = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    df["when"] = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p")
    df["year"] = df["when"].dt.year
    df["hour"] = df["when"].dt.hour
    df["day"] = df["when"].dt.normalize()
    df["area"] = pd.to_numeric(df["Community Area"], errors="coerce")
    return df


def _between(raw, first: str, last: str):
    return raw[(raw.day >= pd.Timestamp(first)) & (raw.day <= pd.Timestamp(last))]


def _month_end(month: str) -> str:
    return str((pd.Timestamp(month + "-01") + pd.offsets.MonthEnd(0)).date())


def _only_homicide_calls(run) -> list[dict]:
    assert [c.name for c in run.calls] == [HOMICIDES] * len(run.calls)
    return [c.arguments for c in run.calls]


# ---------------------------------------------------------------- 1. separate years

@pytest.mark.parametrize("question, years", [
    ("How many homicides were there in 2016, 2019 and 2022?", [2016, 2019, 2022]),
    ("murders in 2015, 2017, 2021", [2015, 2017, 2021]),
    ("How many people were killed in 2012, 2016, and 2020?", [2012, 2016, 2020]),
    ("homicide totals for 2003 & 2008 & 2013 please", [2003, 2008, 2013]),
])
def test_a_list_of_years_is_those_years_not_their_range(ask, raw, question, years):
    run = ask(question)
    assert run.analysis.year_list == years and run.analysis.not_used == []
    assert run.reading.periods == [", ".join(map(str, years)) + " (separate years)"]
    (args,) = _only_homicide_calls(run)
    assert args["years"] == years and args["group_by"] == "year" and "start_year" not in args
    counts = [len(raw[raw.year == y]) for y in years]
    rows = f"There were {counts[0]:,} homicides in Chicago in {years[0]}" + \
        "".join(f"; {n:,} in {y}" for y, n in zip(years[1:], counts[1:]))
    assert run.answer.startswith(f"{rows} ({sum(counts):,} in all).")


@pytest.mark.parametrize("question, start, end", [
    ("How many homicides between 2015 and 2019?", 2015, 2019),
    ("homicides 2015-2019", 2015, 2019),
    ("How many homicides in 2016 vs 2017?", 2016, 2017),
])
def test_ranges_and_two_years_stay_as_they_were(ask, question, start, end):
    run = ask(question)
    assert run.analysis.year_list == []
    (args,) = _only_homicide_calls(run)
    assert (args["start_year"], args["end_year"]) == (start, end) and "years" not in args


# ---------------------------------------------------------------- 2. month spans

@pytest.mark.parametrize("question, start, end", [
    ("How many homicides in December 2019 and January 2020?", "2019-12", "2020-01"),
    ("How many killings from Nov 2021 through Feb 2022?", "2021-11", "2022-02"),
    ("homicides between October 2020 and March 2021", "2020-10", "2021-03"),
    ("murders from December through February 2018", "2017-12", "2018-02"),
])
def test_a_span_of_months_across_years(ask, raw, question, start, end):
    run = ask(question)
    assert run.analysis.not_used == [] and run.reading.periods == [f"{start} to {end}"]
    (args,) = _only_homicide_calls(run)
    assert (args["start_date"], args["end_date"]) == (start, end)
    assert not {"year", "start_year", "end_year", "months", "group_by"} & set(args)
    first, last = start + "-01", _month_end(end)
    assert run.answer.startswith(f"{count_phrase(len(_between(raw, first, last)))} in Chicago from {first} to {last}")


def test_two_separate_months_of_two_years_are_counted_each(ask, raw):
    run = ask("How many homicides in June 2019 and June 2020?")
    assert [(a["start_date"], a["end_date"]) for a in _only_homicide_calls(run)] == \
        [("2019-06", "2019-06"), ("2020-06", "2020-06")]
    n19, n20 = (len(_between(raw, f"{y}-06-01", f"{y}-06-30")) for y in (2019, 2020))
    assert run.answer.startswith(f"In Chicago, there were {n19:,} homicides in June 2019; {n20:,} in June 2020. The change "
                                 f"from June 2019 to June 2020 was {n20 - n19:+,} ({(n20 - n19) / n19 * 100:+.1f}%).")


@pytest.mark.parametrize("question, year, months", [
    ("How many homicides in June 2021?", 2021, [6]),
    ("homicides from Jan through June 2021", 2021, [1, 2, 3, 4, 5, 6]),
    ("how many killings in july of 2020", 2020, [7]),
])
def test_months_of_one_year_stay_a_month_filter(ask, raw, question, year, months):
    run = ask(question)
    (args,) = _only_homicide_calls(run)
    assert args["months"] == months and (args["start_year"], args["end_year"]) == (year, year)
    expected = len(raw[(raw.year == year) & raw["when"].dt.month.isin(months)])
    assert lead_count(run.answer) == expected and run.analysis.not_used == []
    assert f" in Chicago in {calendar.month_name[months[0]]}" in run.answer.split(";")[0]


def test_since_a_month_runs_to_the_data_end(ask, raw, data):
    end = data.coverage["homicides"]["end"]
    run = ask("How many homicides since March 2020?")
    (args,) = _only_homicide_calls(run)
    assert (args["start_date"], args["end_date"]) == ("2020-03", end)
    assert run.answer.startswith(f"{count_phrase(len(_between(raw, '2020-03-01', end)))} in Chicago from "
                                 f"2020-03-01 to {end}")


# ---------------------------------------------------------------- 3. hours of the day

NIGHT = [21, 22, 23, 0, 1, 2, 3, 4]


@pytest.mark.parametrize("question, year, hours, label", [
    ("How many homicides happened between 9pm and 5am in 2022?", 2022, NIGHT, "21:00-04:59"),
    ("homicides from 10 pm to 2 am in 2021", 2021, [22, 23, 0, 1], "22:00-01:59"),
    ("how many murders between 9 and 5am in 2018", 2018, NIGHT, "21:00-04:59"),
    ("how many homicides after midnight in 2020", 2020, [0, 1, 2, 3, 4], "after midnight (read as 00:00-04:59)"),
    ("how many murders at night in 2019", 2019, NIGHT, "at night (read as 21:00-04:59)"),
    ("How many homicides overnight in 2022?", 2022, [0, 1, 2, 3, 4, 5], "overnight (read as 00:00-05:59)"),
    ("homicides in the morning in 2022", 2022, list(range(5, 12)), "in the morning (read as 05:00-11:59)"),
    ("killings in the afternoon in 2017", 2017, list(range(12, 17)), "in the afternoon (read as 12:00-16:59)"),
    ("homicides during the day in 2022", 2022, list(range(6, 18)), "during the day (read as 06:00-17:59)"),
    ("how many homicides at 3am in 2022", 2022, [3], "03:00-03:59"),
    ("murders after 10pm in 2016", 2016, [22, 23], "22:00-23:59"),
])
def test_hours_of_the_day(ask, raw, question, year, hours, label):
    run = ask(question)
    assert run.analysis.not_used == [] and run.reading.periods == [str(year), label]
    (args,) = _only_homicide_calls(run)
    assert args["hours"] == hours and "group_by" not in args
    expected = len(raw[(raw.year == year) & raw.hour.isin(hours)])
    assert run.answer.startswith(f"{count_phrase(expected)} in Chicago in {year}, between")


def test_night_against_day_is_two_counts(ask, raw):
    run = ask("Were there more homicides at night or during the day in 2022?")
    assert [a["hours"] for a in _only_homicide_calls(run)] == [NIGHT, list(range(6, 18))]
    night, day = (len(raw[(raw.year == 2022) & raw.hour.isin(h)]) for h in (NIGHT, range(6, 18)))
    assert run.answer.startswith(f"In Chicago in 2022, there were {night:,} homicides at night (read as 21:00-04:59); "
                                 f"{day:,} during the day (read as 06:00-17:59).")


def test_an_eight_hour_list_is_writable_by_a_model(registry):
    schema = next(s for s in registry.schemas() if s["name"] == HOMICIDES)
    rules = dict(line.split(" ::= ", 1) for line in build_tool_grammar([schema], 1, allow_no_call=False).splitlines()
                 if " ::= " in line)
    pair = next(body for body in rules.values() if body.startswith('"\\"hours\\": "'))
    value = rules[pair.split()[-1]]  # the array rule: "[" (item (", " item){0,n-1})? "]"
    assert "{0,23}" in value


# ---------------------------------------------------------------- 4. so far this year vs the same stretch

@pytest.mark.parametrize("question, other", [
    ("How many homicides so far this year compared to the same stretch last year?", None),
    ("homicides year to date vs this time last year", None),
    ("How do murders so far this year compare with the same period a year ago?", None),
    ("ytd homicides compared with the same period of 2021", 2021),
])
def test_so_far_this_year_against_the_same_stretch(ask, raw, data, question, other):
    end = data.coverage["homicides"]["end"]
    this = int(end[:4])
    other = other or this - 1
    run = ask(question)
    assert run.analysis.not_used == []
    assert run.reading.periods == [f"so far in {this} vs the same stretch of {other}"]
    other_end = f"{other}{end[4:]}"
    assert [(a["start_date"], a["end_date"]) for a in _only_homicide_calls(run)] == \
        [(f"{this}-01-01", end), (f"{other}-01-01", other_end)]
    now, before = len(_between(raw, f"{this}-01-01", end)), len(_between(raw, f"{other}-01-01", other_end))
    assert run.answer.startswith(
        f"In Chicago, there were {now:,} homicides so far in {this}; {before:,} in the same stretch of {other}. The change "
        f"from the same stretch of {other} to so far in {this} was {now - before:+,} ({(now - before) / before * 100:+.1f}%).")


def test_so_far_this_year_alone_is_the_partial_year(ask, raw, data):
    run = ask("How many homicides so far this year?")
    last = data.coverage["homicides"]["last_year"]
    assert run.analysis.date_spans == []
    assert run.answer.startswith(f"{count_phrase(len(raw[raw.year == last]))} in Chicago in {last}")


# ---------------------------------------------------------------- 5. years in words or abbreviated

@pytest.mark.parametrize("question, year", [
    ("How many homicides were there in twenty twenty-one?", 2021),
    ("homicides in two thousand nineteen", 2019),
    ("murders in two thousand and five", 2005),
    ("how many murders back in '19", 2019),
    ("how many homicides in 21?", 2021),
    ("homicides in twenty sixteen in Austin", 2016),
])
def test_years_in_words_or_abbreviated(ask, raw, question, year):
    run = ask(question)
    assert run.analysis.years == [year] and run.analysis.not_used == []
    subset = raw[raw.year == year]
    if run.analysis.areas:
        subset = subset[subset.area == run.analysis.areas[0].number]
    assert lead_count(run.answer) == len(subset) and f" in {year}" in run.answer.split(";")[0]


@pytest.mark.parametrize("question", ["homicides in 21 community areas in 2020", "homicides in ward 21 in 2020",
                                      "How many homicides in the top twenty one areas in 2020?"])
def test_a_two_digit_number_that_is_no_year(data, question):
    assert analyze_question(question, data).years == [2020]


# ---------------------------------------------------------------- 6. averages and percent changes

@pytest.mark.parametrize("question, start, end", [
    ("How many homicides on average per year between 2015 and 2019?", 2015, 2019),
    ("average yearly homicides 2019-2022", 2019, 2022),
    ("What was the average annual number of murders from 2010 to 2014?", 2010, 2014),
])
def test_an_average_per_year_leads(ask, raw, question, start, end):
    run = ask(question)
    assert run.analysis.asks_average and run.analysis.not_used == []
    total = len(raw[raw.year.between(start, end)])
    assert run.answer.startswith(f"There was an average of {total / (end - start + 1):,.1f} homicides a year in "
                                 f"Chicago ({start}-{end}: {total:,} in all).")


@pytest.mark.parametrize("question, start, end", [
    ("What was the percent change in homicides from 2019 to 2021?", 2019, 2021),
    ("percent change in murders between 2015 and 2021", 2015, 2021),
    ("By what percentage did homicides change from 2016 to 2018?", 2016, 2018),
])
def test_a_percent_change_leads_with_both_counts(ask, raw, question, start, end):
    run = ask(question)
    assert run.analysis.asks_percent_change and run.analysis.not_used == []
    a, b = (len(raw[raw.year == y]) for y in (start, end))
    assert run.answer.startswith(f"From {start} to {end}, homicides in Chicago changed by {b - a:+,} "
                                 f"({(b - a) / a * 100:+.1f}%). There were {a:,} homicides in Chicago in {start}; "
                                 f"{b:,} in {end}.")


def test_the_reading_round_trips(data):
    analysis = analyze_question("homicides at night from Nov 2021 through Feb 2022", data)
    again = type(analysis).from_dict(analysis.to_dict())
    assert again.date_spans == analysis.date_spans and again.hour_spans == analysis.hour_spans
    assert read(again).line == read(analysis).line == \
        "Read as: homicides · 2021-11 to 2022-02 · at night (read as 21:00-04:59)"


def test_hours_filter_a_ranking_of_places(ask, raw):
    run = ask("Which community area had the most homicides at night in 2022?")
    (args,) = _only_homicide_calls(run)
    assert args["group_by"] == "community_area" and args["hours"] == NIGHT
    top = raw[(raw.year == 2022) & raw.hour.isin(NIGHT)].area.value_counts()
    assert run.answer.startswith("The community area with the most homicides in 2022, between 21:00 and 04:59, was ")
    assert f": {top.iloc[0]} (" in run.answer.split(".")[0]


def test_a_rate_takes_no_hours_so_the_reading_does_not_claim_them(data):
    analysis = analyze_question("What is the homicide rate from 9pm to 5am in Austin in 2022?", data)
    assert analysis.per_capita and analysis.hour_spans == []
    assert analysis.not_used == ["from 9pm to 5am"]


@pytest.mark.parametrize("question, year, hours", [
    ("How many homicides after midnight but before 4 in the morning in 2020?", 2020, [0, 1, 2, 3]),
    ("homicides in 2019 after 10pm and before 2am", 2019, [22, 23, 0, 1]),
    ("how many killings in 2021 happened after 8 in the evening and before midnight", 2021, [20, 21, 22, 23]),
    ("homicides during business hours in 2022", 2022, list(range(9, 17))),
    ("How many murders in 2018 during working hours (9-5)?", 2018, list(range(9, 17))),
])
def test_a_span_between_two_times_is_one_span(ask, raw, question, year, hours):
    """"after X and before Y" is the hours between them, not two spans; working hours are 09:00-16:59, stated."""
    run = ask(question)
    assert run.analysis.not_used == [] and len(run.analysis.hour_spans) == 1
    (args,) = _only_homicide_calls(run)
    assert args["hours"] == hours
    assert lead_count(run.answer) == len(raw[(raw.year == year) & raw.hour.isin(hours)])


def test_two_named_years_for_the_same_stretch_of_each_are_the_partial_years_days(ask, raw, data):
    """One of the two years is the data's partial last year: "the same stretch of each year" is its days in both."""
    end = data.coverage["homicides"]["end"]
    this = int(end[:4])
    run = ask(f"Is {this} running ahead of or behind {this - 1} for murders, for the same stretch of each year?")
    assert run.analysis.not_used == []
    other_end = f"{this - 1}{end[4:]}"
    assert [(a["start_date"], a["end_date"]) for a in _only_homicide_calls(run)] == \
        [(f"{this}-01-01", end), (f"{this - 1}-01-01", other_end)]
    now, before = len(_between(raw, f"{this}-01-01", end)), len(_between(raw, f"{this - 1}-01-01", other_end))
    assert f"{now:,} homicides so far in {this}; {before:,} in the same stretch of {this - 1}" in run.answer


def test_a_whole_year_beside_the_partial_one_says_which_is_partial(ask, data):
    cov = data.coverage["homicides"]
    run = ask(f"homicides {cov['last_year'] - 1} vs {cov['last_year']}")
    assert f"({cov['last_year']} is partial: data end {cov['end']})" in run.answer.split(". ")[0]


@pytest.mark.parametrize("question, year, months", [
    ("How many homicides were there in ward 28 from the start of March to the end of May 2021?", 2021, [3, 4, 5]),
    ("killings in the last quarter of 2019", 2019, [10, 11, 12]),
    ("homicides in the final quarter of 2018", 2018, [10, 11, 12]),
    ("How many murders in the first six months of 2020?", 2020, [1, 2, 3, 4, 5, 6]),
    ("slayings in the last six months of 2017", 2017, [7, 8, 9, 10, 11, 12]),
])
def test_parts_of_a_year_are_its_months(ask, raw, question, year, months):
    """Quarters, halves and "the start of March to the end of May" are months of the year, never a top-N or the
    named months alone."""
    run = ask(question)
    assert run.analysis.not_used == [] and run.analysis.ranking is None
    (args,) = _only_homicide_calls(run)
    assert args["months"] == months
    rows = raw[(raw.year == year) & raw["when"].dt.month.isin(months)]
    if "ward" in question:
        rows = rows[pd.to_numeric(rows["Ward"], errors="coerce") == 28]
    assert lead_count(run.answer) == len(rows)


@pytest.mark.parametrize("question, first, last", [
    ("average homicides a year in the 2010s", 2010, 2019),
    ("How many people were killed in the 2000s?", 2001, 2009),  # the data starts in 2001, and the notes say so
    ("homicides in the 2010's", 2010, 2019),
])
def test_a_decade_is_its_ten_years(ask, raw, question, first, last):
    run = ask(question)
    (args,) = _only_homicide_calls(run)
    assert (args["start_year"], args["end_year"]) == (first, last)
    assert f"{len(raw[raw.year.between(first, last)]):,}" in run.answer.split("\n")[0]


def test_a_years_possessive_is_that_year_not_its_decade(ask):
    run = ask("How many of 2020's killings were domestic-related?")
    (args,) = _only_homicide_calls(run)
    assert args["start_year"] == args["end_year"] == 2020 and args["domestic"] is True


# ---------------------------------------------------------------- days of the week kept

@pytest.mark.parametrize("question, year, days, words", [
    ("How many people were killed on weekends in 2019?", 2019, [6, 7], "on Saturdays and Sundays"),
    ("how many murders on weekdays in 2018", 2018, [1, 2, 3, 4, 5], "on weekdays, Monday to Friday"),
    ("homicides on Fridays in 2021", 2021, [5], "on Fridays"),
])
def test_days_of_the_week_are_a_filter(ask, raw, question, year, days, words):
    # A blind tester's "killed on weekends in 2019" got the busiest day instead of the weekend's count.
    run = ask(question)
    assert run.analysis.weekdays == days and run.analysis.group_by is None and run.analysis.not_used == []
    assert words in run.reading.periods
    (args,) = _only_homicide_calls(run)
    assert args["weekdays"] == days
    in_year = raw[raw.year == year]
    expected = int(in_year["when"].dt.day_of_week.isin([d - 1 for d in days]).sum())
    assert lead_count(run.answer) == expected and words in run.answer.split(".")[0]


def test_which_of_two_days_is_each_days_count(ask, raw):
    run = ask("were there more homicides on Fridays or Saturdays in 2020?")
    assert run.analysis.weekdays == [5, 6] and run.analysis.group_by == "weekday"
    in_year = raw[raw.year == 2020]["when"].dt.day_of_week
    friday, saturday = int((in_year == 4).sum()), int((in_year == 5).sum())
    top, top_n = ("Saturday", saturday) if saturday > friday else ("Friday", friday)
    assert f"was {top}, with {top_n}" in run.answer


def test_the_busiest_day_stays_a_ranking_of_days(ask):
    run = ask("which day of the week had the most murders in 2019")
    assert run.analysis.weekdays == [] and run.analysis.group_by == "weekday"


@pytest.mark.parametrize("question, start, end", [
    ("How many homicides in the last three full years in the data?", None, None),
    ("How many murders happened in police district 11 in the two years before 2020?", 2018, 2019),
    ("homicides in the three years after 2015", 2016, 2018),
])
def test_years_counted_back_or_forward(ask, raw, data, question, start, end):
    # Blind testers' "the last three full years" got 2001-2023, and "the two years before 2020" everything to 2019.
    if start is None:
        last_day = raw["day"].max()
        last_full = int(last_day.year if (last_day.month, last_day.day) == (12, 31) else last_day.year - 1)
        start, end = last_full - 2, last_full
    run = ask(question)
    assert run.analysis.not_used == []
    (args,) = _only_homicide_calls(run)
    assert (args.get("start_year"), args.get("end_year")) == (start, end)


@pytest.mark.parametrize("question, day", [
    ("How many people were killed in Chicago on the 4th of July in 2020?", "2020-07-04"),
    ("homicides on July 4, 2021", "2021-07-04"),
    ("murders on December 25th 2019", "2019-12-25"),
])
def test_one_day_is_that_day(ask, raw, question, day):
    run = ask(question)
    assert run.analysis.not_used == []
    (args,) = _only_homicide_calls(run)
    assert (args["start_date"], args["end_date"]) == (day, day)
    assert lead_count(run.answer) == int((raw.day == pd.Timestamp(day)).sum())


@pytest.mark.parametrize("question, start", [("homicides in the whole dataset (2001 on)", 2001),
                                             ("homicides from 2015 onward", 2015),
                                             ("homicides 2019 and later", 2019)])
def test_a_year_then_on_is_since_that_year(registry, question, start):
    analysis = analyze_question(question, registry.data)
    assert (analysis.year_range.start, analysis.year_range.end) == (start, analysis.coverage.last_year)


def test_a_year_in_the_future_is_said_to_have_no_forecast(ask, data_dir):
    acs = pd.read_csv(data_dir / "census_acs.csv").set_index("community_area")
    run = ask("What's Hegewisch's population now (2019-23 ACS) and what will it be in 2030?")
    first = run.answer.split("\n\n")[0]
    assert "cannot give a figure for Hegewisch in 2030" in first
    assert f"{int(acs.loc['HEGEWISCH', 'total_population']):,} residents" in first
