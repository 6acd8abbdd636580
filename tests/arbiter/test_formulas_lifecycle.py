"""A game in an original formula played through the services (docs/formulas.md): the racks it
draws, the tops it plays and the board it keeps are the engine's game in that formula."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.services import racks
from engine.formula import Formula
from engine.game import autoplay
from engine.lexicon import Lexicon
from engine.replay import replay_rounds
from engine.tiles import TileSet
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import GameFactory
from tournament.errors import ApplicationError
from tournament.models import Event, Game, Player
from tournament.services.games import game_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("formula", "rounds"), [("joker", 8), ("joker+789", 5), ("detonante", 4)])
def test_a_game_in_a_formula_played_through_the_services_is_the_engines_game(
    room: Event, players: list[Player], formula: str, rounds: int
) -> None:
    game = GameFactory(event=room, number=1, seed=7, formula=formula)
    engine = autoplay(
        seed=7, tiles=TileSet.load("en"), lexicon=Lexicon.load(), formula=Formula.parse(formula)
    )
    now = T0
    for expected in engine.rounds[:rounds]:
        r = open_round(game, now=now)
        assert (r.number, r.rack, r.leftover) == (expected.number, expected.rack, expected.leftover)
        assert len(r.rack) == Formula.parse(formula).rack_size or r.number > 15
        r = finish_round(r, now)
        assert (r.played_ref, r.played_word, r.played_score) == (
            expected.ref,
            expected.word,
            expected.score,
        )
        now += dt.timedelta(minutes=5)
    game.refresh_from_db()
    board = replay_rounds(
        engine.rounds[:rounds],
        tiles=TileSet.load("en"),
        lexicon=Lexicon.load(),
        seed=7,
        formula=Formula.parse(formula),
    ).board
    assert game.board == board.to_lines()
    if Formula.parse(formula).joker:
        replaced = [x for x in engine.rounds[:rounds] if x.joker_replaced]
        assert replaced, "a round of these replaced its joker"
        # the stored board holds the real letter where the joker was played and replaced
        assert sum(ch.islower() for line in game.board for ch in line) == sum(
            1 for x in engine.rounds[:rounds] if x.joker_replaced is False
        )


def test_a_rack_typed_in_a_seven_and_eight_game_has_eight_tiles(room: Event) -> None:
    game = game_create(event=room, actor=None, source=Game.Source.MANUAL, formula="7et8")
    with pytest.raises(ApplicationError) as refused:
        racks.round_rack_enter(game=game, rack="AEINRST", actor=None)
    assert refused.value.code == "bad_rack" and "needs 8" in refused.value.message
    entered = racks.round_rack_enter(game=game, rack="AEINRSTD", actor=None)
    assert entered.rack == "ADEINRST"


def test_an_unknown_formula_is_refused_with_its_code(room: Event) -> None:
    with pytest.raises(ApplicationError) as refused:
        game_create(event=room, actor=None, formula="8sur9")
    assert refused.value.code == "unknown_formula"
    assert not room.games.exists()


def test_a_joker_game_exports_to_eliot_with_its_variant_and_a_789_game_is_refused(
    room: Event, players: list[Player]
) -> None:
    from arbiter.selectors.interchange import eliot_bytes

    game = GameFactory(event=room, number=1, seed=7, formula="joker")
    finish_round(open_round(game), T0)
    written = eliot_bytes(game).decode("utf-8")
    assert "<Mode>arbitration</Mode>\n        <Variant>bingo</Variant>" in written
    nine = GameFactory(event=room, number=2, seed=7, formula="789")
    with pytest.raises(ApplicationError) as refused:
        eliot_bytes(nine)
    assert refused.value.code == "formula_not_in_eliot"
