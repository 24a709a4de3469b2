"""Web benchmark: gunicorn on loopback with the scripted backend.

    .venv/bin/python -m bench.bench_web [--requests N] [--concurrency C]

Prints requests/s and p50/p99 latency for POST /api/ask, and the time to the first streamed
step (and to the result) on POST /api/ask/stream. The scripted backend makes this a measure of
the web layer, orchestrator, tools and run store, not of a model.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests
import yaml

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "How many homicides were there in Chicago each year?"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn_server(var_dir: str | Path, overrides: dict | None = None, env: dict | None = None,
                    startup_timeout: float = 90.0):
    """Run `gunicorn -c gunicorn.conf.py app:create_app()` on 127.0.0.1:<free port>; yields the base URL.

    overrides: dotted config keys written into a temporary config file (CHIQA_CONFIG). The parquet
    cache is shared with the developer's var/ (data.cache_dir absolute) so start-up stays fast.
    """
    var_dir = Path(var_dir)
    var_dir.mkdir(parents=True, exist_ok=True)
    config = yaml.safe_load((ROOT / "config.yaml").read_text()) or {}
    settings_cache = Path(os.environ.get("CHIQA_VAR_DIR") or ROOT / "var") / "cache"
    values = {"data.cache_dir": str(settings_cache if settings_cache.is_absolute() else ROOT / settings_cache)}
    values.update(overrides or {})
    for dotted, value in values.items():
        node = config
        *parents, last = dotted.split(".")
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value
    config_path = var_dir / "config.yaml"
    config_path.write_text(yaml.safe_dump(config))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc_env = {**os.environ, "CHIQA_BIND": f"127.0.0.1:{port}", "CHIQA_BACKEND": "scripted",
                "CHIQA_VAR_DIR": str(var_dir), "CHIQA_CONFIG": str(config_path), "WEB_CONCURRENCY": "1",
                **(env or {})}
    log = open(var_dir / "gunicorn.log", "wb")
    proc = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py", "app:create_app()"],
                            cwd=ROOT, env=proc_env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + startup_timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {proc.returncode}; see {var_dir / 'gunicorn.log'}")
            try:
                health = requests.get(base + "/api/health", timeout=2).json()
                if health["data"]["state"] == "loaded":
                    break
                if health["data"]["state"] == "error":
                    raise RuntimeError(health["data"]["error"])
            except (requests.ConnectionError, requests.Timeout, ValueError):
                pass
            if time.time() > deadline:
                raise RuntimeError("gunicorn did not become ready in time")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    import math

    return ordered[max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))]


def bench_ask(base: str, n: int, concurrency: int) -> dict:
    session_local = {}

    def one(i: int):
        import threading

        session = session_local.setdefault(threading.get_ident(), requests.Session())
        started = time.perf_counter()
        resp = session.post(base + "/api/ask", json={"question": f"{QUESTION} ({i % 7})"}, timeout=60)
        return resp.status_code, (time.perf_counter() - started) * 1000

    requests.post(base + "/api/ask", json={"question": QUESTION}, timeout=60)  # warm: backend + first run
    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(one, range(n)))
    wall = time.perf_counter() - started
    ok = [ms for status, ms in results if status == 200]
    return {"requests": n, "concurrency": concurrency, "ok": len(ok),
            "status": {str(s): sum(1 for st, _ in results if st == s) for s in sorted({st for st, _ in results})},
            "req_per_s": round(n / wall, 1), "p50_ms": round(_percentile(ok, 50), 1) if ok else None,
            "p99_ms": round(_percentile(ok, 99), 1) if ok else None}


def bench_stream(base: str, n: int = 20) -> dict:
    first, total = [], []
    for _ in range(n):
        started = time.perf_counter()
        with requests.post(base + "/api/ask/stream", json={"question": QUESTION}, stream=True, timeout=60) as resp:
            got_step = None
            for line in resp.iter_lines():
                if not line:
                    continue
                event = json.loads(line)
                if event["event"] == "step" and got_step is None:
                    got_step = (time.perf_counter() - started) * 1000
                if event["event"] == "result":
                    break
        first.append(got_step)
        total.append((time.perf_counter() - started) * 1000)
    return {"streams": n, "first_step_p50_ms": round(_percentile(first, 50), 1),
            "first_step_max_ms": round(max(first), 1), "result_p50_ms": round(_percentile(total, 50), 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args(argv if argv is not None else [])
    with tempfile.TemporaryDirectory(prefix="chiqa_bench_web_") as tmp:
        with gunicorn_server(tmp) as base:
            ask = bench_ask(base, args.requests, args.concurrency)
            stream = bench_stream(base)
    print(f"POST /api/ask (scripted backend, gunicorn 1 worker x gthread, loopback): {ask['requests']} requests "
          f"at concurrency {ask['concurrency']}: {ask['req_per_s']} req/s, p50 {ask['p50_ms']} ms, "
          f"p99 {ask['p99_ms']} ms, status {ask['status']}")
    print(f"POST /api/ask/stream: first step after p50 {stream['first_step_p50_ms']} ms "
          f"(max {stream['first_step_max_ms']} ms), full result p50 {stream['result_p50_ms']} ms over "
          f"{stream['streams']} streams")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
