"""A French director's long night, measured in Chromium at 390, 1280, 1440 and 1920 px: no page
scrolls sideways, no panel hides a column behind a sideways scroll from 1280 px up (the
rulings' "Corriger" buttons in sight), a 120-letter name without a space wraps, the console's
standings hold every player. Screenshots: /tmp/fr-layout-<page>-<width>.png."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.web.conftest import club_night
from tests.web.console.test_console_browser import logged_in
from tests.web.layout import assert_no_horizontal_scroll
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [390, 1280, 1440, 1920]
LONG = "W" * 120  # a name of 120 letters without a space

# Every panel that scrolls sideways: its width, and the width its content asks for.
SCROLLING = """() => Array.from(document.querySelectorAll('.panel, main, table'))
  .filter((e) => e.scrollWidth > e.clientWidth + 1)
  .map((e) => (e.id || e.className || e.tagName) + ': ' + e.scrollWidth + ' > ' + e.clientWidth)"""
# The "amend" buttons (a <summary>) that stand outside the window.
OUTSIDE = """() => Array.from(document.querySelectorAll('table.rulings summary'))
  .map((s) => s.getBoundingClientRect())
  .filter((r) => r.right > window.innerWidth + 0.5 || r.left < 0).length"""


@pytest.fixture
def long_night(db):
    event, game, players, director = club_night("fr")
    Player.objects.filter(pk=players[0].pk).update(name=LONG)
    return event, game, players, director


@pytest.mark.parametrize("width", WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def test_the_french_console_fits_the_width_with_no_sideways_scroll(
    browser,  # noqa: F811
    live_server,
    long_night,
    width,
) -> None:
    event, game, players, director = long_night
    page = logged_in(browser, live_server, director, {"width": width, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    pages = {
        "console": "/events/club-night/games/1/console/",
        "rulings": "/events/club-night/games/1/rounds/2/rulings/",
        "slips": "/events/club-night/games/1/slips/",
        "event": "/events/club-night/",
        "setup": "/events/club-night/setup/",
    }
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        page.screenshot(path=f"/tmp/fr-layout-{name}-{width}.png", full_page=True)
        assert_no_horizontal_scroll(page)
        if width >= 1280:
            assert page.evaluate(SCROLLING) == [], (name, width)
            assert page.evaluate(OUTSIDE) == 0, (name, width)
    page.goto(f"{live_server.url}/events/club-night/games/1/console/")
    rows = page.locator("#console-standings tbody tr")
    assert rows.count() == len(players)  # every player, the panel scrolls
    page.fill("#standings-find", "player 33")
    page.wait_for_function("document.querySelectorAll('#console-standings tr.found').length === 1")
    found = page.locator("#console-standings tr.found").bounding_box()
    box = page.locator("#console-standings .standings-scroll").bounding_box()
    assert found and box and box["y"] <= found["y"] <= box["y"] + box["height"]
    name_cell = page.locator("table.rulings td:nth-child(2)", has_text="WWWW").first
    if name_cell.count():
        cell = name_cell.bounding_box()
        assert cell and cell["width"] <= 16 * 16 + 20  # wrapped, not 120 letters wide
    page.context.close()
    assert timezone.now()
