"""OpenAI-compatible routes under /v1, so chat front ends (Open WebUI), `llm` and the OpenAI SDKs can ask ChiQA.

GET  /v1/models               the models ChiQA answers as (protocols.openai_chat.MODELS)
GET  /v1/models/<id>          one of them
POST /v1/chat/completions     the last user message answered by ChiQA's loop; stream=true gives SSE chunks

Each answer is stored in the run history like /api/ask's, and the response carries the compact trace
(`chiqa`: run id, permalink, tool calls) besides the visible text. The app's limits apply (body size,
question length, the model queue: 503 with Retry-After when full); errors take OpenAI's shape
(web/errors.py) so OpenAI clients raise their usual exceptions.
"""
from __future__ import annotations

import logging
import secrets
import time

from flask import Blueprint, Response, current_app, jsonify, stream_with_context

from assembly.answering import RETRY_AFTER_SECONDS, AskError, answer, stream_answer
from backends.base import BackendBusy
from protocols import openai_chat as oc
from protocols.trace import compact_trace, usage
from web.api import _check_text as check_text
from web.api import get_orchestrator, read_json_body, received_at
from web import access
from web.errors import ApiError, openai_error_body

log = logging.getLogger("chiqa.web")
bp = Blueprint("openai", __name__, url_prefix="/v1")
STARTED = int(time.time())


def _parse():
    body = read_json_body()
    try:
        chat = oc.parse_chat_request(body, current_app.config["CHIQA_SETTINGS"].server.max_question_chars)
    except oc.ChatRequestError as exc:
        raise ApiError(exc.status, exc.code, exc.message, param=exc.param) from None
    try:
        check_text("question", chat.question)  # /api/ask's own check: a lone surrogate is not text
    except ApiError as exc:
        exc.param = "messages"
        raise
    return chat


def _permalink(result: dict) -> str | None:
    """The run's link with its share key (so the link works for whoever the client hands it to), from
    server.public_url or the request's own allowed host; None when the run could not be stored."""
    return access.permalink(result.get("run_id"), result.get("share_key"))


def _trace(chat: oc.ChatRequest, result: dict, run_id: str, permalink: str) -> dict:
    # ignored_messages tells a chat client that its earlier turns were not used (see protocols/openai_chat.py).
    return {**compact_trace(result, run_id, permalink), "ignored_messages": chat.ignored_messages}


@bp.get("/models")
def models():
    return jsonify({"object": "list", "data": [oc.model_card(m, STARTED) for m in oc.MODELS]})


@bp.get("/models/<path:model_id>")
def model(model_id: str):
    try:
        oc.check_model(model_id)
    except oc.ChatRequestError as exc:
        raise ApiError(exc.status, exc.code, exc.message, param=exc.param) from None
    return jsonify(oc.model_card(model_id, STARTED))


def _ask_error(exc: AskError) -> ApiError:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return ApiError(exc.status, exc.code, exc.message, headers, param="chiqa" if exc.code == "invalid_options" else None)


@bp.post("/chat/completions")
def chat_completions():
    chat = _parse()
    if chat.stream:
        return _stream(chat)
    try:
        result = answer(get_orchestrator, current_app.extensions["chiqa_store"], chat.question, chat.options,
                        owner=access.current_owner(), received=received_at())
    except AskError as exc:
        raise _ask_error(exc) from None
    run_id = result["run_id"]  # None when not saved
    permalink = _permalink(result)
    steps = [s for s in result.get("trace") or [] if isinstance(s, dict) and s.get("type") == "tool_call"]
    content = oc.visible_text(result, steps, permalink, chat.model)
    return jsonify(oc.completion(f"chatcmpl-{run_id or secrets.token_hex(8)}", int(time.time()), chat.model, content,
                                 _trace(chat, result, run_id, permalink), usage(result)))


def _stream(chat: oc.ChatRequest):
    try:  # option errors and a busy model surface here, before any byte is sent
        streaming = stream_answer(get_orchestrator, current_app.extensions["chiqa_store"], chat.question,
                                  chat.options, owner=access.current_owner(), received=received_at())
    except AskError as exc:
        raise _ask_error(exc) from None
    # The id is known before the run is stored; the stored run id travels in the last chunk's `chiqa`.
    completion_id = f"chatcmpl-{secrets.token_hex(8)}"
    created = int(time.time())

    def generate():
        had_calls = False
        try:
            yield oc.sse(oc.chunk(completion_id, created, chat.model, {"role": "assistant", "content": ""}))
            for event in streaming.events:  # typed steps and result, serialised at this edge
                kind = event.get("event") if isinstance(event, dict) else None
                if kind == "step" and event["step"].get("type") == "tool_call":
                    had_calls = True
                    text = oc.tool_call_text(event["step"], chat.model)
                    yield oc.sse(oc.chunk(completion_id, created, chat.model, {"content": text}))
                elif kind == "result":
                    result = event.get("result") or {}
                    run_id = result.get("run_id")
                    permalink = _permalink(result)  # stream_with_context keeps the request
                    text = oc.answer_text(oc.shown_answer(result), permalink, chat.model, had_calls)
                    yield oc.sse(oc.chunk(completion_id, created, chat.model, {"content": text}))
                    yield oc.sse(oc.chunk(completion_id, created, chat.model, {}, "stop",
                                          chiqa=_trace(chat, result, run_id, permalink)))
                    if chat.include_usage:
                        yield oc.sse(oc.chunk(completion_id, created, chat.model, None, usage=usage(result)))
        except BackendBusy as exc:  # the status line is gone: report in-band, the way OpenAI streams errors
            body = openai_error_body(503, "busy", f"{exc} (retry after {RETRY_AFTER_SECONDS} s)")
            yield oc.sse(body)
        except Exception as exc:
            log.exception("error while streaming a chat completion")
            yield oc.sse(openai_error_body(500, "internal_error", f"internal error ({type(exc).__name__})"))
        finally:
            streaming.close()
        yield oc.sse("[DONE]")

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
