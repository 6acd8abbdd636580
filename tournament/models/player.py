from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.categories import AGE_CATEGORIES, SERIES_MAX, SERIES_MIN
from tournament.models.choices import in_choices
from tournament.models.event import Event
from tournament.vocabulary import TABLE_MAX, TABLE_MIN

AGE_CATEGORY_CHOICES = [(name, name) for name in AGE_CATEGORIES]


class LicenceConfirmation(models.TextChoices):
    """Who vouches that a registration's licence is its player's (rules.md, "A player's
    history"): nobody (typed at registration, by hand or through the API), the director who
    imported the event's player list, or the federation (a list imported by a superuser or
    from the command line, or a superuser in the admin)."""

    TYPED = "", _("Typed at registration")
    DIRECTOR = "director", _("The director's player list")
    FEDERATION = "federation", _("The federation")


def token_new() -> str:
    """A fresh secret access token (what the player's QR code carries)."""
    return secrets.token_urlsafe(24)


class Player(models.Model):
    """A player's registration in one event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    club = models.CharField(max_length=120, blank=True)
    category = models.CharField(
        max_length=40, blank=True, help_text="Series or age group, e.g. 'S1', 'Junior'."
    )
    licence = models.CharField(max_length=40, blank=True, help_text="Federation licence number.")
    licence_confirmed = models.CharField(
        max_length=16,
        blank=True,
        default=LicenceConfirmation.TYPED,
        choices=LicenceConfirmation.choices,
        help_text=_(
            "Who vouches for the licence: a player's history shows other events' games only "
            "for a confirmed licence."
        ),
    )
    licence_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The account whose player list confirmed the licence."),
    )
    series = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The federation's series, 1 (strongest) to 7."
    )
    age_category = models.CharField(
        max_length=16, blank=True, choices=AGE_CATEGORY_CHOICES, help_text="FISF age category."
    )
    table = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(TABLE_MIN), MaxValueValidator(TABLE_MAX)],
        help_text="1 to 9,999.",
    )
    token = models.CharField(max_length=64, unique=True, default=token_new, editable=False)
    token_revoked_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Set when the player withdrew: no slip is taken from or for them since.",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "table"],
                condition=Q(table__isnull=False),
                name="player_table_unique_per_event",
                violation_error_message=_("Another player already sits at that table."),
            ),
            models.UniqueConstraint(
                fields=["event", "licence"],
                condition=~Q(licence=""),
                name="player_licence_unique_per_event",
                violation_error_message=_("Another player of the event has that licence number."),
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=True) | Q(table__gte=TABLE_MIN, table__lte=TABLE_MAX),
                name="player_table_1_to_9999",
                violation_error_message=_("A table number is 1 to 9,999."),
            ),
            models.CheckConstraint(
                condition=Q(series__isnull=True)
                | Q(series__gte=SERIES_MIN, series__lte=SERIES_MAX),
                name="player_series_1_to_7",
                violation_error_message=_("A series is 1 to 7."),
            ),
            models.CheckConstraint(
                condition=in_choices("licence_confirmed", LicenceConfirmation),
                name="player_licence_confirmed_valid",
                violation_error_message=_("That is not a licence's confirmation."),
            ),
            models.CheckConstraint(
                condition=Q(age_category="") | Q(age_category__in=AGE_CATEGORIES),
                name="player_age_category_valid",
                violation_error_message=_("That is not an age category."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def token_is_active(self) -> bool:
        return self.token_revoked_at is None

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_at is not None
