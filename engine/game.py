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
import re

from engine import movegen
from engine.board import Board, Layout
from engine.choice import all_tops, choose_top
from engine.draw import (
    Bag,
    Draw,
    check_typed_rack,
    draw_rack,
    meets_minimum,
    minimum,
    pool_can_meet_minimum,
)
from engine.errors import EngineError, PlacementError, RackError, RackRejected
from engine.formula import Formula
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove
from engine.record import GameDocument, RoundRecord
from engine.tiles import BLANK, TileSet, sort_tiles, subtract
from engine.validate import validate

END_EMPTY = "the bag and the rack are empty"
NO_MOVE = "no move is possible with the rack "  # followed by the rack: an end reason
PUT_BACK = "-"  # among a round's refused racks: one not recorded, the leftover put back
NO_RACK = re.compile(
    r"no rack can meet the minimum of round (?P<round>\d+) \((?P<vowels>\d+) vowels? and "
    r"(?P<consonants>\d+) consonants?\) from what is left: (?P<pool>\S*)"
)


def end_reason_parts(reason: str) -> tuple[str, dict[str, str]]:
    """An end reason the engine gives, as a code and its values (``("", {})`` for another),
    so that another layer says it in its own words."""
    if reason == END_EMPTY:
        return "game_empty", {}
    if reason.startswith(NO_MOVE):
        return "game_no_move", {"rack": reason.removeprefix(NO_MOVE)}
    if found := NO_RACK.fullmatch(reason):
        return "game_no_rack", found.groupdict()
    return "", {}


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
        formula: Formula | None = None,
    ) -> None:
        self.tiles = tiles
        self.lexicon = lexicon
        self.formula = formula or Formula()
        # below 2**32: the seed goes into JSON documents read by JavaScript too
        self.seed = random.SystemRandom().randrange(2**32) if seed is None else seed
        self.board = Board(layout or Layout.load("standard"))
        self.bag = Bag.full(tiles)
        # The joker formula and the détonante (FISF 3.8.1): both jokers out of the bag first.
        self.jokers = 0
        if self.formula.has_joker_rack:
            self.jokers = self.bag.contents.count(BLANK)
            self.bag.take(BLANK * self.jokers)
        self.round_number = 1
        self.rack = ""
        self.leftover = ""
        self.rejected: list[str] = []
        self.rounds: list[RoundRecord] = []
        self.over = False
        self.end_reason = ""
        self._fresh = False  # after a rejection the next rack is drawn whole from the bag
        # The détonante's last change to a rack drawn: (the rack with its joker, the letter).
        self.detonation: tuple[str, str] | None = None
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

    @property
    def _jokers_aside(self) -> int | None:
        return self.jokers if self.formula.has_joker_rack else None

    def _pool(self) -> str:
        """The tiles a rack may still be made of: the leftover, the bag, the jokers aside."""
        return self.leftover + self.bag.contents + BLANK * self.jokers

    def _put_back(self, tiles: str) -> None:
        """Tiles back into the bag; in a joker game its jokers go aside again."""
        if self.formula.has_joker_rack:
            self.jokers += tiles.count(BLANK)
            tiles = tiles.replace(BLANK, "")
        self.bag.put(tiles)

    def exhausted(self) -> str | None:
        """Why no rack can be drawn any more (the game is then over), or None."""
        pool = self._pool()
        if not pool:
            return END_EMPTY
        if not pool_can_meet_minimum(self.tiles, pool, self.round_number, self.formula.rack_size):
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
        rng = self.round_rng(redraw)
        self.detonation = None
        draw = draw_rack(
            self.bag,
            self.leftover,
            self.round_number,
            rng,
            self.tiles,
            size=self.formula.rack_size,
            jokers=self._jokers_aside,
        )
        if draw is None:  # exhausted() said otherwise: cannot happen
            raise EngineError(f"round {self.round_number}: no rack from {self._pool()}")
        self.rejected.extend(draw.rejected)
        self.leftover = draw.leftover
        self._round_leftover = draw.leftover
        self.rack = draw.rack
        if self.formula.has_joker_rack:
            self.jokers = draw.jokers
        if self.formula.detonante and draw.joker_added:
            self._detonate(rng)
        return Draw(
            rack=self.rack,
            leftover=draw.leftover,
            rejected=tuple(self.rejected),
            jokers=self.jokers,
            joker_added=draw.joker_added,
        )

    def _detonate(self, rng: random.Random) -> None:
        """The détonante: the joker the rack took becomes the letter the top uses for it, or a
        letter drawn at random from the bag when the top does not use it; the joker goes aside
        again. It stays a joker when the bag holds no such letter, or when the rack would then
        fail the minimum (Eliot's ``explosive`` variant, game/game.cpp, does the same)."""
        moves = all_tops(self.board, self.rack, self.lexicon, self.tiles, self.formula)
        letter = ""
        if moves:
            top = choose_top(moves, self.rack, self.tiles)
            blanks = [ch for _, _, ch in self.board.placed_by(top.move) if ch.islower()]
            if blanks:
                letter = blanks[0].upper()
        if not letter and len(self.bag):
            letter = self.bag.contents[rng.randrange(len(self.bag))]
        if not letter or letter not in self.bag.contents:
            return
        rack = sort_tiles(self.rack.replace(BLANK, "", 1) + letter)
        if not meets_minimum(self.tiles, rack, self.round_number):
            return
        self.bag.take(letter)
        self.jokers += 1
        self.detonation = (self.rack, letter)
        self.rack = rack

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
            self._put_back(self.leftover)
            self.leftover = ""
            self._fresh = True
            raise RackRejected(f"round {self.round_number}: the leftover is put back (-)")
        jokers_aside = self._jokers_aside is not None
        try:
            rack = check_typed_rack(
                self.tiles,
                typed,
                leftover=self.leftover,
                bag=Bag(self.bag.contents + BLANK * self.jokers) if jokers_aside else self.bag,
                round_number=self.round_number,
                fresh=self._fresh,
                size=self.formula.rack_size,
            )
            kept = "" if self._fresh else self.leftover
            if self.formula.joker and self.jokers and BLANK not in rack:
                raise RackError(
                    f"rack {rack}: in a joker game every rack holds a joker while one is left",
                    code="rack_joker_missing",
                    params={"rack": rack},
                )
        except RackRejected:
            self.rejected.append(self.tiles.parse_rack(typed))
            self._put_back(self.leftover)
            self.leftover = ""
            self._fresh = True
            raise
        rest = subtract(rack, kept)
        assert rest is not None  # check_typed_rack made sure
        if jokers_aside:
            self.jokers -= rest.count(BLANK)
            rest = rest.replace(BLANK, "")
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
        return movegen.top(
            self.board, self.rack, self.lexicon, n=n, tiles=self.tiles, formula=self.formula
        )

    def play(self, move: Move) -> RoundRecord:
        """Place the round's move (it must be valid for the board, the rack and the lexicon)."""
        self._require(Phase.PLAY, f"play {move}")
        verdict = validate(
            self.board,
            move,
            rack=self.rack,
            lexicon=self.lexicon,
            tiles=self.tiles,
            formula=self.formula,
        )
        if not verdict.valid:
            raise PlacementError(
                f"round {self.round_number}: {move} cannot be placed: "
                + "; ".join(p.message for p in verdict.problems)
            )
        leave = subtract(self.rack, verdict.tiles_used)
        assert leave is not None  # validate checked the rack
        self.board.play(move)
        replaced = self._replace_joker(verdict.placed) if self.formula.joker else None
        record = RoundRecord(
            number=self.round_number,
            rack=self.rack,
            leftover=self._round_leftover,
            rejected=tuple(self.rejected),
            ref=move.ref,
            word=move.word,
            score=verdict.score,
            joker_replaced=replaced,
        )
        self.rounds.append(record)
        self.round_number += 1
        self.rack = ""
        self.leftover = leave
        self.rejected = []
        self._fresh = False
        self._round_leftover = ""
        return record

    def _replace_joker(self, placed: tuple[tuple[int, int, str], ...]) -> bool | None:
        """The joker formula (FISF 3.8.1), once the top is on the board: a joker it placed is
        replaced by the real letter when the bag still holds it (True: the letter leaves the
        bag, the joker goes aside for the next rack), else stays on the board (False: the game
        goes on with the other joker). None when the top places no joker."""
        for r, c, ch in placed:
            if ch.islower():
                if ch.upper() in self.bag.contents:
                    self.bag.take(ch.upper())
                    self.board.replace_blank(r, c)
                    self.jokers += 1
                    return True
                return False
        return None

    def joker_lost(self, move: ScoredMove) -> bool:
        """In a joker game, whether ``move`` would leave its joker on the board (the letter
        it stands for is no longer in the bag)."""
        return any(
            ch.islower() and ch.upper() not in self.bag.contents
            for _, _, ch in self.board.placed_by(move.move)
        )

    def all_tops(self) -> list[ScoredMove]:
        """Every move of the highest score for the current rack, under the game's formula."""
        self._require(Phase.PLAY, "look for the top")
        return all_tops(self.board, self.rack, self.lexicon, self.tiles, self.formula)

    def choose_top(self, moves: list[ScoredMove]) -> ScoredMove:
        """The top to play among ``moves`` (``choose_top``); in a joker game, among equal
        tops that use the joker, one whose joker comes back (FISF 3.8.1: "une solution
        préservant le joker")."""
        lost = self.joker_lost if self.formula.joker else None
        return choose_top(moves, self.rack, self.tiles, lost=lost)

    def play_top(self) -> RoundRecord | None:
        """Play the top chosen by ``choose_top``. None, and the game is over, when no move is
        possible with the rack."""
        self._require(Phase.PLAY, "play the top")
        moves = self.all_tops()
        if not moves:
            self._end(NO_MOVE + self.rack)
            return None
        return self.play(self.choose_top(moves).move)

    def end(self, reason: str) -> None:
        """End the game by decision (a director stopping it); the reason is recorded."""
        if self.over:
            raise GameStateError(f"the game is already over ({self.end_reason})")
        self._end(reason)

    # -- documents -----------------------------------------------------------------------------

    def to_document(self) -> GameDocument:
        doc: GameDocument = {
            "tiles": self.tiles.code,
            "seed": self.seed,
            "rounds": [r.to_document() for r in self.rounds],
            "total": self.total,
            "end": self.end_reason,
        }
        if not self.formula.is_standard:
            doc["formula"] = self.formula.name
        return doc


def autoplay(
    *,
    seed: int | None,
    tiles: TileSet,
    lexicon: Lexicon,
    layout: Layout | None = None,
    formula: Formula | None = None,
) -> DuplicateGame:
    """A whole game: draw, play the top, until the game is over."""
    game = DuplicateGame(tiles=tiles, lexicon=lexicon, layout=layout, seed=seed, formula=formula)
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
