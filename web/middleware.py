"""Checks on every request before any view or form sees it (``web.inputs`` says why):

- a body over ``REQUEST_BODY_MAX_BYTES`` (its Content-Length) is refused with a 413 before a
  byte of it is read: an upload is otherwise streamed to disk whole before a view can look
  (a word list's upload may be ``WORD_LIST_MAX_BYTES`` and its form, a room's results file
  ``arbiter.services.rooms.MAX_BYTES`` and its form: the service says when the file itself is
  too large);
- a path with a control character is a 404 (no route has one: ``/play/%00/`` is no token);
- a query parameter, a form field or an uploaded file's name with a control character is a
  400 naming it.

Under ``/api/`` the answers are the API's JSON (``{"detail": ..., "code": ...}``), elsewhere
plain text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import QueryDict
from django.utils import timezone

from arbiter.services.rooms import MAX_BYTES as ROOM_RESULTS_MAX_BYTES
from web.inputs import control_character, control_character_message

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
WORD_LIST_UPLOAD = re.compile(r"^/events/[^/]+/setup/wordlist/$")
ROOM_RESULTS_UPLOAD = re.compile(
    r"^(/events/[^/]+/simultaneous/import/|/api/v1/events/[^/]+/room-results)$"
)
FORM_ALLOWANCE = 1024 * 1024  # the rest of an upload's form around the file


def body_limit(path: str) -> int:
    """The largest body a request to ``path`` may send."""
    if WORD_LIST_UPLOAD.match(path):
        return max(settings.REQUEST_BODY_MAX_BYTES, settings.WORD_LIST_MAX_BYTES + FORM_ALLOWANCE)
    if ROOM_RESULTS_UPLOAD.match(path):
        return max(settings.REQUEST_BODY_MAX_BYTES, ROOM_RESULTS_MAX_BYTES + FORM_ALLOWANCE)
    limit: int = settings.REQUEST_BODY_MAX_BYTES
    return limit


def _refuse(request: HttpRequest, status: int, code: str, detail: str) -> HttpResponse:
    if request.path_info.startswith("/api/"):
        return JsonResponse({"detail": detail, "code": code}, status=status)
    return HttpResponse(detail, status=status, content_type="text/plain; charset=utf-8")


def _fields_problem(fields: QueryDict, kind: str) -> str | None:
    for key, values in fields.lists():
        message = control_character_message(f"{kind} name", key)
        if message is not None:
            return message
        for value in values:
            message = control_character_message(key, value)
            if message is not None:
                return message
    return None


def request_problem(request: HttpRequest) -> HttpResponse | None:
    """The refusal of ``request`` (413, 404 or 400), or None when it may go on."""
    limit = body_limit(request.path_info)
    length = request.META.get("CONTENT_LENGTH") or "0"
    if length.isascii() and length.isdigit() and int(length) > limit:
        return _refuse(
            request,
            413,
            "too_large",
            f"The request is too large ({int(length) / 1024 / 1024:.1f} MB): "
            f"at most {limit / 1024 / 1024:.0f} MB.",
        )
    if control_character(request.path_info) is not None:
        return _refuse(request, 404, "not_found", "Not found.")
    problem = _fields_problem(request.GET, "query parameter")
    form = request.method in {"POST", "PUT", "PATCH"} and request.content_type in FORM_TYPES
    if problem is None and form:
        problem = _fields_problem(request.POST, "field")
        for field, uploads in request.FILES.lists():
            for upload in uploads:
                name = upload.name or ""
                problem = problem or control_character_message(f"{field} file name", name)
    if problem is not None:
        return _refuse(request, 400, "invalid_characters", problem)
    return None


class RequestChecksMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return request_problem(request) or self.get_response(request)


class TimeZoneMiddleware:
    """Every request starts in the installation's time zone (``TIME_ZONE``) and ends there: an
    event's pages switch to the event's own (``web.i18n.event_time_zone_activate``), and a
    worker thread must not carry one event's zone into the next request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
