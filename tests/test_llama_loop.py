"""The whole loop on the real llama.cpp path: the tiny random-weight GGUF through the orchestrator.

A random-weight model rarely chooses to call a tool, so gathering passes are constrained with
the tool grammar minus its no-call branch (bench.bench_model.ForcedCallsBackend): every call
the model makes is still sampled by llama.cpp under the grammar built from the real schemas.
"""
import time

import pytest

from backends.llama_cpp import LlamaCppBackend
from bench.bench_model import ForcedCallsBackend
from evals.runner import first_word_ms
from intelligent_mcp import Orchestrator
from toolcall.protocol import parse_tool_calls
from settings.loader import load_settings
from tests.loop_helpers import OWN_PASSES

# Runs llama.cpp on the tiny model: minutes on 2 cores, so not in the quick tier.
pytestmark = pytest.mark.slow

# Codes that would mean the grammar let through a structurally invalid call.
STRUCTURAL_ERRORS = {"unknown_tool", "unknown_argument", "missing_argument"}


@pytest.fixture(scope="module")
def llama_setup(tiny_gguf_path, registry):
    settings = load_settings(overrides={**OWN_PASSES, 
        "model.path": str(tiny_gguf_path), "model.n_ctx": 12288, "model.n_threads": 2, "model.max_tokens": 96,
        "model.temperature": 0.8, "model.seed": 7, "orchestrator.max_tool_calls": 4,
        "orchestrator.timeout_seconds": 900})  # the deadline is not what these tests measure: never reach it
    inner = LlamaCppBackend.from_settings(settings)
    yield settings, inner
    inner.close()


def test_full_loop_caps_at_four_valid_calls_with_a_complete_trace(llama_setup, registry):
    settings, inner = llama_setup
    backend = ForcedCallsBackend(inner, registry.schemas(), calls=10)  # it would call forever if allowed
    result = Orchestrator(backend, registry, settings).run(
        "Call every tool ten times: homicides, census, income and home values for every area.").to_dict()

    ran = [c for c in result["tool_calls"] if c["status"] in ("ok", "error")]  # refused repeats run nothing
    assert 1 <= len(ran) <= 4
    assert result["stopped_because"] in ("max_tool_calls", "duplicate_call")
    names = set(registry.names())
    for call in result["tool_calls"]:
        assert call["name"] in names
        if call["status"] == "ok":
            assert registry.canonicalize(call["name"], call["arguments"]) == call["arguments"]
    tool_steps = [s for s in result["trace"] if s["type"] == "tool_call"]
    for step in tool_steps:
        code = ((step.get("result") or {}).get("error") or {}).get("code")
        assert code not in STRUCTURAL_ERRORS, step
    passes = [s for s in result["trace"] if s["type"] == "model_pass"]
    for step in passes:
        parsed = parse_tool_calls(step["raw_output"])
        assert parsed.errors == [] and parsed.calls, step["raw_output"]
        assert step["prompt_tokens"] > 0 and step["completion_tokens"] > 0
    # The trace is complete and ordered: analysis, passes and calls, synthesis, grounding, then the notes step
    # when the reading left words unused ("ten times" here) and the answer must say so.
    types = [s["type"] for s in result["trace"]]
    assert types[0] == "analysis" and "synthesis" in types
    assert types[-1] == "grounding" or types[-2:] == ["grounding", "notes"], types
    assert [s["index"] for s in result["trace"]] == list(range(len(types)))
    assert len(tool_steps) == len(result["tool_calls"])
    assert result["backend"]["backend"] == "llama" and result["model"].endswith(".gguf")
    # Append-only prompts: later passes reuse the KV cache for everything but the new turn.
    later = passes[1:]
    assert later and all(s["evaluated_tokens"] < s["prompt_tokens"] / 2 for s in later)
    # Every pass times its first token; the eval's wait for the first answer word is read off the trace.
    generated = [s for s in result["trace"] if s["type"] in ("model_pass", "synthesis") and s["completion_tokens"]]
    assert generated and all(0 < s["first_token_ms"] <= s["duration_ms"] for s in generated), generated
    assert 0 < first_word_ms(result["trace"]) < result["timings"]["total_ms"]


class FixedPassTime:
    """Wraps the real backend so every model pass takes at least ``seconds`` of wall time.

    The tiny model's own speed depends on how busy the machine is; with a known floor per pass the
    deadline is reached by construction: four forced calls need four passes, more than the limit allows.
    """

    def __init__(self, inner, seconds: float):
        self.inner, self.seconds = inner, seconds

    def __getattr__(self, attr):
        return getattr(self.inner, attr)

    def generate(self, request):
        started = time.monotonic()
        generation = self.inner.generate(request)
        left = self.seconds - (time.monotonic() - started)
        if request.deadline is not None:
            left = min(left, request.deadline - time.monotonic())
        if left > 0:
            time.sleep(left)
        return generation


def test_short_deadline_holds_on_the_real_model(llama_setup, registry):
    settings, inner = llama_setup
    backend = FixedPassTime(ForcedCallsBackend(inner, registry.schemas(), calls=4), seconds=0.8)
    started = time.monotonic()
    result = Orchestrator(backend, registry, settings).run(
        "How many homicides in Austin in 2020?", {"timeout_seconds": 2}).to_dict()
    # No wall-clock bound here: a pass that started before the deadline may run past it on a slow machine
    # (prompt evaluation is not interruptible). What must hold is that the loop stopped for the deadline.
    assert time.monotonic() > started
    assert result["stopped_because"] == "timeout" and result["partial"] is True
    assert len([c for c in result["tool_calls"] if c["status"] == "ok"]) < 4
    assert result["answer"]
