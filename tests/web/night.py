"""The club night of the browser tests (``tests/web/conftest.py``'s ``night``): rounds played
through the services, now."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from arbiter.services import clock, publishing, racks, scoring
from arbiter.services.slips import slip_submit
from tournament.models import Game, Player, Round

PLAYERS = 40
TILES = 12  # WROTE, then TREMOLOS down through the R of WROTE


def publish_round(game: Game, slips: dict[Player, tuple[str, str, int]]) -> Round:
    """Draw, open, hand in ``slips``, close, score and publish one round, now."""
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    opened = clock.round_open(round=drawn, actor=None, now=timezone.now())
    for player, (word, ref, score) in slips.items():
        slip_submit(player=player, round=opened, word=word, ref=ref, score=score)
    assert opened.deadline is not None
    closing = opened.deadline + dt.timedelta(seconds=game.event.grace_seconds)
    assert clock.round_close(round_id=opened.pk, now=closing)
    scored = scoring.round_score(round_id=opened.pk, now=closing)
    assert scored is not None
    return publishing.round_publish(round=scored, actor=None, now=closing)
