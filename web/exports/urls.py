"""URLs of the downloads and background exports, as pages and as staff API calls."""

from __future__ import annotations

from django.urls import path

from web.exports import interchange as x
from web.exports import views as v

app_name = "exports"

urlpatterns = [
    path("events/<slug:slug>/export.xlsx", v.event_export_xlsx, name="event_export_xlsx"),
    path(
        "events/<slug:slug>/games/<int:number>/export.xlsx",
        v.game_export_xlsx,
        name="game_export_xlsx",
    ),
    path("events/<slug:slug>/export-csv.zip", v.event_export_csv_zip, name="event_export_csv_zip"),
    path(
        "events/<slug:slug>/games/<int:number>/export-csv.zip",
        v.game_export_csv_zip,
        name="game_export_csv_zip",
    ),
    path("events/<slug:slug>/standings.csv", v.standings_csv, name="standings_csv"),
    path("events/<slug:slug>/categories.csv", v.categories_csv, name="categories_csv"),
    path("events/<slug:slug>/simultaneous/ranking.csv", v.ranking_csv, name="ranking_csv"),
    path("events/<slug:slug>/simultaneous/ranking.xlsx", v.ranking_xlsx, name="ranking_xlsx"),
    path("events/<slug:slug>/exports/", v.export_job_create, name="export_job_create"),
    path("events/<slug:slug>/exports/<int:job_id>/", v.export_job_page, name="export_job"),
    path(
        "events/<slug:slug>/exports/<int:job_id>/download",
        v.export_job_download,
        name="export_job_download",
    ),
    path("events/<slug:slug>/files/", x.event_files, name="event_files"),
    path("events/<slug:slug>/games/<int:number>/eliot.xml", x.game_eliot, name="game_eliot"),
    path("events/<slug:slug>/games/<int:number>/tops.gcg", x.game_gcg, name="game_gcg"),
    path(
        "events/<slug:slug>/games/<int:number>/predrawn.json",
        x.game_predrawn,
        name="game_predrawn",
    ),
    path("events/<slug:slug>/games/<int:number>/sigles.txt", x.game_sigles, name="game_sigles"),
    path("events/<slug:slug>/sigles.txt", x.event_sigles, name="event_sigles"),
    path("events/<slug:slug>/games/import/", x.game_import_page, name="game_import"),
    path(
        "api/v1/events/<slug:slug>/games/import",
        x.GameImportApi.as_view(),
        name="api_game_import",
    ),
    path("api/v1/events/<slug:slug>/export", v.EventExportApi.as_view(), name="api_event_export"),
    path(
        "api/v1/events/<slug:slug>/exports/<int:job_id>",
        v.ExportJobApi.as_view(),
        name="api_export_job",
    ),
]
