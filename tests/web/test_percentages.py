"""A percentage of the top is written one way on every output of an event (issue 35): the
console, the prints, the audience's page, the phone, a player's history, the workbook and the
CSV files all write what ``tournament.typography.percent_text`` writes in the event's language
(``17,20 %`` with a no-break space in French, ``17.20%`` in English); the workbook keeps a
number shown that way, the CSV the number with the language's decimal mark."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.test import APIClient

from arbiter.selectors.standings import standings_event
from tests.web.conftest import club_night
from tournament.typography import percent_number, percent_text
from web.public_results import public_cache_clear

pytestmark = pytest.mark.django_db

WRITTEN = {"fr": ("17,20\u00a0%", ";"), "en": ("17.20%", ",")}


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_output_writes_a_percentage_the_same_way(language) -> None:
    assert percent_text(17.2, language) == WRITTEN[language][0]
    public_cache_clear()  # this process's states of an earlier test's event of the same id
    event, game, players, director = club_night(language)
    event.public_results = True
    event.save(update_fields=["public_results"])
    player = players[2]  # WROTE alone: 24 of 92
    player.licence = "123456"
    player.save(update_fields=["licence"])
    row = standings_event(event=event).row_of(player.pk)
    assert row is not None and 0 < row.top_pct < 100
    expected = percent_text(row.top_pct, language)
    other = percent_text(row.top_pct, "en" if language == "fr" else "fr")
    staff = Client()
    staff.force_login(director)
    staff.cookies["django_language"] = language
    slug = event.slug

    pages = {
        "console": reverse("console:game", args=[slug, 1]),
        "print results": reverse("printing:event_results", args=[slug]),
        "print game": reverse("printing:game_results", args=[slug, 1]),
        "score cards": reverse("printing:score_cards", args=[slug, 1]),
        "history": reverse("history:player", args=[player.licence]),
    }
    written = {}
    for name, url in pages.items():
        page = staff.get(url).content.decode()
        written[name] = expected in page and other not in page
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Bearer {player.token}")
    standings = phone.get("/api/v1/play/standings").json()
    written["phone standings"] = standings["me"]["top_pct_text"] == expected
    state = phone.get("/api/v1/play/state").json()
    written["phone state"] = state["standings"]["top_pct_text"] == expected
    public = Client().get(reverse("public:state", args=[slug])).json()
    mine = next(r for r in public["standings"] if r["name"] == player.name)
    written["public page"] = mine["top_pct_text"] == expected

    book = load_workbook(
        io.BytesIO(_body(staff.get(reverse("exports:event_export_xlsx", args=[slug]))))
    )
    sheet = book.worksheets[1]  # Standings
    header = [c.value for c in sheet[1]]
    column = next(i for i, h in enumerate(header) if "%" in str(h))
    cell = next(r[column] for r in sheet.iter_rows(min_row=2) if r[1].value == player.name)
    written["workbook"] = cell.value == row.top_pct and cell.number_format == (
        '0.00"\u00a0%"' if language == "fr" else '0.00"%"'
    )

    text = staff.get(reverse("exports:standings_csv", args=[slug])).content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text), delimiter=WRITTEN[language][1]))
    column = next(i for i, h in enumerate(lines[0]) if "%" in h)
    line = next(cells for cells in lines[1:] if player.name in cells)
    written["csv"] = line[column] == percent_number(row.top_pct, language)
    assert written == dict.fromkeys(written, True), (expected, written)
