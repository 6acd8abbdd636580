"""A French event playing the list its director uploaded: no round before the list is compiled,
then a slip with a French word is ruled against that list and scored on the event's board."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.services import clock, racks
from arbiter.services.slips import slip_submit
from tests.arbiter.conftest import T0, finish_round
from tests.factories import EventFactory, GameFactory, PlayerFactory, RoundFactory
from tests.tournament.test_word_lists import FRENCH
from tests.tournament.test_word_lists import _folders as _folders  # autouse: tmp folders
from tournament.errors import ApplicationError
from tournament.models import Game, Round, Ruling, WordList
from tournament.services.word_lists import word_list_compile, word_list_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def mots() -> WordList:
    word_list, _ = word_list_upload(
        data=FRENCH.read_bytes(), name="Mots", tile_set="fr", actor=None
    )
    return word_list


def french_game(word_list: WordList, layout: str = "standard") -> Game:
    event = EventFactory(
        tile_set="fr", lexicon=word_list.key, board_layout=layout, solo_min_players=3
    )
    for i, name in enumerate(["Anne", "Benoît"]):
        PlayerFactory(event=event, name=name, table=i + 1)
    return GameFactory(event=event, number=1, source=Game.Source.MANUAL, seed=None)


def test_no_rack_is_drawn_or_typed_before_the_list_is_compiled(mots: WordList) -> None:
    game = french_game(mots)
    with pytest.raises(ApplicationError, match=r"word list Mots is not compiled yet \(0%\)"):
        racks.round_rack_enter(game=game, rack="ACEHUVX", actor=None)
    random = GameFactory(event=game.event, number=2)
    with pytest.raises(ApplicationError, match="not compiled yet"):
        racks.round_draw(game=random, actor=None)
    assert not Round.objects.exists()


def test_no_round_opens_while_its_list_is_not_compiled(mots: WordList) -> None:
    game = french_game(mots)
    drawn = RoundFactory(game=game, number=1, rack="ACEHUVX", status=Round.Status.DRAWN)
    WordList.objects.filter(pk=mots.pk).update(status=WordList.Status.COMPILING, progress=40)
    with pytest.raises(ApplicationError, match=r"not compiled yet \(40%\): a round can start"):
        clock.round_open(round=drawn, actor=None, now=T0)
    drawn.refresh_from_db()
    assert drawn.status == Round.Status.DRAWN


def test_a_failed_list_says_why_and_what_to_do(mots: WordList) -> None:
    game = french_game(mots)
    mots.path.unlink()
    word_list_compile(word_list_id=mots.pk)
    with pytest.raises(ApplicationError, match="could not be compiled .*upload it again"):
        racks.round_rack_enter(game=game, rack="ACEHUVX", actor=None)


@pytest.mark.parametrize(
    ("layout", "ref", "points"),
    [
        # C 3, H 4, E 1 on the centre's double word, V 4, A 1, U 1, X 10 on H12's double
        # letter: 34, doubled, + 50 for seven tiles
        ("standard", "H6", 118),
        # C 3, H 4, E on H4's double letter 2, V 4, A 1, U 1, X 10 on the triple-letter
        # centre: 45, no word premium, + 50
        ("tl-centre", "H2", 95),
    ],
)
def test_a_slip_with_a_french_word_is_accepted_and_scored_on_the_events_board(
    mots: WordList, layout: str, ref: str, points: int
) -> None:
    word_list_compile(word_list_id=mots.pk)
    game = french_game(mots, layout)
    anne, benoit = game.event.players.order_by("table")
    drawn = racks.round_rack_enter(game=game, rack="CHEVAUX", actor=None)
    opened = clock.round_open(round=drawn, actor=None, now=T0)
    at = T0 + dt.timedelta(seconds=20)
    slip_submit(player=anne, round=opened, word="CHEVAUX", ref=ref, score=points, at=at)
    slip_submit(player=benoit, round=opened, word="CHAUVEX", ref=ref, score=points, at=at)
    published = finish_round(opened, T0)
    # the top: the only word of the rack in the list, at its best place on this board
    assert (published.played_word, published.played_score) == ("CHEVAUX", points)
    anne_ruling = Ruling.objects.get(round=published, player=anne)
    assert anne_ruling.code == "valid", anne_ruling.reason
    assert anne_ruling.points == points
    benoit_ruling = Ruling.objects.get(round=published, player=benoit)
    assert benoit_ruling.code == "invalid_word" and benoit_ruling.points == 0
