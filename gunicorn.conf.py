"""gunicorn settings for ChiQA: `gunicorn -c gunicorn.conf.py "app:create_app()"` (what `make run` does).

A CPU model generates one answer at a time per worker, so: few workers (each loads its own copy
of the model, lazily on its first question), threads enough for every question the model gate admits
plus spares, so health, static files, run history and streaming responses never wait behind a
generation, and a timeout longer than the orchestrator's per-question limit. Generations queue in
backends.base.ModelGate (model.queue_size); when that queue is full, or a question cannot get the
model within its time limit, the API answers 503 with Retry-After.

The worker class is gthread reading each request whole in its main loop before a thread takes it
(web/worker.py), so slow or stalled clients cannot hold the threads; a request not received within
CHIQA_READ_TIMEOUT seconds (default 30, headers and body together) gets 408.

Environment: CHIQA_BIND (default 127.0.0.1:8000), WEB_CONCURRENCY (workers, default 1),
CHIQA_THREADS (threads per worker, default model.queue_size + 4; never fewer), CHIQA_TIMEOUT (worker
timeout, default orchestrator.timeout_seconds + 60), CHIQA_READ_TIMEOUT.
"""
import os
import sys

from settings.loader import SettingsError, load_settings
from store.startup import prepare_store
from web.worker import default_threads

try:
    _settings = load_settings()
    # Once, in the master, before any worker: the run store's pending migrations (store/startup.py).
    print(prepare_store(_settings), file=sys.stderr)
except SettingsError as _exc:  # a bad config.yaml, environment or run store: one clear line, not a traceback
    print(f"error: {' '.join(str(_exc).split())}", file=sys.stderr)
    sys.exit(2)

bind = os.environ.get("CHIQA_BIND") or "127.0.0.1:8000"
workers = int(os.environ.get("WEB_CONCURRENCY") or 1)
worker_class = "web.worker.BufferedThreadWorker"
# Fewer threads than the gate admits questions would bring back unseen waiting (web/worker.default_threads).
threads = max(int(os.environ.get("CHIQA_THREADS") or 0), default_threads(_settings.model.queue_size))
timeout = int(os.environ.get("CHIQA_TIMEOUT") or (_settings.orchestrator.timeout_seconds + 60))
graceful_timeout = 30
keepalive = 5
# Each worker loads its own model lazily; preloading the app would load nothing heavy anyway.
preload_app = False
accesslog = os.environ.get("CHIQA_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("CHIQA_LOG_LEVEL") or "info"
# Large request bodies are refused by the app (server.max_body_bytes); keep header limits default.
limit_request_line = 8190


def post_worker_init(worker):
    """Start the worker warm, in the background: the data tables, then the model with its saved system prefix.

    CHIQA_WARM_DATA=0 skips both; CHIQA_WARM_MODEL=0 loads only the data (the model then loads on the
    first question).
    """
    if os.environ.get("CHIQA_WARM_DATA", "1") == "0":
        return
    app = getattr(worker, "wsgi", None)
    runtime = getattr(app, "extensions", {}).get("chiqa_runtime") if app is not None else None
    if runtime is not None:
        runtime.warm_async(model=os.environ.get("CHIQA_WARM_MODEL", "1") != "0")
