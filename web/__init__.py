"""The web layer: JSON API (web/api.py), pages (web/pages.py), run history (web/run_store.py, web/run_stats.py),
the per-process runtime (web/runtime.py) and the wiring into a Flask app (web/factory.py)."""

# The WSGI environ key under which gunicorn's worker (web/worker.py) gives the time.monotonic() at which a request
# was read whole; a question's time limit counts from then. Absent under other servers.
RECEIVED_KEY = "chiqa.received"
