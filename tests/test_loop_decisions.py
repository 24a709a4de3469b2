"""The loop's decisions as tables: each row is what a run knows and what must happen next (loop/decisions.py)."""
import pytest

from loop.decisions import CheckAction, after_pass, check_action, stop_before_pass
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


PLAIN = {"stop": None, "wrote_calls": True, "wrote_errors": False, "asked_only_duplicates": False,
         "asked_a_duplicate": False, "duplicates_so_far": 0}


@pytest.mark.parametrize("change, expected", [
    ({}, None),  # calls ran: another pass
    ({"wrote_calls": False}, S.MODEL_DONE),  # no call asked: done
    ({"wrote_calls": False, "wrote_errors": True}, None),  # an unreadable call: try again
    ({"stop": S.TIMEOUT}, S.TIMEOUT),
    ({"stop": S.MAX_TOOL_CALLS, "wrote_calls": False}, S.MAX_TOOL_CALLS),
    ({"asked_only_duplicates": True, "asked_a_duplicate": True}, S.DUPLICATE_CALL),  # nothing new asked
    ({"asked_a_duplicate": True, "duplicates_so_far": 2}, S.DUPLICATE_CALL),  # a second repeat
    ({"asked_a_duplicate": True, "duplicates_so_far": 1}, None),  # a first repeat among new calls
])
def test_after_a_pass(change, expected):
    assert after_pass(**{**PLAIN, **change}) == expected


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
