"""Who may do what in an event: superusers and an event's directors run it; its arbiters enter
slips (they may not publish or amend). Nothing is reachable without a login."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from tournament.models import Event, EventRole
from tournament.selectors import event_get_visible

DIRECTOR = EventRole.Role.DIRECTOR
ARBITER = EventRole.Role.ARBITER


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a ``login_required`` view: its user is signed in. An annotation only:
    Django passes its own request, which the decorator has checked."""

    user: User


def event_role(user: User | AnonymousUser, event: Event) -> str | None:
    """``director``, ``arbiter`` or None. A superuser directs every event."""
    if not user.is_authenticated:
        return None
    if getattr(user, "is_superuser", False):
        return DIRECTOR
    return EventRole.objects.filter(user=user, event=event).values_list("role", flat=True).first()


def role_require(user: User | AnonymousUser, event: Event, *roles: str) -> str:
    """The user's role in the event if it is one of ``roles``; PermissionDenied otherwise."""
    role = event_role(user, event)
    if role not in roles:
        wanted = " or ".join(roles)
        raise PermissionDenied(f"This needs the {wanted} role in {event.name}.")
    return role


def event_visible_or_404(request: HttpRequest, slug: str) -> Event:
    """The event ``slug`` if the signed-in account may see it (a superuser, or an account with a
    role in it), with its players and games; a 404 otherwise, as if it did not exist."""
    event = event_get_visible(user=request.user, slug=slug)
    if event is None:
        raise Http404("No such event, or you have no role in it.")
    return event
