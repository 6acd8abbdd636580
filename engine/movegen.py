"""Move generation: every legal placement for a board and a rack, best first.

The generator is Gordon's, on the GADDAG's flat arrays (``engine.lexicon``): for each line of the
board in each direction (``Board.lines``), from each anchor square, it goes left placing tiles (or
reading those on the board) until it crosses the separator, then right, only ever along real
words through the anchor, checking each new tile against the cross-sets. It never places a tile
on another anchor to the left, so each move is made once, from its leftmost anchor. Scores are
kept incrementally. Blanks are tried as every letter.
Each placement is produced once: a single tile that forms words both ways is written across.
On an empty board only moves across are made (duplicate slips write the first move across).

Moves are handed to a collector: ``generate`` keeps all of them, ``top`` keeps the N best
without building the full list (a running N-th best score is the threshold below which nothing
is kept).

The order of the result is one total order, documented in engine/README.md:
score (high first), then across before down, then row, then column (top-left first), then the
word alphabetically by its letters, real tiles before blanks.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from engine import native
from engine.board import Board
from engine.crosses import NO_CROSS, anchors, cross_sets, line_codes
from engine.formula import Formula
from engine.lexicon import SEP_BIT, TERMINAL, Lexicon
from engine.move import Move
from engine.notation import SIZE, Direction
from engine.tiles import BLANK, TileSet, sort_tiles

_LETTER_CHARS = [chr(65 + i) for i in range(26)]
_BLANK_CHARS = [chr(97 + i) for i in range(26)]


@dataclass(frozen=True)
class ScoredMove:
    move: Move
    score: int
    used: str  # rack tiles the move uses, ``?`` for a blank, sorted as racks are

    @property
    def ref(self) -> str:
        return self.move.ref

    @property
    def word(self) -> str:
        return self.move.word

    @property
    def tiles(self) -> int:
        return len(self.used)

    def sort_key(self) -> tuple[int, int, int, int, str, str]:
        return order_key(self.score, self.move)

    def __str__(self) -> str:
        return f"{self.move} {self.score}"


def order_key(score: int, move: Move) -> tuple[int, int, int, int, str, str]:
    """The total order of generated moves (see the module docstring)."""
    return (-score, int(move.direction), move.row, move.col, move.word.upper(), move.word)


Raw = tuple[int, int, int, int, str, int]  # score, direction, line, start, word, tiles placed


def _rack_counts(rack: str) -> list[int]:
    counts = [0] * 27
    for tile in rack:
        counts[26 if tile == BLANK else ord(tile) - 65] += 1
    return counts


class _Collector:
    """Keeps found moves; with ``keep`` set, drops those below the running ``keep``-th best
    score."""

    __slots__ = ("keep", "found", "best", "threshold")

    def __init__(self, keep: int | None) -> None:
        self.keep = keep
        self.found: list[Raw] = []
        self.best: list[int] = []  # min-heap of the `keep` best scores seen
        self.threshold = -1

    def add(self, score: int, raw: Raw) -> None:
        keep = self.keep
        if keep is not None:
            best = self.best
            if len(best) < keep:
                heapq.heappush(best, score)
                if len(best) == keep:
                    self.threshold = best[0]
            elif score > self.threshold:
                heapq.heapreplace(best, score)
                self.threshold = best[0]
        self.found.append(raw)


def _search(
    board: Board,
    rack: str,
    lexicon: Lexicon,
    tiles: TileSet,
    keep: int | None,
    formula: Formula,
) -> list[Raw]:
    """Run the generator over every line of the board in each direction."""
    values = [tiles.values.get(ch, 0) for ch in _LETTER_CHARS]
    bonus = list(formula.bonus_table())
    counts = _rack_counts(rack)
    collector = _Collector(keep)
    empty = board.is_empty
    directions = (Direction.ACROSS,) if empty else (Direction.ACROSS, Direction.DOWN)
    for direction in directions:
        tl, lml, wml = board.lines(direction)
        codes, vals = line_codes(tl, tiles)
        xmask, xscore = cross_sets(lexicon, codes, vals)
        if empty:
            sr, sc = board.layout.start
            anc = [[False] * SIZE for _ in range(SIZE)]
            anc[sr][sc] = True  # empty board: across only, so line = row
        else:
            anc = anchors(codes)
        for li in range(SIZE):
            if any(anc[li]):
                line = _Line(
                    int(direction),
                    li,
                    codes[li],
                    vals[li],
                    tl[li],
                    lml[li],
                    wml[li],
                    xmask[li],
                    xscore[li],
                    anc[li],
                )
                _search_line(line, lexicon, values, counts, collector, bonus, formula.max_played)
    return collector.found


@dataclass(frozen=True)
class _Line:
    direction: int
    index: int
    code: list[int]  # letter index per square, -1 if empty
    val: list[int]  # face value of the tile on each square
    chars: list[str]  # the tiles as written (lower case for a blank)
    lm: list[int]
    wm: list[int]
    xm: list[int]  # cross-set per square
    xs: list[int]  # cross score per square (NO_CROSS without a perpendicular word)
    anchor: list[bool]


def _search_line(
    line: _Line,
    lexicon: Lexicon,
    values: list[int],
    counts: list[int],
    out: _Collector,
    bonus: list[int],
    max_played: int,
) -> None:
    """Every move whose leftmost anchor lies on ``line``. ``counts`` is the rack (26 = blank),
    ``bonus`` the bonus per tiles placed (0-15), ``max_played`` the most tiles a move places.

    The letter loop and the blank loop of ``go_right`` and ``place_left`` look alike on purpose:
    they are the hot path (hundreds of thousands of calls for a rack with blanks), and a shared
    helper would add a Python call per explored node. ``bench/movegen.py`` measures them."""
    mask, first, target = lexicon.gaddag
    d, li = line.direction, line.index
    code, val, chars, lm, wm, xm, xs, is_anchor = (
        line.code,
        line.val,
        line.chars,
        line.lm,
        line.wm,
        line.xm,
        line.xs,
        line.anchor,
    )
    left: list[str] = []  # letters from the anchor leftwards
    right: list[str] = []  # letters right of the anchor
    a = 0  # the anchor being worked
    right_free = True  # the square right of the anchor is empty (or the edge)

    def record(score: int, start: int, ntiles: int) -> None:
        score += bonus[ntiles]
        if score < out.threshold:
            return
        if d == 1 and ntiles == 1:
            # A lone tile that also forms a word across was already made across.
            for p in range(start, start + len(left) + len(right)):
                if code[p] < 0 and xs[p] != NO_CROSS:
                    return
        out.add(score, (score, d, li, start, "".join(reversed(left)) + "".join(right), ntiles))

    def go_right(
        pos: int, node: int, msum: int, wmul: int, xsum: int, ntiles: int, rmask: int
    ) -> None:
        depth = len(right)
        while pos < SIZE and code[pos] >= 0:  # follow tiles already on the board
            c = code[pos]
            m = mask[node]
            if not (m >> c) & 1:
                del right[depth:]
                return
            node = target[first[node] + (m & ((1 << c) - 1)).bit_count()]
            msum += val[pos]
            right.append(chars[pos])
            pos += 1
        m = mask[node]
        if m & TERMINAL:
            record(msum * wmul + xsum, a - len(left) + 1, ntiles)
        if pos < SIZE and ntiles < max_played:
            allowed = m & xm[pos]
            if allowed:
                lmp = lm[pos]
                wmp = wm[pos]
                xsp = xs[pos]
                cand = allowed & rmask
                while cand:
                    low = cand & -cand
                    cand ^= low
                    letter = low.bit_length() - 1
                    v = values[letter]
                    counts[letter] -= 1
                    right.append(_LETTER_CHARS[letter])
                    go_right(
                        pos + 1,
                        target[first[node] + (m & (low - 1)).bit_count()],
                        msum + v * lmp,
                        wmul * wmp,
                        xsum if xsp < 0 else xsum + (xsp + v * lmp) * wmp,
                        ntiles + 1,
                        rmask if counts[letter] else rmask ^ low,
                    )
                    right.pop()
                    counts[letter] += 1
                if counts[26]:
                    counts[26] -= 1
                    cand = allowed
                    while cand:
                        low = cand & -cand
                        cand ^= low
                        letter = low.bit_length() - 1
                        right.append(_BLANK_CHARS[letter])
                        go_right(
                            pos + 1,
                            target[first[node] + (m & (low - 1)).bit_count()],
                            msum,
                            wmul * wmp,
                            xsum if xsp < 0 else xsum + xsp * wmp,
                            ntiles + 1,
                            rmask,
                        )
                        right.pop()
                    counts[26] += 1
        del right[depth:]

    def covered(
        pos: int, node: int, msum: int, wmul: int, xsum: int, ntiles: int, rmask: int
    ) -> None:
        """``pos`` is now the leftmost square covered: end the word here, or cross the
        separator and go right, or go on leftwards."""
        if pos > 0 and code[pos - 1] >= 0:  # a tile on the left must be part of the word
            c = code[pos - 1]
            m = mask[node]
            if (m >> c) & 1:
                left.append(chars[pos - 1])
                covered(
                    pos - 1,
                    target[first[node] + (m & ((1 << c) - 1)).bit_count()],
                    msum + val[pos - 1],
                    wmul,
                    xsum,
                    ntiles,
                    rmask,
                )
                left.pop()
            return
        m = mask[node]
        if m & TERMINAL and right_free and len(left) >= 2:
            record(msum * wmul + xsum, pos, ntiles)
        if m & SEP_BIT and a < SIZE - 1:
            go_right(
                a + 1,
                target[first[node] + (m & (SEP_BIT - 1)).bit_count()],
                msum,
                wmul,
                xsum,
                ntiles,
                rmask,
            )
        if pos > 0 and (rmask or counts[26]) and not is_anchor[pos - 1] and ntiles < max_played:
            place_left(pos - 1, node, msum, wmul, xsum, ntiles, rmask)

    def place_left(
        pos: int, node: int, msum: int, wmul: int, xsum: int, ntiles: int, rmask: int
    ) -> None:
        """Put a rack tile on the empty square ``pos``, going left."""
        m = mask[node]
        allowed = m & xm[pos]
        if not allowed:
            return
        lmp = lm[pos]
        wmp = wm[pos]
        xsp = xs[pos]
        cand = allowed & rmask
        while cand:
            low = cand & -cand
            cand ^= low
            letter = low.bit_length() - 1
            v = values[letter]
            counts[letter] -= 1
            left.append(_LETTER_CHARS[letter])
            covered(
                pos,
                target[first[node] + (m & (low - 1)).bit_count()],
                msum + v * lmp,
                wmul * wmp,
                xsum if xsp < 0 else xsum + (xsp + v * lmp) * wmp,
                ntiles + 1,
                rmask if counts[letter] else rmask ^ low,
            )
            left.pop()
            counts[letter] += 1
        if counts[26]:
            counts[26] -= 1
            cand = allowed
            while cand:
                low = cand & -cand
                cand ^= low
                letter = low.bit_length() - 1
                left.append(_BLANK_CHARS[letter])
                covered(
                    pos,
                    target[first[node] + (m & (low - 1)).bit_count()],
                    msum,
                    wmul * wmp,
                    xsum if xsp < 0 else xsum + xsp * wmp,
                    ntiles + 1,
                    rmask,
                )
                left.pop()
            counts[26] += 1

    rmask0 = 0
    for i in range(26):
        if counts[i]:
            rmask0 |= 1 << i
    for a in range(SIZE):
        if is_anchor[a]:
            right_free = a == SIZE - 1 or code[a + 1] < 0
            place_left(a, 0, 0, 1, 0, 0, rmask0)


def _to_moves(raw: list[Raw], rack: str) -> list[ScoredMove]:
    out = []
    for score, d, line, start, word, _ in raw:
        direction = Direction(d)
        row, col = (line, start) if direction is Direction.ACROSS else (start, line)
        out.append(ScoredMove(Move(row, col, direction, word), score, ""))
    return out


def _with_used(moves: list[ScoredMove], board: Board) -> list[ScoredMove]:
    result = []
    for sm in moves:
        used = sort_tiles(
            "".join(BLANK if ch.islower() else ch for _, _, ch in board.placed_by(sm.move))
        )
        result.append(ScoredMove(sm.move, sm.score, used))
    return result


_STANDARD = Formula()
_chosen: list[str] = []  # the engine in use, once known


def engine_in_use() -> str:
    """``pure`` or ``native``: as ``use_engine`` set it, else as ``DUPLICATE_ENGINE`` says (by
    default native when built). A bad value raises a one-line ``EngineChoiceError``."""
    if not _chosen:
        _chosen.append(native.from_environment())
    return _chosen[0]


def use_engine(name: str | None) -> None:
    """Run ``name`` (``pure`` or ``native``) from now on in this process; None goes back to
    what ``DUPLICATE_ENGINE`` says."""
    _chosen.clear()
    if name is not None:
        _chosen.append(native.check(name))


def _native_for(engine: str | None) -> bool:
    return (engine_in_use() if engine is None else native.check(engine)) == "native"


def generate(
    board: Board,
    rack: str,
    lexicon: Lexicon,
    tiles: TileSet | None = None,
    *,
    engine: str | None = None,
    formula: Formula | None = None,
) -> list[ScoredMove]:
    """Every legal move for ``rack`` (``?`` for a blank) on ``board``, in the total order.
    ``engine`` (``pure`` or ``native``) overrides the engine in use for this call; ``formula``
    (standard by default) gives the bonus per tiles placed and the most tiles a move places."""
    tiles = tiles or TileSet.load("en")
    formula = formula or _STANDARD
    if _native_for(engine):
        return native.search(board, rack, lexicon, tiles, 0, formula)
    moves = _to_moves(_search(board, rack, lexicon, tiles, None, formula), rack)
    moves.sort(key=ScoredMove.sort_key)
    return _with_used(moves, board)


def top(
    board: Board,
    rack: str,
    lexicon: Lexicon,
    n: int = 1,
    tiles: TileSet | None = None,
    *,
    engine: str | None = None,
    formula: Formula | None = None,
) -> list[ScoredMove]:
    """The ``n`` best moves in the total order, found without keeping the full list. Equal scores
    at the cut are all considered before the order decides, so ``top(n)`` is ``generate()[:n]``.
    The native engine searches the anchors best bound first and stops when no anchor left can
    reach the n-th best score (engine/_native.c)."""
    if n < 1:
        return []
    tiles = tiles or TileSet.load("en")
    formula = formula or _STANDARD
    if _native_for(engine):
        return native.search(board, rack, lexicon, tiles, n, formula)
    raw = _search(board, rack, lexicon, tiles, n, formula)
    if not raw:
        return []
    cut = sorted((r[0] for r in raw), reverse=True)[min(n, len(raw)) - 1]
    moves = _to_moves([r for r in raw if r[0] >= cut], rack)
    moves.sort(key=ScoredMove.sort_key)
    return _with_used(moves[:n], board)
