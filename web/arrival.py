"""When a request arrived: stamped first thing, so a slip's deadline is judged on when the phone
sent it, not on when a busy server got round to it (a room hands in at the same second)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

ATTRIBUTE = "arrived_at"


class ArrivalStampMiddleware:
    """Sets ``request.arrived_at`` (the server clock) before any other middleware runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        setattr(request, ATTRIBUTE, timezone.now())
        return self.get_response(request)


def arrived_at(request: HttpRequest) -> datetime:
    """When ``request`` arrived (now, for a request the middleware did not see)."""
    stamp = getattr(request, ATTRIBUTE, None)
    return stamp if isinstance(stamp, datetime) else timezone.now()
