"""The printable sheets of an event and of its games (A4, from the browser)."""

from __future__ import annotations

from django.urls import path

from web.printing import views

app_name = "printing"

urlpatterns = [
    path("events/<slug:slug>/print/results/", views.event_results, name="event_results"),
    path(
        "events/<slug:slug>/games/<int:number>/print/results/",
        views.game_results,
        name="game_results",
    ),
    path("events/<slug:slug>/games/<int:number>/print/sheet/", views.game_sheet, name="game_sheet"),
    path(
        "events/<slug:slug>/games/<int:number>/print/cards/",
        views.score_cards,
        name="score_cards",
    ),
]
