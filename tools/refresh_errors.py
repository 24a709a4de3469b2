"""The one exception the ``data refresh`` modules raise, shared so none depends on another for it."""
from __future__ import annotations


class RefreshError(Exception):
    """One dataset could not be refreshed; the message says why (the old file is untouched)."""
