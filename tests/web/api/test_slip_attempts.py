"""On time means counted (issue 25): a phone sends each slip with an attempt identity and sends
the very same body again until it gets an answer. A retry of a slip already stored is answered
with the original receipt, whenever it comes (never a second slip, never "deadline passed");
the request is held while the database does not answer, and an attempt that got no definitive
answer keeps the arrival of its first request. API errors are JSON with a code, the database's
included. The real outages, on the production server, are in tests/faults/test_slips_outage.py.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import time

import pytest
from django.db import OperationalError
from django.test import RequestFactory

from arbiter.services import slips as slip_service
from tests.arbiter.conftest import T0, open_round
from tests.web.api.conftest import seconds
from tournament.models import Submission
from web.outage import (
    FIRST_ARRIVAL,
    SlipArrivals,
    answered,
    definitive,
    first_arrival,
    server_error_view,
)

pytestmark = pytest.mark.django_db

SUBMISSIONS = "/api/v1/play/submissions"
ATTEMPT = "a1b2c3d4e5f60718"


def send(phone, player, word="WROTE", *, attempt: str | None = ATTEMPT, score=24):
    body: dict[str, object] = {"round": 1, "word": word, "ref": "H4", "score": score}
    if attempt is not None:
        body["attempt"] = attempt
    return phone(player).post(SUBMISSIONS, body, format="json")


def test_a_retry_after_the_deadline_gets_the_original_receipt_and_nothing_twice(
    frozen_clock, phone, ann, game
) -> None:
    open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(20))
    first = send(phone, ann)
    assert first.status_code == 201, first.json()
    frozen_clock.move_to(T0 + seconds(600))  # long after the deadline and the grace
    again = send(phone, ann)
    assert again.status_code == 201, again.json()
    assert again.json() == first.json()
    assert Submission.objects.filter(player=ann).count() == 1
    # the same slip without its identity is a new one, judged on its own arrival
    late = send(phone, ann, attempt=None)
    assert late.status_code == 409 and late.json()["code"] == "deadline_passed"


def test_the_receipt_of_a_retry_says_what_the_first_answer_said(
    frozen_clock, phone, ann, game
) -> None:
    open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(10))
    assert send(phone, ann, "TOWER", attempt="first-slip-0001", score=22).status_code == 201
    second = send(phone, ann, attempt="second-slip-0002")
    assert second.json()["replaced_previous"] is True
    frozen_clock.move_to(T0 + seconds(20))
    assert send(phone, ann, attempt="second-slip-0002").json() == second.json()
    assert Submission.objects.filter(player=ann).count() == 2


def test_another_slip_under_an_identity_already_used_is_refused_with_a_code(
    frozen_clock, phone, ann, game
) -> None:
    open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(10))
    assert send(phone, ann).status_code == 201
    other = send(phone, ann, "TOWER")
    assert other.status_code == 400
    assert other.json()["code"] == "attempt_reused"
    assert "WROTE" in other.json()["detail"]


@pytest.mark.parametrize("attempt", ["short", "x" * 65, "has space!", "é" * 10])
def test_a_malformed_attempt_identity_is_refused_by_name(phone, ann, game, attempt) -> None:
    open_round(game, now=T0)
    answer = send(phone, ann, attempt=attempt)
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid" and "attempt" in answer.json()["fields"]


def test_an_unanswered_attempt_keeps_its_first_arrival_until_it_is_answered() -> None:
    first, later = T0, T0 + seconds(90)
    kept = {"credential": "bearer:tok", "attempt": ATTEMPT, "digest": "d1"}
    assert first_arrival(**kept, arrived=first) == first
    assert first_arrival(**kept, arrived=later) == first  # a retry: judged on the first
    # another content under the same identity is judged on its own arrival
    assert first_arrival(**{**kept, "digest": "d2"}, arrived=later) == later
    # another credential (another phone) has its own
    assert first_arrival(**{**kept, "credential": "bearer:other"}, arrived=later) == later
    answered(credential="bearer:tok", attempt=ATTEMPT)
    assert first_arrival(**kept, arrived=later) == later  # answered: a new request from now on


def test_the_database_down_is_a_json_503_with_a_code_not_an_html_page(
    phone, ann, game, settings, monkeypatch
) -> None:
    open_round(game, now=T0)
    settings.SLIP_HOLD_SECONDS = 0.5

    def down(*args: object, **kwargs: object) -> None:
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr(slip_service, "_slip_submit", down)
    answer = send(phone, ann)
    assert answer.status_code == 503
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "database_unavailable"
    assert answer["Retry-After"] == "2"


def test_handler500_answers_json_with_a_code_for_the_api_and_the_phone() -> None:
    factory = RequestFactory()
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        assert sys.exc_info()[0] is OperationalError
        down = server_error_view(factory.get("/api/v1/play/state"))
        page = server_error_view(factory.get("/play/"))
    assert down.status_code == 503 and down["Retry-After"] == "2"
    assert b'"code": "database_unavailable"' in down.content
    assert page.status_code == 503 and page["Content-Type"].startswith("text/plain")
    try:
        raise ZeroDivisionError
    except ZeroDivisionError:
        crash = server_error_view(factory.post("/play/x/", content_type="application/json"))
    assert crash.status_code == 500 and b'"code": "server_error"' in crash.content


@pytest.mark.django_db(transaction=True)
def test_a_slip_is_held_while_the_database_fails_and_stored_once_with_its_arrival(
    phone, ann, game, monkeypatch, settings
) -> None:
    """Outside a transaction (as the server runs), the view tries the database again; the
    slip carries the request's arrival, not the time the database came back."""
    settings.SLIP_HOLD_SECONDS = 30
    opened = open_round(game, now=dt.datetime.now(dt.UTC))
    real = slip_service._slip_submit
    failures = {"left": 3}

    def flaky(**kwargs: object) -> slip_service.Handed:
        if failures["left"]:
            failures["left"] -= 1
            raise OperationalError("terminating connection due to administrator command")
        return real(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(slip_service, "_slip_submit", flaky)
    before = dt.datetime.now(dt.UTC)
    answer = send(phone, ann)
    assert answer.status_code == 201, answer.json()
    assert failures["left"] == 0
    slip = Submission.objects.get(player=ann, round=opened)
    assert before - seconds(1) <= slip.received_at <= before + seconds(0.2)


def _asgi_post(middleware, body: bytes, *, stamp: float, chunks: int = 2) -> tuple[dict, bytes]:
    """POST ``body`` to the ASGI ``app`` in ``chunks`` pieces; what the inner app was given."""
    import asyncio

    pieces = [body[len(body) * i // chunks : len(body) * (i + 1) // chunks] for i in range(chunks)]
    messages = [
        {"type": "http.request", "body": piece, "more_body": i < chunks - 1}
        for i, piece in enumerate(pieces)
    ]
    seen: dict = {}

    async def inner(scope, receive, send) -> None:
        received = b""
        while True:
            message = await receive()
            received += message.get("body", b"")
            if not message.get("more_body"):
                break
        seen.update(scope=scope, body=received)

    async def receive():
        return messages.pop(0)

    async def send(message) -> None:
        pass

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/play/submissions",
        "headers": [(b"authorization", b"Bearer tok-asgi")],
        "extensions": {"duplicate.arrived_at": stamp},
    }
    asyncio.run(middleware(inner)(scope, receive, send))
    return seen["scope"], seen["body"]


def test_the_first_arrival_is_recorded_before_the_request_waits_for_a_thread() -> None:
    """On the event loop, as the body comes in: a worker killed while the slip waited for a
    thread loses its answer, not its arrival."""
    body = json.dumps({"round": 1, "word": "WROTE", "ref": "H4", "score": 24, "attempt": ATTEMPT})
    now = time.time()
    scope, passed = _asgi_post(SlipArrivals, body.encode(), stamp=now - 20)
    assert passed == body.encode()  # the view reads the whole body, as sent
    assert scope["extensions"][FIRST_ARRIVAL] == pytest.approx(now - 20, abs=0.01)
    again, _ = _asgi_post(SlipArrivals, body.encode(), stamp=now)  # its retry
    assert again["extensions"][FIRST_ARRIVAL] == pytest.approx(now - 20, abs=0.01)
    other = body.replace("WROTE", "TOWER").encode()  # another slip under that identity
    third, _ = _asgi_post(SlipArrivals, other, stamp=now)
    assert third["extensions"][FIRST_ARRIVAL] == pytest.approx(now, abs=0.01)
    plain, _ = _asgi_post(SlipArrivals, b'{"round": 1, "word": "WROTE"}', stamp=now)
    assert FIRST_ARRIVAL not in plain["extensions"]  # no identity: nothing recorded
    answered(credential="bearer:tok-asgi", attempt=ATTEMPT)


def _run_held(answers: list[int]) -> tuple[list[dict], list[dict]]:
    """SlipArrivals in front of an app answering each run with the next status of ``answers``
    (503 marked to be run again); what the app saw at each run, and what went out."""
    import asyncio

    body = json.dumps({"round": 1, "word": "WROTE"}).encode()
    runs: list[dict] = []
    out: list[dict] = []

    async def inner(scope, receive, send) -> None:
        message = await receive()
        runs.append({"body": message["body"], "extensions": dict(scope["extensions"])})
        status = answers[len(runs) - 1]
        headers = [(b"content-type", b"application/json")]
        if status == 503:
            headers.append((b"x-duplicate-hold-retry", b"1"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"{}"})

    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message) -> None:
        out.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/v1/play/submissions", "headers": []}
    asyncio.run(SlipArrivals(inner)(scope, receive, send))
    return runs, out


def test_a_slip_is_held_on_the_event_loop_and_run_again_with_the_same_body_and_identity(
    settings,
) -> None:
    settings.SLIP_HOLD_SECONDS = 30
    runs, out = _run_held([503, 503, 201])
    assert len(runs) == 3 and len({r["body"] for r in runs}) == 1
    identities = {r["extensions"]["duplicate.server_attempt"] for r in runs}
    assert len(identities) == 1  # the server's own identity, the same at every run
    # numbered: the rate limit counts the first run only
    assert [r["extensions"]["duplicate.hold_run"] for r in runs] == [0, 1, 2]
    assert [m.get("status") for m in out] == [201, None]  # the 503s never went out


def test_a_slip_held_past_the_hold_is_answered_503_unmarked(settings) -> None:
    settings.SLIP_HOLD_SECONDS = 0.6
    runs, out = _run_held([503] * 10)
    assert 2 <= len(runs) <= 4
    assert out[0]["status"] == 503
    assert all(k != b"x-duplicate-hold-retry" for k, _ in out[0]["headers"])


def test_only_a_definitive_answer_forgets_the_first_arrival() -> None:
    assert definitive(201) and definitive(409) and definitive(400)
    assert not definitive(503) and not definitive(500) and not definitive(429)


def test_a_body_too_large_for_a_slip_goes_through_whole_and_is_not_held(settings) -> None:
    """Over 16 KB it is no slip: passed on, every piece, neither recorded nor held here."""
    settings.SLIP_HOLD_SECONDS = 30
    body = json.dumps({"round": 1, "word": "W" * 40_000, "attempt": ATTEMPT}).encode()
    scope, passed = _asgi_post(SlipArrivals, body, stamp=time.time(), chunks=4)
    assert passed == body
    assert "duplicate.loop_hold" not in scope.get("extensions", {})
    assert FIRST_ARRIVAL not in scope.get("extensions", {})
