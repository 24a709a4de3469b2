"""The ``store`` command: ``migrate`` copies a SQLite run history into the configured database (PostgreSQL),
``status`` says where the history is, its schema version and how much it holds.

Exit codes: 0 done, 2 anything that stopped it (no source file, no target, a URL ChiQA cannot use, a database that
cannot be reached), always as one ``error:`` line.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import func, inspect, select
from sqlalchemy.exc import SQLAlchemyError

from cli.ask import report_error
from settings.loader import SettingsError, var_dir
from settings.schema import Settings
from store.database import PoolLimits
from store.migrations import LATEST, SchemaTooNew, current_version
from store.run_store import RunStore, StoreUnavailable, describe_error, open_store
from store.tables import conversations, runs
from store.transfer import copy_history

FAILURES = (StoreUnavailable, SchemaTooNew, SQLAlchemyError, sqlite3.Error, OSError, ValueError)


def run_store_command(args, settings: Settings) -> int:
    try:
        if args.store_command == "migrate":
            return _migrate(args, settings)
        return _status(args, settings)
    except SettingsError as exc:  # store.url or --to names no database ChiQA can use
        return report_error(args, "invalid_settings", str(exc))


def _migrate(args, settings: Settings) -> int:
    source = Path(args.source) if args.source else var_dir(settings) / "runs.sqlite3"
    if not source.is_file():
        return report_error(args, "store_not_found", f"no SQLite run store at {source}; name one with --from PATH")
    url = args.to or settings.store.url
    if not url:
        return report_error(args, "no_target", "store.url is not set, so there is nowhere to move the history: set "
                                               "CHIQA_STORE_URL=postgresql://... or pass --to URL")
    target = RunStore(url, PoolLimits.from_settings(settings))
    if target.path is not None and target.path.resolve() == source.resolve():
        return report_error(args, "same_store", f"the source and the target are the same file ({source})")
    try:
        done = copy_history(source, target)
    except FAILURES as exc:
        return report_error(args, "store_unavailable",
                            f"moving {source} into {target.where} failed: {describe_error(exc)}")
    finally:
        target.close()
    print(f"copied {done.copied} runs from {source} into {target.where} ({done.already_there} were already there); "
          f"turn counters of {done.conversations} conversations set")
    return 0


def _status(args, settings: Settings) -> int:
    store = open_store(settings)
    try:
        with store.engine.connect() as conn:
            version = current_version(conn)
            held = {table.name: conn.execute(select(func.count()).select_from(table)).scalar()
                    if inspect(conn).has_table(table.name) else 0 for table in (runs, conversations)}
    except FAILURES as exc:
        return report_error(args, "store_unavailable",
                            f"the run store {store.where} cannot be read: {describe_error(exc)}")
    finally:
        store.close()
    pending = f"; {LATEST - version} migration(s) pending, applied at the next start" if version < LATEST else ""
    print(f"run store: {store.where} ({store.database})\nschema version: {version} (this ChiQA knows up to "
          f"{LATEST}){pending}\nruns: {held['runs']}\nconversations: {held['conversations']}")
    return 0
