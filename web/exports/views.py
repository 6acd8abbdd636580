"""Downloads and background exports: staff pages and API views.

Who may: the accounts that see the event (``selectors.event_get_visible``: a superuser, or an
account with a role in the event); anyone else gets a 404, as for the event page.
"""

from __future__ import annotations

import io

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbiter.selectors.standings import PlayerFilter
from tournament.errors import ApplicationError
from tournament.files import download_name
from tournament.models import Event, ExportJob, Game, Ruling
from tournament.selectors import host_of
from web.exports import (
    categories_csv_write,
    event_csv_zip_write,
    event_workbook_bytes,
    game_csv_zip_write,
    game_workbook_bytes,
    ranking_csv_write,
    ranking_workbook_bytes,
    standings_csv_write,
)
from web.exports.jobs import export_job_request
from web.inputs import INT32_MAX, Bounds, integer_parse
from web.permissions import STAFF, EventRolePermission, event_roles, event_visible_or_404
from web.standings_filter import common_rounds_asked, player_filter_parse

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ZIP = "application/zip"
# Above this many rulings the workbook is written in the background (a job with progress).
DIRECT_MAX_RULINGS = getattr(settings, "EXPORT_DIRECT_MAX_RULINGS", 20_000)
GAME_NUMBER = Bounds(1, INT32_MAX)


def _attachment(content: bytes, name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _csv_attachment(out: io.StringIO, name: str) -> HttpResponse:
    """A CSV download, with the byte-order mark Excel needs to read UTF-8."""
    return _attachment(out.getvalue().encode("utf-8-sig"), name, "text/csv; charset=utf-8")


def _too_large(event: Event) -> bool:
    return Ruling.objects.filter(round__game__event=event).count() > DIRECT_MAX_RULINGS


def _job_json(request: HttpRequest, job: ExportJob) -> dict[str, object]:
    return {
        "id": job.pk,
        "status": job.status,
        "progress": job.progress,
        "message": job.message,
        "size": job.size,
        "url": request.build_absolute_uri(
            reverse("exports:export_job", args=[job.event.slug, job.pk])
        ),
        "download": request.build_absolute_uri(
            reverse("exports:export_job_download", args=[job.event.slug, job.pk])
        )
        if job.status == ExportJob.Status.DONE
        else None,
    }


def _only(request: HttpRequest) -> PlayerFilter | HttpResponse:
    """The standings filter of the download's query (``web.standings_filter``), or the event
    page saying which value is wrong."""
    try:
        return player_filter_parse(request.GET)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        slug = request.resolver_match.kwargs["slug"] if request.resolver_match else ""
        return redirect("console:event_detail", slug=slug)


# --- pages -----------------------------------------------------------------------------------


@event_roles(*STAFF)
@require_GET
def event_export_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    """The event workbook; ``?series=2&club=...`` (``web.standings_filter``): a category's."""
    event = event_visible_or_404(request, slug)
    only = _only(request)
    if isinstance(only, HttpResponse):
        return only
    if _too_large(event):
        messages.info(
            request, gettext("This event is large: its workbook is prepared in the background.")
        )
        return redirect("console:event_detail", slug=slug)
    name = download_name(event, ext="xlsx")
    return _attachment(event_workbook_bytes(event=event, only=only), name, XLSX)


@event_roles(*STAFF)
@require_GET
def game_export_xlsx(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    game = get_object_or_404(Game, event=event, number=number)
    only = _only(request)
    if isinstance(only, HttpResponse):
        return only
    name = download_name(event, "game", number, ext="xlsx")
    return _attachment(game_workbook_bytes(game=game, only=only), name, XLSX)


@event_roles(*STAFF)
@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    only = _only(request)
    if isinstance(only, HttpResponse):
        return only
    out = io.StringIO()
    standings_csv_write(event=event, out=out, only=only)
    return _csv_attachment(out, download_name(event, "standings", ext="csv"))


@event_roles(*STAFF)
@require_GET
def ranking_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """A simultaneous event's one ranking as CSV, from the host's or any room's address (the
    standings filter and ``?common=1`` as the rooms page takes them)."""
    host = host_of(event_visible_or_404(request, slug))
    only = _only(request)
    if isinstance(only, HttpResponse):
        return only
    out = io.StringIO()
    ranking_csv_write(host=host, out=out, only=only, common=common_rounds_asked(request.GET))
    return _csv_attachment(out, download_name(host, "ranking", ext="csv"))


@event_roles(*STAFF)
@require_GET
def ranking_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    """The one ranking as a workbook: the host's Event sheet, then the Ranking sheet."""
    host = host_of(event_visible_or_404(request, slug))
    only = _only(request)
    if isinstance(only, HttpResponse):
        return only
    body = ranking_workbook_bytes(host=host, only=only, common=common_rounds_asked(request.GET))
    return _attachment(body, download_name(host, "ranking", ext="xlsx"), XLSX)


@event_roles(*STAFF)
@require_GET
def categories_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The Categories sheet as CSV: each player's rank within their series, age category and
    club beside the overall rank (filtered as the standings CSV)."""
    event = event_visible_or_404(request, slug)
    only = _only(request)
    if isinstance(only, HttpResponse):
        return only
    out = io.StringIO()
    categories_csv_write(event=event, out=out, only=only)
    return _csv_attachment(out, download_name(event, "categories", ext="csv"))


@event_roles(*STAFF)
@require_GET
def event_export_csv_zip(request: HttpRequest, slug: str) -> HttpResponse:
    """Every sheet of the event workbook as a CSV file, in one zip (filtered as the workbook)."""
    event = event_visible_or_404(request, slug)
    only = _only(request)
    if isinstance(only, HttpResponse):
        return only
    out = io.BytesIO()
    event_csv_zip_write(event=event, out=out, only=only)
    return _attachment(out.getvalue(), download_name(event, "csv", ext="zip"), ZIP)


@event_roles(*STAFF)
@require_GET
def game_export_csv_zip(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every sheet of the game workbook as a CSV file, in one zip."""
    event = event_visible_or_404(request, slug)
    game = get_object_or_404(Game, event=event, number=number)
    only = _only(request)
    if isinstance(only, HttpResponse):
        return only
    out = io.BytesIO()
    game_csv_zip_write(game=game, out=out, only=only)
    return _attachment(out.getvalue(), download_name(event, "game", number, "csv", ext="zip"), ZIP)


@event_roles(*STAFF)
@require_POST
def export_job_create(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    game = None
    if request.POST.get("game"):
        try:
            number = integer_parse("Game", request.POST["game"], GAME_NUMBER)
        except ValueError as exc:
            messages.error(request, str(exc))
            return redirect("console:event_detail", slug=slug)
        game = get_object_or_404(Game, event=event, number=number)
    job = export_job_request(event=event, game=game, actor=request.user)
    return redirect("exports:export_job", slug=slug, job_id=job.pk)


@event_roles(*STAFF)
@require_GET
def export_job_page(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The job's progress; the page reloads itself every 2 s until the job is finished."""
    event = event_visible_or_404(request, slug)
    job = get_object_or_404(
        ExportJob.objects.select_related("event", "game"), event=event, pk=job_id
    )
    return render(request, "exports/export_job.html", {"event": event, "job": job})


@event_roles(*STAFF)
@require_GET
def export_job_download(request: HttpRequest, slug: str, job_id: int) -> FileResponse:
    event = event_visible_or_404(request, slug)
    job = get_object_or_404(
        ExportJob.objects.select_related("event", "game"), event=event, pk=job_id
    )
    if job.status != ExportJob.Status.DONE or job.path is None or not job.path.exists():
        raise Http404(gettext("This export is not ready."))
    return FileResponse(
        job.path.open("rb"), as_attachment=True, filename=job.download_name, content_type=XLSX
    )


# --- API (session-authenticated staff) ----------------------------------------------------------


_JOB = inline_serializer(
    name="ExportJob",
    fields={
        "id": serializers.IntegerField(),
        "status": serializers.CharField(),
        "progress": serializers.IntegerField(),
        "message": serializers.CharField(),
        "size": serializers.IntegerField(allow_null=True),
        "url": serializers.URLField(),
        "download": serializers.URLField(allow_null=True),
    },
)


class ExportJobRequestSerializer(serializers.Serializer[dict[str, int | None]]):
    game = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=GAME_NUMBER.minimum,
        max_value=GAME_NUMBER.maximum,
        help_text="Export this game alone; the whole event when absent.",
    )


class EventExportApi(APIView):
    permission_classes = [EventRolePermission]
    event_roles = STAFF
    """GET: the event workbook (.xlsx) straight away (small events; 409 with a hint for large
    ones). POST: an export job (202), to poll at its ``url`` until ``download`` is set."""

    @extend_schema(
        operation_id="event_export_download",
        summary="The event workbook (.xlsx), for events small enough to export at once",
        responses={
            200: OpenApiResponse(OpenApiTypes.BINARY, description="The .xlsx workbook."),
            409: OpenApiResponse(description="Too large: POST for a background export."),
        },
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        event = event_visible_or_404(request, slug)
        if _too_large(event):
            return Response(
                {
                    "detail": "This event is large: "
                    "POST here to prepare its workbook in the background."
                },
                status=status.HTTP_409_CONFLICT,
            )
        name = download_name(event, ext="xlsx")
        return _attachment(event_workbook_bytes(event=event), name, XLSX)

    @extend_schema(
        operation_id="event_export_job_create",
        summary="Start a background export of the event (or of one game)",
        request=ExportJobRequestSerializer,
        responses={202: _JOB},
    )
    def post(self, request: Request, slug: str) -> Response:
        event = event_visible_or_404(request, slug)
        asked = ExportJobRequestSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        game = None
        number = asked.validated_data.get("game")
        if number is not None:
            game = get_object_or_404(Game, event=event, number=number)
        job = export_job_request(event=event, game=game, actor=request.user)
        return Response(_job_json(request, job), status=status.HTTP_202_ACCEPTED)


class ExportJobApi(APIView):
    permission_classes = [EventRolePermission]
    event_roles = STAFF
    """GET: an export job's status and progress; ``download`` once it is done."""

    @extend_schema(
        operation_id="event_export_job_status",
        summary="An export job's status and progress",
        responses={200: _JOB},
    )
    def get(self, request: Request, slug: str, job_id: int) -> Response:
        event = event_visible_or_404(request, slug)
        job = get_object_or_404(
            ExportJob.objects.select_related("event", "game"), event=event, pk=job_id
        )
        return Response(_job_json(request, job))
