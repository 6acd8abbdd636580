"""Discipline: a warning an arbiter gives a player for a round, for what the player did rather
than what the slip says (talking, a phone out, a slip handed in with a gesture...). rules.md,
case 21. It counts with the slips' warnings (each beyond the free ones costs the event's
warning penalty) and outlives the round's rulings: a slip ruled again keeps it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournament.models.game import Round
from tournament.models.player import Player


class Discipline(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="disciplines")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="disciplines")
    reason = models.TextField(help_text="Why, in the arbiter's words.")
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    given_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round", "player", "given_at", "pk"]
        indexes = [models.Index(fields=["round", "player"], name="discipline_round_player")]

    def __str__(self) -> str:
        return f"{self.player} round {self.round.number}: {self.reason}"
