"""The loop's decisions, as pure functions of what a run knows (tested as tables in tests/test_loop_decisions.py).

- before a gathering pass: whether to stop (call cap, pass cap, time);
- for a pass: how many calls it may write, and whether it must write one;
- after a pass: why gathering stops, if it does, and what the next pass may do with the planner's draft;
- in the answer check: accept the answer, add a sentence, rewrite it, or take the planner's answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from loop.state import StopReason

MIN_PASS_SECONDS = 0.2  # no model pass is started with less time than this left
MAX_CHECK_ROUNDS = 3


def stop_before_pass(calls_used: int, max_calls: int, passes: int, time_left: float) -> StopReason | None:
    """Passes that ask for nothing usable still count, so a model that never calls cannot loop forever."""
    if calls_used >= max_calls or passes >= max_calls + 2:
        return StopReason.MAX_TOOL_CALLS
    if time_left < MIN_PASS_SECONDS:
        return StopReason.TIMEOUT
    return None


@dataclass(frozen=True)
class PassAllowance:
    calls: int  # how many TOOL_CALL lines the grammar admits
    must_call: bool  # the pass may not end gathering before its first call


def pass_allowance(remaining: int, drafted: int, first_pass: bool, draft_done: bool) -> PassAllowance:
    """A question the planner could map needs data: its first pass may not end gathering before any call (a small
    model answered "NO_TOOL_CALL" to "how many murders were there last year?"), and may write as many calls as the
    draft has (a small model copied the draft and then wrote it again line after line). Once the drafted calls
    have run, a further call is an exception: one per pass (a small model tended to repeat the last call)."""
    must_call = drafted > 0 and first_pass and remaining > 0
    if must_call:
        return PassAllowance(min(remaining, drafted), True)
    if draft_done:
        return PassAllowance(min(remaining, 1), False)
    return PassAllowance(remaining, False)


@dataclass(frozen=True)
class PassFacts:
    """What a finished gathering pass and the run around it show."""

    stop: StopReason | None  # already decided while its calls ran (timeout, the cap)
    outstanding: bool  # the planner's draft still has calls that have not run
    offered_only: bool  # a draft-only pass was already offered
    use_grammar: bool
    chained: bool  # the question's next call takes its place from a result
    asked_only_duplicates: bool
    asked_a_duplicate: bool
    duplicates_so_far: int  # refused repeats across all passes
    had_draft: bool  # some pass of this run was shown a draft
    remaining: int  # calls left under the cap
    stop_when_drafted: bool  # the sufficiency stop is on
    wrote_calls: bool
    wrote_errors: bool
    all_calls_ok: bool


@dataclass(frozen=True)
class PassVerdict:
    stop: StopReason | None
    draft_only: bool  # the next pass may only take the outstanding draft or stop
    offered_only: bool
    keep_draft: bool  # the outstanding draft is shown to the next pass
    draft_done: bool  # every drafted call has run (the next prompt says so)
    close_pass: bool  # the pass gets its footer (calls left, the next draft): a later prompt reads it


def after_pass(f: PassFacts) -> PassVerdict:
    """A pass that asks only for calls already made has nothing new to ask: another free pass would cost seconds
    and, with a small model, usually the same repeat. If the draft is still unrun, the model gets one pass that may
    only take it or stop; otherwise gathering ends. A chained question's every step is such a pass: given a free
    pass, a small model wrote the city-wide call instead of the one the chain's result names."""
    stop, draft_only, offered = f.stop, False, f.offered_only
    repeated = f.duplicates_so_far >= 2
    if f.asked_only_duplicates or (repeated and f.asked_a_duplicate):
        if f.outstanding and not f.offered_only and f.use_grammar:
            draft_only = offered = True
        else:
            stop = stop or StopReason.DUPLICATE_CALL
    elif f.outstanding and f.chained and f.use_grammar and not stop:
        draft_only = offered = True
    keep_draft = f.outstanding and not stop
    draft_done = f.had_draft and not keep_draft and f.remaining > 0
    # Sufficiency: once every drafted call has run without error, a further pass measured as a repeat of the last
    # call (seconds of generation, nothing new), so gathering ends.
    if draft_done and not stop and f.stop_when_drafted and f.wrote_calls and f.all_calls_ok:
        stop = StopReason.PLAN_COMPLETE
    # No further pass reads a footer once gathering stops, except after a pass that asked for nothing: the
    # synthesis request then follows it.
    close_pass = stop is None
    if not stop and not f.wrote_calls and not f.wrote_errors:
        stop = StopReason.MODEL_DONE
    return PassVerdict(stop, draft_only, offered, keep_draft, draft_done, close_pass)


class CheckAction(Enum):
    ACCEPT = "accept"  # keep the answer as it is
    ADD_SENTENCE = "add_sentence"  # one more model sentence for the figures it left out
    REWRITE = "rewrite"  # a strict rewrite without the figures the data does not back
    PLANNER_ANSWER = "planner_answer"  # the planner's answer instead


def check_action(attempt: int, grounded: bool, missing: bool, unmatched: bool, used_fallback: bool,
                 time_short: bool, badly_formed: bool) -> CheckAction:
    """After the ``attempt``-th check of an answer. Left-out figures are added by one more sentence, not a rewrite:
    asked to rewrite, the 0.5B model returned its first answer unchanged and the planner's answer followed. A
    model's answer with every figure right but no sentence to lead ("Austin (25): 49 (6.8% of total)") gives way to
    the planner's, which is written as one: the 0.5B model asked to rewrite its form copied the key line again."""
    if used_fallback or attempt >= MAX_CHECK_ROUNDS:
        return CheckAction.ACCEPT
    if grounded and not missing:
        return CheckAction.PLANNER_ANSWER if badly_formed else CheckAction.ACCEPT
    if attempt == 2 or time_short:
        return CheckAction.PLANNER_ANSWER
    return CheckAction.REWRITE if unmatched else CheckAction.ADD_SENTENCE
