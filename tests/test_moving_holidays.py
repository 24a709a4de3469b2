"""Holidays whose date moves each year ("on Thanksgiving since 2010", "Memorial Day weekend 2020"), counted on each
year's own date, and runs of days that start or end on one; end to end with the rules backend, and the tool alone.
Each holiday's dates are worked out here from the calendar with pandas (never the app's code), and the counts come
from plain pandas on the raw file.

Before, "memorial day weekend 2020" was read as every Saturday and Sunday of 2020, "black friday since 2010" as
Fridays and the city's Black residents, "the 4th of July weekend 2020" as July 4 if it fell on a weekend: each a
confident answer to another question."""
import pandas as pd
import pytest

from tests.planner_helpers import lead

HOMICIDES = "query_homicides_advanced"


def _nth(year: int, month: int, weekday: int, n: int) -> pd.Timestamp:
    """The n-th (or, n = -1, the last) ``weekday`` (Monday = 0) of a month, from the calendar."""
    days = pd.date_range(f"{year}-{month:02d}-01", periods=pd.Period(f"{year}-{month:02d}").days_in_month)
    return days[days.day_of_week == weekday][n if n < 0 else n - 1]


def thanksgiving(year):
    return _nth(year, 11, 3, 4)


def memorial_day(year):
    return _nth(year, 5, 0, -1)


def labor_day(year):
    return _nth(year, 9, 0, 1)


def _on(raw, days) -> pd.DataFrame:
    return raw[raw.day.isin(pd.DatetimeIndex(days))]


def test_known_dates_of_the_calendar():
    assert (thanksgiving(2019), memorial_day(2019), labor_day(2020)) == (
        pd.Timestamp("2019-11-28"), pd.Timestamp("2019-05-27"), pd.Timestamp("2020-09-07"))


def test_the_tool_counts_each_years_own_thanksgiving(registry, raw):
    result = registry.run(HOMICIDES, {"holidays": ["thanksgiving"], "start_year": 2010, "end_year": 2022})
    want = _on(raw, [thanksgiving(y) for y in range(2010, 2023)])
    assert result.values["total"] == len(want) and result.values["filters"]["holidays"] == ["thanksgiving"]
    assert "on Thanksgiving (the fourth Thursday of November, each year)" in result.text


def test_easter_sundays_are_the_published_dates(registry, raw):
    easter = {2016: "2016-03-27", 2017: "2017-04-16", 2019: "2019-04-21", 2020: "2020-04-12"}
    result = registry.run(HOMICIDES, {"holidays": ["easter"], "years": sorted(easter)})
    assert result.values["total"] == len(_on(raw, list(easter.values())))


def test_a_partial_last_year_without_the_holiday_is_left_out_of_the_average(registry, raw):
    result = registry.run(HOMICIDES, {"holidays": ["black_friday"], "start_year": 2010})
    fridays = [thanksgiving(y) + pd.Timedelta(days=1) for y in range(2010, 2023)]
    assert result.values["total"] == len(_on(raw, fridays))
    assert result.values["per_year_years"] == 13 and "2023 left out" in result.text


def test_an_unknown_holiday_is_refused_with_the_names_it_takes(registry):
    result = registry.run(HOMICIDES, {"holidays": ["xmas"]})
    assert result.error and "thanksgiving" in result.error["message"]


@pytest.mark.parametrize("question, days", [
    ("how many homicides on thanksgiving 2019", [thanksgiving(2019)]),
    ("homicides on mother's day 2021", [_nth(2021, 5, 6, 2)]),
    ("murders on memorial day weekend 2020", pd.date_range(memorial_day(2020) - pd.Timedelta(days=2), memorial_day(2020))),
    ("homicides on labor day weekend from 2015 to 2020",
     [d for y in range(2015, 2021) for d in pd.date_range(labor_day(y) - pd.Timedelta(days=2), labor_day(y))]),
    ("homicides on memorial day and labor day 2019", [memorial_day(2019), labor_day(2019)]),
    ("homicides between memorial day and labor day 2019", pd.date_range(memorial_day(2019), labor_day(2019))),
    ("how many people were killed from memorial day to labor day, 2016 to 2018 in all",
     [d for y in range(2016, 2019) for d in pd.date_range(memorial_day(y), labor_day(y))]),
])
def test_a_moving_holiday_is_counted_on_its_own_dates(ask, raw, question, days):
    run = ask(question)
    want = len(_on(raw, days))
    assert f"There {'was' if want == 1 else 'were'} {want:,} homicide" in lead(run)
    (args,) = [c.arguments for c in run.calls if c.name == HOMICIDES]
    assert "weekdays" not in args and "month_days" not in args  # "weekend" is the holiday's, not every weekend
    assert not run.reading.not_used


def test_each_summer_from_memorial_day_to_labor_day_is_those_days_not_june_to_august(ask, raw):
    run = ask("how many people were killed from memorial day to labor day each summer, 2016 to 2018")
    (args,) = [c.arguments for c in run.calls]
    assert args["holidays"] == ["memorial_day_to_labor_day"] and "months" not in args
    counts = [len(_on(raw, pd.date_range(memorial_day(y), labor_day(y)))) for y in (2016, 2017, 2018)]
    assert f"{counts[0]:,} homicides" in lead(run) and f"; {counts[1]:,} in 2017; {counts[2]:,} in 2018" in lead(run)


def test_black_friday_is_a_day_not_fridays_or_black_residents(ask, raw):
    run = ask("homicides on black friday since 2010")
    assert [c.name for c in run.calls] == [HOMICIDES]
    (args,) = [c.arguments for c in run.calls]
    assert args["holidays"] == ["black_friday"] and "weekdays" not in args
    fridays = [thanksgiving(y) + pd.Timedelta(days=1) for y in range(2010, 2023)]
    assert f"There were {len(_on(raw, fridays)):,} homicides in Chicago from 2010 to 2023" in lead(run)


def test_one_years_dates_name_the_days_counted(ask):
    assert "on Memorial Day weekend (May 23 to May 25, 2020)" in lead(ask("murders on memorial day weekend 2020"))


def test_a_run_from_a_moving_holiday_to_a_fixed_day_in_one_year_is_a_span(ask, raw):
    run = ask("how many murders between thanksgiving and christmas 2019")
    (args,) = [c.arguments for c in run.calls]
    assert (args["start_date"], args["end_date"]) == ("2019-11-28", "2019-12-25") and "month_days" not in args
    want = len(_on(raw, pd.date_range("2019-11-28", "2019-12-25")))
    assert lead(run).startswith(f"There were {want:,} homicides in Chicago from 2019-11-28 to 2019-12-25")


def test_the_dates_written_beside_the_holidays_are_counted_once(ask, raw):
    run = ask("between memorial day and labor day 2019 (may 27 to sept 2) how many homicides were there?")
    (args,) = [c.arguments for c in run.calls]
    assert "holidays" not in args and (args["start_date"], args["end_date"]) == ("2019-05-27", "2019-09-02")
    assert "100.0%" not in run.answer  # the same days as a filter of themselves


@pytest.mark.parametrize("question, words", [
    ("murders from thanksgiving to christmas", "from thanksgiving to christmas"),  # no year: which days?
    ("how many homicides on the 4th of july weekend 2020", "the 4th of july weekend"),
    ("homicides from presidents day to february 29 2019", "from presidents day to february 29"),  # no such day
])
def test_days_no_filter_can_count_are_declined_whole_not_read_in_part(ask, question, words):
    run = ask(question)
    (args,) = [c.arguments for c in run.calls]
    assert not {"month_days", "weekdays", "months", "holidays"} & set(args)  # not Christmas Day, not July 4
    assert run.reading.not_used[0] == words and f"I could not use '{words}'" in lead(run)
