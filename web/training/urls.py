from __future__ import annotations

from django.urls import path

from web.training import views

app_name = "training"

urlpatterns = [
    path("events/<slug:slug>/training/", views.event_training, name="event"),
    path("training/", views.training_home, name="home"),
    path("training/g/<str:key>/", views.training_game, name="game"),
    path("training/a/<str:attempt>/", views.training_attempt, name="attempt"),
]
