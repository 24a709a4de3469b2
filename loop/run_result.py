"""The RunResult of a finished run: the answer, its trace, sources, caveats, timings and why it stopped."""
from __future__ import annotations

import os

import prompt_registry as prompts
from analyzer.reading import read
from loop.state import RunState, StopReason
from loop.steps import ErrorStep, RunResult
from tools import names

PLACE_LABELS = {"community_area": "community areas", "ward": "wards", "district": "police districts"}


def build_result(state: RunState) -> RunResult:
    sources, caveats = {}, []
    for step in state.ran_calls():
        for source in step.result.sources:
            sources.setdefault((source.get("key"), source.get("dataset")), source)
        caveats += step.result.caveats
    skipped = sum(s.status == "skipped" for s in state.calls)
    if state.stop == StopReason.TIMEOUT:
        caveats.append(f"Partial answer: the {state.deadline - state.t0:g}-second limit was reached.")
    if skipped and state.stop == StopReason.MAX_TOOL_CALLS:
        caveats.append(f"Only {state.max_calls} tool calls are allowed per question; {skipped} more were skipped.")
    if state.stop == StopReason.ERROR:
        caveats.append("The model failed during this question; the answer is built from the data already gathered.")
    left_out = places_left_out(state)
    caveats += left_out
    model = state.backend_info.get("model")
    return RunResult(
        question=state.question, answer=state.answer,
        partial=state.partial or state.stop in (StopReason.TIMEOUT, StopReason.ERROR) or bool(left_out)
        or bool(state.analysis and state.analysis.not_used),
        steps=list(state.trace), stopped_because=str(state.stop),
        timings={"total_ms": state.now_ms(), **{k: round(v, 3) for k, v in state.timings.items()}},
        backend=state.backend_info, model=os.path.basename(model) if isinstance(model, str) else None,
        prompt_version=prompts.prompt_version(), sources=list(sources.values()),
        caveats=list(dict.fromkeys(caveats + state.loop_caveats)), ungrounded_numbers=list(state.ungrounded),
        analysis=state.analysis, error=model_error(state), reading=read(state.analysis, _one_query(state)))


def _one_query(state: RunState) -> dict | None:
    """The query an answer was computed from when semantic queries were all that ran (one, or a composition's two):
    its reading says them."""
    ran = state.ran_calls()
    if ran and all(step.name == names.QUERY and step.status == "ok" for step in ran):
        return ran[0].arguments if len(ran) == 1 else [step.arguments for step in ran]
    return None


def places_left_out(state: RunState) -> list[str]:
    """Named places no call looked at (more than the call budget covers): said, never silently dropped."""
    a = state.analysis
    if a is None:
        return []
    named = {"community_area": a.area_numbers, "ward": a.wards, "district": a.districts}
    covered: dict[str, set] = {kind: set() for kind in named}
    for step in state.ran_calls():
        for kind in named:
            for key in (kind, f"{kind}s", "compare_areas" if kind == "community_area" else None):
                value = step.arguments.get(key) if key else None
                covered[kind].update(value if isinstance(value, list) else [] if value is None else [value])
    names = {area.number: f"{area.name} ({area.number})" for area in a.areas}
    out = []
    for kind, numbers in named.items():
        missing = [n for n in numbers if n not in covered[kind]]
        if covered[kind] and missing:
            out.append(f"Only {len(numbers) - len(missing)} of the {len(numbers)} {PLACE_LABELS[kind]} named could be "
                       f"looked up within the {state.max_calls}-call limit; not covered: "
                       + ", ".join(names.get(n, str(n)) if kind == "community_area" else str(n) for n in missing)
                       + ". Ask about them separately.")
    return out


def model_error(state: RunState) -> dict | None:
    """The last model failure of this run as {"phase", "type", "message"}, or None. A context overflow is handled
    by trimming, so it is not reported as a model failure."""
    errors = [s for s in state.trace if isinstance(s, ErrorStep) and s.error_type != "ContextOverflow"]
    if not errors:
        return None
    last = errors[-1]
    return {"phase": last.phase, "type": last.error_type, "message": last.message}
