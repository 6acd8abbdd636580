"""What the simultaneous events' tests (``tests/arbiter/rooms/``) share: the host (one whole game
drawn in advance from a seed) and its director, a remote room played on another installation,
players with licences, and a round played through the services a room uses: draw, open,
slips, close, score, publish. The fixtures are offered by ``conftest.py`` beside this module.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from arbiter.selectors.rooms import room_results
from arbiter.services.simultaneous import game_draw_whole
from arbiter.services.slips import slip_submit
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, PlayerFactory, UserFactory
from tournament.models import Event, Game, Player, Round
from tournament.services.games import game_create

SEED = 20261124


@pytest.fixture
def director():
    return UserFactory(username="organiser")


@pytest.fixture
def host(director) -> Event:
    event = EventFactory(name="Simultaneous", solo_min_players=3)
    from tournament.models import EventRole

    EventRole.objects.create(user=director, event=event, role=EventRole.Role.DIRECTOR)
    game_draw_whole(event=event, actor=director, seed=SEED)
    return event


def people(event: Event, *names: str, club: str = "Club") -> list[Player]:
    return [
        PlayerFactory(event=event, name=n, club=club, licence=f"L-{n}", table=i + 1)
        for i, n in enumerate(names)
    ]


def play(event: Event, slips: dict[Player, str], now: dt.datetime = T0) -> Round:
    """One round of ``event``'s game 1: each player in ``slips`` hands in the top ("top"), the
    second best move ("second") or nothing; closed, scored and published."""
    game = event.games.get(number=1)
    round = open_round(game, now=now)
    from arbiter.services.scoring import round_tops_compute

    round_tops_compute(round_id=round.pk, now=now)
    round.refresh_from_db()
    top = round.tops[0]
    # Another word (a first move is credited at the word's best square) that scores less.
    second = next(
        t
        for t in round.tops
        if t["score"] < top["score"] and t["word"].upper() != top["word"].upper()
    )
    for player, which in slips.items():
        move = round.tops[0] if which == "top" else second
        slip_submit(
            player=player,
            round=round,
            word=move["word"],
            ref=move["ref"],
            score=move["score"],
            at=now + dt.timedelta(seconds=30),
        )
    return finish_round(round, now)


@pytest.fixture
def elsewhere(host) -> Event:
    """The room as played on another installation: an event of its own with the host's game
    imported (the same document), its players and two rounds."""
    event = EventFactory(name="Montréal", solo_min_players=3)
    game_create(
        event=event, actor=None, source=Game.Source.PREDRAWN, predrawn=host.games.get().predrawn
    )
    gil, hal = people(event, "Gil", "Hal", club="Mtl")
    PlayerFactory(event=event, name="Ivy", club="Mtl", licence="", table=3)
    play(event, {gil: "top", hal: "second"})
    play(event, {gil: "second"}, now=T0 + dt.timedelta(minutes=5))
    return event


def results_of(event: Event) -> bytes:
    return json.dumps(room_results(event)).encode()


def _file(document: dict) -> bytes:
    return json.dumps(document).encode()
