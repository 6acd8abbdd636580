"""The director's account actions on an event as API calls, under ``/api/v1/events/<slug>/``:
invitations (``invitations``, ``invitations/<id>/revoke``), the staff (``staff``: read, or a
role given to an existing account; ``staff/<id>/remove``), players withdrawn and reinstated
(``players``, ``players/<id>/withdraw|reinstate``), the event closed and reopened (``close``,
``reopen``).

As the console's staff page (``web.console.staff``): directors only (docs/design.md's "Roles"),
session authentication, each change one audited service of ``tournament.services``; a refusal
is ``{"detail": ..., "code": ...}`` (``web.api.errors``: 400, 404 for an unknown id).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.errors import NotFound
from tournament.models import Event, EventRole, Invitation, Player
from tournament.services.closing import (
    event_close,
    event_closed_said,
    event_reopen,
    event_reopened_said,
)
from tournament.services.invitations import invitation_create, invitation_revoke
from tournament.services.players import (
    player_register,
    player_reinstate,
    player_update,
    player_withdraw,
)
from tournament.services.users import event_role_remove, event_role_removed_said
from web.api.serializers import (
    EventClosingSerializer,
    EventPlayerSerializer,
    InvitationInSerializer,
    InvitationSerializer,
    PlayerInSerializer,
    RoleInSerializer,
    Shape,
    StaffDoneSerializer,
    StaffErrorSerializer,
    StaffRoleSerializer,
    WithdrawInSerializer,
)
from web.console.setup import role_grant
from web.console.staff import invitation_link
from web.permissions import DIRECTOR, EventRolePermission

_ERRORS = {
    400: OpenApiResponse(StaffErrorSerializer, description="Refused: the detail says why."),
    403: OpenApiResponse(StaffErrorSerializer, description="Not signed in, or not a director."),
    404: OpenApiResponse(StaffErrorSerializer, description="No such event (or no role in it)."),
}
_NOT_FOUND = OpenApiResponse(StaffErrorSerializer, description="No such event, or no such id.")


class DirectorAPIView(APIView):
    """An event's director (or a superuser) only; anyone else: 403, or 404 with no role."""

    permission_classes = [EventRolePermission]
    event_roles = (DIRECTOR,)

    def director(self, request: Request, slug: str) -> tuple[User, Event]:
        user = request.user
        if not user.is_authenticated:  # IsAuthenticated has turned anonymous callers away
            raise exceptions.NotAuthenticated(code="not_authenticated")
        return user, get_object_or_404(Event, slug=slug)


# What ``_one`` looks for: its code's word -> its name in the reader's language.
_WHAT = {
    "invitation": gettext_lazy("invitation"),
    "role": gettext_lazy("role"),
    "player": gettext_lazy("player"),
}


def _one(queryset: Any, pk: int, what: str, event: Event) -> Any:
    """The row ``pk`` of the event's ``queryset``; a 404 naming it otherwise (code
    ``no_such_<what>``, the same in every language)."""
    found = queryset.filter(event=event, pk=pk).first()
    if found is None:
        raise NotFound(
            gettext("There is no %(what)s %(pk)s in %(name)s.")
            % {"what": _WHAT[what], "pk": pk, "name": event.name},
            code=f"no_such_{what}",
        )
    return found


def _invitation(request: Request, invitation: Invitation, at: datetime) -> Shape:
    state = invitation.state(at=at)
    creator, taker = invitation.created_by, invitation.accepted_by
    return {
        "id": invitation.pk,
        "name": invitation.name,
        "role": invitation.role,
        "state": state,
        "created_at": invitation.created_at,
        "expires_at": invitation.expires_at,
        "created_by": creator.get_username() if creator is not None else None,
        "accepted_by": taker.get_username() if taker is not None else None,
        "link": invitation_link(request._request, invitation) if state == "pending" else None,
    }


def _player(player: Player) -> Shape:
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club,
        "table": player.table,
        "withdrawn": player.is_withdrawn,
        "withdrawn_at": player.withdrawn_at,
        "category": player.category,
        "licence": player.licence,
        "series": player.series,
        "age_category": player.age_category,
    }


class InvitationsView(DirectorAPIView):
    @extend_schema(
        operation_id="event_invitations_list",
        summary="The event's invitations, newest first, with the link of each pending one",
        responses={200: InvitationSerializer(many=True), **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        _, event = self.director(request, slug)
        now = timezone.now()
        invitations = event.invitations.select_related("created_by", "accepted_by")
        return Response(
            [InvitationSerializer(_invitation(request, i, now)).data for i in invitations]
        )

    @extend_schema(
        operation_id="event_invitations_create",
        summary="Invite someone as arbiter or director: answers the one-time link",
        request=InvitationInSerializer,
        responses={201: InvitationSerializer, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = self.director(request, slug)
        asked = InvitationInSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        invitation = invitation_create(event=event, actor=user, **asked.validated_data)
        shape = _invitation(request, invitation, timezone.now())
        return Response(InvitationSerializer(shape).data, status=status.HTTP_201_CREATED)


class InvitationRevokeView(DirectorAPIView):
    @extend_schema(
        operation_id="event_invitation_revoke",
        summary="Revoke a pending invitation: its link stops working",
        request=None,
        responses={200: InvitationSerializer, **_ERRORS, 404: _NOT_FOUND},
    )
    def post(self, request: Request, slug: str, invitation_id: int) -> Response:
        user, event = self.director(request, slug)
        pending = _one(
            Invitation.objects.select_related("event"), invitation_id, "invitation", event
        )
        revoked = invitation_revoke(invitation=pending, actor=user)
        return Response(InvitationSerializer(_invitation(request, revoked, timezone.now())).data)


class StaffView(DirectorAPIView):
    @extend_schema(
        operation_id="event_staff_list",
        summary="The event's directors and arbiters",
        responses={200: StaffRoleSerializer(many=True), **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        _, event = self.director(request, slug)
        roles = event.roles.select_related("user").order_by("role", "user__username")
        return Response(
            [
                StaffRoleSerializer(
                    {
                        "id": r.pk,
                        "username": r.user.get_username(),
                        "name": r.user.get_full_name(),
                        "role": r.role,
                    }
                ).data
                for r in roles
            ]
        )

    @extend_schema(
        operation_id="event_staff_grant",
        summary="Give an existing account a role in the event (username, role): as the "
        "set-up page's form; a new person is invited instead",
        request=RoleInSerializer,
        responses={200: StaffDoneSerializer, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = self.director(request, slug)
        body = request.data if isinstance(request.data, dict) else {}
        return Response({"detail": role_grant(user=user, event=event, data=body)})


class StaffRoleRemoveView(DirectorAPIView):
    @extend_schema(
        operation_id="event_staff_role_remove",
        summary="Take a director's or an arbiter's role away (an event keeps its last director)",
        request=None,
        responses={200: StaffDoneSerializer, **_ERRORS, 404: _NOT_FOUND},
    )
    def post(self, request: Request, slug: str, role_id: int) -> Response:
        user, event = self.director(request, slug)
        role = event_role_remove(role=_one(EventRole.objects, role_id, "role", event), actor=user)
        return Response({"detail": event_role_removed_said(role)})


class PlayersView(DirectorAPIView):
    @extend_schema(
        operation_id="event_players_list",
        summary="The event's players, by table, each saying whether they withdrew",
        responses={200: EventPlayerSerializer(many=True), **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        _, event = self.director(request, slug)
        players = Player.objects.filter(event=event).order_by("table", "name")
        return Response([EventPlayerSerializer(_player(p)).data for p in players])

    @extend_schema(
        operation_id="event_player_register",
        summary="Register a player (table and licence unique in the event; series 1-7)",
        request=PlayerInSerializer,
        responses={201: EventPlayerSerializer, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = self.director(request, slug)
        asked = PlayerInSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        player = player_register(event=event, actor=user, **asked.validated_data)
        return Response(EventPlayerSerializer(_player(player)).data, status=status.HTTP_201_CREATED)


class PlayerView(DirectorAPIView):
    @extend_schema(
        operation_id="event_player_update",
        summary="Change a registration (every field given, as the console's form)",
        request=PlayerInSerializer,
        responses={200: EventPlayerSerializer, **_ERRORS, 404: _NOT_FOUND},
    )
    def post(self, request: Request, slug: str, player_id: int) -> Response:
        user, event = self.director(request, slug)
        asked = PlayerInSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        player = _one(Player.objects, player_id, "player", event)
        updated = player_update(player=player, actor=user, **asked.validated_data)
        return Response(EventPlayerSerializer(_player(updated)).data)


class PlayerWithdrawView(DirectorAPIView):
    @extend_schema(
        operation_id="event_player_withdraw",
        summary="The player withdraws: no slip is taken from or for them (points kept)",
        request=WithdrawInSerializer,
        responses={200: EventPlayerSerializer, **_ERRORS, 404: _NOT_FOUND},
    )
    def post(self, request: Request, slug: str, player_id: int) -> Response:
        user, event = self.director(request, slug)
        asked = WithdrawInSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        player = _one(Player.objects, player_id, "player", event)
        withdrawn = player_withdraw(player=player, actor=user, **asked.validated_data)
        return Response(EventPlayerSerializer(_player(withdrawn)).data)


class PlayerReinstateView(DirectorAPIView):
    @extend_schema(
        operation_id="event_player_reinstate",
        summary="Undo a withdrawal: the player's slips are taken again",
        request=None,
        responses={200: EventPlayerSerializer, **_ERRORS, 404: _NOT_FOUND},
    )
    def post(self, request: Request, slug: str, player_id: int) -> Response:
        user, event = self.director(request, slug)
        player = _one(Player.objects, player_id, "player", event)
        return Response(
            EventPlayerSerializer(_player(player_reinstate(player=player, actor=user))).data
        )


class EventCloseView(DirectorAPIView):
    @extend_schema(
        operation_id="event_close",
        summary="Close the event (refused while a round is in play): no new round, slip or "
        "amendment until it is reopened",
        request=None,
        responses={200: EventClosingSerializer, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = self.director(request, slug)
        closed = event_close(event=event, actor=user)
        return Response({"detail": event_closed_said(closed), "closed": closed.is_closed})


class EventReopenView(DirectorAPIView):
    @extend_schema(
        operation_id="event_reopen",
        summary="Reopen a closed event: rounds, slips and amendments are taken again",
        request=None,
        responses={200: EventClosingSerializer, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = self.director(request, slug)
        reopened = event_reopen(event=event, actor=user)
        return Response({"detail": event_reopened_said(reopened), "closed": reopened.is_closed})
