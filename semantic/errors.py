"""A query the layer cannot run gets a QueryError: a code, a message that names what is wrong, and where."""
from __future__ import annotations


class QueryError(ValueError):
    """A bad query: the code is stable for clients, the message is for people, ``at`` is the query path."""

    def __init__(self, message: str, code: str = "invalid_query", at: str = "", suggestions=None):
        super().__init__(message)
        self.code = code
        self.at = at
        self.suggestions = list(suggestions or [])

    def to_dict(self) -> dict:
        out = {"code": self.code, "message": str(self)}
        if self.at:
            out["at"] = self.at
        if self.suggestions:
            out["suggestions"] = self.suggestions
        return out
