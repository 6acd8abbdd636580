"""When a request arrived: the production server's stamp, bounded, else the first middleware's."""

from __future__ import annotations

import datetime as dt

import time_machine
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from web.arrival import SERVER_STAMP, ArrivalStampMiddleware, arrived_at

NOW = dt.datetime(2026, 5, 1, 20, 3, 0, tzinfo=dt.UTC)


def stamped(stamp: object | None) -> dt.datetime:
    request = RequestFactory().post("/api/v1/play/submissions")
    if stamp is not None:
        request.META[SERVER_STAMP] = stamp
    seen: list[HttpRequest] = []

    def view(r: HttpRequest) -> HttpResponse:
        seen.append(r)
        return HttpResponse()

    with time_machine.travel(NOW, tick=False):
        ArrivalStampMiddleware(view)(request)
    return arrived_at(seen[0])


def test_the_servers_stamp_of_the_first_bytes_is_the_arrival() -> None:
    assert stamped((NOW - dt.timedelta(seconds=8)).timestamp()) == NOW - dt.timedelta(seconds=8)


def test_without_a_stamp_the_arrival_is_when_the_first_middleware_ran() -> None:
    assert stamped(None) == NOW


def test_a_stamp_is_never_in_the_future_nor_more_than_a_minute_old_nor_a_header() -> None:
    assert stamped((NOW + dt.timedelta(seconds=30)).timestamp()) == NOW
    assert stamped((NOW - dt.timedelta(hours=1)).timestamp()) == NOW - dt.timedelta(minutes=1)
    assert stamped("1700000000") == NOW  # only the server puts a number there
