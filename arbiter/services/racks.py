"""The rack of each round: drawn at random (seeded by the game), taken from a pre-drawn game,
or typed in from a physical bag (a rack breaking the minimum is recorded and refused)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from arbiter.reasons import error_text
from arbiter.services.common import (
    Actor,
    game_finish,
)
from arbiter.state import engine_game, lexicon_require_ready
from engine.errors import EngineError, RackError, RackRejected
from engine.game import DuplicateGame
from engine.replay import draw_planned
from engine.tiles import TileSet
from tournament.errors import ApplicationError
from tournament.models import Game, Round
from tournament.selectors import round_in_play
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open


def _check_can_draw(game: Game) -> None:
    event_require_open(game.event)
    if game.event.remote:
        raise ApplicationError(
            gettext(
                "%(room)s plays on another installation: its rounds come in with its results file."
            )
            % {"room": game.event.name},
            code="remote_room",
        )
    lexicon_require_ready(game.lexicon)
    if game.status == Game.Status.FINISHED:
        raise ApplicationError(
            gettext("Game %(number)s is over: %(finished)s.")
            % {"number": game.number, "finished": game.end_reason or gettext("finished")},
            code="game_over",
        )
    current = round_in_play(game_id=game.pk)
    if current is not None:
        raise ApplicationError(
            gettext(
                "Round %(number)s is %(status)s: publish or annul it before drawing the next rack."
            )
            % {"number": current.number, "status": current.status},
            code="round_in_play",
        )


def _round_create(
    game: Game,
    *,
    number: int,
    rack: str,
    leftover: str,
    rejected: list[str],
    actor: Actor,
    how: str,
) -> Round:
    round = Round.objects.create(
        game=game,
        number=number,
        rack=rack,
        leftover=leftover,
        rejected=rejected,
        status=Round.Status.DRAWN,
    )
    game.pending_rejected = []
    if game.status == Game.Status.SETUP:
        game.status = Game.Status.RUNNING
    game.save(update_fields=["pending_rejected", "status"])
    audit_record(
        event=game.event,
        game=game,
        round=round,
        action="arbiter.round.drawn",
        actor=actor,
        data={
            "number": number,
            "rack": rack,
            "leftover": leftover,
            "rejected": rejected,
            "how": how,
        },
    )
    return round


@transaction.atomic
def round_draw(*, game: Game, actor: Actor) -> Round | None:
    """Draw the next rack at random (seeded by the game) or take it from the pre-drawn game.
    None when the game is over (no rack can meet the minimum, or the bag is empty)."""
    game = Game.objects.select_for_update().select_related("event").get(pk=game.pk)
    if game.source == Game.Source.MANUAL:
        raise ApplicationError(
            gettext("Game %(number)s's racks are typed in from the bag: enter the rack instead.")
            % {"number": game.number},
            code="racks_typed",
        )
    _check_can_draw(game)
    state = engine_game(game)
    number = state.round_number
    if game.source == Game.Source.PREDRAWN:
        return _predrawn_round(game, state, number, actor)
    reason = state.exhausted()
    if reason is not None:
        game_finish(game, reason, actor)
        return None
    redraw = game.rounds.filter(number=number, status=Round.Status.ANNULLED).count()
    drawn = state.draw(redraw=redraw)
    if drawn is None:
        game_finish(game, state.end_reason, actor)
        return None
    return _round_create(
        game,
        number=number,
        rack=drawn.rack,
        leftover=drawn.leftover,
        rejected=list(drawn.rejected),
        actor=actor,
        how="random",
    )


def _offer_rejected(state: DuplicateGame, racks: list[str]) -> None:
    """Replay the racks already refused this round: their tiles went back to the bag."""
    for rack in racks:
        with contextlib.suppress(RackRejected):
            state.offer_rack(rack)


def _predrawn_round(game: Game, state: DuplicateGame, number: int, actor: Actor) -> Round | None:
    document = game.predrawn or {}
    rounds = document.get("rounds", [])
    if number > len(rounds) and document.get("multiplex") and not document.get("end"):
        raise ApplicationError(
            gettext(
                "Game %(game)d is a multiplex game: round %(round)d's rack has not come from "
                "the host yet. Draw it as soon as it comes."
            )
            % {"game": game.number, "round": number},
            code="multiplex_rack_awaited",
        )
    if number > len(rounds):
        game_finish(
            game,
            str(document.get("end") or gettext("the pre-drawn game has no more rounds")),
            actor,
        )
        return None
    planned = rounds[number - 1]
    try:
        rack = draw_planned(
            state,
            rack=planned["rack"],
            leftover=planned.get("leftover", ""),
            rejected=planned.get("rejected", []),
        )
    except (EngineError, KeyError) as exc:
        raise ApplicationError(
            gettext("Round %(number)s of the pre-drawn game cannot be drawn here: %(exc)s")
            % {"number": number, "exc": exc},
            code="predrawn_round_unplayable",
        ) from None
    return _round_create(
        game,
        number=number,
        rack=rack,
        leftover=state.leftover,
        rejected=list(planned.get("rejected", [])),
        actor=actor,
        how="predrawn",
    )


@dataclass(frozen=True)
class RackEntry:
    round: Round | None
    refused: str  # why the typed rack was refused ("" when accepted)


def round_rack_enter(*, game: Game, rack: str, actor: Actor) -> Round:
    """A rack drawn from a physical bag and typed in. A rack that breaks the minimum is
    recorded as rejected (its tiles and the leftover go back to the bag) and refused with the
    reason; the next rack typed is then seven fresh tiles."""
    entry = _rack_enter(game=game, rack=rack, actor=actor)
    if entry.round is None:
        raise ApplicationError(entry.refused, code="rack_refused")
    return entry.round


@transaction.atomic
def _rack_enter(*, game: Game, rack: str, actor: Actor) -> RackEntry:
    game = Game.objects.select_for_update().select_related("event").get(pk=game.pk)
    _check_can_draw(game)
    if game.source != Game.Source.MANUAL:
        raise ApplicationError(
            gettext("Game %(number)s draws its racks itself (%(source)s).")
            % {"number": game.number, "source": game.get_source_display().lower()},
            code="game_draws_itself",
        )
    state = engine_game(game)
    reason = state.exhausted()
    if reason is not None:
        game_finish(game, reason, actor)
        said = gettext("Game %(number)s is over: %(reason)s.")
        return RackEntry(None, said % {"number": game.number, "reason": reason})
    _offer_rejected(state, game.pending_rejected)
    try:
        accepted = state.offer_rack(rack)
    except RackRejected as exc:
        typed = TileSet.load(game.tile_set).parse_rack(rack)
        game.pending_rejected = [*game.pending_rejected, typed]
        game.save(update_fields=["pending_rejected"])
        audit_record(
            event=game.event,
            game=game,
            action="arbiter.rack.rejected",
            actor=actor,
            data={"rack": typed, "reason": str(exc)},
        )
        return RackEntry(
            None,
            gettext("%(why)s. Put the whole rack back in the bag and draw seven tiles again.")
            % {"why": error_text(exc, gettext)},
        )
    except (RackError, EngineError) as exc:
        raise ApplicationError(
            gettext("Rack '%(rack)s' cannot be entered: %(exc)s")
            % {"rack": rack, "exc": error_text(exc, gettext)},
            code="bad_rack",
        ) from None
    return RackEntry(
        _round_create(
            game,
            number=state.round_number,
            rack=accepted,
            leftover=state.leftover,
            rejected=list(game.pending_rejected),
            actor=actor,
            how="typed",
        ),
        "",
    )
