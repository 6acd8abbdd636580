"""Accounts in real headless Chromium: a director invites an arbiter from the event's page; the
arbiter opens the one-time link in a fresh browser (no cookie), chooses a password and runs a
round from the game console with an arbiter's rights (and no more); the director withdraws a
player, whose API slip is then refused while the others' still count."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tests.web.console.test_console_browser import LAPTOP, api_slip, logged_in
from tests.web.layout import assert_no_horizontal_scroll
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import AuditEntry, EventRole, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def refused_slip(live_server, token: str, word: str, ref: str, score: int) -> tuple[int, dict]:
    try:
        api_slip(live_server, token, 1, word, ref, score)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    raise AssertionError("the slip was accepted")


def test_an_invited_arbiter_runs_a_round_and_a_withdrawn_players_slip_is_refused(
    browser,  # noqa: F811
    live_server,
) -> None:
    event = EventFactory(name="Autumn open", slug="autumn-open", solo_min_players=3)
    director = UserFactory(username="dora")
    EventRoleFactory(event=event, user=director, role="director")
    ann, bob, _ = (
        PlayerFactory(event=event, name=name, table=n)
        for n, name in enumerate(["Ann", "Bob", "Cleo"], start=1)
    )
    GameFactory(event=event, number=1, seed=7)

    # The director invites Arnold from the event's page.
    console = logged_in(browser, live_server, director, LAPTOP)
    console.on("dialog", lambda dialog: dialog.accept())  # "Withdraw Ann?": yes
    console.goto(f"{live_server.url}/events/autumn-open/")
    console.click("#staff-link")
    console.fill("input[name=name]", "Arnold")
    console.select_option("select[name=role]", "arbiter")
    console.click("text=Create the link")
    assert "Invitation ready for Arnold" in console.locator(".messages").inner_text()
    card = console.locator(".invitation")
    qr = card.locator(".qr svg").bounding_box()
    assert qr is not None and qr["width"] >= 120 and abs(qr["width"] - qr["height"]) < 1
    field = card.locator(".link input").bounding_box()
    copy = card.locator("button.copy").bounding_box()
    assert field is not None and copy is not None
    assert abs(field["y"] - copy["y"]) < 8 and copy["x"] > field["x"] + field["width"] - 1
    assert qr["x"] + qr["width"] <= field["x"]  # the QR code beside the link, not over it
    link = card.locator(".link input").input_value()
    assert link.startswith(f"{live_server.url}/invitations/")
    console.screenshot(path="/tmp/accounts-invite.png", full_page=True)
    console.set_viewport_size(PHONE)  # a director on the phone: the page still fits
    assert_no_horizontal_scroll(console)
    assert console.locator(f'tr[data-player="{ann.pk}"] >> text=Withdraw').is_visible()
    console.screenshot(path="/tmp/accounts-invite-phone.png", full_page=True)
    console.set_viewport_size(LAPTOP)

    # Arnold, in a fresh browser context (no session), opens the link on his phone.
    fresh = browser.new_context(viewport=PHONE)
    phone = fresh.new_page()
    phone.goto(link)
    assert "invites you to be arbiter of Autumn open" in phone.locator("#invitation").inner_text()
    assert_no_horizontal_scroll(phone)
    phone.fill("input[name=username]", "arnold")
    phone.fill("input[name=password1]", "short")
    phone.fill("input[name=password2]", "short")
    phone.click("text=Create my account and accept")
    error = phone.locator('.field-error[data-field="password1"]')
    assert "too short" in error.inner_text()
    password = phone.locator("input[name=password1]").bounding_box()
    box = error.bounding_box()
    assert password is not None and box is not None and box["y"] > password["y"]  # under it
    phone.screenshot(path="/tmp/accounts-invitation-error.png", full_page=True)
    phone.fill("input[name=username]", "arnold")
    phone.fill("input[name=password1]", "tile-rack-bingo-42")
    phone.fill("input[name=password2]", "tile-rack-bingo-42")
    phone.click("text=Create my account and accept")
    phone.wait_for_url(f"{live_server.url}/events/autumn-open/")
    assert phone.locator(".usernav .who").inner_text() == "arnold"
    assert EventRole.objects.get(user__username="arnold", event=event).role == "arbiter"
    assert phone.locator("#staff-link").count() == 0  # an arbiter's event page

    # With an arbiter's rights: the game console draws and opens a round...
    arbiter = browser.new_context(viewport=LAPTOP, storage_state=fresh.storage_state())
    fresh.close()
    desk = arbiter.new_page()
    desk.goto(f"{live_server.url}/events/autumn-open/")
    desk.click("text=Game 1")
    desk.click("text=Draw the next rack")
    assert desk.locator(".messages").inner_text().startswith("Round 1: rack")
    desk.click("text=Start the clock")
    desk.wait_for_selector("#clock")
    assert Round.objects.get(game__event=event, number=1).status == Round.Status.OPEN
    # ...but not the director's staff page.
    assert desk.goto(f"{live_server.url}/events/autumn-open/staff/").status == 403
    reused = browser.new_context().new_page()
    reused.goto(link)
    assert "Invitation already used" in reused.locator("h1").inner_text()

    # The director withdraws Ann: her phone's slip is refused, Bob's counts.
    console.goto(f"{live_server.url}/events/autumn-open/staff/")
    console.click(f'tr[data-player="{ann.pk}"] >> text=Withdraw')
    assert "Ann has withdrawn" in console.locator(".messages").inner_text()
    row = console.locator(f'tr[data-player="{ann.pk}"]')
    assert row.locator(".badge").inner_text().lower() == "withdrawn"
    console.screenshot(path="/tmp/accounts-withdrawn.png", full_page=True)
    status, body = refused_slip(live_server, ann.token, "WROTE", "H4", 24)
    assert status == 403 and body["code"] == "withdrawn" and "Ann has withdrawn" in body["detail"]
    assert api_slip(live_server, bob.token, 1, "WROTE", "H4", 24)["word"] == "WROTE"
    desk.goto(f"{live_server.url}/events/autumn-open/games/1/console/")
    assert desk.locator("#slips").inner_text() == "1"
    assert "of 2 slips" in desk.locator(".round-panel").inner_text()
    assert desk.locator("#missing-count").inner_text() == "1"  # Cleo; Ann is not waited for
    desk.screenshot(path="/tmp/accounts-arbiter-console.png", full_page=True)
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {
        "tournament.invitation.created",
        "tournament.invitation.accepted",
        "tournament.player.withdrawn",
    } <= actions
