"""The official `openai` Python client against a live gunicorn on 127.0.0.1, answering with the rule planner.

Bounded: one server for the module, fixed requests, client timeouts, no retries, gunicorn stopped at the end.
The figure checked is computed independently with plain pandas from the raw homicide export.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import openai
import pandas as pd
import pytest
import requests
import yaml

from bench.bench_web import gunicorn_server
from tests.readme_snippets import code_blocks

pytestmark = pytest.mark.slow

QUESTION = "How many homicides were there in 2022?"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    with gunicorn_server(tmp_path_factory.mktemp("openai_client"), env={"CHIQA_BACKEND": "rules"}) as url:
        yield url


@pytest.fixture(scope="module")
def client(base):
    # Any key works (ChiQA does not check one); the client insists on having one.
    return openai.OpenAI(base_url=base + "/v1", api_key="not-needed", max_retries=0, timeout=60)


@pytest.fixture(scope="module")
def homicides_2022(data_dir):
    df = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    return int((df["Year"].astype(int) == 2022).sum())


def _lead(text: str) -> str:
    """The answer's first paragraph, after the "Read as: ..." line the answer text now opens with."""
    return next(p for p in text.split("\n\n") if p.strip() and not p.strip().startswith("Read as:"))


def _number_in(text: str, value: int) -> bool:
    return value in {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", text)}


def test_models_list(client):
    assert [m.id for m in client.models.list()] == ["chiqa", "chiqa-text"]


def test_completion(client, base, homicides_2022):
    completion = client.chat.completions.create(model="chiqa", messages=[{"role": "user", "content": QUESTION}])
    content = completion.choices[0].message.content
    answer = content.split("</details>\n", 1)[1]
    assert _number_in(_lead(answer), homicides_2022), answer
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage.total_tokens > 0
    trace = completion.model_extra["chiqa"]
    assert trace["backend"] == "rules" and trace["stopped_because"]
    [call] = trace["tool_calls"]
    assert call["name"] == "query_homicides_advanced" and call["status"] == "ok"
    assert content.count('<details type="tool_calls"') == 1
    # the permalink points at this server's stored run, with its share key: the SDK's placeholder key is no
    # identity, so the link is what opens the run
    assert trace["permalink"].startswith(f"{base}/runs/{trace['run_id']}?key=")
    assert requests.get(trace["permalink"], timeout=10).status_code == 200
    key = trace["permalink"].split("?key=")[1]
    assert requests.get(f"{base}/api/runs/{trace['run_id']}", timeout=10).status_code == 404
    stored = requests.get(f"{base}/api/runs/{trace['run_id']}?key={key}", timeout=10).json()
    assert _number_in(stored["result"]["answer"], homicides_2022)


def test_streaming(client, homicides_2022):
    stream = client.chat.completions.create(model="chiqa-text", messages=[{"role": "user", "content": QUESTION}],
                                            stream=True, stream_options={"include_usage": True})
    chunks = list(stream)
    assert chunks[0].choices[0].delta.role == "assistant"
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.startswith("Tool call 1: query_homicides_advanced")
    assert _number_in(_lead(text.split("\n\n", 1)[1]), homicides_2022), text
    finished = [c for c in chunks if c.choices and c.choices[0].finish_reason]
    assert [c.choices[0].finish_reason for c in finished] == ["stop"]
    assert finished[0].model_extra["chiqa"]["tool_calls"][0]["status"] == "ok"
    assert chunks[-1].usage.total_tokens > 0


def test_errors_are_openai_exceptions(client):
    with pytest.raises(openai.NotFoundError) as info:
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": QUESTION}])
    assert info.value.code == "model_not_found" and "chiqa" in info.value.message
    with pytest.raises(openai.BadRequestError) as info:
        client.chat.completions.create(model="chiqa", messages=[{"role": "user", "content": "x" * 2001}])
    assert info.value.code == "question_too_long"
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model="chiqa", messages=[{"role": "system", "content": "only a system"}])


def test_llm_cli_with_the_documented_recipe(base, tmp_path, homicides_2022):
    """The extra-openai-models.yaml of docs/protocols.md, as written but for the port, drives the real `llm` CLI."""
    [block] = code_blocks("yaml", "model_id")
    [entry] = yaml.safe_load(block)
    assert entry["api_base"] == "http://127.0.0.1:8000/v1" and entry["model_name"] in ("chiqa", "chiqa-text")
    entry["api_base"] = base + "/v1"  # this test's server listens on a free port
    (tmp_path / "extra-openai-models.yaml").write_text(yaml.safe_dump([entry]))
    llm = str(Path(sys.executable).parent / "llm")
    env = {**os.environ, "LLM_USER_PATH": str(tmp_path)}
    env.pop("OPENAI_API_KEY", None)
    for extra in ([], ["--no-stream"]):
        done = subprocess.run([llm, "-m", entry["model_id"], *extra, QUESTION], env=env, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Tool call 1: query_homicides_advanced")
        assert _number_in(_lead(done.stdout.split("\n\n", 1)[1]), homicides_2022), done.stdout
