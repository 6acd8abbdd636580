"""The rulebook ``fisf-2023``: a slip ruled as the regulation in force says, article by article
("Règlement du Scrabble® duplicate francophone de compétition, en vigueur au 1er janvier 2023",
FISF; docs/rules.md quotes each article with a worked example).

The order is the text's, 5.4 "Traitement d'un bulletin": the nullities (5.7), the first move
(5.4.2.a), then from the second move the acceptable solutions of 5.3 (a correct localisation
paid by 5.3.1 or 5.3.2, a score existing elsewhere paid by 5.3.3), the one retained among them
(5.4.2.b), and when there is none, the zero of 5.4.1 with its reason. One warning per slip at
most, never with a penalty or a zero (5.8).

Our slips carry one word, its reference field (a grid reference or junction letters) and its
score: the cases of the text that need more (several words on one slip, parasitic letters, both
modes of localisation at once, 5.2.2 and 5.4.2.b's "plusieurs solutions") cannot be written on
them; docs/rules.md says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from arbiter.junctions import FULL_JUNCTION, altered, extended_length, junction_runs
from arbiter.rules.base import JudgeBase, Ruled, Slip, Where
from arbiter.rules.readings import Reading, circlings
from arbiter.rules.rulebook import Code, Fisf2023
from engine.move import Move
from engine.notation import SIZE, Direction
from engine.tiles import BLANK
from engine.validate import Fault, Verdict
from tournament.vocabulary import gettext_noop as _

Square = tuple[int, int, Direction]


@dataclass(frozen=True)
class Place:
    """A correct localisation of the slip's word (FISF 2023, 5.3): a square where the word, for
    at least one of its possible circlings, is a legal move. ``fault``: what the slip got wrong
    in locating it that the text tolerates with a warning (5.5), "" when nothing."""

    move: Move  # the word as the slip writes it, at this square
    fault: str = ""
    article: str = Fisf2023.ACCEPTABLE_EXACT
    written: bool = False  # the square of the slip's own grid reference, in its direction


@dataclass(frozen=True)
class Paid:
    """An acceptable solution (5.3) and what it pays: the legal move it is paid as, its
    points, a warning (5.5) and what the reason says."""

    verdict: Verdict
    points: int
    article: str
    notes: tuple[str, ...] = ()
    warning: bool = False


class Fisf2023Judge(JudgeBase):
    """The rulings of an event under ``fisf-2023``."""

    def _rule_fisf_2023(self, word: str, slip: Slip) -> Ruled:
        if self.board.is_empty:
            return self.first_move_5_4_2_a(word, slip)
        where = self._where(slip)
        exact = self._exact_at_reference(word, where, slip)
        if exact is not None:
            return exact
        places = self.correct_places_5_3(word, where)
        retained = self.retained_5_4_2_b(
            slip, places, lambda: self.penalty_5_3_3(word, where, slip)
        )
        return retained or self.zero_5_4_1(word, where)

    # -- 5.3: the acceptable solutions ---------------------------------------------------------

    def _exact_at_reference(self, word: str, where: Where, slip: Slip) -> Ruled | None:
        """The slip as most are: its word, circled as written, legal at its grid reference for
        the announced score (5.3.1 with no warning). Nothing can pay more or warn less, so the
        other places are not looked for."""
        if where.square is None:
            return None
        row, col, direction = where.square
        written = self._verdict(Move(row, col, direction, word))
        if not written.valid or written.score != slip.announced:
            return None
        return self.one_warning_5_8(Paid(written, written.score, Fisf2023.ACCEPTABLE_EXACT))

    def correct_places_5_3(self, word: str, where: Where) -> list[Place]:
        """The squares the slip locates its word at correctly (5.3, "localisation correcte"):

        - its grid reference (4.3.1), where the word is legal for some circling;
        - the same square in the other direction: "en cas de localisation alphanumérique,
          l'inversion du sens du mot sur le bulletin OU de la référence est tolérée :
          localisation correcte mais solution sanctionnée d'un avertissement" (a slip says its
          word's direction only by its reference's form, so a reference of the other form is
          the inversion of one of the two, never of both: 6.3, the reading most favourable);
        - its junction letters (4.3.2): the placements whose letters already on the board they
          are, two where three can be given with a warning (5.5), one of them changed (a
          parasitic letter, 5.2.2) with a warning;
        - a word already on the board that it extends: "en cas de prolongement d'un mot d'au
          moins trois lettres déjà sur la grille, la référence alphanumérique est ignorée"; a
          word of two extended with neither a third junction letter nor the right reference
          is a warning (5.5).
        """
        places: dict[Square, Place] = {}

        def add(place: Place) -> None:
            m = place.move
            key = (m.row, m.col, m.direction)
            if key not in places or (places[key].fault and not place.fault):
                places[key] = place

        if where.square is not None:
            row, col, direction = where.square
            written = Move(row, col, direction, word)
            if self._circled(written):
                add(Place(written, written=True))
            other = Direction.DOWN if direction is Direction.ACROSS else Direction.ACROSS
            inverted = Move(row, col, other, word)
            if self._circled(inverted):
                add(
                    Place(
                        inverted,
                        self.say(_("the reference %(ref)s is inverted (%(right)s)"))
                        % {"ref": where.ref, "right": inverted.ref},
                        Fisf2023.INVERSION,
                    )
                )
        if where.junction:
            for place in self._junction_places(word, where.junction):
                add(place)
        for reading in self._readings_of(word, None):
            length = extended_length(self.board, reading.verdict)
            move = self._as_written(reading, word)
            if length >= 3:
                add(Place(move, article=Fisf2023.INVERSION))
            elif length == 2 and self._tiles_on_board() > 2:
                add(
                    Place(
                        move,
                        self.say(
                            _(
                                "%(word)s extends a word of two letters with neither a third "
                                "junction letter nor its reference %(right)s"
                            )
                        )
                        % {"word": word, "right": move.ref},
                        Fisf2023.WARNING,
                    )
                )
            elif length == 2:
                add(Place(move))
        return sorted(places.values(), key=lambda p: _board_order(p.move))

    def _junction_places(self, word: str, junction: str) -> list[Place]:
        """The placements ``junction`` designates (4.3.2): their letters already on the board,
        a run of them next to the word; else, with one of them changed (a parasitic letter,
        5.2.2), those it designates with a warning."""
        readings = self._readings_of(word, None)
        runs = [junction_runs(self.board, r.verdict) for r in readings]
        short = len(junction) < FULL_JUNCTION and self._tiles_on_board() > 2
        exact = [
            Place(
                self._as_written(r, word),
                self.say(_("junction letters %(junction)s, two where three are written"))
                % {"junction": junction}
                if short
                else "",
                Fisf2023.WARNING if short else Fisf2023.ACCEPTABLE_EXACT,
            )
            for r, at in zip(readings, runs, strict=True)
            if junction in at
        ]
        if exact:
            return exact
        return [
            Place(
                self._as_written(r, word),
                self.say(_("junction letters %(junction)s altered")) % {"junction": junction},
                Fisf2023.WARNING,
            )
            for r, at in zip(readings, runs, strict=True)
            if altered(junction, at)
        ]

    def paid_5_3_1_or_5_3_2(self, place: Place, slip: Slip) -> Paid:
        """What a correct localisation pays.

        5.3.1, "localisation correcte pour le mot joué et score exact à cette place ou score
        existant pour le mot joué à cette place pour un coup joker : une telle solution est
        payée du score indiqué, assorti d'un avertissement, le cas échéant": the announced
        score, when it is that of the circling written or of another possible circling (the
        circling then earns the warning of 5.5).

        5.3.2, "localisation correcte mais score absent ou erroné pour cette place": "si
        l'encerclement sur le bulletin [...] est possible pour ce mot à cette place, la solution
        est payée du score exact à cette place et pour cet encerclement, assorti d'un
        avertissement [...]. Sinon, [...] du score minimum parmi les divers encerclements
        possibles de lettres absentes du tirage, assorti d'un avertissement."
        """
        legal = self._circled(place.move)
        notes = (place.fault,) if place.fault else ()
        written = next((v for v in legal if v.move == place.move), None)
        if written is not None and written.score == slip.announced:
            return Paid(written, written.score, place.article, notes, bool(place.fault))
        existing = next((v for v in legal if v.score == slip.announced), None)
        if existing is not None:
            assert existing.move is not None
            circled = self.say(_("circled as %(word)s")) % {"word": existing.move.word}
            return Paid(
                existing, existing.score, Fisf2023.ACCEPTABLE_EXACT, (*notes, circled), True
            )
        if written is not None:
            paid = written
        else:
            reading = self.reading(place.move)
            assert reading is not None  # the place is correct: some circling is legal
            paid = reading.verdict
        assert paid.move is not None
        said = (
            self.say(_("no score announced, the move is worth %(score)s"))
            if slip.announced is None
            else self.say(_("announced %(announced)s, the move is worth %(score)s"))
        ) % {"announced": slip.announced, "score": paid.score}
        if paid is not written:
            said = (
                self.say(_("blanks not marked as they must be: scored as %(word)s"))
                % {"word": paid.move.word}
                + self.say(_("; "))
                + said
            )
        return Paid(paid, paid.score, Fisf2023.ACCEPTABLE_SCORE, (*notes, said), True)

    def penalty_5_3_3(self, word: str, where: Where, slip: Slip) -> Ruled | None:
        """5.3.3, "score existant pour le mot joué dans le sens où il figure sur le bulletin
        mais localisation absente, erronée ou incompatible avec ce score": "payée du score
        indiqué moins 5 points de pénalité, sauf dans le cas où le mot joué pour ce score peut,
        à certaines places, donner lieu à un « raccordement fallacieux » [...], auquel cas le
        bulletin est sanctionné par un zéro. Si cette pénalité de 5 points doit être appliquée à
        une solution rapportant au plus 4 points, le bulletin est sanctionné d'un zéro" (5.6).
        The sense is the reference's form (both when the slip gives none, or junction letters);
        the fallacious junction is the arbiter's decision (``Slip.fallacious``). No warning
        with the penalty (5.8)."""
        if slip.announced is None:
            return None
        sense = where.direction if where.square is not None else None
        readings = [
            r
            for r in self._readings_of(word, None)
            if sense is None or (r.verdict.move is not None and r.verdict.move.direction is sense)
        ]
        if BLANK in self.rack:  # a score existing for any circling of the word (5.3)
            legal = [v for r in readings for v in self._circled(self._as_written(r, word))]
        else:
            legal = [r.verdict for r in readings]
        at_score = [v for v in legal if v.score == slip.announced]
        if not at_score:
            return None
        verdict = at_score[0]
        assert verdict.move is not None
        why = where.why or self.say(_("%(word)s is not at %(ref)s for %(score)s")) % {
            "word": word,
            "ref": where.ref or "-",
            "score": slip.announced,
        }
        if slip.fallacious:
            return Ruled(
                Code.FALLACIOUS,
                self.say(
                    _(
                        "%(why)s; %(word)s for %(score)s forms a fallacious junction "
                        "(the arbiter's decision): 0"
                    )
                )
                % {"why": why, "word": word, "score": slip.announced},
                move_score=verdict.score,
                article=Fisf2023.PENALTY,
            )
        penalty = min(self.policy.reference_penalty, verdict.score)
        said = (
            _(
                "%(why)s; %(word)s at %(ref)s is worth the announced %(score)s: "
                "%(score)s less a %(penalty)s-point penalty"
            )
            if penalty < verdict.score
            else _(
                "%(why)s; %(word)s at %(ref)s is worth the announced %(score)s, at most "
                "the %(penalty)s-point penalty: 0"
            )
        )
        reason = self.say(said) % {
            "why": why,
            "word": word,
            "ref": verdict.move.ref,
            "score": verdict.score,
            "penalty": self.policy.reference_penalty,
        }
        return Ruled(
            Code.REFERENCE_PENALTY,
            reason,
            verdict.score,
            verdict.score,
            penalty=penalty,
            rank=self.rank(verdict.score),
            found_top=verdict.score == self.top_score,
            placed=tuple(sorted(verdict.placed)),
            article=Fisf2023.PENALTY if penalty < verdict.score else Fisf2023.NO_NEGATIVE,
        )

    # -- 5.4: the slip's treatment -------------------------------------------------------------

    def retained_5_4_2_b(
        self, slip: Slip, places: list[Place], penalty: Callable[[], Ruled | None]
    ) -> Ruled | None:
        """5.4.2.b: "si le bulletin comporte plusieurs solutions acceptables, notamment si un mot
        joué correspond à plusieurs solutions acceptables, c'est celle rapportant le plus de
        points au joueur sur ce coup qui est retenue", save "localisation par lettres de
        raccord correspondant à plusieurs places possibles pour le mot : si le score indiqué
        correspond à une place correcte, il est appliqué ; sinon le score minimum est appliqué
        (en excluant la nullité, sauf si l'une des places possibles forme un raccordement
        fallacieux)", and 5.5, a reference inverted "au cas où le mot peut être joué
        horizontalement ou verticalement à partir de la case indiquée et en cas d'erreur de
        score, le score minimal est attribué".

        So: a place worth the announced score (5.3.1), one without a warning first; else the
        slip's own reference, right, or its one place: the more of its 5.3.2 score and the
        5.3.3 elsewhere (``penalty``, asked only when it could pay more); else, several
        places, the least of their 5.3.2 scores, with a warning (a fallacious junction the
        arbiter saw: 0); with no correct place, the 5.3.3. None when there is nothing
        acceptable at all."""
        solutions = [self.paid_5_3_1_or_5_3_2(place, slip) for place in places]
        exact = [s for s in solutions if s.points == slip.announced]
        if exact:
            return self.one_warning_5_8(min(exact, key=lambda s: s.warning))
        own = [s for s, place in zip(solutions, places, strict=True) if place.written]
        if own or len(solutions) == 1:
            only = (own or solutions)[0]
            could = (slip.announced or 0) - self.policy.reference_penalty > only.points
            penalised = penalty() if could else None
            if penalised is not None and penalised.net > only.points:
                return penalised
            return self.one_warning_5_8(only)
        if not solutions:
            return penalty()
        if slip.fallacious:
            return Ruled(
                Code.FALLACIOUS,
                self.say(
                    _(
                        "the word fits several places, one of them a fallacious junction "
                        "(the arbiter's decision): 0"
                    )
                ),
                article=Fisf2023.SEVERAL,
            )
        least = min(solutions, key=lambda s: s.points)
        several = self.say(_("%(count)s places fit, the least is paid")) % {"count": len(solutions)}
        return self.one_warning_5_8(
            replace(least, notes=(*least.notes, several), article=Fisf2023.SEVERAL)
        )

    def one_warning_5_8(self, paid: Paid) -> Ruled:
        """5.8: "Lors d'un même coup, un joueur ne peut recevoir plus d'un avertissement. Les
        avertissements ne sont pas cumulables. Un avertissement ne se cumule pas avec une
        pénalité ou avec un zéro" (a disciplinary warning, which may, is the console's:
        ``arbiter.services.discipline``). However many faults the notes say, one warning."""
        verdict, score = paid.verdict, paid.points
        notes = self.say(_("; ")).join(paid.notes)
        if not paid.notes:
            reason = self.say(_("valid: %(score)s")) % {"score": score}
        elif paid.warning:
            reason = self.say(_("%(notes)s: %(score)s and a warning")) % {
                "notes": notes,
                "score": score,
            }
        else:
            reason = self.say(_("%(notes)s: %(score)s")) % {"notes": notes, "score": score}
        return Ruled(
            Code.VALID_WARNING if paid.warning else Code.VALID,
            reason,
            score,
            verdict.score,
            warning=paid.warning,
            rank=self.rank(verdict.score),
            found_top=verdict.score == self.top_score,
            placed=tuple(sorted(verdict.placed)),
            article=paid.article,
        )

    def first_move_5_4_2_a(self, word: str, slip: Slip) -> Ruled:
        """5.4.2.a: "au premier coup, le score maximum pour le mot joué est attribué, cela quelle
        que soit la référence alphanumérique éventuelle et quel que soit l'encerclement
        éventuel en cas de coup joker ; le bulletin est sanctionné d'un avertissement si le
        score est absent ou différent du maximum pour le mot joué ou si l'encerclement ne
        correspond pas au score maximum" (5.5). The first move lies across through the centre
        (3.4: "au premier coup, le mot est impérativement placé horizontalement")."""
        legal = [
            v
            for reading in self._readings_of(word, Direction.ACROSS)
            for v in self._circled(self._as_written(reading, word))
        ]
        top = max(legal, key=lambda v: v.score, default=None)
        if top is None:
            return self._zero_2023(self._first_move_zero(word))
        assert top.move is not None
        notes = [
            self.say(_("first move credited at its best position %(ref)s")) % {"ref": top.move.ref}
        ]
        circled_right = any(
            v.score == top.score and v.move is not None and v.move.word == word for v in legal
        )
        if not circled_right:
            notes.append(
                self.say(_("blanks not marked as they must be: scored as %(word)s"))
                % {"word": top.move.word}
            )
        if slip.announced is None:
            notes.append(
                self.say(_("no score announced, the move is worth %(score)s"))
                % {"score": top.score}
            )
        elif slip.announced != top.score:
            notes.append(
                self.say(_("announced %(announced)s, the move is worth %(score)s"))
                % {"announced": slip.announced, "score": top.score}
            )
        warning = not circled_right or slip.announced != top.score
        return self.one_warning_5_8(
            Paid(top, top.score, Fisf2023.FIRST_MOVE, tuple(notes), warning)
        )

    def zero_5_4_1(self, word: str, where: Where) -> Ruled:
        """5.4.1, the immediate zeros, when the slip holds no acceptable solution: (a) the word
        is not admitted, or forms a word across that is not, or is not at its place (5.7:
        "n'est pas écrit en entier", "erreur de recopie dans le mot prolongé", "non admis");
        (c) a grid error, "un mot contenant au moins deux lettres nouvellement posées et ne
        pouvant pas être joué sur la grille actuelle"; (d) a letter error, "un mot jouable sur
        la grille actuelle mais pas avec les lettres du tirage". The reason is that of the
        written square when the word stands there, else of the word anywhere (rules.md,
        "Zero, which reason")."""
        written = None
        if where.square is not None:
            row, col, direction = where.square
            written = self._verdict(Move(row, col, direction, word))
        why = self._first(written) if written is not None else where.why
        return self._zero_2023(self._zero_reason(word, written, why))

    def _zero_2023(self, ruled: Ruled) -> Ruled:
        """A zero of 5.4.1 citing the case of the text that rules it."""
        article = {
            Code.NOT_ON_RACK: Fisf2023.LETTER_ERROR,
            Code.DOES_NOT_FIT: Fisf2023.GRID_ERROR,
        }.get(ruled.code, Fisf2023.NO_SOLUTION)
        return replace(ruled, article=article)

    # -- the word's circlings at a square ------------------------------------------------------

    def _circled(self, move: Move) -> list[Verdict]:
        """The legal moves of ``move``'s word at its square over its possible circlings (5.3:
        "les divers encerclements possibles"), the circling written first when it is legal.
        Memoised per move: many slips share their words and squares."""
        known = self._circlings.get(move)
        if known is None:
            written = self._verdict(move)
            known = [written] if written.valid else []
            if written.valid or set(written.faults()) == {Fault.NOT_ON_RACK}:
                for other in circlings(written, self.rack):
                    verdict = self._verdict(other) if other != move else written
                    if other != move and verdict.valid:
                        known.append(verdict)
            self._circlings[move] = known
        return known

    @staticmethod
    def _as_written(reading: Reading, word: str) -> Move:
        """The slip's word, as the slip writes it, at the square of ``reading``."""
        move = reading.verdict.move
        assert move is not None
        return Move(move.row, move.col, move.direction, word)

    def _tiles_on_board(self) -> int:
        return sum(1 for row in range(SIZE) for col in range(SIZE) if self.board[row, col])


def _board_order(move: Move) -> tuple[int, int, int]:
    across = move.direction is Direction.ACROSS
    return (0 if across else 1, move.row if across else move.col, move.col if across else move.row)
