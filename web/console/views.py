"""The director's console and the arbiters' slip entry: parse, check the role, call one action
or selector, render. The staff API (``web.api.staff``) runs the same actions."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from arbiter.selectors.console import (
    console_state,
    double_entry_mismatches,
    round_disciplines,
    round_moves_ranked,
    round_rulings,
    table_slips,
)
from arbiter.services.multiplex_remote import multiplex_status
from arbiter.state import formula_of
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Game, Round
from tournament.models.slip import RULING_CHOICES_SHOWN
from tournament.selectors import event_games, round_current
from web.actions import game_or_404, perform
from web.board import board_rows
from web.paging import page_of
from web.permissions import (
    ARBITER,
    DIRECTOR,
    STAFF,
    AuthenticatedHttpRequest,
    event_role,
    event_roles,
    role_require,
)

# An arbiter types paper slips from the opening until the round is published (rules.md, 12).
ENTRY_STATUSES = (Round.Status.OPEN, Round.Status.CLOSED, Round.Status.SCORED)
# Rulings are amended once a round is scored, before or after its publication.
AMENDABLE = (Round.Status.SCORED, Round.Status.PUBLISHED)


@event_roles(*STAFF)
def game_console(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    game = game_or_404(slug, number)
    state = console_state(game=game, now=timezone.now())
    return render(
        request,
        "console/game.html",
        {
            "game": game,
            "event": game.event,
            "is_director": event_role(request.user, game.event) == DIRECTOR,
            "games": list(event_games(event_id=game.event_id)),
            "state": state,
            "rows": board_rows(game),
            "codes": RULING_CHOICES_SHOWN,
            "Status": Round.Status,
            "amend_round": game.rounds.filter(status__in=AMENDABLE)
            .order_by("-number")
            .values_list("number", flat=True)
            .first(),
            "multiplex": multiplex_status(event_id=game.event_id),
        },
    )


@event_roles(*STAFF)
@require_POST
def game_action(
    request: AuthenticatedHttpRequest, slug: str, number: int, action: str
) -> HttpResponse:
    game = game_or_404(slug, number)
    try:
        messages.success(request, perform(game, request.user, action, request.POST).message)
    except ApplicationError as exc:
        if action == "slip":  # the arbiter's typing is never lost: the form comes back filled
            return _slip_entry_page(request, game, typed=request.POST, refused=exc, status=400)
        messages.error(request, exc.message)
    return redirect(_back(request.POST, slug, number, action))


def _back(data: QueryDict, slug: str, number: int, action: str) -> str:
    """Where an action's page comes back to: the slip entry (in its mode), a round's rulings
    (``rulings`` names the round), else the console."""
    if action in ("slip", "resolve"):
        second = action == "slip" and data.get("check") == "1"
        return reverse("console:slip_entry", args=[slug, number]) + (
            "?entry=second" if second else ""
        )
    page = str(data.get("rulings", ""))
    if page.isascii() and page.isdigit() and 0 < len(page) < 10:
        return reverse("console:round_rulings", args=[slug, number, int(page)])
    return reverse("console:game", args=[slug, number])


@event_roles(*STAFF)
def game_state(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    """What the console polls: status, clock and who has handed in (never what)."""
    game = game_or_404(slug, number)
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


@event_roles(*STAFF)
def round_moves(request: HttpRequest, slug: str, number: int, round_number: int) -> HttpResponse:
    """Every legal move of a round, ranked (equal scores share a rank), a page at a time."""
    game = game_or_404(slug, number)
    r = get_object_or_404(
        Round.objects.exclude(status=Round.Status.ANNULLED), game=game, number=round_number
    )
    moves = round_moves_ranked(round=r)
    shown, page, pages = page_of(moves, request.GET.get("page", "1"))
    return render(
        request,
        "console/moves.html",
        {
            "game": game,
            "event": game.event,
            "round": r,
            "moves": shown,
            "total": len(moves),
            "page": page,
            "pages": pages,
        },
    )


@event_roles(*STAFF)
def game_audit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The game's whole audit log, newest first."""
    game = game_or_404(slug, number)
    entries = AuditEntry.objects.filter(game=game).select_related("round").order_by("-at", "-pk")
    return render(
        request, "console/audit.html", {"game": game, "event": game.event, "entries": entries}
    )


@event_roles(*STAFF)
def round_amendments(
    request: HttpRequest, slug: str, number: int, round_number: int
) -> HttpResponse:
    """Amendments: the rulings of any scored or published round, each amendable (points, ruling,
    reference penalty, warning, average, late) with a reason; a slip found after publication."""
    game = game_or_404(slug, number)
    r = get_object_or_404(
        Round.objects.exclude(status=Round.Status.ANNULLED), game=game, number=round_number
    )
    rounds = game.rounds.filter(status__in=AMENDABLE)
    return render(
        request,
        "console/rulings.html",
        {
            "game": game,
            "event": game.event,
            "round": r,
            "rounds": rounds.order_by("number"),
            "rulings": round_rulings(round=r) if r.status in AMENDABLE else [],
            "amendable": r.status in AMENDABLE,
            "codes": RULING_CHOICES_SHOWN,
            "disciplines": round_disciplines(round=r),
        },
    )


@event_roles(*STAFF)
def slip_table(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    """What the slip entry shows beside the form for a table: the player and their slips of the
    round in play (phone, API, typed), newest first."""
    game = game_or_404(slug, number)
    role_require(request.user, game.event, DIRECTOR, ARBITER)
    asked = str(request.GET.get("table", ""))
    if not (asked.isascii() and asked.isdigit() and 0 < len(asked) < 10):
        return JsonResponse(
            {"detail": gettext("Table is a whole number from 1."), "code": "bad_table"}, status=400
        )
    current = round_current(game_id=game.pk)
    found = None if current is None else table_slips(round=current, table=int(asked))
    if found is None:
        return JsonResponse(
            {
                "detail": gettext("No player sits at table %(table)s.") % {"table": int(asked)},
                "code": "no_such_table",
            },
            status=404,
        )
    return JsonResponse(
        {
            "table": found.table,
            "name": found.name,
            "round": current.number if current else None,
            "slips": [
                {
                    "word": s.word,
                    "ref": s.ref,
                    "score": s.announced_score,
                    "source": s.get_source_display().lower(),
                    "at": f"{timezone.localtime(s.received_at):%H:%M:%S}",
                    "current": s.is_current,
                    "late": s.late,
                    "by": s.entered_by.get_username() if s.entered_by else "",
                }
                for s in found.slips
            ],
        }
    )


@event_roles(*STAFF)
def slip_entry(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The arbiters' keyboard-fast form for paper slips: table, word, reference, score, Enter."""
    return _slip_entry_page(request, game_or_404(slug, number))


def _slip_entry_page(
    request: HttpRequest,
    game: Game,
    *,
    typed: QueryDict | None = None,
    refused: ApplicationError | None = None,
    status: int = 200,
) -> HttpResponse:
    """The entry form; after a refusal, filled with what was typed, the reason, and (when the
    player already has a slip) the choice between a correction and multiple slips."""
    role = role_require(request.user, game.event, DIRECTOR, ARBITER)
    current = round_current(game_id=game.pk)
    state = console_state(game=game, now=timezone.now())
    context: dict[str, object] = {
        "game": game,
        "event": game.event,
        "round": current,
        "state": state,
        "role": role,
        "typed": typed or {},
        "refused": refused,
        "existing": refused.data.get("existing") if refused is not None else None,
        "accepts": current is not None and current.status in ENTRY_STATUSES,
        "second": request.GET.get("entry") == "second" or bool(typed and typed.get("check")),
        "mismatches": [] if current is None else double_entry_mismatches(round=current),
    }
    formula = formula_of(game)  # the game's formula rules the entries (docs/formulas.md)
    context["rack_size"] = formula.rack_size
    context["bonuses"] = () if formula.play.is_standard else formula.bonuses
    return render(request, "console/slip_entry.html", context, status=status)
