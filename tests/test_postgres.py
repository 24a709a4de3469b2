"""The run store on a real PostgreSQL server (started by the session's ``postgres`` fixture, tests/conftest.py):
the same answers as SQLite for the same story, the turn cap under racing writers from two store objects (two
nodes), a read-only or slow database costing the write, never the answer, and `store migrate` from SQLite twice.

The gunicorn tests with two nodes are in tests/test_postgres_nodes.py.
"""
import sqlite3
import threading
import time

import psycopg
import pytest

import app
from store.database import PoolLimits
from store.run_store import ANY, ConversationFull, RunStore, StoreUnavailable
from tests.test_conversations import make_app
from tests.test_run_store import result

pytestmark = pytest.mark.postgres

CID = "0123456789abcdef"
AUTH = {"Authorization": "Bearer postgres-tier-client-key-0123456789"}


def story(store: RunStore) -> dict:
    """Writes and reads every part of the store uses; what they give back, without ids and times."""
    r1, t1 = store.save_turn(result("first", [("t", "ok")], total_ms=100), CID, max_turns=3, owner="alice",
                             share_key="k1")
    r2, t2 = store.save_turn(result("second \ud800 \x00", [("t", "ok"), ("t", "duplicate"), ("u", "error")],
                                    stop="max_tool_calls", total_ms=300), CID, max_turns=3, owner="alice", share_key="k2")
    r3 = store.save(result("lone", stop="timeout", total_ms=50))
    feedback = [store.set_feedback(r1, 1, "good", owner="alice"), store.set_feedback(r3, -1, owner="bob"),
                store.set_feedback(r3, -1, "bad")]
    second = store.get(r2)
    for key in ("id", "created_at", "created_at_iso"):
        second.pop(key)
    return {
        "turns": [t1, t2], "feedback": feedback, "second": second, "missing": store.get("ffffffffffffffff"),
        "recent": [row["question"] for row in store.recent(10)[0]],
        "totals": [store.recent(1, owner=owner)[1] for owner in (ANY, "alice", None, "bob")],
        "conversation": [(t["turn"], t["question"], t["share_key"]) for t in store.conversation_turns(CID, "alice")],
        "not_bobs": store.conversation_turns(CID, owner="bob"), "turn_count": store.turn_count(CID),
        "last": store.last_conversation_id(), "count": store.count(), "stats": store.stats(),
        "exists": [store.exists(r1), store.exists("nope")],
    }


def test_postgresql_keeps_what_sqlite_keeps(tmp_path, pg_url):
    on_sqlite, on_postgres = story(RunStore(tmp_path / "runs.sqlite3")), story(RunStore(pg_url))
    assert on_postgres == on_sqlite
    assert on_postgres["second"]["question"] == "second \ufffd \ufffd"  # what neither database could hold
    assert on_postgres["stats"]["feedback"]["by_answer_pattern"][0]["count"] == 1


def test_the_turn_cap_holds_for_racing_writers_on_two_nodes(pg_url):
    nodes, outcomes = [RunStore(pg_url), RunStore(pg_url)], []
    barrier = threading.Barrier(40)

    def one(n):
        barrier.wait()
        try:
            outcomes.append(nodes[n % 2].save_turn({"question": f"q{n}"}, CID, max_turns=5)[1])
        except ConversationFull:
            outcomes.append(None)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(t for t in outcomes if t) == [1, 2, 3, 4, 5] and outcomes.count(None) == 35
    assert [t["turn"] for t in nodes[0].conversation_turns(CID)] == [1, 2, 3, 4, 5]


def set_read_only(postgres, on: bool) -> None:
    """Server-wide, reloaded: open sessions follow too (what a failover to a standby looks like to the pool)."""
    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        conn.execute(f"ALTER SYSTEM SET default_transaction_read_only = {'on' if on else 'off'}")
        conn.execute("SELECT pg_reload_conf()")
    time.sleep(0.5)  # the reload reaches each backend at its next command


def test_a_read_only_database_costs_the_write_and_the_next_write_retries(postgres, pg_url):
    store = RunStore(pg_url)
    kept = store.save({"question": "before"})
    set_read_only(postgres, True)
    try:
        with pytest.raises(StoreUnavailable, match="cannot write.*read-only transaction"):
            store.save({"question": "while read-only"})
        health = store.health()
        assert health["state"] == "degraded" and health["unsaved_runs"] == 1
        assert store.get(kept)["question"] == "before"  # the history stays readable
    finally:
        set_read_only(postgres, False)
    assert store.get(store.save({"question": "after"}))["question"] == "after"
    assert store.health()["state"] == "ok"


def test_a_slow_database_fails_the_write_within_the_statement_timeout(pg_url):
    store = RunStore(pg_url, PoolLimits(statement_timeout=1.0))
    store.prepare()
    with psycopg.connect(pg_url) as locker:  # a long transaction holding the table: every write must wait
        locker.execute("LOCK TABLE runs IN ACCESS EXCLUSIVE MODE")
        started = time.monotonic()
        with pytest.raises(StoreUnavailable, match="statement timeout"):
            store.save({"question": "q"})
        assert time.monotonic() - started < 5
    assert store.save({"question": "q"})  # the lock is gone: the next write goes through


def table_rows(url: str, table: str) -> list[dict]:
    with psycopg.connect(url) as conn:
        cursor = conn.execute(f"SELECT * FROM {table} ORDER BY id")
        names = [c.name for c in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]


def sqlite_rows(path, table: str) -> list[dict]:
    conn = sqlite3.connect(path)
    try:
        cursor = conn.execute(f"SELECT * FROM {table} ORDER BY id")
        names = [c[0] for c in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]
    finally:
        conn.close()


def test_store_migrate_moves_a_sqlite_history_twice_and_it_goes_on_there(tmp_path, pg_url, capsys):
    client = make_app(tmp_path / "sqlite").test_client()
    asked = []
    for question, follow in (("How many homicides were there in 2022?", ["And in 2021?", "And in 2020?"]),
                             ("What is the population of Austin?", [])):
        first = client.post("/api/ask", json={"question": question}, headers=AUTH).get_json()
        asked.append(first)
        for text in follow:
            asked.append(client.post("/api/ask", json={"question": text, "conversation_id": first["conversation_id"]},
                                     headers=AUTH).get_json())
    assert all(body["saved"] for body in asked)
    client.post(f"/api/runs/{asked[1]['run_id']}/feedback", json={"rating": "down", "comment": "check"}, headers=AUTH)
    source = tmp_path / "sqlite" / "runs.sqlite3"
    argv = ["store", "migrate", "--from", str(source), "--to", pg_url]

    assert app.main(argv) == 0
    assert "copied 4 runs" in capsys.readouterr().out
    copied = {table: table_rows(pg_url, table) for table in ("runs", "conversations")}
    assert copied == {table: sqlite_rows(source, table) for table in ("runs", "conversations")}
    assert app.main(argv) == 0
    assert "copied 0 runs" in capsys.readouterr().out
    assert {table: table_rows(pg_url, table) for table in ("runs", "conversations")} == copied

    node = make_app(tmp_path / "pg", extra={"store.url": pg_url}).test_client()
    cid = asked[0]["conversation_id"]
    follow = node.post("/api/ask", json={"question": "And in 2019?", "conversation_id": cid}, headers=AUTH).get_json()
    assert follow["saved"] and follow["turn"] == 4
    assert node.get(asked[1]["permalink"]).status_code == 200  # the share key came along
    mine = node.get(f"/api/runs/{asked[1]['run_id']}", headers=AUTH).get_json()
    assert mine["rating"] == -1 and mine["comment"] == "check"
    assert node.get(f"/api/runs/{asked[1]['run_id']}").status_code == 404  # still its owner's only
