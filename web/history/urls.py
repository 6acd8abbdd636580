from __future__ import annotations

from django.urls import path

from web.history import views

app_name = "history"

urlpatterns = [
    path("players/<str:licence>/history/", views.history_page, name="player"),
    path("players/<str:licence>/history.csv", views.history_csv, name="player_csv"),
    path("players/<str:licence>/history.xlsx", views.history_xlsx, name="player_xlsx"),
    path("seasons/", views.season_list, name="seasons"),
    path("seasons/<slug:slug>/", views.season_page, name="season"),
    path("seasons/<slug:slug>/print/", views.season_print, name="season_print"),
    path("seasons/<slug:slug>/ranking.xlsx", views.season_xlsx, name="season_xlsx"),
]
