"""A game as other tools read it (reads): Eliot's save game, the top sequence as GCG, the
results for SIGLES (docs/interchange.md). The formats are written by ``engine.eliot``,
``engine.gcg`` and ``tournament.sigles``; here the stored game becomes their values.

Eliot's file is an arbitration game: every player of the event (by table; a player without a
table gets the next number after the highest), and per published round the rack, each
player's move, warning, reference penalty and solo, the top put on the board. A slip's move is
the placement its ruling credited (re-read by the round's judge, so a blank re-marked or a
reference corrected by the 2016 rule is written as it stands on the board); a slip that earned
nothing is written as Eliot's ``invalid``, as typed; no slip, ``none``. Words are Eliot's: the
tiles already on the board in upper case (Eliot refuses a file otherwise). A round in play
ends the file as an open turn, a finished game with its leftover.

Totals: Eliot counts each valid move's score (it scores the move again), the solos, the
penalties, and 5 points for each warning beyond the third (its settings' defaults,
``arbitration.warnings-limit`` and ``penalty-value``, which no file holds). Where this event's
policy charges more for a warning, the difference is written as a penalty in that round; what
Eliot cannot count (an average given for a second zero, points a director set that are not
the move's score, a warning charged less than Eliot charges it) is said per player and round,
in the file (XML comments) and on the downloads page (``eliot_export``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext, ngettext

from arbiter.reasons import error_text
from arbiter.rules import PLACED_CODES, RoundJudge
from arbiter.selectors.standings import Standings, standings_event, standings_game
from arbiter.services.rulings import judge_for, slip_of
from arbiter.state import lexicon_title, round_record
from engine.board import Layout
from engine.eliot.model import (
    ELIOT_PENALTY_VALUE,
    ELIOT_WARNINGS_LIMIT,
    Dictionary,
    EliotEvent,
    EliotGame,
    EliotMove,
    EliotPlayer,
    EliotTurn,
    Rack,
    variants_of,
)
from engine.eliot.writer import eliot_word, eliot_write
from engine.errors import EngineError
from engine.formula import Formula, FormulaError
from engine.gcg import gcg_write
from engine.record import placements
from engine.tiles import TileSet, rack_notation
from engine.validate import move_from_tiles
from tournament.errors import ApplicationError
from tournament.models import Event, Game, Player, Round, Ruling
from tournament.models.choices import Rulebook
from tournament.selectors import round_in_play
from tournament.sigles import ResultLine, sigles_lines
from tournament.vocabulary import ruling_total


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


@dataclass(frozen=True)
class EliotGap:
    """A player whose total Eliot cannot count as this game does: the total here, Eliot's,
    and per round why (in the language of the request or of ``eliot_export``'s caller)."""

    name: str
    table: int
    here: int
    eliot: int
    rounds: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class EliotExport:
    game: EliotGame
    gaps: tuple[EliotGap, ...]
    # (name, table, round, how many): warnings Eliot's file cannot hold as warnings (a second
    # in one round: a disciplinary one beside the slip's, rules.md case 21)
    unheld: tuple[tuple[str, int, int, int], ...] = ()
    rulebook: str = ""  # the event's (``Event.rulebook``), named in the file's comments


def _why(ruling: Ruling, here: int, eliot: int) -> str:
    if ruling.averaged:
        return gettext(
            "a second zero given the round's average, %(points)d points: Eliot's file has no "
            "place for it (Eliot counts %(eliot)d)"
        ) % {"points": ruling.points, "eliot": eliot}
    return gettext(
        "%(here)d here, %(eliot)d in Eliot (points set by the director that are not the "
        "move's score, or a warning this event charges less than Eliot's %(value)d points "
        "beyond the third)"
    ) % {"here": here, "eliot": eliot, "value": ELIOT_PENALTY_VALUE}


@dataclass(frozen=True)
class _Counted:
    """One ruling as Eliot's file holds it: the warning's penalty Eliot charges by itself, the
    penalty written (the reference penalty and what this event charges more for a warning),
    and the ruling's total here and in Eliot."""

    charged: int
    penalty: int
    here: int
    eliot: int


def _counted(ruling: Ruling, warnings_before: int) -> _Counted:
    """``ruling`` as Eliot counts it, the player having had ``warnings_before`` warnings in the
    game before it. Eliot scores a valid move itself (the placement's score, ``move_score``),
    adds solos and penalties, and charges each warning beyond the third."""
    charged = 0
    if _warned(ruling) and warnings_before + 1 > ELIOT_WARNINGS_LIMIT:
        charged = ELIOT_PENALTY_VALUE
    extra = max(0, ruling.warning_penalty - charged)
    placed = ruling.code in PLACED_CODES and ruling.submission_id is not None
    move = (ruling.move_score or 0) if placed else 0
    here = ruling_total(
        points=ruling.points,
        solo=ruling.solo,
        penalty=ruling.penalty,
        warning_penalty=ruling.warning_penalty,
    )
    eliot = move + ruling.solo - ruling.penalty - extra - charged
    return _Counted(charged, ruling.penalty + extra, here, eliot)


def _warned(ruling: Ruling) -> bool:
    """Whether Eliot's file gives the player a ``Warning`` in the round: one at most (Eliot's
    arbitration holds one warning a player and a round), for the slip's warning or a
    disciplinary one (rules.md case 21). Further warnings of the round cost what they cost as a
    ``Penalty`` (``_counted``), and the file's comments say so (``eliot_notes``)."""
    return ruling.warning or ruling.discipline_warnings > 0


def _unheld(ruling: Ruling) -> int:
    """The round's warnings Eliot's file cannot hold as a ``Warning`` (beyond the one)."""
    return int(ruling.warning) + ruling.discipline_warnings - int(_warned(ruling))


@dataclass(frozen=True)
class _Sources:
    players: list[tuple[Player, int]]
    rounds: list[Round]
    rulings: dict[int, dict[int, Ruling]]


def _sources(game: Game) -> _Sources:
    rounds = list(game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))
    rulings: dict[int, dict[int, Ruling]] = defaultdict(dict)
    for ruling in Ruling.objects.filter(round__in=rounds).select_related("submission"):
        rulings[ruling.round_id][ruling.player_id] = ruling
    return _Sources(eliot_players(game.event), rounds, rulings)


def _gaps(sources: _Sources) -> tuple[EliotGap, ...]:
    gaps = []
    for player, table in sources.players:
        warned = 0
        here = eliot = 0
        why: list[tuple[int, str]] = []
        for r in sources.rounds:
            mine = sources.rulings[r.pk].get(player.pk)
            if mine is None:
                continue
            counted = _counted(mine, warned)
            warned += int(_warned(mine))
            here += counted.here
            eliot += counted.eliot
            if counted.here != counted.eliot:
                why.append((r.number, _why(mine, counted.here, counted.eliot)))
        if why:
            gaps.append(EliotGap(player.name, table, here, eliot, tuple(why)))
    return tuple(gaps)


def eliot_gaps(game: Game) -> tuple[EliotGap, ...]:
    """The players whose total Eliot cannot count as this game does, and why, round by round
    (from the rulings alone: what the downloads page shows)."""
    return _gaps(_sources(game))


def eliot_export(game: Game) -> EliotExport:
    """The game as an Eliot arbitration game, and the players whose total Eliot cannot count
    as this game does (``EliotGap``: said in the file and on the page)."""
    tiles = TileSet.load(game.tile_set)
    sources = _sources(game)
    players, rounds, rulings = sources.players, sources.rounds, sources.rulings
    try:
        placed = placements([round_record(r) for r in rounds], Layout.load(game.board_layout))
    except EngineError as exc:
        raise ApplicationError(
            gettext("Game %(game)s: the rounds do not replay: %(why)s")
            % {"game": game.number, "why": error_text(exc, gettext)},
            code="rounds_do_not_replay",
        ) from None
    turns = []
    kept: str | None = None
    warned = [0] * len(players)  # warnings so far, as Eliot counts them
    for r, placement in zip(rounds, placed, strict=True):
        moves: list[EliotMove] = []
        events: list[EliotEvent] = []
        judge = None
        for i, (player, _) in enumerate(players):
            mine = rulings[r.pk].get(player.pk)
            if mine is not None and mine.code in PLACED_CODES and judge is None:
                judge = judge_for(r)
            moves.append(_eliot_move(judge, mine))
            if mine is None:
                continue
            counted = _counted(mine, warned[i])
            if _warned(mine):
                events.append(EliotEvent("Warning", i))
                warned[i] += 1
            if counted.penalty:
                events.append(EliotEvent("Penalty", i, -counted.penalty))
            if mine.solo:
                events.append(EliotEvent("Solo", i, mine.solo))
        top_word = "".join(
            ch.upper() if dot == "." else ch
            for ch, dot in zip(r.played_word, placement.dotted, strict=True)
        )
        top = EliotMove.valid(top_word, r.played_ref, r.played_score or 0)
        turns.append(
            EliotTurn(
                rack=_rack(r, kept),
                moves=tuple(moves),
                events=tuple(events),
                top=top,
                masters=(top,),
                kept=kept,
                rejected=tuple(rack for rack in r.rejected if rack != "-"),
            )
        )
        kept = placement.leave
    current = round_in_play(game_id=game.pk) if game.status != Game.Status.FINISHED else None
    if current is not None:
        turns.append(
            EliotTurn(
                rack=_rack(current, kept),
                moves=tuple(EliotMove.none() for _ in players),
                kept=kept,
                rejected=tuple(rack for rack in current.rejected if rack != "-"),
            )
        )
    elif game.status == Game.Status.FINISHED and turns:
        turns.append(EliotTurn(rack=None, moves=(), kept=kept))
    written = EliotGame(
        # No WordNb: Eliot checks it against the dictionary it loaded, and one list has
        # several builds (ENABLE: 168,548 words of 2-15 letters, 172,820 in all).
        dictionary=Dictionary(
            # the list's own name (an upload's as it was given, never upload:<id>)
            name=lexicon_title(game.lexicon),
            type="dawg",
            letters=" ".join([*tiles.letters, "?"]),
        ),
        mode="arbitration",
        players=tuple(EliotPlayer(p.name, table) for p, table in players),
        turns=tuple(turns),
        variants=_variants(game),
    )
    return EliotExport(
        written, _gaps(sources), _unheld_warnings(sources), rulebook=game.event.rulebook
    )


def _variants(game: Game) -> tuple[str, ...]:
    """Eliot's variants for the game's formula; 7 et 8 and 7-8-9, which Eliot does not play,
    have no Eliot file."""
    try:
        return variants_of(Formula.parse(game.formula).play)  # mort subite: plain duplicate
    except FormulaError:
        raise ApplicationError(
            gettext("Game %(game)s is played in %(formula)s, which Eliot does not play.")
            % {"game": game.number, "formula": game.formula_shown},
            code="formula_not_in_eliot",
        ) from None


def _unheld_warnings(sources: _Sources) -> tuple[tuple[str, int, int, int], ...]:
    found = []
    for player, table in sources.players:
        for r in sources.rounds:
            mine = sources.rulings[r.pk].get(player.pk)
            if mine is not None and _unheld(mine):
                found.append((player.name, table, r.number, _unheld(mine)))
    return tuple(found)


def eliot_game_of(game: Game) -> EliotGame:
    """The game as an Eliot arbitration game."""
    return eliot_export(game).game


def _rack(round: Round, kept: str | None) -> Rack:
    """The round's rack as Eliot writes it; ``-`` when the leftover of the round before was put
    back (a rack refused) and the rack drawn afresh; the leftover alone when nothing was drawn
    (the bag empty: Eliot then writes no rack)."""
    notation = rack_notation(round.rack, round.leftover)
    leftover, _, drawn = notation.partition("+")
    reset = bool(kept) and not round.leftover
    if round.leftover and not drawn:
        return Rack(kept=round.leftover, drawn="")
    if not drawn:
        return Rack(kept="", drawn=leftover, reset=reset)
    return Rack(kept=leftover, drawn=drawn, reset=reset)


def _eliot_move(judge: RoundJudge | None, ruling: Ruling | None) -> EliotMove:
    """A player's ``PlayerMove``: the placement the ruling credited, as Eliot writes it; the
    slip as typed when it earned nothing; ``none`` without a slip."""
    if ruling is None or ruling.submission is None:
        return EliotMove.none()
    slip = ruling.submission
    if ruling.code in PLACED_CODES and judge is not None:
        ruled = judge.rule(slip_of(slip))
        if ruled.code in PLACED_CODES and ruled.placed:
            placed = move_from_tiles(judge.board, list(ruled.placed))
            return EliotMove.valid(
                eliot_word(judge.board, placed), placed.ref, ruled.move_score or 0
            )
    return EliotMove.invalid(slip.word, slip.ref)


def eliot_notes(export: EliotExport) -> list[str]:
    """What the file cannot hold, one sentence per player, for its XML comments; first, the
    rulebook the game was ruled by (docs/rules.md)."""
    notes = [
        gettext("Ruled by: %(rulebook)s (%(code)s).")
        % {"rulebook": Rulebook(export.rulebook).label, "code": export.rulebook},
        gettext(
            "Eliot counts warnings from its own settings; this file assumes its defaults, "
            "%(free)d warnings free and %(value)d points for each one beyond."
        )
        % {"free": ELIOT_WARNINGS_LIMIT, "value": ELIOT_PENALTY_VALUE},
    ]
    for name, table, number, count in export.unheld:
        notes.append(
            ngettext(
                "%(name)s (table %(table)d): round %(round)d, %(count)d more warning than "
                "Eliot's file holds in a round (a disciplinary warning beside the slip's, "
                "rules.md case 21): not written as a warning; what it costs is written as a "
                "penalty.",
                "%(name)s (table %(table)d): round %(round)d, %(count)d more warnings than "
                "Eliot's file holds in a round (disciplinary warnings beside the slip's, "
                "rules.md case 21): not written as warnings; what they cost is written as a "
                "penalty.",
                count,
            )
            % {"name": name, "table": table, "round": number, "count": count}
        )
    for gap in export.gaps:
        notes.append(
            gettext("%(name)s (table %(table)d): %(here)d here, %(eliot)d in Eliot: %(why)s.")
            % {
                "name": gap.name,
                "table": gap.table,
                "here": gap.here,
                "eliot": gap.eliot,
                "why": "; ".join(
                    gettext("round %(round)d, %(why)s") % {"round": n, "why": why}
                    for n, why in gap.rounds
                )
                or gettext("the totals differ"),
            }
        )
    return notes


def eliot_bytes(game: Game) -> bytes:
    """The game's Eliot save file, its statistics as Eliot counts them; what it cannot hold
    said in XML comments, in the event's language."""
    event = game.event
    with translation.override(event.language):
        export = eliot_export(game)
        notes = eliot_notes(export)
        comment = gettext("%(event)s, game %(number)s") % {
            "event": event.name,
            "number": game.number,
        }
    return eliot_write(export.game, comment=comment, notes=notes)


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
        # The formula (FISF 2023 3.8; docs/formulas.md) where GCG has a line for free text
        description = (
            gettext("Duplicate, formula: %(formula)s") % {"formula": game.formula_shown}
            if game.formula_shown
            else ""
        )
    try:
        return gcg_write(
            [round_record(r) for r in rounds],
            layout=Layout.load(game.board_layout),
            tiles=game.tile_set,
            title=title,
            lexicon=lexicon_title(game.lexicon),
            notes=notes,
            description=description,
        )
    except EngineError as exc:
        raise ApplicationError(
            gettext("Game %(game)s: the rounds do not replay: %(why)s")
            % {"game": game.number, "why": error_text(exc, gettext)},
            code="rounds_do_not_replay",
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


def sigles_bytes(
    *, event: Event, game: Game | None = None, key: str = "table", empty: bool = True
) -> bytes:
    """The results of a game (or of the whole event) as SIGLES reads them: by table as Eliot's
    exporter writes them (the tables of ``eliot_players``; ``empty``: a line for each table
    nobody sits at, as the script writes by default), or by licence number."""
    standings = standings_game(game=game) if game is not None else standings_event(event=event)
    tables = {p.pk: table for p, table in eliot_players(event)}
    return sigles_lines(_results(standings, tables), key=key, empty=empty)
