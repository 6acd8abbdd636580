"""The phone at a real night, in Chromium (390x844): the countdown stays on screen while the
player scrolls; the player's own slips (receipt times in the event's time zone, the one that
counts, the ruling once published) are on the page; a late slip is refused and the earlier
one is still shown as the one that counts. Screenshots: /tmp/play-night-*.png."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.utils import timezone

from tests.web.play.test_play_browser import PHONE, browser, fill_slip, finish, open_now, table
from tournament.models import Event, Round, Submission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
_ = (browser, table)  # the shared fixtures


def phone_page(browser, live_server, player, **context):
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **context)
    page = ctx.new_page()
    page.goto(f"{live_server.url}/play/{player.token}/")
    page.wait_for_selector("#rack .tile")
    return page


def test_the_countdown_stays_at_the_top_of_the_screen_while_the_player_scrolls(
    browser,
    live_server,
    table,
) -> None:
    game, players = table
    open_now(game)
    page = phone_page(browser, live_server, players[0])
    page.wait_for_function(
        "/^[23]:[0-5][0-9]$/.test(document.getElementById('countdown').textContent)"
    )
    # At the bottom of the page, then again with the keyboard up (half the screen left).
    for height in (PHONE["height"], 420):
        page.set_viewport_size({"width": PHONE["width"], "height": height})
        page.focus("#score")
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_timeout(300)
        assert page.evaluate("window.scrollY") > 100  # the page did scroll
        box = page.locator("#countdown").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
        assert page.locator("#submit").is_visible()  # the form is not hidden under the card
    page.screenshot(path="/tmp/play-night-scrolled.png")
    page.context.close()


def test_her_slips_show_with_their_times_which_counts_and_a_late_one_leaves_it_standing(
    browser,
    live_server,
    table,
) -> None:
    game, players = table
    # The event is played in Tokyo; the phone thinks it is in New York.
    Event.objects.filter(pk=game.event_id).update(time_zone="Asia/Tokyo")
    tokyo_zone = zoneinfo.ZoneInfo("Asia/Tokyo")
    ann = players[0]
    r = open_now(game)
    page = phone_page(browser, live_server, ann, timezone_id="America/New_York")
    fill_slip(page, "TOWER", "H4", "22")
    page.wait_for_selector("#receipt[data-state=sent]")
    fill_slip(page, "WROTE", "H4", "24")
    page.wait_for_function("document.querySelectorAll('#history-list li').length === 2")
    items = page.locator("#history-list li")
    assert "H4 WROTE · 24" in items.nth(0).inner_text()
    assert "Counts for round 1" in items.nth(0).inner_text()
    assert "Replaced by a later slip" in items.nth(1).inner_text()
    for slip, item in zip(
        Submission.objects.filter(player=ann).order_by("-received_at"), range(2), strict=True
    ):
        tokyo = slip.received_at.astimezone(tokyo_zone).strftime("%H:%M:%S")
        assert f"received at {tokyo}" in items.nth(item).inner_text()
    receipt_time = Submission.objects.get(player=ann, word="WROTE").received_at.astimezone(
        tokyo_zone
    )
    assert f"received at {receipt_time:%H:%M:%S}" in page.inner_text("#receipt")

    # The deadline passes on the server (the phone has not heard yet): her next slip is late.
    Round.objects.filter(pk=r.pk).update(deadline=timezone.now() - dt.timedelta(minutes=1))
    fill_slip(page, "ROWEL", "H4", "18")
    page.wait_for_selector("#receipt[data-state=refused]")
    receipt = page.inner_text("#receipt")
    assert "Refused" in receipt and "deadline" in receipt.lower()
    assert "Your slip that counts" in receipt and "H4 WROTE · 24" in receipt
    assert "Counts for round 1" in page.locator("#history-list li").nth(0).inner_text()
    page.screenshot(path="/tmp/play-night-late.png", full_page=True)

    finish(r)
    page.wait_for_selector("#history-list li.current .ruling")
    assert page.get_attribute("#history-list li.current .ruling", "data-code") == "valid"
    assert "first move credited at its best position H4: 24" in page.inner_text(
        "#history-list li.current .ruling"
    )
    assert page.locator("#history-list li.replaced .ruling").count() == 0
    page.screenshot(path="/tmp/play-night-ruled.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()
