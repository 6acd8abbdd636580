from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from engine.lists import GRAMMALECTE_FR
from tournament.errors import ApplicationError
from tournament.models import Event, EventRole, Round, WordList
from tournament.models.choices import TileSet
from tournament.selectors import host_of
from tournament.services.audit import audit_record
from tournament.services.word_lists import BUILTIN_PREFIX, word_list_builtin

RESERVED_SLUGS = {"new"}  # /events/new/ is the page that creates an event


def _slug_free(base: str) -> str:
    base = (slugify(base) or "event")[:70]
    if base in RESERVED_SLUGS:
        base = f"{base}-event"
    slug, n = base, 1
    while Event.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


POLICY_FIELDS = (
    "rulebook",
    "round_seconds",
    "grace_seconds",
    "warning_seconds",
    "warnings_free",
    "warning_penalty",
    "reference_rule_2016",
    "reference_penalty",
    "solo_bonus",
    "solo_min_players",
    "publish_after_seconds",
    "tie_break",
    "tile_set",
    "lexicon",
    "board_layout",
    "language",
    "time_zone",
    "public_results",
    "public_initials",
    "training_open",
)
# The settings of the policy that say who sees what beyond the room (rules.md, "Training" and
# "Results for the audience"), not how the room is ruled: the workbooks leave them out.
AUDIENCE_FIELDS = ("public_results", "public_initials", "training_open")


# The rules every room plays by, set on the host: the tiles, the word list and the board (the
# games are the same), the time per round, and every number of the rulings.
SHARED_RULES = (
    "rulebook",
    "tile_set",
    "lexicon",
    "board_layout",
    "round_seconds",
    "warnings_free",
    "warning_penalty",
    "reference_rule_2016",
    "reference_penalty",
    "solo_bonus",
    "solo_min_players",
)


def _shared_rules_guard(event: Event, values: dict[str, Any]) -> None:
    """A room's shared rules are its host's: changing one on the room is refused (the same
    value, as a form sends every rule, is no change)."""
    shared = sorted(k for k in SHARED_RULES if k in values and values[k] != getattr(event, k))
    if event.host_id is not None and shared:
        raise ApplicationError(
            gettext(
                "%(room)s is a room of %(host)s and plays by its rules (%(rules)s): change "
                "them on %(host)s."
            )
            % {"room": event.name, "host": host_of(event).name, "rules": ", ".join(shared)},
            code="room_rules_are_the_hosts",
        )


def _rooms_rules_follow(host: Event, values: dict[str, Any]) -> None:
    """The host's shared rules, changed: every room takes them too."""
    shared = {k: v for k, v in values.items() if k in SHARED_RULES}
    if shared:
        Event.objects.filter(host=host).update(**shared)


def _rulebook_guard(event: Event, values: dict[str, Any]) -> None:
    """An event keeps the rulebook its rounds were ruled by: another is refused once one of its
    rounds (or one of its rooms') is scored, so that no result already given changes."""
    rulebook = values.get("rulebook")
    if rulebook is None or rulebook == event.rulebook:
        return
    events = [event.pk, *Event.objects.filter(host=event).values_list("pk", flat=True)]
    scored = Round.objects.filter(
        game__event_id__in=events,
        status__in=(Round.Status.SCORED, Round.Status.PUBLISHED),
    )
    if scored.exists():
        raise ApplicationError(
            gettext(
                "%(event)s has rounds already ruled by %(rulebook)s: it keeps that rulebook, "
                "so that no result already given changes."
            )
            % {"event": event.name, "rulebook": event.get_rulebook_display()},
            code="rulebook_locked",
            data={"field": "rulebook"},
        )


# The tiles of the lists on the server whose language is known: an event's tiles must agree.
SERVER_LIST_TILES = {"enable": "en"}


def _policy_checked(values: dict[str, Any], actor: User | None) -> dict[str, Any]:
    """The policy values, once they name only rules of the policy and a known lexicon. A list
    offered out of the box (``builtin:grammalecte-fr``) is made ready to compile and named by
    its row (``upload:<id>``)."""
    unknown = set(values) - set(POLICY_FIELDS)
    if unknown:
        raise ApplicationError(
            gettext("Not a rule of the policy: %(rules)s.") % {"rules": ", ".join(sorted(unknown))},
            code="unknown_rule",
        )
    lexicon = values.get("lexicon")
    if isinstance(lexicon, str) and lexicon.startswith(BUILTIN_PREFIX):
        values["lexicon"] = word_list_builtin(key=lexicon, actor=actor).key
    elif lexicon is not None and lexicon not in settings.LEXICONS:
        list_id = WordList.id_of(lexicon)
        if list_id is None or not WordList.objects.filter(pk=list_id).exists():
            known = ", ".join(sorted(settings.LEXICONS))
            raise ApplicationError(
                gettext(
                    "Unknown lexicon '%(lexicon)s': known lexicons are %(known)s, or a word "
                    "list uploaded in the set-up."
                )
                % {"lexicon": values["lexicon"], "known": known},
                code="unknown_lexicon",
            )
    return values


def _lexicon_fits(event: Event) -> None:
    """A list is for one tile set (an uploaded list was checked against it, ENABLE is English,
    the open French list French): the event must play that set, never silently another."""
    list_id = WordList.id_of(event.lexicon)
    word_list = None if list_id is None else WordList.objects.filter(pk=list_id).first()
    if word_list is not None and word_list.tile_set != event.tile_set:
        raise ApplicationError(
            gettext(
                "The word list %(name)s was checked against the %(list_tiles)s; this event "
                "plays the %(event_tiles)s: upload the list again for these tiles, or choose "
                "another."
            )
            % {
                "name": word_list.name,
                "list_tiles": word_list.get_tile_set_display(),
                "event_tiles": event.get_tile_set_display(),
            },
            code="lexicon_tiles_mismatch",
            data={"field": "lexicon"},
        )
    tiles = SERVER_LIST_TILES.get(event.lexicon)
    if tiles is not None and tiles != event.tile_set:
        raise ApplicationError(
            gettext(
                "The word list %(name)s is for the %(list_tiles)s; this event plays the "
                "%(event_tiles)s: choose a list for these tiles (for French tiles, the open "
                "French list %(french)s, which is not the ODS, or your club's ODS uploaded "
                "in the set-up)."
            )
            % {
                "name": event.lexicon,
                "list_tiles": TileSet(tiles).label,
                "event_tiles": event.get_tile_set_display(),
                "french": GRAMMALECTE_FR.name,
            },
            code="lexicon_tiles_mismatch",
            data={"field": "lexicon"},
        )


def _event_valid(event: Event) -> None:
    """The event's own checks (its fields and database constraints), as one readable message."""
    try:
        event.full_clean()
    except ValidationError as exc:
        raise ApplicationError("; ".join(exc.messages), code="invalid") from None


@transaction.atomic
def event_create(
    *,
    name: str,
    starts_on: dt.date,
    actor: User | None,
    venue: str = "",
    slug: str | None = None,
    **policy: Any,
) -> Event:
    """Create an event; ``policy`` sets any rule of its policy (``POLICY_FIELDS``), the rest
    keep their defaults. Its creator becomes its director."""
    name = name.strip()
    if not name:
        raise ApplicationError(gettext("An event needs a name."), code="name_required")
    _policy_checked(policy, actor)
    if slug is not None and Event.objects.filter(slug=slug).exists():
        raise ApplicationError(
            gettext("The address '%(slug)s' is taken by another event.") % {"slug": slug},
            code="slug_taken",
        )
    event = Event(
        name=name,
        slug=slug or _slug_free(name),
        starts_on=starts_on,
        venue=venue.strip(),
        **policy,
    )
    _event_valid(event)
    _lexicon_fits(event)
    event.save()
    if actor is not None:
        EventRole.objects.create(user=actor, event=event, role=EventRole.Role.DIRECTOR)
    audit_record(
        event=event,
        action="tournament.event.created",
        actor=actor,
        data={
            "name": event.name,
            "slug": event.slug,
            "starts_on": starts_on.isoformat(),
            "policy": {k: getattr(event, k) for k in POLICY_FIELDS},
        },
    )
    return event


@transaction.atomic
def event_policy_update(*, event: Event, actor: User | None, **values: Any) -> Event:
    """Change the event's rules policy (round time, grace, warnings, penalties, solo, tiles,
    lexicon, board). Games already created keep the tiles, lexicon and board they started with."""
    _policy_checked(values, actor)
    event = Event.objects.select_for_update().get(pk=event.pk)
    _shared_rules_guard(event, values)
    _rulebook_guard(event, values)
    before = {k: getattr(event, k) for k in values}
    for key, value in values.items():
        setattr(event, key, value)
    _event_valid(event)
    _lexicon_fits(event)
    event.save()
    _rooms_rules_follow(event, values)
    changed = {k: {"from": before[k], "to": values[k]} for k in values if before[k] != values[k]}
    audit_record(event=event, action="tournament.event.policy_changed", actor=actor, data=changed)
    return event


@transaction.atomic
def event_role_grant(*, event: Event, username: str, role: str, actor: User | None) -> EventRole:
    """Make an existing account a director or an arbiter of the event."""
    if role not in EventRole.Role.values:
        raise ApplicationError(
            gettext("Unknown role '%(role)s': choose director or arbiter.") % {"role": role},
            code="unknown_role",
        )
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None:
        raise ApplicationError(
            gettext(
                "No account is called '%(username)s': invite the person from the event's staff "
                "page (a one-time link) instead."
            )
            % {"username": username.strip()},
            code="no_such_account",
        )
    granted, _ = EventRole.objects.update_or_create(user=user, event=event, defaults={"role": role})
    audit_record(
        event=event,
        action="tournament.event.role_granted",
        actor=actor,
        data={"user": user.get_username(), "role": role},
    )
    return granted
