"""The judge's machinery that both rulebooks share: a slip and its ruling, a round's judge with
its board, rack, lexicon and tops, a slip's legal readings at a square, a move credited (its
score, a warning), a zero and its reason in the room's words, ranks.

What each rulebook decides on top of it is in ``arbiter.rules.fisf2023`` (the regulation in
force, article by article) and ``arbiter.rules.before2023`` (what events played before it were
ruled by); ``arbiter.rules.judge.RoundJudge`` sends each slip to its event's rulebook.

No database here: the services in ``arbiter.services`` read the rows, call the judge, and write
the rulings; the ruling CLI (``python -m arbiter batch``) calls the same judge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from arbiter.junctions import is_junction
from arbiter.reasons import DOES_NOT_FIT, error_text, problem_text
from arbiter.rules.readings import (
    FITTING_FAULTS as _FITTING,
)
from arbiter.rules.readings import (
    Placements,
    Reading,
    Search,
    blank_markings,
    fits_badly,
)
from arbiter.rules.rulebook import Article, Code, Policy
from engine.board import Board
from engine.errors import EngineError
from engine.formula import Formula
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import engine_in_use, generate
from engine.notation import SIZE, Direction, parse_ref, ref_direction
from engine.tiles import TileSet
from engine.validate import Fault, Verdict, validate
from tournament.vocabulary import gettext_noop as _
from tournament.vocabulary import ruling_total


@dataclass(frozen=True)
class Slip:
    word: str
    ref: str = ""  # "" when the slip gives none
    announced: int | None = None
    late: bool = False  # handed in after the deadline (an arbiter's entry says so)
    multiple: bool = False  # several slips handed in for the round (an arbiter's entry says so)
    # The arbiter's decision (FISF 2023, 5.3.3): the word, at some place worth the announced
    # score, forms a cross-word that is invalid but plausible ("raccordement fallacieux").
    fallacious: bool = False


@dataclass(frozen=True)
class Where:
    """Where a slip says its word lies, from its reference field (cleaned: stripped, upper
    case): a grid reference (``square``: row, column and the direction its form says),
    junction letters (``junction``), or nothing that locates it (``why`` says so, with the
    direction a reference of the right form but off the board still says)."""

    ref: str
    square: tuple[int, int, Direction] | None = None
    junction: str = ""
    direction: Direction | None = None
    why: str = ""


@dataclass(frozen=True)
class Ruled:
    code: Code
    reason: str
    points: int = 0  # the move's points before warnings' penalties and solos
    move_score: int | None = None  # what the placement is worth, even when it earns nothing
    warning: bool = False
    penalty: int = 0  # the reference penalty (2016 rule); warnings' penalties come per game
    rank: int | None = None  # among all legal moves, 1 = top (moves on the board only)
    found_top: bool = False
    placed: tuple[tuple[int, int, str], ...] = field(default=())
    article: str = Article.ZERO  # the case of rules.md that ruled it (``Article``)

    @property
    def net(self) -> int:
        """What the slip adds to the total before solos and warnings' penalties."""
        return ruling_total(points=self.points, solo=0, penalty=self.penalty, warning_penalty=0)


@dataclass
class JudgeBase:
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
    # Says a reason's words in the room's language: the services pass the event's translation;
    # the CLI and the tests keep them as written (English).
    say: Callable[[str], str] = field(default=str, repr=False)
    # The list's name as the event knows it (an uploaded list's given name), for the reasons;
    # "" says the lexicon's own name.
    lexicon_name: str = ""
    # Where a word's legal placements are looked for (``_readings_of``): "moves" at the squares
    # of the legal moves that spell it (``placements``, made from every legal move for the
    # board and rack when first needed, unless given), "squares" at every square of the board
    # (the reference). "auto": "moves" with the native engine, "squares" with the pure one,
    # whose every-move list takes longer than the squares with blanks on the rack.
    search: Search = "auto"
    placements: Placements | None = field(default=None, repr=False)
    # The game's formula (FISF 2023, 3.8; docs/formulas.md): its bonuses and the most tiles a
    # move places (7 sur 8: a move of eight is a letter error, 5.4.1.d). Standard by default.
    formula: Formula = field(default_factory=Formula.standard)
    _readings: dict[tuple[str, Direction | None], list[Reading]] = field(
        default_factory=dict, repr=False
    )
    _ruled: dict[Slip | None, Ruled] = field(default_factory=dict, repr=False)
    _circlings: dict[Move, list[Verdict]] = field(default_factory=dict, repr=False)
    _wheres: dict[str, Where] = field(default_factory=dict, repr=False)

    def _where(self, slip: Slip) -> Where:
        """Where ``slip`` says its word lies (``Where``; memoised: many slips give the same
        reference)."""
        where = self._wheres.get(slip.ref)
        if where is None:
            where = self._wheres[slip.ref] = self._where_read(slip.ref)
        return where

    def _where_read(self, written: str) -> Where:
        ref = written.strip().upper()
        direction = ref_direction(ref)
        if direction is None and is_junction(ref):
            return Where(ref, junction=ref)
        if direction is None:
            why = (
                self.say(_("the slip gives no reference"))
                if not ref
                else self.say(_("the reference %(ref)s cannot be read")) % {"ref": ref}
            )
            return Where(ref, why=why)
        try:
            row, col, _direction = parse_ref(ref)
        except EngineError as exc:  # the form of a reference, but off the board
            return Where(ref, direction=direction, why=error_text(exc, self.say))
        return Where(ref, square=(row, col, direction), direction=direction)

    def rank(self, score: int) -> int:
        """1 + how many legal moves score more (equal scores share a rank)."""
        return 1 + sum(n for s, n in self.score_counts.items() if s > score)

    def _rule(self, slip: Slip | None) -> Ruled:
        raise NotImplementedError  # ``arbiter.rules.judge.RoundJudge`` sends it to its rulebook

    def _zero_reason(self, word: str, written: Verdict | None, why: str) -> Ruled:
        """The zero of a slip with nothing acceptable, for its reason (rules.md, "Zero, which
        reason"): what is wrong at the written square when the word stands there (the word,
        its tiles, a word across), else the word not in the lexicon, legal elsewhere (a wrong
        reference), its tiles at any placement, or fitting nowhere."""
        if written is not None and not set(written.faults()) & _FITTING:
            return self._zero(written)
        if word.upper() not in self.lexicon:
            reason = self.say(_("not in the lexicon %(lexicon)s: %(word)s: 0")) % {
                "lexicon": self.lexicon_name or self.lexicon.name,
                "word": word,
            }
            return Ruled(Code.INVALID_WORD, reason)
        if any(self._readings_of(word, None)):
            return Ruled(
                Code.BAD_REFERENCE,
                self.say(_("%(why)s: 0")) % {"why": why},
                article=Article.REFERENCE,
            )
        attempts = [v for v in self._attempts(word, None) if v.placeable and not fits_badly(v)]
        if attempts:
            return self._zero(max(attempts, key=lambda v: v.score), anywhere=True)
        reason = self.say(_("%(word)s fits nowhere on the board (%(why)s): 0")) % {
            "word": word,
            "why": why,
        }
        return Ruled(Code.DOES_NOT_FIT, reason)

    def _first_move_zero(self, word: str) -> Ruled:
        """The zero of a first move with no legal placement: what is wrong at its best
        placement through the centre, or that it cannot be placed there."""
        attempts = [v for v in self._attempts(word, Direction.ACROSS) if v.placeable]
        if not attempts:
            reason = self.say(_("%(word)s cannot be placed through the centre: 0")) % {"word": word}
            return Ruled(Code.DOES_NOT_FIT, reason)
        return self._zero(max(attempts, key=lambda v: v.score))

    def rule(self, slip: Slip | None) -> Ruled:
        """The ruling of ``slip`` (None: no slip handed in). Memoised: a ruling depends on the
        slip alone, and many players hand in the same slip."""
        ruled = self._ruled.get(slip)
        if ruled is None:
            ruled = self._ruled[slip] = self._rule(slip)
        return ruled

    def _zero(self, verdict: Verdict, *, anywhere: bool = False) -> Ruled:
        """A placement that fits but is not legal: its word is not in the lexicon, its tiles are
        not on the rack, or a word it forms across is not in the lexicon (in that order). It
        earns nothing; what it would have made is kept."""
        placed = tuple(sorted(verdict.placed))
        faults = verdict.faults()
        main_invalid = bool(verdict.words) and verdict.words[0].word.upper() in {
            w.upper() for w in verdict.invalid_words
        }
        if Fault.TOO_MANY_TILES in faults:  # 7 sur 8: a letter error (5.4.1.d)
            return Ruled(
                Code.NOT_ON_RACK,
                self.say(_("%(why)s: 0")) % {"why": self._message(verdict, Fault.TOO_MANY_TILES)},
                move_score=verdict.score,
                placed=placed,
            )
        if Fault.NOT_ON_RACK in faults and not main_invalid:
            said = (
                self.say(_("%(why)s at any placement: 0"))
                if anywhere
                else self.say(_("%(why)s: 0"))
            )
            return Ruled(
                Code.NOT_ON_RACK,
                said % {"why": self._message(verdict, Fault.NOT_ON_RACK)},
                move_score=verdict.score,
                placed=placed,
            )
        if Fault.NOT_IN_LEXICON in faults:
            return Ruled(
                Code.INVALID_WORD,
                self.say(_("%(why)s: 0")) % {"why": self._message(verdict, Fault.NOT_IN_LEXICON)},
                move_score=verdict.score,
                placed=placed,
            )
        reason = self.say(_("%(why)s: 0")) % {"why": self._first(verdict)}
        return Ruled(Code.DOES_NOT_FIT, reason, placed=placed)

    # -- the engine's problems, in the room's words --------------------------------------------

    def _first(self, verdict: Verdict) -> str:
        if not verdict.problems:
            return self.say(DOES_NOT_FIT)
        return problem_text(verdict.problems[0], self.say, lexicon=self.lexicon_name)

    def _message(self, verdict: Verdict, fault: Fault) -> str:
        problem = next(p for p in verdict.problems if p.fault is fault)
        return problem_text(problem, self.say, lexicon=self.lexicon_name)

    # -- placements of a word -----------------------------------------------------------------

    def _verdict(self, move: Move) -> Verdict:
        return validate(
            self.board,
            move,
            rack=self.rack,
            lexicon=self.lexicon,
            tiles=self.tiles,
            formula=self.formula,
        )

    def reading(self, move: Move) -> Reading | None:
        """The legal reading of ``move``: as written, else with its blanks where they must be
        (the choice that scores least); None when it is not legal either way."""
        verdict = self._verdict(move)
        if verdict.valid:
            return Reading(verdict)
        if set(verdict.faults()) != {Fault.NOT_ON_RACK}:
            return None
        legal = [
            v for v in (self._verdict(m) for m in blank_markings(verdict, self.rack)) if v.valid
        ]
        if not legal:
            return None
        least = min(legal, key=lambda v: v.score)
        assert least.move is not None
        return Reading(least, remarked=least.move.word)

    def _squares(self, word: str, direction: Direction | None) -> Iterator[Move]:
        """The word at every square in ``direction`` (both when None); on an empty board only
        across through the start square."""
        empty = self.board.is_empty
        start_row, start_col = self.board.layout.start
        for d in (Direction.ACROSS, Direction.DOWN) if direction is None else (direction,):
            for line in range(SIZE):
                if empty and (d is not Direction.ACROSS or line != start_row):
                    continue
                for start in range(SIZE - len(word) + 1):
                    if empty and not start <= start_col < start + len(word):
                        continue
                    row, col = (line, start) if d is Direction.ACROSS else (start, line)
                    yield Move(row, col, d, word)

    def _attempts(self, word: str, direction: Direction | None) -> list[Verdict]:
        return [self._verdict(move) for move in self._squares(word, direction)]

    def _readings_of(self, word: str, direction: Direction | None) -> list[Reading]:
        """The legal readings of the word at every square (memoised: many players write the
        same words), in board order. A reading, as written or re-marked, is a legal move of the
        word's letters at its square: with ``search`` "moves" only the squares where the
        generator found such a move are read (``reading`` decides there as everywhere), with
        "squares" every square is. tests/arbiter/test_rules_equivalence.py holds them equal."""
        key = (word, direction)
        if key not in self._readings:
            placements = self._placements()
            moves = (
                self._squares(word, direction)
                if placements is None
                else placements.of(word, direction)
            )
            found = (self.reading(move) for move in moves)
            self._readings[key] = [r for r in found if r is not None]
        return self._readings[key]

    def _placements(self) -> Placements | None:
        """The index of the legal moves, made on first need; None when searching every square."""
        search = self.search
        if not (search == "moves" or (search == "auto" and engine_in_use() == "native")):
            return None
        if self.placements is None:
            moves = generate(self.board, self.rack, self.lexicon, self.tiles, formula=self.formula)
            self.placements = Placements(self.board, moves)
        return self.placements
