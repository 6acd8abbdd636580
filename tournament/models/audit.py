from __future__ import annotations

from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournament.models.event import Event
from tournament.models.game import Game, Round


class AuditEntryQuerySet(models.QuerySet["AuditEntry"]):
    """Append-only: bulk updates and deletes through the ORM are refused."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise TypeError("audit entries are append-only: they cannot be updated")

    def delete(self) -> NoReturn:
        raise TypeError("audit entries are append-only: they cannot be deleted")


class AuditEntry(models.Model):
    """One director or arbiter action, never changed once written.

    ``action`` is a namespaced code (``tournament.round.closed``, ``arbiter.slip.ruled``);
    ``data`` holds what the action needs to be understood later (never a secret token).
    """

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="audit_entries")
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_entries"
    )
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    actor_name = models.CharField(
        max_length=150, blank=True, help_text="The actor's username when it acted."
    )
    action = models.CharField(max_length=100)
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(default=timezone.now)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        verbose_name = "audit entry"
        verbose_name_plural = "audit log"
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["event", "at"], name="audit_event_at")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(action__contains="."), name="audit_action_namespaced"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise TypeError("audit entries are append-only: an existing entry cannot be saved")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("audit entries are append-only: they cannot be deleted")
