"""The staff's pages with the keyboard alone (issue 37): Tab reaches every control of the game
console, the slip entry, the rulings and the event page, in order, and each shows where the
focus is (a ring of at least 2 px, WCAG 2.4.7); nothing takes the focus unseen. The slip
entry's own keyboard flow (table, Enter, word, Enter...): tests/web/console/
test_walkthrough_browser.py."""

from __future__ import annotations

import pytest

from tests.web.console.test_console_browser import logged_in
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PAGES = {
    "console": "/events/club-night/games/1/console/",
    "slip entry": "/events/club-night/games/1/slips/",
    "rulings": "/events/club-night/games/1/rounds/2/rulings/",
    "event": "/events/club-night/",
}
# Tab once: the element that has the focus and whether its ring shows.
STEP = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
  const r = e.getBoundingClientRect();
  const text = (e.textContent || e.name || '').trim().slice(0, 30);
  return {what: e.tagName + (e.id ? '#' + e.id : '') + ' ' + text,
          visible: e.matches(':focus-visible') && ring, inside: r.width > 0 && r.height > 0};
}"""


def tab_through(page, limit: int = 400) -> list[dict]:
    """Every stop of Tab from the top of the page until the focus leaves it."""
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        stop = page.evaluate(STEP)
        if stop is None or (stops and stop["what"] == stops[0]["what"]):
            break
        stops.append(stop)
    return stops


def test_tab_reaches_every_control_of_the_staff_pages_with_its_focus_in_sight(
    browser,  # noqa: F811
    live_server,
    night,
) -> None:
    event, game, players, director = night
    page = logged_in(browser, live_server, director, LAPTOP)
    for name, path in PAGES.items():
        page.goto(f"{live_server.url}{path}")
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.mouse.click(1, 1)  # Tab starts from the top of the page (an autofocus aside)
        stops = tab_through(page)
        assert len(stops) >= 5, (name, stops)
        unseen = [s["what"] for s in stops if not (s["visible"] and s["inside"])]
        assert unseen == [], f"{name}: the focus is not seen on {unseen}"
    page.context.close()
