"""The duplicate game: the choice among equal tops, and the game as a pure state machine.

A game goes round by round. Each round: a rack is drawn (``draw``, at random with the game's own
seeded generator, or ``offer_rack``, typed in from a physical bag), then the round's move is
played (``play`` for a given move, ``play_top`` for the top chosen by ``choose_top``). The move's
tiles go on the board and the rest of the rack is the next round's leftover. The game ends when
the bag and the rack are empty, when no rack can meet the minimum from what is left, or when no
move is possible with the rack drawn (rules.md, "Duplicate play").

>>> from engine.lexicon import Lexicon
>>> game = DuplicateGame(tiles=TileSet.load("en"), lexicon=Lexicon.load(), seed=7)
>>> draw = game.draw()
>>> record = game.play_top()
>>> record.number, game.round_number, record.score == game.total
(1, 2, True)

A game is written as a JSON document (``to_document``), the contract of ``python -m engine``::

    {"tiles": "en", "seed": 7, "total": 812, "end": "the bag and the rack are empty",
     "rounds": [{"number": 1, "rack": "AEINRST", "leftover": "", "rejected": ["AEIOUEA"],
                 "ref": "H4", "word": "NASTIER", "score": 66}, ...]}

``replay`` plays such a document again through ``offer_rack`` and ``play``, checking each rack,
move and score: this is how a room loads a federation's pre-drawn game.
"""

from __future__ import annotations

import enum
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from engine import movegen
from engine.board import Board, Layout
from engine.draw import (
    Bag,
    Draw,
    check_typed_rack,
    draw_rack,
    meets_minimum,
    minimum,
    pool_can_meet_minimum,
)
from engine.errors import EngineError, NotationError, PlacementError, RackError, RackRejected
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove
from engine.tiles import BLANK, TileSet, sort_tiles, subtract
from engine.validate import validate

END_EMPTY = "the bag and the rack are empty"
_NO_MOVE = "no move is possible with the rack "
_NO_MOVE_RE = re.compile(r"no move is possible with the rack ([A-Z?]+)")


class GameStateError(EngineError):
    """A transition called when the game is not in the state it needs (play before the draw...)."""


# -- the choice among equal tops ----------------------------------------------------------------

ChoiceKey = tuple[int, int, int, int, str, str, int, int, int, int]


def choice_key(move: ScoredMove, rack: str, tiles: TileSet) -> ChoiceKey:
    """The order among moves of equal score (smallest first), as a tuple:

    1. more blanks kept on the rack;
    2. the more balanced leave: fewer duplicate letters (for each letter of the leave, its
       count minus one, summed; blanks not counted);
    3. the more balanced leave: smaller |vowels - consonants| of the leave (tiles of kind
       ``EITHER``, the blank and the French Y, not counted);
    4. fewer tiles placed;
    5. the word alphabetically by its letters (``word.upper()``), then real tiles before blanks;
    6. the position nearest A1: row + column, then row, then column, then across before down.

    The keys are total: two different moves never compare equal.
    """
    leave = subtract(rack, move.used)
    if leave is None:
        raise RackError(f"move {move.move} uses {move.used}, not all on the rack {rack}")
    letters = Counter(t for t in leave if t != BLANK)
    duplicates = sum(n - 1 for n in letters.values())
    v, c, _ = tiles.vowel_consonant(leave)
    m = move.move
    return (
        -leave.count(BLANK),
        duplicates,
        abs(v - c),
        len(move.used),
        m.word.upper(),
        m.word,  # upper case (real tile) sorts before lower case (blank)
        m.row + m.col,
        m.row,
        m.col,
        int(m.direction),
    )


def choose_top(moves: Sequence[ScoredMove], rack: str, tiles: TileSet) -> ScoredMove:
    """The top to place on the board: among the moves of the highest score, the first by
    ``choice_key`` (blanks kept, balanced leave, fewer tiles, alphabetical, nearest A1)."""
    if not moves:
        raise EngineError(f"no move to choose from for the rack {rack}")
    best = max(m.score for m in moves)
    return min((m for m in moves if m.score == best), key=lambda m: choice_key(m, rack, tiles))


def all_tops(board: Board, rack: str, lexicon: Lexicon, tiles: TileSet) -> list[ScoredMove]:
    """Every move of the highest score (asks ``movegen.top`` for more until the cut is below it)."""
    n = 16
    while True:
        moves = movegen.top(board, rack, lexicon, n=n, tiles=tiles)
        if len(moves) < n or moves[-1].score < moves[0].score:
            return [m for m in moves if m.score == moves[0].score] if moves else []
        n *= 4


# -- records and documents ----------------------------------------------------------------------


class RoundDocument(TypedDict):
    number: int
    rack: str
    leftover: str
    rejected: list[str]
    ref: str
    word: str
    score: int


class GameDocument(TypedDict):
    tiles: str
    seed: int | None
    rounds: list[RoundDocument]
    total: int
    end: str


GameRecord = GameDocument  # the name used in the CLI contract


@dataclass(frozen=True)
class RoundRecord:
    """A round played: its rack, the leftover that rack kept from the round before ("" after a
    rejection), the racks rejected before it, and the move placed with its score."""

    number: int
    rack: str
    leftover: str
    rejected: tuple[str, ...]
    ref: str
    word: str
    score: int

    @property
    def move(self) -> Move:
        return Move.from_ref(self.ref, self.word)

    def to_document(self) -> RoundDocument:
        return {
            "number": self.number,
            "rack": self.rack,
            "leftover": self.leftover,
            "rejected": list(self.rejected),
            "ref": self.ref,
            "word": self.word,
            "score": self.score,
        }

    @classmethod
    def from_document(cls, doc: RoundDocument) -> RoundRecord:
        try:
            return cls(
                number=int(doc["number"]),
                rack=str(doc["rack"]),
                leftover=str(doc.get("leftover", "")),
                rejected=tuple(str(r) for r in doc.get("rejected", [])),
                ref=str(doc["ref"]),
                word=str(doc["word"]),
                score=int(doc["score"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise NotationError(
                f"round document {doc!r}: {exc!s} is missing or not of the right type"
            ) from None


# -- the game -----------------------------------------------------------------------------------


class Phase(enum.Enum):
    DRAW = "draw"  # waiting for the round's rack
    PLAY = "play"  # the rack is drawn, waiting for the move
    OVER = "over"


class DuplicateGame:
    """A duplicate game as a state machine, without any I/O.

    State: ``board``, ``bag`` (tiles neither on the board nor on the rack), ``round_number`` (of
    the current round, or the next one between rounds), ``rack`` (drawn for the current round,
    "" until then), ``leftover`` (kept from the round before; "" after a rejection),
    ``rejected`` (racks refused this round), ``rounds``, ``over``, ``end_reason``, ``total``.
    """

    def __init__(
        self,
        *,
        tiles: TileSet,
        lexicon: Lexicon,
        layout: Layout | None = None,
        seed: int | None = None,
    ) -> None:
        self.tiles = tiles
        self.lexicon = lexicon
        # below 2**32: the seed goes into JSON documents read by JavaScript too
        self.seed = random.SystemRandom().randrange(2**32) if seed is None else seed
        self.board = Board(layout or Layout.load("standard"))
        self.bag = Bag.full(tiles)
        self.round_number = 1
        self.rack = ""
        self.leftover = ""
        self.rejected: list[str] = []
        self.rounds: list[RoundRecord] = []
        self.over = False
        self.end_reason = ""
        self._fresh = False  # after a rejection the next rack is drawn whole from the bag
        self._round_leftover = ""  # the leftover kept in the drawn rack (for the record)

    def __repr__(self) -> str:
        return (
            f"<DuplicateGame {self.tiles.code} seed={self.seed} round={self.round_number} "
            f"phase={self.phase.value} total={self.total}>"
        )

    # -- state ---------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.over:
            return Phase.OVER
        return Phase.PLAY if self.rack else Phase.DRAW

    @property
    def total(self) -> int:
        return sum(r.score for r in self.rounds)

    def _require(self, phase: Phase, action: str) -> None:
        if self.over:
            raise GameStateError(f"cannot {action}: the game is over ({self.end_reason})")
        if self.phase is not phase:
            if phase is Phase.DRAW:
                raise GameStateError(
                    f"cannot {action}: round {self.round_number} already has the rack {self.rack}; "
                    "play its move first"
                )
            raise GameStateError(
                f"cannot {action}: round {self.round_number} has no rack yet; draw one first"
            )

    def _end(self, reason: str) -> None:
        self.over = True
        self.end_reason = reason

    def exhausted(self) -> str | None:
        """Why no rack can be drawn any more (the game is then over), or None."""
        pool = self.leftover + self.bag.contents
        if not pool:
            return END_EMPTY
        if not pool_can_meet_minimum(self.tiles, pool, self.round_number):
            need_v, need_c = minimum(self.round_number)
            return (
                f"no rack can meet the minimum of round {self.round_number} "
                f"({need_v} vowel{'s' if need_v > 1 else ''} and "
                f"{need_c} consonant{'s' if need_c > 1 else ''}) "
                f"from what is left: {sort_tiles(pool)}"
            )
        return None

    # -- transitions ---------------------------------------------------------------------------

    def round_rng(self, redraw: int = 0) -> random.Random:
        """The random draw of the current round: seeded by the game's seed and the round's
        number only, so a game rebuilt from its stored rounds (``from_rounds``, ``replay``)
        draws the same next racks as one that never stopped. ``redraw`` counts the times this
        round was annulled and drawn again, so a redraw gives a new rack."""
        suffix = f"/redraw/{redraw}" if redraw else ""
        return random.Random(f"duplicate/{self.seed}/round/{self.round_number}{suffix}")

    def draw(self, redraw: int = 0) -> Draw | None:
        """Draw the round's rack at random. None, and the game is over, when there is none."""
        self._require(Phase.DRAW, "draw")
        reason = self.exhausted()
        if reason is not None:
            self._end(reason)
            return None
        draw = draw_rack(
            self.bag, self.leftover, self.round_number, self.round_rng(redraw), self.tiles
        )
        if draw is None:  # exhausted() said otherwise: cannot happen
            raise EngineError(
                f"round {self.round_number}: no rack from {self.leftover + self.bag.contents}"
            )
        self.rejected.extend(draw.rejected)
        self.leftover = draw.leftover
        self._round_leftover = draw.leftover
        self.rack = draw.rack
        return Draw(rack=draw.rack, leftover=draw.leftover, rejected=tuple(self.rejected))

    def offer_rack(self, typed: str) -> str:
        """Take a rack typed in from a physical bag. A rack failing the minimum raises
        ``RackRejected`` after it is recorded and the leftover went back into the bag: the next
        rack offered is then drawn whole from the bag."""
        self._require(Phase.DRAW, "offer a rack")
        reason = self.exhausted()
        if reason is not None:
            self._end(reason)
            raise GameStateError(
                f"cannot offer the rack {typed.strip()}: the game is over ({reason})"
            )
        try:
            rack = check_typed_rack(
                self.tiles,
                typed,
                leftover=self.leftover,
                bag=self.bag,
                round_number=self.round_number,
                fresh=self._fresh,
            )
        except RackRejected:
            self.rejected.append(self.tiles.parse_rack(typed))
            self.bag.put(self.leftover)
            self.leftover = ""
            self._fresh = True
            raise
        kept = "" if self._fresh else self.leftover
        rest = subtract(rack, kept)
        assert rest is not None  # check_typed_rack made sure
        self.bag.take(rest)
        self.leftover = kept
        self._round_leftover = kept
        self.rack = rack
        return rack

    def tops(self, n: int = 1) -> list[ScoredMove]:
        """The ``n`` best moves for the current rack (``movegen.top``)."""
        self._require(Phase.PLAY, "look for the top")
        return movegen.top(self.board, self.rack, self.lexicon, n=n, tiles=self.tiles)

    def play(self, move: Move) -> RoundRecord:
        """Place the round's move (it must be valid for the board, the rack and the lexicon)."""
        self._require(Phase.PLAY, f"play {move}")
        verdict = validate(self.board, move, rack=self.rack, lexicon=self.lexicon, tiles=self.tiles)
        if not verdict.valid:
            raise PlacementError(
                f"round {self.round_number}: {move} cannot be placed: "
                + "; ".join(p.message for p in verdict.problems)
            )
        leave = subtract(self.rack, verdict.tiles_used)
        assert leave is not None  # validate checked the rack
        self.board.play(move)
        record = RoundRecord(
            number=self.round_number,
            rack=self.rack,
            leftover=self._round_leftover,
            rejected=tuple(self.rejected),
            ref=move.ref,
            word=move.word,
            score=verdict.score,
        )
        self.rounds.append(record)
        self.round_number += 1
        self.rack = ""
        self.leftover = leave
        self.rejected = []
        self._fresh = False
        self._round_leftover = ""
        return record

    def play_top(self) -> RoundRecord | None:
        """Play the top chosen by ``choose_top``. None, and the game is over, when no move is
        possible with the rack."""
        self._require(Phase.PLAY, "play the top")
        moves = all_tops(self.board, self.rack, self.lexicon, self.tiles)
        if not moves:
            self._end(_NO_MOVE + self.rack)
            return None
        return self.play(choose_top(moves, self.rack, self.tiles).move)

    def end(self, reason: str) -> None:
        """End the game by decision (a director stopping it); the reason is recorded."""
        if self.over:
            raise GameStateError(f"the game is already over ({self.end_reason})")
        self._end(reason)

    # -- documents -----------------------------------------------------------------------------

    def to_document(self) -> GameDocument:
        return {
            "tiles": self.tiles.code,
            "seed": self.seed,
            "rounds": [r.to_document() for r in self.rounds],
            "total": self.total,
            "end": self.end_reason,
        }

    @classmethod
    def from_rounds(
        cls,
        rounds: Sequence[RoundRecord],
        *,
        tiles: TileSet,
        lexicon: Lexicon,
        layout: Layout | None = None,
        seed: int | None = None,
    ) -> DuplicateGame:
        """Rebuild a game from rounds already played (for instance read from a database), each
        checked as ``replay`` does. The game is left waiting for the next round's rack."""
        game = cls(tiles=tiles, lexicon=lexicon, layout=layout, seed=seed)
        for record in rounds:
            _replay_round(game, record)
        return game


def autoplay(
    *, seed: int | None, tiles: TileSet, lexicon: Lexicon, layout: Layout | None = None
) -> DuplicateGame:
    """A whole game: draw, play the top, until the game is over."""
    game = DuplicateGame(tiles=tiles, lexicon=lexicon, layout=layout, seed=seed)
    while not game.over:
        if game.draw() is not None:
            game.play_top()
    return game


def _replay_round(game: DuplicateGame, record: RoundRecord) -> None:
    n = game.round_number
    if record.number != n:
        raise EngineError(f"round {n}: the document numbers it {record.number}")
    try:
        for rack in record.rejected:
            try:
                game.offer_rack(rack)
            except RackRejected:
                continue
            raise RackError(f"the rejected rack {rack} meets the minimum: it should have been kept")
        rack = game.offer_rack(record.rack)
        if sort_tiles(record.leftover) != game.leftover:
            raise RackError(
                f"the leftover is {game.leftover or '(none)'}, "
                f"the document says {record.leftover or '(none)'}"
            )
        if rack != sort_tiles(record.rack):
            raise RackError(f"the rack reads {rack}, the document says {record.rack}")
        played = game.play(record.move)
        if played.score != record.score:
            raise PlacementError(
                f"{record.move} scores {played.score}, the document says {record.score}"
            )
    except EngineError as exc:
        if str(exc).startswith(f"round {n}:"):
            raise type(exc)(str(exc)) from None
        raise type(exc)(f"round {n}: {exc}") from None


def replay(
    document: GameDocument, *, lexicon: Lexicon, layout: Layout | None = None
) -> DuplicateGame:
    """Play a game document again round by round through ``offer_rack`` (rejected racks first)
    and ``play``, checking every rack, leftover, move and score, and then the end. Any mismatch
    raises an ``EngineError`` naming the round. Draws are seeded per round (``round_rng``), so
    drawing after a replay with the document's seed gives the racks the original would have."""
    try:
        tiles = TileSet.load(str(document["tiles"]))
        rounds = [RoundRecord.from_document(r) for r in document["rounds"]]
        seed = document.get("seed")
    except (KeyError, TypeError) as exc:
        raise NotationError(f"game document: {exc!s} is missing or not of the right type") from None
    game = DuplicateGame(tiles=tiles, lexicon=lexicon, layout=layout, seed=seed)
    for record in rounds:
        _replay_round(game, record)
    if "total" in document and document["total"] != game.total:
        raise EngineError(
            f"the rounds add up to {game.total}, the document's total is {document['total']}"
        )
    end = str(document.get("end") or "")
    if end:
        _replay_end(game, end)
    return game


def _replay_end(game: DuplicateGame, end: str) -> None:
    """Check the document's end against the position and end the game with it."""
    n = game.round_number
    reason = game.exhausted()
    if m := _NO_MOVE_RE.fullmatch(end):
        rack = game.tiles.parse_rack(m.group(1))
        pool = game.leftover + game.bag.contents
        if (
            reason is not None
            or subtract(pool, rack) is None
            or not meets_minimum(game.tiles, rack, n)
        ):
            raise RackError(
                f"round {n}: the final rack {rack} cannot be drawn from {sort_tiles(pool)}"
            )
        if movegen.top(game.board, rack, game.lexicon, n=1, tiles=game.tiles):
            raise EngineError(f"round {n}: the document ends with {end!r} but a move is possible")
        game._end(end)
        return
    if reason is None:
        raise EngineError(
            f"round {n}: the document ends with {end!r} but a rack can still be drawn"
        )
    game._end(reason)


__all__ = [
    "END_EMPTY",
    "DuplicateGame",
    "GameDocument",
    "GameRecord",
    "GameStateError",
    "Phase",
    "RoundDocument",
    "RoundRecord",
    "all_tops",
    "autoplay",
    "choice_key",
    "choose_top",
    "replay",
]
