from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, User
from django.db import transaction
from django.utils.translation import gettext

from tournament.errors import ApplicationError
from tournament.models import EventRole
from tournament.services.audit import audit_record


@transaction.atomic
def director_user_ensure(*, username: str, password: str) -> tuple[AbstractUser, bool]:
    """The demo director account (a superuser): created with ``password`` if missing.

    An existing account is left as it is (its password may have been changed on purpose).
    Returns the user and whether it was created.
    """
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user, False
    user = User.objects.create_superuser(username=username, email="", password=password)
    return user, True


# A generated password: three groups of four, from letters and digits no one misreads.
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def password_generate() -> str:
    """A random password to read off a screen and type on a phone (59 bits): ``k7pm-x3qa-9fne``."""
    groups = ("".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(4)) for _ in range(3))
    return "-".join(groups)


@transaction.atomic
def known_password_replace(*, username: str, known: str) -> str | None:
    """While ``known`` (the documented demo password) opens ``username``'s account, give it a
    new random password and return it; None when the account is missing or was changed."""
    User = get_user_model()
    user = User.objects.select_for_update().filter(username=username).first()
    if user is None or not user.check_password(known):
        return None
    password = password_generate()
    user.set_password(password)
    user.save(update_fields=["password"])
    return password


@transaction.atomic
def event_role_remove(*, role: EventRole, actor: User | None) -> EventRole:
    """Take a director's or an arbiter's role in an event away. An event keeps at least one
    director: its last one (whoever removes it, themselves included) stays."""
    role = EventRole.objects.select_for_update().select_related("user", "event").get(pk=role.pk)
    event = role.event
    if role.role == EventRole.Role.DIRECTOR:
        directors = EventRole.objects.select_for_update().filter(
            event=event, role=EventRole.Role.DIRECTOR
        )
        if directors.count() <= 1:
            yours = actor is not None and actor.pk == role.user_id
            message = (
                gettext(
                    "You are the last director of %(event)s: invite another director "
                    "before removing this role."
                )
                if yours
                else gettext(
                    "%(username)s is the last director of %(event)s: invite another director "
                    "before removing this role."
                )
            )
            raise ApplicationError(
                message % {"username": role.user.get_username(), "event": event.name},
                code="last_director",
            )
    removed = {"user": role.user.get_username(), "role": role.role}
    role.delete()
    audit_record(event=event, action="tournament.event.role_removed", actor=actor, data=removed)
    return role


def event_role_removed_said(role: EventRole) -> str:
    """What the console and the API say once a role is taken away (the one sentence)."""
    return gettext("%(user)s is no longer %(role)s.") % {
        "user": role.user.get_username(),
        "role": str(role.get_role_display()).lower(),
    }
