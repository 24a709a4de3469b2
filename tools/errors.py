"""The exceptions the data tools raise. This module imports nothing, so every tool module can use it."""


class ToolArgumentError(ValueError):
    """An argument is missing, of the wrong type, or outside its valid range or choices."""

    def __init__(self, message: str, code: str = "invalid_argument"):
        super().__init__(message)
        self.code = code


class RefreshError(Exception):
    """One dataset could not be refreshed; the message says why (the old file is untouched)."""
