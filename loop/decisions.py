"""The loop's decisions, as pure functions of what a run knows (tested as tables in tests/test_loop_decisions.py).

- before a gathering pass: whether to stop (call cap, pass cap, time);
- after a pass: why gathering stops, if it does;
- in the answer check: accept the answer, add a sentence, rewrite it, or take the planner's answer.
"""
from __future__ import annotations

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


def after_pass(stop: StopReason | None, wrote_calls: bool, wrote_errors: bool, asked_only_duplicates: bool,
               asked_a_duplicate: bool, duplicates_so_far: int) -> StopReason | None:
    """Why gathering stops after a pass, if it does. A pass that asks only for calls already made has nothing new
    to ask: another free pass would cost seconds and, with a small model, usually the same repeat; so would a
    further repeat after two. A pass that asks for nothing ends gathering."""
    if asked_only_duplicates or (duplicates_so_far >= 2 and asked_a_duplicate):
        return stop or StopReason.DUPLICATE_CALL
    if not stop and not wrote_calls and not wrote_errors:
        return StopReason.MODEL_DONE
    return stop


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
