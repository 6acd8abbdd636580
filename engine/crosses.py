"""Cross-sets: for every empty square of a board read in one direction, which letters may go
there given the tiles above and below it (the perpendicular word they would form), and the
face value those tiles add to that perpendicular word.

The board is read through ``Board.lines(direction)``, so the same code serves both directions:
in the lines of a direction, the perpendicular neighbours of (line, pos) are (line - 1, pos) and
(line + 1, pos).
"""

from __future__ import annotations

from engine.lexicon import LETTERS, TERMINAL, Lexicon
from engine.notation import SIZE
from engine.tiles import TileSet

NO_CROSS = -1  # cross score of a square with no perpendicular neighbour (no cross word)


def line_codes(tiles: list[list[str]], values: TileSet) -> tuple[list[list[int]], list[list[int]]]:
    """Per square: letter index 0-25 (or -1 if empty), and face value (0 for a blank)."""
    codes = [[(ord(ch.upper()) - 65) if ch else -1 for ch in line] for line in tiles]
    vals = [[values.value(ch) if ch else 0 for ch in line] for line in tiles]
    return codes, vals


def cross_sets(
    lexicon: Lexicon, codes: list[list[int]], vals: list[list[int]]
) -> tuple[list[list[int]], list[list[int]]]:
    """(allowed-letter masks, cross scores) for every square of the lines; occupied squares
    get 0."""
    mask, first, target = lexicon.mask, lexicon.first, lexicon.target
    xmask = [[LETTERS] * SIZE for _ in range(SIZE)]
    xscore = [[NO_CROSS] * SIZE for _ in range(SIZE)]
    for i in range(SIZE):
        line = codes[i]
        above_line = codes[i - 1] if i > 0 else None
        below_line = codes[i + 1] if i < SIZE - 1 else None
        for j in range(SIZE):
            if line[j] >= 0:
                xmask[i][j] = 0
                continue
            has_above = above_line is not None and above_line[j] >= 0
            has_below = below_line is not None and below_line[j] >= 0
            if not (has_above or has_below):
                continue
            # Tiles above (the prefix) and below (the suffix) in the perpendicular direction.
            top = i
            while top > 0 and codes[top - 1][j] >= 0:
                top -= 1
            bottom = i
            while bottom < SIZE - 1 and codes[bottom + 1][j] >= 0:
                bottom += 1
            total = 0
            node = 0
            for k in range(top, i):
                total += vals[k][j]
                c = codes[k][j]
                m = mask[node]
                if node < 0 or not (m >> c) & 1:
                    node = -1
                    break
                node = target[first[node] + (m & ((1 << c) - 1)).bit_count()]
            for k in range(i + 1, bottom + 1):
                total += vals[k][j]
            xscore[i][j] = total
            allowed = 0
            if node >= 0:
                m = mask[node] & LETTERS
                rest = m
                while rest:
                    low = rest & -rest
                    rest ^= low
                    n = target[first[node] + (m & (low - 1)).bit_count()]
                    for k in range(i + 1, bottom + 1):
                        c = codes[k][j]
                        mm = mask[n]
                        if not (mm >> c) & 1:
                            n = -1
                            break
                        n = target[first[n] + (mm & ((1 << c) - 1)).bit_count()]
                    if n >= 0 and mask[n] & TERMINAL:
                        allowed |= low
            xmask[i][j] = allowed
    return xmask, xscore


def anchors(codes: list[list[int]]) -> list[list[bool]]:
    """Empty squares next to a tile (in any of the four directions)."""
    out = [[False] * SIZE for _ in range(SIZE)]
    for i in range(SIZE):
        for j in range(SIZE):
            if codes[i][j] >= 0:
                continue
            out[i][j] = (
                (i > 0 and codes[i - 1][j] >= 0)
                or (i < SIZE - 1 and codes[i + 1][j] >= 0)
                or (j > 0 and codes[i][j - 1] >= 0)
                or (j < SIZE - 1 and codes[i][j + 1] >= 0)
            )
    return out
