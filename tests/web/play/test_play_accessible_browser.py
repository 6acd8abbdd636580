"""The phone for a player who cannot see it (issue 37): a whole round played with the keyboard
alone, and what a screen reader would say read from the page's accessibility tree (Playwright's
aria snapshots): the rack as a sentence, the board as its words and any square by its reference,
the round's steps (FISF 3.3: the start, the thirty seconds, the end) in a polite live region,
the clock stopped and started again, the slip's receipt and its ruling. Then what a player
needs in the room: large text and a vibration at the warning, kept on the phone across a
reload, and the screen kept on while the round is open.

The page's clock is Playwright's (``page.clock``), moved on to the warning and the end instead
of waiting for them; the server keeps the real time."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone

from arbiter.services import clock
from tests.web.play.test_play_browser import PHONE, browser, finish, open_now, table  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The element that has the focus: what it is, whether its focus ring shows, and whether the
# round's card (which stays at the top as the page scrolls) hides any of it (WCAG 2.4.11).
FOCUSED = """() => {
  const e = document.activeElement, s = getComputedStyle(e);
  const card = document.querySelector('.round-card');
  const box = e.getBoundingClientRect(), over = card.getBoundingClientRect();
  return {id: e.id, tag: e.tagName, ring: e.matches(':focus-visible')
    && s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
    under: !card.contains(e) && box.top < over.bottom && box.bottom > over.top};
}"""
# The page's vibrations, as it asked the phone for them (a desktop Chromium has no vibrator).
VIBRATIONS = """window.__vibrations = [];
navigator.vibrate = (pattern) => { window.__vibrations.push(pattern); return true; };"""


def tab_to(page: Any, element_id: str, *, back: bool = False, limit: int = 40) -> list[str]:
    """Press Tab (Shift+Tab with ``back``) until ``#element_id`` has the focus: the name a
    screen reader gives each stop on the way, each with its focus ring in sight."""
    names = []
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        stop = page.evaluate(FOCUSED)
        assert stop["ring"], f"no visible focus on {stop}"
        assert not stop["under"], f"{stop} is under the round's card"
        name = page.locator(":focus").aria_snapshot()
        assert re.search(r'"[^"]+"|: \S', name), f"{stop} has no name: {name!r}"
        names.append(name)
        if stop["id"] == element_id:
            return names
    raise AssertionError(f"#{element_id} never took the focus: {names}")


def said(page: Any, text: str) -> str:
    """Wait until the live region has said ``text``; what it holds, as the accessibility tree
    gives it to a screen reader."""
    page.wait_for_function(
        "(text) => document.getElementById('announce').textContent.includes(text)", arg=text
    )
    tree = page.locator("#announce").aria_snapshot()
    assert text in tree, tree
    return tree


def test_a_screen_reader_user_plays_a_whole_round_on_the_phone_with_the_keyboard_alone(
    browser,  # noqa: F811
    live_server,
    table,  # noqa: F811
) -> None:
    game, players = table
    ann = players[0]
    r = open_now(game)
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    context.add_init_script(VIBRATIONS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.clock.install()
    page.goto(f"{live_server.url}/play/{ann.token}/")
    page.wait_for_function("document.getElementById('play').dataset.live === 'live'")
    assert page.get_attribute("#announce", "aria-live") == "polite"
    # The screen kept on while the round is open (Chromium's Wake Lock API).
    page.wait_for_function("document.getElementById('play').dataset.awake === 'on'")
    assert page.evaluate("document.getElementById('awake-note').textContent") == (
        "The screen stays on until the round ends."
    )

    # The start: the round, the time left and the rack, said once.
    rack = "Rack: E (1), L (1), O (1), R (1), T (1), T (1), W (4)."
    tree = said(page, "Round 1: the clock is running, ")
    assert re.search(r"running, (3 minutes|2 minutes( \d+ seconds?)?) left\. Rack", tree), tree
    assert rack in tree
    # The tiles themselves are hidden from the tree, as the drawn grid is; their text is not.
    assert page.locator("#rack").aria_snapshot() == f'- text: "{rack}"'
    assert page.locator("#board").aria_snapshot() == ""

    # The whole slip with the keyboard: Tab to the word, type, Tab to the reference... Enter.
    stops = tab_to(page, "word")
    assert any("Time left?" in stop for stop in stops)
    page.keyboard.type("WROTE")
    stops = tab_to(page, "ref")
    assert len(stops) == 6  # the five letters (a blank or a tile each), then the reference
    assert stops[0] == '- button "W"'  # a toggle button: pressed marks the letter a blank
    assert page.get_attribute("#word-letters button >> nth=0", "aria-pressed") == "false"
    page.keyboard.type("h4")
    tab_to(page, "score")
    page.keyboard.type("24")
    page.keyboard.press("Enter")
    page.wait_for_selector("#receipt[data-state=sent]")
    tree = said(page, "Received by the arbiter. H4 WROTE · 24. Round 1 · received at")

    # The director stops the clock, then starts it again: both said.
    clock.round_pause(round=r, actor=None, now=timezone.now())
    said(page, "Clock stopped: ")
    r.refresh_from_db()
    clock.round_resume(round=r, actor=None, now=timezone.now())
    said(page, "The clock runs again: ")

    # The connection lost, then back: said once each, not at every poll.
    page.route("**/api/v1/play/state*", lambda route: route.abort())
    said(page, "Connection lost: reconnecting…")
    page.unroute("**/api/v1/play/state*")
    page.clock.fast_forward(30_000)  # the next try, without waiting for its backoff
    said(page, "Connected · live")

    # The time left when asked, then the settings: a vibration at the warning, large text.
    tab_to(page, "say-time", back=True)
    page.keyboard.press("Enter")
    said(page, " left.")
    tab_to(page, "settings-toggle")
    page.keyboard.press("Enter")
    tab_to(page, "large-text")
    page.keyboard.press("Space")
    assert page.evaluate("document.documentElement.classList.contains('large-text')")
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "20px"
    tab_to(page, "vibrate")
    page.keyboard.press("Space")
    tab_to(page, "keep-awake")
    assert page.is_checked("#keep-awake")

    # The board as text: the square asked for by its reference, with its premium.
    tab_to(page, "board-text-toggle", back=True)
    page.keyboard.press("Enter")
    tab_to(page, "square")
    page.keyboard.type("h8")
    assert page.locator("#square-say").aria_snapshot() == '- paragraph: "H8: empty, double word."'
    assert "No word on the board yet." in page.locator("#board-words").aria_snapshot()

    # Thirty seconds left (the event's warning): said, and the phone vibrates once.
    r.refresh_from_db()
    assert r.deadline is not None
    left = (r.deadline - timezone.now()).total_seconds()
    page.clock.fast_forward(int((left - 20) * 1000))
    tree = said(page, "seconds left.")
    assert re.search(r"\b(1[5-9]|2[0-9]|30) seconds left\.", tree), tree
    assert page.evaluate("window.__vibrations.length") == 1
    # The end of the time. (The page set its clock by the server's again meanwhile: the jump
    # is counted from the real time.)
    left = (r.deadline - timezone.now()).total_seconds()
    page.clock.fast_forward(int((left + 1) * 1000))
    said(page, "Time is up: no more slips for this round.")

    # The arbiter rules the round and publishes it: the top, the ruling and the rank, said.
    finish(r)
    tree = said(page, "Round 1: the top. H4 WROTE · 24.")
    assert "Valid: 24 points." in tree and "Rank 1 of 12" in tree, tree
    page.wait_for_function("document.getElementById('play').dataset.awake === 'off'")  # let go
    page.wait_for_function("document.getElementById('square-say').textContent.includes(': E')")
    assert page.locator("#square-say").aria_snapshot() == '- paragraph: "H8: E, double word."'
    assert "H4 WROTE, across" in page.locator("#board-words").aria_snapshot()

    # A reload keeps the settings (the phone's own storage).
    page.reload()
    page.wait_for_function("document.getElementById('play').dataset.live === 'live'")
    assert page.evaluate("document.documentElement.classList.contains('large-text')")
    assert page.is_checked("#large-text") and page.is_checked("#vibrate")
    page.screenshot(path="/tmp/play-390-large-text.png", full_page=True)
    assert errors == []
    context.close()
