"""Moving a SQLite run history into another store (``app.py store migrate``): every run with its result,
feedback, conversation, turn, owner and share key, so permalinks and conversations go on working there.

Safe to run again, and while the target is in use: a run is copied only when its id is not there yet (a run already
in the target is left as it is), and a conversation's turn counter is only ever raised to the source's last turn,
so a second run copies nothing and changes nothing. The source file is opened read-only and never changed; one
written by an older ChiQA (without the conversation or owner columns) is read as it is, the missing columns as
NULL.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import case, func, inspect, select

from store.database import WRITE, sqlite_engine
from store.run_store import RunStore, dialect_insert
from store.tables import conversations, runs

BATCH = 500  # runs per target transaction: a crash loses at most one batch's work, which a re-run then copies


@dataclass
class Transfer:
    """What one run of the copy did."""

    copied: int = 0
    already_there: int = 0
    conversations: int = 0


def _read_only(path: Path):
    uri = f"file:{path}?mode=ro"
    return sqlite_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False))


def _source_runs(src):
    """The source's runs, oldest first, as full rows of the target's columns (those it lacks as NULL)."""
    if not inspect(src).has_table("runs"):
        raise ValueError("it holds no runs table: is it a ChiQA run store?")
    present = {column["name"] for column in inspect(src).get_columns("runs")}
    query = select(*(c for c in runs.c if c.name in present)).order_by(runs.c.created_at, runs.c.id)
    for batch in src.execute(query).partitions(BATCH):
        yield [{c.name: row._mapping[c.name] if c.name in present else None for c in runs.c} for row in batch]


def _copy_batch(conn, rows: list[dict]) -> int:
    """Insert the rows the target does not hold yet; how many that was."""
    held = set(conn.execute(select(runs.c.id).where(runs.c.id.in_([r["id"] for r in rows]))).scalars())
    missing = [r for r in rows if r["id"] not in held]
    if missing:  # ON CONFLICT: a node may store a run with the same id meanwhile (16 random hex: never in practice)
        conn.execute(dialect_insert(conn, runs).on_conflict_do_nothing(index_elements=["id"]), missing)
    return len(missing)


def _raise_turn_counters(src, conn) -> int:
    """Each source conversation's counter in the target, raised to the source's last turn (never lowered)."""
    rows = [{"id": cid, "turns": last, "created_at": first} for cid, last, first in src.execute(
        select(runs.c.conversation_id, func.max(runs.c.turn), func.min(runs.c.created_at))
        .where(runs.c.conversation_id.is_not(None), runs.c.turn.is_not(None)).group_by(runs.c.conversation_id))]
    if rows:
        upsert = dialect_insert(conn, conversations)
        higher = case((upsert.excluded.turns > conversations.c.turns, upsert.excluded.turns),
                      else_=conversations.c.turns)
        conn.execute(upsert.on_conflict_do_update(index_elements=["id"], set_={"turns": higher}), rows)
    return len(rows)


def copy_history(source: Path, target: RunStore) -> Transfer:
    """Copy the SQLite file ``source`` into ``target`` (brought to the newest schema first). Raises ValueError for
    a source that is no run store; the databases' own errors otherwise."""
    target.prepare()
    done = Transfer()
    engine = _read_only(source)
    writer = target.engine.execution_options(**WRITE)
    try:
        with engine.connect() as src:
            for rows in _source_runs(src):
                with writer.begin() as conn:
                    copied = _copy_batch(conn, rows)
                done.copied += copied
                done.already_there += len(rows) - copied
            with writer.begin() as conn:
                done.conversations = _raise_turn_counters(src, conn)
    finally:
        engine.dispose()
    return done
