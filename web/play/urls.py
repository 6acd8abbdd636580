from __future__ import annotations

from django.urls import path

from web.play import views

app_name = "play"

urlpatterns = [
    path("events/<slug:slug>/qr/", views.qr_sheet, name="qr_sheet"),
    path("events/<slug:slug>/players/<int:pk>/qr/", views.qr_player, name="qr_player"),
    path(
        "events/<slug:slug>/players/<int:pk>/token/revoke/",
        views.player_token_revoke_view,
        name="player_token_revoke",
    ),
    path(
        "events/<slug:slug>/players/<int:pk>/token/reissue/",
        views.player_token_reissue_view,
        name="player_token_reissue",
    ),
    path("play/", views.play, name="play"),
    path("play/<str:token>/", views.play_join, name="play_join"),
]
