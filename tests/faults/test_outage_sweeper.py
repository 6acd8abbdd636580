"""A worker's watch on the broker (``config.celery.OutageSweeper``): while Redis answers it
leaves the rounds to beat's sweep and the tasks; once Redis does not, it closes and scores the
overdue rounds itself. Our own redis-server, killed for real."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from config.celery import OutageSweeper
from tests.arbiter.conftest import game, open_round, players, room  # noqa: F401  (fixtures)
from tests.faults.stack import Stack
from tournament.models import Game, Round

pytestmark = [pytest.mark.django_db, pytest.mark.redis]


def test_the_worker_sweeps_the_rounds_only_while_the_broker_does_not_answer(
    game: Game,  # noqa: F811
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    stack = Stack(tmp_path)
    redis = stack.redis()
    overdue = open_round(game)  # opened at T0, long ago: its deadline has passed
    sweeper = OutageSweeper(stack.redis_url, interval=1)
    try:
        assert sweeper.check() is None  # Redis answers: beat's sweep does the work
        assert Round.objects.get(pk=overdue.pk).status == Round.Status.OPEN

        redis.kill()
        with caplog.at_level(logging.WARNING, logger="config.celery"):
            done = sweeper.check()
            assert sweeper.check() == {"closed": 0, "scored": 0, "tops": 0, "published": 0}
        assert done is not None and done["closed"] == 1 and done["scored"] == 1
        assert Round.objects.get(pk=overdue.pk).status == Round.Status.SCORED
        said = [r.getMessage() for r in caplog.records]
        assert sum("does not answer" in m for m in said) == 1  # once, not at every watch

        stack.redis()
        with caplog.at_level(logging.WARNING, logger="config.celery"):
            assert sweeper.check() is None
        assert any("answers again" in r.getMessage() for r in caplog.records)
    finally:
        stack.close()


def test_a_broker_url_that_names_no_server_counts_as_down(db: None) -> None:
    sweeper = OutageSweeper("redis://127.0.0.1:1/0", interval=1)  # port 1: nothing listens
    assert sweeper.broker_answers() is False
