"""Celery tasks of the tournament app: thin wrappers that call services."""

from __future__ import annotations

from celery import shared_task

from tournament.services.exports import export_job_run as export_job_run_service
from tournament.services.health import health_ping_record


@shared_task(name="tournament.health_ping")
def health_ping(stamp: str) -> str:
    """Proves the broker and a worker work end to end (tests, and a person debugging)."""
    health_ping_record(stamp=stamp)
    return stamp


@shared_task(name="tournament.export_job_run", acks_late=True)
def export_job_run(job_id: int) -> None:
    """Write an export job's workbook (idempotent: the service claims the job first)."""
    export_job_run_service(job_id=job_id)
