"""Shapes a fresh blind set (blind19) found answered as a nearby question: a ranked set's homicides kept to the
months, days or hours asked; a population's change ranked with a home value's beside it; the two measures after
"correlation between"; the indicators' 2008-2012 beside a homicide year; a rate ranked by police district (no
population: the counts, said so); a trend with one of its years outside the data; two areas' rates as a ratio; two
differences asked at once; a ranked ZIP's main area; a Redfin window by its first day and the city's year total.
Figures are computed here from the CSVs with plain pandas (tests/semantic_reference.py, tests/planner_helpers.py),
not through the app's loaders."""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _set_sum(raw, areas, mask) -> int:
    return int((raw.area.isin(areas) & mask).sum())


@pytest.mark.parametrize("question, by, highest, n, keep", [
    ("In the five poorest community areas (highest % households below poverty), how many homicides happened in "
     "June, July and August of 2020?", "poverty", True, 5, lambda r: (r.year == 2020) & r.month.isin([6, 7, 8])),
    ("Between midnight and 5:59 am, how many homicides occurred from 2019 to 2022 in the 3 community areas with the "
     "highest hardship index?", "hardship", True, 3, lambda r: r.year.between(2019, 2022) & r.hour.between(0, 5)),
    ("weekend murders (Sat+Sun) in 2016-2022 in the 10 lowest per-capita-income community areas?", "income", False,
     10, lambda r: r.year.between(2016, 2022) & r.weekday.isin([6, 7])),
])
def test_a_ranked_sets_homicides_keep_the_months_days_and_hours_asked(ask, raw, question, by, highest, n, keep):
    areas = ref._rank(ref._sm(by), n, highest=highest)
    run = ask(question)
    assert f"Together they had {_set_sum(raw, areas, keep(raw)):,} homicides" in lead(run)
    assert not run.reading.not_used


def test_the_population_s_change_is_ranked_and_the_home_value_s_change_is_beside_it(ask):
    change = (ref._acs_pop() - ref._pop2010()) / ref._pop2010() * 100
    lost = ref._rank(change, 1, highest=False)[0]
    before, after = ref._ca_zhvi(2019, 9)[lost], ref._ca_zhvi(2024, 9)[lost]
    run = ask("Which CA lost the largest percentage of its population from 2010 to the latest ACS, and how much did "
              "its home values change in percent from Sep 2019 to Sep 2024?")
    text = lead(run)
    assert f"is {ref._names()[lost].title()} ({lost})" in text
    assert f"{(after - before) / before * 100:+.1f}% from September 2019" in text
    assert f"{change[lost]:+.1f}% in residents" in text


def test_the_correlation_is_of_the_two_measures_after_between(ask):
    """"Poorer" before "between" only motivates the question: the pair is the hardship index and the home value's
    percent change (a three-measure reading had answered with the IHS index)."""
    before, after = ref._ca_zhvi(2019, 9), ref._ca_zhvi(2024, 9)
    both = pd.DataFrame({"h": ref._sm("hardship"), "z": (after - before) / before * 100}).dropna()
    run = ask("Did poorer neighborhoods see bigger home-value gains? Compute the Pearson correlation between the "
              "hardship index and the percent change in Zillow home value from Sep 2019 to Sep 2024 across "
              "community areas.")
    assert f"is r = {both.h.corr(both.z):.2f} (Pearson" in lead(run)
    assert not run.reading.not_used


def test_the_indicators_vintage_beside_a_homicide_year_is_no_homicide_period(ask):
    both = pd.DataFrame({"u": ref._sm("unemployed"), "h": ref._counts([2022])}).dropna()
    run = ask("Pearson correlation, community-area level: unemployment rate (2008-2012) vs. number of homicides in "
              "2022.")
    assert "homicides, 2022" in lead(run) and f"r = {both.u.corr(both.h):.2f}" in lead(run)


def test_a_rate_ranked_by_police_district_is_the_counts_with_the_reason(ask, raw):
    counts = raw[raw.year == 2022].groupby("district").size()
    run = ask("Which police district has the highest homicide rate per capita in 2022?")
    text = lead(run)
    assert f"District {int(counts.idxmax())}" in text and f": {int(counts.max())} (" in text
    assert "A rate per 100,000 residents cannot be computed by police district" in text


def test_a_trend_with_one_year_outside_the_data_gives_the_other_year_and_declines(ask, raw):
    run = ask("Englewood murders in 2022 and in 2024 -- did they go down?")
    count = int(((raw.year == 2022) & (raw.area == 68)).sum())
    assert f"There were {count} homicides in Englewood (community area 68) in 2022" in lead(run)
    assert "cannot give a figure for Englewood in 2024" in lead(run)


def test_two_areas_rates_as_a_ratio(ask):
    counts, pop = ref._counts([2022]), ref._acs_pop()
    englewood, lincoln_park = (counts[a] / pop[a] * 100000 for a in (68, 7))
    run = ask("How many times higher was Englewood's homicide rate than Lincoln Park's in 2022? Give both rates "
              "per 100k.")
    assert f"of {englewood / lincoln_park:.2f} ({englewood / lincoln_park:.2f} times)" in lead(run)
    assert "(Englewood) in 2022" in lead(run)  # each column named by its place, not "community area: 68"


def test_two_differences_asked_at_once(ask):
    income = ref._sm("income")
    value = ref._ca_zhvi(2024, 9)
    run = ask("Hyde Park vs Woodlawn -- difference in per capita income, and difference in typical home value "
              "(Zillow, Sep 2024)?")
    text = lead(run)
    assert f"${income[41] - income[42]:,.0f} higher in Hyde Park" in text
    assert f"was ${round(value[41]) - round(value[42]):,.0f} more than" in text


def test_the_lowest_valued_zip_its_main_area_and_that_area_s_homicides(ask):
    values = ref._zhvi(2024, 9)
    values = values[values.index.isin(ref._xwalk()["zip"])]
    cheapest = values.idxmin()
    rows = ref._xwalk()[ref._xwalk()["zip"] == cheapest]
    main = int(rows.loc[rows["share_of_zip"].idxmax(), "area_number"])
    count = int(ref._counts(range(2016, 2023))[main])
    run = ask("lowest home value zip in sept 2024 and how many murders in 2016-2022 in the community area that "
              "covers most of it?")
    text = lead(run)
    assert f"is ZIP {cheapest}" in text and f"{ref._names()[main].title()} ({main}) had {count} homicides" in text


def test_a_redfin_window_by_its_first_day_and_the_city_s_year_total(ask):
    r = ref._redfin_neighborhoods()
    row = r[(r["neighborhood"] == "Bridgeport") & (r["begin"] == "2012-01-01")]
    price = ref._price_k(row["Median Sale Price"]).iloc[0]
    run = ask("redfin median sale price for Bridgeport for the 90-day window starting Jan 1 2012?")
    assert f"${price:,.0f}" in lead(run) and not run.reading.not_used
    city = ref._redfin()
    city = city[(city["Region"] == "Chicago, IL") & (city["end"].dt.year == 2018)]
    run = ask("According to Redfin, how many homes were sold in Chicago in 2018 in total?")
    assert f"{int(city['Homes Sold'].sum()):,} homes sold (Redfin) in 2018" in lead(run)


def test_a_set_ranked_by_a_home_value_month_counts_the_homicides_of_the_year_asked(ask):
    areas = ref._rank(ref._ca_zhvi(2024, 9), 5, highest=False)
    run = ask("5 cheapest neighborhoods by zillow home value (sept 2024) - how many killings did they have "
              "altogether in 2022?")
    assert f"Together they had {int(ref._counts([2022])[areas].sum())} homicides in 2022" in lead(run)


def test_an_area_s_change_over_a_span_is_its_two_ends_beside_its_main_zip(ask, raw):
    counts = [int(((raw.year == y) & (raw.area == 25)).sum()) for y in (2019, 2022)]
    run = ask("Austin's main ZIP code -- how much did its Zillow home value change in percent from Sep 2019 to Sep "
              "2024, and did Austin's homicides go up or down from 2019 to 2022 (give both counts)?")
    text = lead(run)
    assert f"{counts[0]} homicides in 2019, {counts[1]} homicides in 2022" in text
    assert f"a {'drop' if counts[1] < counts[0] else 'rise'} of {abs(counts[1] - counts[0])}" in text


def test_the_iucr_list_s_homicide_codes_counted(ask, data_dir):
    codes = pd.read_csv(data_dir / "iucr_codes.csv", dtype=str)
    homicide = codes[codes.iloc[:, 1].str.strip().str.upper() == "HOMICIDE"].iloc[:, 0].str.strip().str.zfill(4)
    used = set(pd.read_csv(data_dir / "homicides.csv", dtype=str, usecols=["IUCR"])["IUCR"].str.zfill(4))
    run = ask("The city's IUCR list has how many homicide codes, and how many of them actually show up in the "
              "homicide data?")
    present = sum(code in used for code in homicide)
    assert f"The IUCR list has {len(homicide)} homicide codes; {present} of them" in lead(run)


def test_a_redfin_period_beginning_a_day_is_that_window(ask):
    r = ref._redfin_neighborhoods()
    row = r[(r["neighborhood"] == "Logan Square") & (r["begin"] == "2019-07-01")]
    run = ask("Redfin's median sale price for Logan Square for the 90-day period beginning July 1, 2019?")
    assert f"of ${ref._price_k(row['Median Sale Price']).iloc[0]:,.0f} in the 90-day window starting 2019-07-01" \
        in lead(run)
