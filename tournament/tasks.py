"""Celery tasks of the tournament app: thin wrappers that call services."""

from __future__ import annotations

from celery import shared_task

from tournament.services.health import health_ping_record


@shared_task(name="tournament.health_ping")
def health_ping(stamp: str) -> str:
    """Proves the broker and a worker work end to end (tests, and a person debugging)."""
    health_ping_record(stamp=stamp)
    return stamp
