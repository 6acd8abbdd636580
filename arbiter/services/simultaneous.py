"""Simultaneous events, the set-up: a whole game drawn in advance, every rack and top, as the
pre-drawn game every room plays (docs/design.md, "Simultaneous events"). The remote rooms'
results files are ``arbiter.services.rooms``'s."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from arbiter.services.common import Actor
from arbiter.state import lexicon_for, lexicon_require_ready
from engine.board import Layout
from engine.formula import Formula as EngineFormula
from engine.game import autoplay
from engine.tiles import TileSet
from tournament.errors import ApplicationError
from tournament.models import Event, Game
from tournament.services.games import formula_checked, game_create


@transaction.atomic
def game_draw_whole(
    *, event: Event, actor: Actor, seed: int | None = None, formula: str | None = None
) -> Game:
    """The whole game drawn now, every rack and top (the engine's ``game``), as a pre-drawn
    game of ``event``: what the rooms of a simultaneous event play."""
    lexicon_require_ready(event.lexicon)
    formula = formula_checked(formula)
    seed = secrets.randbelow(2**32) if seed is None else seed
    if not 0 <= seed < 2**32:
        raise ApplicationError(
            gettext("A seed is a whole number from 0 to 4294967295."), code="bad_seed"
        )
    played = autoplay(
        seed=seed,
        tiles=TileSet.load(event.tile_set),
        lexicon=lexicon_for(event.lexicon),
        layout=Layout.load(event.board_layout),
        formula=EngineFormula.parse(formula),
    )
    document: dict[str, Any] = dict(played.to_document())
    return game_create(
        event=event, actor=actor, source=Game.Source.PREDRAWN, seed=seed, predrawn=document
    )


__all__ = ["game_draw_whole"]
