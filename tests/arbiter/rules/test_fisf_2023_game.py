"""The regulation in force (FISF 2023) through the services, for what a round's or a game's
rulings derive and what the arbiter decides: the solo (3.5), the warnings' penalty (5.9), the
average after a repeated invalid word (5.9), the fallacious junction (5.3.3), a late arrival
(6.2); and each event's rulebook (chosen at creation, kept once a round is scored, every event
created before it kept on ``before-2023``).

The room is the rule tests' (five players, a solo from three), round 1 HORN at H6 with everyone
missing, round 2 the rack AFMEIOT: FARM 8F is worth 9, MOAT G7 22, OMEN 9E 7, TEAR 8E 4.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from arbiter.rules import Policy, Rulebook, round_average, solo_winner, warning_penalties
from arbiter.selectors.standings import standings_event
from arbiter.services import corrections, publishing
from arbiter.state import policy_for
from tests.arbiter.rules.helpers import CLOSING, ROUND_2, horn_game, phone, rulings, score
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tournament.errors import ApplicationError
from tournament.models import Event
from tournament.services.events import event_create, event_policy_update

pytestmark = pytest.mark.django_db

FISF = Policy(rulebook=Rulebook.FISF_2023)
BEFORE = Policy(rulebook=Rulebook.BEFORE_2023)


# -- 3.5: the solo ---------------------------------------------------------------------------


def test_3_5_a_solo_is_the_one_score_above_every_other_even_below_the_top() -> None:
    # "Est crédité d'un solo tout joueur, dont le mot sur un coup donné réalise un score
    # supérieur à celui de tous les autres joueurs, même si sa solution est inférieure à celle
    # effectivement retenue par le juge-arbitre."
    assert solo_winner(FISF, 16, scores={1: 30, 2: 28, 3: 0}) == 1
    assert solo_winner(FISF, 16, scores={1: 30, 2: 30, 3: 0}) is None  # two at the best
    assert solo_winner(FISF, 16, scores={1: 0, 2: 0}) is None  # nobody scored
    assert solo_winner(FISF, 16, scores={}) is None
    # "Si le nombre de joueurs est au moins de seize, l'auteur d'un solo bénéficie d'une
    # bonification de 10 points."
    assert solo_winner(FISF, 15, scores={1: 30, 2: 28}) is None
    # before 2023: the one finder of the top, whatever the scores
    assert solo_winner(BEFORE, 16, finders=[], scores={1: 30, 2: 28}) is None


def test_3_5_through_the_services_the_best_score_of_the_round_has_the_solo(
    paper_room_2023,
) -> None:
    ann, bob, cleo, *_ = paper_room_2023
    game, r = horn_game(paper_room_2023)
    phone(ann, r, "FARM", "8F", 9)
    phone(bob, r, "OMEN", "9E", 7)
    phone(cleo, r, "TEAR", "8E", 4)
    scored = score(r)
    said = rulings(scored)
    assert scored.tops[0]["score"] == 31  # the top is not found
    assert (said["Ann"].found_top, said["Ann"].solo) == (False, 10)
    assert said["Bob"].solo == said["Cleo"].solo == 0


def test_3_5_scores_are_compared_before_the_5_point_penalty(paper_room_2023) -> None:
    # "Les scores sont comparés avant application éventuelle d'une pénalité de 5 points."
    ann, bob, cleo, *_ = paper_room_2023
    game, r = horn_game(paper_room_2023)
    phone(ann, r, "FARM", "9F", 9)  # 5.3.3: 9 less 5
    phone(bob, r, "OMEN", "9E", 7)
    phone(cleo, r, "TEAR", "8E", 4)
    said = rulings(score(r))
    assert (said["Ann"].points - said["Ann"].penalty, said["Ann"].solo) == (4, 10)
    assert said["Bob"].solo == 0


def test_3_5_before_2023_the_same_round_has_no_solo(paper_room) -> None:
    ann, bob, cleo, *_ = paper_room
    game, r = horn_game(paper_room)
    phone(ann, r, "FARM", "8F", 9)
    phone(bob, r, "OMEN", "9E", 7)
    phone(cleo, r, "TEAR", "8E", 4)
    said = rulings(score(r))
    assert all(ruling.solo == 0 for ruling in said.values())


# -- 5.9: the warnings' penalty --------------------------------------------------------------


def test_5_9_warnings_cost_from_the_fourth_and_from_the_sixth_in_blitz() -> None:
    # "Au quatrième (sixième en blitz ou partie originale), il se voit retirer cinq points de
    # pénalité. Il en va de même à chaque nouvel avertissement qui suit."
    assert warning_penalties([1] * 7, FISF) == [0, 0, 0, 5, 5, 5, 5]
    blitz = Policy(rulebook=Rulebook.FISF_2023, blitz_or_original=True)
    assert warning_penalties([1] * 7, blitz) == [0, 0, 0, 0, 0, 5, 5]
    old_blitz = Policy(rulebook=Rulebook.BEFORE_2023, blitz_or_original=True)
    assert warning_penalties([1] * 7, old_blitz) == [0, 0, 0, 5, 5, 5, 5]


def test_5_9_a_one_minute_event_is_a_blitz() -> None:
    # 1.3: "une minute (appelé « blitz »)"
    assert policy_for(EventFactory(round_seconds=60)).free_warnings == 5
    assert policy_for(EventFactory(round_seconds=120)).free_warnings == 3  # semi-rapide
    assert policy_for(EventFactory(round_seconds=60, rulebook="before-2023")).free_warnings == 3


# -- 5.9: the average after a repeated invalid word --------------------------------------------


def test_5_9_the_average_counts_every_other_player_zeros_included_capped_by_the_own_solution() -> (
    None
):
    # "la moyenne (arrondie au nombre entier immédiatement inférieur) des scores obtenus par tous
    # les autres joueurs ... (zéros inclus et autres cas de moyenne exclus) ... Il ne peut en
    # aucun cas marquer plus de points que sa solution proposée."
    assert round_average(FISF, [9, 22, 4, 0]) == 8
    assert round_average(FISF, [9, 22, 4, 0], own_solution=6) == 6
    assert round_average(BEFORE, [9, 22, 4, 0], own_solution=6) == 8


def test_5_9_an_average_through_an_amendment(paper_room_2023, director) -> None:
    ann, bob, cleo, dan, _eve = paper_room_2023
    game, r = horn_game(paper_room_2023)
    phone(ann, r, "IO", "G9", 6)  # not a word: 0, worth 6 had it been one
    phone(bob, r, "FARM", "8F", 9)
    phone(cleo, r, "MOAT", "G7", 22)
    phone(dan, r, "FARMS", "8F", 10)  # tiles not on the rack: 0
    said = rulings(score(r))
    assert (said["Ann"].code, said["Ann"].move_score) == ("invalid_word", 6)
    amended = corrections.ruling_amend(
        ruling=said["Ann"], averaged=True, reason="IO again, not told", actor=director
    )
    # (9 + 22 + 0) // 3 = 10, but never more than IO's 6
    assert amended.points == 6
    with pytest.raises(ApplicationError) as refused:
        corrections.ruling_amend(ruling=said["Dan"], averaged=True, reason="again", actor=director)
    assert refused.value.code == "average_not_allowed"


# -- 5.3.3: the arbiter's fallacious junction ---------------------------------------------------


def test_5_3_3_the_arbiter_rules_a_fallacious_junction_by_an_amendment(
    paper_room_2023, director
) -> None:
    ann, *_ = paper_room_2023
    game, r = horn_game(paper_room_2023)
    phone(ann, r, "FARM", "9F", 9)
    said = rulings(score(r))
    assert (said["Ann"].code, said["Ann"].points - said["Ann"].penalty) == ("reference_penalty", 4)
    ruled = corrections.ruling_amend(
        ruling=said["Ann"],
        fallacious=True,
        reason="FARM at 9F would form ON: plausible",
        actor=director,
    )
    assert (ruled.code, ruled.points, ruled.article) == ("fallacious_junction", 0, "11")
    back = corrections.ruling_amend(
        ruling=ruled, fallacious=False, reason="not plausible after all", actor=director
    )
    assert back.points - back.penalty == 4


# -- 6.2: a late arrival ------------------------------------------------------------------------


def test_6_2_a_late_arrival_s_rounds_already_played_count_zero(paper_room_2023) -> None:
    # "Quand un joueur ... arrive en retard, tous les coups déjà joués lui sont comptés comme
    # nuls."
    ann, *_ = paper_room_2023
    game, r = horn_game(paper_room_2023)
    late = PlayerFactory(event=ann.event, name="Zoé", table=9)
    phone(late, r, "FARM", "8F", 9)
    scored = score(r)
    top = scored.tops[0]
    publishing.round_top_choose(round=scored, ref=top["ref"], word=top["word"], actor=None)
    publishing.round_publish(round=scored, actor=None, now=ROUND_2 + CLOSING)
    rows = {row.name: row for row in standings_event(event=ann.event).rows}
    assert rows["Zoé"].total == 9  # round 1: nothing


# -- the rulebook of an event --------------------------------------------------------------------


def test_a_new_event_is_ruled_by_the_regulation_in_force() -> None:
    event = event_create(name="Club night", starts_on=dt.date(2026, 12, 1), actor=None)
    assert event.rulebook == "fisf-2023"
    old = event_create(
        name="Replay", starts_on=dt.date(2026, 12, 1), actor=None, rulebook="before-2023"
    )
    assert old.rulebook == "before-2023"
    with pytest.raises(ApplicationError):
        event_create(name="Bad", starts_on=dt.date(2026, 12, 1), actor=None, rulebook="2016")


def test_the_rulebook_is_kept_once_a_round_is_scored(paper_room_2023) -> None:
    event = paper_room_2023[0].event
    event_policy_update(event=event, actor=None, rulebook="before-2023")  # nothing scored yet
    event_policy_update(event=event, actor=None, rulebook="fisf-2023")
    horn_game(paper_room_2023)  # round 1 scored and published
    with pytest.raises(ApplicationError) as refused:
        event_policy_update(event=event, actor=None, rulebook="before-2023")
    assert refused.value.code == "rulebook_locked"
    event.refresh_from_db()
    assert event.rulebook == "fisf-2023"
    event_policy_update(event=event, actor=None, rulebook="fisf-2023")  # the same: no change


@pytest.mark.django_db(transaction=True)
def test_every_event_that_existed_before_keeps_the_rules_it_was_ruled_by() -> None:
    """Migration 0023: the events of an installation that upgrades are ``before-2023``."""
    executor = MigrationExecutor(connection)
    before, after = (
        [("tournament", "0022_constraint_messages")],
        [("tournament", "0023_fisf_2023_rulebook")],
    )
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("tournament", "Event")
    old.objects.create(name="Played in 2025", slug="played-2025", starts_on=dt.date(2025, 5, 1))
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Event.objects.get(slug="played-2025").rulebook == "before-2023"
    assert EventFactory().rulebook == "fisf-2023"
    Event.objects.filter(slug="played-2025").delete()


def test_5_9_a_game_in_an_original_formula_has_two_more_free_warnings() -> None:
    # "Au quatrième (sixième en blitz ou partie originale)"
    event = EventFactory(round_seconds=180)
    standard = GameFactory(event=event, number=1)
    joker = GameFactory(event=event, number=2, formula="joker")
    assert policy_for(event, standard).free_warnings == 3
    assert policy_for(event, joker).free_warnings == 5
