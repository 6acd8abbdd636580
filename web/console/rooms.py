"""The simultaneous event's pages (issue 16.1): its rooms and how far each has played, the one
ranking over every room (live: the page refreshes itself), adding a room, a room's results file
to hand to the central installation, and a remote room's file imported.

The page answers at every room's address as at the host's (``/events/<slug>/simultaneous/``),
for that event's staff: a room's arbiters follow the ranking from their own event.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from arbiter.selectors.rooms import room_results, rooms_progress
from arbiter.selectors.standings import standings_simultaneous_live
from arbiter.services.room_files import RoomResultsError
from arbiter.services.rooms import room_results_import
from tournament.categories import AGE_CATEGORIES, SERIES_MAX, SERIES_MIN
from tournament.errors import ApplicationError
from tournament.models import Event, Player
from tournament.selectors import host_of
from tournament.services.rooms import room_create
from web.forms import form_error
from web.permissions import DIRECTOR, STAFF, AuthenticatedHttpRequest, event_role, event_roles
from web.standings_filter import common_rounds_asked, player_filter_parse, player_filter_query

# The page follows the rooms live (static/console/live.js, web.live); where the live stream
# cannot be used, it reads its rooms and ranking again this often (never a whole reload).
REFRESH_SECONDS = 60


class RoomForm(forms.Form):
    name = forms.CharField(label=_("Room"), max_length=200)
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    remote = forms.BooleanField(
        label=_("Played on another installation (its results are imported from its file)"),
        required=False,
    )


class RoomResultsForm(forms.Form):
    file = forms.FileField(label=_("Room results file (.json)"))


@event_roles(*STAFF)
@require_GET
def simultaneous_page(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    host = host_of(event)
    try:
        only = player_filter_parse(request.GET)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("console:simultaneous", slug=slug)
    common = common_rounds_asked(request.GET)
    everyone = Player.objects.filter(event__in=[host, *host.rooms.all()])
    clubs = sorted(set(everyone.exclude(club="").values_list("club", flat=True)))
    return render(
        request,
        "console/simultaneous.html",
        {
            "event": event,
            "host": host,
            "role": event_role(request.user, event),
            "host_role": event_role(request.user, host),
            "rooms": rooms_progress(host),
            "standings": standings_simultaneous_live(host=host, only=only, common=common),
            "only": only,
            "only_query": player_filter_query(only),
            "common": common,
            "filtered": not only.is_empty,
            "clubs": clubs,
            "series_choices": range(SERIES_MIN, SERIES_MAX + 1),
            "age_categories": AGE_CATEGORIES,
            "room_form": RoomForm(),
            "refresh": REFRESH_SECONDS,
        },
    )


@event_roles(DIRECTOR)
@require_POST
def room_add(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """A new room of the event (which becomes a simultaneous event's host)."""
    host = get_object_or_404(Event, slug=slug)
    form = RoomForm(request.POST)
    try:
        if not form.is_valid():
            raise ApplicationError(form_error(form), code="invalid")
        room = room_create(
            host=host,
            name=form.cleaned_data["name"],
            venue=form.cleaned_data["venue"],
            remote=form.cleaned_data["remote"],
            actor=request.user,
        )
        games = room.games.count()
        messages.success(
            request,
            ngettext(
                "The room %(room)s is added, with %(games)d game.",
                "The room %(room)s is added, with %(games)d games.",
                games,
            )
            % {"room": room.name, "games": games},
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect("console:simultaneous", slug=host_of(host).slug)


@event_roles(*STAFF)
@require_GET
def room_results_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's results file, for the simultaneous's central installation."""
    event = get_object_or_404(Event, slug=slug)
    body = json.dumps(room_results(event), ensure_ascii=False, separators=(",", ":"))
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-room-results.json"'
    return response


@event_roles(DIRECTOR)
@require_POST
def room_results_upload(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """A remote room's results file, imported; the report, or every problem, as messages."""
    room = get_object_or_404(Event, slug=slug)
    form = RoomResultsForm(request.POST, request.FILES)
    try:
        if not form.is_valid():
            raise ApplicationError(form_error(form), code="invalid")
        report = room_results_import(
            room=room, raw=form.cleaned_data["file"].read(), actor=request.user
        )
        if not report.changed:
            messages.success(request, gettext("This file was imported before: nothing changed."))
        else:
            messages.success(
                request,
                gettext(
                    "Imported. Rounds added: %(rounds)d. Players added: %(added)d, matched: "
                    "%(matched)d. Rulings added: %(rulings)d, changed: %(changed)d."
                )
                % {
                    "rounds": report.rounds_added,
                    "added": report.players_added,
                    "matched": report.players_matched,
                    "rulings": report.rulings_added,
                    "changed": report.rulings_changed,
                },
            )
    except RoomResultsError as exc:
        messages.error(request, exc.message)
        for problem in exc.errors[:50]:
            messages.error(request, problem)
        if len(exc.errors) > 50:
            messages.error(
                request, gettext("... and %(more)d more.") % {"more": len(exc.errors) - 50}
            )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect("console:simultaneous", slug=slug)
