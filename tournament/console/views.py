"""Console, slip entry and projection screen: parse, check the role, call one action or
selector, render. The staff API runs the same actions."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import ApplicationError
from tournament.console.actions import ACTIONS
from tournament.console.selectors import (
    board_rows,
    console_state,
    round_current,
    round_moves_ranked,
)
from tournament.models import AuditEntry, Event, Game, Round, Ruling
from tournament.roles import ARBITER, DIRECTOR, event_role, role_require


def _game(slug: str, number: int) -> Game:
    return get_object_or_404(Game.objects.select_related("event"), event__slug=slug, number=number)


def perform(game: Game, user: Any, action: str, data: Any) -> str:
    """Run one named action for ``user`` on ``game`` (role checked); returns what happened."""
    if action not in ACTIONS:
        raise ApplicationError(f"Unknown action {action!r}.")
    roles, run = ACTIONS[action]
    role_require(user, game.event, *roles)
    return run(game, user, data)


@login_required
def game_console(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    game = _game(slug, number)
    role = role_require(request.user, game.event, DIRECTOR, ARBITER)
    if role == ARBITER:
        return redirect("console:slip_entry", slug=slug, number=number)
    state = console_state(game=game, now=timezone.now())
    return render(
        request,
        "tournament/console/game.html",
        {"game": game, "event": game.event, "state": state, "rows": board_rows(game), "codes": Ruling.Code.choices, "Status": Round.Status},
    )


@login_required
@require_POST
def game_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    game = _game(slug, number)
    try:
        messages.success(request, perform(game, request.user, action, request.POST))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    target = "console:slip_entry" if action == "slip" else "console:game"
    return redirect(target, slug=slug, number=number)


@login_required
def game_state(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    """What the console polls: status, clock and who has handed in (never what)."""
    game = _game(slug, number)
    role_require(request.user, game.event, DIRECTOR, ARBITER)
    state = console_state(game=game, now=timezone.now())
    r = state.round
    return JsonResponse(
        {
            "round": None if r is None else r.number,
            "status": None if r is None else r.status,
            "paused": bool(r and r.is_paused),
            "remaining": state.remaining,
            "slips": state.slips,
            "missing": [{"table": p.table, "name": p.name} for p in state.missing],
            "tops_ready": bool(r and r.tops_ready_at),
        }
    )


MOVES_PER_PAGE = 200


@login_required
def round_moves(request: HttpRequest, slug: str, number: int, round_number: int) -> HttpResponse:
    """Every legal move of a round, ranked (equal scores share a rank), a page at a time."""
    game = _game(slug, number)
    role_require(request.user, game.event, DIRECTOR)
    r = get_object_or_404(Round.objects.exclude(status=Round.Status.ANNULLED), game=game, number=round_number)
    moves = round_moves_ranked(round=r)
    asked = str(request.GET.get("page", "1"))
    page = int(asked) if asked.isdigit() and int(asked) > 0 else 1
    pages = max(1, -(-len(moves) // MOVES_PER_PAGE))
    page = min(page, pages)
    shown = moves[(page - 1) * MOVES_PER_PAGE : page * MOVES_PER_PAGE]
    return render(request, "tournament/console/moves.html", {"game": game, "event": game.event, "round": r, "moves": shown, "total": len(moves), "page": page, "pages": pages})


@login_required
def game_audit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The game's whole audit log, newest first."""
    game = _game(slug, number)
    role_require(request.user, game.event, DIRECTOR)
    entries = AuditEntry.objects.filter(game=game).select_related("round").order_by("-at", "-pk")
    return render(request, "tournament/console/audit.html", {"game": game, "event": game.event, "entries": entries})


@login_required
def slip_entry(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The arbiters' keyboard-fast form for paper slips: table, word, reference, score, Enter."""
    game = _game(slug, number)
    role = role_require(request.user, game.event, DIRECTOR, ARBITER)
    current = round_current(game)
    state = console_state(game=game, now=timezone.now())
    return render(request, "tournament/console/slip_entry.html", {"game": game, "event": game.event, "round": current, "state": state, "role": role})


@login_required
def screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's projection screen: it follows the running game by itself."""
    event = get_object_or_404(Event, slug=slug)
    if event_role(request.user, event) is None:
        raise Http404("No such event, or you have no role in it.")
    return render(request, "tournament/console/screen.html", {"event": event})


def _screen_game(event: Event) -> Game | None:
    return event.games.filter(status=Game.Status.RUNNING).order_by("number").first() or event.games.order_by("-number").first()


@login_required
def screen_state(request: HttpRequest, slug: str) -> JsonResponse:
    event = get_object_or_404(Event, slug=slug)
    if event_role(request.user, event) is None:
        raise Http404("No such event, or you have no role in it.")
    game = _screen_game(event)
    if game is None:
        return JsonResponse({"game": None, "event": event.name})
    now = timezone.now()
    state = console_state(game=game, now=now)
    r = state.round
    shown = r is not None and r.status == Round.Status.PUBLISHED
    found = Ruling.objects.filter(round=r, found_top=True).count() if shown else None
    return JsonResponse(
        {
            "event": event.name,
            "game": game.number,
            "board": game.board,
            "premiums": [[sq["premium"] for sq in row["squares"]] for row in board_rows(game)],
            "round": None if r is None else r.number,
            "status": None if r is None else r.status,
            "rack": "" if r is None else r.rack,
            "remaining": state.remaining,
            "paused": bool(r and r.is_paused),
            "warning_seconds": event.warning_seconds,
            "top": {"ref": r.played_ref, "word": r.played_word, "score": r.played_score, "found": found} if shown and r is not None else None,
            "standings": [{"rank": row.rank, "name": row.name, "total": row.total, "gap": row.gap} for row in state.standings.rows[:10]] if shown else [],
            "finished": game.status == Game.Status.FINISHED,
            "end_reason": game.end_reason,
        }
    )


class StaffGameActionView(APIView):
    """``POST /api/v1/staff/events/<slug>/games/<n>/<action>``: every console action as a staff
    API call (session or basic authentication); answers ``{"detail": what happened}``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="staff_game_action",
        summary="A director's or arbiter's action on a game: draw, rack, open, extend, pause, resume, close, publish, annul, choose_top, amend, slip",
        request=inline_serializer(
            name="StaffAction",
            fields={
                "rack": serializers.CharField(required=False),
                "seconds": serializers.IntegerField(required=False),
                "reason": serializers.CharField(required=False),
                "ref": serializers.CharField(required=False),
                "word": serializers.CharField(required=False),
                "ruling": serializers.IntegerField(required=False),
                "points": serializers.IntegerField(required=False),
                "penalty": serializers.IntegerField(required=False),
                "code": serializers.CharField(required=False),
                "table": serializers.IntegerField(required=False),
                "score": serializers.IntegerField(required=False),
                "check": serializers.BooleanField(required=False),
                "late": serializers.BooleanField(required=False),
            },
        ),
        responses={200: inline_serializer(name="StaffActionDone", fields={"detail": serializers.CharField()})},
    )
    def post(self, request: Request, slug: str, number: int, action: str) -> Response:
        game = _game(slug, number)
        return Response({"detail": perform(game, request.user, action, request.data)}, status=status.HTTP_200_OK)
