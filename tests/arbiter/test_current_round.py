"""The current round (``tournament.selectors.round_current``) and the last published one, as
every face reads them: the console, the screen and the phones agree at each step of a game
(the phones took the latest round not annulled, the others the one in play else the last
published: the same round, now by one definition)."""

from __future__ import annotations

import pytest

from arbiter.selectors.console import console_state
from arbiter.selectors.play import play_shared
from arbiter.selectors.screen import screen_state
from arbiter.services import corrections, racks
from tests.arbiter.conftest import T0, finish_round, open_round
from tournament.models import Game
from tournament.selectors import round_current, round_in_play, round_last_published

pytestmark = pytest.mark.django_db


def seen(game: Game) -> dict[str, int | None]:
    console = console_state(game=game, now=T0).round
    screen = screen_state(game=game, now=T0).round
    phones = play_shared(event=game.event, game=game, now=T0)["round"]
    current = round_current(game_id=game.pk)
    return {
        "current": None if current is None else current.number,
        "console": None if console is None else console.number,
        "screen": None if screen is None else screen.number,
        "phones": None if phones is None else phones["number"],
    }


def test_every_face_shows_the_round_in_play_else_the_last_published_one(game: Game) -> None:
    assert set(seen(game).values()) == {None}
    first = open_round(game)
    assert round_in_play(game_id=game.pk) == first and round_last_published(game_id=game.pk) is None
    assert set(seen(game).values()) == {1}
    finish_round(first, T0)
    assert round_in_play(game_id=game.pk) is None
    assert round_last_published(game_id=game.pk) == first
    assert set(seen(game).values()) == {1}
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None and set(seen(game).values()) == {2}
    corrections.round_annul(round=drawn, reason="a tile fell", actor=None)
    assert round_in_play(game_id=game.pk) is None
    assert set(seen(game).values()) == {1}  # the annulled round is nobody's current round
    again = racks.round_draw(game=game, actor=None)
    assert again is not None and again.number == 2
    assert round_current(game_id=game.pk) == again == round_in_play(game_id=game.pk)
    assert set(seen(game).values()) == {2}
