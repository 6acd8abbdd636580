"""Who may do what in an event: superusers and an event's directors run it; its arbiters enter
slips (they may not publish or amend). Nothing is reachable without a login."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied

from tournament.models import Event, EventRole

DIRECTOR = EventRole.Role.DIRECTOR
ARBITER = EventRole.Role.ARBITER


def event_role(user: AbstractBaseUser | AnonymousUser, event: Event) -> str | None:
    """``director``, ``arbiter`` or None. A superuser directs every event."""
    if not user.is_authenticated:
        return None
    if getattr(user, "is_superuser", False):
        return DIRECTOR
    return EventRole.objects.filter(user=user, event=event).values_list("role", flat=True).first()


def role_require(user: AbstractBaseUser | AnonymousUser, event: Event, *roles: str) -> str:
    """The user's role in the event if it is one of ``roles``; PermissionDenied otherwise."""
    role = event_role(user, event)
    if role not in roles:
        wanted = " or ".join(roles)
        raise PermissionDenied(f"This needs the {wanted} role in {event.name}.")
    return role
