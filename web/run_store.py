"""Run history: every answered question with its full result, in SQLite (var_dir/runs.sqlite3).

One row per run: the full result JSON (what the page renders again on /runs/<id>) plus the
columns the stats need: created_at, latency, stop reason, number of tool calls (and how many
were duplicates or errors), backend, model, answer pattern, feedback rating and comment.

Answer pattern: the ordered sequence of tool names the run called, joined with " > "
(e.g. "query_homicides_advanced > compare_areas"), or "(no tools)" when the model answered
without data. Repeated calls stay in the sequence, so the pattern shows retry behaviour too.
Feedback is grouped by this pattern in /api/stats.

Conversations: every run belongs to one (``conversation_id``, ``turn`` columns; a first question
starts a new one), so a conversation is its runs ordered by turn and each turn keeps its own
permalink. Turn numbers are assigned inside the insert's transaction, so two answers finishing at
once in the same conversation never share a number.

Thread/process safety: a fresh connection per call (cheap for SQLite), WAL journal so several
gunicorn workers can read while one writes, and a busy timeout so writers wait, not fail.
"""
from __future__ import annotations

import json
import math
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

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
    turn INTEGER
);
CREATE INDEX IF NOT EXISTS runs_created ON runs (created_at DESC);
"""
# Stores created before conversations existed get the two columns added on first open.
MIGRATIONS = (("conversation_id", "ALTER TABLE runs ADD COLUMN conversation_id TEXT"),
              ("turn", "ALTER TABLE runs ADD COLUMN turn INTEGER"))
INDEXES = "CREATE INDEX IF NOT EXISTS runs_conversation ON runs (conversation_id, turn);"

NO_TOOLS = "(no tools)"


def tool_call_records(result: dict) -> list[dict]:
    """The run's tool calls as [{"name", "status"}], from result["tool_calls"] or the trace."""
    calls = result.get("tool_calls")
    records = []
    if isinstance(calls, list):
        for call in calls:
            if isinstance(call, dict):
                records.append({"name": str(call.get("name") or call.get("tool") or "?"),
                                "status": _status_of(call)})
        return records
    for step in result.get("trace") or []:
        if isinstance(step, dict) and step.get("type") == "tool_call":
            records.append({"name": str(step.get("name") or (step.get("result") or {}).get("tool") or "?"),
                            "status": _status_of(step)})
    return records


def _status_of(call: dict) -> str:
    status = call.get("status")
    if status:
        return str(status)
    inner = call.get("result")
    if isinstance(inner, dict) and inner.get("ok") is False:
        return "error"
    return "ok"


def answer_pattern(result: dict) -> str:
    names = [c["name"] for c in tool_call_records(result)]
    return " > ".join(names) if names else NO_TOOLS


def latency_ms(result: dict) -> float | None:
    timings = result.get("timings") or {}
    for key in ("total_ms", "total", "wall_ms", "elapsed_ms"):
        value = timings.get(key) if isinstance(timings, dict) else None
        if isinstance(value, (int, float)):
            return float(value)
    return None


def _backend_name(result: dict) -> str | None:
    backend = result.get("backend")
    if isinstance(backend, dict):
        return backend.get("backend") or backend.get("name")
    return backend


def _percentile(sorted_values: list[float], q: float) -> float | None:
    if not sorted_values:
        return None
    # nearest-rank percentile
    rank = max(1, math.ceil(q / 100.0 * len(sorted_values)))
    return round(sorted_values[min(rank, len(sorted_values)) - 1], 1)


class RunStore:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._init_lock = threading.Lock()
        self._ready = False

    # ------------------------------------------------------------ connections
    def _connect(self) -> sqlite3.Connection:
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

    # ------------------------------------------------------------ writes
    def save(self, result: dict, latency: float | None = None) -> str:
        """Store one answered run (outside any conversation); returns its id (16 hex characters)."""
        return self.save_turn(result, None, latency)[0]

    def save_turn(self, result: dict, conversation_id: str | None,
                  latency: float | None = None) -> tuple[str, int | None]:
        """Store one answered run as the next turn of a conversation; returns (run id, turn number)."""
        run_id = secrets.token_hex(8)
        calls = tool_call_records(result)
        lat = latency if latency is not None else latency_ms(result)
        row = (
            run_id, time.time(), str(result.get("question") or ""), lat,
            result.get("stopped_because"), 1 if result.get("partial") else 0, len(calls),
            sum(1 for c in calls if c["status"] == "duplicate"),
            sum(1 for c in calls if c["status"] == "error"),
            _backend_name(result), result.get("model"), answer_pattern(result),
            json.dumps(result, default=str, ensure_ascii=False),
        )
        with self._conn() as conn:
            conn.execute("BEGIN IMMEDIATE")  # the turn number and the insert in one write transaction
            try:
                turn = None
                if conversation_id:
                    turn = 1 + conn.execute("SELECT COALESCE(MAX(turn), 0) FROM runs WHERE conversation_id = ?",
                                            (conversation_id,)).fetchone()[0]
                conn.execute(
                    "INSERT INTO runs (id, created_at, question, latency_ms, stopped_because, partial, n_tool_calls,"
                    " n_duplicate, n_error, backend, model, answer_pattern, result_json, conversation_id, turn)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", row + (conversation_id, turn))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return run_id, turn

    def set_feedback(self, run_id: str, rating: int, comment: str | None = None) -> bool:
        with self._conn() as conn:
            cur = conn.execute("UPDATE runs SET rating = ?, comment = ?, feedback_at = ? WHERE id = ?",
                               (int(rating), comment, time.time(), run_id))
            return cur.rowcount > 0

    # ------------------------------------------------------------ reads
    def get(self, run_id: str) -> dict | None:
        with self._conn() as conn:
            row = conn.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        out = self._summary(row)
        out["result"] = json.loads(row["result_json"])
        return out

    def exists(self, run_id: str) -> bool:
        with self._conn() as conn:
            return conn.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone() is not None

    def recent(self, limit: int = 20, offset: int = 0) -> tuple[list[dict], int]:
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT id, created_at, question, latency_ms, stopped_because, partial, n_tool_calls, n_duplicate,"
                " n_error, backend, model, answer_pattern, rating, comment, conversation_id, turn FROM runs"
                " ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?", (limit, offset)).fetchall()
            total = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        return [self._summary(r) for r in rows], total

    def conversation_turns(self, conversation_id: str) -> list[dict]:
        """The conversation's turns, oldest first: run_id, turn, created_at, question, answer and analysis."""
        with self._conn() as conn:
            rows = conn.execute("SELECT id, turn, created_at, question, result_json FROM runs"
                                " WHERE conversation_id = ? ORDER BY turn", (conversation_id,)).fetchall()
        turns = []
        for row in rows:
            result = json.loads(row["result_json"])
            turns.append({"run_id": row["id"], "turn": row["turn"], "created_at": row["created_at"],
                          "question": row["question"], "answer": result.get("answer") or "",
                          "analysis": result.get("analysis") or {}})
        return turns

    def turn_count(self, conversation_id: str) -> int:
        with self._conn() as conn:
            return conn.execute("SELECT COUNT(*) FROM runs WHERE conversation_id = ?",
                                (conversation_id,)).fetchone()[0]

    def last_conversation_id(self) -> str | None:
        """The conversation of the most recent run that has one."""
        with self._conn() as conn:
            row = conn.execute("SELECT conversation_id FROM runs WHERE conversation_id IS NOT NULL"
                               " ORDER BY created_at DESC, rowid DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def count(self) -> int:
        with self._conn() as conn:
            return conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]

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
        }

    def stats(self) -> dict:
        with self._conn() as conn:
            n = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            per_q = conn.execute("SELECT n_tool_calls, COUNT(*) FROM runs GROUP BY n_tool_calls"
                                 " ORDER BY n_tool_calls").fetchall()
            stops = conn.execute("SELECT COALESCE(stopped_because, 'unknown'), COUNT(*) FROM runs"
                                 " GROUP BY 1 ORDER BY 2 DESC").fetchall()
            totals = conn.execute("SELECT COALESCE(SUM(n_tool_calls),0), COALESCE(SUM(n_duplicate),0),"
                                  " COALESCE(SUM(n_error),0) FROM runs").fetchone()
            patterns = conn.execute(
                "SELECT answer_pattern, COUNT(*), SUM(rating = 1), SUM(rating = -1) FROM runs"
                " GROUP BY answer_pattern ORDER BY COUNT(*) DESC, answer_pattern").fetchall()
            rated = conn.execute("SELECT COUNT(*), COALESCE(SUM(rating = 1),0) FROM runs"
                                 " WHERE rating IS NOT NULL").fetchone()
            latencies = [r[0] for r in conn.execute(
                "SELECT latency_ms FROM runs WHERE latency_ms IS NOT NULL ORDER BY latency_ms").fetchall()]
        calls, dups, errs = totals
        return {
            "questions": n,
            "tool_calls_per_question": {str(k): v for k, v in per_q},
            "stop_reasons": {str(k): v for k, v in stops},
            "tool_calls": calls,
            "duplicate_rate": round(dups / calls, 4) if calls else 0.0,
            "error_rate": round(errs / calls, 4) if calls else 0.0,
            "feedback": {
                "rated": rated[0],
                "share_up": round(rated[1] / rated[0], 4) if rated[0] else None,
                "by_answer_pattern": [
                    {"pattern": p, "count": c, "up": up or 0, "down": down or 0,
                     "rated": (up or 0) + (down or 0),
                     "share_up": round((up or 0) / ((up or 0) + (down or 0)), 4) if (up or down) else None}
                    for p, c, up, down in patterns
                ],
            },
            "latency_ms": {"p50": _percentile(latencies, 50), "p95": _percentile(latencies, 95),
                           "count": len(latencies)},
        }
