"""The application's errors: a business rule said no.

One family, carrying a message for people and data for programs, never an HTTP status: the
API layer (``web.api.errors``) maps them to responses, the pages show them as form errors.
"""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    """A business rule said no; ``message`` is for people, ``data`` for clients (``code``...)."""

    def __init__(self, message: str, *, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data or {}

    @property
    def code(self) -> str | None:
        """What went wrong, for programs (``deadline_passed``...), when the raiser said."""
        code = self.data.get("code")
        return code if isinstance(code, str) else None


class NotFound(ApplicationError):
    """What was asked for is not there (the API answers 404)."""
