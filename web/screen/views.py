"""The room's projection screen: a page that polls ``state.json`` and follows the event's
current game (``tournament.selectors.game_current``) by itself."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from arbiter.selectors.console import console_state
from tournament.models import Event, Game, Round, Ruling
from tournament.selectors import game_current
from web.console.board import premium_classes
from web.permissions import STAFF, event_role, event_roles


def _event(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if event_role(request.user, event) is None:
        raise Http404("No such event, or you have no role in it.")
    return event


@event_roles(*STAFF)
def screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's projection screen: it follows the current game by itself."""
    return render(request, "screen/screen.html", {"event": _event(request, slug)})


@event_roles(*STAFF)
def screen_state(request: HttpRequest, slug: str) -> JsonResponse:
    event = _event(request, slug)
    game = game_current(event_id=event.pk)
    if game is None:
        return JsonResponse({"game": None, "event": event.name})
    state = console_state(game=game, now=timezone.now())
    r = state.round
    shown = r is not None and r.status == Round.Status.PUBLISHED
    found = Ruling.objects.filter(round=r, found_top=True).count() if shown else None
    top = None
    if shown and r is not None:
        top = {"ref": r.played_ref, "word": r.played_word, "score": r.played_score, "found": found}
    leaders = state.standings.rows[:10] if shown else []
    return JsonResponse(
        {
            "event": event.name,
            "game": game.number,
            "board": game.board,
            "premiums": premium_classes(game.board_layout),
            "round": None if r is None else r.number,
            "status": None if r is None else r.status,
            "rack": "" if r is None else r.rack,
            "remaining": state.remaining,
            "paused": bool(r and r.is_paused),
            "warning_seconds": event.warning_seconds,
            "top": top,
            "standings": [
                {"rank": row.rank, "name": row.name, "total": row.total, "gap": row.gap}
                for row in leaders
            ],
            "finished": game.status == Game.Status.FINISHED,
            "end_reason": game.end_reason,
        }
    )
