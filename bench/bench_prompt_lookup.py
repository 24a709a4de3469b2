"""Prompt-lookup decoding on the synthesis pass: is the answer written faster, and what does it cost?

Run: python -m bench.bench_prompt_lookup [--model NAME|PATH] [--questions N] [--draft 10]

The same eval questions run through the full loop twice in one process: once as configured (no drafts), once
with model.prompt_lookup = DRAFT. Drafts need every position's logits (logits_all), which costs memory (an
n_ctx x vocabulary float array) and compute on every prompt evaluation, gathering passes included. Reported
per setting: median seconds per question, median synthesis generation tokens/s, and the process's resident
memory after the run.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from assembly.services import build_services
from backends.llama_cpp import physical_cores
from evals.runner import load_questions
from settings.loader import load_settings, with_overrides


def resident_mb() -> float:
    with open("/proc/self/status", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def synthesis_rates(trace: list[dict]) -> list[float]:
    """Generated tokens/s of each synthesis pass (its duration includes its own prompt evaluation)."""
    return [s["completion_tokens"] / (s["duration_ms"] / 1000) for s in trace
            if s.get("type") == "synthesis" and s.get("completion_tokens") and s.get("duration_ms")]


def measure(model: str, count: int, draft: int) -> dict:
    settings = with_overrides(load_settings(), {"model.backend": "llama", "model.path": model,
                                                "model.n_threads": physical_cores(), "model.prompt_lookup": draft})
    services = build_services(settings)
    seconds, rates, answers = [], [], []
    try:
        for item in [q for q in load_questions() if q.get("category") in ("homicides", "ranking")][:count]:
            started = time.perf_counter()
            result = services.orchestrator.run(item["q"]).to_dict()
            seconds.append(time.perf_counter() - started)
            rates.extend(synthesis_rates(result["trace"]))
            answers.append(result["answer"])
        memory = resident_mb()
    finally:
        services.close()
    return {"model": model, "prompt_lookup": draft, "questions": len(seconds),
            "seconds_median": round(statistics.median(seconds), 2) if seconds else None,
            "synthesis_tokens_per_s_median": round(statistics.median(rates), 1) if rates else None,
            "resident_mb_after": memory, "answers": answers}


def main(argv=None) -> list:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default="qwen2.5-coder-0.5b", help="catalogue name or GGUF path")
    parser.add_argument("--questions", type=int, default=6)
    parser.add_argument("--draft", type=int, default=10, help="draft tokens per step with prompt lookup on")
    args = parser.parse_args(argv if argv is not None else [])
    rows = [measure(args.model, args.questions, draft) for draft in (0, args.draft)]
    same = sum(a == b for a, b in zip(rows[0]["answers"], rows[1]["answers"]))
    for row in rows:
        row.pop("answers")
        print(json.dumps(row))
    print(json.dumps({"identical_answers": same, "questions": rows[0]["questions"]}))
    return rows


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
