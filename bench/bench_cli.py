"""Seconds per question through the CLI, a fresh process each time (model load, saved prefix state, data).

Run: python -m bench.bench_cli [--model NAME|PATH] [--questions N] [--team] [--output FILE]

Each question is `python app.py ask --backend llama --model NAME --json QUESTION` in a new process, as a user
on their own machine runs it. Reported: wall seconds per question (median, max), and the model's share of it
(the first pass's evaluated prompt tokens show whether the saved system prefix was loaded).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from evals.runner import load_questions

ROOT = Path(__file__).resolve().parent.parent


def ask(model: str, question: str) -> dict:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "app.py", "ask", "--backend", "llama", "--model", model, "--json",
                           question], cwd=ROOT, capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - started
    row = {"question": question, "wall_s": round(wall, 2), "exit": proc.returncode}
    try:
        result = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {**row, "error": (proc.stderr or proc.stdout)[-300:]}
    passes = [s for s in result["trace"] if s.get("type") == "model_pass"]
    row.update(loop_s=round(result["timings"]["total_ms"] / 1000, 2), stopped_because=result["stopped_because"],
               first_pass_evaluated=passes[0].get("evaluated_tokens") if passes else None)
    return row


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--questions", type=int, default=6, help="the first N questions (0: all of them)")
    parser.add_argument("--team", action="store_true", help="only the team set (the questions outside the "
                        "paraphrase subset), the set the speed goals are stated over")
    parser.add_argument("--output", help="also write each row and the summary to this JSON-lines file")
    args = parser.parse_args(argv if argv is not None else [])
    items = [i for i in load_questions() if not (args.team and i.get("category") == "paraphrase")]
    rows = []
    out = open(args.output, "w") if args.output else None
    for item in items[: args.questions or None]:
        rows.append(ask(args.model, item["q"]))
        print(json.dumps(rows[-1]), flush=True)
        if out:
            out.write(json.dumps(rows[-1]) + "\n")
            out.flush()
    walls = [r["wall_s"] for r in rows if r.get("exit") == 0]
    summary = {"model": args.model, "questions": len(rows), "ok": len(walls),
               "wall_s_median": round(statistics.median(walls), 2) if walls else None,
               "wall_s_max": max(walls) if walls else None,
               "loop_s_median": round(statistics.median(r["loop_s"] for r in rows if "loop_s" in r), 2)
               if any("loop_s" in r for r in rows) else None}
    print(json.dumps(summary))
    if out:
        out.write(json.dumps(summary) + "\n")
        out.close()
    return summary


if __name__ == "__main__":
    main(sys.argv[1:])
