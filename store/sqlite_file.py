"""What only a SQLite run store needs: WAL on, a corrupt file told apart and moved aside, read-only reads.

A corrupt file is renamed ``<name>.corrupt-<UTC time>`` with its -wal and -shm (never deleted) so a fresh store can
be created in its place. A file that can no longer be written (read-only file or folder) can still be read in
SQLite's immutable mode, so the history stays readable while writes fail.
"""
from __future__ import annotations

import logging
import os
import sqlite3
import time
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from store.database import sqlite_engine

log = logging.getLogger("chiqa.store")
CORRUPT_CODES = {"SQLITE_NOTADB", "SQLITE_CORRUPT"}


def is_corrupt(exc: BaseException) -> bool:
    """True for the errors of a damaged file (SQLAlchemy's wrapper or sqlite3's own error)."""
    exc = getattr(exc, "orig", None) or exc
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc).lower()
    return name in CORRUPT_CODES or "not a database" in text or "malformed" in text


def enable_wal(engine: Engine) -> None:
    """Readers never wait for the writer. Switching takes an exclusive lock without waiting on the busy timeout,
    so two processes creating the store at once may see "database is locked": retried briefly."""
    for attempt in range(50):
        try:
            raw = engine.raw_connection()  # outside any transaction, which the switch refuses
            try:
                raw.cursor().execute("PRAGMA journal_mode = WAL")
            finally:
                raw.close()
            return
        except (OperationalError, sqlite3.OperationalError) as exc:
            if "locked" not in str(exc) or attempt == 49:
                raise
            time.sleep(0.05)


def check_intact(conn) -> None:
    """Before a migration writes: a damaged file must be moved aside as it is, not half rewritten (its version row
    may itself be unreadable and look like an old store). Raises the error SQLite gives for such a file."""
    verdict = conn.exec_driver_sql("PRAGMA quick_check").scalar()
    if verdict != "ok":
        raise sqlite3.DatabaseError("database disk image is malformed (found by PRAGMA quick_check before migrating)")


def immutable_engine(path: Path) -> Engine:
    """Reads of a file that cannot be written (nor locked): SQLite's immutable mode."""
    uri = f"file:{path}?mode=ro&immutable=1"
    return sqlite_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False))


def still_corrupt(path: Path) -> bool:
    """Checked again before moving: another worker may have replaced the file already."""
    try:
        conn = sqlite3.connect(str(path))
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            verdict = conn.execute("PRAGMA quick_check").fetchone()
            return verdict is None or verdict[0] != "ok"  # damage is reported as rows, not raised
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return is_corrupt(exc)


def move_aside(path: Path, reason: BaseException) -> dict | None:
    """Rename the corrupt file (and its -wal/-shm) to <name>.corrupt-<UTC time>; what was moved, {} when there was
    nothing left to move (another thread or process did it), None when it could not be moved."""
    if not path.exists() or not still_corrupt(path):
        return {}
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        os.replace(path, target)
        for suffix in ("-wal", "-shm"):
            side = Path(f"{path}{suffix}")
            if side.exists():
                os.replace(side, Path(f"{target}{suffix}"))
    except OSError as move_error:
        log.error("the run store %s is corrupt (%s) and could not be moved aside: %s", path, reason, move_error)
        return None
    log.error("the run store %s was corrupt (%s); moved it to %s and started a new one", path, reason, target)
    return {"path": str(target), "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "reason": str(reason)}
