"""Run history: every answered question with its full result, in SQLite (var_dir/runs.sqlite3).

What is derived from a result (answer pattern, latency) and the statistics are in web/run_stats.py.

One row per run: the full result JSON (what the page renders again on /runs/<id>) plus the
columns the stats need: created_at, latency, stop reason, number of tool calls (and how many
were duplicates or errors), backend, model, answer pattern, feedback rating and comment.

Conversations: every run stored by /api/ask, /api/ask/stream and the CLI belongs to one
(``conversation_id``, ``turn`` columns; a first question starts a new one), so a conversation is its
runs ordered by turn and each turn keeps its own permalink. Turn numbers are assigned inside the
insert's transaction, so two answers finishing at once in the same conversation never share a number.
Runs from /v1 and MCP have neither.

Owners and share keys (who can see what, docs/operations.md): each run stored through the web app carries
``owner``, the SHA-256 of its client's token (web/access.py), and ``share_key``, an unguessable capability that
the run's permalink holds. Reads take an ``owner`` argument: ANY (the default, for the CLI and the operator)
reads everything; a hash reads only that client's runs; None reads only unowned runs (stores made before
owners existed, the CLI's and MCP's runs). Legacy rows get both columns as NULL: no web client owns them and
they have no share key, so the web app shows them to nobody.

Thread/process safety: a fresh connection per call (cheap for SQLite), WAL journal so several
gunicorn workers can read while one writes, and a busy timeout so writers wait, not fail.

Faults never cost an answer: a store that cannot be written (read-only file or folder, full disk)
raises StoreUnavailable, which the API turns into ``saved: false`` on the answer, and the store
reports itself degraded in /api/health until a later write succeeds (every write tries again). A
corrupt file is renamed ``runs.sqlite3.corrupt-<UTC time>`` (never deleted), logged, shown in health,
and a fresh store is created in its place. Reads of a read-only store fall back to SQLite's
immutable mode.
"""
from __future__ import annotations

import json
import logging
import os
import re
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from store import run_stats
from store.run_stats import answer_pattern, backend_name, latency_ms, tool_call_records

log = logging.getLogger("chiqa.store")
# Lone UTF-16 surrogates (from JSON "\ud800" escapes) cannot be encoded as UTF-8; SQLite and the
# JSON responses would fail on them, so they become U+FFFD before anything is stored.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
CORRUPT_CODES = {"SQLITE_NOTADB", "SQLITE_CORRUPT"}


class StoreUnavailable(RuntimeError):
    """The run store cannot be read or written right now; the message says why."""


class ConversationFull(RuntimeError):
    """save_turn refused a turn: the conversation already holds its cap of turns (checked inside the insert's
    write transaction, so concurrent follow-ups can never store more than the cap)."""

    def __init__(self, conversation_id: str, max_turns: int):
        super().__init__(f"this conversation has reached its limit of {max_turns} turns; the answer was not "
                         "stored. Start a new conversation (ask without a conversation_id) to go on")
        self.conversation_id, self.max_turns = conversation_id, max_turns


def scrub_text(text: str) -> str:
    return LONE_SURROGATE.sub("\ufffd", text)


def _is_corrupt(exc: Exception) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc).lower()
    return name in CORRUPT_CODES or "not a database" in text or "malformed" in text


def _utc(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    question TEXT NOT NULL,
    latency_ms REAL,
    stopped_because TEXT,
    partial INTEGER NOT NULL DEFAULT 0,
    n_tool_calls INTEGER NOT NULL DEFAULT 0,
    n_duplicate INTEGER NOT NULL DEFAULT 0,
    n_error INTEGER NOT NULL DEFAULT 0,
    backend TEXT,
    model TEXT,
    answer_pattern TEXT,
    result_json TEXT NOT NULL,
    rating INTEGER,
    comment TEXT,
    feedback_at REAL,
    conversation_id TEXT,
    turn INTEGER,
    owner TEXT,
    share_key TEXT
);
CREATE INDEX IF NOT EXISTS runs_created ON runs (created_at DESC);
"""
# Stores created before conversations existed get the two columns added on first open.
MIGRATIONS = (("conversation_id", "ALTER TABLE runs ADD COLUMN conversation_id TEXT"),
              ("turn", "ALTER TABLE runs ADD COLUMN turn INTEGER"),
              # Stores created before owners existed: NULL = legacy/unowned (readable by no web client).
              ("owner", "ALTER TABLE runs ADD COLUMN owner TEXT"),
              ("share_key", "ALTER TABLE runs ADD COLUMN share_key TEXT"))
INDEXES = ("CREATE INDEX IF NOT EXISTS runs_conversation ON runs (conversation_id, turn);"
           "CREATE INDEX IF NOT EXISTS runs_owner ON runs (owner, created_at DESC);")
SUMMARY_COLUMNS = ("id, created_at, question, latency_ms, stopped_because, partial, n_tool_calls, n_duplicate,"
                   " n_error, backend, model, answer_pattern, rating, comment, conversation_id, turn, owner, share_key")
ANY = object()  # the ``owner`` of a read that is not limited to one client (the CLI, the operator)


def _owned(owner) -> tuple[str, tuple]:
    """The SQL condition (to AND in) and its parameters limiting rows to ``owner``."""
    if owner is ANY:
        return "1", ()
    if owner is None:
        return "owner IS NULL", ()
    return "owner = ?", (owner,)

class RunStore:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._init_lock = threading.Lock()
        self._ready = False
        self.error: str | None = None  # the last failure, until a write succeeds again
        self.error_at: float | None = None
        self.unsaved = 0  # answers that could not be stored
        self.moved_aside: list[dict] = []  # corrupt files renamed by this process

    # ------------------------------------------------------------ connections
    def _connect(self, uri: str | None = None) -> sqlite3.Connection:
        if uri:
            conn = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
        else:
            conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 30000")
        return conn

    @contextmanager
    def _conn(self):
        self._ensure_schema()
        conn = self._connect()
        try:
            yield conn
        finally:
            conn.close()

    def _ensure_schema(self) -> None:
        if self._ready:
            return
        with self._init_lock:
            if self._ready:
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Switching to WAL takes an exclusive lock without waiting on the busy timeout, so two
            # processes creating the store at once can see "database is locked": retry briefly.
            for attempt in range(50):
                conn = self._connect()
                try:
                    conn.execute("PRAGMA journal_mode = WAL")
                    conn.executescript(SCHEMA)
                    columns = {row[1] for row in conn.execute("PRAGMA table_info(runs)")}
                    for column, statement in MIGRATIONS:
                        if column not in columns:
                            conn.execute(statement)
                    conn.executescript(INDEXES)
                    break
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or attempt == 49:
                        raise
                    time.sleep(0.05)
                finally:
                    conn.close()
            self._ready = True

    # ------------------------------------------------------------ fault handling
    def _do(self, op, write: bool):
        """op(conn) with recovery: a corrupt file is moved aside and the op retried once; a store that
        cannot be written or read raises StoreUnavailable (reads first try SQLite's immutable mode)."""
        for attempt in (1, 2):
            try:
                with self._conn() as conn:
                    value = op(conn)
            except (sqlite3.Error, OSError) as exc:
                self._ready = False  # the next call sets the schema up again
                if attempt == 1 and _is_corrupt(exc) and self._move_aside(exc):
                    continue
                if not write and not _is_corrupt(exc):
                    try:
                        return self._read_immutable(op)
                    except (sqlite3.Error, OSError):
                        pass
                self._failed(exc, write)
                raise StoreUnavailable(self.error) from None
            if write:
                self.error = self.error_at = None
            return value

    def _read_immutable(self, op):
        conn = self._connect(f"file:{self.path}?mode=ro&immutable=1")
        try:
            return op(conn)
        finally:
            conn.close()

    def _failed(self, exc: Exception, write: bool) -> None:
        what = "write" if write else "read"
        self.error = f"the run store {self.path} cannot {what}: {type(exc).__name__}: {exc}"
        self.error_at = time.time()
        log.error("%s", self.error)

    def _still_corrupt(self) -> bool:
        try:
            conn = self._connect()
            try:
                conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
                verdict = conn.execute("PRAGMA quick_check").fetchone()
                if verdict is None or verdict[0] != "ok":  # damage is reported as rows, not raised
                    return True
            finally:
                conn.close()
        except sqlite3.Error as exc:
            return _is_corrupt(exc)
        return False

    def _move_aside(self, exc: Exception) -> bool:
        """Rename the corrupt file (and its -wal/-shm) to <name>.corrupt-<UTC time>; True when the store
        can be recreated (also when another thread or process already did it)."""
        with self._init_lock:
            if not self.path.exists() or not self._still_corrupt():
                return True
            stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
            n = 1
            while target.exists():
                n += 1
                target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
            try:
                os.replace(self.path, target)
                for suffix in ("-wal", "-shm"):
                    side = Path(f"{self.path}{suffix}")
                    if side.exists():
                        os.replace(side, Path(f"{target}{suffix}"))
            except OSError as move_error:
                log.error("the run store %s is corrupt (%s) and could not be moved aside: %s", self.path, exc,
                          move_error)
                return False
            self.moved_aside.append({"path": str(target), "at": _utc(time.time()), "reason": str(exc)})
            log.error("the run store %s was corrupt (%s); moved it to %s and started a new one", self.path, exc, target)
            return True

    def health(self) -> dict:
        return {"state": "degraded" if self.error else "ok", "path": str(self.path), "error": self.error,
                "error_at": _utc(self.error_at) if self.error_at else None, "unsaved_runs": self.unsaved,
                "moved_aside": list(self.moved_aside)}

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
        ConversationFull, decided inside the same write transaction as the insert. ``owner`` (a token hash) and
        ``share_key`` are stored with the run. Raises StoreUnavailable."""
        run_id = secrets.token_hex(8)
        calls = tool_call_records(result)
        lat = latency if latency is not None else latency_ms(result)
        row = (
            run_id, time.time(), scrub_text(str(result.get("question") or "")), lat,
            result.get("stopped_because"), 1 if result.get("partial") else 0, len(calls),
            sum(1 for c in calls if c["status"] == "duplicate"),
            sum(1 for c in calls if c["status"] == "error"),
            backend_name(result), result.get("model"), answer_pattern(result),
            scrub_text(json.dumps(result, default=str, ensure_ascii=False)),
        )

        def insert(conn) -> int | None:
            conn.execute("BEGIN IMMEDIATE")  # the turn number and the insert in one write transaction
            try:
                turn = None
                if conversation_id:
                    held, last = conn.execute("SELECT COUNT(*), COALESCE(MAX(turn), 0) FROM runs"
                                              " WHERE conversation_id = ?", (conversation_id,)).fetchone()
                    if max_turns is not None and held >= max_turns:
                        raise ConversationFull(conversation_id, max_turns)
                    turn = 1 + last
                conn.execute(
                    "INSERT INTO runs (id, created_at, question, latency_ms, stopped_because, partial, n_tool_calls,"
                    " n_duplicate, n_error, backend, model, answer_pattern, result_json, conversation_id, turn,"
                    " owner, share_key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    row + (conversation_id, turn, owner, share_key))
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # a failed BEGIN leaves nothing to roll back
                    conn.execute("ROLLBACK")
                raise
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
        where, params = _owned(owner)
        return self._do(lambda conn: conn.execute(
            f"UPDATE runs SET rating = ?, comment = ?, feedback_at = ? WHERE id = ? AND {where}",
            (int(rating), comment, time.time(), run_id) + params).rowcount > 0, write=True)

    # ------------------------------------------------------------ reads
    def get(self, run_id: str) -> dict | None:
        row = self._do(lambda conn: conn.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone(), write=False)
        if row is None:
            return None
        out = self._summary(row)
        out["result"] = json.loads(row["result_json"])
        return out

    def exists(self, run_id: str) -> bool:
        return self._do(lambda conn: conn.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone() is not None,
                        write=False)

    def recent(self, limit: int = 20, offset: int = 0, owner=ANY) -> tuple[list[dict], int]:
        where, params = _owned(owner)

        def op(conn):
            rows = conn.execute(f"SELECT {SUMMARY_COLUMNS} FROM runs WHERE {where}"
                                " ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
                                params + (limit, offset)).fetchall()
            return rows, conn.execute(f"SELECT COUNT(*) FROM runs WHERE {where}", params).fetchone()[0]

        rows, total = self._do(op, write=False)
        return [self._summary(r) for r in rows], total

    def conversation_turns(self, conversation_id: str, owner=ANY) -> list[dict]:
        """The conversation's turns, oldest first: run_id, turn, created_at, question, answer, analysis and
        share_key. Only ``owner``'s: another client's conversation has no turns for it."""
        where, params = _owned(owner)
        rows = self._do(lambda conn: conn.execute(
            "SELECT id, turn, created_at, question, result_json, share_key FROM runs"
            f" WHERE conversation_id = ? AND {where} ORDER BY turn", (conversation_id,) + params).fetchall(),
            write=False)
        turns = []
        for row in rows:
            result = json.loads(row["result_json"])
            turns.append({"run_id": row["id"], "turn": row["turn"], "created_at": row["created_at"],
                          "question": row["question"], "answer": result.get("answer") or "",
                          "analysis": result.get("analysis") or {}, "share_key": row["share_key"]})
        return turns

    def turn_count(self, conversation_id: str) -> int:
        return self._do(lambda conn: conn.execute("SELECT COUNT(*) FROM runs WHERE conversation_id = ?",
                                                  (conversation_id,)).fetchone()[0], write=False)

    def last_conversation_id(self) -> str | None:
        """The conversation of the most recent run that has one."""
        row = self._do(lambda conn: conn.execute(
            "SELECT conversation_id FROM runs WHERE conversation_id IS NOT NULL"
            " ORDER BY created_at DESC, rowid DESC LIMIT 1").fetchone(), write=False)
        return row[0] if row else None

    def count(self) -> int:
        return self._do(lambda conn: conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0], write=False)

    @staticmethod
    def _summary(row: sqlite3.Row) -> dict:
        return {
            "id": row["id"],
            "created_at": row["created_at"],
            "created_at_iso": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(row["created_at"])),
            "question": row["question"],
            "latency_ms": row["latency_ms"],
            "stopped_because": row["stopped_because"],
            "partial": bool(row["partial"]),
            "n_tool_calls": row["n_tool_calls"],
            "n_duplicate": row["n_duplicate"],
            "n_error": row["n_error"],
            "backend": row["backend"],
            "model": row["model"],
            "answer_pattern": row["answer_pattern"],
            "rating": row["rating"],
            "comment": row["comment"],
            "conversation_id": row["conversation_id"],
            "turn": row["turn"],
            "owner": row["owner"],
            "share_key": row["share_key"],
        }

    def stats(self) -> dict:
        return self._do(run_stats.stats, write=False)
