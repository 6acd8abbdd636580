"""The projection screen with the audience's QR code (the event's results are public), in
Chromium at a projector's sizes: the code is drawn, inside the window, over neither the board, the
clock, the rack nor the standings. Screenshots: /tmp/screen-qr-*.png."""

from __future__ import annotations

import pytest

from tests.web.console.test_console_browser import logged_in
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"1920x1080": {"width": 1920, "height": 1080}, "1280x720": {"width": 1280, "height": 720}}


def _overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_the_qr_code_sits_beside_the_board_and_the_standings(
    browser,  # noqa: F811
    live_server,
    night,
    size,
) -> None:
    event, game, players, director = night
    event.public_results = True
    event.save(update_fields=["public_results"])
    page = logged_in(browser, live_server, director, SIZES[size])
    page.goto(f"{live_server.url}/events/{event.slug}/screen/")
    page.wait_for_function("document.querySelectorAll('#standings li').length > 0")
    qr = page.locator("#public-qr svg").bounding_box()
    board = page.locator("#board").bounding_box()
    standings = page.locator("#standings-box").bounding_box()
    clock = page.locator("#clock").bounding_box()
    rack = page.locator("#rack").bounding_box()
    assert qr and board and standings and clock and rack
    assert qr["width"] >= 60, "a code too small to scan from the room"
    assert qr["x"] >= 0 and qr["y"] + qr["height"] <= SIZES[size]["height"]
    assert not _overlap(qr, board), (qr, board)
    assert not _overlap(qr, standings), (qr, standings)
    assert not _overlap(qr, clock), (qr, clock)
    tiles = page.locator("#rack span")
    for i in range(tiles.count()):
        tile = tiles.nth(i).bounding_box()
        assert tile and not _overlap(qr, tile), (qr, tile)
    page.screenshot(path=f"/tmp/screen-qr-{size}.png")
    page.context.close()
