"""Bounded load test: gunicorn on 127.0.0.1 (scripted backend), 200 asks at concurrency 20, then a full queue.

Ends by itself: fixed request counts, per-request timeouts, gunicorn terminated at the end.
"""
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from bench.bench_web import gunicorn_server

pytestmark = pytest.mark.slow


def _post(base, i, timeout=60):
    resp = requests.post(base + "/api/ask", json={"question": f"How many homicides were there each year? #{i}"},
                         timeout=timeout)
    return resp.status_code, resp.headers.get("Retry-After"), resp.json()


def _rows(var_dir):
    conn = sqlite3.connect(var_dir / "runs.sqlite3")
    try:
        return conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    finally:
        conn.close()


def test_200_asks_at_concurrency_20(tmp_path):
    started = time.time()
    with gunicorn_server(tmp_path) as base:
        with ThreadPoolExecutor(20) as pool:
            results = list(pool.map(lambda i: _post(base, i), range(200)))
        health = requests.get(base + "/api/health", timeout=5)
        assert health.status_code == 200
    statuses = [s for s, _, _ in results]
    assert all(s < 500 or s == 503 for s in statuses), statuses
    for status, retry_after, body in results:
        if status == 503:
            assert retry_after and body["error"]["code"] == "busy"
        else:
            assert status == 200 and body["run_id"] and body["answer"]
    answered = statuses.count(200)
    assert answered >= 150  # the default queue (8) is as deep as gunicorn's thread pool: few or no 503s
    assert _rows(tmp_path) == answered
    assert time.time() - started < 240


def test_full_queue_gives_503_with_retry_after(tmp_path):
    with gunicorn_server(tmp_path, overrides={"model.queue_size": 1}, env={"CHIQA_SCRIPTED_DELAY": "0.3"}) as base:
        with ThreadPoolExecutor(16) as pool:
            futures = [pool.submit(_post, base, i, 90) for i in range(16)]
            time.sleep(0.5)
            # health stays fast while a generation runs and the queue is full
            started = time.perf_counter()
            health = requests.get(base + "/api/health", timeout=5).json()
            assert time.perf_counter() - started < 2
            assert health["backend"]["queue"]["size"] == 1
            results = [f.result() for f in futures]
    statuses = [s for s, _, _ in results]
    assert 503 in statuses and 200 in statuses, statuses
    assert all(s in (200, 503) for s in statuses), statuses
    for status, retry_after, body in results:
        if status == 503:
            assert int(retry_after) > 0
            assert body == {"ok": False, "error": {"code": "busy", "message": body["error"]["message"]}}
    assert _rows(tmp_path) == statuses.count(200)
