"""The native move generator against the pure one (the reference), and the choice of engine.

Both engines run on the same random positions (random games, both layouts, 0-2 blanks, the
English and French tile sets) and must give the same full move lists, and the same top(n).
bench/movegen_verify.py does the same on thousands of positions with the full ENABLE list.
"""

from __future__ import annotations

import gzip
import os
import random
import subprocess
import sys
from array import array
from importlib import resources

import pytest

from engine import movegen, native
from engine.board import Board
from engine.formula import Formula
from engine.lexicon import Lexicon
from engine.movegen import generate, top
from engine.native import EngineChoiceError
from engine.tiles import TileSet
from tests.engine.positions import random_positions

needs_native = pytest.mark.skipif(
    not native.BUILT, reason="the native engine is not built (no C compiler at install)"
)


@pytest.fixture(scope="module")
def sampled() -> Lexicon:
    """One ENABLE word in four: the pure engine runs fast enough for hundreds of positions."""
    data = resources.files("engine").joinpath("data", "lexicons", "enable.txt.gz").read_bytes()
    words = gzip.decompress(data).decode().split()
    return Lexicon.from_words(words[::4], name="enable/4")


def same_moves(
    board: Board,
    rack: str,
    lexicon: Lexicon,
    tiles: TileSet,
    n: int,
    formula: Formula | None = None,
) -> None:
    pure = generate(board, rack, lexicon, tiles, engine="pure", formula=formula)
    native_all = generate(board, rack, lexicon, tiles, engine="native", formula=formula)
    assert native_all == pure, (board, rack, formula)
    assert top(board, rack, lexicon, n, tiles, engine="native", formula=formula) == pure[:n], (
        board,
        rack,
        n,
        formula,
    )


@needs_native
@pytest.mark.parametrize("code", ["en", "fr"])
def test_both_engines_make_the_same_moves_in_the_same_order_on_random_positions(
    sampled: Lexicon, code: str
) -> None:
    tiles = TileSet.load(code)
    rng = random.Random(code)
    for board, rack in random_positions(17, 80, sampled, tiles):
        same_moves(board, rack, sampled, tiles, rng.choice((1, 1, 2, 3, 10, 50)))


@needs_native
@pytest.mark.parametrize(
    ("name", "size"), [("7sur8", 8), ("7et8", 8), ("789", 9), ("joker+789", 9), ("joker", 7)]
)
def test_both_engines_make_the_same_moves_with_the_racks_and_bonuses_of_each_formula(
    sampled: Lexicon, en: TileSet, name: str, size: int
) -> None:
    """Racks of 8 and 9 tiles with 0, 1 or 2 blanks: the same moves in the same order, the
    bonus of 7, 8 and 9 tiles placed and the most tiles placed (7 sur 8) alike."""
    formula = Formula.parse(name)
    rng = random.Random(name)
    for board, rack in random_positions(23, 25, sampled, en, rack_size=size):
        same_moves(board, rack, sampled, en, rng.choice((1, 2, 5, 30)), formula)


@needs_native
@pytest.mark.parametrize("name", ["7sur8", "7et8", "789"])
def test_both_engines_agree_on_long_racks_with_the_full_enable_list(
    enable: Lexicon, en: TileSet, name: str
) -> None:
    formula = Formula.parse(name)
    for board, rack in random_positions(5, 8, enable, en, rack_size=formula.rack_size):
        same_moves(board, rack, enable, en, 1, formula)


@needs_native
def test_both_engines_agree_on_the_full_enable_list(enable: Lexicon, en: TileSet) -> None:
    for board, rack in random_positions(5, 20, enable, en):
        same_moves(board, rack, enable, en, 1)


@needs_native
@pytest.mark.parametrize("rack", ["?", "??", "E??", "QQQ", "AEINRST"])
def test_top_n_keeps_the_pure_engine_s_ties_and_order(
    sampled: Lexicon, en: TileSet, rack: str
) -> None:
    """Racks whose moves mostly score the same (blanks score nothing): the bound must not stop
    before every move of the cut score is seen, and the order decides among them."""
    boards = [board for board, _ in random_positions(3, 12, sampled, en)][::3]
    for board in boards:
        pure = generate(board, rack, sampled, en, engine="pure")
        for n in (1, 2, 5, 40):
            assert top(board, rack, sampled, n, en, engine="native") == pure[:n], (board, n)


@needs_native
def test_a_huge_n_gives_every_move(enable: Lexicon, en: TileSet) -> None:
    board, rack = next(random_positions(8, 1, enable, en))
    everything = generate(board, rack, enable, en, engine="native")
    assert top(board, rack, enable, 10**9, en, engine="native") == everything
    assert top(board, rack, enable, 0, en, engine="native") == []


@needs_native
def test_the_native_lexicon_refuses_arrays_that_would_lead_out_of_range() -> None:
    from engine import _native

    lex = Lexicon.from_words(["CAT", "CATS"])
    good = lex.buffers()
    bad_target = memoryview(array("I", [10**6] * len(good[5])))
    with pytest.raises(ValueError, match="GADDAG's edge 0 leads out of range"):
        _native.Lexicon(*good[:5], bad_target)
    with pytest.raises(ValueError, match="unsigned 32-bit"):
        _native.Lexicon(*good[:5], memoryview(array("q", [0])))
    _native.Lexicon(*good)  # the real arrays pass


@needs_native
def test_a_bad_board_byte_is_refused_by_the_native_core(enable: Lexicon) -> None:
    from engine import _native

    with pytest.raises(ValueError, match="square 3 holds byte 49"):
        _native.search(
            _native.Lexicon(*enable.buffers()),
            b"...1" + b"." * 221,
            b"\x01" * 225,
            b"\x01" * 225,
            112,
            b"\x01" * 26,
            b"\x01" * 27,
            0,
            bytes(16),
            7,
        )


def test_a_bad_engine_name_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUPLICATE_ENGINE", "fast")
    with pytest.raises(EngineChoiceError, match="DUPLICATE_ENGINE='fast' is not an engine"):
        native.from_environment()
    with pytest.raises(EngineChoiceError, match="choose pure or native"):
        movegen.use_engine("turbo")
    with pytest.raises(EngineChoiceError, match="'quick' is not an engine"):
        top(Board(), "AEINRST", Lexicon.from_words(["AT"]), engine="quick")


def test_the_command_line_says_a_bad_engine_name_in_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "top", "--rack", "AEINRST"],
        capture_output=True,
        text=True,
        env={**os.environ, "DUPLICATE_ENGINE": "fast"},
        timeout=120,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "python -m engine: error: DUPLICATE_ENGINE='fast' is not an engine: choose pure or native"
    ]


# A process where the extension cannot be imported, as after an install without a compiler.
WITHOUT_NATIVE = """
import sys
sys.modules["engine._native"] = None  # import engine._native now raises ImportError
from engine import movegen, native
from engine.board import Board
from engine.lexicon import Lexicon
print(native.BUILT, movegen.engine_in_use())
print(movegen.top(Board(), "AEINRST", Lexicon.load())[0])
"""


def test_without_the_native_core_the_pure_engine_runs_and_native_is_refused() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DUPLICATE_ENGINE"}
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_NATIVE], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["False pure", "H2 ANESTRI 66"]
    refused = subprocess.run(
        [sys.executable, "-c", WITHOUT_NATIVE],
        capture_output=True,
        text=True,
        env={**env, "DUPLICATE_ENGINE": "native"},
        timeout=120,
    )
    assert refused.returncode != 0
    assert "DUPLICATE_ENGINE=native, but the native engine is not built" in refused.stderr


@needs_native
def test_by_default_the_native_engine_runs_when_built() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DUPLICATE_ENGINE"}
    code = "from engine import movegen; print(movegen.engine_in_use())"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.stdout.strip() == "native"
