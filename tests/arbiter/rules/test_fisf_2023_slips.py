"""The regulation in force, FISF 2023 ("Règlement du Scrabble® duplicate francophone de
compétition, en vigueur au 1er janvier 2023"), articles 5.3 to 5.8: one slip ruled, each test
naming its article, and what ``before-2023`` (an event played before) rules instead where they
differ. docs/rules.md quotes each article with these examples.

The board is the rulebook's (HORN at H6, round 2, the rack AFMEIOT: FARM down through the R of
HORN, 8F, is worth 9); the numbers of other placements come from the engine (``worth``).
"""

from __future__ import annotations

from arbiter.rules import Code, Slip
from engine.board import Board
from engine.formula import Formula
from engine.movegen import generate
from tests.arbiter.rules.helpers import (
    BEFORE_2023,
    EN,
    ENABLE,
    FISF_2023,
    board_of,
    judge,
    worth,
)
from tests.arbiter.test_rules_properties import BEFORE_2023 as OLD
from tests.arbiter.test_rules_properties import FISF_2023 as NEW
from tests.arbiter.test_rules_properties import judge as judged
from tests.arbiter.test_rules_properties import position


def fisf(board: Board, slip: Slip, rack: str = "AFMEIOT", round_number: int = 2):
    return judge(board, rack, round_number=round_number, policy=FISF_2023).rule(slip)


def before(board: Board, slip: Slip, rack: str = "AFMEIOT", round_number: int = 2):
    return judge(board, rack, round_number=round_number, policy=BEFORE_2023).rule(slip)


def facts(ruled) -> tuple:
    return (ruled.code, ruled.points, ruled.penalty, ruled.warning, ruled.article)


# -- 5.3: an inverted reference, tolerated with a warning ----------------------------------------


def test_5_3_an_inverted_reference_is_a_correct_localisation_with_a_warning(horn: Board) -> None:
    # "l'inversion du sens du mot sur le bulletin OU de la référence est tolérée : localisation
    # correcte mais solution sanctionnée d'un avertissement"
    assert worth(horn, "8F", "FARM") == 9
    ruled = fisf(horn, Slip("FARM", "F8", 9))
    assert facts(ruled) == (Code.VALID_WARNING, 9, 0, True, "FISF 2023 · 5.3")
    assert "inverted" in ruled.reason and "8F" in ruled.reason
    # before 2023, a swapped reference was a change of direction: FARM F8 9 -> 0
    assert before(horn, Slip("FARM", "F8", 9)).points == 0


def test_5_3_2_an_inverted_reference_with_a_wrong_score_earns_the_real_score(horn: Board) -> None:
    ruled = fisf(horn, Slip("FARM", "F8", 12))
    assert facts(ruled) == (Code.VALID_WARNING, 9, 0, True, "FISF 2023 · 5.3.2")


def test_5_3_a_reference_right_for_its_own_direction_is_the_slip_s_own_place(horn: Board) -> None:
    # MOAT from G7: across 22, down 10; a slip's sense is its reference's form (6.3: the reading
    # most favourable when the slip cannot say more)
    assert (worth(horn, "G7", "MOAT"), worth(horn, "7G", "MOAT")) == (22, 10)
    assert facts(fisf(horn, Slip("MOAT", "G7", 22))) == (
        Code.VALID,
        22,
        0,
        False,
        "FISF 2023 · 5.3.1",
    )
    assert facts(fisf(horn, Slip("MOAT", "7G", 10))) == (
        Code.VALID,
        10,
        0,
        False,
        "FISF 2023 · 5.3.1",
    )
    # the other direction's score on the written square: the inverted reference's, a warning
    assert facts(fisf(horn, Slip("MOAT", "7G", 22))) == (
        Code.VALID_WARNING,
        22,
        0,
        True,
        "FISF 2023 · 5.3",
    )
    # a wrong score: the written place's real score and a warning (5.3.2)
    assert facts(fisf(horn, Slip("MOAT", "7G", 15)))[:4] == (Code.VALID_WARNING, 10, 0, True)


# -- 5.3.3 and 5.6: a score existing elsewhere, less 5 -------------------------------------------


def test_5_3_3_the_announced_score_of_the_word_elsewhere_less_5(horn: Board) -> None:
    ruled = fisf(horn, Slip("FARM", "9F", 9))
    assert facts(ruled) == (Code.REFERENCE_PENALTY, 9, 5, False, "FISF 2023 · 5.3.3")
    assert ruled.net == 4
    assert fisf(horn, Slip("FARM", "", 9)).net == 4  # localisation absent
    assert fisf(horn, Slip("FARM", "XYZ", 9)).net == 4  # junction letters that locate nothing


def test_5_3_3_the_score_must_exist_in_the_sense_written(horn: Board) -> None:
    # FARM fits only down here: an across reference with the down score is no solution
    ruled = fisf(horn, Slip("FARM", "A1", 9))
    assert (ruled.code, ruled.points) != (Code.REFERENCE_PENALTY, 9)
    assert ruled.net == 0


def test_5_3_3_a_fallacious_junction_is_a_zero_the_arbiter_decides(horn: Board) -> None:
    # "sauf dans le cas où le mot joué pour ce score peut, à certaines places, donner lieu à un
    # « raccordement fallacieux » (mot formé en raccord non valide mais plausible), auquel cas le
    # bulletin est sanctionné par un zéro"
    ruled = fisf(horn, Slip("FARM", "9F", 9, fallacious=True))
    assert facts(ruled) == (Code.FALLACIOUS, 0, 0, False, "FISF 2023 · 5.3.3")
    assert ruled.move_score == 9


def test_5_6_the_penalty_on_a_solution_of_4_points_or_less_is_a_zero(horn: Board) -> None:
    # "Si cette pénalité de 5 points doit être appliquée à une solution rapportant au plus
    # 4 points, le bulletin est sanctionné d'un zéro (pas de score négatif !)"
    assert worth(horn, "8E", "TEAR") == 4
    ruled = fisf(horn, Slip("TEAR", "9E", 4))
    assert ruled.code is Code.REFERENCE_PENALTY and ruled.net == 0
    assert ruled.article == "FISF 2023 · 5.6"


def test_5_3_3_wrong_score_and_wrong_place_is_a_zero(horn: Board) -> None:
    ruled = fisf(horn, Slip("FARM", "9F", 10))
    assert (ruled.code, ruled.net, ruled.article) == (Code.BAD_REFERENCE, 0, "FISF 2023 · 5.4.1.a")


# -- 5.3, exception: an extension's reference is ignored -----------------------------------------


def test_5_3_an_extended_word_of_three_letters_or_more_needs_no_reference(horn: Board) -> None:
    # "en cas de prolongement d'un mot d'au moins trois lettres déjà sur la grille, la référence
    # alphanumérique est ignorée"
    hornet = worth(horn, "H6", "HORNET")
    for ref in ("", "A1", "6H", "H7"):
        ruled = fisf(horn, Slip("HORNET", ref, hornet))
        assert (ruled.code, ruled.points, ruled.penalty, ruled.warning) == (
            Code.VALID,
            hornet,
            0,
            False,
        ), ref


def test_5_5_a_two_letter_word_extended_without_its_reference_is_a_warning() -> None:
    # 5.5: "Dans le cas du prolongement d'un mot de 2 lettres déjà sur la grille, absence d'une
    # troisième lettre de raccord et de la référence alphanumérique correcte."
    board, rack = board_of("HORN@H6", "EF@I6"), "AEIRSTL"  # HE down column 6
    leathers = worth(board, "6D", "LEATHERS", rack)
    assert leathers == 15
    ruled = fisf(board, Slip("LEATHERS", "", 15), rack)
    assert facts(ruled) == (Code.VALID_WARNING, 15, 0, True, "FISF 2023 · 5.5")
    assert facts(fisf(board, Slip("LEATHERS", "6D", 15), rack))[:4] == (Code.VALID, 15, 0, False)
    # before 2023 (case 16), any extended word needed no reference
    assert facts(before(board, Slip("LEATHERS", "", 15), rack))[:4] == (Code.VALID, 15, 0, False)


def test_4_3_2_round_2_after_a_two_letter_first_word_two_junction_letters_suffice() -> None:
    # "sauf au deuxième coup, si le mot joué au premier coup ne comporte que deux lettres"
    board, rack = board_of("OX@H8"), "AEIRSTL"
    score = worth(board, "H7", "LOX", rack)
    assert facts(fisf(board, Slip("LOX", "OX", score), rack))[:4] == (Code.VALID, score, 0, False)
    assert facts(fisf(board, Slip("LOX", "", score), rack))[:4] == (Code.VALID, score, 0, False)


# -- 4.3.2 and 5.4.2.b: junction letters -------------------------------------------------------


def test_4_3_2_junction_letters_locate_the_word(horn: Board) -> None:
    assert facts(fisf(horn, Slip("FARM", "HOR", 9))) == (
        Code.VALID,
        9,
        0,
        False,
        "FISF 2023 · 5.3.1",
    )
    two = fisf(horn, Slip("FARM", "OR", 9))  # 5.5: "raccord de deux lettres seulement"
    assert facts(two) == (Code.VALID_WARNING, 9, 0, True, "FISF 2023 · 5.5")
    # one letter changed: a parasitic letter (5.2.2), the two left locate it, with a warning
    altered = fisf(horn, Slip("FARM", "HPR", 9))
    assert facts(altered) == (Code.VALID_WARNING, 9, 0, True, "FISF 2023 · 5.5")


def test_5_4_2_b_junction_letters_fitting_several_places_pay_the_least(horn: Board) -> None:
    # MOTIF joins HOR at I3 (31), 5F (18) and 7G (14). "si le score indiqué correspond à une
    # place correcte, il est appliqué ; sinon le score minimum est appliqué (en excluant la
    # nullité ...)"
    scores = {ref: worth(horn, ref, "MOTIF") for ref in ("I3", "5F", "7G")}
    assert scores == {"I3": 31, "5F": 18, "7G": 14}
    assert facts(fisf(horn, Slip("MOTIF", "HOR", 18)))[:4] == (Code.VALID, 18, 0, False)
    least = fisf(horn, Slip("MOTIF", "HOR", 20))
    assert facts(least) == (Code.VALID_WARNING, 14, 0, True, "FISF 2023 · 5.4.2.b")
    # "... sauf si l'une des places possibles forme un raccordement fallacieux"
    assert fisf(horn, Slip("MOTIF", "HOR", 20, fallacious=True)).code is Code.FALLACIOUS
    # before 2023 (case 13): several places none worth the score is a wrong reference
    assert before(horn, Slip("MOTIF", "HOR", 20)).net == 0


# -- 5.3.1 and 5.3.2 for a move with a joker: the circlings -------------------------------------


def test_5_3_1_a_score_existing_for_another_circling_is_paid_with_a_warning() -> None:
    # SALTIES at G1 needs the blank as one S: the first S on a letter premium, or the last
    board, rack = board_of("HORN@H6"), "AEIT?SL"
    least, most = worth(board, "G1", "SALTIEs", rack), worth(board, "G1", "sALTIES", rack)
    assert least < most
    # "le score est considéré comme exact à cette place s'il correspond à l'encerclement présent
    # sur le bulletin, existant pour le mot joué à cette place s'il correspond à un autre
    # encerclement possible"
    ruled = fisf(board, Slip("SALTIES", "G1", most), rack)  # no circle: the announced score
    assert facts(ruled) == (Code.VALID_WARNING, most, 0, True, "FISF 2023 · 5.3.1")
    assert facts(fisf(board, Slip("sALTIES", "G1", most), rack))[:4] == (Code.VALID, most, 0, False)
    assert facts(fisf(board, Slip("sALTIES", "G1", least), rack))[:4] == (
        Code.VALID_WARNING,
        least,
        0,
        True,
    )
    # before 2023 (case 3): the blanks where they score least, whatever was announced
    assert before(board, Slip("SALTIES", "G1", most), rack).points == least


def test_5_3_2_a_wrong_score_pays_the_circling_written_or_the_least() -> None:
    board, rack = board_of("HORN@H6"), "AEIT?SL"
    least, most = worth(board, "G1", "SALTIEs", rack), worth(board, "G1", "sALTIES", rack)
    # the circling written is possible: its score, with a warning
    written = fisf(board, Slip("sALTIES", "G1", 3), rack)
    assert facts(written) == (Code.VALID_WARNING, most, 0, True, "FISF 2023 · 5.3.2")
    # no circling possible as written: "le score minimum parmi les divers encerclements
    # possibles de lettres absentes du tirage, assorti d'un avertissement"
    assert facts(fisf(board, Slip("SALTIES", "G1", 3), rack))[:4] == (
        Code.VALID_WARNING,
        least,
        0,
        True,
    )


# -- 5.8: one warning, never with a penalty ------------------------------------------------------


def test_5_8_no_warning_with_a_penalty() -> None:
    # SALTIES announced at its score elsewhere with the blank not circled: before 2023 the
    # penalty and a warning for the blank; under the text, "un avertissement ne se cumule pas
    # avec une pénalité"
    board, rack = board_of("HORN@H6"), "AEIT?SL"
    least = worth(board, "G1", "SALTIEs", rack)
    ruled = fisf(board, Slip("SALTIES", "A1", least), rack)
    assert (ruled.code, ruled.penalty, ruled.warning) == (Code.REFERENCE_PENALTY, 5, False)
    old = before(board, Slip("SALTIES", "A1", least), rack)
    assert (old.code, old.penalty, old.warning) == (Code.REFERENCE_PENALTY, 5, True)


def test_5_8_an_inverted_reference_and_a_wrong_score_are_one_warning(horn: Board) -> None:
    ruled = fisf(horn, Slip("FARM", "F8", None))
    assert ruled.warning is True and ruled.points == 9  # one warning, a boolean per slip


# -- 5.4.2.a: the first move ---------------------------------------------------------------------


def test_5_4_2_a_the_first_move_earns_the_word_s_maximum_whatever_its_circling() -> None:
    # "le score maximum pour le mot joué est attribué, cela quelle que soit la référence
    # alphanumérique éventuelle et quel que soit l'encerclement éventuel en cas de coup joker ;
    # le bulletin est sanctionné d'un avertissement si le score est absent ou différent du
    # maximum pour le mot joué ou si l'encerclement ne correspond pas au score maximum"
    empty, rack = Board(), "TRAINS?"
    best = {
        w: max(worth(empty, f"H{c}", w, rack) for c in range(3, 9)) for w in ("TRAINS", "TRAiNS")
    }
    assert best == {"TRAINS": 14, "TRAiNS": 12}  # the blank as the I, the real I kept
    j = judge(empty, rack, round_number=1, policy=FISF_2023)
    right = j.rule(Slip("TRAINS", "A1", 14))
    assert facts(right) == (Code.VALID, 14, 0, False, "FISF 2023 · 5.4.2.a")
    wrong_circle = j.rule(Slip("TRAiNS", "", 14))  # the maximum, the circling's warning
    assert facts(wrong_circle) == (Code.VALID_WARNING, 14, 0, True, "FISF 2023 · 5.4.2.a")
    assert "TRAINS" in wrong_circle.reason
    no_score = j.rule(Slip("TRAINS", "H8", None))
    assert facts(no_score)[:4] == (Code.VALID_WARNING, 14, 0, True)
    # before 2023 (case 5): the best position of the circling written
    old = judge(empty, rack, round_number=1, policy=BEFORE_2023).rule(Slip("TRAiNS", "", 12))
    assert (old.points, old.warning) == (12, False)


# -- 5.7 and 5.4.1: the zeros --------------------------------------------------------------------


def test_5_7_the_nullities_cite_the_article(horn: Board) -> None:
    j = judge(horn, policy=FISF_2023)
    assert j.rule(None).article == "FISF 2023 · 5.7"
    assert j.rule(Slip("FARM", "8F", 9, late=True)).article == "FISF 2023 · 5.7"
    assert j.rule(Slip("FARM", "8F", 9, multiple=True)).article == "FISF 2023 · 5.7"
    assert j.rule(Slip("F4RM", "8F", 9)).article == "FISF 2023 · 5.7"


def test_5_4_1_letter_and_grid_errors(horn: Board) -> None:
    letter = fisf(horn, Slip("FARMS", "8F", 10))  # no S on the rack
    assert (letter.code, letter.article) == (Code.NOT_ON_RACK, "FISF 2023 · 5.4.1.d")
    assert "FARMS" in ENABLE
    grid = fisf(horn, Slip("MOTIFE", "A1", 10), rack="AFMEIOT")
    assert grid.net == 0 and grid.article.startswith("FISF 2023 · 5.4.1")


def test_5_7_a_word_not_written_in_full_is_a_zero(horn: Board) -> None:
    # 5.7 "n'est pas écrit en entier": OME for OMEN down onto the N of HORN. Before 2023 (case
    # 17, the 2010 amendments), the final letter left out cost 5 points.
    assert fisf(horn, Slip("OME", "9E", 7)).net == 0
    assert before(horn, Slip("OME", "9E", 7)).net == 2


def test_4_3_2_junction_letters_prefer_the_place_circled_as_written() -> None:
    # Seed 2's round 2 (rack DLOSUU?): DOIt at 6F and DOiT at 5E are both worth 8 and join NTI.
    # 5.3.1: the place where the circling written is legal, with no warning; before 2023 (case
    # 13) the first placement in board order, re-marked with the blanks' warning.
    board, rack, moves = position(2, 2)
    assert rack == "DLOSUU?"
    slip = Slip("DOIt", "NTI", 8)
    new = judged(board, rack, 2, moves, NEW).rule(slip)
    assert (new.code, new.points, new.warning) == (Code.VALID, 8, False)
    assert {col for _row, col, _tile in new.placed} == {5}  # column 6: DOIt at 6F
    old = judged(board, rack, 2, moves, OLD).rule(slip)
    assert (old.code, old.points, old.warning) == (Code.VALID_WARNING, 8, True)


# -- 3.8: a game in an original formula ----------------------------------------------------------


def test_3_8_2_the_judge_rules_by_the_game_s_formula() -> None:
    # "Partie « 7 et 8 » : [...] S'il utilise les huit, il marque 75 points de prime."
    # "Partie « 7 sur 8 » : [...] on ne peut en utiliser que sept au maximum": a move of eight
    # is no solution with the rack's letters (5.4.1.d).
    empty, rack = Board(), "ADEINRST"

    def first(name: str, slip: Slip):
        formula = Formula.parse(name)
        moves = generate(empty, rack, ENABLE, EN, formula=formula)
        j = judge(empty, rack, round_number=1, policy=FISF_2023)
        j.formula, j.top_score = formula, moves[0].score
        return j.rule(slip)

    seven_and_eight = first("7et8", Slip("STRAINED", "H1", 135))
    assert (seven_and_eight.code, seven_and_eight.points) == (Code.VALID, 135)
    seven_of_eight = first("7sur8", Slip("STRAINED", "H1", 135))
    assert (seven_of_eight.code, seven_of_eight.points) == (Code.NOT_ON_RACK, 0)
    assert seven_of_eight.article == "FISF 2023 · 5.4.1.d"
    assert first("7sur8", Slip("TRAINED", "H6", 70)).points == 70


def test_4_3_2_two_junction_letters_when_the_board_holds_only_the_first_two_letter_word() -> None:
    # TOE down through the O of OX joins OX without extending it: two junction letters are all
    # the board has in round 2 ("sauf au deuxième coup, si le mot joué au premier coup ne
    # comporte que deux lettres"); with a third tile on the board they earn the warning (5.5)
    board, rack = board_of("OX@H8"), "AEIRSTL"
    toe = worth(board, "8G", "TOE", rack)
    assert facts(fisf(board, Slip("TOE", "OX", toe), rack))[:4] == (Code.VALID, toe, 0, False)
    later = board_of("OX@H8", "AX@9G")  # A above the X: three tiles
    toe_later = worth(later, "8G", "TOE", rack)
    ruled = fisf(later, Slip("TOE", "OX", toe_later), rack)
    assert facts(ruled) == (Code.VALID_WARNING, toe_later, 0, True, "FISF 2023 · 5.5")
