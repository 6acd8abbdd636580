"""A game's rounds over the director API, what the console's pages read:
``GET /api/v1/events/<slug>/games/<n>/rounds/<r>``, every ruling of the round per player with
its id and every field (what the ``amend`` action takes), the disciplinary warnings given in it
(what ``discipline_withdraw`` takes) and the open double-entry mismatches (what ``resolve``
takes); ``.../rounds/<r>/moves``, every legal move ranked; ``.../games/<n>/audit``, the game's
audit log; ``.../games/<n>/tables/<t>/slips``, a table's slips of the round in play. Staff of
the event (``web.permissions``: 404 without a role)."""

from __future__ import annotations

from dataclasses import asdict

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbiter.selectors.console import (
    game_audit,
    round_moves_ranked,
    round_record,
    table_slips,
)
from tournament.errors import NotFound
from tournament.models import Game, Round
from tournament.selectors import round_current
from web.actions import game_or_404
from web.api.serializers import (
    AuditEntrySerializer,
    RoundMovesSerializer,
    RoundRulingsSerializer,
    StaffErrorSerializer,
    TableSlipsSerializer,
)
from web.paging import page_of
from web.permissions import STAFF, EventRolePermission

_NOT_FOUND = OpenApiResponse(StaffErrorSerializer, description="No such event, game or round.")


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


class RoundMovesView(APIView):
    """Every legal move of a round, ranked, a page at a time (the console's moves page)."""

    permission_classes = [EventRolePermission]
    event_roles = STAFF

    @extend_schema(
        operation_id="event_game_round_moves",
        summary="Every legal move of a round's rack on its board, best first, ranked (equal "
        "scores share a rank), 200 a page",
        parameters=[OpenApiParameter("page", int, OpenApiParameter.QUERY, required=False)],
        responses={200: RoundMovesSerializer, 404: _NOT_FOUND},
    )
    def get(self, request: Request, slug: str, number: int, round_number: int) -> Response:
        game = game_or_404(slug, number)
        record = _round_or_404(game, round_number)
        moves = round_moves_ranked(round=record)
        shown, page, pages = page_of(moves, request.query_params.get("page", "1"))
        body = {
            "round": record.number,
            "rack": record.rack,
            "total": len(moves),
            "page": page,
            "pages": pages,
            "moves": [
                {"rank": rank, "ref": m.ref, "word": m.word, "score": m.score, "used": m.used}
                for rank, m in shown
            ],
        }
        return Response(RoundMovesSerializer(body).data)


class GameAuditView(APIView):
    """The game's audit log, newest first (the console's audit page)."""

    permission_classes = [EventRolePermission]
    event_roles = STAFF

    @extend_schema(
        operation_id="event_game_audit",
        summary="The game's audit log, newest first: every action on it, by whom, with its data",
        responses={200: AuditEntrySerializer(many=True), 404: _NOT_FOUND},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        game = game_or_404(slug, number)
        return Response(AuditEntrySerializer(game_audit(game=game), many=True).data)


class TableSlipsView(APIView):
    """A table's slips of the round in play (the slip entry's side panel)."""

    permission_classes = [EventRolePermission]
    event_roles = STAFF

    @extend_schema(
        operation_id="event_game_table_slips",
        summary="The player at a table and their slips of the round in play (phone, API, "
        "typed), newest first, every field",
        responses={200: TableSlipsSerializer, 404: _NOT_FOUND},
    )
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        game = game_or_404(slug, number)
        current = round_current(game_id=game.pk)
        found = None if current is None else table_slips(round=current, table=table)
        if current is None or found is None:
            raise NotFound(
                gettext("No player sits at table %(table)s.") % {"table": table}
                if current is not None
                else gettext("No round to enter slips for."),
                code="no_such_table" if current is not None else "no_round_in_play",
            )
        body = {
            "table": found.table,
            "name": found.name,
            "round": current.number,
            "slips": found.slips,
        }
        return Response(TableSlipsSerializer(body).data)


def _round_or_404(game: Game, number: int) -> Round:
    found = game.rounds.exclude(status=Round.Status.ANNULLED).filter(number=number).first()
    if found is None:
        raise NotFound(
            gettext("Game %(game)s has no round %(number)s.")
            % {"game": game.number, "number": number},
            code="no_such_round",
        )
    return found
