"""The semantic layer through its three doors: /api/query, the query_data TOOL_CALL tool in the real loop, and
the grammar a model writes queries under. Every figure is checked against pandas on the raw CSVs."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from backends.scripted import ScriptedBackend
from loop.grammar import build_tool_grammar
from semantic.catalog import catalog, public_measures
from semantic.schema import query_schema
from tests.readme_snippets import code_blocks
from tests.test_api import build_app

HEADLINE = {"measures": [{"measure": "homicide_rate", "period": {"year": 2021}}, "per_capita_income",
                         {"measure": "home_value", "period": {"month": "2024-09"}}],
            "group_by": ["community_area"], "order_by": [{"field": "homicide_rate"}], "limit": 1}


@pytest.fixture(scope="module")
def csv(data_dir):
    """The raw files, read with plain pandas (never through the app's loaders)."""
    h = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    areas = pd.read_csv(data_dir / "community_areas.csv")
    acs = pd.read_csv(data_dir / "census_acs.csv")
    acs["n"] = acs["community_area"].map(dict(zip(areas["community"], areas["area_number"])))
    socio = pd.read_csv(data_dir / "socioeconomic.csv")
    socio.columns = [c.strip() for c in socio.columns]
    return {"h": h.assign(year=h["Year"].astype(int), area=pd.to_numeric(h["Community Area"], errors="coerce"),
                          ward=pd.to_numeric(h["Ward"], errors="coerce")),
            "acs": acs.set_index("n"), "socio": socio[socio["Community Area Number"].notna()]
            .assign(n=lambda f: f["Community Area Number"].astype(int)).set_index("n"),
            "wards": pd.read_csv(data_dir / "ward_offices.csv", dtype=str, encoding="utf-8-sig"),
            "zhvi": pd.read_csv(data_dir / "property_zhvi_zip_monthly.csv", dtype={"RegionName": str})}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return build_app(tmp_path_factory.mktemp("query")).test_client()


def area_counts(csv, year) -> pd.Series:
    h = csv["h"][csv["h"]["year"] == year]
    return h["area"].dropna().astype(int).value_counts().reindex(range(1, 78), fill_value=0)


def post(client, body):
    return client.post("/api/query", data=json.dumps(body), content_type="application/json")


# ------------------------------------------------------------------ /api/query

def test_ranking_set_sum_through_the_api(client, csv):
    body = {"measures": ["hardship_index", {"measure": "homicides", "period": {"year": 2021}}],
            "group_by": ["community_area"], "order_by": [{"field": "hardship_index"}], "limit": 10, "totals": True}
    resp = post(client, body)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    result = resp.get_json()["result"]
    top = csv["socio"]["HARDSHIP INDEX"].sort_values(ascending=False, kind="mergesort").head(10)
    assert [r["community_area"] for r in result["rows"]] == list(top.index)
    counts = area_counts(csv, 2021)
    assert result["totals"]["homicides"] == counts[list(top.index)].sum()
    assert result["totals"]["homicides_share_of_city"] == pytest.approx(
        counts[list(top.index)].sum() / (csv["h"]["year"] == 2021).sum() * 100)
    assert result["query"]["limit"] == 10 and result["sources"]


def test_headline_question_is_one_query(client, csv):
    result = post(client, HEADLINE).get_json()["result"]
    [row] = result["rows"]
    rates = area_counts(csv, 2021) / csv["acs"]["total_population"] * 1e5
    assert row["community_area"] == rates.idxmax() and row["homicide_rate"] == pytest.approx(rates.max())
    assert row["per_capita_income"] == csv["socio"].loc[rates.idxmax(), "PER CAPITA INCOME"]
    assert any("derived" in c for c in result["caveats"])  # the home value came along the ZIP crosswalk


@pytest.mark.full_data
def test_alderman_is_a_declaration(client, csv):
    body = {"measures": ["alderperson", "ward_office_phone", "city_hall_phone"], "group_by": ["ward"],
            "filters": [{"dimension": "ward", "in": ["42nd"]}]}
    [row] = post(client, body).get_json()["result"]["rows"]
    expected = csv["wards"].set_index("WARD").loc["42"]
    assert row["alderperson"] == expected["ALDERMAN"].strip() == "Reilly, Brendan"
    assert row["city_hall_phone"] == expected["CITY HALL PHONE"].strip()


def test_redfin_is_a_declaration(client, data_dir):
    raw = pd.read_csv(data_dir / "property_redfin_neighborhoods.csv", encoding="utf-8-sig")
    mine = raw[raw["Region"] == "Chicago, IL - Pilsen"]
    last = mine.loc[pd.to_datetime(mine["Period End"]).idxmax()]
    body = {"measures": ["redfin_median_sale_price", "redfin_homes_sold"], "group_by": ["redfin_neighborhood"],
            "filters": [{"dimension": "redfin_neighborhood", "in": ["pilsen"]}]}
    [row] = post(client, body).get_json()["result"]["rows"]
    assert row["redfin_homes_sold"] == last["Homes Sold"]
    assert row["redfin_median_sale_price"] == float(last["Median Sale Price"].strip("$K")) * 1000


@pytest.mark.parametrize("body,code,words", [
    ({"measures": ["per_capita_income"], "group_by": ["ward"]}, "grain_not_available", "not published by ward"),
    ({"measures": ["homicides"], "period": {"year": 2031}}, "period_out_of_range", "2031 is not in the data"),
    ({"measures": ["homicdes"]}, "unknown_measure", "homicdes"),
    ({"measures": ["homicides"], "group_by": ["community_area"],
      "filters": [{"dimension": "community_area", "in": ["Englewod Park"]}]}, "unknown_member", "Englewod"),
    ({"measures": ["homicides"], "colour": "red"}, "invalid_query", "colour"),
    ({"measures": []}, "missing_measure", "measure"),
    ({"measures": ["homicides"], "order_by": ["income"]}, "unknown_field", "income"),
    ({"measures": ["home_value"]}, "grain_not_available", "city-wide"),
    # count_base narrows the base of a count_share; alone it has nothing to narrow
    ({"measures": ["homicides"], "group_by": ["community_area"], "count_base": ["homicides"]}, "invalid_query",
     "add count_share"),
    ({"measures": ["homicides"], "group_by": ["community_area"], "groups": [
        {"label": "a", "having": [{"field": "homicides", "op": ">", "value": 1}], "figure": "mode"},
        {"label": "b", "having": [{"field": "homicides", "op": "<=", "value": 1}]}]}, "invalid_query", "median"),
])
def test_bad_queries_are_400_with_a_named_error(client, body, code, words):
    resp = post(client, body)
    assert resp.status_code == 400
    error = resp.get_json()["error"]
    assert error["code"] == code and words in error["message"]


def test_unknown_member_offers_the_nearest(client):
    body = {"measures": ["homicides"], "filters": [{"dimension": "community_area", "in": ["Englewod"]}]}
    error = post(client, body).get_json()["error"]
    assert "Englewood" in error["suggestions"]


def test_catalog_and_schema(client):
    cat = client.get("/api/query/catalog").get_json()
    assert {m["name"] for m in cat["measures"]} == set(public_measures())
    homicides = next(m for m in cat["measures"] if m["name"] == "homicides")
    assert homicides["period"].startswith("2001-01-01") and "community_area" in homicides["grains"]
    schema = client.get("/api/query/schema").get_json()["schema"]
    assert schema["properties"]["measures"]["items"]["anyOf"][0]["enum"] == public_measures()
    assert set(schema["properties"]["group_by"]["items"]["enum"]) == set(catalog().dimensions)


def test_kinds_of_place_in_peoples_words(client, csv):
    """A query may name a kind of place as people do ("cars", "parking lot"): the location dimension's declared
    words, the same ones the question reader reads, and the catalogue lists them with the subjects no data holds."""
    h = csv["h"]
    for word, kind in (("cars", "AUTO"), ("parking lot", "PARKING LOT"), ("gas station", "GAS STATION")):
        body = {"measures": ["homicides"], "filters": [{"dimension": "location_type", "equals": word}]}
        rows = post(client, body).get_json()["result"]["rows"]
        place = h["Location Description"].fillna("")
        assert rows[0]["homicides"] == ((place == kind) | place.str.startswith(kind + " ")).sum()
    cat = client.get("/api/query/catalog").get_json()
    location = next(d for d in cat["dimensions"] if d["name"] == "location_type")
    assert location["member_words"]["bar"] == "TAVERN"
    assert {"shootings", "rent", "weather"} <= set(cat["not_held"])


# ------------------------------------------------------------------ the TOOL_CALL tool in the loop

def test_query_data_runs_through_the_loop(tmp_path, csv):
    line = "TOOL_CALL: " + json.dumps({"name": "query_data", "arguments": HEADLINE})
    backend = ScriptedBackend(replies=[line, "NO_TOOL_CALL", "The area with the highest rate is named above."])
    client = build_app(tmp_path, backend=backend).test_client()
    body = client.post("/api/ask", json={"question": "Which area had the highest homicide rate per capita in 2021, "
                                                     "and its per capita income and home value?"}).get_json()
    [call] = [c for c in body["tool_calls"] if c["name"] == "query_data"]
    assert call["status"] == "ok"
    step = next(s for s in body["trace"] if s["type"] == "tool_call" and s["name"] == "query_data")
    rates = area_counts(csv, 2021) / csv["acs"]["total_population"] * 1e5
    row = step["result"]["values"]["rows"][0]
    assert row["community_area"] == rates.idxmax()


def test_a_bad_query_is_the_tools_named_error(registry):
    result = registry.run("query_data", {"measures": ["per_capita_income"], "group_by": ["ward"]})
    assert not result.ok and result.error["code"] == "grain_not_available"
    assert "not published by ward" in result.error["message"]
    result = registry.run("query_data", {"measures": "not a list of measures"})
    assert not result.ok and result.error["code"] == "unknown_measure"


def test_the_grammar_holds_the_declared_measures():
    """The GBNF a model writes query_data calls under is valid llama.cpp grammar and names every measure."""
    from llama_cpp import LlamaGrammar

    grammar = build_tool_grammar([{"name": "query_data", "parameters": query_schema()}], 1)
    LlamaGrammar.from_string(grammar, verbose=False)
    for name in public_measures():
        assert f'"\\"{name}\\""' in grammar


def test_the_documented_queries_run(client):
    """docs/api.md's five query examples, as written, through /api/query."""
    blocks = [json.loads(block) for block in code_blocks("json", '"measures"')]
    assert len(blocks) >= 5
    for query in blocks:
        resp = post(client, query)
        assert resp.status_code == 200, (query, resp.get_data(as_text=True))
        assert resp.get_json()["result"]["rows"]
