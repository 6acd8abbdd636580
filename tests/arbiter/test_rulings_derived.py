"""What the rulings of a game derive, through the services (rules 8-11, docs/rules.md): found-top
and ranks for moves on the board only, solos from the active players of this game, warnings'
penalties counted in round order through the game and not through an annulled round, a
player's ruling made again without touching their other rounds, the event's tiles.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User

from arbiter.services import clock, corrections, publishing, racks, scoring
from arbiter.services.rulings import rulings_derive
from arbiter.services.slips import Existing, slip_submit
from engine.board import Board
from engine.lexicon import Lexicon
from engine.movegen import generate
from engine.tiles import TileSet
from tests.arbiter.conftest import T0
from tests.arbiter.test_slip_entry import CLOSING, ROUND_2, horn_game, paper, phone
from tests.factories import (
    EventFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    SubmissionFactory,
    UserFactory,
)
from tournament.models import Event, Game, Player, Round, Ruling

pytestmark = pytest.mark.django_db

ROUND_3 = ROUND_2 + dt.timedelta(minutes=10)


@pytest.fixture
def room() -> list[Player]:
    event = EventFactory(solo_min_players=3, warnings_free=1)
    return [PlayerFactory(event=event, name=n, table=i + 1) for i, n in enumerate("ABCD")]


@pytest.fixture
def director() -> User:
    return UserFactory(username="director")


def score(r: Round, start: dt.datetime = ROUND_2) -> Round:
    assert clock.round_close(round_id=r.pk, now=start + CLOSING)
    scored = scoring.round_score(round_id=r.pk, now=start + CLOSING)
    assert scored is not None
    return scored


def publish(r: Round, start: dt.datetime = ROUND_2) -> Round:
    return publishing.round_publish(round=r, actor=None, now=start + CLOSING)


def rulings(r: Round) -> dict[str, Ruling]:
    return {x.player.name: x for x in Ruling.objects.filter(round=r).select_related("player")}


def first_round(game: Game, at: dt.datetime = T0) -> Round:
    first = racks.round_rack_enter(game=game, rack="HORNAEI", actor=None)
    return clock.round_open(round=first, actor=None, now=at)


def third_round(game: Game, rack: str = "AEIOTLN") -> Round:
    third = racks.round_rack_enter(game=game, rack=rack, actor=None)
    third = clock.round_open(round=third, actor=None, now=ROUND_3)
    scoring.round_tops_compute(round_id=third.pk, now=ROUND_3)
    third.refresh_from_db()
    return third


def test_only_a_move_on_the_board_finds_the_top_or_has_a_rank(
    room: list[Player], director: User
) -> None:
    _, r = horn_game(room)
    scoring.round_tops_compute(round_id=r.pk, now=ROUND_2)
    r.refresh_from_db()
    top = r.tops[0]
    phone(room[0], r, top["word"], top["ref"], top["score"])
    paper(room[1], r, top["word"] + "Z", top["ref"], top["score"], director)  # not a word
    phone(room[2], r, "FARM", "8F", 9)
    got = rulings(score(r))
    assert (got["A"].found_top, got["A"].rank, got["A"].solo) == (True, 1, 10)
    assert (got["B"].code, got["B"].found_top, got["B"].rank) == ("invalid_word", False, None)
    assert got["C"].rank == 1 + sum(n for s, n in r.score_counts.items() if int(s) > 9)
    assert (got["D"].code, got["D"].found_top, got["D"].rank) == ("missing", False, None)


def test_a_ruling_is_stamped_with_the_time_it_was_made(room: list[Player]) -> None:
    _, r = horn_game(room)
    phone(room[0], r, "FARM", "8F", 9)
    got = rulings(score(r))
    assert {x.ruled_at for x in got.values()} == {ROUND_2 + CLOSING}


def test_the_solo_counts_the_players_of_this_game_not_of_another_nor_of_an_annulled_round(
    room: list[Player],
) -> None:
    # one game: three play (a solo from 3), A alone finds the top: a solo
    _, r = horn_game(room)
    scoring.round_tops_compute(round_id=r.pk, now=ROUND_2)
    r.refresh_from_db()
    top = r.tops[0]
    phone(room[0], r, top["word"], top["ref"], top["score"])
    phone(room[1], r, "FARM", "8F", 9)
    phone(room[2], r, "FARM", "8F", 9)
    assert rulings(score(r))["A"].solo == 10
    # another game of the event: C and D's slips are in a round that is then annulled
    other = GameFactory(event=room[0].event, source=Game.Source.MANUAL, seed=None)
    annulled = first_round(other, at=ROUND_3)
    for p in room[2:]:
        slip_submit(player=p, round=annulled, word="HORN", ref="H6", score=14, at=ROUND_3)
    corrections.round_annul(round=annulled, reason="rack called wrongly", actor=None)
    again = first_round(other, at=ROUND_3)
    scoring.round_tops_compute(round_id=again.pk, now=ROUND_3)
    again.refresh_from_db()
    top = again.tops[0]
    for p, word, score_ in ((room[0], top["word"], top["score"]), (room[1], "HORN", 14)):
        slip_submit(player=p, round=again, word=word, ref="", score=score_, at=ROUND_3)
    again = score(again, ROUND_3)
    assert rulings(again)["A"].found_top and not rulings(again)["B"].found_top
    assert all(x.solo == 0 for x in rulings(again).values())  # 2 active players, not 4
    assert rulings(r)["A"].solo == 10  # the first game's solo stands


def test_warnings_in_an_annulled_round_cost_nothing_later(room: list[Player]) -> None:
    Event.objects.filter(pk=room[0].event_id).update(warnings_free=2)
    game = GameFactory(event=room[0].event, source=Game.Source.MANUAL, seed=None)
    first = first_round(game)
    slip_submit(player=room[0], round=first, word="HORN", ref="H6", score=None, at=T0)
    scored = score(first, T0)
    assert rulings(scored)["A"].warning  # the free warning, then the round is annulled
    corrections.round_annul(round=scored, reason="rack called wrongly", actor=None)
    again = first_round(game)
    slip_submit(player=room[0], round=again, word="HORN", ref="H6", score=None, at=T0)
    again = score(again, T0)
    assert (rulings(again)["A"].warning, rulings(again)["A"].warning_penalty) == (True, 0)
    publishing.round_top_choose(round=again, ref="H6", word="HORN", actor=None)
    publish(again, T0)
    second = racks.round_rack_enter(game=game, rack="AFMEIOT", actor=None)
    second = clock.round_open(round=second, actor=None, now=ROUND_2)
    phone(room[0], second, "FARM", "8F", None)
    ann = rulings(score(second))["A"]
    assert (ann.warning, ann.warning_penalty) == (True, 0)  # the second that counts: free
    assert rulings_derive(game=Game.objects.get(pk=game.pk), from_round=2) == 0


def test_warnings_of_another_game_do_not_count_in_this_one(room: list[Player]) -> None:
    other = GameFactory(event=room[0].event, source=Game.Source.MANUAL, seed=None)
    elsewhere = first_round(other)
    slip_submit(player=room[0], round=elsewhere, word="HORN", ref="H6", score=None, at=T0)
    assert rulings(score(elsewhere, T0))["A"].warning  # A's warning in the other game
    game, r = horn_game_with_round_1_published(room)  # no slip of A in its round 1
    phone(room[0], r, "FARM", "8F", None)
    ann = rulings(score(r))["A"]
    assert (ann.warning, ann.warning_penalty) == (True, 0)  # the first of this game: free


def test_a_slip_entered_in_an_earlier_round_keeps_the_warnings_in_round_order(
    room: list[Player], director: User
) -> None:
    game, r = horn_game_with_round_1_published(room)
    phone(room[0], r, "FARM", "8F", None)  # A's first warning: free
    r = publish(score(r))
    third = third_round(game)
    top = third.tops[0]
    phone(room[0], third, top["word"], top["ref"], None, at=ROUND_3)  # A's second: 5
    third = score(third, ROUND_3)
    assert rulings(third)["A"].warning_penalty == 5
    # round 2's ruling of A is made again (a slip entered after publication): still the first
    corrections.ruling_slip_enter(
        round=r, player=room[0], word="FARM", ref="8F", score=12, reason="re-read", actor=director
    )
    assert (rulings(r)["A"].warning, rulings(r)["A"].warning_penalty) == (True, 0)
    assert (rulings(third)["A"].warning, rulings(third)["A"].warning_penalty) == (True, 5)


def horn_game_with_round_1_published(room: list[Player]) -> tuple[Game, Round]:
    first, second = horn_game(room)
    return first.game, second


def test_a_ruling_made_again_leaves_the_players_other_rounds_alone(
    room: list[Player], director: User
) -> None:
    first, r = horn_game(room, slip_in_round_1=True)  # A's HORN H6 14 stands in round 1
    r = score(r)
    assert rulings(r)["A"].code == "missing"
    paper(room[0], r, "FARM", "8F", 12, director)  # ruled at once, on this round's slip
    assert (rulings(r)["A"].code, rulings(r)["A"].points) == ("valid_warning", 9)
    paper(room[0], r, "FARM", "8F", 9, director, existing=Existing.CORRECTION)
    assert (rulings(r)["A"].code, rulings(r)["A"].points) == ("valid", 9)
    assert (rulings(first)["A"].code, rulings(first)["A"].points) == ("valid", 14)
    assert Ruling.objects.filter(player=room[0]).count() == 2


def test_deriving_again_changes_nothing_and_says_so(room: list[Player]) -> None:
    game, r = horn_game_with_round_1_published(room)
    phone(room[0], r, "FARM", "8F", None)
    phone(room[1], r, "FARM", "8F", 9)
    score(r)
    assert rulings_derive(game=game) == 0
    Ruling.objects.filter(round=r, player=room[1]).update(found_top=True, rank=99)
    Ruling.objects.filter(round=r, player=room[0]).update(warning_penalty=5)
    first = Round.objects.get(game=game, number=1)
    Ruling.objects.filter(round=first, player=room[2]).update(rank=7)
    assert rulings_derive(game=game) == 3  # all put right, from round 1 by default
    assert rulings(first)["C"].rank is None
    assert (rulings(r)["B"].found_top, rulings(r)["B"].rank) == (False, rulings(r)["A"].rank)
    assert rulings(r)["A"].warning_penalty == 0


def test_a_round_with_no_legal_move_has_no_top_to_find(room: list[Player]) -> None:
    game = GameFactory(event=room[0].event)
    r = RoundFactory(game=game, status=Round.Status.SCORED, tops=[], score_counts={})
    slip = SubmissionFactory(round=r, player=room[0], word="ZZ", ref="H8", announced_score=0)
    Ruling.objects.create(round=r, player=room[0], submission=slip, code="does_not_fit", points=0)
    rulings_derive(game=game)
    ruling = Ruling.objects.get(round=r)
    assert (ruling.found_top, ruling.rank, ruling.solo) == (False, None, 0)


def test_a_game_in_french_tiles_is_scored_with_french_values(room: list[Player]) -> None:
    event: Event = room[0].event
    Event.objects.filter(pk=event.pk).update(tile_set="fr")
    game = GameFactory(event=Event.objects.get(pk=event.pk), source=Game.Source.MANUAL, seed=None)
    assert game.tile_set == "fr"
    first = racks.round_rack_enter(game=game, rack="WOKEAIS", actor=None)
    first = clock.round_open(round=first, actor=None, now=T0)
    french = TileSet.load("fr")
    best = max(
        (m for m in generate(Board(), "WOKEAIS", Lexicon.load(), french) if m.word == "WOKE"),
        key=lambda m: m.score,
    )
    english = max(
        m.score
        for m in generate(Board(), "WOKEAIS", Lexicon.load(), TileSet.load("en"))
        if m.word == "WOKE"
    )
    assert best.score != english
    slip_submit(player=room[0], round=first, word="WOKE", ref="", score=best.score, at=T0)
    ann = rulings(score(first, T0))["A"]
    assert (ann.code, ann.points) == ("valid", best.score)


def test_a_player_who_plays_a_later_round_gives_an_earlier_lone_finder_the_solo(
    room: list[Player],
) -> None:
    """Rule 9: the players of the game are those with a slip in any of its rounds, so a
    third player's slip in round 3 brings round 2's solo (one finder) but not round 1's (two)."""
    game = GameFactory(event=room[0].event, source=Game.Source.MANUAL, seed=None)
    first = first_round(game)
    scoring.round_tops_compute(round_id=first.pk, now=T0)
    first.refresh_from_db()
    top = first.tops[0]
    for p in room[:2]:
        slip_submit(player=p, round=first, word=top["word"], ref=top["ref"], score=0, at=T0)
    first = score(first, T0)
    publishing.round_top_choose(round=first, ref="H6", word="HORN", actor=None)
    first = publish(first, T0)
    second = racks.round_rack_enter(game=game, rack="AFMEIOT", actor=None)
    second = clock.round_open(round=second, actor=None, now=ROUND_2)
    scoring.round_tops_compute(round_id=second.pk, now=ROUND_2)
    second.refresh_from_db()
    top = second.tops[0]
    phone(room[0], second, top["word"], top["ref"], top["score"])
    phone(room[1], second, top["word"], "", 0)  # no reference and a wrong score: zero
    second = publish(score(second))
    assert [rulings(second)[n].solo for n in "AB"] == [0, 0]  # two players: no solo yet
    third = third_round(game)
    phone(room[2], third, "TOE", "", 3, at=ROUND_3)
    score(third, ROUND_3)
    assert [rulings(second)[n].solo for n in "AB"] == [10, 0]
    assert [rulings(first)[n].solo for n in "AB"] == [0, 0]  # two found it
    Ruling.objects.filter(round=second, player=room[0]).update(solo=0)
    assert rulings_derive(game=game, from_round=3) == 1  # the earlier solo, put back
    assert rulings(second)["A"].solo == 10


def ruled_row(r: Round, player: Player, **fields: object) -> Ruling:
    """A ruling as the services leave it, for a slip of ``player`` in ``r``."""
    slip = SubmissionFactory(round=r, player=player, word="FARM", ref="8F", announced_score=10)
    return Ruling.objects.create(
        round=r, player=player, submission=slip, code="valid", move_score=10, points=10, **fields
    )


def test_an_annulled_round_and_the_other_games_keep_their_solos_when_a_game_is_derived(
    room: list[Player],
) -> None:
    a, b, c, d = room
    elsewhere = GameFactory(event=a.event)  # A alone plays there and found its top: no solo
    lone = ruled_row(RoundFactory(game=elsewhere, number=1, status=Round.Status.PUBLISHED), a)
    Ruling.objects.filter(pk=lone.pk).update(found_top=True)
    game = GameFactory(event=a.event)
    annulled = RoundFactory(game=game, number=1, status=Round.Status.ANNULLED)
    struck = ruled_row(annulled, b)
    Ruling.objects.filter(pk=struck.pk).update(found_top=True)  # a finder alone, struck out
    for number, status in ((1, Round.Status.PUBLISHED), (2, Round.Status.PUBLISHED)):
        r = RoundFactory(game=game, number=number, status=status)
        for p in (b, c, d):  # three players play this game: a solo is possible here
            ruled_row(r, p)
    r3 = RoundFactory(game=game, number=3, status=Round.Status.SCORED)
    ruled_row(r3, b)
    rulings_derive(game=Game.objects.get(pk=game.pk), from_round=3)
    assert Ruling.objects.get(pk=lone.pk).solo == 0
    assert Ruling.objects.get(pk=struck.pk).solo == 0


def test_a_warning_in_an_annulled_round_of_the_derived_range_costs_nothing(
    room: list[Player],
) -> None:
    a = room[0]  # one free warning a game (the room's event)
    game = GameFactory(event=a.event)
    ruled_row(RoundFactory(game=game, number=1, status=Round.Status.PUBLISHED), a, warning=True)
    struck = ruled_row(
        RoundFactory(game=game, number=2, status=Round.Status.ANNULLED), a, warning=True
    )
    again = ruled_row(
        RoundFactory(game=game, number=2, status=Round.Status.SCORED), a, warning=True
    )
    rulings_derive(game=Game.objects.get(pk=game.pk), from_round=2)
    assert Ruling.objects.get(pk=again.pk).warning_penalty == 5  # the second of the game
    assert Ruling.objects.get(pk=struck.pk).warning_penalty == 0
