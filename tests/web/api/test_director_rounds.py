"""The director API does what the console does (issue 27.4): a round's rulings per player with
their ids and every field, ``amend`` on a ruling by its id (JSON booleans, and the form's "1"/"0"
still read), a disciplinary warning given and withdrawn by its id, games of racks typed from the
bag and pre-drawn engine documents created through the API."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from arbiter.services.clock import rounds_sweep
from tests.factories import PlayerFactory, UserFactory
from tournament.models import Discipline, Game, Ruling, Submission

BASE = "/api/v1/events/club-night"


@pytest.fixture
def room(club_night):
    event, director, arbiter = club_night  # Ann at table 1
    PlayerFactory(event=event, name="Bob", table=2)
    return event, director, arbiter


def _api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _ok(response, status: int = 200) -> dict:
    assert response.status_code == status, response.content
    return response.json()


def _published_round(director, arbiter) -> None:
    """Game 1, round 1 played through the API: Ann's slip typed by the arbiter, Bob's a zero,
    closed, scored (the sweep a worker runs), published."""
    _ok(_api(director).post(f"{BASE}/games", {"seed": 7}, format="json"), 201)
    api = _api(arbiter)
    _ok(api.post(f"{BASE}/games/1/draw", {}, format="json"))
    _ok(api.post(f"{BASE}/games/1/open", {}, format="json"))
    typed = _ok(
        api.post(
            f"{BASE}/games/1/slip",
            {"table": 1, "ref": "H8", "word": "ZZZ", "score": 10},
            format="json",
        )
    )
    assert typed["slip"] == Submission.objects.get(player__name="Ann").pk  # the answer's id
    _ok(api.post(f"{BASE}/games/1/slip", {"table": 2, "ref": "H8", "word": "QQQ"}, format="json"))
    _ok(api.post(f"{BASE}/games/1/close", {}, format="json"))
    rounds_sweep(now=timezone.now() + dt.timedelta(seconds=5))  # closes and scores it
    _ok(api.post(f"{BASE}/games/1/publish", {}, format="json"))


@pytest.mark.django_db
def test_a_rounds_rulings_read_with_their_ids_and_every_field(room) -> None:
    _, director, arbiter = room
    _published_round(director, arbiter)
    body = _ok(_api(arbiter).get(f"{BASE}/games/1/rounds/1"))
    assert (body["number"], body["status"]) == (1, "published") and len(body["rack"]) == 7
    assert body["played"] is not None and body["mismatches"] == [] and body["disciplines"] == []
    assert [(r["table"], r["name"]) for r in body["rulings"]] == [(1, "Ann"), (2, "Bob")]
    fields = {f.name for f in Ruling._meta.concrete_fields}
    for row in body["rulings"]:
        stored = Ruling.objects.get(pk=row["id"])
        assert fields <= set(row), fields - set(row)  # every field of the model
        assert (row["code"], row["points"], row["total"]) == (
            stored.code,
            stored.points,
            stored.total,
        )
        assert row["slip"]["id"] == stored.submission_id and row["slip"]["word"] in {"ZZZ", "QQQ"}
    assert _api(arbiter).get(f"{BASE}/games/1/rounds/2").json()["code"] == "no_such_round"
    outsider = UserFactory(username="otto")
    assert _api(outsider).get(f"{BASE}/games/1/rounds/1").status_code == 404


@pytest.mark.django_db
def test_amend_takes_a_rulings_id_and_json_booleans_as_late_does(room) -> None:
    _, director, arbiter = room
    _published_round(director, arbiter)
    api = _api(arbiter)
    rulings = _ok(api.get(f"{BASE}/games/1/rounds/1"))["rulings"]
    bob = next(r for r in rulings if r["name"] == "Bob")
    assert not bob["averaged"] and not bob["warning"]

    answer = _ok(
        api.post(
            f"{BASE}/games/1/amend",
            {"ruling": bob["id"], "averaged": True, "warning": True, "reason": "second zero"},
            format="json",
        )
    )
    assert answer["ruling"] == bob["id"] and answer["detail"].startswith("Bob: now")
    stored = Ruling.objects.get(pk=bob["id"])
    assert (stored.averaged, stored.warning, stored.amended) == (True, True, True)

    # false takes them back; null or absent leaves one alone
    _ok(
        api.post(
            f"{BASE}/games/1/amend",
            {"ruling": bob["id"], "warning": False, "averaged": None, "reason": "no"},
            format="json",
        )
    )
    stored.refresh_from_db()
    assert (stored.averaged, stored.warning) == (True, False)
    # the form's strings, which clients may have sent, still read
    _ok(
        api.post(
            f"{BASE}/games/1/amend",
            {"ruling": bob["id"], "averaged": "0", "warning": "1", "reason": "as a form"},
            format="json",
        )
    )
    stored.refresh_from_db()
    assert (stored.averaged, stored.warning) == (False, True)
    refused = api.post(
        f"{BASE}/games/1/amend",
        {"ruling": bob["id"], "averaged": "perhaps", "reason": "?"},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "not_yes_or_no"


@pytest.mark.django_db
def test_amend_and_slip_say_the_arbiters_fallacious_junction(room) -> None:
    """FISF 2023 5.3.3: the arbiter decides that a word forms a fallacious junction; the slip
    is marked and ruled again (its rulings: tests/arbiter/rules/test_fisf_2023_game.py)."""
    _, director, arbiter = room
    _published_round(director, arbiter)
    api = _api(arbiter)
    ann = next(r for r in _ok(api.get(f"{BASE}/games/1/rounds/1"))["rulings"] if r["name"] == "Ann")
    marked = _ok(
        api.post(
            f"{BASE}/games/1/amend",
            {"ruling": ann["id"], "fallacious": True, "reason": "ZZZ forms a plausible word"},
            format="json",
        )
    )
    assert Submission.objects.get(player__name="Ann", is_current=True).fallacious is True
    again = _ok(  # the slip ruled again: a new ruling, its id in the answer
        api.post(
            f"{BASE}/games/1/amend",
            {"ruling": marked["ruling"], "fallacious": False, "reason": "it does not"},
            format="json",
        )
    )
    assert Submission.objects.get(player__name="Ann", is_current=True).fallacious is False
    refused = api.post(
        f"{BASE}/games/1/amend",
        {"ruling": again["ruling"], "fallacious": "perhaps", "reason": "?"},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "not_yes_or_no"
    _ok(api.post(f"{BASE}/games/1/draw", {}, format="json"))
    _ok(api.post(f"{BASE}/games/1/open", {}, format="json"))
    typed = {"table": 2, "ref": "A1", "word": "QQQ", "score": 9, "fallacious": True}
    slip = _ok(api.post(f"{BASE}/games/1/slip", typed, format="json"))["slip"]
    assert Submission.objects.get(pk=slip).fallacious is True


@pytest.mark.django_db
def test_a_disciplinary_warning_is_given_and_withdrawn_by_its_id(room) -> None:
    _, director, arbiter = room
    _published_round(director, arbiter)
    api = _api(arbiter)
    given = _ok(
        api.post(
            f"{BASE}/games/1/discipline",
            {"round": 1, "table": 2, "reason": "talking"},
            format="json",
        )
    )
    listed = _ok(api.get(f"{BASE}/games/1/rounds/1"))["disciplines"]
    assert [(d["id"], d["table"], d["reason"]) for d in listed] == [
        (given["discipline"], 2, "talking")
    ]
    _ok(
        api.post(
            f"{BASE}/games/1/discipline_withdraw",
            {"discipline": given["discipline"], "reason": "misheard"},
            format="json",
        )
    )
    assert not Discipline.objects.filter(pk=given["discipline"]).exists()
    assert _ok(api.get(f"{BASE}/games/1/rounds/1"))["disciplines"] == []


@pytest.mark.django_db
def test_a_game_of_racks_typed_from_the_bag_is_made_and_played_through_the_api(room) -> None:
    _, director, arbiter = room
    made = _ok(_api(director).post(f"{BASE}/games", {"source": "manual"}, format="json"), 201)
    assert made["source"] == "manual" and Game.objects.get(number=1).source == "manual"
    api = _api(arbiter)
    drawn = api.post(f"{BASE}/games/1/draw", {}, format="json")
    assert drawn.status_code == 400 and drawn.json()["code"] == "racks_typed"
    typed = _ok(api.post(f"{BASE}/games/1/rack", {"rack": "AEINRST"}, format="json"))
    assert "AEINRST" in typed["detail"]
    for bad, code in (
        ({"source": "bag"}, "unknown_source"),
        ({"source": "manual", "seed": 3}, "invalid"),
        ({"source": "predrawn"}, "predrawn_required"),
    ):
        refused = _api(director).post(f"{BASE}/games", bad, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == code, bad


@pytest.mark.django_db
def test_an_engine_document_becomes_a_pre_drawn_game_through_the_api(room) -> None:
    _, director, _ = room
    document = json.loads(
        subprocess.run(
            [sys.executable, "-m", "engine", "game", "--json", "--seed", "3"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    made = _ok(
        _api(director).post(
            f"{BASE}/games", {"source": "predrawn", "predrawn": document}, format="json"
        ),
        201,
    )
    assert made["source"] == "predrawn" and made["number"] == 1
    assert Game.objects.get(number=1).predrawn["rounds"] == document["rounds"]
