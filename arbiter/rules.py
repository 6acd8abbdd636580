"""The rules of arbitration as pure functions: one ruling per slip, warnings, the 2016 reference
rule, the first move credited at its best position, ranks, solos. No database here: the
services in ``arbiter.services`` read the rows, call these, and write the rulings.

The numbers come from the event's policy (rules.md gives the defaults).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.board import Board
from engine.errors import EngineError, NotationError
from engine.lexicon import Lexicon
from engine.move import Move
from engine.notation import SIZE, Direction, parse_ref, parse_word
from engine.tiles import TileSet
from engine.validate import Fault, Verdict, validate
from tournament.vocabulary import RulingCode, ruling_total

Code = RulingCode  # the ruling codes, as the rulings name them

FITTING_FAULTS = frozenset(
    {
        Fault.OFF_BOARD,
        Fault.CLASH,
        Fault.NO_TILE,
        Fault.GAP,
        Fault.NOT_CONNECTED,
        Fault.MISSES_CENTRE,
    }
)


@dataclass(frozen=True)
class Policy:
    warnings_free: int = 3
    warning_penalty: int = 5
    reference_rule_2016: bool = True
    reference_penalty: int = 5
    solo_bonus: int = 10
    solo_min_players: int = 16


@dataclass(frozen=True)
class Slip:
    word: str
    ref: str = ""  # "" when the slip gives none
    announced: int | None = None
    late: bool = False  # handed in after the deadline (an arbiter's entry says so)


@dataclass(frozen=True)
class Ruled:
    code: Code
    reason: str
    points: int = 0  # the move's points before warnings' penalties and solos
    move_score: int | None = None  # what the placement is worth, even when it earns nothing
    warning: bool = False
    penalty: int = 0  # the reference penalty (2016 rule); warnings' penalties come per game
    rank: int | None = None  # among all legal moves, 1 = top (valid moves only)
    found_top: bool = False
    placed: tuple[tuple[int, int, str], ...] = field(default=())

    @property
    def net(self) -> int:
        """What the slip adds to the total before solos and warnings' penalties."""
        return ruling_total(points=self.points, solo=0, penalty=self.penalty)


@dataclass
class RoundJudge:
    """Rules every slip of one round. ``score_counts`` is how many legal placements the
    generator found at each score (for ranks); ``top_score`` the best of them."""

    board: Board
    rack: str
    lexicon: Lexicon
    tiles: TileSet
    round_number: int
    top_score: int
    score_counts: Mapping[int, int]
    policy: Policy = field(default_factory=Policy)
    _placements: dict[tuple[str, Direction | None], list[Verdict]] = field(
        default_factory=dict, repr=False
    )

    def rank(self, score: int) -> int:
        return 1 + sum(n for s, n in self.score_counts.items() if s > score)

    def rule(self, slip: Slip | None) -> Ruled:
        if slip is None:
            return Ruled(Code.MISSING, "no slip handed in: 0")
        if slip.late:
            return Ruled(Code.LATE, "slip handed in after the deadline: 0")
        try:
            word = parse_word(slip.word)
        except EngineError as exc:
            return Ruled(Code.MALFORMED, f"the word cannot be read ({exc}): 0")
        if self.board.is_empty:
            return self._first_move(word, slip)
        try:
            row, col, direction = parse_ref(slip.ref) if slip.ref.strip() else (0, 0, None)
        except NotationError as exc:
            return self._wrong_reference(word, slip, None, f"the reference cannot be read ({exc})")
        except EngineError as exc:  # off the board
            return self._wrong_reference(word, slip, None, str(exc))
        if direction is None:
            return self._wrong_reference(word, slip, None, "the slip gives no reference")
        verdict = validate(
            self.board,
            Move(row, col, direction, word),
            rack=self.rack,
            lexicon=self.lexicon,
            tiles=self.tiles,
        )
        faults = set(verdict.faults())
        if faults & FITTING_FAULTS:
            if not any(self._placements_of(word, None)):
                return Ruled(
                    Code.DOES_NOT_FIT,
                    f"{word} fits nowhere on the board with this rack ({_first(verdict)}): 0",
                )
            return self._wrong_reference(
                word,
                slip,
                direction,
                f"{word} does not fit at {slip.ref.strip().upper()} ({_first(verdict)})",
            )
        return self._placed(verdict, slip)

    # -- the cases ---------------------------------------------------------------------------

    def _placed(self, verdict: Verdict, slip: Slip, *, reason: str = "") -> Ruled:
        placed = tuple(sorted(verdict.placed))
        if Fault.NOT_ON_RACK in verdict.faults():
            return Ruled(
                Code.NOT_ON_RACK,
                f"{_message(verdict, Fault.NOT_ON_RACK)}: 0",
                move_score=verdict.score,
                placed=placed,
            )
        if Fault.NOT_IN_LEXICON in verdict.faults():
            return Ruled(
                Code.INVALID_WORD,
                f"{_message(verdict, Fault.NOT_IN_LEXICON)}: 0",
                move_score=verdict.score,
                placed=placed,
            )
        score = verdict.score
        found = score == self.top_score
        rank = self.rank(score)
        if slip.announced == score:
            return Ruled(
                Code.VALID,
                reason or f"valid: {score}",
                score,
                score,
                rank=rank,
                found_top=found,
                placed=placed,
            )
        said = "no score announced" if slip.announced is None else f"announced {slip.announced}"
        return Ruled(
            Code.VALID_WARNING,
            f"{reason + '; ' if reason else ''}{said}, "
            f"the move is worth {score}: {score} and a warning",
            score,
            score,
            warning=True,
            rank=rank,
            found_top=found,
            placed=placed,
        )

    def _first_move(self, word: str, slip: Slip) -> Ruled:
        """The first move is written across; its reference is optional and it is credited at
        its best-scoring position through the centre."""
        verdicts = self._placements_of(word, Direction.ACROSS)
        valid = [v for v in verdicts if v.valid]
        if valid:
            best = max(valid, key=lambda v: v.score)
            where = best.move.ref if best.move else ""
            return self._placed(
                best, slip, reason=f"first move credited at its best position {where}: {best.score}"
            )
        attempts = self._attempts_of(word, Direction.ACROSS)
        placeable = [v for v in attempts if v.placeable]
        if not placeable:
            return Ruled(Code.DOES_NOT_FIT, f"{word} cannot be placed through the centre: 0")
        return self._placed(max(placeable, key=lambda v: v.score), slip)

    def _wrong_reference(
        self, word: str, slip: Slip, direction: Direction | None, why: str
    ) -> Ruled:
        """Since 2016, from round 2: a wrong or missing reference costs a penalty instead of
        zero when the word is in full and the announced score is that of a legal placement of
        the word in that direction; with the score also wrong it stays zero."""
        policy = self.policy
        if policy.reference_rule_2016 and self.round_number >= 2 and slip.announced is not None:
            for verdict in self._placements_of(word, direction):
                if verdict.valid and verdict.score == slip.announced:
                    where = verdict.move.ref if verdict.move else ""
                    return Ruled(
                        Code.REFERENCE_PENALTY,
                        f"{why}; {word} at {where} is worth the announced {verdict.score}: "
                        f"{verdict.score} less a {policy.reference_penalty}-point penalty "
                        "(2016 rule)",
                        verdict.score,
                        verdict.score,
                        penalty=policy.reference_penalty,
                        rank=self.rank(verdict.score),
                        placed=tuple(sorted(verdict.placed)),
                    )
        return Ruled(Code.BAD_REFERENCE, f"{why}: 0")

    # -- placements of a word -----------------------------------------------------------------

    def _attempts_of(self, word: str, direction: Direction | None) -> list[Verdict]:
        """The word at every square in ``direction`` (both when None); on an empty board only
        across through the start square."""
        empty = self.board.is_empty
        start_row, start_col = self.board.layout.start
        out = []
        for d in (Direction.ACROSS, Direction.DOWN) if direction is None else (direction,):
            for line in range(SIZE):
                if empty and (d is not Direction.ACROSS or line != start_row):
                    continue
                for start in range(SIZE - len(word) + 1):
                    if empty and not start <= start_col < start + len(word):
                        continue
                    row, col = (line, start) if d is Direction.ACROSS else (start, line)
                    move = Move(row, col, d, word)
                    out.append(
                        validate(
                            self.board, move, rack=self.rack, lexicon=self.lexicon, tiles=self.tiles
                        )
                    )
        return out

    def _placements_of(self, word: str, direction: Direction | None) -> list[Verdict]:
        """The valid placements of the word (memoised: many players write the same words)."""
        key = (word, direction)
        if key not in self._placements:
            self._placements[key] = [v for v in self._attempts_of(word, direction) if v.valid]
        return self._placements[key]


def _first(verdict: Verdict) -> str:
    return verdict.problems[0].message if verdict.problems else "it does not fit"


def _message(verdict: Verdict, fault: Fault) -> str:
    return next(p.message for p in verdict.problems if p.fault is fault)


def score_counts(scores: Iterable[int]) -> dict[int, int]:
    """How many legal placements there are at each score (what ``RoundJudge`` ranks by)."""
    counts: dict[int, int] = {}
    for score in scores:
        counts[score] = counts.get(score, 0) + 1
    return counts


def warning_penalties(warnings_before: int, warning: bool, policy: Policy) -> int:
    """The penalty for this ruling's warning: from the (warnings_free + 1)-th warning of a
    game on, each costs ``warning_penalty`` points."""
    if not warning:
        return 0
    return policy.warning_penalty if warnings_before + 1 > policy.warnings_free else 0


def solo_winner(found_top: Iterable[int], players: int, policy: Policy) -> int | None:
    """The one player (an id) who alone found the top, when the game has enough players."""
    finders = list(found_top)
    if len(finders) == 1 and players >= policy.solo_min_players:
        return finders[0]
    return None
