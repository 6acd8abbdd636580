"""The Django admin, for superusers only: browse everything, fix events, players and games; the
rounds, slips and rulings are read-only (they change through the arbiter's services, audited
and recomputed: the console and the API), and so are the audit log and the word lists.
Everyone else works from the console (accounts, roles, players: ``web.console.staff``); a
staff account that is not a superuser gets the admin's login page, as anyone else.

Changes made here are director actions too, so saving an event, player or game appends an
``web.admin.*`` audit entry.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest

from tournament.models import (
    AuditEntry,
    Event,
    EventRole,
    Game,
    Player,
    Round,
    Ruling,
    Submission,
    WordList,
)
from tournament.services import audit_record, player_token_reissue


def superuser_only(request: HttpRequest) -> bool:
    """The admin site's permission: an active superuser (Django's own asks only for staff)."""
    user = request.user
    return bool(user.is_active and user.is_superuser)


admin.site.has_permission = superuser_only  # type: ignore[method-assign]


class AuditedAdmin(admin.ModelAdmin):
    """Appends an audit entry for every add or change made through the admin."""

    def event_of(self, obj: Any) -> Event:
        event: Event = obj.event  # a Player or a Game (EventAdmin overrides this)
        return event

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        name = obj._meta.model_name
        audit_record(
            event=self.event_of(obj),
            action=f"web.admin.{name}_{'changed' if change else 'added'}",
            actor=request.user,
            data={"id": obj.pk, "fields": sorted(form.changed_data)},
        )


class EventRoleInline(admin.StackedInline):
    """Stacked, not tabular: each field of a role with its own label (a tabular inline's fields
    are named only by their column's header, which no screen reader ties to them: WCAG 1.3.1,
    4.1.2, found by axe-core on the event's form)."""

    model = EventRole
    extra = 0
    autocomplete_fields = ["user"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ["number", "source", "seed", "status"]
    readonly_fields = ["number", "source", "seed", "status"]
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # games are numbered by the game_create service


@admin.register(Event)
class EventAdmin(AuditedAdmin):
    list_display = ["name", "starts_on", "venue", "status", "tile_set", "lexicon", "round_seconds"]
    list_filter = ["status", "tile_set", "board_layout", "starts_on"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "starts_on"
    inlines = [EventRoleInline, GameInline]
    fieldsets = [
        (None, {"fields": ["name", "slug", "starts_on", "venue", "status"]}),
        ("Game", {"fields": ["tile_set", "lexicon", "board_layout"]}),
        (
            "Clock",
            {"fields": ["round_seconds", "grace_seconds", "warning_seconds"]},
        ),
        (
            "Sanctions and bonuses",
            {
                "fields": [
                    "warnings_free",
                    "warning_penalty",
                    "reference_rule_2016",
                    "reference_penalty",
                    "solo_bonus",
                    "solo_min_players",
                ]
            },
        ),
    ]

    def event_of(self, obj: Event) -> Event:
        return obj


@admin.register(Player)
class PlayerAdmin(AuditedAdmin):
    list_display = ["name", "event", "club", "category", "licence", "table", "token_active"]
    list_filter = ["event", "category", "club"]
    search_fields = ["name", "club", "licence"]
    list_select_related = ["event"]
    readonly_fields = ["token", "created_at", "licence_confirmed_by"]
    actions = ["reissue_tokens"]

    @admin.display(boolean=True, description="token active")
    def token_active(self, obj: Player) -> bool:
        return obj.token_is_active

    @admin.action(description="Reissue the secret token (old QR codes stop working)")
    def reissue_tokens(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        user = request.user
        if not user.is_authenticated:  # the admin serves signed-in staff only
            raise PermissionDenied
        for player in queryset:
            player_token_reissue(player=player, actor=user)
        self.message_user(request, f"{queryset.count()} token(s) reissued.", messages.SUCCESS)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the admin shows but never adds, changes or deletes."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


ROUND_FIELDS = ("number", "rack", "status", "deadline", "played_ref", "played_word", "played_score")


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ROUND_FIELDS
    readonly_fields = ROUND_FIELDS
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # rounds are drawn by the arbiter's services


@admin.register(Game)
class GameAdmin(AuditedAdmin):
    list_display = ["__str__", "event", "status", "source", "seed", "tile_set", "lexicon"]
    list_filter = ["status", "source", "tile_set", "event"]
    search_fields = ["event__name"]
    list_select_related = ["event"]
    readonly_fields = ["event", "number", "created_at"]
    inlines = [RoundInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # use the game_create service (console, or the event page later)


SUBMISSION_FIELDS = (
    "player",
    "word",
    "ref",
    "announced_score",
    "received_at",
    "source",
    "is_current",
)


class SubmissionInline(admin.TabularInline):
    model = Submission
    extra = 0
    fields = SUBMISSION_FIELDS
    readonly_fields = SUBMISSION_FIELDS
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    """Read-only: a round changes through the arbiter's services (draw, clock, annul, publish),
    each audited, with what follows from it recomputed."""

    list_display = [
        "__str__",
        "game",
        "status",
        "deadline",
        "played_ref",
        "played_word",
        "played_score",
    ]
    list_filter = ["status", "game__event"]
    search_fields = ["rack", "played_word", "game__event__name"]
    list_select_related = ["game__event"]
    inlines = [SubmissionInline]


@admin.register(Submission)
class SubmissionAdmin(ReadOnlyAdmin):
    """Read-only: slips are kept as handed in; an arbiter's entry or correction goes through
    the console (``slip_submit``, ``ruling_slip_enter``), audited and ruled."""

    list_display = [
        "player",
        "round",
        "word",
        "ref",
        "announced_score",
        "received_at",
        "source",
        "is_current",
    ]
    list_filter = ["source", "is_current", "round__game__event"]
    search_fields = ["word", "player__name"]
    list_select_related = ["player", "round"]
    raw_id_fields = ["round", "player", "entered_by"]


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin):
    """Read-only: an amendment goes through ``ruling_amend`` (the console's, the API's), which
    audits it and recomputes the ranks, solos and warnings' penalties that follow from it."""

    list_display = [
        "player",
        "round",
        "code",
        "points",
        "warning",
        "penalty",
        "solo",
        "rank",
        "amended",
    ]
    list_filter = ["code", "warning", "amended", "found_top"]
    search_fields = ["player__name", "reason"]
    list_select_related = ["player", "round"]
    raw_id_fields = ["round", "player", "submission"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Read-only: the log is append-only."""

    list_display = ["at", "action", "event", "actor_name", "game", "round"]
    list_filter = ["action", "event"]
    search_fields = ["action", "actor_name", "event__name"]
    list_select_related = ["event", "game", "round"]
    date_hierarchy = "at"


@admin.register(WordList)
class WordListAdmin(ReadOnlyAdmin):
    """Read-only: a list is uploaded from an event's set-up and compiled by a worker; events name
    it (``upload:<id>``), so it is never deleted under them."""

    list_display = ["name", "tile_set", "words", "status", "progress", "uploaded_by", "uploaded_at"]
    list_filter = ["status", "tile_set"]
    search_fields = ["name", "sha256"]
