"""Results for the audience (rules.md): ``/results/<slug>/``, a page anyone may open (no login,
no token) when the event's director turned it on (``Event.public_results``), and its state,
``/results/<slug>/state.json``, made and kept once per version of the event
(``web.public_results``); the stream ``/results/<slug>/live/`` (``web.live.asgi``) says when
to read it again.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation

from web.i18n import language_chosen
from web.permissions import public
from web.public_results import (
    public_body,
    public_event_or_404,
    public_state_bytes,
    public_version,
)


@public
def results_state(request: HttpRequest, slug: str) -> HttpResponse:
    """The page's state as JSON, with the server's time (the clock counts from the deadline)."""
    event = public_event_or_404(slug)
    version = public_version(event.pk)
    etag = f'"{version}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        body = public_state_bytes(event.pk, version)
        response = HttpResponse(public_body(body), content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@public
def results(request: HttpRequest, slug: str) -> HttpResponse:
    """The audience's page: drawn by its script from ``state.json``."""
    event = public_event_or_404(slug)
    language = language_chosen(request) or event.language
    translation.activate(language)
    request.LANGUAGE_CODE = language
    return render(
        request,
        "public/results.html",
        {
            "event": event,
            "state_url": reverse("public:state", args=[slug]),
            "live_url": f"/results/{slug}/live/",  # answered by web.live.asgi
        },
    )
