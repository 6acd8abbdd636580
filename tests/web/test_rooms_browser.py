"""A simultaneous event (issue 16.1) run by its director in real headless Chromium: an event
with a whole game drawn in the set-up, the event page's Simultaneous card to the rooms page, a
local room and a remote room added with its form; players registered in the host and the local
room on their set-up pages, rounds played on their consoles (drawn, opened, paper slips typed on
the slip entry page, closed, published); the one ranking with each player's room and rounds,
its club filter and "only the rounds every room has published"; the remote room's results file
downloaded from another installation's event page and imported (then again: nothing changed; a
damaged copy: its problems listed). Then the page's layout at a phone's, a laptop's and a
projector's size, in English and in French (the header's switch): no sideways scroll, the
tables inside their cards, every form's controls inside the card and apart, no English left.

Screenshots: /tmp/rooms-shots/*.png.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.arbiter.rooms.helpers import play
from tests.factories import EventFactory, EventRoleFactory, PlayerFactory, UserFactory
from tests.web.console.test_console_browser import logged_in, score_now
from tests.web.console.test_walkthrough_browser import type_slip
from tests.web.layout import assert_no_horizontal_scroll
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tests.web.test_french_browser import english_left
from tournament.models import Event, EventRole, Game, Round
from tournament.services.games import game_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}
SIZES = {"phone": PHONE, "laptop": LAPTOP, "projector": PROJECTOR}
SHOTS = Path("/tmp/rooms-shots")

HOST = "Simultané mondial"  # no English word: the French page is read for English
# Long names and clubs: the ranking must still fit a phone.
HOST_PLAYERS = [
    (1, "Marie-Christine Delacroix-Fontaine", "Saint-Germain-en-Laye", "P1"),
    (2, "Bob Martin", "Paris", "P2"),
]
ROOM_PLAYERS = [
    (1, "Cleo Durand", "Lyon", "L1"),
    (2, "Dan Rousseau-Berthelot", "Villeurbanne", "L2"),
]

# The card ``selector`` lies inside the window; every rendered control of it lies inside the
# card, and no two controls of one form overlap (a label holding its checkbox is one control); a
# table wider than the card is only allowed when the card scrolls sideways (site.css, as the
# console's panels do), never the page.
_CONTROLS = """(selector) => {
  const card = document.querySelector(selector);
  const c = card.getBoundingClientRect();
  const scrolls = ['auto', 'scroll'].includes(getComputedStyle(card).overflowX);
  const problems = [];
  if (c.left < 0 || c.right > innerWidth) problems.push(`the card: ${c.left}-${c.right}`);
  const name = (el) => el.outerHTML.slice(0, 70);
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const all = Array.from(card.querySelectorAll(
    'input:not([type=hidden]), select, button, label, table')).filter(shown);
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (el.tagName === 'TABLE' && scrolls && r.left >= c.left - 1) continue;
    if (r.left < c.left - 1 || r.right > c.right + 1 || r.left < 0 || r.right > innerWidth) {
      problems.push(`${name(el)}: ${r.left}-${r.right} out of ${c.left}-${c.right}`);
    }
  }
  card.querySelectorAll('form').forEach((form) => {
    const controls = Array.from(form.querySelectorAll(
      'input:not([type=hidden]):not([type=checkbox]), select, button, label')).filter(shown);
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i], b = controls[j];
        if (a.contains(b) || b.contains(a)) continue;
        const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
        const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (w > 1 && h > 1) problems.push(`${name(a)} overlaps ${name(b)}`);
      }
    }
  });
  return problems;
}"""

# A table's rows as the director sees them: {column header: cell text}, shown columns only
# (the text as written, before the headers' capitals).
_ROWS = """(selector) => {
  const table = document.querySelector(selector);
  if (!table) return [];
  const text = (el) => el.textContent.replace(/\\s+/g, ' ').trim();
  const heads = Array.from(table.querySelectorAll('thead th')).map(text);
  return Array.from(table.querySelectorAll('tbody tr')).map((tr) => {
    const row = {};
    Array.from(tr.cells).forEach((td, i) => {
      if (td.getBoundingClientRect().width > 0) row[heads[i]] = text(td);
    });
    return row;
  });
}"""


def rows(page: Any, selector: str = "#ranking-table") -> list[dict[str, str]]:
    return list(page.evaluate(_ROWS, selector))


def shown_headers(page: Any, selector: str) -> list[str]:
    return list(
        page.evaluate(
            """(s) => Array.from(document.querySelectorAll(s + ' thead th'))
                .filter((th) => th.getBoundingClientRect().width > 0)
                .map((th) => th.textContent.trim())""",
            selector,
        )
    )


def messages(page: Any) -> list[str]:
    return [m.strip() for m in page.locator(".messages li").all_inner_texts()]


def quiet(page: Any) -> None:
    """No request of the page left in flight: the live server shares the test's one SQLite
    connection, so the test touches the database only while the browser is quiet."""
    page.wait_for_load_state("networkidle")


def register(page: Any, base: str, slug: str, players: list[tuple[int, str, str, str]]) -> None:
    """The players registered one by one on the event's set-up page."""
    page.goto(f"{base}/events/{slug}/setup/")
    for table, name, club, licence in players:
        form = page.locator("#player-add")
        form.locator("input[name=table]").fill(str(table))
        form.locator("input[name=name]").fill(name)
        form.locator("input[name=club]").fill(club)
        form.locator("input[name=licence]").fill(licence)
        with page.expect_navigation():
            form.locator("button").click()
        assert f"{name} is registered at table {table}." in messages(page)


def play_round(page: Any, base: str, event: Event, tops: set[int]) -> Round:
    """The next round of the event's game 1 from its console (drawn and opened from the
    keyboard), the top typed on paper slips for the tables ``tops``, closed, scored (what the
    tasks do at the deadline) and published."""
    console = f"{base}/events/{event.slug}/games/1/console/"
    page.goto(console)
    page.keyboard.press("d")
    page.wait_for_selector("text=Start the clock")
    page.keyboard.press("o")
    page.wait_for_selector("#clock")
    # The console (it polls) steps aside whenever the test reads or writes the database.
    page.goto(f"{base}/events/{event.slug}/games/1/slips/")
    quiet(page)
    round = Round.objects.filter(game__event=event, game__number=1).order_by("-number").first()
    assert round is not None and round.status == Round.Status.OPEN
    planned = round.game.predrawn["rounds"][round.number - 1]
    assert round.rack == planned["rack"]  # the rack drawn in advance, the same in every room
    for table in sorted(tops):
        type_slip(page, table, planned["word"], planned["ref"], str(planned["score"]))
    page.goto(console)
    page.keyboard.press("c")
    page.wait_for_selector(".messages:has-text('closes now')")
    page.goto(f"{base}/events/{event.slug}/")
    quiet(page)
    score_now(round.pk)
    page.goto(console)
    page.keyboard.press("p")
    page.wait_for_selector("text=Draw the next rack")
    round.refresh_from_db()
    assert round.status == Round.Status.PUBLISHED
    return round


def played_elsewhere(host: Event, director: Any) -> Event:
    """Another installation's event playing the host's game: two players, round 1 played
    there (Eve the top, Fay the second best); the director may download its results file."""
    event = EventFactory(name="Far away", slug="far-away")
    EventRoleFactory(event=event, user=director, role=EventRole.Role.DIRECTOR)
    game_create(
        event=event, actor=None, source=Game.Source.PREDRAWN, predrawn=host.games.get().predrawn
    )
    eve = PlayerFactory(event=event, name="Eve Tremblay", club="Montréal", licence="Q1", table=1)
    fay = PlayerFactory(event=event, name="Fay Gagnon", club="Montréal", licence="Q2", table=2)
    play(event, {eve: "top", fay: "second"})
    return event


def look(page: Any, shot: str) -> None:
    """The rooms page as laid out: a screenshot, no sideways scroll, every card's controls and
    tables inside it and the window, the forms' controls apart."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{shot}.png"), full_page=True)
    assert_no_horizontal_scroll(page)
    for card in ("#rooms", "#room-import", "#ranking"):
        if page.locator(card).count():
            assert page.evaluate(_CONTROLS, card) == [], f"{shot}: {card}"


def test_a_director_runs_a_simultaneous_event_from_the_browser(
    browser,  # noqa: F811
    live_server,
    tmp_path: Path,
) -> None:
    director = UserFactory(username="dora")
    base = live_server.url
    page = logged_in(browser, live_server, director, LAPTOP)
    page.on("dialog", lambda dialog: dialog.accept())  # close now? publish? yes

    # 1. The host: an event whose game is drawn whole in the set-up.
    page.goto(f"{base}/events/new/")
    page.fill("input[name=name]", HOST)
    page.fill("input[name=starts_on]", "2026-11-28")
    page.click("text=Create the event")
    host = Event.objects.get(name=HOST)
    page.goto(f"{base}/events/{host.slug}/setup/")
    page.select_option("select[name=source]", "whole")
    page.fill("input[name=seed]", "20261128")
    with page.expect_navigation():
        page.click("text=Add a game")
    game = host.games.get()
    assert game.source == Game.Source.PREDRAWN and game.seed == 20261128
    rounds = len(game.predrawn["rounds"])
    assert f"Game 1 is drawn in advance: {rounds} rounds." in messages(page)

    # The event page's Simultaneous card leads to the rooms page; two rooms added there.
    page.goto(f"{base}/events/{host.slug}/")
    card = page.locator("section#simultaneous")
    assert "Play this event's games in several rooms at once" in card.inner_text()
    with page.expect_navigation():
        card.locator("a:has-text('Add rooms')").click()
    assert page.url == f"{base}/events/{host.slug}/simultaneous/"
    for name, venue, remote in (("Lyon", "Salle Molière", False), ("Québec", "", True)):
        form = page.locator("#room-add")
        form.locator("input[name=name]").fill(name)
        form.locator("input[name=venue]").fill(venue)
        form.locator("input[name=remote]").set_checked(remote)
        with page.expect_navigation():
            form.locator("button").click()
        assert f"The room {name} is added, with 1 game." in messages(page)
    lyon, quebec = Event.objects.get(name="Lyon"), Event.objects.get(name="Québec")
    assert lyon.host == host and not lyon.remote and quebec.host == host and quebec.remote
    assert [r["Room"] for r in rows(page, "#rooms table")] == [
        f"{HOST} (host)",
        "Lyon · Salle Molière",
        "Québec remote: imported",
    ]
    look(page, "01-rooms-added-laptop")

    # 2. Players in the host and in the local room; the host plays two rounds, Lyon one.
    register(page, base, host.slug, HOST_PLAYERS)
    register(page, base, lyon.slug, ROOM_PLAYERS)
    play_round(page, base, host, tops={1, 2})
    play_round(page, base, host, tops={1})
    play_round(page, base, lyon, tops={1})
    first, second = (r["score"] for r in game.predrawn["rounds"][:2])

    # 3. The one ranking: every room's players, with their room and rounds.
    page.goto(f"{base}/events/{host.slug}/")
    with page.expect_navigation():
        page.click("section#simultaneous a:has-text('Rooms and the one ranking')")
    progress = {
        r["Room"]: (r["Players"], r["Rounds published"], r["Last published"])
        for r in rows(page, "#rooms table")
    }
    assert progress == {
        f"{HOST} (host)": ("2", "2", "game 1, round 2"),
        "Lyon · Salle Molière": ("2", "1", "game 1, round 1"),
        "Québec remote: imported": ("0", "0", "–"),
    }
    ranked = rows(page)
    table = {r["Player"]: (r["Room"], r["Rounds"], r["Total"]) for r in ranked}
    marie, bob = HOST_PLAYERS[0][1], HOST_PLAYERS[1][1]
    cleo, dan = ROOM_PLAYERS[0][1], ROOM_PLAYERS[1][1]
    assert table == {
        marie: (HOST, "2", str(first + second)),
        bob: (HOST, "2", str(first)),
        cleo: ("Lyon", "1", str(first)),
        dan: ("Lyon", "1", "0"),
    }
    assert ranked[0]["Player"] == marie and ranked[0]["#"] == "1"
    assert "Overall" not in ranked[0]
    page.screenshot(path=str(SHOTS / "02-ranking-two-rooms-laptop.png"), full_page=True)

    # The filter: one club (ranked within it, the overall rank beside) ...
    page.select_option("#ranking-filter select[name=club]", "Lyon")
    with page.expect_navigation():
        page.click("#ranking-filter button:has-text('Show')")
    assert [(r["Player"], r["#"], r["Overall"], r["Room"]) for r in rows(page)] == [
        (cleo, "1", "2", "Lyon")
    ]
    assert "ranked within the filter" in page.inner_text("#ranking h2")
    # ... and only the rounds every room has published: the host's players on round 1 alone.
    page.select_option("#ranking-filter select[name=club]", "")
    page.check("#ranking-filter input[name=common]")
    with page.expect_navigation():
        page.click("#ranking-filter button:has-text('Show')")
    assert "common=1" in page.url
    table = {r["Player"]: (r["Room"], r["Rounds"], r["Total"]) for r in rows(page)}
    assert table[marie] == (HOST, "1", str(first)) and table[bob] == (HOST, "1", str(first))
    assert table[cleo] == ("Lyon", "1", str(first))
    assert "Every player is counted on the same rounds." in page.inner_text("#ranking")
    page.screenshot(path=str(SHOTS / "03-ranking-common-laptop.png"), full_page=True)

    # The remote room's file, downloaded from its event page on the other installation.
    quiet(page)
    far = played_elsewhere(host, director)
    page.goto(f"{base}/events/{far.slug}/")
    with page.expect_download() as download:
        page.click("section#simultaneous a:has-text('room results file (.json)')")
    results = tmp_path / "far-away-room-results.json"
    download.value.save_as(results)
    assert download.value.suggested_filename == "far-away-room-results.json"
    assert json.loads(results.read_text())["format"] == "duplicate-room-results"

    # The remote room's page (from the host's rooms page, then its event page) imports it.
    page.goto(f"{base}/events/{host.slug}/simultaneous/")
    with page.expect_navigation():
        page.click("#rooms a:has-text('Québec')")
    assert "played on another installation" in page.inner_text("section#simultaneous")
    with page.expect_navigation():
        page.click("section#simultaneous a:has-text('Rooms and the one ranking')")
    assert page.url == f"{base}/events/{quebec.slug}/simultaneous/"
    assert "Import Québec's results" in page.inner_text("#room-import h2")
    look(page, "04-remote-room-import-form-laptop")

    def upload(path: Path) -> list[str]:
        page.set_input_files("#room-import input[type=file]", str(path))
        with page.expect_navigation():
            page.click("#room-import button:has-text('Import')")
        return messages(page)

    assert upload(results) == [
        "Imported. Rounds added: 1. Players added: 2, matched: 0. Rulings added: 2, changed: 0."
    ]
    page.screenshot(path=str(SHOTS / "05-imported-laptop.png"), full_page=True)
    table = {r["Player"]: (r["Room"], r["Rounds"], r["Total"]) for r in rows(page)}
    assert table["Eve Tremblay"] == ("Québec", "1", str(first))
    assert table["Fay Gagnon"][:2] == ("Québec", "1")
    assert len(table) == 6
    assert upload(results) == ["This file was imported before: nothing changed."]

    # A damaged copy: its round is not the simultaneous's, a player has lost their name.
    document = json.loads(results.read_text())
    document["games"][0]["rounds"][0]["score"] += 1
    document["players"][1]["name"] = ""
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(document))
    said = upload(damaged)
    page.screenshot(path=str(SHOTS / "06-damaged-file-laptop.png"), full_page=True)
    assert said[0].startswith("Nothing imported:")
    assert any("It is not this simultaneous's game." in m for m in said), said
    assert any("a player needs a name" in m for m in said), said
    assert page.locator(".messages li.error").count() == len(said)
    assert quebec.players.count() == 2  # nothing imported

    # 4. The layout at a phone's, a laptop's and a projector's size; in English, then in French.
    page.close()
    for language in ("en", "fr"):
        for size, viewport in SIZES.items():
            view = logged_in(browser, live_server, director, viewport)
            view.goto(f"{base}/events/{host.slug}/simultaneous/")
            if language == "fr":
                with view.expect_navigation():
                    view.click("header form.language button[value=fr]")
                assert view.locator("html").get_attribute("lang") == "fr"
            view.wait_for_selector("#ranking-table")
            look(view, f"10-{language}-{size}")
            # The ranking's room and rounds are shown at every size.
            heads = shown_headers(view, "#ranking-table")
            room, rounds, overall = ("Room", "Rounds", "Overall")
            if language == "fr":
                room, rounds, overall = ("Centre", "Coups", "Général")
                assert english_left(view) == set(), size
            assert {room, rounds} <= set(heads), (size, heads)
            if size == "phone":  # filtered, the ranking has one more column: the overall rank
                view.goto(f"{base}/events/{host.slug}/simultaneous/?club=Lyon&common=1")
                look(view, f"11-{language}-phone-filtered")
                heads = shown_headers(view, "#ranking-table")
                assert {room, rounds, overall} <= set(heads), heads
                assert len(rows(view)) == 1
                if language == "fr":
                    assert english_left(view) == set()
            view.context.close()
