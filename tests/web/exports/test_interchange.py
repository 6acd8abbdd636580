"""Eliot, GCG and SIGLES files of a game played here, and an Eliot game imported as a pre-drawn
game: the service, the console page and the API call (docs/interchange.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from arbiter.rules import PLACED_CODES
from arbiter.selectors.interchange import (
    eliot_bytes,
    eliot_export,
    eliot_game_of,
    eliot_notes,
    gcg_text,
    sigles_bytes,
)
from arbiter.selectors.standings import standings_game
from arbiter.services.discipline import discipline_warn
from arbiter.services.interchange import GameImportError, game_import_eliot
from arbiter.simulation import simulate_event
from engine.eliot.reader import MAX_BYTES, eliot_read
from engine.eliot.writer import eliot_write
from engine.tiles import rack_notation
from tests.factories import EventFactory, EventRoleFactory, PlayerFactory, UserFactory
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Event, EventRole, Game, Round, Ruling

pytestmark = pytest.mark.django_db

HAND = Path(__file__).resolve().parents[2] / "data" / "eliot" / "hand_arbitration.xml"


@pytest.fixture
def played() -> Game:
    summary = simulate_event(players=5, games=1, seed=11)
    return Game.objects.select_related("event").get(event_id=summary["event"], number=1)


def _published(game: Game) -> list[Round]:
    return list(game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))


def test_a_game_played_here_exports_its_racks_tops_moves_and_totals(played: Game) -> None:
    eliot = eliot_read(eliot_bytes(played))
    rounds = _published(played)
    assert eliot.mode == "arbitration"
    assert [str(t.rack).lstrip("-") for t in eliot.played] == [
        rack_notation(r.rack, r.leftover) for r in rounds
    ]
    # a leftover put back (a rack refused) is Eliot's "-", the refused racks kept in a comment
    reset = [t for t in eliot.played if t.rack and t.rack.reset]
    assert reset and all(t.rejected for t in reset)
    assert [list(t.rejected) for t in eliot.played] == [r.rejected for r in rounds]
    assert [(t.top.coord, t.top.word, t.top.points) for t in eliot.played if t.top] == [
        (r.played_ref, r.played_word, r.played_score) for r in rounds
    ]
    standings = standings_game(game=played)
    by_name = {row.name: row.total for row in standings.rows}
    stats = eliot.stats(
        warnings_free=played.event.warnings_free, warning_penalty=played.event.warning_penalty
    )
    averaged = set(
        Ruling.objects.filter(round__game=played, averaged=True).values_list(
            "player__name", flat=True
        )
    )
    for player, s in zip(eliot.players, stats, strict=True):
        if player.name not in averaged:  # Eliot has no average for a second zero (rule 10)
            assert s.total == by_name[player.name], player.name
    assert eliot.top_total == standings.top_total
    placed = sum(1 for t in eliot.played for m in t.moves if m.type == "valid")
    assert placed == Ruling.objects.filter(round__game=played, code__in=PLACED_CODES).count()


def test_disciplinary_warnings_eliot_cannot_hold_are_in_the_comments_and_their_cost_counted(
    played: Game,
) -> None:
    """rules.md case 21: two disciplinary warnings for one player in round 2. Eliot's file holds
    one warning a player and a round: the other is said in the file's comments, and what the
    warnings cost is written as penalties, so Eliot's totals are still the standings'."""
    first, second = _published(played)[:2]
    ann = played.event.players.order_by("table").first()
    assert ann is not None
    for r, why in ((second, "talking"), (second, "phone out"), (first, "late to sit")):
        discipline_warn(round=r, player=ann, reason=why, actor=None)
    export = eliot_export(played)
    assert [(name, number) for name, _table, number, _n in export.unheld] == [
        (ann.name, second.number)
    ]
    text = eliot_bytes(played).decode()
    assert "disciplinary warning" in text and f"round {second.number}" in text
    rulebook = played.event.rulebook
    assert f"Ruled by: {played.event.get_rulebook_display()} ({rulebook})." in text
    eliot = eliot_read(eliot_bytes(played))
    stats = eliot.stats(
        warnings_free=played.event.warnings_free, warning_penalty=played.event.warning_penalty
    )
    standings = {row.name: row.total for row in standings_game(game=played).rows}
    averaged = set(
        Ruling.objects.filter(round__game=played, averaged=True).values_list(
            "player__name", flat=True
        )
    )
    for player, s in zip(eliot.players, stats, strict=True):
        if player.name not in averaged:
            assert s.total == standings[player.name], player.name
    again = eliot_write(
        eliot_read(eliot_bytes(played)),
        comment=f"{played.event.name}, game {played.number}",
        notes=eliot_notes(export),
    )
    assert again == eliot_bytes(played)


def test_the_export_read_back_and_written_again_is_the_same_file(played: Game) -> None:
    event = played.event
    content = eliot_bytes(played)
    again = eliot_write(
        eliot_read(content),
        comment=f"{event.name}, game {played.number}",
        notes=eliot_notes(eliot_export(played)),
    )
    assert again == content


def test_the_file_names_its_game_in_the_event_language(played: Game) -> None:
    played.event.language = "fr"
    played.event.save(update_fields=["language"])
    text = eliot_bytes(played).decode()
    assert f"{played.event.name}, partie 1" in text and ", game 1" not in text
    played.event.language = "en"
    played.event.save(update_fields=["language"])
    assert f"{played.event.name}, game 1" in eliot_bytes(played).decode()


def test_an_exported_game_imports_as_a_predrawn_game_with_the_same_racks_and_tops(
    played: Game,
) -> None:
    other = EventFactory(tile_set=played.tile_set, lexicon=played.lexicon)
    game = game_import_eliot(
        event=other, file_name="g.xml", content=eliot_bytes(played), actor=None
    )
    assert game.source == Game.Source.PREDRAWN
    assert [
        (d["number"], d["rack"], d["leftover"], d["ref"], d["word"], d["score"])
        for d in game.predrawn["rounds"]
    ] == [
        (r.number, r.rack, r.leftover, r.played_ref, r.played_word, r.played_score)
        for r in _published(played)
    ]
    assert [d["rejected"] for d in game.predrawn["rounds"]] == [
        r.rejected for r in _published(played)
    ]
    # and the imported game exports the same racks and tops again
    again = eliot_game_of(game)
    assert again.played == ()  # nothing played here yet


def test_the_hand_written_eliot_file_becomes_a_predrawn_game() -> None:
    event = EventFactory(tile_set="en", lexicon="enable")
    director = UserFactory(username="dora")
    game = game_import_eliot(
        event=event, file_name="hand.xml", content=HAND.read_bytes(), actor=director
    )
    rounds = game.predrawn["rounds"]
    assert [(r["rack"], r["leftover"]) for r in rounds] == [
        ("DEILMOU", ""),
        ("AEINRS?", "I"),
        ("AEGNRTT", ""),
    ]
    assert [(r["ref"], r["word"], r["score"]) for r in rounds] == [
        ("H4", "MODULE", 24),
        ("5D", "ANEROIdS", 78),
        ("4A", "NATTER", 22),
    ]
    assert game.predrawn["total"] == 124
    entry = AuditEntry.objects.get(action="arbiter.game.imported")
    assert entry.data["top_total"] == 124 and entry.data["players_in_file"] == 2


def refused(content: bytes, **event: str) -> list[str]:
    with pytest.raises(GameImportError) as caught:
        game_import_eliot(
            event=EventFactory(**event), file_name="x.xml", content=content, actor=None
        )
    assert Game.objects.count() == 0
    return [str(p) for p in caught.value.problems]


def test_a_rack_that_cannot_be_drawn_from_the_bag_is_refused_with_its_turn_line() -> None:
    content = HAND.read_bytes().replace(b">AEGNRTT<", b">AEZZRTT<")
    (problem,) = refused(content)
    assert problem.startswith("line 52, <Turn>: The pre-drawn game does not replay: round 3:")
    assert "Z" in problem


def test_a_top_whose_score_is_wrong_is_refused() -> None:
    content = HAND.read_bytes().replace(b'<GameMove points="22"', b'<GameMove points="23"')
    content = content.replace(b'totalScore="124"', b'totalScore="125"')
    (problem,) = refused(content)
    assert "scores 22, the document says 23" in problem


def test_a_leftover_put_back_replays_as_a_rack_refused_that_was_not_recorded() -> None:
    content = HAND.read_bytes().replace(b">I+?AENRS<", b">-I?AENRS<")
    game = game_import_eliot(event=EventFactory(), file_name="x.xml", content=content, actor=None)
    second = game.predrawn["rounds"][1]
    assert (second["rack"], second["leftover"], second["rejected"]) == ("AEINRS?", "", ["-"])


def test_a_game_eliot_played_in_a_variant_imports_as_a_game_in_its_formula() -> None:
    """Eliot's joker game (``bingo``, a file real Eliot wrote) becomes a joker game here; the
    hand-written file with the variant added is refused, its racks holding no joker."""
    bingo = HAND.read_bytes().replace(
        b"<Mode>arbitration</Mode>", b"<Mode>arbitration</Mode><Variant>bingo</Variant>"
    )
    (problem,) = refused(bingo)
    assert "in a joker game every rack holds a joker" in problem
    content = (HAND.parent / "formulas" / "eliot_joker_3.xml").read_bytes()
    game = game_import_eliot(event=EventFactory(), file_name="j.xml", content=content, actor=None)
    assert game.formula == "joker" and game.predrawn["formula"] == "joker"
    assert all("?" in r["rack"] for r in game.predrawn["rounds"][:5])


def test_a_file_with_no_move_on_the_board_is_refused() -> None:
    content = (
        b'<?xml version="1.0"?><EliotGame format="2"><Dictionary/><Game><Mode>duplicate</Mode>'
        b'<Player id="0"><Name>A</Name><Type>human</Type><TableNb>1</TableNb></Player>'
        b"<Turns>0</Turns></Game><History/></EliotGame>"
    )
    assert refused(content) == ["<History>: no turn has a move on the board (<GameMove>)"]


def test_a_closed_event_takes_no_imported_game() -> None:
    event = EventFactory(status=Event.Status.FINISHED)
    with pytest.raises(ApplicationError):
        game_import_eliot(event=event, file_name="x", content=HAND.read_bytes(), actor=None)


# --- pages and API ---------------------------------------------------------------------------


@pytest.fixture
def director_client(client: Client) -> tuple[Client, Event]:
    event = EventFactory(tile_set="en", lexicon="enable")
    user = UserFactory(username="dir")
    EventRoleFactory(user=user, event=event, role=EventRole.Role.DIRECTOR)
    client.force_login(user)
    return client, event


def test_the_director_imports_a_file_from_the_console_page(director_client) -> None:
    client, event = director_client
    url = reverse("exports:game_import", args=[event.slug])
    assert client.get(url).status_code == 200
    with HAND.open("rb") as f:
        response = client.post(url, {"file": f})
    assert response.status_code == 302
    assert event.games.get().source == Game.Source.PREDRAWN


def test_the_import_page_lists_every_problem_with_its_line(director_client) -> None:
    client, event = director_client
    url = reverse("exports:game_import", args=[event.slug])
    bad = HAND.read_bytes().replace(b"<Turns>4</Turns>", b"<Turns>6</Turns>")
    bad = bad.replace(b'points="-5"', b'points="x"')
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(url, {"file": SimpleUploadedFile("g.xml", bad)})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Nothing imported: 2 problems in the file." in text
    assert "line 26, &lt;History&gt;: &lt;Turns&gt; says 6 turns but the history holds 4" in text
    assert "line 49, &lt;Penalty&gt;: points &#x27;x&#x27; is not a whole number" in text
    response = client.post(url, {"file": SimpleUploadedFile("g.xml", b"<" * (MAX_BYTES + 1))})
    assert response.status_code == 400
    assert "at most 2 MB are read" in response.content.decode()
    response = client.post(url, {})
    assert response.status_code == 400 and "Choose an Eliot save game" in response.content.decode()
    assert not event.games.exists()


def test_the_api_imports_a_file_and_answers_every_problem(director_client) -> None:
    client, event = director_client
    url = reverse("exports:api_game_import", args=[event.slug])
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(url, {"file": SimpleUploadedFile("g.xml", b"<Workbook/>")})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_file"
    message = "the root element must be <EliotGame>: this is not an Eliot save game"
    assert body["errors"] == [
        {
            "line": 1,
            "element": "Workbook",
            "message": message,
            "text": f"line 1, <Workbook>: {message}",
        }
    ]
    response = client.post(url, {"file": SimpleUploadedFile("g.xml", HAND.read_bytes())})
    assert response.status_code == 201
    body = response.json()
    assert (body["number"], body["rounds"], body["top_total"], body["format"]) == (
        1,
        3,
        124,
        "eliot",
    )
    assert body["detail"].startswith("Game 1 is added: 3 pre-drawn rounds, a top total of 124.")
    assert client.post(url, {}).json()["code"] == "no_file"


def test_staff_download_the_eliot_gcg_and_sigles_files(client: Client, played: Game) -> None:
    event = played.event
    user = UserFactory(username="arb")
    EventRoleFactory(user=user, event=event, role=EventRole.Role.ARBITER)
    client.force_login(user)
    args = [event.slug, played.number]
    eliot = client.get(reverse("exports:game_eliot", args=args))
    assert eliot.status_code == 200 and eliot["Content-Type"].startswith("application/xml")
    assert eliot.content == eliot_bytes(played)
    gcg = client.get(reverse("exports:game_gcg", args=args)).content.decode("utf-8")
    assert gcg == gcg_text(played)
    lines = gcg.splitlines()
    assert lines[0] == "#character-encoding UTF-8"
    assert sum(1 for line in lines if line.startswith(">top: ")) == len(_published(played))
    total = sum(r.played_score or 0 for r in _published(played))
    assert [line for line in lines if line.startswith(">top: ")][-1].endswith(f" {total}")
    sigles = client.get(reverse("exports:game_sigles", args=args))
    assert sigles["Content-Type"] == "text/plain; charset=windows-1252"
    standings = standings_game(game=played)
    expected = {(row.table, row.name, row.total) for row in standings.rows}
    got = set()
    for line in sigles.content.decode("cp1252").splitlines():
        table, name, total_text = (f.strip('"') for f in line.split('","'))
        got.add((int(table), name, int(total_text)))
    assert got == expected


def test_the_sigles_file_by_table_marks_empty_tables_and_by_licence_needs_licences(
    client: Client,
) -> None:
    event = EventFactory()
    PlayerFactory(event=event, name="Ann", table=1, licence="L2")
    PlayerFactory(event=event, name="Zoé", table=3, licence="")
    assert sigles_bytes(event=event).decode("latin-1").splitlines() == [
        '"1","Ann","0"',
        '"2","--table vide--","-1"',
        '"3","Zoé","0"',
    ]
    with pytest.raises(ApplicationError, match="Zoé has no licence number"):
        sigles_bytes(event=event, key="licence")
    user = UserFactory(username="dir2")
    EventRoleFactory(user=user, event=event, role=EventRole.Role.DIRECTOR)
    client.force_login(user)
    response = client.get(reverse("exports:event_sigles", args=[event.slug]) + "?key=licence")
    assert response.status_code == 302
    response = client.get(reverse("exports:event_sigles", args=[event.slug]) + "?key=nope")
    assert response.status_code == 302
    PlayerFactory(event=event, name='Bob "B"', table=2, licence="L1")
    with pytest.raises(ApplicationError, match="a name with a double quote"):
        sigles_bytes(event=event)


def test_the_sigles_file_writes_oe_in_windows_1252_and_latin_1_names_as_eliot_does(
    client: Client,
) -> None:
    """SIGLES, a Windows program, reads Windows-1252 (Latin-1 with œ): Lebœuf and Cœurdevey are
    written as they are; a name Latin-1 writes is the same bytes as Eliot's (Latin-1); a letter
    Windows-1252 lacks loses its accent when that makes one it has; one left is refused."""
    event = EventFactory()
    PlayerFactory(event=event, name="Lebœuf", table=1, licence="L1")
    PlayerFactory(event=event, name="Cœurdevey Zoé", table=2, licence="L2")
    PlayerFactory(event=event, name="Ödön Erdős", table=3, licence="L3")
    file = sigles_bytes(event=event)
    assert file.splitlines() == [
        b'"1","Leb\x9cuf","0"',
        b'"2","C\x9curdevey Zo\xe9","0"',
        b'"3","\xd6d\xf6n Erdos","0"',
    ]
    assert file.decode("cp1252").splitlines()[:2] == ['"1","Lebœuf","0"', '"2","Cœurdevey Zoé","0"']
    assert sigles_bytes(event=event, key="licence").decode("cp1252").startswith('"L1","Lebœuf"')
    user = UserFactory(username="dir3")
    EventRoleFactory(user=user, event=event, role=EventRole.Role.DIRECTOR)
    client.force_login(user)
    response = client.get(reverse("exports:event_sigles", args=[event.slug]))
    assert response.status_code == 200 and response.content == file
    PlayerFactory(event=event, name="Łukasz 王", table=4, licence="L4")
    with pytest.raises(
        ApplicationError, match="Łukasz 王: the name has a letter that Windows-1252"
    ):
        sigles_bytes(event=event)
