"""Pre-drawn games from the files real Eliot wrote (tests/data/eliot), through the service and
every door (the set-up page, the import page, the director API), played here round by round;
and a game exported here, loaded and saved again by real Eliot, imported back with the same
racks, tops and scores (docs/interchange.md, "Checked against Eliot")."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from arbiter.selectors.interchange import eliot_bytes, eliot_gaps
from arbiter.services.corrections import ruling_amend
from arbiter.services.interchange import game_import_predrawn
from arbiter.simulation import simulate_event
from engine.eliot.reader import eliot_read
from engine.game import autoplay
from engine.lexicon import Lexicon
from engine.tiles import TileSet
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, EventRoleFactory, PlayerFactory, UserFactory
from tournament.models import AuditEntry, Event, EventRole, Game, Ruling

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data" / "eliot"
REAL = sorted((DATA / "real").glob("*.xml"))


def rounds_of(game: Game) -> list[tuple[str, str, str, int]]:
    return [
        ("".join(sorted(r["rack"])), r["ref"], r["word"].upper(), r["score"])
        for r in (game.predrawn or {})["rounds"]
    ]


def tops_of(content: bytes) -> list[tuple[str, str, str, int]]:
    eliot = eliot_read(content)
    return [
        ("".join(sorted(t.rack.tiles)), t.top.coord, t.top.word.upper(), t.top.points)
        for t in eliot.played
        if t.rack is not None and t.top is not None
    ]


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_a_game_real_eliot_wrote_imports_with_its_racks_tops_and_scores(path: Path) -> None:
    content = path.read_bytes()
    game, read = game_import_predrawn(
        event=EventFactory(), file_name=path.name, content=content, actor=None
    )
    assert rounds_of(game) == tops_of(content)
    assert game.predrawn["total"] == eliot_read(content).top_total
    assert read.format == "eliot"


def test_a_board_blank_eliot_writes_in_upper_case_comes_back_in_lower_case() -> None:
    content = (DATA / "real" / "arbitration_1026.xml").read_bytes()
    assert b'<GameMove points="32" type="valid" word="QATS" coord="6J" />' in content
    game, _ = game_import_predrawn(event=EventFactory(), file_name="a", content=content, actor=None)
    words = [r["word"] for r in game.predrawn["rounds"]]
    assert (words[1], words[9]) == ("BANEFUl", "QaTS")  # the a: round 1's blank, on the board


@pytest.mark.parametrize(
    "name", ["arbitration_1019.xml", "arbitration_1026.xml", "duplicate_2018.xml"]
)
def test_an_imported_eliot_game_is_played_here_round_after_round(name: str) -> None:
    """Its racks drawn as Eliot drew them (a leftover put back, a rack of the leftover alone
    when Eliot drew nothing), its tops played with Eliot's scores, to the end."""
    event = EventFactory()
    PlayerFactory(event=event, name="Ann", table=1)
    content = (DATA / "real" / name).read_bytes()
    game, _ = game_import_predrawn(event=event, file_name=name, content=content, actor=None)
    now = T0
    for planned in game.predrawn["rounds"]:
        r = open_round(game, now=now)
        assert (r.rack, r.leftover, r.rejected) == (
            planned["rack"],
            planned["leftover"],
            planned["rejected"],
        )
        r = finish_round(r, now)
        assert (r.played_word, r.played_score) == (planned["word"], planned["score"])
        now += dt.timedelta(minutes=5)
    game.refresh_from_db()
    assert game.rounds.count() == len(game.predrawn["rounds"])


def test_a_game_exported_here_and_saved_again_by_eliot_imports_with_the_same_rounds() -> None:
    ours = (DATA / "roundtrip" / "exported.xml").read_bytes()
    theirs = (DATA / "roundtrip" / "saved_by_eliot.xml").read_bytes()
    assert b"<!--" in ours and theirs.count(b"<!--") == 1  # Eliot keeps no comment of ours
    back, _ = game_import_predrawn(event=EventFactory(), file_name="s", content=theirs, actor=None)
    direct, _ = game_import_predrawn(event=EventFactory(), file_name="o", content=ours, actor=None)
    assert rounds_of(back) == rounds_of(direct) == tops_of(ours)


def test_the_import_report_names_the_players_eliot_left_without_a_name() -> None:
    event = EventFactory()
    director = UserFactory(username="dora")
    EventRoleFactory(user=director, event=event, role=EventRole.Role.DIRECTOR)
    client = Client()
    client.force_login(director)
    content = (DATA / "real" / "arbitration_1019.xml").read_bytes()
    response = client.post(
        reverse("exports:game_import", args=[event.slug]),
        {"file": SimpleUploadedFile("game.xml", content)},
        follow=True,
    )
    text = response.content.decode()
    assert "2 of them have no name in the file" in text
    assert "Player 1, Player 2" in text
    entry = AuditEntry.objects.get(action="arbiter.game.imported")
    assert (entry.data["players_in_file"], entry.data["players_unnamed"]) == (2, 2)


# --- every door takes both formats -------------------------------------------------------------


@pytest.fixture
def director(client: Client) -> tuple[Client, Event]:
    event = EventFactory(tile_set="en", lexicon="enable")
    user = UserFactory(username="dir")
    EventRoleFactory(user=user, event=event, role=EventRole.Role.DIRECTOR)
    client.force_login(user)
    return client, event


def _document() -> bytes:
    played = autoplay(seed=3, tiles=TileSet.load("en"), lexicon=Lexicon.load())
    return json.dumps(played.to_document()).encode()


def test_the_set_up_page_takes_an_eliot_save_game_as_a_pre_drawn_game(director) -> None:
    client, event = director
    upload = io.BytesIO((DATA / "real" / "duplicate_2018.xml").read_bytes())
    upload.name = "game.xml"
    response = client.post(
        reverse("console:setup_post", args=[event.slug, "game"]),
        {"source": "predrawn", "predrawn": upload},
        follow=True,
    )
    rounds = len(eliot_read((DATA / "real" / "duplicate_2018.xml").read_bytes()).played)
    assert f"Game 1 is added: {rounds} pre-drawn rounds" in response.content.decode()
    assert event.games.get().source == Game.Source.PREDRAWN


def test_the_import_page_and_the_api_take_the_engines_json_too(director) -> None:
    client, event = director
    response = client.post(
        reverse("exports:game_import", args=[event.slug]),
        {"file": SimpleUploadedFile("game.json", _document())},
    )
    assert response.status_code == 302
    response = client.post(
        reverse("exports:api_game_import", args=[event.slug]),
        {"file": SimpleUploadedFile("game.json", _document())},
    )
    assert response.status_code == 201 and response.json()["format"] == "json"
    assert event.games.count() == 2


def test_the_director_api_adds_a_pre_drawn_game_from_the_engines_json(director) -> None:
    client, event = director
    url = f"/api/v1/events/{event.slug}/games"
    document = json.loads(_document())
    response = client.post(url, {"predrawn": document}, content_type="application/json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["source"] == "predrawn" and body["detail"].startswith("Game 1 is added")
    tampered = {**document, "rounds": [{**document["rounds"][0], "score": 1}]}
    response = client.post(url, {"predrawn": tampered}, content_type="application/json")
    assert response.status_code == 400
    assert "does not replay: round 1" in json.dumps(response.json())
    response = client.post(url, {"predrawn": document, "seed": 4}, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert event.games.count() == 1


# --- exports: what Eliot cannot count -----------------------------------------------------------


def test_an_average_for_a_second_zero_is_said_per_player_in_the_file_and_on_the_page(
    client: Client,
) -> None:
    summary = simulate_event(players=4, games=1, seed=5)
    game = Game.objects.select_related("event").get(event_id=summary["event"], number=1)
    zero = (
        Ruling.objects.filter(round__game=game, points=0)
        .exclude(code="missing")
        .select_related("player")
        .order_by("round__number")
        .first()
    )
    assert zero is not None
    ruling = ruling_amend(ruling=zero, reason="second zero", actor=None, averaged=True)
    assert ruling.points > 0
    (gap,) = eliot_gaps(game)
    assert (gap.name, gap.here - gap.eliot) == (zero.player.name, ruling.points)
    text = eliot_bytes(game).decode()
    assert f"<!-- {zero.player.name} (table {gap.table}): {gap.here} here, {gap.eliot} in " in text
    stats = eliot_read(eliot_bytes(game)).stats()
    assert gap.eliot in [s.total for s in stats]
    user = UserFactory(username="arb")
    EventRoleFactory(user=user, event=game.event, role=EventRole.Role.ARBITER)
    client.force_login(user)
    page = client.get(reverse("exports:event_files", args=[game.event.slug])).content.decode()
    assert "SIGLES" in page and "Latin-1" in page
    assert "a second zero given the round&#x27;s average" in page


def test_a_warning_this_event_charges_more_than_eliot_is_a_penalty_in_the_file() -> None:
    summary = simulate_event(players=4, games=1, seed=7)
    game = Game.objects.select_related("event").get(event_id=summary["event"], number=1)
    event = game.event
    warned = list(Ruling.objects.filter(round__game=game, warning=True))
    assert warned
    from tournament.services.events import event_policy_update

    event_policy_update(event=event, actor=None, warnings_free=0, warning_penalty=5)
    first = Ruling.objects.filter(round__game=game, round__number=1).first()
    assert first is not None
    ruling_amend(ruling=first, reason="the policy changed", actor=None, points=first.points)
    penalties = Ruling.objects.filter(round__game=game, warning=True).values_list(
        "warning_penalty", flat=True
    )
    assert set(penalties) == {5}  # every warning costs 5 here, the first three none in Eliot
    eliot = eliot_read(eliot_bytes(game))
    from arbiter.selectors.standings import standings_game

    by_table = {row.table: row.total for row in standings_game(game=game).rows}
    assert [s.total for s in eliot.stats()] == [by_table[p.table] for p in eliot.players]
    assert not eliot_gaps(game)
