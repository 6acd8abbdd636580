"""When a request arrived: stamped first thing, so a slip's deadline is judged on when the phone
sent it, not on when a busy server got round to it (a room hands in at the same second)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

ATTRIBUTE = "arrived_at"
# Set by the production server (config/gunicorn_worker.py) when the request's first bytes came
# in, before the event loop read them: seconds since the epoch, in the ASGI scope's extensions
# (a WSGI server may put it in the environ). Not a header: no client sets it.
SERVER_STAMP = "duplicate.arrived_at"
MAX_WAIT = dt.timedelta(minutes=1)


def server_stamp(request: HttpRequest) -> object:
    """The server's stamp of ``request`` (a float), if it gave one."""
    scope: dict[str, Any] | None = getattr(request, "scope", None)
    if scope is not None:
        return (scope.get("extensions") or {}).get(SERVER_STAMP)
    return request.META.get(SERVER_STAMP)


def _arrival(stamp: object) -> datetime:
    now = timezone.now()
    if isinstance(stamp, float):
        # never later than now, never more than a minute earlier (a stamp is a queue's wait)
        return max(min(dt.datetime.fromtimestamp(stamp, tz=dt.UTC), now), now - MAX_WAIT)
    return now


def scope_arrival(scope: dict[str, Any]) -> datetime:
    """When the request of an ASGI ``scope`` arrived: the server's stamp, else now."""
    return _arrival((scope.get("extensions") or {}).get(SERVER_STAMP))


def arrival_stamp(request: HttpRequest) -> None:
    """Sets ``request.arrived_at`` (the server clock): the server's stamp, else now."""
    setattr(request, ATTRIBUTE, _arrival(server_stamp(request)))


class ArrivalStampMiddleware:
    """Sets ``request.arrived_at`` (``arrival_stamp``), first of the middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        arrival_stamp(request)
        return self.get_response(request)


def arrived_at(request: HttpRequest) -> datetime:
    """When ``request`` arrived (now, for a request the middleware did not see)."""
    stamp = getattr(request, ATTRIBUTE, None)
    return stamp if isinstance(stamp, datetime) else timezone.now()
