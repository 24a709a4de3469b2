"""Run history: every answered question with its full result, in SQLite (the default, var_dir/runs.sqlite3) or,
for several web nodes sharing one history, PostgreSQL (``store.url``; store/database.py). The queries are written
once (SQLAlchemy Core); the tables are in store/tables.py, their versions in store/migrations.py, and what is
derived from a result (answer pattern, latency) and the statistics in store/run_stats.py.

One row per run: the full result JSON (what the page renders again on /runs/<id>) plus the columns the stats need:
created_at, latency, stop reason, number of tool calls (and how many were duplicates or errors), backend, model,
answer pattern, feedback rating and comment.

Conversations: every run stored by /api/ask, /api/ask/stream and the CLI belongs to one (``conversation_id``,
``turn`` columns; a first question starts a new one), so a conversation is its runs ordered by turn and each turn
keeps its own permalink. Runs from /v1 and MCP have neither. A turn number is taken by one conditional UPDATE of
the conversation's row (``turns = turns + 1 WHERE turns < cap``) in the same transaction as the insert: the
database serialises racing follow-ups on that row (SQLite: the write lock; PostgreSQL: the row lock, the condition
read again after the wait), so two answers never share a number and the cap is never passed, on one node or many.

Owners and share keys (who can see what, docs/operations.md): each run stored through the web app carries
``owner``, the SHA-256 of its client's token (web/access.py), and ``share_key``, an unguessable capability that
the run's permalink holds. Reads take an ``owner`` argument: ANY (the default, for the CLI and the operator)
reads everything; a hash reads only that client's runs; None reads only unowned runs (stores made before
owners existed, the CLI's and MCP's runs). Legacy rows get both columns as NULL: no web client owns them and
they have no share key, so the web app shows them to nobody.

Faults never cost an answer: a store that cannot be written (read-only file, folder or database, full disk, a
server that is down or too slow) raises StoreUnavailable, which the API turns into ``saved: false`` on the answer,
and the store reports itself degraded in /api/health until a later write succeeds (every write tries again). A
corrupt SQLite file is renamed ``runs.sqlite3.corrupt-<UTC time>`` (never deleted), logged, shown in health, and a
fresh store is created in its place; reads of a read-only SQLite file fall back to SQLite's immutable mode
(store/sqlite_file.py).
"""
from __future__ import annotations

import json
import logging
import re
import secrets
import sqlite3
import threading
import time
from pathlib import Path

from sqlalchemy import func, select, true, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from settings.schema import Settings
from store import run_stats
from store.database import SQLITE_BUSY_SECONDS, WRITE, PoolLimits, open_engine, parse_url, store_url
from store.migrations import SchemaTooNew, upgrade
from store.run_stats import answer_pattern, backend_name, latency_ms, tool_call_records
from store.sqlite_file import (
    ForeignStoreFile,
    check_intact,
    claim_store_file,
    enable_wal,
    immutable_engine,
    is_corrupt,
    mark_as_ours,
    move_aside,
)
from store.tables import SUMMARY_COLUMNS, conversations, runs

log = logging.getLogger("chiqa.store")
# Lone UTF-16 surrogates (from JSON "\ud800" escapes) cannot be encoded as UTF-8, and PostgreSQL's text cannot hold
# NUL; the databases and the JSON responses would fail on them, so they become U+FFFD before anything is stored.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
UNSTORABLE = re.compile("[\ud800-\udfff\x00]")
BACKGROUND_LINK = re.compile(r"\s*\(Background on this error at: [^)]*\)")
# What a database in trouble raises: SQLAlchemy's wrapped errors, the file system's, and sqlite3's own from the
# few raw connections (switching on WAL).
FAULTS = (SQLAlchemyError, OSError, sqlite3.Error)


class StoreUnavailable(RuntimeError):
    """The run store cannot be read or written right now; the message says why."""


class ConversationFull(RuntimeError):
    """save_turn refused a turn: the conversation already holds its cap of turns (decided inside the insert's
    transaction, so concurrent follow-ups can never store more than the cap)."""

    def __init__(self, conversation_id: str, max_turns: int):
        super().__init__(f"this conversation has reached its limit of {max_turns} turns; the answer was not "
                         "stored. Start a new conversation (ask without a conversation_id) to go on")
        self.conversation_id, self.max_turns = conversation_id, max_turns


def scrub_text(text: str) -> str:
    return UNSTORABLE.sub("\ufffd", text)


def _utc(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def describe_error(exc: BaseException) -> str:
    """The driver's own error in one line (SQLAlchemy's wrapper adds the statement and a web link)."""
    inner = getattr(exc, "orig", None) or exc
    return f"{type(inner).__name__}: {' '.join(BACKGROUND_LINK.sub('', str(inner)).split())}"


ANY = object()  # the ``owner`` of a read that is not limited to one client (the CLI, the operator)


def _owned(owner):
    """The condition limiting rows to ``owner``."""
    if owner is ANY:
        return true()
    if owner is None:
        return runs.c.owner.is_(None)
    return runs.c.owner == owner


def dialect_insert(conn, table):
    """An INSERT in the connection's own dialect, the one that has ON CONFLICT (spelt the same by both)."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


def _next_turn(conn, conversation_id: str, max_turns: int | None, now: float) -> int:
    """Take the conversation's next turn number inside the caller's transaction, or raise ConversationFull."""
    conn.execute(dialect_insert(conn, conversations).values(id=conversation_id, turns=0, created_at=now)
                 .on_conflict_do_nothing(index_elements=["id"]))
    bump = (update(conversations).where(conversations.c.id == conversation_id)
            .values(turns=conversations.c.turns + 1).returning(conversations.c.turns))
    if max_turns is not None:
        bump = bump.where(conversations.c.turns < max_turns)
    turn = conn.execute(bump).scalar()
    if turn is None:
        raise ConversationFull(conversation_id, max_turns)
    return turn


def _summary(row) -> dict:
    out = {column.name: row._mapping[column.name] for column in SUMMARY_COLUMNS}
    out["created_at_iso"] = _utc(out["created_at"])
    out["partial"] = bool(out["partial"])
    return out


class RunStore:
    def __init__(self, target: str | Path | URL, limits: PoolLimits | None = None):
        """``target``: a database URL (store/database.py), or the path of a SQLite file."""
        if isinstance(target, Path) or (isinstance(target, str) and "://" not in target):
            target = URL.create("sqlite", database=str(target))
        url = parse_url(target)
        self.engine = open_engine(url, limits)
        self._writer = self.engine.execution_options(**WRITE)
        self.database = self.engine.dialect.name  # "sqlite" or "postgresql"
        self.path = Path(url.database) if self.database == "sqlite" else None  # the file, for SQLite
        self.where = str(self.path) if self.path else url.render_as_string(hide_password=True)
        self._init_lock = threading.Lock()
        self._write_lock = threading.Lock()  # SQLite: this process's writers take turns (see _do)
        self._ready = False
        self.error: str | None = None  # the last failure, until a write succeeds again
        self.error_at: float | None = None
        self.unsaved = 0  # answers that could not be stored
        self.moved_aside: list[dict] = []  # corrupt files renamed by this process
        self.migrated: list[int] = []  # the schema versions this process applied
        if self.path is not None:
            claim_store_file(self.path)  # a file that is not ChiQA's is refused here, before anything opens it

    def close(self) -> None:
        """Close pooled connections (a process about to fork must not hand its sockets to the children)."""
        self.engine.dispose()

    # ------------------------------------------------------------ schema
    def prepare(self) -> list[int]:
        """Bring the schema up to date now (start-up); the migration versions applied. Raises StoreUnavailable
        when the database cannot be reached or written, SchemaTooNew when another node has a newer schema."""
        try:
            self._ensure_schema()
        except FAULTS as exc:  # not logged: start-up prints it as its one line
            raise StoreUnavailable(self._problem(exc, write=True)) from None
        return self.migrated

    def _ensure_schema(self) -> None:
        if self._ready:
            return
        with self._init_lock:
            if self._ready:
                return
            if self.path is not None:
                claim_store_file(self.path)  # again: the file may have been replaced since the last check
                self.path.parent.mkdir(parents=True, exist_ok=True)
                enable_wal(self.engine)
            with self._writer.begin() as conn:
                self.migrated = upgrade(conn, check_intact if self.path is not None else None)
                if self.path is not None:
                    mark_as_ours(conn)
            if self.migrated:
                log.info("the run store %s was migrated to schema version %s", self.where, self.migrated[-1])
            self._ready = True

    # ------------------------------------------------------------ fault handling
    def _do(self, op, write: bool):
        """op(conn) in one transaction, with recovery: a corrupt SQLite file is moved aside and the op retried once;
        a store that cannot be written or read raises StoreUnavailable (SQLite reads first try immutable mode).

        SQLite writes of this process take turns on a lock, and the whole wait (for that lock, then for a lock
        another program holds on the file) fits in SQLITE_BUSY_SECONDS: a computed answer is delayed by that at
        most, then returned unsaved. (SQLite's own busy wait sleeps and retries, so a dozen threads left to it
        alone could starve one of them past the limit under load.)"""
        if not write or self.path is None:
            return self._attempts(op, write, self._writer)
        deadline = time.monotonic() + SQLITE_BUSY_SECONDS
        if not self._write_lock.acquire(timeout=SQLITE_BUSY_SECONDS):
            self._failed(TimeoutError(f"other writes kept it locked for {SQLITE_BUSY_SECONDS} s"), write)
            raise StoreUnavailable(self.error)
        try:
            left_ms = max(1, round((deadline - time.monotonic()) * 1000))
            return self._attempts(op, write, self._writer.execution_options(chiqa_busy_ms=left_ms))
        finally:
            self._write_lock.release()

    def _attempts(self, op, write: bool, writer):
        for attempt in (1, 2):
            try:
                self._ensure_schema()
                with (writer.begin() if write else self.engine.connect()) as conn:
                    value = op(conn)
            except ForeignStoreFile as exc:  # swapped in while serving: never written, moved or read as ours
                self._ready = False
                self.error, self.error_at = str(exc), time.time()
                log.error("%s", self.error)
                raise StoreUnavailable(self.error) from None
            except (*FAULTS, SchemaTooNew) as exc:
                self._ready = False  # the next call checks the schema again
                if attempt == 1 and self._recovered_from_corruption(exc):
                    continue
                if not write and self.path is not None and not is_corrupt(exc):
                    try:
                        return self._read_immutable(op)
                    except FAULTS:
                        pass
                self._failed(exc, write)
                raise StoreUnavailable(self.error) from None
            if write:
                self.error = self.error_at = None
            return value

    def _recovered_from_corruption(self, exc: BaseException) -> bool:
        """A corrupt SQLite file moved aside (by us or by another worker): the op can be tried again."""
        if self.path is None or not is_corrupt(exc):
            return False
        with self._init_lock:
            moved = move_aside(self.path, getattr(exc, "orig", None) or exc)
        if moved:
            self.moved_aside.append(moved)
        return moved is not None

    def _read_immutable(self, op):
        engine = immutable_engine(self.path)
        try:
            with engine.connect() as conn:
                return op(conn)
        finally:
            engine.dispose()

    def _problem(self, exc: BaseException, write: bool) -> str:
        return f"the run store {self.where} cannot {'write' if write else 'read'}: {describe_error(exc)}"

    def _failed(self, exc: BaseException, write: bool) -> None:
        self.error = self._problem(exc, write)
        self.error_at = time.time()
        log.error("%s", self.error)

    def _reachable_error(self) -> str | None:
        """For a database server: why it cannot be reached now (health asks every worker, not only the one
        whose write failed); None when it answers."""
        if self.path is not None:
            return None
        try:
            with self.engine.connect() as conn:
                conn.execute(select(1))
        except SQLAlchemyError as exc:
            return f"the run store {self.where} cannot be reached: {describe_error(exc)}"
        return None

    def health(self) -> dict:
        unreachable = self._reachable_error()
        error = self.error or unreachable
        return {"state": "degraded" if error else "ok", "database": self.database, "path": self.where,
                "error": error, "error_at": _utc(self.error_at) if self.error_at else None,
                "unsaved_runs": self.unsaved, "moved_aside": list(self.moved_aside)}

    # ------------------------------------------------------------ writes
    def save(self, result: dict, latency: float | None = None) -> str:
        """Store one answered run outside any conversation; returns its id (16 hex characters). Raises
        StoreUnavailable."""
        return self.save_turn(result, None, latency)[0]

    def save_turn(self, result: dict, conversation_id: str | None,
                  latency: float | None = None, max_turns: int | None = None, owner: str | None = None,
                  share_key: str | None = None) -> tuple[str, int | None]:
        """Store one answered run as the next turn of a conversation (none: a lone run); returns (run id, turn
        number or None). With ``max_turns``, a conversation that already holds that many turns is refused with
        ConversationFull, decided inside the same transaction as the insert. ``owner`` (a token hash) and
        ``share_key`` are stored with the run. Raises StoreUnavailable."""
        run_id = secrets.token_hex(8)
        calls = tool_call_records(result)
        now = time.time()
        row = {
            "id": run_id, "created_at": now, "question": scrub_text(str(result.get("question") or "")),
            "latency_ms": latency if latency is not None else latency_ms(result),
            "stopped_because": result.get("stopped_because"), "partial": 1 if result.get("partial") else 0,
            "n_tool_calls": len(calls), "n_duplicate": sum(1 for c in calls if c["status"] == "duplicate"),
            "n_error": sum(1 for c in calls if c["status"] == "error"),
            "backend": backend_name(result), "model": result.get("model"), "answer_pattern": answer_pattern(result),
            "result_json": scrub_text(json.dumps(result, default=str, ensure_ascii=False)),
            "conversation_id": conversation_id, "owner": owner, "share_key": share_key,
        }

        def insert(conn) -> int | None:
            turn = _next_turn(conn, conversation_id, max_turns, now) if conversation_id else None
            conn.execute(runs.insert().values(**row, turn=turn))
            return turn

        try:
            turn = self._do(insert, write=True)
        except StoreUnavailable:
            self.unsaved += 1
            raise
        return run_id, turn

    def set_feedback(self, run_id: str, rating: int, comment: str | None = None, owner=ANY) -> bool:
        """False when no run of ``owner`` has that id."""
        comment = scrub_text(comment) if comment is not None else None
        change = (update(runs).where(runs.c.id == run_id, _owned(owner))
                  .values(rating=int(rating), comment=comment, feedback_at=time.time()))
        return self._do(lambda conn: conn.execute(change).rowcount > 0, write=True)

    # ------------------------------------------------------------ reads
    def get(self, run_id: str) -> dict | None:
        row = self._do(lambda conn: conn.execute(select(runs).where(runs.c.id == run_id)).first(), write=False)
        if row is None:
            return None
        out = _summary(row)
        out["result"] = json.loads(row.result_json)
        return out

    def exists(self, run_id: str) -> bool:
        return self._do(lambda conn: conn.execute(select(runs.c.id).where(runs.c.id == run_id)).first() is not None,
                        write=False)

    def recent(self, limit: int = 20, offset: int = 0, owner=ANY) -> tuple[list[dict], int]:
        mine = _owned(owner)

        def op(conn):
            # id breaks a tie of created_at (two runs in the same microsecond): any order, but always the same one
            rows = conn.execute(select(*SUMMARY_COLUMNS).where(mine).order_by(runs.c.created_at.desc(),
                                runs.c.id.desc()).limit(limit).offset(offset)).all()
            return rows, conn.execute(select(func.count()).select_from(runs).where(mine)).scalar()

        rows, total = self._do(op, write=False)
        return [_summary(r) for r in rows], total

    def conversation_turns(self, conversation_id: str, owner=ANY) -> list[dict]:
        """The conversation's turns, oldest first: run_id, turn, created_at, question, answer, analysis and
        share_key. Only ``owner``'s: another client's conversation has no turns for it."""
        query = (select(runs.c.id, runs.c.turn, runs.c.created_at, runs.c.question, runs.c.result_json,
                        runs.c.share_key).where(runs.c.conversation_id == conversation_id, _owned(owner))
                 .order_by(runs.c.turn))
        rows = self._do(lambda conn: conn.execute(query).all(), write=False)
        turns = []
        for row in rows:
            result = json.loads(row.result_json)
            turns.append({"run_id": row.id, "turn": row.turn, "created_at": row.created_at,
                          "question": row.question, "answer": result.get("answer") or "",
                          "analysis": result.get("analysis") or {}, "share_key": row.share_key})
        return turns

    def turn_count(self, conversation_id: str) -> int:
        query = select(func.count()).select_from(runs).where(runs.c.conversation_id == conversation_id)
        return self._do(lambda conn: conn.execute(query).scalar(), write=False)

    def last_conversation_id(self) -> str | None:
        """The conversation of the most recent run that has one."""
        query = (select(runs.c.conversation_id).where(runs.c.conversation_id.is_not(None))
                 .order_by(runs.c.created_at.desc(), runs.c.id.desc()).limit(1))
        return self._do(lambda conn: conn.execute(query).scalar(), write=False)

    def count(self) -> int:
        return self._do(lambda conn: conn.execute(select(func.count()).select_from(runs)).scalar(), write=False)

    def stats(self) -> dict:
        return self._do(run_stats.stats, write=False)


def open_store(settings: Settings) -> RunStore:
    """The run store ``store.url`` names (default: var_dir/runs.sqlite3). StoreConfigError for a URL ChiQA cannot
    use; nothing is connected yet."""
    return RunStore(store_url(settings), PoolLimits.from_settings(settings))
