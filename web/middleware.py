"""Checks on every request before any view or form sees it (``web.inputs`` says why):

- a body over ``REQUEST_BODY_MAX_BYTES`` (its Content-Length) is refused with a 413 (on the
  production server ``config.asgi`` does it before Django reads a byte, and cuts a body sent in
  chunks off at the limit: Django's ASGI handler reads the whole body before any middleware;
  here it is what the WSGI and test paths see): an upload is otherwise streamed to disk whole
  (a word list's upload may be ``WORD_LIST_MAX_BYTES`` and its form, a room's results file
  ``arbiter.services.room_files.MAX_BYTES`` and its form: the service says when the file itself is
  too large);
- a path with a control character is a 404 (no route has one: ``/play/%00/`` is no token);
- a query parameter, a form field or an uploaded file's name with a control character is a
  400 naming it.

Under ``/api/`` the answers are the API's JSON (``{"detail": ..., "code": ...}``), elsewhere
plain text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import QueryDict
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation.trans_real import parse_accept_lang_header

from arbiter.services.room_files import MAX_BYTES as ROOM_RESULTS_MAX_BYTES
from web.inputs import control_character, control_character_message

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
WORD_LIST_UPLOAD = re.compile(r"^/events/[^/]+/setup/wordlist/$")
ROOM_RESULTS_UPLOAD = re.compile(
    r"^(/events/[^/]+/simultaneous/import/|/api/v1/events/[^/]+/room-results)$"
)
MB = 1024 * 1024
FORM_ALLOWANCE = MB  # the rest of an upload's form around the file


def file_limit(path: str) -> int | None:
    """The largest file an upload to ``path`` may send, when it is one of the large uploads."""
    if WORD_LIST_UPLOAD.match(path):
        words: int = settings.WORD_LIST_MAX_BYTES
        return words
    if ROOM_RESULTS_UPLOAD.match(path):
        return ROOM_RESULTS_MAX_BYTES
    return None


def body_limit(path: str) -> int:
    """The largest body a request to ``path`` may send."""
    limit: int = settings.REQUEST_BODY_MAX_BYTES
    file = file_limit(path)
    return limit if file is None else max(limit, file + FORM_ALLOWANCE)


def _megabytes(size: int, *, up: bool) -> str:
    """``size`` in MB as the language writes it: whole when it is, else to a tenth (rounded up
    for a size refused, so that it never reads as the limit itself)."""
    tenths = size * 10 / MB
    tenths = math.ceil(tenths) if up else math.floor(tenths)
    if tenths % 10 == 0:
        return number_format(tenths // 10)
    return number_format(tenths / 10, decimal_pos=1)


def too_large_message(request: HttpRequest, length: int) -> str:
    """Why a body of ``length`` bytes is refused, in the request's language: the file's limit for
    an upload (the form around it has its own allowance), else the request's."""
    language = translation.get_language_from_request(request)
    return too_large_said(request.path_info, length, language)


def too_large_answer(path: str, length: int, accept_language: str) -> tuple[str, bytes]:
    """The 413's content type and body for a request to ``path`` whose body is at least
    ``length`` bytes, before Django has a request (``config.asgi``): the API's JSON under
    ``/api/``, plain text elsewhere."""
    language = translation.get_supported_language_variant(
        next(
            (
                code
                for code, _ in parse_accept_lang_header(accept_language)
                if code != "*" and translation.check_for_language(code)
            ),
            settings.LANGUAGE_CODE,
        )
    )
    detail = too_large_said(path, length, language)
    if path.startswith("/api/"):
        body = JsonResponse({"detail": detail, "code": "too_large"}).content
        return "application/json", body
    return "text/plain; charset=utf-8", detail.encode()


def too_large_said(path: str, length: int, language: str) -> str:
    file = file_limit(path)
    with translation.override(language):
        if file is not None:
            return gettext("The file is too large (%(size)s MB): at most %(limit)s MB.") % {
                "size": _megabytes(length, up=True),
                "limit": _megabytes(file, up=False),
            }
        return gettext("The request is too large (%(size)s MB): at most %(limit)s MB.") % {
            "size": _megabytes(length, up=True),
            "limit": _megabytes(body_limit(path), up=False),
        }


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
        return _refuse(request, 413, "too_large", too_large_message(request, int(length)))
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
