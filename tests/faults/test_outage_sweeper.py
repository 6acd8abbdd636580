"""A worker's watch on the rounds (``config.celery.RoundsWatch``): it closes and scores the
overdue rounds whatever the broker does (beat may be down, the worker holding the close dead);
once Redis does not answer, it runs the whole sweep (tops, publishing) and says so once. Our
own redis-server, killed for real."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from config.celery import RoundsWatch
from tests.arbiter.conftest import game, open_round, players, room  # noqa: F401  (fixtures)
from tests.faults.stack import Stack
from tournament.models import Game, Round

pytestmark = [pytest.mark.django_db, pytest.mark.redis]


# The watch closes its thread's database connection after each round (config.celery): here it
# runs on the test's thread, so the test's writes are committed (a transaction test), not held in
# a transaction that the close would end.
@pytest.mark.django_db(transaction=True)
def test_the_watch_closes_overdue_rounds_and_sweeps_everything_while_the_broker_is_down(
    game: Game,  # noqa: F811
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    stack = Stack(tmp_path)
    redis = stack.redis()
    overdue = open_round(game)  # opened at T0, long ago: its deadline has passed
    sweeper = RoundsWatch(stack.redis_url, interval=1)
    try:
        # Redis answers, no beat: the watch closes and scores the overdue round itself.
        done = sweeper.check()
        assert done == {"closed": 1, "scored": 1, "word_lists_failed": 0}
        assert Round.objects.get(pk=overdue.pk).status == Round.Status.SCORED
        assert sweeper.check() == {"closed": 0, "scored": 0, "word_lists_failed": 0}

        redis.kill()
        with caplog.at_level(logging.WARNING, logger="config.celery"):
            done = sweeper.check()
            assert sweeper.check() == done
        assert done == {"closed": 0, "scored": 0, "tops": 0, "published": 0, "word_lists_failed": 0}
        said = [r.getMessage() for r in caplog.records]
        assert sum("does not answer" in m for m in said) == 1  # once, not at every watch

        stack.redis()
        with caplog.at_level(logging.WARNING, logger="config.celery"):
            assert sweeper.check() == {"closed": 0, "scored": 0, "word_lists_failed": 0}
        assert any("answers again" in r.getMessage() for r in caplog.records)
    finally:
        stack.close()


def test_a_broker_url_that_names_no_server_counts_as_down(db: None) -> None:
    sweeper = RoundsWatch("redis://127.0.0.1:1/0", interval=1)  # port 1: nothing listens
    assert sweeper.broker_answers() is False
