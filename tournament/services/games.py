from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext

from tournament.errors import ApplicationError
from tournament.models import Event, Game
from tournament.models.choices import Formula
from tournament.services.audit import audit_record


def formula_checked(formula: str | None) -> str:
    """A game's formula by name (None: standard duplicate); an unknown one is refused."""
    formula = formula or Formula.STANDARD
    if formula not in Formula.values:
        raise ApplicationError(
            gettext("Unknown formula '%(formula)s': choose %(formulas)s.")
            % {"formula": formula[:40], "formulas": ", ".join(Formula.values)},
            code="unknown_formula",
        )
    return formula


@transaction.atomic
def game_create(
    *,
    event: Event,
    actor: User | None,
    source: str = Game.Source.RANDOM,
    seed: int | None = None,
    predrawn: dict[str, Any] | None = None,
    formula: str | None = None,
) -> Game:
    """Add the next game to an event, copying the event's tile set, lexicon and board; an event
    with rooms (a simultaneous event) adds it to every room too. ``formula`` is the game's
    (standard duplicate by default; docs/formulas.md); a pre-drawn game's is its document's.

    A random game without a seed gets a fresh one, so every game can be replayed.
    """
    if predrawn is not None:
        played_in = str(predrawn.get("formula") or Formula.STANDARD)
        if formula is not None and formula != played_in:
            raise ApplicationError(
                gettext(
                    "The pre-drawn game is played in the formula '%(formula)s', not '%(chosen)s'."
                )
                % {"formula": played_in[:40], "chosen": formula[:40]},
                code="predrawn_formula_mismatch",
            )
        formula = played_in
    formula = formula_checked(formula)
    if source not in Game.Source.values:
        raise ApplicationError(
            gettext("Unknown game source '%(source)s'.") % {"source": source}, code="unknown_source"
        )
    if source == Game.Source.PREDRAWN and predrawn is None:
        raise ApplicationError(
            gettext("A pre-drawn game needs its document (engine `game --json`)."),
            code="predrawn_required",
        )
    if event.host_id is not None:
        raise ApplicationError(
            gettext(
                "%(room)s is a room of a simultaneous event: its games are the host's, added "
                "on the host."
            )
            % {"room": event.name},
            code="room_games_are_the_hosts",
        )
    if source != Game.Source.PREDRAWN and event.rooms.filter(remote=False).exists():
        raise ApplicationError(
            gettext(
                "%(event)s has rooms: its games are drawn in advance (the whole game now, or "
                "a pre-drawn file), so that every room plays the same racks."
            )
            % {"event": event.name},
            code="host_games_drawn_in_advance",
        )
    if source == Game.Source.RANDOM and seed is None:
        seed = secrets.randbelow(2**32)  # the engine takes seeds below 2**32
    # Lock the event row so two directors adding a game at once get different numbers.
    event = Event.objects.select_for_update().get(pk=event.pk)
    number = (event.games.aggregate(last=Max("number"))["last"] or 0) + 1
    game = Game.objects.create(
        event=event,
        number=number,
        seed=seed,
        source=source,
        predrawn=predrawn,
        tile_set=event.tile_set,
        lexicon=event.lexicon,
        board_layout=event.board_layout,
        formula=formula,
    )
    for room in event.rooms.order_by("pk"):
        game_copy(game=game, room=room)
    audit_record(
        event=event,
        game=game,
        action="tournament.game.created",
        actor=actor,
        data={"number": number, "source": source, "seed": seed, "formula": formula},
    )
    return game


def game_copy(*, game: Game, room: Event) -> Game:
    """The host's game, as the room's game of the same number (same document, same rules). A
    game the host draws live (a multiplex, for remote rooms only) has no document yet: the
    room's copy holds the rounds its results bring (``arbiter.services.multiplex``)."""
    live = {"multiplex": True, "rounds": [], "end": ""}
    return Game.objects.create(
        event=room,
        number=game.number,
        source=Game.Source.PREDRAWN,
        predrawn=game.predrawn if game.predrawn is not None else live,
        seed=game.seed,
        tile_set=game.tile_set,
        lexicon=game.lexicon,
        board_layout=game.board_layout,
        formula=game.formula,
    )
