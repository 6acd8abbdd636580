"""docs/rules.md, case 8: warnings' penalty, per game, each warning beyond the free ones
costs points, in the order they came, following amendments.
"""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.rules import Policy, warning_penalties
from arbiter.services import clock, corrections, publishing, racks, scoring
from arbiter.services.slips import slip_submit
from tests.arbiter.rules.helpers import CLOSING, ROUND_2, horn_game, phone, score
from tournament.models import Ruling

pytestmark = pytest.mark.django_db


# -- through the judge (pure: no database) ---------------------------------------------------------


def test_warnings_cost_points_from_the_fourth_of_a_game() -> None:
    policy = Policy()
    assert warning_penalties([True] * 5, policy) == [0, 0, 0, 5, 5]
    assert warning_penalties([True, False, True, True, False, True], policy) == [0, 0, 0, 0, 0, 5]
    assert warning_penalties([True] * 3, Policy(warnings_free=1, warning_penalty=2)) == [0, 2, 2]


def test_warnings_cost_from_the_one_beyond_the_free_ones_in_the_order_they_came() -> None:
    policy = Policy(warnings_free=2, warning_penalty=7)
    assert warning_penalties([False, True, False, True, True, False, True], policy) == [
        0,
        0,
        0,
        0,
        7,
        0,
        7,
    ]
    assert warning_penalties([], policy) == []
    assert warning_penalties([True, True], Policy(warnings_free=0)) == [5, 5]


def test_two_warnings_in_one_round_beyond_the_free_ones_cost_twice() -> None:
    from arbiter.rules import warning_penalties

    assert warning_penalties([0, 2, 1], Policy(warnings_free=0)) == [0, 10, 5]
    assert warning_penalties([2, 2], Policy(warnings_free=3)) == [0, 5]


# -- through the services (the rulebook game: round 1 played, round 2 open) ------------------------


def test_8_warnings_penalties_are_derived_and_follow_an_amendment(paper_room, director) -> None:
    event = paper_room[0].event
    event.__class__.objects.filter(pk=event.pk).update(warnings_free=1, warning_penalty=5)
    game, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", None)  # warning 1 of the game: free
    r = publishing.round_publish(round=score(r), actor=None, now=ROUND_2 + CLOSING)
    third = racks.round_rack_enter(game=game, rack="AEIOTLN", actor=None)
    later = ROUND_2 + dt.timedelta(minutes=10)
    third = clock.round_open(round=third, actor=None, now=later)
    scoring.round_tops_compute(round_id=third.pk, now=later)
    third.refresh_from_db()
    top = third.tops[0]
    slip_submit(
        player=paper_room[0], round=third, word=top["word"], ref=top["ref"], score=None, at=later
    )
    assert clock.round_close(round_id=third.pk, now=later + CLOSING)
    scoring.round_score(round_id=third.pk, now=later + CLOSING)
    ann3 = Ruling.objects.get(round=third, player=paper_room[0])
    assert (ann3.warning, ann3.warning_penalty) == (True, 5)  # the second: beyond the free one
    ann2 = Ruling.objects.get(round=r, player=paper_room[0])
    corrections.ruling_amend(ruling=ann2, warning=False, reason="score was legible", actor=director)
    ann3.refresh_from_db()
    assert (ann3.warning, ann3.warning_penalty) == (True, 0)  # now the first: free
    corrections.ruling_amend(ruling=ann2, warning=True, reason="it was not", actor=director)
    ann3.refresh_from_db()
    assert ann3.warning_penalty == 5
