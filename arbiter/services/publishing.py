"""Publishing a round (its top placed on everyone's board; the game may end there) and the
director's choice of the move to play."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from arbiter.services.common import (
    Actor,
    game_finish,
    round_locked,
    round_require,
)
from arbiter.state import board_of, engine_game, formula_of, lexicon_for
from engine.errors import EngineError
from engine.move import Move
from engine.tiles import TileSet
from engine.validate import validate
from tournament.errors import ApplicationError
from tournament.models import Game, Round
from tournament.services.audit import audit_record

log = logging.getLogger(__name__)


@transaction.atomic
def round_publish(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:
    """Place the chosen top on everyone's board; the next rack may then be drawn."""
    now = now or timezone.now()
    round = round_locked(round)
    round_require(round, Round.Status.SCORED, action=gettext_noop("published"))
    game = Game.objects.select_for_update().select_related("event").get(pk=round.game_id)
    _multiplex_top_require(game, round)
    board = board_of(game)
    if round.played_word:
        move = Move.from_ref(round.played_ref, round.played_word)
        verdict = validate(
            board,
            move,
            rack=round.rack,
            lexicon=lexicon_for(game.lexicon),
            tiles=TileSet.load(game.tile_set),
            formula=formula_of(game),
        )
        if not verdict.valid:
            raise ApplicationError(
                gettext("The top to play, %(move)s, is not valid: %(message)s.")
                % {"move": move, "message": verdict.problems[0].message},
                code="top_not_valid",
            )
        board.play(move)
        if formula_of(game).joker:  # the joker replaced by its letter: the engine's board
            published = game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number")
            board = engine_game(game, [*published, round]).board
        game.board = board.to_lines()
        game.save(update_fields=["board"])
    round.status = Round.Status.PUBLISHED
    round.published_at = now
    round.save(update_fields=["status", "published_at"])
    audit_record(
        event=game.event,
        game=game,
        round=round,
        action="arbiter.round.published",
        actor=actor,
        data={"ref": round.played_ref, "word": round.played_word, "score": round.played_score},
    )
    if not round.played_word:
        game_finish(game, f"no move is possible with the rack {round.rack}", actor)
    elif round.number >= _planned(game):  # a pre-drawn game plays its rounds, all of them
        reason = engine_game(game).exhausted()
        if reason is not None:
            game_finish(game, reason, actor)
    return round


def _multiplex_top_require(game: Game, round: Round) -> None:
    """A multiplex room publishes the host's top: refused until it has come (the room's
    rulings do not wait for it, only the board)."""
    document = game.predrawn or {}
    if not document.get("multiplex"):
        return
    planned = document.get("rounds", [])[round.number - 1 : round.number]
    if not planned or not planned[0].get("word"):
        raise ApplicationError(
            gettext(
                "Round %(round)d is published with the host's top, which has not come yet: "
                "it is published as soon as it comes."
            )
            % {"round": round.number},
            code="multiplex_top_awaited",
        )


def _planned(game: Game) -> int:
    """How many rounds a pre-drawn game plays (its racks are the game: Eliot's may go on where
    no rack can meet the minimum any more); 0 for a game drawn here."""
    if game.source != Game.Source.PREDRAWN:
        return 0
    return len((game.predrawn or {}).get("rounds", []))


@transaction.atomic
def round_top_choose(*, round: Round, ref: str, word: str, actor: Actor) -> Round:
    """The director's choice of the move to play: another of the equal tops, or an override
    with any legal move (said so in the audit log)."""
    round = round_locked(round)
    round_require(
        round, Round.Status.CLOSED, Round.Status.SCORED, action=gettext_noop("given another top")
    )
    game = round.game
    # A game drawn in advance for rooms, or a multiplex room's (the host's top): fixed. A host
    # drawing live for its remote rooms chooses, and they receive its choice.
    drawn_ahead = game.source == Game.Source.PREDRAWN and game.event.rooms.exists()
    multiplex = bool((game.predrawn or {}).get("multiplex"))
    if game.event.host_id is not None or drawn_ahead or multiplex:
        raise ApplicationError(
            gettext(
                "Game %(number)s is played in several rooms (a simultaneous event): its moves "
                "are the pre-drawn game's, the same in every room."
            )
            % {"number": game.number},
            code="simultaneous_moves_fixed",
        )
    try:
        move = Move.from_ref(ref, word)
    except EngineError as exc:
        raise ApplicationError(
            gettext("That move cannot be read: %(exc)s") % {"exc": exc}, code="bad_move"
        ) from None
    verdict = validate(
        board_of(game),
        move,
        rack=round.rack,
        lexicon=lexicon_for(game.lexicon),
        tiles=TileSet.load(game.tile_set),
    )
    if not verdict.valid:
        raise ApplicationError(
            gettext("%(move)s cannot be played: %(problems)s.")
            % {"move": move, "problems": "; ".join(p.message for p in verdict.problems)},
            code="move_not_playable",
        )
    top_score = round.tops[0]["score"] if round.tops else verdict.score
    round.played_ref, round.played_word, round.played_score = move.ref, move.word, verdict.score
    round.played_by = Round.PlayedBy.DIRECTOR
    round.save(update_fields=["played_ref", "played_word", "played_score", "played_by"])
    kind = "equal top" if verdict.score == top_score else "override"
    audit_record(
        event=game.event,
        game=game,
        round=round,
        action="arbiter.round.top_chosen",
        actor=actor,
        data={"ref": move.ref, "word": move.word, "score": verdict.score, "kind": kind},
    )
    return round


def rounds_publish_due(*, now: datetime | None = None) -> int:
    """Publish by themselves the scored rounds of events that ask for it (``Event.
    publish_after_seconds``), once that long has passed since the round's last ruling (an
    arbiter typing paper slips keeps it open). Returns how many were published."""
    now = now or timezone.now()
    due = (
        Round.objects.filter(
            status=Round.Status.SCORED, game__event__publish_after_seconds__isnull=False
        )
        .annotate(last=Max("rulings__ruled_at"))
        .select_related("game__event")
    )
    published = 0
    for round in due:
        delay = timedelta(seconds=round.game.event.publish_after_seconds or 0)
        last = max(filter(None, (round.last, round.scored_at)), default=now)
        if last + delay > now:
            continue
        try:
            round_publish(round=round, actor=None, now=now)
        except ApplicationError as exc:  # the director must look: say so, publish the rest
            if exc.code == "multiplex_top_awaited":
                continue  # published by itself once the host's top comes
            log.warning("round %s was not published by itself: %s", round.pk, exc.message)
        else:
            published += 1
    return published
