"""A real misbehaving HTTP server on 127.0.0.1 for fault tests: each connection gets a behaviour.

Behaviours answer normally, fail (HTTP 500, garbage), or misbehave on purpose: drip one byte every
few milliseconds, hang after reading the request, stream events without end. Every loop ends when
the test leaves the ``with`` block or after ``max_seconds``, so nothing outlives a test.
"""
from __future__ import annotations

import json
import re
import socket
import threading
import time

from tools import names


class FaultServer:
    def __init__(self, behaviour, max_seconds: float = 20.0):
        self.behaviour = behaviour  # fn(conn, request: dict, server) -> None
        self.max_seconds = max_seconds
        self.requests: list[dict] = []
        self.stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.05)
        self.port = self._listener.getsockname()[1]
        self._threads: list[threading.Thread] = []
        self._started = time.monotonic()
        self.client_left = threading.Event()  # set when a send failed because the client hung up

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def running(self) -> bool:
        return not self.stop.is_set() and time.monotonic() - self._started < self.max_seconds

    def __enter__(self):
        thread = threading.Thread(target=self._accept, name="fault-server", daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in list(self._threads):
            thread.join(5)
        self._listener.close()
        return False

    def _accept(self) -> None:
        while self.running():
            try:
                conn, _ = self._listener.accept()
            except (socket.timeout, OSError):
                continue
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(2)
        try:
            request = _read_request(conn)
            self.requests.append(request)
            self.behaviour(conn, request, self)
        except OSError:
            self.client_left.set()  # the client went away (as it should once its deadline passes)
        finally:
            conn.close()


def _read_request(conn: socket.socket) -> dict:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length") or 0)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    method, path = (lines[0].split(" ") + ["", ""])[:2]
    try:
        parsed = json.loads(body) if body else None
    except ValueError:
        parsed = None
    return {"method": method, "path": path, "headers": headers, "body": parsed}


# ---------------------------------------------------------------- behaviours

def reply(body, status: int = 200, content_type: str = "application/json"):
    if isinstance(body, bytes):
        payload = body
    else:
        payload = body.encode() if isinstance(body, str) else json.dumps(body).encode()

    def behaviour(conn, request, server):
        head = (f"HTTP/1.1 {status} {'OK' if status < 400 else 'Error'}\r\nContent-Type: {content_type}\r\n"
                f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n").encode()
        conn.sendall(head + payload)
    return behaviour


def drip(interval: float, prefix: bytes = b"HTTP/1.1 200 OK\r\n", filler: bytes = b"X-Slow: "):
    """Headers that never end: ``prefix``, then one byte of ``filler``+'a'... every ``interval`` seconds."""
    def behaviour(conn, request, server):
        conn.sendall(prefix)
        stream = filler + b"a" * 10_000_000
        for byte in stream:
            if not server.running():
                return
            conn.sendall(bytes([byte]))
            time.sleep(interval)
    return behaviour


def drip_body(interval: float):
    """Valid headers announcing a large JSON body, then its bytes one at a time."""
    def behaviour(conn, request, server):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n")
        body = b'{"choices": [{"message": {"content": "' + b"a" * 999_000
        for byte in body:
            if not server.running():
                return
            conn.sendall(bytes([byte]))
            time.sleep(interval)
    return behaviour


def hang(conn, request, server):
    """Read the request, then say nothing."""
    while server.running():
        time.sleep(0.01)


def endless_stream(interval: float):
    """A 200 event stream that sends a token every ``interval`` seconds and never says [DONE]."""
    def behaviour(conn, request, server):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
        while server.running():
            conn.sendall(b'data: {"choices": [{"delta": {"content": "x"}}]}\n\n')
            time.sleep(interval)
    return behaviour


def close_at_once(conn, request, server):
    conn.shutdown(socket.SHUT_RDWR)


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers_well(answer: str):
    """A well-behaved model server: a gathering pass (one that carries a grammar) asks for the homicides of the
    question's year, then for nothing more; the synthesis pass answers with ``answer``."""
    def behaviour(conn, request, server):
        body = request.get("body") or {}
        messages = body.get("messages") or []
        if body.get("grammar"):
            prompt = "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "user")
            year = re.search(r"^Question: .*\b(\d{4})\b", prompt, re.M)
            asked = any(m.get("role") == "assistant" for m in messages)
            text = "NO_TOOL_CALL"
            if year and not asked:
                text = "TOOL_CALL: " + json.dumps({"name": names.HOMICIDES, "arguments": {"year": int(year.group(1))}})
        else:
            text = answer
        reply({"choices": [{"message": {"content": text}, "finish_reason": "stop"}]})(conn, request, server)
    return behaviour
