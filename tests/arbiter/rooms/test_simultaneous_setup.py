"""Simultaneous events (issue 16.1; rules.md "Simultaneous events"), their set-up: one whole game
drawn in advance and every room given it, rooms that take the host's rules and games only and
play at their own pace, closed events and rooms.
"""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.selectors.rooms import rooms_progress
from arbiter.services import publishing
from arbiter.services.rooms import room_results_import
from arbiter.services.simultaneous import game_draw_whole
from tests.arbiter.conftest import T0, open_round
from tests.arbiter.rooms.helpers import SEED, people, play, results_of
from tests.factories import EventFactory
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Event, Game, Round
from tournament.services.events import event_policy_update
from tournament.services.games import game_create
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db


def test_a_whole_game_is_drawn_in_advance_and_every_room_gets_it(host, director) -> None:
    game = host.games.get()
    assert game.source == Game.Source.PREDRAWN and game.seed == SEED
    document = game.predrawn
    assert len(document["rounds"]) > 10 and document["end"]
    room = room_create(host=host, name="Lyon", actor=director, venue="Lyon")
    assert room.host == host and not room.remote
    assert room.games.get().predrawn == document
    assert room.tile_set == host.tile_set and room.solo_min_players == 3
    assert room.roles.get(user=director).role == "director"  # the host's director directs it
    # A game the host adds later reaches every room, with the same number.
    game_draw_whole(event=host, actor=director, seed=7)
    assert [g.number for g in room.games.order_by("number")] == [1, 2]
    assert room.games.get(number=2).predrawn == host.games.get(number=2).predrawn
    assert AuditEntry.objects.filter(event=host, action="tournament.room.created").count() == 1


def test_rooms_play_the_same_racks_and_tops_at_their_own_pace(host, director) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    ann, bob = people(host, "Ann", "Bob")
    (cleo,) = people(room, "Cleo")
    first_here = play(host, {ann: "top", bob: "second"})
    second_here = play(host, {ann: "top"}, now=T0 + dt.timedelta(minutes=5))
    first_there = play(room, {cleo: "top"}, now=T0 + dt.timedelta(minutes=1))
    for here, there in [(first_here, first_there)]:
        assert (here.rack, here.played_ref, here.played_word, here.played_score) == (
            there.rack,
            there.played_ref,
            there.played_word,
            there.played_score,
        )
        assert there.played_by == Round.PlayedBy.PREDRAWN
    planned = host.games.get().predrawn["rounds"]
    assert [second_here.rack, second_here.played_word] == [
        planned[1]["rack"],
        planned[1]["word"],
    ]
    progress = {p.event.name: p for p in rooms_progress(host)}
    assert progress["Simultaneous"].published == 2 and progress["Lyon"].published == 1
    assert progress["Lyon"].last == (1, 1) and progress["Lyon"].players == 1


def test_rooms_take_the_hosts_rules_and_games_only(host, director) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    with pytest.raises(ApplicationError, match="plays by its rules"):
        event_policy_update(event=room, actor=director, solo_bonus=20)
    # The same value, as a form sends every rule, is no change; a room's own operation is its.
    event_policy_update(event=room, actor=director, solo_bonus=10, grace_seconds=20)
    event_policy_update(event=host, actor=director, solo_bonus=15)
    room.refresh_from_db()
    assert room.solo_bonus == 15 and room.grace_seconds == 20
    with pytest.raises(ApplicationError, match="its games are the host's"):
        game_create(event=room, actor=director)
    with pytest.raises(ApplicationError, match="drawn in advance"):
        game_create(event=host, actor=director)  # a random game, drawn round by round
    with pytest.raises(ApplicationError, match="is itself a room"):
        room_create(host=room, name="Nested", actor=director)


def test_a_room_needs_every_game_of_the_host_drawn_in_advance(director) -> None:
    event = EventFactory(name="Club night")
    game_create(event=event, actor=director)
    with pytest.raises(ApplicationError, match="Game 1 of Club night is drawn round by round"):
        room_create(host=event, name="Lyon", actor=director)
    assert not Event.objects.filter(name="Lyon").exists()


def test_the_move_of_a_room_is_the_games_not_a_directors_choice(host, director) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    people(room, "Cleo")
    round = open_round(room.games.get())
    from arbiter.services import clock

    assert round.deadline is not None
    clock.round_close(round_id=round.pk, now=round.deadline + dt.timedelta(seconds=11))
    with pytest.raises(ApplicationError, match="played in several rooms"):
        publishing.round_top_choose(round=round, ref="H8", word="AB", actor=director)


def test_a_closed_event_takes_no_room_and_a_closed_room_no_file(host, director, elsewhere) -> None:
    from tournament.services.closing import event_close

    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    event_close(event=remote, actor=director)
    with pytest.raises(ApplicationError, match="Montréal is closed"):
        room_results_import(room=remote, raw=results_of(elsewhere), actor=director)
    event_close(event=host, actor=director)
    with pytest.raises(ApplicationError, match="Simultaneous is closed"):
        room_create(host=host, name="Late", actor=director)


def test_a_whole_game_is_drawn_on_the_events_board_from_a_seed_of_32_bits(director) -> None:
    """Seeds run from 0 to 2**32 - 1 (none: one at random); the game is the engine's, played
    on the event's board layout, and its creation is audited with who drew it."""
    from arbiter.state import lexicon_for
    from engine.board import Layout
    from engine.game import autoplay
    from engine.tiles import TileSet

    event = EventFactory(name="Centre", board_layout="tl-centre")
    for seed in (-1, 2**32):
        with pytest.raises(ApplicationError) as refused:
            game_draw_whole(event=event, actor=director, seed=seed)
        assert str(refused.value.message) == "A seed is a whole number from 0 to 4294967295."
    game = game_draw_whole(event=event, actor=director, seed=0)

    def drawn(layout: str) -> dict:
        return dict(
            autoplay(
                seed=0,
                tiles=TileSet.load(event.tile_set),
                lexicon=lexicon_for(event.lexicon),
                layout=Layout.load(layout),
            ).to_document()
        )

    assert game.seed == 0 and game.predrawn == drawn("tl-centre") != drawn("standard")
    assert AuditEntry.objects.get(game=game, action="tournament.game.created").actor == director
    randomly = game_draw_whole(event=event, actor=director)
    assert randomly.seed is not None and 0 <= randomly.seed < 2**32
