"""The events a director sees, and one event's page: its players by table and its games."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.selectors import event_list_visible
from web.permissions import STAFF, event_role, event_roles, event_visible_or_404, signed_in


@signed_in
def event_list(request: HttpRequest) -> HttpResponse:
    events = list(event_list_visible(user=request.user))
    return render(request, "console/event_list.html", {"events": events})


@event_roles(*STAFF)
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    return render(
        request,
        "console/event_detail.html",
        {
            "event": event,
            "players": event.players.all(),
            "games": event.games.all(),
            "role": event_role(request.user, event),
        },
    )
