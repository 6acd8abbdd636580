"""The ruling contract (``python -m arbiter``), as docs/design.md fixes it ("Ruling CLI").

    python -m arbiter batch [--lexicon enable|PATH] [--tiles en|fr] [--layout standard|...]

reads JSON lines and answers one JSON line each, in order, with the same pure functions the
services rule with (``arbiter.rules``); no database. A request::

    {"op": "rule", "board": [15 strings], "rack": "AFMEIOT", "round": 2,
     "slip": {"word": "FARM", "ref": "10E", "score": 9}, "policy": {...optional overrides}}

``ref`` may be ``""`` (none given), a grid reference (``8F``) or junction letters (``HOR``:
two to four letters already on the board that the word joins, rules.md case 13); ``score``
null (none announced); ``late`` and ``multiple`` are what an arbiter's entry says, and
``fallacious`` the arbiter's decision that the word forms a fallacious junction (FISF 2023,
5.3.3). ``policy.rulebook`` is ``"fisf-2023"`` (the default: the regulation in force) or
``"before-2023"``; ``policy.blitz_or_original`` says the game is a blitz or an original
formula (its warnings cost from the sixth, 5.9). ``formula`` (optional) is the game's original
formula (``"7sur8"``, ``"joker+7et8"``..., docs/formulas.md): its racks of up to nine tiles and
its bonuses; a move placing more tiles than it lets is a letter error. The answer:
``{"code", "points", "penalty", "warning", "net", "move_score", "found_top", "rank", "reason",
"article"}`` (``article``: the article of the regulation that ruled it, ``FISF 2023 · 5.3.3``;
under before-2023 the case of rules.md, with the federation's article).
A line that cannot be read answers ``{"error": "..."}`` and the batch goes on. A bad command
line exits 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from functools import cache
from typing import Any, NoReturn, TextIO, TypedDict

from arbiter.rules import Placements, Policy, RoundJudge, Rulebook, Slip, score_counts
from engine.board import LAYOUTS, Board, Layout
from engine.cli import UsageError, board_from_json, parse_rack
from engine.errors import EngineError
from engine.formula import Formula
from engine.lexicon import DEFAULT, Lexicon
from engine.movegen import generate
from engine.tiles import TILE_SETS, TileSet

POLICY_FIELDS = {f.name: f.type for f in dataclasses.fields(Policy)}
BOOL_POLICY = ("reference_rule_2016", "blitz_or_original")


class RuledJSON(TypedDict):
    code: str
    points: int
    penalty: int
    warning: bool
    net: int
    move_score: int | None
    found_top: bool
    rank: int | None
    reason: str
    article: str


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m arbiter", description="Duplicate Scrabble rulings.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("batch", help="JSON lines in (one slip each), one ruling out per line")
    p.add_argument("--lexicon", default=DEFAULT, help="enable (default) or a word-list file")
    p.add_argument("--tiles", default="en", choices=TILE_SETS, help="tile set (default en)")
    p.add_argument("--layout", default="standard", choices=LAYOUTS, help="board layout")
    return parser


def _policy(raw: Any) -> Policy:
    if raw is None:
        return Policy()
    if not isinstance(raw, dict):
        raise UsageError('"policy" must be an object')
    unknown = sorted(set(raw) - set(POLICY_FIELDS))
    if unknown:
        raise UsageError(f'"policy" has no {", ".join(unknown)}: use {", ".join(POLICY_FIELDS)}')
    for name, value in raw.items():
        if name == "rulebook":
            if value not in set(Rulebook):
                choices = " or ".join(f'"{r.value}"' for r in Rulebook)
                raise UsageError(f'"policy.rulebook" must be {choices}')
            continue
        wanted = bool if name in BOOL_POLICY else int
        if type(value) is not wanted or (wanted is int and value < 0):
            kind = "true or false" if wanted is bool else "a whole number from 0"
            raise UsageError(f'"policy.{name}" must be {kind}')
    if "rulebook" in raw:
        raw = {**raw, "rulebook": Rulebook(raw["rulebook"])}
    return dataclasses.replace(Policy(), **raw)


def _formula_name(raw: Any) -> str | None:
    if raw is not None and not isinstance(raw, str):
        raise UsageError('"formula" must be a formula\'s name ("joker", "7sur8", "joker+7et8"...)')
    return raw


def _slip(raw: Any) -> Slip:
    if not isinstance(raw, dict):
        raise UsageError('"slip" must be an object like {"word": "FARM", "ref": "8F", "score": 9}')
    word, ref, score = raw.get("word"), raw.get("ref", ""), raw.get("score")
    if not isinstance(word, str):
        raise UsageError('"slip.word" must be a string')
    if not isinstance(ref, str):
        raise UsageError(
            '"slip.ref" must be a string: a grid reference, junction letters, or "" for none'
        )
    if score is not None and (type(score) is not int or score < 0):
        raise UsageError('"slip.score" must be a whole number from 0, or null')
    flags = {k: raw.get(k, False) for k in ("late", "multiple", "fallacious")}
    if any(type(v) is not bool for v in flags.values()):
        raise UsageError('"slip.late", "slip.multiple" and "slip.fallacious" are true or false')
    return Slip(word, ref, score, **flags)


@cache
def _moves(
    board: tuple[str, ...],
    rack: str,
    layout: str,
    lexicon: Lexicon,
    tiles: TileSet,
    formula: Formula,
) -> tuple[int, dict[int, int], Placements]:
    """The top score, how many moves score what, and where each word lies in the moves, for
    a board and rack (many slips share them: computed once)."""
    position = Board.from_lines(list(board), Layout.load(layout))
    moves = generate(position, rack, lexicon, tiles, formula=formula)
    top = moves[0].score if moves else 0
    return top, score_counts(m.score for m in moves), Placements(position, moves)


def rule_line(line: str, lexicon: Lexicon, tiles: TileSet, layout: Layout) -> dict[str, Any]:
    """One request line -> its ruling (or ``{"error": ...}``)."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not a JSON object: {exc.msg} at column {exc.colno}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object"}
    try:
        if request.get("op") != "rule":
            raise UsageError(f'unknown "op" {request.get("op")!r}: use "rule"')
        board = board_from_json(request.get("board"), layout)
        formula = Formula.parse(_formula_name(request.get("formula")))
        rack = parse_rack(tiles, request.get("rack"), formula)
        number = request.get("round")
        if type(number) is not int or number < 1:
            raise UsageError('"round" must be the round number (1, 2, ...)')
        top, counts, placements = _moves(
            tuple(board.to_lines()), rack, layout.name, lexicon, tiles, formula
        )
        judge = RoundJudge(
            board=board,
            rack=rack,
            lexicon=lexicon,
            tiles=tiles,
            round_number=number,
            top_score=top,
            score_counts=counts,
            policy=_policy(request.get("policy")),
            placements=placements,
            formula=formula,
        )
        ruled = judge.rule(_slip(request.get("slip")))
    except EngineError as exc:
        return {"error": " ".join(str(exc).split())}
    answer: RuledJSON = {
        "code": ruled.code.value,
        "points": ruled.points,
        "penalty": ruled.penalty,
        "warning": ruled.warning,
        "net": ruled.net,
        "move_score": ruled.move_score,
        "found_top": ruled.found_top,
        "rank": ruled.rank,
        "reason": ruled.reason,
        "article": ruled.article,
    }
    return dict(answer)


def run(argv: Sequence[str], stdin: TextIO, stdout: TextIO) -> int:
    args = _parser().parse_args(argv)
    tiles = TileSet.load(args.tiles)
    layout = Layout.load(args.layout)
    lexicon = Lexicon.load(args.lexicon)
    for line in stdin:
        if line.strip():
            stdout.write(json.dumps(rule_line(line, lexicon, tiles, layout)) + "\n")
            stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else argv, sys.stdin, sys.stdout)
    except EngineError as exc:
        print(f"python -m arbiter: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
