"""Disciplinary warnings (docs/rules.md, case 21): an arbiter warns a player for a round, for
what the player did, not for what the slip says ("motif disciplinaire", the Québec federation's
abridged rules). Each counts with the slips' warnings: beyond the game's free warnings each
costs the event's warning penalty, in the round it was given. It outlives the round's rulings
(a slip ruled again keeps it) and can be withdrawn, with a reason.

Locking: the game's row is locked (``select_for_update``) for the whole service, so two
arbiters warning the same player at once are counted one after the other: the second derives
the penalties with the first's warning in them (tests/arbiter/test_discipline_on_postgres.py).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from arbiter.services.common import Actor, round_require
from arbiter.services.rulings import rulings_derive
from tournament.errors import ApplicationError
from tournament.models import Discipline, Game, Player, Round
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open

# A round a warning may be given in: being played, or ruled (scored, published).
WARNABLE = (*Round.IN_PLAY, Round.Status.PUBLISHED)
RULED = (Round.Status.SCORED, Round.Status.PUBLISHED)


def _game_locked(round: Round) -> Game:
    return Game.objects.select_for_update().select_related("event").get(pk=round.game_id)


@transaction.atomic
def discipline_warn(
    *, round: Round, player: Player, reason: str, actor: Actor, now: datetime | None = None
) -> Discipline:
    """Give ``player`` a disciplinary warning for ``round`` (in play or ruled). When the round
    is ruled, its warnings' penalties and every later round's follow at once; a round in play
    counts it when it is scored."""
    if not reason.strip():
        raise ApplicationError(
            gettext("A disciplinary warning needs its reason."), code="reason_missing"
        )
    game = _game_locked(round)
    event_require_open(game.event)
    round = Round.objects.get(pk=round.pk)
    round_require(round, *WARNABLE, action=gettext_noop("given a disciplinary warning"))
    if player.event_id != game.event_id:
        raise ApplicationError(
            gettext("%(name)s does not play this event.") % {"name": player.name},
            code="not_a_player",
        )
    given = Discipline.objects.create(
        round=round,
        player=player,
        reason=reason.strip(),
        given_by=actor,
        given_at=now or timezone.now(),
    )
    if round.status in RULED:
        rulings_derive(game=game, from_round=round.number)
    audit_record(
        event=game.event,
        game=game,
        round=round,
        action="arbiter.discipline.warned",
        actor=actor,
        data={"player": player.pk, "discipline": given.pk, "reason": given.reason},
    )
    return given


@transaction.atomic
def discipline_withdraw(*, discipline: Discipline, reason: str, actor: Actor) -> Round:
    """Withdraw a disciplinary warning (given by mistake), saying why; the penalties follow."""
    if not reason.strip():
        raise ApplicationError(
            gettext("Withdrawing a disciplinary warning needs its reason."),
            code="reason_missing",
        )
    game = _game_locked(discipline.round)
    event_require_open(game.event)
    given = Discipline.objects.select_related("round").get(pk=discipline.pk)
    round = given.round
    data = {"player": given.player_id, "given": given.reason, "reason": reason.strip()}
    given.delete()
    if round.status in RULED:
        rulings_derive(game=game, from_round=round.number)
    audit_record(
        event=game.event,
        game=game,
        round=round,
        action="arbiter.discipline.withdrawn",
        actor=actor,
        data=data,
    )
    return round
