"""A task that cannot be sent (the broker is down) never turns an action already committed into
an error: the round is open, the error is logged, and the sweep does the work later."""

from __future__ import annotations

import logging

import pytest
from kombu.exceptions import OperationalError

from arbiter import tasks
from arbiter.services import clock, racks
from tests.arbiter.conftest import T0
from tournament.models import Game, Round

pytestmark = pytest.mark.django_db


def test_the_round_opens_when_its_tasks_cannot_be_sent(
    game: Game, django_capture_on_commit_callbacks, monkeypatch, caplog
) -> None:
    def broker_down(*args: object, **kwargs: object) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.round_tops_compute, "delay", broker_down)
    monkeypatch.setattr(tasks.round_close, "apply_async", broker_down)
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    with (
        caplog.at_level(logging.ERROR, logger="arbiter.services.common"),
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        opened = clock.round_open(round=drawn, actor=None, now=T0)
    assert len([c for c in callbacks if not hasattr(c, "announces")]) == 2  # the two tasks
    assert Round.objects.get(pk=opened.pk).status == Round.Status.OPEN
    failures = [r for r in caplog.records if "could not be sent" in r.getMessage()]
    assert len(failures) == 2
