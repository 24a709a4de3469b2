"""toolcall.protocol: the forgiving TOOL_CALL reader (examples plus property-based checks)."""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolcall.protocol import format_tool_call, parse_tool_calls


def calls_of(text):
    return parse_tool_calls(text).calls


# ---------------------------------------------------------------- examples

def test_single_call_line():
    result = parse_tool_calls('TOOL_CALL: {"name": "query_homicides", "arguments": {"year": 2020}}')
    assert result.calls == [{"name": "query_homicides", "arguments": {"year": 2020}}]
    assert result.errors == [] and result.has_call_marker


def test_several_call_lines_and_surrounding_text():
    text = ("Let me look that up.\n"
            'TOOL_CALL: {"name": "a", "arguments": {"x": 1}}\n'
            "and also\n"
            'TOOL_CALL: {"name": "b", "arguments": {"y": "two"}}\nThanks!')
    assert calls_of(text) == [{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {"y": "two"}}]


def test_two_calls_on_one_line():
    text = 'TOOL_CALL: {"name": "a", "arguments": {}} TOOL_CALL: {"name": "b", "arguments": {}}'
    assert [c["name"] for c in calls_of(text)] == ["a", "b"]


def test_code_fence_with_marker():
    text = '```json\nTOOL_CALL: {"name": "a", "arguments": {"q": "x"}}\n```'
    assert calls_of(text) == [{"name": "a", "arguments": {"q": "x"}}]


def test_marker_then_fenced_json():
    text = 'TOOL_CALL:\n```json\n{"name": "a", "arguments": {"q": 1}}\n```'
    assert calls_of(text) == [{"name": "a", "arguments": {"q": 1}}]


def test_fenced_json_without_marker_is_a_call():
    text = 'Here:\n```json\n{"name": "a", "arguments": {"q": 1}}\n```'
    result = parse_tool_calls(text)
    assert result.calls == [{"name": "a", "arguments": {"q": 1}}] and not result.has_call_marker


def test_single_quotes_and_python_literals():
    text = "TOOL_CALL: {'name': 'a', 'arguments': {'flag': True, 'other': False, 'none': None, 's': 'it'}}"
    assert calls_of(text) == [{"name": "a", "arguments": {"flag": True, "other": False, "none": None, "s": "it"}}]


def test_missing_arguments_key_uses_other_keys():
    assert calls_of('TOOL_CALL: {"name": "x", "year": 2020, "area": "Austin"}') == [
        {"name": "x", "arguments": {"year": 2020, "area": "Austin"}}]


def test_args_and_parameters_synonyms():
    assert calls_of('TOOL_CALL: {"name": "x", "args": {"a": 1}}')[0]["arguments"] == {"a": 1}
    assert calls_of('TOOL_CALL: {"name": "x", "parameters": {"b": 2}}')[0]["arguments"] == {"b": 2}


def test_arguments_as_json_string():
    assert calls_of('TOOL_CALL: {"name": "x", "arguments": "{\\"a\\": 1}"}')[0]["arguments"] == {"a": 1}


def test_trailing_commas():
    assert calls_of('TOOL_CALL: {"name": "x", "arguments": {"a": [1, 2,], "b": 3,},}') == [
        {"name": "x", "arguments": {"a": [1, 2], "b": 3}}]


def test_truncated_object_is_closed():
    assert calls_of('TOOL_CALL: {"name": "x", "arguments": {"area": "Aus') == [
        {"name": "x", "arguments": {"area": "Aus"}}]
    assert calls_of('TOOL_CALL: {"name": "x", "arguments": {"years": [2019, 20') == [
        {"name": "x", "arguments": {"years": [2019, 20]}}]
    # a key cut off before its value is dropped
    assert calls_of('TOOL_CALL: {"name": "x", "arguments": {"a": 1, "ye') == [{"name": "x", "arguments": {"a": 1}}]


def test_marker_with_unreadable_json_is_an_error_not_an_exception():
    for text in ("TOOL_CALL: I will call the tool", "TOOL_CALL: {]]]", "TOOL_CALL:", "TOOL_CALL: {",
                 'TOOL_CALL: {"arguments": {"a": 1}}', 'TOOL_CALL: {"name": "x", "arguments": [1, 2]}'):
        result = parse_tool_calls(text)
        assert result.calls == [] and result.errors and result.has_call_marker, text


def test_one_bad_call_does_not_hide_a_good_one():
    result = parse_tool_calls('TOOL_CALL: oops\nTOOL_CALL: {"name": "b", "arguments": {}}')
    assert result.calls == [{"name": "b", "arguments": {}}] and len(result.errors) == 1


def test_no_marker_and_no_call_object_means_done():
    for text in ("", "I have enough data to answer.", "The answer is {not json}.", '{"count": 3}', None):
        result = parse_tool_calls(text)
        assert result.calls == [] and result.errors == [] and not result.has_call_marker


def test_no_tool_call_line():
    for text in ("NO_TOOL_CALL", "NO_TOOL_CALL I have the yearly counts.", "  no_tool_call done"):
        result = parse_tool_calls(text)
        assert result.no_call and result.calls == [] and result.errors == [] and not result.has_call_marker


def test_marker_without_colon_before_json_and_bare_mentions():
    assert calls_of('TOOL_CALL {"name": "a", "arguments": {}}') == [{"name": "a", "arguments": {}}]
    result = parse_tool_calls("I will not make a TOOL_CALL now; the answer is 42.")
    assert result.calls == [] and result.errors == [] and not result.has_call_marker


def test_tool_call_inside_string_does_not_split_calls():
    text = 'TOOL_CALL: {"name": "x", "arguments": {"note": "see TOOL_CALL: {oops}"}}'
    assert calls_of(text) == [{"name": "x", "arguments": {"note": "see TOOL_CALL: {oops}"}}]


def test_format_round_trip():
    line = format_tool_call("x", {"a": [1, "b"], "c": None})
    assert calls_of(line) == [{"name": "x", "arguments": {"a": [1, "b"], "c": None}}]


def test_never_raises_on_weird_input():
    for text in ("TOOL_CALL: " + "{" * 500, "TOOL_CALL: " + "[" * 5000, "TOOL_CALL: {'a\\", "\x00\uffff{",
                 "TOOL_CALL: {\"name\": \"x\", \"arguments\": {\"s\": \"\\u12\"}}", 12345):
        parse_tool_calls(text)


# ---------------------------------------------------------------- properties

names = st.from_regex(r"[a-z][a-z0-9_]{0,30}", fullmatch=True)
scalars = st.one_of(st.integers(-10**9, 10**9), st.booleans(), st.none(), st.text(max_size=30),
                    st.floats(allow_nan=False, allow_infinity=False, width=32))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=8)
arg_names = st.from_regex(r"[a-z_][a-z0-9_]{0,15}", fullmatch=True)
arguments = st.dictionaries(arg_names, values, max_size=5)
# surrounding prose that holds no marker and no braces
prose = st.text(alphabet=st.characters(blacklist_characters="{}`", blacklist_categories=("Cs",)), max_size=40).filter(
    lambda s: "tool_call" not in s.lower())
PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(names, arguments, prose, prose, st.booleans())
def test_round_trip_with_surrounding_text(name, args, before, after, fence):
    line = "TOOL_CALL: " + json.dumps({"name": name, "arguments": args})
    body = f"```json\n{line}\n```" if fence else line
    result = parse_tool_calls(f"{before}\n{body}\n{after}")
    assert result.errors == []
    assert result.calls == [{"name": name, "arguments": args}]


@PROPS
@given(names, arguments, st.data())
def test_truncated_tail_parses_or_errors(name, args, data):
    line = "TOOL_CALL: " + json.dumps({"name": name, "arguments": args}, ensure_ascii=data.draw(st.booleans()))
    cut = data.draw(st.integers(len("TOOL_CALL:"), len(line)))
    result = parse_tool_calls(line[:cut])
    assert result.has_call_marker
    assert result.calls or result.errors
    for call in result.calls:
        assert isinstance(call["name"], str) and isinstance(call["arguments"], dict)


@PROPS
@given(names, st.dictionaries(arg_names, st.one_of(st.integers(-1000, 1000), st.booleans(), st.none(),
                                                   st.text(alphabet="abc xyz'0123", max_size=10)), max_size=4))
def test_python_repr_style_calls(name, args):
    # what a model imitating Python writes: single quotes, True/False/None
    result = parse_tool_calls("TOOL_CALL: " + repr({"name": name, "arguments": args}))
    assert result.calls == [{"name": name, "arguments": args}]


@PROPS
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(text):
    result = parse_tool_calls(text)
    assert isinstance(result.calls, list) and isinstance(result.errors, list)
    parse_tool_calls("TOOL_CALL: " + text)
