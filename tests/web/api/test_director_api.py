"""The director API (web.api.director, issue 16.5): events, games, a game's state and actions,
standings, by session or by a personal token; every refusal a 4xx saying why; and the README's
example script running a whole round against a live server."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arbiter.services.clock import rounds_sweep
from tests.factories import EventFactory, EventRoleFactory, PlayerFactory, UserFactory
from tournament.models import AuditEntry, Event, EventRole, Round

ROOT = Path(__file__).resolve().parents[3]


def client_of(user=None, token: str | None = None) -> APIClient:
    client = APIClient()
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    elif user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def room(db):
    event = EventFactory(name="Club night", slug="club-night", grace_seconds=0)
    director, arbiter = UserFactory(username="dora"), UserFactory(username="arnold")
    EventRoleFactory(event=event, user=director, role=EventRole.Role.DIRECTOR)
    EventRoleFactory(event=event, user=arbiter, role=EventRole.Role.ARBITER)
    for table, name in enumerate(["Ann", "Bob"], start=1):
        PlayerFactory(event=event, name=name, table=table, series=2 if name == "Ann" else 4)
    return event, director, arbiter


@pytest.mark.django_db
def test_a_token_from_drf_create_token_signs_a_script_in_and_a_bad_one_is_refused(room) -> None:
    _, director, _ = room
    out = io.StringIO()
    call_command("drf_create_token", director.username, stdout=out)
    key = Token.objects.get(user=director).key
    assert key in out.getvalue()
    listed = client_of(token=key).get("/api/v1/events")
    assert listed.status_code == 200
    assert [(e["slug"], e["role"]) for e in listed.json()] == [("club-night", "director")]
    refused = client_of(token="nope").get("/api/v1/events")
    assert refused.status_code == 403 and refused.json()["detail"] == "Invalid token."
    assert client_of().get("/api/v1/events").status_code == 403


@pytest.mark.django_db
def test_someone_signed_in_creates_an_event_and_directs_it(room) -> None:
    otto = UserFactory(username="otto")
    body = {"name": "Spring cup", "starts_on": "2026-12-05", "venue": "Lyon", "round_seconds": 120}
    made = client_of(otto).post("/api/v1/events", body, format="json")
    assert made.status_code == 201, made.content
    data = made.json()
    assert data["role"] == "director" and data["policy"]["round_seconds"] == 120
    assert data["policy"]["grace_seconds"] == 10  # the rest keep their defaults
    assert EventRole.objects.get(event__slug=data["slug"]).user == otto
    assert [e["slug"] for e in client_of(otto).get("/api/v1/events").json()] == [data["slug"]]


@pytest.mark.django_db
def test_an_event_is_ruled_by_the_regulation_in_force_unless_it_says_before_2023(room) -> None:
    """docs/rules.md: the rulebook is chosen at creation (``rulebook``), named in the policy
    and the phones' state, and kept once a round is scored (tests/arbiter/rules)."""
    otto = UserFactory(username="otto")
    body = {"name": "Spring cup", "starts_on": "2026-12-05"}
    made = client_of(otto).post("/api/v1/events", body, format="json").json()
    assert made["policy"]["rulebook"] == "fisf-2023"
    replay = client_of(otto).post(
        "/api/v1/events", {**body, "name": "Replay", "rulebook": "before-2023"}, format="json"
    )
    assert replay.status_code == 201 and replay.json()["policy"]["rulebook"] == "before-2023"
    changed = client_of(otto).patch(
        f"/api/v1/events/{made['slug']}", {"rulebook": "before-2023"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["policy"]["rulebook"] == "before-2023"
    kept = client_of(otto).patch(
        f"/api/v1/events/{made['slug']}", {"round_seconds": 150}, format="json"
    )
    assert kept.json()["policy"]["rulebook"] == "before-2023"  # a PATCH without it keeps it


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"starts_on": "2026-12-05"}, "name"),
        ({"name": "X", "starts_on": "not a date"}, "starts_on"),
        ({"name": "X", "starts_on": "2026-12-05", "colour": "red"}, "Not a field of this call"),
        ({"name": "X", "starts_on": "2026-12-05", "round_seconds": 20}, "warning time"),
        ({"name": "X", "starts_on": "2026-12-05", "tile_set": "xx"}, "tile_set"),
        ({"name": "X", "starts_on": "2026-12-05", "rulebook": "2016"}, "rulebook"),
    ],
)
@pytest.mark.django_db
def test_a_bad_event_is_a_400_that_says_why_and_nothing_is_made(body, says) -> None:
    answer = client_of(UserFactory()).post("/api/v1/events", body, format="json")
    assert answer.status_code == 400, answer.content
    assert says in answer.json()["detail"]
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_a_body_that_is_not_an_object_is_a_400(room) -> None:
    _, director, _ = room
    answer = client_of(director).patch("/api/v1/events/club-night", [1, 2], format="json")
    assert answer.status_code == 400 and "JSON object" in answer.json()["detail"]


@pytest.mark.django_db
def test_the_director_changes_some_rules_and_an_arbiter_may_only_read_them(room) -> None:
    event, director, arbiter = room
    read = client_of(arbiter).get("/api/v1/events/club-night")
    assert read.status_code == 200 and read.json()["role"] == "arbiter"
    assert (
        client_of(arbiter)
        .patch("/api/v1/events/club-night", {"round_seconds": 150}, format="json")
        .status_code
        == 403
    )
    changed = client_of(director).patch(
        "/api/v1/events/club-night", {"round_seconds": 150, "solo_bonus": 0}, format="json"
    )
    assert changed.status_code == 200, changed.content
    event.refresh_from_db()
    assert (event.round_seconds, event.solo_bonus, event.grace_seconds) == (150, 0, 0)
    audit = AuditEntry.objects.get(action="tournament.event.policy_changed")
    assert audit.actor == director and set(audit.data) == {"round_seconds", "solo_bonus"}
    refused = client_of(director).patch(
        "/api/v1/events/club-night", {"warning_seconds": 500}, format="json"
    )
    assert refused.status_code == 400 and "warning time" in refused.json()["detail"]
    unknown = client_of(director).patch("/api/v1/events/club-night", {"name": "X"}, format="json")
    assert unknown.status_code == 400 and "name" in unknown.json()["detail"]
    event.refresh_from_db()
    assert event.warning_seconds == 30 and event.name == "Club night"


@pytest.mark.django_db
def test_an_outsider_or_another_events_staff_sees_no_such_event(room) -> None:
    stranger = UserFactory()
    EventRoleFactory(event=EventFactory(), user=stranger, role=EventRole.Role.DIRECTOR)
    for path in ("", "/games", "/games/1", "/standings"):
        assert client_of(stranger).get(f"/api/v1/events/club-night{path}").status_code == 404


@pytest.mark.django_db
def test_a_director_adds_a_game_an_arbiter_runs_its_round_through_the_new_address(room) -> None:
    _, director, arbiter = room
    assert (
        client_of(arbiter).post("/api/v1/events/club-night/games", {}, format="json").status_code
        == 403
    )
    made = client_of(director).post("/api/v1/events/club-night/games", {"seed": 7}, format="json")
    assert made.status_code == 201 and made.json()["number"] == 1 and made.json()["seed"] == 7
    for bad in ({"seed": -1}, {"seed": "7"}, {"seed": 2**32}, {"seed": True}, {"source": "x"}):
        answer = client_of(director).post("/api/v1/events/club-night/games", bad, format="json")
        assert answer.status_code == 400, bad
    assert [
        g["number"] for g in client_of(arbiter).get("/api/v1/events/club-night/games").json()
    ] == [1]

    arbiter_api = client_of(arbiter)
    assert arbiter_api.get("/api/v1/events/club-night/games/1").json()["round"] is None
    drew = arbiter_api.post("/api/v1/events/club-night/games/1/draw", {}, format="json")
    assert drew.status_code == 200 and drew.json()["detail"].startswith("Round 1: rack")
    opened = arbiter_api.post("/api/v1/events/club-night/games/1/open", {}, format="json")
    assert opened.status_code == 200, opened.content
    state = arbiter_api.get("/api/v1/events/club-night/games/1").json()
    assert state["round"]["status"] == "open" and len(state["round"]["rack"]) == 7
    assert state["round"]["remaining_seconds"] > 0 and state["players"] == 2
    assert [m["name"] for m in state["missing"]] == ["Ann", "Bob"]
    unknown = arbiter_api.post("/api/v1/events/club-night/games/1/fly", {}, format="json")
    assert unknown.status_code in (400, 404)
    assert arbiter_api.get("/api/v1/events/club-night/games/9").status_code == 404


@pytest.mark.django_db
def test_the_standings_filter_by_category_and_a_bad_filter_is_a_400(room) -> None:
    _, director, _ = room
    api = client_of(director)
    whole = api.get("/api/v1/events/club-night/standings").json()
    assert [r["name"] for r in whole["rows"]] == ["Ann", "Bob"] and whole["rounds"] == 0
    series = api.get("/api/v1/events/club-night/standings?series=4").json()
    assert [r["name"] for r in series["rows"]] == ["Bob"] and series["filter"]["series"] == 4
    assert api.get("/api/v1/events/club-night/standings?series=9").status_code == 400
    client_of(director).post("/api/v1/events/club-night/games", {}, format="json")
    game = api.get("/api/v1/events/club-night/games/1/standings")
    assert game.status_code == 200 and len(game.json()["rows"]) == 2


@pytest.mark.django_db(transaction=True)
def test_the_readmes_script_runs_a_round_from_a_terminal(room, live_server) -> None:
    """examples/api_round.py against a live server: a new game, a rack, the round open, two
    paper slips, closed, scored (here by the sweep a worker runs), published, the standings."""
    _, director, _ = room
    key = Token.objects.create(user=director).key
    script = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "examples/api_round.py"),
            *("--url", live_server.url, "--token", key, "--event", "club-night"),
            *("--slip", "1:H8:ZZZ:10", "--slip", "2:H8:QQQ:0", "--wait", "60"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 90
    while script.poll() is None and time.monotonic() < deadline:
        rounds_sweep()  # what the worker's beat does every few seconds
        time.sleep(0.3)
    out, err = script.communicate(timeout=10)
    assert script.returncode == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Round 1: rack") and lines[1].startswith("Round 1 is open")
    assert "Table 1 (Ann)" in lines[2] and "Table 2 (Bob)" in lines[3]
    assert lines[5].startswith("Round 1 published")
    assert sorted(line.split()[1] for line in lines[6:]) == ["Ann", "Bob"]  # both at 0
    assert Round.objects.get(number=1).status == Round.Status.PUBLISHED


@pytest.mark.django_db
def test_a_director_adds_a_game_in_an_original_formula_and_its_rack_has_nine_tiles(room) -> None:
    _, director, arbiter = room
    api = client_of(director)
    made = api.post("/api/v1/events/club-night/games", {"formula": "joker+789"}, format="json")
    assert made.status_code == 201 and made.json()["formula"] == "joker+789"
    for bad in ({"formula": "8sur9"}, {"formula": 7}, {"formula": "7et8+789"}):
        answer = api.post("/api/v1/events/club-night/games", bad, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == "unknown_formula", bad
    listed = client_of(arbiter).get("/api/v1/events/club-night/games").json()
    assert [(g["number"], g["formula"]) for g in listed] == [(1, "joker+789")]
    drew = client_of(arbiter).post("/api/v1/events/club-night/games/1/draw", {}, format="json")
    assert drew.status_code == 200
    rack = client_of(arbiter).get("/api/v1/events/club-night/games/1").json()["round"]["rack"]
    assert len(rack) == 9 and rack.count("?") == 1
