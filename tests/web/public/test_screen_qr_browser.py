"""The projection screen with the audience's QR code (the event's results are public), in
Chromium at a projector's sizes (1920x1080, 1280x900, 1024x768, 1280x720): the card (the code
and its words) is drawn inside the window, over neither the board, the clock, the rack's tiles,
the last top with how many found it, "End of game" nor the standings; each text is measured as
drawn (its characters' boxes, which may run out of the element's). Screenshots:
/tmp/screen-qr-*.png."""

from __future__ import annotations

import pytest

from tests.web.console.test_console_browser import logged_in
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "1920x1080": {"width": 1920, "height": 1080},
    "1280x900": {"width": 1280, "height": 900},
    "1024x768": {"width": 1024, "height": 768},
    "1280x720": {"width": 1280, "height": 720},
}

# Each shown element's box and the box of its text as drawn, by name.
BOXES = """(selectors) => {
  const found = {};
  for (const [name, selector] of Object.entries(selectors)) {
    document.querySelectorAll(selector).forEach((el, i) => {
      if (el.offsetParent === null && getComputedStyle(el).position !== 'fixed') return;
      const box = el.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(el);
      const text = range.getBoundingClientRect();
      for (const [kind, r] of [['box', box], ['text', text]]) {
        if (r.width > 0 && r.height > 0) {
          found[`${name} ${i} ${kind}`] = {x: r.left, y: r.top, width: r.width, height: r.height};
        }
      }
    });
  }
  return found;
}"""

SHOWN = {
    "board": "#board",
    "clock": "#clock",
    "clock note": "#clock-note",
    "tile": "#rack span",
    "top": "#top",
    "found": "#top .found",
    "standings": "#standings-box",
    "title": "#title",
    "sub": "#sub",
}


def _overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def assert_card_covers_nothing(page, size: dict, *, expect: set[str]) -> None:
    card = page.locator("#public-qr").bounding_box()
    code = page.locator("#public-qr svg").bounding_box()
    assert card and code
    assert code["width"] >= 60, "a code too small to scan from the room"
    assert card["x"] >= 0 and card["y"] >= 0
    assert card["x"] + card["width"] <= size["width"] + 0.5
    assert card["y"] + card["height"] <= size["height"] + 0.5
    boxes = page.evaluate(BOXES, SHOWN)
    names = {name.split(" ")[0] for name in boxes}
    assert expect <= names, f"not shown: {expect - names}"
    covered = {name: box for name, box in boxes.items() if _overlap(card, box)}
    assert covered == {}, (card, covered)


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_the_qr_card_covers_neither_the_rack_the_clock_the_top_nor_the_end_of_game(
    browser,  # noqa: F811
    live_server,
    night,
    size,
) -> None:
    event, game, players, director = night
    event.public_results = True
    event.save(update_fields=["public_results"])
    page = logged_in(browser, live_server, director, SIZES[size])
    page.goto(f"{live_server.url}/events/{event.slug}/games/1/screen/")
    page.wait_for_function("document.querySelectorAll('#standings li').length > 0")
    page.wait_for_function("document.querySelectorAll('#rack span').length === 7")
    page.wait_for_selector("#top .found")  # round 2's top, how many found it
    assert_card_covers_nothing(
        page, SIZES[size], expect={"board", "clock", "tile", "top", "found", "standings"}
    )
    page.screenshot(path=f"/tmp/screen-qr-{size}.png")

    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, end_reason="No rack can be drawn from the bag"
    )
    page.wait_for_function(
        "document.getElementById('clock').textContent === 'End of game'", timeout=10_000
    )
    assert_card_covers_nothing(page, SIZES[size], expect={"board", "clock", "top", "standings"})
    page.screenshot(path=f"/tmp/screen-qr-{size}-end.png")
    page.context.close()
