"""The model in the server: gunicorn (one worker) with a real catalogue model, ten mixed questions over
/api/ask/stream, each asked ``--rounds`` times.

    .venv/bin/python -m bench.bench_server_model [--model qwen2.5-coder-0.5b] [--rounds 3] [--model-calls gaps]

Reports, over every request: the median and p95 of the whole answer, and of the first answer token (the first
"token" event of the stream; a run whose answer came with no token, the planner's, counts its result event). Also
how many answers were the model's own and how many the planner's (the answer check refused the model's), and
each question's median. The first request of the server is a warm-up and is not counted: it loads the model
and evaluates the system prompt once, as every later question then reuses it from the KV cache.

A measurement of what users get: run it on a quiet machine, one model at a time.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time

import requests

from bench.bench_web import ROOT, _percentile, gunicorn_server

# Two of the ten are cross-domain (the design's headline, and a ranking feeding a socioeconomic figure).
QUESTIONS = (
    "How many homicides were there in Chicago in 2022?",
    "Which community area had the highest homicide rate per capita, and what are the median income and home "
    "prices there?",
    "Which ward had the most homicides in 2021?",
    "What share of homicides in 2020 were domestic?",
    "What is the population of Austin?",
    "What is the per capita income in Englewood?",
    "What is the typical home value in ZIP 60614?",
    "How many homicides happened on weekends in 2019?",
    "the 3 community areas where homicides went up the most from 2015 to 2016, and by how many",
    "What is the poverty rate in the community area with the most homicides in 2021?",
)


def ask(base: str, question: str) -> dict:
    started = time.perf_counter()
    first = None
    result = {}
    with requests.post(base + "/api/ask/stream", json={"question": question}, stream=True, timeout=120) as resp:
        for line in resp.iter_lines():
            if not line:
                continue
            event = json.loads(line)
            if "event" not in event:  # a refused request: one JSON error object
                raise RuntimeError(f"{resp.status_code}: {event}")
            if event["event"] == "token" and first is None:
                first = time.perf_counter() - started
            if event["event"] in ("result", "error"):
                result = event.get("result") or event
                break
    total = time.perf_counter() - started
    trace = result.get("trace") or []
    planner = any(s.get("type") == "synthesis" and s.get("planner_answer") for s in trace)
    return {"question": question, "seconds": total, "first_token": first if first is not None else total,
            "planner_answer": planner, "stopped_because": result.get("stopped_because"),
            "model_passes": sum(s.get("type") == "model_pass" and s.get("phase") != "reader" for s in trace)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--model-calls", default="gaps", choices=("gaps", "own"))
    args = parser.parse_args(argv)
    pulled = ROOT / "var" / "models" / f"{args.model}.gguf"  # the server's var/ is a temporary folder
    overrides = {"model.path": str(pulled) if pulled.exists() else args.model, "orchestrator.model_calls": args.model_calls}
    runs = []
    with tempfile.TemporaryDirectory() as var, \
            gunicorn_server(var, overrides, env={"CHIQA_BACKEND": "llama"}, startup_timeout=300) as base:
        ask(base, "How many homicides were there in 2010?")  # warm-up: loads the model, caches the system prompt
        for _ in range(args.rounds):
            for question in QUESTIONS:
                runs.append(ask(base, question))
    seconds = [r["seconds"] for r in runs]
    first = [r["first_token"] for r in runs]
    report = {
        "model": args.model, "model_calls": args.model_calls, "requests": len(runs), "rounds": args.rounds,
        "median_s": round(statistics.median(seconds), 2), "p95_s": round(_percentile(seconds, 95), 2),
        "first_token_median_s": round(statistics.median(first), 2),
        "first_token_p95_s": round(_percentile(first, 95), 2),
        "planner_answers": sum(r["planner_answer"] for r in runs),
        "model_gathering_passes": sum(r["model_passes"] for r in runs),
        "per_question_median_s": {q: round(statistics.median(r["seconds"] for r in runs if r["question"] == q), 2)
                                  for q in QUESTIONS},
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
