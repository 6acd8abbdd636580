"""Move generation benchmark (issues 2 and 17): both engines on the same mid-game positions.

Positions come from seeded autoplayed games (the board after rounds 5 to 14). On each, racks of
7 tiles are drawn with a fixed seed from the tiles not on the board: with no blank, one blank and
two blanks. For each rack it times the native engine's ``top(n=1)`` and every move
(``generate``), then the pure engine's ``top(n=1)``, and prints the medians per kind of rack.
``load_ms`` is what a fresh process pays to load the lexicon from the disk cache (memory-mapped)
and hand it to the native core; ``first_move_ms`` adds the engine's other imports and one
native ``top`` on the empty board;
``rss_mb`` is this process's peak resident memory after the native runs, before the pure engine
turns the GADDAG into Python lists (``rss_mb_after_pure`` is the peak at the end).

    .venv/bin/python bench/movegen.py [--games 4] [--json]

``--json`` prints one document: {"positions": N, "pure": {"0": ms, "1": ms, "2": ms},
"native": {...}, "native_all": {...}, "load_ms": .., "rss_mb": .., ...}, the medians of the
wall time; ``cpu_ms`` holds the same medians of this thread's CPU time, which a busy machine
(see ``load_average``) inflates less.
Targets (2-core machine): native top <= 0.5 / 3 / 15 ms, at least 20x the pure engine with two
blanks; native every move <= 2 / 10 / 40 ms; load < 100 ms; under 150 MB resident. The pure
engine alone: medians at most 10 / 100 / 500 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import native  # noqa: E402
from engine.board import Board  # noqa: E402
from engine.game import autoplay  # noqa: E402
from engine.lexicon import Lexicon  # noqa: E402
from engine.movegen import generate, top  # noqa: E402
from engine.tiles import BLANK, TileSet  # noqa: E402

PURE_TARGETS_MS = {0: 10.0, 1: 100.0, 2: 500.0}
NATIVE_TARGETS_MS = {0: 0.5, 1: 3.0, 2: 15.0}
NATIVE_ALL_TARGETS_MS = {0: 2.0, 1: 10.0, 2: 40.0}
LOAD_TARGET_MS = 100.0
RSS_TARGET_MB = 150.0
SPEEDUP_TARGET = 20.0


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


# A fresh process: the lexicon from the disk cache (memory-mapped) made ready for the native
# core; then the engine's other modules and the first native top.
LOAD = """
import time
start = time.perf_counter()
from engine.lexicon import Lexicon
from engine import _native
lexicon = Lexicon.load()
_native.Lexicon(*lexicon.buffers())
loaded = time.perf_counter()
from engine.board import Board
from engine.movegen import top
top(Board(), "AEINRST", lexicon, engine="native")
print(loaded - start, time.perf_counter() - start)
"""


def cached_load_ms() -> tuple[float, float]:
    """Median milliseconds, in fresh processes, to load the lexicon and to the first move."""
    subprocess.run(  # makes sure the cache exists (a first run may compile the list)
        [sys.executable, "-m", "engine.lexicon"], cwd=ROOT, check=True, capture_output=True
    )
    runs = [
        [
            float(x) * 1000
            for x in subprocess.run(
                [sys.executable, "-c", LOAD], capture_output=True, text=True, check=True, cwd=ROOT
            ).stdout.split()
        ]
        for _ in range(5)
    ]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def medians(times: dict[int, list[float]]) -> dict[str, float]:
    return {str(b): round(statistics.median(t), 3) for b, t in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=4, help="autoplayed games to take positions from"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not native.BUILT:
        raise SystemExit("bench/movegen.py: the native engine is not built (make install)")

    load, first_move = cached_load_ms()
    tiles = TileSet.load("en")
    lexicon = Lexicon.load()
    boards = positions(args.games, lexicon, tiles)
    rng = random.Random(2026)
    racks = [
        (board, blanks, "".join(rng.sample(unseen(board, tiles), 7 - blanks)) + BLANK * blanks)
        for board in boards
        for blanks in (0, 1, 2)
    ]
    kinds: dict[str, dict[int, list[float]]] = {
        kind: {0: [], 1: [], 2: []} for kind in ("native", "native_all", "pure")
    }
    cpu: dict[str, dict[int, list[float]]] = {
        kind: {0: [], 1: [], 2: []} for kind in ("native", "native_all", "pure")
    }

    def run(kind: str, blanks: int, call: Callable[[], object]) -> None:
        wall, own = time.perf_counter(), time.thread_time()
        call()
        kinds[kind][blanks].append((time.perf_counter() - wall) * 1000)
        cpu[kind][blanks].append((time.thread_time() - own) * 1000)

    for board, blanks, rack in racks:
        run("native", blanks, partial(top, board, rack, lexicon, 1, tiles, engine="native"))
        run("native_all", blanks, partial(generate, board, rack, lexicon, tiles, engine="native"))
    rss_native = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for board, blanks, rack in racks:
        run("pure", blanks, partial(top, board, rack, lexicon, 1, tiles, engine="pure"))
    rss_end = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    report = {
        "positions": len(boards),
        "pure": medians(kinds["pure"]),
        "native": medians(kinds["native"]),
        "native_all": medians(kinds["native_all"]),
        "load_ms": round(load, 1),
        "first_move_ms": round(first_move, 1),
        "rss_mb": round(rss_native, 1),
        "rss_mb_after_pure": round(rss_end, 1),
        "worst_ms": {k: round(max(max(t) for t in v.values()), 3) for k, v in kinds.items()},
        "speedup": {
            str(b): round(
                statistics.median(kinds["pure"][b]) / statistics.median(kinds["native"][b]), 1
            )
            for b in (0, 1, 2)
        },
        "cpu_ms": {kind: medians(times) for kind, times in cpu.items()},
        "cpus": os.cpu_count(),
        "load_average": round(os.getloadavg()[0], 2),
    }
    if args.json:
        print(json.dumps(report))
        return 0
    med = {kind: medians(times) for kind, times in kinds.items()}
    print(f"{len(boards)} mid-game positions from {args.games} autoplayed games (rounds 5-14)")
    for b in ("0", "1", "2"):
        print(
            f"  {b} blank(s): native top {med['native'][b]:7.3f} ms "
            f"(<= {NATIVE_TARGETS_MS[int(b)]}), every move {med['native_all'][b]:7.3f} ms "
            f"(<= {NATIVE_ALL_TARGETS_MS[int(b)]}), pure top {med['pure'][b]:7.2f} ms "
            f"(<= {PURE_TARGETS_MS[int(b)]:.0f}): native {med['pure'][b] / med['native'][b]:.0f}x"
        )
    print(
        f"  fresh process: lexicon loaded from the cache in {load:.1f} ms (< {LOAD_TARGET_MS}), "
        f"first move (the engine's imports too) after {first_move:.1f} ms"
    )
    print(
        f"  peak resident memory: {rss_native:.1f} MB after the native runs (< {RSS_TARGET_MB}), "
        f"{rss_end:.1f} MB once the pure engine has run"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
