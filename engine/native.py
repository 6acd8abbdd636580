"""Which move generator runs: the pure-Python one (``engine.movegen``, the reference) or its
native core (``engine/_native.c``, built by the install when a C compiler is there).

``DUPLICATE_ENGINE=pure|native`` picks one; unset (or empty), the native engine runs when it is
built and the pure one otherwise. Both give the same moves in the same order
(tests/engine/test_native.py, bench/movegen_verify.py). This module also hands the native core
what it reads: the lexicon's arrays as buffers (the mapped cache file, not copied), the board as
225 bytes, the layout's premiums, the tile values and the rack's counts.
"""

from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING

from engine.board import Board, Layout
from engine.errors import EngineError
from engine.formula import Formula
from engine.lexicon import Lexicon
from engine.notation import SIZE
from engine.tiles import BLANK, TileSet

if TYPE_CHECKING:
    from engine.movegen import ScoredMove

try:
    from engine import _native

    BUILT = True
except ImportError:  # installed without a C compiler: the pure engine only
    BUILT = False

ENGINES = ("pure", "native")
VARIABLE = "DUPLICATE_ENGINE"


class EngineChoiceError(EngineError):
    """``DUPLICATE_ENGINE`` names no engine, or one that is not built."""


def check(name: str) -> str:
    """``name`` if it is an engine this install can run, else a one-line EngineChoiceError."""
    if name not in ENGINES:
        raise EngineChoiceError(f"{VARIABLE}={name!r} is not an engine: choose pure or native")
    if name == "native" and not BUILT:
        raise EngineChoiceError(
            f"{VARIABLE}=native, but the native engine is not built (engine/_native.c needs a "
            "C compiler and the Python headers at install: make install); choose pure"
        )
    return name


def from_environment() -> str:
    """The engine ``DUPLICATE_ENGINE`` picks; by default native when built, else pure."""
    value = os.environ.get(VARIABLE, "").strip()
    if not value:
        return "native" if BUILT else "pure"
    return check(value)


_bound = False
_cores: dict[int, tuple[Lexicon, _native.Lexicon]] = {}
_CORES_KEPT = 8  # lexicons whose native form stays ready (a process uses one or two)


def _core(lexicon: Lexicon) -> _native.Lexicon:
    """The native form of ``lexicon`` (its buffers, checked once), kept per lexicon."""
    held = _cores.get(id(lexicon))
    if held is not None and held[0] is lexicon:
        return held[1]
    core = _native.Lexicon(*lexicon.buffers())
    if len(_cores) >= _CORES_KEPT:
        del _cores[next(iter(_cores))]
    _cores[id(lexicon)] = (lexicon, core)  # the lexicon is kept, so its id is not reused
    return core


@cache
def _premiums(layout: Layout) -> tuple[bytes, bytes, int]:
    row, col = layout.start
    return bytes(layout.letter_mult), bytes(layout.word_mult), row * SIZE + col


@cache
def _values(tiles: TileSet) -> bytes:
    return bytes(tiles.values.get(chr(65 + i), 0) for i in range(26))


def _rack(rack: str) -> bytes:
    counts = [0] * 27
    for tile in rack:
        counts[26 if tile == BLANK else ord(tile) - 65] += 1
    return bytes(counts)


def search(
    board: Board, rack: str, lexicon: Lexicon, tiles: TileSet, keep: int, formula: Formula
) -> list[ScoredMove]:
    """Every move (``keep`` 0) or the ``keep`` best, in the total order of ``engine.movegen``,
    with the ``formula``'s bonuses and most tiles placed."""
    global _bound
    if not _bound:
        from engine.move import Move
        from engine.movegen import ScoredMove
        from engine.notation import Direction

        _native.bind(Move, ScoredMove, Direction.ACROSS, Direction.DOWN)
        _bound = True
    letter_mult, word_mult, start = _premiums(board.layout)
    cells = "".join(board.to_lines()).encode("ascii")
    return _native.search(
        _core(lexicon),
        cells,
        letter_mult,
        word_mult,
        start,
        _values(tiles),
        _rack(rack),
        keep,
        formula.bonus_table(),
        formula.max_played,
    )
