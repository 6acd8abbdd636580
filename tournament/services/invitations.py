"""Invitations: a director makes someone an arbiter (or a co-director) of an event with a
one-time link, as no mail server is assumed; the console shows the link and its QR code.

The link carries the invitation's id and its nonce, signed with the site's key (a changed
character is "tampered"); the database says whether it is still good: not used (it is claimed
by a conditional UPDATE, so two people opening it at once cannot both get the role), not
revoked, not expired. Accepting either creates the account (a username and a password the
site's validators accept) or takes the signed-in person's own, and grants the role.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournament.errors import ApplicationError
from tournament.models import Event, EventRole, Invitation
from tournament.services.audit import audit_record
from tournament.typography import elided

SALT = "tournament.invitation"
DAYS_VALID = 7
MAX_DAYS_VALID = 60

# Why a link cannot be used, for people: its ``code`` is the key.
REFUSALS = {
    "invitation_tampered": gettext_lazy(
        "This invitation link is not valid: it was changed or cut short. "
        "Ask the director for the link again."
    ),
    "invitation_accepted": gettext_lazy(
        "This invitation has already been used: an invitation works once. "
        "Sign in with the account it created, or ask the director for a new one."
    ),
    "invitation_revoked": gettext_lazy(
        "The director has withdrawn this invitation. Ask them for a new one if it was a mistake."
    ),
    "invitation_expired": gettext_lazy(
        "This invitation has expired. Ask the director for a new one."
    ),
}


class InvitationRefused(ApplicationError):
    """An invitation link that cannot be used; ``code`` says why (a key of ``REFUSALS``)."""


def invitation_token(invitation: Invitation) -> str:
    """The secret of the invitation's link: its id and nonce, signed."""
    return signing.Signer(salt=SALT).sign_object({"i": invitation.pk, "n": invitation.nonce})


def _refuse(code: str, invitation: Invitation | None = None) -> InvitationRefused:
    data: dict[str, object] = {}
    if invitation is not None:
        data["event"] = invitation.event.name
    return InvitationRefused(str(REFUSALS[code]), code=code, data=data)


def invitation_check(*, token: str, at: datetime | None = None) -> Invitation:
    """The pending invitation of the link ``token``; ``InvitationRefused`` saying why not."""
    try:
        content = signing.Signer(salt=SALT).unsign_object(token)
        pk, nonce = int(content["i"]), str(content["n"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise _refuse("invitation_tampered") from None
    invitation = Invitation.objects.select_related("event", "created_by").filter(pk=pk).first()
    if invitation is None or invitation.nonce != nonce:
        raise _refuse("invitation_tampered")
    state = invitation.state(at=at or timezone.now())
    if state != "pending":
        raise _refuse(f"invitation_{state}", invitation)
    return invitation


@transaction.atomic
def invitation_create(
    *, event: Event, name: str, role: str, actor: User | None, days: int = DAYS_VALID
) -> Invitation:
    """Invite the person ``name`` to be ``role`` (director or arbiter) of the event; the link
    (``invitation_token``) works once, for ``days`` days."""
    name = name.strip()
    if not name:
        raise ApplicationError(
            gettext("Say who the invitation is for (a name)."),
            code="name_required",
            data={"field": "name"},
        )
    if len(name) > 120:
        raise ApplicationError(
            gettext("A name has at most 120 characters."),
            code="name_too_long",
            data={"field": "name"},
        )
    if role not in EventRole.Role.values:
        raise ApplicationError(
            gettext("Unknown role '%(role)s': choose director or arbiter.") % {"role": role},
            code="unknown_role",
            data={"field": "role"},
        )
    if not 1 <= days <= MAX_DAYS_VALID:
        raise ApplicationError(
            gettext("An invitation lasts from 1 to %(max_days_valid)s days.")
            % {"max_days_valid": MAX_DAYS_VALID},
            code="bad_days",
            data={"field": "days"},
        )
    now = timezone.now()
    invitation = Invitation.objects.create(
        event=event,
        name=name,
        role=role,
        created_by=actor,
        created_at=now,
        expires_at=now + timedelta(days=days),
    )
    audit_record(
        event=event,
        action="tournament.invitation.created",
        actor=actor,
        data={"invitation": invitation.pk, "name": name, "role": role, "days": days},
    )
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, actor: User | None) -> Invitation:
    """Withdraw a pending invitation: its link stops working."""
    now = timezone.now()
    claimed = Invitation.objects.filter(
        pk=invitation.pk, accepted_at__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=now)
    invitation.refresh_from_db()
    if not claimed:
        state = invitation.state(at=now)
        raise ApplicationError(
            elided(
                gettext("The invitation for %(name)s is already %(state)s: nothing to revoke.")
                % {"name": invitation.name, "state": state}
            ),
            code=f"invitation_{state}",
        )
    audit_record(
        event=invitation.event,
        action="tournament.invitation.revoked",
        actor=actor,
        data={"invitation": invitation.pk, "name": invitation.name, "role": invitation.role},
    )
    return invitation


def _claim(invitation: Invitation, user: User, at: datetime) -> EventRole:
    """Mark the invitation used by ``user`` (one UPDATE that only a pending invitation passes)
    and grant the role; a director invited as arbiter stays director."""
    claimed = Invitation.objects.filter(
        pk=invitation.pk, accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=at
    ).update(accepted_at=at, accepted_by=user)
    if not claimed:
        invitation.refresh_from_db()
        raise _refuse(f"invitation_{invitation.state(at=at)}", invitation)
    held = EventRole.objects.select_for_update().filter(user=user, event=invitation.event).first()
    if held is None:
        held = EventRole.objects.create(user=user, event=invitation.event, role=invitation.role)
        before = None
    else:
        before = held.role
        if held.role != EventRole.Role.DIRECTOR:
            held.role = invitation.role
            held.save(update_fields=["role"])
    audit_record(
        event=invitation.event,
        action="tournament.invitation.accepted",
        actor=user,
        data={
            "invitation": invitation.pk,
            "name": invitation.name,
            "user": user.get_username(),
            "role": held.role,
            "before": before,
        },
    )
    return held


@transaction.atomic
def invitation_accept(
    *, invitation: Invitation, user: User, at: datetime | None = None
) -> EventRole:
    """A signed-in person takes the invitation onto their own account."""
    return _claim(invitation, user, at or timezone.now())


@transaction.atomic
def invitation_accept_new_account(
    *, invitation: Invitation, username: str, password: str, at: datetime | None = None
) -> EventRole:
    """Create the account ``username`` with ``password`` (the site's password validators
    apply) and give it the invitation's role. Nothing is created when anything is refused."""
    username = username.strip()
    UserModel = get_user_model()
    if not username:
        raise ApplicationError(
            gettext("Choose a username."), code="username_required", data={"field": "username"}
        )
    try:
        UserModel._meta.get_field("username").run_validators(username)
    except ValidationError as exc:
        raise ApplicationError(
            " ".join(exc.messages), code="bad_username", data={"field": "username"}
        ) from None
    if UserModel.objects.filter(username__iexact=username).exists():
        raise ApplicationError(
            gettext(
                "The username '%(username)s' is taken: choose another, or sign in if it is yours."
            )
            % {"username": username},
            code="username_taken",
            data={"field": "username"},
        )
    user = UserModel(username=username, first_name=invitation.name[:150])
    try:
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise ApplicationError(
            " ".join(exc.messages), code="bad_password", data={"field": "password"}
        ) from None
    user.set_password(password)
    user.save()
    return _claim(invitation, user, at or timezone.now())
