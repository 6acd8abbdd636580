"""A duplicate game's top sequence as a GCG file (docs/interchange.md, section 3).

Only the tops make one consistent board, so the game is written one-sided: ``#player1`` plays
every top and ``#player2``, the room, passes after each one (``>room: RACK - +0 0``). A GCG
reader gives each move line to the player it names (macondo) or to the players in turn
(Quackle's ``GCGIO`` ignores the name): with the passes both read every top as the top
player's, whose total is the game's top total, and the room's as 0 (checked with Quackle's own
reader, "Checked against Quackle" in docs/interchange.md). Each move line gives the whole rack
(leftover and new tiles, no ``+``), the position in GCG coordinates (rows numbered: ``8D``
across, ``I8`` down), the word with the tiles already on the board as ``.`` and blanks in lower
case, the score and the running total. What has no GCG event (the players' moves, solos,
warnings, penalties) goes in a ``#note`` after the move. A game not played with the English
tiles names its letter distribution (``#tile-distribution french``, read by macondo and MAGPIE).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.board import Layout
from engine.notation import to_gcg
from engine.record import RoundRecord, placements

TOP = ("top", "Top")
ROOM = ("room", "Room")
# The tile sets' names in macondo's and MAGPIE's letter distributions.
DISTRIBUTIONS = {"en": "english", "fr": "french"}


def _one_line(text: str) -> str:
    return " ".join(text.split())


def gcg_write(
    rounds: Sequence[RoundRecord],
    *,
    layout: Layout | None = None,
    tiles: str = "en",
    title: str = "",
    lexicon: str = "",
    notes: Mapping[int, str] | None = None,
    description: str = "",
) -> str:
    """The top sequence of ``rounds`` (in order, from round 1) as GCG text, the room passing
    after each top; ``tiles``: the tile set's code; ``notes`` by round number; ``description``
    (``#description``, before the first move): what the game was played in, e.g. its formula
    (racks of 8 or 9 tiles are written whole, as any rack)."""
    lines = ["#character-encoding UTF-8"]
    lines.append(f"#player1 {TOP[0]} {TOP[1]}")
    lines.append(f"#player2 {ROOM[0]} {ROOM[1]}")
    if title:
        lines.append(f"#title {_one_line(title)}")
    if description:
        lines.append(f"#description {_one_line(description)}")
    if lexicon:
        lines.append(f"#lexicon {_one_line(lexicon)}")
    if tiles != "en":
        lines.append(f"#tile-distribution {DISTRIBUTIONS.get(tiles, tiles)}")
    total = 0
    for placement in placements(rounds, layout):
        record = placement.record
        total += record.score
        lines.append(
            f">{TOP[0]}: {record.rack} {to_gcg(record.ref)} {placement.dotted} "
            f"+{record.score} {total}"
        )
        note = (notes or {}).get(record.number, "")
        if note:
            lines.append(f"#note {_one_line(note)}")
        lines.append(f">{ROOM[0]}: {record.rack} - +0 0")
    return "\n".join(lines) + "\n"


__all__ = ["DISTRIBUTIONS", "gcg_write"]
