"""A period the data does not hold, asked with the user's own fallback ("if March 2021 isn't there, the homes sold in
the latest month you have"): the latest period held stands in, and the lead says first which period is missing.
Before, the Redfin and homicide questions were declined (the fallback ignored) and the Redfin one led with an error.
And the places' plain mean beside the city's own figure (below).
Expected figures come from the raw CSVs (tests/semantic_reference.py reads them without the app's loaders)."""
from __future__ import annotations

import pandas as pd
import pytest

from semantic.errors import QueryError
from semantic.executor import run_query
from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _city_redfin(column: str) -> tuple[str, float]:
    """The city's own monthly Redfin row with the latest period end."""
    r = ref._redfin()
    city = r[r["Region"] == "Chicago, IL"].sort_values("end")
    last = city.iloc[-1]
    return last["end"].strftime("%B %Y"), float(last[column])


def _homicide_years() -> pd.Series:
    h = pd.read_csv(ref.DATA / "homicides.csv", dtype=str, usecols=["Date"])
    return pd.to_datetime(h["Date"], format="%m/%d/%Y %I:%M:%S %p")


def test_the_layer_gives_the_latest_month_held_and_says_which_was_missing(data):
    month, sold = _city_redfin("Homes Sold")
    result = run_query(data, {"measures": ["redfin_homes_sold"], "period": {"month": "2021-03", "else": "latest"}})
    assert result.rows[0]["redfin_homes_sold"] == pytest.approx(sold)
    assert any(c.startswith("March 2021 is not in the data") and f"the latest month held, {month}" in c
               for c in result.caveats)


def test_the_latest_whole_year_skips_a_partial_one(data):
    dates = _homicide_years()
    last = dates.max()
    whole = last.year - 1 if (last.month, last.day) != (12, 31) else last.year
    result = run_query(data, {"measures": ["homicides"], "period": {"year": 2030, "else": "latest_full"}})
    assert result.rows[0]["homicides"] == int((dates.dt.year == whole).sum())
    assert any(f"the latest whole year held, {whole}" in c for c in result.caveats)


def test_without_a_fallback_the_period_is_still_refused_and_a_held_period_is_kept(data):
    with pytest.raises(QueryError, match="2021-03 is not in the data"):
        run_query(data, {"measures": ["redfin_homes_sold"], "period": {"month": "2021-03"}})
    kept = run_query(data, {"measures": ["homicides"], "period": {"year": 2019, "else": "latest"}})
    assert kept.rows[0]["homicides"] == int((_homicide_years().dt.year == 2019).sum()) and not [
        c for c in kept.caveats if "given instead" in c]
    with pytest.raises(QueryError, match="else must be one of"):
        run_query(data, {"measures": ["homicides"], "period": {"year": 2019, "else": "earliest"}})


def test_a_redfin_month_past_the_data_answers_the_latest_month_as_asked(ask):
    month, sold = _city_redfin("Homes Sold")
    text = lead(ask("How many homes sold in Chicago in March 2021 per Redfin? If that month isn't there, give me the "
                    "homes sold in the latest month you have."))
    assert text.startswith("March 2021 is not in the data")
    assert f"{int(sold):,} homes sold (Redfin) in {month}" in text


def test_a_neighbourhood_sale_price_past_the_data_answers_its_latest_window(ask):
    r = ref._redfin_neighborhoods()
    logan = r[r["neighborhood"] == "Logan Square"].sort_values("end").iloc[-1]
    price = ref._price_k(pd.Series([logan["Median Sale Price"]]))[0]
    text = lead(ask("What was the Redfin median sale price in Logan Square for the period ending 2021-06-30? If it's "
                    "not available, use the most recent period."))
    assert text.startswith("June 2021 is not in the data") and f"${int(price):,}" in text


def test_a_homicide_year_past_the_data_answers_the_latest_whole_year(ask):
    dates = _homicide_years()
    text = lead(ask("How many homicides were there in 2024? If 2024 isn't in the data, give the latest full year."))
    assert f"There were {int((dates.dt.year == 2022).sum()):,} homicides in Chicago in 2022" in text
    assert "2024 is not in the data" in text and "the latest whole year, 2022, is given instead" in text


def _city_redfin_year(column: str, year: int) -> float:
    """A year of the city's own monthly Redfin rows: the sum of the 12 months ending in it."""
    r = ref._redfin()
    city = r[(r["Region"] == "Chicago, IL") & (r["end"].dt.year == year)]
    return float(city[column].sum())


def test_a_period_the_user_names_instead_stands_in_where_the_data_holds_none_of_the_one_asked(data, ask):
    sold = _city_redfin_year("Homes Sold", 2018)
    result = run_query(data, {"measures": ["redfin_homes_sold"], "period": {"year": 2021, "else": {"year": 2018}}})
    assert result.rows[0]["redfin_homes_sold"] == pytest.approx(sold)
    assert any(c.startswith("2021 is not in the data") and "so 2018, as asked, is given instead" in c
               for c in result.caveats)
    kept = run_query(data, {"measures": ["redfin_homes_sold"], "period": {"year": 2016, "else": {"year": 2018}}})
    assert kept.rows[0]["redfin_homes_sold"] == pytest.approx(_city_redfin_year("Homes Sold", 2016))
    text = lead(ask("Redfin homes sold citywide in 2021? If you don't have 2021, give me the 2018 total instead."))
    assert text.startswith("2021 is not in the data") and f"{int(sold):,} homes sold (Redfin) in 2018" in text


# ---- The places' plain mean beside the city's own figure ("how far is that below the city's"), read before as a
# threshold (the 57 areas under the city's figure, listed) with 'plain average' and 'far' unused.

def _chicago_row(column: str) -> float:
    s = pd.read_csv(ref.DATA / "socioeconomic.csv")
    s.columns = [c.strip() for c in s.columns]
    return float(s[s["COMMUNITY AREA NAME"].str.upper() == "CHICAGO"][column].iloc[0])


def test_the_plain_mean_of_the_areas_beside_the_citys_own_figure(ask):
    mean, city = ref._sm("income").mean(), _chicago_row("PER CAPITA INCOME")
    text = lead(ask("Plain average of the 2008-2012 per capita incomes of the 77 community areas, and how far is that "
                    "below the city's own per capita income figure?"))
    assert f"the plain average ${mean:,.0f}; the city's own figure is ${city:,.0f}, ${city - mean:,.0f} above" in text
    assert "could not use" not in text


def test_the_plain_mean_of_the_areas_rates_beside_the_city_rate(ask):
    years = ref._years(2019, 2022)
    rates = ref._rate(years, ref._acs_pop())
    city = ref._city_count(years) / len(years) / ref._acs_pop().sum() * 100000
    text = lead(ask("simple mean of the community areas' 2019-2022 homicide rates vs the citywide rate"))
    gap = city - rates.mean()
    assert f"the plain average {rates.mean():.1f}; the city's own figure is {city:.1f}, {abs(gap):.1f} " \
           f"{'above' if gap >= 0 else 'below'} the plain average" in text


def test_an_unweighted_average_over_the_areas_is_their_mean_not_the_citys(ask):
    text = lead(ask("what's the unweighted average unemployment rate of the 77 areas?"))
    assert f"the plain average {ref._sm('unemployed').mean():.1f}%" in text and "city's own" not in text


def test_the_ihs_pandemic_column_is_no_subject_the_data_lacks(ask):
    summary = pd.read_csv(ref.DATA / "property_ihs_price_index_summary_2025q4.csv", dtype=str)
    row = summary[summary["Number"] == "p3158"].iloc[0]  # Austin/North Lawndale, the submarket Austin lies in
    change = float(row["COVID-19 Pandemic Start to Current"].rstrip("%"))
    text = lead(ask("What's the IHS price change since the COVID-19 pandemic start for the submarket Austin is in "
                    "(2025 Q4 summary)?"))
    assert f"+{change:.1f}%" in text and "does not include covid" not in text and "could not use" not in text
