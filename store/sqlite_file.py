"""What only a SQLite run store needs: WAL on, its own files told apart from others', a corrupt file moved aside,
read-only reads.

ChiQA never moves, renames, deletes or writes into a file it did not make, and ``store.url`` may name any file (a
typo naming notes.txt, another program's database). So a file at the store's path is used only when it is ChiQA's:
a SQLite header carrying ChiQA's ``application_id`` (set on every store it creates or upgrades), or, for stores made
before that mark existed, a SQLite database holding nothing but ChiQA's tables. An empty file or an empty database
holds nothing to lose and becomes a store. Anything else is refused with ForeignStoreFile naming the path and why,
and is never touched. A corrupt file of ChiQA's is renamed ``<name>.corrupt-<UTC time>`` with its -wal and -shm
(never deleted) so a fresh store can be created in its place. A file that can no longer be written (read-only file or
folder) can still be read in SQLite's immutable mode, so the history stays readable while writes fail.
"""
from __future__ import annotations

import logging
import os
import sqlite3
import stat
import time
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from store.database import StoreConfigError, sqlite_engine

log = logging.getLogger("chiqa.store")
CORRUPT_CODES = {"SQLITE_NOTADB", "SQLITE_CORRUPT"}
SQLITE_MAGIC = b"SQLite format 3\x00"
APPLICATION_ID = int.from_bytes(b"ChQA", "big")  # PRAGMA application_id of every store ChiQA makes
CHIQA_TABLES = {"runs", "conversations", "store_version"}


class ForeignStoreFile(StoreConfigError):
    """The file named as the run store is not ChiQA's; it is left exactly as it is."""


def _unmarked_store_problem(path: Path) -> str | None:
    """For a SQLite file without ChiQA's mark: None when it holds only ChiQA's tables (a store from before the mark)
    or no table at all, else why it is not ChiQA's. Opened read-only: nothing is written while finding out."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return f"is a SQLite database ChiQA did not mark as its own and cannot read ({exc})"
    if app_id == APPLICATION_ID:
        return None
    if app_id:
        return f"is another program's SQLite database (application_id {app_id:#x})"
    if tables - CHIQA_TABLES or (tables and "runs" not in tables):
        shown = ", ".join(sorted(tables - CHIQA_TABLES)[:5]) or ", ".join(sorted(tables)[:5])
        return f"is a SQLite database that is not a ChiQA run store (it holds the table(s) {shown})"
    return None


def store_file_problem(path: Path) -> str | None:
    """Why the file at ``path`` may not be used as ChiQA's run store, completing "<path> ..."; None when it may
    (no file yet, an empty one, or ChiQA's own). Reads at most the 100-byte header and the schema."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):  # nothing there yet: ChiQA will make it (or fail to, saying so)
        return None
    except OSError as exc:
        return f"cannot be examined ({exc.strerror or exc})"
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file (a folder, pipe or device)"
    if st.st_size == 0:
        return None
    try:  # without waiting: a FIFO swapped in since the stat must not block start-up
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            head = os.read(fd, 100) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
        finally:
            os.close(fd)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not head.startswith(SQLITE_MAGIC) or len(head) < 100:
        return "is not a SQLite database"
    if int.from_bytes(head[68:72], "big") == APPLICATION_ID:
        return None  # ours, even when damaged further on (then it is moved aside, below)
    return _unmarked_store_problem(path)


def claim_store_file(path: Path) -> None:
    """Raise ForeignStoreFile unless ``path`` may be used as the run store."""
    problem = store_file_problem(path)
    if problem:
        raise ForeignStoreFile(f"the run store {os.path.abspath(path)} {problem}; ChiQA leaves it untouched. "
                               "Point store.url (CHIQA_STORE_URL) at a new path or at a ChiQA run store")


def mark_as_ours(conn) -> None:
    """Put ChiQA's application_id on the store (inside the caller's write transaction), so that this file is
    recognised as ChiQA's later, even if damaged past its header."""
    if conn.exec_driver_sql("PRAGMA application_id").scalar() != APPLICATION_ID:
        conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")


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
    nothing left to move (another thread or process did it), None when it could not be moved (or is not ChiQA's:
    a file swapped in while running is refused, never moved)."""
    if not path.exists():
        return {}
    problem = store_file_problem(path)
    if problem:
        log.error("the run store %s %s; left where it is", path, problem)
        return None
    if not still_corrupt(path):
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
