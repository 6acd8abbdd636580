"""The staff API: ``POST /api/v1/staff/events/<slug>/games/<n>/<action>``, every console action
as an API call (``web.console.actions`` runs both, with the same role checks)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from web.console.actions import game_or_404, perform


class StaffGameActionView(APIView):
    """``POST /api/v1/staff/events/<slug>/games/<n>/<action>``: every console action as a staff
    API call (session or basic authentication); answers ``{"detail": what happened}``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="staff_game_action",
        summary="A director's or arbiter's action on a game: draw, rack, open, extend, pause, "
        "resume, close, publish, annul, choose_top, amend, slip",
        request=inline_serializer(
            name="StaffAction",
            fields={
                "rack": serializers.CharField(required=False),
                "seconds": serializers.IntegerField(required=False),
                "reason": serializers.CharField(required=False),
                "ref": serializers.CharField(required=False),
                "word": serializers.CharField(required=False),
                "ruling": serializers.IntegerField(required=False),
                "points": serializers.IntegerField(required=False),
                "penalty": serializers.IntegerField(required=False),
                "code": serializers.CharField(required=False),
                "table": serializers.IntegerField(required=False),
                "score": serializers.IntegerField(required=False),
                "check": serializers.BooleanField(required=False),
                "late": serializers.BooleanField(required=False),
            },
        ),
        responses={
            200: inline_serializer(
                name="StaffActionDone", fields={"detail": serializers.CharField()}
            )
        },
    )
    def post(self, request: Request, slug: str, number: int, action: str) -> Response:
        user = request.user
        if not user.is_authenticated:  # IsAuthenticated has turned anonymous callers away
            raise exceptions.NotAuthenticated()
        game = game_or_404(slug, number)
        return Response(
            {"detail": perform(game, user, action, request.data)}, status=status.HTTP_200_OK
        )
