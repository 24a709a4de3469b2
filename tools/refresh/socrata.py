"""Network side of ``data refresh``: sodapy paging, publisher CSV downloads, retries with backoff.

Every failure leaves here as a ``RefreshError`` with a one-line reason, never as a traceback,
and a host that refused connections is skipped for the rest of the run instead of being
retried once per dataset.
"""
from __future__ import annotations

import contextlib
import json
import logging
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlparse

import requests

from settings.schema import Settings
from tools.data.datasets import Dataset
from tools.errors import RefreshError

NO_RESOLUTION_MARKERS = ("NameResolution", "Name or service not known", "nodename nor servname",
                         "Temporary failure in name resolution", "No address associated")


def _classify(exc: Exception) -> tuple[bool, str]:
    """(worth retrying?, human description) for an exception raised while fetching."""
    if isinstance(exc, RefreshError):
        return False, str(exc)
    if isinstance(exc, (json.JSONDecodeError, requests.exceptions.JSONDecodeError)):
        return False, "malformed JSON in the response"
    if isinstance(exc, requests.HTTPError):
        status = getattr(exc.response, "status_code", None)
        reason = getattr(exc.response, "reason", "") or ""
        return (status is not None and (status >= 500 or status == 429)), f"HTTP {status} {reason}".strip()
    if isinstance(exc, requests.exceptions.ChunkedEncodingError):
        return True, "the connection broke off mid-download"
    if isinstance(exc, requests.Timeout):
        return True, "the request timed out"
    if isinstance(exc, requests.ConnectionError):
        if any(marker in str(exc) for marker in NO_RESOLUTION_MARKERS):
            return False, "could not resolve the host name (no network?)"
        return True, "could not connect (no network?)"
    if isinstance(exc, requests.RequestException):
        return False, f"request failed: {exc.__class__.__name__}"
    return False, f"{exc.__class__.__name__}: {exc}"


@dataclass
class Fetcher:
    """Retries with exponential backoff; remembers hosts that were unreachable in this run."""

    retries: int = 3
    backoff: float = 1.0
    sleep: Callable[[float], None] = time.sleep
    dead_hosts: dict = field(default_factory=dict)

    def call(self, host: str, what: str, fn: Callable):
        if host in self.dead_hosts:
            raise RefreshError(f"skipped: {host} was unreachable earlier in this run")
        attempt = 0
        while True:
            try:
                return fn()
            except Exception as exc:  # classified below; nothing escapes as a traceback
                transient, description = _classify(exc)
                if transient and attempt < self.retries:
                    self.sleep(self.backoff * (2 ** attempt))
                    attempt += 1
                    continue
                tries = f" after {attempt + 1} attempts" if attempt else ""
                if isinstance(exc, requests.ConnectionError):
                    self.dead_hosts[host] = description
                raise RefreshError(f"{what}: {description}{tries}") from exc


def _progress(desc: str, total=None, unit="rows"):
    from tqdm import tqdm

    # Only on a terminal: piped or captured output would fill up with carriage-return frames.
    return tqdm(total=total, desc=desc, unit=unit, unit_scale=True, leave=False, file=sys.stderr,
                disable=not sys.stderr.isatty())


@contextlib.contextmanager
def _quiet_sodapy():
    """sodapy logs its own no-token warning; the command prints a clearer note once."""
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(previous)


def socrata_client(settings: Settings, token: str | None):
    from sodapy import Socrata

    domain = settings.socrata.domain
    timeout = settings.socrata.timeout_seconds
    with _quiet_sodapy():
        return Socrata(domain, token, timeout=timeout)


def fetch_socrata(client, ds: Dataset, page_size: int, fetcher: Fetcher) -> list[dict]:
    """All rows of one dataset, page by page (ordered by :id so pages are stable)."""
    label = f"{ds.key} ({ds.portal_id})"
    rows: list[dict] = []
    offset = 0
    with _progress(ds.key) as bar:
        while True:
            page = fetcher.call(
                client.domain, f"{label} offset {offset}",
                lambda: client.get(ds.portal_id, where=ds.soql_where, limit=page_size, offset=offset, order=":id"),
            )
            if not isinstance(page, list) or any(not isinstance(r, dict) for r in page):
                raise RefreshError(f"{label}: malformed JSON (expected a list of records, "
                                   f"got {type(page).__name__})")
            # Some portals ignore $limit / $offset; without these two checks the loop would never end.
            if len(page) > page_size:
                raise RefreshError(f"{label}: the portal returned {len(page)} rows for a page of "
                                   f"{page_size}; paging is not working, giving up")
            if page and rows and offset >= page_size and page[0] == rows[offset - page_size]:
                raise RefreshError(f"{label}: offset {offset} returned the previous page again; "
                                   "paging is not working, giving up")
            rows.extend(page)
            bar.update(len(page))
            if len(page) < page_size:
                return rows
            offset += page_size


def download(url: str, target: Path, timeout: float, fetcher: Fetcher, what: str) -> None:
    """Stream ``url`` into ``target`` (a temp file in the destination folder)."""
    host = urlparse(url).netloc

    def attempt():
        with requests.get(url, stream=True, timeout=timeout) as resp:
            resp.raise_for_status()
            total = int(resp.headers.get("content-length") or 0) or None
            with open(target, "wb") as fh, _progress(what, total=total, unit="B") as bar:
                for chunk in resp.iter_content(chunk_size=1 << 16):
                    fh.write(chunk)
                    bar.update(len(chunk))

    fetcher.call(host, f"{what} ({host})", attempt)
