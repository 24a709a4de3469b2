"""Run store benchmark: POST /api/ask per second with the scripted backend on gunicorn (1 worker x 8 threads per
node, loopback), the history in SQLite on one node against PostgreSQL on one and on two nodes, in one run.

    .venv/bin/python -m bench.bench_store [--requests N] [--concurrency C]

Every answer is stored, so this measures the web layer, the loop and the run store together (no model). The
PostgreSQL server is a throwaway one (bench/postgres_server.py) with its default durability settings; the client
threads spread the requests over the nodes in turn, as a round-robin load balancer would.
"""
from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from bench.bench_web import QUESTION, gunicorn_server
from bench.postgres_server import PostgresUnavailable, postgres_server


def ask_spread(bases: list[str], n: int, concurrency: int) -> dict:
    """``n`` questions from ``concurrency`` threads, request i to node i mod len(bases); req/s and latencies."""
    sessions = threading.local()

    def one(i: int):
        session = getattr(sessions, "session", None) or requests.Session()
        sessions.session = session
        started = time.perf_counter()
        resp = session.post(bases[i % len(bases)] + "/api/ask", json={"question": f"{QUESTION} ({i % 7})"}, timeout=60)
        return resp.status_code, resp.json().get("saved") is True, (time.perf_counter() - started) * 1000

    for base in bases:  # warm: each node's orchestrator, tools and store connections
        requests.post(base + "/api/ask", json={"question": QUESTION}, timeout=60)
    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(one, range(n)))
    wall = time.perf_counter() - started
    latencies = sorted(ms for status, _, ms in results if status == 200)
    return {"nodes": len(bases), "requests": n, "concurrency": concurrency, "req_per_s": round(n / wall, 1),
            "ok": len(latencies), "saved": sum(1 for _, saved, _ in results if saved),
            "p50_ms": round(latencies[len(latencies) // 2], 1) if latencies else None,
            "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 1) if latencies else None}


@contextlib.contextmanager
def nodes(folder: Path, count: int, url: str | None):
    overrides = {"store.url": url} if url else {}
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(gunicorn_server(folder / f"node{n}", overrides=overrides)) for n in range(count)]


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args(argv if argv is not None else [])
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="chiqa_bench_store_") as tmp, postgres_server(fast=False) as pg:
            for label, count, url in (("SQLite", 1, None), ("PostgreSQL", 1, pg.create_database("bench1")),
                                      ("PostgreSQL", 2, pg.create_database("bench2"))):
                with nodes(Path(tmp) / f"{label}{count}", count, url) as bases:
                    rows.append({"store": label, **ask_spread(bases, args.requests, args.concurrency)})
    except PostgresUnavailable as exc:
        print(f"(skipped: {exc})")
        return rows
    for row in rows:
        print(f"POST /api/ask, scripted backend, {row['store']} on {row['nodes']} node(s): {row['req_per_s']} req/s, "
              f"p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms ({row['ok']}/{row['requests']} ok, {row['saved']} "
              f"saved, concurrency {row['concurrency']})")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
