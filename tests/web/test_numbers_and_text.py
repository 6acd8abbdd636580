"""Numbers and text at every door (issue 34): a pre-drawn game's scores and seed are whole,
finite numbers (``1e999``, ``-1e999`` and ``24.9`` were a 500, a database error and a score of
24); no text holds a non-character (U+FFFF, U+FDD0...) or a lone surrogate, through the API,
the forms and the imports; and eliot.xml is well-formed whatever a name holds."""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from arbiter.selectors.interchange import eliot_bytes
from arbiter.simulation import simulate_event
from engine.game import autoplay
from engine.lexicon import Lexicon
from engine.tiles import TileSet
from tests.factories import EventFactory, EventRoleFactory, UserFactory
from tournament.models import Event, EventRole, Game, Player
from tournament.services.player_imports import PlayerImportError, players_import
from tournament.vocabulary import control_character_in, is_noncharacter

pytestmark = pytest.mark.django_db

NONCHARACTERS = ["\uffff", "\ufffe", "\ufdd0", "\ufdef", "\U0001ffff", "\U0010fffe"]


@pytest.fixture(scope="module")
def document() -> dict:
    return autoplay(seed=3, tiles=TileSet.load("en"), lexicon=Lexicon.load()).to_document()


@pytest.fixture
def director() -> tuple[Client, Event]:
    event = EventFactory()
    user = UserFactory(username="dir")
    EventRoleFactory(user=user, event=event, role=EventRole.Role.DIRECTOR)
    client = Client()
    client.force_login(user)
    return client, event


def _first_round(document: dict, raw: str) -> bytes:
    """The document as JSON with its first round's score written ``raw`` (as a file holds it)."""
    text = json.dumps(document)
    score = document["rounds"][0]["score"]
    needle = f'"score": {score}'
    assert needle in text
    return text.replace(needle, f'"score": {raw}', 1).encode()


def _seed(document: dict, raw: str) -> bytes:
    return json.dumps({**document, "seed": 0}).replace('"seed": 0', f'"seed": {raw}', 1).encode()


@pytest.mark.parametrize(
    ("make", "raw", "said"),
    [
        (_first_round, "1e999", "rounds[0].score: the number 1e999 is too large"),
        (_first_round, "-1e999", "rounds[0].score: the number -1e999 is too large"),
        (_first_round, "24.9", "round 1: the score must be a whole number, not 24.9"),
        (_first_round, "-3", "round 1: the score must be at least 0, not -3"),
        (_seed, "1e999", "seed: the number 1e999 is too large"),
        (_seed, "7.5", "the seed must be a whole number, not 7.5"),
        (_seed, "4294967296", "the seed must be below 4294967296"),
    ],
    ids=[
        "score 1e999",
        "score -1e999",
        "score 24.9",
        "score -3",
        "seed 1e999",
        "seed 7.5",
        "seed 2**32",
    ],
)
def test_every_door_of_a_pre_drawn_file_refuses_a_number_that_is_not_whole_naming_it(
    director, document, make, raw: str, said: str
) -> None:
    client, event = director
    content = make(document, raw)
    page = client.post(
        reverse("exports:game_import", args=[event.slug]),
        {"file": SimpleUploadedFile("game.json", content)},
    )
    assert page.status_code == 400 and said in page.content.decode(), page.content[-600:]
    api = client.post(
        reverse("exports:api_game_import", args=[event.slug]),
        {"file": SimpleUploadedFile("game.json", content)},
    )
    assert api.status_code == 400 and api.json()["code"] == "bad_file", api.content
    assert said in api.json()["errors"][0]["text"]
    setup = client.post(
        reverse("console:setup_post", args=[event.slug, "game"]),
        {"source": "predrawn", "predrawn": SimpleUploadedFile("game.json", content)},
        follow=True,
    )
    assert setup.status_code == 200 and said in setup.content.decode()
    body = b'{"source": "predrawn", "predrawn": ' + content + b"}"
    direct = client.post(
        f"/api/v1/events/{event.slug}/games", body, content_type="application/json"
    )
    assert 400 <= direct.status_code < 500 and direct.json()["code"], direct.content
    assert said in json.dumps(direct.json(), ensure_ascii=False), direct.json()
    assert not Game.objects.exists()


def test_the_api_names_where_a_number_too_large_stands(director) -> None:
    client, event = director
    answer = client.post(
        f"/api/v1/events/{event.slug}/players",
        b'{"name": "Ann", "table": -1e999}',
        content_type="application/json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "parse_error"
    assert answer.json()["detail"] == "table: the number -1e999 is too large"


def test_the_one_definition_knows_the_66_noncharacters() -> None:
    found = [chr(c) for c in range(0x110000) if c < 0xD800 or c > 0xDFFF if is_noncharacter(chr(c))]
    assert len(found) == 66
    for ch in found:
        assert control_character_in(f"Ann{ch}") == ch
    assert control_character_in("Zoé Ünal-Łukasz 李") is None
    assert control_character_in("Ann\ud800") == "\ud800"


@pytest.mark.parametrize("ch", [*NONCHARACTERS, "\ud800"], ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("field", ["name", "club", "licence", "category"])
def test_the_api_refuses_a_non_character_in_any_field_of_a_player(director, field, ch) -> None:
    client, event = director
    body = {"name": "Ann", field: f"Ann{ch}" if field != "name" else f"A{ch}nn"}
    raw = json.dumps(body)  # ensure_ascii: "\uffff", and a lone surrogate as "\ud800"
    answer = client.post(
        f"/api/v1/events/{event.slug}/players", raw, content_type="application/json"
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "parse_error"
    assert f"U+{ord(ch):04X}" in answer.json()["detail"] and field in answer.json()["detail"]
    assert not Player.objects.exists()


@pytest.mark.parametrize("ch", NONCHARACTERS, ids=lambda c: f"U+{ord(c):04X}")
def test_the_forms_refuse_a_non_character(director, ch) -> None:
    client, event = director
    answer = client.post(
        reverse("console:setup_post", args=[event.slug, "player"]), {"name": f"Ann{ch}"}
    )
    assert answer.status_code == 400
    assert answer.content.decode() == f"name: non-characters are not allowed (U+{ord(ch):04X})."
    assert not Player.objects.exists()


@pytest.mark.parametrize("ch", NONCHARACTERS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_player_list_holding_a_non_character_is_refused_with_its_row(ch) -> None:
    event = EventFactory()
    content = f"name,club\nAda,Lyon\nBob,Ly{ch}on\n".encode()
    with pytest.raises(PlayerImportError) as refused:
        players_import(event=event, file_name="players.csv", content=content, actor=None)
    said = [str(e) for e in refused.value.errors]
    assert said == [f"Row 3: The club holds a non-character (U+{ord(ch):04X}), which is not text."]
    assert not Player.objects.exists()


def test_a_player_list_upload_with_a_non_character_is_a_coded_400(director) -> None:
    client, event = director
    answer = client.post(
        f"/api/v1/events/{event.slug}/players/import",
        {"file": SimpleUploadedFile("p.csv", "name\nAnn\uffff\n".encode())},
    )
    assert answer.status_code == 400 and answer.json()["code"] == "bad_file", answer.content
    assert "U+FFFF" in json.dumps(answer.json()["errors"])


def test_eliot_xml_is_well_formed_whatever_a_stored_name_holds() -> None:
    summary = simulate_event(players=3, games=1, seed=5)
    game = Game.objects.select_related("event").get(event_id=summary["event"], number=1)
    # A name stored before the doors refused these (or by a path that skips them).
    Player.objects.filter(event=game.event, table=1).update(name="Ann\uffff\x01\ufffe")
    content = eliot_bytes(game)
    root = ET.parse(io.BytesIO(content)).getroot()  # raises when not well-formed
    names = [n.text for n in root.iter("Name")]
    assert "Ann\ufffd\ufffd\ufffd" in names


def test_random_bytes_uploaded_as_a_player_list_are_a_coded_400_saying_so(director) -> None:
    client, event = director
    content = random.Random(34).randbytes(4000)
    answer = client.post(
        f"/api/v1/events/{event.slug}/players/import",
        {"file": SimpleUploadedFile("players.csv", content)},
    )
    assert answer.status_code == 400 and answer.json()["code"] == "bad_file", answer.content
    said = json.dumps(answer.json()["errors"])
    assert "not a text file" in said and "Shift-JIS" not in said
