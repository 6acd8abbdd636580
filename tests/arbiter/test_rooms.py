"""Simultaneous events (issue 16.1; rules.md "Simultaneous events"): one game drawn in advance,
played in several rooms with their own clocks; one ranking over every room, live, with the
solos counted over the whole field; a remote room's results file imported (players matched by
licence, then name and club; conflicts listed, nothing guessed; twice changes nothing).

Every round here is played through the services a room uses: draw, open, slips, close, score,
publish.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from arbiter.selectors.rooms import room_results, rooms_progress
from arbiter.selectors.standings import PlayerFilter, standings_event, standings_simultaneous
from arbiter.services import publishing, racks
from arbiter.services.room_files import RoomResultsError
from arbiter.services.rooms import room_results_import
from arbiter.services.simultaneous import game_draw_whole
from arbiter.services.slips import slip_submit
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, PlayerFactory, UserFactory
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Event, Game, Player, Round, Ruling, Submission
from tournament.services.events import event_policy_update
from tournament.services.games import game_create
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db

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


# -- a remote room's results ----------------------------------------------------------------


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


def test_a_remote_rooms_file_imports_and_merges(host, director, elsewhere) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    (ann,) = people(host, "Ann")
    report = room_results_import(room=remote, raw=results_of(elsewhere), actor=director)
    assert (report.rounds_added, report.players_added, report.rulings_added) == (2, 3, 6)
    merged = standings_simultaneous(host=host)
    there = standings_event(event=elsewhere)
    for name in ("Gil", "Hal", "Ivy"):
        row = next(r for r in merged.rows if r.name == name)
        theirs = next(r for r in there.rows if r.name == name)
        assert (row.room, row.rounds, row.points, row.total) == (
            "Montréal",
            2,
            theirs.points,
            theirs.total,
        )
    assert remote.games.get().board == elsewhere.games.get().board
    assert remote.games.get().rounds.filter(status="published").count() == 2
    # The remote room runs no clock here.
    with pytest.raises(ApplicationError, match="plays on another installation"):
        racks.round_draw(game=remote.games.get(), actor=director)
    assert ann in host.players.all()


def test_importing_the_same_file_twice_changes_nothing(host, director, elsewhere) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    raw = results_of(elsewhere)
    room_results_import(room=remote, raw=raw, actor=director)
    before = list(Ruling.objects.filter(round__game__event=remote).values().order_by("pk"))
    players = list(Player.objects.filter(event=remote).values().order_by("pk"))
    again = room_results_import(room=remote, raw=raw, actor=director)
    assert not again.changed and again.rulings_unchanged == 6 and again.players_matched == 3
    assert list(Ruling.objects.filter(round__game__event=remote).values().order_by("pk")) == before
    assert list(Player.objects.filter(event=remote).values().order_by("pk")) == players


def test_a_newer_file_adds_its_rounds_and_corrections(host, director, elsewhere) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    first = json.loads(json.dumps(document))  # a copy to cut down to round 1
    first["games"][0]["rounds"] = first["games"][0]["rounds"][:1]
    for p in first["players"]:
        p["rulings"] = [r for r in p["rulings"] if r["round"] == 1]
    room_results_import(room=remote, raw=json.dumps(first).encode(), actor=director)
    gil = next(p for p in document["players"] if p["name"] == "Gil")
    gil["rulings"][0]["points"] -= 1  # an amendment made in the room since
    gil["rulings"][0]["reason"] = "amended"
    report = room_results_import(room=remote, raw=json.dumps(document).encode(), actor=director)
    assert (report.rounds_added, report.rulings_added, report.rulings_changed) == (1, 3, 1)
    assert report.rulings_unchanged == 2
    # An older file (fewer rounds than imported) is refused.
    with pytest.raises(RoomResultsError, match="Nothing imported") as refused:
        room_results_import(room=remote, raw=json.dumps(first).encode(), actor=director)
    assert "Is it an older file?" in refused.value.errors[0]


def test_players_match_by_licence_then_name_and_club(host, director, elsewhere) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    gil = PlayerFactory(event=remote, name="Gilles D.", club="Other", licence="L-Gil", table=9)
    ivy = PlayerFactory(event=remote, name="IVY", club="mtl", licence="", table=8)
    report = room_results_import(room=remote, raw=results_of(elsewhere), actor=director)
    assert (report.players_matched, report.players_added) == (2, 1)
    assert gil.rulings.count() == 2 and ivy.rulings.count() == 2
    assert remote.players.count() == 3


@pytest.mark.parametrize(
    ("registered", "conflict"),
    [
        # The licence names Gil, the name and club name another registered player.
        ([("Gilles", "Other", "L-Gil"), ("Gil", "Mtl", "")], "the name and club are Gil's"),
        # The name and club fit two of the room's players.
        ([("Ivy", "Mtl", ""), ("ivy", "MTL", "X-2")], "2 of the room's players"),
        # The name and club fit a player with another licence.
        ([("Hal", "Mtl", "L-Other")], "has another licence, L-Other"),
    ],
)
def test_conflicts_are_listed_and_nothing_is_imported(
    host, director, elsewhere, registered, conflict
) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    for i, (name, club, licence) in enumerate(registered, start=1):
        PlayerFactory(event=remote, name=name, club=club, licence=licence, table=i)
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=results_of(elsewhere), actor=director)
    assert refused.value.data["code"] == "player_conflicts"
    assert any(conflict in e for e in refused.value.errors), refused.value.errors
    assert remote.players.count() == len(registered)
    assert not Ruling.objects.filter(round__game__event=remote).exists()
    assert not Round.objects.filter(game__event=remote).exists()


def test_a_licence_that_plays_in_another_room_is_a_conflict(host, director, elsewhere) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    PlayerFactory(event=host, name="Gil", club="Mtl", licence="L-Gil", table=1)
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=results_of(elsewhere), actor=director)
    assert refused.value.errors == [
        "#1 Gil (Mtl), licence L-Gil: that licence already plays in Simultaneous."
    ]


@pytest.mark.parametrize(
    ("mend", "said"),
    [
        (lambda d: "not json", "Not a JSON file"),
        (lambda d: {**d, "format": "eliot"}, "Not a room results file"),
        (lambda d: {**d, "version": 2}, "Not a room results file"),
        (lambda d: {**d, "games": "x"}, '"games": a list'),
        (lambda d: {**d, "players": {}}, '"players": a list'),
        (
            lambda d: {
                **d,
                "games": [{"number": 1, "rounds": [{**d["games"][0]["rounds"][0], "rack": "QQQ"}]}],
            },
            "It is not this simultaneous's game",
        ),
        (lambda d: {**d, "games": [{"number": 3, "rounds": d["games"][0]["rounds"]}]}, "no round"),
        (
            lambda d: {**d, "players": [{**d["players"][0], "name": ""}]},
            "a player needs a name",
        ),
        (
            lambda d: {**d, "players": [{**d["players"][0], "table": 12_000}]},
            "table 12000 is not a table number: tables are 1 to 9,999.",
        ),
        (  # a line break in a name would split its SIGLES record, an escape break eliot.xml
            lambda d: {**d, "players": [{**d["players"][0], "name": "Ann\nBell"}]},
            'player #1: "Ann\\nBell" holds a control character (U+000A).',
        ),
        (
            lambda d: {**d, "players": [{**d["players"][0], "club": "Lyon\x1b[2J"}]},
            "holds a control character (U+001B).",
        ),
        (
            lambda d: {
                **d,
                "players": [
                    {**d["players"][0], "rulings": [{**d["players"][0]["rulings"][0], "code": "x"}]}
                ],
            },
            'unknown ruling code "x"',
        ),
        (
            lambda d: {
                **d,
                "players": [
                    {
                        **d["players"][0],
                        "rulings": [{**d["players"][0]["rulings"][0], "points": -3}],
                    }
                ],
            },
            "a whole number of 0 or more, not -3",
        ),
        (
            lambda d: {
                **d,
                "players": [{**d["players"][0], "rulings": d["players"][0]["rulings"] * 2}],
            },
            "two rulings for game 1 round 1",
        ),
    ],
)
def test_a_bad_file_is_refused_with_what_is_wrong(host, director, elsewhere, mend, said) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    mended = mend(room_results(elsewhere))
    raw = mended.encode() if isinstance(mended, str) else json.dumps(mended).encode()
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=raw, actor=director)
    assert any(said in e for e in refused.value.errors), refused.value.errors
    assert not Round.objects.filter(game__event=remote).exists()


def test_only_a_remote_room_imports_a_file(host, director, elsewhere) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    with pytest.raises(ApplicationError, match="not a remote room"):
        room_results_import(room=room, raw=results_of(elsewhere), actor=director)
    with pytest.raises(ApplicationError, match="not a remote room"):
        room_results_import(room=host, raw=results_of(elsewhere), actor=director)


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


def test_a_closed_event_takes_no_room_and_a_closed_room_no_file(host, director, elsewhere) -> None:
    from tournament.services.closing import event_close

    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    event_close(event=remote, actor=director)
    with pytest.raises(ApplicationError, match="Montréal is closed"):
        room_results_import(room=remote, raw=results_of(elsewhere), actor=director)
    event_close(event=host, actor=director)
    with pytest.raises(ApplicationError, match="Simultaneous is closed"):
        room_create(host=host, name="Late", actor=director)


# -- the results file, field by field --------------------------------------------------------


def test_a_file_imported_gives_the_same_file_back(host, director, elsewhere) -> None:
    """Every field of the file is kept as the room's arbiters made it, whatever its value: the
    room's file written again from what was imported is the file itself; and everything one
    import adds bears the import's one moment (the rounds' times, the slips, the rulings)."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    gil, hal, ivy = document["players"]
    gil.update(category="S2", series=1, age_category="Cadet")
    hal.update(category="", series=7, age_category="")
    # What the room's arbiters may have ruled beyond these plays: a warning and its cost, a
    # reference penalty, a solo, an average for a second zero, a slip with no score announced.
    gil["rulings"][1].update(warning=True, penalty=5, warning_penalty=3, solo=10, announced=None)
    gil["rulings"][1]["reason"] = "Amended: the reference is wrong (2016 rule)."
    ivy["rulings"][1].update(averaged=True, points=12)
    assert hal["rulings"][0]["rank"] > 1 and hal["rulings"][0]["move_score"]
    room_results_import(room=remote, raw=json.dumps(document).encode(), actor=director)
    again = room_results(remote)
    assert again["games"] == document["games"]
    assert again["players"] == document["players"]
    rounds = remote.games.get().rounds.all()
    moments = {t for r in rounds for t in (r.drawn_at, r.closed_at, r.scored_at, r.published_at)}
    moments |= {r.ruled_at for r in Ruling.objects.filter(round__in=rounds)}
    slips = Submission.objects.filter(round__in=rounds)
    moments |= {s.received_at for s in slips}
    assert len(moments) == 1 and None not in moments
    assert {s.source for s in slips} == {Submission.Source.ROOM_FILE}


def test_what_a_file_leaves_out_is_empty_or_zero(host, director, elsewhere) -> None:
    """A ruling or a player with only what is required (the round, the code, the word; the
    name) is imported with nothing else: no club or licence, no score, no warning."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    document["players"] = [
        {
            "name": p["name"],
            "rulings": [{k: r[k] for k in ("game", "round", "code", "word")} for r in p["rulings"]],
        }
        for p in document["players"]
    ]
    room_results_import(room=remote, raw=json.dumps(document).encode(), actor=director)
    again = room_results(remote)["players"]
    assert [p["name"] for p in again] == ["Gil", "Hal", "Ivy"]
    for p in again:
        assert {k: p[k] for k in ("club", "licence", "category", "age_category")} == dict.fromkeys(
            ("club", "licence", "category", "age_category"), ""
        )
        assert p["series"] is None and p["table"] is None
    nothing = {
        "ref": "",
        "announced": None,
        "move_score": None,
        "points": 0,
        "warning": False,
        "penalty": 0,
        "warning_penalty": 0,
        "solo": 0,
        "found_top": False,
        "rank": None,
        "averaged": False,
        "reason": "",
    }
    rulings = [r for p in again for r in p["rulings"]]
    assert len(rulings) == 6
    assert all({k: r[k] for k in nothing} == nothing for r in rulings), rulings


def _mended(document: dict, path: tuple, value: object) -> dict:
    """The document with the value at ``path`` (keys and indexes) replaced."""
    mended = json.loads(json.dumps(document))
    *parents, last = path
    here = mended
    for key in parents:
        here = here[key]
    here[last] = value
    return mended


GIL_RULING = ("players", 0, "rulings", 0)


@pytest.mark.parametrize(
    ("path", "value", "problems"),
    [
        (("players", 0, "name"), "G" * 121, ["player #1: a text of at most 120 characters."]),
        (("players", 1, "club"), "M" * 121, ["player #2: a text of at most 120 characters."]),
        (("players", 0, "club"), 5, ["player #1: a text of at most 120 characters."]),
        (("players", 0, "licence"), "L" * 41, ["player #1: a text of at most 40 characters."]),
        (("players", 0, "category"), "S" * 41, ["player #1: a text of at most 40 characters."]),
        (("players", 0, "age_category"), "C" * 17, ["player #1: a text of at most 16 characters."]),
        (("players", 1, "age_category"), "Martian", ['player #2: unknown age category "Martian".']),
        (("players", 0, "series"), -1, ["player #1: a whole number of 0 or more, not -1."]),
        (("players", 2, "table"), "3", ['player #3: a whole number of 0 or more, not "3".']),
        (("players", 0, "rulings"), {}, ['player #1: "rulings" is a list.']),
        (("players", 0, "rulings", 0), 5, ["player #1: a ruling is an object."]),
        ((*GIL_RULING, "code"), "x", ['player #1: unknown ruling code "x".']),
        ((*GIL_RULING, "game"), "1", ['player #1: a whole number of 0 or more, not "1".']),
        ((*GIL_RULING, "round"), True, ["player #1: a whole number of 0 or more, not true."]),
        ((*GIL_RULING, "points"), None, ["player #1: a whole number of 0 or more, not null."]),
        ((*GIL_RULING, "penalty"), -5, ["player #1: a whole number of 0 or more, not -5."]),
        (
            (*GIL_RULING, "warning_penalty"),
            1.5,
            ["player #1: a whole number of 0 or more, not 1.5."],
        ),
        ((*GIL_RULING, "solo"), "10", ['player #1: a whole number of 0 or more, not "10".']),
        ((*GIL_RULING, "rank"), -1, ["player #1: a whole number of 0 or more, not -1."]),
        ((*GIL_RULING, "announced"), "9", ['player #1: a whole number of 0 or more, not "9".']),
        ((*GIL_RULING, "move_score"), -9, ["player #1: a whole number of 0 or more, not -9."]),
        (
            (*GIL_RULING, "word"),
            "W" * 16,
            [
                "player #1: a text of at most 15 characters.",
                "#1 Gil (Mtl), licence L-Gil, game 1 round 1: a slip has a word; only a missing "
                "slip has none.",
            ],
        ),
        ((*GIL_RULING, "ref"), "H10 ", []),  # spaces aside: the reference H10
        ((*GIL_RULING, "ref"), "H10AB", ["player #1: a text of at most 4 characters."]),
        ((*GIL_RULING, "reason"), "r" * 2001, ["player #1: a text of at most 2000 characters."]),
        (
            ("games", 0, "rounds", 0, "score"),
            -1,
            [
                "game 1, round 1: a whole number of 0 or more, not -1.",
                "Game 1, round 1: the file played ACCNOOR -> RACCOON H2 0; the simultaneous "
                "plays ACCNOOR -> RACCOON H2 78. It is not this simultaneous's game.",
            ],
        ),
        (
            ("games", 0, "rounds", 0, "rack"),
            "ACCNOORS",
            [
                "game 1, round 1: a text of at most 7 characters.",
                "Game 1, round 1: the file played ",
            ],
        ),
        (
            ("games", 0, "rounds", 0, "ref"),
            "H2ABC",
            [
                "game 1, round 1: a text of at most 4 characters.",
                "Game 1, round 1: the file played ",
            ],
        ),
        (
            ("games", 0, "rounds", 0, "word"),
            "RACCOONSRACCOONS",
            [
                "game 1, round 1: a text of at most 15 characters.",
                "Game 1, round 1: the file played ",
            ],
        ),
        (
            ("games", 0, "rounds", 1, "number"),
            3,
            [
                "game 1, round 2: the rounds are numbered 1, 2, 3... in order.",
                "#1 Gil (Mtl), licence L-Gil: a ruling for game 1 round 2, not in the file.",
                "#2 Hal (Mtl), licence L-Hal: a ruling for game 1 round 2, not in the file.",
                "#3 Ivy (Mtl): a ruling for game 1 round 2, not in the file.",
            ],
        ),
        (
            ("players", 2, "rulings", 0, "word"),
            "QAID",
            ["#3 Ivy (Mtl), game 1 round 1: a slip has a word; only a missing slip has none."],
        ),
    ],
)
def test_each_problem_of_a_file_says_where_it_is(
    host, director, elsewhere, path, value, problems
) -> None:
    """docs/interchange.md: every problem is listed with where it is, and nothing is imported.
    A message that ends with a space is the start of a longer one."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    raw = json.dumps(_mended(document, path, value)).encode()
    if not problems:
        assert room_results_import(room=remote, raw=raw, actor=director).rulings_added == 6
        assert (
            Submission.objects.get(player__event=remote, player__name="Gil", round__number=1).ref
            == "H10"
        )
        return
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=raw, actor=director)
    errors = refused.value.errors
    assert len(errors) == len(problems), errors
    for error, problem in zip(errors, problems, strict=True):
        assert error == problem or (problem.endswith(" ") and error.startswith(problem)), errors
    assert refused.value.data == {"code": "bad_file", "errors": errors}
    assert not Ruling.objects.filter(round__game__event=remote).exists()


def _file(document: dict) -> bytes:
    return json.dumps(document).encode()


@pytest.mark.parametrize(
    ("registered", "mend", "conflicts"),
    [
        # The same licence for two players of the file.
        (
            [],
            lambda d: d["players"][1].update(licence="L-Gil"),
            [
                "#1 Gil (Mtl), licence L-Gil: the licence is in the file twice.",
                "#2 Hal (Mtl), licence L-Gil: the licence is in the file twice.",
            ],
        ),
        # The licence names Gil, the name and club name another registered player.
        (
            [("Gilles", "Other", "L-Gil"), ("Gil", "Mtl", "")],
            None,
            ["#1 Gil (Mtl), licence L-Gil: the licence is Gilles's, the name and club are Gil's."],
        ),
        # The name and club fit two of the room's players (accents, case and spacing aside).
        (
            [("Ivy", "Mtl", ""), ("ivy", "MTL", "X-2")],
            None,
            ["#3 Ivy (Mtl): 2 of the room's players have this name and club."],
        ),
        (
            [("Îvy", " mtl", ""), ("IVY", "Mtl  ", "")],
            None,
            ["#3 Ivy (Mtl): 2 of the room's players have this name and club."],
        ),
        (
            [("Ivy", "Mtl", "")],
            lambda d: d["players"][2].update(club=""),
            [],  # no club in the file: the room's Ivy of Mtl is not this one
        ),
        (
            [("Ivy", "", ""), ("IVY", "", "")],
            lambda d: d["players"][2].update(club=""),
            ["#3 Ivy: 2 of the room's players have this name and club."],
        ),
        # The name and club fit a player with another licence.
        (
            [("Hal", "Mtl", "L-Other")],
            None,
            ["#2 Hal (Mtl), licence L-Hal: the room's Hal has another licence, L-Other."],
        ),
        # Two players of the file on one of the room's: Gil by the licence, and Ivy renamed
        # Gil, with no licence, by the name and club.
        (
            [("Gil", "Mtl", "L-Gil")],
            lambda d: d["players"][2].update(name="Gil"),
            [
                "#1 Gil (Mtl), licence L-Gil: another player of the file is also Gil.",
                "#3 Gil (Mtl): another player of the file is also Gil.",
            ],
        ),
    ],
)
def test_each_conflict_names_the_files_player_and_nothing_is_imported(
    host, director, elsewhere, registered, mend, conflicts
) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    for i, (name, club, licence) in enumerate(registered, start=1):
        PlayerFactory(event=remote, name=name, club=club, licence=licence, table=i + 10)
    document = room_results(elsewhere)
    if mend:
        mend(document)
    if not conflicts:
        report = room_results_import(room=remote, raw=_file(document), actor=director)
        assert (report.players_matched, report.players_added) == (0, 3)
        return
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=_file(document), actor=director)
    assert refused.value.errors == conflicts
    assert refused.value.data == {"code": "player_conflicts", "errors": conflicts}
    count = len(conflicts)
    assert str(refused.value.message) == (
        f"Nothing imported: {count} problem{'s' if count > 1 else ''}."
    )
    assert remote.players.count() == len(registered)
    assert not Round.objects.filter(game__event=remote).exists()


def test_a_player_without_a_licence_in_another_room_is_no_conflict(
    host, director, elsewhere
) -> None:
    """Only a licence can play in another room: the players who have none are not one."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    PlayerFactory(event=host, name="Zoé", licence="", table=1)
    report = room_results_import(room=remote, raw=results_of(elsewhere), actor=director)
    assert report.players_added == 3  # Ivy has no licence either


def test_a_player_matched_by_name_and_club_takes_the_files_licence(
    host, director, elsewhere
) -> None:
    """Accents, case and spacing aside; a licence the room's player has is kept."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    gil = PlayerFactory(event=remote, name="gil  dupont", club="MTL", licence="", table=7)
    hal = PlayerFactory(event=remote, name="Hâl", club="mtl", licence="", table=8)
    document = room_results(elsewhere)
    document["players"][0]["name"] = "Gil Dupont"
    document["players"][1]["licence"] = ""
    report = room_results_import(room=remote, raw=_file(document), actor=director)
    assert (report.players_matched, report.players_added, report.added_names) == (2, 1, ["Ivy"])
    gil.refresh_from_db()
    hal.refresh_from_db()
    assert (gil.licence, gil.name, gil.table) == ("L-Gil", "gil  dupont", 7)
    assert hal.licence == ""
    assert gil.rulings.count() == 2 and hal.rulings.count() == 2


def test_new_players_sit_at_their_table_when_it_is_free(host, director, elsewhere) -> None:
    """A new player keeps the table of the file unless one of the room's players or an earlier
    player of the file has it; a series outside 1 to 7 is none."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    PlayerFactory(event=remote, name="Zoé", table=2)
    document = room_results(elsewhere)
    gil, hal, ivy = document["players"]
    gil.update(series=0)
    hal.update(series=8)
    ivy.update(table=1, series=1)
    document["players"].append({"name": "Jo", "table": 4, "series": 7})  # no rulings
    report = room_results_import(room=remote, raw=_file(document), actor=director)
    assert report.added_names == ["Gil", "Hal", "Ivy", "Jo"] and report.players_added == 4
    seated = {p.name: (p.table, p.series) for p in remote.players.all()}
    assert seated == {
        "Zoé": (2, None),
        "Gil": (1, None),
        "Hal": (None, None),
        "Ivy": (None, 1),
        "Jo": (4, 7),
    }


def _rounds_of(game: Game, count: int) -> list[dict]:
    """The first ``count`` rounds of a game as a room's file has them."""
    return [
        {k: r[k] for k in ("number", "rack", "ref", "word", "score")}
        for r in game.predrawn["rounds"][:count]
    ]


def test_a_game_imported_to_its_last_round_is_finished_with_the_games_end(host, director) -> None:
    """Each round imported is the pre-drawn round (its leftover and rejected racks too),
    published; a game whose every round is in is finished with the pre-drawn game's end, one
    still going is running; a file of two games adds the rounds of both."""
    game_draw_whole(event=host, actor=director, seed=7)
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    first, second = host.games.order_by("number")
    everything = len(first.predrawn["rounds"])
    document = {
        "format": "duplicate-room-results",
        "version": 1,
        "games": [
            {"number": 1, "rounds": _rounds_of(first, everything)},
            {"number": 2, "rounds": _rounds_of(second, 2)},
        ],
        "players": [],
    }
    report = room_results_import(room=remote, raw=_file(document), actor=director)
    assert report.rounds_added == everything + 2
    finished, going = remote.games.order_by("number")
    assert (finished.status, finished.end_reason) == (Game.Status.FINISHED, first.predrawn["end"])
    assert (going.status, going.end_reason) == (Game.Status.RUNNING, "")
    for game, planned in ((finished, first.predrawn), (going, second.predrawn)):
        for r in game.rounds.order_by("number"):
            want = planned["rounds"][r.number - 1]
            assert (r.rack, r.leftover, r.rejected) == (
                want["rack"],
                want["leftover"],
                want["rejected"],
            )
            assert r.tops == [{"ref": want["ref"], "word": want["word"], "score": want["score"]}]
            assert (r.played_ref, r.played_word, r.played_score, r.played_by) == (
                want["ref"],
                want["word"],
                want["score"],
                Round.PlayedBy.PREDRAWN,
            )
            assert r.status == Round.Status.PUBLISHED
    assert any(r["rejected"] for r in first.predrawn["rounds"])
    assert len({r["leftover"] for r in first.predrawn["rounds"]}) > 3


def test_a_game_with_no_end_in_its_document_finishes_with_none(host, director) -> None:
    """A pre-drawn document may stop before the bag is empty, with no end, and its rounds
    need not say their leftover or rejected racks: the game imported to its last round is
    finished, with no end reason, its rounds with no leftover and no rejected rack."""
    drawn = host.games.get().predrawn
    rounds = [
        {k: v for k, v in r.items() if k not in ("leftover", "rejected")}
        for r in drawn["rounds"][:2]
    ]
    short = {"tiles": drawn["tiles"], "seed": drawn["seed"], "rounds": rounds}
    host = EventFactory(name="Short")
    game_create(event=host, actor=director, source=Game.Source.PREDRAWN, predrawn=short)
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = {
        "format": "duplicate-room-results",
        "version": 1,
        "games": [{"number": 1, "rounds": _rounds_of(host.games.get(), 1)}],
        "players": [],
    }
    room_results_import(room=remote, raw=_file(document), actor=director)
    assert remote.games.get().status == Game.Status.RUNNING
    document["games"][0]["rounds"] = _rounds_of(host.games.get(), 2)
    room_results_import(room=remote, raw=_file(document), actor=director)
    game = remote.games.get()
    assert (game.status, game.end_reason) == (Game.Status.FINISHED, "")
    assert [(r.leftover, r.rejected) for r in game.rounds.order_by("number")] == [("", [])] * 2


def test_a_correction_replaces_its_ruling_and_slip_and_keeps_the_others(
    host, director, elsewhere
) -> None:
    """A newer file with two rulings of round 1 corrected (one's points, the other's slip:
    the score announced) replaces those two, each with its slip, and keeps every other one
    (the same players' slips of round 2 too)."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    room_results_import(room=remote, raw=_file(document), actor=director)
    kept = set(Submission.objects.filter(round__game__event=remote, round__number=2))
    gil, hal, _ = document["players"]
    gil["rulings"][0]["points"] -= 1
    hal["rulings"][0]["announced"] += 1
    report = room_results_import(room=remote, raw=_file(document), actor=director)
    assert (report.rulings_changed, report.rulings_unchanged, report.rulings_added) == (2, 4, 0)
    assert set(Submission.objects.filter(round__game__event=remote, round__number=2)) == kept
    assert room_results(remote)["players"] == document["players"]
    slip = Submission.objects.get(round__game__event=remote, round__number=1, player__name="Hal")
    assert slip.announced_score == hal["rulings"][0]["announced"]


# -- the one ranking, room by room ----------------------------------------------------------


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


NOT_A_GAME = 'Each game is {"number": N, "rounds": [...]}.'


@pytest.mark.parametrize(
    ("part", "value", "problems"),
    [
        ("games", "x", ['"games": a list of the room\'s games.']),
        (
            "games",
            [5, {"number": 2}],
            ['"games": a whole number of 0 or more, not null.', NOT_A_GAME, NOT_A_GAME],
        ),
        (
            "games",
            [{"number": "1", "rounds": []}, {"number": 1, "rounds": None}],
            ['"games": a whole number of 0 or more, not "1".', NOT_A_GAME, NOT_A_GAME],
        ),
        ("players", {}, ['"players": a list of the room\'s players.']),
        (
            "players",
            [{"name": ""}, "x", {"name": 5}, {"name": "Jo"}],
            [
                "player #1: a player needs a name.",
                "player #2: a player needs a name.",
                "player #3: a player needs a name.",
            ],
        ),
        (
            "players",
            [{"name": "Jo", "rulings": {}}, {"name": "Kim", "rulings": 5}],
            ['player #1: "rulings" is a list.', 'player #2: "rulings" is a list.'],
        ),
    ],
)
def test_a_file_of_the_wrong_shape_lists_every_problem(
    host, director, elsewhere, part, value, problems
) -> None:
    """Each game and each player is read even after a bad one, so that all are listed."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = {**room_results(elsewhere), "players": [], part: value}
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=_file(document), actor=director)
    assert refused.value.errors == problems
    assert not Round.objects.filter(game__event=remote).exists()


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


def test_rounds_the_simultaneous_lacks_or_a_file_older_than_the_import_are_each_said(
    host, director, elsewhere
) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    rounds = document["games"][0]["rounds"]
    elsewhere_game = {**document, "games": [{"number": 3, "rounds": rounds}], "players": []}
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=_file(elsewhere_game), actor=director)
    assert refused.value.errors == [
        "Game 3 has no round 1 in Simultaneous (2026-05-01).",
        "Game 3 has no round 2 in Simultaneous (2026-05-01).",
    ]
    both = {**document, "players": []}
    first = {**both, "games": [{"number": 1, "rounds": rounds[:1]}]}
    none = {**both, "games": []}
    for imported, older, count in ((first, none, 0), (both, first, 1)):
        room_results_import(room=remote, raw=_file(imported), actor=director)
        with pytest.raises(RoomResultsError) as refused:
            room_results_import(room=remote, raw=_file(older), actor=director)
        done = len(imported["games"][0]["rounds"])
        assert refused.value.errors == [
            f"Game 1: the file has {count} rounds, {done} are already imported. Is it an older "
            "file?"
        ]


def test_two_rulings_of_one_player_for_a_round_are_said(host, director, elsewhere) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    gil = document["players"][0]
    gil["rulings"].append(gil["rulings"][1])
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=_file(document), actor=director)
    assert refused.value.errors == ["#1 Gil (Mtl), licence L-Gil: two rulings for game 1 round 2."]


def test_a_file_over_40_mb_is_refused_before_it_is_read(host, director) -> None:
    from arbiter.services.room_files import MAX_BYTES

    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    assert MAX_BYTES == 40 * 1024 * 1024
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=b" " * (MAX_BYTES + 1), actor=director)
    assert refused.value.data == {
        "code": "bad_file",
        "errors": ["The file is over 40 MB (41,943,041 bytes): at most 40 MB are read."],
    }
    with pytest.raises(RoomResultsError) as refused:  # 40 MB is not over: it is read
        room_results_import(room=remote, raw=b" " * MAX_BYTES, actor=director)
    assert refused.value.errors[0].startswith("Not a JSON file")


def test_an_import_is_audited_with_who_the_files_hash_and_what_it_added(
    host, director, elsewhere
) -> None:
    import hashlib

    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    raw = results_of(elsewhere)
    room_results_import(room=remote, raw=raw, actor=director)
    entry = AuditEntry.objects.get(event=remote, action="arbiter.room.results_imported")
    assert entry.actor == director
    assert entry.data == {
        "sha256": hashlib.sha256(raw).hexdigest(),
        "rounds_added": 2,
        "players_added": 3,
        "rulings_added": 6,
        "rulings_changed": 0,
    }


def test_what_is_not_a_room_results_file_is_refused_word_for_word(host, director) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=b"{", actor=director)
    assert refused.value.data["code"] == "bad_file"
    assert refused.value.errors[0] == "Not a JSON file: parse error: premature EOF."
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=b'{"format": "eliot"}', actor=director)
    assert refused.value.data == {
        "code": "bad_file",
        "errors": [
            'Not a room results file: it starts {"format": "duplicate-room-results", '
            '"version": 1} (the file a room\'s event page exports).'
        ],
    }
    lyon = room_create(host=host, name="Lyon", actor=director)
    with pytest.raises(ApplicationError) as refused_room:
        room_results_import(room=lyon, raw=b"{}", actor=director)
    assert str(refused_room.value.message) == (
        "Lyon is not a remote room of a simultaneous event: its results are its own rulings, "
        "not a file."
    )


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
