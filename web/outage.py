"""Our own outages, as a slip's request lives through them (issue 25, "on time means counted").

A slip whose first bytes reached the server before the deadline plus the grace counts, whatever
fails of ours meanwhile:

- the database down (up to ``SLIP_HOLD_SECONDS``, 40 s by default) or its connections cut: the
  request is held and the database tried again (``held``), the arrival stamp kept; the answer
  is built from what the slip's transaction wrote, never read after the commit;
- the answer lost (a connection cut during the commit, a web worker killed, the hold run out):
  the phone sends the slip again with the same attempt identity; a slip already stored for it is
  answered with its original receipt, and an attempt that never got a definitive answer keeps
  the arrival of its first request (``first_arrival``, in the cache: Redis in production) so its
  retry is judged on when it first came;
- every error of the API, the database's included, is JSON with a ``code``
  (``database_unavailable``: 503 with Retry-After; ``server_error``: 500), also from the phone's
  routes (``server_error_view``, the site's handler500).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import logging
import sys
import time
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext

logger = logging.getLogger(__name__)

T = TypeVar("T")

# What "the database is not answering" raises: a refused or cut connection, a server that went
# away mid-query (OperationalError), a connection Django found closed (InterfaceError).
DATABASE_DOWN: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 2
FIRST_ARRIVAL_SECONDS = 15 * 60  # how long an unanswered attempt's first arrival is kept
_FIRST_DELAY, _MAX_DELAY = 0.1, 1.0


def hold_seconds() -> float:
    return float(getattr(settings, "SLIP_HOLD_SECONDS", 40))


def database_down(exc: BaseException) -> bool:
    return isinstance(exc, DATABASE_DOWN)


def _forget_connection() -> None:
    """Drop this thread's connection (broken or not) so the next query opens a new one."""
    with contextlib.suppress(Exception):
        connection.close()


def held(fn: Callable[[], T], *, until: float, retry_integrity: bool = False) -> T:
    """``fn()``, tried again while the database is down, until ``until`` (``time.monotonic()``):
    then the last error is raised. ``fn`` must be safe to run again (a slip carries its attempt
    identity: a commit whose answer was lost is found, not stored twice). With
    ``retry_integrity``, a unique constraint raced by the same attempt is tried again once."""
    delay = _FIRST_DELAY
    raced = False
    while True:
        try:
            return fn()
        except IntegrityError:
            if not retry_integrity or raced or connection.in_atomic_block:
                raise
            raced = True  # two requests of one attempt: the second now finds the first's slip
        except DATABASE_DOWN:
            if connection.in_atomic_block or time.monotonic() + delay > until:
                raise
            _forget_connection()
            time.sleep(delay)
            delay = min(delay * 2, _MAX_DELAY)


def database_unavailable_body() -> dict[str, str]:
    return {
        "detail": gettext(
            "The server cannot reach its database for the moment: nothing is lost, send again "
            "in a few seconds (the phone does it by itself)."
        ),
        "code": "database_unavailable",
    }


# --- The first arrival of an attempt not yet answered ---------------------------------------


def _key(credential: str, attempt: str) -> str:
    digest = hashlib.sha256(f"{credential}\0{attempt}".encode()).hexdigest()[:32]
    return f"slip-attempt:{digest}"


def slip_digest(data: dict[str, object]) -> str:
    """What identifies a slip's content: a retry carries the same."""
    fields = {k: data.get(k) for k in ("round", "word", "ref", "score")}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode()).hexdigest()


def first_arrival(*, credential: str, attempt: str, digest: str, arrived: datetime) -> datetime:
    """When this attempt (the same content, from the same credential) first reached the server
    without getting a definitive answer: ``arrived`` for its first request. Kept in the cache
    until ``answered``; a cache that does not answer (Redis down) gives ``arrived``."""
    key = _key(credential, attempt)
    value = {"at": arrived.timestamp(), "digest": digest}
    try:
        if cache.add(key, value, timeout=FIRST_ARRIVAL_SECONDS):
            return arrived
        stored = cache.get(key)
    except Exception:  # the cache fails open (config.cache); any other backend too
        logger.warning("first arrival of a slip attempt not readable", exc_info=True)
        return arrived
    if not isinstance(stored, dict) or stored.get("digest") != digest:
        return arrived  # another slip under the same identity: judged on its own arrival
    at = stored.get("at")
    if not isinstance(at, float):
        return arrived
    first = dt.datetime.fromtimestamp(at, tz=dt.UTC)
    return min(first, arrived)


def answered(*, credential: str, attempt: str) -> None:
    """The attempt got a definitive answer (stored, or refused for a reason of its own): its
    next request, a new slip in all but name, is judged on its own arrival."""
    with contextlib.suppress(Exception):
        cache.delete(_key(credential, attempt))


# --- handler500: JSON for the API and the phone's requests ---------------------------------


def _wants_json(request: HttpRequest) -> bool:
    return (
        request.path.startswith("/api/")
        or "application/json" in request.headers.get("Accept", "")
        or request.content_type == "application/json"
    )


def server_error_view(request: HttpRequest) -> HttpResponse:
    """The site's handler500: an uncaught error of a request wanting JSON (the API, the phone's
    page's calls) answers JSON with a code, 503 with Retry-After when the database is down;
    the pages keep Django's 500 page (503 "try again" while the database is down)."""
    exc = sys.exc_info()[1]
    down = exc is not None and database_down(exc)
    if _wants_json(request):
        if down:
            response: HttpResponse = JsonResponse(database_unavailable_body(), status=503)
        else:
            body = {"detail": gettext("Server error: the team is told."), "code": "server_error"}
            response = JsonResponse(body, status=500)
    elif down:
        response = HttpResponse(
            gettext(
                "The server cannot reach its database for the moment: reload this page in a few "
                "seconds."
            ),
            status=503,
            content_type="text/plain; charset=utf-8",
        )
    else:
        from django.views.defaults import server_error

        return server_error(request)
    if down:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
