"""The events a director sees, and one event's page: its players by table and its games."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arbiter.services.multiplex_remote import multiplex_status
from arbiter.state import lexicon_info
from tournament.categories import AGE_CATEGORIES, SERIES_MAX, SERIES_MIN
from tournament.selectors import event_list_visible, event_status
from web.permissions import STAFF, event_role, event_roles, event_visible_or_404, signed_in


@signed_in
def event_list(request: HttpRequest) -> HttpResponse:
    events = list(event_list_visible(user=request.user))
    cards = [(event, event_status(event=event)) for event in events]
    return render(request, "console/event_list.html", {"events": events, "cards": cards})


@event_roles(*STAFF)
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    players = list(event.players.all())
    return render(
        request,
        "console/event_detail.html",
        {
            "event": event,
            "status": event_status(event=event),
            "players": players,
            "games": event.games.all(),
            "role": event_role(request.user, event),
            # the standings filter's choices (web.standings_filter): what the players hold
            "clubs": sorted({p.club for p in players if p.club}),
            "series_choices": range(SERIES_MIN, SERIES_MAX + 1),
            "age_categories": AGE_CATEGORIES,
            "lexicon": lexicon_info(event.lexicon),
            "rooms_count": event.rooms.count(),
            "multiplex": multiplex_status(event_id=event.pk),
        },
    )
