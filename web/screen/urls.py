from __future__ import annotations

from django.urls import path

from web.screen import views

app_name = "screen"

urlpatterns = [
    path("events/<slug:slug>/screen/", views.screen, name="screen"),
    path("events/<slug:slug>/screen/state.json", views.screen_state, name="state"),
    path("events/<slug:slug>/games/<int:number>/screen/", views.game_screen, name="game_screen"),
    path(
        "events/<slug:slug>/games/<int:number>/screen/state.json",
        views.game_screen_state,
        name="game_state",
    ),
]
