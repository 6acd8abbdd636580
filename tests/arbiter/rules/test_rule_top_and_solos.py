"""docs/rules.md, case 9: the top found whatever the reference penalty, the ranks among the
placements, and the solo (one finder among enough active players).
"""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.rules import Code, Policy, RoundJudge, Rulebook, Slip, score_counts, solo_winner
from arbiter.services import clock, publishing, racks, scoring
from arbiter.services.slips import slip_submit
from engine.board import Board
from engine.move import Move
from engine.movegen import generate
from tests.arbiter.rules.helpers import (
    CLOSING,
    EN,
    ENABLE,
    RACK,
    ROUND_2,
    horn_game,
    judge,
    paper,
    phone,
    rulings,
    score,
)
from tournament.models import Ruling

pytestmark = pytest.mark.django_db


# -- through the judge (pure: no database) ---------------------------------------------------------


def test_the_top_ranks_first_and_is_marked_found() -> None:
    board = Board()
    board.play(Move.parse("H4 NASTIER"))
    j = judge(board, "EHOSTUV")
    best = generate(board, "EHOSTUV", ENABLE, EN)[0]
    ruled = j.rule(Slip(best.word, best.ref, best.score))
    assert ruled.code is Code.VALID and ruled.rank == 1 and ruled.found_top


def test_a_solo_needs_one_finder_and_enough_players() -> None:
    policy = Policy(rulebook=Rulebook.BEFORE_2023)
    assert solo_winner(policy, 16, finders=[42]) == 42
    assert solo_winner(policy, 15, finders=[42]) is None
    assert solo_winner(policy, 100, finders=[42, 43]) is None
    assert solo_winner(policy, 100, finders=[]) is None


def test_ranks_count_the_placements_scoring_more() -> None:
    j = RoundJudge(
        board=Board(),
        rack="A",
        lexicon=ENABLE,
        tiles=EN,
        round_number=1,
        top_score=30,
        score_counts={30: 2, 20: 5, 10: 1},
    )
    assert (j.rank(30), j.rank(20), j.rank(10), j.rank(5)) == (1, 3, 8, 9)


def test_the_top_is_found_and_ranks_first(round_2: RoundJudge, horn: Board) -> None:
    best = generate(horn, RACK, ENABLE, EN)[0]
    ruled = round_2.rule(Slip(best.word, best.ref, best.score))
    assert (ruled.code, ruled.rank, ruled.found_top) == (Code.VALID, 1, True)


def test_ranks_share_equal_scores_and_count_every_placement_above() -> None:
    counts = score_counts([30, 20, 30, 10, 20, 20, 20, 20])
    assert counts == {30: 2, 20: 5, 10: 1}
    j = judge(Board(), "A", round_number=1)
    j.score_counts = counts
    assert [j.rank(s) for s in (31, 30, 25, 20, 10, 0)] == [1, 1, 3, 3, 8, 9]
    assert score_counts([]) == {}


def test_a_solo_is_the_one_finder_once_enough_players_play() -> None:
    policy = Policy(rulebook=Rulebook.BEFORE_2023, solo_min_players=3)
    assert solo_winner(policy, 3, finders=iter([7])) == 7
    assert solo_winner(policy, 2, finders=[7]) is None
    assert solo_winner(policy, 3, finders=[7, 8]) is None


# -- through the services (the rulebook game: round 1 played, round 2 open) ------------------------


def test_9_the_top_is_found_whatever_the_reference_penalty_and_a_solo_needs_active_players(
    paper_room,
) -> None:
    game, r = horn_game(paper_room)
    scoring.round_tops_compute(round_id=r.pk, now=ROUND_2)
    r.refresh_from_db()
    top = r.tops[0]
    phone(
        paper_room[0], r, top["word"], "", top["score"]
    )  # the top, no reference: found, penalised
    phone(paper_room[1], r, "FARM", "8F", 9)
    got = rulings(score(r))
    assert got["Ann"].found_top and got["Ann"].code == "reference_penalty"
    assert got["Ann"].solo == 0  # two active players; the event wants 3 for a solo
    paper(paper_room[2], r, "FARM", "8F", 9)  # a third player plays: the solo follows
    assert Ruling.objects.get(round=r, player=paper_room[0]).solo == 10


def test_9_no_one_found_the_top_no_solo(paper_room) -> None:
    _, r = horn_game(paper_room)
    for p in paper_room[:4]:
        phone(p, r, "FARM", "8F", 9)
    assert all(x.solo == 0 and not x.found_top for x in rulings(score(r)).values())


def test_9_a_player_who_joins_later_counts_for_the_solos_of_earlier_rounds(paper_room) -> None:
    game, r = horn_game(paper_room)
    scoring.round_tops_compute(round_id=r.pk, now=ROUND_2)
    r.refresh_from_db()
    top = r.tops[0]
    phone(paper_room[0], r, top["word"], top["ref"], top["score"])
    phone(paper_room[1], r, "FARM", "8F", 9)
    r = publishing.round_publish(round=score(r), actor=None, now=ROUND_2 + CLOSING)
    assert Ruling.objects.get(round=r, player=paper_room[0]).solo == 0  # 2 play; 3 are needed
    third = racks.round_rack_enter(game=game, rack="AEIOTLN", actor=None)
    later = ROUND_2 + dt.timedelta(minutes=10)
    third = clock.round_open(round=third, actor=None, now=later)
    slip_submit(player=paper_room[2], round=third, word="TOE", ref="", score=3, at=later)
    assert clock.round_close(round_id=third.pk, now=later + CLOSING)
    scoring.round_score(round_id=third.pk, now=later + CLOSING)
    assert Ruling.objects.get(round=r, player=paper_room[0]).solo == 10  # Cleo plays the game now
