from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext

from tournament.categories import age_category_parse, series_parse
from tournament.changes import TOKEN, change_announce, token_digest
from tournament.errors import ApplicationError
from tournament.models import Event, LicenceConfirmation, Player
from tournament.models.player import token_new
from tournament.services.audit import audit_record
from tournament.typography import elided
from tournament.vocabulary import TABLE_MAX, TABLE_MIN, control_character_in, is_noncharacter


def _registration_checked(
    *,
    event: Event,
    name: str,
    licence: str,
    table: int | None,
    player: Player | None = None,
    club: str = "",
    category: str = "",
) -> tuple[str, str]:
    """The name and licence, trimmed, once a registration is sound: a name, texts of one line
    (no control character: a line break would split a SIGLES record), a table number (1 to
    9,999) and a licence that no other player of the event holds."""
    name, licence = name.strip(), licence.strip()
    if not name:
        raise ApplicationError(gettext("A player needs a name."), code="name_required")
    said = {
        "name": gettext("name"),
        "club": gettext("club"),
        "licence": gettext("licence"),
        "category": gettext("category"),
    }
    for field, text in (
        ("name", name),
        ("club", club),
        ("licence", licence),
        ("category", category),
    ):
        control = control_character_in(text)
        if control is not None and is_noncharacter(control):
            raise ApplicationError(
                gettext("The %(field)s holds a non-character (U+%(code)04X), which is not text.")
                % {"field": said[field], "code": ord(control)},
                code="control_character",
                data={"field": field},
            )
        if control is not None:
            raise ApplicationError(
                gettext(
                    "The %(field)s holds a control character (U+%(code)04X): write it on one line."
                )
                % {"field": said[field], "code": ord(control)},
                code="control_character",
                data={"field": field},
            )
    if table is not None and not TABLE_MIN <= table <= TABLE_MAX:
        raise ApplicationError(
            gettext("Table %(table)s is not a table number: tables are 1 to %(max)s.")
            % {"table": table, "max": number_format(TABLE_MAX, force_grouping=True)},
            code="bad_table",
            data={"field": "table"},
        )
    others = Player.objects.filter(event=event)
    if player is not None:
        others = others.exclude(pk=player.pk)
    taken = others.filter(table=table).first() if table is not None else None
    if taken is not None:
        raise ApplicationError(
            gettext("Table %(table)s is already taken by %(name)s in %(event)s.")
            % {"table": table, "name": taken.name, "event": event.name},
            code="table_taken",
        )
    if licence and others.filter(licence=licence).exists():
        raise ApplicationError(
            gettext("Licence %(licence)s is already registered in %(name)s.")
            % {"licence": licence, "name": event.name},
            code="licence_taken",
        )
    return name, licence


def _categories_checked(*, series: int | str | None, age_category: str) -> tuple[int | None, str]:
    """The series (1 to 7) and the FISF age category, or an error saying which is wrong."""
    try:
        return series_parse(series), age_category_parse(age_category)
    except ValueError as exc:
        raise ApplicationError(
            str(exc)[0].upper() + str(exc)[1:] + ".", code="bad_category"
        ) from None


@transaction.atomic
def player_register(
    *,
    event: Event,
    name: str,
    actor: User | None,
    club: str = "",
    category: str = "",
    licence: str = "",
    table: int | None = None,
    series: int | str | None = None,
    age_category: str = "",
) -> Player:
    """Register a player in an event; tables and licences are unique within the event."""
    name, licence = _registration_checked(
        event=event, name=name, licence=licence, table=table, club=club, category=category
    )
    series, age_category = _categories_checked(series=series, age_category=age_category)
    player = Player.objects.create(
        event=event,
        name=name,
        club=club.strip(),
        category=category.strip(),
        licence=licence,
        table=table,
        series=series,
        age_category=age_category,
    )
    audit_record(
        event=event,
        action="tournament.player.registered",
        actor=actor,
        data={"player": player.pk, "name": player.name, "table": table, "licence": licence},
    )
    return player


def _token_forget(player: Player) -> None:
    """Whoever remembers the player's current token (the live poll's cache) forgets it."""
    change_announce(
        event_id=player.event_id,
        what=TOKEN,
        player_id=player.pk,
        data={"token_digest": token_digest(player.token)},
    )


@transaction.atomic
def player_token_reissue(*, player: Player, actor: User | None) -> Player:
    """Give the player a new secret token (a lost or shared QR code); the old one stops working."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    _token_forget(player)
    player.token = token_new()
    player.token_revoked_at = None
    player.save(update_fields=["token", "token_revoked_at"])
    audit_record(
        event=player.event,
        action="tournament.player.token_reissued",
        actor=actor,
        data={"player": player.pk, "name": player.name},
    )
    return player


@transaction.atomic
def player_token_revoke(*, player: Player, actor: User | None) -> Player:
    """Stop the player's secret token (a lost phone, a shared QR code); reissue to let them back."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.token_revoked_at is not None:
        raise ApplicationError(
            elided(gettext("%(name)s's access is already revoked.") % {"name": player.name}),
            code="already_revoked",
        )
    player.token_revoked_at = timezone.now()
    player.save(update_fields=["token_revoked_at"])
    _token_forget(player)
    audit_record(
        event=player.event,
        action="tournament.player.token_revoked",
        actor=actor,
        data={"player": player.pk, "name": player.name},
    )
    return player


@transaction.atomic
def player_update(
    *,
    player: Player,
    actor: User | None,
    name: str,
    club: str = "",
    category: str = "",
    licence: str = "",
    table: int | None = None,
    series: int | str | None = None,
    age_category: str = "",
) -> Player:
    """Change a registration: name, club, category, licence, table (unique within the event),
    series (1 to 7) and age category."""
    name, licence = _registration_checked(
        event=player.event,
        name=name,
        licence=licence,
        table=table,
        player=player,
        club=club,
        category=category,
    )
    series, age_category = _categories_checked(series=series, age_category=age_category)
    before = {
        "name": player.name,
        "club": player.club,
        "category": player.category,
        "licence": player.licence,
        "table": player.table,
        "series": player.series,
        "age_category": player.age_category,
    }
    player.name, player.club, player.category, player.licence, player.table = (
        name,
        club.strip(),
        category.strip(),
        licence,
        table,
    )
    player.series, player.age_category = series, age_category
    fields = ["name", "club", "category", "licence", "table", "series", "age_category"]
    if licence != before["licence"]:  # a licence typed is nobody's confirmation
        player.licence_confirmed, player.licence_confirmed_by = LicenceConfirmation.TYPED, None
        fields += ["licence_confirmed", "licence_confirmed_by"]
    player.save(update_fields=fields)
    audit_record(
        event=player.event,
        action="tournament.player.updated",
        actor=actor,
        data={"player": player.pk, "before": before},
    )
    return player


@transaction.atomic
def player_withdraw(*, player: Player, actor: User | None, reason: str = "") -> Player:
    """The player leaves the event: from now on no slip is taken from their phone or for them
    from an arbiter, and the console no longer waits for them. Their rulings so far stay, so
    the standings keep the points already earned (docs/rules.md, "Withdrawn players")."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.withdrawn_at is not None:
        raise ApplicationError(
            gettext("%(name)s has already withdrawn.") % {"name": player.name},
            code="already_withdrawn",
        )
    player.withdrawn_at = timezone.now()
    player.save(update_fields=["withdrawn_at"])
    audit_record(
        event=player.event,
        action="tournament.player.withdrawn",
        actor=actor,
        data={"player": player.pk, "name": player.name, "reason": reason.strip()[:500]},
    )
    return player


@transaction.atomic
def player_reinstate(*, player: Player, actor: User | None) -> Player:
    """Undo a withdrawal: the player's slips are taken again, as before."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.withdrawn_at is None:
        raise ApplicationError(
            gettext("%(name)s has not withdrawn: nothing to reinstate.") % {"name": player.name},
            code="not_withdrawn",
        )
    since = player.withdrawn_at
    player.withdrawn_at = None
    player.save(update_fields=["withdrawn_at"])
    audit_record(
        event=player.event,
        action="tournament.player.reinstated",
        actor=actor,
        data={"player": player.pk, "name": player.name, "withdrawn_at": since.isoformat()},
    )
    return player


def player_withdrawn_said(player: Player) -> str:
    """What the staff's page says once a player has withdrawn."""
    return gettext("%(name)s has withdrawn: no slip is taken from or for them any more.") % {
        "name": player.name
    }


def player_reinstated_said(player: Player) -> str:
    """What the staff's page says once a withdrawn player is back."""
    return gettext("%(name)s is back in the event: their slips are taken again.") % {
        "name": player.name
    }
