"""The backend for any OpenAI-compatible /chat/completions server (llama-server, vLLM, Ollama).

One reply gets one total deadline: min(model.openai.request_timeout_seconds, the time left for the
question), covering connect, headers and body together, whatever the server does. A socket timeout
alone cannot give that: it applies to each read, so a server sending one byte every few seconds, or
streaming without end, would hold the question for ever. A watchdog timer therefore shuts the socket
down when the total runs out, which wakes any blocked read at once. Replies are also capped in size.
The client is the standard library's http.client (no proxy support: model servers are local or on
the same network), which exposes the socket the watchdog needs.
"""
from __future__ import annotations

import http.client
import json
import os
import re
import socket
import ssl
import threading
import time
from urllib.parse import urlsplit

from backends.base import (
    Backend,
    BackendError,
    Generation,
    GenerationRequest,
    register_backend,
)
from settings.schema import Settings

MAX_REPLY_BYTES = 8 * 1024 * 1024  # a chat completion is a few KB; anything near this is a broken server
MAX_LINE_BYTES = 1024 * 1024
# JSON "\ud800" escapes decode to lone surrogates, which no UTF-8 output (page, store, CLI) can carry.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class _DeadlinePassed(Exception):
    """The total deadline ran out while reading (the watchdog fired)."""


class _Watchdog:
    """Shuts a connection's socket down at the deadline, waking any read blocked on it."""

    def __init__(self, seconds: float):
        self.sock: socket.socket | None = None  # set once connected: http.client forgets it on "Connection: close"
        self.fired = False
        self._done = False
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def __enter__(self):
        self._timer.start()
        return self

    def __exit__(self, *exc):
        self._timer.cancel()
        with self._lock:
            self._done = True
        return False

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self.sock = sock
            fired = self.fired
        if fired:
            raise _DeadlinePassed

    def _fire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.fired = True
            sock = self.sock
            if sock is not None:
                try:
                    # The plain socket's shutdown, also under TLS: SSLSocket.shutdown would drop the TLS state
                    # the reading thread is still using.
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)
                except OSError:
                    pass  # already closed


@register_backend
class OpenAIBackend(Backend):
    """Any OpenAI-compatible /chat/completions server (llama-server, llama_cpp.server, vLLM, Ollama)."""

    name = "openai"

    def __init__(self, base_url: str, model: str = "local-model", *, api_key: str | None = None,
                 timeout: float = 60.0, temperature: float = 0.2, send_grammar: bool = True,
                 n_ctx: int = 4096, queue_size: int = 8):
        super().__init__(queue_size)
        self.base_url = base_url.rstrip("/")
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise BackendError(f"model.openai.base_url must be an http:// or https:// URL, got {base_url!r}")
        self._scheme, self._host, self._port, self._path = parts.scheme, parts.hostname, parts.port, parts.path
        self.model = model
        self.api_key = api_key
        self.timeout = float(timeout)
        self.temperature = float(temperature)
        self.send_grammar = send_grammar
        self.n_ctx = int(n_ctx)

    @classmethod
    def from_settings(cls, settings: Settings) -> "OpenAIBackend":
        model, remote = settings.model, settings.model.openai
        backend = cls(
            remote.base_url,
            remote.model,
            api_key=os.environ.get(remote.api_key_env) if remote.api_key_env else None,
            timeout=remote.request_timeout_seconds,
            temperature=model.temperature,
            send_grammar=remote.send_grammar,
            n_ctx=model.n_ctx,
            queue_size=model.queue_size,
        )
        backend.selection_reason = f"backend 'openai' at {backend.base_url}"
        return backend

    def info(self) -> dict:
        return {"backend": self.name, "model": self.model, "base_url": self.base_url, "chat_format": "server",
                "n_ctx": self.n_ctx, "reason": self.selection_reason}

    def _payload(self, request: GenerationRequest, stream: bool) -> dict:
        payload = {
            "model": self.model,
            "messages": [{"role": m.get("role", "user"), "content": m.get("content") or ""} for m in request.messages],
            "max_tokens": int(request.max_tokens),
            "temperature": self.temperature,
            "stream": stream,
        }
        if request.stop:
            payload["stop"] = list(request.stop)
        if request.grammar and self.send_grammar:
            payload["grammar"] = request.grammar
        return payload

    def _budget(self, deadline: float | None) -> float:
        """Seconds this whole reply may take: the request timeout, capped by the question's deadline."""
        if deadline is None:
            return self.timeout
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise BackendError("the deadline passed before the model server was asked")
        return max(0.05, min(self.timeout, remaining))

    def _connection(self, budget: float) -> http.client.HTTPConnection:
        if self._scheme == "https":
            return http.client.HTTPSConnection(self._host, self._port, timeout=budget,
                                               context=ssl.create_default_context())
        return http.client.HTTPConnection(self._host, self._port, timeout=budget)

    def _generate(self, request: GenerationRequest) -> Generation:
        started = time.perf_counter()
        url = self.base_url + "/chat/completions"
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        stream = request.on_token is not None
        body = json.dumps(self._payload(request, stream)).encode("utf-8")
        budget = self._budget(request.deadline)
        conn = self._connection(budget)
        phase, response = "connect", None
        try:
            with _Watchdog(budget) as watchdog:
                try:
                    conn.connect()  # bounded by the socket timeout, which is the same budget
                    watchdog.watch(conn.sock)
                    phase = "request"
                    conn.request("POST", self._path + "/chat/completions", body=body, headers=headers)
                    response = conn.getresponse()
                    phase = "reply"
                    if response.status >= 400:
                        detail = _text(response.read(2000)).strip()[:300]
                        raise BackendError(f"the model server at {url} answered HTTP {response.status}: "
                                           f"{detail or response.reason}")
                    if stream:
                        generation = self._read_stream(response, request, url, watchdog)
                    else:
                        generation = self._read_body(response, url)
                except (OSError, http.client.HTTPException, _DeadlinePassed, BackendError) as exc:
                    # Once the watchdog has shut the socket, any failure (EOF mid-headers, a cut body that
                    # does not parse) is the deadline's doing: say so rather than blame the reply.
                    if watchdog.fired or isinstance(exc, _DeadlinePassed):
                        raise BackendError(f"the model server at {url} did not finish its reply within "
                                           f"{budget:.1f} s (total deadline)") from None
                    if isinstance(exc, BackendError):
                        raise
                    raise _transport_error(exc, phase, url, budget) from exc
        finally:
            if response is not None:
                response.close()  # the response holds its own reference to the socket
            conn.close()
        if not generation.prompt_tokens:
            generation.prompt_tokens = self.count_message_tokens(request.messages)
            generation.evaluated_tokens = generation.prompt_tokens
        if not generation.completion_tokens:
            generation.completion_tokens = self.count_tokens(generation.text) if generation.text else 0
        generation.duration_ms = round((time.perf_counter() - started) * 1000, 3)
        return generation

    @staticmethod
    def _usage(generation: Generation, usage) -> None:
        if not isinstance(usage, dict):
            return
        prompt = usage.get("prompt_tokens")
        if isinstance(prompt, int):
            generation.prompt_tokens = prompt
            generation.evaluated_tokens = prompt
            details = usage.get("prompt_tokens_details")
            cached = details.get("cached_tokens") if isinstance(details, dict) else None
            if isinstance(cached, int) and 0 <= cached <= prompt:
                generation.evaluated_tokens = prompt - cached
        completion = usage.get("completion_tokens")
        if isinstance(completion, int):
            generation.completion_tokens = completion

    def _read_body(self, response, url: str) -> Generation:
        raw = response.read(MAX_REPLY_BYTES + 1)
        if len(raw) > MAX_REPLY_BYTES:
            raise BackendError(f"the model server at {url} sent a reply larger than {MAX_REPLY_BYTES:,} bytes")
        try:
            body = json.loads(_text(raw))
            choice = body["choices"][0]
            text = choice["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError, RecursionError) as exc:
            raise BackendError(f"the model server at {url} sent an unreadable reply ({type(exc).__name__}): "
                               f"{_text(raw[:200])!r}") from None
        if not isinstance(text, str):
            raise BackendError(f"the model server at {url} sent non-text content")
        finish = choice.get("finish_reason") if isinstance(choice, dict) else None
        generation = Generation(text=LONE_SURROGATE.sub("\ufffd", text),
                                finish_reason="length" if finish == "length" else "stop")
        self._usage(generation, body.get("usage"))
        return generation

    def _read_stream(self, response, request: GenerationRequest, url: str, watchdog: _Watchdog) -> Generation:
        """Server-sent events; when the deadline passes mid-stream the text so far is kept (finish "deadline")."""
        parts: list[str] = []
        generation = Generation(text="")
        finish, got_any, received = "stop", False, 0
        while True:
            if request.deadline is not None and time.monotonic() > request.deadline:
                finish = "deadline"
                break
            try:
                raw = response.readline(MAX_LINE_BYTES)
            except (OSError, http.client.HTTPException):
                if watchdog.fired and got_any:
                    finish = "deadline"
                    break
                raise
            if not raw:
                if watchdog.fired and got_any:
                    finish = "deadline"
                elif watchdog.fired:
                    raise _DeadlinePassed
                break
            received += len(raw)
            if received > MAX_REPLY_BYTES:
                raise BackendError(f"the model server at {url} streamed more than {MAX_REPLY_BYTES:,} bytes")
            line = _text(raw).strip()
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            try:
                chunk = json.loads(data)
                if not isinstance(chunk, dict):
                    raise ValueError("not an object")
            except (ValueError, RecursionError):
                raise BackendError(f"the model server at {url} sent an unreadable stream chunk: "
                                   f"{data[:120]!r}") from None
            got_any = True
            if chunk.get("usage"):
                self._usage(generation, chunk["usage"])
            for choice in chunk.get("choices") or []:
                delta = choice.get("delta") if isinstance(choice, dict) else None
                piece = delta.get("content") if isinstance(delta, dict) else None
                if isinstance(piece, str) and piece:
                    piece = LONE_SURROGATE.sub("\ufffd", piece)
                    parts.append(piece)
                    request.on_token(piece)
                if isinstance(choice, dict) and choice.get("finish_reason") == "length":
                    finish = "length"
        if not got_any and finish != "deadline":
            raise BackendError(f"the model server at {url} sent an empty or unreadable stream")
        generation.text = "".join(parts)
        generation.finish_reason = finish
        return generation


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def _transport_error(exc: Exception, phase: str, url: str, budget: float) -> BackendError:
    if isinstance(exc, (socket.timeout, TimeoutError)):  # the per-read timeout met the same total deadline
        return BackendError(f"the model server at {url} did not finish its reply within {budget:.1f} s "
                            "(total deadline)")
    if phase == "connect":
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return BackendError(f"cannot connect to the model server at {url}: is it running? ({reason})")
    return BackendError(f"the model server at {url} broke off the reply ({type(exc).__name__}: {exc})")
