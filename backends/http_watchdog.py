"""One total deadline for one HTTP reply, whatever the server does.

A socket timeout applies to each read, so a server that sends one byte every few seconds (in the
headers or the body), or streams without end, would hold a question for ever. Here a timer shuts the
connection's socket down when the reply's whole budget is spent; that wakes any read blocked on it at
once. The socket is caught when urllib3 connects it (a watched connection class, mounted through a
requests adapter), so the headers are covered as well as the body. Connections are not reused
(``Connection: close``), so every reply gets a freshly connected, watched socket.
"""
from __future__ import annotations

import socket
import threading

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

_CURRENT = threading.local()  # the watchdog of the reply this thread is making


class Watchdog:
    """Shuts down the socket of the current thread's connection once ``seconds`` have passed."""

    def __init__(self, seconds: float):
        self.fired = False
        self._sock: socket.socket | None = None
        self._done = False
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def __enter__(self) -> "Watchdog":
        _CURRENT.watchdog = self
        self._timer.start()
        return self

    def __exit__(self, *exc) -> bool:
        self._timer.cancel()
        with self._lock:
            self._done = True
        _CURRENT.watchdog = None
        return False

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sock = sock
            fired = self.fired
        if fired:  # the budget ran out while connecting
            self._shutdown(sock)

    def _fire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.fired = True
            sock = self._sock
        if sock is not None:
            self._shutdown(sock)

    @staticmethod
    def _shutdown(sock: socket.socket) -> None:
        try:
            # The plain socket's shutdown, also under TLS: the reading thread still holds the TLS state.
            socket.socket.shutdown(sock, socket.SHUT_RDWR)
        except OSError:
            pass  # already closed


def _watch_new_socket(conn) -> None:
    watchdog = getattr(_CURRENT, "watchdog", None)
    if watchdog is not None and conn.sock is not None:
        watchdog.watch(conn.sock)


class _WatchedHTTPConnection(HTTPConnection):
    def connect(self) -> None:
        super().connect()
        _watch_new_socket(self)


class _WatchedHTTPSConnection(HTTPSConnection):
    def connect(self) -> None:
        super().connect()
        _watch_new_socket(self)


class _WatchedPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class WatchedAdapter(HTTPAdapter):
    """A requests adapter whose connections report their socket to the thread's ``Watchdog``."""

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _WatchedPool, "https": _WatchedHTTPSPool}
