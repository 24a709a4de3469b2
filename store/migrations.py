"""The run store's schema versions, and bringing a database up to the newest one.

The version is the single row of ``store_version``; a database without that table is at version 0 (a new one, or
a SQLite file made before versions existed). ``upgrade`` applies the pending migrations in order, all in one
transaction that holds the database's write lock (BEGIN IMMEDIATE on SQLite, an advisory lock on PostgreSQL), so
two web nodes starting at once migrate once and the second sees the result. Each step is also safe to run on a
database that already has what it adds (a SQLite file of an earlier ChiQA has some of version 1's columns).

A database newer than this code (another node already upgraded) is refused with SchemaTooNew: serving it could
write rows the newer schema forbids.
"""
from __future__ import annotations

from sqlalchemy import func, inspect, select, text

from store.tables import LATER_COLUMNS, RUNS_CREATED, RUNS_OWNER, RUNS_TURN, conversations, runs, store_version

# Any fixed number works; it only has to be the same on every node (pg_advisory_xact_lock's key).
PG_MIGRATION_LOCK = 0x43685141


class SchemaTooNew(RuntimeError):
    """The database was upgraded by a newer ChiQA than this one."""


def _runs_table(conn) -> None:
    """Version 1: the runs table with every column and index it had before versions existed."""
    runs.create(conn, checkfirst=True)
    present = {column["name"] for column in inspect(conn).get_columns("runs")}
    for name, kind in LATER_COLUMNS:
        if name not in present:  # a store from before conversations or owners: NULL = no conversation, nobody's
            conn.execute(text(f"ALTER TABLE runs ADD COLUMN {name} {kind}"))
    for index in (RUNS_CREATED, RUNS_OWNER):
        index.create(conn, checkfirst=True)


def _conversations_table(conn) -> None:
    """Version 2: a row per conversation holding its last turn number, filled from the runs already stored;
    turn numbers unique within a conversation (this index replaces the plain one on the same columns)."""
    conversations.create(conn, checkfirst=True)
    known = (select(runs.c.conversation_id, func.max(runs.c.turn), func.min(runs.c.created_at))
             .where(runs.c.conversation_id.is_not(None)).group_by(runs.c.conversation_id))
    conn.execute(conversations.insert().from_select(["id", "turns", "created_at"], known))
    conn.execute(text("DROP INDEX IF EXISTS runs_conversation"))
    RUNS_TURN.create(conn, checkfirst=True)


# (version, what it does, step). Append only: a released step is never edited, a change is a new version.
MIGRATIONS = (
    (1, "runs table with conversations, owners and share keys", _runs_table),
    (2, "conversations table (turn counter) and unique turn numbers", _conversations_table),
)
LATEST = MIGRATIONS[-1][0]


def current_version(conn) -> int:
    if not inspect(conn).has_table("store_version"):
        return 0
    return conn.execute(select(func.max(store_version.c.version))).scalar() or 0


def _lock(conn) -> None:
    """Only one node migrates at a time (SQLite's write transaction already excludes the others)."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_advisory_xact_lock(PG_MIGRATION_LOCK)))


def upgrade(conn, before_changes=None) -> list[int]:
    """Apply the pending migrations inside ``conn``'s (write) transaction; the versions applied.
    ``before_changes(conn)`` runs first when there is something to apply (SQLite checks the file is intact)."""
    _lock(conn)
    version = current_version(conn)
    if version > LATEST:
        raise SchemaTooNew(f"the run store's schema is at version {version}, newer than this ChiQA knows "
                           f"({LATEST}): another node was upgraded; upgrade this one too")
    pending = [(number, step) for number, _, step in MIGRATIONS if number > version]
    if pending and before_changes is not None:
        before_changes(conn)
    applied = []
    for number, step in pending:
        step(conn)
        applied.append(number)
    if applied:
        store_version.create(conn, checkfirst=True)
        conn.execute(store_version.delete())
        conn.execute(store_version.insert().values(version=LATEST))
    return applied
