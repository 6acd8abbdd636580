"""The game and event workbooks, and the standings CSV.

A game workbook: ``Standings`` (the game's), ``Rounds`` (with the chart), ``Scores``,
``Slips``. An event workbook with one game has exactly those four sheets; with several games
``Standings`` is the cumulative event standings, followed for each game n by
``Standings Gn``, ``Rounds Gn``, ``Scores Gn`` and ``Slips Gn``.

Each is written in its event's language (``Event.language``): a French event's workbook says
``Classement``, ``Rang``...; an English event's keeps the names and headers design.md fixes.
"""

from __future__ import annotations

import io
from typing import IO

from django.utils import translation
from django.utils.translation import gettext

from arbiter.selectors.standings import standings_event, standings_game
from tournament.models import Event, Game
from web.exports.base import Progress, Sheet, csv_write, workbook_write
from web.exports.sheets import rounds_sheet, scores_sheet, slips_sheet, standings_sheet


def game_sheets(game: Game, *, suffix: str = "", with_standings: bool = True) -> list[Sheet]:
    standings = standings_game(game=game)
    sheets = (
        [standings_sheet(standings, title=gettext("Standings") + suffix)] if with_standings else []
    )
    return [
        *sheets,
        rounds_sheet(game, standings, title=gettext("Rounds") + suffix),
        scores_sheet(game, standings, title=gettext("Scores") + suffix),
        slips_sheet(game, title=gettext("Slips") + suffix),
    ]


def event_sheets(event: Event) -> list[Sheet]:
    games = list(Game.objects.filter(event=event).order_by("number"))
    if len(games) == 1:
        return game_sheets(games[0])
    sheets = [standings_sheet(standings_event(event=event))]
    for game in games:
        sheets += game_sheets(game, suffix=f" G{game.number}")
    return sheets


def game_workbook_write(*, game: Game, out: IO[bytes], progress: Progress | None = None) -> None:
    with translation.override(game.event.language):
        workbook_write(game_sheets(game), out, progress=progress)


def event_workbook_write(*, event: Event, out: IO[bytes], progress: Progress | None = None) -> None:
    with translation.override(event.language):
        workbook_write(event_sheets(event), out, progress=progress)


def standings_csv_write(*, event: Event, out: IO[str]) -> int:
    """The event standings as CSV (the ``Standings`` sheet's columns); returns the rows."""
    with translation.override(event.language):
        return csv_write(standings_sheet(standings_event(event=event)), out)


def event_workbook_bytes(*, event: Event) -> bytes:
    buffer = io.BytesIO()
    event_workbook_write(event=event, out=buffer)
    return buffer.getvalue()


def game_workbook_bytes(*, game: Game) -> bytes:
    buffer = io.BytesIO()
    game_workbook_write(game=game, out=buffer)
    return buffer.getvalue()
