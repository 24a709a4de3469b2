"""Synthesis: one request that turns every result gathered into the answer; the fallbacks when it cannot.

The request names the results (with their rows where the context allows), the planner's key figures for a
model, the analyzer's notes and what the data covers. Without a model the planner writes the answer. When no
pass can run (no time, a failed model) the answer is built from the result summaries.
"""
from __future__ import annotations

import re

import prompt_registry as prompts
from backends.base import Generation
from loop import decisions
from loop.context import RunContext
from loop.model_pass import PassOutcome, generate, messages, out_of_time
from loop.number_grammar import allowed_numerals, build_number_grammar
from loop.query_pass import reading_answer
from loop.refinement import refinements
from loop.state import AnswerTokens, RunState, StopReason
from loop.steps import ErrorStep, SynthesisStep

MIN_ANSWER_WORDS = 4  # a strict re-synthesis shorter than this does not replace the answer
LONG_KEY_CHARS = 300  # key figures longer than this are the answer as they stand (no model pass rewrites them)


def synthesize(state: RunState, ctx: RunContext) -> None:
    if state.stop == StopReason.ERROR:
        # With data gathered the planner answers from it; with none, "the data can't answer this" would be an
        # answer to another question: the fallback says the model failed.
        return None if state.ran_calls() and planner_answer(state, ctx) else fallback(state)
    if state.analysis is not None and ctx.planner.declines_the_years(state.analysis) and planner_answer(state, ctx):
        # Asked only about years the data does not hold (1995, 2024): the answer is that it cannot say, in the
        # planner's words. A 0.5B model given the other years' figures wrote "the homicide total for 2024 was 12,657".
        return None
    if state.no_calls_reason and not state.ran_calls() and _names_what_is_missing(state.analysis) \
            and planner_answer(state, ctx, reason="nothing_to_compute"):
        # Asked only about what no data holds (commute times, guns, the Red Line, Evanston, income by ward): the
        # planner's decline names the user's own word and what ChiQA can answer. The 1.5B model's rewording lost
        # that word ("commute" became "transit") on four of the 1,503 questions, and took 2-4 s to do it.
        return None
    if state.time_left() < decisions.MIN_PASS_SECONDS:
        state.stop = StopReason.TIMEOUT
        return fallback(state)
    if state.query_pass:
        return reading_answer(state, ctx)
    if state.reader_ran:
        return small_synthesis(state, ctx)
    sourced = state.sourced_calls()
    lines = [f"[Source {s.source}: {s.label}] {prompts.format_call(s.name, s.arguments)} - {s.result_summary}"
             for s in sourced]
    rows = [line + prompts.listed_rows(s.result.text) for line, s in zip(lines, sourced)]
    state.key_lines = key_figures(state, ctx)

    def request(results: list) -> list:
        return [{"role": "user", "content": prompts.synthesis_message(
            state.question, results, ctx.planner.capabilities, state.no_calls_reason, state.notes, state.key_lines)}]

    state.synthesis_request = request(rows)
    if not ctx.planner_decides and rows != lines:
        budget = int(ctx.backend.n_ctx) - ctx.config.reply_reserve
        from_model = ctx.backend.count_message_tokens
        if from_model(messages(state, ctx) + state.synthesis_request) > budget:
            # Where the context is tight the results themselves come first: the request repeats only summaries.
            state.synthesis_request = request(lines)
    answer_pass(state, ctx, state.synthesis_request, strict=False)


def _names_what_is_missing(analysis) -> bool:
    """The question names something the data deals in (a subject, place or grain it lacks): "hello" or "what is
    MCP?" names nothing, and the model answers those in its own words."""
    return analysis is not None and (analysis.refers_to_data or analysis.followup is not None)


def small_synthesis(state: RunState, ctx: RunContext) -> None:
    """The answer pass after the reading's own calls: its own short system prompt (the backend keeps its KV state
    beside the tools' prompt), the question and the key figures with their labels (else the results' one-line summaries), about
    150-300 new tokens where the whole results were up to 900. The tables stay in the result and on the page."""
    if not state.sourced_calls() and planner_answer(state, ctx, reason="no_results"):
        # Every call failed (a ZIP with no value that month): no figure to write from, and the 0.5B model's "the
        # data tool returned no data" lost the ZIP the planner's answer names with the reason.
        return
    state.key_lines = key_figures(state, ctx)
    if sum(len(line) for line in state.key_lines) > LONG_KEY_CHARS and \
            planner_answer(state, ctx, reason="key_figures_are_the_answer"):
        # A lead of several sentences (a ranking's rows, a chain's parts) the model only copied, at 60 tokens a
        # second (8-25 s on two cores), and sometimes dropped a row of: the planner's sentences are the answer.
        return
    lines = [f"[Source {s.source}: {s.label}] {s.result_summary}" for s in state.sourced_calls()]
    user = prompts.question_message(state.question, state.analysis.hint_text, state.earlier) + "\n\n" + \
        prompts.synthesis_message(state.question, lines, ctx.planner.capabilities, state.no_calls_reason,
                                  state.notes, state.key_lines)
    state.synthesis_request = [{"role": "system", "content": ctx.answer_prompt}, {"role": "user", "content": user}]
    answer_pass(state, ctx, state.synthesis_request, strict=False)


def key_figures(state: RunState, ctx: RunContext) -> list[str]:
    """The planner's lead lines for the results gathered, shown to a model writing the answer."""
    if not (ctx.config.key_figures and ctx.model_decides) or state.analysis is None:
        return []
    try:
        return ctx.planner.key_figures(state.question, state.analysis, state.ran_calls(), state.reading_tools)
    except Exception:  # noqa: BLE001 - the planner only adds a hint here; the answer is still the model's
        return []


def answer_pass(state: RunState, ctx: RunContext, extra: list, strict: bool, append_to: str = "") -> None:
    """One pass that writes (or, with ``append_to``, adds to) the answer."""
    outcome = (_planner_writes(state, ctx, strict, bool(append_to)) if ctx.planner_decides
               else generate(state, ctx, "synthesis", extra, _number_grammar(state, ctx), strict, bool(append_to)))
    if outcome is None:  # an error step was recorded; keep an earlier answer, else the planner's, else summaries
        if not state.answer:
            state.stop = StopReason.ERROR
            # A synthesis that overflowed the context had lost the third row of a top-3 ranking this way
            # ("The model could not finish"); the planner answers from the same results in milliseconds.
            if not (state.ran_calls() and planner_answer(state, ctx)):
                fallback(state)
        return
    answer = reply = prompts.clean_answer(outcome.text)
    failed = None if ctx.planner_decides else _failed_reply(reply, ctx, strict)
    if failed:  # recorded as a model failure; the planner's answer (or the summaries) stand in
        state.emit(ErrorStep(phase="synthesis", error_type=failed[0], message=failed[1]), outcome.started_ms)
        state.partial = True
        answer = reply = ""
    if append_to and _pastes_a_key_line(reply, state.key_lines):
        # Asked for the left-out figure, the 0.5B model pasted the key line ("It comes from: District 7 (Englewood)
        # police station: ...", twice): that is no sentence, so nothing is added and the check goes on.
        reply = ""
    if append_to and reply and not reply.startswith(append_to.strip()):
        answer = append_to.rstrip() + " " + reply  # the added sentence follows the first answer
    state.emit(SynthesisStep.from_generation(outcome.generation, outcome.prompt_tokens, strict=strict),
               outcome.started_ms, "synthesis_ms")
    if out_of_time(state, outcome.generation):
        state.stop, state.partial = StopReason.TIMEOUT, True
    # A strict reply of a few words ("717") is no answer (nor a sentence to add); the check then fails again and
    # the planner's answer is used instead of it.
    if answer and not (strict and state.answer and len(reply.split()) < MIN_ANSWER_WORDS):
        state.answer = answer
    elif not state.answer and not planner_answer(state, ctx):
        # A reply with nothing but call markers ("NO_TOOL_CALL") is no answer: the planner's, else a fallback.
        fallback(state)


def _pastes_a_key_line(reply: str, key_lines: list[str]) -> bool:
    return any(line.strip().rstrip(".") in reply for line in key_lines if len(line) > 40)


_ROLE_LINE = re.compile(r"^\s*(?:system|user|assistant)\s*:", re.I | re.M)


def _failed_reply(reply: str, ctx: RunContext, strict: bool) -> tuple[str, str] | None:
    """An empty answer, or one that echoes the prompt ("SYSTEM: You are ChiQA..."), is a failed pass, not an answer."""
    if not reply.strip():
        return None if strict else ("EmptyReply", "the model wrote no answer")
    if _ROLE_LINE.search(reply) or ctx.system_prompt[:60] in reply:
        return "EchoedPrompt", "the model repeated its instructions instead of answering"
    if strict and prompts.CORRECTION_WORDS in reply:
        # Told "6,143 is Black residents as a count for Hyde Park (41) in the results, not a figure for the city",
        # the 0.5B model wrote those words into its answer.
        return "EchoedCorrection", "the model copied the correction into its answer instead of rewriting it"
    return None


def _number_grammar(state: RunState, ctx: RunContext) -> str | None:
    """Numbers only from the data, by construction: the answer's numerals are the results' own (when set)."""
    if not (state.use_grammar and ctx.config.number_grammar):
        return None
    return build_number_grammar(allowed_numerals([s.result for s in state.ran_calls()], state.question, state.notes))


def _planner_writes(state: RunState, ctx: RunContext, strict: bool, append: bool) -> PassOutcome | None:
    started = state.now_ms()
    try:
        text = ctx.planner.answer(state.question, state.analysis, state.ran_calls(), strict=strict)
    except Exception as exc:  # noqa: BLE001 - recorded like a failed model pass
        state.emit(ErrorStep(phase="synthesis", error_type=type(exc).__name__, message=str(exc)), started)
        return None
    if state.sink and text:
        state.sink(AnswerTokens((" " + text) if append else text, strict=strict, restart=strict and not append))
    return PassOutcome(Generation(text=text, completion_tokens=max(1, len(text) // 4)), 0, started)


def fallback(state: RunState) -> None:
    """A deterministic answer from the result summaries (no time or no model left)."""
    started = state.now_ms()
    state.partial = state.used_fallback = True
    found = [f"[Source {s.source}: {s.label}] {s.result_summary}" for s in state.sourced_calls()]
    state.answer = prompts.fallback_answer(state.stop == StopReason.TIMEOUT, found)
    state.emit(SynthesisStep(fallback=True, raw_output=state.answer, finish_reason=state.stop), started,
               "synthesis_ms")


def planner_answer(state: RunState, ctx: RunContext, reason: str = "planner") -> bool:
    """Replace a model's answer with the planner's, marked in the trace; False when there is none to give."""
    if not ctx.model_decides or state.analysis is None:
        return False
    started = state.now_ms()
    ran = state.ran_calls()
    # From the calls it drafted: a model's own extra call ("homicides in 2001" beside a rate question that names
    # no year) led the planner's answer with a figure for another question. Those calls stay in the trace.
    # A model's call refining a draft where the reading left words unused (loop/refinement.py) is the question's too.
    refining = refinements(ran) if state.analysis.not_used else []
    drafted = [step for step in ran if step.origin != "model" or step in refining] or ran
    try:
        text = ctx.planner.answer(state.question, state.analysis, drafted)
    except Exception:  # noqa: BLE001 - keep the model's answer, flagged, rather than none
        return False
    if not text:
        return False
    state.answer, state.used_planner_answer = text, True
    state.emit(SynthesisStep(fallback=True, planner_answer=True, raw_output=text, finish_reason=reason),
               started, "synthesis_ms")
    return True
