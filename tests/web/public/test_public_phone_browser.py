"""The audience's page and a player's history on a phone (390 px), in French: every table fits
its card (nothing to scroll sideways inside it, nor on the page), a name wraps between its words
and never inside one, and the percentages are written as French writes them (100,00).
Screenshots: /tmp/public-390-fr.png, /tmp/history-390-fr.png."""

from __future__ import annotations

import pytest

from tests.web.layout import assert_no_horizontal_scroll
from tests.web.night import PLAYERS
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from web.public_results import public_cache_clear

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# Each table wider than what holds it, and each word of a name cell drawn on two lines.
MEASURE = """(selector) => {
  const wide = [], broken = [];
  document.querySelectorAll(selector + ' table').forEach((table) => {
    const holder = table.parentElement;
    const box = holder.getBoundingClientRect();
    const mine = table.getBoundingClientRect();
    if (mine.right > box.right + 0.5 || holder.scrollWidth > holder.clientWidth + 0.5) {
      wide.push(`${table.id}: ${mine.width}px in ${box.width}px`);
    }
  });
  document.querySelectorAll(selector + ' td.name').forEach((td) => {
    const node = td.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) return;
    let at = 0;
    for (const word of node.data.split(' ')) {
      if (word) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(word);
      }
      at += word.length + 1;
    }
  });
  return {wide, broken};
}"""


def test_the_audiences_page_fits_a_phone_in_french(browser, live_server, night) -> None:  # noqa: F811
    event, game, players, director = night
    event.public_results = True
    event.language = "fr"
    event.save(update_fields=["public_results", "language"])
    public_cache_clear()
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/results/{event.slug}/")
    page.wait_for_function(f"document.querySelectorAll('#standings tbody tr').length === {PLAYERS}")
    page.wait_for_function("document.querySelectorAll('#tops tbody tr').length === 2")
    page.screenshot(path="/tmp/public-390-fr.png", full_page=True)
    assert_no_horizontal_scroll(page)
    found = page.evaluate(MEASURE, "main")
    assert found == {"wide": [], "broken": []}, found
    first = page.locator("#standings tbody tr").first.inner_text()
    assert "100,00" in first and "100.00" not in first
    context.close()
