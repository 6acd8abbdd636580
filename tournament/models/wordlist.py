from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.choices import TileSet, in_choices

KEY_PREFIX = "upload:"  # an event's ``lexicon`` naming an uploaded list: ``upload:<id>``


class WordListStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    COMPILING = "compiling", _("Compiling")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Failed")


def word_lists_dir() -> Path:
    """Where uploaded word lists are kept: ``settings.WORD_LISTS_DIR`` (``$VAR_DIR/wordlists``)."""
    return Path(settings.WORD_LISTS_DIR)


class WordList(models.Model):
    """A word list a director uploaded, compiled once in a worker: queued -> compiling ->
    ready/failed.

    One row per content and tile set (``sha256`` of the file's bytes): a second upload of the
    same file is the same list. The compiled lexicon is the engine's disk cache, keyed by the
    content too, so every event that plays the list shares one compile. An event plays it when
    its ``lexicon`` is ``key`` (``upload:<id>``); a list on the server (``settings.LEXICONS``)
    is named there by its own name and has no row. ``file_name`` is relative to
    ``word_lists_dir()``; ``words`` is known once compiled; ``message`` says how far the
    compile got, what it left out, or why it failed; ``heartbeat_at`` proves, while it
    compiles, that its worker still lives.
    """

    Status = WordListStatus

    name = models.CharField(max_length=100)
    builtin = models.CharField(
        max_length=32,
        blank=True,
        help_text="A list offered out of the box (engine.lists.BUILTIN: 'grammalecte-fr'), "
        "built from an installed dictionary by the compile; empty for an uploaded list.",
    )
    sha256 = models.CharField(max_length=64)
    tile_set = models.CharField(max_length=8, choices=TileSet.choices)
    file_name = models.CharField(max_length=200)
    size = models.PositiveBigIntegerField()
    words = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    message = models.CharField(max_length=500, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    uploaded_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While compiling: written every WORD_LIST_HEARTBEAT_SECONDS by the compile; "
        "a list whose heartbeat is WORD_LIST_SILENT_SECONDS old is marked failed.",
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["sha256", "tile_set"], name="wordlist_one_per_content_and_tile_set"
            ),
            models.CheckConstraint(
                condition=in_choices("status", WordListStatus), name="wordlist_status_valid"
            ),
            models.CheckConstraint(
                condition=in_choices("tile_set", TileSet), name="wordlist_tile_set_valid"
            ),
            models.CheckConstraint(
                condition=Q(progress__lte=100), name="wordlist_progress_at_most_100"
            ),
            models.CheckConstraint(
                condition=~Q(status="ready") | Q(words__isnull=False),
                name="wordlist_ready_has_words",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.tile_set}, {self.status})"

    @property
    def key(self) -> str:
        """What an event's ``lexicon`` holds to play this list."""
        return f"{KEY_PREFIX}{self.pk}"

    @property
    def path(self) -> Path:
        return word_lists_dir() / self.file_name

    @property
    def is_ready(self) -> bool:
        return self.status == WordListStatus.READY

    @staticmethod
    def id_of(lexicon: str) -> int | None:
        """The id an event's ``lexicon`` names (``upload:<id>``), or None for a server list."""
        if not lexicon.startswith(KEY_PREFIX):
            return None
        number = lexicon.removeprefix(KEY_PREFIX)
        return int(number) if number.isascii() and number.isdigit() else None
