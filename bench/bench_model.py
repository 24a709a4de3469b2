"""Model-path benchmark: one question end to end through the orchestrator on a GGUF, and KV-cache reuse.

Run: .venv/bin/python -m bench.bench_model [--runs 3] [--model path.gguf] [--calls 3]

Without --model (or CHIQA_MODEL_PATH) it writes the tiny random-weight test GGUF
(tests/tiny_gguf.py) to a temporary folder. A random-weight model would rarely choose to
call a tool, so every gathering pass is constrained with the tool grammar minus its
NO_TOOL_CALL branch (exactly one call per pass) until ``--calls`` calls were made; the
synthesis pass is unconstrained. The figures:

* latency: wall time of Orchestrator.run for the whole question (median over runs);
* prefix reuse: sum of evaluated (not cached) prompt tokens over every model pass of the
  question, divided by the final context length (last pass's prompt + reply tokens).
  1.0 means every token was evaluated once; goal <= 1.3. The KV cache is cleared before
  each question, so the shared system prompt is counted once per question.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from assembly.services import build_services, build_tools
from backends.llama_cpp import LlamaCppBackend
from loop.grammar import build_tool_grammar
from settings.loader import load_settings

ROOT = Path(__file__).resolve().parent.parent

GOAL_REUSE_RATIO = 1.3
QUESTION = "How many homicides were there in Austin in 2020, and how does that compare with Englewood?"


class ForcedCallsBackend:
    """Wraps a LlamaCppBackend: gather passes must emit one TOOL_CALL until the quota is used; records passes."""

    def __init__(self, inner, schemas, calls: int):
        self.inner = inner
        self.name = inner.name
        self.n_ctx = inner.n_ctx
        self.calls = calls
        self.forced = build_tool_grammar(schemas, 1, allow_no_call=False)
        self.passes: list = []

    def __getattr__(self, attr):  # info, count_tokens, count_message_tokens, gate, ...
        return getattr(self.inner, attr)

    def generate(self, request):
        if request.phase == "gather" and request.remaining_calls > 0:
            forced_left = self.calls - sum(1 for p in self.passes if p["phase"] == "gather")
            if forced_left > 0:
                request.grammar = self.forced
        generation = self.inner.generate(request)
        self.passes.append({"phase": request.phase, "prompt_tokens": generation.prompt_tokens,
                            "evaluated_tokens": generation.evaluated_tokens,
                            "completion_tokens": generation.completion_tokens,
                            "finish_reason": generation.finish_reason})
        return generation


def _model_path(arg: str | None, workdir: Path) -> Path:
    if arg:
        return Path(arg)
    if os.environ.get("CHIQA_MODEL_PATH"):
        return Path(os.environ["CHIQA_MODEL_PATH"])
    # Lazy: the tiny-model writer needs the test-only gguf package, which a real --model run never does.
    from tests.tiny_gguf import make_tiny_gguf

    return make_tiny_gguf(workdir / "tiny.gguf")


def run_once(orchestrator, backend: ForcedCallsBackend, question: str, calls: int) -> dict:
    backend.passes.clear()
    backend.inner.llm.reset()  # a cold cache: the question pays for its own system prompt
    started = time.perf_counter()
    result = orchestrator.run(question, {"max_tool_calls": calls})
    seconds = time.perf_counter() - started
    passes = backend.passes
    evaluated = sum(p["evaluated_tokens"] for p in passes)
    final = passes[-1]["prompt_tokens"] + passes[-1]["completion_tokens"] if passes else 0
    trace_passes = [s for s in result.steps if s.type in ("model_pass", "synthesis") and not getattr(s, "fallback", False)]
    return {
        "seconds": seconds,
        "passes": len(passes),
        "trace_passes": len(trace_passes),
        "tool_calls": len(result.calls),
        "evaluated": evaluated,
        "final_context": final,
        "ratio": evaluated / final if final else float("nan"),
        "naive": sum(p["prompt_tokens"] for p in passes),
        "stopped_because": result.stopped_because,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--model", default=None, help="GGUF file (default: CHIQA_MODEL_PATH, else the tiny test model)")
    parser.add_argument("--n-ctx", type=int, default=12288)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--question", default=QUESTION)
    args = parser.parse_args(argv if argv is not None else [])


    with tempfile.TemporaryDirectory(prefix="chiqa-bench-") as tmp:
        path = _model_path(args.model, Path(tmp))
        settings = load_settings(overrides={
            "model.path": str(path), "model.n_ctx": args.n_ctx, "model.n_threads": args.threads,
            "model.temperature": 0.8, "model.seed": 42, "orchestrator.max_tool_calls": max(args.calls, 1),
            "orchestrator.timeout_seconds": 120})
        load_started = time.perf_counter()
        inner = LlamaCppBackend.from_settings(settings)
        load_s = time.perf_counter() - load_started
        registry = build_tools(settings)
        backend = ForcedCallsBackend(inner, registry.schemas(), args.calls)
        orchestrator = build_services(settings, backend=backend, data=registry.data).orchestrator
        info = inner.info()
        print(f"model {info['model']} ({info['size_bytes']} bytes, {info['chat_format']}, n_ctx {info['n_ctx']}, "
              f"{info['n_threads']} thread(s)); load {load_s * 1000:.0f} ms")
        print(f"system prompt: {inner.count_message_tokens([{'role': 'system', 'content': orchestrator.system_prompt()}])}"
              " tokens")
        run_once(orchestrator, backend, args.question, args.calls)  # warm-up (data load, first decode)
        runs = []
        for i in range(max(1, args.runs)):
            row = run_once(orchestrator, backend, args.question, args.calls)
            runs.append(row)
            print(f"  run {i + 1}: {row['seconds'] * 1000:7.0f} ms, {row['passes']} passes, {row['tool_calls']} calls, "
                  f"evaluated {row['evaluated']} / final context {row['final_context']} = {row['ratio']:.3f} "
                  f"(without cache reuse: {row['naive']}), stopped: {row['stopped_because']}")
        inner.close()
    latency = statistics.median(r["seconds"] for r in runs) * 1000
    ratio = statistics.median(r["ratio"] for r in runs)
    print(f"median end-to-end latency: {latency:.0f} ms per question")
    print(f"median prefix-reuse ratio (evaluated / final context): {ratio:.3f} "
          f"(goal <= {GOAL_REUSE_RATIO}) {'OK' if ratio <= GOAL_REUSE_RATIO else 'ABOVE GOAL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
