"""A mort subite game (FISF 2023 3.8.3, 5.9) played through the services on a seeded game and
checked by hand against the text: who is out at which round, the falling times, the slips of a
player out refused, and the standings, console, screen and phone saying who is still in.

By hand, game seed 7 (the engine's standard racks, English tiles and word list). Round 1,
ELORTTW, top WROTE H4 24: Ann and Cleo hand in WROTE H4 24, Bob TROWEL H3 20. 20 < 24, the
best another found: 3.8.3 eliminates Bob at round 1. Round 2, ELMOOT?, top TREMOLOs 5G 68:
Ann hands it in with its reference, Cleo the same word and score with no reference (5.3.3:
68 less 5 = 63). 5.9 applies the penalty on the round: 63 < 68, Cleo is out at round 2. Ann
is the last one in and ranks first, Cleo (out at 2) second, Bob (out at 1) third."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from arbiter.selectors.play import play_personal_many
from arbiter.selectors.standings import standings_game
from arbiter.selectors.sudden_death import game_eliminations
from arbiter.services import slips
from arbiter.services.slips import SlipRefused
from engine.board import Board
from engine.formula import Formula
from engine.game import autoplay
from engine.lexicon import Lexicon
from engine.movegen import top
from engine.tiles import TileSet
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import GameFactory, PlayerFactory
from tournament.models import Event, Game, Player, Round, Ruling, Submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def sudden(event: Event) -> tuple[Game, list[Player]]:
    players = [
        PlayerFactory(event=event, name=name, table=i + 1)
        for i, name in enumerate(["Ann", "Bob", "Cleo"])
    ]
    return GameFactory(event=event, number=1, seed=7, formula="mortsubite"), players


def _slip(player: Player, round: Round, ref: str, word: str, score: int, at: dt.datetime) -> None:
    slips.slip_submit(player=player, round=round, word=word, ref=ref, score=score, at=at)


def test_a_seeded_mort_subite_game_checked_by_hand(
    sudden: tuple[Game, list[Player]], client_for, director
) -> None:
    game, (ann, bob, cleo) = sudden
    tiles, lexicon = TileSet.load("en"), Lexicon.load()
    engine = autoplay(seed=7, tiles=tiles, lexicon=lexicon, formula=Formula.parse("mortsubite"))
    standard = autoplay(seed=7, tiles=tiles, lexicon=lexicon)
    assert [(r.rack, r.ref, r.word) for r in engine.rounds] == [
        (r.rack, r.ref, r.word) for r in standard.rounds
    ], "mort subite plays standard duplicate's racks and tops"
    one, two = engine.rounds[0], engine.rounds[1]
    assert [(r.rack, r.ref, r.word, r.score) for r in (one, two)] == [
        ("ELORTTW", "H4", "WROTE", 24),
        ("ELMOOT?", "5G", "TREMOLOs", 68),
    ]

    # Round 1: a minute and 20 seconds.
    r1 = open_round(game, now=T0)
    assert r1.rack == one.rack and r1.deadline - r1.opened_at == dt.timedelta(seconds=80)
    lesser = next(
        m for m in top(Board(), one.rack, lexicon, n=40, tiles=tiles) if m.score < one.score
    )
    at = T0 + dt.timedelta(seconds=30)
    _slip(ann, r1, one.ref, one.word, one.score, at)
    _slip(cleo, r1, one.ref, one.word, one.score, at)
    _slip(bob, r1, lesser.ref, lesser.word, lesser.score, at)
    r1 = finish_round(r1, T0)
    points = dict(Ruling.objects.filter(round=r1).values_list("player__name", "points"))
    assert (lesser.ref, lesser.word, lesser.score) == ("H3", "TROWEL", 20)
    assert points == {"Ann": 24, "Cleo": 24, "Bob": 20}
    assert game_eliminations(game=game) == {bob.pk: 1}

    # Round 2: Bob's slip is refused, from his phone and from an arbiter alike.
    t2 = T0 + dt.timedelta(minutes=5)
    r2 = open_round(game, now=t2)
    assert r2.deadline - r2.opened_at == dt.timedelta(seconds=80)
    with pytest.raises(SlipRefused) as refused:
        _slip(bob, r2, two.ref, two.word, two.score, t2 + dt.timedelta(seconds=5))
    assert refused.value.code == "eliminated" and refused.value.data["eliminated_at"] == 1
    assert "Bob" in refused.value.message and "round 1" in refused.value.message
    with pytest.raises(SlipRefused) as by_arbiter:
        slips.slip_submit(
            player=bob,
            round=r2,
            word=two.word,
            ref=two.ref,
            score=two.score,
            source=Submission.Source.ARBITER,
            entered_by=director,
        )
    assert by_arbiter.value.code == "eliminated"
    assert not Submission.objects.filter(round=r2, player=bob).exists()
    # The console does not wait for Bob's slip.
    client = client_for(director)
    page = client.get(reverse("console:game", args=[game.event.slug, 1])).content.decode()
    assert "Out at round 1" in page and "2 players still in" in page

    _slip(ann, r2, two.ref, two.word, two.score, t2 + dt.timedelta(seconds=20))
    _slip(cleo, r2, "", two.word, two.score, t2 + dt.timedelta(seconds=20))
    r2 = finish_round(r2, t2)
    cleo_ruling = Ruling.objects.get(round=r2, player=cleo)
    assert (cleo_ruling.points, cleo_ruling.penalty) == (68, 5)
    assert Ruling.objects.get(round=r2, player=ann).points == 68
    assert game_eliminations(game=game) == {bob.pk: 1, cleo.pk: 2}

    standings = standings_game(game=game)
    assert standings.sudden_death and standings.still_in == 1
    assert [(r.name, r.rank, r.eliminated_at) for r in standings.rows] == [
        ("Ann", 1, None),
        ("Cleo", 2, 2),
        ("Bob", 3, 1),
    ]
    # The phone: each player's own state.
    mine = play_personal_many(event=game.event, game=game)
    assert mine[bob.pk]["sudden_death"] == {"eliminated_at": 1, "still_in": 1}
    assert mine[ann.pk]["sudden_death"] == {"eliminated_at": None, "still_in": 1}
    # The screen.
    screen = client.get(reverse("screen:game_state", args=[game.event.slug, 1])).json()
    assert screen["sudden_death"] and screen["still_in"] == 1
    assert [(r["name"], r["eliminated_at"]) for r in screen["standings"]] == [
        ("Ann", None),
        ("Cleo", 2),
        ("Bob", 1),
    ]
    # The API's standings.
    api = client.get(f"/api/v1/events/{game.event.slug}/games/1/standings").json()
    assert api["sudden_death"] and [r["eliminated_at"] for r in api["rows"]] == [None, 2, 1]

    # The time falls: round 3 at 80 s, rounds 4 to 6 at 60 s, then 40 s.
    now = t2
    seconds = []
    for _ in range(3, 8):
        now += dt.timedelta(minutes=5)
        r = open_round(game, now=now)
        seconds.append((r.number, int((r.deadline - r.opened_at).total_seconds())))
        finish_round(r, now)
    assert seconds == [(3, 80), (4, 60), (5, 60), (6, 60), (7, 40)]
    # Ann, alone in, handed in nothing: nobody is left above her, she stays in.
    assert game_eliminations(game=game) == {bob.pk: 1, cleo.pk: 2}


def test_a_standard_game_has_no_elimination_and_the_events_time(event: Event) -> None:
    PlayerFactory(event=event, name="Ann", table=1)
    PlayerFactory(event=event, name="Bob", table=2)
    game = GameFactory(event=event, number=1, seed=7)
    r = open_round(game, now=T0)
    assert r.deadline - r.opened_at == dt.timedelta(seconds=event.round_seconds)
    finish_round(r, T0)
    standings = standings_game(game=game)
    assert not standings.sudden_death
    assert all(row.eliminated_at is None for row in standings.rows)
    assert game_eliminations(game=game) == {}
    assert (
        "sudden_death"
        not in play_personal_many(event=event, game=game)[standings.rows[0].player_id]
    )


def test_mort_subite_is_chosen_at_set_up_and_through_the_api(
    event: Event, client_for, director
) -> None:
    client: Client = client_for(director)
    made = client.post(
        f"/api/v1/events/{event.slug}/games",
        {"formula": "mortsubite", "seed": 3},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["formula"] == "mortsubite"
    assert Game.objects.get(event=event, number=1).formula_shown == "Mort subite"
