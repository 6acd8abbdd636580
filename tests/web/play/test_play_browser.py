"""The player page in real headless Chromium, on phone screens: join by the QR link, see the
board, rack and countdown, hand in a slip, see the receipt, then the ruling and standings;
and a slip whose first sending fails is kept and retried until its receipt shows."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator

import pytest
from django.utils import timezone

from arbiter.services import clock, publishing, racks, scoring
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tournament.models import Game, Player, Round, Submission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
SHOTS = "/tmp"


@pytest.fixture(scope="module")
def browser() -> Iterator:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    os.environ.setdefault(
        "DJANGO_ALLOW_ASYNC_UNSAFE", "true"
    )  # Playwright's loop runs beside the ORM
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def table(db) -> tuple[Game, list[Player]]:
    room = EventFactory(name="Spring open", slug="spring-open", solo_min_players=3)
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou"]
    players = [PlayerFactory(event=room, name=name, table=i + 1) for i, name in enumerate(names)]
    return GameFactory(event=room, number=1, seed=7), players


def open_now(game: Game) -> Round:
    """Round 1 (seed 7: rack ELORTTW, top H4 WROTE 24), its deadline in the real future."""
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    return clock.round_open(round=drawn, actor=None, now=timezone.now())


def finish(round: Round) -> Round:
    round.refresh_from_db()
    assert round.deadline is not None
    closing = round.deadline + dt.timedelta(seconds=round.game.event.grace_seconds)
    assert clock.round_close(round_id=round.pk, now=closing)
    scored = scoring.round_score(round_id=round.pk, now=closing)
    assert scored is not None
    return publishing.round_publish(round=scored, actor=None, now=closing)


def fill_slip(page, word: str, ref: str, score: str) -> None:
    page.fill("#word", word)
    page.fill("#ref", ref)
    page.fill("#score", score)
    page.click("#submit")


def test_ann_joins_by_her_qr_link_hands_in_a_slip_and_sees_her_ruling_and_rank(
    browser, live_server, table
) -> None:
    game, players = table
    ann = players[0]
    r = open_now(game)
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/play/{ann.token}/")
    assert page.url == f"{live_server.url}/play/"  # the token left the address bar
    page.wait_for_selector("#rack .tile")
    tiles = page.locator("#rack .tile")
    assert tiles.evaluate_all("ts => ts.map(t => t.firstChild.textContent)") == list("ELORTTW")
    assert page.locator("#rack .tile sub").all_inner_texts() == list("1111114")  # points
    assert page.locator("#board > div").count() == 16 * 16
    assert page.locator("#board .p-T").count() == 8 and page.locator("#board .p-D").count() == 17
    page.wait_for_function(
        "/^[23]:[0-5][0-9]$/.test(document.getElementById('countdown').textContent)"
    )
    assert page.inner_text("#round-label") == "Round 1"
    page.fill("#ref", "Z9")
    assert "Row A–O" in page.inner_text("#ref-hint")
    page.fill("#ref", "hor")  # junction letters instead of a grid reference (rules.md case 13)
    assert page.input_value("#ref") == "HOR"
    assert "Junction letters HOR" in page.inner_text("#ref-hint")
    page.fill("#ref", "OR")
    assert "write three" in page.inner_text("#ref-hint")
    page.screenshot(path=f"{SHOTS}/play-390-open.png", full_page=True)

    page.fill("#word", "WROTE")
    page.click("#word-letters button:nth-child(5)")  # mark the E as a blank...
    assert page.input_value("#word") == "WROTe"
    page.click("#word-letters button:nth-child(5)")  # ...and back
    fill_slip(page, "WROTE", "h4", "24")
    page.wait_for_selector("#receipt[data-state=sent]")
    receipt = page.inner_text("#receipt")
    assert (
        "Received by the arbiter" in receipt and "H4 WROTE · 24" in receipt and "Round 1" in receipt
    )
    assert page.inner_text("#submit") == "Replace my slip"
    slip = Submission.objects.get(player=ann)
    assert (slip.word, slip.ref, slip.announced_score, slip.source) == ("WROTE", "H4", 24, "phone")
    page.screenshot(path=f"{SHOTS}/play-390-receipt.png", full_page=True)

    finish(r)
    page.wait_for_selector("#result:not([hidden]) .ruling", timeout=10_000)
    assert "H4 WROTE · 24" in page.inner_text("#result .result-top")
    assert page.get_attribute("#result .ruling", "data-code") == "valid"
    assert page.get_attribute("#result .ruling", "class") == "ruling good"  # the state's "placed"
    assert "Rank 1 of 12" in page.inner_text("#result")
    page.wait_for_selector("#standings:not([hidden]) tr.me")
    assert "Ann" in page.inner_text("#standings tr.me")
    assert page.is_visible("#standings th:nth-child(4)")  # the gap, on a phone too
    assert page.locator("#board .cell-tile").count() == 5
    assert page.is_hidden("#slip-form") and page.is_visible("#receipt")  # results replace the form
    page.screenshot(path=f"{SHOTS}/play-390-published.png", full_page=True)

    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=f"{SHOTS}/play-desktop-published.png", full_page=True)
    assert errors == []
    context.close()


def test_a_slip_whose_first_sending_fails_is_kept_retried_and_receipted(
    browser, live_server, table
) -> None:
    game, players = table
    bob = players[1]
    open_now(game)
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/play/{bob.token}/")
    page.wait_for_selector("#rack .tile")

    fill_slip(page, "QUIZ", "H4", "40")  # not on the rack: the phone says so first...
    page.wait_for_selector("#slip-warnings:not([hidden])")
    assert "Not on your rack: Q, U, I, Z." in page.inner_text("#slip-warnings")
    page.click("#submit")  # ...and sends it when asked: the arbiter rules it (0)
    page.wait_for_selector("#receipt[data-state=sent]")
    assert "H4 QUIZ · 40" in page.inner_text("#receipt")

    failures = []

    def flaky(route) -> None:
        if route.request.method == "POST" and not failures:
            failures.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/v1/play/submissions", flaky)
    fill_slip(page, "TOWER", "H4", "22")
    page.wait_for_selector("#receipt[data-state=pending]")
    assert "Not sent yet" in page.inner_text("#receipt")
    page.screenshot(path=f"{SHOTS}/play-360-pending.png", full_page=True)
    stored = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('dsplay:outbox'))")
    assert len(stored) == 1
    page.wait_for_selector("#receipt[data-state=sent]", timeout=10_000)
    assert "H4 TOWER · 22" in page.inner_text("#receipt")
    assert failures and Submission.objects.filter(player=bob, word="TOWER").count() == 1
    page.screenshot(path=f"{SHOTS}/play-360-receipt.png", full_page=True)
    # no horizontal scrolling on a 360 px phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_a_slip_stored_whose_answer_is_lost_is_sent_again_as_the_same_attempt_and_stored_once(
    browser, live_server, table
) -> None:
    """The server stored the slip but its answer never reached the phone: the phone sends the
    very same slip again (its attempt identity with it) and the server answers with the
    original receipt, never a second slip (issue 25)."""
    game, players = table
    cleo = players[2]
    open_now(game)
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/play/{cleo.token}/")
    page.wait_for_selector("#rack .tile")
    bodies: list[dict[str, object]] = []

    def answer_lost(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        bodies.append(json.loads(route.request.post_data or "{}"))
        if len(bodies) == 1:
            route.fetch()  # the server stores the slip...
            route.abort("connectionreset")  # ...and its answer is lost on the way back
        else:
            route.continue_()

    page.route("**/api/v1/play/submissions", answer_lost)
    fill_slip(page, "TOWER", "H4", "22")
    page.wait_for_selector("#receipt[data-state=sent]", timeout=15_000)
    assert len(bodies) == 2 and bodies[0] == bodies[1]
    attempt = bodies[0]["attempt"]
    assert isinstance(attempt, str) and len(attempt) == 32
    slip = Submission.objects.get(player=cleo, round__game=game)  # one slip, not two
    assert slip.attempt == attempt
    receipt = page.evaluate(
        "JSON.parse(localStorage.getItem(Object.keys(localStorage)"
        ".find(k => k.startsWith('dsplay:outbox')))).receipt"
    )
    assert receipt["id"] == slip.pk
    context.close()


def test_a_slip_sent_as_the_clock_stops_waits_on_the_phone_and_goes_when_it_starts_again(
    browser, live_server, table
) -> None:
    game, players = table
    ann = players[0]
    r = open_now(game)
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    deaf = {"on": False}  # while on, the phone's polls hear "nothing new" (304)
    page.route(
        "**/api/v1/play/state*",
        lambda route: route.fulfill(status=304) if deaf["on"] else route.continue_(),
    )
    page.goto(f"{live_server.url}/play/{ann.token}/")
    page.wait_for_selector("#submit:enabled:has-text('Send my slip')")
    page.fill("#word", "WROTE")
    page.fill("#ref", "H4")
    page.fill("#score", "24")
    # Deaf from the next poll on: a poll already on its way could be answered after the pause
    # (the polls go one after the other, so the next one's start means that one is answered).
    with page.expect_request(lambda request: "/api/v1/play/state" in request.url):
        deaf["on"] = True
    r = clock.round_pause(round=r, actor=None)  # the arbiter stops the clock...
    page.click("#submit")  # ...as Ann sends, before her phone has heard of it
    page.wait_for_selector("#receipt:has-text('Not sent yet: the clock is stopped')")
    deaf["on"] = False
    page.wait_for_selector("#submit:disabled:has-text('Clock stopped')")
    assert not Submission.objects.filter(player=ann).exists()
    page.screenshot(path=f"{SHOTS}/play-390-paused.png", full_page=True)

    clock.round_resume(round=r, actor=None)
    page.wait_for_selector("#receipt[data-state=sent]", timeout=15_000)
    assert "Received by the arbiter" in page.inner_text("#receipt")
    slip = Submission.objects.get(player=ann)
    assert (slip.word, slip.ref, slip.announced_score) == ("WROTE", "H4", 24)
    # The slip can go before the phone's next poll hears that the clock runs again: the button
    # follows that poll.
    page.wait_for_selector("#submit:enabled:has-text('Replace my slip')")
