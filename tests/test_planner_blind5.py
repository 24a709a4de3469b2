"""The misses of the fifth blind set (written by a helper who read no analyzer or planner code), each read the
general way, end to end with the rules backend, and checked against plain pandas on the raw files. Three were
confident answers to another question: a kind of place counted without its recorded sub-kind, two wards "combined"
answered one by one, and "how many latinos live in" answered with the area's homicides; a "second deadliest year"
had been answered with the deadliest."""
import pandas as pd
import pytest

from tests.planner_helpers import lead


@pytest.fixture(scope="module")
def acs(data_dir):
    df = pd.read_csv(data_dir / "census_acs.csv")
    return df[df["acs_year"] == df["acs_year"].max()].set_index("community_area")


def test_a_kind_of_place_counts_the_types_recorded_as_its_sub_kinds(ask, raw):
    kinds = raw["Location Description"].fillna("")
    gas = kinds.str.startswith("GAS STATION")
    assert set(kinds[gas]) == {"GAS STATION", "GAS STATION DRIVE/PROP."}  # the data's own sub-kind
    run = ask("murders at gas stations in 2021")
    want = int((gas & (raw.year == 2021)).sum())
    assert lead(run).startswith(f"There were {want:,} homicides in Chicago in 2021, at a place recorded as GAS "
                                "STATION or GAS STATION DRIVE/PROP.")
    plain = int(((kinds == "GAS STATION") & (raw.year == 2021)).sum())
    assert plain != want and f"There were {plain:,} " not in run.answer


@pytest.mark.parametrize("question, kind, numbers", [
    ("wards 24 and 28 combined, how many homicides in 2019?", "wards", (24, 28)),
    ("police districts 10 and 11 together, murders in 2019", "police districts", (10, 11)),
])
def test_places_counted_together_are_one_count(ask, raw, question, kind, numbers):
    column = "ward" if kind == "wards" else "District"
    values = pd.to_numeric(raw[column], errors="coerce")
    want = int((values.isin(numbers) & (raw.year == 2019)).sum())
    run = ask(question)
    assert lead(run).startswith(f"There were {want:,} homicides in {kind} {numbers[0]} and {numbers[1]} in 2019")
    assert "counted together" in run.reading.line
    one = int(((values == numbers[0]) & (raw.year == 2019)).sum())
    assert not lead(run).startswith(f"There were {one:,} ")


def _yearly(raw, rows=None):
    return (raw if rows is None else rows).groupby("year").size()


def test_the_second_deadliest_year_is_the_second_of_the_yearly_counts(ask, raw):
    counts = _yearly(raw).sort_values(ascending=False)
    run = ask("what was the second deadliest year for homicides")
    assert lead(run).startswith(f"The year with the second-most homicides from 2001 to 2023 was {counts.index[1]}, "
                                f"with {counts.iloc[1]:,}; first was {counts.index[0]}, with {counts.iloc[0]:,}.")


def test_the_month_with_the_second_most_is_a_ranking_of_months(ask, raw):
    months = raw[raw.year == 2021].groupby("month").size().sort_values(ascending=False)
    import calendar
    run = ask("the month with the second most homicides in 2021")
    assert "by month" in run.reading.line and not run.reading.not_used
    assert lead(run).startswith(f"The month with the second-most homicides in 2021 was "
                                f"{calendar.month_name[months.index[1]]} 2021, with {months.iloc[1]:,}")


def test_the_year_with_the_fewest_is_a_full_year_and_the_partial_one_is_named(ask, raw):
    counts = _yearly(raw)
    last = counts.index.max()  # the data ends in July of its last year
    full = counts[counts.index < last].sort_values()
    run = ask("what was the year with the fewest murders")
    assert lead(run).startswith(f"The year with the fewest homicides from 2001 to 2023 among full years was "
                                f"{full.index[0]}, with {full.iloc[0]:,} ({last} had {counts[last]:,}, but the data "
                                "ends on")
    second = ask("the year with the second fewest homicides")
    assert lead(second).startswith(f"The year with the second-fewest homicides from 2001 to 2023 was "
                                   f"{full.index[1]}, with {full.iloc[1]:,}")


@pytest.mark.parametrize("question, area, column, label", [
    ("how many latinos live in little village", "SOUTH LAWNDALE", "hispanic_or_latino",
     "Hispanic or Latino (any race)"),
    ("how many asians are in chinatown", "ARMOUR SQUARE", "asian", "Asian"),
    ("how many whites live in lincoln park", "LINCOLN PARK", "white_not_hispanic_or_latino", "White, not Hispanic"),
])
def test_how_many_of_a_group_live_somewhere_is_the_groups_count(ask, acs, question, area, column, label):
    run = ask(question)
    want = int(acs.loc[area, column])
    assert f"{want:,} {label} residents" in lead(run) and "homicides" not in lead(run)
    assert not run.ungrounded_numbers


def test_how_many_more_of_a_group_in_one_area_than_another_is_the_difference(ask, acs):
    a, b = int(acs.loc["AUBURN GRESHAM", "black_or_african_american"]), int(acs.loc["CHATHAM", "black_or_african_american"])
    run = ask("how many more black residents does auburn gresham have than chatham")
    assert lead(run).startswith(f"Auburn Gresham had {a:,} Black residents and Chatham {b:,} (ACS 2019-2023 5-year): "
                                f"{a - b:,} more in Auburn Gresham.")
    assert not run.ungrounded_numbers


def test_days_of_the_year_compared_with_no_subject_are_read_as_homicides_and_said(ask, raw):
    """"is 2023 looking better or worse than last year at this point?": no subject named; the homicide data is the
    only data kept by date, and the notes say it was read so."""
    day = pd.to_datetime(raw["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.normalize()
    end = day.max()  # the data's last day; the same day a year before ends the stretch of the year before
    this = int((raw.year == end.year).sum())
    last = int(((raw.year == end.year - 1) & (day <= end.replace(year=end.year - 1))).sum())
    run = ask("is 2023 looking better or worse than last year at this point? compare the numbers so far")
    assert run.reading.line.startswith("Read as: homicides")
    assert f"{this:,} homicides so far in 2023; {last:,} in the same stretch of 2022" in lead(run)
    assert "read as homicides, the only data kept by date" in run.answer


def test_the_citys_population_leaving_out_an_area_is_the_city_less_the_area(ask, acs):
    city, loop = int(acs["total_population"].sum()), int(acs.loc["LOOP", "total_population"])
    run = ask("chicago's population if you leave out the loop?")
    assert lead(run).startswith(f"Chicago had {city - loop:,} residents not counting Loop: {city:,} in all, less "
                                f"Loop's {loop:,}")
    assert not run.reading.not_used and not run.ungrounded_numbers


@pytest.fixture(scope="module")
def socio(data_dir):
    df = pd.read_csv(data_dir / "socioeconomic.csv")
    df.columns = [c.strip() for c in df.columns]
    return df[df["Community Area Number"].notna()].set_index("Community Area Number")


def test_how_many_areas_a_measure_picks(ask, socio):
    picked = socio[socio["PERCENT AGED 16+ UNEMPLOYED"] > 25]
    run = ask("how many neighborhoods have unemployment over 25 percent")
    assert lead(run).startswith(f"There are {len(picked)} community areas with unemployment (aged 16+) over 25%.")
    assert "where unemployment (aged 16+) is over 25%" in run.reading.line and not run.reading.not_used


@pytest.mark.parametrize("question, column, value, years", [
    ("How many homicides in 2021 were in community areas where more than 30% of households are below the poverty "
     "line?", "PERCENT HOUSEHOLDS BELOW POVERTY", 30, [2021]),
    ("in neighborhoods where per capita income is above $50,000, how many homicides have there been in total since "
     "2001?", "PER CAPITA INCOME", 50000, None),
])
def test_homicides_in_the_areas_a_measure_picks_are_counted_together(ask, raw, socio, question, column, value, years):
    areas = [int(n) for n in socio.index[socio[column] > value]]
    rows = raw[raw.area.isin(areas)]
    want = int((rows.year.isin(years) if years else rows.year.notna()).sum())
    run = ask(question)  # one semantic query: the areas, then their homicides together, with the city's share
    assert lead(run).startswith(f"There are {len(areas)} community areas with ")
    city = int((raw.year.isin(years)).sum()) if years else len(raw)
    assert f"together they had {want:,} homicides" in lead(run)  # the set and what it holds, in one sentence
    assert f"{want / city * 100:.1f}% of the city's {city:,}" in lead(run)  # the city-wide count had been the answer
    assert not run.reading.not_used and not run.ungrounded_numbers


@pytest.mark.parametrize("question, column, value", [
    ("how many neighborhoods have unemployment of at least 20 percent", "PERCENT AGED 16+ UNEMPLOYED", 20),
    ("how many community areas have a hardship index of 80 or more", "HARDSHIP INDEX", 80),
])
def test_at_least_keeps_the_boundary(ask, socio, question, column, value):
    """"At least" and "or more" include the value (it had been left unread): South Shore and Calumet Heights are
    at exactly 20.0% unemployed, Chicago Lawn at a hardship index of exactly 80."""
    picked = socio[socio[column] >= value]
    assert (socio[column] == value).any()  # the boundary is in the data, so a strict reading would miss it
    run = ask(question)
    assert lead(run).startswith(f"There are {len(picked)} community areas with ")
    assert not run.reading.not_used


@pytest.mark.parametrize("question, month, day, place", [
    ("how many people have been killed on christmas day in chicago since 2001", 12, 25, None),
    ("killings on halloween in austin", 10, 31, 25),
    ("homicides on july 4th over the years", 7, 4, None),
])
def test_a_calendar_day_with_no_year_is_that_day_in_every_year(ask, raw, question, month, day, place):
    when = pd.to_datetime(raw["Date"], format="%m/%d/%Y %I:%M:%S %p")
    rows = (when.dt.month == month) & (when.dt.day == day) & (raw.area == place if place else True)
    run = ask(question)
    assert f"There were {int(rows.sum()):,} homicides" in lead(run)
    assert f"each year" in run.reading.line and not run.reading.not_used and not run.ungrounded_numbers


def test_a_holiday_with_its_year_is_that_one_day(ask, raw):
    when = pd.to_datetime(raw["Date"], format="%m/%d/%Y %I:%M:%S %p")
    run = ask("homicides on july 4, 2020")
    want = int(((when.dt.year == 2020) & (when.dt.month == 7) & (when.dt.day == 4)).sum())
    assert lead(run).startswith(f"There were {want:,} homicides in Chicago on July 4, 2020")


def test_a_day_that_is_no_calendar_day_is_a_clear_tool_error(registry):
    result = registry.run("query_homicides_advanced", {"month_days": ["02-30"]})
    assert not result.ok and "MM-DD" in result.error["message"]
