"""The room's projection screen: a page that polls ``state.json``. One address per game
(``/events/<slug>/games/<n>/screen/``), and one for the event that follows its current game
(``tournament.selectors.game_current``) by itself."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from arbiter.selectors.screen import screen_state as screen_read
from arbiter.selectors.standings import PlayerFilter
from arbiter.state import lexicon_info
from engine.tiles import BLANK, TileSet
from tournament.errors import ApplicationError
from tournament.models import Event, Game
from tournament.selectors import game_current
from web.actions import game_or_404
from web.board import premium_classes
from web.i18n import event_language_activate
from web.permissions import STAFF, event_access, event_roles
from web.public_results import public_qr_svg, public_url
from web.standings_filter import player_filter_label, player_filter_parse, player_filter_query

# How long each page of the standings stays up when they do not fit on the screen.
STANDINGS_PAGE_SECONDS = 8


def _event(request: HttpRequest, slug: str) -> Event:
    return event_access(request.user, slug, STAFF)


def _only(request: HttpRequest) -> PlayerFilter:
    """The standings filter of the screen's address (``?series=2``: a category's screen)."""
    try:
        return player_filter_parse(request.GET)
    except ApplicationError as exc:
        raise Http404(exc.message) from None


def _simultaneous(request: HttpRequest) -> bool:
    """``?ranking=simultaneous``: the screen shows the one ranking of every room."""
    return request.GET.get("ranking", "") == "simultaneous"


def _query(request: HttpRequest, only: PlayerFilter) -> str:
    """The filter and the ranking asked for, carried from the page to its state."""
    query = player_filter_query(only)
    if _simultaneous(request):
        query += ("&" if query else "?") + "ranking=simultaneous"
    return query


def _page(request: HttpRequest, event: Event, game: Game | None, state_url: str) -> HttpResponse:
    event_language_activate(request, event)
    only = _only(request)
    return render(
        request,
        "screen/screen.html",
        {
            "event": event,
            "game": game,
            "state_url": state_url + _query(request, only),
            "page_seconds": STANDINGS_PAGE_SECONDS,
            "filter_label": player_filter_label(only),
            "simultaneous": _simultaneous(request),
            "public_qr": public_qr_svg(request, event.slug) if event.public_results else "",
            "public_url": public_url(request, event.slug) if event.public_results else "",
        },
    )


@event_roles(*STAFF)
def screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's projection screen: it follows the current game by itself."""
    event = _event(request, slug)
    return _page(request, event, None, reverse("screen:state", args=[slug]))


@event_roles(*STAFF)
def game_screen(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The projection screen of one game (a room playing game 2 while game 1 is reviewed)."""
    game = game_or_404(slug, number)
    return _page(request, game.event, game, reverse("screen:game_state", args=[slug, number]))


def _state_json(
    event: Event, game: Game | None, only: PlayerFilter | None = None, simultaneous: bool = False
) -> dict[str, Any]:
    lexicon = lexicon_info(event.lexicon if game is None else game.lexicon)
    base: dict[str, Any] = {
        "event": event.name,
        "warning_seconds": event.warning_seconds,
        "lexicon": {"name": lexicon.name, "words": lexicon.words, "label": lexicon.label},
    }
    if game is None:
        return base | {"game": None}
    state = screen_read(game=game, now=timezone.now(), only=only, simultaneous=simultaneous)
    r = state.round
    top = state.top
    return base | {
        "game": game.number,
        "formula": game.formula,
        "formula_label": game.formula_shown,
        "board": game.board,
        "premiums": premium_classes(game.board_layout),
        "values": {**TileSet.load(game.tile_set).values, BLANK: 0},
        "round": None if r is None else r.number,
        "status": None if r is None else r.status,
        "rack": "" if r is None else r.rack,
        "remaining": state.remaining,
        "paused": bool(r and r.is_paused),
        "top": None
        if top is None
        else {
            "round": top.round,
            "ref": top.ref,
            "word": top.word,
            "score": top.score,
            "found": top.found,
        },
        "standings_rounds": state.standings.rounds,
        # mort subite (FISF 2023 3.8.3): who is still in; each row's round out
        "sudden_death": state.standings.sudden_death,
        "still_in": state.standings.still_in if state.standings.sudden_death else None,
        "filter": player_filter_label(only) if only is not None else "",
        "simultaneous": simultaneous,
        "standings": [
            {
                "rank": row.rank,
                "overall_rank": row.overall_rank,
                "name": row.name,
                "total": row.total,
                "gap": row.gap,
                "room": row.room,
                "eliminated_at": row.eliminated_at,
            }
            for row in state.standings.rows
        ]
        if state.standings.rounds
        else [],
        "finished": game.status == Game.Status.FINISHED,
        "end_reason": game.end_reason,
    }


@event_roles(*STAFF)
def screen_state(request: HttpRequest, slug: str) -> JsonResponse:
    event = _event(request, slug)
    game = game_current(event_id=event.pk)
    return JsonResponse(_state_json(event, game, _only(request), _simultaneous(request)))


@event_roles(*STAFF)
def game_screen_state(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    game = game_or_404(slug, number)
    return JsonResponse(_state_json(game.event, game, _only(request), _simultaneous(request)))
