"""The backend for any OpenAI-compatible /chat/completions server (llama-server, vLLM, Ollama).

One reply gets one total deadline: min(model.openai.request_timeout_seconds, the question's time left),
for connect, headers and body together (backends/http_watchdog.py), and a size cap.
"""
from __future__ import annotations

import json
import os
import re
import time
from urllib.parse import urlsplit

from urllib3.exceptions import HTTPError as TransportError

from backends.base import (
    Backend,
    BackendError,
    Generation,
    GenerationRequest,
    register_backend,
    reply_chars,
)
from backends.http_watchdog import WatchedAdapter, Watchdog
from backends.server_kinds import check_server_kind, constraint_fields, uses_json_schema
from toolcall.call_schema import calls_to_protocol
from settings.schema import Settings

MAX_REPLY_BYTES = 4 * 1024 * 1024  # far above any chat reply: an endless body is cut off, not buffered
# JSON "\ud800" escapes decode to lone surrogates, which no UTF-8 output (page, store, CLI) can carry.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@register_backend
class OpenAIBackend(Backend):
    """Any OpenAI-compatible /chat/completions server (llama-server, llama_cpp.server, vLLM, Ollama)."""

    name = "openai"

    def __init__(self, base_url: str, model: str = "local-model", *, api_key: str | None = None,
                 timeout: float = 60.0, temperature: float = 0.2, send_grammar: bool = True,
                 n_ctx: int = 4096, queue_size: int = 8, session=None, server_kind: str = "llama-server"):
        super().__init__(queue_size)
        import requests

        try:
            self.server_kind = check_server_kind(server_kind)
        except ValueError as exc:
            raise BackendError(str(exc)) from None

        self.base_url = base_url.rstrip("/")
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise BackendError(f"model.openai.base_url must be an http:// or https:// URL, got {base_url!r}")
        self.model = model
        self.api_key = api_key
        self.timeout = float(timeout)
        self.temperature = float(temperature)
        self.send_grammar = send_grammar
        self.n_ctx = int(n_ctx)
        self.session = session or requests.Session()
        for prefix in ("http://", "https://"):  # sockets the total deadline can shut down
            self.session.mount(prefix, WatchedAdapter())

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
            server_kind=remote.server_kind,
        )
        backend.selection_reason = f"backend 'openai' at {backend.base_url}"
        return backend

    def info(self) -> dict:
        return {"backend": self.name, "model": self.model, "base_url": self.base_url, "chat_format": "server",
                "server_kind": self.server_kind, "n_ctx": self.n_ctx, "reason": self.selection_reason}

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
        if self.send_grammar:  # each server kind reads the constraint from its own field
            payload.update(constraint_fields(self.server_kind, request))
        return payload

    def _timeout(self, deadline: float | None) -> float:
        if deadline is None:
            return self.timeout
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise BackendError("the deadline passed before the model server was asked")
        return max(0.05, min(self.timeout, remaining))

    def _generate(self, request: GenerationRequest) -> Generation:
        import requests

        started = time.perf_counter()
        url = self.base_url + "/chat/completions"
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        # A fresh connection per reply: the watchdog sees every socket as it connects (none is reused).
        headers["Connection"] = "close"
        stream = request.on_token is not None
        timeout = self._timeout(request.deadline)
        with Watchdog(timeout) as watchdog:
            try:
                response = self.session.post(url, json=self._payload(request, stream), headers=headers,
                                             timeout=timeout, stream=True)
            except requests.RequestException as exc:
                raise self._request_error(exc, url, timeout, watchdog.fired) from exc
            try:
                if response.status_code >= 400:
                    detail = (response.text or "")[:300].strip()
                    raise BackendError(f"the model server at {url} answered HTTP {response.status_code}: "
                                       f"{detail or response.reason}")
                if stream:
                    generation = self._read_stream(response, request, url, watchdog)
                else:
                    generation = self._read_body(response, url)
            except (requests.RequestException, TransportError, OSError, BackendError) as exc:
                # Once the watchdog has shut the socket, any failure (a cut body that does not parse, an
                # early end) is the deadline's doing: say so rather than blame the reply.
                if watchdog.fired:
                    raise BackendError(_deadline_text(url, timeout)) from None
                if isinstance(exc, BackendError):
                    raise
                raise BackendError(f"the model server at {url} broke off the reply ({type(exc).__name__}: "
                                   f"{exc})") from exc
            finally:
                response.close()
        if self.send_grammar and uses_json_schema(self.server_kind, request):
            generation.text = calls_to_protocol(generation.text)  # the JSON reply back into TOOL_CALL lines
        if not generation.prompt_tokens:
            generation.prompt_tokens = self.count_message_tokens(request.messages)
            generation.evaluated_tokens = generation.prompt_tokens
        if not generation.completion_tokens:
            generation.completion_tokens = self.count_tokens(generation.text) if generation.text else 0
        generation.duration_ms = round((time.perf_counter() - started) * 1000, 3)
        return generation

    @staticmethod
    def _request_error(exc, url: str, timeout: float, fired: bool) -> BackendError:
        import requests

        if fired or isinstance(exc, requests.Timeout):
            return BackendError(_deadline_text(url, timeout))
        if isinstance(exc, requests.ConnectionError):
            return BackendError(f"cannot connect to the model server at {url}: is it running? ({exc})")
        return BackendError(f"request to the model server at {url} failed: {exc}")

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
        raw = bytearray()
        # read1 returns whatever one socket read brings, so the size cap holds against an endless body.
        while chunk := response.raw.read1(8192, decode_content=True):
            raw += chunk
            if len(raw) > MAX_REPLY_BYTES:
                raise BackendError(f"the model server at {url} sent more than {MAX_REPLY_BYTES:,} bytes")
        try:
            body = json.loads(_text(bytes(raw)))
            choice = body["choices"][0]
            text = choice["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError, RecursionError) as exc:
            raise BackendError(f"the model server at {url} sent an unreadable reply ({type(exc).__name__}): "
                               f"{_text(bytes(raw[:200]))!r}") from None
        if not isinstance(text, str):
            raise BackendError(f"the model server at {url} sent non-text content")
        finish = choice.get("finish_reason") if isinstance(choice, dict) else None
        generation = Generation(text=LONE_SURROGATE.sub("\ufffd", text),
                                finish_reason="length" if finish == "length" else "stop")
        self._usage(generation, body.get("usage"))
        return generation

    def _read_stream(self, response, request: GenerationRequest, url: str, watchdog: Watchdog) -> Generation:
        """Server-sent events; when the deadline passes mid-stream the text so far is kept (finish "deadline")."""
        import requests

        parts: list[str] = []
        generation = Generation(text="")
        finish, got_any, received = "stop", False, 0
        room = reply_chars(request.max_tokens)  # a server ignoring max_tokens is cut here, before the reader sees it
        lines = response.iter_lines(decode_unicode=False)
        while True:
            if request.deadline is not None and time.monotonic() > request.deadline:
                finish = "deadline"
                break
            if room <= 0:
                finish = "length"
                break
            try:
                raw = next(lines, None)
            except (requests.RequestException, TransportError, OSError):
                if watchdog.fired and got_any:
                    finish = "deadline"
                    break
                raise
            if raw is None:
                if watchdog.fired and got_any:
                    finish = "deadline"
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
                if isinstance(piece, str) and piece and room > 0:
                    piece = LONE_SURROGATE.sub("\ufffd", piece)[:room]
                    room -= len(piece)
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


def _deadline_text(url: str, seconds: float) -> str:
    return f"the model server at {url} did not finish its reply within {seconds:.1f} s (total deadline)"
