"""A short event run end to end in real headless Chromium: the director sets the event up
(rules, players, arbiter, game), draws and opens two rounds from the console, slips arrive from
the arbiters' entry form and from the player API, the director reviews and publishes, and the
projection screen changes by itself."""

from __future__ import annotations

import datetime as dt
import json
import urllib.request

import pytest
from django.conf import settings
from django.test import Client

from arbiter.services import clock, scoring
from tests.factories import UserFactory
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import Event, Game, Player, Round, Ruling, Submission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LAPTOP = {"width": 1366, "height": 900}
SCREEN = {"width": 1920, "height": 1080}


def logged_in(browser, live_server, user, viewport):  # noqa: F811
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context.new_page()


def api_slip(live_server, token: str, round_number: int, word: str, ref: str, score: int) -> dict:
    body = json.dumps({"round": round_number, "ref": ref, "word": word, "score": score}).encode()
    request = urllib.request.Request(
        f"{live_server.url}/api/v1/play/submissions",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def score_now(round_id: int) -> None:
    """What the close and score tasks do once the (early) deadline and the grace have passed."""
    r = Round.objects.get(pk=round_id)
    later = r.deadline + dt.timedelta(seconds=r.game.event.grace_seconds)
    assert clock.round_close(round_id=round_id, now=later)
    assert scoring.round_score(round_id=round_id, now=later) is not None


def test_a_short_event_runs_from_the_console_with_slips_from_paper_and_phones(
    browser,  # noqa: F811
    live_server,
) -> None:
    director, arbiter = UserFactory(username="dora"), UserFactory(username="arnold")
    console = logged_in(browser, live_server, director, LAPTOP)
    # Set up from the browser: the event and its rules, the players, the arbiter, the game.
    console.goto(f"{live_server.url}/events/new/")
    console.fill("input[name=name]", "Autumn duplicate")
    console.fill("input[name=starts_on]", "2026-11-22")
    console.fill("input[name=solo_min_players]", "3")
    console.click("text=Create the event")
    assert "register its players" in console.locator(".messages").inner_text()
    event = Event.objects.get(name="Autumn duplicate")
    assert event.slug == "autumn-duplicate" and event.solo_min_players == 3
    for table, name in enumerate(["Ann", "Bob", "Cleo"], start=1):
        console.fill("#player-add input[name=table]", str(table))
        console.fill("#player-add input[name=name]", name)
        console.click("#player-add button")
        assert (
            f"{name} is registered at table {table}." in console.locator(".messages").inner_text()
        )
    console.fill("input[name=username]", "arnold")
    console.select_option("select[name=role]", "arbiter")
    console.click("text=Grant")
    console.fill("input[name=seed]", "7")
    console.click("text=Add a game")
    assert "Game 1 is added (random draw)." in console.locator(".messages").inner_text()
    console.screenshot(path="/tmp/console-setup.png", full_page=True)
    players = list(Player.objects.filter(event=event).order_by("table"))
    game = Game.objects.get(event=event, number=1)
    entry = logged_in(browser, live_server, arbiter, LAPTOP)
    screen = logged_in(browser, live_server, director, SCREEN)
    screen.goto(f"{live_server.url}/events/autumn-duplicate/screen/")
    console.goto(f"{live_server.url}/events/autumn-duplicate/games/1/console/")
    console.on("dialog", lambda dialog: dialog.accept())  # "Close now?", "Publish?": yes

    for number, (paper, phone) in enumerate(
        [(("WROTE", "H4", "24"), ("TROWEL", "H3", 20)), (None, None)], start=1
    ):
        console.click("text=Draw the next rack")
        assert console.locator(".messages").inner_text().startswith(f"Round {number}: rack")
        console.click("text=Start the clock")
        console.wait_for_selector("#clock")
        r = Round.objects.get(game=game, number=number, status=Round.Status.OPEN)
        screen.wait_for_function(
            f"document.getElementById('sub').textContent.includes('round {number}')", timeout=10000
        )
        letters = screen.locator("#rack span").evaluate_all("ts => ts.map(t => t.firstChild.data)")
        assert "".join(letters) == r.rack
        if number == 1:
            screen.screenshot(path="/tmp/console-screen-open.png")
            entry.goto(f"{live_server.url}/events/autumn-duplicate/games/1/slips/")
            entry.fill("input[name=table]", "1")
            entry.fill("input[name=word]", paper[0])
            entry.fill("input[name=ref]", paper[1])
            entry.fill("input[name=score]", paper[2])
            entry.press("input[name=score]", "Enter")
            assert "Table 1 (Ann): H4 WROTE 24 recorded." in entry.locator(".messages").inner_text()
            assert (
                entry.evaluate("document.activeElement.name") == "table"
            )  # ready for the next slip
            receipt = api_slip(live_server, players[1].token, 1, *phone)
            assert receipt["word"] == "TROWEL"
            console.wait_for_function(
                "document.getElementById('slips').textContent === '2'", timeout=10000
            )
            console.screenshot(path="/tmp/console-open.png", full_page=True)
        else:
            scoring.round_tops_compute(round_id=r.pk)
            r.refresh_from_db()
            top = r.tops[0]
            api_slip(live_server, players[2].token, 2, top["word"], top["ref"], top["score"])
        console.click("text=Close now")
        console.wait_for_selector(".messages:has-text('closes now')")  # its answer, then the tasks
        score_now(r.pk)
        console.wait_for_selector("h2:has-text('review')")  # the console reloads itself once scored
        assert console.locator("h2", has_text="review").count() == 1
        if number == 1:
            console.screenshot(path="/tmp/console-review.png", full_page=True)
        console.click(f"text=Publish round {number}")
        assert f"Round {number} published" in console.locator(".messages").inner_text()
        played = Round.objects.get(pk=r.pk).played_word
        screen.wait_for_function(  # the screen shows the top of the round just published
            "word => document.getElementById('top').textContent.includes(word)",
            arg=played,
            timeout=10000,
        )
        assert f"Round {number} top" in screen.locator("#top").inner_text()

    screen.screenshot(path="/tmp/console-screen-published.png")
    assert (
        Submission.objects.filter(source="arbiter").count() == 1
        and Submission.objects.filter(source="api").count() == 2
    )
    ann = Ruling.objects.get(round__number=1, player=players[0])
    assert (ann.code, ann.points, ann.solo) == ("valid", 24, 10)
    assert "Ann" in screen.locator("#standings").inner_text()
