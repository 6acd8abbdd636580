"""Simultaneous events (issue 16.1; rules.md "Simultaneous events"), the one ranking over every
room: live, room by room, with the solos counted over the whole field.
"""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.selectors.standings import PlayerFilter, standings_event, standings_simultaneous
from arbiter.services.slips import slip_submit
from tests.arbiter.conftest import T0, open_round
from tests.arbiter.rooms.helpers import people, play
from tournament.models import Player, Round
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db


def test_one_ranking_over_every_room_with_the_room_and_its_rounds(host, director) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    ann, bob = people(host, "Ann", "Bob")
    (cleo,) = people(room, "Cleo")
    r1 = play(host, {ann: "top", bob: "second"})
    play(host, {ann: "top", bob: "top"}, now=T0 + dt.timedelta(minutes=5))
    play(room, {cleo: "top"})
    merged = standings_simultaneous(host=host)
    rows = {r.name: r for r in merged.rows}
    assert rows["Ann"].room == "Simultaneous" and rows["Ann"].rounds == 2
    assert rows["Cleo"].room == "Lyon" and rows["Cleo"].rounds == 1
    # Cleo's gap is to the top of the one round her room has published: she found it.
    assert rows["Cleo"].gap == 0 and rows["Cleo"].top_pct == 100.0
    assert rows["Cleo"].total == r1.played_score
    assert [r.name for r in merged.rows][0] == "Ann"
    # On the rounds every room has published (round 1 only), Ann and Cleo share the lead.
    common = standings_simultaneous(host=host, common=True)
    shared = {r.name: r for r in common.rows}
    assert shared["Ann"].total == shared["Cleo"].total == r1.played_score
    assert shared["Ann"].rank == shared["Cleo"].rank == 1 and shared["Bob"].rank == 3
    assert shared["Ann"].rounds == 1
    # A filter ranks within it, the overall rank kept.
    lyon = standings_simultaneous(host=host, only=PlayerFilter(club="Club"))
    assert len(lyon.rows) == 3


def test_a_solo_is_counted_over_the_whole_field(host, director) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    ann, bob, carl = people(host, "Ann", "Bob", "Carl")
    dan, eve, fay = people(room, "Dan", "Eve", "Fay")
    play(host, {ann: "top", bob: "second", carl: "second"})
    # In the host alone, Ann's is a solo (3 players play the game, the policy asks 3).
    assert standings_event(event=host).row_of(ann.pk).solos == 10
    merged = standings_simultaneous(host=host)
    assert merged.row_of(ann.pk).solos == 10  # nobody else in the field has found it yet
    play(room, {dan: "top", eve: "second", fay: "second"})
    assert standings_event(event=room).row_of(dan.pk).solos == 10  # the room's own solo
    merged = standings_simultaneous(host=host)
    assert merged.row_of(ann.pk).solos == 0 and merged.row_of(dan.pk).solos == 0
    assert merged.row_of(ann.pk).total == merged.row_of(dan.pk).total


def test_the_live_ranking_follows_each_publication_and_keeps_between(host, director) -> None:
    from arbiter.selectors.standings import standings_simultaneous_live

    room = room_create(host=host, name="Lyon", actor=director)
    (ann,) = people(host, "Ann")
    (cleo,) = people(room, "Cleo")
    play(host, {ann: "top"})
    first = standings_simultaneous_live(host=host)
    assert [r.name for r in first.rows][0] == "Ann"
    Player.objects.filter(pk=ann.pk).update(name="Anne")  # no version tells: kept a while
    assert standings_simultaneous_live(host=host).rows == first.rows
    play(room, {cleo: "top"})  # a room publishes: the ranking follows at once
    live = standings_simultaneous_live(host=host)
    assert {r.name for r in live.rows} == {"Anne", "Cleo"}
    assert live.rows == standings_simultaneous(host=host).rows


def test_a_room_without_players_holds_back_no_common_round(host, director) -> None:
    """``common`` counts the rounds every room *with players* has published: the host, with no
    players of its own, has published one round, the room with players two; both count."""
    room = room_create(host=host, name="Lyon", actor=director)
    (cleo,) = people(room, "Cleo")
    first = play(room, {cleo: "top"})
    second = play(room, {cleo: "top"}, now=T0 + dt.timedelta(minutes=5))
    play(host, {})
    common = standings_simultaneous(host=host, common=True)
    row = common.row_of(cleo.pk)
    assert (row.rounds, row.total) == (2, first.played_score + second.played_score)
    assert common.rounds == 2


def test_the_players_of_every_room_count_together_for_a_solo_each_once(host, director) -> None:
    """The host's solo asks 3 players who play the game: the host has 2 (each with a slip in
    both rounds: still 2), the room 1; together they are 3, so the one finder of the field
    has the solo, in each round he alone found."""
    room = room_create(host=host, name="Lyon", actor=director)
    ann, bob = people(host, "Ann", "Bob")
    (cleo,) = people(room, "Cleo")
    play(host, {ann: "top", bob: "second"})
    play(host, {ann: "second", bob: "second"}, now=T0 + dt.timedelta(minutes=5))
    assert standings_event(event=host).row_of(ann.pk).solos == 0  # 2 players in the host
    merged = standings_simultaneous(host=host)
    assert merged.row_of(ann.pk).solos == 0  # and none in the room yet
    play(room, {cleo: "second"})
    play(room, {cleo: "second"}, now=T0 + dt.timedelta(minutes=5))
    merged = standings_simultaneous(host=host)
    assert [merged.row_of(p.pk).solos for p in (ann, bob, cleo)] == [10, 0, 0]
    third = play(host, {ann: "top", bob: "second"}, now=T0 + dt.timedelta(minutes=10))
    merged = standings_simultaneous(host=host)
    assert merged.row_of(ann.pk).solos == 20
    assert merged.row_of(ann.pk).tops == 2 and merged.row_of(bob.pk).tops == 0
    assert third.status == Round.Status.PUBLISHED


def test_the_ranking_gives_the_most_rounds_and_tops_any_room_has(host, director) -> None:
    """Each player is counted on their room's rounds; the ranking's own top total and rounds
    are those of the room furthest on."""
    room = room_create(host=host, name="Lyon", actor=director)
    (ann,) = people(host, "Ann")
    (cleo,) = people(room, "Cleo")
    first = play(host, {ann: "top"})
    second = play(host, {ann: "second"}, now=T0 + dt.timedelta(minutes=5))
    play(room, {cleo: "second"})
    merged = standings_simultaneous(host=host)
    assert (merged.top_total, merged.rounds) == (first.played_score + second.played_score, 2)
    ann_row, cleo_row = merged.row_of(ann.pk), merged.row_of(cleo.pk)
    assert (ann_row.rounds, cleo_row.rounds) == (2, 1)
    assert cleo_row.gap == cleo_row.total - first.played_score
    assert ann_row.gap == ann_row.total - first.played_score - second.played_score
    assert ann_row.top_pct == round(100.0 * ann_row.total / merged.top_total, 2)
    common = standings_simultaneous(host=host, common=True)
    assert (common.top_total, common.rounds) == (first.played_score, 1)
    assert common.row_of(ann.pk).total == first.played_score
    # A round in play counts nowhere until it is published.
    open_round(room.games.get(), now=T0 + dt.timedelta(minutes=10))
    assert standings_simultaneous(host=host) == merged


def test_a_ranking_with_no_player_yet_is_empty(host, director) -> None:
    room_create(host=host, name="Lyon", actor=director)
    play(host, {})
    for common in (False, True):
        assert standings_simultaneous(host=host, common=common).rows == []


def test_a_slip_in_an_annulled_round_makes_no_player_of_the_game(host, director) -> None:
    """The host's solo asks 3 players who play the game: Cleo's one slip was in a round her
    room annulled, so the field has 2 and Ann's lone top is no solo."""
    from arbiter.services.corrections import round_annul

    room = room_create(host=host, name="Lyon", actor=director)
    ann, bob = people(host, "Ann", "Bob")
    (cleo,) = people(room, "Cleo")
    play(host, {ann: "top", bob: "second"})
    annulled = open_round(room.games.get())
    move = host.games.get().predrawn["rounds"][0]
    slip_submit(
        player=cleo,
        round=annulled,
        word=move["word"],
        ref=move["ref"],
        score=move["score"],
        at=T0 + dt.timedelta(seconds=30),
    )
    round_annul(round=annulled, reason="rack called wrongly", actor=director)
    assert standings_simultaneous(host=host).row_of(ann.pk).solos == 0
