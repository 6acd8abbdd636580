"""Celery tasks of the tournament app: thin wrappers that call services."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.exceptions import TimeLimitExceeded
from celery.signals import task_failure
from django.conf import settings
from django.db import close_old_connections, connection

from tournament.services.health import health_ping_record
from tournament.services.word_lists import word_list_compile as word_list_compile_service
from tournament.services.word_lists import word_list_compile_lost


@shared_task(name="tournament.health_ping")
def health_ping(stamp: str) -> str:
    """Proves the broker and a worker work end to end (tests, and a person debugging)."""
    health_ping_record(stamp=stamp)
    return stamp


@shared_task(
    name="tournament.word_list_compile",
    # Acknowledged when a worker takes it, not when it ends: a compile whose process dies
    # (killed, out of memory) must not come back to kill the next worker. It is marked failed
    # instead (word_list_compile_lost below, or the heartbeat's watch), and uploading the file
    # again queues it anew. So no acks_late, and reject_on_worker_lost has nothing to reject.
    acks_late=False,
    # The limits travel in the message, from the settings of the process that queues it (web).
    soft_time_limit=settings.WORD_LIST_COMPILE_SECONDS,
    time_limit=settings.WORD_LIST_COMPILE_SECONDS + 30,
)
def word_list_compile(word_list_id: int) -> None:
    """Compile an uploaded word list (idempotent: the service claims the list first)."""
    word_list_compile_service(word_list_id=word_list_id)


@task_failure.connect(sender=word_list_compile)
def _word_list_compile_failed(
    sender: object = None, exception: BaseException | None = None, args: Any = None, **kw: Any
) -> None:
    """A compile that raised, or whose process died (Celery's parent process tells: its child
    lost, or past the hard time limit): the list is marked failed with why, unless its end was
    recorded."""
    word_list_id = (args or [None])[0] if args else kw.get("kwargs", {}).get("word_list_id")
    if not isinstance(word_list_id, int):
        return
    if isinstance(exception, TimeLimitExceeded):  # the hard limit: its process was killed
        why = f"TimeLimitExceeded: {exception} s"
    else:
        why = str(exception) or type(exception).__name__
    try:
        word_list_compile_lost(word_list_id=word_list_id, why=why)
    finally:
        if not connection.in_atomic_block:  # the parent's own connection, as a task's would be
            close_old_connections()
