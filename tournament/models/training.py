"""Training on a finished game (rules.md, "Training"): an attempt replays the game's rounds
alone, each slip ruled by the event's own judge; nothing here touches the event's rulings or
standings.

An attempt is found again by its secret ``token`` (its address) and, for someone signed in,
by its ``user``. ``round_number`` is the round in play (or the one whose result is shown:
``round_started_at`` None), past the last round once finished.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.choices import in_choices
from tournament.models.game import Game


def attempt_token_new() -> str:
    return secrets.token_urlsafe(18)


class TrainingMode(models.TextChoices):
    REPLAY = "replay", _("Replay (one slip per round, as in the room)")
    TOPPING = "topping", _("Topping (try until the top, scored by the time taken)")


class TrainingAttempt(models.Model):
    Mode = TrainingMode

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="training_attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="training_attempts",
    )
    name = models.CharField(max_length=120, blank=True)
    token = models.CharField(max_length=40, unique=True, default=attempt_token_new)
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.REPLAY)
    round_seconds = models.PositiveIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    round_number = models.PositiveIntegerField(default=1)
    round_started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.CheckConstraint(
                condition=in_choices("mode", TrainingMode), name="training_mode_valid"
            ),
            models.CheckConstraint(
                condition=Q(round_seconds__gt=0), name="training_round_seconds_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Training {self.pk} on {self.game}"

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    def deadline(self) -> datetime | None:
        """When the round in play ends on the server clock; None between rounds."""
        if self.round_started_at is None or self.finished_at is not None:
            return None
        return self.round_started_at + timedelta(seconds=self.round_seconds)

    def remaining(self, *, at: datetime) -> float | None:
        deadline = self.deadline()
        if deadline is None:
            return None
        return max((deadline - at).total_seconds(), 0.0)


class TrainingSlip(models.Model):
    """One slip of an attempt, ruled as the event rules it (``RoundJudge.rule``). In topping,
    every try is kept and the one that ends the round ``counts``."""

    attempt = models.ForeignKey(TrainingAttempt, on_delete=models.CASCADE, related_name="slips")
    round_number = models.PositiveIntegerField()
    word = models.CharField(max_length=15, blank=True)
    ref = models.CharField(max_length=4, blank=True)
    announced_score = models.IntegerField(null=True, blank=True)
    received_at = models.DateTimeField(default=timezone.now)
    elapsed = models.FloatField(help_text="Seconds from the round's start to the slip.")
    late = models.BooleanField(default=False)
    counts = models.BooleanField(default=True)
    code = models.CharField(max_length=24)
    reason = models.TextField(blank=True)
    move_score = models.IntegerField(null=True, blank=True)
    points = models.IntegerField(default=0)
    penalty = models.IntegerField(default=0)
    warning = models.BooleanField(default=False)
    rank = models.PositiveIntegerField(null=True, blank=True)
    found_top = models.BooleanField(default=False)
    topping_seconds = models.IntegerField(
        null=True, blank=True, help_text="Topping: the round's score in seconds (lower is better)."
    )

    class Meta:
        ordering = ["attempt", "round_number", "received_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["attempt", "round_number"],
                condition=Q(counts=True),
                name="training_one_counted_slip_per_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ref or '-'} {self.word} {self.announced_score}"


class SeasonMethod(models.TextChoices):
    SUM = "sum", _("Sum of the percentages of top")
    BEST = "best", _("Sum of the best N percentages of top")


class Season(models.Model):
    """A club's season: its nights (events) ranked together by the players' percentage of top
    on each night, summed over every night or over each player's best N (rules.md)."""

    Method = SeasonMethod

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seasons"
    )
    events = models.ManyToManyField("tournament.Event", related_name="seasons", blank=True)
    method = models.CharField(max_length=8, choices=Method.choices, default=Method.SUM)
    best_n = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=in_choices("method", SeasonMethod), name="season_method_valid"
            ),
            models.CheckConstraint(
                condition=Q(method="sum") | Q(best_n__gt=0), name="season_best_n_given"
            ),
        ]

    def __str__(self) -> str:
        return self.name
