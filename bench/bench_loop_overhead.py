"""What the loop costs on top of the model: a question's wall time against plain llama-cpp-python doing
the same model work.

Run: python -m bench.bench_loop_overhead [--model NAME|PATH] [--questions N]

For each question the full loop runs once (analysis, gathering passes with the grammar, tools, synthesis,
grounding, any strict re-synthesis). Its trace says, per model pass, how many prompt tokens were evaluated
and how many were written. Then plain llama-cpp-python does that same work: for each pass it evaluates as
many prompt tokens (the question's own text, repeated to length) and samples as many tokens, with no
grammar, template, tools or bookkeeping. The ratio loop / raw is the loop's cost; 1.00 would mean the loop
adds nothing. Median over the questions.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from assembly.services import build_services
from backends.llama_cpp import LlamaCppBackend, physical_cores
from evals.runner import load_questions
from settings.loader import load_settings, with_overrides

MODEL_STEPS = ("model_pass", "synthesis")


def model_work(trace: list[dict]) -> list[tuple[int, int]]:
    """(evaluated prompt tokens, generated tokens) of every model pass in a trace, in order."""
    return [(int(s.get("evaluated_tokens") or s.get("prompt_tokens") or 0), int(s.get("completion_tokens") or 0))
            for s in trace if s.get("type") in MODEL_STEPS and not s.get("fallback")]


def raw_seconds(llm, question: str, work: list[tuple[int, int]]) -> float:
    """Plain llama-cpp-python doing the same evaluation and generation counts."""
    filler = llm.tokenize(question.encode(), add_bos=False) or [llm.token_bos()]
    total = 0.0
    for evaluated, generated in work:
        prompt = [llm.token_bos()] + (filler * (evaluated // len(filler) + 1))[: max(0, evaluated - 1)]
        llm.reset()
        started = time.perf_counter()
        llm.eval(prompt[:-1])
        produced = 0
        # generate(reset=False) evaluates what it is given again: only the prompt's last token.
        for _token in llm.generate(prompt[-1:], temp=0.2, reset=False):
            produced += 1
            if produced >= generated:
                break
        total += time.perf_counter() - started
    return total


def measure(model: str, count: int) -> dict:
    settings = with_overrides(load_settings(), {"model.backend": "llama", "model.path": model,
                                                "model.n_threads": physical_cores()})
    services = build_services(settings)
    # The raw runs get their own Llama: resetting the loop's would throw away the system prompt its KV cache holds,
    # and every later question would then evaluate ~1,850 prompt tokens the server never evaluates twice.
    raw_llm = LlamaCppBackend.from_settings(settings).llm
    rows = []
    try:
        items = [q for q in load_questions() if q.get("category") == "homicides"][:count]
        services.orchestrator.run("How many homicides were there in 2010?")  # warm: the system prompt is cached
        for item in items:
            started = time.perf_counter()
            result = services.orchestrator.run(item["q"]).to_dict()
            loop_s = time.perf_counter() - started
            work = model_work(result["trace"])
            raw_s = raw_seconds(raw_llm, item["q"], work)
            rows.append({"question": item["q"], "loop_s": round(loop_s, 2), "raw_s": round(raw_s, 2),
                         "ratio": round(loop_s / raw_s, 3) if raw_s else None, "passes": len(work),
                         "evaluated": sum(e for e, _ in work), "generated": sum(g for _, g in work),
                         "stopped_because": result["stopped_because"]})
            print(json.dumps(rows[-1]), flush=True)
    finally:
        services.close()
    ratios = [r["ratio"] for r in rows if r["ratio"]]
    return {"model": model, "questions": len(rows), "threads": physical_cores(),
            "ratio_median": round(statistics.median(ratios), 3) if ratios else None,
            "loop_s_median": round(statistics.median(r["loop_s"] for r in rows), 2) if rows else None,
            "raw_s_median": round(statistics.median(r["raw_s"] for r in rows), 2) if rows else None}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default="qwen2.5-coder-0.5b", help="catalogue name or GGUF path")
    parser.add_argument("--questions", type=int, default=10, help="how many of the eval set's count questions")
    args = parser.parse_args(argv if argv is not None else [])
    summary = measure(args.model, args.questions)
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
