from __future__ import annotations

from django.urls import path

from tournament.api import views

app_name = "play_api"

urlpatterns = [
    path("play/state", views.PlayStateView.as_view(), name="state"),
    path("play/standings", views.PlayStandingsView.as_view(), name="standings"),
    path("play/submissions", views.PlaySubmissionsView.as_view(), name="submissions"),
]
