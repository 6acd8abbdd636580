"""A director uploads the event's word list in the set-up, picks one uploaded before, and sees
its name, word count and compile on the pages, the screen and the exports."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import RequestFactory
from django.urls import reverse
from openpyxl import load_workbook

from engine.lexicon import Lexicon
from tests.factories import EventFactory, EventRoleFactory, GameFactory
from tests.web.console.test_setup import POLICY, post, said
from tournament.models import Event, WordList
from tournament.services.word_lists import word_list_compile
from web.exports.workbooks import game_workbook_bytes
from web.middleware import request_problem

pytestmark = pytest.mark.django_db

FRENCH = Path(__file__).resolve().parents[2] / "data" / "fr-words.txt"


@pytest.fixture(autouse=True)
def _folder(settings, tmp_path: Path) -> None:
    # The engine's cache stays the suite's, where ENABLE is compiled already (the pages show
    # its word count); the test list's compile is keyed by its content there.
    settings.WORD_LISTS_DIR = tmp_path / "wordlists"


@pytest.fixture
def soiree(director) -> Event:
    event = EventFactory(name="Soirée du club", tile_set="fr")
    EventRoleFactory(event=event, user=director, role="director")
    return event


def upload(client, event: Event, data: bytes, name: str = "", file_name: str = "mots.txt"):
    return post(client, event, "wordlist", name=name, file=SimpleUploadedFile(file_name, data))


def test_a_director_uploads_the_events_list_and_watches_it_compile(
    client_for, director, soiree
) -> None:
    client = client_for(director)
    response = upload(client, soiree, FRENCH.read_bytes())
    assert said(response) == [
        "mots is uploaded (295 words) and the event plays it: it is compiled in the background, "
        "and a round can start once it is ready."
    ]
    word_list = WordList.objects.get()
    soiree.refresh_from_db()
    assert soiree.lexicon == word_list.key and word_list.uploaded_by == director
    page = response.content.decode()
    assert 'id="word-list-progress"' in page and "word list mots (295 words)" in page
    state_url = reverse("console:word_list_state", args=[soiree.slug])
    assert client.get(state_url).json() == {
        "name": "mots",
        "words": 295,
        "status": "queued",
        "progress": 0,
        "message": "1 line repeated a word already in the list (counted once)",
        "builtin": False,
    }
    word_list_compile(word_list_id=word_list.pk)
    assert client.get(state_url).json()["status"] == "ready"
    detail = client.get(reverse("console:event_detail", args=[soiree.slug])).content.decode()
    assert "word list mots (295 words)</span>" in detail
    setup = client.get(reverse("console:setup", args=[soiree.slug])).content.decode()
    assert "word-list-progress" not in setup and "Ready" in setup


def test_a_second_upload_of_the_same_file_plays_the_list_compiled_before(
    client_for, director, soiree
) -> None:
    client = client_for(director)
    upload(client, soiree, FRENCH.read_bytes(), name="Mots du club")
    other = EventFactory(tile_set="fr")
    EventRoleFactory(event=other, user=director, role="director")
    response = upload(client, other, FRENCH.read_bytes(), name="Copie")
    assert said(response) == [
        "This file was uploaded before as Mots du club (295 words): the event plays it."
    ]
    other.refresh_from_db()
    assert WordList.objects.count() == 1 and other.lexicon == WordList.objects.get().key


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ("été\n".encode("latin-1"), "The word list is not UTF-8 text: line 1"),
        (b"", "The word list is empty"),  # the form says it first: "The submitted file is empty."
        (
            "chien\nl'école\n".encode(),
            "1 line of the word list is not a word of the tile set French",
        ),
    ],
)
def test_a_bad_file_is_refused_on_the_page_and_the_event_keeps_its_list(
    client_for, director, soiree, data: bytes, error: str
) -> None:
    response = upload(client_for(director), soiree, data)
    message = said(response)[0]
    assert error in message or "The submitted file is empty" in message, message
    soiree.refresh_from_db()
    assert soiree.lexicon == "enable" and not WordList.objects.exists()


def test_the_policy_offers_the_lists_uploaded_before_and_refuses_one_of_other_tiles(
    client_for, director, soiree, event
) -> None:
    client = client_for(director)
    upload(client, soiree, FRENCH.read_bytes(), name="Mots")
    word_list = WordList.objects.get()
    setup = client.get(reverse("console:setup", args=[event.slug])).content.decode()
    assert f'<option value="{word_list.key}">Mots (fr, 295 words) · Queued</option>' in setup
    english = {**POLICY, "tile_set": "en", "lexicon": word_list.key}
    assert "was checked against the French" in said(post(client, event, "policy", **english))[0]
    french = {**POLICY, "tile_set": "fr", "lexicon": word_list.key}
    assert said(post(client, event, "policy", **french)) == ["The rules policy is saved."]
    event.refresh_from_db()
    assert event.lexicon == word_list.key


def test_an_upload_may_be_larger_than_other_requests_up_to_the_lists_bound(settings) -> None:
    factory = RequestFactory()
    size = settings.REQUEST_BODY_MAX_BYTES + 1024 * 1024
    assert size < settings.WORD_LIST_MAX_BYTES

    def sent(path: str, length: int):  # only the announced length is looked at
        return factory.generic("POST", path, b"", "text/plain", CONTENT_LENGTH=str(length))

    upload_path = "/events/soiree/setup/wordlist/"
    assert request_problem(sent(upload_path, size)) is None
    player = request_problem(sent("/events/soiree/setup/player/", size))
    assert player is not None and player.status_code == 413
    refused = request_problem(sent(upload_path, settings.WORD_LIST_MAX_BYTES + 2 * 1024 * 1024))
    assert refused is not None and refused.status_code == 413
    limit = settings.WORD_LIST_MAX_BYTES // (1024 * 1024)
    said = f"The file is too large ({limit + 2} MB): at most {limit} MB."
    assert said.encode() in refused.content


def test_the_screen_and_the_workbook_name_the_list_and_its_size(
    client_for, director, soiree
) -> None:
    client = client_for(director)
    upload(client, soiree, FRENCH.read_bytes(), name="Mots")
    word_list = WordList.objects.get()
    word_list_compile(word_list_id=word_list.pk)
    soiree.refresh_from_db()
    game = GameFactory(event=soiree, number=1)
    state = client.get(reverse("screen:game_state", args=[soiree.slug, 1])).json()
    assert state["lexicon"] == {"name": "Mots", "words": 295, "label": "word list Mots (295 words)"}
    book = load_workbook(io.BytesIO(game_workbook_bytes(game=game)))
    assert book.properties.subject == "word list Mots (295 words)"
    assert {p.name: p.value for p in book.custom_doc_props.props} == {
        "Word list": "Mots",
        "Words": 295,
    }
    assert book.sheetnames == ["Event", "Standings", "Rounds", "Scores", "Slips", "Categories"]


def test_an_english_workbook_names_enable_with_its_size(event) -> None:
    game = GameFactory(event=event, number=1)
    book = load_workbook(io.BytesIO(game_workbook_bytes(game=game)))
    props = {p.name: p.value for p in book.custom_doc_props.props}
    words = Lexicon.load().words
    assert props == {"Word list": "enable", "Words": words}
    assert book.properties.subject == f"word list enable ({words:,} words)"


def test_the_event_form_offers_the_tile_sets_and_the_boards_and_games_copy_them(
    client_for, director
) -> None:
    client = client_for(director)
    page = client.get(reverse("console:event_new")).content.decode()
    for value in ("en", "fr", "standard", "tl-centre"):
        assert f'<option value="{value}"' in page
    response = client.post(
        reverse("console:event_new"),
        {"name": "Nuit du Scrabble", "starts_on": "2026-12-01", **POLICY, "tile_set": "fr"}
        | {"board_layout": "tl-centre", "lexicon": "builtin:grammalecte-fr"},
        follow=True,
    )
    event = Event.objects.get(name="Nuit du Scrabble")
    assert event.lexicon == WordList.objects.get(builtin="grammalecte-fr").key
    assert (event.tile_set, event.board_layout) == ("fr", "tl-centre"), said(response)
    post(client, event, "game", source="random")
    game = event.games.get()
    assert (game.tile_set, game.board_layout, game.lexicon) == ("fr", "tl-centre", event.lexicon)


def test_a_list_too_costly_to_compile_is_refused_on_the_page_with_the_figure(
    client_for, director, soiree, settings
) -> None:
    """20,000 random words of 15 letters (300,000 letters): estimated about 1,500 MB, refused
    under a limit of 512 MB, the figure and the limit said; nothing kept."""
    import random
    import string

    settings.WORD_LIST_MEMORY_MB = 512
    rng = random.Random(7)
    words = ("".join(rng.choice(string.ascii_uppercase) for _ in range(15)) for _ in range(20_000))
    response = upload(client_for(director), soiree, "\n".join(words).encode())
    message = said(response)[0]
    assert message.startswith("This word list would take about "), message
    assert "MB of memory to compile (20,000 words, 300,000 letters)" in message
    assert "the server compiles lists of up to 512 MB" in message
    soiree.refresh_from_db()
    assert soiree.lexicon == "enable" and not WordList.objects.exists()
