"""The sheets of the game and event workbooks, each a generator of rows.

The numbers come from ``arbiter.selectors.standings`` (ranks, totals, gaps, percentages) and
from the Ruling rows as the arbitration left them (points, solo, penalty): nothing here
applies a rule, the sheets only lay out what the services give. Only published rounds count,
as in the standings.

Racks are written as arbiters call them (``engine.tiles.rack_notation``): the tiles kept from
the last rack, ``+``, the tiles drawn, e.g. ``ELT+MOO?``; a rack with no leftover, ``ELORTTW``.

Sheet names, headers and words in cells are in the language in force: the workbooks
(``web.exports.workbooks``) write in the event's language, and an English event's headers are
exactly the msgids below, the ones design.md fixes for outside tools.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext, gettext_noop
from openpyxl.chart import LineChart, Reference
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from arbiter.selectors.standings import StandingRow, Standings, ranks_within
from engine.tiles import rack_notation
from tournament.models import Game, Round, Ruling
from tournament.models.slip import ruling_label
from tournament.vocabulary import RulingCode, ruling_total
from web.exports.front import column_notes
from web.sheet_writer import Row, Sheet

STANDINGS_HEADER = [
    gettext_noop("Rank"),
    gettext_noop("Player"),
    gettext_noop("Club"),
    gettext_noop("Category"),
    gettext_noop("Total"),
    gettext_noop("Top %"),
    gettext_noop("Gap"),
    gettext_noop("Tops"),
    gettext_noop("Solos"),
    gettext_noop("Warnings"),
    gettext_noop("Penalties"),
    gettext_noop("Status"),  # Withdrawn, or empty: last, so that no column a reader knows moves
]
WITHDRAWN = gettext_noop(
    "Withdrawn"
)  # a withdrawn player's status: they keep the points already earned
ROUNDS_HEADER = [
    gettext_noop("Round"),
    gettext_noop("Rack"),
    gettext_noop("Ref"),
    gettext_noop("Word"),
    gettext_noop("Score"),
    gettext_noop("Cumulative"),
    gettext_noop("Winner cumulative"),
]
# The Categories sheet (issue 16.3): the players' licence, series and age category, and their
# rank within each (and within their club) beside the rank of the standings and the overall.
CATEGORIES_HEADER = [
    gettext_noop("Rank"),
    gettext_noop("Overall rank"),
    gettext_noop("Player"),
    gettext_noop("Licence"),
    gettext_noop("Club"),
    gettext_noop("Series"),
    gettext_noop("Age category"),
    gettext_noop("Total"),
    gettext_noop("Rank in series"),
    gettext_noop("Rank in age category"),
    gettext_noop("Rank in club"),
]
RANKING_HEADER = [  # a simultaneous event's one ranking over every room
    gettext_noop("Rank"),
    gettext_noop("Overall rank"),
    gettext_noop("Player"),
    gettext_noop("Licence"),
    gettext_noop("Club"),
    gettext_noop("Series"),
    gettext_noop("Age category"),
    gettext_noop("Room"),
    gettext_noop("Rounds"),
    gettext_noop("Total"),
    gettext_noop("Top %"),
    gettext_noop("Gap"),
    gettext_noop("Tops"),
    gettext_noop("Solos"),
    gettext_noop("Warnings"),
    gettext_noop("Penalties"),
    gettext_noop("Status"),
]
RANKING_NOTES = {  # the ranking's own meaning of two columns (header: note)
    "Rounds": gettext_noop(
        "The rounds that count for the player: those their room has published (or, for the "
        "ranking on the common rounds, those every room has published)."
    ),
    "Solos": gettext_noop(
        "The solo bonus points over the whole field: the player alone, of all the rooms, "
        "found the top (a room's own standings count its own solos)."
    ),
}
SLIPS_HEADER = [
    gettext_noop("Player"),
    gettext_noop("Round"),
    gettext_noop("Word"),
    gettext_noop("Ref"),
    gettext_noop("Announced"),
    gettext_noop("Awarded"),
    gettext_noop("Ruling"),
    gettext_noop("Reason"),
    gettext_noop("Table"),
    gettext_noop("Move score"),
    gettext_noop("Points"),
    gettext_noop("Solo"),
    gettext_noop("Penalty"),
    gettext_noop("Warning"),
    gettext_noop("Amended"),
    # Penalty split in two (issue 16.6), last so that no column a reader knows moves: a
    # penalty the director sets in an amendment is a reference penalty (Ruling.penalty).
    gettext_noop("Reference penalty"),
    gettext_noop("Warning penalty"),
    # The case of rules.md that ruled the slip, with the federation's article (issue 28).
    gettext_noop("Article"),
]


def _in_language(header: list[str]) -> list[str | int]:
    """A header in the language in force."""
    return [gettext(name) for name in header]


def _published(game: Game) -> list[Round]:
    return list(
        Round.objects.filter(game=game, status=Round.Status.PUBLISHED)
        .order_by("number")
        .only("pk", "number", "rack", "leftover", "played_ref", "played_word", "played_score")
    )


def _awarded(game: Game, *, player_id: int | None = None) -> dict[tuple[int, int], int]:
    """{(player id, round id): what the ruling added (``ruling_total``)}, published rounds;
    ``player_id``: that player's alone."""
    rulings = Ruling.objects.filter(round__game=game, round__status=Round.Status.PUBLISHED)
    if player_id is not None:
        rulings = rulings.filter(player_id=player_id)
    rows = rulings.values_list(
        "player_id", "round_id", "points", "solo", "penalty", "warning_penalty"
    )
    return {
        (p, r): ruling_total(points=points, solo=solo, penalty=penalty, warning_penalty=warned)
        for p, r, points, solo, penalty, warned in rows.iterator(2000)
    }


def _status(row: StandingRow, standings: Standings) -> str | None:
    """The Status column: withdrawn; in a mort subite game (FISF 2023 3.8.3) still in or the
    round the player went out at; else empty."""
    if row.withdrawn:
        return gettext(WITHDRAWN)
    if not standings.sudden_death:
        return None
    if row.eliminated_at is None:
        return gettext("Still in")
    return gettext("Out at round %(round)s") % {"round": row.eliminated_at}


def standings_sheet(standings: Standings, *, title: str | None = None) -> Sheet:
    def rows() -> Iterator[Row]:
        for r in standings.rows:
            yield (
                r.rank,
                r.name,
                r.club,
                r.category,
                r.total,
                r.top_pct,
                r.gap,
                r.tops,
                r.solos,
                r.warnings,
                r.penalties,
                _status(r, standings),
            )

    return Sheet(
        title=title or gettext("Standings"),
        header=_in_language(STANDINGS_HEADER),
        rows=rows(),
        percents=(5,),
        notes=column_notes(STANDINGS_HEADER),
    )


def ranking_sheet(standings: Standings, *, title: str | None = None) -> Sheet:
    """A simultaneous event's one ranking (``standings_simultaneous``): each player with their
    room and the rounds that count for them; the gap and Top % are to those rounds' tops."""

    def rows() -> Iterator[Row]:
        for r in standings.rows:
            yield (
                r.rank,
                r.overall_rank,
                r.name,
                r.licence,
                r.club,
                r.series,
                r.age_category,
                r.room,
                r.rounds,
                r.total,
                r.top_pct,
                r.gap,
                r.tops,
                r.solos,
                r.warnings,
                r.penalties,
                gettext(WITHDRAWN) if r.withdrawn else None,
            )

    return Sheet(
        title=title or gettext("Ranking"),
        header=_in_language(RANKING_HEADER),
        rows=rows(),
        percents=(RANKING_HEADER.index("Top %"),),
        notes=column_notes(RANKING_HEADER)
        | {RANKING_HEADER.index(name): gettext(n) for name, n in RANKING_NOTES.items()},
    )


def categories_sheet(standings: Standings, *, title: str | None = None) -> Sheet:
    """One row per player of the standings (their order): the rank there and overall, the
    licence, series and age category, and the rank within the player's series, age category
    and club (``ranks_within``; empty for a player who has none)."""
    by_series = ranks_within(standings, lambda r: r.series)
    by_age = ranks_within(standings, lambda r: r.age_category or None)
    by_club = ranks_within(standings, lambda r: r.club or None)

    def rows() -> Iterator[Row]:
        for r in standings.rows:
            yield (
                r.rank,
                r.overall_rank,
                r.name,
                r.licence,
                r.club,
                r.series,
                r.age_category,
                r.total,
                by_series.get(r.player_id),
                by_age.get(r.player_id),
                by_club.get(r.player_id),
            )

    return Sheet(
        title=title or gettext("Categories"), header=_in_language(CATEGORIES_HEADER), rows=rows()
    )


def rounds_sheet(game: Game, standings: Standings, *, title: str | None = None) -> Sheet:
    """One row per published round: the rack and the top played, the top's cumulative score
    and the game winner's (the first row of the game's standings), charted side by side; then
    a ``Total`` row: the sum of the tops, the top's total that Gap and Top % measure against."""
    published = _published(game)
    winner = standings.rows[0] if standings.rows else None
    tops = {"total": 0}

    def rows() -> Iterator[Row]:
        awarded = _awarded(game, player_id=winner.player_id) if winner is not None else {}
        top = won = 0
        for r in published:
            top += r.played_score or 0
            tops["total"] = top
            if winner is not None:
                won += awarded.get((winner.player_id, r.pk), 0)
            yield (
                r.number,
                rack_notation(r.rack, r.leftover),
                r.played_ref,
                r.played_word,
                r.played_score,
                top,
                won if winner is not None else None,
            )

    def chart(ws: WriteOnlyWorksheet, count: int) -> None:
        if not count:
            return
        line = LineChart()
        line.title = gettext("Game %(number)s: the top and the winner") % {"number": game.number}
        line.y_axis.title = gettext("Cumulative score")
        line.x_axis.title = gettext("Round")
        data = Reference(ws, min_col=6, max_col=7, min_row=1, max_row=count + 1)
        line.add_data(data, titles_from_data=True)
        line.set_categories(Reference(ws, min_col=1, min_row=2, max_row=count + 1))
        if winner is not None and len(line.series) == 2:
            from openpyxl.chart.series import SeriesLabel

            line.series[1].tx = SeriesLabel(v=gettext("Winner: %(name)s") % {"name": winner.name})
        line.width, line.height = 18, 9
        # WriteOnlyWorksheet borrows Worksheet.add_chart at run time; the types-openpyxl stub
        # copies it as an unbound Worksheet method, so mypy rejects the write-only self.
        ws.add_chart(line, "I2")  # type: ignore[misc]

    return Sheet(
        title=title or gettext("Rounds"),
        header=_in_language(ROUNDS_HEADER),
        rows=rows(),
        finish=chart,
        footer=lambda: (gettext("Total"), None, None, None, tops["total"], None, None),
    )


def scores_sheet(game: Game, standings: Standings, *, title: str | None = None) -> Sheet:
    """One row per player (standings order), one column per published round headed by its
    number: the points awarded in the round (``ruling_total``); then the total."""
    published = _published(game)

    def rows() -> Iterator[Row]:
        awarded = _awarded(game)
        for s in standings.rows:
            cells: list[int | None] = [awarded.get((s.player_id, r.pk)) for r in published]
            yield (s.name, *cells, s.total)

    header: list[str | int] = [gettext("Player"), *(r.number for r in published), gettext("Total")]
    return Sheet(title=title or gettext("Scores"), header=header, rows=rows())


def slips_sheet(game: Game, *, title: str | None = None) -> Sheet:
    """Every ruling of the published rounds, by round then table: the slip as handed in
    (word, ref, announced score), the points awarded and the ruling with its reason."""
    labels = {code.value: str(ruling_label(code)) for code in RulingCode}  # once per sheet

    def rows() -> Iterator[Row]:
        yes = gettext("yes")
        rulings = (
            Ruling.objects.filter(round__game=game, round__status=Round.Status.PUBLISHED)
            .order_by("round__number", "player__table", "player__name", "pk")
            .values_list(
                "player__name",
                "round__number",
                "submission__word",
                "submission__ref",
                "submission__announced_score",
                "points",
                "solo",
                "penalty",
                "warning_penalty",
                "code",
                "reason",
                "player__table",
                "move_score",
                "warning",
                "amended",
                "article",
            )
        )
        for (
            name,
            number,
            word,
            ref,
            announced,
            points,
            solo,
            penalty,
            warned,
            code,
            reason,
            table,
            move_score,
            warning,
            amended,
            article,
        ) in rulings.iterator(2000):
            yield (
                name,
                number,
                word or "",
                ref or "",
                announced,
                ruling_total(points=points, solo=solo, penalty=penalty, warning_penalty=warned),
                labels.get(code, code),
                reason,
                table,
                move_score,
                points,
                solo,
                penalty + warned,
                yes if warning else "",
                yes if amended else "",
                penalty,
                warned,
                article,
            )

    return Sheet(
        title=title or gettext("Slips"),
        header=_in_language(SLIPS_HEADER),
        rows=rows(),
        notes=column_notes(SLIPS_HEADER),
    )
