"""`python app.py mcp` driven by the MCP SDK's own stdio client, launched the way the Claude Desktop
recipe says (absolute paths, started from another folder), answering `ask` with the rule planner.

One server process and one session for the module: list the tools, call one with good arguments (values
compared with plain pandas), call one with bad arguments (isError, the registry's message), call `ask`.
Bounded by anyio.fail_after; the SDK's client ends the server when the session closes.
"""
import json
import sys
from pathlib import Path

import anyio
import pandas as pd
import pytest
import yaml
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.readme_snippets import code_blocks
from store.run_store import RunStore

ROOT = Path(__file__).resolve().parent.parent
DATA_TOOLS = ["query_homicides_advanced", "get_iucr_info", "query_census_demographics", "query_socioeconomic",
              "query_property_values", "analyze_homicide_rates_by_community_area",
              "analyze_homicide_socioeconomic_context", "compare_homicide_district_trends", "get_police_stations", "query_data"]
# The design's headline question as one typed query: the highest homicide rate in 2021, its income and home value.
HEADLINE = {"measures": [{"measure": "homicide_rate", "period": {"year": 2021}}, "per_capita_income",
                         {"measure": "home_value", "period": {"month": "2024-09"}}],
            "group_by": ["community_area"], "order_by": [{"field": "homicide_rate"}], "limit": 1}
GOOD = ("query_homicides_advanced", {"year": 2022, "group_by": "district"})
BAD = ("query_homicides_advanced", {"district": 13})
ASK = {"question": "How many homicides were there in 2022?"}


def documented_server() -> dict:
    """The claude_desktop_config.json entry of docs/protocols.md for ChiQA, with its placeholder paths made real."""
    [block] = code_blocks("json", "mcpServers")
    entry = json.loads(block)["mcpServers"]["chiqa"]
    assert entry["command"] == "/path/to/chiqa/.venv/bin/python"
    return {"command": sys.executable,  # this checkout's interpreter stands in for /path/to/chiqa/.venv
            "args": [a.replace("/path/to/chiqa", str(ROOT)) for a in entry["args"]]}


async def session_run(server: dict, env: dict, cwd: Path) -> dict:
    params = StdioServerParameters(command=server["command"], args=server["args"], env=env, cwd=str(cwd))
    out = {}
    with anyio.fail_after(120):
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                out["init"] = await session.initialize()
                out["tools"] = (await session.list_tools()).tools
                out["good"] = await session.call_tool(*GOOD)
                out["bad"] = await session.call_tool(*BAD)
                out["unknown_argument"] = await session.call_tool("get_iucr_info", {"colour": "red"})
                out["measures"] = await session.call_tool("list_measures", {})
                out["query"] = await session.call_tool("query_data", HEADLINE)
                out["bad_query"] = await session.call_tool("query_data", {"measures": ["per_capita_income"],
                                                                          "group_by": ["ward"]})
                out["ask"] = await session.call_tool("ask", ASK)
                out["ask_empty"] = await session.call_tool("ask", {"question": "  "})
    return out


@pytest.fixture(scope="module")
def mcp(tmp_path_factory, data_dir):
    tmp = tmp_path_factory.mktemp("mcp")
    cache = ROOT / "var" / "test" / "cache"  # the tests' shared parquet cache keeps start-up short
    (tmp / "config.yaml").write_text(yaml.safe_dump({"data": {"cache_dir": str(cache)}}))
    server = documented_server()
    server["args"] += ["--backend", "rules"]  # the documented variant for answering without a model
    env = {"PATH": "/usr/bin:/bin", "CHIQA_CONFIG": str(tmp / "config.yaml"), "CHIQA_VAR_DIR": str(tmp / "var"),
           "CHIQA_DATA_DIR": str(data_dir)}
    out = anyio.run(session_run, server, env, tmp)  # cwd: not the checkout, as Claude Desktop starts it
    out["var"] = tmp / "var"
    return out


@pytest.fixture(scope="module")
def raw(data_dir):
    df = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    return pd.DataFrame({"year": df["Year"].astype(int), "district": pd.to_numeric(df["District"], errors="coerce")})


def test_readme_args_are_the_mcp_command():
    server = documented_server()
    assert server["args"] == [str(ROOT / "app.py"), "mcp"]


def test_lists_the_data_tools_and_ask(mcp, registry):
    assert mcp["init"].server_info.name == "chiqa"
    tools = {t.name: t for t in mcp["tools"]}
    assert list(tools) == DATA_TOOLS + ["list_measures", "ask"]
    for schema in registry.schemas():
        assert tools[schema["name"]].input_schema == schema["parameters"]
        assert tools[schema["name"]].description == schema["description"]
    assert tools["ask"].input_schema["required"] == ["question"]


def test_good_call_matches_pandas(mcp, raw):
    result = mcp["good"]
    assert result.is_error is False
    values = result.structured_content
    expected = raw[raw["year"] == 2022]
    assert values["total"] == len(expected)
    by_district = expected["district"].dropna().astype(int).value_counts()
    top = values["breakdown"][0]
    assert int(top["district"]) == int(by_district.idxmax()) and top["homicides"] == int(by_district.max())
    assert result.content[0].text.startswith("Homicides")
    assert "Sources:" in result.content[0].text


def test_bad_call_is_an_error_with_the_registrys_message(mcp, registry):
    result = mcp["bad"]
    assert result.is_error is True and result.structured_content is None
    assert result.content[0].text == registry.run(*BAD).error["message"]
    assert "13" in result.content[0].text
    unknown = mcp["unknown_argument"]
    assert unknown.is_error is True
    assert unknown.content[0].text == registry.run("get_iucr_info", {"colour": "red"}).error["message"]


def test_ask_returns_the_answer_and_the_trace(mcp, raw):
    result = mcp["ask"]
    assert result.is_error is False
    answer, trace_text = (c.text for c in result.content)
    assert str(int((raw["year"] == 2022).sum())) in answer
    trace = json.loads(trace_text)
    assert trace == result.structured_content["trace"] and result.structured_content["answer"] == answer
    assert trace["backend"] == "rules" and trace["permalink"].startswith(f"/runs/{trace['run_id']}?key=")
    [call] = trace["tool_calls"]
    assert call["name"] == "query_homicides_advanced" and call["status"] == "ok"
    assert mcp["ask_empty"].is_error is True and "question" in mcp["ask_empty"].content[0].text
    stored = RunStore(mcp["var"] / "runs.sqlite3").get(trace["run_id"])
    assert stored["result"]["answer"] == answer


def test_lists_the_measures_and_runs_a_cross_domain_query(mcp, data_dir):
    """An MCP client learns the measures, then answers the headline question with one query, no model between."""
    listed = mcp["measures"]
    assert listed.is_error is False
    names = {m["name"] for m in listed.structured_content["measures"]}
    assert {"homicide_rate", "per_capita_income", "home_value", "alderperson"} <= names
    result = mcp["query"]
    assert result.is_error is False, result.content[0].text
    [row] = result.structured_content["rows"]
    # pandas straight from the CSVs: 2021 homicides per ACS resident (the 2016+ population), highest first
    h = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    h = h[h["Year"] == "2021"]
    counts = pd.to_numeric(h["Community Area"], errors="coerce").dropna().astype(int).value_counts()
    acs = pd.read_csv(data_dir / "census_acs.csv")
    areas = pd.read_csv(data_dir / "community_areas.csv")
    pop = acs.assign(n=acs["community_area"].map(dict(zip(areas["community"], areas["area_number"])))) \
        .set_index("n")["total_population"]
    rates = (counts.reindex(range(1, 78), fill_value=0) / pop * 1e5).sort_values(ascending=False)
    assert row["community_area"] == int(rates.index[0])
    assert abs(row["homicide_rate"] - rates.iloc[0]) < 1e-9
    socio = pd.read_csv(data_dir / "socioeconomic.csv")
    income = socio.set_index("Community Area Number")["PER CAPITA INCOME "]
    assert row["per_capita_income"] == income[float(rates.index[0])]
    assert row["home_value"] > 0
    bad = mcp["bad_query"]
    assert bad.is_error is True and "not published by ward" in bad.content[0].text
