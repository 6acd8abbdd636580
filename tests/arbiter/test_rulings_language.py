"""A ruling's reason is written in its event's language when the slip is ruled (the pure
rules say it through the judge's ``say``); an English event's reasons are as they always were."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.services.slips import slip_submit
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tournament.models import Ruling

pytestmark = pytest.mark.django_db


def reasons(language: str) -> dict[str, str]:
    """Round 1 of seed 7 (rack ELORTTW, top H4 WROTE 24): Ann plays the top as she should,
    Bob announces no score, Cleo hands nothing in."""
    room = EventFactory(solo_min_players=3, language=language)
    ann, bob, cleo = (
        PlayerFactory(event=room, name=name, table=i + 1)
        for i, name in enumerate(["Ann", "Bob", "Cleo"])
    )
    game = GameFactory(event=room, number=1, seed=7)
    r = open_round(game)
    at = T0 + dt.timedelta(seconds=30)
    slip_submit(player=ann, round=r, word="WROTE", ref="H4", score=24, at=at)
    slip_submit(player=bob, round=r, word="WROTE", ref="H4", score=None, at=at)
    finish_round(r, T0)
    return {ru.player.name: ru.reason for ru in Ruling.objects.filter(round=r)}


def test_a_french_events_reasons_are_in_french() -> None:
    said = reasons("fr")
    assert said["Ann"] == "premier coup crédité à sa meilleure position H4\u00a0: 24"
    assert said["Bob"] == (
        "premier coup crédité à sa meilleure position H4\u00a0; "
        "aucun score annoncé, le coup vaut 24\u00a0: 24 et un avertissement"
    )
    assert said["Cleo"] == "pas de bulletin rendu\u00a0: 0"


def test_an_english_events_reasons_read_as_before() -> None:
    said = reasons("en")
    assert said["Ann"] == "first move credited at its best position H4: 24"
    assert said["Bob"] == (
        "first move credited at its best position H4; no score announced, the move is worth 24"
        ": 24 and a warning"
    )
    assert said["Cleo"] == "no slip handed in: 0"
