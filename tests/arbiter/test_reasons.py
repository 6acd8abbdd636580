"""The engine's problems said in the room's words: every fault and every error code the engine
raises has its sentence in ``arbiter.reasons``, and a French judge says every zero in French,
naming the list by the name the event knows it by."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

from arbiter.reasons import ERRORS, FAULTS
from arbiter.rules import Code, RoundJudge, Slip, score_counts
from engine.board import Board
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import generate
from engine.tiles import TileSet
from engine.validate import Fault

ENGINE = Path(__file__).resolve().parents[2] / "engine"
EN = TileSet.load("en")
ENABLE = Lexicon.load()


def french(message: str) -> str:
    with translation.override("fr"):
        return gettext(message)


def test_every_fault_of_the_engine_has_its_sentence() -> None:
    assert set(FAULTS) == set(Fault) - {Fault.OFF_BOARD}  # off the board: the error's own code


def test_every_error_code_the_engine_raises_has_its_sentence() -> None:
    raised = set()
    for path in ENGINE.glob("*.py"):
        raised |= set(re.findall(r'\bcode="([a-z_]+)"', path.read_text()))
    assert raised - {"word_list_lines"} == set(ERRORS)


def judge(board: Board, rack: str, *, say=str, name: str = "") -> RoundJudge:  # type: ignore[no-untyped-def]
    moves = generate(board, rack, ENABLE, EN)
    return RoundJudge(
        board=board,
        rack=rack,
        lexicon=ENABLE,
        tiles=EN,
        round_number=2,
        top_score=moves[0].score if moves else 0,
        score_counts=score_counts(m.score for m in moves),
        say=say,
        lexicon_name=name,
    )


@pytest.fixture
def horn() -> Board:
    board = Board()
    board.play(Move.parse("H6 HORN"))
    return board


ZEROS = [
    # (slip, rack, code, the French words the reason must hold)
    (Slip("FOAM", "12A", 99), "AFMEIOT", Code.BAD_REFERENCE, "ne touche aucune lettre"),
    (Slip("ZZXQ", "8F", 9), "AFMEIOT", Code.INVALID_WORD, "absent du lexique Liste du club"),
    (Slip("FARMS", "8F", 11), "AFMEIOT", Code.NOT_ON_RACK, "absent du tirage"),
    (Slip("FA1M", "8F", 9), "AFMEIOT", Code.MALFORMED, "ne doit avoir que des lettres"),
    (Slip("FARM", "Z9", None), "AFMEIOT", Code.BAD_REFERENCE, "hors de la grille"),
    (Slip("FOAM", "H5", None), "AFMEIOT", Code.BAD_REFERENCE, "la case H6 porte H"),
]


@pytest.mark.parametrize(("slip", "rack", "code", "words"), ZEROS)
def test_a_french_judge_says_each_zero_in_french(
    horn: Board, slip: Slip, rack: str, code: str, words: str
) -> None:
    ruled = judge(horn, rack, say=french, name="Liste du club").rule(slip)
    assert ruled.code == code
    assert words in ruled.reason
    english = {"move", "the", "not", "board", "rack", "lexicon", "word", "needs", "touch"}
    assert not english & set(re.findall(r"[a-z]+", ruled.reason)), ruled.reason


def test_the_english_reasons_read_as_the_engine_says_them(horn: Board) -> None:
    ruled = judge(horn, "AFMEIOT").rule(Slip("FOAM", "12A", 99))
    assert ruled.reason == "move 12A FOAM does not touch any tile on the board: 0"
    ruled = judge(horn, "AFMEIOT").rule(Slip("FARMS", "8F", 11))
    assert ruled.reason == "move 8F FARMS needs S not on the rack AFMEIOT: 0"


def test_a_reason_names_the_list_by_the_events_name_for_it(horn: Board) -> None:
    ruled = judge(horn, "AFMEIOT", name="ODS 9 (club)").rule(Slip("ZZXQ", "8F", 9))
    assert "not in the lexicon ODS 9 (club)" in ruled.reason
