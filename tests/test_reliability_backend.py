"""Reliability: a failing or misbehaving model server is bounded by the deadline and visible as a failure.

The servers are real sockets on 127.0.0.1 (tests/fault_server.py): a closed port, HTTP 500, malformed JSON,
silence, headers or a body dripping one byte every 50 ms, an event stream without end.
"""
import json
import time

import pytest

import app
from backends.base import BackendError, GenerationRequest
from backends.openai_http import OpenAIBackend
from intelligent_mcp import Orchestrator
from tests.fault_server import (
    FaultServer,
    answers_well,
    drip,
    drip_body,
    endless_stream,
    free_port,
    hang,
    reply,
)
from tests.faults import app_for, settings_for

QUESTION = "How many homicides were there in 2022?"
MESSAGES = [{"role": "user", "content": QUESTION}]
OK_BODY = {"choices": [{"message": {"content": "No tools needed."}, "finish_reason": "stop"}]}
ANSWER = "There were 717 homicides in Chicago in 2022."

FAULTS = {
    "closed_port": (None, "cannot connect"),
    "http_500": (reply("model crashed", status=500, content_type="text/plain"), "HTTP 500: model crashed"),
    "malformed_json": (reply('{"choices": [{"message": '), "unreadable reply"),
    "not_an_object": (reply("[1, 2, 3]"), "unreadable reply"),
    "hang": (hang, "did not finish its reply within"),
    "drip_headers": (drip(0.05), "did not finish its reply within"),
    "drip_body": (drip_body(0.05), "did not finish its reply within"),
}


class _Closed:
    """Stands in for a server on a port where nothing listens."""

    def __init__(self):
        self.base_url = f"http://127.0.0.1:{free_port()}/v1"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def serve(behaviour):
    return _Closed() if behaviour is None else FaultServer(behaviour)


@pytest.mark.parametrize("fault", list(FAULTS))
def test_backend_turns_every_fault_into_a_clear_error(fault):
    behaviour, expected = FAULTS[fault]
    with serve(behaviour) as server:
        backend = OpenAIBackend(server.base_url, timeout=0.6)
        with pytest.raises(BackendError, match=expected):
            backend.generate(GenerationRequest(messages=MESSAGES))
        if fault.startswith("drip"):  # the client hung up on a server that was still sending
            assert server.client_left.wait(5)
    state = backend.failure_state()
    assert state["status"] == "degraded" and state["failures"] == 1 and expected.split(":")[0] in state["last_error"]


@pytest.mark.parametrize("question_seconds", [None, 0.8])
def test_an_endless_stream_ends_at_the_deadline_with_the_text_so_far(question_seconds):
    with FaultServer(endless_stream(0.02)) as server:
        pieces = []
        deadline = time.monotonic() + question_seconds if question_seconds else None
        generation = OpenAIBackend(server.base_url, timeout=0.6).generate(
            GenerationRequest(messages=MESSAGES, on_token=pieces.append, deadline=deadline))
        assert server.client_left.wait(5)
    assert generation.finish_reason == "deadline" and generation.text == "x" * len(pieces) and pieces


@pytest.mark.parametrize("fault", list(FAULTS))
def test_the_loop_reports_the_cause_and_still_answers(fault, tmp_path, registry):
    behaviour, expected = FAULTS[fault]
    settings = settings_for(tmp_path, **{"orchestrator.timeout_seconds": 5})
    with serve(behaviour) as server:
        backend = OpenAIBackend(server.base_url, timeout=0.6)
        result = Orchestrator(backend, registry, settings).run(QUESTION)
    assert result.error["type"] == "BackendError" and expected in result.error["message"]
    # The reading covers the question: no gathering pass; the answer pass fails and the planner answers from the
    # data gathered, with the failure reported.
    assert result.error["phase"] == "synthesis" and result.stopped_because == "error" and result.partial
    assert "717" in result.answer and any("model failed" in c for c in result.caveats)


@pytest.mark.parametrize("fault", ["http_500", "hang"])
def test_a_failing_gathering_pass_reports_the_cause_and_still_answers(fault, tmp_path, registry):
    behaviour, expected = FAULTS[fault]
    settings = settings_for(tmp_path, **{"orchestrator.timeout_seconds": 5, "orchestrator.model_calls": "own"})
    with serve(behaviour) as server:
        result = Orchestrator(OpenAIBackend(server.base_url, timeout=0.6), registry, settings).run(QUESTION)
    assert result.error["type"] == "BackendError" and expected in result.error["message"]
    assert result.error["phase"] == "gather" and result.stopped_because == "error" and result.partial
    assert result.answer and any("model failed" in c for c in result.caveats)


def test_a_dripping_server_cannot_outlast_the_question_limit(tmp_path, registry):
    """The issue's case: per-read timeouts let one byte every few seconds hold a question for ever."""
    settings = settings_for(tmp_path, **{"orchestrator.timeout_seconds": 1.5})
    with FaultServer(drip(0.05)) as server:
        backend = OpenAIBackend(server.base_url, timeout=60)  # the per-request setting alone would allow 60 s
        result = Orchestrator(backend, registry, settings).run(QUESTION)
        assert server.client_left.wait(5)
    assert "total deadline" in result.error["message"] and "within 1." in result.error["message"]


def test_api_answers_with_the_error_and_health_shows_degraded(tmp_path):
    failing = {"now": True}
    crash, fine = reply("model crashed", status=500, content_type="text/plain"), answers_well(ANSWER)
    with FaultServer(lambda conn, req, srv: (crash if failing["now"] else fine)(conn, req, srv)) as server:
        client = app_for(tmp_path, **{"model.backend": "openai", "model.openai.base_url": server.base_url,
                                      "model.openai.request_timeout_seconds": 2}).test_client()
        resp = client.post("/api/ask", json={"question": QUESTION})
        body = resp.get_json()
        assert resp.status_code == 200 and body["answer"] and body["partial"] is True
        assert "HTTP 500" in body["error"]["message"] and body["saved"] is True
        stored = client.get(f"/api/runs/{body['run_id']}").get_json()
        assert stored["result"]["error"] == body["error"]
        health = client.get("/api/health").get_json()
        assert health["status"] == "degraded" and health["degraded"] == ["backend"]
        assert health["backend"]["status"] == "degraded" and "HTTP 500" in health["backend"]["last_error"]
        failing["now"] = False  # the server recovers: health says ok again, the last error stays visible
        assert client.post("/api/ask", json={"question": QUESTION}).get_json()["error"] is None
        health = client.get("/api/health").get_json()
        assert health["status"] == "ok" and health["backend"]["status"] == "ok"
        assert "HTTP 500" in health["backend"]["last_error"]


def test_api_stream_carries_the_error_in_the_result(tmp_path):
    client = app_for(tmp_path, **{"model.backend": "openai",
                                  "model.openai.base_url": f"http://127.0.0.1:{free_port()}/v1"}).test_client()
    resp = client.post("/api/ask/stream", json={"question": QUESTION})
    events = [json.loads(line) for line in resp.get_data(as_text=True).splitlines() if line.strip()]
    assert events[-1]["event"] == "result" and "cannot connect" in events[-1]["result"]["error"]["message"]
    assert [e for e in events if e["event"] == "step" and e["step"]["type"] == "error"]


def _config(tmp_path, base_url):
    path = tmp_path / "config.yaml"
    # The faults of a gathering pass (no call, a call outside the question) need the model to gather: model_calls
    # "own" (under "gaps" only a question the reading falls short on gets a gathering pass).
    path.write_text(f"model:\n  backend: openai\n  openai:\n    base_url: {base_url}\n"
                    f"    request_timeout_seconds: 1\nserver:\n  var_dir: {tmp_path / 'var'}\n"
                    f"orchestrator:\n  model_calls: own\n")
    return str(path)


@pytest.mark.parametrize("as_json", [False, True])
def test_cli_exits_3_on_a_model_failure_and_still_prints_the_answer(tmp_path, capsys, as_json):
    config = _config(tmp_path, f"http://127.0.0.1:{free_port()}/v1")
    code = app.main(["--config", config, "ask", QUESTION] + (["--json"] if as_json else []))
    captured = capsys.readouterr()
    assert code == 3 and "Traceback" not in captured.err
    assert captured.err.startswith("error: the model failed") and len(captured.err.strip().splitlines()) == 1
    if as_json:
        result = json.loads(captured.out)
        assert result["answer"] and "cannot connect" in result["error"]["message"]
    else:
        assert "(partial answer)" in captured.out and "BackendError" in captured.out


def test_cli_exits_0_when_the_model_answers(tmp_path, capsys):
    with FaultServer(answers_well(ANSWER)) as server:
        assert app.main(["--config", _config(tmp_path, server.base_url), "ask", QUESTION]) == 0
    assert ANSWER in capsys.readouterr().out


def _content(text):
    return reply({"choices": [{"message": {"content": text}, "finish_reason": "stop"}]})


def _by_phase(gather, synthesis):
    """A server whose gathering passes (they carry a grammar) and synthesis pass reply differently."""
    def behaviour(conn, request, server):
        body = request.get("body") or {}
        (gather if body.get("grammar") else synthesis)(conn, request, server)
    return behaviour


@pytest.mark.parametrize("silence", [None, "NO_TOOL_CALL", ""])
def test_a_model_that_asks_for_no_data_is_a_failure_not_a_no_data_answer(tmp_path, capsys, silence):
    """content: null, a bare NO_TOOL_CALL or nothing, to a question the data answers: exit 3, error, partial; never
    "the data tools can't answer this"."""
    with FaultServer(_content(silence)) as server:
        code = app.main(["--config", _config(tmp_path, server.base_url), "ask", QUESTION, "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 3 and result["partial"] is True and result["error"]["type"] == "NoToolCall"
    assert "can't answer" not in result["answer"]


def test_a_model_that_echoes_its_prompt_is_a_failure(tmp_path, capsys):
    echo = "SYSTEM: You are ChiQA, an assistant for Chicago public data. USER: How many homicides"
    with FaultServer(_by_phase(answers_well(ANSWER), _content(echo))) as server:
        code = app.main(["--config", _config(tmp_path, server.base_url), "ask", QUESTION, "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 3 and result["error"]["type"] == "EchoedPrompt" and result["partial"] is True
    assert "SYSTEM:" not in result["answer"] and "717" in result["answer"]  # the planner's answer from the data


def test_calls_outside_the_questions_years_are_refused_before_any_tool_runs(tmp_path, capsys):
    """A server that ignores the grammar asks for 2001-2004 about 2022: the call is refused (the model is told why),
    no 2001-2004 figure reaches the answer, and the run reports a model failure."""
    wrong = 'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"start_year": 2001, "end_year": 2004}}'
    with FaultServer(_by_phase(_content(wrong), _content("There were 1,234 homicides."))) as server:
        code = app.main(["--config", _config(tmp_path, server.base_url), "ask", QUESTION, "--json"])
        told = [m["content"] for r in server.requests[1:2] for m in (r.get("body") or {}).get("messages", [])]
    result = json.loads(capsys.readouterr().out)
    assert code == 3 and result["error"]["type"] == "CallOutsideQuestion" and result["partial"] is True
    calls = result["tool_calls"]
    assert calls[0]["status"] == "error" and "not in the question" in calls[0]["error"]
    assert any("not in the question" in text for text in told)  # the model is told why
    ran = [c for c in calls if c["status"] == "ok"]
    assert not any(c["arguments"].get("start_year") == 2001 for c in ran)
