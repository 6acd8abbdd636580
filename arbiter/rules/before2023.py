"""The rulebook ``before-2023``: how slips were ruled before the regulation in force, kept so
that an event played under it keeps its standings to the point (docs/rules.md, "What
before-2023 does differently"). Only what differs from the machinery both share
(``arbiter.rules.base``): the 2016 reference rule (case 4), junction letters (13 to 15), a word
extended (16), the final letter (17), a shifted reference (18), ambiguity (19), the first move
(5). Each ruling cites rules.md's case, as it always did.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.junctions import FULL_JUNCTION, altered, extends, final_letter_moves, junction_runs
from arbiter.rules.base import JudgeBase, Ruled, Slip
from arbiter.rules.readings import Reading, best, choose
from arbiter.rules.rulebook import Article, Code
from engine.move import Move
from engine.notation import Direction
from engine.validate import Verdict
from tournament.vocabulary import gettext_noop as _


class Before2023(JudgeBase):
    """The rulings of an event under ``before-2023`` (rules.md, cases 1 to 20)."""

    def _rule_before_2023(self, word: str, slip: Slip) -> Ruled:
        if self.board.is_empty:
            return self._first_move(word, slip)
        where = self._where(slip)
        if where.junction:
            return self._by_junction(word, slip, where.junction)
        if where.square is None:
            return self._wrong_reference(word, slip, where.direction, where.why, written=None)
        row, col, direction = where.square
        move = Move(row, col, direction, word)
        reading = self.reading(move)
        if reading is not None:
            return self._placed(reading, slip)
        final = self._final_letter(move, slip)
        if final is not None:
            return final
        written = self._verdict(move)
        return self._wrong_reference(word, slip, direction, self._first(written), written=written)

    def _penalised(
        self, code: Code, reason: str, reading: Reading, penalty: int, article: str
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

    # -- the cases ---------------------------------------------------------------------------

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
            chosen = choose(matches, slip.announced)
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
            chosen = choose(near, slip.announced)
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
            chosen = best(extensions)
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
        chosen = best(as_written or readings)
        if chosen is not None:
            return self._placed(
                chosen,
                slip,
                credited=self.say(_("first move credited at its best position %(ref)s"))
                % {"ref": chosen.ref},
                article=Article.FIRST_MOVE,
            )
        return self._first_move_zero(word)

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
        return self._zero_reason(word, written, why)


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
