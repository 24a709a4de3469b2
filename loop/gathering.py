"""Gathering: the design's loop. A pass writes TOOL_CALL lines, the calls run, their results accumulate, and the
next pass sees them, until a pass asks for nothing, the call cap, a repeat or the deadline stops it.

Who writes a pass:
- with no model, the planner (its next calls for the question's reading, given what has run);
- with a model whose question the reading covered (model_calls "gaps"), the reading itself: its calls run as a
  model's would, with no model time (the models only ever approved the planner's calls or made them worse);
- where the reading fell short, the model writes one typed query (loop/query_pass.py);
- under model_calls "own", or where no reading exists, the model writes every call itself.
Each call is canonicalised, refused when it repeats an earlier one or exceeds the cap, and run.
"""
from __future__ import annotations

import prompt_registry as prompts
from loop import decisions
from loop.argument_constraints import admitted_tools, outside_question
from loop.context import RunContext
from loop.model_pass import generate, out_of_time
from loop.query_pass import model_queries, queries_where_the_answer_fell_short, queries_where_the_reading_fell_short
from toolcall.protocol import format_tool_call, parse_tool_calls
from loop.state import RunState, StopReason
from loop.steps import ErrorStep, ModelPassStep, ToolCallStep
from tools.errors import ToolArgumentError
from tools.registry import ToolResult, call_key


def gather(state: RunState, ctx: RunContext) -> StopReason:
    stop = _gather(state, ctx)
    if stop == StopReason.MAX_TOOL_CALLS:
        state.calls_left_out = _calls_left_out(state, ctx)
    return stop


def _calls_left_out(state: RunState, ctx: RunContext) -> int:
    """How many of the reading's calls the limit left unrun ("the 10 richest areas' weekend homicides" asked one call
    an area): the answer must say it covers only part of the question."""
    if state.analysis is None or state.analysis.error:
        return 0
    try:
        calls = ctx.planner.next_calls(state.analysis, state.ran_calls(), 20)
    except Exception:  # noqa: BLE001 - without the planner nothing is known to be left out
        return 0
    left = 0
    for name, arguments in calls:
        try:
            key = call_key(name, ctx.registry.canonicalize(name, arguments))
        except ToolArgumentError:
            continue
        left += key not in state.seen
    return left


def _gather(state: RunState, ctx: RunContext) -> StopReason:
    # The reading's first calls, once (none without a model). Never shown to the model: they say whether the question
    # needs data (the first pass must then call), which tools beside the question's domains it may use, and which of
    # its calls are the reading's own.
    state.reading_calls = reading_calls(state, ctx)
    if reading_covers(state, ctx):
        return queries_where_the_answer_fell_short(state, ctx, reader_gathers(state, ctx), run_call)
    if queries_where_the_reading_fell_short(state, ctx):
        return model_queries(state, ctx, reader_gathers, run_call)
    while True:
        stop = decisions.stop_before_pass(state.calls_used(), state.max_calls, len(state.passes), state.time_left())
        if stop is None:
            stop = one_pass(state, ctx)
        if stop is not None:
            return _no_call_is_a_failure(state, stop)


def reading_covers(state: RunState, ctx: RunContext) -> bool:
    """Under model_calls "gaps": the reading used every word of the question and has calls for it."""
    analysis = state.analysis
    if not ctx.model_decides or ctx.config.model_calls != "gaps" or analysis is None or analysis.error \
            or analysis.not_used or state.no_calls_reason:
        return False
    return bool(state.reading_calls)


def reader_gathers(state: RunState, ctx: RunContext) -> StopReason:
    """The reading's calls run as a model's would (canonicalised, never twice, within the cap and the deadline), a
    round per link of a chain ("the area with the most homicides, then its income"), each round a trace step of
    phase "reader" that took no model time."""
    state.reader_ran = True
    for _ in range(state.max_calls):
        calls = state.reading_calls[:max(0, state.calls_left())]
        if not calls or state.time_left() < decisions.MIN_PASS_SECONDS:
            break
        started = state.now_ms()
        step = ModelPassStep(pass_number=len(state.passes) + 1, phase="reader", finish_reason="reading_complete",
                             raw_output="\n".join(format_tool_call(n, a) for n, a in calls),
                             parsed_calls=[{"name": n, "arguments": a} for n, a in calls])
        state.emit(step, started)
        state.passes.append(step)
        for name, arguments in calls:
            step.add_call(run_call(state, ctx, name, arguments))
        if step.asked_only_duplicates:  # a planner that plans what has run would otherwise loop to the cap
            break
        state.reading_calls = reading_calls(state, ctx) if state.calls_left() > 0 else []
    if state.time_left() <= 0:
        return StopReason.TIMEOUT
    return StopReason.MAX_TOOL_CALLS if state.reading_calls and state.calls_left() <= 0 else StopReason.PLAN_COMPLETE


def _no_call_is_a_failure(state: RunState, stop: StopReason) -> StopReason:
    """A model that asks for nothing although the reading has calls for the question has failed at it: its empty
    reply ("NO_TOOL_CALL", or nothing) would otherwise read as "the data can't answer this", an answer to another
    question. (A local model's grammar makes the first pass call; a server may ignore the grammar.)"""
    if stop != StopReason.MODEL_DONE or not state.reading_calls or state.calls or state.reader_ran:
        return stop
    state.emit(ErrorStep(phase="gather", error_type="NoToolCall", message=(
        "the model asked for no data although the question names data the tools hold")), state.now_ms())
    return StopReason.ERROR


def one_pass(state: RunState, ctx: RunContext) -> StopReason | None:
    if ctx.config.question_grammar:
        state.allowed_tools = admitted_tools(state.analysis, ctx.registry.domains(),
                                             [n for n, _ in state.reading_calls])
    written = planner_pass(state, ctx) if ctx.planner_decides else model_pass(state, ctx)
    if written is None:
        return StopReason.ERROR
    step, late = written
    state.passes.append(step)
    stop = StopReason.TIMEOUT if late else None
    # Calls written before time ran out still run: the tools answer in milliseconds, and their data is what the
    # time-limited answer is built from. Only further model passes are given up.
    for call in step.parsed_calls:
        tool_step = run_call(state, ctx, call.get("name"), call.get("arguments"))
        step.add_call(tool_step)
        if tool_step.status == "skipped" and stop is None:
            stop = StopReason.MAX_TOOL_CALLS
    stop = decisions.after_pass(stop, wrote_calls=bool(step.parsed_calls), wrote_errors=bool(step.parse_errors),
                                asked_only_duplicates=step.asked_only_duplicates,
                                asked_a_duplicate=step.asked_a_duplicate,
                                duplicates_so_far=sum(s.status == "duplicate" for s in state.calls))
    if stop is None:
        remaining = state.calls_left()
        state.reading_calls = reading_calls(state, ctx) if remaining > 0 else []
        if _reading_done(state, step, remaining):
            return StopReason.PLAN_COMPLETE
        # The next pass reads how many calls are left after this one's results.
        step.close(prompts.template("continue" if remaining > 0 else "no_more_calls").format(remaining=remaining))
    return stop


def _reading_done(state: RunState, step: ModelPassStep, remaining: int) -> bool:
    """Sufficiency: the model's calls have made every call of the question's reading, without error. A further
    pass measured as a repeat of the last call (qwen2.5-coder-0.5b, 5-13 s of generation, nothing new)."""
    return (bool(state.reading_tools) and not state.reading_calls and bool(step.parsed_calls) and remaining > 0
            and state.all_calls_ok() and not state.reader_ran)


def model_pass(state: RunState, ctx: RunContext) -> tuple[ModelPassStep, bool] | None:
    """The model writes its calls: the pass and whether time ran out during it; None when the pass failed. A
    question the reading has calls for needs data: its first pass may not end gathering before a call (a small
    model answered "NO_TOOL_CALL" to "how many murders were there last year?")."""
    remaining = max(0, state.calls_left())
    must_call = bool(state.reading_calls) and not state.passes and remaining > 0
    grammar = None
    if state.use_grammar:
        grammar = ctx.grammars.grammar(remaining, state.allowed_values, no_call=not must_call,
                                       tools=tuple(state.allowed_tools))
    outcome = generate(state, ctx, "gather", [], grammar)
    if outcome is None:
        return None
    parsed = parse_tool_calls(outcome.text)
    step = ModelPassStep.from_generation(
        outcome.generation, outcome.prompt_tokens, pass_number=len(state.passes) + 1, parsed_calls=parsed.calls,
        parse_errors=parsed.errors, allowed_values=state.allowed_values if state.use_grammar else {},
        allowed_tools=state.allowed_tools if state.use_grammar else [])
    state.emit(step, outcome.started_ms, "model_ms")
    return step, out_of_time(state, outcome.generation)


def planner_pass(state: RunState, ctx: RunContext) -> tuple[ModelPassStep, bool] | None:
    """With no model, the planner's next calls are the pass (shown in the trace as the lines a model would write)."""
    started = state.now_ms()
    try:
        calls = ctx.planner.next_calls(state.analysis, state.ran_calls(), max(0, state.calls_left()))
    except Exception as exc:  # noqa: BLE001 - a planner failure ends gathering like a failed model pass
        state.emit(ErrorStep(phase="gather", error_type=type(exc).__name__, message=str(exc)), started)
        return None
    text = "\n".join(format_tool_call(n, a) for n, a in calls) or "NO_TOOL_CALL: the results so far answer the question."
    step = ModelPassStep(pass_number=len(state.passes) + 1, raw_output=text, finish_reason="stop",
                         parsed_calls=[{"name": n, "arguments": a} for n, a in calls],
                         allowed_values=state.allowed_values if state.use_grammar else {},
                         allowed_tools=state.allowed_tools if state.use_grammar else [])
    state.emit(step, started, "model_ms")
    return step, False


def _outside_question(state: RunState, canonical: dict) -> str | None:
    """Why a model's own call disagrees with the question, or None. A chained question takes its place from a
    result (the ranking's top area), so that is not checked."""
    allowed = state.allowed_values
    if state.analysis is not None and state.analysis.chained:
        allowed = {k: v for k, v in allowed.items() if k not in ("community_area", "compare_areas")}
    return outside_question(allowed, canonical)


def reading_calls(state: RunState, ctx: RunContext) -> list:
    """The planner's next calls for the question's reading, given what has run (only when a model decides). Their
    tools are remembered: the answer's key figures come from them, not from a model's extra calls."""
    if not ctx.model_decides or state.analysis is None or state.analysis.error:
        return []
    try:
        calls = ctx.planner.next_calls(state.analysis, state.ran_calls(), state.calls_left())
    except Exception:  # noqa: BLE001 - a planner failure leaves the question to the model
        return []
    state.reading_tools.update(name for name, _ in calls)
    return calls


def _in_reading(state: RunState, ctx: RunContext, name: str, canonical: dict) -> bool:
    """A model's call is one the question's reading makes (compared canonically)."""
    key = call_key(name, canonical)
    for planned_name, planned_args in state.reading_calls:
        try:
            if call_key(planned_name, ctx.registry.canonicalize(planned_name, planned_args)) == key:
                return True
        except ToolArgumentError:
            continue
    return False


def run_call(state: RunState, ctx: RunContext, name, arguments, origin: str = "",
             refused: str | None = None) -> ToolCallStep:
    """Canonicalise, deduplicate and run one requested call. ``origin``: who wrote it, where the caller knows (the
    model's query after the reading's calls); ``refused``: why the caller refuses it (the call is recorded, not run)."""
    started = state.now_ms()
    arguments = arguments if isinstance(arguments, dict) else {}
    used = state.calls_used()
    step = ToolCallStep(call=len(state.calls) + 1, name=str(name), arguments=arguments)
    state.calls.append(step)
    if used >= state.max_calls:
        step.status = "skipped"
        step.error = f"the limit of {state.max_calls} tool calls was reached"
        return state.emit(step, started)
    try:
        canonical, failure = ctx.registry.canonicalize(step.name, arguments), None
    except ToolArgumentError as exc:
        canonical, failure = arguments, ToolResult.failure(step.name, str(exc), exc.code, arguments)
    step.origin = origin or ("planner" if ctx.planner_decides else "reader" if state.reader_ran
                             else "reading" if _in_reading(state, ctx, step.name, canonical) else "model")
    if not refused:
        refused = None if step.origin != "model" or failure else _outside_question(state, canonical)
    if refused:  # the model is told why in the next prompt; the run reports a model failure
        failure = ToolResult.failure(step.name, refused, "outside_question", canonical)
    step.arguments = canonical
    key = call_key(step.name, canonical)
    if key in state.seen:
        step.status, step.duplicate_of = "duplicate", state.seen[key].call
        step.error = f"identical to call {step.duplicate_of}; its result is already available"
        return state.emit(step, started)
    state.seen[key] = step
    result = failure or ctx.registry.run(step.name, canonical)
    step.result, step.result_summary = result, result.summary
    if result.ok:
        step.source = 1 + sum(s.source is not None for s in state.calls)
        step.label = prompts.source_label(result.sources, ctx.registry.get(step.name).label) or step.name
    else:
        step.status, step.error = "error", (result.error or {}).get("message") or result.summary
    state.emit(step, started, "tools_ms")
    if refused:
        state.partial = True
        state.emit(ErrorStep(phase="gather", error_type="CallOutsideQuestion", message=refused), state.now_ms())
    return step
