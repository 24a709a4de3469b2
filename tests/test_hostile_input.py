"""Hostile and malformed input gets a clear 4xx (or CLI exit 2), never a 500 or a lost answer; a failing
model is reported as a failure (result error, CLI exit 3, health degraded) while its partial answer is kept."""
import json

import pytest

import app
from backends.scripted import ScriptedBackend
from tests.test_api import assert_error, build_app


def post(client, raw: str):
    return client.post("/api/ask", data=raw, content_type="application/json")


@pytest.mark.parametrize("options", ['{"max_tool_calls": 1e400}', '{"max_tool_calls": "inf"}',
                                     '{"max_tool_calls": "1e400"}', '{"timeout_seconds": "nan"}',
                                     '{"timeout_seconds": ' + "9" * 300 + "}", '{"max_tool_calls": -1e400}'])
def test_absurd_limits_are_400(client, options):
    resp = post(client, '{"question": "homicides in 2022", "options": ' + options + "}")
    assert_error(resp, 400, "invalid_options")


def test_an_integer_past_pythons_digit_limit_is_400(client):
    assert_error(post(client, '{"question": "q", "options": {"max_tool_calls": ' + "7" * 5000 + "}}"), 400,
                 "invalid_json")


def test_options_nested_thousands_deep_are_400(client):
    nested = "[" * 5000 + "]" * 5000
    assert_error(post(client, '{"question": "q", "options": {"grammar": ' + nested + "}}"), 400, "invalid_json")


@pytest.fixture
def client(tmp_path):
    return build_app(tmp_path).test_client()


def test_a_lone_surrogate_is_a_400_naming_it_and_nothing_is_lost(client):
    """Refused before any work is done (it cannot be stored or sent as UTF-8), with the position named."""
    error = assert_error(post(client, '{"question": "How many homicides were there in 2022? \\ud800"}'), 400,
                         "invalid_question")
    assert "U+D800" in error["message"]
    run_id = post(client, '{"question": "homicides by year"}').get_json()["run_id"]
    fb = client.post(f"/api/runs/{run_id}/feedback", data='{"rating": "up", "comment": "ok \\udc00"}',
                     content_type="application/json")
    assert_error(fb, 400, "invalid_comment")
    assert client.get(f"/api/runs/{run_id}").status_code == 200


@pytest.mark.parametrize("rating", ["[1]", '{"up": 1}', "true", '"sideways"'])
def test_feedback_ratings_that_are_not_ratings_are_400(client, rating):
    run_id = post(client, '{"question": "homicides by year"}').get_json()["run_id"]
    resp = client.post(f"/api/runs/{run_id}/feedback", data='{"rating": ' + rating + "}",
                       content_type="application/json")
    assert_error(resp, 400, "invalid_rating")


@pytest.mark.parametrize("argv, code", [(["ask", ""], "empty_question"), (["ask", "   \n "], "empty_question"),
                                        (["ask", "x" * 100_000], "question_too_long"),
                                        (["ask", "homicides 2022", "--timeout", "nan"], "invalid_options"),
                                        (["ask", "homicides 2022", "--timeout", "inf"], "invalid_options")])
def test_cli_bad_input_is_exit_2_with_one_line(capsys, argv, code):
    assert app.main([*argv, "--backend", "scripted", "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["error"]["code"] == code


class BrokenModel(ScriptedBackend):
    """Answers the first pass, then fails like a server that went away."""

    def _generate(self, request):
        if any(m["role"] == "assistant" for m in request.messages):  # a call has run
            raise ConnectionError("connection refused by 127.0.0.1:9")
        return super()._generate(request)


def test_a_failing_model_is_a_reported_failure_with_a_partial_answer(tmp_path):
    web = build_app(tmp_path, backend=BrokenModel())
    client = web.test_client()
    body = post(client, '{"question": "How many homicides were there each year?"}').get_json()
    assert body["error"]["type"] == "ConnectionError" and "connection refused" in body["error"]["message"]
    assert body["partial"] and body["error"]["phase"] in ("gather", "synthesis")
    assert "homicides" in body["answer"]  # built from the data gathered before the failure
    health = client.get("/api/health").get_json()
    assert health["status"] == "degraded" and "connection refused" in health["backend"]["last_error"]


def test_the_cli_exits_3_when_the_model_fails(monkeypatch, capsys):
    monkeypatch.setattr("llama_client.BACKENDS", {**__import__("llama_client").BACKENDS, "scripted": BrokenModel})
    assert app.main(["ask", "How many homicides were there each year?", "--backend", "scripted"]) == 3
    captured = capsys.readouterr()
    assert "homicides" in captured.out and "the model failed" in captured.err
