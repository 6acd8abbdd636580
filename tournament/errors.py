"""The application's errors: a business rule said no.

One family, carrying a message for people, a code for programs and data for both, never an HTTP
status: the API layer (``web.api.errors``) maps them to responses (``{"detail": message, "code":
code, **data}``), the pages show them as form errors. The code is required where the error is
made (``tests/test_error_codes.py`` walks every construction): a short snake_case word a client
switches on (``deadline_passed``), stable whatever the language of the message.
"""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    """A business rule said no; ``message`` is for people, ``code`` and ``data`` for clients."""

    def __init__(self, message: str, *, code: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        if not code:
            raise TypeError("An application error needs its code.")
        if data and "code" in data:
            raise TypeError("The code is given as code=..., not in data.")
        self.message = message
        self.code = code
        # What the API answers beside the detail: the code first, then the rest.
        self.data: dict[str, Any] = {"code": code, **(data or {})}


class NotFound(ApplicationError):
    """What was asked for is not there (the API answers 404)."""
