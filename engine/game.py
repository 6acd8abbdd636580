"""The duplicate game as a pure state machine.

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

A game is written as a JSON document (``to_document``, the types in ``engine.record``), the
contract of ``python -m engine``::

    {"tiles": "en", "seed": 7, "total": 812, "end": "the bag and the rack are empty",
     "rounds": [{"number": 1, "rack": "AEINRST", "leftover": "", "rejected": ["AEIOUEA"],
                 "ref": "H4", "word": "NASTIER", "score": 66}, ...]}

``engine.replay`` plays such a document again through ``offer_rack`` and
``play``, checking each rack, move and score: this is how a room loads a federation's pre-drawn
game. The choice among equal tops is ``engine.choice``.
"""

from __future__ import annotations

import enum
import random

from engine import movegen
from engine.board import Board, Layout
from engine.choice import all_tops, choose_top
from engine.draw import (
    Bag,
    Draw,
    check_typed_rack,
    draw_rack,
    minimum,
    pool_can_meet_minimum,
)
from engine.errors import EngineError, PlacementError, RackError, RackRejected
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove
from engine.record import GameDocument, RoundRecord
from engine.tiles import TileSet, sort_tiles, subtract
from engine.validate import validate

END_EMPTY = "the bag and the rack are empty"
NO_MOVE = "no move is possible with the rack "  # followed by the rack: an end reason
PUT_BACK = "-"  # among a round's refused racks: one not recorded, the leftover put back


class GameStateError(EngineError):
    """A transition called when the game is not in the state it needs (play before the draw...)."""


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
        number only, so a game rebuilt from its stored rounds (``engine.replay``)
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
        rack offered is then drawn whole from the bag. ``PUT_BACK`` (``-``) stands for a rack
        refused that was not recorded (Eliot's ``-`` racks): the leftover goes back the same
        way, and ``-`` is recorded among the refused racks."""
        self._require(Phase.DRAW, "offer a rack")
        reason = self.exhausted()
        if reason is not None:
            self._end(reason)
            raise GameStateError(
                f"cannot offer the rack {typed.strip()}: the game is over ({reason})"
            )
        if typed.strip() == PUT_BACK:  # with no leftover, nothing goes back
            self.rejected.append(PUT_BACK)
            self.bag.put(self.leftover)
            self.leftover = ""
            self._fresh = True
            raise RackRejected(f"round {self.round_number}: the leftover is put back (-)")
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

    def keep_leftover(self) -> str:
        """The round's rack is the leftover alone, nothing drawn and no minimum checked: how
        Eliot's arbitration plays on when its draw does not fill the rack (a pre-drawn game's
        racks are the game: ``engine.replay.draw_planned``)."""
        self._require(Phase.DRAW, "keep the leftover")
        if not self.leftover or self._fresh:
            raise RackError(f"round {self.round_number}: there is no leftover to play alone")
        self.rack = self.leftover
        self._round_leftover = self.leftover
        return self.rack

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
            self._end(NO_MOVE + self.rack)
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


def autoplay(
    *, seed: int | None, tiles: TileSet, lexicon: Lexicon, layout: Layout | None = None
) -> DuplicateGame:
    """A whole game: draw, play the top, until the game is over."""
    game = DuplicateGame(tiles=tiles, lexicon=lexicon, layout=layout, seed=seed)
    while not game.over:
        if game.draw() is not None:
            game.play_top()
    return game


__all__ = [
    "END_EMPTY",
    "NO_MOVE",
    "PUT_BACK",
    "DuplicateGame",
    "GameStateError",
    "Phase",
    "autoplay",
]
