"""The original formulas against the real Eliot (issue 36; docs/formulas.md, docs/interchange.md
section 7). Not part of the test suite: Eliot is built outside the repository
(``../shared/tools/eliot/build.sh``).

1. **Export**: for each formula Eliot plays (``joker``: its ``bingo``; ``detonante``: its
   ``explosive``; ``7sur8``: its ``7among8``; ``joker+7sur8``), ``--games`` games are played by
   the engine (``autoplay``), written as Eliot arbitration games with two players (``Top``
   plays the top each round, ``Second`` the second-best move, when there is one) and the
   formula's ``<Variant>``; ``eliottxt`` loads each (``c FILE``), prints each player's total
   (``a S``), which must be the top total and the second's, and saves it again (``s``); that
   save is read here, made the engine's document (``eliot_document``, the import's) and
   replayed under the formula: its racks, tops and scores must be the game's.
2. **Import**: Eliot plays duplicate games of one computer in each variant (``dj 0 1``,
   ``de 0 1``, ``d8 0 1``, ``dj8 0 1``) and saves them; each is read, made a document and
   replayed here under the formula of its variants: the racks, tops and scores must be
   Eliot's. ``--keep DIR`` keeps every file written (the fixtures of tests/data/eliot/formulas
   come from there).

    .venv/bin/python bench/eliot_formulas.py --eliot /tmp/eliot-build [--dawg enable.dawg]
        [--games 3] [--keep DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

_SCORE = re.compile(r"^Score (\d+):\s+(-?\d+)\s*$", re.MULTILINE)
FORMULAS = {"joker": "j", "detonante": "e", "7sur8": "8", "joker+7sur8": "j8"}


def eliottxt(prefix: Path, dawg: str, folder: Path, commands: list[str], seed: int = 1) -> str:
    run = subprocess.run(
        [str(prefix / "bin" / "eliottxt"), str(prefix / dawg), str(seed)],
        input="\n".join([*commands, "q", "q", "q"]) + "\n",
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=300,
        check=False,
    )
    return run.stdout + run.stderr


def rounds_of(document: Any) -> list[tuple[str, str, str, int]]:
    return [
        ("".join(sorted(r["rack"])), r["ref"], r["word"].upper(), r["score"])
        for r in document["rounds"]
    ]


def written_game(formula_name: str, seed: int) -> tuple[Any, bytes, list[int]]:
    """An engine game in the formula, as an Eliot arbitration game of two players; its
    document, the file, and the two players' totals."""
    from engine.eliot.model import (
        Dictionary,
        EliotGame,
        EliotMove,
        EliotPlayer,
        EliotTurn,
        Rack,
        variants_of,
    )
    from engine.eliot.writer import eliot_word, eliot_write
    from engine.formula import Formula
    from engine.game import DuplicateGame, autoplay
    from engine.lexicon import Lexicon
    from engine.record import placements
    from engine.replay import draw_planned
    from engine.tiles import TileSet, rack_notation

    tiles, lexicon, formula = TileSet.load("en"), Lexicon.load(), Formula.parse(formula_name)
    game = autoplay(seed=seed, tiles=tiles, lexicon=lexicon, formula=formula)
    again = DuplicateGame(tiles=tiles, lexicon=lexicon, seed=seed, formula=formula)
    turns = []
    kept: str | None = None
    second_total = 0
    for record, placed in zip(game.rounds, placements(game.rounds), strict=True):
        draw_planned(again, rack=record.rack, leftover=record.leftover, rejected=record.rejected)
        board = again.board.copy()
        best = again.tops(2)
        second = (
            EliotMove.valid(eliot_word(board, best[1].move), best[1].ref, best[1].score)
            if len(best) > 1
            else EliotMove.none()
        )
        second_total += second.points
        again.play(record.move)
        top = EliotMove.valid(eliot_word(board, record.move), record.ref, record.score)
        notation = rack_notation(record.rack, record.leftover)
        left, _, drawn = notation.partition("+")
        reset = bool(kept) and not record.leftover
        rack = (
            Rack(kept=left, drawn=drawn, reset=reset)
            if drawn
            else Rack(kept="", drawn=left, reset=reset)
        )
        turns.append(
            EliotTurn(
                rack=rack,
                moves=(top, second),
                top=top,
                masters=(top,),
                kept=kept,
                rejected=tuple(r for r in record.rejected if r != "-"),
            )
        )
        kept = placed.leave
    turns.append(EliotTurn(rack=None, moves=(), kept=kept))
    eliot = EliotGame(
        dictionary=Dictionary("enable", "dawg", " ".join([*tiles.letters, "?"])),
        mode="arbitration",
        players=(EliotPlayer("Top", 1), EliotPlayer("Second", 2)),
        turns=tuple(turns),
        variants=variants_of(formula),
    )
    return game.to_document(), eliot_write(eliot), [game.total, second_total]


def imported(content: bytes) -> Any:
    """An Eliot save game read and made the engine's document as the product's import does,
    then replayed under its formula (``EngineError`` when it does not replay)."""
    from arbiter.services.interchange import eliot_document
    from engine.board import Layout
    from engine.eliot.reader import eliot_read
    from engine.lexicon import Lexicon
    from engine.replay import replay

    eliot = eliot_read(content, tiles="ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    document = eliot_document(eliot, tile_set="en", layout=Layout.load("standard"))
    game = replay(document, lexicon=Lexicon.load())
    return document, game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eliot", type=Path, required=True, help="Eliot's build prefix")
    parser.add_argument("--dawg", default="enable.dawg")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import django

    django.setup()
    from engine.errors import EngineError
    from engine.interchange import InterchangeError

    folder = Path(tempfile.mkdtemp(prefix="eliot-formulas-"))
    report: dict[str, Any] = {"export": [], "import": []}
    for name in FORMULAS:
        for seed in range(1, args.games + 1):
            document, content, totals = written_game(name, seed)
            plain = f"ours_{name.replace('+', '_')}_{seed}.xml"
            saved = f"saved_{name.replace('+', '_')}_{seed}.xml"
            (folder / plain).write_bytes(content)
            out = eliottxt(args.eliot, args.dawg, folder, [f"c {plain}", "a S", f"s {saved}"])
            eliot_totals = [int(t) for _, t in _SCORE.findall(out)]
            row: dict[str, Any] = {
                "formula": name,
                "seed": seed,
                "rounds": len(document["rounds"]),
                "totals": totals,
                "eliot_totals": eliot_totals,
                "same_totals": eliot_totals == totals,
                "error": next((ln for ln in out.splitlines() if "rror" in ln), ""),
            }
            try:
                again, _ = imported((folder / saved).read_bytes())
                row["saved_replays"] = rounds_of(again) == rounds_of(document)
            except (OSError, EngineError, InterchangeError) as exc:
                row["saved_replays"] = False
                row["import_error"] = str(exc)[:300]
            report["export"].append(row)
        for seed in range(1, args.games + 1):
            saved = f"eliot_{name.replace('+', '_')}_{seed}.xml"
            out = eliottxt(
                args.eliot,
                args.dawg,
                folder,
                [f"d{FORMULAS[name]} 0 1", f"s {saved}"],
                seed=seed,
            )
            row = {"formula": name, "seed": seed}
            try:
                content = (folder / saved).read_bytes()
                document, game = imported(content)
                row.update(
                    rounds=len(document["rounds"]),
                    formula_read=document.get("formula", "standard"),
                    total=game.total,
                    replays=True,
                )
            except (OSError, EngineError, InterchangeError) as exc:
                row.update(replays=False, error=str(exc)[:300], out=out[-300:])
            report["import"].append(row)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        for path in folder.glob("*.xml"):
            shutil.copy(path, args.keep / path.name)
    shutil.rmtree(folder)
    report["summary"] = {
        "exported": len(report["export"]),
        "eliot_same_totals": sum(r["same_totals"] for r in report["export"]),
        "eliot_saves_replay_here": sum(r["saved_replays"] for r in report["export"]),
        "eliot_games": len(report["import"]),
        "eliot_games_replay_here": sum(r["replays"] for r in report["import"]),
    }
    if args.json:
        print(json.dumps(report))
    else:
        for row in report["export"]:
            print(json.dumps(row))
        for row in report["import"]:
            print(json.dumps(row))
        print(json.dumps(report["summary"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
