"""Wire the API, pages, run store, runtime, error handlers and security headers into a Flask app."""
from __future__ import annotations

from flask.json.provider import DefaultJSONProvider

from web import access, api, geo, openai_compat, pages, query_api
from web.errors import register_error_handlers
from store.run_store import open_store, scrub_text
from web.runtime import get_runtime

# Defence in depth: the page never inserts untrusted text as HTML, and nothing loads from outside.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class ScrubbingJSONProvider(DefaultJSONProvider):
    """JSON responses with lone UTF-16 surrogates replaced: they cannot be encoded as UTF-8, and a reply
    that fails to encode would turn a finished answer into a 500."""

    def dumps(self, obj, **kwargs) -> str:
        return scrub_text(super().dumps(obj, **kwargs))


def register_web(app) -> None:
    settings = app.config["CHIQA_SETTINGS"]
    if not app.config.get("MAX_CONTENT_LENGTH"):
        app.config["MAX_CONTENT_LENGTH"] = settings.server.max_body_bytes
    app.json = ScrubbingJSONProvider(app)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.extensions["chiqa_store"] = open_store(settings)
    get_runtime(app)
    register_error_handlers(app)
    # Who can see what (web/access.py): the Host header first, then the client's identity.
    app.before_request(access.check_host)
    app.before_request(access.identify)
    app.after_request(access.set_cookie)
    app.register_blueprint(api.bp)
    app.register_blueprint(query_api.bp)
    app.register_blueprint(geo.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(openai_compat.bp)

    @app.after_request
    def _security_headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response
