"""How errors read over HTTP: one shape, ``{"detail": ..., **data}``, rendered by one handler.

Services raise ``tournament.errors.ApplicationError`` (a message, a code and data, no status);
this is the one place that says which status each answers with. Every body carries a ``code``
(docs/design.md's promise): the application error's own, DRF's (``not_authenticated``,
``permission_denied``, ``not_found``, ``parse_error``, ``invalid``...). The player API answers a
refused slip with the status its code calls for.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tournament.errors import ApplicationError, NotFound
from web.api.parsers import RequestTooLarge
from web.outage import RETRY_AFTER_SECONDS, database_down, database_unavailable_body

# How a refusal of the player API reads over HTTP: its code picks the status (400 otherwise).
PLAY_REFUSAL_STATUS = {
    "not_your_event": status.HTTP_403_FORBIDDEN,
    "revoked": status.HTTP_403_FORBIDDEN,
    "withdrawn": status.HTTP_403_FORBIDDEN,
    "eliminated": status.HTTP_403_FORBIDDEN,  # out of a mort subite game (FISF 2023 3.8.3)
    "event_closed": status.HTTP_409_CONFLICT,
    "round_not_open": status.HTTP_409_CONFLICT,
    "round_paused": status.HTTP_409_CONFLICT,
    "deadline_passed": status.HTTP_409_CONFLICT,
}


# The body's fields as a refusal names them to people, in the language in force (a field not
# here is named by its key).
FIELD_NAMES = {
    "word": gettext_lazy("word"),
    "ref": gettext_lazy("reference"),
    "score": gettext_lazy("score"),
    "round": gettext_lazy("round"),
    "table": gettext_lazy("table"),
    "name": gettext_lazy("name"),
    "club": gettext_lazy("club"),
    "licence": gettext_lazy("licence"),
    "series": gettext_lazy("series"),
    "seed": gettext_lazy("seed"),
    "reason": gettext_lazy("reason"),
}


def _flatten(detail: Any) -> str:
    """The first readable message of a DRF error detail (string, list or dict)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _flatten(value)
            if key in {"non_field_errors", "detail"}:
                return text
            return gettext("%(field)s: %(problem)s") % {
                "field": FIELD_NAMES.get(key, key),
                "problem": text,
            }
        return gettext("Invalid input.")
    if isinstance(detail, list):
        return _flatten(detail[0]) if detail else gettext("Invalid input.")
    return str(detail)


def _application_response(exc: ApplicationError, statuses: dict[str, int]) -> Response:
    code: int
    if isinstance(exc, NotFound):
        code = status.HTTP_404_NOT_FOUND
    else:
        code = statuses.get(exc.code or "", status.HTTP_400_BAD_REQUEST)
    return Response({"detail": exc.message, **exc.data}, status=code)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, normalised so every error body is ``{"detail": str, ...}``; the database
    down is a 503 (code ``database_unavailable``, with Retry-After), not an HTML page."""
    if isinstance(exc, ApplicationError):
        return _application_response(exc, {})
    if database_down(exc):
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        return Response(
            database_unavailable_body(), status=status.HTTP_503_SERVICE_UNAVAILABLE, headers=headers
        )
    if isinstance(exc, RequestDataTooBig):  # DRF reads request.body: Django checks its size
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        exc = RequestTooLarge(
            gettext("The request body is larger than %(limit)s bytes.") % {"limit": limit},
            code="too_large",
        )
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages, code="invalid"
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(code="not_found")  # get_object_or_404 speaks English
    elif isinstance(exc, PermissionDenied):
        # The role check's sentence ("This needs the director role in ..."), kept.
        exc = exceptions.PermissionDenied(str(exc) or None, code="permission_denied")

    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"detail": _flatten(exc.detail), "fields": exc.detail}
    elif not (isinstance(response.data, dict) and "detail" in response.data):
        response.data = {"detail": _flatten(response.data)}
    if isinstance(response.data, dict) and "code" not in response.data:
        # DRF's own refusals (a body refused before any view read it, not signed in, no
        # such page...) say why in a code a client can switch on.
        response.data["code"] = _drf_code(exc)
    return response


def _drf_code(exc: Exception) -> str:
    """The code of a DRF exception: the one it was raised with, ``invalid`` for a validation
    error's several (each field's are under ``fields``)."""
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        return codes if isinstance(codes, str) else "invalid"
    return "error"


def play_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The player API's handler: a refused slip answers with the status of its code, and every
    error body has a ``code`` clients switch on."""
    if isinstance(exc, ApplicationError):
        response: Response | None = _application_response(exc, PLAY_REFUSAL_STATUS)
    else:
        response = api_exception_handler(exc, context)
    return response
