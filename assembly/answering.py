"""The one way a question is answered, whichever door it came in by (the JSON API, /v1, MCP, the CLI).

``answer`` runs the question (as a conversation's next turn, or on its own), stores the run and returns the
result dict with ``run_id``/``saved`` (and ``conversation_id``/``turn``); ``stream_answer`` does the same as
events. Anything that keeps a question from being answered becomes an AskError with a stable code, a message
and the HTTP status that fits; each door renders it its own way (a JSON error, an OpenAI error, exit 2, an MCP
tool error). An answer is never lost to the run history: a store that cannot write only says so.
"""
from __future__ import annotations

import contextlib
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from backends.base import BackendBusy, BackendError
from loop.options import InvalidOptions
from settings.loader import DataNotFoundError
from store.conversations import ConversationError, Turn, begin_turn
from store.run_stats import latency_ms
from store.run_store import ANY, LONE_SURROGATE, ConversationFull, StoreUnavailable
from tools.data.integrity import DataIntegrityError

log = logging.getLogger("chiqa.answering")
RETRY_AFTER_SECONDS = 5
LONE = object()  # conversation_id for a run that belongs to no conversation (/v1 and MCP clients keep their own)


class AskError(Exception):
    """Why a question was not answered."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


@contextlib.contextmanager
def ask_errors():
    """Every reason a question cannot be answered, as an AskError."""
    try:
        yield
    except AskError:
        raise
    except InvalidOptions as exc:
        raise AskError(400, "invalid_options", str(exc)) from None
    except ConversationError as exc:
        raise AskError(exc.status, exc.code, exc.message) from None
    except BackendBusy as exc:
        raise AskError(503, "busy", str(exc) or "the model is busy; retry shortly", RETRY_AFTER_SECONDS) from None
    except DataIntegrityError as exc:
        raise AskError(503, "data_invalid", str(exc)) from None
    except DataNotFoundError as exc:
        raise AskError(503, "data_not_found", str(exc)) from None
    except BackendError as exc:
        raise AskError(503, "backend_unavailable", f"the model backend could not start: {exc}") from None
    except StoreUnavailable as exc:
        raise AskError(503, "run_store_unavailable", f"the run history could not be read: {exc}") from None


def check_question(question, limit: int) -> str:
    """The question, stripped; or an AskError saying what is wrong with it."""
    if question is None:
        raise AskError(400, "missing_question", 'the body needs a "question" string')
    if not isinstance(question, str):
        raise AskError(400, "invalid_question", '"question" must be a string')
    found = LONE_SURROGATE.search(question)
    if found:  # "\ud800" in JSON is not text: refused before any work is done
        raise AskError(400, "invalid_question", "the question is not valid UTF-8 text: it contains an unpaired "
                       f"UTF-16 surrogate (U+{ord(found.group()):04X} at position {found.start()})")
    question = question.strip()
    if not question:
        raise AskError(400, "empty_question", "the question is empty")
    if len(question) > limit:
        raise AskError(400, "question_too_long", f"the question has {len(question)} characters; the limit is {limit}")
    return question


def _turn(store, conversation_id, max_turns: int, owner) -> Turn | None:
    return None if conversation_id is LONE else begin_turn(store, conversation_id, max_turns,
                                                            ANY if owner is None else owner)


def answer(get_orchestrator: Callable, store, question: str, options: dict | None = None,
           conversation_id=LONE, max_turns: int = 0, owner: str | None = None, received: float | None = None) -> dict:
    """Answer and store one question. ``conversation_id``: None starts a conversation, an id continues one
    (``owner``'s only, when given: the hash of the asking client's token, stored with the run). ``received``:
    when the server had the request (time.monotonic()), where the question's time limit starts."""
    with ask_errors():
        turn = _turn(store, conversation_id, max_turns, owner)  # a bad conversation fails before the model loads
        orchestrator = get_orchestrator()
        check_waited(orchestrator, options, received)
        started = time.perf_counter()
        result = orchestrator.run(question, options, turn.history if turn else None, received).to_dict()
    return {**result, **save(store, result, (time.perf_counter() - started) * 1000, turn, max_turns, owner)}


@dataclass
class Streaming:
    start: dict  # the start event, with conversation_id and turn when in a conversation
    events: Iterator[dict]  # the rest, JSON-ready; the result event carries what save() says. Errors raise.
    close: Callable[[], None]


def stream_answer(get_orchestrator: Callable, store, question: str, options: dict | None = None,
                  conversation_id=LONE, max_turns: int = 0, owner: str | None = None,
                  received: float | None = None) -> Streaming:
    """The same as ``answer``, as events. Option errors and a full model queue raise here, before any event."""
    with ask_errors():
        turn = _turn(store, conversation_id, max_turns, owner)
        orchestrator = get_orchestrator()
        if queue_full(orchestrator.backend):
            raise BackendBusy("the model is busy: the wait queue is full; retry shortly")
        check_waited(orchestrator, options, received)
        started = time.perf_counter()
        events = orchestrator.stream(question, options, turn.history if turn else None, received)
        first = next(events)
    if turn is not None:
        first = {**first, "conversation_id": turn.conversation_id, "turn": turn.number}

    def rest():
        for event in map(event_dict, events):
            if event.get("event") == "result":
                result = event["result"]
                saved = save(store, result, (time.perf_counter() - started) * 1000, turn, max_turns, owner)
                event = {**event, "result": {**result, **saved}, **saved}
            yield event
    return Streaming(first, rest(), events.close)


def new_share_key() -> str:
    return secrets.token_urlsafe(18)


def permalink_path(run_id: str, share_key: str | None) -> str:
    """A run's page, with the capability that opens it to whoever holds the link."""
    return f"/runs/{run_id}?key={share_key}" if share_key else f"/runs/{run_id}"


def event_dict(event: dict) -> dict:
    """A stream event with its typed step or result serialised."""
    if event.get("event") == "step":
        return {**event, "step": event["step"].to_dict()}
    if event.get("event") == "result":
        return {**event, "result": event["result"].to_dict()}
    return event


def check_waited(orchestrator, options: dict | None, received: float | None) -> None:
    """Busy when the request already waited its whole time limit for a server thread: told now, not run late."""
    if received is None:
        return
    waited, limit = time.monotonic() - received, orchestrator.limits(options)["timeout_seconds"]
    if waited >= limit:
        raise BackendBusy(f"the server was busy: the question waited {waited:.1f} s, its whole time limit, "
                          "before it could start; retry shortly")


def queue_full(backend) -> bool:
    gate = getattr(backend, "gate", None)
    return bool(gate is not None and gate.busy and gate.waiting >= gate.queue_size)


def save(store, result: dict, measured_ms: float, turn: Turn | None = None, max_turns: int | None = None,
         owner: str | None = None) -> dict:
    """Store the run, as the conversation's next turn when ``turn`` is given. The answer is returned whatever
    happens to the store, saying whether it was kept; an unsaved first turn leaves no conversation to continue,
    so its conversation_id is null.

    The turn cap is enforced by the store inside the insert's transaction (begin_turn's check before answering
    only saves the work in the usual case). A follow-up that lost a race for the conversation's last turn was
    already answered when the store refuses it: the answer is still returned, with ``saved: false``,
    ``conversation_full: true`` and a save_error saying the conversation is full (not a 409, which would throw
    the computed answer away).

    A stored run gets a share key, an unguessable capability: ``permalink`` (/runs/<id>?key=<share_key>) opens
    it for whoever holds the link; without the key only its ``owner`` can read it."""
    conversation_id = turn.conversation_id if turn is not None else None
    number = None
    try:
        share_key = new_share_key()
        run_id, number = store.save_turn(result, conversation_id, latency=latency_ms(result) or round(measured_ms, 1),
                                         max_turns=max_turns if turn is not None and max_turns else None,
                                         owner=owner, share_key=share_key)
        saved = {"run_id": run_id, "saved": True, "share_key": share_key,
                 "permalink": permalink_path(run_id, share_key)}
    except ConversationFull as exc:
        saved = {"run_id": None, "saved": False, "save_error": str(exc), "conversation_full": True}
    except StoreUnavailable as exc:
        saved = {"run_id": None, "saved": False, "save_error": str(exc)}
    except Exception as exc:  # never lose a computed answer over the history
        log.exception("storing a run failed")
        store.unsaved += 1
        saved = {"run_id": None, "saved": False, "save_error": f"the run could not be stored ({type(exc).__name__})"}
    if turn is None:
        return saved
    kept = saved["saved"] or not turn.is_new
    return {**saved, "conversation_id": conversation_id if kept else None, "turn": number}
