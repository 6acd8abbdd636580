"""Exports that stand alone (issue 16.6): the Event sheet first (name, date, place, word list,
rules policy, time of export, the columns' legend), the notes on the header cells of what is
counted, the totals row, where a manual penalty shows, and every sheet as CSV in a zip."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile

import pytest
from openpyxl import load_workbook

from arbiter.services.corrections import ruling_amend
from arbiter.services.rulings import rulings_derive
from tests.factories import EventRoleFactory
from tournament.models import Event, Game, Ruling
from web.exports import event_csv_zip_write, event_workbook_bytes, game_csv_zip_write
from web.exports.front import COLUMN_NOTES, event_sheet, word_list_shown
from web.exports.sheets import SLIPS_HEADER, STANDINGS_HEADER

pytestmark = pytest.mark.django_db

COLUMN_NOTES_FR_SOLOS = (
    "Les points de bonus de solo (pas un nombre de solos)\u00a0: le bonus gagné chaque fois que "
    "le joueur a trouvé seul le top, quand assez de joueurs ont joué (voir le règlement)."
)
EXPORTED = dt.datetime(2026, 11, 24, 17, 45, 12, tzinfo=dt.UTC)


@pytest.fixture
def played(tied_game: Game) -> Event:
    event = tied_game.event
    event.name, event.venue = "Lyon open", "Salle Molière"
    event.save(update_fields=["name", "venue"])
    return event


def _book(event: Event):
    return load_workbook(io.BytesIO(event_workbook_bytes(event=event)))


def _rows(ws) -> list[tuple]:
    return list(ws.iter_rows(values_only=True))


def _first_column(ws, legend: str = "What the columns count") -> dict[str, tuple]:
    """The Event sheet's lines by their first cell, down to the legend (which names some of
    the same things: the rules' penalties and the columns' are not the same line)."""
    rows = _rows(ws)[1:]
    end = next(i for i, row in enumerate(rows) if row[0] == legend)
    return {row[0]: row[1:] for row in rows[:end] if row[0] is not None}


def test_the_workbook_opens_on_the_event_its_date_place_word_list_and_rules(
    played: Event,
) -> None:
    book = _book(played)
    assert book.sheetnames[0] == "Event" and book.active.title == "Event"
    ws = book["Event"]
    assert _rows(ws)[0][:2] == ("Event", "Lyon open")
    assert ws["A1"].font.b and ws.freeze_panes == "A2"
    lines = _first_column(ws)
    assert lines["Starts on"][0].date() == played.starts_on
    assert ws["B2"].number_format == "yyyy-mm-dd"  # a date, not text
    assert lines["Venue"][0] == "Salle Molière"
    assert lines["Word list"][0] == word_list_shown(played) == "word list enable (168,548 words)"
    assert lines["Solo bonus"][0] == played.solo_bonus == 10
    assert lines["Players for a solo"][0] == played.solo_min_players == 3
    assert lines["Free warnings"][0] == 3 and lines["Warning penalty"][0] == 5
    assert lines["2016 reference rule (before 2023 only)"][0] == "yes"
    assert lines["Rulebook"][0] == "FISF regulation in force (1 January 2023)"
    assert lines["Publish by itself after (seconds)"][0] == "the director publishes"
    assert lines["Tile set"][0] == played.get_tile_set_display()
    exported = lines["Exported at"]
    assert isinstance(exported[0], dt.datetime) and exported[1] == "UTC"
    assert abs(exported[0] - dt.datetime.now()) < dt.timedelta(minutes=5)


def test_the_export_time_is_the_events_local_time_with_its_zone(played: Event) -> None:
    played.time_zone = "Europe/Paris"  # the server's TIME_ZONE stays UTC
    rows = {row[0]: row for row in event_sheet(played, now=EXPORTED).rows if row[0]}
    assert rows["Exported at"][1:] == (dt.datetime(2026, 11, 24, 18, 45, 12), "Europe/Paris")


def test_the_solos_and_tops_headers_say_what_they_count_in_a_note_and_in_the_legend(
    played: Event,
) -> None:
    book = _book(played)
    header = [cell for cell in next(book["Standings"].iter_rows(max_row=1))]
    notes = {cell.value: cell.comment.text for cell in header if cell.comment is not None}
    assert set(notes) == {"Tops", "Solos", "Warnings", "Penalties"}
    assert notes["Solos"] == COLUMN_NOTES["Solos"] and "not a count" in notes["Solos"]
    assert "how many rounds" in notes["Tops"].lower()
    slips = {c.value: c.comment for c in next(book["Slips"].iter_rows(max_row=1))}
    assert slips["Reference penalty"].text == COLUMN_NOTES["Reference penalty"]
    assert slips["Word"] is None  # only the columns whose count is not obvious
    legend = [row for row in _rows(book["Event"]) if row[0] in {"Tops", "Solos"}]
    assert legend == [
        ("Tops", COLUMN_NOTES["Tops"], "Standings"),
        ("Solos", COLUMN_NOTES["Solos"], "Standings"),
    ]
    assert STANDINGS_HEADER.index("Solos") == 8  # the columns a reader knows did not move


def test_a_manual_penalty_shows_on_the_players_round_as_a_reference_penalty(
    played: Event, tied_game: Game
) -> None:
    """The director takes 5 points off Ann in round 1 (an amendment); Cleo's warning costs 5
    once no warning is free: the Slips sheet tells the two apart, on each player's round."""
    played.warnings_free = 0
    played.save(update_fields=["warnings_free"])
    rulings_derive(game=tied_game)
    ann = Ruling.objects.get(round__game=tied_game, player__name="Ann")
    ruling_amend(ruling=ann, reason="Spoke during the round", actor=None, penalty=5)
    book = _book(played)
    header, *rows = _rows(book["Slips"])
    assert list(header) == SLIPS_HEADER
    slips = {row[0]: dict(zip(header, row, strict=True)) for row in rows}
    assert slips["Ann"]["Round"] == 1
    assert (slips["Ann"]["Reference penalty"], slips["Ann"]["Warning penalty"]) == (5, 0)
    assert slips["Ann"]["Penalty"] == 5 and slips["Ann"]["Awarded"] == 24 - 5
    assert slips["Ann"]["Amended"] == "yes" and "Spoke during the round" in slips["Ann"]["Reason"]
    assert slips["Ann"]["Article"] == "11"  # an amendment rules it (rules.md, rule 11)
    assert (slips["Cleo"]["Reference penalty"], slips["Cleo"]["Warning penalty"]) == (0, 5)
    assert slips["Cleo"]["Penalty"] == 5 and slips["Cleo"]["Amended"] is None
    assert (slips["Bob"]["Reference penalty"], slips["Bob"]["Warning penalty"]) == (0, 0)
    standings = {row[1]: row for row in _rows(book["Standings"])[1:]}
    assert standings["Ann"][10] == 5 and standings["Ann"][4] == 19  # Penalties, Total
    scores = {row[0]: row for row in _rows(book["Scores"])[1:]}
    assert scores["Ann"][1] == 19  # in round 1's column, net


def test_a_french_event_sheet_speaks_french(played: Event) -> None:
    played.language = "fr"
    played.save(update_fields=["language"])
    book = _book(played)
    assert book.sheetnames[0] == "Tournoi"
    lines = _first_column(book["Tournoi"], legend="Ce que comptent les colonnes")
    assert _rows(book["Tournoi"])[0][:2] == ("Tournoi", "Lyon open")
    assert lines["Lieu"][0] == "Salle Molière"
    assert lines["Liste de mots"][0] == "liste de mots enable (168\xa0548 mots)"
    assert lines["Règle de référence de 2016 (avant 2023 seulement)"][0] == "oui"
    assert lines["Règlement appliqué"][0] == "Règlement FISF en vigueur (1er janvier 2023)"
    assert "Exporté le" in lines and "Règlement" in lines
    assert ("Solos", COLUMN_NOTES_FR_SOLOS, "Classement") in _rows(book["Tournoi"])
    notes = {c.value: c.comment for c in next(book["Classement"].iter_rows(max_row=1))}
    assert notes["Solos"].text == COLUMN_NOTES_FR_SOLOS


def test_every_sheet_is_a_csv_in_the_zip_with_the_workbooks_rows(played: Event) -> None:
    out = io.BytesIO()
    names = event_csv_zip_write(event=played, out=out)
    assert names == [
        "01-Event.csv",
        "02-Standings.csv",
        "03-Rounds.csv",
        "04-Scores.csv",
        "05-Slips.csv",
        "06-Categories.csv",
    ]
    book = _book(played)
    with zipfile.ZipFile(io.BytesIO(out.getvalue())) as archive:
        assert archive.namelist() == names
        for name, ws in zip(names, book.worksheets, strict=True):
            text = archive.read(name).decode("utf-8-sig")
            sheet = list(csv.reader(io.StringIO(text)))
            expected = [["" if v is None else str(v) for v in row] for row in _rows(ws)]
            if ws.title == "Event":  # dates and times: as the workbook shows them
                assert sheet[1][1] == played.starts_on.isoformat()
                sheet, expected = sheet[2:], expected[2:]
                exported = next(row for row in sheet if row[0] == "Exported at")
                assert dt.datetime.strptime(exported[1], "%Y-%m-%d %H:%M")
                sheet = [row for row in sheet if row[0] != "Exported at"]
                expected = [row for row in expected if row[0] != "Exported at"]
            assert [[_number(c) for c in r] for r in sheet] == [
                [_number(c) for c in r] for r in expected
            ], name
    rounds = archive_rows(out, "03-Rounds.csv")
    assert rounds[-1] == ["Total", "", "", "", "24", "", ""]


def _number(text: str) -> str | float:
    """A cell compared as a number when it is one (openpyxl reads 100.0 back as 100)."""
    try:
        return float(text)
    except ValueError:
        return text


def archive_rows(out: io.BytesIO, name: str, delimiter: str = ",") -> list[list[str]]:
    with zipfile.ZipFile(io.BytesIO(out.getvalue())) as archive:
        text = archive.read(name).decode("utf-8-sig")
        return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def test_a_game_zip_and_a_french_zip_name_their_sheets(played: Event, tied_game: Game) -> None:
    played.language = "fr"
    played.save(update_fields=["language"])
    out = io.BytesIO()
    names = game_csv_zip_write(game=tied_game, out=out)
    assert names[:3] == ["01-Tournoi.csv", "02-Classement.csv", "03-Coups.csv"]
    # a French event's CSV is French Excel's: cells parted by ";" (issue 35)
    assert archive_rows(out, "03-Coups.csv", delimiter=";")[-1][0] == "Total"


def test_the_director_downloads_the_zip_filtered_and_an_outsider_gets_404(
    played: Event, tied_game: Game, director, outsider, client_for
) -> None:
    EventRoleFactory(event=played, user=director, role="director")
    client = client_for(director)
    page = client.get(f"/events/{played.slug}/")
    assert f"/events/{played.slug}/export-csv.zip".encode() in page.content
    response = client.get(f"/events/{played.slug}/export-csv.zip?club=Nowhere")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert f'filename="{played.slug}-csv.zip"' in response["Content-Disposition"]
    zipped = io.BytesIO(response.content)
    assert archive_rows(zipped, "02-Standings.csv")[1:] == []  # nobody of that club
    event_rows = {row[0]: row for row in archive_rows(zipped, "01-Event.csv")}
    assert event_rows["Players shown"][1] == "Nowhere"
    game = client.get(f"/events/{played.slug}/games/1/export-csv.zip")
    assert game.status_code == 200
    assert zipfile.ZipFile(io.BytesIO(game.content)).namelist()[1] == "02-Standings.csv"
    refused = client.get(f"/events/{played.slug}/export-csv.zip?series=9", follow=True)
    assert refused.redirect_chain[-1][0] == f"/events/{played.slug}/"
    assert "Series &#x27;9&#x27; is not a series (1 to 7)." in refused.content.decode()
    assert client.get(f"/events/{played.slug}/games/7/export-csv.zip").status_code == 404
    assert client_for(outsider).get(f"/events/{played.slug}/export-csv.zip").status_code == 404
