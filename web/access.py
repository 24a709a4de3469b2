"""Who can see what (docs/operations.md): the client's identity, the allowed hosts and permalinks.

Identity: an API client sends ``Authorization: Bearer <key>`` (a secret it chooses, 16 to 512 characters;
a shorter key or another scheme is ignored);
a browser gets a random token in the HttpOnly, SameSite=Strict cookie ``chiqa_client`` on its first request.
Only the token's SHA-256 is stored with a run (``owner``); a run, its feedback and its conversation are
readable and continuable by that client only, and by nobody else they are "not found" (404, never 403).
A run's permalink carries its share key (``/runs/<id>?key=...``): sharing that link is the opt-in.

Hosts: a Host header whose name is not in ``server.allowed_hosts`` (loopback names by default; the host of
``server.public_url`` is added) is refused with 400 in the error shape, so a DNS-rebinding page cannot read
the app from a browser on the same machine.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from urllib.parse import urlsplit

from flask import current_app, g, request

from assembly.answering import permalink_path
from web.errors import error_response

COOKIE = "chiqa_client"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest lifetime browsers keep
COOKIE_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
MIN_KEY_CHARS = 16
MAX_KEY_CHARS = 512


def owner_hash(token: str) -> str:
    return hashlib.sha256(b"chiqa-owner\0" + token.encode("utf-8", "replace")).hexdigest()


def _host_name(host: str) -> str:
    """The Host header without its port, lowercased: "[::1]:8000" -> "[::1]", "LocalHost.:80" -> "localhost"."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[:end + 1] if end > 0 else host
    return host.rsplit(":", 1)[0].rstrip(".") if ":" in host else host.rstrip(".")


def allowed_hosts(settings) -> set[str]:
    names = {_host_name(part) for part in settings.server.allowed_hosts.split(",") if part.strip()}
    if settings.server.public_url:
        public = urlsplit(settings.server.public_url).netloc
        if public:
            names.add(_host_name(public.rsplit("@", 1)[-1]))
    return names


def check_host():
    """before_request: a response refusing a Host header that is not allowed, else None."""
    allowed = current_app.extensions.get("chiqa_allowed_hosts")
    if allowed is None:
        allowed = current_app.extensions["chiqa_allowed_hosts"] = allowed_hosts(current_app.config["CHIQA_SETTINGS"])
    if "*" in allowed:
        return None
    name = _host_name(request.host or "")
    if name in allowed:
        return None
    shown = (request.host or "")[:80]
    return error_response(400, "host_not_allowed",
                          f"the Host header {shown!r} is not one this server answers to; add it to "
                          "server.allowed_hosts (or set server.public_url) to serve it")


def identify() -> None:
    """before_request: g.owner, the hash of the client's token; g.new_token when a cookie must be set."""
    g.new_token = None
    scheme, _, key = (request.headers.get("Authorization") or "").strip().partition(" ")
    key = key.strip()
    # Only a bearer key long enough to be a secret is an identity. Another scheme (a proxy's Basic auth) or a
    # short placeholder ("not-needed", which OpenAI clients must send) is not: such a request is a client
    # like any other, known by its cookie or, without one, a fresh identity for this request alone (its runs
    # are then reachable only through their permalinks). A shared placeholder never shares runs.
    if scheme.lower() == "bearer" and MIN_KEY_CHARS <= len(key) <= MAX_KEY_CHARS:
        g.owner = owner_hash(key)
        return
    token = request.cookies.get(COOKIE)
    if token is None or not COOKIE_TOKEN.fullmatch(token):
        token = secrets.token_urlsafe(32)
        # A cross-site navigation (a shared link followed from elsewhere) arrives without the SameSite=Strict
        # cookie even when the browser has one: never overwrite it from such a request.
        if request.headers.get("Sec-Fetch-Site", "").lower() not in ("cross-site", "same-site"):
            g.new_token = token
    g.owner = owner_hash(token)


def set_cookie(response):
    """after_request: the new client token, when this request made one."""
    token = getattr(g, "new_token", None)
    if token:
        response.set_cookie(COOKIE, token, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="Strict",
                            secure=request.is_secure)
    return response


def current_owner() -> str:
    return g.owner


def can_read(run: dict, key: str | None) -> bool:
    """The caller owns the run, or holds its share key."""
    if run.get("owner") is not None and hmac.compare_digest(run["owner"], g.owner):
        return True
    share = run.get("share_key")
    return bool(share and key and hmac.compare_digest(share.encode(), key.encode("utf-8", "replace")))


def owns(run: dict) -> bool:
    return run.get("owner") is not None and hmac.compare_digest(run["owner"], g.owner)


def public_base() -> str:
    """``server.public_url``, else the request's own scheme and (allowed) host."""
    configured = current_app.config["CHIQA_SETTINGS"].server.public_url
    return (configured or request.host_url).rstrip("/")


def permalink(run_id: str | None, share_key: str | None) -> str | None:
    """The run's absolute link, with its share key; None for a run that was not stored."""
    if not run_id:
        return None
    return public_base() + permalink_path(run_id, share_key)


def public_run(run: dict) -> dict:
    """A stored run as the API shows it: never the owner hash; the share key and permalink to its owner only."""
    out = {k: v for k, v in run.items() if k not in ("owner", "share_key")}
    out["owned"] = owns(run)
    if out["owned"]:
        out["share_key"] = run.get("share_key")
        out["permalink"] = permalink(run["id"], run.get("share_key")) if run.get("share_key") else None
    return out
