"""Our own outages, as a slip's request lives through them (issue 25, "on time means counted").

A slip whose first bytes reached the server before the deadline plus the grace counts, whatever
fails of ours meanwhile:

- the database down (up to ``SLIP_HOLD_SECONDS``, 40 s by default) or its connections cut: the
  request is held and the database tried again, the arrival stamp kept: on the event loop by
  ``SlipArrivals`` on the production server (the view gives its thread back at the first error),
  in the request's thread otherwise (``held``); the answer is built from what the slip's
  transaction wrote, never read after the commit;
- the answer lost (a connection cut during the commit, a web worker killed, the hold run out):
  the phone sends the slip again with the same attempt identity; a slip already stored for it is
  answered with its original receipt, and an attempt that never got a definitive answer keeps
  the arrival of its first request (``first_arrival``, in the cache: Redis in production;
  recorded by ``SlipArrivals`` before the request waits for a thread) so its retry is judged on
  when it first came;
- every error of the API, the database's included, is JSON with a ``code``
  (``database_unavailable``: 503 with Retry-After; ``server_error``: 500), also from the phone's
  routes (``server_error_view``, the site's handler500; the live routes: ``web.live.asgi``).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import json
import logging
import re
import sys
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext

from web.authentication import PLAY_COOKIE

logger = logging.getLogger(__name__)

T = TypeVar("T")

# What "the database is not answering" raises: a refused or cut connection, a server that went
# away mid-query (OperationalError), a connection Django found closed (InterfaceError).
DATABASE_DOWN: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 2
# A slip's attempt identity, as the phone makes it (random, the same for every retry).
ATTEMPT = re.compile(r"[A-Za-z0-9_-]{8,64}")
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
            if connection.in_atomic_block:
                raise
            _forget_connection()  # this thread's next request opens a new one
            if time.monotonic() + delay > until:
                raise
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


def definitive(status: int) -> bool:
    """An answer the phone will not send the same slip again after (stored, or refused for a
    reason of the slip's own): not a 5xx, not "too many requests"."""
    return status < 500 and status != 429


def answered(*, credential: str, attempt: str) -> None:
    """The attempt got a definitive answer (stored, or refused for a reason of its own): its
    next request, a new slip in all but name, is judged on its own arrival."""
    with contextlib.suppress(Exception):
        cache.delete(_key(credential, attempt))


# --- The first arrival, recorded before the request waits for a thread --------------------

SUBMISSIONS_PATH = "/api/v1/play/submissions"
FIRST_ARRIVAL = "duplicate.first_arrival"  # in the ASGI scope's extensions: seconds (float)
LOOP_HOLD = "duplicate.loop_hold"  # SlipArrivals holds the slip on the event loop
SERVER_ATTEMPT = "duplicate.server_attempt"  # the identity of a slip sent without one
HOLD_RUN = "duplicate.hold_run"  # 0, then 1, 2 ... as SlipArrivals runs the request again
RETRY_HEADER = b"x-duplicate-hold-retry"  # a 503 SlipArrivals runs again, never sent out
_BODY_LIMIT = 16 * 1024  # a slip is a hundred bytes: a larger body is left to Django to refuse


def credential_of(authorization: str, cookies: str | dict[str, str]) -> str:
    """What an attempt's first arrival is kept under: the Bearer token, or the phone's cookie as
    sent (not checked here: authentication checks it; a forged one only names another key)."""
    keyword, _, token = authorization.partition(" ")
    if keyword.lower() == "bearer" and token.strip():
        return "bearer:" + token.strip()
    if isinstance(cookies, str):
        from django.http import parse_cookie

        cookies = parse_cookie(cookies)
    return "cookie:" + cookies.get(PLAY_COOKIE, "")


def attempt_of(body: object) -> tuple[str, dict[str, object]] | None:
    """A slip's body's attempt identity (and the body), if it carries a well-formed one."""
    if not isinstance(body, dict):
        return None
    attempt = body.get("attempt")
    if isinstance(attempt, str) and ATTEMPT.fullmatch(attempt):
        return attempt, body
    return None


def recorded_first_arrival(request: HttpRequest) -> datetime | None:
    """The first arrival ``SlipArrivals`` recorded for this request's attempt, if it did."""
    scope = getattr(request, "scope", None)
    if not isinstance(scope, dict):
        return None
    stamp = (scope.get("extensions") or {}).get(FIRST_ARRIVAL)
    return dt.datetime.fromtimestamp(stamp, tz=dt.UTC) if isinstance(stamp, float) else None


def scope_extension(request: HttpRequest, name: str) -> object:
    scope = getattr(request, "scope", None)
    return (scope.get("extensions") or {}).get(name) if isinstance(scope, dict) else None


class SlipArrivals:
    """ASGI middleware for the slips (the only requests it touches):

    - the attempt's first arrival is recorded as soon as the body is in, on the event loop,
      before the request waits for one of the process's threads: a web worker killed while
      slips wait there loses their answers, not their arrival (the phone's retry is judged on
      it);
    - while the database does not answer, the slip is held here, on the event loop, not in a
      thread: the view answers 503 marked ``RETRY_HEADER`` and gives its thread back, and the
      request is run again (0.25, 0.5, then every 1 s) with the same body, the same stamps and
      the same identity (the server's own when the phone sent none), until it is answered or
      ``SLIP_HOLD_SECONDS`` have passed (then the 503 goes out, unmarked). A room's slips held
      through an outage leave the threads to every other request.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        # The cache's client made now, at the worker's start (imports, no connection): a new
        # worker's first slips are then recorded sooner (a worker killed young loses less).
        with contextlib.suppress(Exception):
            getattr(cache, "_cache", None)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if not (
            scope.get("type") == "http"
            and scope.get("method") == "POST"
            and scope.get("path") == SUBMISSIONS_PATH
        ):
            await self.app(scope, receive, send)
            return
        messages: list[dict[str, Any]] = []
        body = b""
        while True:
            message = await receive()
            messages.append(message)
            if message.get("type") != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body") or len(body) > _BODY_LIMIT:
                break
        whole = messages[-1].get("type") == "http.request" and not messages[-1].get("more_body")
        if not whole or len(body) > _BODY_LIMIT:  # not a slip's body: not held here either

            async def rest() -> Any:
                return messages.pop(0) if messages else await receive()

            await self.app(scope, rest, send)
            return
        scope = await self._recorded(scope, body, messages)
        extensions = dict(scope.get("extensions") or {})
        extensions[LOOP_HOLD] = True
        extensions.setdefault(SERVER_ATTEMPT, "server-" + uuid.uuid4().hex)
        scope = {**scope, "extensions": extensions}
        until = time.monotonic() + hold_seconds()
        delay = 0.25
        run = 0
        while True:
            scope = {**scope, "extensions": {**scope["extensions"], HOLD_RUN: run}}
            retry = await self._once(scope, messages, receive, send, until=until, delay=delay)
            if not retry:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
            run += 1

    async def _once(
        self,
        scope: Any,
        messages: list[dict[str, Any]],
        receive: Any,
        send: Any,
        *,
        until: float,
        delay: float,
    ) -> bool:
        """Run the request once; True when it is to be run again (its answer swallowed)."""
        pending = list(messages)
        swallowed = False

        async def replay() -> Any:
            return pending.pop(0) if pending else await receive()

        async def answer(message: dict[str, Any]) -> None:
            nonlocal swallowed
            if message.get("type") == "http.response.start":
                headers = message.get("headers") or []
                marked = any(bytes(k).lower() == RETRY_HEADER for k, _ in headers)
                if marked and time.monotonic() + delay < until:
                    swallowed = True
                    return
                if marked:
                    kept = [(k, v) for k, v in headers if bytes(k).lower() != RETRY_HEADER]
                    message = {**message, "headers": kept}
            elif swallowed:
                return  # the body of a swallowed answer
            await send(message)

        await self.app(scope, replay, answer)
        return swallowed

    async def _recorded(self, scope: Any, body: bytes, messages: list[dict[str, Any]]) -> Any:
        try:
            found = attempt_of(json.loads(body))
        except ValueError:
            return scope
        if found is None:
            return scope
        attempt, data = found
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])
        }
        credential = credential_of(headers.get("authorization", ""), headers.get("cookie", ""))
        from asgiref.sync import sync_to_async

        from web.arrival import scope_arrival

        first = await sync_to_async(first_arrival, thread_sensitive=False)(
            credential=credential,
            attempt=attempt,
            digest=slip_digest(data),
            arrived=scope_arrival(scope),
        )
        extensions = {**(scope.get("extensions") or {}), FIRST_ARRIVAL: first.timestamp()}
        return {**scope, "extensions": extensions}


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
