"""What the phone's script takes from the server rather than its own copy of a rule: whether a
ruling's move is on the board (``placed``, from ``arbiter.rules.PLACED_CODES``: the script's
copy had left out the final-letter penalty) and whether the round takes a slip now (the slip
service's rule, the grace included)."""

from __future__ import annotations

import pytest

from arbiter.rules import PLACED_CODES
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.web.api.conftest import seconds

pytestmark = pytest.mark.django_db

STATE = "/api/v1/play/state"
SUBMISSIONS = "/api/v1/play/submissions"


def test_every_ruling_a_phone_sees_says_whether_its_move_is_on_the_board(
    frozen_clock, phone, players, game
) -> None:
    ann, bob, _ = players
    r = open_round(game, now=T0)
    for player, word, score in ((ann, "WROTE", 24), (bob, "QUIZ", 99)):
        slip = {"round": 1, "ref": "H4", "word": word, "score": score}
        assert phone(player).post(SUBMISSIONS, slip, format="json").status_code == 201
    finish_round(r, T0 + seconds(190))
    seen = {}
    for player in (ann, bob):
        state = phone(player).get(STATE).json()
        result, listed = state["result"]["ruling"], state["slips"][0]["ruling"]
        assert result["placed"] is listed["placed"] is (result["code"] in PLACED_CODES)
        seen[player.name] = result["placed"]
    assert seen == {"Ann": True, "Bob": False}


def test_the_round_accepts_slips_through_the_grace_as_the_slip_service_does(
    frozen_clock, phone, ann, game
) -> None:
    open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(185))  # past the 20:03:00 deadline, within the 10 s grace
    assert phone(ann).get(STATE).json()["round"]["accepts_slips"] is True
    slip = {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}
    assert phone(ann).post(SUBMISSIONS, slip, format="json").status_code == 201
