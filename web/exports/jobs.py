"""Background exports: request a workbook, then write it in a Celery task with progress.

``export_job_request`` creates the job and queues ``web.tasks.export_job_run`` once the
transaction commits; ``export_job_run`` (what the task calls) claims the job with a
conditional UPDATE (queued -> running: a second delivery finds nothing to claim and does
nothing), writes the workbook to a temporary file under ``$VAR_DIR/exports`` reporting its
progress sheet by sheet, then moves it into place and marks the job done (or failed, with the
error). A job left running by a killed worker for more than ``STALE_AFTER`` may be claimed
again.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import tempfile

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tournament.errors import ApplicationError
from tournament.models import Event, ExportJob, Game
from tournament.models.export import exports_dir
from tournament.services.audit import audit_record
from tournament.services.progress import progress_report
from tournament.typography import elided
from web.exports import event_workbook_write, game_workbook_write

log = logging.getLogger(__name__)

STALE_AFTER = dt.timedelta(minutes=15)


@transaction.atomic
def export_job_request(
    *, event: Event, actor: User | AnonymousUser | None, game: Game | None = None
) -> ExportJob:
    """Create an export job for the event (or one game) and queue it after commit."""
    from web import tasks  # tasks import services: import late, once Celery is set up

    if game is not None and game.event_id != event.pk:
        raise ApplicationError(
            elided(
                gettext("Game %(number)s is not a game of %(name)s.")
                % {"number": game.number, "name": event.name}
            ),
            code="not_a_game_of_the_event",
        )
    user = actor if isinstance(actor, AbstractBaseUser) else None
    job = ExportJob.objects.create(
        event=event, game=game, requested_by=user, message=gettext("Queued")
    )
    audit_record(
        event=event,
        game=game,
        action="tournament.export.requested",
        actor=actor,
        data={"job": job.pk, "game": None if game is None else game.number},
    )
    transaction.on_commit(lambda: tasks.export_job_run.delay(job.pk))
    return job


def _claim(job_id: int, now: dt.datetime) -> bool:
    claimable = Q(status=ExportJob.Status.QUEUED) | Q(
        status=ExportJob.Status.RUNNING, started_at__lt=now - STALE_AFTER
    )
    claimed = ExportJob.objects.filter(claimable, pk=job_id).update(
        status=ExportJob.Status.RUNNING, started_at=now, progress=0, message=gettext("Starting")
    )
    return claimed == 1


def _report(job_id: int, percent: int, message: str) -> None:
    progress_report(ExportJob.objects.filter(pk=job_id), percent=percent, message=message)


def export_job_run(*, job_id: int, now: dt.datetime | None = None) -> ExportJob | None:
    """Write the job's workbook; None when the job was not there to claim (already done,
    running elsewhere, or gone). Not one transaction: the progress must be seen meanwhile."""
    if not _claim(job_id, now or timezone.now()):
        return None
    job = ExportJob.objects.select_related("event", "game").get(pk=job_id)
    folder = exports_dir()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{job.pk}-{job.download_name}"
    fd, partial = tempfile.mkstemp(dir=folder, prefix=f".{job.pk}-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:

            def progress(percent: int, message: str) -> None:
                _report(job.pk, percent, message)

            if job.game is not None:
                game_workbook_write(game=job.game, out=out, progress=progress)
            else:
                event_workbook_write(event=job.event, out=out, progress=progress)
        os.replace(partial, folder / name)
    except Exception as exc:
        log.exception("export job %s failed", job.pk)
        if os.path.exists(partial):
            os.unlink(partial)
        ExportJob.objects.filter(pk=job.pk).update(
            status=ExportJob.Status.FAILED,
            message=(
                gettext("Failed: %(kind)s: %(error)s") % {"kind": type(exc).__name__, "error": exc}
            )[:300],
            finished_at=timezone.now(),
        )
        job.refresh_from_db()
        return job
    ExportJob.objects.filter(pk=job.pk).update(
        status=ExportJob.Status.DONE,
        progress=100,
        message=gettext("Ready"),
        file_name=name,
        size=(folder / name).stat().st_size,
        finished_at=timezone.now(),
    )
    job.refresh_from_db()
    return job
