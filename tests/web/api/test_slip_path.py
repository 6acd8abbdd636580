"""What a slip's request goes through on the server (docs/reliability.md, "What a slip costs"):
a room hands in a thousand slips in the last seconds, and every step on the way is paid a
thousand times on the room's two cores. These tests hold the path's shape, not its timing:

- the reads of a slip are compiled to SQL once per process (``tournament.compiled``): a slip
  after the first has Django compile no SELECT (building and compiling the five reads cost more
  processor than the rest of the ORM and PostgreSQL together);
- the production handler (``config.asgi.ThreadedASGIHandler``) runs the middleware, the URL's
  resolution and the view in one call on the request's thread, never going back to the event
  loop in between (Django's async mode did, twice a request);
- the middleware a slip passes through are these and no others: one more is paid on every slip.
"""

from __future__ import annotations

import asyncio
import json
from unittest import mock

import pytest
from asgiref.sync import AsyncToSync, iscoroutinefunction
from django.conf import settings
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler

from arbiter.services import clock, racks
from tests.arbiter.conftest import T0, open_round
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tests.web.api.conftest import seconds

SUBMISSIONS = "/api/v1/play/submissions"

SLIP_MIDDLEWARE = [
    "web.arrival.ArrivalStampMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "web.middleware.RequestChecksMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
    "web.middleware.TimeZoneMiddleware",
]


def _selects_compiled(send) -> int:  # type: ignore[no-untyped-def]
    """How many SELECTs Django compiles to SQL while ``send()`` runs."""
    compiled = []
    original = SQLCompiler.as_sql

    def spy(self: SQLCompiler, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        if type(self) is SQLCompiler:  # not an INSERT's or an UPDATE's
            compiled.append(self.query.model)
        return original(self, *args, **kwargs)

    with mock.patch.object(SQLCompiler, "as_sql", spy):
        send()
    return len(compiled)


@pytest.mark.django_db
def test_a_slip_after_the_first_has_django_compile_no_select(frozen_clock, phone, ann, game):
    open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(20))

    def send(word: str):  # type: ignore[no-untyped-def]
        def go() -> None:
            answer = phone(ann).post(
                SUBMISSIONS, {"round": 1, "word": word, "ref": "H4", "score": 22}, format="json"
            )
            assert answer.status_code == 201, answer.content

        return go

    _selects_compiled(send("TOWER"))  # this process's first slip compiles them
    assert _selects_compiled(send("WROTE")) == 0


def test_a_slip_passes_through_these_middleware_and_no_others() -> None:
    assert settings.MIDDLEWARE == SLIP_MIDDLEWARE


@pytest.mark.django_db(transaction=True)  # the handler's thread has its own connection
def test_the_handler_runs_a_slips_middleware_and_view_in_one_call_on_its_thread() -> None:
    from config.asgi import ThreadedASGIHandler

    event = EventFactory()
    player = PlayerFactory(event=event, table=1)
    game = GameFactory(event=event, number=1, seed=7)
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    clock.round_open(round=drawn, actor=None)
    handler = ThreadedASGIHandler(threads=1)
    assert not iscoroutinefunction(handler._middleware_chain)  # the sync chain, whole
    body = json.dumps({"round": 1, "word": "AB", "ref": "H8", "score": 4}).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": SUBMISSIONS,
        "raw_path": SUBMISSIONS.encode(),
        "query_string": b"",
        "root_path": "",
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        "headers": [
            (b"host", b"testserver"),
            (b"authorization", f"Bearer {player.token}".encode()),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
    }
    sent: list[dict[str, object]] = []

    async def main() -> None:
        delivered = False
        done = asyncio.Event()

        async def receive() -> dict[str, object]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, object]) -> None:
            sent.append(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                done.set()

        await handler(scope, receive, send)

    back_to_the_loop = []  # each time the request's thread waits for the event loop
    original = AsyncToSync.__call__

    def spy(self: AsyncToSync, *args: object, **kwargs: object) -> object:  # type: ignore[type-arg]
        back_to_the_loop.append(self.awaitable)
        return original(self, *args, **kwargs)

    try:
        with mock.patch.object(AsyncToSync, "__call__", spy):
            asyncio.run(main())
    finally:
        for executor in handler.executors:
            executor.submit(lambda: connection.close()).result()  # its own
            executor.shutdown(wait=True)
    assert sent[0]["status"] == 201, sent
    assert back_to_the_loop == []
