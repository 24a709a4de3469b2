"""Bad queries get named errors, never a crash: hypothesis over /api/query, the query_data tool (the TOOL_CALL path)
and the MCP tool call. Queries are drawn near the real shape (real measure and dimension names beside wrong ones,
nested members_from, odd periods and values), so the parser's every branch is reached, not only its first check."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocols.mcp_tools import McpTools
from settings.loader import load_settings
from semantic.catalog import catalog, public_measures
from semantic.query import DERIVED_OPS, HAVING_OPS, TOP_KEYS
from tests.test_api import build_app

GOOD = ["homicides", "homicide_rate", "per_capita_income", "hardship_index", "population", "home_value",
        "alderperson", "arrest_rate", "redfin_homes_sold", "price_index", "share_black", "station_zip"]
NAMES = GOOD + ["homicdes", "", "x" * 100]
DIMS = list(catalog().dimensions) + ["colour"]
scalar = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                   st.text(max_size=12), st.sampled_from(["2021", "2020-07", "2020Q2", "Austin", "60614", "42nd"]))
anything = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                        max_leaves=12)
period = st.one_of(anything, st.fixed_dictionaries({}, optional={
    "year": scalar, "years": st.lists(scalar, max_size=3), "month": scalar, "months": st.lists(scalar, max_size=3),
    "quarter": scalar, "start": scalar, "end": scalar}))
measure = st.one_of(st.sampled_from(GOOD), st.sampled_from(NAMES), anything, st.fixed_dictionaries(
    {"measure": st.sampled_from(NAMES)}, optional={"as": scalar, "period": period, "per_year": scalar,
                                                   "filters": st.lists(anything, max_size=2)}))
a_filter = st.one_of(anything, st.fixed_dictionaries({"dimension": st.sampled_from(DIMS)}, optional={
    "in": st.lists(scalar, max_size=3), "not_in": anything, "between": st.lists(scalar, max_size=3),
    "equals": scalar}))
field_name = st.one_of(st.sampled_from(NAMES + DIMS + ["a", "chg"]), scalar)


def query_of(inner):
    places = st.sampled_from(["community_area", "ward", "district", "zip", "year", "month"])
    return st.fixed_dictionaries({"measures": st.one_of(st.lists(measure, min_size=1, max_size=3), anything)},
                                 optional={
        "group_by": st.one_of(st.lists(places, max_size=1), st.lists(st.sampled_from(DIMS), max_size=3), anything),
        "period": period, "filters": st.lists(a_filter, max_size=3), "members_from": inner,
        "derived": st.lists(st.fixed_dictionaries({"op": st.sampled_from(DERIVED_OPS + ("sum",))}, optional={
            "name": scalar, "of": st.lists(field_name, max_size=3)}), max_size=2),
        "having": st.lists(st.fixed_dictionaries({"field": field_name, "op": st.sampled_from(HAVING_OPS + ("~",)),
                                                  "value": scalar}), max_size=2),
        "order_by": st.lists(st.one_of(field_name, st.fixed_dictionaries({"field": field_name}, optional={
            "direction": st.sampled_from(["asc", "desc", "up"])})), max_size=2),
        "limit": st.one_of(st.integers(1, 20), scalar), "totals": st.one_of(st.booleans(), scalar), "correlate": st.lists(field_name, max_size=3),
        "population": st.sampled_from(["auto", "acs_2019_2023", "census_2010", "mars"]),
    })


# An unknown key is a named error too (drawn rarely, so the other keys' checks are reached).
shaped = st.recursive(st.just({"measures": ["homicides"], "group_by": ["community_area"]}),
                       lambda inner: query_of(inner), max_leaves=3)
BOGUS = st.builds(lambda v: {"measures": ["homicides"], "bogus": v}, anything)
queries = st.integers(0, 9).flatmap(lambda n: BOGUS if n == 0 else shaped)
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return build_app(tmp_path_factory.mktemp("fuzz")).test_client()


@FUZZ
@given(query=queries)
def test_api_answers_every_query_with_a_result_or_a_named_400(client, query):
    resp = client.post("/api/query", data=json.dumps(query, allow_nan=True), content_type="application/json")
    assert resp.status_code in (200, 400), (resp.status_code, resp.get_data(as_text=True)[:300])
    body = resp.get_json()
    if resp.status_code == 400:
        assert body["ok"] is False and body["error"]["code"] and body["error"]["message"]
        assert "Traceback" not in body["error"]["message"]
    else:
        assert body["ok"] is True and isinstance(body["result"]["rows"], list)


@FUZZ
@given(query=queries)
def test_the_tool_call_path_never_fails_inside_the_tool(registry, query):
    result = registry.run("query_data", query)
    if not result.ok:
        assert result.error["code"] != "tool_failed", result.error  # an exception in the layer, not a bad query
        assert result.error["message"]


@pytest.fixture(scope="module")
def mcp_tools(registry, tmp_path_factory):
    """The MCP server's tool calls (protocols/mcp_tools.py, what the stdio process runs), its store in a temp folder."""
    var = tmp_path_factory.mktemp("mcp-fuzz")
    return McpTools(load_settings(overrides={"server.var_dir": str(var)}), registry)


@FUZZ
@given(query=queries)
def test_mcp_tool_answers_or_names_the_error(mcp_tools, query):
    outcome = mcp_tools.call("query_data", query)
    assert outcome["text"] and "Traceback" not in outcome["text"]
    assert outcome["is_error"] or outcome["structured"]["rows"] is not None



@pytest.mark.parametrize("measure", ["alderperson", "station_zip"])
def test_a_text_value_over_a_set_with_no_grouping_is_refused_by_name(registry, measure):
    """Found by the fuzzing above: a ward's or a district's text value asked over a set of community areas with no
    grouping to hold it raised inside the layer (a level missing from the index; a mean of strings)."""
    result = registry.run("query_data", {"measures": [measure], "members_from": {
        "measures": ["homicides"], "group_by": ["community_area"]}})
    assert not result.ok and result.error["code"] == "grain_not_available" and "group" in result.error["message"]
