from __future__ import annotations

import functools
import zoneinfo
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.choices import (
    BoardLayout,
    Language,
    Rulebook,
    TieBreak,
    TileSet,
    in_choices,
)
from tournament.vocabulary import POLICY_DEFAULTS


@functools.cache
def time_zones() -> frozenset[str]:
    """The IANA time zone names this machine knows (``Europe/Paris``, ``America/Montreal``)."""
    return frozenset(zoneinfo.available_timezones())


def time_zone_default() -> str:
    """A new event's time zone: the installation's (``TIME_ZONE``)."""
    return str(settings.TIME_ZONE)


def time_zone_validate(value: str) -> None:
    if value not in time_zones():
        raise ValidationError(
            _("Unknown time zone %(zone)s: give a name such as Europe/Paris."),
            params={"zone": value},
            code="time_zone",
        )


class EventStatus(models.TextChoices):
    PLANNED = "planned", _("Planned")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Event(models.Model):
    """A duplicate event (a club night, a tournament) and its rules policy."""

    Status = EventStatus

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    starts_on = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLANNED)

    # The text the event is ruled by (rules.md): the regulation in force for a new event; an
    # event created before it keeps "before-2023" (migration 0023), and no event changes it
    # once a round is scored (tournament.services.events).
    rulebook = models.CharField(
        max_length=16,
        choices=Rulebook.choices,
        default=Rulebook.FISF_2023,
        help_text=_("The regulation the event is ruled by."),
    )
    # The rules policy (rules.md): every number is a per-event setting, its default written
    # once (tournament.vocabulary.POLICY_DEFAULTS).
    round_seconds = models.IntegerField(
        default=POLICY_DEFAULTS.round_seconds, help_text=_("Time per round.")
    )
    grace_seconds = models.IntegerField(
        default=POLICY_DEFAULTS.grace_seconds,
        help_text=_("Slips received this long after the deadline still count."),
    )
    warning_seconds = models.IntegerField(
        default=POLICY_DEFAULTS.warning_seconds, help_text=_("Warning this long before the end.")
    )
    warnings_free = models.IntegerField(
        default=POLICY_DEFAULTS.warnings_free, help_text=_("Warnings per game that cost nothing.")
    )
    warning_penalty = models.IntegerField(
        default=POLICY_DEFAULTS.warning_penalty, help_text=_("Points per warning after those.")
    )
    reference_rule_2016 = models.BooleanField(
        default=POLICY_DEFAULTS.reference_rule_2016,
        help_text=_(
            "From round 2, a wrong reference with a right word and score costs a "
            "penalty instead of zero."
        ),
    )
    reference_penalty = models.IntegerField(default=POLICY_DEFAULTS.reference_penalty)
    solo_bonus = models.IntegerField(
        default=POLICY_DEFAULTS.solo_bonus, help_text=_("Bonus when only one player finds the top.")
    )
    solo_min_players = models.IntegerField(
        default=POLICY_DEFAULTS.solo_min_players, help_text=_("Players needed for a solo bonus.")
    )
    publish_after_seconds = models.IntegerField(
        null=True,
        blank=True,
        help_text=_(
            "Publish a scored round by itself this long after its last ruling "
            "(empty: the director publishes)."
        ),
    )
    tile_set = models.CharField(max_length=8, choices=TileSet.choices, default=TileSet.EN)
    lexicon = models.CharField(
        max_length=64,
        default="enable",
        help_text=_(
            "A lexicon named in settings.LEXICONS ('enable' is the open default), or a word list "
            "a director uploaded ('upload:<id>', a WordList)."
        ),
    )
    board_layout = models.CharField(
        max_length=16, choices=BoardLayout.choices, default=BoardLayout.STANDARD
    )
    tie_break = models.CharField(
        max_length=16,
        choices=TieBreak.choices,
        default=TieBreak.SHARED,
        help_text=_(
            "How equal totals are ranked: shared, or by the last game's total, then its "
            "rounds from the last one backwards (the Québec federation's rule)."
        ),
    )
    language = models.CharField(
        max_length=8,
        choices=Language.choices,
        default=Language.EN,
        help_text=_(
            "The language of the event's screen, phones and exports (a person may "
            "choose another for their own pages)."
        ),
    )
    time_zone = models.CharField(
        max_length=64,
        default=time_zone_default,
        validators=[time_zone_validate],
        help_text=_(
            "Where the event is played: its pages, phones and exports show its times there."
        ),
    )

    # A simultaneous event (rules.md): the host draws every game in advance; its rooms play
    # the same games, each with its own clock, staff, screen and players.
    host = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rooms",
        help_text=_("The simultaneous event this event is a room of."),
    )
    remote = models.BooleanField(
        default=False,
        help_text=_(
            "A room played on another installation: its results are imported from its file."
        ),
    )

    # Beyond the room (rules.md, "Training" and "Results for the audience").
    public_results = models.BooleanField(
        default=False,
        help_text=_(
            "A public page (no login) shows the live standings, the rack, board and clock, the "
            "tops and the solos."
        ),
    )
    public_initials = models.BooleanField(
        default=False, help_text=_("The public page shows initials instead of names.")
    )
    training_open = models.BooleanField(
        default=False,
        help_text=_("Every finished game of the event may be replayed for training."),
    )

    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(remote=False) | Q(host__isnull=False),
                name="event_remote_is_a_room",
                violation_error_message=_(
                    "Only a room of a simultaneous event is played elsewhere."
                ),
            ),
            models.CheckConstraint(
                condition=~Q(host=models.F("pk")),
                name="event_not_its_own_room",
                violation_error_message=_("An event cannot be a room of itself."),
            ),
            models.CheckConstraint(
                condition=Q(round_seconds__gt=0),
                name="event_round_seconds_positive",
                violation_error_message=_("The round time must be at least one second."),
            ),
            models.CheckConstraint(
                condition=Q(
                    grace_seconds__gte=0,
                    warning_seconds__gte=0,
                    warnings_free__gte=0,
                    warning_penalty__gte=0,
                    reference_penalty__gte=0,
                    solo_bonus__gte=0,
                    solo_min_players__gte=0,
                ),
                name="event_rules_non_negative",
                violation_error_message=_(
                    "Grace, warning time, free warnings, penalties, the solo bonus "
                    "and the players needed for a solo cannot be negative."
                ),
            ),
            models.CheckConstraint(
                condition=Q(publish_after_seconds__isnull=True) | Q(publish_after_seconds__gte=0),
                name="event_publish_after_non_negative",
                violation_error_message=_(
                    "Publishing by itself after a negative time is not "
                    "possible: leave it empty (the director publishes) or give 0 seconds or more."
                ),
            ),
            models.CheckConstraint(
                condition=Q(warning_seconds__lt=models.F("round_seconds")),
                name="event_warning_within_round",
                violation_error_message=_(
                    "The warning time must be shorter than the round time "
                    "(the countdown warns before the end of the round)."
                ),
            ),
            models.CheckConstraint(
                condition=in_choices("status", EventStatus),
                name="event_status_valid",
                violation_error_message=_("The event's status is planned, running or finished."),
            ),
            models.CheckConstraint(
                condition=in_choices("tile_set", TileSet),
                name="event_tile_set_valid",
                violation_error_message=_("Choose a tile set from the list."),
            ),
            models.CheckConstraint(
                condition=in_choices("board_layout", BoardLayout),
                name="event_board_layout_valid",
                violation_error_message=_("Choose a board from the list."),
            ),
            models.CheckConstraint(
                condition=in_choices("language", Language),
                name="event_language_valid",
                violation_error_message=_("Choose a language from the list."),
            ),
            models.CheckConstraint(
                condition=in_choices("tie_break", TieBreak),
                name="event_tie_break_valid",
                violation_error_message=_(
                    "Choose how ties in the standings are ranked from the list."
                ),
            ),
            models.CheckConstraint(
                condition=in_choices("rulebook", Rulebook),
                name="event_rulebook_valid",
                violation_error_message=_("Choose a rulebook from the list."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts_on:%Y-%m-%d})"

    @property
    def simultaneous_id(self) -> int:
        """The simultaneous event this event belongs to: its host, or itself."""
        return self.host_id if self.host_id is not None else self.pk

    @property
    def grace(self) -> timedelta:
        """How long after the deadline a slip still counts (``grace_seconds``)."""
        return timedelta(seconds=self.grace_seconds)

    @property
    def is_closed(self) -> bool:
        """Closed by its director (``event_close``): no new round, no slip, no amendment."""
        return self.status == EventStatus.FINISHED


class EventRoleName(models.TextChoices):
    DIRECTOR = "director", _("Director")
    ARBITER = "arbiter", _("Arbiter")


class EventRole(models.Model):
    """What a (non-superuser) account may do in one event."""

    Role = EventRoleName

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    role = models.CharField(max_length=16, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "event"],
                name="eventrole_one_per_user_event",
                violation_error_message=_("That account already has a role in the event."),
            ),
            models.CheckConstraint(
                condition=in_choices("role", EventRoleName),
                name="eventrole_role_valid",
                violation_error_message=_("A role is director or arbiter."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} - {self.get_role_display()} of {self.event.name}"
