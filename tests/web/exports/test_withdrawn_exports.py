"""A withdrawn player in the exports: still in the standings with the points earned, marked
``Withdrawn`` in a ``Status`` column added after the columns docs/design.md fixes; read back
with openpyxl and the csv module."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import load_workbook

from tournament.models import Game, Player, Ruling
from tournament.services.players import player_reinstate, player_withdraw
from web.exports import event_workbook_bytes, game_workbook_bytes, standings_csv_write

pytestmark = pytest.mark.django_db

FIXED = ["Rank", "Player", "Club"]  # then Category, and Total, Top %, Gap in design.md's order


def _standings(content: bytes, title: str = "Standings") -> tuple[list, dict[str, dict]]:
    rows = list(load_workbook(io.BytesIO(content))[title].iter_rows(values_only=True))
    header = list(rows[0])
    return header, {row[1]: dict(zip(header, row, strict=True)) for row in rows[1:]}


def _csv(game: Game) -> tuple[list[str], dict[str, dict[str, str]]]:
    out = io.StringIO()
    standings_csv_write(event=game.event, out=out)
    lines = list(csv.reader(io.StringIO(out.getvalue())))
    return lines[0], {line[1]: dict(zip(lines[0], line, strict=True)) for line in lines[1:]}


def test_the_header_keeps_the_design_columns_in_place_and_ends_with_the_status(
    tied_game: Game,
) -> None:
    header, _ = _standings(game_workbook_bytes(game=tied_game))
    assert header[:3] == FIXED and header[4:7] == ["Total", "Top %", "Gap"]
    assert header[-1] == "Status"
    assert _csv(tied_game)[0] == header


def test_a_withdrawn_player_is_marked_in_the_workbook_and_keeps_their_points(
    tied_game: Game,
) -> None:
    _, before = _standings(game_workbook_bytes(game=tied_game))
    cleo = Player.objects.get(event=tied_game.event, name="Cleo")
    player_withdraw(player=cleo, actor=None, reason="unwell")
    for content, titles in (
        (game_workbook_bytes(game=tied_game), ["Standings"]),
        (event_workbook_bytes(event=tied_game.event), ["Standings"]),
    ):
        for title in titles:
            _, rows = _standings(content, title)
            assert rows["Cleo"]["Status"] == "Withdrawn"
            assert rows["Ann"]["Status"] is None and rows["Bob"]["Status"] is None
            assert (rows["Cleo"]["Rank"], rows["Cleo"]["Total"]) == (
                before["Cleo"]["Rank"],
                before["Cleo"]["Total"],
            )
    player_reinstate(player=cleo, actor=None)
    assert _standings(game_workbook_bytes(game=tied_game))[1]["Cleo"]["Status"] is None


def test_a_withdrawn_player_is_marked_in_the_csv(tied_game: Game) -> None:
    cleo = Player.objects.get(event=tied_game.event, name="Cleo")
    player_withdraw(player=cleo, actor=None)
    _, rows = _csv(tied_game)
    assert {name: row["Status"] for name, row in rows.items()} == {
        "Ann": "",
        "Bob": "",
        "Cleo": "Withdrawn",
    }
    earned = Ruling.objects.get(player=cleo).total  # TROW, played before she withdrew
    assert earned > 0 and int(rows["Cleo"]["Total"]) == earned and rows["Cleo"]["Rank"] == "3"
