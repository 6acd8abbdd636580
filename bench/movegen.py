"""Move generation benchmark (issue 2): how long finding the top takes on mid-game positions.

Positions come from seeded autoplayed games (the board after rounds 5 to 14). On each, racks of
7 tiles are drawn with a fixed seed from the tiles not on the board: with no blank, one blank and
two blanks. Prints the median and worst time of ``top(n=1)`` per kind of rack, the lexicon's
load time from the disk cache in a fresh process, and this process's peak resident memory.

    .venv/bin/python bench/movegen.py [--games 4] [--json]

Targets (2-core machine): medians at most 10 ms, 100 ms and 500 ms; cached load under 0.5 s;
under 300 MB resident.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter

from engine.board import Board
from engine.game import autoplay
from engine.lexicon import Lexicon
from engine.movegen import top
from engine.tiles import BLANK, TileSet

TARGETS_MS = {0: 10.0, 1: 100.0, 2: 500.0}


def positions(games: int, lexicon: Lexicon, tiles: TileSet) -> list[Board]:
    boards = []
    for seed in range(1, games + 1):
        game = autoplay(seed=seed, tiles=tiles, lexicon=lexicon)
        board = Board()
        for record in game.rounds:
            board.play(record.move)
            if 5 <= record.number <= 14:
                boards.append(board.copy())
    return boards


def unseen(board: Board, tiles: TileSet) -> list[str]:
    on_board = Counter(
        BLANK if ch.islower() else ch for line in board.to_lines() for ch in line if ch != "."
    )
    left = Counter(tiles.counts)
    left.subtract(on_board)
    return [t for t, n in sorted(left.items()) for _ in range(max(n, 0)) if t != BLANK]


def cached_load_seconds() -> float:
    code = (
        "import time; t = time.perf_counter(); from engine.lexicon import Lexicon; "
        "Lexicon.load(); print(time.perf_counter() - t)"
    )
    Lexicon.load()  # make sure the cache exists
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(3)
    ]
    return statistics.median(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=4, help="autoplayed games to take positions from"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    load = cached_load_seconds()
    tiles = TileSet.load("en")
    lexicon = Lexicon.load()
    boards = positions(args.games, lexicon, tiles)
    rng = random.Random(2026)
    times: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for board in boards:
        pool = unseen(board, tiles)
        for blanks in (0, 1, 2):
            rack = "".join(rng.sample(pool, 7 - blanks)) + BLANK * blanks
            start = time.perf_counter()
            top(board, rack, lexicon, n=1, tiles=tiles)
            times[blanks].append((time.perf_counter() - start) * 1000)

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report = {
        "positions": len(boards),
        "top_ms": {
            f"{b}_blanks": {
                "median": round(statistics.median(t), 2),
                "worst": round(max(t), 2),
                "target_median": TARGETS_MS[b],
            }
            for b, t in times.items()
        },
        "lexicon_cached_load_s": round(load, 3),
        "peak_rss_mb": round(peak_mb, 1),
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{len(boards)} mid-game positions from {args.games} autoplayed games (rounds 5-14)")
        for b in times:
            line = report["top_ms"][f"{b}_blanks"]  # type: ignore[index]
            print(
                f"  top, {b} blank(s): median {line['median']:8.2f} ms   "
                f"worst {line['worst']:8.2f} ms   "
                f"(target median <= {TARGETS_MS[b]:.0f} ms)"
            )
        print(f"  lexicon load from cache (fresh process): {load:.3f} s   (target < 0.5 s)")
        print(f"  peak resident memory: {peak_mb:.1f} MB   (target < 300 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
