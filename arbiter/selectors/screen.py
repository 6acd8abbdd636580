"""Reads for the room's projection screen: what the room may see of one game now.

The round in play (its rack once drawn, the clock while open), the top of the last published
round with how many found it, and the game's standings from published rounds. Nothing of a
slip or a ruling before publication.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from arbiter.selectors.standings import (
    PlayerFilter,
    Standings,
    standings_game,
    standings_simultaneous_live,
)
from tournament.models import Game, Round, Ruling
from tournament.selectors import host_of, round_current, round_last_published


@dataclass(frozen=True)
class ScreenTop:
    round: int
    ref: str
    word: str
    score: int | None
    found: int  # players whose ruling found the top


@dataclass(frozen=True)
class ScreenState:
    game: Game
    round: Round | None  # the round in play, else the last published one
    remaining: float | None  # seconds left on the server clock; None unless open
    top: ScreenTop | None  # the last published round's top
    standings: Standings


def screen_state(
    *, game: Game, now: datetime, only: PlayerFilter | None = None, simultaneous: bool = False
) -> ScreenState:
    """What the projection screen shows of ``game`` at ``now`` (the server clock); the
    standings of the players ``only`` keeps (a category's screen), ranked among themselves;
    with ``simultaneous``, the one ranking of every room of the event's simultaneous."""
    current = round_current(game_id=game.pk)
    left = None if current is None else current.remaining(at=now)
    last = (
        current
        if current is not None and current.status == Round.Status.PUBLISHED
        else round_last_published(game_id=game.pk)
    )
    top = None
    if last is not None and last.played_word:
        top = ScreenTop(
            round=last.number,
            ref=last.played_ref,
            word=last.played_word,
            score=last.played_score,
            found=Ruling.objects.filter(round=last, found_top=True).count(),
        )
    return ScreenState(
        game=game,
        round=current,
        remaining=None if left is None else left.total_seconds(),
        top=top,
        standings=standings_simultaneous_live(host=host_of(game.event), only=only)
        if simultaneous
        else standings_game(game=game, only=only),
    )
