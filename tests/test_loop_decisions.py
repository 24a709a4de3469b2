"""The loop's decisions as tables: each row is what a run knows and what must happen next (loop/decisions.py)."""
from dataclasses import replace

import pytest

from loop.decisions import (
    CheckAction,
    PassAllowance,
    PassFacts,
    after_pass,
    check_action,
    pass_allowance,
    stop_before_pass,
)
from loop.state import StopReason as S


@pytest.mark.parametrize("calls_used, max_calls, passes, time_left, expected", [
    (0, 4, 0, 60.0, None),
    (4, 4, 1, 60.0, S.MAX_TOOL_CALLS),  # the cap
    (1, 4, 6, 60.0, S.MAX_TOOL_CALLS),  # passes that ask for nothing usable count too (cap + 2)
    (1, 4, 5, 60.0, None),
    (0, 4, 0, 0.1, S.TIMEOUT),  # too little time left for a pass
    (4, 4, 0, 0.0, S.MAX_TOOL_CALLS),  # the cap is reported before the time
])
def test_stop_before_a_pass(calls_used, max_calls, passes, time_left, expected):
    assert stop_before_pass(calls_used, max_calls, passes, time_left) == expected


@pytest.mark.parametrize("remaining, drafted, first, done, expected", [
    (4, 2, True, False, PassAllowance(2, True)),  # a mapped question's first pass must call, at most the draft's calls
    (1, 2, True, False, PassAllowance(1, True)),
    (4, 0, True, False, PassAllowance(4, False)),  # nothing drafted: the model may stop at once
    (3, 1, False, False, PassAllowance(3, False)),
    (3, 0, False, True, PassAllowance(1, False)),  # the draft has run: one further call per pass
    (0, 2, True, False, PassAllowance(0, False)),
])
def test_calls_a_pass_may_write(remaining, drafted, first, done, expected):
    assert pass_allowance(remaining, drafted, first, done) == expected


PLAIN = PassFacts(stop=None, outstanding=False, offered_only=False, use_grammar=True, chained=False,
                  asked_only_duplicates=False, asked_a_duplicate=False, duplicates_so_far=0, had_draft=False,
                  remaining=3, stop_when_drafted=True, wrote_calls=True, wrote_errors=False, all_calls_ok=True)


@pytest.mark.parametrize("change, stop, draft_only, keep_draft, close", [
    ({}, None, False, False, True),  # calls ran, nothing drafted: another pass
    ({"wrote_calls": False}, S.MODEL_DONE, False, False, True),  # no call asked: done (the footer is still written)
    ({"wrote_calls": False, "wrote_errors": True}, None, False, False, True),  # an unreadable call: try again
    ({"stop": S.TIMEOUT}, S.TIMEOUT, False, False, False),
    ({"had_draft": True}, S.PLAN_COMPLETE, False, False, False),  # the draft has run without error
    ({"had_draft": True, "all_calls_ok": False}, None, False, False, True),  # a failed call keeps gathering open
    ({"had_draft": True, "stop_when_drafted": False}, None, False, False, True),
    ({"had_draft": True, "outstanding": True}, None, False, True, True),  # draft still unrun: shown again
    ({"outstanding": True, "asked_only_duplicates": True, "asked_a_duplicate": True},
     None, True, True, True),  # a repeat with the draft unrun: one draft-only pass
    ({"outstanding": True, "offered_only": True, "asked_only_duplicates": True, "asked_a_duplicate": True},
     S.DUPLICATE_CALL, False, False, False),  # ... offered once
    ({"outstanding": True, "use_grammar": False, "asked_only_duplicates": True, "asked_a_duplicate": True},
     S.DUPLICATE_CALL, False, False, False),  # without a grammar nothing can hold a pass to the draft
    ({"asked_a_duplicate": True, "duplicates_so_far": 2}, S.DUPLICATE_CALL, False, False, False),  # a second repeat
    ({"asked_a_duplicate": True, "duplicates_so_far": 1}, None, False, False, True),  # a first repeat among new calls
    ({"outstanding": True, "chained": True}, None, True, True, True),  # every chain step is a draft-only pass
    ({"outstanding": True, "chained": True, "offered_only": True}, None, True, True, True),
    ({"outstanding": True, "chained": True, "stop": S.MAX_TOOL_CALLS}, S.MAX_TOOL_CALLS, False, False, False),
    ({"had_draft": True, "remaining": 0}, None, False, False, True),  # no call left: "no more calls" footer
])
def test_after_a_pass(change, stop, draft_only, keep_draft, close):
    verdict = after_pass(replace(PLAIN, **change))
    assert (verdict.stop, verdict.draft_only, verdict.keep_draft, verdict.close_pass) == (stop, draft_only,
                                                                                          keep_draft, close)


@pytest.mark.parametrize("attempt, grounded, missing, unmatched, fallback, short, expected", [
    (1, True, False, False, False, False, CheckAction.ACCEPT),
    (1, False, False, True, False, False, CheckAction.REWRITE),  # a figure the data does not back
    (1, True, True, False, False, False, CheckAction.ADD_SENTENCE),  # a left-out figure: one more sentence
    (1, False, True, True, False, False, CheckAction.REWRITE),
    (2, False, False, True, False, False, CheckAction.PLANNER_ANSWER),  # the second failure: the planner's answer
    (1, False, False, True, False, True, CheckAction.PLANNER_ANSWER),  # no time for another pass
    (3, False, True, True, False, False, CheckAction.ACCEPT),  # three rounds at most
    (1, False, True, True, True, False, CheckAction.ACCEPT),  # a summary fallback is not rewritten
])
def test_what_follows_an_answer_check(attempt, grounded, missing, unmatched, fallback, short, expected):
    assert check_action(attempt, grounded, missing, unmatched, fallback, short, False) == expected


@pytest.mark.parametrize("attempt, grounded, missing, fallback, expected", [
    (1, True, False, False, CheckAction.PLANNER_ANSWER),  # every figure backed, but no sentence: the planner's
    (1, False, False, False, CheckAction.REWRITE),  # an unbacked figure is rewritten first, as before
    (1, True, True, False, CheckAction.ADD_SENTENCE),
    (3, True, False, False, CheckAction.ACCEPT),  # three rounds at most
    (1, True, False, True, CheckAction.ACCEPT),  # the summary fallback is not refused for its form
])
def test_a_badly_formed_answer_gives_way_to_the_planners(attempt, grounded, missing, fallback, expected):
    assert check_action(attempt, grounded, missing, not grounded, fallback, False, True) == expected
