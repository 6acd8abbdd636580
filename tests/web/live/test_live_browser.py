"""The phone page and the projection screen in headless Chromium against the production server
(gunicorn with uvicorn, its own redis-server; tests/faults/stack.py), following the live stream:
a change made elsewhere shows without a poll (the screen polls every 30 s when pushed to; the
phone never while its stream is open), and the page keeps its layout. Each wait is for the
change on the page, with a deadline."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.faults.stack import HOST, Stack
from tests.web.layout import assert_no_horizontal_scroll, assert_square_board
from tests.web.live.test_stream import SLUG, STAFF_SESSION
from tests.web.play.test_play_browser import CHROMIUM, CHROMIUM_ARGS

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow]

OPEN = """
from arbiter.services import clock
from tournament.models import Round
round = Round.objects.get(pk={round})
if round.status == "drawn":
    clock.round_open(round=round, actor=None)
"""
PAUSE = """
from arbiter.services import clock
from tournament.models import Round
clock.round_pause(round=Round.objects.get(pk={round}), actor=None)
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, dict[str, Any]]]:
    stack = Stack(Path(tmp_path_factory.mktemp("live-browser")))
    try:
        stack.redis()
        stack.migrate()
        stack.manage("collectstatic", "--noinput", "-v", "0")  # DEBUG off: as in production
        info = stack.round_drawn(names=["Ann", "Bob"], seconds=300)
        stack.web(workers=2)
        yield stack, info
    finally:
        stack.close()


def test_the_phone_shows_the_rack_pushed_when_the_round_opens(browser, room) -> None:
    stack, info = room
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(f"http://{HOST}:{stack.web_port}/play/{info['tokens']['Ann']}/")
        assert page.locator("#play").count() == 1, page.content()[:2000]
        page.wait_for_function(
            "document.getElementById('play').dataset.live === 'live'", timeout=15000
        )
        assert "pushed" in page.inner_text("#net")
        assert page.locator("#rack .tile").count() == 0  # drawn: the rack shows at the opening
        polls = sum("/api/v1/play/state" in url for url in requests)
        stack.manage("shell", "-c", OPEN.format(round=info["round"]))
        page.wait_for_function(
            "document.querySelectorAll('#rack .tile').length === 7", timeout=5000
        )
        letters = page.eval_on_selector_all(
            "#rack .tile", "tiles => tiles.map(t => t.firstChild.textContent).join('')"
        )
        assert letters == info["rack"]
        assert sum("/api/v1/play/state" in url for url in requests) == polls  # pushed, not polled
        assert_square_board(page, "#board > div:not(.hdr):not(.corner)", tiles=0)
        assert_no_horizontal_scroll(page)
        page.screenshot(path="/tmp/live-phone.png", full_page=True)
    finally:
        context.close()


def test_the_screen_shows_the_clock_stopped_when_it_is_pushed(browser, room) -> None:
    stack, info = room
    session = stack.manage("shell", "-c", STAFF_SESSION).strip().splitlines()[-1]
    slug = stack.manage("shell", "-c", SLUG).strip().splitlines()[-1].strip('"')
    stack.manage("shell", "-c", OPEN.format(round=info["round"]))
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_cookies(
        [{"name": "sessionid", "value": session, "url": f"http://{HOST}:{stack.web_port}"}]
    )
    page = context.new_page()
    try:
        page.goto(f"http://{HOST}:{stack.web_port}/events/{slug}/screen/")
        page.wait_for_function(
            "document.querySelectorAll('#rack span').length === 7", timeout=15000
        )
        assert page.locator("#clock.paused").count() == 0
        stack.manage("shell", "-c", PAUSE.format(round=info["round"]))
        # The screen polls every 30 s while it is pushed to: 5 s means it was pushed.
        page.wait_for_selector("#clock.paused", timeout=5000)
        assert_no_horizontal_scroll(page)
        page.screenshot(path="/tmp/live-screen.png")
    finally:
        context.close()
