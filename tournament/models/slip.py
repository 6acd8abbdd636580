from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournament.models.choices import in_choices
from tournament.models.game import Round
from tournament.models.player import Player
from tournament.vocabulary import RULING_CHOICES, RulingCode, ruling_total

StrOrPromise = str | Promise

# The ruling codes with their labels in the language in force (the pages, sheets and phones).
RULING_CHOICES_SHOWN = [(code, _(label)) for code, label in RULING_CHOICES]
_SHOWN = dict(RULING_CHOICES_SHOWN)


def ruling_label(code: str) -> StrOrPromise:
    """A ruling code's label, the one way every face names a ruling (the console, the phones'
    state and live stream, the prints, the workbooks): lazy, so it is put into words where it
    is written out, in the reader's language then (the stream writes each phone's frame in that
    phone's language). The labels are ``tournament.vocabulary.RULING_LABELS``, one table keyed
    by code: a new code is a line there (and its French in the catalogue). A code without a
    label (a row stored by a later version) reads as itself."""
    return _SHOWN.get(code, code)


class SlipSource(models.TextChoices):
    PHONE = "phone", _("Player's phone")
    API = "api", _("API client")
    ARBITER = "arbiter", _("Entered by an arbiter")
    ROOM_FILE = "room_file", _("Imported with a room's results")


class Submission(models.Model):
    """A slip: the word, grid reference and announced score a player hands in for a round.

    A later slip before the deadline replaces the earlier one; both are kept, and only the
    newest has ``is_current`` (the database allows one current slip per player and round).
    """

    Source = SlipSource

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="slips")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="slips")
    word = models.CharField(max_length=15, help_text="In full; a blank as a lowercase letter.")
    ref = models.CharField(max_length=4, blank=True, help_text="H8 across, 8H down.")
    announced_score = models.IntegerField(null=True, blank=True)
    received_at = models.DateTimeField(default=timezone.now)
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.PHONE)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    is_current = models.BooleanField(default=True)
    late = models.BooleanField(
        default=False, help_text="Handed in after the deadline (an arbiter's entry says so)."
    )
    multiple = models.BooleanField(
        default=False,
        help_text="Several slips were handed in for the round (an arbiter's entry says so).",
    )
    fallacious = models.BooleanField(
        default=False,
        help_text="The arbiter's decision (FISF 2023, 5.3.3): the word, at a place worth its "
        "score, forms a cross-word invalid but plausible (a fallacious junction).",
    )
    attempt = models.CharField(
        max_length=64,
        blank=True,
        help_text="The phone's identity for this slip, sent again with every retry: a retry "
        "is answered with this slip's receipt, never stored twice (empty for other slips).",
    )

    class Meta:
        verbose_name = "slip"
        ordering = ["round", "player", "received_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "round"],
                condition=Q(is_current=True),
                name="slip_one_current_per_player_round",
            ),
            models.UniqueConstraint(
                fields=["player", "round", "attempt"],
                condition=~Q(attempt=""),
                name="slip_one_per_attempt",
            ),
            models.CheckConstraint(
                condition=Q(announced_score__isnull=True) | Q(announced_score__gte=0),
                name="slip_announced_score_non_negative",
            ),
            models.CheckConstraint(
                condition=in_choices("source", SlipSource), name="slip_source_valid"
            ),
        ]
        indexes = [models.Index(fields=["round", "received_at"], name="slip_round_received")]

    def __str__(self) -> str:
        return f"{self.ref or '-'} {self.word} {self.announced_score}"


class Ruling(models.Model):
    """The arbiter's decision for one player in one round: what the move scored and why."""

    Code = RulingCode

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="rulings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rulings")
    submission = models.ForeignKey(
        Submission, on_delete=models.PROTECT, null=True, blank=True, related_name="rulings"
    )
    code = models.CharField(max_length=24, choices=RULING_CHOICES_SHOWN)
    reason = models.TextField(blank=True, help_text="The rule applied, in words.")
    article = models.CharField(
        max_length=40,
        blank=True,
        help_text="The case of rules.md that ruled it, with its article (4 · FISF 5.3.1).",
    )
    move_score = models.IntegerField(
        null=True, blank=True, help_text="What the placement is worth (even if invalid)."
    )
    points = models.IntegerField(default=0, help_text="Points awarded for the move.")
    warning = models.BooleanField(default=False)
    penalty = models.IntegerField(default=0, help_text="The reference penalty (2016 rule).")
    warning_penalty = models.IntegerField(
        default=0,
        help_text="Derived: what this round's warnings cost, beyond the game's free warnings.",
    )
    discipline_warnings = models.PositiveSmallIntegerField(
        default=0, help_text="Derived: the disciplinary warnings of this round (Discipline)."
    )
    averaged = models.BooleanField(
        default=False,
        help_text="The director gave the round's average for a second zero in a row (rule 10).",
    )
    solo = models.IntegerField(default=0)
    rank = models.PositiveIntegerField(
        null=True, blank=True, help_text="Where the move ranks among all legal moves; 1 = top."
    )
    found_top = models.BooleanField(default=False)
    amended = models.BooleanField(default=False)
    ruled_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round", "player"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="ruling_one_per_player_round"),
            models.CheckConstraint(
                condition=Q(code__in=[code.value for code in RulingCode]), name="ruling_code_valid"
            ),
            models.CheckConstraint(
                condition=Q(points__gte=0, penalty__gte=0, warning_penalty__gte=0, solo__gte=0),
                name="ruling_points_non_negative",
            ),
            models.CheckConstraint(
                condition=Q(rank__isnull=True) | Q(rank__gt=0), name="ruling_rank_positive"
            ),
            models.CheckConstraint(
                condition=Q(code="missing", submission__isnull=True)
                | (~Q(code="missing") & Q(submission__isnull=False)),
                name="ruling_missing_iff_no_slip",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_code_display()}: {self.points}"

    @property
    def total(self) -> int:
        """What the ruling adds to the standings (``ruling_total``)."""
        return ruling_total(
            points=self.points,
            solo=self.solo,
            penalty=self.penalty,
            warning_penalty=self.warning_penalty,
        )
