"""The workbooks and the standings CSV in their event's language: French sheet names and
headers for a French event, exactly design.md's English headers for an English one."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils import translation
from openpyxl import load_workbook

from tournament.models import Event, Game
from web.exports import event_workbook_bytes, standings_csv_write

pytestmark = pytest.mark.django_db

# design.md, "Spreadsheet exports": what outside tools read in an English event's workbook.
STANDINGS_EN = ["Rank", "Player", "Club", "Category", "Total", "Top %", "Gap"]
ROUNDS_EN = ["Round", "Rack", "Ref", "Word", "Score", "Cumulative"]


@pytest.fixture
def played(tied_game: Game) -> Event:
    return tied_game.event


def sheets(event: Event) -> dict[str, list[tuple]]:
    book = load_workbook(io.BytesIO(event_workbook_bytes(event=event)), read_only=True)
    return {ws.title: list(ws.iter_rows(values_only=True)) for ws in book.worksheets}


def test_an_english_events_workbook_keeps_the_headers_of_the_design(played: Event) -> None:
    book = sheets(played)
    assert list(book) == ["Event", "Standings", "Rounds", "Scores", "Slips", "Categories"]
    assert list(book["Standings"][0][: len(STANDINGS_EN)]) == STANDINGS_EN
    assert book["Standings"][0][-1] == "Status"
    assert list(book["Rounds"][0][: len(ROUNDS_EN)]) == ROUNDS_EN


def test_a_french_events_workbook_and_csv_are_in_french(played: Event) -> None:
    played.language = "fr"
    played.save(update_fields=["language"])
    book = sheets(played)
    assert list(book) == ["Tournoi", "Classement", "Coups", "Scores", "Bulletins", "Catégories"]
    assert list(book["Classement"][0][:7]) == [
        "Rang",
        "Joueur",
        "Club",
        "Catégorie",
        "Total",
        "% du top",
        "Écart",
    ]
    assert list(book["Coups"][0][:6]) == ["Coup", "Tirage", "Réf.", "Mot", "Score", "Cumul"]
    assert book["Bulletins"][1][6] == "Valable"  # a ruling's label, in words
    assert book["Classement"][1][1] in {"Ann", "Bob"}  # names stay as typed
    assert list(book["Catégories"][0][:3]) == ["Rang", "Rang général", "Joueur"]
    out = io.StringIO()
    standings_csv_write(event=played, out=out)
    # as French Excel reads it: ";" between the cells, a decimal comma in the percentages
    rows = list(csv.reader(io.StringIO(out.getvalue()), delimiter=";"))
    header = rows[0]
    assert header[:3] == ["Rang", "Joueur", "Club"] and header[-1] == "État"
    percent = rows[1][header.index("% du top")]
    assert "," in percent and "." not in percent, percent
    english = io.StringIO()
    played.language = "en"
    played.save(update_fields=["language"])
    standings_csv_write(event=played, out=english)
    rows = list(csv.reader(io.StringIO(english.getvalue())))
    assert rows[0][:2] == ["Rank", "Player"] and "." in rows[1][rows[0].index("Top %")]


def test_a_french_workbook_does_not_change_the_language_of_the_request(played: Event) -> None:
    played.language = "fr"
    played.save(update_fields=["language"])
    with translation.override("en"):
        sheets(played)
        assert translation.get_language() == "en"
