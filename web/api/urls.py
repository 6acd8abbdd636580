"""The v1 API: the player endpoints (``play_api``) and the staff actions (``staff_api``)."""

from __future__ import annotations

from django.urls import path

from web.api import staff, views

play_patterns = [
    path("play/state", views.PlayStateView.as_view(), name="state"),
    path("play/standings", views.PlayStandingsView.as_view(), name="standings"),
    path("play/submissions", views.PlaySubmissionsView.as_view(), name="submissions"),
]

staff_patterns = [
    path(
        "staff/events/<slug:slug>/games/<int:number>/<str:action>",
        staff.StaffGameActionView.as_view(),
        name="action",
    ),
]
