"""Conversations through the JSON API, the run store and the CLI, with the rule planner on the real data.

Numbers in follow-up answers are checked against counts made with plain pandas from homicides.csv.
"""
import json
import re
import sqlite3
import threading
from pathlib import Path

import pandas as pd
import pytest

import app as app_module
from analyzer.analysis import Analysis
from app import create_app
from backends.scripted import ScriptedBackend
from settings.loader import load_settings, resolve_data_dir
from store.conversations import begin_turn
from store.run_store import RunStore, StoreUnavailable

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "var" / "test" / "cache"
Q1 = "How many homicides were there in Englewood in 2022?"
Q2, Q3 = "And in 2021?", "How does that compare with the city?"
BAD_IDS = [123, "not-an-id", "ABCDEF0123456789", "0" * 15, "0" * 17, "", ["0123456789abcdef"], "0123456789abcdeg"]


@pytest.fixture(scope="module")
def counts():
    h = pd.read_csv(resolve_data_dir(load_settings()) / "homicides.csv")
    return {"englewood_2022": int(((h["Year"] == 2022) & (h["Community Area"] == 68)).sum()),
            "englewood_2021": int(((h["Year"] == 2021) & (h["Community Area"] == 68)).sum()),
            "city_2021": int((h["Year"] == 2021).sum())}


def make_app(tmp_path, backend="rules", extra=None, backend_object=None):
    config = {"TESTING": True, "SETTINGS_OVERRIDES": {"model.backend": backend, "server.var_dir": str(tmp_path),
                                                      "data.cache_dir": str(CACHE), **(extra or {})}}
    if backend_object is not None:
        config["CHIQA_BACKEND_OBJECT"] = backend_object
    return create_app(config)


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def ask(client, question, conversation_id=None, stream=False):
    body = {"question": question}
    if conversation_id is not None:
        body["conversation_id"] = conversation_id
    return client.post("/api/ask/stream" if stream else "/api/ask", json=body)


def events(resp):
    return [json.loads(line) for line in resp.get_data(as_text=True).splitlines() if line.strip()]


def assert_error(resp, status, code):
    assert resp.status_code == status, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["ok"] is False and body["error"]["code"] == code and body["error"]["message"]
    return body["error"]["message"]


def test_a_conversation_carries_places_and_years_across_three_turns(client, counts):
    first = ask(client, Q1).get_json()
    cid = first["conversation_id"]
    assert re.fullmatch(r"[0-9a-f]{16}", cid) and first["turn"] == 1 and first["run_id"] != cid
    assert f"{counts['englewood_2022']} homicide" in first["answer"]
    assert "followup" not in first["analysis"]  # a first question carries nothing

    second = ask(client, Q2, cid).get_json()
    assert second["conversation_id"] == cid and second["turn"] == 2
    assert f"{counts['englewood_2021']} homicide" in second["answer"] and "Englewood" in second["answer"]
    carried = {(c["field"], c["from_turn"]) for c in second["analysis"]["followup"]["carried"]}
    assert {("areas", 1), ("metrics", 1)} <= carried and not any(f == "years" for f, _ in carried)
    assert second["trace"][0]["type"] == "analysis" and second["trace"][0]["analysis"]["followup"]["turn"] == 2

    evs = events(ask(client, Q3, cid, stream=True))
    assert evs[0]["event"] == "start" and evs[0]["conversation_id"] == cid and evs[0]["turn"] == 3
    result = evs[-1]["result"]
    assert evs[-1]["conversation_id"] == result["conversation_id"] == cid and result["turn"] == 3
    assert f"{counts['englewood_2021']} homicide" in result["answer"]
    assert f"{counts['city_2021']} homicide" in result["answer"]
    carried = {(c["field"], c["from_turn"]) for c in result["analysis"]["followup"]["carried"]}
    assert {("areas", 1), ("years", 2), ("metrics", 1)} <= carried
    assert result["analysis"]["followup"]["compare_city"] is True
    assert [c["arguments"].get("community_area") for c in result["tool_calls"]] == [68, None]

    thread = client.get(f"/api/conversations/{cid}").get_json()
    assert [t["turn"] for t in thread["turns"]] == [1, 2, 3] and thread["turns_left"] == 17
    assert [t["question"] for t in thread["turns"]] == [Q1, Q2, Q3]
    assert [t["run_id"] for t in thread["turns"]] == [first["run_id"], second["run_id"], result["run_id"]]
    stored = client.get(f"/api/runs/{second['run_id']}").get_json()
    assert stored["conversation_id"] == cid and stored["turn"] == 2
    listed = client.get("/api/runs").get_json()["runs"]
    assert {r["conversation_id"] for r in listed} == {cid}
    assert client.get("/api/health").get_json()["limits"]["max_conversation_turns"] == 20


def test_a_new_question_without_an_id_starts_a_new_conversation(client):
    a = ask(client, Q1).get_json()
    b = ask(client, Q1).get_json()
    assert a["conversation_id"] != b["conversation_id"] and a["turn"] == b["turn"] == 1
    assert ask(client, Q1, None).get_json()["turn"] == 1


@pytest.mark.parametrize("bad", BAD_IDS)
def test_a_malformed_conversation_id_is_a_400(client, bad):
    for stream in (False, True):
        message = assert_error(ask(client, Q2, bad, stream=stream), 400, "invalid_conversation_id")
        assert "start a new conversation" in message
    if isinstance(bad, str) and bad and "/" not in bad:
        assert_error(client.get(f"/api/conversations/{bad}"), 400, "invalid_conversation_id")
    assert client.get("/api/runs").get_json()["total"] == 0  # nothing ran, nothing stored


def test_an_unknown_conversation_id_is_a_404(client):
    unknown = "0123456789abcdef"
    for stream in (False, True):
        assert_error(ask(client, Q2, unknown, stream=stream), 404, "conversation_not_found")
    assert_error(client.get(f"/api/conversations/{unknown}"), 404, "conversation_not_found")


def test_turns_are_bounded(tmp_path):
    client = make_app(tmp_path, extra={"orchestrator.max_conversation_turns": 2}).test_client()
    cid = ask(client, Q1).get_json()["conversation_id"]
    assert ask(client, Q2, cid).get_json()["turn"] == 2
    for stream in (False, True):
        message = assert_error(ask(client, Q3, cid, stream=stream), 409, "conversation_full")
        assert "limit of 2 turns" in message and "start a new conversation" in message
    assert client.get(f"/api/conversations/{cid}").get_json()["turns_left"] == 0


def test_an_unstored_follow_up_keeps_its_conversation(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    client, store = app.test_client(), app.extensions["chiqa_store"]
    cid = ask(client, Q1).get_json()["conversation_id"]

    def refuse(*args, **kwargs):
        raise StoreUnavailable("the run store cannot write: disk full")
    with monkeypatch.context() as patch:
        patch.setattr(store, "save_turn", refuse)
        lost = ask(client, Q2, cid).get_json()
        assert lost["answer"] and lost["saved"] is False and lost["turn"] is None
        assert lost["conversation_id"] == cid  # the conversation itself is still stored: go on in it
        first = ask(client, Q1).get_json()
        assert first["conversation_id"] is None and first["turn"] is None  # nothing stored to continue
    again = ask(client, Q2, cid).get_json()
    assert again["saved"] is True and again["turn"] == 2


def test_the_prompt_summarises_earlier_turns(tmp_path):
    backend = ScriptedBackend()
    client = make_app(tmp_path, backend="scripted", backend_object=backend).test_client()
    first = ask(client, "How many homicides were there each year?").get_json()
    assert not any("Earlier in this conversation" in m["content"] for m in backend.requests[0].messages)
    ask(client, "And what about 2021?", first["conversation_id"])
    user = backend.requests[-1].messages[1]["content"]
    summary = first["answer"].split(". ")[0]
    assert user.startswith("Earlier in this conversation")
    assert f"Turn 1: How many homicides were there each year? -> {summary}" in user
    assert user.index("Turn 1:") < user.index("Question: And what about 2021?")


def test_store_numbers_turns_atomically_and_migrates_old_files(tmp_path):
    old = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(old)
    conn.execute("CREATE TABLE runs (id TEXT PRIMARY KEY, created_at REAL NOT NULL, question TEXT NOT NULL,"
                 " latency_ms REAL, stopped_because TEXT, partial INTEGER NOT NULL DEFAULT 0, n_tool_calls INTEGER"
                 " NOT NULL DEFAULT 0, n_duplicate INTEGER NOT NULL DEFAULT 0, n_error INTEGER NOT NULL DEFAULT 0,"
                 " backend TEXT, model TEXT, answer_pattern TEXT, result_json TEXT NOT NULL, rating INTEGER,"
                 " comment TEXT, feedback_at REAL)")
    conn.execute("INSERT INTO runs (id, created_at, question, result_json) VALUES ('aa', 1.0, 'old', '{}')")
    conn.commit()
    conn.close()
    store = RunStore(old)
    assert store.get("aa")["conversation_id"] is None and store.last_conversation_id() is None
    cid = "0123456789abcdef"
    ids = []

    def save(i):
        ids.append(store.save_turn({"question": f"q{i}", "answer": f"a{i}", "analysis": {"n": i}}, cid))

    threads = [threading.Thread(target=save, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(turn for _, turn in ids) == list(range(1, 9))
    turns = store.conversation_turns(cid)
    assert [t["turn"] for t in turns] == list(range(1, 9)) and store.turn_count(cid) == 8
    assert {t["analysis"]["n"] for t in turns} == set(range(8)) and store.last_conversation_id() == cid
    assert store.save({"question": "lone"}) and store.last_conversation_id() == cid  # a lone run has none


def test_earlier_turns_come_back_typed_and_an_odd_stored_analysis_carries_nothing(tmp_path):
    store = RunStore(tmp_path / "runs.sqlite3")
    cid = "0123456789abcdef"
    good = {"areas": [{"number": 68, "name": "Englewood", "text": "englewood", "match": "name"}], "years": [2022],
            "coverage": {"homicides": {"first_year": 2001, "last_year": 2023, "last_full_year": 2022,
                                       "end": "2023-07-19"}}}
    store.save_turn({"question": "q1", "answer": "a1. More.", "analysis": good}, cid)
    store.save_turn({"question": "q2", "answer": "a2", "analysis": {"areas": [{"bogus": 1}]}}, cid)
    turn = begin_turn(store, cid, 20)
    assert turn.number == 3 and [t.turn for t in turn.history] == [1, 2]
    first, second = turn.history
    assert isinstance(first.analysis, Analysis) and first.analysis.area_numbers == [68] and first.answer == "a1. More."
    assert second.analysis.areas == [] and second.question == "q2"


# ---------------------------------------------------------------- CLI

@pytest.fixture
def cli(tmp_path, monkeypatch):
    """app.main with a config whose run store is empty (a fresh var_dir) and the shared parquet cache."""
    config = tmp_path / "config.yaml"
    config.write_text(f"server:\n  var_dir: {tmp_path / 'var'}\ndata:\n  cache_dir: {CACHE}\n")
    monkeypatch.delenv("CHIQA_VAR_DIR", raising=False)

    def run(*argv):
        return app_module.main(["--config", str(config), "ask", *argv, "--backend", "rules"])
    return run


def test_cli_continue_and_conversation_flags(cli, capsys, counts):
    assert cli(Q1, "--json") == 0
    first = json.loads(capsys.readouterr().out)
    assert first["turn"] == 1 and re.fullmatch(r"[0-9a-f]{16}", first["conversation_id"])
    assert cli("--continue", Q2, "--json") == 0
    second = json.loads(capsys.readouterr().out)
    assert second["conversation_id"] == first["conversation_id"] and second["turn"] == 2
    assert f"{counts['englewood_2021']} homicide" in second["answer"]
    assert cli("--conversation", first["conversation_id"], Q3) == 0
    text = capsys.readouterr().out
    assert f"Conversation {first['conversation_id']}, turn 3" in text
    assert f"{counts['englewood_2021']} homicide" in text and f"{counts['city_2021']} homicides" in text
    # Sources and caveats are printed once, after the answer and before the trace; the answer has none itself.
    assert text.count("Sources:") == 1 and text.count("Caveats:") == 1
    assert text.index("Sources:") < text.index("Trace:") and text.index("Caveats:") < text.index("Trace:")
    assert cli(Q1, "--json") == 0
    assert json.loads(capsys.readouterr().out)["conversation_id"] != first["conversation_id"]


@pytest.mark.parametrize("argv,code", [
    (["--conversation", "nope"], "invalid_conversation_id"),
    (["--conversation", "0123456789abcdef"], "conversation_not_found"),
    (["--continue"], "no_conversation"),
])
def test_cli_conversation_errors(cli, capsys, argv, code):
    assert cli(*argv, Q2, "--json") == 2
    error = json.loads(capsys.readouterr().out)
    assert error["ok"] is False and error["error"]["code"] == code and error["error"]["message"]
    assert cli(*argv, Q2) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ") and "Traceback" not in captured.err


def test_cli_prints_the_answer_when_the_store_cannot_write(cli, capsys, monkeypatch):
    def refuse(*args, **kwargs):
        raise StoreUnavailable("the run store cannot write: disk full")
    monkeypatch.setattr(RunStore, "save_turn", refuse)
    assert cli(Q1, "--json") == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["answer"] and result["saved"] is False and result["conversation_id"] is None
    assert "not stored" in captured.err and "disk full" in captured.err


def test_cli_refuses_a_full_conversation(cli, capsys, tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text(config.read_text() + "orchestrator:\n  max_conversation_turns: 1\n")
    assert cli(Q1, "--json") == 0
    capsys.readouterr()
    assert cli("--continue", Q2, "--json") == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "conversation_full"
