"""When a request arrived: stamped first thing, so a slip's deadline is judged on when the phone
sent it, not on when a busy server got round to it (a room hands in at the same second)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from datetime import datetime

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

ATTRIBUTE = "arrived_at"
# Set by the production server (config/gunicorn_worker.py) when the request's first bytes came
# in, before it waited for a thread: seconds since the epoch. Not a header: no client sets it.
SERVER_STAMP = "duplicate.arrived_at"
MAX_WAIT = dt.timedelta(minutes=1)


class ArrivalStampMiddleware:
    """Sets ``request.arrived_at`` (the server clock): the production server's stamp of when the
    request came in, else the time this middleware, the first, runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        stamp = request.META.get(SERVER_STAMP)
        now = timezone.now()
        arrived = now
        if isinstance(stamp, float):
            # never later than now, never more than a minute earlier (a stamp is a queue's wait)
            arrived = max(min(dt.datetime.fromtimestamp(stamp, tz=dt.UTC), now), now - MAX_WAIT)
        setattr(request, ATTRIBUTE, arrived)
        return self.get_response(request)


def arrived_at(request: HttpRequest) -> datetime:
    """When ``request`` arrived (now, for a request the middleware did not see)."""
    stamp = getattr(request, ATTRIBUTE, None)
    return stamp if isinstance(stamp, datetime) else timezone.now()
