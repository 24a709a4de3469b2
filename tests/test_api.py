"""The JSON API through Flask's test client: every endpoint and every error, with the scripted backend."""
import json
import threading
import time

import pytest

from app import create_app
from backends.base import BackendBusy
from backends.scripted import ScriptedBackend
from web.runtime import get_runtime

RESULT_KEYS = {"question", "answer", "partial", "tool_calls", "trace", "stopped_because", "timings", "backend",
               "model", "prompt_version", "sources", "caveats", "ungrounded_numbers", "analysis"}
CALL = 'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"group_by": "year"}}'


def build_app(tmp_path, backend=None, extra=None):
    from pathlib import Path


    cache = Path(__file__).resolve().parent.parent / "var" / "test" / "cache"
    config = {"TESTING": True,
              "SETTINGS_OVERRIDES": {"model.backend": "scripted", "server.var_dir": str(tmp_path),
                                     "data.cache_dir": str(cache), **(extra or {})}}
    if backend is not None:
        config["CHIQA_BACKEND_OBJECT"] = backend
    return create_app(config)


@pytest.fixture
def app(tmp_path):
    return build_app(tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()


def assert_error(resp, status, code=None):
    """Every /api error: the status, a JSON body {"ok": false, "error": {"code": str, "message": str}}."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.mimetype == "application/json"
    body = resp.get_json()
    assert set(body) == {"ok", "error"} and body["ok"] is False
    assert set(body["error"]) == {"code", "message"}
    assert isinstance(body["error"]["code"], str) and body["error"]["code"]
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def ask(client, question="How many homicides were there each year?", **extra):
    return client.post("/api/ask", json={"question": question, **extra})


def stream_events(resp):
    return [json.loads(line) for line in resp.get_data(as_text=True).splitlines() if line.strip()]


# ---------------------------------------------------------------- /api/ask

def test_ask_returns_result_and_stores_it(client):
    resp = ask(client)
    assert resp.status_code == 200
    body = resp.get_json()
    assert RESULT_KEYS <= set(body) and "run_id" in body
    assert body["tool_calls"][0]["name"] == "query_homicides_advanced"
    assert [s["type"] for s in body["trace"]][0] == "analysis"
    assert body["answer"]
    stored = client.get(f"/api/runs/{body['run_id']}").get_json()
    assert stored["id"] == body["run_id"] and stored["result"]["answer"] == body["answer"]
    assert stored["answer_pattern"] == "query_homicides_advanced"
    assert stored["n_tool_calls"] == 1 and stored["backend"] == "scripted"


def test_ask_with_valid_options(client):
    resp = ask(client, options={"max_tool_calls": 1, "timeout_seconds": 30, "grammar": False})
    assert resp.status_code == 200


@pytest.mark.parametrize("body,code", [
    (b"{not json", "invalid_json"),
    (b"[1, 2]", "invalid_json"),
    (b'"just a string"', "invalid_json"),
    (b"\xff\xfe", "invalid_json"),
    (b"{}", "missing_question"),
    (b'{"question": ""}', "empty_question"),
    (b'{"question": "   \\n  "}', "empty_question"),
    (b'{"question": 42}', "invalid_question"),
    (b'{"question": "hi", "options": []}', "invalid_options"),
    (b'{"question": "hi", "options": {"colour": "red"}}', "invalid_options"),
    (b'{"question": "hi", "options": {"max_tool_calls": 0}}', "invalid_options"),
    (b'{"question": "hi", "options": {"max_tool_calls": 999}}', "invalid_options"),
    (b'{"question": "hi", "options": {"timeout_seconds": "soon"}}', "invalid_options"),
    (b'{"question": "hi", "options": {"grammar": "yes"}}', "invalid_options"),
    (b'{"question": "hi", "extra": 1}', "unknown_field"),
])
@pytest.mark.parametrize("endpoint", ["/api/ask", "/api/ask/stream"])
def test_ask_400s(client, endpoint, body, code):
    resp = client.post(endpoint, data=body, content_type="application/json")
    assert_error(resp, 400, code)


@pytest.mark.parametrize("endpoint", ["/api/ask", "/api/ask/stream"])
def test_question_length_limit(client, endpoint):
    err = assert_error(client.post(endpoint, json={"question": "x" * 2001}), 400, "question_too_long")
    assert "2000" in err["message"]


def test_question_at_the_limit_is_answered(client):
    assert ask(client, "homicides by year " + "x" * (2000 - 18)).status_code == 200


@pytest.mark.parametrize("endpoint", ["/api/ask", "/api/ask/stream", "/api/runs/abc/feedback"])
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_wrong_content_type_is_415(client, endpoint, content_type):
    kwargs = {"data": '{"question": "hi"}'}
    if content_type:
        kwargs["content_type"] = content_type
    assert_error(client.post(endpoint, **kwargs), 415, "unsupported_media_type")


@pytest.mark.parametrize("endpoint", ["/api/ask", "/api/ask/stream"])
def test_body_over_64k_is_413(client, endpoint):
    big = json.dumps({"question": "hi", "options": {"pad": "x" * 70000}})
    assert_error(client.post(endpoint, data=big, content_type="application/json"), 413, "body_too_large")


def test_chunked_body_over_limit_is_413(client):
    """No Content-Length: the actual body is measured (MAX_CONTENT_LENGTH caps the stream)."""
    import io

    big = json.dumps({"question": "y" * 70000}).encode()
    resp = client.post("/api/ask", input_stream=io.BytesIO(big), content_type="application/json",
                       environ_overrides={"wsgi.input_terminated": True}, headers={"Transfer-Encoding": "chunked"})
    assert_error(resp, 413, "body_too_large")


# ---------------------------------------------------------------- 404 / 405 / 500 as JSON

@pytest.mark.parametrize("path", ["/api/nope", "/api/", "/api/runs/zzz/unknown"])
def test_404_is_json(client, path):
    assert_error(client.get(path), 404, "not_found")


@pytest.mark.parametrize("method,path", [("GET", "/api/ask"), ("PUT", "/api/ask/stream"), ("DELETE", "/api/runs"),
                                         ("POST", "/api/health"), ("POST", "/api/tools"), ("POST", "/api/stats"),
                                         ("GET", "/api/runs/abc/feedback")])
def test_405_is_json(client, method, path):
    resp = client.open(path, method=method)
    assert_error(resp, 405, "method_not_allowed")
    assert resp.headers.get("Allow")


def test_unexpected_error_is_json_500(app, client, monkeypatch):
    orchestrator = get_runtime(app).orchestrator()
    monkeypatch.setattr(orchestrator, "run", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("disk on fire")))
    err = assert_error(ask(client), 500, "internal_error")
    assert "disk on fire" not in err["message"]


def test_a_failing_store_never_costs_the_answer(app, client, monkeypatch):
    store = app.extensions["chiqa_store"]
    monkeypatch.setattr(store, "save_turn", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("disk on fire")))
    body = ask(client).get_json()
    assert body["answer"] and body["saved"] is False and body["run_id"] is None
    assert "disk on fire" not in body["save_error"] and store.unsaved == 1
    # An unsaved first question leaves no conversation to continue.
    assert body["conversation_id"] is None and body["turn"] is None


def test_html_pages_keep_html_404(client):
    resp = client.get("/no-such-page")
    assert resp.status_code == 404 and resp.mimetype == "text/html"


# ---------------------------------------------------------------- busy -> 503

def _full_backend():
    backend = ScriptedBackend(queue_size=0)
    backend.gate.busy = True  # as if a generation were running with the queue (size 0) full
    return backend


@pytest.mark.parametrize("endpoint", ["/api/ask", "/api/ask/stream"])
def test_busy_is_503_with_retry_after(tmp_path, endpoint):
    client = build_app(tmp_path, backend=_full_backend()).test_client()
    resp = client.post(endpoint, json={"question": "homicides by year"})
    assert_error(resp, 503, "busy")
    assert int(resp.headers["Retry-After"]) > 0
    assert client.get("/api/runs").get_json()["total"] == 0


def test_busy_during_stream_is_an_error_event(tmp_path):
    def busy(request):
        raise BackendBusy("the model is busy: test")

    backend = ScriptedBackend(replies=[busy])
    client = build_app(tmp_path, backend=backend).test_client()
    events = stream_events(client.post("/api/ask/stream", json={"question": "homicides by year"}))
    assert events[0]["event"] == "start"
    assert events[-1]["event"] == "error" and events[-1]["error"]["code"] == "busy"


def test_backend_that_cannot_start_is_503(tmp_path):
    client = build_app(tmp_path, extra={"model.backend": "no-such-backend"}).test_client()
    assert_error(ask(client), 503, "backend_unavailable")
    health = client.get("/api/health").get_json()
    assert health["backend"]["state"] == "error" and "no-such-backend" in health["backend"]["error"]


# ---------------------------------------------------------------- streaming

def test_stream_events_and_result(client):
    resp = client.post("/api/ask/stream", json={"question": "How many homicides were there each year?"})
    assert resp.status_code == 200 and resp.mimetype == "application/x-ndjson"
    events = stream_events(resp)
    assert events[0]["event"] == "start"
    assert events[0]["limits"] == {"max_tool_calls": 4, "timeout_seconds": 60}
    kinds = [e["event"] for e in events]
    assert kinds[-1] == "result" and set(kinds[1:-1]) == {"step", "token"}
    result = events[-1]["result"]
    assert RESULT_KEYS <= set(result) and result["run_id"] == events[-1]["run_id"]
    steps = [e["step"] for e in events if e["event"] == "step"]
    assert steps == result["trace"]  # the live steps are the stored trace
    # The answer's text arrived before the synthesis step finished, and adds up to the answer written.
    first_token = kinds.index("token")
    synthesis = next(i for i, e in enumerate(events) if e["event"] == "step" and e["step"]["type"] == "synthesis")
    assert first_token < synthesis
    assert "".join(e["text"] for e in events if e["event"] == "token").strip() == result["answer"]
    stored = client.get(f"/api/runs/{result['run_id']}").get_json()
    assert stored["result"]["trace"] == result["trace"]


def test_stream_respects_option_limits(client):
    events = stream_events(client.post("/api/ask/stream",
                                       json={"question": "homicides by year", "options": {"max_tool_calls": 2}}))
    assert events[0]["limits"]["max_tool_calls"] == 2


# ---------------------------------------------------------------- runs and feedback

def test_runs_listing_and_pagination(client):
    ids = [ask(client, f"homicides by year, take {i}").get_json()["run_id"] for i in range(3)]
    body = client.get("/api/runs?limit=2").get_json()
    assert body["total"] == 3 and body["limit"] == 2 and body["next_offset"] == 2
    assert [r["id"] for r in body["runs"]] == ids[::-1][:2]  # newest first
    rest = client.get("/api/runs?limit=2&offset=2").get_json()
    assert [r["id"] for r in rest["runs"]] == [ids[0]] and rest["next_offset"] is None
    assert "result" not in body["runs"][0]  # the list stays small


@pytest.mark.parametrize("query", ["limit=0", "limit=51", "limit=x", "offset=-1", "offset=1.5"])
def test_runs_bad_paging_is_400(client, query):
    assert_error(client.get(f"/api/runs?{query}"), 400, "invalid_parameter")


def test_unknown_run_is_404(client):
    assert_error(client.get("/api/runs/0123456789abcdef"), 404, "run_not_found")
    assert client.get("/runs/0123456789abcdef").status_code == 404


@pytest.mark.parametrize("rating,stored", [("up", 1), ("down", -1), (1, 1), (-1, -1)])
def test_feedback(client, rating, stored):
    run_id = ask(client).get_json()["run_id"]
    resp = client.post(f"/api/runs/{run_id}/feedback", json={"rating": rating, "comment": "  clear answer "})
    assert resp.status_code == 200 and resp.get_json()["ok"] is True
    run = client.get(f"/api/runs/{run_id}").get_json()
    assert run["rating"] == stored and run["comment"] == "clear answer"


@pytest.mark.parametrize("body,code", [
    ({}, "invalid_rating"), ({"rating": "meh"}, "invalid_rating"), ({"rating": 2}, "invalid_rating"),
    ({"rating": True}, "invalid_rating"), ({"rating": "up", "comment": 5}, "invalid_comment"),
    ({"rating": "up", "comment": "c" * 1001}, "comment_too_long"), ({"rating": "up", "stars": 5}, "unknown_field"),
])
def test_feedback_400s(client, body, code):
    run_id = ask(client).get_json()["run_id"]
    assert_error(client.post(f"/api/runs/{run_id}/feedback", json=body), 400, code)


def test_feedback_comment_at_limit_and_bad_json(client):
    run_id = ask(client).get_json()["run_id"]
    assert client.post(f"/api/runs/{run_id}/feedback", json={"rating": "up", "comment": "c" * 1000}).status_code == 200
    assert_error(client.post(f"/api/runs/{run_id}/feedback", data="{", content_type="application/json"), 400,
                 "invalid_json")


def test_feedback_unknown_run_is_404(client):
    assert_error(client.post("/api/runs/ffffffffffffffff/feedback", json={"rating": "up"}), 404, "run_not_found")


# ---------------------------------------------------------------- tools, health, stats

def test_tools_lists_schemas(client):
    body = client.get("/api/tools").get_json()
    names = [t["name"] for t in body["tools"]]
    assert "query_homicides_advanced" in names and body["count"] == len(names)
    assert all({"name", "description", "parameters"} <= set(t) for t in body["tools"])


def test_health_never_loads_the_model(tmp_path):
    app = build_app(tmp_path)
    client = app.test_client()
    before = client.get("/api/health").get_json()
    assert before["ok"] is True and before["version"]
    assert before["backend"]["state"] == "not_loaded" and "not loaded" in before["backend"]["reason"]
    assert app.extensions["chiqa_runtime"]._backend is None
    assert "homicides" in before["data"]["datasets"]
    ask(client)
    after = client.get("/api/health").get_json()
    assert after["backend"]["state"] == "loaded" and after["backend"]["name"] == "scripted"
    assert after["backend"]["reason"] == "scripted replies (tests and benchmarks)"
    assert after["data"]["datasets"]["homicides"]["coverage"]["first_year"] == 2001


@pytest.mark.full_data
def test_auto_without_a_model_answers_with_rules_and_says_why(tmp_path):
    app = build_app(tmp_path, extra={"model.backend": "auto", "model.path": str(tmp_path / "absent.gguf")})
    client = app.test_client()
    before = client.get("/api/health").get_json()["backend"]
    assert before["name"] == "rules" and "absent.gguf" in before["reason"] and "rule planner" in before["reason"]
    body = client.post("/api/ask", json={"question": "How many homicides were there in 2022?"}).get_json()
    assert body["backend"]["backend"] == "rules" and "rule planner" in body["backend"]["reason"]
    assert "717" in body["answer"] and body["ungrounded_numbers"] == []


def test_health_is_fast_while_the_model_is_busy(tmp_path):
    backend = ScriptedBackend(delay=1.0)  # each pass holds the model a second: health answers in milliseconds
    app = build_app(tmp_path, backend=backend)
    client = app.test_client()
    app.extensions["chiqa_runtime"].orchestrator()  # data and registry ready
    worker = threading.Thread(target=lambda: app.test_client().post("/api/ask", json={"question": "homicides by year"}))
    worker.start()
    deadline = time.time() + 5
    while not backend.gate.busy and time.time() < deadline:
        time.sleep(0.01)
    assert backend.gate.busy
    body = client.get("/api/health").get_json()
    # Health answered while the 1-second pass still holds the model: it never waited for the gate.
    assert backend.gate.busy and worker.is_alive()
    assert body["backend"]["queue"]["busy"] is True
    worker.join()


def test_stats(tmp_path):
    replies = [CALL + "\n" + CALL + '\nTOOL_CALL: {"name": "no_such_tool", "arguments": {}}', "done", "An answer."]
    backend = ScriptedBackend(replies=replies)
    client = build_app(tmp_path, backend=backend).test_client()
    first = ask(client).get_json()
    statuses = [c["status"] for c in first["tool_calls"]]
    assert statuses.count("duplicate") == 1 and statuses.count("error") == 1
    second = ask(client).get_json()  # the default scripted model: one ok call
    client.post(f"/api/runs/{first['run_id']}/feedback", json={"rating": "down"})
    client.post(f"/api/runs/{second['run_id']}/feedback", json={"rating": "up"})
    stats = client.get("/api/stats").get_json()
    assert stats["questions"] == 2
    assert stats["tool_calls_per_question"] == {"1": 1, "3": 1}
    assert stats["stop_reasons"] == {"model_done": 2}
    assert stats["tool_calls"] == 4
    assert stats["duplicate_rate"] == 0.25 and stats["error_rate"] == 0.25
    patterns = {p["pattern"]: p for p in stats["feedback"]["by_answer_pattern"]}
    assert patterns["query_homicides_advanced"] == {"pattern": "query_homicides_advanced", "count": 1, "up": 1,
                                                    "down": 0, "rated": 1, "share_up": 1.0}
    assert patterns["query_homicides_advanced > query_homicides_advanced > no_such_tool"]["down"] == 1
    assert stats["feedback"]["share_up"] == 0.5
    assert stats["latency_ms"]["count"] == 2 and stats["latency_ms"]["p50"] <= stats["latency_ms"]["p95"]


def test_stats_empty(client):
    stats = client.get("/api/stats").get_json()
    assert stats["questions"] == 0 and stats["latency_ms"]["p50"] is None and stats["duplicate_rate"] == 0.0


# ---------------------------------------------------------------- pages

def test_index_page(client):
    resp = client.get("/")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    assert 'id="question"' in html and "button" in html and "example" in html
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert "http://" not in html.replace('href="http', "") and "https://" not in html  # nothing loaded from outside


def test_permalink_page_and_static(client):
    run_id = ask(client).get_json()["run_id"]
    resp = client.get(f"/runs/{run_id}")
    assert resp.status_code == 200 and f'data-run-id="{run_id}"' in resp.get_data(as_text=True)
    for name in ("app.js", "chart.js", "app.css"):
        static = client.get(f"/static/{name}")
        assert static.status_code == 200
        if name.endswith(".js"):
            assert "innerHTML" not in static.get_data(as_text=True)
        static.close()


def test_question_is_escaped_in_html(client):
    """The question never reaches the HTML template; the permalink page only embeds the run id."""
    run_id = ask(client, "<script>window.__pwned=1</script> homicides by year").get_json()["run_id"]
    html = client.get(f"/runs/{run_id}").get_data(as_text=True)
    assert "__pwned" not in html
