"""docs/rules.md, case 5: the first move is written across, its reference optional, and
credited at its best-scoring position through the centre.
"""

from __future__ import annotations

import pytest

from arbiter.rules import Code, Slip
from arbiter.services import clock, racks, scoring
from arbiter.services.slips import slip_submit
from engine.board import Board
from engine.move import Move
from engine.movegen import generate
from engine.validate import validate
from tests.arbiter.conftest import T0
from tests.arbiter.rules.helpers import CLOSING, EN, ENABLE, judge, rulings, seconds, squares
from tests.factories import GameFactory
from tournament.models import Game

pytestmark = pytest.mark.django_db


# -- through the judge (pure: no database) ---------------------------------------------------------


def test_the_first_move_is_credited_at_its_best_position_whatever_its_reference() -> None:
    j = judge(Board(), "AEINRST", round_number=1)
    for ref in ("", "H8", "8H", "junk"):
        ruled = j.rule(Slip("NASTIER", ref, 66))
        assert (ruled.code, ruled.points) == (Code.VALID, 66), ref
        assert "best position" in ruled.reason


def test_the_first_move_with_its_blank_not_marked_is_credited_as_the_marked_word() -> None:
    j = judge(Board(), "AEINRT?", round_number=1)
    marked = j.rule(Slip("NAsTIER", "", 0))
    unmarked = j.rule(Slip("NASTIER", "", marked.points))
    assert marked.code is Code.VALID_WARNING and marked.points > 50
    assert (unmarked.code, unmarked.points, unmarked.warning) == (
        Code.VALID_WARNING,
        marked.points,
        True,
    )
    assert "NAsTIER" in unmarked.reason


def test_the_first_move_is_credited_across_through_the_centre_at_its_best_position() -> None:
    j = judge(Board(), "ELORTTW", round_number=1)
    best = max(
        (m for m in generate(Board(), "ELORTTW", ENABLE, EN) if m.word == "WROTE"),
        key=lambda m: m.score,
    )
    ruled = j.rule(Slip("WROTE", "8H", best.score))  # a down reference changes nothing
    assert (ruled.code, ruled.points, ruled.penalty, ruled.warning) == (
        Code.VALID,
        best.score,
        0,
        False,
    )
    assert {r for r, _ in squares(ruled)} == {7} and (7, 7) in squares(ruled)
    assert ruled.reason == f"first move credited at its best position {best.ref}: {best.score}"


def test_a_first_move_whose_best_position_starts_or_ends_on_the_centre_is_credited_there() -> None:
    for word, rack, where in (("BLITZ", "BLITZAE", "H8"), ("JAKES", "JAKEOUS", "H4")):
        moves = [m for m in generate(Board(), rack, ENABLE, EN) if m.word == word]
        best = max(m.score for m in moves)
        assert [m.ref for m in moves if m.score == best] == [where]  # its one best position
        ruled = judge(Board(), rack, round_number=1).rule(Slip(word, "", best))
        assert (ruled.code, ruled.points) == (Code.VALID, best), word
        assert f"best position {where}" in ruled.reason


def test_a_first_move_not_in_the_lexicon_or_not_on_the_rack_scores_zero_and_keeps_its_worth() -> (
    None
):
    j = judge(Board(), "AINRTZ?", round_number=1)
    invalid = j.rule(Slip("TRAINZ", "H4", 32))
    assert (invalid.code, invalid.points) == (Code.INVALID_WORD, 0)
    assert invalid.move_score == max(
        validate(Board(), Move.from_ref(f"H{c}", "TRAINZ"), rack="AINRTZ?", tiles=EN).score
        for c in range(3, 9)
    )
    assert len(invalid.placed) == 6 and {r for r, _ in squares(invalid)} == {7}
    missing = j.rule(Slip("QUIT", "H8", 13))
    assert (missing.code, missing.points) == (Code.NOT_ON_RACK, 0)
    assert missing.move_score is not None and len(missing.placed) == 4


# -- through the services (the rulebook game: round 1 played, round 2 open) ------------------------


def test_5_the_first_move_is_credited_at_its_best_position_with_no_2016_penalty(paper_room) -> None:
    game = GameFactory(event=paper_room[0].event, source=Game.Source.MANUAL, seed=None)
    first = racks.round_rack_enter(game=game, rack="HORNAEI", actor=None)
    first = clock.round_open(round=first, actor=None, now=T0)
    for player, ref in zip(paper_room[:3], ("H6", "", "8H"), strict=True):
        slip_submit(player=player, round=first, word="HORN", ref=ref, score=14, at=T0 + seconds(9))
    assert clock.round_close(round_id=first.pk, now=T0 + CLOSING)
    scored = scoring.round_score(round_id=first.pk, now=T0 + CLOSING)
    assert scored is not None
    got = rulings(scored)
    for name in ("Ann", "Bob", "Cleo"):
        assert (got[name].code, got[name].points, got[name].penalty) == ("valid", 14, 0), name
        assert "best position" in got[name].reason
