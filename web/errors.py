"""JSON errors for everything under /api: {"ok": false, "error": {"code": ..., "message": ...}}.

Handlers are registered for ApiError (raised by the API code), every werkzeug HTTPException
(404, 405, 413, ...) and any other exception, but only for paths under /api and /v1; the HTML
pages keep Flask's normal error pages. Under /v1 (the OpenAI-compatible routes) the same errors
take OpenAI's shape, {"error": {"message", "type", "param", "code"}}, because OpenAI clients
read that shape to raise their own typed exceptions.
"""
from __future__ import annotations

import logging

from flask import jsonify, request
from werkzeug.exceptions import HTTPException

from store.run_store import StoreUnavailable

log = logging.getLogger("chiqa.web")

# HTTP status -> stable machine-readable code for werkzeug's own errors.
HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
    500: "internal_error",
    503: "busy",
}


class ApiError(Exception):
    """An error the API reports to the client as JSON with the given HTTP status."""

    def __init__(self, status: int, code: str, message: str, headers: dict | None = None,
                 param: str | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.param = param  # the request field at fault (reported under /v1 only)


def error_body(code: str, message: str) -> dict:
    return {"ok": False, "error": {"code": code, "message": message}}


def openai_error_type(status: int) -> str:
    """OpenAI's error ``type`` for an HTTP status."""
    if status == 401:
        return "authentication_error"
    if status == 429:
        return "rate_limit_error"
    return "server_error" if status >= 500 else "invalid_request_error"


def openai_error_body(status: int, code: str, message: str, param: str | None = None) -> dict:
    return {"error": {"message": message, "type": openai_error_type(status), "param": param, "code": code}}


def _is_openai() -> bool:
    return request.path == "/v1" or request.path.startswith("/v1/")


def error_response(status: int, code: str, message: str, headers: dict | None = None, param: str | None = None):
    body = openai_error_body(status, code, message, param) if _is_openai() else error_body(code, message)
    response = jsonify(body)
    response.status_code = status
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def _is_api() -> bool:
    return request.path == "/api" or request.path.startswith("/api/") or _is_openai()


def register_error_handlers(app) -> None:
    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, exc.headers, exc.param)

    @app.errorhandler(StoreUnavailable)
    def _store_unavailable(exc: StoreUnavailable):
        if not _is_api():
            return "The run history is unavailable right now.", 503
        return error_response(503, "store_unavailable", str(exc))

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        if not _is_api():
            return exc
        status = exc.code or 500
        code = HTTP_CODES.get(status, "http_error")
        message = exc.description or exc.name
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH")
            message = f"the request body is larger than {limit} bytes" if limit else message
        elif status == 404:
            message = f"no such endpoint: {request.method} {request.path}"
        elif status == 405:
            allowed = ", ".join(sorted(getattr(exc, "valid_methods", None) or []))
            message = f"{request.method} is not allowed on {request.path}" + (f"; use {allowed}" if allowed else "")
        response = error_response(status, code, message)
        if status == 405 and getattr(exc, "valid_methods", None):
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        if isinstance(exc, HTTPException):  # pragma: no cover - routed above
            return _http_error(exc)
        log.exception("unhandled error on %s %s", request.method, request.path)
        if not _is_api():
            return "Internal server error", 500
        return error_response(500, "internal_error", f"internal error ({type(exc).__name__}); see the server log")
