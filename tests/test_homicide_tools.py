"""Homicide tools checked against figures computed independently from the raw CSV files.

The expected numbers come from plain ``pandas.read_csv`` on /work/shared/data (or CHIQA_DATA_DIR),
never from the loader or the tools' own helpers, and every call goes through ``registry.run``.
"""
import math

import numpy as np
import pandas as pd
import pytest

from tools.catalog import build_registry
from tools.data.loader import DataBundle

# ------------------------------------------------------------------ independent raw figures

@pytest.fixture(scope="module")
def raw(data_dir):
    df = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    when = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p")
    out = pd.DataFrame({
        "day": when.dt.normalize(),
        "hour": when.dt.hour,
        "year": df["Date"].str[6:10].astype(int),
        "month": df["Date"].str[0:2].astype(int),
        "arrest": df["Arrest"] == "True",
        "domestic": df["Domestic"] == "True",
        "location": df["Location Description"].fillna(""),
        "district": pd.to_numeric(df["District"], errors="coerce"),
        "ward": pd.to_numeric(df["Ward"], errors="coerce"),
        "area": pd.to_numeric(df["Community Area"], errors="coerce"),
    })
    return out


@pytest.fixture(scope="module")
def pop2010(data_dir):
    df = pd.read_csv(data_dir / "census_population_2010.csv")
    return dict(zip(df["NID"], df["POP2010"]))


@pytest.fixture(scope="module")
def acs_pop(data_dir):
    areas = pd.read_csv(data_dir / "community_areas.csv")
    acs = pd.read_csv(data_dir / "census_acs.csv")
    number = dict(zip(areas["community"], areas["area_number"]))
    return {number[name]: pop for name, pop in zip(acs["community_area"], acs["total_population"])}


@pytest.fixture(scope="module")
def socio(data_dir):
    df = pd.read_csv(data_dir / "socioeconomic.csv")
    df.columns = [c.strip() for c in df.columns]
    return df[df["Community Area Number"].notna()].set_index("Community Area Number")


def run_ok(registry, name, args):
    result = registry.run(name, args)
    assert result.ok, result.error
    assert len(result.text) <= 1500
    assert result.summary and "\n" not in result.summary
    assert result.sources and result.caveats
    return result


def run_err(registry, name, args, *needles):
    result = registry.run(name, args)
    assert not result.ok, f"{name}({args}) should have failed"
    message = result.error["message"]
    for needle in needles:
        assert needle.lower() in message.lower(), message
    return message


# ------------------------------------------------------------------ query_homicides_advanced

Q = "query_homicides_advanced"


def test_all_four_tools_and_iucr_registered(registry):
    for name in (Q, "get_iucr_info", "analyze_homicide_rates_by_community_area",
                 "analyze_homicide_socioeconomic_context", "compare_homicide_district_trends"):
        assert registry.get(name) is not None
        assert len(registry.get(name).description) < 300


@pytest.mark.full_data
def test_total_2022_is_717(registry, raw):
    expected = int((raw["year"] == 2022).sum())
    assert expected == 717
    res = run_ok(registry, Q, {"start_year": 2022, "end_year": 2022})
    assert res.values["total"] == 717
    assert "717" in res.text
    assert [s["key"] for s in res.sources] == ["homicides"]


@pytest.mark.full_data
def test_year_shortcut_and_string_year(registry):
    a = registry.run(Q, {"year": 2022})
    b = registry.run(Q, {"start_year": "2022", "end_year": "2022"})
    assert a.values["total"] == b.values["total"] == 717


@pytest.mark.full_data
def test_full_range_total(registry, raw):
    res = run_ok(registry, Q, {})
    assert res.values["total"] == len(raw) == 12657
    assert "12,657" in res.text
    assert any("partial" in c for c in res.caveats)
    assert any("0110" in c for c in res.caveats)


def test_district_11_in_2022(registry, raw):
    expected = int(((raw["year"] == 2022) & (raw["district"] == 11)).sum())
    res = run_ok(registry, Q, {"year": 2022, "district": 11})
    assert res.values["total"] == expected
    assert res.values["filters"]["district"] == 11


def test_arrest_rate_2020(registry, raw):
    sel = raw[raw["year"] == 2020]
    expected = round(100 * sel["arrest"].mean(), 1)
    res = run_ok(registry, Q, {"year": 2020})
    assert res.values["arrest_rate_pct"] == expected
    assert res.values["arrests"] == int(sel["arrest"].sum())
    assert f"{expected:.1f}%" in res.text


def test_arrest_status_filter(registry, raw):
    sel = raw[raw["year"] == 2019]
    yes = run_ok(registry, Q, {"year": 2019, "arrest_status": "arrested"})
    no = run_ok(registry, Q, {"year": 2019, "arrest_status": "NOT_ARRESTED"})
    assert yes.values["total"] == int(sel["arrest"].sum())
    assert no.values["total"] == int((~sel["arrest"]).sum())


def test_ward_filter(registry, raw):
    expected = int(((raw["year"] >= 2018) & (raw["year"] <= 2020) & (raw["ward"] == 28)).sum())
    res = run_ok(registry, Q, {"start_year": 2018, "end_year": 2020, "ward": 28})
    assert res.values["total"] == expected
    assert any("ward map" in c for c in res.caveats)


def test_location_type_street_case_insensitive(registry, raw):
    expected = int((raw["location"].str.upper() == "STREET").sum())
    res = run_ok(registry, Q, {"location_type": "street"})
    assert res.values["total"] == expected
    assert res.values["filters"]["location_type"] == "STREET"


def test_domestic_count(registry, raw):
    sel = raw[(raw["year"] >= 2010) & (raw["year"] <= 2015)]
    res = run_ok(registry, Q, {"start_year": 2010, "end_year": 2015, "domestic": True})
    assert res.values["total"] == int(sel["domestic"].sum())
    res = run_ok(registry, Q, {"start_year": 2010, "end_year": 2015, "domestic": "false"})
    assert res.values["total"] == int((~sel["domestic"]).sum())


def test_community_area_by_name_and_number(registry, raw):
    expected = int(((raw["year"] == 2021) & (raw["area"] == 25)).sum())
    by_name = run_ok(registry, Q, {"year": 2021, "community_area": "Austin"})
    by_number = run_ok(registry, Q, {"year": 2021, "community_area": 25})
    assert by_name.values["total"] == by_number.values["total"] == expected


@pytest.mark.parametrize("year", [2016, 2022])
def test_top_community_area(registry, raw, year):
    counts = raw[raw["year"] == year].groupby("area").size().sort_values(ascending=False)
    res = run_ok(registry, Q, {"year": year, "group_by": "community_area", "top_n": 5})
    top = res.values["breakdown"][0]
    assert top["community_area"] == int(counts.index[0])
    assert top["homicides"] == int(counts.iloc[0])
    assert isinstance(top["name"], str) and top["name"]
    assert len(res.values["breakdown"]) == 5
    assert res.chart["type"] == "bar"
    assert res.table["columns"][:4] == ["rank", "community_area", "name", "homicides"]


def test_group_by_district_with_ascending_order(registry, raw):
    counts = raw[raw["year"] == 2022].groupby("district").size()
    res = run_ok(registry, Q, {"year": 2022, "group_by": "district", "sort_order": "asc", "top_n": 22})
    rows = res.values["breakdown"]
    assert rows[0]["homicides"] == int(counts.min())
    assert {r["district"]: r["homicides"] for r in rows} == {int(k): int(v) for k, v in counts.items()}
    assert [r["homicides"] for r in rows] == sorted(r["homicides"] for r in rows)


def test_group_by_year_is_time_series(registry, raw):
    counts = raw[(raw["year"] >= 2015) & (raw["year"] <= 2022)].groupby("year").size()
    res = run_ok(registry, Q, {"start_year": 2015, "end_year": 2022, "group_by": "year"})
    assert [r["year"] for r in res.values["breakdown"]] == list(range(2015, 2023))
    assert {r["year"]: r["homicides"] for r in res.values["breakdown"]} == {int(k): int(v) for k, v in counts.items()}
    assert res.chart["type"] == "line" and res.chart["x"] == "year"
    assert res.values["peak"]["year"] == int(counts.idxmax())


@pytest.mark.full_data
def test_group_by_month_single_year_is_year_month(registry, raw):
    counts = raw[raw["year"] == 2021].groupby("month").size()
    res = run_ok(registry, Q, {"year": 2021, "group_by": "month"})
    assert res.values["month_mode"] == "year_month"
    assert [r["year_month"] for r in res.values["breakdown"]][:2] == ["2021-01", "2021-02"]
    assert [r["homicides"] for r in res.values["breakdown"]] == [int(counts[m]) for m in range(1, 13)]


def test_group_by_month_over_years_is_calendar_month(registry, raw):
    counts = raw[(raw["year"] >= 2010) & (raw["year"] <= 2012)].groupby("month").size()
    res = run_ok(registry, Q, {"start_year": 2010, "end_year": 2012, "group_by": "month"})
    assert res.values["month_mode"] == "calendar_month"
    assert [r["homicides"] for r in res.values["breakdown"]] == [int(counts[m]) for m in range(1, 13)]


def test_group_by_location_type(registry, raw):
    counts = raw[raw["year"] == 2022]["location"].str.upper().value_counts()
    res = run_ok(registry, Q, {"year": 2022, "group_by": "location_type", "top_n": 3})
    top = res.values["breakdown"][0]
    assert (top["location_type"], top["homicides"]) == (counts.index[0], int(counts.iloc[0]))


def test_group_by_arrest_and_domestic(registry, raw):
    sel = raw[raw["year"] == 2018]
    res = run_ok(registry, Q, {"year": 2018, "group_by": "domestic"})
    by = {r["domestic"]: r["homicides"] for r in res.values["breakdown"]}
    assert by == {True: int(sel["domestic"].sum()), False: int((~sel["domestic"]).sum())}
    res = run_ok(registry, Q, {"year": 2018, "group_by": "arrest"})
    assert {r["arrest"]: r["homicides"] for r in res.values["breakdown"]}[True] == int(sel["arrest"].sum())


@pytest.mark.full_data
def test_geography_breakdown_reports_missing_rows(registry, raw):
    missing = int(raw[raw["year"] == 2001]["area"].isna().sum())
    assert missing > 0
    res = run_ok(registry, Q, {"year": 2001, "group_by": "community_area"})
    assert res.values["missing_geography"] == missing
    assert any(f"{missing:,}" in c and "community area" in c for c in res.caveats)
    assert sum(r["homicides"] for r in res.values["breakdown"]) <= res.values["total"] - missing


@pytest.mark.full_data
def test_empty_result_is_explicit(registry):
    res = run_ok(registry, Q, {"year": 2022, "ward": 42, "location_type": "CTA BUS"})
    assert res.values["total"] == 0
    assert res.text.startswith("0 homicides matched")
    assert res.summary.startswith("0 homicides matched")


@pytest.mark.parametrize("args,needles", [
    ({"ward": 99}, ["1", "50"]),
    ({"ward": 0}, ["1", "50"]),
    ({"district": 13}, ["13", "merged"]),
    ({"district": 21}, ["21"]),
    ({"community_area": 999}, ["1 to 77"]),
    ({"community_area": "Austn"}, ["Austin"]),
    ({"community_area": "Atlantis"}, ["77"]),
    ({"start_year": 1995}, ["2001-01-01", "2023-07-19"]),
    ({"end_year": 2030}, ["2001-01-01", "2023-07-19"]),
    ({"year": 1995}, ["2001-01-01"]),
    ({"start_year": 2020, "end_year": 2010}, ["after"]),
    ({"start_year": "abc"}, ["whole number"]),
    ({"group_by": "day_of_year"}, ["year", "weekday", "hour", "community_area", "location_type"]),
    ({"sort_order": "up"}, ["desc", "asc"]),
    ({"arrest_status": "maybe"}, ["arrested", "not_arrested"]),
    ({"location_type": "SPACESHIP"}, ["STREET", "APARTMENT"]),
    ({"year": 2020, "start_year": 2019}, ["year"]),
    ({"colour": "red"}, ["valid arguments"]),
])
@pytest.mark.full_data
def test_bad_arguments(registry, args, needles):
    run_err(registry, Q, args, *needles)


# ------------------------------------------------------------------ rates per 100k

R = "analyze_homicide_rates_by_community_area"


def test_rate_single_year_acs(registry, raw, acs_pop):
    count = int(((raw["year"] == 2022) & (raw["area"] == 25)).sum())
    expected = round(count / acs_pop[25] * 1e5, 1)
    res = run_ok(registry, R, {"year": 2022, "community_area": "Austin"})
    row = res.values["breakdown"][0]
    assert (row["community_area"], row["homicides"], row["rate_per_100k"]) == (25, count, expected)
    assert "ACS" in res.values["population_vintage"] and "ACS" in res.text
    assert {s["key"] for s in res.sources} == {"homicides", "census_acs"}


def test_rate_single_year_2010_census(registry, raw, pop2010):
    count = int(((raw["year"] == 2012) & (raw["area"] == 68)).sum())
    expected = round(count / pop2010[68] * 1e5, 1)
    res = run_ok(registry, R, {"year": 2012, "community_area": "Englewood"})
    assert res.values["breakdown"][0]["rate_per_100k"] == expected
    assert res.values["population_vintage"] == "2010 census"
    assert {s["key"] for s in res.sources} == {"homicides", "population_2010"}


def test_rate_range_is_annual_average(registry, raw, pop2010):
    sel = raw[(raw["year"] >= 2008) & (raw["year"] <= 2012)]
    count = int((sel["area"] == 26).sum())
    expected = round(count / 5 / pop2010[26] * 1e5, 1)
    res = run_ok(registry, R, {"start_year": 2008, "end_year": 2012, "community_area": 26})
    assert res.values["breakdown"][0]["rate_per_100k"] == expected
    assert res.values["years"] == 5
    assert "annual average" in res.values["rate_basis"] and "annual average" in res.text


def test_rate_ranking_top_area(registry, raw, acs_pop):
    counts = raw[raw["year"] == 2021].groupby("area").size()
    rates = {int(a): counts.get(float(a), 0) / acs_pop[a] * 1e5 for a in acs_pop}
    best = max(rates, key=rates.get)
    res = run_ok(registry, R, {"year": 2021, "top_n": 5})
    rows = res.values["breakdown"]
    assert rows[0]["community_area"] == best
    assert rows[0]["rate_rank"] == 1
    assert len(rows) == 5
    assert [r["rate_per_100k"] for r in rows] == sorted((r["rate_per_100k"] for r in rows), reverse=True)
    city = round((raw["year"] == 2021).sum() / sum(acs_pop.values()) * 1e5, 1)
    assert res.values["citywide"]["rate_per_100k"] == city


@pytest.mark.full_data
def test_rate_compare_areas_and_small_number(registry):
    res = run_ok(registry, R, {"year": 2022, "community_area": "Lincoln Park",
                               "compare_areas": ["West Garfield Park", "Austin"]})
    names = [r["name"] for r in res.values["breakdown"]]
    assert set(names) == {"Lincoln Park", "West Garfield Park", "Austin"}
    assert names[0] == "West Garfield Park"
    assert any("Fewer than 10" in c and "Lincoln Park" in c for c in res.caveats)


def test_rate_default_is_last_full_year_and_2023_partial(registry):
    assert run_ok(registry, R, {}).values["start_year"] == 2022
    res = run_ok(registry, R, {"year": 2023})
    assert any("partial" in c for c in res.caveats)


@pytest.mark.parametrize("args,needles", [
    ({"year": 1995}, ["2001-01-01"]),
    ({"year": 2030}, ["2023-07-19"]),
    ({"community_area": 999}, ["1 to 77"]),
    ({"community_area": "Englewod"}, ["Englewood"]),
    ({"top_n": 0}, ["1", "77"]),
    ({"year": "abc"}, ["whole number"]),
])
@pytest.mark.full_data
def test_rate_bad_arguments(registry, args, needles):
    run_err(registry, R, args, *needles)


# ------------------------------------------------------------------ socioeconomic context

S = "analyze_homicide_socioeconomic_context"


def _independent_rates(raw, pop2010, start, end):
    sel = raw[(raw["year"] >= start) & (raw["year"] <= end)]
    counts = sel.groupby("area").size()
    years = end - start + 1
    return {a: counts.get(float(a), 0) / years / pop2010[a] * 1e5 for a in range(1, 78)}


def test_socio_pearson_matches_numpy(registry, raw, pop2010, socio):
    rates = _independent_rates(raw, pop2010, 2008, 2012)
    areas = list(range(1, 78))
    x = np.array([socio.loc[a, "HARDSHIP INDEX"] for a in areas], dtype=float)
    y = np.array([rates[a] for a in areas])
    expected = float(np.corrcoef(x, y)[0, 1])
    res = run_ok(registry, S, {"indicator": "hardship_index"})
    assert math.isclose(res.values["pearson_r"], expected, abs_tol=0.0015)
    assert res.values["n_areas"] == 77
    assert any("not causation" in c for c in res.caveats)
    assert any("not current" in c for c in res.caveats)
    assert {s["key"] for s in res.sources} == {"homicides", "socioeconomic", "population_2010"}


def test_socio_spearman_and_quartiles(registry, raw, pop2010, socio):
    rates = _independent_rates(raw, pop2010, 2008, 2012)
    frame = pd.DataFrame({"x": [socio.loc[a, "PER CAPITA INCOME"] for a in range(1, 78)],
                          "y": [rates[a] for a in range(1, 78)]})
    expected = frame["x"].rank().corr(frame["y"].rank())
    res = run_ok(registry, S, {"indicator": "per_capita_income"})
    assert math.isclose(res.values["spearman_rho"], expected, abs_tol=0.0015)
    assert res.values["pearson_r"] < 0
    quartiles = res.values["quartiles"]
    assert [q["quartile"] for q in quartiles] == [1, 2, 3, 4]
    assert sum(q["areas"] for q in quartiles) == 77
    lowest_q = frame.nsmallest(quartiles[0]["areas"], "x")
    assert math.isclose(quartiles[0]["mean_rate_per_100k"], lowest_q["y"].mean(), abs_tol=0.051)
    assert quartiles[0]["mean_rate_per_100k"] > quartiles[3]["mean_rate_per_100k"]


@pytest.mark.parametrize("indicator", ["poverty", "unemployment", "no_hs_diploma", "crowding", "dependency"])
def test_socio_every_indicator_runs(registry, indicator):
    res = run_ok(registry, S, {"indicator": indicator, "start_year": 2010, "end_year": 2014})
    assert -1 <= res.values["pearson_r"] <= 1 and -1 <= res.values["spearman_rho"] <= 1


@pytest.mark.parametrize("args,needles", [
    ({"indicator": "crime"}, ["per_capita_income", "hardship_index"]),
    ({"start_year": 1990}, ["2001-01-01"]),
    ({"end_year": "abc"}, ["whole number"]),
])
@pytest.mark.full_data
def test_socio_bad_arguments(registry, args, needles):
    run_err(registry, S, args, *needles)


# ------------------------------------------------------------------ period comparison

T = "compare_homicide_district_trends"


def test_trends_district_totals(registry, raw):
    d = raw[raw["district"] == 11]
    p1 = int(d["year"].between(2015, 2017).sum())
    p2 = int(d["year"].between(2020, 2022).sum())
    res = run_ok(registry, T, {"district": 11, "period1_start": 2015, "period1_end": 2017,
                               "period2_start": 2020, "period2_end": 2022})
    v = res.values
    assert (v["period1"]["homicides"], v["period2"]["homicides"]) == (p1, p2)
    assert v["period1"]["yearly_average"] == round(p1 / 3, 1)
    assert v["change_in_yearly_average_pct"] == round(100 * (p2 / 3 - p1 / 3) / (p1 / 3), 1)
    arrest = d[d["year"].between(2015, 2017)]["arrest"].mean() * 100
    assert v["period1"]["arrest_rate_pct"] == round(arrest, 1)
    assert v["geography"] == {"type": "district", "id": 11, "name": "Harrison"}
    assert len(v["yearly"]) == 6


def test_trends_between_two_single_years_state_each_years_count(registry, raw):
    a = raw[raw["area"] == 71]
    n2016, n2021 = int((a["year"] == 2016).sum()), int((a["year"] == 2021).sum())
    res = run_ok(registry, T, {"community_area": 71, "period1_start": 2016, "period2_start": 2021})
    assert f"{n2016} homicides (2016) -> {n2021} homicides (2021)" in res.summary
    assert "/yr" not in res.summary  # a year's count, not "28.0/yr"
    longer = run_ok(registry, T, {"community_area": 71, "period1_start": 2015, "period1_end": 2017,
                                  "period2_start": 2019, "period2_end": 2021})
    assert f"{a['year'].between(2015, 2017).sum() / 3:.1f}/yr (2015-2017)" in longer.summary


def test_trends_community_area_and_ward(registry, raw):
    a = raw[raw["area"] == 25]
    res = run_ok(registry, T, {"community_area": "Austin", "period1_start": 2005, "period2_start": 2021})
    assert res.values["period1"]["homicides"] == int((a["year"] == 2005).sum())
    assert res.values["period2"]["homicides"] == int((a["year"] == 2021).sum())
    w = raw[raw["ward"] == 24]
    res = run_ok(registry, T, {"ward": 24, "period1_start": 2010, "period1_end": 2011,
                               "period2_start": 2018, "period2_end": 2019})
    assert res.values["period2"]["homicides"] == int(w["year"].between(2018, 2019).sum())
    assert any("ward map" in c for c in res.caveats)


@pytest.mark.parametrize("args,needles", [
    ({"period1_start": 2015, "period2_start": 2022}, ["exactly one", "district", "ward", "community_area"]),
    ({"period1_start": 2015, "period2_start": 2022, "ward": 3, "district": 2}, ["exactly one"]),
    ({"period1_start": 2015, "period2_start": 2022, "district": 13}, ["13"]),
    ({"period1_start": 1995, "period2_start": 2022, "district": 3}, ["2001-01-01"]),
    ({"period1_start": 2015, "period2_start": 2030, "district": 3}, ["2023-07-19"]),
    ({"period1_start": 2015, "period2_start": 2022, "community_area": "Nowhere Town"}, ["77"]),
    ({"period2_start": 2022, "district": 3}, ["period1_start"]),
])
@pytest.mark.full_data
def test_trends_bad_arguments(registry, args, needles):
    run_err(registry, T, args, *needles)


# ------------------------------------------------------------------ result shape for every tool

@pytest.mark.parametrize("name,args", [
    (Q, {"group_by": "year"}),
    (Q, {"group_by": "location_type", "top_n": 100}),
    (Q, {"group_by": "ward", "top_n": 50}),
    (R, {"top_n": 77}),
    (R, {"start_year": 2001, "end_year": 2023, "top_n": 77, "sort_order": "asc"}),
    (S, {"indicator": "poverty"}),
    (T, {"district": 7, "period1_start": 2001, "period1_end": 2011, "period2_start": 2012, "period2_end": 2023}),
    ("get_iucr_info", {}),
])
def test_results_are_json_and_text_fits(registry, name, args):
    import json

    res = run_ok(registry, name, args)
    json.dumps(res.to_dict())
    assert "(truncated)" not in res.text
    assert res.table and res.table["rows"]
    if res.chart:
        assert res.chart["type"] in ("line", "bar")
        assert res.chart["x"] in res.table["columns"] and res.chart["y"] in res.table["columns"]


@pytest.mark.full_data
def test_tools_work_on_a_replicated_bundle(data):
    """The per-bundle caches follow the bundle: a 3x table gives 3x counts, same rates ratio."""
    big = DataBundle(data.data_dir, tables={**data.tables, "homicides": pd.concat([data.homicides] * 3)},
                     coverage=data.coverage)
    reg = build_registry(big)
    assert reg.run(Q, {"year": 2022}).values["total"] == 3 * 717
    trend = reg.run(T, {"district": 11, "period1_start": 2015, "period2_start": 2022})
    assert trend.values["period2"]["homicides"] % 3 == 0


@pytest.mark.parametrize("order", ["desc", "asc"])
def test_ranking_by_arrest_rate_matches_raw(registry, raw, order):
    y = raw[raw["year"] == 2019].dropna(subset=["district"])
    grouped = y.groupby("district")["arrest"].agg(["size", "mean"])
    eligible = grouped[grouped["size"] >= 5]
    expected = (eligible["mean"].idxmax() if order == "desc" else eligible["mean"].idxmin())
    result = registry.run("query_homicides_advanced", {"year": 2019, "group_by": "district",
                                                       "rank_by": "arrest_rate", "sort_order": order, "top_n": 3})
    assert result.ok
    first = result.values["breakdown"][0]
    assert first["district"] == int(expected)
    assert first["arrest_rate_pct"] == pytest.approx(eligible.loc[expected, "mean"] * 100, abs=0.05)
    assert result.values["too_few_to_rank"] == int((grouped["size"] < 5).sum())


def test_rank_by_arrest_rate_needs_a_ranking_group(registry):
    result = registry.run("query_homicides_advanced", {"group_by": "year", "rank_by": "arrest_rate"})
    assert not result.ok and "group_by one of" in result.error["message"]


def test_rank_places_by_change_matches_raw(registry, raw):
    per_year = raw.dropna(subset=["area"]).groupby(["area", "year"]).size().unstack(fill_value=0)
    change = per_year[2021] - per_year[2019]
    result = registry.run("compare_homicide_district_trends",
                          {"period1_start": 2019, "period2_start": 2021, "rank_places": "community_area", "top_n": 3})
    assert result.ok
    first = result.values["rows"][0]
    assert first["community_area"] == int(change.idxmax())
    assert first["change_in_yearly_average"] == pytest.approx(change.max())
    down = registry.run("compare_homicide_district_trends", {"period1_start": 2019, "period2_start": 2021,
                                                              "rank_places": "community_area", "sort_order": "asc"})
    assert down.values["rows"][0]["community_area"] == int(change.idxmin())


def test_compare_without_a_place_or_ranking_names_both_choices(registry):
    result = registry.run("compare_homicide_district_trends", {"period1_start": 2019, "period2_start": 2021})
    assert not result.ok and "rank_places" in result.error["message"]


def test_month_filter_and_share_match_raw(registry, raw):
    summer = raw[(raw["year"] == 2020) & raw["month"].isin([6, 7, 8])]
    result = registry.run("query_homicides_advanced", {"year": 2020, "months": [8, 6, 7], "group_by": "month"})
    assert result.ok and result.values["total"] == len(summer)
    assert [r["month"] for r in result.values["breakdown"]] == [6, 7, 8]
    assert result.values["share_of"]["homicides"] == int((raw["year"] == 2020).sum())
    street = registry.run("query_homicides_advanced", {"year": 2019, "location_type": "street"})
    y = raw[raw["year"] == 2019]
    assert street.values["share_of"]["share_pct"] == pytest.approx(
        100 * (y["location"] == "STREET").sum() / len(y), abs=0.05)


def test_month_out_of_range_is_an_error(registry):
    result = registry.run("query_homicides_advanced", {"months": [13]})
    assert not result.ok and "1 to 12" in result.error["message"]


# ------------------------------------------------------------------ separate years, dates, hours, exclusions

@pytest.fixture(scope="module")
def stations(data_dir):
    df = pd.read_csv(data_dir / "police_stations.csv", dtype=str)
    return sorted(int(d) for d in pd.to_numeric(df["DISTRICT"], errors="coerce").dropna())


def test_separate_years_count_and_list_each(registry, raw):
    chosen = raw[raw["year"].isin([2016, 2019, 2022])]
    res = run_ok(registry, Q, {"years": [2022, 2016, 2019], "group_by": "year"})
    assert res.values["total"] == len(chosen)
    by_year = chosen.groupby("year").size()
    assert [(r["year"], r["homicides"]) for r in res.values["breakdown"]] == [
        (y, int(by_year[y])) for y in (2016, 2019, 2022)]
    assert res.values["change"]["from_year"] == 2016 and res.values["change"]["to_year"] == 2022
    assert res.summary.startswith(f"{len(chosen):,} homicides (years 2016, 2019, 2022)")
    assert res.values["per_year_average"] == round(len(chosen) / 3, 1)


def test_excluded_wards_leave_the_count_and_the_ranking(registry, raw):
    y = raw[raw["year"] == 2022]
    res = run_ok(registry, Q, {"year": 2022, "exclude_wards": [3], "group_by": "ward", "top_n": 50})
    assert res.values["total"] == int((y["ward"] != 3).sum())  # rows with no ward stay in
    assert "excluding ward 3" in res.summary
    counts = y[y["ward"] != 3].groupby("ward").size()
    assert {r["ward"]: r["homicides"] for r in res.values["breakdown"]} == {int(k): int(v) for k, v in counts.items()}


def test_excluded_districts_and_community_areas(registry, raw):
    y = raw[raw["year"] == 2021]
    keep = ~y["district"].isin([11, 12]) & ~y["area"].isin([25, 68])
    res = run_ok(registry, Q, {"year": 2021, "exclude_districts": [12, 11],
                               "exclude_community_areas": ["Austin", 68], "group_by": "community_area", "top_n": 77})
    assert res.values["total"] == int(keep.sum())
    assert "excluding districts 11-12" in res.summary
    assert "excluding community areas Austin (25), Englewood (68)" in res.summary
    assert not {25, 68} & {r["community_area"] for r in res.values["breakdown"]}


def test_hours_across_midnight(registry, raw):
    night = [21, 22, 23, 0, 1, 2, 3, 4]
    y = raw[raw["year"] == 2022]
    res = run_ok(registry, Q, {"year": 2022, "hours": night, "group_by": "hour"})
    assert res.values["total"] == int(y["hour"].isin(night).sum())
    assert "between 21:00 and 04:59" in res.summary
    by_hour = y.groupby("hour").size()
    assert [(r["hour"], r["homicides"]) for r in res.values["breakdown"]] == [(h, int(by_hour[h])) for h in night]
    assert res.values["share_of"]["homicides"] == len(y)


@pytest.mark.parametrize("weekdays", [[5], [5, 6]])
def test_a_night_of_a_weekday_runs_into_the_next_morning(registry, raw, weekdays):
    """"Friday nights" is Friday 21:00 to Saturday 04:59: 01:00 on a Saturday is Friday night, 01:00 on a Friday is
    Thursday's (the literal reading had counted Thursday night's last hours as Friday's)."""
    night = [21, 22, 23, 0, 1, 2, 3, 4]
    y = raw[raw["year"] == 2022]
    weekday = y["day"].dt.day_of_week + 1  # Monday is 1
    night_of = weekday.where(y["hour"] >= 21, (weekday + 5) % 7 + 1)  # after midnight: the day before
    want = int((y["hour"].isin(night) & night_of.isin(weekdays)).sum())
    literal = int((y["hour"].isin(night) & weekday.isin(weekdays)).sum())
    assert want != literal
    res = run_ok(registry, Q, {"year": 2022, "weekdays": weekdays, "hours": night})
    assert res.values["total"] == want
    into = "into Saturday morning" if weekdays == [5] else "Friday and Saturday nights into the next morning"
    assert into in res.summary and "between 21:00 and 04:59" in res.summary
    evening = run_ok(registry, Q, {"year": 2022, "weekdays": weekdays, "hours": [20, 21, 22, 23]})  # no wrap: literal
    assert evening.values["total"] == int((y["hour"].between(20, 23) & weekday.isin(weekdays)).sum())
    assert "nights" not in evening.summary


def test_date_span_across_years(registry, raw):
    span = raw[(raw["day"] >= "2019-12-01") & (raw["day"] <= "2020-01-31")]
    res = run_ok(registry, Q, {"start_date": "2019-12", "end_date": "2020-01", "group_by": "month"})
    assert res.values["total"] == len(span)
    assert "2019-12-01 to 2020-01-31" in res.summary
    by_month = span.groupby("month").size()
    assert [(r["year_month"], r["homicides"]) for r in res.values["breakdown"]] == [
        ("2019-12", int(by_month[12])), ("2020-01", int(by_month[1]))]
    assert "per_year_average" not in res.values


def test_so_far_this_year_against_the_same_stretch_last_year(registry, raw):
    last = raw["day"].max()
    assert last.strftime("%Y-%m-%d") == "2023-07-19"
    this = run_ok(registry, Q, {"start_date": "2023-01-01", "end_date": "2023-07"})  # a month past the end: clipped
    before = run_ok(registry, Q, {"start_date": "2022-01-01", "end_date": "2022-07-19"})
    assert this.values["total"] == int((raw["day"] >= "2023-01-01").sum())
    assert before.values["total"] == int(((raw["day"] >= "2022-01-01") & (raw["day"] <= "2022-07-19")).sum())
    assert "2023-01-01 to 2023-07-19" in this.summary and "2022-01-01 to 2022-07-19" in before.summary


def test_excluded_location_types(registry, raw):
    y = raw[raw["year"] == 2022]
    res = run_ok(registry, Q, {"year": 2022, "exclude_location_types": ["street", "Alley"]})
    assert res.values["total"] == int((~y["location"].isin(["STREET", "ALLEY"])).sum())
    assert "excluding ALLEY, STREET" in res.summary
    assert res.values["filters"]["exclude_location_types"] == ["ALLEY", "STREET"]


def test_a_place_or_kind_both_asked_for_and_left_out_is_refused_with_the_clash_named(registry, raw):
    """"ward 24, excluding ward 24" selects nothing and answers no question: refused, not counted as 0."""
    run_err(registry, Q, {"year": 2020, "ward": 24, "exclude_wards": [24]}, "ward 24 is both asked for",
            "exclude_wards")
    run_err(registry, Q, {"year": 2020, "districts": [7, 11], "exclude_districts": [11]}, "district 11")
    run_err(registry, Q, {"year": 2020, "community_area": "Austin", "exclude_community_areas": [25]},
            "community area 25", "exclude_community_areas")
    run_err(registry, Q, {"year": 2020, "location_type": "street", "exclude_location_types": ["STREET"]},
            "location STREET is both asked for")
    run_err(registry, Q, {"year": 2020, "location_types": ["STREET", "ALLEY"], "exclude_location_types": ["ALLEY"]},
            "ALLEY")
    # Different places are no clash: ward 24 without its rows in ward 28 is ward 24's own count.
    kept = run_ok(registry, Q, {"year": 2020, "ward": 24, "exclude_wards": [28]})
    assert kept.values["total"] == int(((raw["year"] == 2020) & (raw["ward"] == 24)).sum())


def test_fewest_ranking_lists_wards_with_zero_and_names_ties(registry, raw):
    counts = raw[raw["year"] == 2023].groupby("ward").size().reindex(range(1, 51), fill_value=0)
    fewest = [int(w) for w in counts.index if counts[w] == counts.min()]
    assert counts.min() == 0 and len(fewest) > 1
    res = run_ok(registry, Q, {"year": 2023, "group_by": "ward", "sort_order": "asc", "top_n": 50})
    rows = res.values["breakdown"]
    assert len(rows) == 50 and {r["ward"]: r["homicides"] for r in rows} == {int(k): int(v) for k, v in counts.items()}
    assert res.values["tied"] == [f"ward {w}" for w in fewest]
    names = ", ".join(f"ward {w}" for w in fewest[:-1]) + f" and ward {fewest[-1]}"
    assert f"fewest: 0 homicides, tied: {names}" in res.summary
    kept = run_ok(registry, Q, {"year": 2023, "group_by": "ward", "sort_order": "asc", "exclude_wards": [fewest[0]]})
    assert fewest[0] not in [r["ward"] for r in kept.values["breakdown"]]
    assert f"ward {fewest[0]}" not in kept.values["tied"]


def test_fewest_districts_and_areas_include_zeros(registry, raw, stations):
    y = raw[(raw["year"] == 2023) & raw["domestic"]]
    counts = y.groupby("district").size().reindex(stations, fill_value=0)
    res = run_ok(registry, Q, {"year": 2023, "domestic": True, "group_by": "district", "sort_order": "asc",
                               "top_n": 25})
    assert {r["district"]: r["homicides"] for r in res.values["breakdown"]} == {
        int(k): int(v) for k, v in counts.items()}
    areas = raw[raw["year"] == 2022].groupby("area").size().reindex(range(1, 78), fill_value=0)
    res = run_ok(registry, Q, {"year": 2022, "group_by": "community_area", "sort_order": "asc", "top_n": 3})
    zero = [int(a) for a in areas.index if areas[a] == 0]
    assert [r["community_area"] for r in res.values["breakdown"]] == zero[:3]
    assert len(res.values["tied"]) == len(zero)


def test_most_ranking_tie_is_named(registry, raw):
    counts = raw[raw["year"] == 2011].groupby("ward").size()
    top = sorted(int(w) for w in counts.index if counts[w] == counts.max())
    assert len(top) == 2
    res = run_ok(registry, Q, {"year": 2011, "group_by": "ward", "top_n": 5})
    assert res.values["tied"] == [f"ward {w}" for w in top]
    assert f"most: {counts.max()} homicides, tied: ward {top[0]} and ward {top[1]}" in res.summary
    assert "tied" not in run_ok(registry, Q, {"year": 2020, "group_by": "ward"}).values


def test_average_per_year_and_partial_year_note(registry, raw):
    n = int(raw["year"].between(2019, 2022).sum())
    res = run_ok(registry, Q, {"start_year": 2019, "end_year": 2022})
    assert res.summary == (f"{n:,} homicides (years 2019-2022); arrest rate {res.values['arrest_rate_pct']:.1f}%; "
                           f"an average of {n / 4:,.1f} a year")
    assert res.values["per_year_average"] == round(n / 4, 1)
    n = int(raw["year"].between(2020, 2023).sum())
    res = run_ok(registry, Q, {"start_year": 2020})
    assert res.summary.endswith(f"an average of {n / 4:,.1f} a year (2023 is partial: data end 2023-07-19)")
    assert res.values["partial_year"] == {"year": 2023, "data_end": "2023-07-19"}
    assert "per_year_average" not in run_ok(registry, Q, {"year": 2022}).values


def test_a_year_list_inside_the_range_given_with_it_is_the_list(registry, raw):
    """A model wrote "years": [2020] beside start_year = end_year = 2020, and the call failed; a list the range
    holds means the list."""
    counts = raw.groupby("year").size()
    res = run_ok(registry, Q, {"start_year": 2011, "end_year": 2019, "years": [2011, 2013]})
    assert res.values["total"] == counts[2011] + counts[2013]
    assert run_ok(registry, Q, {"year": 2020, "years": [2020]}).values["total"] == counts[2020]


@pytest.mark.parametrize("args,needles", [
    ({"years": [2016, 2019], "year": 2016}, ["years", "year", "not both"]),
    ({"years": [2014], "start_year": 2015}, ["start_year"]),  # a list outside the range it is given with
    ({"years": [1999]}, ["2001", "2023"]),
    ({"start_date": "2020-01", "year": 2020}, ["start_date", "year", "not both"]),
    ({"end_date": "2020-01", "months": [1]}, ["months"]),
    ({"start_date": "2020-01", "years": [2020]}, ["years"]),
    ({"start_date": "2000-12-01"}, ["2001-01-01", "2023-07-19"]),
    ({"end_date": "2023-08-15"}, ["2001-01-01", "2023-07-19"]),
    ({"start_date": "2019-13"}, ["YYYY-MM-DD", "YYYY-MM"]),
    ({"start_date": "last week"}, ["YYYY-MM-DD"]),
    ({"start_date": "2020-02-30"}, ["YYYY-MM-DD"]),
    ({"start_date": "2021-03", "end_date": "2020-01"}, ["after"]),
    ({"hours": [24]}, ["0 to 23"]),
    ({"exclude_wards": [51]}, ["1 to 50"]),
    ({"exclude_districts": [13]}, ["13", "merged"]),
    ({"exclude_community_areas": ["Atlantis"]}, ["77"]),
    ({"exclude_location_types": ["SPACESHIP"]}, ["STREET"]),
])
def test_bad_new_arguments(registry, args, needles):
    run_err(registry, Q, args, *needles)
