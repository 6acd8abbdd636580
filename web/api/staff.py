"""The staff API: ``POST /api/v1/staff/events/<slug>/games/<n>/<action>``, every console action
as an API call (``web.console.actions`` runs both, with the same role checks). The director's
actions on an event's accounts, players and closing are in ``web.api.staff_events``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from web.console.actions import ACTIONS, INT_BOUNDS, game_or_404, perform
from web.console.actions import TEXT_MAX_LENGTH as TEXT
from web.permissions import STAFF, EventRolePermission


def _int_field(key: str) -> serializers.IntegerField:
    """The schema of a number an action reads, with its bounds (``actions.INT_BOUNDS``)."""
    bounds = INT_BOUNDS[key]
    return serializers.IntegerField(
        required=False, min_value=bounds.minimum, max_value=bounds.maximum
    )


# The schema of a game's action, at either address (here, and web.api.director's).
ACTION_SCHEMA: dict[str, Any] = dict(
    summary="A director's or arbiter's action on a game: draw, rack, open, extend, pause, "
    "resume, close, publish, annul, choose_top, amend, amend_slip, slip, resolve, discipline "
    "(a disciplinary warning: round, table, reason), discipline_withdraw (discipline, reason)",
    parameters=[
        OpenApiParameter("action", str, OpenApiParameter.PATH, enum=sorted(ACTIONS)),
    ],
    request=inline_serializer(
        name="StaffAction",
        fields={
            "rack": serializers.CharField(required=False, max_length=TEXT["rack"]),
            "seconds": _int_field("seconds"),
            "reason": serializers.CharField(required=False, max_length=TEXT["reason"]),
            "ref": serializers.CharField(required=False, max_length=TEXT["ref"]),
            "word": serializers.CharField(required=False, max_length=TEXT["word"]),
            "ruling": _int_field("ruling"),
            "round": _int_field("round"),
            "discipline": _int_field("discipline"),
            "points": _int_field("points"),
            "penalty": _int_field("penalty"),
            "code": serializers.CharField(required=False, max_length=TEXT["code"]),
            "table": _int_field("table"),
            "score": _int_field("score"),
            "check": serializers.BooleanField(required=False),
            "late": serializers.BooleanField(required=False),
        },
    ),
    responses={
        200: inline_serializer(name="StaffActionDone", fields={"detail": serializers.CharField()})
    },
)


class StaffGameActionView(APIView):
    """``POST /api/v1/staff/events/<slug>/games/<n>/<action>``: every console action as a staff
    API call (session or personal token); answers ``{"detail": what happened}``."""

    permission_classes = [EventRolePermission]
    event_roles = STAFF  # and each action its own (``actions.ACTIONS``)

    @extend_schema(operation_id="staff_game_action", **ACTION_SCHEMA)
    def post(self, request: Request, slug: str, number: int, action: str) -> Response:
        user = request.user
        if not user.is_authenticated:  # IsAuthenticated has turned anonymous callers away
            raise exceptions.NotAuthenticated(code="not_authenticated")
        game = game_or_404(slug, number)
        return Response(
            {"detail": perform(game, user, action, request.data)}, status=status.HTTP_200_OK
        )
