"""Mort subite, FISF 2023 3.8.3 and 5.9, as the text says it (``arbiter.rules.sudden_death``).

3.8.3: « le(s) joueur(s) qui joue(nt) un coup inférieur en points à la solution maximale
trouvée par au moins un autre joueur est (sont) éliminé(s). Le temps de jeu diminue
progressivement : trois coups en 1 min + 20 s ; trois coups en 40 s + 20 s ; X coups en 20 s
+ 20 s. » 5.9: « En compétition « Mort Subite », toute pénalité est appliquée sur le coup
concerné, entraînant l'élimination du joueur si son score devient inférieur à celui des
autres. »
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from arbiter.rules.sudden_death import elimination_score, eliminations, sudden_death_seconds


def test_a_player_below_the_best_another_found_is_out_and_equal_ones_stay() -> None:
    # Round 1: A and B find 40, C 38: C is out. Round 2: A 25, B 25: both stay.
    # Round 3: A 30, B 12: B is out at round 3; A alone stays whatever follows.
    rounds = [(1, {1: 40, 2: 40, 3: 38}), (2, {1: 25, 2: 25}), (3, {1: 30, 2: 12}), (4, {1: 0})]
    assert eliminations([1, 2, 3], rounds) == {3: 1, 2: 3}


def test_an_out_player_stays_out_whatever_they_score_later() -> None:
    rounds = [(1, {1: 20, 2: 10}), (2, {1: 5, 2: 90})]
    assert eliminations([1, 2], rounds) == {2: 1}


def test_no_slip_scores_zero_and_a_round_where_all_score_the_same_eliminates_nobody() -> None:
    assert eliminations([1, 2, 3], [(1, {1: 12})]) == {2: 1, 3: 1}
    assert eliminations([1, 2, 3], [(1, {})]) == {}
    assert eliminations([1, 2], [(1, {1: 0, 2: 0}), (2, {1: 7, 2: 7})]) == {}


def test_a_penalty_is_applied_on_its_round_and_can_eliminate() -> None:
    # 5.9: the 5-point penalty (and the warnings' penalty) come off the round itself: the top
    # found with a wrong reference (5.3.3) is below the top found with the right one.
    found = elimination_score(points=45, penalty=0, warning_penalty=0)
    penalised = elimination_score(points=45, penalty=5, warning_penalty=0)
    warned = elimination_score(points=45, penalty=0, warning_penalty=5)
    assert (found, penalised, warned) == (45, 40, 40)
    assert eliminations([1, 2, 3], [(1, {1: found, 2: penalised, 3: warned})]) == {2: 1, 3: 1}


def test_the_rounds_are_their_own_numbers_an_annulled_one_being_skipped() -> None:
    assert eliminations([1, 2], [(1, {1: 3, 2: 3}), (3, {1: 3, 2: 1})]) == {2: 3}


def test_the_time_falls_three_rounds_at_a_minute_three_at_40_s_then_20_s_each_plus_20() -> None:
    assert [sudden_death_seconds(n) for n in range(1, 11)] == [
        60 + 20,
        60 + 20,
        60 + 20,
        40 + 20,
        40 + 20,
        40 + 20,
        20 + 20,
        20 + 20,
        20 + 20,
        20 + 20,
    ]


@given(
    st.lists(
        st.dictionaries(st.integers(0, 5), st.integers(0, 120), max_size=6), min_size=1, max_size=8
    )
)
def test_someone_always_stays_in_and_whoever_is_out_was_below_someone_still_in_then(
    scores: list[dict[int, int]],
) -> None:
    players = list(range(6))
    rounds = list(enumerate(scores, start=1))
    out = eliminations(players, rounds)
    assert len(out) < len(players)
    for player, number in out.items():
        still = [p for p in players if out.get(p, 99) >= number]
        mine = scores[number - 1].get(player, 0)
        assert any(scores[number - 1].get(p, 0) > mine for p in still if p != player)
