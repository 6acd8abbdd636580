"""A multiplex: one centre (the host) draws each round live, remote installations play it in
their own rooms and send their rulings back (docs/design.md, "Multiplex").

Host side: ``RoomKey`` (what a remote installation presents for one remote room; only its
SHA-256 is kept) and ``RoomReceipt`` (the last version of each of a room's rounds accepted).
Remote side: ``MultiplexLink`` (the host's address and key, how far its feed is read) and
``MultiplexOutbox`` (each round's rulings to send, kept until the host acknowledges them).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournament.models.event import Event


class RoomKey(models.Model):
    """A key the host's director issued for one remote room; revoked, it opens nothing."""

    room = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="room_keys")
    key_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key.")
    hint = models.CharField(max_length=8, help_text="The key's last characters, for people.")
    issued_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    last_cursor = models.BigIntegerField(default=0, help_text="The feed cursor last asked from.")
    last_results_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-issued_at"]

    def __str__(self) -> str:
        return f"room key …{self.hint} of event {self.room_id}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class RoomReceipt(models.Model):
    """The last version of a remote room's results for one round the host accepted."""

    room = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="room_receipts")
    game_number = models.PositiveIntegerField()
    round_number = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["room", "game_number", "round_number"], name="room_receipt_one_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"room {self.room_id} g{self.game_number} r{self.round_number} v{self.version}"


class MultiplexLink(models.Model):
    """The remote side: this event plays a host's multiplex as one of its remote rooms."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="multiplex_link")
    host_url = models.URLField(max_length=500)
    key = models.CharField(max_length=128, help_text="The room key: a secret, never shown.")
    host_event = models.CharField(max_length=200, blank=True)
    room_name = models.CharField(max_length=200, blank=True)
    cursor = models.BigIntegerField(default=0, help_text="The host's feed, read up to here.")
    last_contact_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    last_error_code = models.CharField(max_length=64, blank=True)
    failures = models.PositiveIntegerField(default=0)
    results_seen = models.BigIntegerField(
        default=0, help_text="The last audit entry whose results were put in the outbox."
    )
    busy_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"multiplex link of event {self.event_id}"


class MultiplexOutbox(models.Model):
    """One version of one round's rulings, to send to the host until it acknowledges it."""

    link = models.ForeignKey(MultiplexLink, on_delete=models.CASCADE, related_name="outbox")
    game_number = models.PositiveIntegerField()
    round_number = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    payload = models.JSONField()
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    acked_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    next_try_at = models.DateTimeField(default=timezone.now)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["link", "game_number", "round_number", "version"],
                name="multiplex_outbox_one_per_version",
            )
        ]

    def __str__(self) -> str:
        return f"outbox g{self.game_number} r{self.round_number} v{self.version}"
