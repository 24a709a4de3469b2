"""query_socioeconomic against values read straight from socioeconomic.csv (never the tool's code)."""
import csv

import pytest

TOOL = "query_socioeconomic"


@pytest.fixture(scope="module")
def raw(data_dir):
    """Rows of the raw CSV keyed by area number (0 = the CHICAGO row with a blank number)."""
    with open(data_dir / "socioeconomic.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = {}
    for row in rows:
        row = {k.strip(): v.strip() for k, v in row.items()}
        number = int(row["Community Area Number"]) if row["Community Area Number"] else 0
        out[number] = row
    return out


def run(registry, **args):
    return registry.run(TOOL, args)


def test_lincoln_park_income_and_hardship_match_raw(registry, raw):
    result = run(registry, community_area="Lincoln Park")
    assert result.ok, result.error
    v = result.values
    assert v["community_area"] == 7 and v["name"] == "Lincoln Park"
    assert v["per_capita_income"] == int(raw[7]["PER CAPITA INCOME"]) == 71551
    assert v["hardship_index"] == int(raw[7]["HARDSHIP INDEX"]) == 2
    assert v["pct_households_below_poverty"] == float(raw[7]["PERCENT HOUSEHOLDS BELOW POVERTY"])
    assert v["city"]["per_capita_income"] == int(raw[0]["PER CAPITA INCOME"]) == 28202
    assert "$71,551" in result.text and "$28,202" in result.text
    assert f"{float(raw[7]['PERCENT HOUSEHOLDS BELOW POVERTY']):.1f}%" in result.text
    assert [s["key"] for s in result.sources] == ["socioeconomic"]
    assert any("2008-2012" in c and "not current" in c for c in result.caveats)
    assert len(result.text) <= 1500 and result.summary and "\n" not in result.summary


def test_riverdale_hardship_is_98(registry, raw):
    result = run(registry, community_area="Riverdale", metric="hardship")
    assert result.ok
    assert result.values["hardship_index"] == int(raw[54]["HARDSHIP INDEX"]) == 98
    assert "per_capita_income" not in result.values  # only the asked-for metric
    assert result.values["city"]["hardship_index"] is None  # not published for the city


def test_city_wide_row(registry, raw):
    result = run(registry, metric="income")
    assert result.ok
    assert result.values["scope"] == "city"
    assert result.values["per_capita_income"] == int(raw[0]["PER CAPITA INCOME"]) == 28202
    assert "$28,202" in result.text


def test_poorest_area_by_poverty_rate(registry, raw):
    areas = {n: r for n, r in raw.items() if n > 0}
    worst = max(areas, key=lambda n: float(areas[n]["PERCENT HOUSEHOLDS BELOW POVERTY"]))
    result = run(registry, metric="poverty", top_n=1)
    assert result.ok
    row = result.values["rows"][0]
    assert row["community_area"] == worst
    assert row["pct_households_below_poverty"] == float(areas[worst]["PERCENT HOUSEHOLDS BELOW POVERTY"])
    assert result.values["city"]["pct_households_below_poverty"] == float(raw[0]["PERCENT HOUSEHOLDS BELOW POVERTY"])
    assert result.chart["type"] == "bar"


def test_ranking_order_matches_raw_sort(registry, raw):
    areas = [(int(r["PER CAPITA INCOME"]), n) for n, r in raw.items() if n > 0]
    lowest = [n for _, n in sorted(areas)[:5]]
    result = run(registry, metric="income", top_n=5, sort_order="asc")
    assert [r["community_area"] for r in result.values["rows"]] == lowest
    assert [r["rank"] for r in result.values["rows"]] == [1, 2, 3, 4, 5]
    assert result.table["columns"][:3] == ["rank", "community_area", "name"]
    assert len(result.table["rows"]) == 5


def test_all_metric_ranking_uses_hardship(registry, raw):
    result = run(registry, top_n=3)
    assert result.values["rank_by"] == "hardship_index"
    hardest = sorted((int(r["HARDSHIP INDEX"]), n) for n, r in raw.items() if n > 0)[-1][1]
    assert result.values["rows"][0]["community_area"] == hardest


def test_comparison_rows(registry, raw):
    result = run(registry, community_area="Austin", compare_areas=["Lincoln Park", 54], metric="income")
    assert result.ok
    rows = result.values["rows"]
    assert [r["community_area"] for r in rows] == [25, 7, 54]
    for r in rows:
        assert r["per_capita_income"] == int(raw[r["community_area"]]["PER CAPITA INCOME"])
    assert result.values["highest"] == "Lincoln Park"
    assert "Chicago" in result.text and result.chart["type"] == "bar"


def test_ward_gets_an_explained_error(registry):
    result = run(registry, ward=20)
    assert not result.ok
    assert result.error["code"] == "geography_not_available"
    message = result.error["message"]
    assert "ward" in message and "77 community areas" in message and "community_area" in message


def test_ward_out_of_range_names_valid_wards(registry):
    result = run(registry, ward=99)
    assert not result.ok and "1 to 50" in result.error["message"]


def test_ward_with_an_area_answers_with_a_caveat(registry):
    result = run(registry, ward=20, community_area="Englewood")
    assert result.ok
    assert any("ward" in c.lower() for c in result.caveats)


def test_zip_lists_overlapping_areas(registry):
    result = run(registry, zip="60614")
    assert not result.ok
    assert result.error["code"] == "geography_not_available"
    assert "Lincoln Park" in result.error["message"] and "area 7" in result.error["message"]


def test_bad_zip(registry):
    result = run(registry, zip="99999")
    assert not result.ok and result.error["code"] == "unknown_zip"


@pytest.mark.parametrize("args,code,needle", [
    ({"community_area": 999}, "unknown_area", "1 to 77"),
    ({"community_area": "Atlantis"}, "unknown_area", "77 community area"),
    ({"metric": "wealth"}, "invalid_choice", "poverty"),
    ({"top_n": 0}, "out_of_range", "1 to 77"),
    ({"sort_order": "up"}, "invalid_choice", "desc"),
    ({"neighborhood": "x"}, "unknown_argument", "community_area"),
])
def test_bad_arguments_are_explained(registry, args, code, needle):
    result = run(registry, **args)
    assert not result.ok
    assert result.error["code"] == code
    assert needle in result.error["message"]


def test_top_n_with_named_areas_is_not_silent(registry):
    result = run(registry, community_area=7, top_n=5)
    assert result.ok and result.values["scope"] == "area"
    assert any("top_n" in c for c in result.caveats)


def test_city_wide_answer_names_the_extremes(registry, raw):
    areas = {n: r for n, r in raw.items() if n > 0}
    richest = max(areas, key=lambda n: int(areas[n]["PER CAPITA INCOME"]))
    result = run(registry, metric="income", sort_order="desc")
    assert result.values["extremes"]["per_capita_income"]["highest"]["community_area"] == richest
    assert "Near North Side" in result.text


def test_long_rankings_stay_within_the_text_limit(registry):
    result = run(registry, top_n=77)
    assert result.ok and len(result.values["rows"]) == 77
    assert len(result.text) <= 1500
    assert "more rows in the table" in result.text
    assert result.text.splitlines()[-1].startswith("Chicago")
    assert len(result.table["rows"]) == 77
