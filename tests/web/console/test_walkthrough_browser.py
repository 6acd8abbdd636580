"""A new director's night in real headless Chromium, from the set-up to the exports: players
imported, two arbiters, two games (one drawn, one typed from the bag), rounds with phone slips
and paper slips typed at the keyboard and typed again (double entry), a third look at the
mismatches, a pause (a phone slip waits for the clock), amendments of an earlier round, the
screen and the workbook.

The keyboard-only entry of 40 paper slips is timed (printed, and kept under a bound that
catches a page that stalls)."""

from __future__ import annotations

import io
import json
import time
import urllib.error

import openpyxl
import pytest
from django.utils import timezone

from arbiter.services import scoring
from tests.factories import UserFactory
from tests.web.console.test_console_browser import api_slip, logged_in, score_now
from tests.web.layout import assert_no_horizontal_scroll, assert_square_board
from tests.web.play.test_play_browser import PHONE, browser  # noqa: F401 - the shared Chromium
from tournament.models import AuditEntry, Event, Game, Player, Round, Ruling, Submission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LAPTOP = {"width": 1280, "height": 800}
PLAYERS = 40
SHOTS = "/tmp/faces"
# Round 1 of seed 7: rack ELORTTW, top H4 WROTE 24. What the paper slips say, by table.
SLIPS = {t: ("WROTE", "H4", "24") if t % 3 else ("TOWEL", "H4", "20") for t in range(1, 41)}
SLIPS[7] = ("QUIZ", "H8", "35")  # letters not on the rack: recorded, ruled, never lost
SECOND = dict(SLIPS) | {5: ("WROTE", "H4", "42"), 11: ("WRITE", "H4", "24")}  # two misreads


def type_slip(page, table: int, word: str, ref: str, score: str, *, choice: str = "") -> None:
    """Keyboard only: table, Enter, word, Enter, ref, Enter, score, Enter (and c or m first
    when the player already has a slip); back on the table number."""
    page.wait_for_function("document.activeElement && document.activeElement.name === 'table'")
    page.keyboard.type(str(table))
    page.keyboard.press("Enter")
    page.keyboard.type(word)
    page.keyboard.press("Enter")
    page.keyboard.type(ref)
    page.keyboard.press("Enter")
    page.keyboard.type(score)
    # The player shown beside the form (the look-up sent on the table's Enter has answered).
    page.wait_for_selector(f"#table-slips-body strong:has-text('Table {table} ·')")
    with page.expect_navigation():
        page.keyboard.press("Enter")
        if choice:
            page.wait_for_function(
                "document.activeElement && document.activeElement.name === 'existing'"
            )
            page.keyboard.press(choice)
            page.keyboard.press("Enter")


def test_a_new_director_runs_a_night_of_two_games_with_forty_players(
    browser,  # noqa: F811
    live_server,
    settings,
    tmp_path,
) -> None:
    settings.TIME_ZONE = "Europe/Paris"
    settings.VAR_DIR = tmp_path
    director = UserFactory(username="dora")
    arbiters = [UserFactory(username="arnold"), UserFactory(username="bea")]
    console = logged_in(browser, live_server, director, LAPTOP)
    console.on("dialog", lambda dialog: dialog.accept())  # Close now? Publish? yes

    # Set-up: the event, 40 players from a file, two arbiters, a drawn game and a typed one.
    console.goto(f"{live_server.url}/events/new/")
    console.fill("input[name=name]", "Friday duplicate")
    console.fill("input[name=starts_on]", "2026-11-27")
    console.fill("input[name=solo_min_players]", "99")
    console.click("text=Create the event")
    event = Event.objects.get(name="Friday duplicate")
    console.goto(f"{live_server.url}/events/{event.slug}/players/import/")
    rows = "\n".join(f"Player {t:02d},{t},Club {t % 4}" for t in range(1, PLAYERS + 1))
    console.set_input_files(
        "input[name=file]",
        {
            "name": "players.csv",
            "mimeType": "text/csv",
            "buffer": f"name,table,club\n{rows}\n".encode(),
        },
    )
    console.click("button:has-text('Import')")
    assert Player.objects.filter(event=event).count() == PLAYERS
    console.goto(f"{live_server.url}/events/{event.slug}/setup/")
    for user in arbiters:
        console.fill("input[name=username]", user.username)
        console.select_option("select[name=role]", "arbiter")
        console.click("text=Grant")
    console.fill("input[name=seed]", "7")
    console.click("text=Add a game")
    console.select_option("select[name=source]", "manual")
    console.click("text=Add a game")
    assert list(Game.objects.filter(event=event).values_list("source", flat=True)) == [
        "random",
        "manual",
    ]
    console.screenshot(path=f"{SHOTS}/setup.png", full_page=True)
    players = {p.table: p for p in Player.objects.filter(event=event)}

    # Game 1, round 1: drawn and opened from the keyboard, in the event's time zone.
    base = f"{live_server.url}/events/{event.slug}/games/1"
    console.goto(f"{base}/console/")
    console.keyboard.press("d")
    console.wait_for_selector("text=Start the clock")
    console.keyboard.press("o")
    console.wait_for_selector("#clock")
    r1 = Round.objects.get(game__event=event, game__number=1, number=1)
    assert r1.deadline is not None
    paris = timezone.localtime(r1.deadline).strftime("%H:%M:%S")
    assert f"open until {paris}" in console.locator(".messages").inner_text()
    assert_square_board(console, "table.board td.sq", tiles=0)
    api_slip(live_server, players[1].token, 1, "TOWER", "H4", 22)  # a phone slip, table 1

    # Arnold types the 40 paper slips, keyboard only; table 1 has a phone slip: a correction.
    # (The console steps aside meanwhile: the test server shares one SQLite connection.)
    console.goto(f"{live_server.url}/events/{event.slug}/")
    arnold = logged_in(browser, live_server, arbiters[0], LAPTOP)
    arnold.goto(f"{base}/slips/")
    arnold.fill("input[name=table]", "1")
    arnold.keyboard.press("Enter")
    arnold.wait_for_selector("#table-slips-body li.counts")
    assert "TOWER" in arnold.inner_text("#table-slips") and "Player 01" in arnold.inner_text(
        "#table-slips"
    )
    assert arnold.locator("#existing").is_visible()  # the choice, before anything is sent
    arnold.screenshot(path=f"{SHOTS}/slip-entry-phone-slip-beside.png", full_page=True)
    arnold.goto(f"{base}/slips/")
    started = time.perf_counter()
    for table, (word, ref, score) in SLIPS.items():
        type_slip(arnold, table, word, ref, score, choice="c" if table == 1 else "")
    typed = time.perf_counter() - started
    print(f"\n40 paper slips typed keyboard-only in {typed:.1f} s ({typed / 40:.2f} s a slip)")
    assert typed < 120, f"40 slips took {typed:.1f} s"
    slips = Submission.objects.filter(round=r1, is_current=True)
    assert slips.count() == PLAYERS
    assert {s.player.table: (s.word, s.ref, str(s.announced_score)) for s in slips} == SLIPS
    assert Submission.objects.get(round=r1, player=players[1], source="api").is_current is False
    assert "Table 40 (Player 40): H4 WROTE 24 recorded." in arnold.inner_text(".messages")

    # Bea types them again in the second entry mode; two misreads are listed for a third look.
    bea = logged_in(browser, live_server, arbiters[1], LAPTOP)
    bea.goto(f"{base}/console/")
    bea.click("a:has-text('second entry')")
    bea.wait_for_selector("#second-note")
    assert "Double entry, second arbiter" in bea.inner_text("#second-note")
    started = time.perf_counter()
    for table, (word, ref, score) in SECOND.items():
        type_slip(bea, table, word, ref, score)
    print(f"40 second entries in {time.perf_counter() - started:.1f} s")
    assert "second entry agrees" in bea.inner_text(".messages")
    bea.reload()
    rows = bea.locator("#mismatches tr[data-table]")
    assert rows.count() == 2
    assert "42" in rows.nth(0).inner_text() and "WRITE" in rows.nth(1).inner_text()
    bea.screenshot(path=f"{SHOTS}/slip-entry-mismatches.png", full_page=True)
    console.goto(f"{base}/console/")
    assert "Double-entry mismatches: 2" in console.inner_text("#mismatch-flag")
    console.click("#mismatch-flag a")
    for table, kept in ((5, "first"), (11, "second")):
        console.click(f"#mismatches tr[data-table='{table}'] button:has-text('Keep the {kept}')")
        console.wait_for_selector(f".messages:has-text('the {kept} entry stands')")
    assert console.locator("#mismatches tr[data-table]").count() == 0
    assert Submission.objects.get(round=r1, player=players[11], is_current=True).word == "WRITE"
    assert Submission.objects.get(round=r1, player=players[5], is_current=True).word == "WROTE"
    assert AuditEntry.objects.filter(action="arbiter.slip.check_resolved").count() == 2

    # Close from the keyboard (it asks), rule, publish from the keyboard (it asks).
    console.goto(f"{base}/console/")
    console.keyboard.press("c")
    console.wait_for_selector(".messages:has-text('closes now')")
    score_now(r1.pk)
    console.wait_for_selector("h2:has-text('review')")  # the console reloads itself once scored
    console.screenshot(path=f"{SHOTS}/console-review.png", full_page=True)
    console.keyboard.press("p")
    console.wait_for_selector("text=Draw the next rack")
    quiz = Ruling.objects.get(round=r1, player=players[7])
    assert quiz.code == "not_on_rack" and quiz.points == 0
    assert Ruling.objects.get(round=r1, player=players[2]).points == 24
    assert_square_board(console, "table.board td.sq", tiles=5)

    # Round 2: the clock is stopped; a phone slip waits for it to start again (refused in
    # the pause, the phone's button says why); once it runs, the slip is taken and the phone
    # shows its slips.
    console.keyboard.press("d")
    console.wait_for_selector("text=Start the clock")
    console.keyboard.press("o")
    console.wait_for_selector("#clock")
    console.keyboard.press("r")
    console.wait_for_selector("#console[data-paused='1']")
    r2 = Round.objects.get(game__number=1, game__event=event, number=2)
    assert r2.is_paused
    scoring.round_tops_compute(round_id=r2.pk)
    top = Round.objects.get(pk=r2.pk).tops[0]
    with pytest.raises(urllib.error.HTTPError) as paused:
        api_slip(live_server, players[2].token, 2, top["word"], top["ref"], top["score"])
    assert paused.value.code == 409 and json.loads(paused.value.read())["code"] == "round_paused"
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{live_server.url}/play/{players[2].token}/")
    phone.wait_for_selector("#submit:disabled:has-text('Clock stopped')")
    console.keyboard.press("r")
    console.wait_for_selector("#console[data-paused='']")
    phone.wait_for_selector("#submit:enabled:has-text('Send my slip')", timeout=15_000)
    receipt = api_slip(live_server, players[2].token, 2, top["word"], top["ref"], top["score"])
    assert receipt["word"] == top["word"]
    phone.wait_for_function("document.querySelectorAll('#history-list li').length >= 2")
    assert_no_horizontal_scroll(phone)
    phone.screenshot(path=f"{SHOTS}/phone-390.png", full_page=True)
    console.keyboard.press("c")
    console.wait_for_selector(".messages:has-text('closes now')")
    score_now(r2.pk)
    console.wait_for_selector("h2:has-text('review')")  # the console reloads itself once scored
    console.keyboard.press("p")
    console.wait_for_selector("text=Draw the next rack")

    # Amendments of round 1 (no longer the current one): a warning, a reference penalty.
    console.keyboard.press("a")
    console.wait_for_selector("#rulings")
    console.click("#rounds a:text-is('1')")
    row = console.locator("#rulings tr[data-table='4']")
    row.locator("summary").click()
    form = console.locator("#rulings tr.amend-row:visible form")
    form.locator("select[name=warning]").select_option("1")
    form.locator("input[name=penalty]").fill("5")
    form.locator("input[name=reason]").fill("reference written 4H on the slip")
    form.locator("button").click()
    assert "Player 04: now" in console.inner_text(".messages")
    amended = Ruling.objects.get(round=r1, player=players[4])
    assert amended.warning and amended.penalty == 5 and amended.amended
    console.screenshot(path=f"{SHOTS}/amendments.png", full_page=True)

    # Game 2 is typed from the bag: eight letters are refused, not cut to seven.
    console.goto(f"{live_server.url}/events/{event.slug}/games/2/console/")
    console.fill("input[name=rack]", "AEINRSTX")
    console.click("text=Enter the rack")
    assert "AEINRSTX" in console.inner_text(".messages")
    assert not Round.objects.filter(game__event=event, game__number=2).exists()
    console.fill("input[name=rack]", "AEINRST")
    console.click("text=Enter the rack")
    assert "rack AEINRST accepted" in console.inner_text(".messages")

    # The screen of game 1 and the event's badge; the workbook.
    for size in ({"width": 1920, "height": 1080}, {"width": 1024, "height": 768}):
        screen = logged_in(browser, live_server, director, size)
        screen.goto(f"{base}/screen/")
        screen.wait_for_function("document.querySelectorAll('#board td.tile').length > 0")
        screen.wait_for_selector("#standings li")
        board = Game.objects.get(pk=r1.game_id).board
        tiles = sum(1 for line in board for ch in line if ch != ".")
        assert_square_board(screen, "#board td.sq", tiles=tiles)
        screen.screenshot(path=f"{SHOTS}/screen-{size['width']}.png")
        screen.context.close()
    console.goto(f"{live_server.url}/")
    assert console.inner_text(".badge").strip().lower() == "running"  # from its games
    console.goto(f"{live_server.url}/events/{event.slug}/")
    with console.expect_download() as download:
        console.click("text=Event workbook (.xlsx)")
    book = openpyxl.load_workbook(io.BytesIO(download.value.path().read_bytes()))
    assert {"Standings", "Scores G1", "Slips G1"} <= set(book.sheetnames)
    assert book["Standings"].max_row >= PLAYERS + 1
