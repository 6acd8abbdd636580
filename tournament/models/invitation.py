from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.choices import in_choices
from tournament.models.event import Event, EventRoleName


def nonce_new() -> str:
    """The invitation's secret part of its link (signed with the site's key on top)."""
    return secrets.token_urlsafe(18)


INVITATION_STATES = {
    "accepted": _("accepted"),
    "revoked": _("revoked"),
    "expired": _("expired"),
    "pending": _("pending"),
}


class Invitation(models.Model):
    """A director's one-time invitation to direct or arbitrate an event, for a person named
    ``name``. Its link is signed (``tournament.services.invitations``); it is used once
    (``accepted_at``), expires (``expires_at``) or is revoked (``revoked_at``)."""

    Role = EventRoleName

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="invitations")
    name = models.CharField(max_length=120, help_text="Who the invitation is for.")
    role = models.CharField(max_length=16, choices=EventRoleName.choices)
    nonce = models.CharField(max_length=40, unique=True, default=nonce_new, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations_sent",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations_accepted",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=in_choices("role", EventRoleName), name="invitation_role_valid"
            ),
            models.CheckConstraint(
                condition=Q(accepted_at__isnull=True) | Q(revoked_at__isnull=True),
                name="invitation_accepted_or_revoked",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} - {self.get_role_display()} of {self.event.name}"

    def state_label(self, *, at: datetime) -> str:
        """The state as a page says it, in the language in force."""
        return str(INVITATION_STATES[self.state(at=at)])

    def state(self, *, at: datetime) -> str:
        """``accepted``, ``revoked``, ``expired`` or ``pending`` at ``at`` (no query)."""
        if self.accepted_at is not None:
            return "accepted"
        if self.revoked_at is not None:
            return "revoked"
        if at >= self.expires_at:
            return "expired"
        return "pending"
