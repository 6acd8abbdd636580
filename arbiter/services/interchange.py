"""A game prepared in Eliot, run here: its racks and tops become a pre-drawn game.

The file is read by ``engine.eliot`` (every element checked, each problem with its line), its
played turns become the engine's game document (rack, leftover, top and score per round) and
that document must replay under the event's tile set, lexicon and board (``predrawn_check``)
before the game is added with ``game_create``. Nothing is guessed: a rack whose leftover Eliot
put back (``-``) is refused unless the file names the rack refused with it (the comment this
product writes, ``<!-- rejected ... -->``: Eliot does not record it); a move whose
score is not the one the engine computes is refused. The players' moves of an arbitration
file are read and checked but not kept: the room's players play the game anew.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils.translation import gettext, ngettext

from arbiter.services.common import Actor
from arbiter.state import predrawn_check
from engine.eliot import MAX_BYTES, EliotGame, EliotTurn, InterchangeError, Problem, eliot_read
from engine.record import GameDocument, RoundDocument
from engine.tiles import TileSet, sort_tiles
from tournament.errors import ApplicationError
from tournament.models import Event, Game
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open
from tournament.services.games import game_create

_ROUND = re.compile(r"round (\d+)")


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
            data={
                "code": "bad_file",
                "errors": [
                    {"line": p.line, "element": p.element, "message": p.message} for p in problems
                ],
            },
        )
        self.problems = problems


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


def eliot_document(eliot: EliotGame, *, tile_set: str) -> GameDocument:
    """The engine's game document of the file's played turns; ``GameImportError`` if a turn
    cannot be one."""
    problems = []
    rounds: list[RoundDocument] = []
    for number, turn in enumerate(eliot.played, start=1):
        assert turn.rack is not None and turn.top is not None  # a played turn has both
        if turn.rack.reset and not turn.rejected:
            problems.append(
                Problem(
                    turn.line,
                    "GameRack",
                    gettext(
                        "turn %(number)d: the rack %(rack)s puts the leftover back; the rack "
                        "refused with it is not in the file, so the draw cannot be replayed"
                    )
                    % {"number": number, "rack": turn.rack},
                )
            )
            continue
        rounds.append(
            {
                "number": number,
                "rack": sort_tiles(turn.rack.tiles),
                "leftover": sort_tiles(_leftover(turn)),
                "rejected": list(turn.rejected),
                "ref": turn.top.coord,
                "word": turn.top.word,
                "score": turn.top.points,
            }
        )
    if not eliot.played:
        problems.append(
            Problem(None, "History", gettext("no turn has a move on the board (<GameMove>)"))
        )
    if problems:
        raise GameImportError(problems)
    return {
        "tiles": tile_set,
        "seed": None,
        "rounds": rounds,
        "total": sum(r["score"] for r in rounds),
        "end": "",
    }


def eliot_check(*, event: Event, content: bytes) -> tuple[EliotGame, dict[str, Any]]:
    """Read the file and check its game replays in this event; ``GameImportError`` lists every
    problem found."""
    if len(content) > MAX_BYTES:
        raise GameImportError(
            [
                Problem(
                    None,
                    "",
                    gettext("the file is larger than %(mb)d MB") % {"mb": MAX_BYTES // 2**20},
                )
            ]
        )
    tiles = TileSet.load(event.tile_set)
    try:
        eliot = eliot_read(content, tiles=tiles.letters)
    except InterchangeError as exc:
        raise GameImportError(exc.problems) from None
    document = eliot_document(eliot, tile_set=event.tile_set)
    try:
        checked = predrawn_check(document, event)
    except ApplicationError as exc:
        m = _ROUND.search(exc.message)
        turn = (
            eliot.played[int(m.group(1)) - 1]
            if m and 0 < int(m.group(1)) <= len(eliot.played)
            else None
        )
        raise GameImportError(
            [Problem(turn.line if turn else None, "Turn" if turn else "", exc.message)]
        ) from None
    return eliot, checked


@transaction.atomic
def game_import_eliot(*, event: Event, file_name: str, content: bytes, actor: Actor) -> Game:
    """Add the file's game to the event as a pre-drawn game (its racks, in order, and the tops
    they were played with)."""
    event_require_open(event)
    eliot, document = eliot_check(event=event, content=content)
    game = game_create(event=event, actor=actor, source=Game.Source.PREDRAWN, predrawn=document)
    audit_record(
        event=event,
        game=game,
        action="arbiter.game.imported",
        actor=actor,
        data={
            "file": file_name[:200],
            "format": "eliot",
            "mode": eliot.mode,
            "rounds": len(document["rounds"]),
            "top_total": document["total"],
            "players_in_file": len(eliot.players),
        },
    )
    return game
