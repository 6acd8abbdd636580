"""Training in Chromium: on a phone (390 px) a player replays a game of last week, hands in the
top of round 1 and a slip of round 2, and sees each round's result beside the room's; on a
laptop the board sits beside the slip. The clock runs out by itself in topping. Screenshots:
/tmp/training-*.png."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arbiter.services.training import TOPPING_TIMEOUT_PENALTY, training_start
from arbiter.simulation import simulate_event
from tests.web.layout import assert_no_horizontal_scroll, assert_square_board
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import Game, Ruling, Submission
from web.training.views import training_key

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def last_week() -> Game:
    summary = simulate_event(players=6, games=1, seed=35)
    game = Game.objects.select_related("event").get(event_id=summary["event"], number=1)
    game.training_open = True
    game.save(update_fields=["training_open"])
    return game


def test_a_player_trains_on_a_phone_and_sees_what_the_room_got(
    browser,  # noqa: F811
    live_server,
    last_week,
) -> None:
    game = last_week
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/training/g/{training_key(game)}/")
    assert_no_horizontal_scroll(page)
    page.fill("input[name=name]", "Zoé")
    page.click("#start")
    page.wait_for_selector("#training[data-state=playing]")
    page.wait_for_function("/^[0-9]+:[0-9]{2}$/.test(document.getElementById('clock').textContent)")
    assert_square_board(page, "#training .board td.sq", tiles=0)
    assert_no_horizontal_scroll(page)
    assert page.locator(".rack .tile").count() == len(game.rounds.get(number=1).rack)
    page.screenshot(path="/tmp/training-phone-round.png", full_page=True)
    first = game.rounds.get(number=1)
    page.fill("#word", first.played_word)
    page.fill("#ref", first.played_ref)
    page.fill("#score", str(first.played_score))
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("#training[data-state=result]")
    assert page.inner_text("#round-net") == str(first.played_score)
    found = Ruling.objects.filter(round=first, found_top=True).count()
    assert f"{found} of 6 players found the top" in page.inner_text("#room-round")
    assert_square_board(page, "#training .board td.sq", tiles=len(first.played_word))
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/training-phone-result.png", full_page=True)

    page.click("#next")
    page.wait_for_selector("#training[data-state=playing]")
    second = game.rounds.get(number=2)
    slip = Submission.objects.filter(round=second, is_current=True, late=False).first()
    assert slip is not None
    room = Ruling.objects.get(round=second, player=slip.player)
    page.fill("#word", slip.word)
    page.fill("#ref", slip.ref)
    page.fill("#score", "" if slip.announced_score is None else str(slip.announced_score))
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("#training[data-state=result]")
    assert room.reason in page.inner_text("#result")  # the room's very words for the same slip
    context.close()


def test_on_a_laptop_the_board_sits_beside_the_slip(browser, live_server, last_week) -> None:  # noqa: F811
    attempt = training_start(
        game=last_week, user=None, name="", mode="replay", round_seconds=None, now=timezone.now()
    )
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(f"{live_server.url}/training/a/{attempt.token}/")
    page.wait_for_selector("#training[data-state=playing]")
    form = page.locator("#slip-form").bounding_box()
    board = page.locator("#training .board").bounding_box()
    assert form and board and board["x"] > form["x"] + form["width"]
    assert_square_board(page, "#training .board td.sq", tiles=0)
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/training-laptop.png", full_page=True)
    context.close()


def test_in_topping_the_clock_runs_out_by_itself(browser, live_server, last_week) -> None:  # noqa: F811
    attempt = training_start(
        game=last_week, user=None, name="", mode="topping", round_seconds=10, now=timezone.now()
    )
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/training/a/{attempt.token}/")
    page.fill("#word", "ZZZ")
    page.fill("#ref", "H8")
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector(".tries li")
    page.wait_for_selector("#training[data-state=result]", timeout=30_000)
    assert page.inner_text("#round-seconds") == f"{10 + TOPPING_TIMEOUT_PENALTY} s"
    page.screenshot(path="/tmp/training-topping.png", full_page=True)
    context.close()
