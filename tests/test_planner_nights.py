"""The night of a day of the week ("friday nights", "saturday night", "weekend nights") read as people mean it, the
evening of that day into the next morning, end to end with the rules backend; expected counts from plain pandas on
the raw homicide rows. The literal reading had counted Friday 00:00-04:59 (Thursday's night) as Friday night."""
import pytest

from tests.planner_helpers import lead

NIGHT = [21, 22, 23, 0, 1, 2, 3, 4]


def _nights(raw, year, days):
    rows = raw[(raw.year == year) & raw.hour.isin(NIGHT)]
    night_of = rows.weekday.where(rows.hour >= 21, (rows.weekday + 5) % 7 + 1)  # after midnight: the day before
    return int(night_of.isin(days).sum())


@pytest.mark.parametrize("question, days, words", [
    ("how many homicides on friday nights in 2022", [5], "on Friday nights into Saturday morning"),
    ("homicides on a saturday night in 2021", [6], "on Saturday nights into Sunday morning"),
    ("how many people were killed on weekend nights in 2021", [5, 6],
     "on Friday and Saturday nights into the next morning"),
])
def test_a_weekday_night_runs_into_the_next_morning(ask, raw, question, days, words):
    year = int(question[-4:])
    run = ask(question)
    first = lead(run).split(". ")[0]
    assert f"{_nights(raw, year, days):,} homicides" in first
    assert words in first and "between 21:00 and 04:59" in first
    assert not run.reading.not_used
