"""Hostile files at every importer of another program's file (issue 23, 25): deep nesting, a
DOCTYPE, 50 MB, a file cut short, the wrong encoding, a file of newlines. Each is refused with
a 4xx and a sentence saying what is wrong and where, never a 500, and nothing is stored.
Their time and memory are measured by ``bench/interchange_bombs.py`` (docs/reliability.md)."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from arbiter.services.interchange import GameImportError, game_import_predrawn
from arbiter.services.room_files import RoomResultsError
from arbiter.services.rooms import room_results_import
from engine.eliot.reader import eliot_read
from engine.interchange import InterchangeError, read_json
from tests.factories import EventFactory, EventRoleFactory, UserFactory
from tournament.models import AuditEntry, Event, EventRole, Game, Player, Round, Ruling

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data" / "eliot"
REAL = (DATA / "real" / "arbitration_named_1019.xml").read_bytes()
MB = 1024 * 1024

ELIOT_BOMBS = {
    "nested": (b"<EliotGame>" + b"<a>" * 200_000, "nested more than 5 deep"),
    "doctype": (
        b'<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'
        b"<EliotGame>&lol2;</EliotGame>",
        "a DOCTYPE is not allowed",
    ),
    "50 MB": (b"<" * (50 * MB), "the file is over 2 MB (52,428,800 bytes)"),
    "cut short": (REAL[: len(REAL) // 2], "line 167: not an XML file (unclosed token, column 13)"),
    "Latin-1": (
        REAL.replace(b"Dupont", "Dupönt".encode("latin-1")),
        "line 12: the file is not UTF-8: byte 0xF6 at column 22",
    ),
    "UTF-16": (REAL.decode("utf-8").encode("utf-16"), "not UTF-8 but UTF-16"),
    "newlines": (b"\n" * (2 * MB - 100), "the file is empty"),
    "newlines in the game": (
        b"<EliotGame>" + b"\n" * (2 * MB - 100) + b"</EliotGame>",
        "a text longer than 10000 characters",
    ),
    "many elements": (b"<EliotGame><Game>" + b"<a/>" * 300_000, "more than 250000 elements"),
}


@pytest.mark.parametrize("name", ELIOT_BOMBS)
def test_the_eliot_reader_refuses_a_hostile_file_saying_what_and_where(name: str) -> None:
    content, said = ELIOT_BOMBS[name]
    with pytest.raises(InterchangeError) as refused:
        eliot_read(content)
    assert said in str(refused.value.problems[0]), refused.value.problems


JSON_BOMBS = {
    "nested": (b"[" * 100_000, "line 1: the JSON is nested more than 20 levels deep"),
    "nested objects": (b'{"a":' * 50_000, "nested more than 20 levels deep"),
    "50 MB": (b" " * (50 * MB), "the file is over 2 MB (52,428,800 bytes)"),
    "cut short": (b'{"tiles": "en", "rounds": [', "line 1: not JSON: Expecting value"),
    "Latin-1": ('{"tiles": "é"}'.encode("latin-1"), "byte 0xE9 at column 12 is not UTF-8"),
    "UTF-16": ('{"tiles": "en"}'.encode("utf-16"), "not UTF-8 but UTF-16"),
    "newlines": (b"\n" * (2 * MB - 100), "the file is empty"),
    "a number of 5,000 digits": (b'{"seed": ' + b"9" * 5000 + b"}", "a number of 5000 digits"),
}


@pytest.mark.parametrize("name", JSON_BOMBS)
def test_the_json_reader_refuses_a_hostile_file_saying_what_and_where(name: str) -> None:
    content, said = JSON_BOMBS[name]
    with pytest.raises(InterchangeError) as refused:
        read_json(content, max_bytes=2 * MB)
    assert said in str(refused.value.problems[0]), refused.value.problems


@pytest.mark.parametrize("name", [*ELIOT_BOMBS, *(f"json {n}" for n in JSON_BOMBS)])
def test_no_hostile_file_adds_a_game(name: str) -> None:
    content = JSON_BOMBS[name[5:]][0] if name.startswith("json ") else ELIOT_BOMBS[name][0]
    event = EventFactory()
    with pytest.raises(GameImportError) as refused:
        game_import_predrawn(event=event, file_name="x", content=content, actor=None)
    assert refused.value.data["code"] == "bad_file" and refused.value.lines()
    assert not Game.objects.exists() and not AuditEntry.objects.exists()


ROOM_BOMBS = {
    "nested": (b"[" * 1_000_000, "Line 1: the JSON is nested more than 6 levels deep."),
    "objects by the million": (
        b'{"players": [' + b"{}," * 500_000 + b"{}]}",
        "The JSON holds 500003 objects and lists: at most 30000 are read.",
    ),
    "50 MB": (b" " * (50 * MB), "The file is over 40 MB (52,428,800 bytes)"),
    "cut short": (
        b'{"format": "duplicate-room-results", "version": 1, "games": [], "players": [{"na',
        "Not a JSON file: parse error: premature EOF",
    ),
    "Latin-1": (
        '{"format": "duplicate-room-results", "version": 1, "players": [{"name": "Zoé"}]}'.encode(
            "latin-1"
        ),
        "the file is not UTF-8: byte 0xE9",
    ),
    "newlines": (b"\n" * (4 * MB), "Not a JSON file: parse error: premature EOF"),
    "a number too large": (
        b'{"format": "duplicate-room-results", "version": 1, "games": [], '
        b'"players": [{"name": "A", "table": 99999999999999999999999}]}',
        "Not a JSON file: parse error: integer overflow",
    ),
}


@pytest.fixture
def remote(db) -> Event:
    from tournament.services.rooms import room_create

    host = EventFactory(name="Host")
    return room_create(host=host, name="Montréal", actor=None, remote=True)


@pytest.mark.parametrize("name", ROOM_BOMBS)
def test_the_room_results_reader_refuses_a_hostile_file_saying_what_and_where(
    remote: Event, name: str
) -> None:
    content, said = ROOM_BOMBS[name]
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=content, actor=None)
    assert refused.value.data["code"] == "bad_file"
    assert said in refused.value.errors[0], refused.value.errors
    assert not (Player.objects.filter(event=remote).exists() or Round.objects.exists())
    assert not Ruling.objects.exists()


def test_a_room_file_of_100_000_bad_rulings_lists_the_first_200_problems(remote) -> None:
    content = (
        b'{"format": "duplicate-room-results", "version": 1, "games": [], "players": ['
        + b",".join(
            b'{"name": "P", "rulings": [' + b",".join([b"0"] * 999) + b"]}" for _ in range(100)
        )
        + b"]}"
    )
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=content, actor=None)
    errors = refused.value.errors
    assert len(errors) == 201 and errors[-1].startswith("... and ")
    assert errors[0] == "player #1: a ruling is an object."


# --- through the doors: 4xx and a sentence, never a 500 ----------------------------------------


@pytest.fixture
def director(client: Client) -> tuple[Client, Event]:
    event = EventFactory()
    user = UserFactory(username="dir")
    EventRoleFactory(user=user, event=event, role=EventRole.Role.DIRECTOR)
    client.force_login(user)
    return client, event


@pytest.mark.parametrize(
    "content",
    [ELIOT_BOMBS["nested"][0], JSON_BOMBS["nested"][0], ELIOT_BOMBS["Latin-1"][0]],
    ids=["xml nested", "json nested", "latin-1"],
)
def test_every_door_of_a_pre_drawn_game_answers_a_hostile_file_with_a_400(
    director, content: bytes
) -> None:
    client, event = director
    page = client.post(
        reverse("exports:game_import", args=[event.slug]),
        {"file": SimpleUploadedFile("x.xml", content)},
    )
    assert page.status_code == 400 and "Nothing imported: 1 problem" in page.content.decode()
    api = client.post(
        reverse("exports:api_game_import", args=[event.slug]),
        {"file": SimpleUploadedFile("x.json", content)},
    )
    assert api.status_code == 400 and api.json()["code"] == "bad_file"
    assert api.json()["errors"][0]["text"]
    setup = client.post(
        reverse("console:setup_post", args=[event.slug, "game"]),
        {"source": "predrawn", "predrawn": SimpleUploadedFile("x.json", content)},
        follow=True,
    )
    assert setup.status_code == 200 and "Nothing imported: 1 problem" in setup.content.decode()
    assert not event.games.exists()


def test_a_deeply_nested_room_file_is_a_400_on_the_page_and_the_api(director, remote) -> None:
    client, _ = director
    EventRoleFactory(user=UserFactory(username="d2"), event=remote, role=EventRole.Role.DIRECTOR)
    client.force_login(remote.roles.get().user)
    api = client.post(
        f"/api/v1/events/{remote.slug}/room-results",
        {"file": SimpleUploadedFile("r.json", ROOM_BOMBS["nested"][0])},
    )
    assert api.status_code == 400, api.content
    assert api.json()["code"] == "bad_file"
    assert "nested more than 6 levels deep" in api.json()["errors"][0]


def test_a_room_file_of_more_rulings_than_a_few_seconds_of_work_is_refused_before_reading(
    remote,
) -> None:
    """1,300 players of 25 rounds: 32,500 rulings, refused by their count in C before the file
    is read (a file of 320,000 rulings took 87 s to import in a web thread)."""
    ruling = b'{"game": 1, "round": 1, "code": "valid", "word": "QUARTZ", "points": 60}'
    player = b'{"name": "P", "rulings": [' + b",".join([ruling] * 25) + b"]}"
    content = (
        b'{"format": "duplicate-room-results", "version": 1, "games": [], "players": ['
        + b",".join([player] * 1_300)
        + b"]}"
    )
    tracemalloc.start()
    started = time.process_time()
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=content, actor=None)
    cpu = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert refused.value.errors == [
        "The JSON holds 35103 objects and lists: at most 30000 are read.",
        "A room's results file holds at most about 25,000 rulings (1,000 players of 25 "
        "rounds): a larger import would hold the server for minutes.",
    ]
    assert cpu < 0.5 and peak < 16 * MB, (cpu, peak)
    assert not Ruling.objects.exists()
