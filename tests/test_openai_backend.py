"""OpenAIBackend: replies and HTTP failures from a real server on 127.0.0.1; a real llama_cpp.server too."""
import json
import os
import subprocess
import sys
import time

import pytest
import requests

from backends.base import BackendError, GenerationRequest
from backends.openai_http import OpenAIBackend
from llama_client import make_backend
from settings.loader import load_settings
from tests.fault_server import FaultServer, free_port, hang, reply

MESSAGES = [{"role": "system", "content": "You are ChiQA."}, {"role": "user", "content": "Homicides in 2020?"}]
OK_BODY = {"id": "x", "object": "chat.completion", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": "TOOL_CALL: {\"name\": \"a\", \"arguments\": {}}"},
     "finish_reason": "stop"}], "usage": {"prompt_tokens": 31, "completion_tokens": 12, "total_tokens": 43}}


def _backend(server, **kwargs):
    return OpenAIBackend(server.base_url, "local-model", timeout=kwargs.pop("timeout", 5), **kwargs)


def test_ok_reply_with_usage_and_grammar():
    with FaultServer(reply(OK_BODY)) as server:
        generation = _backend(server).generate(GenerationRequest(messages=MESSAGES, grammar='root ::= "x"',
                                                                 max_tokens=50, stop=["\n\n"]))
    assert generation.text.startswith("TOOL_CALL:")
    assert (generation.prompt_tokens, generation.evaluated_tokens, generation.completion_tokens) == (31, 31, 12)
    request = server.requests[0]
    assert request["method"] == "POST" and request["path"] == "/v1/chat/completions"
    sent = request["body"]
    assert sent["model"] == "local-model" and sent["messages"] == MESSAGES and sent["max_tokens"] == 50
    assert sent["grammar"] == 'root ::= "x"' and sent["stop"] == ["\n\n"] and sent["stream"] is False


def test_api_key_is_sent_as_a_bearer_token():
    with FaultServer(reply(OK_BODY)) as server:
        _backend(server, api_key="sekret").generate(GenerationRequest(messages=MESSAGES))
    assert server.requests[0]["headers"]["authorization"] == "Bearer sekret"


def test_cached_tokens_reduce_evaluated_tokens():
    body = dict(OK_BODY, usage={"prompt_tokens": 100, "completion_tokens": 5,
                                "prompt_tokens_details": {"cached_tokens": 80}})
    with FaultServer(reply(body)) as server:
        generation = _backend(server).generate(GenerationRequest(messages=MESSAGES))
    assert generation.prompt_tokens == 100 and generation.evaluated_tokens == 20


def test_http_500_is_a_backend_error():
    with FaultServer(reply("model crashed", status=500, content_type="text/plain")) as server:
        with pytest.raises(BackendError, match="HTTP 500.*model crashed"):
            _backend(server).generate(GenerationRequest(messages=MESSAGES))


def test_a_silent_server_is_a_backend_error():
    with FaultServer(hang) as server:
        with pytest.raises(BackendError, match="did not finish its reply within 0.3 s"):
            _backend(server, timeout=0.3).generate(GenerationRequest(messages=MESSAGES))


def test_garbage_body_is_a_backend_error():
    with FaultServer(reply("<html>not json</html>")) as server:
        with pytest.raises(BackendError, match="unreadable reply"):
            _backend(server).generate(GenerationRequest(messages=MESSAGES))
    with FaultServer(reply({"choices": []})) as server:
        with pytest.raises(BackendError, match="unreadable reply"):
            _backend(server).generate(GenerationRequest(messages=MESSAGES))


def test_streaming_reply_calls_on_token():
    chunks = [{"choices": [{"delta": {"content": "Hello"}}]}, {"choices": [{"delta": {"content": " world"},
                                                                             "finish_reason": "stop"}]}]
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    pieces = []
    with FaultServer(reply(body, content_type="text/event-stream")) as server:
        generation = _backend(server).generate(GenerationRequest(messages=MESSAGES, on_token=pieces.append))
    assert generation.text == "Hello world" and pieces == ["Hello", " world"]
    assert server.requests[0]["body"]["stream"] is True


def test_garbage_stream_is_a_backend_error():
    with FaultServer(reply("data: {broken\n\n", content_type="text/event-stream")) as server:
        with pytest.raises(BackendError, match="stream"):
            _backend(server).generate(GenerationRequest(messages=MESSAGES, on_token=lambda piece: None))


def test_connection_refused_is_a_backend_error():
    backend = OpenAIBackend(f"http://127.0.0.1:{free_port()}/v1", timeout=2)
    with pytest.raises(BackendError, match="cannot connect"):
        backend.generate(GenerationRequest(messages=MESSAGES))


def test_budget_is_capped_by_the_deadline():
    backend = OpenAIBackend("http://127.0.0.1:9/v1", timeout=60)
    assert 0 < backend._budget(time.monotonic() + 1.5) <= 1.5
    assert backend._budget(None) == 60
    with pytest.raises(BackendError, match="deadline"):
        backend._budget(time.monotonic() - 1)


def test_a_base_url_that_is_not_http_is_refused():
    with pytest.raises(BackendError, match="http:// or https://"):
        OpenAIBackend("ftp://h/v1")


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

@pytest.mark.slow
def test_real_llama_cpp_server(tiny_gguf_path, tmp_path):
    port = free_port()
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
