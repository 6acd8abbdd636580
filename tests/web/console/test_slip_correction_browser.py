"""Paper slips typed for a player who already has one: ``c`` (or ``m``) typed in the score
field says what the entry is, so score, ``c``, Enter records a correction (the help says so),
as the choice's own keys do."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arbiter.services.slips import slip_submit
from tests.web.console.test_console_browser import LAPTOP, logged_in
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import AuditEntry, Round, Submission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_score_c_enter_records_a_correction(browser, live_server, night) -> None:  # noqa: F811
    event, game, players, director = night
    r = Round.objects.get(game=game, status=Round.Status.OPEN)
    first = players[0]
    slip_submit(player=first, round=r, word="WE", ref="H8", score=10, at=timezone.now())
    page = logged_in(browser, live_server, director, LAPTOP)
    page.goto(f"{live_server.url}/events/{event.slug}/games/1/slips/")
    assert "score, c, Enter" in page.inner_text("body")
    page.wait_for_function("document.activeElement && document.activeElement.name === 'table'")
    page.keyboard.type(str(first.table))
    page.keyboard.press("Enter")
    page.keyboard.type("WE")
    page.keyboard.press("Enter")
    page.keyboard.type("H8")
    page.keyboard.press("Enter")
    page.keyboard.type("9")
    page.wait_for_selector(f"#table-slips-body strong:has-text('Table {first.table} ·')")
    page.wait_for_selector("#existing:not([disabled])")
    with page.expect_navigation():
        page.keyboard.press("c")  # in the score field
        page.keyboard.press("Enter")
    current = Submission.objects.get(round=r, player=first, is_current=True)
    assert (current.announced_score, current.source) == (9, "arbiter")
    entered = AuditEntry.objects.filter(action="arbiter.slip.entered").latest("id")
    assert entered.data["existing"] == "correction"
    page.context.close()
