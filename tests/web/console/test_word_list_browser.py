"""A director uploads the event's word list in real headless Chromium: the set-up page shows the
compile's progress, then the list ready with its size, laid out inside the window; the room's
screen names the list beside the title without covering it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import EventFactory, EventRoleFactory, GameFactory, UserFactory
from tests.web.console.test_console_browser import LAPTOP, SCREEN, logged_in
from tests.web.layout import assert_no_horizontal_scroll
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import WordList
from tournament.services.word_lists import word_list_compile

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FRENCH = Path(__file__).resolve().parents[2] / "data" / "fr-words.txt"


def box(page, selector: str) -> dict[str, float]:
    return page.locator(selector).bounding_box()


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 1
        and inner["y"] >= outer["y"] - 1
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    )


def test_a_director_uploads_a_list_watches_it_compile_and_the_screen_names_it(
    browser,  # noqa: F811
    live_server,
    settings,
    tmp_path: Path,
) -> None:
    settings.WORD_LISTS_DIR = tmp_path / "wordlists"
    event = EventFactory(name="Soirée du club", slug="soiree", tile_set="fr")
    director = UserFactory(username="dora")
    EventRoleFactory(event=event, user=director, role="director")
    page = logged_in(browser, live_server, director, LAPTOP)
    page.goto(f"{live_server.url}/events/soiree/setup/")
    panel = page.locator("#word-list")
    panel.locator("input[name=name]").fill("Mots du club")
    panel.locator("input[name=file]").set_input_files(str(FRENCH))
    with page.expect_navigation():
        panel.locator("button.primary").click()
    assert "Mots du club is uploaded (295 words)" in page.locator(".messages").inner_text()
    assert page.locator("#word-list-status").text_content() == "Compiling"
    progress = box(page, "#word-list-progress")
    assert progress["width"] > 40 and inside(progress, box(page, "#word-list"))
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/word-list-compiling.png", full_page=True)

    word_list_compile(word_list_id=WordList.objects.get().pk)  # the worker's part
    page.wait_for_selector("#word-list-status.status-ready", timeout=15000)  # polled, reloaded
    assert page.locator("#word-list-name").inner_text() == "word list Mots du club (295 words)"
    assert page.locator("#word-list-progress").count() == 0
    assert inside(box(page, "#word-list-name"), box(page, "#word-list"))
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/word-list-ready.png", full_page=True)

    GameFactory(event=event, number=1, lexicon=f"upload:{WordList.objects.get().pk}")
    screen = logged_in(browser, live_server, director, SCREEN)
    screen.goto(f"{live_server.url}/events/soiree/screen/")
    screen.wait_for_function("document.getElementById('lexicon').textContent.length > 0")
    assert screen.locator("#lexicon").inner_text() == "word list Mots du club (295 words)"
    title, label = box(screen, "#title"), box(screen, "#lexicon")
    assert label["x"] >= title["x"] + title["width"], "the list's name covers the title"
    assert label["x"] + label["width"] <= SCREEN["width"]
    screen.screenshot(path="/tmp/word-list-screen.png")
