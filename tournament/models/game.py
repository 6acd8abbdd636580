from __future__ import annotations

from datetime import datetime, timedelta

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models.choices import BoardLayout, Formula, TileSet, in_choices
from tournament.models.event import Event
from tournament.vocabulary import slips_end

BOARD_SIZE = 15


def board_empty() -> list[str]:
    """An empty board: 15 rows of 15 '.' (letters for tiles, lowercase for blanks)."""
    return ["." * BOARD_SIZE for _ in range(BOARD_SIZE)]


class GameSource(models.TextChoices):
    RANDOM = "random", _("Random draw")
    MANUAL = "manual", _("Racks typed in from the bag")
    PREDRAWN = "predrawn", _("Pre-drawn game")


class GameStatus(models.TextChoices):
    # A game's own words (French: "partie", feminine: "terminée"), apart from an event's.
    SETUP = "setup", pgettext_lazy("game status", "Setup")
    RUNNING = "running", pgettext_lazy("game status", "Running")
    FINISHED = "finished", pgettext_lazy("game status", "Finished")


class Game(models.Model):
    """One duplicate game of an event; its rules are copied from the event when created."""

    Source = GameSource

    Status = GameStatus

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    seed = models.BigIntegerField(null=True, blank=True)
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.RANDOM)
    predrawn = models.JSONField(
        null=True, blank=True, help_text="The engine's `game --json` document, for 'predrawn'."
    )
    tile_set = models.CharField(max_length=8, choices=TileSet.choices)
    lexicon = models.CharField(max_length=64)
    board_layout = models.CharField(max_length=16, choices=BoardLayout.choices)
    formula = models.CharField(
        max_length=24,
        choices=Formula.choices,
        default=Formula.STANDARD,
        help_text="Standard duplicate or an original formula (docs/formulas.md).",
    )
    board = models.JSONField(
        default=board_empty, help_text="15 strings of 15: '.' empty, A-Z tile, a-z blank."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SETUP)
    end_reason = models.TextField(blank=True)
    pending_rejected = models.JSONField(
        default=list,
        blank=True,
        help_text="Racks typed in for the next round and refused "
        "(their tiles went back to the bag).",
    )
    training_open = models.BooleanField(
        default=False, help_text="Open for training once finished (or the event's setting)."
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    @property
    def formula_shown(self) -> str:
        """The formula as people read it, "" for standard duplicate (nothing to say)."""
        return "" if self.formula == Formula.STANDARD else str(self.get_formula_display())

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"],
                name="game_number_unique_per_event",
                violation_error_message=_("The event already has a game with that number."),
            ),
            models.CheckConstraint(
                condition=Q(number__gt=0),
                name="game_number_positive",
                violation_error_message=_("A game number is 1 or more."),
            ),
            models.CheckConstraint(
                condition=in_choices("source", GameSource),
                name="game_source_valid",
                violation_error_message=_(
                    "A game is a random draw, a pre-drawn game or racks typed in."
                ),
            ),
            models.CheckConstraint(
                condition=in_choices("status", GameStatus),
                name="game_status_valid",
                violation_error_message=_("A game's status is set-up, running or finished."),
            ),
            models.CheckConstraint(
                condition=~Q(source="predrawn") | Q(predrawn__isnull=False),
                name="game_predrawn_has_document",
                violation_error_message=_("A pre-drawn game needs its file."),
            ),
            models.CheckConstraint(
                condition=in_choices("formula", Formula),
                name="game_formula_valid",
                violation_error_message=_("Choose a formula from the list."),
            ),
            models.CheckConstraint(
                condition=in_choices("tile_set", TileSet),
                name="game_tile_set_valid",
                violation_error_message=_("Choose a tile set from the list."),
            ),
            models.CheckConstraint(
                condition=in_choices("board_layout", BoardLayout),
                name="game_board_layout_valid",
                violation_error_message=_("Choose a board from the list."),
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.number}"

    @property
    def is_open_for_training(self) -> bool:
        """Finished, and opened for training by its director (this game or the event's)."""
        return self.status == GameStatus.FINISHED and (
            self.training_open or self.event.training_open
        )


class RoundStatus(models.TextChoices):
    DRAWN = "drawn", _("Drawn")
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")
    SCORED = "scored", _("Scored")
    PUBLISHED = "published", _("Published")
    ANNULLED = "annulled", _("Annulled")


class RoundPlayedBy(models.TextChoices):
    ENGINE = "engine", _("Engine's choice")
    DIRECTOR = "director", _("Director's choice")
    PREDRAWN = "predrawn", _("The pre-drawn game's move")


# The rounds a slip that arrived in time still counts in, though their clock has stopped.
SLIPS_IN_TIME_AFTER = (RoundStatus.CLOSED, RoundStatus.SCORED)


class Round(models.Model):
    """One rack of a game, from the draw to the published top.

    Lifecycle: drawn -> open (deadline set) -> closed -> scored -> published; a round may be
    annulled. At most one round of a game is in play (drawn, open, closed or scored).
    """

    Status = RoundStatus

    IN_PLAY = (Status.DRAWN, Status.OPEN, Status.CLOSED, Status.SCORED)

    PlayedBy = RoundPlayedBy

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    rack = models.CharField(
        max_length=9, help_text="Up to 7 tiles (8 or 9 in some formulas), '?' for a blank."
    )
    leftover = models.CharField(
        max_length=9, blank=True, help_text="Tiles kept from the last rack."
    )
    rejected = models.JSONField(default=list, blank=True, help_text="Racks drawn and put back.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAWN)

    drawn_at = models.DateTimeField(default=timezone.now)
    opened_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    paused_remaining = models.DurationField(
        null=True, blank=True, help_text="Set while the clock is paused: the time left."
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    scored_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)

    tops = models.JSONField(
        default=list, blank=True, help_text='Top moves, best first: [{"ref", "word", "score"}].'
    )
    tops_ready_at = models.DateTimeField(null=True, blank=True)
    tops_queued_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the top-move search was last sent to the tops queue (the sweep sends it "
        "again only when that is TOPS_REQUEUE_SECONDS old and the tops are still missing).",
    )
    score_counts = models.JSONField(
        default=dict, blank=True, help_text="How many legal moves score what: {score: count}."
    )
    moves_total = models.IntegerField(null=True, blank=True, help_text="Legal moves for the rack.")
    played_ref = models.CharField(max_length=4, blank=True)
    played_word = models.CharField(max_length=15, blank=True)
    played_score = models.IntegerField(null=True, blank=True)
    played_by = models.CharField(max_length=16, choices=PlayedBy.choices, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=~Q(status="annulled"),
                name="round_number_unique_per_game",
            ),
            models.CheckConstraint(condition=Q(number__gt=0), name="round_number_positive"),
            models.CheckConstraint(
                condition=in_choices("status", RoundStatus), name="round_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status="open") | Q(deadline__isnull=False),
                name="round_open_has_deadline",
            ),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status__in=["drawn", "open", "closed", "scored"]),
                name="round_one_in_play_per_game",
            ),
            models.CheckConstraint(
                condition=Q(played_score__isnull=True) | Q(played_score__gte=0),
                name="round_played_score_non_negative",
            ),
            models.CheckConstraint(
                condition=Q(played_by="") | in_choices("played_by", RoundPlayedBy),
                name="round_played_by_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} ({self.rack})"

    @property
    def is_paused(self) -> bool:
        return self.paused_remaining is not None

    @property
    def paused_at(self) -> datetime | None:
        """When the clock was stopped (the deadline stays as it was until the clock restarts)."""
        if self.paused_remaining is None or self.deadline is None:
            return None
        return self.deadline - self.paused_remaining

    def remaining(self, *, at: datetime) -> timedelta | None:
        """Time left on the clock at ``at`` (frozen while paused); None when not open."""
        if self.status != self.Status.OPEN or self.deadline is None:
            return None
        if self.paused_remaining is not None:
            return self.paused_remaining
        return max(self.deadline - at, timedelta(0))

    def is_open(self, *, at: datetime) -> bool:
        """The clock is running (or paused) and the deadline has not passed."""
        remaining = self.remaining(at=at)
        return remaining is not None and (self.is_paused or remaining > timedelta(0))

    def slip_refusal(self, *, at: datetime, grace: timedelta) -> str | None:
        """Why a player's slip received at ``at`` does not count, as its refusal code, or None
        when it counts: the one rule of the deadline for slips (the slip service asks it).

        A slip counts when it arrived by the deadline plus the grace (``slips_end``), even if
        the round has closed (or been scored) since; while the clock is stopped, only a slip
        that arrived before it stopped counts."""
        if self.status not in (Round.Status.OPEN, *SLIPS_IN_TIME_AFTER) or self.deadline is None:
            return "round_not_open"
        paused_at = self.paused_at if self.status == Round.Status.OPEN else None
        if paused_at is not None and at > paused_at:
            return "round_paused"
        if at > slips_end(deadline=self.deadline, grace=grace):
            return "deadline_passed"
        return None

    def accepts_slips(self, *, at: datetime, grace: timedelta) -> bool:
        """A player's slip received at ``at`` counts (``slip_refusal`` has nothing to say)."""
        return self.slip_refusal(at=at, grace=grace) is None

    def closes_at(self, *, grace: timedelta) -> datetime | None:
        """When the clock closes the round (the deadline plus the grace: no slip counts after
        it); None before it opens."""
        return None if self.deadline is None else slips_end(deadline=self.deadline, grace=grace)

    def is_due_to_close(self, *, at: datetime, grace: timedelta) -> bool:
        """Open, its clock running, and ``at`` is past the deadline plus the grace."""
        closes_at = self.closes_at(grace=grace)
        return (
            self.status == Round.Status.OPEN
            and self.paused_remaining is None
            and closes_at is not None
            and at >= closes_at
        )
