"""Pages: parse the request, call one selector or service, render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.selectors import event_get_visible, event_list_visible


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    events = list(event_list_visible(user=request.user))
    return render(request, "tournament/event_list.html", {"events": events})


@login_required
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_get_visible(user=request.user, slug=slug)
    if event is None:
        raise Http404("No such event, or you have no role in it.")
    return render(
        request,
        "tournament/event_detail.html",
        {"event": event, "players": event.players.all(), "games": event.games.all()},
    )
