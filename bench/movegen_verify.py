"""The native move generator against the pure one on thousands of random positions (issue 17).

The positions are those of tests/engine/test_native.py (random games on both layouts; racks
with 0, 1 or 2 blanks), here on the full ENABLE list with the English and the French tile
sets, half each. On every position both engines' full move lists must be equal (every move,
its score, the tiles it uses, the order), and the native ``top(n)`` must be the pure list's
first n (n drawn from 1, 2, 3, 10, 50). Prints how many positions and moves were compared and
the first difference, if any (exit status 1).

    .venv/bin/python bench/movegen_verify.py [--positions 2000] [--seed 1] [--formula F] [--json]

``--formula`` (``7sur8``, ``7et8``, ``789``...: docs/formulas.md) draws racks of the formula's
size (8 or 9 tiles) and compares the moves with its bonuses and most tiles placed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import native  # noqa: E402
from engine.formula import Formula  # noqa: E402
from engine.lexicon import Lexicon  # noqa: E402
from engine.movegen import generate, top  # noqa: E402
from engine.tiles import TileSet  # noqa: E402
from tests.engine.positions import random_positions  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--formula", default="standard")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    formula = Formula.parse(args.formula)
    if not native.BUILT:
        raise SystemExit("bench/movegen_verify.py: the native engine is not built (make install)")
    lexicon = Lexicon.load()
    rng = random.Random(args.seed)
    compared = moves = 0
    by_blanks = {0: 0, 1: 0, 2: 0}
    difference = None
    started = time.perf_counter()
    for code in ("en", "fr"):
        tiles = TileSet.load(code)
        count = args.positions // 2 if code == "en" else args.positions - args.positions // 2
        positions = random_positions(args.seed, count, lexicon, tiles, formula.rack_size)
        for board, rack in positions:
            n = rng.choice((1, 2, 3, 10, 50))
            pure = generate(board, rack, lexicon, tiles, engine="pure", formula=formula)
            fast = generate(board, rack, lexicon, tiles, engine="native", formula=formula)
            best = top(board, rack, lexicon, n, tiles, engine="native", formula=formula)
            if fast != pure or best != pure[:n]:
                difference = {
                    "tiles": code,
                    "board": board.to_lines(),
                    "rack": rack,
                    "n": n,
                    "pure": [str(m) for m in pure[:n]],
                    "native_top": [str(m) for m in best],
                    "every_move_equal": fast == pure,
                }
                break
            compared += 1
            moves += len(pure)
            by_blanks[rack.count("?")] += 1
        if difference:
            break
    report = {
        "formula": formula.name,
        "positions": compared,
        "by_blanks": {str(b): c for b, c in by_blanks.items()},
        "moves_compared": moves,
        "identical": difference is None,
        "difference": difference,
        "seconds": round(time.perf_counter() - started, 1),
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{compared} positions ({by_blanks[0]}/{by_blanks[1]}/{by_blanks[2]} with 0/1/2 "
            f"blanks), {moves} moves: "
            + ("identical" if difference is None else f"DIFFERENT: {json.dumps(difference)}")
            + f" ({report['seconds']} s)"
        )
    return 0 if difference is None else 1


if __name__ == "__main__":
    sys.exit(main())
