"""Model backends behind one small interface.

Every backend turns a GenerationRequest (chat messages plus the structured context the
orchestrator already has) into a Generation (text plus token accounting). The orchestrator
parses TOOL_CALL lines out of the text the same way whichever backend wrote it.

Backends: ``llama`` (llama-cpp-python in process), ``openai`` (an OpenAI-compatible HTTP
server such as llama-server, vLLM or Ollama), ``rules`` (the deterministic planner in
rules_backend.py) and ``scripted`` (canned replies, for tests, benches and load tests).
The two heavy backends live in llama_cpp_backend.py and openai_backend.py; their names are
still importable from here.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable


class BackendError(RuntimeError):
    """The model could not be loaded or could not answer; the message says why."""


class BackendBusy(BackendError):
    """The model's wait queue is full; try again shortly."""


@dataclass
class GenerationRequest:
    """One model pass: the prompt as chat messages plus the context a planner may use."""

    messages: list  # [{"role": "system"|"user"|"assistant", "content": str}]
    phase: str = "gather"  # "gather" (may emit TOOL_CALL lines) | "synthesis" (writes the answer)
    grammar: str | None = None  # GBNF text constraining a gather pass
    max_tokens: int = 384
    deadline: float | None = None  # time.monotonic() value after which generation stops
    stop: list = field(default_factory=list)
    question: str = ""
    analysis: dict | None = None
    results: list = field(default_factory=list)  # [{"name", "arguments", "status", "result": ToolResult dict}]
    remaining_calls: int = 0
    strict: bool = False  # the stricter re-synthesis after a failed grounding check
    on_token: Callable[[str], None] | None = None


@dataclass
class Generation:
    text: str
    prompt_tokens: int = 0
    evaluated_tokens: int = 0  # prompt tokens actually evaluated; the rest came from the KV cache
    completion_tokens: int = 0
    duration_ms: float = 0.0
    finish_reason: str = "stop"  # stop | length | deadline


class ModelGate:
    """One generation at a time; at most ``queue_size`` callers wait, the rest get BackendBusy."""

    def __init__(self, queue_size: int = 8):
        self._lock = threading.Lock()
        self._state = threading.Lock()
        self.queue_size = int(queue_size)
        self.waiting = 0
        self.busy = False

    def __enter__(self):
        with self._state:
            if self.busy and self.waiting >= self.queue_size:
                raise BackendBusy(f"the model is busy: {self.waiting} requests already waiting; retry shortly")
            self.waiting += 1
        try:
            self._lock.acquire()
        finally:
            with self._state:
                self.waiting -= 1
        self.busy = True
        return self

    def __exit__(self, *exc):
        self.busy = False
        self._lock.release()
        return False


class Backend:
    """Base class: subclasses implement ``_generate`` and describe themselves in ``info``."""

    name = "base"
    n_ctx = 4096

    def __init__(self, queue_size: int = 8):
        self.gate = ModelGate(queue_size)
        self.selection_reason = ""

    def info(self) -> dict:
        return {"backend": self.name, "model": None, "n_ctx": self.n_ctx, "reason": self.selection_reason}

    def count_tokens(self, text: str) -> int:
        """Approximate for backends without a tokenizer; llama overrides with the real one."""
        return max(1, len(text) // 4)

    def count_message_tokens(self, messages: list) -> int:
        return sum(self.count_tokens(m["content"]) + 4 for m in messages)

    def generate(self, request: GenerationRequest) -> Generation:
        with self.gate:
            started = time.perf_counter()
            generation = self._generate(request)
            if not generation.duration_ms:
                generation.duration_ms = round((time.perf_counter() - started) * 1000, 3)
            return generation

    def _generate(self, request: GenerationRequest) -> Generation:
        raise NotImplementedError

    def close(self) -> None:
        pass


class ScriptedBackend(Backend):
    """Replies from a queue (strings, or callables taking the request); records every request.

    With an empty queue it behaves as a tiny deterministic model: the first gather pass asks
    for the year breakdown of homicides, later passes stop, and synthesis quotes the results.
    """

    name = "scripted"

    def __init__(self, replies=None, delay: float = 0.0, queue_size: int = 8):
        super().__init__(queue_size)
        self.replies = list(replies or [])
        self.delay = delay
        self.requests: list[GenerationRequest] = []
        self.selection_reason = "scripted replies (tests and benchmarks)"

    def enqueue(self, *replies) -> "ScriptedBackend":
        self.replies.extend(replies)
        return self

    def info(self) -> dict:
        return {**super().info(), "model": "scripted", "chat_format": None}

    def _generate(self, request: GenerationRequest) -> Generation:
        self.requests.append(request)
        if self.delay:
            time.sleep(self.delay)
        if self.replies:
            reply = self.replies.pop(0)
            text = reply(request) if callable(reply) else str(reply)
        else:
            text = self._default_reply(request)
        if request.on_token:
            request.on_token(text)
        prompt_tokens = self.count_message_tokens(request.messages)
        return Generation(text=text, prompt_tokens=prompt_tokens, evaluated_tokens=prompt_tokens,
                          completion_tokens=self.count_tokens(text))

    @staticmethod
    def _default_reply(request: GenerationRequest) -> str:
        if request.phase == "gather":
            if request.results:
                return "I have enough data."
            return 'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"group_by": "year"}}'
        lines = [r["result"].get("summary", "") for r in request.results if r.get("result")]
        return " ".join(line for line in lines if line) or "I could not find data for that question."


def make_backend(settings: dict, name: str | None = None) -> Backend:
    """Build the configured backend; ``auto`` prefers a local GGUF and falls back to rules."""
    from settings import get_dotted

    name = (name or get_dotted(settings, "model.backend", "auto") or "auto").lower()
    queue_size = int(get_dotted(settings, "model.queue_size", 8))
    if name == "scripted":
        return ScriptedBackend(queue_size=queue_size)
    if name == "rules":
        from rules_backend import RulesBackend

        backend = RulesBackend(queue_size=queue_size)
        backend.selection_reason = backend.selection_reason or "backend 'rules' chosen in config or --backend"
        return backend
    if name == "llama":
        from llama_cpp_backend import LlamaCppBackend

        return LlamaCppBackend.from_settings(settings)
    if name == "openai":
        from openai_backend import OpenAIBackend

        return OpenAIBackend.from_settings(settings)
    if name == "auto":
        return _auto_backend(settings, queue_size)
    raise BackendError(f"unknown backend '{name}'; choose auto, llama, openai, rules or scripted")


# ---------------------------------------------------------------- backend selection

def _network_reachable(host: str = "huggingface.co", port: int = 443, timeout: float = 1.5) -> bool:
    import socket

    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def plan_backend(settings: dict, name: str | None = None, check_network: bool = True) -> tuple[str, str]:
    """Which backend ``make_backend`` would build, and why, without loading anything.

    /api/health uses this before the first question so the choice is visible at once.
    """
    from settings import get_dotted

    name = (name or get_dotted(settings, "model.backend", "auto") or "auto").lower()
    if name != "auto":
        return name, f"backend '{name}' chosen in config, CHIQA_BACKEND or --backend"
    configured = get_dotted(settings, "model.path")
    path = Path(str(configured)).expanduser() if configured else None
    if path is not None and path.is_file():
        return "llama", f"auto: model file {path} found"
    allow = bool(get_dotted(settings, "model.allow_download", False))
    if allow and (not check_network or _network_reachable()):
        return "llama", (f"auto: no local model file; downloading {get_dotted(settings, 'model.hf_repo')}/"
                         f"{get_dotted(settings, 'model.hf_file')} (model.allow_download is true)")
    where = ("no model file configured (set model.path or CHIQA_MODEL_PATH)" if path is None
             else f"no model file at {path} (set model.path or CHIQA_MODEL_PATH)")
    download = "; download allowed but network unreachable" if allow else ""
    return "rules", f"auto: {where}{download}; using the rule planner"


def _auto_backend(settings: dict, queue_size: int) -> Backend:
    """Prefer a local GGUF (or an allowed download); otherwise the rule planner, saying why."""
    choice, reason = plan_backend(settings, "auto")
    if choice == "llama":
        from llama_cpp_backend import LlamaCppBackend

        backend = LlamaCppBackend.from_settings(settings, queue_size=queue_size)
        backend.selection_reason = reason
        return backend
    try:
        from rules_backend import RulesBackend
    except Exception as exc:  # noqa: BLE001 - any import failure means no planner
        raise BackendError(
            f"{reason.removesuffix('; using the rule planner')}, and the rule planner could not be loaded "
            f"({type(exc).__name__}: {exc}); set model.path or CHIQA_MODEL_PATH to a GGUF file"
        ) from exc
    backend = RulesBackend(queue_size=queue_size)
    backend.selection_reason = reason
    return backend


# ---------------------------------------------------------------- re-exports

# Callers import every backend from this module, but llama-cpp-python and requests must only
# load when their backend is used, and the backend modules import the base types above, so
# their names resolve on first access rather than at import time.
_MOVED = {
    "LlamaCppBackend": "llama_cpp_backend",
    "GGUF_MAGIC": "llama_cpp_backend",
    "physical_cores": "llama_cpp_backend",
    "check_gguf_file": "llama_cpp_backend",
    "validate_grammar": "llama_cpp_backend",
    "OpenAIBackend": "openai_backend",
}


def __getattr__(name: str):
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def __dir__():
    return sorted(set(globals()) | set(_MOVED))
