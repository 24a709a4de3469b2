"""The web layer: JSON API (web/api.py), pages (web/pages.py), run history (web/run_store.py, web/run_stats.py),
the per-process runtime (web/runtime.py) and the wiring into a Flask app (web/factory.py)."""
