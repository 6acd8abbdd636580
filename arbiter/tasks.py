"""Celery tasks of the arbitration: thin wrappers that take ids and call one service.

Each is idempotent through the database (a round is claimed by a conditional UPDATE), so it is
safe to run twice, late, or after a worker died mid-way (``acks_late``: the broker delivers it
again). The periodic sweep closes overdue rounds whatever became of their countdown task.
The top-move search runs on its own queue (``tops``) with time limits.
"""

from __future__ import annotations

from celery import shared_task

from arbiter.services import clock, scoring


@shared_task(name="arbiter.round_tops_compute", acks_late=True, soft_time_limit=240, time_limit=300)
def round_tops_compute(round_id: int) -> bool:
    return scoring.round_tops_compute(round_id=round_id)


@shared_task(name="arbiter.round_close", acks_late=True)
def round_close(round_id: int) -> bool:
    return clock.round_close(round_id=round_id)


@shared_task(name="arbiter.round_score", acks_late=True)
def round_score(round_id: int) -> bool:
    return scoring.round_score(round_id=round_id) is not None


@shared_task(name="arbiter.rounds_sweep", acks_late=True, ignore_result=True)
def rounds_sweep() -> dict[str, int]:
    return clock.rounds_sweep()


@shared_task(name="arbiter.multiplex_tick", ignore_result=True)
def multiplex_tick() -> dict[str, int]:
    """Every multiplex link's turn (beat, every MULTIPLEX_POLL_SECONDS): the host's feed
    followed, the published rounds' results queued and pushed (each retried with backoff until
    the host acknowledges it: arbiter.services.multiplex_remote)."""
    from arbiter.services.multiplex_remote import links_tick

    return links_tick()
