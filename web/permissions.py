"""Who may do what in an event: docs/design.md's "Roles" table, checked on every route.

| may | director (a superuser directs every event) | arbiter | anyone else signed in | player |
|---|---|---|---|---|
| create/edit the event, policy, players, import players | yes | no | no | no |
| see, revoke and reissue player tokens and QR codes | yes | no | no | own only |
| draw/enter racks, open, pause, extend, close, publish | yes | yes | no | no |
| enter slips for players, amend rulings (with a reason) | yes | yes | no | no |
| invite arbiters, withdraw players, close the event | yes | no | no | no |
| see standings and exports | yes | yes | no | their own event's, on the phone |

Every view declares who may call it, with one of these (each leaves its rule on the view as
``access``, which ``tests/web/test_roles.py`` reads for every URL pattern):

- ``event_roles(DIRECTOR, ...)``: a page of one event (the ``slug`` URL argument): signed in,
  else the login page; no role in the event is a 404 (as if it did not exist); another role a
  403. The API views use ``EventRolePermission`` with the same rule (``event_roles`` on the
  view class).
- ``signed_in``: any account (the event list shows only the events it has a role in).
- ``public``: anyone (the join link carries its own secret; the player page checks it).

Both go through ``event_access``, the one check (and the director API's calls through it
directly); an action's own role (``web.actions``) is ``role_require``. Each refusal is written
once here (``tests/web/test_one_role_check.py``): no role is ``NO_SUCH_EVENT`` (404, the live
stream's too), the wrong role ``This needs the ... role in <event>.`` (403).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponseBase
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request

from tournament.models import Event, EventRole
from tournament.selectors import event_get_visible

DIRECTOR = EventRole.Role.DIRECTOR
ARBITER = EventRole.Role.ARBITER
STAFF = (DIRECTOR, ARBITER)
# The answer to an event the account has no role in, the same as to no event at all (the live
# stream's, ``web.live.asgi``, too).
NO_SUCH_EVENT = gettext_lazy("No such event, or you have no role in it.")

View = TypeVar("View", bound=Callable[..., HttpResponseBase])


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


def _role_refused(event: Event, roles: tuple[str, ...]) -> PermissionDenied:
    """The one refusal of a role that does not do (403), in the console's pages and the API."""
    wanted = gettext(" or ").join(str(EventRole.Role(r).label).lower() for r in roles)
    return PermissionDenied(
        gettext("This needs the %(role)s role in %(event)s.")
        % {"role": wanted, "event": event.name}
    )


def _no_such_event() -> Http404:
    """The one refusal of an event the account has no role in (404, as if it did not exist)."""
    return Http404(str(NO_SUCH_EVENT))


def role_require(user: User | AnonymousUser, event: Event, *roles: str) -> str:
    """The user's role in the event if it is one of ``roles``; PermissionDenied otherwise."""
    role = event_role(user, event)
    if role not in roles:
        raise _role_refused(event, roles)
    return role


def event_visible_or_404(request: HttpRequest, slug: str) -> Event:
    """The event ``slug`` if the signed-in account may see it (a superuser, or an account with a
    role in it), with its players and games; a 404 otherwise, as if it did not exist."""
    event = event_get_visible(user=request.user, slug=slug)
    if event is None:
        raise _no_such_event()
    return event


def event_time_zone_activate(event: Event) -> None:
    """Show times in ``event``'s time zone for the rest of this request: its console pages, its
    screen and phones, the API on it (``web.middleware.TimeZoneMiddleware`` resets it)."""
    timezone.activate(zoneinfo.ZoneInfo(event.time_zone))


def event_access(user: User | AnonymousUser | Any, slug: str, roles: tuple[str, ...]) -> Event:
    """The event ``slug`` if the user holds one of ``roles`` in it; Http404 when the event does
    not exist or the user has no role in it, PermissionDenied when the role does not do. The
    one role check of an event's pages and API calls (``event_roles``, ``EventRolePermission``,
    the director API's own). From then on the request shows times in the event's time zone."""
    event = Event.objects.filter(slug=slug).first()
    role = None if event is None else event_role(user, event)
    if event is None or role is None:
        raise _no_such_event()
    if role not in roles:
        raise _role_refused(event, roles)
    event_time_zone_activate(event)
    return event


def event_roles(*roles: str) -> Callable[[View], View]:
    """View decorator: signed in (else the login page) and one of ``roles`` in the event of the
    ``slug`` URL argument (``event_access``)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            event_access(request.user, str(kwargs.get("slug", "")), roles)
            return view(request, *args, **kwargs)

        guarded = cast(View, login_required(checked))
        guarded.access = roles  # type: ignore[attr-defined]
        return guarded

    return decorate


def signed_in(view: View) -> View:
    """View decorator: any signed-in account (else the login page)."""
    guarded = login_required(view)
    guarded.access = "signed in"  # type: ignore[attr-defined]
    return guarded


def public(view: View) -> View:
    """View decorator: anyone; the view checks its own secret (a player's token)."""
    view.access = "public"  # type: ignore[attr-defined]
    return view


class SignedIn(IsAuthenticated):
    """The API's ``signed_in``: any account (what it sees is what it has a role in)."""


class RoomKeyHolder(BasePermission):
    """The multiplex's calls (``web.api.multiplex``): a remote room's installation, signed in
    by its room key (``RoomKeyAuthentication``), never an account or a phone."""

    def has_permission(self, request: Request, view: Any) -> bool:
        from web.authentication import RoomPrincipal

        return isinstance(request.user, RoomPrincipal)


class EventRolePermission(BasePermission):
    """The API's ``event_roles``: the view class names its roles in ``event_roles``."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not request.user or not request.user.is_authenticated:
            return False
        roles: tuple[str, ...] = view.event_roles
        event_access(request.user, str(view.kwargs.get("slug", "")), roles)
        return True
