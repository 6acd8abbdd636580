"""Setting an event up without the admin: a new event with its rules policy, players by hand
(or by importing a list), tables, clubs and categories, games (random, pre-drawn, typed in),
and who directs and arbitrates. Director only; every change goes through a service."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import Field
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from arbiter.services.interchange import (
    GameImportError,
    game_import_predrawn,
    predrawn_imported_message,
)
from arbiter.services.simultaneous import game_draw_whole
from arbiter.state import lexicon_info
from engine.lists import GRAMMALECTE_FR
from tournament.categories import AGE_CATEGORIES
from tournament.errors import ApplicationError
from tournament.models import Event, Player
from tournament.models.choices import Formula
from tournament.services.events import (
    POLICY_FIELDS,
    SHARED_RULES,
    event_create,
    event_policy_update,
)
from tournament.services.games import game_create
from tournament.services.players import player_register, player_update
from web.event_setup import french_list_play, role_grant, word_list_play
from web.forms import (
    DRAWN_WHOLE,
    EventForm,
    GameForm,
    PlayerForm,
    PolicyForm,
    RoleForm,
    WordListForm,
    form_error,
    new_event_defaults,
)
from web.permissions import DIRECTOR, AuthenticatedHttpRequest, event_roles, signed_in


def _policy_default(name: str) -> Any:
    """The Event model's default for one rule of the policy (each is a column of Event)."""
    field = Event._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"Event.{name} is not a column, so it has no default.")
    return field.get_default()


@signed_in
def event_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    initial = {f: _policy_default(f) for f in POLICY_FIELDS}
    initial |= new_event_defaults(translation.get_language() or "")  # the director's language
    form = EventForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                event = event_create(
                    name=data["name"],
                    starts_on=data["starts_on"],
                    venue=data.get("venue", ""),
                    actor=request.user,
                    **{f: data[f] for f in POLICY_FIELDS},
                )
            except ApplicationError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(
                    request,
                    gettext("%(event)s is created: register its players and add a game.")
                    % {"event": event.name},
                )
                return redirect("console:setup", slug=event.slug)
        else:
            messages.error(request, form_error(form))
    return render(request, "console/event_new.html", {"form": form})


@event_roles(DIRECTOR)
def event_setup(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    players = Player.objects.filter(event=event).order_by("table", "name")
    return render(
        request,
        "console/setup.html",
        {
            "event": event,
            "policy": _policy_form(event),
            "player_form": PlayerForm(),
            "game_form": GameForm(),
            "role_form": RoleForm(),
            "word_list_form": WordListForm(),
            "french_list": GRAMMALECTE_FR,
            "word_list_max_mb": settings.WORD_LIST_MAX_BYTES // 1024 // 1024,
            "lexicon": lexicon_info(event.lexicon),
            "players": players,
            "age_categories": AGE_CATEGORIES,
            "games": event.games.order_by("number"),
            "roles": event.roles.select_related("user").order_by("role", "user__username"),
        },
    )


def _policy_form(event: Event, data: Any = None) -> PolicyForm:
    """The policy form; a room's shared rules are its host's, shown but not changed here."""
    form = PolicyForm(data, instance=event)
    if event.host_id is not None:
        for name in SHARED_RULES:
            form.fields[name].disabled = True
            form.fields[name].help_text = gettext("Set by the simultaneous's host.")
    return form


def _policy(request: AuthenticatedHttpRequest, event: Event) -> str:
    form = _policy_form(event, request.POST)
    if not form.is_valid():
        raise ApplicationError(form_error(form), code="invalid")
    event_policy_update(
        event=event, actor=request.user, **{f: form.cleaned_data[f] for f in POLICY_FIELDS}
    )
    return gettext("The rules policy is saved.")


def _player(request: AuthenticatedHttpRequest, event: Event, pk: int | None) -> str:
    form = PlayerForm(request.POST)
    if not form.is_valid():
        raise ApplicationError(form_error(form), code="invalid")
    data: dict[str, Any] = {k: v if v is not None else "" for k, v in form.cleaned_data.items()}
    data["table"] = form.cleaned_data["table"]
    data["series"] = form.cleaned_data["series"]
    if pk is None:
        player = player_register(event=event, actor=request.user, **data)
        if player.table:
            return gettext("%(name)s is registered at table %(table)s.") % {
                "name": player.name,
                "table": player.table,
            }
        return gettext("%(name)s is registered.") % {"name": player.name}
    player = player_update(
        player=get_object_or_404(Player, pk=pk, event=event), actor=request.user, **data
    )
    return gettext("%(name)s is updated.") % {"name": player.name}


def _game(request: AuthenticatedHttpRequest, event: Event) -> str:
    form = GameForm(request.POST, request.FILES)
    if not form.is_valid():
        raise ApplicationError(form_error(form), code="invalid")
    data = form.cleaned_data
    formula = data.get("formula") or Formula.STANDARD
    if data["source"] == DRAWN_WHOLE:
        game = game_draw_whole(
            event=event, actor=request.user, seed=data.get("seed"), formula=formula
        )
        return gettext("Game %(number)s is drawn in advance: %(rounds)d rounds.") % {
            "number": game.number,
            "rounds": len((game.predrawn or {}).get("rounds", [])),
        }
    if "content" in data:
        game, read = game_import_predrawn(
            event=event,
            file_name=data["file_name"],
            content=data["content"],
            actor=request.user,
            formula=None if formula == Formula.STANDARD else formula,  # the file's, by default
        )
        return predrawn_imported_message(game, read)
    game = game_create(
        event=event,
        actor=request.user,
        source=data["source"],
        seed=data.get("seed"),
        formula=formula,
    )
    return gettext("Game %(number)s is added (%(source)s).") % {
        "number": game.number,
        "source": game.get_source_display().lower(),
    }


def _word_list(request: AuthenticatedHttpRequest, event: Event) -> str:
    return word_list_play(user=request.user, event=event, data=request.POST, files=request.FILES)


def _french_list(request: AuthenticatedHttpRequest, event: Event) -> str:
    return french_list_play(user=request.user, event=event)


def _role(request: AuthenticatedHttpRequest, event: Event) -> str:
    return role_grant(user=request.user, event=event, data=request.POST)


@event_roles(DIRECTOR)
@require_POST
def event_setup_post(
    request: AuthenticatedHttpRequest, slug: str, what: str, pk: int | None = None
) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    handlers = {
        "policy": lambda: _policy(request, event),
        "player": lambda: _player(request, event, pk),
        "game": lambda: _game(request, event),
        "role": lambda: _role(request, event),
        "wordlist": lambda: _word_list(request, event),
        "french": lambda: _french_list(request, event),
    }
    try:
        if what not in handlers:
            raise ApplicationError(
                gettext("Nothing to set up called '%(what)s'.") % {"what": what},
                code="unknown_action",
            )
        messages.success(request, handlers[what]())
    except GameImportError as exc:
        messages.error(request, " ".join([exc.message, *exc.lines()[:10]]))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect("console:setup", slug=slug)


@event_roles(DIRECTOR)
@require_GET
def word_list_state(request: HttpRequest, slug: str) -> JsonResponse:
    """The event's word list as the set-up page polls it while a worker compiles it."""
    event = get_object_or_404(Event, slug=slug)
    return JsonResponse(asdict(lexicon_info(event.lexicon)))
