"""On time means counted (issue 25): a phone sends each slip with an attempt identity and sends
the very same body again until it gets an answer. A retry of a slip already stored is answered
with the original receipt, whenever it comes (never a second slip, never "deadline passed");
the request is held while the database does not answer, and an attempt that got no definitive
answer keeps the arrival of its first request. API errors are JSON with a code, the database's
included. The real outages, on the production server, are in tests/faults/test_slips_outage.py.
"""

from __future__ import annotations

import datetime as dt
import sys

import pytest
from django.db import OperationalError
from django.test import RequestFactory

from arbiter.services import slips as slip_service
from tests.arbiter.conftest import T0, open_round
from tests.web.api.conftest import seconds
from tournament.models import Submission
from web.outage import answered, first_arrival, server_error_view

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
