"""A multiplex over HTTP (issue 38; docs/interchange.md 5.1): the host director's room keys,
the feed and the results call authenticated by the room key (``Authorization: Room <key>``),
each refusal a coded 4xx, and the consoles that show the link."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from arbiter.services.multiplex_remote import feed_apply, results_enqueue
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.arbiter.rooms.helpers import people, play
from tests.factories import EventFactory, EventRoleFactory, UserFactory
from tournament.models import EventRole, MultiplexLink, RoomReceipt
from tournament.services.games import game_create
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def centre():
    director = UserFactory(username="centre")
    host = EventFactory(name="Multiplex", slug="multiplex", solo_min_players=99)
    EventRoleFactory(event=host, user=director, role=EventRole.Role.DIRECTOR)
    game_create(event=host, actor=director, seed=99)
    room = room_create(host=host, name="Dakar", actor=director, remote=True)
    api = APIClient()
    api.force_login(director)
    return host, room, director, api


def _room(key: str | None) -> APIClient:
    client = APIClient()
    if key is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Room {key}")
    return client


def _refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and isinstance(body["detail"], str) and body["detail"], body
    return body


def test_the_host_director_issues_and_revokes_a_room_key(centre) -> None:
    host, room, director, api = centre
    issued = api.post(f"/api/v1/events/{room.slug}/room-key")
    assert issued.status_code == 201, issued.content
    key = issued.json()["key"]
    assert key.startswith("mxk1_") and issued.json()["hint"] == key[-4:]
    assert _room(key).get("/api/v1/multiplex/feed").status_code == 200
    _refused(api.post("/api/v1/events/multiplex/room-key"), 400, "not_a_remote_room")
    stranger = UserFactory(username="stranger")
    outsider = APIClient()
    outsider.force_login(stranger)
    assert outsider.post(f"/api/v1/events/{room.slug}/room-key").status_code == 404
    assert api.delete(f"/api/v1/events/{room.slug}/room-key").json()["revoked"] == 1
    _refused(_room(key).get("/api/v1/multiplex/feed"), 401, "room_key_revoked")


def test_the_feed_and_results_refuse_without_a_valid_key(centre) -> None:
    _refused(_room(None).get("/api/v1/multiplex/feed"), 401, "room_key_required")
    _refused(_room("mxk1_nothing").get("/api/v1/multiplex/feed"), 401, "unknown_room_key")
    _refused(_room("mxk1_nothing").post("/api/v1/multiplex/results"), 401, "unknown_room_key")
    # A staff session is not a room key.
    _, _, _, api = centre
    _refused(api.get("/api/v1/multiplex/feed"), 401, "room_key_required")


def test_the_feed_resumes_from_its_cursor_and_results_come_back_once(centre) -> None:
    host, room, director, api = centre
    key = api.post(f"/api/v1/events/{room.slug}/room-key").json()["key"]
    client = _room(key)
    first = client.get("/api/v1/multiplex/feed?after=0").json()
    assert first["format"] == "duplicate-multiplex-feed" and first["version"] == 1
    assert [m["type"] for m in first["messages"]] == ["game"]
    assert first["rules"]["solo_min_players"] == 99 and first["room"]["name"] == "Dakar"
    drawn = open_round(host.games.get())
    after = client.get(f"/api/v1/multiplex/feed?after={first['cursor']}").json()
    assert [(m["type"], m["rack"]) for m in after["messages"]] == [("round", drawn.rack)]
    again = client.get(f"/api/v1/multiplex/feed?after={after['cursor']}").json()
    assert again["messages"] == [] and again["cursor"] == after["cursor"]
    _refused(client.get("/api/v1/multiplex/feed?after=x"), 400, "bad_cursor")
    # The remote side, here in the same database, plays the round and queues its results.
    there = EventFactory(name="Club", slug="club-dakar", solo_min_players=99)
    link = MultiplexLink.objects.create(event=there, host_url="http://127.0.0.1:1", key=key)
    feed_apply(link, client.get("/api/v1/multiplex/feed?after=0").json())
    (cleo,) = people(there, "Cleo", club="Dakar")
    finish_round(drawn, T0)
    feed_apply(link, client.get(f"/api/v1/multiplex/feed?after={link.cursor}").json())
    play(there, {cleo: "top"})
    results_enqueue(link)
    (item,) = link.outbox.all()
    body = json.dumps(item.payload)
    url = "/api/v1/multiplex/results"
    accepted = client.post(url, body, content_type="application/json")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert accepted.json()["players_added"] == 1 and accepted.json()["rulings_added"] == 1
    replay = client.post(url, body, content_type="application/json")
    assert replay.json() == {"status": "duplicate", "version": 1}
    _refused(client.post(url, b"{}", content_type="application/json"), 400, "bad_message")
    later = json.loads(body)
    later["multiplex"]["round"] = 5
    later["games"][0]["rounds"][0]["number"] = 5
    _refused(
        client.post(url, json.dumps(later), content_type="application/json"), 409, "round_unknown"
    )
    assert RoomReceipt.objects.get(room=room).version == 1
    # The host's director sees the room's link and its progress.
    rooms = {r["name"]: r for r in api.get("/api/v1/events/multiplex/rooms").json()}
    assert rooms["Dakar"]["link"]["received"] == 1 and not rooms["Dakar"]["link"]["offline"]
    assert rooms["Dakar"]["published"] == 1 and rooms["Dakar"]["late"] is False
    page = api.get("/events/multiplex/simultaneous/").content.decode()
    assert "remote: live link" in page and "1 round received" in page
    ranking = api.get("/api/v1/events/multiplex/simultaneous/standings").json()
    assert {r["name"]: r["room"] for r in ranking["rows"]} == {"Cleo": "Dakar"}


def test_the_rooms_console_says_what_it_waits_for(centre) -> None:
    host, room, director, api = centre
    there = EventFactory(name="Club", slug="club-dakar")
    EventRoleFactory(event=there, user=director, role=EventRole.Role.DIRECTOR)
    _refused(api.get("/api/v1/events/club-dakar/multiplex"), 404, "no_multiplex_link")
    refused = api.post(
        "/api/v1/events/club-dakar/multiplex",
        {"host_url": "http://centre.example.org", "key": "mxk1_x"},
        format="json",
    )
    _refused(refused, 400, "host_url_not_https")
    MultiplexLink.objects.create(
        event=there,
        host_url="http://127.0.0.1:9",
        key="mxk1_secret",
        host_event="Multiplex",
        room_name="Dakar",
        last_error="The host cannot be reached: ConnectionRefusedError.",
        last_error_code="host_unreachable",
    )
    said = api.get("/api/v1/events/club-dakar/multiplex").json()
    assert said["connected"] is False and said["error_code"] == "host_unreachable"
    assert "mxk1_secret" not in json.dumps(said)
    page = api.get("/events/club-dakar/").content.decode()
    assert "Multiplex link" in page and "The host cannot be reached" in page
    assert "mxk1_secret" not in page


@override_settings(
    REST_FRAMEWORK={
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "multiplex": "3/min",
        },
    }
)
def test_one_address_trying_keys_is_limited_before_any_key_is_looked_up(centre) -> None:
    from django.core.cache import cache

    cache.clear()
    codes = [_room(f"wrong-{n}").get("/api/v1/multiplex/feed").status_code for n in range(4)]
    assert codes == [401, 401, 401, 429]
    throttled = _room("wrong").get("/api/v1/multiplex/feed")
    assert throttled.status_code == 429 and throttled.json()["code"] == "throttled"
    assert int(throttled["Retry-After"]) > 0
