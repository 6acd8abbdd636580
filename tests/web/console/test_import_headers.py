"""The player import page names the headers the importer reads, in English and in French,
whatever the reader's language (a French club's sheet says "Prénom" to an English director),
and exactly those: each header shown folds back to the importer's own table."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tournament.services.player_imports import (
    HEADERS,
    HEADERS_WRITTEN,
    PlayerImportError,
    _folded,
    players_import,
)

pytestmark = pytest.mark.django_db


# Read but not shown: "N° licence" typed without its sign.
UNSHOWN = {"licence": {"no licence"}}


def test_the_headers_shown_are_exactly_the_headers_read() -> None:
    assert list(HEADERS_WRITTEN) == list(HEADERS)
    for column, (english, french) in HEADERS_WRITTEN.items():
        shown = {_folded(h) for h in english + french}
        read = set(HEADERS[column][0]) | set(HEADERS[column][1])
        assert shown == read - UNSHOWN.get(column, set()), column


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_import_page_names_the_french_and_english_headers(
    client_for, director, event, language
) -> None:
    client = client_for(director)
    client.cookies["django_language"] = language
    page = html.unescape(
        client.get(reverse("console:players_import", args=[event.slug])).content.decode()
    )
    table = re.search(r'(?s)<table class="grid" id="import-headers">.*?</table>', page)
    assert table, "the page has no table of the headers read"
    text = re.sub(r"<[^>]+>", " ", table[0])
    for header in ("Prénom", "Nom", "Licence", "Club", "Série", "Catégorie", "N° de licence"):
        assert header in text, header
    for header in ("first name", "name", "licence", "series", "age category"):
        assert header in text, header


def test_a_sheet_headed_as_the_page_says_in_french_is_imported(event, director) -> None:
    headers = [french[0] for _english, french in HEADERS_WRITTEN.values()]
    assert headers[:2] == ["Nom", "Prénom"]
    row = ["Zéro", "Élodie", "Liège", "Invités", "123456", "4", "3", "Senior"]
    text = ";".join(headers) + "\n" + ";".join(row) + "\n"
    try:
        players = players_import(
            event=event, file_name="joueurs.csv", content=text.encode("cp1252"), actor=director
        )
    except PlayerImportError as exc:  # pragma: no cover - the assertion says why
        raise AssertionError([exc.message, *map(str, exc.errors)]) from exc
    (player,) = players
    assert (player.name, player.club, player.licence, player.table) == (
        "Élodie Zéro",
        "Liège",
        "123456",
        4,
    )
