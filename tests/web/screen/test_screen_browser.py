"""The projection screen in Chromium, at the projectors of a real night: the standings of 40
players page through by themselves where they do not fit (1280x900 and 1024x768 once cut them
off), nothing is ever cut or scrolled; the clock says STOP at the deadline, and the screen
says "End of game" when the game is over. Screenshots: /tmp/screen-*.png."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from arbiter.services import clock
from engine.tiles import TileSet
from tests.web.console.test_console_browser import logged_in
from tests.web.night import PLAYERS
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import Game, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each visible standings row: its box, and the box of the list that holds it.
VISIBLE_ROWS = """() => {
  const list = document.getElementById('standings').getBoundingClientRect();
  return Array.from(document.querySelectorAll('#standings li'))
    .filter((li) => li.offsetParent !== null)
    .map((li) => {
      const r = li.getBoundingClientRect();
      return {name: li.querySelector('.name').textContent, top: r.top, bottom: r.bottom,
              right: r.right, listBottom: list.bottom};
    });
}"""


def visible_rows(page) -> list[dict]:
    return list(page.evaluate(VISIBLE_ROWS))


def assert_whole(page, rows: list[dict]) -> None:
    """Every row shown is whole, inside its list and the window; the page does not scroll."""
    height = page.evaluate("window.innerHeight")
    width = page.evaluate("window.innerWidth")
    for row in rows:
        assert row["bottom"] <= row["listBottom"] + 0.5, f"{row['name']} is cut off the list"
        assert row["bottom"] <= height and row["right"] <= width, f"{row['name']} is off screen"
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize(
    "size",
    [{"width": 1280, "height": 900}, {"width": 1024, "height": 768}],
    ids=["1280x900", "1024x768"],
)
def test_the_standings_page_through_by_themselves_when_they_do_not_fit(
    browser,  # noqa: F811
    live_server,
    night,
    size,
) -> None:
    event, game, players, director = night
    page = logged_in(browser, live_server, director, size)
    page.goto(f"{live_server.url}/events/club-night/games/1/screen/")
    page.wait_for_function("document.querySelectorAll('#standings li').length === 40")
    first = visible_rows(page)
    page.screenshot(path=f"/tmp/screen-standings-{size['width']}-page1.png")
    assert 5 <= len(first) < PLAYERS, f"{len(first)} rows shown at once"
    assert_whole(page, first)
    pages = int(page.get_attribute("#screen", "data-standings-pages"))
    assert pages == -(-PLAYERS // len(first))
    assert page.inner_text("#standings-page") == f"1–{len(first)} of {PLAYERS}"

    seen = [row["name"] for row in first]
    for number in range(2, pages + 1):  # each page in turn, by itself (8 s each)
        page.wait_for_function(
            f"document.getElementById('screen').dataset.standingsPage === '{number}'",
            timeout=12_000,
        )
        rows = visible_rows(page)
        assert_whole(page, rows)
        seen += [row["name"] for row in rows]
        if number == 2:
            page.screenshot(path=f"/tmp/screen-standings-{size['width']}-page2.png")
    assert sorted(seen) == sorted(p.name for p in players)  # everyone, once
    page.context.close()


def test_the_clock_says_stop_at_the_deadline_and_the_screen_says_end_of_game(
    browser,  # noqa: F811
    live_server,
    night,
) -> None:
    event, game, players, director = night
    page = logged_in(browser, live_server, director, {"width": 1920, "height": 1080})
    r = Round.objects.get(game=game, status=Round.Status.OPEN)
    Round.objects.filter(pk=r.pk).update(deadline=timezone.now() + dt.timedelta(seconds=3))
    page.goto(f"{live_server.url}/events/club-night/games/1/screen/")
    page.wait_for_function("/^0:0[0-3]$/.test(document.getElementById('clock').textContent)")
    page.wait_for_function("document.getElementById('clock').textContent === 'STOP'")
    assert "stop" in page.get_attribute("#clock", "class")
    letters = page.locator("#rack span").evaluate_all("ts => ts.map(t => t.firstChild.data)")
    assert "".join(letters) == r.rack  # still shown
    page.screenshot(path="/tmp/screen-stop.png")
    closing = timezone.now() + dt.timedelta(seconds=event.grace_seconds)
    assert clock.round_close(round_id=r.pk, now=closing)
    page.wait_for_timeout(2500)  # a poll: closed is STOP too
    assert page.inner_text("#clock") == "STOP"

    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, end_reason="No rack can be drawn from the bag"
    )
    page.wait_for_function(
        "document.getElementById('clock').textContent === 'End of game'", timeout=5000
    )
    assert "No rack can be drawn from the bag" in page.inner_text("#sub")
    assert page.locator("#rack span").count() == 0
    page.screenshot(path="/tmp/screen-end.png")
    page.context.close()


def test_a_stopped_clock_is_said_in_words_and_tiles_show_their_points(
    browser,  # noqa: F811
    live_server,
    night,
) -> None:
    event, game, players, director = night
    r = Round.objects.get(game=game, status=Round.Status.OPEN)
    page = logged_in(browser, live_server, director, {"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/events/club-night/games/1/screen/")
    page.wait_for_selector("#rack span sub")
    values = TileSet.load(game.tile_set).values
    tiles = page.locator("#rack span").evaluate_all(
        "ts => ts.map(t => [t.firstChild.data, t.querySelector('sub').textContent])"
    )
    assert tiles == [[t, str(0 if t == "?" else values[t])] for t in r.rack]
    board = page.locator("#board td.tile:not(.blank)")
    if board.count():
        letter, points = board.first.evaluate(
            "td => [td.firstChild.data, td.lastChild.textContent]"
        )
        assert points == str(values[letter])
    assert page.is_hidden("#clock-note")
    clock.round_pause(round=r, actor=None)
    page.wait_for_function(
        "document.getElementById('clock-note').textContent === 'Clock stopped'", timeout=5000
    )
    note = page.locator("#clock-note").bounding_box()
    assert note is not None and note["height"] > 20 and note["x"] + note["width"] <= 1280
    page.screenshot(path="/tmp/screen-paused.png")
    clock.round_resume(round=Round.objects.get(pk=r.pk), actor=None)
    page.wait_for_function("document.getElementById('clock-note').textContent === ''", timeout=5000)
    page.context.close()


def test_a_formula_game_s_screen_names_the_formula_and_its_nine_tiles_fit(
    browser,  # noqa: F811
    live_server,
) -> None:
    """Joker, 7, 8 et 9: the subtitle names the formula, and the rack of nine tiles (a joker
    among them) stays inside the screen at the smallest projector size."""
    from tests.arbiter.conftest import open_round
    from tests.factories import EventFactory, EventRoleFactory, GameFactory, UserFactory
    from tournament.models import EventRole

    event = EventFactory(name="Joker night", slug="joker-night")
    director = UserFactory(username="dora")
    EventRoleFactory(event=event, user=director, role=EventRole.Role.DIRECTOR)
    game = GameFactory(event=event, number=1, seed=7, formula="joker+789")
    open_round(game, now=timezone.now())
    page = logged_in(browser, live_server, director, {"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/events/joker-night/games/1/screen/")
    page.wait_for_function("document.querySelectorAll('#rack > *').length === 9")
    assert page.inner_text("#sub") == "Game 1 · Joker, 7, 8 et 9 · round 1"
    boxes = page.eval_on_selector_all(
        "#rack > *",
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [r.left, r.right, r.top, r.bottom]; })",
    )
    assert all(
        left >= 0 and right <= 1024 and top >= 0 and bottom <= 768
        for left, right, top, bottom in boxes
    ), boxes
    assert len({round(top) for _, _, top, _ in boxes}) == 1  # one line of tiles
    page.screenshot(path="/tmp/screen-joker-789-1024.png")
    page.context.close()
