"""URLs of the downloads and background exports, as pages and as staff API calls."""

from __future__ import annotations

from django.urls import path

from web.exports import views as v

app_name = "exports"

urlpatterns = [
    path("events/<slug:slug>/export.xlsx", v.event_export_xlsx, name="event_export_xlsx"),
    path(
        "events/<slug:slug>/games/<int:number>/export.xlsx",
        v.game_export_xlsx,
        name="game_export_xlsx",
    ),
    path("events/<slug:slug>/standings.csv", v.standings_csv, name="standings_csv"),
    path("events/<slug:slug>/exports/", v.export_job_create, name="export_job_create"),
    path("events/<slug:slug>/exports/<int:job_id>/", v.export_job_page, name="export_job"),
    path(
        "events/<slug:slug>/exports/<int:job_id>/download",
        v.export_job_download,
        name="export_job_download",
    ),
    path("api/v1/events/<slug:slug>/export", v.EventExportApi.as_view(), name="api_event_export"),
    path(
        "api/v1/events/<slug:slug>/exports/<int:job_id>",
        v.ExportJobApi.as_view(),
        name="api_export_job",
    ),
]
