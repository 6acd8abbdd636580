from __future__ import annotations

from django.urls import path

from tournament import views, views_play

app_name = "tournament"

urlpatterns = [
    path("", views.event_list, name="event_list"),
    path("events/<slug:slug>/", views.event_detail, name="event_detail"),
    path("events/<slug:slug>/qr/", views_play.qr_sheet, name="qr_sheet"),
    path("events/<slug:slug>/players/<int:pk>/qr/", views_play.qr_player, name="qr_player"),
    path(
        "events/<slug:slug>/players/<int:pk>/token/revoke/",
        views_play.player_token_revoke_view,
        name="player_token_revoke",
    ),
    path(
        "events/<slug:slug>/players/<int:pk>/token/reissue/",
        views_play.player_token_reissue_view,
        name="player_token_reissue",
    ),
    path("play/", views_play.play, name="play"),
    path("play/<str:token>/", views_play.play_join, name="play_join"),
]

from tournament.urls_exports import urlpatterns as exports_urlpatterns  # noqa: E402

urlpatterns += exports_urlpatterns
