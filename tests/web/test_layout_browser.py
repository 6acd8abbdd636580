"""The director's night, measured in Chromium: the boards of the console, the projection screen
and the phone are 15x15 grids of equal square cells with the tiles placed, at the sizes they
are used at (a laptop 1280x800, projectors 1920x1080 and 1024x768, a phone 390x844), and no
page scrolls sideways on the phone. Screenshots go to /tmp/layout-*.png."""

from __future__ import annotations

import pytest

from tests.web.console.test_console_browser import logged_in
from tests.web.layout import assert_no_horizontal_scroll, assert_square_board
from tests.web.night import TILES
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1920, "height": 1080}
MIDDLE_PROJECTOR = {"width": 1280, "height": 900}
OLD_PROJECTOR = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
SHOTS = "/tmp/layout"


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_console_board_is_a_grid_of_square_cells_with_its_tiles(
    browser,  # noqa: F811
    live_server,
    night,
    size,
) -> None:
    """site.css's ``.tile`` (a tile on its own) once made the board's tile squares inline
    grids: row H, with WROTE on it, broke out of the table."""
    event, game, players, director = night
    page = logged_in(browser, live_server, director, size)
    page.goto(f"{live_server.url}/events/club-night/games/1/console/")
    page.screenshot(path=f"{SHOTS}-console-{size['width']}.png", full_page=True)
    assert_square_board(page, "table.board td.sq", tiles=TILES)
    page.context.close()


@pytest.mark.parametrize(
    "size", [PROJECTOR, MIDDLE_PROJECTOR, OLD_PROJECTOR], ids=["1920x1080", "1280x900", "1024x768"]
)
def test_the_screen_board_is_a_grid_of_square_cells_inside_the_screen(
    browser,  # noqa: F811
    live_server,
    night,
    size,
) -> None:
    event, game, players, director = night
    page = logged_in(browser, live_server, director, size)
    page.goto(f"{live_server.url}/events/club-night/screen/")
    page.wait_for_function("document.querySelectorAll('#board td.tile').length > 0")
    page.screenshot(path=f"{SHOTS}-screen-{size['width']}.png")
    assert_square_board(page, "#board td.sq", tiles=TILES)
    assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
    page.context.close()


def test_the_phone_board_is_a_grid_of_square_cells_and_the_page_fits_the_phone(
    browser,  # noqa: F811
    live_server,
    night,
) -> None:
    event, game, players, director = night
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/play/{players[0].token}/")
    page.wait_for_selector("#board .cell-tile")
    page.screenshot(path=f"{SHOTS}-phone-390.png", full_page=True)
    assert_square_board(page, "#board > div:not(.hdr):not(.corner)", tiles=TILES)
    assert_no_horizontal_scroll(page)
    context.close()


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/events/club-night/",
        "/events/club-night/setup/",
        "/events/club-night/games/1/console/",
        "/events/club-night/games/1/slips/",
        "/events/club-night/games/1/audit/",
        "/events/club-night/games/1/slips/?entry=second",
        "/events/club-night/games/1/rounds/1/rulings/",
    ],
)
def test_the_staff_pages_do_not_scroll_sideways_on_a_phone(
    browser,  # noqa: F811
    live_server,
    night,
    path,
) -> None:
    event, game, players, director = night
    page = logged_in(browser, live_server, director, PHONE)
    page.goto(f"{live_server.url}{path}")
    name = path.strip("/").replace("/", "-") or "events"
    page.screenshot(path=f"{SHOTS}-phone-{name}.png", full_page=True)
    assert_no_horizontal_scroll(page)
    page.context.close()
