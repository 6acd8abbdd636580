from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext

from tournament.errors import ApplicationError
from tournament.models import Event, Game
from tournament.services.audit import audit_record


@transaction.atomic
def game_create(
    *,
    event: Event,
    actor: User | None,
    source: str = Game.Source.RANDOM,
    seed: int | None = None,
    predrawn: dict[str, Any] | None = None,
) -> Game:
    """Add the next game to an event, copying the event's tile set, lexicon and board.

    A random game without a seed gets a fresh one, so every game can be replayed.
    """
    if source not in Game.Source.values:
        raise ApplicationError(gettext("Unknown game source '%(source)s'.") % {"source": source})
    if source == Game.Source.PREDRAWN and predrawn is None:
        raise ApplicationError(
            gettext("A pre-drawn game needs its document (engine `game --json`).")
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
    )
    audit_record(
        event=event,
        game=game,
        action="tournament.game.created",
        actor=actor,
        data={"number": number, "source": source, "seed": seed},
    )
    return game
