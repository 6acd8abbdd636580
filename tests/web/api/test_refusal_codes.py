"""Every refusal of the staff and director API is ``{"detail", "code"}`` (docs/design.md): a
refusal made by a console action, by a service, by the role check, by DRF itself (not signed
in, not found), each with the code a client switches on and its detail in the reader's
language. ``tests/test_error_codes.py`` checks every raise site; these check the answers."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

BASE = "/api/v1/events/club-night"


@pytest.fixture
def room(club_night):
    event, director, arbiter = club_night
    client = APIClient()
    client.force_login(director)
    assert client.post(f"{BASE}/games", {"seed": 7}, format="json").status_code == 201
    return event, director, arbiter


def _api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) >= {"detail", "code"} and body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    return body


@pytest.mark.django_db
def test_pausing_a_game_with_no_round_in_play_says_so_with_a_code(room) -> None:
    """The issue's example: ``/games/1/pause`` answered a 400 with only a detail."""
    _, director, _ = room
    answer = _api(director).post(f"{BASE}/games/1/pause", {}, format="json")
    body = _refused(answer, 400, "no_round_in_play")
    assert set(body) == {"detail", "code"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("action", "body", "code"),
    [
        ("fly", {}, "unknown_action"),
        ("extend", {"seconds": "ten"}, "bad_number"),
        ("extend", {"seconds": True}, "not_a_number"),
        ("amend", {"ruling": 99999, "reason": "r"}, "no_such_ruling"),
        ("amend_slip", {"round": 1, "table": 1, "reason": "r"}, "round_not_published"),
        ("discipline", {"round": 4, "table": 1, "reason": "r"}, "no_such_round"),
        ("slip", {"table": 9}, "no_such_table"),
        ("slip", {"table": 1, "existing": "both"}, "bad_existing"),
        ("resolve", {"kept": "third"}, "bad_kept"),
        ("choose_top", {"ref": "H8!"}, "bad_reference"),
        ("rack", {"rack": "x" * 17}, "too_long"),
    ],
)
def test_a_refused_game_action_names_its_code(room, action, body, code) -> None:
    _, director, _ = room
    api = _api(director)
    assert api.post(f"{BASE}/games/1/draw", {}, format="json").status_code == 200
    answer = api.post(f"{BASE}/games/1/{action}", body, format="json")
    _refused(answer, 400, code)


@pytest.mark.django_db
def test_a_service_s_refusal_keeps_the_service_s_code(room) -> None:
    _, director, _ = room
    api = _api(director)
    assert api.post(f"{BASE}/games/1/draw", {}, format="json").status_code == 200
    _refused(api.post(f"{BASE}/games/1/draw", {}, format="json"), 400, "round_in_play")
    wrong = _refused(
        api.post(f"{BASE}/games/1/resume", {}, format="json"), 400, "round_wrong_status"
    )
    assert (wrong["status"], wrong["allowed"]) == ("drawn", ["open"])  # what a client can act on


@pytest.mark.django_db
def test_the_role_check_and_drf_s_own_refusals_carry_a_code(room) -> None:
    _, director, arbiter = room
    denied = _refused(
        _api(arbiter).post(f"{BASE}/games/1/annul", {"reason": "r"}, format="json"),
        403,
        "permission_denied",
    )
    assert "director" in denied["detail"]  # the role check's sentence, not DRF's generic one
    _refused(_api().post(f"{BASE}/games/1/pause", {}, format="json"), 403, "not_authenticated")
    _refused(_api(director).get("/api/v1/events/nowhere"), 404, "not_found")
    _refused(_api(director).get(f"{BASE}/games/9"), 404, "not_found")
    _refused(
        _api(director).post(f"{BASE}/games/1/pause", "{", content_type="application/json"),
        400,
        "parse_error",
    )
    _refused(_api(director).patch(BASE, {"colour": "red"}, format="json"), 400, "unknown_field")


@pytest.mark.django_db
def test_the_detail_is_in_the_readers_language_the_code_is_not(room) -> None:
    _, director, _ = room
    answer = _api(director).post(
        f"{BASE}/games/1/pause", {}, format="json", HTTP_ACCEPT_LANGUAGE="fr"
    )
    body = _refused(answer, 400, "no_round_in_play")
    assert "Partie 1" in body["detail"] or "partie 1" in body["detail"], body
