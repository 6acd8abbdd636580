"""The director's corrections: annul a round still in play, amend a ruling (with a reason)."""

from __future__ import annotations

from django.db import transaction

from arbiter.services.common import (
    Actor,
    round_audit,
    round_locked,
    round_require,
)
from tournament.errors import ApplicationError
from tournament.models import Round, Ruling
from tournament.services.audit import audit_record
from tournament.vocabulary import RulingCode


@transaction.atomic
def round_annul(*, round: Round, reason: str, actor: Actor) -> Round:
    """Annul a round still in play: its rack goes back, its slips and rulings are kept for the
    record but count for nothing, and the round may be drawn again (a new rack)."""
    if not reason.strip():
        raise ApplicationError("Say why the round is annulled.")
    round = round_locked(round)
    round_require(round, *Round.IN_PLAY, action="annulled")
    round.status = Round.Status.ANNULLED
    round.save(update_fields=["status"])
    round_audit(round, "annulled", actor, reason=reason)
    return round


@transaction.atomic
def ruling_amend(
    *,
    ruling: Ruling,
    points: int,
    reason: str,
    actor: Actor,
    code: str | None = None,
    penalty: int | None = None,
) -> Ruling:
    """Change a ruling after scoring (before or after publication); standings follow."""
    if not reason.strip():
        raise ApplicationError("An amended ruling needs its reason.")
    if points < 0 or (penalty is not None and penalty < 0):
        raise ApplicationError("Points and penalties are not negative.")
    if code is not None and code not in set(RulingCode):
        raise ApplicationError(f"Unknown ruling {code!r}.")
    ruling = (
        Ruling.objects.select_for_update().select_related("round__game__event").get(pk=ruling.pk)
    )
    round_require(ruling.round, Round.Status.SCORED, Round.Status.PUBLISHED, action="amended")
    if code is not None and (code == Ruling.Code.MISSING) != (ruling.submission_id is None):
        raise ApplicationError(
            "A player who handed in no slip keeps the ruling 'missing' "
            "(the points can still be changed)."
            if ruling.submission_id is None
            else "A player who handed in a slip cannot be ruled 'missing'."
        )
    before = {"code": ruling.code, "points": ruling.points, "penalty": ruling.penalty}
    ruling.points = points
    ruling.code = code or ruling.code
    if penalty is not None:
        ruling.penalty = penalty
    ruling.amended = True
    ruling.reason = f"{reason.strip()} (amended; was {before['code']}, {before['points']} points)"
    ruling.save(update_fields=["points", "code", "penalty", "amended", "reason"])
    round = ruling.round
    audit_record(
        event=round.game.event,
        game=round.game,
        round=round,
        action="arbiter.ruling.amended",
        actor=actor,
        data={
            "player": ruling.player_id,
            "before": before,
            "after": {"code": ruling.code, "points": points, "penalty": ruling.penalty},
            "reason": reason,
        },
    )
    return ruling
