"""The audience's page in Chromium at a phone's, a laptop's and a projector's size: the board a
grid of square cells inside the window, the rack, the clock counting, the tops and the
standings, nothing scrolling sideways; in English and in French. Screenshots:
/tmp/public-*.png."""

from __future__ import annotations

import pytest

from tests.web.layout import assert_no_horizontal_scroll, assert_square_board
from tests.web.night import PLAYERS, TILES
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from web.public_results import public_cache_clear

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "phone": {"width": 390, "height": 844},
    "laptop": {"width": 1366, "height": 768},
    "projector": {"width": 1920, "height": 1080},
}


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_the_audience_follows_the_round_on_any_screen(browser, live_server, night, size) -> None:  # noqa: F811
    event, game, players, director = night
    event.public_results = True
    event.save(update_fields=["public_results"])
    public_cache_clear()
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/results/{event.slug}/")
    page.wait_for_function(f"document.querySelectorAll('#standings tbody tr').length === {PLAYERS}")
    page.wait_for_function("/^[0-9]+:[0-9]{2}$/.test(document.getElementById('clock').textContent)")
    assert_square_board(page, "#board td.sq", tiles=TILES)
    assert_no_horizontal_scroll(page)
    assert page.locator("#rack span").count() == 7
    assert page.locator("#tops tbody tr").count() == 2
    assert "WROTE" in page.inner_text("#tops")
    assert page.inner_text("#standings-title") == "Standings after 2 rounds"
    clock = page.locator("#clock").bounding_box()
    assert clock is not None and clock["y"] < SIZES[size]["height"]  # the clock in the first view
    if size != "phone":  # beside each other where there is room: the board and the standings
        board = page.locator("#board").bounding_box()
        standings = page.locator("#standings").bounding_box()
        assert board and standings and standings["x"] > board["x"] + board["width"] - 1
    page.screenshot(path=f"/tmp/public-{size}.png", full_page=True)
    context.close()


def test_the_audiences_page_speaks_french_for_a_french_event(browser, live_server, night) -> None:  # noqa: F811
    event, *_ = night
    event.public_results = True
    event.language = "fr"
    event.save(update_fields=["public_results", "language"])
    public_cache_clear()
    context = browser.new_context(viewport=SIZES["phone"])
    page = context.new_page()
    page.goto(f"{live_server.url}/results/{event.slug}/")
    page.wait_for_function(f"document.querySelectorAll('#standings tbody tr').length === {PLAYERS}")
    assert page.inner_text("#standings-title") == "Classement après 2 coups"
    assert "Partie 1" in page.inner_text("#sub")
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/public-phone-fr.png", full_page=True)
    context.close()
