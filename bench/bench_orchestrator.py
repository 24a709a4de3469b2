"""Orchestrator overhead per question with the scripted model, excluding tool and model time.

Run: .venv/bin/python -m bench.bench_orchestrator [--runs 200]

Each question makes two tool calls over two gathering passes, then synthesis and the grounding
check (the real tools and data). Overhead = total wall time - tool durations - model pass
durations, i.e. the loop's own work: analysis, prompt building, token counting, parsing,
canonicalisation, trace and result building, grounding. Goal: median < 5 ms.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from assembly.services import build_services
from backends.scripted import ScriptedBackend
from settings.loader import load_settings

GOAL_MS = 5.0


def _call(name: str, **arguments) -> str:
    return "TOOL_CALL: " + json.dumps({"name": name, "arguments": arguments})


def _replies(index: int) -> list:
    year = 2010 + index % 12
    return [_call("query_homicides_advanced", year=year),
            _call("query_socioeconomic", community_area=1 + index % 77, metric="income"),
            "NO_TOOL_CALL I have what I need.",
            lambda req: "In {} there were {} homicides. {}".format(
                year, req.results[0].result.values.get("total"), req.results[1].result.summary)]


def measure(runs: int = 200) -> dict:
    settings = load_settings()
    backend = ScriptedBackend()
    orchestrator = build_services(settings, backend=backend).orchestrator
    for warm in range(3):  # tool caches, grammar and system prompt built once
        backend.enqueue(*_replies(warm))
        orchestrator.run("warm-up")
    overheads, totals = [], []
    for index in range(runs):
        backend.enqueue(*_replies(index))
        started = time.perf_counter()
        result = orchestrator.run("How many homicides, and what is the per capita income?")
        total = (time.perf_counter() - started) * 1000
        tools = sum(call.duration_ms for call in result.calls)
        model = sum(step.duration_ms for step in result.steps if step.type in ("model_pass", "synthesis"))
        overheads.append(total - tools - model)
        totals.append(total)
    return {"runs": runs, "overhead_median_ms": statistics.median(overheads),
            "overhead_p95_ms": sorted(overheads)[int(0.95 * (runs - 1))], "total_median_ms": statistics.median(totals)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args(argv if argv is not None else [])
    figures = measure(args.runs)
    verdict = "ok" if figures["overhead_median_ms"] < GOAL_MS else "over goal"
    print(f"orchestrator overhead (excl. tools and model), median of {figures['runs']}: "
          f"{figures['overhead_median_ms']:.2f} ms (goal < {GOAL_MS:g} ms) {verdict}")
    print(f"  p95 {figures['overhead_p95_ms']:.2f} ms; whole question median {figures['total_median_ms']:.2f} ms")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
