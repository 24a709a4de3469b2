"""Start-up: the run store's schema brought up to date before a server takes its first request, or a refusal.

Called once by the process that starts the servers (gunicorn's master through gunicorn.conf.py, ``app.py serve``),
never per worker. What refuses to start, with one line that says why (StoreStartupError, a SettingsError, so each
entry point prints it and exits 2): a ``store.url`` ChiQA cannot use, a PostgreSQL server that cannot be reached
or written, a schema newer than this code. A SQLite file that cannot be written does not: the app serves as it
always did (answers with ``saved: false``, health degraded) and the schema is set up on the first write that works.
"""
from __future__ import annotations

from settings.loader import SettingsError
from settings.schema import Settings
from store.migrations import SchemaTooNew
from store.run_store import StoreUnavailable, open_store


class StoreStartupError(SettingsError):
    """The server cannot start on this run store; the message says why in one line."""


def prepare_store(settings: Settings) -> str:
    """Apply the pending migrations; a line saying where the history is and what was done."""
    store = open_store(settings)
    try:
        applied = store.prepare()
    except SchemaTooNew as exc:
        raise StoreStartupError(f"{exc} (run store {store.where})") from None
    except StoreUnavailable as exc:
        if store.path is None:
            raise StoreStartupError(f"{exc}; is the server up, and is store.url (CHIQA_STORE_URL) right?") from None
        return f"warning: {exc}; serving anyway (answers say saved: false until it can be written)"
    finally:
        store.close()  # the workers open their own connections; a forked socket would be shared by accident
    done = f"migrated to schema version {applied[-1]}" if applied else "schema up to date"
    return f"run store {store.where} ({store.database}): {done}"
