"""Reliability: hostile and malformed input gets a 4xx in the one error shape (API) or exit 2 with one line (CLI).

Nothing here may produce a 500, a traceback or a silently different question.
"""
import io
import json
import socket
import threading

import pytest
from werkzeug.exceptions import ClientDisconnected
from werkzeug.serving import DechunkedInput, make_server
from werkzeug.wsgi import LimitedStream

import app
from bench.bench_web import gunicorn_server
from protocols.openai_chat import sse
from tests.faults import app_for
from web.api import _read_body

QUESTION = "How many homicides were there in 2022?"
DEEP = 5000


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return app_for(tmp_path_factory.mktemp("input")).test_client()


@pytest.fixture(scope="module")
def run_id(client):
    return client.post("/api/ask", json={"question": QUESTION}).get_json()["run_id"]


def assert_error(resp, status, code):
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    body = resp.get_json()
    assert body == {"ok": False, "error": {"code": code, "message": body["error"]["message"]}}
    assert body["error"]["message"] and "Traceback" not in body["error"]["message"]
    return body["error"]["message"]


def raw_body(options: str = "{}", question: str = json.dumps(QUESTION)) -> bytes:
    return f'{{"question": {question}, "options": {options}}}'.encode()


# ---------------------------------------------------------------- numbers, nesting, text: 400s

BAD_BODIES = {
    "max_tool_calls 1e400": (raw_body('{"max_tool_calls": 1e400}'), "invalid_options"),
    "max_tool_calls -1e400": (raw_body('{"max_tool_calls": -1e400}'), "invalid_options"),
    'max_tool_calls "inf"': (raw_body('{"max_tool_calls": "inf"}'), "invalid_options"),
    'max_tool_calls "1e400"': (raw_body('{"max_tool_calls": "1e400"}'), "invalid_options"),
    "max_tool_calls Infinity": (raw_body('{"max_tool_calls": Infinity}'), "invalid_options"),
    "max_tool_calls NaN": (raw_body('{"max_tool_calls": NaN}'), "invalid_options"),
    "max_tool_calls 300 digits": (raw_body('{"max_tool_calls": ' + "9" * 300 + "}"), "invalid_options"),
    "timeout 300 digits": (raw_body('{"timeout_seconds": ' + "9" * 300 + "}"), "invalid_options"),
    "timeout NaN": (raw_body('{"timeout_seconds": NaN}'), "invalid_options"),
    'timeout "nan"': (raw_body('{"timeout_seconds": "nan"}'), "invalid_options"),
    "timeout -Infinity": (raw_body('{"timeout_seconds": -Infinity}'), "invalid_options"),
    "timeout list": (raw_body('{"timeout_seconds": [5]}'), "invalid_options"),
    "timeout object": (raw_body('{"timeout_seconds": {"s": 5}}'), "invalid_options"),
    "integer of 5000 digits": (raw_body('{"max_tool_calls": ' + "1" * 5000 + "}"), "invalid_json"),
    "integer of 5000 digits as question": (raw_body(question="1" * 5000), "invalid_json"),
    "options nested 5000 deep": (raw_body("[" * DEEP + "]" * DEEP), "invalid_json"),
    "options object nested 5000 deep": (raw_body('{"a": ' * DEEP + "1" + "}" * DEEP), "invalid_json"),
    "question nested 5000 deep": (raw_body(question="[" * DEEP + "]" * DEEP), "invalid_json"),
    "options nested 500 deep": (raw_body("[" * 500 + "]" * 500), "invalid_options"),
    "grammar nested 500 deep": (raw_body('{"grammar": ' + "[" * 500 + "]" * 500 + "}"), "invalid_options"),
    "lone surrogate in question": (raw_body(question='"homicides \\ud800 in 2022"'), "invalid_question"),
    "lone low surrogate in question": (raw_body(question='"\\udfff"'), "invalid_question"),
    "question null": (raw_body(question="null"), "missing_question"),
    "question object": (raw_body(question='{"q": 1}'), "invalid_question"),
    "question true": (raw_body(question="true"), "invalid_question"),
    "zero-width question": (raw_body(question='"\\u200b"'), None),  # not empty text: answered, see below
}


@pytest.mark.parametrize("endpoint", ["/api/ask", "/api/ask/stream"])
@pytest.mark.parametrize("options,needle", [('{"max_tool_calls": "2"}', "not a string"),
                                            ('{"timeout_seconds": "30"}', "not a string"),
                                            ('{"max_tool_calls": true}', "not a boolean"),
                                            ('{"timeout_seconds": false}', "not a boolean")])
def test_a_string_or_boolean_is_not_a_number(client, endpoint, options, needle):
    message = assert_error(client.post(endpoint, data=raw_body(options), content_type="application/json"), 400,
                           "invalid_options")
    assert needle in message and ("max_tool_calls" in message or "timeout_seconds" in message)


@pytest.mark.parametrize("extra,code,param", [('"n": true', "invalid_n", "n"), ('"n": "1"', "invalid_n", "n"),
                                              ('"n": 1.5', "unsupported_n", "n"), ('"n": 2', "unsupported_n", "n"),
                                              ('"chiqa": {"max_tool_calls": "2"}', "invalid_options", "chiqa"),
                                              ('"chiqa": {"max_tool_calls": true}', "invalid_options", "chiqa")])
def test_v1_strict_types(client, extra, code, param):
    body = ('{"model": "chiqa", "messages": [{"role": "user", "content": "%s"}], %s}' % (QUESTION, extra)).encode()
    resp = client.post("/v1/chat/completions", data=body, content_type="application/json")
    assert_openai_400(resp.status_code, resp.get_json(), code, param)


def test_v1_n_of_1_is_still_answered(client):
    body = {"model": "chiqa", "n": 1, "messages": [{"role": "user", "content": QUESTION}]}
    assert client.post("/v1/chat/completions", json=body).status_code == 200


@pytest.mark.parametrize("endpoint", ["/api/ask", "/api/ask/stream"])
@pytest.mark.parametrize("case", [c for c, (_, code) in BAD_BODIES.items() if code])
def test_bad_bodies_are_400s(client, endpoint, case):
    body, code = BAD_BODIES[case]
    assert_error(client.post(endpoint, data=body, content_type="application/json"), 400, code)


def test_a_valid_surrogate_pair_is_text_not_an_error(client):
    body = client.post("/api/ask", data=raw_body(question='"homicides in 2022 \\ud83d\\ude00"'),
                       content_type="application/json").get_json()
    assert body["question"] == "homicides in 2022 \U0001F600" and body["saved"] is True


def test_an_invisible_question_is_answered_not_crashed(client):
    resp = client.post("/api/ask", data=BAD_BODIES["zero-width question"][0], content_type="application/json")
    assert resp.status_code == 200 and resp.get_json()["answer"]


@pytest.mark.parametrize("rating", [[1], ["up"], {"up": 1}, {}, None, 1.5, float("nan"), "UP ", 10**30])
def test_feedback_rating_of_any_other_type_is_400(client, run_id, rating):
    body = json.dumps({"rating": rating}).encode()
    assert_error(client.post(f"/api/runs/{run_id}/feedback", data=body, content_type="application/json"), 400,
                 "invalid_rating")


@pytest.mark.parametrize("comment,code", [('"\\ud800"', "invalid_comment"), ('"ok \\udc00 then"', "invalid_comment"),
                                          ("[" * DEEP + "]" * DEEP, "invalid_json"), ("[1]", "invalid_comment")])
def test_feedback_comment_that_is_not_text_is_400(client, run_id, comment, code):
    body = f'{{"rating": "up", "comment": {comment}}}'.encode()
    assert_error(client.post(f"/api/runs/{run_id}/feedback", data=body, content_type="application/json"), 400, code)
    assert client.get(f"/api/runs/{run_id}").status_code == 200  # the stored run is untouched


# ---------------------------------------------------------------- a malformed chunked body on a real server

@pytest.fixture(scope="module")
def live(tmp_path_factory):
    server = make_server("127.0.0.1", 0, app_for(tmp_path_factory.mktemp("live")), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    thread.join(5)


def send_raw(port: int, payload: bytes) -> tuple[int, dict]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(payload)
        sock.shutdown(socket.SHUT_WR)  # the client is done: a cut-off chunk must not leave the server waiting
        data = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


@pytest.mark.parametrize("chunks", [b"zz\r\n{}\r\n0\r\n\r\n", b"-5\r\nhello\r\n0\r\n\r\n",
                                    b"5\r\n{\"que\r\nxx\r\n", b"ffffffffffffffffffffffff\r\n{}\r\n0\r\n\r\n"])
def test_a_malformed_chunked_body_is_a_400(live, chunks):
    request = (b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks)
    status, body = send_raw(live, request)
    assert 400 <= status < 500 and body["ok"] is False and body["error"]["code"] in ("invalid_body", "body_too_large")


@pytest.mark.parametrize("declared", [b"ffffffffffffffffffffffff", b"400"])
def test_a_chunk_that_declares_more_than_it_sends_is_unreadable_not_heap_bytes(live, declared):
    # werkzeug's dev-server dechunker reports the length asked for after a short read; read through a bytearray
    # that became up to 64 KiB from past the buffer's end (the CI run that segfaulted), parsed as JSON
    for _ in range(20):
        status, body = send_raw(live, b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                      b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                                      + declared + b"\r\n{}\r\n0\r\n\r\n")
        assert status == 400 and body["error"]["code"] == "invalid_body"


def test_the_body_reader_never_reports_more_than_the_dechunker_gave():
    stream = LimitedStream(DechunkedInput(io.BytesIO(b"fff\r\n{}\r\n0\r\n\r\n")), 1_000_000, is_max=True)
    # a memoryview cannot shrink: the short read is an error (werkzeug turns it into ClientDisconnected), not 4 KiB
    # of heap
    with pytest.raises(ClientDisconnected):
        _read_body(stream, 10_001)
    whole = LimitedStream(DechunkedInput(io.BytesIO(b"2\r\n{}\r\n0\r\n\r\n")), 1_000_000, is_max=True)
    assert _read_body(whole, 10_001) == b"{}"


@pytest.mark.full_data
def test_a_well_formed_chunked_body_is_answered(live):
    payload = json.dumps({"question": QUESTION}).encode()
    request = (b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
               + f"{len(payload):x}\r\n".encode() + payload + b"\r\n0\r\n\r\n")
    status, body = send_raw(live, request)
    assert status == 200 and "717 homicides" in body["answer"]


# ---------------------------------------------------------------- the same on gunicorn, the documented server

@pytest.fixture(scope="module")
def gunicorn_live(tmp_path_factory):
    """`gunicorn -c gunicorn.conf.py app:create_app()` (what `make run` starts) on 127.0.0.1, rule planner."""
    var = tmp_path_factory.mktemp("gunicorn")
    with gunicorn_server(var, env={"CHIQA_BACKEND": "rules"}) as base:
        yield int(base.rsplit(":", 1)[1]), var / "gunicorn.log"


GUNICORN_BAD_CHUNKS = {"size ZZ": b"ZZ\r\n{}\r\n0\r\n\r\n", "size -3": b"-3\r\nabc\r\n0\r\n\r\n",
                       "missing CRLF after the data": b"5\r\n{\"que\r\nxx\r\n0\r\n\r\n",
                       "cut off": b"10\r\n{\"question\"", "size overflow": b"f" * 40 + b"\r\n{}\r\n0\r\n\r\n"}


@pytest.mark.parametrize("path", ["/api/ask", "/api/ask/stream", "/api/runs/0123456789abcdef/feedback",
                                  "/v1/chat/completions"])
@pytest.mark.parametrize("case", list(GUNICORN_BAD_CHUNKS))
def test_a_malformed_chunked_body_is_a_400_on_gunicorn(gunicorn_live, path, case):
    port, log = gunicorn_live
    request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode() + GUNICORN_BAD_CHUNKS[case]
    status, body = send_raw(port, request)
    assert status == 400, body
    if path.startswith("/v1/"):  # OpenAI's error shape, which OpenAI clients read
        assert body["error"]["code"] == "invalid_body" and body["error"]["type"] == "invalid_request_error"
        assert body["error"]["message"]
    else:
        assert body == {"ok": False, "error": {"code": "invalid_body", "message": body["error"]["message"]}}
    assert "Traceback" not in log.read_text(errors="replace")


def test_a_well_formed_chunked_body_is_answered_on_gunicorn(gunicorn_live):
    port, log = gunicorn_live
    payload = json.dumps({"question": QUESTION}).encode()
    request = (b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
               + f"{len(payload):x}\r\n".encode() + payload + b"\r\n0\r\n\r\n")
    status, body = send_raw(port, request)
    assert status == 200 and "717 homicides" in body["answer"]


# ---------------------------------------------------------------- /v1 applies /api/ask's question check

def v1_body(question_json: str, stream: bool) -> bytes:
    return ('{"model": "chiqa", "stream": %s, "messages": [{"role": "user", "content": %s}]}'
            % ("true" if stream else "false", question_json)).encode()


def assert_openai_400(status: int, body: dict, code: str, param: str | None) -> str:
    assert status == 400, body
    assert set(body) == {"error"} and body["error"]["type"] == "invalid_request_error"
    assert body["error"]["code"] == code and body["error"]["param"] == param
    return body["error"]["message"]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("question", ['"How many homicides were there in 2022? \\ud800"', '"\\udfff"'])
def test_v1_refuses_a_lone_surrogate_as_api_ask_does(client, stream, question):
    resp = client.post("/v1/chat/completions", data=v1_body(question, stream), content_type="application/json")
    message = assert_openai_400(resp.status_code, resp.get_json(), "invalid_question", "messages")
    assert "unpaired UTF-16 surrogate" in message
    api = client.post("/api/ask", data=raw_body(question=question), content_type="application/json")
    assert_error(api, 400, "invalid_question")  # the same verdict on both endpoints


@pytest.mark.parametrize("stream", [False, True])
def test_v1_lone_surrogate_on_gunicorn_is_a_400_not_a_cut_stream(gunicorn_live, stream):
    port, log = gunicorn_live
    payload = v1_body('"homicides in 2022 \\ud800"', stream)
    request = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               + f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n".encode() + payload)
    status, body = send_raw(port, request)
    assert_openai_400(status, body, "invalid_question", "messages")
    assert "UnicodeEncodeError" not in log.read_text(errors="replace")


def test_v1_stream_text_never_holds_a_lone_surrogate():
    assert sse({"content": "a \ud800 b"}).encode("utf-8") == 'data: {"content": "a \ufffd b"}\n\n'.encode()


# ---------------------------------------------------------------- the CLI applies the same checks

@pytest.mark.parametrize("argv,code,needle", [
    (["ask", ""], "empty_question", "the question is empty"),
    (["ask", "   \t\n  "], "empty_question", "the question is empty"),
    (["ask", "x" * 100_000], "question_too_long", "100000 characters; the limit is 2000"),
    (["ask", "homicides \udcff in 2022"], "invalid_question", "not valid UTF-8"),
    (["ask", QUESTION, "--timeout", "nan"], "invalid_options", "finite number"),
    (["ask", QUESTION, "--timeout", "inf"], "invalid_options", "finite number"),
    (["ask", QUESTION, "--timeout", "1e400"], "invalid_options", "finite number"),
    (["ask", QUESTION, "--timeout", "-5"], "invalid_options", "at least 1"),
    (["ask", QUESTION, "--max-tool-calls", "0"], "invalid_options", "at least 1"),
    (["ask", QUESTION, "--max-tool-calls", "9" * 400], "invalid_options", "orchestrator.max_tool_calls"),
    (["tool", "get_iucr_info", '{"code": "' + "1" * 5000 + '"}'], "tool_error", None),
    (["tool", "query_homicides_advanced", '{"start_year": ' + "1" * 5000 + "}"], "invalid_json", "cannot be read"),
    (["tool", "query_homicides_advanced", "[" * DEEP + "]" * DEEP], "invalid_json", "too deeply"),
    (["tool", "query_homicides_advanced", '{"start_year": 1e400}'], "tool_error", "whole number"),
    (["tool", "query_homicides_advanced", '{"start_year": NaN}'], "tool_error", "whole number"),
    (["tool", "get_iucr_info", "{\"code\": \"' OR 1=1 --\"}"], "tool_error", "no IUCR code matches"),
    (["tool", "no_such_tool", "{}"], "tool_error", "unknown tool"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, code, needle):
    argv = [*argv, "--backend", "rules"] if argv[0] == "ask" else argv
    assert app.main(argv) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    if code == "tool_error":  # a tool's own error: its message, as the tool command prints it
        assert captured.out.startswith("ERROR (") and (needle or "") in captured.out
        return
    assert captured.out == "" and captured.err.startswith("error: ") and len(captured.err.strip().splitlines()) == 1
    assert needle in captured.err


@pytest.mark.parametrize("argv", [["ask", ""], ["ask", QUESTION, "--timeout", "nan"]])
def test_cli_bad_input_with_json_is_one_json_error(capsys, argv):
    assert app.main([*argv, "--json"]) == 2
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 1 and json.loads(out)["ok"] is False


# ---------------------------------------------------------------- tools given garbage by a model or a caller

@pytest.mark.parametrize("code", ["' OR 1=1 --", "--", "; DROP TABLE runs", "1=1", "' OR ''='", "OR", "%", "   "])
def test_iucr_lookup_never_matches_garbage(registry, code):
    result = registry.run("get_iucr_info", {"code": code})
    if code.strip() == "":
        assert result.ok and result.values["present_codes"] == ["0110"]  # blank = the overview, as documented
        return
    assert not result.ok and result.error["code"] == "unknown_code" and "1821" not in result.error["message"]


def test_iucr_lookup_by_description_still_works(registry, data_dir):
    import csv

    with open(data_dir / "iucr_codes.csv", newline="") as fh:
        raw = {row["IUCR"]: row["SECONDARY DESCRIPTION"] for row in csv.DictReader(fh)}
    result = registry.run("get_iucr_info", {"code": "first degree murder"})
    assert result.ok and result.values["code"] == "0110" and result.values["secondary"] == raw["0110"]


@pytest.mark.parametrize("arguments", [{"start_year": 10**400}, {"start_year": float("inf")}, {"start_year": "1e400"},
                                       {"group_by": 10**400}, {"start_year": [[[2022]]]}, {"ward": float("nan")}])
def test_tools_refuse_absurd_numbers_with_an_error_result(registry, arguments):
    result = registry.run("query_homicides_advanced", arguments)
    assert not result.ok and result.error["code"] in ("invalid_argument", "invalid_choice", "out_of_range")
    assert len(result.error["message"]) < 1000  # a 400-digit number is not echoed in full


# ---------------------------------------------------------------- hostile question text is read as text

def test_a_number_too_large_for_a_float_in_the_question_is_not_a_500(client):
    resp = client.post("/api/ask", json={"question": "how many homicides in 2022 in zip 6" + "0" * 1900})
    assert resp.status_code == 200 and resp.get_json()["answer"]  # grounding used to overflow here


@pytest.mark.parametrize("question", [
    "How many homicides were there in 2022?\x00",
    "{{7*7}} How many homicides were there in 2022?",
    "%s%s%n How many homicides were there in 2022?",
    "\u202eHow many homicides were there in 2022?\u202c",
])
@pytest.mark.full_data
def test_hostile_question_text_is_answered_from_the_data(client, question):
    resp = client.post("/api/ask", json={"question": question})
    body = resp.get_json()
    assert resp.status_code == 200 and body["error"] is None
    assert "717" in body["answer"] and "49" not in body["answer"]


@pytest.mark.parametrize("zip_code", ["60614 or 60601", "60614,60601", "606140", "6061", "60614x", "60614\n60601",
                                      "６０６１４", "60614-12"])
def test_a_zip_that_is_not_exactly_one_zip_is_a_tool_error(registry, zip_code):
    """Not cut to its first five characters (which answered "60614 or 60601" as 60614 alone)."""
    result = registry.run("query_property_values", {"zip": zip_code})
    assert not result.ok and result.error["code"] == "invalid_argument"
    assert "exactly one 5-digit ZIP" in result.error["message"] and "one ZIP per call" in result.error["message"]


def test_a_list_of_zips_is_refused_by_the_schema(registry):
    result = registry.run("query_property_values", {"zip": ["60614", "60601"]})
    assert not result.ok and "'zip' must be text" in result.error["message"]


@pytest.mark.parametrize("zip_code", ["60614", " 60614 ", "60614-1234"])
def test_one_zip_is_still_answered(registry, zip_code):
    result = registry.run("query_property_values", {"zip": zip_code})
    assert result.ok and result.values["zip"] == "60614"
