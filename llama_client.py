"""Choosing a backend: by name from the providers' own table, or ``auto`` (a local GGUF, else the rule planner).

Backends: ``llama`` (llama-cpp-python in process, backends/llama_cpp.py), ``openai`` (an OpenAI-compatible
HTTP server such as llama-server, vLLM or Ollama, backends/openai_http.py), ``rules`` (the deterministic
planner, rules/backend.py) and ``scripted`` (canned replies, backends/scripted.py). The interface they share
is backends/base.py. Importing a provider module is cheap: llama-cpp-python and requests load on first use.
"""
from __future__ import annotations

import socket

from backends import llama_cpp, openai_http, scripted  # noqa: F401  (imported to register themselves)
from backends.base import BACKENDS, Backend, BackendError
from models.catalog import configured_model
from backends import rules_only  # noqa: F401  (imported to register itself)
from settings.loader import var_dir
from settings.schema import Settings


def make_backend(settings: Settings, name: str | None = None) -> Backend:
    """Build the configured backend; ``auto`` prefers a local GGUF and falls back to rules."""
    name = (name or settings.model.backend or "auto").lower()
    if name == "auto":
        return _auto_backend(settings)
    cls = BACKENDS.get(name)
    if cls is None:
        raise BackendError(f"unknown backend '{name}'; choose auto, {', '.join(sorted(BACKENDS))}")
    backend = cls.from_settings(settings)
    backend.selection_reason = backend.selection_reason or f"backend '{name}' chosen in config or --backend"
    return backend


# ---------------------------------------------------------------- backend selection

def _network_reachable(host: str = "huggingface.co", port: int = 443, timeout: float = 1.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def plan_backend(settings: Settings, name: str | None = None, check_network: bool = True) -> tuple[str, str]:
    """Which backend ``make_backend`` would build, and why, without loading anything.

    /api/health uses this before the first question so the choice is visible at once.
    """
    name = (name or settings.model.backend or "auto").lower()
    if name != "auto":
        return name, f"backend '{name}' chosen in config, CHIQA_BACKEND or --backend"
    path, how = configured_model(settings, var_dir(settings))
    if path is not None and path.is_file():
        return "llama", f"auto: model file {path} found" + ("" if how == "model file" else f" ({how})")
    allow = settings.model.allow_download
    if allow and (not check_network or _network_reachable()):
        return "llama", (f"auto: no local model file; downloading {settings.model.hf_repo}/"
                         f"{settings.model.hf_file} (model.allow_download is true)")
    if path is None:
        where = "no model file configured (set model.path or CHIQA_MODEL_PATH)"
    elif how == "model file":
        where = f"no model file at {path} (set model.path or CHIQA_MODEL_PATH)"
    else:
        where = f"{how} is not pulled yet (python app.py model pull {settings.model.path})"
    download = "; download allowed but network unreachable" if allow else ""
    return "rules", f"auto: {where}{download}; using the rule planner"


def _auto_backend(settings: Settings) -> Backend:
    """Prefer a local GGUF (or an allowed download); otherwise the rule planner, saying why."""
    choice, reason = plan_backend(settings, "auto")
    try:
        backend = BACKENDS[choice].from_settings(settings)
    except BackendError:
        raise
    except Exception as exc:  # noqa: BLE001 - a planner that cannot start leaves nothing to answer with
        raise BackendError(
            f"{reason.removesuffix('; using the rule planner')}, and the rule planner could not be loaded "
            f"({type(exc).__name__}: {exc}); set model.path or CHIQA_MODEL_PATH to a GGUF file"
        ) from exc
    backend.selection_reason = reason
    return backend
