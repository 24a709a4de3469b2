"""Which database a run store lives in, from ``store.url``, and the engine (SQLAlchemy) that talks to it.

``sqlite:///PATH`` (the default, ``<server.var_dir>/runs.sqlite3``) is the one-machine store; ``postgresql://``
is for several web nodes sharing one history, through psycopg 3. Anything else is refused with a StoreConfigError
naming the problem, before any connection is tried.

SQLite keeps what the store always did: a fresh connection per call (NullPool; cheap for a file), WAL, a short
busy timeout (SQLITE_BUSY_SECONDS), and a write transaction that takes the write lock at BEGIN (BEGIN IMMEDIATE).
pysqlite's own transaction handling is switched off so the BEGIN we send is the one that runs (SQLAlchemy's
documented recipe).

PostgreSQL gets a pool per process, bounded by ``store.pool_size`` + ``store.max_overflow`` connections, each
checked before use (so a restarted server costs no failed request), and three timeouts so a slow or unreachable
server delays an answer by seconds, never indefinitely: connecting, waiting for a free pooled connection, and
each statement (enforced by the server, lock waits included).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import NullPool

from settings.loader import SettingsError, var_dir
from settings.schema import Settings

# How long a statement waits for a lock another connection holds. Our own writes take milliseconds, so this is
# only reached when something else holds the file (a backup, a sqlite3 shell left in a transaction): the answer
# is already computed then, and is returned with saved: false after this wait rather than held for 30 s.
SQLITE_BUSY_SECONDS = 2
WRITE = {"chiqa_write": True}  # execution option: this transaction writes (SQLite: BEGIN IMMEDIATE)
EXAMPLES = "sqlite:///PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"


class StoreConfigError(SettingsError):
    """``store.url`` names no database ChiQA can use; the message says why and what would do."""


@dataclass(frozen=True)
class PoolLimits:
    """How many PostgreSQL connections one process keeps, and how long anything may wait (seconds)."""

    pool_size: int = 4
    max_overflow: int = 4
    pool_timeout: float = 5.0
    connect_timeout: float = 5.0
    statement_timeout: float = 10.0

    @classmethod
    def from_settings(cls, settings: Settings) -> PoolLimits:
        s = settings.store
        return cls(s.pool_size, s.max_overflow, s.pool_timeout_seconds, s.connect_timeout_seconds,
                   s.statement_timeout_seconds)


def hide_password(url: str) -> str:
    """A URL fit for a log line or an error message, even one too malformed to parse."""
    return re.sub(r"(//[^:/@]*:)[^@/]*@", r"\1***@", url)


def store_url(settings: Settings) -> str | URL:
    """The configured URL, or the default SQLite file under server.var_dir."""
    return settings.store.url or URL.create("sqlite", database=str(var_dir(settings) / "runs.sqlite3"))


def parse_url(url: str | URL) -> URL:
    """``url`` as SQLAlchemy's URL with ChiQA's driver named; StoreConfigError when it is not one ChiQA can use."""
    shown = url.render_as_string(hide_password=True) if isinstance(url, URL) else hide_password(url)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise StoreConfigError(f"store.url {shown!r} is not a database URL; use {EXAMPLES}") from None
    kind, _, driver = parsed.drivername.partition("+")
    if kind in ("postgresql", "postgres"):
        if driver not in ("", "psycopg"):
            raise StoreConfigError(f"store.url {shown!r} names the driver {driver!r}; ChiQA talks to PostgreSQL "
                                   "through psycopg 3: write postgresql://...")
        return parsed.set(drivername="postgresql+psycopg")
    if kind == "sqlite":
        if not parsed.database or parsed.database == ":memory:":
            raise StoreConfigError(f"store.url {shown!r} names no file: an in-memory database would forget every "
                                   "run; use sqlite:///PATH")
        return parsed.set(drivername="sqlite")
    raise StoreConfigError(f"store.url {shown!r}: {kind!r} is not a database ChiQA can use; use {EXAMPLES}")


def _sqlite_connect(dbapi_connection, _record) -> None:
    dbapi_connection.isolation_level = None  # we send BEGIN ourselves (below)
    dbapi_connection.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_SECONDS * 1000}")


def _sqlite_begin(conn) -> None:
    options = conn.get_execution_options()
    if options.get("chiqa_busy_ms"):  # what is left of the write's whole wait (RunStore._do)
        conn.exec_driver_sql(f"PRAGMA busy_timeout = {int(options['chiqa_busy_ms'])}")
    conn.exec_driver_sql("BEGIN IMMEDIATE" if options.get("chiqa_write") else "BEGIN")


def sqlite_engine(url: str | URL, creator=None) -> Engine:
    extra = {"creator": creator} if creator else {}  # a creator replaces the URL's own connect (immutable reads)
    engine = create_engine(url, poolclass=NullPool, connect_args={"timeout": SQLITE_BUSY_SECONDS,
                                                                  "check_same_thread": False}, **extra)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def postgres_engine(url: URL, limits: PoolLimits) -> Engine:
    statement_ms = max(1, round(limits.statement_timeout * 1000))
    connect_args = {"connect_timeout": max(2, math.ceil(limits.connect_timeout)),  # libpq's floor is 2 s
                    "options": f"-c statement_timeout={statement_ms}", "application_name": "chiqa"}
    return create_engine(url, pool_size=limits.pool_size, max_overflow=limits.max_overflow,
                         pool_timeout=limits.pool_timeout, pool_pre_ping=True, connect_args=connect_args)


def open_engine(url: str | URL, limits: PoolLimits | None = None) -> Engine:
    """The engine for ``url`` (no connection is made yet). StoreConfigError for a URL ChiQA cannot use."""
    parsed = parse_url(url)
    if parsed.drivername == "sqlite":
        return sqlite_engine(parsed)
    return postgres_engine(parsed, limits or PoolLimits())
