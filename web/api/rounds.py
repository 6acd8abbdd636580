"""A round of a game over the director API: ``GET /api/v1/events/<slug>/games/<n>/rounds/<r>``,
every ruling of the round per player with its id and every field (what the console's round
table shows, and what the ``amend`` action takes), the disciplinary warnings given in it (what
``discipline_withdraw`` takes) and the open double-entry mismatches (what ``resolve`` takes).
Staff of the event (``web.permissions``: 404 without a role)."""

from __future__ import annotations

from dataclasses import asdict

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbiter.selectors.console import round_record
from tournament.errors import NotFound
from web.api.serializers import RoundRulingsSerializer, StaffErrorSerializer
from web.console.actions import game_or_404
from web.permissions import STAFF, EventRolePermission


class RoundRulingsView(APIView):
    permission_classes = [EventRolePermission]
    event_roles = STAFF

    @extend_schema(
        operation_id="event_game_round_rulings",
        summary="A round's rulings per player (ids and every field), its disciplinary warnings "
        "and open double-entry mismatches",
        responses={
            200: RoundRulingsSerializer,
            403: OpenApiResponse(StaffErrorSerializer, description="Not signed in."),
            404: OpenApiResponse(StaffErrorSerializer, description="No such event or round."),
        },
    )
    def get(self, request: Request, slug: str, number: int, round_number: int) -> Response:
        game = game_or_404(slug, number)
        record = round_record(game=game, number=round_number)
        if record is None:
            raise NotFound(
                gettext("Game %(game)s has no round %(number)s.")
                % {"game": game.number, "number": round_number},
                code="no_such_round",
            )
        r = record.round
        played = (
            {"ref": r.played_ref, "word": r.played_word, "score": r.played_score}
            if r.played_word
            else None
        )
        body = {
            "number": r.number,
            "status": r.status,
            "rack": r.rack,
            "played": played,
            "rulings": record.rulings,
            "disciplines": record.disciplines,
            "mismatches": [asdict(m) for m in record.mismatches],
        }
        return Response(RoundRulingsSerializer(body).data)
