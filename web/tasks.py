"""Celery tasks of the faces: thin wrappers that call one service.

The task keeps the name it was first given (``tournament.export_job_run``): a name is what a
queued message carries, so renaming it would strand messages already in a broker.
"""

from __future__ import annotations

from celery import shared_task

from web.exports.jobs import export_job_run as export_job_run_service


@shared_task(name="tournament.export_job_run", acks_late=True)
def export_job_run(job_id: int) -> None:
    """Write an export job's workbook (idempotent: the service claims the job first)."""
    export_job_run_service(job_id=job_id)
