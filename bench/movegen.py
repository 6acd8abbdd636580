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

The original formulas (issue 36, docs/formulas.md): ``racks`` times the top of racks of 7, 8 and
9 tiles (standard, 7 et 8 and 7-8-9: their bonuses) with 0, 1 and 2 blanks on ``--positions``
mid-game positions (200 by default, from 20 autoplayed games), native and pure: median and p90
in ms, and the median number of legal moves. ``close`` is what a round's close does with the
rack once the clock stops, for 1,000 players: every legal move (native), the judge's index of
them, and 1,000 slips ruled and ranked among them (``arbiter.rules.RoundJudge``; the slips are
moves of the best quarter, as a room plays), on the first ``--close-positions`` positions
(20): median and p90 in ms, against the round close's target (1,000 players in 0.3 s, the whole
close: bench/round_close.py). ``--no-racks`` skips both.
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import native  # noqa: E402
from engine.board import Board  # noqa: E402
from engine.formula import Formula  # noqa: E402
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
CLOSE_TARGET_MS = 300.0  # 1,000 players' slips, the whole close (bench/round_close.py)
RACK_FORMULAS = {7: "standard", 8: "7et8", 9: "789"}


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


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "p90": round(p90(values), 3)}


def long_racks(
    positions_wanted: int, close_positions: int, lexicon: Lexicon, tiles: TileSet, pure: bool
) -> dict[str, object]:
    """The top of 7-, 8- and 9-tile racks with 0-2 blanks, and a round's close with them."""
    from arbiter.rules import Placements, RoundJudge, Slip

    games = -(-positions_wanted // 10)
    boards = positions(games, lexicon, tiles)[:positions_wanted]
    rng = random.Random(36)
    table: dict[str, dict[str, dict[str, object]]] = {}
    close: dict[str, dict[str, object]] = {}
    for size, name in RACK_FORMULAS.items():
        formula = Formula.parse(name)
        table[str(size)] = {}
        close[str(size)] = {}
        for blanks in (0, 1, 2):
            racks = [
                (b, "".join(rng.sample(unseen(b, tiles), size - blanks)) + BLANK * blanks)
                for b in boards
            ]
            native_ms, pure_ms, native_cpu, pure_cpu = [], [], [], []
            for board, rack in racks:
                start, own = time.perf_counter(), time.thread_time()
                top(board, rack, lexicon, 1, tiles, engine="native", formula=formula)
                native_ms.append((time.perf_counter() - start) * 1000)
                native_cpu.append((time.thread_time() - own) * 1000)
                if pure:
                    start, own = time.perf_counter(), time.thread_time()
                    top(board, rack, lexicon, 1, tiles, engine="pure", formula=formula)
                    pure_ms.append((time.perf_counter() - start) * 1000)
                    pure_cpu.append((time.thread_time() - own) * 1000)
            closes, closes_cpu, moves_n = [], [], []
            for board, rack in racks[:close_positions]:
                start, own = time.perf_counter(), time.thread_time()
                moves = generate(board, rack, lexicon, tiles, engine="native", formula=formula)
                judge = RoundJudge(
                    board=board,
                    rack=rack,
                    lexicon=lexicon,
                    tiles=tiles,
                    round_number=8,
                    top_score=moves[0].score if moves else 0,
                    score_counts=Counter(m.score for m in moves),
                    placements=Placements(board, moves),
                )
                best = moves[: max(1, len(moves) // 4)]
                for _ in range(1000):
                    m = rng.choice(best)
                    judge.rule(Slip(m.word, m.ref, m.score))
                closes.append((time.perf_counter() - start) * 1000)
                closes_cpu.append((time.thread_time() - own) * 1000)
                moves_n.append(len(moves))
            table[str(size)][str(blanks)] = {
                "native_top": spread(native_ms),
                "native_top_cpu": spread(native_cpu),
                **({"pure_top": spread(pure_ms), "pure_top_cpu": spread(pure_cpu)} if pure else {}),
            }
            close[str(size)][str(blanks)] = {
                **spread(closes),
                "cpu": spread(closes_cpu) if closes_cpu else {},
                "moves": int(statistics.median(moves_n)) if moves_n else 0,
                "within_target": p90(closes) <= CLOSE_TARGET_MS if closes else None,
            }
    return {
        "positions": len(boards),
        "formulas": {str(k): v for k, v in RACK_FORMULAS.items()},
        "racks": table,
        "close_positions": min(close_positions, len(boards)),
        "close_target_ms": CLOSE_TARGET_MS,
        "close": close,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=4, help="autoplayed games to take positions from"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--positions", type=int, default=200, help="positions for the 7/8/9-tile racks (200)"
    )
    parser.add_argument(
        "--close-positions", type=int, default=20, help="positions for the close of 1,000 slips"
    )
    parser.add_argument("--no-racks", action="store_true", help="skip the 7/8/9-tile racks")
    parser.add_argument("--no-pure-racks", action="store_true", help="7/8/9 tiles: native only")
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
    if not args.no_racks:
        racks_report = long_racks(
            args.positions, args.close_positions, lexicon, tiles, pure=not args.no_pure_racks
        )
        report["long_racks"] = {**racks_report, "load_average": round(os.getloadavg()[0], 2)}
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
    if "long_racks" in report:
        _print_racks(report["long_racks"])  # type: ignore[arg-type]
    return 0


def _print_racks(doc: dict[str, Any]) -> None:
    print(
        f"Racks of 7, 8, 9 tiles ({doc['formulas']}) on {doc['positions']} positions: "
        "top(1) median / p90 ms; a close of 1,000 slips on "
        f"{doc['close_positions']} positions (target {doc['close_target_ms']:.0f} ms)"
    )
    for size, by_blanks in doc["racks"].items():
        for blanks, row in by_blanks.items():
            native_top, closing = row["native_top"], doc["close"][size][blanks]
            pure = row.get("pure_top")
            pure_said = f", pure {pure['median']:.1f} / {pure['p90']:.1f}" if pure else ""
            print(
                f"  {size} tiles, {blanks} blank(s): native {native_top['median']:.2f} / "
                f"{native_top['p90']:.2f}{pure_said}; close {closing['median']:.0f} / "
                f"{closing['p90']:.0f} ms ({closing['moves']} moves)"
            )


if __name__ == "__main__":
    sys.exit(main())
