"""The engine's command-line contract (design.md): top, score, batch, game, and their errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.board import Board
from engine.cli import run
from engine.lexicon import Lexicon
from engine.move import Move
from engine.replay import replay
from engine.validate import validate

pytestmark = pytest.mark.usefixtures("movegen_engine")  # each test on both engines


def cli(*args: str, stdin: str = "") -> str:
    out = io.StringIO()
    assert run(list(args), io.StringIO(stdin), out) == 0
    return out.getvalue()


def engine_process(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def board_file(tmp_path: Path, *moves: str) -> Path:
    board = Board()
    for m in moves:
        board.play(Move.parse(m))
    path = tmp_path / "board.txt"
    path.write_text("\n".join(board.to_lines()) + "\n")
    return path


def test_top_json_lists_the_best_moves_first() -> None:
    doc = json.loads(cli("top", "--rack", "AEINRST", "--n", "3", "--json"))
    assert doc == {
        "moves": [
            {"ref": "H2", "word": "ANESTRI", "score": 66},
            {"ref": "H2", "word": "ANTSIER", "score": 66},
            {"ref": "H2", "word": "NASTIER", "score": 66},
        ]
    }


def test_top_reads_a_board_file_or_stdin(tmp_path: Path) -> None:
    path = board_file(tmp_path, "H4 NASTIER")
    from_file = json.loads(
        cli("top", "--rack", "EHOSTUV", "--board", str(path), "--n", "2", "--json")
    )
    from_stdin = json.loads(
        cli(
            "top", "--rack", "EHOSTUV", "--board", "-", "--n", "2", "--json", stdin=path.read_text()
        )
    )
    assert from_file == from_stdin
    assert from_file["moves"][0]["score"] >= from_file["moves"][1]["score"]


def test_top_without_json_prints_a_readable_list() -> None:
    text = cli("top", "--rack", "AEINRST", "--n", "2")
    assert text.splitlines()[0].split() == ["1.", "H2", "ANESTRI", "66"]


def test_score_json_gives_validity_score_words_and_errors(tmp_path: Path) -> None:
    path = board_file(tmp_path, "H6 HORN")
    doc = json.loads(cli("score", "--move", "8F FARM", "--board", str(path), "--json"))
    assert doc == {
        "valid": True,
        "score": 9,
        "words": [{"word": "FARM", "score": 9}],
        "errors": [],
        "faults": [],
    }


def test_score_gives_the_placement_score_even_for_a_word_not_in_the_lexicon() -> None:
    doc = json.loads(cli("score", "--move", "H4 TRAINZ", "--json"))
    assert doc["valid"] is False and doc["score"] == 32 and doc["faults"] == ["not_in_lexicon"]
    assert "TRAINZ" in doc["errors"][0]


def test_score_checks_the_rack_when_given() -> None:
    doc = json.loads(cli("score", "--move", "H4 TRAIN", "--rack", "TRAIN?", "--json"))
    assert doc["valid"]
    doc = json.loads(cli("score", "--move", "H4 TRAIN", "--rack", "TRAI", "--json"))
    assert doc["faults"] == ["not_on_rack"] and "N" in doc["errors"][0]


def test_batch_answers_every_line_in_order_and_carries_on_after_a_bad_one() -> None:
    lines = [
        {"op": "top", "rack": "AEINRST", "n": 1},
        "this is not json",
        {"op": "score", "move": "8H TRAIN"},
        {"op": "score", "board": ["bad"], "move": "8H TRAIN"},
        {"op": "dance"},
        {"op": "top", "rack": "AEINRST!", "n": 1},
        {"op": "score", "move": "8H TRAIN", "board": None, "rack": "AINRT"},
    ]
    stdin = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    answers = [json.loads(line) for line in cli("batch", stdin=stdin).splitlines()]
    assert len(answers) == len(lines)
    assert answers[0] == {"moves": [{"ref": "H2", "word": "ANESTRI", "score": 66}]}
    assert "error" in answers[1]
    assert answers[2]["valid"] is True and answers[2]["score"] == 12
    assert "15 lines" in answers[3]["error"]
    assert "unknown" in answers[4]["error"]
    assert "'!'" in answers[5]["error"]
    assert answers[6]["valid"] is True


def test_game_json_is_the_documented_document_and_replays_exactly() -> None:
    doc = json.loads(cli("game", "--seed", "7", "--json"))
    assert set(doc) == {"tiles", "seed", "rounds", "total", "end"}
    assert doc["tiles"] == "en" and doc["seed"] == 7
    assert set(doc["rounds"][0]) == {
        "number",
        "rack",
        "leftover",
        "rejected",
        "ref",
        "word",
        "score",
    }
    assert doc["total"] == sum(r["score"] for r in doc["rounds"])
    assert doc["end"]
    game = replay(doc, lexicon=Lexicon.load())
    assert game.total == doc["total"]
    # each round's top validates on the board of its time
    board = Board()
    for r in doc["rounds"]:
        move = Move.from_ref(r["ref"], r["word"])
        assert validate(board, move, rack=r["rack"], lexicon=Lexicon.load()).score == r["score"]
        board.play(move)


def test_the_same_seed_gives_the_same_game_and_the_sheet_is_readable() -> None:
    assert cli("game", "--seed", "11", "--json") == cli("game", "--seed", "11", "--json")
    sheet = cli("game", "--seed", "11")
    assert sheet.startswith("Duplicate game: seed 11") and "Total" in sheet and "End:" in sheet


def test_a_french_game_uses_the_french_tiles() -> None:
    doc = json.loads(cli("game", "--seed", "3", "--tiles", "fr", "--json"))
    assert doc["tiles"] == "fr"
    game = replay(doc, lexicon=Lexicon.load())
    assert game.board.tiles + len(game.bag) + len(game.rack or game.leftover) == 102


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["top"], "required: --rack"),
        (["top", "--rack", "AB", "--bogus"], "unrecognized arguments: --bogus"),
        (["top", "--rack", "ABCDEFGH"], "at most 7"),
        (["top", "--rack", "AB1"], "'1' at position 3 is not a tile"),
        (["top", "--rack", "AB", "--tiles", "de"], "invalid choice: 'de'"),
        (["top", "--rack", "AB", "--lexicon", "/no/such/list.txt"], "cannot be read"),
        (["top", "--rack", "AB", "--board", "/no/such/board.txt"], "board file"),
        (["top", "--rack", "AB", "--n", "0"], "at least 1"),
        (["score", "--move", "H8"], "grid reference and a word"),
        (["score", "--move", "H8 WORD", "--rack", "W?RD!"], "not a tile"),
        (["top", "--rack", "ABCDEFGHI", "--formula", "7et8"], "at most 8 (formula 7et8)"),
        (["top", "--rack", "AB", "--formula", "8sur9"], "'8sur9' is not a formula"),
        (["game", "--formula", "joker+detonante"], "combines only the joker"),
        (["score", "--move", "H8 AB", "--formula", "7et8+789"], "combines only the joker"),
        (["dance"], "invalid choice: 'dance'"),
        ([], "required: command"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line_saying_what_is_wrong(
    args: list[str], message: str
) -> None:
    result = engine_process(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_a_malformed_board_on_stdin_is_one_line_error() -> None:
    result = engine_process("top", "--rack", "AB", "--board", "-", stdin="...\n")
    assert (
        result.returncode == 2
        and "board has 1 lines" in result.stderr
        and len(result.stderr.splitlines()) == 1
    )
    result = engine_process(
        "top", "--rack", "AB", "--board", "-", stdin=("." * 15 + "\n") * 14 + "......#........\n"
    )
    assert result.returncode == 2 and "board line 15, column 7" in result.stderr


def test_top_takes_racks_of_eight_and_nine_tiles_under_a_formula_with_them() -> None:
    doc = json.loads(cli("top", "--rack", "ADEINRST", "--n", "1", "--formula", "7et8", "--json"))
    assert doc == {"moves": [{"ref": "H1", "word": "RANDIEST", "score": 66 + 75}]}
    doc = json.loads(cli("top", "--rack", "ADEINRST", "--n", "1", "--formula", "7sur8", "--json"))
    assert doc["moves"][0]["score"] == 70  # seven tiles at most: DESTAIN and others, 20 + 50
    nine = json.loads(cli("top", "--rack", "ADEINRSTS", "--n", "1", "--formula", "789", "--json"))
    assert nine["moves"][0]["word"] == "TARDINESS" and nine["moves"][0]["score"] > 100


def test_score_and_batch_take_the_formula_a_batch_line_may_name_its_own() -> None:
    doc = json.loads(
        cli("score", "--move", "H1 STRAINED", "--rack", "ADEINRST", "--formula", "7sur8", "--json")
    )
    assert doc["faults"] == ["too_many_tiles"] and not doc["valid"]
    lines = [
        {"op": "score", "move": "H1 STRAINED", "rack": "ADEINRST"},
        {"op": "score", "move": "H1 STRAINED", "rack": "ADEINRST", "formula": "7sur8"},
        {"op": "top", "rack": "ADEINRSTS", "n": 1},
        {"op": "top", "rack": "ADEINRSTS", "n": 1, "formula": "789"},
        {"op": "top", "rack": "AB", "formula": 7},
    ]
    out = cli("batch", "--formula", "7et8", stdin="\n".join(json.dumps(x) for x in lines))
    answers = [json.loads(line) for line in out.splitlines()]
    assert answers[0]["valid"] and answers[0]["score"] == 60 + 75
    assert answers[1]["faults"] == ["too_many_tiles"]
    assert "at most 8 (formula 7et8)" in answers[2]["error"]
    assert answers[3]["moves"][0]["word"] == "TARDINESS"
    assert answers[4] == {"error": '"formula" must be a string like "joker+7et8"'}


def test_a_joker_game_says_for_each_round_using_the_joker_whether_it_was_replaced() -> None:
    doc = json.loads(cli("game", "--seed", "4", "--formula", "joker", "--json"))
    assert doc["formula"] == "joker"
    flags = [r["joker_replaced"] for r in doc["rounds"] if "joker_replaced" in r]
    assert flags and set(flags) <= {True, False}
    assert all("?" in r["rack"] for r in doc["rounds"][:5])
    assert replay(doc, lexicon=Lexicon.load()).total == doc["total"]
    sheet = cli("game", "--seed", "4", "--formula", "joker")
    assert "formula joker" in sheet and "(joker replaced)" in sheet
