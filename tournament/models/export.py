from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.choices import in_choices
from tournament.models.event import Event
from tournament.models.game import Game


class ExportStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


def exports_dir() -> Path:
    """Where finished workbooks are kept: ``$VAR_DIR/exports``."""
    return Path(settings.VAR_DIR) / "exports"


class ExportJob(models.Model):
    """A workbook written in the background (large events): queued -> running -> done/failed.

    The task claims a queued job with a conditional UPDATE, so a message delivered twice
    writes the workbook once; ``progress`` (0-100) and ``message`` say how far it got.
    ``file_name`` is relative to ``exports_dir()``.
    """

    Status = ExportStatus

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="export_jobs")
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="export_jobs",
        help_text="Empty for the whole event's workbook.",
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    message = models.CharField(max_length=300, blank=True)
    file_name = models.CharField(max_length=200, blank=True)
    size = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=in_choices("status", ExportStatus), name="exportjob_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(progress__lte=100), name="exportjob_progress_at_most_100"
            ),
        ]

    def __str__(self) -> str:
        return f"Export {self.pk} of {self.event_id} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def path(self) -> Path | None:
        return exports_dir() / self.file_name if self.file_name else None

    @property
    def download_name(self) -> str:
        from tournament.files import download_name  # the models load before the helpers

        parts = ("game", self.game.number) if self.game else ()
        return download_name(self.event, *parts, ext="xlsx")
