"""The game and event workbooks, the standings CSV and the CSV of every sheet (a zip).

A game workbook: ``Event`` (``web.exports.front``: the event, its rules, the time of the
export, the columns' legend), ``Standings`` (the game's), ``Rounds`` (with the chart),
``Scores``, ``Slips``, ``Categories``. An event workbook with one game has exactly those six
sheets; with several games ``Standings`` is the cumulative event standings, followed for each
game n by ``Standings Gn``, ``Rounds Gn``, ``Scores Gn`` and ``Slips Gn``, and ``Categories``
(the event's) last. Each takes a ``PlayerFilter`` (``only``): the standings of a category.

Each is written in its event's language (``Event.language``): a French event's workbook says
``Classement``, ``Rang``...; an English event's keeps the names and headers design.md fixes.
The workbook's properties name the event (and game) and the word list played, with its word
count.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import IO

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, pgettext

from arbiter.selectors.standings import (
    PlayerFilter,
    standings_event,
    standings_game,
    standings_simultaneous,
)
from arbiter.state import lexicon_info
from tournament.models import Event, Game
from web.exports.front import event_sheet
from web.exports.sheets import (
    categories_sheet,
    ranking_sheet,
    rounds_sheet,
    scores_sheet,
    slips_sheet,
    standings_sheet,
)
from web.sheet_writer import About, Progress, Sheet, csv_write, workbook_write

UNSAFE_IN_NAME = re.compile(r"[^\w %.-]")


def game_sheets(
    game: Game, *, suffix: str = "", with_standings: bool = True, only: PlayerFilter | None = None
) -> list[Sheet]:
    """``only``: the players the standings and scores keep, ranked among themselves (the slips
    sheet keeps every ruling)."""
    standings = standings_game(game=game, only=only)
    sheets = (
        [standings_sheet(standings, title=gettext("Standings") + suffix)] if with_standings else []
    )
    return [
        *sheets,
        rounds_sheet(game, standings, title=gettext("Rounds") + suffix),
        scores_sheet(game, standings, title=gettext("Scores") + suffix),
        slips_sheet(game, title=gettext("Slips") + suffix),
        *([categories_sheet(standings)] if with_standings and not suffix else []),
    ]


def game_workbook_sheets(game: Game, *, only: PlayerFilter | None = None) -> list[Sheet]:
    """The game workbook's sheets: ``Event`` first, then ``game_sheets``."""
    return [event_sheet(game.event, only=only), *game_sheets(game, only=only)]


def event_sheets(event: Event, *, only: PlayerFilter | None = None) -> list[Sheet]:
    games = list(Game.objects.filter(event=event).order_by("number"))
    if len(games) == 1:
        return game_workbook_sheets(games[0], only=only)
    standings = standings_event(event=event, only=only)
    sheets = [event_sheet(event, only=only), standings_sheet(standings)]
    for game in games:
        # The game's sheets named with its number: "Standings G1" (the contract of an English
        # workbook), "Classement P1" (partie) in French.
        suffix = pgettext("a sheet name's suffix: the game", " G%(number)s") % {
            "number": game.number
        }
        sheets += game_sheets(game, suffix=suffix, only=only)
    return [*sheets, categories_sheet(standings)]


# The custom properties naming the list played and its size, in the workbook's language (Excel
# shows their names under File > Info > Properties).
WORD_LIST = gettext_noop("Word list")
WORDS = gettext_noop("Words")


def _about(title: str, lexicons: list[str]) -> About:
    """The workbook's properties: its title, the word list(s) played as its subject, and the
    list's name and word count as custom properties (the first list, if games differ)."""
    infos = [lexicon_info(name) for name in dict.fromkeys(lexicons)]
    custom: dict[str, str | int] = {gettext(WORD_LIST): infos[0].name}
    if infos[0].words is not None:
        custom[gettext(WORDS)] = infos[0].words
    return About(title=title, subject="; ".join(i.label for i in infos), custom=custom)


def game_workbook_write(
    *,
    game: Game,
    out: IO[bytes],
    progress: Progress | None = None,
    only: PlayerFilter | None = None,
) -> None:
    with translation.override(game.event.language):
        about = _about(f"{game.event.name} · {game.number}", [game.lexicon])
        workbook_write(game_workbook_sheets(game, only=only), out, progress=progress, about=about)


def event_workbook_write(
    *,
    event: Event,
    out: IO[bytes],
    progress: Progress | None = None,
    only: PlayerFilter | None = None,
) -> None:
    with translation.override(event.language):
        games = (
            Game.objects.filter(event=event).order_by("number").values_list("lexicon", flat=True)
        )
        about = _about(event.name, list(games) or [event.lexicon])
        workbook_write(event_sheets(event, only=only), out, progress=progress, about=about)


def ranking_sheets(
    host: Event, *, only: PlayerFilter | None = None, common: bool = False
) -> list[Sheet]:
    """A simultaneous event's ranking workbook: the host's Event sheet, then the one ranking."""
    ranking = standings_simultaneous(host=host, only=only, common=common)
    return [event_sheet(host, only=only), ranking_sheet(ranking)]


def ranking_workbook_bytes(
    *, host: Event, only: PlayerFilter | None = None, common: bool = False
) -> bytes:
    out = io.BytesIO()
    with translation.override(host.language):
        about = _about(host.name, [host.lexicon])
        workbook_write(ranking_sheets(host, only=only, common=common), out, about=about)
    return out.getvalue()


def ranking_csv_write(
    *, host: Event, out: IO[str], only: PlayerFilter | None = None, common: bool = False
) -> int:
    """The one ranking as CSV (the ``Ranking`` sheet's columns); returns the rows."""
    with translation.override(host.language):
        ranking = standings_simultaneous(host=host, only=only, common=common)
        return csv_write(ranking_sheet(ranking), out)


def standings_csv_write(*, event: Event, out: IO[str], only: PlayerFilter | None = None) -> int:
    """The event standings as CSV (the ``Standings`` sheet's columns); returns the rows."""
    with translation.override(event.language):
        return csv_write(standings_sheet(standings_event(event=event, only=only)), out)


def categories_csv_write(*, event: Event, out: IO[str], only: PlayerFilter | None = None) -> int:
    """The event's ``Categories`` sheet as CSV; returns the rows."""
    with translation.override(event.language):
        return csv_write(categories_sheet(standings_event(event=event, only=only)), out)


def csv_file_name(number: int, sheet: Sheet) -> str:
    """A sheet's CSV in the zip: its place in the workbook and its title, ``02-Standings.csv``
    (a character a file name may not hold becomes ``_``)."""
    title = UNSAFE_IN_NAME.sub("_", sheet.title)
    return f"{number:02d}-{title}.csv"


def sheets_csv_zip_write(sheets: list[Sheet], out: IO[bytes]) -> list[str]:
    """Every sheet as a CSV file (``csv_write``, UTF-8 with a BOM as the standings CSV) in one
    zip on ``out``, in the workbook's order; returns the files' names."""
    names = []
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for number, sheet in enumerate(sheets, start=1):
            text = io.StringIO()
            csv_write(sheet, text)
            names.append(csv_file_name(number, sheet))
            archive.writestr(names[-1], text.getvalue().encode("utf-8-sig"))
    return names


def event_csv_zip_write(
    *, event: Event, out: IO[bytes], only: PlayerFilter | None = None
) -> list[str]:
    """The event workbook's sheets as CSV files in a zip; returns the files' names."""
    with translation.override(event.language):
        return sheets_csv_zip_write(event_sheets(event, only=only), out)


def game_csv_zip_write(
    *, game: Game, out: IO[bytes], only: PlayerFilter | None = None
) -> list[str]:
    """The game workbook's sheets as CSV files in a zip; returns the files' names."""
    with translation.override(game.event.language):
        return sheets_csv_zip_write(game_workbook_sheets(game, only=only), out)


def event_workbook_bytes(*, event: Event, only: PlayerFilter | None = None) -> bytes:
    buffer = io.BytesIO()
    event_workbook_write(event=event, out=buffer, only=only)
    return buffer.getvalue()


def game_workbook_bytes(*, game: Game, only: PlayerFilter | None = None) -> bytes:
    buffer = io.BytesIO()
    game_workbook_write(game=game, out=buffer, only=only)
    return buffer.getvalue()
