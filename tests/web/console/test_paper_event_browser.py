"""A paper event in real headless Chromium (docs/rules.md, rules 7 and 12): the round closes
and is scored while the arbiter is still typing; slips typed after the close and after the
scoring are on time and ruled at once; a second entry for a table asks "correction or
multiple" with what was typed kept; the console's standings follow; publishing ends entry."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.selectors.standings import standings_game
from arbiter.services import clock, racks, scoring
from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tests.web.console.test_console_browser import LAPTOP, logged_in
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import Round, Ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def type_slip(page, table: int, word: str, ref: str, score: int, *, sent: bool = True) -> None:
    """Types a slip and presses Enter; waits for the answer when it is ``sent`` (a second entry
    for a table is not: the page asks first)."""
    page.fill("input[name=table]", str(table))
    page.fill("input[name=word]", word)
    page.fill("input[name=ref]", ref)
    page.fill("input[name=score]", str(score))
    if not sent:
        page.press("input[name=score]", "Enter")
        return
    with page.expect_navigation():  # the slip's answer
        page.press("input[name=score]", "Enter")


def test_slips_typed_after_the_close_and_after_the_scoring_count_and_standings_follow(
    browser,  # noqa: F811
    live_server,
) -> None:
    event = EventFactory(name="Paper night", slug="paper-night", solo_min_players=99)
    for table, name in enumerate(["Ann", "Bob", "Cleo"], start=1):
        PlayerFactory(event=event, name=name, table=table)
    game = GameFactory(event=event, number=1, seed=7)  # round 1: ELORTTW, top WROTE 24
    arbiter = UserFactory(username="arnold")
    EventRoleFactory(event=event, user=arbiter, role="arbiter")
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    opened = clock.round_open(round=drawn, actor=None)
    assert opened.deadline is not None
    later = opened.deadline + dt.timedelta(seconds=event.grace_seconds + 1)
    assert clock.round_close(round_id=opened.pk, now=later)  # the clock ran out

    page = logged_in(browser, live_server, arbiter, LAPTOP)
    page.goto(f"{live_server.url}/events/paper-night/games/1/slips/")
    assert "CLOSED" in page.locator("h1").inner_text().upper()
    type_slip(page, 1, "WROTE", "H4", 24)  # after the close: on time
    assert "Table 1 (Ann): H4 WROTE 24 recorded." in page.locator(".messages").inner_text()

    assert scoring.round_score(round_id=opened.pk, now=later) is not None  # scored meanwhile
    page.goto(f"{live_server.url}/events/paper-night/games/1/slips/")
    assert "SCORED" in page.locator("h1").inner_text().upper()
    type_slip(page, 2, "TROWEL", "H3", 20)  # after the scoring: ruled at once
    assert "Table 2 (Bob)" in page.locator(".messages").inner_text()
    bob = Ruling.objects.get(round=opened, player__name="Bob")
    assert (bob.code, bob.points) == ("valid", 20)

    type_slip(
        page, 2, "TROWEL", "H3", 22, sent=False
    )  # a second entry for table 2: the choice, nothing lost
    assert page.locator("#existing").is_visible()  # asked before sending: correction or multiple
    page.wait_for_selector("#table-slips li.counts")
    assert "H3 TROWEL 20" in page.inner_text("#table-slips")  # the slip it already has, beside
    assert page.evaluate("document.activeElement.name") == "existing"
    assert page.input_value("input[name=word]") == "TROWEL"
    assert page.input_value("input[name=score]") == "22"
    page.screenshot(path="/tmp/paper-event-choice.png", full_page=True)
    page.check("input[name=existing][value=correction]")
    with page.expect_navigation():
        page.click("text=Record (Enter)")
    bob = Ruling.objects.get(round=opened, player__name="Bob")
    assert (bob.code, bob.points, bob.warning) == ("valid_warning", 20, True)

    rows = {row.name: row.total for row in standings_game(game=game).rows}
    assert rows == {"Ann": 0, "Bob": 0, "Cleo": 0}  # standings count published rounds only
    director = UserFactory(username="dora", is_superuser=True)
    console = logged_in(browser, live_server, director, LAPTOP)
    console.goto(f"{live_server.url}/events/paper-night/games/1/console/")
    console.once("dialog", lambda dialog: dialog.accept())
    with console.expect_navigation():
        console.click("button:has-text('Publish')")
    assert Round.objects.get(pk=opened.pk).status == Round.Status.PUBLISHED
    standings = console.locator("section.panel:has(h2:text('Standings'))").inner_text()
    assert "Ann" in standings and "24" in standings and "20" in standings
    rows = {row.name: row.total for row in standings_game(game=game).rows}
    assert rows == {"Ann": 24, "Bob": 20, "Cleo": 0}

    page.goto(f"{live_server.url}/events/paper-night/games/1/slips/")
    assert "published" in page.locator("main, body").first.inner_text()
    assert page.locator("#slip-entry").count() == 0
    page.screenshot(path="/tmp/paper-event-slips.png", full_page=True)
