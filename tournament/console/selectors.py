"""Reads for the console and the projection screen: the round in play, who has handed in a
slip (never what), the rulings and tops once scored, the board with its premiums."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef

from arbiter.services.standings import Standings, standings_game
from arbiter.services.state import board_before, lexicon_for
from engine.board import Layout
from engine.movegen import ScoredMove, generate
from engine.notation import ROWS, SIZE
from engine.tiles import TileSet, subtract
from tournament.models import AuditEntry, Game, Player, Round, Ruling, Submission

PREMIUMS = {(2, 1): "dl", (3, 1): "tl", (1, 2): "dw", (1, 3): "tw"}


def board_rows(game: Game) -> list[dict[str, Any]]:
    """The board as rows of squares: the tile (lower case: a blank) and the premium's class."""
    layout = Layout.load(game.board_layout)
    rows = []
    for r in range(SIZE):
        squares = []
        for c in range(SIZE):
            tile = game.board[r][c]
            premium = PREMIUMS.get(layout.premium(r, c), "")
            if (r, c) == layout.start and not premium:
                premium = "start"
            squares.append({"tile": "" if tile == "." else tile, "blank": tile.islower(), "premium": premium})
        rows.append({"label": ROWS[r], "squares": squares})
    return rows


def round_current(game: Game) -> Round | None:
    """The round in play, else the last published one."""
    return game.rounds.filter(status__in=Round.IN_PLAY).first() or game.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()


@dataclass(frozen=True)
class ConsoleState:
    game: Game
    round: Round | None
    remaining: float | None  # seconds left on the clock (server time), None when not open
    slips: int
    players: int
    rack_shown: str  # the leftover marked: "LT+EMOO?"
    missing: list[Player]
    rulings: list[Ruling]
    disagreements: list[dict[str, Any]]
    standings: Standings
    audit: list[AuditEntry]


def console_state(*, game: Game, now: datetime) -> ConsoleState:
    current = round_current(game)
    players = Player.objects.filter(event_id=game.event_id).order_by("table", "name")
    slips = 0
    missing: list[Player] = []
    rulings: list[Ruling] = []
    disagreements: list[dict[str, Any]] = []
    remaining = None
    if current is not None:
        has_slip = Submission.objects.filter(round=current, player=OuterRef("pk"), is_current=True)
        annotated = players.annotate(has_slip=Exists(has_slip))
        missing = [p for p in annotated if not p.has_slip]
        slips = len(players) - len(missing)
        left = current.remaining(at=now)
        remaining = None if left is None else left.total_seconds()
        if current.status in (Round.Status.SCORED, Round.Status.PUBLISHED):
            rulings = list(Ruling.objects.filter(round=current).select_related("player", "submission").order_by("-points", "player__table", "player__name"))
        disagreements = [e.data for e in AuditEntry.objects.filter(round=current, action="arbiter.slip.checked", data__agree=False)]
    audit = list(AuditEntry.objects.filter(game=game).order_by("-at", "-pk")[:40])
    return ConsoleState(game, current, remaining, slips, len(players), rack_shown(current), missing, rulings, disagreements, standings_game(game=game), audit)


def rack_shown(round: Round | None) -> str:  # noqa: A002
    """The rack with the leftover marked, as arbiters call it: ``LT+EMOO?``."""
    if round is None:
        return ""
    new = subtract(round.rack, round.leftover)
    return f"{round.leftover}+{new}" if round.leftover and new is not None else round.rack


def round_moves_ranked(*, round: Round) -> list[tuple[int, ScoredMove]]:  # noqa: A002
    """Every legal move for the round's rack on the board it was played on, best first (the
    engine's order), with its rank: 1 = top, equal scores share a rank."""
    game = round.game
    moves = generate(board_before(round), round.rack, lexicon_for(game.lexicon), TileSet.load(game.tile_set))
    ranked, rank = [], 0
    for i, m in enumerate(moves):
        if i == 0 or m.score != moves[i - 1].score:
            rank = i + 1
        ranked.append((rank, m))
    return ranked
