"""Simultaneous events (issue 16.1): a remote room's results file imported (players matched by
licence, then name and club; conflicts listed, nothing guessed; twice changes nothing; newer
files add their rounds and corrections; audited).
"""

from __future__ import annotations

import json

import pytest

from arbiter.selectors.rooms import room_results
from arbiter.selectors.standings import standings_event, standings_simultaneous
from arbiter.services import racks
from arbiter.services.room_files import RoomResultsError
from arbiter.services.rooms import room_results_import
from arbiter.services.simultaneous import game_draw_whole
from tests.arbiter.rooms.helpers import _file, people, results_of
from tests.factories import EventFactory, PlayerFactory
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Game, Player, Round, Ruling, Submission
from tournament.services.games import game_create
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db


def _rounds_of(game: Game, count: int) -> list[dict]:
    """The first ``count`` rounds of a game as a room's file has them."""
    return [
        {k: r[k] for k in ("number", "rack", "ref", "word", "score")}
        for r in game.predrawn["rounds"][:count]
    ]


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


def test_only_a_remote_room_imports_a_file(host, director, elsewhere) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    with pytest.raises(ApplicationError, match="not a remote room"):
        room_results_import(room=room, raw=results_of(elsewhere), actor=director)
    with pytest.raises(ApplicationError, match="not a remote room"):
        room_results_import(room=host, raw=results_of(elsewhere), actor=director)


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


def test_a_file_ruled_by_another_rulebook_is_refused(host, director, elsewhere) -> None:
    """A room plays by its host's rulebook: a file whose rulings were made by another (FISF
    2023 against before-2023, docs/rules.md) would not compare with the other rooms'."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    assert document["room"]["rulebook"] == remote.rulebook == "fisf-2023"
    other = {**document, "room": {**document["room"], "rulebook": "before-2023"}}
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=_file(other), actor=director)
    assert refused.value.errors == [
        "The file's rulings were made by the rulebook before-2023; Montréal plays by "
        "fisf-2023: its standings would not compare with the other rooms'."
    ]
    room_results_import(room=remote, raw=_file(document), actor=director)
