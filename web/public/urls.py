from __future__ import annotations

from django.urls import path

from web.public import views

app_name = "public"

# /results/<slug>/live/, the page's stream, is answered before Django (web.live.asgi).
urlpatterns = [
    path("results/<slug:slug>/", views.results, name="results"),
    path("results/<slug:slug>/state.json", views.results_state, name="state"),
]
