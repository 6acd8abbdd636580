"""The clock: open (deadline = now + the event's round time), extend, pause, resume, close early,
and the close itself at the deadline plus grace.

The deadline in the database is the truth. A countdown task is due at each deadline (the fast
path); ``rounds_sweep``, run by beat every few seconds, closes and scores whatever is overdue,
so a lost task or a killed worker loses nothing. ``round_close`` claims the round with a
conditional UPDATE: when nothing is updated another process got there first.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from arbiter.services.common import (
    Actor,
    on_commit,
    round_audit,
    round_locked,
    round_require,
)
from arbiter.services.publishing import rounds_publish_due
from arbiter.services.scoring import round_score, round_tops_compute
from arbiter.state import lexicon_require_ready
from tournament.errors import ApplicationError
from tournament.models import Round
from tournament.selectors import unique_or_none


def _schedule_close(round: Round) -> None:
    """The fast path: a task due when the round should close. The periodic sweep is the truth."""
    from arbiter import tasks

    assert round.deadline is not None
    due = round.deadline + timedelta(seconds=round.game.event.grace_seconds)
    round_id = round.pk
    on_commit(lambda: tasks.round_close.apply_async((round_id,), eta=due))


@transaction.atomic
def round_open(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:
    """Start the clock: deadline = now + the event's round time. The tops are computed in the
    background meanwhile, and a task is due at the deadline (plus grace) to close the round."""
    from arbiter import tasks

    now = now or timezone.now()
    round = round_locked(round)
    round_require(round, Round.Status.DRAWN, action=gettext_noop("opened"))
    lexicon_require_ready(round.game.lexicon)
    event = round.game.event
    round.status = Round.Status.OPEN
    round.opened_at = now
    round.deadline = now + timedelta(seconds=event.round_seconds)
    round.save(update_fields=["status", "opened_at", "deadline"])
    round_audit(round, "opened", actor, deadline=round.deadline.isoformat())
    round_id = round.pk
    on_commit(lambda: tasks.round_tops_compute.delay(round_id))
    _schedule_close(round)
    return round


@transaction.atomic
def round_extend(*, round: Round, seconds: int, actor: Actor) -> Round:
    if seconds <= 0:
        raise ApplicationError(
            gettext("An extension is a positive number of seconds."), code="bad_extension"
        )
    round = round_locked(round)
    round_require(round, Round.Status.OPEN, action=gettext_noop("extended"))
    assert round.deadline is not None
    if round.paused_remaining is not None:
        round.paused_remaining += timedelta(seconds=seconds)
    round.deadline += timedelta(seconds=seconds)
    round.save(update_fields=["deadline", "paused_remaining"])
    round_audit(round, "extended", actor, seconds=seconds, deadline=round.deadline.isoformat())
    if round.paused_remaining is None:
        _schedule_close(round)
    return round


@transaction.atomic
def round_pause(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:
    now = now or timezone.now()
    round = round_locked(round)
    round_require(round, Round.Status.OPEN, action=gettext_noop("paused"))
    if round.paused_remaining is not None:
        raise ApplicationError(
            gettext("Round %(number)s is already paused.") % {"number": round.number},
            code="round_paused",
        )
    assert round.deadline is not None
    if round.deadline <= now:
        raise ApplicationError(
            gettext("Round %(number)s's deadline has passed: it can no longer be paused.")
            % {"number": round.number},
            code="deadline_passed",
        )
    round.paused_remaining = round.deadline - now
    round.save(update_fields=["paused_remaining"])
    round_audit(round, "paused", actor, remaining_seconds=round.paused_remaining.total_seconds())
    return round


@transaction.atomic
def round_resume(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:
    now = now or timezone.now()
    round = round_locked(round)
    round_require(round, Round.Status.OPEN, action=gettext_noop("resumed"))
    if round.paused_remaining is None:
        raise ApplicationError(
            gettext("Round %(number)s is not paused.") % {"number": round.number},
            code="round_not_paused",
        )
    round.deadline = now + round.paused_remaining
    round.paused_remaining = None
    round.save(update_fields=["deadline", "paused_remaining"])
    round_audit(round, "resumed", actor, deadline=round.deadline.isoformat())
    _schedule_close(round)
    return round


@transaction.atomic
def round_close_early(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:
    """Stop the clock now; slips already on their way (within the grace) still count."""
    now = now or timezone.now()
    round = round_locked(round)
    round_require(round, Round.Status.OPEN, action=gettext_noop("closed early"))
    round.deadline = now
    round.paused_remaining = None
    round.save(update_fields=["deadline", "paused_remaining"])
    round_audit(round, "closed_early", actor, deadline=now.isoformat())
    _schedule_close(round)
    return round


def round_close(*, round_id: int, now: datetime | None = None) -> bool:
    """Close the round if its deadline plus grace has passed (and it is not paused). Claimed by
    a conditional UPDATE: False when it was not due, or another process closed it first."""
    from arbiter import tasks

    now = now or timezone.now()
    round = unique_or_none(Round.objects.select_related("game__event").filter(pk=round_id))
    if round is None:
        return False
    grace = timedelta(seconds=round.game.event.grace_seconds)
    with transaction.atomic():
        claimed = Round.objects.filter(
            pk=round_id,
            status=Round.Status.OPEN,
            paused_remaining__isnull=True,
            deadline__lte=now - grace,
        ).update(status=Round.Status.CLOSED, closed_at=now)
        if not claimed:
            return False
        round_audit(round, "closed", None, at=now.isoformat())
        on_commit(lambda: tasks.round_score.delay(round_id))
    return True


def rounds_close_overdue(*, now: datetime | None = None) -> dict[str, int]:
    """Close every round past its deadline and grace, and score every closed one: the part of
    the sweep a round cannot wait for, which every worker runs on its own timer (config.celery's
    ``RoundsWatch``), beat or no beat. Idempotent (conditional UPDATEs): many may run it."""
    now = now or timezone.now()
    closed = sum(
        round_close(round_id=pk, now=now)
        for pk in Round.objects.filter(
            status=Round.Status.OPEN, paused_remaining__isnull=True, deadline__lte=now
        ).values_list("pk", flat=True)
    )
    scored = sum(
        round_score(round_id=pk, now=now) is not None
        for pk in Round.objects.filter(status=Round.Status.CLOSED).values_list("pk", flat=True)
    )
    return {"closed": closed, "scored": scored}


def rounds_overdue(
    *, now: datetime | None = None, tolerance: float = 0
) -> list[tuple[Round, float]]:
    """The rounds still open ``tolerance`` seconds past their deadline and grace (none paused),
    each with how many seconds past: what /healthz names."""
    now = now or timezone.now()
    open_rounds = Round.objects.select_related("game__event").filter(
        status=Round.Status.OPEN,
        paused_remaining__isnull=True,
        deadline__lte=now - timedelta(seconds=tolerance),
    )
    late = []
    for round in open_rounds.order_by("deadline"):
        assert round.deadline is not None
        past = (now - round.deadline).total_seconds() - round.game.event.grace_seconds
        if past > tolerance:
            late.append((round, past))
    return late


def rounds_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The periodic safety net (the deadline in the database is the truth): close every
    overdue round, score every closed one, compute missing tops, publish the rounds due to
    publish by themselves. Returns what it did."""
    now = now or timezone.now()
    done = rounds_close_overdue(now=now)
    tops = sum(
        round_tops_compute(round_id=pk, now=now)
        for pk in Round.objects.filter(
            Q(status=Round.Status.OPEN), tops_ready_at__isnull=True
        ).values_list("pk", flat=True)
    )
    published = rounds_publish_due(now=now)
    return done | {"tops": tops, "published": published}
