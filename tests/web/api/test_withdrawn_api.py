"""The player API and a withdrawn player or a closed event: the slip is refused with a code and
a detail a phone can show; reinstating lets the phone hand in again."""

from __future__ import annotations

import pytest

from tests.arbiter.conftest import T0, finish_round, open_round
from tests.web.api.conftest import seconds
from tournament.models import Submission
from tournament.services.closing import event_close
from tournament.services.players import player_reinstate, player_withdraw

pytestmark = pytest.mark.django_db
SUBMISSIONS = "/api/v1/play/submissions"
SLIP = {"round": 1, "word": "WROTE", "ref": "H4", "score": 24}


def test_a_withdrawn_players_api_slip_is_refused_then_taken_once_reinstated(
    frozen_clock, phone, ann, game
) -> None:
    open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(20))
    player_withdraw(player=ann, actor=None)
    refused = phone(ann).post(SUBMISSIONS, SLIP, format="json")
    assert refused.status_code == 403
    body = refused.json()
    assert body["code"] == "withdrawn"
    assert body["detail"] == (
        "Ann has withdrawn from Spring open: no slip is taken from or for them "
        "(the director can reinstate them)."
    )
    assert not Submission.objects.filter(player=ann).exists()
    player_reinstate(player=ann, actor=None)
    assert phone(ann).post(SUBMISSIONS, SLIP, format="json").status_code == 201


def test_a_slip_to_a_closed_event_is_a_conflict_saying_so(frozen_clock, phone, ann, game) -> None:
    finish_round(open_round(game, now=T0), T0)
    event_close(event=game.event, actor=None)
    refused = phone(ann).post(SUBMISSIONS, SLIP, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "event_closed" and "is closed" in refused.json()["detail"]
