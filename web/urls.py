"""The faces' URLs, mounted at the root by ``config.urls``."""

from __future__ import annotations

from django.urls import include, path

from web.api.urls import play_patterns, staff_patterns

urlpatterns = [
    # First: a phone's calls (three fixed paths no other pattern matches) are found without
    # trying the faces' seventy patterns before them (a room's slips at the deadline).
    path("api/v1/", include((play_patterns, "play_api"))),
    path("", include("web.console.urls")),  # before the others: "events/new/" is not a slug
    path("", include("web.play.urls")),
    path("", include("web.screen.urls")),
    path("", include("web.exports.urls")),
    path("", include("web.printing.urls")),
    path("", include("web.training.urls")),
    path("", include("web.public.urls")),
    path("", include("web.history.urls")),
    path("api/v1/", include((staff_patterns, "staff_api"))),
]
