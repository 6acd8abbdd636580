"""A game prepared in Eliot, run here: its racks and tops become a pre-drawn game.

The file is read by ``engine.eliot`` (every element checked, each problem with its line), its
played turns become the engine's game document (rack, leftover, top and score per round) and
that document must replay under the event's tile set, lexicon and board (``predrawn_check``)
before the game is added with ``game_create``. The racks are the game: a rack whose leftover
Eliot put back (``-``) replays as such (the rack refused with it, which Eliot does not record,
is written ``-``; a rack named in this product's ``<!-- rejected ... -->`` comment replays as
refused), a last rack of leftover tiles alone is the leftover. Words come back to the engine's
notation (a blank already on the board in lower case, where Eliot writes it in upper case). A
move whose score is not the one the engine computes is refused. The players' moves of an
arbitration file are read and checked but not kept: the room's players play the game anew.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext, gettext_noop, ngettext

from arbiter.services.common import Actor
from arbiter.state import predrawn_check
from engine.board import Board, Layout
from engine.eliot.model import EliotGame, EliotTurn
from engine.eliot.reader import MAX_BYTES, eliot_read
from engine.errors import EngineError
from engine.game import PUT_BACK
from engine.interchange import InterchangeError, Problem, read_json
from engine.move import Move
from engine.record import GameDocument, RoundDocument
from engine.tiles import TileSet, sort_tiles
from tournament.errors import ApplicationError
from tournament.models import Event, Game
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open
from tournament.services.games import game_create

_ROUND = re.compile(r"round (\d+)")
JSON_MAX_BYTES = 2 * 1024 * 1024  # a pre-drawn game's document is a few kB
PREDRAWN_MAX_BYTES = max(MAX_BYTES, JSON_MAX_BYTES)  # what an upload of either may hold
_XML_START = re.compile(rb"^(?:\xef\xbb\xbf)?\s*<")


class GameImportError(ApplicationError):
    """The file was refused; ``problems`` lists each thing wrong, with its line and element."""

    def __init__(self, problems: list[Problem]) -> None:
        count = len(problems)
        super().__init__(
            ngettext(
                "Nothing imported: %(count)d problem in the file.",
                "Nothing imported: %(count)d problems in the file.",
                count,
            )
            % {"count": count},
            code="bad_file",
            data={
                "errors": [
                    {
                        "line": p.line,
                        "element": p.element,
                        "message": p.say(gettext),
                        "text": p.text(gettext),
                    }
                    for p in problems
                ],
            },
        )
        self.problems = problems

    def lines(self) -> list[str]:
        """Each problem as a sentence saying where it is, in the request's language."""
        return [p.text(gettext) for p in self.problems]


def _leftover(turn: EliotTurn) -> str:
    """The tiles the round's rack kept from the round before."""
    assert turn.rack is not None
    if turn.rack.reset:
        return ""
    if turn.rack.kept:
        return turn.rack.kept
    if turn.kept and sort_tiles(turn.kept) == sort_tiles(turn.rack.tiles):
        return turn.rack.tiles  # the bag was empty: the leftover alone is the rack
    return ""


def engine_word(board: Board, move: Move) -> str:
    """A word as the engine writes it: the tiles already on ``board`` as they stand there (a
    blank in lower case, where Eliot writes every board tile in upper case)."""
    return "".join(board[r, c] or letter for r, c, letter in move.squares())


def eliot_document(eliot: EliotGame, *, tile_set: str, layout: Layout) -> GameDocument:
    """The engine's game document of the file's played turns; ``GameImportError`` if a turn
    cannot be one."""
    problems = []
    rounds: list[RoundDocument] = []
    board = Board(layout)
    for number, turn in enumerate(eliot.played, start=1):
        assert turn.rack is not None and turn.top is not None  # a played turn has both
        try:
            move = Move.from_ref(turn.top.coord, turn.top.word)
            word = engine_word(board, move)
            board.play(move)
        except EngineError as exc:
            problems.append(
                Problem(
                    turn.line,
                    "GameMove",
                    gettext_noop("turn %(number)d: the move does not go on the board: %(error)s"),
                    {"number": number, "error": str(exc)},
                )
            )
            break
        rejected = list(turn.rejected) or ([PUT_BACK] if turn.rack.reset else [])
        rounds.append(
            {
                "number": number,
                "rack": sort_tiles(turn.rack.tiles),
                "leftover": sort_tiles(_leftover(turn)),
                "rejected": rejected,
                "ref": turn.top.coord,
                "word": word,
                "score": turn.top.points,
            }
        )
    if not eliot.played:
        problems.append(
            Problem(None, "History", gettext_noop("no turn has a move on the board (<GameMove>)"))
        )
    if problems:
        raise GameImportError(problems)
    document: GameDocument = {
        "tiles": tile_set,
        "seed": None,
        "rounds": rounds,
        "total": sum(r["score"] for r in rounds),
        "end": "",
    }
    if not eliot.formula.is_standard:  # Eliot's variants (docs/formulas.md)
        document["formula"] = eliot.formula.name
    return document


@dataclass(frozen=True)
class PredrawnFile:
    """A pre-drawn game read from a file and checked against the event: its document, the
    format it came in, and for an Eliot file the game as the file holds it."""

    document: dict[str, Any]
    format: str  # "eliot" or "json"
    eliot: EliotGame | None = None

    @property
    def unnamed(self) -> list[int]:
        """The Eliot file's players with no name in it, by position from 1 (as "Player N")."""
        if self.eliot is None:
            return []
        return [i for i, p in enumerate(self.eliot.players, start=1) if not p.name]


def _replays(document: GameDocument, event: Event, eliot: EliotGame | None) -> dict[str, Any]:
    try:
        return predrawn_check(document, event)
    except ApplicationError as exc:
        m = _ROUND.search(exc.message)
        turn = (
            eliot.played[int(m.group(1)) - 1]
            if eliot is not None and m and 0 < int(m.group(1)) <= len(eliot.played)
            else None
        )
        raise GameImportError(
            [
                Problem(
                    turn.line if turn else None,
                    "Turn" if turn else "",
                    "%(message)s",
                    {"message": exc.message},
                )
            ]
        ) from None


def eliot_check(*, event: Event, content: bytes) -> PredrawnFile:
    """Read an Eliot file and check its game replays in this event; ``GameImportError`` lists
    every problem found."""
    tiles = TileSet.load(event.tile_set)
    try:
        eliot = eliot_read(content, tiles=tiles.letters)
    except InterchangeError as exc:
        raise GameImportError(exc.problems) from None
    document = eliot_document(
        eliot, tile_set=event.tile_set, layout=Layout.load(event.board_layout)
    )
    return PredrawnFile(_replays(document, event, eliot), "eliot", eliot)


def predrawn_json_check(*, event: Event, content: bytes) -> PredrawnFile:
    """Read the engine's game document (``python -m engine game --json``) with every limit
    checked as it is read (size, encoding, nesting, numbers), then check it replays here."""
    try:
        document = read_json(content, max_bytes=JSON_MAX_BYTES)
    except InterchangeError as exc:
        raise GameImportError(exc.problems) from None
    return PredrawnFile(_replays(document, event, None), "json")


def predrawn_file_check(*, event: Event, content: bytes) -> PredrawnFile:
    """An Eliot save game (XML) or the engine's JSON document, told apart by their first
    character, read and checked against the event."""
    if _XML_START.match(content[:1024]):
        return eliot_check(event=event, content=content)
    return predrawn_json_check(event=event, content=content)


@transaction.atomic
def game_import_predrawn(
    *, event: Event, file_name: str, content: bytes, actor: Actor, formula: str | None = None
) -> tuple[Game, PredrawnFile]:
    """Add the file's game (Eliot XML or the engine's JSON) to the event as a pre-drawn game:
    its racks, in order, and the tops they were played with. Nothing is added when anything
    in the file is wrong."""
    event_require_open(event)
    read = predrawn_file_check(event=event, content=content)
    document = read.document
    game = game_create(
        event=event,
        actor=actor,
        source=Game.Source.PREDRAWN,
        predrawn=document,
        formula=formula,
    )
    data: dict[str, Any] = {
        "file": file_name[:200],
        "format": read.format,
        "rounds": len(document["rounds"]),
        "top_total": document["total"],
    }
    if read.eliot is not None:
        data |= {
            "mode": read.eliot.mode,
            "players_in_file": len(read.eliot.players),
            "players_unnamed": len(read.unnamed),
        }
    audit_record(event=event, game=game, action="arbiter.game.imported", actor=actor, data=data)
    return game, read


def predrawn_imported_message(game: Game, read: PredrawnFile) -> str:
    """What the director reads once the game is added: its rounds and top total, and for an
    Eliot file its players (not imported: the room's players play the game anew), those with no
    name in the file named "Player N" as the page lists them."""
    document = read.document
    text = gettext(
        "Game %(number)d is added: %(rounds)d pre-drawn rounds, a top total of %(total)d."
    ) % {"number": game.number, "rounds": len(document["rounds"]), "total": document["total"]}
    if read.eliot is None:
        return text
    count = len(read.eliot.players)
    text += " " + ngettext(
        "The file's player is not imported (the event's players play the game).",
        "The file's %(count)d players are not imported (the event's players play the game).",
        count,
    ) % {"count": count}
    unnamed = read.unnamed
    if unnamed:
        names = ", ".join(gettext("Player %(n)d") % {"n": n} for n in unnamed[:10])
        text += " " + ngettext(
            "%(count)d of them has no name in the file (Eliot's text interface names nobody): "
            "%(names)s.",
            "%(count)d of them have no name in the file (Eliot's text interface names nobody): "
            "%(names)s.",
            len(unnamed),
        ) % {"count": len(unnamed), "names": names + (", ..." if len(unnamed) > 10 else "")}
    return text


def game_import_eliot(*, event: Event, file_name: str, content: bytes, actor: Actor) -> Game:
    """``game_import_predrawn`` of an Eliot file (what the import page was first made for)."""
    return game_import_predrawn(event=event, file_name=file_name, content=content, actor=actor)[0]


__all__ = [
    "JSON_MAX_BYTES",
    "MAX_BYTES",
    "PREDRAWN_MAX_BYTES",
    "GameImportError",
    "PredrawnFile",
    "eliot_check",
    "eliot_document",
    "game_import_eliot",
    "game_import_predrawn",
    "predrawn_file_check",
    "predrawn_imported_message",
    "predrawn_json_check",
]
