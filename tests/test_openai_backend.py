"""OpenAIBackend: HTTP failures become BackendError; a real llama_cpp.server answers through it."""
import json
import os
import socket
import subprocess
import sys
import time

import pytest
import requests
import responses

from backends.base import BackendError, GenerationRequest
from backends.openai_http import OpenAIBackend
from llama_client import make_backend
from settings.loader import load_settings

BASE = "http://model.test/v1"
URL = BASE + "/chat/completions"
MESSAGES = [{"role": "system", "content": "You are ChiQA."}, {"role": "user", "content": "Homicides in 2020?"}]
OK_BODY = {"id": "x", "object": "chat.completion", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": "TOOL_CALL: {\"name\": \"a\", \"arguments\": {}}"},
     "finish_reason": "stop"}], "usage": {"prompt_tokens": 31, "completion_tokens": 12, "total_tokens": 43}}


def _backend(**kwargs):
    return OpenAIBackend(BASE, "local-model", timeout=kwargs.pop("timeout", 5), **kwargs)


@responses.activate
def test_ok_reply_with_usage_and_grammar():
    responses.add(responses.POST, URL, json=OK_BODY)
    generation = _backend().generate(GenerationRequest(messages=MESSAGES, grammar='root ::= "x"', max_tokens=50,
                                                       stop=["\n\n"]))
    assert generation.text.startswith("TOOL_CALL:")
    assert (generation.prompt_tokens, generation.evaluated_tokens, generation.completion_tokens) == (31, 31, 12)
    sent = json.loads(responses.calls[0].request.body)
    assert sent["model"] == "local-model" and sent["messages"] == MESSAGES and sent["max_tokens"] == 50
    assert sent["grammar"] == 'root ::= "x"' and sent["stop"] == ["\n\n"] and sent["stream"] is False


@responses.activate
def test_cached_tokens_reduce_evaluated_tokens():
    body = dict(OK_BODY, usage={"prompt_tokens": 100, "completion_tokens": 5,
                                "prompt_tokens_details": {"cached_tokens": 80}})
    responses.add(responses.POST, URL, json=body)
    generation = _backend().generate(GenerationRequest(messages=MESSAGES))
    assert generation.prompt_tokens == 100 and generation.evaluated_tokens == 20


@responses.activate
def test_http_500_is_a_backend_error():
    responses.add(responses.POST, URL, status=500, body="model crashed")
    with pytest.raises(BackendError, match="HTTP 500.*model crashed"):
        _backend().generate(GenerationRequest(messages=MESSAGES))


@responses.activate
def test_timeout_is_a_backend_error():
    responses.add(responses.POST, URL, body=requests.exceptions.ReadTimeout("read timed out"))
    with pytest.raises(BackendError, match="did not finish its reply within"):
        _backend().generate(GenerationRequest(messages=MESSAGES))


@responses.activate
def test_garbage_body_is_a_backend_error():
    responses.add(responses.POST, URL, body="<html>not json</html>", status=200)
    with pytest.raises(BackendError, match="unreadable reply"):
        _backend().generate(GenerationRequest(messages=MESSAGES))
    responses.replace(responses.POST, URL, json={"choices": []})
    with pytest.raises(BackendError, match="unreadable reply"):
        _backend().generate(GenerationRequest(messages=MESSAGES))


@responses.activate
def test_streaming_reply_calls_on_token():
    chunks = [{"choices": [{"delta": {"content": "Hello"}}]}, {"choices": [{"delta": {"content": " world"},
                                                                             "finish_reason": "stop"}]}]
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    responses.add(responses.POST, URL, body=body, content_type="text/event-stream")
    pieces = []
    generation = _backend().generate(GenerationRequest(messages=MESSAGES, on_token=pieces.append))
    assert generation.text == "Hello world" and pieces == ["Hello", " world"]
    assert json.loads(responses.calls[0].request.body)["stream"] is True


@responses.activate
def test_garbage_stream_is_a_backend_error():
    responses.add(responses.POST, URL, body="data: {broken\n\n", content_type="text/event-stream")
    with pytest.raises(BackendError, match="stream"):
        _backend().generate(GenerationRequest(messages=MESSAGES, on_token=lambda piece: None))


def test_connection_refused_is_a_backend_error():
    port = _free_port()
    backend = OpenAIBackend(f"http://127.0.0.1:{port}/v1", timeout=2)
    with pytest.raises(BackendError, match="cannot connect"):
        backend.generate(GenerationRequest(messages=MESSAGES))


def test_timeout_is_capped_by_the_deadline():
    backend = _backend(timeout=60)
    assert 0 < backend._timeout(time.monotonic() + 1.5) <= 1.5
    assert backend._timeout(None) == 60
    with pytest.raises(BackendError, match="deadline"):
        backend._timeout(time.monotonic() - 1)


def test_from_settings_reads_the_openai_block(monkeypatch):
    monkeypatch.setenv("CHIQA_TEST_KEY", "sekret")
    settings = load_settings(overrides={"model.backend": "openai", "model.openai.base_url": "http://h:1/v1/",
                                        "model.openai.api_key_env": "CHIQA_TEST_KEY",
                                        "model.openai.request_timeout_seconds": 7})
    backend = make_backend(settings)
    assert isinstance(backend, OpenAIBackend)
    assert backend.base_url == "http://h:1/v1" and backend.api_key == "sekret" and backend.timeout == 7
    assert backend.info()["backend"] == "openai"


# ---------------------------------------------------------------- a real server

def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_real_llama_cpp_server(tiny_gguf_path, tmp_path):
    port = _free_port()
    log = open(tmp_path / "server.log", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(tiny_gguf_path), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "512", "--n_threads", "1", "--chat_format", "chatml"],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        base = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                pytest.fail("llama_cpp.server exited: " + (tmp_path / "server.log").read_text()[-2000:])
            try:
                if requests.get(base + "/models", timeout=1).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                pytest.fail("llama_cpp.server did not start within 60 s")
            time.sleep(0.2)
        backend = OpenAIBackend(base, "tiny", timeout=30)
        generation = backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=16))
        assert generation.text and generation.completion_tokens > 0 and generation.prompt_tokens > 0
        pieces = []
        grammar = 'root ::= "TOOL_CALL: {\\"name\\": \\"a\\", \\"arguments\\": {}}"'
        streamed = backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=60, grammar=grammar,
                                                      on_token=pieces.append))
        assert streamed.text == 'TOOL_CALL: {"name": "a", "arguments": {}}' == "".join(pieces)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


def test_a_server_dripping_bytes_cannot_outlast_the_deadline():
    """A real socket server on 127.0.0.1 that sends its reply one byte every 0.3 s (bounded: it stops itself)."""
    import socket
    import threading
    import time as clock

    body = json.dumps(OK_BODY).encode()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]

    def drip():
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n")
        try:
            for byte in body[:40]:  # at most 12 s, far past the 2 s deadline
                conn.sendall(bytes([byte]))
                clock.sleep(0.3)
        except OSError:
            pass
        conn.close()
        listener.close()

    thread = threading.Thread(target=drip, daemon=True)
    thread.start()
    backend = OpenAIBackend(f"http://127.0.0.1:{port}/v1", timeout=30)
    started = clock.monotonic()
    with pytest.raises(BackendError, match="deadline"):
        backend.generate(GenerationRequest(messages=MESSAGES, deadline=clock.monotonic() + 2))
    assert clock.monotonic() - started < 2 + 1.5  # one drip interval past the deadline, not the whole reply
    thread.join(15)
