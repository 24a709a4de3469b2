"""The gunicorn worker `make run` uses: gthread, except that a request is read whole before a thread takes it.

gunicorn's gthread worker hands a connection to a thread as soon as its first bytes arrive; the thread then
blocks reading the rest of the headers and the body. Eight clients that send headers and a few body bytes and
then stall held all eight threads, and /api/health went unanswered for minutes. Here the main loop (one
selector, no thread per client) reads each request without blocking until it is complete, then gives it to a
thread with every byte already buffered, so a slow or stalled client costs a socket, never a thread. A request
not complete within READ_TIMEOUT_SECONDS (headers and body together) gets 408 and is closed.

"Complete" means the headers' blank line, then the Content-Length bytes or the chunked body's last chunk. A
body larger than the app accepts (server.max_body_bytes) is handed over at that size: the app refuses it with
413 from what is buffered. Framing that cannot be read (a chunk size "ZZ") or a client that closed its side
is handed over at once, and gunicorn's parser answers it as before (400).
"""
from __future__ import annotations

import errno
import os
import selectors
import threading
import time
from functools import partial

from gunicorn.workers.gthread import TConn, ThreadWorker

from settings.loader import load_settings
from web import RECEIVED_KEY

READ_TIMEOUT_SECONDS = float(os.environ.get("CHIQA_READ_TIMEOUT") or 30)
HEADER_ROOM = 64 * 1024  # beyond the body limit: room for the request line and headers
_THREAD = threading.local()  # the request this thread is serving: when it was read whole
_TIMEOUT_BODY = (b'{"ok": false, "error": {"code": "request_timeout", "message": "the request (headers and body) '
                 b'was not received within the time allowed"}}')
_TIMEOUT_REPLY = (b"HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nConnection: close\r\n"
                  + f"Content-Length: {len(_TIMEOUT_BODY)}\r\n\r\n".encode() + _TIMEOUT_BODY)


SPARE_THREADS = 3  # threads no question can hold: health, pages and the run history stay answered


def default_threads(queue_size: int) -> int:
    """Threads for a worker: one per question the model gate admits (the one running and ``queue_size``
    waiting), plus spares. With fewer, questions past the thread count would wait in gunicorn's queue, unseen
    by the gate (no 503 "busy"), and their time limit would start only once a thread took them."""
    return queue_size + 1 + SPARE_THREADS


def _chunked_complete(body: bytes) -> bool:
    """Whether a chunked body has ended (or cannot be read on: the parser should answer it now)."""
    pos = 0
    while True:
        eol = body.find(b"\r\n", pos)
        if eol < 0:
            return len(body) - pos > 1024  # a size line this long is not one: let the parser refuse it
        try:
            size = int(body[pos:eol].split(b";")[0].strip(), 16)
        except ValueError:
            return True
        if size < 0:
            return True
        if size == 0:
            rest = body[eol + 2:]
            return rest.startswith(b"\r\n") or b"\r\n\r\n" in rest
        pos = eol + 2 + size + 2
        if len(body) < pos:
            return False
        if body[pos - 2:pos] != b"\r\n":
            return True


def request_complete(buffer: bytes, most: int) -> bool:
    """Whether ``buffer`` holds one whole HTTP/1.x request (or as much of one as the app will read)."""
    if len(buffer) >= most:
        return True
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return False
    lines = buffer[:end].decode("latin-1").lower().split("\r\n")[1:]
    headers = {name.strip(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    body = buffer[end + 4:]
    if "chunked" in headers.get("transfer-encoding", ""):
        return _chunked_complete(body)
    try:
        return len(body) >= int(headers.get("content-length") or 0)
    except ValueError:
        return True  # a malformed length: gunicorn's parser answers it


def _expects_continue(buffer: bytearray) -> bool:
    end = buffer.find(b"\r\n\r\n")
    return end >= 0 and b"\r\nexpect: 100-continue" in bytes(buffer[:end]).lower()


class BufferedThreadWorker(ThreadWorker):
    """gthread with whole requests read by the main loop (see the module docstring)."""

    def load_wsgi(self):
        """The app sees when its request was read whole (``RECEIVED_KEY``), so a question's time limit counts
        from then: time spent waiting for a thread is part of it, never added to it."""
        super().load_wsgi()
        inner = getattr(self.wsgi, "wsgi_app", None)  # a Flask app: the middleware goes inside, the app stays
        if inner is None:
            return

        def stamped(environ, start_response):
            environ[RECEIVED_KEY] = getattr(_THREAD, "received", None)
            return inner(environ, start_response)
        self.wsgi.wsgi_app = stamped

    def enqueue_req(self, conn):
        conn.received_at = time.monotonic()
        super().enqueue_req(conn)

    def init_process(self):
        self.most_bytes = load_settings().server.max_body_bytes + HEADER_ROOM + 1
        self.reading: dict = {}  # connection -> (buffer, deadline)
        self.continued: set = set()  # connections already sent "100 Continue"
        super().init_process()

    # New connections and kept-alive ones that become readable are read here first, not by a thread.
    def accept(self, listener):
        try:
            client_sock, client_addr = listener.accept()
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        self._start_reading(TConn(self.cfg, client_sock, client_addr, listener.getsockname()))

    def on_client_socket_readable(self, conn, client):
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._start_reading(conn)

    def _start_reading(self, conn) -> None:
        if self.cfg.is_ssl:  # TLS bytes must go through the handshake first: gthread's own way
            self.enqueue_req(conn)
            return
        conn.sock.setblocking(False)
        self.reading[conn] = (bytearray(), time.monotonic() + READ_TIMEOUT_SECONDS)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_readable, conn))

    def _on_readable(self, conn, client) -> None:
        buffer, _ = self.reading[conn]
        ended = False
        while len(buffer) < self.most_bytes:
            try:
                data = conn.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                ended = True
                break
            if not data:
                ended = True
                break
            buffer += data
        if ended or request_complete(bytes(buffer), self.most_bytes):
            self._hand_over(conn)
        elif conn not in self.continued and _expects_continue(buffer):
            # A client sending "Expect: 100-continue" (curl, for bodies over 1 KiB) waits for this before the
            # body; gunicorn would send it only once a thread has the request, i.e. after the body.
            self.continued.add(conn)
            try:
                conn.sock.send(b"HTTP/1.1 100 Continue\r\n\r\n")
            except OSError:
                pass

    def _hand_over(self, conn) -> None:
        buffer, _ = self.reading.pop(conn)
        self.continued.discard(conn)
        self.poller.unregister(conn.sock)
        conn.data_ready = True  # gthread's own wait for the first byte is not needed: the request is here
        conn.buffered = bytes(buffer)
        self.enqueue_req(conn)

    def handle(self, conn):
        _THREAD.received = getattr(conn, "received_at", None)
        buffered = getattr(conn, "buffered", b"")
        if buffered:
            conn.buffered = b""
            try:
                conn.sock.setblocking(True)
                conn.init()
                conn.parser.unreader.unread(buffered)
            except Exception:  # noqa: BLE001 - as gthread itself: a connection that cannot start is closed
                return False
        return super().handle(conn)

    def murder_pending(self):
        """gthread's sweep of idle connections, plus requests not read whole in time: 408, then closed."""
        super().murder_pending()
        now = time.monotonic()
        for conn in [c for c, (_, deadline) in self.reading.items() if deadline <= now]:
            buffer, _ = self.reading.pop(conn)
            self.continued.discard(conn)
            try:
                self.poller.unregister(conn.sock)
            except (OSError, KeyError, ValueError):
                pass
            try:
                if buffer:  # a connection that never asked anything (a browser's preconnect) is just closed
                    conn.sock.send(_TIMEOUT_REPLY)  # non-blocking, best effort: the client may read it or not
            except OSError:
                pass
            self.nr_conns -= 1
            conn.close()
