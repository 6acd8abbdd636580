"""What the round lifecycle's services share: the actor, locking a round, checking its status,
auditing an action on it, sending tasks after commit, finishing a game."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from arbiter.reasons import end_text
from tournament.errors import ApplicationError
from tournament.models import Game, Round
from tournament.services.audit import audit_record

logger = logging.getLogger(__name__)

Actor = User | None


def on_commit(fn: Callable[[], Any]) -> None:
    """Run ``fn`` (it sends a task) once the transaction commits. A task that cannot be sent
    (the broker is down) is logged, and never turns the action already committed into an
    error: the rounds sweep does the work once the broker is back (the deadline in the database
    is the truth)."""

    def send() -> None:
        try:
            fn()
        except Exception:
            logger.exception("A task could not be sent after commit; the rounds sweep will do it.")

    transaction.on_commit(send)


def round_locked(round: Round) -> Round:
    return Round.objects.select_for_update().select_related("game__event").get(pk=round.pk)


def round_require(round: Round, *statuses: str, action: str) -> None:
    if round.status not in statuses:

        def said(status: str) -> str:
            return str(Round.Status(status).label).lower()

        allowed = gettext(" or ").join(said(status) for status in statuses)
        raise ApplicationError(
            gettext(
                "Round %(number)s is %(status)s: only a round that is %(allowed)s "
                "can be %(action)s."
            )
            % {
                "number": round.number,
                "status": said(round.status),
                "allowed": allowed,
                "action": gettext(action),
            },
            code="round_wrong_status",
            data={"status": round.status, "allowed": list(statuses)},
        )


def round_audit(round: Round, action: str, actor: Actor, **data: Any) -> None:
    audit_record(
        event=round.game.event,
        game=round.game,
        round=round,
        action=f"arbiter.round.{action}",
        actor=actor,
        data=data,
    )


def game_finish(game: Game, reason: str, actor: Actor) -> None:
    """Finish the game; its reason is kept in the event's language (the audit keeps the
    engine's words)."""
    game.status = Game.Status.FINISHED
    with translation.override(game.event.language):
        game.end_reason = end_text(reason, gettext)
    game.save(update_fields=["status", "end_reason"])
    audit_record(
        event=game.event,
        game=game,
        action="arbiter.game.finished",
        actor=actor,
        data={"reason": reason},
    )
