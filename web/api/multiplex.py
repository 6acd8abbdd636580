"""A multiplex over HTTPS (docs/design.md, "Multiplex"; the protocol: docs/interchange.md, "7.
Multiplex").

The remote installation's calls, authenticated by the room key (``Authorization: Room <key>``):
``GET /api/v1/multiplex/feed?after=<cursor>`` (the host's rounds), ``POST
/api/v1/multiplex/results`` (one round's rulings). The directors' calls: the host's director
issues and revokes a remote room's key (``/events/<room>/room-key``); the remote director links
an event to a host (``/events/<slug>/multiplex``) and reads what it waits for.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbiter.services.multiplex import (
    multiplex_feed,
    room_key_issue,
    room_key_revoke,
    room_round_accept,
)
from arbiter.services.multiplex_remote import link_create, link_status
from tournament.errors import ApplicationError, NotFound
from tournament.models import MultiplexLink, RoomKey
from web.api.director import _ERRORS, _event, _form_data, _Object
from web.api.throttling import RoomCallThrottle
from web.authentication import RoomKeyAuthentication, RoomPrincipal
from web.permissions import DIRECTOR, STAFF, RoomKeyHolder, SignedIn

# How a refusal of the room's calls reads over HTTP: its code picks the status (400 otherwise).
REFUSAL_STATUS = {
    "unknown_room_key": status.HTTP_401_UNAUTHORIZED,
    "room_key_revoked": status.HTTP_401_UNAUTHORIZED,
    "event_closed": status.HTTP_409_CONFLICT,
    "version_conflict": status.HTTP_409_CONFLICT,
    "round_unknown": status.HTTP_409_CONFLICT,
    "player_conflicts": status.HTTP_409_CONFLICT,
    "bad_message": status.HTTP_400_BAD_REQUEST,
    "too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
}


def _refused(exc: ApplicationError) -> Response:
    return Response({"detail": exc.message, **exc.data}, status=REFUSAL_STATUS.get(exc.code, 400))


def _key(request: Request) -> RoomKey:
    principal = request.user
    assert isinstance(principal, RoomPrincipal)  # RoomKeyAuthentication's, or refused
    return principal.key


class _RoomCall(APIView):
    authentication_classes = [RoomKeyAuthentication]
    permission_classes = [RoomKeyHolder]  # the key, checked by its authentication
    throttle_classes: list[Any] = []  # RoomCallThrottle, in ``initial``: before the key

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        throttle = RoomCallThrottle()
        if not throttle.allow_request(request, self):
            self.throttled(request, throttle.wait() or 1.0)
        super().initial(request, *args, **kwargs)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ApplicationError):
            return _refused(exc)
        return super().handle_exception(exc)


class MultiplexFeedView(_RoomCall):
    @extend_schema(
        operation_id="multiplex_feed",
        summary="The host's rounds for a remote room, after a cursor (room key)",
        parameters=[
            OpenApiParameter("after", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False),
            OpenApiParameter("limit", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False),
        ],
        responses={200: _Object, **_ERRORS},
    )
    def get(self, request: Request) -> Response:
        try:
            after = int(request.query_params.get("after", "0"))
            limit = int(request.query_params.get("limit", "200"))
        except ValueError:
            raise ApplicationError(
                gettext("after and limit are whole numbers."), code="bad_cursor"
            ) from None
        if after < 0 or not 1 <= limit <= 200:
            raise ApplicationError(
                gettext("after is 0 or more, limit from 1 to 200."), code="bad_cursor"
            )
        return Response(multiplex_feed(key=_key(request), after=after, limit=limit))


class MultiplexResultsView(_RoomCall):
    parser_classes: list[Any] = []  # the body is read as it came: its SHA-256 is the receipt's

    @extend_schema(
        operation_id="multiplex_results",
        summary="One round's rulings of the key's room, idempotent by (room, round, version)",
        request=_Object,
        responses={200: _Object, **_ERRORS},
    )
    def post(self, request: Request) -> Response:
        receipt = room_round_accept(key=_key(request), raw=request.body)
        return Response(receipt.as_json())


class RoomKeyView(APIView):
    """The host's director: a remote room's key, issued (the key is shown once) or revoked."""

    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call

    @extend_schema(
        operation_id="room_key_issue",
        summary="A new key for a remote room (the host's directors); the old one is revoked",
        request=None,
        responses={201: _Object, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, room = _event(request, slug, (DIRECTOR,))
        stored, key = room_key_issue(room=room, actor=user)
        return Response(
            {"room": room.slug, "key": key, "hint": stored.hint}, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        operation_id="room_key_revoke",
        summary="Revoke a remote room's key (the host's directors)",
        request=None,
        responses={200: _Object, **_ERRORS},
    )
    def delete(self, request: Request, slug: str) -> Response:
        user, room = _event(request, slug, (DIRECTOR,))
        return Response({"room": room.slug, "revoked": room_key_revoke(room=room, actor=user)})


def _link_json(link: MultiplexLink) -> dict[str, Any]:
    said = link_status(link)
    return {
        "host_url": link.host_url,
        "host_event": said.host_event,
        "room": said.room_name,
        "connected": said.connected,
        "last_contact_at": said.last_contact_at,
        "error": said.error,
        "error_code": link.last_error_code,
        "cursor": link.cursor,
        "waiting": said.waiting,
        "outbox_pending": said.outbox_pending,
    }


class MultiplexLinkView(APIView):
    """The remote director: the event linked to a host (its address and the room key), and
    what the link waits for."""

    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call

    @extend_schema(
        operation_id="multiplex_link_status",
        summary="The event's link to its multiplex host, and what it waits for",
        responses={200: _Object, **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        _, event = _event(request, slug, STAFF)
        link = MultiplexLink.objects.filter(event=event).first()
        if link is None:
            raise NotFound(
                gettext("%(event)s follows no multiplex host.") % {"event": event.name},
                code="no_multiplex_link",
            )
        return Response(_link_json(link))

    @extend_schema(
        operation_id="multiplex_link_create",
        summary="Link the event to a multiplex host: host_url and key (directors)",
        request=_Object,
        responses={201: _Object, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = _event(request, slug, (DIRECTOR,))
        data = _form_data(request, ("host_url", "key"))
        url, key = data.get("host_url"), data.get("key")
        if not isinstance(url, str) or not isinstance(key, str):
            raise ApplicationError(gettext("host_url and key are texts."), code="invalid")
        link = link_create(event=event, host_url=url, key=key, actor=user)
        return Response(_link_json(link), status=status.HTTP_201_CREATED)
