"""Reliability: the MCP stdio server (`python app.py mcp`) answers every bad line with a JSON-RPC error, then serves on.

The real process, driven line by line over its stdin and stdout (no SDK client, which would refuse to send such
lines): malformed JSON, a batch, a request nested 50,000 levels deep, a lone UTF-16 surrogate in `ask`'s question.
Every wait has a timeout, and the process is killed at the end whatever happens.
"""
import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml

from protocols.jsonrpc_screen import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, screen, top_level_id
from tools import names

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "How many homicides were there in 2022?"
REPLY_TIMEOUT = 60


class StdioServer:
    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, text: str | bytes) -> None:
        self.proc.stdin.write(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
        self.proc.stdin.write(b"\n")
        self.proc.stdin.flush()

    def request(self, request_id, method: str, params: dict | None = None) -> None:
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, **({"params": params} if params else {})}
        self.send(json.dumps(message))

    def reply(self, timeout: float = REPLY_TIMEOUT) -> dict:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no reply within {timeout} s") from None
        assert line is not None, "the server closed its stdout"
        return json.loads(line)


@pytest.fixture(scope="module")
def server(tmp_path_factory, data_dir):
    tmp = tmp_path_factory.mktemp("mcp_faults")
    cache = ROOT / "var" / "test" / "cache"
    (tmp / "config.yaml").write_text(yaml.safe_dump({"data": {"cache_dir": str(cache)}}))
    env = {"PATH": "/usr/bin:/bin", "CHIQA_CONFIG": str(tmp / "config.yaml"), "CHIQA_VAR_DIR": str(tmp / "var"),
           "CHIQA_DATA_DIR": str(data_dir)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "app.py"), "mcp", "--backend", "rules"], cwd=tmp, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(tmp / "stderr.log", "wb"))
    try:
        srv = StdioServer(proc)
        srv.request(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                      "clientInfo": {"name": "fault-test", "version": "0"}})
        assert srv.reply(120)["id"] == 0
        srv.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        srv.stderr_log = tmp / "stderr.log"
        yield srv
    finally:
        proc.kill()
        proc.wait(10)


def assert_error(reply: dict, code: int, request_id) -> str:
    assert reply["jsonrpc"] == "2.0" and reply["id"] == request_id and "result" not in reply, reply
    assert reply["error"]["code"] == code and reply["error"]["message"]
    return reply["error"]["message"]


def answers_a_question(srv: StdioServer, request_id: int) -> None:
    """The server still serves: a good `ask` gets its answer."""
    srv.request(request_id, "tools/call", {"name": "ask", "arguments": {"question": QUESTION}})
    reply = srv.reply()
    assert reply["id"] == request_id and not reply["result"]["isError"]
    assert "717" in reply["result"]["content"][0]["text"]


@pytest.mark.parametrize("line", ['{"jsonrpc": "2.0", "id": 1, "method": ', "not json at all", "{'single': 1}",
                                  '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"} trailing'])
def test_malformed_json_gets_a_parse_error(server, line):
    assert "not valid JSON" in assert_error(_send(server, line), PARSE_ERROR, None)


def _send(server: StdioServer, line: str) -> dict:
    server.send(line)
    return server.reply()


@pytest.mark.parametrize("line,request_id", [("[1, 2]", None), ("42", None), ('{"id": 3, "method": "tools/list"}', 3),
                                             ('{"jsonrpc": "2.0", "id": 4, "method": 7}', 4),
                                             ('{"jsonrpc": "2.0", "id": [5], "method": "tools/list"}', None)])
def test_json_that_is_not_a_jsonrpc_message_is_an_invalid_request(server, line, request_id):
    assert_error(_send(server, line), INVALID_REQUEST, request_id)


@pytest.mark.parametrize("method", ["tools/list", "tools/call"])
def test_a_request_with_a_null_id_gets_an_error_not_silence(server, method):
    """The SDK took {"id": null, "method": ...} for a notification and never replied: the client waited for ever."""
    ask = ', "params": {"name": "ask", "arguments": {"question": "homicides in 2022"}}'
    params = ask if method == "tools/call" else ""
    line = '{"jsonrpc": "2.0", "id": null, "method": "%s"%s}' % (method, params)
    assert "not null" in assert_error(_send(server, line), INVALID_REQUEST, None)
    server.request(41, "tools/list")  # and the server serves on
    assert server.reply()["id"] == 41


def test_a_request_nested_50000_levels_deep_is_refused_with_its_id(server):
    deep = "[" * 50_000 + "]" * 50_000
    line = ('{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "ask", "arguments": '
            '{"question": ' + deep + "}}}")
    assert "levels deep" in assert_error(_send(server, line), INVALID_REQUEST, 11)
    answers_a_question(server, 12)


@pytest.mark.parametrize("question", ["homicides in 2022 \\ud800", "\\udfff"])
def test_a_lone_surrogate_in_the_question_is_invalid_params(server, question):
    line = ('{"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": {"name": "ask", "arguments": '
            '{"question": "' + question + '"}}}')
    message = assert_error(_send(server, line), INVALID_PARAMS, 21)
    assert "params.arguments.question" in message and "surrogate" in message
    answers_a_question(server, 22)


def test_after_every_bad_line_the_server_still_serves(server):
    for line in ("{", "[]", "\x00\x01", "{" * 100 + "}" * 100):
        server.send(line)
        assert "error" in server.reply()
    server.send(b"\xff\xfe not utf-8")
    assert server.reply()["error"]["code"] == PARSE_ERROR
    server.request(31, "tools/list")
    assert len(server.reply()["result"]["tools"]) == len(names.ALL) + 2  # the data tools, list_measures and ask
    answers_a_question(server, 32)
    assert "Traceback" not in server.stderr_log.read_text(errors="replace")


# ---------------------------------------------------------------- the screen on its own

def test_screen_passes_good_messages_and_drops_bad_notifications():
    assert screen('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}') is None
    assert screen('{"jsonrpc": "2.0", "method": "notifications/initialized"}') is None
    assert screen('{"jsonrpc": "2.0", "method": "notifications/x", "params": {"a": "\\ud800"}}') == "drop"
    assert screen("   ") == "drop"
    assert screen('{"jsonrpc": "2.0", "id": null, "method": "ping"}')["error"]["code"] == INVALID_REQUEST


def test_top_level_id_reads_only_the_envelope():
    assert top_level_id('{"params": {"id": 5}, "id": "abc", "method": "x"}') == "abc"
    assert top_level_id('{"jsonrpc": "2.0", "id" : 7, "params": ' + "[" * 1000) == 7
    assert top_level_id('{"params": {"id": 5}}') is None
    assert top_level_id("[1]") is None
