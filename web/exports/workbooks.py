"""The game and event workbooks, and the standings CSV.

A game workbook: ``Standings`` (the game's), ``Rounds`` (with the chart), ``Scores``,
``Slips``. An event workbook with one game has exactly those four sheets; with several games
``Standings`` is the cumulative event standings, followed for each game n by
``Standings Gn``, ``Rounds Gn``, ``Scores Gn`` and ``Slips Gn``. The workbook's properties
name the event (and game) and the word list played, with its word count.
"""

from __future__ import annotations

import io
from typing import IO

from arbiter.selectors.standings import standings_event, standings_game
from arbiter.state import lexicon_info
from tournament.models import Event, Game
from web.exports.base import About, Progress, Sheet, csv_write, workbook_write
from web.exports.sheets import rounds_sheet, scores_sheet, slips_sheet, standings_sheet


def game_sheets(game: Game, *, suffix: str = "", with_standings: bool = True) -> list[Sheet]:
    standings = standings_game(game=game)
    sheets = [standings_sheet(standings, title=f"Standings{suffix}")] if with_standings else []
    return [
        *sheets,
        rounds_sheet(game, standings, title=f"Rounds{suffix}"),
        scores_sheet(game, standings, title=f"Scores{suffix}"),
        slips_sheet(game, title=f"Slips{suffix}"),
    ]


def event_sheets(event: Event) -> list[Sheet]:
    games = list(Game.objects.filter(event=event).order_by("number"))
    if len(games) == 1:
        return game_sheets(games[0])
    sheets = [standings_sheet(standings_event(event=event))]
    for game in games:
        sheets += game_sheets(game, suffix=f" G{game.number}")
    return sheets


WORD_LIST = "Word list"  # the custom properties naming the list played and its size
WORDS = "Words"


def _about(title: str, lexicons: list[str]) -> About:
    """The workbook's properties: its title, the word list(s) played as its subject, and the
    list's name and word count as custom properties (the first list, if games differ)."""
    infos = [lexicon_info(name) for name in dict.fromkeys(lexicons)]
    custom: dict[str, str | int] = {WORD_LIST: infos[0].name}
    if infos[0].words is not None:
        custom[WORDS] = infos[0].words
    return About(title=title, subject="; ".join(i.label for i in infos), custom=custom)


def game_workbook_write(*, game: Game, out: IO[bytes], progress: Progress | None = None) -> None:
    about = _about(f"{game.event.name} · {game.number}", [game.lexicon])
    workbook_write(game_sheets(game), out, progress=progress, about=about)


def event_workbook_write(*, event: Event, out: IO[bytes], progress: Progress | None = None) -> None:
    games = Game.objects.filter(event=event).order_by("number").values_list("lexicon", flat=True)
    about = _about(event.name, list(games) or [event.lexicon])
    workbook_write(event_sheets(event), out, progress=progress, about=about)


def standings_csv_write(*, event: Event, out: IO[str]) -> int:
    """The event standings as CSV (the ``Standings`` sheet's columns); returns the rows."""
    return csv_write(standings_sheet(standings_event(event=event)), out)


def event_workbook_bytes(*, event: Event) -> bytes:
    buffer = io.BytesIO()
    event_workbook_write(event=event, out=buffer)
    return buffer.getvalue()


def game_workbook_bytes(*, game: Game) -> bytes:
    buffer = io.BytesIO()
    game_workbook_write(game=game, out=buffer)
    return buffer.getvalue()
