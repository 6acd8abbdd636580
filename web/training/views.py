"""Training on a finished game (rules.md, "Training"), from a phone or a computer.

- ``/events/<slug>/training/``: the director opens games for training and hands out each
  one's link (``/training/g/<signed game id>/``);
- ``/training/``: someone signed in: the games open for training and their own attempts;
- ``/training/g/<key>/``: the link's page: a name, the mode and the time per round, then the
  attempt starts;
- ``/training/a/<token>/``: the attempt (its secret address: bookmark it to resume): the round
  in play with its clock, then its result beside the room's, then the summary.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core import signing
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from arbiter.selectors.training import room_rounds, training_round, training_summary
from arbiter.services.training import (
    ROUND_SECONDS_MAX,
    ROUND_SECONDS_MIN,
    TOPPING_SECONDS,
    TOPPING_TIMEOUT_PENALTY,
    TrainingRefused,
    game_training_set,
    training_next,
    training_rounds,
    training_slip_submit,
    training_start,
    training_time_up,
)
from engine.tiles import BLANK, TileSet
from tournament.errors import ApplicationError
from tournament.models import Event, Game, Round, TrainingAttempt
from web.board import board_squares
from web.i18n import event_language_activate
from web.inputs import INT32_MAX, Bounds, control_character_message, integer_parse
from web.permissions import DIRECTOR, AuthenticatedHttpRequest, event_roles, public, signed_in

SALT = "tournament.training"


def _number(field: str, text: str | None, bounds: Bounds) -> int | None:
    """A whole number typed in a form (empty: None); a clear refusal otherwise."""
    if text is None or not text.strip():
        return None
    try:
        return integer_parse(field, text, bounds)
    except ValueError as exc:
        raise TrainingRefused(str(exc), code="bad_number") from None


def _text(field: str, text: str) -> str:
    problem = control_character_message(field, text)
    if problem is not None:
        raise TrainingRefused(problem, code="bad_text")
    return text


def training_key(game: Game) -> str:
    """The training link's key: the game's id signed with the site's key (the same link each
    time it is shown)."""
    return signing.Signer(salt=SALT).sign(str(game.pk))


def _game_of_key(key: str) -> Game:
    try:
        pk = int(signing.Signer(salt=SALT).unsign(key))
    except (signing.BadSignature, ValueError):
        raise Http404(gettext("This training link is not valid.")) from None
    game = Game.objects.select_related("event").filter(pk=pk).first()
    if game is None or not game.is_open_for_training:
        raise Http404(gettext("This game is not open for training."))
    return game


def _rack_tiles(rack: str, tile_set: str) -> list[dict[str, Any]]:
    values = TileSet.load(tile_set).values
    return [
        {"tile": t, "blank": t == BLANK, "value": "" if t == BLANK else values.get(t, "")}
        for t in rack
    ]


@event_roles(DIRECTOR)
def event_training(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The director's page: each finished game, open or closed for training, with its link."""
    event = get_object_or_404(Event, slug=slug)
    if request.method == "POST":
        try:
            number = _number(gettext("Game"), request.POST.get("game"), Bounds(1, INT32_MAX))
        except TrainingRefused:
            number = None
        game = get_object_or_404(Game, event=event, number=number or 0)
        opened = request.POST.get("open") == "1"
        game_training_set(game=game, open=opened, actor=request.user)
        said = (
            gettext("Game %(number)s is open for training.")
            if opened
            else gettext("Game %(number)s is closed for training.")
        )
        messages.success(request, said % {"number": game.number})
        return redirect("training:event", slug=slug)
    games = []
    for game in event.games.order_by("number"):
        link = (
            request.build_absolute_uri(reverse("training:game", args=[training_key(game)]))
            if game.is_open_for_training
            else ""
        )
        attempts = game.training_attempts.count()
        games.append({"game": game, "link": link, "attempts": attempts})
    return render(request, "training/event.html", {"event": event, "games": games})


@signed_in
def training_home(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The games open for training, newest first, and one's own attempts."""
    open_games = (
        Game.objects.filter(status=Game.Status.FINISHED)
        .filter(Q(training_open=True) | Q(event__training_open=True))
        .select_related("event")
        .order_by("-event__starts_on", "event__name", "number")[:100]
    )
    return render(
        request,
        "training/home.html",
        {
            "games": [{"game": g, "key": training_key(g)} for g in open_games],
            "attempts": TrainingAttempt.objects.filter(user=request.user)
            .select_related("game__event")
            .order_by("-started_at")[:50],
        },
    )


@public
def training_game(request: HttpRequest, key: str) -> HttpResponseBase:
    """The training link: choose a mode and a time, and start."""
    game = _game_of_key(key)
    event_language_activate(request, game.event)
    error = ""
    if request.method == "POST":
        try:
            seconds = _number(
                gettext("Time per round"), request.POST.get("seconds"), Bounds(0, INT32_MAX)
            )
            attempt = training_start(
                game=game,
                user=request.user,
                name=_text(gettext("Name"), request.POST.get("name", "")),
                mode=request.POST.get("mode", "replay"),
                round_seconds=seconds,
                now=timezone.now(),
            )
        except ApplicationError as exc:
            error = exc.message
        else:
            return redirect("training:attempt", attempt=attempt.token)
    return render(
        request,
        "training/start.html",
        {
            "game": game,
            "event": game.event,
            "rounds": len(training_rounds(game)),
            "modes": TrainingAttempt.Mode.choices,
            "seconds_min": ROUND_SECONDS_MIN,
            "seconds_max": ROUND_SECONDS_MAX,
            "topping_seconds": TOPPING_SECONDS,
            "topping_penalty": TOPPING_TIMEOUT_PENALTY,
            "error": error,
        },
        status=400 if error else 200,
    )


def _attempt_or_404(token: str) -> TrainingAttempt:
    attempt = TrainingAttempt.objects.select_related("game__event").filter(token=token).first()
    if attempt is None:
        raise Http404(gettext("No such training."))
    return attempt


@public
def training_attempt(request: HttpRequest, attempt: str) -> HttpResponseBase:
    """The attempt: the round in play, its result, or the summary. POST ``action``: ``slip``
    (word, ref, score), ``time`` (the clock ran out), ``next``."""
    token = attempt
    found = _attempt_or_404(token)
    game = found.game
    event_language_activate(request, game.event)
    now = timezone.now()
    error = ""
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "slip":
                training_slip_submit(
                    attempt=found,
                    word=_text(gettext("Word"), request.POST.get("word", "")),
                    ref=_text(gettext("Reference"), request.POST.get("ref", "")),
                    score=_number(gettext("Score"), request.POST.get("score"), Bounds(0, 9999)),
                    now=now,
                )
            elif action == "time":
                training_time_up(attempt=found, now=now)
            elif action == "next":
                training_next(attempt=found, now=now)
            else:
                raise TrainingRefused(gettext("Unknown action."), code="bad_action")
        except ApplicationError as exc:
            error = exc.message
        else:
            return redirect("training:attempt", attempt=token)
    else:
        training_time_up(attempt=found, now=now)  # a clock that ran out while away
    found.refresh_from_db()
    return render(
        request,
        "training/attempt.html",
        _attempt_context(found, now, error),
        status=400 if error else 200,
    )


def _attempt_context(attempt: TrainingAttempt, now: Any, error: str) -> dict[str, Any]:
    game = attempt.game
    summary = training_summary(attempt)
    context: dict[str, Any] = {
        "attempt": attempt,
        "game": game,
        "event": game.event,
        "summary": summary,
        "error": error,
        "topping": attempt.mode == TrainingAttempt.Mode.TOPPING,
        "warning_seconds": min(game.event.warning_seconds, attempt.round_seconds),
    }
    if attempt.is_finished:
        context["state"] = "finished"
        return context
    round = (
        Round.objects.select_related("game__event")
        .filter(game=game, status=Round.Status.PUBLISHED, number=attempt.round_number)
        .first()
    )
    if round is None:  # the game changed since (a round annulled): what was played stays
        context["state"] = "finished"
        context["error"] = error or gettext("This game has no round %(number)s any more.") % {
            "number": attempt.round_number
        }
        return context
    shown = training_round(round)
    context["round"] = round
    context["rack"] = _rack_tiles(round.rack, game.tile_set)
    if attempt.round_started_at is not None:
        context["state"] = "playing"
        context["remaining"] = attempt.remaining(at=now)
        context["board"] = board_squares(shown.board, game.board_layout)
        context["tries"] = list(
            attempt.slips.filter(round_number=round.number, counts=False).order_by("received_at")
        )
        return context
    context["state"] = "result"
    context["board"] = board_squares(shown.top_board, game.board_layout, shown.top_squares)
    context["row"] = next((r for r in summary.rows if r["number"] == round.number), None)
    context["room"] = room_rounds(game).get(round.number)
    context["last"] = round.number >= summary.rounds
    return context
