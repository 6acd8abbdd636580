"""One family of application errors, rendered one way by the API: ``{"detail": ...}``.

Services raise ``ApplicationError`` (or a subclass) with a message a director can read;
views turn it into a form error, the API into a 400 with ``{"detail": message}``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApplicationError(Exception):
    """A business rule said no; ``message`` is for people, ``extra`` for clients."""

    status_code = 400

    def __init__(self, message: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}


class NotFound(ApplicationError):
    status_code = 404


def _flatten(detail: Any) -> str:
    """The first readable message of a DRF error detail (string, list or dict)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _flatten(value)
            return text if key in {"non_field_errors", "detail"} else f"{key}: {text}"
        return "Invalid input."
    if isinstance(detail, list):
        return _flatten(detail[0]) if detail else "Invalid input."
    return str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, normalised so every error body is ``{"detail": str, ...}``."""
    if isinstance(exc, ApplicationError):
        return Response({"detail": exc.message, **exc.extra}, status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"detail": _flatten(exc.detail), "fields": exc.detail}
    elif not (isinstance(response.data, dict) and "detail" in response.data):
        response.data = {"detail": _flatten(response.data)}
    return response
