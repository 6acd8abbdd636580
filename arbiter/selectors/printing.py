"""What the printed sheets show (reads): the game sheet, round by round, and each player's score
card. The standings (ranks, totals) are ``arbiter.selectors.standings``'s; a round's points are
its ruling's ``ruling_total``; only published rounds count, as everywhere else.

The game sheet is the board after each round (the published tops put on the board in turn,
the tiles each one placed marked), the rack as arbiters call it, the top and its cumulative.
A score card is one player's game: per round the top, the player's slip (word, reference,
announced score), the ruling and the points it gave, the running total; then the player's
total and rank.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext

from arbiter.reasons import error_text
from arbiter.selectors.standings import PlayerFilter, StandingRow, standings_game
from engine.board import Board, Layout
from engine.errors import EngineError
from engine.move import Move
from engine.tiles import rack_notation
from tournament.errors import ApplicationError
from tournament.models import Game, Round, Ruling
from tournament.models.slip import ruling_label
from tournament.vocabulary import name_key, ruling_total


@dataclass(frozen=True)
class SheetRound:
    """One published round of the game sheet."""

    number: int
    rack: str  # rack_notation: ``ELT+MOO?``
    ref: str
    word: str
    score: int
    cumulative: int  # the tops' running total
    found_by: int  # how many players found the top
    board: tuple[str, ...]  # 15 lines after the round (engine notation)
    placed: frozenset[tuple[int, int]]  # the squares this round's top filled


def game_sheet(game: Game) -> list[SheetRound]:
    """The game's published rounds in order, each with the board after it."""
    rounds = list(
        Round.objects.filter(game=game, status=Round.Status.PUBLISHED)
        .order_by("number")
        .annotate(found_by=Count("rulings", filter=Q(rulings__found_top=True)))
    )
    board = Board(Layout.load(game.board_layout))
    sheet = []
    cumulative = 0
    for r in rounds:
        placed: list[tuple[int, int, str]] = []
        if r.played_word:
            try:
                placed = board.play(Move.from_ref(r.played_ref, r.played_word))
            except EngineError as exc:
                raise ApplicationError(
                    gettext(
                        "Game %(game)s, round %(round)s: the top does not go on the board: %(why)s"
                    )
                    % {"game": game.number, "round": r.number, "why": error_text(exc, gettext)},
                    code="top_does_not_fit",
                ) from None
        cumulative += r.played_score or 0
        sheet.append(
            SheetRound(
                number=r.number,
                rack=rack_notation(r.rack, r.leftover),
                ref=r.played_ref,
                word=r.played_word,
                score=r.played_score or 0,
                cumulative=cumulative,
                found_by=r.found_by,
                board=tuple(board.to_lines()),
                placed=frozenset((row, col) for row, col, _ in placed),
            )
        )
    return sheet


@dataclass(frozen=True)
class CardLine:
    """One round of a score card: the top, then what the player handed in and was given."""

    number: int
    top_ref: str
    top_word: str
    top_score: int
    ref: str  # the slip's, "" for none
    word: str
    announced: int | None
    code: str  # the ruling code ("" when the player has no ruling in the round)
    warning: bool
    penalty: int  # reference and warning penalties
    solo: int
    points: int  # ruling_total: what the round added
    cumulative: int  # the player's running total
    top_cumulative: int

    @property
    def ruling(self) -> str:
        """The ruling in words, in the language in force ("" for no ruling)."""
        return str(ruling_label(self.code)) if self.code else ""


@dataclass(frozen=True)
class ScoreCard:
    standing: StandingRow  # rank, overall rank, total, gap of the game's standings
    lines: list[CardLine]


def score_cards(game: Game, *, only: PlayerFilter | None = None) -> list[ScoreCard]:
    """One card per player of the standings (``only``: a category's), by table then name, as
    they are handed out in the room."""
    standings = standings_game(game=game, only=only)
    rounds = list(
        Round.objects.filter(game=game, status=Round.Status.PUBLISHED)
        .order_by("number")
        .only("pk", "number", "played_ref", "played_word", "played_score")
    )
    shown = {row.player_id for row in standings.rows}
    rulings: dict[tuple[int, int], Ruling] = {
        (ruling.player_id, ruling.round_id): ruling
        for ruling in Ruling.objects.filter(round__in=rounds, player_id__in=shown).select_related(
            "submission"
        )
    }
    cards = []
    by_table = sorted(
        standings.rows, key=lambda s: (s.table is None, s.table or 0, name_key(s.name))
    )
    for row in by_table:
        lines = []
        total = top_total = 0
        for r in rounds:
            ruling = rulings.get((row.player_id, r.pk))
            slip = ruling.submission if ruling is not None else None
            points = (
                ruling_total(
                    points=ruling.points,
                    solo=ruling.solo,
                    penalty=ruling.penalty,
                    warning_penalty=ruling.warning_penalty,
                )
                if ruling is not None
                else 0
            )
            total += points
            top_total += r.played_score or 0
            lines.append(
                CardLine(
                    number=r.number,
                    top_ref=r.played_ref,
                    top_word=r.played_word,
                    top_score=r.played_score or 0,
                    ref=slip.ref if slip is not None else "",
                    word=slip.word if slip is not None else "",
                    announced=slip.announced_score if slip is not None else None,
                    code=ruling.code if ruling is not None else "",
                    warning=ruling.warning if ruling is not None else False,
                    penalty=(ruling.penalty + ruling.warning_penalty) if ruling is not None else 0,
                    solo=ruling.solo if ruling is not None else 0,
                    points=points,
                    cumulative=total,
                    top_cumulative=top_total,
                )
            )
        cards.append(ScoreCard(standing=row, lines=lines))
    return cards
