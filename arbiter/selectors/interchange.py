"""A game as other tools read it (reads): Eliot's save game, the top sequence as GCG, the
results for SIGLES (docs/interchange.md). The formats are written by ``engine.eliot``,
``engine.gcg`` and ``tournament.sigles``; here the stored game becomes their values.

Eliot's file is an arbitration game: every player of the event (by table; a player without a
table gets the next number after the highest), and per published round the rack, each
player's move, warning, reference penalty and solo, the top put on the board. A slip's move is
the placement its ruling credited (re-read by the round's judge, so a blank re-marked or a
reference corrected by the 2016 rule is written as it stands on the board); a slip that earned
nothing is written as Eliot's ``invalid``, as typed; no slip, ``none``. Warning penalties are
not written: Eliot computes them from its own settings, as the standings here do from the
event's. A round in play ends the file as an open turn, a finished game with its leftover.
What Eliot cannot say: the average a director gave for a second zero (rule 10).
"""

from __future__ import annotations

from collections import defaultdict

from django.utils import translation
from django.utils.translation import gettext, ngettext

from arbiter.reasons import error_text
from arbiter.rules import PLACED_CODES, RoundJudge
from arbiter.selectors.standings import Standings, standings_event, standings_game
from arbiter.services.rulings import judge_for, slip_of
from arbiter.state import lexicon_for, lexicon_title, round_record
from engine.board import Layout
from engine.eliot import (
    Dictionary,
    EliotEvent,
    EliotGame,
    EliotMove,
    EliotPlayer,
    EliotTurn,
    Rack,
    eliot_write,
)
from engine.errors import EngineError
from engine.gcg import gcg_write
from engine.record import placements
from engine.tiles import TileSet, rack_notation
from engine.validate import move_from_tiles
from tournament.errors import ApplicationError
from tournament.models import Event, Game, Player, Round, Ruling
from tournament.sigles import ResultLine, sigles_lines


def eliot_players(event: Event) -> list[tuple[Player, int]]:
    """The event's players in Eliot's order (by table, then name) with their table numbers."""
    players = sorted(
        Player.objects.filter(event=event),
        key=lambda p: (p.table is None, p.table or 0, p.name.lower(), p.pk),
    )
    next_table = max((p.table or 0 for p in players), default=0) + 1
    result = []
    for p in players:
        if p.table is None:
            result.append((p, next_table))
            next_table += 1
        else:
            result.append((p, p.table))
    return result


def eliot_game_of(game: Game) -> EliotGame:
    """The game as an Eliot arbitration game."""
    event = game.event
    tiles = TileSet.load(game.tile_set)
    players = eliot_players(event)
    index = {p.pk: i for i, (p, _) in enumerate(players)}
    rounds = list(game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))
    rulings: dict[int, dict[int, Ruling]] = defaultdict(dict)
    for ruling in Ruling.objects.filter(round__in=rounds).select_related("submission"):
        rulings[ruling.round_id][ruling.player_id] = ruling
    try:
        placed = placements([round_record(r) for r in rounds], Layout.load(game.board_layout))
    except EngineError as exc:
        raise ApplicationError(
            gettext("Game %(game)s: the rounds do not replay: %(why)s")
            % {"game": game.number, "why": error_text(exc, gettext)}
        ) from None
    turns = []
    kept: str | None = None
    for r, placement in zip(rounds, placed, strict=True):
        moves: list[EliotMove] = []
        events: list[EliotEvent] = []
        judge = None
        for player, _ in players:
            mine = rulings[r.pk].get(player.pk)
            if mine is not None and mine.code in PLACED_CODES and judge is None:
                judge = judge_for(r)
            move, given = _eliot_move(judge, mine)
            moves.append(move)
            events += [EliotEvent(e.kind, index[player.pk], e.points) for e in given]
        top = EliotMove.valid(r.played_word, r.played_ref, r.played_score or 0)
        turns.append(
            EliotTurn(
                rack=_rack(r, kept),
                moves=tuple(moves),
                events=tuple(events),
                top=top,
                masters=(top,),
                kept=kept,
                rejected=tuple(r.rejected),
            )
        )
        kept = placement.leave
    current = (
        game.rounds.filter(status__in=Round.IN_PLAY).order_by("number").first()
        if game.status != Game.Status.FINISHED
        else None
    )
    if current is not None:
        turns.append(
            EliotTurn(
                rack=_rack(current, kept),
                moves=tuple(EliotMove.none() for _ in players),
                kept=kept,
                rejected=tuple(current.rejected),
            )
        )
    elif game.status == Game.Status.FINISHED and turns:
        turns.append(EliotTurn(rack=None, moves=(), kept=kept))
    return EliotGame(
        dictionary=Dictionary(
            name=game.lexicon,
            type="dawg",
            letters=" ".join([*tiles.letters, "?"]),
            words=lexicon_for(game.lexicon).words,
        ),
        mode="arbitration",
        players=tuple(EliotPlayer(p.name, table) for p, table in players),
        turns=tuple(turns),
    )


def _rack(round: Round, kept: str | None) -> Rack:
    """The round's rack as Eliot writes it; ``-`` when the leftover of the round before was put
    back (a rack refused) and the rack drawn afresh."""
    notation = rack_notation(round.rack, round.leftover)
    leftover, _, drawn = notation.partition("+")
    reset = bool(kept) and not round.leftover
    if not drawn:
        return Rack(kept="", drawn=leftover, reset=reset)
    return Rack(kept=leftover, drawn=drawn, reset=reset)


def _eliot_move(
    judge: RoundJudge | None, ruling: Ruling | None
) -> tuple[EliotMove, list[EliotEvent]]:
    """A player's ``PlayerMove`` and the events of their ruling (the player id is set by the
    caller)."""
    if ruling is None or ruling.submission is None:
        return EliotMove.none(), []
    slip = ruling.submission
    move = EliotMove.invalid(slip.word, slip.ref)
    if ruling.code in PLACED_CODES and judge is not None:
        ruled = judge.rule(slip_of(slip))
        if ruled.code in PLACED_CODES and ruled.placed:
            placed = move_from_tiles(judge.board, list(ruled.placed))
            move = EliotMove.valid(placed.word, placed.ref, ruling.points)
    events = []
    if ruling.warning:
        events.append(EliotEvent("Warning", -1))
    if ruling.penalty:
        events.append(EliotEvent("Penalty", -1, -ruling.penalty))
    if ruling.solo:
        events.append(EliotEvent("Solo", -1, ruling.solo))
    return move, events


def eliot_bytes(game: Game) -> bytes:
    """The game's Eliot save file, its statistics counted with the event's warning policy."""
    event = game.event
    return eliot_write(
        eliot_game_of(game),
        warnings_free=event.warnings_free,
        warning_penalty=event.warning_penalty,
        comment=f"{event.name}, game {game.number}",
    )


def gcg_text(game: Game) -> str:
    """The game's published tops as GCG, each with a note of the players' results."""
    rounds = list(game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))
    awarded: dict[int, list[str]] = defaultdict(list)
    for ruling in (
        Ruling.objects.filter(round__in=rounds, found_top=True)
        .select_related("player")
        .order_by("round__number", "player__name")
    ):
        awarded[ruling.round_id].append(ruling.player.name)
    with translation.override(game.event.language):  # the title and notes people read
        notes = {
            r.number: ngettext(
                "top found by %(count)s: %(names)s", "top found by %(count)s: %(names)s", n
            )
            % {"count": n, "names": ", ".join(awarded[r.pk][:20])}
            + (" ..." if n > 20 else "")
            for r in rounds
            if (n := len(awarded[r.pk]))
        }
        title = gettext("%(event)s, game %(number)s") % {
            "event": game.event.name,
            "number": game.number,
        }
    try:
        return gcg_write(
            [round_record(r) for r in rounds],
            layout=Layout.load(game.board_layout),
            title=title,
            lexicon=lexicon_title(game.lexicon),
            notes=notes,
        )
    except EngineError as exc:
        raise ApplicationError(
            gettext("Game %(game)s: the rounds do not replay: %(why)s")
            % {"game": game.number, "why": error_text(exc, gettext)}
        ) from None


def _results(standings: Standings, tables: dict[int, int]) -> list[ResultLine]:
    players = Player.objects.in_bulk([r.player_id for r in standings.rows])
    return [
        ResultLine(
            name=r.name,
            total=r.total,
            table=tables.get(r.player_id),
            licence=players[r.player_id].licence,
        )
        for r in standings.rows
    ]


def sigles_bytes(*, event: Event, game: Game | None = None, key: str = "table") -> bytes:
    """The results of a game (or of the whole event) as SIGLES reads them: by table as Eliot's
    exporter writes them (the tables of ``eliot_players``), or by licence number."""
    standings = standings_game(game=game) if game is not None else standings_event(event=event)
    tables = {p.pk: table for p, table in eliot_players(event)}
    return sigles_lines(_results(standings, tables), key=key)
