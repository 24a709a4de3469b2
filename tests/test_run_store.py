"""web/run_store.py and web/run_stats.py: storing runs, feedback, listing, stats and concurrent writers."""
import sqlite3
import threading

import pytest

from store.run_stats import NO_TOOLS, _percentile, answer_pattern, tool_call_records
from store.run_store import RunStore


def result(question="q", calls=(), stop="model_done", total_ms=100.0, backend="scripted"):
    return {"question": question, "answer": "a", "partial": stop == "timeout",
            "tool_calls": [{"index": i + 1, "name": n, "status": s} for i, (n, s) in enumerate(calls)],
            "trace": [], "stopped_because": stop, "timings": {"total_ms": total_ms},
            "backend": {"backend": backend, "model": "m"}, "model": "m"}


@pytest.fixture
def store(tmp_path):
    return RunStore(tmp_path / "runs.sqlite3")


def test_save_and_get_round_trip(store):
    r = result("How many?", [("tool_a", "ok"), ("tool_b", "error")], total_ms=250.5)
    run_id = store.save(r)
    got = store.get(run_id)
    assert got["result"] == r
    assert got["question"] == "How many?" and got["latency_ms"] == 250.5
    assert got["n_tool_calls"] == 2 and got["n_error"] == 1 and got["n_duplicate"] == 0
    assert got["backend"] == "scripted" and got["answer_pattern"] == "tool_a > tool_b"
    assert got["rating"] is None and store.exists(run_id) and not store.exists("nope")
    assert store.get("nope") is None


def test_wal_mode(store, tmp_path):
    store.save(result())
    conn = sqlite3.connect(tmp_path / "runs.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_answer_pattern_and_records():
    assert answer_pattern(result()) == NO_TOOLS
    assert answer_pattern(result(calls=[("a", "ok"), ("a", "duplicate")])) == "a > a"
    trace_only = {"trace": [{"type": "tool_call", "name": "x", "status": "ok"}, {"type": "model_pass"},
                            {"type": "tool_call", "result": {"tool": "y", "ok": False}}]}
    assert tool_call_records(trace_only) == [{"name": "x", "status": "ok"}, {"name": "y", "status": "error"}]


def test_recent_is_newest_first_and_paginated(store):
    ids = [store.save(result(f"q{i}")) for i in range(5)]
    page, total = store.recent(2, 0)
    assert total == 5 and [r["id"] for r in page] == [ids[4], ids[3]]
    page, _ = store.recent(2, 4)
    assert [r["id"] for r in page] == [ids[0]]


def test_feedback_overwrites(store):
    run_id = store.save(result())
    assert store.set_feedback(run_id, 1, "good")
    assert store.set_feedback(run_id, -1, None)
    got = store.get(run_id)
    assert got["rating"] == -1 and got["comment"] is None
    assert not store.set_feedback("missing", 1)


def test_percentile_nearest_rank():
    assert _percentile([], 50) is None
    assert _percentile([5.0], 95) == 5.0
    values = [float(v) for v in range(1, 101)]
    assert _percentile(values, 50) == 50.0 and _percentile(values, 95) == 95.0


def test_stats(store):
    a = store.save(result(calls=[("t", "ok")], total_ms=100))
    b = store.save(result(calls=[("t", "ok")], total_ms=300))
    store.save(result(calls=[("t", "ok"), ("t", "duplicate"), ("u", "error"), ("u", "ok")], stop="max_tool_calls",
                      total_ms=900))
    store.save(result(stop="timeout", total_ms=2000))
    store.set_feedback(a, 1)
    store.set_feedback(b, -1)
    s = store.stats()
    assert s["questions"] == 4
    assert s["tool_calls_per_question"] == {"0": 1, "1": 2, "4": 1}
    assert s["stop_reasons"] == {"model_done": 2, "max_tool_calls": 1, "timeout": 1}
    assert s["tool_calls"] == 6 and s["duplicate_rate"] == round(1 / 6, 4) and s["error_rate"] == round(1 / 6, 4)
    by = {p["pattern"]: p for p in s["feedback"]["by_answer_pattern"]}
    assert by["t"] == {"pattern": "t", "count": 2, "up": 1, "down": 1, "rated": 2, "share_up": 0.5}
    assert by[NO_TOOLS]["share_up"] is None
    assert s["feedback"]["rated"] == 2 and s["feedback"]["share_up"] == 0.5
    assert s["latency_ms"] == {"p50": 300.0, "p95": 2000.0, "count": 4}


def test_concurrent_writers(store, tmp_path):
    """Threads with their own connections, plus a second store object (another worker process's view)."""
    other = RunStore(tmp_path / "runs.sqlite3")
    errors = []

    def write(s, n):
        try:
            for i in range(n):
                run_id = s.save(result(f"t{i}", [("t", "ok")]))
                s.set_feedback(run_id, 1)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(store if i % 2 else other, 25)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert store.count() == 200 and other.stats()["feedback"]["rated"] == 200
