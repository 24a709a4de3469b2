"""Per-process runtime: the backend, data, tool registry and orchestrator, built lazily once.

Nothing heavy happens at import or app creation. The first question builds (under a lock)
the backend (which loads the model for the llama backend), the data bundle, the registry and
the orchestrator; every later request in this worker reuses them. Health reads the state
fields only and never takes the build lock or the model lock, so it answers instantly even
while the model is loading or generating.

Hooks for tests and benchmarks:
- app.config["CHIQA_BACKEND_OBJECT"]: a ready Backend instance (e.g. a ScriptedBackend with
  canned replies) used instead of make_backend.
- setting model.scripted_delay_seconds (env CHIQA_SCRIPTED_DELAY): with backend "scripted", every
  generation sleeps this long (to fill the model queue on purpose in the load test).
"""
from __future__ import annotations

import threading
import time
from pathlib import Path

from assembly.services import build_services, build_tools
from llama_client import make_backend, plan_backend
from maps.layers import LEVELS
from settings.loader import resolve_data_dir
from settings.schema import Settings
from tools.catalog import tool_schemas
from tools.data.datasets import DATASETS
from tools.data.loader import shared_data

STATE_NOT_LOADED = "not_loaded"
STATE_LOADING = "loading"
STATE_LOADED = "loaded"
STATE_ERROR = "error"


class Runtime:
    def __init__(self, settings: Settings, backend=None):
        self.settings = settings
        self._lock = threading.Lock()
        self._data_lock = threading.Lock()
        self._backend = backend
        self.backend_state = STATE_LOADED if backend is not None else STATE_NOT_LOADED
        self.backend_error: str | None = None
        self.backend_load_ms: float | None = None
        self._data = None
        self.data_state = STATE_NOT_LOADED
        self.data_error: str | None = None
        self.data_problems: dict = {}  # dataset key -> what is wrong with its file
        self.data_checks: dict = {}  # dataset key -> FileCheck from the last failed load
        self._registry = None
        self._orchestrator = None

    # ------------------------------------------------------------ backend
    def _build_backend(self):
        return make_backend(self.settings)

    def backend(self):
        if self._backend is not None:
            return self._backend
        with self._lock:
            if self._backend is None:
                self.backend_state = STATE_LOADING
                started = time.perf_counter()
                try:
                    backend = self._build_backend()
                except Exception as exc:
                    self.backend_state = STATE_ERROR
                    self.backend_error = f"{type(exc).__name__}: {exc}"
                    raise
                self.backend_load_ms = round((time.perf_counter() - started) * 1000, 1)
                self._backend = backend
                self.backend_state = STATE_LOADED
                self.backend_error = None
        return self._backend

    # ------------------------------------------------------------ data
    def data(self):
        if self._data is not None:
            return self._data
        with self._data_lock:
            if self._data is None:
                self.data_state = STATE_LOADING
                try:
                    self._data = shared_data(self.settings)
                except Exception as exc:
                    self.data_state = STATE_ERROR
                    self.data_error = f"{type(exc).__name__}: {exc}"
                    # DataIntegrityError (and a folder lacking files) say which file is wrong.
                    self.data_problems = dict(getattr(exc, "problems", None) or {})
                    self.data_checks = dict(getattr(exc, "checks", None) or {})
                    raise
                self.data_state = STATE_LOADED
                self.data_error, self.data_problems, self.data_checks = None, {}, {}
        return self._data

    def warm_async(self, model: bool = False) -> None:
        """Load the data, and with ``model`` the backend and its saved prompt prefix, in a background thread
        (gunicorn post_worker_init), so the first question does not pay for either."""
        def _load():
            try:
                self.registry()
                if model:
                    self.orchestrator()
            except Exception:
                pass  # reported by /api/health and by the first question
        threading.Thread(target=_load, name="chiqa-warm", daemon=True).start()

    def registry(self):
        if self._registry is None:
            data = self.data()
            with self._data_lock:
                if self._registry is None:
                    self._registry = build_tools(self.settings, data)
        return self._registry

    def tool_schemas(self) -> list[dict]:
        """Schemas need no tables: the process-wide registry loads data only when a tool runs."""
        if self._registry is not None:
            return self._registry.schemas()
        return list(tool_schemas())

    # ------------------------------------------------------------ orchestrator
    def orchestrator(self):
        if self._orchestrator is None:
            backend = self.backend()
            data = self.registry().data
            with self._lock:
                if self._orchestrator is None:
                    self._orchestrator = build_services(self.settings, backend=backend, data=data).orchestrator
        return self._orchestrator

    # ------------------------------------------------------------ health (never loads anything)
    def health(self) -> dict:
        backend = self._backend
        out = {
            "configured": self.settings.model.backend,
            "state": self.backend_state,
            "status": "error" if self.backend_state == STATE_ERROR else "ok",
            "error": self.backend_error,
            "load_ms": self.backend_load_ms,
        }
        if backend is None:
            if self.backend_state == STATE_ERROR:
                out["reason"] = self.backend_error
            else:  # say which backend the first question will load, and why, without loading it

                out["name"], reason = plan_backend(self.settings, check_network=False)
                out["reason"] = reason + " (not loaded yet: it loads on the first question)"
        else:
            try:
                info = dict(backend.info())
            except Exception as exc:  # info must never break health
                info = {"backend": getattr(backend, "name", "?"), "info_error": str(exc)}
            out.update({"name": info.get("backend", getattr(backend, "name", None)), "model": info.get("model"),
                        "reason": info.get("reason") or getattr(backend, "selection_reason", ""), "info": info})
            if "loaded" in info:
                out["model_loaded"] = bool(info["loaded"])
            if hasattr(backend, "failure_state"):  # the last model failure, if any (closed port, HTTP 500, hang)
                out.update(backend.failure_state())
            gate = getattr(backend, "gate", None)
            if gate is not None:
                out["queue"] = {"busy": bool(gate.busy), "waiting": gate.waiting, "size": gate.queue_size}
        return out

    def data_health(self) -> dict:
        data = self._data
        coverage = data.coverage if data is not None else {}
        checks = data.checks if data is not None else self.data_checks

        def status(key):
            if key in self.data_problems:
                return {"status": "failed", "error": self.data_problems[key]}
            if key in checks and checks[key].ok:
                return {"status": "ok", "checked_against": checks[key].checked_against}
            return {"status": "not_checked"}

        boundaries = self._boundary_files(data)
        missing = sorted(name for name, state in boundaries.items() if state != "present")
        out = {
            "state": self.data_state,
            "error": self.data_error,
            "data_dir": str(data.data_dir) if data is not None else None,
            "cache": (data.cache_note or "used") if data is not None else None,
            "datasets": {key: {"title": ds.title, "publisher": ds.publisher, "portal_id": ds.portal_id,
                               "coverage": coverage.get(key), **status(key)} for key, ds in DATASETS.items()},
            "boundaries": boundaries,
            "status": "ok",
        }
        if self.data_state == STATE_ERROR:
            out["status"] = "error"
        elif missing:  # the answers still work, the maps do not: degraded, naming the files
            out["status"] = "degraded"
            out["degraded_because"] = (f"map boundary file(s) missing from the data folder: {', '.join(missing)} "
                                       "(answers work; their maps cannot be drawn)")
        return out

    def _boundary_files(self, data) -> dict:
        """Each map boundary file (maps/layers.py) in the data folder: present or missing. A stat, never a load."""
        try:
            folder = Path(data.data_dir) if data is not None else resolve_data_dir(self.settings)
        except Exception:  # no data folder at all: the data state and error say so already
            return {}
        return {spec["file"]: "present" if (folder / spec["file"]).is_file() else "missing"
                for spec in LEVELS.values()}


def get_runtime(app) -> Runtime:
    runtime = app.extensions.get("chiqa_runtime")
    if runtime is None:
        runtime = Runtime(app.config["CHIQA_SETTINGS"], backend=app.config.get("CHIQA_BACKEND_OBJECT"))
        app.extensions["chiqa_runtime"] = runtime
    return runtime
