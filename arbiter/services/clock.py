"""The clock: open (deadline = now + the event's round time, or mort subite's falling times:
``arbiter.state.round_seconds_for``), extend, pause, resume, close early,
and the close itself at the deadline plus grace.

The deadline in the database is the truth. A countdown task is due at each deadline (the fast
path); ``rounds_sweep``, run by beat every few seconds, closes and scores whatever is overdue,
so a lost task or a killed worker loses nothing. ``round_close`` claims the round with a
conditional UPDATE: when nothing is updated another process got there first.
"""

from __future__ import annotations

import functools
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
from arbiter.state import lexicon_require_ready, round_seconds_for
from tournament.errors import ApplicationError
from tournament.models import Round
from tournament.selectors import unique_or_none


def _schedule_close(round: Round) -> None:
    """The fast path: a task due when the round should close. The periodic sweep is the truth."""
    from arbiter import tasks

    due = round.closes_at(grace=round.game.event.grace)
    assert due is not None
    round_id = round.pk
    on_commit(lambda: tasks.round_close.apply_async((round_id,), eta=due))


@transaction.atomic
def round_open(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:
    """Start the clock: deadline = now + the round's time (``round_seconds_for``). The tops
    are computed in the background meanwhile, and a task is due at the deadline (plus grace)
    to close the round."""
    from arbiter import tasks

    now = now or timezone.now()
    round = round_locked(round)
    round_require(round, Round.Status.DRAWN, action=gettext_noop("opened"))
    lexicon_require_ready(round.game.lexicon)
    round.status = Round.Status.OPEN
    round.opened_at = now
    round.deadline = now + timedelta(seconds=round_seconds_for(round.game, round.number))
    round.tops_queued_at = now
    round.save(update_fields=["status", "opened_at", "deadline", "tops_queued_at"])
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


def round_close(*, round_id: int, now: datetime | None = None, score_task: bool = True) -> bool:
    """Close the round if its deadline plus grace has passed (and it is not paused). Claimed by
    a conditional UPDATE: False when it was not due, or another process closed it first. With
    ``score_task`` (the countdown task's close), the scoring is sent as a task; the sweep scores
    what it closed itself and sends none (a task that would find nothing to do)."""
    from arbiter import tasks

    now = now or timezone.now()
    round = unique_or_none(Round.objects.select_related("game__event").filter(pk=round_id))
    if round is None:
        return False
    if not round.is_due_to_close(at=now, grace=round.game.event.grace):
        return False
    with transaction.atomic():
        # The claim: still open, running, with the deadline read above (an extension, a pause
        # or another close since then updates nothing here).
        claimed = Round.objects.filter(
            pk=round_id,
            status=Round.Status.OPEN,
            paused_remaining__isnull=True,
            deadline=round.deadline,
        ).update(status=Round.Status.CLOSED, closed_at=now)
        if not claimed:
            return False
        round_audit(round, "closed", None, at=now.isoformat())
        if score_task:
            on_commit(lambda: tasks.round_score.delay(round_id))
    return True


def rounds_close_overdue(*, now: datetime | None = None) -> dict[str, int]:
    """Close every round past its deadline and grace, and score every closed one: the part of
    the sweep a round cannot wait for, which every worker runs on its own timer (config.celery's
    ``RoundsWatch``), beat or no beat. Idempotent (conditional UPDATEs): many may run it. Each
    round it closes is scored here, once, with no scoring task sent."""
    now = now or timezone.now()
    closed = sum(
        round_close(round_id=pk, now=now, score_task=False)
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
        closes_at = round.closes_at(grace=round.game.event.grace)
        assert closes_at is not None
        past = (now - closes_at).total_seconds()
        if past > tolerance:
            late.append((round, past))
    return late


# The top-move search of an open round whose tops are still missing is sent again to the tops
# queue once its last sending is this old: past the task's hard time limit (arbiter.tasks), so
# the search sent before is over, or was never received.
TOPS_REQUEUE_SECONDS = 300


def rounds_tops_requeue(*, now: datetime | None = None) -> int:
    """Send the top-move search again, to its queue, for every open round still without its
    tops whose last sending is ``TOPS_REQUEUE_SECONDS`` old (a lost message, a killed worker).
    Each round is claimed by a conditional UPDATE of ``tops_queued_at``, so sweeps running at
    once send it once. How many were sent."""
    from arbiter import tasks

    now = now or timezone.now()
    stale = Q(tops_queued_at__isnull=True) | Q(
        tops_queued_at__lte=now - timedelta(seconds=TOPS_REQUEUE_SECONDS)
    )
    missing = Round.objects.filter(status=Round.Status.OPEN, tops_ready_at__isnull=True)
    sent = 0
    for pk in missing.filter(stale).values_list("pk", flat=True):
        with transaction.atomic():
            if not missing.filter(stale, pk=pk).update(tops_queued_at=now):
                continue  # another sweep sent it, or the tops came meanwhile
            on_commit(functools.partial(tasks.round_tops_compute.delay, pk))
            sent += 1
    return sent


def rounds_sweep(*, now: datetime | None = None, tops_here: bool = False) -> dict[str, int]:
    """The periodic safety net (the deadline in the database is the truth): close every
    overdue round and score every closed one (each once), make sure the missing tops are being
    computed, publish the rounds due to publish by themselves. The tops are sent to their own
    queue (``rounds_tops_requeue``); with ``tops_here`` (the broker does not answer: nothing can
    be sent) they are computed here. Returns what it did."""
    now = now or timezone.now()
    done = rounds_close_overdue(now=now)
    if tops_here:
        tops = {
            "tops": sum(
                round_tops_compute(round_id=pk, now=now)
                for pk in Round.objects.filter(
                    status=Round.Status.OPEN, tops_ready_at__isnull=True
                ).values_list("pk", flat=True)
            )
        }
    else:
        tops = {"tops_queued": rounds_tops_requeue(now=now)}
    published = rounds_publish_due(now=now)
    return done | tops | {"published": published}
