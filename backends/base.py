"""The backend interface: a request, a generation, the one-at-a-time model gate, and the base class.

Every backend turns a GenerationRequest (chat messages, an optional grammar and the pass's limits) into a
Generation (text plus token accounting). Provider modules register their class
by name in BACKENDS; this module never imports a provider, so the interface stays light.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from settings.schema import Settings


class BackendError(RuntimeError):
    """The model could not be loaded or could not answer; the message says why."""


class BackendBusy(BackendError):
    """The model's wait queue is full, or it stayed busy for the question's whole time limit; try again shortly."""


class GenerationCancelled(Exception):
    """The reader of a streamed answer went away: the pass stops at the next token (not a model failure)."""


# A reply is cut at this many characters per token asked for (``max_tokens``), whatever the server sends: a
# server that ignores max_tokens must not get megabytes into an answer, the run history and every page showing
# it. Tokens average about 4 characters; 8 leaves room for long ones, so a reply within its budget is never cut.
CHARS_PER_TOKEN = 8


def reply_chars(max_tokens: int) -> int:
    return max(1, int(max_tokens)) * CHARS_PER_TOKEN


@dataclass
class GenerationRequest:
    """One model pass: the prompt as chat messages, the grammar that constrains the reply, and the limits."""

    messages: list  # [{"role": "system"|"user"|"assistant", "content": str}]
    phase: str = "gather"  # "gather" (may emit TOOL_CALL lines) | "synthesis" (writes the answer)
    grammar: str | None = None  # GBNF text constraining a gather pass
    tools: list = field(default_factory=list)  # the tools' JSON schemas, for servers constrained by a JSON schema
    max_tokens: int = 384
    deadline: float | None = None  # time.monotonic() value after which generation stops
    stop: list = field(default_factory=list)
    remaining_calls: int = 0  # tool calls left under the cap (a server constrained by a JSON schema needs it)
    on_token: Callable[[str], None] | None = None


@dataclass
class Generation:
    text: str
    prompt_tokens: int = 0
    evaluated_tokens: int = 0  # prompt tokens actually evaluated; the rest came from the KV cache
    completion_tokens: int = 0
    duration_ms: float = 0.0
    first_token_ms: float | None = None  # from the start of the pass to its first generated token (None: not timed)
    finish_reason: str = "stop"  # stop | length | deadline | repeat (a gathering reply began a line it had written)


class ModelGate:
    """One generation at a time; at most ``queue_size`` callers wait, the rest get BackendBusy."""

    def __init__(self, queue_size: int = 8):
        self._lock = threading.Lock()
        self._state = threading.Lock()
        self.queue_size = int(queue_size)
        self.waiting = 0
        self.busy = False

    def acquire(self, deadline: float | None = None) -> None:
        """Wait for the model until ``deadline`` (time.monotonic()) at most: a question that cannot start within
        its time limit is told "busy" then, never kept waiting past it."""
        with self._state:
            if self.busy and self.waiting >= self.queue_size:
                raise BackendBusy(f"the model is busy: {self.waiting} requests already waiting; retry shortly")
            self.waiting += 1
        try:
            timeout = -1 if deadline is None else max(0.0, deadline - time.monotonic())
            got = self._lock.acquire(timeout=timeout)
        finally:
            with self._state:
                self.waiting -= 1
        if not got:
            raise BackendBusy("the model stayed busy with other questions for this question's whole time limit; "
                              "retry shortly")
        self.busy = True

    def release(self) -> None:
        self.busy = False
        self._lock.release()

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()
        return False


class Backend:
    """Base class: subclasses implement ``_generate`` and describe themselves in ``info``."""

    name = "base"
    n_ctx = 4096
    is_language_model = True  # a model: the rule planner helps it (the reading, key figures, the answer check)
    is_planner = False  # no model: the orchestrator lets the rule planner gather and answer

    def __init__(self, queue_size: int = 8):
        self.gate = ModelGate(queue_size)
        self.selection_reason = ""
        # Failures are remembered so /api/health can say "degraded" and why, instead of "ok".
        self.failures = 0
        self.last_error: str | None = None
        self.last_error_at: float | None = None
        self.last_ok_at: float | None = None

    def failure_state(self) -> dict:
        """"degraded" while the latest generation failed; the last error stays visible after recovery."""
        degraded = self.last_error_at is not None and (self.last_ok_at is None or self.last_ok_at < self.last_error_at)
        return {"status": "degraded" if degraded else "ok", "failures": self.failures,
                "last_error": self.last_error,
                "last_error_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.last_error_at))
                if self.last_error_at else None}

    @classmethod
    def from_settings(cls, settings: Settings) -> "Backend":
        """Build from settings; providers with more options override this."""
        return cls(queue_size=settings.model.queue_size)

    def info(self) -> dict:
        return {"backend": self.name, "model": None, "n_ctx": self.n_ctx, "reason": self.selection_reason}

    def warm(self, system_text: str, *others: str) -> dict:
        """Prepare for prompts that start with this system message (or one of ``others``); backends with a KV cache
        override it."""
        return {}

    def count_tokens(self, text: str) -> int:
        """Approximate for backends without a tokenizer; llama overrides with the real one."""
        return max(1, len(text) // 4)

    def count_message_tokens(self, messages: list) -> int:
        return sum(self.count_tokens(m["content"]) + 4 for m in messages)

    def generate(self, request: GenerationRequest) -> Generation:
        self.gate.acquire(request.deadline)
        try:
            started = time.perf_counter()
            try:
                generation = self._generate(request)
            except GenerationCancelled:
                raise
            except Exception as exc:
                self.failures += 1
                self.last_error, self.last_error_at = f"{type(exc).__name__}: {exc}", time.time()
                raise
            self.last_ok_at = time.time()
            if not generation.duration_ms:
                generation.duration_ms = round((time.perf_counter() - started) * 1000, 3)
            most = reply_chars(request.max_tokens)
            if len(generation.text) > most:  # the server ignored max_tokens: cut as if it had kept to it
                generation.text, generation.finish_reason = generation.text[:most], "length"
            return generation
        finally:
            self.gate.release()

    def _generate(self, request: GenerationRequest) -> Generation:
        raise NotImplementedError

    def close(self) -> None:
        pass


# name -> Backend subclass, filled by each provider module when it is imported (see llama_client.py).
BACKENDS: dict[str, type] = {}


def register_backend(cls):
    """Class decorator: make a backend choosable by its ``name``."""
    BACKENDS[cls.name] = cls
    return cls
