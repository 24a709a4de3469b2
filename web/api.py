"""The JSON API under /api. Every error is {"ok": false, "error": {"code", "message"}}.

POST /api/ask                 answer a question; the result object plus run_id, saved, conversation_id and turn
                              (send {"conversation_id": ...} back to ask a follow-up in the same conversation)
POST /api/ask/stream          the same, as NDJSON events while it runs (start, step..., result)
GET  /api/conversations/<id>  a conversation's turns (run_id, turn, question, answer)
GET  /api/runs                recent runs (?limit=1..50, ?offset=)
GET  /api/runs/<id>           one stored run (summary fields plus the full result)
POST /api/runs/<id>/feedback  {"rating": "up"|"down"|1|-1, "comment": optional, <= 1000 chars}
GET  /api/tools               the tool schemas
GET  /api/health              backend/model and data state, never loading anything
GET  /api/stats               run history statistics

Runs and conversations belong to the client that made them (web/access.py: a bearer key or the chiqa_client
cookie): /api/runs lists the caller's; a run, its feedback and a conversation of another client are 404.
GET /api/runs/<id>?key=<share key> (the permalink's key) reads a run shared on purpose.
"""
from __future__ import annotations

import json
import logging
import time

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    request,
    stream_with_context,
)
from werkzeug.exceptions import BadRequest, HTTPException

from assembly.answering import RETRY_AFTER_SECONDS, AskError, answer, check_question, stream_answer
from assembly.version import VERSION
from backends.base import BackendBusy
from store.conversations import ConversationError, check_id
from store.run_store import LONE_SURROGATE, scrub_text
from web import RECEIVED_KEY, access
from web.errors import ApiError
from web.runtime import get_runtime

log = logging.getLogger("chiqa.web")
bp = Blueprint("api", __name__, url_prefix="/api")

MAX_COMMENT_CHARS = 1000
STARTED_AT = time.time()


def _store():
    return current_app.extensions["chiqa_store"]


def _settings() -> dict:
    return current_app.config["CHIQA_SETTINGS"]


# ---------------------------------------------------------------- request parsing

def read_json_body() -> dict:
    """The request body as a JSON object, or an ApiError (415, 413, 400)."""
    if request.mimetype != "application/json":
        raise ApiError(415, "unsupported_media_type",
                       f"send the body as application/json (got {request.mimetype or 'no content type'})")
    limit = _settings().server.max_body_bytes
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(413, "body_too_large", f"the request body is larger than {limit} bytes")
    try:
        raw = _read_body(request.stream, limit + 1)  # MAX_CONTENT_LENGTH also caps chunked bodies...
    except HTTPException as exc:
        if not isinstance(exc, BadRequest):  # e.g. 413: answered by the error handlers as it is
            raise
        raise _unreadable_body() from None
    except Exception:  # noqa: BLE001 - whatever the server's input stream raises: a malformed chunked encoding
        # (werkzeug: ValueError; gunicorn: InvalidChunkSize, ChunkMissingTerminator, ...) or a client that
        # stopped sending (OSError, gunicorn's NoMoreData) is the body's fault, never a 500.
        raise _unreadable_body() from None
    # ...by cutting them at the limit, so a body without Content-Length that fills it is too large.
    if len(raw) > limit or (request.content_length is None and len(raw) >= limit):
        raise ApiError(413, "body_too_large", f"the request body is larger than {limit} bytes")
    try:
        body = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "invalid_json", "the body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ApiError(400, "invalid_json", f"the body is not valid JSON: {exc.msg} at position {exc.pos}") from None
    except RecursionError:
        raise ApiError(400, "invalid_json", "the body nests arrays or objects too deeply") from None
    except ValueError as exc:  # e.g. an integer longer than Python's 4,300-digit conversion limit
        raise ApiError(400, "invalid_json", f"the body holds a value that cannot be read: {exc}") from None
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_json", "the body must be a JSON object")
    return body


def _read_body(stream, most: int) -> bytes:
    """Up to `most` bytes of the body, read into a memoryview rather than through stream.read().

    Werkzeug's dev-server dechunker (`app.py serve`) copies a short read into the buffer it is given and
    reports the full length asked for. Through stream.read() that buffer is a bytearray: it shrinks, and
    io.RawIOBase.read then copies up to 64 KiB from past its end (heap bytes in the body, or a segfault)
    when a chunk declares more than the client sends. A memoryview cannot shrink, so the same short read
    raises ValueError, which read_json_body answers as an unreadable body.
    """
    buffer = bytearray(most)
    view = memoryview(buffer)
    got = 0
    reads_into = hasattr(stream, "readinto")
    while got < most:
        if reads_into:
            n = stream.readinto(view[got:])
        else:  # gunicorn's input has only read(); it returns fresh bytes, nothing to overrun
            data = stream.read(most - got)
            n = len(data)
            view[got:got + n] = data
        if not n:
            break
        got += n
    return bytes(view[:got])


def _unreadable_body() -> ApiError:
    return ApiError(400, "invalid_body", "the request body could not be read (malformed chunked encoding, "
                                         "or the body ended early)")


def _check_text(field: str, text: str) -> None:
    """Lone UTF-16 surrogates ("\\ud800" in JSON) are not text: refuse them before any work is done."""
    found = LONE_SURROGATE.search(text)
    if found:
        raise ApiError(400, f"invalid_{field}", f"the {field} contains an unpaired UTF-16 surrogate "
                       f"(U+{ord(found.group()):04X} at position {found.start()}); send valid Unicode text")


def from_ask_error(exc: AskError) -> ApiError:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return ApiError(exc.status, exc.code, exc.message, headers)


def parse_ask() -> tuple[str, dict, str | None]:
    body = read_json_body()
    try:
        question = check_question(body.get("question"), _settings().server.max_question_chars)
    except AskError as exc:
        raise from_ask_error(exc) from None
    options = body.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ApiError(400, "invalid_options", '"options" must be a JSON object')
    unknown = sorted(set(body) - {"question", "options", "conversation_id"})
    if unknown:
        raise ApiError(400, "unknown_field",
                       f"unknown field(s): {', '.join(unknown)}; send question, options and conversation_id")
    return question, options, body.get("conversation_id")


def received_at() -> float | None:
    """When the server had this request whole (time.monotonic()), where a question's time limit starts; None
    under a server that does not say (web/worker.py does)."""
    value = request.environ.get(RECEIVED_KEY)
    return value if isinstance(value, float) else None


def get_orchestrator():
    """The per-worker orchestrator (loading failures are mapped by assembly.answering)."""
    return get_runtime(current_app).orchestrator()


# ---------------------------------------------------------------- ask

@bp.post("/ask")
def ask():
    question, options, conversation_id = parse_ask()
    try:
        return jsonify(answer(get_orchestrator, _store(), question, options, conversation_id,
                              _settings().orchestrator.max_conversation_turns, owner=access.current_owner(),
                              received=received_at()))
    except AskError as exc:
        raise from_ask_error(exc) from None


def _ndjson(event: dict) -> str:
    return scrub_text(json.dumps(event, default=str, ensure_ascii=False)) + "\n"


@bp.post("/ask/stream")
def ask_stream():
    question, options, conversation_id = parse_ask()
    try:
        streaming = stream_answer(get_orchestrator, _store(), question, options, conversation_id,
                                  _settings().orchestrator.max_conversation_turns, owner=access.current_owner(),
                                  received=received_at())
    except AskError as exc:
        raise from_ask_error(exc) from None

    def generate():
        try:
            yield _ndjson(streaming.start)
            for event in streaming.events:
                yield _ndjson(event)
        except BackendBusy as exc:
            yield _ndjson({"event": "error", "error": {"code": "busy", "message": str(exc),
                                                       "retry_after": RETRY_AFTER_SECONDS}})
        except Exception as exc:  # the status line is gone; report in-band
            log.exception("error while streaming an answer")
            yield _ndjson({"event": "error", "error": {"code": "internal_error",
                                                       "message": f"internal error ({type(exc).__name__})"}})
        finally:
            streaming.close()

    return Response(stream_with_context(generate()), mimetype="application/x-ndjson",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


# ---------------------------------------------------------------- runs and feedback

def _int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(400, "invalid_parameter", f"{name} must be an integer between {low} and {high}") from None
    if not low <= value <= high:
        raise ApiError(400, "invalid_parameter", f"{name} must be between {low} and {high}")
    return value


@bp.get("/runs")
def runs():
    limit = _int_arg("limit", 10, 1, 50)
    offset = _int_arg("offset", 0, 0, 10**9)
    items, total = _store().recent(limit, offset, owner=access.current_owner())
    return jsonify({"runs": [access.public_run(item) for item in items], "total": total, "limit": limit, "offset": offset,
                    "next_offset": offset + limit if offset + limit < total else None})


@bp.get("/runs/<run_id>")
def run_detail(run_id: str):
    store = _store()
    run = store.get(run_id)
    if run is not None and not access.can_read(run, request.args.get("key")):
        run = None  # another client's run is not found, the same as one that does not exist
    if run is None:
        aside = store.moved_aside[-1]["path"] if store.moved_aside else None
        note = f"; a corrupt run store was moved aside to {aside}, earlier runs are in that file" if aside else ""
        raise ApiError(404, "run_not_found", f"no stored run with id {run_id!r}{note}")
    return jsonify(access.public_run(run))


@bp.get("/conversations/<conversation_id>")
def conversation(conversation_id: str):
    try:
        check_id(conversation_id)
    except ConversationError as exc:
        raise ApiError(exc.status, exc.code, exc.message) from None
    turns = _store().conversation_turns(conversation_id, owner=access.current_owner())
    if not turns:
        raise ApiError(404, "conversation_not_found", f"no conversation with id {conversation_id!r}")
    limit = _settings().orchestrator.max_conversation_turns
    return jsonify({"conversation_id": conversation_id, "max_turns": limit, "turns_left": max(0, limit - len(turns)),
                    "turns": [{**{k: t[k] for k in ("turn", "run_id", "created_at", "question", "answer")},
                               "permalink": access.permalink(t["run_id"], t["share_key"])} for t in turns]})


@bp.post("/runs/<run_id>/feedback")
def feedback(run_id: str):
    body = read_json_body()
    rating = body.get("rating")
    mapping = {"up": 1, "down": -1, 1: 1, -1: -1}
    # Lists and objects are unhashable: the type is checked before the lookup.
    if isinstance(rating, bool) or not isinstance(rating, (str, int, float)) or rating not in mapping:
        raise ApiError(400, "invalid_rating", 'rating must be "up", "down", 1 or -1')
    comment = body.get("comment")
    if comment is not None:
        if not isinstance(comment, str):
            raise ApiError(400, "invalid_comment", "comment must be a string")
        _check_text("comment", comment)
        comment = comment.strip()
        if len(comment) > MAX_COMMENT_CHARS:
            raise ApiError(400, "comment_too_long",
                           f"the comment has {len(comment)} characters; the limit is {MAX_COMMENT_CHARS}")
        comment = comment or None
    unknown = sorted(set(body) - {"rating", "comment"})
    if unknown:
        raise ApiError(400, "unknown_field", f"unknown field(s): {', '.join(unknown)}")
    if not _store().set_feedback(run_id, mapping[rating], comment, owner=access.current_owner()):
        raise ApiError(404, "run_not_found", f"no stored run with id {run_id!r}")
    return jsonify({"ok": True, "run_id": run_id, "rating": mapping[rating], "comment": comment})


# ---------------------------------------------------------------- tools, health, stats

@bp.get("/tools")
def tools():
    schemas = get_runtime(current_app).tool_schemas()
    return jsonify({"tools": schemas, "count": len(schemas)})


@bp.get("/health")
def health():
    runtime = get_runtime(current_app)
    backend, data, store = runtime.health(), runtime.data_health(), _store().health()
    degraded = [name for name, part in (("backend", backend), ("data", data), ("store", store))
                if part.get("status", part.get("state")) in ("degraded", "error", "failed")]
    return jsonify({
        "ok": True,
        "status": "degraded" if degraded else "ok",
        "degraded": degraded,
        "version": VERSION,
        "uptime_s": round(time.time() - STARTED_AT, 1),
        "backend": backend,
        "data": data,
        "store": store,
        "limits": {
            "max_tool_calls": _settings().orchestrator.max_tool_calls,
            "timeout_seconds": _settings().orchestrator.timeout_seconds,
            "max_question_chars": _settings().server.max_question_chars,
            "max_body_bytes": _settings().server.max_body_bytes,
            "max_conversation_turns": _settings().orchestrator.max_conversation_turns,
        },
    })


@bp.get("/stats")
def stats():
    return jsonify(_store().stats())
