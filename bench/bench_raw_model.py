"""Raw llama-cpp-python speed per catalogue model, with no loop: the limit the loop is measured against.

Run: python -m bench.bench_raw_model [--model NAME|PATH ...] [--runs 3] [--n-batch N ...] [--flash-attn off|on|both]

Prompt evaluation: a ~600-token prompt decoded from a cold cache, tokens/s. Generation: 128 tokens sampled
after it (end-of-text ignored), tokens/s. Threads = physical cores. Median of the runs. Then the same
prompt through LlamaCppBackend.generate (the loop's model call) for the loop-cost ratio.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from backends.base import GenerationRequest
from backends.llama_cpp import LlamaCppBackend, physical_cores
from models.catalog import configured_model
from settings.loader import load_settings, var_dir, with_overrides

PROMPT = ("Chicago community areas and their homicide counts by year, with arrests, domestic cases and "
          "location types, follow. ") * 40
GENERATE = 128


def measure(name: str, runs: int, n_batch: int = 512, flash_attn: bool = False) -> dict:
    settings = with_overrides(load_settings(), {"model.path": name, "model.n_ctx": 2048,
                                                "model.n_threads": physical_cores(), "model.prefix_cache": False,
                                                "model.n_batch": n_batch, "model.flash_attn": flash_attn})
    path, _ = configured_model(settings, var_dir(settings))
    backend = LlamaCppBackend.from_settings(settings)
    llm = backend.llm
    tokens = llm.tokenize(PROMPT.encode(), add_bos=True)[:600]
    prompt_rates, gen_rates, raw_seconds, loop_seconds = [], [], [], []
    for _ in range(runs):
        llm.reset()
        started = time.perf_counter()
        llm.eval(tokens[:-1])
        prompt_s = time.perf_counter() - started
        started = time.perf_counter()
        produced = 0
        # generate(reset=False) evaluates the tokens it is given again, so it gets only the prompt's last
        # token: handing it the whole prompt would time a second prompt evaluation as "generation".
        for _token in llm.generate(tokens[-1:], temp=0.2, reset=False):
            produced += 1
            if produced >= GENERATE:
                break
        gen_s = time.perf_counter() - started
        prompt_rates.append((len(tokens) - 1) / prompt_s)
        gen_rates.append(produced / gen_s)
        raw_seconds.append(prompt_s + gen_s)
        # The same work through the backend the loop uses (chat template, stop handling, accounting).
        llm.reset()
        text = llm.detokenize(tokens[1:]).decode("utf-8", errors="replace")
        started = time.perf_counter()
        backend.generate(GenerationRequest(messages=[{"role": "user", "content": text}], max_tokens=GENERATE))
        loop_seconds.append(time.perf_counter() - started)
    backend.close()
    return {"model": name, "file": str(path), "threads": physical_cores(), "n_batch": n_batch,
            "flash_attn": flash_attn, "prompt_tokens": len(tokens),
            "prompt_tokens_per_s": round(statistics.median(prompt_rates), 1),
            "generated_tokens_per_s": round(statistics.median(gen_rates), 1),
            "raw_seconds_median": round(statistics.median(raw_seconds), 2),
            "backend_seconds_median": round(statistics.median(loop_seconds), 2)}


def main(argv=None) -> list:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", action="append", help="catalogue name or GGUF path (repeatable)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--n-batch", type=int, action="append", help="batch sizes to try (repeatable; default 512)")
    parser.add_argument("--flash-attn", choices=["off", "on", "both"], default="off")
    args = parser.parse_args(argv if argv is not None else [])
    flash = {"off": [False], "on": [True], "both": [False, True]}[args.flash_attn]
    rows = [measure(name, args.runs, n_batch, fa)
            for name in args.model or ["smollm2-135m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"]
            for n_batch in args.n_batch or [512] for fa in flash]
    for row in rows:
        print(json.dumps(row))
    return rows


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
