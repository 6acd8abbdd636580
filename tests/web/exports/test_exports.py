"""Workbooks and the standings CSV, opened with openpyxl and checked against the database."""

from __future__ import annotations

import csv
import io
from collections import defaultdict

import pytest
from django.db.models import Sum
from openpyxl import load_workbook

from arbiter.simulation import simulate_event
from engine.tiles import rack_notation
from tournament.models import Event, Game, Player, Round, Ruling
from web.exports import event_workbook_bytes, game_workbook_bytes, standings_csv_write
from web.exports.sheets import STANDINGS_HEADER

pytestmark = pytest.mark.django_db


def _open(content: bytes):
    return load_workbook(io.BytesIO(content))


def _table(ws) -> tuple[list, list[tuple]]:
    rows = list(ws.iter_rows(values_only=True))
    return list(rows[0]), rows[1:]


def _totals(rulings) -> dict[str, int]:
    """Each player's total straight from the Ruling rows (points + solo - penalties)."""
    totals: dict[str, int] = defaultdict(int)
    for r in rulings.select_related("player"):
        totals[r.player.name] += r.points + r.solo - r.penalty - r.warning_penalty
    return totals


def _expected_ranks(totals: list[int]) -> list[int]:
    return [1 + sum(1 for other in totals if other > t) for t in totals]


@pytest.fixture
def one_game_event() -> Event:
    summary = simulate_event(players=6, games=1, seed=11)
    return Event.objects.get(pk=summary["event"])


@pytest.fixture
def two_game_event() -> Event:
    summary = simulate_event(players=4, games=2, seed=5)
    return Event.objects.get(pk=summary["event"])


def test_a_one_game_event_has_exactly_the_six_sheets(one_game_event: Event) -> None:
    wb = _open(event_workbook_bytes(event=one_game_event))
    assert wb.sheetnames == ["Event", "Standings", "Rounds", "Scores", "Slips", "Categories"]


def test_the_standings_sheet_holds_the_database_totals_ranks_gaps_and_percentages(
    one_game_event: Event,
) -> None:
    wb = _open(event_workbook_bytes(event=one_game_event))
    header, rows = _table(wb["Standings"])
    assert header == STANDINGS_HEADER
    published = Round.objects.filter(game__event=one_game_event, status=Round.Status.PUBLISHED)
    top_total = published.aggregate(t=Sum("played_score"))["t"]
    totals = _totals(Ruling.objects.filter(round__in=published))
    assert len(rows) == Player.objects.filter(event=one_game_event).count()
    sheet_totals = [row[4] for row in rows]
    assert sheet_totals == sorted(sheet_totals, reverse=True)  # best first
    assert [row[0] for row in rows] == _expected_ranks(sheet_totals)
    for rank, name, club, _category, total, pct, gap, *_ in rows:
        assert isinstance(rank, int) and isinstance(total, int) and isinstance(gap, int)
        assert total == totals[name]
        assert gap == total - top_total
        assert pct == pytest.approx(round(100 * total / top_total, 2))
        assert club == Player.objects.get(event=one_game_event, name=name).club
    assert wb["Standings"].freeze_panes == "A2"
    assert wb["Standings"]["A1"].font.b
    assert wb["Standings"]["F2"].number_format == '0.00"%"'  # 17.20% (tournament.typography)
    assert wb["Standings"].column_dimensions["B"].width >= len(rows[0][1])


def test_the_rounds_sheet_has_one_row_per_published_round_with_the_cumulative_top_and_a_total(
    one_game_event: Event,
) -> None:
    wb = _open(event_workbook_bytes(event=one_game_event))
    header, (*rows, total) = _table(wb["Rounds"])
    assert header[:6] == ["Round", "Rack", "Ref", "Word", "Score", "Cumulative"]
    published = list(
        Round.objects.filter(game__event=one_game_event, status=Round.Status.PUBLISHED).order_by(
            "number"
        )
    )
    assert len(rows) == len(published) > 5
    cumulative = 0
    for row, r in zip(rows, published, strict=True):
        cumulative += r.played_score
        assert row[:6] == (
            r.number,
            rack_notation(r.rack, r.leftover),
            r.played_ref,
            r.played_word,
            r.played_score,
            cumulative,
        )
    standings_rows = _table(wb["Standings"])[1]
    assert rows[-1][6] == standings_rows[0][4]  # the winner's cumulative ends on their total
    # the totals row: the top's total, what Gap and Top % of the standings measure against
    assert total == ("Total", None, None, None, cumulative, None, None)
    assert standings_rows[0][6] == standings_rows[0][4] - cumulative
    assert wb["Rounds"].cell(row=len(rows) + 2, column=1).font.b
    chart = wb["Rounds"]._charts[0]
    assert chart.series[0].val.numRef.f.endswith(f"$F${len(rows) + 1}")  # the total not charted


def test_the_scores_rows_add_up_to_each_players_total(one_game_event: Event) -> None:
    wb = _open(event_workbook_bytes(event=one_game_event))
    header, rows = _table(wb["Scores"])
    rounds = list(
        Round.objects.filter(game__event=one_game_event, status=Round.Status.PUBLISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert header == ["Player", *rounds, "Total"]
    assert all(isinstance(h, int) for h in header[1:-1])
    totals = {row[1]: row[4] for row in _table(wb["Standings"])[1]}
    assert len(rows) == len(totals)
    for name, *cells, total in rows:
        assert sum(c or 0 for c in cells) == total == totals[name]
    # one cell against its ruling
    ruling = (
        Ruling.objects.filter(round__game__event=one_game_event, round__number=rounds[2])
        .select_related("player")
        .first()
    )
    row = next(r for r in rows if r[0] == ruling.player.name)
    assert row[1 + 2] == ruling.points + ruling.solo - ruling.penalty


def test_the_slips_sheet_lists_every_ruling_with_what_was_awarded(one_game_event: Event) -> None:
    wb = _open(event_workbook_bytes(event=one_game_event))
    header, rows = _table(wb["Slips"])
    assert header[:8] == [
        "Player",
        "Round",
        "Word",
        "Ref",
        "Announced",
        "Awarded",
        "Ruling",
        "Reason",
    ]
    rulings = Ruling.objects.filter(
        round__game__event=one_game_event, round__status=Round.Status.PUBLISHED
    )
    assert len(rows) == rulings.count()
    by_key = {
        (r.player.name, r.round.number): r
        for r in rulings.select_related("player", "round", "submission")
    }
    for name, number, word, ref, announced, awarded, ruling_label, reason, *_ in rows:
        ruling = by_key[(name, number)]
        assert awarded == ruling.total  # the warning's penalty counted where it was given
        assert ruling_label == ruling.get_code_display()
        assert reason == ruling.reason
        if ruling.submission is not None:
            assert (word, ref, announced) == (
                ruling.submission.word,
                ruling.submission.ref or None,
                ruling.submission.announced_score,
            )


def test_an_event_of_two_games_has_cumulative_standings_and_suffixed_game_sheets(
    two_game_event: Event,
) -> None:
    wb = _open(event_workbook_bytes(event=two_game_event))
    assert wb.sheetnames == [
        "Event",
        "Standings",
        "Standings G1",
        "Rounds G1",
        "Scores G1",
        "Slips G1",
        "Standings G2",
        "Rounds G2",
        "Scores G2",
        "Slips G2",
        "Categories",
    ]
    totals = _totals(
        Ruling.objects.filter(
            round__game__event=two_game_event, round__status=Round.Status.PUBLISHED
        )
    )
    rows = _table(wb["Standings"])[1]
    assert {row[1]: row[4] for row in rows} == dict(totals)
    per_game = [{row[1]: row[4] for row in _table(wb[f"Standings G{n}"])[1]} for n in (1, 2)]
    for name, total in totals.items():
        assert per_game[0][name] + per_game[1][name] == total
        scores = [next(r for r in _table(wb[f"Scores G{n}"])[1] if r[0] == name) for n in (1, 2)]
        assert sum(sum(c or 0 for c in row[1:-1]) for row in scores) == total
    top_total = Round.objects.filter(
        game__event=two_game_event, status=Round.Status.PUBLISHED
    ).aggregate(t=Sum("played_score"))["t"]
    assert _table(wb["Rounds G1"])[1][-2][5] + _table(wb["Rounds G2"])[1][-2][5] == top_total
    assert _table(wb["Rounds G1"])[1][-1][4] + _table(wb["Rounds G2"])[1][-1][4] == top_total
    assert rows[0][6] == rows[0][4] - top_total


def test_a_game_workbook_has_the_games_sheets(two_game_event: Event) -> None:
    game = Game.objects.get(event=two_game_event, number=2)
    wb = _open(game_workbook_bytes(game=game))
    assert wb.sheetnames == ["Event", "Standings", "Rounds", "Scores", "Slips", "Categories"]
    assert _table(wb["Rounds"])[1][0][0] == 1


# --- ties, built through the services ---------------------------------------------------------


def test_equal_totals_share_a_rank_in_the_workbook_and_the_csv(tied_game: Game) -> None:
    wb = _open(game_workbook_bytes(game=tied_game))
    rows = _table(wb["Standings"])[1]
    assert [(row[0], row[1], row[4], row[6]) for row in rows][:2] == [
        (1, "Ann", 24, 0),
        (1, "Bob", 24, 0),
    ]
    assert rows[2][0] == 3 and rows[2][6] < 0
    assert rows[0][5] == 100
    out = io.StringIO()
    standings_csv_write(event=tied_game.event, out=out)
    lines = list(csv.reader(io.StringIO(out.getvalue())))
    assert lines[0] == STANDINGS_HEADER
    assert [line[0] for line in lines[1:]] == ["1", "1", "3"]


# --- formula injection --------------------------------------------------------------------------

EVIL = "=cmd|' /C calc'!A0"


def test_a_formula_in_a_name_stays_text_in_the_csv_and_numbers_stay_numbers(
    tied_game: Game,
) -> None:
    Player.objects.filter(name="Cleo").update(name=EVIL, club="+33 Club", category="@S1")
    out = io.StringIO()
    standings_csv_write(event=tied_game.event, out=out)
    lines = list(csv.reader(io.StringIO(out.getvalue())))
    evil = next(line for line in lines if EVIL in line[1])
    assert evil[1] == "'" + EVIL
    assert evil[2] == "'+33 Club" and evil[3] == "'@S1"
    gap = int(evil[6])  # a negative gap is a number, not escaped text
    assert gap < 0 and not evil[6].startswith("'")
    assert all(
        not cell.startswith("'")
        for line in lines[1:]
        for i, cell in enumerate(line)
        if i not in (1, 2, 3)
    )


def test_a_formula_in_a_name_stays_text_in_the_workbook(tied_game: Game) -> None:
    Player.objects.filter(name="Cleo").update(name=EVIL)
    wb = _open(game_workbook_bytes(game=tied_game))
    for title in ("Standings", "Scores", "Slips"):
        ws = wb[title]
        cells = [c for row in ws.iter_rows(min_row=2) for c in row if c.value == EVIL]
        assert cells, title
        assert all(c.data_type == "s" for c in cells)
    gap = next(row for row in _table(wb["Standings"])[1] if row[1] == EVIL)[6]
    assert isinstance(gap, int) and gap < 0
