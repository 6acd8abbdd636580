"""Random positions for comparing the two move generators (tests/engine/test_native.py and, by
the thousand, bench/movegen_verify.py).

Each game starts on an empty board (either layout) with a shuffled bag; each round a rack of
7 is drawn from the bag (blanks included) and a move is played: the top, or any legal move at
random, so that boards take shapes the top alone would not give them. Before each round the
position is handed out with a rack of its own: ``rack_size`` tiles (7, or 8 and 9 for the
original formulas), 0, 1 or 2 blanks and letters from the tiles not on the board.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.board import LAYOUTS, Board, Layout
from engine.lexicon import Lexicon
from engine.movegen import generate
from engine.tiles import BLANK, TileSet, sort_tiles, subtract


def random_positions(
    seed: int, count: int, lexicon: Lexicon, tiles: TileSet, rack_size: int = 7
) -> Iterator[tuple[Board, str]]:
    """``count`` (board, rack) pairs from seeded random games."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        board = Board(Layout.load(rng.choice(LAYOUTS)))
        bag = tiles.bag()
        rng.shuffle(bag)
        rack = ""
        while made < count:
            letters = [t for t in bag if t != BLANK]
            blanks = rng.choice((0, 1, 2))
            if len(letters) < rack_size - blanks:
                break
            yield (
                board.copy(),
                sort_tiles("".join(rng.sample(letters, rack_size - blanks)) + "?" * blanks),
            )
            made += 1
            need = 7 - len(rack)
            rack, bag = sort_tiles(rack + "".join(bag[:need])), bag[need:]
            moves = generate(board, rack, lexicon, tiles)
            if not moves:
                break
            move = moves[0] if rng.random() < 0.5 else rng.choice(moves)
            board.play(move.move)
            left = subtract(rack, move.used)
            assert left is not None
            rack = left
