"""docs/rules.md, cases 7 and 12: two slips for one round (the last before the deadline
stands; an arbiter's entry over a slip is an explicit choice), late and missing slips, and
paper slips handed in on time but typed after the close.
"""

from __future__ import annotations

import pytest

from arbiter.rules import Code, RoundJudge, Slip
from arbiter.services import clock, publishing, scoring
from arbiter.services.slips import Existing, SlipRefused, slip_submit
from engine.board import Board
from tests.arbiter.rules.helpers import (
    CLOSING,
    ROUND_2,
    horn_game,
    judge,
    paper,
    phone,
    rulings,
    score,
    seconds,
)
from tournament.models import Ruling, Submission

pytestmark = pytest.mark.django_db


# -- through the judge (pure: no database) ---------------------------------------------------------


def test_a_malformed_late_or_missing_slip_scores_zero() -> None:
    j = judge(Board(), "AEINRST", round_number=1)
    assert j.rule(Slip("", "H8", 0)).code is Code.MALFORMED
    assert j.rule(Slip("TRAIN!", "H8", 12)).code is Code.MALFORMED
    assert j.rule(Slip("TRAIN", "H4", 12, late=True)).code is Code.LATE
    assert j.rule(None).code is Code.MISSING
    assert all(j.rule(s).points == 0 for s in (None, Slip("", "", None)))


def test_a_slip_handed_in_several_times_is_multiple_even_when_also_late(
    round_2: RoundJudge,
) -> None:
    both = round_2.rule(Slip("FARM", "8F", 9, late=True, multiple=True))
    late = round_2.rule(Slip("FARM", "8F", 9, late=True))
    for ruled, code in ((both, Code.MULTIPLE), (late, Code.LATE)):
        assert (ruled.code, ruled.points, ruled.move_score, ruled.rank) == (code, 0, None, None)
        assert not ruled.found_top and ruled.placed == ()


# -- through the services (the rulebook game: round 1 played, round 2 open) ------------------------


def test_7_two_slips_from_a_phone_the_last_before_the_deadline_stands(paper_room) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 12)
    slip_submit(
        player=paper_room[0], round=r, word="FARM", ref="8F", score=9, at=ROUND_2 + seconds(60)
    )
    assert Submission.objects.filter(round=r, player=paper_room[0]).count() == 2
    assert (rulings(score(r))["Ann"].code, rulings(r)["Ann"].points) == ("valid", 9)


def test_7_an_arbiter_entry_over_a_slip_is_an_explicit_choice_never_a_silent_one(
    paper_room,
) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    phone(paper_room[1], r, "FARM", "8F", 9)
    with pytest.raises(SlipRefused) as refused:
        paper(paper_room[0], r, "FARM", "8F", 12)
    assert refused.value.code == "slip_exists"
    assert refused.value.data["existing"]["word"] == "FARM"
    paper(paper_room[0], r, "FARM", "8F", 12, existing=Existing.CORRECTION)
    paper(paper_room[1], r, "MOTIF", "9B", 20, existing=Existing.MULTIPLE)
    got = rulings(score(r))
    assert (got["Ann"].code, got["Ann"].points, got["Ann"].warning) == ("valid_warning", 9, True)
    assert (got["Bob"].code, got["Bob"].points) == ("multiple", 0)
    assert Submission.objects.filter(round=r, player=paper_room[1]).count() == 2


def test_12_paper_slips_typed_after_the_close_and_after_the_scoring_are_on_time(paper_room) -> None:
    _, r = horn_game(paper_room)
    assert clock.round_close(round_id=r.pk, now=ROUND_2 + CLOSING)
    paper(paper_room[0], r, "FARM", "8F", 9)  # typed after the close: ruled with the others
    scored = scoring.round_score(round_id=r.pk, now=ROUND_2 + CLOSING)
    assert scored is not None
    assert rulings(scored)["Ann"].points == 9
    paper(paper_room[1], r, "FARM", "8F", 9)  # typed after the scoring: ruled at once
    bob = Ruling.objects.get(round=r, player=paper_room[1])
    assert (bob.code, bob.points, bob.submission.source) == ("valid", 9, "arbiter")
    paper(paper_room[2], r, "FARM", "8F", 9, late=True)  # only the arbiter marks it late
    assert Ruling.objects.get(round=r, player=paper_room[2]).code == "late"
    publishing.round_publish(round=scored, actor=None, now=ROUND_2 + CLOSING)
    with pytest.raises(SlipRefused) as refused:
        paper(paper_room[3], r, "FARM", "8F", 9)
    assert refused.value.code == "round_published"


def test_12_a_phone_slip_that_arrived_on_time_is_ruled_even_when_processed_after_the_close(
    paper_room,
) -> None:
    _, r = horn_game(paper_room)
    assert clock.round_close(round_id=r.pk, now=ROUND_2 + CLOSING)
    scoring.round_score(round_id=r.pk, now=ROUND_2 + CLOSING)
    arrived = ROUND_2 + seconds(185)  # before the deadline plus the grace
    slip_submit(player=paper_room[0], round=r, word="FARM", ref="8F", score=9, at=arrived)
    assert Ruling.objects.get(round=r, player=paper_room[0]).points == 9
    with pytest.raises(SlipRefused) as refused:
        slip_submit(
            player=paper_room[1],
            round=r,
            word="FARM",
            ref="8F",
            score=9,
            at=ROUND_2 + CLOSING + seconds(1),
        )
    assert refused.value.code == "deadline_passed"
