"""The conversation turn cap holds under concurrent follow-ups: the store checks it inside the insert's write
transaction (store/run_store.py save_turn), so racing follow-ups never store more turns than the cap.

A follow-up that passed the check before answering but lost the race for the last turn gets its answer back
with saved: false and conversation_full: true; one asked after the conversation is full is a 409 as before.
"""
import sqlite3
import threading

import pytest
import requests

from bench.bench_web import gunicorn_server
from store.run_store import ConversationFull, RunStore
from tests.test_conversations import make_app

CAP = 5
THREADS = 40
KEY = "turn-cap-test-client-key-0123456789"
AUTH = {"Authorization": f"Bearer {KEY}"}


def stored_turns(path, conversation_id):
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("SELECT turn FROM runs WHERE conversation_id = ? ORDER BY turn",
                                               (conversation_id,))]
    finally:
        conn.close()


def check_outcomes(outcomes, turns):
    assert len(turns) == CAP and turns == list(range(1, CAP + 1)), turns
    saved = [body for status, body in outcomes if status == 200 and body.get("saved")]
    refused_late = [body for status, body in outcomes if status == 200 and not body.get("saved")]
    refused_early = [body for status, body in outcomes if status == 409]
    assert len(saved) == CAP - 1  # the first turn was stored before the race
    assert len(saved) + len(refused_late) + len(refused_early) == THREADS, outcomes
    for body in refused_late:  # answered, then refused by the store: the answer is still there
        assert body["conversation_full"] is True and body["run_id"] is None and body["answer"]
        assert "limit of 5 turns" in body["save_error"]
    for body in refused_early:
        assert body["error"]["code"] == "conversation_full"


def test_the_store_refuses_a_turn_past_the_cap(tmp_path):
    store = RunStore(tmp_path / "runs.sqlite3")
    for n in range(1, 4):
        assert store.save_turn({"question": f"q{n}", "answer": "a"}, "0123456789abcdef", max_turns=3)[1] == n
    with pytest.raises(ConversationFull, match="limit of 3 turns"):
        store.save_turn({"question": "q4", "answer": "a"}, "0123456789abcdef", max_turns=3)
    assert store.turn_count("0123456789abcdef") == 3
    assert store.save_turn({"question": "lone", "answer": "a"}, None, max_turns=3)[1] is None  # no conversation


def test_the_store_cap_holds_across_threads(tmp_path):
    store = RunStore(tmp_path / "runs.sqlite3")
    results = []

    def one(n):
        try:
            results.append(store.save_turn({"question": f"q{n}", "answer": "a"}, "0123456789abcdef", max_turns=CAP))
        except ConversationFull:
            results.append(None)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(1 for r in results if r) == CAP
    assert stored_turns(tmp_path / "runs.sqlite3", "0123456789abcdef") == list(range(1, CAP + 1))


def race(post):
    """THREADS follow-ups at once, released together; (status, body) of each."""
    outcomes, barrier = [], threading.Barrier(THREADS)

    def one():
        barrier.wait()
        status, body = post()
        outcomes.append((status, body))

    threads = [threading.Thread(target=one) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return outcomes


def test_concurrent_follow_ups_through_flask_never_pass_the_cap(tmp_path):
    app = make_app(tmp_path, extra={"orchestrator.max_conversation_turns": CAP})
    first = app.test_client().post("/api/ask", json={"question": "How many homicides were there in 2022?"},
                                   headers=AUTH).get_json()
    cid = first["conversation_id"]

    def post():
        resp = app.test_client().post("/api/ask", json={"question": "And in 2021?", "conversation_id": cid},
                                      headers=AUTH)
        return resp.status_code, resp.get_json()

    outcomes = race(post)
    check_outcomes(outcomes, stored_turns(tmp_path / "runs.sqlite3", cid))


def test_concurrent_follow_ups_on_gunicorn_never_pass_the_cap(tmp_path):
    with gunicorn_server(tmp_path, overrides={"orchestrator.max_conversation_turns": CAP},
                         env={"CHIQA_BACKEND": "rules", "WEB_CONCURRENCY": "2"}) as base:
        first = requests.post(base + "/api/ask", json={"question": "How many homicides were there in 2022?"},
                              headers=AUTH, timeout=60).json()
        cid = first["conversation_id"]

        def post():
            resp = requests.post(base + "/api/ask", json={"question": "And in 2021?", "conversation_id": cid},
                                 headers=AUTH, timeout=120)
            return resp.status_code, resp.json()

        outcomes = race(post)
        check_outcomes(outcomes, stored_turns(tmp_path / "runs.sqlite3", cid))
