"""Files other tools read and write (docs/interchange.md): a game as Eliot's save game, its
top sequence as GCG, the results for SIGLES; and a game prepared in Eliot imported as a
pre-drawn game (a console page and an API call).

Downloads: the event's staff (as the workbooks). The import: its directors (as the set-up).
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbiter.selectors.interchange import (
    eliot_bytes,
    eliot_gaps,
    gcg_text,
    sigles_bytes,
)
from arbiter.services.interchange import (
    PREDRAWN_MAX_BYTES,
    GameImportError,
    game_import_predrawn,
    predrawn_imported_message,
)
from tournament.errors import ApplicationError
from tournament.files import download_name
from tournament.models import Event, Game
from tournament.sigles import KEYS
from web.permissions import (
    DIRECTOR,
    STAFF,
    AuthenticatedHttpRequest,
    EventRolePermission,
    event_roles,
    event_visible_or_404,
)

XML = "application/xml; charset=utf-8"
TEXT_UTF8 = "text/plain; charset=utf-8"
TEXT_SIGLES = "text/plain; charset=windows-1252"  # tournament.sigles.ENCODING


def _attachment(content: bytes, name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _refused(request: HttpRequest, event: Event, exc: ApplicationError) -> HttpResponse:
    messages.error(request, exc.message)
    return redirect("console:event_detail", slug=event.slug)


@event_roles(*STAFF)
@require_GET
def event_files(request: HttpRequest, slug: str) -> HttpResponse:
    """The files other programs read, what each is and where it goes: per game Eliot's save
    game (with each player whose total Eliot cannot count as here, and why), the tops as GCG,
    the results for SIGLES; the event's SIGLES file."""
    event = event_visible_or_404(request, slug)
    games = [{"game": g, "gaps": eliot_gaps(g)} for g in event.games.order_by("number")]
    return render(request, "exports/files.html", {"event": event, "games": games})


@event_roles(*STAFF)
@require_GET
def game_eliot(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    game = get_object_or_404(Game.objects.select_related("event"), event=event, number=number)
    try:
        content = eliot_bytes(game)
    except ApplicationError as exc:
        return _refused(request, event, exc)
    return _attachment(content, download_name(event, "game", number, ext="xml"), XML)


@event_roles(*STAFF)
@require_GET
def game_gcg(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    game = get_object_or_404(Game.objects.select_related("event"), event=event, number=number)
    try:
        content = gcg_text(game).encode("utf-8")
    except ApplicationError as exc:
        return _refused(request, event, exc)
    return _attachment(content, download_name(event, "game", number, ext="gcg"), TEXT_UTF8)


@event_roles(*STAFF)
@require_GET
def game_predrawn(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A game drawn in advance as the engine's game document (``python -m engine game
    --json``): what another installation's set-up takes as a pre-drawn game, so that a remote
    room of a simultaneous event plays the same racks and tops."""
    event = event_visible_or_404(request, slug)
    game = get_object_or_404(Game, event=event, number=number)
    if game.source != Game.Source.PREDRAWN or game.predrawn is None:
        return _refused(
            request,
            event,
            ApplicationError(
                _("Game %(number)s is drawn round by round: it has no pre-drawn document.")
                % {"number": number},
                code="not_predrawn",
            ),
        )
    content = json.dumps(game.predrawn, ensure_ascii=False).encode("utf-8")
    name = download_name(event, "game", number, ext="json")
    return _attachment(content, name, "application/json")


def _sigles(request: HttpRequest, event: Event, game: Game | None) -> HttpResponse:
    key = request.GET.get("key", "table")
    if key not in KEYS:
        return _refused(
            request,
            event,
            ApplicationError(
                _("Unknown SIGLES key %(key)r: table or licence.") % {"key": key[:20]},
                code="bad_sigles_key",
            ),
        )
    empty = request.GET.get("empty", "1") != "0"
    try:
        content = sigles_bytes(event=event, game=game, key=key, empty=empty)
    except ApplicationError as exc:
        return _refused(request, event, exc)
    parts = ("game", game.number, "sigles") if game is not None else ("sigles",)
    return _attachment(content, download_name(event, *parts, ext="txt"), TEXT_SIGLES)


@event_roles(*STAFF)
@require_GET
def game_sigles(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    return _sigles(request, event, get_object_or_404(Game, event=event, number=number))


@event_roles(*STAFF)
@require_GET
def event_sigles(request: HttpRequest, slug: str) -> HttpResponse:
    return _sigles(request, event_visible_or_404(request, slug), None)


@event_roles(DIRECTOR)
@require_http_methods(["GET", "POST"])
def game_import_page(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """An Eliot save game or the engine's JSON document becomes the event's next game
    (pre-drawn): every problem of a refused file is listed with its line and element."""
    event = event_visible_or_404(request, slug)
    errors: list[str] = []
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            errors = [_("Choose an Eliot save game (.xml) or a pre-drawn game (.json).")]
        else:
            try:
                game, read = game_import_predrawn(
                    event=event,
                    file_name=upload.name or "",
                    content=upload.read(PREDRAWN_MAX_BYTES + 1),
                    actor=request.user,
                )
            except GameImportError as exc:
                errors = [exc.message, *exc.lines()]
            except ApplicationError as exc:
                errors = [exc.message]
            else:
                messages.success(request, predrawn_imported_message(game, read))
                return redirect("console:event_detail", slug=slug)
    return render(
        request,
        "console/game_import.html",
        {"event": event, "errors": errors, "max_mb": PREDRAWN_MAX_BYTES // (1024 * 1024)},
        status=400 if errors else 200,
    )


_IMPORTED = inline_serializer(
    "GameImported",
    {
        "number": serializers.IntegerField(),
        "rounds": serializers.IntegerField(),
        "top_total": serializers.IntegerField(),
        "format": serializers.CharField(),
        "detail": serializers.CharField(),
    },
)
_REFUSED = inline_serializer(
    "GameImportRefused",
    {
        "detail": serializers.CharField(),
        "code": serializers.CharField(),
        "errors": serializers.ListField(child=serializers.DictField()),
    },
)


class GameImportApi(APIView):
    """POST an Eliot save game or the engine's JSON document (multipart, field ``file``): the
    event's next game, pre-drawn."""

    permission_classes = [EventRolePermission]
    event_roles = (DIRECTOR,)
    parser_classes = [MultiPartParser]

    @extend_schema(
        operation_id="event_game_import_predrawn",
        summary=(
            "Import a pre-drawn game as the event's next game: an Eliot save game (.xml) or "
            "the engine's JSON document (python -m engine game --json)"
        ),
        request={
            "multipart/form-data": inline_serializer(
                "GameImportFile", {"file": serializers.FileField()}
            )
        },
        responses={
            201: _IMPORTED,
            400: OpenApiResponse(_REFUSED, description="Refused: every problem, with its line."),
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        event = event_visible_or_404(request, slug)
        upload = request.FILES.get("file")
        if upload is None:
            return Response(
                {"detail": _("Send the file as the multipart field 'file'."), "code": "no_file"},
                status=status.HTTP_400_BAD_REQUEST,
            )
        game, read = game_import_predrawn(
            event=event,
            file_name=upload.name or "",
            content=upload.read(PREDRAWN_MAX_BYTES + 1),
            actor=request.user,  # type: ignore[arg-type]
        )
        return Response(
            {
                "number": game.number,
                "rounds": len(read.document["rounds"]),
                "top_total": read.document["total"],
                "format": read.format,
                "detail": predrawn_imported_message(game, read),
            },
            status=status.HTTP_201_CREATED,
        )
