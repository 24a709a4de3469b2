"""Composed, cross-domain questions answered by one typed query each, against pandas written straight from the raw
CSVs by a helper who read no code of ours (tests/semantic_reference.py: the question, its exact definition and the
computation). Each case runs twice: through the query tool (the TOOL_CALL path) and through POST /api/query."""
from __future__ import annotations

import json

import pytest

from tests import semantic_reference as ref
from tests.test_api import build_app

pytestmark = pytest.mark.full_data  # the reference computes over the full export

AREA = ["community_area"]


def h(year=None, name=None, years=None):
    """Homicides over a year or a span of years, as a measure spec."""
    spec = {"measure": "homicides"}
    if year is not None:
        spec["period"] = {"year": year}
    if years is not None:
        spec["period"] = {"start": str(years[0]), "end": str(years[1])}
    if name:
        spec["as"] = name
    return spec


def ranked(first, then, order="desc", limit=10, totals=True, group=AREA):
    return {"measures": [first, then], "group_by": group, "order_by": [{"field": _name(first), "direction": order}],
            "limit": limit, "totals": totals}


def _name(spec):
    return spec if isinstance(spec, str) else spec.get("as") or spec["measure"]


def change(a, b, then=None, order="asc", limit=1, population=None):
    measures = [h(a, "a"), h(b, "b")] + ([then] if then else [])
    query = {"measures": measures, "group_by": AREA, "derived": [{"name": "chg", "op": "change", "of": ["a", "b"]}],
             "order_by": [{"field": "chg", "direction": order}], "limit": limit}
    return query


def threshold(measure, op, value, then, totals=True):
    return {"measures": [measure, then], "group_by": AREA, "having": [{"field": measure, "op": op, "value": value}],
            "totals": totals}


def rate(period, population="acs_2019_2023"):
    return {"measure": "homicide_rate", "period": period}, population


def areas(result):
    return [r["community_area"] for r in result["rows"]]


def approx(value):
    return pytest.approx(value, rel=1e-9, abs=1e-9)


# ------------------------------------------------------------------ the checks, by the reference's result keys

def set_sum(total_field):
    def check(result, expected):
        assert areas(result) == expected["areas"]
        assert result["totals"][total_field] == approx(expected["total"])
    return check


def each(value_field, count_field=None):
    def check(result, expected):
        assert areas(result) == expected["areas"]
        got = {r["community_area"]: r[value_field] for r in result["rows"]}
        assert got == {k: approx(v) for k, v in expected["values"].items()}
        if count_field:
            assert {r["community_area"]: r[count_field] for r in result["rows"]} == expected["homicides"]
    return check


def share(field, of_located=False):
    def check(result, expected):
        assert sorted(areas(result)) == expected["areas"]
        assert result["totals"][field] == expected["homicides"]
        assert result["totals"][f"{field}_city"] == expected["city_total"]
        assert result["totals"][f"{field}_share_of_city"] == approx(expected["share"] * 100)
    return check


def count_areas(result, expected):
    assert len(result["rows"]) == expected["n_areas"] and sorted(areas(result)) == expected["areas"]


def sum_over(field):
    def check(result, expected):
        count_areas(result, expected)
        assert result["totals"][field] == approx(expected["total"])
    return check


def top_change(value_field):
    def check(result, expected):
        [row] = result["rows"]
        assert row["community_area"] == expected["area"] and row["chg"] == expected["change"]
        assert row[value_field] == approx(expected["value"])
        assert sorted([row["community_area"]] + result["ties"]) == expected.get("tied", [expected["area"]])
    return check


def changes(result, expected):
    assert areas(result) == expected["areas"]
    assert {r["community_area"]: r["chg"] for r in result["rows"]} == expected["changes"]


def correlation(result, expected):
    assert result["correlation"]["pearson_r"] == approx(expected["r"])
    assert result["correlation"]["n"] == expected["n"]


def zip_top(result, expected):
    [row] = result["rows"]
    assert row["zip"] == expected["zip"] and row["home_value"] == approx(expected["value"])


def zip_values(result, expected):
    assert [r["zip"] for r in result["rows"]] == expected["zips"]
    assert {r["zip"]: r["home_value"] for r in result["rows"]} == {k: approx(v) for k, v in expected["values"].items()}


def zip_change(first, second):
    def check(result, expected):
        [row] = result["rows"]
        assert row["a"] == approx(expected[f"value_{first}"]) and row["b"] == approx(expected[f"value_{second}"])
        assert row["chg"] == approx(expected["change"]) and row["pct"] == approx(expected["pct_change"])
    return check


def zip_growth(result, expected):
    assert result["rows"][0]["zip"] == expected["zip"]
    assert result["rows"][0]["pct"] == approx(expected["pct_change"])


def zip_growth_count(result, expected):
    assert len([r for r in result["rows"] if r["pct"] is not None]) == expected["n_zips"]


def months(result, expected):
    [row] = result["rows"]
    assert (row["a"], row["b"], row["chg"]) == (expected["first"], expected["second"], expected["difference"])


def one_rate(result, expected):
    [row] = result["rows"]
    assert row.get("community_area", expected.get("area")) == expected.get("area", row.get("community_area"))
    assert row["homicide_rate"] == approx(expected["value"])


def top_rates(result, expected):
    assert areas(result) == expected["areas"]
    assert {r["community_area"]: r["homicide_rate"] for r in result["rows"]} == {
        k: approx(v) for k, v in expected["values"].items()}


def top_place(grain, field="homicides"):
    def check(result, expected):
        row = result["rows"][0]
        assert row[grain] == expected[grain] and row[field] == expected[field]
        for key, column in (("alderman", "alderperson"), ("address", "station_address"), ("zip", "station_zip"),
                            ("district_name", "station_name")):
            if key in expected and key != grain:
                assert row[column] == expected[key]
    return check


def district_counts(result, expected):
    assert {r["district"]: r["homicides"] for r in result["rows"]} == expected["counts"]
    assert result["rows"][0]["district"] == expected["top_district"]


def alderman(result, expected):
    [row] = result["rows"]
    assert row["alderperson"] == expected["alderman"]
    assert (row["ward_office_phone"] or None) == expected["ward_phone"]
    if "city_hall_phone" in expected:
        assert row["city_hall_phone"] == expected["city_hall_phone"]


def redfin_row(result, expected):
    [row] = result["rows"]
    shown = expected["median_sale_price"]  # "$563K"
    assert row["redfin_median_sale_price"] == float(shown.strip("$K").replace(",", "")) * 1000
    assert row["redfin_homes_sold"] == expected["homes_sold"]


def redfin_top(field, expected_field):
    def check(result, expected):
        row = result["rows"][0]
        assert row["redfin_neighborhood"] == expected["neighborhood"]
        assert row[field] == expected[expected_field]
    return check


def redfin_change(result, expected):
    [row] = result["rows"]
    assert (row["a"], row["b"], row["chg"]) == (expected["homes_sold_2018"], expected["homes_sold_2019"],
                                                expected["difference"])


def headline(result, expected):
    [row] = result["rows"]
    assert row["community_area"] == expected["area"] and row["homicide_rate"] == approx(expected["rate"])
    assert row["per_capita_income"] == expected["per_capita_income"]
    assert row["home_value"] == approx(expected["zhvi_2024_09"])


# ------------------------------------------------------------------ issue #40: what the nine tools answer

def holiday_years(result, expected):
    assert {r["year"]: r["homicides"] for r in result["rows"]} == expected["by_year"]


def one_total(result, expected):
    [row] = result["rows"]
    assert row["homicides"] == expected["total"]


def iucr_codes(result, expected):
    assert [r["iucr"] for r in result["rows"]] == expected["codes"]
    for r in result["rows"]:
        assert r["iucr_description"] == expected["descriptions"][r["iucr"]]
        assert r["iucr_index_code"] == expected["index_codes"][r["iucr"]]
        assert r["homicides"] == expected["homicides"][r["iucr"]]


def area_stations(result, expected):
    assert {r["community_area"]: r["station_address"] for r in result["rows"]} == expected["addresses"]


def headquarters(result, expected):
    [row] = result["rows"]
    assert (row["headquarters_address"], row["headquarters_zip"]) == (expected["address"], expected["zip"])


def trend_ranking(result, expected):
    assert areas(result) == expected["areas"]
    assert {r["community_area"]: r["chg"] for r in result["rows"]} == expected["changes"]


def median_incomes(result, expected):
    got = {r["community_area"]: r["median_household_income"] for r in result["rows"]}
    assert {k: got[k] for k in expected["areas"]} == {k: approx(v) for k, v in expected["areas"].items()}
    assert result["totals"]["median_household_income"] == approx(expected["city"])  # the 77 areas' summed bands


def growth(result, expected):
    assert areas(result) == expected["areas"]
    assert {r["community_area"]: r["pct"] for r in result["rows"]} == {k: approx(v) for k, v in expected["pct"].items()}


def zip_spread(result, expected):
    spread = result["spread"]["home_value"]  # with the mean and the lowest and highest members beside these
    assert {k: spread[k] for k in expected} == {k: approx(v) if k != "n" else v for k, v in expected.items()}


HOME_NOW = {"measure": "home_value", "period": {"month": "2024-09"}}
ISSUE_40 = {
    "hol_thanksgiving_by_year": ({"measures": ["homicides"], "group_by": ["year"],
                                  "filters": [{"dimension": "holiday", "in": ["thanksgiving"]}]}, holiday_years),
    "hol_memorial_day_weekend_2016_2020": ({"measures": ["homicides"], "period": {"years": [2016, 2018, 2020]},
                                            "filters": [{"dimension": "holiday", "in": ["memorial_day_weekend"]}]},
                                           one_total),
    "night_friday_saturday_2022": ({"measures": ["homicides"], "period": {"year": 2022}, "filters": [
        {"dimension": "night_weekday", "in": ["Friday", "Saturday"]}, {"dimension": "hour", "in": [22, 23, 0, 1, 2]}]},
        one_total),
    "iucr_homicide_codes": ({"measures": ["iucr_description", "iucr_index_code", "homicides"], "group_by": ["iucr"],
                             "filters": [{"dimension": "crime_type", "equals": "homicide"}]}, iucr_codes),
    "station_of_every_area": ({"measures": ["station_address"], "group_by": AREA}, area_stations),
    "police_headquarters": ({"measures": ["headquarters_address", "headquarters_zip"]}, headquarters),
    "trend_biggest_increase_2019_2021": ({"measures": [h(2019, "a"), h(2021, "b")], "group_by": AREA, "derived": [
        {"name": "chg", "op": "change", "of": ["a", "b"]}, {"name": "both", "op": "sum", "of": ["a", "b"]}],
        "having": [{"field": "both", "op": ">", "value": 0}], "order_by": ["chg"], "limit": 5}, trend_ranking),
    "median_income_estimates": ({"measures": ["median_household_income"], "group_by": AREA, "totals": True},
                                median_incomes),
    "population_growth_top5_pct": ({"measures": ["population_2010", "population"], "group_by": AREA, "derived": [
        {"name": "pct", "op": "pct_change", "of": ["population_2010", "population"]}], "order_by": ["pct"],
        "limit": 5}, growth),
    "home_value_change_since_2017": ({"measures": [
        {**HOME_NOW, "as": "now", "matched_with": "then"}, {"measure": "home_value", "period": {"year": 2017},
                                                             "as": "then"},
        {"measure": "home_value_coverage", "period": {"month": "2024-09"}}], "group_by": AREA,
        "derived": [{"name": "pct", "op": "pct_change", "of": ["then", "now"]}],
        "having": [{"field": "home_value_coverage", "op": ">=", "value": 0.2}], "order_by": ["pct"], "limit": 5},
        growth),
    "zip_value_spread_2024_09": ({"measures": [HOME_NOW], "group_by": ["zip"], "spread": ["home_value"]}, zip_spread),
}


def test_a_per_year_average_leaves_out_a_last_year_without_the_days_asked(registry, expected):
    """Thanksgiving 2001-2023: 2023's data end in July, so the average is over 22 Thanksgivings, not 23."""
    result = registry.run("query_data", {"measures": [{"measure": "homicides", "per_year": True}],
                                         "filters": [{"dimension": "holiday", "in": ["thanksgiving"]}]})
    assert result.ok, result.error
    assert result.values["rows"][0]["homicides"] == approx(expected["hol_thanksgiving_by_year"]["per_year"])


# ------------------------------------------------------------------ one query per case

def _with(query, **extra):
    return {**query, **extra}


HEADLINE_TAIL = ["per_capita_income", {"measure": "home_value", "period": {"month": "2024-09"}}]


def _headline(period):
    return {"measures": [{"measure": "homicide_rate", "period": period}] + HEADLINE_TAIL, "group_by": AREA,
            "order_by": [{"field": "homicide_rate"}], "limit": 1, "population": "acs_2019_2023"}


def _zip_pair(zip_code, first, second):
    return {"measures": [{"measure": "home_value", "period": {"month": first}, "as": "a"},
                         {"measure": "home_value", "period": {"month": second}, "as": "b"}],
            "group_by": ["zip"], "filters": [{"dimension": "zip", "in": [zip_code]}],
            "derived": [{"name": "chg", "op": "change", "of": ["a", "b"]},
                        {"name": "pct", "op": "pct_change", "of": ["a", "b"]}]}


def _months(first, second):
    return {"measures": [{"measure": "homicides", "period": {"month": first}, "as": "a"},
                         {"measure": "homicides", "period": {"month": second}, "as": "b"}],
            "derived": [{"name": "chg", "op": "change", "of": ["a", "b"]}]}


def _corr(a, b, population="acs_2019_2023"):
    return {"measures": [a, b], "group_by": AREA, "correlate": [_name(a), _name(b)], "population": population}


def _rank_rate(period, population, limit):
    return {"measures": [{"measure": "homicide_rate", "period": period}], "group_by": AREA,
            "order_by": ["homicide_rate"], "limit": limit, "population": population}


ZIP_GROWTH = _with(_zip_pair("60614", "2014-09", "2024-09"), filters=[], order_by=[{"field": "pct"}])
REDFIN_NOW = {"group_by": ["redfin_neighborhood"]}

QUERIES = {
    "rss_hardship_top10_homicides_2021": (ranked("hardship_index", h(2021)), set_sum("homicides")),
    "rss_income_bottom10_homicides_2019_2022": (ranked("per_capita_income", h(years=(2019, 2022)), "asc"),
                                                set_sum("homicides")),
    "rss_poverty_top5_homicides_all": (ranked("pct_households_below_poverty", h(), limit=5), set_sum("homicides")),
    "rss_income_top10_homicides_2020": (ranked("per_capita_income", h(2020)), set_sum("homicides")),
    "rss_population_top5_homicides_2022": (ranked("population", h(2022), limit=5), set_sum("homicides")),
    "rss_unemployment_top10_homicides_2016": (ranked("pct_unemployed", h(2016)), set_sum("homicides")),
    "rss_no_hs_top10_homicides_2018": (ranked("pct_without_diploma", h(2018)), set_sum("homicides")),
    "rss_hardship_bottom10_homicides_all": (ranked("hardship_index", h(), "asc"), set_sum("homicides")),
    "rss_hardship_top10_acs_population": (ranked("hardship_index", "population"), set_sum("population")),
    "rse_hardship_top5_homicides_2021_each": (ranked("hardship_index", h(2021), limit=5), each("homicides")),
    "rse_income_bottom5_hardship_each": (ranked("per_capita_income", "hardship_index", "asc", 5), each("hardship_index")),
    "rse_homicides_2021_top4_income_each": (ranked(h(2021), "per_capita_income", limit=4),
                                            each("per_capita_income", "homicides")),
    "rse_population_top5_zhvi_each": (ranked("population", {"measure": "home_value", "period": {"month": "2024-09"}},
                                             limit=5), each("home_value")),
    "rse_poverty_top5_acs_population_each": (ranked("pct_households_below_poverty", "population", limit=5),
                                             each("population")),
    "rse_crowded_top5_homicides_2019_2022_each": (ranked("pct_housing_crowded", h(years=(2019, 2022)), limit=5),
                                                  each("homicides")),
    "rse_homicides_all_top3_poverty_each": (ranked(h(), "pct_households_below_poverty", limit=3),
                                            each("pct_households_below_poverty", "homicides")),
    "ts_poverty30_share_2021": (threshold("pct_households_below_poverty", ">=", 30, h(2021)), share("homicides")),
    "ts_hardship70_share_all": (threshold("hardship_index", ">=", 70, h()), share("homicides")),
    "ts_income_under_20000_share_2022": (threshold("per_capita_income", "<", 20000, h(2022)), share("homicides")),
    "ts_unemployment20_share_2019_2022": (threshold("pct_unemployed", ">=", 20, h(years=(2019, 2022))),
                                          share("homicides")),
    "ts_count_poverty_at_least_30": (threshold("pct_households_below_poverty", ">=", 30, "population", False),
                                     count_areas),
    "ts_count_hardship_at_least_80": (threshold("hardship_index", ">=", 80, "population", False), count_areas),
    "ts_population_income_under_15000": (threshold("per_capita_income", "<", 15000, "population"),
                                         sum_over("population")),
    "ts_population2010_poverty_at_least_30": (threshold("pct_households_below_poverty", ">=", 30, "population_2010"),
                                              sum_over("population_2010")),
    "cr_biggest_drop_2021_2022_income": (change(2021, 2022, "per_capita_income"), top_change("per_capita_income")),
    "cr_biggest_rise_2019_2020_hardship": (change(2019, 2020, "hardship_index", "desc"), top_change("hardship_index")),
    "cr_top5_increases_2019_2021": (change(2019, 2021, order="desc", limit=5), changes),
    "cr_biggest_drop_2016_2017_acs_population": (change(2016, 2017, "population"), top_change("population")),
    "cr_biggest_drop_2016_2019_tie_hardship": (change(2016, 2019, "hardship_index"), top_change("hardship_index")),
    "cr_top5_drops_2021_2022": (change(2021, 2022, limit=5), changes),
    "cr_biggest_rise_2015_2016_poverty": (change(2015, 2016, "pct_households_below_poverty", "desc"),
                                          top_change("pct_households_below_poverty")),
    "corr_rate_2019_2022_vs_income": (_corr({"measure": "homicide_rate", "period": {"start": "2019", "end": "2022"}},
                                            "per_capita_income"), correlation),
    "corr_hardship_vs_homicides_2021": (_corr("hardship_index", h(2021)), correlation),
    "corr_poverty_vs_homicides_all": (_corr("pct_households_below_poverty", h()), correlation),
    "corr_unemployment_vs_rate_2021": (_corr("pct_unemployed", {"measure": "homicide_rate", "period": {"year": 2021}}),
                                       correlation),
    "corr_no_hs_vs_rate_2010_2014_pop2010": (_corr("pct_without_diploma", {
        "measure": "homicide_rate", "period": {"start": "2010", "end": "2014"}}, "census_2010"), correlation),
    "corr_income_vs_zhvi_2024_09": (_corr("per_capita_income", {"measure": "home_value",
                                                                "period": {"month": "2024-09"}}), correlation),
    "zg_max_2024_09": ({"measures": ["home_value"], "group_by": ["zip"], "period": {"month": "2024-09"},
                        "order_by": ["home_value"], "limit": 1}, zip_top),
    "zg_min_2024_09": ({"measures": ["home_value"], "group_by": ["zip"], "period": {"month": "2024-09"},
                        "order_by": [{"field": "home_value", "direction": "asc"}], "limit": 1}, zip_top),
    "zg_top5_2024_09": ({"measures": ["home_value"], "group_by": ["zip"], "period": {"month": "2024-09"},
                         "order_by": ["home_value"], "limit": 5}, zip_values),
    "zg_60614_2020_01_vs_2024_09": (_zip_pair("60614", "2020-01", "2024-09"), zip_change("2020_01", "2024_09")),
    "zg_60621_2019_12_vs_2024_09": (_zip_pair("60621", "2019-12", "2024-09"), zip_change("2019_12", "2024_09")),
    "zg_max_growth_2014_09_2024_09": (ZIP_GROWTH, lambda r, e: (zip_growth(r, e), zip_growth_count(r, e))),
    "tm_july_2020_vs_july_2021": (_months("2020-07", "2021-07"), months),
    "tm_jan_2022_vs_jan_2023": (_months("2022-01", "2023-01"), months),
    "tm_may_2021_vs_may_2022": (_months("2021-05", "2022-05"), months),
    "tm_june_2015_vs_june_2016": (_months("2015-06", "2016-06"), months),
    "tm_dec_2019_vs_dec_2020": (_months("2019-12", "2020-12"), months),
    "rp_austin_2021_acs": (_with(_rank_rate({"year": 2021}, "acs_2019_2023", 1),
                                 filters=[{"dimension": "community_area", "in": ["Austin"]}]), one_rate),
    "rp_englewood_2012_pop2010": (_with(_rank_rate({"year": 2012}, "census_2010", 1),
                                        filters=[{"dimension": "community_area", "in": [68]}]), one_rate),
    "rp_highest_rate_2021_acs": (_rank_rate({"year": 2021}, "acs_2019_2023", 1), one_rate),
    "rp_highest_rate_2010_pop2010": (_rank_rate({"year": 2010}, "census_2010", 1), one_rate),
    "rp_city_rate_2022_acs": ({"measures": [{"measure": "homicide_rate", "period": {"year": 2022}}],
                               "population": "acs_2019_2023"}, one_rate),
    "rp_top5_rate_2019_2022_acs": (_rank_rate({"start": "2019", "end": "2022"}, "acs_2019_2023", 5), top_rates),
    "wd_top_ward_2021": ({"measures": [h(2021)], "group_by": ["ward"], "order_by": ["homicides"], "limit": 1},
                         top_place("ward")),
    "wd_district_counts_2020": ({"measures": [h(2020)], "group_by": ["district"], "order_by": ["homicides"]},
                                district_counts),
    "wd_top_district_2022_station": ({"measures": [h(2022), "station_name", "station_address", "station_zip"],
                                      "group_by": ["district"], "order_by": ["homicides"], "limit": 1},
                                     top_place("district")),
    "wd_alderman_ward_42": ({"measures": ["alderperson", "ward_office_phone", "city_hall_phone"], "group_by": ["ward"],
                             "filters": [{"dimension": "ward", "in": [42]}]}, alderman),
    "wd_alderman_ward_1_phone": ({"measures": ["alderperson", "ward_office_phone"], "group_by": ["ward"],
                                  "filters": [{"dimension": "ward", "equals": "1st"}]}, alderman),
    "wd_top_ward_2022_alderman": ({"measures": [h(2022), "alderperson"], "group_by": ["ward"],
                                   "order_by": ["homicides"], "limit": 1}, top_place("ward")),
    "rf_lincoln_park_latest": (_with(REDFIN_NOW, measures=["redfin_median_sale_price", "redfin_homes_sold"],
                                     filters=[{"dimension": "redfin_neighborhood", "in": ["Lincoln Park"]}]),
                               redfin_row),
    "rf_most_sold_90d_ending_2019_06_30": (_with(REDFIN_NOW, measures=["redfin_homes_sold"],
                                                 period={"start": "2019-06-30", "end": "2019-06-30"},
                                                 order_by=["redfin_homes_sold"], limit=1),
                                           redfin_top("redfin_homes_sold", "homes_sold")),
    "rf_logan_square_2018_12_31": (_with(REDFIN_NOW, measures=["redfin_median_sale_price", "redfin_homes_sold"],
                                         period={"month": "2018-12"},
                                         filters=[{"dimension": "redfin_neighborhood", "in": ["logan square"]}]),
                                   redfin_row),
    "rf_city_month_2019_10": ({"measures": ["redfin_median_sale_price", "redfin_homes_sold"],
                               "period": {"month": "2019-10"}}, redfin_row),
    "rf_hyde_park_sept_2018_vs_2019": (_with(REDFIN_NOW, measures=[
        {"measure": "redfin_homes_sold", "period": {"month": "2018-09"}, "as": "a"},
        {"measure": "redfin_homes_sold", "period": {"month": "2019-09"}, "as": "b"}],
        filters=[{"dimension": "redfin_neighborhood", "in": ["Hyde Park"]}],
        derived=[{"name": "chg", "op": "change", "of": ["a", "b"]}]), redfin_change),
    "rf_highest_median_price_latest": (_with(REDFIN_NOW, measures=["redfin_median_sale_price"],
                                             order_by=["redfin_median_sale_price"], limit=1),
                                       redfin_top("redfin_median_sale_price", "value")),
    "hl_rate_2019_2022": (_headline({"start": "2019", "end": "2022"}), headline),
    "hl_rate_2021": (_headline({"year": 2021}), headline),
    "hl_rate_2022": (_headline({"year": 2022}), headline),
    "hl_rate_2020": (_headline({"year": 2020}), headline),
    **ISSUE_40,
}
CASES = {case["id"]: case for case in ref.CASES}


def test_every_reference_case_has_a_query():
    assert set(QUERIES) == set(CASES)
    assert len(QUERIES) >= 40
    kinds = {case["kind"] for case in ref.CASES}
    assert {"ranking_set_sum", "ranking_set_each", "threshold_share", "change_rank", "correlation", "zip_grain",
            "two_months", "rate_population", "headline"} <= kinds


@pytest.fixture(scope="module")
def expected():
    return {case_id: case["expected"]() for case_id, case in CASES.items()}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return build_app(tmp_path_factory.mktemp("composed")).test_client()


@pytest.mark.parametrize("case_id", sorted(QUERIES))
def test_composed_query_through_the_tool(registry, expected, case_id):
    query, check = QUERIES[case_id]
    result = registry.run("query_data", query)
    assert result.ok, result.error
    check(result.values, expected[case_id])


@pytest.mark.parametrize("case_id", sorted(QUERIES))
def test_composed_query_through_the_api(client, expected, case_id):
    query, check = QUERIES[case_id]
    resp = client.post("/api/query", data=json.dumps(query), content_type="application/json")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    check(resp.get_json()["result"], expected[case_id])
