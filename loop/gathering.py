"""Gathering: passes that ask for tool calls, and the calls run, until a decision (loop/decisions.py) stops it.

A pass is the model's (with the planner's draft shown to it, grammar-constrained to the question's tools,
places and years) or, with no model, the planner's own. Each call is canonicalised, refused when it repeats
an earlier one or exceeds the cap, and run.
"""
from __future__ import annotations

import prompt_registry as prompts
from loop import decisions
from loop.argument_constraints import admitted_tools, outside_question, widened_for_unread
from loop.context import RunContext
from loop.model_pass import generate, out_of_time
from loop.query_pass import model_queries, queries_where_the_reading_fell_short
from loop.own_calls import note_own_calls, offers_unread_pass, own_calls_text, writes_own_calls
from toolcall.protocol import ParseResult, format_tool_call, parse_tool_calls
from loop.state import RunState, StopReason
from loop.steps import ErrorStep, ModelPassStep, ToolCallStep
from tools.errors import ToolArgumentError
from tools.registry import ToolResult, call_key


def gather(state: RunState, ctx: RunContext) -> StopReason:
    if reading_covers(state, ctx):
        return reader_gathers(state, ctx)
    if queries_where_the_reading_fell_short(state, ctx):
        state.draft.calls = drafts(state, ctx)
        return model_queries(state, ctx, reader_gathers, run_call)
    while True:
        stop = decisions.stop_before_pass(state.calls_used(), state.max_calls, len(state.passes), state.time_left())
        if stop is None:
            stop = one_pass(state, ctx)
        if stop is not None:
            note_own_calls(state)
            _run_left_drafts(state, ctx, stop)
            return _no_call_is_a_failure(state, stop)


def reading_covers(state: RunState, ctx: RunContext) -> bool:
    """Under model_calls "gaps": the reading used every word of the question and the planner drafts its calls.
    Shown such a draft, the 0.5B and 1.5B models approved it (USE_SUGGESTED) or made it worse, at 2-10 s a pass
    (docs/measurements.md): the model's gathering is kept for the questions the reading falls short on."""
    analysis = state.analysis
    if not ctx.model_drafts or ctx.config.model_calls != "gaps" or analysis is None or analysis.error \
            or analysis.not_used or state.no_calls_reason:
        return False
    state.draft.calls = drafts(state, ctx)
    return bool(state.draft.calls)


def reader_gathers(state: RunState, ctx: RunContext) -> StopReason:
    """The reading's calls run as a model's would (canonicalised, never twice, within the cap and the deadline), a
    round per link of a chain ("the area with the most homicides, then its income"), each round a trace step of
    phase "reader" that took no model time."""
    state.reader_ran = True
    for _ in range(state.max_calls):
        calls = state.draft.calls[:max(0, state.calls_left())]
        if not calls or state.time_left() < decisions.MIN_PASS_SECONDS:
            break
        started = state.now_ms()
        listed = [{"name": n, "arguments": a} for n, a in calls]
        step = ModelPassStep(pass_number=len(state.passes) + 1, phase="reader", finish_reason="reading_complete",
                             raw_output="\n".join(format_tool_call(n, a) for n, a in calls), parsed_calls=listed,
                             suggested_calls=listed, used_suggestion=True)
        state.emit(step, started)
        state.passes.append(step)
        for name, arguments in calls:
            step.add_call(run_call(state, ctx, name, arguments))
        if step.asked_only_duplicates:  # a planner that drafts what has run would otherwise loop to the cap
            break
        state.draft.calls = drafts(state, ctx) if state.calls_left() > 0 else []
    if state.time_left() <= 0:
        return StopReason.TIMEOUT
    return StopReason.MAX_TOOL_CALLS if state.draft.calls and state.calls_left() <= 0 else StopReason.PLAN_COMPLETE


def _run_left_drafts(state: RunState, ctx: RunContext, stop: StopReason) -> None:
    """A model that ended gathering (or only repeated itself, or ran out of time) before the planner's drafted calls
    had run leaves the question's reading unanswered: asked "Chicago's population if you leave out the Loop", the
    0.5B model ran a ranking and the Loop's count, never the city's, and answered with the Loop's population. Those
    calls run anyway (tools answer in milliseconds; no model pass is added), marked as drafts, and the trace says
    so."""
    if stop not in (StopReason.MODEL_DONE, StopReason.DUPLICATE_CALL, StopReason.TIMEOUT) or not state.calls:
        return
    ran: list = []
    for _ in range(state.max_calls):  # a chained draft appears once the call before it has run
        left = drafts(state, ctx) if state.calls_left() > 0 else []
        if not left:
            break
        state.draft.calls = left  # what run_call recognises as the planner's (no question-grammar refusal)
        ran += [run_call(state, ctx, name, args) for name, args in left[:state.calls_left()]]
    if ran:
        state.emit(ErrorStep(phase="gather", error_type="DraftsLeftOut", message=(
            "the model stopped before the planner's drafted calls had run; these were run for it: "
            + "; ".join(prompts.format_call(s.name, s.arguments) for s in ran))), state.now_ms())


def _no_call_is_a_failure(state: RunState, stop: StopReason) -> StopReason:
    """A model that asks for nothing although the planner could map the question has failed at it: its empty reply
    ("NO_TOOL_CALL", or nothing) would otherwise read as "the data can't answer this", an answer to another
    question. (A local model's grammar makes the first pass call; a server may ignore the grammar.)"""
    drafted = bool(state.passes and state.passes[0].suggested_calls)
    if stop != StopReason.MODEL_DONE or not drafted or state.calls:
        return stop
    state.emit(ErrorStep(phase="gather", error_type="NoToolCall", message=(
        "the model asked for no data although the question names data the tools hold")), state.now_ms())
    return StopReason.ERROR


def one_pass(state: RunState, ctx: RunContext) -> StopReason | None:
    if not state.passes:
        state.draft.calls = drafts(state, ctx)
        state.own_calls = writes_own_calls(state, ctx)
        if state.own_calls and ctx.config.question_grammar:
            state.allowed_values = widened_for_unread(state.analysis, state.question, state.allowed_values)
        state.draft.first_text = (own_calls_text(state.analysis.not_used, state.draft.calls) if state.own_calls
                                  else draft_text(state.draft.calls))
    if ctx.config.question_grammar:
        state.allowed_tools = admitted_tools(state.analysis, ctx.registry.domains(), [n for n, _ in state.draft.calls])
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
    return _after(state, ctx, step, stop)


def _after(state: RunState, ctx: RunContext, step: ModelPassStep, stop: StopReason | None) -> StopReason | None:
    remaining = state.calls_left()
    outstanding = drafts(state, ctx) if remaining > 0 and not stop else []
    verdict = decisions.after_pass(decisions.PassFacts(
        stop=stop, outstanding=bool(outstanding), offered_only=state.draft.offered_only, use_grammar=state.use_grammar,
        chained=bool(state.analysis.chained), asked_only_duplicates=step.asked_only_duplicates,
        asked_a_duplicate=step.asked_a_duplicate,
        duplicates_so_far=sum(s.status == "duplicate" for s in state.calls),
        had_draft=bool(state.draft.calls) or any(p.suggested_calls for p in state.passes), remaining=remaining,
        stop_when_drafted=ctx.config.stop_when_drafted, wrote_calls=bool(step.parsed_calls),
        wrote_errors=bool(step.parse_errors), all_calls_ok=state.all_calls_ok()))
    state.draft.only, state.draft.offered_only = verdict.draft_only, verdict.offered_only
    state.draft.calls = outstanding if verdict.keep_draft else []
    state.draft.done = verdict.draft_done
    if state.unread_pass == "offered":  # the pass for the unread words has been written: gathering ends with it
        state.unread_pass = "done"
        return verdict.stop or (StopReason.PLAN_COMPLETE if step.parsed_calls else StopReason.MODEL_DONE)
    if verdict.stop == StopReason.PLAN_COMPLETE and offers_unread_pass(state, ctx):
        # The drafts have run; the words the reading left out get one pass of the model's own (unread_calls: add).
        state.unread_pass = "offered"
        if ctx.config.question_grammar:
            state.allowed_values = widened_for_unread(state.analysis, state.question, state.allowed_values)
        footer = prompts.template("continue").format(remaining=remaining)
        step.close(footer + "\n" + own_calls_text(state.analysis.not_used, [], adding=True))
        return None
    if verdict.close_pass:
        footer = prompts.template("continue" if remaining > 0 else "no_more_calls").format(remaining=remaining)
        done = prompts.template("plan_done") if verdict.draft_done else ""
        step.close("\n".join(x for x in (footer, draft_text(state.draft.calls), done) if x))
    return verdict.stop


def model_pass(state: RunState, ctx: RunContext) -> tuple[ModelPassStep, bool] | None:
    """The model writes its calls: the pass and whether time ran out during it; None when the pass failed."""
    drafted = state.draft.calls
    # Writing its own calls, the model may add one call to the partial reading's (or write two where it has none).
    planned = max(len(drafted), 1) + 1 if state.own_calls and not state.passes else len(drafted)
    allowance = decisions.pass_allowance(max(0, state.calls_left()), planned, not state.passes, state.draft.done)
    if state.unread_pass == "offered":  # one call for the unread words, or none
        allowance = decisions.PassAllowance(min(1, max(0, state.calls_left())), False)
    only_lines = draft_lines(state)
    grammar = None
    if state.use_grammar:
        grammar = ctx.grammars.grammar(allowance.calls, bool(drafted) and allowance.calls > 0 and not state.own_calls,
                                       state.allowed_values,
                                       no_call=not allowance.must_call, only_lines=only_lines,
                                       tools=tuple(state.allowed_tools))
    outcome = generate(state, ctx, "gather", [], grammar)
    if outcome is None:
        return None
    used = bool(drafted) and outcome.text.strip().upper().startswith(prompts.SUGGESTED_REPLY)
    parsed = (ParseResult(calls=[{"name": n, "arguments": a} for n, a in drafted]) if used
              else parse_tool_calls(outcome.text))
    step = ModelPassStep.from_generation(
        outcome.generation, outcome.prompt_tokens, pass_number=len(state.passes) + 1, parsed_calls=parsed.calls,
        parse_errors=parsed.errors, suggested_calls=[{"name": n, "arguments": a} for n, a in drafted],
        used_suggestion=used, allowed_values=state.allowed_values if state.use_grammar else {},
        allowed_tools=state.allowed_tools if state.use_grammar else [],
        draft_only=bool(only_lines) if state.use_grammar else False)
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


def _drafted(state: RunState, ctx: RunContext, name: str, canonical: dict) -> bool:
    """The call is one of the planner's drafts on offer (compared canonically)."""
    key = call_key(name, canonical)
    for drafted_name, drafted_args in state.draft.calls:
        try:
            if call_key(drafted_name, ctx.registry.canonicalize(drafted_name, drafted_args)) == key:
                return True
        except ToolArgumentError:
            continue
    return False


def _outside_question(state: RunState, canonical: dict) -> str | None:
    """Why a model's own call (not one of the planner's drafts, which are the question's own reading) disagrees with
    the question, or None. A chained question takes its place from a result (the ranking's top area), so that is
    not checked."""
    allowed = state.allowed_values
    if state.analysis is not None and state.analysis.chained:
        allowed = {k: v for k, v in allowed.items() if k not in ("community_area", "compare_areas")}
    return outside_question(allowed, canonical)


def drafts(state: RunState, ctx: RunContext) -> list:
    """The planner's next calls for this question, given what has run (only when a model decides). Where the model
    writes its own calls, the draft is only the first pass's partial reading: offered again later, it would bring
    back the call the model replaced."""
    if not ctx.model_drafts or state.analysis is None or state.analysis.error:
        return []
    if state.analysis.not_used and ctx.config.unread_calls == "none":
        return []  # the reading fell short: the model writes its own calls (the issue's own-calls policy)
    if (state.own_calls or state.unread_pass) and state.passes:
        return []
    try:
        drafted = ctx.planner.next_calls(state.analysis, state.ran_calls(), state.calls_left())
        return [(name, ctx.grammars.in_schema_order(name, args)) for name, args in drafted]
    except Exception:  # noqa: BLE001 - a planner failure only loses the hint
        return []


def draft_text(calls: list) -> str:
    if not calls:
        return ""
    return prompts.template("suggestion").format(calls="\n".join(format_tool_call(n, a) for n, a in calls))


def draft_lines(state: RunState) -> tuple:
    """The outstanding draft as exact lines, when the coming pass may only take them or stop."""
    if not (state.draft.only and state.draft.calls):
        return ()
    return tuple(format_tool_call(n, a) for n, a in state.draft.calls)


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
                             else "draft" if _drafted(state, ctx, step.name, canonical) else "model")
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
