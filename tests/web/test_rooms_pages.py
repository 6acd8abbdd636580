"""The simultaneous event's faces (issue 16.1): the set-up's whole game drawn now, the rooms
page (rooms, their progress, one ranking), adding a room, a room's results file downloaded on
one installation and imported on another, by the console and by the director API; who may do
each; every refusal saying why."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from arbiter.services.room_files import MAX_BYTES
from arbiter.services.simultaneous import game_draw_whole
from arbiter.services.slips import slip_submit
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, EventRoleFactory, PlayerFactory, UserFactory
from tournament.models import Event, EventRole, Game, Player
from tournament.services.events import POLICY_FIELDS
from tournament.services.games import game_create
from tournament.services.rooms import room_create
from web.middleware import body_limit

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory(username="dora")


@pytest.fixture
def host(director) -> Event:
    event = EventFactory(name="Simul", slug="simul", solo_min_players=2)
    EventRoleFactory(event=event, user=director, role=EventRole.Role.DIRECTOR)
    game_draw_whole(event=event, actor=director, seed=11)
    return event


def signed(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def said(response) -> list[str]:
    """The messages the response leaves (consumed: the next response says only its own)."""
    return [str(m) for m in get_messages(response.wsgi_request)]


def post(client: Client, url: str, data: dict[str, object]) -> list[str]:
    """Post, follow to the page, and return the messages it shows."""
    response = client.post(url, data, follow=True)
    return [str(m) for m in response.context["messages"]]


def played_elsewhere(host: Event) -> bytes:
    """The results file of a room played on another installation: an event of its own whose
    set-up took the host's game as its pre-drawn file (downloaded from the host), two players,
    one round (Ann the top, Bob nothing)."""
    boss = signed(UserFactory(is_superuser=True))
    document = boss.get(reverse("exports:game_predrawn", args=[host.slug, 1]))
    assert document["Content-Disposition"] == f'attachment; filename="{host.slug}-game-1.json"'
    event = EventFactory(name="Far away", slug="over-there")
    upload = SimpleUploadedFile("game.json", document.content, "application/json")
    assert post(
        boss,
        reverse("console:setup_post", args=[event.slug, "game"]),
        {"source": "predrawn", "predrawn": upload},
    ) == ["Game 1 is added: 23 pre-drawn rounds, a top total of 741."]
    game = event.games.get()
    ann = PlayerFactory(event=event, name="Ann", club="Far", licence="F1", table=1)
    PlayerFactory(event=event, name="Bob", club="Far", licence="F2", table=2)
    round = open_round(game)
    from arbiter.services.scoring import round_tops_compute

    round_tops_compute(round_id=round.pk, now=T0)
    round.refresh_from_db()
    top = round.tops[0]
    slip_submit(
        player=ann,
        round=round,
        word=top["word"],
        ref=top["ref"],
        score=top["score"],
        at=T0 + dt.timedelta(seconds=20),
    )
    finish_round(round, T0)
    response = boss.get(reverse("console:room_results", args=[event.slug]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="over-there-room-results.json"'
    return response.content


def test_the_setup_draws_a_whole_game_in_advance(director) -> None:
    event = EventFactory(slug="club")
    EventRoleFactory(event=event, user=director, role=EventRole.Role.DIRECTOR)
    response = signed(director).post(
        reverse("console:setup_post", args=["club", "game"]), {"source": "whole", "seed": "5"}
    )
    game = event.games.get()
    assert game.source == Game.Source.PREDRAWN and game.seed == 5
    rounds = len(game.predrawn["rounds"])
    assert said(response) == [f"Game 1 is drawn in advance: {rounds} rounds."]


def test_a_director_adds_rooms_and_follows_one_ranking(host, director) -> None:
    client = signed(director)
    response = client.post(
        reverse("console:room_add", args=["simul"]),
        {"name": "Lyon", "venue": "Salle B", "remote": ""},
    )
    assert said(response) == ["The room Lyon is added, with 1 game."]
    client.post(reverse("console:room_add", args=["simul"]), {"name": "Québec", "remote": "on"})
    lyon, quebec = Event.objects.get(name="Lyon"), Event.objects.get(name="Québec")
    assert lyon.host == host and not lyon.remote and quebec.remote
    PlayerFactory(event=lyon, name="Cleo", club="Lyon", table=1)
    PlayerFactory(event=host, name="Ann", club="Paris", table=1)
    page = client.get(reverse("console:simultaneous", args=["simul"]))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-live-every="60"' in html and 'id="ranking-table"' in html
    assert "Lyon" in html and "Québec" in html and "remote: imported" in html
    assert 'id="room-add"' in html  # the host's director adds rooms
    # The event page says what each event is.
    assert (
        "2 rooms play this event's games."
        in client.get(reverse("console:event_detail", args=["simul"])).content.decode()
    )
    assert (
        "A room of Simul"
        in client.get(reverse("console:event_detail", args=[lyon.slug])).content.decode()
    )
    # A filter that cannot be read is said, not a server error.
    bad = client.get(reverse("console:simultaneous", args=["simul"]) + "?series=9")
    assert bad.status_code == 302 and said(bad)


def test_a_rooms_arbiter_follows_the_ranking_from_the_room_not_the_host(host, director) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    arbiter = UserFactory(username="arnold")
    EventRoleFactory(event=room, user=arbiter, role=EventRole.Role.ARBITER)
    client = signed(arbiter)
    page = client.get(reverse("console:simultaneous", args=[room.slug]))
    assert page.status_code == 200 and 'id="room-add"' not in page.content.decode()
    assert client.get(reverse("console:simultaneous", args=["simul"])).status_code == 404
    refused = client.post(reverse("console:room_add", args=[room.slug]), {"name": "X"})
    assert refused.status_code == 403


def test_a_room_cannot_be_added_to_a_game_drawn_round_by_round(director) -> None:
    event = EventFactory(slug="night", name="Night")
    EventRoleFactory(event=event, user=director, role=EventRole.Role.DIRECTOR)
    game_create(event=event, actor=director)
    response = signed(director).post(reverse("console:room_add", args=["night"]), {"name": "B"})
    assert "Game 1 of Night is drawn round by round" in said(response)[0]
    assert not event.rooms.exists()


def test_a_remote_rooms_file_is_imported_from_the_console(host, director) -> None:
    remote = room_create(host=host, name="Far away", actor=director, remote=True)
    raw = played_elsewhere(host)
    client = signed(director)
    url = reverse("console:room_results_upload", args=[remote.slug])
    assert post(client, url, {"file": SimpleUploadedFile("r.json", raw)}) == [
        "Imported. Rounds added: 1. Players added: 2, matched: 0. Rulings added: 2, changed: 0."
    ]
    again = post(client, url, {"file": SimpleUploadedFile("r.json", raw)})
    assert again == ["This file was imported before: nothing changed."]
    page = client.get(reverse("console:simultaneous", args=[remote.slug])).content.decode()
    assert 'id="room-import"' in page and "Ann" in page
    # A conflict is listed, with nothing imported.
    other = room_create(host=host, name="Elsewhere", actor=director, remote=True)
    PlayerFactory(event=other, name="Ann", club="Far", licence="ZZ", table=1)
    messages = post(
        client,
        reverse("console:room_results_upload", args=[other.slug]),
        {"file": SimpleUploadedFile("r.json", raw)},
    )
    assert messages[0] == "Nothing imported: 2 problems."
    assert any("that licence already plays in Far away" in m for m in messages)
    assert not other.games.get().rounds.exists()
    # Not a file of ours.
    junk = post(
        client,
        reverse("console:room_results_upload", args=[other.slug]),
        {"file": SimpleUploadedFile("r.json", b"<xml/>")},
    )
    assert junk[1].startswith("Not a JSON file")


def test_the_director_api_runs_a_simultaneous(host, director) -> None:
    api = APIClient()
    api.force_login(director)
    created = api.post(
        "/api/v1/events/simul/rooms", {"name": "Far away", "remote": True}, format="json"
    )
    assert created.status_code == 201, created.content
    assert created.json() | {"slug": ""} == {
        "slug": "",
        "name": "Far away",
        "venue": "",
        "host": False,
        "remote": True,
        "players": 0,
        "published": 0,
        "last_published": None,
        "in_play": None,
        "late": False,
        "link": None,
    }
    slug = created.json()["slug"]
    # Its rooms all remote, the host may draw a game live (a multiplex: docs/design.md).
    live = api.post("/api/v1/events/simul/games", {"seed": 3}, format="json")
    assert live.status_code == 201 and live.json()["source"] == "random"
    whole = api.post("/api/v1/events/simul/games", {"in_advance": True}, format="json")
    assert whole.status_code == 201 and whole.json()["source"] == "predrawn"
    assert Event.objects.get(slug=slug).games.count() == 3  # the room got both
    assert (
        api.post("/api/v1/events/simul/games", {"in_advance": "yes"}, format="json").json()["code"]
        == "invalid"
    )
    bad = api.post("/api/v1/events/simul/rooms", {"name": 3}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    raw = played_elsewhere(host)
    url = f"/api/v1/events/{slug}/room-results"
    imported = api.post(url, {"file": SimpleUploadedFile("r.json", raw)}, format="multipart")
    assert imported.status_code == 200, imported.content
    assert imported.json()["changed"] and imported.json()["players_added"] == 2
    twice = api.post(url, {"file": SimpleUploadedFile("r.json", raw)}, format="multipart")
    assert not twice.json()["changed"] and twice.json()["rulings_unchanged"] == 2
    nothing = api.post(url, {}, format="multipart")
    assert nothing.status_code == 400 and nothing.json()["code"] == "no_file"
    wrong = api.post(
        url, {"file": SimpleUploadedFile("r.json", b'{"format": "x"}')}, format="multipart"
    )
    assert wrong.status_code == 400 and wrong.json()["code"] == "bad_file"
    assert wrong.json()["errors"][0].startswith("Not a room results file")
    rooms = api.get(f"/api/v1/events/{slug}/rooms").json()
    assert [r["name"] for r in rooms] == ["Simul", "Far away"] and rooms[0]["host"]
    assert rooms[1]["published"] == 1 and rooms[1]["last_published"] == {"game": 1, "round": 1}
    ranking = api.get("/api/v1/events/simul/simultaneous/standings?common=1").json()
    assert ranking["common"] is True and ranking["host"] == "simul"
    ann = next(r for r in ranking["rows"] if r["name"] == "Ann")
    assert ann["rank"] == 1 and ann["room"] == "Far away" and ann["room_rounds"] == 1
    assert ann["gap"] == 0
    back = api.get(f"/api/v1/events/{slug}/room-results").json()
    assert [p["name"] for p in back["players"]] == ["Ann", "Bob"]


def test_only_directors_add_rooms_and_import_files(host, director) -> None:
    remote = room_create(host=host, name="Far away", actor=director, remote=True)
    arbiter = UserFactory(username="arnold")
    EventRoleFactory(event=remote, user=arbiter, role=EventRole.Role.ARBITER)
    EventRoleFactory(event=host, user=arbiter, role=EventRole.Role.ARBITER)
    api = APIClient()
    api.force_login(arbiter)
    assert api.post("/api/v1/events/simul/rooms", {"name": "X"}, format="json").status_code == 403
    upload = {"file": SimpleUploadedFile("r.json", b"{}")}
    url = f"/api/v1/events/{remote.slug}/room-results"
    assert api.post(url, upload, format="multipart").status_code == 403
    assert Player.objects.filter(event=remote).count() == 0


def test_a_room_results_upload_may_be_larger_than_other_requests(settings) -> None:
    assert body_limit("/events/x/simultaneous/import/") > MAX_BYTES
    assert body_limit("/api/v1/events/x/room-results") > MAX_BYTES
    assert body_limit("/api/v1/events/x/rooms") == settings.REQUEST_BODY_MAX_BYTES


def test_the_one_ranking_downloads_as_csv_and_workbook(host, director) -> None:
    import csv
    import io

    import openpyxl

    remote = room_create(host=host, name="Far away", actor=director, remote=True)
    from arbiter.services.rooms import room_results_import

    room_results_import(room=remote, raw=played_elsewhere(host), actor=director)
    client = signed(director)
    # From the room's address as from the host's: the simultaneous's ranking.
    response = client.get(reverse("exports:ranking_csv", args=[remote.slug]) + "?common=1")
    assert response["Content-Disposition"] == 'attachment; filename="simul-ranking.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:10] == [
        "Rank",
        "Overall rank",
        "Player",
        "Licence",
        "Club",
        "Series",
        "Age category",
        "Room",
        "Rounds",
        "Total",
    ]
    assert [r[2] for r in rows[1:]] == ["Ann", "Bob"]
    assert rows[1][7:9] == ["Far away", "1"] and rows[1][11] == "0"  # Ann: the top, gap 0
    book = openpyxl.load_workbook(
        io.BytesIO(client.get(reverse("exports:ranking_xlsx", args=["simul"])).content)
    )
    assert book.sheetnames == ["Event", "Ranking"]
    ranking = book["Ranking"]
    assert [c.value for c in ranking[1]][7] == "Room"
    assert ranking["C2"].value == "Ann" and ranking["H2"].value == "Far away"
    assert "whole field" in ranking["N1"].comment.text
    bad = client.get(reverse("exports:ranking_csv", args=["simul"]) + "?series=12")
    assert bad.status_code in (302, 400)


def test_a_rooms_screen_shows_the_one_ranking_when_asked(host, director) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    (cleo,) = [PlayerFactory(event=room, name="Cleo", club="Lyon", table=1)]
    PlayerFactory(event=host, name="Ann", club="Paris", table=1)
    from tests.arbiter.rooms.helpers import play

    play(room, {cleo: "top"})
    client = signed(director)
    page = client.get(reverse("screen:screen", args=[room.slug]) + "?ranking=simultaneous")
    assert "state.json?ranking=simultaneous" in page.content.decode()
    state = client.get(reverse("screen:state", args=[room.slug]) + "?ranking=simultaneous")
    data = state.json()
    assert data["simultaneous"] is True
    assert [(r["name"], r["room"]) for r in data["standings"]] == [
        ("Cleo", "Lyon"),
        ("Ann", "Simul"),
    ]
    own = client.get(reverse("screen:state", args=[room.slug])).json()
    assert own["simultaneous"] is False and [r["name"] for r in own["standings"]] == ["Cleo"]


def test_a_rooms_setup_shows_the_hosts_rules_without_changing_them(host, director) -> None:
    room = room_create(host=host, name="Lyon", actor=director)
    client = signed(director)
    page = client.get(reverse("console:setup", args=[room.slug])).content.decode()
    assert 'name="solo_bonus"' in page and "Set by the simultaneous&#x27;s host." in page
    assert 'id="room-games"' in page and "console/setup/game" not in page
    # The form posts every rule: the shared ones are kept, the room's own change.
    data = {f: getattr(room, f) for f in POLICY_FIELDS if getattr(room, f) is not None}
    data |= {"solo_bonus": 99, "grace_seconds": 25, "reference_rule_2016": "on"}
    said_now = post(client, reverse("console:setup_post", args=[room.slug, "policy"]), data)
    assert said_now == ["The rules policy is saved."]
    room.refresh_from_db()
    assert room.solo_bonus == host.solo_bonus and room.grace_seconds == 25


def test_a_game_drawn_round_by_round_has_no_predrawn_document(director) -> None:
    event = EventFactory(slug="night")
    EventRoleFactory(event=event, user=director, role=EventRole.Role.DIRECTOR)
    game_create(event=event, actor=director)
    client = signed(director)
    assert client.post(reverse("exports:game_predrawn", args=["night", 1])).status_code == 405
    response = client.get(reverse("exports:game_predrawn", args=["night", 1]), follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Game 1 is drawn round by round: it has no pre-drawn document."
    ]
