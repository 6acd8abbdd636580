"""The engine's command-line contract (``python -m engine``), as design.md fixes it.

    python -m engine top   --rack AEIRST? [--board FILE] [--lexicon enable|PATH] [--tiles en|fr]
                           [--n 10] [--json]
    python -m engine score --move "H8 WORD" [--board FILE] [--rack RACK] [--lexicon ...] [--json]
    python -m engine batch [--lexicon ...] [--tiles ...]    # JSON lines in, JSON lines out
    python -m engine game  [--seed N] [--tiles en|fr] [--lexicon ...] [--json]

Every command takes ``--formula`` (standard by default; ``joker``, ``7sur8``, ``7et8``, ``789``,
``detonante``, ``joker+7et8``...: engine.formula); a ``batch`` line may name its own.

Bad input exits with status 2 and one line on standard error naming what is wrong; ``batch``
answers a bad line with ``{"error": "..."}`` and goes on with the next.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO, TypedDict

from engine.board import LAYOUTS, Board, Layout
from engine.errors import EngineError
from engine.formula import Formula
from engine.game import DuplicateGame, autoplay
from engine.lexicon import DEFAULT, Lexicon
from engine.movegen import ScoredMove, top
from engine.tiles import TILE_SETS, TileSet
from engine.validate import Fault, Verdict, validate_text


class MoveJSON(TypedDict):
    ref: str
    word: str
    score: int


class TopJSON(TypedDict):
    moves: list[MoveJSON]


class WordJSON(TypedDict):
    word: str
    score: int


class ScoreJSON(TypedDict):
    valid: bool
    score: int
    words: list[WordJSON]
    errors: list[str]
    faults: list[str]


class UsageError(EngineError):
    """A command line that cannot be obeyed."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="Duplicate Scrabble engine.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--lexicon", default=DEFAULT, help="enable (default) or a word-list file")
        p.add_argument("--tiles", default="en", choices=TILE_SETS, help="tile set (default en)")
        p.add_argument("--layout", default="standard", choices=LAYOUTS, help="board layout")
        p.add_argument(
            "--formula",
            default="standard",
            help="standard (default), joker, 7sur8, 7et8, 789, detonante, or joker+7sur8, "
            "joker+7et8, joker+789",
        )

    p = sub.add_parser("top", help="the best moves for a rack")
    p.add_argument(
        "--rack", required=True, help="up to 7 tiles (8 or 9 in a formula with them), ? a blank"
    )
    p.add_argument("--board", help="board file (15 lines of 15 characters) or - for stdin")
    p.add_argument("--n", type=int, default=10, help="how many moves (default 10)")
    p.add_argument("--json", action="store_true")
    common(p)

    p = sub.add_parser("score", help="validate and score one move")
    p.add_argument("--move", required=True, help='a grid reference and a word, like "H8 WORD"')
    p.add_argument("--board", help="board file or - for stdin")
    p.add_argument("--rack", help="check the move's tiles against this rack")
    p.add_argument("--json", action="store_true")
    common(p)

    p = sub.add_parser("batch", help="JSON lines in (score/top), JSON lines out")
    common(p)

    p = sub.add_parser("game", help="play a whole duplicate game, the top each round")
    p.add_argument("--seed", type=int, help="the draw's seed (default: a random one, printed)")
    p.add_argument("--json", action="store_true")
    common(p)
    return parser


def read_board(source: str | None, layout: Layout, stdin: TextIO) -> Board:
    if source is None:
        return Board(layout)
    if source == "-":
        return Board.from_text(stdin.read(), layout)
    try:
        with open(source, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise UsageError(f"board file {source!r} cannot be read: {exc.strerror or exc}") from None
    return Board.from_text(text, layout)


def board_from_json(lines: Any, layout: Layout) -> Board:
    if lines is None:
        return Board(layout)
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        raise UsageError('"board" must be a list of 15 strings')
    return Board.from_lines(lines, layout)


def parse_rack(tiles: TileSet, text: Any, formula: Formula | None = None) -> str:
    """A rack of 1 to the formula's rack size (7 for standard duplicate) tiles."""
    formula = formula or Formula()
    most = formula.rack_size
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"a rack of 1 to {most} tiles is needed (? for a blank)")
    rack = tiles.parse_rack(text)
    if len(rack) > most:
        raise UsageError(
            f"rack {text!r} has {len(rack)} tiles: a rack holds at most {most} "
            f"(formula {formula.name})"
        )
    return rack


def top_json(moves: Sequence[ScoredMove]) -> TopJSON:
    return {"moves": [{"ref": m.ref, "word": m.word, "score": m.score} for m in moves]}


def score_json(verdict: Verdict) -> ScoreJSON:
    return {
        "valid": verdict.valid,
        "score": verdict.score,
        "words": [{"word": w.word, "score": w.score} for w in verdict.words],
        "errors": [p.message for p in verdict.problems],
        "faults": [p.code for p in verdict.problems],
    }


def _score(
    board: Board,
    text: str,
    rack: str | None,
    lexicon: Lexicon,
    tiles: TileSet,
    formula: Formula,
) -> Verdict:
    """A move that cannot be read is bad input; one that can be read gets a verdict, whatever
    is wrong with it on the board (off the board included)."""
    verdict = validate_text(board, text, rack=rack, lexicon=lexicon, tiles=tiles, formula=formula)
    if verdict.move is None and Fault.BAD_NOTATION in verdict.faults():
        raise UsageError(verdict.problems[0].message)
    return verdict


def _top(
    board: Board, rack: str, lexicon: Lexicon, tiles: TileSet, n: int, formula: Formula
) -> list[ScoredMove]:
    if n < 1:
        raise UsageError(f"--n must be at least 1, not {n}")
    return top(board, rack, lexicon, n=n, tiles=tiles, formula=formula)


def _batch_line(
    line: str, lexicon: Lexicon, tiles: TileSet, layout: Layout, formula: Formula
) -> dict[str, Any]:
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not a JSON object: {exc.msg} at column {exc.colno}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object"}
    op = request.get("op")
    try:
        if "formula" in request:
            if not isinstance(request["formula"], str):
                raise UsageError('"formula" must be a string like "joker+7et8"')
            formula = Formula.parse(request["formula"])
        board = board_from_json(request.get("board"), layout)
        if op == "score":
            move = request.get("move")
            if not isinstance(move, str):
                raise UsageError('"move" must be a string like "H8 WORD"')
            rack = (
                parse_rack(tiles, request["rack"], formula)
                if request.get("rack") is not None
                else None
            )
            return dict(score_json(_score(board, move, rack, lexicon, tiles, formula)))
        if op == "top":
            n = request.get("n", 10)
            if not isinstance(n, int) or isinstance(n, bool):
                raise UsageError('"n" must be a whole number')
            rack = parse_rack(tiles, request.get("rack"), formula)
            return dict(top_json(_top(board, rack, lexicon, tiles, n, formula)))
        return {"error": f'unknown "op" {op!r}: use "score" or "top"'}
    except EngineError as exc:
        return {"error": str(exc)}


def _print_game(game: DuplicateGame, out: TextIO) -> None:
    out.write(
        f"Duplicate game: seed {game.seed}, tiles {game.tiles.code}, "
        f"lexicon {game.lexicon.name}, formula {game.formula.name}\n\n"
    )
    out.write(f"{'round':>5}  {'rack':<10} {'ref':<4} {'word':<16}{'score':>6}{'total':>7}\n")
    total = 0
    for r in game.rounds:
        total += r.score
        new = r.rack
        for tile in r.leftover:
            new = new.replace(tile, "", 1)
        shown = f"{r.leftover}+{new}" if r.leftover else r.rack
        joker = {True: "  (joker replaced)", False: "  (joker stays)", None: ""}[r.joker_replaced]
        out.write(
            f"{r.number:>5}  {shown:<10} {r.ref:<4} {r.word:<16}{r.score:>6}{total:>7}{joker}\n"
        )
        for rejected in r.rejected:
            out.write(f"{'':>5}  ({rejected} rejected: back in the bag)\n")
    out.write(f"\nTotal {game.total} in {len(game.rounds)} rounds. End: {game.end_reason}.\n")


def run(argv: Sequence[str], stdin: TextIO, stdout: TextIO) -> int:
    args = _parser().parse_args(argv)
    tiles = TileSet.load(args.tiles)
    layout = Layout.load(args.layout)
    formula = Formula.parse(args.formula)
    lexicon = Lexicon.load(args.lexicon)
    if args.command == "top":
        board = read_board(args.board, layout, stdin)
        moves = _top(board, parse_rack(tiles, args.rack, formula), lexicon, tiles, args.n, formula)
        if args.json:
            json.dump(top_json(moves), stdout)
            stdout.write("\n")
        else:
            for i, m in enumerate(moves, 1):
                stdout.write(f"{i:>3}. {m.ref:<4} {m.word:<15} {m.score:>4}\n")
            if not moves:
                stdout.write("no move is possible\n")
    elif args.command == "score":
        board = read_board(args.board, layout, stdin)
        rack = parse_rack(tiles, args.rack, formula) if args.rack is not None else None
        verdict = _score(board, args.move, rack, lexicon, tiles, formula)
        if args.json:
            json.dump(score_json(verdict), stdout)
            stdout.write("\n")
        else:
            state = "valid" if verdict.valid else "NOT VALID"
            stdout.write(f"{args.move}: {state}, {verdict.score} points\n")
            for w in verdict.words:
                stdout.write(f"  {w.word} {w.score}\n")
            for p in verdict.problems:
                stdout.write(f"  - {p.message}\n")
    elif args.command == "batch":
        for line in stdin:
            if not line.strip():
                continue
            stdout.write(json.dumps(_batch_line(line, lexicon, tiles, layout, formula)) + "\n")
            stdout.flush()
    elif args.command == "game":
        game = autoplay(
            seed=args.seed, tiles=tiles, lexicon=lexicon, layout=layout, formula=formula
        )
        if args.json:
            json.dump(game.to_document(), stdout)
            stdout.write("\n")
        else:
            _print_game(game, stdout)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else argv, sys.stdin, sys.stdout)
    except EngineError as exc:
        message = " ".join(str(exc).split())
        print(f"python -m engine: error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
