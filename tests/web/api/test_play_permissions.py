"""Who may call what: the player, another event's player, a revoked token, anonymous."""

from __future__ import annotations

import pytest

from tests.arbiter.conftest import T0, open_round
from tournament.models import Submission
from tournament.services.players import player_token_revoke

pytestmark = pytest.mark.django_db

SLIP = {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}
ENDPOINTS = [
    ("get", "/api/v1/play/state", None),
    ("get", "/api/v1/play/standings", None),
    ("post", "/api/v1/play/submissions", SLIP),
]
# persona -> expected status per endpoint (state, standings, submissions)
MATRIX = {
    "the player": (200, 200, 201),
    "another event's player": (200, 200, 404),
    "a revoked token": (401, 401, 401),
    "anonymous": (401, 401, 401),
}


@pytest.mark.parametrize("persona", list(MATRIX))
def test_the_permission_matrix_over_every_endpoint(
    frozen_clock, phone, players, game, stranger, persona
) -> None:
    open_round(game, now=T0)
    ann = players[0]
    if persona == "a revoked token":
        player_token_revoke(player=ann, actor=None)
    client = {
        "the player": phone(ann),
        "another event's player": phone(stranger),
        "a revoked token": phone(token=ann.token),
        "anonymous": phone(),
    }[persona]
    got = []
    for method, url, body in ENDPOINTS:
        response = (
            getattr(client, method)(url, body, format="json")
            if body
            else getattr(client, method)(url)
        )
        got.append(response.status_code)
        if response.status_code >= 400:
            assert set(response.json()) >= {"detail", "code"}
    assert tuple(got) == MATRIX[persona]
    # Whatever the caller, only the player's own slip was recorded, for the player's event.
    assert list(Submission.objects.values_list("player__name", flat=True)) == (
        ["Ann"] if persona == "the player" else []
    )


def test_another_events_player_never_sees_this_events_names_or_slips(
    frozen_clock, phone, players, game, stranger
) -> None:
    open_round(game, now=T0)
    phone(players[0]).post("/api/v1/play/submissions", SLIP, format="json")
    state = phone(stranger).get("/api/v1/play/state").content.decode()
    standings = phone(stranger).get("/api/v1/play/standings").content.decode()
    for text in (state, standings):
        assert "Ann" not in text and "Spring open" not in text and "WROTE" not in text
