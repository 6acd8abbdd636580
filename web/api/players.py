"""The director's actions on players' access and lists over the API, as the console's QR-code
and import pages do them: ``POST /api/v1/events/<slug>/players/<id>/token/revoke`` (the QR code
stops working), ``.../token/reissue`` (a new QR code: the answer carries its token and link),
``POST /api/v1/events/<slug>/players/import`` (a .xlsx or .csv list, multipart ``file``: every
player or none, each bad row listed). Directors only; each change the console's own audited
service; a refusal is ``{"detail", "code"}`` (``bad_file`` with ``errors``, ``no_file``,
``too_large``, ``already_revoked``, ``no_such_player``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.errors import ApplicationError
from tournament.models import Player
from tournament.services.player_imports import MAX_BYTES, players_import
from tournament.services.players import player_token_reissue, player_token_revoke
from tournament.typography import elided
from web.api.serializers import EventPlayerSerializer, StaffErrorSerializer
from web.api.staff_events import DirectorAPIView, _one, _player

_ERRORS = {
    400: OpenApiResponse(StaffErrorSerializer, description="Refused: the detail says why."),
    403: OpenApiResponse(StaffErrorSerializer, description="Not signed in, or not a director."),
    404: OpenApiResponse(StaffErrorSerializer, description="No such event, or no such player."),
}


class PlayerTokenRevokeView(DirectorAPIView):
    @extend_schema(
        operation_id="event_player_token_revoke",
        summary="The player's QR code (and token) stops working",
        request=None,
        responses={
            200: inline_serializer(
                "PlayerTokenRevoked",
                {"detail": serializers.CharField(), "player": EventPlayerSerializer()},
            ),
            **_ERRORS,
        },
    )
    def post(self, request: Request, slug: str, player_id: int) -> Response:
        user, event = self.director(request, slug)
        player = player_token_revoke(
            player=_one(Player.objects, player_id, "player", event), actor=user
        )
        detail = elided(gettext("%(name)s's QR code no longer works.") % {"name": player.name})
        return Response({"detail": detail, "player": _player(player)})


class PlayerTokenReissueView(DirectorAPIView):
    @extend_schema(
        operation_id="event_player_token_reissue",
        summary="A new QR code for the player (the old one stops working): its token and link",
        request=None,
        responses={
            200: inline_serializer(
                "PlayerTokenReissued",
                {
                    "detail": serializers.CharField(),
                    "player": EventPlayerSerializer(),
                    "token": serializers.CharField(help_text="The player's new secret."),
                    "link": serializers.CharField(help_text="What the new QR code opens."),
                },
            ),
            **_ERRORS,
        },
    )
    def post(self, request: Request, slug: str, player_id: int) -> Response:
        user, event = self.director(request, slug)
        player = player_token_reissue(
            player=_one(Player.objects, player_id, "player", event), actor=user
        )
        detail = gettext("%(name)s has a new QR code: the old one no longer works.") % {
            "name": player.name
        }
        link = request.build_absolute_uri(reverse("play:play_join", args=[player.token]))
        return Response(
            {"detail": detail, "player": _player(player), "token": player.token, "link": link}
        )


class PlayersImportView(DirectorAPIView):
    parser_classes = [MultiPartParser]

    @extend_schema(
        operation_id="event_players_import",
        summary="Import a .xlsx or .csv list of players (multipart 'file'): every player or "
        "none, each bad row listed (code bad_file, errors: row, message)",
        request={
            "multipart/form-data": inline_serializer(
                "PlayersFile", {"file": serializers.FileField()}
            )
        },
        responses={
            201: inline_serializer(
                "PlayersImported",
                {
                    "detail": serializers.CharField(),
                    "players": EventPlayerSerializer(many=True),
                },
            ),
            **_ERRORS,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = self.director(request, slug)
        upload = request.FILES.get("file")
        if upload is None:
            raise ApplicationError(gettext("Choose a .xlsx or .csv file."), code="no_file")
        if upload.size is not None and upload.size > MAX_BYTES:
            raise ApplicationError(
                gettext("The file is larger than %(size)s MB.")
                % {"size": MAX_BYTES // (1024 * 1024)},
                code="too_large",
            )
        created = players_import(
            event=event, file_name=upload.name or "", content=upload.read(), actor=user
        )
        return Response(
            {
                "detail": gettext("%(count)s players imported.") % {"count": len(created)},
                "players": [_player(p) for p in created],
            },
            status=status.HTTP_201_CREATED,
        )
