"""query_property_values against values recomputed by hand from the raw CSVs (ZHVI, ZIP crosswalk,
IHS quarterly index and IHS summary) with pandas.read_csv / csv (never the tool's code)."""
import csv

import pandas as pd
import pytest

TOOL = "query_property_values"


@pytest.fixture(scope="module")
def zhvi(data_dir):
    df = pd.read_csv(data_dir / "property_zhvi_zip_monthly.csv", dtype={"RegionName": str})
    df["zip"] = df["RegionName"].str.zfill(5)
    return df


@pytest.fixture(scope="module")
def crosswalk(data_dir):
    return pd.read_csv(data_dir / "community_area_zip_crosswalk.csv", dtype={"zip": str})


@pytest.fixture(scope="module")
def ihs(data_dir):
    """{series code or name: {yearq: value}} from the two-header-row quarterly file."""
    with open(data_dir / "property_ihs_price_index_quarterly.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    codes, names = rows[0], rows[1]
    out = {}
    for col in range(1, len(codes)):
        key = codes[col] or names[col]
        out[key] = {row[0]: float(row[col]) for row in rows[2:] if row[col]}
    return out


@pytest.fixture(scope="module")
def summary(data_dir):
    with open(data_dir / "property_ihs_price_index_summary_2025q4.csv", newline="") as fh:
        return {row["Number"]: row for row in csv.DictReader(fh)}


def zip_value(zhvi, zip_code, year, month=None):
    rows = zhvi[(zhvi["zip"] == zip_code) & (zhvi["Year"] == year)]
    if month is not None:
        rows = rows[rows["Month"] == month]
    values = rows["price"].dropna()
    return None if values.empty else float(values.mean())


def area_value(zhvi, crosswalk, number, year, month=None):
    """Hand computation: ZIP values weighted by share_of_community_area over ZIPs that have one."""
    num = den = 0.0
    for row in crosswalk[crosswalk["area_number"] == number].itertuples():
        value = zip_value(zhvi, row.zip, year, month)
        if value is not None:
            num += row.share_of_community_area * value
            den += row.share_of_community_area
    return num / den if den else None


def run(registry, **args):
    return registry.run(TOOL, args)


def test_zip_60614_latest_value(registry, zhvi):
    result = run(registry, zip="60614", metric="home_value")
    assert result.ok, result.error
    raw = zip_value(zhvi, "60614", 2024, 9)
    assert result.values["home_value"] == round(raw) == 550856
    assert result.values["home_value_period"] == "2024-09"
    assert "$550,856" in result.text
    assert result.values["community_areas"][0]["community_area"] == 7
    assert [s["key"] for s in result.sources] == ["zhvi", "zip_crosswalk"]
    assert result.values["method"]


@pytest.mark.parametrize("number", [7, 25, 8])
@pytest.mark.full_data
def test_area_value_is_the_weighted_mean_of_its_zips(registry, zhvi, crosswalk, number):
    result = run(registry, community_area=number, metric="home_value")
    assert result.ok
    expected = area_value(zhvi, crosswalk, number, 2024, 9)
    assert abs(result.values["home_value"] - expected) <= 1
    weights = {z["zip"]: z["weight"] for z in result.values["zips"]}
    assert abs(sum(weights.values()) - 1) < 0.01
    shares = crosswalk[crosswalk["area_number"] == number].set_index("zip")["share_of_community_area"]
    assert set(weights) | set(result.values["zips_without_values"]) == set(shares.index)
    assert "weight" in result.values["method"] or "weighted" in result.values["method"]


def test_missing_zip_is_reported(registry):
    result = run(registry, community_area="Austin", metric="home_value")
    assert "60707" in result.values["zips_without_values"]
    assert "60707" in result.text
    east_side = run(registry, community_area="East Side", metric="home_value")
    assert east_side.ok and east_side.values["home_value"] is None
    assert "60617" in east_side.values["zips_without_values"]
    assert any("60617" in c for c in east_side.caveats)


@pytest.mark.full_data
def test_year_is_the_annual_average(registry, zhvi, crosswalk):
    result = run(registry, community_area=7, metric="home_value", year=2015)
    assert result.values["home_value_period"] == "2015 average"
    assert abs(result.values["home_value"] - area_value(zhvi, crosswalk, 7, 2015)) <= 1


def test_partial_year_uses_latest_month(registry, zhvi):
    result = run(registry, zip="60614", metric="home_value", year=2024)
    assert result.values["home_value_period"] == "2024-09"
    assert result.values["home_value"] == round(zip_value(zhvi, "60614", 2024, 9))
    assert any("partial" in c for c in result.caveats)


@pytest.mark.full_data
def test_change_since_year(registry, zhvi):
    result = run(registry, zip="60614", metric="home_value", since_year=2015)
    then = zip_value(zhvi, "60614", 2015)
    now = zip_value(zhvi, "60614", 2024, 9)
    assert result.values["home_value_since"] == round(then)
    assert result.values["home_value_change_pct"] == round(100 * (now / then - 1), 1)


def test_ihs_city_and_submarket_levels(registry, ihs, summary):
    city = run(registry, metric="price_trend")
    assert city.ok
    assert city.values["price_index"] == ihs["CHICAGO"]["2025Q4"] == 275.0
    assert city.values["price_index_quarter"] == "2025Q4"
    assert city.chart["type"] == "line"
    assert [s["key"] for s in city.sources] == ["ihs_index", "submarket_crosswalk"]
    for area in ("Lake View", "Lincoln Park"):
        result = run(registry, community_area=area, metric="price_trend")
        assert result.values["price_index"] == ihs["p3154"]["2025Q4"] == 231.0
        assert result.values["submarket_code"] == "p3154"
        assert f"{float(summary['p3154']['Change Since 2000'].rstrip('%')):.1f}" == \
            f"{result.values['price_index_change_pct']:.1f}"
        assert result.values["price_index_yoy_pct"] == float(summary["p3154"]["Year-over-year change"].rstrip("%"))
        assert result.chart["type"] == "line"
        assert result.values["method"]


def test_price_trend_since_year(registry, ihs):
    result = run(registry, community_area="Englewood", metric="price_trend", since_year=2010, year=2020)
    code = result.values["submarket_code"]
    expected = round(100 * (ihs[code]["2020Q4"] / ihs[code]["2010Q1"] - 1), 1)
    assert result.values["price_index_change_pct"] == expected
    assert result.values["price_index_quarter"] == "2020Q4"


def test_central_puma_falls_back_to_chicago(registry, ihs):
    result = run(registry, community_area="Loop", metric="price_trend")
    assert result.ok
    assert result.values["price_index_fallback"] is True
    assert result.values["price_index"] == ihs["CHICAGO"]["2025Q4"]
    assert any("p3160" in c for c in result.caveats)


@pytest.mark.full_data
def test_home_value_ranking(registry, zhvi, crosswalk):
    result = run(registry, top_n=5, metric="home_value")
    rows = result.values["rows"]
    assert len(rows) == 5 and result.chart["type"] == "bar"
    values = [r["home_value"] for r in rows]
    assert values == sorted(values, reverse=True)
    best = max((area_value(zhvi, crosswalk, n, 2024, 9) or 0, n) for n in range(1, 78))
    assert rows[0]["community_area"] == best[1]
    assert abs(rows[0]["home_value"] - best[0]) <= 1


def test_price_trend_ranking_is_by_submarket(registry):
    result = run(registry, top_n=3, metric="price_trend")
    assert result.ok
    rows = result.values["rows"]
    assert all(r["community_areas"] for r in rows)
    changes = [r["price_index_change_pct"] for r in rows]
    assert changes == sorted(changes, reverse=True)


def test_comparison(registry, zhvi, crosswalk):
    result = run(registry, community_area="Austin", compare_areas=["Lincoln Park"])
    rows = result.values["rows"]
    assert [r["community_area"] for r in rows] == [25, 7]
    assert abs(rows[1]["home_value"] - area_value(zhvi, crosswalk, 7, 2024, 9)) <= 1
    assert "price_index" in rows[0]
    assert len(result.text) <= 1500


@pytest.mark.parametrize("args,code,needle", [
    ({"year": 1995}, "out_of_range", "2000-01"),
    ({"year": 2030}, "out_of_range", "2024-09"),
    ({"year": 1995, "metric": "price_trend"}, "out_of_range", "1997Q1"),
    ({"year": 2030, "metric": "price_trend"}, "out_of_range", "2025Q4"),
    ({"year": "abc"}, "invalid_argument", "whole number"),
    ({"since_year": 2024, "year": 2020, "metric": "home_value"}, "out_of_range", "since_year"),
    ({"zip": "99999"}, "unknown_zip", "Chicago ZIP"),
    ({"zip": "60617"}, "no_data", "60617"),
    ({"zip": "60614", "community_area": 7}, "conflicting_arguments", "zip"),
    ({"community_area": 999}, "unknown_area", "1 to 77"),
    ({"community_area": "Gotham"}, "unknown_area", "community area"),
    ({"metric": "rent"}, "invalid_choice", "home_value"),
])
@pytest.mark.full_data
def test_bad_arguments_are_explained(registry, args, code, needle):
    result = run(registry, **args)
    assert not result.ok
    assert result.error["code"] == code
    assert needle in result.error["message"]


def test_caveats_name_the_approximations(registry):
    result = run(registry, community_area=7)
    text = " ".join(result.caveats)
    assert "not a sale price" in text and "land-area" in text and "not a price level" in text


def test_city_wide_home_values_name_the_extremes(registry):
    result = run(registry, metric="home_value")
    assert result.ok and result.values["scope"] == "city"
    top = run(registry, metric="home_value", top_n=1).values["rows"][0]
    assert result.values["extremes"]["home_value"]["highest"]["community_area"] == top["community_area"]
    assert result.values["home_value_zip_max"] >= top["home_value"]


def test_long_rankings_stay_within_the_text_limit(registry):
    result = run(registry, top_n=77)
    assert result.ok and len(result.text) <= 1500
    assert result.values["left_out"]  # areas without enough ZIP coverage are named, not silently dropped
    assert len(result.values["rows"]) + len(result.values["left_out"]) == 77


# ------------------------------------------------------------------ one month ("YYYY-MM" or "latest")

def test_zip_value_in_a_month(registry, zhvi):
    raw = zhvi[(zhvi["zip"] == "60614") & (zhvi["Year"] == 2021) & (zhvi["Month"] == 6)]["price"].iloc[0]
    result = registry.run(TOOL, {"zip": "60614", "month": "2021-06", "metric": "home_value"})
    assert result.ok, result.error
    assert result.values["home_value"] == round(raw) and result.values["home_value_period"] == "2021-06"
    assert result.summary == f"ZIP 60614: typical home value ${round(raw):,} in June 2021 (Zillow ZHVI)"


def test_area_value_in_a_month_and_its_quarter(registry, zhvi, crosswalk, ihs):
    result = registry.run(TOOL, {"community_area": "Lincoln Park", "month": "2020-3"})
    assert result.values["home_value"] == round(area_value(zhvi, crosswalk, 7, 2020, 3))
    assert "in March 2020 (Zillow ZHVI)" in result.summary
    # the price index ends in the month's quarter: Lincoln Park is in Lake View/Lincoln Park (p3154)
    assert result.values["price_index_quarter"] == "2020Q1"
    assert result.values["price_index"] == round(ihs["p3154"]["2020Q1"], 1)


def test_latest_month(registry, zhvi):
    dated = zhvi.dropna(subset=["price"])
    last = dated[["Year", "Month"]].drop_duplicates().sort_values(["Year", "Month"]).iloc[-1]
    label = f"{last['Year']}-{last['Month']:02d}"
    raw = dated[(dated["zip"] == "60621") & (dated["Year"] == last["Year"]) & (dated["Month"] == last["Month"])]
    result = registry.run(TOOL, {"zip": "60621", "month": "latest", "metric": "home_value"})
    assert result.values["home_value_period"] == label == "2024-09"
    assert result.values["home_value"] == round(raw["price"].iloc[0]) == 116744
    assert f"latest month in the data: {label}" in result.summary


@pytest.mark.parametrize("month", ["1999-12", "2024-10", "2030-01"])
def test_month_outside_the_data_names_the_first_and_last_month(registry, zhvi, month):
    dated = zhvi.dropna(subset=["price"])
    first = f"{dated['Year'].min()}-{dated[dated['Year'] == dated['Year'].min()]['Month'].min():02d}"
    result = registry.run(TOOL, {"zip": "60614", "month": month})
    assert not result.ok and result.error["code"] == "out_of_range"
    assert first in result.error["message"] and "2024-09" in result.error["message"]


@pytest.mark.parametrize("month", ["June 2021", "2021-13", "21-06"])
def test_bad_month_format(registry, month):
    result = registry.run(TOOL, {"month": month})
    assert not result.ok and "YYYY-MM" in result.error["message"]


def test_month_and_year_must_agree(registry):
    assert registry.run(TOOL, {"zip": "60614", "month": "2021-06", "year": 2021}).ok
    assert registry.run(TOOL, {"zip": "60614", "month": "2021-06", "year": 2020}).error["code"] == "conflicting_arguments"


# ------------------------------------------------------------------ IHS submarkets by name

@pytest.fixture(scope="module")
def submarket_crosswalk(data_dir):
    return pd.read_csv(data_dir / "community_area_ihs_submarket_crosswalk.csv")


@pytest.mark.parametrize("name, code", [("lake view/lincoln park", "p3154"), ("Lincoln Park", "p3154"),
                                        ("Chicago--Englewood/Greater Grand Crossing", "p3165"), ("P3158", "p3158")])
def test_submarket_by_name(registry, ihs, submarket_crosswalk, name, code):
    result = registry.run(TOOL, {"submarket": name})
    assert result.ok, result.error
    last = max(ihs[code])
    assert result.values["submarket_code"] == code and result.values["price_index_quarter"] == last
    assert result.values["price_index"] == round(ihs[code][last], 1)
    assert result.values["price_index_change_pct"] == round(100 * (ihs[code][last] / ihs[code]["2000Q1"] - 1), 1)
    covered = submarket_crosswalk[submarket_crosswalk["submarket_code"] == code]
    assert sorted(a["community_area"] for a in result.values["community_areas"]) == sorted(covered["area_number"])
    title_names = [a["name"] for a in result.values["community_areas"]]
    assert all(n in result.summary for n in title_names)
    assert result.values["submarket_name"] in result.summary


def test_submarket_spot_check_and_year(registry, ihs):
    assert registry.run(TOOL, {"submarket": "Englewood/Greater Grand Crossing"}).values["price_index"] == 315.2
    result = registry.run(TOOL, {"submarket": "austin/north lawndale", "year": 2019, "since_year": 2010})
    assert result.values["price_index"] == round(ihs["p3158"]["2019Q4"], 1)
    assert result.values["price_index_since"] == round(ihs["p3158"]["2010Q1"], 1)


def test_unknown_submarket_lists_the_valid_names(registry, ihs):
    result = registry.run(TOOL, {"submarket": "Gold Coast"})
    assert not result.ok
    chicago = [key for key in ihs if key.startswith("p31") and key != "p3160"]
    assert len(chicago) >= 16
    with open(registry.data.data_dir / "property_ihs_price_index_quarterly.csv") as fh:
        codes, names = fh.readline().rstrip("\n").split(","), fh.readline().rstrip("\n").split(",")
    for code, name in zip(codes, names):
        if name.startswith("Chicago--"):
            assert name.removeprefix("Chicago--") in result.error["message"]


def test_submarket_conflicts(registry):
    assert registry.run(TOOL, {"submarket": "Lincoln Park", "zip": "60614"}).error["code"] == "conflicting_arguments"
    assert not registry.run(TOOL, {"submarket": "Lincoln Park", "metric": "home_value"}).ok
