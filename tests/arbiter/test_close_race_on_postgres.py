"""A slip that straddles the close, on PostgreSQL with two real connections (issue 13's first
defect): accepting a slip and closing its round are serialised by the round's row lock, so a
slip whose request arrived on time is ruled whichever transaction gets there first, and every
slip answered with a receipt is ruled."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection

from arbiter.services import clock, scoring
from arbiter.services import slips as slip_service
from tests.arbiter.conftest import T0, open_round
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tournament.models import Round, Ruling

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DEADLINE = T0 + dt.timedelta(seconds=180)
CLOSING = DEADLINE + dt.timedelta(seconds=10)  # plus the grace


def in_thread(fn: Callable[[], object], results: dict[str, object], key: str) -> threading.Thread:
    def run() -> None:
        try:
            results[key] = fn()
        except Exception as exc:  # the test reads it
            results[key] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.fixture
def round_open() -> Round:
    event = EventFactory(solo_min_players=99)
    for table, name in enumerate(["Ann", "Bob"], start=1):
        PlayerFactory(event=event, name=name, table=table)
    return open_round(GameFactory(event=event, number=1, seed=7))


def test_a_slip_stalled_across_the_close_is_accepted_then_ruled(round_open, monkeypatch) -> None:
    ann = round_open.game.event.players.get(name="Ann")
    checked = slip_service._check_phone_slip
    stalled = threading.Event()

    def stall(*args: object, **kwargs: object) -> None:  # inside the slip's transaction, locked
        checked(*args, **kwargs)  # type: ignore[arg-type]
        stalled.set()
        time.sleep(1.0)

    monkeypatch.setattr(slip_service, "_check_phone_slip", stall)
    results: dict[str, object] = {}
    slip = in_thread(
        lambda: slip_service.slip_submit(
            player=ann, round=round_open, word="WROTE", ref="H4", score=24, at=DEADLINE
        ),
        results,
        "slip",
    )
    assert stalled.wait(10)
    started = time.monotonic()

    def close_and_score() -> float:  # what the countdown task and then the scoring task do
        assert clock.round_close(round_id=round_open.pk, now=CLOSING)
        closed = time.monotonic()
        assert scoring.round_score(round_id=round_open.pk, now=CLOSING) is not None
        return closed

    close = in_thread(close_and_score, results, "closed_at")
    slip.join(15)
    close.join(15)
    assert not isinstance(results["slip"], Exception), results["slip"]
    closed_at = results["closed_at"]
    assert isinstance(closed_at, float), closed_at
    assert closed_at - started > 0.5  # the close waited for the slip's transaction
    ruling = Ruling.objects.get(round=round_open, player=ann)
    assert (ruling.code, ruling.points) == ("valid", 24)


def test_a_slip_that_arrived_on_time_but_reaches_the_server_after_the_close_is_ruled(
    round_open, monkeypatch
) -> None:
    ann = round_open.game.event.players.get(name="Ann")
    results: dict[str, object] = {}
    closing = in_thread(
        lambda: clock.round_close(round_id=round_open.pk, now=CLOSING), results, "close"
    )
    closing.join(15)
    assert results["close"] is True
    scoring.round_score(round_id=round_open.pk, now=CLOSING)
    late_to_the_server = in_thread(
        lambda: slip_service.slip_submit(
            player=ann, round=round_open, word="WROTE", ref="H4", score=24, at=DEADLINE
        ),
        results,
        "slip",
    )
    late_to_the_server.join(15)
    assert not isinstance(results["slip"], Exception), results["slip"]
    ruling = Ruling.objects.get(round=round_open, player=ann)
    assert (ruling.code, ruling.points) == ("valid", 24)
