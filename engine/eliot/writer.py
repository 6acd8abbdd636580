"""Writing Eliot's save game (``<EliotGame format="2">``) as real Eliot loads it.

``eliot_write`` lays a game out in the order Eliot writes it (docs/interchange.md, 1.2), the
statistics included, names and typed words escaped (Eliot does not escape them, its reader
does unescape). What Eliot checks when it loads (checked against the real program, see
"Checked against Eliot" in docs/interchange.md):

- every ``valid`` move is placed again on Eliot's board: its word must be Eliot's, a tile
  already on the board in upper case even when it is a blank (``eliot_word``);
- ``Letters`` must be the loaded dictionary's; ``WordNb`` too when present, so it is written
  only when the caller knows the exact build (ENABLE has two: 168,548 and 172,820 words);
- ``points`` of moves are not read: Eliot scores valid moves itself.

What a file cannot hold is said in XML comments (``notes``) and by the caller to people.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from engine.board import Board
from engine.eliot.model import (
    ELIOT_PENALTY_VALUE,
    ELIOT_WARNINGS_LIMIT,
    EliotGame,
    EliotMove,
)
from engine.move import Move

_INDENT = "    "
# A rack refused for the draw minimum before the turn's rack, kept where Eliot reads nothing:
# a comment (``<!-- rejected AEIOUEA -->``), so that the game replays here as it was drawn.
REJECTED = "rejected"


def eliot_word(board: Board, move: Move) -> str:
    """The word of ``move`` (played on ``board``, before it is placed) as Eliot writes it: the
    squares already holding a tile in upper case, blank or not; the move's own blanks in lower
    case."""
    return "".join(
        board[r, c].upper() if board[r, c] else letter for r, c, letter in move.squares()
    )


# What XML 1.0 cannot hold (its ``Char`` production): the controls but tab, line feed and
# carriage return, lone surrogates, U+FFFE and U+FFFF. The doors refuse them in what people type
# (``tournament.vocabulary.NOT_TEXT``); whatever a row holds, the file stays well-formed: each
# is written U+FFFD, the replacement character.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` with every character XML cannot hold written U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _element(tag: str, attributes: Sequence[tuple[str, str]] = (), text: str | None = None) -> str:
    attrs = "".join(f" {name}={quoteattr(xml_text(value))}" for name, value in attributes)
    if text is None:
        return f"<{tag}{attrs} />"
    return f"<{tag}{attrs}>{escape(xml_text(text))}</{tag}>"


def _comment(text: str) -> str:
    return "<!-- " + " ".join(xml_text(text).replace("--", "- -").split()) + " -->"


def eliot_write(
    game: EliotGame,
    *,
    warnings_free: int = ELIOT_WARNINGS_LIMIT,
    warning_penalty: int = ELIOT_PENALTY_VALUE,
    comment: str = "",
    notes: Sequence[str] = (),
) -> bytes:
    """The game as Eliot saves it (UTF-8, names and slips escaped), statistics included;
    ``comment`` and each of ``notes`` as XML comments before the statistics."""
    lines: list[str] = ['<?xml version="1.0" encoding="UTF-8"?>', '<EliotGame format="2">']

    def put(depth: int, text: str) -> None:
        lines.append(_INDENT * depth + text)

    d = game.dictionary
    put(1, "<Dictionary>")
    put(2, _element("Name", text=d.name))
    put(2, _element("Type", text=d.type))
    put(2, _element("Letters", text=d.letters))
    if d.words is not None:
        put(2, _element("WordNb", text=str(d.words)))
    put(1, "</Dictionary>")
    put(1, "<Game>")
    put(2, _element("Mode", text=game.mode))
    for variant in game.variants:
        put(2, _element("Variant", text=variant))
    for pid, p in enumerate(game.players):
        put(2, f'<Player id="{pid}">')
        put(3, _element("Name", text=p.name))
        put(3, _element("Type", text=p.type))
        if p.level is not None:
            put(3, _element("Level", text=str(p.level)))
        put(3, _element("TableNb", text=str(p.table)))
        put(2, "</Player>")
    put(2, _element("Turns", text=str(len(game.turns))))
    put(1, "</Game>")
    put(1, "<History>")
    for turn in game.turns:
        put(2, "<Turn>")
        for pid in range(len(game.players)):
            if turn.kept is not None:
                put(3, _element("PlayerRack", [("playerId", str(pid))], turn.kept))
        put(3, _element("MasterMove", EliotMove.none().attributes()))
        for refused in turn.rejected:
            put(3, _comment(f"{REJECTED} {refused}"))
        if turn.rack is not None:
            if turn.rack.drawn or turn.rack.reset:  # nothing drawn: Eliot writes no rack
                put(3, _element("GameRack", text=str(turn.rack)))
                for pid in range(len(game.players)):
                    put(3, _element("PlayerRack", [("playerId", str(pid))], str(turn.rack)))
            for pid, move in enumerate(turn.moves):
                put(3, _element("PlayerMove", [("playerId", str(pid)), *move.attributes()]))
        for master in turn.masters:
            put(3, _element("MasterMove", master.attributes()))
        for e in turn.events:
            attributes = [("playerId", str(e.player))]
            if e.kind != "Warning":
                attributes.append(("points", str(e.points)))
            put(3, _element(e.kind, attributes))
        if turn.top is not None:
            put(3, _element("GameMove", turn.top.attributes()))
        put(2, "</Turn>")
    put(1, "</History>")
    for text in (comment, *notes):
        if text:
            put(1, _comment(text))
    put(1, "<Statistics>")
    put(2, _element("GameStats", [("totalScore", str(game.top_total))]))
    stats = game.stats(warnings_free=warnings_free, warning_penalty=warning_penalty)
    for pid, s in enumerate(stats):
        put(
            2,
            _element(
                "PlayerStats",
                [
                    ("playerId", str(pid)),
                    ("rawScore", str(s.raw)),
                    ("warningsNb", str(s.warnings)),
                    ("penaltiesPoints", str(s.penalties)),
                    ("solosPoints", str(s.solos)),
                    ("totalScore", str(s.total)),
                    ("diffWithTop", str(s.diff)),
                    ("percentTop", s.percent),
                    ("rank", str(s.rank)),
                ],
            ),
        )
    put(1, "</Statistics>")
    lines.append("</EliotGame>")
    return ("\n".join(lines) + "\n").encode("utf-8")


__all__ = ["REJECTED", "eliot_word", "eliot_write"]
