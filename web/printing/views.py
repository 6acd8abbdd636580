"""The printable sheets (staff of the event): pages laid out for A4 by ``printing/print.css``.

Each sheet is cut into printed pages here, so that a page holds what fits on A4 and the page
count is what the content needs: the game sheet's summary on the first page, then the boards
four to a page; the results 24 rows to a page, each category from a new page; one score
card a page. The numbers are the selectors': ``arbiter.selectors.standings`` (ranks, totals,
``ranks_within`` for a category) and ``arbiter.selectors.printing`` (the rounds, the cards).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from arbiter.selectors import printing
from arbiter.selectors.standings import (
    PlayerFilter,
    StandingRow,
    Standings,
    ranks_within,
    standings_event,
    standings_game,
)
from arbiter.state import lexicon_title
from tournament.categories import AGE_CATEGORIES
from tournament.errors import ApplicationError
from tournament.models import Event, Game
from web.actions import game_or_404
from web.board import board_squares
from web.permissions import STAFF, event_roles, event_visible_or_404
from web.standings_filter import player_filter_parse

BOARDS_PER_PAGE = 4  # two by two: a board is 88 mm wide and high
RESULTS_ROWS_PER_PAGE = 24  # of one or two lines each

T = TypeVar("T")


def pages_of(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """``items`` cut into printed pages of ``size`` (one empty page for no item)."""
    return [items[i : i + size] for i in range(0, len(items), size)] or [items[:0]]


# A results grouping (``?by=``): how a row names its group, and the group in words.
GROUPINGS: dict[str, Callable[[StandingRow], object | None]] = {
    "series": lambda r: r.series,
    "age_category": lambda r: r.age_category or None,
    "club": lambda r: r.club or None,
}


def _group_order(by: str) -> Callable[[object], tuple[int, str]]:
    """Series 1 to 7, the age categories youngest first, clubs by name."""
    if by == "age_category":
        known = {name: i for i, name in enumerate(AGE_CATEGORIES)}
        return lambda key: (known.get(str(key), len(known)), str(key))
    if by == "series":
        return lambda key: (int(str(key)), "")
    return lambda key: (0, str(key).lower())


def _group_title(by: str, key: object) -> str:
    if by == "series":
        return gettext("series %(number)s") % {"number": key}
    return str(key)


def filter_words(only: PlayerFilter) -> str:
    """The filter in the reader's language: ``series 2, Junior``."""
    parts = []
    if only.series is not None:
        parts.append(gettext("series %(number)s") % {"number": only.series})
    parts += [value for value in (only.age_category, only.category, only.club) if value]
    return ", ".join(parts)


@dataclass(frozen=True)
class ResultsSection:
    title: str
    continued: bool  # a section's second page or later
    rows: Sequence[dict[str, Any]]  # {"rank", "overall", "row"}
    overall: bool  # show the overall rank beside


@dataclass(frozen=True)
class ResultsPage:
    """One printed page: its sections, the rankings that fit on it one after the other."""

    sections: Sequence[ResultsSection]


# A section after the first on a page costs its heading and its table's header: the room of
# this many rows.
SECTION_HEAD_ROWS = 3
# The letters of a name on one printed line of the results (wide letters: W, M): a longer name
# wraps, and a row of more than two lines takes the room of more than one row.
NAME_LETTERS_PER_LINE = 24
CLUB_LETTERS_PER_LINE = 16  # the club's column is narrower (print.css: 24% against 34%)


def row_room(line: dict[str, Any]) -> int:
    """The rows' worth of room a results line takes: 1 for a name (and a club) of one or two
    lines."""
    row = line["row"]
    lines = max(
        -(-len(row.name) // NAME_LETTERS_PER_LINE),
        -(-len(getattr(row, "club", "") or "") // CLUB_LETTERS_PER_LINE),
    )
    return max(1, -(-lines // 2))


def results_pages(standings: Standings, *, only: PlayerFilter, by: str) -> list[ResultsPage]:
    """The standings (``only``'s players, ranked among them) on pages of their own, then with
    ``by`` one section per series, age category or club, ranked within it: the groups flow one
    after the other, each under its heading, a page holding what fits (8 series of 20 players
    make 2 pages, not 8)."""
    title = gettext("Results")
    if not only.is_empty:
        title = gettext("Results: %(filter)s") % {"filter": filter_words(only)}
    everyone = [{"rank": r.rank, "overall": r.overall_rank, "row": r} for r in standings.rows]
    pages = _flow([(title, everyone, not only.is_empty)])
    if by:
        group = GROUPINGS[by]
        within = ranks_within(standings, group)
        keys = sorted({group(r) for r in standings.rows} - {None}, key=_group_order(by))
        sections: list[tuple[str, list[dict[str, Any]], bool]] = []
        for key in keys:
            rows = [
                {"rank": within[r.player_id], "overall": r.rank, "row": r}
                for r in standings.rows
                if group(r) == key
            ]
            sections.append((_group_title(by, key), rows, True))
        pages += _flow(sections)
    return pages


def _flow(sections: list[tuple[str, list[dict[str, Any]], bool]]) -> list[ResultsPage]:
    """The sections laid one after the other on pages of ``RESULTS_ROWS_PER_PAGE`` rows (a
    long name's row counting for its lines, ``row_room``), a section after the first on a page
    taking ``SECTION_HEAD_ROWS`` for its heading; a section that does not end on a page goes
    on on the next, marked continued."""
    pages: list[ResultsPage] = []
    current: list[ResultsSection] = []
    room = RESULTS_ROWS_PER_PAGE
    for title, rows, overall in sections:
        start, continued = 0, False
        while True:
            head = SECTION_HEAD_ROWS if current else 0
            if current and room - head < min(1, len(rows) - start) + 1:
                pages.append(ResultsPage(current))
                current, room, head = [], RESULTS_ROWS_PER_PAGE, 0
            end, used = start, 0
            while end < len(rows) and used + row_room(rows[end]) <= room - head:
                used += row_room(rows[end])
                end += 1
            if end == start and not current and start < len(rows):
                end, used = start + 1, row_room(rows[start])  # a row larger than a page
            chunk = rows[start:end]
            current.append(ResultsSection(title, continued, chunk, overall))
            room -= head + used
            start = end
            if start >= len(rows):
                break
            continued = True
            pages.append(ResultsPage(current))
            current, room = [], RESULTS_ROWS_PER_PAGE
    if current:
        pages.append(ResultsPage(current))
    return pages


def _results(request: HttpRequest, event: Event) -> tuple[PlayerFilter, str] | HttpResponse:
    """The filter and the grouping the query asks for; back to the event page saying what is
    wrong otherwise."""
    by = request.GET.get("by", "").strip()
    try:
        only = player_filter_parse(request.GET)
        if by and by not in GROUPINGS:
            raise ApplicationError(
                gettext("Results can be grouped by %(choices)s, not '%(by)s'.")
                % {"choices": ", ".join(GROUPINGS), "by": by[:40]},
                code="bad_grouping",
            )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("console:event_detail", slug=event.slug)
    return only, by


@event_roles(*STAFF)
@require_GET
def event_results(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's results; ``?series=2&club=...``: a category's; ``?by=series|age_category|
    club``: then one ranking per group."""
    event = event_visible_or_404(request, slug)
    asked = _results(request, event)
    if isinstance(asked, HttpResponse):
        return asked
    only, by = asked
    standings = standings_event(event=event, only=only)
    return _results_page(request, event, None, standings, only, by)


@event_roles(*STAFF)
@require_GET
def game_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One game's results, as the event's."""
    game = game_or_404(slug, number)
    asked = _results(request, game.event)
    if isinstance(asked, HttpResponse):
        return asked
    only, by = asked
    standings = standings_game(game=game, only=only)
    return _results_page(request, game.event, game, standings, only, by)


def _results_page(
    request: HttpRequest,
    event: Event,
    game: Game | None,
    standings: Standings,
    only: PlayerFilter,
    by: str,
) -> HttpResponse:
    return render(
        request,
        "printing/results.html",
        {
            "event": event,
            "game": game,
            "standings": standings,
            "pages": results_pages(standings, only=only, by=by),
            "by": by,
        },
    )


@event_roles(*STAFF)
@require_GET
def game_sheet(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The game sheet: every round's rack, top and cumulative, then the board after each."""
    game = game_or_404(slug, number)
    try:
        rounds = printing.game_sheet(game)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("console:game", slug=slug, number=number)
    boards = [
        {"round": r, "rows": board_squares(r.board, game.board_layout, r.placed)} for r in rounds
    ]
    return render(
        request,
        "printing/game_sheet.html",
        {
            "event": game.event,
            "game": game,
            "lexicon": lexicon_title(game.lexicon),  # its own name, never upload:<id>
            "rounds": rounds,
            "board_pages": pages_of(boards, BOARDS_PER_PAGE) if boards else [],
        },
    )


@event_roles(*STAFF)
@require_GET
def score_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One score card a page, by table; ``?series=2&club=...``: a category's players only."""
    game = game_or_404(slug, number)
    try:
        only = player_filter_parse(request.GET)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("console:game", slug=slug, number=number)
    return render(
        request,
        "printing/score_cards.html",
        {
            "event": game.event,
            "game": game,
            "cards": printing.score_cards(game, only=only),
            "filter": filter_words(only),
        },
    )
