"""The rules of arbitration as pure functions (docs/rules.md, "Rulings in detail"): one ruling
per slip, with the 2016 reference rule, blanks not marked as they must be, the first move
credited at its best position, ranks; and what is derived from a game's rulings: warnings'
penalties, found-top, solos, the average of a round.

No database here: the services in ``arbiter.services`` read the rows, call these, and write
the rulings; the ruling CLI (``python -m arbiter batch``) calls the same functions. The numbers
come from the event's policy (rules.md gives the defaults).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from arbiter.junctions import (
    FULL_JUNCTION,
    altered,
    extends,
    final_letter_moves,
    is_junction,
    junction_runs,
)
from arbiter.reasons import DOES_NOT_FIT, error_text, problem_text
from engine.board import Board
from engine.errors import EngineError
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove, engine_in_use, generate
from engine.notation import SIZE, Direction, parse_ref, parse_word, ref_direction
from engine.tiles import BLANK, TileSet
from engine.validate import Fault, Verdict, validate
from tournament.vocabulary import POLICY_DEFAULTS, RulingCode, ruling_total
from tournament.vocabulary import gettext_noop as _

Code = RulingCode  # the ruling codes, as the rulings name them

# Faults that say the word cannot stand at the written square at all.
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
# The codes of a slip whose move is on the board (it has a score, a rank, may find the top).
PLACED_CODES = frozenset(
    {Code.VALID, Code.VALID_WARNING, Code.REFERENCE_PENALTY, Code.FINAL_LETTER_PENALTY}
)


class Article:
    """Which case of docs/rules.md ("Rulings in detail") ruled a slip, with the federation's
    article where its texts number it: each ruling cites one (the console and the workbook
    show it)."""

    VALID = "1"
    SCORE = "2"
    BLANKS = "3"
    REFERENCE = "4 · FISF 5.3.1"
    FIRST_MOVE = "5"
    ZERO = "6"
    MULTIPLE = "7"
    AMENDED = "11"
    JUNCTION = "13"
    JUNCTION_SHORT = "14"
    JUNCTION_ALTERED = "15"
    EXTENSION = "16"
    FINAL_LETTER = "17 · FISF 5.3.1"
    SHIFT = "18 · FISF 5.3.1"
    AMBIGUOUS = "19 · FISF 5.3.2"


@dataclass(frozen=True)
class Policy:
    """The numbers the rulings follow; an event's own (``arbiter.state``), by default the
    policy's defaults (``POLICY_DEFAULTS``)."""

    warnings_free: int = POLICY_DEFAULTS.warnings_free
    warning_penalty: int = POLICY_DEFAULTS.warning_penalty
    reference_rule_2016: bool = POLICY_DEFAULTS.reference_rule_2016
    reference_penalty: int = POLICY_DEFAULTS.reference_penalty
    solo_bonus: int = POLICY_DEFAULTS.solo_bonus
    solo_min_players: int = POLICY_DEFAULTS.solo_min_players


@dataclass(frozen=True)
class Slip:
    word: str
    ref: str = ""  # "" when the slip gives none
    announced: int | None = None
    late: bool = False  # handed in after the deadline (an arbiter's entry says so)
    multiple: bool = False  # several slips handed in for the round (an arbiter's entry says so)


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


@dataclass(frozen=True)
class Reading:
    """A legal placement of a slip's word: as written, or with its blanks where they must be."""

    verdict: Verdict
    remarked: str = ""  # the word with its blanks re-marked ("" when legal as written)

    @property
    def score(self) -> int:
        return self.verdict.score

    @property
    def ref(self) -> str:
        return self.verdict.move.ref if self.verdict.move else ""


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
    _readings: dict[tuple[str, Direction | None], list[Reading]] = field(
        default_factory=dict, repr=False
    )
    _ruled: dict[Slip | None, Ruled] = field(default_factory=dict, repr=False)

    def rank(self, score: int) -> int:
        """1 + how many legal moves score more (equal scores share a rank)."""
        return 1 + sum(n for s, n in self.score_counts.items() if s > score)

    def _penalised(
        self, code: RulingCode, reason: str, reading: Reading, penalty: int, article: str
    ) -> Ruled:
        """A legal placement credited at its score less ``penalty`` (the 2016 reference rule,
        the final letter), with a warning for blanks not marked as they must be."""
        if reading.remarked:
            reason += self.say(_("; blanks not marked as they must be (%(word)s): a warning")) % {
                "word": reading.remarked
            }
        return Ruled(
            code,
            reason,
            reading.score,
            reading.score,
            warning=bool(reading.remarked),
            penalty=penalty,
            rank=self.rank(reading.score),
            found_top=reading.score == self.top_score,
            placed=tuple(sorted(reading.verdict.placed)),
            article=article,
        )

    def rule(self, slip: Slip | None) -> Ruled:
        """The ruling of ``slip`` (None: no slip handed in). Memoised: a ruling depends on the
        slip alone, and many players hand in the same slip."""
        ruled = self._ruled.get(slip)
        if ruled is None:
            ruled = self._ruled[slip] = self._rule(slip)
        return ruled

    def _rule(self, slip: Slip | None) -> Ruled:
        if slip is None:
            return Ruled(Code.MISSING, self.say(_("no slip handed in: 0")))
        if slip.multiple:
            return Ruled(
                Code.MULTIPLE,
                self.say(_("several slips handed in for the round: 0")),
                article=Article.MULTIPLE,
            )
        if slip.late:
            return Ruled(Code.LATE, self.say(_("slip handed in after the deadline: 0")))
        try:
            word = parse_word(slip.word)
        except EngineError as exc:
            reason = self.say(_("the word cannot be read (%(error)s): 0")) % {
                "error": error_text(exc, self.say)
            }
            return Ruled(Code.MALFORMED, reason)
        if self.board.is_empty:
            return self._first_move(word, slip)
        ref = slip.ref.strip().upper()
        direction = ref_direction(ref)
        if direction is None and is_junction(ref):
            return self._by_junction(word, slip, ref)
        if direction is None:
            why = (
                self.say(_("the slip gives no reference"))
                if not ref
                else self.say(_("the reference %(ref)s cannot be read")) % {"ref": ref}
            )
            return self._wrong_reference(word, slip, None, why, written=None)
        try:
            row, col, _direction = parse_ref(ref)
        except EngineError as exc:  # the form of a reference, but off the board
            why = error_text(exc, self.say)
            return self._wrong_reference(word, slip, direction, why, written=None)
        move = Move(row, col, direction, word)
        reading = self.reading(move)
        if reading is not None:
            return self._placed(reading, slip)
        final = self._final_letter(move, slip)
        if final is not None:
            return final
        written = self._verdict(move)
        return self._wrong_reference(word, slip, direction, self._first(written), written=written)

    # -- the cases ---------------------------------------------------------------------------

    def _placed(
        self,
        reading: Reading,
        slip: Slip,
        *,
        credited: str = "",
        article: str = "",
        warned: bool = False,
    ) -> Ruled:
        """A legal placement: its real score; a warning for a wrong or missing score, for
        blanks not marked as they must be, or for what ``credited`` says when ``warned`` (one
        warning whatever the faults). ``article``: the case that placed it, when not the
        reference's (cases 1 to 3)."""
        score = reading.score
        notes = [credited] if credited else []
        if reading.remarked:
            notes.append(
                self.say(_("blanks not marked as they must be: scored as %(word)s"))
                % {"word": reading.remarked}
            )
        if slip.announced is None:
            notes.append(
                self.say(_("no score announced, the move is worth %(score)s")) % {"score": score}
            )
        elif slip.announced != score:
            notes.append(
                self.say(_("announced %(announced)s, the move is worth %(score)s"))
                % {"announced": slip.announced, "score": score}
            )
        warning = warned or bool(reading.remarked) or slip.announced != score
        if not article:
            if reading.remarked:
                article = Article.BLANKS
            else:
                article = Article.SCORE if warning else Article.VALID
        verdict = reading.verdict
        notes_said = self.say(_("; ")).join(notes)  # a French "; " has its non-breaking space
        if not notes:
            reason = self.say(_("valid: %(score)s")) % {"score": score}
        elif warning:
            reason = self.say(_("%(notes)s: %(score)s and a warning")) % {
                "notes": notes_said,
                "score": score,
            }
        else:
            reason = self.say(_("%(notes)s: %(score)s")) % {
                "notes": notes_said,
                "score": score,
            }
        return Ruled(
            Code.VALID_WARNING if warning else Code.VALID,
            reason,
            score,
            score,
            warning=warning,
            rank=self.rank(score),
            found_top=score == self.top_score,
            placed=tuple(sorted(verdict.placed)),
            article=article,
        )

    def _by_junction(self, word: str, slip: Slip, junction: str) -> Ruled:
        """The slip gives junction letters ("raccord", case 13): the letters already on the
        board that the word joins, instead of a grid reference. The placement they designate
        is ruled as if its reference were written; two letters where three can be given earn
        a warning (case 14); letters with one changed, a warning (case 15). Letters that
        designate no placement, or several worth different scores none of which the slip
        announced, are a wrong reference (case 4)."""
        readings = self._readings_of(word, None)
        runs = [junction_runs(self.board, r.verdict) for r in readings]
        matches = [r for r, at in zip(readings, runs, strict=True) if junction in at]
        if matches:
            chosen = _choose(matches, slip.announced)
            if chosen is not None:
                fuller = junction_runs(self.board, chosen.verdict)
                short = len(junction) < FULL_JUNCTION and any(
                    len(run) >= FULL_JUNCTION for run in fuller
                )
                said = (
                    _(
                        "junction letters %(junction)s, two where three are written: "
                        "%(word)s at %(ref)s"
                    )
                    if short
                    else _("junction letters %(junction)s: %(word)s at %(ref)s")
                )
                return self._placed(
                    chosen,
                    slip,
                    credited=self.say(said)
                    % {"junction": junction, "word": word, "ref": chosen.ref},
                    article=Article.JUNCTION_SHORT if short else Article.JUNCTION,
                    warned=short,
                )
            why = self.say(
                _("the junction letters %(junction)s fit %(count)s placements of %(word)s")
            ) % {"junction": junction, "count": len(matches), "word": word}
        else:
            near = [r for r, at in zip(readings, runs, strict=True) if altered(junction, at)]
            chosen = _choose(near, slip.announced)
            if chosen is not None:
                return self._placed(
                    chosen,
                    slip,
                    credited=self.say(
                        _("junction letters %(junction)s altered: %(word)s at %(ref)s")
                    )
                    % {"junction": junction, "word": word, "ref": chosen.ref},
                    article=Article.JUNCTION_ALTERED,
                    warned=True,
                )
            why = self.say(
                _("the junction letters %(junction)s are not on the board next to %(word)s")
            ) % {"junction": junction, "word": word}
        return self._wrong_reference(word, slip, None, why, written=None)

    def _extension(self, word: str, slip: Slip) -> Ruled | None:
        """The word extends a word already on the board (case 16): its junction letters are
        written by construction, so a wrong or missing reference is not penalised. Credited
        at the extension worth the announced score; when none is, and no other placement of
        the word is either, at the best extension (with the score's warning)."""
        readings = self._readings_of(word, None)
        extensions = [r for r in readings if extends(self.board, r.verdict)]
        at_score = [r for r in extensions if r.score == slip.announced]
        if at_score:
            chosen: Reading | None = at_score[0]
        elif any(r.score == slip.announced for r in readings):
            return None  # another placement is worth the announced score: case 4 rules it
        else:
            chosen = _best(extensions)
        if chosen is None:
            return None
        return self._placed(
            chosen,
            slip,
            credited=self.say(
                _("%(word)s extends a word on the board: no reference needed (%(ref)s)")
            )
            % {"word": word, "ref": chosen.ref},
            article=Article.EXTENSION,
        )

    def _final_letter(self, move: Move, slip: Slip) -> Ruled | None:
        """The slip leaves out the final letter of its word, already on the board, or changes
        it (PANIQU or PANIQUA for PANIQUE, case 17): from round 2, when the announced score is
        that of the whole word at the written square, that score less the penalty (never
        below zero). Left out: since the 2010 amendments; changed: since 2016 (the policy's
        2016 rule)."""
        if self.round_number < 2 or slip.announced is None:
            return None
        for whole, fault in final_letter_moves(self.board, move):
            if fault == "changed" and not self.policy.reference_rule_2016:
                continue
            reading = self.reading(whole)
            if reading is None or reading.score != slip.announced:
                continue
            penalty = min(self.policy.reference_penalty, reading.score)
            said = (
                _(
                    "the final letter %(letter)s, already on the board, is left out: %(word)s "
                    "is worth the announced %(score)s: %(score)s less a %(penalty)s-point "
                    "penalty"
                )
                if fault == "left out"
                else _(
                    "the final letter %(letter)s, already on the board, is changed: %(word)s "
                    "is worth the announced %(score)s: %(score)s less a %(penalty)s-point "
                    "penalty"
                )
            )
            reason = self.say(said) % {
                "letter": whole.word[-1].upper(),
                "word": whole.word,
                "score": reading.score,
                "penalty": penalty,
            }
            return self._penalised(
                Code.FINAL_LETTER_PENALTY, reason, reading, penalty, Article.FINAL_LETTER
            )
        return None

    def _first_move(self, word: str, slip: Slip) -> Ruled:
        """The first move is written across; its reference is optional and it is credited at
        its best-scoring position through the centre (blanks as written, if they can be)."""
        readings = self._readings_of(word, Direction.ACROSS)
        as_written = [r for r in readings if not r.remarked]
        best = _best(as_written or readings)
        if best is not None:
            return self._placed(
                best,
                slip,
                credited=self.say(_("first move credited at its best position %(ref)s"))
                % {"ref": best.ref},
                article=Article.FIRST_MOVE,
            )
        attempts = [v for v in self._attempts(word, Direction.ACROSS) if v.placeable]
        if not attempts:
            reason = self.say(_("%(word)s cannot be placed through the centre: 0")) % {"word": word}
            return Ruled(Code.DOES_NOT_FIT, reason)
        return self._zero(max(attempts, key=lambda v: v.score))

    def _wrong_reference(
        self,
        word: str,
        slip: Slip,
        direction: Direction | None,
        why: str,
        *,
        written: Verdict | None,
    ) -> Ruled:
        """The word is not legal at the written square (or none is given). Since 2016, from
        round 2: when the announced score is that of a legal placement of the word in the
        written direction (either, when none is given), the score less the penalty. With the
        score also wrong, zero, for the reason at the written square. The penalty never takes
        the slip below zero (case 20). A word that extends one on the board needs no
        reference (case 16)."""
        extension = self._extension(word, slip)
        if extension is not None:
            return extension
        policy = self.policy
        if policy.reference_rule_2016 and self.round_number >= 2 and slip.announced is not None:
            at_score = [r for r in self._readings_of(word, direction) if r.score == slip.announced]
            for reading in at_score[:1]:
                penalty = min(policy.reference_penalty, reading.score)
                reason = self.say(
                    _(
                        "%(why)s; %(word)s at %(ref)s is worth the announced %(score)s: "
                        "%(score)s less a %(penalty)s-point penalty (2016 rule)"
                    )
                ) % {
                    "why": why,
                    "word": word,
                    "ref": reading.ref,
                    "score": reading.score,
                    "penalty": penalty,
                }
                return self._penalised(
                    Code.REFERENCE_PENALTY,
                    reason,
                    reading,
                    penalty,
                    _reference_article(reading, at_score, written),
                )
        if written is not None and not set(written.faults()) & FITTING_FAULTS:
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
        attempts = [v for v in self._attempts(word, None) if v.placeable and not _fits_badly(v)]
        if attempts:
            return self._zero(max(attempts, key=lambda v: v.score), anywhere=True)
        reason = self.say(_("%(word)s fits nowhere on the board (%(why)s): 0")) % {
            "word": word,
            "why": why,
        }
        return Ruled(Code.DOES_NOT_FIT, reason)

    def _zero(self, verdict: Verdict, *, anywhere: bool = False) -> Ruled:
        """A placement that fits but is not legal: its word is not in the lexicon, its tiles are
        not on the rack, or a word it forms across is not in the lexicon (in that order). It
        earns nothing; what it would have made is kept."""
        placed = tuple(sorted(verdict.placed))
        faults = verdict.faults()
        main_invalid = bool(verdict.words) and verdict.words[0].word.upper() in {
            w.upper() for w in verdict.invalid_words
        }
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
        return validate(self.board, move, rack=self.rack, lexicon=self.lexicon, tiles=self.tiles)

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
            moves = generate(self.board, self.rack, self.lexicon, self.tiles)
            self.placements = Placements(self.board, moves)
        return self.placements


Search = Literal["auto", "moves", "squares"]
Square = tuple[int, int, int]  # (direction, line, start): the board order of ``_squares``


class Placements:
    """Where each word lies in the legal moves for a board and rack (``generate``'s): by its
    letters in upper case, the squares of every legal move that spells it, however its blanks
    are marked. The generator makes a tile placed alone once, across when it forms a word
    across too: such a tile is also indexed down, where it reads as the word it forms down."""

    def __init__(self, board: Board, moves: Iterable[ScoredMove]) -> None:
        self._at: dict[str, set[Square]] = {}
        at, across = self._at, Direction.ACROSS
        for scored in moves:  # a loop kept plain: a rack with two blanks has 30,000 moves
            move = scored.move
            if move.direction is across:
                square = (0, move.row, move.col)
            else:
                square = (1, move.col, move.row)
            at.setdefault(move.word.upper(), set()).add(square)
            if len(scored.used) == 1 and move.direction is across:
                ((row, col, tile),) = board.placed_by(move)
                self._down(board, row, col, tile)

    def _down(self, board: Board, row: int, col: int, tile: str) -> None:
        """Index the word down through a tile placed alone at (row, col) (one letter when it
        forms none: no slip writes that)."""
        top = bottom = row
        while top > 0 and board[top - 1, col]:
            top -= 1
        while bottom < SIZE - 1 and board[bottom + 1, col]:
            bottom += 1
        word = "".join(board[r, col] or tile for r in range(top, bottom + 1))
        self._at.setdefault(word.upper(), set()).add((1, col, top))

    def of(self, word: str, direction: Direction | None) -> list[Move]:
        """``word`` as written at each square where a legal move spells it, in ``direction``
        (both when None), in board order."""
        moves = []
        for d, line, start in sorted(self._at.get(word.upper(), ())):
            if direction is None or d == direction:
                row, col = (line, start) if d == Direction.ACROSS else (start, line)
                moves.append(Move(row, col, Direction(d), word))
        return moves


def blank_markings(verdict: Verdict, rack: str) -> Iterator[Move]:
    """The move of ``verdict`` with its blanks where the rack needs them: for each letter the
    rack lacks, that many of the word's new tiles of that letter become blanks, in every way
    it can be done (nothing when the rack's blanks cannot make up for what it lacks)."""
    move = verdict.move
    if move is None:
        return
    index = {
        (r, c): (c - move.col if move.direction is Direction.ACROSS else r - move.row)
        for r, c, _tile in verdict.placed
    }
    letters: dict[str, list[int]] = {}
    for i in sorted(index.values()):
        letters.setdefault(move.word[i].upper(), []).append(i)
    have = Counter(rack)
    short = {
        letter: len(at) - have[letter] for letter, at in letters.items() if len(at) > have[letter]
    }
    if sum(short.values()) > have[BLANK]:
        return
    base = [ch.upper() for ch in move.word]
    choices = [itertools.combinations(letters[letter], n) for letter, n in sorted(short.items())]
    for chosen in itertools.product(*choices):
        word = list(base)
        for i in itertools.chain.from_iterable(chosen):
            word[i] = word[i].lower()
        yield Move(move.row, move.col, move.direction, "".join(word))


def _choose(readings: Sequence[Reading], announced: int | None) -> Reading | None:
    """The placement a slip designates among several: the first worth the announced score;
    else the first when all are worth the same; else none (ambiguous)."""
    for reading in readings:
        if reading.score == announced:
            return reading
    if len({r.score for r in readings}) == 1:
        return readings[0]
    return None


def _reference_article(
    reading: Reading, at_score: Sequence[Reading], written: Verdict | None
) -> str:
    """The case of a wrong reference saved by the 2016 rule: a reference shifted by one square
    along the word (case 18), an announced score that fits several placements (case 19), the
    general case (4)."""
    move, shown = reading.verdict.move, written.move if written is not None else None
    if move is not None and shown is not None and move.direction is shown.direction:
        across = move.direction is Direction.ACROSS
        along, line = (
            (move.col - shown.col, move.row - shown.row)
            if across
            else (move.row - shown.row, move.col - shown.col)
        )
        if line == 0 and abs(along) == 1:
            return Article.SHIFT
    if len(at_score) > 1:
        return Article.AMBIGUOUS
    return Article.REFERENCE


def _best(readings: Sequence[Reading]) -> Reading | None:
    """The best-scoring reading (the first in board order among equals)."""
    return max(readings, key=lambda r: r.score, default=None)


def _fits_badly(verdict: Verdict) -> bool:
    return bool(set(verdict.faults()) & FITTING_FAULTS)


def score_counts(scores: Iterable[int]) -> dict[int, int]:
    """How many legal placements there are at each score (what ``RoundJudge`` ranks by)."""
    counts: dict[int, int] = {}
    for score in scores:
        counts[score] = counts.get(score, 0) + 1
    return counts


# -- what a game's rulings derive ---------------------------------------------------------------


def warning_penalties(warnings: Sequence[int], policy: Policy) -> list[int]:
    """One player's warnings in a game, round by round (how many in each: a slip's and the
    disciplinary ones, rules.md case 21) -> the penalty of each round: every warning beyond the
    ``warnings_free`` first ones costs ``warning_penalty``."""
    penalties = []
    seen = 0
    for warned in warnings:
        cost = 0
        for _one in range(int(warned)):
            seen += 1
            if seen > policy.warnings_free:
                cost += policy.warning_penalty
        penalties.append(cost)
    return penalties


def solo_winner(found_top: Iterable[int], active_players: int, policy: Policy) -> int | None:
    """The one player (an id) who alone found the top, when enough players play the game
    (those who handed in at least one slip in it)."""
    finders = list(found_top)
    if len(finders) == 1 and active_players >= policy.solo_min_players:
        return finders[0]
    return None


def round_average(nets: Iterable[int]) -> int:
    """The average of the other players' net scores for a round, rounded down (rule 10)."""
    values = list(nets)
    return sum(values) // len(values) if values else 0


def tie_break_key(last_game_rounds: Sequence[int]) -> tuple[int, ...]:
    """How a player's equal total is broken (rules.md case 22, the Québec federation's rule):
    the total of the last game played, then its rounds' totals from the last one backwards.
    ``last_game_rounds``: the player's total in each round of that game, in round order."""
    return (sum(last_game_rounds), *reversed(last_game_rounds))
